"""Divergences that array-API clients (scikit-learn, SciPy, array-api-extra,
Cubed, xarray) hit: numbers given as 0-d arrays or NumPy scalars, format(),
NumPy arrays, NumPy scalars and lists on either side of an operator, range,
dtype names, NumPy's axis wording, dtype= on mean/var/std. NumPy is the oracle."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import arrstride as xp
from layouts import DTYPE_NAMES, make

NUMBER_FORMS = {
    "python": lambda v: v,
    "0-d arrstride": lambda v: xp.asarray(v),
    "numpy scalar": lambda v: np.asarray(v)[()],
    "numpy float32/int32 scalar": lambda v: (np.float32(v) if isinstance(v, float) else np.int32(v)),
    "0-d numpy": lambda v: np.asarray(v),
}


def same(a, n):
    assert isinstance(a, xp.Array), type(a)
    assert a.dtype == n.dtype, (a.dtype, n.dtype)
    np.testing.assert_array_equal(np.asarray(a), n)


# ---- numbers wherever a Python number goes ---------------------------------------------------

@pytest.mark.parametrize("form", list(NUMBER_FORMS))
def test_creation_takes_number_likes(form):
    f = NUMBER_FORMS[form]
    same(xp.linspace(f(0.5), f(1.0), 3), np.linspace(0.5, 1.0, 3))
    same(xp.linspace(f(0), 10, f(3)), np.linspace(0, 10, 3))
    same(xp.arange(f(3)), np.arange(3))
    same(xp.arange(f(1), f(7), f(2)), np.arange(1, 7, 2))
    same(xp.arange(f(0.5), 3), np.arange(0.5, 3))
    same(xp.eye(f(3), f(4), k=f(1)), np.eye(3, 4, k=1))
    same(xp.full((2,), f(2.5)), np.full((2,), 2.5))
    same(xp.full((2,), f(7), dtype=xp.int8), np.full((2,), 7, dtype=np.int8))
    x = xp.asarray([-2.0, 0.25, 3.0])
    same(xp.clip(x, f(0.0), f(1.0)), np.clip(np.asarray([-2.0, 0.25, 3.0]), 0.0, 1.0))
    same(xp.clip(xp.asarray([-5, 1, 9]), f(0), f(4)), np.clip(np.array([-5, 1, 9]), 0, 4))


def test_number_likes_are_checked():
    with pytest.raises(TypeError, match="arange: stop must be a real number"):
        xp.arange(xp.asarray([3]))  # not 0-d
    with pytest.raises(TypeError, match="arange: stop"):
        xp.arange(np.complex128(3))
    with pytest.raises(TypeError, match="eye: k must be an int"):
        xp.eye(3, k=np.float64(1.0))
    with pytest.raises(TypeError, match="eye: n_rows must be an int"):
        xp.eye(xp.asarray(True))
    with pytest.raises(TypeError, match="linspace: num must be an int"):
        xp.linspace(0, 1, xp.asarray(3.0))
    with pytest.raises(TypeError, match="full: fill_value"):
        xp.full(2, np.datetime64("2020-01-01"))
    with pytest.raises(TypeError, match="clip"):
        xp.clip(xp.asarray([1, 2]), np.float64(0.5))


@pytest.mark.parametrize("name", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                  "uint32", "uint64"])
@pytest.mark.parametrize("args", [(0, 10, 3), (0.5, 10, 4), (-1, 0, 3), (3, -7, 6), (0, 100, 7),
                                  (0, 1, 0), (2, 9, 1)])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_integer_dtypes(name, args, endpoint):
    start, stop, num = args
    if name.startswith("uint") and min(start, stop) < 0:
        with pytest.raises(OverflowError, match="linspace"):
            xp.linspace(start, stop, num, dtype=getattr(xp, name), endpoint=endpoint)
        return
    expected = np.linspace(start, stop, num, dtype=name, endpoint=endpoint)
    same(xp.linspace(start, stop, num, dtype=getattr(xp, name), endpoint=endpoint), expected)


def test_linspace_integer_range_and_bool():
    with pytest.raises(OverflowError, match="linspace"):
        xp.linspace(0, 300, 3, dtype=xp.uint8)
    with pytest.raises(TypeError, match="linspace: dtype"):
        xp.linspace(0, 1, 3, dtype=xp.bool)
    with pytest.raises(TypeError, match="linspace"):
        xp.linspace(0j, 1, 3, dtype=xp.int64)


# ---- format ---------------------------------------------------------------------------------

@pytest.mark.parametrize("value, spec", [(1.5, ".3f"), (1.5, ""), (-2.25, "+.1e"), (3, "x"),
                                         (3, "05d"), (True, ""), (1 + 2j, ".2f"), (0.1, ">10")])
def test_format_0d_like_its_scalar(value, spec):
    n = np.asarray(value)
    assert format(xp.asarray(value), spec) == format(n, spec)
    assert f"{xp.asarray(value):{spec}}" == format(n[()], spec)


def test_format_other_arrays():
    x = xp.asarray([1.5, 2.0])
    assert format(x, "") == str(x)
    with pytest.raises(TypeError, match="Array.__format__"):
        format(x, ".3f")
    with pytest.raises(TypeError, match="Array.__format__"):
        format(xp.zeros((1, 1)), ".3f")


# ---- NumPy arrays, NumPy scalars and lists around operators ------------------------------------

BINARY = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a / b, "//": lambda a, b: a // b, "%": lambda a, b: a % b,
    "**": lambda a, b: a ** b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}
BITWISE = {"&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
           "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b}


@pytest.mark.parametrize("op", list(BINARY))
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "negative", "broadcast", "zerod"])
@pytest.mark.parametrize("names", [("float64", "float64"), ("float32", "float64"),
                                   ("int16", "float32"), ("int64", "int8")])
def test_numpy_arrays_on_either_side(op, layout, names):
    """x op n and n op x both give an arrstride array equal to NumPy's n op n."""
    a, na = make(layout, (3, 4), getattr(xp, names[0]))
    nb = np.abs(make("contiguous", (3, 4), getattr(xp, names[1]), seed=1)[1]) + 1
    if a.ndim == 0:
        nb = np.array(nb[0, 0])  # a 0-d array, typed strictly (not a NumPy scalar)
    f = BINARY[op]
    with np.errstate(all="ignore"):
        for p, q, np_p, np_q in ((a, nb, na, nb), (nb, a, nb, na)):
            try:
                expected = f(np_p, np_q)
            except ValueError:  # NumPy refuses integers to negative powers; arrstride does not
                continue
            got = f(p, q)
            assert isinstance(got, xp.Array), (op, type(got))
            assert got.dtype == expected.dtype
            np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-6)


