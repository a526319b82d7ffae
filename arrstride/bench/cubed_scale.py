"""Scale past one machine's memory with Cubed, arrstride as the backend in every worker.

    python -m arrstride.bench.cubed_scale --gb 1 --dir /tmp/cubed-scale                  # a check
    python -m arrstride.bench.cubed_scale --gb 40 --dir /big/disk --executors cluster \\
        --kill-worker-after 60 --plot scale.png                                     # the real run
    python -m arrstride.bench.cubed_scale --xarray --xarray-gb 2 --dir /tmp/cubed-scale  # climatology

Steps, each in its own process so that the backend is chosen before Cubed is
imported (CUBED_BACKEND_ARRAY_API_MODULE):
1. generate: a float64 Zarr array of `--gb` gigabytes, 250 columns, chunks of
   about `--chunk-mb` MB, written chunk by chunk with 2 processes (input data
   only: nothing below computes with NumPy when arrstride is the backend);
2. compute, once per backend (arrstride, then numpy) and executor, under
   Cubed's `allowed_mem`: the column means, the column standard deviations,
   the Gram matrix x.T @ x, and a computation that needs a rechunk (the first
   `--rechunk-cols` columns rechunked into whole series and reduced along
   them). Executors:
   - processes: Cubed's processes executor, 2 worker processes;
   - local:     Cubed's Dask executor on a dask.distributed LocalCluster of 2
                worker processes;
   - cluster:   Cubed's Dask executor on a cluster of separate OS processes on
                127.0.0.1, as on separate nodes: `dask scheduler` and two
                `dask worker` (one thread each, `--worker-memory`), started with
                the backend in their environment and stopped after the run;
   With --kill-worker-after S, the arrstride run on the cluster is repeated and
   one worker is killed with SIGKILL S seconds into it (a replacement worker is
   started, as a cluster manager would); its results must be identical to the
   undisturbed run's.
3. report: wall time per backend and the ratio, the peak memory any task
   measured against allowed_mem, and whether the backends agree.

With --xarray the job is instead a climatology with xarray on Cubed
(cubed-xarray): a daily Zarr dataset with a time dimension, opened with
`xr.open_zarr(..., chunked_array_type="cubed")`, its `groupby("time.month")`
mean and the anomaly against it, per backend, on the same executors.

Needs the `scale` extra: pip install -e '.[scale]'.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time

COLS = 250  # x.T @ x is 250 x 250; a chunk of 50_000 rows is 100 MB
HERE = os.path.abspath(__file__)


# ---- 1. data -------------------------------------------------------------------------------------

def generate(path: str, gb: float, chunk_mb: float) -> dict:
    import zarr
    from concurrent.futures import ProcessPoolExecutor
    rows_per_chunk = max(1, int(chunk_mb * 1e6 / (8 * COLS)))
    nchunks = max(1, int(round(gb * 1e9 / (8 * COLS * rows_per_chunk))))
    shape = (nchunks * rows_per_chunk, COLS)
    zarr.create_array(store=path, shape=shape, chunks=(rows_per_chunk, COLS), dtype="f8",
                      compressors=None, overwrite=True)
    with ProcessPoolExecutor(2) as pool:
        list(pool.map(_write_chunk, [(path, i, rows_per_chunk) for i in range(nchunks)]))
    return {"generated": path, "shape": list(shape), "chunk_rows": rows_per_chunk,
            "gb": shape[0] * shape[1] * 8 / 1e9}


def _write_chunk(args) -> None:
    import numpy as np
    import zarr
    path, i, rows = args
    z = zarr.open_array(path, mode="r+")
    z[i * rows:(i + 1) * rows] = np.random.default_rng(i).standard_normal((rows, COLS)) + 1.0


def xgenerate(path: str, gb: float, chunk_mb: float) -> dict:
    """A daily float64 field (time, lat, lon) on a half-degree grid, of about `gb`
    GB over whole years, chunked along time (about `chunk_mb` MB, at most 31
    days, a chunk): a seasonal cycle, a trend and noise, so that the
    climatology and the anomaly are not trivial."""
    import numpy as np
    import pandas as pd
    import xarray as xr
    import zarr
    from concurrent.futures import ProcessPoolExecutor
    lat, lon = 360, 720                            # half-degree grid: 2 MB a day
    day = lat * lon * 8
    years = max(1, int(round(gb * 1e9 / (365.25 * day))))
    time_ = pd.date_range("1990-01-01", f"{1990 + years - 1}-12-31", freq="D")
    tchunk = max(1, min(31, int(chunk_mb * 1e6 / day)))  # at most a month: a month group reads few chunks
    template = xr.Dataset(
        {"tas": (("time", "lat", "lon"), _lazy_zeros((len(time_), lat, lon), tchunk))},
        coords={"time": time_, "lat": np.linspace(-89.0, 89.0, lat), "lon": np.arange(0.0, 360.0, 0.5)})
    template.to_zarr(path, mode="w", compute=False, encoding={"tas": {"chunks": (tchunk, lat, lon),
                                                                          "compressors": None}})
    starts = list(range(0, len(time_), tchunk))
    doy = time_.dayofyear.values
    with ProcessPoolExecutor(2) as pool:
        list(pool.map(_write_xchunk, [(path, s, min(s + tchunk, len(time_)), doy[s:s + tchunk], lat, lon)
                                      for s in starts]))
    zarr.consolidate_metadata(path)
    return {"generated": path, "shape": [len(time_), lat, lon], "years": years,
            "gb": len(time_) * day / 1e9, "time_chunk": tchunk}


def _lazy_zeros(shape, tchunk):
    import dask.array as da
    return da.zeros(shape, chunks=(tchunk,) + shape[1:], dtype="f8")


def _write_xchunk(args) -> None:
    import numpy as np
    import zarr
    path, start, stop, doy, lat, lon = args
    rng = np.random.default_rng(start)
    season = 10.0 * np.cos(2 * np.pi * (doy - 200) / 365.25)[:, None, None]
    trend = 0.0001 * np.arange(start, stop)[:, None, None]
    field = 15.0 + season * np.cos(np.deg2rad(np.linspace(-89.0, 89.0, lat)))[None, :, None] + trend
    zarr.open_group(path, mode="r+")["tas"][start:stop] = field + rng.standard_normal((stop - start, lat, lon))


# ---- 2. compute (runs in a process whose environment chose the backend) -------------------------

class _History:
    """Cubed callbacks: the plan (projected memory per operation) and every
    task's timing and peak memory, for the report and --plot."""

    def __new__(cls):
        from cubed.runtime.pipeline import visit_nodes
        from cubed.runtime.types import Callback

        class History(Callback):
            def on_compute_start(self, event):
                self.plan = {}
                for name, node in visit_nodes(event.dag):
                    op = node["primitive_op"]
                    self.plan[name] = {"op_name": node.get("op_name"), "func_name": node.get("func_name"),
                                       "projected_mem": op.projected_mem, "allowed_mem": op.allowed_mem,
                                       "num_tasks": op.num_tasks}
                self.tasks = []

            def on_task_end(self, event):
                self.tasks.append({"name": event.name, "start": event.function_start_tstamp,
                                   "end": event.function_end_tstamp,
                                   "mem_start": event.peak_measured_mem_start,
                                   "mem_end": event.peak_measured_mem_end})
        return History()


