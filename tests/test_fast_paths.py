"""Fast paths against the general ones and NumPy: pow with one exponent for
every element (x ** 2, x ** 0.5, ...), matmul through gemv, dot and syrk.
Every case runs over the layouts of a view (contiguous, transposed, stepped,
negative strides, stride 0, offset, empty, 0-d), in place too for pow."""
import warnings

import numpy as np
import pytest

import arrstride as xp
from conftest import to_numpy
from layouts import CORE, from_numpy, make, params, view_of, views

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float32", "float64"]
COMPLEX = ["complex64", "complex128"]
INT_EXPS = [0, 1, 2, 3, 4]
FLOAT_EXPS = [0, 1, 2, 3, 4, 0.5, -1, -2, -0.0, 1.5, 5]  # the last two: the general pow
COMPLEX_EXPS = [0, 1, 2, 3, 4, -1, -2, 0.5, 2j]

_F_SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.5, -2.5, 0.1, -3.0,
              1e-300, -1e-300, 1e300, 1e-160, 1e160, 1e-155, 1e154, 5e-324, 3e38, 1e-40,
              7.0, 65537.0, -1e-20]
_C_PARTS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -2.0, 0.5, 3.0, 1e200]

SHAPE = (4, 6)
LAYOUTS = CORE


def _base_values(dtype: str, size: int) -> np.ndarray:
    nd = np.dtype(dtype)
    if nd.kind == "f":
        vals = np.array(_F_SPECIAL, dtype=np.float64)
        with np.errstate(over="ignore", under="ignore"):
            vals = vals.astype(nd)
    elif nd.kind == "c":
        vals = np.array([complex(a, b) for a in _C_PARTS for b in _C_PARTS])
        with np.errstate(over="ignore"):
            vals = vals.astype(nd)
    else:
        info = np.iinfo(nd)
        cand = [0, 1, 2, 3, 5, 7, 11, 100, 255, 256, 1000, 65535, 2**31 - 1, 2**40 + 3,
                info.max, info.max - 1, -1, -2, -3, -7, -100, -128, info.min, info.min + 1]
        vals = np.array([v for v in cand if info.min <= v <= info.max], dtype=nd)
    return np.resize(vals, size)


def _special(shape, dtype, seed):
    """Special values of dtype, rolled by seed, in the given shape."""
    size = int(np.prod(shape))
    return np.roll(_base_values(dtype, 200), seed)[:size].reshape(shape)


def _views(dtype: str, layout: str, seed: int = 0):
    """(arrstride view, NumPy view) of special values in the named layout."""
    return make(layout, SHAPE, dtype, seed, values=_special)


def _same_special(got: np.ndarray, want: np.ndarray) -> None:
    """NaN, infinities and zeros (with their signs, real numbers only) in the same places."""
    for part in ((np.real, np.imag) if got.dtype.kind == "c" else (lambda v: v,)):
        g, w = part(got), part(want)
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
        np.testing.assert_array_equal(np.isposinf(g), np.isposinf(w))
        np.testing.assert_array_equal(np.isneginf(g), np.isneginf(w))
        np.testing.assert_array_equal(g == 0, w == 0)
        if got.dtype.kind == "f":
            zero = w == 0
            np.testing.assert_array_equal(np.signbit(g[zero]), np.signbit(w[zero]))


def _within_ulps(got: np.ndarray, want: np.ndarray, ulps: int) -> None:
    _same_special(got, want)
    for part in ((np.real, np.imag) if got.dtype.kind == "c" else (lambda v: v,)):
        g, w = part(got), part(want)
        fin = np.isfinite(w)
        tol = ulps * np.spacing(np.abs(w[fin]))
        assert np.all(np.abs(g[fin] - w[fin]) <= tol), (g[fin], w[fin])


def _general_pow(x, e):
    """pow through the general loop: the exponent as a full array (no stride 0)."""
    full = xp.full(x.shape, e, dtype=xp.result_type(x, e))
    if full.ndim == 0:
        # a 0-d operand broadcasts by stride 0 anyway: go through a 1-element 1-D array
        return xp.reshape(xp.pow(xp.reshape(x, (1,)), xp.reshape(full, (1,))), ())
    return xp.pow(x, full)


def _exact(e, dtype) -> bool:
    """Integer and complex forms repeat the general loop's arithmetic exactly;
    real ones round once (2, -1, 0.5: correctly rounded, where glibc's
    pow may be an ulp off) or twice (3, 4, -2)."""
    return np.dtype(dtype).kind in "iuc" or e in (0, 1)


