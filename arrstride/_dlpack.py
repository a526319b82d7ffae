"""DLPack 1.x: the bridge between arrstride arrays and DLPack capsules.

Structs, deleters and the dtype mapping are in C (native/src/dlpack.c); this
module holds the PyCapsule glue, which needs the Python C API.

How the glue is written, and why:
- PyCapsule_New / IsValid / GetPointer / SetName are called through
  `ctypes.PYFUNCTYPE` prototypes on `ctypes.pythonapi`: PYFUNCTYPE functions
  are called WITH the GIL held and check for a Python error on return, which
  is what C-API functions need (cffi's ffi.dlopen would release the GIL around
  each call). The destructor path uses prototypes taking a raw address
  (c_void_p), so that a capsule being deallocated is never re-referenced.
- The two callbacks C needs (the capsule destructor, and the release of the
  producer array when a consumer calls our deleter) are cffi
  `extern "Python"` functions (native/include/arrstride_python.cdef). cffi
  compiles a static C entry point for each, which acquires the GIL before
  running Python code, so a consumer may call the deleter from any thread; the
  entry point lives in the extension module and is never freed, unlike a
  ctypes CFUNCTYPE object, and if no Python code is attached (late at
  interpreter shutdown) cffi reports it instead of crashing.
- A cffi callback cannot run while a Python exception is pending, and
  consumers drop capsules and call deleters on their error paths with one set
  (NumPy's from_dlpack does). So C wraps both callbacks: take the GIL, set the
  pending exception aside, call Python, restore (native/src/dlpack.c,
  call_python). It reaches PyGILState_Ensure/Release and PyErr_Fetch/Restore
  through the pointer table _storage fills from ctypes.pythonapi.
- Exported arrays are kept alive by a cffi handle held in `_LIVE` until the
  deleter runs; an imported tensor's one owner is a capsule (_storage) that
  calls the producer's deleter exactly once, under the GIL, when the last view
  of the data dies.
"""
from __future__ import annotations

import ctypes
import enum
from typing import Any, Optional, Tuple

from . import _dtypes as dt
from . import _kernels as K
from . import _layout as L
from . import _foreign
from . import _storage as S
from ._array import Array
from ._errors import msg, not_array_error
from ._native import ffi, lib


class DLDeviceType(enum.IntEnum):
    """DLPack device types (as the standard lists them for __dlpack_device__)."""
    CPU = lib.kDLCPU
    CUDA = lib.kDLCUDA
    CPU_PINNED = lib.kDLCUDAHost
    OPENCL = lib.kDLOpenCL
    VULKAN = lib.kDLVulkan
    METAL = lib.kDLMetal
    VPI = lib.kDLVPI
    ROCM = lib.kDLROCM
    CUDA_MANAGED = lib.kDLCUDAManaged
    ONE_API = lib.kDLOneAPI


# Device types whose memory the CPU can read directly.
_HOST_DEVICES = (lib.kDLCPU, lib.kDLCUDAHost, lib.kDLROCMHost, lib.kDLCUDAManaged)

VERSION = (lib.ARS_DLPACK_MAJOR, lib.ARS_DLPACK_MINOR)

# ---- the Python C API through ctypes (GIL held: PYFUNCTYPE) ---------------------------

_API = ctypes.pythonapi
_c = ctypes
_capsule_new = S.capsule_new
_is_valid = _c.PYFUNCTYPE(_c.c_int, _c.py_object, _c.c_void_p)(("PyCapsule_IsValid", _API))
_get_pointer = _c.PYFUNCTYPE(_c.c_void_p, _c.py_object, _c.c_void_p)(("PyCapsule_GetPointer", _API))
_set_name = _c.PYFUNCTYPE(_c.c_int, _c.py_object, _c.c_void_p)(("PyCapsule_SetName", _API))
# Raw-address variants for the destructor, which must not create references.
_is_valid_raw = _c.PYFUNCTYPE(_c.c_int, _c.c_void_p, _c.c_void_p)(("PyCapsule_IsValid", _API))
_get_pointer_raw = _c.PYFUNCTYPE(_c.c_void_p, _c.c_void_p, _c.c_void_p)(("PyCapsule_GetPointer", _API))


_addr = S.addr

NAME, NAME_VERSIONED, USED, USED_VERSIONED = (_addr(lib.ars_dlpack_capsule_name(i)) for i in range(4))
_DESTRUCTOR = _addr(ffi.addressof(lib, "ars_dlpack_capsule_destructor"))

