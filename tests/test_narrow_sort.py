"""float16 and bfloat16 sorted, selected, made unique and searched in their own
dtype (no float32 copy): bit for bit what the float32 path gives (astype to
float32, the same function, cast back), and NumPy's for float16, over the
layouts, both orders, stable and not, with NaNs, +-0, +-inf and subnormals,
on lanes below and above the thread pool's and the sample sort's thresholds."""
from __future__ import annotations

import numpy as np
import pytest

import arrstride as xp
from layouts import ALL, applies, make

NARROW = ["float16", "bfloat16"]

# bit patterns of both dtypes: +-0, +-inf, quiet NaNs of both signs and
# payloads, the smallest subnormals and normals, the largest finite values
SPECIAL = {
    "float16": [0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7e01, 0x7fff, 0x0001, 0x8001,
                0x03ff, 0x0400, 0x8400, 0x7bff, 0xfbff, 0x3c00, 0xbc00],
    "bfloat16": [0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7fc1, 0x7fff, 0x0001, 0x8001,
                 0x007f, 0x0080, 0x8080, 0x7f7f, 0xff7f, 0x3f80, 0xbf80],
}

SHAPE = (3, 40)
LAYOUTS_2D = [name for name in ALL if applies(name, SHAPE)]  # the others repeat one of these


def bits_of(a) -> np.ndarray:
    return np.asarray(xp.asarray(a).view(xp.uint16))