def _pow_cases():
    for d in INTS:
        for e in INT_EXPS:
            yield d, e
    for d in FLOATS:
        for e in FLOAT_EXPS:
            yield d, e
    for d in COMPLEX:
        for e in COMPLEX_EXPS:
            yield d, e


def _numpy_pow(n: np.ndarray, e, out_dtype: str) -> np.ndarray:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        want = np.power(n.astype(out_dtype), np.asarray(e).astype(out_dtype))
    if np.dtype(out_dtype).kind == "f" and e == 0.5:
        # the standard (and C's pow): (-0) ** 0.5 is +0 and (-inf) ** 0.5 is +inf;
        # NumPy's loop takes sqrt there
        want = np.where(n == 0, 0.0, want).astype(out_dtype)
        want = np.where(n == -np.inf, np.inf, want).astype(out_dtype)
    return want


@pytest.mark.parametrize("dtype,e", list(_pow_cases()))
@pytest.mark.parametrize("layout", params(LAYOUTS))
def test_pow_scalar_exponent(dtype, e, layout):
    x, n = _views(dtype, layout)
    with np.errstate(all="ignore"):
        got = x ** e
    general = _general_pow(x, e)
    assert got.dtype == general.dtype
    assert got.shape == n.shape
    g, ref = to_numpy(got), to_numpy(general)
    if _exact(e, got.dtype.name):
        np.testing.assert_array_equal(g, ref)
        _same_special(g, ref)
    else:
        _within_ulps(g, ref, 2)
    # against NumPy: same dtype, values within a few ulps, same special values
    want = _numpy_pow(n, e, got.dtype.name)
    assert g.dtype == want.dtype
    if g.dtype.kind in "iu":
        np.testing.assert_array_equal(g, want)
    elif g.dtype.kind == "f":
        _within_ulps(g, want, 2)
    else:
        _same_special(g, want)
        fin = np.isfinite(want)
        np.testing.assert_allclose(g[fin], want[fin], rtol=1e-5 if g.dtype == np.complex64
                                   else 1e-12, atol=0)


@pytest.mark.parametrize("dtype", INTS + FLOATS + COMPLEX)
def test_pow_zero_d_array_and_in_place(dtype):
    exps = INT_EXPS if dtype in INTS else [0, 1, 2, 3, -1, -2] + ([0.5] if dtype in FLOATS else [])
    for layout in LAYOUTS:
        for e in exps:
            x, n = _views(dtype, layout, seed=3)
            with np.errstate(all="ignore"):
                want = to_numpy(x ** e)
                # a 0-d array as the exponent takes the same path
                got0 = xp.pow(x, xp.asarray(e, dtype=x.dtype))
                np.testing.assert_array_equal(to_numpy(got0), want)
                # the scalar first is the general pow (no fast form): same values
                if layout not in ("broadcast",):
                    y = from_numpy(np.asarray(n))
                    y **= e
                    np.testing.assert_array_equal(to_numpy(y), want)
    # in place through a stepped view writes only its elements
    base = from_numpy(_base_values(dtype, 40))
    nb = to_numpy(base)
    view = base[1::3]
    with np.errstate(all="ignore"):
        view **= 2
        expect = nb.copy()
        expect[1::3] = to_numpy(from_numpy(nb[1::3]) ** 2)
    np.testing.assert_array_equal(to_numpy(base), expect)


def test_pow_in_place_refuses_stride_zero():
    x = xp.broadcast_to(xp.asarray([1.0, 2.0]), (3, 2))
    with pytest.raises(ValueError):
        x **= 2


def test_complex_small_integer_powers_exact():
    for d in (xp.complex64, xp.complex128):
        z = xp.asarray([2j, 1 + 1j, -3j, 1 - 2j], dtype=d)
        got = to_numpy(z ** 2)
        np.testing.assert_array_equal(got, np.array([-4, 2j, -9, -3 - 4j]))
        assert np.all(got.imag[[0, 2]] == 0)
        np.testing.assert_array_equal(to_numpy(z ** 3)[0], -8j)
        np.testing.assert_array_equal(to_numpy(z ** 4)[0], 16)
        # the general path (exponent array) agrees exactly
        np.testing.assert_array_equal(to_numpy(xp.pow(z, xp.full((4,), 2 + 0j, dtype=d))), got)
        # 0 ** 2 is +0 + 0j, 0 ** -1 is NaN (as NumPy)
        zero = to_numpy(xp.asarray([complex(-0.0, -0.0)], dtype=d) ** 2)
        assert zero[0] == 0 and not np.signbit(zero.real[0]) and not np.signbit(zero.imag[0])
        assert np.isnan(to_numpy(xp.asarray([0j], dtype=d) ** -1)).all()


