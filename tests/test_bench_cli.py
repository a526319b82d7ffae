"""`python -m arrstride bench`: the command line and the registry of
arrstride/bench/ (kept fast: listing, refusals and one tiny workload)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def bench(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "arrstride", "bench", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def test_list_names_every_suite():
    r = bench("--list", "--suite", "all")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    suites = [ln.split()[0] for ln in lines]
    assert suites.count("percall") == 21
    assert suites.count("e2e") == 2 * 26
    assert suites.count("offpath") == 18
    assert suites.count("busy") == 7 * 5
    names = r.stdout
    for row in ("add float64 1e7", "x ** 0.5 float64 2e4", "X.T @ X (1000000x1)",
                "sort 1e6 float64", "matmul 1024^2 float64", "fft complex128 n=2^20",
                "call: x[2] = 1.0", "StandardScaler 20000x50", "exp float32 1e6 | 8 busy", "GaussianMixture random_from_data 500x10"):
        assert row in names, row


def test_list_default_suite_is_micro():
    r = bench("--list")
    assert r.returncode == 0, r.stderr
    assert {ln.split()[0] for ln in r.stdout.splitlines()} == {"micro"}


def test_k_without_match_fails_with_message():
    r = bench("-k", "no such workload")
    assert r.returncode != 0
    assert "no workload" in r.stderr and "no such workload" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("value", ["0", "-3", "two"])
def test_bad_samples_refused(value):
    r = bench("--samples", value, "-k", "call: x[2]", "--suite", "percall")
    assert r.returncode == 2
    assert "--samples" in r.stderr and "Traceback" not in r.stderr


def test_tiny_run_prints_table_legend_and_json(tmp_path):
    out = tmp_path / "r.json"
    r = bench("--suite", "percall", "-k", "call: x[2]", "--samples", "3", "--min-time", "0.001",
              "--json", str(out))
    assert r.returncode == 0, r.stderr
    assert "[" not in r.stderr  # no progress bar when stderr is not a terminal
    assert "call: x[2] = 1.0" in r.stdout and "call: x[2]" in r.stdout
    assert "±" in r.stdout and "!:" in r.stdout and "target:" in r.stdout
    rows = json.loads(out.read_text())
    names = [r.get("name") for r in rows]
    assert names[:2] == ["call: x[2] = 1.0", "call: x[2]"]
    for row in rows[:2]:
        assert row["arrstride_s"] > 0 and row["numpy_s"] > 0 and row["target"] == 5.0
        assert row["ratio"] == pytest.approx(row["arrstride_s"] / row["numpy_s"])
    assert {s["kind"] for s in rows[2:]} == {"geomean", "max"}
    assert max(r["ratio"] for r in rows[:2]) == pytest.approx(rows[3]["ratio"])


def test_e2e_row_runs_in_a_worker(tmp_path):
    out = tmp_path / "e.json"
    r = bench("--suite", "e2e", "-k", "r2_score 500x10", "--samples", "1", "--min-time", "0.001",
              "--json", str(out), timeout=300)
    assert r.returncode == 0, r.stderr
    row = json.loads(out.read_text())[0]
    assert row["name"] == "r2_score 500x10"
    assert row["plain_s"] > 0 and row["npapi_s"] > 0
    assert row["arrstride_s"] > 0 and "arrstride_differs" not in row
    assert row["ratio"] == pytest.approx(row["arrstride_s"] / row["plain_s"])


def test_bench_runs_from_an_installed_package_outside_the_checkout(tmp_path):
    """The suites ship in arrstride.bench: a process started elsewhere, with
    no checkout on its path, lists them."""
    import arrstride
    pkg_parent = str(Path(arrstride.__file__).resolve().parents[1])
    env = dict(__import__("os").environ, PYTHONPATH=pkg_parent)
    r = subprocess.run([sys.executable, "-m", "arrstride", "bench", "--list", "--suite", "percall"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "call:" in r.stdout


def test_registry_refuses_duplicates_and_unknown_suites():
    from arrstride.bench import registry
    before = list(registry.WORKLOADS)
    try:
        registry.register("test-only row", lambda np, xp: (None, None), suite="micro", group="g")
        with pytest.raises(ValueError, match="exists already"):
            registry.register("test-only row", lambda np, xp: (None, None), suite="micro",
                              group="g")
        with pytest.raises(ValueError, match="unknown suite"):
            registry.register("other row", lambda np, xp: (None, None), suite="nope", group="g")
    finally:
        registry.WORKLOADS[:] = before


def test_e2e_compare_reports_differences():
    import numpy as np

    import arrstride as xp
    from arrstride.bench.e2e import compare
    a = np.linspace(0, 1, 7)
    assert compare(a, xp.asarray(a)) is None
    assert compare((a, a[:3]), (xp.asarray(a), xp.asarray(a[:3]))) is None
    b = a.copy()
    b[3] += 1e-3
    assert "max |difference|" in compare(a, xp.asarray(b))
    assert "shape" in compare(a, xp.asarray(a[:4]))


def test_e2e_survives_a_job_that_kills_its_process(tmp_path):
    """The job running when the worker dies gets a row saying so; the jobs
    after it run in a fresh worker; a job that raises shows its error."""
    import os
    out = tmp_path / "e.json"
    env = dict(os.environ, ARRSTRIDE_BENCH_ABORT_IN="accuracy_score 500x10")
    r = subprocess.run([sys.executable, "-m", "arrstride", "bench", "--suite", "e2e", "-k",
                        "_score 500x10", "--samples", "1", "--min-time", "0.001",
                        "--json", str(out)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rows = {row["name"]: row for row in json.loads(out.read_text()) if "name" in row}
    assert list(rows) == ["r2_score 500x10", "accuracy_score 500x10", "roc_auc_score 500x10"]
    assert rows["r2_score 500x10"]["arrstride_s"] > 0
    assert "process died" in rows["accuracy_score 500x10"]["crash"]
    assert rows["roc_auc_score 500x10"]["plain_s"] > 0
    assert "process died" in r.stdout


def _runner():
    from arrstride.bench import registry, runner
    return registry, runner


def test_pytorch_column_in_the_same_rounds(tmp_path):
    """With PyTorch installed, every percall row is timed with PyTorch too (same
    run, same rounds) and the JSON holds its time and arrstride's ratio to it."""
    pytest.importorskip("torch", reason="PyTorch not installed")
    out = tmp_path / "r.json"
    r = bench("--suite", "percall", "-k", "call: x[1:3]", "--samples", "3", "--min-time",
              "0.001", "--json", str(out))
    assert r.returncode == 0, r.stderr
    assert "pytorch" in r.stdout and "vs pt" in r.stdout
    rows = [row for row in json.loads(out.read_text()) if "name" in row]
    assert [row["name"] for row in rows] == ["call: x[1:3] = 0.0", "call: x[1:3]"]
    for row in rows:
        assert row["torch_s"] > 0 and row["torch_version"]
        assert row["torch_ratio"] == pytest.approx(row["arrstride_s"] / row["torch_s"])


