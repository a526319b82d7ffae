/* Threads for large work: a persistent pool.
 *
 * Workers are started on first need and kept. A parallel region splits [0, n)
 * into chunks, and the calling thread and the workers claim them one at a time
 * from one atomic ticket. The caller never waits for a worker that has not
 * started, has not woken or has lost its CPU: it claims chunks like any worker,
 * and once none is left it waits only for the chunks other threads claimed and
 * are still running. A worker that arrives after the last chunk was claimed
 * finds nothing to do and goes back to waiting. On a machine with more runnable
 * threads than cores a region therefore costs at most about its one-thread time
 * (plus the chunk a preempted worker holds), where a pool that waited for every
 * posted worker took a scheduler time slice or more per region.
 *
 * The ticket packs (generation, chunk count, next chunk): a claim is one
 * compare-and-swap that succeeds only while its region is current and has a
 * chunk left, so a worker still running from an earlier region can never take
 * a chunk of the next one, and the job's fields are stable for as long as any
 * claimed chunk is unfinished (the caller does not return before then).
 *
 * Waiting gives way: after a job a worker spins for a few tens of
 * microseconds (back-to-back kernels find it awake), yielding the CPU after
 * the first few, then sleeps on its condition variable; a caller waiting for
 * claimed chunks does the same on one shared condition variable.
 *
 * One region runs at a time; a region started while another runs (another
 * Python thread, or a kernel called from inside a region) runs on its caller's
 * thread alone.
 *
 * Fork: a prepare handler waits for the running region, the parent carries
 * on, and the child, which has none of the workers, forgets them and starts
 * new ones when it first needs them. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ars_internal.h"
#include "platform.h"

enum { MAX_THREADS = 256 };
/* Bytes of memory traffic one thread should get before another is worth waking:
 * about 5 us of in-cache streaming work on a current x86 core, the cost of
 * waking a sleeping worker (a spinning one costs far less). */
static const int64_t BYTES_PER_THREAD = 1 << 19;
/* How long a worker (or a waiting caller) spins before it sleeps, and how
 * much of that it spins without yielding the CPU. */
static const int64_t SPIN_NS = 50000;
static const int64_t PAUSE_NS = 3000;
/* A worker that ran out of chunks while the region's other threads still run
 * theirs keeps spinning until the region ends (and SPIN_NS after), for at most
 * this long: back-to-back regions then find it awake. A caller waiting for a
 * claimed chunk spins for up to its own mean chunk's length, within the same
 * bound, before it sleeps. On an idle virtual machine a sleeping thread's CPU
 * halts, and waking it costs far more than the spin (memory-bound 1e7-element
 * kernels ran at their one-thread speed when every region woke its worker). */
static const int64_t HOLD_NS = 1000000;
/* A region whose caller waited this long for a claimed chunk, and longer than
 * twice its own share of the work took, met a worker that lost its CPU in the
 * middle of a chunk (the machine is oversubscribed; an idle machine makes the
 * caller wait a chunk's length at most). The regions that start in the next
 * BACKOFF_NS then run on their caller alone, so that such a loss is paid once
 * per window rather than per region. */
static const int64_t LATE_NS = 500000;
static const int64_t BACKOFF_NS = 20000000;
/* Chunks per thread: enough for the caller to absorb a late worker's share,
 * and small enough pieces that a worker preempted in the middle of one holds
 * the caller up for little. */
enum { CHUNKS_PER_THREAD = 4 };

static int num_threads = 0;  /* 0: not yet set, use the default */

/* The default thread count: set by Python at import from the CPU affinity
 * mask and the cgroup quota (arrstride/_cpus.py); without that, the online
 * cores, read once (the count reads /sys and costs tens of microseconds, far
 * more than a small kernel). */
static int default_count = 0;

static int default_threads(void)
{
    int n = __atomic_load_n(&default_count, __ATOMIC_RELAXED);
    if (n == 0) {
        long c = ars_online_cpus();
        n = c > MAX_THREADS ? MAX_THREADS : (int)c;
        __atomic_store_n(&default_count, n, __ATOMIC_RELAXED);
    }
    return n;
}

int ars_get_num_threads(void)
{
    int n = __atomic_load_n(&num_threads, __ATOMIC_RELAXED);
    return n > 0 ? n : default_threads();
}

