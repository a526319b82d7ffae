"""The DLPack 1.3 C exchange table (type(x).__dlpack_c_exchange_api__) as a
consumer sees it through ctypes, and the time of one exchange per array.

    python -m arrstride.bench.dlpack_exchange [--n 20000] [--shape 3,4]

A round trip is export then import: x -> DLManagedTensorVersioned -> an array
viewing the same memory. Timed per array (best of 7 repeats of n round trips):
- arrstride's table: managed_tensor_from_py_object_no_sync, then
  managed_tensor_to_py_object_no_sync;
- Python's protocol: xp.from_dlpack(x) (x.__dlpack__() and the capsule import);
- PyTorch's table (when torch.Tensor has one), torch -> torch;
- across tables: torch's export, arrstride's import (and back);
- a ctypes call of current_work_stream, the overhead every table row carries
  (calls through ctypes cost far more than a C consumer's); rows are shown raw
  and net of it (two calls per round trip);
- and, when a C compiler is at hand, the table rows again from a C consumer
  compiled with cffi for the run (a loop of export, import and Py_DecRef of the
  result, timed with clock_gettime): what a C extension pays.

The ctypes view of the table (ExchangeAPI, table, export, import_) is also what
tests/test_dlpack_exchange.py calls.
"""
from __future__ import annotations

import argparse
import ctypes
import timeit

_PTR = ctypes.c_void_p


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class ExchangeHeader(ctypes.Structure):
    pass


ExchangeHeader._fields_ = [("version", DLPackVersion), ("prev_api", ctypes.POINTER(ExchangeHeader))]

# The function types (dlpack.h 1.3). PYFUNCTYPE: called with the GIL held, and a
# Python exception the function sets is raised by ctypes when it returns.
SET_ERROR = ctypes.CFUNCTYPE(None, _PTR, ctypes.c_char_p, ctypes.c_char_p)
ALLOCATOR = ctypes.PYFUNCTYPE(ctypes.c_int, _PTR, ctypes.POINTER(_PTR), _PTR, SET_ERROR)
FROM_PY = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.POINTER(_PTR))
TO_PY = ctypes.PYFUNCTYPE(ctypes.c_int, _PTR, ctypes.POINTER(_PTR))
DLTENSOR_FROM_PY = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, _PTR)
STREAM = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_int32, ctypes.POINTER(_PTR))


class ExchangeAPI(ctypes.Structure):
    _fields_ = [("header", ExchangeHeader),
                ("managed_tensor_allocator", ALLOCATOR),
                ("managed_tensor_from_py_object_no_sync", FROM_PY),
                ("managed_tensor_to_py_object_no_sync", TO_PY),
                ("dltensor_from_py_object_no_sync", DLTENSOR_FROM_PY),
                ("current_work_stream", STREAM)]


_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = _PTR
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_dec_ref = ctypes.pythonapi.Py_DecRef
_dec_ref.argtypes = [ctypes.py_object]
_dec_ref.restype = None


def table(cls) -> ExchangeAPI:
    """The exchange table of a type, read from its capsule."""
    capsule = cls.__dlpack_c_exchange_api__
    return ExchangeAPI.from_address(_get_pointer(capsule, b"dlpack_exchange_api"))


def export(api: ExchangeAPI, obj) -> int:
    """The address of a new DLManagedTensorVersioned viewing obj (ours to delete)."""
    out = _PTR()
    api.managed_tensor_from_py_object_no_sync(obj, ctypes.byref(out))
    return out.value


def steal(address: int):
    """The object behind a new reference a C function returned as a raw pointer."""
    obj = ctypes.cast(address, ctypes.py_object).value  # a second reference
    _dec_ref(obj)  # back to one, held by obj
    return obj


def import_(api: ExchangeAPI, tensor: int):
    """The array the table makes of the tensor at `tensor` (which it takes)."""
    out = _PTR()
    api.managed_tensor_to_py_object_no_sync(tensor, ctypes.byref(out))
    return steal(out.value)


class Producer:
    """x seen as a foreign producer: from_dlpack goes through x.__dlpack__
    (xp.from_dlpack of an arrstride array returns it as it is)."""

    def __init__(self, x):
        self.__dlpack__ = x.__dlpack__
        self.__dlpack_device__ = x.__dlpack_device__


def _best(stmt, globals_, n: int) -> float:
    return min(timeit.repeat(stmt, globals=globals_, number=n, repeat=7)) / n


