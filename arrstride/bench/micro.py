"""micro suite: elementwise kernels on large arrays, strided layouts, copies,
powers, matrix-vector products and mid-size arrays."""
from __future__ import annotations

from .registry import register, summary

N = 10 ** 7


def _pair(dtype: str, n: int = N, seed: int = 0):
    def make(np, xp):
        rng = np.random.default_rng(seed)
        a, b = rng.random(n).astype(dtype) + 0.5, rng.random(n).astype(dtype) + 0.5
        return (a, b), (xp.asarray(a), xp.asarray(b))
    return make


def _with_cond(make):
    """Prepends the mask a > 1 (built outside the timed call)."""
    def make_cond(np, xp):
        (a, b), (xa, xb) = make(np, xp)
        return (a > 1.0, a, b), (xa > 1.0, xa, xb)
    return make_cond


def _binary(make, f_xp, f_np):
    """Setup from an input maker: f_xp(xp, *arrstride inputs), f_np(np, *numpy inputs).
    Its .torch setup runs f_xp's statement with the torch namespace on tensors
    sharing the NumPy inputs (the runner leaves the PyTorch column empty for a row
    whose statement PyTorch does not take)."""
    def setup(np, xp):
        n_in, x_in = make(np, xp)
        return (lambda: f_xp(xp, *x_in)), (lambda: f_np(np, *n_in))

    def setup_torch(np, torch):
        n_in, _ = make(np, np)
        t_in = tuple(torch.from_numpy(a) for a in n_in)
        return lambda: f_xp(torch, *t_in)
    setup.torch = setup_torch
    return setup


# ---- large elementwise target 0.5 each, geomean 0.45 ----------------

for _dt in ("float64", "float32"):
    register(f"add {_dt} 1e7", _binary(_pair(_dt), lambda xp, a, b: a + b, lambda np, a, b: a + b),
             suite="micro", group="large", target=0.5)
    register(f"multiply {_dt} 1e7", _binary(_pair(_dt), lambda xp, a, b: a * b,
                                            lambda np, a, b: a * b),
             suite="micro", group="large", target=0.5)
    register(f"exp {_dt} 1e7", _binary(_pair(_dt), lambda xp, a, b: xp.exp(a),
                                       lambda np, a, b: np.exp(a)),
             suite="micro", group="large", target=0.5)
    register(f"sqrt {_dt} 1e7", _binary(_pair(_dt), lambda xp, a, b: xp.sqrt(a),
                                        lambda np, a, b: np.sqrt(a)),
             suite="micro", group="large", target=0.5)
    register(f"where {_dt} 1e7",
             _binary(_with_cond(_pair(_dt)), lambda xp, c, a, b: xp.where(c, a, b),
                     lambda np, c, a, b: np.where(c, a, b)),
             suite="micro", group="large", target=0.5)

summary("micro", "geomean of the large workloads", ("large",), "geomean", 0.45)


# ---- transcendental functions on 1e6 elements (arrstride's vmath.h or the C library's; NumPy has SVML
# or its own SIMD code for them): target parity ------------------------------------------

def _uniform(dtype: str, lo: float, hi: float, n: int = 10 ** 6, seed: int = 9):
    """Two arrays of uniform values in (lo, hi)."""
    def make(np, xp):
        rng = np.random.default_rng(seed)
        a, b = (rng.uniform(lo, hi, n).astype(dtype) for _ in range(2))
        return (a, b), (xp.asarray(a), xp.asarray(b))
    return make


# name, NumPy's name, the domain the inputs are drawn from
_LIBM_UNARY = (("tan", "tan", (-1.5, 1.5)), ("asin", "arcsin", (-0.9, 0.9)),
               ("atan", "arctan", (-10, 10)), ("atanh", "arctanh", (-0.9, 0.9)),
               ("sin", "sin", (-10, 10)), ("log10", "log10", (0.1, 100)))
for _dt in ("float64", "float32"):
    for _name, _np_name, (_lo, _hi) in _LIBM_UNARY:
        register(f"{_name} {_dt} 1e6",
                 _binary(_uniform(_dt, _lo, _hi), lambda xp, a, b, f=_name: getattr(xp, f)(a),
                         lambda np, a, b, f=_np_name: getattr(np, f)(a)),
                 suite="micro", group="libm", target=1.0)
    register(f"atan2 {_dt} 1e6", _binary(_uniform(_dt, -10, 10), lambda xp, a, b: xp.atan2(a, b),
                                         lambda np, a, b: np.arctan2(a, b)),
             suite="micro", group="libm", target=1.0)
    register(f"pow(x, y) {_dt} 1e6", _binary(_uniform(_dt, 0.1, 3), lambda xp, a, b: xp.pow(a, b),
                                             lambda np, a, b: np.power(a, b)),
             suite="micro", group="libm", target=1.0)


