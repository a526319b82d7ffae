"""The DLPack 1.3 C exchange table, type(x).__dlpack_c_exchange_api__
(native/core/exchange.c), called through ctypes as a C consumer calls it:
round trips over every dtype and layout with the fast paths on and off,
read-only arrays, lifetimes under gc, the allocator and the stream query,
malformed tensors given to the import (a Python exception, never a crash),
and exchanges with PyTorch's own table."""
from __future__ import annotations

import ctypes
import gc
import subprocess
import sys
import textwrap
import weakref
from pathlib import Path

import numpy as np
import pytest

import arrstride as xp
from arrstride import _core, _dlpack
from layouts import ALL, DTYPE_NAMES, address, make, params

from arrstride.bench.dlpack_exchange import SET_ERROR, export, import_, table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "fuzz"))
from targets import DLDataType, DLDevice, DLManagedTensorVersioned, DLTensor  # noqa: E402

API = table(xp.Array)


@pytest.fixture(params=[True, False], ids=["fast", "general"])
def paths(request):
    was = _core.set_fast_paths(request.param)
    yield request.param
    _core.set_fast_paths(was)


def settle():
    gc.collect()
    return _dlpack.live_exports()


def managed(address_: int) -> DLManagedTensorVersioned:
    return DLManagedTensorVersioned.from_address(address_)


def negative(a) -> bool:
    return a.size > 0 and any(s < 0 and d > 1 for s, d in zip(a.strides, a.shape))


# ---- the table ---------------------------------------------------------------------------

def test_the_capsule_and_header():
    cap = xp.Array.__dlpack_c_exchange_api__
    assert type(cap).__name__ == "PyCapsule" and "dlpack_exchange_api" in repr(cap)
    assert type(xp.ones(2)).__dlpack_c_exchange_api__ is cap  # one static object on the type
    assert (API.header.version.major, API.header.version.minor) == (1, 3)
    assert not API.header.prev_api  # no older table
    for name in ("managed_tensor_allocator", "managed_tensor_from_py_object_no_sync",
                 "managed_tensor_to_py_object_no_sync", "current_work_stream",
                 "dltensor_from_py_object_no_sync"):
        assert ctypes.cast(getattr(API, name), ctypes.c_void_p).value, name


# ---- dltensor_from_py_object_no_sync: a DLTensor viewing the array in place --------------

@pytest.mark.parametrize("layout", params(ALL, ndim=2))
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_dltensor_views_the_array_in_place(layout, name):
    a, n = make(layout, (3, 4), name)
    t = DLTensor()
    if a.storage.readonly or negative(a):  # what a bare DLTensor cannot say: refused
        why = "read-only" if a.storage.readonly else "negative strides"
        with pytest.raises(Exception, match=why):
            API.dltensor_from_py_object_no_sync(a, ctypes.addressof(t))
        return
    assert API.dltensor_from_py_object_no_sync(a, ctypes.addressof(t)) == 0
    m = managed(export(API, a))  # the managed export describes the same tensor
    assert (t.device.device_type, t.device.device_id, t.ndim) == (1, 0, a.ndim)
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (
        m.dl_tensor.dtype.code, m.dl_tensor.dtype.bits, m.dl_tensor.dtype.lanes)
    assert [t.shape[k] for k in range(t.ndim)] == list(a.shape)
    assert [t.strides[k] for k in range(t.ndim)] == list(a.strides)
    assert t.byte_offset == 0 and (a.size == 0 or t.data == address(a))
    if a.size and n.dtype.kind != "c" and name not in ("float16", "bfloat16"):
        # read the elements through the DLTensor alone: the same values as NumPy's
        ct = np.ctypeslib.as_ctypes_type(n.dtype)
        got = [ctypes.cast(t.data + sum(i * t.strides[k] for k, i in enumerate(idx)) * n.itemsize,
                           ctypes.POINTER(ct))[0] for idx in np.ndindex(*a.shape)]
        assert got == [v.item() for v in n.reshape(-1)]
    ctypes_import_delete(m)


def ctypes_import_delete(m):
    m.deleter(ctypes.pointer(m))


@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3), (1,) * 8])
def test_dltensor_of_0d_empty_and_8_dims(shape):
    a = xp.zeros(shape, dtype=xp.int16)
    t = DLTensor()
    assert API.dltensor_from_py_object_no_sync(a, ctypes.addressof(t)) == 0
    assert t.ndim == len(shape) and [t.shape[k] for k in range(t.ndim)] == list(shape)


