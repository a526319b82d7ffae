"""NumPy's .npy and .npz files, and frombuffer.

A .npy file is the magic string, a format version, a header (a Python dict
literal: descr, fortran_order, shape) padded to a multiple of 64 bytes, then
the raw elements. arrstride writes version 1.0 (2.0 when the header needs it)
and reads 1.0, 2.0 and 3.0. Headers come from untrusted files: they are parsed
with ast.literal_eval after a length limit, checked key by key, and the data
must have exactly the size the header announces. Object arrays (pickles) are
never written or read.
"""
from __future__ import annotations

import ast
import warnings
import io
import os
import struct
import zipfile
from typing import Any, Optional

from . import _dtypes as dt
from . import _kernels as K
from . import _layout as L
from ._array import Array
from ._errors import type_error, type_name, value_error

__all__ = ["frombuffer", "load", "save", "savez", "savez_compressed"]

MAGIC = b"\x93NUMPY"
MAX_HEADER = 10000  # NumPy's default max_header_size
_DESCR = {d.typestr[1:]: d for d in dt.ALL if d.name != "bfloat16"}


def _bfloat16_ok() -> bool:
    try:
        import ml_dtypes  # noqa: F401
    except ImportError:
        return False
    return True


def _descr_of(func: str, d) -> str:
    if d == dt.bfloat16:
        if not _bfloat16_ok():
            raise type_error(func, "bfloat16 is written with ml_dtypes' descriptor '<V2', and "
                             "ml_dtypes is not installed", "an array of bfloat16")
        return "<V2"
    return d.typestr


def _dtype_of(func: str, descr: Any):
    """(dtype, byteswap) of a header's descr, or a ValueError."""
    if not isinstance(descr, str):
        raise value_error(func, "only plain dtypes are supported in .npy files (no structured or "
                          "object dtypes)", repr(descr)[:80])
    if descr in ("|O", "<O", ">O", "O"):
        raise value_error(func, "object arrays need pickle, which arrstride never loads", repr(descr))
    if len(descr) < 2 or descr[0] not in "<>|=":
        raise value_error(func, "the header's descr is not a dtype descriptor", repr(descr)[:80])
    order, code = descr[0], descr[1:]
    if code in ("V2",):
        if not _bfloat16_ok():
            raise value_error(func, "a '<V2' array is read as bfloat16 (ml_dtypes' descriptor), "
                              "and ml_dtypes is not installed", repr(descr))
        return dt.bfloat16, order == ">"
    d = _DESCR.get(code)
    if d is None:
        raise value_error(func, "the file's dtype is not one arrstride has", repr(descr)[:80])
    return d, order == ">" and d.itemsize > 1


# ---- writing ----------------------------------------------------------------------


def _header(func: str, x: Array) -> bytes:
    """NumPy's header, byte for byte: the dict, spare spaces so that the first
    dim can grow to 21 digits in place, then padding to a multiple of 64
    ending in a newline."""
    shape = tuple(x.shape)
    h = "{'descr': %r, 'fortran_order': False, 'shape': %r, }" % (_descr_of(func, x.dtype), shape)
    if shape:
        h += " " * (21 - len(repr(shape[0])))
    body = h.encode("latin1")
    for major, fmt in ((1, "<H"), (2, "<I")):
        pre = len(MAGIC) + 2 + struct.calcsize(fmt)
        pad = 64 - (pre + len(body) + 1) % 64
        n = len(body) + pad + 1
        if n < 2 ** (8 * struct.calcsize(fmt)):
            return MAGIC + bytes([major, 0]) + struct.pack(fmt, n) + body + b" " * pad + b"\n"
    raise value_error(func, "the header is too large", len(body))


def _write_data(f, x: Array) -> None:
    """The elements of x in C order, written to f. The buffer over the
    contiguous copy does not keep it alive: c holds it until the write returns."""
    c = x if x.is_contiguous() else x.contiguous()
    n = c._layout.size * c.dtype.itemsize
    if n:
        f.write(K.ffi.buffer(K.data_ptr(c), n))


