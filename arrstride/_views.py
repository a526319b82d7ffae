"""The view toolbox beyond the standard: as_strided, narrow, expand, diagonal
and unfold. Each returns a view over the same storage."""
from __future__ import annotations

import operator
from typing import Sequence, Tuple

from . import _layout as L
from ._args import check_dims, normalize_axis
from ._array import Array, check_array
from ._errors import broadcast_into_error, type_error, value_error


def _ints(func: str, name: str, values) -> Tuple[int, ...]:
    try:
        return tuple(operator.index(v) for v in values)
    except TypeError:
        raise type_error(func, f"{name} must be a sequence of ints", repr(values)) from None


def as_strided(x: Array, shape: Sequence[int], strides: Sequence[int], offset: int = 0) -> Array:
    """A view of x's storage with any shape, strides and offset.

    Not in the standard (NumPy's and PyTorch's as_strided). Units are elements,
    not bytes; strides may be negative or 0. Every element the view reaches must
    lie inside x's storage, which is checked.

    Parameters
    ----------
    x : Array
        Array whose storage the view reads.
    shape : sequence of int
        Shape of the view.
    strides : sequence of int
        Stride of each axis, in elements.
    offset : int, optional
        Position of the view's first element in the storage, in elements;
        default 0.

    Returns
    -------
    Array
        A view of x's storage; writes through a view whose indices overlap (a
        stride 0, overlapping windows) are refused.

    Raises
    ------
    ValueError
        If the view reaches outside the storage, or shape and strides differ in
        length.

    See Also
    --------
    expand, unfold, lib.stride_tricks.sliding_window_view

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.arange(6)
    >>> xp.as_strided(x, (3, 3), (1, 1))
    Array([[0, 1, 2],
           [1, 2, 3],
           [2, 3, 4]])
    >>> xp.as_strided(x, (2,), (-2,), offset=5)
    Array([5, 3])
    """
    func = "as_strided"
    x = check_array(func, x)
    shape = _ints(func, "shape", shape)
    strides = _ints(func, "strides", strides)
    offset = operator.index(offset)
    if len(shape) != len(strides):
        raise value_error(func, "shape and strides must have the same length",
                          f"shape {shape} and strides {strides}")
    if any(d < 0 for d in shape):
        raise value_error(func, "negative dimensions are not allowed", f"shape {shape}")
    lay = L.Layout(shape, strides, offset)
    nelem = x.storage.nbytes // x.dtype.itemsize
    lo, hi = L.extent(lay)
    if not 0 <= offset <= nelem:  # even for an empty view: C forms a pointer from it
        raise value_error(func, f"the offset must lie within the storage of {nelem} elements",
                          f"offset {offset}")
    if lay.size and (lo < 0 or hi >= nelem):
        raise value_error(func, f"the view reaches elements {lo} to {hi}, outside the storage of "
                                f"{nelem} elements ({x.storage.nbytes} bytes)",
                          f"shape {shape}, strides {strides}, offset {offset}")
    return x._with_layout(lay)


def narrow(x: Array, axis: int, start: int, length: int) -> Array:
    """A slice of x along one axis (PyTorch's narrow).

    Not in the standard: ``x[..., start:start + length, ...]`` along axis.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int
        Axis to slice.
    start : int
        First index kept (negative counts from the end).
    length : int
        Number of indices kept.

    Returns
    -------
    Array
        A view of x.

    Raises
    ------
    ValueError
        If the slice does not fit in the axis.

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.reshape(xp.arange(8), (2, 4))
    >>> xp.narrow(x, 1, 1, 2)
    Array([[1, 2],
           [5, 6]])
    >>> xp.narrow(x, 1, 1, 2).offset
    1
    """
    func = "narrow"
    x = check_array(func, x)
    a = normalize_axis(func, axis, x.ndim)
    n = x.shape[a]
    start, length = operator.index(start), operator.index(length)
    if start < 0:
        start += n
    if not (0 <= start <= n and 0 <= length and start + length <= n):
        raise value_error(func, f"start {start} and length {length} must lie within axis {a} of size {n}")
    return x._with_layout(L.narrow(x._layout, a, start, length))


