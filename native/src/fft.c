/* Discrete Fourier transforms: mixed-radix (2, 3, 4, 5 and any odd factor)
 * with Bluestein's algorithm for lengths with large prime factors, in float
 * and double, batched along one axis of any strided layout. Plans (factors,
 * twiddles, chirps) are cached and shared between threads.
 * The kernels themselves live in fft_impl.h, instantiated once per precision. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "ars_internal.h"
#include "platform.h"
#include "ew_narrow.h"

enum { FFT_MAXF = 64, FFT_MAX_GENERIC = 1024, FFT_CACHE_SLOTS = 16 };
/* Core length from which one transform's passes are split across threads when
 * there are fewer lines than threads. */
static const int64_t FFT_PAR_MIN = (int64_t)1 << 15;

/* ---- precision-independent helpers ------------------------------------------ */

/* Factors of n in the order the passes run: 4s first, then 2, 3, 5, then the
 * other primes in increasing order. Returns the number of factors. */
static int fft_factorize(int64_t n, int64_t *fct)
{
    int nf = 0;
    while (n % 4 == 0) {
        fct[nf++] = 4;
        n /= 4;
    }
    if (n % 2 == 0) {
        n /= 2;
        fct[nf++] = 2;
        /* a lone 2 goes first (it is the cheapest pass to run with large ido) */
        int64_t t = fct[nf - 1];
        fct[nf - 1] = fct[0];
        fct[0] = t;
    }
    for (int64_t d = 3; d * d <= n; d += 2)
        while (n % d == 0) {
            fct[nf++] = d;
            n /= d;
        }
    if (n > 1)
        fct[nf++] = n;
    return nf;
}

static int64_t fft_largest_factor(int64_t n)
{
    int64_t f[FFT_MAXF];
    int nf = fft_factorize(n, f);
    int64_t big = 1;
    for (int i = 0; i < nf; i++)
        if (f[i] > big)
            big = f[i];
    return big;
}

/* A rough operation count of a direct plan of length n. */
static double fft_cost(int64_t n)
{
    int64_t f[FFT_MAXF];
    int nf = fft_factorize(n, f);
    double c = 0;
    for (int i = 0; i < nf; i++)
        c += f[i] <= 5 ? (double)f[i] : 1.1 * (double)f[i];
    return c * (double)n;
}

/* The smallest 2^a 3^b 5^c >= n. */
static int64_t fft_good_size(int64_t n)
{
    if (n <= 6)
        return n;
    int64_t best = 2 * n;
    for (int64_t f5 = 1; f5 < best; f5 *= 5)
        for (int64_t f35 = f5; f35 < best; f35 *= 3) {
            int64_t x = f35;
            while (x < n)
                x *= 2;
            if (x < best)
                best = x;
        }
    return best;
}

/* The Bluestein length for n, or 0 when a direct plan is the better choice. */
static int64_t fft_bluestein_length(int64_t n)
{
    if (n < 50)
        return 0;
    int64_t n2 = fft_good_size(2 * n - 1);
    if (fft_largest_factor(n) > FFT_MAX_GENERIC)
        return n2;
    return 3.0 * fft_cost(n2) < fft_cost(n) ? n2 : 0;
}

/* e^(2 pi i m / n) for any m, as the product of two table entries:
 * a[m / L] * b[m % L] with L about sqrt(n), accurate to a few ulps. */
typedef struct {
    int64_t n, L;
    double *a, *b;  /* interleaved re, im */
} fft_roots;

static void fft_angle(int64_t m, int64_t n, double *re, double *im)
{
    /* reduce to the half turn nearest zero so the argument stays small */
    m %= n;
    if (2 * m > n)
        m -= n;
    double t = 2.0 * 3.14159265358979323846264338327950288 * ((double)m / (double)n);
    *re = cos(t);
    *im = sin(t);
}

