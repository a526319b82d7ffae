/* Elementwise functions: every operation of ew_ops.h stamped into a loop per
 * dtype, dispatch tables table[op][dtype], and the entry points. */
#include <stdlib.h>
#include <string.h>
#include <emmintrin.h>
#include "ew_ops.h"

/* ---- streaming stores for large contiguous outputs ----------------------------
 * A large output is computed in L1-sized chunks into a scratch buffer and then
 * written with non-temporal stores: the output lines are never read first
 * (no read-for-ownership), which saves a quarter of the memory traffic of a
 * binary op. Only for outputs well beyond the caches: an output that fits in
 * L2/L3 is faster written normally (and is then still cached for the next
 * operation); on a 2-core Xeon with 4 MiB L2, X * X on float64 ran 2.3x slower
 * streamed at 800 KB, 8% slower at 8 MB, even at 24 MB and 30% faster at 80 MB.
 * The entry points pass a non-NULL ctx when the whole output is at least
 * STREAM_TOTAL_BYTES; a piece of it (a thread's chunk) then streams when it is
 * at least STREAM_MIN_BYTES. */
enum { STREAM_MIN_BYTES = 1 << 16, CHUNK_BYTES = 8192 };
static const int64_t STREAM_TOTAL_BYTES = (int64_t)1 << 24;
static const int stream_on = 1;

/* The ctx of a unary or binary loop: non-NULL when the output streams. */
static void *stream_ctx(int ndim, const int64_t *shape, int64_t out_itemsize)
{
    int64_t bytes = out_itemsize, big = 0;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] <= 0)
            return NULL;
        if (shape[d] >= STREAM_TOTAL_BYTES / bytes + 1)
            big = 1;  /* and the product would only grow */
        else
            bytes *= shape[d];
        if (bytes >= STREAM_TOTAL_BYTES)
            big = 1;
    }
    return big ? (void *)&stream_on : NULL;
}

static void stream_copy(char *dst, const char *src, int64_t nbytes)
{
    int64_t i = 0;
    for (; i + 16 <= nbytes; i += 16)
        _mm_stream_si128((__m128i *)(dst + i), _mm_loadu_si128((const __m128i *)(src + i)));
    if (i < nbytes)
        memcpy(dst + i, src + i, (size_t)(nbytes - i));
}

/* Elements to compute normally before dst reaches 16-byte alignment. */
static int64_t head_elems(const char *dst, int64_t itemsize)
{
    int64_t mis = (int64_t)((uintptr_t)dst & 15);
    if (mis == 0)
        return 0;
    if ((16 - mis) % itemsize)
        return -1;  /* never aligns: do not stream */
    return (16 - mis) / itemsize;
}

/* Vector variants of exp and log from glibc's libmvec (linked through -lm),
 * so that the contiguous loops of the two most used functions vectorize. */
__attribute__((simd("notinbranch"))) double (exp)(double);
__attribute__((simd("notinbranch"))) float expf(float);
__attribute__((simd("notinbranch"))) double (log)(double);
__attribute__((simd("notinbranch"))) float logf(float);
/* log1p (logistic losses: log1p(exp(-|x|))), tanh (neural-network
 * activations), sinh, cosh and expm1 have vector variants from glibc 2.35;
 * without them tanh ran glibc's scalar one, 2-6x slower than NumPy's SIMD
 * tanh. (libmvec bounds their error at 4 ulp; the scalar ones are not
 * correctly rounded either.) */
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 35)
__attribute__((simd("notinbranch"))) double (log1p)(double);
__attribute__((simd("notinbranch"))) double (tanh)(double);
__attribute__((simd("notinbranch"))) float tanhf(float);
__attribute__((simd("notinbranch"))) double (sinh)(double);
__attribute__((simd("notinbranch"))) float sinhf(float);
__attribute__((simd("notinbranch"))) double (cosh)(double);
__attribute__((simd("notinbranch"))) float coshf(float);
__attribute__((simd("notinbranch"))) double (expm1)(double);
__attribute__((simd("notinbranch"))) float expm1f(float);
__attribute__((simd("notinbranch"))) float log1pf(float);
/* The trigonometric and inverse hyperbolic functions, log2 and log10: NumPy
 * runs SIMD versions of them (SVML on AVX-512, its own for float32 sin and
 * cos), and the scalar libm loops were 3-34x slower than NumPy's on 1e6
 * elements (float32 tan: 12.8 ms against 0.38). Not float64 sin and cos:
 * NumPy keeps the scalar libm's for their accuracy, and libmvec's cos(x) is
 * 1 - 2^-53 for a fifth of tiny x where the true value rounds to 1 (SciPy's
 * circmean test checks cos(1e-9) == 1). */
