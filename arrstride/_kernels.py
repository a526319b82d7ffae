"""The one bridge to C: byte-stride descriptors and every kernel call (Storage
lives in _storage).

Python works in elements; byte strides exist only here and in C. Callers
pass validated arguments; a nonzero status from C is a bug or out-of-memory.
"""
from __future__ import annotations

import signal
import sys
import threading
from typing import Optional, Sequence

from . import _blas
from . import _cpus
from . import _dtypes as _dt
from . import _layout as L
from ._errors import alloc_error, overlap_error, too_large_error
from ._layout import Layout
from ._core import check_signals as _check_signals, copy_into as _core_copy_into
from ._native import ffi, lib
from ._storage import MAX_ALLOC, MAX_BYTES, MAX_ELEMENTS, Storage, new_storage  # noqa: F401  (re-exported)


def _check(rc: int, what: str) -> None:
    if rc == lib.ARS_ERR_NOMEM:
        raise MemoryError(f"arrstride: out of memory in {what}")
    if rc == lib.ARS_ERR_SIZE:
        raise ValueError(f"{what}: iterator is too large: an element count does not fit in int64")
    if rc == lib.ARS_ERR_NDIM:
        raise ValueError(f"arrstride: {what} supports at most {lib.ARS_MAX_DIMS} dimensions "
                         "of size > 1")
    if rc != 0:
        raise RuntimeError(f"arrstride: internal error {rc} in {what}")


# Work (elements sorted, multiply-adds) from which a call lets Ctrl-C stop it:
# about 10 ms and more. Shorter calls skip the few microseconds that costs.
INTERRUPTIBLE_WORK = 10**8
INTERRUPTIBLE_SORT = 1 << 20


def interruptible(call, *args):
    """call(*args), a kernel call that Ctrl-C may stop early.

    On the main thread (the one Python runs signal handlers on), while SIGINT
    has Python's own handler (the one that raises KeyboardInterrupt), the call
    runs armed (native/src/interrupt.c): a SIGINT makes the kernel return early
    with its output unspecified, and KeyboardInterrupt then reaches the caller,
    who never sees that output. A handler of the user's may not raise, and some
    kernels work in place (a LAPACK batch), so a stopped call could neither
    return nor run again: under any other handler, on other threads, or when
    SIGINT is ignored, the call simply runs to its end."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        return call(*args)
    lib.ars_interrupt_begin()
    try:
        rc = call(*args)
    finally:
        hit = lib.ars_interrupt_end()
    if hit:
        _check_signals()  # Python's handler: raises KeyboardInterrupt
        raise KeyboardInterrupt  # (the handler was replaced meanwhile: still no partial output)
    return rc


def _plain(call, *args):
    return call(*args)


def i64(values: Sequence[int]):
    try:
        return ffi.new("int64_t[]", list(values) or [0])
    except OverflowError:
        raise ValueError(f"arrstride: a size does not fit in int64; got {tuple(values)}") from None


def _fit_shape(shape: Sequence[int]) -> list:
    """A shape with a dim past int64 reaches C only when it is empty (larger
    arrays are refused first); 1 in place of the huge dim keeps it empty
    without C ever multiplying such sizes."""
    if all(d <= MAX_ELEMENTS for d in shape):
        return list(shape)
    if 0 not in shape:
        raise ValueError(f"arrstride: a size does not fit in int64; got {tuple(shape)}")
    return [d if d <= MAX_ELEMENTS else 1 for d in shape]


def shape64(shape: Sequence[int]):
    """int64_t[] of a shape for C (see _fit_shape for dims past int64)."""
    try:
        return ffi.new("int64_t[]", list(shape) or [0])
    except OverflowError:
        return ffi.new("int64_t[]", _fit_shape(shape) or [0])


def check_size(func: str, *arrays) -> None:
    """Refuse arrays a kernel cannot walk: more than 2**63 - 1 elements (a
    legal view, e.g. a broadcast of 2**64 elements, but no int64 counts it)."""
    for a in arrays:
        n = a._layout.size
        if n > MAX_ELEMENTS:
            raise too_large_error(func, a._layout.shape, n)


def byte_stride(s: int, itemsize: int) -> int:
    """s * itemsize, or 0 when that falls outside int64. Every reachable
    element lies inside a storage of fewer than 2**63 bytes, so only a dim
    no kernel steps along (size 1, as in x[::2**62], or in an empty array)
    can carry such a stride, and 0 serves it as well."""
    b = s * itemsize
    return b if -MAX_BYTES - 1 <= b <= MAX_BYTES else 0


def byte_strides(strides: Sequence[int], itemsize: int):
    try:
        return ffi.new("int64_t[]", [s * itemsize for s in strides] or [0])
    except OverflowError:  # rare: see byte_stride
        return ffi.new("int64_t[]", [byte_stride(s, itemsize) for s in strides] or [0])


def data_ptr(a) -> object:
    """char* to a's first element."""
    return a._storage.ptr + a._layout.offset * a._dtype.itemsize


