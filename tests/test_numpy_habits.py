"""Issue 19's newcomer list, line by line: each NumPy habit behaves as in
NumPy, with NumPy as the oracle, over non-contiguous layouts where a kernel
or a view is involved (tests/layouts.py).

The rule (tests/test_errors.py's header): where the standard leaves
behaviour to the implementation, arrstride accepts what NumPy and PyTorch
both accept and gives NumPy's result; where they disagree, NumPy; where both
refuse, refuse."""
from __future__ import annotations

import math
import sys
import warnings

import numpy as np
import pytest

import arrstride as xp
from layouts import SHAPED, make, params

LAYOUTS = SHAPED + ["mixed", "permuted"]


def same(got, want, exact=False):
    """got (an arrstride array or a Python value) equals NumPy's want: shape, dtype, values."""
    want = np.asarray(want)
    if isinstance(got, xp.Array):
        g = np.asarray(got)
        assert g.dtype == want.dtype, (g.dtype, want.dtype)
    else:
        g = np.asarray(got)
    assert g.shape == want.shape, (g.shape, want.shape)
    if want.dtype.kind in "fc" and not exact:
        tol = 1e-6 if want.dtype in (np.float32, np.complex64) else 1e-12  # float32: an ulp or so
        np.testing.assert_allclose(g, want, rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, want)


# ---- x.astype(xp.int32), x.sum(), x.reshape(3, 2), x.item(), x.copy(), ... -------------

# (method call, the same call on NumPy's array)
METHOD_CALLS = {
    "astype": lambda a, m: a.astype(m.int32),
    "sum": lambda a, m: a.sum(), "sum-axis": lambda a, m: a.sum(0),
    "sum-keepdims": lambda a, m: a.sum(axis=1, keepdims=True),
    "prod": lambda a, m: a.prod(1), "mean": lambda a, m: a.mean(), "mean-axis": lambda a, m: a.mean(0),
    "std": lambda a, m: a.std(), "std-ddof": lambda a, m: a.std(0, ddof=1),
    "var": lambda a, m: a.var(1), "min": lambda a, m: a.min(), "max": lambda a, m: a.max(0),
    "argmin": lambda a, m: a.argmin(), "argmax": lambda a, m: a.argmax(1),
    "any": lambda a, m: (a > 0).any(0), "all": lambda a, m: (a > -5).all(),
    "cumsum": lambda a, m: a.cumsum(), "cumsum-axis": lambda a, m: a.cumsum(1),
    "cumprod": lambda a, m: a.cumprod(0),
    "copy": lambda a, m: a.copy(), "flatten": lambda a, m: a.flatten(),
    "ravel": lambda a, m: a.ravel(), "transpose": lambda a, m: a.transpose(),
    "transpose-axes": lambda a, m: a.transpose(1, 0), "transpose-tuple": lambda a, m: a.transpose((1, 0)),
    "reshape-ints": lambda a, m: a.reshape(4, 3), "reshape-tuple": lambda a, m: a.reshape((2, 6)),
    "reshape-minus1": lambda a, m: a.reshape(-1), "squeeze": lambda a, m: a[None].squeeze(),
    "clip": lambda a, m: a.clip(-1, 1), "round": lambda a, m: a.round(), "round-1": lambda a, m: a.round(1),
    "dot": lambda a, m: a.dot(a.T), "dot-vector": lambda a, m: a.dot(a[0]),
    "tolist": lambda a, m: a.tolist(), "item": lambda a, m: a.item(5), "item-2d": lambda a, m: a.item(1, 2),
}


@pytest.mark.parametrize("layout", params(LAYOUTS, ndim=2))
@pytest.mark.parametrize("call", list(METHOD_CALLS))
def test_methods_as_numpy(call, layout):
    a, n = make(layout, (3, 4), "float64")
    f = METHOD_CALLS[call]
    got, want = f(a, xp), f(n, np)
    if call in ("tolist", "item", "item-2d"):
        assert got == want and type(got) is type(want)
    else:
        same(got, want)


@pytest.mark.parametrize("layout", params(LAYOUTS, ndim=2))
def test_methods_that_return_tuples_or_write(layout):
    a, n = make(layout, (3, 4), "float64")
    for g, w in zip((a > 0).nonzero(), (n > 0).nonzero()):
        same(g, w)
    if layout != "broadcast":  # read-only, as NumPy's broadcast views
        a.fill(2.5)
        n.fill(2.5)
        same(a, n)


