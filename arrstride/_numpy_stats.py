"""NumPy's counting and covariance functions that PyTorch has too: bincount,
histogram, histogramdd, cov, corrcoef, with NumPy's signatures and results.
bincount and the equal-width histogram run in C (native/src/count.c); the
rest is built from arrstride's own functions."""
from __future__ import annotations

import builtins
import math
import warnings
from typing import Any, Optional, Sequence, Tuple

from . import _dtypes as dt
from . import _kernels as K
from ._array import Array, check_array
from ._creation_functions import arange, asarray, empty, linspace, zeros
from ._data_type_functions import astype
from ._elementwise_functions import (
    add, conj, divide, equal, greater_equal, isfinite, less_equal, logical_and, multiply, sqrt,
    subtract, clip,
    real, imag, where,
)
from ._errors import type_error, value_error
from ._linear_algebra_functions import matmul
from ._manipulation_functions import concat, reshape, squeeze
from ._searching_functions import searchsorted
from ._sorting_functions import argsort, sort
from ._statistical_functions import cumulative_sum, max, mean, min, std, sum
from ._utility_functions import all, any, diff
from ._views import diagonal


def _lane(func: str, x: Any, name: str, dtype: dt.DType) -> Array:
    """x as a 1-D array of dtype (a view when it already is one)."""
    x = check_array(func, x, name)
    if x.ndim != 1:
        raise value_error(func, f"{name} must be 1-D", f"shape {x.shape}")
    return x if x.dtype == dtype else astype(x, dtype)


def bincount(x: Array, /, weights: Optional[Array] = None, minlength: int = 0) -> Array:
    """Number of occurrences of each value in a 1-D array of non-negative integers.

    Not in the standard: NumPy's bincount (its RFC is data-apis/array-api#812).

    Parameters
    ----------
    x : Array
        1-D array of non-negative integers (or bools). NumPy arrays are accepted too.
    weights : Array, optional
        1-D array of x's length: each value counts its weight instead of one.
    minlength : int, optional
        Minimum length of the result; default 0.

    Returns
    -------
    Array
        A new 1-D array of length max(max(x) + 1, minlength): int64 counts, or
        float64 sums of weights.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.bincount(xp.asarray([0, 1, 1, 3]))
    Array([1, 2, 0, 1])
    >>> xp.bincount(xp.asarray([0, 1, 1]), weights=xp.asarray([0.5, 1.0, 2.0]))
    Array([0.5, 3. ])
    """
    func = "bincount"
    x = check_array(func, x)
    if x.ndim != 1:
        raise value_error(func, "x must be 1-D", f"shape {x.shape}")
    if x.dtype.kind not in "biu":
        raise type_error(func, "x must hold integers (or bools)", f"dtype {x.dtype}")
    if isinstance(minlength, type(True)) or not isinstance(minlength, int):
        raise type_error(func, "minlength must be an int", repr(minlength))
    if minlength < 0:
        raise value_error(func, "minlength must not be negative", minlength)
    x = x if x.dtype == dt.int64 else astype(x, dt.int64)
    w = None
    if weights is not None:
        w = _lane(func, weights, "weights", dt.float64)
        if w.shape != x.shape:
            raise value_error(func, "weights must have x's shape", f"{w.shape} and {x.shape}")
    if x.size == 0:
        return zeros((minlength,), dtype=dt.int64)
    lo, hi = K.int64_range(x)
    if x.size and lo < 0:
        raise value_error(func, "x must not hold negative values", f"minimum {lo}")
    n = builtins.max(hi + 1 if x.size else 0, minlength)
    out = empty((n,), dtype=dt.int64 if w is None else dt.float64)
    if not K.bincount(x, w, out):
        raise RuntimeError("arrstride: bincount: a value moved while it was counted")
    return out


def _float_lane(func: str, a: Array) -> Array:
    flat = reshape(a, (-1,))
    if flat.dtype.kind == "c":
        raise type_error(func, "a must be real", f"dtype {a.dtype}")
    return flat if flat.dtype == dt.float64 else astype(flat, dt.float64)


def _outer_edges(func: str, a: Array, rng: Any) -> Tuple[float, float]:
    if rng is not None:
        try:
            first, last = (float(v) for v in rng)
        except (TypeError, ValueError):
            raise type_error(func, "range must be a pair of numbers", repr(rng)) from None
        if first > last:
            raise value_error(func, "max must be larger than min in range", repr(rng))
        if not (first - first == 0 and last - last == 0):
            raise value_error(func, "range must be finite", repr(rng))
    elif a.size == 0:
        first, last = 0.0, 1.0
    else:
        first, last = float(min(a)), float(max(a))
        if not (first - first == 0 and last - last == 0):
            raise value_error(func, "autodetected range must be finite", f"[{first}, {last}]")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


