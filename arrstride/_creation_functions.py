"""Creation functions. asarray shares memory whenever `copy` allows; everything
else allocates a new contiguous array."""
from __future__ import annotations

import math
import struct
from typing import Any, Optional, Sequence, Tuple, Union

from . import _dlpack, _foreign
from . import _dtypes as dt
from . import _kernels as K
from . import _layout as L
from . import _storage as S
from ._args import check_dims, shape_ints
from ._array import CPU, Array, check_array, check_device
from ._core import empty as _core_empty
from ._core import from_buffer as _core_from_buffer
from ._core import from_list as _core_from_list
from ._core import read_sequence as _core_read_sequence
from ._core import scalar as _core_scalar
from ._elementwise_functions import add as _add
from ._elementwise_functions import floor
from ._elementwise_functions import multiply as _multiply
from ._elementwise_functions import pow as _pow
from ._errors import number_error, sequence_error, type_error, value_error

ShapeLike = Union[int, Sequence[int]]
builtins_min, builtins_max = min, max


# ---- argument checks shared by the creation functions --------------------------

def normalize_shape(func: str, shape: Any) -> Tuple[int, ...]:
    if isinstance(shape, Array):
        raise type_error(func, "shape must be an int or a tuple of ints", "an array")
    return check_dims(func, shape_ints(func, shape))


def _new_in_c(shape: Any, dtype: dt.DType, zero: bool = False, value: Any = None) -> Optional[Array]:
    """_core.empty for a shape given as an int or a tuple of ints: the new array
    (zeroed, or every element value), or None where the Python path decides."""
    return _core_empty((shape,) if type(shape) is int else shape, dtype, zero, value)


_PYTHON_SCALARS = frozenset({dt.builtins_bool, int, float, complex})


def _one(dtype: dt.DType) -> Any:
    """1 as a Python scalar the dtype takes as it is (True for bool)."""
    return True if dtype is dt.bool else 1


def check_dtype(func: str, dtype: Any) -> Optional[dt.DType]:
    return dt.as_dtype(func, dtype)


_KIND_NAMES = {"int": "an int", "real": "a real number", "number": "a number"}


def number_arg(func: str, name: str, value: Any, kind: str) -> Any:
    """A number argument as a Python scalar. Accepts what a Python number
    stands in for: Python and NumPy scalars and 0-d arrays (arrstride or
    NumPy), as array-api-strict does. kind: 'int' (no bool), 'real' (bool,
    int or float) or 'number' (also complex)."""
    if isinstance(value, Array):
        v = value._item() if value.ndim == 0 else None
    else:
        v = dt.python_scalar(value)
    if v is None or (kind == "int" and (isinstance(v, dt.builtins_bool) or not isinstance(v, int))) \
            or (kind == "real" and isinstance(v, complex)):
        raise number_error(func, name, _KIND_NAMES[kind], value)
    return v


# ---- asarray ----------------------------------------------------------------------

def asarray(obj: Any, /, *, dtype: Optional[dt.DType] = None, device: Any = None,
            copy: Optional[bool] = None) -> Array:
    """An array from an object: an array, a buffer, a scalar or nested sequences.

    An arrstride array is shared unless a copy is needed or asked for; a
    buffer-protocol or ``__array_interface__`` exporter (a NumPy array, for one)
    is shared without a copy unless ``copy=True``; Python scalars and nested
    sequences are copied into a new array.

    Parameters
    ----------
    obj : object
        An arrstride array, an object exporting the buffer protocol, DLPack or
        ``__array_interface__``, a Python scalar, or nested sequences of them.
    dtype : DType or Python type, optional
        Data type of the result; Python's bool, int, float and complex (and
        NumPy dtypes) are taken for arrstride's bool, int64, float64 and
        complex128.
        By default, the dtype of obj, or the default dtype of the Python scalars'
        kind.
    device : Device or str, optional
        Only the CPU (``Device('cpu')``, ``'cpu'`` or None) is accepted.
    copy : bool, optional
        True: always copy. False: never copy (ValueError when a copy is needed).
        None (the default): copy only when needed.

    Returns
    -------
    Array
        The array, sharing obj's memory unless a copy was made.

    Raises
    ------
    TypeError
        If obj holds something arrstride has no dtype for (strings, dates,
        objects).
    ValueError
        If ``copy=False`` and a copy is needed, or nested sequences are ragged.

    See Also
    --------
    from_dlpack

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.asarray([[1, 2], [3, 4]], dtype=xp.float32)
    Array([[1., 2.],
           [3., 4.]], dtype=float32)
    """
    t = type(obj)
    if t is Array and (copy is None or copy is False) and (device is None or device is CPU) \
            and (dtype is None or dtype is obj._dtype):
        return obj  # clients re-wrap their arrays on every call
    if (t is float or t is int or t is complex or t is dt.builtins_bool) and copy is not False \
            and (device is None or device is CPU) and (dtype is None or type(dtype) is dt.DType):
        # a Python scalar (asarray(inf, dtype=X.dtype, device=device(X))), in C when
        # the dtype takes it as it is; None for an int past int64 or another kind
        fast = _core_scalar(obj, dtype)
        if fast is not None:
            return fast
    if dtype is None and device is None and (copy is None or copy is True):
        if t is list:
            fast = _core_from_list(obj)  # a flat list of floats or of ints, in C
            if fast is not None:
                return fast
        elif copy is None and t is not Array:
            if t is bytes or t.__name__ in _NOT_NUMBERS:
                _refuse_not_numbers(obj)
            fast = _core_from_buffer(obj)  # a NumPy array (any exporter), shared, in C
            if fast is not None:
                return fast
    func = "asarray"
    check_device(func, device)
    dtype = check_dtype(func, dtype)
    if copy not in (None, True, False):
        raise type_error(func, "copy must be True, False or None", repr(copy))
    if isinstance(obj, Array):
        return _from_array(obj, dtype, copy)
    if isinstance(obj, range) and copy is not False and len(obj) and \
            -2 ** 63 <= builtins_min(obj[0], obj[-1]) and builtins_max(obj[0], obj[-1]) < 2 ** 63:
        # a range's extremes are its ends: read them, do not walk it
        return _from_array(arange(obj.start, obj.stop, obj.step), dtype, None)
    if not isinstance(obj, (dt.builtins_bool, int, float, complex, list, tuple, range)):
        shared = _from_external(obj, copy)
        if shared is not None:
            return _from_array(shared, dtype, copy)
        converted = _from_array_method(obj, copy)
        if converted is not None:
            return _from_array(converted, dtype, copy)
    if copy is False:
        raise value_error(func, "copy=False, but a Python object cannot be shared without a copy",
                          type(obj).__name__)
    return _from_python(obj, dtype)


