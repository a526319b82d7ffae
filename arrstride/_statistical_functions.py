"""Statistical functions: sum, prod, min, max, mean, var, std,
cumulative_sum, cumulative_prod; beyond the standard, NumPy's nan-skipping
reductions (nansum, nanmean, ...). median and quantile are in _quantile.

Reductions run in C on the shared iterator with the reduced axes given
stride 0 in a contiguous accumulator (pairwise float sums, private
accumulators per thread). var and std read x once, in float64 without
temporaries (blocked moments merged pairwise, in C). Results are new arrays.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple, Union

from . import _dtypes as dt
from . import _kernels as K
from . import _layout as L
from ._args import check_keepdims, normalize_axes, normalize_axis
from ._array import Array, check_array
from ._elementwise_functions import abs as _abs
from ._elementwise_functions import (
    divide,
    greater,
    imag,
    isnan,
    logical_not,
    real,
    sqrt,
    square,
    subtract,
    where,
)
from ._errors import dtype_error, type_error, value_error
from ._core import cumulative as _core_cumulative
from ._core import reduce_all as _core_reduce_all
from ._core import reduce_into as _core_reduce_into
from ._native import lib

Axis = Optional[Union[int, Tuple[int, ...]]]


# ---- helpers shared with the utility and searching functions --------------------------

def check_dtype_arg(func: str, dtype: Any) -> Optional[dt.DType]:
    return dt.as_dtype(func, dtype)


_READS_NARROW = (lib.ARS_RED_SUM, lib.ARS_RED_PROD, lib.ARS_RED_MIN, lib.ARS_RED_MAX)
_TRUTH = (lib.ARS_RED_ALL, lib.ARS_RED_ANY, lib.ARS_RED_COUNT)


def _reads_narrow(x: Array, op: int) -> bool:
    """A narrow float x that the kernel `op` reads as it is: all, any and
    count_nonzero in any layout; a sum, product, min or max of a C-ordered x,
    each element entering the float32 (or wider) accumulator exactly, in the
    fold order of x's float32 copy (so with its bits: a sum's rounding, which
    NaN it returns, and which of -0.0 and 0.0 a min or max returns depend on
    that order; a stepped x, even one the iterator walks in C order, takes the
    strided loops, whose NaN operands can swap against the contiguous ones')."""
    return op in _TRUTH or (op in _READS_NARROW and L.is_contiguous(x._layout))


def _widened(x: Array, op: int) -> Array:
    """x, or for a narrow float that `op` does not read as it is, its float32
    copy (as NumPy's float16: computed in float32)."""
    if not dt.is_narrow(x._dtype):  # the per-call path: no layout test
        return x
    return x if _reads_narrow(x, op) else dt.widened(x)


def reduce_into(x: Array, axes: Tuple[int, ...], op: int, acc_dtype: dt.DType,
                func: str = "reduce") -> Array:
    """A new contiguous array of x's shape with 1 on `axes`: the reduction."""
    return _reduce_as_is(_widened(x, op), axes, op, acc_dtype, func)


def _reduce_as_is(x: Array, axes: Tuple[int, ...], op: int, acc_dtype: dt.DType,
                  func: str) -> Array:
    """reduce_into of x as it is (a narrow x too, whatever the op and layout)."""
    acc = _core_reduce_into(op, x, axes, acc_dtype)  # one C call for any layout
    if acc is not None:
        return acc
    K.check_size(func, x)  # before allocating a result that could not be computed
    kshape = tuple(1 if k in axes else d for k, d in enumerate(x.shape))
    acc = Array._empty(kshape, acc_dtype, func=func)
    K.reduce(op, x, acc, axes, func=func)
    return acc


def reduce_axes(x: Array, axes: Tuple[int, ...], op: int, acc_dtype: dt.DType, keepdims: bool,
                out_dtype: dt.DType, func: str = "reduce", fin: int = -1) -> Array:
    """finish(reduce_into(...)): the reduction over axes (then the reduce_finish
    `fin` over their element count, when given), cast to out_dtype, the axes
    dropped unless keepdims; one C call for a dtype that is not narrow."""
    if not dt.is_narrow(x._dtype) or _reads_narrow(x, op):
        acc = _core_reduce_into(op, x, axes, acc_dtype, not keepdims) if fin < 0 else \
            _core_reduce_into(op, x, axes, acc_dtype, not keepdims, fin, reduced_count(x, axes))
        if acc is not None:
            return dt.in_dtype(acc, out_dtype)
    acc = reduce_into(x, axes, op, acc_dtype, func=func)
    if fin >= 0:
        K.reduce_finish(fin, acc, reduced_count(x, axes))
    return finish(acc, axes, keepdims, out_dtype)