def test_dltensor_refusals():
    t = DLTensor()
    with pytest.raises(Exception, match="arrstride array"):
        API.dltensor_from_py_object_no_sync(np.zeros(2), ctypes.addressof(t))
    with pytest.raises(Exception, match="arrstride array"):  # more dims than C holds
        API.dltensor_from_py_object_no_sync(xp.zeros((1,) * 9), ctypes.addressof(t))
    with pytest.raises(Exception, match="DLTensor to fill"):
        API.dltensor_from_py_object_no_sync(xp.zeros(2), None)


def test_current_work_stream_is_null_on_the_cpu():
    out = ctypes.c_void_p(12345)
    assert API.current_work_stream(1, 0, ctypes.byref(out)) == 0
    assert out.value is None


# ---- round trips -------------------------------------------------------------------------

@pytest.mark.parametrize("layout", params(ALL, ndim=2))
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_round_trip(paths, layout, name):
    a, n = make(layout, (3, 4), name)
    before = _dlpack.live_exports()  # (no cycles here: no gc.collect needed)
    t = export(API, a)
    m = managed(t)
    assert (m.version.major, m.dl_tensor.ndim) == (1, a.ndim)
    # a copy (bit 1) only of negative strides, as __dlpack__ exports them (PyTorch
    # refuses negative strides); else read-only (bit 0) as the storage is
    assert m.flags == (2 if negative(a) else int(a.storage.readonly))
    b = import_(API, t)
    assert type(b) is xp.Array and b.dtype == a.dtype and b.shape == a.shape
    assert b.tolist() == n.tolist()
    if a.size and not negative(a):
        assert address(b) == address(a)  # the same memory
        used = [k for k, d in enumerate(a.shape) if d > 1]
        assert [b.strides[k] for k in used] == [a.strides[k] for k in used]
        if layout != "broadcast":
            b[(0,) * b.ndim] = b[(-1,) * b.ndim]  # writes through
            assert a[(0,) * a.ndim].tolist() == a[(-1,) * a.ndim].tolist()
    del a, b
    assert _dlpack.live_exports() == before  # the deleter ran, once the view died


@pytest.mark.parametrize("shape", [(), (0,), (3, 0, 2), (1,), (2, 1, 3)])
def test_0d_empty_and_size_one(paths, shape):
    a = xp.reshape(xp.arange(int(np.prod(shape)), dtype=xp.int32), shape)
    b = import_(API, export(API, a))
    assert b.shape == a.shape and b.dtype == xp.int32 and b.tolist() == a.tolist()


def test_read_only_stays_read_only(paths):
    n = np.arange(6.0).reshape(2, 3)
    n.flags.writeable = False
    a = xp.asarray(n)
    t = export(API, a)
    assert managed(t).flags & 1  # DLPACK_FLAG_BITMASK_READ_ONLY
    b = import_(API, t)
    with pytest.raises(ValueError, match="read-only"):
        b[0, 0] = 1.0
    assert b.tolist() == n.tolist()


def test_fast_and_general_paths_agree():
    for layout in ALL:
        a, _ = make(layout, (3, 4), "float64")
        got = []
        for on in (True, False):
            was = _core.set_fast_paths(on)
            try:
                t = export(API, a)
                m = managed(t)
                got.append((m.flags, m.dl_tensor.ndim, m.dl_tensor.dtype.code, m.dl_tensor.dtype.bits))
                b = import_(API, t)
                got[-1] += (b.shape, b.dtype, tuple(b.tolist()) if b.ndim else b.tolist())
            finally:
                _core.set_fast_paths(was)
        assert got[0] == got[1], (layout, got)


def test_export_refuses_what_is_not_an_array():
    with pytest.raises(TypeError, match="managed_tensor_from_py_object_no_sync: py_object must be "
                                        "an arrstride array; got numpy.ndarray"):
        export(API, np.ones(3))


# ---- lifetimes ---------------------------------------------------------------------------

def test_the_tensor_keeps_the_storage_alive_and_is_deleted_once(paths):
    before = settle()
    a = xp.reshape(xp.arange(12.0), (3, 4))[:, 1:]
    alive = weakref.ref(a)
    t = export(API, a)
    del a
    gc.collect()
    assert alive() is not None  # the tensor holds the array
    assert settle() == before + 1
    m = managed(t)
    m.deleter(t)  # the consumer is done without importing
    gc.collect()
    assert alive() is None
    assert settle() == before


def test_an_import_outlives_everything_but_its_views(paths):
    before = settle()
    a = xp.reshape(xp.arange(6, dtype=xp.int64), (2, 3))
    b = import_(API, export(API, a))
    del a
    gc.collect()
    v = b[1]
    del b
    gc.collect()
    assert v.tolist() == [3, 4, 5] and settle() == before + 1
    del v
    assert settle() == before