__attribute__((simd("notinbranch"))) float sinf(float);
__attribute__((simd("notinbranch"))) float cosf(float);
__attribute__((simd("notinbranch"))) double (tan)(double);
__attribute__((simd("notinbranch"))) float tanf(float);
__attribute__((simd("notinbranch"))) double (asin)(double);
__attribute__((simd("notinbranch"))) float asinf(float);
__attribute__((simd("notinbranch"))) double (acos)(double);
__attribute__((simd("notinbranch"))) float acosf(float);
__attribute__((simd("notinbranch"))) double (atan)(double);
__attribute__((simd("notinbranch"))) float atanf(float);
__attribute__((simd("notinbranch"))) double (asinh)(double);
__attribute__((simd("notinbranch"))) float asinhf(float);
__attribute__((simd("notinbranch"))) double (acosh)(double);
__attribute__((simd("notinbranch"))) float acoshf(float);
__attribute__((simd("notinbranch"))) double (atanh)(double);
__attribute__((simd("notinbranch"))) float atanhf(float);
__attribute__((simd("notinbranch"))) double (log2)(double);
__attribute__((simd("notinbranch"))) float log2f(float);
__attribute__((simd("notinbranch"))) double (log10)(double);
__attribute__((simd("notinbranch"))) float log10f(float);
/* atan2 and pow on two arrays: 8x and 4-6x NumPy's time as scalar loops. */
__attribute__((simd("notinbranch"))) double (atan2)(double, double);
__attribute__((simd("notinbranch"))) float atan2f(float, float);
__attribute__((simd("notinbranch"))) double (pow)(double, double);
__attribute__((simd("notinbranch"))) float powf(float, float);
#endif

/* ---- loops ------------------------------------------------------------------- */

/* The contiguous path is cloned for AVX2 and AVX-512 so that it vectorizes
 * wide where the CPU allows; the strided path is shared.
 *
 * Ops by cost (the last column of ew_ops.h's lists): cheap ones (1, 2) are
 * memory-bound and keep AVX2 on CPUs other than Skylake-X (whose clone GCC
 * tunes to 256-bit vectors anyway): short 512-bit bursts between Python
 * calls pay for frequency-licence switches (x ** 2 on 2e4 float64 went from
 * 3.4 to 4.6 us with an "avx512f" clone). Costly ones (4, 8, 16: exp, log,
 * the trigonometric functions) get an "avx512f" clone, which any AVX-512 CPU
 * takes and in which glibc's vector libm runs 8 lanes (exp on 1e6 float64:
 * 437 -> 368 us); "arch=skylake-avx512" resolves on Skylake-X alone. */
#define EW_CLONES __attribute__((target_clones("default", "avx2", "arch=skylake-avx512")))
#define EW_CLONES_WIDE __attribute__((target_clones("default", "avx2", "avx512f")))
#define EW_CLONES_1 EW_CLONES
#define EW_CLONES_2 EW_CLONES
#define EW_CLONES_4 EW_CLONES_WIDE
#define EW_CLONES_8 EW_CLONES_WIDE
#define EW_CLONES_16 EW_CLONES_WIDE