def reduce_all(x: Array, op: int, acc_dtype: dt.DType, func: str, finish: int = -1) -> Array:
    """A new 0-d array: the reduction of every element (axis=None without
    keepdims, the per-call path), then the reduce_finish `finish` over x's
    size when given (ARS_FIN_MEAN: the mean)."""
    x = _widened(x, op)
    # a dense x: one flat pass (and the finish), in C
    acc = _core_reduce_all(op, x, acc_dtype) if finish < 0 else _core_reduce_all(op, x, acc_dtype, finish, x.size)
    if acc is not None:
        return acc
    K.check_size(func, x)
    acc = Array._empty((), acc_dtype)
    K.reduce_all(op, x, acc)
    if finish >= 0:
        K.reduce_finish(finish, acc, x.size)
    return acc


def finish(acc: Array, axes: Tuple[int, ...], keepdims: bool, dtype: dt.DType) -> Array:
    """acc cast to dtype, with the reduced axes dropped unless keepdims."""
    out = dt.in_dtype(acc, dtype)
    if keepdims:
        return out
    return out._with_layout(L.drop_dims(out._layout, axes))


def reduced_count(x: Array, axes: Tuple[int, ...]) -> int:
    n = 1
    for a in axes:
        n *= x.shape[a]
    return n


def sum_dtypes(func: str, x: Array, dtype: Optional[dt.DType],
               product: bool = False) -> Tuple[dt.DType, dt.DType]:
    """(result dtype, accumulator dtype) of sum, prod and the cumulative ones.
    product: a float or complex product accumulates in float64 or complex128
    and is rounded once (as PyTorch's on the CPU): each factor adds a relative
    rounding error whatever the order of the fold, so a pairwise product of a
    million float32 values near 1 was 1e-4 off."""
    dtype = check_dtype_arg(func, dtype)
    if dtype is None:
        k = x.dtype.kind
        dtype = dt.int64 if k in "bi" else dt.uint64 if k == "u" else x.dtype
    k = dtype.kind
    acc = dt.int64 if k in "bi" else dt.uint64 if k == "u" else dtype
    acc = acc.compute  # as NumPy: float16 sums in float32, rounded once at the end
    if product and acc.kind in "fc":
        acc = dt.complex128 if acc.kind == "c" else dt.float64
    return dtype, acc


def _numeric(func: str, x: Array) -> Array:
    """Numeric dtypes, and bool as NumPy allows it (counting as int64)."""
    return check_array(func, x)


def _real(func: str, x: Array) -> Array:
    x = check_array(func, x)
    if x.dtype.kind == "c":
        raise dtype_error(func, "real-valued", x.dtype)
    return x


# ---- reductions --------------------------------------------------------------------------

def _sum_like(func: str, op: int, x: Array, axis: Axis, dtype: Optional[dt.DType],
              keepdims: bool) -> Array:
    x = _numeric(func, x)
    out_dtype, acc_dtype = sum_dtypes(func, x, dtype, product=op == lib.ARS_RED_PROD)
    if axis is None and keepdims is False:
        acc = reduce_all(x, op, acc_dtype, func)
        return dt.in_dtype(acc, out_dtype)
    check_keepdims(func, keepdims)
    axes = normalize_axes(func, axis, x.ndim)
    return reduce_axes(x, axes, op, acc_dtype, keepdims, out_dtype, func)


def sum(x: Array, /, axis: Axis = None, *, dtype: Optional[dt.DType] = None,
        keepdims: bool = False) -> Array:
    """Sum of the elements of x over the given axes.

    Floats sum pairwise, at least as accurately as NumPy; integers and bools
    accumulate in int64 (uint64 for unsigned) and wrap on overflow, unless dtype
    is given. The sum of zero elements is 0.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    dtype : DType or Python type, optional
        Data type to accumulate in and return; by default x's, except that
        integers accumulate in int64 (uint64 for unsigned) and bool in int64.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1, so that it
        broadcasts against x. Default False.

    Returns
    -------
    Array
        A new array: x's shape without the reduced axes (or with them of size 1
        with keepdims); a 0-d array when every axis is reduced.

    See Also
    --------
    nansum, cumulative_sum, mean

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.reshape(xp.arange(6), (2, 3))
    >>> xp.sum(x), xp.sum(x, 0)
    (Array(15), Array([3, 5, 7]))
    """
    return _sum_like("sum", lib.ARS_RED_SUM, x, axis, dtype, keepdims)


