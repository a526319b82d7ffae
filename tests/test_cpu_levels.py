"""The SIMD levels (native/src/platform.h): ARRSTRIDE_CPU picks one at import,
show_config reports it, and every level gives the same bits as the CPU's
best for every elementwise function and reduction on every dtype."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import arrstride as xp
from arrstride import _kernels as K
from test_elementwise import BINARY, UNARY

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(code, level, *args):
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("ARRSTRIDE_CPU", None)
    if level is not None:
        env["ARRSTRIDE_CPU"] = level
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=env, cwd=ROOT)


# The lower levels this machine can run (the CPU's best is the default).
ACTIVE, COMPILED, BEST, _ = K.cpu_level
LOWER = list(K.CPU_LEVELS[:K.CPU_LEVELS.index(ACTIVE)])


@pytest.mark.parametrize("level", ["baseline", "avx2", "avx512", "native"])
def test_arrstride_cpu_picks_the_level(level):
    code = ("import arrstride as xp; c = xp.show_config(mode='dicts')['SIMD level']; "
            "print(c['active'], c['CPU\\'s best'], c['compiled'], c['unstable sort'], "
            "c['float16 conversions'], sep='|')")
    r = run(code, level)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    active, best, compiled, sort_, f16 = r.stdout.strip().split("|")
    order = K.CPU_LEVELS
    want = best if level == "native" else order[min(order.index(level), order.index(best))]
    assert active == want
    assert compiled.split() == list(order[:order.index(COMPILED) + 1])
    if active == "baseline":  # the hardware paths step aside too
        assert sort_ == "radix sort" and f16 == "portable"


def test_arrstride_cpu_above_the_cpu_is_noted():
    if BEST == K.CPU_LEVELS[-1]:
        r = run("import arrstride._kernels as k; print(k.cpu_level[0])", "avx512")
        assert r.stdout.strip() == BEST
        return
    r = run("import arrstride as xp; print(xp.show_config(mode='dicts')['SIMD level']['ARRSTRIDE_CPU'])",
            "avx512")
    assert r.returncode == 0 and f"above this CPU's best: {BEST} is used" in r.stdout


def test_arrstride_cpu_unknown_value_warns():
    code = "import arrstride._kernels as k; print(k.cpu_level[0])"
    r = run(code, "avx3")
    assert r.returncode == 0
    assert "RuntimeWarning: ARRSTRIDE_CPU: must be one of 'baseline', 'avx2', 'avx512', 'native'; " \
           "got 'avx3'" in r.stderr
    assert r.stdout.strip() == BEST


# Run in a subprocess per level: every function on every dtype, its results'
# bytes saved to argv[1] (an .npz file, one uint8 array per call).
SWEEP = r"""
import sys, warnings
import numpy as np
import arrstride as xp
from arrstride import _dtypes as dt

unary, binary = sys.argv[2].split(","), sys.argv[3].split(",")
rng = np.random.default_rng(7)
n = 3000
out = {}

def raw(a):
    a = xp.reshape(xp.asarray(a, copy=True), (-1,))
    return np.from_dlpack(a.view(xp.uint8)).copy()

def keep(key, f, *args, **kw):
    try:
        r = f(*args, **kw)
    except (TypeError, ValueError, OverflowError):
        return
    out[key] = raw(xp.asarray(r))

def floats(k):
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 1e-310, -1e-310,
                5e-324, 1e-40, 1.5e-45, 1e-8, 65504.0, 3.4e38, -3.4e38, 1e308, 710.0, -745.0,
                88.7, -103.9, 1e22, np.pi, -np.pi / 2]
    mags = 10.0 ** rng.uniform(-12, 12, k)
    v = np.concatenate([rng.standard_normal(k) * 3, np.where(rng.random(k) < 0.5, -mags, mags),
                        rng.uniform(-1, 1, k)])[: n - len(specials)]
    v = np.concatenate([v, specials])
    rng.shuffle(v)
    return v