@pytest.mark.parametrize("op", list(BITWISE))
def test_numpy_arrays_bitwise_and_matmul(op):
    a, na = make("stepped", (3, 4), xp.int32)
    nb = np.arange(12, dtype=np.int32).reshape(3, 4) % 5
    f = BITWISE[op]
    for got, expected in ((f(a, nb), f(na, nb)), (f(nb, a), f(nb, na))):
        same(got, expected)
    m, nm = make("transposed", (4, 3), xp.float64)
    got = xp.astype(a, xp.float64) @ nm
    same(got, na.astype(np.float64) @ nm)
    same(nb.astype(np.float64) @ m, nb.astype(np.float64) @ nm)


def test_numpy_array_operand_is_zero_copy_and_inplace_keeps_types():
    n = np.arange(6.0)
    x = xp.ones(6)
    x += n  # the NumPy operand is read in place
    same(x, np.arange(6.0) + 1)
    m = np.zeros(6)
    m += xp.arange(6.0)  # NumPy in-place stays NumPy, written by NumPy
    assert type(m) is np.ndarray
    np.testing.assert_array_equal(m, np.arange(6.0))
    ro = np.ones(6)
    ro.flags.writeable = False
    same(x * ro, np.arange(6.0) + 1)
    with pytest.raises(TypeError, match="asarray"):
        x + np.ones(6, dtype=np.longdouble)


@pytest.mark.parametrize("scalar", [np.float64(2.0), np.float32(2.0), np.int64(3), np.int8(3),
                                    np.uint8(3), np.bool_(True), np.complex64(1 + 1j)])
@pytest.mark.parametrize("name", ["float32", "int16", "uint8", "bool", "complex64"])
def test_numpy_scalars_count_as_python_scalars(scalar, name):
    """NumPy scalars promote as the Python scalar they hold, on either side
    (as PyTorch; NumPy 2 would type them strictly)."""
    a, _ = make("stepped", (3, 4), getattr(xp, name))
    py = scalar.item()
    pairs = [(lambda p, q: p * q), (lambda p, q: p == q)]
    if name != "bool" and not isinstance(py, bool):
        pairs.append(lambda p, q: p - q)
    for f in pairs:
        for left in (True, False):
            try:
                expected = f(a, py) if left else f(py, a)
            except (TypeError, OverflowError) as e:
                with pytest.raises(type(e)):
                    f(a, scalar) if left else f(scalar, a)
                continue
            got = f(a, scalar) if left else f(scalar, a)
            assert isinstance(got, xp.Array) and got.dtype == expected.dtype
            assert got.tolist() == expected.tolist()


