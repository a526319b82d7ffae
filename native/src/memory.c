/* Aligned blocks with a small cache of large freed blocks, so that a fresh
 * large output does not page-fault on every operation (`x + y` on 1e7 float64
 * runs about twice as fast with its output block reused).
 *
 * The cache is bounded (DEFAULT_LIMIT, changed by
 * ars_cache_set_limit) and gives memory back: a block parked longer than
 * IDLE_NS is freed by a background thread (which ends itself once the cache
 * has stayed empty as long), so an idle process holds no cached block and no
 * extra thread after a couple of seconds; ars_cache_clear frees them all at
 * once.
 *
 * Under AddressSanitizer, a parked block, the rounding slack after a live
 * block and each block's header are poisoned, so that overruns into them are
 * reported as they would be with plain malloc. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ars_internal.h"
#include "platform.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARS_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(ARS_ASAN)
#define ARS_ASAN 1
#endif
#ifdef ARS_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (size_t)(n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (size_t)(n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

enum { ALIGN = 64, CACHE_SLOTS = 32 };
/* Smaller blocks go straight back (ars_aligned_free). From 64 KiB on they are parked too:
 * glibc serves such blocks from the heap's top once its mmap threshold has
 * risen, and frees past its trim threshold shrink the heap, so a chain such as
 * sqrt(y * y) on 1e5 float64 (two 800 KB temporaries) gave the pages back and
 * faulted them in again on every call: 414 us, against 40 for sqrt(z). */
static const int64_t CACHE_MIN_BLOCK = 1 << 16;
/* Blocks from this size on are aligned to 2 MiB and asked for transparent huge
 * pages: a streaming kernel then takes one TLB miss per 2 MiB instead of per
 * 4 KiB, and a fresh block faults in 512 times less often. */
static const int64_t HUGE_MIN_BLOCK = (int64_t)4 << 20;
enum { HUGE_ALIGN = 2 << 20 };
/* The largest request served: the rounding and the header below must not
 * overflow int64_t (no machine has this much memory anyway). */
static const int64_t MAX_REQUEST = INT64_MAX - 2 * HUGE_ALIGN;
/* A parked block unused this long is freed by the reaper thread. */
static const int64_t IDLE_NS = 1000000000;
/* Room for two 1e7-element float64 temporaries (80 MB each), the most a chain
 * like `(x + y) * z` keeps in flight. */
static const int64_t DEFAULT_LIMIT = (int64_t)192 << 20;

typedef struct {
    int64_t capacity;  /* usable bytes after the header, a multiple of ALIGN */
    int64_t parked;    /* CLOCK_MONOTONIC ns when it entered the cache */
    char pad[ALIGN - 2 * sizeof(int64_t)];
} header;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cache_cv;  /* initialized in cache_init (monotonic clock) */
static header *cache[CACHE_SLOTS];
static int64_t cache_total = 0;
static int64_t cache_limit = DEFAULT_LIMIT;
static pid_t reaper_pid = 0;  /* the process whose reaper thread runs, or 0 */

static void cache_prepare(void) { pthread_mutex_lock(&cache_lock); }
static void cache_parent(void) { pthread_mutex_unlock(&cache_lock); }
static void cache_child(void)
{
    /* Only the forking thread exists in the child: fresh lock and condition,
     * and no reaper until the next block is parked. */
    pthread_condattr_t attr;
    pthread_mutex_init(&cache_lock, NULL);
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&cache_cv, &attr);
    pthread_condattr_destroy(&attr);
    reaper_pid = 0;
}
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static void cache_init(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&cache_cv, &attr);
    pthread_condattr_destroy(&attr);
    ars_atfork(cache_prepare, cache_parent, cache_child);
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Remove slot i from the cache (lock held) and return its block. */
static header *unpark(int i)
{
    header *h = cache[i];
    cache[i] = NULL;
    cache_total -= h->capacity;
    return h;
}

/* Give a block back to the system; its header is unpoisoned. */
static void release_block(header *h)
{
    UNPOISON(h + 1, h->capacity);
    ars_aligned_free(h);
}