# Exported arrays, keyed by their handle's address, until the consumer's deleter runs.
_LIVE: dict = {}


@ffi.def_extern()
def ars_dlpack_release_owner(owner):
    _LIVE.pop(_addr(owner), None)


@ffi.def_extern()
def ars_dlpack_capsule_destructor_py(capsule):
    # Runs while the capsule is deallocated: a capsule still named "dltensor"
    # or "dltensor_versioned" was never consumed, so its tensor is ours to delete.
    cap = _addr(capsule)
    if _is_valid_raw(cap, NAME_VERSIONED):
        lib.ars_dlpack_delete_versioned(ffi.cast("DLManagedTensorVersioned *",
                                                 _get_pointer_raw(cap, NAME_VERSIONED)))
    elif _is_valid_raw(cap, NAME):
        lib.ars_dlpack_delete(ffi.cast("DLManagedTensor *", _get_pointer_raw(cap, NAME)))


def live_exports() -> int:
    """Exported tensors whose deleter has not run (for tests)."""
    return lib.ars_dlpack_live()


# ---- export: Array.__dlpack__ ------------------------------------------------------------

def _check_device_tuple(func: str, dl_device: Any) -> None:
    try:
        kind, ident = dl_device
        ok = int(kind) == lib.kDLCPU and int(ident) == 0
    except (TypeError, ValueError):
        raise TypeError(msg(func, "dl_device must be a (device_type, device_id) pair",
                            repr(dl_device))) from None
    if not ok:
        raise BufferError(msg(func, "arrstride can only export to the CPU, (kDLCPU=1, 0)",
                              repr(dl_device)))


def export(x, stream: Any, max_version: Optional[Tuple[int, int]], dl_device: Any,
           copy: Optional[bool]) -> object:
    """A DLPack capsule viewing x (versioned when max_version allows it)."""
    func = "Array.__dlpack__"
    if stream is not None and stream != -1:
        raise ValueError(msg(func, "on the CPU, stream must be None", repr(stream)))
    if not (copy is None or copy is True or copy is False):
        raise TypeError(msg(func, "copy must be True, False or None", repr(copy)))
    if max_version is None:
        versioned = False
    else:
        try:
            major, _minor = max_version
            versioned = int(major) >= 1
        except (TypeError, ValueError):
            raise TypeError(msg(func, "max_version must be a (major, minor) pair",
                                repr(max_version))) from None
    if dl_device is not None:
        _check_device_tuple(func, dl_device)
    if copy is None and any(s < 0 and d > 1 for s, d in zip(x._layout.strides, x._layout.shape)) \
            and x._layout.size:
        # Negative strides are exported as a
        # copy unless copy=False asks for the view. torch.from_dlpack aborts the
        # process on a negative stride (c10::Error "Storage size calculation
        # overflowed", uncaught), and torch.asarray(x) comes here now that
        # arrstride has no buffer export; torch refuses NumPy's negative views too.
        copy = True
    readonly = x._storage.readonly
    if readonly and not versioned and not copy:
        if copy is False:
            raise BufferError(msg(func, "a read-only array needs a versioned capsule "
                                  "(max_version >= (1, 0)) to be shared without a copy"))
        copy = True  # the legacy capsule cannot say read-only: hand out a copy
    flags = 0
    if copy:
        x = x._copy_contiguous()
        flags |= lib.ARS_DLPACK_FLAG_IS_COPIED
    elif readonly:
        flags |= lib.ARS_DLPACK_FLAG_READ_ONLY
    lay = x._layout
    handle = ffi.new_handle(x)
    key = _addr(handle)
    _LIVE[key] = handle
    m = lib.ars_dlpack_export(int(versioned), K.data_ptr(x), lay.ndim, K.i64(lay.shape),
                              K.byte_strides(lay.strides, 1), x._dtype.code, flags, handle)
    if m == ffi.NULL:
        _LIVE.pop(key, None)
        raise MemoryError(msg(func, "out of memory building the DLPack tensor"))
    try:
        return _capsule_new(_addr(m), NAME_VERSIONED if versioned else NAME, _DESTRUCTOR)
    except BaseException:
        if versioned:
            lib.ars_dlpack_delete_versioned(ffi.cast("DLManagedTensorVersioned *", m))
        else:
            lib.ars_dlpack_delete(ffi.cast("DLManagedTensor *", m))
        raise


