import math
import warnings

import numpy as np
import pytest

import arrstride as xp
from conftest import to_numpy as to_np
from layouts import DTYPE_NAMES as DTYPES, REAL_NAMES as REAL
from layouts import ALL as ALL_LAYOUTS, EXTRA, SHAPED, make, params, random_values as values, view_of

AXES = [None, 0, 1, -1, (0, 2), ()]


def close(got, want, dtype):
    got = to_np(got)
    assert got.shape == want.shape
    kind = np.dtype(dtype).kind
    if kind in "fc":
        tol = 1e-4 if dtype in ("float32", "complex64") else 1e-10
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("func", ["sum", "prod"])
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_sum_prod(func, dtype, layout):
    rng = np.random.default_rng(1)
    xa, na = view_of(layout, values((3, 4, 5), dtype, rng, lo=-3, hi=4))
    for axis in AXES:
        for keepdims in (False, True):
            got = getattr(xp, func)(xa, axis=axis, keepdims=keepdims)
            want = getattr(np, func)(na, axis=axis, keepdims=keepdims)
            assert got.dtype.name == want.dtype.name, (layout, axis)
            close(got, want, dtype)


def test_sum_dtype_argument():
    a = np.arange(200, dtype=np.int8)
    x = xp.asarray(a)
    assert xp.sum(x, dtype=xp.int8)._item() == a.sum(dtype=np.int8)
    assert xp.sum(x, dtype=xp.float32).dtype == xp.float32
    assert xp.sum(xp.asarray([1.5, 2.5]), dtype=xp.complex128).dtype == xp.complex128
    assert xp.sum(xp.asarray(np.arange(5, dtype=np.uint8))).dtype == xp.uint64
    assert xp.sum(xp.asarray([True, True])).dtype == xp.int64


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("func", ["min", "max"])
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_min_max(func, dtype, layout):
    rng = np.random.default_rng(2)
    xa, na = view_of(layout, values((3, 4, 5), dtype, rng))
    for axis in AXES:
        got = getattr(xp, func)(xa, axis=axis, keepdims=True)
        close(got, getattr(np, func)(na, axis=axis, keepdims=True), dtype)


def test_min_max_nan_and_empty():
    a = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, -np.inf]])
    x = xp.asarray(a)
    for f in ("min", "max"):
        np.testing.assert_array_equal(to_np(getattr(xp, f)(x, axis=1)), getattr(np, f)(a, axis=1))
        assert math.isnan(getattr(xp, f)(x)._item())
        with pytest.raises(ValueError, match=f"{f}: zero-size"):
            getattr(xp, f)(xp.zeros((0, 3)), axis=0)
        assert getattr(xp, f)(xp.zeros((0, 3)), axis=1).shape == (0,)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int32"])
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_mean_var_std(dtype, layout):
    rng = np.random.default_rng(3)
    xa, na = view_of(layout, values((3, 4, 5), dtype, rng))
    for axis in AXES:
        for corr in (0, 1, 1.5):
            got = xp.var(xa, axis=axis, correction=corr)
            n = na.size if axis is None else int(np.prod([na.shape[a] for a in np.atleast_1d(axis)]))
            if n - corr <= 0:
                assert np.all(np.isnan(to_np(got)))
                continue
            want = np.var(na, axis=axis, ddof=corr)
            if dtype == "int32":
                want = want.astype(np.float64)
            close(got, want.astype(got.dtype.name), dtype if dtype != "int32" else "float64")
            close(xp.std(xa, axis=axis, correction=corr),
                  np.std(na, axis=axis, ddof=corr).astype(got.dtype.name),
                  dtype if dtype != "int32" else "float64")
        want = np.mean(na, axis=axis, keepdims=True)
        got = xp.mean(xa, axis=axis, keepdims=True)
        assert got.dtype.name == (want.dtype.name if dtype != "int32" else "float64")
        close(got, want, dtype if dtype != "int32" else "float64")


