"""Manipulation functions that are views: each builds a new layout over the
same storage and touches no data (reshape copies only when no view exists)."""
from __future__ import annotations

import operator
from typing import Any, Optional, Tuple

from . import _layout as L
from ._array import Array
from ._axes import normalize_axes, normalize_axis
from ._errors import msg, no_view_error, shapes_error, type_error, value_error


def check_array(func: str, x: Any, name: str = "x") -> Array:
    if not isinstance(x, Array):
        raise type_error(func, f"{name} must be an arrstride array", type(x).__name__)
    return x


def _resolve_shape(func: str, shape: Any, size: int) -> Tuple[int, ...]:
    """A target shape with at most one -1, which is inferred from size."""
    try:
        dims = (operator.index(shape),)
    except TypeError:
        try:
            dims = tuple(operator.index(d) for d in shape)
        except TypeError:
            raise type_error(func, "shape must be an int or a tuple of ints", repr(shape)) from None
    unknown = [k for k, d in enumerate(dims) if d == -1]
    if len(unknown) > 1 or any(d < -1 for d in dims):
        raise value_error(func, "shape may hold one -1 and otherwise non-negative sizes", f"{dims}")
    known = 1
    for d in dims:
        if d != -1:
            known *= d
    if unknown:
        if known == 0 or size % known:
            raise value_error(func, f"cannot reshape an array of size {size} into shape {dims}")
        dims = dims[:unknown[0]] + (size // known,) + dims[unknown[0] + 1:]
    elif known != size:
        raise value_error(func, f"cannot reshape an array of size {size} into shape {dims}")
    return dims


def reshape(x: Array, /, shape: Tuple[int, ...], *, copy: Optional[bool] = None) -> Array:
    """A view whenever strides exist for the new shape; else a copy
    (copy=False then raises ValueError)."""
    func = "reshape"
    check_array(func, x)
    new_shape = _resolve_shape(func, shape, x.size)
    if copy:
        return x._copy_contiguous()._with_layout(L.contiguous(new_shape))
    strides = L.view_strides(x._layout, new_shape)
    if strides is not None:
        return x._with_layout(L.Layout(new_shape, strides, x._layout.offset))
    if copy is False:
        raise no_view_error(func, x.shape, x.strides, new_shape)
    return x._copy_contiguous()._with_layout(L.contiguous(new_shape))


def permute_dims(x: Array, /, axes: Tuple[int, ...]) -> Array:
    func = "permute_dims"
    check_array(func, x)
    if not isinstance(axes, (tuple, list)):
        raise type_error(func, "axes must be a tuple of ints", repr(axes))
    norm = normalize_axes(func, axes, x.ndim)
    if len(norm) != x.ndim:
        raise value_error(func, f"axes must name each of the {x.ndim} axes once", repr(tuple(axes)))
    return x._with_layout(L.permute(x._layout, norm))


def matrix_transpose(x: Array, /) -> Array:
    check_array("matrix_transpose", x)
    if x.ndim < 2:
        raise value_error("matrix_transpose", "x must have at least 2 dimensions", f"shape {x.shape}")
    return x.mT


def expand_dims(x: Array, /, axis: Any = 0) -> Array:
    """New size-1 axes at the given positions of the result (an int or a tuple)."""
    func = "expand_dims"
    check_array(func, x)
    axes = axis if isinstance(axis, tuple) else (axis,)
    out_ndim = x.ndim + len(axes)
    norm = normalize_axes(func, axes, out_ndim)
    return x._with_layout(L.insert_dims(x._layout, norm))


def squeeze(x: Array, /, axis: Any) -> Array:
    func = "squeeze"
    check_array(func, x)
    norm = normalize_axes(func, axis, x.ndim, allow_none=False)
    for a in norm:
        if x.shape[a] != 1:
            raise value_error(func, f"cannot remove axis {a} of size {x.shape[a]} (it must be 1)")
    return x._with_layout(L.drop_dims(x._layout, norm))


def flip(x: Array, /, *, axis: Any = None) -> Array:
    func = "flip"
    check_array(func, x)
    return x._with_layout(L.flip(x._layout, normalize_axes(func, axis, x.ndim)))


def moveaxis(x: Array, source: Any, destination: Any, /) -> Array:
    func = "moveaxis"
    check_array(func, x)
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
    func = "broadcast_shapes"
    norm = []
    for s in shapes:
        try:
            norm.append(tuple(operator.index(d) for d in s))
        except TypeError:
            raise type_error(func, "each shape must be a tuple of ints", repr(s)) from None
    out = L.broadcast_shapes(*norm)
    if out is None:
        raise ValueError(msg(func, "shapes cannot be broadcast together", " ".join(map(str, norm))))
    return out


def broadcast_to(x: Array, /, shape: Tuple[int, ...]) -> Array:
    """A stride-0 view; allocates nothing."""
    func = "broadcast_to"
    check_array(func, x)
    try:
        shape = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise type_error(func, "shape must be a tuple of ints", repr(shape)) from None
    lay = L.expand(x._layout, shape)
    if lay is None or any(d < 0 for d in shape):
        raise shapes_error(func, "cannot broadcast", x.shape, shape)
    return x._with_layout(lay)


def broadcast_arrays(*arrays: Array) -> Tuple[Array, ...]:
    for a in arrays:
        check_array("broadcast_arrays", a, "every argument")
    shape = broadcast_shapes(*[a.shape for a in arrays])
    return tuple(a._with_layout(L.expand(a._layout, shape)) for a in arrays)


def unstack(x: Array, /, *, axis: int = 0) -> Tuple[Array, ...]:
    func = "unstack"
    check_array(func, x)
    if x.ndim == 0:
        raise value_error(func, "x must have at least one dimension")
    a = normalize_axis(func, axis, x.ndim)
    lay = x._layout
    return tuple(x._with_layout(L.select(lay, a, i)) for i in range(x.shape[a]))
