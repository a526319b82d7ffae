/* Threads for large work: a persistent pool.
 *
 * Workers are started on first need and kept. A parallel region splits [0, n)
 * into chunks that the calling thread and the posted workers claim from one
 * atomic counter, so a worker that is slow to wake (the machine is busy, or it
 * is asleep) never holds the caller up: the caller takes the chunks itself and
 * then cancels the workers that never started. After a job, a worker spins for
 * a few tens of microseconds (back-to-back kernels find it awake), then sleeps
 * on its condition variable, so an idle pool costs nothing.
 *
 * One region runs at a time; a region started while another runs (another
 * Python thread, or a kernel called from inside a region) runs on its caller's
 * thread alone.
 *
 * OpenBLAS's workers: after every BLAS call that used threads, OpenBLAS's
 * workers busy-wait for about 0.1 s (its THREAD_TIMEOUT of 2^28 cycles, nops
 * only) before they sleep. A region run meanwhile on arrstride's own workers
 * puts more busy threads than cores on the machine, and on 2 cores the
 * memory-bound kernels after a matmul (sklearn's pairwise distances, for one)
 * ran at half speed. So when arrstride uses an OpenBLAS built with pthreads
 * that exports its server (NumPy's copy does), a leaf region (one whose chunks
 * never call BLAS) runs on OpenBLAS's workers instead, through
 * gotoblas_pthread: the same claim-a-chunk loop, and one set of threads in the
 * process. A region whose chunks call BLAS (ars_parallel_for_blas) stays on
 * arrstride's workers: an OpenBLAS worker that called BLAS could wait for
 * itself. Small regions stay too: OpenBLAS cannot cancel the post to a worker
 * that sleeps, so the caller would wait for its wake-up.
 *
 * Fork: a prepare handler waits for the running region, the parent carries
 * on, and the child, which has none of the workers, forgets them and starts
 * new ones when it first needs them. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ars_internal.h"

enum { MAX_THREADS = 256 };
/* Bytes of memory traffic one thread should get before another is worth waking:
 * about 5 us of in-cache streaming work on a current x86 core, the cost of
 * waking a sleeping worker (a spinning one costs far less). */
static const int64_t BYTES_PER_THREAD = 1 << 19;
/* How long a worker (or a waiting caller) spins before it sleeps, and how
 * much of that it spins without yielding the CPU. */
static const int64_t SPIN_NS = 50000;
static const int64_t PAUSE_NS = 3000;
/* Chunks per thread: enough for the caller to absorb a late worker's share. */
enum { CHUNKS_PER_THREAD = 4 };

static int num_threads = 0;  /* 0: not yet set, use the default */

/* The default thread count, read once: $ARRSTRIDE_NUM_THREADS or the number of
 * cores (sysconf reads /sys and costs tens of microseconds, far more than a
 * small kernel). */
