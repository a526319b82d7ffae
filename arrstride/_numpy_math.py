"""NumPy's math functions that PyTorch has too, with NumPy's signatures and
results, built from arrstride's own elementwise functions and reductions."""
from __future__ import annotations

import math
import struct
from typing import Any, Optional, Tuple, Union

from . import _dtypes as dt
from ._array import Array, check_array
from ._creation_functions import asarray, full_like, ones_like, zeros_like
from ._data_type_functions import astype, result_type
from ._elementwise_functions import (
    abs, add, atan2, bitwise_and, ceil, computed_in, divide, equal, exp, floor, floor_divide,
    greater, imag, isfinite, isinf, isnan, less, less_equal, log1p, log2, logical_and, logical_not,
    logical_or, maximum, minimum, multiply, not_equal, pow, real, remainder, signbit, sin,
    subtract, trunc, where,
)
from ._errors import type_error, value_error
from ._statistical_functions import sum

Number = Union[int, float, complex]


def _operand(func: str, x: Any, name: str = "x") -> Array:
    if isinstance(x, (bool, int, float, complex)):
        return asarray(x)
    return check_array(func, x, name)


def _floating(func: str, x: Array, complex_ok: bool = False) -> Array:
    """x in the float dtype NumPy's float-only ufuncs compute it in (bool and
    8-bit integers: float16; 16-bit: float32; wider: float64)."""
    if x.dtype.kind == "c" and not complex_ok:
        raise type_error(func, "x must be real", f"dtype {x.dtype}")
    f = dt.float_for_int(x.dtype)
    return x if f == x.dtype else astype(x, f)


def _scaled(x: Array, num: float, den: float) -> Array:
    """x * (num / den) in x's float dtype; a narrow float (float16, bfloat16)
    is multiplied in float32 by the float32 constant and rounded once, as
    NumPy's float16 loops do."""
    d = x.dtype
    if dt.is_narrow(d):
        return computed_in(multiply, d.compute, d, x, _constant(d.compute, num, den))
    return multiply(x, _constant(d, num, den))


def _f32(v: float) -> float:
    return struct.unpack("f", struct.pack("f", v))[0]


def _constant(dtype: dt.DType, num: float, den: float) -> Array:
    """num / den as NumPy's float loops have it: in double for float64, from
    the float32 values of num and den for float32 (C's 180.0f / NPY_PIf)."""
    if dtype == dt.float32:
        return asarray(_f32(_f32(num) / _f32(den)), dtype=dt.float32)
    return asarray(num / den, dtype=dtype)


def _pair(func: str, x1: Any, x2: Any, kinds: str) -> Tuple[Array, Array, dt.DType]:
    """x1 and x2 as arrays of their common dtype (NumPy's promotion, Python
    scalars weak), refused unless its kind is in kinds."""
    a1 = x1 if isinstance(x1, Array) else None
    a2 = x2 if isinstance(x2, Array) else None
    if a1 is None and not isinstance(x1, (bool, int, float, complex)):
        a1 = check_array(func, x1, "x1")
    if a2 is None and not isinstance(x2, (bool, int, float, complex)):
        a2 = check_array(func, x2, "x2")
    if a1 is None and a2 is None:
        a1, a2 = asarray(x1), asarray(x2)
    rt = result_type(a1 if a1 is not None else x1, a2 if a2 is not None else x2)
    if rt.kind not in kinds:
        raise type_error(func, f"the operands' dtype must be of kind {kinds!r}", f"dtype {rt}")
    a1 = asarray(x1, dtype=rt) if a1 is None else (a1 if a1.dtype == rt else astype(a1, rt))
    a2 = asarray(x2, dtype=rt) if a2 is None else (a2 if a2.dtype == rt else astype(a2, rt))
    return a1, a2, rt


def _float_pair(func: str, x1: Any, x2: Any) -> Tuple[Array, Array]:
    a1, a2, rt = _pair(func, x1, x2, "biuf")
    f = dt.float_for_int(rt)
    return (a1, a2) if f == rt else (astype(a1, f), astype(a2, f))


