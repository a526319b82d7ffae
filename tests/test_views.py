"""View semantics: each case checks values, strides, offset and shared storage
(a write through the view is read back from the base), case by case,
then every view function over every layout against NumPy."""
from __future__ import annotations

import numpy as np
import pytest

import arrstride as xp
from conftest import assert_same, assert_view, shares, storage_numpy, through_storage
from layouts import ALL, DTYPES, make, params


def check(view, base, values, strides, offset):
    assert view.tolist() == values
    assert view.strides == strides
    assert view.offset == offset
    assert_view(view, base)


# ---- the cases of views ------------------------------------------------------

def test_as_strided_windows():
    base = xp.arange(20.)
    v = xp.as_strided(base, (3, 2), (4, 1), 5)
    check(v, base, [[5, 6], [9, 10], [13, 14]], (4, 1), 5)
    v[1, 1] = -1.0
    assert base[10]._item() == -1.0


def test_as_strided_broadcast_rows_and_columns():
    base = xp.linspace(1, 4, 4)
    rows = xp.as_strided(base, (3, 3), (0, 1), 1)
    assert rows.tolist() == [[2, 3, 4]] * 3
    assert rows.strides == (0, 1) and rows.offset == 1 and shares(rows, base)
    cols = xp.as_strided(base, (2, 4), (1, 0), 1)
    assert cols.tolist() == [[2, 2, 2, 2], [3, 3, 3, 3]]
    assert cols.strides == (1, 0) and cols.offset == 1 and shares(cols, base)
    # the stride-0 views refuse writes; the base sees a change through a plain view
    with pytest.raises(ValueError, match="__setitem__"):
        rows[:, 0] = 9.0
    with pytest.raises(ValueError, match="__setitem__"):
        cols[...] = 9.0
    base[2] = 30.0
    assert rows.tolist() == [[2, 30, 4]] * 3
    assert cols.tolist() == [[2, 2, 2, 2], [30, 30, 30, 30]]


def test_transpose_strides_and_view_error():
    z = xp.zeros((100, 100))
    t = z.T
    assert t.strides == (1, 100) and t.offset == 0 and shares(t, z)
    assert not t.is_contiguous()
    with pytest.raises(ValueError) as e:
        t.view(-1)
    text = str(e.value)
    assert "no view exists" in text
    assert "reshape" in text and ".contiguous()" in text
    t[3, 7] = 5.0
    assert z[7, 3]._item() == 5.0
    flat = xp.reshape(t, (-1,))          # reshape copies where view cannot
    assert flat.shape == (10000,) and not shares(flat, z)
    with pytest.raises(ValueError, match="reshape"):
        xp.reshape(t, (-1,), copy=False)


@pytest.fixture
def t():
    return xp.reshape(xp.arange(24), (1, 2, 3, 4))


def test_reshape_strides(t):
    assert t.strides == (24, 12, 4, 1) and t.offset == 0 and t.is_contiguous()


@pytest.mark.parametrize("axes, strides, contiguous", [
    ((1, 2, 3, 0), (12, 4, 1, 24), True),
    ((0, 2, 3, 1), (24, 4, 1, 12), False),
    ((1, 0, 3, 2), (12, 24, 1, 4), False),
])
def test_permute(t, axes, strides, contiguous):
    p = xp.permute_dims(t, axes)
    assert p.strides == strides
    assert p.is_contiguous() is contiguous
    n = np.arange(24).reshape(1, 2, 3, 4).transpose(axes)
    assert p.tolist() == n.tolist()
    assert_view(p, t)


def test_broadcast_to_allocates_nothing(t):
    b = xp.broadcast_to(t, (2, 2, 3, 4))
    assert b.strides == (0, 12, 4, 1)
    # the same memory, read-only (as NumPy's broadcast views)
    assert b.storage.address == t.storage.address and b.storage.nbytes == 24 * 8
    assert b.storage.readonly and b.storage.owner is t.storage
    assert b.tolist() == np.broadcast_to(np.arange(24).reshape(1, 2, 3, 4), (2, 2, 3, 4)).tolist()
    with pytest.raises(ValueError):
        b[:, 0, 0, 0] = 1


