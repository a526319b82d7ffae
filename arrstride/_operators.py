"""Binds onto Array what needs the namespace above it: the operators (from
the elementwise functions, with NumPy operands on either side), `[]` (from
_indexing), `@` (from matmul), DLPack export and __array_namespace__.
Imported last by __init__, so _array stays a leaf.

`[]`, the conversions and the operators that have an elementwise function
are slots of `_core.ArrayBase`: they are bound here with `_core.bind` (the
slot runs its fast path, then the Python implementation given here). The
rest (`**`, `@`, in-place operators, ...) are plain methods set on Array."""
from __future__ import annotations

import sys
import types
from typing import Any, Optional, Tuple

from . import _dtypes as dt
from . import _elementwise_functions as _ew
from . import _kernels as K
from . import _layout as L
from ._array import FALLBACKS, SUPPORTED_VERSIONS, Array, builtins_bool
from ._core import bind as _core_bind
from ._creation_functions import asarray
from ._dlpack import DLDeviceType, export
from ._errors import msg, operand_error, overlap_error, read_only_error
from ._indexing import getitem as _getitem
from ._indexing import setitem as _setitem
from ._linear_algebra_functions import matmul


class _Methods:
    """The methods bound onto Array below (a class only to write them as methods)."""

    def __array_namespace__(self, *, api_version: Optional[str] = None) -> types.ModuleType:
        if api_version is not None and api_version not in SUPPORTED_VERSIONS:
            raise ValueError(msg("Array.__array_namespace__", "unsupported api_version", repr(api_version)))
        return sys.modules["arrstride"]

    def __dlpack__(self, *, stream: Any = None, max_version: Optional[Tuple[int, int]] = None,
                   dl_device: Any = None, copy: Optional[bool] = None) -> Any:
        """A DLPack capsule sharing this array's memory (a copy only when copy=True,
        or for a read-only array asked for as a legacy capsule with copy=None).
        Versioned (DLPack 1.x) when max_version >= (1, 0); any strides."""
        return export(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self) -> Tuple[Any, int]:
        return (DLDeviceType.CPU, 0)

    # ---- matrix multiplication (the linalg branch) ------------------------------------

    def __matmul__(self, other: Any) -> "Array":
        other = _as_operand(other)
        if not isinstance(other, Array):
            return NotImplemented
        return matmul(self, other)

    def __rmatmul__(self, other: Any) -> "Array":
        other = _as_operand(other)
        if not isinstance(other, Array):
            return NotImplemented
        return matmul(other, self)

    def __imatmul__(self, other: Any) -> "Array":
        if not isinstance(other, Array):
            return NotImplemented
        result = matmul(self, other)
        if result.shape != self.shape or result.dtype is not self._dtype:
            raise ValueError(msg("Array.__imatmul__", "the product must keep x1's shape and dtype",
                                 f"{result.shape} {result.dtype} for x1 of {self.shape} {self._dtype}"))
        if self._storage.readonly:
            raise read_only_error("Array.__imatmul__", self._storage._readonly_why)
        if L.has_internal_overlap(self._layout):
            raise overlap_error("Array.__imatmul__", self.shape, self.strides)
        K.copy_into(self, result)
        return self


for _name, _value in list(vars(_Methods).items()):
    if _name.startswith("__") and _name.endswith("__") and callable(_value) \
            and _name not in ("__module__", "__qualname__", "__doc__", "__dict__", "__weakref__"):
        setattr(Array, _name, _value)
del _name, _value


# ---- operators, bound from the elementwise functions ------------------------------------

_OPERAND_TYPES = (Array, builtins_bool, int, float, complex)


def _foreign_operand(other: Any) -> Any:
    """An operand that is not an Array or Python scalar, as one: a NumPy array
    becomes an arrstride array over the same memory (keeping its dtype), a
    NumPy scalar the Python scalar it holds (so it promotes as a Python
    scalar does, as in PyTorch). None for anything else (lists included)."""
    np = sys.modules.get("numpy")
    if np is None:
        return None
    if isinstance(other, np.ndarray):
        return asarray(other)
    if isinstance(other, np.generic):
        return dt.python_scalar(other)
    return None


def _as_operand(v: Any) -> Any:
    """v as an operator's operand: arrays and Python scalars as they are, NumPy
    data converted (see _foreign_operand); None when v is neither."""
    if type(v) is Array or isinstance(v, _OPERAND_TYPES):
        return v
    return _foreign_operand(v)


