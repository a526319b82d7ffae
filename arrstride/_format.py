"""repr and str as NumPy 2 prints them, with "Array(" in place of "array(",
under print options as NumPy's set_printoptions sets them (defaults: precision
8 in 'maxprec' float mode, line width 75, summaries of more than 1000 elements
with 3 items at each edge, small numbers not suppressed). The options live in
a context variable, so `printoptions` is local to a thread or task.
"""
from __future__ import annotations

import contextlib
import contextvars
import math
import operator
import struct
from decimal import Decimal
from typing import Any, Callable, List, Tuple

from . import _layout as L

DEFAULTS = {
    "edgeitems": 3,      # items kept at each edge of a summarized axis
    "linewidth": 75,
    "precision": 8,      # most digits after the point (or after the first, in scientific form)
    "suppress": False,   # True: never scientific form for small numbers
    "threshold": 1000,   # more elements than this are summarized
}
_OPTIONS = contextvars.ContextVar("arrstride_printoptions", default=DEFAULTS)
IMPLIED = ("float64", "int64", "bool", "complex128")  # dtypes repr leaves out


# ---- values ---------------------------------------------------------------------

def _edge_values(x) -> Any:
    """Nested lists of the values printed, with None where '...' stands."""
    if x.ndim == 0:
        return x._item()
    if x.size <= _OPTIONS.get()["threshold"]:
        return x.tolist()
    return _edges(x)


def _edges(x):
    n = x.shape[0]
    lay = x._layout
    edge = _OPTIONS.get()["edgeitems"]
    rows = range(n) if n <= 2 * edge else list(range(edge)) + [None] + list(range(n - edge, n))
    out = []
    for i in rows:
        if i is None:
            out.append(None)
            continue
        row = x._with_layout(L.select(lay, 0, i))
        out.append(row._item() if row.ndim == 0 else _edges(row))
    return out


def _leaves(v, acc):
    if isinstance(v, list):
        for e in v:
            _leaves(e, acc)
    elif v is not None:
        acc.append(v)
    return acc


# ---- shortest digits (what NumPy's dragon4 'unique' mode gives) ------------------

def _shortest(v: float, single: bool) -> str:
    """The shortest decimal string that reads back as v (in float32 when single)."""
    if not single:
        return repr(v)
    for p in range(1, 10):
        s = f"{v:.{p}g}"
        try:
            if struct.unpack("f", struct.pack("f", float(s)))[0] == v:
                return s
        except OverflowError:
            continue
    return repr(v)


def _positional(v: float, single: bool) -> str:
    """v positionally with its unique digits, at most `precision` after the
    point, trailing zeros trimmed but the point kept: '0.25', '3.', '-0.'."""
    prec = _OPTIONS.get()["precision"]
    s = format(Decimal(_shortest(v, single)), "f")
    if "." in s and len(s.split(".")[1]) > prec:
        s = f"{v:.{prec}f}"
    if "." not in s:
        s += "."
    s = s.rstrip("0")
    if math.copysign(1.0, v) < 0 and not s.startswith("-"):
        s = "-" + s
    return s


def _scientific_parts(v: float, single: bool) -> Tuple[str, str, int]:
    """(sign, mantissa digits, exponent) of v's unique digits, with at most
    `precision` digits after the first."""
    sign = "-" if math.copysign(1.0, v) < 0 else ""
    if v == 0:
        return sign, "0", 0
    t = Decimal(_shortest(abs(v), single)).as_tuple()
    digits = "".join(map(str, t.digits)).rstrip("0") or "0"
    exp = t.exponent + len(t.digits) - 1
    prec = _OPTIONS.get()["precision"]
    if len(digits) > prec + 1:
        m, e = f"{abs(v):.{prec}e}".split("e")
        digits = m.replace(".", "").rstrip("0") or "0"
        exp = int(e)
    return sign, digits, exp


# ---- NumPy's FloatingFormat --------------------------------------------------------

