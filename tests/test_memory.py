"""Memory goes back when arrays die: the cache of freed large blocks is bounded,
empties when idle or on request, and its limit is a public knob (also
ARRSTRIDE_CACHE_BYTES). RSS is measured in a fresh subprocess from
/proc/self/statm, so that other tests' allocations do not blur it."""
import os
import subprocess
import sys
import textwrap

import pytest

import arrstride as xp
from arrstride._native import ffi, lib

MiB = 1 << 20

needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/statm"),
                                reason="RSS is read from /proc/self/statm (Linux only)")

PRELUDE = textwrap.dedent("""
    import os, time
    import arrstride as xp
    from arrstride._native import lib
    PAGE = os.sysconf("SC_PAGE_SIZE")
    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * PAGE
    MiB = 1 << 20
""")


# The arrstride this process imported, for the subprocesses too.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(xp.__file__)))
# Under .ci/sanitize (ASan preloaded), freed memory is held in ASan's
# quarantine, and its shadow (1/8 of what was touched) stays resident: turn the
# quarantine off in the RSS subprocesses and allow for the shadow.
ASAN = "libclang_rt.asan" in os.environ.get("LD_PRELOAD", "")


def slack(peak: int) -> int:
    """RSS that may stay after `peak` bytes were touched and freed, beyond the cache."""
    return 32 * MiB + (peak // 8 if ASAN else 0)


def run(body: str, env: dict = None) -> str:
    full_env = dict(os.environ)
    full_env.pop("ARRSTRIDE_CACHE_BYTES", None)
    full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [ROOT, full_env.get("PYTHONPATH")]))
    if ASAN:
        full_env["ASAN_OPTIONS"] = full_env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=0"
    full_env.update(env or {})
    out = subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(body)], env=full_env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


@needs_proc
def test_rss_drops_when_a_large_array_dies():
    out = run("""
        base = rss()
        x = xp.ones(50_000_000, dtype=xp.float64)   # 400 MB, touched
        v = x[::3]                                   # a view keeps it alive
        del x
        held = rss()
        del v
        print(base, held, rss(), lib.ars_cache_bytes(), xp.get_cache_limit())
    """)
    base, held, after, cached, limit = map(int, out.split())
    assert held - base > 380 * MiB
    assert cached <= limit
    assert after - base < limit + slack(400 * MiB)


@needs_proc
def test_rss_bounded_after_many_arrays_die():
    out = run("""
        base = rss()
        arrays = [xp.full(12_500_000, 1.5) for _ in range(12)]   # 12 x 100 MB
        del arrays
        after = rss()
        print(base, after, lib.ars_cache_bytes(), xp.get_cache_limit())
    """)
    base, after, cached, limit = map(int, out.split())
    assert 0 < cached <= limit
    assert after - base < limit + slack(1200 * MiB)


@needs_proc
def test_idle_cache_is_released():
    out = run("""
        def threads():
            with open("/proc/self/status") as f:
                return int(next(l for l in f if l.startswith("Threads:")).split()[1])
        xp.set_num_threads(1)     # no pool workers: the only new thread is the reaper
        base, base_threads = rss(), threads()
        x = xp.ones(12_500_000)   # 100 MB: fits the default limit, so it is parked
        del x
        parked, reaping = lib.ars_cache_bytes(), threads()
        deadline = time.monotonic() + 20
        while lib.ars_cache_bytes() and time.monotonic() < deadline:
            time.sleep(0.05)
        left = lib.ars_cache_bytes()
        # the reaper thread ends once the cache has stayed empty a second;
        # then it has surely returned the block it took out (it frees a block
        # after taking it out of the cache, outside the lock)
        while threads() > base_threads and time.monotonic() < deadline + 10:
            time.sleep(0.05)
        print(parked, left, rss() - base, reaping - base_threads, threads() - base_threads)
    """)
    parked, left, grown, reaper, extra_threads = map(int, out.split())
    assert parked >= 100 * 10**6
    assert left == 0
    assert grown < slack(100 * MiB)
    assert reaper == 1 and extra_threads == 0


@needs_proc
def test_release_cache_gives_memory_back():
    out = run("""
        base = rss()
        x = xp.ones(12_500_000)
        del x
        parked = lib.ars_cache_bytes()
        xp.release_cache()
        print(parked, lib.ars_cache_bytes(), rss() - base)
    """)
    parked, left, grown = map(int, out.split())
    assert parked >= 100 * 10**6
    assert left == 0
    assert grown < slack(100 * MiB)


@needs_proc
def test_failed_allocation_releases_the_cache_and_retries():
    # under an address-space limit the parked blocks are what stands between a
    # request and the limit: a failed allocation gives them back and tries again
    out = run("""
        import resource
        x = xp.ones(22_500_000)  # 180 MB, parked when it dies
        del x
        parked = lib.ars_cache_bytes()
        with open("/proc/self/status") as f:
            vm = next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS, (vm + 200 * MiB, resource.RLIM_INFINITY))
        y = xp.ones(31_250_000)  # 250 MB (and the pool's arenas): fits only once the 180 MB are released
        print(parked, lib.ars_cache_bytes(), int(xp.sum(y)))
    """, env={"ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=0:allocator_may_return_null=1"}
         if ASAN else None)
    parked, left, total = map(int, out.split())
    assert parked >= 180 * 10**6
    assert left == 0
    assert total == 31_250_000


