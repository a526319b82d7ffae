#!/usr/bin/env python3
"""Run the array-api-tests conformance suite against arrstride.

Usage (with the venv that has the suite's requirements and arrstride installed):

    ARRAY_API_TESTS_DIR=/work/conf/array-api-tests python conformance/run.py
    python conformance/run.py --suite /path/to/array-api-tests test_creation_functions.py
    python conformance/run.py -n 4 --max-examples 100 test_linalg.py -- -x -k zeros

Positional arguments select test files (``test_foo.py``, optionally with
``::test_name``); the default is the whole ``array_api_tests`` package.
Anything after ``--`` is passed to pytest verbatim.

The suite runs with ARRAY_API_TESTS_MODULE=arrstride, ARRAY_API_TESTS_VERSION=2025.12
and ``--xfails-file conformance/xfails.txt`` (trailing ``# reason`` comments are stripped
into a temporary copy first, since the suite would treat them as part of the id). A per-file summary is computed from a
junit XML report. Exit status is nonzero if any test failed or errored.
If the suite is not available, a message is printed and the exit status is 0.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
XFAILS = HERE / "xfails.txt"
OUTCOMES = ("passed", "failed", "xfailed", "skipped")


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """Split argv at ``--`` and parse our own options."""
    extra: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="*", help="test files, e.g. test_creation_functions.py")
    p.add_argument("--suite", default=os.environ.get("ARRAY_API_TESTS_DIR"),
                   help="array-api-tests checkout (default: $ARRAY_API_TESTS_DIR)")
    p.add_argument("-n", dest="workers", default="2", help="pytest-xdist workers (0 = no xdist)")
    p.add_argument("--max-examples", type=int, default=20, help="hypothesis max examples")
    p.add_argument("--module", default="arrstride", help="ARRAY_API_TESTS_MODULE")
    p.add_argument("--api-version", default="2025.12", help="ARRAY_API_TESTS_VERSION")
    return p.parse_args(argv), extra


def test_path(name: str) -> str:
    """Map ``test_x.py[::test]`` to a path relative to the suite root."""
    if name.startswith("array_api_tests/") or os.path.isabs(name):
        return name
    return f"array_api_tests/{name}"


def file_of(case: ET.Element) -> str:
    """Test file name for a junit <testcase> (also handles collection errors)."""
    full = ".".join(filter(None, (case.get("classname"), case.get("name"))))
    parts = full.split("[", 1)[0].split(".")
    if "array_api_tests" in parts[:-1]:
        return parts[parts.index("array_api_tests") + 1] + ".py"
    return parts[0] + ".py" if parts[0] else "<unknown>"


def outcome_of(case: ET.Element) -> str:
    """One of OUTCOMES for a junit <testcase>."""
    if case.find("failure") is not None or case.find("error") is not None:
        return "failed"
    skipped = case.find("skipped")
    if skipped is not None:
        return "xfailed" if skipped.get("type") == "pytest.xfail" else "skipped"
    return "passed"


def clean_xfails(src: Path, dst: Path) -> Path:
    """Copy xfails.txt dropping trailing ``  # reason`` comments (the suite can't parse them)."""
    lines = (line.split(" #", 1)[0].rstrip() for line in src.read_text().splitlines())
    dst.write_text("\n".join(line for line in lines if line) + "\n")
    return dst


def summarize(junit: Path) -> dict[str, Counter[str]]:
    """Count outcomes per test file from a junit XML report."""
    per_file: dict[str, Counter[str]] = defaultdict(Counter)
    if junit.exists() and junit.stat().st_size:
        for case in ET.parse(junit).getroot().iter("testcase"):
            per_file[file_of(case)][outcome_of(case)] += 1
    return per_file


def main(argv: list[str]) -> int:
    args, extra = parse_args(argv)
    suite = Path(args.suite).expanduser().resolve() if args.suite else None
    if suite is None or not (suite / "array_api_tests").is_dir():
        print("conformance: ARRAY_API_TESTS_DIR not set; skipping array-api-tests"
              + (f" ({suite} has no array_api_tests/)" if suite else ""), flush=True)
        return 0

    env = dict(os.environ, ARRAY_API_TESTS_MODULE=args.module,
               ARRAY_API_TESTS_VERSION=args.api_version)
    with tempfile.TemporaryDirectory(prefix="conformance-") as tmp:
        junit = Path(tmp) / "junit.xml"
        cmd = [sys.executable, "-m", "pytest",
               *([test_path(f) for f in args.files] or ["array_api_tests"]),
               "--max-examples", str(args.max_examples), "--disable-deadline",
               "--xfails-file", str(clean_xfails(XFAILS, Path(tmp) / "xfails.txt")), f"--junitxml={junit}"]
        if args.workers not in ("0", ""):
            cmd += ["-n", args.workers]
        cmd += extra
        print("conformance:", " ".join(cmd), f"(cwd={suite})", flush=True)
        rc = subprocess.call(cmd, cwd=suite, env=env)
        per_file = summarize(junit)

    total: Counter[str] = Counter()
    for name in sorted(per_file):
        c = per_file[name]
        total.update(c)
        print(f"{name}: " + ", ".join(f"{c[o]} {o}" for o in OUTCOMES))
    print("total: " + ", ".join(f"{total[o]} {o}" for o in OUTCOMES))
    print(f"conformance: {total['passed']} passed, {total['failed']} failed")
    if total["failed"]:
        return 1
    if rc not in (0, 5) or not per_file:  # 5 = no tests collected
        print(f"conformance: pytest exited with status {rc}", file=sys.stderr)
        return rc or 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