base = floats(n)
for d in dt.ALL:
    name = d.name
    xd = getattr(xp, name)
    if d.kind in "fc":
        v = base
        if d.kind == "c":
            x = xp.asarray(base) + 1j * xp.asarray(np.roll(base, 17))
            x = xp.astype(x, xd)
        else:
            x = xp.astype(xp.asarray(v), xd)
    elif name == "bool":
        x = xp.asarray(rng.random(n) < 0.5)
    else:
        info = np.iinfo(name)
        x = xp.asarray(rng.integers(info.min, info.max, n, endpoint=True, dtype=name))
    y = xp.flip(x)
    s = x[5]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for f in unary:
            fn = getattr(xp, f)
            keep(f"{f}|{name}", fn, x)
            keep(f"{f}|{name}|strided", fn, x[::3])
        for f in binary:
            fn = getattr(xp, f)
            keep(f"{f}|{name}", fn, x, y)
            keep(f"{f}|{name}|scalar2", fn, x, s)
            keep(f"{f}|{name}|scalar1", fn, s, y)
            keep(f"{f}|{name}|strided", fn, x[::3], y[::3])
        for e in (0, 1, 2, 3, 4, 0.5, -1, -2):
            keep(f"pow{e}|{name}", lambda: xp.pow(x, xp.asarray(e, dtype=xd)))
        keep(f"where|{name}", xp.where, x == y, x, y)
        keep(f"where_s|{name}", xp.where, x == y, x, s)
        m = xp.reshape(x, (60, 50))
        for f in ("sum", "mean", "var", "std", "max", "min", "prod", "any", "all"):
            fn = getattr(xp, f)
            keep(f"{f}|{name}", fn, x)
            keep(f"{f}|{name}|axis0", fn, m, axis=0)
            keep(f"{f}|{name}|axis1", fn, m, axis=1)
        keep(f"cumulative_sum|{name}", xp.cumulative_sum, x)
        keep(f"cumulative_sum|{name}|axis0", xp.cumulative_sum, m, axis=0)
        keep(f"vecdot|{name}", xp.vecdot, x, y)
        keep(f"vecdot|{name}|rows", xp.vecdot, m, xp.reshape(y, (60, 50)))
np.savez(sys.argv[1], **out)
"""


def sweep(level, path):
    r = run(SWEEP, level, str(path), ",".join(UNARY), ",".join(BINARY))
    assert r.returncode == 0, r.stderr
    return dict(np.load(path))


def libmvec_functions():
    """The functions whose float64 loops (float32: name + "f") call glibc's
    vector math (libmvec), from the extension's imports: its SSE, AVX2 and
    AVX-512 variants give different bits, so those loops cannot match
    across levels while they call it."""
    from arrstride import _native
    try:
        r = subprocess.run(["nm", "-D", "--undefined-only", _native.__file__], capture_output=True,
                           text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return set()
    return set(re.findall(r"_ZGV[a-z]N\d+v+_(\w+)", r.stdout))


@pytest.mark.skipif(not LOWER, reason="this CPU runs the baseline only: no other level to compare")
def test_every_level_gives_the_same_bits(tmp_path):
    want = sweep(None, tmp_path / "native.npz")
    assert len(want) > 1000
    funcs = {k.split("|")[0] for k in want}
    assert set(UNARY) <= funcs and set(BINARY) <= funcs
    assert {k.split("|")[1] for k in want} == {d.name for d in xp._dtypes.ALL}
    mvec = libmvec_functions()
    narrow = ("float32", "float16", "bfloat16")

    def via_libmvec(key):
        f, d = key.split("|")[:2]
        f = f[:3] if f.startswith("pow") else f
        return (f + "f" if d in narrow else f) in mvec and not d.startswith("complex")

    for level in LOWER:
        got = sweep(level, tmp_path / f"{level}.npz")
        assert got.keys() == want.keys()
        bad = {}
        for key, w in want.items():
            if via_libmvec(key):
                continue
            g = got[key]
            if g.shape != w.shape or not np.array_equal(g, w):
                bad[key] = int((g.reshape(-1) != w.reshape(-1)).sum()) if g.shape == w.shape else "shape"
        assert not bad, f"ARRSTRIDE_CPU={level} differs from {ACTIVE}: {bad}"


def test_level_is_fixed_at_import(monkeypatch):
    """A change of ARRSTRIDE_CPU after import changes nothing."""
    monkeypatch.setenv("ARRSTRIDE_CPU", "baseline")
    assert K._cpu_level()[0] == ACTIVE
