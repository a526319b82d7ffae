"""Elementwise functions of the standard, plus `where`, `clip` and `isin`.

Each function checks its arguments' dtypes against the standard's category,
promotes (Python scalars by NumPy 2's rules), broadcasts by stride 0 and has a
C kernel write a new contiguous output. Integer division and remainder by zero
give 0 and shifts by out-of-range amounts give 0 (or the sign fill), as NumPy.
`real` and `imag` of complex arrays are views.
"""
from __future__ import annotations

import builtins
from typing import Any, Callable, Optional, Union

from . import _dtypes as dt
from . import _elementwise_docs as _docs
from . import _kernels as K
from . import _layout as L
from ._args import int_arg
from ._array import FOREIGN, Array, check_array
from ._core import Elementwise
from ._core import EW_BINARY, EW_CLIP, EW_ISIN, EW_UNARY, EW_WHERE
from ._core import ewise as _ewise
from ._core import clip as _core_clip
from ._core import nonzero as _core_nonzero
from ._core import where as _core_where
from ._errors import (broadcast_error, broadcast_into_error, dtype_error, not_array_error,
                      overlap_error, read_only_error, type_error, value_error)

_SCALARS = (builtins.bool, int, float, complex)
_PROMOTION = dt.PROMOTION

# Allowed dtypes per category, as named in messages.
_CATEGORY_NAMES = {
    "numeric": "numeric",
    "floating-point": "floating-point",
    "real floating": "real floating-point",
    "real numeric": "real-valued (integer or real floating-point)",
    "integral": "integer",
    "integer or boolean": "integer or boolean",
    "bool": "boolean",
    "complex floating": "complex floating-point",
    "any": "any",
}


_new_storage = K.new_storage
_CONTIG = L._CONTIGUOUS
_contig = L.contiguous_of


_empty = Array._empty  # (shape, dtype): a new contiguous array


def _by_code(table: dict) -> list:
    """The table as a list indexed by dtype code (faster than hashing DTypes)."""
    out = [None] * (max(d.code for d in dt.ALL) + 1)
    for d, o in table.items():
        out[d.code] = o
    return out


_new = Array._new



def _out_codes(table: dict) -> list:
    """The output dtype code per input dtype code (-1: none), for Elementwise."""
    return [-1 if d is None else d.code for d in _by_code(table)]


def _mixed_codes(table: dict, given_allowed, ints_to_float: Any) -> dict:
    """{(code, code): code} for Elementwise: two arrays of different allowed
    dtypes whose promoted dtype is one of theirs, has a kernel of its own (not
    through a compute dtype) and is not replaced by a float: the other array is
    cast to it in C, exactly as func does it in Python."""
    mixed = {}
    for a in given_allowed:
        for b in given_allowed:
            d = _PROMOTION[a, b]
            if a is b or d not in (a, b) or dt.is_narrow(d) or table.get(d) is None:
                continue
            if ints_to_float and d.kind in "iub":
                continue
            mixed[a.code, b.code] = d.code
    return mixed


def _kernel_table(op: int, allowed, unary: bool) -> dict:
    """dtype -> output dtype, for the dtypes of `allowed` that have a kernel."""
    table = {}
    for d in allowed:
        code = K.unary_out(op, d.code) if unary else K.binary_out(op, d.code)
        if code >= 0:
            table[d] = dt.BY_CODE[code]
    return table


# ---- narrow floats (float16, ...): stored narrow, computed in their compute dtype ----
# The C kernels have no loops for them: as NumPy does for float16, an operation
# on a narrow float computes in its compute dtype (float32) and rounds the
# result once (arithmetic is then NumPy's for float16, PyTorch's for
# bfloat16, bit for bit). _narrow_table adds them to a kernel table.


def _narrow_plan(table: dict, d: dt.DType) -> Optional[tuple]:
    """(compute dtype, result dtype) of an operation on the narrow float d,
    for a kernel table (dtype -> result dtype): computed in d's compute
    dtype, a float result rounded to d (bool and integer results stay as they
    are). None when d is not narrow or its compute dtype has no kernel."""
    if not dt.is_narrow(d):
        return None
    c = d.compute
    o = table.get(c)
    return None if o is None else (c, d if o is c else o)


def _narrow_table(table: dict) -> dict:
    """The table with each narrow float added where its compute dtype has a kernel."""
    out = dict(table)
    for d in dt.NARROW:
        plan = _narrow_plan(table, d)
        if plan is not None and d not in out:
            out[d] = plan[1]
    return out