def exp2(x: Array, /) -> Array:
    """Two to the power of each element of x.

    Not in the standard: NumPy's exp2 (pow(2, x)).

    Parameters
    ----------
    x : Array
        Input array; integers compute in the float NumPy picks. NumPy arrays are
        accepted too.

    Returns
    -------
    Array
        A new array of x's float dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.exp2(xp.asarray([0.0, 1.0, 3.0]))
    Array([1., 2., 8.])
    """
    x = _floating("exp2", _operand("exp2", x), complex_ok=True)
    return pow(2.0, x)


def fix(x: Array, /) -> Array:
    """Each element of x rounded toward zero.

    Not in the standard: NumPy's fix (the standard's trunc).

    Parameters
    ----------
    x : Array
        Real input array. NumPy arrays are accepted too.

    Returns
    -------
    Array
        A new array of x's dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fix(xp.asarray([-2.5, 2.5]))
    Array([-2.,  2.])
    """
    x = _operand("fix", x)
    if x.dtype.kind == "c":
        raise type_error("fix", "x must be real", f"dtype {x.dtype}")
    return trunc(x) if x.dtype.kind == "f" else astype(x, x.dtype, copy=True)


def float_power(x1: Array, x2: Array, /) -> Array:
    """First array raised to the power of the second, in float64 or complex128.

    Not in the standard: NumPy's float_power.

    Parameters
    ----------
    x1 : Array
        Bases. NumPy arrays and Python scalars are accepted too.
    x2 : Array
        Exponents, broadcast against x1.

    Returns
    -------
    Array
        A new float64 array (complex128 when an operand is complex).

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.float_power(xp.asarray([2, 3]), -1)
    Array([0.5       , 0.33333333])
    """
    a1, a2, rt = _pair("float_power", x1, x2, "biufc")
    t = dt.complex128 if rt.kind == "c" else dt.float64
    return pow(astype(a1, t), astype(a2, t))


def _complex_ge(a: Array, b: Array) -> Array:
    """a >= b in NumPy's lexicographic order of complex numbers (real part,
    then imaginary)."""
    ar, ai, br, bi = real(a), imag(a), real(b), imag(b)
    return logical_or(greater(ar, br), logical_and(equal(ar, br), logical_not(less(ai, bi))))


def fmax(x1: Array, x2: Array, /) -> Array:
    """Element-wise maximum that ignores NaNs.

    Not in the standard: NumPy's fmax (maximum, where a NaN loses to a number).

    Parameters
    ----------
    x1 : Array
        First input. NumPy arrays and Python scalars are accepted too.
    x2 : Array
        Second input, broadcast against x1.

    Returns
    -------
    Array
        A new array of the promoted dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fmax(xp.asarray([1.0, xp.nan, 3.0]), xp.asarray([2.0, 0.0, xp.nan]))
    Array([2., 0., 3.])
    """
    a1, a2, rt = _pair("fmax", x1, x2, "biufc")
    if rt.kind == "c":
        return where(logical_or(_complex_ge(a1, a2), isnan(a2)), a1, a2)
    m = maximum(a1, a2)
    if rt.kind != "f":
        return m
    return where(isnan(a2), a1, where(isnan(a1), a2, m))


def fmin(x1: Array, x2: Array, /) -> Array:
    """Element-wise minimum that ignores NaNs.

    Not in the standard: NumPy's fmin (minimum, where a NaN loses to a number).

    Parameters
    ----------
    x1 : Array
        First input. NumPy arrays and Python scalars are accepted too.
    x2 : Array
        Second input, broadcast against x1.

    Returns
    -------
    Array
        A new array of the promoted dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fmin(xp.asarray([1.0, xp.nan, 3.0]), xp.asarray([2.0, 0.0, xp.nan]))
    Array([1., 0., 3.])
    """
    a1, a2, rt = _pair("fmin", x1, x2, "biufc")
    if rt.kind == "c":
        return where(logical_or(_complex_ge(a2, a1), isnan(a2)), a1, a2)
    m = minimum(a1, a2)
    if rt.kind != "f":
        return m
    return where(isnan(a2), a1, where(isnan(a1), a2, m))