def _large_mean(shape, dtype, seed):
    """1e6 + noise (1e3 + noise for float32): the naive sum-of-squares formula
    loses every digit of the variance on such values."""
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return (v + (1e3 if dtype in ("float32", "complex64") else 1e6)).astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("layout", params(ALL_LAYOUTS))
def test_var_std_every_layout(dtype, layout):
    """Runs longer than a block (so that blocks merge) along either axis, in
    every layout, the shape-changing ones too (empty: NaN; 0-d: 0)."""
    for shape in ((5, 1100), (1100, 5)):
        a, n = make(layout, shape, dtype, values=_large_mean)
        wide = n.astype("complex128" if dtype.startswith("complex") else "float64")
        for axis in (None, 0, -1, (0, 1))[: 1 if n.ndim == 0 else 4]:
            for corr in (0, 1):
                with warnings.catch_warnings():  # NumPy warns of ddof >= n
                    warnings.simplefilter("ignore", RuntimeWarning)
                    want_v = np.var(wide, axis=axis, ddof=corr)
                got_v = to_np(xp.var(a, axis=axis, correction=corr))
                got_s = to_np(xp.std(a, axis=axis, correction=corr, keepdims=True))
                real = "float32" if dtype == "float32" else "float64"
                assert got_v.dtype == real and got_s.dtype == real
                rtol = 1e-5 if dtype == "float32" else 1e-12
                # (atol: repeated values, whose variance is 0, give NumPy rounding noise)
                np.testing.assert_allclose(got_v, want_v, rtol=rtol, atol=rtol, err_msg=f"{layout} {axis}")
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    want_s = np.std(wide, axis=axis, ddof=corr, keepdims=True)
                np.testing.assert_allclose(got_s, want_s, rtol=rtol, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_var_std_narrow_floats(dtype):
    """Narrow floats are read as they are and accumulate in float64: the
    results equal those of the float32 values, rounded to the dtype."""
    rng = np.random.default_rng(6)
    v = (rng.standard_normal((700, 9)) * 3 + 10).astype("float32")
    x = xp.astype(xp.asarray(v), getattr(xp, dtype))
    v32 = to_np(xp.astype(x, xp.float32))
    for axis in (None, 0, 1):
        for f in ("var", "std"):
            got = getattr(xp, f)(x, axis=axis)
            assert got.dtype == getattr(xp, dtype)
            want = getattr(xp, f)(xp.asarray(v32), axis=axis)
            np.testing.assert_array_equal(to_np(xp.astype(got, xp.float32)),
                                          to_np(xp.astype(xp.astype(want, getattr(xp, dtype)), xp.float32)))
            np.testing.assert_allclose(to_np(xp.astype(got, xp.float32)),
                                       getattr(np, f)(v32.astype("float64"), axis=axis),
                                       rtol=1e-2 if dtype == "bfloat16" else 2e-3)


def test_var_of_large_mean_matches_numpy_tightly():
    rng = np.random.default_rng(7)
    a = 1e8 + rng.standard_normal((1201, 1103))
    x = xp.asarray(a)
    for axis in (None, 0, 1):
        np.testing.assert_allclose(to_np(xp.var(x, axis=axis)), np.var(a, axis=axis), rtol=1e-12)
        np.testing.assert_allclose(to_np(xp.std(x.T, axis=axis)), np.std(a.T, axis=axis), rtol=1e-12)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_var_and_std_of_a_nan_or_inf_are_nan(bad):
    # the first element a result sees is its shift: alone, or first of many,
    # a NaN or infinity must still make the result NaN (as NumPy)
    cases = [np.array(bad), np.array([bad]), np.array([bad, 1.0, 2.0]), np.array([1.0, bad]),
             np.array([[bad, 1.0], [2.0, 3.0]]), np.array([[1.0, 2.0], [3.0, bad]]),
             np.full(1000, 1.5), np.array([complex(bad, 0.0)]), np.array([complex(1.0, bad), 2.0])]
    cases[6][777] = bad
    for a in cases:
        for axis in [None] + list(range(a.ndim)):
            with np.errstate(invalid="ignore"):
                want = np.var(a, axis=axis)
            for f in (xp.var, xp.std):
                got = to_np(f(xp.asarray(a), axis=axis))
                assert np.array_equal(np.isnan(got), np.isnan(want)), (f, a, axis, got, want)
    assert math.isnan(xp.var(xp.asarray([bad], dtype=xp.float32))._item())
    assert math.isnan(xp.std(xp.asarray([bad], dtype=xp.float16))._item())


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "complex128"])
def test_var_over_rows_with_a_nan_or_inf(dtype):
    # axis 0 of a C-ordered matrix runs blocks of rows along the columns,
    # split into parts of rows: a NaN or infinity in the first row (the
    # shift), at a block's edge, in a later part or in the last row makes
    # its column NaN and no other
    a = np.tile(np.linspace(-2.0, 3.0, 257), (2311, 1)).astype(dtype)
    a[:, ::3] += 1e3
    for (r, c), bad in zip([(0, 5), (31, 6), (32, 7), (1200, 8), (2310, 9), (0, 256)],
                           [math.nan, math.inf, -math.inf, math.nan, math.inf, math.nan]):
        a[r, c] = bad
    wide = a.astype("complex128" if dtype.startswith("complex") else "float64")
    with np.errstate(invalid="ignore"):
        want = np.var(wide, axis=0)
    b = np.zeros((a.shape[0], 2 * a.shape[1]), dtype)
    b[:, ::2] = a
    for x in (xp.asarray(a), xp.asarray(b)[:, ::2]):
        got = to_np(xp.var(x, axis=0)).astype("float64")
        assert np.array_equal(np.isnan(got), np.isnan(want))
        ok = ~np.isnan(want)
        rtol = {"float64": 1e-12, "complex128": 1e-12, "float32": 1e-6, "float16": 2e-3}[dtype]
        np.testing.assert_allclose(got[ok], want[ok], rtol=rtol)


