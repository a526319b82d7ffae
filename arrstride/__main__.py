"""python -m arrstride          a short tour of the view model, with storage diagrams
python -m arrstride bench    the benchmarks against NumPy (see bench --help; they
                             live in arrstride/bench/ and need NumPy);
                             bench ... --plot FILE.png also draws the time ratios
                             (needs matplotlib: the bench extra)
python -m arrstride accuracy the error in ULP of exp, log, sin, ... beside NumPy's
                             (accuracy -n SAMPLES: samples per row, 200000 by default)"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Dict, Optional

import arrstride as xp


def _not_the_package(pkg) -> str:
    """What to say when `arrstride` imported as a folder, not the package:
    `python -m arrstride` run from the folder that holds a clone named arrstride/."""
    cwd = Path.cwd()
    folders = [str(p) for p in getattr(pkg, "__path__", [])]
    here = folders[0] if folders else str(cwd / "arrstride")
    return (f"python -m arrstride: `import arrstride` found the folder {here}, not the arrstride package.\n"
            f"You are in {cwd}, which holds that folder (the clone), and Python imports folders of the\n"
            "current directory before installed packages. Run from inside the clone instead:\n\n"
            f"    cd {here} && pip install -e . && python -m arrstride\n\n"
            "(or from any other folder, once arrstride is installed).")


if not hasattr(xp, "__array_api_version__"):
    sys.exit(_not_the_package(xp))

INTRO = """\
arrstride {version}: every array is a view of a storage (a flat buffer) given by
an offset, a shape and strides, all counted in elements. Element x[i0, i1, ...]
lives at

    storage[offset + Σ i·stride] = storage[offset + i0*strides[0] + i1*strides[1] + ...]

Each diagram below is the storage as a row of cells:
  cell   the position of the element in the storage
  value  the value stored there
  walk   which elements of the view live in that cell, numbered in the view's
         order (row-major: x[0, 0] is 0, x[0, 1] is 1, ...). An empty cell is
         one the view does not reach; "0,4,…,12" is a cell several elements
         share (a stride 0).
The lines after >>> can be pasted into Python."""


def _run(code: str, ns: Dict[str, Any]) -> Any:
    """Executes `code` (statements separated by "; ", the last an expression)
    in ns and returns the value of the last one, so what is printed is what runs."""
    *stmts, last = code.split("; ")
    for s in stmts:
        exec(s, ns)  # noqa: S102 - the tour's own fixed code
    return eval(last, ns)  # noqa: S307


def _step(title: str, code: str, ns: Dict[str, Any]) -> None:
    print(f"\n== {title}")
    for line in code.split("; "):
        print(f">>> {line}")
    x = _run(code, ns)
    print(x)
    xp.show(x)


def tour() -> None:
    print(INTRO.format(version=xp.__array_api_version__))
    ns: Dict[str, Any] = {}
    print("\n>>> import arrstride as xp")
    exec("import arrstride as xp", ns)  # noqa: S102
    _step("a view into a storage of 20 elements",
          "xp.as_strided(xp.arange(20.), (3, 2), (4, 1), 5)", ns)
    print("so x[2, 1] lives at storage[offset + 2·strides[0] + 1·strides[1]] "
          "= storage[5 + 2·4 + 1·1] = storage[14]")
    _step("stride 0 repeats a row", "xp.as_strided(xp.linspace(1, 4, 4), (3, 3), (0, 1), 1)", ns)
    _step("stride 0 repeats an element",
          "xp.as_strided(xp.linspace(1, 4, 4), (2, 4), (1, 0), 1)", ns)
    _step("transpose swaps strides", "z = xp.reshape(xp.arange(12.), (3, 4)); z.T", ns)
    print("\n== a view needs strides: the transpose cannot be flattened without a copy")
    print(">>> z.T.view(-1)")
    try:
        _run("z.T.view(-1)", ns)
    except ValueError as e:
        print(f"ValueError: {e}")
    _step("a column of a 4-D array", "xp.reshape(xp.arange(24), (1, 2, 3, 4))[:, :, :, 2]", ns)
    _step("broadcasting allocates nothing", "xp.broadcast_to(xp.arange(4), (3, 4))", ns)
    _step("flip is a negative stride", "xp.flip(xp.arange(6))", ns)
    _step("a diagonal is one stride", "xp.diagonal(xp.reshape(xp.arange(16), (4, 4)))", ns)
    _step("sliding windows overlap", "xp.unfold(xp.arange(6), 0, 3, 1)", ns)
    _step("overlapping writes are exact", "x = xp.arange(10); x[1:] = x[:-1]; x", ns)


def _bench(argv: list) -> int:
    """Runs the benchmark suites of arrstride.bench (they need NumPy)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("python -m arrstride bench: the benchmarks compare arrstride with NumPy, "
              "which is not installed here (pip install numpy).", file=sys.stderr)
        return 2
    from arrstride.bench import runner
    argv, plot = _plot_option(argv)
    if plot is None:
        return runner.main(argv)
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        json_path = _json_option(argv) or str(Path(tmp) / "bench.json")
        if _json_option(argv) is None:
            argv = argv + ["--json", json_path]
        status = runner.main(argv)
        if status == 0 and "--list" not in argv:
            plot_json(json_path, plot)
            print(f"plot: {plot}")
        return status


