"""_layout alone: pure view math, importable without the compiled module, and
checked against NumPy's strides (elements, not bytes)."""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "arrstride", "_layout.py")


def _load():
    spec = importlib.util.spec_from_file_location("layout_alone", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


L = _load()


def test_imports_without_the_compiled_module():
    code = ("import sys, importlib.util\n"
            "sys.modules['arrstride._native'] = None  # any import of it fails\n"
            f"spec = importlib.util.spec_from_file_location('layout_alone', {PATH!r})\n"
            "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
            "print(m.contiguous((2, 3)).strides)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "(3, 1)"
    modules = [v.__name__ for v in vars(L).values() if type(v) is type(sys)]
    assert not [m for m in modules if m.startswith("arrstride")], modules


def _np_layout(a):
    isz = a.itemsize
    return a.shape, tuple(s // isz for s in a.strides)


BASE = np.arange(2 * 3 * 4).reshape(2, 3, 4)


@pytest.mark.parametrize("axes", [(0, 1, 2), (2, 1, 0), (1, 2, 0)])
def test_permute(axes):
    lay = L.permute(L.contiguous(BASE.shape), axes)
    assert (lay.shape, lay.strides) == _np_layout(BASE.transpose(axes))


@pytest.mark.parametrize("axis,sl", [(0, slice(None, None, -1)), (1, slice(0, 3, 2)), (2, slice(3, 0, -2)),
                                     (2, slice(5, 9)), (1, slice(None, None, 7))])
def test_slice_dim(axis, sl):
    lay = L.slice_dim(L.contiguous(BASE.shape), axis, *sl.indices(BASE.shape[axis]))
    key = [slice(None)] * 3
    key[axis] = sl
    ref = BASE[tuple(key)]
    assert lay.shape == ref.shape
    if ref.size:
        assert lay.strides == _np_layout(ref)[1]
        flat = BASE.ravel()
        idx = np.indices(ref.shape).reshape(3, -1).T
        got = [flat[lay.offset + sum(int(i) * s for i, s in zip(ix, lay.strides))] for ix in idx]
        assert got == ref.ravel().tolist()


def test_select_expand_flip_extent():
    lay = L.select(L.contiguous(BASE.shape), 1, 2)
    assert (lay.shape, lay.strides, lay.offset) == ((2, 4), (12, 1), 8)
    e = L.expand(L.contiguous((3, 1)), (2, 3, 5))
    assert e.strides == (0, 1, 0) and e.size == 30
    assert L.expand(L.contiguous((3,)), (4,)) is None
    f = L.flip(L.contiguous((4,)), [0])
    assert (f.strides, f.offset) == ((-1,), 3) and L.extent(f) == (0, 3)
    assert L.broadcast_shapes((3, 1), (1, 4)) == (3, 4) and L.broadcast_shapes((2,), (3,)) is None


def test_contiguity_and_views():
    assert L.is_contiguous(L.contiguous((2, 0, 3)))
    assert L.is_contiguous(L.Layout((1, 4), (99, 1)))      # a size-1 dim's stride is free
    assert not L.is_contiguous(L.permute(L.contiguous((2, 3)), (1, 0)))
    assert L.view_strides(L.contiguous((2, 3, 4)), (6, 4)) == (4, 1)
    t = L.permute(L.contiguous((2, 3)), (1, 0))
    assert L.view_strides(t, (6,)) is None                  # no strides exist: reshape copies
    assert L.has_internal_overlap(L.Layout((3, 2), (0, 1)))
    assert not L.has_internal_overlap(L.Layout((3, 2), (2, 1)))


def test_layout_is_immutable():
    lay = L.contiguous((2, 2))
    with pytest.raises(AttributeError):
        lay.offset = 1


def test_index_view_is_select_slice_and_new_axes_composed():
    """index_view (the view of a parsed key, _core.index_key) equals the view
    functions applied one item at a time: x[1, None, 4:1:-2] here."""
    lay = L.Layout((4, 5, 6), (30, 6, 1), 3)
    got = L.index_view(lay, (1, 2, 6), (-1, 1, 2), (0, -2, 1), (1, 4, 0))
    assert got == L.slice_dim(L.insert_dims(L.select(lay, 0, 1), [0]), 1, 4, 1, -2)
    assert (got.shape, got.strides, got.offset) == ((1, 2, 6), (0, -12, 1), 57)
    big = L.Layout((1,), (2 ** 62,), 0)  # a step past int64: Python ints, exact
    assert L.index_view(big, (1,), (0,), (-2 ** 70,), (0,)).strides == (-2 ** 132,)