def _executor(kind: str, address: str | None, allowed_mem: int):
    from cubed.runtime.create import create_executor
    if kind == "processes":
        return create_executor("processes", {"max_workers": 2}), None
    from dask.distributed import Client, LocalCluster
    from arrstride.cluster import CacheRelease
    if kind == "local":
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               memory_limit=int(allowed_mem * 1.5), dashboard_address=None)
        address = cluster.scheduler_address
    client = Client(address)  # kind == "cluster": the scheduler at `address`
    client.wait_for_workers(2, timeout=120)
    if os.environ.get("CUBED_BACKEND_ARRAY_API_MODULE") == "arrstride":
        # the block cache sized from allowed_mem and freed after every task, in
        # every worker (also in one that replaces a killed worker)
        client.register_plugin(CacheRelease(allowed_mem=allowed_mem))
    # Cubed's executor opens its own (asynchronous) client: point it at this cluster
    return create_executor("dask", {"compute_kwargs": {"address": address}}), client


def compute(a) -> None:
    import cubed
    import cubed.array_api as cxp
    from cubed.backend_array_api import namespace as nxp
    allowed = cubed.Spec(allowed_mem=a.allowed_mem).allowed_mem
    ex, client = _executor(a.executor, a.address, allowed)
    spec = cubed.Spec(work_dir=a.work_dir, allowed_mem=allowed, executor=ex)
    callbacks = [history := _History()]
    if a.progress:
        from cubed.diagnostics import ProgressBar  # Cubed's rich progress bars, one per operation
        callbacks.append(ProgressBar())
    t0 = time.perf_counter()
    if a.kind == "array":
        x = cubed.from_zarr(a.data, spec=spec)
        k = min(a.rechunk_cols, x.shape[1])
        series = cubed.rechunk(cxp.matrix_transpose(x[:, :k]), (1, x.shape[0]))
        lazy = {"mean": cxp.mean(x, axis=0), "std": cxp.std(x, axis=0),
                "gram": cxp.matmul(cxp.matrix_transpose(x), x),
                "spread": cxp.max(cxp.abs(series - cxp.mean(series, axis=1, keepdims=True)), axis=1)}
        values = cubed.compute(*lazy.values(), callbacks=callbacks)
    else:
        import xarray as xr
        ds = xr.open_zarr(a.data, chunked_array_type="cubed", from_array_kwargs={"spec": spec})
        clim = ds.tas.groupby("time.month").mean()
        # the 12 months as one chunk before they are broadcast back over time: the
        # anomaly indexes the climatology with each day's month, and Cubed gives an
        # integer-array index the chunk size of the indexed axis (one month a chunk:
        # one task per day). chunked_array_type keeps it on Cubed (.chunk alone
        # would hand it to Dask)
        clim_one = clim.chunk({"month": -1}, chunked_array_type="cubed", from_array_kwargs={"spec": spec})
        anom = ds.tas.groupby("time.month") - clim_one
        lazy = {"climatology": clim, "anomaly": anom}
        values = cubed.compute(clim.data, anom.data, callbacks=callbacks)
    wall = time.perf_counter() - t0
    if client is not None:
        client.close()
    import numpy as np  # results leave the backend for the comparison only
    np.savez(a.out, **{k: np.asarray(v) for k, v in zip(lazy, values)})
    peak = max((t["mem_end"] or 0) for t in history.tasks)
    with open(a.out + ".json", "w") as f:
        json.dump({"backend": nxp.__name__, "executor": a.executor, "seconds": wall,
                   "peak_task_mem": peak, "allowed_mem": allowed, "plan": history.plan,
                   "tasks": history.tasks, "result_types": sorted({type(v).__module__ for v in values})}, f)


