"""pad (beyond the standard; the constant mode of numpy.pad, as
array_api_extra.pad). xarray's shift, pad and rolling call it."""
from __future__ import annotations

from typing import Any

from . import _dtypes as dt
from ._args import int_arg
from ._array import Array, check_array
from ._creation_functions import full, number_arg
from ._errors import type_error, value_error


def _widths(func: str, pad_width: Any, ndim: int) -> tuple:
    """pad_width as ((before, after),) * ndim: an int, (before, after), or one
    pair per axis (numpy.pad's forms, with (n,) and ((b, a),) broadcast)."""
    rule = "pad_width must be an int, a (before, after) pair or one pair per axis"
    if not isinstance(pad_width, (tuple, list)):
        n = int_arg(func, pad_width, rule)
        pairs = [(n, n)]
    else:
        items = list(pad_width)
        if items and all(not isinstance(p, (tuple, list)) for p in items):
            if len(items) == 1:
                items = [(items[0], items[0])]
            elif len(items) == 2:
                items = [tuple(items)]
            else:
                raise type_error(func, rule, repr(pad_width))
        pairs = []
        for p in items:
            if not isinstance(p, (tuple, list)) or len(p) not in (1, 2):
                raise type_error(func, rule, repr(pad_width))
            b = int_arg(func, p[0], rule)
            a = int_arg(func, p[-1], rule)
            pairs.append((b, a))
    if len(pairs) == 1:
        pairs = pairs * ndim
    if len(pairs) != ndim:
        raise value_error(func, f"pad_width needs one pair per axis ({ndim})", repr(pad_width))
    for b, a in pairs:
        if b < 0 or a < 0:
            raise value_error(func, "pad widths must be non-negative", repr(pad_width))
    return tuple(pairs)


def pad(x: Array, pad_width: Any, mode: str = "constant", *, constant_values: Any = 0) -> Array:
    """Array x padded with a constant value along each axis.

    Not in the standard: NumPy's pad, for mode='constant' only.

    Parameters
    ----------
    x : Array
        Input array.
    pad_width : int or sequence
        Number of elements added before and after each axis: an int for all, a
        pair (before, after) for all, or one pair per axis.
    mode : str, optional
        Only 'constant' (the default).
    constant_values : scalar, optional
        Value of the added elements, cast to x's dtype; default 0.

    Returns
    -------
    Array
        A new array of x's dtype.

    Raises
    ------
    ValueError
        If mode is not 'constant' or pad_width is malformed or negative.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.pad(xp.asarray([1, 2, 3]), 1)
    Array([0, 1, 2, 3, 0])
    >>> xp.pad(xp.asarray([[1, 2]]), ((1, 0), (0, 2)), constant_values=9)
    Array([[9, 9, 9, 9],
           [1, 2, 9, 9]])
    """
    func = "pad"
    x = check_array(func, x)
    if mode != "constant":
        raise value_error(func, "only mode='constant' is supported", repr(mode))
    value = number_arg(func, "constant_values", constant_values, "number")
    dt.pack_scalar(value, x.dtype, func)  # a value x's dtype cannot hold is refused as pad's
    pairs = _widths(func, pad_width, x.ndim)
    shape = tuple(b + d + a for (b, a), d in zip(pairs, x.shape))
    out = full(shape, value, dtype=x.dtype)
    out[tuple(slice(b, b + d) for (b, _), d in zip(pairs, x.shape))] = x
    return out