def test_pow_bool_as_numpy():
    """bool ** int is int64, as NumPy and PyTorch; bool ** bool stays refused."""
    got = xp.asarray([True, False]) ** 2
    assert got.dtype == xp.int64 and got.tolist() == [1, 0]
    with pytest.raises(TypeError, match="pow"):
        xp.asarray([True, False]) ** xp.asarray([True, True])


def test_pow_int_array_float_exponent():
    x = xp.asarray(np.array([0, 1, 4, 9], np.int16))
    got = x ** 0.5
    assert got.dtype == xp.float64
    np.testing.assert_array_equal(to_numpy(got), [0.0, 1.0, 2.0, 3.0])
    got = x ** 2.0
    assert got.dtype == xp.float64
    np.testing.assert_array_equal(to_numpy(got), [0.0, 1.0, 16.0, 81.0])


def test_pow_large_arrays_threads():
    # large enough to be split across threads and to stream the output
    n = np.linspace(-3, 3, 300001)
    x = xp.asarray(n)
    for e in (2, 0.5, 3, -1, -2, 0):
        with np.errstate(all="ignore"):
            got = to_numpy(x ** e)
            ref = to_numpy(_general_pow(x, e))
        if _exact(e, "float64"):
            np.testing.assert_array_equal(got, ref)
        else:
            _within_ulps(got, ref, 2)


# ---- matmul: gemv, dot, syrk ------------------------------------------------------------

MM_DTYPES = ["float32", "float64", "complex64", "complex128"]
_rng = np.random.default_rng(7)


def _rand(shape, dtype):
    a = _rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * _rng.standard_normal(shape)
    return a.astype(dtype)


def _close(got, want):
    g = to_numpy(got)
    assert g.shape == want.shape, (g.shape, want.shape)
    assert g.dtype == want.dtype
    single = want.dtype in (np.float32, np.complex64)
    scale = max(1.0, float(np.abs(want).max())) if want.size else 1.0
    np.testing.assert_allclose(g, want, rtol=2e-4 if single else 1e-11,
                               atol=(2e-4 if single else 1e-11) * scale)


def _layouts2(n: np.ndarray):
    """(name, arrstride view, NumPy view) of the 2-D n in several layouts."""
    return views(n, ["contiguous", "transposed", "stepped", "negative", "offset", "mixed"])


def _vec_layouts(v: np.ndarray):
    return views(v, ["contiguous", "stepped", "negative", "broadcast"])


@pytest.mark.parametrize("dtype", MM_DTYPES)
def test_matmul_matrix_vector(dtype):
    A = _rand((37, 11), dtype)
    v = _rand((11,), dtype)
    u = _rand((37,), dtype)
    for _, a, na in _layouts2(A):
        for _, x, nx in _vec_layouts(v):
            _close(a @ x, na @ nx)                                     # gemv
            _close(a @ xp.reshape(x, (11, 1)), na @ nx.reshape(11, 1))  # n == 1
        for _, y, ny in _vec_layouts(u):
            _close(y @ a, ny @ na)                                     # vector-matrix
            _close(xp.reshape(y, (1, 37)) @ a, ny.reshape(1, 37) @ na)  # m == 1
    for _, x, nx in _vec_layouts(v):
        for _, y, ny in _vec_layouts(v):
            _close(x @ y, np.asarray(nx @ ny))                          # dot
            _close(xp.reshape(x, (1, 11)) @ xp.reshape(y, (11, 1)),
                   nx.reshape(1, 11) @ ny.reshape(11, 1))


@pytest.mark.parametrize("dtype", MM_DTYPES)
def test_matmul_vector_batched_and_edges(dtype):
    A = _rand((3, 5, 7), dtype)
    v = _rand((7,), dtype)
    w = _rand((5,), dtype)
    a = from_numpy(A)
    _close(a @ from_numpy(v), A @ v)
    _close(from_numpy(w) @ a, w @ A)
    V = _rand((3, 7, 1), dtype)
    _close(a @ from_numpy(V), A @ V)
    _close(a[:, :1, :] @ from_numpy(V), A[:, :1, :] @ V)         # a batch of dots
    _close(xp.permute_dims(a, (0, 2, 1)) @ from_numpy(w), np.swapaxes(A, 1, 2) @ w)
    # empty reduction and empty outputs
    _close(from_numpy(A[:, :, :0]) @ from_numpy(v[:0]), A[:, :, :0] @ v[:0])
    _close(from_numpy(A[:, :0, :]) @ from_numpy(v), A[:, :0, :] @ v)
    _close(from_numpy(v[:1]) @ from_numpy(v[:1]), np.asarray(v[:1] @ v[:1]))