# ---- the cluster: separate OS processes on 127.0.0.1 ----------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalProcessCluster:
    """`dask scheduler` and `dask worker` processes on 127.0.0.1, each its own OS
    process (no nanny: a killed worker stays dead), with the backend and the
    arrstride knobs in their environment."""

    def __init__(self, env: dict, workers: int, memory_limit: int, log_dir: str):
        self.env, self.memory_limit, self.log_dir = env, memory_limit, log_dir
        self.port = _free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        os.makedirs(log_dir, exist_ok=True)
        self.scheduler = self._spawn("scheduler", ["scheduler", "--host", "127.0.0.1", "--port",
                                                   str(self.port), "--no-dashboard"])
        self.workers = [self.start_worker(i) for i in range(workers)]

    def _spawn(self, name: str, args: list) -> subprocess.Popen:
        log = open(os.path.join(self.log_dir, f"{name}.log"), "w")
        # the `dask` command of this Python's environment: `dask scheduler`, `dask worker`
        dask = os.path.join(os.path.dirname(sys.executable), "dask")
        return subprocess.Popen([dask] + args, env=self.env, stdout=log, stderr=log, cwd=self.log_dir)

    def start_worker(self, i) -> subprocess.Popen:
        return self._spawn(f"worker-{i}", ["worker", self.address, "--host", "127.0.0.1",
                                           "--nthreads", "1", "--no-nanny", "--memory-limit",
                                           str(self.memory_limit), "--name", f"w{i}", "--no-dashboard",
                                           "--local-directory", os.path.join(self.log_dir, f"w{i}")])

    def close(self) -> None:
        for p in self.workers + [self.scheduler]:
            if p.poll() is None:
                p.terminate()
        for p in self.workers + [self.scheduler]:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()