# ---- import: from_dlpack -------------------------------------------------------------------

def is_capsule(obj: Any) -> bool:
    return type(obj).__name__ == "PyCapsule"


def _device_of(obj: Any) -> Tuple[int, int]:
    dev = obj.__dlpack_device__()
    return int(dev[0]), int(dev[1])


def capsule_of(func: str, obj: Any, copy: Optional[bool]):
    """obj.__dlpack__(...) following the standard's consumer recipe: ask for a
    versioned CPU capsule; fall back to the legacy call for old producers."""
    if not hasattr(obj, "__dlpack__"):
        raise AttributeError(msg(func, "x must support DLPack (have __dlpack__ and "
                                 "__dlpack_device__)", type(obj).__name__))
    dl_device = None
    if hasattr(obj, "__dlpack_device__"):
        kind, _ = _device_of(obj)
        if kind not in _HOST_DEVICES:
            if copy is False:
                raise ValueError(msg(func, "copy=False, but the data is on device type "
                                     f"{kind} and would have to be copied to the CPU"))
            dl_device = (DLDeviceType.CPU, 0)
    try:
        return obj.__dlpack__(stream=None, max_version=VERSION, dl_device=dl_device, copy=copy)
    except TypeError:
        if dl_device is not None:
            raise BufferError(msg(func, "the producer cannot move its data to the CPU")) from None
        return obj.__dlpack__()


def from_capsule(func: str, capsule: Any):
    """An Array viewing a DLPack capsule's tensor, and whether the producer
    marked it as a copy. Consumes the capsule (it is renamed "used_...")."""
    if not is_capsule(capsule):
        raise TypeError(msg(func, "__dlpack__ must return a PyCapsule", type(capsule).__name__))
    if _is_valid(capsule, NAME_VERSIONED):
        versioned = True
        m = ffi.cast("DLManagedTensorVersioned *", _get_pointer(capsule, NAME_VERSIONED))
        _set_name(capsule, USED_VERSIONED)
        owner, _ = S.new_owner(lib.ARS_OWN_DLPACK_VERSIONED, m)
    elif _is_valid(capsule, NAME):
        versioned = False
        m = ffi.cast("DLManagedTensor *", _get_pointer(capsule, NAME))
        _set_name(capsule, USED)
        owner, _ = S.new_owner(lib.ARS_OWN_DLPACK, m)
    else:
        raise ValueError(msg(func, "the DLPack capsule was already consumed (or is not a "
                             "DLPack capsule); a capsule can be consumed only once"))
    return _from_managed(func, m, versioned, owner)


def _from_managed(func: str, m, versioned: bool, owner: object):
    """An Array viewing the managed tensor m, and whether the producer marked
    it as a copy. `owner` (a capsule, see _storage) already holds the tensor:
    the deleter runs exactly once, under the GIL, when the last array viewing
    it is gone (or right away if we raise below), whatever order the collector
    frees in."""
    flags = 0
    if versioned:
        if m.version.major != lib.ARS_DLPACK_MAJOR:
            raise BufferError(msg(func, "unsupported DLPack major version",
                                  f"{m.version.major}.{m.version.minor}"))
        flags = m.flags
    t = m.dl_tensor
    if t.device.device_type not in _HOST_DEVICES:
        raise BufferError(msg(func, "arrstride reads CPU memory only",
                              f"DLPack device type {t.device.device_type}"))
    code = lib.ars_dlpack_dtype(t.dtype.code, t.dtype.bits, t.dtype.lanes)
    if code < 0:
        raise BufferError(msg(func, "unsupported DLPack dtype",
                              f"(code={t.dtype.code}, bits={t.dtype.bits}, lanes={t.dtype.lanes})"))
    dtype = dt.BY_CODE[code]
    ndim = t.ndim
    if not 0 <= ndim <= L_MAX_DIMS:
        raise BufferError(msg(func, f"at most {L_MAX_DIMS} dimensions are supported", ndim))
    if ndim and t.shape == ffi.NULL:
        raise BufferError(msg(func, "the DLPack tensor has no shape array", f"ndim {ndim}"))
    shape = tuple(t.shape[0:ndim])
    strides = tuple(t.strides[0:ndim]) if ndim and t.strides != ffi.NULL else None
    readonly = bool(flags & lib.ARS_DLPACK_FLAG_READ_ONLY)
    copied = bool(flags & lib.ARS_DLPACK_FLAG_IS_COPIED)
    # Shape, strides, byte_offset and the data pointer are the producer's word:
    # _foreign checks them (negative dims, overflowing strides, NULL data with
    # elements, unaligned data) before any memory is touched.
    out = _foreign.wrap(func, dtype, shape, strides, _addr(t.data) + t.byte_offset, owner, readonly,
                        byte_strides=False, why=READ_ONLY_WHY,
                        exc=BufferError)
    return out, copied


