"""Coverage-guided fuzz targets for arrstride's ways in from outside.

Each target takes fuzzer bytes, builds an input from them, and either gets a
clean Python exception of an allowed kind or a result it checks against an
oracle (NumPy over the same memory, or the rule the input breaks). Anything
else raises AssertionError, which atheris reports as a finding, as it does a
crash or a sanitizer report from the instrumented C library.

Targets (python fuzz/run.py TARGET [libFuzzer flags] [corpus dirs]):
  pickle     pickle.loads of mutated arrstride pickles (a restricted
             unpickler: only arrstride's own reconstructors and bytes helpers)
  dlpack     from_dlpack of DLPack tensors with fuzzed fields (ctypes-built)
  asarray    asarray of buffer exporters and __array_interface__ dicts
  views      as_strided / view(dtype) / reshape / unfold with fuzzed parameters
  index      x[key] and x[key] = v, fuzzed keys over fuzzed layouts, against NumPy
  sequences  asarray of nested lists, tuples and subclasses that lie about their
             length or contents, with items whose conversions change the lists,
             against NumPy over an honest twin
  npy        load of mutated .npy files (header and data), against NumPy's np.load

A raw pointer cannot be verified: the dlpack and asarray targets only hand
arrstride memory descriptions that are either true (everything reached lies
in the buffer they own) or break one of the rules arrstride checks; a
description that obeys the rules but lies about the memory is skipped.
"""
from __future__ import annotations

import ctypes
import io
import itertools
import pickle
import pickletools
import struct
import sys

import numpy as np

import arrstride as xp
from arrstride import _layout as L

CLEAN = (TypeError, ValueError, IndexError, BufferError, OverflowError, MemoryError)
MAX_I64 = (1 << 63) - 1
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


