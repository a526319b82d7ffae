"""float16: IEEE half storage, computed in float32 and rounded once,
as NumPy does. NumPy is the oracle: casts and arithmetic bit for bit, over
every float16 bit pattern; the functions NumPy computes with float32
transcendentals within one float16 ulp (both round a float32 result whose
last bit may differ); reductions, sorting and sets as NumPy's, over layouts."""
from __future__ import annotations

import numpy as np
import pytest

import arrstride as xp
from layouts import ALL, make, params

EVERY = np.arange(1 << 16, dtype=np.uint16).view(np.float16)  # every bit pattern


def bits(a) -> np.ndarray:
    return np.asarray(a).view(np.uint16)


def same_bits(got, want):
    """Equal float16 arrays, bit for bit, NaNs compared as NaNs (their payloads
    come from the float32 computation, as in NumPy)."""
    got = np.asarray(got)
    assert got.dtype == want.dtype == np.float16
    nan = np.isnan(got) & np.isnan(want)
    bad = (bits(got) != bits(want)) & ~nan
    assert not bad.any(), (got[bad][:5], want[bad][:5])


def within_ulp(got, want):
    """Within one float16 step of NumPy's (values of the same sign, NaN where NumPy's is)."""
    got = np.asarray(got)
    assert got.dtype == want.dtype == np.float16
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    g, w = got[ok], want[ok]
    # the neighbour of NumPy's value on got's side: below a power of two the
    # step down is half the step up, so one distance cannot serve both sides
    near = np.nextafter(w, g)
    assert np.all((g == w) | (g == near)), (g[g != w][:5], w[g != w][:5])


# ---- casts ---------------------------------------------------------------------------------

@pytest.mark.parametrize("to", ["float32", "float64"])
def test_widening_is_exact_and_keeps_nan_bits(to):
    a = xp.asarray(EVERY)
    got = np.asarray(xp.astype(a, getattr(xp, to)))
    want = EVERY.astype(to)
    assert np.array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}"))
    # and back, to the same bits (signaling NaNs stay signaling, as NumPy's casts)
    assert np.array_equal(bits(xp.astype(xp.asarray(got), xp.float16)), EVERY.view(np.uint16))


def _doubles():
    rng = np.random.default_rng(7)
    e = EVERY.astype(np.float64)
    e = e[np.isfinite(e)]
    e.sort()
    mid = (e[:-1] + e[1:]) / 2  # ties: round half to even
    return np.concatenate([e, mid, np.nextafter(mid, np.inf), np.nextafter(mid, -np.inf),
                           rng.standard_normal(20000) * np.exp(rng.uniform(-25, 13, 20000)),
                           [65519.99, 65520.0, 1e300, -1e300, 2.0 ** -25, 2.0 ** -26, 3 * 2.0 ** -26,
                            np.inf, -np.inf, np.nan, -0.0]])


@pytest.mark.parametrize("src", ["float64", "float32"])
def test_narrowing_rounds_once_to_nearest_even(src):
    d = _doubles().astype(src)
    with np.errstate(all="ignore"):
        want = d.astype(np.float16)
    same_bits(xp.astype(xp.asarray(d), xp.float16), want)


@pytest.mark.parametrize("other", ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                   "uint32", "uint64", "complex64", "complex128"])
def test_casts_with_every_dtype(other):
    rng = np.random.default_rng(3)
    if other == "bool":
        n = rng.random(200) < 0.5
    elif other.startswith("complex"):
        n = (rng.standard_normal(200) * 1e3 + 1j * rng.standard_normal(200)).astype(other)
    else:
        info = np.iinfo(other)
        n = rng.integers(max(info.min, -200000), min(info.max, 200000), 200).astype(other)
    with np.errstate(all="ignore"):
        want = n.astype(np.float16) if not other.startswith("complex") else n.real.astype(np.float16)
    same_bits(xp.astype(xp.asarray(n), xp.float16), want)
    finite = EVERY[np.isfinite(EVERY)]
    with np.errstate(all="ignore"):
        back = finite.astype(other)
    got = np.asarray(xp.astype(xp.asarray(finite), getattr(xp, other)))
    if other[0] in "iu":  # NumPy's out-of-range float -> int casts are platform-defined
        info = np.iinfo(other)
        keep = (finite >= info.min) & (finite <= info.max)
        got, back = got[keep], back[keep]
    np.testing.assert_array_equal(got, back)