static int fft_roots_init(fft_roots *rg, int64_t n)
{
    int64_t L = (int64_t)sqrt((double)n) + 1;
    rg->n = n;
    rg->L = L;
    rg->a = malloc((size_t)(2 * (n / L + 1)) * sizeof(double));
    rg->b = malloc((size_t)(2 * L) * sizeof(double));
    if (!rg->a || !rg->b) {
        free(rg->a);
        free(rg->b);
        return ARS_ERR_NOMEM;
    }
    for (int64_t q = 0; q <= n / L; q++)
        fft_angle(q * L, n, &rg->a[2 * q], &rg->a[2 * q + 1]);
    for (int64_t r = 0; r < L; r++)
        fft_angle(r, n, &rg->b[2 * r], &rg->b[2 * r + 1]);
    return ARS_OK;
}

static void fft_roots_free(fft_roots *rg)
{
    free(rg->a);
    free(rg->b);
}

static void fft_root(const fft_roots *rg, int64_t m, double *re, double *im)
{
    m %= rg->n;
    int64_t q = m / rg->L, r = m % rg->L;
    double ar = rg->a[2 * q], ai = rg->a[2 * q + 1], br = rg->b[2 * r], bi = rg->b[2 * r + 1];
    *re = ar * br - ai * bi;
    *im = ar * bi + ai * br;
}

/* One batched call: lines of the transform axis, over the batch dims. */
typedef struct {
    const void *plan;
    int kind, sign;
    int narrow;     /* R2C from float16 or bfloat16 (its dtype code), else 0 */
    int real_src;   /* C2C or C2R from real input: its dtype code, else 0 */
    int half;       /* a real transform of even n on a core of length n/2 */
    int par;        /* lines one at a time, each pass split across the pool */
    double scale;
    int64_t n, slen, dlen, sstride, dstride;
    const char *src;
    char *dst;
    int nb;
    int64_t bshape[ARS_MAX_DIMS], bsrc[ARS_MAX_DIMS], bdst[ARS_MAX_DIMS];
    int *status;
} fft_job;

/* One real element of dtype (float16, bfloat16, float32 or float64), exactly. */
static inline double fft_read_real(int dtype, const char *p)
{
    switch (dtype) {
    case ARS_FLOAT16: {
        ars_f16 h;
        memcpy(&h, p, sizeof h);
        return ars_f16_to_float(h);
    }
    case ARS_BFLOAT16: {
        ars_bf16 h;
        memcpy(&h, p, sizeof h);
        return ars_bf16_to_float(h);
    }
    case ARS_FLOAT32: {
        float f;
        memcpy(&f, p, sizeof f);
        return f;
    }
    default: {
        double d;
        memcpy(&d, p, sizeof d);
        return d;
    }
    }
}

/* ---- the kernels, once per precision ------------------------------------------ */

/* With GCC or Clang the core also runs on FW lines at once, one line per
 * lane of a 16-byte vector (2 doubles, 4 floats), as the standard compilers
 * lower those vectors to SSE2/NEON everywhere; without them, line by line. */
#if defined(__GNUC__) || defined(__clang__)
#define FFT_VECTORS
typedef float fft_v4f __attribute__((vector_size(16)));
typedef double fft_v2d __attribute__((vector_size(16)));
#define FFT_MAXW 4
#else
#define FFT_MAXW 1
#endif

#define FT float
#define FV fft_v4f
#define FW 4
#define FS(name) name##_f
#define FSV(name) name##_fv
#include "fft_impl.h"
#undef FT
#undef FV
#undef FW
#undef FS
#undef FSV

#define FT double
#define FV fft_v2d
#define FW 2
#define FS(name) name##_d
#define FSV(name) name##_dv
#include "fft_impl.h"
#undef FT
#undef FV
#undef FW
#undef FS
#undef FSV

/* ---- the plan cache -------------------------------------------------------------- */

typedef struct {
    int64_t n;
    int dbl;        /* 1: double precision */
    int real;       /* 1: a real plan of length 2n */
    void *plan;
    int refs;       /* calls using the plan now */
    int cached;     /* still in the table (else freed by its last user) */
    uint64_t tick;  /* last use, for eviction */
} fft_entry;

