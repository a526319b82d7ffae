"""Dtypes, the promotion lattice and the Python-scalar rules: the one place for them.

Promotion follows the standard's lattice. Where the standard is silent
(mixing signed with unsigned beyond the lattice, integers with floats, bool
with numbers) arrstride does what NumPy 2 does; the README lists these.
"""
from __future__ import annotations

import math
import struct
import sys
from typing import Any, Union

from ._errors import type_error
from ._native import ffi, lib


_NUMPY_CLASS: dict = {}  # dtype name -> the class of its NumPy twin, once NumPy is imported
_NUMPY_TWIN: dict = {}   # dtype name -> the equal NumPy dtype, made once


class DType:
    """An array dtype: a name, a C code, an item size and a kind.

    One object per dtype (arrstride.float64, arrstride.int32, ...); users never
    construct one. A dtype compares equal to NumPy's dtype of the same name and
    to the name itself.

    Parameters
    ----------
    name : str
        Name, such as 'float64'.
    kind : str
        Kind: 'b' (bool), 'i' (signed integer), 'u' (unsigned integer), 'f'
        (real floating), 'c' (complex floating).
    itemsize : int
        Size of one element in bytes.
    fmt : str or None
        The struct module's format of one element (None: struct has none).
    compute : DType, optional
        The dtype its arithmetic is done in: float32 for the narrow floats;
        default the dtype itself.
    typestr : str, optional
        NumPy's typestr (kind 'V' when NumPy has the dtype only through
        another package); default from kind and itemsize.
    twin : str, optional
        That package (e.g. 'ml_dtypes'); default None (NumPy itself).
    finfo : tuple, optional
        (eps, max, smallest_normal) of a real float.
    standard : bool, optional
        One of the array API standard's 13 dtypes; default True.
    ints_join : bool, optional
        An integer operand promotes to this dtype, as in PyTorch, rather
        than to the float that holds the integer's values, as in NumPy;
        default False.
    qnan : int, optional
        The bits of its quiet NaN (narrow floats).
    scalar_compute : bool, optional
        A Python scalar operand is held in the compute dtype, as PyTorch
        does, rather than rounded to this dtype first, as NumPy does;
        default False.

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.asarray([1.0, 2.0])
    >>> x.dtype
    arrstride.float64
    >>> x.dtype == xp.float64, x.dtype == "float64"
    (True, True)
    >>> x.dtype.itemsize
    8
    """

    __slots__ = ("name", "code", "itemsize", "kind", "bits", "_fmt", "compute", "typestr",
                 "twin", "finfo", "standard", "ints_join", "qnan", "scalar_compute")

    def __init__(self, name: str, kind: str, itemsize: int, fmt: Any, *, compute: Any = None,
                 typestr: Any = None, twin: Any = None, finfo: Any = None,
                 standard: "builtins_bool" = True, ints_join: "builtins_bool" = False,
                 qnan: int = 0, scalar_compute: "builtins_bool" = False):
        self.name = name
        self.code = getattr(lib, "ARS_" + name.upper())
        self.kind = kind            # 'b', 'i', 'u', 'f', 'c'
        self.itemsize = itemsize
        self.bits = itemsize * 8
        self._fmt = fmt             # struct format of one element
        self.compute = self if compute is None else compute
        order = "|" if itemsize == 1 else ("<" if sys.byteorder == "little" else ">")
        self.typestr = typestr or f"{order}{kind}{itemsize}"
        self.twin = twin
        self.finfo = finfo
        self.standard = standard
        self.ints_join = ints_join
        self.qnan = qnan
        self.scalar_compute = scalar_compute

    def __repr__(self) -> str:
        return f"arrstride.{self.name}"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is DType:  # one object per dtype (type(): no __class__ lookup)
            return False
        return foreign_name(other) == self.name

    # Among arrstride dtypes equality is identity (one object per dtype), so the
    # identity hash is consistent, and runs in C: dtype-keyed tables sit on every
    # op's hot path. A NumPy dtype compares equal by name but hashes apart: do not
    # mix the two as keys of one dict.
    __hash__ = object.__hash__

    def __reduce__(self):
        return (_by_name, (self.name,))

    @property
    def dtype(self):
        """The equal NumPy dtype, so that numpy.dtype(arrstride.float64) works
        (interop only: Cubed and zarr describe chunks with NumPy dtypes).
        Imports NumPy on first use."""
        twin = _NUMPY_TWIN.get(self.name)
        if twin is None:
            import numpy
            if self.twin is None:
                twin = numpy.dtype(self.name)
            else:  # NumPy has this dtype through another package
                try:
                    module = __import__(self.twin)
                except ImportError:
                    raise TypeError(f"arrstride.{self.name}: NumPy has no {self.name}; "
                                    f"exchanging {self.name} arrays with NumPy needs the "
                                    f"{self.twin} package (pip install {self.twin})") from None
                twin = numpy.dtype(getattr(module, self.name))
            _NUMPY_TWIN[self.name] = twin
        return twin

    # Interop with code that asks isinstance(dtype, numpy.dtype) (xarray does,
    # before filling, shifting or padding): once NumPy is imported, a DType
    # reports the class of its NumPy twin, and reads the attributes it lacks
    # (type, char, str, byteorder, ...) from that twin. type(d) stays DType.
    @property
    def __class__(self):
        c = _NUMPY_CLASS.get(self.name)
        if c is not None:
            return c
        np = sys.modules.get("numpy")
        if np is None or not hasattr(np, "dtype"):
            return DType
        try:
            c = _NUMPY_CLASS[self.name] = type(self.dtype)
        except TypeError:  # NumPy has no such dtype (its package is missing)
            return DType
        return c

    def __getattr__(self, attr: str):
        if attr.startswith("_") or "numpy" not in sys.modules:
            raise AttributeError(f"'DType' object has no attribute '{attr}'")
        return getattr(self.dtype, attr)