def _equal_edges(func: str, a: Array, rng: Any, bins: int) -> Array:
    """NumPy's bins + 1 equal-width edges: linspace in float64, except that
    a narrower float array without a range computes them in its own dtype (NumPy
    takes the ends from a.min() and a.max(), scalars of a's dtype)."""
    first, last = _outer_edges(func, a, rng)
    dtype = a.dtype if a.dtype.kind == "f" else dt.float64
    if dtype == dt.float64 or rng is not None or a.size == 0 or first != float(min(a)) \
            or last != float(max(a)):
        return linspace(first, last, bins + 1, dtype=dtype)
    start = asarray(first, dtype=dtype)
    step = divide(subtract(asarray(last, dtype=dtype), start), asarray(float(bins), dtype=dtype))
    edges = add(multiply(arange(bins + 1, dtype=dtype), step), start)
    edges[-1] = last
    return edges


# ---- bin-width estimators (NumPy's formulas, numpy/lib/_histograms_impl.py) ----------
# Each takes the flat, non-empty data (trimmed to the range) and the outer edges,
# and returns a bin width (0 when it cannot tell).

def _stat_lane(x: Array) -> Array:
    """x in a float dtype for the moments and quantiles (integers in float64, as
    NumPy computes them)."""
    return x if x.dtype.kind == "f" else astype(x, dt.float64)


def _ptp(x: Array) -> float:
    if x.dtype.kind in "biu":  # exact, as NumPy's unsigned difference
        return float(int(max(x)) - int(min(x)))
    return float(subtract(max(x), min(x)))


def _bin_sqrt(x: Array, edges) -> float:
    return _ptp(x) / math.sqrt(x.size)


def _bin_sturges(x: Array, edges) -> float:
    return _ptp(x) / (math.log2(x.size) + 1.0)


def _bin_rice(x: Array, edges) -> float:
    return _ptp(x) / (2.0 * x.size ** (1.0 / 3))


def _bin_scott(x: Array, edges) -> float:
    return (24.0 * math.pi ** 0.5 / x.size) ** (1.0 / 3.0) * float(std(_stat_lane(x)))


def _bin_stone(x: Array, edges) -> float:
    """The width that minimises the cross-validated integrated squared error
    over 1 .. max(100, sqrt(n)) equal bins."""
    n = x.size
    ptp = _ptp(x)
    if n <= 1 or ptp == 0:
        return 0.0
    x64 = x if x.dtype == dt.float64 else astype(x, dt.float64)
    e0, e1 = float(edges[0]), float(edges[1])

    def jhat(nbins: int) -> float:
        e = linspace(e0, e1, nbins + 1, dtype=dt.float64)
        counts = empty((nbins,), dtype=dt.int64)
        K.histogram(x64, None, e, counts)
        p = divide(astype(counts, dt.float64), float(n))
        return (2 - (n + 1) * float(sum(multiply(p, p)))) / (ptp / nbins)

    upper = builtins.max(100, int(math.sqrt(n)))
    nbins = builtins.min(builtins.range(1, upper + 1), key=jhat)
    if nbins == upper:
        warnings.warn("histogram: the number of bins estimated may be suboptimal",
                      RuntimeWarning, stacklevel=4)
    return ptp / nbins


def _bin_doane(x: Array, edges) -> float:
    n = x.size
    if n > 2:
        sg1 = math.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
        xf = _stat_lane(x)
        sigma = float(std(xf))
        if sigma > 0.0:
            t = divide(subtract(xf, mean(xf)), sigma)
            g1 = float(mean(multiply(multiply(t, t), t)))
            return _ptp(x) / (1.0 + math.log2(n) + math.log2(1.0 + abs(g1) / sg1))
    return 0.0


def _bin_fd(x: Array, edges) -> float:
    from ._quantile import quantile
    q = quantile(_stat_lane(x), asarray([0.75, 0.25], dtype=dt.float64))
    return 2.0 * float(q[0] - q[1]) * x.size ** (-1.0 / 3.0)


