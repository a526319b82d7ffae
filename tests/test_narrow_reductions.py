"""min, max, argmax, argmin, the cumulative sums and products, diff, all,
any and count_nonzero of float16 and bfloat16 read the narrow input in C,
with no widened copy: bit for bit the float32 path (widen to a C-ordered
float32 copy, compute, round once), over every layout of tests/layouts.py,
NaN, -0.0 and 0.0, infinities and subnormals, every axis, on one thread and
two, at sizes that split the work. float16 is checked against NumPy too
where NumPy agrees with that path."""
from __future__ import annotations

import numpy as np
import pytest

import arrstride as xp
from arrstride import _core
from layouts import ALL, make, params

NARROW = ["float16", "bfloat16"]


def special_values(shape, dtype_name, seed):
    """float32 values a narrow dtype holds exactly: NaN, -0.0 and 0.0, +-inf,
    subnormals of both dtypes, ties between equal values."""
    rng = np.random.default_rng(seed)
    v = np.asarray((rng.integers(-40, 40, shape) / 4).astype(np.float32))
    r = np.asarray(rng.random(shape))
    v[r < 0.15] = 0.0
    v[(r >= 0.15) & (r < 0.3)] = -0.0
    v[(r >= 0.3) & (r < 0.33)] = np.inf
    v[(r >= 0.33) & (r < 0.36)] = -np.inf
    v[(r >= 0.36) & (r < 0.4)] = np.float32(2.0 ** -20)  # float16 subnormal
    v[(r >= 0.4) & (r < 0.42)] = np.float32(-(2.0 ** -130))  # bfloat16 subnormal
    if seed % 2:
        v[(r >= 0.5) & (r < 0.52)] = np.nan
    return v


def bits_of(dtype_name, f32):
    """The narrow dtype's bits of exactly representable float32 values."""
    f32 = np.asarray(f32, np.float32)
    if dtype_name == "float16":
        return f32.astype(np.float16).view(np.uint16)
    return (f32.view(np.uint32) >> 16).astype(np.uint16)


def narrow_make(layout, shape, dtype_name, seed=0):
    """(a, w): a narrow array in `layout`, and the C-ordered float32 copy of its
    values (today's path widened to that copy)."""
    def values(shape, _name, seed):
        return bits_of(dtype_name, special_values(shape, dtype_name, seed))
    a, n = make(layout, shape, "uint16", seed=seed, values=values)
    a = a.view(getattr(xp, dtype_name))
    w = xp.astype(xp.asarray(np.ascontiguousarray(n)).view(getattr(xp, dtype_name)), xp.float32)
    return a, xp.reshape(w, a.shape)


def same(got, want):
    """Equal dtype, shape and bits (NaN payloads included)."""
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype, got.shape, want.shape)
    g = xp.astype(got, xp.float32) if got.dtype in (xp.float16, xp.bfloat16) else got
    w = xp.astype(want, xp.float32) if want.dtype in (xp.float16, xp.bfloat16) else want
    assert np.asarray(g).tobytes() == np.asarray(w).tobytes(), (np.asarray(g).ravel()[:8], np.asarray(w).ravel()[:8])


def check_all(a, w, d):
    axes = [None] + list(range(a.ndim))
    for f in ("max", "min", "nanmax", "nanmin"):
        for ax in axes:
            for keep in (False, True):
                try:
                    want = xp.astype(getattr(xp, f)(w, axis=ax, keepdims=keep), d)
                except ValueError:
                    with pytest.raises(ValueError):
                        getattr(xp, f)(a, axis=ax, keepdims=keep)
                    continue
                same(getattr(xp, f)(a, axis=ax, keepdims=keep), want)
    for f in ("count_nonzero", "all", "any"):
        for ax in axes:
            same(getattr(xp, f)(a, axis=ax), getattr(xp, f)(w, axis=ax))
    for f in ("argmax", "argmin", "nanargmax", "nanargmin"):
        for ax in axes:
            if a.ndim == 0 and ax is not None:
                continue
            try:
                want = getattr(xp, f)(w, axis=ax)
            except ValueError:
                with pytest.raises(ValueError):
                    getattr(xp, f)(a, axis=ax)
                continue
            same(getattr(xp, f)(a, axis=ax), want)
    for f in ("cumulative_sum", "cumulative_prod"):
        for ax in ([None] if a.ndim <= 1 else []) + list(range(a.ndim)):
            for inc in (False, True):
                same(getattr(xp, f)(a, axis=ax, include_initial=inc),
                     xp.astype(getattr(xp, f)(w, axis=ax, include_initial=inc), d))
                for acc in (xp.float32, xp.float64, xp.int64):
                    same(getattr(xp, f)(a, axis=ax, include_initial=inc, dtype=acc),
                         getattr(xp, f)(w, axis=ax, include_initial=inc, dtype=acc))
    for ax in range(a.ndim):
        for n in (1, 2, 3):
            want = w
            for _ in range(n):  # float32 differences, rounded once
                want = xp.diff(want, axis=ax)
            same(xp.diff(a, n=n, axis=ax), xp.astype(want, d))


