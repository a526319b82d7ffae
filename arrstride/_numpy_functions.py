"""NumPy's functions that clients reach through the namespace (xarray's
duck_array_ops and nputils call `xp.transpose`, `xp.cumsum`, `xp.nancumsum`,
`xp.gradient` when the namespace has them, and fall back to NumPy's own,
which returns NumPy data, when it does not). Each is built from the
standard's functions, with NumPy's signature and NumPy's result."""
from __future__ import annotations

from typing import Any, Optional, Tuple, Union

from . import _dtypes as dt
from ._args import int_arg, normalize_axes
from ._array import Array, check_array
from ._elementwise_functions import add, divide, isnan, multiply, subtract, where
from ._errors import type_error, value_error
from ._manipulation_functions import concat, permute_dims, reshape
from ._statistical_functions import cumulative_prod, cumulative_sum


def transpose(x: Array, /, axes: Optional[Tuple[int, ...]] = None) -> Array:
    """Array x with its axes reversed, or permuted.

    Not in the standard: NumPy's transpose (the standard's is permute_dims).

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too.
    axes : tuple of int, optional
        A permutation of x's axes; None (the default) reverses them.

    Returns
    -------
    Array
        A view of x.

    See Also
    --------
    permute_dims, matrix_transpose

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.zeros((2, 3, 4))
    >>> xp.transpose(x).shape
    (4, 3, 2)
    >>> xp.transpose(x, (1, 0, 2)).shape
    (3, 2, 4)
    """
    x = check_array("transpose", x)
    if axes is None:
        axes = tuple(range(x.ndim - 1, -1, -1))
    return permute_dims(x, axes)


def _cumulative(func: str, f, x: Array, axis: Optional[int], dtype: Any) -> Array:
    x = check_array(func, x)
    if axis is None:
        x = reshape(x, (-1,))
        axis = 0
    return f(x, axis=axis, dtype=dtype)


def cumsum(x: Array, /, axis: Optional[int] = None, dtype: Optional[dt.DType] = None) -> Array:
    """Cumulative sum of x along an axis, NumPy's way.

    Not in the standard: NumPy's cumsum. An axis of None accumulates over the
    flattened array, as NumPy (the standard's cumulative_sum asks for an axis when
    x has more than one dimension).

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype. NumPy arrays are accepted too.
    axis : int, optional
        Axis to accumulate along; None (the default) flattens x first.
    dtype : DType or Python type, optional
        Data type to accumulate in and return; by default x's, except that
        integers accumulate in int64 (uint64 for unsigned) and bool in int64.

    Returns
    -------
    Array
        A new array: 1-D of x's size when axis is None, else of x's shape.

    See Also
    --------
    cumulative_sum

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([[1, 2], [3, 4]])
    >>> xp.cumsum(x)
    Array([ 1,  3,  6, 10])
    >>> xp.cumsum(x, axis=0)
    Array([[1, 2],
           [4, 6]])
    """
    return _cumulative("cumsum", cumulative_sum, x, axis, dtype)


def cumprod(x: Array, /, axis: Optional[int] = None, dtype: Optional[dt.DType] = None) -> Array:
    """Cumulative product of x along an axis, NumPy's way.

    Not in the standard: NumPy's cumprod. An axis of None accumulates over the
    flattened array, as NumPy (the standard's cumulative_prod asks for an axis when
    x has more than one dimension).

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype. NumPy arrays are accepted too.
    axis : int, optional
        Axis to accumulate along; None (the default) flattens x first.
    dtype : DType or Python type, optional
        Data type to accumulate in and return; by default x's, except that
        integers accumulate in int64 (uint64 for unsigned) and bool in int64.

    Returns
    -------
    Array
        A new array: 1-D of x's size when axis is None, else of x's shape.

    See Also
    --------
    cumulative_prod

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([[1, 2], [3, 4]])
    >>> xp.cumprod(x)
    Array([ 1,  2,  6, 24])
    >>> xp.cumprod(x, axis=1)
    Array([[ 1,  2],
           [ 3, 12]])
    """
    return _cumulative("cumprod", cumulative_prod, x, axis, dtype)


def _nan_as(x: Array, value: float) -> Array:
    return where(isnan(x), value, x) if x.dtype.kind in "fc" else x


