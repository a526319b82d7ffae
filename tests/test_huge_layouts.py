"""Layouts whose sizes, strides or steps do not fit C's int64:
never a crash, never a silently wrong answer.

Nothing here allocates much memory: huge arrays are broadcast views (stride
0) over a one-element storage, and every call either computes a small result
or is refused before any kernel runs.
"""
import time

import numpy as np
import pytest

import arrstride as xp
from arrstride import _kernels as K

BIG = 2**32  # BIG * BIG = 2**64 elements: one more than int64 counts


def huge(shape=(BIG, BIG), dtype=None):
    return xp.broadcast_to(xp.ones(1, dtype=dtype or xp.float64), shape)


def assert_too_large(func, call):
    with pytest.raises(ValueError, match="iterator is too large") as info:
        call()
    assert str(info.value).startswith(func + ":"), str(info.value)
    return str(info.value)


# ---- item 3: element counts past int64 ----------------------------------------------

def test_huge_view_is_a_legal_view():
    v = huge()
    assert v.shape == (BIG, BIG) and v.size == 2**64 and v.strides == (0, 0)
    assert float(v[BIG - 1, 5]) == 1.0


@pytest.mark.parametrize("func", ["sum", "prod", "mean", "var", "std", "max", "min",
                                  "any", "all", "count_nonzero", "argmax", "argmin"])
def test_full_reductions_refuse(func):
    v = huge()
    text = assert_too_large(func, lambda: getattr(xp, func)(v))
    assert str(2**64) in text and str((BIG, BIG)) in text


@pytest.mark.parametrize("func", ["sum", "prod", "mean", "var", "std", "max", "min",
                                  "any", "all", "count_nonzero"])
def test_axis_reductions_with_a_small_result_refuse(func):
    w = huge((BIG, BIG, 2))  # reducing axes 0 and 1 leaves 2 elements
    assert_too_large(func, lambda: getattr(xp, func)(w, axis=(0, 1)))


@pytest.mark.parametrize("dtype", [xp.bool, xp.int8, xp.uint64, xp.float32, xp.complex128])
def test_reductions_refuse_every_dtype(dtype):
    v = huge(dtype=dtype)
    assert_too_large("sum", lambda: xp.sum(v))
    assert_too_large("any", lambda: xp.any(v))
    assert_too_large("count_nonzero", lambda: xp.count_nonzero(v))


def assert_dim_refused(func, call):
    # no shape holds a dim past 2**63 - 1, empty or not (NumPy's wording)
    with pytest.raises(ValueError, match="maximum allowed dimension exceeded") as info:
        call()
    assert str(info.value).startswith(func + ":"), str(info.value)


def test_past_int64_by_one_dim_and_by_many():
    assert_dim_refused("broadcast_to", lambda: huge((2**63,)))
    assert_too_large("sum", lambda: xp.sum(huge((2, 2**62 + 1))))
    assert_too_large("max", lambda: xp.max(huge((2**16,) * 4)))
    assert_too_large("all", lambda: xp.all(huge((3, 2**62), dtype=xp.bool)))


def test_reshaped_and_sliced_huge_views():
    v = huge()
    assert_dim_refused("reshape", lambda: xp.reshape(v, (-1,)))  # one dim of 2**64
    flat = xp.reshape(v, (4, -1))          # a view: shape (4, 2**62), stride 0
    assert flat.shape == (4, 2**62) and flat.strides == (0, 0)
    assert_too_large("sum", lambda: xp.sum(flat))
    r = xp.reshape(v, (2**16, 2**48))
    assert_too_large("min", lambda: xp.min(r))
    assert xp.sum(v[:3, :5]) == 15.0       # a small piece is computed
    assert xp.sum(v[::2**31, ::2**30]) == 8.0


def test_empty_views_with_huge_dims_are_empty():
    e = xp.broadcast_to(xp.ones((0, 1)), (0, 2**62))
    assert float(xp.sum(e)) == 0.0
    assert bool(xp.all(e)) is True
    assert int(xp.count_nonzero(e)) == 0


