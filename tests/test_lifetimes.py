"""Object lifetimes under the garbage collector.

Every source of memory arrstride wraps or owns is crossed with what a program
holds (the array, a view of it, its storage) and the reference cycle it sits
in (a list that contains itself, two objects pointing at each other, an
exception whose traceback holds the array). Each case runs 300 iterations
with gc.collect() and allocation churn between them, in its own subprocess, so
that a crash fails the case instead of ending pytest. Each cycle also holds
an object whose __del__ reads the array back while the collector finalizes
the cycle: the memory must still be there, whatever order the collector
takes. And the resident set must stop growing.
"""
import os
import subprocess
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Each source builds (array, expected list of values, keepalive) from `i`.
SOURCES = {
    "small_block": "x = xp.arange(i, i + 512.0); want = list(range(i, i + 512))",
    "large_block": "x = xp.ones(300_000) * i; want = None",
    "bytes": "x = xp.asarray(memoryview(bytes(range(i % 7, i % 7 + 64)))); want = list(range(i % 7, i % 7 + 64))",
    "bytearray": "x = xp.asarray(bytearray(range(64))); want = list(range(64))",
    "memoryview": "x = xp.asarray(memoryview(bytearray(range(64)))); want = list(range(64))",
    "memoryview_strided": "x = xp.asarray(memoryview(bytearray(range(64)))[::-3]); want = list(range(63, -1, -3))",
    "numpy": "x = xp.asarray(np.arange(8192.0) + i); want = None",
    "numpy_strided": "x = xp.asarray((np.arange(64.0).reshape(8, 8) + i)[::-2, 1::3]); want = None",
    "numpy_scalar": "x = xp.asarray(np.float32(i)); want = float(i)",
    "array_interface": ("n = np.arange(4096.0) + i\n"
                        "class Iface:\n"
                        "    def __init__(self, a): self.__array_interface__ = a.__array_interface__; self.a = a\n"
                        "x = xp.asarray(Iface(n)); want = None"),
    "dlpack_numpy": "x = xp.from_dlpack(np.arange(4096.0) + i); want = None",
    "dlpack_numpy_legacy": "x = xp.from_dlpack((np.arange(4096.0) + i).__dlpack__()); want = None",
    "dlpack_torch": "x = xp.from_dlpack(torch.arange(4096.0, dtype=torch.float64) + i); want = None",
    "dlpack_torch_legacy": ("x = xp.from_dlpack(torch.utils.dlpack.to_dlpack("
                            "torch.arange(4096.0, dtype=torch.float64) + i)); want = None"),
    "unpickled": "x = pickle.loads(pickle.dumps(xp.arange(4096.0) + i)); want = None",
    # arrstride memory handed out: to NumPy (__array_interface__ and DLPack) and torch
    "export_numpy": "x = np.asarray(xp.arange(4096.0) + i); want = None",
    "export_numpy_dlpack": "x = np.from_dlpack(xp.arange(4096.0) + i); want = None",
    "export_torch_dlpack": "x = torch.from_dlpack(xp.arange(4096.0) + i); want = None",
}
NEEDS_TORCH = {"dlpack_torch", "dlpack_torch_legacy", "export_torch_dlpack"}

HELD = {
    "array": "held = x",
    "view": "held = x[::2] if x.ndim else x[...]",
    "storage": "held = x.storage if hasattr(x, 'storage') and not callable(x.storage) else x",
}

CYCLES = {
    "self_list": "c = [held, reader]; c.append(c)",
    "pair": "p, q = Node(), Node(); p.other, q.other = q, p; p.held = held; q.reader = reader",
    "traceback": ("def fail(h, r):\n"
                  "    raise RuntimeError('held in a frame')\n"
                  "try:\n"
                  "    fail(held, reader)\n"
                  "except RuntimeError as e:\n"
                  "    err = e\n"
                  "err.self = err  # the exception, its traceback and the frame form a cycle"),
}

# Under AddressSanitizer (.ci/sanitize) freed memory waits in ASan's quarantine
# before reuse; it is bounded here to 64 MB (still far more than one
# iteration frees, so a use after free is still caught) and allowed for.
ASAN = "libclang_rt.asan" in os.environ.get("LD_PRELOAD", "")
RSS_LIMIT = (16 << 20) + ((96 << 20) if ASAN else 0)