def fmod(x1: Array, x2: Array, /) -> Array:
    """Remainder of division with the sign of the dividend (C's fmod).

    Not in the standard: NumPy's fmod (the standard's remainder takes the
    divisor's sign). An integer divided by zero gives 0, as in NumPy.

    Parameters
    ----------
    x1 : Array
        Dividends. NumPy arrays and Python scalars are accepted too.
    x2 : Array
        Divisors, broadcast against x1.

    Returns
    -------
    Array
        A new array of the promoted dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.fmod(xp.asarray([-3, 3]), 2)
    Array([-1,  1])
    """
    a1, a2, rt = _pair("fmod", x1, x2, "biuf")
    if rt.kind == "b":
        a1, a2, rt = astype(a1, dt.int8), astype(a2, dt.int8), dt.int8
    r = remainder(a1, a2)
    if rt.kind == "u":
        return r
    # remainder moved a nonzero result of the wrong sign by one divisor
    moved = logical_and(not_equal(r, 0), not_equal(less(r, 0), less(a1, 0)))
    r = where(moved, subtract(r, a2), r)
    if rt.kind == "f":
        zero = equal(r, 0)
        r = where(zero, where(signbit(a1), -0.0, 0.0), r)
        r = where(isinf(a2) & isfinite(a1), a1, r)
    return astype(r, rt)


def _ldexp_float(m: Array, e: Array) -> Array:
    """m * 2**e without overflow of 2**e: the exponent applied in two steps."""
    e = astype(e, dt.int64) if e.dtype != dt.int64 else e
    f = m.dtype
    e = where(less(e, -2200), -2200, where(greater(e, 2200), 2200, e))
    half = floor_divide(e, 2)
    rest = subtract(e, half)
    return multiply(multiply(m, pow(2.0, astype(half, f))), pow(2.0, astype(rest, f)))


def ldexp(x1: Array, x2: Array, /) -> Array:
    """First array times two to the power of the second (integer) array.

    Not in the standard: NumPy's ldexp.

    Parameters
    ----------
    x1 : Array
        Mantissas (real; integers compute in the float NumPy picks). NumPy
        arrays and Python scalars are accepted too.
    x2 : Array
        Integer exponents, broadcast against x1.

    Returns
    -------
    Array
        A new array of x1's float dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.ldexp(xp.asarray([1.0, 0.75]), xp.asarray([3, -1]))
    Array([8.   , 0.375])
    """
    func = "ldexp"
    m = _operand(func, x1, "x1")
    e = _operand(func, x2, "x2")
    if e.dtype.kind not in "iub":
        raise type_error(func, "x2 must be integers", f"dtype {e.dtype}")
    m = _floating(func, m)
    return _ldexp_float(m, e)


def frexp(x: Array, /) -> Tuple[Array, Array]:
    """Mantissas and exponents of the elements of x: x == mantissa * 2**exponent.

    Not in the standard: NumPy's frexp. The mantissa's magnitude is in
    [0.5, 1); zeros, infinities and NaNs have exponent 0 and are their own
    mantissa.

    Parameters
    ----------
    x : Array
        Real input array. NumPy arrays are accepted too.

    Returns
    -------
    mantissa : Array
        A new array of x's float dtype.
    exponent : Array
        A new int32 array.

    Examples
    --------
    >>> import arrstride as xp
    >>> m, e = xp.frexp(xp.asarray([8.0, 0.375]))
    >>> m
    Array([0.5 , 0.75])
    >>> e
    Array([ 4, -1], dtype=int32)
    """
    func = "frexp"
    x = _floating(func, _operand(func, x))
    special = logical_or(equal(x, 0), logical_not(isfinite(x)))
    ax = where(special, 1.0, abs(x))
    calc = x if x.dtype != dt.float16 else astype(x, dt.float32)
    e = astype(floor(log2(where(special, 1.0, abs(calc)))), dt.int64) + 1
    for _ in range(2):  # log2 may miss by one next to a power of two
        m = abs(_ldexp_float(ax, -e))
        e = where(greater_equal_(m, 1.0), e + 1, where(less(m, 0.5), e - 1, e))
    m = where(special, x, _ldexp_float(x, -e))
    e = where(special, 0, e)
    return m, astype(e, dt.int32)


