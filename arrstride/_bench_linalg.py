"""Benchmark workloads of the linalg branch, for `python -m arrstride bench`.

WORKLOADS: (name, setup() -> (args_arrstride, args_numpy), arrstride_fn, numpy_fn).
NumPy is imported only here, as the reference the ratios are taken against.
"""
from __future__ import annotations

import time


def _pair(*shape, dtype="float64", seed=0, spd=False):
    import numpy as np
    import arrstride as xp
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape).astype(dtype)
    if spd:
        a = a @ a.swapaxes(-1, -2) + shape[-1] * np.eye(shape[-1], dtype=dtype)
    return xp.asarray(a), a


def _matmul_setup(shape_a, shape_b, dtype):
    def setup():
        xa, na = _pair(*shape_a, dtype=dtype, seed=1)
        xb, nb = _pair(*shape_b, dtype=dtype, seed=2)
        return (xa, xb), (na, nb)
    return setup


def _one(shape, spd=False):
    def setup():
        x, a = _pair(*shape, spd=spd)
        return (x,), (a,)
    return setup


def _solve_setup():
    x, a = _pair(500, 500, seed=3)
    y, b = _pair(500, 10, seed=4)
    return (x, y), (a, b)


def _xp():
    import arrstride as xp
    return xp


def _np():
    import numpy as np
    return np


WORKLOADS = [
    ("matmul 1024x1024 float64", _matmul_setup((1024, 1024), (1024, 1024), "float64"),
     lambda a, b: a @ b, lambda a, b: a @ b),
    ("matmul 1024x1024 float32", _matmul_setup((1024, 1024), (1024, 1024), "float32"),
     lambda a, b: a @ b, lambda a, b: a @ b),
    ("batched matmul 256x64x64 float64", _matmul_setup((256, 64, 64), (256, 64, 64), "float64"),
     lambda a, b: a @ b, lambda a, b: a @ b),
    ("svd 500x500 float64", _one((500, 500)),
     lambda a: _xp().linalg.svd(a), lambda a: _np().linalg.svd(a)),
    ("eigh 500x500 float64", _one((500, 500), spd=True),
     lambda a: _xp().linalg.eigh(a), lambda a: _np().linalg.eigh(a)),
    ("solve 500x500 float64", _solve_setup,
     lambda a, b: _xp().linalg.solve(a, b), lambda a, b: _np().linalg.solve(a, b)),
]


def _best(fn, args, repeat, budget=0.5):
    """Best time of at least `repeat` runs, and of as many more as fit in `budget` seconds."""
    fn(*args)
    best, spent, count = float("inf"), 0.0, 0
    while count < repeat or spent < budget:
        t = time.perf_counter()
        fn(*args)
        dt = time.perf_counter() - t
        best, spent, count = min(best, dt), spent + dt, count + 1
    return best


def run(repeat: int = 5) -> list:
    """[(name, arrstride seconds, numpy seconds, ratio)], both in the same run."""
    rows = []
    for name, setup, xfn, nfn in WORKLOADS:
        xargs, nargs = setup()
        tx = _best(xfn, xargs, repeat)
        tn = _best(nfn, nargs, repeat)
        rows.append((name, tx, tn, tx / tn))
    return rows


if __name__ == "__main__":
    for name, tx, tn, r in run():
        print(f"{name:36s} arrstride {tx * 1e3:9.3f} ms  numpy {tn * 1e3:9.3f} ms  ratio {r:5.2f}")
