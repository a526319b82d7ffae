"""Searching functions: argmax, argmin, count_nonzero, nonzero, searchsorted;
beyond the standard nanargmax, nanargmin and top_k (the standard's draft).
(`where` is with the elementwise functions.) Results are new arrays."""
from __future__ import annotations

from typing import Literal, Optional, Tuple, Union

from . import _dtypes as dt
from . import _kernels as K
from . import _layout as L
from ._args import check_keepdims, normalize_axes, normalize_axis
from ._array import FOREIGN, Array, check_array
from ._core import arg as _core_arg
from ._core import searchsorted as _core_searchsorted
from ._creation_functions import arange, asarray, number_arg
from ._elementwise_functions import isnan, remainder, true_coordinates, where
from ._errors import dtype_error, not_array_error, value_error
from ._indexing_functions import take, take_along_axis
from ._native import lib
from ._sorting_functions import argsort
from ._statistical_functions import reduce_axes
from ._utility_functions import all as all_
from ._utility_functions import any as any_

Axis = Optional[Union[int, Tuple[int, ...]]]


def flat_view(x: Array) -> Array:
    """x as 1-D: a view when strides allow, else a contiguous copy."""
    strides = L.view_strides(x._layout, (x.size,))
    if strides is not None:
        return x._with_layout(L.Layout((x.size,), strides, x._layout.offset))
    return x._copy_contiguous()._with_layout(L.contiguous((x.size,)))


def _arg(func: str, op: int, x: Array, axis: Optional[int], keepdims: bool) -> Array:
    out = _core_arg(op, x, axis, keepdims)  # over all or one axis, nonempty lanes: in C
    if out is not None:
        return out
    x = check_array(func, x)
    check_keepdims(func, keepdims)
    if x.dtype.kind == "c":
        raise dtype_error(func, "real-valued", x.dtype)
    K.check_size(func, x)
    if axis is None:
        flat = flat_view(x)
        if flat.size == 0:
            raise value_error(func, "attempt to get the position in an empty array")
        out = Array._empty((), dt.int64)
        K.lane(op, flat, out, 0, None, func=func)
        if keepdims:
            out = out._with_layout(L.Layout((1,) * x.ndim, (0,) * x.ndim, 0))
        return out
    ax = normalize_axis(func, axis, x.ndim)
    if x.shape[ax] == 0:
        raise value_error(func, f"attempt to get the position along an empty axis {ax}",
                          f"shape {x.shape}")
    shape = tuple(d for k, d in enumerate(x.shape) if k != ax)
    out = Array._empty(shape, dt.int64, func=func)
    if out.size:
        K.lane(op, x, out, ax, None, func=func)
    if keepdims:
        out = out._with_layout(L.insert_dims(out._layout, [ax]))
    return out


def argmax(x: Array, /, axis: Optional[int] = None, *, keepdims: bool = False) -> Array:
    """Index of the first maximum along an axis.

    NaN counts as the maximum: the first NaN's index, when there is one.

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype. NumPy arrays are accepted too.
    axis : int, optional
        Axis to search along; None (the default) searches the flattened array.
        Beyond the standard, it may be given by position, as in NumPy.
    keepdims : bool, optional
        If True, the searched axis stays in the result with size 1. Default
        False.

    Returns
    -------
    Array
        A new int64 array of the indices: x's shape without axis (a 0-d array
        when axis is None).

    Raises
    ------
    ValueError
        If the axis searched is empty.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.argmax(xp.asarray([[1, 5], [7, 2]]), axis=1)
    Array([1, 0])
    """
    return _arg("argmax", lib.ARS_LANE_ARGMAX, x, axis, keepdims)


def argmin(x: Array, /, axis: Optional[int] = None, *, keepdims: bool = False) -> Array:
    """Index of the first minimum along an axis.

    NaN counts as the minimum: the first NaN's index, when there is one.

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype. NumPy arrays are accepted too.
    axis : int, optional
        Axis to search along; None (the default) searches the flattened array.
        Beyond the standard, it may be given by position, as in NumPy.
    keepdims : bool, optional
        If True, the searched axis stays in the result with size 1. Default
        False.

    Returns
    -------
    Array
        A new int64 array of the indices: x's shape without axis (a 0-d array
        when axis is None).

    Raises
    ------
    ValueError
        If the axis searched is empty.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.argmin(xp.asarray([3, 1, 2, 1]))
    Array(1)
    >>> xp.argmin(xp.asarray([[4, 2], [1, 3]]), axis=0)
    Array([1, 0])
    """
    return _arg("argmin", lib.ARS_LANE_ARGMIN, x, axis, keepdims)


