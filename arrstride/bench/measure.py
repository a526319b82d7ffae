"""Timing and progress for every suite (runner.py and e2e.py): timeit's
autorange by hand, medians with their spread, a progress bar."""
from __future__ import annotations

import statistics
import sys
import timeit
from typing import Any, Callable, List, Optional

# Shortest time of one timed sample, in seconds, by suite (a sample repeats
# the call as often as needed to last this long, like timeit's autorange).
MIN_TIME = {"micro": 0.01, "percall": 0.02, "offpath": 0.02, "e2e": 0.05}


# ---- timing -------------------------------------------------------------------------------

def timer(spec) -> timeit.Timer:
    """A timeit.Timer for a zero-argument callable or a (statement, namespace) pair."""
    if callable(spec):
        return timeit.Timer(spec)
    stmt, ns = spec
    return timeit.Timer(stmt, globals=dict(ns))


def calibrate(t: timeit.Timer, min_time: float) -> int:
    """The number of calls per sample so that a sample lasts at least min_time."""
    number = 1
    while True:
        for k in (1, 2, 5):
            n = number * k
            if t.timeit(n) >= min_time:
                return n
        number *= 10


def spread(samples: List[float]) -> float:
    """Half the interquartile range, relative to the median (0.05 for ±5%)."""
    med = statistics.median(samples)
    if len(samples) < 2 or med <= 0:
        return 0.0
    q1, _, q3 = statistics.quantiles(samples, n=4, method="inclusive")
    return (q3 - q1) / 2 / med


def time_interleaved(specs: List[Any], samples: int, min_time: float,
                     on_sample: Optional[Callable[[], None]] = None) -> List[List[float]]:
    """Per-call times (seconds) of each spec, `samples` rounds, the specs taking turns."""
    timers = [timer(s) for s in specs]
    for t in timers:          # warm up: caches, kernel lookups, lazy imports
        t.timeit(1)
    numbers = [calibrate(t, min_time) for t in timers]
    out: List[List[float]] = [[] for _ in timers]
    for _ in range(samples):
        for t, n, acc in zip(timers, numbers, out):
            acc.append(t.timeit(n) / n)
        if on_sample:
            on_sample()
    return out


class Progress:
    """A progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, total: int, enabled: bool = True):
        self.total, self.done = max(total, 1), 0
        self.enabled = enabled and sys.stderr.isatty()
        self.label = ""

    def step(self, label: Optional[str] = None) -> None:
        if label is not None:
            self.label = label
        self.done += 1
        if self.enabled:
            width = 30
            filled = width * min(self.done, self.total) // self.total
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] "
                             f"{self.done}/{self.total} {self.label[:40]:<40}")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 80 + "\r")
            sys.stderr.flush()
