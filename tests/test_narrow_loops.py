"""The one-pass elementwise loops of the narrow floats (float16, bfloat16;
native/src/ew_narrow.h, narrow.c): each converts a block to float32, runs the
float32 kernel and rounds once. They must give, bit for bit (NaN payloads
included), what widening to float32, computing and rounding gives (the path
they replace: arrstride's own casts and float32 kernels), over every bit
pattern for unary ops, a large sample of pairs and a grid of special values
for binary ops, every layout, lengths around the block sizes, scalar operands
and the fast forms of pow; with the hardware conversions (F16C, AVX512-BF16)
and with the table's portable ones (ARRSTRIDE_NARROW_HW=0). NumPy's float16
and PyTorch's bfloat16 are checked too where the result is exact."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import arrstride as xp
from arrstride import _kernels as K
from arrstride._native import lib
from layouts import ALL, make, params

NARROW = {"float16": xp.float16, "bfloat16": xp.bfloat16}
EVERY = np.arange(1 << 16, dtype=np.uint16)  # every bit pattern of either dtype

UNARY = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp",
         "expm1", "floor", "isfinite", "isinf", "isnan", "log", "log10", "log1p", "log2",
         "negative", "positive", "reciprocal", "round", "sign", "signbit", "sin", "sinh", "sqrt",
         "square", "tan", "tanh", "trunc"]
BINARY = ["add", "atan2", "copysign", "divide", "equal", "floor_divide", "greater",
          "greater_equal", "hypot", "less", "less_equal", "logaddexp", "maximum", "minimum",
          "multiply", "not_equal", "pow", "remainder", "subtract"]


def arr(bits, d):
    """An arrstride array of dtype d holding these bits."""
    return xp.asarray(np.array(bits, np.uint16, order="C")).view(d)


def out_bits(a) -> np.ndarray:
    """The result's bits (uint16) or its bools."""
    if a.dtype == xp.bool:
        return np.asarray(a)
    return np.asarray(xp.asarray(a, copy=True).view(xp.uint16))


def reference(name, d, *args):
    """name(*args) for narrow arrays as the loops replace it: each operand
    widened to float32 (arrstride's exact cast), the float32 function, the
    result rounded to d by arrstride's cast."""
    wide = [xp.astype(a, xp.float32) if isinstance(a, xp.Array) else a for a in args]
    r = getattr(xp, name)(*wide)
    return xp.astype(r, d) if r.dtype == xp.float32 else r


def same(got, want, alt=None):
    """got and want bit for bit; where they differ, got may equal alt."""
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    g, w = out_bits(got), out_bits(want)
    assert g.shape == w.shape
    bad = g != w
    if alt is not None:
        bad &= g != out_bits(alt)
    assert not bad.any(), (np.flatnonzero(bad)[:5], g[bad][:5], w[bad][:5])


# The binary ops whose operands the compiler may swap.
COMMUTATIVE = ("add", "multiply")


def same_binary(name, d, x, y):
    """name(x, y) against its reference, bit for bit. Of two NaN operands,
    IEEE 754 leaves open whose payload the result carries: x86-64 takes the
    first operand's, aarch64 a signaling one's before a quiet one's and then
    the first operand's, and of a commutative op the compiler may swap the
    operands (GCC does on aarch64, differently in the narrow loop and the
    float32 one). So for add and multiply either order's reference is right,
    which differs from the other only where both operands are NaN."""
    alt = reference(name, d, y, x) if name in COMMUTATIVE else None
    same(getattr(xp, name)(x, y), reference(name, d, x, y), alt)


