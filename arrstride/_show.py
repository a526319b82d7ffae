"""show(x): the storage as a row of cells, the cells the view reaches and the
order it walks them, like the storage diagrams of the classic notes on strides."""
from __future__ import annotations

import itertools
from typing import Dict, List

from . import _layout as L
from ._array import Array, check_array
from ._format import _float_str

MAX_CELLS = 48  # a wider storage is shown around the cells the view reaches
MAX_VISITS = 4  # a cell reached more often lists its first visits, "…" and its last


def layout_diagram(x: Array) -> str:
    x = check_array("show", x)
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
    single = x.dtype.kind in "fc" and x.dtype.itemsize <= (8 if x.dtype.kind == "c" else 4)
    vals = [_short(v, single) for v in values]
    marks = [_visits(order.get(c, [])) for c in cells]
    width = max([len(str(c)) for c in cells] + [len(v) for v in vals] + [len(m) for m in marks] + [1])
    def row(label, items):
        return f"{label:<7}|" + "|".join(f"{s:>{width}}" for s in items) + "|"
    lines = [
        f"storage: {nelem} element{'' if nelem == 1 else 's'} of {x.dtype.name} "
        f"({x.storage.nbytes} byte{'' if x.storage.nbytes == 1 else 's'})"
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


def _visits(ks: List[int]) -> str:
    """The walk positions reaching one cell, the middle elided when there are many."""
    if len(ks) > MAX_VISITS:
        ks = ks[:MAX_VISITS - 2] + ["…", ks[-1]]
    return ",".join(str(k) for k in ks)


def _short(v, single: bool) -> str:
    """v with the digits that read back as the stored value (1.0 shows as 1)."""
    if isinstance(v, float):
        return _float_str(v, single, trim=True)
    if isinstance(v, complex):
        im = _float_str(v.imag, single, trim=True)
        return f"{_float_str(v.real, single, trim=True)}{'' if im[0] == '-' else '+'}{im}j"
    return str(v)


def show(x: Array) -> None:
    """Print how x's elements sit in its storage.

    Not in the standard. The storage is drawn as a row of cells; the cells x
    reaches are marked with the order it walks them (0 first), with x's offset,
    shape and strides.

    Parameters
    ----------
    x : Array
        Array to draw.

    See Also
    --------
    as_strided

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.show(xp.arange(6)[1::2])
    storage: 6 elements of int64 (48 bytes)
    view:    offset 1, shape (3,), strides (2,)
    cell   |0|1|2|3|4|5|
    value  |0|1|2|3|4|5|
    walk   | |0| |1| |2|
    """
    print(layout_diagram(x))