def test_pytorch_refusing_a_statement_leaves_its_cell_empty(monkeypatch):
    """A workload whose PyTorch statement raises keeps its NumPy columns, and the
    row says why; without PyTorch the row says it is not installed."""
    registry, runner = _runner()

    def torch_setup(np, torch):
        def run():
            raise TypeError("no such thing in torch")
        return run
    w = registry.Workload("synthetic", "percall", "call", lambda np, xp: (
        (lambda: xp.asarray(1.0)), (lambda: np.asarray(1.0))), None, torch_setup)
    import types
    for torch in (types.SimpleNamespace(__version__="0.test"), None):
        monkeypatch.setattr(runner, "torch_or_none", lambda: torch)
        row, = runner.run([w], samples=1, min_time=0.001)
        assert row["arrstride_s"] > 0 and row["numpy_s"] > 0
        assert row["torch_s"] is None and row["torch_ratio"] is None
        assert row["torch_missing"] == ("TypeError: no such thing in torch" if torch is not None
                                        else "PyTorch not installed")


def test_plot_has_a_pytorch_series_or_says_why_not(tmp_path):
    """bench --plot: arrstride / PyTorch bars when the run timed PyTorch; the
    legend says PyTorch was not installed when it was not."""
    pytest.importorskip("matplotlib", reason="matplotlib not installed (the bench extra)")
    from arrstride.__main__ import plot_json
    base = {"suite": "percall", "group": "call", "arrstride_s": 2e-6, "numpy_s": 1e-6,
            "ratio": 2.0, "target": 5.0}
    with_torch = [dict(base, name="a", torch_version="2.x", torch_s=4e-6, torch_ratio=0.5),
                  dict(base, name="b", torch_version="2.x", torch_s=None, torch_ratio=None)]
    without = [dict(base, name="a", torch_version=None, torch_s=None, torch_ratio=None)]
    for rows, expect in ((with_torch, "arrstride / PyTorch 2.x (1 rows without a PyTorch "
                                      "statement)"),
                         (without, "PyTorch not installed")):
        (tmp_path / "b.json").write_text(json.dumps(rows))
        png = tmp_path / "b.png"
        labels = plot_json(str(tmp_path / "b.json"), str(png))
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert any(expect in label for label in labels), labels


def test_busy_suite_runs_one_row():
    # the busy suite's measuring processes, on the quiet load only (no busy loops)
    r = bench("--suite", "busy", "-k", "sum float64 1e7 | quiet", "--samples", "3", timeout=300)
    assert r.returncode == 0, r.stderr
    row = [ln for ln in r.stdout.splitlines() if ln.startswith("sum float64 1e7 | quiet")]
    assert len(row) == 1 and row[0].count(" ms") + row[0].count(" us") >= 3, r.stdout  # default, 1 thread, NumPy
    assert "vs 1 thr" in r.stdout
