"""matmul, tensordot, vecdot and the linalg extension against NumPy: every
layout (contiguous, transposed, stepped, negative, offset, mixed, broadcast), batched,
real and complex, empty; reconstruction identities; bad input."""
import math

import numpy as np
import pytest

import arrstride as xp
from arrstride import linalg as LA
from layouts import params, view_of

FLOATS = ["float32", "float64", "complex64", "complex128"]
RTOL = {"float32": 2e-4, "complex64": 2e-4, "float64": 1e-10, "complex128": 1e-10}
LAYOUTS = ["contiguous", "transposed", "stepped", "negative", "offset", "mixed"]


def rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    if np.dtype(dtype).kind in "iu":
        a = rng.integers(-50 if np.dtype(dtype).kind == "i" else 0, 50, shape)
    if np.dtype(dtype).kind == "b":
        a = rng.integers(0, 2, shape)
    return a.astype(dtype)


def make(a, layout):
    """An arrstride array with a's values in the given layout (tests/layouts.py)."""
    return view_of(layout, np.asarray(a))[0]


def to_np(x):
    dtype = np.dtype(x.dtype.name)
    return np.array(x.tolist(), dtype=dtype).reshape(x.shape)


def close(got, want, dtype, scale=1.0):
    got = to_np(got) if isinstance(got, xp.Array) else np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    tol = RTOL.get(str(dtype), 1e-10) * scale
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, np.abs(want).max(initial=0)))


# ---- matmul ---------------------------------------------------------------------------

MATMUL_SHAPES = [((3, 4), (4, 5)), ((4,), (4, 5)), ((3, 4), (4,)), ((4,), (4,)),
                 ((2, 1, 3, 4), (5, 4, 2)), ((0, 3), (3, 2)), ((3, 0), (0, 2)), ((2, 0, 3, 4), (4, 1)),
                 ((1, 7), (7, 1))]


@pytest.mark.parametrize("shapes", MATMUL_SHAPES)
@pytest.mark.parametrize("dtype", FLOATS + ["int8", "int32", "int64", "uint16", "bool"])
def test_matmul_shapes_dtypes(shapes, dtype):
    a, b = rand(shapes[0], dtype, 1), rand(shapes[1], dtype, 2)
    got = xp.matmul(xp.asarray(a), xp.asarray(b))
    want = np.matmul(a, b)
    assert got.dtype.name == want.dtype.name
    if np.dtype(dtype).kind in "iub":
        assert to_np(got).tolist() == want.tolist()
    else:
        close(got, want, dtype, 10)


@pytest.mark.parametrize("la", params(LAYOUTS))
@pytest.mark.parametrize("lb", params(LAYOUTS))
@pytest.mark.parametrize("dtype", ["float64", "complex64", "int32"])
def test_matmul_layouts(la, lb, dtype):
    a, b = rand((2, 5, 3), dtype, 3), rand((3, 4), dtype, 4)
    got = make(a, la) @ make(b, lb)
    want = a @ b
    if dtype == "int32":
        assert to_np(got).tolist() == want.tolist()
    else:
        close(got, want, dtype, 10)


def test_matmul_broadcast_stride0_and_promotion():
    a = rand((4,), "float32", 5)
    A = xp.broadcast_to(xp.asarray(a), (3, 4))         # stride 0 rows
    b = rand((4, 2), "int16", 6)
    got = A @ xp.asarray(b)
    want = np.broadcast_to(a, (3, 4)) @ b
    assert got.dtype == xp.float32
    close(got, want, "float32", 10)


def test_matmul_int_wraps_like_numpy():
    a = np.full((3, 40), 100, np.int8)
    b = np.full((40, 2), 7, np.int8)
    assert to_np(xp.asarray(a) @ xp.asarray(b)).tolist() == (a @ b).tolist()
    a = np.full((2, 3), 2**62, np.int64)
    assert to_np(xp.asarray(a) @ xp.asarray(a.T.copy())).tolist() == (a @ a.T).tolist()


def test_matmul_batched_large_and_threads():
    a, b = rand((64, 16, 32), "float64", 7), rand((64, 32, 8), "float64", 8)
    close(xp.asarray(a) @ xp.asarray(b), a @ b, "float64", 10)
    ai, bi = rand((130, 70), "int64", 9), rand((70, 90), "int64", 10)
    assert to_np(xp.asarray(ai) @ xp.asarray(bi)).tolist() == (ai @ bi).tolist()