def prod(x: Array, /, axis: Axis = None, *, dtype: Optional[dt.DType] = None,
         keepdims: bool = False) -> Array:
    """Product of the elements of x over the given axes.

    Integers and bools accumulate in int64 (uint64 for unsigned) and wrap on
    overflow, unless dtype is given. Floats accumulate in float64 (complex
    numbers in complex128) and are rounded once to the result's dtype, as
    PyTorch's on the CPU: a float32 product stays within a few ULP where a
    float32 fold drifts, and overflows only if the result does. The product
    of zero elements is 1.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    dtype : DType or Python type, optional
        Data type to return; by default x's, except that integers give int64
        (uint64 for unsigned) and bool int64.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1, so that it
        broadcasts against x. Default False.

    Returns
    -------
    Array
        A new array: x's shape without the reduced axes (or with them of size 1
        with keepdims); a 0-d array when every axis is reduced.

    See Also
    --------
    nanprod, cumulative_prod

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([[1, 2], [3, 4]])
    >>> xp.prod(x)
    Array(24)
    >>> xp.prod(x, axis=0)
    Array([3, 8])
    """
    return _sum_like("prod", lib.ARS_RED_PROD, x, axis, dtype, keepdims)


def _narrow_min_max(func: str, op: int, x: Array, axes: Tuple[int, ...], keepdims: bool) -> Optional[Array]:
    """min or max of a narrow x that is not C-ordered, read as it is into
    float32; None when a result is a zero or a NaN, whose bits (which of -0.0
    and 0.0, which NaN) depend on the fold order: the caller then folds x's
    C-ordered float32 copy, as today for every narrow x."""
    acc = _reduce_as_is(x, axes, op, dt.float32, func)
    if acc.size and not reduce_all(greater(_abs(acc), 0.0), lib.ARS_RED_ALL, dt.bool, func):
        return None
    return finish(acc, axes, keepdims, x._dtype)


def _min_max(func: str, op: int, x: Array, axis: Axis, keepdims: bool) -> Array:
    x = _real(func, x)
    d = x._dtype
    acc = d.compute  # a narrow float's in float32 (exact), rounded back once
    if axis is None and keepdims is False and x._layout.size:
        if acc is d:
            return reduce_all(x, op, d, func)
        out = _core_reduce_all(op, x, acc)  # a C-ordered narrow x: one flat pass, in C
        if out is not None:
            return dt.in_dtype(out, d)
    check_keepdims(func, keepdims)
    axes = normalize_axes(func, axis, x.ndim)
    if reduced_count(x, axes) == 0 and x.size == 0 and \
            all(n for k, n in enumerate(x.shape) if k not in axes):
        raise value_error(func, "zero-size reduction has no identity", f"shape {x.shape}, axis {axis!r}")
    if acc is not d and not L.is_contiguous(x._layout):
        out = _narrow_min_max(func, op, x, axes, keepdims)
        if out is not None:
            return out
    return reduce_axes(x, axes, op, acc, keepdims, d, func)


def min(x: Array, /, axis: Axis = None, *, keepdims: bool = False) -> Array:
    """Minimum of x over the given axes; NaN propagates.

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype. NumPy arrays are accepted too.
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1, so that it
        broadcasts against x. Default False.

    Returns
    -------
    Array
        A new array: x's shape without the reduced axes (or with them of size 1
        with keepdims); a 0-d array when every axis is reduced.

    Raises
    ------
    ValueError
        If the reduction is over zero elements (no minimum exists).

    See Also
    --------
    nanmin, argmin, minimum

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.min(xp.asarray([[1, 5], [3, 2]]))
    Array(1)
    """
    return _min_max("min", lib.ARS_RED_MIN, x, axis, keepdims)


def max(x: Array, /, axis: Axis = None, *, keepdims: bool = False) -> Array:
    """Maximum of x over the given axes; NaN propagates.

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype. NumPy arrays are accepted too.
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1, so that it
        broadcasts against x. Default False.

    Returns
    -------
    Array
        A new array: x's shape without the reduced axes (or with them of size 1
        with keepdims); a 0-d array when every axis is reduced.

    Raises
    ------
    ValueError
        If the reduction is over zero elements (no maximum exists).

    See Also
    --------
    nanmax, argmax, maximum

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.max(xp.asarray([[1, 5], [3, 2]]), axis=1)
    Array([5, 3])
    """
    return _min_max("max", lib.ARS_RED_MAX, x, axis, keepdims)


