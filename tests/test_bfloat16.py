"""bfloat16: the top 16 bits of an IEEE float32, stored narrow and
computed in float32, rounded once to nearest even (PyTorch's model).

Two oracles. Without PyTorch (the main suite): a bit-level reference of the
conversion rules (float32 -> bfloat16: round to nearest even on the bits, NaN
kept NaN with its quiet bit set; wider sources through float32 first, as
PyTorch does), NumPy's float32 arithmetic rounded by that reference, over
tests/layouts.py. With PyTorch (the tests named *torch*, run by .ci/run's torch
step, which fails if any is skipped): casts, arithmetic, reductions, sorting,
promotion and DLPack bit for bit against torch.bfloat16 (NaN payloads aside:
PyTorch's own NaN bits differ between its scalar and vector paths)."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import arrstride as xp
from layouts import ALL, make, params

EVERY = np.arange(1 << 16, dtype=np.uint16)  # every bfloat16 bit pattern


def torch_or_skip():
    try:
        import torch
    except ImportError:
        pytest.skip("PyTorch is not installed (the oracle of these bfloat16 tests)")
    return torch


# ---- the reference: bfloat16 bits <-> float32 --------------------------------------------

def widen(bits) -> np.ndarray:
    """bfloat16 bits -> the float32 values (exact: the bits are float32's top half)."""
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(np.float32)


def narrow(f32) -> np.ndarray:
    """float32 values -> bfloat16 bits: round to nearest even on the bits; a NaN
    keeps its sign and top payload bits, with the quiet bit set."""
    u = np.asarray(f32, np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = (u & 0x7FFFFFFF) > 0x7F800000
    return np.where(nan, ((u >> 16) | 0x40).astype(np.uint16), r)


def to_f32(values) -> np.ndarray:
    with np.errstate(over="ignore"):  # past float32's range: inf, as IEEE
        return np.asarray(values).astype(np.float32)


def bf(bits):
    """An arrstride bfloat16 array holding these bits."""
    return xp.asarray(np.asarray(bits, np.uint16)).view(xp.bfloat16)


def bits_of(a) -> np.ndarray:
    return np.asarray(xp.asarray(a).view(xp.uint16))


def same_bits(got, want_bits):
    """Equal bfloat16 bits, NaNs compared as NaNs."""
    got = bits_of(got)
    want_bits = np.asarray(want_bits, np.uint16)
    nan = np.isnan(widen(got)) & np.isnan(widen(want_bits))
    bad = (got != want_bits) & ~nan
    assert not bad.any(), (widen(got)[bad][:5], widen(want_bits)[bad][:5])


def within_ulp(got, want_bits):
    """Within one bfloat16 step (NaN where the reference is NaN)."""
    g, w = widen(bits_of(got)).astype(np.float64), widen(want_bits).astype(np.float64)
    assert np.array_equal(np.isnan(g), np.isnan(w))
    ok = ~np.isnan(w)
    step = np.maximum(np.abs(w[ok]) * 2.0 ** -7, 2.0 ** -133)
    both_inf = np.isinf(g[ok]) & (g[ok] == w[ok])
    close = both_inf | (np.abs(g[ok] - w[ok]) <= step)
    assert close.all(), (g[ok][~close][:5], w[ok][~close][:5])


# ---- casts ----------------------------------------------------------------------------------

def test_widening_is_exact():
    a = bf(EVERY)
    got = np.asarray(xp.astype(a, xp.float32))
    assert np.array_equal(got.view(np.uint32), widen(EVERY).view(np.uint32))
    got64 = np.asarray(xp.astype(a, xp.float64))
    want64 = widen(EVERY).astype(np.float64)
    assert np.array_equal(np.isnan(got64), np.isnan(want64))
    ok = ~np.isnan(want64)
    assert np.array_equal(got64[ok].view(np.uint64), want64[ok].view(np.uint64))
    # and back: the same bits (a signalling NaN comes back quiet)
    quiet = np.where(np.isnan(widen(EVERY)), EVERY | 0x40, EVERY)
    assert np.array_equal(bits_of(xp.astype(xp.asarray(got), xp.bfloat16)), quiet)


def _float32_cases():
    rng = np.random.default_rng(11)
    top = EVERY.astype(np.uint32) << 16
    cases = np.concatenate([top, top | 0x8000, (top | 0x8000) + 1, (top | 0x8000) - 1,
                            top | 0x7FFF, rng.integers(0, 1 << 32, 200_000, dtype=np.uint64)
                            .astype(np.uint32)])
    return cases.astype(np.uint32).view(np.float32)


def test_float32_narrowing_rounds_to_nearest_even():
    f = _float32_cases()
    same_bits(xp.astype(xp.asarray(f), xp.bfloat16), narrow(f))
    # the quiet bit of a NaN is set, its sign and top payload kept
    nan = np.array([0x7F800001, 0xFF800001, 0x7FA00000, 0x7FC00000, 0xFFFFFFFF], np.uint32)
    got = bits_of(xp.astype(xp.asarray(nan.view(np.float32)), xp.bfloat16))
    assert got.tolist() == [0x7FC0, 0xFFC0, 0x7FE0, 0x7FC0, 0xFFFF]


def test_float64_narrowing_goes_through_float32():
    """As PyTorch: float64 -> float32 -> bfloat16, two roundings (1 + 2**-8 +
    2**-30 is 1.0, where one rounding would give 1 + 2**-7)."""
    rng = np.random.default_rng(5)
    finite = widen(EVERY).astype(np.float64)
    finite = np.unique(finite[np.isfinite(finite)])
    mid = (finite[:-1] + finite[1:]) / 2
    d = np.concatenate([finite, mid, mid * (1 + 2.0 ** -30), mid * (1 - 2.0 ** -30),
                        rng.standard_normal(50_000) * 10.0 ** rng.integers(-45, 45, 50_000),
                        [1e300, -1e300, 3.4e38, 3.3961e38, 2.0 ** -140, 2.0 ** -134, np.inf,
                         -np.inf, np.nan, -0.0]])
    same_bits(xp.astype(xp.asarray(d), xp.bfloat16), narrow(to_f32(d)))
    assert float(xp.asarray(1 + 2.0 ** -8 + 2.0 ** -30, dtype=xp.bfloat16)) == 1.0
    c = d[:1000] + 1j
    same_bits(xp.astype(xp.asarray(c), xp.bfloat16), narrow(to_f32(c.real)))


@pytest.mark.parametrize("src", ["int8", "uint8", "int16", "uint16", "int32", "uint32",
                                 "int64", "uint64", "bool"])
def test_integers_to_and_from_bfloat16(src):
    rng = np.random.default_rng(3)
    info = np.iinfo(src) if src != "bool" else None
    if info is None:
        v = np.array([True, False])
    else:
        v = np.concatenate([rng.integers(info.min, info.max, 5000, dtype=src, endpoint=True),
                            np.array([info.min, info.max, 0, 1], src)])
        if info.bits >= 32:  # midpoints of bfloat16 steps, and either side of them
            e = rng.integers(8, info.bits - 2, 2000)
            m = rng.integers(128, 256, 2000)
            mid = (m << e) + (1 << (e - 8))
            v = np.concatenate([v, mid.astype(src), (mid + 1).astype(src), (mid - 1).astype(src)])
    same_bits(xp.astype(xp.asarray(v), xp.bfloat16), narrow(v.astype(np.float32)))
    # back to the integer: in-range values truncate, as float32 does
    f = widen(narrow(v.astype(np.float32)))
    if info is not None:
        keep = (f >= info.min) & (f < float(info.max) * 0.99) & np.isfinite(f)
        f = f[keep]
    got = np.asarray(xp.astype(xp.astype(xp.asarray(f), xp.bfloat16), getattr(xp, src)))
    np.testing.assert_array_equal(got, f.astype(src))


@pytest.mark.parametrize("layout", params(ALL))
def test_casts_over_layouts(layout):
    def values(shape, dtype, seed):
        return narrow(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))
    a, n = make(layout, (3, 4), "uint16", values=values)
    b = a.view(xp.bfloat16)
    np.testing.assert_array_equal(np.asarray(xp.astype(b, xp.float32)), widen(n))
    np.testing.assert_array_equal(np.asarray(xp.astype(b, xp.float64)), widen(n).astype(np.float64))
    f, m = make(layout, (3, 4), "float64")
    same_bits(xp.astype(f, xp.bfloat16), narrow(to_f32(m)))


# ---- elementwise, promotion ----------------------------------------------------------------

def _bf16_values(shape, dtype, seed):
    v = narrow(np.random.default_rng(seed).standard_normal(shape).astype(np.float32) * 10)
    v.flat[::7] = 0x7FC0  # NaN
    return v


EXACT = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
         "maximum": np.maximum, "minimum": np.minimum, "copysign": np.copysign, "hypot": np.hypot}