@pytest.mark.parametrize("d", NARROW)
@pytest.mark.parametrize("layout", params(ALL))
def test_over_layouts_as_the_float32_path(layout, d):
    for seed in (0, 1):
        a, w = narrow_make(layout, (6, 9), d, seed)
        check_all(a, w, getattr(xp, d))


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("d", NARROW)
def test_large_and_threaded_as_the_float32_path(d, threads, fast):
    was_fast = _core.set_fast_paths(fast)
    old = xp.get_num_threads()
    xp.set_num_threads(threads)
    try:
        dt = getattr(xp, d)
        for seed, shape in ((0, (600_001,)), (1, (600_001,)), (2, (900, 700)), (3, (3, 700, 301))):
            v = special_values(shape, d, seed)
            v[v == np.inf] = 3.0 if seed < 2 else np.inf  # let the contiguous shortcut run
            v[v == -np.inf] = -3.0 if seed < 2 else -np.inf
            a = xp.asarray(bits_of(d, v)).view(dt)
            w = xp.astype(a, xp.float32)  # C-ordered as a
            for ax in [None] + list(range(a.ndim)):
                for f in ("max", "min"):
                    same(getattr(xp, f)(a, axis=ax), xp.astype(getattr(xp, f)(w, axis=ax), dt))
                for f in ("argmax", "argmin"):
                    same(getattr(xp, f)(a, axis=ax), getattr(xp, f)(w, axis=ax))
            t = xp.permute_dims(a, tuple(reversed(range(a.ndim))))
            tw = xp.permute_dims(w, tuple(reversed(range(a.ndim))))
            for f in ("max", "min"):
                same(getattr(xp, f)(t, axis=0), xp.astype(getattr(xp, f)(tw, axis=0), dt))
            ax = a.ndim - 1
            same(xp.cumulative_sum(a, axis=ax), xp.astype(xp.cumulative_sum(w, axis=ax), dt))
            same(xp.diff(a, axis=ax), xp.astype(xp.diff(w, axis=ax), dt))
    finally:
        xp.set_num_threads(old)
        _core.set_fast_paths(was_fast)


def test_float16_as_numpy():
    rng = np.random.default_rng(5)
    n = (rng.integers(-400, 400, (40, 33)) / 8).astype(np.float16)
    n[3, 4] = np.nan
    n[7, :] = np.inf
    a = xp.asarray(n)
    for ax in (None, 0, 1):
        assert np.array_equal(np.asarray(xp.max(a, axis=ax)), np.max(n, axis=ax), equal_nan=True)
        assert np.array_equal(np.asarray(xp.min(a, axis=ax)), np.min(n, axis=ax), equal_nan=True)
        assert np.array_equal(np.asarray(xp.argmax(a, axis=ax)), np.argmax(n, axis=ax))
        assert np.array_equal(np.asarray(xp.argmin(a, axis=ax)), np.argmin(n, axis=ax))
    m = np.where(np.isnan(n), 0, n)
    b = xp.asarray(m)
    for ax in (0, 1):
        assert np.array_equal(np.asarray(xp.diff(b, axis=ax)), np.diff(m, axis=ax), equal_nan=True)


def test_narrow_min_max_of_zeros_keep_the_float32_paths_winner():
    for d in (xp.float16, xp.bfloat16):
        for v in ([0.0, -0.0], [-0.0, 0.0], [-0.0] * 9 + [0.0] * 70, [0.0] * 64 + [-0.0] * 100):
            a = xp.asarray(v, dtype=d)
            w = xp.asarray(v, dtype=xp.float32)
            for f in ("max", "min"):
                same(getattr(xp, f)(a), xp.astype(getattr(xp, f)(w), d))