def test_numpy_ufuncs_other_than_operators_come_back_as_arrstride():
    """np.sqrt(x): NumPy computes on a zero-copy view and its result comes back
    as an arrstride array (as NumPy ufuncs give tensors for tensors); out=
    keeps NumPy's array."""
    x = xp.asarray([1.0, 4.0, 9.0])
    r = np.sqrt(x)
    assert type(r) is xp.Array
    np.testing.assert_array_equal(np.asarray(r), [1.0, 2.0, 3.0])
    assert float(np.sum(x)) == 14.0
    out = np.empty(3)
    np.add(x, x, out=out)
    np.testing.assert_array_equal(out, [2.0, 8.0, 18.0])
    assert isinstance(np.add(x, x), xp.Array)


@pytest.mark.parametrize("other", [[1, 1, 1], (1, 1, 1), None, "abc", object(), {1: 2}])
def test_lists_and_others_raise_both_ways(other):
    x = xp.ones(3)
    for f in (lambda a, b: a == b, lambda a, b: a != b):
        if other is None:  # NumPy's x == None: all False (x != None all True)
            assert f(x, other).tolist() == f(np.ones(3), other).tolist()
            assert f(other, x).tolist() == f(other, np.ones(3)).tolist()
            continue
        with pytest.raises(TypeError):
            f(x, other)
        with pytest.raises(TypeError):
            f(other, x)
    for f in (lambda a, b: a + b, lambda a, b: a * b, lambda a, b: a < b):
        with pytest.raises(TypeError):
            f(x, other)
        with pytest.raises(TypeError):
            f(other, x)
    with pytest.raises(TypeError, match="asarray"):
        x == [1, 1, 1]


def test_numpy_on_the_left_of_every_comparison_gives_arrstride():
    x = xp.asarray([1.0, 2.0, 3.0])
    n = np.asarray([3.0, 2.0, 1.0])
    for op in ("==", "!=", "<", "<=", ">", ">="):
        got = BINARY[op](n, x)
        assert isinstance(got, xp.Array)
        assert got.tolist() == BINARY[op](n, np.asarray(x)).tolist()


# ---- asarray(range) -----------------------------------------------------------------------------

@pytest.mark.parametrize("r", [range(5), range(0), range(3, -7, -2), range(2, 3),
                               range(2 ** 63 - 3, 2 ** 63), range(2 ** 63, 2 ** 63 + 2),
                               range(-2 ** 63, -2 ** 63 + 2)])
def test_asarray_range(r):
    same(xp.asarray(r), np.asarray(r))
    same(xp.asarray(r, dtype=xp.float32), np.asarray(r, dtype=np.float32))
    same(xp.asarray([r, r]), np.asarray([r, r]))
    with pytest.raises(ValueError, match="asarray"):
        xp.asarray(r, copy=False)


# ---- dtype names -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_dtype_names_are_dtypes(name):
    d = getattr(xp, name)
    assert xp.zeros(2, dtype=name).dtype is d
    assert xp.asarray([1, 0], dtype=name).dtype is d
    assert xp.astype(xp.ones(2), name).dtype is d
    assert xp.result_type(name) is d
    assert xp.result_type(name, xp.bool) is d
    assert xp.can_cast(name, d) and xp.can_cast(d, name)
    assert xp.isdtype(name, d)
    assert xp.isdtype(name, "numeric") == (name != "bool")
    assert d == name and d != "float128"


def test_dtype_names_promote_like_dtypes():
    for a in DTYPE_NAMES:
        for b in DTYPE_NAMES:
            assert xp.result_type(a, b) is xp.result_type(getattr(xp, a), getattr(xp, b))


def test_bad_dtype_names():
    for bad in ("float128", ">f8", "object", "str", "Float64"):
        with pytest.raises(TypeError, match="zeros: dtype"):
            xp.zeros(2, dtype=bad)
        with pytest.raises(TypeError, match="result_type"):
            xp.result_type(bad)


