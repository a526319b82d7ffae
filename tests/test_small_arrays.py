"""A small array made in C is one object: its dims, strides and data live in
the Array itself, and it gets a Storage (its data moved into a Block) only
when something asks for one: x._storage, a view, a row iterator, an export.
These tests check that the move is invisible: every view, export and write
sees the same elements before and after it, and that a small array costs no
more memory than NumPy's."""
import gc
import sys
import tracemalloc
import weakref

import numpy as np
import pytest

import arrstride as xp


def _bytes_per(make, n=20000):
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        keep = [make() for _ in range(n)]
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return (after - before - sys.getsizeof(keep)) / n


@pytest.mark.parametrize("make_xp, make_np", [
    (lambda: xp.zeros(2), lambda: np.zeros(2)),
    (lambda: xp.ones(3), lambda: np.ones(3)),
    (lambda: xp.zeros((2, 3)), lambda: np.zeros((2, 3))),
    (lambda: xp.asarray([1.0, 2.0]), lambda: np.asarray([1.0, 2.0])),
    (lambda: xp.full(4, 7, dtype=xp.int32), lambda: np.full(4, 7, dtype=np.int32)),
], ids=["zeros(2)", "ones(3)", "zeros((2,3))", "asarray", "full int32"])
def test_a_small_array_costs_no_more_than_numpys(make_xp, make_np, fast_paths_on):
    # (these arrays are made in C; with the fast paths off, by Python, whose
    # Storage objects cost more)
    ours, theirs = _bytes_per(make_xp), _bytes_per(make_np)
    assert ours <= theirs + 1, f"arrstride {ours:.0f} bytes per array, NumPy {theirs:.0f}"


def test_small_arrays_are_untracked_and_weakly_referenceable():
    a = xp.ones(3)
    assert not gc.is_tracked(a)
    r = weakref.ref(a)
    assert r() is a
    del a
    gc.collect()
    assert r() is None


def _small(dtype=xp.float64):
    a = xp.zeros(4, dtype=dtype)
    a[...] = xp.asarray([1, 2, 3, 4], dtype=dtype)
    return a


def test_a_view_and_its_base_share_after_the_move():
    a = _small()
    v = a[1:3]            # a's data moves into a Block here
    v[0] = 9.0
    assert a[1] == 9.0
    a[2] = -1.0           # a writes where its view reads
    assert v[1] == -1.0
    assert a._storage is v._storage
    assert a._storage is a._storage   # made once


def test_storage_asked_first_then_writes_are_seen_by_both():
    a = _small()
    st = a._storage
    assert st.nbytes == 32
    a[0] = 5.0
    w = xp.reshape(a, (2, 2))
    assert w[0, 0] == 5.0
    w[1, 1] = 7.0
    assert a[3] == 7.0
    assert a._storage is st


class _Interface:
    """Exposes only __array_interface__ (NumPy then cannot take __array_struct__)."""
    def __init__(self, a):
        self.__array_interface__ = a.__array_interface__


@pytest.mark.parametrize("export", ["array_struct", "array_interface", "dlpack"])
def test_an_export_shares_the_memory_the_array_keeps(export):
    a = _small()
    if export == "array_struct":
        e = np.asarray(a)
    elif export == "array_interface":
        e = np.asarray(_Interface(a))
    else:
        e = np.from_dlpack(a)
    a._storage          # a later request must not move the data from under e
    e[0] = 42.0
    assert a[0] == 42.0
    a[1] = -3.0
    assert e[1] == -3.0


def test_row_iteration_of_a_small_matrix():
    m = xp.reshape(xp.arange(6.0), (2, 3))
    rows = list(m)
    rows[1][0] = 30.0
    assert m[1, 0] == 30.0
    assert [float(r[2]) for r in rows] == [2.0, 5.0]


@pytest.mark.parametrize("dtype", [xp.bool, xp.int8, xp.uint16, xp.int32, xp.int64, xp.float16,
                                   xp.float32, xp.float64, xp.complex64, xp.complex128])
def test_small_results_equal_numpys_for_every_dtype(dtype):
    ref = np.asarray([1, 0, 1, 1, 0], dtype=np.dtype(dtype.name if dtype.name != "bool" else "bool"))
    a = xp.asarray(ref.tolist(), dtype=dtype)
    b = a + a if dtype != xp.bool else xp.logical_xor(a, a)
    want = ref + ref if dtype != xp.bool else np.logical_xor(ref, ref)
    np.testing.assert_array_equal(np.asarray(b), want)
    np.testing.assert_array_equal(np.asarray(b[::-2]), want[::-2])


def test_many_small_arrays_die_with_their_views_under_the_collector():
    keep = []
    for i in range(2000):
        a = xp.full(3, float(i))
        if i % 3 == 0:
            keep.append(a[1:])   # the view keeps the moved data alive
        if i % 7 == 0:  # the young generation, where these arrays and views sit
            gc.collect(0)
        if i % 500 == 0:
            gc.collect()
    del a
    gc.collect()
    assert [float(v[0]) for v in keep[:4]] == [0.0, 3.0, 6.0, 9.0]
    assert all(float(v[1]) == 3.0 * k for k, v in enumerate(keep))


def test_pickle_and_copy_of_a_small_array():
    import copy
    import pickle
    a = _small(xp.int32)
    for b in (pickle.loads(pickle.dumps(a)), copy.deepcopy(a), copy.copy(a)):
        assert b.dtype == xp.int32
        np.testing.assert_array_equal(np.asarray(b), [1, 2, 3, 4])
        b[0] = 0
        assert a[0] == 1
