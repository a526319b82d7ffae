"""Every write of one array into another goes through the engine's copy
(_core.copy_into, _core.cast): overlapping source and destination behave as
if the source had been copied first, and a destination that reaches one
element twice is refused. Checked against NumPy, with the fast paths on and
off, over the layout catalogue, empty and 0-d arrays."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import arrstride as xp
from arrstride import _core
from arrstride import _kernels as K
from layouts import ALL, WRITABLE, make, make_with_base, params

TWICE = "two indices reach one element"


@pytest.fixture(params=[True, False], ids=["fast", "general"])
def paths(request):
    was = _core.set_fast_paths(request.param)
    yield request.param
    _core.set_fast_paths(was)


def _same(a, n):
    got = np.asarray(a.tolist() if a.ndim else a.tolist())
    assert got.shape == n.shape
    np.testing.assert_array_equal(got, n)


@pytest.mark.parametrize("dtype", ["float64", "int32", "uint8", "complex64", "bool"])
def test_shifted_overlap(paths, dtype):
    for shape in [(10,), (4, 6)]:
        n = np.arange(np.prod(shape)).reshape(shape).astype(dtype)
        for dst, src in [(np.s_[1:], np.s_[:-1]), (np.s_[:-1], np.s_[1:]),
                         (np.s_[2::2], np.s_[:-2:2]), (np.s_[..., 1:], np.s_[..., :-1])]:
            x, m = xp.asarray(n.copy()), n.copy()
            x[dst] = x[src]
            m[dst] = m[src]
            _same(x, m)


def test_reversed_and_transposed_onto_itself(paths):
    n = np.arange(24.0).reshape(4, 6)
    x, m = xp.asarray(n.copy()), n.copy()
    x[::-1] = x
    m[::-1] = m.copy()
    _same(x, m)
    x[:, ::-1] = x
    m[:, ::-1] = m.copy()
    _same(x, m)
    s = np.arange(16).reshape(4, 4)
    y, t = xp.asarray(s.copy()), s.copy()
    y[...] = y.T
    t[...] = t.T.copy()
    _same(y, t)
    y[1:, :3] = y[:3, 1:].T
    t[1:, :3] = t[:3, 1:].T.copy()
    _same(y, t)


def test_copy_into_overlapping_views():
    base, want = xp.arange(12.0), np.arange(12.0)
    K.copy_into(base[0:5], base[2:12:2])
    want[0:5] = want[2:12:2].copy()
    _same(base, want)
    K.copy_into(base[11:6:-1], base[0:5])
    want[11:6:-1] = want[0:5].copy()
    _same(base, want)
    # a cast between two dtypes of one item size over the same bytes
    ints = xp.arange(8, dtype=xp.int32)
    floats = ints.view(xp.float32)
    ni = np.arange(8, dtype=np.int32)
    nf = ni.view(np.float32)
    K.copy_into(floats[1:], ints[:-1])
    nf[1:] = ni[:-1].copy()
    _same(ints, ni)
    # the output itself, cast in place element for element
    K.copy_into(floats, ints)
    nf[...] = ni.copy()
    _same(floats, nf)


def test_scatter_and_mask_with_an_overlapping_value(paths):
    n = np.arange(8.0)
    x, m = xp.asarray(n.copy()), n.copy()
    x[xp.asarray([2, 1, 0])] = x[0:3]
    m[[2, 1, 0]] = m[0:3].copy()
    _same(x, m)
    mask = np.array([True, False, True, True, False, False, True, False])
    x[xp.asarray(mask)] = x[4:8]
    m[mask] = m[4:8].copy()
    _same(x, m)
    b = np.array([True, False, True, True])
    z, w = xp.asarray(b.copy()), b.copy()
    z[z] = xp.asarray(False)
    w[w.copy()] = False
    _same(z, w)


@pytest.mark.parametrize("value", ["scalar", "array", "cast"])
def test_a_destination_reaching_an_element_twice_is_refused(paths, value):
    base = xp.arange(12.0)
    for shape, strides in [((3,), (0,)), ((2, 3), (0, 1)), ((2, 3), (2, 1))]:
        dst = xp.as_strided(base, shape, strides)
        v = {"scalar": 5.0, "array": xp.ones(shape), "cast": xp.ones(shape, dtype=xp.int16)}[value]
        with pytest.raises(ValueError, match=TWICE):
            dst[...] = v
        if value != "scalar":
            with pytest.raises(ValueError, match="copy_into: cannot write"):
                K.copy_into(dst, v, "copy_into")
    assert base.tolist() == list(range(12))


def test_an_interleaved_destination_that_reaches_each_element_once(paths):
    # dims that do not nest (strides 3 and 2) yet reach six distinct elements
    base, want = xp.arange(12.0), np.arange(12.0)
    dst = xp.as_strided(base, (2, 3), (3, 2))
    nd = np.lib.stride_tricks.as_strided(want, (2, 3), (24, 16))
    dst[...] = xp.reshape(xp.arange(6.0) + 100, (2, 3))
    nd[...] = np.arange(6.0).reshape(2, 3) + 100
    _same(base, want)
    K.copy_into(dst, xp.reshape(xp.arange(6, dtype=xp.int8), (2, 3)))
    nd[...] = np.arange(6).reshape(2, 3)
    _same(base, want)


def _np_cast(n, to):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return n != 0 if to == "bool" else n.astype(to)


@pytest.mark.parametrize("layout", params(ALL))
@pytest.mark.parametrize("dtype", ["float64", "int16", "complex128"])
def test_every_source_layout(paths, layout, dtype):
    a, n = make(layout, (3, 4), dtype)
    for to in ["float64", "int16", "complex128", "bool"]:
        want = _np_cast(n, to)
        _same(xp.astype(a, getattr(xp, to)), want)
        out = xp.empty(n.shape, dtype=getattr(xp, to))
        K.copy_into(out, a)
        _same(out, want)
        if to == dtype:
            out = xp.zeros(n.shape, dtype=getattr(xp, to))
            out[...] = a
            _same(out, n)
            c = a.contiguous()
            _same(c, n)
            assert c.is_contiguous()


@pytest.mark.parametrize("layout", params(WRITABLE))
def test_every_destination_layout(paths, layout):
    a, n, a_base, n_base = make_with_base(layout, (3, 4), "float64")
    v = np.arange(n.size, dtype=np.float64).reshape(n.shape) - 7.5
    a[...] = xp.asarray(v)
    n[...] = v
    _same(a_base, n_base)
    a[...] = 2.5
    n[...] = 2.5
    _same(a_base, n_base)
    K.copy_into(a, xp.asarray(v.astype(np.int32)))
    n[...] = v.astype(np.int32)
    _same(a_base, n_base)
    # onto itself, reversed along every dim
    if a.ndim:
        flip = (slice(None, None, -1),) * a.ndim
        a[...] = a[flip]
        n[...] = n[flip].copy()
        _same(a_base, n_base)


def test_astype_keeps_a_permuted_order():
    x = xp.permute_dims(xp.reshape(xp.arange(24.0), (2, 3, 4)), (2, 0, 1))
    y = xp.astype(x, xp.float32)
    assert y.strides == (1, 12, 4)
    np.testing.assert_array_equal(np.asarray(y.tolist()),
                                  np.transpose(np.arange(24.0).reshape(2, 3, 4), (2, 0, 1)))
    b = xp.broadcast_to(xp.asarray([1, 2, 3]), (2, 3))
    assert xp.astype(b, xp.float64).strides == (3, 1)


def test_empty_and_zero_d(paths):
    z = xp.asarray(3.0)
    z[...] = xp.asarray(4)
    assert float(z) == 4.0
    z[()] = 5.5
    assert float(z) == 5.5
    K.copy_into(z, xp.asarray(True))
    assert float(z) == 1.0
    e = xp.zeros((0, 3))
    e[...] = xp.ones((0, 3))
    e[...] = 1.0
    K.copy_into(e, xp.ones((0, 3), dtype=xp.int8))
    assert xp.astype(e, xp.int8).shape == (0, 3)
    x = xp.arange(5.0)
    x[2:2] = x[3:3]
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    huge = xp.zeros((2**63 - 1, 0))
    assert xp.astype(huge, xp.int8).shape == (2**63 - 1, 0)
