"""NumPy's shape and assembly functions that PyTorch has too, with NumPy's
signatures and results. The view functions (atleast_*, ravel where possible,
rot90, fliplr, flipud, swapaxes, split and its kin) return views of their
input, as NumPy's do; the others build new arrays from arrstride's own
functions."""
from __future__ import annotations

import builtins
import operator
from typing import Any, List, Optional, Sequence, Tuple, Union

from . import _dtypes as dt
from ._args import normalize_axis
from ._array import Array, check_array
from ._creation_functions import arange, asarray, diag, ones, tril, triu, zeros
from ._data_type_functions import astype, result_type
from ._elementwise_functions import (
    equal, floor_divide, greater_equal, less, logical_or, multiply, remainder, where,
)
from ._errors import dtype_error, index_error, not_array_error, type_error, value_error
from ._manipulation_functions import (
    broadcast_to, concat, flip, permute_dims, reshape, stack,
)
from ._searching_functions import nonzero
from ._statistical_functions import cumulative_prod
from ._set_functions import unique_all, unique_counts, unique_inverse, unique_values


def _arr(func: str, x: Any, name: str = "x") -> Array:
    if isinstance(x, (bool, int, float, complex)):
        return asarray(x)
    return check_array(func, x, name)


def _seq(func: str, tup: Any) -> List[Array]:
    if isinstance(tup, Array) or not hasattr(tup, "__iter__"):
        raise type_error(func, "arrays must be passed as a sequence", type(tup).__name__)
    arrays = [_arr(func, a, "arrays") for a in tup]
    if not arrays:
        raise value_error(func, "need at least one array to join", "an empty sequence")
    return arrays


def _cast_all(arrays: List[Array], dtype: Any, func: str) -> List[Array]:
    if dtype is None:
        return arrays
    d = dt.as_dtype(func, dtype)
    return [a if a.dtype == d else astype(a, d) for a in arrays]


def _one_or_tuple(res: List[Array]) -> Union[Array, Tuple[Array, ...]]:
    return res[0] if len(res) == 1 else tuple(res)


def _atleast(a: Array, n: int) -> Array:
    if a.ndim >= n:
        return a
    if n == 1 or a.ndim == 0:
        return reshape(a, (1,) * n)
    if n == 2:
        return reshape(a, (1,) + a.shape)
    # n == 3: (N,) -> (1, N, 1), (M, N) -> (M, N, 1)
    return reshape(a, (1, a.shape[0], 1)) if a.ndim == 1 else reshape(a, a.shape + (1,))


def atleast_1d(*arys: Array) -> Union[Array, Tuple[Array, ...]]:
    """Each input viewed with at least one dimension.

    Not in the standard: NumPy's atleast_1d.

    Parameters
    ----------
    *arys : Array
        Input arrays. NumPy arrays and Python scalars are accepted too.

    Returns
    -------
    Array or tuple of Array
        A view of each input (one array for one input).

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.atleast_1d(xp.asarray(3.0))
    Array([3.])
    """
    return _one_or_tuple([_atleast(_arr("atleast_1d", a, "arys"), 1) for a in arys])


def atleast_2d(*arys: Array) -> Union[Array, Tuple[Array, ...]]:
    """Each input viewed with at least two dimensions.

    Not in the standard: NumPy's atleast_2d: a 1-D array becomes one row.

    Parameters
    ----------
    *arys : Array
        Input arrays. NumPy arrays and Python scalars are accepted too.

    Returns
    -------
    Array or tuple of Array
        A view of each input (one array for one input).

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.atleast_2d(xp.asarray([1, 2])).shape
    (1, 2)
    """
    return _one_or_tuple([_atleast(_arr("atleast_2d", a, "arys"), 2) for a in arys])


def atleast_3d(*arys: Array) -> Union[Array, Tuple[Array, ...]]:
    """Each input viewed with at least three dimensions.

    Not in the standard: NumPy's atleast_3d: (N,) becomes (1, N, 1) and (M, N)
    becomes (M, N, 1).

    Parameters
    ----------
    *arys : Array
        Input arrays. NumPy arrays and Python scalars are accepted too.

    Returns
    -------
    Array or tuple of Array
        A view of each input (one array for one input).

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.atleast_3d(xp.asarray([1, 2])).shape
    (1, 2, 1)
    """
    return _one_or_tuple([_atleast(_arr("atleast_3d", a, "arys"), 3) for a in arys])


def vstack(tup: Sequence[Array], *, dtype: Optional[dt.DType] = None) -> Array:
    """A new array stacking arrays as rows (along the first axis).

    Not in the standard: NumPy's vstack: 1-D inputs become rows.

    Parameters
    ----------
    tup : sequence of Array
        Arrays of the same shape but along the first axis.
    dtype : DType, optional
        Data type of the result; default the inputs' promoted dtype.

    Returns
    -------
    Array
        A new array of at least two dimensions.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.vstack([xp.asarray([1, 2]), xp.asarray([3, 4])])
    Array([[1, 2],
           [3, 4]])
    """
    arrays = _cast_all([_atleast(a, 2) for a in _seq("vstack", tup)], dtype, "vstack")
    return concat(arrays, axis=0)