def test_methods_are_the_namespace_functions():
    """One table binds them; NumPy's own functions (np.sum(x)) reach them with out=."""
    from arrstride import _operators
    assert xp.Array.astype is xp.astype
    assert set(_operators.METHODS) >= {
        "astype", "reshape", "sum", "prod", "mean", "std", "var", "min", "max", "argmin", "argmax",
        "any", "all", "cumsum", "cumprod", "copy", "item", "flatten", "ravel", "transpose",
        "squeeze", "clip", "round", "nonzero", "dot", "fill"}
    x = xp.asarray([1.0, 4.0, 9.0])
    assert float(np.sum(x)) == 14.0 and float(np.mean(x)) == np.mean([1.0, 4.0, 9.0])
    out = xp.empty(())
    assert x.sum(out=out) is out and float(out) == 14.0
    assert x.copy() is not x and not np.shares_memory(np.asarray(x.copy()), np.asarray(x))
    assert x.flatten()._storage is not x._storage          # flatten copies, ravel views
    assert x.ravel()._storage is x._storage
    with pytest.raises(TypeError, match="one element"):
        x.item()


def test_flags_and_scikit_learn_estimators():
    """.flags as NumPy's; scikit-learn's non-array-API estimators fit arrstride arrays."""
    x = xp.reshape(xp.arange(6.0), (2, 3))
    assert x.flags.c_contiguous and not x.flags.f_contiguous and x.flags.writeable
    assert x.T.flags.f_contiguous and not x.T.flags.c_contiguous
    assert x.flags["C_CONTIGUOUS"] and x.flags["W"]
    assert not xp.broadcast_to(x, (2, 2, 3)).flags.writeable
    sklearn = pytest.importorskip("sklearn.neighbors")
    rng = np.random.default_rng(0)
    X = rng.random((30, 3))
    y = (X[:, 0] > 0.5).astype(np.int64)
    want = sklearn.KNeighborsClassifier().fit(X, y).predict(X)
    got = sklearn.KNeighborsClassifier().fit(xp.asarray(X), xp.asarray(y)).predict(xp.asarray(X))
    np.testing.assert_array_equal(np.asarray(got), want)


# ---- xp.zeros(3, dtype=float): Python types as dtypes -----------------------------------

@pytest.mark.parametrize("pytype", [float, int, complex, bool])
def test_python_types_as_dtypes(pytype):
    want = np.zeros(3, dtype=pytype).dtype.name
    assert xp.zeros(3, dtype=pytype).dtype.name == want
    assert xp.asarray([1, 0], dtype=pytype).dtype.name == want
    assert xp.full(2, 1, dtype=pytype).dtype.name == want
    assert xp.astype(xp.ones(2), pytype).dtype.name == want
    assert xp.ones(2).astype(pytype).dtype.name == want
    assert xp.sum(xp.ones(2, dtype=xp.bool), dtype=pytype).dtype.name == \
        np.sum(np.ones(2, dtype=bool), dtype=pytype).dtype.name
    assert xp.isdtype(pytype, "numeric") == (pytype is not bool)
    assert xp.can_cast(xp.int8, pytype) == np.can_cast(np.int8, pytype)
    if pytype is not bool:
        assert xp.ones(2).view(float).dtype == xp.float64


# ---- (x > 0) * 1.0 and mask + mask: bool arithmetic ------------------------------------

BOOL_CALLS = {
    "mask*1.0": lambda m, x: m * 1.0, "mask*2": lambda m, x: m * 2, "1.5+mask": lambda m, x: 1.5 + m,
    "mask+mask": lambda m, x: m + m, "mask*mask": lambda m, x: m * m,
    "mask+int8": lambda m, x: m + x.astype(np.int8 if isinstance(x, np.ndarray) else xp.int8),
    "mask-int": lambda m, x: m - x.astype(np.int64 if isinstance(x, np.ndarray) else xp.int64),
    "mask/mask": lambda m, x: m / (m | True),
    # NumPy's ** operator squares through np.square (int8 for bools); its power
    # function, which arrstride follows, gives int64 as PyTorch does
    "power": lambda m, x: xp.pow(m, 2) if isinstance(m, xp.Array) else np.power(m, 2),
    "x*mask": lambda m, x: x * m, "maximum": lambda m, x: (xp if isinstance(m, xp.Array) else np).maximum(m, m),
    "minimum": lambda m, x: (xp if isinstance(m, xp.Array) else np).minimum(m, ~m),
    "sum": lambda m, x: m.sum(), "mean": lambda m, x: m.mean(),
}


@pytest.mark.parametrize("layout", params(LAYOUTS, ndim=2))
@pytest.mark.parametrize("call", list(BOOL_CALLS))
def test_bool_arithmetic_as_numpy(call, layout):
    a, n = make(layout, (3, 4), "float64")
    f = BOOL_CALLS[call]
    with np.errstate(all="ignore"):
        same(f(a > 0, a), f(n > 0, n))