def test_matmul_errors_name_both_shapes():
    with pytest.raises(ValueError, match=r"\(3, 4\).*\(5, 2\)"):
        xp.asarray(np.ones((3, 4))) @ xp.asarray(np.ones((5, 2)))
    with pytest.raises(ValueError, match="batch"):
        xp.matmul(xp.asarray(np.ones((2, 3, 4))), xp.asarray(np.ones((3, 4, 2))))
    with pytest.raises(ValueError):
        xp.matmul(xp.asarray(1.0), xp.asarray(np.ones(3)))
    # NumPy arrays are operands as for @ (the one operand rule); lists are not
    got = xp.matmul(np.ones((2, 2)), xp.asarray(np.ones((2, 2))))
    assert isinstance(got, xp.Array) and got.tolist() == [[2.0, 2.0], [2.0, 2.0]]
    with pytest.raises(TypeError, match="matmul"):
        xp.matmul([[1.0]], xp.asarray(np.ones((1, 1))))


def test_operators():
    a, b = rand((3, 3), "float64", 1), rand((3, 3), "float64", 2)
    A, B = xp.asarray(a.copy()), xp.asarray(b)   # asarray wraps NumPy memory: copy first
    close(A @ B, a @ b, "float64")
    close(B.__rmatmul__(A), a @ b, "float64")
    view = A[:, :]
    A @= B
    close(A, a @ b, "float64")
    close(view, a @ b, "float64")        # in place: the storage was written
    with pytest.raises(ValueError):
        C = xp.asarray(np.ones((3, 3)))
        C @= xp.asarray(np.ones((3, 2)))


# ---- tensordot, vecdot ----------------------------------------------------------------

@pytest.mark.parametrize("axes, shape_b", [(2, (4, 5, 2)), (1, (5, 2)), (0, (2, 2)),
                                           (((0, -1), (1, 0)), (5, 3, 2)), (([-1], [-3]), (5, 4, 3))])
def test_tensordot(axes, shape_b):
    a = rand((3, 4, 5), "float64", 1)
    b = rand(shape_b, "float64", 2)
    got = xp.tensordot(make(a, "negative"), make(b, "transposed"), axes=axes)
    close(got, np.tensordot(a, b, axes=axes), "float64", 10)


def test_tensordot_errors():
    with pytest.raises(ValueError, match=r"\(3, 4\).*\(5, 2\)"):
        xp.tensordot(xp.asarray(np.ones((3, 4))), xp.asarray(np.ones((5, 2))), axes=1)


@pytest.mark.parametrize("dtype", FLOATS + ["int32"])
@pytest.mark.parametrize("axis", [-1, -2])
def test_vecdot(dtype, axis):
    a, b = rand((4, 3, 3), dtype, 1), rand((3, 3), dtype, 2)
    got = xp.vecdot(make(a, "stepped"), make(b, "transposed"), axis=axis)
    want = np.vecdot(a, b, axis=axis)
    if dtype == "int32":
        assert to_np(got).tolist() == want.tolist()
    else:
        close(got, want, dtype, 10)


def test_vecdot_errors():
    with pytest.raises(ValueError, match=r"\(3,\).*\(4,\)"):
        xp.vecdot(xp.asarray(np.ones(3)), xp.asarray(np.ones(4)))


# ---- factorizations ---------------------------------------------------------------------

def spd(shape, dtype, seed=0):
    a = rand(shape, dtype, seed)
    return a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1], dtype=dtype)


BATCHES = [(4, 4), (2, 3, 3), (1, 1), (0, 3, 3), (2, 0, 0)]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", BATCHES)
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "negative"])
def test_square_functions(dtype, shape, layout):
    a = rand(shape, dtype, 1) + 3 * np.eye(shape[-1], dtype=dtype)
    A = make(a, layout)
    close(LA.det(A), np.linalg.det(a), dtype, 10)
    sign, logabs = LA.slogdet(A)
    ws, wl = np.linalg.slogdet(a)
    close(sign, ws, dtype, 10)
    close(logabs, wl, dtype, 10)
    assert logabs.dtype.name == np.dtype(dtype).type(0).real.dtype.name
    close(LA.inv(A), np.linalg.inv(a), dtype, 100)
    b = rand(shape[:-1] + (2,), dtype, 2)
    close(LA.solve(A, make(b, layout)), np.linalg.solve(a, b), dtype, 100)
    p = spd(shape, dtype, 3)
    P = make(p, layout)
    close(LA.cholesky(P), np.linalg.cholesky(p), dtype, 100)
    close(LA.cholesky(P, upper=True), np.conj(np.swapaxes(np.linalg.cholesky(p), -1, -2)), dtype, 100)
    w, v = LA.eigh(P)
    ww, _ = np.linalg.eigh(p)
    close(w, ww, dtype, 100)
    close(LA.eigvalsh(P), ww, dtype, 100)
    vn = to_np(v)
    close(vn @ (ww[..., None] * np.conj(np.swapaxes(vn, -1, -2))), p, dtype, 100)
    ev, evec = LA.eig(A)
    cdt = "complex64" if dtype in ("float32", "complex64") else "complex128"
    assert ev.dtype.name == cdt and evec.dtype.name == cdt
    evn, vecn = to_np(ev), to_np(evec)
    close(a @ vecn, vecn * evn[..., None, :], dtype, 1000)
    close(np.sort_complex(to_np(LA.eigvals(A)).ravel()), np.sort_complex(np.linalg.eigvals(a).ravel()),
          dtype, 1000)
    close(LA.matrix_power(A, 3), np.linalg.matrix_power(a, 3), dtype, 100)
    close(LA.matrix_power(A, -2), np.linalg.matrix_power(a, -2), dtype, 1000)
    close(LA.matrix_power(A, 0), np.linalg.matrix_power(a, 0), dtype)


