"""The docstrings of the generated elementwise functions, in numpydoc form.

`_elementwise_functions._unary` and `_binary` call `unary_doc` and
`binary_doc` with the tables that define each function (the dtypes it takes,
the dtype each one gives, the integer-to-float rule, the bool kernel), so the
Parameters, Returns and Raises sections follow the definition: a new
elementwise function gets a complete docstring from its one line of
definition. Only the one-line summary (and an optional remark) is written
here by hand, in SUMMARIES; a name missing from it still gets a docstring
that tests/test_docs.py accepts, with a generic summary.
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
    return "\n".join(lines) + "\n"
