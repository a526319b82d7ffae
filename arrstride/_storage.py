"""Storage: a flat buffer of bytes with exactly one owner.

The owner is the one object that keeps the memory alive and gives it back,
exactly once, when it dies:

- a block arrstride allocated below 64 KiB: the cffi ``char[]`` itself, or,
  for the blocks ``arrstride._core`` allocates (every array a C fast path
  makes), a ``_core.Block``: one object holding the memory (its ``_ptr``
  stays None until Python first asks for ``ptr``);
- a larger block, a buffer-protocol export (NumPy arrays and views, bytes,
  bytearray, memoryview, ...) or an imported DLPack tensor: a PyCapsule
  around a C ``ars_owner`` whose destructor frees the block, calls
  ``PyBuffer_Release`` or runs the producer's deleter (native/src/owner.c);
- an object that exports only ``__array_interface__``: that object (nothing
  to release; its reference keeps the memory alive);
- a read-only alias (the views ``broadcast_to`` returns): the Storage it
  aliases.

Neither a ``char[]`` nor a capsule is tracked by the garbage collector, and no
second object holds an export. So when a Storage sits in a reference cycle the
collector can only reach the memory through the Storage's own slots, which it
clears in its last phase, after every finalizer of the cycle has run: no
collection order frees memory that a live object still points into. (The bug
this replaces: a memoryview owner cleared while cffi still held an export of
it, then a release that touched freed memory.)
"""
from __future__ import annotations

import ctypes
import sys
from typing import Any, Optional, Tuple

from ._native import ffi, lib

# ---- the Python C API, through ctypes (PYFUNCTYPE: called with the GIL held) -----

_API = ctypes.pythonapi
_c = ctypes
capsule_new = _c.PYFUNCTYPE(_c.py_object, _c.c_void_p, _c.c_void_p, _c.c_void_p)(("PyCapsule_New", _API))
_get_buffer = _c.PYFUNCTYPE(_c.c_int, _c.py_object, _c.c_void_p, _c.c_int)(("PyObject_GetBuffer", _API))


def addr(cdata) -> int:
    return int(ffi.cast("uintptr_t", cdata))


lib.ars_set_python_api(*(ffi.cast("void *", _c.cast(getattr(_API, name), _c.c_void_p).value)
                         for name in ("PyGILState_Ensure", "PyGILState_Release", "PyErr_Fetch",
                                      "PyErr_Restore", "PyCapsule_GetPointer", "PyBuffer_Release")))

_OWNER_NAME = addr(lib.ars_owner_capsule_name())
_OWNER_DESTRUCTOR = addr(ffi.addressof(lib, "ars_owner_capsule_destructor"))
_PyBUF_RECORDS_RO = 0x0004 | 0x0008 | 0x0010  # PyBUF_FORMAT | PyBUF_ND | PyBUF_STRIDES


def new_owner(kind: int, ptr) -> Tuple[object, Any]:
    """(capsule, ars_owner*): an owner of `kind` for `ptr`. From here the
    capsule alone releases `ptr`; if no owner can be made it is released now."""
    o = lib.ars_owner_new(kind, ptr)
    if o == ffi.NULL:
        _release_unowned(kind, ptr)
        raise MemoryError("arrstride: out of memory for a storage owner")
    try:
        return capsule_new(addr(o), _OWNER_NAME, _OWNER_DESTRUCTOR), o
    except BaseException:
        lib.ars_owner_release(o)
        raise


def _release_unowned(kind: int, ptr) -> None:
    if kind == lib.ARS_OWN_BLOCK:
        lib.ars_free(ptr)
    elif kind == lib.ARS_OWN_DLPACK:
        lib.ars_dlpack_delete(ffi.cast("DLManagedTensor *", ptr))
    elif kind == lib.ARS_OWN_DLPACK_VERSIONED:
        lib.ars_dlpack_delete_versioned(ffi.cast("DLManagedTensorVersioned *", ptr))


def export_buffer(obj: Any):
    """(owner, (format, itemsize, shape, byte strides, address, readonly)) for
    a buffer-protocol export of obj, with any strides (no suboffsets); None
    when obj exports no such buffer. The owner holds the export."""
    owner, o = new_owner(lib.ARS_OWN_BUFFER, ffi.NULL)
    v = o.view
    try:
        _get_buffer(obj, addr(ffi.addressof(o, "view")), _PyBUF_RECORDS_RO)
    except (TypeError, ValueError, BufferError, NotImplementedError):
        return None  # view.obj is NULL: the owner has nothing to release
    fmt = ffi.string(v.format).decode("ascii", "replace") if v.format != ffi.NULL else "B"
    n = v.ndim
    shape = tuple(v.shape[0:n]) if n else ()
    bstrides = tuple(v.strides[0:n]) if n and v.strides != ffi.NULL else None
    return owner, (fmt, v.itemsize, shape, bstrides, addr(v.buf), bool(v.readonly))


