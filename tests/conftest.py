"""Shared helpers for the tests: fixtures over the layout catalogue
(tests/layouts.py builds the arrays) and value/storage comparisons."""
from __future__ import annotations

import numpy as np
import pytest

import arrstride as xp
from layouts import CORE, DTYPE_NAMES


def np_dtype(dtype) -> np.dtype:
    return np.dtype(dtype.name)


def xp_dtype(npdt) -> object:
    return getattr(xp, np.dtype(npdt).name)


@pytest.fixture(params=CORE)
def layout(request) -> str:
    return request.param


@pytest.fixture(params=DTYPE_NAMES)
def dtype(request):
    return getattr(xp, request.param)


@pytest.fixture
def fast_paths_on():
    """For a test that calls a _core fast path itself: the fast paths on, even
    in a run with ARRSTRIDE_FAST_PATHS=0 (restored after)."""
    from arrstride import _core
    was = _core.set_fast_paths(True)
    yield
    _core.set_fast_paths(was)


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