def test_bool_inplace_and_refusals():
    m = xp.asarray([True, False, False])
    m += xp.asarray([False, False, True])
    assert m.tolist() == [True, False, True]
    m *= xp.asarray([True, True, False])
    assert m.tolist() == [True, False, False]
    # both NumPy and PyTorch refuse these: so does arrstride
    with pytest.raises(TypeError, match="negative"):
        -m
    with pytest.raises(TypeError, match="subtract"):
        m - m
    with pytest.raises(TypeError, match="negative"):
        np.negative(np.asarray([True]))  # the oracle refuses too
    with pytest.raises(TypeError):
        np.asarray([True]) - np.asarray([True])


# ---- logical_and(scores, y), logical_not(counts): logical functions of any dtype -------------
# NumPy and PyTorch both read other dtypes as their truth (x != 0, NaN true);
# scikit-learn's roc_auc_score calls logical_or on float arrays (tests/test_ecosystem.py).

def _with_zeros(shape, dtype, seed):
    """Values with zeros, negative zeros and (for floats) NaN among them."""
    rng = np.random.default_rng(seed)
    v = rng.integers(-2, 3, size=shape).astype(dtype)
    if v.dtype.kind in "fc":
        v.flat[::5] = np.nan
        v.flat[1::7] = -0.0
    if v.dtype.kind == "c":
        v.flat[2::3] = 1j
    return v


LOGICAL = ["logical_and", "logical_or", "logical_xor"]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "uint8", "int64", "complex128"])
@pytest.mark.parametrize("layout", params(["contiguous", "transposed", "negative", "broadcast", "offset"],
                                          ndim=2))
def test_logical_functions_of_any_dtype(layout, dtype):
    a, n = make(layout, (3, 4), dtype, values=_with_zeros)
    b, m = make("stepped", (3, 4), "float64", seed=1, values=_with_zeros)
    mask, nmask = make("contiguous", (3, 4), "bool", seed=2)
    same(xp.logical_not(a), np.logical_not(n))
    for name in LOGICAL:
        f, g = getattr(xp, name), getattr(np, name)
        same(f(a, b), g(n, m))            # two dtypes, neither bool
        same(f(a, mask), g(n, nmask))     # beside a bool array
        same(f(mask, a), g(nmask, n))
        same(f(a, 0.0), g(n, 0.0))        # a Python scalar, read as its truth
        same(f(2, a), g(2, n))
        same(f(n, a), g(n, n))            # NumPy data as an operand
        same(f(a[0], a[:, :1]), g(n[0], n[:, :1]))  # broadcasting


def test_logical_functions_keep_their_refusals():
    with pytest.raises(TypeError, match="logical_or"):
        xp.logical_or(1.0, 0.0)           # no array at all
    with pytest.raises(TypeError, match="logical_not"):
        xp.logical_not([1.0, 0.0])        # lists stay refused, as everywhere
    with pytest.raises(ValueError, match="logical_and"):
        xp.logical_and(xp.zeros(3), xp.zeros(4))


@pytest.mark.parametrize("dtype", ["bool", "float64", "int8", "complex128"])
@pytest.mark.parametrize("layout", params(["contiguous", "transposed", "negative", "stepped", "broadcast"],
                                          ndim=2))
def test_where_of_the_condition_alone_is_nonzero(layout, dtype):
    # NumPy's where(c) and PyTorch's where(c) are nonzero(c); scikit-learn's
    # roc_curve calls it so
    a, n = make(layout, (3, 4), dtype, values=_with_zeros)
    got, want = xp.where(a), np.where(n)
    assert len(got) == len(want) == 2
    for g, w in zip(got, want):
        same(g, w)
    same(xp.where(a[0])[0], np.where(n[0])[0])
    with pytest.raises(TypeError, match="where: give both x1 and x2, or neither"):
        xp.where(a, 1.0)
    with pytest.raises(ValueError, match="where"):
        xp.where(a[0, 0])  # 0-d, as nonzero (NumPy 2 refuses too)


# ---- integer input to exp, log, sin, sqrt, ... ---------------------------------------------

INT_TO_FLOAT = ["exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan", "sinh", "cosh",
                "tanh", "asinh", "atan", "sqrt"]
_NP = {"asinh": np.arcsinh, "atan": np.arctan}


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32", "uint64", "int16", "uint16"])
@pytest.mark.parametrize("layout", params(["contiguous", "transposed", "negative"], ndim=2))
def test_integers_to_transcendental_functions(layout, dtype):
    a, n = make(layout, (3, 4), dtype, values=lambda s, d, seed: np.arange(1, 13).reshape(s).astype(d))
    for name in INT_TO_FLOAT:
        with np.errstate(all="ignore"):
            want = (_NP.get(name) or getattr(np, name))(n)
        got = getattr(xp, name)(a)
        assert got.dtype.name == want.dtype.name, (name, dtype)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6 if want.dtype == np.float32 else 1e-12)
    same(xp.atan2(a, 2), np.arctan2(n, 2))
    same(xp.hypot(a, a), np.hypot(n, n)) if dtype.endswith("32") or dtype.endswith("64") else None


