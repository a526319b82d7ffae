#!/usr/bin/env python3
"""Run scikit-learn's, SciPy's, array-api-extra's, Cubed's and xarray's own
array-API tests with arrstride as a backend, beside controls: array_api_strict
and PyTorch (CPU) for SciPy and scikit-learn, array_api_strict for
array-api-extra and xarray, Cubed's NumPy backend for Cubed.

    python conformance/peers/run.py [sklearn|scipy|extra|cubed|xarray|all] [-k EXPR] [options] [-- pytest args]

The tests are the ones shipped in the installed wheels. A pytest plugin per
suite (peers_sklearn.py, peers_scipy.py, peers_extra.py, loaded with ``-p``)
adds "arrstride" to the suite's backend parametrization; peers_common.py keeps
only the tests parametrized with arrstride or array_api_strict and logs every
outcome. Each suite (each SciPy module) is one pytest-xdist run, so a crash
costs one worker, not the run; Cubed and xarray take one run per backend
(the backend is set for the whole run: CUBED_BACKEND_ARRAY_API_MODULE, and
peers_xarray.py swapping arrstride in for array_api_strict). Prints, per suite,
the counts per backend and the tests that fail for arrstride and pass for a
control ("passes for array_api_strict", "passes for torch", ...), grouped by
exception and message.
Logs and reports go to conformance/peers/.cache/ (git-ignored).
Exit status: 1 if any test fails for arrstride only, else 0.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import sysconfig
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peers_ids import backend_of  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CACHE = HERE / ".cache"
SITE = Path(sysconfig.get_paths()["purelib"])
BACKEND, CONTROL = "arrstride", "array_api_strict"
# the controls each suite is compared with (NumPy: Cubed's default backend)
CONTROLS = {"extra": (CONTROL,), "sklearn": (CONTROL, "torch"), "scipy": (CONTROL, "torch"),
            "cubed": ("numpy",), "xarray": (CONTROL,)}
OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed", "crashed")
BAD = ("failed", "error", "crashed")

# SciPy subpackages with array-API tests, in the order `scipy` runs them (each is its
# own pytest run; io, sparse, fftpack, odr, datasets and misc have none in 1.17)
SCIPY_MODULES = ("special", "stats", "signal", "fft", "linalg", "ndimage", "cluster",
                 "integrate", "optimize", "interpolate", "spatial", "differentiate",
                 "constants", "_lib")

# scikit-learn test files that take namespaces from the generators the plugin wraps
_SKLEARN_MARKERS = ("yield_namespace", "_array_api_for_tests", "yield_mixed_namespace")


def sklearn_paths() -> list[str]:
    base = SITE / "sklearn"
    files = []
    for f in sorted(base.rglob("tests/test_*.py")):
        text = f.read_text(encoding="utf-8", errors="replace")
        if any(m in text for m in _SKLEARN_MARKERS):
            files.append(str(f))
    common = base / "tests" / "test_common.py"  # estimator checks (_yield_array_api_checks)
    if str(common) not in files:
        files.append(str(common))
    return files


# Cubed's own tests that run on the local executors (the rest need Lithops,
# Modal, Dask clusters, icechunk or measure memory for minutes)
CUBED_TESTS = ("test_array_api.py", "test_core.py", "test_indexing.py", "test_linalg.py",
               "test_ops.py", "test_random.py", "test_rechunk.py", "test_groupby.py",
               "test_gufunc.py", "test_types.py", "test_utils.py", "test_optimization.py",
               "test_inspection.py", "array", "primitive")
XARRAY_TESTS = ("test_array_api.py", "test_namedarray.py", "test_duck_array_wrapping.py")


class Run:
    """One pytest run: its name, plugins, pytest args, extra environment, the
    backend of every test in it (None: read from each test id) and the group
    whose runs are compared together."""

    def __init__(self, name, plugins, args, env=None, backend=None, group=None):
        self.name, self.plugins, self.args = name, plugins, args
        self.env, self.backend, self.group = env or {}, backend, group or name


def plan(suite: str, scipy_modules: list[str], cubed_tests: list[str] = list(CUBED_TESTS)) -> list[Run]:
    """The pytest runs of a suite."""
    if suite == "extra":
        return [Run("extra", ["peers_extra"], [str(SITE / "array_api_extra" / "tests" / "main")])]
    if suite == "sklearn":
        return [Run("sklearn", ["peers_sklearn"], sklearn_paths())]
    if suite == "cubed":
        paths = [str(SITE / "cubed" / "tests" / t) for t in cubed_tests]
        return [Run(f"cubed.{b}", [], paths + ["-m", "not slow"],
                    {"CUBED_BACKEND_ARRAY_API_MODULE": b}, b, "cubed")
                for b in (BACKEND, "numpy")]
    if suite == "xarray":
        paths = [str(SITE / "xarray" / "tests" / t) for t in XARRAY_TESTS]
        return [Run(f"xarray.{b}", ["peers_xarray"], paths + [f"--peers-xarray={b}"], None, b, "xarray")
                for b in (BACKEND, CONTROL)]
    runs = []
    for mod in scipy_modules:
        path = SITE / "scipy" / mod
        if path.is_dir():
            runs.append(Run(f"scipy.{mod}", ["peers_scipy"],
                            [str(path), "-m", "array_api_backends and not slow"]))
    return runs


def pytest_command(run: Run, ns: argparse.Namespace, log: Path) -> list[str]:
    plugins, args = run.plugins, run.args
    cmd = [sys.executable, "-m", "pytest", "-p", "peers_common"]
    for p in plugins:
        cmd += ["-p", p]
    backends = "*" if run.backend else ",".join(ns.backends)
    cmd += ["-p", "no:cacheprovider", f"--rootdir={SITE}", "-q", "-rN", "--tb=short",
            f"--peers-log={log}", f"--peers-backends={backends}"]
    if ns.workers != "0":
        cmd += ["-n", ns.workers, "--max-worker-restart=1000"]
    if ns.timeout:
        cmd += [f"--timeout={ns.timeout}"]
    if ns.k:
        cmd += ["-k", ns.k]
    return cmd + args + ns.pytest_args


def environment(extra: dict | None = None) -> dict:
    env = dict(os.environ)
    env.update(extra or {})
    env["SCIPY_ARRAY_API"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), str(HERE)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("ARRSTRIDE_NUM_THREADS", "1")
    return env


# ---- reading the logs ------------------------------------------------------------

_DEVICES = re.compile(r"\b(CPU_DEVICE|device1|cpu)\b")


def normalize(nodeid: str) -> str:
    """The id with the backend (and its device name) replaced, to pair the backends."""
    head, _, params = nodeid.partition("[")
    params = params.replace(BACKEND, "{xp}")
    params = re.sub(r"array_api_strict(?!est)", "{xp}", params)
    params = re.sub(r"\btorch\b", "{xp}", params)
    return head + "[" + _DEVICES.sub("{dev}", params)


def outcomes(log: Path) -> dict[str, dict]:
    """nodeid -> {"outcome", "message", "longrepr"} from a peers_common log."""
    tests: dict[str, dict] = {}
    if not log.exists():
        return tests
    for line in log.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        t = tests.setdefault(r["nodeid"], {"outcome": None, "message": None,
                                           "longrepr": None, "duration": 0.0})
        t["duration"] += r.get("duration") or 0.0
        o = r["outcome"]
        if r["when"] == "???":  # pytest-xdist: the worker died running this test
            t.update(outcome="crashed", message=r["message"] or "worker crashed")
        elif r["when"] == "collect":
            t.update(outcome="error", message=r["message"], longrepr=r["longrepr"])
        elif o == "failed":
            if t["outcome"] in ("failed", "error", "crashed"):
                continue
            kind = "failed" if r["when"] == "call" else "error"
            if r["wasxfail"]:
                kind = "xpassed"  # strict xpass
            t.update(outcome=kind, message=r["message"], longrepr=r["longrepr"])
        elif o == "skipped":
            if t["outcome"] is None:
                t.update(outcome="xfailed" if r["wasxfail"] else "skipped",
                         message=r["message"])
        elif o == "passed" and r["when"] == "call":
            t["outcome"] = "xpassed" if r["wasxfail"] else "passed"
    return tests


def split_message(message: str | None) -> tuple[str, str]:
    """(exception type, first line of its message)."""
    if not message:
        return "?", ""
    m = re.match(r"([A-Za-z_][\w.]*)(?::|$)", message)
    if m and m.group(1).rsplit(".", 1)[-1][:1].isupper():  # an exception class
        kind, rest = m.group(1), message[m.end():]
    else:
        kind, rest = "?", message
    lines = [ln.strip() for ln in rest.strip().splitlines() if ln.strip()]
    first = lines[0] if lines else ""
    # one group for one cause: hide the values and dtypes a message quotes
    first = re.sub(r"Array\([^()]*\)", "Array(...)", first)
    first = re.sub(r"\b(arrstride|array_api_strict)\.(u?int\d+|float\d+|complex\d+|bool)\b",
                   r"\1.<dtype>", first)
    return kind.rsplit(".", 1)[-1], first[:200]


EXCEPTIONS = HERE / "exceptions.txt"


def load_exceptions(path: Path = EXCEPTIONS) -> list[tuple[str, str, str]]:
    """(test id prefix or "*", message fragment or "", reason) from exceptions.txt."""
    entries = []
    if not path.exists():
        return entries
    for line in path.read_text(encoding="utf-8").splitlines():
        body, _, reason = line.partition("  # ")
        body = body.strip()
        if not body or body.startswith("#"):
            continue
        prefix, _, fragment = (p.strip() for p in body.partition("|"))
        entries.append((prefix, fragment, reason.strip()))
    return entries


def known_exception(nodeid: str, message: str | None, entries) -> str | None:
    """The reason of the first entry matching a failure, or None."""
    for prefix, fragment, reason in entries:
        if (prefix == "*" or nodeid.startswith(prefix)) and fragment in (message or ""):
            return reason
    return None


def segfaults(out: Path) -> tuple[int, int]:
    """(fatal errors, those raised in the garbage collector) in a run's output."""
    if not out.exists():
        return 0, 0
    blocks = out.read_text(encoding="utf-8", errors="replace").split("Fatal Python error")[1:]
    return len(blocks), sum("Garbage-collecting" in b[:2000] for b in blocks)