def _destination(func: str, file: Any, suffix: str) -> Any:
    """A path, with suffix appended when missing (as NumPy does), or a binary
    file opened for writing."""
    if isinstance(file, (str, os.PathLike)):
        path = os.fspath(file)
        return path if path.endswith(suffix) else path + suffix
    if not hasattr(file, "write"):
        raise type_error(func, "file must be a path or a binary file", type_name(file))
    return file


def _check_saveable(func: str, arr: Any) -> Array:
    from ._creation_functions import asarray
    if isinstance(arr, Array):
        return arr
    try:
        return asarray(arr)
    except (TypeError, ValueError) as e:
        raise type_error(func, "arr must be an array or convertible to one (no objects)",
                         type_name(arr)) from e


def _write(func: str, f, x: Array) -> None:
    f.write(_header(func, x))
    _write_data(f, x)


def save(file: Any, arr: Any, allow_pickle: bool = False) -> None:
    """Save an array to a .npy file in NumPy's format.

    Parameters
    ----------
    file : str, os.PathLike or file
        Path (``.npy`` is appended when missing, as NumPy does) or a binary file opened for writing.
    arr : Array or array_like
        The array; any layout (a view is written in C order).
    allow_pickle : bool, optional
        Must be False: object arrays are never written.

    Examples
    --------
    >>> import io
    >>> import arrstride as xp
    >>> f = io.BytesIO()
    >>> xp.save(f, xp.asarray([[1, 2], [3, 4]], dtype=xp.int16).T)
    >>> _ = f.seek(0)
    >>> xp.load(f)
    Array([[1, 3],
           [2, 4]], dtype=int16)
    """
    func = "save"
    if allow_pickle:
        raise value_error(func, "allow_pickle must be False: arrstride never writes pickles", allow_pickle)
    x = _check_saveable(func, arr)
    file = _destination(func, file, ".npy")
    if isinstance(file, str):
        with open(file, "wb") as f:
            _write(func, f, x)
    else:
        _write(func, file, x)


def _savez(func: str, file: Any, args: tuple, kwds: dict, compress: bool) -> None:
    names = {}
    for i, a in enumerate(args):
        names[f"arr_{i}"] = a
    for k, v in kwds.items():
        if k in names:
            raise value_error(func, "cannot use un-named variables and keyword", k)
        names[k] = v
    file = _destination(func, file, ".npz")
    mode = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    arrays = {k: _check_saveable(func, v) for k, v in names.items()}
    with zipfile.ZipFile(file, mode="w", compression=mode, allowZip64=True) as z:
        for k, x in arrays.items():
            with z.open(k + ".npy", "w", force_zip64=True) as f:
                _write(func, f, x)


def savez(file: Any, *args: Any, **kwds: Any) -> None:
    """Save several arrays to an uncompressed .npz file (a zip of .npy files).

    Parameters
    ----------
    file : str, os.PathLike or file
        Path (``.npz`` is appended when missing) or a binary file opened for writing.
    *args : Array
        Arrays saved as ``arr_0``, ``arr_1``, ...
    **kwds : Array
        Arrays saved under their keyword.

    Examples
    --------
    >>> import io
    >>> import arrstride as xp
    >>> f = io.BytesIO()
    >>> xp.savez(f, xp.arange(3), y=xp.ones(2))
    >>> _ = f.seek(0)
    >>> with xp.load(f) as z:
    ...     print(sorted(z.keys()), z["y"].tolist())
    ['arr_0', 'y'] [1.0, 1.0]
    """
    _savez("savez", file, args, kwds, False)


def savez_compressed(file: Any, *args: Any, **kwds: Any) -> None:
    """Save several arrays to a compressed (deflate) .npz file.

    Parameters
    ----------
    file : str, os.PathLike or file
        Path (``.npz`` is appended when missing) or a binary file opened for writing.
    *args : Array
        Arrays saved as ``arr_0``, ``arr_1``, ...
    **kwds : Array
        Arrays saved under their keyword.

    Examples
    --------
    >>> import io
    >>> import arrstride as xp
    >>> f = io.BytesIO()
    >>> xp.savez_compressed(f, x=xp.zeros(1000))
    >>> _ = f.seek(0)
    >>> xp.load(f)["x"].shape
    (1000,)
    """
    _savez("savez_compressed", file, args, kwds, True)


