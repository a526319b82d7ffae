"""Fast paths added for the end-to-end workloads, against NumPy: where with a
repeated (scalar or 0-d) operand, and any/all of 1-byte data eight bytes at a
time. Every dtype and layout, sizes around the block edges."""
import numpy as np
import pytest

import arrstride as xp
from conftest import assert_same
from layouts import CORE as LAYOUTS
from layouts import DTYPE_NAMES, make, sample


def _scalar(name):
    v = sample((), name, 5)[()]
    return v.item()


@pytest.mark.parametrize("name", DTYPE_NAMES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(3, 5), (64, 130)])
@pytest.mark.parametrize("pair", ["x,s", "s,x", "s,s", "x,0d", "0d,x", "x,y"])
def test_where_repeated_operand(name, layout, shape, pair):
    x, xn = make(layout, shape, getattr(xp, name), 1)
    c, cn = make(layout, shape, xp.bool, 2)
    y, yn = make("contiguous", xn.shape, getattr(xp, name), 3)
    s = _scalar(name)
    z = xp.asarray(s, dtype=getattr(xp, name))
    zn = np.asarray(s, dtype=name)
    ops = {"x,s": ((x, s), (xn, zn)), "s,x": ((s, x), (zn, xn)), "s,s": ((z, z), (zn, zn)),
           "x,0d": ((x, z), (xn, zn)), "0d,x": ((z, x), (zn, xn)), "x,y": ((x, y), (xn, yn))}
    (a, b), (an, bn) = ops[pair]
    got = xp.where(c, a, b)
    want = np.where(cn, an, bn).astype(name)
    assert_same(got, want)


def test_where_scalar_into_noncontiguous_condition():
    n = sample((50, 90), "float64", 4)
    x = xp.asarray(n)
    cn = n > 0
    c = xp.asarray(cn)
    for key in [(slice(None, None, -1), slice(None, None, 2)), (slice(3, None), slice(1, -1))]:
        assert_same(xp.where(c[key], xp.inf, x[key]), np.where(cn[key], np.inf, n[key]))
        assert_same(xp.where(c[key].mT, x[key].mT, -1.5), np.where(cn[key].T, n[key].T, -1.5))


SIZES = [0, 1, 7, 8, 255, 256, 257, 511, 1000, 4099]