static int default_threads(void)
{
    static int cached = 0;
    int n = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (n == 0) {
        /* ARRSTRIDE_NUM_THREADS overrides the core count. */
        const char *env = getenv("ARRSTRIDE_NUM_THREADS");
        long c = env ? strtol(env, NULL, 10) : 0;
        if (c < 1)
            c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c < 1 ? 1 : (c > MAX_THREADS ? MAX_THREADS : (int)c);
        __atomic_store_n(&cached, n, __ATOMIC_RELAXED);
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

/* A worker's state; the caller posts, the worker runs, and the caller cancels a
 * post the worker has not taken (POSTED -> IDLE). */
enum { W_IDLE, W_POSTED, W_RUNNING, W_DONE, W_EXIT };

typedef struct {
    _Alignas(64) int state;
    int sleeping;          /* the worker is (about to be) in cond_wait */
    pthread_t tid;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} worker;

/* workers[0] stands for the calling thread and is never started. */
static worker workers[MAX_THREADS];
static int nworkers = 0;  /* workers[1..nworkers] are running threads */

/* One region at a time; also held across fork. */
static pthread_mutex_t submit_mu = PTHREAD_MUTEX_INITIALIZER;
/* The caller sleeps here when a worker takes long to finish. */
static pthread_mutex_t done_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;
static int caller_waiting = 0;

/* The current job: written by the caller before it posts, read by workers
 * after they take the post, left alone until every post is done or cancelled. */
static struct {
    ars_range_fn fn;
    void *ctx;
    int64_t n, nchunks;
    int64_t next;          /* the next chunk to claim (atomic) */
} job;

static _Thread_local int in_region = 0;  /* on a worker, or a caller inside a region */

/* OpenBLAS's server (set once BLAS is loaded; read under submit_mu). */
typedef int (*server_run_fn)(int nthreads, void *fn, void *args, int stride);
static server_run_fn server_run = NULL;
static const volatile int *server_nthreads = NULL;
/* Chunks of at least `grain` (each about 5 us of work) a region needs
 * before it goes to OpenBLAS's workers: posting there costs a few
 * microseconds more than to arrstride's own (x * x on 1e5 float64, 4 chunks:
 * 17 us against 10.5), which only large regions absorb. */
enum { SERVER_MIN_CHUNKS = 16 };
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

/* Spin until *p == want (or want2) for at most SPIN_NS; the value last seen.
 * After the first PAUSE_NS the spin yields the CPU at each turn: when the
 * machine has more runnable threads than cores (the caller itself, perhaps,
 * on this very core), they run instead of a spinning worker; on an idle
 * machine sched_yield returns at once. */
static int spin_for(const int *p, int want, int want2)
{
    int64_t t0 = 0;
    int yielding = 0;
    for (int i = 0;; i++) {
        int s = __atomic_load_n(p, __ATOMIC_ACQUIRE);
        if (s == want || s == want2)
            return s;
        if (yielding) {
            sched_yield();
            if (now_ns() - t0 > SPIN_NS)
                return s;
            continue;
        }
        if ((i & 63) == 63) {
            int64_t t = now_ns();
            if (t0 == 0)
                t0 = t;
            else if (t - t0 > PAUSE_NS)
                yielding = 1;
        }
        cpu_relax();
    }
}

static void run_chunks(void)
{
    for (;;) {
        int64_t c = __atomic_fetch_add(&job.next, 1, __ATOMIC_RELAXED);
        if (c >= job.nchunks)
            return;
        job.fn(ars_split(job.n, c, job.nchunks), ars_split(job.n, c + 1, job.nchunks), job.ctx);
    }
}

static void *worker_main(void *p)
{
    worker *w = p;
    in_region = 1;
    for (;;) {
        int s = spin_for(&w->state, W_POSTED, W_EXIT);
        if (s != W_POSTED && s != W_EXIT) {
            pthread_mutex_lock(&w->mu);
            __atomic_store_n(&w->sleeping, 1, __ATOMIC_SEQ_CST);
            while ((s = __atomic_load_n(&w->state, __ATOMIC_SEQ_CST)) != W_POSTED && s != W_EXIT)
                pthread_cond_wait(&w->cv, &w->mu);
            __atomic_store_n(&w->sleeping, 0, __ATOMIC_RELAXED);
            pthread_mutex_unlock(&w->mu);
        }
        if (s == W_EXIT)
            return NULL;
        int expect = W_POSTED;
        if (!__atomic_compare_exchange_n(&w->state, &expect, W_RUNNING, 0, __ATOMIC_ACQ_REL,
                                         __ATOMIC_ACQUIRE))
            continue;  /* cancelled: the caller did the work */
        run_chunks();
        __atomic_store_n(&w->state, W_DONE, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&caller_waiting, __ATOMIC_SEQ_CST)) {
            pthread_mutex_lock(&done_mu);
            pthread_cond_broadcast(&done_cv);
            pthread_mutex_unlock(&done_mu);
        }
    }
}

/* Give worker w a new state and wake it if it sleeps. */
static void post(worker *w, int state)
{
    __atomic_store_n(&w->state, state, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&w->sleeping, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&w->mu);
        pthread_cond_signal(&w->cv);
        pthread_mutex_unlock(&w->mu);
    }
}

