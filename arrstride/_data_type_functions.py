"""astype, can_cast, finfo, iinfo, isdtype, result_type."""
from __future__ import annotations

import sys
from typing import Any, NamedTuple, Union

from . import _dtypes as dt
from . import _kernels as K
from ._array import Array, check_device
from ._core import cast as _core_cast
from ._creation_functions import asarray
from ._errors import not_array_error, type_error, value_error


def _dtype_arg(func: str, x: Any) -> dt.DType:
    if isinstance(x, Array):
        return x.dtype
    return dt.as_dtype(func, x, allow_none=False)


def astype(x: Array, dtype: dt.DType, /, *, copy: bool = True, device: Any = None) -> Array:
    """Array x converted to a dtype.

    Float-to-integer casts of NaN give 0 and out-of-range values saturate, and a
    complex-to-real cast keeps the real part, as NumPy (the standard leaves these
    unspecified). A NumPy array or scalar is taken as an arrstride array first.

    Parameters
    ----------
    x : Array
        Array to convert.
    dtype : DType or Python type
        Target dtype (Python's bool, int, float and complex, and NumPy dtypes,
        are taken for arrstride's).
    copy : bool, optional
        If True (the default), always a new array; if False, x itself when its
        dtype is already dtype.
    device : Device or str, optional
        Only the CPU is accepted.

    Returns
    -------
    Array
        A new array of x's shape, or x itself (see copy).

    See Also
    --------
    can_cast, result_type

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.astype(xp.asarray([1.7, -2.7]), xp.int32)
    Array([ 1, -2], dtype=int32)
    """
    if type(dtype) is dt.DType and device is None and type(x) is Array:
        if dtype is x._dtype and not copy:
            return x
        # one engine call: the copy keeps x's memory order when x is a dense
        # permutation (as NumPy's astype with order="K"), so that casting a
        # transposed array streams
        out = _core_cast(dtype.code, x)
        if out is not None:
            return out
    func = "astype"
    if not isinstance(x, Array):
        np = sys.modules.get("numpy")
        if np is None or not isinstance(x, (np.ndarray, np.generic)):
            raise not_array_error(func, x, numpy=True)
        x = asarray(x)  # NumPy data (xarray hands over NumPy fill scalars): zero-copy
    dtype = dt.as_dtype(func, dtype, allow_none=False)
    check_device(func, device)
    if dtype is x.dtype and not copy:
        return x
    out = _core_cast(dtype.code, x)
    if out is None:  # an empty shape past int64, or more dims than C takes
        out = Array._empty(x._layout.shape, dtype)
        K.copy_into(out, x)
    return out


def can_cast(from_: Union[dt.DType, Array], to: dt.DType, /) -> bool:
    """Whether a dtype can be cast to another by the promotion rules.

    Parameters
    ----------
    from_ : DType or Array
        Source dtype, or an array whose dtype it is.
    to : DType
        Target dtype.

    Returns
    -------
    bool
        True when promoting ``from_`` with ``to`` gives ``to`` (bool casts to anything).

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.can_cast(xp.int8, xp.int32)
    True
    >>> xp.can_cast(xp.float64, xp.int32)
    False
    """
    a = _dtype_arg("can_cast", from_)
    to = dt.as_dtype("can_cast", to, allow_none=False)
    return a is to or a is dt.bool or dt.promote(a, to) is to


class finfo_object(NamedTuple):
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: dt.DType


class iinfo_object(NamedTuple):
    bits: int
    max: int
    min: int
    dtype: dt.DType


_FINFO = {d: finfo_object(d.bits, d.finfo[0], d.finfo[1], -d.finfo[1], d.finfo[2], d)
          for d in dt.REAL_FLOAT}  # from the dtype table


def finfo(type: Union[dt.DType, Array], /) -> finfo_object:
    """Machine limits of a floating-point dtype.

    Parameters
    ----------
    type : DType or Array
        A floating-point dtype, or an array of one; complex dtypes give the
        limits of their real part's dtype.

    Returns
    -------
    finfo_object
        Object with the attributes bits, eps, max, min, smallest_normal and
        dtype.

    Raises
    ------
    TypeError
        If type is not a floating-point dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.finfo(xp.float32).eps
    1.1920928955078125e-07
    >>> xp.finfo(xp.float64).bits
    64
    """
    d = _dtype_arg("finfo", type)
    if d.kind not in "fc":
        raise type_error("finfo", "expected a floating-point dtype", d)
    return _FINFO[dt.real_of(d)]


