"""e2e suite: scikit-learn and SciPy through the array API, in three columns:
plain NumPy (sklearn's array_api_dispatch off), NumPy through the library's
array-API path (dispatch on, NumPy inputs) and arrstride (dispatch on,
arrstride inputs), each at two sizes.

Each size runs in its own process (`python -m arrstride.bench.e2e` with
SCIPY_ARRAY_API=1 set before SciPy is imported); a job that raises shows its
error in its row, and a job that kills its process is reported as such while
the remaining jobs run in a fresh process.

SciPy reads SCIPY_ARRAY_API once, at import, so its rows have no separate
dispatch-off column: the NumPy column is NumPy through SciPy's array-API path.
"""
from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from .measure import MIN_TIME, Progress, calibrate, spread, timer
from .registry import register, summary
from .tables import fmt_time, ratio_cells, render
from .tables import summaries as ratio_summaries

SIZES = {"small": (500, 10), "medium": (20000, 50)}
TARGET_ROW = {"small": None, "medium": 1.2}
PAIRWISE_COLS = 500  # pairwise jobs compare X with its first 500 rows (a 20000^2 result is 3.2 GB)

summary("e2e", "small (500x10): geomean arrstride/NumPy", ("small",), "geomean", 1.3)
summary("e2e", "medium (20000x50): geomean arrstride/NumPy", ("medium",), "geomean", 0.8)
summary("e2e", "medium (20000x50): largest arrstride/NumPy", ("medium",), "max", 1.2)


# ---- the jobs ----------------------------------------------------------------------------
# A job is f(m, d) -> result, m the array namespace of the inputs (NumPy or
# arrstride), d the data dict: X (n, p), y (n,) regression target, yc (n,)
# int64 labels 0/1, score (n,) float64, yhat (n,) float64, v (n*p,) a signal.

def _sk(estimator: Callable[[], Any], method: str = "fit"):
    def job(m, d):
        est = estimator()
        if method == "fit_transform":
            return est.fit_transform(d["X"])
        if method == "fit_y":
            return est.fit(d["X"], d["y"])
        if method == "fit_yc":
            return est.fit(d["X"], d["yc"])
        return est.fit(d["X"])
    return job


def _standard_scaler():
    from sklearn.preprocessing import StandardScaler
    return StandardScaler()


def _minmax_scaler():
    from sklearn.preprocessing import MinMaxScaler
    return MinMaxScaler()


def _pca(solver):
    def make():
        from sklearn.decomposition import PCA
        return PCA(n_components=5, svd_solver=solver, random_state=0)
    return make


def _ridge():
    from sklearn.linear_model import Ridge
    return Ridge(alpha=1.0)


def _ridge_cv():
    from sklearn.linear_model import RidgeCV
    return RidgeCV(alphas=(0.1, 1.0, 10.0))


def _logistic():
    from sklearn.linear_model import LogisticRegression
    return LogisticRegression(solver="lbfgs", max_iter=100)


def _lda():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    return LinearDiscriminantAnalysis()


def _gnb():
    from sklearn.naive_bayes import GaussianNB
    return GaussianNB()


def _gmm():
    from sklearn.mixture import GaussianMixture
    # the default k-means init is refused under array_api_dispatch
    return GaussianMixture(n_components=3, max_iter=20, init_params="random_from_data",
                           random_state=0)


def _nystroem():
    from sklearn.kernel_approximation import Nystroem
    return Nystroem(n_components=100, random_state=0)


def _metric(name: str, *keys):
    def job(m, d):
        import sklearn.metrics as sm
        return getattr(sm, name)(*[d[k] for k in keys])
    return job


def _pairwise(name: str):
    def job(m, d):
        import sklearn.metrics.pairwise as pw
        return getattr(pw, name)(d["X"], d["X"][:PAIRWISE_COLS])
    return job


def _grid(m, d):
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import GridSearchCV
    return GridSearchCV(Ridge(), {"alpha": [0.1, 1.0, 10.0]}, cv=3).fit(d["X"], d["y"])


def _scipy(path: str, *keys, **kw):
    def job(m, d):
        import importlib
        mod, fn = path.rsplit(".", 1)
        f = getattr(importlib.import_module(mod), fn)
        if keys == ("halves",):
            n = d["X"].shape[0] // 2
            return f(d["X"][:n], d["X"][n:], **kw)
        return f(*[d[k] for k in keys], **kw)
    return job