def test_huge_results_are_refused_before_allocating():
    v = huge()
    calls = {
        "add": lambda: v + 1, "negative": lambda: -v, "where": lambda: xp.where(v > 0, v, 0.0),
        "astype": lambda: xp.astype(v, xp.float32), "sort": lambda: xp.sort(v, axis=1),
        "argsort": lambda: xp.argsort(v, axis=1),
        "cumulative_sum": lambda: xp.cumulative_sum(v, axis=1),
        "cumulative_prod": lambda: xp.cumulative_prod(huge((BIG, BIG, 2)), axis=0),
        "copy": lambda: xp.asarray(v, copy=True), "contiguous": lambda: v.contiguous(),
        "empty_like": lambda: xp.empty_like(v), "zeros_like": lambda: xp.zeros_like(v),
        "clip": lambda: xp.clip(v, 0, 1), "diff": lambda: xp.diff(v),
        "matmul": lambda: v @ v,
    }
    for name, call in calls.items():
        with pytest.raises((MemoryError, ValueError)) as info:
            call()
        assert "bytes" in str(info.value) or "too large" in str(info.value), (name, info.value)


@pytest.mark.parametrize("shape", [2**60 - 1, (2**40, 2**40), 2**61, (2**33, 2**33, 2)])
@pytest.mark.parametrize("func", ["empty", "zeros", "full"])
def test_creation_refuses_byte_counts_that_do_not_fit(func, shape):
    args = (shape, 1.0) if func == "full" else (shape,)
    with pytest.raises(MemoryError, match=f"^{func}: cannot allocate"):
        getattr(xp, func)(*args)


def test_matmul_with_a_huge_inner_dim_is_refused():
    a = xp.broadcast_to(xp.ones((1, 1)), (2, 2**62))
    b = xp.broadcast_to(xp.ones((1, 1)), (2**62, 2))
    with pytest.raises(MemoryError, match="^matmul:"):
        a @ b
    ai = xp.broadcast_to(xp.ones((1, 1), dtype=xp.int32), (2, 2**62))
    bi = xp.broadcast_to(xp.ones((1, 1), dtype=xp.int32), (2**62, 2))
    with pytest.raises(MemoryError, match="^matmul:"):
        ai @ bi
    assert_too_large("vecdot", lambda: xp.vecdot(huge((4, 2**62)), huge((4, 2**62))))


def test_nonzero_and_mask_of_a_huge_view():
    m = huge(dtype=xp.bool)
    assert_too_large("nonzero", lambda: xp.nonzero(m))
    with pytest.raises((ValueError, MemoryError)):
        huge()[m]


def test_iterator_refuses_an_element_count_past_int64():
    with pytest.raises(ValueError, match="iterator is too large"):
        K.iter_describe((BIG, BIG), [(0, 0)])
    with pytest.raises(ValueError, match="iterator is too large"):
        K.iter_describe((3, 2**62), [(0, 0), (0, 0)])
    # an empty shape is empty however large its other dims
    assert K.iter_describe((2**62, 4, 0), [(0, 0, 0)]) is None
    with pytest.raises(ValueError, match="iterator is too large"):
        K.iter_describe((2**62, 2), [(0, 0)])
    assert K.iter_describe((2**61, 2), [(0, 0)]) == ((2**62,), ((0,),), (0,))


# ---- item 4: huge steps --------------------------------------------------------------

DTYPES = [xp.int8, xp.uint16, xp.int64, xp.float32, xp.float64, xp.complex128]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("step", [2**62, -2**62, 2**63, -2**63 - 1, 2**70])
def test_huge_steps_give_one_element(dtype, step):
    x = xp.astype(xp.arange(8), dtype)
    n = np.arange(8).astype(np.dtype(dtype.name))
    y = x[::step]
    np.testing.assert_array_equal(np.asarray(y + 1), n[::step] + 1)
    np.testing.assert_array_equal(np.asarray(-y), -n[::step])
    assert complex(xp.sum(y)) == complex(n[::step].sum())
    assert complex(xp.prod(y)) == complex(n[::step].prod())
    np.testing.assert_array_equal(np.asarray(xp.cumulative_sum(y)), np.cumsum(n[::step]))
    np.testing.assert_array_equal(np.asarray(xp.astype(y, xp.complex64)),
                                  n[::step].astype(np.complex64))
    np.testing.assert_array_equal(np.asarray(y.contiguous()), n[::step])
    assert y.tolist() == n[::step].tolist()
    if dtype.kind != "c":
        assert int(xp.argmax(y)) == 0 and int(xp.argmin(y, axis=0)) == 0
        np.testing.assert_array_equal(np.asarray(xp.sort(y)), n[::step])
        assert float(xp.max(y)) == float(n[::step].max())


