"""NumPy's products and trace that PyTorch has too (dot, inner, outer, vdot,
kron, cross, trace), with NumPy's signatures and results, built from matmul,
tensordot, vecdot and the elementwise functions."""
from __future__ import annotations

from typing import Any, Optional

from . import _dtypes as dt
from ._args import normalize_axis
from ._array import Array, check_array
from ._creation_functions import asarray, zeros
from ._data_type_functions import astype, result_type
from ._elementwise_functions import multiply, not_equal, subtract
from ._errors import value_error
from ._linear_algebra_functions import matmul, tensordot, vecdot
from ._manipulation_functions import broadcast_arrays, moveaxis, reshape, stack
from ._statistical_functions import sum
from ._views import diagonal


def _arr(func: str, x: Any, name: str) -> Array:
    if isinstance(x, (bool, int, float, complex)):
        return asarray(x)
    return check_array(func, x, name)


def _bool_product(f):
    """f for bool operands too: computed in int64, the result nonzero-as-bool
    when both are bool (NumPy's logical dot), else in the promoted dtype."""
    def run(a: Array, b: Array) -> Array:
        if a.dtype != dt.bool and b.dtype != dt.bool:
            return f(a, b)
        both = a.dtype == dt.bool and b.dtype == dt.bool
        rt = dt.int64 if both else result_type(a, b)
        out = f(astype(a, rt), astype(b, rt))
        return not_equal(out, 0) if both else out
    return run


def dot(a: Array, b: Array) -> Array:
    """Dot product of two arrays, NumPy's way.

    Not in the standard: NumPy's dot: the product of scalars, the inner
    product of vectors, the matrix product of matrices, and for N-D arrays a
    sum over a's last axis and b's second-to-last.

    Parameters
    ----------
    a : Array
        First input. NumPy arrays and Python scalars are accepted too.
    b : Array
        Second input.

    Returns
    -------
    Array
        A new array.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.dot(xp.asarray([1, 2, 3]), xp.asarray([4, 5, 6]))
    Array(32)
    >>> xp.dot(xp.asarray([[1, 0], [0, 2]]), xp.asarray([3, 4]))
    Array([3, 8])
    """
    return _bool_product(_dot)(_arr("dot", a, "a"), _arr("dot", b, "b"))


def _dot(a: Array, b: Array) -> Array:
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    if b.ndim <= 2:
        if a.shape[-1] != b.shape[0]:
            raise value_error("dot", "shapes not aligned: a's last dim must equal b's first "
                              "(second-to-last for N-D b)", f"{a.shape} and {b.shape}")
        return matmul(a, b)
    return tensordot(a, b, axes=((a.ndim - 1,), (b.ndim - 2,)))


def inner(a: Array, b: Array, /) -> Array:
    """Inner product over the last axes of two arrays (no conjugation).

    Not in the standard: NumPy's inner.

    Parameters
    ----------
    a : Array
        First input. NumPy arrays and Python scalars are accepted too.
    b : Array
        Second input, with a's last dimension.

    Returns
    -------
    Array
        A new array of shape a.shape[:-1] + b.shape[:-1].

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.inner(xp.asarray([1, 2, 3]), xp.asarray([0, 1, 0]))
    Array(2)
    """
    return _bool_product(_inner)(_arr("inner", a, "a"), _arr("inner", b, "b"))


def _inner(a: Array, b: Array) -> Array:
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise value_error("inner", "a and b must have the same last dimension",
                          f"{a.shape} and {b.shape}")
    return tensordot(a, b, axes=((a.ndim - 1,), (b.ndim - 1,)))


def outer(a: Array, b: Array) -> Array:
    """Outer product of two arrays, flattened first.

    Not in the standard: NumPy's outer (linalg.outer takes 1-D input only).

    Parameters
    ----------
    a : Array
        First input, flattened. NumPy arrays are accepted too.
    b : Array
        Second input, flattened.

    Returns
    -------
    Array
        A new (a.size, b.size) array.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.outer(xp.asarray([1, 2]), xp.asarray([1, 10]))
    Array([[ 1, 10],
           [ 2, 20]])
    """
    a = reshape(_arr("outer", a, "a"), (-1, 1))
    b = reshape(_arr("outer", b, "b"), (1, -1))
    return multiply(a, b)


