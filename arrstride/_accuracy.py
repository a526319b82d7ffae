"""`python -m arrstride accuracy`: the error of the transcendental functions
in units in the last place (ULP), arrstride beside NumPy, measured on dense
samples plus every special value against a reference of higher precision
(NumPy's long double where it has at least 64 bits of mantissa, else
mpmath). NumPy serves here as the yardstick and the reference's arithmetic,
never as arrstride's engine."""
from __future__ import annotations

import math
from typing import Callable, Dict, List, Tuple

import numpy as np

import arrstride as xp

FUNCTIONS = ("exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "tanh",
             "sinh", "cosh", "asinh", "acosh", "atanh", "asin", "acos", "atan")
# Which functions arrstride computes itself (native/src/vmath.h): all of
# these, for both dtypes.
OWN = {"float32": FUNCTIONS, "float64": FUNCTIONS}


def _domain(name: str, dtype: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """n inputs of `name` spread over the range where its result is finite and
    not trivially 0 or 1, log-uniform in magnitude where the range is wide."""
    f32 = dtype == "float32"
    tiny, big = (1e-44, 3e38) if f32 else (5e-324, 1.7e308)

    def logu(lo, hi, k):
        return np.exp(rng.uniform(math.log(lo), math.log(hi), k))

    q = n // 4
    if name in ("exp", "expm1"):
        hi = 88.7 if f32 else 709.7
        lo = -103.9 if f32 else -745.1
        v = [rng.uniform(lo, hi, n - 2 * q), rng.uniform(-1, 1, q), logu(tiny, 1, q) * rng.choice([-1, 1], q)]
    elif name in ("log", "log2", "log10"):
        v = [logu(tiny, big, n - q), rng.uniform(0.5, 2.0, q)]
    elif name == "log1p":
        v = [rng.uniform(-1, 1, n - 2 * q), logu(tiny, big, q), -logu(tiny, 1, q)]
    elif name in ("sin", "cos", "tan"):
        v = [rng.uniform(-10, 10, n - 2 * q), rng.uniform(-1e6, 1e6, q), logu(tiny, big, q) * rng.choice([-1, 1], q)]
    elif name in ("sinh", "cosh"):
        hi = 89.4 if f32 else 710.4
        v = [rng.uniform(-hi, hi, n - 2 * q), rng.uniform(-1, 1, q), logu(tiny, 1, q) * rng.choice([-1, 1], q)]
    elif name in ("asin", "acos"):
        v = [rng.uniform(-1, 1, n - 2 * q), logu(tiny, 1, q) * rng.choice([-1, 1], q),
             (1 - logu(6e-8 if f32 else 1.2e-16, 1e-2, q)) * rng.choice([-1, 1], q)]
    elif name == "atan":
        v = [rng.uniform(-10, 10, n - q), logu(tiny, big, q) * rng.choice([-1, 1], q)]
    elif name == "asinh":
        v = [rng.uniform(-10, 10, n - q), logu(tiny, big, q) * rng.choice([-1, 1], q)]
    elif name == "acosh":
        v = [rng.uniform(1, 10, n - 2 * q), 1 + logu(1e-7 if f32 else 1e-16, 1, q), logu(1, big, q)]
    elif name == "atanh":
        v = [rng.uniform(-1, 1, n - q), logu(tiny, 1, q) * rng.choice([-1, 1], q)]
    else:  # tanh
        v = [rng.uniform(-20, 20, n - q), logu(tiny, 1, q) * rng.choice([-1, 1], q)]
    return np.concatenate(v).astype(dtype)


def special_values(dtype: str) -> np.ndarray:
    """±0, the smallest and largest subnormal and normal, ±inf, NaN, ±1, and
    the overflow and underflow edges of exp."""
    fi = np.finfo(dtype)
    t = np.dtype(dtype).type
    vals = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 2.0, 0.5,
            float(fi.smallest_subnormal), -float(fi.smallest_subnormal), float(fi.tiny), float(fi.tiny) / 2,
            float(fi.max), -float(fi.max), float(fi.eps), 1e-5, -1e-5]
    edges = [88.72283, 88.72284, -87.33654, -103.97208, -104.0] if dtype == "float32" else \
        [709.782712893384, 709.7827128933841, -708.3964185322641, -745.1332191019411, -745.1332191019412]
    out = np.array([t(v) for v in vals + edges], dtype=dtype)
    with np.errstate(all="ignore"):
        return np.concatenate([out, np.nextafter(out, t(math.inf)), np.nextafter(out, t(-math.inf))])


_NP = {"asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh", "asin": "arcsin", "acos": "arccos",
       "atan": "arctan"}


def _long_reference() -> bool:
    return np.finfo(np.longdouble).nmant >= 63


