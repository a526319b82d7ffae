"""NumPy's functions that PyTorch has too: every one is in arrstride (the
names computed from the installed NumPy and PyTorch, or from the snapshot in
docs/numpy_names.py without PyTorch), and each gives NumPy's result over dtypes
and layouts."""
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import arrstride as xp
from conftest import assert_same, to_numpy
from layouts import REAL_NAMES, DTYPE_NAMES, NUMERIC_NAMES, cases, make, params

# ---- the names -------------------------------------------------------------------------

# The lists (snapshot, names not offered with their reasons, aliases) and the
# computation from NumPy and PyTorch live in docs/numpy_names.py, which also
# writes the guide's page "From NumPy and PyTorch" from them.
DOCS = Path(__file__).resolve().parent.parent / "docs"
if not (DOCS / "numpy_names.py").is_file():
    pytest.skip("docs/ is not here (an installed package's tests): the name lists live there",
                allow_module_level=True)
sys.path.insert(0, str(DOCS))
from numpy_names import ALIASES, BOTH_SUB, BOTH_TOP, NOT_OFFERED, wanted  # noqa: E402


def test_numpy_and_torch_names_are_in_arrstride():
    missing = []
    for sub, names in wanted().items():
        mod = getattr(xp, sub) if sub else xp
        skip = set(NOT_OFFERED) if not sub else set()
        missing += [f"{sub + '.' if sub else ''}{n}" for n in sorted(names - skip)
                    if not hasattr(mod, n)]
    print("missing:", missing)
    assert missing == []


def test_every_expected_name_is_public():
    for n in BOTH_TOP:
        if n not in NOT_OFFERED:
            assert n in xp.__all__, n
    for sub, names in BOTH_SUB.items():
        assert set(names) <= set(getattr(xp, sub).__all__)


def test_snapshot_names_are_in_numpy_and_torch():
    """The snapshot the guide's page lists is true of the installed NumPy and PyTorch."""
    pytest.importorskip("torch", reason="PyTorch not installed (the [torch] extra)")
    live = wanted()
    assert set(BOTH_TOP) <= live[""], sorted(set(BOTH_TOP) - live[""])
    for sub, names in BOTH_SUB.items():
        assert set(names) <= live[sub], sorted(set(names) - live[sub])


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_aliases_are_the_standard_functions(alias):
    assert getattr(xp, alias) is getattr(xp, ALIASES[alias])


# ---- comparing with NumPy --------------------------------------------------------------

def _np_of(v):
    if isinstance(v, xp.Array):
        return to_numpy(v)
    if isinstance(v, (tuple, list)):
        return type(v)(_np_of(u) for u in v)
    return v


def _compare(got, want, exact=True, rtol=1e-12, atol=0.0):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want)
        for g, w in zip(got, want):
            _compare(g, w, exact, rtol, atol)
        return
    if not isinstance(got, xp.Array) and isinstance(want, (bool, int, float, np.generic)):
        assert got == want or (want != want and got != got), (got, want)
        return
    want = np.asarray(want)
    if exact:
        assert_same(got, want)
        return
    assert isinstance(got, xp.Array)
    g = to_numpy(got)
    assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, g.dtype, want.shape, want.dtype)
    np.testing.assert_allclose(g, want, rtol=rtol, atol=atol, equal_nan=True)


def same_outcome(f_xp, f_np, *args, exact=True, rtol=1e-12, atol=0.0, **kwargs):
    """f_xp(*args) equals f_np(*NumPy args), or both refuse the input (arrstride
    with TypeError, ValueError or IndexError)."""
    nargs = [_np_of(a) for a in args]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            want = f_np(*nargs, **kwargs)
        except (TypeError, ValueError, IndexError) as e:
            with pytest.raises((TypeError, ValueError, IndexError)):
                f_xp(*args, **kwargs)
            return e
        got = f_xp(*args, **kwargs)
    _compare(got, want, exact, rtol, atol)
    return None


UNARY_EXACT = ["fix", "isneginf", "isposinf", "isreal", "nan_to_num", "deg2rad", "rad2deg"]
UNARY_CLOSE = ["exp2", "sinc", "i0", "angle"]


