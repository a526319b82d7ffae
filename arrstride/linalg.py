"""The linalg extension of the array API standard (2025.12).

Every function is batched over leading dims and works for float32, float64,
complex64 and complex128 (integer and bool inputs are computed in float64, as
NumPy does). Factorizations run in LAPACK (scipy-openblas64) on a column-major
copy of the input; results that are matrices are views of column-major
buffers (their layout is transposed, their values are the standard's).

Bad input never crashes: NaN inputs give NaN results; a singular matrix for
inv/solve, a matrix that is not positive definite for cholesky, and a
factorization that does not converge raise LinAlgError (a ValueError).
"""
from __future__ import annotations

import builtins
import math
from typing import Any, NamedTuple, Optional, Sequence, Tuple, Union

from . import _dtypes as dt
from . import _kernels as K
from . import _layout as L
from ._args import int_arg, normalize_axes, normalize_axis
from ._array import Array, check_array
from ._core import vector_norm as _core_vector_norm
from ._elementwise_functions import isnan as _isnan
from ._errors import (axis_error, broadcast_error, broadcast_into_error, dtype_error, msg,
                      not_square_error,
                      shapes_error, type_error, value_error)
from ._linear_algebra_functions import matmul, tensordot, vecdot
from ._manipulation_functions import matrix_transpose, reshape
from ._utility_functions import any as _any
from ._views import diagonal as _diagonal_view
from ._creation_functions import zeros as _zeros
from ._data_type_functions import astype as _astype, finfo
from ._elementwise_functions import (abs as _absf, conj as _conj, divide as _divide,
                                     greater as _greater, multiply as _multiply,
                                     square as _square, subtract as _subtract, where as _where)
from ._manipulation_functions import permute_dims
from ._statistical_functions import sum as _sum

__all__ = [
    "LinAlgError", "EigResult", "EighResult", "QRResult", "SlogdetResult", "SVDResult",
    "cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv",
    "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer",
    "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot",
    "vector_norm",
    # NumPy's, which PyTorch has too
    "cond", "lstsq", "multi_dot", "norm", "tensorinv", "tensorsolve",
]


class LinAlgError(ValueError):
    """A matrix for which the operation is undefined, or that did not converge.

    Raised for a singular matrix (inv, solve), a matrix that is not positive
    definite (cholesky), or a factorization that did not converge. A ValueError,
    as NumPy's LinAlgError.

    Examples
    --------
    >>> import arrstride as xp
    >>> try:
    ...     xp.linalg.inv(xp.zeros((2, 2)))
    ... except xp.linalg.LinAlgError as e:
    ...     print(type(e).__name__, isinstance(e, ValueError))
    LinAlgError True
    """


class EigResult(NamedTuple):
    """Result of linalg.eig: eigenvalues and eigenvectors.

    A named tuple: fields by name or by position.

    Parameters
    ----------
    eigenvalues : Array
        Eigenvalues of each matrix, complex.
    eigenvectors : Array
        Right eigenvectors, as the columns of each matrix.

    Examples
    --------
    >>> import arrstride as xp
    >>> r = xp.linalg.eig(xp.asarray([[2.0, 0.0], [0.0, 3.0]]))
    >>> r.eigenvalues
    Array([2.+0.j, 3.+0.j])
    >>> xp.abs(r.eigenvectors)
    Array([[1., 0.],
           [0., 1.]])
    """
    eigenvalues: Array
    eigenvectors: Array


class EighResult(NamedTuple):
    """Result of linalg.eigh: eigenvalues and eigenvectors.

    A named tuple: fields by name or by position.

    Parameters
    ----------
    eigenvalues : Array
        Eigenvalues of each matrix, real, ascending.
    eigenvectors : Array
        Orthonormal eigenvectors, as the columns of each matrix.

    Examples
    --------
    >>> import arrstride as xp
    >>> eigenvalues, eigenvectors = xp.linalg.eigh(xp.asarray([[2.0, 0.0], [0.0, 1.0]]))
    >>> eigenvalues
    Array([1., 2.])
    >>> xp.abs(eigenvectors)
    Array([[0., 1.],
           [1., 0.]])
    """
    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    """Result of linalg.qr: the factors Q and R.

    A named tuple: fields by name or by position.

    Parameters
    ----------
    Q : Array
        Matrices with orthonormal columns.
    R : Array
        Upper-triangular matrices, with x = Q @ R.

    Examples
    --------
    >>> import arrstride as xp
    >>> r = xp.linalg.qr(xp.ones((3, 2)))
    >>> r.Q.shape, r.R.shape
    ((3, 2), (2, 2))
    """
    Q: Array
    R: Array


class SlogdetResult(NamedTuple):
    """Result of linalg.slogdet: sign and log of the determinant.

    A named tuple: fields by name or by position.

    Parameters
    ----------
    sign : Array
        Sign of each determinant (a unit complex number for complex x; 0 for a singular matrix).
    logabsdet : Array
        Natural logarithm of each determinant's absolute value (-inf for a singular matrix).

    Examples
    --------
    >>> import arrstride as xp
    >>> sign, logabsdet = xp.linalg.slogdet(xp.asarray([[-2.0, 0.0], [0.0, 1.0]]))
    >>> sign
    Array(-1.)
    >>> logabsdet
    Array(0.69314718)
    """
    sign: Array
    logabsdet: Array


class SVDResult(NamedTuple):
    """Result of linalg.svd: the factors U, S and Vh.

    A named tuple: fields by name or by position.

    Parameters
    ----------
    U : Array
        Left singular vectors, as columns.
    S : Array
        Singular values, real, descending.
    Vh : Array
        Right singular vectors, as rows, with x = U @ diag(S) @ Vh.

    Examples
    --------
    >>> import arrstride as xp
    >>> r = xp.linalg.svd(xp.ones((3, 2)), full_matrices=False)
    >>> r.U.shape, r.S.shape, r.Vh.shape
    ((3, 2), (2,), (2, 2))
    """
    U: Array
    S: Array
    Vh: Array


_EPS = {dt.float32: 2.0 ** -23, dt.float64: 2.0 ** -52}


# ---- helpers -----------------------------------------------------------------------

def _float_dtype(x: Array) -> dt.DType:
    return x.dtype if x.dtype.kind in "fc" else dt.float64


def _matrices(func: str, x: Array, square: bool = False,
              narrow: bool = False) -> Tuple[Array, dt.DType]:
    """Validate a stack of matrices; return it (NumPy data converted) and the
    dtype the work runs in (narrow floats refused unless narrow)."""
    x = check_array(func, x)
    if x.ndim < 2:
        raise value_error(func, "x must have at least 2 dimensions", f"shape {x.shape}")
    if square and x.shape[-1] != x.shape[-2]:
        raise not_square_error(func, "x", x.shape)
    if not narrow:
        _no_half(func, x)
    return x, _float_dtype(x)