def _from_array_method(obj: Any, copy: Optional[bool]) -> Optional[Array]:
    """The array an object with NumPy's __array__ method (a pandas Series, an
    xarray DataArray) gives, as NumPy and PyTorch accept it; None when obj has
    no such method. copy=False is passed on, as NumPy 2 does."""
    method = getattr(type(obj), "__array__", None)
    if method is None:
        return None
    if copy is False:
        try:
            out = method(obj, copy=False)
        except TypeError:  # an __array__ of NumPy 1's signature, without copy
            out = method(obj)
    else:
        out = method(obj)
    shared = out if isinstance(out, Array) else _from_external(out, None)
    if shared is None:
        raise type_error("asarray", "__array__ must return an array", type(out).__name__)
    return shared


def _from_array(x: Array, dtype: Optional[dt.DType], copy: Optional[bool]) -> Array:
    if dtype is None or dtype is x.dtype:
        return x._copy_contiguous() if copy else x
    if copy is False:
        raise value_error("asarray", f"copy=False, but converting {x.dtype} to {dtype} needs a copy")
    return dt.in_dtype(x, dtype)


# NumPy scalars that are not numbers export their bytes through the buffer
# protocol, as bytes does: refused, never read as uint8
_NOT_NUMBERS = frozenset({"datetime64", "timedelta64", "bytes_", "str_", "void"})


def _refuse_not_numbers(obj: Any) -> None:
    t = type(obj)
    if t is bytes or getattr(t, "__module__", None) == "numpy":
        raise type_error("asarray", "expected numbers: bytes, strings, dates and times are not "
                                    "array data (arrstride has the standard's 13 dtypes)",
                         t.__name__)


def _from_external(obj: Any, copy: Optional[bool]) -> Optional[Array]:
    """A zero-copy view of a foreign array, or None if obj exports no memory.

    The buffer protocol comes first, with any strides (NumPy arrays and views,
    bytes, bytearray, memoryview): the storage's one owner holds the export
    and releases it once (see _storage). A NumPy scalar is an immutable value,
    so its array is a writable copy. Objects with only __array_interface__ are
    kept alive by a reference; DLPack producers go through DLPack. What the
    exporter says is checked in _foreign before memory is touched."""
    func = "asarray"
    t = type(obj)
    if t is bytes or t.__name__ in _NOT_NUMBERS:
        _refuse_not_numbers(obj)
    shared = _core_from_buffer(obj)  # an exporter of a non-empty N-D buffer of a known format, in C
    if shared is not None:
        return shared
    export = S.export_buffer(obj)
    if export is not None:
        owner, (fmt, itemsize, shape, bstrides, address, readonly) = export
        dtype = _foreign.dtype_of_format(fmt, itemsize)
        if dtype is None:
            raise type_error(func, "unsupported buffer format (arrstride has the standard's 13 "
                             "dtypes, native byte order, with the format's own item size)",
                             f"format {fmt!r}, itemsize {itemsize}")
        arr = _foreign.wrap(func, dtype, shape, bstrides, address, owner, readonly,
                            byte_strides=True, copy=copy)
        if S.is_numpy_scalar(obj):  # an immutable value, not shared memory: copied
            if copy is False:
                raise value_error(func, "copy=False, but a NumPy scalar is a value and cannot "
                                  "be shared", type(obj).__name__)
            return arr._copy_contiguous()
        return arr
    iface = getattr(obj, "__array_interface__", None)
    if isinstance(iface, dict):
        arr = _foreign.from_interface(func, obj, iface, copy)
        if arr is not None:
            return arr
    if hasattr(obj, "__dlpack__") or _dlpack.is_capsule(obj):
        return _shared_from_dlpack(func, obj, copy)
    try:
        mv = memoryview(obj)  # an exporter that needs suboffsets: copied
    except (TypeError, ValueError):
        if isinstance(iface, dict):
            raise type_error(func, "__array_interface__ without a data pointer is not supported",
                             type(obj).__name__) from None
        return None
    with mv:
        dtype = _foreign.dtype_of_format(mv.format, mv.itemsize)
        if dtype is None:
            raise type_error(func, "unsupported buffer format", f"format {mv.format!r}, itemsize {mv.itemsize}")
        if copy is False:
            raise value_error(func, "copy=False, but a buffer with suboffsets cannot be shared")
        out = Array._empty(_foreign.check_shape(func, mv.shape), dtype)
        data = mv.tobytes()
        if len(data) != out.size * dtype.itemsize:
            raise value_error(func, "the buffer's size does not match its shape and item size",
                              f"{len(data)} bytes for shape {mv.shape}")
        K.write_bytes(out, data)
    return out