static void wait_until(int64_t due)
{
    struct timespec ts = {.tv_sec = due / 1000000000, .tv_nsec = due % 1000000000};
    pthread_cond_timedwait(&cache_cv, &cache_lock, &ts);
}

/* Frees every parked block older than IDLE_NS. Ends once the cache has been
 * empty for IDLE_NS (no thread stays behind in an idle process); the next
 * parked block starts another. */
static void *reaper(void *arg)
{
    (void)arg;
    int64_t empty_since = -1;
    pthread_mutex_lock(&cache_lock);
    for (;;) {
        int64_t oldest = INT64_MAX;
        for (int i = 0; i < CACHE_SLOTS; i++)
            if (cache[i] && cache[i]->parked < oldest)
                oldest = cache[i]->parked;
        int64_t now = now_ns();
        if (oldest == INT64_MAX) {
            if (empty_since < 0)
                empty_since = now;
            if (now - empty_since >= IDLE_NS)
                break;
            wait_until(empty_since + IDLE_NS);
            continue;
        }
        empty_since = -1;
        if (now - oldest < IDLE_NS) {
            wait_until(oldest + IDLE_NS);
            continue;
        }
        header *idle[CACHE_SLOTS];
        int n = 0;
        for (int i = 0; i < CACHE_SLOTS; i++)
            if (cache[i] && now - cache[i]->parked >= IDLE_NS)
                idle[n++] = unpark(i);
        pthread_mutex_unlock(&cache_lock);
        for (int i = 0; i < n; i++)
            release_block(idle[i]);
        pthread_mutex_lock(&cache_lock);
    }
    reaper_pid = 0;
    pthread_mutex_unlock(&cache_lock);
    return NULL;
}

/* Start this process's reaper if it is not running (lock held). Without one
 * (thread creation failed) the cache is still bounded by its limit. */
static void ensure_reaper(void)
{
    /* reaper_pid is this process's (the fork handler zeroes it in a child):
     * no getpid() system call on every park */
    if (reaper_pid != 0)
        return;
    pid_t pid = getpid();
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 256 << 10);
    if (pthread_create(&t, &attr, reaper, NULL) == 0)
        reaper_pid = pid;
    pthread_attr_destroy(&attr);
}

static header *take_cached(int64_t nbytes)
{
    header *best = NULL;
    int best_i = -1;
    pthread_once(&cache_once, cache_init);
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHE_SLOTS; i++) {
        header *h = cache[i];
        /* Reuse a block no more than twice the request: the smallest, and
         * of equal ones the last parked (its lines may still be in cache). */
        if (h && h->capacity >= nbytes && h->capacity / 2 <= nbytes &&
            (!best || h->capacity < best->capacity ||
             (h->capacity == best->capacity && h->parked > best->parked))) {
            best = h;
            best_i = i;
        }
    }
    if (best)
        unpark(best_i);
    pthread_mutex_unlock(&cache_lock);
    return best;
}

static void trim(int64_t keep);

/* An aligned block, and once more after the parked blocks are given back when
 * the first try fails (an address-space or overcommit limit the cache fills). */
static void *aligned_block(size_t align, size_t total)
{
    void *p = ars_aligned_alloc(align, total);
    if (p != NULL || ars_cache_bytes() == 0)
        return p;
    trim(0);
    return ars_aligned_alloc(align, total);
}

