"""The docstrings of the generated elementwise functions, in numpydoc form.

`_elementwise_functions._unary` and `_binary` call `unary_doc` and
`binary_doc` with the tables that define each function (the dtypes it takes,
the dtype each one gives, the integer-to-float rule, the bool kernel), so the
Parameters, Returns and Raises sections follow the definition: a new
elementwise function gets a complete docstring from its one line of
definition. Only the one-line summary (and an optional remark) is written
here by hand, in SUMMARIES, and the Examples section, in EXAMPLES; a name
missing from SUMMARIES still gets a numpydoc docstring, with a generic
summary, but tests/test_docs.py requires an Examples section of every public
function.
"""
from __future__ import annotations

import textwrap
from typing import Dict, Iterable, Optional, Tuple

from . import _dtypes as dt

# name -> (summary line, remark or None). The remark says what arrstride adds
# to the standard's definition, or what a user should know.
SUMMARIES: Dict[str, Tuple[str, Optional[str]]] = {
    "abs": ("Absolute value of each element.",
            "For complex input, the magnitude, in the real dtype of the same precision. "
            "The absolute value of the most negative integer is itself, as in NumPy."),
    "acos": ("Inverse cosine of each element, in radians.", None),
    "acosh": ("Inverse hyperbolic cosine of each element.", None),
    "asin": ("Inverse sine of each element, in radians.", None),
    "asinh": ("Inverse hyperbolic sine of each element.", None),
    "atan": ("Inverse tangent of each element, in radians.", None),
    "atanh": ("Inverse hyperbolic tangent of each element.", None),
    "bitwise_invert": ("Bitwise NOT of each element (logical NOT for bool).", None),
    "ceil": ("Smallest integer not less than each element.",
             "Integer input is returned unchanged, in a new array."),
    "cos": ("Cosine of each element, given in radians.", None),
    "cosh": ("Hyperbolic cosine of each element.", None),
    "exp": ("Exponential of each element, e**x.", None),
    "expm1": ("Exponential minus one, exp(x) - 1, of each element, accurate near 0.", None),
    "floor": ("Largest integer not greater than each element.",
              "Integer input is returned unchanged, in a new array."),
    "isfinite": ("Whether each element is finite (not NaN nor infinite).",
                 "Integers are always finite; a complex number is finite when both parts are."),
    "isinf": ("Whether each element is positive or negative infinity.",
              "A complex number is infinite when either part is."),
    "isnan": ("Whether each element is NaN.", "A complex number is NaN when either part is."),
    "log": ("Natural logarithm of each element.", None),
    "log10": ("Base-10 logarithm of each element.", None),
    "log1p": ("Natural logarithm of 1 + x for each element, accurate near 0.", None),
    "log2": ("Base-2 logarithm of each element.", None),
    "logical_not": ("Logical NOT of each element of a bool array.", None),
    "negative": ("Numerical negative of each element, -x.",
                 "Integers wrap around: the negative of the most negative value is itself."),
    "positive": ("Numerical positive of each element, +x (a copy).", None),
    "reciprocal": ("Reciprocal of each element, 1 / x.", None),
    "sign": ("Sign of each element: -1, 0 or 1 (x / abs(x) for complex).",
             "NaN gives NaN; for complex input the result is x / abs(x) (0 for 0)."),
    "signbit": ("Whether the sign bit of each element is set.",
                "True for -0.0 and for NaNs with the sign bit set, as in C's signbit."),
    "sin": ("Sine of each element, given in radians.", None),
    "sinh": ("Hyperbolic sine of each element.", None),
    "sqrt": ("Square root of each element.", None),
    "square": ("Square of each element, x * x.", None),
    "tan": ("Tangent of each element, given in radians.", None),
    "tanh": ("Hyperbolic tangent of each element.", None),
    "trunc": ("Each element rounded toward zero.",
              "Integer input is returned unchanged, in a new array."),
    "conj": ("Complex conjugate of each element.", None),
    "add": ("Sum of each pair of elements, x1 + x2.", None),
    "atan2": ("Inverse tangent of x1 / x2, with the quadrant from both signs.",
              "The angle in radians, in [-pi, pi]."),
    "bitwise_and": ("Bitwise AND of each pair of elements (logical AND for bool).", None),
    "bitwise_left_shift": ("Each element of x1 shifted left by x2 bits.",
                           "Shifts by at least the bit width, or by a negative amount, give 0."),
    "bitwise_or": ("Bitwise OR of each pair of elements (logical OR for bool).", None),
    "bitwise_right_shift": ("Each element of x1 shifted right by x2 bits (arithmetic shift).",
                            "Shifts by at least the bit width give 0, or -1 for negative "
                            "values (the sign fill)."),
    "bitwise_xor": ("Bitwise XOR of each pair of elements (logical XOR for bool).", None),
    "copysign": ("Magnitude of x1 with the sign of x2, elementwise.", None),
    "divide": ("True division of each pair of elements, x1 / x2.",
               "Integer and bool operands are divided in float64, as in NumPy."),
    "equal": ("Whether each pair of elements is equal, x1 == x2.", None),
    "floor_divide": ("Floor of x1 / x2 for each pair of elements, x1 // x2.",
                     "Integer division by zero gives 0, as in NumPy (without its warning)."),
    "greater": ("Whether x1 > x2 for each pair of elements.", None),
    "greater_equal": ("Whether x1 >= x2 for each pair of elements.", None),
    "hypot": ("Square root of x1**2 + x2**2, without undue overflow or underflow.", None),
    "less": ("Whether x1 < x2 for each pair of elements.", None),
    "less_equal": ("Whether x1 <= x2 for each pair of elements.", None),
    "logaddexp": ("Logarithm of exp(x1) + exp(x2) for each pair, without overflow.", None),
    "logical_and": ("Logical AND of each pair of elements of bool arrays.", None),
    "logical_or": ("Logical OR of each pair of elements of bool arrays.", None),
    "logical_xor": ("Logical XOR of each pair of elements of bool arrays.", None),
    "maximum": ("Larger of each pair of elements; NaN if either is NaN.", None),
    "minimum": ("Smaller of each pair of elements; NaN if either is NaN.", None),
    "multiply": ("Product of each pair of elements, x1 * x2.", None),
    "nextafter": ("Next floating-point value after x1 toward x2, elementwise.", None),
    "not_equal": ("Whether each pair of elements differs, x1 != x2.", None),
    "pow": ("Each element of x1 raised to the power x2.",
            "An integer base with a negative integer exponent gives 0 when abs(x1) > 1 "
            "(the standard leaves it unspecified; NumPy refuses it)."),
    "remainder": ("Remainder of x1 // x2 for each pair, with the sign of x2 (Python's %).",
                  "Integer remainder by zero gives 0, as in NumPy (without its warning)."),
    "subtract": ("Difference of each pair of elements, x1 - x2.",
                 "Two bool operands are refused, as in NumPy and PyTorch: use logical_xor."),
}