def hstack(tup: Sequence[Array], *, dtype: Optional[dt.DType] = None) -> Array:
    """A new array stacking arrays as columns (along the second axis; the first for 1-D).

    Not in the standard: NumPy's hstack.

    Parameters
    ----------
    tup : sequence of Array
        Arrays of the same shape but along the joining axis.
    dtype : DType, optional
        Data type of the result; default the inputs' promoted dtype.

    Returns
    -------
    Array
        A new array.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.hstack([xp.asarray([1, 2]), xp.asarray([3])])
    Array([1, 2, 3])
    """
    arrays = _cast_all([_atleast(a, 1) for a in _seq("hstack", tup)], dtype, "hstack")
    return concat(arrays, axis=0 if arrays[0].ndim == 1 else 1)


def dstack(tup: Sequence[Array]) -> Array:
    """A new array stacking arrays along the third axis.

    Not in the standard: NumPy's dstack: inputs are made 3-D as by atleast_3d.

    Parameters
    ----------
    tup : sequence of Array
        Arrays of the same shape but along the third axis.

    Returns
    -------
    Array
        A new array of at least three dimensions.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.dstack([xp.asarray([1, 2]), xp.asarray([3, 4])]).shape
    (1, 2, 2)
    """
    return concat([_atleast(a, 3) for a in _seq("dstack", tup)], axis=2)


def column_stack(tup: Sequence[Array]) -> Array:
    """A new 2-D array with 1-D inputs as its columns.

    Not in the standard: NumPy's column_stack (2-D inputs join as they are).

    Parameters
    ----------
    tup : sequence of Array
        1-D or 2-D arrays of the same first dimension.

    Returns
    -------
    Array
        A new 2-D array.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.column_stack([xp.asarray([1, 2]), xp.asarray([3, 4])])
    Array([[1, 3],
           [2, 4]])
    """
    arrays = [reshape(a, (-1, 1)) if a.ndim < 2 else a for a in _seq("column_stack", tup)]
    return concat(arrays, axis=1)


def _section_bounds(func: str, n: int, ios: Any, equal_only: bool) -> List[Tuple[int, int]]:
    if isinstance(ios, (int,)) and not isinstance(ios, bool) or \
            (isinstance(ios, Array) and ios.ndim == 0):
        k = operator.index(ios)
        if k <= 0:
            raise value_error(func, "number of sections must be larger than 0", k)
        if equal_only and n % k:
            raise value_error(func, "array split does not result in an equal division",
                              f"{n} into {k}")
        each, extra = divmod(n, k)
        sizes = [each + 1] * extra + [each] * (k - extra)
        bounds, start = [], 0
        for s in sizes:
            bounds.append((start, start + s))
            start += s
        return bounds
    if isinstance(ios, Array):
        ios = [int(v) for v in ios]
    try:
        idx = [operator.index(i) for i in ios]
    except TypeError:
        raise type_error(func, "indices_or_sections must be an int or a sequence of ints",
                         repr(ios)) from None
    pts = [0] + idx + [n]
    return [(pts[i], pts[i + 1]) for i in range(len(pts) - 1)]


def _split(func: str, ary: Any, ios: Any, axis: int, equal_only: bool) -> List[Array]:
    a = _arr(func, ary, "ary")
    ax = normalize_axis(func, axis, a.ndim)
    out = []
    for lo, hi in _section_bounds(func, a.shape[ax], ios, equal_only):
        key = [slice(None)] * a.ndim
        key[ax] = slice(lo, hi)
        out.append(a[tuple(key)])
    return out


def split(ary: Array, indices_or_sections: Any, axis: int = 0) -> List[Array]:
    """Views of consecutive parts of an array along an axis.

    Not in the standard: NumPy's split.

    Parameters
    ----------
    ary : Array
        Array to split. NumPy arrays are accepted too.
    indices_or_sections : int or sequence of int
        Number of equal parts (it must divide the axis), or the indices where
        parts start.
    axis : int, optional
        Axis to split along; default 0.

    Returns
    -------
    list of Array
        Views of ary.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.split(xp.arange(6), 3)
    [Array([0, 1]), Array([2, 3]), Array([4, 5])]
    >>> xp.split(xp.arange(5), [1, 3])
    [Array([0]), Array([1, 2]), Array([3, 4])]
    """
    return _split("split", ary, indices_or_sections, axis, True)


