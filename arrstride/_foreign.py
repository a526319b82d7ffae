"""Foreign memory, checked: the one door through which memory described by
someone else (a DLPack tensor, an ``__array_interface__``, a buffer export)
becomes an arrstride array.

What another library tells us is untrusted: a shape, strides and an address
are numbers that may be negative, overflow int64, point at NULL or not be
aligned for the element type. `wrap` checks each before any memory is
touched:

- every dim an int in [0, 2**63 - 1], at most ``ARS_MAX_DIMS`` of them;
- every stride an int, whole elements (byte strides: multiples of the item size);
- the bytes spanned fit in int64 and in the address space, and the address is
  not NULL unless the array is empty;
- an address that is not a multiple of the item size (legal in the buffer
  protocol and DLPack; C kernels read elements as typed values) gives a copy
  made with memmove, which reads bytes, unless copy=False.

A raw pointer cannot be verified: that the bytes it names exist and stay
alive is the exporter's promise, as it is for NumPy.
"""
from __future__ import annotations

import struct
from typing import Any, Optional, Sequence, Tuple

from . import _dtypes as dt
from . import _layout as L
from . import _storage as S
from ._array import Array
from ._errors import MAX_DIM, msg, type_error, value_error
from ._native import ffi, lib

MAX_DIMS = lib.ARS_MAX_DIMS
_ADDRESS_END = 1 << 64


def _ints(func: str, what: str, values: Any, exc=TypeError) -> Tuple[int, ...]:
    if not isinstance(values, (tuple, list)) or any(type(v) is not int for v in values):
        raise exc(msg(func, f"{what} must be a tuple of ints", repr(values)[:120]))
    return tuple(values)


def check_shape(func: str, shape: Any, exc=ValueError) -> Tuple[int, ...]:
    """A foreign shape: at most MAX_DIMS ints, each in [0, 2**63 - 1]."""
    shape = _ints(func, "shape", shape, TypeError if exc is ValueError else exc)
    if len(shape) > MAX_DIMS:
        raise exc(msg(func, f"at most {MAX_DIMS} dimensions are supported", len(shape)))
    for d in shape:
        if not 0 <= d <= MAX_DIM:
            raise exc(msg(func, "each dimension must be in [0, 2**63 - 1]", f"shape {shape}"))
    return shape


