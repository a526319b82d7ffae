"""Argument checks shared by every public function: axes, shapes, ints,
keepdims. Below the Array: nothing here imports it."""
from __future__ import annotations

import operator
from typing import Any, Optional, Tuple

from ._errors import MAX_DIM, MAX_NDIM, axis_error, dimension_error, ndim_error, type_error, value_error


def int_arg(func: str, value: Any, rule: str) -> int:
    """value as an int (anything with __index__ but bool), else TypeError(rule)."""
    if isinstance(value, bool):
        raise type_error(func, rule, repr(value))
    try:
        return operator.index(value)
    except TypeError:
        raise type_error(func, rule, repr(value)) from None


def normalize_axis(func: str, axis: Any, ndim: int) -> int:
    """An axis in [-ndim, ndim) as a non-negative int."""
    a = int_arg(func, axis, "axis must be an int")
    if not -ndim <= a < ndim:
        raise axis_error(func, a, ndim)
    return a + ndim if a < 0 else a


def normalize_axes(func: str, axes: Any, ndim: int, allow_none: bool = True) -> Tuple[int, ...]:
    """None (every axis, when allowed), an int, or a tuple of distinct ints."""
    if axes is None:
        if not allow_none:
            raise type_error(func, "axis must not be None")
        return tuple(range(ndim))
    if isinstance(axes, (tuple, list)):
        out = tuple(normalize_axis(func, a, ndim) for a in axes)
    else:
        out = (normalize_axis(func, axes, ndim),)
    if len(set(out)) != len(out):
        raise value_error(func, "repeated axis", repr(axes))
    return out


def shape_ints(func: str, shape: Any) -> Tuple[int, ...]:
    """An int or a sequence of ints as a tuple of ints (signs not yet checked)."""
    try:
        return (operator.index(shape),)
    except TypeError:
        pass
    try:
        return tuple(operator.index(d) for d in shape)
    except TypeError:
        raise type_error(func, "shape must be an int or a tuple of ints", repr(shape)) from None


def check_dims(func: str, dims: Tuple[int, ...]) -> Tuple[int, ...]:
    """dims (ints) with none negative and none past 2**63 - 1, empty shapes included,
    and at most MAX_NDIM of them: the one limit on dimensions, applied where
    shapes come in."""
    if len(dims) > MAX_NDIM:
        raise ndim_error(func, len(dims))
    for d in dims:
        if d < 0:
            raise value_error(func, "negative dimensions are not allowed", f"shape {dims}")
        if d > MAX_DIM:
            raise dimension_error(func, dims)
    return dims


def normalize_optional_axis(func: str, axis: Any, ndim: int) -> Optional[int]:
    return None if axis is None else normalize_axis(func, axis, ndim)


def resolve_shape(func: str, shape: Any, size: int) -> Tuple[int, ...]:
    """A target shape with at most one -1, which is inferred from size."""
    dims = shape_ints(func, shape)
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
    return check_dims(func, dims)


def check_keepdims(func: str, keepdims: Any) -> bool:
    if not isinstance(keepdims, bool):
        raise type_error(func, "keepdims must be a bool", repr(keepdims))
    return keepdims