def _nextafter_narrow(x1: Array, x2: Array, d: dt.DType) -> Array:
    """nextafter of narrow-float operands, one step of d on the bits, as
    NumPy's npy_half_nextafter (equal operands give x1; NaN gives d's quiet NaN)."""
    shape = _broadcast_shape("nextafter", x1._layout.shape, x2._layout.shape)
    u = next(t for t in dt.UNSIGNED if t.itemsize == d.itemsize)
    i = next(t for t in dt.SIGNED if t.itemsize == d.itemsize)
    sign = 1 << (d.bits - 1)
    a = _expand(x1, shape)._copy_contiguous().view(u)
    b = _expand(x2, shape)._copy_contiguous().view(u)
    up_pos = less_equal(a.view(i), b.view(i))                       # x1 > 0: step up to y
    up_neg = logical_and(bitwise_and(b, sign) != 0,                 # x1 < 0: up in magnitude
                         bitwise_and(a, sign - 1) <= bitwise_and(b, sign - 1))
    up = where(bitwise_and(a, sign) == 0, up_pos, up_neg)
    r = where(up, add(a, 1), subtract(a, 1))
    r = where(bitwise_and(a, sign - 1) == 0, add(bitwise_and(b, sign), 1), r)  # from +-0
    r = where(equal(x1, x2), a, r)
    r = where(logical_or(isnan(x1), isnan(x2)), d.qnan, r)
    return r.view(d)


def _scalar_array(value: Any, dtype: dt.DType, func: str) -> Array:
    """A 0-d array of `dtype` holding the Python scalar `value`."""
    out = _empty((), dtype)
    K.write_bytes(out, dt.pack_scalar(value, dtype, func))
    return out


_SCALARS_CACHE: dict = {}


def _scalar_operand(array_dtype: dt.DType, value: Any, func: str):
    """(result dtype, 0-d array of it holding value) for `array op value`.
    Cached: these internal arrays are never written nor handed out."""
    t = type(value)
    key = (t, value, array_dtype)
    hit = _SCALARS_CACHE.get(key) if t is int or t is builtins.bool or value != 0 else None
    if hit is not None:
        return hit
    d = dt.scalar_result(array_dtype, value, func)
    # (a narrow float may hold the scalar in its compute dtype, as PyTorch does:
    # its operations widen both operands anyway)
    hit = (d, _scalar_array(value, d.compute if d.scalar_compute else d, func))
    if t is int or t is builtins.bool or value != 0:  # +0.0 and -0.0 compare equal
        if len(_SCALARS_CACHE) > 512:
            _SCALARS_CACHE.clear()
        _SCALARS_CACHE[key] = hit
    return hit


def _expand(x: Array, shape: tuple) -> Array:
    """x broadcast to shape by stride 0 (the shapes were checked to broadcast)."""
    lay = x._layout
    return x if lay.shape == shape else x._with_layout(L.expand(lay, shape))


def _broadcast_shape(func: str, a: tuple, b: tuple) -> tuple:
    if a == b:
        return a
    shape = L.broadcast_shapes(a, b)
    if shape is None:
        raise broadcast_error(func, a, b)
    return shape


_REAL_NUMERIC = frozenset(dt.CATEGORIES["real numeric"])


def _check_arg(func: str, x: Any, allowed, category: str, name: str) -> None:
    if isinstance(x, Array):
        if x._dtype not in allowed:
            raise dtype_error(func, _CATEGORY_NAMES[category], x._dtype)
    elif not isinstance(x, _SCALARS):
        raise not_array_error(func, x, name, scalars=True)


_OPERANDS = (Array,) + _SCALARS


def _operand(func: str, x: Any, name: str) -> Any:
    """x as an operand, as the operators take it: an Array or Python scalar as
    it is, NumPy data converted (arrays zero-copy, scalars as Python scalars);
    anything else (lists included) is refused."""
    if isinstance(x, Array) or isinstance(x, _SCALARS):
        return x
    convert = FOREIGN[1]
    out = convert(x) if convert is not None else None
    if out is None:
        raise not_array_error(func, x, name, scalars=True)
    return out


def _operands(func: str, x1: Any, x2: Any, allowed, category: str):
    """(promoted dtype, x1, x2) with both as arrays of that dtype (not yet broadcast)."""
    if not isinstance(x1, _OPERANDS):
        x1 = _operand(func, x1, "x1")
    if not isinstance(x2, _OPERANDS):
        x2 = _operand(func, x2, "x2")
    _check_arg(func, x1, allowed, category, "x1")
    _check_arg(func, x2, allowed, category, "x2")
    a1 = isinstance(x1, Array)
    a2 = isinstance(x2, Array)
    if a1 and a2:
        d = _PROMOTION[x1._dtype, x2._dtype]
    elif a1:
        d, x2 = _scalar_operand(x1._dtype, x2, func)
    elif a2:
        d, x1 = _scalar_operand(x2._dtype, x1, func)
    else:
        raise type_error(func, "at least one argument must be an array",
                         f"{type(x1).__name__} and {type(x2).__name__}")
    return d, x1, x2


