"""sort and argsort with stable=False (a vector quicksort on lanes of more
than 4 elements where the CPU has AVX-512, the radix sort elsewhere) against NumPy: values must equal NumPy's
sorted values (NaNs last, first when descending; -0.0 == 0.0), and argsort
must return a permutation that sorts the values (ties in any order)."""
import numpy as np
import pytest

import arrstride as xp
from conftest import to_numpy as to_np
from layouts import REAL_NAMES as REAL
from layouts import random_values, views

SIZES = [0, 1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 100, 127, 128, 129, 257, 1000, 1025, 4099]
PATTERNS = ["random", "sorted", "reversed", "equal", "organ", "few", "saw", "specials"]


def sorted_like_numpy(na, axis, descending):
    want = np.sort(na, axis=axis)
    return np.flip(want, axis=axis) if descending else want


def check(xa, na, axis=-1, descending=False, msg=""):
    got = xp.sort(xa, axis=axis, descending=descending, stable=False)
    assert got.dtype == xa.dtype and got.shape == xa.shape
    want = sorted_like_numpy(na, axis, descending)
    np.testing.assert_array_equal(to_np(got), want, err_msg=msg)
    idx = xp.argsort(xa, axis=axis, descending=descending, stable=False)
    assert idx.dtype == xp.int64 and idx.shape == xa.shape
    ni = to_np(idx)
    if na.ndim:
        n = na.shape[axis]
        perm = np.sort(ni, axis=axis)
        shape = [1] * na.ndim
        shape[axis] = n
        np.testing.assert_array_equal(perm, np.broadcast_to(np.arange(n).reshape(shape), na.shape),
                                      err_msg=f"not a permutation: {msg}")
        np.testing.assert_array_equal(np.take_along_axis(na, ni, axis=axis), want, err_msg=msg)