@pytest.mark.parametrize("step", [2**62, -2**62])
def test_assignment_through_a_huge_step(step):
    x = xp.arange(8.0)
    n = np.arange(8.0)
    x[::step] = 5
    n[::step] = 5
    np.testing.assert_array_equal(np.asarray(x), n)
    x[::step] = xp.asarray([-1.0])
    n[::step] = -1.0
    np.testing.assert_array_equal(np.asarray(x), n)
    x[::step] += 2     # read, compute and write through the one-element view
    n[::step] += 2
    np.testing.assert_array_equal(np.asarray(x), n)


def test_huge_step_in_two_dims():
    a = xp.reshape(xp.arange(12.0), (3, 4))
    n = np.arange(12.0).reshape(3, 4)
    for key in [(slice(None, None, 2**59),), (slice(None, None, -2**62), slice(None, None, 2)),
                (slice(None, None, 2), slice(None, None, 2**62)),
                (slice(None), slice(None, None, -2**62))]:
        y = a[key]
        np.testing.assert_array_equal(np.asarray(y + 1), n[key] + 1)
        np.testing.assert_array_equal(np.asarray(y * y.T.T), n[key] * n[key])
        np.testing.assert_array_equal(np.asarray(xp.sum(y, axis=0)), n[key].sum(axis=0))
        np.testing.assert_array_equal(np.asarray(xp.sum(y, axis=1)), n[key].sum(axis=1))
        np.testing.assert_array_equal(np.asarray(xp.cumulative_sum(y, axis=0)),
                                      np.cumsum(n[key], axis=0))
        np.testing.assert_array_equal(np.asarray(xp.sort(y, axis=0)), np.sort(n[key], axis=0))
        np.testing.assert_array_equal(np.asarray(y @ xp.ones((y.shape[1], 2))),
                                      n[key] @ np.ones((n[key].shape[1], 2)))
        np.testing.assert_array_equal(np.asarray(xp.vecdot(y, y)), (n[key] * n[key]).sum(-1))
        np.testing.assert_array_equal(np.asarray(xp.take(y, xp.asarray([0]), axis=0)),
                                      n[key][[0]])
        np.testing.assert_array_equal(np.asarray(y[y > 3]), n[key][n[key] > 3])
        np.testing.assert_array_equal(np.asarray(xp.where(y > 3, y, -y)),
                                      np.where(n[key] > 3, n[key], -n[key]))


def test_as_strided_with_huge_strides():
    x = xp.arange(8.0)
    for strides in [(2**62,), (-2**62,), (2**70,), (2**63 - 1,)]:
        y = xp.as_strided(x, (1,), strides, offset=3)
        np.testing.assert_array_equal(np.asarray(y + 1), [4.0])
        assert float(xp.sum(y)) == 3.0
    y = xp.as_strided(x, (2, 1), (2, 2**62))
    np.testing.assert_array_equal(np.asarray(y * 2), [[0.0], [4.0]])
    # the bounds check refuses a huge stride over more than one element
    for shape, strides in [((2,), (2**62,)), ((3,), (2**61,)), ((2,), (-2**62,)),
                           ((2, 2), (1, 2**70))]:
        with pytest.raises(ValueError, match="^as_strided: the view reaches"):
            xp.as_strided(x, shape, strides)


def test_a_huge_stride_on_an_inner_size_one_dim():
    x = xp.arange(6.0)
    n = np.arange(6.0)
    y = xp.as_strided(x, (3, 1, 2), (2, 2**62, 1))
    np.testing.assert_array_equal(np.asarray(y + y), (n.reshape(3, 1, 2) * 2))
    np.testing.assert_array_equal(np.asarray(xp.sum(y, axis=2)), n.reshape(3, 1, 2).sum(axis=2))
    np.testing.assert_array_equal(np.asarray(xp.cumulative_sum(y, axis=1)), n.reshape(3, 1, 2))
    np.testing.assert_array_equal(np.asarray(xp.argmax(y, axis=1)), np.zeros((3, 2)))