def test_select_then_reshape_then_contiguous(t):
    s = t[:, :, :, 2]
    check(s, t, [[[2, 6, 10], [14, 18, 22]]], (24, 12, 4), 2)
    r = xp.reshape(s, (3, 2))
    assert r.strides == (8, 4) and r.offset == 2 and shares(r, t)
    assert r.tolist() == [[2, 6], [10, 14], [18, 22]]
    assert_view(r, t)
    c = r.contiguous()
    assert c.strides == (2, 1) and c.offset == 0 and not shares(c, t)
    assert c.tolist() == r.tolist()
    assert s.contiguous().strides == (6, 3, 1)
    assert t.contiguous() is t


def test_diagonals():
    base = xp.reshape(xp.arange(32.), (2, 4, 4))
    d = xp.diagonal(base, -1, 1, 2)
    assert d.shape == (2, 3) and d.strides == (16, 5) and d.offset == 4
    n = np.arange(32.).reshape(2, 4, 4)
    nd = np.diagonal(n, -1, 1, 2)
    assert d.tolist() == nd.tolist()
    assert_view(d, base)
    d2 = xp.diagonal(d, 1, 0, 1)
    assert d2.shape == (2,) and d2.strides == (21,) and d2.offset == 9
    assert d2.tolist() == np.diagonal(nd, 1, 0, 1).tolist()
    check(d2, base, [9.0, 30.0], (21,), 9)


def test_expand():
    base = xp.reshape(xp.arange(12), (3, 1, 4))
    e = xp.expand(base, (2, 3, 2, 4))
    assert e.shape == (2, 3, 2, 4) and e.strides == (0, 4, 0, 1) and e.offset == 0
    assert e.tolist() == np.broadcast_to(np.arange(12).reshape(3, 1, 4), (2, 3, 2, 4)).tolist()
    assert shares(e, base)
    assert xp.expand(base, (-1, 5, -1)).shape == (3, 5, 4)


def test_narrow():
    base = xp.reshape(xp.arange(32), (2, 4, 4))
    v = xp.narrow(base, 1, 1, 2)
    n = np.arange(32).reshape(2, 4, 4)[:, 1:3]
    check(v, base, n.tolist(), (16, 4, 1), 4)


def test_unfold():
    base = xp.reshape(xp.arange(24), (2, 3, 4))
    u = xp.unfold(base, 1, 2, 1)
    assert u.shape == (2, 2, 4, 2) and u.strides == (12, 4, 1, 4) and u.offset == 0
    n = np.lib.stride_tricks.sliding_window_view(np.arange(24).reshape(2, 3, 4), 2, axis=1)
    assert u.tolist() == n.tolist()
    assert shares(u, base)
    with pytest.raises(ValueError, match="__setitem__"):   # overlapping windows
        u[...] = 0
    w = xp.unfold(base, 2, 2, 2)                              # disjoint windows: writable
    assert w.strides == (12, 4, 2, 1)
    assert_view(w, base)


def test_as_strided_bounds():
    base = xp.arange(20.)
    with pytest.raises(ValueError) as e:
        xp.as_strided(base, (3, 2), (4, 1), 15)
    assert "as_strided" in str(e.value) and "160 bytes" in str(e.value)
    with pytest.raises(ValueError, match="as_strided"):
        xp.as_strided(base, (3,), (-1,), 1)
    v = xp.as_strided(base, (3,), (-2,), 10)                  # negative strides inside
    assert v.tolist() == [10, 8, 6] and v.strides == (-2,)
    assert_view(v, base)
    assert xp.as_strided(base, (0, 5), (100, 100), 19).shape == (0, 5)


def test_view_method():
    a = xp.arange(12)
    v = a.view(3, 4)
    assert v.strides == (4, 1) and shares(v, a)
    assert a.view((2, -1)).shape == (2, 6)
    with pytest.raises(ValueError, match="Array.view"):
        a.view(5, 3)


@pytest.mark.parametrize("layout", ["contiguous", "rows", "flipped_rows", "offset", "broadcast_rows"])
@pytest.mark.parametrize("src,dst", [("complex128", "float64"), ("float64", "complex128"),
                                     ("int64", "float64"), ("float32", "int32"),
                                     ("int64", "uint8"), ("uint8", "int16"), ("complex64", "float32")])