def _forward(func, refuse: bool = False):
    def op(self, other):
        if type(other) is Array:  # the per-call path, without a call
            return func(self, other)
        operand = _as_operand(other)
        if operand is None:
            # == and != must not fall back to identity (a silent False), nor any
            # operator to a list's own (x * [1, 2] would repeat the list x times)
            if refuse or isinstance(other, (list, tuple)):
                raise operand_error(op.__name__, other)
            return NotImplemented
        return func(self, operand)
    return op


def _reflected(func):
    def op(self, other):
        operand = _as_operand(other)
        if operand is None:
            if isinstance(other, (list, tuple)):  # [1, 2] * x would repeat the list
                raise operand_error(op.__name__, other)
            return NotImplemented
        other = operand
        return func(other, self)
    return op


def _inplace(func):
    def op(self, other):
        other = _as_operand(other)
        if other is None:
            return NotImplemented
        return _ew.binary_inplace(func, self, other)
    return op


_BINARY_OPERATORS = {
    "add": _ew.add, "sub": _ew.subtract, "mul": _ew.multiply, "truediv": _ew.divide,
    "floordiv": _ew.floor_divide, "mod": _ew.remainder, "pow": _ew.pow,
    "and": _ew.bitwise_and, "or": _ew.bitwise_or, "xor": _ew.bitwise_xor,
    "lshift": _ew.bitwise_left_shift, "rshift": _ew.bitwise_right_shift,
}
_COMPARISONS = {"eq": _ew.equal, "ne": _ew.not_equal, "lt": _ew.less,
                "le": _ew.less_equal, "gt": _ew.greater, "ge": _ew.greater_equal}
_UNARY_OPERATORS = {"neg": _ew.negative, "pos": _ew.positive, "abs": _ew.abs,
                    "invert": _ew.bitwise_invert}

_operators = {}
for _name, _func in _BINARY_OPERATORS.items():
    _f, _r, _i = _forward(_func), _reflected(_func), _inplace(_func)
    _f.__name__, _r.__name__, _i.__name__ = f"__{_name}__", f"__r{_name}__", f"__i{_name}__"
    _operators[_name] = (_func, _f, _r, _i)
for _name, _func in _COMPARISONS.items():
    _f = _forward(_func, refuse=_name in ("eq", "ne"))
    _f.__name__ = f"__{_name}__"
    _operators[_name] = (_func, _f)
for _name, _func in _UNARY_OPERATORS.items():
    _operators[_name] = (_func,)
del _name, _func, _f, _r, _i

_core_bind(dict(FALLBACKS, getitem=_getitem, setitem=_setitem), _operators)

# NumPy on the left: ndarray.__add__(x) calls numpy.add(ndarray, x), which
# NumPy hands to Array.__array_ufunc__. The ufuncs behind Python's operators,
# called plainly, run in arrstride on zero-copy views of the NumPy operands,
# so `ndarray op x` gives what `x op ndarray` gives. Any other use (another
# ufunc, a reduction, out=) is NumPy's own call: arrstride arrays are handed
# over as zero-copy NumPy views and NumPy computes, as without this hook.
_OPERATOR_UFUNCS = {
    "add": _ew.add, "subtract": _ew.subtract, "multiply": _ew.multiply,
    "true_divide": _ew.divide, "divide": _ew.divide, "floor_divide": _ew.floor_divide,
    "remainder": _ew.remainder, "power": _ew.pow, "bitwise_and": _ew.bitwise_and,
    "bitwise_or": _ew.bitwise_or, "bitwise_xor": _ew.bitwise_xor,
    "left_shift": _ew.bitwise_left_shift, "right_shift": _ew.bitwise_right_shift,
    "equal": _ew.equal, "not_equal": _ew.not_equal, "less": _ew.less,
    "less_equal": _ew.less_equal, "greater": _ew.greater, "greater_equal": _ew.greater_equal,
}


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    name = getattr(ufunc, "__name__", None)
    if method == "__call__" and not kwargs and len(inputs) == 2 and \
            (name in _OPERATOR_UFUNCS or name == "matmul"):
        a, b = _as_operand(inputs[0]), _as_operand(inputs[1])
        if a is not None and b is not None:
            if name == "matmul":
                if isinstance(a, Array) and isinstance(b, Array):
                    return matmul(a, b)
            else:
                return _OPERATOR_UFUNCS[name](a, b)
    import numpy
    inputs = tuple(numpy.asarray(v) if isinstance(v, Array) else v for v in inputs)
    out = kwargs.get("out")
    if out is not None:
        kwargs["out"] = tuple(numpy.asarray(v) if isinstance(v, Array) else v
                              for v in (out if isinstance(out, tuple) else (out,)))
    return getattr(ufunc, method)(*inputs, **kwargs)


Array.__array_ufunc__ = _array_ufunc