int64_t ars_parallel_grain(int64_t work_per_elem)
{
    if (work_per_elem < 1)
        work_per_elem = 1;
    int64_t g = BYTES_PER_THREAD / work_per_elem;
    return g < 1 ? 1 : g;
}

/* ---- the pool ---------------------------------------------------------------- */

typedef struct {
    _Alignas(64) uint32_t post;  /* the generation of the last region posted to it */
    int quit;                    /* set by shrink: the worker returns */
    int sleeping;                /* the worker is (about to be) in cond_wait */
    pthread_t tid;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} worker;

/* workers[0] stands for the calling thread and is never started. */
static worker workers[MAX_THREADS];
static int nworkers = 0;  /* workers[1..nworkers] are running threads */

/* One region at a time; also held across fork. */
static pthread_mutex_t submit_mu = PTHREAD_MUTEX_INITIALIZER;
/* The caller sleeps here when a claimed chunk takes long to finish. */
static pthread_mutex_t done_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;
static int caller_waiting = 0;

/* The ticket: generation in the high 32 bits, the region's chunk count in the
 * next 16, the next chunk to claim in the low 16. */
enum { MAX_CHUNKS = 0xffff };
static inline uint64_t ticket_of(uint32_t gen, int64_t nchunks)
{
    return (uint64_t)gen << 32 | (uint64_t)nchunks << 16;
}

/* The current region: the fields are written by the caller before it
 * publishes the ticket, and read by a thread only after it has claimed a
 * chunk of that region. */
static struct {
    _Alignas(64) uint64_t ticket;
    _Alignas(64) int64_t done;     /* chunks finished (atomic) */
    int active;                    /* a region is under way (atomic) */
    ars_range_fn fn;
    void *ctx;
    int64_t n, nchunks;
    int64_t intr_base;             /* the caller's Ctrl-C arming (interrupt.c) */
    uint32_t gen;                  /* the last generation published */
} job;

static _Thread_local int in_region = 0;  /* on a worker, or a caller inside a region */
static int64_t backoff_until = 0;  /* CLOCK_MONOTONIC ns; regions start alone before it */
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Spin until cond holds, for at most limit ns, or while hold is true (for up
 * to HOLD_NS) and limit ns after. After the first PAUSE_NS the spin yields
 * the CPU at each turn: when
 * the machine has more runnable threads than cores (a preempted worker holding
 * a chunk, perhaps on this very core), they run instead of the spinner; on an
 * idle machine sched_yield returns at once. */
#define SPIN_UNTIL(cond, hold, limit)                       \
    do {                                                    \
        int64_t t0_ = 0, start_ = 0;                        \
        int yielding_ = 0;                                  \
        for (int i_ = 0; !(cond); i_++) {                   \
            if (yielding_) {                                \
                sched_yield();                              \
                int64_t t_ = now_ns();                      \
                if ((hold) && t_ - start_ < HOLD_NS)        \
                    t0_ = t_;                               \
                else if (t_ - t0_ > (limit))                \
                    break;                                  \
                continue;                                   \
            }                                               \
            if ((i_ & 63) == 63) {                          \
                int64_t t_ = now_ns();                      \
                if (t0_ == 0)                               \
                    t0_ = start_ = t_;                      \
                else if (t_ - t0_ > PAUSE_NS)               \
                    yielding_ = 1;                          \
            }                                               \
            cpu_relax();                                    \
        }                                                   \
    } while (0)

/* Claim and run chunks of region `gen` until none is left (or the region is no
 * longer current); the number run. */
static int64_t run_chunks(uint32_t gen)
{
    int64_t ran = 0;
    uint64_t t = __atomic_load_n(&job.ticket, __ATOMIC_ACQUIRE);
    for (;;) {
        int64_t nchunks = (int64_t)(t >> 16 & MAX_CHUNKS);
        int64_t c = (int64_t)(t & MAX_CHUNKS);
        if ((uint32_t)(t >> 32) != gen || c >= nchunks)
            return ran;
        if (!__atomic_compare_exchange_n(&job.ticket, &t, t + 1, 0, __ATOMIC_ACQ_REL,
                                         __ATOMIC_ACQUIRE))
            continue;  /* t now holds the current ticket */
        /* A chunk runs armed as its caller is; after a Ctrl-C the rest of an
         * armed region's chunks are skipped (its output is dropped). */
        ars_intr_base = job.intr_base;
        ran++;
        if (!ars_interrupted())
            job.fn(ars_split(job.n, c, nchunks), ars_split(job.n, c + 1, nchunks), job.ctx);
        if (__atomic_add_fetch(&job.done, 1, __ATOMIC_SEQ_CST) == nchunks &&
            __atomic_load_n(&caller_waiting, __ATOMIC_SEQ_CST)) {
            pthread_mutex_lock(&done_mu);
            pthread_cond_broadcast(&done_cv);
            pthread_mutex_unlock(&done_mu);
        }
        t = __atomic_load_n(&job.ticket, __ATOMIC_ACQUIRE);
    }
}

