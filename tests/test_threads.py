"""The persistent thread pool: results on any thread count equal the
single-thread results (and NumPy's), the pool survives fork in parent and
child (os.fork and multiprocessing's fork start method), set_num_threads
resizes it and governs OpenBLAS, and concurrent callers stay correct."""
import faulthandler
import multiprocessing
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import arrstride as xp
from layouts import views

N = 1 << 21  # large enough that every kernel here runs on several threads


@pytest.fixture
def threads():
    """Restore the thread count after the test."""
    old = xp.get_num_threads()
    yield
    xp.set_num_threads(old)


def _big_work(seed: int):
    """Large threaded kernels; returns (elementwise, float sum, int sum, column sums)."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(N)
    i = rng.integers(-1000, 1000, N)
    m = rng.standard_normal((1024, 2048))
    xa, xi, xm = xp.asarray(a), xp.asarray(i), xp.asarray(m)
    return (np.asarray(xa * xa + xa), float(xp.sum(xa)), int(xp.sum(xi)),
            np.asarray(xp.sum(xm, axis=0)), (a, i, m))


def _check_big(seed: int) -> None:
    ew, fs, is_, cols, (a, i, m) = _big_work(seed)
    np.testing.assert_array_equal(ew, a * a + a)
    assert fs == pytest.approx(float(np.sum(a)), rel=1e-12, abs=1e-9)
    assert is_ == int(np.sum(i))
    np.testing.assert_allclose(cols, np.sum(m, axis=0), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("nt", [1, 2, 3, 4, 7, 16])
def test_results_do_not_depend_on_thread_count(threads, nt):
    xp.set_num_threads(1)
    ref = _big_work(0)
    xp.set_num_threads(nt)
    assert xp.get_num_threads() == nt
    got = _big_work(0)
    np.testing.assert_array_equal(got[0], ref[0])
    assert got[1] == pytest.approx(ref[1], rel=1e-12, abs=1e-9)
    assert got[2] == ref[2]
    np.testing.assert_allclose(got[3], ref[3], rtol=1e-12, atol=1e-12)
    _check_big(1)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 1000, 4097, 65537, 300001])
def test_chunk_edges(threads, n):
    """Sizes that do not divide into chunks evenly."""
    xp.set_num_threads(3)
    a = np.arange(n, dtype=np.float64)
    xa = xp.asarray(a)
    np.testing.assert_array_equal(np.asarray(xa * 2.0), a * 2.0)
    np.testing.assert_array_equal(np.asarray(xp.flip(xa) + xa), a[::-1] + a)
    assert float(xp.sum(xa)) == float(np.sum(a))


def _wait(pid: int, timeout: float = 120.0) -> int:
    """The child's exit status; a child that hangs (deadlock) fails the test."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.02)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    pytest.fail("forked child did not finish: deadlock in the thread pool?")


def _child(seed: int) -> None:
    # a child that hangs prints where (all threads) and exits, so the parent's
    # _wait reports it instead of timing out blind
    faulthandler.dump_traceback_later(60, exit=True)
    code = 1
    try:
        _check_big(seed)
        # the child made its own workers (the parent's did not survive fork)
        if os.path.isdir("/proc/self/task") and len(os.listdir("/proc/self/task")) < 2:
            code = 2
        else:
            code = 0
    finally:
        os._exit(code)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # fork with threads running
def test_os_fork_parent_and_child(threads):
    xp.set_num_threads(2)
    _check_big(2)  # the pool runs before the fork
    pid = os.fork()
    if pid == 0:
        _child(3)
    assert _wait(pid) == 0
    _check_big(4)  # and after it, in the parent
    pid = os.fork()  # a second generation: fork from a child that re-made its pool
    if pid == 0:
        code = 1
        try:
            _check_big(5)
            grand = os.fork()
            if grand == 0:
                _child(6)
            code = _wait(grand)
        finally:
            os._exit(code)
    assert _wait(pid) == 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("blas_first", [False, True], ids=["pool", "after-blas"])