def nancumsum(x: Array, /, axis: Optional[int] = None, dtype: Optional[dt.DType] = None) -> Array:
    """Cumulative sum along an axis, counting NaNs as zero.

    Not in the standard: NumPy's nancumsum (cumsum with NaNs counted as 0). An axis
    of None accumulates over the flattened array, as NumPy (the standard's
    cumulative_sum asks for an axis when x has more than one dimension).

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype. NumPy arrays are accepted too.
    axis : int, optional
        Axis to accumulate along; None (the default) flattens x first.
    dtype : DType or Python type, optional
        Data type to accumulate in and return; by default x's, except that
        integers accumulate in int64 (uint64 for unsigned) and bool in int64.

    Returns
    -------
    Array
        A new array: 1-D of x's size when axis is None, else of x's shape.

    See Also
    --------
    cumulative_sum

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.nancumsum(xp.asarray([1.0, xp.nan, 3.0]))
    Array([1., 1., 4.])
    """
    x = check_array("nancumsum", x)
    return _cumulative("nancumsum", cumulative_sum, _nan_as(x, 0.0), axis, dtype)


def nancumprod(x: Array, /, axis: Optional[int] = None, dtype: Optional[dt.DType] = None) -> Array:
    """Cumulative product along an axis, counting NaNs as one.

    Not in the standard: NumPy's nancumprod (cumprod with NaNs counted as 1). An
    axis of None accumulates over the flattened array, as NumPy (the standard's
    cumulative_prod asks for an axis when x has more than one dimension).

    Parameters
    ----------
    x : Array
        Input array of a numeric dtype. NumPy arrays are accepted too.
    axis : int, optional
        Axis to accumulate along; None (the default) flattens x first.
    dtype : DType or Python type, optional
        Data type to accumulate in and return; by default x's, except that
        integers accumulate in int64 (uint64 for unsigned) and bool in int64.

    Returns
    -------
    Array
        A new array: 1-D of x's size when axis is None, else of x's shape.

    See Also
    --------
    cumulative_prod

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.nancumprod(xp.asarray([2.0, xp.nan, 3.0]))
    Array([2., 2., 6.])
    """
    x = check_array("nancumprod", x)
    return _cumulative("nancumprod", cumulative_prod, _nan_as(x, 1.0), axis, dtype)


def _take(x: Array, axis: int, start: Optional[int], stop: Optional[int]) -> Array:
    key = [slice(None)] * x.ndim
    key[axis] = slice(start, stop)
    return x[tuple(key)]


def _along(v: Array, axis: int, ndim: int) -> Array:
    """A 1-D v shaped to broadcast along `axis` of an ndim-D array."""
    shape = [1] * ndim
    shape[axis] = v.shape[0]
    return reshape(v, tuple(shape))


def _gradient_1(func: str, f: Array, axis: int, h: Union[float, Array], edge_order: int) -> Array:
    n = f.shape[axis]
    if n < edge_order + 1:
        raise value_error(func, "each differentiated axis needs at least edge_order + 1 elements",
                          f"{n} along axis {axis} with edge_order={edge_order}")
    f0, f1, f2 = (_take(f, axis, k, k + 1) for k in (0, 1, 2)) if n > 2 else \
        (_take(f, axis, 0, 1), _take(f, axis, 1, 2), None)
    l1, l2, l3 = _take(f, axis, n - 1, n), _take(f, axis, n - 2, n - 1), \
        (_take(f, axis, n - 3, n - 2) if n > 2 else None)
    if not isinstance(h, Array):  # uniform spacing
        inner = divide(subtract(_take(f, axis, 2, None), _take(f, axis, 0, n - 2)), 2.0 * h)
        if edge_order == 1:
            first = divide(subtract(f1, f0), h)
            last = divide(subtract(l1, l2), h)
        else:
            first = divide(add(add(multiply(f0, -1.5), multiply(f1, 2.0)), multiply(f2, -0.5)), h)
            last = divide(add(add(multiply(l3, 0.5), multiply(l2, -2.0)), multiply(l1, 1.5)), h)
        return concat([first, inner, last], axis=axis)
    dx = subtract(h[1:], h[:-1])
    nd = f.ndim
    if n > 2:
        dx1, dx2 = _along(dx[:-1], axis, nd), _along(dx[1:], axis, nd)
        a = divide(-dx2, multiply(dx1, add(dx1, dx2)))
        b = divide(subtract(dx2, dx1), multiply(dx1, dx2))
        c = divide(dx1, multiply(dx2, add(dx1, dx2)))
        inner = add(add(multiply(a, _take(f, axis, 0, n - 2)), multiply(b, _take(f, axis, 1, n - 1))),
                    multiply(c, _take(f, axis, 2, None)))
    else:
        inner = _take(f, axis, 1, 1)
    if edge_order == 1:
        first = divide(subtract(f1, f0), _along(dx[:1], axis, nd))
        last = divide(subtract(l1, l2), _along(dx[-1:], axis, nd))
    else:
        dx1, dx2 = _along(dx[:1], axis, nd), _along(dx[1:2], axis, nd)
        a = -divide(add(multiply(dx1, 2.0), dx2), multiply(dx1, add(dx1, dx2)))
        b = divide(add(dx1, dx2), multiply(dx1, dx2))
        c = -divide(dx1, multiply(dx2, add(dx1, dx2)))
        first = add(add(multiply(a, f0), multiply(b, f1)), multiply(c, f2))
        dx1, dx2 = _along(dx[-2:-1], axis, nd), _along(dx[-1:], axis, nd)
        a = divide(dx2, multiply(dx1, add(dx1, dx2)))
        b = -divide(add(dx2, dx1), multiply(dx1, dx2))
        c = divide(add(multiply(dx2, 2.0), dx1), multiply(dx2, add(dx1, dx2)))
        last = add(add(multiply(a, l3), multiply(b, l2)), multiply(c, l1))
    return concat([first, inner, last], axis=axis)


