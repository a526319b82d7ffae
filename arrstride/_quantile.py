"""Beyond the standard: quantile, nanquantile, median and nanmedian (as
NumPy's), built from sort and take_along_axis; above the namespace modules it
uses, so nothing imports it but the package."""
from __future__ import annotations

from typing import Any, Optional, Tuple

from . import _dtypes as dt
from . import _kernels as K
from . import _layout as L
from ._args import check_keepdims, normalize_axes
from ._array import Array
from ._elementwise_functions import (
    add,
    ceil,
    clip,
    floor,
    greater_equal,
    isnan,
    multiply,
    round,
    subtract,
    where,
)
from ._errors import dtype_error, type_error, value_error
from ._indexing_functions import take_along_axis
from ._manipulation_functions import permute_dims, reshape, stack
from ._sorting_functions import sort
from ._statistical_functions import Axis, _has_nan, _real, _valid_count, reduced_count

# ---- beyond the standard: median and quantile -----------------------------------------------
# The reduced axes are moved last and merged into one lane, which is sorted
# (NaNs last); each q then picks, per lane, the two neighbouring order
# statistics and interpolates between them with NumPy's formulas.

QUANTILE_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


def _lanes(func: str, x: Array, axis: Axis) -> Tuple[Array, Tuple[int, ...]]:
    """(x with the reduced axes merged into one last axis, the reduced axes)."""
    axes = normalize_axes(func, axis, x.ndim)
    keep = tuple(k for k in range(x.ndim) if k not in axes)
    n = reduced_count(x, axes)
    moved = permute_dims(x, keep + tuple(sorted(axes)))
    return reshape(moved, tuple(x.shape[k] for k in keep) + (n,)), axes


def _q_values(func: str, q: Any) -> Tuple[list, bool]:
    """(q as a list of floats, whether q was a scalar)."""
    if isinstance(q, Array):
        if q.ndim > 1:
            raise value_error(func, "q must be a scalar or 1-D", f"shape {q.shape}")
        if q.dtype.kind not in "iuf":
            raise dtype_error(func, "real-valued", q.dtype)
        values, scalar = q.tolist(), q.ndim == 0
        values = [values] if scalar else values
    else:
        v = dt.python_scalar(q)
        scalar = v is not None
        values = [v] if scalar else None
        if values is None:
            try:
                values = [dt.python_scalar(e) for e in q]
            except TypeError:
                values = [None]
            if not values and not isinstance(q, (list, tuple)):
                values = [None]
    for v in values:
        if isinstance(v, (dt.builtins_bool, complex)) or not isinstance(v, (int, float)):
            raise type_error(func, "q must be a real number or a 1-D sequence of them", repr(q))
        if not 0.0 <= v <= 1.0:
            raise value_error(func, "quantiles must be in the range [0, 1]", repr(v))
    return [float(v) for v in values], scalar