@pytest.mark.parametrize("layout", params(ALL))
def test_elementwise_over_layouts(layout):
    a, n = make(layout, (3, 4), "uint16", values=_bf16_values)
    b, m = make(layout, (3, 4), "uint16", values=_bf16_values, seed=1)
    x, y = a.view(xp.bfloat16), b.view(xp.bfloat16)
    fx, fy = widen(n), widen(m)
    with np.errstate(all="ignore"):
        for name, f in EXACT.items():
            r = getattr(xp, name)(x, y)
            assert r.dtype == xp.bfloat16, name
            same_bits(r, narrow(f(fx, fy)))
        for name, f in {"sqrt": np.sqrt, "abs": np.abs, "negative": np.negative,
                        "floor": np.floor, "ceil": np.ceil, "square": np.square,
                        "round": np.round, "trunc": np.trunc, "sign": np.sign}.items():
            same_bits(getattr(xp, name)(x), narrow(f(fx)))
        within_ulp(xp.exp(x), narrow(np.exp(fx)))
        within_ulp(xp.sin(x), narrow(np.sin(fx)))
    np.testing.assert_array_equal(np.asarray(xp.less(x, y)), fx < fy)
    np.testing.assert_array_equal(np.asarray(xp.isnan(x)), np.isnan(fx))


