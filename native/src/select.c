/* Selection (partition, argpartition): every lane of a real array is copied
 * contiguously and rearranged so that each position kth holds the element
 * that sorted order puts there, the elements before it are <= and those
 * after it >= (NaNs count as largest; -0.0 == 0.0). The order within the
 * parts is unspecified.
 *
 * Two kernels do the work, both introselects: quickselect while it makes
 * progress, and past a depth of about 2 log2(n) a fallback whose cost is
 * bounded (heapselect for the portable one, heapsort of the range left for
 * the vector one).
 *   - Portable: on the values themselves, NaNs set aside at the end of the
 *     lane while it is copied, then a median-of-3 Hoare partition (plain
 *     comparisons on what is left).
 *   - AVX-512, where the CPU has it: on the order keys of the vector quicksort
 *     (sort_avx512.h), partitioned by its vector partition around the median
 *     of a sample, short ranges sorted by its networks.
 * Long lanes of 1- and 2-byte dtypes are counted instead (below).
 * Several kth are selected in increasing order, each on the range left of
 * the previous ones: the split points a partition found beyond a kth are
 * kept, so a later kth starts from the tightest range known to hold it.
 *
 * float16 and bfloat16 are selected on 16-bit keys from their bits (vector)
 * or as their float values (portable), with no counting.
 *
 * argpartition selects the values the same way, then writes the indices of
 * the lane grouped by how they compare with the kth values (key_class): no
 * index travels with the values through the selection. */
#include <stdlib.h>
#include "stats_internal.h"
#include "sort_avx512.h"

/* Split points: every element before one is <= every element from it on.
 * Pushed in decreasing order while one kth is selected; a full stack drops
 * new ones, which only loosens later ranges. */
enum { MAX_BOUNDS = 128 };
typedef struct {
    int64_t v[MAX_BOUNDS];
    int n;
} bounds;

static inline void push_bound(bounds *b, int64_t p)
{
    if (b->n < MAX_BOUNDS)
        b->v[b->n++] = p;
}

/* Select element k of a[lo, hi). */
typedef void (*select1_fn)(void *a, int64_t lo, int64_t hi, int64_t k, bounds *b);

/* The kth (increasing) that lie in [0, m): the others are set-aside elements
 * that already sit in their places at the end of the lane. */
static void select_all(select1_fn f, void *a, int64_t m, const int64_t *kth, int64_t nk)
{
    bounds b;
    b.n = 0;
    int64_t lo = 0;
    for (int64_t i = 0; i < nk && kth[i] < m; i++) {
        int64_t k = kth[i];
        while (b.n && b.v[b.n - 1] <= k) {
            if (b.v[b.n - 1] > lo)
                lo = b.v[b.n - 1];
            b.n--;
        }
        int64_t hi = b.n ? b.v[b.n - 1] : m;
        f(a, lo, hi, k, &b);
        lo = k + 1;
    }
}

static int depth_limit(int64_t n)
{
    int d = 4;
    while (n > 1) {
        n >>= 1;
        d += 2;
    }
    return d;
}

/* ---- the portable introselect, per dtype ---------------------------------------- */

#define ISNAN_KB(v) 0
#define ISNAN_KI(v) 0
#define ISNAN_KU(v) 0
#define ISNAN_KF(v) ((v) != (v))

enum { SMALL_SELECT = 16 };

/* argpartition from the values' selection: with the kth elements' order keys
 * kk[0, nk) (increasing, distinct), every element of the lane falls in one of
 * 2 nk + 1 classes: below kk[0], equal to kk[0], between kk[0] and kk[1], ...,
 * above kk[nk - 1]. Writing the indices class by class (a counting sort on the
 * class) puts each kth's index in a run of elements equal to it, at the place
 * sorted order gives it, with smaller ones before and larger ones after: a
 * partition at every kth, in two linear passes over the input. */
