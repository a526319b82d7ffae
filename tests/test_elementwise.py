"""Elementwise functions and operators against NumPy, over every allowed dtype
and every layout (inputs and destinations), with integer edge cases, special
values and dtype errors."""
import math
import operator
import warnings

import numpy as np
import pytest

import arrstride as xp
from arrstride import _dtypes as dt
import layouts as L
from layouts import CORE, WRITABLE, params

ALL = [d.name for d in dt.ALL if d.twin is None]  # NumPy has these itself
# the dtypes NumPy (the oracle here) has itself: bfloat16 is tested in test_bfloat16.py
CATS = {
    "numeric": [d.name for d in dt.NUMERIC if d.twin is None],
    "floating-point": [d.name for d in dt.FLOATING if d.twin is None],
    "real floating": [d.name for d in dt.REAL_FLOAT if d.twin is None],
    "real numeric": [d.name for d in dt.INTEGER + dt.REAL_FLOAT if d.twin is None],
    "integral": [d.name for d in dt.INTEGER],
    "integer or boolean": ["bool"] + [d.name for d in dt.INTEGER],
    "bool": ["bool"],
    "any": ALL,
}

# name -> (category, numpy function)
UNARY = {
    "abs": ("numeric", np.abs), "acos": ("floating-point", np.arccos),
    "acosh": ("floating-point", np.arccosh), "asin": ("floating-point", np.arcsin),
    "asinh": ("floating-point", np.arcsinh), "atan": ("floating-point", np.arctan),
    "atanh": ("floating-point", np.arctanh), "bitwise_invert": ("integer or boolean", np.invert),
    "ceil": ("real numeric", np.ceil), "conj": ("numeric", np.conj),
    "cos": ("floating-point", np.cos), "cosh": ("floating-point", np.cosh),
    "exp": ("floating-point", np.exp), "expm1": ("floating-point", None),
    "floor": ("real numeric", np.floor), "imag": ("numeric", np.imag),
    "isfinite": ("numeric", np.isfinite), "isinf": ("numeric", np.isinf),
    "isnan": ("numeric", np.isnan), "log": ("floating-point", np.log),
    "log10": ("floating-point", np.log10), "log1p": ("floating-point", None),
    "log2": ("floating-point", np.log2), "logical_not": ("bool", np.logical_not),
    "negative": ("numeric", np.negative), "positive": ("numeric", np.positive),
    "real": ("numeric", np.real), "reciprocal": ("floating-point", np.reciprocal),
    "round": ("numeric", np.round), "sign": ("numeric", None),
    "signbit": ("real floating", np.signbit), "sin": ("floating-point", np.sin),
    "sinh": ("floating-point", np.sinh), "sqrt": ("floating-point", np.sqrt),
    "square": ("numeric", np.square), "tan": ("floating-point", np.tan),
    "tanh": ("floating-point", np.tanh), "trunc": ("real numeric", np.trunc),
}


def _np_expm1(a):
    if a.dtype.kind == "c":
        return (np.exp(a.astype(np.complex128)) - 1).astype(a.dtype)
    return np.expm1(a)


def _np_log1p(a):
    if a.dtype.kind == "c":
        return np.log(1 + a.astype(np.complex128)).astype(a.dtype)
    return np.log1p(a)


def _np_sign(a):
    if a.dtype.kind == "c":
        m = np.abs(a)
        return np.where(m == 0, 0, a / np.where(m == 0, 1, m)).astype(a.dtype)
    return np.sign(a)


NP_SPECIAL = {"expm1": _np_expm1, "log1p": _np_log1p, "sign": _np_sign}

BINARY = {
    "add": ("numeric", np.add), "atan2": ("real floating", np.arctan2),
    "bitwise_and": ("integer or boolean", np.bitwise_and),
    "bitwise_left_shift": ("integral", np.left_shift),
    "bitwise_or": ("integer or boolean", np.bitwise_or),
    "bitwise_right_shift": ("integral", np.right_shift),
    "bitwise_xor": ("integer or boolean", np.bitwise_xor),
    "copysign": ("real floating", np.copysign), "divide": ("numeric", np.divide),
    "equal": ("any", np.equal), "floor_divide": ("real numeric", np.floor_divide),
    "greater": ("real numeric", np.greater), "greater_equal": ("real numeric", np.greater_equal),
    "hypot": ("real floating", np.hypot), "less": ("real numeric", np.less),
    "less_equal": ("real numeric", np.less_equal), "logaddexp": ("real floating", np.logaddexp),
    "logical_and": ("bool", np.logical_and), "logical_or": ("bool", np.logical_or),
    "logical_xor": ("bool", np.logical_xor), "maximum": ("real numeric", np.maximum),
    "minimum": ("real numeric", np.minimum), "multiply": ("numeric", np.multiply),
    "nextafter": ("real floating", np.nextafter), "not_equal": ("any", np.not_equal),
    "pow": ("numeric", np.power), "remainder": ("real numeric", np.remainder),
    "subtract": ("numeric", np.subtract),
}

OPERATORS = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
    "divide": operator.truediv, "floor_divide": operator.floordiv, "remainder": operator.mod,
    "pow": operator.pow, "bitwise_and": operator.and_, "bitwise_or": operator.or_,
    "bitwise_xor": operator.xor, "bitwise_left_shift": operator.lshift,
    "bitwise_right_shift": operator.rshift,
}
INPLACE = {
    "add": operator.iadd, "subtract": operator.isub, "multiply": operator.imul,
    "divide": operator.itruediv, "floor_divide": operator.ifloordiv, "remainder": operator.imod,
    "pow": operator.ipow, "bitwise_and": operator.iand, "bitwise_or": operator.ior,
    "bitwise_xor": operator.ixor, "bitwise_left_shift": operator.ilshift,
    "bitwise_right_shift": operator.irshift,
}
COMPARISONS = {"equal": operator.eq, "not_equal": operator.ne, "less": operator.lt,
               "less_equal": operator.le, "greater": operator.gt, "greater_equal": operator.ge}

# ---- helpers ------------------------------------------------------------------------

rng = np.random.default_rng(1234)


def to_np(x):
    return np.array(x.tolist(), dtype=x.dtype.name).reshape(x.shape)


def values(dtype, shape, positive=False, small=False):
    """Random values of dtype; integers include the dtype's min and max."""
    n = int(np.prod(shape))
    dtn = np.dtype(dtype)
    if dtn.kind == "b":
        v = rng.integers(0, 2, n).astype(bool)
    elif dtn.kind in "iu":
        info = np.iinfo(dtn)
        if small:
            lo, hi = (0 if positive or dtn.kind == "u" else -5), 6
            v = rng.integers(lo, hi, n).astype(dtn)
        else:
            v = rng.integers(max(info.min, -100) if not positive else 1, min(info.max, 100), n,
                             endpoint=True).astype(dtn)
            if n >= 4 and not positive:
                v[0], v[1] = info.min, info.max
    elif dtn.kind == "f":
        v = rng.uniform(0.1 if positive else -3, 3, n).astype(dtn)
    else:
        v = (rng.uniform(-2, 2, n) + 1j * rng.uniform(-2, 2, n)).astype(dtn)
    return v.reshape(shape)


LAYOUTS = CORE  # contiguous, transposed, stepped, negative, broadcast, offset, empty, zerod


def make(dtype, layout, **kw):
    """(NumPy array, arrstride array) of values(dtype, ..., **kw) in the layout."""
    a, n = L.make(layout, (3, 4), dtype, values=lambda shape, dt, seed: values(dt, shape, **kw))
    return n, a


def assert_close(got, want, where=""):
    got_np = to_np(got) if isinstance(got, xp.Array) else got
    assert got_np.shape == want.shape, (got_np.shape, want.shape, where)
    if want.dtype.kind in "fc":
        tol = 2e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
        np.testing.assert_allclose(got_np, want, rtol=tol, atol=tol, equal_nan=True,
                                   err_msg=str(where))
    else:
        np.testing.assert_array_equal(got_np, want, err_msg=str(where))