def test_small_integers_and_bool_compute_in_float16():
    """As NumPy: bool and 8-bit integers give float16, 16-bit ones float32."""
    for d in ("int8", "uint8", "bool", "int16"):
        n = np.arange(1, 5).astype(d)
        got = xp.exp(xp.asarray(n))
        want = np.exp(n)
        assert got.dtype == want.dtype
        # float32: within an ulp of NumPy's exp; float16: NumPy's, rounded from float32
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6 if d == "int16" else 1e-3)


# ---- one operand rule: NumPy data everywhere an array is taken ---------------------------

@pytest.mark.parametrize("layout", params(LAYOUTS, ndim=2))
def test_numpy_arrays_as_function_arguments(layout):
    a, n = make(layout, (3, 4), "float64")
    other = np.linspace(-1, 1, 12).reshape(3, 4)
    same(xp.add(a, other), n + other)
    same(xp.add(other, a), other + n)
    same(xp.where(a > 0, a, other), np.where(n > 0, n, other))
    same(xp.where(n > 0, other, a), np.where(n > 0, other, n))
    same(xp.concat([a, other]), np.concatenate([n, other]))
    same(xp.stack([other, a], 1), np.stack([other, n], 1))
    same(xp.sum(other), np.sum(other))
    same(xp.sum(other, 0), np.sum(other, 0))
    same(xp.matmul(other, a.T), other @ n.T)
    same(xp.exp(other), np.exp(other))
    same(xp.clip(a, other, 1.0), np.clip(n, other, 1.0))
    same(xp.linalg.inv(other[:, :3] + 3 * np.eye(3)), np.linalg.inv(other[:, :3] + 3 * np.eye(3)))


def test_numpy_arrays_everywhere_an_array_is_taken():
    """A sweep over every public function: a NumPy array where an array
    belongs is accepted (no "must be an arrstride array" TypeError)."""
    import inspect
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    import test_errors
    for p in test_errors._not_array_rows():
        f, args, name, param = p.values
        args = list(args)
        k = next(i for i, a in enumerate(args) if isinstance(a, list))
        args[k] = (np.zeros(2, np.int64) if param == "indices" else np.ones(4, bool)
                   if param == "condition" or name.startswith("logical") else np.ones(4, np.int64)
                   if name.startswith("bitwise") else np.asarray([1.0, 2.0, 3.0, 4.0]))
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                f(*args)
        except TypeError as e:
            assert "must be an arrstride" not in str(e), (name, param, str(e))
        except (ValueError, IndexError, AttributeError):
            pass  # a shape the function refuses: the array itself was taken
    assert xp.take(xp.arange(5.0), np.array([1, 3])).tolist() == [1.0, 3.0]
    assert xp.searchsorted(xp.arange(5.0), np.array([1.5])).tolist() == [2]


def test_numpy_conversion_is_zero_copy_and_scalars_count():
    n = np.arange(6.0)
    view = xp.reshape(n, (2, 3))
    view[0, 0] = 7.0
    assert n[0] == 7.0  # the NumPy memory itself
    same(xp.sum(np.float32(2.5)), np.sum(np.float32(2.5)))
    same(xp.sum(np.array(3)), np.sum(np.array(3)))
    same(xp.add(xp.ones(2, dtype=xp.float32), np.float64(1.5)), np.ones(2, np.float32) + 1.5)
    same(xp.multiply(np.int64(3), xp.arange(3)), 3 * np.arange(3))
    same(xp.mean(np.arange(4.0)[::-1]), np.mean(np.arange(4.0)))


def test_lists_stay_refused_with_todays_message():
    with pytest.raises(TypeError, match=r"sum: x must be an arrstride array.*got list"):
        xp.sum([1.0, 2.0])
    with pytest.raises(TypeError, match=r"add: x2 must be an arrstride array or a Python scalar.*got list"):
        xp.add(xp.ones(2), [1.0, 2.0])
    with pytest.raises(TypeError, match="concat"):
        xp.concat([xp.ones(2), [1.0]])


def test_the_per_call_path_stays_for_arrstride_arrays():
    """The conversion runs only after the Array test fails: an arrstride array
    goes straight through (no NumPy import needed on that path)."""
    from arrstride import _array
    calls = []
    original = _array.FOREIGN[0]
    _array.FOREIGN[0] = lambda v: calls.append(v) or original(v)
    try:
        xp.sum(xp.ones(3))
        xp.mean(xp.ones((2, 2)), 0)
        assert calls == []
        xp.sum(np.ones(3))
        assert len(calls) == 1
    finally:
        _array.FOREIGN[0] = original


