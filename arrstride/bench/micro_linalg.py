"""micro suite: linear algebra. Targets: matmul 1024^2 and
svd/eigh/solve 500^2 at most 1.1; a batch of small matmuls at most 0.7."""
from __future__ import annotations

from .registry import register


def _setup(make, f_xp, f_np):
    def setup(np, xp):
        n_in = make(np)
        x_in = tuple(xp.asarray(a) for a in n_in)
        return (lambda: f_xp(xp, *x_in)), (lambda: f_np(np, *n_in))
    return setup


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
    register(f"matmul 1024^2 {_dt}",
             _setup(_pair((1024, 1024), (1024, 1024), _dt), lambda xp, a, b: a @ b,
                    lambda np, a, b: a @ b),
             suite="micro", group="linalg", target=1.1)
register("batched matmul 256x64x64 float64",
         _setup(_pair((256, 64, 64), (256, 64, 64), "float64"), lambda xp, a, b: a @ b,
                lambda np, a, b: a @ b),
         suite="micro", group="batched", target=0.7)
register("svd 500^2 float64",
         _setup(_square(500), lambda xp, a: xp.linalg.svd(a), lambda np, a: np.linalg.svd(a)),
         suite="micro", group="linalg", target=1.1)
register("eigh 500^2 float64",
         _setup(_square(500, spd=True), lambda xp, a: xp.linalg.eigh(a),
                lambda np, a: np.linalg.eigh(a)),
         suite="micro", group="linalg", target=1.1)
register("solve 500^2 (10 rhs) float64",
         _setup(_system, lambda xp, a, b: xp.linalg.solve(a, b),
                lambda np, a, b: np.linalg.solve(a, b)),
         suite="micro", group="linalg", target=1.1)
