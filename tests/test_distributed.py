"""Cubed's Dask executor with arrstride in every worker: a LocalCluster of two
worker processes computes the column means, standard deviations, the Gram
matrix x.T @ x and a rechunked reduction of a 50 MB Zarr array, and the
results are checked against NumPy on the same data.

The job runs in a subprocess so that CUBED_BACKEND_ARRAY_API_MODULE is set
before Cubed is imported there and in the workers it spawns. Its dependencies
(cubed, dask, distributed, zarr) are in the test extra: a missing one fails
here, it is never skipped."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

import arrstride as xp

SCRIPT = r"""
import os, time
t_start = time.perf_counter()
import numpy as np, zarr
import cubed, cubed.array_api as cxp
from cubed.backend_array_api import namespace as nxp
from cubed.runtime.create import create_executor
from cubed.runtime.types import Callback
from dask.distributed import Client, LocalCluster
import arrstride
from arrstride.cluster import CacheRelease

assert nxp is arrstride, nxp
ROWS, COLS, CHUNK = 25_000, 250, 5_000           # 50 MB of float64 in 5 chunks of 10 MB
ALLOWED = 200_000_000


class Tasks(Callback):
    n = 0
    peak = 0

    def on_task_end(self, event):
        Tasks.n += 1
        Tasks.peak = max(Tasks.peak, event.peak_measured_mem_end or 0)


def backend_in_worker():
    import cubed.backend_array_api
    return cubed.backend_array_api.namespace.__name__


def cache_state(dask_worker):
    plugin = dask_worker.plugins["arrstride-cache-release"]
    return arrstride.get_cache_limit(), plugin.released, plugin.freed


