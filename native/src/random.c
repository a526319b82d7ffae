/* Random numbers: the PCG64 bit generator (XSL-RR 128/64) and the draws of
 * NumPy's Generator on top of it, written to give the same bits as NumPy for
 * the same state: next_double is (u64 >> 11) * 2**-53, next_float
 * (u32 >> 8) * 2**-24; a 32-bit draw is the low half of a 64-bit one, the
 * high half kept for the next 32-bit draw; normal and exponential draws use
 * the 256-level ziggurats with NumPy's tables; bounded integers use Lemire's
 * multiply-and-reject, on 32-bit draws for ranges below 2**32 and on a
 * 32-bit draw cut into 16-, 8- or 1-bit pieces for narrow dtypes.
 *
 * The state lives in a caller-owned ars_pcg64; calls on one state must not
 * overlap (the Python Generator holds a lock around each). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arrstride.h"
#include "ziggurat_tables.h"

/* ---- 128-bit arithmetic on two uint64 halves --------------------------- */

static inline void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__)
    __uint128_t p = (__uint128_t)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t w0 = a0 * b0, t = a1 * b0 + (w0 >> 32);
    uint64_t w1 = (uint32_t)t + a0 * b1;
    *hi = a1 * b1 + (t >> 32) + (w1 >> 32);
    *lo = a * b;
#endif
}

static const uint64_t PCG_MULT_HI = 0x2360ED051FC65DA4ULL;
static const uint64_t PCG_MULT_LO = 0x4385DF649FCCF645ULL;

/* state = state * MULT + inc (mod 2**128) */
static inline void pcg_step(ars_pcg64 *g)
{
    uint64_t hi, lo;
    mul_64x64(g->state_lo, PCG_MULT_LO, &hi, &lo);
    hi += g->state_hi * PCG_MULT_LO + g->state_lo * PCG_MULT_HI;
    uint64_t nlo = lo + g->inc_lo;
    hi += g->inc_hi + (nlo < lo);
    g->state_hi = hi;
    g->state_lo = nlo;
}

static inline uint64_t rotr64(uint64_t v, unsigned r)
{
    return (v >> r) | (v << ((-r) & 63u));
}

static inline uint64_t next_u64(ars_pcg64 *g)
{
    pcg_step(g);
    return rotr64(g->state_hi ^ g->state_lo, (unsigned)(g->state_hi >> 58));
}

static inline uint32_t next_u32(ars_pcg64 *g)
{
    if (g->has_uint32) {
        g->has_uint32 = 0;
        return g->uinteger;
    }
    uint64_t v = next_u64(g);
    g->has_uint32 = 1;
    g->uinteger = (uint32_t)(v >> 32);
    return (uint32_t)v;
}

static inline double next_double(ars_pcg64 *g)
{
    return (double)(next_u64(g) >> 11) * (1.0 / 9007199254740992.0);
}

static inline float next_float(ars_pcg64 *g)
{
    return (float)(next_u32(g) >> 8) * (1.0f / 16777216.0f);
}

void ars_pcg64_seed(ars_pcg64 *g, uint64_t seed_hi, uint64_t seed_lo, uint64_t inc_hi, uint64_t inc_lo)
{
    g->state_hi = 0;
    g->state_lo = 0;
    g->inc_hi = (inc_hi << 1) | (inc_lo >> 63);
    g->inc_lo = (inc_lo << 1) | 1u;
    pcg_step(g);
    uint64_t lo = g->state_lo + seed_lo;
    g->state_hi += seed_hi + (lo < seed_lo);
    g->state_lo = lo;
    pcg_step(g);
    g->has_uint32 = 0;
    g->uinteger = 0;
}

/* ---- ziggurat draws ----------------------------------------------------- */