def reference(name: str, x: np.ndarray) -> np.ndarray:
    """name(x) in long double (or mpmath's 80-bit result, as long double)."""
    if _long_reference():
        with np.errstate(all="ignore"):
            return getattr(np, _NP.get(name, name))(x.astype(np.longdouble))
    import mpmath
    mpmath.mp.prec = 80
    f = {"log2": lambda v: mpmath.log(v, 2), "log10": mpmath.log10}.get(name, getattr(mpmath, name))
    out = []
    for v in x.astype(np.float64).tolist():
        try:
            out.append(float(f(v)) if math.isfinite(v) else getattr(math, name, lambda _: math.nan)(v))
        except (ValueError, ZeroDivisionError, OverflowError):
            out.append(math.nan)
    return np.array(out, dtype=np.longdouble)


def ulp_error(got: np.ndarray, ref: np.ndarray, dtype: str) -> np.ndarray:
    """|got - ref| in ULPs of ref in dtype; 0 where both are NaN or equal
    (signed zeros and infinities included), inf where one is NaN or infinite
    and the other is not."""
    fi = np.finfo(dtype)
    g = got.astype(np.longdouble)
    r = ref
    with np.errstate(all="ignore"):
        rr = r.astype(dtype).astype(np.longdouble)  # ref rounded: its infinities
        _, e = np.frexp(np.where(np.isfinite(r) & (r != 0), r, 1).astype(np.longdouble))
        e = np.maximum(e, fi.minexp + 1)
        ulp = np.ldexp(np.longdouble(1), (e - fi.nmant - 1).astype(np.int32))
        err = np.abs(g - r) / ulp
    same = (g == r) | (np.isnan(g) & np.isnan(r)) | (np.isinf(g) & (g == rr))
    bad = ~same & (np.isnan(g) | np.isnan(r) | np.isinf(g) | np.isinf(rr))
    err = np.where(same, 0, np.where(bad, np.inf, err))
    # a result above the largest finite value that rounds to inf is right
    over = np.isinf(g) & ~np.isfinite(rr) & (np.sign(g) == np.sign(r))
    return np.where(over, 0, err).astype(np.float64)


def _torch_error(name: str, args: Tuple[np.ndarray, ...], ref: np.ndarray, dtype: str) -> float:
    """PyTorch's max ULP error on the same inputs (CPU), or NaN without PyTorch."""
    try:
        import torch
    except ImportError:
        return math.nan
    with torch.no_grad():
        got = getattr(torch, name)(*(torch.from_numpy(np.ascontiguousarray(a)) for a in args)).numpy()
    return float(ulp_error(got, ref, dtype).max())


def measure(name: str, dtype: str, n: int = 200_000, seed: int = 0) -> Dict[str, float]:
    """Max ULP error of arrstride and NumPy, and arrstride's share of correctly
    rounded results, on n dense samples plus the special values."""
    rng = np.random.default_rng(seed)
    x = np.concatenate([_domain(name, dtype, n, rng), special_values(dtype)])
    ref = reference(name, x)
    ours = np.asarray(getattr(xp, name)(xp.asarray(x)))
    with np.errstate(all="ignore"):
        theirs = getattr(np, _NP.get(name, name))(x)
    e_ours = ulp_error(ours, ref, dtype)
    e_np = ulp_error(theirs, ref, dtype)
    with np.errstate(all="ignore"):
        rounded = ref.astype(dtype)
    correct = (ours == rounded) | (np.isnan(ours) & np.isnan(rounded))
    return {"arrstride": float(e_ours.max()), "numpy": float(e_np.max()),
            "pytorch": _torch_error(name, (x,), ref, dtype),
            "correctly rounded": float(correct.mean()), "samples": int(x.size),
            "worst input": float(x[int(np.argmax(e_ours))])}


def table(n: int = 200_000) -> List[Tuple[str, str, Dict[str, float]]]:
    return [(name, dt, measure(name, dt, n)) for dt in ("float32", "float64") for name in FUNCTIONS]


# Binary functions arrstride computes itself (vmath.h), measured on pairs:
# dense samples plus every pair of special values.
OWN_BINARY = {"float32": ("pow", "hypot", "logaddexp"), "float64": ("pow", "hypot", "logaddexp")}
_NP2 = {"pow": "power"}