RECT = [(5, 3), (3, 5), (2, 4, 4), (3, 1, 6), (0, 2), (2, 0), (2, 3, 0)]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", RECT)
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "stepped"])
def test_rectangular_functions(dtype, shape, layout):
    a = rand(shape, dtype, 4)
    A = make(a, layout)
    for full in (True, False):
        u, s, vh = LA.svd(A, full_matrices=full)
        nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
        assert u.shape == nu.shape and vh.shape == nvh.shape and s.shape == ns.shape
        close(s, ns, dtype, 100)
        k = min(shape[-2:])
        un, vn = to_np(u), to_np(vh)
        close((un[..., :, :k] * to_np(s)[..., None, :]) @ vn[..., :k, :], a, dtype, 100)
    close(LA.svdvals(A), np.linalg.svd(a, compute_uv=False), dtype, 100)
    for mode in ("reduced", "complete"):
        q, r = LA.qr(A, mode=mode)
        nq, nr = np.linalg.qr(a, mode=mode)
        assert q.shape == nq.shape and r.shape == nr.shape
        close(to_np(q) @ to_np(r), a, dtype, 100)
        assert np.allclose(np.tril(to_np(r), -1), 0)
    # NumPy before 2.3 (the last for CPython 3.10 is 2.2) raises on an empty
    # pinv and matrix_rank: then their results, zeros, are written out
    npinv = np.linalg.pinv(a) if a.size else np.zeros(a.shape[:-2] + a.shape[-2:][::-1], a.dtype)
    close(LA.pinv(A), npinv, dtype, 1000)
    nrank = np.linalg.matrix_rank(a) if a.size else np.zeros(a.shape[:-2], np.int64)
    assert to_np(LA.matrix_rank(A)).tolist() == nrank.tolist()
    if 0 not in shape:
        for ord in ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf):
            close(LA.matrix_norm(A, ord=ord), np.linalg.matrix_norm(a, ord=ord), dtype, 100)
        got = LA.matrix_norm(A, ord="fro", keepdims=True)
        assert got.shape == shape[:-2] + (1, 1)


def test_pinv_rtol_and_rank_rtol():
    a = np.diag([1.0, 1e-3, 1e-9])
    A = xp.asarray(a)
    close(LA.pinv(A, rtol=1e-4), np.linalg.pinv(a, rtol=1e-4), "float64", 100)
    assert LA.matrix_rank(A).tolist() == np.linalg.matrix_rank(a) == 3
    assert LA.matrix_rank(A, rtol=1e-2).tolist() == 1
    batch = xp.asarray(np.stack([a, a]))
    assert LA.matrix_rank(batch, rtol=xp.asarray([1e-2, 1e-12])).tolist() == [1, 3]


# ---- norms, trace, diagonal, cross, outer -----------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("ord", [2, 1, 0, math.inf, -math.inf, 3, 0.5, -1])
@pytest.mark.parametrize("axis", [None, -1, 0, (0, 2), (2, 0)])
def test_vector_norm(dtype, ord, axis):
    a = rand((3, 4, 5), dtype, 5)
    A = make(a, "negative")
    for keepdims in (False, True):
        got = LA.vector_norm(A, axis=axis, ord=ord, keepdims=keepdims)
        want = np.linalg.vector_norm(a, axis=axis, ord=ord, keepdims=keepdims)
        assert got.dtype.name == want.dtype.name
        close(got, want, dtype, 100)