def greater_equal_(a: Array, b: Any) -> Array:
    return logical_not(less(a, b))


def _int_pair(func: str, x1: Any, x2: Any) -> Tuple[Array, Array]:
    a1, a2, rt = _pair(func, x1, x2, "iu")
    return a1, a2


def gcd(x1: Array, x2: Array, /) -> Array:
    """Greatest common divisor of the absolute values of two integer arrays.

    Not in the standard: NumPy's gcd (gcd(0, 0) is 0).

    Parameters
    ----------
    x1 : Array
        Integer array. NumPy arrays and Python ints are accepted too.
    x2 : Array
        Integer array, broadcast against x1.

    Returns
    -------
    Array
        A new array of the promoted integer dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.gcd(xp.asarray([12, 20, 0]), 8)
    Array([4, 4, 8])
    """
    from ._manipulation_functions import broadcast_arrays
    a, b = _int_pair("gcd", x1, x2)
    a, b = broadcast_arrays(abs(a), abs(b))
    while True:
        nz = not_equal(b, 0)
        if not bool(_any(nz)):
            return astype(a, a.dtype, copy=True)
        safe = where(nz, b, 1)
        a, b = where(nz, b, a), where(nz, remainder(a, safe), 0)


def _any(x: Array) -> Array:
    from ._utility_functions import any as any_
    return any_(x)


def lcm(x1: Array, x2: Array, /) -> Array:
    """Least common multiple of the absolute values of two integer arrays.

    Not in the standard: NumPy's lcm (0 when either is 0).

    Parameters
    ----------
    x1 : Array
        Integer array. NumPy arrays and Python ints are accepted too.
    x2 : Array
        Integer array, broadcast against x1.

    Returns
    -------
    Array
        A new array of the promoted integer dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.lcm(xp.asarray([4, 6, 0]), 10)
    Array([20, 30,  0])
    """
    a, b = _int_pair("lcm", x1, x2)
    g = gcd(a, b)
    return multiply(floor_divide(abs(a), where(equal(g, 0), 1, g)), abs(b))


def heaviside(x1: Array, x2: Array, /) -> Array:
    """Heaviside step function: 0 below zero, 1 above, x2 at zero.

    Not in the standard: NumPy's heaviside. NaN in x1 gives NaN.

    Parameters
    ----------
    x1 : Array
        Real input. NumPy arrays and Python scalars are accepted too.
    x2 : Array
        The value where x1 is 0, broadcast against x1.

    Returns
    -------
    Array
        A new array of the promoted float dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.heaviside(xp.asarray([-1.5, 0.0, 2.0]), 0.5)
    Array([0. , 0.5, 1. ])
    """
    a1, a2 = _float_pair("heaviside", x1, x2)
    out = where(less(a1, 0), 0.0, where(greater(a1, 0), 1.0, a2))
    return where(isnan(a1), a1, out)


# Chebyshev coefficients of the modified Bessel function of order zero
# (Cephes' i0.c, the table NumPy's i0 uses): A for |x| <= 8, B above.
_I0A = [
    -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
    1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
    9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
    -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
    1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
    -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
    1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
    -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
    1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1]
_I0B = [
    -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
    3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
    -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
    7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
    -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
    3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
    2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
    8.04490411014108831608E-1]


def _chbevl(x: Array, coefs) -> Array:
    b0 = zeros_like(x) + coefs[0]
    b1 = zeros_like(x)
    b2 = b1
    for c in coefs[1:]:
        b2 = b1
        b1 = b0
        b0 = add(subtract(multiply(x, b1), b2), c)
    return multiply(subtract(b0, b2), 0.5)


