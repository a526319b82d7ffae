"""partition and argpartition against NumPy: for every real dtype, layout,
axis and kind of kth, the result is a valid partition (the element at each
kth is np.partition's, those before it are <= and those after >=, NaNs
largest) of the same values, and argpartition's indices are a permutation of
each lane that partitions it. Every kernel is checked: the vector one (lanes
of 64 elements or more, where the CPU has AVX-512), counting (long lanes of 1-
and 2-byte dtypes) and the portable introselect, forced through the kernel
bridge, on inputs built to defeat a median-of-3 pivot."""
from __future__ import annotations

import numpy as np
import pytest

import arrstride as xp
from arrstride import _kernels as K
from conftest import to_numpy
from layouts import REAL_NAMES, make, params

KTHS = [0, -1, 1, [0, -1], [2, 5, 5, -3], -4]


def _le(a, b):
    """a <= b with NaN largest (and equal to NaN)."""
    r = a <= b
    if a.dtype.kind == "f":
        r = r | np.isnan(b)
    return r


def assert_partition(p, n, ks, axis=-1):
    """p is a valid partition of n along axis at the positions ks."""
    p = np.moveaxis(np.asarray(p), axis, -1)
    n = np.moveaxis(np.asarray(n), axis, -1)
    assert p.shape == n.shape and p.dtype == n.dtype
    s = np.sort(n, axis=-1)
    np.testing.assert_array_equal(np.sort(p, axis=-1), s)  # the same values
    length = n.shape[-1]
    for k in np.atleast_1d(ks):
        k = int(k) % length
        kv = p[..., k:k + 1]
        np.testing.assert_array_equal(p[..., k], s[..., k])
        np.testing.assert_array_equal(p[..., k], np.partition(n, k, axis=-1)[..., k])
        assert _le(p[..., :k], kv).all(), k
        assert _le(kv, p[..., k + 1:]).all(), k


def assert_argpartition(idx, n, ks, axis=-1):
    idx = np.asarray(idx)
    assert idx.dtype == np.int64 and idx.shape == n.shape
    ii = np.moveaxis(idx, axis, -1)
    np.testing.assert_array_equal(np.sort(ii, axis=-1),
                                  np.broadcast_to(np.arange(ii.shape[-1]), ii.shape))
    assert_partition(np.take_along_axis(n, idx, axis), n, ks, axis)


def _kths(length):
    return [k for k in KTHS if all(-length <= j < length for j in np.atleast_1d(k))]


@pytest.mark.parametrize("layout", params())
@pytest.mark.parametrize("dtype", REAL_NAMES)
def test_layouts_every_axis(layout, dtype):
    for shape in ((3, 7), (2, 3, 70)):
        a, n = make(layout, shape, dtype)
        if n.ndim == 0:
            with pytest.raises(ValueError, match="partition"):
                xp.partition(a, 0)
            continue
        for axis in range(-n.ndim, n.ndim):
            for kth in _kths(n.shape[axis]):
                assert_partition(to_numpy(xp.partition(a, kth, axis=axis)), n, kth, axis)
                assert_argpartition(to_numpy(xp.argpartition(a, kth, axis=axis)), n, kth, axis)
            if n.shape[axis] == 0:
                assert xp.partition(a, 0, axis=axis).shape == n.shape
                assert xp.argpartition(a, 0, axis=axis).shape == n.shape


@pytest.mark.parametrize("dtype", REAL_NAMES)
def test_axis_none_flattens(dtype):
    a, n = make("transposed", (5, 40), dtype)
    for kth in (0, 77, [3, -1, 150]):
        p = to_numpy(xp.partition(a, kth, axis=None))
        assert p.shape == (n.size,)
        assert_partition(p, n.ravel(), kth)
        assert_argpartition(to_numpy(xp.argpartition(a, kth, axis=None)), n.ravel(), kth)


def _hard_values(dtype, length, rng):
    """Lanes built to be hard: few distinct values, sorted, reversed, organ pipe,
    a median-of-3 killer, extremes of the dtype, NaNs and signed zeros."""
    d = np.dtype(dtype)
    if d.kind == "b":
        base = [rng.random(length) < 0.5, np.ones(length, bool), np.arange(length) % 2 == 0]
        return [np.asarray(b) for b in base]
    if d.kind in "iu":
        info = np.iinfo(d)
        ext = np.array([info.min, info.max, info.max, 0, info.min + 1, info.max - 1], dtype=object)
        rnd = rng.integers(info.min, info.max, length, dtype=d, endpoint=True)
    else:
        ext = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, np.nan, 1.0], dtype=d)
        rnd = rng.standard_normal(length).astype(d)
    ramp = (np.arange(length) % 100).astype(d)
    half = length // 2
    # quadratic for a median-of-3 quickselect (NumPy's selection.cpp says so)
    killer = np.roll(np.arange(length), half).astype(d)
    out = [rnd, ramp, ramp[::-1].copy(), np.concatenate([ramp[: half], ramp[half:][::-1]]),
           killer, (rng.integers(0, 3, length)).astype(d)]
    with_ext = rnd.copy()
    pos = rng.integers(0, length, 3 * len(ext))
    with_ext[pos] = np.resize(ext, pos.shape).astype(d)
    out.append(with_ext)
    if d.kind == "f":
        out.append(np.full(length, np.nan, dtype=d))
        mostly_nan = np.full(length, np.nan, dtype=d)
        mostly_nan[::7] = rnd[::7]
        out.append(mostly_nan)
    return out