class _FloatFormat:
    """Formats the values of one real array so that they line up."""

    def __init__(self, values: List[float], single: bool, plus: bool = False, cutoff: float = 1e8):
        self.single = single
        self.plus = plus                 # '+' before non-negative numbers (imaginary parts)
        finite = [v for v in values if math.isfinite(v)]
        nonzero = [abs(v) for v in finite if v != 0]
        self.exp = False
        if nonzero:
            hi, lo = max(nonzero), min(nonzero)
            self.exp = hi >= cutoff or not _OPTIONS.get()["suppress"] and (lo < 1e-4 or hi / lo > 1e3)
        if not finite:
            self.pad_left = self.pad_right = 0
        elif self.exp:
            parts = [_scientific_parts(v, single) for v in finite]
            self.precision = max(len(d) - 1 for _, d, _ in parts)
            self.exp_size = max(2, max(len(str(abs(e))) for _, _, e in parts))
            self.pad_left = max(len(self._sign(s)) + 1 for s, _, _ in parts)
            self.pad_right = self.exp_size + 2 + self.precision
        else:
            strs = [self._signed(_positional(v, single)) for v in finite]
            ints, fracs = zip(*(s.split(".") for s in strs))
            self.pad_left = max(map(len, ints))
            self.pad_right = max(map(len, fracs))
        if len(finite) != len(values):
            neginf = plus or any(v < 0 for v in values if math.isinf(v))
            offset = self.pad_right + 1
            self.pad_left = max(self.pad_left, 3 - offset, 3 + neginf - offset)

    def _sign(self, s: str) -> str:
        return s or ("+" if self.plus else "")

    def _signed(self, s: str) -> str:
        return s if s.startswith("-") or not self.plus else "+" + s

    def __call__(self, v: float) -> str:
        if not math.isfinite(v):
            if math.isnan(v):
                ret = "+nan" if self.plus else "nan"
            else:
                ret = ("-" if v < 0 else "+" if self.plus else "") + "inf"
            return " " * (self.pad_left + self.pad_right + 1 - len(ret)) + ret
        if self.exp:
            # NumPy's min_digits: every value shows `precision` digits after the
            # point, its exact value's digits where its unique ones are fewer
            sign = "-" if math.copysign(1.0, v) < 0 else ""
            mant, e = f"{abs(v):.{self.precision}e}".split("e")
            mant += "" if "." in mant else "."   # precision 0: '1.e-05', as NumPy
            e = int(e)
            es = ("-" if e < 0 else "+") + str(abs(e)).zfill(self.exp_size)
            return (self._sign(sign) + mant).rjust(self.pad_left + 1 + self.precision) + "e" + es
        ip, fp = self._signed(_positional(v, self.single)).split(".")
        return ip.rjust(self.pad_left) + "." + fp.ljust(self.pad_right)


def _formatter(x, leaves) -> Callable[[Any], str]:
    k = x.dtype.kind
    if k == "b":
        return (lambda v: "True" if v else "False") if x.ndim == 0 else (lambda v: " True" if v else "False")
    if k in "iu":
        width = max((len(str(v)) for v in leaves), default=0)
        return lambda v: str(v).rjust(width)
    single = x.dtype.name in ("float32", "complex64")
    # NumPy 2's threshold for scientific form: 10**min(8, the dtype's decimal precision)
    cutoff = {"float32": 1e6, "complex64": 1e6, "float16": 1e3, "bfloat16": 1e2}.get(x.dtype.name, 1e8)
    if k == "f":
        return _FloatFormat(leaves, single, cutoff=cutoff)
    re = _FloatFormat([v.real for v in leaves], single, cutoff=cutoff)
    im = _FloatFormat([v.imag for v in leaves], single, plus=True, cutoff=cutoff)

    def cfmt(v):
        i = im(v.imag)
        sp = len(i.rstrip())
        return re(v.real) + i[:sp] + "j" + i[sp:]
    return cfmt