@pytest.mark.parametrize("layout", params(ALL))
def test_casts_over_layouts(layout):
    a, n = make(layout, (3, 4), "float64")
    same_bits(xp.astype(a, xp.float16), n.astype(np.float16))
    h, m = make(layout, (3, 4), "float16")
    np.testing.assert_array_equal(np.asarray(xp.astype(h, xp.float32)), m.astype(np.float32))


# ---- elementwise ------------------------------------------------------------------------

EXACT_BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "remainder",
                "copysign", "hypot", "nextafter", "pow", "equal", "less", "greater_equal"]
NP_NAME = {"pow": "power", "atan2": "arctan2", "asin": "arcsin", "acos": "arccos",
           "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh"}


def npf(name):
    return getattr(np, NP_NAME.get(name, name))


@pytest.mark.parametrize("name", EXACT_BINARY)
def test_binary_bit_for_bit_over_every_value(name):
    b = np.random.default_rng(0).permutation(EVERY)
    with np.errstate(all="ignore"):
        want = npf(name)(EVERY, b)
    got = getattr(xp, name)(xp.asarray(EVERY), xp.asarray(b))
    if want.dtype == np.bool_:
        np.testing.assert_array_equal(np.asarray(got), want)
    else:
        same_bits(got, want)


EXACT_UNARY = ["abs", "negative", "positive", "sqrt", "square", "floor", "ceil", "trunc", "round",
               "sign", "reciprocal", "isnan", "isinf",
               "isfinite", "signbit"]
CLOSE_UNARY = ["sin", "cos", "tanh", "expm1", "log1p", "exp", "log", "log2", "log10", "tan", "sinh", "cosh", "asin", "acos", "atan",
               "asinh", "acosh", "atanh"]


@pytest.mark.parametrize("name", EXACT_UNARY + CLOSE_UNARY)
def test_unary_over_every_value(name):
    with np.errstate(all="ignore"):
        want = npf(name)(EVERY)
    got = getattr(xp, name)(xp.asarray(EVERY))
    if want.dtype == np.bool_:
        np.testing.assert_array_equal(np.asarray(got), want)
    elif name in EXACT_UNARY:
        same_bits(got, want)
    else:
        within_ulp(got, want)


def test_atan2_and_logaddexp_within_an_ulp():
    b = np.random.default_rng(1).permutation(EVERY)
    for name in ("atan2", "logaddexp", "floor_divide"):
        fin = np.isfinite(EVERY) & np.isfinite(b)  # floor_divide by inf: arrstride's float32 rule
        with np.errstate(all="ignore"):
            want = npf(name)(EVERY[fin], b[fin])
        within_ulp(getattr(xp, name)(xp.asarray(EVERY[fin]), xp.asarray(b[fin])), want)


@pytest.mark.parametrize("layout", params(ALL))
def test_elementwise_over_layouts(layout):
    a, n = make(layout, (3, 4), "float16")
    b, m = make(layout, (3, 4), "float16", seed=1)
    same_bits(a * b + a, n * m + n)
    same_bits(xp.divide(a, b), n / m) if np.all(m != 0) else None
    same_bits(xp.sqrt(xp.abs(a)), np.sqrt(np.abs(n)))
    same_bits(a - 1.5, n - np.float16(1.5))


def test_in_place_operators_round_once():
    n = np.linspace(-3, 3, 12).astype(np.float16).reshape(3, 4)
    x = xp.asarray(n.copy())
    x += 0.1
    x *= xp.asarray(n)
    want = n.copy()
    want += 0.1
    want *= n
    same_bits(x, want)
    assert x.dtype == xp.float16


def test_promotion_as_numpy():
    for other in ["bool", "int8", "uint8", "int16", "uint16", "int32", "int64", "uint64",
                  "float16", "float32", "float64", "complex64", "complex128"]:
        want = np.result_type(np.float16, other)
        assert xp.result_type(xp.float16, getattr(xp, other)).name == want.name, other
        got = xp.ones(2, dtype=xp.float16) + xp.ones(2, dtype=getattr(xp, other))
        assert got.dtype.name == want.name, other
    h = xp.ones(2, dtype=xp.float16)
    assert (h + 1).dtype == xp.float16 and (h + 1.5).dtype == xp.float16
    assert (h + 1j).dtype == xp.complex64
    assert (h * 70000.0).dtype == xp.float16  # the scalar rounds to inf in float16, as NumPy


