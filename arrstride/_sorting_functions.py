"""Sorting functions: sort and argsort. Stable by default (an MSD radix sort
on order-preserving keys in C); with stable=False, lanes of more than 4
elements run a vector quicksort where the CPU has AVX-512 (equal elements
then come in any order; a long lane is split across the thread pool, for
argsort by a sample sort whose result does not depend on the thread
count), and the
radix sort elsewhere. NaNs sort last
(first when descending, as the reversed ascending order); -0.0 and 0.0 are
equal. Results are new arrays."""
from __future__ import annotations

from . import _dtypes as dt
from . import _kernels as K
from ._core import sort as _core_sort
from ._args import normalize_axis
from ._array import Array, check_array
from ._errors import dtype_error, type_error


def _check(func: str, x: Array, axis: int, descending: bool, stable: bool) -> int:
    x = check_array(func, x)
    if x.dtype.kind == "c":
        raise dtype_error(func, "real-valued", x.dtype)
    for name, v in (("descending", descending), ("stable", stable)):
        if not isinstance(v, dt.builtins_bool):
            raise type_error(func, f"{name} must be a bool", repr(v))
    if x.ndim == 0:
        normalize_axis(func, axis, 1)
        return -1
    return normalize_axis(func, axis, x.ndim)


def sort(x: Array, /, axis: int = -1, *, descending: bool = False, stable: bool = True) -> Array:
    """A sorted copy of x along an axis.

    NaNs sort last (first when descending).

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype. NumPy arrays are accepted too.
    axis : int, optional
        Axis to sort along; default -1. Beyond the standard, it may be given by
        position, as in NumPy.
    descending : bool, optional
        If True, sort from largest to smallest. Default False.
    stable : bool, optional
        If True (the default), equal elements keep their order (also when
        descending); False allows a faster sort that may reorder them.

    Returns
    -------
    Array
        A new array of x's shape and dtype.

    See Also
    --------
    argsort

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.sort(xp.asarray([3, 1, 2]), descending=True)
    Array([3, 2, 1])
    """
    out = _core_sort(x, axis, descending, stable, False)  # along the last axis, in C
    if out is not None:
        return out
    ax = _check("sort", x, axis, descending, stable)
    if ax < 0:
        return x._copy_contiguous()
    out = Array._empty(x.shape, x.dtype, func="sort")
    if out.size:
        K.sort(x, out, ax, False, descending, stable)
    return out


def argsort(x: Array, /, axis: int = -1, *, descending: bool = False, stable: bool = True) -> Array:
    """Indices that sort x along an axis.

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype. NumPy arrays are accepted too.
    axis : int, optional
        Axis to sort along; default -1. Beyond the standard, it may be given by
        position, as in NumPy.
    descending : bool, optional
        If True, sort from largest to smallest. Default False.
    stable : bool, optional
        If True (the default), equal elements keep their order (also when
        descending); False allows a faster sort that may reorder them.

    Returns
    -------
    Array
        A new int64 array of x's shape.

    See Also
    --------
    sort

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.argsort(xp.asarray([3, 1, 2]))
    Array([1, 2, 0])
    """
    out = _core_sort(x, axis, descending, stable, True)  # along the last axis, in C
    if out is not None:
        return out
    ax = _check("argsort", x, axis, descending, stable)
    if ax < 0:
        return Array._empty((), dt.int64, zero=True)
    out = Array._empty(x.shape, dt.int64, func="argsort")
    if out.size:
        K.sort(x, out, ax, True, descending, stable)
    return out
