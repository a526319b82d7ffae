"""show(x): the storage as a row of cells, the cells the view reaches and the
order it walks them, like the storage diagrams of the classic notes on strides."""
from __future__ import annotations

import itertools
from typing import Dict, List

from . import _layout as L
from ._array import Array
from ._errors import type_error

MAX_CELLS = 48  # a wider storage is shown around the cells the view reaches


def layout_diagram(x: Array) -> str:
    if not isinstance(x, Array):
        raise type_error("show", "x must be an arrstride array", type(x).__name__)
    lay = x._layout
    isz = x.dtype.itemsize
    nelem = x.storage.nbytes // isz
    order: Dict[int, List[int]] = {}
    for k, idx in enumerate(itertools.product(*[range(d) for d in lay.shape])):
        if k >= 10 * MAX_CELLS:
            break
        cell = lay.offset + sum(i * s for i, s in zip(idx, lay.strides))
        order.setdefault(cell, []).append(k)
    lo, hi = L.extent(lay)
    if lay.size == 0:
        lo, hi = 0, min(nelem, MAX_CELLS) - 1
    start = max(0, min(lo, nelem - MAX_CELLS)) if hi - lo < MAX_CELLS else lo
    stop = min(nelem, start + MAX_CELLS)
    whole = Array._new(x.storage, L.Layout((nelem,), (1,), 0), x.dtype)
    values = whole._with_layout(L.Layout((stop - start,), (1,), start)).tolist() if stop > start else []
    cells = list(range(start, stop))
    vals = [_short(v) for v in values]
    marks = [",".join(str(k) for k in order.get(c, [])) for c in cells]
    width = max([len(str(c)) for c in cells] + [len(v) for v in vals] + [len(m) for m in marks] + [1])
    def row(label, items):
        return f"{label:<7}|" + "|".join(f"{s:>{width}}" for s in items) + "|"
    lines = [
        f"storage: {nelem} elements of {x.dtype.name} ({x.storage.nbytes} bytes)"
        + (f", cells {start}..{stop - 1} shown" if (start, stop) != (0, nelem) else ""),
        f"view:    offset {lay.offset}, shape {lay.shape}, strides {lay.strides}"
        f"{'  (contiguous)' if L.is_contiguous(lay) else ''}",
        row("cell", [str(c) for c in cells]),
        row("value", vals),
        row("walk", marks),
    ]
    if lay.size > 10 * MAX_CELLS:
        lines.append(f"(walk order shown for the first {10 * MAX_CELLS} of {lay.size} elements)")
    return "\n".join(lines)


def _short(v) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, complex):
        return f"{v.real:g}{v.imag:+g}j"
    return str(v)


def show(x: Array) -> None:
    """Print the storage of x as a row of cells, marking the cells x reaches
    with the order it walks them (0 first), with offset, shape and strides."""
    print(layout_diagram(x))
