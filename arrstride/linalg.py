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

import math
from typing import Any, NamedTuple, Optional, Tuple, Union

from . import _dtypes as dt
from . import _kernels as K
from . import _layout as L
from ._args import int_arg, normalize_axes, normalize_axis
from ._array import Array, check_array
from ._elementwise_functions import isnan as _isnan
from ._errors import (axis_error, broadcast_error, broadcast_into_error, dtype_error, msg,
                      not_square_error,
                      shapes_error, type_error, value_error)
from ._linear_algebra_functions import matmul, tensordot, vecdot
from ._manipulation_functions import matrix_transpose, reshape
from ._utility_functions import any as _any
from ._views import diagonal as _diagonal_view

__all__ = [
    "LinAlgError", "EigResult", "EighResult", "QRResult", "SlogdetResult", "SVDResult",
    "cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv",
    "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer",
    "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot",
    "vector_norm",
]


class LinAlgError(ValueError):
    """A matrix for which the operation is undefined (singular, not positive
    definite) or a factorization that did not converge."""


class EigResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class EighResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    Q: Array
    R: Array


class SlogdetResult(NamedTuple):
    sign: Array
    logabsdet: Array


class SVDResult(NamedTuple):
    U: Array
    S: Array
    Vh: Array


_EPS = {dt.float32: 2.0 ** -23, dt.float64: 2.0 ** -52}


# ---- helpers -----------------------------------------------------------------------

def _float_dtype(x: Array) -> dt.DType:
    return x.dtype if x.dtype.kind in "fc" else dt.float64


def _matrices(func: str, x: Array, square: bool = False) -> Tuple[Array, dt.DType]:
    """Validate a stack of matrices; return it (NumPy data converted) and the
    dtype the work runs in."""
    x = check_array(func, x)
    if x.ndim < 2:
        raise value_error(func, "x must have at least 2 dimensions", f"shape {x.shape}")
    if square and x.shape[-1] != x.shape[-2]:
        raise not_square_error(func, "x", x.shape)
    _no_half(func, x)
    return x, _float_dtype(x)


def _no_half(func: str, x: Array) -> None:
    """LAPACK has no float16: refused in NumPy's words."""
    if x.dtype is dt.float16:
        raise type_error(func, "array type float16 is unsupported in linalg (as in NumPy); "
                               "cast to float32 first", x.dtype)


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
    """L with x = L @ L^H (or U with x = U^H @ U when upper); reads the lower
    (upper) triangle of x only. A new array."""
    func = "cholesky"
    x, dtype = _matrices(func, x, square=True)
    a = _colmajor(x, dtype)
    info = K.lapack("cholesky", a, int(bool(upper)))
    _raise_if(func, info, "the matrix is not positive definite")
    return a.mT


def det(x: Array, /) -> Array:
    """The determinant of each square matrix of ``x`` (LU factorization in LAPACK)."""
    func = "det"
    x, dtype = _matrices(func, x, square=True)
    a = _colmajor(x, dtype)
    out = Array._empty(x.shape[:-2], dtype)
    K.lapack("det", a, None, None, out)
    return out


def slogdet(x: Array, /) -> SlogdetResult:
    """The sign and the natural logarithm of the absolute determinant of each
    square matrix of ``x``, as ``SlogdetResult(sign, logabsdet)``.
    """
    func = "slogdet"
    x, dtype = _matrices(func, x, square=True)
    a = _colmajor(x, dtype)
    sign = Array._empty(x.shape[:-2], dtype)
    logabs = Array._empty(x.shape[:-2], dt.real_of(dtype))
    K.lapack("det", a, sign, logabs, None)
    return SlogdetResult(sign, logabs)


def inv(x: Array, /) -> Array:
    """The inverse of each square matrix of ``x``.

    A singular matrix raises ``LinAlgError`` (a ``ValueError``).
    """
    func = "inv"
    x, dtype = _matrices(func, x, square=True)
    a = _colmajor(x, dtype)
    out = Array._empty(x.shape, dtype)
    info = K.lapack("solve", a, x.shape[-1], out, 1)
    _raise_if(func, info, "the matrix is singular")
    return out.mT


