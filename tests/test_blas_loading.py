"""Loading OpenBLAS for arrstride must not change SciPy's LAPACK in the same process."""
import os
import subprocess
import sys

CODE = """
import scipy.linalg.lapack as lapack
before = lapack.dgesdd_lwork(60, 5)
import arrstride as xp
a = xp.reshape(xp.arange(6.0), (2, 3))
assert (a @ a.T).tolist() == [[5.0, 14.0], [14.0, 50.0]]
after = lapack.dgesdd_lwork(60, 5)
assert before == after, (before, after)
print("ok", after)
"""


def test_scipy_lapack_unchanged_after_arrstride_blas():
    # cwd="/" so that nothing is imported from the working directory; the
    # checkout under test goes first on PYTHONPATH (not whatever is installed)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    r = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=120,
                       cwd="/", env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok")


ONE_POOL = """
import numpy as np
np.ones((40, 40)) @ np.ones((40, 40))
import arrstride as xp
a = xp.ones((40, 40))
assert float((a @ a)[0, 0]) == 40.0
from arrstride import _blas
maps = [line.split()[-1] for line in open("/proc/self/maps") if "openblas64" in line]
print(_blas._dll._name)
print(sorted(set(maps)))
"""


def _run(code, **env_extra):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    env.update(env_extra)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       cwd="/", env=env)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def test_one_openblas_per_process_with_numpy():
    # NumPy's wheel bundles the same ILP64 OpenBLAS: arrstride loads that copy,
    # so the process has one library and one pool of BLAS threads
    from arrstride import _blas
    paths = _blas._library_paths()
    used, mapped = _run(ONE_POOL)
    assert used == paths[0]
    mapped = eval(mapped)
    assert len(mapped) == 1, mapped
    if "numpy.libs" in paths[0]:
        assert os.path.samefile(mapped[0], paths[0])


def test_blas_lib_variable_wins():
    from arrstride import _blas
    wheel = [p for p in _blas._library_paths() if "numpy.libs" not in p]
    assert wheel, "the scipy-openblas64 wheel is a dependency"
    used, mapped = _run(ONE_POOL, ARRSTRIDE_BLAS_LIB=wheel[0])
    assert used == wheel[0]
    assert len(eval(mapped)) == (1 if os.path.samefile(wheel[0], _blas._library_paths()[0]) else 2)


def test_unusable_library_is_a_clear_import_error():
    code = ("import arrstride as xp\n"
            "try:\n    xp.ones((2, 2)) @ xp.ones((2, 2))\n"
            "except ImportError as e:\n    print('ImportError', e)\n")
    out = _run(code, ARRSTRIDE_BLAS_LIB="/nonexistent/libopenblas.so")
    assert out[0].startswith("ImportError arrstride: no usable ILP64 OpenBLAS: /nonexistent/libopenblas.so cannot be loaded")


AFTER_BLAS = """
import numpy as np
import arrstride as xp
a = xp.ones((40, 40))
assert float((a @ a)[0, 0]) == 40.0
v = np.random.default_rng(1).standard_normal(1 << 22)
np.testing.assert_array_equal(np.asarray(xp.asarray(v) * 3.0 + 1.0), v * 3.0 + 1.0)
print("ok")
"""


def test_parallel_kernels_beside_either_openblas():
    # parallel regions after a BLAS call, with the wheel's OpenBLAS and with
    # NumPy's copy loaded: the same results, on arrstride's own pool
    from arrstride import _blas
    for path in _blas._library_paths():
        assert _run(AFTER_BLAS, ARRSTRIDE_BLAS_LIB=path, ARRSTRIDE_NUM_THREADS="2") == ["ok"]