static pthread_mutex_t fft_lock = PTHREAD_MUTEX_INITIALIZER;
static fft_entry *fft_table[FFT_CACHE_SLOTS];
static uint64_t fft_clock = 0;

static void fft_lock_take(void) { pthread_mutex_lock(&fft_lock); }
static void fft_lock_give(void) { pthread_mutex_unlock(&fft_lock); }
static pthread_once_t fft_once = PTHREAD_ONCE_INIT;
static void fft_install_atfork(void) { ars_atfork(fft_lock_take, fft_lock_give, fft_lock_give); }

static void fft_entry_destroy(fft_entry *e)
{
    if (e->dbl)
        plan_free_d(e->plan);
    else
        plan_free_f(e->plan);
    free(e);
}

static fft_entry *fft_acquire(int64_t n, int dbl, int real)
{
    pthread_once(&fft_once, fft_install_atfork);
    pthread_mutex_lock(&fft_lock);
    for (int i = 0; i < FFT_CACHE_SLOTS; i++) {
        fft_entry *e = fft_table[i];
        if (e && e->n == n && e->dbl == dbl && e->real == real) {
            e->refs++;
            e->tick = ++fft_clock;
            pthread_mutex_unlock(&fft_lock);
            return e;
        }
    }
    pthread_mutex_unlock(&fft_lock);

    /* build outside the lock: plans for large n take a while */
    fft_entry *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->n = n;
    e->dbl = dbl;
    e->real = real;
    e->plan = dbl ? (void *)plan_make_d(n, real) : (void *)plan_make_f(n, real);
    if (!e->plan) {
        free(e);
        return NULL;
    }
    e->refs = 1;

    pthread_mutex_lock(&fft_lock);
    int slot = -1;
    for (int i = 0; i < FFT_CACHE_SLOTS; i++) {
        fft_entry *o = fft_table[i];
        if (!o) {
            if (slot < 0 || fft_table[slot])
                slot = i;
        } else if (o->n == n && o->dbl == dbl && o->real == real) {
            /* another thread built it meanwhile: use theirs */
            o->refs++;
            o->tick = ++fft_clock;
            pthread_mutex_unlock(&fft_lock);
            fft_entry_destroy(e);
            return o;
        } else if (slot < 0 || (fft_table[slot] && o->tick < fft_table[slot]->tick)) {
            slot = i;
        }
    }
    fft_entry *old = fft_table[slot];
    fft_entry *drop = NULL;
    if (old) {
        old->cached = 0;
        if (old->refs == 0)
            drop = old;
    }
    e->cached = 1;
    e->tick = ++fft_clock;
    fft_table[slot] = e;
    pthread_mutex_unlock(&fft_lock);
    if (drop)
        fft_entry_destroy(drop);
    return e;
}

static void fft_release(fft_entry *e)
{
    pthread_mutex_lock(&fft_lock);
    int drop = --e->refs == 0 && !e->cached;
    pthread_mutex_unlock(&fft_lock);
    if (drop)
        fft_entry_destroy(e);
}

void ars_fft_cache_clear(void)
{
    fft_entry *drop[FFT_CACHE_SLOTS];
    int nd = 0;
    pthread_mutex_lock(&fft_lock);
    for (int i = 0; i < FFT_CACHE_SLOTS; i++) {
        fft_entry *e = fft_table[i];
        if (!e)
            continue;
        fft_table[i] = NULL;
        e->cached = 0;
        if (e->refs == 0)
            drop[nd++] = e;
    }
    pthread_mutex_unlock(&fft_lock);
    for (int i = 0; i < nd; i++)
        fft_entry_destroy(drop[i]);
}

/* ---- the entry point ---------------------------------------------------------------- */

