"""__getitem__ and __setitem__ against NumPy: basic keys give views, advanced
keys (integer arrays, boolean masks) follow NumPy's rules; writes go through
views into the base, refuse layouts where two indices reach one element, and
are exact when source and destination overlap."""
from __future__ import annotations

import random
import zlib

import numpy as np
import pytest

import arrstride as xp
from conftest import assert_same, shares, to_numpy
from layouts import DTYPES, EXTRA, SHAPED, make, make_with_base, sample

ids = lambda d: d.name  # noqa: E731
WRITABLE = [name for name in SHAPED + EXTRA if name != "broadcast"]
READABLE = WRITABLE + ["broadcast"]


# ---- random basic keys ------------------------------------------------------------

def random_slice(rng: random.Random, n: int) -> slice:
    def bound():
        return rng.choice([None, rng.randint(-n - 2, n + 2)])
    step = rng.choice([None, 1, 2, 3, -1, -2, -3, n + 1])
    return slice(bound(), bound(), step)


def random_basic_key(rng: random.Random, shape) -> tuple:
    key = []
    for n in shape:
        r = rng.random()
        if r < 0.3 and n > 0:
            key.append(rng.randint(-n, n - 1))
        elif r < 0.9:
            key.append(random_slice(rng, n))
        else:
            key.append(slice(None))
        if rng.random() < 0.15:
            key.append(None)
    if key and rng.random() < 0.4:   # replace a run of full slices by ...
        i = rng.randrange(len(key) + 1)
        j = rng.randrange(i, len(key) + 1)
        if all(isinstance(k, slice) and k == slice(None) for k in key[i:j]):
            key[i:j] = [Ellipsis]
    if rng.random() < 0.2 and Ellipsis not in key:
        key = key[:rng.randrange(len(key) + 1)]
    return tuple(key)


@pytest.mark.parametrize("layout", READABLE + ["empty", "zerod"])
@pytest.mark.parametrize("dt", DTYPES, ids=ids)
def test_basic_get_random(layout, dt):
    a, n = make(layout, (4, 5, 3), dt)
    rng = random.Random(zlib.crc32(f"{layout}-{dt.name}".encode()))
    for _ in range(25):
        key = random_basic_key(rng, n.shape)
        got = a[key]
        want = n[key]
        assert_same(got, want)
        assert shares(got, a)  # a view
        if got.size:
            np.testing.assert_array_equal(to_numpy(got), want)


def test_basic_keys_one_by_one():
    a, n = make("contiguous", (4, 5, 3), xp.int64)
    for key in [0, -1, (1, 2), (1, 2, 0), (-4, -5, -3), slice(None), slice(None, None, -1),
                (slice(1, 3), 2), (Ellipsis, 1), (1, Ellipsis), (Ellipsis,), (None,),
                (None, 1, None, Ellipsis, None), (slice(10, 20),), (slice(-10, 2),),
                (slice(None, None, -3), slice(4, 0, -2)), (Ellipsis, None), ()]:
        assert_same(a[key], n[key])
    for i, row in enumerate(xp.arange(4)):
        assert row.ndim == 0 and int(row) == i
    with pytest.raises(TypeError):
        iter(xp.asarray(1.0))


def test_zero_d():
    a = xp.asarray(3.5)
    assert a[()].tolist() == 3.5 and a[()].ndim == 0 and shares(a[()], a)
    assert a[...].ndim == 0
    assert a[None].shape == (1,)
    assert_same(a[xp.asarray(True)], np.asarray(3.5)[np.asarray(True)])
    assert_same(a[xp.asarray(False)], np.asarray(3.5)[np.asarray(False)])
    a[()] = 1.0
    assert a.tolist() == 1.0
    a[...] = 2.0
    assert a.tolist() == 2.0


# ---- advanced keys ---------------------------------------------------------------

I = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731, E741
M = lambda *v: np.array(v, dtype=bool)  # noqa: E731


