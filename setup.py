"""Builds arrstride._native with cffi (native/build.py).

The extension's C sources are compiled in parallel, one job per core (or
`[build_ext] parallel` in setup.cfg / `build_ext -j N`): setuptools only
parallelizes across extensions, and this is one extension whose two largest
sources take most of the build.

Each object is also kept in build/objcache/, under a hash of everything that
goes into it (the source, every header of native/, the compiler and its
flags, the Python it is built for): a later build of the same tree, such as
`pip install -e '.[test]'` after `pip install -e .`, links those objects
instead of compiling again (ARRSTRIDE_NO_OBJCACHE=1 turns this off).
"""
import glob
import hashlib
import os
import re
import shlex
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


# Seconds to compile (gcc 12 -O3, one core, 2026-11-25): the sources that
# stamp a loop per op and dtype cost far more than their size says. The rest
# are ordered by size after these.
_COMPILE_SECONDS = {"reduce.c": 29, "ew_binary_int.c": 21, "ew_unary.c": 13, "sort.c": 6,
                    "ew_binary_float.c": 6}


# The SIMD level of a source of native/src/levels/ (by its name's ending) and
# the flags it is compiled with on x86-64 (native/src/platform.h). Elsewhere
# those sources compile to nothing and get no flags. Every level must give
# the baseline's bits, so nothing is fused but vmath.h's explicit vm_fma:
# -ffp-contract=off, and with GCC no basic-block vectorizer, since GCC 12's
# fuses the products and sums of a complex multiplication into vfmaddsub
# despite -ffp-contract=off (the loop vectorizer stays).
_LEVEL_FLAGS = {"_avx2.c": ["-march=x86-64-v3"], "_avx512.c": ["-march=x86-64-v4"]}
_LEVEL_FLAGS_GCC = {"_avx2.c": ["-fno-tree-slp-vectorize"], "_avx512.c": ["-fno-tree-slp-vectorize"]}


def _cost(src):
    name = os.path.basename(src)
    for end in _LEVEL_FLAGS:  # a level's copy of a source costs about as much
        if name.endswith(end):
            name = name[:-len(end)] + ".c"
    return _COMPILE_SECONDS.get(name, 0) * 1e9 + os.path.getsize(src)


_HERE = os.path.dirname(os.path.abspath(__file__))
_OBJCACHE = os.path.join(_HERE, "build", "objcache")


def _headers_digest():
    h = hashlib.sha256()
    for path in sorted(glob.glob(os.path.join(_HERE, "native", "**", "*.h"), recursive=True)):
        h.update(path.encode())
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def _object_key(compiler, src, cc_args, extra_postargs, pp_opts, headers):
    """A hash of everything that makes the object of src."""
    h = hashlib.sha256()
    for part in (sys.version, sys.platform, headers, repr(getattr(compiler, "compiler_so", None)),
                 repr(cc_args), repr(extra_postargs), repr(pp_opts)):
        h.update(part.encode())
    with open(src, "rb") as f:
        text = f.read()
    h.update(text)
    # a source that includes another (native/src/levels/): that one's text too
    for m in re.finditer(rb'^#include "([^"]+\.c)"', text, re.M):
        with open(os.path.join(os.path.dirname(src), m.group(1).decode()), "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def _compiler_kind(compiler):
    """(whether the C compiler builds for x86-64 (not, say, a cross compiler),
    whether it is Clang)."""
    import subprocess
    cc = getattr(compiler, "compiler_so", None) or ["cc"]
    try:
        machine = subprocess.run([cc[0], "-dumpmachine"], capture_output=True, text=True,
                                 check=True).stdout
        version = subprocess.run([cc[0], "--version"], capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return False, False
    return machine.startswith(("x86_64", "amd64")), "clang" in version.lower()


def _level_flags(src, kind):
    x86_64, clang = kind
    if not x86_64 or os.path.basename(os.path.dirname(os.path.abspath(src))) != "levels":
        return []
    for end, flags in _LEVEL_FLAGS.items():
        if src.endswith(end):
            return flags + ([] if clang else _LEVEL_FLAGS_GCC[end])
    return []


def _parallel_compile(compiler, jobs):
    """compiler.compile, with the sources compiled by `jobs` threads, largest
    first, and each object taken from build/objcache/ when it is there."""
    cache = os.environ.get("ARRSTRIDE_NO_OBJCACHE", "") in ("", "0")

    def compile(sources, output_dir=None, macros=None, include_dirs=None, debug=0,
                extra_preargs=None, extra_postargs=None, depends=None):
        macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
        headers = _headers_digest() if cache else ""
        kind = _compiler_kind(compiler)

        def one(obj):
            src, ext = build[obj]
            postargs = list(extra_postargs or []) + _level_flags(src, kind)
            if not cache:
                compiler._compile(obj, src, ext, cc_args, postargs, pp_opts)
                return
            kept = os.path.join(_OBJCACHE, _object_key(compiler, src, cc_args, postargs,
                                                       pp_opts, headers) + ".o")
            if os.path.exists(kept):
                os.makedirs(os.path.dirname(obj) or ".", exist_ok=True)
                shutil.copyfile(kept, obj)
                return
            compiler._compile(obj, src, ext, cc_args, postargs, pp_opts)
            os.makedirs(_OBJCACHE, exist_ok=True)
            tmp = f"{kept}.{os.getpid()}.tmp"
            shutil.copyfile(obj, tmp)
            os.replace(tmp, kept)  # whole or absent, for builds running side by side

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
