"""Thread stress: the API from several Python threads at once, beside the pool.

Four threads loop over kernels that use arrstride's pool (elementwise,
reductions, sort, integer matmul, take, setitem, casts) and BLAS (float
matmul), each on arrays of its own, checking every result against NumPy; a
fifth resizes the pool while they run; the main thread runs sorts that Ctrl-C
stops (SIGINT sent to itself), which arm the pool's workers. .ci/tsan runs it
on a ThreadSanitizer build; it also runs as a plain script:

    PYTHONPATH=. python .ci/thread_stress.py [rounds]

Exit status 0 when every result matched.
"""
import os
import signal
import sys
import threading

import numpy as np

import arrstride as xp

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 20
N = 1 << 17  # past the pool's grain: kernels split over its threads
failures = []


def check(what, got, want):
    got = np.asarray(got)
    if got.shape != want.shape or not np.allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=True):
        failures.append(what)


def worker(seed):
    rng = np.random.default_rng(seed)
    try:
        for r in range(ROUNDS):
            a, b = rng.standard_normal(N), rng.standard_normal(N)
            x, y = xp.asarray(a), xp.asarray(b)
            check("ewise", x * y + 1.0, a * b + 1.0)
            check("exp", xp.exp(x[::2]), np.exp(a[::2]))
            check("sum", xp.sum(x), np.sum(a))
            check("cast", xp.astype(x, xp.float32), a.astype(np.float32))
            check("sort", xp.sort(x), np.sort(a))
            check("argsort", xp.argsort(y), np.argsort(b, kind="stable"))
            idx = rng.integers(0, N, 5000)
            check("take", x[xp.asarray(idx)], a[idx])
            m = rng.standard_normal((96, 80))
            check("matmul", xp.asarray(m) @ xp.asarray(m.T), m @ m.T)
            mi = rng.integers(-50, 50, (128, 96)).astype(np.int32)
            check("imatmul", xp.asarray(mi) @ xp.asarray(mi.T), mi @ mi.T)
            z = xp.zeros((512, 256))
            z[::2, 1:] = xp.asarray(a[:256 * 255].reshape(256, 255))
            w = np.zeros((512, 256))
            w[::2, 1:] = a[:256 * 255].reshape(256, 255)
            check("setitem", z, w)
            check("mean axis", xp.mean(xp.reshape(x, (256, -1)), axis=0), a.reshape(256, -1).mean(axis=0))
    except Exception as e:  # noqa: BLE001 (reported below)
        failures.append(f"thread {seed}: {e!r}")


def resizer(stop):
    n = 0
    while not stop.is_set():
        xp.set_num_threads(1 + n % 2)
        n += 1
        stop.wait(0.01)
    xp.set_num_threads(0)


def main():
    # Python's own SIGINT handler, whatever was inherited (a shell starts
    # background jobs with SIGINT ignored): the armed sorts below need it
    signal.signal(signal.SIGINT, signal.default_int_handler)
    stop = threading.Event()
    threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
    rt = threading.Thread(target=resizer, args=(stop,))
    for t in threads + [rt]:
        t.start()
    rng = np.random.default_rng(99)
    stopped = 0
    for r in range(3):
        a = rng.standard_normal(3 << 20)
        x = xp.asarray(a)
        timer = threading.Timer(0.02, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        try:
            check("armed sort", xp.sort(x), np.sort(a))
            timer.join()
            threading.Event().wait(0.05)  # the late signal is handled here
        except KeyboardInterrupt:
            stopped += 1
        timer.join()
    for t in threads:
        t.join()
    stop.set()
    rt.join()
    print(f"thread_stress: {ROUNDS} rounds x 4 threads, {stopped}/3 sorts stopped by SIGINT, "
          f"{len(failures)} failure(s)")
    for f in failures[:20]:
        print("  failed:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