def np_expected(npf, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return npf(*args)


def unary_np(name):
    return NP_SPECIAL.get(name) or UNARY[name][1]


def positive_domain(name):
    return name in ("acosh", "log", "log10", "log2", "sqrt", "log1p")


# ---- unary -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(UNARY))
@pytest.mark.parametrize("layout", params(LAYOUTS))
def test_unary_layouts(name, layout):
    f = getattr(xp, name)
    for dtype in CATS[UNARY[name][0]]:
        a, x = make(dtype, layout, positive=positive_domain(name) and dtype[0] == "f")
        if name in ("acos", "asin", "atanh") and dtype.startswith("float"):
            a, x = a / 4, x / 4
        if name == "acosh" and dtype.startswith("float"):
            a, x = a + 1, x + 1
        got = f(x)
        want = np_expected(unary_np(name), a)
        if name == "imag" and a.dtype.kind != "c":
            want = np.zeros_like(a)
        want = np.asarray(want)
        assert got.dtype.name == want.dtype.name, (name, dtype, got.dtype, want.dtype)
        assert_close(got, want, dtype)


# integer and bool input to these gives a float, as NumPy (float16 for bool and 8-bit integers)
INTS_TO_FLOAT = {"acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp", "expm1",
                 "log", "log10", "log1p", "log2", "sin", "sinh", "sqrt", "tan", "tanh",
                 "atan2", "hypot", "logaddexp", "copysign", "nextafter", "divide"}
BOOL_OK = {"add", "multiply", "maximum", "minimum"}  # two bools: a bool, as NumPy
# the logical functions read any dtype as its truth, as NumPy and PyTorch
# (tests/test_numpy_habits.py checks the values)
TRUTHY = {"logical_not", "logical_and", "logical_or", "logical_xor"}


@pytest.mark.parametrize("name", list(UNARY))
def test_unary_disallowed_dtype(name):
    cat = UNARY[name][0]
    bad = [d for d in ALL if d not in CATS[cat]]
    if name in INTS_TO_FLOAT:
        bad = [d for d in bad if d.startswith("float") or d.startswith("complex")]
    if name in ("real", "imag", "conj"):
        bad = ["bool"]
    if name in TRUTHY:
        bad = []
        assert getattr(xp, name)(xp.asarray([0.0, 2.0])).tolist() == [True, False]
    for d in bad:
        with pytest.raises(TypeError, match=f"{name}.*{d}"):
            getattr(xp, name)(xp.asarray(values(d, (3,))))


# ---- binary --------------------------------------------------------------------------------

def binary_inputs(name, dtype, layout1, layout2):
    kw = {}
    if name in ("bitwise_left_shift", "bitwise_right_shift", "pow"):
        kw = {"small": True, "positive": name == "pow" and dtype[0] in "iu"}
    a, x = make(dtype, layout1)
    b, y = make(dtype, layout2, **kw)
    if name == "pow" and dtype[0] in "iu":
        a, x = make(dtype, layout1, small=True)
    return a, x, b, y


# each layout with a contiguous partner on either side, and two mixed pairs
# a layout meets a contiguous partner on either side; two mixed pairs of their own
PAIRS = [pytest.param([(lay, "contiguous"), ("contiguous", lay)], id=lay) for lay in LAYOUTS]
PAIRS += [pytest.param([("transposed", "stepped"), ("negative", "broadcast")], id="mixed-pairs")]


@pytest.mark.parametrize("name", list(BINARY))
@pytest.mark.parametrize("pairs", PAIRS)
def test_binary_layouts(name, pairs):
    f = getattr(xp, name)
    for dtype in CATS[BINARY[name][0]]:
        for l1, l2 in pairs:
            a, x, b, y = binary_inputs(name, dtype, l1, l2)
            if "empty" in (l1, l2):  # an empty operand meets an empty one
                a, x, b, y = binary_inputs(name, dtype, "empty", "empty")
            got = f(x, y)
            want = np.asarray(np_expected(BINARY[name][1], a, b))
            if name == "divide" and dtype[0] in "iu":
                want = want.astype(np.float64)
            assert got.dtype.name == want.dtype.name, (name, dtype, l1, l2, got.dtype, want.dtype)
            assert_close(got, want, (dtype, l1, l2))


def test_broadcast_shapes_and_no_copy():
    a = values("float64", (3, 1))
    b = values("float64", (1, 4))
    assert_close(xp.asarray(a) + xp.asarray(b), a + b)
    assert_close(xp.asarray(b[0]) * xp.asarray(a), b[0] * a)
    with pytest.raises(ValueError, match="add.*broadcast"):
        xp.add(xp.asarray(values("float64", (3,))), xp.asarray(values("float64", (4,))))


@pytest.mark.parametrize("name", list(BINARY))
def test_binary_disallowed_dtype(name):
    cat = BINARY[name][0]
    for d in [d for d in ALL if d not in CATS[cat]]:
        if name in INTS_TO_FLOAT and d[0] in "biu" or name in BOOL_OK and d == "bool" or name in TRUTHY:
            continue  # accepted as NumPy: tests/test_numpy_habits.py checks the values
        x = xp.asarray(values(d, (3,)))
        with pytest.raises(TypeError, match=f"{name}.*{d}"):
            getattr(xp, name)(x, x)


def test_promotion_and_scalars():
    i8 = xp.asarray(np.array([1, 2, 3], np.int8))
    f32 = xp.asarray(np.array([1, 2, 3], np.float32))
    assert (i8 + xp.asarray(np.array([1], np.int16))).dtype == xp.int16
    assert (i8 + xp.asarray(np.array([1], np.uint8))).dtype == xp.int16
    assert (f32 + xp.asarray(np.array([1], np.float64))).dtype == xp.float64
    assert (f32 + xp.asarray(np.array([1j], np.complex64))).dtype == xp.complex64
    assert (i8 + 1).dtype == xp.int8 and (1 + i8).dtype == xp.int8
    assert (f32 * 2.5).dtype == xp.float32 and (f32 + 1j).dtype == xp.complex64
    assert (i8 / i8).dtype == xp.float64
    # bool arrays take part as NumPy's: as 0 and 1 beside numbers (the rule in test_errors)
    assert (xp.asarray([True, False]) + 1).tolist() == [2, 1]
    assert (xp.asarray([True, False]) + 1).dtype == xp.int64
    assert_close(2.0 ** f32, 2.0 ** np.array([1, 2, 3], np.float32))
    assert_close(10 - i8, 10 - np.array([1, 2, 3], np.int8))
    assert_close(7 // i8, 7 // np.array([1, 2, 3], np.int8))
    with pytest.raises(OverflowError):
        i8 + 1000
    assert xp.add.__name__ == "add"


@pytest.mark.parametrize("name", list(OPERATORS))
def test_operators_forward_reflected(name):
    dtype = "int16" if name.startswith("bitwise") else "float64"
    a = values(dtype, (3, 4), small=True, positive=True)
    x = xp.asarray(a)
    op = OPERATORS[name]
    assert_close(op(x, x), np_expected(op, a, a))
    assert_close(op(x, 2), np_expected(op, a, np.array(2, a.dtype)))
    assert_close(op(3, x), np_expected(op, np.array(3, a.dtype), a))
    assert op.__call__ and op(x, object()) if False else True
    with pytest.raises(TypeError):
        op(x, "a")


def test_comparison_operators_and_unary_operators():
    a = values("float64", (5,))
    x = xp.asarray(a)
    for name, op in COMPARISONS.items():
        assert_close(op(x, x[::-1]), op(a, a[::-1]))
        assert_close(op(x, 0.5), op(a, 0.5))
        assert_close(op(0.5, x), op(0.5, a))
    # NumPy's x == None: element by element, never a silent scalar False
    assert (x == None).tolist() == [False] * 5  # noqa: E711
    assert (x != None).tolist() == [True] * 5  # noqa: E711
    assert Array_hash_is_none()
    assert_close(abs(x), abs(a))
    assert_close(-x, -a)
    assert_close(+x, +a)
    i = values("int32", (5,))
    assert_close(~xp.asarray(i), ~i)


def Array_hash_is_none():
    return xp.Array.__hash__ is None


# ---- in-place: every layout of destination ---------------------------------------------------

@pytest.mark.parametrize("name", list(INPLACE))
@pytest.mark.parametrize("layout", params([lay for lay in LAYOUTS if lay in WRITABLE]))
def test_inplace_into_views(name, layout):
    dtype = "int32" if name.startswith("bitwise") or name in ("floor_divide", "remainder") else "float64"
    op = INPLACE[name]
    small = lambda shape, dt, seed: values(dt, shape, small=True, positive=True)  # noqa: E731
    xv, nv, xb, nb = L.make_with_base(layout, (3, 4), dtype, values=small)
    other = values(dtype, nv.shape, small=True, positive=True)
    r = op(xv, xp.asarray(other))
    assert r is xv
    nv[...] = np_expected(OPERATORS[name], nv, other)
    assert_close(xb, nb)
    # scalar on the right
    r = op(xv, 2)
    nv[...] = np_expected(OPERATORS[name], nv, np.array(2, nv.dtype))
    assert_close(xb, nb)


def test_inplace_rules():
    x = xp.asarray(np.arange(6, dtype=np.int32))
    with pytest.raises(TypeError):
        x /= 2
    with pytest.raises(TypeError):
        x += 1.5
    x += xp.asarray(np.ones(6, np.int64))  # int64 casts back to int32, as NumPy (same_kind)
    assert x.dtype == xp.int32 and x.tolist() == list(range(1, 7))
    with pytest.raises(TypeError):
        x += xp.asarray(np.ones(6, np.uint8).astype(np.float32))
    with pytest.raises(ValueError):
        x += xp.asarray(np.ones((2, 6), np.int32))
    b = xp.broadcast_to(xp.asarray(np.ones(1, np.int32)), (4,))
    with pytest.raises(ValueError):
        b += 1
    # broadcasting the right operand is fine; overlap with the destination is exact
    m = np.arange(12, dtype=np.float64).reshape(3, 4)
    xm = xp.asarray(m.copy())
    xm += xp.asarray(m[0])
    want = m + m[0]
    assert_close(xm, want)
    sq = np.arange(9, dtype=np.float64).reshape(3, 3)
    xs = xp.asarray(sq.copy())
    xs += xs.T
    assert_close(xs, sq + sq.T)
    v = np.arange(8, dtype=np.float64)
    xv = xp.asarray(v.copy())
    xv[1:] += xv[:-1]
    v[1:] += v[:-1].copy()
    assert_close(xv, v)


def test_setitem_destination_from_elementwise_result():
    base = np.zeros((6, 8))
    xb = xp.asarray(base.copy())
    a = values("float64", (3, 4))
    xb[::2, ::2] = xp.exp(xp.asarray(a))
    base[::2, ::2] = np.exp(a)
    assert_close(xb, base)


# ---- integer edge cases ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", CATS["integral"])
def test_integer_edges(dtype):
    info = np.iinfo(dtype)
    vals = [int(info.min), int(info.min) + 1, -7, -1, 0, 1, 7, int(info.max) - 1, int(info.max)]
    vals = np.unique(np.array([v for v in vals if info.min <= v <= info.max], dtype=dtype))
    a, b = np.meshgrid(vals, vals)
    x, y = xp.asarray(a), xp.asarray(b)
    for name in ("add", "subtract", "multiply", "floor_divide", "remainder", "negative",
                 "abs", "square", "sign"):
        f = getattr(xp, name)
        if name in UNARY:
            got, want = f(x), np_expected(unary_np(name), a)
        else:
            got, want = f(x, y), np_expected(BINARY[name][1], a, b)
        if name in ("floor_divide", "remainder"):
            want = np.where(b == 0, 0, want)  # by zero: 0, as NumPy
        assert_close(got, np.asarray(want).astype(dtype))
    shifts = [-70, -1, 0, 1, 3, 7, 8, 15, 16, 31, 32, 63, 64, 65, 200]
    shifts = np.array([v for v in shifts if info.min <= v <= info.max], dtype=dtype)
    a, s = np.meshgrid(vals, shifts)
    bits = np.dtype(dtype).itemsize * 8
    out_left = xp.bitwise_left_shift(xp.asarray(a), xp.asarray(s))
    out_right = xp.bitwise_right_shift(xp.asarray(a), xp.asarray(s))
    sh = s.astype(np.int64) if dtype[0] == "i" else s.astype(np.uint64)
    ok = (sh >= 0) & (sh < bits)
    with np.errstate(all="ignore"):
        safe = np.where(ok, sh, 0).astype(dtype)
        want_l = np.where(ok, np.left_shift(a, safe), 0).astype(dtype)
        want_r = np.where(ok, np.right_shift(a, safe), np.where(a < 0, -1, 0) if dtype[0] == "i" else 0).astype(dtype)
    assert_close(out_left, want_l)
    assert_close(out_right, want_r)


def test_integer_pow():
    a = np.array([-3, -1, 0, 1, 2, 3, 5], np.int64)
    b = np.array([0, 1, 2, 3, 5, 62, 63], np.int64)
    x, y = np.meshgrid(a, b)
    with np.errstate(all="ignore"):
        want = np.power(x, y)
    assert_close(xp.pow(xp.asarray(x), xp.asarray(y)), want)
    got = xp.pow(xp.asarray(np.array([1, -1, -1, 2], np.int8)), xp.asarray(np.array([-3, -3, -2, -1], np.int8)))
    assert got.tolist() == [1, -1, 1, 0]


# ---- special values -----------------------------------------------------------------------------

SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, math.inf, -math.inf, math.nan, 1e308, 5e-324]


def py_floordiv(a, b):
    """The standard's floor_divide special cases."""
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if math.isinf(a) and math.isinf(b):
        return math.nan
    if a == 0 and b == 0:
        return math.nan
    if b == 0:
        return math.copysign(math.inf, a) * math.copysign(1, b)
    if math.isinf(a):
        return a * math.copysign(1, b)
    if math.isinf(b):
        return math.copysign(0.0, a) * math.copysign(1, b)
    if a == 0:
        return math.copysign(0.0, a) * math.copysign(1, b)
    r = math.floor(a / b) if abs(a / b) < 2 ** 52 else a / b
    return float(np.floor_divide(a, b)) if not math.isinf(a / b) else a / b if r else r


def py_remainder(a, b):
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0:
        return math.nan
    return a % b


def same(x, y):
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return x == y and math.copysign(1, x) == math.copysign(1, y)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_floor_divide_remainder_specials(dtype):
    a, b = np.meshgrid(np.array(SPECIAL), np.array(SPECIAL))
    with np.errstate(over="ignore"):  # 1e308 becomes inf in float32
        a, b = a.astype(dtype).ravel(), b.astype(dtype).ravel()
    fd = xp.floor_divide(xp.asarray(a), xp.asarray(b)).tolist()
    rm = xp.remainder(xp.asarray(a), xp.asarray(b)).tolist()
    for i, (u, v) in enumerate(zip(a.tolist(), b.tolist())):
        with np.errstate(all="ignore"):
            want_fd = py_floordiv(u, v)
            if dtype == "float32" and not math.isnan(want_fd) and not math.isinf(want_fd) and u and v:
                want_fd = float(np.floor_divide(np.float32(u), np.float32(v)))
                if math.isinf(v) or math.isinf(u):
                    want_fd = py_floordiv(u, v)
        assert same(fd[i], want_fd), (u, v, fd[i], want_fd)
        want_rm = py_remainder(u, v)
        if dtype == "float32" and not math.isnan(want_rm) and not math.isinf(v):
            with np.errstate(all="ignore"):
                want_rm = float(np.remainder(np.float32(u), np.float32(v)))
        assert same(rm[i], want_rm), (u, v, rm[i], want_rm)


@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "sin", "cos", "tan", "tanh", "sinh",
                                  "cosh", "asinh", "atan", "expm1", "log1p", "floor", "ceil",
                                  "trunc", "round", "sign", "abs", "signbit", "isnan", "isinf",
                                  "isfinite"])