# ---- the dtype table: one row per dtype ------------------------------------------
# A new dtype is a row here (its code comes from the C enum, native/include/
# arrstride.h, and its C row from native/src/ars_internal.h). A narrow float
# (a storage dtype: compute=float32) needs nothing else in Python: every
# function widens it to its compute dtype and rounds the result once.

bool = DType("bool", "b", 1, "?")
int8 = DType("int8", "i", 1, "b")
int16 = DType("int16", "i", 2, "h")
int32 = DType("int32", "i", 4, "i")
int64 = DType("int64", "i", 8, "q")
uint8 = DType("uint8", "u", 1, "B")
uint16 = DType("uint16", "u", 2, "H")
uint32 = DType("uint32", "u", 4, "I")
uint64 = DType("uint64", "u", 8, "Q")
float32 = DType("float32", "f", 4, "f", finfo=(2.0 ** -23, 3.4028234663852886e38, 2.0 ** -126))
float64 = DType("float64", "f", 8, "d", finfo=(2.0 ** -52, 1.7976931348623157e308, 2.0 ** -1022))
complex64 = DType("complex64", "c", 8, "ff")
complex128 = DType("complex128", "c", 16, "dd")
# IEEE half: stored in C, computed in float32 and rounded once (NumPy's model)
float16 = DType("float16", "f", 2, "e", compute=float32, standard=False, qnan=0x7e00,
                finfo=(2.0 ** -10, 65504.0, 2.0 ** -14))
# the top half of a float32: stored in C, computed in float32 and rounded once
# (PyTorch's model and promotion; NumPy has it through ml_dtypes)
bfloat16 = DType("bfloat16", "f", 2, None, compute=float32, standard=False, qnan=0x7fc0,
                 ints_join=True, scalar_compute=True, typestr="<V2", twin="ml_dtypes",
                 finfo=(2.0 ** -7, 3.3895313892515355e38, 2.0 ** -126))

ALL = (bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
       float16, bfloat16, float32, float64, complex64, complex128)
# The standard's 13 dtypes: what info.dtypes() lists (the extensions are left
# out as NumPy's array_api_compat namespace leaves float16 out).
STANDARD = tuple(d for d in ALL if d.standard)
EXTENSIONS = tuple(d for d in ALL if not d.standard)
NARROW = tuple(d for d in ALL if d.compute is not d)  # storage dtypes: computed wider
ALL_SET = frozenset(ALL)  # membership of an Array's dtype by identity, in C
BY_NAME = {d.name: d for d in ALL}
BY_CODE = {d.code: d for d in ALL}


