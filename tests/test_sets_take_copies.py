import numpy as np
import pytest

import arrstride as xp
from conftest import to_numpy as to_np
from layouts import DTYPE_NAMES as DTYPES
from layouts import EXTRA, SHAPED, params, random_values as values, view_of, views


def _sorted_unique(na):
    return np.unique(na, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_unique(dtype, layout):
    rng = np.random.default_rng(1)
    xa, na = view_of(layout, values((3, 4, 5), dtype, rng, lo=-3, hi=3))
    v, i, inv, c = _sorted_unique(na)
    r = xp.unique_all(xa)
    np.testing.assert_array_equal(to_np(r.values), v)
    np.testing.assert_array_equal(to_np(r.indices), i)
    np.testing.assert_array_equal(to_np(r.inverse_indices), inv.reshape(na.shape))
    np.testing.assert_array_equal(to_np(r.counts), c)
    np.testing.assert_array_equal(to_np(xp.unique_values(xa)), v)
    rc = xp.unique_counts(xa)
    np.testing.assert_array_equal(to_np(rc.counts), c)
    ri = xp.unique_inverse(xa)
    assert ri.inverse_indices.shape == na.shape
    np.testing.assert_array_equal(to_np(ri.values)[to_np(ri.inverse_indices)], na)


def test_unique_nan_distinct_and_large():
    a = np.array([np.nan, 1.0, np.nan, -0.0, 0.0, 1.0])
    r = xp.unique_all(xp.asarray(a))
    got = to_np(r.values)
    assert got.size == 4 and np.isnan(got[-2:]).all() and got[0] == 0 and got[1] == 1
    assert to_np(r.counts).tolist() == [2, 2, 1, 1]
    c = np.array([1 + 1j, np.nan, 1 + 1j, complex(1, np.nan), 0j], dtype=np.complex128)
    assert xp.unique_values(xp.asarray(c)).size == 4
    big = np.random.default_rng(2).integers(-1000, 10**6, 300_000)
    np.testing.assert_array_equal(to_np(xp.unique_values(xp.asarray(big))), np.unique(big))
    assert xp.unique_values(xp.zeros((0,))).shape == (0,)
    assert xp.unique_values(xp.asarray(7)).tolist() == [7]


@pytest.mark.parametrize("dtype", ["bool", "int16", "float64", "complex128"])
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_take(dtype, layout):
    rng = np.random.default_rng(3)
    xa, na = view_of(layout, values((3, 4, 5), dtype, rng))
    for axis in (0, 1, 2, -1):
        n = na.shape[axis]
        idx = rng.integers(-n, n, 7)
        got = xp.take(xa, xp.asarray(idx), axis=axis)
        np.testing.assert_array_equal(to_np(got), np.take(na, idx, axis=axis))
        idx2 = rng.integers(0, n, (2, 3)).astype(np.int32)
        got = xp.take(xa, xp.asarray(idx2)[:, ::-1], axis=axis)
        np.testing.assert_array_equal(to_np(got), np.take(na, idx2[:, ::-1], axis=axis))
    one = values((10,), dtype, rng)
    np.testing.assert_array_equal(to_np(xp.take(xp.asarray(one), xp.asarray([9, -10, 0]))), one[[9, -10, 0]])
    with pytest.raises(IndexError, match="index 10 is out of bounds"):
        xp.take(xp.asarray(one), xp.asarray([10]))
    with pytest.raises(ValueError):
        xp.take(xp.zeros((2, 2)), xp.asarray([0]))


@pytest.mark.parametrize("dtype", ["uint8", "float32", "complex64"])
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_take_along_axis(dtype, layout):
    rng = np.random.default_rng(4)
    xa, na = view_of(layout, values((3, 4, 5), dtype, rng))
    for axis in (0, 1, -1):
        idx = np.argsort(na, axis=axis) if na.dtype.kind != "c" else rng.integers(0, na.shape[axis], na.shape)
        got = xp.take_along_axis(xa, xp.asarray(idx), axis=axis)
        np.testing.assert_array_equal(to_np(got), np.take_along_axis(na, idx, axis=axis))
        shp = list(na.shape)
        shp[axis] = 2
        shp[(axis + 1) % 3] = 1
        idx = rng.integers(0, na.shape[axis], shp)
        got = xp.take_along_axis(xa, xp.asarray(idx), axis=axis)
        want = np.take_along_axis(na, idx, axis=axis)
        np.testing.assert_array_equal(to_np(got), want)
    with pytest.raises(IndexError):
        xp.take_along_axis(xp.zeros((2, 2)), xp.asarray([[2]]), axis=1)


@pytest.mark.parametrize("dtype", ["bool", "int32", "float64", "complex128"])
def test_concat_stack(dtype):
    rng = np.random.default_rng(5)
    cases = list(views(values((3, 4, 5), dtype, rng)))
    for axis in (0, 1, -1, None):
        got = xp.concat([c[1] for c in cases], axis=axis)
        want = np.concatenate([c[2] for c in cases], axis=axis)
        np.testing.assert_array_equal(to_np(got), want)
    for axis in (0, 2, -1):
        got = xp.stack([c[1] for c in cases], axis=axis)
        np.testing.assert_array_equal(to_np(got), np.stack([c[2] for c in cases], axis=axis))
    mixed = xp.concat([xp.asarray([1], dtype=xp.int8), xp.asarray([2.5])])
    assert mixed.dtype == xp.float64 and mixed.tolist() == [1.0, 2.5]
    with pytest.raises(ValueError):
        xp.concat([xp.zeros((2, 3)), xp.zeros((2, 4))], axis=0)
    with pytest.raises(ValueError):
        xp.stack([xp.zeros((2,)), xp.zeros((3,))])


@pytest.mark.parametrize("dtype", ["int8", "float64"])
@pytest.mark.parametrize("layout", params(SHAPED + EXTRA))
def test_tile_repeat_roll(dtype, layout):
    rng = np.random.default_rng(6)
    xa, na = view_of(layout, values((2, 3, 4), dtype, rng))
    for reps in ((2,), (1, 2, 1), (2, 1, 3, 2), (0, 2)):
        np.testing.assert_array_equal(to_np(xp.tile(xa, reps)), np.tile(na, reps))
    for axis in (None, 0, 2):
        np.testing.assert_array_equal(to_np(xp.repeat(xa, 3, axis=axis)), np.repeat(na, 3, axis=axis))
    r = rng.integers(0, 3, na.shape[1])
    np.testing.assert_array_equal(to_np(xp.repeat(xa, xp.asarray(r), axis=1)), np.repeat(na, r, axis=1))
    for shift, axis in ((1, None), (-7, None), (2, 0), ((1, -2), (1, 2)), (3, (0, 1)), ((1, 1), (2, 2))):
        np.testing.assert_array_equal(to_np(xp.roll(xa, shift, axis=axis)), np.roll(na, shift, axis=axis))
    with pytest.raises(ValueError):
        xp.repeat(xp.zeros(3), -1)
    with pytest.raises(ValueError):
        xp.repeat(xp.zeros(3), xp.asarray([1, 2]))
    assert xp.roll(xp.zeros((0, 2)), 1, axis=0).shape == (0, 2)
    assert xp.tile(xp.asarray(5), (2, 2)).tolist() == [[5, 5], [5, 5]]


def test_boolean_mask_compress():
    rng = np.random.default_rng(7)
    for shape in ((7,), (3, 1000), (5, 4, 3), (2000,)):
        a = rng.standard_normal(shape)
        m = rng.random(shape) < 0.4
        x, xm = xp.asarray(a), xp.asarray(m)
        np.testing.assert_array_equal(to_np(x[xm]), a[m])
        perm = tuple(reversed(range(len(shape))))
        np.testing.assert_array_equal(to_np(xp.permute_dims(x, perm)[xp.permute_dims(xm, perm)]), a.T[m.T])
        np.testing.assert_array_equal(to_np(x[xp.asarray(np.ones(shape, bool))]), a.ravel())
        assert x[xp.asarray(np.zeros(shape, bool))].shape == (0,)