@pytest.mark.parametrize("dtype", MM_DTYPES)
def test_matmul_syrk(dtype):
    for shape in [(50, 8), (8, 50), (1, 9), (9, 1), (33, 33), (200, 3)]:
        A = _rand(shape, dtype)
        for name, a, na in _layouts2(A):
            got = a.T @ a
            _close(got, na.T @ na)
            g = to_numpy(got)
            np.testing.assert_array_equal(g, g.T)         # mirrored exactly (not conjugated)
            _close(a @ a.T, na @ na.T)
            _close(a.mT @ a, na.T @ na)
    # batched: each matrix times its own transpose
    B = _rand((4, 6, 3), dtype)
    b = from_numpy(B)
    _close(b.mT @ b, np.swapaxes(B, 1, 2) @ B)
    _close(b @ b.mT, B @ np.swapaxes(B, 1, 2))
    # a broadcast batch of one matrix
    bb = xp.broadcast_to(from_numpy(B[0]), (3, 6, 3))
    _close(bb.mT @ bb, np.broadcast_to(B[0].T @ B[0], (3, 3, 3)))


@pytest.mark.parametrize("dtype", MM_DTYPES)
def test_matmul_syrk_false_positives(dtype):
    """A.T @ B must not take the A.T @ A path when B is another array or
    another view of the same storage."""
    base = _rand((12, 9), dtype)
    xb = from_numpy(base)
    A, nA = xb[:, :4], base[:, :4]
    cases = [
        (A, xb[:, 1:5], nA, base[:, 1:5]),            # same storage, shifted
        (A, xb[:, :4][::-1], nA, base[:, :4][::-1]),  # same storage, flipped rows
        (A, xb[:, 3::-1], nA, base[:, 3::-1]),        # same storage, flipped columns
        (A, from_numpy(base[:, :4] + 1), nA, base[:, :4] + 1),   # another array
        (xb[:8, :8], xb[1:9, 1:9], base[:8, :8], base[1:9, 1:9]),
    ]
    for a, b, na, nb in cases:
        _close(a.T @ b, na.T @ nb)
        _close(b @ a.T, nb @ na.T)
    # a square matrix times itself (same address, same strides) is not A.T @ A
    S = xb[:9, :9]
    _close(S @ S, base[:9, :9] @ base[:9, :9])
    _close(S.T @ S.T, base[:9, :9].T @ base[:9, :9].T)
    # x.T @ x where the transposed view was made from a permuted copy
    _close(xp.permute_dims(xb, (1, 0)) @ xb[:, :9], base.T @ base[:, :9])


def test_matmul_integer_vector_unchanged():
    A = np.arange(-12, 12, dtype=np.int16).reshape(4, 6)
    v = np.arange(6, dtype=np.int16)
    np.testing.assert_array_equal(to_numpy(from_numpy(A) @ from_numpy(v)), A @ v)
    np.testing.assert_array_equal(to_numpy(from_numpy(A).T @ from_numpy(A)), A.T @ A)


# ---- sort: the MSD radix sort (stable) and the vector quicksort (stable=False) ----------

SORT_DTYPES = INTS + FLOATS


def _sort_data(dtype: str, kind: str, n: int) -> np.ndarray:
    rng = np.random.default_rng(11)
    nd = np.dtype(dtype)
    if kind == "uniform":
        v = rng.random(n) * 200 - 100
    elif kind == "normal":
        v = rng.standard_normal(n) * 1e3
    elif kind == "few":                   # many duplicates: all-equal buckets
        v = rng.integers(0, 5, n).astype(np.float64)
    elif kind == "sorted":
        v = np.arange(n, dtype=np.float64)
    elif kind == "reversed":
        v = -np.arange(n, dtype=np.float64)
    else:                                 # "outliers": shared high bits broken by a few values
        v = rng.random(n)
        v[::997] = 1e30
        v[5::1009] = -1e30
    if nd.kind == "f":
        out = v.astype(nd)
        if kind in ("uniform", "outliers"):
            out[::101] = np.nan
            out[3::103] = -0.0
            out[7::107] = 0.0
            out[9::211] = np.inf
            out[10::223] = -np.inf
        return out
    info = np.iinfo(nd)
    if kind in ("uniform", "normal", "outliers"):
        return rng.integers(info.min, info.max, n, dtype=nd, endpoint=True)
    return np.clip(v, info.min, info.max).astype(nd)