static inline int64_t key_class(uint64_t key, const uint64_t *kk, int64_t nk)
{
    int64_t lo = 0, hi = nk;  /* lo: the number of kk below key */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (kk[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 2 * lo + (lo < nk && kk[lo] == key);
}

#define SWAP_AT(T, a, i, j)                                                            \
    do {                                                                               \
        T t_ = a[i];                                                                   \
        a[i] = a[j];                                                                   \
        a[j] = t_;                                                                     \
    } while (0)

/* sload: the lane into b, NaNs moved to the end; returns how many are not
 * NaN. sstore: b back into a strided lane. skey: the order key of b[k].
 * sselect1: introselect of element k of a[lo, hi) (no NaNs there).
 * scatter: the indices of a lane, grouped by order key (below).
 * The lane holds items of storage type S, loaded as T (ld_N, st_N): the
 * same type but for the narrow floats, selected as their float values. */
#define DEF_SSELECT(N, T, K) DEF_SSELECT_S(N, T, K, T)
#define DEF_SSELECT_S(N, T, K, S)                                                      \
    static int64_t sload_##N(const char *in, int64_t n, int64_t s, void *bv)           \
    {                                                                                  \
        T *b = bv;                                                                     \
        int64_t nan = 0;                                                               \
        if (s == (int64_t)sizeof(T) && sizeof(S) == sizeof(T)) {                       \
            memcpy(b, in, (size_t)n * sizeof(T));                                      \
            for (int64_t i = 0; i < n; i++)                                            \
                nan += ISNAN_##K(b[i]);                                                \
        } else {                                                                       \
            for (int64_t i = 0; i < n; i++) {                                          \
                T v = ld_##N(in + i * s);                                              \
                nan += ISNAN_##K(v);                                                   \
                b[i] = v;                                                              \
            }                                                                          \
        }                                                                              \
        if (!nan)                                                                      \
            return n;                                                                  \
        int64_t h = 0, t = n;                                                          \
        for (int64_t i = 0; i < n; i++) {                                              \
            T v = ld_##N(in + i * s);                                                  \
            if (ISNAN_##K(v))                                                          \
                b[--t] = v;                                                            \
            else                                                                       \
                b[h++] = v;                                                            \
        }                                                                              \
        return h;                                                                      \
    }                                                                                  \
    static uint64_t skey_##N(const void *b, int64_t k, int64_t m, void *val)           \
    {                                                                                  \
        (void)m;                                                                       \
        T v = ((const T *)b)[k];                                                       \
        memcpy(val, &v, sizeof v);                                                     \
        return ARS_KEY_##K(T, v);                                                      \
    }                                                                                  \
    static void scatter_##N(const char *in, int64_t n, int64_t s, const uint64_t *kk,  \
                            int64_t nk, const void *kv, int64_t *pos, char *out,      \
                            int64_t os)                                                \
    {                                                                                  \
        if (nk == 1 && kv) {                                                           \
            /* one kth: compared as values (NaN largest), cursors in registers */    \
            const T v = *(const T *)kv;                                                \
            int64_t lt = 0, eq = 0;                                                    \
            if (ISNAN_##K(v)) {                                                        \
                for (int64_t i = 0; i < n; i++)                                        \
                    lt += !ISNAN_##K(ld_##N(in + i * s));                              \
                eq = n - lt;                                                           \
            } else {                                                                   \
                for (int64_t i = 0; i < n; i++) {                                      \
                    T x = ld_##N(in + i * s);                                          \
                    lt += x < v;                                                       \
                    eq += x == v;                                                      \
                }                                                                      \
            }                                                                          \
            /* the class and the cursor without branches (masks, not ?: or   \
             * ||): on random data a branch per element mispredicts half the  \
             * time, which took three quarters of the call */                 \
            int64_t p0 = 0, p1 = lt, p2 = lt + eq;                                     \
            const int vnan = ISNAN_##K(v);                                             \
            for (int64_t i = 0; i < n; i++) {                                          \
                T x = ld_##N(in + i * s);                                              \
                int xn = ISNAN_##K(x);                                                 \
                int c = vnan ? xn : ((int)(x >= v) | xn) + ((int)(x > v) | xn);        \
                int64_t m0 = -(int64_t)(c == 0), m1 = -(int64_t)(c == 1);             \
                int64_t m2 = -(int64_t)(c == 2);                                       \
                int64_t at = (p0 & m0) | (p1 & m1) | (p2 & m2);                        \
                st_INT64(out + at * os, i);                                            \
                p0 -= m0;                                                              \
                p1 -= m1;                                                              \
                p2 -= m2;                                                              \
            }                                                                          \
            return;                                                                    \
        }                                                                              \
        int64_t nc = 2 * nk + 1;                                                       \
        memset(pos, 0, (size_t)nc * sizeof(int64_t));                                  \
        for (int64_t i = 0; i < n; i++)                                                \
            pos[key_class(ARS_KEY_##K(T, ld_##N(in + i * s)), kk, nk)]++;              \
        for (int64_t c = 0, sum = 0; c < nc; c++) {                                    \
            int64_t t = pos[c];                                                        \
            pos[c] = sum;                                                              \
            sum += t;                                                                  \
        }                                                                              \
        for (int64_t i = 0; i < n; i++) {                                              \
            int64_t c = key_class(ARS_KEY_##K(T, ld_##N(in + i * s)), kk, nk);         \
            st_INT64(out + pos[c]++ * os, i);                                          \
        }                                                                              \
    }                                                                                  \
    static void sstore_##N(const void *bv, int64_t n, char *out, int64_t os)           \
    {                                                                                  \
        const T *b = bv;                                                               \
        for (int64_t i = 0; i < n; i++)                                                \
            st_##N(out + i * os, b[i]);                                                \
    }                                                                                  \
    static void ssift_##N(T *a, int64_t i, int64_t n)                     \
    {                                                                                  \
        for (;;) {                                                                     \
            int64_t c = 2 * i + 1;                                                     \
            if (c >= n)                                                                \
                return;                                                                \
            if (c + 1 < n && a[c] < a[c + 1])                                          \
                c++;                                                                   \
            if (!(a[i] < a[c]))                                                        \
                return;                                                                \
            SWAP_AT(T, a, i, c);                                                   \
            i = c;                                                                     \
        }                                                                              \
    }                                                                                  \
    /* Heapselect of element k of a[0, n): a max-heap of the k + 1 smallest seen. */  \
    static void sheapselect_##N(T *a, int64_t n, int64_t k)               \
    {                                                                                  \
        int64_t h = k + 1;                                                             \
        for (int64_t i = h / 2 - 1; i >= 0; i--)                                       \
            ssift_##N(a, i, h);                                                    \
        for (int64_t i = h; i < n; i++)                                                \
            if (a[i] < a[0]) {                                                         \
                SWAP_AT(T, a, 0, i);                                               \
                ssift_##N(a, 0, h);                                                \
            }                                                                          \
        SWAP_AT(T, a, 0, k);                                                       \
    }                                                                                  \
    static void sselect1_##N(void *av, int64_t lo, int64_t hi, int64_t k, bounds *bd)                                               \
    {                                                                                  \
        T *a = av;                                                                     \
        int depth = depth_limit(hi - lo);                                              \
        while (hi - lo > SMALL_SELECT) {                                               \
            if (depth-- <= 0) {                                                        \
                sheapselect_##N(a + lo, hi - lo, k - lo);         \
                return;                                                                \
            }                                                                          \
            /* median of 3 into a[lo + 1], with a[lo] <= it <= a[hi - 1] */            \
            int64_t mid = lo + (hi - lo) / 2;                                          \
            if (a[mid] < a[lo])                                                        \
                SWAP_AT(T, a, mid, lo);                                            \
            if (a[hi - 1] < a[mid])                                                    \
                SWAP_AT(T, a, hi - 1, mid);                                        \
            if (a[mid] < a[lo])                                                        \
                SWAP_AT(T, a, mid, lo);                                            \
            SWAP_AT(T, a, mid, lo + 1);                                            \
            T pv = a[lo + 1];                                                          \
            /* Hoare partition of (lo + 1, hi - 1): a[lo + 1] and a[hi - 1] stop */    \
            /* the scans; both stop on keys equal to the pivot */                      \
            int64_t i = lo + 1, j = hi - 1;                                            \
            for (;;) {                                                                 \
                do                                                                     \
                    i++;                                                               \
                while (a[i] < pv);                                                     \
                do                                                                     \
                    j--;                                                               \
                while (pv < a[j]);                                                     \
                if (j < i)                                                             \
                    break;                                                             \
                SWAP_AT(T, a, i, j);                                               \
            }                                                                          \
            SWAP_AT(T, a, lo + 1, j);                                              \
            /* a[lo, j) <= a[j] == pv <= a(j, hi) */                                   \
            if (j == k)                                                                \
                return;                                                                \
            if (k < j) {                                                               \
                push_bound(bd, j);                                                     \
                hi = j;                                                                \
            } else {                                                                   \
                lo = j + 1;                                                            \
            }                                                                          \
        }                                                                              \
        for (int64_t i = lo + 1; i < hi; i++)                                          \
            for (int64_t j = i; j > lo && a[j] < a[j - 1]; j--)                        \
                SWAP_AT(T, a, j, j - 1);                                           \
    }
ARS_REAL_DTYPES(DEF_SSELECT)

/* Narrow floats, portable: selected as floats (exact), stored back exactly
 * (bits kept, NaNs too); N_F names the float view of the dtype N. */
#define SEL_NARROW(X) X(FLOAT16, FLOAT16_F) X(BFLOAT16, BFLOAT16_F)
static inline float ld_FLOAT16_F(const char *p) { return ars_h2f(ld_FLOAT16(p)); }
static inline void st_FLOAT16_F(char *p, float v) { st_FLOAT16(p, ars_f2h(v)); }
static inline float ld_BFLOAT16_F(const char *p) { return ars_bf16_to_float(ld_BFLOAT16(p)); }
static inline void st_BFLOAT16_F(char *p, float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    ars_bf16 h = {(uint16_t)(b >> 16)};
    st_BFLOAT16(p, h);
}
DEF_SSELECT_S(FLOAT16_F, float, KF, ars_f16)
DEF_SSELECT_S(BFLOAT16_F, float, KF, ars_bf16)

typedef int64_t (*sload_fn)(const char *in, int64_t n, int64_t s, void *b);
/* The order key of element k of a selected lane (m elements before the
 * set-aside ones); its value's bytes into val. */
typedef uint64_t (*key_fn)(const void *b, int64_t k, int64_t m, void *val);

/* scatter: kv, when not NULL, is the value of the one kth (nk == 1) */
typedef void (*scatter_fn)(const char *in, int64_t n, int64_t s, const uint64_t *kk, int64_t nk,
                           const void *kv, int64_t *pos, char *out, int64_t os);
typedef void (*sstore_fn)(const void *b, int64_t n, char *out, int64_t os);
#define ENT_SLOAD(N, T, K) [ARS_##N] = sload_##N,
#define ENT_SSTORE(N, T, K) [ARS_##N] = sstore_##N,
#define ENT_SSEL(N, T, K) [ARS_##N] = sselect1_##N,
#define ENT_SKEY(N, T, K) [ARS_##N] = skey_##N,
#define ENT_SCATTER(N, T, K) [ARS_##N] = scatter_##N,
#define ENT_N_SLOAD(N, F) [ARS_##N] = sload_##F,
#define ENT_N_SSTORE(N, F) [ARS_##N] = sstore_##F,
#define ENT_N_SSEL(N, F) [ARS_##N] = sselect1_##F,
#define ENT_N_SKEY(N, F) [ARS_##N] = skey_##F,
#define ENT_N_SCATTER(N, F) [ARS_##N] = scatter_##F,
static const sload_fn sload_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_SLOAD)
    SEL_NARROW(ENT_N_SLOAD)};
static const sstore_fn sstore_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_SSTORE)
    SEL_NARROW(ENT_N_SSTORE)};
static const select1_fn sselect_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_SSEL)
    SEL_NARROW(ENT_N_SSEL)};