def wrap(func: str, dtype: dt.DType, shape: Sequence[int], strides: Optional[Sequence[int]],
         address: Any, owner: object, readonly: bool, *, byte_strides: bool,
         copy: Optional[bool] = None, why: str = S.READ_ONLY_WHY, exc=ValueError) -> Array:
    """An array over foreign memory at `address` (an int), shape `shape`,
    strides `strides` (None: C order; in bytes when byte_strides, else in
    elements), kept alive by `owner`. Raises `exc` (ValueError, or BufferError
    for DLPack) naming func for anything inconsistent."""
    shape = check_shape(func, shape, exc)
    isz = dtype.itemsize
    if strides is None:
        strides = L.contiguous_strides(shape)
    else:
        strides = _ints(func, "strides", strides, TypeError if exc is ValueError else exc)
        if len(strides) != len(shape):
            raise exc(msg(func, "strides must have one entry per dimension",
                          f"shape {shape}, strides {strides}"))
        if byte_strides:
            if any(s % isz for s in strides):
                raise exc(msg(func, f"strides must be multiples of the item size ({isz} bytes)",
                              repr(strides)))
            strides = tuple(s // isz for s in strides)
    if type(address) is not int or not 0 <= address < _ADDRESS_END:
        raise exc(msg(func, "the data address must be an int in [0, 2**64)", repr(address)[:80]))
    lay = L.Layout(shape, strides, 0)
    if lay.size == 0:
        return Array._new(S.Storage.allocate(0), L.contiguous(shape), dtype)
    lo, hi = L.extent(lay)
    nbytes = (hi - lo + 1) * isz
    start = address + lo * isz
    if address == 0:
        raise exc(msg(func, "the data pointer is NULL but the array is not empty", f"shape {shape}"))
    if nbytes > S.MAX_BYTES or start < 1 or start + nbytes > _ADDRESS_END \
            or any(abs(s) * isz > S.MAX_BYTES for s in strides):
        raise exc(msg(func, "the strides reach outside the address space (or past 2**63 - 1 bytes)",
                      f"shape {shape}, strides {strides} elements from address {address:#x}"))
    if start % isz:
        # Unaligned elements (a legal export): C reads typed values, so copy the
        # span with memmove, which reads bytes. The layout stays the same.
        if copy is False:
            raise exc(msg(func, f"copy=False, but the data address is not a multiple of the item "
                                f"size ({isz}) and must be copied", f"{start:#x}"))
        storage = S.Storage.allocate(nbytes)
        ffi.memmove(storage.ptr, ffi.cast("char *", start), nbytes)
        return Array._new(storage, L.Layout(shape, strides, -lo), dtype)
    storage = S.Storage.foreign(start, nbytes, owner, readonly, why)
    return Array._new(storage, L.Layout(shape, strides, -lo), dtype)


# ---- __array_interface__ (version 3) ------------------------------------------------------

# from the dtype table ('V' typestrs are NumPy's only through another package: by name)
TYPESTR = {d.typestr[1:]: d for d in dt.ALL if d.typestr[1] != "V"}


def from_interface(func: str, obj: Any, iface: dict, copy: Optional[bool]) -> Optional[Array]:
    """An array over the memory an __array_interface__ dict describes, after
    checking each field; None when its data is not a (pointer, read-only)
    pair (then obj's buffer export is the data, as the protocol says)."""
    data = iface.get("data")
    if not isinstance(data, tuple):
        return None
    version = iface.get("version", 3)
    if version != 3:
        raise value_error(func, "__array_interface__ version must be 3", repr(version))
    if len(data) != 2 or type(data[0]) is not int or not isinstance(data[1], (bool, int)):
        raise type_error(func, "__array_interface__['data'] must be a (pointer int, read-only bool) pair",
                         repr(data)[:80])
    typestr = iface.get("typestr")
    if not isinstance(typestr, str) or len(typestr) < 3:
        raise type_error(func, "__array_interface__['typestr'] must be a string such as '<f8'",
                         repr(typestr)[:80])
    dtype = TYPESTR.get(typestr[1:])
    if dtype is None and typestr[1:2] == "V":  # e.g. ml_dtypes' bfloat16: its NumPy dtype's name
        dtype = dt.BY_NAME.get(getattr(getattr(obj, "dtype", None), "name", None))
        if dtype is not None and dtype.typestr[1:] != typestr[1:]:
            dtype = None
    if dtype is None or typestr[0] not in "<|=" or (typestr[0] == "|" and dtype.itemsize != 1):
        raise type_error(func, "unsupported element type (arrstride has the standard's 13 dtypes "
                         f"and {', '.join(d.name for d in dt.EXTENSIONS)}, little-endian)",
                         repr(typestr))
    if iface.get("mask") is not None:
        raise type_error(func, "__array_interface__ with a mask is not supported")
    offset = iface.get("offset", 0)
    if type(offset) is not int or offset < 0:
        raise value_error(func, "__array_interface__['offset'] must be a non-negative int", repr(offset))
    address, readonly = data
    return wrap(func, dtype, iface.get("shape"), iface.get("strides"), address + offset, obj,
                bool(readonly), byte_strides=True, copy=copy)


# ---- the buffer protocol ------------------------------------------------------------------

_FORMAT_KIND = {"?": "b", "b": "i", "h": "i", "i": "i", "l": "i", "q": "i", "n": "i",
                "B": "u", "H": "u", "I": "u", "L": "u", "Q": "u", "N": "u", "e": "f", "f": "f", "d": "f"}
_COMPLEX_SIZE = {"Zf": 8, "Zd": 16}


def dtype_of_format(fmt: str, itemsize: int) -> Optional[dt.DType]:
    """The dtype of a struct format (native or little-endian byte order) whose
    size, as the struct module computes it for that prefix or natively, is
    itemsize; None for any other format, or an itemsize the format cannot have."""
    prefix = ""
    if fmt[:1] in "@=<":
        prefix, fmt = fmt[:1], fmt[1:]
    if fmt in _COMPLEX_SIZE:
        kind, size = "c", _COMPLEX_SIZE[fmt]
    elif fmt in _FORMAT_KIND:
        # the prefix's size, or the native one: ctypes exports C long as '<l' with 8 bytes
        kind, size = _FORMAT_KIND[fmt], (struct.calcsize(prefix + fmt), struct.calcsize(fmt))
    else:
        return None
    if itemsize not in (size if isinstance(size, tuple) else (size,)):
        return None
    for d in dt.ALL:
        if d.kind == kind and d.itemsize == itemsize:
            return d
    return None