#define UNARY_LOOP_CL(FN, T, OT, EXPR, CLONES)                               \
    CLONES static void FN##_c(OT *o, const T *a, int64_t n)                  \
    {                                                                        \
        for (int64_t i = 0; i < n; i++) {                                    \
            T x = a[i];                                                      \
            o[i] = (OT)(EXPR);                                               \
        }                                                                    \
    }                                                                        \
    static void FN(char **data, int64_t n, const int64_t *s, void *ctx)      \
    {                                                                        \
        char *o = data[0];                                                   \
        const char *a = data[1];                                             \
        if (s[0] == sizeof(OT) && s[1] == sizeof(T)) {                       \
            int64_t h = head_elems(o, sizeof(OT));                           \
            if (!ctx || n * (int64_t)sizeof(OT) < STREAM_MIN_BYTES || h < 0) { \
                FN##_c((OT *)o, (const T *)a, n);                            \
                return;                                                      \
            }                                                                \
            _Alignas(64) char tmp[CHUNK_BYTES];                              \
            const int64_t c = CHUNK_BYTES / (int64_t)sizeof(OT);             \
            FN##_c((OT *)o, (const T *)a, h);                                \
            for (int64_t i = h; i < n; i += c) {                             \
                int64_t m = n - i < c ? n - i : c;                           \
                FN##_c((OT *)tmp, (const T *)a + i, m);                      \
                stream_copy((char *)((OT *)o + i), tmp, m * (int64_t)sizeof(OT)); \
            }                                                                \
            _mm_sfence();                                                    \
            return;                                                          \
        }                                                                    \
        for (int64_t i = 0; i < n; i++) {                                    \
            T x = *(const T *)(a + i * s[1]);                                \
            *(OT *)(o + i * s[0]) = (OT)(EXPR);                              \
        }                                                                    \
    }

#define BINARY_LOOP_CL(FN, T, OT, EXPR, CLONES)                              \
    CLONES static void FN##_c(OT *o, const T *pa, const T *pb, int64_t n)    \
    {                                                                        \
        for (int64_t i = 0; i < n; i++) {                                    \
            T a = pa[i], b = pb[i];                                          \
            o[i] = (OT)(EXPR);                                               \
        }                                                                    \
    }                                                                        \
    CLONES static void FN##_s2(OT *o, const T *pa, T b, int64_t n)           \
    {                                                                        \
        for (int64_t i = 0; i < n; i++) {                                    \
            T a = pa[i];                                                     \
            o[i] = (OT)(EXPR);                                               \
        }                                                                    \
    }                                                                        \
    CLONES static void FN##_s1(OT *o, T a, const T *pb, int64_t n)           \
    {                                                                        \
        for (int64_t i = 0; i < n; i++) {                                    \
            T b = pb[i];                                                     \
            o[i] = (OT)(EXPR);                                               \
        }                                                                    \
    }                                                                        \
    static void FN(char **data, int64_t n, const int64_t *s, void *ctx)      \
    {                                                                        \
        char *o = data[0];                                                   \
        const char *x1 = data[1], *x2 = data[2];                             \
        if (s[0] == sizeof(OT)) {                                            \
            if (s[1] == sizeof(T) && s[2] == sizeof(T)) {                    \
                int64_t h = head_elems(o, sizeof(OT));                       \
                if (!ctx || n * (int64_t)sizeof(OT) < STREAM_MIN_BYTES || h < 0) { \
                    FN##_c((OT *)o, (const T *)x1, (const T *)x2, n);        \
                    return;                                                  \
                }                                                            \
                _Alignas(64) char tmp[CHUNK_BYTES];                          \
                const int64_t c = CHUNK_BYTES / (int64_t)sizeof(OT);         \
                FN##_c((OT *)o, (const T *)x1, (const T *)x2, h);            \
                for (int64_t i = h; i < n; i += c) {                         \
                    int64_t m = n - i < c ? n - i : c;                       \
                    FN##_c((OT *)tmp, (const T *)x1 + i, (const T *)x2 + i, m); \
                    stream_copy((char *)((OT *)o + i), tmp, m * (int64_t)sizeof(OT)); \
                }                                                            \
                _mm_sfence();                                                \
                return;                                                      \
            }                                                                \
            if (s[1] == sizeof(T) && s[2] == 0) {                            \
                FN##_s2((OT *)o, (const T *)x1, *(const T *)x2, n);          \
                return;                                                      \
            }                                                                \
            if (s[1] == 0 && s[2] == sizeof(T)) {                            \
                FN##_s1((OT *)o, *(const T *)x1, (const T *)x2, n);          \
                return;                                                      \
            }                                                                \
        }                                                                    \
        for (int64_t i = 0; i < n; i++) {                                    \
            T a = *(const T *)(x1 + i * s[1]);                               \
            T b = *(const T *)(x2 + i * s[2]);                               \
            *(OT *)(o + i * s[0]) = (OT)(EXPR);                              \
        }                                                                    \
    }

