"""The CPUs this process may use, for the pool's default thread count: the
affinity mask and the cgroup CPU quota. Pure Python, no C; every path under a
root folder, so tests can read fake trees."""
from __future__ import annotations

import os
from typing import Optional, Tuple


def _read(path: str) -> Optional[str]:
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read().strip()
    except OSError:
        return None


def _ancestors(base: str, path: str):
    """base/path, then each parent folder up to base itself."""
    parts = [p for p in path.split("/") if p]
    for k in range(len(parts), -1, -1):
        yield os.path.join(base, *parts[:k])


def cgroup_cpu_limit(root: str = "/") -> Optional[Tuple[int, str]]:
    """The CPU quota of this process's cgroup, rounded up to whole CPUs, and
    the file that sets it; None when there is none. Reads cgroup v2's cpu.max
    ("150000 100000": 1.5 CPUs; "max 100000": none) or v1's cpu.cfs_quota_us
    over cpu.cfs_period_us (-1: none), for the process's own cgroup and each
    parent (the smallest quota wins). `root` prefixes every path (for tests)."""
    own = _read(os.path.join(root, "proc/self/cgroup"))
    if own is None:
        return None
    v2, v1 = None, None
    for line in own.splitlines():
        _, controllers, path = (line.split(":", 2) + ["", ""])[:3]
        if controllers == "" and line.startswith("0::"):
            v2 = path
        elif "cpu" in controllers.split(","):
            v1 = (controllers, path)
    best: Optional[Tuple[int, str]] = None

    def consider(quota: float, period: float, where: str) -> None:
        nonlocal best
        if quota > 0 and period > 0:
            n = max(1, -int(-quota // period))
            if best is None or n < best[0]:
                best = (n, where)

    cg = os.path.join(root, "sys/fs/cgroup")
    if v2 is not None:
        for d in _ancestors(cg, v2):
            f = os.path.join(d, "cpu.max")
            words = (_read(f) or "").split()
            if len(words) == 2 and words[0] != "max":
                try:
                    consider(float(words[0]), float(words[1]), f"{f[len(root.rstrip('/')):]} ({' '.join(words)})")
                except ValueError:
                    pass
    if v1 is not None:
        controllers, path = v1
        for mount in dict.fromkeys((controllers, "cpu,cpuacct", "cpuacct,cpu", "cpu")):
            for d in _ancestors(os.path.join(cg, mount), path):
                quota, period = (_read(os.path.join(d, f"cpu.cfs_{k}_us")) for k in ("quota", "period"))
                try:
                    q, per = float(quota or "-1"), float(period or "0")
                except ValueError:
                    continue
                f = os.path.join(d, "cpu.cfs_quota_us")
                consider(q, per, f"{f[len(root.rstrip('/')):]} ({quota} / {period})")
    return best


def default_threads(root: str = "/") -> Tuple[int, str]:
    """The default thread count and where it comes from: the CPUs of the
    process's affinity mask (taskset, numactl, a container's cpuset), lowered
    to its cgroup CPU quota rounded up (a container's --cpus)."""
    try:
        n, source = len(os.sched_getaffinity(0)), "CPU affinity mask"
    except (AttributeError, OSError):
        n, source = os.cpu_count() or 1, "CPU count"
    limit = cgroup_cpu_limit(root)
    if limit is not None and limit[0] < n:
        n, source = limit[0], f"cgroup CPU quota, {limit[1]}"
    return max(1, min(n, 256)), source