def measure(n: int = 20000, shape=(3, 4)) -> list:
    """(label, seconds per round trip) rows."""
    import numpy as np

    import arrstride as xp
    api = table(type(xp.ones(1)))
    x = xp.asarray(np.arange(float(np.prod(shape))).reshape(shape))
    g = dict(api=api, x=x, px=Producer(x), xp=xp, export=export, import_=import_, ctypes=ctypes,
             _PTR=_PTR)
    rows = [("ctypes call of current_work_stream (overhead per table call)",
             _best("api.current_work_stream(1, 0, ctypes.byref(_PTR()))", g, n)),
            ("arrstride table: export + import", _best("import_(api, export(api, x))", g, n)),
            ("Python protocol: xp.from_dlpack(x.__dlpack__ of x)", _best("xp.from_dlpack(px)", g, n))]
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and hasattr(torch.Tensor, "__dlpack_c_exchange_api__"):
        tapi = table(torch.Tensor)
        t = torch.arange(float(np.prod(shape)), dtype=torch.float64).reshape(shape)
        g.update(tapi=tapi, t=t, torch=torch)
        rows += [("PyTorch table: export + import", _best("import_(tapi, export(tapi, t))", g, n)),
                 ("Python protocol: torch.from_dlpack(t)", _best("torch.from_dlpack(t)", g, n)),
                 ("torch export -> arrstride import", _best("import_(api, export(tapi, t))", g, n)),
                 ("arrstride export -> torch import", _best("import_(tapi, export(api, x))", g, n))]
    return rows


_C_SOURCE = r"""
#include <time.h>
typedef struct { unsigned int major, minor; } version_t;
typedef struct header { version_t version; struct header *prev; } header_t;
typedef struct {
    header_t header;
    void *allocator;
    int (*from_py)(void *, void **);
    int (*to_py)(void *, void **);
    void *dltensor_from_py;
    void *stream;
} api_t;
/* (cffi's generated module includes Python.h) */
/* seconds per round trip of obj through export_api's export and import_api's import */
static double round_trips(void *export_api, void *import_api, void *obj, long n) {
    api_t *ex = export_api, *im = import_api;
    PyGILState_STATE g = PyGILState_Ensure();
    int bad = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < n && !bad; i++) {
        void *m, *out;
        bad = ex->from_py(obj, &m) != 0 || im->to_py(m, &out) != 0;
        if (!bad)
            Py_DECREF((PyObject *)out);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (bad)
        PyErr_Clear();
    PyGILState_Release(g);
    return bad ? -1.0 : ((t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec)) / n;
}
"""


def c_consumer():
    """round_trips(export_api, import_api, obj, n) compiled with cffi, or None
    (no compiler): it takes the GIL itself, as cffi calls C without it."""
    import importlib.util
    import tempfile
    try:
        from cffi import FFI
        ffi = FFI()
        ffi.cdef("double round_trips(void *, void *, void *, long);")
        ffi.set_source("_dlpack_exchange_bench", _C_SOURCE)
        where = tempfile.mkdtemp(prefix="dlpack-exchange-bench-")
        path = ffi.compile(tmpdir=where, verbose=False)
        spec = importlib.util.spec_from_file_location("_dlpack_exchange_bench", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    except Exception as e:  # noqa: BLE001 - no compiler: the ctypes rows stand alone
        print(f"(no C consumer: {type(e).__name__}: {e})")
        return None

    def run(export_api, import_api, obj, n):
        args = (mod.ffi.cast("void *", ctypes.addressof(export_api)),
                mod.ffi.cast("void *", ctypes.addressof(import_api)), mod.ffi.cast("void *", id(obj)))
        best = min(mod.lib.round_trips(*args, n) for _ in range(7))
        if best < 0:
            raise RuntimeError("the C consumer's round trip failed")
        return best
    return run


def measure_c(n: int = 20000, shape=(3, 4)) -> list:
    """(label, seconds per round trip) rows from the C consumer, or []."""
    run = c_consumer()
    if run is None:
        return []
    import numpy as np

    import arrstride as xp
    api = table(xp.Array)
    x = xp.asarray(np.arange(float(np.prod(shape))).reshape(shape))
    rows = [("C consumer, arrstride table: export + import", run(api, api, x, n))]
    try:
        import torch
    except ImportError:
        return rows
    if hasattr(torch.Tensor, "__dlpack_c_exchange_api__"):
        tapi = table(torch.Tensor)
        t = torch.arange(float(np.prod(shape)), dtype=torch.float64).reshape(shape)
        rows += [("C consumer, PyTorch table: export + import", run(tapi, tapi, t, n)),
                 ("C consumer, torch export -> arrstride import", run(tapi, api, t, n)),
                 ("C consumer, arrstride export -> torch import", run(api, tapi, x, n))]
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=20000)
    p.add_argument("--shape", default="3,4")
    args = p.parse_args()
    shape = tuple(int(s) for s in args.shape.split(",") if s)
    rows = measure(args.n, shape)
    call = rows[0][1]
    print(f"DLPack exchange of one float64 array of shape {shape}, per round trip "
          f"(best of 7 x {args.n}):")
    for label, s in rows:
        net = "" if label.startswith("ctypes") or "table" not in label and "->" not in label \
            else f"   ({(s - 2 * call) * 1e6:6.2f} us net of 2 ctypes calls)"
        print(f"  {s * 1e6:8.2f} us  {label}{net}")
    for label, s in measure_c(args.n, shape):
        print(f"  {s * 1e6:8.2f} us  {label}")


if __name__ == "__main__":
    main()