int ars_fft(int kind, int dtype, int src_dtype, int ndim, const int64_t *shape, int axis,
            const char *src, const int64_t *src_strides, int64_t src_len,
            char *dst, const int64_t *dst_strides, int64_t dst_len,
            int64_t n, int sign, double scale)
{
    if (ndim < 1 || ndim > ARS_MAX_DIMS || axis < 0 || axis >= ndim)
        return ARS_ERR_NDIM;
    if (dtype != ARS_COMPLEX64 && dtype != ARS_COMPLEX128)
        return ARS_ERR_DTYPE;
    if (kind < ARS_FFT_C2C || kind > ARS_FFT_C2R || n < 1 || src_len < 0 ||
        dst_len != (kind == ARS_FFT_R2C ? n / 2 + 1 : n))
        return ARS_ERR_ARG;
    fft_job jb;
    int status = ARS_OK;
    int real = dtype == ARS_COMPLEX64 ? ARS_FLOAT32 : ARS_FLOAT64;
    int narrow = dtype == ARS_COMPLEX64 && (src_dtype == ARS_FLOAT16 || src_dtype == ARS_BFLOAT16);
    jb.narrow = jb.real_src = 0;
    if (src_dtype == real || narrow) {
        if (kind == ARS_FFT_R2C)
            jb.narrow = narrow ? src_dtype : 0;
        else
            jb.real_src = src_dtype;
    } else if (src_dtype != dtype || kind == ARS_FFT_R2C) {
        return ARS_ERR_DTYPE;
    }
    jb.kind = kind;
    jb.sign = sign;
    jb.scale = scale;
    jb.n = n;
    jb.slen = src_len;
    jb.dlen = dst_len;
    jb.sstride = src_strides[axis];
    jb.dstride = dst_strides[axis];
    jb.src = src;
    jb.dst = dst;
    jb.status = &status;
    jb.nb = 0;
    int64_t lines = 1;
    for (int d = 0; d < ndim; d++) {
        if (d == axis || shape[d] == 1)
            continue;
        jb.bshape[jb.nb] = shape[d];
        jb.bsrc[jb.nb] = src_strides[d];
        jb.bdst[jb.nb] = dst_strides[d];
        jb.nb++;
        lines *= shape[d];
    }
    if (lines == 0)
        return ARS_OK;
    int dbl = dtype == ARS_COMPLEX128;
    jb.half = kind != ARS_FFT_C2C && n % 2 == 0;
    fft_entry *e = fft_acquire(jb.half ? n / 2 : n, dbl, jb.half);
    if (!e)
        return ARS_ERR_NOMEM;
    jb.plan = e->plan;
    /* a thread is worth starting for about 2^18 n log2(n) units (~0.1 ms) */
    double per_line = (double)n * (log2((double)n) + 1.0);
    int64_t grain = (int64_t)(262144.0 / per_line) + 1;
    ars_range_fn run = dbl ? run_lines_d : run_lines_f;
    jb.par = 0;
    if (lines < 2 * grain) {  /* one thread's work for whole lines */
        /* fewer long lines than threads: split each transform's passes */
        int64_t core = jb.half ? n / 2 : n;
        jb.par = core >= FFT_PAR_MIN && lines < ars_get_num_threads();
        run(0, lines, &jb);
    } else {
        ars_parallel_for(lines, grain, run, &jb);
    }
    fft_release(e);
    return status;
}

int ars_fftfreq(char *dst, int64_t n, int dtype, double d, int rfft)
{
    if (n < 1 || (dtype != ARS_FLOAT32 && dtype != ARS_FLOAT64))
        return ARS_ERR_ARG;
    double val = 1.0 / ((double)n * d);
    int64_t len = rfft ? n / 2 + 1 : n;
    for (int64_t k = 0; k < len; k++) {
        int64_t f = (rfft || k <= (n - 1) / 2) ? k : k - n;
        double v = (double)f * val;
        if (dtype == ARS_FLOAT32) {
            float x = (float)v;
            memcpy(dst + k * 4, &x, 4);
        } else {
            memcpy(dst + k * 8, &v, 8);
        }
    }
    return ARS_OK;
}