def test_result_type_of_python_and_numpy_scalars_alone():
    assert xp.result_type(1) is xp.int64
    assert xp.result_type(1.5) is xp.float64
    assert xp.result_type(True) is xp.bool
    assert xp.result_type(1, 2.0) is xp.float64
    assert xp.result_type(1j, 2.0) is xp.complex128
    assert xp.result_type(xp.int16, np.float32(1.0)) is xp.float64  # as a Python float
    with pytest.raises(ValueError, match="result_type"):
        xp.result_type()


def test_dtype_poses_as_its_numpy_twin():
    """isinstance(d, numpy.dtype) holds (xarray asks it); the NumPy attributes
    arrstride's dtype lacks are read from the twin; type() and pickling stay."""
    for name in DTYPE_NAMES:
        d = getattr(xp, name)
        assert isinstance(d, np.dtype) and isinstance(d, xp.DType)
        assert type(d) is xp.DType
        assert d.type is np.dtype(name).type and d.char == np.dtype(name).char
        assert d.kind == np.dtype(name).kind and d.itemsize == np.dtype(name).itemsize
        assert np.dtype(d) == np.dtype(name)
        assert pickle.loads(pickle.dumps(d)) is d
    with pytest.raises(AttributeError):
        xp.float64._no_such_thing
    assert not isinstance(xp.float64, xp.Array)


# ---- NumPy's axis wording and numpy-style keywords ---------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: xp.sum(xp.ones(3), axis=10),
    lambda: xp.mean(xp.ones(3), axis=-2),
    lambda: xp.argmax(xp.ones(3), axis=1),
    lambda: xp.sort(xp.ones(3), axis=10),
    lambda: xp.cumulative_sum(xp.ones(3), axis=10),
])
def test_axis_message_matches_numpy(call):
    with pytest.raises(IndexError) as info:
        call()
    assert "is out of bounds for array of dimension 1" in str(info.value)
    assert isinstance(info.value, ValueError)  # NumPy's AxisError is both


def test_axis_message_text():
    with pytest.raises(IndexError, match=r"^sum: axis 10 is out of bounds for array of dimension 1$"):
        xp.sum(xp.ones(3), axis=10)
    with pytest.raises(np.exceptions.AxisError, match="axis 10 is out of bounds for array of dimension 1"):
        np.sum(np.ones(3), axis=10)


@pytest.mark.parametrize("name", ["float32", "float64", "int16", "uint8", "bool"])
@pytest.mark.parametrize("target", ["float32", "float64"])
@pytest.mark.parametrize("axis", [None, 0, (0, 1)])
def test_mean_var_std_dtype(name, target, axis):
    a, n = make("transposed", (3, 4), getattr(xp, name))
    for fn in ("mean", "var", "std"):
        got = getattr(xp, fn)(a, axis=axis, dtype=getattr(xp, target))
        expected = getattr(np, fn)(n, axis=axis, dtype=np.float64).astype(target)
        assert got.dtype == getattr(xp, target)
        np.testing.assert_allclose(np.asarray(got), expected, rtol=2e-6 if target == "float32" else 1e-12)


def test_mean_dtype_checks():
    with pytest.raises(TypeError, match="mean: dtype"):
        xp.mean(xp.ones(3), dtype=xp.int64)
    with pytest.raises(TypeError, match="mean: dtype"):
        xp.mean(xp.ones(3, dtype=xp.complex64), dtype=xp.float64)
    got = xp.mean(xp.asarray([1 + 1j, 2 - 1j], dtype=xp.complex64), dtype=xp.complex128)
    assert got.dtype == xp.complex128 and complex(got) == 1.5


def test_take_with_an_int_drops_the_axis():
    a, n = make("negative", (3, 4), xp.int32)
    for axis in (0, 1, -1):
        same(xp.take(a, 2, axis=axis), np.take(n, 2, axis=axis))
    same(xp.take(a[0], np.int64(-1)), np.take(n[0], -1))
    with pytest.raises(IndexError, match="take"):
        xp.take(a, 7, axis=0)
    with pytest.raises(TypeError, match="take"):
        xp.take(a, 1.5, axis=0)


def test_astype_takes_numpy_data():
    same(xp.astype(np.float32(2.5), xp.float64), np.asarray(2.5))
    same(xp.astype(np.arange(3), xp.int8), np.arange(3, dtype=np.int8))
    with pytest.raises(TypeError, match="astype"):
        xp.astype([1, 2], xp.int8)