# ---- NumPy's _formatArray ------------------------------------------------------------

def _extend(s: str, line: str, word: str, width: int, indent: str) -> Tuple[str, str]:
    if len(line) + len(word) > width and len(line) > len(indent):
        s += line.rstrip() + "\n"
        line = indent
    return s, line + word


def _format_array(values, ndim: int, fmt, line_width: int, prefix: str, sep: str) -> str:
    def rec(v, depth: int, indent: str, width: int) -> str:
        if depth == ndim:
            return fmt(v)
        left = ndim - depth
        next_indent = indent + " "
        next_width = width - 1
        if None in v:
            cut = v.index(None)
            lead, trail, summary = v[:cut], v[cut + 1:], True
        else:
            lead, trail, summary = [], v, False
        if left == 1:
            elem_width = width - max(len(sep.rstrip()), 1)
            line = indent
            s = ""
            for e in lead:
                s, line = _extend(s, line, rec(e, depth + 1, next_indent, next_width), elem_width, indent)
                line += sep
            if summary:
                s, line = _extend(s, line, "...", elem_width, indent)
                line += sep
            for e in trail[:-1]:
                s, line = _extend(s, line, rec(e, depth + 1, next_indent, next_width), elem_width, indent)
                line += sep
            s, line = _extend(s, line, rec(trail[-1], depth + 1, next_indent, next_width), elem_width, indent)
            s += line
        else:
            line_sep = sep.rstrip() + "\n" * (left - 1)
            s = ""
            for e in lead:
                s += indent + rec(e, depth + 1, next_indent, next_width) + line_sep
            if summary:
                s += indent + "..." + line_sep
            for e in trail[:-1]:
                s += indent + rec(e, depth + 1, next_indent, next_width) + line_sep
            s += indent + rec(trail[-1], depth + 1, next_indent, next_width)
        return "[" + s[len(indent):] + "]"

    return rec(values, 0, " " + " " * len(prefix), line_width)


def _array2string(x, sep: str, prefix: str, suffix: str) -> str:
    values = _edge_values(x)
    leaves = _leaves(values, []) if isinstance(values, list) else [values]
    fmt = _formatter(x, leaves)
    if x.ndim == 0:
        return fmt(values)
    return _format_array(values, x.ndim, fmt, _OPTIONS.get()["linewidth"] - len(suffix), prefix, sep)


def _scalar_str(x) -> str:
    """str of a 0-d array: the element as NumPy prints its scalar."""
    v = x._item()
    name = x.dtype.name
    if name == "float32":
        return _float_str(v, True)
    if name == "float64":
        return _float_str(v, False)
    if x.dtype.kind == "c":  # as Python prints complex: '(1+2.5j)', '1j'
        single = name == "complex64"
        re, im = (_float_str(p, single, trim=True) for p in (v.real, v.imag))
        if v.real == 0 and math.copysign(1.0, v.real) > 0:
            return im + "j"
        return f"({re}{im if im[0] in '+-' else '+' + im}j)"
    return str(v)


def _float_str(v: float, single: bool, trim: bool = False) -> str:
    if not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    s = _shortest(v, single)
    a = abs(v)
    if a != 0 and (a >= 1e16 or a < 1e-4):
        sign, digits, e = _scientific_parts(v, single)
        mant = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{mant}e{'-' if e < 0 else '+'}{abs(e):02d}"
    s = format(Decimal(s), "f")
    if "." not in s:
        s += ".0"
    if math.copysign(1.0, v) < 0 and not s.startswith("-"):
        s = "-" + s
    return s[:-2] if trim and s.endswith(".0") else s