@pytest.mark.parametrize("vector", [True, False], ids=["vector", "portable"])
@pytest.mark.parametrize("dtype", REAL_NAMES)
def test_hard_inputs_both_kernels(dtype, vector):
    rng = np.random.default_rng(3)
    lengths = (1, 2, 17, 65, 300, 5000) + ((20000,) if np.dtype(dtype).itemsize <= 2 else ())
    for length in lengths:
        for v in _hard_values(dtype, length, rng):
            a = xp.asarray(v)
            for kth in ([0], [length - 1], [length // 2], sorted({0, length // 3, length - 1}),
                        sorted(set(rng.integers(0, length, 6).tolist()))):
                out = xp.empty(v.shape, dtype=a.dtype)
                K.select(a, out, 0, kth, False, vector=vector)
                assert_partition(to_numpy(out), v, kth)
                idx = xp.empty(v.shape, dtype=xp.int64)
                K.select(a, idx, 0, kth, True, vector=vector)
                assert_argpartition(to_numpy(idx), v, kth)


@pytest.mark.parametrize("vector", [True, False], ids=["vector", "portable"])
def test_strided_lanes_both_kernels(vector):
    rng = np.random.default_rng(4)
    for dtype in ("int8", "float32", "uint64", "float64"):
        n = rng.standard_normal((300, 4)).astype(dtype) if dtype.startswith("f") else \
            rng.integers(0, 50, (300, 4)).astype(dtype)
        a = xp.asarray(n)
        out = xp.empty((4, 300), dtype=a.dtype).mT  # lanes along a strided axis
        K.select(a, out, 0, [5, 150, 299], False, vector=vector)
        assert_partition(to_numpy(out), n, [5, 150, 299], 0)
        idx = xp.empty((4, 300), dtype=xp.int64).mT
        K.select(a, idx, 0, [5, 150, 299], True, vector=vector)
        assert_argpartition(to_numpy(idx), n, [5, 150, 299], 0)


def test_many_kth_large():
    rng = np.random.default_rng(5)
    n = rng.standard_normal(200_000)
    n[rng.integers(0, n.size, 100)] = np.nan
    kth = sorted(set(rng.integers(0, n.size, 40).tolist())) + [-1, -101]
    assert_partition(to_numpy(xp.partition(xp.asarray(n), kth)), n, kth)
    assert_argpartition(to_numpy(xp.argpartition(xp.asarray(n), kth)), n, kth)


@pytest.mark.parametrize("name", ["float16", "bfloat16"])
def test_narrow_floats(name):
    rng = np.random.default_rng(6)
    v = rng.standard_normal((3, 200)).astype(np.float32)
    v[0, ::9] = np.nan
    a = xp.astype(xp.asarray(v), getattr(xp, name))
    wide = to_numpy(xp.astype(a, xp.float32))  # the values a holds
    for kth in (0, 100, [-1, 3, 150]):
        p = xp.partition(a, kth)
        assert p.dtype == a.dtype
        assert_partition(to_numpy(xp.astype(p, xp.float32)), wide, kth)
        assert_argpartition(to_numpy(xp.argpartition(a, kth)), wide, kth)


def test_numpy_input_and_kth_forms():
    n = np.array([5, 1, 4, 2, 3, 0])
    for kth in (2, np.int64(2), [1, 4], (4, 1), np.array([1, -1]), xp.asarray([0, 3]),
                xp.asarray(2)):
        ks = kth.tolist() if hasattr(kth, "tolist") else kth
        assert_partition(to_numpy(xp.partition(n, kth)), n, ks)
        assert_argpartition(to_numpy(xp.argpartition(n, kth)), n, ks)


@pytest.mark.parametrize("func", ["partition", "argpartition"])
def test_errors(func):
    f = getattr(xp, func)
    a = xp.asarray([3.0, 1.0, 2.0])
    for kth, exc, fragment in [(3, ValueError, r"kth\(=3\) out of bounds \(3\)"),
                               (-4, ValueError, "out of bounds"),
                               ([0, 5], ValueError, "out of bounds"),
                               (True, ValueError, "bool"),
                               ([True, False], ValueError, "bool"),
                               (1.0, TypeError, "int"),
                               ([], TypeError, "int"),
                               ([[1]], ValueError, "1-D"),
                               (xp.asarray([[1]]), ValueError, "1-D"),
                               (xp.asarray([1.0]), TypeError, "int")]:
        with pytest.raises(exc, match=fragment) as e:
            f(a, kth)
        assert func in str(e.value)
        with pytest.raises(exc):
            getattr(np, func)(np.asarray([3.0, 1.0, 2.0]), kth if not isinstance(kth, xp.Array)
                              else np.asarray(to_numpy(kth)))
    assert_partition(to_numpy(f(a, [2, False])) if func == "partition" else
                     to_numpy(a)[to_numpy(f(a, [2, False]))], to_numpy(a), [0, 2])
    with pytest.raises(TypeError, match=f"{func}.*real"):
        f(xp.asarray([1j, 2.0]), 0)
    with pytest.raises(ValueError, match=func):
        f(xp.asarray(1.0), 0)
    with pytest.raises(Exception, match=func):
        f(a, 0, axis=1)