def _truth(func: str, x: Any, name: str) -> Any:
    """x as the logical functions read it: a bool array as it is, another
    array as x != 0 (NaN counts as true), a Python scalar as its bool. NumPy
    and PyTorch both take any numeric dtype there, so arrstride does too,
    with NumPy's result."""
    if not isinstance(x, _OPERANDS):
        x = _operand(func, x, name)
    if isinstance(x, Array):
        return x if x._dtype is dt.bool else not_equal(x, 0)
    return builtins.bool(x)


def _unary(name: str, category: str, opname: str, ints_to_float: bool = False,
           truthy: bool = False) -> Callable[[Array], Array]:
    """truthy: a logical function; other dtypes are read as their truth (_truth)."""
    op = K.op_code(opname)
    allowed = frozenset(dt.CATEGORIES[category])
    table = _kernel_table(op, allowed, unary=True)
    rule = _CATEGORY_NAMES[category]

    by_code = _by_code(table)

    def func(x: Array, /) -> Array:
        if not isinstance(x, Array):
            x = check_array(name, x)
        if truthy and x._dtype is not dt.bool:
            x = _truth(name, x, "x")
        d = x._dtype
        out_d = by_code[d.code]
        if out_d is None and ints_to_float and d.kind in "iub":
            # as NumPy: integers and bools compute in the float that holds them
            # (the engine casts x into it block by block)
            d = dt.float_for_int(d)
            out_d = by_code[d.code]
        c = d
        plan = _narrow_plan(table, d) if out_d is None else None
        if plan is not None:
            # computed in the compute dtype (the engine casts x into it block by
            # block), a float result rounded to d on store
            c, out_d = plan
        if out_d is None:
            raise dtype_error(name, rule, d)
        # (with the fast paths on, the Elementwise object ran what C holds)
        out = _ewise(EW_UNARY, op, c.code, out_d.code, None, x)
        return out if out is not None else _empty(x._layout.shape, out_d)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = _docs.unary_doc(name, rule, table, ints_to_float, truthy)
    return Elementwise(name, op, 1, _out_codes(table), func)


def _binary(name: str, category: str, opname: str, ints_to_float: Any = False,
            bool_op: Optional[str] = None, bools: bool = False, truthy: bool = False):
    """ints_to_float: integer (and bool) operands compute in float64 (True) or,
    with "held", in the float that holds them (NumPy's rule). bool_op: the
    kernel for two bools (add is logical or, as NumPy). bools: bool arrays
    take part (as 0 and 1) beside other dtypes, as in NumPy. truthy: a logical
    function; other dtypes are read as their truth (_truth)."""
    op = K.op_code(opname)
    allowed = frozenset(dt.CATEGORIES[category])
    table = _kernel_table(op, allowed, unary=False)
    rule = _CATEGORY_NAMES[category]
    bool_code = K.op_code(bool_op) if bool_op else None
    given_allowed = allowed | {dt.bool} if (bools or bool_op or ints_to_float) else allowed
    if ints_to_float:
        given_allowed = given_allowed | frozenset(dt.INTEGER)

    def func(x1: Union[Array, int, float, complex], x2: Union[Array, int, float, complex], /) -> Array:
        # (with the fast paths on, operands of one dtype in layouts C holds
        # never get here: the Elementwise object hands them to the engine)
        if truthy:
            x1, x2 = _truth(name, x1, "x1"), _truth(name, x2, "x2")
        given = (x1, x2)
        d, x1, x2 = _operands(name, x1, x2, given_allowed, category)
        kernel = op
        if d is dt.bool and bool_code is not None:
            kernel, out_d = bool_code, dt.bool
        else:
            if ints_to_float and d.kind in "iub":
                d = dt.float_for_int(d) if ints_to_float == "held" else dt.default_float
            out_d = table.get(d)
        plan = _narrow_plan(table, d) if out_d is None or x1._dtype is not x2._dtype else None
        if plan is not None:
            if name == "nextafter":  # a step of the narrow dtype, not a float32 one
                return _nextafter_narrow(x1, x2, d)
            # computed in the compute dtype (the engine casts each operand into
            # it block by block), a float result rounded to d on store
            c, out_d = plan
            shape = _broadcast_shape(name, x1._layout.shape, x2._layout.shape)
            out = _ewise(EW_BINARY, op, c.code, out_d.code, None, x1, x2)
            return out if out is not None else _empty(shape, out_d)
        if out_d is None:
            if d is dt.bool and name == "subtract":
                raise type_error(name, "two bool operands are not subtracted (as in NumPy "
                                       "and PyTorch); use logical_xor or ^", "bool and bool")
            raise dtype_error(name, rule, d, given)
        # (operands of other dtypes are cast into d by the engine, block by block)
        shape = _broadcast_shape(name, x1._layout.shape, x2._layout.shape)
        out = _ewise(EW_BINARY, kernel, d.code, out_d.code, None, x1, x2)
        return out if out is not None else _empty(shape, out_d)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = _docs.binary_doc(name, rule, table, given_allowed, ints_to_float, bool_op, bools,
                                    truthy)
    func._ars_op = op
    func._ars_table = _narrow_table(table)
    func._ars_allowed = given_allowed
    func._ars_category = category
    func._ars_bool_op = bool_code
    return Elementwise(name, op, 2, _out_codes(table), func,
                       None if truthy else _mixed_codes(table, given_allowed, ints_to_float))