def _float_result(func: str, x: Array) -> Tuple[dt.DType, dt.DType]:
    """(result dtype, accumulator dtype) of mean: floats keep their dtype and
    accumulate in 64 bits; integers give float64 (as NumPy)."""
    x = _numeric(func, x)
    k = x.dtype.kind
    if k == "c":
        return x.dtype, dt.complex128
    if k == "f":
        return x.dtype, dt.float64
    return dt.float64, dt.float64


def _result_dtype_arg(func: str, x: Array, out_dtype: dt.DType, dtype: Any) -> dt.DType:
    """The dtype= of mean, var and std (NumPy's keyword; Cubed passes it): a
    floating dtype; complex only for complex results."""
    dtype = check_dtype_arg(func, dtype)
    if dtype is None:
        return out_dtype
    if dtype.kind not in "fc" or (dtype.kind == "f" and out_dtype.kind == "c"):
        raise type_error(func, f"dtype must be a floating-point dtype that holds {out_dtype}", dtype)
    return dtype


def mean(x: Array, /, axis: Axis = None, *, keepdims: bool = False,
         dtype: Optional[dt.DType] = None) -> Array:
    """Arithmetic mean of x over the given axes.

    Floats sum pairwise in their own dtype, as NumPy's (so a float32 mean
    overflows where NumPy's does); integers are averaged in float64 (beyond the
    standard, as NumPy). The mean over zero elements is NaN.

    Parameters
    ----------
    x : Array
        Input array of a floating-point dtype (integers too, see above). NumPy
        arrays are accepted too.
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1, so that it
        broadcasts against x. Default False.
    dtype : DType or Python type, optional
        Floating-point dtype of the result (beyond the standard, as NumPy);
        default x's floating dtype, float64 for integers.

    Returns
    -------
    Array
        A new array: x's shape without the reduced axes (or with them of size 1
        with keepdims); a 0-d array when every axis is reduced.

    See Also
    --------
    nanmean, sum

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.mean(xp.asarray([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    Array([2., 3.])
    """
    func = "mean"
    if not isinstance(x, Array):
        x = check_array(func, x)
    out_dtype, acc_dtype = _float_result(func, x)
    out_dtype = _result_dtype_arg(func, x, out_dtype, dtype)
    if x.dtype.kind in "fc":
        # as NumPy: floats sum pairwise in the result's dtype (a float32 mean in
        # float32, overflowing as NumPy's does; dtype=float64 sums in float64)
        acc_dtype = dt.promote(x.dtype, out_dtype)
        acc_dtype = acc_dtype.compute  # NumPy's float16 mean: a float32 sum and division
    if axis is None and keepdims is False:
        acc = reduce_all(x, lib.ARS_RED_SUM, acc_dtype, func, lib.ARS_FIN_MEAN)
        return dt.in_dtype(acc, out_dtype)
    check_keepdims(func, keepdims)
    axes = normalize_axes(func, axis, x.ndim)
    return reduce_axes(x, axes, lib.ARS_RED_SUM, acc_dtype, keepdims, out_dtype, func, lib.ARS_FIN_MEAN)


def _var_std(func: str, kind: int, x: Array, axis: Axis, correction: Union[int, float],
             keepdims: bool, dtype: Any = None, ddof: Any = None) -> Array:
    if not isinstance(x, Array):
        x = check_array(func, x)
    if ddof is not None:
        correction = _correction_arg(func, correction, ddof)
    out_dtype, acc_dtype = _float_result(func, x)
    out_dtype = dt.real_of(out_dtype)
    if dtype is not None:
        out_dtype = dt.real_of(_result_dtype_arg(func, x, out_dtype, dtype))
    check_keepdims(func, keepdims)
    if isinstance(correction, dt.builtins_bool) or not isinstance(correction, (int, float)):
        raise type_error(func, "correction must be an int or a float", repr(correction))
    axes = normalize_axes(func, axis, x.ndim)
    n = reduced_count(x, axes)
    K.check_size(func, x)
    kshape = tuple(1 if k in axes else d for k, d in enumerate(x.shape))
    acc = Array._empty(kshape, dt.float64, func=func)
    K.var_m2(x, acc, axes, func=func)
    K.reduce_finish(kind, acc, n, correction)
    return finish(acc, axes, keepdims, out_dtype)