@pytest.mark.parametrize("layout", params())
@pytest.mark.parametrize("name", UNARY_EXACT + UNARY_CLOSE)
def test_unary(name, layout):
    for dtype in DTYPE_NAMES:
        a, n = make(layout, (3, 4), dtype)
        if dtype in ("float32", "float64"):
            a, n = make(layout, (3, 4), dtype, values=lambda s, d, seed: np.asarray(
                np.resize(np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.5, -2.5, 90.0]), s), d))
        exact = name in UNARY_EXACT
        rtol = 1e-3 if dtype in ("float32", "complex64") or (
            dtype in ("bool", "int8", "uint8", "int16", "uint16") and name != "i0") else 1e-13
        same_outcome(getattr(xp, name), getattr(np, name), a, exact=exact, rtol=rtol)


def test_nan_to_num_options_and_in_place():
    v = np.array([np.nan, np.inf, -np.inf, 1.0, complex(np.nan, np.inf)], dtype=np.complex128)
    same_outcome(xp.nan_to_num, np.nan_to_num, xp.asarray(v), nan=1.0, posinf=2.0, neginf=-3.0)
    a = xp.asarray([np.nan, 2.0])
    assert xp.nan_to_num(a, copy=False) is a
    assert a.tolist() == [0.0, 2.0]


BINARY_EXACT = ["fmax", "fmin", "heaviside", "gcd", "lcm"]
BINARY_CLOSE = ["fmod", "logaddexp2", "float_power"]


@pytest.mark.parametrize("layout", params(ndim=2))
@pytest.mark.parametrize("name", BINARY_EXACT + BINARY_CLOSE)
def test_binary(name, layout):
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.5, -2.5, 3.0, 7.25, -7.0])
    for dtype in DTYPE_NAMES:
        if dtype in ("float32", "float64"):
            vals = [lambda s, d, seed, k=k: np.asarray(np.resize(np.roll(special, k), s), d)
                    for k in (0, 3)]
        else:
            vals = [None, None]
        a, n = make(layout, (3, 4), dtype, seed=1, values=vals[0])
        b, _ = make("contiguous", (3, 4), dtype, seed=2, values=vals[1])
        close = name in BINARY_CLOSE
        rtol = 1e-5 if dtype in ("float32", "complex64") else 1e-12
        if name == "float_power" and dtype in ("int8", "int16", "int32", "int64"):
            b = xp.abs(b)  # NumPy refuses negative integer powers of integers only in power
        same_outcome(getattr(xp, name), getattr(np, name), a, b, exact=not close, rtol=rtol)
        same_outcome(getattr(xp, name), getattr(np, name), a, b[0], exact=not close, rtol=rtol)


def test_fmod_and_ldexp_frexp_values():
    r = np.random.default_rng(0)
    x = r.standard_normal(1000) * 1e3
    y = r.standard_normal(1000) * 10
    same_outcome(xp.fmod, np.fmod, xp.asarray(x), xp.asarray(y), exact=False, rtol=1e-9, atol=1e-9)
    i = r.integers(-100, 100, 1000)
    j = r.integers(-7, 7, 1000)
    same_outcome(xp.fmod, np.fmod, xp.asarray(i), xp.asarray(j))
    for dtype in ("float32", "float64"):
        v = np.concatenate([x, [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 0.5, 2.0 ** -1074,
                                2.0 ** 1023, 5e-324, 1e-310]]).astype(dtype)
        same_outcome(xp.frexp, np.frexp, xp.asarray(v))
        e = r.integers(-60, 60, v.size).astype(np.int32)
        same_outcome(xp.ldexp, np.ldexp, xp.asarray(v), xp.asarray(e))
    same_outcome(xp.ldexp, np.ldexp, xp.asarray([1.0, 3.0]), xp.asarray([1030, -1070]))
    with pytest.raises(TypeError, match="ldexp"):
        xp.ldexp(xp.asarray([1.0]), xp.asarray([1.5]))
    with pytest.raises(TypeError, match="gcd"):
        xp.gcd(xp.asarray([1.0]), 2)