static double std_exponential(ars_pcg64 *g)
{
    for (;;) {
        uint64_t ri = next_u64(g) >> 3;
        uint8_t idx = (uint8_t)(ri & 0xFF);
        ri >>= 8;
        double x = (double)ri * ars_zig_we_double[idx];
        if (ri < ars_zig_ke_double[idx])
            return x;
        if (idx == 0)
            return ars_zig_exp_r - log1p(-next_double(g));
        if ((ars_zig_fe_double[idx - 1] - ars_zig_fe_double[idx]) * next_double(g)
            + ars_zig_fe_double[idx] < exp(-x))
            return x;
    }
}

static float std_exponential_f(ars_pcg64 *g)
{
    for (;;) {
        uint32_t ri = next_u32(g) >> 1;
        uint8_t idx = (uint8_t)(ri & 0xFF);
        ri >>= 8;
        float x = (float)ri * ars_zig_we_float[idx];
        if (ri < ars_zig_ke_float[idx])
            return x;
        if (idx == 0)
            return ars_zig_exp_r_f - log1pf(-next_float(g));
        if ((ars_zig_fe_float[idx - 1] - ars_zig_fe_float[idx]) * next_float(g)
            + ars_zig_fe_float[idx] < expf(-x))
            return x;
    }
}

static double std_normal_tail(ars_pcg64 *g, uint64_t idx, uint64_t rabs, double x, int *done)
{
    if (idx == 0) {
        for (;;) {
            double xx = -ars_zig_nor_inv_r * log1p(-next_double(g));
            double yy = -log1p(-next_double(g));
            if (yy + yy > xx * xx) {
                *done = 1;
                return ((rabs >> 8) & 1) ? -(ars_zig_nor_r + xx) : ars_zig_nor_r + xx;
            }
        }
    }
    *done = (ars_zig_fi_double[idx - 1] - ars_zig_fi_double[idx]) * next_double(g)
            + ars_zig_fi_double[idx] < exp(-0.5 * x * x);
    return x;
}

static inline double std_normal(ars_pcg64 *g)
{
    for (;;) {
        uint64_t r = next_u64(g);
        uint64_t idx = r & 0xff;
        r >>= 8;
        uint64_t rabs = (r >> 1) & 0x000fffffffffffffULL;
        double x = (double)rabs * ars_zig_wi_double[idx];
        if (r & 1)
            x = -x;
        if (rabs < ars_zig_ki_double[idx])
            return x;
        int done;
        x = std_normal_tail(g, idx, rabs, x, &done);
        if (done)
            return x;
    }
}

static float std_normal_f(ars_pcg64 *g)
{
    for (;;) {
        uint32_t r = next_u32(g);
        uint32_t idx = r & 0xff;
        uint32_t rabs = (r >> 9) & 0x0007fffff;
        float x = (float)rabs * ars_zig_wi_float[idx];
        if ((r >> 8) & 1)
            x = -x;
        if (rabs < ars_zig_ki_float[idx])
            return x;
        if (idx == 0) {
            for (;;) {
                float xx = -ars_zig_nor_inv_r_f * log1pf(-next_float(g));
                float yy = -log1pf(-next_float(g));
                if (yy + yy > xx * xx)
                    return ((rabs >> 8) & 1) ? -(ars_zig_nor_r_f + xx) : ars_zig_nor_r_f + xx;
            }
        }
        /* the product in float, the bound in double, as NumPy computes them */
        float lhs = (ars_zig_fi_float[idx - 1] - ars_zig_fi_float[idx]) * next_float(g)
                    + ars_zig_fi_float[idx];
        if ((double)lhs < exp(-0.5 * (double)x * (double)x))
            return x;
    }
}