def var(x: Array, /, axis: Axis = None, *, correction: Union[int, float] = 0.0,
        keepdims: bool = False, dtype: Optional[dt.DType] = None,
        ddof: Optional[Union[int, float]] = None) -> Array:
    """Variance of x over the given axes.

    Computed in float64 in one pass over x (blocks of it, each's mean and
    squared deviations while in cache, merged pairwise); NaN when the
    correction is at least the number of elements.

    Parameters
    ----------
    x : Array
        Input array of a floating-point dtype (integers too, see above). NumPy
        arrays are accepted too.
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    correction : int or float, optional
        Degrees of freedom subtracted from the number of elements N: 0 (the
        default) for the population value, 1 for the unbiased sample variance.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1, so that it
        broadcasts against x. Default False.
    dtype : DType or Python type, optional
        Floating-point dtype of the result (beyond the standard, as NumPy);
        default x's floating dtype, float64 for integers.
    ddof : int or float, optional
        NumPy's name for correction; give one or the other.

    Returns
    -------
    Array
        A new array: x's shape without the reduced axes (or with them of size 1
        with keepdims); a 0-d array when every axis is reduced.

    See Also
    --------
    std, nanvar

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.var(xp.asarray([1.0, 2.0, 3.0, 4.0]))
    Array(1.25)
    """
    return _var_std("var", lib.ARS_FIN_VAR, x, axis, correction, keepdims, dtype, ddof)


def std(x: Array, /, axis: Axis = None, *, correction: Union[int, float] = 0.0,
        keepdims: bool = False, dtype: Optional[dt.DType] = None,
        ddof: Optional[Union[int, float]] = None) -> Array:
    """Standard deviation of x over the given axes.

    Computed in float64 in one pass over x (blocks of it, each's mean and
    squared deviations while in cache, merged pairwise); NaN when the
    correction is at least the number of elements.

    Parameters
    ----------
    x : Array
        Input array of a floating-point dtype (integers too, see above). NumPy
        arrays are accepted too.
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    correction : int or float, optional
        Degrees of freedom subtracted from the number of elements N: 0 (the
        default) for the population value, 1 for the unbiased sample variance.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1, so that it
        broadcasts against x. Default False.
    dtype : DType or Python type, optional
        Floating-point dtype of the result (beyond the standard, as NumPy);
        default x's floating dtype, float64 for integers.
    ddof : int or float, optional
        NumPy's name for correction; give one or the other.

    Returns
    -------
    Array
        A new array: x's shape without the reduced axes (or with them of size 1
        with keepdims); a 0-d array when every axis is reduced.

    See Also
    --------
    var, nanstd

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.std(xp.asarray([1.0, 2.0, 3.0, 4.0]), correction=1)
    Array(1.29099445)
    """
    return _var_std("std", lib.ARS_FIN_STD, x, axis, correction, keepdims, dtype, ddof)


# ---- cumulative -------------------------------------------------------------------------

def _cumulative(func: str, op: int, x: Array, axis: Optional[int], dtype: Optional[dt.DType],
                include_initial: bool) -> Array:
    if dtype is None:
        out = _core_cumulative(op, x, axis, include_initial)  # dtype=None's rule, in C
        if out is not None:
            return out
    x = check_array(func, x)
    if not isinstance(include_initial, dt.builtins_bool):
        raise type_error(func, "include_initial must be a bool", repr(include_initial))
    if axis is None:
        if x.ndim > 1:
            raise value_error(func, "axis is required for arrays of more than one dimension",
                              f"shape {x.shape}")
        if x.ndim == 0:
            x = x._with_layout(L.Layout((1,), (0,), x._layout.offset))
        axis = 0
    else:
        if x.ndim == 0:
            raise value_error(func, "x must have at least one dimension")
        axis = normalize_axis(func, axis, x.ndim)
    out_dtype, acc_dtype = sum_dtypes(func, x, dtype)
    if x._dtype is out_dtype and acc_dtype is out_dtype.compute:
        acc_dtype = out_dtype  # a narrow float's lane keeps float32 and rounds each value
    shape = list(x.shape)
    shape[axis] += 1 if include_initial else 0
    acc = Array._empty(tuple(shape), acc_dtype, func=func)
    if acc.size:
        K.lane(op, x, acc, axis, axis, include_initial, func=func)
    return dt.in_dtype(acc, out_dtype)