static void *worker_main(void *p)
{
    worker *w = p;
    in_region = 1;
    uint32_t seen = __atomic_load_n(&w->post, __ATOMIC_ACQUIRE);
    for (;;) {
        SPIN_UNTIL(__atomic_load_n(&w->post, __ATOMIC_ACQUIRE) != seen ||
                   __atomic_load_n(&w->quit, __ATOMIC_ACQUIRE),
                   __atomic_load_n(&job.active, __ATOMIC_ACQUIRE), SPIN_NS);
        if (__atomic_load_n(&w->post, __ATOMIC_ACQUIRE) == seen &&
            !__atomic_load_n(&w->quit, __ATOMIC_ACQUIRE)) {
            pthread_mutex_lock(&w->mu);
            __atomic_store_n(&w->sleeping, 1, __ATOMIC_SEQ_CST);
            while (__atomic_load_n(&w->post, __ATOMIC_SEQ_CST) == seen &&
                   !__atomic_load_n(&w->quit, __ATOMIC_SEQ_CST))
                pthread_cond_wait(&w->cv, &w->mu);
            __atomic_store_n(&w->sleeping, 0, __ATOMIC_RELAXED);
            pthread_mutex_unlock(&w->mu);
        }
        if (__atomic_load_n(&w->quit, __ATOMIC_ACQUIRE))
            return NULL;
        seen = __atomic_load_n(&w->post, __ATOMIC_ACQUIRE);
        run_chunks(seen);
    }
}

/* Wake worker w if it sleeps (after its post or quit flag was set). */
static void wake(worker *w)
{
    if (__atomic_load_n(&w->sleeping, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&w->mu);
        pthread_cond_signal(&w->cv);
        pthread_mutex_unlock(&w->mu);
    }
}

/* Wait until every chunk of the current region has finished, spinning for up
 * to spin_ns first. */
static void wait_done(int64_t nchunks, int64_t spin_ns)
{
    SPIN_UNTIL(__atomic_load_n(&job.done, __ATOMIC_ACQUIRE) == nchunks, 0, spin_ns);
    if (__atomic_load_n(&job.done, __ATOMIC_ACQUIRE) == nchunks)
        return;
    pthread_mutex_lock(&done_mu);
    __atomic_store_n(&caller_waiting, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&job.done, __ATOMIC_SEQ_CST) != nchunks)
        pthread_cond_wait(&done_cv, &done_mu);
    __atomic_store_n(&caller_waiting, 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&done_mu);
}

/* Stop workers[keep+1..]; submit_mu held, so none is inside a chunk. */
static void shrink(int keep)
{
    for (int k = nworkers; k > keep; k--) {
        __atomic_store_n(&workers[k].quit, 1, __ATOMIC_SEQ_CST);
        wake(&workers[k]);
        pthread_join(workers[k].tid, NULL);
        pthread_cond_destroy(&workers[k].cv);
        pthread_mutex_destroy(&workers[k].mu);
    }
    if (nworkers > keep)
        nworkers = keep;
}

static void before_fork(void) { pthread_mutex_lock(&submit_mu); }
static void after_fork_parent(void) { pthread_mutex_unlock(&submit_mu); }

/* In the child only the forking thread exists: the workers, and any lock they
 * held, are gone. Start from an empty pool. */
static void after_fork_child(void)
{
    memset(workers, 0, sizeof workers);
    nworkers = 0;
    caller_waiting = 0;
    job.active = 0;
    pthread_mutex_init(&done_mu, NULL);
    pthread_cond_init(&done_cv, NULL);
    pthread_mutex_init(&submit_mu, NULL);
}

static void register_atfork(void)
{
    ars_atfork(before_fork, after_fork_parent, after_fork_child);
}