# ---- from_dlpack -------------------------------------------------------------------

def from_dlpack(x: Any, /, *, device: Any = None, copy: Optional[bool] = None) -> Array:
    """An array from a DLPack producer, sharing its memory.

    Parameters
    ----------
    x : object
        An object with ``__dlpack__`` and ``__dlpack_device__`` (a NumPy array, a
        PyTorch tensor, ...) or a DLPack capsule.
    device : Device or str, optional
        Only the CPU (``Device('cpu')``, ``'cpu'`` or None) is accepted.
    copy : bool, optional
        True: copy the data. False: never copy (an error if the producer cannot
        share). None (the default): share when possible.

    Returns
    -------
    Array
        The array, sharing x's memory unless a copy was made; read-only when the
        producer marks its data read-only.

    Raises
    ------
    AttributeError
        If x is neither a capsule nor has ``__dlpack__`` and ``__dlpack_device__``.
    BufferError
        If the producer cannot export its data (a device other than the CPU, an
        unsupported dtype).

    See Also
    --------
    asarray

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([1.0, 2.0])
    >>> y = xp.from_dlpack(x)
    >>> y[0] = 5.0
    >>> x
    Array([5., 2.])
    """
    func = "from_dlpack"
    check_device(func, device)
    if not (copy is None or copy is True or copy is False):
        raise type_error(func, "copy must be True, False or None", repr(copy))
    if isinstance(x, Array):
        return x._copy_contiguous() if copy else x
    capsule = x if _dlpack.is_capsule(x) else _dlpack.capsule_of(func, x, copy)
    out, copied = _dlpack.from_capsule(func, capsule)
    return out._copy_contiguous() if copy and not copied else out


def _shared_from_dlpack(func: str, x: Any, copy: Optional[bool]) -> Array:
    """x's data through DLPack, shared when the producer allows it."""
    capsule = x if _dlpack.is_capsule(x) else _dlpack.capsule_of(func, x, copy)
    return _dlpack.from_capsule(func, capsule)[0]


def _leaf(obj: Any) -> tuple:
    """(dtype, value) of a leaf of a nested sequence that is not a Python number:
    an array's or an exporter's dtype and its values as a Python scalar or
    nested list, which read_sequence walks in the leaf's place."""
    if not isinstance(obj, Array) and getattr(type(obj), "__array__", None) is not None \
            and not hasattr(obj, "__array_interface__"):
        obj = _from_array_method(obj, None)
    if not isinstance(obj, Array):
        if not (getattr(obj, "__array_interface__", None) or hasattr(obj, "__buffer__")):
            raise type_error("asarray", "Unsupported type: expected a bool, int, float, complex, array or "
                             "nested sequence of them", type(obj).__name__)
        obj = asarray(obj)
    return obj.dtype, obj.tolist()


_KIND_BOOL, _KIND_INT, _KIND_FLOAT, _KIND_COMPLEX = 1, 2, 4, 8  # seq.c's KIND_* bits
_INT64_MIN, _INT64_MAX = -2 ** 63, 2 ** 63 - 1


def _infer_dtype(n: int, pykinds: int, typed: list, lo, hi) -> dt.DType:
    if typed:
        # NumPy's rule: Python scalars beside typed values count as their
        # default dtypes, and everything promotes together
        out = None
        for kind, d in ((_KIND_BOOL, dt.bool), (_KIND_INT, dt.default_int), (_KIND_FLOAT, dt.default_float),
                        (_KIND_COMPLEX, dt.default_complex)):
            if pykinds & kind:
                typed.append(d)
        for d in typed:
            out = d if out is None else dt.promote(out, d)
        return out
    if n == 0:
        return dt.default_float
    if pykinds & _KIND_COMPLEX:
        return dt.default_complex
    if pykinds & _KIND_FLOAT:
        return dt.default_float
    if pykinds == _KIND_BOOL:
        return dt.bool
    if hi > _INT64_MAX and lo >= 0:
        return dt.uint64
    return dt.default_int