# ---- item 5: diff with n at or past the axis length ------------------------------------

@pytest.mark.parametrize("dtype", [xp.bool, xp.int8, xp.uint32, xp.float64, xp.complex64])
@pytest.mark.parametrize("n", [4, 5, 2**62, 2**100])
def test_diff_with_n_past_the_axis_is_empty_at_once(dtype, n):
    a = xp.astype(xp.reshape(xp.arange(12), (3, 4)), dtype)
    na = np.arange(12).reshape(3, 4).astype(np.dtype(dtype.name))
    t = time.perf_counter()
    for axis in (-1, 0):
        got = xp.diff(a, n=n, axis=axis)
        want = np.diff(na, n=min(n, 5), axis=axis)
        assert got.shape == want.shape and got.dtype == dtype
    got = xp.diff(a, n=n, axis=1, prepend=a[:, :1], append=a[:, :2])
    assert got.shape == (3, 0 if n >= 7 else 7 - n)
    assert time.perf_counter() - t < 5


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_diff_below_and_at_the_axis_length_matches_numpy(n):
    a = xp.asarray([1.0, 4.0, 9.0, 16.0])
    got = xp.diff(a, n=n)
    want = np.diff(np.asarray([1.0, 4.0, 9.0, 16.0]), n=n)
    assert got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)
    e = xp.diff(xp.ones((2, 0)), n=n)
    assert e.shape == (2, 0)


def test_axis_reductions_refuse_before_allocating_their_result():
    v = huge()  # a result of 2**32 elements would be 32 GiB: refused before that
    for func in ["sum", "max", "any", "count_nonzero", "argmax", "argmin"]:
        assert_too_large(func, lambda: getattr(xp, func)(v, axis=0))
    assert_too_large("mean", lambda: xp.mean(v, axis=1))


def test_huge_strides_reach_numpy_and_dlpack():
    x = xp.arange(8.0)
    n = np.arange(8.0)
    for strides in [(2, 2**62), (2, 2**70), (-2, -2**63 - 5)]:
        y = xp.as_strided(x, (2, 1), strides, offset=4)
        want = n[[4, 4 + strides[0]]].reshape(2, 1)
        np.testing.assert_array_equal(np.asarray(y), want)
        np.testing.assert_array_equal(np.from_dlpack(y), want)
        np.testing.assert_array_equal(np.asarray(xp.from_dlpack(y)), want)


# ---- sizes computed in Python from data, and dims past int64 ---------------------------

def test_repeat_counts_whose_sum_wraps_int64_are_refused():
    # the int64 sum of these counts wraps to 2: C would write 2**64 + 2 indices into 2 slots
    with pytest.raises(MemoryError, match="^repeat: cannot allocate"):
        xp.repeat(xp.ones(3), xp.asarray([2**63 - 1, 2**63 - 1, 4]))
    with pytest.raises(MemoryError, match="^repeat: cannot allocate"):
        xp.repeat(xp.ones(2), xp.asarray([2**62, 2**62]))
    np.testing.assert_array_equal(np.asarray(xp.repeat(xp.arange(3.0), xp.asarray([0, 2, 1]))),
                                  np.repeat(np.arange(3.0), [0, 2, 1]))


