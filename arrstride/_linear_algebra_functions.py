"""Linear algebra functions of the main namespace: matmul, tensordot, vecdot
(matrix_transpose, a view, lives with the manipulation functions).

Floating dtypes go to BLAS: gemv for matrix-vector and vector-matrix
products, dot for a row times a column, syrk (the other triangle mirrored)
when one operand is the other's transpose on the same storage (same address,
swapped strides), gemm otherwise (threads over small matrices of a batch);
integer and bool matmul use arrstride's own blocked kernel, wrapping on
overflow as NumPy does. float16 and bfloat16 operands are converted to float32
in C a matrix at a time, and the float32 product rounded once."""
from __future__ import annotations

import operator
from typing import Optional, Sequence, Tuple, Union

from . import _dtypes as dt
from . import _kernels as K
from . import _layout as L
from ._args import normalize_axis
from ._array import Array, check_array
from ._core import matmul as _core_matmul
from ._data_type_functions import astype
from ._errors import broadcast_error, dtype_error, shapes_error, type_error, value_error
from ._manipulation_functions import reshape


def _numeric(func: str, x: Array, name: str) -> Array:
    x = check_array(func, x, name)
    if x.dtype.kind == "b" and func != "matmul":
        raise dtype_error(func, "numeric", x.dtype)
    return x


def _as(x: Array, dtype: dt.DType) -> Array:
    """x in dtype: x itself, or a cast copy."""
    return astype(x, dtype, copy=False)


def _broadcast_view(x: Array, shape: Tuple[int, ...]) -> Array:
    return x._with_layout(L.expand(x._layout, shape))


def matmul(x1: Array, x2: Array, /) -> Array:
    """Matrix product of two arrays, batched over broadcast leading axes.

    Floating-point products run in BLAS; 1-D operands are vectors, as in the
    standard (and NumPy's @).

    Parameters
    ----------
    x1 : Array
        First operand, of at least 1 dimension and a numeric dtype.
    x2 : Array
        Second operand, of at least 1 dimension; its second-to-last axis (its
        only one when 1-D) must match x1's last.

    Returns
    -------
    Array
        A new array of the promoted dtype: the batch axes broadcast, then the
        product's rows and columns (without the axis of a 1-D operand).

    Raises
    ------
    ValueError
        If the contracted axes differ in size, or the batch axes do not
        broadcast, or an operand is 0-d.

    See Also
    --------
    tensordot, vecdot, einsum

    Examples
    --------
    >>> import arrstride as xp
    >>> a = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> a @ xp.asarray([1.0, 1.0])
    Array([3., 7.])
    """
    out = _core_matmul(x1, x2)  # 1-D/2-D operands of one dtype, in C; else None
    if out is not None:
        return out
    if type(x1) is Array and type(x2) is Array and x1._dtype is x2._dtype:
        # the common case, kept short: one dtype, no batch dims
        l1 = x1._layout
        l2 = x2._layout
        n1 = len(l1.shape)
        n2 = len(l2.shape)
        if 1 <= n1 <= 2 and 1 <= n2 <= 2:
            a = x1 if n1 == 2 else x1._with_layout(
                L.Layout((1,) + l1.shape, (0,) + l1.strides, l1.offset))
            b = x2 if n2 == 2 else x2._with_layout(
                L.Layout(l2.shape + (1,), l2.strides + (0,), l2.offset))
            m, k = a._layout.shape
            k2, n = b._layout.shape
            if k == k2:
                out = Array._empty((m, n), x1._dtype)
                K.matmul(out, a, b)
                if n1 == 2 and n2 == 2:
                    return out
                return out._with_layout(L.contiguous(((m,) if n1 == 2 else ()) +
                                                     ((n,) if n2 == 2 else ())))
    func = "matmul"
    x1 = _numeric(func, x1, "x1")
    x2 = _numeric(func, x2, "x2")
    if x1.ndim == 0 or x2.ndim == 0:
        raise shapes_error(func, "operands must have at least one dimension", x1.shape, x2.shape)
    dtype = dt.promote(x1.dtype, x2.dtype)
    if dt.is_narrow(dtype) and x1.dtype is not x2.dtype:  # a narrow float and bool, say
        return dt.through_compute(matmul, dtype, x1, x2)
    a = x1 if x1.ndim > 1 else x1._with_layout(L.insert_dims(x1._layout, (0,)))
    b = x2 if x2.ndim > 1 else x2._with_layout(L.insert_dims(x2._layout, (1,)))
    m, k = a.shape[-2:]
    k2, n = b.shape[-2:]
    if k != k2:
        raise shapes_error(func, f"the last dim of x1 ({k}) must equal the second-to-last "
                           f"dim of x2 ({k2})", x1.shape, x2.shape)
    batch = L.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    if batch is None:
        raise broadcast_error(func, x1.shape, x2.shape, what="the batch dims",
                              core=(min(x1.ndim, 2), min(x2.ndim, 2)))
    a = _broadcast_view(_as(a, dtype), batch + (m, k))
    b = _broadcast_view(_as(b, dtype), batch + (k, n))
    out = Array._empty(batch + (m, n), dtype)
    K.matmul(out, a, b)
    shape = batch + ((m,) if x1.ndim > 1 else ()) + ((n,) if x2.ndim > 1 else ())
    return out._with_layout(L.contiguous(shape))


