"""Shared helpers for the core tests: arrays in every layout, built the same
way in arrstride and in NumPy (the oracle), and value/storage comparisons.

`make(layout, shape, dtype)` returns (a, n): an arrstride array and the NumPy
array made by the same view operations on a base with the same values.
"""
from __future__ import annotations

import numpy as np
import pytest

import arrstride as xp

DTYPE_NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
               "uint64", "float32", "float64", "complex64", "complex128"]
DTYPES = [getattr(xp, n) for n in DTYPE_NAMES]
# layouts that keep the requested shape; "empty" and "zerod" change it
LAYOUTS = ["contiguous", "transposed", "stepped", "negative", "broadcast", "offset",
           "empty", "zerod"]


def np_dtype(dtype) -> np.dtype:
    return np.dtype(dtype.name)


def xp_dtype(npdt) -> object:
    return getattr(xp, np.dtype(npdt).name)


def sample(shape, dtype, seed: int = 0) -> np.ndarray:
    """Deterministic NumPy values for dtype: negatives for signed, fractions
    for floats, imaginary parts for complex."""
    return np.asarray(_sample(shape, dtype, seed))


def _sample(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    name = dtype if isinstance(dtype, str) else dtype.name
    if name == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    nd = np.dtype(name)
    if nd.kind == "i":
        return rng.integers(max(-100, np.iinfo(nd).min), min(100, np.iinfo(nd).max), shape).astype(nd)
    if nd.kind == "u":
        return rng.integers(0, 200, shape).astype(nd)
    if nd.kind == "f":
        return (rng.integers(-400, 400, shape) / 8).astype(nd)
    return ((rng.integers(-400, 400, shape) + 1j * rng.integers(-400, 400, shape)) / 8).astype(nd)


def from_numpy(n: np.ndarray):
    """An arrstride array with its own storage holding n's values."""
    return xp.asarray(np.array(n, order="C"), copy=True)


def make(layout: str, shape=(3, 4), dtype=xp.float64, seed: int = 0):
    """(arrstride array, numpy array) with equal values, in the given layout."""
    a, n, _, _ = make_with_base(layout, shape, dtype, seed)
    return a, n


def make_with_base(layout: str, shape=(3, 4), dtype=xp.float64, seed: int = 0):
    """(a, n, a_base, n_base): the arrays of `make` and the bases they view."""
    shape = tuple(shape)
    nd = len(shape)
    if layout == "contiguous":
        base = sample(shape, dtype, seed)
        ab = from_numpy(base)
        return ab, base, ab, base
    if layout == "transposed":
        base = sample(shape[::-1], dtype, seed)
        axes = tuple(range(nd))[::-1]
        ab = from_numpy(base)
        return xp.permute_dims(ab, axes), base.transpose(axes), ab, base
    if layout == "broadcast":
        small = tuple(1 if k % 2 == 0 else d for k, d in enumerate(shape))
        base = sample(small, dtype, seed)
        ab = from_numpy(base)
        return xp.broadcast_to(ab, shape), np.broadcast_to(base, shape), ab, base
    if layout == "stepped":
        base_shape = tuple(2 * d + 1 for d in shape)
        key = tuple(slice(1, None, 2) for _ in shape)
    elif layout == "negative":
        base_shape = shape
        key = tuple(slice(None, None, -1) for _ in shape)
    elif layout == "offset":
        base_shape = tuple(d + 2 for d in shape)
        key = tuple(slice(2, None) for _ in shape)
    elif layout == "empty":
        shape = shape[:-1] + (0,) if shape else (0,)
        base_shape = tuple(d + 1 for d in shape)
        key = tuple(slice(1, None) for _ in shape)
    elif layout == "zerod":
        base_shape = (3, 2)
        key = (2, 1, Ellipsis)
    else:
        raise ValueError(layout)
    base = sample(base_shape, dtype, seed)
    ab = from_numpy(base)
    return ab[key], base[key], ab, base


@pytest.fixture(params=LAYOUTS)
def layout(request) -> str:
    return request.param


@pytest.fixture
def layouts():
    """The `make` helper as a fixture: layouts(name, shape, dtype) -> (a, n)."""
    return make


@pytest.fixture(params=DTYPE_NAMES)
def dtype(request):
    return getattr(xp, request.param)


# ---- comparisons ------------------------------------------------------------

def to_numpy(a) -> np.ndarray:
    """a's values, read through tolist (independent of the storage layout)."""
    return np.array(a.tolist(), dtype=np_dtype(a.dtype)).reshape(a.shape)


class _Holder:
    """Exports an array's storage to NumPy and keeps the array alive with it."""

    def __init__(self, a):
        self.a = a
        st = a.storage
        self.__array_interface__ = {
            "data": (st.address, False), "shape": (st.nbytes // a.dtype.itemsize,),
            "typestr": np_dtype(a.dtype).str, "version": 3}


def storage_numpy(a) -> np.ndarray:
    """All of a's storage as a flat writable NumPy array (shares the bytes and
    keeps a alive)."""
    return np.asarray(_Holder(a))


def through_storage(a) -> np.ndarray:
    """a's values read from its storage bytes by its (shape, strides, offset)."""
    flat = storage_numpy(a)
    isz = a.dtype.itemsize
    if a.size == 0:
        return np.empty(a.shape, np_dtype(a.dtype))
    base = flat[a.offset:]
    return np.lib.stride_tricks.as_strided(base, a.shape, tuple(s * isz for s in a.strides))


def assert_same(a, n, check_dtype: bool = True) -> None:
    """Same shape, dtype and values (NaN equal to NaN, signed zeros ignored)."""
    n = np.asarray(n)
    assert isinstance(a, xp.Array), type(a)
    assert a.shape == n.shape, (a.shape, n.shape)
    if check_dtype:
        assert a.dtype == xp_dtype(n.dtype), (a.dtype, n.dtype)
    got = to_numpy(a)
    _assert_equal(got, n.astype(got.dtype) if not check_dtype else n)
    _assert_equal(through_storage(a), got)


def _assert_equal(x: np.ndarray, y: np.ndarray) -> None:
    """assert_array_equal (NaN equal to NaN), with a fast path when equal."""
    nan_ok = x.dtype.kind in "fc" and y.dtype.kind in "fc"
    if x.shape == y.shape and np.array_equal(x, y, equal_nan=nan_ok):
        return
    np.testing.assert_array_equal(x, y)


def shares(a, b) -> bool:
    """True when a and b are views of one storage."""
    return a.storage.ptr == b.storage.ptr


def assert_view(view, base) -> None:
    """view shares base's storage, and a write through view is seen in base."""
    assert shares(view, base)
    if view.size == 0:
        return
    flat = storage_numpy(base)
    before = flat.copy()
    first = view[(0,) * view.ndim]
    old = first._item()
    new = (not old) if view.dtype == xp.bool else (old - 1 if old.real > 0 else old + 1)
    view[(0,) * view.ndim] = new
    idx = view.offset
    assert flat[idx] == new
    changed = np.flatnonzero(flat != before)
    assert list(changed) == [idx]
    view[(0,) * view.ndim] = old
