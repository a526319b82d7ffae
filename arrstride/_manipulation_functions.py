"""Manipulation functions. Most are views: each builds a new layout over the
same storage and touches no data (reshape copies only when no view exists).
concat, stack, tile, repeat and roll (at the end) copy into a new array."""
from __future__ import annotations

import builtins
import operator
from typing import Any, List, Optional, Sequence, Tuple

from . import _dtypes as dt
from . import _kernels as K
from . import _layout as L
from ._args import check_dims, int_arg, normalize_axes, normalize_axis
from ._args import resolve_shape as _resolve_shape
from ._array import Array, check_array
from ._core import concat0 as _core_concat0
from ._core import permute as _core_permute
from ._core import reshape as _core_reshape
from ._core import stack0 as _core_stack0
from ._errors import (
    alloc_error,
    broadcast_error,
    broadcast_into_error,
    no_view_error,
    shapes_error,
    type_error,
    value_error,
)
from ._indexing_functions import take
from ._statistical_functions import min as amin
from ._statistical_functions import sum as asum


def reshape(x: Array, /, shape: Tuple[int, ...], *, copy: Optional[bool] = None) -> Array:
    """Array x with a new shape, as a view whenever one exists.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    shape : tuple of int
        New shape, of x's size; one entry may be -1 (inferred).
    copy : bool, optional
        True: always copy. False: never copy (ValueError when no view exists).
        None (the default): a view when strides exist for the new shape, else a
        copy.

    Returns
    -------
    Array
        A view of x, or a new array.

    Raises
    ------
    ValueError
        If the sizes differ, or ``copy=False`` and no view exists.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.reshape(xp.arange(6), (2, -1))
    Array([[0, 1, 2],
           [3, 4, 5]])
    """
    if copy is None or copy is False:
        out = _core_reshape(x, shape)  # a dense x under a tuple of ints: a view, in C
        if out is not None:
            return out
    func = "reshape"
    x = check_array(func, x)
    new_shape = _resolve_shape(func, shape, x.size)
    if copy:
        return x._copy_contiguous()._with_layout(L.contiguous(new_shape))
    strides = L.view_strides(x._layout, new_shape)
    if strides is not None:
        return x._with_layout(L.Layout(new_shape, strides, x._layout.offset))
    if copy is False:
        raise no_view_error(func, x.shape, x.strides, new_shape,
                            "copy=False asks for a view; use copy=None to copy when no view exists")
    return x._copy_contiguous()._with_layout(L.contiguous(new_shape))


def permute_dims(x: Array, /, axes: Tuple[int, ...]) -> Array:
    """Array x with its axes permuted.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axes : tuple of int
        A permutation of ``range(x.ndim)``: axis i of the result is axis
        ``axes[i]`` of x.

    Returns
    -------
    Array
        A view of x (the strides permuted).

    Raises
    ------
    ValueError
        If axes is not a permutation of x's axes.

    See Also
    --------
    matrix_transpose, moveaxis

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.permute_dims(xp.zeros((2, 3, 4)), (2, 0, 1)).shape
    (4, 2, 3)
    """
    out = _core_permute(x, axes)  # a tuple of ints naming each dim once: the view, in C
    if out is not None:
        return out
    func = "permute_dims"
    x = check_array(func, x)
    if not isinstance(axes, (tuple, list)):
        raise type_error(func, "axes must be a tuple of ints", repr(axes))
    norm = normalize_axes(func, axes, x.ndim)
    if len(norm) != x.ndim:
        raise value_error(func, f"axes must name each of the {x.ndim} axes once", repr(tuple(axes)))
    return x._with_layout(L.permute(x._layout, norm))


def matrix_transpose(x: Array, /) -> Array:
    """Transpose of each matrix of x (its last two axes swapped).

    Parameters
    ----------
    x : Array
        Array of at least 2 dimensions.

    Returns
    -------
    Array
        A view of x.

    Raises
    ------
    ValueError
        If x has fewer than 2 dimensions.

    See Also
    --------
    permute_dims

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.reshape(xp.arange(6), (1, 2, 3))
    >>> xp.matrix_transpose(x)
    Array([[[0, 3],
            [1, 4],
            [2, 5]]])
    >>> xp.matrix_transpose(x).strides
    (6, 1, 3)
    """
    x = check_array("matrix_transpose", x)
    if x.ndim < 2:
        raise value_error("matrix_transpose", "x must have at least 2 dimensions", f"shape {x.shape}")
    return x.mT