# ---- positional axis; quantile's q by keyword ---------------------------------------------

@pytest.mark.parametrize("layout", params(["contiguous", "transposed", "negative", "mixed"], ndim=2))
def test_positional_axis(layout):
    a, n = make(layout, (3, 4), "float64")
    for name in ("sum", "prod", "min", "max", "mean", "std", "var", "argmin", "argmax",
                 "nansum", "nanmean", "nanmax", "median", "count_nonzero"):
        same(getattr(xp, name)(a, 0), getattr(np, name)(n, 0))
        same(getattr(xp, name)(a, 1), getattr(np, name)(n, 1))
    same(xp.any(a > 0, 1), np.any(n > 0, 1))
    same(xp.all(a > 0, 0), np.all(n > 0, 0))
    same(xp.flip(a, 0), np.flip(n, 0))
    same(xp.roll(a, 1, 1), np.roll(n, 1, 1))
    same(xp.concat([a, a], 1), np.concatenate([n, n], 1))
    same(xp.stack([a, a], 2), np.stack([n, n], 2))
    same(xp.sort(a, 0), np.sort(n, 0))
    same(xp.argsort(a, 0), np.argsort(n, 0, kind="stable"))
    same(xp.repeat(a, 2, 0), np.repeat(n, 2, 0))


def test_quantile_q_by_keyword():
    x, n = xp.arange(10.0), np.arange(10.0)
    same(xp.quantile(x, q=0.5), np.quantile(n, q=0.5))
    same(xp.quantile(x, 0.25), np.quantile(n, 0.25))
    same(xp.nanquantile(x, q=[0.1, 0.9]), np.nanquantile(n, q=[0.1, 0.9]))
    xr = pytest.importorskip("xarray")
    da = xr.DataArray(xp.reshape(xp.arange(12.0), (3, 4)), dims=("x", "y"))
    got = da.quantile(0.5, dim="y")
    np.testing.assert_allclose(np.asarray(got.data), np.quantile(np.arange(12.0).reshape(3, 4), 0.5, axis=1))


# ---- datetime64, timedelta64, bytes_, str_ and bytes: TypeError, never raw bytes ----------

@pytest.mark.parametrize("value", [np.datetime64("2020-01-01"), np.timedelta64(3, "s"),
                                   np.bytes_(b"ab"), np.str_("ab"), b"abc"],
                         ids=["datetime64", "timedelta64", "bytes_", "str_", "bytes"])
def test_dates_times_and_bytes_are_refused(value):
    with pytest.raises(TypeError, match="asarray: expected numbers"):
        xp.asarray(value)
    with pytest.raises(TypeError, match="asarray"):
        xp.asarray(value, dtype=xp.uint8)
    with pytest.raises(TypeError, match="asarray"):
        xp.asarray([value])
    with pytest.raises(TypeError):
        xp.sum(value)
    with pytest.raises(TypeError, match="asarray"):
        xp.asarray(np.array([value]))  # the array form was already refused


# ---- sliding_window_view is read-only, as NumPy's ----------------------------------------

def test_sliding_window_view_read_only():
    x = xp.arange(5.0)
    w = xp.lib.stride_tricks.sliding_window_view(x, 3)
    n = np.lib.stride_tricks.sliding_window_view(np.arange(5.0), 3)
    same(w, n)
    with pytest.raises(ValueError, match="read-only"):
        w[0, 1] = 9.0
    with pytest.raises(ValueError):
        n[0, 1] = 9.0  # NumPy refuses too
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    x[1] = 5.0  # the source stays writable, and the windows see it
    assert w[0, 1].item() == 5.0


# ---- 5.0 in x, round(x0d), divmod(x, 2), reshape's message, FFT zeros, iteration ---------

@pytest.mark.parametrize("layout", params(["contiguous", "transposed", "negative", "broadcast"], ndim=2))
def test_python_protocols(layout):
    a, n = make(layout, (3, 4), "float64")
    for v in (float(n[1, 2]), 123.5, float("nan")):
        assert (v in a) == (v in n)
    q, r = divmod(a, 2)
    nq, nr = divmod(n, 2)
    same(q, nq)
    same(r, nr)
    q, r = divmod(7.5, a)
    with np.errstate(all="ignore"):
        nq, nr = divmod(7.5, n)
    same(q, nq)
    same(r, nr)
    same(round(a), np.round(n))
    same(round(a, 1), np.round(n, 1))
    rows = list(a)
    assert len(rows) == 3
    for g, w in zip(rows, n):
        same(g, w)