static const key_fn skey_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_SKEY)
    SEL_NARROW(ENT_N_SKEY)};
static const scatter_fn scatter_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_SCATTER)
    SEL_NARROW(ENT_N_SCATTER)};

/* ---- the vector introselect (AVX-512) --------------------------------------------- */

#if ARS_SORT_SIMD
/* vselect1_SUF: element k of a[lo, hi) of keys, on the vector quicksort's
 * partition, pivots, networks and heapsort. */
#define DEF_VSELECT(SUF, KT, KMAX, BASE)                                               \
    static void vselect1_##SUF(void *av, int64_t lo, int64_t hi, int64_t k, bounds *bd) \
    {                                                                                  \
        KT *a = av;                                                                    \
        int depth = depth_limit(hi - lo);                                              \
        while (hi - lo > (BASE)) {                                                     \
            int64_t n = hi - lo;                                                       \
            KT *b = a + lo;                                                            \
            if (depth-- <= 0) {                                                        \
                heapsort_##SUF(b, NULL, n);                                            \
                return;                                                                \
            }                                                                          \
            KT pv = n >= 8192 ? pivot_wide_##SUF(b, n) : pivot_##SUF(b, n);            \
            int64_t p = partition_##SUF(b, NULL, n, pv);                               \
            if (p == 0) {                                                              \
                /* pv is the range's least key: its copies go first and are done */    \
                if (pv == (KMAX))                                                      \
                    return;                                                            \
                p = partition_##SUF(b, NULL, n, (KT)(pv + 1));                         \
                if (k < lo + p) {                                                      \
                    push_bound(bd, lo + p);                                            \
                    return;                                                            \
                }                                                                      \
                lo += p;                                                               \
                continue;                                                              \
            }                                                                          \
            if (k < lo + p) {                                                          \
                push_bound(bd, lo + p);                                                \
                hi = lo + p;                                                           \
            } else {                                                                   \
                lo += p;                                                               \
            }                                                                          \
        }                                                                              \
        small_sort_##SUF(a + lo, NULL, hi - lo);                                       \
    }