def _quantile(func: str, x: Array, q: Any, axis: Axis, method: str, keepdims: bool,
              skip_nan: bool) -> Array:
    x = _real(func, x)
    if x.dtype is dt.bool:
        raise dtype_error(func, "real numeric", x.dtype)
    check_keepdims(func, keepdims)
    if method not in QUANTILE_METHODS:
        raise value_error(func, "method must be one of " + ", ".join(map(repr, QUANTILE_METHODS)),
                          repr(method))
    qs, q_scalar = _q_values(func, q)
    lanes, axes = _lanes(func, x, axis)
    n = lanes.shape[-1]
    if n == 0 and lanes.size == 0 and lanes.ndim and all(lanes.shape[:-1]):
        raise value_error(func, "cannot take a quantile of an empty reduction", f"shape {x.shape}")
    interpolate = method in ("linear", "midpoint")
    out_dtype = x.dtype if (x.dtype.kind == "f" or not interpolate) else dt.float64
    lane_shape = lanes.shape[:-1]
    # per-lane number of values that count, as float64
    uniform = not (skip_nan and _has_nan(x))
    if not uniform:
        count = dt.in_dtype(_valid_count(lanes, (lanes.ndim - 1,), False), dt.float64)
    else:
        count = Array._empty(lane_shape, dt.float64)
        K.fill(count, dt.pack_scalar(float(n), dt.float64, func))
    last = subtract(count, 1.0)
    plan = [_positions(method, last, qv) for qv in qs]
    srt = _ordered(lanes, plan, n) if uniform else sort(lanes, axis=-1)
    if interpolate:
        srt = dt.in_dtype(srt, dt.float64)
    results = []
    for virtual, prev, lo_i, hi_i in plan:
        a = _take_lane(srt, lo_i, take_along_axis)
        if not interpolate:
            v = a
        else:
            b = _take_lane(srt, hi_i, take_along_axis)
            gamma = subtract(virtual, prev)
            if method == "midpoint":
                gamma = where(virtual == prev, 0.0, 0.5)
            diff = subtract(b, a)
            v = where(greater_equal(gamma, 0.5), subtract(b, multiply(diff, subtract(1.0, gamma))),
                      add(a, multiply(diff, gamma)))
        if n:
            if skip_nan:
                bad = count == 0  # an all-NaN lane
            else:
                bad = isnan(_take_lane(srt, None, take_along_axis)) if _has_nan(x) else None
            if bad is not None:
                v = where(bad, float("nan"), v)
        results.append(dt.in_dtype(v, out_dtype))
    out = results[0] if q_scalar else stack(results, axis=0)
    if keepdims:
        lead = 0 if q_scalar else 1
        lay = out._layout
        for a in sorted(axes):
            lay = L.insert_dims(lay, [lead + a])
        out = out._with_layout(lay)
    return out


def _positions(method: str, last: Array, qv: float) -> Tuple[Array, Array, Array, Array]:
    """Per lane, for quantile qv: the virtual index, its floor, and the int64
    positions of the two values it lies between (last: each lane's count - 1)."""
    base = multiply(last, qv)  # NumPy's virtual index (n - 1) * q, bit for bit
    if method == "lower":
        virtual = floor(base)
    elif method == "higher":
        virtual = ceil(base)
    elif method == "nearest":
        virtual = round(base)  # half to even, as numpy.around
    elif method == "midpoint":
        virtual = multiply(add(floor(base), ceil(base)), 0.5)
    else:
        virtual = base
    prev = floor(virtual)
    above = greater_equal(virtual, last)
    lo = where(above, last, clip(prev, 0.0, None))
    hi = where(above, last, clip(add(prev, 1.0), 0.0, None))
    lo_i = dt.in_dtype(clip(lo, 0.0, None), dt.int64)
    hi_i = dt.in_dtype(clip(hi, 0.0, None), dt.int64)
    return virtual, prev, lo_i, hi_i


def _ordered(lanes: Array, plan: list, n: int) -> Array:
    """lanes with every position the plan reads (the same in every lane, all
    lanes counting n values) and the last one in its sorted place: a
    selection, O(n) per lane, where a sort would be O(n log n). The last
    position holds each lane's largest value, NaN when it has one."""
    d = lanes.dtype
    if lanes.size == 0 or n < 2 or dt.is_narrow(d):
        return sort(lanes, axis=-1)
    ks = {n - 1}
    for _, _, lo_i, hi_i in plan:
        ks.add(int(reshape(lo_i, (-1,))[0]))
        ks.add(int(reshape(hi_i, (-1,))[0]))
    out = Array._empty(lanes.shape, d)
    K.select(lanes, out, lanes.ndim - 1, sorted(ks), False)
    return out


def _take_lane(srt: Array, idx: Optional[Array], take_along_axis) -> Array:
    """srt[..., idx[...]] per lane (idx None: the last element of each lane)."""
    if idx is None:
        return srt[..., -1]
    if srt.shape[-1] == 0:
        return Array._empty(srt.shape[:-1], srt.dtype)
    lay = L.insert_dims(idx._layout, [idx.ndim])
    return take_along_axis(srt, idx._with_layout(lay), axis=-1)[..., 0]


