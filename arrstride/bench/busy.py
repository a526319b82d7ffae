"""busy suite: parallel kernels on a machine whose cores are taken.

Users' cores are busy (joblib or Dask workers, BLAS threads, other jobs).
For each load, busy loops (`python -c 'while True: pass'`) are started on the
machine, then several measuring processes of one setting run at the same time
(each beside the others and the loops), one setting after another:
arrstride with its default thread count, arrstride with
ARRSTRIDE_NUM_THREADS=1, NumPy, and PyTorch when it is installed. NumPy is
imported in every process (scikit-learn and SciPy always have it). Each
process reports the median time of its calls of each operation; a row shows
the worst (slowest) process of each setting, since a pool that waits for a
worker without a CPU hurts some processes and not others.

Targets: default threads at most 1.5x the one-thread time, and at most 1.2x
NumPy's time under the same load.

Each measuring process is `python -m arrstride.bench.busy '<json>'`.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional

from .measure import Progress
from .registry import register
from .tables import fmt_time

# (name, busy loops, measuring processes per setting)
LOADS = [("quiet", 0, 1), ("3 processes", 0, 3), ("5 processes", 0, 5), ("2 busy", 2, 2),
         ("4 busy", 4, 2), ("8 busy", 8, 2), ("16 busy", 16, 2)]
OPS = ["exp float32 1e6", "exp float32 1e7", "sum float64 1e7", "matmul float64 1000^2",
       "sort float64 1e6"]
TARGET_ONE = 1.5    # default threads / one thread
TARGET_NUMPY = 1.2  # default threads / NumPy
SETTINGS = ("default", "one", "numpy", "torch")


def row_name(op: str, load: str) -> str:
    return f"{op} | {load}"


def _placeholder(np, xp):
    raise RuntimeError("the busy suite runs in its own processes (arrstride/bench/busy.py)")


for _load, _, _ in LOADS:
    for _op in OPS:
        register(row_name(_op, _load), _placeholder, suite="busy", group=_load, target=TARGET_NUMPY)


# ---- a measuring process -------------------------------------------------------------------

def _calls(np, m, setting: str) -> Dict[str, object]:
    """The operations, as zero-argument callables on module m's arrays."""
    rng = np.random.default_rng(0)
    data = {"e6": rng.random(10**6, dtype=np.float32), "e7": rng.random(10**7, dtype=np.float32),
            "s7": rng.random(10**7), "mm": rng.random((1000, 1000)), "so": rng.random(10**6)}
    if setting == "numpy":
        d = data
        return {"exp float32 1e6": lambda: np.exp(d["e6"]), "exp float32 1e7": lambda: np.exp(d["e7"]),
                "sum float64 1e7": lambda: np.sum(d["s7"]),
                "matmul float64 1000^2": lambda: d["mm"] @ d["mm"],
                "sort float64 1e6": lambda: np.sort(d["so"])}
    d = {k: (m.from_numpy(v) if setting == "torch" else m.asarray(v)) for k, v in data.items()}
    return {"exp float32 1e6": lambda: m.exp(d["e6"]), "exp float32 1e7": lambda: m.exp(d["e7"]),
            "sum float64 1e7": lambda: m.sum(d["s7"]),
            "matmul float64 1000^2": lambda: d["mm"] @ d["mm"],
            "sort float64 1e6": lambda: m.sort(d["so"])}


def worker(setting: str, ops: List[str], samples: int) -> None:
    """Prints `{op: median seconds per call}` as one JSON line."""
    import numpy as np
    if setting == "torch":
        import torch as m
    else:
        import arrstride as m
    calls = _calls(np, m, setting)
    out = {}
    for op in ops:
        f = calls[op]
        f()
        t0 = time.perf_counter()
        f()
        first = time.perf_counter() - t0
        # per-call times: at least `samples` calls, more for short ones (up to
        # about 0.2 s of calls, at most 60)
        n = max(samples, min(60, int(0.2 / max(first, 1e-6))))
        ts = []
        for _ in range(n):
            t0 = time.perf_counter()
            f()
            ts.append(time.perf_counter() - t0)
        out[op] = statistics.median(ts)
    print(json.dumps(out), flush=True)


# ---- the parent ------------------------------------------------------------------------------

def _settings() -> List[str]:
    try:
        import importlib.util
        has_torch = importlib.util.find_spec("torch") is not None
    except (ImportError, ValueError):
        has_torch = False
    return [s for s in SETTINGS if s != "torch" or has_torch]


