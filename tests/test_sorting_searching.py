import numpy as np
import pytest

import arrstride as xp
from conftest import to_numpy as to_np
from layouts import DTYPE_NAMES as DTYPES, REAL_NAMES as REAL
from layouts import EXTRA, SHAPED, params, random_values as values, view_of


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_sort_argsort_vs_numpy(dtype, layout):
    rng = np.random.default_rng(1)
    xa, na = view_of(layout, values((4, 5, 6), dtype, rng, lo=-3, hi=4))
    for axis in (0, 1, -1):
        got = xp.argsort(xa, axis=axis)
        want = np.argsort(na, axis=axis, kind="stable")
        np.testing.assert_array_equal(to_np(got), want, err_msg=layout)
        np.testing.assert_array_equal(to_np(xp.sort(xa, axis=axis)), np.sort(na, axis=axis, kind="stable"))


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float32", "float64", "bool"])
def test_descending_is_stable(dtype):
    rng = np.random.default_rng(2)
    a = values((300,), dtype, rng, lo=-3, hi=3)
    got = xp.argsort(xp.asarray(a), descending=True).tolist()
    want = sorted(range(a.size), key=lambda i: a[i], reverse=True)  # Python's sort is stable
    assert got == want
    np.testing.assert_array_equal(to_np(xp.sort(xp.asarray(a), descending=True)), a[want])


def test_large_sort_stable():
    rng = np.random.default_rng(3)
    for a in (rng.standard_normal(200_001), rng.integers(-50, 50, 100_000), rng.integers(0, 2**62, 70_000)):
        x = xp.asarray(a)
        np.testing.assert_array_equal(to_np(xp.argsort(x)), np.argsort(a, kind="stable"))
        np.testing.assert_array_equal(to_np(xp.sort(x)), np.sort(a))


def test_nan_and_signed_zero():
    a = np.array([np.nan, 1.0, -0.0, -np.inf, 0.0, -np.nan, -0.0, 2.0, np.inf, 0.0])
    x = xp.asarray(a)
    np.testing.assert_array_equal(to_np(xp.argsort(x)), np.argsort(a, kind="stable"))
    got = to_np(xp.sort(x))
    want = np.sort(a, kind="stable")
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))  # zeros keep their order and sign
    d = to_np(xp.sort(x, descending=True))
    assert np.isnan(d[:2]).all() and d[2] == np.inf and d[-1] == -np.inf
    f = np.array([np.nan, -1.5, 0.0, -0.0], dtype=np.float32)
    np.testing.assert_array_equal(to_np(xp.argsort(xp.asarray(f))), np.argsort(f, kind="stable"))


def test_sort_edges():
    assert xp.sort(xp.asarray(3.0)).tolist() == 3.0
    assert xp.argsort(xp.zeros((3, 0))).shape == (3, 0)
    with pytest.raises(TypeError, match="sort: expected an array of real-valued"):
        xp.sort(xp.asarray([1j]))
    with pytest.raises(IndexError):
        xp.sort(xp.zeros((2, 2)), axis=2)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_argmax_argmin(dtype, layout):
    rng = np.random.default_rng(4)
    xa, na = view_of(layout, values((3, 4, 5), dtype, rng, lo=-3, hi=4))
    for axis in (None, 0, 1, -1):
        for keepdims in (False, True):
            for f in ("argmax", "argmin"):
                got = getattr(xp, f)(xa, axis=axis, keepdims=keepdims)
                want = getattr(np, f)(na, axis=axis, keepdims=keepdims)
                assert got.dtype == xp.int64
                np.testing.assert_array_equal(to_np(got), want, err_msg=f"{layout} {axis}")
    a = np.array([[1.0, np.nan, 5.0, np.nan], [3.0, 2.0, 9.0, 1.0]])
    for f in ("argmax", "argmin"):
        np.testing.assert_array_equal(to_np(getattr(xp, f)(xp.asarray(a), axis=1)), getattr(np, f)(a, axis=1))
        with pytest.raises(ValueError):
            getattr(xp, f)(xp.zeros((0,)))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_nonzero(dtype, layout):
    rng = np.random.default_rng(5)
    xa, na = view_of(layout, values((3, 4, 5), dtype, rng, lo=0, hi=2))
    got = xp.nonzero(xa)
    want = np.nonzero(na)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(to_np(g), w)
    with pytest.raises(ValueError):
        xp.nonzero(xp.asarray(1))
    assert xp.nonzero(xp.asarray([np.nan, 0.0, -0.0]))[0].tolist() == [0]