def test_fork_while_another_thread_runs_kernels(threads, blas_first):
    """The fork handler waits for a region in flight (before and after a BLAS
    call started OpenBLAS's workers); the child's threads work."""
    if blas_first:
        a = xp.asarray(np.ones((64, 64)))
        xp.matmul(a, a)
    xp.set_num_threads(2)
    stop = threading.Event()
    running = threading.Event()
    errors = []

    def spin():
        rng = np.random.default_rng(7)
        a = rng.standard_normal(N)
        xa = xp.asarray(a)
        while not stop.is_set():
            if not np.array_equal(np.asarray(xa * xa), a * a):
                errors.append("wrong result")
            running.set()

    t = threading.Thread(target=spin)
    t.start()
    # Fork only once the thread runs kernels: a fork while it is still inside
    # an import (np.random is a lazy one) leaves the child waiting forever on
    # that module's import lock, a hazard of fork with threads in any Python
    # program, not of the pool.
    assert running.wait(60)
    try:
        for k in range(5):
            pid = os.fork()
            if pid == 0:
                _child(10 + k)
            assert _wait(pid) == 0
    finally:
        stop.set()
        t.join()
    assert not errors


def _mp_task(seed: int) -> bool:
    _check_big(seed)
    return True


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                    reason="the fork start method is POSIX only")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_multiprocessing_fork(threads):
    xp.set_num_threads(2)
    _check_big(20)
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool:
        res = pool.map_async(_mp_task, [21, 22, 23])
        assert res.get(timeout=300) == [True, True, True]
    _check_big(24)


