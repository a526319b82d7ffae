"""repr and str in NumPy's style, summarizing large arrays with '...'."""
from __future__ import annotations

import math
from typing import Any, List

from . import _layout as L

THRESHOLD = 1000   # more elements than this are summarized
EDGE = 3           # items kept at each edge of a summarized axis
LINEWIDTH = 75


def _edge_values(x) -> Any:
    """Nested lists of the values printed, with None where '...' stands."""
    if x.ndim == 0:
        return x._item()
    if x.size <= THRESHOLD:
        return x.tolist()
    return _edges(x)


def _edges(x):
    n = x.shape[0]
    lay = x._layout
    rows = range(n) if n <= 2 * EDGE else list(range(EDGE)) + [None] + list(range(n - EDGE, n))
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


def _float_formatter(values: List[float]):
    finite = [abs(v) for v in values if math.isfinite(v)]
    if not finite:
        return _special
    big, small = max(finite), min((v for v in finite if v), default=0.0)
    if big >= 1e16 or (small and (small < 1e-4 or big / small > 1e3)):
        digits = max(_sig_digits(v, "e") for v in finite)
        return lambda v: _special(v) if not math.isfinite(v) else f"{v:.{digits}e}"
    digits = max(_sig_digits(v, "f") for v in finite)

    def fmt(v):
        if not math.isfinite(v):
            return _special(v)
        s = f"{v:.{digits}f}"
        return s if digits else s + "."
    return fmt


def _sig_digits(v: float, style: str) -> int:
    """Fewest digits (at most 8) after the point that print v as repr does, rounded."""
    for d in range(0, 9):
        s = f"{v:.{d}{style}}"
        if float(s) == float(f"{v:.8{style}}"):
            return d
    return 8


def _special(v: float) -> str:
    return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")


def _formatter(x, leaves):
    k = x.dtype.kind
    if k == "b":
        return str
    if k in "iu":
        return str
    if k == "f":
        return _float_formatter(leaves)
    re = _float_formatter([v.real for v in leaves])
    im = _float_formatter([v.imag for v in leaves])

    def cfmt(v):
        i = im(abs(v.imag)) if math.isfinite(v.imag) else _special(v.imag)
        sign = "-" if (v.imag < 0 or (v.imag == 0 and math.copysign(1, v.imag) < 0)) else "+"
        return f"{re(v.real)}{sign}{i.lstrip('-')}j"
    return cfmt


def _render(v, fmt, width, indent, depth, ndim) -> str:
    if not isinstance(v, list):
        return fmt(v).rjust(width)
    if depth == ndim - 1:
        parts = ["..." if e is None else fmt(e).rjust(width) for e in v]
        lines, line = [], ""
        for p in parts:
            piece = p + ","
            if line and len(indent) + len(line) + len(piece) + 1 > LINEWIDTH:
                lines.append(line.rstrip())
                line = ""
            line += piece + " "
        lines.append(line.rstrip())
        body = ("\n" + indent + " ").join(lines)
        return "[" + body.rstrip(",") + "]"
    sep = ",\n" + "\n" * (ndim - depth - 2) + indent + " "
    inner = [("..." if e is None else _render(e, fmt, width, indent + " ", depth + 1, ndim)) for e in v]
    return "[" + sep.join(inner) + "]"


def _body(x, indent: str) -> str:
    values = _edge_values(x)
    leaves = _leaves(values, []) if isinstance(values, list) else [values]
    fmt = _formatter(x, leaves)
    if x.ndim == 0:
        return fmt(values)
    width = max((len(fmt(v)) for v in leaves), default=0)
    return _render(values, fmt, width, indent, 0, x.ndim)


def array_repr(x) -> str:
    prefix = "Array("
    if x.size == 0:
        return f"Array([], shape={x.shape}, dtype={x.dtype.name})"
    body = _body(x, " " * len(prefix))
    return f"{prefix}{body}, dtype={x.dtype.name})"


def array_str(x) -> str:
    if x.size == 0:
        return "[]"
    return _body(x, "")
