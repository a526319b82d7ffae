"""The ThreadSanitizer canary (.ci/tsan): two threads fill one buffer at once
through _native's ars_fill, with nothing ordering their writes: a data race in
instrumented code, which TSan must report."""
import threading

from arrstride._native import ffi, lib

N = 1 << 12
buf = ffi.new("char[]", N * 8)
shape = ffi.new("int64_t[]", [N])
strides = ffi.new("int64_t[]", [8])
start = threading.Barrier(2)


def fill(v):
    value = ffi.new("int64_t *", v)
    start.wait()
    for _ in range(200):
        lib.ars_fill(1, shape, buf, strides, 8, value)


threads = [threading.Thread(target=fill, args=(v,)) for v in (1, 2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