SCRIPT = """
import gc, pickle, sys
import numpy as np
import arrstride as xp
{torch_import}
gc.freeze()  # the imports: collected objects are the ones each iteration makes
failures = []

def values(h):
    if isinstance(h, xp.Array):
        return h.tolist() if h.size < 10000 else float(xp.sum(h))
    if isinstance(h, np.ndarray) or type(h).__module__.startswith("torch"):
        return h.tolist()
    return h.nbytes  # a Storage: its size is all that is public

class Reader:
    # reads the held object back while the collector finalizes the cycle
    def __init__(self, held):
        self.held = held
        self.expect = values(held)
    def __del__(self):
        if values(self.held) != self.expect:
            failures.append("memory changed under a finalizer")

class Node:
    pass

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096

def one(i):
{source}
    if want is not None and values(x) != want:
        failures.append(f"wrong values at {{i}}")
{held}
    reader = Reader(held)
{cycle}

for i in range(300):
    one(i)
    churn = [bytearray(1000 + 37 * k) for k in range(40)] + [np.empty(300 + k) for k in range(20)]
    del churn
    gc.collect()
    if i == 60:
        base = rss()
grown = rss() - base
if failures:
    print("FAIL", failures[:3]); sys.exit(3)
if grown > LIMIT:
    print("RSS grew", grown); sys.exit(4)
print("ok", grown)
"""


def _indent(code: str) -> str:
    return textwrap.indent(code, "    ")


@pytest.mark.parametrize("cycle", sorted(CYCLES))
@pytest.mark.parametrize("held", sorted(HELD))
@pytest.mark.parametrize("source", sorted(SOURCES))
def test_collector_cannot_crash(source, held, cycle):
    if source in NEEDS_TORCH:
        pytest.importorskip("torch", reason="PyTorch not installed (optional interop partner)")
    script = SCRIPT.format(source=_indent(SOURCES[source]), held=_indent(HELD[held]),
                           cycle=_indent(CYCLES[cycle]),
                           torch_import="import torch, torch.utils.dlpack" if source in NEEDS_TORCH else "")
    env = dict(os.environ)
    if ASAN:
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=64"
    proc = subprocess.run([sys.executable, "-c", script.replace("LIMIT", str(RSS_LIMIT))], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, (f"{source}/{held}/{cycle}: exit {proc.returncode}\n"
                                  f"{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")
    assert proc.stdout.startswith("ok"), proc.stdout


def test_issue_reproduction():
    # the five lines of the issue, verbatim
    script = ("import gc, numpy as np, arrstride as xp\n"
              "a = [xp.asarray(np.arange(3.0))]; a.append(a)\n"
              "del a; gc.collect()\n"
              "print('survived')\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "survived", proc.stderr
    assert "BufferError" not in proc.stderr


def test_export_released_exactly_once():
    # the owner releases a NumPy export when the last view dies, not before
    import gc
    import weakref

    import numpy as np

    import arrstride as xp

    class Holder:
        pass

    n = np.arange(10.0)
    h = Holder()
    h.n = n
    alive = weakref.ref(h)
    x = xp.asarray(n)
    v = x[2:5]
    del x, n
    gc.collect()
    assert v.tolist() == [2.0, 3.0, 4.0]
    del h
    gc.collect()
    assert alive() is None
    # the export still pins the NumPy array: it can't be resized under us
    m = np.zeros(4)
    y = xp.asarray(m)
    with pytest.raises(ValueError):
        m.resize(8)
    del y
    gc.collect()
    m.resize(8)  # released: now it can


def test_own_memory_arrays_are_not_tracked_by_the_collector():
    # an array of its own memory cannot be part of a cycle: the collector does
    # not track it (nor its Storage); an array over a Python object's memory
    # can, and stays tracked so that such a cycle is still collected
    import gc
    import weakref

    import numpy as np

    import arrstride as xp
    for a in (xp.zeros(2), xp.ones(10**5), xp.asarray([1.0, 2.0]), xp.arange(5)[1:], xp.full((2, 2), 3)):
        assert not gc.is_tracked(a) and not gc.is_tracked(a._storage)

    class Exporter:
        def __init__(self):
            self.mem = np.arange(4.0)
            self.__array_interface__ = self.mem.__array_interface__

    e = Exporter()
    e.arr = xp.asarray(e)  # a cycle: e -> arr -> storage -> e
    assert gc.is_tracked(e.arr)
    ref = weakref.ref(e)
    del e
    gc.collect()
    assert ref() is None
