"""Beyond the standard: NumPy's nan-reductions, median and quantile, top_k
(the standard's draft), pad and lib.stride_tricks.sliding_window_view, each
against NumPy over dtypes, axes, keepdims, NaN placements, layouts (contiguous,
transposed, stepped, negative strides, broadcast), empty and 0-d inputs."""
from __future__ import annotations

import math

import numpy as np
import pytest

import arrstride as xp
from layouts import DTYPE_NAMES, params, view_of

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

REAL = [d for d in DTYPE_NAMES if not d.startswith("complex")]
REAL_NUMERIC = [d for d in REAL if d != "bool"]
FLOATS = ["float32", "float64", "complex64", "complex128"]
LAYOUTS = ["contiguous", "transposed", "stepped", "negative", "broadcast"]


def base_values(shape, name, seed=0):
    rng = np.random.default_rng(seed)
    nd = np.dtype(name)
    if nd.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if nd.kind == "i":
        return rng.integers(-9, 10, shape).astype(nd)
    if nd.kind == "u":
        return rng.integers(0, 12, shape).astype(nd)
    if nd.kind == "f":
        return (rng.integers(-40, 40, shape) / 8).astype(nd)
    return ((rng.integers(-40, 40, shape) + 1j * rng.integers(-40, 40, shape)) / 8).astype(nd)


def with_nans(n, placement):
    """n with NaNs placed: none, scattered, one all-NaN row, all, first, last."""
    if n.dtype.kind not in "fc" or placement == "none" or n.size == 0:
        return n
    n = n.copy()
    flat = n.reshape(-1)
    if placement == "scattered":
        flat[::3] = np.nan
    elif placement == "row" and n.ndim == 2:
        n[1] = np.nan
    elif placement == "all":
        flat[:] = np.nan
    elif placement == "first":
        flat[0] = np.nan
    elif placement == "last":
        flat[-1] = np.nan
    return n


PLACEMENTS = ["none", "scattered", "row", "all", "first", "last"]


def check(got, expected, name=None, exact_dtype=True, where=""):
    """got equals expected; `where` (the case within a test) goes into failures."""
    assert isinstance(got, xp.Array)
    expected = np.asarray(expected)
    if exact_dtype:
        assert got.dtype == expected.dtype, (got.dtype, expected.dtype, where)
    assert got.shape == expected.shape, (got.shape, expected.shape, where)
    g = np.asarray(got)
    if got.dtype.kind in "fc":
        tol = 2e-5 if got.dtype in (xp.float32, xp.complex64) else 1e-11
        np.testing.assert_allclose(g, expected, rtol=tol, atol=tol, equal_nan=True,
                                   err_msg=str(where))
    else:
        np.testing.assert_array_equal(g, expected, err_msg=str(where))


AXES = [None, 0, 1, -1, (0, 1)]

# ---- nan-reductions ------------------------------------------------------------------------------

NAN_REDUCTIONS = {
    "nansum": (DTYPE_NAMES, {}),
    "nanprod": (DTYPE_NAMES, {}),
    "nanmean": ([d for d in DTYPE_NAMES if d != "bool"], {}),
    "nanvar": ([d for d in DTYPE_NAMES if d != "bool"], {}),
    "nanstd": ([d for d in DTYPE_NAMES if d != "bool"], {}),
    "nanmin": (REAL, {}),
    "nanmax": (REAL, {}),
}
NAN_CASES = [(f, d) for f, (ds, _) in NAN_REDUCTIONS.items() for d in ds]


def _np_nan(fname, n, **kw):
    if fname in ("nanprod",) and n.dtype.kind in "iub":
        return np.prod(n, **kw, dtype=np.uint64 if n.dtype.kind == "u" else np.int64)
    if fname == "nansum" and n.dtype.kind in "iub":
        return np.sum(n, **kw, dtype=np.uint64 if n.dtype.kind == "u" else np.int64)
    return getattr(np, fname)(n, **kw)


@pytest.mark.parametrize("fname, name", NAN_CASES)
@pytest.mark.parametrize("layout", params(LAYOUTS))
def test_nan_reductions(fname, name, layout):
    for placement in (PLACEMENTS if name in FLOATS else ["none"]):
        n0 = with_nans(base_values((4, 5), name), placement)
        a, n = view_of(layout, n0)
        for axis in AXES:
            for keepdims in (False, True):
                expected = _np_nan(fname, n, axis=axis, keepdims=keepdims)
                got = getattr(xp, fname)(a, axis=axis, keepdims=keepdims)
                check(got, expected, where=(placement, axis, keepdims))