def test_vector_norm_no_overflow():
    a = np.array([1e200, 1e200, -1e200])
    close(LA.vector_norm(xp.asarray(a)), np.sqrt(3) * 1e200, "float64")
    a = np.full(1000, 1e-200)
    close(LA.vector_norm(xp.asarray(a)), math.sqrt(1000) * 1e-200, "float64")
    close(LA.vector_norm(xp.asarray(np.zeros((0,)))), 0.0, "float64")


@pytest.mark.parametrize("offset", [0, 1, -2, 5])
@pytest.mark.parametrize("dtype", ["float32", "complex128", "int8", "uint8"])
def test_trace_diagonal(offset, dtype):
    a = rand((2, 4, 5), dtype, 6)
    A = make(a, "transposed")
    d = LA.diagonal(A, offset=offset)
    assert to_np(d).tolist() == np.diagonal(a, offset=offset, axis1=-2, axis2=-1).tolist()
    got = LA.trace(A, offset=offset)
    want = np.trace(a, offset=offset, axis1=-2, axis2=-1)
    assert got.dtype.name == want.dtype.name
    close(got, want, dtype if dtype in FLOATS else "float64", 10)
    wide = "float64" if dtype != "complex128" else "complex128"
    got = LA.trace(A, offset=offset, dtype=getattr(xp, wide))
    close(got, np.trace(a, offset=offset, axis1=-2, axis2=-1, dtype=wide), "float64", 10)


def test_diagonal_is_a_view():
    A = xp.asarray(np.arange(9.0).reshape(3, 3))
    d = LA.diagonal(A)
    assert d.storage is A.storage and d.strides == (4,)


@pytest.mark.parametrize("dtype", ["float64", "complex64", "int16"])
@pytest.mark.parametrize("axis", [-1, 0, -3])
def test_cross(dtype, axis):
    shape = [2, 4, 2]
    shape[axis] = 3
    a, b = rand(tuple(shape), dtype, 1), rand(tuple(shape[1:]) if axis == -1 else tuple(shape), dtype, 2)
    got = LA.cross(make(a, "stepped"), make(b, "negative"), axis=axis)
    want = np.cross(a, b, axis=axis)
    close(got, want, dtype if dtype in FLOATS else "float64", 10)
    with pytest.raises(ValueError, match="size 3"):
        LA.cross(xp.asarray(np.ones((2, 4))), xp.asarray(np.ones((2, 4))))


def test_outer():
    a, b = rand((3,), "float32", 1), rand((4,), "complex128", 2)
    close(LA.outer(make(a, "negative"), xp.asarray(b)), np.outer(a, b), "complex64")
    ai, bi = rand((3,), "int32", 1), rand((0,), "int32", 2)
    assert LA.outer(xp.asarray(ai), xp.asarray(bi)).shape == (3, 0)


def test_namespace():
    assert xp.linalg.matmul is xp.matmul and xp.linalg.tensordot is xp.tensordot
    assert xp.linalg.vecdot is xp.vecdot
    assert issubclass(LA.LinAlgError, ValueError)
    assert LA.matrix_transpose(xp.asarray(np.ones((2, 3)))).shape == (3, 2)


# ---- bad input never crashes --------------------------------------------------------------

