"""Builds arrstride._native with cffi (native/build.py).

The extension's C sources are compiled in parallel, one job per core (or
`[build_ext] parallel` in setup.cfg / `build_ext -j N`): setuptools only
parallelizes across extensions, and this is one extension whose two largest
sources take most of the build.
"""
import os
import shlex
from concurrent.futures import ThreadPoolExecutor

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


# Seconds to compile (gcc 12 -O3, one core, 2026-11-25): the sources that
# stamp a loop per op and dtype cost far more than their size says. The rest
# are ordered by size after these.
_COMPILE_SECONDS = {"reduce.c": 29, "ew_binary_int.c": 21, "ew_unary.c": 13, "sort.c": 6,
                    "ew_binary_float.c": 6}


def _cost(src):
    return _COMPILE_SECONDS.get(os.path.basename(src), 0) * 1e9 + os.path.getsize(src)


def _parallel_compile(compiler, jobs):
    """compiler.compile, with the sources compiled by `jobs` threads, largest first."""

    def compile(sources, output_dir=None, macros=None, include_dirs=None, debug=0,
                extra_preargs=None, extra_postargs=None, depends=None):
        macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj):
            src, ext = build[obj]
            compiler._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        # Start the costly sources first so that they do not end the build alone.
        order = sorted(build, key=lambda obj: -_cost(build[obj][0]))
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for _ in pool.map(one, order):
                pass
        return objects

    return compile


class ParallelBuildExt(build_ext):
    def build_extension(self, ext):
        jobs = self.parallel if isinstance(self.parallel, int) and self.parallel > 0 else os.cpu_count() or 1
        if jobs > 1:
            self.compiler.compile = _parallel_compile(self.compiler, jobs)
        super().build_extension(ext)


# arrstride._core: the C base of Array and the per-call fast paths (CPython's C
# API; the kernels stay in _native), one source per concern (see native/core/core.h).
# Extra flags as for _native (native/build.py).
_core = Extension(
    "arrstride._core",
    [f"native/core/{name}.c" for name in
     ("state", "module", "type", "view", "scalar", "alloc", "calls", "index", "engine", "ewise", "operators",
      "buffer", "rows", "exchange", "seq")],
    include_dirs=["native/include", "native/src"],
    depends=["native/core/core.h", "native/include/arrstride.h", "native/src/ars_internal.h"],
    extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra", "-Wno-missing-field-initializers",
                        "-Wno-cast-function-type", "-fno-strict-aliasing"]
    + shlex.split(os.environ.get("ARRSTRIDE_EXTRA_CFLAGS", "")),
    extra_link_args=shlex.split(os.environ.get("ARRSTRIDE_EXTRA_LDFLAGS", "")),
)

setup(cffi_modules=["native/build.py:ffibuilder"], ext_modules=[_core],
      cmdclass={"build_ext": ParallelBuildExt})