def array_repr(x) -> str:
    prefix = "Array("
    if x.size == 0:
        body = "[]"
    else:
        body = _array2string(x, ", ", prefix, ")")
    extras = []
    if (x.size == 0 and x.shape != (0,)) or x.size > _OPTIONS.get()["threshold"]:
        extras.append(f"shape={x.shape}")
    if x.dtype.name not in IMPLIED or x.size == 0:
        extras.append(f"dtype={x.dtype.name}")
    if not extras:
        return prefix + body + ")"
    text = prefix + body + ","
    extra = ", ".join(extras) + ")"
    last = len(text) - (text.rfind("\n") + 1)
    spacer = "\n" + " " * len(prefix) if last + len(extra) + 1 > _OPTIONS.get()["linewidth"] else " "
    return text + spacer + extra


def array_str(x) -> str:
    if x.ndim == 0:
        return _scalar_str(x)
    if x.size == 0:
        return "[]"
    return _array2string(x, " ", "", "")


# ---- print options ---------------------------------------------------------------------

def _checked_options(func: str, precision, threshold, edgeitems, linewidth, suppress) -> dict:
    from ._errors import type_error, value_error
    new = {}
    for name, v in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                    ("linewidth", linewidth)):
        if v is None:
            continue
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise type_error(func, f"{name} must be an int", repr(v))
        v = operator.index(v)
        if v < 0 or (name == "linewidth" and v < 1):
            raise value_error(func, f"{name} must be {'positive' if name == 'linewidth' else 'non-negative'}", v)
        new[name] = v
    if suppress is not None:
        new["suppress"] = bool(suppress)
    return new


def set_printoptions(precision: Any = None, threshold: Any = None, edgeitems: Any = None,
                     linewidth: Any = None, suppress: Any = None) -> None:
    """Set how arrays print, as NumPy's set_printoptions (these five options).

    Parameters
    ----------
    precision : int, optional
        Most digits printed after the decimal point (default 8).
    threshold : int, optional
        Arrays of more elements than this are summarized with ``...`` (default 1000).
    edgeitems : int, optional
        Items printed at each end of a summarized axis (default 3).
    linewidth : int, optional
        Characters per line (default 75).
    suppress : bool, optional
        True prints small numbers in positional form, never scientific (default False).

    See Also
    --------
    get_printoptions, printoptions

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.set_printoptions(precision=3)
    >>> xp.asarray([1 / 3, 2 / 3])
    Array([0.333, 0.667])
    >>> xp.set_printoptions(precision=8)
    """
    new = dict(_OPTIONS.get())
    new.update(_checked_options("set_printoptions", precision, threshold, edgeitems, linewidth, suppress))
    _OPTIONS.set(new)


def get_printoptions() -> dict:
    """The current print options, as a new dict.

    Returns
    -------
    dict
        The options precision, threshold, edgeitems, linewidth and suppress.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.get_printoptions()["threshold"]
    1000
    """
    return dict(_OPTIONS.get())


@contextlib.contextmanager
def printoptions(precision: Any = None, threshold: Any = None, edgeitems: Any = None,
                 linewidth: Any = None, suppress: Any = None):
    """Print options set for a with block only, as NumPy's printoptions.

    Parameters
    ----------
    precision : int, optional
        Most digits printed after the decimal point.
    threshold : int, optional
        Arrays of more elements than this are summarized with ``...``.
    edgeitems : int, optional
        Items printed at each end of a summarized axis.
    linewidth : int, optional
        Characters per line.
    suppress : bool, optional
        True prints small numbers in positional form, never scientific.

    Returns
    -------
    contextlib.AbstractContextManager
        A context manager; its value (``as``) is the dict of options in force inside the block.

    Yields
    ------
    dict
        The options in force inside the block.

    Examples
    --------
    >>> import arrstride as xp
    >>> with xp.printoptions(threshold=5, edgeitems=2):
    ...     print(xp.arange(10))
    [0 1 ... 8 9]
    """
    new = dict(_OPTIONS.get())
    new.update(_checked_options("printoptions", precision, threshold, edgeitems, linewidth, suppress))
    token = _OPTIONS.set(new)
    try:
        yield dict(new)
    finally:
        _OPTIONS.reset(token)
