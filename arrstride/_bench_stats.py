"""Benchmark workloads of the statistics / sorting / set / take work (issue 4).

WORKLOADS is a list of (name, setup, arrstride_fn, numpy_fn): setup(rng)
returns (xs_arrstride, xs_numpy), and each fn takes the unpacked xs. NumPy is
imported only by the setup functions (it is the reference being timed).
`python -m arrstride._bench_stats` prints arrstride / NumPy time ratios.
"""
from __future__ import annotations

import time


def _square(rng):
    import arrstride as xp
    a = rng.standard_normal((4000, 4000))
    return (xp.asarray(a),), (a,)


def _vector(rng):
    import arrstride as xp
    a = rng.standard_normal(10**6)
    return (xp.asarray(a),), (a,)


def _ints(rng):
    import arrstride as xp
    a = rng.integers(0, 10**5, 10**6)
    return (xp.asarray(a),), (a,)


def _search(rng):
    import numpy as np
    import arrstride as xp
    s = np.sort(rng.standard_normal(10**6))
    v = rng.standard_normal(10**5)
    return (xp.asarray(s), xp.asarray(v)), (s, v)


def _take(rng):
    import arrstride as xp
    a = rng.standard_normal(10**7)
    i = rng.integers(0, 10**7, 10**6)
    return (xp.asarray(a), xp.asarray(i)), (a, i)


def _mask(rng):
    import arrstride as xp
    a = rng.standard_normal(10**7)
    m = rng.random(10**7) < 0.5
    return (xp.asarray(a), xp.asarray(m)), (a, m)


def _xp():
    import arrstride
    return arrstride


def _np():
    import numpy
    return numpy


WORKLOADS = [
    ("sum all 4000^2", _square, lambda a: _xp().sum(a), lambda a: a.sum()),
    ("sum axis 0 4000^2", _square, lambda a: _xp().sum(a, axis=0), lambda a: a.sum(axis=0)),
    ("sum axis 1 4000^2", _square, lambda a: _xp().sum(a, axis=1), lambda a: a.sum(axis=1)),
    ("max 4000^2", _square, lambda a: _xp().max(a), lambda a: a.max()),
    ("mean 4000^2", _square, lambda a: _xp().mean(a), lambda a: a.mean()),
    ("std 4000^2", _square, lambda a: _xp().std(a), lambda a: a.std()),
    ("var 4000^2", _square, lambda a: _xp().var(a), lambda a: a.var()),
    ("cumulative_sum axis 1 4000^2", _square, lambda a: _xp().cumulative_sum(a, axis=1),
     lambda a: _np().cumulative_sum(a, axis=1)),
    ("sort 1e6 float64", _vector, lambda a: _xp().sort(a, stable=False), lambda a: _np().sort(a)),
    ("sort stable 1e6 float64", _vector, lambda a: _xp().sort(a),
     lambda a: _np().sort(a, kind="stable")),
    ("argsort 1e6 float64", _vector, lambda a: _xp().argsort(a, stable=False),
     lambda a: _np().argsort(a)),
    ("argsort stable 1e6 float64", _vector, lambda a: _xp().argsort(a),
     lambda a: _np().argsort(a, kind="stable")),
    ("unique_values 1e6 int64", _ints, lambda a: _xp().unique_values(a),
     lambda a: _np().unique_values(a)),
    ("searchsorted 1e5 into 1e6", _search, lambda s, v: _xp().searchsorted(s, v),
     lambda s, v: _np().searchsorted(s, v)),
    ("take 1e6 from 1e7", _take, lambda a, i: _xp().take(a, i), lambda a, i: _np().take(a, i)),
    ("boolean mask 1e7", _mask, lambda a, m: a[m], lambda a, m: a[m]),
]


def _best(fn, args, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t)
    return best


def run(repeat: int = 5) -> list:
    """[(name, arrstride seconds, numpy seconds, ratio)] measured in one run."""
    import numpy as np
    rng = np.random.default_rng(0)
    rows = []
    for name, setup, fa, fn in WORKLOADS:
        xa, xn = setup(rng)
        ta, tn = _best(fa, xa, repeat), _best(fn, xn, repeat)
        rows.append((name, ta, tn, ta / tn))
    return rows


if __name__ == "__main__":
    for name, ta, tn, r in run():
        print(f"{name:32s} arrstride {ta * 1e3:8.2f} ms   numpy {tn * 1e3:8.2f} ms   ratio {r:5.2f}")