@pytest.mark.parametrize("layout", params(ndim=2))
def test_isclose_allclose(layout):
    for dtype in NUMERIC_NAMES + ["bool"]:
        a, n = make(layout, (3, 4), dtype)
        b = xp.asarray(n + (n.dtype.kind in "fc") * 1e-7) if dtype != "bool" else xp.asarray(n)
        for kw in ({}, {"rtol": 0.0, "atol": 1e-9}, {"equal_nan": True}):
            same_outcome(xp.isclose, np.isclose, a, b, **kw)
            same_outcome(xp.allclose, np.allclose, a, b, **kw)
    v = np.array([np.nan, np.inf, -np.inf, 1.0])
    w = np.array([np.nan, np.inf, np.inf, 1.0 + 1e-6])
    for kw in ({}, {"equal_nan": True}):
        same_outcome(xp.isclose, np.isclose, xp.asarray(v), xp.asarray(w), **kw)


def test_trapezoid():
    for layout in params(ndim=2):
        a, n = make(layout.values[0], (3, 4), "float64")
        if a.ndim == 0:
            continue
        same_outcome(xp.trapezoid, np.trapezoid, a, exact=False)
        same_outcome(xp.trapezoid, np.trapezoid, a, axis=0, dx=0.5, exact=False)
        x = np.arange(a.shape[-1], dtype=np.float64) ** 2
        same_outcome(xp.trapezoid, np.trapezoid, a, xp.asarray(x), exact=False)
    same_outcome(xp.trapezoid, np.trapezoid, xp.asarray([1, 2, 4]), exact=False)


# ---- shape and assembly ----------------------------------------------------------------

@pytest.mark.parametrize("layout", params())
def test_views_of_one_array(layout):
    for dtype in ("bool", "int32", "float64", "complex64"):
        a, n = make(layout, (3, 4), dtype)
        for name in ("atleast_1d", "atleast_2d", "atleast_3d", "ravel", "fliplr", "flipud",
                     "diagflat"):
            same_outcome(getattr(xp, name), getattr(np, name), a)
        same_outcome(xp.ravel, np.ravel, a, "F")
        same_outcome(xp.swapaxes, np.swapaxes, a, 0, -1)
        for k in (-1, 0, 1, 2, 3, 5):
            same_outcome(xp.rot90, np.rot90, a, k)
        same_outcome(xp.rot90, np.rot90, a, 1, (1, 0))
        same_outcome(xp.diagflat, np.diagflat, a, 2)
        same_outcome(xp.argwhere, np.argwhere, a)


def test_atleast_several_and_views():
    a = xp.asarray([[1, 2], [3, 4]])
    got = xp.atleast_3d(a, xp.asarray(1.0))
    want = np.atleast_3d(np.asarray([[1, 2], [3, 4]]), np.asarray(1.0))
    _compare(got, want)
    v = xp.swapaxes(a, 0, 1)
    assert v.storage.ptr == a.storage.ptr
    assert xp.ravel(a).storage.ptr == a.storage.ptr
    assert xp.rot90(a).storage.ptr == a.storage.ptr


@pytest.mark.parametrize("layout", params(ndim=2))
def test_stacking(layout):
    for dtype in ("bool", "int8", "float32", "complex128"):
        a, n = make(layout, (3, 4), dtype)
        b, _ = make("contiguous", (3, 4), dtype, seed=3)
        c, _ = make("contiguous", (4,), "int64", seed=4)
        for name in ("vstack", "hstack", "dstack", "column_stack"):
            same_outcome(getattr(xp, name), getattr(np, name), [a, b])
            if a.ndim:
                same_outcome(getattr(xp, name), getattr(np, name), [a[0], b[0], c])
            same_outcome(getattr(xp, name), getattr(np, name), [a, c])
        same_outcome(xp.vstack, np.vstack, [a, b], dtype=xp.float64) if dtype != "complex128" else None