def copy_into(dst, src, func: str = "copy") -> None:
    """dst[...] = src, src broadcasting to dst's shape, cast when the dtypes
    differ (as astype casts): the engine's one write path (_core.copy_into),
    which copies src first when it overlaps dst without being it. A dst that
    reaches one element twice (a stride 0 over a size > 1, overlapping
    windows) is refused with a ValueError naming func."""
    if _core_copy_into(dst, src, False):
        return
    # declined: dst's dims do not simply nest (decided here exactly), or more
    # dims than C takes
    lay = dst._layout
    if L.has_internal_overlap(lay):
        raise overlap_error(func, lay.shape, lay.strides)
    if len(lay.shape) > lib.ARS_MAX_DIMS:  # size-1 dims carry nothing: drop them for C
        slay = src._layout
        keep = [k for k, d in enumerate(lay.shape) if d != 1]
        dst = dst._with_layout(Layout(tuple(lay.shape[k] for k in keep),
                                      tuple(lay.strides[k] for k in keep), lay.offset))
        src = src._with_layout(Layout(tuple(slay.shape[k] for k in keep),
                                      tuple(slay.strides[k] for k in keep), slay.offset))
        if len(keep) > lib.ARS_MAX_DIMS:
            _check(lib.ARS_ERR_NDIM, "copy")
    _core_copy_into(dst, src, True)


def write_element(a, offset: int, value: bytes) -> None:
    """The packed element `value` at element `offset` of a's storage."""
    ffi.memmove(a._storage.ptr + offset * a._dtype.itemsize, value, len(value))


def fill(dst, value: bytes) -> None:
    """Every element of dst set to the packed element `value`."""
    lay = dst._layout
    if lay.size == 0:
        return
    isz = dst._dtype.itemsize
    if lay.size == 1 or lay.ndim == 0:
        ffi.memmove(data_ptr(dst), value, isz)
        return
    if lay.ndim == 1 and lay.size <= 16:  # a few elements: cheaper than building a C call
        p, step = data_ptr(dst), lay.strides[0] * isz
        for i in range(lay.size):
            ffi.memmove(p + i * step, value, isz)
        return
    buf = ffi.new("char[]", value)
    dims, strides = lay.shape, lay.strides
    if len(dims) > lib.ARS_MAX_DIMS:  # size-1 dims carry nothing: drop them for C
        dims, strides = zip(*[(d, s) for d, s in zip(dims, strides) if d != 1])
    rc = lib.ars_fill(len(dims), shape64(dims), data_ptr(dst), byte_strides(strides, isz), isz, buf)
    _check(rc, "fill")


def read_bytes(a, nbytes: int) -> bytes:
    return ffi.buffer(data_ptr(a), nbytes)[:]


