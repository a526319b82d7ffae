"""The one elementwise engine (native/core/engine.c): every kind of kernel call
(unary, binary, where, clip, isin) through `_core.ewise`, the entry the Python
functions use, and through the public functions with the fast paths on and
off, over every layout, more dims than C's fields hold, overlapping in-place
operands and degenerate shapes; NumPy is the oracle."""
import numpy as np
import pytest

import arrstride as xp
from arrstride import _core
from conftest import to_numpy
from layouts import ALL as LAYOUTS
from layouts import make

F64, BOOL = xp.float64.code, xp.bool.code
EXP, ADD = xp.exp.op, xp.add.op

# layouts whose result NumPy lays out in the order of the input (order "K")
ORDERED = ["contiguous", "transposed", "stepped", "negative", "offset", "mixed", "permuted"]


def _elements(a):
    """The element strides of a's dims of size > 1 (a size-1 dim's stride is free)."""
    return [s for s, d in zip(a.strides, a.shape) if d > 1]


def _np_elements(n):
    return [s // n.itemsize for s, d in zip(n.strides, n.shape) if d > 1]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_kind_through_the_entry(layout):
    a, n = make(layout, (3, 4), xp.float64)
    b, m = make(layout, (3, 4), xp.float64, seed=1)
    with np.errstate(all="ignore"):
        r = _core.ewise(_core.EW_UNARY, EXP, F64, F64, None, a)
        np.testing.assert_allclose(to_numpy(r), np.exp(n), rtol=1e-15)
        r = _core.ewise(_core.EW_BINARY, ADD, F64, F64, None, a, b)
        np.testing.assert_array_equal(to_numpy(r), n + m)
    c = _core.ewise(_core.EW_BINARY, xp.less.op, F64, BOOL, None, a, b)
    np.testing.assert_array_equal(to_numpy(c), n < m)
    r = _core.ewise(_core.EW_WHERE, 0, F64, F64, None, c, a, b)
    np.testing.assert_array_equal(to_numpy(r), np.where(n < m, n, m))
    lo, hi = xp.asarray(-0.5), xp.asarray(0.5)
    r = _core.ewise(_core.EW_CLIP, 0, F64, F64, None, a, lo, hi)
    np.testing.assert_array_equal(to_numpy(r), np.clip(n, -0.5, 0.5))
    s = xp.asarray(to_numpy(b).ravel()[:3].copy())
    want = np.isin(n, to_numpy(s))
    r = _core.ewise(_core.EW_ISIN, 0, F64, BOOL, None, a, s)
    np.testing.assert_array_equal(to_numpy(r), want)
    r = _core.ewise(_core.EW_ISIN, 1, F64, BOOL, None, a, xp.asarray(to_numpy(s)))
    np.testing.assert_array_equal(to_numpy(r), ~want)
    if layout in ORDERED:  # the output follows the input's memory order, as NumPy's
        assert _elements(_core.ewise(_core.EW_UNARY, EXP, F64, F64, None, a)) == _np_elements(np.exp(n))


@pytest.mark.parametrize("la", ["contiguous", "transposed", "negative", "broadcast", "zerod"])
@pytest.mark.parametrize("lb", ["contiguous", "stepped", "offset", "zerod"])
def test_broadcasting_operands(la, lb):
    a, n = make(la, (3, 4), xp.float64)
    b, m = make(lb, (4,), xp.float64, seed=2)
    for on in (True, False):
        was = _core.set_fast_paths(on)
        try:
            np.testing.assert_array_equal(to_numpy(a * b), n * m)
            np.testing.assert_array_equal(to_numpy(xp.multiply(b, a)), m * n)
            np.testing.assert_array_equal(to_numpy(xp.where(a > b, a, b)), np.where(n > m, n, m))
            np.testing.assert_array_equal(to_numpy(xp.clip(a, b, 0.5)), np.clip(n, m, 0.5))
        finally:
            _core.set_fast_paths(was)


def test_more_dims_than_c_fields_hold():
    """Arrays past 8 dims keep their layout in a Layout object only; the engine
    reads it there, broadcasts, orders and runs them like any other."""
    shape = (2, 3, 1, 2, 1, 2, 1, 2, 2, 3)
    n = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) / 7
    perm = tuple(range(9, -1, -1))
    a = xp.permute_dims(xp.asarray(n), perm)
    nt = n.transpose(perm)
    for on in (True, False):
        was = _core.set_fast_paths(on)
        try:
            r = xp.exp(a)
            np.testing.assert_allclose(to_numpy(r), np.exp(nt), rtol=1e-15)
            assert _elements(r) == _np_elements(np.exp(nt))
            np.testing.assert_array_equal(to_numpy(a[..., :1] + a), nt[..., :1] + nt)
            np.testing.assert_array_equal(to_numpy(xp.where(a > 1, a, -a)), np.where(nt > 1, nt, -nt))
            c = xp.astype(a, xp.float32)
            np.testing.assert_array_equal(to_numpy(c), nt.astype(np.float32))
            assert _elements(c) == _np_elements(nt.astype(np.float32, order="K"))
        finally:
            _core.set_fast_paths(was)