# name -> the related functions its See Also section names (the same table for every
# generated docstring; a name missing here gets no See Also section).
RELATED: Dict[str, Tuple[str, ...]] = {
    "abs": ("sign",), "acos": ("cos",), "acosh": ("cosh",), "asin": ("sin",),
    "asinh": ("sinh",), "atan": ("atan2", "tan"), "atanh": ("tanh",), "atan2": ("atan",),
    "ceil": ("floor", "trunc", "round"), "floor": ("ceil", "trunc", "round"),
    "trunc": ("floor", "ceil", "round"), "cos": ("acos", "sin"), "sin": ("asin", "cos"),
    "tan": ("atan",), "cosh": ("acosh",), "sinh": ("asinh",), "tanh": ("atanh",),
    "exp": ("expm1", "log"), "expm1": ("exp", "log1p"), "log": ("exp", "log1p", "log2", "log10"),
    "log1p": ("log", "expm1"), "log2": ("log",), "log10": ("log",),
    "logaddexp": ("log", "exp"), "sqrt": ("square", "pow"), "square": ("sqrt", "multiply"),
    "pow": ("sqrt", "exp"), "reciprocal": ("divide",), "isfinite": ("isinf", "isnan"),
    "isinf": ("isfinite", "isnan"), "isnan": ("isfinite", "isinf"),
    "add": ("subtract",), "subtract": ("add", "negative"), "multiply": ("divide",),
    "divide": ("floor_divide", "multiply"), "floor_divide": ("remainder", "divide"),
    "remainder": ("floor_divide",), "maximum": ("minimum", "max"),
    "minimum": ("maximum", "min"), "equal": ("not_equal",), "not_equal": ("equal",),
    "greater": ("less",), "greater_equal": ("less_equal",), "less": ("greater",),
    "less_equal": ("greater_equal",), "logical_and": ("bitwise_and",),
    "logical_or": ("bitwise_or",), "logical_xor": ("bitwise_xor",),
    "logical_not": ("bitwise_invert",), "negative": ("positive", "subtract"),
    "sign": ("abs", "copysign"), "copysign": ("sign", "signbit"), "signbit": ("copysign",),
    "bitwise_left_shift": ("bitwise_right_shift",),
    "bitwise_right_shift": ("bitwise_left_shift",), "hypot": ("sqrt",),
}

