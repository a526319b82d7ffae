"""histogram's bin estimators and histogram_bin_edges against NumPy: the same
number of bins and the same edges, for each estimator, dtype, range and the
small and constant inputs where the formulas give up."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import arrstride as xp
from conftest import to_numpy
from layouts import make

ESTIMATORS = ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"]


def _data():
    rng = np.random.default_rng(7)
    yield rng.standard_normal(1000)
    yield rng.exponential(2.0, 500)              # skewed: doane's correction
    yield rng.integers(-50, 50, 300)             # integers: width at least 1
    yield rng.integers(0, 3, 200).astype(np.int8)
    yield rng.standard_normal(400).astype(np.float32)
    yield np.concatenate([np.zeros(90), rng.standard_normal(10)])  # IQR 0: fd gives 0
    yield np.full(7, 2.5)                        # constant
    yield np.array([1.0])
    yield np.array([1.0, 4.0])
    yield np.array([3.0, 1.0, 2.0])
    yield np.array([], dtype=np.float64)


def _quiet(f, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*args, **kw)


@pytest.mark.parametrize("name", ESTIMATORS)
def test_estimators_match_numpy(name):
    for n in _data():
        for rng in (None, (-1.0, 1.5)):
            want = _quiet(np.histogram_bin_edges, n, bins=name, range=rng)
            got = to_numpy(_quiet(xp.histogram_bin_edges, xp.asarray(n), bins=name, range=rng))
            assert got.shape == want.shape, (name, n.dtype, n.size, rng)
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=1e-6 if n.dtype == np.float32 else 1e-12)
            h, e = _quiet(xp.histogram, xp.asarray(n), bins=name, range=rng)
            hw, ew = _quiet(np.histogram, n, bins=name, range=rng)
            np.testing.assert_array_equal(to_numpy(h), hw)
            np.testing.assert_allclose(to_numpy(e), ew, rtol=1e-6)


def test_layouts_and_density():
    for layout in ("transposed", "negative", "stepped"):
        a, n = make(layout, (20, 30), "float64")
        for name in ("auto", "scott"):
            np.testing.assert_allclose(to_numpy(xp.histogram_bin_edges(a, bins=name)),
                                       np.histogram_bin_edges(n, bins=name))
            h, _ = xp.histogram(a, bins=name, density=True)
            np.testing.assert_allclose(to_numpy(h), np.histogram(n, bins=name, density=True)[0])


def test_stone_warns_at_its_bound():
    x = np.repeat(np.arange(10.0), 20)  # ten spikes: the most bins win
    with pytest.warns(RuntimeWarning):
        np.histogram_bin_edges(x, bins="stone")
    with pytest.warns(RuntimeWarning, match="histogram"):
        got = xp.histogram_bin_edges(xp.asarray(x), bins="stone")
    assert got.shape[0] == 101


def test_bin_edges_int_and_given():
    x = xp.asarray([0.0, 1.0, 5.0])
    np.testing.assert_array_equal(to_numpy(xp.histogram_bin_edges(x, bins=4)),
                                  np.histogram_bin_edges([0.0, 1.0, 5.0], bins=4))
    np.testing.assert_array_equal(to_numpy(xp.histogram_bin_edges(x, bins=[0.0, 2.0, 9.0])),
                                  [0.0, 2.0, 9.0])


def test_errors():
    x = xp.asarray([1.0, 2.0, 3.0])
    for f in (xp.histogram, xp.histogram_bin_edges):
        with pytest.raises(ValueError, match=f"{f.__name__}.*estimator"):
            f(x, bins="nope")
        with pytest.raises(TypeError, match=f"{f.__name__}.*weights"):
            f(x, bins="auto", weights=xp.asarray([1.0, 1.0, 1.0]))
        with pytest.raises(ValueError, match=f.__name__):
            f(xp.asarray([1.0, np.inf]), bins="auto")
    with pytest.raises(ValueError):
        np.histogram([1.0, 2.0], bins="nope")
    with pytest.raises(TypeError):
        np.histogram([1.0, 2.0], bins="auto", weights=[1.0, 1.0])
