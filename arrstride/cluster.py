"""arrstride in the workers of a distributed array engine (Cubed on dask.distributed).

arrstride keeps freed large blocks for reuse: the block cache of
native/src/memory.c, up to ``get_cache_limit()`` bytes per process (192 MiB
unless ``ARRSTRIDE_CACHE_BYTES`` or ``set_cache_limit`` says otherwise). In a
worker that runs Cubed's tasks those parked blocks are memory Cubed's planner
does not count: it plans every task to fit in ``allowed_mem``, and a worker
still holding the last task's temporaries runs the next task on top of them
(a 40 GB job measured 774 MB of peak task memory against NumPy's 569 MB).

Two ways to keep the cache inside the plan:

- on dask.distributed, register :class:`CacheRelease` once from the client::

      from arrstride.cluster import CacheRelease
      client.register_plugin(CacheRelease())

  Every worker, including one started later to replace a lost one, then frees
  the cache when each task ends. A task still reuses its own temporaries
  (Cubed fuses several chunks into one task), so the speed the cache buys is
  kept; nothing survives from one task into the next.
- on an executor without a hook for the end of a task (Cubed's ``processes``
  executor), set ``ARRSTRIDE_CACHE_BYTES`` in the workers' environment to
  :func:`cache_limit_for` of the spec's ``allowed_mem``.

Importing this module imports dask.distributed (not a dependency of
arrstride: ``pip install arrstride[scale]``).
"""
from __future__ import annotations

from distributed.diagnostics.plugin import WorkerPlugin

from ._kernels import cache_bytes, get_cache_limit, release_cache

__all__ = ["CacheRelease", "cache_limit_for"]


class CacheRelease(WorkerPlugin):
    """A dask.distributed worker plugin: free arrstride's block cache whenever a
    task leaves the ``executing`` state (finished, failed or rescheduled).

    ``released`` counts the releases that found parked blocks and ``freed``
    their bytes, per worker (``client.run(lambda dask_worker:
    dask_worker.plugins["arrstride-cache-release"].freed)``)."""

    name = "arrstride-cache-release"
    idempotent = True  # registering it twice keeps the first

    def __init__(self) -> None:
        self.released = 0
        self.freed = 0

    def setup(self, worker) -> None:
        self.released = 0
        self.freed = 0

    def transition(self, key, start, finish, **kwargs) -> None:
        if start == "executing":
            parked = cache_bytes()
            if parked:
                release_cache()
                self.released += 1
                self.freed += parked


def cache_limit_for(allowed_mem: int) -> int:
    """A block-cache limit for a worker process that runs tasks planned to
    ``allowed_mem`` bytes each, with no hook for the end of a task: 2% of
    ``allowed_mem`` (and never above the current limit). Blocks larger than it
    are freed at once, as NumPy frees them, so the cache keeps only small
    temporaries and the peak of a task stays within a few percent of
    NumPy's."""
    if isinstance(allowed_mem, bool) or not isinstance(allowed_mem, int) or allowed_mem < 0:
        raise ValueError(f"cache_limit_for: expected allowed_mem as an int number of bytes >= 0; "
                         f"got {allowed_mem!r}")
    return min(get_cache_limit(), allowed_mem // 50)
