"""Utility functions: all, any, diff (computed in C; results are new arrays)."""
from __future__ import annotations

from typing import Optional, Tuple, Union

from . import _dtypes as dt
from . import _kernels as K
from ._args import check_keepdims, int_arg, normalize_axes, normalize_axis
from ._array import Array, check_array
from ._errors import value_error
from ._manipulation_functions import concat
from ._native import lib
from ._statistical_functions import reduce_all, reduce_axes

Axis = Optional[Union[int, Tuple[int, ...]]]


def _truth(func: str, op: int, x: Array, axis: Axis, keepdims: bool) -> Array:
    x = check_array(func, x)
    if axis is None and keepdims is False:
        return reduce_all(x, op, dt.bool, func)  # the per-call path: one C call for a dense x
    check_keepdims(func, keepdims)
    axes = normalize_axes(func, axis, x.ndim)
    return reduce_axes(x, axes, op, dt.bool, keepdims, dt.bool, func)


def all(x: Array, /, axis: Axis = None, *, keepdims: bool = False) -> Array:
    """Whether every element is true (non-zero) over the given axes.

    Parameters
    ----------
    x : Array
        Input array of any dtype; NaN counts as true. NumPy arrays are accepted
        too.
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1. Default False.

    Returns
    -------
    Array
        A new bool array of the reduced shape; True over zero elements.

    See Also
    --------
    any

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([[True, False], [True, True]])
    >>> xp.all(x)
    Array(False)
    >>> xp.all(x, axis=1)
    Array([False,  True])
    """
    return _truth("all", lib.ARS_RED_ALL, x, axis, keepdims)


def any(x: Array, /, axis: Axis = None, *, keepdims: bool = False) -> Array:
    """Whether some element is true (non-zero) over the given axes.

    Parameters
    ----------
    x : Array
        Input array of any dtype; NaN counts as true. NumPy arrays are accepted
        too.
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1. Default False.

    Returns
    -------
    Array
        A new bool array of the reduced shape; False over zero elements.

    See Also
    --------
    all

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([[0, 0], [0, 3]])
    >>> xp.any(x)
    Array(True)
    >>> xp.any(x, axis=1)
    Array([False,  True])
    """
    return _truth("any", lib.ARS_RED_ANY, x, axis, keepdims)


def diff(x: Array, /, n: int = 1, axis: int = -1, *, prepend: Optional[Array] = None,
         append: Optional[Array] = None) -> Array:
    """The n-th forward difference of x along an axis.

    For bool x the difference is !=, as NumPy. The standard makes n and axis
    keyword-only; they are also taken by position, in NumPy's and PyTorch's order
    (``diff(x, 2)``), because clients call it that way (scikit-learn's
    roc_curve).

    Parameters
    ----------
    x : Array
        Input array of at least 1 dimension.
    n : int, optional
        Number of times to take differences; default 1.
    axis : int, optional
        Axis along which to take them; default -1.
    prepend : Array, optional
        Values put before x along axis first (x's shape except along axis).
    append : Array, optional
        Values put after x along axis first.

    Returns
    -------
    Array
        A new array, n shorter than x along axis (after prepend and append).

    Raises
    ------
    ValueError
        If n is negative or x is 0-d.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.diff(xp.asarray([1, 4, 9, 16]))
    Array([3, 5, 7])
    """
    func = "diff"
    x = check_array(func, x)
    if x.ndim == 0:
        raise value_error(func, "x must have at least one dimension")
    n = int_arg(func, n, "n must be an int")
    if n < 0:
        raise value_error(func, "n must be non-negative", n)
    ax = normalize_axis(func, axis, x.ndim)
    parts = []
    for name, extra in (("prepend", prepend), (None, x), ("append", append)):
        if extra is None:
            continue
        if name is not None:
            extra = check_array(func, extra, name)
        parts.append(extra)
    if len(parts) > 1:
        x = concat(parts, axis=ax)
    if n > 0 and n >= x.shape[ax]:
        # every difference past the axis length is empty: no need to take n of them
        shape = x.shape[:ax] + (0,) + x.shape[ax + 1:]
        return Array._empty(shape, x.dtype, func=func)
    d = x.dtype
    for _ in range(n):
        shape = list(x.shape)
        shape[ax] -= 1
        # a narrow float is subtracted in float32 and rounded once, as NumPy:
        # one difference rounds to d, repeated ones stay in float32 till the end
        out = Array._empty(tuple(shape), d if n == 1 else x.dtype.compute, func=func)
        if out.size:
            K.lane(lib.ARS_LANE_DIFF, x, out, ax, ax, func=func)
        x = out
    return x._copy_contiguous(d) if n == 0 else dt.in_dtype(x, d)