def _bin_auto(x: Array, edges) -> float:
    """The smaller of Sturges' width and Freedman-Diaconis' (at least half the
    square-root rule's)."""
    fd = _bin_fd(x, edges)
    return builtins.min(builtins.max(fd, _bin_sqrt(x, edges) / 2), _bin_sturges(x, edges))


_ESTIMATORS = {"auto": _bin_auto, "doane": _bin_doane, "fd": _bin_fd, "rice": _bin_rice,
               "scott": _bin_scott, "sqrt": _bin_sqrt, "stone": _bin_stone,
               "sturges": _bin_sturges}


def _estimated_bins(func: str, a: Array, name: str, rng: Any, weighted: bool) -> int:
    """The number of equal bins the estimator `name` picks for a (NumPy's
    rule: the range over the width, rounded up; 1 when the width is 0)."""
    if name not in _ESTIMATORS:
        raise value_error(func, "bins as a string must name an estimator ("
                          + ", ".join(repr(k) for k in _ESTIMATORS) + ")", repr(name))
    if weighted:
        raise type_error(func, "a bins estimator does not take weights", repr(name))
    first, last = _outer_edges(func, a, rng)
    x = reshape(a, (-1,))
    if rng is not None and x.size:
        keep = logical_and(greater_equal(x, first), less_equal(x, last))
        if not bool(all(keep)):
            x = x[keep]
    if x.size == 0:
        return 1
    width = _ESTIMATORS[name](x, (first, last))
    if not width:
        return 1
    if x.dtype.kind in "biu" and width < 1:
        width = 1
    return int(math.ceil((last - first) / width))


def _bin_edges(func: str, a: Array, bins: Any, rng: Any, weighted: bool) -> Tuple[Array, bool]:
    """The bin edges histogram uses, and whether they are equal-width."""
    if isinstance(bins, str):
        bins = _estimated_bins(func, a, bins, rng, weighted)
    if isinstance(bins, int) and not isinstance(bins, type(True)):
        if bins < 1:
            raise value_error(func, "bins must be a positive int", bins)
        return _equal_edges(func, a, rng, bins), True
    edges = check_array(func, bins if isinstance(bins, Array) else asarray(bins), "bins")
    if edges.ndim != 1 or edges.shape[0] < 2:
        raise value_error(func, "bins must be an int, an estimator's name or a 1-D array of "
                          "at least 2 edges", f"shape {edges.shape}")
    if edges.dtype.kind not in "iuf":
        raise type_error(func, "bin edges must be real", f"dtype {edges.dtype}")
    if not bool(all(less_equal(edges[:-1], edges[1:]))):
        raise value_error(func, "bins must increase monotonically", None)
    return edges, False


def histogram_bin_edges(a: Array, /, bins: Any = 10, range: Optional[Tuple[float, float]] = None,
                        weights: Optional[Array] = None) -> Array:
    """The bin edges histogram would use.

    Not in the standard: NumPy's histogram_bin_edges.

    Parameters
    ----------
    a : Array
        Input data of a real dtype, flattened. NumPy arrays are accepted too.
    bins : int, str or Array, optional
        Number of equal-width bins (default 10); the name of a bin-width
        estimator ('auto', 'fd', 'doane', 'scott', 'stone', 'rice', 'sturges',
        'sqrt', with NumPy's formulas); or the increasing bin edges, returned
        as they are.
    range : tuple of float, optional
        (min, max) of the equal-width bins; default a's minimum and maximum.
        An estimator sees only the values inside it.
    weights : Array, optional
        Array of a's shape; refused with an estimator (as NumPy does), unused
        otherwise.

    Returns
    -------
    Array
        The bin edges (float64, or a's float dtype).

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.histogram_bin_edges(xp.asarray([0.0, 1.0, 2.0, 3.0]), bins=3)
    Array([0., 1., 2., 3.])
    >>> xp.histogram_bin_edges(xp.asarray([0.0, 1.0, 2.0, 3.0]), bins="sturges")
    Array([0., 1., 2., 3.])
    """
    func = "histogram_bin_edges"
    a = check_array(func, a, "a")
    if a.dtype.kind == "c":
        raise type_error(func, "a must be real", f"dtype {a.dtype}")
    if weights is not None:
        wa = check_array(func, weights, "weights")
        if wa.shape != a.shape:
            raise value_error(func, "weights must have a's shape", f"{wa.shape} and {a.shape}")
    return _bin_edges(func, a, bins, range, weights is not None)[0]