L_MAX_DIMS = lib.ARS_MAX_DIMS
READ_ONLY_WHY = "the DLPack producer marked it read-only"



# ---- the DLPack 1.3 C exchange table: type(x).__dlpack_c_exchange_api__ -----------------
# The table's functions are C (native/core/exchange.c); each takes a fast path and
# otherwise calls one of these, which own every rule and message.

_EXCHANGE = "__dlpack_c_exchange_api__"


def exchange_refuse(func: str, rule: str) -> None:
    """Raises the ValueError of a C caller's mistake (a NULL out pointer)."""
    raise ValueError(msg(func, rule))


def exchange_export(x) -> object:
    """managed_tensor_from_py_object_no_sync's general path: __dlpack__'s
    versioned capsule of x, with no stream and copy=None (the C side takes the
    tensor out of it)."""
    func = f"{_EXCHANGE}.managed_tensor_from_py_object_no_sync"
    if not isinstance(x, Array):
        raise not_array_error(func, x, name="py_object")
    return export(x, None, VERSION, None, None)


def exchange_import(address: int) -> Array:
    """managed_tensor_to_py_object_no_sync's general path: an Array viewing the
    DLManagedTensorVersioned at address, which is ours from now on (its
    deleter runs once, at once if anything in it is refused). Every field is
    checked as for from_dlpack (_foreign.wrap)."""
    func = f"{_EXCHANGE}.managed_tensor_to_py_object_no_sync"
    if not address:
        raise ValueError(msg(func, "tensor must point to a DLManagedTensorVersioned, not NULL"))
    m = ffi.cast("DLManagedTensorVersioned *", address)
    owner, _ = S.new_owner(lib.ARS_OWN_DLPACK_VERSIONED, m)
    out, _copied = _from_managed(func, m, True, owner)
    return out


def exchange_allocate(address: int) -> Array:
    """managed_tensor_allocator: a new (uninitialized) array of the prototype
    DLTensor's dtype and shape, on the CPU (the C side exports it)."""
    func = f"{_EXCHANGE}.managed_tensor_allocator"
    if not address:
        raise ValueError(msg(func, "prototype must point to a DLTensor, not NULL"))
    t = ffi.cast("DLTensor *", address)
    if t.device.device_type not in _HOST_DEVICES:
        raise BufferError(msg(func, "arrstride allocates CPU memory only",
                              f"DLPack device type {t.device.device_type}"))
    code = lib.ars_dlpack_dtype(t.dtype.code, t.dtype.bits, t.dtype.lanes)
    if code < 0:
        raise BufferError(msg(func, "unsupported DLPack dtype",
                              f"(code={t.dtype.code}, bits={t.dtype.bits}, lanes={t.dtype.lanes})"))
    ndim = t.ndim
    if not 0 <= ndim <= L_MAX_DIMS:
        raise BufferError(msg(func, f"at most {L_MAX_DIMS} dimensions are supported", ndim))
    if ndim and t.shape == ffi.NULL:
        raise BufferError(msg(func, "the prototype has no shape array", f"ndim {ndim}"))
    shape = _foreign.check_shape(func, tuple(t.shape[0:ndim]), BufferError)
    return Array._empty(shape, dt.BY_CODE[code], func=func)


def _setup_exchange():
    from ._core import setup_exchange
    return setup_exchange(_addr(ffi.addressof(lib, "ars_dlpack_export_owned")),
                          _addr(ffi.addressof(lib, "ars_dlpack_dtype")),
                          _addr(ffi.addressof(lib, "ars_dlpack_view")),
                          exchange_export, exchange_import, exchange_allocate, exchange_refuse,
                          READ_ONLY_WHY)


# A static attribute of the type, as the standard's draft and DLPack 1.3 ask:
# consumers read type(x).__dlpack_c_exchange_api__ once per type.
Array.__dlpack_c_exchange_api__ = _setup_exchange()