def test_round_decimals_as_numpy():
    for values in ([1.25, 2.5, -0.5, 1234.5678, 0.125], [[1.5 + 2.5j, -0.5 - 1.25j]]):
        n = np.asarray(values)
        x = xp.asarray(n)
        for d in (0, 1, 2, -1, -2):
            same(xp.round(x, decimals=d), np.round(n, d))
            same(x.round(d), n.round(d))
    n = np.asarray([125, 251, -135, 7], dtype=np.int64)
    for d in (0, 2, -1, -2):
        same(xp.round(xp.asarray(n), decimals=d), np.round(n, d))
    r = round(xp.asarray(2.5))
    assert isinstance(r, xp.Array) and r.ndim == 0 and float(r) == round(2.5) == np.round(2.5)


def test_reshape_copy_false_message():
    x = xp.reshape(xp.arange(6.0), (2, 3)).T
    with pytest.raises(ValueError, match="no view exists.*use copy=None"):
        xp.reshape(x, (6,), copy=False)


def test_fft_zeros_print_with_numpys_sign():
    assert repr(xp.fft.rfft(xp.ones(3))) == "Array([3.+0.j, 0.+0.j])"
    assert str(xp.fft.fft(xp.ones(4))) == str(np.fft.fft(np.ones(4)))
    got = np.asarray(xp.fft.rfft(xp.ones(3)))
    np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(np.fft.rfft(np.ones(3)).imag))


def test_version_and_torch_of_any_layout():
    assert isinstance(xp.__version__, str) and xp.__version__
    torch = pytest.importorskip("torch")
    x = xp.reshape(xp.arange(6.0), (2, 3))
    for v in (x, x.T, x[:, ::-1], x[::2]):
        np.testing.assert_array_equal(torch.asarray(v).numpy(), np.asarray(v))


# ---- diag, logspace, einsum -------------------------------------------------------------

@pytest.mark.parametrize("layout", params(["contiguous", "transposed", "negative", "stepped"], ndim=2))
def test_diag(layout):
    a, n = make(layout, (3, 4), "float64")
    for k in (0, 1, -1, 3, -3, 5):
        same(xp.diag(a, k), np.diag(n, k))
        same(xp.diag(a[0], k), np.diag(n[0], k))
    d = xp.diag(a)
    with pytest.raises(ValueError, match="read-only"):
        d[0] = 1.0  # NumPy's diagonal view refuses writes too
    same(xp.diag(xp.asarray([True, False])), np.diag([True, False]))


def test_logspace():
    same(xp.logspace(0, 3, 4), np.logspace(0, 3, 4))
    same(xp.logspace(0, 1, 5, endpoint=False, base=2.0), np.logspace(0, 1, 5, endpoint=False, base=2.0))
    same(xp.logspace(-2, 2), np.logspace(-2, 2))
    same(xp.logspace(0, 2, 3, dtype=xp.float32), np.logspace(0, 2, 3, dtype=np.float32))


EINSUM = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("ii->i", [(4, 4)]), ("ii", [(4, 4)]), ("iij->ij", [(3, 3, 2)]), ("i,j->ij", [(3,), (4,)]),
    ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]), ("ij->j", [(3, 4)]), ("ij,ij->i", [(3, 4), (3, 4)]),
    ("ij,ij", [(3, 4), (3, 4)]), ("i,i", [(5,), (5,)]), ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,jk", [(2, 3, 4), (4, 5)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ijk,kj->i", [(2, 3, 4), (4, 3)]), ("i...->...", [(3, 2, 2)]), ("...i,...i->...", [(1, 3), (4, 3)]),
    ("ab,cd->abcd", [(2, 3), (2, 2)]), ("Ab,bA->A", [(3, 4), (4, 3)]), (" ij , jk -> ki ", [(3, 4), (4, 2)]),
]


@pytest.mark.parametrize("subscripts, shapes", EINSUM, ids=[e[0].replace(" ", "_") for e in EINSUM])
@pytest.mark.parametrize("layout", params(["contiguous", "transposed", "negative"]))
def test_einsum_as_numpy(subscripts, shapes, layout):
    pairs = [make(layout if len(s) >= 2 or layout != "transposed" else "contiguous", s, "float64", seed=k)
             for k, s in enumerate(shapes)]
    got = xp.einsum(subscripts, *(a for a, _ in pairs))
    same(got, np.einsum(subscripts, *(n for _, n in pairs)))