def test_every_float32_op_has_a_narrow_loop():
    """ars_unary_out / ars_binary_out give the narrow dtype (or bool) wherever
    float32 has a kernel; nextafter alone keeps its narrow rule in Python."""
    f32 = xp.float32.code
    for d in NARROW.values():
        for op in range(lib.ARS_NUNARY):
            o = K.unary_out(op, f32)
            want = -1 if o < 0 else d.code if o == f32 else o
            assert K.unary_out(op, d.code) == want, (d, op)
        for op in range(lib.ARS_NBINARY):
            o = K.binary_out(op, f32)
            want = -1 if o < 0 or op == lib.ARS_OP_NEXTAFTER else d.code if o == f32 else o
            assert K.binary_out(op, d.code) == want, (d, op)
    assert sum(K.unary_out(op, xp.float16.code) >= 0 for op in range(lib.ARS_NUNARY)) == len(UNARY)
    assert sum(K.binary_out(op, xp.float16.code) >= 0 for op in range(lib.ARS_NBINARY)) == len(BINARY)


@pytest.mark.parametrize("dname", NARROW)
@pytest.mark.parametrize("name", UNARY)
def test_unary_over_every_bit_pattern(dname, name):
    d = NARROW[dname]
    x = arr(EVERY, d)
    same(getattr(xp, name)(x), reference(name, d, x))


def _pairs(seed):
    """A permutation of every pattern against every pattern, and the special
    values (zeros, subnormals, the extremes, inf, NaNs, 1, halves) each
    against each."""
    a = EVERY
    b = np.random.default_rng(seed).permutation(EVERY)
    sp = np.array([0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x3800,
                   0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7C01, 0x7E00, 0xFE00, 0x3F80, 0xBF80,
                   0x7F7F, 0xFF7F, 0x7F80, 0xFF80, 0x7F81, 0x7FC0, 0x0080, 0x007F, 0x4000,
                   0x4049, 0xC049, 0x4B00], np.uint16)
    sa, sb = np.meshgrid(sp, sp)
    return np.concatenate([a, sa.ravel()]), np.concatenate([b, sb.ravel()])


@pytest.mark.parametrize("dname", NARROW)
@pytest.mark.parametrize("name", BINARY)
def test_binary_over_pairs_and_special_values(dname, name):
    d = NARROW[dname]
    a, b = _pairs(3)
    x, y = arr(a, d), arr(b, d)
    same_binary(name, d, x, y)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "maximum", "minimum",
                                  "copysign", "hypot", "sqrt", "floor", "less", "equal"])
def test_float16_equals_numpy(name):
    """NumPy's float16 (computed in float32, rounded once) bit for bit where
    the result is exact; NaN against NaN (NumPy's payloads come from its own
    float32 kernels)."""
    a, b = _pairs(5)
    na, nb = a.view(np.float16), b.view(np.float16)
    f = {"pow": np.power}.get(name, getattr(np, name))
    with np.errstate(all="ignore"):
        want = f(na) if name in ("sqrt", "floor") else f(na, nb)
    x, y = arr(a, xp.float16), arr(b, xp.float16)
    got = getattr(xp, name)(x) if name in ("sqrt", "floor") else getattr(xp, name)(x, y)
    if want.dtype == np.bool_:
        np.testing.assert_array_equal(np.asarray(got), want)
        return
    g = out_bits(got).view(np.float16)
    nan = np.isnan(g) & np.isnan(want)
    bad = (g.view(np.uint16) != want.view(np.uint16)) & ~nan
    # NumPy widens float16 with the CPU's instruction where there is one
    # (aarch64's FCVT), which quiets a signaling NaN, and bit by bit
    # elsewhere, which keeps it signaling, as arrstride's exact widening
    # does everywhere. The two differ where a function tells the kinds of
    # NaN apart: hypot(inf, sNaN) is NaN (IEEE 754), hypot(inf, qNaN) inf.
    # Where NumPy quiets, a lane with a signaling NaN operand is checked
    # against arrstride's float32 path instead.
    if _numpy_quiets_float16_snan():
        snan = _is_snan16(a) | (_is_snan16(b) if name not in ("sqrt", "floor") else False)
        args = (x,) if name in ("sqrt", "floor") else (x, y)
        ok = out_bits(got) == out_bits(reference(name, xp.float16, *args))
        if name in COMMUTATIVE:  # of two NaNs, either (same_binary)
            ok |= out_bits(got) == out_bits(reference(name, xp.float16, y, x))
        assert ok[snan].all(), np.flatnonzero(snan & ~ok)[:5]
        bad &= ~snan
    assert not bad.any(), (g[bad][:5], want[bad][:5])