def test_var_correction_at_least_n_is_nan():
    x = xp.asarray([1.0, 2.0, 3.0])
    assert math.isnan(xp.var(x, correction=3)._item())
    assert math.isnan(xp.std(x, correction=4)._item())
    assert math.isnan(xp.mean(xp.zeros((0,)))._item())


def test_var_is_stable():
    a = 1e9 + np.random.default_rng(4).standard_normal(10001)
    got = xp.var(xp.asarray(a))._item()
    want = np.var(a - 1e9)
    assert abs(got - want) / want < 1e-6


def test_ill_conditioned_sum():
    rng = np.random.default_rng(5)
    for n in (10**5, 10**6 + 3):
        a = rng.standard_normal(n) * 10.0 ** rng.integers(-8, 8, n)
        exact = math.fsum(a)
        err_np = abs(np.sum(a) - exact)
        err = abs(xp.sum(xp.asarray(a))._item() - exact)
        assert err <= max(4 * err_np, 1e-6 * abs(exact) * 1e-9 + 1e-300) or err <= 2 * err_np + 1e-3
    a = np.ones(10**6 + 1, dtype=np.float32)
    assert xp.sum(xp.asarray(a))._item() == a.size  # naive float32 summation stalls at 2**24
    # along axis 0 as well
    b = np.full((2**12 + 3, 3), 0.1, dtype=np.float32)
    np.testing.assert_allclose(to_np(xp.sum(xp.asarray(b), axis=0)), b.astype(np.float64).sum(0), rtol=1e-5)


def _ulps_off(got, want) -> float:
    """How many float32 ULPs of want got is from want (want a float64)."""
    return abs(float(got) - want) / float(np.spacing(np.float32(abs(want))))


@pytest.mark.parametrize("layout", ["contiguous", "reversed", "stepped", "columns"])
def test_float32_products_are_rounded_once(layout):
    # every factor of a float32 fold adds its own rounding error, whatever the
    # order: 1e6 values near 1 drifted 3.9e-4 (3,000 ULP) in a pairwise fold
    rng = np.random.default_rng(11)
    a = (1 + rng.standard_normal(10**6) * 1e-3).astype(np.float32)
    if layout == "contiguous":
        x, ref = xp.asarray(a), a
    elif layout == "reversed":
        x, ref = xp.asarray(a)[::-1], a[::-1]
    elif layout == "stepped":
        x, ref = xp.asarray(np.repeat(a, 2))[1::2], a
    else:
        x, ref = xp.asarray(a.reshape(1000, 1000)).T, a.reshape(1000, 1000).T
    got = xp.prod(x)
    assert got.dtype == xp.float32
    assert _ulps_off(got._item(), np.prod(ref.astype(np.float64))) <= 1
    rows = to_np(xp.prod(xp.asarray(a.reshape(1000, 1000)), axis=1))
    want = np.prod(a.reshape(1000, 1000).astype(np.float64), axis=1)
    assert max(_ulps_off(g, w) for g, w in zip(rows, want)) <= 1
    cols = to_np(xp.prod(xp.asarray(a.reshape(1000, 1000)), axis=0))
    want = np.prod(a.reshape(1000, 1000).astype(np.float64), axis=0)
    assert max(_ulps_off(g, w) for g, w in zip(cols, want)) <= 1