def _run_compute(args: list, env: dict, kill_after: float | None = None, cluster=None) -> dict:
    """Run the compute step in its own process (its progress bar on this
    terminal); with kill_after, SIGKILL the first cluster worker that many
    seconds in and start a replacement."""
    proc = subprocess.Popen([sys.executable, HERE] + args, env=env)
    killed = None
    if kill_after is not None:
        try:
            proc.wait(kill_after)
        except subprocess.TimeoutExpired:
            victim = cluster.workers[0]
            busy = _worker_state(cluster.address, "w0")  # the first worker's --name
            os.kill(victim.pid, signal.SIGKILL)
            killed = {"pid": victim.pid, "after_s": kill_after, **busy}
            print(f"\n*** SIGKILL sent to worker process {victim.pid} after {kill_after:.0f} s "
                  f"(the scheduler's view of it: {busy}); a replacement worker starts", flush=True)
            cluster.workers.append(cluster.start_worker(len(cluster.workers)))
    if proc.wait() != 0:
        raise SystemExit(f"step {args[0]} failed (exit {proc.returncode})")
    out = args[args.index("--out") + 1]
    with open(out + ".json") as f:
        r = json.load(f)
    r["killed"] = killed
    r["npz"] = out
    return r


def _worker_state(address: str, name: str) -> dict:
    """What the scheduler has on the worker called `name`: tasks assigned to it
    and results it holds (both are lost with it)."""
    try:
        from dask.distributed import Client
        with Client(address, timeout=10) as c:
            workers = c.scheduler_info()["workers"]
            addr = next(w for w, i in workers.items() if i.get("name") == name)
            return {"address": addr, "processing": len(c.processing().get(addr, ())),
                    "in_memory": len(c.has_what().get(addr, ()))}
    except Exception as e:  # the report only: the kill happens regardless
        return {"state_error": repr(e)}


