/* Sorting, unique and searchsorted on order keys (see stats_internal.h):
 * every real value (float16 and bfloat16 too, from their bits) maps to a
 * uint64 that sorts as the value does, with NaN last and -0.0 == 0.0. Long
 * lanes of the 2-byte floats are counted instead (count16_sort). Sorting is a stable MSD radix sort that skips the
 * bits all keys share (insertion sort for short buckets); an unstable sort
 * (stable=False) runs a vector quicksort instead where the CPU has AVX-512
 * (sort_simd.h, on signed keys of 64 or 32 bits); an unstable argsort of a
 * long lane, a sample sort on the thread pool whose buckets that quicksort
 * sorts. */
#include <stdlib.h>
#include "stats_internal.h"

enum { SMALL_SORT = 24 };

static void insertion_sort(uint64_t *k, int64_t *idx, int64_t n)
{
    for (int64_t i = 1; i < n; i++) {
        uint64_t v = k[i];
        int64_t x = idx ? idx[i] : 0;
        int64_t j = i;
        while (j > 0 && k[j - 1] > v) {
            k[j] = k[j - 1];
            if (idx)
                idx[j] = idx[j - 1];
            j--;
        }
        k[j] = v;
        if (idx)
            idx[j] = x;
    }
}

/* MSD radix sort: bucket by the highest digit on which the keys differ
 * (found from the OR and AND of the keys, so shared high bits cost nothing),
 * scattering into the scratch array (stable), then sort each bucket the same
 * way with a digit sized to it, and short buckets by insertion. The first
 * level streams through memory once; deeper levels run in cache. Stable. */
enum { MSD_MAX_BITS = 11 };
/* Ctrl-C: a sort stops early once ars_interrupted(), tested on entering a
 * bucket of at least POLL_MIN keys and every POLL_BLOCK keys of a scatter (a
 * millisecond or so of work apart). It stops before writing a: `a` (and
 * `ai`) is written only by whole copies of a scattered bucket back from t, so
 * a stopped sort leaves a permutation of its input in a (with each key beside
 * its index), never an index out of range. */
enum { POLL_MIN = 1 << 14, POLL_BLOCK = 1 << 20 };

static int msd_bits(int64_t n)
{
    int bits = 4;
    while (bits < MSD_MAX_BITS && ((int64_t)1 << (bits + 2)) < n)
        bits++;
    return bits;
}

static void sort_bucket(uint64_t *a, int64_t *ai, uint64_t *t, int64_t *ti, int64_t start,
                        int64_t m, int64_t *hist);

/* Sort a (and ai) in place; t and ti are scratch of n; hist has room for
 * every level below (64 levels of 2^msd_bits(n) counts). */
static void msd_sort(uint64_t *a, int64_t *ai, uint64_t *t, int64_t *ti, int64_t n,
                     int64_t *hist)
{
    if (n <= SMALL_SORT) {
        insertion_sort(a, ai, n);
        return;
    }
    if (n >= POLL_MIN && ars_interrupted())
        return;
    uint64_t orv = 0, andv = UINT64_MAX;
    for (int64_t i = 0; i < n; i++) {
        orv |= a[i];
        andv &= a[i];
    }
    uint64_t diff = orv ^ andv;
    if (!diff)
        return;  /* all keys equal */
    int top = 63 - __builtin_clzll(diff);
    int bits = msd_bits(n);
    if (bits > top + 1)
        bits = top + 1;
    int shift = top + 1 - bits;
    int64_t nb = (int64_t)1 << bits;
    uint64_t mask = (uint64_t)nb - 1;
    int64_t *h = hist;
    memset(h, 0, (size_t)nb * sizeof(int64_t));
    for (int64_t i = 0; i < n; i++)
        h[(a[i] >> shift) & mask]++;
    int64_t sum = 0;
    for (int64_t b = 0; b < nb; b++) {
        int64_t c = h[b];
        h[b] = sum;
        sum += c;
    }
    for (int64_t i0 = 0; i0 < n; i0 += POLL_BLOCK) {
        int64_t i1 = n - i0 > POLL_BLOCK ? i0 + POLL_BLOCK : n;
        if (i0 > 0 && ars_interrupted())
            return;
        if (ai) {
            for (int64_t i = i0; i < i1; i++) {
                int64_t pos = h[(a[i] >> shift) & mask]++;
                t[pos] = a[i];
                ti[pos] = ai[i];
            }
        } else {
            for (int64_t i = i0; i < i1; i++)
                t[h[(a[i] >> shift) & mask]++] = a[i];
        }
    }
    /* h[b] is now the end of bucket b: sort each bucket back into a */
    int64_t start = 0;
    for (int64_t b = 0; b < nb; b++) {
        sort_bucket(a, ai, t, ti, start, h[b] - start, hist + nb);
        start = h[b];
    }
}

/* Bucket [start, start + m) of a scatter into t: sorted within t (a as
 * scratch; hist as msd_sort's) and copied back into a whole, or copied back
 * and sorted by insertion when short. hist NULL: a long bucket is only
 * copied back. */
