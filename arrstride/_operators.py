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

from . import _data_type_functions as _dtf
from . import _dtypes as dt
from . import _elementwise_functions as _ew
from . import _kernels as K
from . import _layout as L
from . import _manipulation_functions as _mf
from . import _searching_functions as _srf
from . import _sorting_functions as _sortf
from . import _statistical_functions as _sf
from . import _utility_functions as _uf
from ._array import FALLBACKS, SUPPORTED_VERSIONS, Array, builtins_bool, check_array
from ._array import FOREIGN as _FOREIGN
from ._core import bind as _core_bind
from ._creation_functions import asarray, full as _full
from ._dlpack import DLDeviceType, export
from ._errors import msg, operand_error, read_only_error
from ._indexing import getitem as _getitem
from ._indexing import setitem as _setitem
from ._linear_algebra_functions import matmul, tensordot


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
        K.copy_into(self, result, "Array.__imatmul__")  # (refuses an x reaching an element twice)
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
        if other is None and refuse:
            # NumPy: x == None is all False, x != None all True (element by element)
            return _full(self.shape, func is _ew.not_equal, dtype=dt.bool)
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
# over as zero-copy NumPy views and NumPy computes; its result comes back as
# an arrstride array (zero-copy), as NumPy ufuncs give PyTorch tensors for
# tensors (np.sqrt(x), SciPy's Cython ufuncs such as special.erf(x)). With
# out=, NumPy writes into out's memory and out itself is returned.
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
        outs = out if isinstance(out, tuple) else (out,)
        kwargs["out"] = tuple(numpy.asarray(v) if isinstance(v, Array) else v for v in outs)
        result = getattr(ufunc, method)(*inputs, **kwargs)
        if len(outs) == 1 and isinstance(outs[0], Array):
            return outs[0]
        return result
    result = getattr(ufunc, method)(*inputs, **kwargs)
    return _wrap_result(numpy, result, method == "__call__")


def _wrap_result(numpy, result, scalars: bool):
    """A NumPy ufunc's result as arrstride arrays (zero-copy); NumPy scalars
    of a plain call as 0-d arrays (of reductions and the like: as they are)."""
    if isinstance(result, tuple):
        return tuple(_wrap_result(numpy, r, scalars) for r in result)
    if isinstance(result, numpy.ndarray) and result.dtype.kind in "biufc":
        try:
            return asarray(result)
        except TypeError:  # a dtype arrstride lacks (float16, ...): NumPy's result stays
            return result
    if scalars and isinstance(result, numpy.generic) and result.dtype.kind in "biufc":
        try:
            return asarray(result)
        except TypeError:
            return result
    return result


Array.__array_ufunc__ = _array_ufunc


# ---- NumPy data as arguments: one rule for operators and functions ---------------------

def _foreign_array(v: Any) -> Any:
    """A NumPy array (zero-copy), NumPy scalar or 0-d array as an arrstride
    array, for the functions that take arrays (xp.sum(n)); None for anything
    else, lists included (they keep their own message)."""
    np = sys.modules.get("numpy")
    if np is not None and isinstance(v, (np.ndarray, np.generic)):
        return asarray(v)
    return None


# check_array (every function that takes an array) and the elementwise
# functions (as operands, NumPy scalars counting as Python scalars) convert
# through these, only after an argument failed the Array test: the per-call
# paths for arrstride arrays are untouched.
_FOREIGN[0] = _foreign_array
_FOREIGN[1] = _foreign_operand


# ---- methods that NumPy's ndarray and torch.Tensor share, with NumPy's signatures ------
# Each is the namespace function: bound as it is where its signature is NumPy's
# method's (x.sum(0, keepdims=True) is sum(x, 0, keepdims=True)), or through a
# one-line adapter where NumPy's method differs from the function.

def _out(func):
    """func as a method that also takes NumPy's out= (NumPy's own functions,
    np.sum(x), pass it): the result is written into out and out returned."""
    def method(self, *args, out: Any = None, **kwargs):
        result = func(self, *args, **kwargs)
        if out is None:
            return result
        out = check_array(getattr(func, "__name__", "method"), out, "out")
        out[...] = result
        return out
    method.__name__ = getattr(func, "__name__", "method")
    method.__doc__ = getattr(func, "__doc__", None)
    return method


def _reshape_method(self, *shape, copy: Optional[bool] = None, order: str = "C") -> "Array":
    if order != "C":
        raise ValueError(msg("Array.reshape", "only order='C' is supported", repr(order)))
    if len(shape) == 1 and not isinstance(shape[0], int):
        shape = shape[0]
    return _mf.reshape(self, shape, copy=copy)