def histogram(a: Array, /, bins: Any = 10, range: Optional[Tuple[float, float]] = None,
              density: Optional[bool] = None, weights: Optional[Array] = None) -> Tuple[Array, Array]:
    """Histogram of the values of an array.

    Not in the standard: NumPy's histogram. Equal-width bins (an int bins, or
    an estimator's name) are counted in one pass in C; given edges are found by
    sorting.

    Parameters
    ----------
    a : Array
        Input data of a real dtype, flattened. NumPy arrays are accepted too.
    bins : int, str or Array, optional
        Number of equal-width bins (default 10); the name of a bin-width
        estimator ('auto', 'fd', 'doane', 'scott', 'stone', 'rice', 'sturges',
        'sqrt': NumPy's formulas, see histogram_bin_edges); or the increasing
        bin edges, the last bin including its right edge.
    range : tuple of float, optional
        (min, max) of the equal-width bins; default a's minimum and maximum.
        Values outside are not counted.
    density : bool, optional
        Return the probability density (each count divided by the total and by
        its bin's width) instead of counts; default False.
    weights : Array, optional
        Array of a's shape: each value counts its weight instead of one.

    Returns
    -------
    hist : Array
        The counts (int64), or float64 sums of weights or densities.
    bin_edges : Array
        The len(hist) + 1 bin edges (float64, or a's float dtype).

    Examples
    --------
    >>> import arrstride as xp
    >>> hist, edges = xp.histogram(xp.asarray([1.0, 2.0, 1.0, 4.0]), bins=3)
    >>> hist
    Array([2, 1, 1])
    >>> edges
    Array([1., 2., 3., 4.])
    """
    func = "histogram"
    a = check_array(func, a, "a")
    if a.dtype.kind == "c":
        raise type_error(func, "a must be real", f"dtype {a.dtype}")
    x = _float_lane(func, a)
    w = None
    if weights is not None:
        wa = check_array(func, weights, "weights")
        if wa.shape != a.shape:
            raise value_error(func, "weights must have a's shape", f"{wa.shape} and {a.shape}")
        w = _float_lane(func, wa)
    edges, equal = _bin_edges(func, a, bins, range, w is not None)
    if equal:
        e64 = edges if edges.dtype == dt.float64 else astype(edges, dt.float64)
        hist = empty((edges.shape[0] - 1,), dtype=dt.int64 if w is None else dt.float64)
        K.histogram(x, w, e64, hist)
    else:
        hist = _counts_by_edges(x, w, astype(edges, dt.float64))
    if density:
        widths = diff(astype(edges, dt.float64))
        hist = divide(divide(astype(hist, dt.float64), widths), sum(hist))
    return hist, edges


def _counts_by_edges(x: Array, w: Optional[Array], edges: Array) -> Array:
    """NumPy's counting for given edges: sort, then search each edge."""
    order = argsort(x) if w is not None else None
    sx = sort(x) if w is None else x[order]
    left = searchsorted(sx, edges[:-1], side="left")
    right = searchsorted(sx, edges[-1:], side="right")
    idx = concat([left, right])
    if w is None:
        return diff(idx)
    cw = concat([zeros((1,), dtype=dt.float64), cumulative_sum(w[order])])
    return diff(cw[idx])


