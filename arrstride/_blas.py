"""Loading BLAS/LAPACK: scipy-openblas64 (the ILP64 OpenBLAS wheel NumPy ships).

The C library holds a table of function pointers (native/src/ars_blas.h).
On first use we dlopen the shared library by its absolute path (the copy
NumPy's wheel bundles when there is one, so that a process has one OpenBLAS
and one pool of BLAS threads; else the scipy-openblas64 wheel's), look up
each routine the table names under the wheel's symbol mangling
(`scipy_cblas_dgemm64_`, `scipy_LAPACKE_dgesdd64_`) and hand the addresses to C.
Nothing is linked at build time and no rpath points into a build directory, so
a wheel or a `pip install .` works wherever `scipy-openblas64` is installed
(it is a dependency in pyproject.toml). ARRSTRIDE_BLAS_LIB names another
ILP64 OpenBLAS/LAPACKE library to use instead.

arrstride's parallel kernels always run on arrstride's own pool, never on
OpenBLAS's thread server: a region there waits for every OpenBLAS worker it
posted to, and on a busy machine that cost a time slice per call
(native/src/parallel.c).
Only _kernels.py calls this module.
"""
from __future__ import annotations

import ctypes
import os
import threading

from ._native import ffi, lib

_lock = threading.Lock()
_dll = None  # kept for the life of the process: C holds pointers into it


def _wheel_libraries(package: str, subdir: str, prefix: str):
    """The ILP64 OpenBLAS shared libraries an installed package ships, found
    without importing the package."""
    import importlib.util
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return []
    if spec is None or not spec.submodule_search_locations:
        return []
    lib_dir = os.path.join(os.path.dirname(list(spec.submodule_search_locations)[0]), subdir)
    try:
        names = sorted(os.listdir(lib_dir))
    except OSError:
        return []
    return [os.path.join(lib_dir, n) for n in names if n.startswith(prefix) and ".so" in n]


def _library_paths():
    """Where to look, in order. ARRSTRIDE_BLAS_LIB alone, if set. Otherwise the
    copy of the same OpenBLAS that NumPy's wheel bundles (numpy.libs/), when
    there is one, and then the scipy-openblas64 wheel's: a process that has
    both NumPy and arrstride then has one OpenBLAS and one pool of BLAS
    threads. Two copies mean two pools whose idle threads spin after each call
    and take the cores from each other: measured on 2 cores, a scikit-learn
    Nystroem fit alternating between NumPy and arrstride ran up to 3x slower
    with two copies than with one."""
    path = os.environ.get("ARRSTRIDE_BLAS_LIB")
    if path:
        return [path]
    # Neither package is imported: importing scipy_openblas64 dlopens its
    # library with RTLD_GLOBAL, and its unprefixed internal symbols
    # (droundup_lwork_, ...) then take over SciPy's own LAPACK.
    paths = _wheel_libraries("numpy", "numpy.libs", "libscipy_openblas64_")
    paths += _wheel_libraries("scipy_openblas64", os.path.join("scipy_openblas64", "lib"),
                              "libscipy_openblas64")
    if not paths:
        raise ImportError("arrstride.linalg and matmul need the 'scipy-openblas64' package "
                          "(pip install scipy-openblas64)")
    return paths


def _mangled(name: str):
    yield f"scipy_{name}64_"
    yield f"{name}64_"
    yield f"scipy_{name}"
    yield name


def _symbol(dll, name: str):
    """The library's routine `name` under the first mangling it has, or None."""
    return next((fn for fn in (getattr(dll, sym, None) for sym in _mangled(name)) if fn is not None),
                None)


def _load(path: str):
    """(library, None) with the C table filled from it, or (None, why not)
    with the table untouched."""
    try:
        dll = ctypes.CDLL(path, mode=getattr(os, "RTLD_LOCAL", 0))
    except OSError as e:
        return None, f"cannot be loaded ({e})"
    found = []
    for i in range(lib.ars_blas_nsyms()):
        name = ffi.string(lib.ars_blas_symbol(i)).decode()
        fn = _symbol(dll, name)
        if fn is None:
            return None, f"has no routine {name!r}"
        found.append((i, ctypes.cast(fn, ctypes.c_void_p).value))
    for i, addr in found:
        lib.ars_blas_set(i, ffi.cast("void *", addr))
    return dll, None


def ensure() -> None:
    """Load the library and fill the C table, once."""
    global _dll
    if _dll is not None:
        return
    with _lock:
        if _dll is not None:
            return
        problems = []
        for path in _library_paths():
            dll, missing = _load(path)
            if dll is not None:
                break
            problems.append(f"{path} {missing}")
        else:
            raise ImportError("arrstride: no usable ILP64 OpenBLAS: " + "; ".join(problems))
        _dll = dll
        if _threads is not None:
            set_threads(_threads)


_threads = None  # the count set through arrstride, if any


def set_threads(n: int) -> None:
    """OpenBLAS's thread count: applied now if the library is loaded, else
    when it loads. Only an explicit count (set_num_threads or
    ARRSTRIDE_NUM_THREADS) gets here; without one OpenBLAS keeps its own
    default (OPENBLAS_NUM_THREADS or the core count)."""
    global _threads
    _threads = n
    if _dll is None:
        return
    fn = _symbol(_dll, "openblas_set_num_threads")
    if fn is not None:
        fn.argtypes = [ctypes.c_int]
        fn.restype = None
        fn(n)
