"""normalize_axis: the one place axes are checked and made non-negative."""
from __future__ import annotations

import operator
from typing import Any, Optional, Tuple

from ._errors import axis_error, type_error, value_error


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


def normalize_optional_axis(func: str, axis: Any, ndim: int) -> Optional[int]:
    return None if axis is None else normalize_axis(func, axis, ndim)