def test_operators_and_in_place_round_once():
    x = xp.asarray([1.0, 2.5, -3.0, 1e30], dtype=xp.bfloat16)
    f = widen(bits_of(x))
    same_bits(x * 3.3, narrow(f * np.float32(3.3)))
    same_bits(x / 7, narrow(f / np.float32(7)))
    y = xp.asarray(x, copy=True)
    y += 0.1  # the Python scalar is held in float32, as PyTorch does (NumPy rounds it first)
    assert y.dtype == xp.bfloat16
    same_bits(y, narrow(f + np.float32(0.1)))
    with pytest.raises(TypeError, match="same_kind"):
        i = xp.asarray([1, 2], dtype=xp.int8)
        i += xp.asarray([1.5, 2.5], dtype=xp.bfloat16)


# PyTorch's rule (checked against torch.result_type in test_promotion_as_torch): an
# integer or bool joins bfloat16; bfloat16 with float16 is float32. NumPy with
# ml_dtypes agrees for bool/int8/uint8 and finds no common dtype for wider integers.
PROMOTION = {"bool": "bfloat16", "int8": "bfloat16", "uint8": "bfloat16", "int16": "bfloat16",
             "uint16": "bfloat16", "int32": "bfloat16", "uint32": "bfloat16",
             "int64": "bfloat16", "uint64": "bfloat16", "float16": "float32",
             "bfloat16": "bfloat16", "float32": "float32", "float64": "float64",
             "complex64": "complex64", "complex128": "complex128"}