def _no_half(func: str, x: Array) -> None:
    """LAPACK has no narrow floats: refused in NumPy's words (its float16 message)."""
    if dt.is_narrow(x.dtype):
        raise type_error(func, f"array type {x.dtype.name} is unsupported in linalg (as in "
                               f"NumPy); cast to {x.dtype.compute.name} first", x.dtype)


def _colmajor(x: Array, dtype: dt.DType) -> Array:
    """A contiguous (batch..., cols, rows) copy of x in dtype: each matrix of
    x stored column-major, ready for LAPACK to overwrite."""
    out = Array._empty(x.shape[:-2] + (x.shape[-1], x.shape[-2]), dtype)
    K.copy_into(out, x.mT)
    return out


def _batch_size(shape: Tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _raise_if(func: str, info: list, rule: str) -> None:
    if any(i > 0 for i in info):
        raise LinAlgError(msg(func, rule))


def _rtol_array(func: str, rtol: Any, batch: Tuple[int, ...], dtype: dt.DType,
                m: int, n: int) -> Array:
    """rtol as a contiguous float64 array of the batch shape."""
    out = Array._empty(batch, dt.float64)
    if rtol is None:
        value = max(m, n) * _EPS[dt.real_of(dtype)]
        K.fill(out, dt.pack_scalar(value, dt.float64, func))
        return out
    if isinstance(rtol, Array):
        if rtol.dtype.kind not in "iuf":
            raise type_error(func, "rtol must have a real dtype", f"dtype {rtol.dtype}")
        lay = L.expand(rtol._layout, batch)
        if lay is None:
            raise broadcast_into_error(func, rtol.shape, batch, "rtol")
        K.copy_into(out, rtol._with_layout(lay))
        return out
    if isinstance(rtol, bool) or not isinstance(rtol, (int, float)):
        raise type_error(func, "rtol must be a real number or an array", repr(rtol))
    K.fill(out, dt.pack_scalar(float(rtol), dt.float64, func))
    return out


# ---- factorizations and solvers ----------------------------------------------------

def cholesky(x: Array, /, *, upper: bool = False) -> Array:
    """Cholesky factor of each Hermitian positive-definite matrix.

    Only the lower triangle of x is read (the upper one with ``upper=True``).

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold square matrices (a stack
        of them when more). Floating-point dtypes; beyond the standard, integers
        and bool are computed in float64, as NumPy.
    upper : bool, optional
        If True, return U with x = U^H @ U instead of L with x = L @ L^H.
        Default False.

    Returns
    -------
    Array
        A new array of x's shape: triangular factors.

    Raises
    ------
    LinAlgError
        If a matrix is not positive definite.
    ValueError
        If x has fewer than 2 dimensions or its matrices are not square.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.cholesky(xp.asarray([[4.0, 2.0], [2.0, 5.0]]))
    Array([[2., 0.],
           [1., 2.]])
    """
    func = "cholesky"
    x, dtype = _matrices(func, x, square=True)
    a = _colmajor(x, dtype)
    info = K.lapack("cholesky", a, int(bool(upper)))
    _raise_if(func, info, "the matrix is not positive definite")
    return a.mT


def det(x: Array, /) -> Array:
    """Determinant of each square matrix.

    Computed from an LU factorization (LAPACK).

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold square matrices (a stack
        of them when more). Floating-point dtypes; beyond the standard, integers
        and bool are computed in float64, as NumPy.

    Returns
    -------
    Array
        A new array of x's shape without its last two axes.

    Raises
    ------
    ValueError
        If x has fewer than 2 dimensions or its matrices are not square.

    See Also
    --------
    slogdet

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.det(xp.asarray([[2.0, 1.0], [1.0, 3.0]]))
    Array(5.)
    """
    func = "det"
    x, dtype = _matrices(func, x, square=True)
    a = _colmajor(x, dtype)
    out = Array._empty(x.shape[:-2], dtype)
    K.lapack("det", a, None, None, out)
    return out


def slogdet(x: Array, /) -> SlogdetResult:
    """Sign and natural logarithm of the absolute determinant of each matrix.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold square matrices (a stack
        of them when more). Floating-point dtypes; beyond the standard, integers
        and bool are computed in float64, as NumPy.

    Returns
    -------
    SlogdetResult
        Named tuple (sign, logabsdet); det = sign * exp(logabsdet).

    Raises
    ------
    ValueError
        If x has fewer than 2 dimensions or its matrices are not square.

    See Also
    --------
    det

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.slogdet(xp.asarray([[2.0, 0.0], [0.0, 3.0]]))
    SlogdetResult(sign=Array(1.), logabsdet=Array(1.79175947))
    """
    func = "slogdet"
    x, dtype = _matrices(func, x, square=True)
    a = _colmajor(x, dtype)
    sign = Array._empty(x.shape[:-2], dtype)
    logabs = Array._empty(x.shape[:-2], dt.real_of(dtype))
    K.lapack("det", a, sign, logabs, None)
    return SlogdetResult(sign, logabs)


def inv(x: Array, /) -> Array:
    """Inverse of each square matrix.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold square matrices (a stack
        of them when more). Floating-point dtypes; beyond the standard, integers
        and bool are computed in float64, as NumPy.

    Returns
    -------
    Array
        A new array of x's shape.

    Raises
    ------
    LinAlgError
        If a matrix is singular.
    ValueError
        If x has fewer than 2 dimensions or its matrices are not square.

    See Also
    --------
    solve, pinv

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.inv(xp.asarray([[2.0, 0.0], [0.0, 4.0]]))
    Array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    func = "inv"
    x, dtype = _matrices(func, x, square=True)
    a = _colmajor(x, dtype)
    out = Array._empty(x.shape, dtype)
    info = K.lapack("solve", a, x.shape[-1], out, 1)
    _raise_if(func, info, "the matrix is singular")
    return out.mT


def solve(x1: Array, x2: Array, /) -> Array:
    """Solution X of x1 @ X = x2 for each square matrix of x1.

    Parameters
    ----------
    x1 : Array
        Array of at least 2 dimensions whose last two hold square matrices.
    x2 : Array
        Right-hand sides: a vector when 1-D, else a stack of matrices; the batch
        axes broadcast against x1's.

    Returns
    -------
    Array
        A new array of x2's shape (with the batch axes broadcast).

    Raises
    ------
    LinAlgError
        If a matrix of x1 is singular.
    ValueError
        If the shapes do not match.

    See Also
    --------
    inv

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.solve(xp.asarray([[2.0, 0.0], [0.0, 4.0]]), xp.asarray([2.0, 2.0]))
    Array([1. , 0.5])
    """
    func = "solve"
    x1 = check_array(func, x1, "x1")
    x2 = check_array(func, x2, "x2")
    if x1.ndim < 2 or x1.shape[-1] != x1.shape[-2]:
        raise not_square_error(func, "x1", x1.shape)
    if x2.ndim == 0:
        raise shapes_error(func, "x2 must have at least one dimension", x1.shape, x2.shape)
    n = x1.shape[-1]
    vector = x2.ndim == 1
    b = x2._with_layout(L.insert_dims(x2._layout, (1,))) if vector else x2
    if b.shape[-2] != n:
        raise shapes_error(func, "x2 must have as many rows as x1", x1.shape, x2.shape)
    batch = L.broadcast_shapes(x1.shape[:-2], b.shape[:-2])
    if batch is None:
        raise broadcast_error(func, x1.shape, x2.shape, what="the batch dims",
                              core=(2, 1 if vector else 2))
    _no_half(func, x1)
    _no_half(func, x2)
    dtype = dt.promote(_float_dtype(x1), _float_dtype(x2))
    nrhs = b.shape[-1]
    a = _colmajor(x1._with_layout(L.expand(x1._layout, batch + (n, n))), dtype)
    rhs = _colmajor(b._with_layout(L.expand(b._layout, batch + (n, nrhs))), dtype)
    info = K.lapack("solve", a, nrhs, rhs, 0)
    _raise_if(func, info, "the matrix x1 is singular")
    out = rhs.mT
    if vector:
        out = out._with_layout(L.drop_dims(out._layout, (out.ndim - 1,)))
    return out


def _eigh(func: str, x: Array, vectors: bool) -> Tuple[Array, Array]:
    """Eigenvalues w of Hermitian matrices and, with `vectors`, the column-major
    stack whose transpose holds the eigenvectors."""
    x, dtype = _matrices(func, x, square=True)
    a = _colmajor(x, dtype)
    w = Array._empty(x.shape[:-1], dt.real_of(dtype))
    info = K.lapack("eigh", a, w, 1 if vectors else 0)
    _raise_if(func, info, "the eigenvalue algorithm did not converge")
    return w, a


def eigh(x: Array, /) -> EighResult:
    """Eigenvalues and eigenvectors of Hermitian (symmetric) matrices.

    Only the lower triangle of each matrix is read.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold square matrices (a stack
        of them when more). Floating-point dtypes; beyond the standard, integers
        and bool are computed in float64, as NumPy.

    Returns
    -------
    EighResult
        Named tuple (eigenvalues, eigenvectors): eigenvalues real and ascending,
        eigenvectors as columns.

    Raises
    ------
    LinAlgError
        If the computation does not converge.
    ValueError
        If x has fewer than 2 dimensions or its matrices are not square.

    See Also
    --------
    eigvalsh, eig

    Examples
    --------
    >>> import arrstride as xp
    >>> w, v = xp.linalg.eigh(xp.asarray([[2.0, 1.0], [1.0, 2.0]]))
    >>> w
    Array([1., 3.])
    """
    w, a = _eigh("eigh", x, True)
    return EighResult(w, a.mT)


def eigvalsh(x: Array, /) -> Array:
    """Eigenvalues of Hermitian (symmetric) matrices, ascending.

    Only the lower triangle of each matrix is read.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold square matrices (a stack
        of them when more). Floating-point dtypes; beyond the standard, integers
        and bool are computed in float64, as NumPy.

    Returns
    -------
    Array
        A new real array of the eigenvalues.

    Raises
    ------
    LinAlgError
        If the computation does not converge.
    ValueError
        If x has fewer than 2 dimensions or its matrices are not square.

    See Also
    --------
    eigh

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.eigvalsh(xp.asarray([[2.0, 1.0], [1.0, 2.0]]))
    Array([1., 3.])
    """
    return _eigh("eigvalsh", x, False)[0]


def _eig(func: str, x: Array, vectors: bool) -> Tuple[Array, Optional[Array]]:
    """Complex eigenvalues w of general matrices and, with `vectors`, the
    column-major stack v whose transpose holds the eigenvectors."""
    x, dtype = _matrices(func, x, square=True)
    a = _colmajor(x, dtype)
    cdt = dt.complex_of(dtype)
    w = Array._empty(x.shape[:-1], cdt)
    v = Array._empty(a.shape, cdt) if vectors else None
    info = K.lapack("eig", a, w, v)
    _raise_if(func, info, "the eigenvalue algorithm did not converge")
    return w, v


def eig(x: Array, /) -> EigResult:
    """Eigenvalues and right eigenvectors of general square matrices.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold square matrices (a stack
        of them when more). Floating-point dtypes; beyond the standard, integers
        and bool are computed in float64, as NumPy.

    Returns
    -------
    EigResult
        Named tuple (eigenvalues, eigenvectors), always complex (complex64 for
        float32 input); eigenvectors are columns of unit norm.

    Raises
    ------
    LinAlgError
        If the computation does not converge.
    ValueError
        If x has fewer than 2 dimensions or its matrices are not square.

    See Also
    --------
    eigh, eigvals

    Examples
    --------
    >>> import arrstride as xp
    >>> w, v = xp.linalg.eig(xp.asarray([[1.0, 1.0], [0.0, 2.0]]))
    >>> w
    Array([1.+0.j, 2.+0.j])
    """
    w, v = _eig("eig", x, True)
    return EigResult(w, v.mT)


def eigvals(x: Array, /) -> Array:
    """Eigenvalues of general square matrices.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold square matrices (a stack
        of them when more). Floating-point dtypes; beyond the standard, integers
        and bool are computed in float64, as NumPy.

    Returns
    -------
    Array
        A new complex array of the eigenvalues, unordered (LAPACK's geev).

    Raises
    ------
    LinAlgError
        If the computation does not converge.
    ValueError
        If x has fewer than 2 dimensions or its matrices are not square.

    See Also
    --------
    eig, eigvalsh

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.eigvals(xp.asarray([[0.0, -1.0], [1.0, 0.0]]))
    Array([0.+1.j, 0.-1.j])
    """
    return _eig("eigvals", x, False)[0]


def _svd_rows(x: Array, dtype: dt.DType, vectors: bool):
    """(s, u, vt) straight from a C-contiguous tall real matrix when the C
    side's one-pass form applies, else None (no column-major copy needed)."""
    if x.ndim != 2 or x.dtype is not dtype or dtype not in (dt.float32, dt.float64):
        return None
    m, n = x.shape
    if m < 4 * n or n == 0 or x.strides != (n, 1):
        return None
    s = Array._empty((n,), dtype)
    u = Array._empty((n, m), dtype) if vectors else None
    vt = Array._empty((n, n), dtype) if vectors else None
    if not K.svd_rows(x, s, u, vt, b"S" if vectors else b"N"):
        return None
    return s, u, vt


def svd(x: Array, /, *, full_matrices: bool = True) -> SVDResult:
    """Singular value decomposition of each matrix.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold (M, N) matrices.
    full_matrices : bool, optional
        If True (the default), U is M x M and Vh is N x N; else M x K and K x N,
        K = min(M, N).

    Returns
    -------
    SVDResult
        Named tuple (U, S, Vh) with x = U @ diag(S) @ Vh; S real and descending.

    Raises
    ------
    LinAlgError
        If the computation does not converge.

    See Also
    --------
    svdvals

    Examples
    --------
    >>> import arrstride as xp
    >>> u, s, vh = xp.linalg.svd(xp.asarray([[3.0, 0.0], [0.0, -2.0]]))
    >>> s
    Array([3., 2.])
    """
    func = "svd"
    x, dtype = _matrices(func, x)
    m, n = x.shape[-2:]
    k = min(m, n)
    batch = x.shape[:-2]
    if not full_matrices:
        rows = _svd_rows(x, dtype, True)
        if rows is not None:
            s, u, vt = rows
            return SVDResult(u.mT, s, vt.mT)
    a = _colmajor(x, dtype)
    ucols, vrows = (m, n) if full_matrices else (k, k)
    s = Array._empty(batch + (k,), dt.real_of(dtype))
    u = Array._empty(batch + (ucols, m), dtype)
    vt = Array._empty(batch + (n, vrows), dtype)
    info = K.lapack("svd", a, s, u, vt, b"A" if full_matrices else b"S")
    _raise_if(func, info, "the SVD did not converge")
    return SVDResult(u.mT, s, vt.mT)


def svdvals(x: Array, /) -> Array:
    """Singular values of each matrix, descending.

    Tall matrices go through a Cholesky-based QR first (see the guide's
    internals).

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold the matrices.

    Returns
    -------
    Array
        A new real array of the singular values, of length min(M, N) per matrix.

    See Also
    --------
    svd

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.svdvals(xp.asarray([[3.0, 0.0], [0.0, -2.0]]))
    Array([3., 2.])
    """
    func = "svdvals"
    x, dtype = _matrices(func, x)
    m, n = x.shape[-2:]
    rows = _svd_rows(x, dtype, False)
    if rows is not None:
        return rows[0]
    a = _colmajor(x, dtype)
    s = Array._empty(x.shape[:-2] + (min(m, n),), dt.real_of(dtype))
    info = K.lapack("svd", a, s, None, None, b"N")
    _raise_if(func, info, "the SVD did not converge")
    return s


def qr(x: Array, /, *, mode: str = "reduced") -> QRResult:
    """QR factorization of each matrix.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold (M, N) matrices.
    mode : {'reduced', 'complete'}, optional
        'reduced' (the default): Q is M x K and R is K x N, K = min(M, N).
        'complete': Q is M x M and R is M x N.

    Returns
    -------
    QRResult
        Named tuple (Q, R): Q with orthonormal columns, R upper triangular,
        x = Q @ R.

    Raises
    ------
    ValueError
        If mode is neither 'reduced' nor 'complete'.

    Examples
    --------
    >>> import arrstride as xp
    >>> q, r = xp.linalg.qr(xp.asarray([[3.0], [4.0]]))
    >>> xp.abs(r)
    Array([[5.]])
    >>> q @ r
    Array([[3.],
           [4.]])
    """
    func = "qr"
    x, dtype = _matrices(func, x)
    if mode not in ("reduced", "complete"):
        raise value_error(func, "mode must be 'reduced' or 'complete'", repr(mode))
    m, n = x.shape[-2:]
    k = min(m, n)
    batch = x.shape[:-2]
    qc = m if mode == "complete" else k
    a = _colmajor(x, dtype)
    q = Array._empty(batch + (qc, m), dtype)
    r = Array._empty(batch + (n, qc), dtype)
    info = K.lapack("qr", a, q, r, int(mode == "complete"))
    _raise_if(func, info, "the QR factorization failed")
    return QRResult(q.mT, r.mT)


def pinv(x: Array, /, *, rtol: Optional[Union[float, Array]] = None) -> Array:
    """Moore-Penrose pseudo-inverse of each matrix, from its SVD.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold the matrices.
    rtol : float or Array, optional
        Relative tolerance: singular values at most rtol * max(S) count as zero.
        By default max(M, N) * eps of x's dtype.

    Returns
    -------
    Array
        A new array: each (M, N) matrix becomes an (N, M) one.

    See Also
    --------
    inv

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.pinv(xp.asarray([[2.0, 0.0], [0.0, 0.0]]))
    Array([[0.5, 0. ],
           [0. , 0. ]])
    """
    func = "pinv"
    x, dtype = _matrices(func, x)
    m, n = x.shape[-2:]
    batch = x.shape[:-2]
    tol = _rtol_array(func, rtol, batch, dtype, m, n)
    a = _colmajor(x, dtype)
    out = Array._empty(batch + (m, n), dtype, zero=True)
    info = K.lapack("pinv", a, out, tol)
    _raise_if(func, info, "the SVD did not converge")
    return out.mT


def matrix_rank(x: Array, /, *, rtol: Optional[Union[float, Array]] = None) -> Array:
    """Rank of each matrix: its number of singular values above a tolerance.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold the matrices.
    rtol : float or Array, optional
        Relative tolerance: singular values at most rtol * max(S) do not count.
        By default max(M, N) * eps of x's dtype.

    Returns
    -------
    Array
        A new int64 array of x's shape without its last two axes.

    Raises
    ------
    LinAlgError
        If a matrix holds NaN or infinity (its rank is undefined).

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.matrix_rank(xp.asarray([[1.0, 2.0], [2.0, 4.0]]))
    Array(1)
    """
    func = "matrix_rank"
    x, dtype = _matrices(func, x)
    m, n = x.shape[-2:]
    batch = x.shape[:-2]
    tol = _rtol_array(func, rtol, batch, dtype, m, n)
    s = svdvals(_astype(x, dtype, copy=False))
    if s.size and bool(_any(_isnan(s))):  # NaN singular values rank nothing: refuse, as NumPy's SVD
        raise LinAlgError(msg(func, "the matrix holds NaN or infinity; its rank is undefined"))
    out = Array._empty(batch, dt.int64)
    K.rank_from_s(s, tol, out)
    return out


def matrix_power(x: Array, n: int, /) -> Array:
    """Each square matrix raised to an integer power.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold square matrices (a stack
        of them when more). Floating-point dtypes; beyond the standard, integers
        and bool are computed in float64, as NumPy.
    n : int
        Exponent: n > 0 multiplies x by itself n times, 0 gives the identity,
        n < 0 gives powers of inv(x).

    Returns
    -------
    Array
        A new array of x's shape.

    Raises
    ------
    TypeError
        If n is not an int.
    LinAlgError
        If n < 0 and a matrix is singular.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.matrix_power(xp.asarray([[1, 1], [0, 1]]), 3)
    Array([[1, 3],
           [0, 1]])
    """
    func = "matrix_power"
    x = check_array(func, x)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise not_square_error(func, "x", x.shape)
    n = int_arg(func, n, "n must be an int")
    if n == 0:
        out = Array._empty(x.shape, x.dtype, zero=True)
        size = x.shape[-1]
        eye = out._with_layout(L.Layout(x.shape[:-2] + (size,), L.contiguous(x.shape).strides[:-2]
                                        + (size + 1,), 0))
        K.fill(eye, dt.pack_scalar(1, x.dtype, func))
        return out
    base = inv(x) if n < 0 else x
    n = abs(n)
    result = None
    while True:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if not n:
            break
        base = matmul(base, base)
    return result if result is not x else x._copy_contiguous()


# ---- products ----------------------------------------------------------------------

def outer(x1: Array, x2: Array, /) -> Array:
    """Outer product of two vectors.

    Parameters
    ----------
    x1 : Array
        First 1-D array, of a numeric dtype.
    x2 : Array
        Second 1-D array.

    Returns
    -------
    Array
        A new 2-D array of shape (x1.size, x2.size) and the promoted dtype.

    Raises
    ------
    ValueError
        If x1 or x2 is not 1-D.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.outer(xp.asarray([1, 2]), xp.asarray([1, 10, 100]))
    Array([[  1,  10, 100],
           [  2,  20, 200]])
    """
    func = "outer"
    x1 = check_array(func, x1, "x1")
    x2 = check_array(func, x2, "x2")
    if x1.ndim != 1 or x2.ndim != 1:
        raise shapes_error(func, "x1 and x2 must be 1-D", x1.shape, x2.shape)
    if x1.dtype.kind == "b" or x2.dtype.kind == "b":
        raise dtype_error(func, "numeric", x1.dtype if x1.dtype.kind == "b" else x2.dtype)
    dtype = dt.promote(x1.dtype, x2.dtype)
    n, m = x1.shape[0], x2.shape[0]
    a = _astype(x1, dtype, copy=False)
    b = _astype(x2, dtype, copy=False)
    # out[i, j] = a[i] * b[j]: a one-term product per element (keeps -0.0, unlike gemm)
    a = a._with_layout(L.Layout((n, m, 1), (a.strides[0], 0, 0), a._layout.offset))
    b = b._with_layout(L.Layout((n, m, 1), (0, b.strides[0], 0), b._layout.offset))
    out = Array._empty((n, m), dtype)
    K.dot_reduce(K.DOT_MUL, out, a, b)
    return out


def cross(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """Cross product of 3-element vectors along an axis.

    Parameters
    ----------
    x1 : Array
        First array, of a numeric dtype.
    x2 : Array
        Second array; its shape broadcasts against x1's.
    axis : int, optional
        Axis holding the vectors, of size 3 in both; default -1.

    Returns
    -------
    Array
        A new array of the broadcast shape and the promoted dtype.

    Raises
    ------
    ValueError
        If axis does not have size 3 in both arrays, or the shapes do not
        broadcast.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.cross(xp.asarray([1.0, 0.0, 0.0]), xp.asarray([0.0, 1.0, 0.0]))
    Array([0., 0., 1.])
    """
    func = "cross"
    x1 = check_array(func, x1, "x1")
    x2 = check_array(func, x2, "x2")
    if x1.dtype.kind == "b" or x2.dtype.kind == "b":
        raise dtype_error(func, "numeric", x1.dtype if x1.dtype.kind == "b" else x2.dtype)
    shape = L.broadcast_shapes(x1.shape, x2.shape)
    if shape is None:
        raise broadcast_error(func, x1.shape, x2.shape, what="x1 and x2")
    if len(shape) == 0:
        raise shapes_error(func, "x1 and x2 must have at least one dimension", x1.shape, x2.shape)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise type_error(func, "axis must be an int", repr(axis))
    if not -min(x1.ndim, x2.ndim) <= axis < 0 and not 0 <= axis < min(x1.ndim, x2.ndim):
        raise axis_error(func, axis, min(x1.ndim, x2.ndim))
    ax = normalize_axis(func, axis, len(shape))
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise shapes_error(func, f"axis {axis} must have size 3 in x1 and x2", x1.shape, x2.shape)
    dtype = dt.promote(x1.dtype, x2.dtype)
    nd = len(shape)
    order = tuple(d for d in range(nd) if d != ax) + (ax,)

    def prep(x):
        x = _astype(x, dtype, copy=False)
        x = x._with_layout(L.expand(x._layout, shape))
        return x._with_layout(L.permute(x._layout, order))

    out = Array._empty(shape, dtype)
    K.cross(out._with_layout(L.permute(out._layout, order)), prep(x1), prep(x2))
    return out


# ---- views and reductions --------------------------------------------------------------

def diagonal(x: Array, /, *, offset: int = 0) -> Array:
    """Diagonal of each matrix, as a view.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold the matrices.
    offset : int, optional
        Diagonal: 0 (the default) the main one, positive above it, negative
        below it.

    Returns
    -------
    Array
        A view of x: its shape without the last two axes, plus the diagonal's
        length.

    Raises
    ------
    ValueError
        If x has fewer than 2 dimensions.

    See Also
    --------
    trace

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    >>> xp.linalg.diagonal(x)
    Array([1, 5])
    >>> xp.linalg.diagonal(x, offset=1)
    Array([2, 6])
    """
    func = "diagonal"
    x = check_array(func, x)
    if x.ndim < 2:
        raise value_error(func, "x must have at least 2 dimensions", f"shape {x.shape}")
    return _diagonal_view(x, offset, x.ndim - 2, x.ndim - 1)


def trace(x: Array, /, *, offset: int = 0, dtype: Optional[dt.DType] = None) -> Array:
    """Sum of a diagonal of each matrix.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold the matrices.
    offset : int, optional
        Diagonal: 0 (the default) the main one, positive above it, negative
        below it.
    dtype : DType or Python type, optional
        Data type to sum in and return; by default x's, except that integers sum
        in int64 (uint64 for unsigned), as NumPy.

    Returns
    -------
    Array
        A new array of x's shape without its last two axes.

    See Also
    --------
    diagonal

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([[1, 2], [3, 4]])
    >>> xp.linalg.trace(x)
    Array(5)
    >>> xp.linalg.trace(x, offset=1)
    Array(2)
    """
    func = "trace"
    x = check_array(func, x)
    if x.ndim < 2:
        raise value_error(func, "x must have at least 2 dimensions", f"shape {x.shape}")
    if dtype is not None and not isinstance(dtype, dt.DType):
        raise type_error(func, "dtype must be an arrstride dtype or None", repr(dtype))
    if x.dtype.kind == "b" and dtype is None:
        raise dtype_error(func, "numeric", x.dtype)
    if dtype is None:
        kind = x.dtype.kind
        dtype = dt.int64 if kind == "i" else dt.uint64 if kind == "u" else x.dtype
    if dt.is_narrow(dtype):  # summed in float32 and rounded once
        return dt.in_dtype(trace(x, offset=offset, dtype=dtype.compute), dtype)
    d = _astype(diagonal(x, offset=offset), dtype, copy=False)
    out = Array._empty(d.shape[:-1], dtype)
    K.dot_reduce(K.DOT_SUM, out, d, d)
    return out


_ORD_KIND = {2: K.NORM_2, 1: K.NORM_1, math.inf: K.NORM_MAX, -math.inf: K.NORM_MIN, 0: K.NORM_0}


def vector_norm(x: Array, /, *, axis: Optional[Union[int, Tuple[int, ...]]] = None,
                keepdims: bool = False, ord: Union[int, float] = 2) -> Array:
    """Vector norm of x over the given axes.

    Parameters
    ----------
    x : Array
        Input array of a floating-point dtype.
    axis : int or tuple of int, optional
        Axis or axes the vectors lie along; None (the default) takes all of x as
        one vector.
    keepdims : bool, optional
        If True, the reduced axes stay with size 1. Default False.
    ord : int or float, optional
        Which norm: 2 (the default), any p for ``sum(abs(x)**p)**(1/p)``, inf (largest
        abs(x)), -inf (smallest), 0 (number of non-zero elements).

    Returns
    -------
    Array
        A new array of the norms, of x's real floating dtype.

    See Also
    --------
    matrix_norm

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.vector_norm(xp.asarray([3.0, 4.0]))
    Array(5.)
    """
    out = _core_vector_norm(x, axis, keepdims, ord)  # one axis or all, a real ord: in C
    if out is not None:
        return out
    func = "vector_norm"
    x = check_array(func, x)
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise type_error(func, "ord must be a real number", repr(ord))
    dtype = _float_dtype(x)
    x = _astype(x, dtype, copy=False)
    axes = normalize_axes(func, axis, x.ndim)
    keep = tuple(d for d in range(x.ndim) if d not in axes)
    red = tuple(d for d in range(x.ndim) if d in axes)  # ascending: C order of the reduced part
    v = x._with_layout(L.permute(x._layout, keep + red))
    kshape = tuple(x.shape[d] for d in keep)
    length = _batch_size(tuple(x.shape[d] for d in red))
    if len(red) != 1:
        v = reshape(v, kshape + (length,))
    kind = _ORD_KIND.get(ord, K.NORM_P)
    # a narrow float is read as float32, its norm computed as float32's and rounded once
    rdtype = dt.real_of(dtype)
    out = Array._empty(kshape, rdtype.compute)
    K.vector_norm(out, v, kind, float(ord))
    out = dt.in_dtype(out, rdtype)
    if keepdims:
        shape = tuple(1 if d in axes else x.shape[d] for d in range(x.ndim))
        out = out._with_layout(L.contiguous(shape))
    return out


def matrix_norm(x: Array, /, *, keepdims: bool = False,
                ord: Optional[Union[int, float, str]] = "fro") -> Array:
    """Norm of each matrix.

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold the matrices.
    keepdims : bool, optional
        If True, the last two axes stay with size 1. Default False.
    ord : {'fro', 'nuc', 1, -1, 2, -2, inf, -inf}, optional
        Which norm: Frobenius (the default), nuclear, largest (smallest) column
        sum for 1 (-1), largest (smallest) singular value for 2 (-2), largest
        (smallest) row sum for inf (-inf).

    Returns
    -------
    Array
        A new array of the norms, of x's real floating dtype.

    Raises
    ------
    ValueError
        If ord is not one of those above, or x has fewer than 2 dimensions.

    See Also
    --------
    vector_norm

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> xp.linalg.matrix_norm(x)
    Array(5.47722558)
    >>> xp.linalg.matrix_norm(x, ord=1)
    Array(6.)
    """
    func = "matrix_norm"
    if isinstance(x, Array) and dt.is_narrow(x.dtype) and ord in ("nuc", 2, -2):
        # singular values in float32 (LAPACK takes a float32 copy), rounded once
        return dt.through_compute(matrix_norm, x.dtype, x, keepdims=keepdims, ord=ord)
    x, dtype = _matrices(func, x, narrow=True)  # vector_norm reads narrow floats
    x = _astype(x, dtype, copy=False)
    nd = x.ndim
    if ord == "fro" or ord is None:
        out = vector_norm(x, axis=(nd - 2, nd - 1), ord=2)
    elif ord == "nuc":
        out = vector_norm(svdvals(x), axis=-1, ord=1)
    elif isinstance(ord, (int, float)) and not isinstance(ord, bool) and ord in (2, -2):
        s = svdvals(x)
        out = vector_norm(s, axis=-1, ord=math.inf if ord == 2 else -math.inf)
    elif isinstance(ord, (int, float)) and not isinstance(ord, bool) and ord in (1, -1):
        sums = vector_norm(x, axis=nd - 2, ord=1)
        out = vector_norm(sums, axis=-1, ord=math.inf if ord == 1 else -math.inf)
    elif isinstance(ord, (int, float)) and not isinstance(ord, bool) and ord in (math.inf,
                                                                                 -math.inf):
        sums = vector_norm(x, axis=nd - 1, ord=1)
        out = vector_norm(sums, axis=-1, ord=ord)
    else:
        raise value_error(func, "ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf", repr(ord))
    if keepdims:
        out = out._with_layout(L.contiguous(x.shape[:-2] + (1, 1)))
    return out


# ---- NumPy's linalg functions that PyTorch has too ----------------------------------


def norm(x: Array, ord: Optional[Union[int, float, str]] = None,
         axis: Optional[Union[int, Tuple[int, int]]] = None, keepdims: bool = False) -> Array:
    """Vector or matrix norm, NumPy's way.

    Not in the standard: NumPy's linalg.norm. With axis None, a 1-D x gets a
    vector norm, a 2-D x a matrix norm, and with ord None any x the 2-norm
    of its flattened elements; an int axis asks for vector norms, a pair of
    axes for matrix norms (vector_norm and matrix_norm do the work).

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too.
    ord : int, float, inf, -inf, 'fro' or 'nuc', optional
        Which norm (see vector_norm and matrix_norm); default the 2-norm of
        vectors, Frobenius of matrices.
    axis : int or tuple of int, optional
        Axis of the vectors, or the two axes of the matrices.
    keepdims : bool, optional
        Keep the reduced axes with size 1; default False.

    Returns
    -------
    Array
        A new array of x's real floating dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.norm(xp.asarray([3.0, 4.0]))
    Array(5.)
    >>> xp.linalg.norm(xp.asarray([[1.0, 2.0], [3.0, 4.0]]), ord=1)
    Array(6.)
    """
    func = "norm"
    x = check_array(func, x)
    if x.dtype.kind in "biu":
        x = _astype(x, dt.float64)
    if axis is None:
        if ord is None:
            out = vector_norm(x, axis=None, ord=2)
            return reshape(out, (1,) * x.ndim) if keepdims else out
        if x.ndim == 1:
            axis = 0
        elif x.ndim == 2:
            axis = (0, 1)
        else:
            raise value_error(func, "improper number of dimensions to norm", f"shape {x.shape}")
    if isinstance(axis, int) and not isinstance(axis, bool):
        if isinstance(ord, str):
            raise value_error(func, f"invalid norm order {ord!r} for vectors", repr(ord))
        return vector_norm(x, axis=axis, ord=2 if ord is None else ord, keepdims=keepdims)
    axis = tuple(axis)
    if len(axis) == 1:
        return vector_norm(x, axis=axis[0], ord=2 if ord is None else ord, keepdims=keepdims)
    if len(axis) != 2:
        raise value_error(func, "improper number of dimensions to norm", repr(axis))
    a0 = normalize_axis(func, axis[0], x.ndim)
    a1 = normalize_axis(func, axis[1], x.ndim)
    if a0 == a1:
        raise value_error(func, "duplicate axes given", repr(axis))
    rest = [i for i in range(x.ndim) if i not in (a0, a1)]
    moved = permute_dims(x, tuple(rest) + (a0, a1))
    out = matrix_norm(moved, ord="fro" if ord is None else ord)
    if keepdims:
        shape = list(x.shape)
        shape[a0] = shape[a1] = 1
        out = reshape(out, tuple(shape))
    return out


def cond(x: Array, p: Optional[Union[int, float, str]] = None) -> Array:
    """Condition number of each matrix.

    Not in the standard: NumPy's linalg.cond: the ratio of the largest to the
    smallest singular value (p None, 2, -2), or norm(x, p) * norm(inv(x), p).

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions whose last two hold the matrices.
    p : int, float, inf, -inf, 'fro' or 'nuc', optional
        Order of the norm; default None (2-norm, by singular values).

    Returns
    -------
    Array
        A new array of the condition numbers, of x's real floating dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.linalg.cond(xp.asarray([[2.0, 0.0], [0.0, 0.5]]))
    Array(4.)
    """
    func = "cond"
    x = check_array(func, x)
    if x.ndim < 2:
        raise value_error(func, "x must have at least 2 dimensions", f"shape {x.shape}")
    if x.dtype.kind in "biu":
        x = _astype(x, dt.float64)
    if p is None or (not isinstance(p, str) and p in (2, -2)):
        s = svdvals(x)
        if p == -2:
            return _divide(s[..., -1], s[..., 0])
        return _divide(s[..., 0], s[..., -1])
    try:
        inv_x = inv(x)
    except LinAlgError:  # NumPy: a singular matrix has condition number inf
        if x.ndim == 2:
            return _astype(_zeros((), dtype=dt.real_of(_float_dtype(x))) + math.inf,
                           dt.real_of(_float_dtype(x)))
        from ._manipulation_functions import stack
        flat = reshape(x, (-1,) + x.shape[-2:])
        return reshape(stack([cond(flat[i], p) for i in range(flat.shape[0])]), x.shape[:-2])
    return _multiply(matrix_norm(x, ord=p), matrix_norm(inv_x, ord=p))


def lstsq(a: Array, b: Array, rcond: Optional[float] = None) -> Tuple[Array, Array, int, Array]:
    """Least-squares solution of a @ x = b.

    Not in the standard: NumPy's linalg.lstsq, by the singular value
    decomposition (singular values at most rcond times the largest count as
    zero).

    Parameters
    ----------
    a : Array
        (M, N) coefficient matrix.
    b : Array
        (M,) or (M, K) right-hand side.
    rcond : float, optional
        Cut-off ratio for small singular values; default eps * max(M, N).

    Returns
    -------
    x : Array
        (N,) or (N, K) least-squares solution.
    residuals : Array
        Sums of squared residuals, (K,) or (1,), when M > N and a has full
        rank; else an empty array.
    rank : int
        Effective rank of a.
    s : Array
        Singular values of a.

    Examples
    --------
    >>> import arrstride as xp
    >>> a = xp.asarray([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
    >>> x, res, rank, s = xp.linalg.lstsq(a, xp.asarray([1.0, 2.0, 3.0]))
    >>> xp.round(x, decimals=6), rank
    (Array([1., 1.]), 2)
    """
    func = "lstsq"
    a = check_array(func, a, "a")
    b = check_array(func, b, "b")
    if a.ndim != 2:
        raise value_error(func, "a must be 2-D", f"shape {a.shape}")
    if b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise value_error(func, "b must be (M,) or (M, K) for a of shape (M, N)",
                          f"{a.shape} and {b.shape}")
    dtype = dt.promote(_float_dtype(a), _float_dtype(b))
    a = _astype(a, dtype, copy=False)
    b = _astype(b, dtype, copy=False)
    m, n = a.shape
    b2 = reshape(b, (-1, 1)) if b.ndim == 1 else b
    if rcond is None:
        rcond = finfo(dtype).eps * builtins.max(m, n)
    if m == 0 or n == 0:
        x = _zeros((n, b2.shape[1]), dtype=dtype)
        s = _zeros((0,), dtype=dt.real_of(dtype))
        rank = 0
    else:
        u, s, vt = svd(a, full_matrices=False)
        big = _greater(s, rcond * float(s[0]))
        rank = int(_sum(_astype(big, dt.int64)))
        inv_s = _where(big, _divide(1.0, _where(big, s, 1.0)), 0.0)
        uhb = matmul(_conj_t(u), b2)
        x = matmul(_conj_t(vt), _multiply(reshape(_astype(inv_s, dtype), (-1, 1)), uhb))
    if rank == n and m > n:
        r = _subtract(b2, matmul(a, x))
        resid = _sum(_abs2(r), axis=0)
    else:
        resid = _zeros((0,), dtype=dt.real_of(dtype))
    if b.ndim == 1:
        x = reshape(x, (-1,))
    return x, resid, rank, s


def multi_dot(arrays: Sequence[Array], *, out: Optional[Array] = None) -> Array:
    """Product of two or more matrices, in the cheapest order.

    Not in the standard: NumPy's linalg.multi_dot: the first array may be 1-D
    (a row vector) and the last 1-D (a column vector); the order of the
    products is chosen as NumPy does (matrix-chain dynamic programming).

    Parameters
    ----------
    arrays : sequence of Array
        The matrices, of matching inner dimensions.
    out : Array, optional
        Must be None (no output argument).

    Returns
    -------
    Array
        A new array: the product.

    Examples
    --------
    >>> import arrstride as xp
    >>> a = xp.ones((2, 3))
    >>> xp.linalg.multi_dot([a, xp.ones((3, 4)), xp.ones(4)])
    Array([12., 12.])
    """
    func = "multi_dot"
    if out is not None:
        raise type_error(func, "out is not supported", type(out).__name__)
    arrs = [check_array(func, a, "arrays") for a in arrays]
    n = len(arrs)
    if n < 2:
        raise value_error(func, "expecting at least two arrays", n)
    if n == 2:
        return matmul(arrs[0], arrs[1])
    first, last = arrs[0].ndim, arrs[-1].ndim
    if first == 1:
        arrs[0] = reshape(arrs[0], (1, -1))
    if last == 1:
        arrs[-1] = reshape(arrs[-1], (-1, 1))
    for a in arrs:
        if a.ndim != 2:
            raise value_error(func, "every array but the first and last must be 2-D",
                              f"shape {a.shape}")
    if n == 3:
        res = _multi_dot_three(*arrs)
    else:
        order = _chain_order(arrs)
        res = _chain(arrs, order, 0, n - 1)
    if first == 1 and last == 1:
        return reshape(res, ())
    if first == 1 or last == 1:
        return reshape(res, (-1,))
    return res


def _multi_dot_three(a: Array, b: Array, c: Array) -> Array:
    a0, a1b0 = a.shape
    b1c0, c1 = c.shape
    cost1 = a0 * b1c0 * (a1b0 + c1)
    cost2 = a1b0 * c1 * (a0 + b1c0)
    return matmul(matmul(a, b), c) if cost1 < cost2 else matmul(a, matmul(b, c))


def _chain_order(arrs):
    n = len(arrs)
    p = [a.shape[0] for a in arrs] + [arrs[-1].shape[1]]
    m = [[0] * n for _ in range(n)]
    s = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            m[i][j] = math.inf
            for k in range(i, j):
                q = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if q < m[i][j]:
                    m[i][j] = q
                    s[i][j] = k
    return s


def _chain(arrs, s, i, j):
    if i == j:
        return arrs[i]
    return matmul(_chain(arrs, s, i, s[i][j]), _chain(arrs, s, s[i][j] + 1, j))


def tensorinv(a: Array, ind: int = 2) -> Array:
    """Inverse of an N-dimensional array for tensordot.

    Not in the standard: NumPy's linalg.tensorinv: a's first ind dimensions
    against the rest, as a square matrix, inverted.

    Parameters
    ----------
    a : Array
        Array whose first ind dimensions have the product of the rest.
    ind : int, optional
        Number of first dimensions; default 2.

    Returns
    -------
    Array
        A new array of shape a.shape[ind:] + a.shape[:ind].

    Examples
    --------
    >>> import arrstride as xp
    >>> a = xp.reshape(xp.eye(4), (4, 2, 2))
    >>> xp.linalg.tensorinv(a, ind=1).shape
    (2, 2, 4)
    """
    func = "tensorinv"
    a = check_array(func, a, "a")
    if isinstance(ind, bool) or not isinstance(ind, int) or ind <= 0:
        raise value_error(func, "ind must be a positive int", repr(ind))
    old = a.shape
    prod = 1
    for d in old[ind:]:
        prod *= d
    inv_a = inv(reshape(a, (prod, -1)))
    return reshape(inv_a, old[ind:] + old[:ind])


def tensorsolve(a: Array, b: Array, axes: Optional[Sequence[int]] = None) -> Array:
    """Solution x of tensordot(a, x, axes=x.ndim) = b.

    Not in the standard: NumPy's linalg.tensorsolve.

    Parameters
    ----------
    a : Array
        Coefficient array of shape b.shape + x.shape.
    b : Array
        Right-hand side.
    axes : tuple of int, optional
        Axes of a moved to the end before solving; default None.

    Returns
    -------
    Array
        A new array x of shape a.shape[b.ndim:].

    Examples
    --------
    >>> import arrstride as xp
    >>> a = xp.reshape(xp.eye(6), (2, 3, 6))
    >>> xp.linalg.tensorsolve(a, xp.ones((2, 3))).shape
    (6,)
    """
    func = "tensorsolve"
    a = check_array(func, a, "a")
    b = check_array(func, b, "b")
    if axes is not None:
        axes = [normalize_axis(func, ax, a.ndim) for ax in axes]
        order = [i for i in range(a.ndim) if i not in axes] + list(axes)
        a = permute_dims(a, tuple(order))
    oldshape = a.shape[-(a.ndim - b.ndim):] if a.ndim > b.ndim else ()
    prod = 1
    for d in oldshape:
        prod *= d
    if a.size != prod * prod:
        raise LinAlgError(msg(func, "input arrays must satisfy prod(a.shape[b.ndim:]) == "
                                    "prod(a.shape[:b.ndim])", f"{a.shape} and {b.shape}"))
    x = solve(reshape(a, (-1, prod)), reshape(b, (prod, 1)))
    return reshape(x, oldshape)


def _conj_t(x: Array) -> Array:
    return matrix_transpose(_conj(x) if x.dtype.kind == "c" else x)


def _abs2(x: Array) -> Array:
    return _square(_absf(x)) if x.dtype.kind == "c" else _square(x)