# name -> its Examples section: (statement, what it prints) pairs, run as doctests by
# tests/test_docs.py after "import arrstride as xp" (the section's first line).
EXAMPLES: Dict[str, Tuple[Tuple[str, str], ...]] = {
    "abs": (("xp.abs(xp.asarray([-1.5, 0.0, 2.0]))", "Array([1.5, 0. , 2. ])"),),
    "acos": (("xp.acos(xp.asarray([1.0, 0.0, -1.0]))",
              "Array([0.        , 1.57079633, 3.14159265])"),),
    "acosh": (("xp.acosh(xp.asarray([1.0, 2.0]))", "Array([0.       , 1.3169579])"),),
    "asin": (("xp.asin(xp.asarray([0.0, 1.0]))", "Array([0.        , 1.57079633])"),),
    "asinh": (("xp.asinh(xp.asarray([0.0, 1.0]))", "Array([0.        , 0.88137359])"),),
    "atan": (("xp.atan(xp.asarray([0.0, 1.0]))", "Array([0.        , 0.78539816])"),),
    "atanh": (("xp.atanh(xp.asarray([0.0, 0.5]))", "Array([0.        , 0.54930614])"),),
    "bitwise_invert": (("xp.bitwise_invert(xp.asarray([0, 1, -2]))",
                        "Array([-1, -2,  1])"),
                       ("xp.bitwise_invert(xp.asarray([True, False]))",
                        "Array([False,  True])")),
    "ceil": (("xp.ceil(xp.asarray([-1.5, 0.2, 2.0]))", "Array([-1.,  1.,  2.])"),),
    "cos": (("xp.cos(xp.asarray([0.0, xp.pi]))", "Array([ 1., -1.])"),),
    "cosh": (("xp.cosh(xp.asarray([0.0, 1.0]))", "Array([1.        , 1.54308063])"),),
    "exp": (("xp.exp(xp.asarray([0.0, 1.0]))", "Array([1.        , 2.71828183])"),),
    "expm1": (("xp.expm1(xp.asarray([0.0, 1e-10]))", "Array([0.e+00, 1.e-10])"),),
    "floor": (("xp.floor(xp.asarray([-1.5, 0.2, 2.0]))", "Array([-2.,  0.,  2.])"),),
    "isfinite": (("xp.isfinite(xp.asarray([1.0, xp.inf, xp.nan]))",
                  "Array([ True, False, False])"),),
    "isinf": (("xp.isinf(xp.asarray([1.0, xp.inf, -xp.inf, xp.nan]))",
               "Array([False,  True,  True, False])"),),
    "isnan": (("xp.isnan(xp.asarray([1.0, xp.inf, xp.nan]))", "Array([False, False,  True])"),),
    "log": (("xp.log(xp.asarray([1.0, xp.e]))", "Array([0., 1.])"),),
    "log10": (("xp.log10(xp.asarray([1.0, 10.0, 1000.0]))", "Array([0., 1., 3.])"),),
    "log1p": (("xp.log1p(xp.asarray([0.0, 1e-10]))", "Array([0.e+00, 1.e-10])"),),
    "log2": (("xp.log2(xp.asarray([1.0, 8.0, 0.5]))", "Array([ 0.,  3., -1.])"),),
    "logical_not": (("xp.logical_not(xp.asarray([True, False]))",
                     "Array([False,  True])"),
                    ("xp.logical_not(xp.asarray([0, 2]))",
                     "Array([ True, False])")),
    "negative": (("xp.negative(xp.asarray([1, -2, 0]))", "Array([-1,  2,  0])"),),
    "positive": (("xp.positive(xp.asarray([1, -2]))", "Array([ 1, -2])"),),
    "reciprocal": (("xp.reciprocal(xp.asarray([2.0, 0.5, 4.0]))", "Array([0.5 , 2.  , 0.25])"),),
    "sign": (("xp.sign(xp.asarray([-3.0, 0.0, 2.5]))", "Array([-1.,  0.,  1.])"),),
    "signbit": (("xp.signbit(xp.asarray([-1.0, -0.0, 0.0, 2.0]))",
                 "Array([ True,  True, False, False])"),),
    "sin": (("xp.sin(xp.asarray([0.0, xp.pi / 2]))", "Array([0., 1.])"),),
    "sinh": (("xp.sinh(xp.asarray([0.0, 1.0]))", "Array([0.        , 1.17520119])"),),
    "sqrt": (("xp.sqrt(xp.asarray([4.0, 2.0]))", "Array([2.        , 1.41421356])"),),
    "square": (("xp.square(xp.asarray([-3, 4]))", "Array([ 9, 16])"),),
    "tan": (("xp.tan(xp.asarray([0.0, xp.pi / 4]))", "Array([0., 1.])"),),
    "tanh": (("xp.tanh(xp.asarray([0.0, 1.0]))", "Array([0.        , 0.76159416])"),),
    "trunc": (("xp.trunc(xp.asarray([-1.7, 1.7]))", "Array([-1.,  1.])"),),
    "add": (("xp.add(xp.asarray([1, 2, 3]), 10)", "Array([11, 12, 13])"),),
    "atan2": (("xp.atan2(xp.asarray([1.0, -1.0]), xp.asarray([-1.0, -1.0]))",
               "Array([ 2.35619449, -2.35619449])"),),
    "bitwise_and": (("xp.bitwise_and(xp.asarray([12, 10]), 6)", "Array([4, 2])"),),
    "bitwise_left_shift": (("xp.bitwise_left_shift(xp.asarray([1, 3]), 2)", "Array([ 4, 12])"),),
    "bitwise_or": (("xp.bitwise_or(xp.asarray([12, 10]), 6)", "Array([14, 14])"),),
    "bitwise_right_shift": (("xp.bitwise_right_shift(xp.asarray([16, -16]), 2)",
                             "Array([ 4, -4])"),),
    "bitwise_xor": (("xp.bitwise_xor(xp.asarray([12, 10]), 6)", "Array([10, 12])"),),
    "copysign": (("xp.copysign(xp.asarray([1.0, 2.0]), xp.asarray([-0.0, 3.0]))",
                  "Array([-1.,  2.])"),),
    "divide": (("xp.divide(xp.asarray([1, 3]), 2)", "Array([0.5, 1.5])"),),
    "equal": (("xp.equal(xp.asarray([1, 2, 3]), xp.asarray([1, 0, 3]))",
               "Array([ True, False,  True])"),),
    "floor_divide": (("xp.floor_divide(xp.asarray([7, -7, 7]), xp.asarray([2, 2, 0]))",
                      "Array([ 3, -4,  0])"),),
    "greater": (("xp.greater(xp.asarray([1, 2, 3]), 2)", "Array([False, False,  True])"),),
    "greater_equal": (("xp.greater_equal(xp.asarray([1, 2, 3]), 2)",
                       "Array([False,  True,  True])"),),
    "hypot": (("xp.hypot(xp.asarray([3.0, 5.0]), xp.asarray([4.0, 12.0]))", "Array([ 5., 13.])"),),
    "less": (("xp.less(xp.asarray([1, 2, 3]), 2)", "Array([ True, False, False])"),),
    "less_equal": (("xp.less_equal(xp.asarray([1, 2, 3]), 2)", "Array([ True,  True, False])"),),
    "logaddexp": (("xp.logaddexp(xp.asarray([1.0, 800.0]), xp.asarray([1.0, 800.0]))",
                   "Array([  1.69314718, 800.69314718])"),),
    "logical_and": (("xp.logical_and(xp.asarray([True, True, False]), "
                     "xp.asarray([True, False, False]))",
                     "Array([ True, False, False])"),),
    "logical_or": (("xp.logical_or(xp.asarray([True, True, False]), "
                    "xp.asarray([True, False, False]))",
                    "Array([ True,  True, False])"),),
    "logical_xor": (("xp.logical_xor(xp.asarray([True, True, False]), "
                     "xp.asarray([True, False, False]))",
                     "Array([False,  True, False])"),),
    "maximum": (("xp.maximum(xp.asarray([1.0, 5.0, xp.nan]), xp.asarray([3.0, 2.0, 0.0]))",
                 "Array([ 3.,  5., nan])"),),
    "minimum": (("xp.minimum(xp.asarray([1.0, 5.0, xp.nan]), xp.asarray([3.0, 2.0, 0.0]))",
                 "Array([ 1.,  2., nan])"),),
    "multiply": (("xp.multiply(xp.asarray([1, 2, 3]), xp.asarray([4, 5, 6]))",
                  "Array([ 4, 10, 18])"),),
    "nextafter": (("xp.nextafter(xp.asarray([1.0, 1.0]), xp.asarray([2.0, 0.0])) - 1.0",
                   "Array([ 2.22044605e-16, -1.11022302e-16])"),),
    "not_equal": (("xp.not_equal(xp.asarray([1, 2, 3]), 2)", "Array([ True, False,  True])"),),
    "pow": (("xp.pow(xp.asarray([1, 2, 3]), 2)",
             "Array([1, 4, 9])"),
            ("xp.pow(2.0, xp.asarray([0.5, -1.0]))",
             "Array([1.41421356, 0.5       ])")),
    "remainder": (("xp.remainder(xp.asarray([7, -7, 7]), xp.asarray([3, 3, 0]))",
                   "Array([1, 2, 0])"),),
    "subtract": (("xp.subtract(xp.asarray([5, 3]), xp.asarray([1, 4]))", "Array([ 4, -1])"),),
}