DEF_VSELECT(k64, int64_t, INT64_MAX, 128)
DEF_VSELECT(k32, int32_t, INT32_MAX, 256)

/* vkey64_N, vkey32_N: the order key of element k of a lane of keys whose
 * first m are keys and the rest set-aside values (their bytes). */
#define DEF_VKEY(W, KT, N, T, K)                                                       \
    static uint64_t vkey##W##_##N(const void *kv, int64_t k, int64_t m, void *val)     \
    {                                                                                  \
        const KT *kp = kv;                                                             \
        T v;                                                                           \
        if (k < m)                                                                     \
            v = QUNKEY##W##_##K(T, kp[k]);                                             \
        else                                                                           \
            memcpy(&v, &kp[k], sizeof v);                                              \
        memcpy(val, &v, sizeof v);                                                     \
        return ARS_KEY_##K(T, v);                                                      \
    }
#define DEF_VKEY64(N, T, K) DEF_VKEY(64, int64_t, N, T, K)
#define DEF_VKEY32(N, T, K) DEF_VKEY(32, int32_t, N, T, K)
ARS_REAL_DTYPES(DEF_VKEY64)
ARS_REAL_DTYPES(DEF_VKEY32)
/* narrow floats: the value as a float and its float key, as the scatter
 * (selected as floats) compares them */
