/* Aligned blocks with a bounded cache of large freed blocks, so that a fresh
 * large output does not page-fault on every operation. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "ars_internal.h"

enum { ALIGN = 64, CACHE_SLOTS = 16 };
static const int64_t CACHE_MIN_BLOCK = 1 << 20;  /* smaller blocks go straight to free() */
/* Blocks from this size on are aligned to 2 MiB and asked for transparent huge
 * pages: a streaming kernel then takes one TLB miss per 2 MiB instead of per
 * 4 KiB, and a fresh block faults in 512 times less often. */
static const int64_t HUGE_MIN_BLOCK = (int64_t)4 << 20;
enum { HUGE_ALIGN = 2 << 20 };

typedef struct {
    int64_t capacity;  /* usable bytes after the header */
    char pad[ALIGN - sizeof(int64_t)];
} header;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static header *cache[CACHE_SLOTS];
static int64_t cache_total = 0;
static int64_t cache_limit = (int64_t)1 << 30;

static void cache_prepare(void) { pthread_mutex_lock(&cache_lock); }
static void cache_release(void) { pthread_mutex_unlock(&cache_lock); }
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void install_atfork(void) { pthread_atfork(cache_prepare, cache_release, cache_release); }

static header *take_cached(int64_t nbytes)
{
    header *best = NULL;
    int best_i = -1;
    pthread_once(&atfork_once, install_atfork);
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHE_SLOTS; i++) {
        header *h = cache[i];
        /* Reuse a block no more than twice the request. */
        if (h && h->capacity >= nbytes && h->capacity / 2 <= nbytes &&
            (!best || h->capacity < best->capacity)) {
            best = h;
            best_i = i;
        }
    }
    if (best) {
        cache[best_i] = NULL;
        cache_total -= best->capacity;
    }
    pthread_mutex_unlock(&cache_lock);
    return best;
}

void *ars_alloc(int64_t nbytes)
{
    if (nbytes < 0)
        return NULL;
    if (nbytes >= CACHE_MIN_BLOCK) {
        header *h = take_cached(nbytes);
        if (h)
            return h + 1;
    }
    int64_t cap = nbytes < 1 ? 1 : nbytes;
    cap = (cap + ALIGN - 1) / ALIGN * ALIGN;
    void *p = NULL;
    size_t total = (size_t)(cap + (int64_t)sizeof(header));
    if (cap >= HUGE_MIN_BLOCK) {
        if (posix_memalign(&p, HUGE_ALIGN, total) != 0)
            return NULL;
#ifdef MADV_HUGEPAGE
        /* Advice only: a kernel without THP ignores it. */
        (void)madvise(p, total / HUGE_ALIGN * HUGE_ALIGN, MADV_HUGEPAGE);
#endif
    } else if (posix_memalign(&p, ALIGN, total) != 0) {
        return NULL;
    }
    header *h = p;
    h->capacity = cap;
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
    if (h->capacity >= CACHE_MIN_BLOCK) {
        pthread_once(&atfork_once, install_atfork);
        pthread_mutex_lock(&cache_lock);
        if (cache_total + h->capacity <= cache_limit) {
            for (int i = 0; i < CACHE_SLOTS; i++) {
                if (!cache[i]) {
                    cache[i] = h;
                    cache_total += h->capacity;
                    h = NULL;
                    break;
                }
            }
        }
        pthread_mutex_unlock(&cache_lock);
        if (!h)
            return;
    }
    free(h);
}

int64_t ars_cache_bytes(void)
{
    pthread_mutex_lock(&cache_lock);
    int64_t t = cache_total;
    pthread_mutex_unlock(&cache_lock);
    return t;
}

void ars_cache_clear(void)
{
    header *blocks[CACHE_SLOTS];
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHE_SLOTS; i++) {
        blocks[i] = cache[i];
        cache[i] = NULL;
    }
    cache_total = 0;
    pthread_mutex_unlock(&cache_lock);
    for (int i = 0; i < CACHE_SLOTS; i++)
        free(blocks[i]);
}

void ars_cache_set_limit(int64_t nbytes)
{
    pthread_mutex_lock(&cache_lock);
    cache_limit = nbytes < 0 ? 0 : nbytes;
    pthread_mutex_unlock(&cache_lock);
    if (ars_cache_bytes() > cache_limit)
        ars_cache_clear();
}