# ---- the narrow floats' rule, in one place -------------------------------------------
# A function without a kernel of its own for float16/bfloat16 runs on their
# compute dtype (float32 holds every narrow value exactly) and, where its result
# is a value of the input's kind, rounds that result once to the narrow dtype:
# NumPy's float16 model and PyTorch's bfloat16 one. These take Arrays (duck-
# typed: this module imports no array code).

def is_narrow(d: "DType") -> "builtins_bool":
    """True for a storage dtype that computes wider (float16, bfloat16)."""
    return d.compute is not d


def widened(x: Any) -> Any:
    """x itself, or for a narrow dtype a C-ordered copy in its compute dtype
    (exact: comparisons, sorting and selection see the same values)."""
    d = x._dtype
    return x if d.compute is d else x._copy_contiguous(d.compute)


def in_dtype(x: Any, d: "DType") -> Any:
    """x itself when of dtype d, else a C-ordered copy cast to d (how a result
    computed in d.compute is rounded once to the narrow d)."""
    return x if x._dtype is d else x._copy_contiguous(d)


def through_compute(f: Any, d: "DType", *arrays: Any, **kwargs: Any) -> Any:
    """f(*arrays, **kwargs) with each array widened to d.compute, the result
    rounded once to d: how a function computes for the narrow dtype d."""
    return in_dtype(f(*(widened(a) for a in arrays), **kwargs), d)


# NumPy's other spellings of these dtypes as strings (dtype="float", "i4", "f8"),
# native byte order only: Python type names, C names, type codes, kind + size.
NUMPY_STRINGS = {
    "float": "float64", "int": "int64", "complex": "complex128", "bool_": "bool",
    "double": "float64", "single": "float32", "half": "float16", "cdouble": "complex128",
    "csingle": "complex64", "intp": "int64", "uintp": "uint64", "byte": "int8",
    "ubyte": "uint8", "short": "int16", "ushort": "uint16", "intc": "int32", "uintc": "uint32",
    "long": "int64", "ulong": "uint64", "longlong": "int64", "ulonglong": "uint64",
    "?": "bool", "b": "int8", "B": "uint8", "h": "int16", "H": "uint16", "i": "int32",
    "I": "uint32", "l": "int64", "L": "uint64", "q": "int64", "Q": "uint64", "e": "float16",
    "f": "float32", "d": "float64", "F": "complex64", "D": "complex128", "p": "int64", "P": "uint64",
    "b1": "bool", "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64", "u1": "uint8",
    "u2": "uint16", "u4": "uint32", "u8": "uint64", "f2": "float16", "f4": "float32",
    "f8": "float64", "c8": "complex64", "c16": "complex128",
}


def _by_name(name: str) -> DType:
    return BY_NAME[name]


def foreign_name(obj: Any):
    """The dtype name another library's dtype object stands for (a NumPy dtype
    or scalar type such as numpy.float64), or None. Only the names of
    arrstride's dtypes count, also as strings ('float32', 'bool')."""
    if isinstance(obj, str):
        if obj in BY_NAME:
            return obj
        return NUMPY_STRINGS.get(obj[1:] if obj[:1] in "<=|" and len(obj) > 1 else obj)
    name = getattr(obj, "name", None)
    if not isinstance(name, str):
        name = getattr(obj, "__name__", None)
    if not isinstance(name, str):
        return None
    if name == "bool_":
        name = "bool"
    if name not in BY_NAME:
        return None
    byteorder = getattr(obj, "byteorder", "=")
    return name if byteorder in ("=", "<", "|") else None


def as_dtype(func: str, obj: Any, allow_none: bool = True):
    """obj as an arrstride dtype: a DType, its name ('float32'), a Python
    type as NumPy reads it (float, int, complex, bool), or (interop, e.g.
    Cubed) a NumPy dtype or scalar type of one of arrstride's dtypes.
    None passes when allowed."""
    if isinstance(obj, DType):
        return obj
    if obj is None and allow_none:
        return None
    if isinstance(obj, type) and obj in _PYTHON_TYPES:
        return _PYTHON_TYPES[obj]
    name = foreign_name(obj)
    if name is None:
        raise type_error(func, "dtype must be an arrstride dtype such as arrstride.float64", repr(obj))
    return BY_NAME[name]


default_int = int64
default_float = float64
default_complex = complex128
default_index = int64

# Python's scalar types as dtypes, as NumPy reads them (dtype=float)
_PYTHON_TYPES = {type(True): bool, int: int64, float: float64, complex: complex128}