def test_real_special_values(name):
    a = np.array(SPECIAL + [0.5, -0.5, 1.5, -1.5])
    got = to_np(getattr(xp, name)(xp.asarray(a)))
    want = np.asarray(np_expected(unary_np(name), a))
    if name == "sign":
        want = np.where(a == 0, 0.0, want)
    np.testing.assert_array_equal(np.signbit(got[got == 0]) if got.dtype.kind == "f" else got[got == 0],
                                  np.signbit(want[got == 0]) if want.dtype.kind == "f" else want[got == 0])
    np.testing.assert_allclose(got, want, rtol=1e-15, equal_nan=True)


def test_complex_special_values():
    inf, nan = math.inf, math.nan

    def c(f, z):
        return complex(f(xp.asarray(np.array([z], np.complex128))).tolist()[0])

    def eq(z, w):
        return same(z.real, w.real) and same(z.imag, w.imag)

    assert eq(c(xp.expm1, complex(0.0, 0.0)), complex(0.0, 0.0))
    assert eq(c(xp.expm1, complex(-0.0, 0.0)), complex(0.0, 0.0))
    assert eq(c(xp.tanh, complex(inf, 2.0)), complex(1.0, 0.0))
    assert eq(c(xp.tanh, complex(inf, -2.0)), complex(1.0, -0.0))
    assert eq(c(xp.tanh, complex(-inf, 2.0)), complex(-1.0, 0.0))
    assert eq(c(xp.expm1, complex(-inf, 0.0)), complex(-1.0, 0.0))
    assert eq(c(xp.expm1, complex(inf, 0.0)), complex(inf, 0.0))
    assert math.isnan(c(xp.expm1, complex(1.0, inf)).real)
    z = complex(1e-10, 1e-10)
    assert abs(c(xp.expm1, z) - (z + z * z / 2)) < 1e-25
    assert eq(c(xp.tanh, complex(0.0, inf)), complex(0.0, nan))
    assert eq(c(xp.tanh, complex(0.0, nan)), complex(0.0, nan))
    assert eq(c(xp.tanh, complex(inf, 1.0)), complex(1.0, 0.0))
    assert eq(c(xp.sign, complex(0.0, 0.0)), complex(0.0, 0.0))
    assert eq(c(xp.sign, complex(3.0, -4.0)), complex(0.6, -0.8))
    assert math.isnan(c(xp.sign, complex(nan, 1.0)).real)
    assert eq(c(xp.sqrt, complex(-4.0, 0.0)), complex(0.0, 2.0))
    assert eq(c(xp.sqrt, complex(-4.0, -0.0)), complex(0.0, -2.0))
    assert eq(c(xp.log, complex(-0.0, 0.0)), complex(-inf, math.pi))
    assert eq(c(xp.log1p, complex(-1.0, 0.0)), complex(-inf, 0.0))
    assert abs(c(xp.log1p, complex(1e-12, 1e-12)) - complex(1e-12, 1e-12)) < 1e-23
    assert eq(c(xp.abs, complex(inf, nan)), complex(inf, 0.0))