# ---- unary functions ------------------------------------------------------------

abs = _unary("abs", "numeric", "ABS")
acos = _unary("acos", "floating-point", "ACOS", ints_to_float=True)
acosh = _unary("acosh", "floating-point", "ACOSH", ints_to_float=True)
asin = _unary("asin", "floating-point", "ASIN", ints_to_float=True)
asinh = _unary("asinh", "floating-point", "ASINH", ints_to_float=True)
atan = _unary("atan", "floating-point", "ATAN", ints_to_float=True)
atanh = _unary("atanh", "floating-point", "ATANH", ints_to_float=True)
bitwise_invert = _unary("bitwise_invert", "integer or boolean", "BITWISE_INVERT")
ceil = _unary("ceil", "real numeric", "CEIL")
cos = _unary("cos", "floating-point", "COS", ints_to_float=True)
cosh = _unary("cosh", "floating-point", "COSH", ints_to_float=True)
exp = _unary("exp", "floating-point", "EXP", ints_to_float=True)
expm1 = _unary("expm1", "floating-point", "EXPM1", ints_to_float=True)
floor = _unary("floor", "real numeric", "FLOOR")
isfinite = _unary("isfinite", "numeric", "ISFINITE")
isinf = _unary("isinf", "numeric", "ISINF")
isnan = _unary("isnan", "numeric", "ISNAN")
log = _unary("log", "floating-point", "LOG", ints_to_float=True)
log10 = _unary("log10", "floating-point", "LOG10", ints_to_float=True)
log1p = _unary("log1p", "floating-point", "LOG1P", ints_to_float=True)
log2 = _unary("log2", "floating-point", "LOG2", ints_to_float=True)
logical_not = _unary("logical_not", "bool", "LOGICAL_NOT", truthy=True)
negative = _unary("negative", "numeric", "NEGATIVE")
positive = _unary("positive", "numeric", "POSITIVE")
reciprocal = _unary("reciprocal", "floating-point", "RECIPROCAL")
_round0 = _unary("round", "numeric", "ROUND")


def _round(x: Array, /, decimals: int = 0) -> Array:
    """Each element rounded to the nearest value, halves to even.

    Beyond the standard, `decimals` rounds to that many decimal places, as NumPy's
    round: x * 10**decimals rounded, then divided back (complex: each part).
    Negative decimals round to tens, hundreds, and so on.

    Parameters
    ----------
    x : Array
        Input array of any numeric dtype. NumPy arrays and scalars are accepted
        too (arrays without a copy).
    decimals : int, optional
        Number of decimal places; 0 (the default) rounds to integers. Integer
        input with decimals >= 0 is copied unchanged.

    Returns
    -------
    Array
        A new array of x's shape and dtype.

    Raises
    ------
    TypeError
        If x is not an array of numeric dtype, or decimals is not an int.

    See Also
    --------
    floor, ceil, trunc

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.round(xp.asarray([0.5, 1.5, 2.25]), decimals=1)
    Array([0.5, 1.5, 2.2])
    """
    if decimals == 0 and type(decimals) is int:
        return _round0(x)
    func = "round"
    x = check_array(func, x)
    n = int_arg(func, decimals, "decimals must be an int")
    d = x._dtype
    if d.kind in "iu":
        if n >= 0:
            return x._copy_contiguous()
        f = 10.0 ** -n
        return multiply(_round0(divide(x, f)), f)._copy_contiguous(d)
    if d.kind not in "fc":
        raise dtype_error(func, _CATEGORY_NAMES["numeric"], d)
    if n == 0:
        return _round0(x)
    if n > 0:
        f = 10.0 ** n
        return divide(_round0(multiply(x, f)), f)
    f = 10.0 ** -n
    return multiply(_round0(divide(x, f)), f)