def _element_ctype(d) -> str:
    """The C type cffi reads one element of d through (a complex: its real part
    type, read twice): from the dtype table's kind and size."""
    if d.kind == "b":
        return "uint8_t *"
    if d.kind in "iu":
        return f"{'u' if d.kind == 'u' else ''}int{d.bits}_t *"
    return {4: "float *", 8: "double *"}[d.itemsize if d.kind == "f" else d.itemsize // 2]


# dtype code -> the C type of one element, for reading it through a typed pointer
# (narrow floats have none in cffi: item() widens them in C)
_ELEMENT_PTR = {d.code: _element_ctype(d) for d in _dt.ALL if d.compute is d}


def item(a):
    """a's first element as a Python scalar."""
    d = a._dtype
    if d.compute is not d:  # a narrow float: cffi has no such type; C widens it
        out = ffi.new("double *")
        lib.ars_cast(0, ffi.NULL, ffi.cast("char *", out), ffi.NULL, lib.ARS_FLOAT64,
                     ffi.cast("char *", data_ptr(a)), ffi.NULL, d.code)
        return out[0]
    p = ffi.cast(_ELEMENT_PTR[d.code], data_ptr(a))
    if d.kind == "c":
        return complex(p[0], p[1])
    return bool(p[0]) if d.kind == "b" else p[0]


def bytes_view(a, nbytes: int):
    """A buffer over the first nbytes of a's data (contiguous), without a
    copy, that keeps a alive: cffi's buffer holds the pointer, and the
    pointer's no-op destructor holds a."""
    keep = ffi.gc(ffi.cast("char *", data_ptr(a)), lambda _p, _a=a: None)
    return ffi.buffer(keep, nbytes)


def write_bytes(a, data: bytes) -> None:
    ffi.memmove(data_ptr(a), data, len(data))


# ---- creation ---------------------------------------------------------------------

def arange(out, start: float, step: float, istart: int, istep: int) -> None:
    _check(lib.ars_arange(data_ptr(out), out._layout.size, out._dtype.code,
                          start, step, istart, istep), "arange")


def linspace(out, start: complex, stop: complex, endpoint: bool) -> None:
    _check(lib.ars_linspace(data_ptr(out), out._layout.size, out._dtype.code,
                            start.real, start.imag, stop.real, stop.imag, int(endpoint)), "linspace")


def tri_zero(out, k: int, lower: bool) -> None:
    lay = out._layout
    _check(lib.ars_tri_zero(lay.ndim, shape64(lay.shape), data_ptr(out),
                            byte_strides(lay.strides, out._dtype.itemsize),
                            out._dtype.itemsize, k, int(lower)), "tril/triu")


# ---- indexing ----------------------------------------------------------------------

def count_true(mask) -> int:
    check_size("nonzero", mask)
    lay = mask._layout
    count = ffi.new("int64_t *")
    _check(lib.ars_count_true(lay.ndim, shape64(lay.shape), data_ptr(mask),
                              byte_strides(lay.strides, 1), count), "count")
    return count[0]


def nonzero_bool(mask, out, count: int) -> None:
    """out: a contiguous int64 array of shape (ndim, count)."""
    lay = mask._layout
    _check(lib.ars_nonzero_bool(lay.ndim, shape64(lay.shape), data_ptr(mask),
                                byte_strides(lay.strides, 1),
                                ffi.cast("int64_t *", data_ptr(out)), count), "nonzero")


def index_accumulate(offsets, idx, dim_size: int, dim_stride: int) -> Optional[int]:
    """offsets += wrapped(idx) * dim_stride; returns the first index out of
    range, or None. offsets: contiguous int64; idx: int64, same shape."""
    if dim_size > MAX_ELEMENTS:
        # a dim past int64 belongs to an empty view (larger ones are refused
        # first): every int64 index is in range, and no offset is ever used
        return None
    lay = idx._layout
    bad = ffi.new("int64_t *")
    rc = lib.ars_index_accumulate(lay.ndim, shape64(lay.shape), ffi.cast("int64_t *", data_ptr(offsets)),
                                  data_ptr(idx), byte_strides(lay.strides, 8),
                                  dim_size, byte_stride(dim_stride, 1), bad)
    if rc == lib.ARS_ERR_ARG:
        return bad[0]
    _check(rc, "index")
    return None


def gather(offsets, src_base, dst_base, b_stride: int, rest: Layout, rest_dst: Layout, itemsize: int) -> None:
    """For each b: dst[b, rest...] = src[offsets[b] + rest...]; strides in elements."""
    nb = offsets._layout.size
    if nb == 0:
        return
    _check(lib.ars_gather(nb, ffi.cast("int64_t *", data_ptr(offsets)), src_base, dst_base,
                          byte_stride(b_stride, itemsize), rest.ndim, shape64(rest.shape),
                          byte_strides(rest.strides, itemsize),
                          byte_strides(rest_dst.strides, itemsize), itemsize), "gather")


def scatter(offsets, dst_base, src_base, b_stride: int, rest: Layout, rest_src: Layout, itemsize: int) -> None:
    nb = offsets._layout.size
    if nb == 0:
        return
    _check(lib.ars_scatter(nb, ffi.cast("int64_t *", data_ptr(offsets)), dst_base, src_base,
                           byte_stride(b_stride, itemsize), rest.ndim, shape64(rest.shape),
                           byte_strides(rest.strides, itemsize),
                           byte_strides(rest_src.strides, itemsize), itemsize), "scatter")


# ---- the iterator, for tests and show() ----------------------------------------------

def iter_describe(shape: Sequence[int], strides_per_op: Sequence[Sequence[int]]):
    """The prepared iteration (innermost first) for operands with the given
    strides (any unit): (shape, strides per op, base offset per op), or None if empty."""
    nop = len(strides_per_op)
    ndim = len(shape)
    flat = [s for st in strides_per_op for s in st]
    out_ndim = ffi.new("int *")
    out_shape = ffi.new("int64_t[]", max(ndim, 1))
    out_strides = ffi.new("int64_t[]", max(ndim * nop, 1))
    out_offsets = ffi.new("int64_t[]", nop)
    _check(lib.ars_iter_describe(ndim, shape64(shape), nop, byte_strides(flat, 1), out_ndim, out_shape,
                                 out_strides, out_offsets), "iter_describe")
    n = out_ndim[0]
    if n < 0:
        return None
    return (tuple(out_shape[0:n]),
            tuple(tuple(out_strides[op * n:(op + 1) * n]) for op in range(nop)),
            tuple(out_offsets[0:nop]))


# The default thread count (set_num_threads(0)): the CPUs the process may run
# on, from its affinity mask and cgroup CPU quota; threads_source says where
# the count in effect comes from (show_config prints it).
_default_count, _default_source = _cpus.default_threads()
lib.ars_set_default_threads(_default_count)
threads_source = _default_source


# The SIMD level the C kernels run at (native/src/platform.h), fixed at import:
# the CPU's best, or the lower one ARRSTRIDE_CPU asks for; a request above
# the CPU's best gets the best (show_config says so). cpu_level holds the
# names of (active, highest compiled, the CPU's highest) and ARRSTRIDE_CPU's
# request (None when unset or "native", "?" for a value naming no level).
CPU_LEVELS = ("baseline", "avx2", "avx512")


def _cpu_level():
    compiled, cpu, requested = ffi.new("int *"), ffi.new("int *"), ffi.new("int *")
    active = lib.ars_cpu_info(compiled, cpu, requested)
    req = {-1: None, -2: "?"}.get(requested[0]) or CPU_LEVELS[requested[0]]
    return CPU_LEVELS[active], CPU_LEVELS[compiled[0]], CPU_LEVELS[cpu[0]], req


cpu_level = _cpu_level()
if cpu_level[3] == "?":
    import os as _os
    import warnings as _warnings
    from ._errors import cpu_env_message as _cpu_env_message
    _warnings.warn(_cpu_env_message(_os.environ.get("ARRSTRIDE_CPU", ""), CPU_LEVELS), RuntimeWarning,
                   stacklevel=2)


def set_num_threads(n: int) -> None:
    """Set the number of threads large kernels and OpenBLAS use.

    Not in the standard. The default is one per CPU the process may use: the
    CPUs of its affinity mask (``taskset``), at most its cgroup CPU quota
    rounded up (a container's ``--cpus``); the environment variable
    ARRSTRIDE_NUM_THREADS sets another count at import.

    Parameters
    ----------
    n : int
        Thread count from 1 to 256, or 0 for one per core.

    Raises
    ------
    ValueError
        If n is outside [0, 256].

    See Also
    --------
    get_num_threads

    Examples
    --------
    >>> import arrstride as xp
    >>> n = xp.get_num_threads()
    >>> xp.set_num_threads(1)
    >>> xp.get_num_threads()
    1
    >>> xp.set_num_threads(n)
    """
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 256:
        raise ValueError(f"set_num_threads: expected an int in [0, 256]; got {n!r}")
    global threads_source
    _check(lib.ars_set_num_threads(n), "set_num_threads")
    threads_source = f"set_num_threads({n})" if n else _default_source
    _blas.set_threads(lib.ars_get_num_threads())


def set_pool_threads(n: int, source: str) -> None:
    """Set the count of arrstride's own pool only (OpenBLAS untouched), for
    `source` (threadpoolctl, which governs OpenBLAS through its own entry)."""
    global threads_source
    _check(lib.ars_set_num_threads(n), "set_num_threads")
    threads_source = f"{source} ({n})"


def get_num_threads() -> int:
    """Number of threads large kernels and OpenBLAS use.

    Not in the standard.

    Returns
    -------
    int
        The thread count (see set_num_threads).

    See Also
    --------
    set_num_threads, show_config

    Examples
    --------
    >>> import arrstride as xp
    >>> xp.get_num_threads() >= 1
    True
    """
    return lib.ars_get_num_threads()


# ---- the cache of freed large blocks (native/src/memory.c) -----------------------

def set_cache_limit(nbytes: int) -> None:
    """Set how many bytes of freed large blocks are kept for reuse.

    Not in the standard. Blocks of 1 MiB and more, once freed, are parked for
    the next allocation of their size; blocks parked beyond the new limit are
    freed at once. The default comes from ARRSTRIDE_CACHE_BYTES when set.

    Parameters
    ----------
    nbytes : int
        Limit in bytes, at least 0; 0 turns the cache off.

    Raises
    ------
    ValueError
        If nbytes is negative.

    See Also
    --------
    get_cache_limit

    Examples
    --------
    >>> import arrstride as xp
    >>> old = xp.get_cache_limit()
    >>> xp.set_cache_limit(64 << 20)
    >>> xp.get_cache_limit()
    67108864
    >>> xp.set_cache_limit(old)
    """
    if isinstance(nbytes, bool) or not isinstance(nbytes, int):
        raise TypeError(f"set_cache_limit: expected an int number of bytes; got {type(nbytes).__name__}")
    if nbytes < 0:
        raise ValueError(f"set_cache_limit: expected nbytes >= 0; got {nbytes}")
    lib.ars_cache_set_limit(min(nbytes, MAX_BYTES))


def get_cache_limit() -> int:
    """Bytes of freed large blocks kept for reuse.

    Not in the standard.

    Returns
    -------
    int
        The cache limit in bytes (see set_cache_limit).

    See Also
    --------
    set_cache_limit

    Examples
    --------
    >>> import arrstride as xp
    >>> limit = xp.get_cache_limit()
    >>> limit >= 0
    True
    """
    return lib.ars_cache_limit()


def release_cache() -> None:
    """Free every parked block now (the cache also frees a block unused for a second).

    Examples
    --------
    >>> import arrstride as xp
    >>> x = xp.zeros(1 << 20)
    >>> del x
    >>> xp.release_cache()
    >>> xp.get_cache_limit() > 0  # the limit stays: only the parked blocks go
    True
    """
    lib.ars_cache_clear()


def cache_bytes() -> int:
    """Bytes of blocks parked in the cache now (arrstride.cluster reads it)."""
    return lib.ars_cache_bytes()


# ---- discrete Fourier transforms ----------------------------------------------------

FFT_C2C = lib.ARS_FFT_C2C
FFT_R2C = lib.ARS_FFT_R2C
FFT_C2R = lib.ARS_FFT_C2R


def fft_lines(kind: int, dst, src, axis: int, n: int, sign: int, scale: float) -> None:
    """Length-n transforms along `axis` from src into dst (a different
    storage); the other dims of src and dst agree. The complex side's dtype
    names the precision; a real src of C2C or C2R is read as complex, and a
    float16 or bfloat16 src as float32."""
    slay, dlay = src._layout, dst._layout
    cplx = dst._dtype if kind != FFT_C2R else _dt.complex_of(dst._dtype)
    _check(lib.ars_fft(kind, cplx.code, src._dtype.code, dlay.ndim, shape64(dlay.shape), axis,
                       data_ptr(src), byte_strides(slay.strides, src._dtype.itemsize), slay.shape[axis],
                       data_ptr(dst), byte_strides(dlay.strides, dst._dtype.itemsize), dlay.shape[axis],
                       n, sign, scale), "fft")


def fftfreq(out, n: int, d: float, rfft: bool) -> None:
    """out: a contiguous float array of n (n//2+1 for rfft) elements."""
    _check(lib.ars_fftfreq(data_ptr(out), n, out._dtype.code, d, int(rfft)), "fftfreq")


def fft_cache_clear() -> None:
    lib.ars_fft_cache_clear()

# ---- elementwise --------------------------------------------------------------------
# The kernel calls themselves are the engine's (_core.ewise, native/core/engine.c):
# broadcasting, the output's order, overlap, flat or N-D. Here: the tables.

def check_status(rc: int) -> None:
    """Raise for a kernel status (what _core calls after a kernel call fails)."""
    _check(rc, "elementwise")


def unary_out(op: int, code: int) -> int:
    return lib.ars_unary_out(op, code)


def binary_out(op: int, code: int) -> int:
    return lib.ars_binary_out(op, code)


def op_code(name: str) -> int:
    """The C code of an elementwise operation, e.g. op_code("ADD")."""
    return getattr(lib, "ARS_OP_" + name)


def _threads_from_env() -> None:
    import os
    value = os.environ.get("ARRSTRIDE_NUM_THREADS")
    if value:
        global threads_source
        try:
            set_num_threads(int(value))
        except ValueError:
            raise ValueError(f"ARRSTRIDE_NUM_THREADS must be an int in [0, 256]; got {value!r}") from None
        if int(value):
            threads_source = f"ARRSTRIDE_NUM_THREADS={value}"


_threads_from_env()


def _cache_limit_from_env() -> None:
    """ARRSTRIDE_CACHE_BYTES: an int number of bytes, optionally with a K, M or
    G suffix (powers of 1024)."""
    import os
    value = os.environ.get("ARRSTRIDE_CACHE_BYTES")
    if value:
        text = value.strip()
        scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:].upper(), 1)
        digits = text[:-1] if scale > 1 else text
        if not digits.isdigit():
            raise ValueError(f"ARRSTRIDE_CACHE_BYTES must be an int >= 0 with an optional K, M or G suffix; "
                             f"got {value!r}")
        set_cache_limit(int(digits) * scale)


