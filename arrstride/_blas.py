"""Loading BLAS/LAPACK: scipy-openblas64 (the ILP64 OpenBLAS wheel NumPy ships).

The C library holds a table of function pointers (native/src/ars_blas.h).
On first use we dlopen the wheel's shared library by its absolute path, look up
each routine the table names under the wheel's symbol mangling
(`scipy_cblas_dgemm64_`, `scipy_LAPACKE_dgesdd64_`) and hand the addresses to C.
Nothing is linked at build time and no rpath points into a build directory, so
a wheel or a `pip install .` works wherever `scipy-openblas64` is installed
(it is a dependency in pyproject.toml). ARRSTRIDE_BLAS_LIB names another
ILP64 OpenBLAS/LAPACKE library to use instead.
Only _kernels.py calls this module.
"""
from __future__ import annotations

import ctypes
import os
import threading

from ._native import ffi, lib

_lock = threading.Lock()
_dll = None  # kept for the life of the process: C holds pointers into it


def _library_path() -> str:
    path = os.environ.get("ARRSTRIDE_BLAS_LIB")
    if path:
        return path
    try:
        import scipy_openblas64
    except ImportError as exc:
        raise ImportError(
            "arrstride.linalg and matmul need the 'scipy-openblas64' package "
            "(pip install scipy-openblas64)") from exc
    return os.path.join(scipy_openblas64.get_lib_dir(), scipy_openblas64.get_library(True))


def _mangled(name: str):
    yield f"scipy_{name}64_"
    yield f"{name}64_"
    yield f"scipy_{name}"
    yield name


def ensure() -> None:
    """Load the library and fill the C table, once."""
    global _dll
    if _dll is not None:
        return
    with _lock:
        if _dll is not None:
            return
        path = _library_path()
        dll = ctypes.CDLL(path, mode=getattr(os, "RTLD_LOCAL", 0))
        for i in range(lib.ars_blas_nsyms()):
            name = ffi.string(lib.ars_blas_symbol(i)).decode()
            for sym in _mangled(name):
                try:
                    fn = getattr(dll, sym)
                except AttributeError:
                    continue
                addr = ctypes.cast(fn, ctypes.c_void_p).value
                lib.ars_blas_set(i, ffi.cast("void *", addr))
                break
            else:
                if lib.ars_blas_optional(i):
                    continue
                raise ImportError(f"arrstride: {path} has no routine {name!r}")
        _dll = dll