static void sort_bucket(uint64_t *a, int64_t *ai, uint64_t *t, int64_t *ti, int64_t start,
                        int64_t m, int64_t *hist)
{
    if (m > SMALL_SORT && hist)
        msd_sort(t + start, ai ? ti + start : NULL, a + start, ai ? ai + start : NULL, m, hist);
    if (m > 0) {
        memcpy(a + start, t + start, (size_t)m * sizeof(uint64_t));
        if (ai)
            memcpy(ai + start, ti + start, (size_t)m * sizeof(int64_t));
        if (m <= SMALL_SORT)
            insertion_sort(a + start, ai ? ai + start : NULL, m);
    }
}

/* ---- the first level on the pool -------------------------------------------
 * A long sort splits its first level over the pool: PARTS equal parts of the
 * keys count their digits, a serial pass turns the counts into each part's
 * starts in every bucket (buckets in order, parts in order within one: the
 * scatter stays stable), the parts scatter into t, and then groups of whole
 * buckets of about equal size sort and copy back independently. The result is
 * the one stable order, so it does not depend on the thread count. */
enum { PAR_SORT_MIN = 1 << 16, PARTS = 16, GROUPS = 64 };

typedef struct {
    uint64_t *a, *t;
    int64_t *ai, *ti;
    int64_t n, nb;
    int shift;
    uint64_t mask;
    uint64_t orv[PARTS], andv[PARTS];
    int64_t *pos;          /* PARTS x nb: a part's count, then its next slot, per bucket */
    int64_t *ends;         /* nb: where bucket b ends in t */
    int64_t group[GROUPS + 1];  /* buckets [group[g], group[g + 1]) make group g */
    int failed;
} par_sort;

static void part_bounds(const par_sort *c, int64_t p, int64_t *i0, int64_t *i1)
{
    *i0 = ars_split(c->n, p, PARTS);
    *i1 = ars_split(c->n, p + 1, PARTS);
}

static void par_or_and(int64_t begin, int64_t end, void *ctx)
{
    par_sort *c = ctx;
    for (int64_t p = begin; p < end; p++) {
        int64_t i0, i1;
        part_bounds(c, p, &i0, &i1);
        uint64_t orv = 0, andv = UINT64_MAX;
        for (int64_t i = i0; i < i1; i++) {
            orv |= c->a[i];
            andv &= c->a[i];
        }
        c->orv[p] = orv;
        c->andv[p] = andv;
    }
}

static void par_count(int64_t begin, int64_t end, void *ctx)
{
    par_sort *c = ctx;
    for (int64_t p = begin; p < end; p++) {
        int64_t i0, i1, *h = c->pos + p * c->nb;
        part_bounds(c, p, &i0, &i1);
        memset(h, 0, (size_t)c->nb * sizeof(int64_t));
        for (int64_t i = i0; i < i1; i++)
            h[(c->a[i] >> c->shift) & c->mask]++;
    }
}

static void par_scatter(int64_t begin, int64_t end, void *ctx)
{
    par_sort *c = ctx;
    for (int64_t p = begin; p < end; p++) {
        int64_t i0, i1, *h = c->pos + p * c->nb;
        part_bounds(c, p, &i0, &i1);
        for (int64_t i = i0; i < i1; i++) {
            int64_t at = h[(c->a[i] >> c->shift) & c->mask]++;
            c->t[at] = c->a[i];
            if (c->ai)
                c->ti[at] = c->ai[i];
        }
    }
}

/* Sort the buckets of groups [begin, end) back into a (sort_bucket), each
 * call with its own levels of counts. Without them the buckets are only copied
 * back: a then holds the keys stably ordered by the first digit, and the
 * caller's serial sort finishes them. */
static void par_buckets(int64_t begin, int64_t end, void *ctx)
{
    par_sort *c = ctx;
    int64_t *hist = ars_alloc(64 * ((int64_t)1 << MSD_MAX_BITS) * (int64_t)sizeof(int64_t));
    if (!hist)
        __atomic_store_n(&c->failed, 1, __ATOMIC_RELAXED);
    for (int64_t g = begin; g < end; g++)
        for (int64_t b = c->group[g]; b < c->group[g + 1]; b++) {
            int64_t start = b ? c->ends[b - 1] : 0;
            sort_bucket(c->a, c->ai, c->t, c->ti, start, c->ends[b] - start, hist);
        }
    ars_free(hist);
}

/* 0: sorted (or stopped by an interrupt, a a permutation of its input);
 * -1: out of memory, a unchanged or stably ordered by its first digit (a
 * stable sort of a then gives the same order as one of the input). */
