"""Set functions: unique_all, unique_counts, unique_inverse, unique_values.

A stable radix sort in C, then one pass over the runs: values come out
sorted (as NumPy's), each NaN is distinct, `indices` are first occurrences.
Results are new arrays."""
from __future__ import annotations

from typing import NamedTuple

from . import _dtypes as dt
from . import _kernels as K
from . import _layout as L
from ._array import Array, check_array
from ._searching_functions import flat_view


class UniqueAllResult(NamedTuple):
    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    values: Array
    inverse_indices: Array


def _first(a: Array, k: int) -> Array:
    """The first k elements of the 1-D a, copied when that frees much memory."""
    view = a._with_layout(L.Layout((k,), (1,), 0))
    return view._copy_contiguous() if 2 * k < a.size else view


def _unique(func: str, x: Array, index: bool, inverse: bool, counts: bool):
    x = check_array(func, x)
    flat = flat_view(x)
    n = flat.size
    values = Array._empty((n,), x.dtype)
    idx = Array._empty((n,), dt.int64) if index else None
    inv = Array._empty((n,), dt.int64) if inverse else None
    cnt = Array._empty((n,), dt.int64) if counts else None
    k = K.unique(flat, values, idx, inv, cnt)
    return (_first(values, k),
            _first(idx, k) if index else None,
            inv._with_layout(L.contiguous(x.shape)) if inverse else None,
            _first(cnt, k) if counts else None)


def unique_values(x: Array, /) -> Array:
    """Unique values of x, sorted.

    NaNs each count as distinct.

    Parameters
    ----------
    x : Array
        Input array of any shape (it is flattened). NumPy arrays are accepted
        too.

    Returns
    -------
    Array
        A new 1-D array of x's dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.unique_values(xp.asarray([3, 1, 3, 2]))
    Array([1, 2, 3])
    """
    return _unique("unique_values", x, False, False, False)[0]


def unique_counts(x: Array, /) -> UniqueCountsResult:
    """Unique values of x, sorted, and how often each occurs.

    Parameters
    ----------
    x : Array
        Input array of any shape (it is flattened). NumPy arrays are accepted
        too.

    Returns
    -------
    UniqueCountsResult
        Named tuple (values, counts); counts are int64.

    Examples
    --------
    >>> import arrstride as xp
    >>> values, counts = xp.unique_counts(xp.asarray([3, 1, 3, 2, 3]))
    >>> values
    Array([1, 2, 3])
    >>> counts
    Array([1, 1, 3])
    """
    v, _, _, c = _unique("unique_counts", x, False, False, True)
    return UniqueCountsResult(v, c)


def unique_inverse(x: Array, /) -> UniqueInverseResult:
    """Unique values of x, sorted, and the index of each element's value.

    Parameters
    ----------
    x : Array
        Input array of any shape (it is flattened). NumPy arrays are accepted
        too.

    Returns
    -------
    UniqueInverseResult
        Named tuple (values, inverse_indices): ``values[inverse_indices]``
        equals x (of x's shape, int64).

    Examples
    --------
    >>> import arrstride as xp
    >>> values, inverse = xp.unique_inverse(xp.asarray([3, 1, 3, 2]))
    >>> values
    Array([1, 2, 3])
    >>> inverse
    Array([2, 0, 2, 1])
    >>> xp.take(values, inverse)
    Array([3, 1, 3, 2])
    """
    v, _, inv, _ = _unique("unique_inverse", x, False, True, False)
    return UniqueInverseResult(v, inv)


def unique_all(x: Array, /) -> UniqueAllResult:
    """Unique values of x, with their first indices, inverse indices and counts.

    NaNs are distinct values, as the standard says; the values come sorted.

    Parameters
    ----------
    x : Array
        Input array of any shape (it is flattened). NumPy arrays are accepted
        too.

    Returns
    -------
    UniqueAllResult
        Named tuple (values, indices, inverse_indices, counts): the sorted unique
        values; the index in the flattened x of each one's first occurrence; for
        each element of x, the index of its value (of x's shape); how often each
        occurs. The indices and counts are int64.

    See Also
    --------
    unique_counts, unique_inverse, unique_values

    Examples
    --------
    >>> import arrstride as xp
    >>> r = xp.unique_all(xp.asarray([3, 1, 3, 2]))
    >>> r.values, r.counts
    (Array([1, 2, 3]), Array([1, 1, 2]))
    >>> r.indices, r.inverse_indices
    (Array([1, 3, 0]), Array([2, 0, 2, 1]))
    """
    v, i, inv, c = _unique("unique_all", x, True, True, True)
    return UniqueAllResult(v, i, inv, c)