def test_stacking_errors():
    for name in ("vstack", "hstack", "dstack", "column_stack"):
        with pytest.raises(ValueError, match=name):
            getattr(xp, name)([])
        with pytest.raises(TypeError, match=name):
            getattr(xp, name)(xp.asarray([1, 2]))


@pytest.mark.parametrize("layout", params(ndim=3))
def test_split_family(layout):
    a, n = make(layout, (4, 6, 2), "float64")
    for ios in (1, 2, [1, 3], [0, 5, 9], []):
        for axis in (0, 1, -1):
            same_outcome(xp.split, np.split, a, ios, axis)
    for ios in (2, [1]):
        same_outcome(xp.hsplit, np.hsplit, a, ios)
        same_outcome(xp.vsplit, np.vsplit, a, ios)
        same_outcome(xp.dsplit, np.dsplit, a, ios)
    same_outcome(xp.split, np.split, a, 3, 0)    # unequal division: both refuse
    if a.ndim == 3:
        same_outcome(xp.hsplit, np.hsplit, a[0, 0], 2)
        same_outcome(xp.vsplit, np.vsplit, a[0, 0], 2)
        same_outcome(xp.dsplit, np.dsplit, a[0], 2)
    parts = xp.split(a, [1]) if a.ndim else []
    if a.size:
        assert all(p.storage.ptr == a.storage.ptr for p in parts)


def test_tri_indices_unravel_vander():
    for n_, k, m in ((3, 0, None), (4, 1, 2), (4, -2, 5), (0, 0, None)):
        same_outcome(xp.tril_indices, np.tril_indices, n_, k, m)
        same_outcome(xp.triu_indices, np.triu_indices, n_, k, m)
    for layout in params(ndim=1):
        a, n = make(layout.values[0], (5,), "int64", values=lambda s, d, seed: np.resize(
            np.array([0, 7, 23, 3, 11], dtype=d), s))
        same_outcome(xp.unravel_index, np.unravel_index, a, (4, 6))
        same_outcome(xp.unravel_index, np.unravel_index, a, (4, 6), "F")
        same_outcome(xp.unravel_index, np.unravel_index, a, (2, 3))   # out of bounds: refused
        for dtype in ("bool", "int8", "uint8", "int32", "float32", "float64", "complex128"):
            v, _ = make(layout.values[0], (5,), dtype)
            for N in (None, 0, 1, 3):
                for inc in (False, True):
                    same_outcome(xp.vander, np.vander, v, N, inc)
    same_outcome(xp.unravel_index, np.unravel_index, xp.asarray([1.0]), (2, 3))
    same_outcome(xp.vander, np.vander, xp.ones((2, 2)))


@pytest.mark.parametrize("layout", [p for p in params() if p.values[0] != "broadcast"])
def test_put(layout):
    for mode in ("raise", "wrap", "clip"):
        from layouts import make_with_base
        a, n, abase, nbase = make_with_base(layout, (3, 4), "float64")
        ind, vals = [0, -1, 5, 5, 13], [1.0, 2.0]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                np.put(n, ind, vals, mode=mode)
            except IndexError:
                with pytest.raises(IndexError, match="put"):
                    xp.put(a, ind, vals, mode=mode)
                continue
        if a.size == 0:
            continue
        assert xp.put(a, xp.asarray(ind), xp.asarray(vals), mode=mode) is None
        assert_same(a, n)
        assert_same(abase, nbase)
    with pytest.raises(ValueError, match="put"):
        xp.put(xp.zeros(3), [0], [1.0], mode="bad")


def test_select():
    x = np.arange(12).reshape(3, 4)
    a = xp.asarray(x)
    same_outcome(xp.select, np.select, [a < 3, a > 8], [a, a ** 2], -1)
    same_outcome(xp.select, np.select, [a < 3, a > 8], [a, 2.5])
    same_outcome(xp.select, np.select, [a < 3], [a, a])
    same_outcome(xp.select, np.select, [a], [a])   # a condition that is not bool: refused
    same_outcome(xp.select, np.select, [], [])