def expand(x: Array, shape: Sequence[int]) -> Array:
    """A view of x broadcast to a shape by stride 0 (PyTorch's expand).

    Not in the standard; like broadcast_to, with -1 keeping an axis' size.

    Parameters
    ----------
    x : Array
        Array to broadcast.
    shape : sequence of int
        Target shape; -1 keeps the size of the matching axis of x.

    Returns
    -------
    Array
        A read-only view of x's memory.

    Raises
    ------
    ValueError
        If x's shape is not broadcast-compatible with shape.

    See Also
    --------
    broadcast_to

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([[1], [2]])
    >>> xp.expand(x, (-1, 3))
    Array([[1, 1, 1],
           [2, 2, 2]])
    >>> xp.expand(x, (-1, 3)).strides
    (1, 0)
    """
    func = "expand"
    x = check_array(func, x)
    shape = _ints(func, "shape", shape)
    extra = len(shape) - x.ndim
    if extra < 0:
        raise broadcast_into_error(func, x.shape, shape, "x")
    shape = tuple(x.shape[k - extra] if d == -1 and k >= extra else d for k, d in enumerate(shape))
    if any(d < 0 for d in shape):
        raise broadcast_into_error(func, x.shape, shape, "x")
    lay = L.expand(x._layout, check_dims(func, shape))
    if lay is None:
        raise broadcast_into_error(func, x.shape, shape, "x")
    return x._with_layout(lay)


def diagonal(x: Array, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
    """A diagonal of x over two axes, as a view.

    Not in the standard (NumPy's diagonal); linalg.diagonal takes the last two
    axes.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions.
    offset : int, optional
        Diagonal: 0 (the default) the main one, positive above it, negative
        below it.
    axis1 : int, optional
        First axis of the matrices; default 0.
    axis2 : int, optional
        Second axis of the matrices; default 1.

    Returns
    -------
    Array
        A view of x: its other axes, then the diagonal as the last one.

    Raises
    ------
    ValueError
        If axis1 and axis2 are the same axis.

    See Also
    --------
    linalg.diagonal

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.reshape(xp.arange(9), (3, 3))
    >>> xp.diagonal(x)
    Array([0, 4, 8])
    >>> xp.diagonal(x, 1)
    Array([1, 5])
    >>> xp.diagonal(x).strides
    (4,)
    """
    func = "diagonal"
    x = check_array(func, x)
    if x.ndim < 2:
        raise value_error(func, "x must have at least 2 dimensions", f"shape {x.shape}")
    a1 = normalize_axis(func, axis1, x.ndim)
    a2 = normalize_axis(func, axis2, x.ndim)
    if a1 == a2:
        raise value_error(func, "axis1 and axis2 must differ", f"both {a1}")
    return x._with_layout(L.diagonal(x._layout, operator.index(offset), a1, a2))


def unfold(x: Array, axis: int, size: int, step: int) -> Array:
    """Sliding windows along an axis, as a view (PyTorch's unfold).

    Not in the standard. The windows may overlap; such a view refuses writes.

    Parameters
    ----------
    x : Array
        Input array.
    axis : int
        Axis to slide along.
    size : int
        Length of each window.
    step : int
        Distance between the starts of two windows, at least 1.

    Returns
    -------
    Array
        A view of x: axis becomes the number of windows, and a new last axis of
        length size holds each window.

    Raises
    ------
    ValueError
        If size is larger than the axis or step is not positive.

    See Also
    --------
    lib.stride_tricks.sliding_window_view, as_strided

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.unfold(xp.arange(5), 0, 3, 1)
    Array([[0, 1, 2],
           [1, 2, 3],
           [2, 3, 4]])
    >>> xp.unfold(xp.arange(6), 0, 2, 2).strides
    (2, 1)
    """
    func = "unfold"
    x = check_array(func, x)
    a = normalize_axis(func, axis, x.ndim) if x.ndim else 0
    n = x.shape[a] if x.ndim else 1
    size, step = operator.index(size), operator.index(step)
    if step <= 0:
        raise value_error(func, "step must be positive", step)
    if not 0 <= size <= n:
        raise value_error(func, f"size must lie in [0, {n}] for axis {a}", size)
    if x.ndim == 0:
        return x._with_layout(L.Layout((size,), (1,), x.offset))
    return x._with_layout(L.unfold(x._layout, a, size, step))
