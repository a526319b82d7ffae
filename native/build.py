"""cffi build script for arrstride._native (out-of-line API mode).

The cdef is the public header itself; every C source in native/src is compiled
in. Paths come from this file's location, never from the working directory.

ARRSTRIDE_EXTRA_CFLAGS and ARRSTRIDE_EXTRA_LDFLAGS (shell words) come last on
the compile and link lines, after Python's own CFLAGS and the flags here, so
they win: .ci/sanitize builds with `-O1 -fsanitize=address,undefined ...
-fno-wrapv` this way (Python's CFLAGS carry -fwrapv, which would hide signed
overflow from UBSan).
"""
import os
import shlex
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
INCLUDE = HERE / "include"
# src/levels/: the elementwise sources again, once per SIMD level above the
# baseline (setup.py adds the level's -march; see src/platform.h).
SOURCES = sorted(str(p.relative_to(HERE.parent)) for p in (HERE / "src").glob("*.c")) + sorted(
    str(p.relative_to(HERE.parent)) for p in (HERE / "src" / "levels").glob("*.c"))

ffibuilder = FFI()
ffibuilder.cdef((INCLUDE / "arrstride.h").read_text())
# Python functions C calls back (extern "Python"): cdef-only, not C.
ffibuilder.cdef((INCLUDE / "arrstride_python.cdef").read_text())
ffibuilder.set_source(
    "arrstride._native",
    '#include "arrstride.h"',
    sources=SOURCES,
    include_dirs=[str(INCLUDE), str(HERE / "src")],
    # headers too, so that editing one rebuilds the sources
    depends=sorted(str(p) for p in (HERE / "src").glob("*.h")) + [str(INCLUDE / "arrstride.h")],
    # -ffp-contract=off: no multiply-add fused behind the source's back (Clang
    # fuses by default where the target has FMA), so that a loop gives the
    # same bits at every SIMD level, with every compiler, on every CPU.
    # -fno-trapping-math: GCC may then compute both sides of a select (the
    # math functions of vmath.h are written with selects, not branches) and
    # vectorize; no source reads the floating-point exception flags.
    extra_compile_args=["-O3", "-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-fno-math-errno",
                        "-ffp-contract=off", "-fno-trapping-math", "-fno-strict-aliasing", "-pthread"]
    + shlex.split(os.environ.get("ARRSTRIDE_EXTRA_CFLAGS", "")),
    extra_link_args=["-pthread", "-lm"] + shlex.split(os.environ.get("ARRSTRIDE_EXTRA_LDFLAGS", "")),
)