def test_default_limit_and_env_var():
    assert int(run("print(xp.get_cache_limit())")) == 192 * MiB
    assert int(run("print(xp.get_cache_limit())", {"ARRSTRIDE_CACHE_BYTES": "64M"})) == 64 * MiB
    assert int(run("print(xp.get_cache_limit())", {"ARRSTRIDE_CACHE_BYTES": "12345"})) == 12345
    assert int(run("print(xp.get_cache_limit())", {"ARRSTRIDE_CACHE_BYTES": "1g"})) == 1 << 30
    out = run("""
        x = xp.ones(2_000_000)   # 16 MB
        del x
        print(lib.ars_cache_bytes())
    """, {"ARRSTRIDE_CACHE_BYTES": "0"})
    assert int(out) == 0


def test_bad_env_var_is_a_clear_error():
    full_env = dict(os.environ, ARRSTRIDE_CACHE_BYTES="lots")
    full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [ROOT, full_env.get("PYTHONPATH")]))
    out = subprocess.run([sys.executable, "-c", "import arrstride"], env=full_env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode != 0
    assert "ARRSTRIDE_CACHE_BYTES" in out.stderr and "ValueError" in out.stderr


def test_set_cache_limit_knob():
    old = xp.get_cache_limit()
    try:
        xp.release_cache()
        xp.set_cache_limit(64 * MiB)
        assert xp.get_cache_limit() == 64 * MiB
        x = xp.ones(4_000_000)   # 32 MB: parked on death
        y = xp.ones(4_000_000)
        z = xp.ones(4_000_000)
        del x, y, z              # the third does not fit: the oldest is evicted
        assert 0 < lib.ars_cache_bytes() <= 64 * MiB
        a = xp.ones(4_000_000)   # reuses a parked block
        assert lib.ars_cache_bytes() <= 32 * MiB + MiB
        assert float(xp.sum(a)) == 4_000_000.0
        del a
        xp.set_cache_limit(0)    # lowering the limit frees what no longer fits
        assert lib.ars_cache_bytes() == 0
        b = xp.ones(4_000_000)
        del b
        assert lib.ars_cache_bytes() == 0
    finally:
        xp.set_cache_limit(old)
        xp.release_cache()


@pytest.mark.parametrize("bad, exc", [(-1, ValueError), (1.5, TypeError), (True, TypeError), ("1M", TypeError)])
def test_set_cache_limit_rejects(bad, exc):
    with pytest.raises(exc, match="set_cache_limit"):
        xp.set_cache_limit(bad)


def test_reused_block_is_correct():
    """A block taken from the cache holds stale data: every fresh result must
    still be exactly right, and zeros() must be zero."""
    old = xp.get_cache_limit()
    try:
        xp.set_cache_limit(64 * MiB)
        n = 1_000_000
        x = xp.full(n, 7.0)
        del x
        z = xp.zeros(n)
        assert float(xp.max(xp.abs(z))) == 0.0
        e = xp.empty(n)
        e[...] = 2.0
        assert float(xp.sum(e)) == 2.0 * n
    finally:
        xp.set_cache_limit(old)
        xp.release_cache()


def test_mid_size_blocks_are_cached_last_parked_first():
    """Blocks from 64 KiB on go through the cache (a chain of 800 KB
    temporaries no longer hands pages back to the system on every call), and
    of two equal parked blocks the last parked is reused (still in cache)."""
    from arrstride import _storage
    assert _storage.SMALL_BLOCK == lib.ars_cache_min_block() == 1 << 16
    xp.release_cache()
    a = xp.ones(100_000)          # 800 KB
    b = xp.ones(100_000)
    addr_b = b._storage.address
    del a
    parked = lib.ars_cache_bytes()
    assert parked >= 800_000
    del b                          # parked last
    assert lib.ars_cache_bytes() >= parked + 800_000
    c = xp.zeros(100_000)          # zeroed, from block b's dirty memory
    assert c._storage.address == addr_b
    assert float(xp.sum(c)) == 0.0
    d = c * 2.0                    # a block _core allocates itself
    assert d._storage.address % 64 == 0 and d._storage.address != addr_b
    assert float(xp.sum(d)) == 0.0
    small = xp.ones(8000)          # 64000 bytes: below the cached sizes
    before = lib.ars_cache_bytes()
    del small
    assert lib.ars_cache_bytes() == before
    xp.release_cache()


@pytest.mark.parametrize("n", [2**60 - 1, 2**60, 2**61 + 3, 2**63 - 1])
def test_huge_requests_are_memory_errors(n):
    with pytest.raises(MemoryError):
        xp.empty(n, dtype=xp.uint8 if n >= 2**63 - 1 else xp.float64)


@pytest.mark.parametrize("nbytes", [2**63 - 1, 2**63 - 64, 2**63 - 65, 2**62])
def test_alloc_near_int64_max_returns_null(nbytes):
    assert lib.ars_alloc(nbytes) == ffi.NULL
    assert lib.ars_alloc_zeroed(nbytes) == ffi.NULL


def _peak_rss_growth(setup: str, stmt: str, env: dict = None) -> tuple:
    """(peak RSS growth of stmt in bytes, the bytes of the result) in a fresh
    process: VmHWM (the high-water mark) before and after stmt."""
    out = run(f"""
        def hwm():
            with open("/proc/self/status") as f:
                return next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmHWM"))
        {setup}
        before = hwm()
        {stmt}
        print(hwm() - before, out.size * out.dtype.itemsize)
    """, env)
    return tuple(map(int, out.split()))


@needs_proc
@pytest.mark.parametrize("fast", ["1", "0"])
@pytest.mark.parametrize("stmt", [
    "x += y; out = x",                                    # float32 += float64, in place
    "out = xp.exp(h)",                                    # float16 through float32 blocks
    "out = xp.add(x, i)",                                 # float32 + int32: float64 result
    "out = xp.sum(h)",                                    # a float16 sum
    "out = xp.max(h)",                                    # float16 read in float32 blocks
    "out = xp.argmax(h)",                                 # float16 compared as float32
    "out = xp.cumulative_sum(h)",                         # float32 running sum, float16 out
    "out = xp.where(c, x, y)",                            # float32 values, float64 result
    "out = xp.clip(h, 0.0, x[:1])",                       # float16 through float32 blocks
    "out = xp.clip(x, i, y)",                             # bounds cast into float32 per block
    "out = xp.isin(x, y[:5])",                            # float32 looked up as float64
    "out = xp.sort(h)",                                   # float16 sorted as it is
    "out = xp.argsort(h)",                                # float16 keys, int64 result
    "out = xp.unique_values(h)",                          # float16 keys counted
    "out = xp.vecdot(xp.reshape(h, (n // 8, 8)), h[:8])",  # float16 dots read in C
    "out = xp.reshape(h, (n // 64, 8, 8)) @ xp.reshape(h[:64], (8, 8))",  # float32 per matrix
    "out = xp.linalg.vector_norm(xp.reshape(h, (n // 8, 8)), axis=-1)",  # float16 norms in C
    "out = xp.fft.rfft(xp.reshape(h, (n // 64, 64)))",  # float16 lines read as float32
    "out = xp.fft.fft(xp.reshape(x, (n // 64, 64)))",  # float32 lines read as complex
])
def test_dtype_conversion_makes_no_full_size_temporary(stmt, fast):
    # x: 32 MB of float32, y: 64 MB of float64, h: 16 MB of float16, i: int32;
    # each written (touched) before the mark. A full-size converted copy of an
    # operand would add at least 32 MB to the peak.
    grow, out_bytes = _peak_rss_growth(
        "n = 8_000_000; x = xp.ones(n, dtype=xp.float32); y = xp.full(n, 2.0); "
        "h = xp.ones(n, dtype=xp.float16); i = xp.ones(n, dtype=xp.int32); "
        "w = xp.ones(8, dtype=xp.float32); w += xp.ones(8); xp.exp(h[:8]); xp.sum(h[:8]); "
        "xp.max(h[:8]); xp.argmax(h[:8]); xp.cumulative_sum(h[:8]); "
        "c = xp.ones(n, dtype=xp.bool); xp.where(c[:8], x[:8], y[:8]); xp.clip(h[:8], 0.0, x[:1]); "
        "xp.clip(x[:8], i[:8], y[:8]); xp.isin(x[:8], y[:5]); xp.vecdot(h[:8], h[:8]); "
        "xp.reshape(h[:64], (8, 8)) @ xp.reshape(h[:64], (8, 8)); xp.linalg.vector_norm(h[:8]); "
        "xp.fft.rfft(xp.reshape(h[:128], (2, 64))); xp.fft.fft(xp.reshape(x[:128], (2, 64)))",
        stmt, {"ARRSTRIDE_FAST_PATHS": fast})
    assert grow <= out_bytes * (0 if stmt.startswith("x +=") else 1) + 8 * MiB + (out_bytes // 4 if ASAN else 0)


@needs_proc
@pytest.mark.parametrize("d", ["float16", "bfloat16"])
def test_unstable_narrow_sort_needs_only_its_keys(d):
    # the quicksort of 2-byte floats works on 4-byte keys: the output and the
    # keys (twice the output's bytes), nothing else of the input's size
    grow, out_bytes = _peak_rss_growth(
        f"n = 8_000_000; h = xp.astype(xp.random.default_rng(0).standard_normal(n), xp.{d}); "
        "xp.sort(h[:100_000], stable=False)",
        "out = xp.sort(h, stable=False)")
    assert grow <= 3 * out_bytes + 8 * MiB + (out_bytes // 4 if ASAN else 0)