@pytest.mark.parametrize("on", [True, False])
def test_inplace_operands_that_overlap_the_output(on):
    """An operand that overlaps x without being x is read as it was before the
    call (copied first, as NumPy does); x itself is read in place."""
    was = _core.set_fast_paths(on)
    try:
        for make_x, make_y in [
                (lambda x: x, lambda x: x[::-1]),
                (lambda x: x[1:], lambda x: x[:-1]),
                (lambda x: x[:-1], lambda x: x[1:]),
                (lambda x: x, lambda x: x[0]),          # a 0-d view of x's first element
                (lambda x: x, lambda x: x),
                (lambda x: x[::2], lambda x: x[1::2])]:  # interleaved, disjoint elements
            n = np.arange(8.0)
            a = xp.asarray(n.copy())
            t = make_x(a)
            t += make_y(a)
            nt = make_x(n)
            nt += make_y(n)
            np.testing.assert_array_equal(to_numpy(a), n)
        n = np.arange(12.0).reshape(3, 4)
        a = xp.asarray(n.copy())
        t = a.T[1:]
        t += a.T[:-1]   # transposed, shifted by one row of the transpose: overlapping
        nt = n.T[1:]
        nt += n.T[:-1]
        np.testing.assert_array_equal(to_numpy(a), n)
    finally:
        _core.set_fast_paths(was)


def test_degenerate_shapes():
    e = xp.reshape(xp.zeros((0,)), (2 ** 63 - 1, 2 ** 63 - 1, 0))
    for r in (xp.exp(e), e + e, xp.where(e > 0, e, 1.0), xp.clip(e, 0, 1), xp.astype(e, xp.float32)):
        assert r.shape == e.shape and r.size == 0
    z = xp.asarray(2.0)
    assert float(xp.exp(z)) == float(np.exp(2.0))
    assert float(z + z) == 4.0
    big = xp.broadcast_to(xp.ones(1), (2 ** 40, 2 ** 40))
    with pytest.raises(MemoryError, match="too large"):
        big + 1
    with pytest.raises(MemoryError, match="too large"):
        xp.astype(big, xp.float32)


def test_the_entry_checks_its_arguments():
    a = xp.ones(3)
    with pytest.raises(TypeError, match="bad arguments"):
        _core.ewise(99, 0, F64, F64, None, a)
    with pytest.raises(TypeError, match="bad arguments"):
        _core.ewise(_core.EW_BINARY, ADD, F64, F64, None, a)
    with pytest.raises(TypeError, match="not an arrstride array"):
        _core.ewise(_core.EW_UNARY, EXP, F64, F64, None, np.ones(3))
    with pytest.raises(TypeError, match="another dtype"):
        _core.ewise(_core.EW_WHERE, 0, F64, F64, None, xp.ones(3, dtype=xp.float32), a, a)
    with pytest.raises(TypeError, match="another dtype"):
        _core.ewise(_core.EW_WHERE, 0, F64, xp.float32.code, None, xp.ones(3, dtype=xp.bool), a, a)
    with pytest.raises(TypeError, match="the set has another dtype"):
        _core.ewise(_core.EW_ISIN, 0, F64, BOOL, None, a, xp.ones(3, dtype=xp.float32))
    # isin's x of another dtype is cast per block (its set is of the call's dtype)
    got = _core.ewise(_core.EW_ISIN, 0, F64, BOOL, None, xp.asarray([1, 2, 3], dtype=xp.int8),
                      xp.asarray([3.0, 1.5]))
    assert got.tolist() == [False, False, True]
    # where's values and clip's operands of other dtypes are cast per block
    cond = xp.asarray([True, False, True])
    got = _core.ewise(_core.EW_WHERE, 0, F64, F64, None, cond, xp.asarray([1, 2, 3], dtype=xp.int8), a)
    assert got.dtype == xp.float64 and got.tolist() == [1.0, 1.0, 3.0]
    got = _core.ewise(_core.EW_CLIP, 0, xp.float32.code, xp.float16.code, None,
                      xp.asarray([0.5, -1.0, 2.0], dtype=xp.float16), xp.zeros(1, dtype=xp.int64), a)
    assert got.dtype == xp.float16 and got.tolist() == [0.5, 0.0, 1.0]
    # unary and binary inputs of other dtypes are cast per block, and a result
    # of another dtype than the kernel's is cast on store (never overrun)
    x32 = xp.asarray([0.5, -1.0, 2.0], dtype=xp.float32)
    got = _core.ewise(_core.EW_UNARY, EXP, F64, F64, None, x32)
    assert got.dtype == xp.float64 and got.tolist() == xp.exp(xp.astype(x32, xp.float64)).tolist()
    got = _core.ewise(_core.EW_BINARY, ADD, F64, BOOL, None, x32, xp.asarray([-0.5, 1.0, 0.0]))
    assert got.dtype == xp.bool and got.tolist() == [False, False, True]
    got = _core.ewise(_core.EW_UNARY, EXP, F64, xp.int8.code, None, xp.asarray([0.0, 1.0, 2.0]))
    assert got.dtype == xp.int8 and got.tolist() == [1, 2, 7]
    with pytest.raises(TypeError, match="output has another dtype"):
        _core.ewise(_core.EW_BINARY, ADD, F64, F64, xp.zeros(3, dtype=xp.int8), a, a)
    with pytest.raises(ValueError, match="do not broadcast"):
        _core.ewise(_core.EW_BINARY, ADD, F64, F64, None, a, xp.ones(4))
    with pytest.raises(ValueError, match="read-only"):
        _core.ewise(_core.EW_BINARY, ADD, F64, F64, xp.broadcast_to(a, (2, 3)), a, a)
    with pytest.raises(TypeError, match="bad arguments"):
        _core.empty_ordered(-1, a)
    assert _core.empty_ordered(F64, a).shape == (3,)


def test_kernel_names_are_bound():
    names = _core.kernel_names()
    assert {"ars_unary", "ars_binary", "ars_where", "ars_clip", "ars_isin"} <= set(names)
    with pytest.raises(RuntimeError, match="runs once"):
        _core.setup(*([None] * 13))
