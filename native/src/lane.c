/* Lane kernels: argmax/argmin, cumulative sums and products, differences.
 * Each runs along one axis for every element of the other (batch) dims,
 * which the shared iterator walks (and splits across threads). */
#include "stats_internal.h"
#include "ew_narrow.h"

typedef void (*lane_fn)(const char *in, int64_t n, int64_t s, char *out, int64_t os, int flag);

/* A narrow float lane (kind KN) is read in blocks of LANE_NARROW elements
 * widened to float (exact, the hardware conversion where the CPU has one),
 * and computed in float as its float32 copy would be. */
enum { LANE_NARROW = 256 };

/* ---- argmax / argmin: first occurrence; the first NaN wins ---------------- */
#define ISNAN_KB(v) 0
#define ISNAN_KI(v) 0
#define ISNAN_KU(v) 0
#define ISNAN_KF(v) ((v) != (v))

/* FN_N: the index of the first element that no later one beats under CMP. */
#define DEF_ARGBEST(FN, CMP, N, T, K)                                               \
    static void FN##_##N(const char *in, int64_t n, int64_t s, char *out, int64_t os, int flag) \
    {                                                                               \
        (void)os; (void)flag;                                                       \
        int64_t best = 0;                                                           \
        T bv = ld_##N(in);                                                          \
        if (!ISNAN_##K(bv)) {                                                       \
            for (int64_t i = 1; i < n; i++) {                                       \
                T v = ld_##N(in + i * s);                                           \
                if (ISNAN_##K(v)) { best = i; break; }                              \
                if (v CMP bv) { bv = v; best = i; }                                 \
            }                                                                       \
        }                                                                           \
        st_INT64(out, best);                                                        \
    }
#define DEF_ARG(N, T, K) DEF_ARGBEST(argmax, >, N, T, K) DEF_ARGBEST(argmin, <, N, T, K)
ARS_REAL_DTYPES(DEF_ARG)

/* The same for a narrow float, compared as floats. */
#define DEF_ARGBEST_N(FN, CMP, N)                                                   \
    static void FN##_##N(const char *in, int64_t n, int64_t s, char *out, int64_t os, int flag) \
    {                                                                               \
        (void)os; (void)flag;                                                       \
        float b[LANE_NARROW], bv = 0;                                               \
        int64_t best = 0;                                                           \
        for (int64_t i0 = 0; i0 < n; i0 += LANE_NARROW) {                           \
            int64_t m = n - i0 < LANE_NARROW ? n - i0 : LANE_NARROW, k = 0;         \
            ars_load_##N(b, in + i0 * s, s, m);                                     \
            if (i0 == 0) {                                                          \
                bv = b[0];                                                          \
                if (bv != bv)                                                       \
                    break;                                                          \
                k = 1;                                                              \
            }                                                                       \
            for (; k < m; k++) {                                                    \
                float v = b[k];                                                     \
                if (v != v) {                                                       \
                    st_INT64(out, i0 + k);                                          \
                    return;                                                         \
                }                                                                   \
                if (v CMP bv) { bv = v; best = i0 + k; }                            \
            }                                                                       \
        }                                                                           \
        st_INT64(out, best);                                                        \
    }
#define DEF_ARG_N(N, T, K) DEF_ARGBEST_N(argmax, >, N) DEF_ARGBEST_N(argmin, <, N)
ARS_NARROW_DTYPES(DEF_ARG_N)

/* ---- cumulative sums and products into an accumulator dtype ------------------ */
/* FN_AN_IN: running OP from INIT (with `flag`, INIT itself is written first). */
#define DEF_SCAN(FN, INIT, OP, AN, AT, AK, IN, IK)                                     \
    static void FN##_##AN##_##IN(const char *in, int64_t n, int64_t s, char *out, int64_t os, int flag) \
    {                                                                                \
        AT t = (AT)INIT;                                                             \
        if (flag) { st_##AN(out, t); out += os; }                                    \
        for (int64_t i = 0; i < n; i++) {                                            \
            t = OP##_##AK(AT, t, ACONV_##AK##_##IK(AT, ld_##IN(in + i * s)));         \
            st_##AN(out + i * os, t);                                                \
        }                                                                            \
    }
#define DEF_CUM(AN, AT, AK, IN, IT, IK)                                              \
    DEF_SCAN(cumsum, 0, ADD, AN, AT, AK, IN, IK)                                     \
    DEF_SCAN(cumprod, 1, MUL, AN, AT, AK, IN, IK)
#define DEF_CUM_ROW(AN, AT, AK) ARS_DTYPES2(DEF_CUM, AN, AT, AK)
ARS_ACC_DTYPES(DEF_CUM_ROW)

/* A narrow input: its blocks widened, then as DEF_SCAN. */
#define DEF_SCAN_N(FN, INIT, OP, AN, AT, AK, IN)                                     \
    static void FN##_##AN##_##IN(const char *in, int64_t n, int64_t s, char *out, int64_t os, int flag) \
    {                                                                                \
        AT t = (AT)INIT;                                                             \
        float b[LANE_NARROW];                                                        \
        if (flag) { st_##AN(out, t); out += os; }                                    \
        for (int64_t i0 = 0; i0 < n; i0 += LANE_NARROW) {                            \
            int64_t m = n - i0 < LANE_NARROW ? n - i0 : LANE_NARROW;                 \
            ars_load_##IN(b, in + i0 * s, s, m);                                     \
            char *o = out + i0 * os;                                                 \
            for (int64_t k = 0; k < m; k++) {                                        \
                t = OP##_##AK(AT, t, ACONV_##AK##_KF(AT, b[k]));                     \
                st_##AN(o + k * os, t);                                              \
            }                                                                        \
        }                                                                            \
    }
#define DEF_CUM_N(AN, AT, AK, IN, IT, IK)                                            \
    DEF_SCAN_N(cumsum, 0, ADD, AN, AT, AK, IN)                                       \
    DEF_SCAN_N(cumprod, 1, MUL, AN, AT, AK, IN)
#define DEF_CUM_N_ROW(AN, AT, AK) ARS_NARROW_DTYPES2(DEF_CUM_N, AN, AT, AK)
ARS_ACC_DTYPES(DEF_CUM_N_ROW)

/* A narrow input into its own dtype: the running value kept in float32, each
 * rounded once to the output (as the float32 accumulation then a cast). */
#define DEF_SCAN_NN(FN, INIT, OP, N)                                                 \
    static void FN##_##N##_##N(const char *in, int64_t n, int64_t s, char *out, int64_t os, int flag) \
    {                                                                                \
        float t = INIT, b[LANE_NARROW];                                              \
        if (flag) { ars_store_##N(out, os, &t, 1); out += os; }                      \
        for (int64_t i0 = 0; i0 < n; i0 += LANE_NARROW) {                            \
            int64_t m = n - i0 < LANE_NARROW ? n - i0 : LANE_NARROW;                 \
            ars_load_##N(b, in + i0 * s, s, m);                                      \
            for (int64_t k = 0; k < m; k++) {                                        \
                t = OP##_KF(float, t, b[k]);                                         \
                b[k] = t;                                                            \
            }                                                                        \
            ars_store_##N(out + i0 * os, os, b, m);                                  \
        }                                                                            \
    }
#define DEF_CUM_NN(N, T, K) DEF_SCAN_NN(cumsum, 0, ADD, N) DEF_SCAN_NN(cumprod, 1, MUL, N)
ARS_NARROW_DTYPES(DEF_CUM_NN)

/* ---- first differences in the input dtype ----------------------------------- */
#define DEF_DIFF(N, T, K)                                                            \
    static void diff_##N(const char *in, int64_t n, int64_t s, char *out, int64_t os, int flag) \
    {                                                                                \
        (void)flag;                                                                  \
        if (n < 2)                                                                   \
            return;                                                                  \
        T prev = ld_##N(in);                                                         \
        for (int64_t i = 1; i < n; i++) {                                            \
            T v = ld_##N(in + i * s);                                                \
            st_##N(out + (i - 1) * os, SUB_##K(T, v, prev));                         \
            prev = v;                                                                \
        }                                                                            \
    }
ARS_DTYPES(DEF_DIFF)

/* A narrow input: differences in float32, into float32 (exact: OUT FLOAT32)
 * or rounded once to the input's dtype (OUT its own). */
#define DEF_DIFF_N(N, OUT, STORE)                                                    \
    static void diff_##N##_##OUT(const char *in, int64_t n, int64_t s, char *out, int64_t os, int flag) \
    {                                                                                \
        (void)flag;                                                                  \
        float b[LANE_NARROW + 1];                                                    \
        if (n < 2)                                                                   \
            return;                                                                  \
        ars_load_##N(b, in, s, 1);                                                   \
        for (int64_t i0 = 1; i0 < n; i0 += LANE_NARROW) {                            \
            int64_t m = n - i0 < LANE_NARROW ? n - i0 : LANE_NARROW;                 \
            ars_load_##N(b + 1, in + i0 * s, s, m);                                  \
            float prev = b[0];                                                       \
            for (int64_t k = 0; k < m; k++) {                                        \
                float v = b[k + 1];                                                  \
                b[k] = v - prev;                                                     \
                prev = v;                                                            \
            }                                                                        \
            STORE(N, out + (i0 - 1) * os, os, b, m);                                 \
            b[0] = prev;                                                             \
        }                                                                            \
    }
#define DIFF_STORE_NARROW(N, o, os, b, m) ars_store_##N(o, os, b, m)
#define DIFF_STORE_FLOAT32(N, o, os, b, m)                                           \
    for (int64_t k_ = 0; k_ < (m); k_++)                                             \
        st_FLOAT32((o) + k_ * (os), (b)[k_])
#define DEF_DIFF_NN(N, T, K) DEF_DIFF_N(N, N, DIFF_STORE_NARROW) DEF_DIFF_N(N, FLOAT32, DIFF_STORE_FLOAT32)
ARS_NARROW_DTYPES(DEF_DIFF_NN)

#define ENT_ARG(N, T, K) [ARS_LANE_ARGMAX][ARS_##N][ARS_INT64] = argmax_##N, \
                         [ARS_LANE_ARGMIN][ARS_##N][ARS_INT64] = argmin_##N,
#define ENT_CUM(AN, AT, AK, IN, IT, IK) [ARS_LANE_CUMSUM][ARS_##IN][ARS_##AN] = cumsum_##AN##_##IN, \
                                        [ARS_LANE_CUMPROD][ARS_##IN][ARS_##AN] = cumprod_##AN##_##IN,
#define ENT_CUM_ROW(AN, AT, AK) ARS_STORAGE_DTYPES2(ENT_CUM, AN, AT, AK)
#define ENT_DIFF(N, T, K) [ARS_LANE_DIFF][ARS_##N][ARS_##N] = diff_##N,
/* a narrow float's scans into its own dtype, and its differences */
#define ENT_NARROW(N, T, K)                                                  \
    [ARS_LANE_CUMSUM][ARS_##N][ARS_##N] = cumsum_##N##_##N,                  \
    [ARS_LANE_CUMPROD][ARS_##N][ARS_##N] = cumprod_##N##_##N,                \
    [ARS_LANE_DIFF][ARS_##N][ARS_##N] = diff_##N##_##N,                      \
    [ARS_LANE_DIFF][ARS_##N][ARS_FLOAT32] = diff_##N##_FLOAT32,

/* lane_table[op][in dtype][out dtype] */
static const lane_fn lane_table[ARS_LANE_DIFF + 1][ARS_NDTYPES][ARS_NDTYPES] = {
    ARS_REAL_DTYPES(ENT_ARG)
    ARS_NARROW_DTYPES(ENT_ARG)
    ARS_ACC_DTYPES(ENT_CUM_ROW)
    ARS_DTYPES(ENT_DIFF)
    ARS_NARROW_DTYPES(ENT_NARROW)
};

typedef struct {
    lane_fn fn;
    int64_t in_len, in_step, out_step;
    int flag;
} lane_ctx;

static void lane_loop(char **data, int64_t n, const int64_t *s, void *p)
{
    const lane_ctx *c = p;
    for (int64_t b = 0; b < n; b++)
        c->fn(data[0] + b * s[0], c->in_len, c->in_step, data[1] + b * s[1], c->out_step, c->flag);
}

int ars_lane(int op, int ndim, const int64_t *shape,
             const char *in, const int64_t *in_strides, int in_dtype,
             int64_t in_len, int64_t in_step,
             char *out, const int64_t *out_strides, int out_dtype, int64_t out_step,
             int flag)
{
    if (op < 0 || op > ARS_LANE_DIFF || in_dtype < 0 || in_dtype >= ARS_NDTYPES ||
        out_dtype < 0 || out_dtype >= ARS_NDTYPES)
        return ARS_ERR_DTYPE;
    lane_fn fn = lane_table[op][in_dtype][out_dtype];
    if (!fn)
        return ARS_ERR_DTYPE;
    if ((op == ARS_LANE_ARGMAX || op == ARS_LANE_ARGMIN) && in_len < 1)
        return ARS_ERR_ARG;
    char *data[2] = {(char *)in, out};
    const int64_t *st[2] = {in_strides, out_strides};
    lane_ctx c = {fn, in_len, in_step, out_step, flag};
    /* bytes per batch element, saturating (it only sets the thread grain) */
    int64_t work = in_len < ((int64_t)1 << 40) ? in_len + 1 : (int64_t)1 << 40;
    work *= ars_itemsize[in_dtype] + ars_itemsize[out_dtype];
    return ars_iter_go(ndim, shape, 2, data, st, lane_loop, &c, work);
}