# (name, job, uses scikit-learn)
JOBS = [
    ("StandardScaler", _sk(_standard_scaler, "fit_transform"), True),
    ("MinMaxScaler", _sk(_minmax_scaler, "fit_transform"), True),
    ("PCA full", _sk(_pca("full"), "fit_transform"), True),
    ("PCA randomized", _sk(_pca("randomized"), "fit_transform"), True),
    ("Ridge", _sk(_ridge, "fit_y"), True),
    ("RidgeCV", _sk(_ridge_cv, "fit_y"), True),
    ("LogisticRegression lbfgs", _sk(_logistic, "fit_yc"), True),
    ("LinearDiscriminantAnalysis", _sk(_lda, "fit_yc"), True),
    ("GaussianNB", _sk(_gnb, "fit_yc"), True),
    ("GaussianMixture random_from_data", _sk(_gmm), True),
    ("Nystroem", _sk(_nystroem, "fit_transform"), True),
    ("pairwise_distances(X, X[:500])", _pairwise("pairwise_distances"), True),
    ("euclidean_distances(X, X[:500])", _pairwise("euclidean_distances"), True),
    ("rbf_kernel(X, X[:500])", _pairwise("rbf_kernel"), True),
    ("r2_score", _metric("r2_score", "y", "yhat"), True),
    ("accuracy_score", _metric("accuracy_score", "yc", "ycp"), True),
    ("roc_auc_score", _metric("roc_auc_score", "yc", "score"), True),
    ("GridSearchCV Ridge 3 alphas cv=3", _grid, True),
    ("scipy special.logsumexp axis=1", _scipy("scipy.special.logsumexp", "X", axis=1), False),
    ("scipy special.erf", _scipy("scipy.special.erf", "X"), False),
    ("scipy stats.zscore", _scipy("scipy.stats.zscore", "X"), False),
    ("scipy stats.describe", _scipy("scipy.stats.describe", "X"), False),
    ("scipy stats.ttest_ind halves", _scipy("scipy.stats.ttest_ind", "halves"), False),
    ("scipy signal.convolve(v, k64)", _scipy("scipy.signal.convolve", "v", "k"), False),
    ("scipy signal.correlate(v, k64)", _scipy("scipy.signal.correlate", "v", "k"), False),
    ("scipy fft.rfft(v)", _scipy("scipy.fft.rfft", "v"), False),
]
_BY_NAME = {name: (job, uses_sklearn) for name, job, uses_sklearn in JOBS}


def row_name(job: str, size: str) -> str:
    n, p = SIZES[size]
    return f"{job} {n}x{p}"


for _size in SIZES:
    for _name, _job, _ in JOBS:
        # setup=the job itself; this suite is run by run_parent, not runner.run
        register(row_name(_name, _size), _job, suite="e2e", group=_size,
                 target=TARGET_ROW[_size])


def data(np, size: str) -> Dict[str, Any]:
    n, p = SIZES[size]
    rng = np.random.default_rng(0)
    X = rng.standard_normal((n, p))
    w = rng.standard_normal(p)
    noise = rng.standard_normal(n)
    y = X @ w + 0.1 * noise
    yc = (X[:, 0] + 0.5 * noise > 0).astype(np.int64)
    score = X[:, 0] + noise
    ycp = (score > 0).astype(np.int64)
    yhat = y + 0.2 * rng.standard_normal(n)
    v = X.reshape(-1).copy()
    k = rng.standard_normal(64)
    return dict(X=X, y=y, yc=yc, score=score, ycp=ycp, yhat=yhat, v=v, k=k)


# ---- the worker: one process per size --------------------------------------------------------

def _short_error(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}".splitlines()[0] if str(e) else type(e).__name__
    return text if len(text) <= 90 else text[:87] + "..."


def _values(result) -> Dict[str, Any]:
    """The numbers a job produced, by name: a fitted estimator's public fitted
    attributes (ending in _), a tuple's items, or the result itself."""
    if hasattr(result, "get_params"):
        return {k: v for k, v in sorted(vars(result).items())
                if k.endswith("_") and not k.startswith("_") and hasattr(v, "shape")}
    if isinstance(result, tuple):
        return {str(i): v for i, v in enumerate(result)}
    return {"result": result}