_cache_limit_from_env()
# ---- statistics, searching, sorting, sets, take ------------------------------

def _ptr64(a):
    return ffi.cast("int64_t *", data_ptr(a))


def reduce(op: int, x, acc, axes: Sequence[int], func: str = "reduce") -> None:
    """acc (contiguous, x's shape with 1 on `axes`) = the `op` reduction of x
    over `axes`."""
    check_size(func, x)
    lay = x._layout
    asz = acc._dtype.itemsize
    acc_strides = [0 if k in axes else s for k, s in enumerate(acc._layout.strides)]
    _check(lib.ars_reduce(op, lay.ndim, shape64(lay.shape), data_ptr(x),
                          byte_strides(lay.strides, x._dtype.itemsize), x._dtype.code,
                          data_ptr(acc), byte_strides(acc_strides, asz), acc._layout.size,
                          acc._dtype.code), "reduce")


_ZERO_STRIDES = ffi.new("int64_t[]", lib.ARS_MAX_DIMS + 1)  # read-only: every stride 0


def var_m2(x, acc, axes: Sequence[int], func: str = "var") -> None:
    """acc (float64, contiguous, x's shape with 1 on `axes`) = the sum of
    |x - mean|^2 over `axes`, in one pass over x of any dtype."""
    check_size(func, x)
    lay = x._layout
    acc_strides = [0 if k in axes else s for k, s in enumerate(acc._layout.strides)]
    _check(lib.ars_var(lay.ndim, shape64(lay.shape), data_ptr(x),
                       byte_strides(lay.strides, x._dtype.itemsize), x._dtype.code,
                       ffi.cast("double *", data_ptr(acc)), byte_strides(acc_strides, 8),
                       acc._layout.size), func)