def summarize(name: str, logs: list[tuple[Path, str | None]], controls: tuple[str, ...],
              seconds: float | None, out, limit: int = 5, totals: dict | None = None) -> int:
    """Print counts and arrstride-only failures of one group of runs (its logs,
    each with the backend of all its tests or None: from the ids); return their
    number. Counts per backend are added to `totals` when given.

    A failure for arrstride is listed under "passes for C" for each control C
    that passed it; not listed when a control failed it and none passed it;
    listed under "no control ran" when every control skipped, xfailed or
    lacked it. exceptions.txt takes a failure out of the count only when no
    control passed it (it may hold only what PyTorch and NumPy fail too)."""
    by_backend: dict[str, dict] = {BACKEND: {}}
    for c in controls:
        by_backend[c] = {}
    for log, fixed in logs:
        for nodeid, t in outcomes(log).items():
            b = fixed or backend_of(nodeid)
            if b in by_backend:
                by_backend[b][normalize(nodeid)] = (nodeid, t)
            elif t["outcome"] in BAD:  # collection errors and the like
                by_backend.setdefault("other", {})[nodeid] = (nodeid, t)
    took = f" ({seconds:.0f} s)" if seconds is not None else ""
    print(f"\n== {name}{took} ==", file=out)
    print(f"  {'backend':<18}" + "".join(f"{o:>9}" for o in OUTCOMES), file=out)
    for b, tests_b in by_backend.items():
        counts = defaultdict(int)
        for _, t in tests_b.values():
            counts[t["outcome"] or "error"] += 1
        if totals is not None:
            for o, c in counts.items():
                totals.setdefault(b, defaultdict(int))[o] += c
        print(f"  {b:<18}" + "".join(f"{counts[o]:>9}" for o in OUTCOMES), file=out)
    for nodeid, t in by_backend.get("other", {}).values():
        print(f"  not run: {nodeid}: {split_message(t['message'])}", file=out)

    sections = {f"passes for {c}": defaultdict(list) for c in controls}
    sections["no control ran (skipped, xfailed or absent)"] = defaultdict(list)
    known: dict[tuple[str, str], list[str]] = defaultdict(list)
    entries = load_exceptions()
    failures = set()
    for key, (nodeid, t) in sorted(by_backend[BACKEND].items()):
        if t["outcome"] not in BAD:
            continue
        ctl = {c: by_backend[c][key][1]["outcome"] if key in by_backend[c] else None
               for c in controls}
        passed = [c for c in controls if ctl[c] in ("passed", "xpassed")]
        if not passed and any(o in BAD for o in ctl.values()):
            continue  # a control fails it too
        kind = ("crashed worker", "") if t["outcome"] == "crashed" else split_message(t["message"])
        reason = None if t["outcome"] == "crashed" else known_exception(nodeid, t["message"], entries)
        if reason is not None and not passed:
            known[(reason, "")].append(nodeid)
            continue
        note = "  (exceptions.txt entry contradicted)" if reason is not None else ""
        failures.add(nodeid)
        if passed:
            for c in passed:
                sections[f"passes for {c}"][kind].append(nodeid + note)
        else:
            ran = ", ".join(f"{c} {o}" for c, o in ctl.items() if o) or "no control"
            sections["no control ran (skipped, xfailed or absent)"][kind].append(
                f"{nodeid}  ({ran})")
    n = len(failures)
    print(f"  arrstride-only failures: {n}", file=out)
    for section, groups in sections.items():
        if not groups:
            continue
        m = sum(len(v) for v in groups.values())
        print(f"  -- fails for arrstride, {section}: {m} in {len(groups)} groups"
              if section.startswith("passes") else f"  -- {section}: {m} in {len(groups)} groups",
              file=out)
        for (kind, first), ids in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            print(f"  [{len(ids)}] {kind}: {first}", file=out)
            for i in ids[:limit]:
                print(f"      {i}", file=out)
            if len(ids) > limit:
                print(f"      ... and {len(ids) - limit} more", file=out)
    if known:
        print(f"  known exceptions (exceptions.txt, not counted): "
              f"{sum(len(v) for v in known.values())} in {len(known)} entries", file=out)
        for (reason, _), ids in sorted(known.items(), key=lambda kv: -len(kv[1])):
            print(f"  [{len(ids)}] {reason}", file=out)
            for i in ids[:min(limit, 2)]:
                print(f"      {i}", file=out)
    segv = in_gc = 0
    for log, _ in logs:
        a, b = segfaults(log.with_suffix(".out"))
        segv, in_gc = segv + a, in_gc + b
    if segv:
        print(f"  segfaults in workers: {segv}, {in_gc} of them while garbage-collecting", file=out)
    return n