SIGNED = (int8, int16, int32, int64)
UNSIGNED = (uint8, uint16, uint32, uint64)
INTEGER = SIGNED + UNSIGNED
REAL_FLOAT = tuple(d for d in ALL if d.kind == "f")
COMPLEX = (complex64, complex128)
FLOATING = REAL_FLOAT + COMPLEX
NUMERIC = INTEGER + FLOATING

# Categories named by isdtype and by the elementwise functions.
CATEGORIES = {
    "bool": (bool,),
    "signed integer": SIGNED,
    "unsigned integer": UNSIGNED,
    "integral": INTEGER,
    "real floating": REAL_FLOAT,
    "complex floating": COMPLEX,
    "numeric": NUMERIC,
    # the groups elementwise functions accept
    "integer or boolean": INTEGER + (bool,),
    "real numeric": INTEGER + REAL_FLOAT,
    "floating-point": FLOATING,
    "any": ALL,
}


def float_for_int(dtype: DType) -> DType:
    """The float an integer or bool dtype computes in where a function needs a
    float (exp, sqrt, atan2, ...), as NumPy: the smallest that holds every
    value exactly (bool and 8-bit integers: float16; 16-bit: float32; wider:
    float64). Floats are themselves."""
    if dtype.kind in "fc":
        return dtype
    return _FLOAT_FOR_SIZE.get(dtype.itemsize, float64)


_FLOAT_FOR_SIZE = {1: float16, 2: float32}


def real_of(dtype: DType) -> DType:
    """float32 for complex64, float64 for complex128, the dtype itself otherwise."""
    return float32 if dtype is complex64 else float64 if dtype is complex128 else dtype


def complex_of(dtype: DType) -> DType:
    return complex64 if dtype is complex64 or (dtype.kind == "f" and dtype.itemsize <= 4) \
        else complex128


# ---- promotion ---------------------------------------------------------------

def _promote(a: DType, b: DType) -> DType:
    if a is b:
        return a
    ka, kb = a.kind, b.kind
    if ka == "b":
        return b
    if kb == "b":
        return a
    if ka == kb:
        if a.itemsize == b.itemsize:  # two narrow floats of one size: the float holding both
            return next(d for d in REAL_FLOAT if d.standard and d.itemsize > a.itemsize)
        return a if a.itemsize >= b.itemsize else b
    order = "iufc"
    if order.index(ka) > order.index(kb):
        a, b, ka, kb = b, a, kb, ka
    if ka == "i" and kb == "u":           # signed with unsigned: the standard's lattice
        if a.itemsize > b.itemsize:
            return a
        return {1: int16, 2: int32, 4: int64}.get(b.itemsize, float64)  # int with uint64: NumPy 2
    if ka == "f":                         # real with complex floats
        return complex128 if (a is float64 or b is complex128) else complex64
    # integers with floats (NumPy 2): the float that holds the integer's values
    # (8-bit: float16, 16-bit: float32, wider: float64), or the wider of the two
    need = float_for_int(a)
    if kb == "f" and b.ints_join:  # as PyTorch: integers join this float
        return b
    if kb == "f":
        return need if need.itemsize > b.itemsize else b
    return complex64 if need.itemsize <= 4 and b is complex64 else complex128
    raise AssertionError((a, b))


PROMOTION = {(a, b): _promote(a, b) for a in ALL for b in ALL}


def promote(a: DType, b: DType) -> DType:
    return PROMOTION[a, b]


def in_lattice(a: DType, b: DType) -> "builtins_bool":
    """True when the standard itself defines the promotion of a with b."""
    if a is b:
        return True
    ka, kb = a.kind, b.kind
    if "b" in (ka, kb):
        return False
    if {ka, kb} <= {"i", "u"}:
        return ka == kb or (a if ka == "u" else b) is not uint64
    return {ka, kb} <= {"f", "c"}


builtins_bool = type(True)

PyScalar = Union[builtins_bool, int, float, complex]


_PY_SCALARS = (builtins_bool, int, float, complex)