def _step(args: list) -> dict:
    proc = subprocess.run([sys.executable, HERE] + args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"step {args[0]} failed:\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---- 3. report and plot ----------------------------------------------------------------------------

def _stage_times(r: dict) -> dict:
    """Seconds per operation (stage): from its first task's start to its last task's end."""
    spans = {}
    for t in r["tasks"]:
        s, e = spans.get(t["name"], (t["start"], t["end"]))
        spans[t["name"]] = (min(s, t["start"]), max(e, t["end"]))
    return {name: e - s for name, (s, e) in spans.items()}


def plot(results: dict, path: str, label: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    runs = list(results.items())
    fig, (ax_mem, ax_time) = plt.subplots(2, 1, figsize=(11, 8.5))
    markers = "o^sDv"
    for i, ((backend, ex, tag), r) in enumerate(runs):
        t0 = min(t["start"] for t in r["tasks"])
        ax_mem.scatter([t["end"] - t0 for t in r["tasks"]], [(t["mem_end"] or 0) / 1e6 for t in r["tasks"]],
                       s=9, marker=markers[i % len(markers)], alpha=0.6,
                       label=f"{backend} / {ex}{' / ' + tag if tag else ''} (peak {r['peak_task_mem'] / 1e6:.0f} MB)")
    allowed = runs[0][1]["allowed_mem"] / 1e6
    ax_mem.axhline(allowed, color="red", linestyle="--", label=f"allowed_mem {allowed:.0f} MB")
    ax_mem.set_xlabel("seconds into the computation (task end)")
    ax_mem.set_ylabel("peak memory of the task's worker (MB)")
    ax_mem.set_ylim(0, allowed * 1.1)
    ax_mem.legend(fontsize=8, loc="lower right")
    ax_mem.set_title("Memory per task against allowed_mem (Cubed's measure: the worker's peak RSS)")
    names = []
    for _, r in runs:
        for name in sorted(_stage_times(r), key=lambda n: int(n.split("-")[-1]) if n[-1].isdigit() else -1):
            if name not in names:
                names.append(name)
    width = 0.8 / len(runs)
    for i, ((backend, ex, tag), r) in enumerate(runs):
        st = _stage_times(r)
        ax_time.bar([j + i * width for j in range(len(names))], [st.get(n, 0.0) for n in names], width,
                    label=f"{backend} / {ex}{' / ' + tag if tag else ''} ({r['seconds']:.0f} s in all)")
    ax_time.set_xticks([j + 0.4 - width / 2 for j in range(len(names))])
    ax_time.set_xticklabels([f"{n}\n{(runs[0][1]['plan'].get(n) or {}).get('func_name') or ''}"[:28]
                             for n in names], rotation=60, fontsize=7, ha="right")
    ax_time.set_ylabel("seconds (first task start to last task end)")
    ax_time.set_title("Time per stage (Cubed's history: one stage per operation)")
    ax_time.legend(fontsize=8)
    import textwrap
    fig.suptitle("\n".join(textwrap.wrap(label, 120)), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"plot written to {path}")


def _compare(fa: str, fb: str, exact: bool) -> bool:
    import numpy as np
    A, B = np.load(fa), np.load(fb)
    if exact:
        return all(np.array_equal(A[k], B[k]) for k in B.files)
    return all(np.allclose(A[k], B[k], rtol=1e-9, atol=1e-9 * max(1.0, float(np.abs(B[k]).max())))
               for k in B.files)


# ---- the command line ------------------------------------------------------------------------------

def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                epilog=__doc__[__doc__.index("Steps"):],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gb", type=float, default=1.0,
                   help="size of the generated float64 array in GB (rows x 250 columns; default 1)")
    p.add_argument("--chunk-mb", type=float, default=100.0,
                   help="size of one Zarr chunk in MB (whole rows; default 100)")
    p.add_argument("--dir", default="/tmp/arrstride-cubed-scale",
                   help="directory for the data, Cubed's work_dir, results and worker logs "
                        "(default /tmp/arrstride-cubed-scale; needs about 1.3x the data's size)")
    p.add_argument("--allowed-mem", default="2GB",
                   help="Cubed's allowed_mem: the memory every task is planned to fit in (default 2GB)")
    p.add_argument("--worker-memory", default=None,
                   help="memory limit of each Dask worker (local and cluster executors; "
                        "default 1.5 x allowed_mem)")
    p.add_argument("--executors", default="processes,cluster",
                   help="comma-separated: processes (Cubed's processes executor), local (Dask "
                        "LocalCluster), cluster (dask scheduler + 2 dask worker OS processes); "
                        "default processes,cluster")
    p.add_argument("--backends", default="arrstride,numpy",
                   help="comma-separated backend modules for CUBED_BACKEND_ARRAY_API_MODULE "
                        "(default arrstride,numpy)")
    p.add_argument("--rechunk-cols", type=int, default=10,
                   help="columns rechunked into whole series for the rechunk computation (default 10)")
    p.add_argument("--kill-worker-after", type=float, default=None, metavar="SECONDS",
                   help="cluster executor: run arrstride once more and SIGKILL one worker SECONDS "
                        "into it (a replacement is started); its results must be identical to the "
                        "undisturbed run's")
    p.add_argument("--xarray", action="store_true",
                   help="instead of the array job: a daily climatology with xarray on Cubed "
                        "(groupby('time.month').mean() and the anomaly)")
    p.add_argument("--xarray-gb", type=float, default=1.0,
                   help="size of the xarray dataset in GB: whole years (at least one, 0.76 GB) of a daily "
                        "half-degree grid (default 1)")
    p.add_argument("--plot", default=None, metavar="PNG",
                   help="write a PNG: memory per task against allowed_mem, and time per stage")
    p.add_argument("--label", default="",
                   help="a line for the plot's title and the report (e.g. the machine's conditions)")
    p.add_argument("--progress", choices=["auto", "on", "off"], default="auto",
                   help="Cubed's progress bars (rich), one per operation: on a terminal by default")
    p.add_argument("--reuse-data", action="store_true",
                   help="keep an existing generated dataset in --dir of the same size instead of "
                        "writing it again")
    p.add_argument("--keep", action="store_true", help="keep --dir when done (deleted by default)")
    p.add_argument("--json", default=None, metavar="FILE",
                   help="write the report (times, peaks, agreement) as JSON")
    return p


def _compute_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cubed_scale.py compute")
    for name in ("--data", "--work-dir", "--allowed-mem", "--executor", "--out", "--kind"):
        p.add_argument(name, required=True)
    p.add_argument("--address", default=None)
    p.add_argument("--rechunk-cols", type=int, default=10)
    p.add_argument("--progress", action="store_true")
    return p


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["compute"]:
        import logging
        logging.getLogger("distributed").setLevel(logging.ERROR)
        compute(_compute_parser().parse_args(argv[1:]))
        return 0
    if argv[:1] in (["generate"], ["xgenerate"]):
        fn = generate if argv[0] == "generate" else xgenerate
        print(json.dumps(fn(argv[1], float(argv[2]), float(argv[3]))))
        return 0
    a = _parser().parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the cluster's processes too
    import cubed
    allowed = cubed.Spec(allowed_mem=a.allowed_mem).allowed_mem
    worker_mem = int(cubed.Spec(allowed_mem=a.worker_memory).allowed_mem) if a.worker_memory \
        else int(allowed * 1.5)
    progress = a.progress == "on" or (a.progress == "auto" and sys.stderr.isatty())
    os.makedirs(a.dir, exist_ok=True)
    kind = "xarray" if a.xarray else "array"
    data = os.path.join(a.dir, "tas.zarr" if a.xarray else "x.zarr")
    gb = a.xarray_gb if a.xarray else a.gb
    marker = os.path.join(a.dir, f"{kind}-generated.json")
    info = None
    if a.reuse_data and os.path.exists(marker):
        with open(marker) as f:
            info = json.load(f)
        if info.get("requested_gb") != gb or info.get("chunk_mb") != a.chunk_mb:
            info = None
    if info is None:
        t0 = time.perf_counter()
        info = _step(["xgenerate" if a.xarray else "generate", data, str(gb), str(a.chunk_mb)])
        info.update(requested_gb=gb, chunk_mb=a.chunk_mb, seconds=time.perf_counter() - t0)
        with open(marker, "w") as f:
            json.dump(info, f)
    print(f"data: {info['gb']:.1f} GB {tuple(info['shape'])} at {data} "
          f"(generated in {info['seconds']:.0f} s)", flush=True)
    if a.label:
        print(a.label)

    executors = [e for e in a.executors.split(",") if e]
    backends = [b for b in a.backends.split(",") if b]
    results = {}
    for ex in executors:
        runs = [(b, None) for b in backends]
        if a.kill_worker_after is not None and ex == "cluster" and "arrstride" in backends:
            runs.append(("arrstride", "killed"))
        for backend, tag in runs:
            env = dict(os.environ, CUBED_BACKEND_ARRAY_API_MODULE=backend)
            # one thread per worker process for both backends, as Dask's nanny sets
            # OpenMP/MKL/OpenBLAS (distributed.nanny.pre-spawn-environ; the cluster
            # here runs without nannies) and arrstride.cluster.CacheRelease sets arrstride
            env.update({k: env.get(k, "1") for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS",
                                                      "OPENBLAS_NUM_THREADS", "ARRSTRIDE_NUM_THREADS")})
            if backend == "arrstride" and ex == "processes" and "ARRSTRIDE_CACHE_BYTES" not in env:
                # no task-end hook in the processes executor: the cache limit for its
                # workers (inherited from this environment), as arrstride.cluster sizes it
                from arrstride.cluster import cache_limit_for
                env["ARRSTRIDE_CACHE_BYTES"] = str(cache_limit_for(allowed))
            name = f"{kind}-{backend}-{ex}" + (f"-{tag}" if tag else "")
            out = os.path.join(a.dir, f"result-{name}.npz")
            step = ["compute", "--kind", kind, "--data", data, "--work-dir", os.path.join(a.dir, f"work-{name}"),
                    "--allowed-mem", str(allowed), "--executor", ex,
                    "--out", out, "--rechunk-cols", str(a.rechunk_cols)] + (["--progress"] if progress else [])
            print(f"--- {kind} on {ex}, backend {backend}{' (' + tag + ')' if tag else ''}", flush=True)
            cluster = None
            try:
                if ex == "cluster":
                    cluster = LocalProcessCluster(env, 2, worker_mem, os.path.join(a.dir, f"logs-{name}"))
                    step += ["--address", cluster.address]
                r = _run_compute(step, env, a.kill_worker_after if tag == "killed" else None, cluster)
            finally:
                if cluster is not None:
                    cluster.close()
            results[(backend, ex, tag)] = r
            import shutil
            shutil.rmtree(os.path.join(a.dir, f"work-{name}"), ignore_errors=True)  # Cubed's intermediates
            print(f"{ex:10s} {backend:10s} {tag or '':7s} {r['seconds']:8.1f} s   peak task memory "
                  f"{r['peak_task_mem'] / 1e6:.0f} MB of allowed {r['allowed_mem'] / 1e6:.0f} MB   "
                  f"({len(r['tasks'])} tasks; results {', '.join(r['result_types'])})", flush=True)

    ok = True
    report = {"label": a.label, "kind": kind, "data": info, "runs": []}
    for (backend, ex, tag), r in results.items():
        within = r["peak_task_mem"] <= r["allowed_mem"]
        ok &= within
        report["runs"].append({"backend": backend, "executor": ex, "tag": tag, "seconds": r["seconds"],
                               "peak_task_mem_mb": r["peak_task_mem"] / 1e6,
                               "allowed_mem_mb": r["allowed_mem"] / 1e6, "within_allowed_mem": within,
                               "tasks": len(r["tasks"]), "killed": r["killed"]})
    report["comparisons"] = []
    for ex in executors:
        ra, rn = results.get(("arrstride", ex, None)), results.get(("numpy", ex, None))
        if ra and rn:
            agree = _compare(ra["npz"], rn["npz"], exact=False)
            ok &= agree
            ratio, mem = ra["seconds"] / rn["seconds"], ra["peak_task_mem"] / rn["peak_task_mem"]
            report["comparisons"].append({"executor": ex, "time_ratio": ratio, "peak_mem_ratio": mem,
                                          "results_agree": agree})
            print(f"{ex}: arrstride/numpy time ratio {ratio:.2f}, peak task memory ratio {mem:.2f}; "
                  f"results agree with NumPy's (rtol 1e-9): {agree}")
        rk = results.get(("arrstride", ex, "killed"))
        if ra and rk:
            same = _compare(rk["npz"], ra["npz"], exact=True)
            ok &= same and rk["killed"] is not None
            report["comparisons"].append({"executor": ex, "killed_worker_identical": same,
                                          "killed": rk["killed"], "time_ratio_killed": rk["seconds"] / ra["seconds"]})
            print(f"{ex}: a worker killed {'after ' + str(rk['killed']['after_s']) + ' s' if rk['killed'] else '(the job ended first: no kill)'}; "
                  f"results identical to the undisturbed run: {same}")
    for run in report["runs"]:
        print(f"{run['executor']}/{run['backend']}{'/' + run['tag'] if run['tag'] else ''}: peak task memory "
              f"within allowed_mem: {run['within_allowed_mem']}")
    if a.plot:
        plot(results, a.plot, a.label or f"{kind} job, {info['gb']:.1f} GB, allowed_mem {allowed / 1e6:.0f} MB")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)
    if not a.keep:
        import shutil
        shutil.rmtree(a.dir, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
