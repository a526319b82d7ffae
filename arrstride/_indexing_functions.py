"""Indexing functions: take and take_along_axis (one gather kernel in C).
Results are new arrays; negative indices wrap once, others out of range
raise IndexError."""
from __future__ import annotations

from typing import Optional

from . import _dtypes as dt
from . import _kernels as K
from ._args import normalize_axis
from ._array import Array, check_array
from ._core import take as _core_take
from ._creation_functions import asarray, number_arg
from ._statistical_functions import max as _max
from ._statistical_functions import min as _min
from ._errors import broadcast_error, dtype_error, index_bounds_error, index_error, value_error


def _indices(func: str, indices: Array) -> Array:
    indices = check_array(func, indices, "indices")
    if indices.dtype.kind not in "iu":
        raise dtype_error(func, "integer", indices.dtype)
    return as_int64_indices(func, indices)


def as_int64_indices(func: str, idx: Array, axis: int = 0) -> Array:
    """Integer indices as int64; a uint64 index past int64 is out of bounds for
    any axis (a plain cast would wrap it to a negative index)."""
    if idx.dtype is dt.uint64 and idx.size:
        top = int(_max(idx))
        if top > (1 << 63) - 1:
            raise index_bounds_error(func, top, axis, "at most 2**63 - 1")
    return dt.in_dtype(idx, dt.int64)


def _gather(func: str, x: Array, out: Array, idx_strides, idx: Array, src_strides, ax: int,
            named_axis: int) -> Array:
    if out.size == 0:
        # nothing is read, but an index out of range is still an error (as NumPy)
        if idx.size:
            n = x.shape[ax]
            lo, hi = int(_min(idx)), int(_max(idx))
            if hi >= n or lo < -n:
                raise index_bounds_error(func, hi if hi >= n else lo, named_axis, n)
        return out
    K.check_size(func, x)
    n = x.shape[ax]
    bad = K.take(out, idx_strides, idx, src_strides, x, n, x.strides[ax])
    if bad is not None:
        raise index_bounds_error(func, bad, named_axis, n)
    return out


def take(x: Array, indices: Array, /, *, axis: Optional[int] = None) -> Array:
    """Elements of x at the given indices along an axis.

    Beyond the standard, as NumPy: indices may have any number of dimensions,
    which replace the axis, and a Python int removes the axis.

    Parameters
    ----------
    x : Array
        Input array.
    indices : Array or int
        Integer indices along axis (negative count from the end).
    axis : int, optional
        Axis to take along; may be None (the default) only for a 1-D x.

    Returns
    -------
    Array
        A new array of x's dtype.

    Raises
    ------
    IndexError
        If an index is out of range.
    ValueError
        If axis is None and x is not 1-D.

    See Also
    --------
    take_along_axis

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.take(xp.asarray([10, 20, 30]), xp.asarray([2, 0]))
    Array([30, 10])
    """
    out = _core_take(x, indices, axis)  # along axis 0, dense operands, indices in range: in C
    if out is not None:
        return out
    func = "take"
    x = check_array(func, x)
    if not isinstance(indices, Array):  # an int drops the axis, as in NumPy (Cubed relies on it)
        try:
            indices = asarray(number_arg(func, "indices", indices, "int"))
        except TypeError:  # NumPy arrays as every function takes them; lists refused
            indices = check_array(func, indices, "indices")
    idx = _indices(func, indices)
    if axis is None:
        if x.ndim != 1:
            raise value_error(func, "axis is required unless x is one-dimensional", f"shape {x.shape}")
        axis = 0
    ax = normalize_axis(func, axis, x.ndim)
    return take_axis(func, x, idx, ax, ax)


def take_axis(func: str, x: Array, idx: Array, ax: int, named_axis: int) -> Array:
    """x[..., idx, ...] with the int64 array idx on dim ax (its dims replace
    it); also x[int array] in __getitem__. named_axis: the dim messages name."""
    ni = idx.ndim
    shape = x.shape[:ax] + idx.shape + x.shape[ax + 1:]
    idx_strides = (0,) * ax + idx.strides + (0,) * (x.ndim - ax - 1)
    src_strides = x.strides[:ax] + (0,) * ni + x.strides[ax + 1:]
    out = Array._empty(shape, x.dtype)
    if x.shape[ax] == 0 and idx.size:
        raise index_error(func, f"cannot take from the empty axis {named_axis}")
    return _gather(func, x, out, idx_strides, idx, src_strides, ax, named_axis)


def take_along_axis(x: Array, indices: Array, /, *, axis: int = -1) -> Array:
    """Elements of x picked along an axis by an array of indices.

    ``out[..., j, ...] = x[..., indices[..., j, ...], ...]`` along axis; the other
    axes of x and indices broadcast.

    Parameters
    ----------
    x : Array
        Input array.
    indices : Array
        Integer indices, of x's number of dimensions (as argsort gives).
    axis : int, optional
        Axis to pick along; default -1.

    Returns
    -------
    Array
        A new array of x's dtype and the broadcast shape.

    Raises
    ------
    IndexError
        If an index is out of range.

    See Also
    --------
    take, argsort

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([[3, 1, 2], [9, 7, 8]])
    >>> xp.take_along_axis(x, xp.argsort(x, axis=1), axis=1)
    Array([[1, 2, 3],
           [7, 8, 9]])
    >>> xp.take_along_axis(x, xp.asarray([[0], [2]]), axis=1)
    Array([[3],
           [8]])
    """
    func = "take_along_axis"
    x = check_array(func, x)
    idx = _indices(func, indices)
    if x.ndim == 0 or idx.ndim != x.ndim:
        raise value_error(func, "x and indices must have the same number (>= 1) of dimensions",
                          f"shapes {x.shape} and {idx.shape}")
    ax = normalize_axis(func, axis, x.ndim)
    shape = []
    for k, (a, b) in enumerate(zip(x.shape, idx.shape)):
        if k == ax:
            shape.append(b)
        elif a == b or b == 1:
            shape.append(a)
        elif a == 1:
            shape.append(b)
        else:
            raise broadcast_error(func, x.shape, idx.shape, what="x and indices",
                                  skip=(ax - x.ndim,))
    idx_strides = tuple(0 if (k != ax and b == 1) else s
                        for k, (b, s) in enumerate(zip(idx.shape, idx.strides)))
    src_strides = tuple(0 if (k == ax or a == 1) else s
                        for k, (a, s) in enumerate(zip(x.shape, x.strides)))
    out = Array._empty(tuple(shape), x.dtype)
    if x.shape[ax] == 0 and out.size:
        raise index_error(func, f"cannot take from the empty axis {ax}")
    return _gather(func, x, out, idx_strides, idx, src_strides, ax, ax)
