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

import arrstride as xp

SCRIPT = r"""
import time
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


class Tasks(Callback):
    n = 0
    peak = 0

    def on_task_end(self, event):
        Tasks.n += 1
        Tasks.peak = max(Tasks.peak, event.peak_measured_mem_end or 0)


def backend_in_worker():
    import cubed.backend_array_api
    return cubed.backend_array_api.namespace.__name__


def releases(dask_worker):
    plugin = dask_worker.plugins["arrstride-cache-release"]
    return plugin.released, plugin.freed


if __name__ == "__main__":  # the workers are spawned: they import this file as __mp_main__
    X = np.random.default_rng(21).standard_normal((ROWS, COLS)) * 3.0 + 1.5  # NumPy: the oracle
    zarr.create_array(store={data!r}, shape=X.shape, chunks=(CHUNK, COLS), dtype="f8",
                      compressors=None)[:] = X
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit="1GB",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        client.wait_for_workers(2, timeout=60)
        client.register_plugin(CacheRelease())
        # each worker is its own OS process, and imported arrstride as Cubed's backend
        assert set(client.run(backend_in_worker).values()) == {{"arrstride"}}
        pids = set(client.run(__import__("os").getpid).values())
        assert len(pids) == 2 and __import__("os").getpid() not in pids, pids

        executor = create_executor("dask", {{"compute_kwargs": {{"address": cluster.scheduler_address}}}})
        spec = cubed.Spec(work_dir={work_dir!r}, allowed_mem="200MB", executor=executor)
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
        assert Tasks.n >= 10 and 0 < Tasks.peak < spec.allowed_mem, (Tasks.n, Tasks.peak)
        # the plugin ran in the workers and freed blocks the tasks had left parked
        released = client.run(releases)
        assert sum(n for n, _ in released.values()) > 0 and sum(b for _, b in released.values()) > 0, released
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
