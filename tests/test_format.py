"""repr and str print as NumPy 2 does (with "Array(" for "array(")."""
from __future__ import annotations

import numpy as np
import pytest

import arrstride as xp
from layouts import ALL, DTYPES, make, params

rng = np.random.default_rng(0)
CASES = [
    np.arange(12).reshape(3, 4), np.linspace(0, 1, 5), np.array([1.5, -2.25, 3.0]), np.array([1e-5, 1.0]),
    np.array([1e20, 1.0]), np.array([np.nan, np.inf, -1.0]), np.array([True, False]), np.array([True, True]),
    np.array([1 + 2j, -3.5 - 0.5j]), np.arange(3000).reshape(3, 1000), np.arange(2000.0),
    np.zeros((2, 0)), np.zeros((0,)), np.zeros((0,), np.int8), np.array(3.0), np.array(5), np.array(True),
    np.array(1 + 1j), np.arange(24).reshape(2, 3, 4), np.array([0.1, 0.2, 0.3], dtype=np.float32),
    np.array([100.0, 2.0]), np.array([-0.0, 0.0]), np.arange(40.0) / 7, np.array([[1.0, -1.0], [10.5, 3.0]]),
    np.array([2 ** 63], dtype=np.uint64), np.array([1e-300, 1e300]), np.array([1.123456789012, 2.0]),
    np.array([np.nan]), np.array([np.inf, -np.inf]), np.array([np.nan, 1e-7]),
    np.array([1j, np.nan + 1j, complex(1, np.inf)]), np.array([1e10 + 1j, 1 - 1e-10j]),
    np.array(np.float32(0.1)), np.array(np.complex64(0.1 + 0.2j)), np.array(1e-7), np.array(1e20),
    np.array(-0.0), np.array(complex(0, -1)), np.array(complex(-1.5, 0)), np.array(np.uint8(7)),
    np.array(np.nan), np.arange(2000, dtype=np.int8).reshape(10, 200), np.ones((20, 60, 3)),
    np.arange(60.0).reshape(3, 4, 5) * 1.5, (rng.standard_normal((4, 6)) * 100).astype(np.float32),
    rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3)), np.array([[True, False], [False, True]]),
    np.arange(10, dtype=np.uint16), np.full((3,), 12345678.9), np.array([0.5, 123456789.0]),
    np.arange(1100).reshape(1100, 1).astype(np.float32),
]


@pytest.mark.parametrize("n", CASES, ids=range(len(CASES)))
def test_like_numpy(n):
    a = xp.asarray(np.array(n, order="C"), copy=True)
    assert repr(a) == repr(n).replace("array(", "Array(")
    assert str(a) == str(n)


@pytest.mark.parametrize("layout", params(ALL, ndim=2))
@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: d.name)
def test_layouts_like_numpy(layout, dt):
    a, n = make(layout, (3, 4), dt)
    n = np.asarray(n)
    assert repr(a) == repr(n).replace("array(", "Array(")
    assert str(a) == str(n)