_ORDER = list(dt.ALL)


def _listing(dtypes: Iterable) -> str:
    """'any ... dtype' for a whole category, else 'dtype a, b or c' (table order)."""
    ds = set(dtypes)
    for label, group in (("any dtype", dt.ALL), ("any numeric dtype", dt.NUMERIC),
                         ("any integer dtype", dt.INTEGER),
                         ("any integer or real floating-point dtype",
                          dt.INTEGER + dt.REAL_FLOAT),
                         ("any integer dtype or bool", dt.INTEGER + (dt.bool,)),
                         ("any numeric dtype or bool", dt.NUMERIC + (dt.bool,)),
                         ("any real-valued dtype or bool",
                          dt.INTEGER + dt.REAL_FLOAT + (dt.bool,))):
        if ds == set(group):
            return label
    names = [d.name for d in _ORDER if d in ds]
    return "dtype " + ", ".join(names[:-1]) + (" or " if len(names) > 1 else "") + names[-1]


def _result_dtype(table: dict, unary: bool, ints_to_float=False) -> str:
    """What the Returns section says of the result's dtype, from the kernel table."""
    outs = set(table.values())
    if outs == {dt.bool}:
        return "dtype bool"
    same = "x's dtype" if unary else "the promoted dtype of x1 and x2"
    if ints_to_float is True:
        same += " (float64 for integer and bool operands)"
    elif ints_to_float:
        same += " (for integers and bool, the floating-point dtype above)"
    changed = sorted(((i, o) for i, o in table.items() if i is not o),
                     key=lambda io: _ORDER.index(io[0]))
    if not changed:
        return same
    rest = " and ".join(f"{o.name} for {i.name}" for i, o in changed)
    return f"{same} ({rest})"