def reduce_all(op: int, x, acc) -> None:
    """acc (0-d) = the `op` reduction of every element of x (the per-call path
    of sum(x), max(x), ...: no per-dim accumulator layout to build)."""
    lay = x._layout
    if lay.ndim > lib.ARS_MAX_DIMS:
        return reduce(op, x, acc._with_layout(Layout((1,) * lay.ndim, (0,) * lay.ndim, acc._layout.offset)),
                      range(lay.ndim))
    _check(lib.ars_reduce(op, lay.ndim, shape64(lay.shape), data_ptr(x),
                          byte_strides(lay.strides, x._dtype.itemsize), x._dtype.code,
                          data_ptr(acc), _ZERO_STRIDES, 1, acc._dtype.code), "reduce")


def reduce_finish(kind: int, acc, count: float, correction: float = 0.0) -> None:
    """In place on the contiguous acc: MEAN, VAR or STD from a sum."""
    _check(lib.ars_reduce_finish(kind, data_ptr(acc), acc._layout.size, acc._dtype.code,
                                 float(count), float(correction)), "reduce_finish")


def _batch(a, axis: int):
    """(shape, strides) of a without `axis`, and the axis' length and byte step."""
    lay = a._layout
    shape = [d for k, d in enumerate(lay.shape) if k != axis]
    strides = [s for k, s in enumerate(lay.strides) if k != axis]
    isz = a._dtype.itemsize
    return shape, byte_strides(strides, isz), lay.shape[axis], byte_stride(lay.strides[axis], isz)


