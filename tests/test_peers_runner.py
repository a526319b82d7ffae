"""conformance/peers: the runner's bookkeeping, and that a peer plugin puts
arrstride into a peer suite's parametrization."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PEERS = Path(__file__).resolve().parent.parent / "conformance" / "peers"
sys.path.insert(0, str(PEERS))
import run  # noqa: E402


def test_backend_of_and_normalize_pair_the_backends():
    a = "sklearn/x.py::test_f[None-arrstride-cpu-float32]"
    s = "sklearn/x.py::test_f[None-array_api_strict-device1-float32]"
    assert run.backend_of(a) == "arrstride"
    assert run.backend_of(s) == "array_api_strict"
    assert run.backend_of("x.py::test_f[array_api_strictest]") is None
    assert run.backend_of("x.py::test_f[numpy]") is None
    assert run.normalize(a) == run.normalize(s)
    assert run.normalize("t.py::f[arrstride to numpy]") == run.normalize("t.py::f[array_api_strict to numpy]")
    assert run.normalize("t.py::f[arrstride-1]") != run.normalize("t.py::f[array_api_strict-2]")


@pytest.mark.parametrize("message, expected", [
    ("TypeError: linspace: start must be a number; got Array(-2.)\nmore",
     ("TypeError", "linspace: start must be a number; got Array(...)")),
    ("AssertionError: \nNot equal to tolerance rtol=1e-06, atol=0",
     ("AssertionError", "Not equal to tolerance rtol=1e-06, atol=0")),
    ("numpy.linalg.LinAlgError: Singular matrix", ("LinAlgError", "Singular matrix")),
    ("Failed: DID NOT RAISE <class 'TypeError'>", ("Failed", "DID NOT RAISE <class 'TypeError'>")),
    ("TypeError: add: got dtype arrstride.int16", ("TypeError", "add: got dtype arrstride.<dtype>")),
    ("assert 1 == 2", ("?", "assert 1 == 2")),
])
def test_split_message(message, expected):
    assert run.split_message(message) == expected


def test_outcomes_from_a_log(tmp_path):
    recs = [
        ("a[arrstride]", "setup", "passed", False), ("a[arrstride]", "call", "failed", False),
        ("a[arrstride]", "teardown", "passed", False),
        ("b[arrstride]", "setup", "failed", False),
        ("c[arrstride]", "???", "failed", False),
        ("d[arrstride]", "setup", "skipped", False),
        ("e[arrstride]", "call", "skipped", True),
        ("f[arrstride]", "setup", "passed", False), ("f[arrstride]", "call", "passed", False),
        ("g[arrstride]", "call", "passed", True),
    ]
    log = tmp_path / "x.jsonl"
    log.write_text("".join(json.dumps({"nodeid": n, "when": w, "outcome": o, "wasxfail": x,
                                       "message": "TypeError: boom", "longrepr": "",
                                       "duration": 0.0}) + "\n" for n, w, o, x in recs))
    got = {k: v["outcome"] for k, v in run.outcomes(log).items()}
    assert got == {"a[arrstride]": "failed", "b[arrstride]": "error", "c[arrstride]": "crashed",
                   "d[arrstride]": "skipped", "e[arrstride]": "xfailed",
                   "f[arrstride]": "passed", "g[arrstride]": "xpassed"}


def test_extra_plugin_parametrizes_arrstride(tmp_path):
    pytest.importorskip("array_api_extra")
    tests = Path(run.SITE) / "array_api_extra" / "tests" / "main" / "test_at.py"
    if not tests.exists():
        pytest.skip("the installed array-api-extra ships no tests")
    cmd = run.pytest_command(run.Run("extra", ["peers_extra"], [str(tests), "--collect-only"]),
                             _Options(), tmp_path / "log.jsonl")
    cmd = [c for c in cmd if not c.startswith("--timeout")]
    proc = subprocess.run(cmd, env=run.environment(), cwd=tmp_path, capture_output=True, text=True)
    ids = [ln for ln in proc.stdout.splitlines() if "::" in ln]
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert any("[arrstride" in i for i in ids)
    assert any("[array_api_strict" in i for i in ids)
    assert all(run.backend_of(i) in ("arrstride", "array_api_strict") for i in ids)


class _Options:
    workers = "0"
    timeout = 0
    k = None
    backends = ["arrstride", "array_api_strict"]
    pytest_args: list = []


def test_exceptions_file_entries_match(tmp_path):
    f = tmp_path / "exceptions.txt"
    f.write_text("# comment\n"
                 "a/t.py::test_x  # reason one\n"
                 "* | has no attribute 'float16'  # reason two\n"
                 "b/t.py | boom  # reason three\n")
    entries = run.load_exceptions(f)
    assert entries == [("a/t.py::test_x", "", "reason one"),
                       ("*", "has no attribute 'float16'", "reason two"),
                       ("b/t.py", "boom", "reason three")]
    assert run.known_exception("a/t.py::test_x[arrstride]", "TypeError: x", entries) == "reason one"
    assert run.known_exception("c/t.py::f[arrstride]", "AttributeError: module 'arrstride' has no "
                               "attribute 'float16'", entries) == "reason two"
    assert run.known_exception("b/t.py::f[arrstride]", "ValueError: boom!", entries) == "reason three"
    assert run.known_exception("b/t.py::f[arrstride]", "ValueError: bang", entries) is None
    # every entry of the shipped file parses into a prefix and a reason
    # (the shipped file may be empty: it holds only what NumPy and PyTorch fail too)
    shipped = run.load_exceptions()
    assert all(prefix and reason for prefix, _, reason in shipped)