int ars_random_fill(ars_pcg64 *g, int kind, int single, void *out, int64_t n,
                    const double *a, int64_t sa, const double *b, int64_t sb)
{
    if (n < 0)
        return ARS_ERR_ARG;
    if (single) {
        float *o = out;
        if (a || b)
            return ARS_ERR_ARG;
        switch (kind) {
        case ARS_RAND_UNIFORM:
            for (int64_t i = 0; i < n; i++) o[i] = next_float(g);
            return 0;
        case ARS_RAND_NORMAL:
            for (int64_t i = 0; i < n; i++) o[i] = std_normal_f(g);
            return 0;
        case ARS_RAND_EXPONENTIAL:
            for (int64_t i = 0; i < n; i++) o[i] = std_exponential_f(g);
            return 0;
        }
        return ARS_ERR_ARG;
    }
    double *o = out;
    switch (kind) {
    case ARS_RAND_UNIFORM:
        if (!a && !b) {
            for (int64_t i = 0; i < n; i++) o[i] = next_double(g);
            return 0;
        }
        if (!a || !b)
            return ARS_ERR_ARG;
        for (int64_t i = 0; i < n; i++) o[i] = a[i * sa] + b[i * sb] * next_double(g);
        return 0;
    case ARS_RAND_NORMAL:
        if (!a && !b) {
            for (int64_t i = 0; i < n; i++) o[i] = std_normal(g);
            return 0;
        }
        if (!a || !b)
            return ARS_ERR_ARG;
        for (int64_t i = 0; i < n; i++) o[i] = a[i * sa] + b[i * sb] * std_normal(g);
        return 0;
    case ARS_RAND_EXPONENTIAL:
        if (a)
            return ARS_ERR_ARG;
        if (!b) {
            for (int64_t i = 0; i < n; i++) o[i] = std_exponential(g);
            return 0;
        }
        for (int64_t i = 0; i < n; i++) o[i] = b[i * sb] * std_exponential(g);
        return 0;
    }
    return ARS_ERR_ARG;
}

/* ---- bounded integers ----------------------------------------------------- */

/* A 32-bit draw handed out in pieces of `bits` (16, 8 or 1), low bits first. */
typedef struct {
    uint32_t buf;
    int left;
} piece_buf;

static inline uint32_t next_piece(ars_pcg64 *g, piece_buf *pb, int bits)
{
    if (pb->left == 0) {
        pb->buf = next_u32(g);
        pb->left = 32 / bits - 1;
    } else {
        pb->buf >>= bits;
        pb->left -= 1;
    }
    return pb->buf;
}

static inline uint64_t lemire64(ars_pcg64 *g, uint64_t rng)
{
    const uint64_t excl = rng + 1;
    uint64_t hi, lo;
    mul_64x64(next_u64(g), excl, &hi, &lo);
    if (lo < excl) {
        const uint64_t threshold = (UINT64_MAX - rng) % excl;
        while (lo < threshold)
            mul_64x64(next_u64(g), excl, &hi, &lo);
    }
    return hi;
}