/* Stamp one loop per (op, dtype of the group). */
#define U_STAMP(DN, T, WT, RT, RDN, OP, OUT, S, COST) \
    UNARY_LOOP_CL(u_##OP##_##DN, T, OT_##OUT(T, RT), S(T, WT, RT, x), EW_CLONES_##COST)
#define U_GROUP(OP, G, OUT, S, COST) G(U_STAMP, OP, OUT, S, COST)
UNARY_LIST(U_GROUP)

#define B_STAMP(DN, T, WT, RT, RDN, OP, OUT, S, COST) \
    BINARY_LOOP_CL(b_##OP##_##DN, T, OT_##OUT(T, RT), S(T, WT, RT, a, b), EW_CLONES_##COST)
#define B_GROUP(OP, G, OUT, S, COST) G(B_STAMP, OP, OUT, S, COST)
BINARY_LIST(B_GROUP)

#define P_STAMP(DN, T, WT, RT, RDN, EXP, S, COST) \
    UNARY_LOOP_CL(p_##EXP##_##DN, T, T, S(T, WT, RT, x), EW_CLONES_##COST)
#define P_GROUP(EXP, G, S, COST) G(P_STAMP, EXP, S, COST)
POW_FAST_LIST(P_GROUP)

/* ---- dispatch tables ------------------------------------------------------------ */

typedef struct {
    ars_loop_fn loop;
    int out;       /* output dtype */
    int cost;      /* rough relative cost per element */
} kernel;

#define U_ENTRY(DN, T, WT, RT, RDN, OP, OUT, S, COST) \
    [ARS_OP_##OP][ARS_##DN] = {u_##OP##_##DN, OD_##OUT(DN, RDN), COST},
#define U_ENTRIES(OP, G, OUT, S, COST) G(U_ENTRY, OP, OUT, S, COST)
static const kernel unary_table[ARS_NUNARY][ARS_NDTYPES] = {UNARY_LIST(U_ENTRIES)};

#define B_ENTRY(DN, T, WT, RT, RDN, OP, OUT, S, COST) \
    [ARS_OP_##OP][ARS_##DN] = {b_##OP##_##DN, OD_##OUT(DN, RDN), COST},
#define B_ENTRIES(OP, G, OUT, S, COST) G(B_ENTRY, OP, OUT, S, COST)
static const kernel binary_table[ARS_NBINARY][ARS_NDTYPES] = {BINARY_LIST(B_ENTRIES)};

#define P_ENTRY(DN, T, WT, RT, RDN, EXP, S, COST) [PX_##EXP][ARS_##DN] = {p_##EXP##_##DN, ARS_##DN, COST},
#define P_ENTRIES(EXP, G, S, COST) G(P_ENTRY, EXP, S, COST)
static const kernel pow_fast_table[PX_N][ARS_NDTYPES] = {POW_FAST_LIST(P_ENTRIES)};

/* The fast form of pow for an exponent `e` of `dtype` that every element shares. */
static const kernel *pow_fast(int dtype, const char *e)
{
    int px = PX_NONE;
    double v = 0;
    switch (dtype) {
#define PV_REAL(DN, T, WT, RT, RDN, _u) \
    case ARS_##DN: { T t; memcpy(&t, e, sizeof t); v = (double)t; break; }
#define PV_CPLX(DN, T, WT, RT, RDN, _u) \
    case ARS_##DN: { T t; memcpy(&t, e, sizeof t); if (cimag(t) != 0) return NULL; v = creal(t); break; }
    G_I(PV_REAL, 0) G_U(PV_REAL, 0) G_F(PV_REAL, 0) G_C(PV_CPLX, 0)
    default:
        return NULL;
    }
    if (v == 0) px = PX_ZERO;
    else if (v == 1) px = PX_ONE;
    else if (v == 2) px = PX_TWO;
    else if (v == 3) px = PX_THREE;
    else if (v == 4) px = PX_FOUR;
    else if (v == 0.5) px = PX_HALF;
    else if (v == -1) px = PX_M1;
    else if (v == -2) px = PX_M2;
    const kernel *k = &pow_fast_table[px][dtype];
    return px != PX_NONE && k->loop ? k : NULL;
}

static const kernel *lookup(const kernel *table, int nops, int op, int dtype)
{
    if (op < 0 || op >= nops || dtype < 0 || dtype >= ARS_NDTYPES)
        return NULL;
    const kernel *k = &table[(int64_t)op * ARS_NDTYPES + dtype];
    return k->loop ? k : NULL;
}

int ars_unary_out(int op, int dtype)
{
    const kernel *k = lookup(&unary_table[0][0], ARS_NUNARY, op, dtype);
    return k ? k->out : -1;
}

int ars_binary_out(int op, int dtype)
{
    const kernel *k = lookup(&binary_table[0][0], ARS_NBINARY, op, dtype);
    return k ? k->out : -1;
}

/* ---- running over packed dims ---------------------------------------------------- */

static int run(int nop, int ndim, const int64_t *dims, char *const *data, ars_loop_fn loop,
               void *ctx, int64_t work)
{
    if (ndim < 0 || ndim > ARS_MAX_DIMS)
        return ARS_ERR_NDIM;
    const int64_t *st[ARS_MAX_OPS];
    for (int k = 0; k < nop; k++)
        st[k] = dims + (int64_t)(k + 1) * ndim;
    ars_iter it;
    int rc = ars_iter_prepare(&it, ndim, dims, nop, data, st);
    if (rc)
        return rc;
    ars_iter_run(&it, loop, ctx, work);
    return ARS_OK;
}

int ars_unary(int op, int dtype, int ndim, const int64_t *dims, char *out, const char *x)
{
    const kernel *k = lookup(&unary_table[0][0], ARS_NUNARY, op, dtype);
    if (!k)
        return ARS_ERR_DTYPE;
    char *data[2] = {out, (char *)x};
    int64_t work = (ars_itemsize[dtype] + ars_itemsize[k->out]) * k->cost;
    return run(2, ndim, dims, data, k->loop, stream_ctx(ndim, dims, ars_itemsize[k->out]), work);
}

int ars_binary(int op, int dtype, int ndim, const int64_t *dims, char *out,
               const char *x1, const char *x2)
{
    const kernel *k = lookup(&binary_table[0][0], ARS_NBINARY, op, dtype);
    if (!k)
        return ARS_ERR_DTYPE;
    if (op == ARS_OP_POW && ndim >= 0 && ndim <= ARS_MAX_DIMS) {
        /* one exponent for every element: the unary fast form over (out, x1),
         * whose dims are the prefix of ours */
        int64_t size = 1, moves = 0;
        for (int d = 0; d < ndim; d++) {
            size *= dims[d];
            moves |= dims[3 * ndim + d] && dims[d] > 1;
        }
        const kernel *f = size > 0 && !moves ? pow_fast(dtype, x2) : NULL;
        if (f) {
            char *data[2] = {out, (char *)x1};
            return run(2, ndim, dims, data, f->loop, NULL, 2 * ars_itemsize[dtype] * f->cost);
        }
    }
    char *data[3] = {out, (char *)x1, (char *)x2};
    int64_t work = (2 * ars_itemsize[dtype] + ars_itemsize[k->out]) * k->cost;
    return run(3, ndim, dims, data, k->loop, stream_ctx(ndim, dims, ars_itemsize[k->out]), work);
}

int ars_unary_flat(int op, int dtype, int64_t n, char *out, const char *x, int64_t xs)
{
    int64_t dims[3] = {n, 0, xs};
    const kernel *k = lookup(&unary_table[0][0], ARS_NUNARY, op, dtype);
    if (!k)
        return ARS_ERR_DTYPE;
    dims[1] = ars_itemsize[k->out];
    char *data[2] = {out, (char *)x};
    if (n * (ars_itemsize[dtype] + dims[1]) * k->cost < 4096) {  /* small: skip the iterator */
        k->loop(data, n, dims + 1, NULL);
        return ARS_OK;
    }
    return run(2, 1, dims, data, k->loop, stream_ctx(1, &n, dims[1]),
               (ars_itemsize[dtype] + dims[1]) * k->cost);
}

int ars_binary_flat(int op, int dtype, int64_t n, char *out, const char *x1, int64_t s1,
                    const char *x2, int64_t s2)
{
    int64_t dims[4] = {n, 0, s1, s2};
    const kernel *k = lookup(&binary_table[0][0], ARS_NBINARY, op, dtype);
    if (!k)
        return ARS_ERR_DTYPE;
    dims[1] = ars_itemsize[k->out];
    if (op == ARS_OP_POW && s2 == 0 && n > 0) {
        const kernel *f = pow_fast(dtype, x2);
        if (f) {
            char *data[2] = {out, (char *)x1};
            int64_t w = 2 * ars_itemsize[dtype] * f->cost;
            if (n * w < 4096) {
                f->loop(data, n, dims + 1, NULL);
                return ARS_OK;
            }
            return run(2, 1, dims, data, f->loop, NULL, w);
        }
    }
    char *data[3] = {out, (char *)x1, (char *)x2};
    int64_t work = (2 * ars_itemsize[dtype] + dims[1]) * k->cost;
    if (n * work < 4096) {
        k->loop(data, n, dims + 1, NULL);
        return ARS_OK;
    }
    return run(3, 1, dims, data, k->loop, stream_ctx(1, &n, dims[1]), work);
}

/* ---- where, by item size ---------------------------------------------------------- */

/* Contiguous out and condition; each value operand contiguous (step 1) or one
 * repeated value (step 0: a Python scalar or a broadcast 0-d array), a copy
 * of which the loop reads so that the compiler can vectorize the select. */
#define WHERE_LOOP(T)                                                            \
    EW_CLONES static void where_c_##T(T *o, const uint8_t *c, const T *a, const T *b, \
                                      int64_t n)                                 \
    {                                                                            \
        for (int64_t i = 0; i < n; i++)                                          \
            o[i] = c[i] ? a[i] : b[i];                                           \
    }                                                                            \
    EW_CLONES static void where_sa_##T(T *o, const uint8_t *c, T a, const T *b,  \
                                       int64_t n)                                \
    {                                                                            \
        for (int64_t i = 0; i < n; i++)                                          \
            o[i] = c[i] ? a : b[i];                                              \
    }                                                                            \
    EW_CLONES static void where_sb_##T(T *o, const uint8_t *c, const T *a, T b,  \
                                       int64_t n)                                \
    {                                                                            \
        for (int64_t i = 0; i < n; i++)                                          \
            o[i] = c[i] ? a[i] : b;                                              \
    }                                                                            \
    EW_CLONES static void where_ss_##T(T *o, const uint8_t *c, T a, T b, int64_t n) \
    {                                                                            \
        for (int64_t i = 0; i < n; i++)                                          \
            o[i] = c[i] ? a : b;                                                 \
    }                                                                            \
    static void where_##T(char **data, int64_t n, const int64_t *s, void *ctx)   \
    {                                                                            \
        (void)ctx;                                                               \
        if (s[0] == sizeof(T) && s[1] == 1 && (s[2] == sizeof(T) || s[2] == 0)   \
            && (s[3] == sizeof(T) || s[3] == 0)) {                               \
            T *o = (T *)data[0];                                                 \
            const uint8_t *c = (const uint8_t *)data[1];                         \
            T a, b;                                                              \
            if (n <= 0)                                                          \
                return;                                                          \
            memcpy(&a, data[2], sizeof(T));                                      \
            memcpy(&b, data[3], sizeof(T));                                      \
            if (s[2] && s[3])                                                    \
                where_c_##T(o, c, (const T *)data[2], (const T *)data[3], n);    \
            else if (s[3])                                                       \
                where_sa_##T(o, c, a, (const T *)data[3], n);                    \
            else if (s[2])                                                       \
                where_sb_##T(o, c, (const T *)data[2], b, n);                    \
            else                                                                 \
                where_ss_##T(o, c, a, b, n);                                     \
            return;                                                              \
        }                                                                        \
        for (int64_t i = 0; i < n; i++) {                                        \
            const char *src = *(const uint8_t *)(data[1] + i * s[1])             \
                                  ? data[2] + i * s[2] : data[3] + i * s[3];     \
            *(T *)(data[0] + i * s[0]) = *(const T *)src;                        \
        }                                                                        \
    }
ARS_ITEM_TYPES(WHERE_LOOP)

int ars_where(int64_t itemsize, int ndim, const int64_t *dims, char *out, const char *cond,
              const char *x1, const char *x2)
{
    static const ars_loop_fn loops[] = ARS_SIZE_TABLE(where_);
    int sc = ars_size_class(itemsize);
    if (sc < 0)
        return ARS_ERR_ARG;
    ars_loop_fn loop = loops[sc];
    char *data[4] = {out, (char *)cond, (char *)x1, (char *)x2};
    return run(4, ndim, dims, data, loop, NULL, 3 * itemsize + 1);
}

/* ---- clip ------------------------------------------------------------------------ */

/* min(max(x, lo), hi), as NumPy: hi wins when lo > hi. */
#define CLIP_MAX(x, lo) ((x) < (lo) ? (lo) : (x))
#define CLIP_I(T, x, lo, hi) (CLIP_MAX(x, lo) > (hi) ? (hi) : CLIP_MAX(x, lo))
#define CLIP_F(T, x, lo, hi) \
    (isnan(x) || isnan(lo) || isnan(hi) ? (T)NAN : CLIP_I(T, x, lo, hi))
#define CLIP_LOOP(DN, T, WT, RT, RDN, CL, _u)                                    \
    static void clip_##DN(char **data, int64_t n, const int64_t *s, void *ctx)   \
    {                                                                            \
        (void)ctx;                                                               \
        for (int64_t i = 0; i < n; i++) {                                        \
            T x = *(const T *)(data[1] + i * s[1]);                              \
            T lo = *(const T *)(data[2] + i * s[2]);                             \
            T hi = *(const T *)(data[3] + i * s[3]);                             \
            *(T *)(data[0] + i * s[0]) = CL(T, x, lo, hi);                       \
        }                                                                        \
    }
G_I(CLIP_LOOP, CLIP_I, 0)
G_U(CLIP_LOOP, CLIP_I, 0)
G_F(CLIP_LOOP, CLIP_F, 0)
#define CLIP_ENTRY(DN, T, WT, RT, RDN, _a, _b) [ARS_##DN] = clip_##DN,
static const ars_loop_fn clip_table[ARS_NDTYPES] = {
    G_I(CLIP_ENTRY, 0, 0) G_U(CLIP_ENTRY, 0, 0) G_F(CLIP_ENTRY, 0, 0)
};

int ars_clip(int dtype, int ndim, const int64_t *dims, char *out, const char *x,
             const char *lo, const char *hi)
{
    if (dtype < 0 || dtype >= ARS_NDTYPES || !clip_table[dtype])
        return ARS_ERR_DTYPE;
    char *data[4] = {out, (char *)x, (char *)lo, (char *)hi};
    return run(4, ndim, dims, data, clip_table[dtype], NULL, 4 * ars_itemsize[dtype]);
}

/* ---- isin: sort the set, then binary-search each element --------------------------- */

#define LESS_KB(a, b) ((a) < (b))
#define LESS_KI(a, b) ((a) < (b))
#define LESS_KU(a, b) ((a) < (b))
#define LESS_KF(a, b) ((a) < (b))
#define LESS_KC(a, b) \
    (creal(a) < creal(b) || (creal(a) == creal(b) && cimag(a) < cimag(b)))
#define NAN_KB(a) 0
#define NAN_KI(a) 0
#define NAN_KU(a) 0
#define NAN_KF(a) isnan(a)
#define NAN_KC(a) (isnan(creal(a)) || isnan(cimag(a)))

typedef struct {
    const char *set;
    int64_t m;
    int invert;
} isin_ctx;

#define ISIN_DEFS(NAME, T, K)                                                    \
    static int cmp_##NAME(const void *pa, const void *pb)                        \
    {                                                                            \
        T a = *(const T *)pa, b = *(const T *)pb;                                \
        return LESS_##K(a, b) ? -1 : LESS_##K(b, a) ? 1 : 0;                     \
    }                                                                            \
    static int64_t prep_##NAME(char *set, int64_t m)                             \
    {                                                                            \
        T *v = (T *)set;                                                         \
        int64_t k = 0;                                                           \
        for (int64_t i = 0; i < m; i++)                                          \
            if (!(NAN_##K(v[i])))                                                \
                v[k++] = v[i];                                                   \
        qsort(v, (size_t)k, sizeof(T), cmp_##NAME);                              \
        return k;                                                                \
    }                                                                            \
    static void isin_##NAME(char **data, int64_t n, const int64_t *s, void *p)   \
    {                                                                            \
        const isin_ctx *c = p;                                                   \
        const T *v = (const T *)c->set;                                          \
        for (int64_t i = 0; i < n; i++) {                                        \
            T x = *(const T *)(data[1] + i * s[1]);                              \
            int64_t lo = 0, hi = c->m;                                           \
            while (lo < hi) {                                                    \
                int64_t mid = lo + (hi - lo) / 2;                                \
                if (LESS_##K(v[mid], x))                                         \
                    lo = mid + 1;                                                \
                else                                                             \
                    hi = mid;                                                    \
            }                                                                    \
            int found = lo < c->m && !LESS_##K(x, v[lo]) && !(NAN_##K(x));       \
            *(uint8_t *)(data[0] + i * s[0]) = (uint8_t)(found != c->invert);    \
        }                                                                        \
    }
ARS_DTYPES(ISIN_DEFS)

typedef int64_t (*prep_fn)(char *, int64_t);
#define PREP_ENTRY(NAME, T, K) [ARS_##NAME] = prep_##NAME,
#define ISIN_ENTRY(NAME, T, K) [ARS_##NAME] = isin_##NAME,
static const prep_fn prep_table[ARS_NDTYPES] = {ARS_DTYPES(PREP_ENTRY)};
static const ars_loop_fn isin_table[ARS_NDTYPES] = {ARS_DTYPES(ISIN_ENTRY)};

int ars_isin(int dtype, int ndim, const int64_t *dims, char *out, const char *x,
             char *set, int64_t m, int invert)
{
    if (dtype < 0 || dtype >= ARS_NDTYPES)
        return ARS_ERR_DTYPE;
    isin_ctx c = {set, prep_table[dtype](set, m), invert != 0};
    char *data[2] = {out, (char *)x};
    return run(2, ndim, dims, data, isin_table[dtype], &c, 4 * ars_itemsize[dtype]);
}