def narrow_values(shape, name, seed=0, distinct=64):
    """Bits of name: few distinct values (many ties, zeros of both signs) and the
    special patterns, as a uint16 NumPy array."""
    rng = np.random.default_rng(seed)
    f = (rng.integers(-distinct // 2, distinct // 2, shape) / 4).astype(np.float32)
    a = xp.astype(xp.asarray(f), getattr(xp, name))
    b = bits_of(a).copy()
    flat = b.reshape(-1)
    sp = np.asarray(SPECIAL[name], np.uint16)
    pos = rng.integers(0, max(flat.size, 1), min(flat.size, 3 * sp.size))
    flat[pos] = sp[np.arange(pos.size) % sp.size]
    flat[rng.integers(0, max(flat.size, 1), flat.size // 16)] = 0x8000  # -0.0
    return b


def narrow_array(bits, name):
    return xp.asarray(np.ascontiguousarray(bits)).view(getattr(xp, name))


def via_float32(f, x, *args, **kwargs):
    """The float32 path: f of x as float32, a narrow result cast back."""
    r = f(xp.astype(x, xp.float32), *args, **kwargs)
    return xp.astype(r, x.dtype) if r.dtype == xp.float32 else r


def same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    if got.dtype in (xp.float16, xp.bfloat16):
        np.testing.assert_array_equal(bits_of(got), bits_of(want))
    else:
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def laid_out(layout, shape, name, seed=0):
    """(x, bits) in the layout: x narrow, bits its values' bits (NumPy)."""
    a, n = make(layout, shape, "uint16", seed, values=lambda s, d, sd: narrow_values(s, name, sd))
    return a.view(getattr(xp, name)) if a.ndim and a.size else _view0(a, name), n


def _view0(a, name):
    # a view of a 0-d or empty array: through a contiguous copy's bits
    return xp.asarray(np.array(np.asarray(a))).view(getattr(xp, name)) \
        if a.size else xp.reshape(xp.asarray(np.zeros(0, np.uint16)).view(getattr(xp, name)), a.shape)


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("layout", LAYOUTS_2D)
def test_sort_argsort_layouts(name, layout):
    shape = SHAPE
    x, _ = laid_out(layout, shape, name)
    axes = [-1, 0] if x.ndim >= 2 else [-1]
    for axis in axes if x.ndim else [-1]:
        for descending in (False, True):
            for stable in (True, False):
                kw = dict(axis=axis, descending=descending, stable=stable)
                same(xp.sort(x, **kw), via_float32(xp.sort, x, **kw))
                same(xp.argsort(x, **kw), via_float32(xp.argsort, x, **kw))


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("n", [0, 1, 2, 5, 24, 25, 100, 1000, 5000, (1 << 15) + 3, 70_000, 300_000])
def test_sort_argsort_lengths(name, n):
    seed = n % 7
    for distinct in (64, 60000):
        x = narrow_array(narrow_values((n,), name, seed, distinct), name)
        for descending in (False, True):
            for stable in (True, False):
                kw = dict(descending=descending, stable=stable)
                same(xp.sort(x, **kw), via_float32(xp.sort, x, **kw))
                same(xp.argsort(x, **kw), via_float32(xp.argsort, x, **kw))
        if name == "float16":  # NumPy's stable sort is the oracle too
            h = np.ascontiguousarray(bits_of(x)).view(np.float16)
            np.testing.assert_array_equal(bits_of(xp.sort(x)), np.sort(h, kind="stable").view(np.uint16))
            np.testing.assert_array_equal(np.asarray(xp.argsort(x)), np.argsort(h, kind="stable"))


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("n", [1, 7, 64, 200, 5000, 100_000])
def test_partition_argpartition(name, n):
    x = narrow_array(narrow_values((2, n), name, n % 5), name)
    for kth in ([0], [n // 2], [n - 1], sorted({0, n // 3, n // 2, n - 1})):
        same(xp.partition(x, kth), via_float32(xp.partition, x, kth))
        same(xp.argpartition(x, kth), via_float32(xp.argpartition, x, kth))
        for axis in (0, None):
            k = [min(kth[0], x.shape[0] - 1)] if axis == 0 else kth
            same(xp.partition(x, k, axis=axis), via_float32(xp.partition, x, k, axis=axis))
            same(xp.argpartition(x, k, axis=axis), via_float32(xp.argpartition, x, k, axis=axis))


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("layout", LAYOUTS_2D)
def test_partition_layouts(name, layout):
    shape = SHAPE
    x, _ = laid_out(layout, shape, name)
    if x.ndim == 0 or x.shape[-1] == 0:
        return
    for kth in ([0], [17], [3, 20, x.shape[-1] - 1]):
        same(xp.partition(x, kth), via_float32(xp.partition, x, kth))
        same(xp.argpartition(x, kth), via_float32(xp.argpartition, x, kth))


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("layout", LAYOUTS_2D)
def test_unique_layouts(name, layout):
    shape = SHAPE
    x, _ = laid_out(layout, shape, name)
    same(xp.unique_values(x), via_float32(xp.unique_values, x))
    got, want = xp.unique_all(x), xp.unique_all(xp.astype(x, xp.float32))
    same(got.values, xp.astype(want.values, x.dtype))
    for g, w in zip(got[1:], want[1:]):
        same(g, w)
    got, want = xp.unique_counts(x), xp.unique_counts(xp.astype(x, xp.float32))
    same(got.values, xp.astype(want.values, x.dtype))
    same(got.counts, want.counts)


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("n", [4095, 4096, 100_000])
@pytest.mark.parametrize("distinct", [20, 60000])
def test_unique_long(name, n, distinct):
    x = narrow_array(narrow_values((n,), name, 3, distinct), name)
    x = x[::-1]  # a negative stride
    same(xp.unique_values(x), via_float32(xp.unique_values, x))
    w = xp.astype(x, xp.float32)
    for f in (xp.unique_inverse, xp.unique_counts, xp.unique_all):
        got, want = f(x), f(w)
        same(got[0], xp.astype(want[0], x.dtype))
        for g, v in zip(got[1:], want[1:]):
            same(g, v)


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("layout", ALL)
def test_searchsorted(name, layout):
    d = getattr(xp, name)
    s = xp.sort(narrow_array(narrow_values((300,), name, 1), name))
    x2, _ = laid_out(layout, (3, 40), name, seed=2)
    wide = xp.astype(s, xp.float32)
    for side in ("left", "right"):
        same(xp.searchsorted(s, x2, side=side),
             xp.searchsorted(wide, xp.astype(x2, xp.float32), side=side))
        # other values: exact in the narrow dtype, or compared as float32
        for v in (xp.asarray([-3, 0, 5, 100], dtype=xp.int8), xp.asarray([0, 1, 255], dtype=xp.uint8),
                  xp.asarray([True, False]), xp.asarray([-300, 7, 1001], dtype=xp.int16),
                  xp.asarray([0.1, -0.0, 3.5], dtype=xp.float32), 2, -0.5, float("nan")):
            want = xp.searchsorted(wide, v if not isinstance(v, xp.Array) else
                                   xp.astype(xp.astype(v, xp.result_type(v.dtype, d)), xp.float32)
                                   if xp.result_type(v.dtype, d) == d else v, side=side) \
                if isinstance(v, xp.Array) else None
            got = xp.searchsorted(s, v, side=side)
            if want is not None:
                same(got, want)
        sorter = xp.argsort(xp.flip(s))
        same(xp.searchsorted(xp.flip(s), x2, side=side, sorter=sorter),
             xp.searchsorted(wide, xp.astype(x2, xp.float32), side=side))


@pytest.mark.parametrize("name", NARROW)
def test_signaling_nan_and_zero_bits_kept(name):
    # sorting moves elements, never rewrites them: every input bit pattern comes out
    bits = np.arange(1 << 16, dtype=np.uint16)
    np.random.default_rng(0).shuffle(bits)
    x = narrow_array(bits, name)
    for stable in (True, False):
        for descending in (False, True):
            s = bits_of(xp.sort(x, stable=stable, descending=descending))
            np.testing.assert_array_equal(np.sort(s), np.arange(1 << 16, dtype=np.uint16))
            np.testing.assert_array_equal(s, bits[np.asarray(xp.argsort(x, stable=True,
                                                                        descending=descending))]
                                          if stable else s)
    p = bits_of(xp.partition(x, [100, 40000]))
    np.testing.assert_array_equal(np.sort(p), np.arange(1 << 16, dtype=np.uint16))


@pytest.mark.parametrize("name", NARROW)
def test_portable_selection(name):
    from arrstride import _kernels as K
    x = narrow_array(narrow_values((2, 3000), name, 4), name)
    w = xp.astype(x, xp.float32)
    for arg in (False, True):
        for kth in ([5], [0, 1500, 2999]):
            a = xp.empty(x.shape, dtype=xp.int64 if arg else x.dtype)
            b = xp.empty(x.shape, dtype=xp.int64 if arg else xp.float32)
            K.select(x, a, 1, kth, arg, vector=False)
            K.select(w, b, 1, kth, arg, vector=False)
            same(a, b if arg else xp.astype(b, x.dtype))