def count_nonzero(x: Array, /, axis: Axis = None, *, keepdims: bool = False) -> Array:
    """Number of non-zero elements over the given axes.

    Parameters
    ----------
    x : Array
        Input array; NaN counts as non-zero.
    axis : int or tuple of int, optional
        Axis or axes to count over; None (the default) counts every element.
    keepdims : bool, optional
        If True, the searched axis stays in the result with size 1. Default
        False.

    Returns
    -------
    Array
        A new int64 array of the counts.

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([[0, 1], [2, 0], [3, 4]])
    >>> xp.count_nonzero(x)
    Array(4)
    >>> xp.count_nonzero(x, axis=0)
    Array([2, 2])
    """
    func = "count_nonzero"
    x = check_array(func, x)
    check_keepdims(func, keepdims)
    axes = normalize_axes(func, axis, x.ndim)
    return reduce_axes(x, axes, lib.ARS_RED_COUNT, dt.int64, keepdims, dt.int64, func)


def nonzero(x: Array, /) -> Tuple[Array, ...]:
    """Indices of the non-zero elements, one array per axis.

    Parameters
    ----------
    x : Array
        Input array of at least 1 dimension.

    Returns
    -------
    tuple of Array
        One new int64 array per axis of x, the indices in C order; ``x[out]``
        selects the non-zero elements.

    Raises
    ------
    ValueError
        If x is 0-d (as NumPy 2; the standard leaves it unspecified).

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.nonzero(xp.asarray([0, 3, 0, 4]))
    (Array([1, 3]),)
    """
    return true_coordinates("nonzero", check_array("nonzero", x))


def searchsorted(x1: Array, x2: Union[Array, int, float], /, *,
                 side: Literal["left", "right"] = "left", sorter: Optional[Array] = None) -> Array:
    """Insertion points of x2 into the sorted 1-D array x1.

    NaNs sort last, and -0.0 equals 0.0.

    Parameters
    ----------
    x1 : Array
        1-D array sorted ascending (or put in order by sorter).
    x2 : Array, int or float
        Values to insert, of any shape.
    side : {'left', 'right'}, optional
        For values equal to elements of x1: 'left' (the default) gives the
        first suitable index, 'right' the last.
    sorter : Array, optional
        Integer indices that sort x1 (as argsort gives), when x1 is not sorted.

    Returns
    -------
    Array
        A new int64 array of x2's shape.

    Raises
    ------
    ValueError
        If x1 is not 1-D or side is not 'left' or 'right'.

    Examples
    --------
    >>> import arrstride as xp
    >>> x1 = xp.asarray([1, 3, 5])
    >>> xp.searchsorted(x1, xp.asarray([0, 3, 6]))
    Array([0, 1, 3])
    >>> xp.searchsorted(x1, xp.asarray([0, 3, 6]), side="right")
    Array([0, 2, 3])
    """
    out = _core_searchsorted(x1, x2, side, sorter)  # one dtype, no sorter: in C
    if out is not None:
        return out
    func = "searchsorted"
    x1 = check_array(func, x1, "x1")
    if x1.ndim != 1:
        raise value_error(func, "x1 must be one-dimensional", f"shape {x1.shape}")
    if side not in ("left", "right"):
        raise value_error(func, "side must be 'left' or 'right'", repr(side))
    if not isinstance(x2, (Array, dt.builtins_bool, int, float, complex)) and FOREIGN[1] is not None:
        converted = FOREIGN[1](x2)  # NumPy data, as the operators take it
        x2 = x2 if converted is None else converted
    if isinstance(x2, Array):
        common = dt.promote(x1.dtype, x2.dtype)
    elif isinstance(x2, (dt.builtins_bool, int, float, complex)):
        common = dt.scalar_result(x1.dtype, x2, func)
        x2 = asarray(x2, dtype=common)
    else:
        raise not_array_error(func, x2, "x2", scalars=True)
    if common.kind == "c":
        raise dtype_error(func, "real-valued", common)
    if sorter is not None:
        sorter = check_array(func, sorter, "sorter")
        if sorter.dtype.kind not in "iu":
            raise dtype_error(func, "integer", sorter.dtype)
        x1 = take(x1, sorter)
    if dt.is_narrow(common) and not all(_exact_in(a.dtype, common) for a in (x1, x2)):
        common = common.compute  # compared as float32 values (exact)
    x1 = dt.in_dtype(x1, common)
    x2 = dt.in_dtype(x2, common)
    out = Array._empty(x2.shape, dt.int64)
    if out.size:
        K.searchsorted(x1, x2, out, side == "right")
    return out


def _exact_in(d: dt.DType, narrow: dt.DType) -> bool:
    """Whether every value of d is one of the narrow dtype's (its cast exact)."""
    return d is narrow or d in (dt.bool, dt.int8, dt.uint8)


class TopK(tuple):
    """(values, indices), as the namedtuple the standard's draft describes."""

    __slots__ = ()

    def __new__(cls, values: Array, indices: Array):
        return tuple.__new__(cls, (values, indices))

    @property
    def values(self) -> Array:
        return self[0]

    @property
    def indices(self) -> Array:
        return self[1]