def test_promotion_table():
    for other, want in PROMOTION.items():
        d = getattr(xp, other)
        assert xp.result_type(xp.bfloat16, d) == getattr(xp, want), other
        assert xp.result_type(d, xp.bfloat16) == getattr(xp, want), other
        r = xp.add(xp.ones(2, dtype=xp.bfloat16), xp.ones(2, dtype=d))
        assert r.dtype == getattr(xp, want), other
    x = xp.ones(2, dtype=xp.bfloat16)  # Python scalars stay within the kind
    assert (x + 1).dtype == (x + 1.5).dtype == (x + True).dtype == xp.bfloat16
    assert (x + 1j).dtype == xp.complex64


def test_where_clip_isin_nextafter():
    x = xp.asarray([0.0, 1.0, -2.5, 1e38, np.nan], dtype=xp.bfloat16)
    f = widen(bits_of(x))
    same_bits(xp.clip(x, -1.0, 2.0), narrow(np.clip(f, -1, 2)))
    same_bits(xp.where(x > 0, x, 0.5), narrow(np.where(f > 0, f, 0.5)))
    assert np.asarray(xp.isin(x, xp.asarray([1.0], dtype=xp.bfloat16))).tolist() == \
        [False, True, False, False, False]
    up = bits_of(xp.nextafter(x, xp.asarray(np.inf, dtype=xp.bfloat16)))
    b = bits_of(x)
    assert up[:4].tolist() == [1, b[1] + 1, b[2] - 1, b[3] + 1] and up[4] == 0x7FC0


# ---- reductions, sorting, sets ------------------------------------------------------------

@pytest.mark.parametrize("layout", params(ALL))
def test_reductions_over_layouts(layout):
    def values(shape, dtype, seed):
        return narrow(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))
    a, n = make(layout, (3, 4), "uint16", values=values)
    x, f = a.view(xp.bfloat16), widen(n)
    if f.size == 0:
        return
    within_ulp(xp.sum(x), narrow(np.sum(f, dtype=np.float32)))  # float32 accumulation
    same_bits(xp.max(x), narrow(np.max(f)))
    assert int(xp.argmax(x)) == int(np.argmax(f))
    within_ulp(xp.mean(x), narrow(np.mean(f, dtype=np.float32)))
    if f.ndim == 0:
        return
    within_ulp(xp.sum(x, axis=0), narrow(np.sum(f, axis=0, dtype=np.float32)))
    same_bits(xp.min(x, axis=-1), narrow(np.min(f, axis=-1)))
    within_ulp(xp.prod(x, axis=-1), narrow(np.prod(f, axis=-1, dtype=np.float32)))
    within_ulp(xp.std(x, axis=0), narrow(np.std(f, axis=0, dtype=np.float32)))
    within_ulp(xp.cumulative_sum(x, axis=f.ndim - 1), narrow(np.cumsum(f, axis=-1, dtype=np.float32)))
    assert xp.sum(x).dtype == xp.bfloat16 and xp.sum(x, dtype=xp.float32).dtype == xp.float32


def test_sum_of_many_accumulates_in_float32():
    x = xp.full(5000, 0.1, dtype=xp.bfloat16)  # a bfloat16 accumulator would stall at 32
    f = widen(bits_of(x))
    within_ulp(xp.sum(x), narrow(np.sum(f, dtype=np.float32)))
    assert float(xp.sum(x)) > 490