def iinfo(type: Union[dt.DType, Array], /) -> iinfo_object:
    """Machine limits of an integer dtype.

    Parameters
    ----------
    type : DType or Array
        An integer dtype, or an array of one.

    Returns
    -------
    iinfo_object
        Object with the attributes bits, max, min and dtype.

    Raises
    ------
    TypeError
        If type is not an integer dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.iinfo(xp.int8).min, xp.iinfo(xp.int8).max
    (-128, 127)
    >>> xp.iinfo(xp.uint16).max
    65535
    """
    d = _dtype_arg("iinfo", type)
    if d.kind not in "iu":
        raise type_error("iinfo", "expected an integer dtype", d)
    lo, hi = dt.int_range(d)
    return iinfo_object(d.bits, hi, lo, d)


_ISDTYPE: dict = {}  # (dtype, kind) -> answer: clients ask the same few questions on every call


def isdtype(dtype: dt.DType, kind: Union[dt.DType, str, tuple]) -> bool:
    """Whether a dtype is of a given kind.

    Parameters
    ----------
    dtype : DType
        Dtype to test.
    kind : DType, str or tuple
        A dtype, a kind name ('bool', 'signed integer', 'unsigned integer',
        'integral', 'real floating', 'complex floating', 'numeric') or a tuple
        of them (true when any matches).

    Returns
    -------
    bool
        Whether dtype is of kind.

    Raises
    ------
    TypeError
        If kind is not a dtype, a known kind name or a tuple of them.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.isdtype(xp.int32, "integral")
    True
    >>> xp.isdtype(xp.float32, ("integral", "complex floating"))
    False
    """
    if type(dtype) is dt.DType:
        try:
            hit = _ISDTYPE.get((dtype, kind))
        except TypeError:  # an unhashable kind: answered (or refused) below
            hit = None
        if hit is not None:
            return hit
        answer = _isdtype(dtype, kind)
        if len(_ISDTYPE) < 1024:
            _ISDTYPE[dtype, kind] = answer
        return answer
    return _isdtype(dtype, kind)


def _isdtype(dtype: Any, kind: Any) -> bool:
    func = "isdtype"
    dtype = dt.as_dtype(func, dtype, allow_none=False)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if isinstance(k, dt.DType) or dt.foreign_name(k) is not None:
            if k == dtype:
                return True
        elif isinstance(k, str) and k in _KINDS:
            if dtype in dt.CATEGORIES[k]:
                return True
        else:
            raise type_error(func, "kind must be a dtype, one of " + ", ".join(map(repr, _KINDS))
                             + ", or a tuple of them", repr(k))
    return False


_KINDS = ("bool", "signed integer", "unsigned integer", "integral", "real floating",
          "complex floating", "numeric")


def _is_numpy_scalar(a: Any) -> bool:
    np = sys.modules.get("numpy")
    return np is not None and isinstance(a, np.generic) and dt.python_scalar(a) is not None


def result_type(*arrays_and_dtypes: Any) -> dt.DType:
    """Dtype that promoting arrays, dtypes and Python scalars gives.

    Arrays and dtypes (or dtype names) are promoted first, then Python scalars
    onto the result; Python scalars alone give their default dtypes promoted.
    Mixes the standard leaves out promote as in NumPy (int64 with uint64 gives
    float64, bool with int8 gives int8).

    Parameters
    ----------
    *arrays_and_dtypes : Array, DType, str or scalar
        Operands to promote.

    Returns
    -------
    DType
        The promoted dtype.

    Raises
    ------
    TypeError
        If an operand is not an array, a dtype, a dtype name or a Python scalar.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.result_type(xp.int8, xp.uint8)
    arrstride.int16
    >>> xp.result_type(xp.asarray([1, 2]), 1.5)
    arrstride.float64
    """
    func = "result_type"
    out = None
    scalars = []
    for a in arrays_and_dtypes:
        if isinstance(a, (dt.builtins_bool, int, float, complex)) or _is_numpy_scalar(a):
            scalars.append(dt.python_scalar(a))  # NumPy scalars count as Python scalars
            continue
        d = _dtype_arg(func, a)
        out = d if out is None else dt.promote(out, d)
    if out is None:  # Python scalars alone (as NumPy): their default dtypes, promoted
        if not scalars:
            raise value_error(func, "needs at least one array, dtype or scalar")
        out = dt.scalar_dtype(scalars[0], func)
    for s in scalars:
        out = dt.scalar_result(out, s, func)
    return out