@pytest.mark.parametrize("d", ["bool", "int8", "uint8", "int16"])
def test_small_ints_give_float16_as_numpy(d):
    n = np.arange(0, 6).astype(d)
    for name in ("exp", "sin", "sqrt", "log1p"):
        want = npf(name)(n)
        got = getattr(xp, name)(xp.asarray(n))
        assert got.dtype.name == want.dtype.name
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-3)


def test_where_clip_isin():
    n = np.array([0.5, np.nan, -2.0, 7.0, np.inf], np.float16)
    x = xp.asarray(n)
    same_bits(xp.where(x > 0, x, 0.25), np.where(n > 0, n, np.float16(0.25)))
    same_bits(xp.clip(x, -1.0, 3.0), np.clip(n, np.float16(-1), np.float16(3)))
    np.testing.assert_array_equal(np.asarray(xp.isin(x, xp.asarray(n[2:4]))), np.isin(n, n[2:4]))


# ---- reductions, sorting, sets ------------------------------------------------------------

@pytest.mark.parametrize("layout", params(ALL))
def test_reductions_over_layouts(layout):
    a, n = make(layout, (3, 4), "float16")
    if n.size == 0:
        return
    same_bits(xp.sum(a), np.sum(n))  # float32 pairwise, rounded once, as NumPy
    same_bits(xp.max(a), np.max(n))
    within_ulp(xp.var(a), np.var(n))
    assert int(xp.argmax(a)) == int(np.argmax(n))
    if n.ndim == 0:
        return
    same_bits(xp.sum(a, axis=0), np.sum(n, axis=0))
    same_bits(xp.min(a, axis=-1), np.min(n, axis=-1))
    same_bits(xp.mean(a, axis=0), np.mean(n, axis=0))
    within_ulp(xp.prod(a, axis=-1), np.prod(n, axis=-1))  # float32 products, in another order
    within_ulp(xp.std(a, axis=0), np.std(n, axis=0))
    if n.ndim:
        within_ulp(xp.cumulative_sum(a, axis=n.ndim - 1), np.cumsum(n, axis=-1))


def test_sum_of_many_rounds_once():
    n = np.full(5000, 0.1, np.float16)  # a float16 accumulator would stall at 256
    same_bits(xp.sum(xp.asarray(n)), np.sum(n))
    assert xp.sum(xp.asarray(n), dtype=xp.float32).dtype == xp.float32


@pytest.mark.parametrize("layout", params(ALL))
def test_sort_puts_nan_last(layout):
    def values(shape, dtype, seed):
        v = np.random.default_rng(seed).standard_normal(shape).astype(np.float16)
        v.flat[::5] = np.nan
        v.flat[1::7] = -0.0
        return v
    a, n = make(layout, (4, 5), "float16", values=values)
    if n.ndim == 0:
        return
    same_bits(xp.sort(a, axis=-1), np.sort(n, axis=-1, kind="stable"))
    np.testing.assert_array_equal(np.asarray(xp.argsort(a, axis=-1)),
                                  np.argsort(n, axis=-1, kind="stable"))
    u = xp.unique_values(a)
    want = np.unique(n.ravel(), equal_nan=False)
    assert u.dtype == xp.float16
    np.testing.assert_array_equal(np.asarray(u), want)  # -0.0 and 0.0 are one value


# ---- limits, namespace --------------------------------------------------------------------

def test_finfo():
    f, n = xp.finfo(xp.float16), np.finfo(np.float16)
    assert (f.bits, f.eps, f.max, f.min, f.smallest_normal) == \
        (n.bits, float(n.eps), float(n.max), float(n.min), float(n.smallest_normal))
    assert f.dtype == xp.float16


def test_info_lists_the_standard_dtypes_only():
    """As array_api_compat's NumPy namespace: float16 is an extension."""
    info = xp.__array_namespace_info__()
    assert "float16" not in info.dtypes()
    assert "float16" not in info.dtypes(kind="real floating")
    assert xp.isdtype(xp.float16, "real floating")


# ---- linalg, fft: as NumPy ------------------------------------------------------------------

def test_linalg_refuses_as_numpy():
    x = xp.ones((2, 2), dtype=xp.float16)
    with pytest.raises(TypeError, match="inv: array type float16 is unsupported in linalg"):
        xp.linalg.inv(x)
    with pytest.raises(TypeError, match="solve: array type float16"):
        xp.linalg.solve(x, x)
    n = np.arange(4, dtype=np.float16).reshape(2, 2)
    within_ulp(xp.matmul(xp.asarray(n), xp.asarray(n)), n @ n)
    within_ulp(xp.linalg.vector_norm(xp.asarray(n)), np.linalg.vector_norm(n))
    within_ulp(xp.vecdot(xp.asarray(n), xp.asarray(n)), np.vecdot(n, n))