def test_many_exchanges_in_cycles_under_gc():
    before = settle()

    class Node:
        pass
    for i in range(200):
        a = xp.full((4, 5), float(i))
        node = Node()
        node.self = node
        node.array = import_(API, export(API, a.mT))
        node.row = node.array[2]
        del a, node
        if i % 37 == 0:
            gc.collect()
    assert settle() == before


# ---- the allocator ----------------------------------------------------------------------

def _prototype(shape, code=2, bits=32, device=1, ndim=None):
    sh = (ctypes.c_int64 * max(len(shape), 1))(*shape)
    t = DLTensor()
    t.data = None
    t.device = DLDevice(device, 0)
    t.ndim = len(shape) if ndim is None else ndim
    t.dtype = DLDataType(code, bits, 1)
    t.shape = ctypes.cast(sh, ctypes.POINTER(ctypes.c_int64))
    return t, sh


def test_allocator_makes_an_array_of_the_prototype():
    errors = []
    set_error = SET_ERROR(lambda ctx, kind, message: errors.append((kind, message)))
    t, _keep = _prototype((2, 3))
    out = ctypes.c_void_p()
    assert API.managed_tensor_allocator(ctypes.addressof(t), ctypes.byref(out), None, set_error) == 0
    assert not errors
    b = import_(API, out.value)
    assert (b.shape, b.dtype) == ((2, 3), xp.float32)
    b[...] = 1.5  # ours to write
    assert b.tolist() == [[1.5] * 3] * 2


@pytest.mark.parametrize("proto,kind,fragment", [
    (dict(shape=(2,), code=4, bits=32), "BufferError", "unsupported DLPack dtype"),
    (dict(shape=(2,), device=2), "BufferError", "CPU memory only"),
    (dict(shape=(-1, 2)), "BufferError", "each dimension must be in [0, 2**63 - 1]"),
    (dict(shape=(2,), ndim=65), "BufferError", "at most 64 dimensions"),
])
def test_allocator_errors_go_to_set_error(proto, kind, fragment):
    errors = []
    set_error = SET_ERROR(lambda ctx, k, message: errors.append((ctx, k.decode(), message.decode())))
    t, _keep = _prototype(**proto)
    out = ctypes.c_void_p(1)
    ctx = ctypes.c_int(7)
    rc = API.managed_tensor_allocator(ctypes.addressof(t), ctypes.byref(out), ctypes.addressof(ctx),
                                      set_error)
    assert rc == -1 and not out.value
    [(got_ctx, got_kind, message)] = errors
    assert got_ctx == ctypes.addressof(ctx) and got_kind == kind and fragment in message
    assert "managed_tensor_allocator" in message


# ---- untrusted tensors: clean exceptions, the deleter once, never a crash ---------------