def _decide(dtype: Optional[dt.DType], shape: tuple, kinds: int, pykinds: int, typed: list, lo, hi) -> tuple:
    """read_sequence's rules: the result's dtype, and the buffer of a Python
    kind (bool, int64, uint64, float64, complex128) the leaves are read into,
    cast into the result afterwards when the two differ."""
    func = "asarray"
    n = math.prod(shape)
    if dtype is None:
        dtype = _infer_dtype(n, pykinds, typed, lo, hi)
    out = Array._empty(shape, dtype)
    if n == 0:
        return out, (out, out)
    ints = not kinds & ~(_KIND_BOOL | _KIND_INT)
    if kinds & _KIND_COMPLEX and dtype.kind != "c":
        raise type_error(func, f"cannot convert complex values to {dtype}")
    if dtype.kind in "iu" and ints:
        lo_ok, hi_ok = dt.int_range(dtype)
        if lo < lo_ok or hi > hi_ok:
            raise OverflowError(f"{func}: Python integer out of bounds for {dtype}")
    if dtype.kind == "b" or kinds == _KIND_BOOL:
        src = dt.bool
    elif kinds & _KIND_COMPLEX or dtype.kind == "c":
        src = dt.complex128
    elif ints and _INT64_MIN <= lo and hi <= _INT64_MAX:
        src = dt.int64
    elif ints and dtype.kind in "iu":
        src = dt.uint64  # in dtype's range (checked above), past int64: a uint64 dtype's values
    else:
        src = dt.float64
    buf = out if src is dtype else Array._empty(shape, src)
    return buf, (out, buf)


def _from_python(obj: Any, dtype: Optional[dt.DType]) -> Array:
    """Nested lists and tuples of Python numbers and arrays, read once by the one
    checked reader (_core.read_sequence, native/core/seq.c)."""
    r = _core_read_sequence(obj, dtype, _leaf, _decide)
    if type(r[0]) is str:
        raise sequence_error("asarray", *r)
    out, buf = r
    if buf is not out:
        K.copy_into(out, buf)
    return out


# ---- filled arrays --------------------------------------------------------------------

def empty(shape: ShapeLike, *, dtype: Optional[dt.DType] = None, device: Any = None) -> Array:
    """A new array whose values are not set.

    Parameters
    ----------
    shape : int or tuple of int
        Shape of the result.
    dtype : DType or Python type, optional
        Data type of the result; default float64.
    device : Device or str, optional
        Only the CPU (``Device('cpu')``, ``'cpu'`` or None) is accepted.

    Returns
    -------
    Array
        A new contiguous array; its values are whatever the memory held.

    See Also
    --------
    zeros, empty_like

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.empty((2, 3)).shape
    (2, 3)
    """
    if device is None:
        out = _new_in_c(shape, dt.default_float if dtype is None else dtype)
        if out is not None:  # a tuple of ints (or an int) and an arrstride dtype: done in C
            return out
    check_device("empty", device)
    dtype = check_dtype("empty", dtype) or dt.default_float
    return Array._empty(normalize_shape("empty", shape), dtype, func="empty")


def zeros(shape: ShapeLike, *, dtype: Optional[dt.DType] = None, device: Any = None) -> Array:
    """A new array filled with zeros.

    Parameters
    ----------
    shape : int or tuple of int
        Shape of the result.
    dtype : DType or Python type, optional
        Data type of the result; default float64.
    device : Device or str, optional
        Only the CPU (``Device('cpu')``, ``'cpu'`` or None) is accepted.

    Returns
    -------
    Array
        A new contiguous array.

    See Also
    --------
    ones, full, zeros_like

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.zeros((2, 3), dtype=int)
    Array([[0, 0, 0],
           [0, 0, 0]])
    """
    if device is None:
        out = _new_in_c(shape, dt.default_float if dtype is None else dtype, True)
        if out is not None:  # as in empty
            return out
    check_device("zeros", device)
    dtype = check_dtype("zeros", dtype) or dt.default_float
    return Array._empty(normalize_shape("zeros", shape), dtype, zero=True, func="zeros")


def full(shape: ShapeLike, fill_value: Any, *, dtype: Optional[dt.DType] = None,
         device: Any = None) -> Array:
    """A new array filled with one value.

    Parameters
    ----------
    shape : int or tuple of int
        Shape of the result.
    fill_value : bool, int, float or complex
        Value of every element.
    dtype : DType or Python type, optional
        Data type of the result; by default the default dtype of fill_value's
        kind (bool, int64, float64 or complex128).
    device : Device or str, optional
        Only the CPU (``Device('cpu')``, ``'cpu'`` or None) is accepted.

    Returns
    -------
    Array
        A new contiguous array.

    See Also
    --------
    full_like, zeros, ones

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.full((2,), 7, dtype=xp.int32)
    Array([7, 7], dtype=int32)
    """
    if device is None and (dtype is not None or type(fill_value) in _PYTHON_SCALARS):
        out = _new_in_c(shape, dt.scalar_dtype(fill_value, "full") if dtype is None else dtype, False, fill_value)
        if out is not None:  # as in empty, for a Python scalar the dtype takes as it is
            return out
    func = "full"
    check_device(func, device)
    dtype = check_dtype(func, dtype)
    if isinstance(fill_value, Array):
        if dtype is None:
            dtype = fill_value.dtype
        fill_value = fill_value._scalar(func)
    else:
        fill_value = number_arg(func, "fill_value", fill_value, "number")
    if dtype is None:
        dtype = dt.scalar_dtype(fill_value, func)
    out = Array._empty(normalize_shape(func, shape), dtype, func=func)
    K.fill(out, dt.pack_scalar(fill_value, dtype, func))
    return out