def compare(ref, got) -> Optional[str]:
    """None when got's values match ref's (NumPy's), else a short description."""
    import numpy as np
    ref_v, got_v = _values(ref), _values(got)
    for k, r in ref_v.items():
        if k not in got_v:
            return f"{k} missing"
        try:
            a, b = np.asarray(r, dtype=np.float64), np.asarray(got_v[k], dtype=np.float64)
        except (TypeError, ValueError) as e:
            return f"{k}: {_short_error(e)}"
        if a.shape != b.shape:
            return f"{k}: shape {b.shape}, NumPy's {a.shape}"
        scale = float(np.nanmax(np.abs(a), initial=1.0))
        if not np.allclose(a, b, rtol=1e-6, atol=1e-6 * scale, equal_nan=True):
            return f"{k}: max |difference| {np.nanmax(np.abs(a - b)):.3g}"
    return None


def worker(size: str, names: List[str], samples: int, min_time: float) -> None:
    """Runs the named jobs at one size; prints `START name` before a job and
    `ROW {json}` after it, so the parent knows which job a crash hit."""
    os.environ.setdefault("SCIPY_ARRAY_API", "1")
    import numpy as np
    import sklearn

    import arrstride as xp

    d_np = data(np, size)
    d_xp = {k: xp.asarray(v) for k, v in d_np.items()}
    columns = [("plain", np, d_np, False), ("npapi", np, d_np, True), ("arrstride", xp, d_xp, True)]
    for job_name in names:
        name = row_name(job_name, size)
        print(f"START {name}", flush=True)
        if os.environ.get("ARRSTRIDE_BENCH_ABORT_IN") == name:
            os.abort()   # for the test of a job that kills its process
        job, uses_sklearn = _BY_NAME[job_name]
        row: Dict[str, Any] = {"name": name, "suite": "e2e", "group": size,
                               "target": TARGET_ROW[size]}
        live, results = [], {}
        for col, m, d, dispatch in columns:
            if col == "npapi" and not uses_sklearn:
                continue   # SciPy: the NumPy column is already its array-API path
            with sklearn.config_context(array_api_dispatch=dispatch):
                try:
                    results[col] = job(m, d)         # warm up, and see whether it runs
                    t = timer(lambda job=job, m=m, d=d: job(m, d))
                    live.append((col, dispatch, t, calibrate(t, min_time)))
                except Exception as e:               # noqa: BLE001 - shown in the row
                    row[f"{col}_error"] = _short_error(e)
        if "plain" in results and "arrstride" in results:
            try:
                diff = compare(results["plain"], results["arrstride"])
            except Exception as e:                   # noqa: BLE001 - shown in the row
                diff = "check failed: " + _short_error(e)
            if diff:
                row["arrstride_differs"] = diff
        del results
        acc: Dict[str, List[float]] = {col: [] for col, *_ in live}
        for _ in range(samples):
            for col, dispatch, t, number in live:
                with sklearn.config_context(array_api_dispatch=dispatch):
                    acc[col].append(t.timeit(number) / number)
        for col, ts in acc.items():
            row[f"{col}_s"] = statistics.median(ts)
            row[f"{col}_spread"] = spread(ts)
        base = row.get("plain_s")
        for col in ("npapi", "arrstride"):
            if base and f"{col}_s" in row:
                row[f"{col}_ratio"] = row[f"{col}_s"] / base
        row["ratio"] = row.get("arrstride_ratio")
        print("ROW " + json.dumps(row), flush=True)


# ---- the parent ------------------------------------------------------------------------------

def run_parent(workloads, samples: int, min_time: Optional[float], show_progress: bool) -> List[dict]:
    mt = MIN_TIME["e2e"] if min_time is None else min_time
    root = Path(__file__).resolve().parents[2]  # holds the arrstride package
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    env["PYTHONPATH"] = os.pathsep.join([str(root)] + [p for p in [env.get("PYTHONPATH")] if p])
    wanted = {w.name for w in workloads}
    progress = Progress(len(wanted), show_progress)
    rows: List[dict] = []
    try:
        for size in SIZES:
            remaining = [j for j, _, _ in JOBS if row_name(j, size) in wanted]
            while remaining:
                rows_before = len(rows)
                with tempfile.TemporaryFile("w+") as err:
                    arg = json.dumps({"size": size, "names": remaining, "samples": samples,
                                      "min_time": mt})
                    proc = subprocess.Popen([sys.executable, "-m", f"{__package__}.e2e", arg],
                                            cwd=str(root), env=env, stdout=subprocess.PIPE,
                                            stderr=err, text=True)
                    current = None
                    for line in proc.stdout:
                        if line.startswith("START "):
                            current = line[6:].strip()
                            progress.label = current
                        elif line.startswith("ROW "):
                            row = json.loads(line[4:])
                            rows.append(row)
                            remaining = [j for j in remaining if row_name(j, size) != row["name"]]
                            progress.step()
                    code = proc.wait()
                    err.seek(0)
                    last = [ln for ln in err.read().splitlines() if ln.strip()][-1:]
                if not remaining:
                    break
                # the process ended before its jobs did: blame the job it was running
                hit = next((j for j in remaining if row_name(j, size) == current), remaining[0])
                why = f"process died (exit code {code})" + (f": {last[0][:60]}" if last else "")
                rows.append({"name": row_name(hit, size), "suite": "e2e", "group": size,
                             "target": TARGET_ROW[size], "ratio": None, "crash": why})
                remaining.remove(hit)
                progress.step()
                if len(rows) == rows_before + 1 and current is None:
                    # it died before starting any job: the rest would die too
                    for j in remaining:
                        rows.append({"name": row_name(j, size), "suite": "e2e", "group": size,
                                     "target": TARGET_ROW[size], "ratio": None, "crash": why})
                    remaining = []
    finally:
        progress.close()
    return rows