def test_complex64_and_narrow_products_are_rounded_once():
    rng = np.random.default_rng(12)
    z = (1 + (rng.standard_normal(10**5) + 1j * rng.standard_normal(10**5)) * 1e-3).astype(np.complex64)
    got = xp.prod(xp.asarray(z))
    assert got.dtype == xp.complex64
    want = np.prod(z.astype(np.complex128))
    assert abs(complex(got._item()) - want) <= 2 * float(np.spacing(np.float32(abs(want))))
    h = (1 + rng.standard_normal(4000) * 1e-2).astype(np.float16)
    got = xp.prod(xp.asarray(h))
    assert got.dtype == xp.float16
    assert float(got._item()) == float(np.float16(np.prod(h.astype(np.float64))))


def test_a_float32_product_overflows_only_if_its_result_does():
    x = xp.asarray([1e30, 1e30, 1e-30], dtype=xp.float32)
    assert xp.prod(x)._item() == pytest.approx(1e30, rel=1e-6)
    assert xp.prod(xp.asarray([1e30, 1e30], dtype=xp.float32))._item() == math.inf
    assert xp.prod(xp.asarray([1e-30, 1e-30, 1e30], dtype=xp.float32))._item() == pytest.approx(1e-30, rel=1e-6)
    r = xp.prod(xp.asarray([[1e30, 1e30, 1e-30], [2.0, math.nan, 1.0]], dtype=xp.float32), axis=1)
    assert to_np(r)[0] == pytest.approx(1e30, rel=1e-6) and math.isnan(to_np(r)[1])


def test_large_threaded_reductions():
    rng = np.random.default_rng(6)
    a = rng.standard_normal((700, 900))
    x = xp.asarray(a)
    for axis in (None, 0, 1):
        np.testing.assert_allclose(to_np(xp.sum(x, axis=axis)), a.sum(axis=axis), rtol=1e-10, atol=1e-9)
        np.testing.assert_allclose(to_np(xp.std(x, axis=axis)), a.std(axis=axis), rtol=1e-10)
        np.testing.assert_array_equal(to_np(xp.max(x, axis=axis)), a.max(axis=axis))
    i = rng.integers(-100, 100, 10**6)
    assert xp.sum(xp.asarray(i))._item() == i.sum()
    assert xp.count_nonzero(xp.asarray(i))._item() == np.count_nonzero(i)