static int par_msd_sort(uint64_t *a, int64_t *ai, uint64_t *t, int64_t *ti, int64_t n)
{
    par_sort c = {a, t, ai, ti, n, 0, 0, 0, {0}, {0}, NULL, NULL, {0}, 0};
    ars_parallel_for(PARTS, 1, par_or_and, &c);
    uint64_t orv = 0, andv = UINT64_MAX;
    for (int p = 0; p < PARTS; p++) {
        orv |= c.orv[p];
        andv &= c.andv[p];
    }
    uint64_t diff = orv ^ andv;
    if (!diff)
        return 0;  /* all keys equal */
    int top = 63 - __builtin_clzll(diff);
    int bits = MSD_MAX_BITS;
    if (bits > top + 1)
        bits = top + 1;
    c.shift = top + 1 - bits;
    c.nb = (int64_t)1 << bits;
    c.mask = (uint64_t)c.nb - 1;
    c.pos = ars_alloc((PARTS + 1) * c.nb * (int64_t)sizeof(int64_t));
    if (!c.pos)
        return -1;
    c.ends = c.pos + PARTS * c.nb;
    ars_parallel_for(PARTS, 1, par_count, &c);
    int64_t sum = 0;
    for (int64_t b = 0; b < c.nb; b++) {
        for (int p = 0; p < PARTS; p++) {
            int64_t k = c.pos[p * c.nb + b];
            c.pos[p * c.nb + b] = sum;
            sum += k;
        }
        c.ends[b] = sum;
    }
    if (ars_interrupted()) {
        ars_free(c.pos);
        return 0;  /* a untouched */
    }
    ars_parallel_for(PARTS, 1, par_scatter, &c);
    /* groups of whole buckets, each closing once it holds n / GROUPS keys */
    int g = 0;
    c.group[0] = 0;
    for (int64_t b = 0; b < c.nb && g < GROUPS - 1; b++)
        if (c.ends[b] >= (g + 1) * (n / GROUPS))
            c.group[++g] = b + 1;
    while (g < GROUPS)
        c.group[++g] = c.nb;
    ars_parallel_for(GROUPS, 1, par_buckets, &c);
    ars_free(c.pos);
    return c.failed ? -1 : 0;
}

void ars_radix_sort(uint64_t *keys, int64_t *idx, uint64_t *tmp_keys, int64_t *tmp_idx, int64_t n)
{
    if (n <= SMALL_SORT) {
        insertion_sort(keys, idx, n);
        return;
    }
    if (n >= PAR_SORT_MIN && par_msd_sort(keys, idx, tmp_keys, tmp_idx, n) == 0)
        return;
    int64_t *hist = ars_alloc(65 * ((int64_t)1 << msd_bits(n)) * (int64_t)sizeof(int64_t));
    if (!hist) {  /* fall back to a slow but allocation-free stable sort */
        insertion_sort(keys, idx, n);
        return;
    }
    msd_sort(keys, idx, tmp_keys, tmp_idx, n, hist);
    ars_free(hist);
}

/* ---- per-dtype keys ------------------------------------------------------------- */

typedef void (*encode_fn)(const char *in, int64_t n, int64_t s, uint64_t *keys, int *negzero);
typedef void (*decode_fn)(const uint64_t *keys, int64_t n, char *out, int64_t os);
typedef uint64_t (*key1_fn)(const char *p);

#define NEGZ_KB(v) 0
#define NEGZ_KI(v) 0
#define NEGZ_KU(v) 0
/* keys lose the sign of -0.0 and the bits of NaNs */
#define NEGZ_KF(v) (((v) == 0 && signbit(v)) || (v) != (v))
#define NEGZ_KN(v) ((v).bits == 0x8000u || NARROW_ISNAN(v))

#define DEF_KEYS(N, T, K)                                                          \
    static void encode_##N(const char *in, int64_t n, int64_t s, uint64_t *keys, int *negzero) \
    {                                                                              \
        int nz = 0;                                                                \
        for (int64_t i = 0; i < n; i++) {                                          \
            T v = ld_##N(in + i * s);                                              \
            nz |= NEGZ_##K(v);                                                     \
            keys[i] = ARS_KEY_##K(T, v);                                           \
        }                                                                          \
        *negzero = nz;                                                             \
    }                                                                              \
    static void decode_##N(const uint64_t *keys, int64_t n, char *out, int64_t os) \
    {                                                                              \
        for (int64_t i = 0; i < n; i++)                                            \
            st_##N(out + i * os, ARS_UNKEY_##K(T, keys[i]));                       \
    }                                                                              \
    static uint64_t key1_##N(const char *p) { return ARS_KEY_##K(T, ld_##N(p)); }
ARS_REAL_DTYPES(DEF_KEYS)
ARS_NARROW_DTYPES(DEF_KEYS)

#define ENT_ENC(N, T, K) [ARS_##N] = encode_##N,
#define ENT_DEC(N, T, K) [ARS_##N] = decode_##N,
#define ENT_KEY1(N, T, K) [ARS_##N] = key1_##N,
static const encode_fn encode_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_ENC) ARS_NARROW_DTYPES(ENT_ENC)};
static const decode_fn decode_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_DEC) ARS_NARROW_DTYPES(ENT_DEC)};
static const key1_fn key1_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_KEY1) ARS_NARROW_DTYPES(ENT_KEY1)};