def test_fft_upcasts_as_numpy():
    n = np.arange(8, dtype=np.float16)
    for name in ("fft", "rfft"):
        got = getattr(xp.fft, name)(xp.asarray(n))
        want = getattr(np.fft, name)(n)
        assert got.dtype.name == want.dtype.name == "complex64"
        np.testing.assert_allclose(np.asarray(got), want, atol=1e-4)


# ---- interop ------------------------------------------------------------------------------

def test_numpy_zero_copy_both_ways():
    n = np.arange(6, dtype=np.float16)
    a = xp.asarray(n)
    assert a.dtype == xp.float16 and np.shares_memory(np.asarray(a), n)
    assert a.__array_interface__["typestr"] in ("<f2", "=f2")
    m = np.asarray(a)
    assert m.dtype == np.float16
    b = xp.asarray(memoryview(n))  # buffer format 'e'
    assert b.dtype == xp.float16 and np.shares_memory(np.asarray(b), n)


def test_dlpack_with_numpy():
    n = np.linspace(-2, 2, 5).astype(np.float16)
    a = xp.from_dlpack(n)
    assert a.dtype == xp.float16 and np.shares_memory(np.asarray(a), n)
    same_bits(np.from_dlpack(a), n)


def test_dlpack_with_torch():
    torch = pytest.importorskip("torch")
    t = torch.linspace(-2, 2, 5, dtype=torch.float16)
    a = xp.from_dlpack(t)
    assert a.dtype == xp.float16
    same_bits(a, t.numpy())
    back = torch.from_dlpack(xp.asarray(t.numpy()) * 2)
    assert back.dtype == torch.float16
    same_bits(back.numpy(), t.numpy() * np.float16(2))


# ---- creation and the rest of the namespace -------------------------------------------------

@pytest.mark.parametrize("args", [(0, 2, 0.3), (-5, 100, 0.7), (1, 2000, 3.3), (0.1, 0.2, 0.01), (7,)])
def test_arange_as_numpy(args):
    """NumPy's float16 arange steps by the difference of its first two float16 values."""
    same_bits(xp.arange(*args, dtype=xp.float16), np.arange(*args, dtype=np.float16))


def test_creation_and_scalars():
    same_bits(xp.linspace(0, 1, 7, dtype=xp.float16), np.linspace(0, 1, 7, dtype=np.float16))
    same_bits(xp.full((3,), 0.1, dtype=xp.float16), np.full((3,), 0.1, dtype=np.float16))
    same_bits(xp.eye(3, dtype=xp.float16), np.eye(3, dtype=np.float16))
    x = xp.asarray([1.5, 70000.0, 2.0 ** -25 * 3], dtype=xp.float16)
    same_bits(x, np.array([1.5, 70000.0, 2.0 ** -25 * 3], np.float16))
    assert x[0].item() == 1.5 and float(x[1]) == float("inf") and x[2].item() == 2.0 ** -23  # 1.5 units of 2**-24: ties to even
    x[0] = 0.1
    assert x[0].item() == float(np.float16(0.1))


def test_linalg_products_and_differences():
    rng = np.random.default_rng(5)
    a, b = (rng.standard_normal((4, 3)).astype(np.float16) for _ in range(2))
    same_bits(xp.linalg.outer(xp.asarray(a[0]), xp.asarray(b[0])), np.outer(a[0], b[0]))
    within_ulp(xp.linalg.trace(xp.asarray(a[:3])), np.trace(a[:3]))
    # cross rounds once from float32 (NumPy's float16 cross rounds each product too)
    f = np.float32
    same_bits(xp.linalg.cross(xp.asarray(a), xp.asarray(b)),
              np.linalg.cross(a.astype(f), b.astype(f)).astype(np.float16))
    within_ulp(xp.linalg.matrix_norm(xp.asarray(a)), np.linalg.matrix_norm(a))
    within_ulp(xp.tensordot(xp.asarray(a), xp.asarray(b), axes=([1], [1])),
               np.tensordot(a, b, axes=([1], [1])))
    same_bits(xp.diff(xp.asarray(a), axis=0), np.diff(a, axis=0))