class Bytes:
    """A small FuzzedDataProvider: deterministic reads that never fail."""

    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            return 0
        self.pos += 1
        return self.data[self.pos - 1]

    def int_in(self, lo: int, hi: int) -> int:
        span = hi - lo + 1
        v = 0
        for _ in range(max(1, (span.bit_length() + 7) // 8)):
            v = (v << 8) | self.byte()
        return lo + v % span

    def pick(self, seq):
        return seq[self.int_in(0, len(seq) - 1)]

    def i64(self) -> int:
        """Mostly small values, sometimes the edges of int64."""
        k = self.byte() % 8
        if k == 0:
            return self.pick([0, 1, -1, MAX_I64, -MAX_I64 - 1, 1 << 62, -(1 << 62), 1 << 32])
        if k == 1:
            return int.from_bytes(bytes(self.byte() for _ in range(8)), "little", signed=True)
        return self.int_in(-8, 16)

    def rest(self) -> bytes:
        out = self.data[self.pos:]
        self.pos = len(self.data)
        return out


# ---- pickle ---------------------------------------------------------------------------

_ALLOWED = {("arrstride._array", "_rebuild"), ("arrstride._array", "_unpickle"),
            ("arrstride._dtypes", "_by_name"), ("_codecs", "encode")}


class _Restricted(pickle._Unpickler):
    """The pure-Python unpickler, allowing only arrstride's reconstructors.

    Not CPython's C unpickler: this target found that _pickle itself, with no
    arrstride code reached, sizes its memo by the largest PUT index, allocates
    a counted opcode's claimed length before reading it, and spends 20+ s and
    12 GB on some 200-byte streams with a FRAME (and prints "SystemError:
    deallocated bytearray object has exported buffers" for a BYTEARRAY8 past
    the input's end). The pure-Python unpickler reads what the input holds, so
    the fuzzing reaches the payloads arrstride's reconstructors receive."""

    def find_class(self, module, name):
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"fuzz: {module}.{name} is not allowed")
        return super().find_class(module, name)


def same_elements(got, want) -> bool:
    """The oracle's comparison: same shape and elements, NaN equal to NaN, and
    bool elements compared as their bytes (NumPy's == on bool bytes other
    than 0 and 1, which untrusted memory holds, depends on the loop it picks:
    65 == 65 has come out False)."""
    if isinstance(want, Sampled):
        return want.matches(np.asarray(got))
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return False
    if got.dtype == bool and want.dtype == bool:
        return np.array_equal(got.view(np.uint8), want.view(np.uint8))
    return np.array_equal(got, want, equal_nan=got.dtype.kind in "fc" and want.dtype.kind in "fc")


def _claims_more_than_it_has(data: bytes) -> bool:
    """A counted opcode (BINBYTES8, BYTEARRAY8, BINUNICODE8) whose length exceeds
    the input: even the pure-Python unpickler allocates the claimed length
    first (bytearray(n), 2.3 GB in one finding), with no arrstride code reached.
    pickletools reads such a stream without allocating, and says so."""
    try:
        for _ in pickletools.genops(data):
            pass
    except ValueError as e:
        return "but only" in str(e)
    except Exception:
        pass
    return False


def target_pickle(data: bytes) -> None:
    if _claims_more_than_it_has(data):
        return
    # Out-of-band buffers for protocol 5's NEXT_BUFFER: the input's second half
    # (writable) and all of it but its first byte (read-only, unaligned).
    buffers = (bytearray(data[len(data) // 2:]), memoryview(data)[1:])
    try:
        obj = _Restricted(io.BytesIO(data), buffers=buffers).load()
    except CLEAN + (pickle.UnpicklingError, EOFError, KeyError, AttributeError, RecursionError,
                    UnicodeDecodeError, LookupError, ImportError, struct.error):
        return
    for a in (obj.values() if isinstance(obj, dict) else [obj]):
        if isinstance(a, xp.Array):
            n = np.asarray(a)  # every byte of the result is read
            assert n.nbytes == a.size * a.dtype.itemsize
            n.tobytes()


def seeds_pickle():
    out = []
    for proto in (2, 4, 5):
        for a in (xp.arange(6, dtype=xp.int16), xp.reshape(xp.arange(6.0), (2, 3)).T,
                  xp.ones((), dtype=xp.complex64), xp.zeros((0, 2), dtype=xp.bool)):
            out.append(pickle.dumps(a, protocol=proto))
    # format 2 (protocol 5, 4 KiB of data or more): the PickleBuffer in band,
    # and out of band, the stream padded so that its second half is the buffer
    for a in (xp.reshape(xp.arange(1024, dtype=xp.float32), (32, 32)), xp.ones(4096, dtype=xp.bool)):
        out.append(pickle.dumps(a, protocol=5))
        stream = pickle.dumps(a, protocol=5, buffer_callback=lambda b: False)
        nbytes = a.size * a.dtype.itemsize
        out.append(stream + bytes(2 * nbytes - len(stream)))
    return out


# ---- shared: a memory description against a buffer we own ------------------------------

def reach(shape, strides, offset):
    """(lo, hi) element indices reached, None when empty."""
    if any(d == 0 for d in shape):
        return None
    lo = hi = offset
    for d, s in zip(shape, strides):
        if s > 0:
            hi += (d - 1) * s
        else:
            lo += (d - 1) * s
    return lo, hi


def breaks_rules(shape, bstrides, isz, address):
    """Why arrstride must refuse this description (None: it obeys the rules)."""
    if len(shape) > 64 or any(d < 0 or d > MAX_I64 for d in shape):
        return "dims"
    if bstrides is not None and (len(bstrides) != len(shape) or any(s % isz for s in bstrides)):
        return "strides"
    if not 0 <= address < 1 << 64:
        return "address"
    strides = [s // isz for s in bstrides] if bstrides is not None else list(L.contiguous_strides(shape))
    r = reach(shape, strides, 0)
    if r is None:
        return None
    if address == 0:
        return "null"
    lo, hi = r
    if (hi - lo + 1) * isz > MAX_I64 or address + lo * isz < 1 or address + (hi + 1) * isz > 1 << 64 \
            or any(abs(s) * isz > MAX_I64 for s in strides):
        return "span"
    return None


def inside(shape, bstrides, isz, address, base, nbytes):
    strides = [s // isz for s in bstrides] if bstrides is not None else list(L.contiguous_strides(shape))
    r = reach(shape, strides, 0)
    if r is None:
        return True
    lo, hi = r
    return base <= address + lo * isz and address + (hi + 1) * isz <= base + nbytes


# Past this many bytes the oracle reads sample elements instead of copying the whole
# description: a stride-0 dim of 2**32 describes 4 GB that the 4 KB buffer never holds,
# and the fuzzer counts a copy that size as running out of memory.
ORACLE_BYTES = 1 << 24


class Sampled:
    """A description too large to copy, compared at every combination of the first,
    middle and last index of each dim (at most 3**6 elements)."""

    def __init__(self, cells, shape, itemsize):
        self.cells, self.shape, self.itemsize = cells, tuple(shape), itemsize

    def matches(self, got) -> bool:
        if got.shape != self.shape or got.itemsize != self.itemsize:
            return False
        picks = [sorted({0, n // 2, n - 1}) for n in self.shape]
        for idx in itertools.product(*picks):
            if got[idx].tobytes() != self.cells[idx].tobytes():
                return False
        return True


def numpy_view(buf, offset, shape, bstrides, dtype):
    """What the description means, read by NumPy (the oracle) from a copy of buf."""
    raw = np.frombuffer(bytes(buf), dtype=np.uint8)
    if any(d == 0 for d in shape):
        return np.zeros(shape, dtype=dtype)
    strides = bstrides if bstrides is not None else tuple(
        s * np.dtype(dtype).itemsize for s in L.contiguous_strides(shape))
    # the element's bytes as a trailing dim of uint8, then read as elements
    isz = np.dtype(dtype).itemsize
    cells = np.lib.stride_tricks.as_strided(raw[offset:], shape=tuple(shape) + (isz,),
                                            strides=tuple(strides) + (1,), writeable=False)
    if np.prod(shape, dtype=object) * isz > ORACLE_BYTES:
        return Sampled(cells, shape, isz)
    return np.ascontiguousarray(cells).view(dtype).reshape(shape)


# ---- dlpack -------------------------------------------------------------------------

class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", DELETER)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                ("deleter", DELETER), ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_DELETED = []
_deleter = DELETER(lambda p: _DELETED.append(p))
_DL = {"bool": (6, 8), "int8": (0, 8), "int16": (0, 16), "int32": (0, 32), "int64": (0, 64),
       "uint8": (1, 8), "uint16": (1, 16), "uint32": (1, 32), "uint64": (1, 64),
       "float16": (2, 16), "float32": (2, 32), "float64": (2, 64), "complex64": (5, 64),
       "complex128": (5, 128), "bfloat16": (4, 16)}  # kDLBfloat: its bits are read as uint16
NBUF = 512


def target_dlpack(data: bytes) -> None:
    f = Bytes(data)
    name = f.pick(DTYPES)
    code, bits = _DL[name]
    lanes = 1
    if f.byte() % 16 == 0:  # a malformed type
        code, bits, lanes = f.byte(), f.byte(), f.int_in(0, 3)
    ndim = f.int_in(0, 5)
    if f.byte() % 32 == 0:
        ndim = f.pick([-1, 65, 1000, 1 << 30])
    nd = max(0, min(ndim, 6))
    shape = [f.int_in(0, 6) if f.byte() % 8 else f.i64() for _ in range(nd)]
    has_strides = f.byte() % 4 != 0
    strides = [f.int_in(-12, 12) if f.byte() % 8 else f.i64() for _ in range(nd)]
    buf = (ctypes.c_char * NBUF)(*[bytes([f.byte()]) for _ in range(64)])
    base = ctypes.addressof(buf)
    data_off = f.int_in(0, NBUF) if f.byte() % 16 else f.pick([-base, 1 << 64, 1 << 63])
    byte_offset = f.int_in(0, 16) if f.byte() % 16 else f.pick([(1 << 64) - 8, 1 << 63])
    versioned = f.byte() % 2 == 0
    readonly = f.byte() % 4 == 0
    device = 1 if f.byte() % 16 else f.pick([2, 3, 13])
    sh = (ctypes.c_int64 * max(nd, 1))(*[s & ((1 << 64) - 1) if s < 0 else s for s in shape]) \
        if all(-(1 << 63) <= s <= MAX_I64 for s in shape) else None
    if sh is None:
        return  # a dim that int64 cannot hold cannot be written into a DLTensor
    st = (ctypes.c_int64 * max(nd, 1))(*strides) if all(-(1 << 63) <= s <= MAX_I64 for s in strides) else None
    if st is None:
        has_strides = False
    t = DLTensor()
    address = base + data_off
    if not 0 <= address < 1 << 64:
        return
    t.data = address or None
    t.device = DLDevice(device, 0)
    t.ndim = ndim
    t.dtype = DLDataType(code, bits, lanes)
    t.shape = ctypes.cast(sh, ctypes.POINTER(ctypes.c_int64))
    t.strides = ctypes.cast(st, ctypes.POINTER(ctypes.c_int64)) if has_strides else None
    t.byte_offset = byte_offset
    if versioned:
        m = DLManagedTensorVersioned(DLPackVersion(1, 0), None, _deleter, 1 if readonly else 0, t)
    else:
        m = DLManagedTensor(t, None, _deleter)
    # Is the description valid by the rules, and true of our buffer?
    good_type = lanes == 1 and (code, bits) in _DL.values()
    isz = bits // 8 if good_type else 1
    bstrides = [s * isz for s in strides] if has_strides else None
    addr = address + byte_offset
    rule = None if good_type and 0 <= ndim <= 64 and device in (1, 3, 11, 13) else "type/ndim/device"
    rule = rule or breaks_rules(shape, bstrides, isz, addr)
    if rule is None and not inside(shape, bstrides, isz, addr, base, NBUF):
        return  # obeys the rules but lies about the memory: a raw pointer cannot be checked
    before = len(_DELETED)
    cap = _capsule_new(ctypes.addressof(m), b"dltensor_versioned" if versioned else b"dltensor", None)
    a = None
    try:
        a = xp.from_dlpack(cap)
    except CLEAN:
        pass  # (the exception's frames hold the owner until the except block ends)
    if a is None:
        del cap
        assert len(_DELETED) == before + 1, "the deleter must run once on a refused tensor"
        return
    assert rule is None, f"accepted a tensor that breaks the rule on {rule}"
    if 0 in shape:  # empty (NumPy cannot hold every empty shape arrstride can: (2**62, 0))
        assert a.shape == tuple(shape) and a.size == 0
        del a, cap
        assert len(_DELETED) == before + 1, "the deleter must run exactly once"
        return
    dt = [k for k, v in _DL.items() if v == (code, bits)][0]
    if dt == "bfloat16":  # NumPy has no bfloat16: the oracle compares the bits
        a, dt = a.view(xp.uint16), "uint16"
    try:
        expected = numpy_view(buf, addr - base, shape, bstrides, dt)
    except (ValueError, MemoryError):  # NumPy (the oracle) cannot hold it: past its size
        # limit, or its contiguous copy of a huge broadcast view cannot be allocated
        assert a.shape == tuple(shape)
        del a, cap  # before m goes: the deleter reads it
        assert len(_DELETED) == before + 1, "the deleter must run exactly once"
        return
    got = np.asarray(a)
    same = same_elements(got, expected)
    del a, got, cap  # before m goes, whatever the verdict: the deleter reads it
    assert same, "the imported array reads other bytes than the tensor describes"
    assert len(_DELETED) == before + 1, "the deleter must run exactly once"


# ---- asarray: __array_interface__ and buffers --------------------------------------------

class _Iface:
    pass


_TYPESTR = {"bool": "|b1", "int8": "|i1", "int16": "<i2", "int32": "<i4", "int64": "<i8",
            "uint8": "|u1", "uint16": "<u2", "uint32": "<u4", "uint64": "<u8",
            "float16": "<f2", "float32": "<f4", "float64": "<f8", "complex64": "<c8", "complex128": "<c16"}


def target_asarray(data: bytes) -> None:
    f = Bytes(data)
    mem = (ctypes.c_char * NBUF)(*[bytes([f.byte()]) for _ in range(64)])
    base = ctypes.addressof(mem)
    if f.byte() % 2:
        # a memoryview cast: always a true description; fuzzed format and shape
        fmt = f.pick(list("?bhilqnBHILQNfdeP") + ["<d", "@i", "=l"])
        start = f.int_in(0, 16)
        try:
            mv = memoryview(mem).cast("B")[start:]
            nd = f.int_in(0, 3)
            shape = [f.int_in(0, 5) for _ in range(nd)]
            mv = mv[:int(np.prod(shape, dtype=np.int64)) * (ctypes.sizeof(ctypes.c_double) if fmt[-1] in "dqlnQLNP" else 4)]
            v = mv.cast(fmt.lstrip("<=@"), shape) if nd else mv.cast(fmt.lstrip("<=@"))
        except (TypeError, ValueError):
            return
        try:
            a = xp.asarray(v, copy=f.pick([None, True, False]))
        except CLEAN:
            return
        n = np.asarray(v)
        assert same_elements(a, n)
        return
    name = f.pick(DTYPES)
    isz = np.dtype(name).itemsize
    typestr = _TYPESTR[name] if f.byte() % 16 else f.pick(["<f16", ">f8", "|f8", "<V8", "x", "<i8 "])
    nd = f.int_in(0, 4) if f.byte() % 32 else f.pick([65, 100])
    shape = [f.int_in(0, 5) if f.byte() % 8 else f.i64() for _ in range(nd)]
    bstrides = None if f.byte() % 3 == 0 else [f.int_in(-24, 24) if f.byte() % 8 else f.i64() for _ in range(nd)]
    offset = f.int_in(0, 64)
    address = base + f.int_in(0, 64) if f.byte() % 16 else f.pick([0, -1, 1 << 64])
    readonly = f.byte() % 2 == 0
    o = _Iface()
    o.mem = mem
    o.__array_interface__ = {"version": 3 if f.byte() % 16 else 2, "typestr": typestr,
                             "shape": tuple(shape), "strides": None if bstrides is None else tuple(bstrides),
                             "data": (address, readonly), "offset": offset}
    rule = None if typestr == _TYPESTR[name] and o.__array_interface__["version"] == 3 else "typestr"
    rule = rule or breaks_rules(shape, bstrides, isz, address + offset if isinstance(address, int) else -1)
    if rule is None and not inside(shape, bstrides, isz, address + offset, base, NBUF):
        return
    try:
        a = xp.asarray(o)
    except CLEAN:
        return
    assert rule is None, f"accepted an interface that breaks the rule on {rule}"
    if 0 in shape:
        assert a.shape == tuple(shape) and a.size == 0
        return
    try:
        expected = numpy_view(mem, address + offset - base, shape, None if bstrides is None else bstrides, name)
    except (ValueError, MemoryError):  # NumPy (the oracle) cannot hold or copy it (as in dlpack)
        assert a.shape == tuple(shape)
        return
    assert same_elements(a, expected)


# ---- views ------------------------------------------------------------------------------

def _base(f: Bytes):
    n = f.int_in(0, 40)
    name = f.pick(DTYPES)
    x = xp.astype(xp.arange(n), getattr(xp, name)) if name != "bool" else xp.arange(n) % 3 == 0
    return x, np.asarray(x).copy()


def target_views(data: bytes) -> None:
    f = Bytes(data)
    x, n = _base(f)
    op = f.int_in(0, 3)
    if op == 0:  # as_strided: inside the storage equals NumPy's as_strided; else ValueError
        nd = f.int_in(0, 4)
        shape = tuple(f.int_in(0, 6) if f.byte() % 8 else f.i64() for _ in range(nd))
        strides = tuple(f.int_in(-6, 6) if f.byte() % 8 else f.i64() for _ in range(nd))
        offset = f.int_in(-3, 45) if f.byte() % 8 else f.i64()
        try:
            v = xp.as_strided(x, shape, strides, offset)
        except CLEAN:
            ok = all(0 <= d <= MAX_I64 for d in shape)
            r = reach(shape, strides, offset) if ok else None
            assert not ok or (r is not None and (r[0] < 0 or r[1] >= n.size)) or offset < 0 or offset > n.size, \
                (shape, strides, offset)
            return
        r = reach(shape, strides, offset)
        assert r is None or (0 <= r[0] and r[1] < n.size)
        if r is not None and v.size < 10000:
            isz = n.itemsize
            # (a dim of one element: its stride is never used, and NumPy wants it in int64 bytes)
            want = np.lib.stride_tricks.as_strided(n[offset:] if offset < n.size else n[:0], shape,
                                                   [s * isz if d > 1 else 0 for d, s in zip(shape, strides)])
            assert same_elements(v, want)
    elif op == 1:  # view(dtype) of a sliced layout
        v = x[f.int_in(0, 3)::f.pick([1, 1, 2, -1])] if x.ndim else x
        to = f.pick(DTYPES)
        try:
            w = v.view(getattr(xp, to))
        except CLEAN:
            return
        try:
            want = np.asarray(v).view(to)
        except ValueError:
            raise AssertionError(f"view({to}) accepted where NumPy refuses: {v.shape} {v.strides}")
        assert same_elements(w, want)
    elif op == 2:  # reshape of a permuted, stepped view
        shape = tuple(f.int_in(-1, 6) for _ in range(f.int_in(0, 4)))
        step = f.pick([1, 2, -1])
        v, nv = x[::step], n[::step]
        try:
            w = xp.reshape(v, shape, copy=f.pick([None, None, False]))
        except CLEAN:
            return  # a shape that does not fit, or copy=False with no view: clean
        assert same_elements(w, np.reshape(nv, shape)), (x.size, shape)
    else:  # unfold
        size, step = f.int_in(-1, 8), f.int_in(-1, 4)
        try:
            w = xp.unfold(x, 0, size, step)
        except CLEAN:
            return
        want = np.lib.stride_tricks.sliding_window_view(n, size)[::step]
        assert same_elements(w, want)


# ---- index ------------------------------------------------------------------------------

def _layout(f: Bytes):
    shape = tuple(f.int_in(0, 4) for _ in range(f.int_in(0, 3)))
    size = int(np.prod(shape, dtype=np.int64))
    x = xp.reshape(xp.arange(float(size)), shape)
    n = np.arange(float(size)).reshape(shape)
    for _ in range(f.int_in(0, 2)):
        k = f.int_in(0, 2)
        if k == 0 and x.ndim == 2:
            x, n = x.T, n.T
        elif k == 1 and x.ndim:
            x, n = x[::-1], n[::-1]
        elif k == 2 and x.ndim:
            x, n = x[::2], n[::2]
    return x, n


def _key(f: Bytes):
    items = []
    for _ in range(f.int_in(0, 4)):
        k = f.int_in(0, 6)
        if k == 0:
            items.append(f.int_in(-5, 5))
        elif k == 1:
            items.append(slice(f.pick([None, -3, 0, 1, 2, 9]), f.pick([None, -1, 0, 2, 9]),
                               f.pick([None, 1, 2, -1, -2])))
        elif k == 2:
            items.append(None)
        elif k == 3:
            items.append(Ellipsis)
        elif k == 4:
            items.append(np.asarray([f.int_in(-5, 5) for _ in range(f.int_in(0, 3))], dtype=np.int64))
        elif k == 5:
            items.append(np.asarray([f.byte() % 2 == 0 for _ in range(f.int_in(0, 4))], dtype=bool))
        else:
            items.append(f.i64())
    return tuple(items)


def _to_xp(item):
    return xp.asarray(item) if isinstance(item, np.ndarray) else item


def target_index(data: bytes) -> None:
    f = Bytes(data)
    x, n = _layout(f)
    key = _key(f)
    xkey = tuple(_to_xp(k) for k in key)
    try:
        want = n[key]
    except (IndexError, ValueError, TypeError, OverflowError):
        want = None
    try:
        got = x[xkey]
    except CLEAN:
        # a clean refusal is fine whether or not NumPy answered: arrstride may
        # refuse what the standard lets it (several arrays with ..., mixing, ...)
        return
    assert want is not None, f"x{key} gave a result where NumPy raises"
    assert same_elements(got, want), key
    # setitem: the same key, a scalar value, compared on the whole base
    x2, n2 = xp.asarray(np.ascontiguousarray(n)), np.ascontiguousarray(n).copy()
    try:
        x2[xkey] = -1.0
    except CLEAN:
        return
    n2[key] = -1.0
    assert same_elements(x2, n2), key


# ---- sequences ------------------------------------------------------------------------

class _LenLie(list):
    """A list whose len() is off by `lie`."""
    lie = 0

    def __len__(self):
        return list.__len__(self) + self.lie


class _IterOther(list):
    """A list whose iterator gives other items (its len() agrees with them)."""
    other: list = []

    def __iter__(self):
        return iter(self.other)

    def __len__(self):
        return len(self.other)


class _TupleLie(tuple):
    lie = 0

    def __len__(self):
        return tuple.__len__(self) + self.lie


class _Meddler:
    """What an item's conversion does to the lists around it."""
    victims: list = []
    how = 0

    @classmethod
    def meddle(cls):
        for v in cls.victims:
            if cls.how == 1:
                v.clear()
            elif cls.how == 2:
                v.append(0.5)
            elif cls.how == 3:
                del v[:1]


class _F(float):
    def __float__(self):
        _Meddler.meddle()
        return float.__float__(self)

    def __bool__(self):
        _Meddler.meddle()
        return float.__bool__(self)


class _I(int):
    def __index__(self):
        _Meddler.meddle()
        return int(self)

    def __float__(self):
        _Meddler.meddle()
        return int.__float__(self)

    def __bool__(self):
        _Meddler.meddle()
        return int.__bool__(self)


class _C(complex):
    def __complex__(self):
        _Meddler.meddle()
        return complex(self.real, self.imag)


def _build(f: Bytes, depth: int, lists: list, honest: bool, lies: list):
    """A nested structure from the bytes; honest=True builds the twin NumPy reads
    (the same values, no meddling items); lies collects the len() lies."""
    kind = f.byte() % 16 if depth < 5 else 12 + f.byte() % 4
    if kind < 7:  # a sequence
        n = f.int_in(0, 4)
        items = [_build(f, depth + 1, lists, honest, lies) for _ in range(n)]
        flavour = f.byte() % 8
        if flavour == 0:
            out = _LenLie(items)
            out.lie = f.int_in(-2, 2)
            if out.lie:
                lies.append(out)
        elif flavour == 1:
            out = _IterOther(items)
            out.other = list(reversed(items))
        elif flavour == 2:
            out = _TupleLie(items)
            out.lie = f.int_in(-1, 1)
            if out.lie:
                lies.append(out)
        elif flavour < 5:
            out = tuple(items)
        else:
            out = items
        if isinstance(out, list):
            lists.append(out)
        return out
    v = f.pick([0.0, 1.5, -2.25, float("nan"), float("inf"), 1e300])
    if kind < 9:
        return v if honest else _F(v)
    if kind < 11:
        i = f.pick([0, 1, -3, 7, 255, 300, MAX_I64, -MAX_I64 - 1, 1 << 63, 1 << 64])
        return i if honest else _I(i)
    if kind == 11:
        return complex(v, 1.0) if honest else _C(v, 1.0)
    return f.pick([True, False, 3, -1, 2.5, 1j, v])


def _leaves(obj):
    if isinstance(obj, (list, tuple)):
        for item in obj:
            yield from _leaves(item)
    else:
        yield obj


def target_sequences(data: bytes) -> None:
    f = Bytes(data)
    dtype = f.pick([None, None, None] + DTYPES)
    pos = f.pos
    lists: list = []
    lies: list = []
    obj = _build(f, 0, lists, False, lies)
    f.pos = pos
    twin = _build(f, 0, [], True, [])
    _Meddler.how = f.byte() % 4
    _Meddler.victims = [lists[k % len(lists)] for k in range(f.int_in(0, 2))] if lists else []
    xd = None if dtype is None else getattr(xp, dtype)
    try:
        got = xp.asarray(obj, dtype=xd)
    except CLEAN as e:
        ok = (ValueError, TypeError, OverflowError)
        assert isinstance(e, ok), repr(e)
        return
    finally:
        _Meddler.victims = []
    assert not lies, "a sequence whose len() lies was read"
    assert got.size == int(np.prod(got.shape)), got.shape
    try:
        with np.errstate(all="ignore"):
            want = np.asarray(twin, dtype=dtype)
    except (ValueError, TypeError, OverflowError):
        return  # NumPy refuses what arrstride reads: arrstride's own checks above hold
    if want.dtype == object:
        return
    if want.dtype.kind in "iu" and any(isinstance(v, (float, complex)) for v in _leaves(twin)):
        return  # float to int casts out of range are arrstride's own rule, not NumPy's
    g = np.asarray(got)
    assert g.shape == want.shape, (g.shape, want.shape)
    if g.dtype.kind == want.dtype.kind == "b" or g.dtype == want.dtype:
        assert same_elements(g, want), (g, want)



# ---- npy: the .npy reader ------------------------------------------------------------------

def _numpy_can_hold(shape, itemsize) -> bool:
    """NumPy's rule for a new array: itemsize times the product of the nonzero
    dims fits int64."""
    n = itemsize
    for d in shape:
        n *= d or 1
    return n <= MAX_I64


def target_npy(data: bytes) -> None:
    try:
        got = xp.load(io.BytesIO(data))
    except CLEAN:
        return
    if not isinstance(got, xp.Array):  # a zip archive: every member read or refused cleanly
        with got:
            for k in got.files:
                try:
                    got[k]
                except (CLEAN + (KeyError,)):
                    pass
        return
    if got.size == 0 and not _numpy_can_hold(got.shape, got.dtype.itemsize):
        # An empty shape whose other dims overflow int64 bytes: arrstride takes
        # it lazily, NumPy refuses it ("array is too big"), so its loader must too.
        try:
            np.load(io.BytesIO(data), allow_pickle=False)
        except ValueError:
            return
        raise AssertionError("NumPy loaded an array it cannot hold")
    n = np.asarray(got)
    assert n.nbytes == got.size * got.dtype.itemsize
    if got.dtype == xp.bfloat16:
        return  # NumPy reads '<V2' as raw void
    want = np.load(io.BytesIO(data), allow_pickle=False)
    assert same_elements(got, want)


def seeds_npy():
    out = []
    for a in (np.arange(6, dtype=np.int16), np.arange(6.0).reshape(2, 3).T, np.ones((), np.complex64),
              np.zeros((0, 2), np.bool_), np.asfortranarray(np.arange(12, dtype=">u4").reshape(3, 4))):
        f = io.BytesIO()
        np.save(f, a)
        out.append(f.getvalue())
    return out


TARGETS = {"pickle": target_pickle, "dlpack": target_dlpack, "asarray": target_asarray,
           "views": target_views, "index": target_index, "sequences": target_sequences, "npy": target_npy}
SEEDS = {"pickle": seeds_pickle, "npy": seeds_npy}
