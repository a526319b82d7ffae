"""arrstride's pool under threadpoolctl.

threadpoolctl finds thread pools by walking the shared libraries loaded in
the process and matching each file name against the prefixes of its
controller classes; third-party pools join through its documented
`threadpoolctl.register(controller_class)` (threadpoolctl >= 3.5). There is
no entry point, so arrstride registers its controller itself, without
importing threadpoolctl (about 8 ms) when nobody uses it:

- at `import arrstride`, when threadpoolctl is already imported
  (scikit-learn imports it with `import sklearn`);
- otherwise a one-shot finder on `sys.meta_path` registers it right after
  threadpoolctl is first imported, and removes itself.

The controller matches arrstride's C library (`_native.*.so`), checked by its
symbols. `threadpool_info()` then lists user_api "arrstride" with the
version and the pool's thread count, and `threadpool_limits(n)` (all APIs or
user_api="arrstride") sets the pool's count and restores it after. OpenBLAS
keeps its own entry: threadpoolctl limits it as it limits any BLAS.
"""
from __future__ import annotations

import importlib.abc
import importlib.util
import sys

_registered = False


def _controller_class(threadpoolctl):
    class ArrstrideController(threadpoolctl.LibController):
        user_api = "arrstride"
        internal_api = "arrstride"
        filename_prefixes = ("_native",)
        check_symbols = ("ars_get_num_threads", "ars_set_num_threads", "ars_set_default_threads")

        def get_num_threads(self):
            return self.dynlib.ars_get_num_threads()

        def set_num_threads(self, num_threads):
            from . import _kernels
            _kernels.set_pool_threads(int(num_threads), "threadpoolctl")

        def get_version(self):
            from ._config import __version__
            return __version__

    return ArrstrideController


def register(threadpoolctl) -> None:
    """Register the controller with an imported threadpoolctl, once."""
    global _registered
    if _registered or not hasattr(threadpoolctl, "register"):
        return
    threadpoolctl.register(_controller_class(threadpoolctl))
    _registered = True


class _Loader(importlib.abc.Loader):
    """threadpoolctl's own loader, then the registration."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        register(module)


class _Finder(importlib.abc.MetaPathFinder):
    """Waits for the first import of threadpoolctl."""

    def find_spec(self, name, path, target=None):
        if name != "threadpoolctl":
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _Loader(spec.loader)
        return spec


def install() -> None:
    """Register now if threadpoolctl is imported, else when it is."""
    module = sys.modules.get("threadpoolctl")
    if module is not None:
        register(module)
    elif not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