# ---- reading ----------------------------------------------------------------------


def _read_exact(f, n: int) -> bytes:
    out = b""
    while len(out) < n:
        chunk = f.read(n - len(out))
        if not chunk:
            break
        out += chunk
    return out


def read_header(func: str, f) -> tuple:
    """(dtype, byteswap, fortran_order, shape) from an open .npy file, or a ValueError."""
    pre = _read_exact(f, 8)
    if len(pre) < 8 or pre[:6] != MAGIC:
        raise value_error(func, "not a .npy file: the magic string is missing", repr(pre[:8]))
    major, minor = pre[6], pre[7]
    if (major, minor) not in ((1, 0), (2, 0), (3, 0)):
        raise value_error(func, "unsupported .npy format version", f"{major}.{minor}")
    fmt = "<H" if major == 1 else "<I"
    raw = _read_exact(f, struct.calcsize(fmt))
    if len(raw) < struct.calcsize(fmt):
        raise value_error(func, "the .npy header is truncated", f"{len(raw)} length bytes")
    (hlen,) = struct.unpack(fmt, raw)
    if hlen > MAX_HEADER:
        raise value_error(func, f"the .npy header is longer than {MAX_HEADER} bytes", hlen)
    header = _read_exact(f, hlen)
    if len(header) < hlen:
        raise value_error(func, "the .npy header is truncated", f"{len(header)} of {hlen} bytes")
    try:
        text = header.decode("utf8" if major == 3 else "latin1")
        with warnings.catch_warnings():  # a mangled literal's SyntaxWarning: the ValueError below says it
            warnings.simplefilter("ignore", SyntaxWarning)
            d = ast.literal_eval(text)
    except (UnicodeDecodeError, ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        raise value_error(func, "the .npy header is not a Python dict literal", repr(header[:60])) from None
    if not isinstance(d, dict) or set(d) != {"descr", "fortran_order", "shape"}:
        raise value_error(func, "the .npy header must have exactly the keys descr, fortran_order "
                          "and shape", repr(header[:60]))
    shape, fortran = d["shape"], d["fortran_order"]
    if not isinstance(shape, tuple) or not all(type(s) is int and s >= 0 for s in shape):
        raise value_error(func, "the header's shape is not a tuple of non-negative ints", repr(shape)[:80])
    if len(shape) > K.lib.ARS_MAX_DIMS:
        raise value_error(func, f"the header's shape has more than {K.lib.ARS_MAX_DIMS} dims", len(shape))
    if not isinstance(fortran, bool):
        raise value_error(func, "the header's fortran_order is not a bool", repr(fortran)[:80])
    dtype, swap = _dtype_of(func, d["descr"])
    return dtype, swap, fortran, shape


def _swap_in_place(buf, d) -> None:
    """Reverse the bytes of every item (each part of a complex) in buf, a writable buffer."""
    n = d.itemsize // 2 if d.kind == "c" else d.itemsize
    mv = memoryview(buf).cast("B")
    src = bytes(mv)
    for k in range(n):
        mv[k::n] = src[n - 1 - k::n]


def _read_array(func: str, f, size: Optional[int], exact: bool) -> Array:
    """An array from an open .npy file. size: the file's end offset when known;
    exact: the data must end there (a path, a zip member), else an open file may
    hold more after it. The size is checked before the array is allocated, and
    the data is read straight into it."""
    dtype, swap, fortran, shape = read_header(func, f)
    count = 1
    for s in shape:
        count *= s
    nbytes = count * dtype.itemsize
    if nbytes > K.MAX_BYTES:
        raise value_error(func, "the header's shape is too large", shape)
    if size is not None:
        left = size - f.tell()
        if exact and left != nbytes:
            raise value_error(func, "the file's size does not match its header",
                              f"{left} data bytes for shape {shape} of {dtype} ({nbytes} bytes)")
        if left < nbytes:
            raise value_error(func, "the file is shorter than its header says", f"{left} of {nbytes} data bytes")
    disk = tuple(reversed(shape)) if fortran else shape
    out = Array._empty(disk, dtype)
    if nbytes:
        buf = K.ffi.buffer(K.data_ptr(out), nbytes)
        got = _read_into(f, buf)
        if got != nbytes:
            raise value_error(func, "the file is shorter than its header says",
                              f"{got} of {nbytes} data bytes")
        if swap:
            _swap_in_place(buf, dtype)
    if fortran and len(shape) > 1:
        from ._manipulation_functions import permute_dims
        out = permute_dims(out, tuple(range(len(shape) - 1, -1, -1)))
    return out


_CHUNK = 1 << 24  # the most one read() call asks for when the stream has no readinto


def _read_into(f, buf) -> int:
    """Fill buf (a writable buffer) from f; the number of bytes read (short at the end of f)."""
    mv = memoryview(buf).cast("B")
    done, n = 0, len(mv)
    readinto = getattr(f, "readinto", None)
    while done < n:
        if readinto is not None:
            k = readinto(mv[done:])
        else:
            chunk = f.read(min(n - done, _CHUNK))
            k = len(chunk)
            mv[done:done + k] = chunk
        if not isinstance(k, int) or k <= 0 or k > n - done:  # the end, or a stream that lies
            break
        done += k
    return done


def _remaining(f) -> Optional[int]:
    """The size of a seekable file, else None."""
    try:
        if not f.seekable():
            return None
        here = f.tell()
        end = f.seek(0, io.SEEK_END)
        f.seek(here)
        return end
    except (AttributeError, OSError, ValueError):
        return None


class NpzFile:
    """The arrays of a .npz file, read one at a time by name (a mapping).

    Parameters
    ----------
    file : file
        The open zip file.
    own : bool
        Whether closing this closes the file.
    """

    def __init__(self, file: Any, own: bool = False) -> None:
        try:
            self._zip = zipfile.ZipFile(file)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
            raise value_error("load", "not a valid .npz (zip) file", str(e)) from None
        self._file = file if own else None
        self.files = [n[:-4] if n.endswith(".npy") else n for n in self._zip.namelist()]

    def keys(self) -> list:
        """The names of the arrays."""
        return list(self.files)

    def __iter__(self):
        return iter(self.files)

    def __len__(self) -> int:
        return len(self.files)

    def __contains__(self, key: object) -> bool:
        return key in self.files

    def __getitem__(self, key: str) -> Array:
        names = self._zip.namelist()
        member = key + ".npy" if key + ".npy" in names else key
        if member not in names:
            raise KeyError(f"{key} is not a file in the archive")
        info = self._zip.getinfo(member)
        try:
            with self._zip.open(member) as f:
                return _read_array("load", _Counted(f), info.file_size, exact=True)
        except (zipfile.BadZipFile, EOFError, OSError) as e:
            raise value_error("load", "the .npz member is damaged", f"{key}: {e}") from None

    def items(self) -> list:
        """(name, array) pairs."""
        return [(k, self[k]) for k in self.files]

    def close(self) -> None:
        """Close the archive (and the file when load opened it)."""
        self._zip.close()
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> "NpzFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"NpzFile({self.files!r})"


class _Counted:
    """A zip member stream with tell(), for the size check."""

    def __init__(self, f) -> None:
        self._f, self._pos = f, 0

    def read(self, n: int) -> bytes:
        b = self._f.read(n)
        self._pos += len(b)
        return b

    def tell(self) -> int:
        return self._pos


def load(file: Any, mmap_mode: Any = None, allow_pickle: bool = False):
    """Load an array from a .npy file, or the arrays of a .npz file.

    Parameters
    ----------
    file : str, os.PathLike or file
        Path or binary file opened for reading.
    mmap_mode : None, optional
        Must be None (memory mapping is not offered).
    allow_pickle : bool, optional
        Must be False: object arrays are never loaded.

    Returns
    -------
    Array or NpzFile
        A new array (a transposed view of one, for a Fortran-order file), or
        for a .npz file a mapping from names to arrays, to be closed after use.

    Examples
    --------
    >>> import io
    >>> import arrstride as xp
    >>> f = io.BytesIO()
    >>> xp.save(f, xp.linspace(0, 1, 3))
    >>> _ = f.seek(0)
    >>> xp.load(f).tolist()
    [0.0, 0.5, 1.0]
    """
    func = "load"
    if allow_pickle:
        raise value_error(func, "allow_pickle must be False: arrstride never loads pickles", allow_pickle)
    if mmap_mode is not None:
        raise value_error(func, "mmap_mode is not supported; load reads the file into memory",
                          repr(mmap_mode))
    if isinstance(file, (str, os.PathLike)):
        f = open(os.fspath(file), "rb")
        own = True
    elif hasattr(file, "read"):
        f, own = file, False
    else:
        raise type_error(func, "file must be a path or a binary file", type_name(file))
    try:
        start = f.tell() if hasattr(f, "tell") else 0
        head = _read_exact(f, 6)
        if hasattr(f, "seek"):
            f.seek(start)
        else:
            raise type_error(func, "file must be seekable", type_name(file))
        if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
            z = NpzFile(f, own=own)
            own = False
            return z
        if head != MAGIC:
            raise value_error(func, "not a .npy or .npz file", repr(head))
        # a path: the data must fill the file exactly; an open file may hold more after it
        return _read_array(func, f, _remaining(f), exact=own)
    finally:
        if own:
            f.close()


# ---- frombuffer -----------------------------------------------------------------------


def frombuffer(buffer: Any, dtype: Any = float, count: int = -1, offset: int = 0) -> Array:
    """A 1-D array over the bytes of a buffer, sharing its memory, as NumPy's frombuffer.

    Parameters
    ----------
    buffer : bytes, bytearray, memoryview or any buffer-protocol object
        The memory (C-contiguous); read-only exporters give a read-only array.
    dtype : DType or Python type, optional
        Element type; default float64.
    count : int, optional
        Number of elements; -1 takes every whole element after `offset`.
    offset : int, optional
        Bytes skipped at the start.

    Returns
    -------
    Array
        A view of the buffer's memory (read-only for bytes).

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.frombuffer(b"\\x01\\x00\\x02\\x00", dtype=xp.int16).tolist()
    [1, 2]
    >>> xp.frombuffer(bytearray(8), dtype=xp.uint8, count=3, offset=2).tolist()
    [0, 0, 0]
    """
    func = "frombuffer"
    from ._creation_functions import asarray
    d = dt.as_dtype(func, dtype, allow_none=False)
    try:
        mv = memoryview(buffer)
    except TypeError:
        raise type_error(func, "buffer must support the buffer protocol", type_name(buffer)) from None
    if not mv.c_contiguous:
        raise value_error(func, "the buffer must be C-contiguous", "a strided buffer")
    raw = mv.cast("B") if mv.format != "B" or mv.ndim != 1 else mv
    count, offset = int(count), int(offset)
    n = raw.nbytes
    if offset < 0 or offset > n:
        raise value_error(func, "offset must be non-negative and no greater than the buffer's length",
                          f"offset {offset} for {n} bytes")
    if count < 0:
        if count != -1:
            raise value_error(func, "count must be -1 or non-negative", count)
        if (n - offset) % d.itemsize:
            raise value_error(func, "the buffer's size must be a multiple of the element size",
                              f"{n - offset} bytes for itemsize {d.itemsize}")
        count = (n - offset) // d.itemsize
    elif offset + count * d.itemsize > n:
        raise value_error(func, "the buffer is smaller than requested",
                          f"{n} bytes for offset {offset} + {count} x {d.itemsize}")
    u8 = asarray(raw)
    part = u8[offset:offset + count * d.itemsize]
    if d == dt.bool:
        from ._utility_functions import all as _all
        if count and not bool(_all(part <= 1)):
            raise value_error(func, "bool elements must be the bytes 0 or 1", "other bytes")
        return Array._new(part._storage, L.Layout((count,), (1,), part._layout.offset), dt.bool)
    if d.itemsize == 1:
        return Array._new(part._storage, part._layout, d)
    # the byte offset must land on a whole element of the storage for a view
    if part._layout.offset % d.itemsize == 0:
        return Array._new(part._storage, L.Layout((count,), (1,), part._layout.offset // d.itemsize), d)
    raise value_error(func, "offset must be a multiple of the element size for a view",
                      f"offset {offset} for itemsize {d.itemsize}")