@pytest.mark.parametrize("dtype", ["int8", "uint32", "int64", "float32", "float64"])
def test_searchsorted(dtype):
    rng = np.random.default_rng(6)
    a = np.sort(values((50,), dtype, rng, lo=-10, hi=10))
    v = values((4, 7), dtype, rng, lo=-12, hi=12)
    for side in ("left", "right"):
        got = xp.searchsorted(xp.asarray(a), xp.asarray(v), side=side)
        np.testing.assert_array_equal(to_np(got), np.searchsorted(a, v, side=side))
        got = xp.searchsorted(xp.asarray(a[::-1])[::-1], xp.asarray(v).mT, side=side)  # strided both
        np.testing.assert_array_equal(to_np(got), np.searchsorted(a, v.T, side=side))
    perm = rng.permutation(a.size)
    shuffled = a[perm]
    sorter = np.argsort(shuffled, kind="stable")
    got = xp.searchsorted(xp.asarray(shuffled), xp.asarray(v), sorter=xp.asarray(sorter))
    np.testing.assert_array_equal(to_np(got), np.searchsorted(shuffled, v, sorter=sorter))
    got = xp.searchsorted(xp.asarray(a), 3)
    assert got.shape == () and got._item() == np.searchsorted(a, 3)


def test_searchsorted_nan_zero():
    a = np.array([-1.0, -0.0, 0.0, 2.0, np.nan, np.nan])
    v = np.array([np.nan, 0.0, -0.0, 5.0, -np.inf])
    for side in ("left", "right"):
        np.testing.assert_array_equal(to_np(xp.searchsorted(xp.asarray(a), xp.asarray(v), side=side)),
                                      np.searchsorted(a, v, side=side))
    with pytest.raises(ValueError):
        xp.searchsorted(xp.zeros((2, 2)), xp.zeros(2))


@pytest.mark.parametrize("dtype", ["int16", "int64", "uint32", "float32", "float64"])
def test_long_sorts_split_over_the_pool(dtype):
    # past the length where the radix sort's first level runs in parts on
    # the pool: the one stable order, whatever the thread count, with ties,
    # keys that share their high bits, NaN and -0.0
    rng = np.random.default_rng(3)
    n = 200_003
    if dtype.startswith("float"):
        v = rng.normal(size=n).astype(dtype)
        v[rng.integers(0, n, 500)] = np.nan
        v[rng.integers(0, n, 500)] = -0.0
        v[rng.integers(0, n, 500)] = 0.0
        v[::7] = v[3]  # a value repeated 28,572 times
    else:
        info = np.iinfo(dtype)
        v = rng.integers(max(info.min, -1000), min(info.max, 1000), n).astype(dtype)
    x = xp.asarray(v)
    want_idx = np.argsort(v, kind="stable")
    want_desc = n - 1 - np.flip(np.argsort(np.flip(v), kind="stable"))
    before = xp.get_num_threads()
    try:
        for t in (1, 2, 3):
            xp.set_num_threads(t)
            for stable in (True, False):
                i = np.asarray(xp.argsort(x, stable=stable))
                if stable:
                    np.testing.assert_array_equal(i, want_idx)
                else:  # a permutation; equal values (-0.0 and 0.0 among them) in any order
                    np.testing.assert_array_equal(np.sort(i), np.arange(n))
                    np.testing.assert_array_equal(v[i], v[want_idx])
                s = np.asarray(xp.sort(x, stable=stable))
                np.testing.assert_array_equal(s, np.sort(v, kind="stable"))
            d = np.asarray(xp.argsort(x, descending=True))
            np.testing.assert_array_equal(v[d], v[want_desc])
            np.testing.assert_array_equal(d[v[d] == v[d][n // 2]],
                                          np.sort(d[v[d] == v[d][n // 2]]))
    finally:
        xp.set_num_threads(before)


def test_long_sort_of_equal_high_bits_and_all_equal_keys():
    base = np.full(150_000, 7, dtype=np.int64)
    x = xp.asarray(base)
    np.testing.assert_array_equal(np.asarray(xp.argsort(x)), np.arange(base.size))
    v = (np.arange(150_000, dtype=np.int64) * 7919) % 1001 + (1 << 40)
    x = xp.asarray(v)
    np.testing.assert_array_equal(np.asarray(xp.argsort(x)), np.argsort(v, kind="stable"))
    np.testing.assert_array_equal(np.asarray(xp.sort(x)), np.sort(v))