def _is_snan16(bits):
    """Which float16 bit patterns are signaling NaNs."""
    return ((bits & 0x7C00) == 0x7C00) & ((bits & 0x03FF) != 0) & ((bits & 0x0200) == 0)


def _numpy_quiets_float16_snan():
    """Whether NumPy's float16 -> float32 conversion quiets a signaling NaN."""
    return bool(np.array([0x7C01], np.uint16).view(np.float16).astype(np.float32).view(np.uint32)[0]
                & 0x00400000)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "sqrt", "less"])
def test_bfloat16_equals_torch(name):
    """(maximum and minimum are left out: of +0 and -0, PyTorch and NumPy,
    whose rule arrstride follows, pick differently.)"""
    torch = pytest.importorskip("torch")
    a, b = _pairs(6)
    ta = torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16)
    tb = torch.from_numpy(b.view(np.int16).copy()).view(torch.bfloat16)
    f = {"subtract": torch.sub, "multiply": torch.mul, "divide": torch.div}.get(name) \
        or getattr(torch, name)
    want = f(ta) if name == "sqrt" else f(ta, tb)
    x, y = arr(a, xp.bfloat16), arr(b, xp.bfloat16)
    got = getattr(xp, name)(x) if name == "sqrt" else getattr(xp, name)(x, y)
    if want.dtype == torch.bool:
        np.testing.assert_array_equal(np.asarray(got), want.numpy())
        return
    w = want.view(torch.int16).numpy().view(np.uint16)
    g = out_bits(got)
    nan = ((g & 0x7FFF) > 0x7F80) & ((w & 0x7FFF) > 0x7F80)
    bad = (g != w) & ~nan
    assert not bad.any(), (g[bad][:5], w[bad][:5])