round = Elementwise("round", K.op_code("ROUND"), 1,
                    _out_codes(_kernel_table(K.op_code("ROUND"), frozenset(dt.CATEGORIES["numeric"]), True)),
                    _round)
sign = _unary("sign", "numeric", "SIGN")
signbit = _unary("signbit", "real floating", "SIGNBIT")
sin = _unary("sin", "floating-point", "SIN", ints_to_float=True)
sinh = _unary("sinh", "floating-point", "SINH", ints_to_float=True)
sqrt = _unary("sqrt", "floating-point", "SQRT", ints_to_float=True)
square = _unary("square", "numeric", "SQUARE")
tan = _unary("tan", "floating-point", "TAN", ints_to_float=True)
tanh = _unary("tanh", "floating-point", "TANH", ints_to_float=True)
trunc = _unary("trunc", "real numeric", "TRUNC")
_conj_complex = _unary("conj", "complex floating", "CONJ")


def conj(x: Array, /) -> Array:
    """Complex conjugate of each element.

    Parameters
    ----------
    x : Array
        Input array of any numeric dtype. NumPy arrays and scalars are accepted
        too.

    Returns
    -------
    Array
        A new array of x's shape and dtype; for real dtypes a copy of x.

    Raises
    ------
    TypeError
        If x is not an array of numeric dtype.

    See Also
    --------
    real, imag

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.conj(xp.asarray([1 + 2j, 3 - 4j]))
    Array([1.-2.j, 3.+4.j])
    """
    if not isinstance(x, Array):
        x = check_array("conj", x)
    if isinstance(x, Array) and x._dtype.kind == "c":
        return _conj_complex(x)
    if isinstance(x, Array) and x._dtype.kind in "iuf":
        return positive(x)
    if not isinstance(x, Array):
        raise not_array_error("conj", x)
    raise dtype_error("conj", "numeric", x._dtype)


def _component(func: str, x: Any, part: int) -> Array:
    x = check_array(func, x)
    d = x._dtype
    if d.kind == "c":
        lay = x._layout
        return Array._new(x._storage, L.Layout(lay.shape, tuple(2 * s for s in lay.strides),
                                               2 * lay.offset + part), dt.real_of(d))
    if d.kind in "iuf":
        if part == 0:
            return x
        return Array._empty(x._layout.shape, d, zero=True)
    raise dtype_error(func, "numeric", d)


def real(x: Array, /) -> Array:
    """Real part of each element.

    Parameters
    ----------
    x : Array
        Input array of any numeric dtype. NumPy arrays and scalars are accepted
        too.

    Returns
    -------
    Array
        For complex x, a view of its real components (float32 for complex64,
        float64 for complex128), sharing x's memory; for real dtypes, x itself.

    Raises
    ------
    TypeError
        If x is not an array of numeric dtype.

    See Also
    --------
    imag, conj

    Examples
    --------
    >>> import arrstride as xp
    >>> z = xp.asarray([1 + 2j, 3 - 4j])
    >>> xp.real(z)
    Array([1., 3.])
    >>> xp.real(z).strides
    (2,)
    """
    return _component("real", x, 0)


def imag(x: Array, /) -> Array:
    """Imaginary part of each element.

    Parameters
    ----------
    x : Array
        Input array of any numeric dtype. NumPy arrays and scalars are accepted
        too.

    Returns
    -------
    Array
        For complex x, a view of its imaginary components (float32 for
        complex64, float64 for complex128), sharing x's memory; for real dtypes,
        a new array of zeros of x's shape and dtype.

    Raises
    ------
    TypeError
        If x is not an array of numeric dtype.

    See Also
    --------
    real, conj

    Examples
    --------
    >>> import arrstride as xp
    >>> z = xp.asarray([1 + 2j, 3 - 4j])
    >>> xp.imag(z)
    Array([ 2., -4.])
    >>> xp.imag(xp.asarray([1.0, 2.0]))
    Array([0., 0.])
    """
    return _component("imag", x, 1)


# ---- binary functions -----------------------------------------------------------

