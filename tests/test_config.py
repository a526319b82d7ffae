"""__version__, show_config() and the messages of a wrong start (issue 22)."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import arrstride as xp

PACKAGE = Path(xp.__file__).resolve().parent


def test_version_is_pyprojects():
    pyproject = PACKAGE.parent / "pyproject.toml"
    if pyproject.is_file():  # a source tree: the version it says
        m = re.search(r'^version\s*=\s*"([^"]+)"', pyproject.read_text(), re.M)
        assert xp.__version__ == m.group(1)
    else:  # an installed wheel: the distribution's metadata
        from importlib.metadata import version
        assert xp.__version__ == version("arrstride")
    assert re.fullmatch(r"\d+\.\d+(\.\d+)?\S*", xp.__version__)


def test_show_config_sections():
    config = xp.show_config(mode="dicts")
    assert config["arrstride"]["version"] == xp.__version__
    assert config["threads"]["arrstride (get_num_threads)"] == xp.get_num_threads()
    assert config["memory"]["cache limit (get_cache_limit)"] == xp.get_cache_limit()
    blas = config["BLAS/LAPACK"]
    assert "openblas" in blas["library"].lower() and os.path.isfile(blas["path"])
    assert isinstance(blas["threads"], int) and blas["threads"] >= 1
    clones = config["SIMD clones in use"]
    assert all(v in ("default", "avx2", "avx512f", "arch=skylake-avx512", "AVX-512 quicksort",
                     "radix sort") or v.startswith("unknown") for v in clones.values())
    assert isinstance(config["fast paths"]["on"], bool)


def test_show_config_prints(capsys):
    assert xp.show_config() is None
    out = capsys.readouterr().out
    for section in ("arrstride:", "BLAS/LAPACK:", "threads:", "memory:", "fast paths:",
                    "SIMD clones in use:"):
        assert section in out
    assert xp.__version__ in out


def test_show_config_fast_paths_env():
    code = "import arrstride as xp; print(xp.show_config(mode='dicts')['fast paths']['on'])"
    env = dict(os.environ, ARRSTRIDE_FAST_PATHS="0")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd="/")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


def test_show_config_refuses_unknown_mode():
    with pytest.raises(ValueError, match="show_config: mode must be"):
        xp.show_config(mode="json")


def test_main_from_the_folder_holding_the_clone(tmp_path):
    """`python -m arrstride` where ./arrstride is the clone (a folder, not the package)."""
    (tmp_path / "arrstride").mkdir()  # what a clone looks like from its parent: no __init__.py
    shutil.copy(PACKAGE / "__main__.py", tmp_path / "arrstride" / "__main__.py")
    # -S: Python imports the folder as a namespace package (what an editable
    # install's import hook leads to; an installed wheel's package would win)
    # (without PYTHONPATH: a regular package named arrstride anywhere on the path,
    # as in .ci/sanitize's copy of the tree, wins over the namespace folder)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, "-S", "-m", "arrstride"], capture_output=True, text=True,
                       cwd=tmp_path, env=env)
    assert r.returncode == 1
    assert "found the folder" in r.stderr and f"cd {tmp_path / 'arrstride'}" in r.stderr
    assert "Traceback" not in r.stderr


def test_import_of_an_unbuilt_source_tree(tmp_path):
    """`python -m arrstride` inside a clone that was installed with `pip install .`
    (not -e): the source package without its compiled modules."""
    src = tmp_path / "arrstride"
    shutil.copytree(PACKAGE, src, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    # -S: without site-packages, where an editable install's import hook would
    # find the compiled modules of the checkout it points to
    r = subprocess.run([sys.executable, "-S", "-m", "arrstride"], capture_output=True, text=True,
                       cwd=tmp_path)
    assert r.returncode == 1
    assert "the compiled module arrstride._native is missing" in r.stderr
    assert f"cd {tmp_path} && pip install -e ." in r.stderr


def test_bench_plot_from_json(tmp_path):
    """bench --plot draws a run's JSON rows (the runner's format) into a PNG."""
    pytest.importorskip("matplotlib", reason="matplotlib not installed (the bench extra)")
    import json
    from arrstride.__main__ import _plot_option, plot_json
    assert _plot_option(["--suite", "percall", "--plot", "b.png", "-k", "x"]) == (
        ["--suite", "percall", "-k", "x"], "b.png")
    rows = [{"name": "add float64 1e7", "suite": "micro", "ratio": 0.4, "target": 0.5},
            {"name": "sum float64 2e4", "suite": "micro", "ratio": 1.3, "target": None},
            {"summary": "geomean", "suite": "micro", "ratio": 0.7}]
    (tmp_path / "b.json").write_text(json.dumps(rows))
    plot_json(str(tmp_path / "b.json"), str(tmp_path / "b.png"))
    assert (tmp_path / "b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