@pytest.mark.parametrize("layout", params(ALL))
def test_sort_puts_nan_last(layout):
    def values(shape, dtype, seed):
        v = narrow(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))
        v.flat[::5] = 0x7FC0
        v.flat[1::7] = 0x8000  # -0.0
        return v
    a, n = make(layout, (4, 5), "uint16", values=values)
    x, f = a.view(xp.bfloat16), widen(n)
    if f.ndim == 0:
        return
    s = xp.sort(x, axis=-1)
    assert s.dtype == xp.bfloat16
    np.testing.assert_array_equal(widen(bits_of(s)), np.sort(f, axis=-1, kind="stable"))
    np.testing.assert_array_equal(np.asarray(xp.argsort(x, axis=-1)),
                                  np.argsort(f, axis=-1, kind="stable"))
    u = xp.unique_values(x)
    assert u.dtype == xp.bfloat16
    np.testing.assert_array_equal(widen(bits_of(u)), np.unique(f.ravel(), equal_nan=False))


# ---- limits, namespace, linalg, fft -------------------------------------------------------

def test_finfo_as_torch():
    fi = xp.finfo(xp.bfloat16)
    assert (fi.bits, fi.eps, fi.max, fi.min, fi.smallest_normal) == \
        (16, 2.0 ** -7, 3.3895313892515355e38, -3.3895313892515355e38, 2.0 ** -126)
    assert fi.max == float(widen(0x7F7F)) and fi.dtype == xp.bfloat16


def test_namespace():
    assert "bfloat16" in xp.__all__ and xp.bfloat16.name == "bfloat16"
    assert xp.bfloat16 not in xp.__array_namespace_info__().dtypes().values()  # the standard's 13
    assert xp.isdtype(xp.bfloat16, "real floating") and xp.bfloat16.itemsize == 2
    assert xp.bfloat16 == "bfloat16"


def test_linalg_refuses_and_products_round_once():
    a = xp.asarray([[2.0, 1.0], [1.0, 3.0]], dtype=xp.bfloat16)
    with pytest.raises(TypeError, match="inv: array type bfloat16 is unsupported in linalg"):
        xp.linalg.inv(a)
    f = widen(bits_of(a))
    same_bits(a @ a, narrow(f @ f))
    same_bits(xp.linalg.outer(a[0], a[1]), narrow(np.outer(f[0], f[1])))
    within_ulp(xp.linalg.vector_norm(a), narrow(np.linalg.norm(f.ravel())))
    assert xp.fft.fft(a[0]).dtype == xp.complex64


def test_creation_and_scalars():
    x = xp.asarray([1.1, -2.2, 3.0e38, 1e-40], dtype=xp.bfloat16)
    same_bits(x, narrow(to_f32([1.1, -2.2, 3.0e38, 1e-40])))
    assert x.tolist() == [float(v) for v in widen(bits_of(x))]
    assert float(x[0]) == float(widen(bits_of(x))[0]) and isinstance(x[1].item(), float)
    same_bits(xp.full(3, 0.3, dtype=xp.bfloat16), narrow(np.full(3, 0.3, np.float32)))
    assert bits_of(xp.zeros(2, dtype=xp.bfloat16)).tolist() == [0, 0]
    assert bits_of(xp.ones(2, dtype=xp.bfloat16)).tolist() == [0x3F80, 0x3F80]
    assert xp.eye(2, dtype=xp.bfloat16).dtype == xp.bfloat16
    r = xp.arange(0, 1, 0.25, dtype=xp.bfloat16)
    assert r.tolist() == [0.0, 0.25, 0.5, 0.75]
    assert xp.linspace(0, 1, 5, dtype=xp.bfloat16).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert "bfloat16" in repr(x)


def test_dlpack_with_itself():
    x = xp.asarray([1.5, -2.0], dtype=xp.bfloat16)
    y = xp.from_dlpack(x)
    assert y.dtype == xp.bfloat16 and bits_of(y).tolist() == bits_of(x).tolist()


# ---- NumPy: through ml_dtypes -------------------------------------------------------------