# ---- Storage -----------------------------------------------------------------------

# char[] buffers below ars_alloc's cached sizes (64 KiB) come from Python's
# allocator, 16-byte aligned, unzeroed; they are not tracked by the collector.
_allocate_small = ffi.new_allocator(should_clear_after_alloc=False)
SMALL_BLOCK = int(lib.ars_cache_min_block())
MAX_BYTES = (1 << 63) - 1     # int64: every size, stride and offset C takes
MAX_ELEMENTS = MAX_BYTES      # the most elements a kernel can walk
# The most bytes one array may ask for: beyond any address space (x86-64 and
# AArch64 map at most 2**57 bytes), and far enough below int64 that C's
# rounding of block sizes cannot overflow.
MAX_ALLOC = 1 << 62


READ_ONLY_WHY = "the memory it wraps is read-only"


class Storage:
    """A flat buffer of bytes: `ptr` (char*), `nbytes`, `readonly`, and the
    one owner that keeps the memory alive (see the module docstring)."""

    __slots__ = ("_ptr", "nbytes", "readonly", "external", "_owner", "_readonly_why", "__weakref__")

    def __init__(self, ptr, nbytes: int, owner: object, readonly: bool = False,
                 readonly_why: Optional[str] = None, external: bool = False):
        self._ptr = ptr         # char*
        self.nbytes = nbytes
        self.readonly = readonly
        self.external = external  # memory arrstride did not allocate
        self._owner = owner
        self._readonly_why = readonly_why

    @classmethod
    def allocate(cls, nbytes: int, zero: bool = False) -> "Storage":
        if nbytes > MAX_ALLOC:
            raise MemoryError(f"arrstride: cannot allocate {nbytes} bytes")
        if nbytes < SMALL_BLOCK:
            buf = ffi.new("char[]", nbytes or 1) if zero else _allocate_small("char[]", nbytes or 1)
            return cls(buf, nbytes, buf)
        raw = lib.ars_alloc_zeroed(nbytes) if zero else lib.ars_alloc(nbytes)
        if raw == ffi.NULL:
            raise MemoryError(f"arrstride: could not allocate {nbytes} bytes")
        owner, _ = new_owner(lib.ARS_OWN_BLOCK, raw)
        return cls(ffi.cast("char *", raw), nbytes, owner)

    @classmethod
    def foreign(cls, address: int, nbytes: int, owner: object, readonly: bool,
                why: str = READ_ONLY_WHY) -> "Storage":
        """External memory at `address`, kept alive (and released) by `owner`."""
        return cls(ffi.cast("char *", address), nbytes, owner, readonly, why if readonly else None, True)

    def readonly_alias(self, why: str) -> "Storage":
        """The same memory, read-only (its owner is this storage)."""
        return Storage(self.ptr, self.nbytes, self, True, why, self.external)

    @property
    def ptr(self):
        """The first byte, a cffi char*. A storage made in C (its owner a
        _core.Block) gets it on first use."""
        p = self._ptr
        if p is None:
            p = self._ptr = ffi.cast("char *", self._owner.address)
        return p

    @property
    def owner(self) -> object:
        return self._owner

    @property
    def address(self) -> int:
        return int(ffi.cast("intptr_t", self.ptr))

    def __repr__(self) -> str:
        kind = "external" if self.external else "owned"
        return f"<arrstride storage of {self.nbytes} bytes, {kind}{', read-only' if self.readonly else ''}>"


_new_object = object.__new__


def new_storage(nbytes: int) -> Storage:
    """Storage.allocate(nbytes) without zeroing, as one plain function: the
    per-call hot path of every elementwise result."""
    if nbytes >= SMALL_BLOCK:
        return Storage.allocate(nbytes)  # also refuses sizes past MAX_ALLOC
    buf = _allocate_small("char[]", nbytes or 1)
    st = _new_object(Storage)
    st._ptr = buf
    st.nbytes = nbytes
    st.readonly = False
    st.external = False
    st._owner = buf
    st._readonly_why = None
    return st


def is_numpy_scalar(obj: Any) -> bool:
    """A NumPy scalar (np.float32(0.5), ...): an immutable value, copied rather
    than shared. NumPy is only looked up, never imported."""
    np = sys.modules.get("numpy")
    return np is not None and isinstance(obj, np.generic)