def i0(x: Array, /) -> Array:
    """Modified Bessel function of the first kind, order 0, of each element.

    Not in the standard: NumPy's i0 (Cephes' Chebyshev expansions, as NumPy).

    Parameters
    ----------
    x : Array
        Real input array; integers compute in float64. NumPy arrays are
        accepted too.

    Returns
    -------
    Array
        A new array of x's float dtype (float64 for integers).

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.i0(xp.asarray([0.0, 1.0]))
    Array([1.        , 1.26606588])
    """
    x = _operand("i0", x)
    if x.dtype.kind == "c":
        raise type_error("i0", "x must be real", f"dtype {x.dtype}")
    if x.dtype.kind != "f":
        x = astype(x, dt.float64)
    x = abs(x)
    small = less_equal(x, 8.0)
    xs = where(small, x, 8.0)
    xl = where(small, 9.0, x)
    a = multiply(exp(xs), _chbevl(subtract(divide(xs, 2.0), 2.0), _I0A))
    from ._elementwise_functions import sqrt
    b = divide(multiply(exp(xl), _chbevl(subtract(divide(32.0, xl), 2.0), _I0B)), sqrt(xl))
    return where(small, a, b)


def sinc(x: Array, /) -> Array:
    """Normalised sinc function, sin(pi x) / (pi x), 1 at 0.

    Not in the standard: NumPy's sinc.

    Parameters
    ----------
    x : Array
        Input array; integers compute in float64. NumPy arrays are accepted too.

    Returns
    -------
    Array
        A new array of x's float dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.sinc(xp.asarray([0.0, 0.5, 1.0]))
    Array([1.00000000e+00, 6.36619772e-01, 3.89817183e-17])
    """
    x = _operand("sinc", x)
    if x.dtype.kind in "biu":
        x = astype(x, dt.float64)
    y = multiply(math.pi, where(equal(x, 0), 1.0e-20, x))
    return divide(sin(y), y)


def logaddexp2(x1: Array, x2: Array, /) -> Array:
    """Base-2 logarithm of the sum of two to the power of each input: log2(2**x1 + 2**x2).

    Not in the standard: NumPy's logaddexp2, computed without overflow.

    Parameters
    ----------
    x1 : Array
        Real input. NumPy arrays and Python scalars are accepted too.
    x2 : Array
        Real input, broadcast against x1.

    Returns
    -------
    Array
        A new array of the promoted float dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.logaddexp2(xp.asarray([1.0, 1000.0]), xp.asarray([1.0, 1000.0]))
    Array([   2., 1001.])
    """
    a1, a2 = _float_pair("logaddexp2", x1, x2)
    same = equal(a1, a2)
    d = where(same, 0.0, abs(subtract(a1, a2)))
    out = add(maximum(a1, a2), multiply(log1p(pow(2.0, -d)), 1.0 / math.log(2.0)))
    return where(same, add(a1, 1.0), out)


def deg2rad(x: Array, /) -> Array:
    """Angles in degrees converted to radians.

    Not in the standard: NumPy's deg2rad (and radians).

    Parameters
    ----------
    x : Array
        Real input array. NumPy arrays are accepted too.

    Returns
    -------
    Array
        A new array of x's float dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.deg2rad(xp.asarray([180.0, 90.0]))
    Array([3.14159265, 1.57079633])
    """
    x = _floating("deg2rad", _operand("deg2rad", x))
    return _scaled(x, math.pi, 180.0)


def rad2deg(x: Array, /) -> Array:
    """Angles in radians converted to degrees.

    Not in the standard: NumPy's rad2deg (and degrees).

    Parameters
    ----------
    x : Array
        Real input array. NumPy arrays are accepted too.

    Returns
    -------
    Array
        A new array of x's float dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.rad2deg(xp.asarray([xp.pi, xp.pi / 2]))
    Array([180.,  90.])
    """
    x = _floating("rad2deg", _operand("rad2deg", x))
    return _scaled(x, 180.0, math.pi)


def angle(z: Array, deg: bool = False) -> Array:
    """Angle of each complex element, atan2(imag, real).

    Not in the standard: NumPy's angle. Real input has angle 0 or pi.

    Parameters
    ----------
    z : Array
        Input array. NumPy arrays are accepted too.
    deg : bool, optional
        Angles in degrees rather than radians; default False.

    Returns
    -------
    Array
        A new real float array.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.angle(xp.asarray([1.0 + 1.0j, -1.0]))
    Array([0.78539816, 3.14159265])
    """
    z = _operand("angle", z, "z")
    if z.dtype.kind == "c":
        zr, zi = real(z), imag(z)
    else:
        # NumPy: atan2(0, z), the Python 0 promoting bool to int64
        zr = astype(z, dt.float64) if z.dtype.kind == "b" else _floating("angle", z)
        zi = zeros_like(zr)
    a = atan2(zi, zr)
    return multiply(a, 180.0 / math.pi) if deg else a


