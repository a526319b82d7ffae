"""Boolean masks large enough to be split into C-order parts for the thread
pool (count, then write): x[mask], nonzero and count_nonzero against NumPy on
every layout of the source and of the mask, with part boundaries falling
inside rows, and the same bits for any thread count."""
import numpy as np
import pytest

import arrstride as xp
from conftest import to_numpy as to_np
from layouts import SHAPED, EXTRA, view_of

# 2-D and 3-D shapes of about 3e5 elements: tens of parts, whose boundaries
# fall inside rows of odd length
SHAPES = [(601, 499), (67, 71, 63)]
LAYOUTS = SHAPED + EXTRA
DTYPES = ["bool", "int8", "int16", "float32", "float64", "complex128"]


def mask_values(shape, density, seed):
    return np.random.default_rng(seed).random(shape) < density


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("mask_layout", ["contiguous", "transposed", "negative", "stepped"])
def test_compress_and_nonzero_every_layout(shape, layout, mask_layout):
    rng = np.random.default_rng(1)
    values = rng.standard_normal(shape)
    for density, seed in ((0.5, 2), (0.001, 3), (1.0, 4)):
        mv = mask_values(shape, density, seed)
        a, n = view_of(layout, values)
        m, mn = view_of(mask_layout, mv)
        np.testing.assert_array_equal(to_np(a[m]), n[mn], err_msg=f"{layout} {mask_layout} {density}")
        got = xp.nonzero(m)
        want = np.nonzero(mn)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(to_np(g), w)
        assert int(xp.count_nonzero(m)) == int(np.count_nonzero(mn))


@pytest.mark.parametrize("dtype", DTYPES)
def test_compress_every_item_size(dtype):
    shape = (1003, 331)
    v = np.random.default_rng(5).standard_normal(shape) * 50
    if dtype == "complex128":
        v = v + 1j * v[::-1]
    v = v.astype(dtype)
    mv = mask_values(shape, 0.3, 6)
    for layout in ("contiguous", "transposed", "negative"):
        a, n = view_of(layout, v)
        m, mn = view_of(layout, mv)
        np.testing.assert_array_equal(to_np(a[m]), n[mn], err_msg=layout)


def test_one_dim_long_mask_and_broadcast_mask():
    # a 1-D mask of 2e6: every part inside the one row
    v = np.arange(2_000_000, dtype=np.float64)
    mv = (v.astype(np.int64) * 2654435761 % 7) < 3
    a, m = xp.asarray(v), xp.asarray(mv)
    np.testing.assert_array_equal(to_np(a[m]), v[mv])
    np.testing.assert_array_equal(to_np(xp.nonzero(m)[0]), np.nonzero(mv)[0])
    # a mask broadcast along the rows (stride 0)
    row = mask_values((997,), 0.5, 7)
    mb = xp.broadcast_to(xp.asarray(row), (401, 997))
    x = xp.reshape(xp.arange(401 * 997, dtype=xp.int32), (401, 997))
    want = np.arange(401 * 997, dtype=np.int32).reshape(401, 997)[np.broadcast_to(row, (401, 997))]
    np.testing.assert_array_equal(to_np(x[mb]), want)


def test_same_result_for_any_thread_count():
    shape = (777, 555)
    v = np.random.default_rng(8).standard_normal(shape)
    mv = mask_values(shape, 0.4, 9)
    a, m = xp.asarray(v).T, xp.asarray(mv).T
    results = []
    old = xp.get_num_threads()
    try:
        for nt in (1, 2, 3):
            xp.set_num_threads(nt)
            results.append((to_np(a[m]).tobytes(), [to_np(i).tobytes() for i in xp.nonzero(m)]))
    finally:
        xp.set_num_threads(old)
    assert results[0] == results[1] == results[2]
    np.testing.assert_array_equal(np.frombuffer(results[0][0]), v.T[mv.T])