def test_numpy_exchange_through_ml_dtypes():
    ml = pytest.importorskip("ml_dtypes", reason="ml_dtypes (the [test] extra) is not installed")
    x = xp.asarray([1.5, -2.0, 3.0], dtype=xp.bfloat16)
    n = np.asarray(x)
    assert n.dtype == ml.bfloat16 and n.tolist() == [1.5, -2.0, 3.0]
    n[0] = 4.0  # zero-copy: the same memory
    assert float(x[0]) == 4.0
    assert np.array(x).dtype == ml.bfloat16
    src = np.array([0.5, 7.0, -1.0], dtype=ml.bfloat16)
    y = xp.asarray(src)
    assert y.dtype == xp.bfloat16 and y.tolist() == [0.5, 7.0, -1.0]
    src[1] = 8.0
    assert float(y[1]) == 8.0  # zero-copy
    assert xp.asarray(src[::-2]).tolist() == [-1.0, 0.5]


def test_numpy_without_ml_dtypes_raises_a_clear_type_error():
    code = ("import sys; sys.modules['ml_dtypes'] = None\n"
            "import numpy as np, arrstride as xp\n"
            "x = xp.asarray([1.5], dtype=xp.bfloat16)\n"
            "assert (x + 1).tolist() == [2.5]\n"  # arrstride itself needs no ml_dtypes
            "for f in (np.asarray, np.array):\n"
            "    try:\n"
            "        f(x)\n"
            "    except TypeError as e:\n"
            "        assert 'ml_dtypes' in str(e), e\n"
            "    else:\n"
            "        raise AssertionError('no TypeError')\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


# ---- PyTorch as the oracle (-k torch) -------------------------------------------------------

def _t(torch, bits):
    return torch.from_numpy(np.asarray(bits, np.uint16).astype(np.int16)).view(torch.bfloat16)


def _tbits(t) -> np.ndarray:
    import torch
    return t.contiguous().view(torch.int16).numpy().astype(np.uint16)


TORCH_EXACT_BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum",
                      "copysign", "hypot", "nextafter"]
TORCH_ULP_BINARY = {"pow": "pow", "atan2": "atan2", "remainder": "remainder",
                    "floor_divide": "floor_divide", "logaddexp": "logaddexp"}


def _pairs():
    rng = np.random.default_rng(21)
    a = rng.permutation(EVERY)
    b = rng.permutation(EVERY)
    return a, b


@pytest.mark.parametrize("name", TORCH_EXACT_BINARY + list(TORCH_ULP_BINARY))
def test_torch_binary_over_every_value(name):
    torch = torch_or_skip()
    a, b = _pairs()
    if name in ("remainder", "floor_divide"):
        # PyTorch computes these from a / b, which overflows float32 for a huge a
        # and a tiny b (its remainder is then NaN, its floor_divide of an
        # infinity NaN); arrstride's float32 kernels are NumPy's (fmod-based,
        # exact). Compared where the quotient is finite.
        with np.errstate(all="ignore"):
            q = widen(a).astype(np.float64) / widen(b).astype(np.float64)
        keep = np.abs(q) <= 3.4e38
        a, b = a[keep], b[keep]
    got = getattr(xp, name)(bf(a), bf(b))
    want = _tbits(getattr(torch, TORCH_ULP_BINARY.get(name, name))(_t(torch, a), _t(torch, b)))
    assert got.dtype == xp.bfloat16
    if name in TORCH_EXACT_BINARY:
        same_bits(got, want)
    elif name == "floor_divide":
        # PyTorch floors the rounded float32 quotient; arrstride's float32 kernel
        # floors the exact one (NumPy's divmod): they differ by one where the
        # rounding crosses an integer
        g, w = widen(bits_of(got)).astype(np.float64), widen(want).astype(np.float64)
        fin = np.isfinite(w)
        assert np.array_equal(np.isnan(g), np.isnan(w))
        assert np.all(np.abs(g[fin] - w[fin]) <= np.maximum(1, np.abs(w[fin]) * 2.0 ** -7))
        assert np.mean(g == w) > 0.99
    else:
        within_ulp(got, want)