def test_view_as_dtype_matches_numpy(layout, src, dst):
    """x.view(dtype) reinterprets the bytes as NumPy's does, on any layout
    whose last dim is contiguous: same storage, writes show through."""
    rng = np.random.default_rng(1)
    base = rng.integers(0, 255, (4, 6, 16), dtype=np.uint8).view(src)  # bytes of any pattern
    key = {"contiguous": (slice(None),), "rows": (slice(None, None, 2),),
           "flipped_rows": (slice(None, None, -1), slice(1, None)),
           "offset": (slice(1, None), slice(2, 5)), "broadcast_rows": (None,)}[layout]
    n = base[key]
    a = xp.asarray(base)[key]
    if layout == "broadcast_rows":
        n = np.broadcast_to(base, (2,) + base.shape)
        a = xp.broadcast_to(xp.asarray(base), (2,) + base.shape)
    want = n.view(dst)
    got = a.view(getattr(xp, dst))
    assert got.dtype == getattr(xp, dst) and got.shape == want.shape
    assert np.array_equal(np.asarray(got).view(np.uint8), want.view(np.uint8))
    assert got.storage is a.storage and got.storage.readonly == a.storage.readonly
    if not a.storage.readonly:
        got[(0,) * got.ndim] = got[(1,) + (0,) * (got.ndim - 1)]
        assert np.asarray(a).tobytes() == np.asarray(xp.asarray(base)[key]).tobytes()


def test_view_as_dtype_arguments_and_refusals():
    c = xp.asarray(np.arange(12.0).reshape(3, 4) * (1 + 2j))
    for d in (float, np.float64, "float64", xp.float64):
        assert c.view(d).shape == (3, 8) and c.view(d).dtype == xp.float64
    assert c.view(dtype=xp.float64).shape == (3, 8)
    assert c.view(12).shape == (12,) and c.view(np.int64(12)).shape == (12,)  # shapes stay shapes
    i = xp.arange(6)
    assert i.view(int).dtype == xp.int64 and i.view(xp.int64) is not i
    for bad, err, text in [
        (lambda: c.T.view(float), ValueError, "contiguous last dim"),
        (lambda: i[1:].view(xp.complex128), ValueError, "whole number"),
        (lambda: xp.asarray(np.arange(16, dtype=np.int32).reshape(4, 4))[:, 1:3].view(xp.int64),
         ValueError, "multiples of 8"),
        (lambda: xp.asarray(1.0).view(xp.float32), ValueError, "at least one dim"),
        (lambda: i.view(xp.bool), TypeError, "bool view"),
        (lambda: i.view(3, dtype=xp.float64), TypeError, "shape or a dtype"),
        (lambda: i.view("float128"), TypeError, "dtype must be"),
    ]:
        with pytest.raises(err, match=text):
            bad()


def test_storage_kept_alive():
    v = xp.arange(10.)[2:5]
    import gc
    gc.collect()
    assert v.tolist() == [2, 3, 4]
    assert v.storage.nbytes == 80


# ---- view functions over every layout and dtype, against NumPy ----------------

@pytest.mark.parametrize("layout", params(ALL, ndim=2))
@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: d.name)
def test_layouts_roundtrip(layout, dt):
    a, n = make(layout, (3, 4), dt)
    assert_same(a, n)
    np.testing.assert_array_equal(through_storage(a), n)
    c = a.contiguous()
    assert c.is_contiguous()
    assert_same(c, n)