def _para(text: str, indent: str = "") -> list:
    return textwrap.wrap(text, 79, initial_indent=indent, subsequent_indent=indent,
                         break_on_hyphens=False)


def _see_also(name: str) -> list:
    related = RELATED.get(name)
    return ["", "See Also", "--------", ", ".join(related)] if related else []


def _examples(name: str) -> list:
    pairs = EXAMPLES.get(name)
    if not pairs:
        return []
    lines = ["", "Examples", "--------", ">>> import arrstride as xp"]
    for statement, shown in pairs:
        lines += [">>> " + statement, *shown.split("\n")]
    return lines


def _head(name: str, arity: int) -> list:
    if name in SUMMARIES:
        summary, remark = SUMMARIES[name]
    else:
        summary, remark = f"Elementwise {name} of {'x' if arity == 1 else 'x1 and x2'}.", None
    lines = [summary, ""]
    if remark:
        lines += _para(remark) + [""]
    return lines


_INT_FLOAT = ("Integer and bool input is computed in the floating-point dtype that holds "
              "its values (float32 for bool and 8- and 16-bit integers, float64 for wider "
              "ones), as in NumPy; the standard leaves it unspecified.")
_NUMPY_IN = "NumPy arrays and scalars are accepted too (arrays without a copy)."


_TRUTH = ("Arrays of other dtypes are read as their truth, x != 0 (NaN counts as true), "
          "as in NumPy and PyTorch.")