@pytest.mark.parametrize("dtype", REAL_NAMES)
def test_unique(dtype):
    for name, a, n in cases((4, 5), dtype):
        for flags in ((False, False, False), (True, True, True), (False, True, False)):
            same_outcome(xp.unique, np.unique, a, *flags)
    v = np.array([np.nan, 1.0, np.nan, 0.0, 1.0])
    same_outcome(xp.unique, np.unique, xp.asarray(v), True, True, True)
    same_outcome(xp.unique, np.unique, xp.asarray(v), equal_nan=False)
    same_outcome(xp.unique, np.unique, xp.asarray([[1, 2], [1, 2]]), axis=0)  # tests/test_unique_axis.py


@pytest.mark.parametrize("layout", params())
def test_partition(layout):
    for dtype in REAL_NAMES:
        a, n = make(layout, (3, 7) if layout not in ("empty", "empty-stepped") else (3, 0), dtype)
        if n.ndim == 0:
            same_outcome(xp.partition, np.partition, a, 0)
            continue
        length = n.shape[-1]
        for kth in ([0, length - 1, length // 2, [1, -2]] if length >= 2 else []):
            p = to_numpy(xp.partition(a, kth))
            idx = to_numpy(xp.argpartition(a, kth))
            for k in (kth if isinstance(kth, list) else [kth]):
                want = np.partition(n, kth)[..., k]
                np.testing.assert_array_equal(p[..., k], want)
                np.testing.assert_array_equal(np.take_along_axis(n, idx, -1)[..., k], want)
            assert (np.sort(p, axis=-1) == np.sort(n, axis=-1)).all() or dtype.startswith("float")
        same_outcome(xp.partition, np.partition, a, length)   # out of bounds: refused
    same_outcome(xp.partition, np.partition, xp.asarray([[3, 1], [2, 0]]), 1, None)


def test_promote_types():
    names = ["bool", "int8", "uint8", "int16", "int64", "uint64", "float32", "float64",
             "complex64"]
    for t1 in names:
        for t2 in names:
            assert xp.promote_types(t1, t2) == np.promote_types(t1, t2).name, (t1, t2)
    assert xp.promote_types(xp.int32, float) == xp.float64
    with pytest.raises(TypeError, match="promote_types"):
        xp.promote_types("nope", xp.int8)


# ---- products --------------------------------------------------------------------------

PRODUCT_SHAPES = [((), (3,)), ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((2, 3), (3, 4)),
                  ((2, 2, 3), (4, 3, 5)), ((2, 3), (4,))]


@pytest.mark.parametrize("layout", params(ndim=2))
def test_products(layout):
    for dtype in ("int32", "float64", "complex128", "bool", "float32"):
        for sa, sb in PRODUCT_SHAPES:
            a, _ = make(layout if len(sa) == 2 else "contiguous", sa, dtype, seed=1)
            b, _ = make("contiguous", sb, dtype, seed=2)
            for name in ("dot", "inner", "outer", "kron"):
                same_outcome(getattr(xp, name), getattr(np, name), a, b, exact=False, rtol=1e-5)
            if a.size == b.size:
                same_outcome(xp.vdot, np.vdot, a, b, exact=False, rtol=1e-5)


def test_cross_and_trace():
    r = np.random.default_rng(0)
    for sa, sb, kw in [((4, 3), (3,), {}), ((3,), (3,), {}), ((2,), (2,), {}),
                       ((5, 2), (5, 3), {}), ((3, 4), (4, 3), {"axisa": 0, "axisc": 0}),
                       ((3, 4), (3, 4), {"axis": 0}), ((4,), (3,), {})]:
        for dtype in ("int64", "float64", "complex128"):
            a = r.standard_normal(sa).astype(dtype) if dtype != "int64" else r.integers(-9, 9, sa)
            b = r.standard_normal(sb).astype(dtype) if dtype != "int64" else r.integers(-9, 9, sb)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                same_outcome(xp.cross, np.cross, xp.asarray(a), xp.asarray(b), exact=False, **kw)
    for layout in params(ndim=3):
        for dtype in ("int8", "float32", "complex64", "bool"):
            a, n = make(layout.values[0], (3, 4, 5), dtype)
            for args in ((), (1,), (-1, 0, 2), (0, 2, 1), (0, 1, 1)):
                same_outcome(xp.trace, np.trace, a, *args, exact=dtype != "float32", rtol=1e-5)
            same_outcome(xp.trace, np.trace, a, dtype=xp.float64, exact=False)


# ---- statistics -------------------------------------------------------------------------

@pytest.mark.parametrize("layout", params(ndim=1))
def test_bincount(layout):
    for dtype in ("bool", "int8", "uint8", "int32", "int64", "uint32", "uint64", "float64"):
        a, n = make(layout, (9,), dtype, values=lambda s, d, seed: np.resize(
            np.array([3, 0, 1, 1, 7, 2], dtype=d), s))
        same_outcome(xp.bincount, np.bincount, a)
        same_outcome(xp.bincount, np.bincount, a, minlength=12)
        w, _ = make(layout, (9,), "float32")
        if w.shape == a.shape:
            same_outcome(xp.bincount, np.bincount, a, w)
    same_outcome(xp.bincount, np.bincount, xp.asarray([1, -1]))
    same_outcome(xp.bincount, np.bincount, xp.asarray([[1]]))
    same_outcome(xp.bincount, np.bincount, xp.asarray([1]), minlength=-1)
    same_outcome(xp.bincount, np.bincount, xp.asarray([1, 2]), xp.asarray([1.0]))
    big = np.random.default_rng(0).integers(0, 1000, 100_000)
    same_outcome(xp.bincount, np.bincount, xp.asarray(big))


@pytest.mark.parametrize("layout", params(ndim=2))
def test_histogram(layout):
    special = np.array([0.0, 1.0, np.nan, 2.5, -3.0, 0.1, 0.2, 0.30000000000000004, 7.0])
    for dtype in ("int8", "uint16", "int64", "float32", "float64", "bool"):
        a, n = make(layout, (3, 4), dtype)
        for kw in ({}, {"bins": 3}, {"bins": 7, "range": (-1.0, 2.0)}, {"density": True},
                   {"bins": [-5.0, 0.0, 0.5, 10.0]}, {"bins": 1}):
            same_outcome(xp.histogram, np.histogram, a, exact=not kw.get("density"), **kw)
            w, _ = make("contiguous", (3, 4), "float64", seed=5)
            if w.shape == a.shape:
                same_outcome(xp.histogram, np.histogram, a, weights=w, exact=False, **kw)
    v = xp.asarray(np.resize(special, 40))
    same_outcome(xp.histogram, np.histogram, v, range=(0.0, 1.0), bins=10)
    r = np.random.default_rng(1).standard_normal(100_000)
    same_outcome(xp.histogram, np.histogram, xp.asarray(r), bins=100)
    same_outcome(xp.histogram, np.histogram, xp.asarray(r.astype(np.float32)), bins=33)
    same_outcome(xp.histogram, np.histogram, xp.asarray([1.0, np.nan]))   # NaN in range: refused
    same_outcome(xp.histogram, np.histogram, xp.asarray([1.0]), bins=0)
    same_outcome(xp.histogram, np.histogram, xp.asarray([1.0]), bins=[2.0, 1.0])
    same_outcome(xp.histogram, np.histogram, xp.asarray([1.0]), range=(2.0, 1.0))
    with pytest.raises(ValueError, match="histogram.*estimator"):
        xp.histogram(xp.asarray([1.0]), bins="nope")


def test_histogramdd():
    r = np.random.default_rng(2)
    pts = r.standard_normal((200, 3))
    for kw in ({}, {"bins": 4}, {"bins": (2, 3, 4)}, {"range": [(-1, 1), None, (0, 2)]},
               {"density": True}, {"bins": [np.array([-2.0, 0.0, 2.0]), 3, 2]}):
        same_outcome(xp.histogramdd, np.histogramdd, xp.asarray(pts), exact=False, **kw)
    same_outcome(xp.histogramdd, np.histogramdd, xp.asarray(pts[:, 0]), exact=False)
    w = r.random(200)
    same_outcome(xp.histogramdd, np.histogramdd, xp.asarray(pts), weights=xp.asarray(w),
                 exact=False)
    same_outcome(xp.histogramdd, np.histogramdd, xp.asarray(pts), bins=(2, 3))


@pytest.mark.parametrize("layout", params(ndim=2))
def test_cov_corrcoef(layout):
    for dtype in ("int32", "float32", "float64", "complex128", "bool"):
        a, n = make(layout, (3, 6), dtype)
        for kw in ({}, {"rowvar": False}, {"bias": True}, {"ddof": 0}, {"ddof": 2}):
            same_outcome(xp.cov, np.cov, a, exact=False, rtol=1e-5, atol=1e-12, **kw)
        same_outcome(xp.corrcoef, np.corrcoef, a, exact=False, rtol=1e-5, atol=1e-12)
        if a.ndim and a.shape[-1]:
            b, _ = make("contiguous", (a.shape[-1],), dtype, seed=7)
            same_outcome(xp.cov, np.cov, a, b, exact=False, rtol=1e-5, atol=1e-12)
    r = np.random.default_rng(3)
    m = r.standard_normal((4, 10))
    fw = r.integers(0, 4, 10)
    aw = r.random(10)
    for kw in ({"fweights": fw}, {"aweights": aw}, {"fweights": fw, "aweights": aw, "ddof": 0}):
        same_outcome(xp.cov, np.cov, xp.asarray(m), exact=False, rtol=1e-10,
                     **{k: xp.asarray(v) if isinstance(v, np.ndarray) else v
                        for k, v in kw.items()})
    same_outcome(xp.cov, np.cov, xp.asarray(m[0]), exact=False)
    same_outcome(xp.cov, np.cov, xp.asarray(m), dtype=xp.float32, exact=False, rtol=1e-5)
    same_outcome(xp.cov, np.cov, xp.ones((2, 2, 2)))
    with pytest.raises(ValueError, match="cov"):
        xp.cov(xp.asarray(m), fweights=xp.asarray(-fw - 1))


# ---- linalg and fft ------------------------------------------------------------------------

def test_linalg_additions():
    r = np.random.default_rng(4)
    L, nL = xp.linalg, np.linalg
    for dtype in ("float64", "float32", "complex128", "int64"):
        m = (r.standard_normal((3, 4, 5)) * 3).astype(dtype)
        a = xp.asarray(m)
        rtol = 1e-4 if dtype == "float32" else 1e-10
        for o in (None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
            same_outcome(L.norm, nL.norm, a, o, (0, 2), exact=False, rtol=rtol)
            same_outcome(L.norm, nL.norm, a[0], o, exact=False, rtol=rtol)
            same_outcome(L.norm, nL.norm, a, o, (1, 0), True, exact=False, rtol=rtol)
        for o in (None, 0, 1, -1, 2, 3.5, np.inf, -np.inf):
            same_outcome(L.norm, nL.norm, a, o, 1, exact=False, rtol=rtol)
            same_outcome(L.norm, nL.norm, a[0, 0], o, exact=False, rtol=rtol)
        same_outcome(L.norm, nL.norm, a, exact=False, rtol=rtol)
        same_outcome(L.norm, nL.norm, a, "fro", exact=False, rtol=rtol)   # 3-D: refused
        sq = (r.standard_normal((2, 4, 4)) * 5).astype(dtype)
        for p in (None, 1, -1, 2, -2, np.inf, "fro", "nuc"):
            same_outcome(L.cond, nL.cond, xp.asarray(sq), p, exact=False, rtol=1e-4)
    for shape_a, shape_b in (((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 5), (3,)), ((4, 4), (4, 1))):
        a, b = r.standard_normal(shape_a), r.standard_normal(shape_b)
        same_outcome(L.lstsq, nL.lstsq, xp.asarray(a), xp.asarray(b), exact=False, rtol=1e-8,
                     atol=1e-12)
    rank_def = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    same_outcome(L.lstsq, nL.lstsq, xp.asarray(rank_def), xp.asarray([1.0, 2.0, 3.0]),
                 exact=False, rtol=1e-8, atol=1e-12)
    same_outcome(L.lstsq, nL.lstsq, xp.ones((3, 2)), xp.ones((4,)))
    for shapes in ([(3, 4), (4, 5)], [(4,), (4, 5), (5, 2)], [(3, 4), (4, 5), (5, 2), (2,)],
                   [(2, 9), (9, 3), (3, 8), (8, 2), (2, 7)], [(4,), (4,)]):
        arrs = [r.standard_normal(s) for s in shapes]
        same_outcome(L.multi_dot, nL.multi_dot, [xp.asarray(q) for q in arrs], exact=False,
                     rtol=1e-10)
    same_outcome(L.multi_dot, nL.multi_dot, [xp.ones((2, 2))])
    same_outcome(L.multi_dot, nL.multi_dot, [xp.ones((2, 2)), xp.ones((2, 2, 2)), xp.ones((2, 2))])
    a = r.standard_normal((6, 6)).reshape(6, 2, 3)
    same_outcome(L.tensorinv, nL.tensorinv, xp.asarray(a), 1, exact=False, rtol=1e-8)
    a = r.standard_normal((4, 6)).reshape(4, 2, 3)
    same_outcome(L.tensorinv, nL.tensorinv, xp.asarray(a), 1)   # not square: refused
    a = r.standard_normal((6, 6)).reshape(2, 3, 6)
    b = r.standard_normal((2, 3))
    same_outcome(L.tensorsolve, nL.tensorsolve, xp.asarray(a), xp.asarray(b), exact=False, rtol=1e-8)
    a = r.standard_normal((6, 2, 3))
    same_outcome(L.tensorsolve, nL.tensorsolve, xp.asarray(a), xp.asarray(r.standard_normal(6)),
                 exact=False, rtol=1e-8)


@pytest.mark.parametrize("layout", params(ndim=3))
@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2"])
def test_fft2(name, layout):
    for dtype in ("float32", "float64", "complex128"):
        if name == "rfft2" and dtype.startswith("complex"):
            continue
        a, n = make(layout, (3, 4, 6), dtype)
        if a.size == 0 or a.ndim < 2:
            continue
        rtol = 1e-4 if dtype == "float32" else 1e-10
        f, g = getattr(xp.fft, name), getattr(np.fft, name)
        same_outcome(f, g, a, exact=False, rtol=rtol, atol=1e-5 if dtype == "float32" else 1e-12)
        same_outcome(f, g, a, s=(2, 4), axes=(0, 2), exact=False, rtol=rtol,
                     atol=1e-5 if dtype == "float32" else 1e-12)
        same_outcome(f, g, a, norm="ortho", exact=False, rtol=rtol,
                     atol=1e-5 if dtype == "float32" else 1e-12)


@pytest.mark.parametrize("layout", params())
@pytest.mark.parametrize("name", ["deg2rad", "rad2deg"])
def test_angle_conversions_of_narrow_floats_round_once(name, layout):
    # float16 as NumPy: every value times the float32 constant, rounded once;
    # bfloat16 the same way through float32 (PyTorch's rule for bfloat16)
    every = np.arange(1 << 16, dtype=np.uint16)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(every.view(np.float16))
    got = np.asarray(getattr(xp, name)(xp.asarray(every.view(np.float16))))
    both_nan = np.isnan(got) & np.isnan(want)
    assert np.array_equal(got.view(np.uint16)[~both_nan], want.view(np.uint16)[~both_nan])
    a, n = make(layout, (3, 4), "float32")
    for d in (xp.float16, xp.bfloat16):
        x = xp.astype(a, d)
        got = getattr(xp, name)(x)
        assert got.dtype == d and got.shape == x.shape
        with np.errstate(all="ignore"):
            c = getattr(np, name)(np.float32(1.0))  # the float32 constant
            w32 = np.asarray(xp.astype(x, xp.float32)) * c
        want = xp.astype(xp.asarray(w32), d)
        assert np.array_equal(np.asarray(xp.astype(got, xp.float32)),
                              np.asarray(xp.astype(want, xp.float32)), equal_nan=True)