def ones(shape: ShapeLike, *, dtype: Optional[dt.DType] = None, device: Any = None) -> Array:
    """A new array filled with ones.

    Parameters
    ----------
    shape : int or tuple of int
        Shape of the result.
    dtype : DType or Python type, optional
        Data type of the result; default float64.
    device : Device or str, optional
        Only the CPU (``Device('cpu')``, ``'cpu'`` or None) is accepted.

    Returns
    -------
    Array
        A new contiguous array.

    See Also
    --------
    zeros, full, ones_like

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.ones((2, 3))
    Array([[1., 1., 1.],
           [1., 1., 1.]])
    """
    if device is None:
        d = dt.default_float if dtype is None else dtype
        out = _new_in_c(shape, d, False, _one(d))
        if out is not None:  # as in full
            return out
    check_device("ones", device)
    dtype = check_dtype("ones", dtype) or dt.default_float
    return full(normalize_shape("ones", shape), 1, dtype=dtype)


def _like(func: str, x: Array, dtype: Optional[dt.DType], device: Any) -> Tuple[Array, dt.DType]:
    x = check_array(func, x)
    check_device(func, device)
    return x, check_dtype(func, dtype) or x.dtype


def empty_like(x: Array, /, *, dtype: Optional[dt.DType] = None, device: Any = None) -> Array:
    """A new array of x's shape whose values are not set.

    Parameters
    ----------
    x : Array
        Array whose shape (and dtype) the result takes.
    dtype : DType or Python type, optional
        Data type of the result; by default x's.
    device : Device or str, optional
        Only the CPU (``Device('cpu')``, ``'cpu'`` or None) is accepted.

    Returns
    -------
    Array
        A new contiguous array of x's shape.

    See Also
    --------
    empty

    Examples
    --------
    >>> import arrstride as xp
    >>> y = xp.empty_like(xp.ones((2, 3), dtype=xp.int32))
    >>> y.shape, y.dtype
    ((2, 3), arrstride.int32)
    """
    x, dtype = _like("empty_like", x, dtype, device)
    return Array._empty(x.shape, dtype, func="empty_like")


def zeros_like(x: Array, /, *, dtype: Optional[dt.DType] = None, device: Any = None) -> Array:
    """A new array of x's shape filled with zeros.

    Parameters
    ----------
    x : Array
        Array whose shape (and dtype) the result takes.
    dtype : DType or Python type, optional
        Data type of the result; by default x's.
    device : Device or str, optional
        Only the CPU (``Device('cpu')``, ``'cpu'`` or None) is accepted.

    Returns
    -------
    Array
        A new contiguous array of x's shape.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.zeros_like(xp.asarray([[1, 2], [3, 4]]))
    Array([[0, 0],
           [0, 0]])
    """
    x, dtype = _like("zeros_like", x, dtype, device)
    return Array._empty(x.shape, dtype, zero=True, func="zeros_like")


def ones_like(x: Array, /, *, dtype: Optional[dt.DType] = None, device: Any = None) -> Array:
    """A new array of x's shape filled with ones.

    Parameters
    ----------
    x : Array
        Array whose shape (and dtype) the result takes.
    dtype : DType or Python type, optional
        Data type of the result; by default x's.
    device : Device or str, optional
        Only the CPU (``Device('cpu')``, ``'cpu'`` or None) is accepted.

    Returns
    -------
    Array
        A new contiguous array of x's shape.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.ones_like(xp.zeros((2, 3), dtype=xp.int8))
    Array([[1, 1, 1],
           [1, 1, 1]], dtype=int8)
    """
    if device is None and type(x) is Array:
        d = x.dtype if dtype is None else dtype
        out = _new_in_c(x.shape, d, False, _one(d))
        if out is not None:  # as in full
            return out
    x, dtype = _like("ones_like", x, dtype, device)
    return full(x.shape, 1, dtype=dtype)


def full_like(x: Array, /, fill_value: Any, *, dtype: Optional[dt.DType] = None,
              device: Any = None) -> Array:
    """A new array of x's shape filled with one value.

    Parameters
    ----------
    x : Array
        Array whose shape (and dtype) the result takes.
    fill_value : bool, int, float or complex
        Value of every element.
    dtype : DType or Python type, optional
        Data type of the result; by default x's.
    device : Device or str, optional
        Only the CPU (``Device('cpu')``, ``'cpu'`` or None) is accepted.

    Returns
    -------
    Array
        A new contiguous array of x's shape.

    See Also
    --------
    full

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.full_like(xp.zeros((2, 2)), 7.5)
    Array([[7.5, 7.5],
           [7.5, 7.5]])
    """
    x, dtype = _like("full_like", x, dtype, device)
    return full(x.shape, fill_value, dtype=dtype)


