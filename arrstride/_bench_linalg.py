"""linalg workloads for `python -m arrstride bench` (registered into _bench's
registry when _bench is imported). NumPy only builds the inputs and is the
yardstick; it is never used by arrstride itself."""
from __future__ import annotations

from ._bench import TARGETS, Workload, register

# Targets from the issue: matmul 1024^2, svd/eigh/solve 500^2 at most 1.1; a
# batch of small matmuls at most 0.7.
TARGETS.setdefault("linalg", 1.1)
TARGETS.setdefault("batched", 0.7)


def _pair(shape_a, shape_b, dtype):
    def make(np):
        rng = np.random.default_rng(1)
        return (rng.standard_normal(shape_a).astype(dtype),
                rng.standard_normal(shape_b).astype(dtype))
    return make


def _square(n, spd=False):
    def make(np):
        a = np.random.default_rng(2).standard_normal((n, n))
        if spd:
            a = a @ a.T + n * np.eye(n)
        return (a,)
    return make


def _system(np):
    rng = np.random.default_rng(3)
    return rng.standard_normal((500, 500)), rng.standard_normal((500, 10))


for _dt in ("float64", "float32"):
    register(Workload(f"matmul 1024^2 {_dt}", "linalg", _pair((1024, 1024), (1024, 1024), _dt),
                      lambda xp, a: a[0] @ a[1], lambda np, a: a[0] @ a[1]))
register(Workload("batched matmul 256x64x64 float64", "batched",
                  _pair((256, 64, 64), (256, 64, 64), "float64"),
                  lambda xp, a: a[0] @ a[1], lambda np, a: a[0] @ a[1]))
register(Workload("svd 500^2 float64", "linalg", _square(500),
                  lambda xp, a: xp.linalg.svd(a[0]), lambda np, a: np.linalg.svd(a[0])))
register(Workload("eigh 500^2 float64", "linalg", _square(500, spd=True),
                  lambda xp, a: xp.linalg.eigh(a[0]), lambda np, a: np.linalg.eigh(a[0])))
register(Workload("solve 500^2 (10 rhs) float64", "linalg", _system,
                  lambda xp, a: xp.linalg.solve(a[0], a[1]),
                  lambda np, a: np.linalg.solve(a[0], a[1])))