static inline uint32_t lemire32(ars_pcg64 *g, uint32_t rng)
{
    const uint32_t excl = rng + 1;
    uint64_t m = (uint64_t)next_u32(g) * excl;
    uint32_t left = (uint32_t)m;
    if (left < excl) {
        const uint32_t threshold = (UINT32_MAX - rng) % excl;
        while (left < threshold) {
            m = (uint64_t)next_u32(g) * excl;
            left = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Lemire on a 16- or 8-bit piece of a buffered 32-bit draw */
static inline uint32_t lemire_narrow(ars_pcg64 *g, uint32_t rng, int bits, piece_buf *pb)
{
    const uint32_t full = (1u << bits) - 1u;
    const uint32_t excl = rng + 1;
    uint32_t m = (next_piece(g, pb, bits) & full) * excl;
    uint32_t left = m & full;
    if (left < excl) {
        const uint32_t threshold = (full - rng) % excl;
        while (left < threshold) {
            m = (next_piece(g, pb, bits) & full) * excl;
            left = m & full;
        }
    }
    return m >> bits;
}

/* rng is the inclusive width hi - lo (mod 2**width) */
static inline uint64_t bounded(ars_pcg64 *g, int width, uint64_t rng, piece_buf *pb)
{
    if (rng == 0)
        return 0;
    switch (width) {
    case 8: /* a range below 2**32 uses 32-bit draws */
        if (rng <= 0xFFFFFFFFULL)
            return rng == 0xFFFFFFFFULL ? next_u32(g) : lemire32(g, (uint32_t)rng);
        return rng == UINT64_MAX ? next_u64(g) : lemire64(g, rng);
    case 4:
        return rng == 0xFFFFFFFFULL ? next_u32(g) : lemire32(g, (uint32_t)rng);
    case 2:
        if (rng == 0xFFFF)
            return next_piece(g, pb, 16) & 0xFFFF;
        return lemire_narrow(g, (uint32_t)rng, 16, pb);
    case 1:
        if (rng == 0xFF)
            return next_piece(g, pb, 8) & 0xFF;
        return lemire_narrow(g, (uint32_t)rng, 8, pb);
    default: /* bool */
        return next_piece(g, pb, 1) & 1u;
    }
}

int ars_random_integers(ars_pcg64 *g, int width, void *out, int64_t n,
                        const uint64_t *off, int64_t soff, const uint64_t *rng, int64_t srng)
{
    piece_buf pb = {0, 0};
    if (n < 0 || !(width == 0 || width == 1 || width == 2 || width == 4 || width == 8))
        return ARS_ERR_ARG;
    for (int64_t i = 0; i < n; i++) {
        uint64_t v = off[i * soff] + bounded(g, width, rng[i * srng], &pb);
        switch (width) {
        case 8: ((uint64_t *)out)[i] = v; break;
        case 4: ((uint32_t *)out)[i] = (uint32_t)v; break;
        case 2: ((uint16_t *)out)[i] = (uint16_t)v; break;
        default: ((uint8_t *)out)[i] = (uint8_t)v; break;
        }
    }
    return 0;
}

/* ---- permutations and sampling ------------------------------------------ */

/* a uniform value in [0, max] by masking and rejecting */
static uint64_t random_interval(ars_pcg64 *g, uint64_t max)
{
    if (max == 0)
        return 0;
    uint64_t mask = max, v;
    mask |= mask >> 1; mask |= mask >> 2; mask |= mask >> 4;
    mask |= mask >> 8; mask |= mask >> 16; mask |= mask >> 32;
    if (max <= 0xFFFFFFFFULL) {
        while ((v = (next_u32(g) & mask)) > max) {}
    } else {
        while ((v = (next_u64(g) & mask)) > max) {}
    }
    return v;
}

int ars_random_permutation(ars_pcg64 *g, int64_t *perm, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        perm[i] = i;
    for (int64_t i = n - 1; i >= 1; i--) {
        int64_t j = (int64_t)random_interval(g, (uint64_t)i);
        int64_t t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    }
    return 0;
}

static inline uint64_t bounded_u64(ars_pcg64 *g, uint64_t rng)
{
    piece_buf pb = {0, 0};
    return bounded(g, 8, rng, &pb);
}

/* Fisher-Yates over data[first..n) from the top, with Lemire draws */
static void shuffle_int(ars_pcg64 *g, int64_t n, int64_t first, int64_t *data)
{
    for (int64_t i = n - 1; i >= first; i--) {
        int64_t j = (int64_t)bounded_u64(g, (uint64_t)i);
        int64_t t = data[j]; data[j] = data[i]; data[i] = t;
    }
}

int ars_random_choice_noreplace(ars_pcg64 *g, int64_t pop, int64_t size, int shuffle, int64_t *out)
{
    if (pop < 0 || size < 0 || size > pop)
        return ARS_ERR_ARG;
    int64_t cutoff = shuffle ? 50 : 20;
    if (pop > 10000 && size > pop / cutoff) {
        /* shuffle the tail of 0..pop-1 */
        int64_t *idx = malloc((size_t)pop * sizeof *idx);
        if (!idx)
            return ARS_ERR_NOMEM;
        for (int64_t i = 0; i < pop; i++)
            idx[i] = i;
        shuffle_int(g, pop, pop - size > 1 ? pop - size : 1, idx);
        memcpy(out, idx + (pop - size), (size_t)size * sizeof *out);
        free(idx);
        return 0;
    }
    /* Floyd's algorithm, with an open-addressing set of the values taken */
    uint64_t mask = (uint64_t)(1.2 * (double)size);
    mask |= mask >> 1; mask |= mask >> 2; mask |= mask >> 4;
    mask |= mask >> 8; mask |= mask >> 16; mask |= mask >> 32;
    uint64_t *set = malloc((size_t)(mask + 1) * sizeof *set);
    if (!set)
        return ARS_ERR_NOMEM;
    memset(set, 0xFF, (size_t)(mask + 1) * sizeof *set);
    for (int64_t j = pop - size; j < pop; j++) {
        uint64_t val = bounded_u64(g, (uint64_t)j);
        uint64_t loc = val & mask;
        while (set[loc] != UINT64_MAX && set[loc] != val)
            loc = (loc + 1) & mask;
        if (set[loc] == UINT64_MAX) {
            set[loc] = val;
            out[j - pop + size] = (int64_t)val;
        } else {
            loc = (uint64_t)j & mask;
            while (set[loc] != UINT64_MAX)
                loc = (loc + 1) & mask;
            set[loc] = (uint64_t)j;
            out[j - pop + size] = j;
        }
    }
    free(set);
    if (shuffle)
        shuffle_int(g, size, 1, out);
    return 0;
}

/* first index i with cdf[i] > u (searchsorted side='right') */
static int64_t search_right(const double *cdf, int64_t n, double u)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (cdf[mid] <= u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void normalized_cdf(const double *p, int64_t pop, double *cdf)
{
    double s = 0.0;
    for (int64_t i = 0; i < pop; i++) {
        s += p[i];
        cdf[i] = s;
    }
    double last = cdf[pop - 1];
    for (int64_t i = 0; i < pop; i++)
        cdf[i] /= last;
}

int ars_random_choice_p(ars_pcg64 *g, const double *p, int64_t pop, int64_t size, int replace,
                        int64_t *out)
{
    if (pop <= 0 || size < 0 || (!replace && size > pop))
        return ARS_ERR_ARG;
    double *cdf = malloc((size_t)pop * sizeof *cdf);
    double *u = malloc((size_t)(size ? size : 1) * sizeof *u);
    double *w = replace ? NULL : malloc((size_t)pop * sizeof *w);
    unsigned char *seen = replace ? NULL : calloc((size_t)pop, 1);
    int rc = 0;
    if (!cdf || !u || (!replace && (!w || !seen))) {
        rc = ARS_ERR_NOMEM;
        goto done;
    }
    if (replace) {
        normalized_cdf(p, pop, cdf);
        for (int64_t i = 0; i < size; i++)
            u[i] = next_double(g);
        for (int64_t i = 0; i < size; i++)
            out[i] = search_right(cdf, pop, u[i]);
        goto done;
    }
    /* without replacement: draw the missing count, keep the first sighting of
     * each new index, zero the weights of those taken, and again */
    memcpy(w, p, (size_t)pop * sizeof *w);
    int64_t taken = 0;
    while (taken < size) {
        int64_t want = size - taken;
        for (int64_t i = 0; i < want; i++)
            u[i] = next_double(g);
        for (int64_t i = 0; i < taken; i++)
            w[out[i]] = 0.0;
        normalized_cdf(w, pop, cdf);
        for (int64_t i = 0; i < want; i++) {
            int64_t k = search_right(cdf, pop, u[i]);
            if (k >= pop || seen[k])
                continue;
            seen[k] = 1;
            out[taken++] = k;
        }
    }
done:
    free(cdf);
    free(u);
    free(w);
    free(seen);
    return rc;
}