def _values(shape, dtype, seed):
    """Bits of varied narrow values: normal, tiny, huge, NaN, inf, zeros."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 1 << 16, shape, dtype=np.uint16)


@pytest.mark.parametrize("dname", NARROW)
@pytest.mark.parametrize("layout", params(ALL))
def test_over_layouts(dname, layout):
    d = NARROW[dname]
    a, n = make(layout, (5, 37), "uint16", values=_values)
    b, m = make(layout, (5, 37), "uint16", values=_values, seed=1)
    x, y = a.view(d), b.view(d)
    cx, cy = arr(n, d), arr(m, d)  # the same values, contiguous
    for name in ("exp", "negative", "sqrt", "isnan", "tanh"):
        same(getattr(xp, name)(x), reference(name, d, cx))
    for name in ("add", "multiply", "pow", "less", "atan2", "maximum"):
        alt = reference(name, d, cy, cx) if name in COMMUTATIVE else None
        same(getattr(xp, name)(x, y), reference(name, d, cx, cy), alt)
        same(getattr(xp, name)(x, cy), reference(name, d, cx, cy), alt)
    if x.ndim == 2 and x.shape[0] > 0:  # a row broadcast down (stride 0) both ways
        row = arr(_values((x.shape[1],), None, 9), d)
        same(xp.add(x, row), reference("add", d, cx, row), reference("add", d, row, cx))
        same(xp.pow(row, x), reference("pow", d, row, cx))


@pytest.mark.parametrize("dname", NARROW)
@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 31, 33, 511, 512, 513, 1025, 5000])
def test_lengths_around_the_blocks(dname, n):
    d = NARROW[dname]
    a = np.random.default_rng(n).integers(0, 1 << 16, n, dtype=np.uint16)
    b = np.random.default_rng(n + 1).integers(0, 1 << 16, n, dtype=np.uint16)
    x, y = arr(a, d), arr(b, d)
    for name in ("exp", "sin", "abs", "isinf"):
        same(getattr(xp, name)(x), reference(name, d, x))
    for name in ("add", "pow", "hypot", "greater"):
        same_binary(name, d, x, y)
    if n:  # one operand a 0-d array: the scalar forms of the float32 kernels
        s = arr(b[:1], d).reshape(())
        for name in ("subtract", "atan2", "less_equal"):
            same(getattr(xp, name)(x, s), reference(name, d, x, s))
            same(getattr(xp, name)(s, x), reference(name, d, s, x))


@pytest.mark.parametrize("dname", NARROW)
def test_large_arrays_on_threads(dname):
    d = NARROW[dname]
    a = np.random.default_rng(11).integers(0, 1 << 16, 600_001, dtype=np.uint16)
    x = arr(a, d)
    same(xp.exp(x), reference("exp", d, x))
    same_binary("multiply", d, x, x[::-1])


@pytest.mark.parametrize("dname", NARROW)
@pytest.mark.parametrize("e", [0, 1, 2, 3, 4, 0.5, -1, -2, 2.5])
def test_pow_by_one_exponent(dname, e):
    """x ** e for an exponent shared by every element: the fast forms of the
    float32 loop (x * x, sqrt, 1 / x, ...), as the float32 path takes them."""
    d = NARROW[dname]
    x = arr(EVERY, d)
    s = xp.asarray(e, dtype=d)
    same(xp.pow(x, s), reference("pow", d, x, s))
    same(x ** e, xp.astype(xp.astype(x, xp.float32) ** xp.astype(xp.asarray(e, dtype=d), xp.float32), d)
         if dname == "float16" else reference("pow", d, x, xp.asarray(e, dtype=xp.float32)))


def test_python_scalars_keep_each_dtypes_rule():
    """float16 rounds a Python scalar to float16 first (NumPy 2); bfloat16
    holds it in float32 (PyTorch): the C fast paths and the Python path agree."""
    n = np.linspace(-3, 3, 1001).astype(np.float16)
    x = xp.asarray(n)
    for r, w in ((x + 0.1, n + 0.1), (x * 3.3, n * 3.3), (0.7 - x, 0.7 - n), (x < 0.1, n < 0.1)):
        g = np.asarray(r)
        assert g.dtype == w.dtype
        assert np.array_equal(g.view(np.uint8), w.view(np.uint8))
    y = xp.asarray(n, copy=True)
    y += 0.1
    assert np.array_equal(np.asarray(y).view(np.uint16), (n + np.float16(0.1)).view(np.uint16))
    b = xp.astype(x, xp.bfloat16)
    f32 = xp.astype(b, xp.float32)
    same(b + 0.1, xp.astype(f32 + xp.asarray(0.1, dtype=xp.float32), xp.bfloat16))
    same(b * 3.3, xp.astype(f32 * xp.asarray(3.3, dtype=xp.float32), xp.bfloat16))
    c = xp.asarray(b, copy=True)
    c += 0.1
    same(c, xp.astype(f32 + xp.asarray(0.1, dtype=xp.float32), xp.bfloat16))


_PORTABLE = textwrap.dedent("""
    import hashlib, sys
    import numpy as np
    import arrstride as xp
    every = np.arange(1 << 16, dtype=np.uint16)
    other = np.random.default_rng(4).permutation(every)
    h = hashlib.sha256()
    for d in (xp.float16, xp.bfloat16):
        x = xp.asarray(every).view(d)
        y = xp.asarray(other).view(d)
        for r in (xp.positive(x), xp.negative(x), xp.exp(x), xp.isnan(x), xp.multiply(x, y),
                  xp.divide(x, y), xp.pow(x, y), x[::3] * 2, xp.multiply(x, xp.asarray(1e-3, dtype=d))):
            h.update(np.asarray(xp.asarray(r, copy=True).view(xp.uint8)).tobytes())
    print(h.hexdigest())