def hsplit(ary: Array, indices_or_sections: Any) -> List[Array]:
    """Views of consecutive parts of an array along its second axis (the first for 1-D).

    Not in the standard: NumPy's hsplit.

    Parameters
    ----------
    ary : Array
        Array of at least one dimension. NumPy arrays are accepted too.
    indices_or_sections : int or sequence of int
        Number of equal parts, or the indices where parts start.

    Returns
    -------
    list of Array
        Views of ary.

    Examples
    --------
    >>> import arrstride as xp
    >>> [p.shape for p in xp.hsplit(xp.zeros((2, 4)), 2)]
    [(2, 2), (2, 2)]
    """
    a = _arr("hsplit", ary, "ary")
    if a.ndim == 0:
        raise value_error("hsplit", "hsplit only works on arrays of 1 or more dimensions",
                          f"shape {a.shape}")
    return _split("hsplit", a, indices_or_sections, 1 if a.ndim > 1 else 0, True)


def vsplit(ary: Array, indices_or_sections: Any) -> List[Array]:
    """Views of consecutive parts of an array along its first axis.

    Not in the standard: NumPy's vsplit (arrays of at least 2 dimensions).

    Parameters
    ----------
    ary : Array
        Array of at least two dimensions. NumPy arrays are accepted too.
    indices_or_sections : int or sequence of int
        Number of equal parts, or the indices where parts start.

    Returns
    -------
    list of Array
        Views of ary.

    Examples
    --------
    >>> import arrstride as xp
    >>> [p.shape for p in xp.vsplit(xp.zeros((4, 2)), 2)]
    [(2, 2), (2, 2)]
    """
    a = _arr("vsplit", ary, "ary")
    if a.ndim < 2:
        raise value_error("vsplit", "vsplit only works on arrays of 2 or more dimensions",
                          f"shape {a.shape}")
    return _split("vsplit", a, indices_or_sections, 0, True)


def dsplit(ary: Array, indices_or_sections: Any) -> List[Array]:
    """Views of consecutive parts of an array along its third axis.

    Not in the standard: NumPy's dsplit (arrays of at least 3 dimensions).

    Parameters
    ----------
    ary : Array
        Array of at least three dimensions. NumPy arrays are accepted too.
    indices_or_sections : int or sequence of int
        Number of equal parts, or the indices where parts start.

    Returns
    -------
    list of Array
        Views of ary.

    Examples
    --------
    >>> import arrstride as xp
    >>> [p.shape for p in xp.dsplit(xp.zeros((1, 1, 4)), 2)]
    [(1, 1, 2), (1, 1, 2)]
    """
    a = _arr("dsplit", ary, "ary")
    if a.ndim < 3:
        raise value_error("dsplit", "dsplit only works on arrays of 3 or more dimensions",
                          f"shape {a.shape}")
    return _split("dsplit", a, indices_or_sections, 2, True)


def ravel(a: Array, order: str = "C") -> Array:
    """Array a as one dimension: a view when the layout allows, else a copy.

    Not in the standard: NumPy's ravel.

    Parameters
    ----------
    a : Array
        Input array. NumPy arrays are accepted too.
    order : str, optional
        'C' (the default): last index fastest; 'F': first index fastest.

    Returns
    -------
    Array
        A 1-D array of a's size.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.ravel(xp.asarray([[1, 2], [3, 4]]))
    Array([1, 2, 3, 4])
    """
    a = _arr("ravel", a, "a")
    if order == "F":
        a = permute_dims(a, tuple(range(a.ndim - 1, -1, -1)))
    elif order not in ("C", "A", "K"):
        raise value_error("ravel", "order must be 'C' or 'F'", repr(order))
    return reshape(a, (-1,))


def swapaxes(a: Array, axis1: int, axis2: int) -> Array:
    """Array a with two axes interchanged, as a view.

    Not in the standard: NumPy's swapaxes.

    Parameters
    ----------
    a : Array
        Input array. NumPy arrays are accepted too.
    axis1 : int
        First axis.
    axis2 : int
        Second axis.

    Returns
    -------
    Array
        A view of a.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.swapaxes(xp.zeros((2, 3, 4)), 0, 2).shape
    (4, 3, 2)
    """
    a = _arr("swapaxes", a, "a")
    i = normalize_axis("swapaxes", axis1, a.ndim)
    j = normalize_axis("swapaxes", axis2, a.ndim)
    perm = list(range(a.ndim))
    perm[i], perm[j] = perm[j], perm[i]
    return permute_dims(a, tuple(perm))


def fliplr(m: Array) -> Array:
    """Array m with its columns in reverse order (axis 1), as a view.

    Not in the standard: NumPy's fliplr.

    Parameters
    ----------
    m : Array
        Array of at least two dimensions. NumPy arrays are accepted too.

    Returns
    -------
    Array
        A view of m.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fliplr(xp.asarray([[1, 2], [3, 4]]))
    Array([[2, 1],
           [4, 3]])
    """
    m = _arr("fliplr", m, "m")
    if m.ndim < 2:
        raise value_error("fliplr", "m must be at least 2-d", f"shape {m.shape}")
    return flip(m, axis=1)