def gradient(f: Array, /, *varargs: Any, axis: Any = None, edge_order: int = 1):
    """Gradient of an array sampled on a grid, by finite differences.

    Not in the standard: NumPy's gradient. Second-order central differences
    inside, one-sided differences of order edge_order at the ends.

    Parameters
    ----------
    f : Array
        Samples of a function, of a floating-point dtype (integers are computed
        in float64).
    *varargs : float or Array
        Spacing: nothing (1 for every axis), one scalar for all axes, or one per
        axis, each a scalar or a 1-D array of coordinates.
    axis : int or tuple of int, optional
        Axes to differentiate along; None (the default) takes every axis.
    edge_order : {1, 2}, optional
        Order of the one-sided differences at the ends; default 1.

    Returns
    -------
    Array or tuple of Array
        One new array of f's shape per axis: a single array for one axis, else
        a tuple, as NumPy.

    Raises
    ------
    ValueError
        If an axis has fewer than edge_order + 1 samples, or the spacings do not
        match the axes.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.gradient(xp.asarray([1.0, 2.0, 4.0, 7.0]))
    Array([1. , 1.5, 2.5, 3. ])
    >>> xp.gradient(xp.asarray([1.0, 2.0, 4.0, 7.0]), 2.0)
    Array([0.5 , 0.75, 1.25, 1.5 ])
    """
    func = "gradient"
    f = check_array(func, f)
    if f.dtype.kind not in "iufc":
        raise type_error(func, "f must be numeric", f.dtype)
    axes = normalize_axes(func, axis, f.ndim)
    edge_order = int_arg(func, edge_order, "edge_order must be 1 or 2")
    if edge_order not in (1, 2):
        raise value_error(func, "edge_order must be 1 or 2", edge_order)
    if len(varargs) == 0:
        spacing = [1.0] * len(axes)
    elif len(varargs) == 1 and (not isinstance(varargs[0], Array) or varargs[0].ndim == 0):
        spacing = list(varargs) * len(axes)
    elif len(varargs) == len(axes):
        spacing = list(varargs)
    else:
        raise type_error(func, f"give no spacing, one scalar, or one per axis ({len(axes)})",
                         f"{len(varargs)} spacings")
    if f.dtype.kind in "iub":
        f = f._copy_contiguous(dt.float64)
    out = []
    for ax, h in zip(axes, spacing):
        if not isinstance(h, (int, float)):
            h = check_array(func, h, "spacing")
            if h.ndim == 0:
                h = float(h)
            elif h.ndim != 1 or h.shape[0] != f.shape[ax]:
                raise value_error(func, "a coordinate array must be 1-D with the axis' length",
                                  f"shape {h.shape} for axis {ax} of length {f.shape[ax]}")
            elif h.dtype.kind in "iub":
                h = h._copy_contiguous(dt.float64)
        out.append(_gradient_1(func, f, ax, h, edge_order))
    return out[0] if len(out) == 1 else tuple(out)