TORCH_EXACT_UNARY = ["abs", "negative", "sqrt", "square", "floor", "ceil", "trunc", "round",
                     "sign", "reciprocal"]
TORCH_ULP_UNARY = ["exp", "log", "log2", "log10", "sin", "cos", "tan", "tanh", "sinh", "cosh",
                   "expm1", "log1p", "asin", "acos", "atan", "asinh", "acosh", "atanh"]
TORCH_NAME = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
              "acosh": "arccosh", "atanh": "arctanh"}


@pytest.mark.parametrize("name", TORCH_EXACT_UNARY + TORCH_ULP_UNARY)
def test_torch_unary_over_every_value(name):
    torch = torch_or_skip()
    v = EVERY
    if name == "sign":  # torch.sign(NaN) is 0; the standard (and arrstride) say NaN
        v = v[~np.isnan(widen(v))]
        assert np.isnan(float(xp.sign(xp.asarray(np.nan, dtype=xp.bfloat16))))
    got = getattr(xp, name)(bf(v))
    want = _tbits(getattr(torch, TORCH_NAME.get(name, name))(_t(torch, v)))
    if name in TORCH_EXACT_UNARY:
        same_bits(got, want)
    else:
        within_ulp(got, want)


def test_torch_comparisons_and_tests():
    torch = torch_or_skip()
    a, b = _pairs()
    ta, tb = _t(torch, a), _t(torch, b)
    for name, tname in [("less", "lt"), ("equal", "eq"), ("greater_equal", "ge"),
                        ("not_equal", "ne")]:
        np.testing.assert_array_equal(np.asarray(getattr(xp, name)(bf(a), bf(b))),
                                      getattr(torch, tname)(ta, tb).numpy())
    for name in ["isnan", "isinf", "isfinite", "signbit"]:
        np.testing.assert_array_equal(np.asarray(getattr(xp, name)(bf(a))),
                                      getattr(torch, name)(ta).numpy())


TORCH_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32",
                "float64"]


@pytest.mark.parametrize("other", TORCH_DTYPES)
def test_torch_casts_with_every_dtype(other):
    torch = torch_or_skip()
    rng = np.random.default_rng(9)
    td = getattr(torch, other)
    if other == "bool":
        v = rng.random(1000) < 0.5
    elif other.startswith("int") or other.startswith("uint"):
        info = np.iinfo(other)
        v = rng.integers(info.min, info.max, 100_000, dtype=other, endpoint=True)
    else:
        v = (rng.standard_normal(100_000) * 10.0 ** rng.integers(-40, 40, 100_000)).astype(other)
    t = torch.from_numpy(np.asarray(v))
    same_bits(xp.astype(xp.asarray(v), xp.bfloat16), _tbits(t.to(torch.bfloat16)))
    # bfloat16 -> other: values the other dtype holds (float -> int past range is undefined)
    f = widen(EVERY)
    if other != "bool" and not other.startswith("float"):
        info = np.iinfo(other)
        f = f[np.isfinite(f) & (f > info.min) & (f < info.max)]
    keep = narrow(f)
    got = np.asarray(xp.astype(bf(keep), getattr(xp, other)))
    want = _t(torch, keep).to(td).numpy()
    if other.startswith("float"):
        np.testing.assert_array_equal(got, want)  # NaN == NaN here
    else:
        np.testing.assert_array_equal(got, want)


def test_torch_complex_and_float64_midpoints():
    torch = torch_or_skip()
    d = widen(EVERY).astype(np.float64)
    d = np.unique(d[np.isfinite(d)])
    mid = (d[:-1] + d[1:]) / 2
    cases = np.concatenate([mid, mid * (1 + 2.0 ** -30), mid * (1 - 2.0 ** -30)])
    same_bits(xp.astype(xp.asarray(cases), xp.bfloat16),
              _tbits(torch.from_numpy(cases).to(torch.bfloat16)))