def _axes_arg(func: str, axes, n1: int, n2: int) -> Tuple[Tuple[int, ...], Tuple[int, ...]]:
    if isinstance(axes, bool):
        raise type_error(func, "axes must be an int or a pair of sequences of ints", repr(axes))
    try:
        count = operator.index(axes)
    except TypeError:
        count = None
    if count is not None:
        if count < 0 or count > min(n1, n2):
            raise value_error(func, "axes must be a non-negative int no larger than either "
                              "array's number of dimensions", f"{count} for {n1}-D and {n2}-D")
        return tuple(range(n1 - count, n1)), tuple(range(count))
    try:
        ax1, ax2 = axes
        ax1 = tuple(ax1) if isinstance(ax1, (tuple, list)) else (ax1,)
        ax2 = tuple(ax2) if isinstance(ax2, (tuple, list)) else (ax2,)
    except (TypeError, ValueError):
        raise type_error(func, "axes must be an int or a pair of sequences of ints",
                         repr(axes)) from None
    if len(ax1) != len(ax2):
        raise value_error(func, "the two sequences of axes must have one length", repr(axes))
    ax1 = tuple(normalize_axis(func, a, n1) for a in ax1)
    ax2 = tuple(normalize_axis(func, a, n2) for a in ax2)
    if len(set(ax1)) != len(ax1) or len(set(ax2)) != len(ax2):
        raise value_error(func, "repeated axis", repr(axes))
    return ax1, ax2


def _packing(shape: Tuple[int, ...], order: Tuple[int, ...], nrow: int) -> Optional[int]:
    """How a C-ordered array of shape, permuted by order and reshaped to a
    matrix of its first nrow dims by the rest, reaches BLAS: 0 row-major (a
    view or a copy), 1 column-major, None otherwise. The matmul kernel
    converts a narrow float operand into float32 tiles of that layout, so
    that the product runs the BLAS calls of the float32 one."""
    nd = len(shape)
    if order == tuple(range(nd)):  # the common cases, without building layouts
        return 0
    rows = cols = 1
    for i, d in enumerate(order):
        if i < nrow:
            rows *= shape[d]
        else:
            cols *= shape[d]
    if order == tuple(range(nd - nrow, nd)) + tuple(range(nd - nrow)):
        return 1 if rows > 1 and cols > 1 else 0  # the transpose of a C-ordered matrix
    lay = L.permute(L.contiguous(shape), order)
    strides = L.view_strides(lay, (rows, cols))
    if strides is None or L.is_contiguous(L.Layout((rows, cols), strides, 0)):
        return 0
    if L.is_contiguous(L.Layout((cols, rows), strides[::-1], 0)):
        return 1
    return None