#define DEF_VKEY_N(W, KT, N, T)                                                        \
    static uint64_t vkey##W##_##N(const void *kv, int64_t k, int64_t m, void *val)     \
    {                                                                                  \
        const KT *kp = kv;                                                             \
        T v;                                                                           \
        if (k < m)                                                                     \
            v = QUNKEY##W##_KN(T, kp[k]);                                              \
        else                                                                           \
            memcpy(&v, &kp[k], sizeof v);                                              \
        float f = NARROW_TO_FLOAT(v);                                                  \
        memcpy(val, &f, sizeof f);                                                     \
        return ARS_KEY_KF(float, f);                                                   \
    }
#define DEF_VKEY64_N(N, T, K) DEF_VKEY_N(64, int64_t, N, T)
#define DEF_VKEY32_N(N, T, K) DEF_VKEY_N(32, int32_t, N, T)
ARS_NARROW_DTYPES(DEF_VKEY64_N)
ARS_NARROW_DTYPES(DEF_VKEY32_N)

#define ENT_VKEY64(N, T, K) [ARS_##N] = vkey64_##N,
#define ENT_VKEY32(N, T, K) [ARS_##N] = Q32_FN(N, T, vkey),
static const key_fn vkey64_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_VKEY64)
    ARS_NARROW_DTYPES(ENT_VKEY64)};
static const key_fn vkey32_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_VKEY32)
    ARS_NARROW_DTYPES(ENT_VKEY32)};
#endif

/* ---- counting, for long lanes of bool, (u)int8 and (u)int16 --------------------------
 *
 * A count of each value in one pass, then the lane written back in sorted
 * order (a partition at every kth), or, for argpartition, the kth values read
 * off the running counts. Linear, with no comparison to mispredict: faster
 * than any selection once the lane is long next to the number of values. */
enum { COUNT_MIN_1 = 256, COUNT_MIN_2 = 1 << 14 };