#include "sort_avx512.h"

/* ---- sort lanes ------------------------------------------------------------------- */

typedef struct {
    int dtype, argsort, descending;
    int64_t n, in_step, out_step;
    int failed;  /* set atomically: lanes run on several threads */
} sort_ctx;

/* The elements with key `key` (zeros, or NaNs) of a sorted lane, rewritten
 * from the input in input order: the sort is stable, and keys do not keep the
 * sign of zeros nor the bits of NaNs. */
static void restore_block(const sort_ctx *c, const char *in, char *out, uint64_t key)
{
    int64_t isz = ars_itemsize[c->dtype];
    int64_t j = 0;
    while (j < c->n && key1_table[c->dtype](out + j * c->out_step) != key)
        j++;
    for (int64_t i = 0; i < c->n && j < c->n; i++) {
        const char *p = in + i * c->in_step;
        if (key1_table[c->dtype](p) == key) {
            memcpy(out + j * c->out_step, p, (size_t)isz);
            j++;
        }
    }
}

/* ---- narrow floats: a counting sort --------------------------------------------
 * A stable sort of a long lane of 2-byte floats counts the elements per
 * 16-bit order key (-0.0 and 0.0 one key, every NaN one key, last; the keys
 * flipped when descending), then puts each element (sort: its own bits;
 * argsort: its index) at the next place of its key, in input order: the
 * stable order, as the radix sort and its restore_block give it, in two
 * passes over the lane and none over scratch. (The unstable sort keeps the
 * quicksort on 16-bit keys: twice as fast as counting with AVX-512, as fast
 * without.) */
/* Lanes from COUNT16_MIN on and below 2^32 are counted. */
enum { NCOUNT16 = 1 << 16, COUNT16_MIN = 1 << 12, COUNT16_WAYS = 4 };

/* The 16-bit order key of the bits b: the top 16 bits of the radix sort's
 * key (ars_key_n16), and back (a NaN key gives NaN bits, +0 gives +0). */
static inline uint32_t key16(uint16_t b, uint32_t inf)
{
    return (uint32_t)(ars_key_n16(b, inf) >> 48);
}
static inline uint16_t unkey16(uint32_t key)
{
    return ars_unkey_n16((uint64_t)key << 48, 0);
}
/* The bits of +inf of a narrow dtype, and whether a lane of n elements of
 * dtype is counted. */
static inline uint32_t inf16(int dtype)
{
    return dtype == ARS_FLOAT16 ? 0x7c00u : 0x7f80u;
}
static inline int count16_fits(int dtype, int64_t n)
{
    return (dtype == ARS_FLOAT16 || dtype == ARS_BFLOAT16) && n >= COUNT16_MIN &&
           n < ((int64_t)1 << 32);
}

/* h[key16(b) ^ flip] = how many elements b of the lane have that key, and the
 * count of -0.0s returned. Counted into COUNT16_WAYS tables (h holds them
 * all) that are summed after: the elements of a lane of few distinct values
 * would otherwise wait on each other's increments of one counter. */
static int64_t count16_hist(uint32_t *h, const char *in, int64_t n, int64_t is, uint32_t inf,
                            uint32_t flip)
{
    int64_t negzero = 0, i = 0;
    memset(h, 0, COUNT16_WAYS * NCOUNT16 * sizeof *h);
    for (; i + COUNT16_WAYS <= n; i += COUNT16_WAYS)
        for (int w = 0; w < COUNT16_WAYS; w++) {
            uint16_t b;
            memcpy(&b, in + (i + w) * is, sizeof b);
            negzero += b == 0x8000u;
            h[w * NCOUNT16 + (key16(b, inf) ^ flip)]++;
        }
    for (; i < n; i++) {
        uint16_t b;
        memcpy(&b, in + i * is, sizeof b);
        negzero += b == 0x8000u;
        h[key16(b, inf) ^ flip]++;
    }
    for (int64_t k = 0; k < NCOUNT16; k++)
        for (int w = 1; w < COUNT16_WAYS; w++)
            h[k] += h[w * NCOUNT16 + k];
    return negzero;
}