def lane(op: int, x, out, axis: int, out_axis: Optional[int], flag: bool = False,
         func: str = "lane") -> None:
    """out = the lane kernel `op` along `axis` of x; out has x's batch dims,
    plus its own lane along out_axis (None when the lane is one element)."""
    check_size(func, x)
    shape, xs, n, step = _batch(x, axis)
    if out_axis is None:
        ostr = byte_strides(out._layout.strides, out._dtype.itemsize)
        ostep = 0
    else:
        _, ostr, _, ostep = _batch(out, out_axis)
    _check(lib.ars_lane(op, len(shape), shape64(shape), data_ptr(x), xs, x._dtype.code, n, step,
                        data_ptr(out), ostr, out._dtype.code, ostep, int(flag)), "lane")


def sort(x, out, axis: int, argsort: bool, descending: bool, stable: bool = True) -> None:
    shape, xs, n, step = _batch(x, axis)
    _, ostr, _, ostep = _batch(out, axis)
    call = interruptible if x._layout.size >= INTERRUPTIBLE_SORT else _plain
    _check(call(lib.ars_sort, len(shape), shape64(shape), data_ptr(x), xs, x._dtype.code, n, step,
                data_ptr(out), ostr, ostep, int(argsort), int(descending), int(stable)),
           "sort")


def select(x, out, axis: int, kth: Sequence[int], arg: bool, vector: bool = True) -> None:
    """Partition each lane of x along axis at the positions kth (increasing,
    in range) into out: values, or int64 indices with arg. vector=False keeps
    to the portable kernel (tests compare the two)."""
    shape, xs, n, step = _batch(x, axis)
    _, ostr, _, ostep = _batch(out, axis)
    ks = ffi.new("int64_t[]", list(kth))
    flags = (lib.ARS_SELECT_ARG if arg else 0) | (0 if vector else lib.ARS_SELECT_PORTABLE)
    _check(lib.ars_select(len(shape), shape64(shape), data_ptr(x), xs, x._dtype.code, n, step,
                          data_ptr(out), ostr, ostep, ks, len(kth), flags), "select")


def unique(x, values, index=None, inverse=None, counts=None) -> int:
    """Unique elements of the 1-D x into the first k slots of values (and of
    the optional int64 outputs); returns k."""
    k = ffi.new("int64_t *")
    null = ffi.NULL
    _check(lib.ars_unique(data_ptr(x), x._layout.size, byte_stride(x._layout.strides[0], x._dtype.itemsize),
                          x._dtype.code, data_ptr(values),
                          null if index is None else _ptr64(index),
                          null if inverse is None else _ptr64(inverse),
                          null if counts is None else _ptr64(counts), k), "unique")
    return k[0]


def searchsorted(x1, x2, out, right: bool) -> None:
    check_size("searchsorted", x1, x2)
    lay = x2._layout
    isz = x1._dtype.itemsize
    _check(lib.ars_searchsorted(data_ptr(x1), x1._layout.size, byte_stride(x1._layout.strides[0], isz),
                                x1._dtype.code, int(right), lay.ndim, shape64(lay.shape),
                                data_ptr(x2), byte_strides(lay.strides, isz),
                                data_ptr(out), byte_strides(out._layout.strides, 8)), "searchsorted")


def take(out, idx_strides: Sequence[int], idx, src_strides: Sequence[int], src,
         axis_len: int, axis_stride: int) -> Optional[int]:
    """out[i...] = src[... idx[i...] ...] (strides in elements over out's shape;
    src's are 0 on the axis). Returns the first index out of range, or None."""
    lay = out._layout
    isz = out._dtype.itemsize
    bad = ffi.new("int64_t *")
    rc = lib.ars_take(lay.ndim, shape64(lay.shape), data_ptr(out), byte_strides(lay.strides, isz),
                      data_ptr(idx), byte_strides(idx_strides, 8),
                      data_ptr(src), byte_strides(src_strides, isz),
                      axis_len, byte_stride(axis_stride, isz), isz, bad)
    if rc == lib.ARS_ERR_ARG:
        return bad[0]
    _check(rc, "take")
    return None


def repeat_index(repeats, out) -> None:
    """repeats: contiguous int64 (n); out: contiguous int64 (sum of repeats)."""
    _check(lib.ars_repeat_index(_ptr64(repeats), repeats._layout.size, _ptr64(out)), "repeat")


def int64_range(x) -> tuple:
    """(min, max) of the 1-D int64 x (INT64_MAX, INT64_MIN when empty)."""
    lo, hi = ffi.new("int64_t *"), ffi.new("int64_t *")
    _check(lib.ars_int64_range(data_ptr(x), x._layout.size, byte_stride(x._layout.strides[0], 8),
                               lo, hi), "bincount")
    return lo[0], hi[0]


def _lane_or_null(w):
    if w is None:
        return ffi.NULL, 0
    return data_ptr(w), byte_stride(w._layout.strides[0], 8)


def bincount(x, weights, out) -> bool:
    """out (contiguous int64, or float64 with weights) = counts of the 1-D
    int64 x; False when a value falls outside out (nothing else is wrong)."""
    w, sw = _lane_or_null(weights)
    rc = lib.ars_bincount(data_ptr(x), x._layout.size, byte_stride(x._layout.strides[0], 8), w, sw,
                          data_ptr(out), out._layout.size)
    if rc == lib.ARS_ERR_ARG:
        return False
    _check(rc, "bincount")
    return True