def quantile(x: Array, /, q: Any, axis: Axis = None, *, method: str = "linear",
             keepdims: bool = False) -> Array:
    """Quantiles of x over the given axes.

    Not in the standard: NumPy's quantile. A lane holding NaN gives NaN.

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype. NumPy arrays are accepted too.
    q : float or Array
        Quantile(s) in [0, 1]: a scalar, or a 1-D array whose axis comes first in
        the result.
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis.
    method : {'linear', 'lower', 'higher', 'nearest', 'midpoint'}, optional
        How a quantile between two elements is taken: interpolated ('linear',
        the default), the lower or higher one, the nearest one, or their
        midpoint.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1. Default False.

    Returns
    -------
    Array
        A new array of the reduced shape (with q's axis first for a 1-D q).
        Floating x keeps its dtype; integer x gives float64 for 'linear' and
        'midpoint' and keeps its dtype otherwise.

    Raises
    ------
    ValueError
        If a quantile is outside [0, 1] or method is unknown.

    See Also
    --------
    nanquantile, median

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([1.0, 2.0, 3.0, 5.0])
    >>> xp.quantile(x, 0.5)
    Array(2.5)
    >>> xp.quantile(x, xp.asarray([0.25, 0.75]), method="lower")
    Array([1., 3.])
    """
    return _quantile("quantile", x, q, axis, method, keepdims, skip_nan=False)


def nanquantile(x: Array, /, q: Any, axis: Axis = None, *, method: str = "linear",
                keepdims: bool = False) -> Array:
    """Quantiles of the elements of x that are not NaN.

    Not in the standard: NumPy's nanquantile. An all-NaN lane gives NaN.

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype. NumPy arrays are accepted too.
    q : float or Array
        Quantile(s) in [0, 1]: a scalar, or a 1-D array whose axis comes first in
        the result.
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis.
    method : {'linear', 'lower', 'higher', 'nearest', 'midpoint'}, optional
        How a quantile between two elements is taken: interpolated ('linear',
        the default), the lower or higher one, the nearest one, or their
        midpoint.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1. Default False.

    Returns
    -------
    Array
        A new array of the reduced shape (with q's axis first for a 1-D q).
        Floating x keeps its dtype; integer x gives float64 for 'linear' and
        'midpoint' and keeps its dtype otherwise.

    Raises
    ------
    ValueError
        If a quantile is outside [0, 1] or method is unknown.

    See Also
    --------
    quantile, nanmedian

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.nanquantile(xp.asarray([1.0, xp.nan, 2.0, 3.0, 5.0]), 0.5)
    Array(2.5)
    >>> xp.nanquantile(xp.asarray([1.0, xp.nan, 2.0, 3.0, 5.0]), xp.asarray([0.0, 1.0]))
    Array([1., 5.])
    """
    return _quantile("nanquantile", x, q, axis, method, keepdims, skip_nan=True)


def median(x: Array, /, axis: Axis = None, *, keepdims: bool = False) -> Array:
    """Median of x over the given axes.

    Not in the standard: NumPy's median (the 0.5 quantile, 'linear'). A lane
    holding NaN gives NaN.

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype. NumPy arrays are accepted too.
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1. Default False.

    Returns
    -------
    Array
        A new array of the reduced shape; float64 for integer x.

    See Also
    --------
    quantile, nanmedian

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.median(xp.asarray([3.0, 1.0, 2.0, 10.0]))
    Array(2.5)
    >>> xp.median(xp.asarray([[1.0, 5.0], [3.0, 4.0]]), axis=0)
    Array([2. , 4.5])
    """
    return _quantile("median", x, 0.5, axis, "linear", keepdims, skip_nan=False)


def nanmedian(x: Array, /, axis: Axis = None, *, keepdims: bool = False) -> Array:
    """Median of the elements of x that are not NaN.

    Not in the standard: NumPy's nanmedian. An all-NaN lane gives NaN.

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype. NumPy arrays are accepted too.
    axis : int or tuple of int, optional
        Axis or axes to reduce; None (the default) reduces every axis.
    keepdims : bool, optional
        If True, the reduced axes stay in the result with size 1. Default False.

    Returns
    -------
    Array
        A new array of the reduced shape; float64 for integer x.

    See Also
    --------
    median, nanquantile

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.nanmedian(xp.asarray([1.0, xp.nan, 3.0, 4.0]))
    Array(3.)
    """
    return _quantile("nanmedian", x, 0.5, axis, "linear", keepdims, skip_nan=True)