# ---- strided layouts and copies -------------------------------------------------

def _arrays(*shapes, seed: int):
    def make(np, xp):
        rng = np.random.default_rng(seed)
        n_in = tuple(rng.random(s) for s in shapes)
        return n_in, tuple(xp.asarray(a) for a in n_in)
    return make


_sq = _arrays((3000, 3000), (3000, 3000), seed=1)
register("A.T + B.T 3000^2", _binary(_sq, lambda xp, a, b: a.T + b.T, lambda np, a, b: a.T + b.T),
         suite="micro", group="strided", target=0.7)
register("A + B.T 3000^2", _binary(_sq, lambda xp, a, b: a + b.T, lambda np, a, b: a + b.T),
         suite="micro", group="strided", target=0.7)
register("x[::2] + y[::2] 1e7",
         _binary(_arrays((2 * N,), (2 * N,), seed=2), lambda xp, a, b: a[::2] + b[::2],
                 lambda np, a, b: a[::2] + b[::2]),
         suite="micro", group="strided", target=0.7)
register("(3000,1) + (1,3000)",
         _binary(_arrays((3000, 1), (1, 3000), seed=3), lambda xp, a, b: a + b,
                 lambda np, a, b: a + b),
         suite="micro", group="strided", target=0.7)
_perm = _arrays((64, 64, 64, 64), seed=4)
register("astype f32, permuted 64^4",
         _binary(_perm, lambda xp, a: xp.astype(xp.permute_dims(a, (3, 1, 2, 0)), xp.float32),
                 lambda np, a: a.transpose(3, 1, 2, 0).astype(np.float32)),
         suite="micro", group="strided", target=0.7)
register("contiguous copy, permuted 64^4",
         _binary(_perm, lambda xp, a: xp.asarray(xp.permute_dims(a, (3, 1, 2, 0)), copy=True),
                 lambda np, a: np.ascontiguousarray(a.transpose(3, 1, 2, 0))),
         suite="micro", group="copy", target=0.3)


# ---- powers, matrix-vector products, mid-size arrays ----------------------------

for _n, _label in ((20000, "2e4"), (N, "1e7")):
    register(f"x ** 2 float64 {_label}",
             _binary(_pair("float64", _n, seed=5), lambda xp, a, b: a ** 2, lambda np, a, b: a ** 2),
             suite="micro", group="power", target=1.0)
    register(f"x ** 0.5 float64 {_label}",
             _binary(_pair("float64", _n, seed=5), lambda xp, a, b: a ** 0.5,
                     lambda np, a, b: a ** 0.5),
             suite="micro", group="power", target=1.0)

register("X @ w (20000x50 @ 50)",
         _binary(_arrays((20000, 50), (50,), seed=6), lambda xp, X, w: X @ w,
                 lambda np, X, w: X @ w),
         suite="micro", group="matvec", target=1.0)
register("X.T @ X (5000x200)",
         _binary(_arrays((5000, 200), seed=7), lambda xp, X: X.T @ X, lambda np, X: X.T @ X),
         suite="micro", group="matvec", target=1.0)
register("X.T @ X (1000000x1)",
         _binary(_arrays((1000000, 1), seed=8), lambda xp, X: X.T @ X, lambda np, X: X.T @ X),
         suite="micro", group="matvec", target=1.0)

register("X * X float64 1e6",
         _binary(_pair("float64", 10 ** 6, seed=9), lambda xp, a, b: a * a, lambda np, a, b: a * a),
         suite="micro", group="mid", target=0.8)
register("sum float64 1e6",
         _binary(_pair("float64", 10 ** 6, seed=9), lambda xp, a, b: xp.sum(a),
                 lambda np, a, b: np.sum(a)),
         suite="micro", group="mid", target=0.8)
register("sum float64 2e4",
         _binary(_pair("float64", 20000, seed=9), lambda xp, a, b: xp.sum(a),
                 lambda np, a, b: np.sum(a)),
         suite="micro", group="mid", target=1.0)