def test_torch_promotion():
    torch = torch_or_skip()
    for name in TORCH_DTYPES + ["bfloat16", "complex64", "complex128", "uint16", "uint32",
                                "uint64"]:
        want = torch.result_type(torch.ones(1, dtype=torch.bfloat16),
                                 torch.ones(1, dtype=getattr(torch, name)))
        assert xp.result_type(xp.bfloat16, getattr(xp, name)).name == str(want)[6:], name
    x = torch.ones(1, dtype=torch.bfloat16)
    for s in (1, 1.5, True, 1j):
        want = torch.result_type(x, s)
        assert (xp.ones(1, dtype=xp.bfloat16) + s).dtype.name == str(want)[6:], s


def test_torch_reductions():
    torch = torch_or_skip()
    rng = np.random.default_rng(4)
    b = narrow(rng.standard_normal((64, 300)).astype(np.float32))
    x, t = bf(b), _t(torch, b)
    within_ulp(xp.sum(x), _tbits(torch.sum(t)))
    within_ulp(xp.sum(x, axis=1), _tbits(torch.sum(t, dim=1)))
    within_ulp(xp.mean(x, axis=0), _tbits(torch.mean(t, dim=0)))
    # PyTorch's CPU prod of bfloat16 rounds each partial product to bfloat16;
    # arrstride multiplies in float32 and rounds once (as its sum, and NumPy's float16)
    within_ulp(xp.prod(x[:, :20], axis=1),
               _tbits(torch.prod(t[:, :20].float(), dim=1).to(torch.bfloat16)))
    same_bits(xp.max(x, axis=0), _tbits(torch.amax(t, dim=0)))
    same_bits(xp.min(x), _tbits(torch.min(t)))
    within_ulp(xp.var(x, axis=1), _tbits(torch.var(t, dim=1, correction=0)))
    within_ulp(xp.cumulative_sum(x[:3, :50], axis=1), _tbits(torch.cumsum(t[:3, :50], dim=1)))
    assert xp.argmax(x, axis=1).tolist() == torch.argmax(t, dim=1).tolist()
    many = xp.full(5000, 0.1, dtype=xp.bfloat16)
    within_ulp(xp.sum(many), _tbits(torch.full((5000,), 0.1, dtype=torch.bfloat16).sum()))


def test_torch_sort_argsort_unique():
    torch = torch_or_skip()
    rng = np.random.default_rng(8)
    b = narrow(rng.standard_normal(3000).astype(np.float32))
    b[::11] = 0x7FC0
    x, t = bf(b), _t(torch, b)
    same_bits(xp.sort(x), _tbits(torch.sort(t, stable=True).values))  # NaN last
    assert xp.argsort(x, stable=True).tolist() == torch.argsort(t, stable=True).tolist()
    same_bits(xp.sort(x, descending=True),
              _tbits(torch.sort(t, descending=True, stable=True).values))
    u = xp.unique_values(x)
    tu = torch.unique(t)
    np.testing.assert_array_equal(widen(bits_of(u))[~np.isnan(widen(bits_of(u)))],
                                  widen(_tbits(tu))[~np.isnan(widen(_tbits(tu)))])


def test_torch_dlpack_both_ways():
    torch = torch_or_skip()
    t = torch.linspace(-3, 3, 7, dtype=torch.bfloat16)
    a = xp.from_dlpack(t)
    assert a.dtype == xp.bfloat16
    same_bits(a, _tbits(t))
    t[0] = 9.0  # zero-copy
    assert float(a[0]) == 9.0
    b = xp.asarray(t)
    assert b.dtype == xp.bfloat16 and b.tolist() == t.tolist()
    back = torch.from_dlpack(a * 2)
    assert back.dtype == torch.bfloat16
    assert back.tolist() == (t * 2).tolist()
    s = torch.from_dlpack(bf(EVERY)[::3])  # a strided export
    np.testing.assert_array_equal(_tbits(s), EVERY[::3])