def eye(n_rows: int, n_cols: Optional[int] = None, /, *, k: int = 0,
        dtype: Optional[dt.DType] = None, device: Any = None) -> Array:
    """A 2-D array with ones on the k-th diagonal and zeros elsewhere.

    Parameters
    ----------
    n_rows : int
        Number of rows.
    n_cols : int, optional
        Number of columns; default ``n_rows``.
    k : int, optional
        Diagonal of the ones: 0 (the default) the main diagonal, positive above
        it, negative below it.
    dtype : DType or Python type, optional
        Data type of the result; default float64.
    device : Device or str, optional
        Only the CPU (``Device('cpu')``, ``'cpu'`` or None) is accepted.

    Returns
    -------
    Array
        A new array of shape ``(n_rows, n_cols)``.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.eye(2, 3, k=1)
    Array([[0., 1., 0.],
           [0., 0., 1.]])
    """
    func = "eye"
    check_device(func, device)
    dtype = check_dtype(func, dtype) or dt.default_float
    n_rows = _int_arg(func, "n_rows", n_rows)
    n_cols = n_rows if n_cols is None else _int_arg(func, "n_cols", n_cols)
    k = _int_arg(func, "k", k, allow_negative=True)
    out = Array._empty((n_rows, n_cols), dtype, zero=True)
    diag = out._with_layout(L.diagonal(out._layout, k, 0, 1))
    K.fill(diag, dt.pack_scalar(1, dtype, func))
    return out


def _int_arg(func: str, name: str, value: Any, allow_negative: bool = False) -> int:
    if type(value) is not int:
        value = number_arg(func, name, value, "int")
    if value < 0 and not allow_negative:
        raise value_error(func, f"{name} must be non-negative", value)
    return value


# ---- ranges ----------------------------------------------------------------------------

def _arange_narrow(start: float, step: float, n: int, dtype: dt.DType) -> Array:
    """NumPy's float16 arange, for every narrow float: the first two values
    rounded to dtype, their difference as the step, each value
    start + i * step in the compute dtype (float32), rounded."""
    first = dt.narrow_to_double(dt.pack_scalar(start, dtype, "arange"), dtype)
    second = dt.narrow_to_double(dt.pack_scalar(start + step, dtype, "arange"), dtype)
    f32 = dtype.compute
    delta = struct.unpack("f", dt.pack_scalar(second - first, f32, "arange"))[0]  # exact
    i = arange(n, dtype=f32)
    return dt.in_dtype(_add(_multiply(i, delta), first), dtype)