""")


def test_hardware_and_portable_conversions_agree():
    """The F16C / AVX512-BF16 block conversions (the best the CPU has, and
    AVX2's) and the table's portable ones give the same bits (signaling NaNs
    and float32 subnormals included: positive keeps every pattern, the
    products reach bfloat16's subnormals)."""
    outs = []
    for hw in ("1", "avx2", "0"):
        env = dict(os.environ, ARRSTRIDE_NARROW_HW=hw)
        r = subprocess.run([sys.executable, "-c", _PORTABLE], env=env, capture_output=True,
                           text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        outs.append(r.stdout.strip())
    assert len(outs[0]) == 64 and outs[0] == outs[1] == outs[2]


# ---- sums, means and products: narrow arrays read as they are -----------------------

def _widened_reduction(name, x, **kw):
    """The reduction as it was computed before the kernels read narrow floats:
    on x's float32 copy (the accumulator's dtype: float32 for sums and means,
    float64 for products), the result cast once into x's dtype."""
    f = xp.astype(x, xp.float32)
    r = getattr(xp, name)(f, dtype=xp.float64, **kw) if name == "prod" else getattr(xp, name)(f, **kw)
    return xp.astype(r, x.dtype)


def _same_bits(got, want):
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    g, w = (np.asarray(xp.astype(a, xp.float32).tolist(), np.float32) for a in (got, want))
    np.testing.assert_array_equal(g, w)  # (NaN equal to NaN)
    np.testing.assert_array_equal(np.signbit(g), np.signbit(w))


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("dname", NARROW)
@pytest.mark.parametrize("layout", params(ALL))
def test_sum_mean_prod_as_on_the_float32_copy(dname, layout, fast):
    from arrstride import _core
    d = NARROW[dname]
    was = _core.set_fast_paths(fast)
    try:
        for shape, seed in (((5, 37), 3), ((3, 700), 4), ((130, 9), 5)):
            x = make(layout, shape, d, seed=seed)[0]
            for name in ("sum", "mean", "prod"):
                for kw in ({}, {"axis": 0}, {"axis": -1}, {"axis": -1, "keepdims": True}):
                    if x.ndim == 0 and "axis" in kw:
                        continue
                    _same_bits(getattr(xp, name)(x, **kw), _widened_reduction(name, x, **kw))
    finally:
        _core.set_fast_paths(was)


@pytest.mark.parametrize("dname", NARROW)
@pytest.mark.parametrize("n", [1, 7, 8, 127, 128, 129, 1031, 300_007])
def test_sum_lengths_around_the_blocks(dname, n):
    # runs around the pairwise fold's blocks, and one long enough to split into parts
    d = NARROW[dname]
    x = xp.astype(xp.asarray(np.random.default_rng(n).standard_normal(n).astype(np.float32)), d)
    for name in ("sum", "mean", "prod"):
        _same_bits(getattr(xp, name)(x), _widened_reduction(name, x))
        _same_bits(getattr(xp, name)(x[1:]), _widened_reduction(name, x[1:]))


@pytest.mark.parametrize("fast", [True, False])
def test_sums_of_c_ordered_narrow_arrays_make_no_copy(monkeypatch, fast):
    from arrstride import _core
    calls = []
    real = xp.Array._copy_contiguous
    monkeypatch.setattr(xp.Array, "_copy_contiguous", lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    was = _core.set_fast_paths(fast)
    try:
        for d in NARROW.values():
            x = xp.ones((4, 6), dtype=d)
            for r in (xp.sum(x), xp.mean(x), xp.sum(x, axis=0), xp.mean(x, axis=1, keepdims=True),
                      xp.sum(x, dtype=xp.float32)):
                assert r.dtype in (d, xp.float32)
            calls.clear()  # (a result cast into its dtype is a copy of the result only)
            xp.sum(x, dtype=xp.float32), xp.sum(x, axis=0, dtype=xp.float32)
            assert calls == []
    finally:
        _core.set_fast_paths(was)