def expand_dims(x: Array, /, axis: Any = 0) -> Array:
    """Array x with new axes of size 1.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int or tuple of int, optional
        Position(s) of the new axes in the result; default 0. Beyond the
        standard, a tuple inserts several, as NumPy.

    Returns
    -------
    Array
        A view of x.

    Raises
    ------
    IndexError
        If an axis is out of range for the result.

    See Also
    --------
    squeeze

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.expand_dims(xp.asarray([1, 2]), axis=0).shape
    (1, 2)
    """
    func = "expand_dims"
    x = check_array(func, x)
    axes = axis if isinstance(axis, tuple) else (axis,)
    out_ndim = x.ndim + len(axes)
    norm = normalize_axes(func, axes, out_ndim)
    return x._with_layout(L.insert_dims(x._layout, norm))


def squeeze(x: Array, /, axis: Any = None) -> Array:
    """Array x without the given axes of size 1.

    Beyond the standard, as NumPy and PyTorch: axis may be left out (None),
    to remove every axis of size 1.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int or tuple of int, optional
        Axis or axes to remove; each must have size 1. None (the default)
        removes every axis of size 1.

    Returns
    -------
    Array
        A view of x.

    Raises
    ------
    ValueError
        If an axis does not have size 1.

    See Also
    --------
    expand_dims

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.squeeze(xp.zeros((1, 3, 1)), axis=0).shape
    (3, 1)
    """
    func = "squeeze"
    x = check_array(func, x)
    if axis is None:
        axis = tuple(k for k, d in enumerate(x.shape) if d == 1)
    norm = normalize_axes(func, axis, x.ndim, allow_none=False)
    for a in norm:
        if x.shape[a] != 1:
            raise value_error(func, f"cannot remove axis {a} of size {x.shape[a]} (it must be 1)")
    return x._with_layout(L.drop_dims(x._layout, norm))


def flip(x: Array, /, axis: Any = None) -> Array:
    """Elements of x in reverse order along the given axes.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int or tuple of int, optional
        Axis or axes to reverse; None (the default) reverses every axis.

    Returns
    -------
    Array
        A view of x with negative strides; no data is copied.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.flip(xp.asarray([1, 2, 3]))
    Array([3, 2, 1])
    """
    func = "flip"
    x = check_array(func, x)
    return x._with_layout(L.flip(x._layout, normalize_axes(func, axis, x.ndim)))