def cumulative_sum(x: Array, /, *, axis: Optional[int] = None, dtype: Optional[dt.DType] = None,
                   include_initial: bool = False) -> Array:
    """Cumulative sum of x along an axis.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int, optional
        Axis to accumulate along; may be None (the default) only for a 0-d or 1-D
        x.
    dtype : DType or Python type, optional
        Data type to accumulate in and return; by default x's, except that
        integers accumulate in int64 (uint64 for unsigned) and bool in int64.
    include_initial : bool, optional
        If True, each lane starts with 0 (the empty sum), so the axis grows
        by one. Default False.

    Returns
    -------
    Array
        A new array of x's shape (one more along axis with include_initial).

    Raises
    ------
    ValueError
        If axis is out of range, or None for x of more than one dimension.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.cumulative_sum(xp.asarray([1, 2, 3]))
    Array([1, 3, 6])
    """
    return _cumulative("cumulative_sum", lib.ARS_LANE_CUMSUM, x, axis, dtype, include_initial)


def cumulative_prod(x: Array, /, *, axis: Optional[int] = None, dtype: Optional[dt.DType] = None,
                    include_initial: bool = False) -> Array:
    """Cumulative product of x along an axis.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int, optional
        Axis to accumulate along; may be None (the default) only for a 0-d or 1-D
        x.
    dtype : DType or Python type, optional
        Data type to accumulate in and return; by default x's, except that
        integers accumulate in int64 (uint64 for unsigned) and bool in int64.
    include_initial : bool, optional
        If True, each lane starts with 1 (the empty product), so the axis grows
        by one. Default False.

    Returns
    -------
    Array
        A new array of x's shape (one more along axis with include_initial).

    Raises
    ------
    ValueError
        If axis is out of range, or None for x of more than one dimension.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.cumulative_prod(xp.asarray([1, 2, 3, 4]))
    Array([ 1,  2,  6, 24])
    >>> xp.cumulative_prod(xp.asarray([1, 2, 3]), include_initial=True)
    Array([1, 1, 2, 6])
    """
    return _cumulative("cumulative_prod", lib.ARS_LANE_CUMPROD, x, axis, dtype, include_initial)


# ---- beyond the standard: NumPy's nan-skipping reductions ----------------------------------
# Built from the kernels above: NaNs are replaced by the reduction's identity
# with `where`, and a per-lane count of the other elements finishes means and
# turns all-NaN lanes into NaN, as NumPy does. Integer and bool inputs hold no
# NaN: these are then the plain reductions.

def _has_nan(x: Array) -> bool:
    return x.dtype.kind in "fc"


def _nan_filled(x: Array, value: Any) -> Array:
    return where(isnan(x), value, x)


def _valid_count(x: Array, axes: Tuple[int, ...], keepdims: bool) -> Array:
    """How many elements of each lane are not NaN (int64)."""
    return finish(reduce_into(logical_not(isnan(x)), axes, lib.ARS_RED_COUNT, dt.int64),
                  axes, keepdims, dt.int64)


def _nan_setup(func: str, x: Array, axis: Axis, keepdims: bool) -> Tuple[Array, Tuple[int, ...]]:
    x = check_array(func, x)
    check_keepdims(func, keepdims)
    return x, normalize_axes(func, axis, x.ndim)


def _nan_sum_like(func: str, op: int, identity: int, x: Array, axis: Axis,
                  dtype: Optional[dt.DType], keepdims: bool) -> Array:
    x, _ = _nan_setup(func, x, axis, keepdims)
    if _has_nan(x):
        x = _nan_filled(x, identity)
    return _sum_like(func, op, x, axis, dtype, keepdims)


def nansum(x: Array, /, axis: Axis = None, *, dtype: Optional[dt.DType] = None,
           keepdims: bool = False) -> Array:
    """Sum over the given axes, counting NaNs as zero.

    An all-NaN lane gives 0. Not in the standard: NumPy's nansum.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    dtype : DType or Python type, optional
        Data type to accumulate in and return; by default x's, except that
        integers accumulate in int64 (uint64 for unsigned) and bool in int64.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1, so that it
        broadcasts against x. Default False.

    Returns
    -------
    Array
        A new array: x's shape without the reduced axes (or with them of size 1
        with keepdims); a 0-d array when every axis is reduced.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.nansum(xp.asarray([1.0, xp.nan, 3.0]))
    Array(4.)
    >>> xp.nansum(xp.asarray([[1.0, xp.nan], [xp.nan, xp.nan]]), axis=1)
    Array([1., 0.])
    """
    return _nan_sum_like("nansum", lib.ARS_RED_SUM, 0, x, axis, dtype, keepdims)