# ---- where, clip, isin, real/imag ------------------------------------------------------------------

@pytest.mark.parametrize("layout", params(LAYOUTS))
def test_where_layouts_and_scalars(layout):
    a, x = make("float32", layout)
    cond = a > 0
    got = xp.where(xp.asarray(cond) if cond.ndim == 0 else x > 0, x, -x)
    assert_close(got, np.where(cond, a, -a))
    a = values("int16", (3, 4))
    x = xp.asarray(a)
    assert_close(xp.where(x > 0, x, 0), np.where(a > 0, a, np.int16(0)))
    assert xp.where(x > 0, x, 0).dtype == xp.int16
    assert_close(xp.where(x > 0, 1.5, x), np.where(a > 0, 1.5, a))
    assert_close(xp.where(xp.asarray(np.array([True, False])), 1, 2), np.array([1, 2]))
    c = values("complex128", (2, 3))
    assert_close(xp.where(xp.asarray(c.real > 0), xp.asarray(c), 0j), np.where(c.real > 0, c, 0))
    with pytest.raises(TypeError, match="where"):
        xp.where(x, x, x)


def test_clip():
    a = values("float64", (3, 4))
    x = xp.asarray(a)
    assert_close(xp.clip(x, -1.0, 1.0), np.clip(a, -1, 1))
    assert_close(xp.clip(x, min=0.0), np.clip(a, 0, None))
    assert_close(xp.clip(x, max=0.0), np.clip(a, None, 0))
    assert_close(xp.clip(x), a)
    lo = values("float64", (4,))
    assert_close(xp.clip(x.T, xp.asarray(lo[:3]), 2.0), np.clip(a.T, lo[:3], 2.0))
    assert_close(xp.clip(x, 1.0, -1.0), np.clip(a, 1.0, -1.0))  # min > max: max wins
    n = np.array([np.nan, 1.0, 5.0])
    assert_close(xp.clip(xp.asarray(n), 0.0, 2.0), np.clip(n, 0, 2))
    i = values("int8", (10,))
    assert_close(xp.clip(xp.asarray(i), -1000, 5), np.clip(i, -128, 5))
    assert xp.clip(xp.asarray(i), -1000, 5).dtype == xp.int8
    with pytest.raises(TypeError, match="clip"):
        xp.clip(xp.asarray(values("complex64", (2,))), 0, 1)


def test_isin():
    a = np.array([[1, 5, 7], [2, 2, 9]], np.int32)
    b = np.array([9, 2, 3, 2])
    assert_close(xp.isin(xp.asarray(a), xp.asarray(b)), np.isin(a, b))
    assert_close(xp.isin(xp.asarray(a).T, xp.asarray(b), invert=True), np.isin(a.T, b, invert=True))
    f = np.array([np.nan, 0.0, -0.0, 1.5])
    assert_close(xp.isin(xp.asarray(f), xp.asarray(np.array([np.nan, 0.0]))),
                 np.isin(f, [np.nan, 0.0]))
    assert xp.isin(3, xp.asarray(b)).tolist() is True
    assert xp.isin(xp.asarray(a), 7).tolist() == [[False, False, True], [False, False, False]]


@pytest.mark.parametrize("layout", L.ALL)
@pytest.mark.parametrize("pair", [("int32", "float64"), ("float32", "float64"), ("int8", "uint8"),
                                  ("uint32", "int64"), ("float16", "float32"), ("bool", "bool"),
                                  ("int64", "complex128")])
def test_isin_mixed_dtypes_every_layout(layout, pair):
    # x1 of another dtype than the common one is cast block by block in C
    # (more elements than one block, so the blocks' edges are crossed)
    x1_dtype, x2_dtype = pair
    a, n = L.make(layout, (40, 300), x1_dtype,
                  values=lambda shape, d, seed: (np.arange(int(np.prod(shape))) % 251 - 120).reshape(shape).astype(d))
    s = (np.arange(-130, 130, 3) * (0.5 if "float" in x2_dtype or "complex" in x2_dtype else 1)).astype(x2_dtype)
    got = xp.isin(a, xp.asarray(s))
    assert got.dtype == xp.bool and got.shape == n.shape
    assert_close(got, np.isin(n, s))
    assert_close(xp.isin(a, xp.asarray(s), invert=True), np.isin(n, s, invert=True))


