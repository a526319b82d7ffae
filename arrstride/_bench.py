"""`python -m arrstride bench`: the same workloads on arrstride and on NumPy,
interleaved in one process, with the median time and the arrstride/NumPy ratio.

Workloads form a registry: append a `Workload` to `WORKLOADS` (or call
`register`) to add one. NumPy is the yardstick here only; it is imported
lazily and never used by arrstride itself.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any, Callable, List, NamedTuple, Optional


class Workload(NamedTuple):
    name: str
    group: str                               # for targets: "large", "strided", "copy", "call"
    make_inputs: Callable[[Any], Any]        # np -> inputs (NumPy arrays), built once
    arrstride_fn: Callable[[Any, Any], Any]  # (xp, converted inputs) -> result
    numpy_fn: Callable[[Any, Any], Any]      # (np, inputs) -> result
    repeat: int = 1                          # calls per timed sample (for tiny work)
    target: Optional[float] = None           # overrides the group's target
    setup: Optional[Callable[[], Any]] = None  # () -> (arrstride inputs, NumPy inputs)


WORKLOADS: List[Workload] = []

# Targets from the issue: ratio at most this, per group.
TARGETS = {"large": 0.5, "strided": 0.7, "copy": 0.3, "call": 3.0, "other": None}


def register(w: Workload) -> Workload:
    WORKLOADS.append(w)
    return w


# ---- the elementwise workloads ------------------------------------------------------

N = 10 ** 7


def _vec(dtype: str):
    def make(np):
        rng = np.random.default_rng(0)
        return (rng.random(N).astype(dtype) + 0.5, rng.random(N).astype(dtype) + 0.5)
    return make


def _vec_cond(dtype: str):
    def make(np):
        a, b = _vec(dtype)(np)
        return (a > 1.0, a, b)
    return make


for _dt in ("float64", "float32"):
    register(Workload(f"add {_dt} 1e7", "large", _vec(_dt),
                      lambda xp, a: a[0] + a[1], lambda np, a: a[0] + a[1]))
    register(Workload(f"multiply {_dt} 1e7", "large", _vec(_dt),
                      lambda xp, a: a[0] * a[1], lambda np, a: a[0] * a[1]))
    register(Workload(f"exp {_dt} 1e7", "large", _vec(_dt),
                      lambda xp, a: xp.exp(a[0]), lambda np, a: np.exp(a[0])))
    register(Workload(f"sqrt {_dt} 1e7", "large", _vec(_dt),
                      lambda xp, a: xp.sqrt(a[0]), lambda np, a: np.sqrt(a[0])))
    register(Workload(f"where {_dt} 1e7", "large", _vec_cond(_dt),
                      lambda xp, a: xp.where(a[0], a[1], a[2]),
                      lambda np, a: np.where(a[0], a[1], a[2])))


def _square(np):
    rng = np.random.default_rng(1)
    return rng.random((3000, 3000)), rng.random((3000, 3000))


def _long(np):
    rng = np.random.default_rng(2)
    return rng.random(2 * N), rng.random(2 * N)


def _colrow(np):
    rng = np.random.default_rng(3)
    return rng.random((3000, 1)), rng.random((1, 3000))


def _perm(np):
    rng = np.random.default_rng(4)
    return (rng.random((64, 64, 64, 64)),)


register(Workload("A.T + B.T 3000^2", "strided", _square,
                  lambda xp, a: a[0].T + a[1].T, lambda np, a: a[0].T + a[1].T))
register(Workload("A + B.T 3000^2", "strided", _square,
                  lambda xp, a: a[0] + a[1].T, lambda np, a: a[0] + a[1].T))
register(Workload("x[::2] + y[::2] 1e7", "strided", _long,
                  lambda xp, a: a[0][::2] + a[1][::2], lambda np, a: a[0][::2] + a[1][::2]))
register(Workload("(3000,1) + (1,3000)", "strided", _colrow,
                  lambda xp, a: a[0] + a[1], lambda np, a: a[0] + a[1]))
register(Workload("astype f32, permuted 64^4", "strided", _perm,
                  lambda xp, a: xp.astype(xp.permute_dims(a[0], (3, 1, 2, 0)), xp.float32),
                  lambda np, a: a[0].transpose(3, 1, 2, 0).astype(np.float32)))
register(Workload("contiguous copy, permuted 64^4", "copy", _perm,
                  lambda xp, a: xp.asarray(xp.permute_dims(a[0], (3, 1, 2, 0)), copy=True),
                  lambda np, a: np.ascontiguousarray(a[0].transpose(3, 1, 2, 0))))


def _small(np):
    return (np.arange(8, dtype=np.float64) + 1.0,)


register(Workload("call: add, 8 elements", "call", _small,
                  lambda xp, a: a[0] + a[0], lambda np, a: a[0] + a[0], repeat=2000))
register(Workload("call: exp, 8 elements", "call", _small,
                  lambda xp, a: xp.exp(a[0]), lambda np, a: np.exp(a[0]), repeat=2000))
register(Workload("call: x[1:3], 8 elements", "call", _small,
                  lambda xp, a: a[0][1:3], lambda np, a: a[0][1:3], repeat=2000))
register(Workload("call: reshape, 8 elements", "call", _small,
                  lambda xp, a: xp.reshape(a[0], (2, 4)), lambda np, a: np.reshape(a[0], (2, 4)),
                  repeat=2000))


# ---- the workloads of the other issues ---------------------------------------------------
# _bench_stats and _bench_fft list (name, setup, arrstride_fn,
# numpy_fn) tuples, setup() giving (arrstride inputs, NumPy inputs); their
# targets (ratio at most) come from the issues, matched by name prefix.

OTHER_TARGETS = [
    ("sum ", 0.6), ("max ", 0.6), ("mean ", 0.6), ("std ", 0.3), ("var ", 0.3),
    ("sort ", 1.0), ("argsort ", 1.0), ("unique_values", 0.3), ("take ", 0.8),
    ("boolean mask", 0.8), ("fft complex128 n=", 1.5), ("fft complex128 prime", 2.0),
]


def _other_target(name: str) -> Optional[float]:
    for prefix, t in OTHER_TARGETS:
        if name.startswith(prefix):
            return t
    return None


def _register_tuples(module: str, group: str, setup_takes_rng: bool = False) -> None:
    import importlib
    for name, setup, xfn, nfn in importlib.import_module(f"arrstride.{module}").WORKLOADS:
        if setup_takes_rng:
            setup = (lambda s: lambda: s(__import__("numpy").random.default_rng(0)))(setup)
        register(Workload(name, group, None,
                          (lambda f: lambda xp, a: f(*a))(xfn),
                          (lambda f: lambda np, a: f(*a))(nfn),
                          target=_other_target(name), setup=setup))


_register_tuples("_bench_stats", "stats", setup_takes_rng=True)
_register_tuples("_bench_fft", "fft")

# ---- the linalg workloads (registered by their module) ---------------------------------

from . import _bench_linalg  # noqa: E402,F401


# ---- running -------------------------------------------------------------------------------

def _time(fn: Callable[[], Any], repeat: int) -> float:
    t0 = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - t0) / repeat


def _progress(done: int, total: int, label: str) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label[:40]:<40}")
    sys.stderr.flush()


def run(workloads: List[Workload], samples: int = 7, show_progress: bool = True) -> List[dict]:
    import numpy as np

    import arrstride as xp

    results = []
    total = len(workloads) * samples
    step = 0
    for w in workloads:
        if w.setup is not None:
            xp_in, np_in = w.setup()
        else:
            np_in = w.make_inputs(np)
            xp_in = tuple(xp.asarray(np.ascontiguousarray(a)) for a in np_in)
        # warm up both (first-touch of caches, kernel lookups)
        w.arrstride_fn(xp, xp_in)
        w.numpy_fn(np, np_in)
        t_xp, t_np = [], []
        for _ in range(samples):
            t_xp.append(_time(lambda: w.arrstride_fn(xp, xp_in), w.repeat))
            t_np.append(_time(lambda: w.numpy_fn(np, np_in), w.repeat))
            step += 1
            if show_progress:
                _progress(step, total, w.name)
        mx, mn = statistics.median(t_xp), statistics.median(t_np)
        target = w.target if w.target is not None else TARGETS.get(w.group)
        results.append({"name": w.name, "group": w.group, "arrstride_s": mx, "numpy_s": mn,
                        "ratio": mx / mn if mn > 0 else float("inf"), "target": target})
        del np_in, xp_in
    if show_progress:
        sys.stderr.write("\n")
    return results


def _fmt_time(t: float) -> str:
    if t < 1e-3:
        return f"{t * 1e6:8.2f} us"
    return f"{t * 1e3:8.2f} ms"


def table(results: List[dict]) -> str:
    lines = [f"{'workload':<36} {'arrstride':>11} {'numpy':>11} {'ratio':>7} {'target':>7}",
             "-" * 76]
    for r in results:
        tgt = "" if r["target"] is None else f"<={r['target']:g}"
        flag = "" if r["target"] is None or r["ratio"] <= r["target"] else "  !"
        lines.append(f"{r['name']:<36} {_fmt_time(r['arrstride_s'])} {_fmt_time(r['numpy_s'])} "
                     f"{r['ratio']:7.2f} {tgt:>7}{flag}")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m arrstride bench",
                                description="arrstride vs NumPy on the same workloads")
    p.add_argument("--json", metavar="PATH", help="write the figures as JSON")
    p.add_argument("--samples", type=int, default=7, help="timed samples per workload")
    p.add_argument("-k", metavar="TEXT", help="only workloads whose name contains TEXT")
    p.add_argument("--no-progress", action="store_true")
    args = p.parse_args(argv)
    chosen = [w for w in WORKLOADS if not args.k or args.k in w.name]
    results = run(chosen, samples=args.samples, show_progress=not args.no_progress)
    import arrstride as xp
    print(f"arrstride threads: {xp.get_num_threads()}")
    print(table(results))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