@pytest.mark.parametrize("name", ["bool", "int8", "uint8"])
@pytest.mark.parametrize("size", SIZES)
def test_any_all_bytes_one_element_differs(name, size):
    for fill, odd in ((0, 1), (1, 0)):
        base = np.full(size, fill, dtype=name)
        positions = sorted({0, size // 2, size - 1, max(size - 9, 0)}) if size else []
        for pos in [None] + positions:
            n = base.copy()
            if pos is not None:
                n[pos] = odd
            a = xp.asarray(n)
            assert bool(xp.any(a)) == bool(np.any(n)), (fill, pos)
            assert bool(xp.all(a)) == bool(np.all(n)), (fill, pos)
            # reversed, stepped and offset views of the same bytes
            for key in (slice(None, None, -1), slice(None, None, 2), slice(3, None)):
                assert bool(xp.any(a[key])) == bool(np.any(n[key]))
                assert bool(xp.all(a[key])) == bool(np.all(n[key]))


@pytest.mark.parametrize("name", ["int8", "uint8"])
def test_any_all_bytes_every_nonzero_value(name):
    """Each byte value on its own in a word of ones (all) and of zeros (any):
    the zero-byte test must see 0 and only 0, whatever the neighbours."""
    info = np.iinfo(name)
    for v in range(info.min, info.max + 1):
        for size in (8, 300):
            ones = np.ones(size, dtype=name)
            ones[size // 3] = v
            zeros = np.zeros(size, dtype=name)
            zeros[size // 3] = v
            assert bool(xp.all(xp.asarray(ones))) == (v != 0)
            assert bool(xp.any(xp.asarray(zeros))) == (v != 0)


def test_any_all_bytes_random_and_2d():
    rng = np.random.default_rng(6)
    for _ in range(50):
        n = rng.integers(-3, 3, rng.integers(0, 2000)).astype(np.int8)
        n[n > 0] = rng.integers(-128, 127, int((n > 0).sum()))
        n[n == 0] = 0
        a = xp.asarray(n)
        assert bool(xp.any(a)) == bool(np.any(n)) and bool(xp.all(a)) == bool(np.all(n))
    m = rng.integers(0, 2, (40, 300)).astype(bool)
    m[:, 7] = True
    for layout in LAYOUTS:
        a, n = make(layout, (40, 300), xp.bool, 7)
        assert_same(xp.any(a), np.any(n))
        assert_same(xp.all(a), np.all(n))
        if n.ndim == 2:
            assert_same(xp.any(a, axis=-1), np.any(n, axis=-1))
            assert_same(xp.all(a, axis=0), np.all(n, axis=0))
    full = xp.ones((257, 33), dtype=xp.bool)
    assert bool(xp.all(full)) and bool(xp.any(full)) and not bool(xp.any(xp.zeros(513, dtype=xp.bool)))


# ---- take: one index for a whole run (rows of a C-ordered array) ----------------------------

@pytest.mark.parametrize("name", DTYPE_NAMES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_take_rows(name, layout):
    x, n = make(layout, (9, 6, 5), getattr(xp, name), 8)
    if n.ndim == 0:
        return assert_same(xp.take(xp.reshape(x, (1,)), xp.asarray([0, -1]), axis=0),
                           np.take(n.reshape(1), [0, -1], axis=0))
    for idx in ([0, 8, -1, 3, 3], [], [[1, -2], [0, 4]]):
        idx = [i % n.shape[0] for i in np.ravel(idx)] if n.shape[0] < 9 and n.shape[0] else idx
        if n.shape[0] == 0 and np.size(idx):
            continue
        inx = np.asarray(idx, dtype=np.int64)
        for axis in range(n.ndim):
            j = inx % n.shape[axis] if n.shape[axis] else inx
            if n.shape[axis] == 0 and j.size:
                continue
            assert_same(xp.take(x, xp.asarray(j), axis=axis), np.take(n, j, axis=axis))


def test_take_rows_bad_index_and_empty_rows():
    n = sample((7, 40), "float64", 9)
    x = xp.asarray(n)
    for bad in (7, -8, 100):
        with pytest.raises(IndexError, match="take"):
            xp.take(x, xp.asarray([0, bad, 1]), axis=0)
    e = xp.asarray(np.zeros((7, 0)))
    assert xp.take(e, xp.asarray([1, 6, -7]), axis=0).shape == (3, 0)
    assert_same(xp.take(x[:, ::-3], xp.asarray([6, 0, -1]), axis=0), np.take(n[:, ::-3], [6, 0, -1], axis=0))
    assert_same(xp.take(x.T, xp.asarray([39, 0]), axis=0), np.take(n.T, [39, 0], axis=0))



@pytest.mark.parametrize("idx_dtype", ["int64", "int32", "uint8", "uint64"])
@pytest.mark.parametrize("block", [1, 3])
def test_take_large_gathers(idx_dtype, block):
    # past the GIL-free size and the prefetch distance, on the pool: take and
    # x[idx] agree with NumPy for every index dtype, rows of one or more elements
    rng = np.random.default_rng(4)
    n = sample((300_000, block), "float64", 10)
    hi = min(300_000, np.iinfo(idx_dtype).max + 1)
    lo = 0 if idx_dtype.startswith("u") else -hi
    idx = rng.integers(lo, hi, 70_000).astype(idx_dtype)
    x = xp.asarray(n if block > 1 else n[:, 0])
    ref = np.take(n if block > 1 else n[:, 0], idx, axis=0)
    assert_same(xp.take(x, xp.asarray(idx), axis=0), ref)
    assert_same(x[xp.asarray(idx)], ref)
    assert_same(xp.take(x, xp.asarray(idx.reshape(700, 100)), axis=0), ref.reshape((700, 100) + ref.shape[1:]))
    big = idx.copy()
    big[-1] = 300_000 if idx_dtype in ("int64", "int32", "uint64") else big[-1]
    if idx_dtype == "uint64":
        big[-2] = 2**64 - 1  # not -1: out of range
    if big[-1] != idx[-1]:
        with pytest.raises(IndexError):
            xp.take(x, xp.asarray(big), axis=0)
        with pytest.raises(IndexError):
            x[xp.asarray(big)]

# ---- log1p: glibc's vector variant in the contiguous loop -----------------------------------

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["float32", "float64"])
def test_log1p_vector_loop(layout, name):
    x, n = make(layout, (37, 41), getattr(xp, name), 11)
    n = np.asarray(n)
    # map the sample onto (-1, 60) so that log1p is finite, through the same ops on both sides
    got = xp.log1p(xp.abs(x) / 10 - 0.999)
    want = np.log1p(np.abs(n) / n.dtype.type(10) - n.dtype.type(0.999))
    np.testing.assert_allclose(np.asarray(got), want, rtol=4 * np.finfo(name).eps, atol=0)
    assert got.dtype == x.dtype


def test_log1p_vector_loop_special_values():
    tiny = np.finfo(np.float64).smallest_subnormal
    specials = [0.0, -0.0, -1.0, -1.5, np.inf, -np.inf, np.nan, tiny, -tiny, 1e-300, 1e308,
                np.nextafter(-1.0, 0.0), 1e-17, -1e-17]
    n = np.array(specials * 5)   # long enough for the vector loop, specials in every lane
    with np.errstate(all="ignore"):
        want = np.log1p(n)
    got = np.asarray(xp.log1p(xp.asarray(n)))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    fin = ~np.isnan(want)
    np.testing.assert_allclose(got[fin], want[fin], rtol=4 * np.finfo(np.float64).eps, atol=0)
    np.testing.assert_array_equal(np.signbit(got[fin]), np.signbit(want[fin]))
    rng = np.random.default_rng(12)
    n = np.concatenate([rng.uniform(-1, 4, 5000), np.logspace(-20, 300, 5000)])
    np.testing.assert_allclose(np.asarray(xp.log1p(xp.asarray(n))), np.log1p(n),
                               rtol=4 * np.finfo(np.float64).eps, atol=0)