def solve(x1: Array, x2: Array, /) -> Array:
    """X with x1 @ X = x2. x2 is a vector when 1-D, else a stack of matrices;
    batch dims broadcast."""
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
    """Eigenvalues (ascending, real) and eigenvectors (columns) of Hermitian
    matrices, from the lower triangle."""
    w, a = _eigh("eigh", x, True)
    return EighResult(w, a.mT)


def eigvalsh(x: Array, /) -> Array:
    """The eigenvalues of each Hermitian (symmetric) matrix of ``x``, ascending.

    Only the lower triangle is read.
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
    """Eigenvalues and right eigenvectors (columns, unit norm) of general
    matrices; always complex (complex64 for float32 input)."""
    w, v = _eig("eig", x, True)
    return EigResult(w, v.mT)


def eigvals(x: Array, /) -> Array:
    """The eigenvalues of each square matrix of ``x`` (complex, unordered; LAPACK's geev)."""
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
    """U, S (descending, real), Vh with x = U @ diag(S) @ Vh."""
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
    """The singular values of each matrix of ``x``, descending.

    Tall matrices go through a Cholesky-based QR first (see the guide's internals).
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
    """Q (orthonormal columns) and upper-triangular R with x = Q @ R;
    mode 'reduced' (Q: m x k) or 'complete' (Q: m x m)."""
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
    """Moore-Penrose pseudo-inverse from the SVD; singular values at most
    rtol * max(S) count as zero (rtol defaults to max(M, N) * eps)."""
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
    """The number of singular values above rtol * max(S) (int64)."""
    func = "matrix_rank"
    x, dtype = _matrices(func, x)
    m, n = x.shape[-2:]
    batch = x.shape[:-2]
    tol = _rtol_array(func, rtol, batch, dtype, m, n)
    s = svdvals(x if x.dtype is dtype else x._copy_contiguous(dtype))
    if s.size and bool(_any(_isnan(s))):  # NaN singular values rank nothing: refuse, as NumPy's SVD
        raise LinAlgError(msg(func, "the matrix holds NaN or infinity; its rank is undefined"))
    out = Array._empty(batch, dt.int64)
    K.rank_from_s(s, tol, out)
    return out


def matrix_power(x: Array, n: int, /) -> Array:
    """x multiplied by itself n times (n < 0: powers of inv(x); n = 0: identity)."""
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
    """The outer product of two 1-D arrays (a new 2-D array)."""
    func = "outer"
    x1 = check_array(func, x1, "x1")
    x2 = check_array(func, x2, "x2")
    if x1.ndim != 1 or x2.ndim != 1:
        raise shapes_error(func, "x1 and x2 must be 1-D", x1.shape, x2.shape)
    if x1.dtype.kind == "b" or x2.dtype.kind == "b":
        raise dtype_error(func, "numeric", x1.dtype if x1.dtype.kind == "b" else x2.dtype)
    dtype = dt.promote(x1.dtype, x2.dtype)
    if dtype is dt.float16:  # the product of two float16 values is exact in float32
        return outer(x1._copy_contiguous(dt.float32),
                     x2._copy_contiguous(dt.float32))._copy_contiguous(dt.float16)
    n, m = x1.shape[0], x2.shape[0]
    a = x1 if x1.dtype is dtype else x1._copy_contiguous(dtype)
    b = x2 if x2.dtype is dtype else x2._copy_contiguous(dtype)
    # out[i, j] = a[i] * b[j]: a one-term product per element (keeps -0.0, unlike gemm)
    a = a._with_layout(L.Layout((n, m, 1), (a.strides[0], 0, 0), a._layout.offset))
    b = b._with_layout(L.Layout((n, m, 1), (0, b.strides[0], 0), b._layout.offset))
    out = Array._empty((n, m), dtype)
    K.dot_reduce(K.DOT_MUL, out, a, b)
    return out


def cross(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """The cross product of 3-vectors along axis, over broadcast shapes."""
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
    if dtype is dt.float16:  # computed in float32 and rounded once
        return cross(x1._copy_contiguous(dt.float32), x2._copy_contiguous(dt.float32),
                     axis=axis)._copy_contiguous(dt.float16)
    nd = len(shape)
    order = tuple(d for d in range(nd) if d != ax) + (ax,)

    def prep(x):
        x = x if x.dtype is dtype else x._copy_contiguous(dtype)
        x = x._with_layout(L.expand(x._layout, shape))
        return x._with_layout(L.permute(x._layout, order))

    out = Array._empty(shape, dtype)
    K.cross(out._with_layout(L.permute(out._layout, order)), prep(x1), prep(x2))
    return out


# ---- views and reductions --------------------------------------------------------------

def diagonal(x: Array, /, *, offset: int = 0) -> Array:
    """The offset-th diagonal of each matrix, as a view."""
    func = "diagonal"
    x = check_array(func, x)
    if x.ndim < 2:
        raise value_error(func, "x must have at least 2 dimensions", f"shape {x.shape}")
    return _diagonal_view(x, offset, x.ndim - 2, x.ndim - 1)


def trace(x: Array, /, *, offset: int = 0, dtype: Optional[dt.DType] = None) -> Array:
    """Sum of the offset-th diagonal of each matrix. Integer inputs sum in the
    default (unsigned) integer dtype, as NumPy does."""
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
    if dtype is dt.float16:  # summed in float32 and rounded once
        return trace(x, offset=offset, dtype=dt.float32)._copy_contiguous(dt.float16)
    d = diagonal(x, offset=offset)
    if d.dtype is not dtype:
        d = d._copy_contiguous(dtype)
    out = Array._empty(d.shape[:-1], dtype)
    K.dot_reduce(K.DOT_SUM, out, d, d)
    return out


_ORD_KIND = {2: K.NORM_2, 1: K.NORM_1, math.inf: K.NORM_MAX, -math.inf: K.NORM_MIN, 0: K.NORM_0}


def vector_norm(x: Array, /, *, axis: Optional[Union[int, Tuple[int, ...]]] = None,
                keepdims: bool = False, ord: Union[int, float] = 2) -> Array:
    """The ord-norm over axis (all axes when None); real dtype of x."""
    func = "vector_norm"
    x = check_array(func, x)
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise type_error(func, "ord must be a real number", repr(ord))
    if x.dtype is dt.float16:  # computed in float32, rounded once (as NumPy's float16 norm)
        return vector_norm(x._copy_contiguous(dt.float32), axis=axis, keepdims=keepdims,
                           ord=ord)._copy_contiguous(dt.float16)
    dtype = _float_dtype(x)
    if x.dtype is not dtype:
        x = x._copy_contiguous(dtype)
    axes = normalize_axes(func, axis, x.ndim)
    keep = tuple(d for d in range(x.ndim) if d not in axes)
    red = tuple(d for d in range(x.ndim) if d in axes)  # ascending: C order of the reduced part
    v = x._with_layout(L.permute(x._layout, keep + red))
    kshape = tuple(x.shape[d] for d in keep)
    length = _batch_size(tuple(x.shape[d] for d in red))
    if len(red) != 1:
        v = reshape(v, kshape + (length,))
    kind = _ORD_KIND.get(ord, K.NORM_P)
    out = Array._empty(kshape, dt.real_of(dtype))
    K.vector_norm(out, v, kind, float(ord))
    if keepdims:
        shape = tuple(1 if d in axes else x.shape[d] for d in range(x.ndim))
        out = out._with_layout(L.contiguous(shape))
    return out


def matrix_norm(x: Array, /, *, keepdims: bool = False,
                ord: Optional[Union[int, float, str]] = "fro") -> Array:
    """Frobenius, nuclear, 1, 2, inf norms (and their negatives) of each matrix."""
    func = "matrix_norm"
    if isinstance(x, Array) and x.dtype is dt.float16:  # computed in float32, rounded once
        return matrix_norm(x._copy_contiguous(dt.float32), keepdims=keepdims,
                           ord=ord)._copy_contiguous(dt.float16)
    x, dtype = _matrices(func, x)
    if x.dtype is not dtype:
        x = x._copy_contiguous(dtype)
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
