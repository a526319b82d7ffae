"""unique with axis= against NumPy: the unique sub-arrays along the axis in
lexicographic order, with return_index, return_inverse and return_counts, over
dtypes, layouts and every axis."""
from __future__ import annotations

import numpy as np
import pytest

import arrstride as xp
from conftest import to_numpy
from layouts import DTYPE_NAMES, make, params


def _repeating(shape, dtype, seed):
    """Values with many repeated sub-arrays along every axis."""
    rng = np.random.default_rng(seed)
    v = rng.integers(0, 2, shape)
    if dtype == "bool":
        return v.astype(bool)
    nd = np.dtype(dtype)
    if nd.kind == "i":
        v = v * 3 - 2
    if nd.kind == "c":
        return (v + 1j * rng.integers(0, 2, shape)).astype(nd)
    return v.astype(nd)


def assert_unique_like_numpy(a, n, axis):
    got = xp.unique(a, return_index=True, return_inverse=True, return_counts=True, axis=axis)
    want = np.unique(n, return_index=True, return_inverse=True, return_counts=True, axis=axis)
    for g, w, what in zip(got, want, ("values", "index", "inverse", "counts")):
        g = to_numpy(g)
        assert g.shape == w.shape, (what, g.shape, w.shape)
        np.testing.assert_array_equal(g, w, err_msg=what)
    np.testing.assert_array_equal(to_numpy(xp.unique(a, axis=axis)), np.unique(n, axis=axis))


@pytest.mark.parametrize("layout", params())
@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_every_axis(layout, dtype):
    a, n = make(layout, (6, 3, 4), dtype, values=_repeating)
    for axis in range(-n.ndim, n.ndim) if n.ndim else []:
        assert_unique_like_numpy(a, n, axis)
    if n.ndim == 0:
        with pytest.raises(Exception, match="unique"):
            xp.unique(a, axis=0)


def test_special_floats_and_shapes():
    n = np.array([[0.0, np.nan], [-0.0, 1.0], [0.0, np.nan], [np.inf, -np.inf], [-0.0, 1.0]])
    a = xp.asarray(n)
    got = xp.unique(a, axis=0, return_counts=True)
    want = np.unique(n, axis=0, return_counts=True)
    np.testing.assert_array_equal(to_numpy(got[0]), want[0])
    np.testing.assert_array_equal(to_numpy(got[1]), want[1])
    for shape in ((0, 3), (3, 0), (1, 5), (5, 1)):
        n = np.zeros(shape)
        for axis in (0, 1):
            assert_unique_like_numpy(xp.asarray(n), n, axis)


def test_errors():
    with pytest.raises(Exception, match="unique"):
        xp.unique(xp.asarray([[1, 2]]), axis=2)
    with pytest.raises(TypeError, match="unique"):
        xp.unique(xp.asarray([1, 2]), return_counts="yes")