add = _binary("add", "numeric", "ADD", bool_op="LOGICAL_OR")
atan2 = _binary("atan2", "real floating", "ATAN2", ints_to_float="held")
bitwise_and = _binary("bitwise_and", "integer or boolean", "BITWISE_AND")
bitwise_left_shift = _binary("bitwise_left_shift", "integral", "BITWISE_LEFT_SHIFT")
bitwise_or = _binary("bitwise_or", "integer or boolean", "BITWISE_OR")
bitwise_right_shift = _binary("bitwise_right_shift", "integral", "BITWISE_RIGHT_SHIFT")
bitwise_xor = _binary("bitwise_xor", "integer or boolean", "BITWISE_XOR")
copysign = _binary("copysign", "real floating", "COPYSIGN", ints_to_float="held")
divide = _binary("divide", "numeric", "DIVIDE", ints_to_float=True)
equal = _binary("equal", "any", "EQUAL")
floor_divide = _binary("floor_divide", "real numeric", "FLOOR_DIVIDE", bools=True)
greater = _binary("greater", "real numeric", "GREATER")
greater_equal = _binary("greater_equal", "real numeric", "GREATER_EQUAL")
hypot = _binary("hypot", "real floating", "HYPOT", ints_to_float="held")
less = _binary("less", "real numeric", "LESS")
less_equal = _binary("less_equal", "real numeric", "LESS_EQUAL")
logaddexp = _binary("logaddexp", "real floating", "LOGADDEXP", ints_to_float="held")
logical_and = _binary("logical_and", "bool", "LOGICAL_AND", truthy=True)
logical_or = _binary("logical_or", "bool", "LOGICAL_OR", truthy=True)
logical_xor = _binary("logical_xor", "bool", "LOGICAL_XOR", truthy=True)
maximum = _binary("maximum", "real numeric", "MAXIMUM", bool_op="LOGICAL_OR")
minimum = _binary("minimum", "real numeric", "MINIMUM", bool_op="LOGICAL_AND")
multiply = _binary("multiply", "numeric", "MULTIPLY", bool_op="LOGICAL_AND")
nextafter = _binary("nextafter", "real floating", "NEXTAFTER", ints_to_float="held")
not_equal = _binary("not_equal", "any", "NOT_EQUAL")
pow = _binary("pow", "numeric", "POW", bools=True)
remainder = _binary("remainder", "real numeric", "REMAINDER", bools=True)
subtract = _binary("subtract", "numeric", "SUBTRACT", bools=True)


_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _same_kind(src: dt.DType, dst: dt.DType) -> bool:
    """NumPy's same_kind casting: up the kinds bool < integer < real < complex,
    or within a kind (any size), never signed to unsigned."""
    rs, rd = _KIND_RANK[src.kind], _KIND_RANK[dst.kind]
    return rs < rd or (rs == rd and not (src.kind == "i" and dst.kind == "u"))


def binary_inplace(func, x: Array, y: Any) -> Array:
    """x = func(x, y) written into x's own layout (the in-place operators).
    The result dtype must cast to x's by NumPy's same_kind rule (int32 +=
    int64 yes, int += float no); y broadcasts to x's shape."""
    func = getattr(func, "__wrapped__", func)  # the Python implementation holds the tables
    name = "Array.__i" + func.__name__ + "__"
    d, a, b = _operands(func.__name__, x, y, func._ars_allowed, func._ars_category)
    kernel = func._ars_op
    if d is dt.bool and func._ars_bool_op is not None:
        kernel, out_d = func._ars_bool_op, dt.bool
    else:
        out_d = func._ars_table.get(d)
    if out_d is None:
        raise dtype_error(func.__name__, _CATEGORY_NAMES[func._ars_category], d, (x, y))
    cast = out_d is not x._dtype
    if cast and not _same_kind(out_d, x._dtype):
        raise type_error(name, f"the result dtype {out_d} does not cast to the array's dtype "
                               f"{x._dtype} within its kind (as NumPy's same_kind rule); use "
                               "x = x op y instead")
    if x._storage.readonly:
        raise read_only_error(name, x._storage._readonly_why)
    lay = x._layout
    shape = lay.shape
    contig = lay.strides == (_CONTIG.get(shape) or _contig(shape)).strides
    if not contig and L.has_internal_overlap(lay):
        raise overlap_error(name, shape, lay.strides)
    if b._layout.shape != shape and L.broadcast_shapes(shape, b._layout.shape) != shape:
        raise broadcast_into_error(name, b._layout.shape, shape, "the operand")
    plan = _narrow_plan(func._ars_table, d)
    c = d if plan is None else plan[0]
    # computed in the promoted dtype d (a narrow d: in its compute dtype) and
    # cast into x's dtype on store, as NumPy and PyTorch do (int32 += int64,
    # float32 *= float64); the engine casts each operand into c block by block
    # and copies first one that overlaps x without being x
    return _ewise(EW_BINARY, kernel, c.code, x._dtype.code, x, x, b)