/* Start workers up to workers[want]; submit_mu held. Stops at the first
 * failure: fewer workers only means fewer helpers. */
static void grow(int want)
{
    if (want <= nworkers)
        return;
    pthread_once(&atfork_once, register_atfork);
    /* Workers take no signals: Python handles them on its own threads. */
    ars_sigmask old;
    ars_block_signals(&old);
    while (nworkers < want) {
        worker *w = &workers[nworkers + 1];
        w->post = job.gen;
        w->quit = 0;
        w->sleeping = 0;
        if (pthread_mutex_init(&w->mu, NULL) != 0)
            break;
        if (pthread_cond_init(&w->cv, NULL) != 0) {
            pthread_mutex_destroy(&w->mu);
            break;
        }
        if (pthread_create(&w->tid, NULL, worker_main, w) != 0) {
            pthread_cond_destroy(&w->cv);
            pthread_mutex_destroy(&w->mu);
            break;
        }
        nworkers++;
    }
    ars_restore_signals(&old);
}

int ars_set_num_threads(int n)
{
    if (n < 0 || n > MAX_THREADS)
        return ARS_ERR_ARG;
    pthread_mutex_lock(&submit_mu);
    __atomic_store_n(&num_threads, n, __ATOMIC_RELAXED);
    shrink(ars_get_num_threads() - 1);
    pthread_mutex_unlock(&submit_mu);
    return ARS_OK;
}

int ars_set_default_threads(int n)
{
    if (n < 1 || n > MAX_THREADS)
        return ARS_ERR_ARG;
    pthread_mutex_lock(&submit_mu);
    __atomic_store_n(&default_count, n, __ATOMIC_RELAXED);
    shrink(ars_get_num_threads() - 1);
    pthread_mutex_unlock(&submit_mu);
    return ARS_OK;
}

int ars_parallel_own_workers(void)
{
    pthread_mutex_lock(&submit_mu);
    int n = nworkers;
    pthread_mutex_unlock(&submit_mu);
    return n;
}

void ars_parallel_for(int64_t n, int64_t grain, ars_range_fn fn, void *ctx)
{
    if (n <= 0)
        return;
    int64_t nt = ars_get_num_threads();
    if (grain < 1)
        grain = 1;
    if (nt > n / grain)
        nt = n / grain;
    if (nt <= 1 || in_region || pthread_mutex_trylock(&submit_mu) != 0) {
        fn(0, n, ctx);
        return;
    }
    int64_t t0 = now_ns();
    if (t0 < backoff_until) {
        pthread_mutex_unlock(&submit_mu);
        fn(0, n, ctx);
        return;
    }
    grow((int)nt - 1);
    if (nt > nworkers + 1)
        nt = nworkers + 1;
    int64_t nchunks = n / grain;
    if (nchunks > nt * CHUNKS_PER_THREAD)
        nchunks = nt * CHUNKS_PER_THREAD;
    if (nchunks > MAX_CHUNKS)
        nchunks = MAX_CHUNKS;
    if (nchunks < 1)
        nchunks = 1;
    uint32_t gen = ++job.gen;
    job.fn = fn;
    job.ctx = ctx;
    job.n = n;
    job.nchunks = nchunks;
    job.intr_base = ars_intr_base;
    __atomic_store_n(&job.done, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&job.active, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&job.ticket, ticket_of(gen, nchunks), __ATOMIC_SEQ_CST);
    for (int k = 1; k < nt; k++) {
        __atomic_store_n(&workers[k].post, gen, __ATOMIC_SEQ_CST);
        wake(&workers[k]);
    }
    in_region = 1;
    int64_t mine = run_chunks(gen);
    in_region = 0;
    if (__atomic_load_n(&job.done, __ATOMIC_ACQUIRE) != nchunks) {
        int64_t t1 = now_ns();
        /* An idle machine makes the caller wait a chunk's length at most. */
        int64_t spin = mine > 0 ? (t1 - t0) / mine : SPIN_NS;
        wait_done(nchunks, spin < SPIN_NS ? SPIN_NS : spin > HOLD_NS ? HOLD_NS : spin);
        int64_t t2 = now_ns();
        if (t2 - t1 > LATE_NS && t2 - t1 > 2 * (t1 - t0))
            backoff_until = t2 + BACKOFF_NS;
    }
    __atomic_store_n(&job.active, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&submit_mu);
}