@pytest.mark.parametrize("layout", params(ALL))
@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: d.name)
def test_view_functions_vs_numpy(layout, dt):
    shape = (3, 4) if layout == "size1" else (2, 3, 4)  # size1 puts a (1,) in front
    a, n = make(layout, shape, dt)
    nd = a.ndim
    assert_same(xp.flip(a), np.flip(n))
    if nd == 0:
        assert_same(xp.expand_dims(a, axis=0), n[None])
        assert_same(xp.reshape(a, (1, 1)), n.reshape(1, 1))
        return
    assert_same(xp.flip(a, axis=-1), np.flip(n, -1))
    assert_same(xp.flip(a, axis=(0, 2)), np.flip(n, (0, 2)))
    assert_same(xp.permute_dims(a, (2, 0, 1)), n.transpose(2, 0, 1))
    assert_same(xp.matrix_transpose(a), np.swapaxes(n, -1, -2))
    assert_same(a.mT, np.swapaxes(n, -1, -2))
    assert_same(xp.moveaxis(a, 0, -1), np.moveaxis(n, 0, -1))
    assert_same(xp.moveaxis(a, (0, 1), (2, 0)), np.moveaxis(n, (0, 1), (2, 0)))
    assert_same(xp.expand_dims(a, axis=1), np.expand_dims(n, 1))
    assert_same(xp.expand_dims(a, axis=(0, -1)), np.expand_dims(n, (0, -1)))
    e = xp.expand_dims(a, axis=(1, 3))
    assert_same(xp.squeeze(e, axis=(1, 3)), n)
    assert_same(xp.squeeze(e, axis=1), np.squeeze(np.expand_dims(n, (1, 3)), 1))
    for k, part in enumerate(xp.unstack(a, axis=1)):
        assert_same(part, n[:, k])
    assert len(xp.unstack(a)) == n.shape[0]
    for shp in [(-1,), (n.shape[0], -1), (4, -1) if n.size % 4 == 0 else (n.size,)]:
        assert_same(xp.reshape(a, shp), n.reshape(shp))
    assert_same(xp.broadcast_to(a[:, :1], (2,) + a[:, :1].shape),
                np.broadcast_to(n[:, :1], (2,) + n[:, :1].shape))
    b1, b2 = xp.broadcast_arrays(a, a[0])
    nb1, nb2 = np.broadcast_arrays(n, n[0])
    assert_same(b1, nb1)
    assert_same(b2, nb2)
    assert_same(xp.diagonal(a, 1, 1, 2), np.diagonal(n, 1, 1, 2).copy())
    assert_same(xp.narrow(a, 1, 1, 2), n[:, 1:3])
    assert_same(xp.unfold(a, 1, 2, 1),
                np.lib.stride_tricks.sliding_window_view(n, 2, axis=1))
    for v in (xp.flip(a), xp.permute_dims(a, (2, 0, 1)), xp.reshape(a, (-1,)) if a.is_contiguous() else a):
        if a.size:
            assert shares(v, a)


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "stepped", "negative", "offset"])
def test_reshape_view_or_copy(layout):
    a, n = make(layout, (4, 6), xp.float32)
    for shp in [(24,), (2, 12), (4, 3, 2), (2, 2, 6), (6, 4)]:
        r = xp.reshape(a, shp)
        assert_same(r, n.reshape(shp))
        # strides exist exactly when NumPy reshapes without a copy
        view_possible = np.shares_memory(n.reshape(shp), n)
        if view_possible:
            assert shares(r, a)
            assert_view(r, a)
        else:
            assert not shares(r, a)
            with pytest.raises(ValueError, match="reshape"):
                xp.reshape(a, shp, copy=False)
        c = xp.reshape(a, shp, copy=True)
        assert not shares(c, a) and c.is_contiguous()
        assert_same(c, n.reshape(shp))


def test_views_on_external_storage():
    n = np.arange(12.0).reshape(3, 4)
    a = xp.asarray(n)
    v = a.T[::-1]
    v[0, 1] = 100.0
    assert n[1, 3] == 100.0
    assert storage_numpy(a).size == 12


# ---- bad input -----------------------------------------------------------------