def test_singular_and_not_positive_definite():
    s = xp.asarray(np.array([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(LA.LinAlgError, match="singular"):
        LA.inv(s)
    with pytest.raises(LA.LinAlgError, match="singular"):
        LA.solve(s, xp.asarray(np.ones(2)))
    assert LA.det(s).tolist() == 0.0
    sign, logabs = LA.slogdet(s)
    assert sign.tolist() == 0.0 and logabs.tolist() == -math.inf
    with pytest.raises(LA.LinAlgError, match="positive definite"):
        LA.cholesky(xp.asarray(np.array([[1.0, 2.0], [2.0, 1.0]])))
    assert LA.matrix_rank(s).tolist() == 1


def _all_nan(r) -> bool:
    return bool(np.all(np.isnan(np.asarray(r.tolist()))))


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_inputs(bad):
    """The README: NaN inputs give NaN results (an inf, which LAPACK turns into
    NaN on the way, too); eigh/eigvalsh/cholesky read one triangle only, so a
    bad value in the other one changes nothing; a cholesky that meets -inf on
    its diagonal raises LinAlgError (not positive definite)."""
    a = np.eye(3)
    a[1, 2] = bad  # upper triangle: A is upper triangular, det(A) = 1 exactly
    A = xp.asarray(a)
    assert math.isnan(float(LA.det(A)))
    for fn in (LA.inv, LA.svdvals, LA.eigvals, LA.pinv, lambda x: LA.solve(x, x)):
        assert _all_nan(fn(A))
    for result in (LA.svd(A), LA.eig(A)):
        assert all(_all_nan(part) for part in result)
    q, r = LA.qr(A)
    if math.isnan(bad):
        assert _all_nan(q) and _all_nan(r)
    else:  # A is already triangular: the reflectors are the identity, exactly
        assert np.array_equal(np.asarray(q.tolist()), np.eye(3))
        assert np.array_equal(np.asarray(r.tolist()), a)
    # one triangle only: the upper one is not read
    assert LA.eigvalsh(A).tolist() == [1.0, 1.0, 1.0]
    assert LA.cholesky(A).tolist() == np.eye(3).tolist()
    # the lower one is
    low = xp.asarray(a.T.copy())
    assert _all_nan(LA.eigvalsh(low))
    assert all(_all_nan(part) for part in LA.eigh(low))
    if math.isnan(bad):
        assert _all_nan(LA.cholesky(low))
    else:  # a[2, 2] - a[2, 1]**2 = -inf
        with pytest.raises(LA.LinAlgError, match="positive definite"):
            LA.cholesky(low)


def test_matrix_rank_non_finite():
    # the singular values are NaN and none exceeds the tolerance: a silent 0 before
    for bad in (math.nan, math.inf):
        a = np.eye(3)
        a[1, 2] = bad
        with pytest.raises(LA.LinAlgError, match="matrix_rank"):
            LA.matrix_rank(xp.asarray(a))
    assert int(LA.matrix_rank(xp.asarray(np.eye(3)))) == 3


def test_shape_errors_name_both_shapes():
    with pytest.raises(ValueError, match=r"\(3, 3\).*\(4,\)"):
        LA.solve(xp.asarray(np.eye(3)), xp.asarray(np.ones(4)))
    with pytest.raises(ValueError, match="square"):
        LA.inv(xp.asarray(np.ones((2, 3))))
    with pytest.raises(ValueError, match="mode"):
        LA.qr(xp.asarray(np.ones((2, 3))), mode="r")


@pytest.mark.parametrize("dtype", FLOATS)
def test_matmul_batch_layouts(dtype):
    """Batch dims that one stride walks (one batched gemm call) and that it does not."""
    big = rand((4, 6, 3, 5), dtype, 11)
    b = rand((4, 1, 5, 2), dtype, 12)
    A = xp.asarray(big)[:, ::2]           # batch strides not uniform
    close(A @ xp.asarray(b), big[:, ::2] @ b, dtype, 10)
    A = xp.asarray(big)[1:3]              # uniform, with an offset
    close(A @ xp.asarray(b[1:3]), big[1:3] @ b[1:3], dtype, 10)
    At = xp.asarray(np.ascontiguousarray(np.swapaxes(big, -1, -2))).mT
    close(At @ xp.asarray(b), big @ b, dtype, 10)


@pytest.mark.parametrize("dtype", FLOATS)
def test_inf_input_does_not_hang(dtype):
    """gesdd/geev loop forever on Inf: non-finite input gives NaN results."""
    a = np.eye(3, dtype=dtype)
    a[0, 1] = np.inf
    A = xp.asarray(a)
    assert np.isnan(to_np(LA.svdvals(A))).all()
    assert np.isnan(to_np(LA.svd(A)[0])).all()
    assert np.isnan(to_np(LA.eigvals(A))).all()
    close(LA.eigvalsh(A), np.linalg.eigvalsh(a), dtype)   # reads the lower triangle only
    assert np.isnan(to_np(LA.eigvalsh(A.mT))).all()
    assert np.isnan(to_np(LA.pinv(A))).all()


def test_lapack_status_outlives_its_buffer():
    # K.lapack's per-matrix status must be a copy: a cffi slice of the info
    # buffer is a view of memory freed when the call returns (it once made
    # eigh and pinv raise "did not converge" at random)
    from arrstride import _kernels as K
    from arrstride import linalg as LA
    a = LA._colmajor(xp.reshape(xp.eye(2), (1, 2, 2)), xp.float64)
    status = K.lapack("cholesky", a, 0)
    assert type(status) is list and status == [0]
    for _ in range(200):
        junk = [np.ones(8) for _ in range(4)]  # noqa: F841 (reuse freed blocks)
        x = xp.ones((3, 1, 1), dtype=xp.float32)
        assert xp.linalg.eigh(x).eigenvalues.tolist() == [[1.0]] * 3
        assert xp.linalg.pinv(x).tolist() == [[[1.0]]] * 3