static void count16_sort(const sort_ctx *c, const char *in, char *out, uint32_t *h)
{
    int64_t n = c->n, is = c->in_step, os = c->out_step;
    uint32_t inf = inf16(c->dtype), flip = c->descending ? 0xffffu : 0;
    uint32_t nan_key = 0xffffu ^ flip, zero_key = 0x8000u ^ flip;
    int64_t negzero = count16_hist(h, in, n, is, inf, flip);
    if (ars_interrupted())
        return;
    if (!c->argsort) {
        /* values: each key's value as many times as it came, in key order;
         * then the zeros (stable) and the NaNs, whose bits the keys lose,
         * from the input into their runs */
        int64_t j = 0, zero_at = 0, nan_at = 0;
        for (uint32_t k = 0; k < NCOUNT16; k++) {
            uint32_t m = h[k];
            if (k == zero_key)
                zero_at = j;
            if (k == nan_key)
                nan_at = j;
            if (!m)
                continue;
            uint16_t b = unkey16(k ^ flip);
            for (int64_t e = j + m; j < e; j++)
                memcpy(out + j * os, &b, sizeof b);
        }
        int fix_zeros = negzero != 0, nans = h[nan_key] != 0;
        if (!fix_zeros && !nans)
            return;
        for (int64_t i = 0; i < n; i++) {
            uint16_t b;
            memcpy(&b, in + i * is, sizeof b);
            uint32_t a = b & 0x7fffu;
            if (a > inf)
                memcpy(out + nan_at++ * os, &b, sizeof b);
            else if (a == 0 && fix_zeros)
                memcpy(out + zero_at++ * os, &b, sizeof b);
        }
        return;
    }
    uint32_t sum = 0;
    for (int64_t k = 0; k < NCOUNT16; k++) {
        uint32_t t = h[k];
        h[k] = sum;
        sum += t;
    }
    for (int64_t i = 0; i < n; i++) {
        uint16_t b;
        memcpy(&b, in + i * is, sizeof b);
        st_INT64(out + (int64_t)h[key16(b, inf) ^ flip]++ * os, i);
    }
}