def test_zero_d_and_empty():
    x = xp.asarray(3.5)
    assert xp.sum(x)._item() == 3.5 and xp.sum(x).shape == ()
    assert xp.max(x, axis=()).shape == ()
    e = xp.zeros((0, 4))
    assert xp.sum(e, axis=0).tolist() == [0.0] * 4
    assert xp.prod(e, axis=0).tolist() == [1.0] * 4
    assert xp.sum(e, axis=1).shape == (0,)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("func", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_cumulative(func, dtype, layout):
    rng = np.random.default_rng(7)
    xa, na = view_of(layout, values((3, 4, 5), dtype, rng, lo=-2, hi=3))
    for axis in (0, 1, 2, -1):
        for init in (False, True):
            got = getattr(xp, func)(xa, axis=axis, include_initial=init)
            want = getattr(np, func)(na, axis=axis, include_initial=init)
            assert got.dtype.name == want.dtype.name
            close(got, want, dtype)
    one = values((6,), dtype, rng, lo=-2, hi=3)
    close(getattr(xp, func)(xp.asarray(one)), getattr(np, func)(one), dtype)
    with pytest.raises(ValueError):
        getattr(xp, func)(xp.zeros((2, 2)))


def test_cumulative_dtype_and_empty():
    x = xp.asarray(np.arange(1, 6, dtype=np.int8))
    assert xp.cumulative_sum(x, dtype=xp.float64).tolist() == [1.0, 3.0, 6.0, 10.0, 15.0]
    assert xp.cumulative_sum(xp.zeros((0,)), include_initial=True).tolist() == [0.0]
    assert xp.cumulative_prod(xp.zeros((2, 0)), axis=1).shape == (2, 0)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_all_any_count(dtype, layout):
    rng = np.random.default_rng(8)
    xa, na = view_of(layout, values((3, 4, 5), dtype, rng, lo=0, hi=3))
    for axis in AXES:
        for keepdims in (False, True):
            close(xp.all(xa, axis=axis, keepdims=keepdims), np.all(na, axis=axis, keepdims=keepdims), "bool")
            close(xp.any(xa, axis=axis, keepdims=keepdims), np.any(na, axis=axis, keepdims=keepdims), "bool")
            c = xp.count_nonzero(xa, axis=axis, keepdims=keepdims)
            close(c, np.asarray(np.count_nonzero(na, axis=axis, keepdims=keepdims), dtype=np.int64), "int64")
    assert xp.all(xp.asarray([np.nan]))._item() is True
    assert xp.any(xp.zeros((0,)))._item() is False


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_diff(dtype, layout):
    rng = np.random.default_rng(9)
    xa, na = view_of(layout, values((3, 4, 5), dtype, rng))
    for axis in (0, -1):
        for n in (0, 1, 2, 6):
            got = xp.diff(xa, axis=axis, n=n)
            want = np.diff(na, axis=axis, n=n)
            assert got.dtype.name == want.dtype.name
            close(got, want, dtype)
    a = values((3, 4), dtype, rng)
    p = values((3, 1), dtype, rng)
    q = values((3, 2), dtype, rng)
    got = xp.diff(xp.asarray(a), prepend=xp.asarray(p), append=xp.asarray(q))
    close(got, np.diff(a, prepend=p, append=q), dtype)


def test_diff_n_and_axis_by_position():
    # NumPy's and PyTorch's order; scikit-learn's roc_curve calls diff(x, 2)
    rng = np.random.default_rng(4)
    a = rng.standard_normal((3, 6))
    close(xp.diff(xp.asarray(a), 2), np.diff(a, 2), "float64")
    close(xp.diff(xp.asarray(a), 1, 0), np.diff(a, 1, 0), "float64")
    with pytest.raises(TypeError, match="diff"):
        xp.diff(xp.asarray(a), 1, 0, xp.asarray(a))  # prepend stays keyword-only


def test_errors():
    with pytest.raises(TypeError, match="max: expected an array of real-valued"):
        xp.max(xp.asarray([1j]))
    with pytest.raises(IndexError):
        xp.sum(xp.zeros((2, 2)), axis=2)
    with pytest.raises(ValueError, match="repeated axis"):
        xp.sum(xp.zeros((2, 2)), axis=(0, 0))
    with pytest.raises(TypeError, match="sum: dtype"):
        xp.sum(xp.zeros(2), dtype="object")


@pytest.mark.parametrize("name", ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                  "uint32", "uint64", "float32", "float64"])
@pytest.mark.parametrize("n", [7, 128, 1031, 1032, 5000, 100003])
def test_sum_long_contiguous_runs(name, n):
    """Long runs take the 8-lane fold (a GCC -O3 vectorizer bug once broke it
    for narrow integers: 1032 int8 ones summed to 65)."""
    a = np.random.default_rng(n).integers(0, 3, n).astype(name)
    x = xp.asarray(a)
    assert float(xp.sum(x)) == float(a.sum(dtype=np.float64 if a.dtype.kind == "f" else None))
    m = a.reshape(1, n).repeat(3, axis=0)
    assert xp.sum(xp.asarray(m), axis=1).tolist() == m.sum(axis=1).tolist()