def moveaxis(x: Array, source: Any, destination: Any, /) -> Array:
    """Array x with axes moved to new positions; the others keep their order.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    source : int or tuple of int
        Axes to move.
    destination : int or tuple of int
        Their positions in the result, one per source axis.

    Returns
    -------
    Array
        A view of x.

    Raises
    ------
    ValueError
        If source and destination differ in length or repeat an axis.
    IndexError
        If an axis is out of range.

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.zeros((2, 3, 4))
    >>> xp.moveaxis(x, 0, -1).shape
    (3, 4, 2)
    >>> xp.moveaxis(x, (0, 1), (2, 0)).shape
    (3, 4, 2)
    """
    func = "moveaxis"
    x = check_array(func, x)
    src = normalize_axes(func, source, x.ndim, allow_none=False)
    dst = normalize_axes(func, destination, x.ndim, allow_none=False)
    if len(src) != len(dst):
        raise value_error(func, "source and destination must name as many axes",
                          f"{source!r} and {destination!r}")
    order = [k for k in range(x.ndim) if k not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return x._with_layout(L.permute(x._layout, order))


def broadcast_shapes(*shapes: Tuple[int, ...]) -> Tuple[int, ...]:
    """The shape that broadcasting the given shapes gives.

    Parameters
    ----------
    *shapes : tuple of int
        Shapes to broadcast together.

    Returns
    -------
    tuple of int
        The broadcast shape.

    Raises
    ------
    ValueError
        If the shapes do not broadcast.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.broadcast_shapes((2, 1), (3,))
    (2, 3)
    >>> xp.broadcast_shapes((4, 1, 5), (3, 1))
    (4, 3, 5)
    """
    return _broadcast_shapes("broadcast_shapes", shapes)


def _broadcast_shapes(func: str, shapes) -> Tuple[int, ...]:
    norm = []
    for s in shapes:
        try:
            norm.append(tuple(operator.index(d) for d in s))
        except TypeError:
            raise type_error(func, "each shape must be a tuple of ints", repr(s)) from None
    out = L.broadcast_shapes(*norm)
    if out is None:
        raise broadcast_error(func, *norm)
    return check_dims(func, out)


def _read_only_view(x: Array, lay: L.Layout, func: str) -> Array:
    """x's memory under `lay`, read-only (as NumPy's broadcast views are): a
    write through a stride-0 view would change many elements at once."""
    st = x._storage
    if not st.readonly:
        st = st.readonly_alias(f"a view made by {func}")
    return Array._new(st, lay, x._dtype)


def broadcast_to(x: Array, /, shape: Tuple[int, ...]) -> Array:
    """A view of x broadcast to a shape.

    Broadcast axes get stride 0: nothing is allocated, and the view is read-only
    since several indices reach one element.

    Parameters
    ----------
    x : Array
        Array to broadcast.
    shape : tuple of int
        Target shape; x's shape must broadcast to it.

    Returns
    -------
    Array
        A read-only view of x's memory.

    Raises
    ------
    ValueError
        If x's shape is not broadcast-compatible with shape.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.broadcast_to(xp.asarray([1, 2]), (2, 2))
    Array([[1, 2],
           [1, 2]])
    """
    func = "broadcast_to"
    x = check_array(func, x)
    try:
        shape = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise type_error(func, "shape must be a tuple of ints", repr(shape)) from None
    if any(d < 0 for d in shape):
        raise broadcast_into_error(func, x.shape, shape, "x")
    lay = L.expand(x._layout, check_dims(func, shape))
    if lay is None:
        raise broadcast_into_error(func, x.shape, shape, "x")
    return _read_only_view(x, lay, func)


def broadcast_arrays(*arrays: Array) -> Tuple[Array, ...]:
    """The arrays broadcast against each other.

    Parameters
    ----------
    *arrays : Array
        Arrays whose shapes broadcast together.

    Returns
    -------
    tuple of Array
        One array per argument, of the broadcast shape: read-only stride-0 views
        (an argument that already has the broadcast shape is returned as it is,
        as in NumPy).

    Raises
    ------
    ValueError
        If the shapes do not broadcast.

    See Also
    --------
    broadcast_to, broadcast_shapes

    Examples
    --------
    >>> import arrstride as xp
    >>> a, b = xp.broadcast_arrays(xp.asarray([[1], [2]]), xp.asarray([10, 20, 30]))
    >>> a
    Array([[1, 1, 1],
           [2, 2, 2]])
    >>> b.strides
    (0, 1)
    """
    arrays = tuple(check_array("broadcast_arrays", a, "every argument") for a in arrays)
    shape = _broadcast_shapes("broadcast_arrays", [a.shape for a in arrays])
    # as NumPy: an array already of the shape comes back as it is (writable,
    # when it was: SciPy's elementwise solvers write into what they get back)
    return tuple(a if a.shape == shape else _read_only_view(a, L.expand(a._layout, shape), "broadcast_arrays")
                 for a in arrays)


def unstack(x: Array, /, *, axis: int = 0) -> Tuple[Array, ...]:
    """The slices of x along an axis, as a tuple.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    axis : int, optional
        Axis to split along; default 0.

    Returns
    -------
    tuple of Array
        ``x.shape[axis]`` views of x, each without that axis.

    See Also
    --------
    stack

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.unstack(xp.reshape(xp.arange(4), (2, 2)))
    (Array([0, 1]), Array([2, 3]))
    >>> xp.unstack(xp.reshape(xp.arange(4), (2, 2)), axis=1)
    (Array([0, 2]), Array([1, 3]))
    """
    func = "unstack"
    x = check_array(func, x)
    if x.ndim == 0:
        raise value_error(func, "x must have at least one dimension")
    a = normalize_axis(func, axis, x.ndim)
    lay = x._layout
    return tuple(x._with_layout(L.select(lay, a, i)) for i in range(x.shape[a]))


# ---- manipulation functions that copy: concat, stack, tile, repeat, roll ------------------

def _result_dtype(func: str, arrays: Sequence[Array]):
    out = arrays[0].dtype
    for a in arrays[1:]:
        out = dt.promote(out, a.dtype)
    return out


def _array_list(func: str, arrays: Any) -> List[Array]:
    if not isinstance(arrays, (tuple, list)) or not arrays:
        raise type_error(func, "arrays must be a non-empty tuple or list of arrays", repr(arrays))
    return [check_array(func, a, "every element of arrays") for a in arrays]


def _flat(x: Array) -> Array:
    return reshape(x, (x.size,))


def concat(arrays: Any, /, axis: Optional[int] = 0) -> Array:
    """A new array joining arrays along an existing axis.

    Parameters
    ----------
    arrays : sequence of Array
        Arrays to join (NumPy arrays are accepted too); their dtypes are promoted
        to one.
    axis : int or None, optional
        Axis to join along; default 0. None flattens the arrays first. Beyond the
        standard, it may be given by position, as in NumPy.

    Returns
    -------
    Array
        A new array of the promoted dtype.

    Raises
    ------
    ValueError
        If the shapes differ other than along axis.

    See Also
    --------
    stack

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.concat([xp.asarray([1, 2]), xp.asarray([3])])
    Array([1, 2, 3])
    """
    if axis == 0 and type(axis) is int:
        out = _core_concat0(arrays)  # dense arrays of one dtype, in C
        if out is not None:
            return out
    func = "concat"
    arrays = _array_list(func, arrays)
    dtype = _result_dtype(func, arrays)
    if axis is None:
        arrays = [_flat(a) for a in arrays]
        axis = 0
    first = arrays[0]
    if first.ndim == 0:
        raise value_error(func, "zero-dimensional arrays cannot be concatenated")
    ax = normalize_axis(func, axis, first.ndim)
    for a in arrays[1:]:
        if a.ndim != first.ndim or any(d != e for k, (d, e) in enumerate(zip(a.shape, first.shape))
                                       if k != ax):
            raise shapes_error(func, f"shapes must match except on axis {ax}", first.shape, a.shape)
    shape = list(first.shape)
    shape[ax] = sum(a.shape[ax] for a in arrays)
    out = Array._empty(tuple(shape), dtype)
    start = 0
    for a in arrays:
        n = a.shape[ax]
        if n:
            dst = out._with_layout(L.slice_dim(out._layout, ax, start, start + n, 1))
            K.copy_into(dst, a)
        start += n
    return out


def stack(arrays: Any, /, axis: int = 0) -> Array:
    """A new array joining arrays of one shape along a new axis.

    Parameters
    ----------
    arrays : sequence of Array
        Arrays to join (NumPy arrays are accepted too); their dtypes are promoted
        to one.
    axis : int, optional
        Position of the new axis in the result; default 0.

    Returns
    -------
    Array
        A new array with one more dimension than the inputs.

    Raises
    ------
    ValueError
        If the arrays' shapes differ.

    See Also
    --------
    concat, unstack

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.stack([xp.asarray([1, 2]), xp.asarray([3, 4])], axis=1)
    Array([[1, 3],
           [2, 4]])
    """
    if axis == 0 and type(axis) is int:
        out = _core_stack0(arrays)  # dense arrays of one dtype and shape: in C
        if out is not None:
            return out
    func = "stack"
    arrays = _array_list(func, arrays)
    dtype = _result_dtype(func, arrays)
    shape = arrays[0].shape
    for a in arrays[1:]:
        if a.shape != shape:
            raise shapes_error(func, "all arrays must have the same shape", shape, a.shape)
    ax = normalize_axis(func, axis, len(shape) + 1)
    out_shape = shape[:ax] + (len(arrays),) + shape[ax:]
    out = Array._empty(out_shape, dtype)
    for i, a in enumerate(arrays):
        K.copy_into(out._with_layout(L.select(out._layout, ax, i)), a)
    return out


def _int_tuple(func: str, name: str, value: Any) -> Tuple[int, ...]:
    try:
        return tuple(operator.index(v) for v in value)
    except TypeError:
        raise type_error(func, f"{name} must be a tuple of ints", repr(value)) from None


def tile(x: Array, repetitions: Tuple[int, ...], /) -> Array:
    """Array x repeated along each axis.

    Made in one copy from a broadcast view of x.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    repetitions : tuple of int
        Number of repetitions per axis (aligned to the last axes, as shapes
        broadcast).

    Returns
    -------
    Array
        A new array.

    See Also
    --------
    repeat

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.tile(xp.asarray([1, 2]), (2, 2))
    Array([[1, 2, 1, 2],
           [1, 2, 1, 2]])
    """
    func = "tile"
    x = check_array(func, x)
    reps = _int_tuple(func, "repetitions", repetitions)
    if any(r < 0 for r in reps):
        raise value_error(func, "repetitions must be non-negative", reps)
    nd = builtins.max(x.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    lay = L.Layout((1,) * (nd - x.ndim) + x.shape, (0,) * (nd - x.ndim) + x.strides, x._layout.offset)
    out = Array._empty(check_dims(func, tuple(r * d for r, d in zip(reps, lay.shape))), x.dtype)
    if out.size == 0:
        return out
    ost = out._layout.strides
    vshape, vdst, vsrc = [], [], []
    for r, d, s_out, s_in in zip(reps, lay.shape, ost, lay.strides):
        vshape += [r, d]
        vdst += [d * s_out, s_out]
        vsrc += [0, s_in]
    dst = out._with_layout(L.Layout(tuple(vshape), tuple(vdst), 0))
    src = x._with_layout(L.Layout(tuple(vshape), tuple(vsrc), lay.offset))
    K.copy_into(dst, src)
    return out


def repeat(x: Array, repeats: Any, /, axis: Optional[int] = None) -> Array:
    """Each element of x repeated along an axis.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    repeats : int or Array
        Number of repetitions: an int for every element, or a 1-D integer array
        of one count per element along axis (or of one count).
    axis : int, optional
        Axis to repeat along; None (the default) flattens x first.

    Returns
    -------
    Array
        A new array.

    Raises
    ------
    ValueError
        If a count is negative or repeats has the wrong length.

    See Also
    --------
    tile

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.repeat(xp.asarray([1, 2]), 2)
    Array([1, 1, 2, 2])
    >>> xp.repeat(xp.asarray([[1, 2], [3, 4]]), xp.asarray([1, 2]), axis=0)
    Array([[1, 2],
           [3, 4],
           [3, 4]])
    """
    func = "repeat"
    x = check_array(func, x)
    if axis is None:
        x = _flat(x)
        axis = 0
    if x.ndim == 0:
        raise value_error(func, "x must have at least one dimension")
    ax = normalize_axis(func, axis, x.ndim)
    n = x.shape[ax]
    if isinstance(repeats, Array):
        if repeats.dtype.kind not in "iu" or repeats.ndim > 1:
            raise type_error(func, "repeats must be an int or a 1-D integer array",
                             f"dtype {repeats.dtype}, shape {repeats.shape}")
        if repeats.size == 1:
            repeats = int(repeats._copy_contiguous(dt.int64)._item())
        else:
            return _repeat_each(func, x, repeats, ax, n)
    r = int_arg(func, repeats, "repeats must be an int or a 1-D integer array")
    if r < 0:
        raise value_error(func, "repeats must be non-negative", r)
    shape = list(x.shape)
    shape[ax] = n * r
    out = Array._empty(tuple(shape), x.dtype, func=func)
    if out.size == 0:
        return out
    s = out.strides[ax]
    dst_lay = L.Layout(x.shape[:ax] + (n, r) + x.shape[ax + 1:],
                       out.strides[:ax] + (r * s, s) + out.strides[ax + 1:], 0)
    src_lay = L.Layout(dst_lay.shape, x.strides[:ax] + (x.strides[ax], 0) + x.strides[ax + 1:],
                       x._layout.offset)
    K.copy_into(out._with_layout(dst_lay), x._with_layout(src_lay))
    return out


def _repeat_each(func: str, x: Array, repeats: Array, ax: int, n: int) -> Array:
    if repeats.ndim != 1 or repeats.size != n:
        raise value_error(func, f"repeats must have one count per element along axis {ax} ({n})",
                          f"shape {repeats.shape}")
    reps = repeats._copy_contiguous(dt.int64)
    if n and int(amin(reps)._item()) < 0:
        raise value_error(func, "repeats must be non-negative")
    # the int64 sum wraps past 2**63 (and a wrapped total would let C write
    # past the index array): a float64 sum says whether the total is sane
    rough = float(asum(reps, dtype=dt.float64)._item())
    if rough >= 2.0**62:
        raise alloc_error(func, (int(rough),), x.dtype, int(rough) * x.dtype.itemsize)
    total = int(asum(reps)._item())
    idx = Array._empty((total,), dt.int64, func=func)
    K.repeat_index(reps, idx)
    return take(x, idx, axis=ax)


def roll(x: Array, /, shift: Any, axis: Any = None) -> Array:
    """Elements of x shifted cyclically along axes.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too (without a copy).
    shift : int or tuple of int
        Number of places to shift by (positive towards higher indices), one per
        axis or one for all.
    axis : int or tuple of int, optional
        Axes to shift along; None (the default) shifts the flattened array and
        restores its shape.

    Returns
    -------
    Array
        A new array of x's shape and dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.roll(xp.arange(5), 2)
    Array([3, 4, 0, 1, 2])
    >>> xp.roll(xp.reshape(xp.arange(6), (2, 3)), -1, axis=1)
    Array([[1, 2, 0],
           [4, 5, 3]])
    """
    func = "roll"
    x = check_array(func, x)
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
    for s in shifts:
        if isinstance(s, builtins.bool):
            raise type_error(func, "shift must be an int or a tuple of ints", repr(shift))
    shifts = _int_tuple(func, "shift", shifts)
    if axis is None:
        if len(shifts) != 1:
            raise value_error(func, "shift must be an int when axis is None", repr(shift))
        flat = roll(_flat(x), shifts[0], axis=0)
        return flat._with_layout(L.contiguous(x.shape))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = tuple(normalize_axis(func, a, x.ndim) for a in axes)
    if len(shifts) == 1 and len(axes) > 1:
        shifts = shifts * len(axes)
    if len(shifts) != len(axes):
        raise value_error(func, "shift and axis must have the same length", f"{shift!r} and {axis!r}")
    total = [0] * x.ndim
    for s, a in zip(shifts, axes):
        total[a] += s
    out = Array._empty(x.shape, x.dtype)
    if out.size == 0:
        return out
    # Each axis with a nonzero shift splits into two blocks: 2**k block copies.
    moved = [(a, total[a] % x.shape[a]) for a in range(x.ndim) if total[a] % x.shape[a]]
    for mask in range(1 << len(moved)):
        src, dst = x._layout, out._layout
        for bit, (a, s) in enumerate(moved):
            n = x.shape[a]
            if mask >> bit & 1:   # the tail of x goes to the head of out
                src = L.slice_dim(src, a, n - s, n, 1)
                dst = L.slice_dim(dst, a, 0, s, 1)
            else:
                src = L.slice_dim(src, a, 0, n - s, 1)
                dst = L.slice_dim(dst, a, s, n, 1)
        K.copy_into(out._with_layout(dst), x._with_layout(src))
    return out