def histogramdd(sample: Array, /, bins: Any = 10, range: Optional[Sequence[Any]] = None,
                density: Optional[bool] = None,
                weights: Optional[Array] = None) -> Tuple[Array, Tuple[Array, ...]]:
    """Multidimensional histogram of points.

    Not in the standard: NumPy's histogramdd, built on searchsorted and bincount.

    Parameters
    ----------
    sample : Array
        (N, D) array of N points in D dimensions (a 1-D array is N points in
        one dimension). NumPy arrays are accepted too.
    bins : int or sequence, optional
        Number of equal-width bins for every dimension (default 10), or one
        entry per dimension: an int or the increasing bin edges.
    range : sequence, optional
        One (min, max) pair (or None) per dimension for the equal-width bins.
    density : bool, optional
        Return the probability density instead of counts; default False.
    weights : Array, optional
        1-D array of N weights.

    Returns
    -------
    hist : Array
        A new float64 array of D dimensions, one per bin count.
    edges : tuple of Array
        The bin edges of each dimension.

    Examples
    --------
    >>> import arrstride as xp
    >>> pts = xp.asarray([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]])
    >>> hist, edges = xp.histogramdd(pts, bins=2)
    >>> hist
    Array([[1., 0.],
           [1., 1.]])
    """
    func = "histogramdd"
    sample = check_array(func, sample, "sample")
    if sample.ndim == 1:
        sample = reshape(sample, (-1, 1))
    if sample.ndim != 2:
        raise value_error(func, "sample must be (N, D)", f"shape {sample.shape}")
    if sample.dtype.kind == "c":
        raise type_error(func, "sample must be real", f"dtype {sample.dtype}")
    n, d = sample.shape
    if isinstance(bins, (list, tuple)):
        if len(bins) != d:
            raise value_error(func, "bins must have one entry per dimension of sample",
                              f"{len(bins)} for {d} dimensions")
        per_dim = list(bins)
    else:
        per_dim = [bins] * d
    if range is None:
        range = [None] * d
    elif len(range) != d:
        raise value_error(func, "range must have one entry per dimension of sample",
                          f"{len(range)} for {d} dimensions")
    w = None
    if weights is not None:
        w = _lane(func, weights, "weights", dt.float64)
        if w.shape[0] != n:
            raise value_error(func, "weights must have one entry per point", f"{w.shape[0]} for {n}")
    edges = []
    flat = zeros((n,), dtype=dt.int64)
    nbin = []
    for i, b in enumerate(per_dim):
        col = sample[:, i]
        if isinstance(b, int) and not isinstance(b, type(True)):
            if b < 1:
                raise value_error(func, f"bins[{i}] must be a positive int", b)
            e = _equal_edges(func, col, range[i], b)
        else:
            e = check_array(func, b if isinstance(b, Array) else asarray(b), "bins")
            if e.ndim != 1 or e.shape[0] < 2 or not bool(all(less_equal(e[:-1], e[1:]))):
                raise value_error(func, f"bins[{i}] must increase monotonically", None)
        edges.append(e)
        e64 = astype(e, dt.float64)
        c64 = astype(col, dt.float64)
        idx = searchsorted(e64, c64, side="right")
        idx = where(equal(c64, e64[-1]), idx - 1, idx)
        m = e.shape[0] + 1
        nbin.append(m)
        flat = flat * m + idx
    total = 1
    for m in nbin:
        total *= m
    hist = bincount(flat, weights=w, minlength=total)
    hist = reshape(astype(hist, dt.float64), tuple(nbin))
    hist = hist[tuple(slice(1, -1) for _ in nbin)]
    if density:
        s = sum(hist)
        for i, e in enumerate(edges):
            shape = [1] * d
            shape[i] = e.shape[0] - 1
            hist = divide(hist, reshape(diff(astype(e, dt.float64)), tuple(shape)))
        hist = divide(hist, s)
    return hist, tuple(edges)


def _as_obs(func: str, m: Any, rowvar: bool, name: str) -> Array:
    m = check_array(func, m, name)
    if m.ndim > 2:
        raise value_error(func, f"{name} has more than 2 dimensions", f"shape {m.shape}")
    if m.ndim < 2:
        m = reshape(m, (1, -1))
    if not rowvar and m.shape[0] != 1:
        m = m.T
    return m