def test_real_imag_views():
    c = values("complex128", (3, 4))
    z = xp.asarray(c)
    r, i = xp.real(z.T), xp.imag(z[::2])
    assert_close(r, c.T.real)
    assert_close(i, c[::2].imag)
    assert r.dtype == xp.float64 and xp.real(xp.asarray(c.astype(np.complex64))).dtype == xp.float32
    assert r.storage is z.storage  # a view
    f = xp.asarray(values("float32", (3,)))
    assert xp.real(f) is f and xp.imag(f).tolist() == [0.0, 0.0, 0.0]


def test_large_threaded_and_tiled():
    a = values("float64", (600, 700))
    b = values("float64", (700, 600))
    x, y = xp.asarray(a), xp.asarray(b)
    assert_close(x + y.T, a + b.T)
    assert_close(x.T * y, a.T * b)
    assert_close(xp.exp(x[::3, ::-2]), np.exp(a[::3, ::-2]))
    assert_close(x[:, :1] - y.T[:1, :], a[:, :1] - b.T[:1, :])
    big = values("float32", (300000,))
    assert_close(xp.sqrt(xp.abs(xp.asarray(big))), np.sqrt(np.abs(big)))


def test_permuted_copy_and_astype_tiled():
    a = values("float64", (20, 24, 18, 16))
    x = xp.permute_dims(xp.asarray(a), (3, 1, 2, 0))
    want = a.transpose(3, 1, 2, 0)
    c = xp.asarray(x, copy=True)
    assert c.is_contiguous()
    assert_close(c, want)
    f = xp.astype(x, xp.float32)
    assert_close(f, want.astype(np.float32))
    i = xp.astype(xp.asarray(a)[::2, :, ::-1].mT, xp.int16)
    assert_close(i, a[::2, :, ::-1].swapaxes(-1, -2).astype(np.int16))


def test_threads_setting_gives_same_results():
    a = values("float64", (400, 500))
    x = xp.asarray(a)
    n = xp.get_num_threads()
    try:
        for k in (1, 2, 3):
            xp.set_num_threads(k)
            assert_close(xp.exp(x.T) + x.T, np.exp(a.T) + a.T)
    finally:
        xp.set_num_threads(n)


@pytest.mark.parametrize("dtype", ["int8", "float32", "float64", "complex64", "complex128"])
def test_large_outputs_streamed_at_any_alignment(dtype):
    n = 70001  # beyond the streaming threshold, odd length
    a = values(dtype, (n + 3,))
    b = values(dtype, (n + 3,))
    for k in range(3):  # offsets move the output's alignment for in-place ops
        x = xp.asarray(a.copy())
        y = xp.asarray(b)
        assert_close(x[k:k + n] + y[k:k + n], a[k:k + n] + b[k:k + n])
        assert_close(xp.negative(x[k:k + n]), -a[k:k + n])
        v = x[k:k + n]
        v *= y[:n]
        want = a.copy()
        want[k:k + n] *= b[:n]
        assert_close(x, want)


def test_thread_count_from_environment():
    import os
    import subprocess
    import sys
    env = dict(os.environ, ARRSTRIDE_NUM_THREADS="3")
    out = subprocess.run([sys.executable, "-c", "import arrstride; print(arrstride.get_num_threads())"],
                         env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "3"


def _child_sum(_):
    a = xp.asarray(np.arange(200000, dtype=np.float64))
    return float(to_np(xp.sqrt(a * a + 1.0)).sum())


def test_threads_safe_across_fork():
    import multiprocessing
    big = xp.asarray(np.ones(400000)) + 1.0  # threads and the block cache in use
    assert to_np(big)[0] == 2.0
    with multiprocessing.get_context("fork").Pool(2) as pool:
        got = pool.map(_child_sum, range(2))
    a = np.arange(200000, dtype=np.float64)
    want = float(np.sqrt(a * a + 1.0).sum())
    assert got == pytest.approx([want, want])


# Functions whose results cancel: their ulps are counted at least at this
# magnitude. logaddexp's max(a, b) + log1p(e**-|a - b|) can cancel to near 0,
# where NumPy's float64 formula (the reference) loses about 2**-53 absolute.
_ULP_FLOOR = {"logaddexp": 1.0}


def _assert_within_4_ulp(name, got, want, dtype):
    """got (arrstride's) equals want (NumPy's, rounded to dtype) wherever want
    is not finite, with zeros' signs; elsewhere within 4 ulp of it (of
    _ULP_FLOOR[name] at least)."""
    assert got.dtype == dtype
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    fin = np.isfinite(want)
    np.testing.assert_array_equal(got[~fin], want[~fin])
    assert np.array_equal(np.signbit(got[want == 0]), np.signbit(want[want == 0]))
    ok = fin & np.isfinite(got)
    assert np.array_equal(ok, fin)
    with np.errstate(over="ignore"):
        mag = np.maximum(np.abs(want[ok]), _ULP_FLOOR.get(name, 0.0)).astype(want.dtype)
        ulps = np.abs(got[ok].astype(np.float64) - want[ok].astype(np.float64)) / np.spacing(mag).astype(np.float64)
    assert ulps.max(initial=0.0) <= 4.0, (name, float(ulps.max(initial=0.0)))


# name: (domain (lo, hi) for float64, for float32); None: the default span.
# Inverse functions take their whole domain and a stretch outside it (NaN).
_VECTOR_LIBM = {
    "exp": None, "expm1": None, "sinh": None, "cosh": None, "tanh": None,
    "log": ((0, 1e300), (0, 1e30)), "log1p": ((-1, 1e300), (-1, 1e30)),
    "log2": ((0, 1e300), (0, 1e30)), "log10": ((0, 1e300), (0, 1e30)),
    "sin": ((-1e4, 1e4), (-1e3, 1e3)), "cos": ((-1e4, 1e4), (-1e3, 1e3)),
    "tan": ((-1e4, 1e4), (-1e3, 1e3)),
    "asin": ((-1.1, 1.1),) * 2, "acos": ((-1.1, 1.1),) * 2, "atanh": ((-1.1, 1.1),) * 2,
    "atan": ((-1e300, 1e300), (-1e30, 1e30)), "asinh": ((-1e300, 1e300), (-1e30, 1e30)),
    "acosh": ((0.5, 1e300), (0.5, 1e30)),
}


@pytest.mark.parametrize("name", list(_VECTOR_LIBM))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_vector_libm_within_4_ulp(name, dtype):
    """The costly functions (arrstride's own vector math, tests/test_accuracy.py
    holds them to 1 ulp, or the C library's scalar ones): long arrays (every vector lane and the scalar tail), against
    NumPy computed in float64 and rounded, with special values scattered
    through the lanes. Values are spread over the domain on a log scale as
    well as a linear one, so that small arguments (where many of these
    functions are nearly the identity) and large ones both count."""
    rng = np.random.default_rng(sum(map(ord, name)))
    dom = _VECTOR_LIBM[name]
    if dom is None:
        lo, hi = (-300.0, 700.0) if dtype is np.float64 else (-30.0, 80.0)
    else:
        lo, hi = dom[0] if dtype is np.float64 else dom[1]
    mags = 10.0 ** rng.uniform(-12, np.log10(max(abs(lo), abs(hi))), 2003)
    signed = np.where(rng.random(2003) < 0.5, -mags, mags)
    x = np.concatenate([rng.uniform(lo, hi, 4001), np.clip(signed, lo, hi),
                        rng.uniform(-1, 1, 2003) * 10.0 ** rng.integers(-12, 1, 2003)])
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-300, -1e-300, 5e-324]
    pos = rng.choice(len(x), len(specials), replace=False)
    x[pos] = specials
    x = x.astype(dtype)
    np_name = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
               "acosh": "arccosh", "atanh": "arctanh"}.get(name, name)
    with np.errstate(all="ignore"):
        want = getattr(np, np_name)(x.astype(np.float64)).astype(dtype)
    got = to_np(getattr(xp, name)(xp.asarray(x)))
    _assert_within_4_ulp(name, got, want, dtype)