def summaries(rows: List[dict]) -> List[dict]:
    out = ratio_summaries(rows, "e2e")
    for size in SIZES:
        ratios = [r["npapi_ratio"] for r in rows if r["group"] == size and r.get("npapi_ratio")]
        if ratios:
            n, p = SIZES[size]
            out.append({"summary": f"{size} ({n}x{p}): geomean NumPy via array API/plain NumPy",
                        "suite": "e2e", "kind": "geomean", "count": len(ratios), "target": None,
                        "ratio": math.exp(sum(math.log(x) for x in ratios) / len(ratios))})
    return out


def table(rows: List[dict], sums: List[dict]) -> str:
    head = (f"{'job':<42} {'numpy (plain)':>16} {'np/api':>6} "
            f"{'arrstride':>16} {'ratio':>6} {'target':>7}")
    lines = []
    for r in rows:
        name = r["name"]
        if "crash" in r or "plain_s" not in r:
            msg = r.get("crash") or "numpy: " + r.get("plain_error", "?")
            lines.append(f"{name:<42} {msg}")
            continue
        plain = fmt_time(r["plain_s"], r["plain_spread"])
        if "npapi_ratio" in r:
            npapi = f"{r['npapi_ratio']:6.2f}"
        else:
            npapi = f"{'error' if 'npapi_error' in r else '=':>6}"
        if "arrstride_s" in r:
            tail = f"{fmt_time(r['arrstride_s'], r['arrstride_spread'])} {ratio_cells(r['ratio'], r['target'], 6)}"
        else:
            tail = "error: " + r.get("arrstride_error", "?")
        lines.append(f"{name:<42} {plain} {npapi} {tail}")
        if "arrstride_differs" in r:
            lines.append(f"{'':<42}   arrstride differs from NumPy: {r['arrstride_differs']}")
        if "npapi_error" in r:
            lines.append(f"{'':<42}   np/api error: {r['npapi_error']}")
    return render(head, lines, sums, 6, " rows")


def legend(samples: int, min_time: Optional[float]) -> str:
    mt = MIN_TIME["e2e"] if min_time is None else min_time
    return (f"numpy (plain): NumPy inputs, sklearn.set_config(array_api_dispatch=False); median "
            f"over {samples} sample(s),\n"
            f"      a sample repeating the job until it lasts {mt * 1e3:g} ms or more; the "
            "columns take turns.\n"
            "np/api: NumPy inputs with array_api_dispatch=True, as a ratio to plain NumPy "
            "(=: SciPy rows, whose\n"
            "      NumPy column already goes through SciPy's array-API path: SCIPY_ARRAY_API=1 "
            "is read at import).\n"
            "arrstride: arrstride inputs with array_api_dispatch=True; ratio = arrstride / plain "
            "NumPy.\n"
            "±: half the interquartile range of the samples, in % of the median.\n"
            "target: the ratio a row should stay at or under (from the issues); !: above target. "
            "Rows that fail\n"
            "      show their error; geomeans cover the rows that ran. pairwise rows use "
            f"X[:{PAIRWISE_COLS}] as Y.\n"
            "differs: arrstride's result (a fitted estimator's attributes ending in _) is not "
            "within 1e-6\n      (relative, and absolute times its largest magnitude) of plain "
            "NumPy's.")


if __name__ == "__main__":
    _spec = json.loads(sys.argv[1])
    worker(_spec["size"], _spec["names"], _spec["samples"], _spec["min_time"])