def nanprod(x: Array, /, axis: Axis = None, *, dtype: Optional[dt.DType] = None,
            keepdims: bool = False) -> Array:
    """Product over the given axes, counting NaNs as one.

    An all-NaN lane gives 1. Not in the standard: NumPy's nanprod.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    dtype : DType or Python type, optional
        Data type to accumulate in and return; by default x's, except that
        integers accumulate in int64 (uint64 for unsigned) and bool in int64.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1, so that it
        broadcasts against x. Default False.

    Returns
    -------
    Array
        A new array: x's shape without the reduced axes (or with them of size 1
        with keepdims); a 0-d array when every axis is reduced.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.nanprod(xp.asarray([2.0, xp.nan, 3.0]))
    Array(6.)
    """
    return _nan_sum_like("nanprod", lib.ARS_RED_PROD, 1, x, axis, dtype, keepdims)


def _nan_min_max(func: str, op: int, fill: float, x: Array, axis: Axis, keepdims: bool) -> Array:
    x, axes = _nan_setup(func, x, axis, keepdims)
    if not _has_nan(x):
        return _min_max(func, op, x, axis, keepdims)
    x = _real(func, x)
    out = _min_max(func, op, _nan_filled(x, fill), axis, keepdims)
    return where(_valid_count(x, axes, keepdims) == 0, float("nan"), out)


def nanmin(x: Array, /, axis: Axis = None, *, keepdims: bool = False) -> Array:
    """Minimum over the given axes, ignoring NaNs.

    An all-NaN lane gives NaN. Not in the standard: NumPy's nanmin.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1, so that it
        broadcasts against x. Default False.

    Returns
    -------
    Array
        A new array: x's shape without the reduced axes (or with them of size 1
        with keepdims); a 0-d array when every axis is reduced.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.nanmin(xp.asarray([2.0, xp.nan, 1.0]))
    Array(1.)
    """
    return _nan_min_max("nanmin", lib.ARS_RED_MIN, float("inf"), x, axis, keepdims)


def nanmax(x: Array, /, axis: Axis = None, *, keepdims: bool = False) -> Array:
    """Maximum over the given axes, ignoring NaNs.

    An all-NaN lane gives NaN. Not in the standard: NumPy's nanmax.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1, so that it
        broadcasts against x. Default False.

    Returns
    -------
    Array
        A new array: x's shape without the reduced axes (or with them of size 1
        with keepdims); a 0-d array when every axis is reduced.

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([[1.0, xp.nan], [xp.nan, xp.nan]])
    >>> xp.nanmax(x)
    Array(1.)
    >>> xp.nanmax(x, axis=1)
    Array([ 1., nan])
    """
    return _nan_min_max("nanmax", lib.ARS_RED_MAX, float("-inf"), x, axis, keepdims)


def nanmean(x: Array, /, axis: Axis = None, *, dtype: Optional[dt.DType] = None,
            keepdims: bool = False) -> Array:
    """Mean of the elements that are not NaN.

    An all-NaN lane gives NaN; sums run in 64 bits. Not in the standard: NumPy's
    nanmean.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    dtype : DType or Python type, optional
        Floating-point dtype of the result (beyond the standard, as NumPy);
        default x's floating dtype, float64 for integers.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1, so that it
        broadcasts against x. Default False.

    Returns
    -------
    Array
        A new array: x's shape without the reduced axes (or with them of size 1
        with keepdims); a 0-d array when every axis is reduced.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.nanmean(xp.asarray([1.0, xp.nan, 3.0]))
    Array(2.)
    >>> xp.nanmean(xp.asarray([[1.0, xp.nan], [3.0, 4.0]]), axis=0)
    Array([2., 4.])
    """
    func = "nanmean"
    x, axes = _nan_setup(func, x, axis, keepdims)
    if not _has_nan(x):
        return mean(x, axis=axis, keepdims=keepdims, dtype=dtype)
    out_dtype, acc_dtype = _float_result(func, x)
    out_dtype = _result_dtype_arg(func, x, out_dtype, dtype)
    total = finish(reduce_into(_nan_filled(x, 0), axes, lib.ARS_RED_SUM, acc_dtype), axes,
                   keepdims, acc_dtype)
    out = divide(total, dt.in_dtype(_valid_count(x, axes, keepdims), dt.float64))
    return dt.in_dtype(out, out_dtype)