def _env(root: Path, setting: str) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "ARRSTRIDE_NUM_THREADS"}
    env["PYTHONPATH"] = os.pathsep.join([str(root)] + [p for p in [env.get("PYTHONPATH")] if p])
    if setting == "one":
        env["ARRSTRIDE_NUM_THREADS"] = "1"
    return env


def run_parent(workloads, samples: int, show_progress: bool) -> List[dict]:
    root = Path(__file__).resolve().parents[2]  # holds the arrstride package
    wanted = {w.name for w in workloads}
    settings = _settings()
    loads = [ld for ld in LOADS if any(row_name(op, ld[0]) in wanted for op in OPS)]
    progress = Progress(len(loads) * len(settings), show_progress)
    rows: List[dict] = []
    try:
        for load, loops, procs in loads:
            ops = [op for op in OPS if row_name(op, load) in wanted]
            busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                    for _ in range(loops)]
            worst: Dict[str, Dict[str, Optional[float]]] = {op: {} for op in ops}
            errors: Dict[str, str] = {}
            try:
                time.sleep(0.2 if loops else 0)
                for setting in settings:
                    progress.label = f"{load}: {setting}"
                    arg = json.dumps({"setting": setting, "ops": ops, "samples": samples})
                    ps = [subprocess.Popen([sys.executable, "-m", f"{__package__}.busy", arg],
                                           cwd=str(root), env=_env(root, setting),
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                          for _ in range(procs)]
                    for p in ps:
                        out, err = p.communicate()
                        if p.returncode != 0:
                            last = [ln for ln in err.splitlines() if ln.strip()][-1:]
                            errors[setting] = f"exit {p.returncode}" + (f": {last[0][:60]}" if last else "")
                            continue
                        for op, t in json.loads(out.strip().splitlines()[-1]).items():
                            worst[op][setting] = max(t, worst[op].get(setting) or 0.0)
                    progress.step()
            finally:
                for b in busy:
                    b.kill()
                for b in busy:
                    b.wait()
            for op in ops:
                w = worst[op]
                d, one, npt = w.get("default"), w.get("one"), w.get("numpy")
                rows.append({"name": row_name(op, load), "suite": "busy", "group": load,
                             "processes": procs, "busy_loops": loops,
                             "arrstride_s": d, "one_thread_s": one, "numpy_s": npt,
                             "torch_s": w.get("torch"),
                             "vs_one_thread": d / one if d and one else None,
                             "ratio": d / npt if d and npt else None, "target": TARGET_NUMPY,
                             "target_one_thread": TARGET_ONE,
                             **({"errors": errors} if errors else {})})
    finally:
        progress.close()
    return rows


def _ratio(r: Optional[float], target: float) -> str:
    if r is None:
        return f"{'—':>7}   "
    return f"{r:7.2f}{'  !' if r > target else '   '}"


def table(rows: List[dict]) -> str:
    head = (f"{'workload | load':<36} {'default':>10} {'1 thread':>10} {'numpy':>10} "
            f"{'pytorch':>10} {'vs 1 thr':>10} {'vs numpy':>10}")
    lines = [head, "-" * len(head)]
    for r in rows:
        cells = [fmt_time(r[k])[:10].strip() if r[k] is not None else "—"
                 for k in ("arrstride_s", "one_thread_s", "numpy_s", "torch_s")]
        lines.append(f"{r['name']:<36} " + " ".join(f"{c:>10}" for c in cells) + " "
                     + _ratio(r["vs_one_thread"], TARGET_ONE) + _ratio(r["ratio"], TARGET_NUMPY)
                     + (f"  ({r['errors']})" if r.get("errors") else ""))
    return "\n".join(lines)


def legend(samples: int) -> str:
    return ("load: busy loops started on the machine, and measuring processes of the same setting run\n"
            "      at once (quiet: one process, no loop); the machine's own other work comes on top.\n"
            f"time: the median of at least {samples} calls (more for short calls) in each process, "
            "of the slowest process.\n"
            "default: arrstride's default thread count; 1 thread: ARRSTRIDE_NUM_THREADS=1; NumPy "
            "imported in every process.\n"
            f"vs 1 thr: default / 1 thread (target <= {TARGET_ONE:g}); vs numpy: default / NumPy "
            f"(target <= {TARGET_NUMPY:g}); !: above the target.")


if __name__ == "__main__":
    _a = json.loads(sys.argv[1])
    worker(_a["setting"], _a["ops"], _a["samples"])