static void count16_loop(sort_ctx *c, char **data, int64_t nl, const int64_t *s)
{
    uint32_t *h = ars_alloc(COUNT16_WAYS * NCOUNT16 * (int64_t)sizeof(uint32_t));
    if (!h) {
        __atomic_store_n(&c->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    for (int64_t b = 0; b < nl && !ars_interrupted(); b++)
        count16_sort(c, data[0] + b * s[0], data[1] + b * s[1], h);
    ars_free(h);
}

static void sort_loop(char **data, int64_t nl, const int64_t *s, void *p)
{
    sort_ctx *c = p;
    int64_t n = c->n;
    if (n == 0)
        return;
    if (count16_fits(c->dtype, n)) {  /* stable sorts only */
        count16_loop(c, data, nl, s);
        return;
    }
    /* from arrstride's block cache: a long lane's scratch is reused by the
     * next sort, not mapped and faulted in afresh */
    uint64_t *keys = ars_alloc(n * 2 * (int64_t)sizeof(uint64_t));
    int64_t *idx = c->argsort ? ars_alloc(n * 2 * (int64_t)sizeof(int64_t)) : NULL;
    if (!keys || (c->argsort && !idx)) {
        ars_free(keys);
        ars_free(idx);
        __atomic_store_n(&c->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    for (int64_t b = 0; b < nl && !ars_interrupted(); b++) {
        const char *in = data[0] + b * s[0];
        char *out = data[1] + b * s[1];
        int negzero = 0;
        for (int64_t i0 = 0; i0 < n && !ars_interrupted(); i0 += POLL_BLOCK) {
            int nz;
            encode_table[c->dtype](in + i0 * c->in_step, n - i0 < POLL_BLOCK ? n - i0 : POLL_BLOCK,
                                   c->in_step, keys + i0, &nz);
            negzero |= nz;
        }
        if (ars_interrupted())
            break;
        if (c->descending)
            for (int64_t i = 0; i < n; i++)
                keys[i] = ~keys[i];
        if (idx)
            for (int64_t i = 0; i < n; i++)
                idx[i] = i;
        ars_radix_sort(keys, idx, keys + n, idx ? idx + n : NULL, n);
        if (ars_interrupted())
            break;  /* keys and idx may be partly unset: nothing is written */
        if (idx) {
            for (int64_t i = 0; i < n; i++)
                st_INT64(out + i * c->out_step, idx[i]);
            continue;
        }
        if (c->descending)
            for (int64_t i = 0; i < n; i++)
                keys[i] = ~keys[i];
        decode_table[c->dtype](keys, n, out, c->out_step);
        if (negzero) {
            restore_block(c, in, out, KEY_SIGN);
            restore_block(c, in, out, UINT64_MAX);
        }
    }
    ars_free(keys);
    ars_free(idx);
}

#if ARS_SORT_SIMD
/* Whether a lane of out, at every b * s[1], is dense with items of isz bytes. */
static int dense_out(char **data, const int64_t *s, int64_t os, int64_t isz)
{
    return os == isz && s[1] % isz == 0 && (uintptr_t)data[1] % (uintptr_t)isz == 0;
}

/* Lanes this short or shorter are faster on the radix sort's insertion sort;
 * on longer ones the quicksort is faster at every length. 1 thread, 2**20
 * random values in lanes of n, quicksort / radix sort time (loaded machine,
 * AVX-512): float64 sort 0.07x at n = 64, 0.3x at 4096, 0.37x at 2**20;
 * argsort 0.3x at 64, 0.8x at 4096, 0.73x at 2**20; int32 sort 0.06x at
 * 64, 0.18x at 4096, 0.38x at 2**20. */
enum { QUICK_MIN = 4 };

/* One lane's encoding and decoding, split in parts for the thread pool. */
typedef struct {
    const sort_ctx *c;
    const char *in;
    char *out;
    void *k;
    int64_t *ix;
    int64_t m;
    int k32;
    int last;  /* set (atomically) when a part set elements aside */
} qlane;

/* Parts of at least this many elements go to the pool. */
enum { QPAR_GRAIN = 1 << 15 };

static void qencode_part(int64_t b, int64_t e, void *p)
{
    qlane *q = p;
    const sort_ctx *c = q->c;
    const char *in = q->in + b * c->in_step;
    int64_t h = q->k32 ? qencode32_table[c->dtype](in, e - b, c->in_step, (int32_t *)q->k + b, NULL, b)
                       : qencode64_table[c->dtype](in, e - b, c->in_step, (int64_t *)q->k + b,
                                                   q->ix ? q->ix + b : NULL, b);
    if (h != e - b)
        __atomic_store_n(&q->last, 1, __ATOMIC_RELAXED);
}

static void qdecode_part(int64_t b, int64_t e, void *p)
{
    const qlane *q = p;
    const sort_ctx *c = q->c;
    int64_t n = c->n, m = q->m, os = c->out_step;
    if (q->k32)
        qdecode32_table[c->dtype](q->k, b, e, n, m, q->out, os, c->descending);
    else if (!c->argsort)
        qdecode64_table[c->dtype](q->k, b, e, n, m, q->out, os, c->descending);
    else
        for (int64_t i = b; i < e; i++) {
            int64_t pos = i < m ? (c->descending ? n - 1 - i : i) : (c->descending ? i - m : i);
            st_INT64(q->out + pos * os, q->ix[i]);
        }
}

/* The quicksort of each lane: keys (in out itself when its lane is dense and
 * as wide as the keys, and the order ascending), sorted, then written back.
 * Values of 4 bytes or fewer are sorted on 32-bit keys, 16 to a vector. The
 * encoding returns m, the count of keys that sort before the elements set
 * aside (which the decoding writes after them). A long lane is encoded,
 * sorted (sort_simd.h) and decoded on the thread pool; it is encoded again on
 * one thread when some part found elements to set aside. */
static void quick_loop(char **data, int64_t nl, const int64_t *s, void *p)
{
    sort_ctx *c = p;
    int64_t n = c->n, isz = ars_itemsize[c->dtype];
    if (n == 0)
        return;
    int k32 = !c->argsort && isz <= 4;
    int64_t ksz = k32 ? 4 : 8;
    int keys_in_out = !c->descending && !c->argsort && isz == ksz && dense_out(data, s, c->out_step, ksz);
    int idx_in_out = !c->descending && c->argsort && dense_out(data, s, c->out_step, 8);
    void *kbuf = keys_in_out ? NULL : ars_alloc((int64_t)(n * ksz));
    int64_t *ibuf = c->argsort && !idx_in_out ? ars_alloc((int64_t)n * sizeof(int64_t)) : NULL;
    if ((!keys_in_out && !kbuf) || (c->argsort && !idx_in_out && !ibuf)) {
        ars_free(kbuf);
        ars_free(ibuf);
        __atomic_store_n(&c->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    for (int64_t b = 0; b < nl && !ars_interrupted(); b++) {
        char *out = data[1] + b * s[1];
        /* keys only first: the positions are written by the sort, unless
         * some elements are set aside */
        qlane q = {c, data[0] + b * s[0], out, keys_in_out ? (void *)out : kbuf, NULL, 0, k32, 0};
        if (n < 2 * QPAR_GRAIN)
            qencode_part(0, n, &q);
        else
            ars_parallel_for(n, QPAR_GRAIN, qencode_part, &q);
        q.ix = c->argsort ? (idx_in_out ? (int64_t *)(void *)out : ibuf) : NULL;
        if (q.last)
            q.m = k32 ? qencode32_table[c->dtype](q.in, n, c->in_step, q.k, NULL, 0)
                      : qencode64_table[c->dtype](q.in, n, c->in_step, q.k, q.ix, 0);
        else
            q.m = n;
        if (k32)
            sort_k32(q.k, NULL, q.m);
        else if (!c->argsort)
            sort_k64(q.k, NULL, q.m);
        else
            sort_a64(q.k, q.ix, q.m, !q.last);
        if (c->argsort && idx_in_out)
            continue;
        if (n < 2 * QPAR_GRAIN)
            qdecode_part(0, n, &q);
        else
            ars_parallel_for(n, QPAR_GRAIN, qdecode_part, &q);
    }
    ars_free(kbuf);
    ars_free(ibuf);
}
#endif

int ars_sort(int ndim, const int64_t *shape,
             const char *in, const int64_t *in_strides, int dtype, int64_t n, int64_t in_step,
             char *out, const int64_t *out_strides, int64_t out_step,
             int argsort, int descending, int stable)
{
    if (dtype < 0 || dtype >= ARS_NDTYPES || !encode_table[dtype])
        return ARS_ERR_DTYPE;
    if (n > INT64_MAX / 16)
        return ARS_ERR_SIZE;
    char *data[2] = {(char *)in, out};
    const int64_t *st[2] = {in_strides, out_strides};
    sort_ctx c = {dtype, argsort, descending, n, in_step, out_step, 0};
    ars_loop_fn loop = sort_loop;
#if ARS_SORT_SIMD
    if (!stable && n > QUICK_MIN && have_avx512())
        loop = quick_loop;
#else
    (void)stable;
#endif
    int rc = ars_iter_go(ndim, shape, 2, data, st, loop, &c, (n + 1) * 64);
    if (rc)
        return rc;
    return c.failed ? ARS_ERR_NOMEM : ARS_OK;
}

/* ---- unique ------------------------------------------------------------------------ */

static uint64_t key_c128(double v) { return ars_key_f64(v); }

/* Keys of the real and imaginary parts of element i of a complex array; a
 * value with a NaN part sorts last (both keys UINT64_MAX). */
static void complex_keys(const char *x, int64_t stride, int dtype, int64_t i,
                         uint64_t *kre, uint64_t *kim)
{
    double re, im;
    if (dtype == ARS_COMPLEX64) {
        ars_c64 v = ld_COMPLEX64(x + i * stride);
        re = crealf(v);
        im = cimagf(v);
    } else {
        ars_c128 v = ld_COMPLEX128(x + i * stride);
        re = creal(v);
        im = cimag(v);
    }
    if (re != re || im != im) {
        *kre = *kim = UINT64_MAX;
        return;
    }
    *kre = key_c128(re);
    *kim = key_c128(im);
}

/* unique of a long narrow lane by counting its 16-bit order keys (count16_sort's):
 * the groups in key order, each NaN its own group at the end in input order,
 * as the radix sort's stable order gives them. A group's value is the bits of
 * its first element when with = 1 (what the sorted permutation reads), else
 * the value of its key (0.0 for zeros, the dtype's NaN). */
static int unique16(const char *x, int64_t n, int64_t stride, int dtype, char *values,
                    int64_t *index, int64_t *inverse, int64_t *counts, int64_t *k)
{
    uint32_t inf = inf16(dtype);
    uint16_t nan = dtype == ARS_FLOAT16 ? 0x7e00u : 0x7fc0u;
    int with = index || inverse || counts;
    /* per key: its count, then its group; with `with`, its first element */
    uint32_t *h = ars_alloc(NCOUNT16 * (int64_t)sizeof(uint32_t) * (with ? 2 : 1));
    if (!h)
        return ARS_ERR_NOMEM;
    uint32_t *first = with ? h + NCOUNT16 : NULL;
    memset(h, 0, NCOUNT16 * sizeof *h);
    for (int64_t i = 0; i < n; i++) {
        uint16_t b;
        memcpy(&b, x + i * stride, sizeof b);
        uint32_t key = key16(b, inf);
        if (first && !h[key])
            first[key] = (uint32_t)i;
        h[key]++;
    }
    int64_t g = 0;
    for (uint32_t key = 0; key < 0xffffu; key++) {
        uint32_t c = h[key];
        if (!c)
            continue;
        uint16_t b;
        if (first)
            memcpy(&b, x + (int64_t)first[key] * stride, sizeof b);
        else
            b = unkey16(key);
        memcpy(values + g * 2, &b, sizeof b);
        if (index)
            index[g] = first[key];
        if (counts)
            counts[g] = c;
        h[key] = (uint32_t)g++;
    }
    if (h[0xffffu]) {  /* NaNs */
        for (int64_t i = 0; i < n; i++) {
            uint16_t b;
            memcpy(&b, x + i * stride, sizeof b);
            if ((b & 0x7fffu) <= inf)
                continue;
            if (!first)
                b = nan;
            memcpy(values + g * 2, &b, sizeof b);
            if (index)
                index[g] = i;
            if (counts)
                counts[g] = 1;
            if (inverse)
                inverse[i] = g;
            g++;
        }
    }
    if (inverse)
        for (int64_t i = 0; i < n; i++) {
            uint16_t b;
            memcpy(&b, x + i * stride, sizeof b);
            uint32_t key = key16(b, inf);
            if (key != 0xffffu)
                inverse[i] = h[key];
        }
    *k = g;
    ars_free(h);
    return ARS_OK;
}

int ars_unique(const char *x, int64_t n, int64_t stride, int dtype,
               char *values, int64_t *index, int64_t *inverse, int64_t *counts, int64_t *k)
{
    if (dtype < 0 || dtype >= ARS_NDTYPES || (!ars_is_complex(dtype) && !encode_table[dtype]))
        return ARS_ERR_DTYPE;
    int cplx = ars_is_complex(dtype);
    int nan_distinct = ars_is_inexact(dtype);
    int64_t isz = ars_itemsize[dtype];
    *k = 0;
    if (n == 0)
        return ARS_OK;
    if (count16_fits(dtype, n))
        return unique16(x, n, stride, dtype, values, index, inverse, counts, k);
    int need_perm = cplx || index || inverse || counts;
    uint64_t *keys = ars_alloc((int64_t)n * 2 * sizeof(uint64_t));
    int64_t *perm = need_perm ? ars_alloc((int64_t)n * 2 * sizeof(int64_t)) : NULL;
    uint64_t *k2 = cplx ? ars_alloc((int64_t)n * sizeof(uint64_t)) : NULL;
    if (!keys || (need_perm && !perm) || (cplx && !k2)) {
        ars_free(keys);
        ars_free(perm);
        ars_free(k2);
        return ARS_ERR_NOMEM;
    }
    if (cplx) {
        /* LSD over (real, imag): sort by imag, then stably by real */
        uint64_t kre, kim;
        for (int64_t i = 0; i < n; i++) {
            complex_keys(x, stride, dtype, i, &kre, &kim);
            keys[i] = kim;
            perm[i] = i;
        }
        ars_radix_sort(keys, perm, keys + n, perm + n, n);
        for (int64_t i = 0; i < n; i++) {
            complex_keys(x, stride, dtype, perm[i], &kre, &kim);
            keys[i] = kre;
            k2[i] = kim;  /* filled again below in the final order */
        }
        ars_radix_sort(keys, perm, keys + n, perm + n, n);
        for (int64_t i = 0; i < n; i++)
            complex_keys(x, stride, dtype, perm[i], &kre, &k2[i]);
    } else {
        int negzero;
        encode_table[dtype](x, n, stride, keys, &negzero);
        if (perm)
            for (int64_t i = 0; i < n; i++)
                perm[i] = i;
        ars_radix_sort(keys, perm, keys + n, perm ? perm + n : NULL, n);
    }
    int64_t g = -1;
    for (int64_t i = 0; i < n; i++) {
        int same = i > 0 && keys[i] == keys[i - 1] && (!cplx || k2[i] == k2[i - 1]) &&
                   !(nan_distinct && keys[i] == UINT64_MAX);
        if (!same) {
            g++;
            if (perm)
                memcpy(values + g * isz, x + perm[i] * stride, (size_t)isz);
            else
                decode_table[dtype](keys + i, 1, values + g * isz, isz);
            if (index)
                index[g] = perm[i];
            if (counts)
                counts[g] = 0;
        }
        if (counts)
            counts[g]++;
        if (inverse)
            inverse[perm[i]] = g;
    }
    *k = g + 1;
    ars_free(keys);
    ars_free(perm);
    ars_free(k2);
    return ARS_OK;
}

/* ---- searchsorted ------------------------------------------------------------------- */

typedef struct {
    const char *x1;
    int64_t n1, s1;
    int right;
} search_ctx;

/* Binary search on order keys, one loop per dtype (keys computed inline). */
#define DEF_SEARCH(N, T, K)                                                          \
    static void search_##N(char **data, int64_t n, const int64_t *s, void *p)        \
    {                                                                                \
        const search_ctx *c = p;                                                     \
        const char *x1 = c->x1;                                                      \
        const int64_t n1 = c->n1, s1 = c->s1;                                        \
        const int right = c->right;                                                  \
        for (int64_t i = 0; i < n; i++) {                                            \
            uint64_t v = ARS_KEY_##K(T, ld_##N(data[0] + i * s[0]));                 \
            int64_t lo = 0, hi = n1;                                                 \
            /* branchy on purpose: speculation overlaps the cache misses */          \
            while (lo < hi) {                                                        \
                int64_t mid = lo + (hi - lo) / 2;                                    \
                uint64_t m = ARS_KEY_##K(T, ld_##N(x1 + mid * s1));                  \
                if (right ? m <= v : m < v)                                          \
                    lo = mid + 1;                                                    \
                else                                                                 \
                    hi = mid;                                                        \
            }                                                                        \
            st_INT64(data[1] + i * s[1], lo);                                        \
        }                                                                            \
    }
ARS_REAL_DTYPES(DEF_SEARCH)
ARS_NARROW_DTYPES(DEF_SEARCH)
#define ENT_SEARCH(N, T, K) [ARS_##N] = search_##N,
static const ars_loop_fn search_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_SEARCH)
                                                      ARS_NARROW_DTYPES(ENT_SEARCH)};

int ars_searchsorted(const char *x1, int64_t n1, int64_t s1, int dtype, int right,
                     int ndim, const int64_t *shape,
                     const char *x2, const int64_t *x2_strides,
                     char *out, const int64_t *out_strides)
{
    if (dtype < 0 || dtype >= ARS_NDTYPES || !search_table[dtype])
        return ARS_ERR_DTYPE;
    char *data[2] = {(char *)x2, out};
    const int64_t *st[2] = {x2_strides, out_strides};
    search_ctx c = {x1, n1, s1, right};
    int64_t depth = 1;
    while (((int64_t)1 << depth) < n1 + 1 && depth < 62)
        depth++;
    return ars_iter_go(ndim, shape, 2, data, st, search_table[dtype], &c, depth * 64);
}