def histogram(x, weights, edges, out) -> None:
    """out (contiguous, len(edges) - 1) = counts of the 1-D float64 x in the
    equal-width bins of the contiguous float64 edges."""
    w, sw = _lane_or_null(weights)
    _check(lib.ars_histogram(data_ptr(x), x._layout.size, byte_stride(x._layout.strides[0], 8), w, sw,
                             ffi.cast("double *", data_ptr(edges)), out._layout.size, data_ptr(out)),
           "histogram")


def compress(x, mask, out, count: int) -> None:
    """out (contiguous, count elements) = x[mask] in C order; mask has x's shape."""
    lay = x._layout
    isz = x._dtype.itemsize
    _check(lib.ars_compress(lay.ndim, shape64(lay.shape), data_ptr(x), byte_strides(lay.strides, isz),
                            data_ptr(mask), byte_strides(mask._layout.strides, 1),
                            data_ptr(out), isz, count), "compress")

# ---- linear algebra (matmul, LAPACK drivers, small reductions) ---------------------

def matmul(out, a, b, col_major: int = 0) -> None:
    """out[..., m, n] = a[..., m, k] @ b[..., k, n]. a and b are (broadcast)
    views with out's batch shape and dtype; out is contiguous. col_major
    (narrow floats): 1, 2 convert a, b to column-major float32 tiles."""
    if out._layout.size == 0:
        return
    isz = out._dtype.itemsize
    for x in (a, b):  # C may pack a whole (broadcast) operand densely
        if x._layout.size * isz > MAX_ALLOC:
            raise alloc_error("matmul", x.shape, x._dtype, x._layout.size * isz)
    if out._dtype.kind in "fc":
        _blas.ensure()
    shape = out.shape
    nbatch = len(shape) - 2
    k = a.shape[-1]
    call = interruptible if out._layout.size * k >= INTERRUPTIBLE_WORK else _plain
    rc = call(lib.ars_matmul_ex, out._dtype.code, nbatch, shape64(shape[:-2]), shape[-2], shape[-1],
              k, data_ptr(a), byte_strides(a.strides, isz),
              data_ptr(b), byte_strides(b.strides, isz), data_ptr(out), col_major)
    _check(rc, "matmul")


def _f(dtype) -> int:
    return dtype.code - lib.ARS_FLOAT32


def _ptr_or_null(a):
    return ffi.NULL if a is None else data_ptr(a)


_LAPACK = {}  # routine -> (C function, C types of its trailing parameters)


def _lapack_entry(routine: str):
    entry = _LAPACK.get(routine)
    if entry is None:
        _blas.ensure()
        fn = getattr(lib, "ars_la_" + routine)
        entry = _LAPACK[routine] = (fn, ffi.typeof(fn).args)
    return entry


def lapack(routine: str, a, *args) -> list:
    """Run the batched LAPACK driver ars_la_<routine> on the contiguous
    column-major stack a; args follow the C signature after `a`, with arrays
    given as Arrays (or None). Returns the per-matrix LAPACK status."""
    fn, ctypes_ = _lapack_entry(routine)  # loads BLAS on first use
    nb = 1
    for d in a.shape[:-2]:
        nb *= d
    info = ffi.new("int64_t[]", max(nb, 1))
    # the trailing parameters (after f, nb, sizes, a) in C order, for pointer casts
    ctypes_ = ctypes_[-1 - len(args):-1]
    conv = [ffi.cast(ct, _ptr_or_null(x)) if x is None or hasattr(x, "_layout") else x
            for x, ct in zip(args, ctypes_)]
    # a batch of long factorizations stops between matrices on Ctrl-C
    call = interruptible if a._layout.size * a.shape[-1] >= INTERRUPTIBLE_WORK else _plain
    if routine in ("svd", "pinv", "qr"):
        m, n = a.shape[-1], a.shape[-2]     # column-major: the stored shape is (n, m)
        rc = call(fn, _f(a._dtype), nb, m, n, data_ptr(a), *conv, info)
    elif routine == "solve":
        rc = call(fn, _f(a._dtype), nb, a.shape[-1], conv[0], data_ptr(a), *conv[1:], info)
    else:
        rc = call(fn, _f(a._dtype), nb, a.shape[-1], data_ptr(a), *conv, info)
    _check(rc, routine)
    status = list(info[0:nb])  # a copy: a cdata slice is a view that does not keep `info` alive
    for i in status:
        if i in (-1010, -1011):     # LAPACKE's work/transpose memory errors
            raise MemoryError(f"arrstride: out of memory in {routine}")
    return status


def svd_rows(x, s, u, vt, jobz: bytes) -> bool:
    """The SVD of one C-contiguous real matrix x (m x n, read only) in the
    one-pass form of a tall, well-conditioned matrix: u (n, m) and vt (n, n)
    receive U and Vh column-major. False when x does not qualify (the caller
    then copies x column-major for ars_la_svd)."""
    _blas.ensure()
    done = ffi.new("int *")
    m, n = x.shape
    _check(lib.ars_la_svd_rows(_f(x._dtype), m, n, data_ptr(x), data_ptr(s), _ptr_or_null(u),
                               _ptr_or_null(vt), jobz, done), "svd")
    return bool(done[0])