def adv_keys(shape):
    rng = np.random.default_rng(7)
    m0 = rng.integers(0, 2, shape[0]).astype(bool)
    m01 = rng.integers(0, 2, shape[:2]).astype(bool)
    mall = rng.integers(0, 2, shape).astype(bool)
    m1 = rng.integers(0, 2, shape[1]).astype(bool)
    m2 = rng.integers(0, 2, shape[2]).astype(bool)
    return [
        I(0, 2), I(-1, 0, 0, 1), (slice(None), I(1, -1)), (I(0, 1), I(2, 3)),
        (I(0, 2)[:, None], I(1, 2, 3)),                 # broadcast index arrays
        (I(0, 2), slice(None), I(1, 3)),                # separated: broadcast dims first
        (1, slice(None), I(0, 2)),                      # int joins the advanced index
        (I(0, 2), 1),                                    # adjacent: stays in place
        (slice(None), I(2, 0), slice(1, None, 2)),
        (Ellipsis, I(0, 0, 1)), (None, I(1, 2)), (I(1, 2), None, slice(None)),
        (I(0, 1, 2).reshape(3, 1), I(0, 1)),
        np.array([[0, 1], [2, 0]]),                     # 2-D index array
        np.array([], dtype=np.int64), (slice(None), np.array([], dtype=np.int64)),
        np.array([0, 2], dtype=np.uint8), np.array([1, 0], dtype=np.int16),
        m0, m01, mall, (slice(None), m1), (Ellipsis, m2), (m0, slice(None), 1),
        (1, m1), (m0, m1[:1] if False else slice(None), m2),
        np.zeros(shape[0], bool), np.ones(shape, bool),
        np.asarray(True), np.asarray(False), (None, np.asarray(True)),
        (slice(None, None, -1), I(0, 3)),
        # an ... of no dims still separates (NumPy's rule; the fuzzer's find)
        (slice(None), I(0), Ellipsis, I(0, 1)), (slice(1, None), -1, Ellipsis, I()),
        (slice(None), 0, Ellipsis, I(1, 2)),
        (slice(None), I(0, 2, 1), Ellipsis, M(True, False, True, False, True)),
    ]


def to_xp_key(key):
    if isinstance(key, tuple):
        return tuple(to_xp_key(k) for k in key)
    if isinstance(key, np.ndarray):
        return xp.asarray(np.array(key, order="C"), copy=True)
    return key


@pytest.mark.parametrize("layout", READABLE)
@pytest.mark.parametrize("dt", DTYPES, ids=ids)
def test_advanced_get(layout, dt):
    a, n = make(layout, (3, 4, 5), dt)
    for key in adv_keys(n.shape):
        want = n[key]
        got = a[to_xp_key(key)]
        assert_same(got, want)
        assert not shares(got, a) or got.size == 0


def test_advanced_get_python_lists_and_mixed():
    a, n = make("stepped", (3, 4, 5), xp.float32)
    assert_same(a[[0, 2]], n[[0, 2]])
    assert_same(a[[True, False, True]], n[[True, False, True]])
    assert_same(a[1, [0, 3]], n[1, [0, 3]])
    assert_same(a[[[0], [1]], [1, 2]], n[[[0], [1]], [1, 2]])
    assert_same(a[np.array([2, 0])], n[np.array([2, 0])])     # a NumPy index array
    assert_same(a[xp.asarray([0, 2])[::-1]], n[[2, 0]])       # a strided index array


# ---- setitem ---------------------------------------------------------------------

def value_for(dt, shape, seed):
    return sample(shape, dt, seed)


@pytest.mark.parametrize("layout", WRITABLE + ["zerod"])
@pytest.mark.parametrize("dt", DTYPES, ids=ids)
def test_basic_set_random_writes_base(layout, dt):
    rng = random.Random(zlib.crc32(f"set-{layout}-{dt.name}".encode()))
    a, n, ab, nb = make_with_base(layout, (4, 5, 3), dt)
    for i in range(15):
        key = random_basic_key(rng, n.shape)
        target = n[key]
        if rng.random() < 0.5:   # an array value, broadcast over the target
            vshape = np.shape(target)[rng.randrange(len(np.shape(target)) + 1):]
            val = value_for(dt, vshape, i)
            a[key] = xp.asarray(val)
        else:                    # a Python scalar
            val = value_for(dt, (), i).item()
            a[key] = val
        n[key] = val
        assert_same(a, n)
        assert_same(ab, nb)       # the writes went through the view into the base