def test_einsum_dtypes_numpy_operands_and_refusals():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    same(xp.einsum("ij,kj->ik", xp.asarray(a), a), np.einsum("ij,kj->ik", a, a))
    c = (np.arange(4) + 1j).reshape(2, 2)
    same(xp.einsum("ij,jk", xp.asarray(c), xp.asarray(c)), np.einsum("ij,jk", c, c))
    same(xp.einsum("ij,jk", xp.asarray(a, dtype=xp.float32), xp.ones((3, 2))),
         np.einsum("ij,jk", a.astype(np.float32), np.ones((3, 2))))
    with pytest.raises(ValueError, match="einsum"):
        xp.einsum("ij,jk", xp.ones((2, 3)), xp.ones((4, 2)))
    with pytest.raises(ValueError, match="einsum"):
        xp.einsum("ij->ij", xp.ones((2, 3)), xp.ones(3))
    with pytest.raises(ValueError, match="einsum"):
        xp.einsum("...ii->i", xp.ones((2, 3, 3)))  # NumPy refuses this too
    with pytest.raises(ValueError, match="einsum"):
        xp.einsum("ijk", xp.ones((2, 3)))
    with pytest.raises(TypeError, match="einsum"):
        xp.einsum(xp.ones(2), [0], xp.ones(2), [0])


def test_xarray_round_and_dot():
    xr = pytest.importorskip("xarray")
    n = np.linspace(0, 1, 12).reshape(3, 4)
    da = xr.DataArray(xp.asarray(n), dims=("x", "y"))
    got = da.round(1)
    assert isinstance(got.data, xp.Array)
    same(got.data, np.round(n, 1))
    d = da.dot(da)
    assert isinstance(d.data, xp.Array)
    same(d.data, np.einsum("xy,xy->", n, n))


# ---- the standard's next revision (item 4's small ones) --------------------------------

def test_reshape_copy_true_always_copies():
    for shape, new in (((2, 3), (3, 2)), ((0, 3), (3, 0)), ((0,), (0, 5))):
        x = xp.zeros(shape)
        y = xp.reshape(x, new, copy=True)
        assert y.shape == new and y._storage is not x._storage


def test_top_k_axis_none_and_info_devices():
    x = xp.asarray([[3.0, 1.0], [5.0, 2.0]])
    values, indices = xp.top_k(x, 2, axis=None)
    assert values.tolist() == [5.0, 3.0] and indices.tolist() == [2, 0]
    info = xp.__array_namespace_info__()
    for device in (None, xp.Device("cpu"), "cpu", x.device):
        assert info.dtypes(device=device) == info.dtypes()
        assert info.default_dtypes(device=device)["real floating"] == xp.float64
    with pytest.raises(ValueError, match="dtypes"):
        info.dtypes(device="gpu")


# ---- NumPy's functions clients reach through the namespace (peers' requests) -------------

@pytest.mark.parametrize("layout", params(["contiguous", "transposed", "negative", "mixed"], ndim=2))
def test_transpose_cumsum_nancumsum_gradient(layout):
    a, n = make(layout, (3, 4), "float64")
    same(xp.transpose(a), np.transpose(n))
    same(xp.transpose(a, (1, 0)), np.transpose(n, (1, 0)))
    for f in ("cumsum", "cumprod"):
        same(getattr(xp, f)(a), getattr(np, f)(n))
        same(getattr(xp, f)(a, 1), getattr(np, f)(n, 1))
    m = n.copy()
    m[1, 2] = np.nan
    for f in ("nancumsum", "nancumprod"):
        same(getattr(xp, f)(xp.asarray(m)), getattr(np, f)(m))
        same(getattr(xp, f)(xp.asarray(m), 0), getattr(np, f)(m, 0))
    coords = np.cumsum(np.linspace(0.5, 2.0, 4))
    for args, kw in [((), {}), ((2.0,), {}), ((0.5, 2.0), {}), ((), {"axis": 1}),
                     ((), {"edge_order": 2}), ((xp.asarray(coords),), {"axis": 1}),
                     ((xp.asarray(coords),), {"axis": 1, "edge_order": 2})]:
        got = xp.gradient(a, *args, **kw)
        want = np.gradient(n, *(np.asarray(v) if isinstance(v, xp.Array) else v for v in args), **kw)
        if isinstance(want, tuple):
            assert isinstance(got, tuple) and len(got) == len(want)
            for g, w in zip(got, want):
                same(g, w)
        else:
            same(got, want)
    same(xp.gradient(xp.arange(5) ** 2), np.gradient(np.arange(5) ** 2))