void *ars_alloc(int64_t nbytes)
{
    if (nbytes < 0 || nbytes > MAX_REQUEST)
        return NULL;
    int64_t used = nbytes < 1 ? 1 : nbytes;  /* the bytes the caller may touch */
    header *h = NULL;
    if (nbytes >= CACHE_MIN_BLOCK)
        h = take_cached(nbytes);
    if (!h) {
        int64_t cap = (used + (ALIGN - 1)) / ALIGN * ALIGN;  /* no overflow: used <= MAX_REQUEST */
        size_t total = (size_t)cap + sizeof(header);
        void *p = aligned_block(cap >= HUGE_MIN_BLOCK ? HUGE_ALIGN : ALIGN, total);
        if (p == NULL)
            return NULL;
        if (cap >= HUGE_MIN_BLOCK)
            ars_advise_huge(p, total / HUGE_ALIGN * HUGE_ALIGN);
        h = p;
        h->capacity = cap;
    }
    /* The caller sees [0, used); the slack after it and the header stay
     * poisoned until ars_free. */
    POISON(h + 1, h->capacity);
    UNPOISON(h + 1, used);
    POISON(h, sizeof(header));
    return h + 1;
}

void *ars_alloc_zeroed(int64_t nbytes)
{
    void *p = ars_alloc(nbytes);
    if (p)
        memset(p, 0, (size_t)(nbytes < 1 ? 1 : nbytes));
    return p;
}

void ars_free(void *ptr)
{
    if (!ptr)
        return;
    header *h = (header *)ptr - 1;
    UNPOISON(h, sizeof(header));
    if (h->capacity >= CACHE_MIN_BLOCK) {
        header *evicted[CACHE_SLOTS];
        int n = 0;
        pthread_once(&cache_once, cache_init);
        pthread_mutex_lock(&cache_lock);
        if (h->capacity <= cache_limit) {
            /* Make room by dropping the longest-parked blocks. */
            for (;;) {
                int free_slot = -1, oldest = -1;
                for (int i = 0; i < CACHE_SLOTS; i++) {
                    if (!cache[i])
                        free_slot = i;
                    else if (oldest < 0 || cache[i]->parked < cache[oldest]->parked)
                        oldest = i;
                }
                if (free_slot >= 0 && cache_total + h->capacity <= cache_limit) {
                    POISON(h + 1, h->capacity);
                    h->parked = now_ns();
                    cache[free_slot] = h;
                    cache_total += h->capacity;
                    h = NULL;
                    /* No signal: the reaper always sleeps until a deadline
                     * (the oldest block's, or an empty cache's), which a newly
                     * parked block cannot bring forward; a wake-up per park
                     * cost more than the 160 KB kernel that freed it. */
                    ensure_reaper();
                    break;
                }
                evicted[n++] = unpark(oldest);  /* oldest >= 0: the cache cannot be empty here */
            }
        }
        pthread_mutex_unlock(&cache_lock);
        for (int i = 0; i < n; i++)
            release_block(evicted[i]);
        if (!h)
            return;
    }
    release_block(h);
}

int64_t ars_cache_min_block(void) { return CACHE_MIN_BLOCK; }

int64_t ars_cache_bytes(void)
{
    pthread_mutex_lock(&cache_lock);
    int64_t t = cache_total;
    pthread_mutex_unlock(&cache_lock);
    return t;
}

int64_t ars_cache_limit(void)
{
    pthread_mutex_lock(&cache_lock);
    int64_t t = cache_limit;
    pthread_mutex_unlock(&cache_lock);
    return t;
}

/* Free parked blocks, oldest first, until at most `keep` bytes remain. */
static void trim(int64_t keep)
{
    header *blocks[CACHE_SLOTS];
    int n = 0;
    pthread_mutex_lock(&cache_lock);
    while (cache_total > keep) {
        int oldest = -1;
        for (int i = 0; i < CACHE_SLOTS; i++)
            if (cache[i] && (oldest < 0 || cache[i]->parked < cache[oldest]->parked))
                oldest = i;
        blocks[n++] = unpark(oldest);
    }
    pthread_mutex_unlock(&cache_lock);
    for (int i = 0; i < n; i++)
        release_block(blocks[i]);
}

void ars_cache_clear(void)
{
    trim(0);
}

void ars_cache_set_limit(int64_t nbytes)
{
    pthread_mutex_lock(&cache_lock);
    cache_limit = nbytes < 0 ? 0 : nbytes;
    pthread_mutex_unlock(&cache_lock);
    trim(nbytes < 0 ? 0 : nbytes);
}
