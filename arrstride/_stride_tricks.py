"""arrstride.lib.stride_tricks.sliding_window_view: numpy's function of that
name (xarray's rolling calls it through the namespace), as repeated unfold.
The result is a read-only view, as NumPy's: its windows overlap, so a write
would change every window that holds the element."""
from __future__ import annotations

from typing import Any, Optional

from ._args import int_arg, normalize_axis
from ._array import Array, check_array
from ._errors import type_error, value_error
from ._views import unfold


def sliding_window_view(x: Array, window_shape: Any, axis: Optional[Any] = None, *,
                        subok: bool = False, writeable: bool = False) -> Array:
    """Every window of a shape over x, as a read-only view (NumPy's).

    Not in the standard: numpy.lib.stride_tricks.sliding_window_view, where
    xarray looks for it. The windows overlap, so the view refuses writes.

    Parameters
    ----------
    x : Array
        Input array.
    window_shape : int or tuple of int
        Size of the window along each axis of axis.
    axis : int or tuple of int, optional
        Axes to slide along; None (the default) takes every axis.
    subok : bool, optional
        Accepted for NumPy compatibility; only False.
    writeable : bool, optional
        Only False: the windows overlap.

    Returns
    -------
    Array
        A read-only view of x: the number of windows along each axis, then the
        window's axes last, in axis order.

    Raises
    ------
    ValueError
        If a window is larger than its axis, window_shape and axis differ in
        length, or writeable is True.
    TypeError
        If subok is True.

    See Also
    --------
    unfold, as_strided

    Examples
    --------
    >>> import arrstride as xp
    >>> swv = xp.lib.stride_tricks.sliding_window_view
    >>> swv(xp.arange(5), 3)
    Array([[0, 1, 2],
           [1, 2, 3],
           [2, 3, 4]])
    >>> swv(xp.arange(5), 3).strides
    (1, 1)
    """
    func = "sliding_window_view"
    x = check_array(func, x)
    rule = "window_shape must be an int or a tuple of ints"
    shape = tuple(int_arg(func, w, rule) for w in window_shape) \
        if isinstance(window_shape, (tuple, list)) else (int_arg(func, window_shape, rule),)
    if axis is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(func, a, x.ndim) for a in axis)
    else:
        axes = (normalize_axis(func, axis, x.ndim),)
    if len(axes) != len(shape):
        raise value_error(func, "window_shape needs one entry per axis",
                          f"{len(shape)} for axes {axes}")
    if writeable:
        raise value_error(func, "windows overlap; the view cannot be writeable")
    if subok:
        raise type_error(func, "subok is not supported")
    out = x
    for a, w in zip(axes, shape):
        if w < 0:
            raise value_error(func, "window_shape must be non-negative", repr(window_shape))
        if w > out.shape[a]:
            raise value_error(func, "window_shape cannot be larger than the input along axis "
                              f"{a}", f"{w} > {out.shape[a]}")
        out = unfold(out, a, w, 1)
    st = out._storage
    if not st.readonly:
        st = st.readonly_alias(f"a view made by {func} (its windows overlap)")
    return Array._new(st, out._layout, out._dtype)
