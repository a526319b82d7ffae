"""The package's version (single-sourced from pyproject.toml) and
show_config(), the build and runtime facts a bug report needs."""
from __future__ import annotations

import os
import platform
import re
import sys
from pathlib import Path
from typing import Any, Dict, Optional

_ROOT = Path(__file__).resolve().parent.parent


def _source_version() -> Optional[str]:
    """The version in the pyproject.toml beside this package, when it is a
    source tree of arrstride (a clone, editable or not)."""
    try:
        text = (_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return None
    project = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    if not project or not re.search(r'^name\s*=\s*"arrstride"\s*$', project.group(1), re.M):
        return None
    m = re.search(r'^version\s*=\s*"([^"]+)"\s*$', project.group(1), re.M)
    return m.group(1) if m else None


def _version() -> str:
    """pyproject.toml's [project] version: read from the source tree when this
    package sits in one, else from the installed distribution's metadata."""
    v = _source_version()
    if v is not None:
        return v
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version("arrstride")
    except (ImportError, PackageNotFoundError):
        return "0+unknown"


__version__ = _version()


# ---- show_config ------------------------------------------------------------------

_X86_64 = ("x86_64", "amd64")


def _cpu() -> Dict[str, Any]:
    """The first processor of /proc/cpuinfo. Its x86 flags only on an x86-64
    machine: under user-mode emulation (QEMU running an aarch64 Python),
    /proc/cpuinfo describes the host, whose flags say nothing about this
    process; the clones and SIMD paths exist on x86-64 only."""
    info: Dict[str, Any] = {"flags": set(), "vendor": "", "family": None, "model": None, "name": "",
                            "x86_64": platform.machine().lower() in _X86_64}
    if not info["x86_64"]:
        return info
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                key, value = key.strip(), value.strip()
                if key == "flags":
                    info["flags"] = set(value.split())
                elif key == "vendor_id":
                    info["vendor"] = value
                elif key == "cpu family" and info["family"] is None:
                    info["family"] = int(value)
                elif key == "model" and info["model"] is None:
                    info["model"] = int(value)
                elif key == "model name" and not info["name"]:
                    info["name"] = value
                elif not line.strip() and info["flags"]:
                    break  # the first processor is enough
    except (OSError, ValueError):
        pass
    return info


def _simd(cpu: Dict[str, Any]) -> Dict[str, str]:
    """The SIMD level the kernels run at (native/src/platform.h): the C
    library's own pick, not /proc/cpuinfo's."""
    from . import _kernels as K
    active, compiled, best, requested = K.cpu_level
    levels = K.CPU_LEVELS[:K.CPU_LEVELS.index(compiled) + 1]
    env = _env("ARRSTRIDE_CPU")
    if requested == "?":
        env += " (names no level: the CPU's best is used)"
    elif requested is not None and K.CPU_LEVELS.index(requested) > K.CPU_LEVELS.index(active):
        env += f" (above this CPU's best: {active} is used)"
    out = {"active": active, "compiled": " ".join(levels), "CPU's best": best, "ARRSTRIDE_CPU": env}
    hw = os.environ.get("ARRSTRIDE_NARROW_HW")
    narrow = "baseline" if hw == "0" else "avx2" if hw == "avx2" and active == "avx512" else active
    out["float16 conversions"] = {"avx512": "AVX-512 F16C", "avx2": "F16C"}.get(narrow, "portable")
    out["bfloat16 rounding"] = ("AVX512-BF16" if narrow == "avx512" and "avx512_bf16" in cpu["flags"]
                                else "portable")
    out["unstable sort"] = "AVX-512 quicksort" if active == "avx512" else "radix sort"
    return out


def _blas_info() -> Dict[str, Any]:
    from . import _blas
    from ._native import lib
    try:
        _blas.ensure()
    except ImportError as e:
        return {"error": str(e)}
    dll = _blas._dll
    out: Dict[str, Any] = {"library": os.path.basename(dll._name), "path": dll._name}
    config = _blas._symbol(dll, "openblas_get_config")
    if config is not None:
        import ctypes
        config.restype = ctypes.c_char_p
        config.argtypes = []
        out["version"] = config().decode(errors="replace").strip()
    threads = _blas._symbol(dll, "openblas_get_num_threads")
    if threads is not None:
        import ctypes
        threads.restype = ctypes.c_int
        threads.argtypes = []
        out["threads"] = threads()
    return out


def _env(name: str) -> str:
    value = os.environ.get(name)
    return "(unset)" if value is None else repr(value)


def _config() -> Dict[str, Dict[str, Any]]:
    """show_config's facts as a dict of sections."""
    from . import _kernels as K
    cpu = _cpu()
    from ._core import fast_paths
    fast = fast_paths()  # ARRSTRIDE_FAST_PATHS, read by _core at import
    return {
        "arrstride": {"version": __version__, "array API standard": "2025.12",
                      "package": str(Path(__file__).resolve().parent)},
        "Python": {"version": sys.version.split()[0], "implementation": platform.python_implementation(),
                   "machine": platform.machine(), "platform": platform.platform()},
        "CPU": {"name": cpu["name"] or "unknown",
                "SIMD": "baseline of " + (platform.machine() or "this CPU") if not cpu["x86_64"] else " ".join(sorted(f for f in cpu["flags"] if f in ("sse4_2", "avx", "avx2", "fma",
                                                                          "avx512f", "avx512dq", "avx512bw",
                                                                          "avx512vl"))) or "unknown"},
        "SIMD level": _simd(cpu),
        "BLAS/LAPACK": _blas_info(),
        "threads": {"arrstride (get_num_threads)": K.get_num_threads(),
                    "arrstride's count from": K.threads_source,
                    "ARRSTRIDE_NUM_THREADS": _env("ARRSTRIDE_NUM_THREADS"),
                    "OPENBLAS_NUM_THREADS": _env("OPENBLAS_NUM_THREADS")},
        "memory": {"cache limit (get_cache_limit)": K.get_cache_limit(),
                   "bytes parked now": K.cache_bytes(),
                   "ARRSTRIDE_CACHE_BYTES": _env("ARRSTRIDE_CACHE_BYTES")},
        "fast paths": {"on": fast, "ARRSTRIDE_FAST_PATHS": _env("ARRSTRIDE_FAST_PATHS")},
    }


def show_config(mode: str = "stdout") -> Optional[Dict[str, Dict[str, Any]]]:
    """Print (or return) arrstride's build and runtime configuration.

    For bug reports, as ``numpy.show_config()`` and ``torch.__config__.show()``:
    the version, Python and CPU, the SIMD level the C kernels run at (the CPU's
    best, or a lower one set by ``ARRSTRIDE_CPU=baseline|avx2|avx512|native``
    at import) and the levels compiled in, the BLAS/LAPACK library (file, path, version, thread count), arrstride's
    thread count, the cache of freed large blocks and whether the C fast paths
    are on (``ARRSTRIDE_FAST_PATHS=0`` turns them off). Loads the BLAS library
    if it is not loaded yet.

    Parameters
    ----------
    mode : {"stdout", "dicts"}, optional
        ``"stdout"`` (the default) prints the configuration; ``"dicts"``
        returns it as a dict of sections instead.

    Returns
    -------
    dict or None
        The configuration when `mode` is ``"dicts"``, else None.

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.show_config(mode="dicts")["arrstride"]["array API standard"]
    '2025.12'
    """
    if mode not in ("stdout", "dicts"):
        raise ValueError(f"show_config: mode must be 'stdout' or 'dicts'; got {mode!r}")
    config = _config()
    if mode == "dicts":
        return config
    for section, items in config.items():
        print(f"{section}:")
        width = max((len(k) for k in items), default=0)
        for key, value in items.items():
            print(f"  {key:<{width}}  {value}")
    return None