def _transpose_method(self, *axes) -> "Array":
    if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
        axes = axes[0]
    if not axes:
        axes = tuple(range(self.ndim - 1, -1, -1))
    return _mf.permute_dims(self, tuple(axes))


def _squeeze_method(self, axis: Any = None) -> "Array":
    if axis is None:
        axis = tuple(k for k, d in enumerate(self.shape) if d == 1)
    return _mf.squeeze(self, axis)


def _cumulative_method(func):
    def method(self, axis: Optional[int] = None, dtype: Any = None) -> "Array":
        x = _mf.reshape(self, (-1,)) if axis is None else self
        return func(x, axis=0 if axis is None else axis, dtype=dtype)
    return method


def _item_method(self, *args) -> Any:
    if not args:
        return self._scalar("Array.item")
    if len(args) == 1 and isinstance(args[0], tuple):
        args = args[0]
    if len(args) == 1 and self.ndim != 1:
        flat = _mf.reshape(self, (-1,))
        return flat[args[0]]._item()
    return self[tuple(args)]._item()


def _copy_method(self) -> "Array":
    return self._copy_contiguous()


def _flatten_method(self) -> "Array":
    return _mf.reshape(self, (-1,), copy=True)


def _ravel_method(self) -> "Array":
    return _mf.reshape(self, (-1,))


def _fill_method(self, value: Any) -> None:
    self[...] = value


def _dot(self, other: Any) -> "Array":
    """NumPy's dot: matmul for 1-D and 2-D operands, a product with a 0-d
    operand, and for N-D the sum over self's last axis and other's
    second-to-last."""
    other = check_array("Array.dot", other, "b")
    if self.ndim == 0 or other.ndim == 0:
        return _ew.multiply(self, other)
    if other.ndim == 1 or (self.ndim <= 2 and other.ndim <= 2):
        return matmul(self, other)
    return tensordot(self, other, axes=((self.ndim - 1,), (other.ndim - 2,)))


def _round_method(self, decimals: int = 0) -> "Array":
    return _ew.round(self, decimals=decimals)


def _argsort_method(self, axis: Optional[int] = -1, kind: Any = None, order: Any = None, *,
                    stable: Optional[bool] = None, descending: bool = False) -> "Array":
    """NumPy's x.argsort (axis=None: of the flattened array); a stable sort
    (NumPy's default sort gives any order of equal elements)."""
    if order is not None:
        raise ValueError(msg("Array.argsort", "order= (structured dtypes) is not supported"))
    x = _mf.reshape(self, (-1,)) if axis is None else self
    return _sortf.argsort(x, axis=0 if axis is None else axis, descending=descending,
                          stable=True if stable is None else stable)


def _flags(self) -> "_Flags":
    return _Flags(self)


_FLAGS_WHY = "flags.writeable was set to False"


class _Flags:
    """NumPy's ndarray.flags, read-only: what libraries written for NumPy
    (scikit-learn's validation) read of an array's memory."""

    __slots__ = ("_x",)

    def __init__(self, x: "Array"):
        self._x = x

    @property
    def c_contiguous(self) -> bool:
        return self._x.is_contiguous()

    @property
    def f_contiguous(self) -> bool:
        x = self._x
        return x.ndim <= 1 and x.is_contiguous() or L.is_contiguous(L.permute(
            x._layout, tuple(range(x.ndim - 1, -1, -1))))

    @property
    def writeable(self) -> bool:
        return not self._x._storage.readonly

    @writeable.setter
    def writeable(self, value: bool) -> None:
        """As NumPy: False always works (for this array; other views of the
        memory keep theirs); True only undoes a False set here, and raises
        ValueError over memory that is read-only itself."""
        x, st = self._x, self._x._storage
        if not value:
            if not st.readonly:
                x._storage = st.readonly_alias(_FLAGS_WHY)
            return
        if st.readonly:
            owner = st.owner
            if st._readonly_why == _FLAGS_WHY and type(owner) is type(st) and not owner.readonly:
                x._storage = owner
            else:
                raise ValueError(msg("Array.flags", "cannot make this array writeable: its memory "
                                     "is read-only", st._readonly_why))

    @property
    def aligned(self) -> bool:
        return True

    @property
    def owndata(self) -> bool:
        return False

    @property
    def forc(self) -> bool:
        return self.c_contiguous or self.f_contiguous

    contiguous = c_contiguous
    fortran = f_contiguous
    writable = writeable

    def __getitem__(self, key: str) -> bool:
        names = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
                 "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
                 "WRITEABLE": "writeable", "W": "writeable", "ALIGNED": "aligned", "A": "aligned",
                 "OWNDATA": "owndata", "O": "owndata", "FORC": "forc"}
        if not isinstance(key, str) or key.upper() not in names:
            raise KeyError(key)
        return getattr(self, names[key.upper()])

    def __repr__(self) -> str:
        return "\n".join(f"  {n.upper()} : {getattr(self, n)}" for n in
                         ("c_contiguous", "f_contiguous", "owndata", "writeable", "aligned"))