def _plot_option(argv: list):
    """(argv without --plot PATH, PATH or None)."""
    out, plot, i = [], None, 0
    while i < len(argv):
        a = argv[i]
        if a == "--plot":
            if i + 1 >= len(argv):
                raise SystemExit("python -m arrstride bench: --plot needs a file name (e.g. --plot bench.png)")
            plot, i = argv[i + 1], i + 2
            continue
        if a.startswith("--plot="):
            plot = a.split("=", 1)[1]
        else:
            out.append(a)
        i += 1
    return out, plot


def _json_option(argv: list) -> Optional[str]:
    for i, a in enumerate(argv):
        if a == "--json" and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith("--json="):
            return a.split("=", 1)[1]
    return None


def plot_json(json_path: str, png_path: str) -> list:
    """Draws the rows of a bench run's JSON (`bench --json`) as a bar chart of
    time ratios (log scale, 1 = parity, each row's target as a tick) into
    png_path: arrstride / NumPy for every row and, beside it, arrstride /
    PyTorch for the rows timed with PyTorch in the same run (PyTorch
    installed); the legend says when PyTorch was not installed. Needs
    matplotlib (the bench extra). Returns the legend's labels."""
    import json
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("python -m arrstride bench --plot needs matplotlib: pip install 'arrstride[bench]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    with open(json_path) as f:
        rows = [r for r in json.load(f) if "name" in r and r.get("ratio") is not None]
    if not rows:
        raise SystemExit(f"python -m arrstride bench --plot: no rows with a ratio in {json_path}")
    rows.sort(key=lambda r: r["ratio"])
    names = [r["name"] for r in rows]
    ratios = [r["ratio"] for r in rows]
    torch_rows = [(k, r["torch_ratio"]) for k, r in enumerate(rows) if r.get("torch_ratio")]
    versions = {r.get("torch_version") for r in rows} - {None}
    fig, ax = plt.subplots(figsize=(8, 0.28 * len(rows) * (1.5 if torch_rows else 1) + 1.6))
    h = 0.4 if torch_rows else 0.8
    colors = ["tab:green" if x <= 1 else "tab:orange" for x in ratios]
    ax.barh([k - h / 2 if torch_rows else k for k in range(len(rows))], ratios, height=h,
            color=colors)
    if torch_rows:
        ax.barh([k + h / 2 for k, _ in torch_rows], [x for _, x in torch_rows], height=h,
                color="tab:blue", alpha=0.75)
    for k, r in enumerate(rows):
        if r.get("target"):
            ax.plot([r["target"]], [k - h / 2 if torch_rows else k], marker="|", color="black",
                    markersize=10)
    ax.axvline(1.0, color="gray", linewidth=1)
    ax.set_xscale("log")
    ax.set_yticks(range(len(rows)), names, fontsize=7)
    ax.set_xlabel("time ratio (below 1: arrstride faster; | = target of the NumPy ratio)")
    handles = [Patch(color="tab:green", label="arrstride / NumPy (at or below 1)"),
               Patch(color="tab:orange", label="arrstride / NumPy (above 1)")]
    if torch_rows:
        missing = len(rows) - len(torch_rows)
        handles.append(Patch(color="tab:blue", alpha=0.75,
                             label=f"arrstride / PyTorch {', '.join(sorted(versions))}"
                                   + (f" ({missing} rows without a PyTorch statement)"
                                      if missing else "")))
    elif versions:
        handles.append(Patch(color="white", label="no row was timed with PyTorch"))
    else:
        handles.append(Patch(color="white", label="PyTorch not installed: no PyTorch ratios "
                                                  "(pip install 'arrstride[torch]')"))
    ax.legend(handles=handles, fontsize=7, loc="lower right")
    ax.set_title(f"python -m arrstride bench: {len(rows)} rows", fontsize=9)
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)
    plt.close(fig)
    return [p.get_label() for p in handles]


def main(argv: list) -> int:
    if argv and argv[0] == "bench":
        return _bench(argv[1:])
    if argv and argv[0] == "accuracy":
        from arrstride import _accuracy
        return _accuracy.main(argv[1:])
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if argv:
        print(f"python -m arrstride: unknown command {argv[0]!r}\n{__doc__}", file=sys.stderr)
        return 2
    tour()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