@pytest.mark.parametrize("layout", WRITABLE)
@pytest.mark.parametrize("dt", DTYPES, ids=ids)
def test_advanced_set(layout, dt):
    a, n, ab, nb = make_with_base(layout, (3, 4, 5), dt)
    for k, key in enumerate(adv_keys((3, 4, 5))):
        target = n[key]
        val = value_for(dt, np.shape(target)[1:], k)   # broadcast over the first dim
        n[key] = val
        a[to_xp_key(key)] = xp.asarray(val)
        assert_same(a, n)
        assert_same(ab, nb)
        scalar = value_for(dt, (), k + 100).item()
        n[key] = scalar
        a[to_xp_key(key)] = scalar
        assert_same(ab, nb)


def test_set_values_of_other_kinds():
    a = xp.zeros((2, 3), dtype=xp.float32)
    n = np.zeros((2, 3), dtype=np.float32)
    for key, val in [((0,), [1, 2, 3]), ((1, slice(None, None, 2)), (7, 8)), ((Ellipsis,), 2),
                     ((slice(None), 1), True), ((0,), np.array([4, 5, 6], dtype=np.int8))]:
        a[key] = val
        n[key] = val
        assert_same(a, n)
    a[1] = xp.asarray([1, 2, 3], dtype=xp.int64)           # cast on write
    n[1] = [1, 2, 3]
    assert_same(a, n)
    i = xp.zeros(3, dtype=xp.int8)
    i[:] = xp.asarray([1.9, -2.9, 3.0])
    assert i.tolist() == [1, -2, 3]
    with pytest.raises(TypeError, match="__setitem__"):
        a[0, 0] = 1j
    with pytest.raises(OverflowError):
        i[0] = 1000


def test_duplicate_indices_last_write_wins():
    a = xp.zeros(4)
    n = np.zeros(4)
    a[xp.asarray([0, 2, 0])] = xp.asarray([1.0, 2.0, 3.0])
    n[[0, 2, 0]] = [1.0, 2.0, 3.0]
    assert_same(a, n)


# ---- refusals and overlap ----------------------------------------------------------