def specials(dtype):
    """Values at the edges of the dtype (and NaN, infinities, signed zeros)."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return np.array([False, True])
    if dt.kind == "f":
        return np.array([np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0,
                         np.finfo(dt).max, np.finfo(dt).min, np.finfo(dt).tiny], dtype=dt)
    info = np.iinfo(dt)
    return np.array([info.min, info.max, info.min + 1, info.max - 1, 0, 1], dtype=dt)


def make(pattern, n, dtype, rng):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        base = rng.random(n) < 0.5
    elif dt.kind == "f":
        base = rng.standard_normal(n).astype(dt)
    else:
        info = np.iinfo(dt)
        base = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    if pattern == "random":
        return base
    if pattern == "sorted":
        return np.sort(base)
    if pattern == "reversed":
        return np.sort(base)[::-1].copy()
    if pattern == "equal":
        return np.full(n, base[0] if n else 0, dtype=dt)
    if pattern == "organ":
        s = np.sort(base)
        return np.concatenate([s[: n // 2], s[n // 2:][::-1]]).astype(dt)
    if pattern == "few":
        return rng.choice(specials(dtype)[:3], n).astype(dt) if n else base
    if pattern == "saw":
        return np.resize(np.sort(base[: max(n // 7, 1)]), n).astype(dt) if n else base
    sp = specials(dtype)
    mask = rng.random(n) < 0.3
    base[mask] = rng.choice(sp, int(mask.sum()))
    return base


@pytest.mark.parametrize("dtype", REAL)
def test_unstable_1d_patterns(dtype):
    rng = np.random.default_rng(10)
    for n in SIZES:
        for pattern in PATTERNS:
            a = make(pattern, n, dtype, rng)
            for descending in (False, True):
                check(xp.asarray(a), a, descending=descending, msg=f"{pattern} n={n} desc={descending}")


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint64", "float32", "float64", "bool"])
def test_unstable_large(dtype):
    rng = np.random.default_rng(11)
    for pattern in PATTERNS:
        a = make(pattern, 100_000, dtype, rng)
        for descending in (False, True):
            check(xp.asarray(a), a, descending=descending, msg=f"{pattern} desc={descending}")


@pytest.mark.parametrize("dtype", REAL)
def test_unstable_layouts(dtype):
    rng = np.random.default_rng(12)
    for shape in ((4, 37), (3, 5, 70)):
        for name, xa, na in views(random_values(shape, dtype, rng, lo=-5, hi=6)):
            for axis in range(-len(shape), len(shape)):
                for descending in (False, True):
                    check(xa, na, axis, descending, msg=f"{name} {shape} axis={axis}")


def test_unstable_specials_every_dtype_axis():
    rng = np.random.default_rng(13)
    for dtype in REAL:
        a = make("specials", 6 * 300, dtype, rng).reshape(6, 300)
        for axis in (0, 1):
            for descending in (False, True):
                check(xp.asarray(a), a, axis, descending, msg=f"{dtype} axis={axis}")
        # a 1-D view with a negative stride and an offset
        v = a[1:, ::-3]
        check(xp.asarray(a)[1:, ::-3], v, 1, msg=dtype)


def test_unstable_many_rows_and_one_long_row():
    rng = np.random.default_rng(14)
    a = rng.standard_normal((64, 5000))
    a[rng.random(a.shape) < 0.01] = np.nan
    for axis in (0, 1):
        check(xp.asarray(a), a, axis)
    b = rng.integers(-(2 ** 63), 2 ** 63 - 1, 300_001, dtype=np.int64, endpoint=True)
    b[::1000] = np.iinfo(np.int64).max
    check(xp.asarray(b), b)
    check(xp.asarray(b)[::-2], b[::-2], descending=True)
    c = np.concatenate([np.full(100_000, 3.0), rng.standard_normal(100_000), np.full(100_000, -0.0)])
    check(xp.asarray(c), c)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_unstable_long_lane_parts(threads):
    # a lane long enough to be encoded and decoded in parts on the pool: the
    # elements set aside (NaNs, int64's largest value) in one part only, in
    # the first, or nowhere; dense, reversed and strided lanes
    rng = np.random.default_rng(15)
    before = xp.get_num_threads()
    xp.set_num_threads(threads)
    try:
        for dtype in ("float64", "float32", "int64", "uint16"):
            base = make("random", 200_003, dtype, rng)
            for where in (None, 0, -1):
                a = base.copy()
                if where is not None:
                    a[where] = np.nan if a.dtype.kind == "f" else np.iinfo(a.dtype).max
                for view in (slice(None), slice(None, None, -1), slice(1, None, 3)):
                    for descending in (False, True):
                        check(xp.asarray(a)[view], a[view], descending=descending,
                              msg=f"{dtype} {where} {view} desc={descending}")
    finally:
        xp.set_num_threads(before)


def test_unstable_nan_placement_and_zero_d():
    a = np.array([np.nan, 1.0, -0.0, -np.inf, 0.0, -np.nan, -0.0, 2.0, np.inf, 0.0] * 20)
    x = xp.asarray(a)
    d = to_np(xp.sort(x, descending=True, stable=False))
    assert np.isnan(d[:40]).all() and d[40] == np.inf and d[-1] == -np.inf
    a_idx = to_np(xp.argsort(x, descending=True, stable=False))
    assert np.isnan(a[a_idx[:40]]).all()
    assert xp.sort(xp.asarray(3.0), stable=False).tolist() == 3.0
    assert xp.argsort(xp.asarray(3.0), stable=False).tolist() == 0
    assert xp.argsort(xp.zeros((3, 0)), stable=False).shape == (3, 0)
    with pytest.raises(TypeError, match="stable must be a bool"):
        xp.sort(x, stable=0)


@pytest.mark.parametrize("n", [40_000, 300_007])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "uint64"])
def test_unstable_long_lane_patterns(dtype, n):
    # lanes long enough for the argsort's sample sort (splitters from a
    # sample, buckets sorted apart): buckets empty, holding everything, or
    # many splitters equal; keys packed with their places or not
    rng = np.random.default_rng(16)
    for pattern in PATTERNS + ["narrow", "wide", "halves"]:
        if pattern == "narrow":  # keys packed with their places
            a = (rng.integers(0, 1000, n) + 10 ** 6).astype(dtype)
        elif pattern == "wide":  # keys spanning most of the range
            a = make("random", n, dtype, rng)
            a[::2] = np.iinfo(a.dtype).max if a.dtype.kind in "iu" else np.finfo(a.dtype).max
        elif pattern == "halves":  # one value at the sample's likely places
            a = make("random", n, dtype, rng)
            a[: n // 2] = a[0]
        else:
            a = make(pattern, n, dtype, rng)
        for view in (slice(None), slice(None, None, -2)):
            check(xp.asarray(a)[view], a[view], msg=f"{dtype} {pattern} {view}")


@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_unstable_argsort_same_on_any_thread_count(dtype):
    # the order of equal keys depends on the lane's length only
    rng = np.random.default_rng(17)
    a = xp.asarray(rng.integers(0, 50, 400_000).astype(dtype))
    before = xp.get_num_threads()
    got = []
    try:
        for threads in (1, 2, 3):
            xp.set_num_threads(threads)
            got.append(to_np(xp.argsort(a, stable=False)))
    finally:
        xp.set_num_threads(before)
    np.testing.assert_array_equal(got[0], got[1])
    np.testing.assert_array_equal(got[0], got[2])