def arange(start: Union[int, float], /, stop: Optional[Union[int, float]] = None,
           step: Union[int, float] = 1, *, dtype: Optional[dt.DType] = None,
           device: Any = None) -> Array:
    """Evenly spaced values in ``[start, stop)`` with step ``step``.

    Integers give ``int64`` and any float ``float64`` unless ``dtype`` is given;
    0-d arrays and NumPy scalars are taken by their value.

    Parameters
    ----------
    start : int or float
        First value; with no ``stop``, the end of the interval that starts at 0.
    stop : int or float, optional
        End of the interval, excluded.
    step : int or float, optional
        Distance between two values; default 1, not 0.
    dtype : DType or Python type, optional
        Data type of the result; Python's bool, int, float and complex (and
        NumPy dtypes) are taken for arrstride's bool, int64, float64 and
        complex128.
    device : Device or str, optional
        Only the CPU (``Device('cpu')``, ``'cpu'`` or None) is accepted.

    Returns
    -------
    Array
        A new 1-D array of ``ceil((stop - start) / step)`` values.

    Raises
    ------
    ValueError
        If ``step`` is 0.

    See Also
    --------
    linspace

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.arange(5)
    Array([0, 1, 2, 3, 4])
    """
    func = "arange"
    check_device(func, device)
    dtype = check_dtype(func, dtype)
    if stop is None:
        start, stop = 0, start
    start = number_arg(func, "start", start, "real")
    stop = number_arg(func, "stop", stop, "real")
    step = number_arg(func, "step", step, "real")
    start, stop, step = (int(v) if isinstance(v, dt.builtins_bool) else v for v in (start, stop, step))
    if step == 0:
        raise value_error(func, "step must not be zero")
    all_int = all(isinstance(v, int) for v in (start, stop, step))
    if dtype is None:
        dtype = dt.default_int if all_int else dt.default_float
    if all_int:
        n = max(0, -((start - stop) // step))
    else:
        n = max(0, math.ceil((stop - start) / step))
    if dtype.kind in "iu" and n > 0:
        last = start + (n - 1) * step
        lo, hi = dt.int_range(dtype)
        if not (lo <= start <= hi and lo <= last <= hi):
            raise OverflowError(f"{func}: values from {start} to {last} do not fit {dtype}")
    if dt.is_narrow(dtype) and n > 1:
        return _arange_narrow(float(start), float(step), n, dtype)
    out = Array._empty((n,), dtype)
    if n:
        if all_int and dtype.kind in "iub":
            K.arange(out, 0.0, 0.0, int(start), int(step))
        else:
            K.arange(out, float(start), float(step), 0, 0)
    return out


def linspace(start: Union[int, float, complex], stop: Union[int, float, complex], /, num: int,
             *, dtype: Optional[dt.DType] = None, device: Any = None, endpoint: bool = True) -> Array:
    """Evenly spaced values from start to stop.

    Beyond the standard, an integer ``dtype`` computes in ``float64`` and rounds
    towards -inf, as NumPy.

    Parameters
    ----------
    start : int, float or complex
        First value.
    stop : int, float or complex
        Last value (included when ``endpoint`` is True).
    num : int
        Number of values, at least 0.
    dtype : DType or Python type, optional
        Data type of the result; default float64 (complex128 for complex ends).
    device : Device or str, optional
        Only the CPU (``Device('cpu')``, ``'cpu'`` or None) is accepted.
    endpoint : bool, optional
        Whether stop is the last value (True, the default) or excluded.

    Returns
    -------
    Array
        A new 1-D array of ``num`` values.

    See Also
    --------
    arange, logspace

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linspace(0.0, 1.0, 5)
    Array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    """
    func = "linspace"
    check_device(func, device)
    dtype = check_dtype(func, dtype)
    num = _int_arg(func, "num", num)
    start = number_arg(func, "start", start, "number")
    stop = number_arg(func, "stop", stop, "number")
    if not isinstance(endpoint, dt.builtins_bool):
        raise type_error(func, "endpoint must be a bool", repr(endpoint))
    is_complex = isinstance(start, complex) or isinstance(stop, complex)
    if dtype is None:
        dtype = dt.default_complex if is_complex else dt.default_float
    elif dtype.kind not in "fciu":
        raise type_error(func, "dtype must be a numeric dtype", dtype)
    elif is_complex and dtype.kind != "c":
        raise type_error(func, "complex start or stop needs a complex dtype", dtype)
    if dtype.kind in "iu":
        return _linspace_int(func, start, stop, num, dtype, endpoint)
    out = Array._empty((num,), dtype)
    if num:
        K.linspace(out, complex(start), complex(stop), bool(endpoint))
    return out


def _linspace_int(func: str, start: Any, stop: Any, num: int, dtype: dt.DType,
                  endpoint: bool) -> Array:
    """linspace with an integer dtype, as NumPy: computed in float64, then
    rounded towards -inf. start and stop must fit the dtype."""
    lo, hi = dt.int_range(dtype)
    for name, v in (("start", start), ("stop", stop)):
        if not lo <= math.floor(v) <= hi:
            raise OverflowError(f"{func}: {name} {v!r} does not fit {dtype}")
    tmp = Array._empty((num,), dt.float64)
    if num:
        K.linspace(tmp, complex(start), complex(stop), bool(endpoint))
    return dt.in_dtype(floor(tmp), dtype)


def logspace(start: Union[int, float, complex], stop: Union[int, float, complex], /,
             num: int = 50, *, endpoint: bool = True, base: Union[int, float] = 10.0,
             dtype: Optional[dt.DType] = None, device: Any = None) -> Array:
    """Values spaced evenly on a log scale, base ** linspace(start, stop, num).

    Not in the standard: NumPy's logspace.

    Parameters
    ----------
    start : int, float or complex
        Exponent of the first value.
    stop : int, float or complex
        Exponent of the last value.
    num : int, optional
        Number of values; default 50.
    endpoint : bool, optional
        Whether ``base ** stop`` is the last value (True, the default).
    base : int or float, optional
        Base of the powers; default 10.
    dtype : DType or Python type, optional
        Data type of the result; default float64 (complex128 for complex ends).
    device : Device or str, optional
        Only the CPU (``Device('cpu')``, ``'cpu'`` or None) is accepted.

    Returns
    -------
    Array
        A new 1-D array of ``num`` values.

    See Also
    --------
    linspace

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.logspace(0, 2, 3)
    Array([  1.,  10., 100.])
    >>> xp.logspace(0, 3, 4, base=2.0)
    Array([1., 2., 4., 8.])
    """
    func = "logspace"
    check_device(func, device)
    dtype = check_dtype(func, dtype)
    base = number_arg(func, "base", base, "number")
    is_complex = isinstance(number_arg(func, "start", start, "number"), complex) or \
        isinstance(number_arg(func, "stop", stop, "number"), complex) or isinstance(base, complex)
    exps = linspace(start, stop, num, endpoint=endpoint,
                    dtype=dt.default_complex if is_complex else dt.default_float)
    out = _pow(base, exps)
    return out if dtype is None else dt.in_dtype(out, dtype)


def diag(x: Array, /, k: int = 0) -> Array:
    """Diagonal of a matrix, or a matrix with a vector on its diagonal (NumPy's diag).

    Not in the standard.

    Parameters
    ----------
    x : Array
        A 1-D or 2-D array.
    k : int, optional
        Diagonal: 0 (the default) the main one, positive above it, negative
        below it.

    Returns
    -------
    Array
        Of a 1-D x, a new 2-D array with x on diagonal k and zeros elsewhere; of a
        2-D x, its diagonal k as a read-only view.

    Raises
    ------
    ValueError
        If x is neither 1-D nor 2-D.

    See Also
    --------
    diagonal, linalg.diagonal

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.diag(xp.asarray([1, 2]))
    Array([[1, 0],
           [0, 2]])
    >>> xp.diag(xp.reshape(xp.arange(9), (3, 3)), k=1)
    Array([1, 5])
    """
    func = "diag"
    x = check_array(func, x)
    k = _int_arg(func, "k", k, allow_negative=True)
    if x.ndim == 1:
        m = x.shape[0]
        n = m + abs(k)
        out = Array._empty((n, n), x.dtype, zero=True, func=func)
        if m:
            diagonal = out._with_layout(L.Layout((m,), (n + 1,), k if k >= 0 else -k * n))
            K.copy_into(diagonal, x)
        return out
    if x.ndim == 2:
        rows, cols = x.shape
        if (k >= 0 and k >= cols) or (k < 0 and -k >= rows):
            lay = L.Layout((0,), (1,), x._layout.offset)
        else:
            lay = L.diagonal(x._layout, k, 0, 1)
        st = x._storage
        if not st.readonly:
            st = st.readonly_alias("a view made by diag (NumPy's diagonal views are read-only)")
        return Array._new(st, lay, x.dtype)
    raise value_error(func, "x must be 1-D or 2-D", f"shape {x.shape}")


def meshgrid(*arrays: Array, indexing: str = "xy") -> Tuple[Array, ...]:
    """Coordinate arrays from 1-D coordinate vectors.

    Parameters
    ----------
    *arrays : Array
        1-D arrays of one dtype, one per dimension.
    indexing : str, optional
        ``'xy'`` (the default, Cartesian: the first two dimensions swapped) or
        ``'ij'`` (matrix indexing).

    Returns
    -------
    tuple of Array
        One new contiguous array per input, each of the grid's shape.

    Raises
    ------
    ValueError
        If indexing is neither ``'xy'`` nor ``'ij'``, or an array is not 1-D.

    Examples
    --------
    >>> import arrstride as xp
    >>> X, Y = xp.meshgrid(xp.asarray([1, 2, 3]), xp.asarray([10, 20]))
    >>> X
    Array([[1, 2, 3],
           [1, 2, 3]])
    >>> Y
    Array([[10, 10, 10],
           [20, 20, 20]])
    """
    func = "meshgrid"
    if indexing not in ("xy", "ij"):
        raise value_error(func, "indexing must be 'xy' or 'ij'", repr(indexing))
    arrays = tuple(check_array(func, a, "every input") for a in arrays)
    for a in arrays:
        if a.ndim != 1:
            raise value_error(func, "every input must be 1-D", f"shape {a.shape}")
    if len({a.dtype for a in arrays}) > 1:
        raise type_error(func, "every input must have the same dtype",
                         ", ".join(str(a.dtype) for a in arrays))
    shape = [a.shape[0] for a in arrays]
    if indexing == "xy" and len(arrays) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for k, a in enumerate(arrays):
        axis = k
        if indexing == "xy" and len(arrays) >= 2 and k < 2:
            axis = 1 - k
        lay = L.Layout(tuple(shape), tuple(a.strides[0] if d == axis else 0 for d in range(len(shape))),
                       a.offset)
        out.append(a._with_layout(lay)._copy_contiguous())
    return tuple(out)


def _tri(func: str, x: Array, k: int, lower: bool) -> Array:
    x = check_array(func, x)
    if x.ndim < 2:
        raise value_error(func, "x must have at least 2 dimensions", f"shape {x.shape}")
    k = _int_arg(func, "k", k, allow_negative=True)
    k = max(min(k, 1 << 62), -(1 << 62))  # beyond any dim: the same result, and fits C
    out = x._copy_contiguous()
    K.tri_zero(out, k, lower)
    return out


def tril(x: Array, /, *, k: int = 0) -> Array:
    """Lower triangle of each matrix of x.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions; the last two hold the matrices.
    k : int, optional
        Diagonal above which elements are set to zero: 0 (the default) the main
        diagonal, positive above it, negative below it.

    Returns
    -------
    Array
        A new array of x's shape and dtype.

    See Also
    --------
    triu

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.tril(xp.ones((3, 3), dtype=xp.int64))
    Array([[1, 0, 0],
           [1, 1, 0],
           [1, 1, 1]])
    >>> xp.tril(xp.ones((3, 3), dtype=xp.int64), k=-1)
    Array([[0, 0, 0],
           [1, 0, 0],
           [1, 1, 0]])
    """
    return _tri("tril", x, k, lower=True)


def triu(x: Array, /, *, k: int = 0) -> Array:
    """Upper triangle of each matrix of x.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions; the last two hold the matrices.
    k : int, optional
        Diagonal below which elements are set to zero: 0 (the default) the main
        diagonal, positive above it, negative below it.

    Returns
    -------
    Array
        A new array of x's shape and dtype.

    See Also
    --------
    tril

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.triu(xp.reshape(xp.arange(1, 10), (3, 3)))
    Array([[1, 2, 3],
           [0, 5, 6],
           [0, 0, 9]])
    """
    return _tri("triu", x, k, lower=False)