@pytest.mark.parametrize("dtype", SORT_DTYPES)
@pytest.mark.parametrize("kind", ["uniform", "normal", "few", "sorted", "reversed", "outliers"])
def test_sort_large_lanes(dtype, kind):
    n = _sort_data(dtype, kind, 70001)
    x = from_numpy(n)
    want = np.sort(n, kind="stable")
    # stable=False: the values, and a permutation that sorts them (ties in any order)
    np.testing.assert_array_equal(to_numpy(xp.sort(x, stable=False)), want)
    idx = to_numpy(xp.argsort(x, stable=False))
    np.testing.assert_array_equal(np.sort(idx), np.arange(n.size))
    np.testing.assert_array_equal(n[idx], want)
    for stable in (True,):
        got = to_numpy(xp.sort(x, stable=stable))
        np.testing.assert_array_equal(got, want)
        if np.dtype(dtype).kind == "f":  # -0.0 keeps its input place among the zeros
            zeros = want == 0
            np.testing.assert_array_equal(np.signbit(got[zeros]), np.signbit(n[n == 0]))
        idx = to_numpy(xp.argsort(x, stable=stable))
        np.testing.assert_array_equal(idx, np.argsort(n, kind="stable"))
        # descending: NaN first, ties in input order
        got = to_numpy(xp.argsort(x, descending=True, stable=stable))
        if np.dtype(dtype).kind in "iu":  # ~ reverses the order of any integer
            np.testing.assert_array_equal(got, np.argsort(~n, kind="stable"))
        vals = n[got]
        if np.dtype(dtype).kind == "f":
            nan = np.isnan(vals)
            assert nan[:nan.sum()].all()
            rest = vals[nan.sum():]
            assert np.all(rest[:-1] >= rest[1:])
        else:
            assert np.all(vals[:-1] >= vals[1:])
        # ties keep input order when descending too
        same = vals[:-1] == vals[1:]
        assert np.all(got[:-1][same] < got[1:][same])


@pytest.mark.parametrize("layout", params(["transposed", "stepped", "negative", "broadcast", "offset",
                                            "mixed"]))
def test_sort_large_lanes_any_axis(layout):
    rng = np.random.default_rng(5)
    base = rng.standard_normal((3000, 7))
    base[::13] = np.nan
    a, n = view_of(layout, base)
    for axis in range(2):
        want = np.sort(n, axis=axis, kind="stable")
        for stable in (True, False):
            np.testing.assert_array_equal(to_numpy(xp.sort(a, axis=axis, stable=stable)), want)
            idx = to_numpy(xp.argsort(a, axis=axis, stable=stable))
            if stable:
                np.testing.assert_array_equal(idx, np.argsort(n, axis=axis, kind="stable"))
            else:  # ties in any order
                np.testing.assert_array_equal(np.take_along_axis(n, idx, axis=axis), want)
                np.testing.assert_array_equal(np.sort(idx, axis=axis),
                                              np.sort(np.argsort(n, axis=axis), axis=axis))


def test_matmul_short_path_shapes_and_errors():
    A = _rand((4, 3), "float64")
    v = _rand((3,), "float64")
    a, w = from_numpy(A), from_numpy(v)
    r = w @ w
    assert r.shape == () and r.dtype == xp.float64
    _close(r, np.asarray(v @ v))
    _close(a @ w, A @ v)
    _close(from_numpy(A[:, 0]) @ a, A[:, 0] @ A)
    _close(a @ from_numpy(A.T), A @ A.T)
    # mixed dtypes take the general path (promotion)
    _close(a @ from_numpy(v.astype(np.float32)), A @ v.astype(np.float32))
    # integer and bool through the short path
    I = np.arange(12, dtype=np.int32).reshape(4, 3)
    np.testing.assert_array_equal(to_numpy(from_numpy(I) @ from_numpy(I[0])), I @ I[0])
    Bo = np.array([[True, False], [False, False]])
    np.testing.assert_array_equal(to_numpy(from_numpy(Bo) @ from_numpy(Bo[0])), Bo @ Bo[0])
    with pytest.raises(ValueError, match="matmul"):
        a @ from_numpy(_rand((4,), "float64"))
    with pytest.raises(ValueError, match="matmul"):
        w @ a
    with pytest.raises(ValueError, match="matmul"):
        xp.matmul(xp.asarray(1.0), w)