def rank_from_s(s, rtol, out) -> None:
    """out[b] = #(s[b, :] > rtol[b] * max(s[b, :])); contiguous arrays."""
    nb = out._layout.size
    _check(lib.ars_la_rank(_f(s._dtype), nb,
                           s.shape[-1], data_ptr(s), ffi.cast("double *", data_ptr(rtol)),
                           ffi.cast("int64_t *", data_ptr(out))), "matrix_rank")


DOT_SUM, DOT_MUL, DOT_CONJ_MUL = lib.ARS_DOT_SUM, lib.ARS_DOT_MUL, lib.ARS_DOT_CONJ_MUL
NORM_2, NORM_1, NORM_MAX, NORM_MIN, NORM_0, NORM_P = (
    lib.ARS_NORM_2, lib.ARS_NORM_1, lib.ARS_NORM_MAX, lib.ARS_NORM_MIN, lib.ARS_NORM_0, lib.ARS_NORM_P)


def dot_reduce(mode: int, out, x, y) -> None:
    """out[...] = sum over the last axis of x (DOT_SUM), x*y (DOT_MUL) or
    conj(x)*y (DOT_CONJ_MUL);
    x and y are views of out's shape plus that axis, all of out's dtype."""
    if out._layout.size == 0:
        return
    check_size("vecdot", x, y)
    isz = out._dtype.itemsize
    nd = out.ndim
    _check(lib.ars_dot_reduce(mode, out._dtype.code, nd, shape64(out.shape), data_ptr(out),
                              byte_strides(out.strides, isz), data_ptr(x),
                              byte_strides(x.strides[:-1], isz), data_ptr(y),
                              byte_strides(y.strides[:-1], isz), x.shape[-1],
                              byte_stride(x.strides[-1], isz), byte_stride(y.strides[-1], isz)), "vecdot")


def vector_norm(out, x, kind: int, p: float) -> None:
    """out[...] = the norm `kind` (NORM_2, ..., NORM_P with p) of x along its
    last axis (out: the real dtype of x)."""
    if out._layout.size == 0:
        return
    check_size("vector_norm", x)
    isz = x._dtype.itemsize
    _check(lib.ars_vector_norm(x._dtype.code, kind, p, out.ndim, shape64(out.shape), data_ptr(out),
                               byte_strides(out.strides, out._dtype.itemsize), data_ptr(x),
                               byte_strides(x.strides[:-1], isz), x.shape[-1],
                               byte_stride(x.strides[-1], isz)), "vector_norm")


def cross(out, x, y) -> None:
    """out[..., 0:3] = x[..., 0:3] cross y[..., 0:3] (last axis; one dtype)."""
    if out._layout.size == 0:
        return
    isz = out._dtype.itemsize
    _check(lib.ars_cross(out._dtype.code, out.ndim - 1, shape64(out.shape[:-1]), data_ptr(out),
                         byte_strides(out.strides[:-1], isz), data_ptr(x),
                         byte_strides(x.strides[:-1], isz), data_ptr(y),
                         byte_strides(y.strides[:-1], isz), byte_stride(out.strides[-1], isz),
                         byte_stride(x.strides[-1], isz), byte_stride(y.strides[-1], isz)), "cross")


# ---- random numbers (random.c) -------------------------------------------------------


def new_pcg64():
    """A zeroed ars_pcg64 state, owned by the returned cdata."""
    return ffi.new("ars_pcg64 *")


def pcg64_seed(state, seed_hi: int, seed_lo: int, inc_hi: int, inc_lo: int) -> None:
    lib.ars_pcg64_seed(state, seed_hi, seed_lo, inc_hi, inc_lo)


def random_fill(state, kind: int, single: bool, out, n: int, a=None, sa: int = 0, b=None,
                sb: int = 0) -> None:
    """n draws of `kind` into the contiguous buffer out (see arrstride.h)."""
    _check(lib.ars_random_fill(state, kind, int(single), out, n,
                               ffi.NULL if a is None else a, sa, ffi.NULL if b is None else b, sb),
           "random draws")


def random_integers(state, width: int, out, n: int, offs: Sequence[int], soff: int,
                    rngs: Sequence[int], srng: int) -> None:
    """out[i] = offs[i*soff] + a uniform integer in [0, rngs[i*srng]], in width bytes."""
    _check(lib.ars_random_integers(state, width, out, n, ffi.new("uint64_t[]", list(offs)), soff,
                                   ffi.new("uint64_t[]", list(rngs)), srng), "integers")


def random_permutation(state, out, n: int) -> None:
    _check(lib.ars_random_permutation(state, ffi.cast("int64_t *", out), n), "permutation")


def random_choice_noreplace(state, pop: int, size: int, shuffle: bool, out) -> None:
    _check(lib.ars_random_choice_noreplace(state, pop, size, int(shuffle), ffi.cast("int64_t *", out)),
           "choice")


def random_choice_p(state, p, pop: int, size: int, replace: bool, out) -> None:
    _check(lib.ars_random_choice_p(state, ffi.cast("double *", p), pop, size, int(replace),
                                   ffi.cast("int64_t *", out)), "choice")