def _correction_arg(func: str, correction: Any, ddof: Any) -> Union[int, float]:
    if ddof is not None:
        if correction != 0.0:
            raise type_error(func, "give correction or ddof (NumPy's name), not both")
        correction = ddof
    if isinstance(correction, dt.builtins_bool) or not isinstance(correction, (int, float)):
        raise type_error(func, "correction must be an int or a float", repr(correction))
    return correction


def _nan_var(func: str, x: Array, axis: Axis, dtype: Any, correction: Any, ddof: Any,
             keepdims: bool) -> Array:
    x, axes = _nan_setup(func, x, axis, keepdims)
    correction = _correction_arg(func, correction, ddof)
    out_dtype, acc_dtype = _float_result(func, x)
    out_dtype = dt.real_of(_result_dtype_arg(func, x, out_dtype, dtype))
    if not _has_nan(x):
        return var(x, axis=axis, correction=correction, keepdims=keepdims, dtype=out_dtype)
    wide = dt.in_dtype(x, acc_dtype)
    n = dt.in_dtype(_valid_count(x, axes, True), dt.float64)
    m = divide(finish(reduce_into(_nan_filled(wide, 0), axes, lib.ARS_RED_SUM, acc_dtype), axes,
                      True, acc_dtype), n)
    dev = _nan_filled(subtract(wide, m), 0)
    sq = square(real(dev)) + square(imag(dev)) if dev.dtype.kind == "c" else square(dev)
    ss = finish(reduce_into(sq, axes, lib.ARS_RED_SUM, dt.float64), axes, True, dt.float64)
    dof = n - correction
    out = where(dof > 0, divide(ss, where(dof > 0, dof, 1.0)), float("nan"))
    if not keepdims:
        out = out._with_layout(L.drop_dims(out._layout, axes))
    return dt.in_dtype(out, out_dtype)


def nanvar(x: Array, /, axis: Axis = None, *, dtype: Optional[dt.DType] = None,
           correction: Union[int, float] = 0.0, keepdims: bool = False,
           ddof: Optional[Union[int, float]] = None) -> Array:
    """Variance of the elements that are not NaN, in float64.

    NaN where the count of non-NaN elements minus the correction is not positive.
    Not in the standard: NumPy's nanvar.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    dtype : DType or Python type, optional
        Floating-point dtype of the result (beyond the standard, as NumPy);
        default x's floating dtype, float64 for integers.
    correction : int or float, optional
        Degrees of freedom subtracted from the number of elements N: 0 (the
        default) for the population value, 1 for the unbiased sample variance.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1, so that it
        broadcasts against x. Default False.
    ddof : int or float, optional
        NumPy's name for correction; give one or the other.

    Returns
    -------
    Array
        A new array: x's shape without the reduced axes (or with them of size 1
        with keepdims); a 0-d array when every axis is reduced.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.nanvar(xp.asarray([1.0, xp.nan, 3.0]))
    Array(1.)
    >>> xp.nanvar(xp.asarray([1.0, xp.nan, 3.0, 5.0]), correction=1)
    Array(4.)
    """
    return _nan_var("nanvar", x, axis, dtype, correction, ddof, keepdims)


def nanstd(x: Array, /, axis: Axis = None, *, dtype: Optional[dt.DType] = None,
           correction: Union[int, float] = 0.0, keepdims: bool = False,
           ddof: Optional[Union[int, float]] = None) -> Array:
    """Standard deviation of the elements that are not NaN.

    NaN where the count of non-NaN elements minus the correction is not positive.
    Not in the standard: NumPy's nanstd.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis. Beyond the
        standard, it may be given by position, as in NumPy.
    dtype : DType or Python type, optional
        Floating-point dtype of the result (beyond the standard, as NumPy);
        default x's floating dtype, float64 for integers.
    correction : int or float, optional
        Degrees of freedom subtracted from the number of elements N: 0 (the
        default) for the population value, 1 for the unbiased sample variance.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1, so that it
        broadcasts against x. Default False.
    ddof : int or float, optional
        NumPy's name for correction; give one or the other.

    Returns
    -------
    Array
        A new array: x's shape without the reduced axes (or with them of size 1
        with keepdims); a 0-d array when every axis is reduced.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.nanstd(xp.asarray([1.0, xp.nan, 3.0]))
    Array(1.)
    >>> xp.nanstd(xp.asarray([1.0, xp.nan, 3.0, 5.0]), correction=1)
    Array(2.)
    """
    return sqrt(_nan_var("nanstd", x, axis, dtype, correction, ddof, keepdims))
