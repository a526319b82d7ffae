"""The command line of `python -m arrstride bench`: load the suites, time them
(measure.py), print their tables (tables.py); the e2e suite runs in
subprocesses (e2e.py)."""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
from typing import List, Optional, Sequence

from . import busy, e2e, registry
from .measure import MIN_TIME, Progress, spread, time_interleaved
from .registry import SUITES, Workload
from .tables import fmt_time, ratio_cells, render, summaries, target_text

# Modules that register workloads, by suite.
_MODULES = {"micro": ("micro", "micro_stats", "micro_linalg", "micro_fft"),
            "percall": ("percall",), "offpath": ("offpath",), "e2e": ("e2e",), "busy": ("busy",)}

def load(suites: Sequence[str]) -> None:
    import importlib
    for s in suites:
        for m in _MODULES[s]:
            importlib.import_module(f"{__package__}.{m}")


def torch_or_none():
    """PyTorch when it is installed (the torch extra), else None.

    PyTorch is timed in the same rounds as arrstride and NumPy. Its OpenMP
    threads would spin for a while after each of its calls and hold the
    cores the next arrstride call needs (1e6-element rows ran up to 40%
    slower), so unless the caller chose otherwise they wait passively."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        import torch
    except ImportError:
        return None
    return torch


def _torch_spec(w: Workload, np, torch):
    """The workload's PyTorch spec, or (None, why) when it has none or PyTorch
    refuses its statement (tried once, untimed)."""
    if torch is None or w.torch is None:
        return None, None if w.torch is None else "PyTorch not installed"
    spec = w.torch(np, torch)
    try:
        if callable(spec):
            spec()
        else:
            stmt, ns = spec
            exec(stmt, dict(ns))
    except Exception as e:  # the row keeps its NumPy columns; the table says why
        return None, f"{type(e).__name__}: {e}".splitlines()[0][:120]
    return spec, None


def run(workloads: List[Workload], samples: int, min_time: Optional[float] = None,
        progress: Optional[Progress] = None) -> List[dict]:
    """Times each workload's arrstride and NumPy calls, and its PyTorch call
    when PyTorch is installed and the workload has one, taking turns in the
    same rounds (time_interleaved)."""
    import numpy as np

    import arrstride as xp
    torch = torch_or_none()

    results = []
    for w in workloads:
        mt = MIN_TIME[w.suite] if min_time is None else min_time
        if progress:
            progress.label = w.name
        run_xp, run_np = w.setup(np, xp)
        run_torch, torch_why = _torch_spec(w, np, torch)
        specs = [run_xp, run_np] + ([run_torch] if run_torch is not None else [])
        times = time_interleaved(specs, samples, mt, progress.step if progress else None)
        t_xp, t_np = times[0], times[1]
        mx, mn = statistics.median(t_xp), statistics.median(t_np)
        row = {"name": w.name, "suite": w.suite, "group": w.group,
               "arrstride_s": mx, "numpy_s": mn,
               "arrstride_spread": spread(t_xp), "numpy_spread": spread(t_np),
               "ratio": mx / mn if mn > 0 else math.inf, "target": w.target,
               "torch_version": torch.__version__ if torch is not None else None,
               "torch_s": None, "torch_ratio": None}
        if run_torch is not None:
            mt_ = statistics.median(times[2])
            row.update(torch_s=mt_, torch_spread=spread(times[2]),
                       torch_ratio=mx / mt_ if mt_ > 0 else math.inf)
        elif torch_why:
            row["torch_missing"] = torch_why
        results.append(row)
        del run_xp, run_np, run_torch
    return results


# ---- tables --------------------------------------------------------------------------

def table(results: List[dict], sums: List[dict]) -> str:
    head = f"{'workload':<38} {'arrstride':>16} {'numpy':>16} {'ratio':>7} {'target':>7}"
    body = [f"{r['name']:<38} {fmt_time(r['arrstride_s'], r['arrstride_spread'])} "
            f"{fmt_time(r['numpy_s'], r['numpy_spread'])} {ratio_cells(r['ratio'], r['target'], 7)}"
            for r in results]
    if any(r.get("torch_s") for r in results):  # PyTorch's column, after the targets
        body = [f"{line}{'' if '!' in line[-3:] else '   '} "
                + (f"{fmt_time(r['torch_s'], r['torch_spread'])} {r['torch_ratio']:7.2f}"
                   if r.get("torch_s") else f"{'—':>16} {'':>7}")
                for line, r in zip(body, results)]
        wide = head + f"    {'pytorch':>16} {'vs pt':>7}"
        lines = render(head, body, sums, 7).split("\n")  # summaries under the ratio column
        return "\n".join([wide] + ["-" * len(wide) if ln == "-" * len(head) else ln
                                    for ln in lines[1:]])
    return render(head, body, sums, 7)


def legend(samples: int, min_time: Optional[float], suite: str) -> str:
    mt = MIN_TIME[suite] if min_time is None else min_time
    return (f"time: median over {samples} sample(s) of the time per call; a sample repeats the "
            f"call until it lasts {mt * 1e3:g} ms or more,\n"
            "      arrstride and NumPy (and PyTorch) taking turns sample by sample.\n"
            "±:    half the interquartile range of the samples, in % of the median "
            "(0 with one sample).\n"
            "ratio: arrstride time / NumPy time (below 1: arrstride is faster).\n"
            "pytorch, vs pt: PyTorch's time on the same operation, timed in the same rounds, "
            "and arrstride time / PyTorch time\n"
            "      (only when PyTorch is installed: the torch extra; — where PyTorch does "
            "not take the statement).\n"
            "target: the ratio a row should stay at or under (from the issues); "
            "!: the ratio is above its target.")


# ---- command line ------------------------------------------------------------------------

def _positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {v}")
    return v


def _positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not v > 0:
        raise argparse.ArgumentTypeError(f"must be above 0, got {text}")
    return v


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m arrstride bench",
        description="arrstride against NumPy on the same workloads (suites: micro, percall, offpath, e2e, busy)")
    p.add_argument("--suite", choices=SUITES + ("all",), default="micro",
                   help="which suite to run (default micro)")
    p.add_argument("-k", metavar="TEXT",
                   help="only workloads whose name contains TEXT (case-insensitive)")
    p.add_argument("--list", action="store_true", help="list the chosen workloads and exit")
    p.add_argument("--samples", type=_positive_int, default=7,
                   help="timed samples per workload (default 7)")
    p.add_argument("--min-time", type=_positive_float, metavar="SECONDS",
                   help="shortest duration of one sample (default per suite: "
                        + ", ".join(f"{k} {v:g}" for k, v in MIN_TIME.items()) + ")")
    p.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def main(argv: Optional[List[str]] = None) -> int:
    args = parser().parse_args(argv)
    suites = SUITES if args.suite == "all" else (args.suite,)
    load(suites)
    chosen = [w for w in registry.WORKLOADS
              if w.suite in suites and (not args.k or args.k.lower() in w.name.lower())]
    if not chosen:
        what = f"matches -k {args.k!r}" if args.k else "is registered"
        print(f"python -m arrstride bench: no workload of suite {args.suite} {what} "
              f"(see --list)", file=sys.stderr)
        return 2
    if args.list:
        for w in chosen:
            print(f"{w.suite:<8} {w.group:<8} {target_text(w.target):>7}  {w.name}")
        return 0
    import arrstride as xp
    torch = torch_or_none()
    print(f"arrstride threads: {xp.get_num_threads()}; "
          + (f"PyTorch {torch.__version__}, threads: {torch.get_num_threads()}"
             if torch is not None else "PyTorch not installed (no PyTorch column)"))
    all_rows: List[dict] = []
    for suite in suites:
        ws = [w for w in chosen if w.suite == suite]
        if not ws:
            continue
        print(f"\n== suite {suite}")
        if suite == "e2e":
            rows = e2e.run_parent(ws, args.samples, args.min_time, not args.no_progress)
            sums = e2e.summaries(rows)
            print(e2e.table(rows, sums))
            print(e2e.legend(args.samples, args.min_time))
        elif suite == "busy":
            rows = busy.run_parent(ws, args.samples, not args.no_progress)
            sums = []
            print(busy.table(rows))
            print(busy.legend(args.samples))
        else:
            progress = Progress(len(ws) * args.samples, not args.no_progress)
            try:
                rows = run(ws, args.samples, args.min_time, progress)
            finally:
                progress.close()
            sums = summaries(rows, suite)
            print(table(rows, sums))
            print(legend(args.samples, args.min_time, suite))
        all_rows += rows + sums
    if args.json:
        with open(args.json, "w") as f:
            json.dump(all_rows, f, indent=2)
    return 0