SUITES = ("extra", "sklearn", "scipy", "cubed", "xarray")


def main(argv: list[str]) -> int:
    extra: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("suite", nargs="?", default="all", choices=SUITES + ("all",))
    p.add_argument("-k", default=None, help="pytest -k expression")
    p.add_argument("-n", dest="workers", default="2", help="pytest-xdist workers (0: none)")
    p.add_argument("--scipy-modules", default=",".join(SCIPY_MODULES),
                   help="comma-separated SciPy subpackages, run one by one")
    p.add_argument("--cubed-tests", default=",".join(CUBED_TESTS),
                   help="comma-separated files and folders of cubed/tests (their full run with "
                        "both backends takes about an hour on 2 busy cores)")
    p.add_argument("--backends", default=None,
                   help="which backends' tests to run (default: arrstride and the suite's "
                        "controls; e.g. arrstride alone, or arrstride,torch)")
    p.add_argument("--timeout", type=int, default=600, help="per-test timeout in s (0: none)")
    p.add_argument("--show", type=int, default=5, help="test ids shown per group")
    p.add_argument("--report-only", action="store_true",
                   help="summarize the logs of the last run without running anything")
    ns = p.parse_args(argv)
    ns.pytest_args = extra
    wanted = ns.backends.split(",") if ns.backends else None
    if ns.timeout:
        try:
            import pytest_timeout  # noqa: F401
        except ImportError:
            ns.timeout = 0
    suites = SUITES if ns.suite == "all" else (ns.suite,)
    CACHE.mkdir(exist_ok=True)
    partial = bool(ns.k or ns.pytest_args)
    report = CACHE / f"report-{ns.suite}{'.k' if partial else ''}.txt"
    total = 0
    totals: dict = {}
    with open(report, "w", encoding="utf-8") as rep:
        class Tee:
            def write(self, s):
                sys.stdout.write(s)
                rep.write(s)

            def flush(self):
                sys.stdout.flush()
                rep.flush()
        out = Tee()
        where = subprocess.run([sys.executable, "-c", "import arrstride; print(arrstride.__file__)"],
                               env=environment(), cwd=CACHE, capture_output=True, text=True)
        print(f"arrstride under test: {where.stdout.strip() or where.stderr.strip()}", file=out)
        for suite in suites:
            controls = CONTROLS[suite]
            ns.backends = wanted or [BACKEND, *controls]
            groups: dict[str, list[Run]] = {}
            for run in plan(suite, ns.scipy_modules.split(","), ns.cubed_tests.split(",")):
                if run.backend is None or run.backend in ns.backends:
                    groups.setdefault(run.group, []).append(run)
            for group, runs in groups.items():
                logs, seconds = [], 0.0
                for run in runs:
                    # a partial run (-k, raw pytest args) keeps its own logs
                    log = CACHE / (f"{run.name}.k.jsonl" if partial else f"{run.name}.jsonl")
                    if ns.report_only:
                        if log.exists():
                            logs.append((log, run.backend))
                        seconds = None
                        continue
                    cmd = pytest_command(run, ns, log)
                    t0 = time.monotonic()
                    with open(log.with_suffix(".out"), "w") as f:
                        subprocess.run(cmd, env=environment(run.env), cwd=CACHE, stdout=f,
                                       stderr=subprocess.STDOUT)
                    seconds += time.monotonic() - t0
                    logs.append((log, run.backend))
                if logs:
                    total += summarize(group, logs, controls, seconds, out, ns.show, totals)
                    out.flush()
        print(f"\n== total ({ns.suite}) ==", file=out)
        print(f"  {'backend':<18}" + "".join(f"{o:>9}" for o in OUTCOMES), file=out)
        for b, counts in totals.items():
            print(f"  {b:<18}" + "".join(f"{counts[o]:>9}" for o in OUTCOMES), file=out)
        print(f"\npeers: {total} arrstride-only failures (report: {report})", file=out)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