if __name__ == "__main__":  # the workers are spawned: they import this file as __mp_main__
    X = np.random.default_rng(21).standard_normal((ROWS, COLS)) * 3.0 + 1.5  # NumPy: the oracle
    zarr.create_array(store={data!r}, shape=X.shape, chunks=(CHUNK, COLS), dtype="f8",
                      compressors=None)[:] = X
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit="1GB",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        client.wait_for_workers(2, timeout=60)
        client.register_plugin(CacheRelease(allowed_mem=ALLOWED))
        # each worker is its own OS process, and imported arrstride as Cubed's backend
        assert set(client.run(backend_in_worker).values()) == {{"arrstride"}}
        # the plugin gave each worker's arrstride one thread (Dask runs one task per thread)
        assert set(client.run(arrstride.get_num_threads).values()) == {{1}}
        pids = set(client.run(__import__("os").getpid).values())
        assert len(pids) == 2 and __import__("os").getpid() not in pids, pids

        executor = create_executor("dask", {{"compute_kwargs": {{"address": cluster.scheduler_address}}}})
        spec = cubed.Spec(work_dir={work_dir!r}, allowed_mem=ALLOWED, executor=executor)
        x = cubed.from_zarr({data!r}, spec=spec)
        # the first 10 columns as 10 whole series (a rechunk: 5 row chunks become
        # 10 single-column ones), each reduced along its 25,000 elements
        series = cubed.rechunk(cxp.matrix_transpose(x[:, :10]), (1, ROWS))
        spread = cxp.max(cxp.abs(series - cxp.mean(series, axis=1, keepdims=True)), axis=1)
        lazy = {{"mean": cxp.mean(x, axis=0), "std": cxp.std(x, axis=0),
                "gram": cxp.matmul(cxp.matrix_transpose(x), x), "spread": spread}}
        got = dict(zip(lazy, cubed.compute(*lazy.values(), callbacks=[Tasks()])))

        expected = {{"mean": X.mean(axis=0), "std": X.std(axis=0), "gram": X.T @ X,
                    "spread": np.abs(X[:, :10] - X[:, :10].mean(axis=0)).max(axis=0)}}
        for name, value in got.items():
            assert isinstance(value, arrstride.Array), (name, type(value))
            np.testing.assert_allclose(np.asarray(value), expected[name], rtol=1e-10,
                                       atol=1e-9 * np.abs(expected[name]).max(), err_msg=name)
        # Under .ci/sanitize, ASan's redzones and quarantine add memory Cubed's plan
        # does not know about: there the peak is only checked to be measured.
        asan = "asan" in os.environ.get("LD_PRELOAD", "")
        assert Tasks.n >= 10 and 0 < Tasks.peak and (asan or Tasks.peak < spec.allowed_mem), \
            (Tasks.n, Tasks.peak)
        # the plugin ran in every worker: the cache limit is 10% of allowed_mem, and
        # blocks the tasks left parked were freed as they ended
        state = client.run(cache_state)
        assert {{limit for limit, _, _ in state.values()}} == {{ALLOWED // 10}}, state
        assert sum(n for _, n, _ in state.values()) > 0, state
    print(f"distributed ok: {{Tasks.n}} tasks, peak task memory {{Tasks.peak / 1e6:.0f}} MB, "
          f"{{time.perf_counter() - t_start:.1f}} s")
"""


def test_cubed_dask_executor_on_local_cluster(tmp_path):
    env = dict(os.environ, CUBED_BACKEND_ARRAY_API_MODULE="arrstride")
    root = os.path.dirname(os.path.dirname(os.path.abspath(xp.__file__)))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    script = tmp_path / "job.py"
    script.write_text(SCRIPT.format(data=str(tmp_path / "x.zarr"), work_dir=str(tmp_path / "work")))
    proc = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                          timeout=240, cwd=tmp_path)
    assert proc.returncode == 0 and "distributed ok" in proc.stdout, proc.stdout[-2000:] + proc.stderr[-4000:]


def test_cache_release_plugin_in_this_process():
    """The plugin's two measures without a cluster: setup lowers the cache
    limit to 10% of the task budget (allowed_mem, else the worker's memory limit
    per thread), and the end of a task frees what is parked."""
    from types import SimpleNamespace

    from arrstride._kernels import cache_bytes
    from arrstride.cluster import CacheRelease, cache_limit_for

    old = xp.get_cache_limit()
    old_threads = xp.get_num_threads()
    try:
        assert cache_limit_for(2_000_000_000) == min(old, 200_000_000)
        assert cache_limit_for(0) == 0
        for bad in (-1, 2.5e9, "2GB", True):
            with pytest.raises(ValueError, match="cache_limit_for: expected allowed_mem"):
                cache_limit_for(bad)
        with pytest.raises(ValueError, match="cache_limit_for"):
            CacheRelease(allowed_mem=-5)

        for bad in (0, 257, 1.0, True):
            with pytest.raises(ValueError, match="CacheRelease: expected threads"):
                CacheRelease(threads=bad)

        xp.set_num_threads(2)
        CacheRelease(threads=None).setup(SimpleNamespace())
        assert xp.get_num_threads() == 2       # threads=None: unchanged
        plugin = CacheRelease(allowed_mem=1_000_000_000)
        plugin.setup(SimpleNamespace())
        assert xp.get_cache_limit() == min(old, 100_000_000)
        assert xp.get_num_threads() == 1       # one per worker thread, as Dask's nanny sets OpenBLAS
        xp.set_cache_limit(old)
        worker = SimpleNamespace(memory_manager=SimpleNamespace(memory_limit=3_000_000_000),
                                 state=SimpleNamespace(nthreads=2))
        CacheRelease().setup(worker)           # 1.5 GB per thread
        assert xp.get_cache_limit() == min(old, 150_000_000)
        xp.set_cache_limit(old)
        CacheRelease().setup(SimpleNamespace(memory_manager=SimpleNamespace(memory_limit=0)))
        assert xp.get_cache_limit() == old     # no limit known: unchanged

        xp.release_cache()
        a = xp.ones((1 << 20,))                # 8 MiB, parked when freed
        del a
        assert cache_bytes() >= 8 << 20
        plugin.transition("k", "ready", "executing")
        assert cache_bytes() >= 8 << 20 and plugin.released == 0
        plugin.transition("k", "executing", "memory")
        assert cache_bytes() == 0 and plugin.released == 1 and plugin.freed >= 8 << 20
        plugin.transition("k2", "executing", "error")   # nothing parked: not counted
        assert plugin.released == 1
    finally:
        xp.set_cache_limit(old)
        xp.set_num_threads(old_threads)
        xp.release_cache()