def test_one_dimensional_huge_views_in_searching_and_indexing():
    f = huge((2**63 - 1,))  # the longest dim there is
    assert float(f[2**63 - 2]) == 1.0 and f[2**62:2**62 + 3].shape == (3,)
    assert f[::2**61].shape == (4,) and f[::-2**62].shape == (2,)
    h = huge((2**62,))  # fits int64: indexing computes
    np.testing.assert_array_equal(np.asarray(h[xp.asarray([0, 2**62 - 1, -1])]), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(np.asarray(xp.take(h, xp.asarray([2**62 - 1]))), [1.0])
    with pytest.raises(IndexError, match="out of bounds"):
        xp.take(h, xp.asarray([2**62]))
    np.testing.assert_array_equal(np.asarray(xp.searchsorted(h, xp.asarray([0.5, 1.5]))),
                                  [0, 2**62])


EMPTY_HUGE = (2**63 - 1, 0)
HALF = 2**62  # EMPTY_HUGE[0] - HALF = 2**62 - 1


@pytest.mark.parametrize("call", [lambda: xp.empty((2**70, 0)), lambda: xp.zeros((0, 2**63)),
                                  lambda: xp.ones((2**64, 0)), lambda: xp.full((2**63, 0), 1.0),
                                  lambda: xp.reshape(xp.empty(0), (2**64, 0)),
                                  lambda: xp.broadcast_to(xp.empty((1, 0)), (2**63, 0)),
                                  lambda: xp.tile(xp.zeros((0, 3)), (2**62, 2**62)),
                                  lambda: xp.broadcast_shapes((2**64, 0), (1, 0))])
def test_empty_shapes_with_dims_past_int64_are_refused(call):
    with pytest.raises(ValueError, match="maximum allowed dimension exceeded"):
        call()


def test_empty_arrays_with_the_largest_dims_compute():
    e = xp.empty(EMPTY_HUGE)
    for y in [e + 1, xp.flip(e) * 2, e[HALF:] - 1, xp.where(e > 0, e, xp.flip(e)),
              xp.clip(xp.flip(e), 0, 1), xp.astype(xp.flip(e), xp.int8),
              xp.sort(e, axis=0), xp.cumulative_sum(e, axis=1), xp.tril(e), e.contiguous(),
              xp.isin(xp.flip(e), xp.ones(2)), xp.searchsorted(xp.arange(3.0), xp.flip(e))]:
        assert y.shape == EMPTY_HUGE or y.shape == (2**62 - 1, 0)
    assert float(xp.sum(e)) == 0.0 and bool(xp.any(e)) is False
    assert xp.count_nonzero(e, axis=0).shape == (0,)
    assert [a.shape for a in xp.nonzero(e)] == [(0,), (0,)]
    assert e[e > 0].shape == (0,)
    assert e[xp.asarray([0, -(2**63 - 1)])].shape == (2, 0)
    with pytest.raises(IndexError, match="out of bounds"):  # nothing is read, still an error
        e[xp.asarray([0, -2**63])]
    assert e[..., xp.asarray([], dtype=xp.int64)].shape == EMPTY_HUGE
    assert e[HALF].shape == (0,) and e[HALF + 1:].offset == e.offset
    assert xp.diff(xp.empty((2, 2**63 - 1, 0)), axis=0).shape == (1, 2**63 - 1, 0)
    assert xp.linalg.det(xp.empty((2**63 - 1, 0, 2, 2))).shape == EMPTY_HUGE


def test_as_strided_refuses_an_offset_outside_the_storage_even_when_empty():
    x = xp.arange(8.0)
    for offset in [2**70, -2**70, 9, -1]:
        with pytest.raises(ValueError, match="^as_strided: the offset must lie within"):
            xp.as_strided(x, (0,), (1,), offset=offset)
    assert (xp.as_strided(x, (0,), (1,), offset=8) + 1).shape == (0,)
    assert float(xp.sum(xp.as_strided(x, (0, 3), (1, 2**70)))) == 0.0


def test_advanced_indexing_through_huge_steps():
    a = xp.reshape(xp.arange(8.0), (2, 4))
    n = np.arange(8.0).reshape(2, 4)
    for key in [(slice(None, None, 2**70), xp.asarray([0, -1])),
                (slice(None), slice(None, None, -2**70))]:
        nkey = tuple(np.asarray(k) if isinstance(k, xp.Array) else k for k in key)
        y = a[key]
        np.testing.assert_array_equal(np.asarray(y), n[nkey])
    np.testing.assert_array_equal(np.asarray(a[::2**70][xp.asarray([0, -1]), 1:]),
                                  n[::2**62][[0, -1], 1:])
    x = xp.arange(8.0)
    x[::2**70][xp.asarray([0])] = 9
    x[::-2**70][xp.asarray([0])] = -7
    nx = np.arange(8.0)
    nx[0], nx[7] = 9, -7
    np.testing.assert_array_equal(np.asarray(x), nx)
