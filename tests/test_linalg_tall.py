"""SVD of tall matrices (m >= 4n), which native/src/lapack.c takes through
CholeskyQR2 and the SVD of R, falling back to gesdd when a is too badly
conditioned for it: singular values, reconstruction and orthonormal factors
against NumPy, on every layout and float dtype, batched, and on the inputs
that must take the fallback (ill-conditioned, rank-deficient, under- and
overflowing Gram matrices, non-finite)."""
import numpy as np
import pytest

import arrstride as xp
from arrstride import linalg as LA

from test_linalg import FLOATS, LAYOUTS, make, rand, to_np

EPS_TOL = {"float32": 5e-5, "complex64": 5e-5, "float64": 1e-13, "complex128": 1e-13}

# (m, n) with m >= 4n and m * n >= 16384, so the tall path is tried; n >= 16
# also sends svdvals through it. The batched shape runs several matrices.
TALL = [(1100, 16), (2, 1030, 16), (2100, 8)]


def check_svd(a, A, tol_scale=1.0):
    """U S Vh = a, U and Vh orthonormal, S as NumPy's (to eps * S_max)."""
    dtype = str(a.dtype)
    tol = EPS_TOL[dtype] * tol_scale
    u, s, vh = (to_np(v) for v in LA.svd(A, full_matrices=False))
    ns = np.linalg.svd(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64),
                       compute_uv=False)
    smax = ns[..., :1]
    n = a.shape[-1]
    assert u.shape == a.shape and s.shape == ns.shape and vh.shape == a.shape[:-2] + (n, n)
    assert np.all(np.abs(s - ns) <= tol * 100 * smax)
    assert np.all(np.abs(to_np(LA.svdvals(A)) - ns) <= tol * 100 * smax)
    eye = np.eye(n)
    assert np.abs(np.conj(np.swapaxes(u, -1, -2)) @ u - eye).max() <= tol * 100
    assert np.abs(vh @ np.conj(np.swapaxes(vh, -1, -2)) - eye).max() <= tol * 100
    recon = (u * s[..., None, :]) @ vh
    assert np.abs(recon - a).max() <= tol * 100 * smax.max()


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", TALL)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_tall_svd(dtype, shape, layout):
    a = rand(shape, dtype, 7)
    check_svd(a, make(a, layout))


@pytest.mark.parametrize("dtype", FLOATS)
def test_tall_pinv_rank_norms(dtype):
    a = rand((1100, 16), dtype, 8)
    A = make(a, "transposed")
    tol = EPS_TOL[dtype] * 1e3
    np.testing.assert_allclose(to_np(LA.pinv(A)), np.linalg.pinv(a), rtol=tol, atol=tol)
    assert int(LA.matrix_rank(A)) == 16
    for ord in ("nuc", 2, -2):
        np.testing.assert_allclose(float(LA.matrix_norm(A, ord=ord)),
                                   np.linalg.matrix_norm(a, ord=ord), rtol=tol)


@pytest.mark.parametrize("dtype", FLOATS)
def test_tall_full_matrices(dtype):
    """full_matrices=True (U: m x m) is gesdd's alone; it agrees with the thin SVD."""
    a = rand((300, 20), dtype, 9)
    A = xp.asarray(a)
    u, s, vh = (to_np(v) for v in LA.svd(A, full_matrices=True))
    assert u.shape == (300, 300)
    np.testing.assert_allclose(s, to_np(LA.svd(A, full_matrices=False)[1]),
                               rtol=EPS_TOL[dtype] * 100)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("decades", [0.1, 0.29, 0.31, 0.6, 3, 8, 16])
def test_tall_ill_conditioned(dtype, decades):
    """Singular values over `decades` decades: one Cholesky pass up to cond 2
    (0.301 decades), CholeskyQR2 up to cond ~ eps^-1/2, beyond that gesdd; the
    factors stay orthonormal on every path."""
    rng = np.random.default_rng(int(decades * 100))
    q, _ = np.linalg.qr(rng.standard_normal((1100, 16)))
    v, _ = np.linalg.qr(rng.standard_normal((16, 16)))
    a = ((q * np.logspace(0, -decades, 16)) @ v).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a * np.exp(1j * rng.uniform(0, 6, (1, 16))).astype(dtype)
    check_svd(a, xp.asarray(a))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("kind", ["zero column", "repeated column", "rank 3", "zero"])
def test_tall_rank_deficient(dtype, kind):
    a = rand((1100, 16), dtype, 10)
    if kind == "zero column":
        a[:, 5] = 0
    elif kind == "repeated column":
        a[:, 7] = a[:, 2]
    elif kind == "rank 3":
        a = (a[:, :3] @ rand((3, 16), dtype, 11)).astype(dtype)
    else:
        a[:] = 0
    A = make(a, "stepped")
    check_svd(a, A)
    rank = np.linalg.matrix_rank(a)
    assert int(LA.matrix_rank(A)) == rank


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("scale", [1e-140, 1e-150, 1e-160, 1e-300, 1e150, 1e300])
def test_tall_extreme_scale(dtype, scale):
    """a^H a under- or overflows: gesdd does the work, as accurate as NumPy's."""
    a = rand((1100, 16), dtype, 12) * scale
    check_svd(a, xp.asarray(a))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("at", [(100, 3), (0, 0), (1099, 15)])
def test_tall_non_finite(dtype, bad, at):
    # the one-pass form reads no element twice for this: the Gram matrix's
    # diagonal carries the NaN or inf into its Cholesky factor
    a = rand((1100, 16), dtype, 13)
    a[at] = bad
    A = xp.asarray(a)
    assert np.isnan(to_np(LA.svdvals(A))).all()
    u, s, vh = LA.svd(A, full_matrices=False)
    assert np.isnan(to_np(u)).all() and np.isnan(to_np(s)).all() and np.isnan(to_np(vh)).all()
    assert np.isnan(to_np(LA.pinv(A))).all()


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_tall_many_columns(dtype):
    """n > 256: no trial SVD of R1, CholeskyQR2 directly."""
    a = rand((1100, 260), dtype, 14)
    check_svd(a, xp.asarray(a))
    check_svd(a, make(a, "transposed"))
