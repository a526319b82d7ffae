"""The one table renderer of `python -m arrstride bench`: times, ratios to
NumPy against their targets, and the summary rows (geomeans, maxima)."""
from __future__ import annotations

import math
from typing import List, Optional

from . import registry

def fmt_time(t: Optional[float], rel: float = 0.0) -> str:
    """A time in its unit, with the samples' spread (rel, a fraction) after it."""
    if t is None:
        return f"{'—':>16}"
    if t < 1e-6:
        s = f"{t * 1e9:7.1f} ns"
    elif t < 1e-3:
        s = f"{t * 1e6:7.2f} us"
    elif t < 1:
        s = f"{t * 1e3:7.2f} ms"
    else:
        s = f"{t:7.3f} s "
    return f"{s} ±{min(rel * 100, 99):2.0f}%"


def target_text(target: Optional[float]) -> str:
    return "" if target is None else f"<={target:g}"


def ratio_cells(ratio: Optional[float], target: Optional[float], width: int) -> str:
    """The ratio, its target and "!" when the ratio is above it."""
    flag = "  !" if target is not None and ratio is not None and ratio > target else ""
    return f"{ratio:{width}.2f} {target_text(target):>7}{flag}"


def summaries(results: List[dict], suite: str, ratio_key: str = "ratio") -> List[dict]:
    """The suite's summary rows (registry.SUMMARIES) over the rows that have a ratio."""
    out = []
    for s in registry.SUMMARIES:
        if s.suite != suite:
            continue
        ratios = [r[ratio_key] for r in results
                  if r["suite"] == suite and r["group"] in s.groups and r.get(ratio_key)]
        if not ratios:
            continue
        if s.kind == "geomean":
            value = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        else:
            value = max(ratios)
        out.append({"summary": s.label, "suite": suite, "kind": s.kind, "ratio": value,
                    "count": len(ratios), "target": s.target})
    return out


def render(head: str, body: List[str], sums: List[dict], ratio_width: int, counted: str = "") -> str:
    """A table: the head line (ending in a ratio column of ratio_width and a
    target column of 7), a rule, the body lines, and the summary rows with
    their ratios under the ratio column ("<label> (<count><counted>)")."""
    lines = [head, "-" * len(head)] + body
    if sums:
        lines.append("-" * len(head))
    label_width = len(head) - ratio_width - 9
    for s in sums:
        label = f"{s['summary']} ({s['count']}{counted})"
        lines.append(f"{label:<{label_width}} {ratio_cells(s['ratio'], s['target'], ratio_width)}")
    return "\n".join(lines)