def test_conj_real_imag_argsort_methods():
    c = np.asarray([[1 + 2j, 3 - 1j], [0.5j, 2.0]])
    x = xp.asarray(c)
    same(x.conj(), c.conj())
    same(x.conjugate(), c.conjugate())
    same(x.real, c.real)
    same(x.imag, c.imag)
    x.real[0, 0] = 9.0  # a view, as NumPy's
    assert complex(x[0, 0]) == 9 + 2j
    r = np.asarray([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    y = xp.asarray(r)
    same(y.real, r.real)
    same(y.imag, r.imag)
    same(y.argsort(), r.argsort(kind="stable"))
    same(y.argsort(0), r.argsort(0, kind="stable"))
    same(y.argsort(None), r.argsort(None, kind="stable"))


def test_searchsorted_method():
    s = np.asarray([1.0, 2.0, 2.0, 5.0])
    x = xp.asarray(s)
    same(x.searchsorted(xp.asarray([2.0, 6.0])), s.searchsorted([2.0, 6.0]))
    same(x.searchsorted(xp.asarray([2.0]), "right"), s.searchsorted([2.0], "right"))
    same(x.searchsorted(xp.asarray(2.0), side="right"), s.searchsorted(2.0, side="right"))
    u = np.asarray([5.0, 1.0, 2.0])
    same(xp.asarray(u).searchsorted(xp.asarray([3.0]), sorter=xp.asarray(np.argsort(u))),
         u.searchsorted([3.0], sorter=np.argsort(u)))


def test_xarray_keeps_arrstride_data():
    xr = pytest.importorskip("xarray")
    n = np.linspace(0, 1, 12).reshape(3, 4)
    n[1, 1] = np.nan
    da = xr.DataArray(xp.asarray(n), dims=("x", "y"), coords={"x": [0.0, 1.0, 3.0]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = {
            "cumsum": (da.cumsum(), np.nancumsum(np.nancumsum(n, 0), 1)),  # over every dim "cumprod-y": (da.cumprod("y"), np.nancumprod(n, 1)),
            "cumsum-noskip": (da.cumsum(skipna=False), None), "conj": (da.conj(), n),
            "real": (da.real, n), "argsort": (da.argsort(), None),
            "differentiate": (da.differentiate("x"), np.gradient(n, [0.0, 1.0, 3.0], axis=0)),
        }
    for name, (got, want) in results.items():
        assert isinstance(got.data, xp.Array), name
        if want is not None:
            same(got.data, want)


def test_inplace_operators_cast_within_a_kind_as_numpy():
    """x += y keeps x's dtype when NumPy's same_kind rule allows the cast back
    (PyTorch allows it too): SciPy's nsum counts int32 evaluations this way."""
    for xd, yd in [("int32", "int64"), ("float32", "float64"), ("int16", "uint8"),
                   ("complex64", "complex128"), ("float64", "int64"), ("int8", "bool")]:
        for layout in ("contiguous", "transposed", "negative"):
            a, n = make(layout, (3, 4), xd)
            y = np.arange(1, 5).astype(yd)
            a += xp.asarray(y)
            n += y
            same(a, n)
            a *= xp.asarray(y[:1])
            n *= y[:1]
            same(a, n)
    for xd, yd in [("int32", "float64"), ("uint8", "int64"), ("bool", "int8"), ("float64", "complex128")]:
        x = xp.ones(3, dtype=getattr(xp, xd))
        with pytest.raises(TypeError, match="same_kind"):
            x += xp.ones(3, dtype=getattr(xp, yd))
        with pytest.raises(Exception):  # NumPy refuses these too
            v = np.ones(3, dtype=xd)
            v += np.ones(3, dtype=yd)


def test_flags_writeable_can_be_set_as_numpy():
    x = xp.ones(3)
    view = x[:2]
    x.flags.writeable = False
    assert not x.flags.writeable and view.flags.writeable  # this array only, as NumPy
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 2.0
    x.flags.writeable = True
    x[0] = 2.0
    assert x.tolist() == [2.0, 1.0, 1.0]
    b = xp.broadcast_to(x, (2, 3))
    b.flags.writeable = False  # always allowed
    with pytest.raises(ValueError, match="read-only"):
        b.flags.writeable = True  # memory that is read-only itself
    n = np.frombuffer(b"\x00" * 8)  # NumPy refuses it over read-only memory too
    with pytest.raises(ValueError):
        n.flags.writeable = True


def test_numpy_and_scipy_ufuncs_return_arrstride_arrays():
    """As NumPy ufuncs return tensors for PyTorch tensors (the rule)."""
    special = pytest.importorskip("scipy.special")
    a, n = make("transposed", (3, 4), "float64")
    for f in (np.sqrt, np.sin, np.abs, special.erf):
        with np.errstate(all="ignore"):
            got = f(a)
            want = f(n)
        assert type(got) is xp.Array
        same(got, want)
    got = np.sqrt(xp.asarray(4.0))
    assert type(got) is xp.Array and got.ndim == 0 and float(got) == 2.0
    out = xp.empty((3, 4))
    assert np.sin(a, out=out) is out
    same(out, np.sin(n))
