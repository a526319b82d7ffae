"""The catalogue in tests/layouts.py does what its names say: every layout
holds the NumPy twin's values, views its base, and has the stride property
it is named for (so a kernel test over it covers that property)."""
import numpy as np
import pytest

import arrstride as xp
from conftest import assert_same, shares
from layouts import ALL, DTYPE_NAMES, applies, make_with_base, shape_of, view_of, views

PROPERTY = {
    "contiguous": lambda a: a.is_contiguous() and a.offset == 0,
    "transposed": lambda a: not a.is_contiguous() and a.strides[0] == 1,
    "permuted": lambda a: not a.is_contiguous() and sorted(a.strides) != list(a.strides)[::-1],
    "stepped": lambda a: all(s % 2 == 0 for s in a.strides[1:]) and a.offset > 0,
    "negative": lambda a: all(s < 0 for s in a.strides) and a.offset > 0,
    "mixed": lambda a: any(s < 0 for s in a.strides) and not a.is_contiguous() and a.offset > 0,
    "offset": lambda a: a.offset > 0 and not a.is_contiguous(),
    "broadcast": lambda a: 0 in a.strides and a.storage.readonly,
    "empty": lambda a: a.size == 0 and a.offset > 0,
    "empty-stepped": lambda a: a.size == 0 and any(s < 0 for s in a.strides),
    "zerod": lambda a: a.ndim == 0 and a.offset > 0,
    "size1": lambda a: a.shape[0] == 1 and a.strides[0] != a.size,
}


CASES = [pytest.param(layout, shape, id=f"{layout}-{len(shape)}d")
         for shape in [(3, 4), (2, 3, 4)] for layout in ALL if applies(layout, shape)]


@pytest.mark.parametrize("layout, shape", CASES)
@pytest.mark.parametrize("dtype", ["bool", "int16", "float64", "complex64"])
def test_layout_is_what_it_says(layout, shape, dtype):
    a, n, ab, nb = make_with_base(layout, shape, dtype, seed=3)
    assert a.shape == n.shape == shape_of(layout, shape)
    assert_same(a, n)
    assert_same(ab, nb)
    assert shares(a, ab)
    assert PROPERTY[layout](a), (layout, a.shape, a.strides, a.offset)
    if a.size and layout != "broadcast":  # n views nb the way a views ab
        assert np.shares_memory(n, nb)


def test_views_hold_the_given_values():
    v = np.arange(24.0).reshape(2, 3, 4)
    names = [name for name, _, _ in views(v)]
    assert names == ["contiguous", "transposed", "stepped", "negative", "broadcast", "offset",
                     "mixed", "permuted"]
    for name, a, n in views(v):
        assert_same(a, n)
        if name != "broadcast":
            np.testing.assert_array_equal(n, v)
    a, n = view_of("negative", np.asarray(5.0))  # 0-d: one layout, the values kept
    assert a.shape == () and a.tolist() == 5.0


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_every_dtype(dtype):
    for layout in ALL:
        a, n, _, _ = make_with_base(layout, (2, 3), dtype)
        assert a.dtype == getattr(xp, dtype)
        assert_same(a, n)