def cov(m: Array, y: Optional[Array] = None, rowvar: bool = True, bias: bool = False,
        ddof: Optional[int] = None, fweights: Optional[Array] = None,
        aweights: Optional[Array] = None, *, dtype: Optional[dt.DType] = None) -> Array:
    """Covariance matrix of variables observed together.

    Not in the standard: NumPy's cov. The centred data's product goes through
    matmul (BLAS).

    Parameters
    ----------
    m : Array
        1-D or 2-D array: each row a variable, each column an observation
        (transposed with rowvar=False). NumPy arrays are accepted too.
    y : Array, optional
        More variables, in m's form.
    rowvar : bool, optional
        True (the default): rows are variables; False: columns are.
    bias : bool, optional
        Normalise by N instead of N - 1; default False.
    ddof : int, optional
        Normalise by N - ddof; overrides bias.
    fweights : Array, optional
        1-D integer frequency weights, one per observation.
    aweights : Array, optional
        1-D observation weights, one per observation.
    dtype : DType, optional
        Data type of the result; default at least float64.

    Returns
    -------
    Array
        The (V, V) covariance matrix, or a 0-d array for one variable.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.cov(xp.asarray([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
    Array([[ 1., -1.],
           [-1.,  1.]])
    """
    func = "cov"
    if ddof is not None and (isinstance(ddof, type(True)) or not isinstance(ddof, int)):
        raise type_error(func, "ddof must be an int", repr(ddof))
    x = _as_obs(func, m, rowvar, "m")
    if dtype is None:
        dtype = dt.promote(x.dtype, dt.float64) if x.dtype.kind != "b" else dt.float64
        if y is not None:
            yy = check_array(func, y, "y")
            dtype = dt.promote(dtype, yy.dtype if yy.dtype.kind != "b" else dt.float64)
    else:
        dtype = dt.as_dtype(func, dtype)
    if y is not None:
        yv = _as_obs(func, y, rowvar, "y")
        if yv.shape[1] != x.shape[1]:
            raise value_error(func, "m and y must have the same number of observations",
                              f"{x.shape[1]} and {yv.shape[1]}")
        x = concat([astype(x, dtype), astype(yv, dtype)], axis=0)
    x = astype(x, dtype, copy=False)
    if x.shape[0] == 0:
        return zeros((0, 0), dtype=dt.float64)
    if ddof is None:
        ddof = 0 if bias else 1
    nobs = x.shape[1]
    w = None
    if fweights is not None:
        fw = check_array(func, fweights, "fweights")
        if fw.ndim != 1 or fw.shape[0] != nobs:
            raise value_error(func, "fweights must be 1-D with one entry per observation",
                              f"shape {fw.shape}")
        if fw.dtype.kind not in "iub":
            raise type_error(func, "fweights must be integers", f"dtype {fw.dtype}")
        if bool(any(fw < 0)):
            raise value_error(func, "fweights cannot be negative", None)
        w = astype(fw, dt.float64)
    if aweights is not None:
        aw = check_array(func, aweights, "aweights")
        if aw.ndim != 1 or aw.shape[0] != nobs:
            raise value_error(func, "aweights must be 1-D with one entry per observation",
                              f"shape {aw.shape}")
        if bool(any(aw < 0)):
            raise value_error(func, "aweights cannot be negative", None)
        aw = astype(aw, dt.float64)
        w = aw if w is None else multiply(w, aw)
    if w is None:
        fact = float(nobs - ddof)
        avg = divide(sum(x, axis=1, keepdims=True), float(nobs)) if nobs else sum(x, axis=1, keepdims=True)
        xc = subtract(x, avg)
    else:
        wsum = float(sum(w))
        avg = divide(matmul(x, astype(w, dtype)), wsum)
        xc = subtract(x, reshape(avg, (-1, 1)))
        if ddof == 0:
            fact = wsum
        elif aweights is None:
            fact = wsum - ddof
        else:
            fact = wsum - ddof * float(sum(multiply(w, aw))) / wsum
    if fact <= 0:
        fact = 0.0
    xw = xc if w is None else multiply(xc, astype(w, dtype))
    c = matmul(xw, conj(xc).T) if x.dtype.kind == "c" else matmul(xw, xc.T)
    c = multiply(c, 1.0 / fact if fact else float("inf"))
    return squeeze(c, axis=tuple(i for i, n in enumerate(c.shape) if n == 1))


def corrcoef(x: Array, y: Optional[Array] = None, rowvar: bool = True, *,
             dtype: Optional[dt.DType] = None) -> Array:
    """Pearson correlation coefficients of variables observed together.

    Not in the standard: NumPy's corrcoef, the covariance matrix of cov scaled
    by the standard deviations and clipped to [-1, 1].

    Parameters
    ----------
    x : Array
        1-D or 2-D array: each row a variable, each column an observation
        (transposed with rowvar=False). NumPy arrays are accepted too.
    y : Array, optional
        More variables, in x's form.
    rowvar : bool, optional
        True (the default): rows are variables; False: columns are.
    dtype : DType, optional
        Data type of the result; default at least float64.

    Returns
    -------
    Array
        The (V, V) correlation matrix, or a 0-d array for one variable.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.corrcoef(xp.asarray([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
    Array([[ 1., -1.],
           [-1.,  1.]])
    """
    c = cov(check_array("corrcoef", x), y if y is None else check_array("corrcoef", y, "y"),
            rowvar, dtype=dtype)
    if c.ndim == 0:
        return divide(c, c)
    d = diagonal(c)
    if c.dtype.kind == "c":
        d = real(d)
    sd = sqrt(d)
    c = divide(divide(c, reshape(sd, (-1, 1))), reshape(sd, (1, -1)))
    if c.dtype.kind == "c":
        re = astype(clip(real(c), -1.0, 1.0), c.dtype)
        return add(re, multiply(astype(clip(imag(c), -1.0, 1.0), c.dtype), 1j))
    return clip(c, -1.0, 1.0)
