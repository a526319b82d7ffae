"""The ThreadSanitizer canary (.ci/tsan): two threads fill one buffer at once
through _native's ars_fill, with nothing ordering their writes: a data race in
instrumented code, which TSan must report.

The GIL orders everything else the threads do, so TSan sees the race only if
one thread takes the GIL while the other is still inside its fill. A short
fill ends within one time slice, and on a busy machine every call can then
run alone; so each fill is long (2**21 stores), and goes over the same 64
elements again and again (the outer dimension has stride 0): the stores
that race are always recent, and TSan can rebuild both stacks from its
trace (it drops a report whose older store has left the trace)."""
import threading

from arrstride._native import ffi, lib

ROWS, COLS = 1 << 15, 64
buf = ffi.new("int64_t[]", COLS)
shape = ffi.new("int64_t[]", [ROWS, COLS])
strides = ffi.new("int64_t[]", [0, 8])
start = threading.Barrier(2)


def fill(v):
    value = ffi.new("int64_t *", v)
    start.wait()
    for _ in range(20):
        lib.ars_fill(2, shape, ffi.cast("char *", buf), strides, 8, value)


threads = [threading.Thread(target=fill, args=(v,)) for v in (1, 2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