def _sort_method(self, axis: int = -1, kind: Any = None, order: Any = None, *,
                 stable: Any = None) -> None:
    """x.sort(axis=-1): sorts x in place along an axis, as NumPy's ndarray.sort
    (the namespace's sort returns a new array instead)."""
    if order is not None:
        raise TypeError(msg("Array.sort", "order is for structured arrays, which arrstride "
                            "does not have", repr(order)))
    self[...] = _sortf.sort(self, axis=axis, stable=kind == "stable" or bool(stable))
    return None


def _searchsorted_method(self, v, side="left", sorter=None):
    """x.searchsorted(v, side='left', sorter=None): searchsorted(x, v), as NumPy's
    (xarray's DataArray.searchsorted calls it)."""
    return _srf.searchsorted(self, v, side=side, sorter=sorter)


# the one table: method name -> the namespace function (or its adapter)
METHODS = {
    "astype": _dtf.astype, "reshape": _reshape_method,
    "sum": _out(_sf.sum), "prod": _out(_sf.prod), "mean": _out(_sf.mean), "std": _out(_sf.std),
    "var": _out(_sf.var), "min": _out(_sf.min), "max": _out(_sf.max),
    "argmin": _out(_srf.argmin), "argmax": _out(_srf.argmax),
    "any": _out(_uf.any), "all": _out(_uf.all),
    "cumsum": _out(_cumulative_method(_sf.cumulative_sum)),
    "cumprod": _out(_cumulative_method(_sf.cumulative_prod)),
    "copy": _copy_method, "item": _item_method, "flatten": _flatten_method, "ravel": _ravel_method,
    "transpose": _transpose_method, "squeeze": _squeeze_method, "clip": _out(_ew.clip),
    "round": _out(_round_method), "nonzero": _srf.nonzero, "dot": _out(_dot), "fill": _fill_method,
    "conj": _ew.conj, "conjugate": _ew.conj, "argsort": _argsort_method,
    "searchsorted": _searchsorted_method, "sort": _sort_method,
}
for _name, _func in METHODS.items():
    setattr(Array, _name, _func)
Array.flags = property(_flags)
def _numeric_part(func, doc: str) -> property:
    """x.real, x.imag: a bool array has neither (AttributeError, so hasattr is
    False and getattr's default applies), where the functions raise TypeError."""
    def get(self):
        if self._dtype is dt.bool:
            raise AttributeError(msg(f"Array.{func.__name__}", "a bool array has no numeric parts; "
                                     "convert it with astype first"))
        return func(self)
    return property(get, doc=doc)


Array.real = _numeric_part(_ew.real, "The real part (a view of a complex array; x itself otherwise).")
Array.imag = _numeric_part(_ew.imag, "The imaginary part (a view of a complex array; zeros otherwise).")
Array.nbytes = property(lambda self: self.size * self._dtype.itemsize,
                        doc="Number of bytes of the elements (size * itemsize), as NumPy's.")
Array.itemsize = property(lambda self: self._dtype.itemsize,
                          doc="Number of bytes of one element, as NumPy's.")
del _name, _func


# ---- Python's protocols, as NumPy's arrays have them -------------------------------------

def _round(self, ndigits: Optional[int] = None) -> "Array":
    """round(x) and round(x, n): NumPy's round, half to even (an array)."""
    return _ew.round(self, decimals=0 if ndigits is None else ndigits)


def _divmod(self, other: Any):
    operand = _as_operand(other)
    if operand is None:
        return NotImplemented
    return _ew.floor_divide(self, operand), _ew.remainder(self, operand)


def _rdivmod(self, other: Any):
    operand = _as_operand(other)
    if operand is None:
        return NotImplemented
    return _ew.floor_divide(operand, self), _ew.remainder(operand, self)


def _contains(self, value: Any) -> bool:
    """`v in x`: whether some element equals v (NumPy's (x == v).any())."""
    return builtins_bool(_uf.any(_ew.equal(self, value)))


Array.__round__ = _round
Array.__divmod__ = _divmod
Array.__rdivmod__ = _rdivmod
Array.__contains__ = _contains