def python_scalar(value: Any) -> Any:
    """The Python scalar a number-like stands for: a Python scalar itself,
    a subclass of one (numpy.float64) as the base type, or a NumPy scalar or
    0-d NumPy array through .item(); None for anything else. (A 0-d arrstride
    array is converted by the caller, which knows Array.)"""
    t = type(value)
    if t is builtins_bool or t is int or t is float or t is complex:
        return value
    for kind in _PY_SCALARS:
        if isinstance(value, kind):
            return kind(value)
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, (np.generic, np.ndarray)) and value.shape == () \
            and value.dtype.kind in "biufc":
        v = value.item()
        if type(v) in _PY_SCALARS:
            return v
    return None


def scalar_dtype(value: Any, func: str) -> DType:
    """The default dtype of a Python scalar on its own."""
    if isinstance(value, builtins_bool):
        return bool
    if isinstance(value, int):
        return default_int
    if isinstance(value, float):
        return default_float
    if isinstance(value, complex):
        return default_complex
    raise type_error(func, "expected a Python bool, int, float or complex", type(value).__name__)


def scalar_result(array_dtype: DType, value: Any, func: str) -> DType:
    """The dtype of `array op scalar`, as NumPy 2 gives it (the standard's rule
    where it has one): the scalar takes the array's dtype within its kind."""
    k = array_dtype.kind
    if isinstance(value, builtins_bool):
        return array_dtype
    if isinstance(value, int):
        return default_int if k == "b" else array_dtype
    if isinstance(value, float):
        return array_dtype if k in "fc" else default_float
    if isinstance(value, complex):
        if k == "c":
            return array_dtype
        return complex64 if array_dtype.kind == "f" and array_dtype.itemsize <= 4 \
            else default_complex
    raise type_error(func, "expected an array or a Python bool, int, float or complex",
                     type(value).__name__)


# ---- limits ------------------------------------------------------------------

def int_range(dtype: DType) -> tuple:
    if dtype.kind == "u":
        return 0, (1 << dtype.bits) - 1
    if dtype.kind == "b":
        return 0, 1
    return -(1 << (dtype.bits - 1)), (1 << (dtype.bits - 1)) - 1


def pack_scalar(value: Any, dtype: DType, func: str) -> bytes:
    """One element of `dtype` holding the Python scalar `value`, as bytes."""
    k = dtype.kind
    if k == "b":
        return b"\x01" if value else b"\x00"
    if k in "iu":
        if isinstance(value, float):
            if math.isnan(value) or math.isinf(value):
                raise ValueError(f"{func}: cannot convert {value!r} to integer dtype {dtype}")
            value = int(value)
        elif isinstance(value, complex):
            raise type_error(func, f"cannot convert a complex scalar to {dtype}", value)
        value = int(value)
        lo, hi = int_range(dtype)
        if not lo <= value <= hi:
            raise OverflowError(f"{func}: Python integer {value} out of bounds for {dtype}")
        return struct.pack(dtype._fmt, value)
    if k == "f":
        if isinstance(value, complex):
            raise type_error(func, f"cannot convert a complex scalar to {dtype}", value)
        if dtype._fmt is None:  # no struct format: the C cast from float64 rounds
            return narrow_from_double(float(value), dtype)
        return _pack_float(dtype._fmt, float(value))
    value = complex(value)
    f = dtype._fmt[0]
    return _pack_float(f, value.real) + _pack_float(f, value.imag)


def _pack_float(fmt: str, value: float) -> bytes:
    try:
        return struct.pack(fmt, value)
    except OverflowError:  # beyond float32: round to infinity, as IEEE does
        return struct.pack(fmt, math.copysign(math.inf, value))


def narrow_from_double(value: float, dtype: DType) -> bytes:
    """One element of `dtype` holding the float `value`, rounded by the C
    table's conversion (for a dtype struct has no format for)."""
    src = ffi.new("double *", value)
    dst = ffi.new("char[]", dtype.itemsize)
    lib.ars_cast(0, ffi.NULL, dst, ffi.NULL, dtype.code, ffi.cast("char *", src), ffi.NULL,
                 float64.code)
    return ffi.buffer(dst)[:]


def narrow_to_double(data: bytes, dtype: DType) -> float:
    """The element of `dtype` in `data` as a float (exact for a real float)."""
    src = ffi.new("char[]", data)
    dst = ffi.new("double *")
    lib.ars_cast(0, ffi.NULL, ffi.cast("char *", dst), ffi.NULL, float64.code, src, ffi.NULL,
                 dtype.code)
    return dst[0]