def isclose(a: Array, b: Array, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Array:
    """Whether each pair of elements is equal within a tolerance.

    Not in the standard: NumPy's isclose, abs(a - b) <= atol + rtol * abs(b)
    (not symmetric), infinities equal only to themselves.

    Parameters
    ----------
    a : Array
        First input. NumPy arrays and Python scalars are accepted too.
    b : Array
        Second input (the reference), broadcast against a.
    rtol : float, optional
        Relative tolerance; default 1e-05.
    atol : float, optional
        Absolute tolerance; default 1e-08.
    equal_nan : bool, optional
        Count NaNs in the same place as equal; default False.

    Returns
    -------
    Array
        A new bool array of the broadcast shape.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.isclose(xp.asarray([1.0, 1.1, xp.nan]), xp.asarray([1.0 + 1e-9, 1.0, xp.nan]))
    Array([ True, False, False])
    """
    func = "isclose"
    x = _operand(func, a, "a")
    y = _operand(func, b, "b")
    if y.dtype.kind in "biu":
        y = astype(y, dt.float64)
    if x.dtype.kind == "b":
        x = astype(x, dt.float64)
    close = less_equal(abs(subtract(x, y)), add(atol, multiply(rtol, abs(y))))
    out = logical_or(logical_and(close, isfinite(y)), equal(x, y))
    if equal_nan:
        out = logical_or(out, logical_and(isnan(x), isnan(y)))
    return out


def allclose(a: Array, b: Array, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """Whether all pairs of elements are equal within a tolerance.

    Not in the standard: NumPy's allclose, all(isclose(...)).

    Parameters
    ----------
    a : Array
        First input. NumPy arrays and Python scalars are accepted too.
    b : Array
        Second input (the reference), broadcast against a.
    rtol : float, optional
        Relative tolerance; default 1e-05.
    atol : float, optional
        Absolute tolerance; default 1e-08.
    equal_nan : bool, optional
        Count NaNs in the same place as equal; default False.

    Returns
    -------
    bool
        A Python bool.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.allclose(xp.asarray([1.0, 2.0]), xp.asarray([1.0, 2.0 + 1e-9]))
    True
    """
    from ._utility_functions import all as all_
    return bool(all_(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def nan_to_num(x: Array, copy: bool = True, nan: float = 0.0, posinf: Optional[float] = None,
               neginf: Optional[float] = None) -> Array:
    """NaNs and infinities of x replaced by finite numbers.

    Not in the standard: NumPy's nan_to_num. Complex arrays have their real and
    imaginary parts replaced separately.

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too.
    copy : bool, optional
        True (the default): return a new array; False: replace in x itself
        and return x.
    nan : float, optional
        Replaces NaN; default 0.0.
    posinf : float, optional
        Replaces positive infinity; default the dtype's largest finite value.
    neginf : float, optional
        Replaces negative infinity; default the dtype's most negative finite value.

    Returns
    -------
    Array
        An array of x's dtype.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.nan_to_num(xp.asarray([xp.nan, xp.inf, -xp.inf, 1.0]), posinf=9.0, neginf=-9.0)
    Array([ 0.,  9., -9.,  1.])
    """
    from ._data_type_functions import finfo
    x = _operand("nan_to_num", x)
    if x.dtype.kind not in "fc":
        return astype(x, x.dtype, copy=True) if copy else x
    big = finfo(dt.real_of(x.dtype)).max

    def clean(v: Array) -> Array:
        v = where(isnan(v), nan, v)
        v = where(logical_and(isinf(v), logical_not(signbit(v))), big if posinf is None else posinf, v)
        return where(logical_and(isinf(v), signbit(v)), -big if neginf is None else neginf, v)

    if x.dtype.kind == "c":
        out = add(astype(clean(real(x)), x.dtype), multiply(astype(clean(imag(x)), x.dtype), 1j))
    else:
        out = clean(x)
    if copy:
        return out
    x[...] = out
    return x


def isposinf(x: Array, /) -> Array:
    """Whether each element of x is positive infinity.

    Not in the standard: NumPy's isposinf (real input only).

    Parameters
    ----------
    x : Array
        Real input array. NumPy arrays are accepted too.

    Returns
    -------
    Array
        A new bool array of x's shape.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.isposinf(xp.asarray([xp.inf, -xp.inf, 1.0]))
    Array([ True, False, False])
    """
    x = _operand("isposinf", x)
    if x.dtype.kind == "c":
        raise type_error("isposinf", "x must be real", f"dtype {x.dtype}")
    return logical_and(isinf(x), logical_not(signbit(x))) if x.dtype.kind == "f" \
        else zeros_like(x, dtype=dt.bool)


def isneginf(x: Array, /) -> Array:
    """Whether each element of x is negative infinity.

    Not in the standard: NumPy's isneginf (real input only).

    Parameters
    ----------
    x : Array
        Real input array. NumPy arrays are accepted too.

    Returns
    -------
    Array
        A new bool array of x's shape.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.isneginf(xp.asarray([xp.inf, -xp.inf, 1.0]))
    Array([False,  True, False])
    """
    x = _operand("isneginf", x)
    if x.dtype.kind == "c":
        raise type_error("isneginf", "x must be real", f"dtype {x.dtype}")
    return logical_and(isinf(x), signbit(x)) if x.dtype.kind == "f" \
        else zeros_like(x, dtype=dt.bool)


def isreal(x: Array, /) -> Array:
    """Whether each element of x has a zero imaginary part.

    Not in the standard: NumPy's isreal (every element of a real array is real).

    Parameters
    ----------
    x : Array
        Input array. NumPy arrays are accepted too.

    Returns
    -------
    Array
        A new bool array of x's shape.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.isreal(xp.asarray([1.0 + 0.0j, 1.0 + 1.0j]))
    Array([ True, False])
    """
    x = _operand("isreal", x)
    if x.dtype.kind == "c":
        return equal(imag(x), 0)
    return ones_like(x, dtype=dt.bool)


def trapezoid(y: Array, x: Optional[Array] = None, dx: float = 1.0, axis: int = -1) -> Array:
    """Integral of y along an axis by the trapezoidal rule.

    Not in the standard: NumPy's trapezoid.

    Parameters
    ----------
    y : Array
        Values to integrate. NumPy arrays are accepted too.
    x : Array, optional
        Sample points: 1-D of y's length along axis, or y's shape; default
        points dx apart.
    dx : float, optional
        Spacing of the sample points when x is None; default 1.0.
    axis : int, optional
        Axis to integrate along; default the last.

    Returns
    -------
    Array
        A new array with axis removed.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.trapezoid(xp.asarray([1.0, 2.0, 3.0]))
    Array(4.)
    >>> xp.trapezoid(xp.asarray([1.0, 2.0, 3.0]), x=xp.asarray([0.0, 1.0, 3.0]))
    Array(6.5)
    """
    from ._args import normalize_axis
    from ._manipulation_functions import reshape
    from ._utility_functions import diff
    func = "trapezoid"
    y = _operand(func, y, "y")
    axis = normalize_axis(func, axis, y.ndim)
    if x is None:
        d: Any = dx
    else:
        xa = _operand(func, x, "x")
        if xa.ndim == 1:
            d = diff(xa)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = reshape(d, tuple(shape))
        else:
            d = diff(xa, axis=axis)
    lo = [slice(None)] * y.ndim
    hi = [slice(None)] * y.ndim
    lo[axis] = slice(None, -1)
    hi[axis] = slice(1, None)
    if y.dtype.kind in "bi" or y.dtype.kind == "u":
        y = astype(y, dt.float64)
    return sum(divide(multiply(d, add(y[tuple(hi)], y[tuple(lo)])), 2.0), axis=axis)