def vdot(a: Array, b: Array, /) -> Array:
    """Dot product of two flattened arrays, the first conjugated.

    Not in the standard: NumPy's vdot.

    Parameters
    ----------
    a : Array
        First input, flattened and conjugated. NumPy arrays are accepted too.
    b : Array
        Second input, flattened, of a's size.

    Returns
    -------
    Array
        A new 0-d array.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.vdot(xp.asarray([1j, 2]), xp.asarray([1j, 3]))
    Array(7.+0.j)
    """
    a = reshape(_arr("vdot", a, "a"), (-1,))
    b = reshape(_arr("vdot", b, "b"), (-1,))
    if a.shape != b.shape:
        raise value_error("vdot", "a and b must have the same size", f"{a.size} and {b.size}")
    return _bool_product(vecdot)(a, b)


def kron(a: Array, b: Array) -> Array:
    """Kronecker product of two arrays: blocks of b scaled by the elements of a.

    Not in the standard: NumPy's kron.

    Parameters
    ----------
    a : Array
        First input. NumPy arrays and Python scalars are accepted too.
    b : Array
        Second input.

    Returns
    -------
    Array
        A new array; each dimension is the product of a's and b's (the shorter
        shape padded with leading 1s).

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.kron(xp.asarray([1, 10]), xp.asarray([1, 2]))
    Array([ 1,  2, 10, 20])
    """
    a = _arr("kron", a, "a")
    b = _arr("kron", b, "b")
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + a.shape
    sb = (1,) * (nd - b.ndim) + b.shape
    ai = reshape(a, tuple(v for d in sa for v in (d, 1)))
    bi = reshape(b, tuple(v for d in sb for v in (1, d)))
    return reshape(multiply(ai, bi), tuple(x * y for x, y in zip(sa, sb)))


def cross(a: Array, b: Array, axisa: int = -1, axisb: int = -1, axisc: int = -1,
          axis: Optional[int] = None) -> Array:
    """Cross product of vectors of 2 or 3 elements.

    Not in the standard: NumPy's cross (linalg.cross takes 3-element vectors
    only). Two 2-element vectors give the z component alone.

    Parameters
    ----------
    a : Array
        First vectors. NumPy arrays are accepted too.
    b : Array
        Second vectors, broadcast against a.
    axisa : int, optional
        Axis of a holding the vectors; default the last.
    axisb : int, optional
        Axis of b holding the vectors; default the last.
    axisc : int, optional
        Axis of the result holding the vectors; default the last.
    axis : int, optional
        If given, overrides axisa, axisb and axisc.

    Returns
    -------
    Array
        A new array of the promoted dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.cross(xp.asarray([1, 0, 0]), xp.asarray([0, 1, 0]))
    Array([0, 0, 1])
    """
    func = "cross"
    a = _arr(func, a, "a")
    b = _arr(func, b, "b")
    if axis is not None:
        axisa = axisb = axisc = axis
    if a.ndim == 0 or b.ndim == 0:
        raise value_error(func, "a and b must have at least one dimension", None)
    a = moveaxis(a, normalize_axis(func, axisa, a.ndim), -1)
    b = moveaxis(b, normalize_axis(func, axisb, b.ndim), -1)
    na, nb = a.shape[-1], b.shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise value_error(func, "incompatible dimensions for cross product (dimension must "
                          "be 2 or 3)", f"{na} and {nb}")
    rt = result_type(a, b)
    a = astype(a, rt)
    b = astype(b, rt)
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    z = subtract(multiply(a0, b1), multiply(a1, b0))
    if na == 2 and nb == 2:
        return z
    zero = zeros((), dtype=rt)
    a2 = a[..., 2] if na == 3 else zero
    b2 = b[..., 2] if nb == 3 else zero
    x = subtract(multiply(a1, b2), multiply(a2, b1))
    y = subtract(multiply(a2, b0), multiply(a0, b2))
    x, y, z = broadcast_arrays(x, y, z)
    out = stack([x, y, z], axis=-1)
    return moveaxis(out, -1, normalize_axis(func, axisc, out.ndim))


def trace(a: Array, offset: int = 0, axis1: int = 0, axis2: int = 1,
          dtype: Optional[dt.DType] = None) -> Array:
    """Sum along a diagonal of an array.

    Not in the standard: NumPy's trace (linalg.trace takes the last two axes).

    Parameters
    ----------
    a : Array
        Array of at least 2 dimensions. NumPy arrays are accepted too.
    offset : int, optional
        Diagonal: 0 (the default) the main one, positive above, negative below.
    axis1 : int, optional
        First axis of the 2-D planes; default 0.
    axis2 : int, optional
        Second axis of the 2-D planes; default 1.
    dtype : DType, optional
        Data type to sum in and return; default as sum's.

    Returns
    -------
    Array
        A new array with axis1 and axis2 removed.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.trace(xp.asarray([[1, 2], [3, 4]]))
    Array(5)
    """
    a = _arr("trace", a, "a")
    return sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)