def test_refuse_stride0_and_overlapping_windows():
    base = xp.arange(10.0)
    b = xp.expand(base[:1], (3, 4))   # write-through (broadcast_to views are read-only)
    with pytest.raises(ValueError, match="__setitem__.*two indices"):
        b[...] = 1.0
    with pytest.raises(ValueError, match="__setitem__"):
        b[:, 0] = xp.asarray([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="__setitem__"):
        b[[0, 1], 0] = 5.0
    w = xp.unfold(base, 0, 3, 1)
    with pytest.raises(ValueError, match="__setitem__"):
        w[...] = 0.0
    with pytest.raises(ValueError, match="__setitem__"):
        xp.as_strided(base, (4, 3), (2, 1))[1:3] = 0.0
    assert base.tolist() == list(map(float, range(10)))    # nothing written
    b[0, 0] = 9.0                                           # one element: fine
    assert base[0].tolist() == 9.0
    w[1] = xp.asarray([-1.0, -2.0, -3.0])                  # one window: no overlap inside
    assert base.tolist()[1:4] == [-1.0, -2.0, -3.0]


@pytest.mark.parametrize("dt", DTYPES, ids=ids)
def test_overlap_exact(dt):
    n0 = sample((10,), dt, 3)
    for dst, src in [((slice(1, None),), (slice(None, -1),)),
                     ((slice(None, -1),), (slice(1, None),)),
                     ((slice(None, None, 2),), (slice(None, 5),)),
                     ((slice(None, 5),), (slice(None, None, 2),)),
                     ((Ellipsis,), (slice(None, None, -1),)),
                     ((slice(2, 8),), (slice(7, 1, -1),)),
                     ((slice(None, None, -2),), (slice(5, None),))]:
        a = xp.asarray(n0, copy=True)
        n = n0.copy()
        a[dst] = a[src]
        n[dst] = n[src].copy()      # the source as if copied first
        assert_same(a, n)


def test_overlap_issue_cases():
    x = xp.arange(10)
    x[1:] = x[:-1]
    assert x.tolist() == [0, 0, 1, 2, 3, 4, 5, 6, 7, 8]
    x = xp.arange(10)
    x[::2] = x[:5]
    assert x.tolist() == [0, 1, 1, 3, 2, 5, 3, 7, 4, 9]
    x = xp.arange(10)
    x[...] = x[::-1]
    assert x.tolist() == list(range(9, -1, -1))
    m = xp.reshape(xp.arange(16), (4, 4))
    m[...] = m.T                                            # 2-D in-place transpose
    assert m.tolist() == np.arange(16).reshape(4, 4).T.tolist()
    y = xp.arange(6)
    y[xp.asarray([1, 2, 3])] = y[:3]                       # advanced set, overlapping source
    assert y.tolist() == [0, 0, 1, 2, 4, 5]


def test_write_through_external_and_readonly():
    n = np.arange(6.0).reshape(2, 3)
    a = xp.asarray(n)
    a[:, ::-1][0] = xp.asarray([10.0, 11.0, 12.0])
    assert n[0].tolist() == [12.0, 11.0, 10.0]
    a[xp.asarray([[True, False, True], [False, False, False]])] = -1.0
    assert n[0].tolist() == [-1.0, 11.0, -1.0]
    r = np.arange(3.0)
    r.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        xp.asarray(r)[0] = 1.0


# ---- errors --------------------------------------------------------------------------

@pytest.mark.parametrize("key, exc", [
    (3, IndexError), (-4, IndexError), ((0, 5), IndexError), ((0, 0, 0), IndexError),
    ((Ellipsis, Ellipsis), IndexError), (1.0, IndexError), ("a", IndexError),
    ((slice(None, None, 0),), ValueError),
    (xp.asarray([0, 3]), IndexError), (xp.asarray([-4]), IndexError),
    ((xp.asarray([0, 1]), xp.asarray([0, 1, 2])), IndexError),
    (xp.asarray([1.0]), IndexError), (xp.asarray([True, False]), IndexError),
    (xp.zeros((3, 5), dtype=xp.bool), IndexError),
    ((slice(None), [0, 4]), IndexError),
])
def test_get_errors(key, exc):
    a = xp.reshape(xp.arange(12), (3, 4))
    with pytest.raises(exc, match="Array.__getitem__"):
        a[key]
    with pytest.raises(exc, match="Array.__setitem__"):
        a[key] = 0


def test_set_shape_mismatch():
    a = xp.zeros((3, 4))
    with pytest.raises(ValueError, match="__setitem__.*broadcast"):
        a[...] = xp.zeros(3)
    with pytest.raises(ValueError, match="__setitem__.*broadcast"):
        a[xp.asarray([0, 1])] = xp.zeros((3, 4))
    with pytest.raises(ValueError, match="__setitem__.*broadcast"):
        a[0] = [1, 2]


def test_empty_mask_dims():
    a = xp.asarray([False])
    assert_same(a[xp.asarray([], dtype=xp.bool)], np.array([False])[np.array([], bool)])
    b = xp.reshape(xp.arange(6), (3, 2))
    assert b[xp.zeros((0, 2), dtype=xp.bool)].shape == (0,)
    assert b[xp.zeros((0,), dtype=xp.bool)].shape == (0, 2)


def test_interleaved_but_disjoint_view_is_writable():
    base = xp.zeros(8, dtype=xp.int32)
    v = xp.as_strided(base, (2, 3), (3, 2))        # elements 0 2 4 / 3 5 7: no two alike
    v[...] = xp.reshape(xp.arange(1, 7, dtype=xp.int32), (2, 3))
    assert base.tolist() == [1, 0, 2, 4, 3, 5, 0, 6]
    w = xp.as_strided(base, (2, 3), (2, 1))        # elements 0 1 2 / 2 3 4: 2 twice
    with pytest.raises(ValueError, match="__setitem__"):
        w[...] = 0


def test_int_with_empty_advanced_index_still_checked():
    a = xp.zeros((4, 0, 0, 4))
    with pytest.raises(IndexError, match="Array.__getitem__"):
        a[-3, xp.zeros((0,), dtype=xp.bool), -1]
    with pytest.raises(IndexError, match="Array.__getitem__"):
        a[xp.asarray([], dtype=xp.int64), 0]
    with pytest.raises(IndexError, match="Array.__getitem__"):
        a[2 ** 70, xp.asarray([0])]
    assert a[xp.asarray([], dtype=xp.int64), :, :, 3].shape == (0, 0, 0)


def test_single_index_array_is_a_take_along_its_dim():
    """x[..., int array, ...] among slices and None runs as a take on the
    sliced view: large sources (the prefetching gather), negative indices,
    every item size, and errors that name x's axis."""
    rng = np.random.default_rng(3)
    for dtype in (np.int8, np.int16, np.float32, np.float64, np.complex128):
        n = (rng.standard_normal(300000) * 100).astype(dtype)
        a = xp.asarray(n)
        idx = rng.integers(-300000, 300000, 5000)
        assert_same(a[xp.asarray(idx)], n[idx])
        assert_same(xp.take(a, xp.asarray(idx)), n.take(idx))
    n2 = np.arange(6 * 70000, dtype=np.float64).reshape(6, 70000)[::-2, ::3]
    a2 = xp.asarray(np.ascontiguousarray(n2))
    idx = rng.integers(-n2.shape[1], n2.shape[1], (40, 3))
    assert_same(a2[:, xp.asarray(idx)], n2[:, idx])
    assert_same(a2[None, 1:, xp.asarray(idx)], n2[None, 1:, idx])
    a3 = xp.reshape(xp.arange(24.0), (2, 3, 4))
    with pytest.raises(IndexError, match=r"Array.__getitem__: index 4 is out of bounds for axis 2 "
                                         r"with size 4"):
        a3[None, :, :, xp.asarray([0, 4])]
    bad = np.zeros(3000, dtype=np.int64)
    bad[2500] = -300001
    with pytest.raises(IndexError, match=r"index -300001 is out of bounds for axis 0"):
        xp.asarray(np.zeros(300000))[xp.asarray(bad)]
    e = xp.zeros((2, 0))
    with pytest.raises(IndexError, match="Array.__getitem__"):
        e[:, xp.asarray([0])]
    assert e[:, xp.asarray([], dtype=xp.int64)].shape == (2, 0)


@pytest.mark.parametrize("kdt", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                 np.uint32, np.uint64])
def test_integer_array_key_of_every_index_dtype(kdt):
    """x[idx] with one integer array (the gather of whole rows): every index
    dtype, negative indices, N-D keys and sources, keys in any layout, empty
    keys and rows, and out-of-range indices refused with the Python path's
    words, nothing returned."""
    n = np.arange(60.0).reshape(5, 3, 4)
    a = xp.asarray(n)
    signed = np.issubdtype(kdt, np.signedinteger)
    raw = np.asarray([[4, 0, 2], [1, 1, 3]] if not signed else [[-1, 0, 2], [-5, 1, 3]], dtype=kdt)
    for key in (raw, raw.T, raw[:, ::-2], raw[:1, :0], raw.ravel()):
        k = xp.asarray(np.ascontiguousarray(key))
        assert_same(a[k], n[key])
        assert_same(a[:, 0][k], n[:, 0][key])      # a strided source: the general path
    kt = xp.asarray(raw).T                           # a strided key
    assert_same(a[kt], n[raw.T])
    assert_same(xp.zeros((0, 2))[xp.asarray([], dtype=xp.int64)], np.zeros((0, 2))[np.asarray([], np.int64)])
    with pytest.raises(IndexError, match=r"Array.__getitem__: index 5 is out of bounds for axis 0 "
                                         r"with size 5"):
        a[xp.asarray([0, 5], dtype=xp.int64)]
    if signed:
        with pytest.raises(IndexError, match="Array.__getitem__"):
            a[xp.asarray([-6], dtype=xp.int64)]
    else:
        with pytest.raises(IndexError, match="Array.__getitem__"):
            a[xp.asarray([2 ** 63], dtype=xp.uint64)]