@pytest.mark.parametrize("fname", ["nanvar", "nanstd"])
@pytest.mark.parametrize("name", ["float32", "float64", "int16", "complex128"])
@pytest.mark.parametrize("ddof", [0, 1, 2.5, 4, 5])
def test_nanvar_correction_and_ddof(fname, name, ddof):
    n = with_nans(base_values((4, 5), name), "scattered")
    a = xp.asarray(n)
    for axis in (None, 0, 1):
        expected = np.asarray(getattr(np, fname)(n, axis=axis, ddof=ddof))
        # NaN where no degrees of freedom remain (NumPy's nanvar; its var of
        # integers gives inf there, arrstride keeps the standard's NaN)
        count = np.sum(~np.isnan(n) if n.dtype.kind in "fc" else np.ones(n.shape, bool), axis=axis)
        expected = np.where(count - ddof <= 0, np.nan, expected).astype(expected.dtype)
        check(getattr(xp, fname)(a, axis=axis, ddof=ddof), expected)
        check(getattr(xp, fname)(a, axis=axis, correction=ddof), expected)
    with pytest.raises(TypeError, match=fname):
        getattr(xp, fname)(a, correction=1, ddof=1)


@pytest.mark.parametrize("fname", ["nansum", "nanmean"])
def test_nan_reductions_dtype_keyword(fname):
    n = with_nans(base_values((4, 5), "float32"), "scattered")
    got = getattr(xp, fname)(xp.asarray(n), axis=1, dtype=xp.float64)
    check(got, getattr(np, fname)(n, axis=1, dtype=np.float64))