# The binary functions with a core and a second pass (vmath.h's VM_BIN_RUN),
# and NumPy's function for each.
_NP_BINARY = {"atan2": np.arctan2, "pow": np.power, "hypot": np.hypot, "logaddexp": np.logaddexp}


@pytest.mark.parametrize("name", list(_NP_BINARY))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_vector_libm_binary_special_pairs(name, dtype):
    """atan2, pow, hypot and logaddexp on two arrays (blocked loops, as the unary ones): every pair of
    special values (the C99 tables the standard's special cases follow) sits
    at every position of a vector, amid ordinary values, and matches NumPy's
    (scalar libm) result exactly; the ordinary values within 4 ulp."""
    rng = np.random.default_rng(3)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0,
                         3.0, -3.0, 2.5, -2.5, 1e-30, -1e-30, 1e30, -1e30, 7.0, 0.75])
    a, b = (g.ravel() for g in np.meshgrid(specials, specials))
    n = 16 * 1024 + 5
    x1 = rng.uniform(0.01, 30.0, n) * np.where(rng.random(n) < 0.3, -1, 1)
    x2 = rng.uniform(-4.0, 4.0, n)
    for shift in range(17):  # each pair in every lane of a 16-wide vector
        pos = np.arange(len(a)) * 37 + shift
        x1[pos], x2[pos] = a, b
    x1, x2 = x1.astype(dtype), x2.astype(dtype)
    with np.errstate(all="ignore"):
        want = _NP_BINARY[name](x1.astype(np.float64), x2.astype(np.float64)).astype(dtype)
    got = to_np(getattr(xp, name)(xp.asarray(x1), xp.asarray(x2)))
    _assert_within_4_ulp(name, got, want, dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_near_identities_of_tiny_arguments_are_exact(dtype):
    """Where the true value rounds to x (sin, tan, asin, atan, asinh, atanh,
    sinh, tanh) or to 1 (cos, cosh), the result is exactly that, on the
    vector (contiguous) and scalar (strided) loops alike: SciPy's circmean
    test checks cos(1e-9) == 1; glibc's vector cosf and atanh and its scalar
    tanh are 1 ulp off there without the guard."""
    rng = np.random.default_rng(11)
    hi = 1e-9 if dtype is np.float64 else 1e-5
    x = (10.0 ** rng.uniform(np.log10(np.finfo(dtype).tiny), np.log10(hi), 20000)).astype(dtype)
    x = np.concatenate([x, -x])
    spread = np.zeros(2 * len(x), dtype)
    spread[::2] = x
    for xa in (xp.asarray(x), xp.asarray(spread)[::2]):
        for name in ("sin", "tan", "asin", "atan", "asinh", "atanh", "sinh", "tanh"):
            got = to_np(getattr(xp, name)(xa))
            assert np.array_equal(got, x), (name, xa.strides, x[got != x][:3])
        for name in ("cos", "cosh"):
            got = to_np(getattr(xp, name)(xa))
            assert np.all(got == 1), (name, xa.strides, x[got != 1][:3])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sin_and_cos_stay_within_minus_one_and_one(dtype):
    """Every float32 from 0.5 to 5 (every 7th bit pattern) and its negative,
    on the vector loop (the strided one on a sixteenth of them): glibc's vector sinf gave 1.0000001 for
    1.5706810 (and 3 values of this sample above 1); NaN stays NaN."""
    if dtype is np.float32:
        a = np.arange(0x3F000000, 0x40A00000, 7, dtype=np.uint32).view(np.float32)
    else:
        a = np.random.default_rng(13).uniform(0.5, 5.0, 2 * 10**6)
    a = np.concatenate([a, -a, np.array([1.5706810, np.nan, np.inf], dtype)])
    b = np.concatenate([a[:-3:16], a[-3:]])  # the strided loop on a sixteenth, the ends kept
    for xa in (xp.asarray(a), xp.asarray(np.repeat(b, 2))[::2]):
        for name in ("sin", "cos"):
            got = np.asarray(getattr(xp, name)(xa))  # 8e6 values: the zero-copy view
            assert np.all(np.abs(got[:-2]) <= 1), (name, a[:-2][np.abs(got[:-2]) > 1][:3])
            assert np.isnan(got[-2]) and np.isnan(got[-1])


# ---- one result per value, whatever the length, layout or thread split --------
# The costly functions run in blocks (ew_loops.h), vectorized. Each value must
# come out the same however it is reached: SciPy
# compares vectorized calls with one-at-a-time ones (differentiate's
# test_initial_step, optimize's chandrupatla test_vectorization).
VECTOR_LIBM_UNARY = ["exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan",
                     "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]


def _bits(a):
    a = np.array(a, order="C")  # (ascontiguousarray makes a 0-d array 1-d)
    return a.reshape(a.shape + (1,)).view(np.uint8)


def _vector_libm_values(name, dtype, n):
    v = np.random.default_rng(7).uniform(0.01, 0.9, n).astype(dtype)
    return v + 1 if name == "acosh" else v


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", VECTOR_LIBM_UNARY)
def test_vector_libm_same_bits_any_layout(name, dtype):
    f = getattr(xp, name)
    v = _vector_libm_values(name, dtype, 4099)
    ref = _bits(np.asarray(f(xp.asarray(v))))
    for n in list(range(1, 70)) + [255, 257]:            # short arrays, padded tails
        np.testing.assert_array_equal(_bits(np.asarray(f(xp.asarray(v[:n])))), ref[:n],
                                      err_msg=f"{name} length {n}")
    for i in (0, 1, 33, 4098):                           # 0-d arrays, one value each
        np.testing.assert_array_equal(_bits(np.asarray(f(xp.asarray(v[i])))), ref[i])
    wide = xp.asarray(np.repeat(v, 3))                   # stepped, gathered in blocks
    np.testing.assert_array_equal(_bits(np.asarray(f(wide[1::3]))), ref)
    np.testing.assert_array_equal(_bits(np.asarray(f(xp.flip(xp.asarray(v))))), ref[::-1])
    grid = xp.reshape(xp.asarray(v[:4096]), (64, 64))   # transposed: an N-D strided walk
    np.testing.assert_array_equal(_bits(np.asarray(f(grid.T))),
                                  _bits(np.asarray(f(grid))).transpose(1, 0, 2))


# float64 functions whose vectorized pass runs a core valid on most of the
# domain, and a second pass redoes the rest one element at a time (vmath.h's
# VM_REDO): the edges of each core, the special values and ordinary values
# on both sides of the edges.
_SECOND_PASS_F64 = {
    "exp": [707.0, 707.0000000000001, -707.0, -707.0000000000001, 709.78, 709.79, 710.0,
            710.5, -708.5, -720.0, -745.1, -745.2, -746.0, -1e300, 1e300, 5e-324],
    "log": [5e-324, 1e-310, 2.2250738585072014e-308, 2.225073858507201e-308, 1e308,
            -1.0, -5e-324, 1.7976931348623157e308],
    "log10": [5e-324, 1e-310, 2.2250738585072014e-308, 2.225073858507201e-308, 1e308,
              -1.0, -5e-324, 1.7976931348623157e308, 1000.0, 1e-300],
    "asin": [1.0, -1.0, 0.9999999999999999, -0.9999999999999999, 1.0000000000000002, -2.0,
             2.0 ** -26, -(2.0 ** -26), 2.0 ** -26 * 0.9999999999999999, 1e-300, 5e-324, 0.5,
             0.49999999999999994],
    "atanh": [1.0, -1.0, 0.9999999999999999, -0.9999999999999999, 1.0000000000000002, -2.0,
              2.0 ** -28, -(2.0 ** -28), 2.0 ** -28 * 0.9999999999999999, 1e-300, 5e-324,
              0.5, 1e300],
    "atan": [2.0 ** 1000, -(2.0 ** 1000), 2.0 ** 1000 * 1.0000000000000002, -1e301, 1e308,
             1.7976931348623157e308, 4.8, 1.4966, 0.6682, 0.208, 1e-300, 5e-324, -5e-324, 1.0],
    "tan": [2.0 ** 20, 2.0 ** 20 + 0.5, -(2.0 ** 20), 1e7, -1e22, 1e300, 3e38, 1.5707963267948966,
            5e-324, 1e-300, 3.0],
}


@pytest.mark.parametrize("name", list(_SECOND_PASS_F64))
def test_vector_libm_second_pass_f64(name):
    """The elements that the second pass redoes (vmath.h's VM_REDO, the
    vectorized pass noting whether there are any), scattered through long
    arrays of ordinary values (every lane, the padded tail), in every layout
    (contiguous, stepped, flipped, transposed, 0-d): the same bits each way,
    and NumPy's value (exactly where it is not finite or zero, else within 1
    ulp)."""
    f = getattr(xp, name)
    edges = np.array(_SECOND_PASS_F64[name] + [0.0, -0.0, np.inf, -np.inf, np.nan])
    rng = np.random.default_rng(17)
    v = rng.uniform(0.5, 20.0, 4103) if name in ("exp", "log", "log10") else rng.uniform(-0.99, 0.99, 4103)
    pos = np.concatenate([np.arange(len(edges)) * 97 + k for k in range(0, 16, 5)] + [np.arange(len(edges)) + 4103 - len(edges)])
    v[pos] = np.resize(edges, len(pos))
    ref = _bits(np.asarray(f(xp.asarray(v))))
    with np.errstate(all="ignore"):
        want = getattr(np, name)(v)
    got = np.asarray(f(xp.asarray(v)))
    fin = np.isfinite(want) & (want != 0)
    np.testing.assert_array_equal(got[~fin], want[~fin])
    assert np.array_equal(np.signbit(got[want == 0]), np.signbit(want[want == 0]))
    ulps = np.abs(got[fin] - want[fin]) / np.spacing(np.abs(want[fin]))
    assert ulps.max() <= 1.0, (name, float(ulps.max()))
    for n in (1, 5, 31, 33, 100):
        for start in (0, 97, 4103 - n):
            np.testing.assert_array_equal(_bits(np.asarray(f(xp.asarray(v[start:start + n])))),
                                          ref[start:start + n], err_msg=f"{name} {start}+{n}")
    for i in pos:
        np.testing.assert_array_equal(_bits(np.asarray(f(xp.asarray(v[i])))), ref[i])
    wide = xp.asarray(np.repeat(v, 3))
    np.testing.assert_array_equal(_bits(np.asarray(f(wide[2::3]))), ref)
    np.testing.assert_array_equal(_bits(np.asarray(f(xp.flip(xp.asarray(v))))), ref[::-1])
    grid = xp.reshape(xp.asarray(v[:4096]), (64, 64))
    np.testing.assert_array_equal(_bits(np.asarray(f(grid.T))),
                                  _bits(np.asarray(f(grid))).transpose(1, 0, 2))


# float32 exp, log, log2, log10, atanh (and sin, cos, tan beyond their
# reduction's range) compute only ordinary arguments in the vector loop; a
# second pass over each block redoes the others one at a time (vmath.h).
_SECOND_PASS = {"log": [0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, -1e-30, 1e-45, 1e-40,
                        1.1754942e-38, 1.1754944e-38, 3.4028235e38, -np.nan],
                "sin": [np.inf, -np.inf, np.nan, 1e7, -3e30, 0.0, -0.0, 1e-40],
                "exp": [np.inf, -np.inf, np.nan, 100.5, -105.0, -120.0, 88.8, 1e30, -1e30,
                        -100.0, 100.0, -103.5, -np.nan],
                "atanh": [1.0, -1.0, 1.0000001, -1.0000001, -2.0, 3e38, np.inf, -np.inf, np.nan,
                          -np.nan, 0.0, -0.0, 1e-40, -1e-45, 0.99999994, -0.99999994]}


@pytest.mark.parametrize("name", ["exp", "log", "log2", "log10", "sin", "cos", "tan", "atanh"])
def test_vector_libm_second_pass_every_layout(name):
    """Special values scattered through a long float32 array (in every lane
    of a 16-wide vector, alone in a block and next to each other): in every
    layout each result has the bits of the one-value call, and the special
    values' results match NumPy's (float64, rounded) exactly, the subnormals'
    within 1 ulp."""
    f = getattr(xp, name)
    specials = np.array(_SECOND_PASS["log" if name.startswith("log") else name if name in ("exp", "atanh")
                                     else "sin"], np.float32)
    rng = np.random.default_rng(5)
    lo, hi = (-0.999, 0.999) if name == "atanh" else (0.01, 100.0)
    v = rng.uniform(lo, hi, 40 * 50).astype(np.float32)
    pos = np.concatenate([np.arange(17) * 67 + 3, [500, 501, 502, 1999]])
    v[pos] = np.resize(specials, len(pos))
    v[1024:1056] = np.resize(specials, 32)        # a whole block of them
    one = np.stack([_bits(np.asarray(f(xp.asarray(x)))) for x in v])
    with np.errstate(all="ignore"):
        want = getattr(np, name)(v.astype(np.float64)).astype(np.float32)
    got = to_np(f(xp.asarray(v)))
    sp = np.isin(np.arange(v.size), pos) | ((np.arange(v.size) >= 1024) & (np.arange(v.size) < 1056))
    sub = sp & (np.abs(v) < np.finfo(np.float32).tiny) & (v != 0)
    np.testing.assert_array_equal(got[sp & ~sub], want[sp & ~sub])
    assert np.array_equal(np.signbit(got[sp & (want == 0)]), np.signbit(want[sp & (want == 0)]))
    ulps = np.abs(got[sub].astype(np.float64) - want[sub]) / np.spacing(np.abs(want[sub])).astype(np.float64)
    assert np.all(ulps <= 1.0), ulps
    # each value's one-value result, looked up by the value's bits
    table = dict(zip(v.view(np.uint32).tolist(), one.reshape(-1).view(np.uint32).tolist()))
    for lay, a, n in L.views(v.reshape(40, 50)):
        want_bits = np.vectorize(table.__getitem__, otypes=[np.uint32])(np.ascontiguousarray(n).view(np.uint32))
        np.testing.assert_array_equal(np.ascontiguousarray(to_np(f(a))).view(np.uint32), want_bits, err_msg=lay)
    np.testing.assert_array_equal(_bits(np.asarray(f(xp.asarray(np.repeat(v, 3))[1::3]))), one)
    np.testing.assert_array_equal(_bits(np.asarray(f(xp.flip(xp.asarray(v))))), one[::-1])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_vector_libm_same_bits_large_threaded(dtype):
    """A large array runs split between threads: each value as in a
    one-value call."""
    v = _vector_libm_values("exp", dtype, 3_000_001)
    got = _bits(np.asarray(xp.exp(xp.asarray(v))))
    idx = np.random.default_rng(1).integers(0, v.size, 300)
    one = np.stack([_bits(np.asarray(xp.exp(xp.asarray(v[i])))) for i in idx])
    np.testing.assert_array_equal(got[idx], one)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(_NP_BINARY))
def test_vector_libm_binary_same_bits(name, dtype):
    f = getattr(xp, name)
    a = _vector_libm_values(name, dtype, 300)
    b = _vector_libm_values(name, dtype, 300)[::-1].copy() + 1
    ref = _bits(np.asarray(f(xp.asarray(a), xp.asarray(b))))
    for n in (1, 2, 7, 31, 33, 64, 65):
        np.testing.assert_array_equal(_bits(np.asarray(f(xp.asarray(a[:n]), xp.asarray(b[:n])))),
                                      ref[:n], err_msg=f"{name} length {n}")
    np.testing.assert_array_equal(_bits(np.asarray(f(xp.asarray(np.repeat(a, 2))[::2],
                                                     xp.asarray(b)))), ref)
    # a scalar operand (broadcast: the _s1/_s2 kernels) against the same values in full
    s = b[5]
    ref_s = _bits(np.asarray(f(xp.asarray(a), xp.asarray(np.full_like(a, s)))))
    for n in (1, 5, 40, 300):
        np.testing.assert_array_equal(_bits(np.asarray(f(xp.asarray(a[:n]), xp.asarray(s)))),
                                      ref_s[:n], err_msg=f"{name} scalar operand, length {n}")
    ref_s1 = _bits(np.asarray(f(xp.asarray(np.full_like(b, a[3])), xp.asarray(b))))
    for n in (1, 5, 40, 300):
        np.testing.assert_array_equal(_bits(np.asarray(f(xp.asarray(a[3]), xp.asarray(b[:n])))),
                                      ref_s1[:n], err_msg=f"{name} scalar first operand, length {n}")


# ---- pow and atan2: a core on every element, then a second pass ------------------
# Their loops compute the function without its special values' selects on
# every element and redo the rare ones (zeros, infinities, NaN, x <= 0 for
# pow, extreme magnitudes) with the full function (ew_loops.h, vmath.h).
def _second_pass_values(name, dtype, shape, seed):
    """Ordinary values with special ones scattered among them (~5%)."""
    rng = np.random.default_rng(seed)
    fi = np.finfo(dtype)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0, 0.5, -0.5,
                         2.0, -3.0, 2.5, fi.tiny, -fi.tiny, fi.smallest_subnormal,
                         -fi.smallest_subnormal, fi.max, -fi.max, 7.0, -0.75], dtype)
    size = int(np.prod(shape))
    if name == "pow":
        x1 = rng.uniform(0.05, 4.0, size)
        x2 = rng.uniform(-6.0, 6.0, size)
        # a tenth with results near overflow, underflow and subnormal
        edge = rng.random(size) < 0.1
        lo, hi = (-1080, 1030) if dtype == np.float64 else (-155, 130)
        x2[edge] = rng.uniform(lo, hi, edge.sum()) / np.log2(x1[edge])
    else:
        x1, x2 = rng.uniform(-10.0, 10.0, (2, size))
    x1, x2 = x1.astype(dtype), x2.astype(dtype)
    for x in (x1, x2):
        pos = rng.choice(size, size // 20, replace=False)
        x[pos] = rng.choice(specials, pos.size)
    return x1.reshape(shape), x2.reshape(shape), specials


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(_NP_BINARY))
def test_binary_second_pass_any_layout(name, dtype):
    """Special values amid ordinary ones, in every layout and with a scalar
    operand on either side: the same bits as the contiguous call on the same
    values, as one-value calls, and NumPy's special values."""
    f = getattr(xp, name)
    np_f = _NP_BINARY[name]
    x1, x2, specials = _second_pass_values(name, dtype, (37, 129), 5)
    for (lay, a1, n1), (_, a2, n2) in zip(L.views(x1), L.views(x2)):
        v1, v2 = np.ascontiguousarray(n1), np.ascontiguousarray(n2)
        ref = _bits(np.asarray(f(xp.asarray(v1), xp.asarray(v2))))
        np.testing.assert_array_equal(_bits(np.asarray(f(a1, a2))), ref, err_msg=lay)
    ref = np.asarray(f(xp.asarray(x1), xp.asarray(x2)))
    with np.errstate(all="ignore"):
        want = np_f(x1.astype(np.float64), x2.astype(np.float64)).astype(dtype)
    _assert_within_4_ulp(name, ref.ravel(), want.ravel(), dtype)
    idx = np.random.default_rng(2).integers(0, x1.size, 150)
    for i in np.concatenate([idx, np.flatnonzero(~np.isfinite(ref.ravel()))[:50]]):
        one = np.asarray(f(xp.asarray(x1.flat[i]), xp.asarray(x2.flat[i])))
        np.testing.assert_array_equal(_bits(one), _bits(ref.flat[i]), err_msg=f"{name} element {i}")
    for s in list(specials) + [dtype(1.75), dtype(-2.0)]:
        full = np.full_like(x1, s)
        for first in (False, True):
            args, fargs = ((xp.asarray(s), xp.asarray(x2)), (full, x2)) if first else \
                ((xp.asarray(x1), xp.asarray(s)), (x1, full))
            # (x ** 0.5, x ** 2, ... run a cheaper form of pow, whose NaN may
            # carry another sign)
            if not (name == "pow" and not first and s in (0, 0.5, 1, 2, 3, 4, -1, -2)):
                got = _bits(np.asarray(f(*args)))
                np.testing.assert_array_equal(got, _bits(np.asarray(f(*map(xp.asarray, fargs)))),
                                              err_msg=f"{name} scalar {s} first={first}")
            with np.errstate(all="ignore"):
                w = np_f(*(v.astype(np.float64) for v in fargs)).astype(dtype)
            _assert_within_4_ulp(name, np.asarray(f(*args)).ravel(), w.ravel(), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_binary_second_pass_in_place(dtype):
    """x **= y writes the result over an operand the second pass reads: the
    same values as out of place, with rare elements in every block."""
    x1, x2, _ = _second_pass_values("pow", dtype, (4099,), 8)
    want = _bits(np.asarray(xp.pow(xp.asarray(x1), xp.asarray(x2))))
    a = xp.asarray(x1.copy())
    a **= xp.asarray(x2)
    np.testing.assert_array_equal(_bits(np.asarray(a)), want)
    for s in (dtype(2.5), dtype(-1.5), dtype(np.nan), dtype(0.0)):
        want = _bits(np.asarray(xp.pow(xp.asarray(x1), xp.asarray(s))))
        a = xp.asarray(x1.copy())
        a **= xp.asarray(s)
        np.testing.assert_array_equal(_bits(np.asarray(a)), want, err_msg=f"scalar {s}")
    # a strided view written in place (gathered in blocks)
    base = xp.asarray(np.repeat(x1, 2))
    view = base[::2]
    view **= xp.asarray(x2)
    want = _bits(np.asarray(xp.pow(xp.asarray(x1), xp.asarray(x2))))
    np.testing.assert_array_equal(_bits(np.asarray(view)), want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_binary_second_pass_dense(dtype):
    """Rare elements everywhere (negative bases with integer exponents, zeros
    for atan2): whole chunks redone by the vectorized full function, which
    gives the bits of the one-at-a-time path (one-value calls) and NumPy's
    values; sparse and dense stretches side by side."""
    rng = np.random.default_rng(4)
    n = 3000
    x = -rng.uniform(0.5, 3.0, n).astype(dtype)
    # integers beyond pow's cheaper forms (x ** -2 is 1 / (x * x) in a one-value call)
    k = (rng.integers(5, 30, n) * rng.choice([-1, 1], n)).astype(dtype)
    x[:700] = -x[:700]                       # a stretch with few rare elements
    x[100:700:97] = -2.0
    for name, a, b in (("pow", x, k), ("atan2", np.where(np.arange(n) % 3 == 0, 0.0, x).astype(dtype), x)):
        f = getattr(xp, name)
        got = np.asarray(f(xp.asarray(a), xp.asarray(b)))
        for i in list(range(0, n, 37)) + list(range(100, 700, 97)):
            one = np.asarray(f(xp.asarray(a[i]), xp.asarray(b[i])))
            np.testing.assert_array_equal(_bits(one), _bits(got[i]), err_msg=f"{name} element {i}")
        np_f = _NP_BINARY[name]
        with np.errstate(all="ignore"):
            want = np_f(a.astype(np.float64), b.astype(np.float64)).astype(dtype)
        _assert_within_4_ulp(name, got, want, dtype)
        s = _bits(np.asarray(f(xp.asarray(a[5]), xp.asarray(b))))  # scalar first operand
        np.testing.assert_array_equal(s, _bits(np.asarray(f(xp.asarray(np.full_like(a, a[5])), xp.asarray(b)))))