/* The number of counters of a dtype: one per value of 1 or 2 bytes. */
#define NCOUNT(T) (sizeof(T) <= 2 ? (int64_t)1 << (8 * sizeof(T)) : 0)
#define DEF_COUNT(N, T, K)                                                             \
    static void count_##N(const char *in, int64_t n, int64_t s, int64_t *h)            \
    {                                                                                  \
        memset(h, 0, (size_t)NCOUNT(T) * sizeof(int64_t));                             \
        for (int64_t i = 0; i < n; i++)                                                \
            h[(int64_t)ld_##N(in + i * s) - (int64_t)LO_##K(T)]++;                     \
    }                                                                                  \
    static void cfill_##N(const int64_t *h, char *out, int64_t os)                     \
    {                                                                                  \
        int64_t j = 0;                                                                 \
        for (int64_t b = 0; b < NCOUNT(T); b++) {                                      \
            T v = (T)(b + (int64_t)LO_##K(T));                                         \
            for (int64_t e = j + h[b]; j < e; j++)                                     \
                st_##N(out + j * os, v);                                               \
        }                                                                              \
    }                                                                                  \
    /* the value of counter b (its bytes into val) and its order key */              \
    static uint64_t cvalue_##N(const void *h, int64_t b, int64_t m, void *val)         \
    {                                                                                  \
        (void)h;                                                                       \
        (void)m;                                                                       \
        T v = (T)(b + (int64_t)LO_##K(T));                                             \
        memcpy(val, &v, sizeof v);                                                     \
        return ARS_KEY_##K(T, v);                                                      \
    }
ARS_REAL_DTYPES(DEF_COUNT)
typedef void (*count_fn)(const char *in, int64_t n, int64_t s, int64_t *h);
typedef void (*cfill_fn)(const int64_t *h, char *out, int64_t os);
#define COUNT_FN(N, T, F) (sizeof(T) <= 2 ? F##_##N : NULL)
#define ENT_COUNT(N, T, K) [ARS_##N] = COUNT_FN(N, T, count),
#define ENT_CFILL(N, T, K) [ARS_##N] = COUNT_FN(N, T, cfill),
#define ENT_CVALUE(N, T, K) [ARS_##N] = COUNT_FN(N, T, cvalue),
static const count_fn count_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_COUNT)};
static const cfill_fn cfill_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_CFILL)};
static const key_fn cvalue_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_CVALUE)};

/* The counter of each kth (increasing), from the running counts. */
static void count_kth(const int64_t *h, const int64_t *kth, int64_t nk, int64_t *bucket)
{
    int64_t b = 0, below = 0;  /* below: the elements in counters before b */
    for (int64_t i = 0; i < nk; i++) {
        while (below + h[b] <= kth[i])
            below += h[b++];
        bucket[i] = b;
    }
}

/* ---- lanes ------------------------------------------------------------------------ */

/* Lanes at least this long take the vector kernel where there is one. */
enum { VSELECT_MIN = 64 };

typedef struct {
    int dtype, arg, vector;
    int64_t n, in_step, out_step;
    const int64_t *kth;
    int64_t nkth;
    int failed;  /* set atomically: lanes run on several threads */
} select_ctx;

/* Whether the lanes of out, at data[1] + b * s[1], are dense items of isz bytes. */
static int dense_lanes(char **data, const int64_t *s, int64_t os, int64_t isz)
{
    return os == isz && s[1] % isz == 0 && (uintptr_t)data[1] % (uintptr_t)isz == 0;
}

/* The distinct order keys of the kth elements of a selected lane, in kk;
 * returns how many. The last one's value goes to *val. */
static int64_t kth_keys(key_fn f, const void *w, int64_t m, const int64_t *kth, int64_t nk,
                        uint64_t *kk, uint64_t *val)
{
    int64_t nkk = 0;
    for (int64_t i = 0; i < nk; i++) {
        uint64_t key = f(w, kth[i], m, val);
        if (!nkk || kk[nkk - 1] != key)
            kk[nkk++] = key;
    }
    return nkk;
}