def top_k(x: Array, k: int, /, *, axis: Optional[int] = -1, mode: str = "largest") -> TopK:
    """The k largest (or smallest) elements along an axis, and their indices.

    From the standard's draft. Equal elements come lowest index first; NaNs come
    after every number in either mode, as in numpy.top_k.

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype.
    k : int
        Number of elements to return, at most the axis' size.
    axis : int, optional
        Axis to search along; default -1. None searches the flattened array.
    mode : {'largest', 'smallest'}, optional
        Which elements: the largest (the default) or the smallest.

    Returns
    -------
    TopK
        Named tuple (values, indices), in order along axis (largest first for
        'largest'); indices are int64.

    Raises
    ------
    ValueError
        If k is out of range or mode is unknown.

    Examples
    --------
    >>> import arrstride as xp
    >>> values, indices = xp.top_k(xp.asarray([3, 1, 4, 1, 5]), 2)
    >>> values
    Array([5, 4])
    >>> indices
    Array([4, 2])
    >>> xp.top_k(xp.asarray([3, 1, 4, 1, 5]), 2, mode="smallest").values
    Array([1, 1])
    """
    func = "top_k"
    x = check_array(func, x)
    if x.dtype.kind == "c":
        raise dtype_error(func, "real-valued", x.dtype)
    if mode not in ("largest", "smallest"):
        raise value_error(func, "mode must be 'largest' or 'smallest'", repr(mode))
    k = number_arg(func, "k", k, "int")
    if axis is None:
        x = flat_view(x)
        ax = 0
    else:
        if x.ndim == 0:
            raise value_error(func, "x must have at least one dimension (or pass axis=None)")
        ax = normalize_axis(func, axis, x.ndim)
    n = x.shape[ax]
    if not 0 <= k <= n:
        raise value_error(func, f"k must be in [0, {n}] (the size of axis {ax})", k)
    order = argsort(x, axis=ax, descending=mode == "largest")
    if mode == "largest" and x.dtype.kind == "f" and n:
        # a descending sort puts NaNs first: rotate each lane by its NaN count
        nans = count_nonzero(isnan(x), axis=ax, keepdims=True)
        pos = arange(k)._with_layout(L.Layout(tuple(k if d == ax else 1 for d in range(x.ndim)),
                                              tuple(1 if d == ax else 0 for d in range(x.ndim)), 0))
        order = take_along_axis(order, remainder(pos + nans, n), axis=ax)
    else:
        order = order[(slice(None),) * ax + (slice(0, k),)]
    return TopK(take_along_axis(x, order, axis=ax), order)


def _nan_arg(func: str, op: int, fill: float, x: Array, axis: Optional[int], keepdims: bool) -> Array:
    """argmin/argmax with NaNs replaced by the value that never wins (NumPy's way)."""
    x = check_array(func, x)
    check_keepdims(func, keepdims)
    if x.dtype.kind == "f" and x.size:
        nan = isnan(x)
        lanes = all_(nan) if axis is None else all_(nan, axis=normalize_axis(func, axis, x.ndim))
        if bool(any_(lanes)):
            raise value_error(func, "All-NaN slice encountered")
        x = where(nan, fill, x)
    return _arg(func, op, x, axis, keepdims)


def nanargmax(x: Array, /, axis: Optional[int] = None, *, keepdims: bool = False) -> Array:
    """Index of the first maximum along an axis, ignoring NaNs.

    Not in the standard: NumPy's nanargmax.

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype. NumPy arrays are accepted too.
    axis : int, optional
        Axis to search along; None (the default) searches the flattened array.
        Beyond the standard, it may be given by position, as in NumPy.
    keepdims : bool, optional
        If True, the searched axis stays in the result with size 1. Default
        False.

    Returns
    -------
    Array
        A new int64 array of the indices: x's shape without axis (a 0-d array
        when axis is None).

    Raises
    ------
    ValueError
        If the axis searched is empty, or a lane holds only NaN.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.nanargmax(xp.asarray([1.0, xp.nan, 3.0, 2.0]))
    Array(2)
    """
    return _nan_arg("nanargmax", lib.ARS_LANE_ARGMAX, float("-inf"), x, axis, keepdims)


def nanargmin(x: Array, /, axis: Optional[int] = None, *, keepdims: bool = False) -> Array:
    """Index of the first minimum along an axis, ignoring NaNs.

    Not in the standard: NumPy's nanargmin.

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype. NumPy arrays are accepted too.
    axis : int, optional
        Axis to search along; None (the default) searches the flattened array.
        Beyond the standard, it may be given by position, as in NumPy.
    keepdims : bool, optional
        If True, the searched axis stays in the result with size 1. Default
        False.

    Returns
    -------
    Array
        A new int64 array of the indices: x's shape without axis (a 0-d array
        when axis is None).

    Raises
    ------
    ValueError
        If the axis searched is empty, or a lane holds only NaN.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.nanargmin(xp.asarray([2.0, xp.nan, 1.0, 3.0]))
    Array(2)
    """
    return _nan_arg("nanargmin", lib.ARS_LANE_ARGMIN, float("inf"), x, axis, keepdims)