def unary_doc(name: str, category: str, table: dict, ints_to_float: bool = False,
              truthy: bool = False) -> str:
    """The numpydoc docstring of the unary elementwise function `name`:
    category is its dtype rule as messages name it, table maps each input
    dtype with a kernel to the result's dtype; truthy: a logical function
    that reads other dtypes as their truth."""
    lines = _head(name, 1)
    if ints_to_float:
        lines += _para(_INT_FLOAT) + [""]
    if truthy:
        lines += _para(_TRUTH) + [""]
    taken = _listing(table)
    if ints_to_float:
        taken += ", or an integer or bool dtype (see above)"
    if truthy:
        taken += ", or of any other dtype (see above)"
    lines += ["Parameters", "----------", "x : Array"]
    lines += _para(f"Input array of {taken}. {_NUMPY_IN}", "    ")
    lines += ["", "Returns", "-------", "Array"]
    lines += _para(f"A new array of x's shape and {_result_dtype(table, True, ints_to_float and 'held')}, in x's "
                   "memory order.", "    ")
    lines += ["", "Raises", "------", "TypeError"]
    lines += _para("If x is not an array." if truthy else
                   "If x is not an array, or its dtype is not one of those above "
                   f"({category}).", "    ")
    lines += _see_also(name)
    lines += _examples(name)
    return "\n".join(lines) + "\n"


def binary_doc(name: str, category: str, table: dict, allowed: Iterable,
               ints_to_float=False, bool_op: Optional[str] = None, bools: bool = False,
               truthy: bool = False) -> str:
    """The numpydoc docstring of the binary elementwise function `name`.
    table maps each promoted dtype with a kernel to the result's dtype;
    allowed holds every operand dtype taken; ints_to_float is the integer rule
    (True: float64, "held": the float that holds them); bool_op names the
    kernel two bool operands use; bools: bool operands count as 0 and 1;
    truthy: a logical function that reads other dtypes as their truth."""
    lines = _head(name, 2)
    if truthy:
        lines += _para(_TRUTH) + [""]
    if ints_to_float == "held":
        lines += _para(_INT_FLOAT) + [""]
    if bool_op:
        lines += _para(f"Two bool operands give a bool result by "
                       f"{bool_op.lower().replace('_', ' ')}, as in NumPy.") + [""]
    if bools:
        lines += _para("Bool operands take part as 0 and 1 beside other dtypes, "
                       "as in NumPy.") + [""]
    taken = _listing(allowed)
    if truthy:
        taken += ", or of any other dtype (see above)"
    lines += ["Parameters", "----------", "x1 : Array or scalar"]
    lines += _para(f"First operand: an array of {taken}, or a Python scalar. {_NUMPY_IN}",
                   "    ")
    lines += ["x2 : Array or scalar"]
    lines += _para("Second operand, of the same kinds, broadcast against x1. At least one "
                   "of x1 and x2 must be an array; a Python scalar takes the array's dtype "
                   "(NumPy 2's rule).", "    ")
    lines += ["", "Returns", "-------", "Array"]
    lines += _para("A new array of the broadcast shape of x1 and x2 and "
                   f"{_result_dtype(table, False, ints_to_float)}.", "    ")
    lines += ["", "Raises", "------", "TypeError"]
    lines += _para("If neither operand is an array." if truthy else
                   "If neither operand is an array, or an operand's dtype is not one of "
                   f"those above ({category}).", "    ")
    lines += ["ValueError", "    If the shapes of x1 and x2 are not broadcast-compatible."]
    lines += _see_also(name)
    lines += _examples(name)
    return "\n".join(lines) + "\n"