static void select_loop(char **data, int64_t nl, const int64_t *s, void *p)
{
    select_ctx *c = p;
    int64_t n = c->n, os = c->out_step, isz = ars_itemsize[c->dtype], nk = c->nkth;
    int vec = 0, k32 = 0;
#if ARS_SORT_SIMD
    vec = c->vector && n >= VSELECT_MIN && have_avx512();
    k32 = vec && isz <= 4;
#endif
    /* the working copy of a lane: keys (vector) or values (portable), in out
     * itself when out's lanes are dense and wide enough (argpartition: int64
     * slots, read before the indices are written over them) */
    int counting = c->vector && count_table[c->dtype] &&
                   n >= (isz == 1 ? COUNT_MIN_1 : COUNT_MIN_2);
    if (counting)
        vec = 0;
    /* (the portable kernel works on narrow floats as floats) */
    int64_t wsz = counting ? 8 : vec ? (k32 ? 4 : 8) : isz == 2 && ars_is_inexact(c->dtype) ? 4 : isz;
    int work_in_out = c->arg ? dense_lanes(data, s, os, 8)
                             : wsz == isz && dense_lanes(data, s, os, isz);
    /* counting: the counters (and the kth's counters) instead of a copy */
    void *wbuf = counting ? ars_alloc((int64_t)(NCOUNT(int16_t) + nk) * sizeof(int64_t))
                          : work_in_out ? NULL : ars_alloc((int64_t)(n * wsz));
    if (counting)
        work_in_out = 0;
    /* argpartition: the kth keys and the class counts */
    uint64_t *kk = c->arg ? ars_alloc((int64_t)(nk * 3 + 1) * sizeof(uint64_t)) : NULL;
    if ((!work_in_out && !wbuf) || (c->arg && !kk)) {
        ars_free(wbuf);
        ars_free(kk);
        __atomic_store_n(&c->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    for (int64_t b = 0; b < nl; b++) {
        const char *in = data[0] + b * s[0];
        char *out = data[1] + b * s[1];
        void *w = work_in_out ? (void *)out : wbuf;
        int64_t m, nkk = 0;
        uint64_t kv = 0;  /* the value of the kth when there is one (any real dtype fits) */
        if (counting) {
            int64_t *h = wbuf, *bucket = h + NCOUNT(int16_t);
            count_table[c->dtype](in, n, c->in_step, h);
            if (!c->arg) {
                cfill_table[c->dtype](h, out, os);
                continue;
            }
            count_kth(h, c->kth, nk, bucket);
            nkk = kth_keys(cvalue_table[c->dtype], NULL, 0, bucket, nk, kk, &kv);
        } else
#if ARS_SORT_SIMD
        if (vec) {
            if (k32)
                m = qencode32_table[c->dtype](in, n, c->in_step, w, NULL, 0);
            else
                m = qencode64_table[c->dtype](in, n, c->in_step, w, NULL, 0);
            select_all(k32 ? vselect1_k32 : vselect1_k64, w, m, c->kth, nk);
            if (c->arg)
                nkk = kth_keys((k32 ? vkey32_table : vkey64_table)[c->dtype], w, m, c->kth, nk,
                               kk, &kv);
            else if (k32)
                qdecode32_table[c->dtype](w, 0, n, n, m, out, os, 0);
            else
                qdecode64_table[c->dtype](w, 0, n, n, m, out, os, 0);
        } else
#endif
        {
            m = sload_table[c->dtype](in, n, c->in_step, w);
            select_all(sselect_table[c->dtype], w, m, c->kth, nk);
            if (c->arg)
                nkk = kth_keys(skey_table[c->dtype], w, m, c->kth, nk, kk, &kv);
            else if (!work_in_out)
                sstore_table[c->dtype](w, n, out, os);
        }
        if (c->arg)
            scatter_table[c->dtype](in, n, c->in_step, kk, nkk, nkk == 1 ? &kv : NULL,
                                    (int64_t *)(kk + nk), out, os);
    }
    ars_free(wbuf);
    ars_free(kk);
}

int ars_select(int ndim, const int64_t *shape,
               const char *in, const int64_t *in_strides, int dtype, int64_t n, int64_t in_step,
               char *out, const int64_t *out_strides, int64_t out_step,
               const int64_t *kth, int64_t nkth, int flags)
{
    if (dtype < 0 || dtype >= ARS_NDTYPES || !sload_table[dtype])
        return ARS_ERR_DTYPE;
    if (n > INT64_MAX / 16)
        return ARS_ERR_SIZE;
    for (int64_t i = 0; i < nkth; i++)
        if (kth[i] < 0 || kth[i] >= n || (i > 0 && kth[i] <= kth[i - 1]))
            return ARS_ERR_ARG;
    char *data[2] = {(char *)in, out};
    const int64_t *st[2] = {in_strides, out_strides};
    select_ctx c = {dtype, (flags & ARS_SELECT_ARG) != 0, (flags & ARS_SELECT_PORTABLE) == 0,
                    n, in_step, out_step, kth, nkth, 0};
    int rc = ars_iter_go(ndim, shape, 2, data, st, select_loop, &c, (n + 1) * 16);
    if (rc)
        return rc;
    return c.failed ? ARS_ERR_NOMEM : ARS_OK;
}