def computed_in(func, compute: dt.DType, out_dtype: dt.DType, x1: Array, x2: Array) -> Array:
    """func's kernel on arrays x1 and x2, each cast into `compute` block by
    block, the result stored as out_dtype: a narrow float scaled by a float32
    constant and rounded once, as NumPy's float16 loops do."""
    func = getattr(func, "__wrapped__", func)
    shape = _broadcast_shape(func.__name__, x1._layout.shape, x2._layout.shape)
    out = _ewise(EW_BINARY, func._ars_op, compute.code, out_dtype.code, None, x1, x2)
    return out if out is not None else _empty(shape, out_dtype)


# ---- where, clip, isin ---------------------------------------------------------------

def _scalar_kind_dtype(value: Any, func: str) -> dt.DType:
    return dt.scalar_dtype(value, func)


def true_coordinates(func: str, x: Array) -> tuple:
    """The coordinates of the nonzero elements of x (of any dtype, at least
    1-d): one new int64 array per axis, in C order. nonzero, where(condition)
    and boolean-mask indexing (_indexing) share it."""
    out = _core_nonzero(x)  # in C, any layout and dtype
    if out is not None:
        return out
    if x.ndim == 0:
        raise value_error(func, "x must have at least one dimension (use nonzero(atleast_1d))")
    mask = dt.in_dtype(x, dt.bool)
    count = K.count_true(mask)
    out = Array._empty((x.ndim, count), dt.int64)
    if count:
        K.nonzero_bool(mask, out, count)
    lay = out._layout
    return tuple(out._with_layout(L.select(lay, 0, d)) for d in range(x.ndim))


class _Omitted:
    """The default of where's x1 and x2: where(condition) alone."""
    def __repr__(self) -> str:
        return "<omitted>"


_ONLY_CONDITION = _Omitted()


def where(condition: Array, x1: Union[Array, int, float, complex, bool] = _ONLY_CONDITION,
          x2: Union[Array, int, float, complex, bool] = _ONLY_CONDITION, /) -> Array:
    """Elements of x1 where condition is true, else of x2.

    Beyond the standard, as in NumPy and PyTorch, ``where(condition)`` alone
    is ``nonzero(condition)``.

    Parameters
    ----------
    condition : Array
        Bool array, broadcast against x1 and x2.
    x1 : Array or scalar
        Values where condition is true: an array of any dtype or a Python
        scalar. NumPy arrays and scalars are accepted too.
    x2 : Array or scalar
        Values where condition is false, as x1. Beyond the standard, both x1 and
        x2 may be Python scalars (their dtype is then the default one of their
        kind).

    Returns
    -------
    Array
        A new array of the broadcast shape of the three arguments and the
        promoted dtype of x1 and x2.

    Raises
    ------
    TypeError
        If condition is not a bool array, or x1 or x2 is not an array or scalar.
    ValueError
        If the shapes do not broadcast.

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([1.0, -2.0, 3.0])
    >>> xp.where(x > 0, x, 0.0)
    Array([1., 0., 3.])
    """
    out = _core_where(condition, x1, x2)  # dense operands of one shape and dtype, in C
    if out is not None:
        return out
    func = "where"
    if x1 is _ONLY_CONDITION or x2 is _ONLY_CONDITION:
        if x1 is not x2:
            raise type_error(func, "give both x1 and x2, or neither (where(condition) is "
                                   "nonzero(condition))", "one of them")
        return true_coordinates(func, check_array(func, condition, "condition"))
    condition = check_array(func, condition, "condition")
    x1 = _operand(func, x1, "x1")
    x2 = _operand(func, x2, "x2")
    if condition._dtype is not dt.bool:
        raise dtype_error(func, "boolean", condition._dtype)
    if not isinstance(x1, Array) and not isinstance(x2, Array):
        _check_arg(func, x1, dt.ALL_SET, "any", "x1")
        _check_arg(func, x2, dt.ALL_SET, "any", "x2")
        d = dt.promote(_scalar_kind_dtype(x1, func), _scalar_kind_dtype(x2, func))
        x1 = _scalar_array(x1, d, func)
        x2 = _scalar_array(x2, d, func)
    else:
        d, x1, x2 = _operands(func, x1, x2, dt.ALL_SET, "any")
    shape = _broadcast_shape(func, x1._layout.shape, x2._layout.shape)
    shape = _broadcast_shape(func, condition._layout.shape, shape)
    # x1 and x2 are cast into d block by block
    out = _ewise(EW_WHERE, 0, d.code, d.code, None, condition, x1, x2)
    return out if out is not None else _empty(shape, d)


