"""One registration convention for every suite.

A workload is a setup function decorated with `@workload(name, suite=...,
group=..., target=...)`. The setup receives NumPy and arrstride, builds its
inputs once and returns two zero-argument callables `(run_arrstride,
run_numpy)` doing the same work; the runner times them interleaved:

    @workload("add float64 1e7", suite="micro", group="large", target=0.5)
    def _(np, xp):
        a = np.random.default_rng(0).random(10**7); xa = xp.asarray(a)
        return (lambda: xa + xa), (lambda: a + a)

`target` is the ratio arrstride/NumPy to stay at or under (None: no target).
`torch`, optional, is a setup `(np, torch) -> run_torch` doing the same work
with PyTorch (a setup function may carry it as its `.torch` attribute); when
PyTorch is installed the runner times it in the same rounds, as a third column.
Summary lines (a geometric mean or a maximum over a group) are declared with
`summary(...)`. The e2e suite has its own job list (e2e.py) with three columns
and is run in subprocesses; it registers placeholders here for --list and -k,
as the busy suite (busy.py: a busy machine) does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Tuple

SUITES = ("micro", "percall", "offpath", "e2e", "busy")


@dataclass(frozen=True)
class Workload:
    name: str
    suite: str
    group: str
    setup: Callable[[Any, Any], Tuple[Callable[[], Any], Callable[[], Any]]]
    target: Optional[float] = None
    torch: Optional[Callable[[Any, Any], Any]] = None


@dataclass(frozen=True)
class Summary:
    suite: str
    label: str
    groups: Tuple[str, ...]   # the workload groups it covers
    kind: str                 # "geomean" or "max" (of the ratios)
    target: Optional[float]


WORKLOADS: List[Workload] = []
SUMMARIES: List[Summary] = []


def register(name: str, setup, *, suite: str, group: str, target: Optional[float] = None,
             torch=None) -> Workload:
    if suite not in SUITES:
        raise ValueError(f"register: unknown suite {suite!r}")
    if any(w.name == name for w in WORKLOADS):
        raise ValueError(f"register: a workload named {name!r} exists already")
    w = Workload(name, suite, group, setup, target, torch or getattr(setup, "torch", None))
    WORKLOADS.append(w)
    return w


def workload(name: str, *, suite: str, group: str, target: Optional[float] = None):
    """Decorator form of `register`: returns the setup function unchanged."""
    def deco(setup):
        register(name, setup, suite=suite, group=group, target=target)
        return setup
    return deco


def summary(suite: str, label: str, groups, kind: str = "geomean",
            target: Optional[float] = None) -> None:
    SUMMARIES.append(Summary(suite, label, tuple(groups), kind, target))