static void wait_done(worker *w)
{
    if (spin_for(&w->state, W_DONE, -1) == W_DONE)
        return;
    pthread_mutex_lock(&done_mu);
    __atomic_store_n(&caller_waiting, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&w->state, __ATOMIC_SEQ_CST) != W_DONE)
        pthread_cond_wait(&done_cv, &done_mu);
    __atomic_store_n(&caller_waiting, 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&done_mu);
}

/* Stop workers[keep+1..]; submit_mu held. */
static void shrink(int keep)
{
    for (int k = nworkers; k > keep; k--) {
        post(&workers[k], W_EXIT);
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
    pthread_mutex_init(&done_mu, NULL);
    pthread_cond_init(&done_cv, NULL);
    pthread_mutex_init(&submit_mu, NULL);
}

static void register_atfork(void)
{
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

/* Start workers up to workers[want]; submit_mu held. Stops at the first
 * failure: fewer workers only means fewer helpers. */
static void grow(int want)
{
    if (want <= nworkers)
        return;
    pthread_once(&atfork_once, register_atfork);
    /* Workers take no signals: Python handles them on its own threads. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    while (nworkers < want) {
        worker *w = &workers[nworkers + 1];
        w->state = W_IDLE;
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
    pthread_sigmask(SIG_SETMASK, &old, NULL);
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

int ars_parallel_set_server(void *run, void *nthreads)
{
    if (run != NULL && nthreads == NULL)
        return ARS_ERR_ARG;
    /* Registered after OpenBLAS's own fork handler, ours runs before it: a
     * fork waits for the region in flight on OpenBLAS's workers before
     * OpenBLAS stops them. */
    pthread_once(&atfork_once, register_atfork);
    pthread_mutex_lock(&submit_mu);
    server_run = (server_run_fn)run;
    server_nthreads = run ? nthreads : NULL;
    pthread_mutex_unlock(&submit_mu);
    return ARS_OK;
}

int ars_parallel_server_active(void)
{
    pthread_mutex_lock(&submit_mu);
    int on = server_run != NULL;
    pthread_mutex_unlock(&submit_mu);
    return on;
}

int ars_parallel_own_workers(void)
{
    pthread_mutex_lock(&submit_mu);
    int n = nworkers;
    pthread_mutex_unlock(&submit_mu);
    return n;
}

/* What each OpenBLAS thread (the caller's included) runs for a region. */
static void server_entry(void *unused)
{
    (void)unused;
    int was = in_region;
    in_region = 1;
    run_chunks();
    in_region = was;
}

static void parallel_for(int64_t n, int64_t grain, ars_range_fn fn, void *ctx, int leaf)
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
    int64_t nchunks = n / grain;
    /* grain 1: the caller's units are coarse (sort pieces, reduction parts) */
    int server = leaf && server_run && (nchunks >= SERVER_MIN_CHUNKS || grain == 1) &&
                 nt <= *server_nthreads;
    if (!server) {
        grow((int)nt - 1);
        if (nt > nworkers + 1)
            nt = nworkers + 1;
    }
    if (nchunks > nt * CHUNKS_PER_THREAD)
        nchunks = nt * CHUNKS_PER_THREAD;
    job.fn = fn;
    job.ctx = ctx;
    job.n = n;
    job.nchunks = nchunks < 1 ? 1 : nchunks;
    __atomic_store_n(&job.next, 0, __ATOMIC_RELAXED);
    if (server) {
        server_run((int)nt, (void *)server_entry, NULL, 0);
        pthread_mutex_unlock(&submit_mu);
        return;
    }
    for (int k = 1; k < nt; k++)
        post(&workers[k], W_POSTED);
    in_region = 1;
    run_chunks();
    in_region = 0;
    for (int k = 1; k < nt; k++) {
        int expect = W_POSTED;
        if (!__atomic_compare_exchange_n(&workers[k].state, &expect, W_IDLE, 0,
                                         __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            wait_done(&workers[k]);
    }
    pthread_mutex_unlock(&submit_mu);
}

void ars_parallel_for(int64_t n, int64_t grain, ars_range_fn fn, void *ctx)
{
    parallel_for(n, grain, fn, ctx, 1);
}

void ars_parallel_for_blas(int64_t n, int64_t grain, ars_range_fn fn, void *ctx)
{
    parallel_for(n, grain, fn, ctx, 0);
}