def tensordot(x1: Array, x2: Array, /, *,
              axes: Union[int, Tuple[Sequence[int], Sequence[int]]] = 2) -> Array:
    """Tensor contraction of x1 and x2 over the given axes.

    Computed as one matrix product (BLAS for floating-point dtypes) after
    permuting the axes; negative axes are allowed.

    Parameters
    ----------
    x1 : Array
        First operand, of a numeric dtype.
    x2 : Array
        Second operand.
    axes : int or tuple of two sequences of int, optional
        An int N contracts the last N axes of x1 with the first N of x2 (default
        2); a pair of sequences names the axes of each, pairwise.

    Returns
    -------
    Array
        A new array: x1's free axes, then x2's, of the promoted dtype.

    Raises
    ------
    ValueError
        If contracted axes differ in size.

    See Also
    --------
    matmul, vecdot, einsum

    Examples
    --------
    >>> import arrstride as xp
    >>> a = xp.reshape(xp.arange(6.0), (2, 3))
    >>> xp.tensordot(a, xp.ones((3, 2)), axes=1)
    Array([[ 3.,  3.],
           [12., 12.]])
    >>> xp.tensordot(a, a)
    Array(55.)
    """
    func = "tensordot"
    x1 = _numeric(func, x1, "x1")
    x2 = _numeric(func, x2, "x2")
    ax1, ax2 = _axes_arg(func, axes, x1.ndim, x2.ndim)
    for a1, a2 in zip(ax1, ax2):
        if x1.shape[a1] != x2.shape[a2]:
            raise shapes_error(func, f"contracted axes {a1} of x1 and {a2} of x2 differ in size",
                               x1.shape, x2.shape)
    dtype = dt.promote(x1.dtype, x2.dtype)
    free1 = [d for d in range(x1.ndim) if d not in ax1]
    free2 = [d for d in range(x2.ndim) if d not in ax2]
    col_major = 0
    if dt.is_narrow(dtype):
        pa = _packing(x1.shape, tuple(free1) + ax1, len(free1))
        pb = _packing(x2.shape, ax2 + tuple(free2), len(ax2))
        if x1.dtype is not x2.dtype or pa is None or pb is None:
            return dt.through_compute(tensordot, dtype, x1, x2, axes=axes)
        col_major = pa | 2 * pb
    a = x1._with_layout(L.permute(x1._layout, tuple(free1) + ax1))
    b = x2._with_layout(L.permute(x2._layout, ax2 + tuple(free2)))
    kk = 1
    for d in ax1:
        kk *= x1.shape[d]
    mshape = tuple(x1.shape[d] for d in free1)
    nshape = tuple(x2.shape[d] for d in free2)
    mm = 1
    for d in mshape:
        mm *= d
    nn = 1
    for d in nshape:
        nn *= d
    a2 = reshape(_as(a, dtype), (mm, kk))
    b2 = reshape(_as(b, dtype), (kk, nn))
    out = Array._empty((mm, nn), dtype)
    K.matmul(out, a2, b2, col_major)
    return out._with_layout(L.contiguous(mshape + nshape))


def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """Dot product of vectors along an axis, sum(conj(x1) * x2).

    Parameters
    ----------
    x1 : Array
        First operand, of a numeric dtype; complex values are conjugated.
    x2 : Array
        Second operand; its shape broadcasts against x1's.
    axis : int, optional
        Axis holding the vectors, of equal size in both; default -1.

    Returns
    -------
    Array
        A new array of the broadcast shape without axis, of the promoted dtype.

    Raises
    ------
    ValueError
        If the shapes do not broadcast or axis differs in size.

    See Also
    --------
    matmul, tensordot

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.vecdot(xp.asarray([1.0, 2.0]), xp.asarray([3.0, 4.0]))
    Array(11.)
    >>> xp.vecdot(xp.asarray([[1, 0], [0, 2]]), xp.asarray([3, 4]))
    Array([3, 8])
    """
    func = "vecdot"
    x1 = _numeric(func, x1, "x1")
    x2 = _numeric(func, x2, "x2")
    shape = L.broadcast_shapes(x1.shape, x2.shape)
    if shape is None:
        raise broadcast_error(func, x1.shape, x2.shape, what="x1 and x2")
    nd = len(shape)
    if nd == 0:
        raise shapes_error(func, "x1 and x2 must have at least one dimension", x1.shape, x2.shape)
    ax = normalize_axis(func, axis, nd)
    # the standard: the reduced axis must have one size in both (no broadcasting of it)
    d1 = x1.shape[ax - nd] if ax - nd >= -x1.ndim else 1
    d2 = x2.shape[ax - nd] if ax - nd >= -x2.ndim else 1
    if d1 != d2:
        raise shapes_error(func, f"axis {axis} must have one size in x1 and x2", x1.shape, x2.shape)
    dtype = dt.promote(x1.dtype, x2.dtype)
    a = _broadcast_view(_as(x1, dtype), shape)
    b = _broadcast_view(_as(x2, dtype), shape)
    order = tuple(d for d in range(nd) if d != ax) + (ax,)
    a = a._with_layout(L.permute(a._layout, order))
    b = b._with_layout(L.permute(b._layout, order))
    out = Array._empty(shape[:ax] + shape[ax + 1:], dtype)
    K.dot_reduce(K.DOT_CONJ_MUL if dtype.kind == "c" else K.DOT_MUL, out, a, b)
    return out