def _pairs(name: str, dtype: str, n: int, rng: np.random.Generator) -> Tuple[np.ndarray, np.ndarray]:
    """n pairs spread where `name` is finite and nontrivial, plus the special
    values' cross product."""
    f32 = dtype == "float32"
    tiny, big = (1e-44, 3e38) if f32 else (5e-324, 1.7e308)

    def logu(lo, hi, k):
        return np.exp(rng.uniform(math.log(lo), math.log(hi), k))

    q = n // 4
    sign = lambda k: rng.choice([-1.0, 1.0], k)  # noqa: E731
    if name == "pow":
        # the result's exponent uniform over the finite range: y = w / log2(x)
        x1 = logu(1e-30, 1e30, n - 3 * q)
        x1 = np.where(np.abs(np.log2(x1)) < 1e-3, 2.0, x1)
        lo, hi = (-149.0, 127.9) if f32 else (-1074.0, 1023.9)
        y1 = rng.uniform(lo, hi, x1.size) / np.log2(x1)
        x = [x1, rng.uniform(0.5, 2.0, q), -logu(1e-3, 1e3, q), rng.uniform(0, 10, q)]
        y = [y1, rng.uniform(-60, 60, q), rng.integers(-30, 31, q).astype(np.float64), rng.uniform(-5, 5, q)]
    elif name == "hypot":
        x = [logu(tiny, big, n - q) * sign(n - q), rng.uniform(-10, 10, q)]
        y = [logu(tiny, big, n - q) * sign(n - q), rng.uniform(-10, 10, q)]
    else:  # logaddexp
        a = rng.uniform(-100, 100, q)
        x = [rng.uniform(-100, 100, n - 3 * q), a, logu(1e-6, 3e38, q) * sign(q), rng.uniform(-1, 1, q)]
        y = [rng.uniform(-100, 100, n - 3 * q), a + rng.uniform(-1, 1, q), logu(1e-6, 3e38, q) * sign(q),
             rng.uniform(-1, 1, q)]
    with np.errstate(all="ignore"):
        xs, ys = np.concatenate(x).astype(dtype), np.concatenate(y).astype(dtype)
    sv = special_values(dtype)[:18].tolist() + [3.0, -3.0, 2.5, -2.5, 0.75]
    sx = np.array([a for a in sv for _ in sv], dtype=dtype)
    sy = np.array([b for _ in sv for b in sv], dtype=dtype)
    return np.concatenate([xs, sx]), np.concatenate([ys, sy])


def reference2(name: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """name(x, y) in long double (or mpmath's 80-bit result, as long double)."""
    if _long_reference():
        with np.errstate(all="ignore"):
            return getattr(np, _NP2.get(name, name))(x.astype(np.longdouble), y.astype(np.longdouble))
    import mpmath
    mpmath.mp.prec = 80
    out = []
    with np.errstate(all="ignore"):
        rough = getattr(np, _NP2.get(name, name))(x.astype(np.float64), y.astype(np.float64))
    for a, b, r in zip(x.astype(np.float64).tolist(), y.astype(np.float64).tolist(), rough.tolist()):
        if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(r) and r != 0):
            out.append(r)  # special values: the C library's, exact by Annex F
        elif name == "pow":
            out.append(float(mpmath.power(a, b)))
        elif name == "hypot":
            out.append(float(mpmath.hypot(a, b)))
        else:
            m = max(a, b)
            out.append(float(m + mpmath.log1p(mpmath.exp(-abs(a - b)))))
    return np.array(out, dtype=np.longdouble)


def measure_binary(name: str, dtype: str, n: int = 200_000, seed: int = 0) -> Dict[str, float]:
    """As measure, for a function of two arguments."""
    rng = np.random.default_rng(seed)
    x, y = _pairs(name, dtype, n, rng)
    ref = reference2(name, x, y)
    ours = np.asarray(getattr(xp, name)(xp.asarray(x), xp.asarray(y)))
    with np.errstate(all="ignore"):
        theirs = getattr(np, _NP2.get(name, name))(x, y)
        rounded = ref.astype(dtype)
    e_ours = ulp_error(ours, ref, dtype)
    e_np = ulp_error(theirs, ref, dtype)
    correct = (ours == rounded) | (np.isnan(ours) & np.isnan(rounded))
    i = int(np.argmax(e_ours))
    return {"arrstride": float(e_ours.max()), "numpy": float(e_np.max()),
            "pytorch": _torch_error(name, (x, y), ref, dtype),
            "correctly rounded": float(correct.mean()), "samples": int(x.size),
            "worst input": (float(x[i]), float(y[i]))}


def main(argv: List[str], out: Callable[[str], None] = print) -> int:
    n = 200_000
    if argv[:1] == ["-n"] and len(argv) > 1:
        n = int(argv[1])
    elif argv:
        out("usage: python -m arrstride accuracy [-n SAMPLES]")
        return 2
    ref = "long double" if _long_reference() else "mpmath (80 bits)"
    out(f"max error in ULP against {ref}, {n} samples per row plus the special values")
    out(f"{'function':<9} {'dtype':<8} {'arrstride':>9} {'numpy':>9} {'pytorch':>8} {'correctly rounded':>18}"
        "  computed by")
    rows = [(name, dt, m, "arrstride (vmath.h)" if name in OWN[dt] else "C library") for name, dt, m in table(n)]
    rows += [(name, dt, measure_binary(name, dt, n), "arrstride (vmath.h)")
             for dt, names in OWN_BINARY.items() for name in names]
    for name, dt, m, who in rows:
        torch = "-" if math.isnan(m["pytorch"]) else f"{m['pytorch']:.3f}"
        out(f"{name:<9} {dt:<8} {m['arrstride']:>9.3f} {m['numpy']:>9.3f} {torch:>8} "
            f"{100 * m['correctly rounded']:>17.3f}%  {who}")
    return 0