def _clip_bound(func: str, name: str, v: Any, x: Array, default) -> Array:
    d = x._dtype
    if v is None:
        return _scalar_array(default, d, func)
    if not isinstance(v, Array) and FOREIGN[1] is not None:
        c = FOREIGN[1](v)  # NumPy data as the operators take it
        v = v if c is None else c
    if isinstance(v, Array):
        if v._dtype not in _REAL_NUMERIC:
            raise dtype_error(func, "real-valued", v._dtype)
        # the bound takes x's dtype (the engine casts it block by block; a
        # narrow float's bound is rounded to it here, then computed wider)
        return dt.in_dtype(v, d) if dt.is_narrow(d) else v
    scalar = dt.python_scalar(v)  # NumPy scalars count as the Python scalars they hold
    if scalar is not None:
        v = scalar
    if isinstance(v, (builtins.bool, complex)) or not isinstance(v, (int, float)):
        raise type_error(func, f"{name} must be None, an array or a Python int or float",
                         type(v).__name__)
    if d.kind in "iu":
        if isinstance(v, float):
            raise type_error(func, f"a float {name} with an integer array", repr(v))
        lo, hi = dt.int_range(d)
        v = builtins.min(builtins.max(v, lo), hi)
    return _scalar_array(v, d, func)


def clip(x: Array, /, min: Optional[Union[int, float, Array]] = None,
         max: Optional[Union[int, float, Array]] = None) -> Array:
    """Each element of x clamped to the interval [min, max].

    NaN in any operand gives NaN.

    Parameters
    ----------
    x : Array
        Input array of a real-valued dtype. NumPy arrays are accepted too.
    min : int, float, Array or None, optional
        Lower bound, broadcast against x; None (the default) sets none. An
        integer x with bounds beyond its dtype's range uses the range.
    max : int, float, Array or None, optional
        Upper bound, as min.

    Returns
    -------
    Array
        A new array of the broadcast shape and x's dtype.

    Raises
    ------
    TypeError
        If x or a bound array is not of a real-valued dtype, a bound is not None,
        an array or a Python int or float, or a float bound is given for an
        integer x.
    ValueError
        If the shapes do not broadcast.

    See Also
    --------
    minimum, maximum

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.clip(xp.asarray([-2.0, 0.5, 3.0]), 0.0, 1.0)
    Array([0. , 0.5, 1. ])
    >>> xp.clip(xp.asarray([1, 5, 9]), max=6)
    Array([1, 5, 6])
    """
    out = _core_clip(x, min, max)  # scalar or same-dtype bounds, in C
    if out is not None:
        return out
    func = "clip"
    x = check_array(func, x)
    d = x._dtype
    if d not in _REAL_NUMERIC:
        raise dtype_error(func, "real-valued", d)
    if d.kind == "f":
        lo_default, hi_default = -float("inf"), float("inf")
    else:
        lo_default, hi_default = dt.int_range(d)
    lo = _clip_bound(func, "min", min, x, lo_default)
    hi = _clip_bound(func, "max", max, x, hi_default)
    shape = _broadcast_shape(func, x._layout.shape, lo._layout.shape)
    shape = _broadcast_shape(func, shape, hi._layout.shape)
    # computed in d.compute (a narrow float's bounds are narrow already, so
    # clipping in float32 is exact), every operand cast block by block
    out = _ewise(EW_CLIP, 0, d.compute.code, d.code, None, x, lo, hi)
    return out if out is not None else _empty(shape, d)


def isin(x1: Union[Array, int], x2: Union[Array, int], /, *, invert: bool = False) -> Array:
    """Whether each element of x1 equals some element of x2.

    Parameters
    ----------
    x1 : Array or int
        Elements to look up; an array of any dtype, or a Python scalar.
    x2 : Array or int
        Values to look for, of any shape; at least one of x1 and x2 must be an
        array. Both are promoted to one dtype before comparing.
    invert : bool, optional
        If True, give the opposite: whether each element is absent from x2.
        Default False.

    Returns
    -------
    Array
        A new bool array of x1's shape.

    Raises
    ------
    TypeError
        If neither x1 nor x2 is an array.

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([1, 2, 3, 4])
    >>> xp.isin(x, xp.asarray([2, 4]))
    Array([False,  True, False,  True])
    >>> xp.isin(x, xp.asarray([2, 4]), invert=True)
    Array([ True, False,  True, False])
    """
    func = "isin"
    d, a, b = _operands(func, x1, x2, dt.ALL_SET, "any")
    d = d.compute  # narrow floats compare as the float32 values they are
    scratch = b._copy_contiguous(d)  # sorted in place by the kernel; x1 is cast per block
    out = _ewise(EW_ISIN, builtins.bool(invert), d.code, dt.bool.code, None, a, scratch)
    return out if out is not None else _empty(a._layout.shape, dt.bool)