@pytest.mark.parametrize("fname", ["nansum", "nanprod", "nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), ()])
def test_nan_reductions_empty_and_0d(fname, shape):
    n = with_nans(base_values(shape, "float64"), "none")
    a = xp.asarray(n)
    for axis in ([None, 0, -1] if shape else [None]):
        check(getattr(xp, fname)(a, axis=axis), getattr(np, fname)(n, axis=axis))


@pytest.mark.parametrize("fname", ["nanmin", "nanmax"])
def test_nanmin_nanmax_empty_and_complex(fname):
    with pytest.raises(ValueError, match=fname):
        getattr(xp, fname)(xp.zeros((0, 3)))
    with pytest.raises(ValueError):
        getattr(np, fname)(np.zeros((0, 3)))
    check(getattr(xp, fname)(xp.zeros((0, 3)), axis=1), getattr(np, fname)(np.zeros((0, 3)), axis=1))
    with pytest.raises(TypeError, match=fname):
        getattr(xp, fname)(xp.ones(3, dtype=xp.complex128))
    check(getattr(xp, fname)(xp.asarray(2.5)), getattr(np, fname)(np.asarray(2.5)))


@pytest.mark.parametrize("fname", ["nanargmin", "nanargmax"])
@pytest.mark.parametrize("name", REAL)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("layout", params(LAYOUTS))
def test_nanargmin_nanargmax(fname, name, axis, layout):
    for placement in (["none", "scattered", "first", "last"] if name in FLOATS else ["none"]):
        n0 = with_nans(base_values((4, 5), name), placement)
        a, n = view_of(layout, n0)
        for keepdims in (False, True):
            try:
                expected = getattr(np, fname)(n, axis=axis, keepdims=keepdims)
            except ValueError:  # an all-NaN lane (the broadcast layout repeats one)
                with pytest.raises(ValueError, match="All-NaN slice"):
                    getattr(xp, fname)(a, axis=axis, keepdims=keepdims)
                continue
            check(getattr(xp, fname)(a, axis=axis, keepdims=keepdims), expected)


@pytest.mark.parametrize("fname", ["nanargmin", "nanargmax"])
def test_nanargmin_nanargmax_all_nan(fname):
    n = with_nans(base_values((4, 5), "float64"), "row")
    for axis in (None, 0):
        check(getattr(xp, fname)(xp.asarray(n), axis=axis), getattr(np, fname)(n, axis=axis))
    for axis in (1, -1):
        with pytest.raises(ValueError, match="All-NaN slice"):
            getattr(np, fname)(n, axis=axis)
        with pytest.raises(ValueError, match=f"{fname}: All-NaN slice"):
            getattr(xp, fname)(xp.asarray(n), axis=axis)
    with pytest.raises(ValueError, match=fname):
        getattr(xp, fname)(xp.zeros(0))


# ---- median and quantile -----------------------------------------------------------------------

METHODS = ["linear", "lower", "higher", "nearest", "midpoint"]
QS = [0.5, 0.0, 1.0, 0.3, [0.1, 0.5, 0.93], [0.25]]


@pytest.mark.parametrize("name", REAL_NUMERIC)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("layout", params(LAYOUTS))
def test_quantile(name, method, layout):
    a, n = view_of(layout, base_values((4, 5), name))
    for q in QS:
        for axis in AXES:
            for keepdims in (False, True):
                expected = np.quantile(n, q, axis=axis, method=method, keepdims=keepdims)
                got = xp.quantile(a, q, axis=axis, method=method, keepdims=keepdims)
                # NumPy gives float64 for float32 input with an array q; arrstride keeps float32
                check(got, expected, exact_dtype=not (isinstance(q, list) and name == "float32"),
                      where=(q, axis, keepdims))


@pytest.mark.parametrize("name", ["float32", "float64"])
@pytest.mark.parametrize("placement", PLACEMENTS)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("layout", params(LAYOUTS))
def test_quantile_and_nanquantile_with_nans(name, placement, method, layout):
    n0 = with_nans(base_values((4, 5), name), placement)
    a, n = view_of(layout, n0)
    for axis in (None, 0, 1):
        for q in (0.4, [0.0, 0.6, 1.0]):
            ok_dtype = not isinstance(q, list) or name == "float64"
            check(xp.quantile(a, q, axis=axis, method=method),
                  np.quantile(n, q, axis=axis, method=method), exact_dtype=ok_dtype)
            check(xp.nanquantile(a, q, axis=axis, method=method, keepdims=True),
                  np.nanquantile(n, q, axis=axis, method=method, keepdims=True),
                  exact_dtype=ok_dtype)


@pytest.mark.parametrize("name", REAL_NUMERIC)
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("layout", params(LAYOUTS))
def test_median(name, axis, layout):
    for placement in (PLACEMENTS if name in FLOATS else ["none"]):
        n0 = with_nans(base_values((4, 5), name), placement)
        a, n = view_of(layout, n0)
        for keepdims in (False, True):
            check(xp.median(a, axis=axis, keepdims=keepdims),
                  np.median(n, axis=axis, keepdims=keepdims))
            check(xp.nanmedian(a, axis=axis, keepdims=keepdims),
                  np.nanmedian(n, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("name", ["int32", "float32", "float64"])
def test_quantile_of_long_lanes_selects_what_sorting_would(name):
    # long lanes with many ties (and NaN, for floats): the positions a
    # quantile reads are selected, not sorted; every method, q and axis
    rng = np.random.default_rng(5)
    n = rng.integers(-300, 300, (3, 4001)).astype(name)
    if name != "int32":
        n[1, rng.integers(0, 4001, 7)] = np.nan
    a = xp.asarray(n)
    for method in METHODS:
        for q in (0.5, [0.0, 0.013, 0.5, 0.77, 1.0]):
            for axis in (None, 0, 1):
                ok_dtype = not isinstance(q, list) or name != "float32"
                check(xp.quantile(a, q, axis=axis, method=method),
                      np.quantile(n, q, axis=axis, method=method), exact_dtype=ok_dtype,
                      where=(method, q, axis))
    check(xp.median(a, axis=1), np.median(n, axis=1))
    if name != "int32":
        check(xp.nanmedian(a, axis=1), np.nanmedian(n, axis=1))


def test_quantile_q_forms_and_odd_shapes():
    n = base_values((3, 4, 5), "float64")
    a = xp.asarray(n)
    for q in (xp.asarray(0.25), xp.asarray([0.25, 0.75]), np.float64(0.25), np.asarray([0.5, 0.1]),
              (0.2, 0.8)):
        nq = np.asarray(q)
        check(xp.quantile(a, q, axis=(0, 2)), np.quantile(n, nq, axis=(0, 2)))
    check(xp.quantile(a, 0.3, axis=(2, 0), keepdims=True), np.quantile(n, 0.3, axis=(2, 0), keepdims=True))
    check(xp.median(xp.asarray(3.5)), np.median(np.asarray(3.5)))
    check(xp.quantile(xp.zeros((0, 3)), 0.5, axis=1), np.quantile(np.zeros((0, 3)), 0.5, axis=1))
    check(xp.quantile(xp.asarray([math.inf, 1.0]), [0.0, 1.0]), np.quantile([math.inf, 1.0], [0.0, 1.0]))


def test_quantile_errors():
    a = xp.ones((2, 3))
    with pytest.raises(ValueError, match=r"quantile: quantiles must be in the range \[0, 1\]"):
        xp.quantile(a, 1.5)
    with pytest.raises(ValueError, match="quantile"):
        xp.quantile(a, [0.5, -0.1])
    with pytest.raises(ValueError, match="quantile: method"):
        xp.quantile(a, 0.5, method="weibull")
    with pytest.raises(TypeError, match="quantile"):
        xp.quantile(a, "0.5")
    with pytest.raises(ValueError, match="quantile: q must be a scalar or 1-D"):
        xp.quantile(a, xp.ones((2, 2)))
    with pytest.raises(TypeError, match="quantile"):
        xp.quantile(xp.ones(3, dtype=xp.complex64), 0.5)
    with pytest.raises(TypeError, match="median"):
        xp.median(xp.ones(3, dtype=xp.bool))
    with pytest.raises(ValueError, match="median"):
        xp.median(xp.zeros(0))
    with pytest.raises(IndexError, match="axis 2 is out of bounds"):
        xp.median(a, axis=2)


# ---- top_k ---------------------------------------------------------------------------------------

def top_k_reference(n, k, axis, mode):
    """Per lane: values ordered largest (or smallest) first, NaNs after every
    number, equal values lowest index first."""
    if axis is None:
        n, axis = n.reshape(-1), 0
    moved = np.moveaxis(n, axis, -1)
    lanes = moved.reshape(-1, moved.shape[-1])
    idx = np.empty((lanes.shape[0], k), dtype=np.int64)
    for r, lane in enumerate(lanes):
        vals = lane.tolist()
        sign = -1 if mode == "largest" else 1
        order = sorted(range(len(vals)), key=lambda i: (math.isnan(vals[i]) if isinstance(vals[i], float)
                                                        else False,
                                                        0 if isinstance(vals[i], float) and math.isnan(vals[i])
                                                        else sign * vals[i], i))
        idx[r] = order[:k]
    idx = np.moveaxis(idx.reshape(moved.shape[:-1] + (k,)), -1, axis)
    return np.take_along_axis(n, idx, axis=axis), idx


@pytest.mark.parametrize("name", REAL)
@pytest.mark.parametrize("mode", ["largest", "smallest"])
@pytest.mark.parametrize("axis", [-1, 0, 1, None])
@pytest.mark.parametrize("layout", params(LAYOUTS))
def test_top_k(name, mode, axis, layout):
    for placement in (["none", "scattered", "row", "first", "all"] if name in FLOATS else ["none"]):
        n0 = with_nans(base_values((4, 5), name), placement)
        a, n = view_of(layout, n0)
        length = n.size if axis is None else n.shape[axis]
        for k in sorted({0, 1, 3, length}):
            values, indices = top_k_reference(n, k, axis, mode)
            got = xp.top_k(a, k, axis=axis, mode=mode)
            check(got.values, values)
            check(got.indices, indices)
            assert got[0] is got.values and got[1] is got.indices


def test_top_k_default_axis_and_errors():
    n = base_values((3, 6), "float64")
    v, i = xp.top_k(xp.asarray(n), 2)
    ev, ei = top_k_reference(n, 2, -1, "largest")
    check(v, ev)
    check(i, ei)
    check(xp.top_k(xp.asarray(n), np.int64(2), axis=xp.asarray(0))[0], top_k_reference(n, 2, 0, "largest")[0])
    with pytest.raises(ValueError, match="top_k: k must be in"):
        xp.top_k(xp.ones(3), 4)
    with pytest.raises(ValueError, match="top_k: k must be in"):
        xp.top_k(xp.ones(3), -1)
    with pytest.raises(TypeError, match="top_k: k must be an int"):
        xp.top_k(xp.ones(3), 1.0)
    with pytest.raises(ValueError, match="top_k: mode"):
        xp.top_k(xp.ones(3), 1, mode="biggest")
    with pytest.raises(TypeError, match="top_k"):
        xp.top_k(xp.ones(3, dtype=xp.complex64), 1)
    with pytest.raises(ValueError, match="top_k"):
        xp.top_k(xp.asarray(1.0), 1)
    check(xp.top_k(xp.asarray(1.0), 1, axis=None)[0], np.asarray([1.0]))
    with pytest.raises(IndexError, match="axis 2 is out of bounds"):
        xp.top_k(xp.ones((2, 2)), 1, axis=2)


# ---- pad -------------------------------------------------------------------------------------------

PAD_WIDTHS = [0, 2, (1, 2), ((1, 0), (0, 3)), [(2, 2)], ((3,), (1,)), [[0, 1], [1, 0]]]


@pytest.mark.parametrize("name", DTYPE_NAMES)
@pytest.mark.parametrize("width", PAD_WIDTHS, ids=str)
@pytest.mark.parametrize("layout", params(LAYOUTS))
def test_pad(name, width, layout):
    a, n = view_of(layout, base_values((3, 4), name))
    for value in (0, 1, True):
        check(xp.pad(a, width, constant_values=value), np.pad(n, width, constant_values=value))
    if name.startswith("float"):
        check(xp.pad(xp.asarray(n), width, constant_values=np.float32(math.nan)),
              np.pad(n, width, constant_values=math.nan))


def test_pad_shapes_and_errors():
    check(xp.pad(xp.zeros((0, 2)), 1), np.pad(np.zeros((0, 2)), 1))
    check(xp.pad(xp.asarray([1, 2, 3], dtype=xp.int8), (2, 1), mode="constant", constant_values=-5),
          np.pad(np.asarray([1, 2, 3], dtype=np.int8), (2, 1), constant_values=-5))
    check(xp.pad(xp.asarray(2.0), 1), np.pad(np.asarray(2.0), 1))
    with pytest.raises(ValueError, match="pad: only mode='constant'"):
        xp.pad(xp.ones(3), 1, mode="edge")
    with pytest.raises(ValueError, match="pad: pad widths must be non-negative"):
        xp.pad(xp.ones(3), -1)
    with pytest.raises(ValueError, match="pad: pad_width needs one pair per axis"):
        xp.pad(xp.ones((2, 2)), ((1, 1), (1, 1), (1, 1)))
    with pytest.raises(TypeError, match="pad: pad_width"):
        xp.pad(xp.ones(3), 1.5)
    with pytest.raises(TypeError, match="pad: constant_values"):
        xp.pad(xp.ones(3), 1, constant_values="a")
    with pytest.raises(OverflowError, match="pad"):
        xp.pad(xp.ones(3, dtype=xp.uint8), 1, constant_values=-1)


# ---- lib.stride_tricks.sliding_window_view ----------------------------------------------------------

@pytest.mark.parametrize("name", ["float64", "int16", "bool", "complex64"])
@pytest.mark.parametrize("window, axis", [(2, None), ((2, 3), None), (3, 1), (2, -2),
                                          ((2, 1), (1, 0)), ((2, 2), (0, 0)), (0, 0), (4, 0)])
@pytest.mark.parametrize("layout", params(LAYOUTS))
def test_sliding_window_view(name, window, axis, layout):
    swv = np.lib.stride_tricks.sliding_window_view
    if axis is None and not isinstance(window, tuple):
        window = (window, window)
    a, n = view_of(layout, base_values((4, 5), name))
    got = xp.lib.stride_tricks.sliding_window_view(a, window, axis=axis)
    check(got, swv(n, window, axis=axis))
    assert got.storage.address == a.storage.address and got.storage.readonly  # a read-only view
    axes = range(a.ndim) if axis is None else np.atleast_1d(axis) % a.ndim
    ws = window if isinstance(window, tuple) else (window,)
    if got.size and any(got.shape[ax] > 1 and w > 1 for ax, w in zip(axes, ws)):
        with pytest.raises(ValueError):  # windows overlap
            got[...] = 0


def test_sliding_window_view_errors():
    swv = xp.lib.stride_tricks.sliding_window_view
    with pytest.raises(ValueError, match="sliding_window_view: window_shape cannot be larger"):
        swv(xp.ones(3), 4)
    with pytest.raises(ValueError, match="sliding_window_view: window_shape needs one entry per axis"):
        swv(xp.ones((3, 3)), 2)
    with pytest.raises(ValueError, match="sliding_window_view"):
        swv(xp.ones(3), 2, writeable=True)
    with pytest.raises(TypeError, match="sliding_window_view"):
        swv(xp.ones(3), 2.0)