def test_concurrent_callers(threads):
    """Python threads calling kernels at once (the GIL is released in C): one
    region uses the pool, the others run on their own threads; all correct."""
    xp.set_num_threads(2)
    errors = []

    def work(seed):
        try:
            for _ in range(3):
                _check_big(seed)
        except Exception as e:  # reported below
            errors.append(e)

    ts = [threading.Thread(target=work, args=(30 + k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors


def _task_count() -> int:
    return len(os.listdir("/proc/self/task"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux /proc")
def test_set_num_threads_resizes_pool(threads):
    xp.set_num_threads(6)
    _check_big(40)  # starts the pool's 5 workers
    before = _task_count()
    xp.set_num_threads(2)
    after = _task_count()
    assert before - after >= 4  # 5 workers down to 1
    _check_big(41)
    xp.set_num_threads(1)
    _check_big(42)
    assert _task_count() <= after - 1


def _openblas_threads() -> int:
    from arrstride import _blas
    return _blas._dll.scipy_openblas_get_num_threads64_()


def test_set_num_threads_governs_openblas(threads):
    a = xp.asarray(np.ones((64, 64)))
    xp.matmul(a, a)  # loads BLAS
    xp.set_num_threads(1)
    assert _openblas_threads() == 1
    xp.set_num_threads(2)
    assert _openblas_threads() == 2
    xp.set_num_threads(0)
    assert _openblas_threads() == xp.get_num_threads()


def _run_python(code: str, env: dict) -> subprocess.CompletedProcess:
    """code run by a fresh interpreter with env, from the checkout; it must succeed."""
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert out.returncode == 0, out.stderr
    return out


def test_env_thread_count_reaches_openblas():
    env = dict(os.environ, ARRSTRIDE_NUM_THREADS="3")
    code = ("import numpy as np, arrstride as xp\n"
            "a = xp.asarray(np.ones((64, 64))); xp.matmul(a, a)\n"
            "from arrstride import _blas\n"
            "print(xp.get_num_threads(), _blas._dll.scipy_openblas_get_num_threads64_())\n")
    out = _run_python(code, env)
    assert out.stdout.split() == ["3", "3"]


def test_set_num_threads_rejects_bad_counts():
    for bad in (-1, 257, 2.0, True, "2"):
        with pytest.raises(ValueError, match="set_num_threads"):
            xp.set_num_threads(bad)


# ---- one long FFT split across the pool (each pass's butterflies in parallel) ----

FFT_SIZES = [1 << 15, 3 << 14, 5 ** 7, 2 * 3 ** 10, 7 * 11 * 13 * 31, 1 << 17, 65537, 2 * 65537,
             (1 << 16) + 6]


@pytest.mark.parametrize("n", FFT_SIZES)
@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_long_fft_threads_match_single_thread_and_numpy(threads, n, dtype):
    rng = np.random.default_rng(n)
    real = np.float64 if dtype == np.complex128 else np.float32
    a = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    r = rng.standard_normal(n).astype(real)
    # strided and flipped inputs reach the same core through the gather
    xa, xr = xp.asarray(a), xp.flip(xp.asarray(np.repeat(r, 2)[::-1].copy()))[::2]

    def run():
        spec = xp.fft.rfft(xr)
        return [np.asarray(v) for v in (xp.fft.fft(xa), xp.fft.ifft(xa, norm="ortho"), spec,
                                        xp.fft.irfft(spec, n=n))]

    results = {}
    for nt in (1, 2, 3, 4):
        xp.set_num_threads(nt)
        results[nt] = run()
    for nt in (2, 3, 4):
        for got, ref in zip(results[nt], results[1]):
            np.testing.assert_array_equal(got, ref)  # same arithmetic, any split
    tol = 1e-10 if dtype == np.complex128 else 1e-4
    fft, ifft, spec, back = results[1]
    for got, ref in ((fft, np.fft.fft(a)), (ifft, np.fft.ifft(a, norm="ortho")),
                     (spec, np.fft.rfft(np.asarray(xr)))):
        assert got.dtype == dtype
        assert np.max(np.abs(got - ref)) <= tol * np.max(np.abs(ref))
    np.testing.assert_allclose(back, np.asarray(xr), atol=tol * 10)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_long_fft_in_forked_child(threads):
    xp.set_num_threads(2)
    a = np.random.default_rng(5).standard_normal(1 << 17) + 0j
    ref = np.fft.fft(a)
    np.testing.assert_allclose(np.asarray(xp.fft.fft(xp.asarray(a))), ref, atol=1e-8)
    pid = os.fork()
    if pid == 0:
        ok = False
        try:
            ok = np.allclose(np.asarray(xp.fft.fft(xp.asarray(a))), ref, atol=1e-8)
        finally:
            os._exit(0 if ok else 1)
    assert _wait(pid) == 0


# ---- reductions whose outer dims run on the iterator (blocks), on any thread count ----

def _layouts_3d(rng, dtype):
    """(NumPy view, the same arrstride view) pairs: outer dims stepped, flipped,
    reordered, of stride 0, and a 4-D flipped one."""
    base = rng.integers(-50, 50, (6, 40, 300)).astype(dtype)
    names = ["contiguous", "stepped", "negative", "permuted", "broadcast", "mixed"]
    for _, xa, a in views(base, names):
        yield a, xa
    for _, xa, a in views(base.reshape(2, 3, 40, 300), ["negative"]):
        yield a, xa


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64, np.uint8,
                                   np.complex128])
@pytest.mark.parametrize("nt", [1, 3])
def test_reductions_with_outer_dims(threads, dtype, nt):
    xp.set_num_threads(nt)
    rng = np.random.default_rng(3)
    for a, xa in _layouts_3d(rng, dtype):
        assert xa.shape == a.shape
        for axis in [-2, (0, -2), (0, 1), tuple(range(a.ndim - 1)), None]:
            got = np.asarray(xp.sum(xa, axis=axis))
            if a.dtype.kind in "iu":
                ref = np.sum(a, axis=axis, dtype=np.int64 if a.dtype.kind == "i" else np.uint64)
                np.testing.assert_array_equal(got, ref)
            else:
                ref = np.sum(a, axis=axis)
                np.testing.assert_allclose(got, ref, rtol=1e-5 if a.dtype == np.float32 else 1e-12)
            if a.dtype.kind != "c":
                np.testing.assert_array_equal(np.asarray(xp.max(xa, axis=axis)), np.max(a, axis=axis))


def test_openblas_keeps_its_own_default_without_an_explicit_count():
    env = {k: v for k, v in os.environ.items() if k != "ARRSTRIDE_NUM_THREADS"}
    env["OPENBLAS_NUM_THREADS"] = "1"
    code = ("import numpy as np, arrstride as xp\n"
            "a = xp.asarray(np.ones((64, 64))); xp.matmul(a, a)\n"
            "from arrstride import _blas\n"
            "print(_blas._dll.scipy_openblas_get_num_threads64_())\n"
            "xp.set_num_threads(2)\n"
            "print(_blas._dll.scipy_openblas_get_num_threads64_())\n")
    out = _run_python(code, env)
    assert out.stdout.split() == ["1", "2"]


def test_resize_while_other_threads_run_kernels(threads):
    """set_num_threads waits for the region in flight; kernels stay correct."""
    stop = threading.Event()
    errors = []
    a = np.random.default_rng(9).standard_normal(1 << 18)
    xa = xp.asarray(a)

    def work():
        while not stop.is_set():
            if not np.array_equal(np.asarray(xa * xa), a * a):
                errors.append("elementwise")
            if float(xp.sum(xa)) != pytest.approx(float(np.sum(a)), rel=1e-12, abs=1e-12):
                errors.append("sum")

    ts = [threading.Thread(target=work) for _ in range(2)]
    for t in ts:
        t.start()
    try:
        for k in range(60):
            xp.set_num_threads(1 + k % 4)
            time.sleep(0.002)
    finally:
        stop.set()
        for t in ts:
            t.join()
    assert not errors


_AFTER_BLAS_JOB = """
import os
import numpy as np
import arrstride as xp
from arrstride._native import lib
np.ones((64, 64)) @ np.ones((64, 64))  # NumPy's BLAS call; its workers spin
rng = np.random.default_rng(5)
v = rng.standard_normal(1 << 22)
m = rng.standard_normal((1500, 1700))
xv, xm = xp.asarray(v), xp.asarray(m)
np.testing.assert_allclose(np.asarray(xp.exp(xv) * xv + 1.0), np.exp(v) * v + 1.0, rtol=1e-14)
assert abs(float(xp.sum(xv)) - float(np.sum(v))) < 1e-9
np.testing.assert_allclose(np.asarray(xp.max(xm, axis=0)), m.max(axis=0))
np.testing.assert_array_equal(np.asarray(xp.sort(xv)), np.sort(v))
idx = rng.integers(-len(v), len(v), 1 << 20)
np.testing.assert_array_equal(np.asarray(xv[xp.asarray(idx)]), v[idx])
np.testing.assert_allclose(np.asarray(xp.fft.fft(xv)), np.fft.fft(v), rtol=1e-9, atol=1e-6)
print(lib.ars_parallel_own_workers())
# regions whose chunks call BLAS/LAPACK (batches of small matrices)
b = rng.standard_normal((3000, 6, 6)) + 6 * np.eye(6)
np.testing.assert_allclose(np.asarray(xp.linalg.inv(xp.asarray(b))), np.linalg.inv(b),
                           rtol=1e-10, atol=1e-12)
np.testing.assert_allclose(np.asarray(xp.asarray(b) @ xp.asarray(b)), b @ b, rtol=1e-12)
"""


def test_regions_beside_numpys_openblas():
    """With NumPy's OpenBLAS loaded and its workers spinning after a BLAS
    call, big kernels run on arrstride's own pool (one worker for two
    threads) and equal NumPy's, BLAS-calling batches included."""
    env = {k: v for k, v in os.environ.items() if k not in ("ARRSTRIDE_BLAS_LIB",)}
    env.update(ARRSTRIDE_NUM_THREADS="2", OPENBLAS_NUM_THREADS="2")
    assert _run_python(_AFTER_BLAS_JOB, env).stdout.split() == ["1"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # fork with threads running
def test_regions_in_child_forked_after_blas(threads):
    """A child forked after a BLAS call and parallel regions runs regions
    again (OpenBLAS re-creates its workers in the child, arrstride its pool)."""
    a = xp.asarray(np.ones((64, 64)))
    xp.matmul(a, a)
    xp.set_num_threads(2)
    _check_big(11)
    pid = os.fork()
    if pid == 0:
        _child(12)
    assert _wait(pid) == 0
    _check_big(13)


# ---- threadpoolctl -------------------------------------------------------------------------

_THREADPOOLCTL = """
import sys
{first}
assert "threadpoolctl" {imported} sys.modules
import threadpoolctl
(pool,) = [i for i in threadpoolctl.threadpool_info() if i["user_api"] == "arrstride"]
assert pool["internal_api"] == "arrstride" and pool["version"] == xp.__version__, pool
assert pool["num_threads"] == xp.get_num_threads() == 3, pool
with threadpoolctl.threadpool_limits(1):
    assert xp.get_num_threads() == 1
    assert float(xp.sum(xp.ones(1 << 22))) == 1 << 22
assert xp.get_num_threads() == 3
with threadpoolctl.threadpool_limits(2, user_api="arrstride"):
    assert xp.get_num_threads() == 2
with threadpoolctl.threadpool_limits(1, user_api="blas"):
    assert xp.get_num_threads() == 3      # BLAS limits leave arrstride's pool alone
assert xp.get_num_threads() == 3
print("ok")
"""


@pytest.mark.parametrize("order", ["arrstride-first", "threadpoolctl-first"])
def test_threadpoolctl_lists_and_limits_the_pool(order):
    # arrstride registers its controller without importing threadpoolctl:
    # at once when threadpoolctl is already imported, else on its first import
    first = ("import arrstride as xp" if order == "arrstride-first"
             else "import threadpoolctl\nimport arrstride as xp")
    code = _THREADPOOLCTL.format(first=first, imported="not in" if order == "arrstride-first" else "in")
    env = dict(os.environ, ARRSTRIDE_NUM_THREADS="3")
    assert _run_python(code, env).stdout.split() == ["ok"]


_SKLEARN_LIMITS = """
import io, contextlib
import numpy as np
import sklearn
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from threadpoolctl import threadpool_limits
import arrstride as xp
out = io.StringIO()
with contextlib.redirect_stdout(out):
    sklearn.show_versions()              # scikit-learn's report of the thread pools
assert "user_api: arrstride" in out.getvalue(), out.getvalue()
rng = np.random.default_rng(0)
X = rng.standard_normal((20000, 20)); y = (X[:, 0] + rng.standard_normal(20000) > 0).astype(np.int64)
seen = []
with sklearn.config_context(array_api_dispatch=True):
    ref = LinearDiscriminantAnalysis().fit(xp.asarray(X), xp.asarray(y)).coef_
    # as scikit-learn's test session and joblib's workers limit every pool
    with threadpool_limits(1):
        seen.append(xp.get_num_threads())
        one = LinearDiscriminantAnalysis().fit(xp.asarray(X), xp.asarray(y)).coef_
seen.append(xp.get_num_threads())
np.testing.assert_allclose(np.asarray(one), np.asarray(ref), rtol=1e-10)
print(*seen)
"""


def test_scikit_learn_limits_the_pool():
    env = dict(os.environ, ARRSTRIDE_NUM_THREADS="2", SCIPY_ARRAY_API="1")
    assert _run_python(_SKLEARN_LIMITS, env).stdout.split() == ["1", "2"]
