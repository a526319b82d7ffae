"""__version__, show_config() and the messages of a wrong start."""
import os
import platform
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
    simd = config["SIMD level"]
    levels = ("baseline", "avx2", "avx512")
    assert simd["active"] in levels and simd["CPU's best"] in levels
    assert simd["compiled"].split() == list(levels if platform.machine() in ("x86_64", "AMD64")
                                            else levels[:1])
    assert simd["unstable sort"] in ("AVX-512 quicksort", "radix sort")
    assert isinstance(config["fast paths"]["on"], bool)


def test_show_config_prints(capsys):
    assert xp.show_config() is None
    out = capsys.readouterr().out
    for section in ("arrstride:", "BLAS/LAPACK:", "threads:", "memory:", "fast paths:",
                    "SIMD level:"):
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


# ---- the default thread count: affinity mask and cgroup quota ----------------------------

def _fake_root(tmp_path, cgroup, files):
    (tmp_path / "proc/self").mkdir(parents=True)
    (tmp_path / "proc/self/cgroup").write_text(cgroup)
    for rel, text in files.items():
        f = tmp_path / "sys/fs/cgroup" / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    return str(tmp_path)


def test_cgroup_v2_quota_rounds_up(tmp_path):
    from arrstride._cpus import cgroup_cpu_limit
    root = _fake_root(tmp_path, "0::/user.slice/app\n", {"user.slice/app/cpu.max": "150000 100000\n"})
    n, where = cgroup_cpu_limit(root)
    assert n == 2 and where == "/sys/fs/cgroup/user.slice/app/cpu.max (150000 100000)"


def test_cgroup_v2_smallest_quota_of_the_ancestors(tmp_path):
    from arrstride._cpus import cgroup_cpu_limit
    root = _fake_root(tmp_path, "0::/a/b\n", {"a/b/cpu.max": "max 100000\n", "a/cpu.max": "50000 100000\n",
                                               "cpu.max": "400000 100000\n"})
    assert cgroup_cpu_limit(root)[0] == 1


def test_cgroup_v2_without_quota(tmp_path):
    from arrstride._cpus import cgroup_cpu_limit
    root = _fake_root(tmp_path, "0::/\n", {"cpu.max": "max 100000\n"})
    assert cgroup_cpu_limit(root) is None
    assert cgroup_cpu_limit(str(tmp_path / "nowhere")) is None


def test_cgroup_v1_quota_in_a_container(tmp_path):
    # the path /proc/self/cgroup names (the host's) does not exist in the
    # container's mount: the quota sits at the mount's root
    from arrstride._cpus import cgroup_cpu_limit, default_threads
    root = _fake_root(tmp_path, "5:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n",
                      {"cpu,cpuacct/cpu.cfs_quota_us": "100000\n", "cpu,cpuacct/cpu.cfs_period_us": "100000\n"})
    assert cgroup_cpu_limit(root) == (1, "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us (100000 / 100000)")
    n, source = default_threads(root)
    assert n == 1 and source.startswith("cgroup CPU quota, /sys/fs/cgroup/cpu,cpuacct/")


def test_cgroup_v1_without_quota(tmp_path):
    from arrstride._cpus import cgroup_cpu_limit, default_threads
    root = _fake_root(tmp_path, "4:cpu:/\n", {"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"})
    assert cgroup_cpu_limit(root) is None
    assert default_threads(root) == (len(os.sched_getaffinity(0)), "CPU affinity mask")


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs sched_setaffinity")
def test_one_cpu_affinity_gives_one_thread():
    # as `taskset -c 0 python ...`: the child may run on one CPU only
    cpu = min(os.sched_getaffinity(0))
    code = ("import arrstride as xp; c = xp.show_config(mode='dicts')['threads']; "
            "print(xp.get_num_threads(), c[\"arrstride's count from\"])")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=str(PACKAGE.parent), preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
                       env={k: v for k, v in os.environ.items() if k != "ARRSTRIDE_NUM_THREADS"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.split(None, 1) == ["1", "CPU affinity mask\n"]


def test_threads_source_follows_the_settings():
    from arrstride import _kernels
    old = xp.get_num_threads()
    try:
        xp.set_num_threads(3)
        assert xp.show_config(mode="dicts")["threads"]["arrstride's count from"] == "set_num_threads(3)"
        xp.set_num_threads(0)
        assert _kernels.threads_source == _kernels._default_source
        assert xp.get_num_threads() == _kernels._default_count
    finally:
        xp.set_num_threads(old)
    r = subprocess.run([sys.executable, "-c", "import arrstride._kernels as k; print(k.threads_source)"],
                       capture_output=True, text=True, cwd=str(PACKAGE.parent),
                       env=dict(os.environ, ARRSTRIDE_NUM_THREADS="1"))
    assert r.stdout.strip() == "ARRSTRIDE_NUM_THREADS=1", r.stderr
def test_show_config_reports_no_x86_flags_on_other_cpus(monkeypatch):
    # Under QEMU user emulation an aarch64 Python reads the x86 host's
    # /proc/cpuinfo: none of its flags may appear.
    import platform
    monkeypatch.setattr(platform, "machine", lambda: "aarch64")
    config = xp.show_config(mode="dicts")
    text = repr(config["CPU"])
    assert "avx" not in text and "sse" not in text
    assert config["CPU"]["SIMD"] == "baseline of aarch64"
    # the level is the C library's own pick (cpuid), never /proc/cpuinfo's
    assert "avx512_bf16" not in repr(config["SIMD level"])
