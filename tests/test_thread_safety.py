"""The API from several threads at once: each test works on arrays of its
own (creation, elementwise, indexing, reductions, setitem, sort, matmul) and
checks the results against NumPy. CI runs this file with pytest-run-parallel
(`--parallel-threads=4`: every test body in 4 threads at once), beside
arrstride's pool; in the ordinary suite each runs once."""
import numpy as np

import arrstride as xp
from conftest import assert_same

N = 1 << 18  # past the pool's grain: the kernels split over its threads


def _data(seed):
    return np.random.default_rng(seed).standard_normal(N)


def test_creation():
    assert_same(xp.arange(N, dtype=xp.float64), np.arange(N, dtype=np.float64))
    assert_same(xp.zeros((512, 512)), np.zeros((512, 512)))
    assert_same(xp.full((300, 7), 2.5, dtype=xp.float32), np.full((300, 7), 2.5, dtype=np.float32))
    assert_same(xp.linspace(0, 1, N), np.linspace(0, 1, N))
    a = _data(1)
    assert_same(xp.asarray(a), a)


def test_elementwise():
    a, b = _data(2), _data(3)
    x, y = xp.asarray(a), xp.asarray(b)
    assert_same(x * y + 1.0, a * b + 1.0)
    np.testing.assert_allclose(np.asarray(xp.exp(x[::3])), np.exp(a[::3]), rtol=1e-15)  # within 1 ULP each, NumPy and arrstride
    assert_same(xp.astype(x, xp.float32), a.astype(np.float32))
    assert_same(xp.reshape(x, (512, 512)).T - y[:512], a.reshape(512, 512).T - b[:512])


def test_indexing():
    a = _data(4).reshape(512, 512)
    x = xp.asarray(a)
    idx = np.random.default_rng(5).integers(0, 512, 1000)
    assert_same(x[xp.asarray(idx)], a[idx])
    assert_same(x[x > 0], a[a > 0])
    assert_same(x[::-2, 3:100:7], a[::-2, 3:100:7])


def test_reductions():
    a = _data(6).reshape(512, 512)
    x = xp.asarray(a)
    np.testing.assert_allclose(float(xp.sum(x)), a.sum(), rtol=1e-10)
    assert_same(xp.max(x, axis=0), a.max(axis=0))
    np.testing.assert_allclose(np.asarray(xp.mean(x, axis=1)), a.mean(axis=1), rtol=1e-12)


def test_setitem_on_distinct_arrays():
    a = _data(7).reshape(512, 512)
    x = xp.asarray(a.copy())
    want = a.copy()
    x[1:, :] = x[:-1, :]                    # overlapping source and destination
    want[1:, :] = want[:-1, :].copy()
    x[::2, 5] = 0.5
    want[::2, 5] = 0.5
    assert_same(x, want)


def test_sort_and_matmul():
    a = _data(8)
    assert_same(xp.sort(xp.asarray(a)), np.sort(a))
    m = a[:200 * 200].reshape(200, 200)
    np.testing.assert_allclose(np.asarray(xp.asarray(m) @ xp.asarray(m)), m @ m, rtol=1e-10, atol=1e-10)