def flipud(m: Array) -> Array:
    """Array m with its rows in reverse order (axis 0), as a view.

    Not in the standard: NumPy's flipud.

    Parameters
    ----------
    m : Array
        Array of at least one dimension. NumPy arrays are accepted too.

    Returns
    -------
    Array
        A view of m.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.flipud(xp.asarray([1, 2, 3]))
    Array([3, 2, 1])
    """
    m = _arr("flipud", m, "m")
    if m.ndim < 1:
        raise value_error("flipud", "m must be at least 1-d", f"shape {m.shape}")
    return flip(m, axis=0)


def rot90(m: Array, k: int = 1, axes: Tuple[int, int] = (0, 1)) -> Array:
    """Array m rotated by 90 degrees k times in the plane of two axes, as a view.

    Not in the standard: NumPy's rot90 (from the first axis toward the second).

    Parameters
    ----------
    m : Array
        Array of at least two dimensions. NumPy arrays are accepted too.
    k : int, optional
        Number of rotations; default 1.
    axes : tuple of int, optional
        The plane's two different axes; default (0, 1).

    Returns
    -------
    Array
        A view of m.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.rot90(xp.asarray([[1, 2], [3, 4]]))
    Array([[2, 4],
           [1, 3]])
    """
    func = "rot90"
    m = _arr(func, m, "m")
    axes = tuple(axes)
    if len(axes) != 2:
        raise value_error(func, "len(axes) must be 2", repr(axes))
    if m.ndim < 2:
        raise value_error(func, "m must be at least 2-d", f"shape {m.shape}")
    a0 = normalize_axis(func, axes[0], m.ndim)
    a1 = normalize_axis(func, axes[1], m.ndim)
    if a0 == a1:
        raise value_error(func, "axes must be different", repr(axes))
    k = operator.index(k) % 4
    if k == 0:
        return m[...]
    if k == 2:
        return flip(flip(m, axis=a0), axis=a1)
    perm = list(range(m.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return permute_dims(flip(m, axis=a1), tuple(perm))
    return flip(permute_dims(m, tuple(perm)), axis=a1)


def diagflat(v: Array, k: int = 0) -> Array:
    """A new 2-D array with the flattened input on a diagonal.

    Not in the standard: NumPy's diagflat.

    Parameters
    ----------
    v : Array
        Input array, flattened. NumPy arrays are accepted too.
    k : int, optional
        Diagonal: 0 (the default) the main one, positive above, negative below.

    Returns
    -------
    Array
        A new square 2-D array of v's dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.diagflat(xp.asarray([[1, 2]]))
    Array([[1, 0],
           [0, 2]])
    """
    return diag(reshape(_arr("diagflat", v, "v"), (-1,)), k=operator.index(k))


def _tri_indices(func: str, n: int, k: int, m: Optional[int], lower: bool) -> Tuple[Array, Array]:
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    if n < 0 or m < 0:
        raise value_error(func, "n and m must not be negative", f"{n}, {m}")
    mask = ones((n, m), dtype=dt.bool)
    mask = tril(mask, k=operator.index(k)) if lower else triu(mask, k=operator.index(k))
    return nonzero(mask)


def tril_indices(n: int, k: int = 0, m: Optional[int] = None) -> Tuple[Array, Array]:
    """Row and column indices of the lower triangle of an (n, m) array.

    Not in the standard: NumPy's tril_indices.

    Parameters
    ----------
    n : int
        Number of rows.
    k : int, optional
        Diagonal offset of the triangle's edge; default 0.
    m : int, optional
        Number of columns; default n.

    Returns
    -------
    tuple of Array
        Two new int64 arrays, the rows and the columns, in row-major order.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.tril_indices(2)
    (Array([0, 1, 1]), Array([0, 0, 1]))
    """
    return _tri_indices("tril_indices", n, k, m, True)


def triu_indices(n: int, k: int = 0, m: Optional[int] = None) -> Tuple[Array, Array]:
    """Row and column indices of the upper triangle of an (n, m) array.

    Not in the standard: NumPy's triu_indices.

    Parameters
    ----------
    n : int
        Number of rows.
    k : int, optional
        Diagonal offset of the triangle's edge; default 0.
    m : int, optional
        Number of columns; default n.

    Returns
    -------
    tuple of Array
        Two new int64 arrays, the rows and the columns, in row-major order.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.triu_indices(2)
    (Array([0, 0, 1]), Array([0, 1, 1]))
    """
    return _tri_indices("triu_indices", n, k, m, False)


def unravel_index(indices: Array, shape: Sequence[int], order: str = "C") -> Tuple[Array, ...]:
    """Coordinates in an array of the given shape of flat indices.

    Not in the standard: NumPy's unravel_index.

    Parameters
    ----------
    indices : Array
        Integer flat indices, each in [0, prod(shape)). NumPy arrays and Python
        ints are accepted too.
    shape : tuple of int
        Shape of the array indexed.
    order : str, optional
        'C' (the default): row-major indices; 'F': column-major.

    Returns
    -------
    tuple of Array
        One new int64 array of indices' shape per dimension of shape.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.unravel_index(xp.asarray([1, 5]), (2, 3))
    (Array([0, 1]), Array([1, 2]))
    """
    func = "unravel_index"
    idx = _arr(func, indices, "indices")
    if idx.dtype.kind not in "iu":
        raise type_error(func, "indices must be integers", f"dtype {idx.dtype}")
    if isinstance(shape, int):
        shape = (shape,)
    dims = tuple(operator.index(d) for d in shape)
    if any_(d < 0 for d in dims):
        raise value_error(func, "dimensions must be non-negative", repr(dims))
    if order not in ("C", "F"):
        raise value_error(func, "order must be 'C' or 'F'", repr(order))
    size = 1
    for d in dims:
        size *= d
    idx = astype(idx, dt.int64) if idx.dtype != dt.int64 else idx
    from ._utility_functions import any as any_arr
    if idx.size and bool(any_arr(logical_or(less(idx, 0), greater_equal(idx, size)))):
        from ._statistical_functions import max as max_, min as min_
        bad = int(min_(idx)) if int(min_(idx)) < 0 else int(max_(idx))
        raise value_error(func, f"index {bad} is out of bounds for array with size {size}", None)
    out = []
    rest = idx
    walk = reversed(dims) if order == "C" else iter(dims)
    for d in walk:
        out.append(remainder(rest, d) if d else rest)
        rest = floor_divide(rest, d) if d else rest
    if order == "C":
        out.reverse()
    return tuple(out)


any_ = any


def vander(x: Array, N: Optional[int] = None, increasing: bool = False) -> Array:
    """Vandermonde matrix: the columns are powers of x.

    Not in the standard: NumPy's vander (powers by repeated multiplication, as
    NumPy).

    Parameters
    ----------
    x : Array
        1-D input array. NumPy arrays are accepted too.
    N : int, optional
        Number of columns; default len(x).
    increasing : bool, optional
        Powers increase from left to right; default False (decreasing).

    Returns
    -------
    Array
        A new (len(x), N) array of x's dtype promoted with int64.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.vander(xp.asarray([1, 2, 3]), 3)
    Array([[1, 1, 1],
           [4, 2, 1],
           [9, 3, 1]])
    """
    func = "vander"
    x = _arr(func, x)
    if x.ndim != 1:
        raise value_error(func, "x must be a one-dimensional array or sequence", f"shape {x.shape}")
    n = x.shape[0] if N is None else operator.index(N)
    if n < 0:
        raise value_error(func, "N must not be negative", n)
    rt = result_type(x.dtype if x.dtype.kind != "b" else dt.int64, dt.int64)
    xr = astype(x, rt)
    cols = [ones((x.shape[0], builtins_min(n, 1)), dtype=rt)]
    if n > 1:
        cols.append(cumulative_prod(broadcast_to(reshape(xr, (-1, 1)), (x.shape[0], n - 1)), axis=1))
    v = concat(cols, axis=1) if n else zeros((x.shape[0], 0), dtype=rt)
    return v if increasing else flip(v, axis=1)


builtins_min = min


def put(a: Array, ind: Any, v: Any, mode: str = "raise") -> None:
    """Write values into an array at flat indices, in place.

    Not in the standard: NumPy's put: a.flat[ind] = v, with v repeated when
    shorter than ind; for a repeated index the last value wins.

    Parameters
    ----------
    a : Array
        Array written to (through any view).
    ind : Array
        Integer flat indices. NumPy arrays, ints and lists are accepted too.
    v : Array
        Values, repeated as needed.
    mode : str, optional
        Indices out of range: 'raise' (the default) an IndexError, 'wrap' wrap
        around, 'clip' clip to the range.

    Returns
    -------
    None
        Nothing: a is changed in place.

    Examples
    --------
    >>> import arrstride as xp
    >>> a = xp.zeros(4, dtype=xp.int64)
    >>> xp.put(a, [0, 2], [5, 7])
    >>> a
    Array([5, 0, 7, 0])
    """
    func = "put"
    if not isinstance(a, Array):
        raise not_array_error(func, a, "a")
    idx = reshape(_arr(func, ind if not isinstance(ind, (list, tuple)) else asarray(ind), "ind"), (-1,))
    if idx.dtype.kind not in "iu" and not (idx.size == 0):
        raise type_error(func, "ind must be integers", f"dtype {idx.dtype}")
    idx = astype(idx, dt.int64)
    vals = reshape(_arr(func, v if not isinstance(v, (list, tuple)) else asarray(v), "v"), (-1,))
    if idx.size == 0 or vals.size == 0:
        return None
    n = a.size
    if mode == "raise":
        from ._utility_functions import any as any_arr
        if bool(any_arr(logical_or(less(idx, -n), greater_equal(idx, n)))):
            raise index_error(func, f"index out of bounds for a of size {n}", None)
        idx = where(less(idx, 0), idx + n, idx)
    elif mode == "wrap":
        if n == 0:
            raise index_error(func, "cannot put into an empty array", None)
        idx = remainder(idx, n)
    elif mode == "clip":
        if n == 0:
            raise index_error(func, "cannot put into an empty array", None)
        idx = where(less(idx, 0), 0, where(greater_equal(idx, n), n - 1, idx))
    else:
        raise value_error(func, "mode must be 'raise', 'wrap' or 'clip'", repr(mode))
    if vals.shape[0] != idx.shape[0]:
        vals = vals[remainder(arange(idx.shape[0]), vals.shape[0])]
    if vals.dtype != a.dtype:
        vals = astype(vals, a.dtype)
    coords = unravel_index(idx, a.shape) if a.ndim else ()
    if a.ndim == 0:
        a[...] = vals[-1]
    else:
        a[coords] = vals
    return None


def select(condlist: Sequence[Array], choicelist: Sequence[Array], default: Any = 0) -> Array:
    """A new array taking each element from the first choice whose condition holds.

    Not in the standard: NumPy's select.

    Parameters
    ----------
    condlist : sequence of Array
        Bool arrays, one per choice.
    choicelist : sequence of Array
        Arrays (or scalars) to take elements from, broadcast together.
    default : scalar or Array, optional
        Value where no condition holds; default 0.

    Returns
    -------
    Array
        A new array of the broadcast shape and the choices' promoted dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.arange(6)
    >>> xp.select([x < 3, x > 4], [x, x ** 2], default=-1)
    Array([ 0,  1,  2, -1, -1, 25])
    """
    func = "select"
    condlist, choicelist = list(condlist), list(choicelist)
    if len(condlist) != len(choicelist):
        raise value_error(func, "list of cases must be same length as list of conditions",
                          f"{len(condlist)} and {len(choicelist)}")
    if not choicelist:
        raise value_error(func, "select with an empty condition list is not possible", None)
    conds = [_arr(func, c, "condlist") for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != dt.bool:
            raise type_error(func, f"invalid entry {i} in condlist: should be boolean ndarray",
                             f"dtype {c.dtype}")
    choices = [_arr(func, c, "choicelist") for c in choicelist]
    d = default if isinstance(default, (bool, int, float, complex)) else _arr(func, default, "default")
    rt = result_type(*choices, d)
    out = asarray(d, dtype=rt) if not isinstance(d, Array) else astype(d, rt)
    for c, ch in zip(reversed(conds), reversed(choices)):
        out = where(c, astype(ch, rt), out)
    from ._manipulation_functions import broadcast_arrays
    shape = broadcast_arrays(*conds, *choices, out)[0].shape
    return astype(broadcast_to(out, shape), rt, copy=True)


def argwhere(a: Array) -> Array:
    """Indices of the nonzero elements of a, one row per element.

    Not in the standard: NumPy's argwhere (nonzero's results as columns).

    Parameters
    ----------
    a : Array
        Input array. NumPy arrays are accepted too.

    Returns
    -------
    Array
        A new int64 array of shape (count, a.ndim).

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.argwhere(xp.asarray([[0, 1], [2, 0]]))
    Array([[0, 1],
           [1, 0]])
    """
    a = _arr("argwhere", a, "a")
    if a.ndim == 0:
        n = int(bool(a))
        return zeros((n, 0), dtype=dt.int64)
    return stack(nonzero(a), axis=-1)


def unique(ar: Array, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: Optional[int] = None, *,
           equal_nan: bool = True, sorted: bool = True) -> Any:
    """Sorted unique elements of an array, with NumPy's optional extra outputs.

    Not in the standard: NumPy's unique over the flattened array (the
    standard's unique_* functions keep every NaN; here they count as one,
    unless equal_nan is False), or, with axis, the unique sub-arrays along
    that axis in lexicographic order (sub-arrays holding NaN are all distinct,
    as in NumPy).

    Parameters
    ----------
    ar : Array
        Input array, flattened. NumPy arrays are accepted too.
    return_index : bool, optional
        Also return the flat index of each unique value's first occurrence
        (with axis: the index along axis).
    return_inverse : bool, optional
        Also return, for every element of ar, the index of its unique value
        (of ar's shape; with axis, one per index along axis).
    return_counts : bool, optional
        Also return how many times each unique value occurs.
    axis : int, optional
        The axis of the sub-arrays to compare; None (the default) flattens ar.
    equal_nan : bool, optional
        Count all NaNs as one unique value; default True.
    sorted : bool, optional
        Unique values in increasing order; they always are.

    Returns
    -------
    Array or tuple of Array
        The unique values (a new 1-D array), followed by the outputs asked for.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.unique(xp.asarray([3, 1, 3, 2]))
    Array([1, 2, 3])
    >>> xp.unique(xp.asarray([3, 1, 3]), return_counts=True)
    (Array([1, 3]), Array([1, 2]))
    """
    func = "unique"
    ar = _arr(func, ar, "ar")
    for name, v in (("return_index", return_index), ("return_inverse", return_inverse),
                    ("return_counts", return_counts), ("equal_nan", equal_nan)):
        if not isinstance(v, dt.builtins_bool):
            raise type_error(func, f"{name} must be a bool", repr(v))
    if axis is not None:
        return _unique_axis(func, ar, normalize_axis(func, axis, builtins.max(ar.ndim, 1)),
                            return_index, return_inverse, return_counts)
    flat = reshape(ar, (-1,))
    res = unique_all(flat)
    values, index, inverse, counts = res.values, res.indices, res.inverse_indices, res.counts
    if equal_nan and values.dtype.kind in "fc":
        from ._elementwise_functions import isnan
        from ._statistical_functions import sum as sum_
        nanmask = isnan(values)
        k = int(sum_(astype(nanmask, dt.int64)))
        if k > 1:
            first = values.shape[0] - k  # NaNs sort last
            nan_total = int(sum_(counts[first:]))
            values = values[: first + 1]
            from ._statistical_functions import min as min_
            idx_first = min_(index[first:])
            index = concat([index[:first], reshape(idx_first, (1,))])
            counts = concat([counts[:first], asarray([nan_total], dtype=counts.dtype)])
            inverse = where(greater_equal(inverse, first), first, inverse)
    outs = [values]
    if return_index:
        outs.append(index)
    if return_inverse:
        outs.append(reshape(inverse, ar.shape))
    if return_counts:
        outs.append(counts)
    return outs[0] if len(outs) == 1 else tuple(outs)


def _unique_axis(func: str, ar: Array, axis: int, return_index: bool, return_inverse: bool,
                 return_counts: bool) -> Any:
    """unique along axis: the sub-arrays as rows, ordered by stable sorts on
    their columns from the last to the first (complex ones by real, then
    imaginary part), then each row unlike the one before it starts a group."""
    from ._elementwise_functions import imag, not_equal, real, subtract
    from ._indexing_functions import take
    from ._manipulation_functions import moveaxis
    from ._sorting_functions import argsort
    from ._statistical_functions import cumulative_sum
    from ._utility_functions import any as any_
    if ar.ndim == 0:
        raise value_error(func, "axis must be None for a 0-d array", repr(axis))
    moved = moveaxis(ar, axis, 0)
    n = moved.shape[0]
    rows = reshape(moved, (n, -1)) if n else zeros((0, 1), dtype=ar.dtype)
    m = rows.shape[1]
    order = arange(n, dtype=dt.int64)
    if m == 0 and n:  # every row is the same empty row
        first = concat([asarray([True]), zeros((n - 1,), dtype=dt.bool)])
    else:
        parts = [imag, real] if rows.dtype.kind == "c" else [None]
        for c in builtins.range(m - 1, -1, -1):
            for part in parts:  # complex: by imaginary part, then stably by real part
                col = take(rows[:, c], order)
                key = col if part is None else part(col)
                order = take(order, argsort(key, stable=True))
        srt = take(rows, order, axis=0)
        if n:
            differs = any_(not_equal(srt[1:], srt[:-1]), axis=1)
            first = concat([asarray([True]), differs])
        else:
            first = zeros((0,), dtype=dt.bool)
    starts = nonzero(first)[0]
    k = starts.shape[0]
    index = take(order, starts)
    values = take(moved, index, axis=0)
    values = moveaxis(values, 0, axis)
    outs = [values]
    if return_index:
        outs.append(index)
    if return_inverse:
        group = subtract(cumulative_sum(astype(first, dt.int64)), 1) if n else \
            zeros((0,), dtype=dt.int64)
        outs.append(take(group, argsort(order)) if n else group)
    if return_counts:
        ends = concat([starts[1:], asarray([n], dtype=dt.int64)]) if k else starts
        outs.append(subtract(ends, starts))
    return outs[0] if len(outs) == 1 else tuple(outs)


def _is_bool(k: Any) -> bool:
    return isinstance(k, dt.builtins_bool) or type(k).__name__ == "bool_"


def _kth_items(func: str, kth: Any) -> List[Any]:
    """kth as a list of items: one int, or the items of a 1-D sequence."""
    if _is_bool(kth):
        raise value_error(func, "kth must not be bool", repr(kth))
    try:
        return [operator.index(kth)]
    except TypeError:
        pass
    if isinstance(kth, (str, bytes)) or not hasattr(kth, "__iter__"):
        raise type_error(func, "kth must be an int or a sequence of ints", repr(kth))
    items = list(kth)
    if not items:
        raise type_error(func, "kth must be an int or a non-empty sequence of ints", repr(kth))
    return items


def _one_kth(func: str, k: Any) -> int:
    try:
        return operator.index(k)
    except TypeError:
        pass
    if hasattr(k, "__len__"):
        raise value_error(func, "kth must be an int or a 1-D sequence of ints", repr(k))
    raise type_error(func, "kth must be an int or a sequence of ints", repr(k))


def _kth(func: str, a: Any, kth: Any, axis: Optional[int]) -> Tuple[Array, int, List[int]]:
    """a (flattened when axis is None), its normalized axis, and the kth as
    sorted distinct positions in [0, n) (NumPy's rules: negative counts from
    the end; bools and non-integers refused)."""
    a = _arr(func, a, "a")
    if a.dtype.kind == "c":
        raise dtype_error(func, "real-valued", a.dtype)
    if axis is None:
        a = reshape(a, (-1,))
        axis = 0
    if a.ndim == 0:
        raise value_error(func, "a must have at least one dimension", f"shape {a.shape}")
    ax = normalize_axis(func, axis, a.ndim)
    n = a.shape[ax]
    if isinstance(kth, Array):
        if kth.ndim > 1:
            raise value_error(func, "kth must be an int or a 1-D sequence of ints",
                              f"shape {kth.shape}")
        if kth.dtype == dt.bool:
            raise value_error(func, "kth must not be bool", repr(kth))
        if kth.dtype.kind not in "iu":
            raise type_error(func, "kth must be an int or a sequence of ints",
                             f"dtype {kth.dtype}")
        ks = [int(kth)] if kth.ndim == 0 else [int(v) for v in kth]
    else:
        items = _kth_items(func, kth)
        if builtins.all(_is_bool(k) for k in items):
            raise value_error(func, "kth must not be bool", repr(kth))
        ks = [int(k) if _is_bool(k) else _one_kth(func, k) for k in items]  # as NumPy's int array
    if a.size == 0:
        return a, ax, []
    out = set()
    for k in ks:
        if not -n <= k < n:
            raise value_error(func, f"kth(={k}) out of bounds ({n})", None)
        out.add(k + n if k < 0 else k)
    return a, ax, builtins.sorted(out)


def partition(a: Array, kth: Any, axis: Optional[int] = -1) -> Array:
    """A copy of a with the kth element of each lane in its sorted place.

    Not in the standard: NumPy's partition. In each lane along axis, the
    element at each position kth is the one sorting would put there; the
    elements before it are smaller or equal and those after larger or equal
    (NaNs count as largest). The order within those parts is unspecified.
    Complex input is refused.

    Parameters
    ----------
    a : Array
        Real input array. NumPy arrays are accepted too.
    kth : int or sequence of int
        Position(s) whose element ends in its sorted place; negative ones
        count from the end of the lane.
    axis : int, optional
        Axis of the lanes; default the last; None flattens a first.

    Returns
    -------
    Array
        A new array of a's shape and dtype.

    See Also
    --------
    argpartition

    Examples
    --------
    >>> import arrstride as xp
    >>> p = xp.partition(xp.asarray([3, 4, 2, 1]), 2)
    >>> int(p[2])
    3
    >>> bool(xp.all(p[:2] <= 3)) and bool(xp.all(p[3:] >= 3))
    True
    """
    from . import _kernels as K
    a, ax, ks = _kth("partition", a, kth, axis)
    out = Array._empty(a.shape, a.dtype, func="partition")
    if out.size:
        K.select(a, out, ax, ks, False)
    return out


def argpartition(a: Array, kth: Any, axis: Optional[int] = -1) -> Array:
    """Indices that would partition a: the kth of each lane in its sorted place.

    Not in the standard: NumPy's argpartition. Taking a's elements along
    axis at the returned indices gives a partition of each lane, as
    partition describes.

    Parameters
    ----------
    a : Array
        Real input array. NumPy arrays are accepted too.
    kth : int or sequence of int
        Position(s) whose element ends in its sorted place; negative ones
        count from the end of the lane.
    axis : int, optional
        Axis of the lanes; default the last; None flattens a first.

    Returns
    -------
    Array
        A new int64 array of a's shape (flattened when axis is None).

    See Also
    --------
    partition

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([3, 4, 2, 1])
    >>> int(x[xp.argpartition(x, 2)][2])
    3
    """
    from . import _kernels as K
    a, ax, ks = _kth("argpartition", a, kth, axis)
    out = Array._empty(a.shape, dt.int64, func="argpartition")
    if out.size:
        K.select(a, out, ax, ks, True)
    return out


def promote_types(type1: Any, type2: Any) -> dt.DType:
    """The smallest dtype both dtypes cast to safely.

    Not in the standard: NumPy's promote_types (result_type of two dtypes;
    dtypes may be given as names, Python types or NumPy dtypes).

    Parameters
    ----------
    type1 : DType, str or type
        First dtype.
    type2 : DType, str or type
        Second dtype.

    Returns
    -------
    DType
        The promoted dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.promote_types(xp.int8, xp.uint8)
    arrstride.int16
    >>> xp.promote_types("int64", "float32")
    arrstride.float64
    """
    return result_type(dt.as_dtype("promote_types", type1, allow_none=False),
                       dt.as_dtype("promote_types", type2, allow_none=False))