MALFORMED = '''
import ctypes, gc, sys
sys.path.insert(0, ROOT); sys.path.insert(0, ROOT + "/fuzz")
import arrstride as xp
from arrstride import _core
from arrstride.bench.dlpack_exchange import import_, table
from targets import (DELETER, DLDataType, DLDevice, DLManagedTensorVersioned, DLPackVersion,
                     DLTensor)
api = table(xp.Array)
_core.set_fast_paths(FAST)
KEEP, DELETED = [], []
deleter = DELETER(lambda p: DELETED.append(p))
buf = (ctypes.c_double * 8)(*range(8))

def tensor(shape=(4,), strides=(1,), data="buffer", code=2, bits=64, lanes=1, ndim=None,
           byte_offset=0, device=1, major=1, flags=0, shape_ptr=True, strides_ptr=True):
    sh = (ctypes.c_int64 * max(len(shape), 1))(*shape)
    st = (ctypes.c_int64 * max(len(strides), 1))(*strides)
    t = DLTensor()
    t.data = ctypes.addressof(buf) if data == "buffer" else data
    t.device = DLDevice(device, 0)
    t.ndim = len(shape) if ndim is None else ndim
    t.dtype = DLDataType(code, bits, lanes)
    t.shape = ctypes.cast(sh, ctypes.POINTER(ctypes.c_int64)) if shape_ptr else None
    t.strides = ctypes.cast(st, ctypes.POINTER(ctypes.c_int64)) if strides_ptr else None
    t.byte_offset = byte_offset
    m = DLManagedTensorVersioned(DLPackVersion(major, 3), None, deleter, flags, t)
    KEEP.extend([sh, st, m])
    return ctypes.addressof(m)

CASES = [
    (dict(shape=(-1,)), BufferError, "each dimension must be in [0, 2**63 - 1]"),
    (dict(shape=(2, 3), strides=(3, 1), shape_ptr=False), BufferError, "no shape array"),
    (dict(code=4, bits=32), BufferError, "unsupported DLPack dtype"),
    (dict(code=2, bits=64, lanes=4), BufferError, "unsupported DLPack dtype"),
    (dict(code=99), BufferError, "unsupported DLPack dtype"),
    (dict(device=2), BufferError, "CPU memory only"),
    (dict(major=2), BufferError, "unsupported DLPack major version"),
    (dict(ndim=65), BufferError, "at most 64 dimensions"),
    (dict(ndim=-1), BufferError, "at most 64 dimensions"),
    (dict(data=0), BufferError, "the data pointer is NULL"),
    (dict(strides=(2 ** 62,), shape=(4,)), BufferError, "outside the address space"),
    (dict(shape=(2 ** 62, 4), strides=(4, 1)), BufferError, "outside the address space"),
    (dict(strides=(-(2 ** 63),)), BufferError, "outside the address space"),
    (dict(byte_offset=2 ** 64 - 8), BufferError, "the data address must be an int in [0, 2**64)"),
    (dict(data=2 ** 64 - 8, shape=(4,)), BufferError, "outside the address space"),
]
for i, (fields, exc, fragment) in enumerate(CASES):
    print("case", i, fields, flush=True)
    DELETED.clear()
    t = tensor(**fields)
    try:
        import_(api, t)
    except exc as e:
        assert fragment in str(e), (fields, str(e))
        assert "managed_tensor_to_py_object_no_sync" in str(e), str(e)
    else:
        raise AssertionError(f"{fields}: no {exc.__name__}")
    gc.collect()
    assert len(DELETED) == 1, (fields, len(DELETED))

# accepted: no strides (before DLPack 1.2: C order), an unaligned start (copied), empty
for fields, want in ((dict(shape=(2, 2), strides_ptr=False), [[0.0, 1.0], [2.0, 3.0]]),
                     (dict(shape=(3,), byte_offset=4, code=0, bits=32), None),
                     (dict(shape=(3, 0)), [[], [], []]),
                     (dict(shape=(2,), strides=(-1,), byte_offset=8), [1.0, 0.0])):
    DELETED.clear()
    b = import_(api, tensor(**fields))
    if want is not None:
        assert b.tolist() == want, (fields, b.tolist())
    del b
    gc.collect()
    assert len(DELETED) == 1, fields

# NULL: a ValueError (nothing to delete)
try:
    import_(api, None)
except ValueError as e:
    assert "tensor must point to a DLManagedTensorVersioned, not NULL" in str(e)
else:
    raise AssertionError("NULL tensor accepted")
print("MALFORMED-OK")
'''


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "general"])
def test_malformed_tensors_give_exceptions(fast):
    # in a child process: a crash fails this test instead of the run
    src = f"ROOT = {str(ROOT)!r}\nFAST = {fast}\n" + textwrap.dedent(MALFORMED)
    r = subprocess.run([sys.executable, "-X", "faulthandler", "-c", src], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip().endswith("MALFORMED-OK"), \
        f"exit {r.returncode}\n{r.stdout[-1500:]}\n{r.stderr[-3000:]}"


# ---- PyTorch's table --------------------------------------------------------------------

def _torch_table():
    torch = pytest.importorskip("torch", reason="PyTorch not installed (optional interop partner)")
    if not hasattr(torch.Tensor, "__dlpack_c_exchange_api__"):
        pytest.skip("this PyTorch has no __dlpack_c_exchange_api__ (PyTorch < 2.10)")
    return torch, table(torch.Tensor)


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_exchange_with_pytorch(paths, name):
    torch, tapi = _torch_table()
    before = _dlpack.live_exports()  # (no cycles: counted without gc.collect, slow beside torch)
    a, n = make("transposed", (3, 4), name)
    t = import_(tapi, export(API, a))  # arrstride's producer, torch's consumer
    assert isinstance(t, torch.Tensor) and list(t.shape) == [3, 4]
    assert t.data_ptr() == address(a)
    assert [s for s in t.stride()] == list(a.strides)
    np.testing.assert_array_equal(t.numpy(), n)
    b = import_(API, export(tapi, t))  # and back: torch's producer, arrstride's consumer
    assert address(b) == address(a) and b.strides == a.strides and b.tolist() == n.tolist()
    del t, b, a
    assert _dlpack.live_exports() == before


def test_pytorch_tensors_of_its_own():
    torch, tapi = _torch_table()
    src = torch.arange(24, dtype=torch.float32).reshape(2, 3, 4).permute(2, 0, 1)[1:]
    b = import_(API, export(tapi, src))
    assert b.shape == tuple(src.shape) and b.strides == tuple(src.stride())
    np.testing.assert_array_equal(np.asarray(b), src.numpy())
    src.add_(1.0)  # one memory
    np.testing.assert_array_equal(np.asarray(b), src.numpy())