@pytest.mark.parametrize("call, exc, fragment", [
    (lambda a: xp.permute_dims(a, (0, 0, 1)), ValueError, "permute_dims"),
    (lambda a: xp.permute_dims(a, (0, 1)), ValueError, "permute_dims"),
    (lambda a: xp.permute_dims(a, (0, 1, 5)), IndexError, "permute_dims"),
    (lambda a: xp.permute_dims(a, 1), TypeError, "permute_dims"),
    (lambda a: xp.permute_dims([1], (0,)), TypeError, "permute_dims"),
    (lambda a: xp.expand_dims(a, axis=4), IndexError, "expand_dims"),
    (lambda a: xp.expand_dims(a, axis=(0, 0)), ValueError, "expand_dims"),
    (lambda a: xp.expand_dims(a, axis=1.0), TypeError, "expand_dims"),
    (lambda a: xp.squeeze(a, axis=0), ValueError, "squeeze"),
    (lambda a: xp.squeeze(a, axis=3), IndexError, "squeeze"),
    (lambda a: xp.flip(a, axis=-4), IndexError, "flip"),
    (lambda a: xp.moveaxis(a, (0, 1), 0), ValueError, "moveaxis"),
    (lambda a: xp.moveaxis(a, 3, 0), IndexError, "moveaxis"),
    (lambda a: xp.reshape(a, (5, 5)), ValueError, "reshape"),
    (lambda a: xp.reshape(a, (-1, -1)), ValueError, "reshape"),
    (lambda a: xp.reshape(a, "ab"), TypeError, "reshape"),
    (lambda a: xp.reshape(a.mT, (24,), copy=False), ValueError, "reshape"),
    (lambda a: xp.broadcast_to(a, (3, 3, 4)), ValueError, "broadcast_to"),
    (lambda a: xp.broadcast_to(a, 3.5), TypeError, "broadcast_to"),
    (lambda a: xp.broadcast_shapes((2, 3), (3, 2)), ValueError, "broadcast_shapes"),
    (lambda a: xp.broadcast_arrays(a, a[:, :2, :3]), ValueError, "broadcast_arrays"),
    (lambda a: xp.unstack(a, axis=3), IndexError, "unstack"),
    (lambda a: xp.unstack(a[0, 0, 0]), ValueError, "unstack"),
    (lambda a: xp.matrix_transpose(a[0, 0]), ValueError, "matrix_transpose"),
    (lambda a: a.T, ValueError, "Array.T"),
    (lambda a: xp.as_strided(a, (2, 2), (1,)), ValueError, "as_strided"),
    (lambda a: xp.as_strided(a, (2, 2), (1, 1), 23), ValueError, "as_strided"),
    (lambda a: xp.as_strided(a, (2, "x"), (1, 1)), TypeError, "as_strided"),
    (lambda a: xp.narrow(a, 1, 2, 2), ValueError, "narrow"),
    (lambda a: xp.narrow(a, 5, 0, 1), IndexError, "narrow"),
    (lambda a: xp.expand(a, (4, 3)), ValueError, "expand"),
    (lambda a: xp.expand(a, (2, 5, 4)), ValueError, "expand"),
    (lambda a: xp.diagonal(a, 0, 1, 1), ValueError, "diagonal"),
    (lambda a: xp.diagonal(a[0, 0]), ValueError, "diagonal"),
    (lambda a: xp.unfold(a, 1, 4, 1), ValueError, "unfold"),
    (lambda a: xp.unfold(a, 1, 2, 0), ValueError, "unfold"),
    (lambda a: a.view(5, 5), ValueError, "Array.view"),
])
def test_bad_input(call, exc, fragment):
    a = xp.reshape(xp.arange(24), (2, 3, 4))
    with pytest.raises(exc, match=fragment):
        call(a)


@pytest.mark.parametrize("shapes", [[(2, 3), (3,)], [(1, 4), (5, 1)], [(), (2,)], [(0, 1), (3,)],
                                    [(4, 1, 3), (2, 1), (1,)], [(2,)], []])
def test_broadcast_shapes_vs_numpy(shapes):
    assert xp.broadcast_shapes(*shapes) == np.broadcast_shapes(*shapes)


@pytest.mark.parametrize("layout", params(ALL, ndim=2))
def test_show_marks_the_walk(layout, capsys):
    a, _ = make(layout, (2, 3), xp.int16)
    xp.show(a)
    out = capsys.readouterr().out
    assert f"offset {a.offset}, shape {a.shape}, strides {a.strides}" in out
    walk = [c.strip() for c in out.splitlines()[4].split("|")[1:-1]]
    visited = [int(k) for cell in walk if cell for k in cell.split(",")]
    assert sorted(visited) == list(range(a.size))


def test_array_attributes():
    a, n = make("transposed", (2, 3, 4), xp.float32)
    assert (a.ndim, a.shape, a.size, a.dtype) == (3, (2, 3, 4), 24, xp.float32)
    assert a.device == xp.Device("cpu") and a.to_device("cpu") is a
    assert a.__array_namespace__() is xp
    assert a.__array_namespace__(api_version="2024.12") is xp
    with pytest.raises(ValueError, match="__array_namespace__"):
        a.__array_namespace__(api_version="1999.01")
    with pytest.raises(ValueError, match="to_device"):
        a.to_device("gpu")
    assert_same(a.mT, np.swapaxes(n, -1, -2))
    assert_same(a[0].T, n[0].T)
    assert shares(a.mT, a) and shares(a[0].T, a)
    assert len(a) == 2 and [r.shape for r in a] == [(3, 4)] * 2
    assert repr(a.storage).startswith("<arrstride storage of 96 bytes")
