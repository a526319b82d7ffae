/* Small linear-algebra kernels over a batch walked by the shared iterator:
 * dot products and sums along one axis (vecdot, trace), vector norms, cross.
 * The batch operands are (out, x, y); the reduced axis has length K and byte
 * strides xk, yk held in the context. Integers accumulate in a wrapping
 * unsigned type, floats in double, complex in double complex. */
#include <math.h>
#include <string.h>
#include "ars_internal.h"

typedef uint32_t acc_int8_t, acc_int16_t, acc_int32_t, acc_uint8_t, acc_uint16_t,
    acc_uint32_t;
typedef uint64_t acc_int64_t, acc_uint64_t;

#define ACC_KB(T) uint8_t
#define ACC_KI(T) acc_##T
#define ACC_KU(T) acc_##T
#define ACC_KF(T) double
#define ACC_KC(T) ars_c128
/* a narrow float reads exactly as float and computes as float32 does (in
 * double); its result is rounded to float32, then to the narrow dtype: the
 * float32 computation's bits rounded once to the narrow dtype at the end */
#define ACC_KN(T) double
/* LD_K(acc_t, T, p): the element at p into the accumulator type;
 * ST_K(T, p, v): the accumulated v stored at p */
#define LD_KB(acc_t, T, p) ((acc_t) * (const T *)(p))
#define LD_KI LD_KB
#define LD_KU LD_KB
#define LD_KF LD_KB
#define LD_KC LD_KB
#define LD_KN(acc_t, T, p) ((acc_t)T##_to_float(*(const T *)(p)))
#define ST_KB(T, p, v) (*(T *)(p) = (T)(v))
#define ST_KI ST_KB
#define ST_KU ST_KB
#define ST_KF ST_KB
#define ST_KC ST_KB
#define ST_KN(T, p, v) (*(T *)(p) = T##_from_float((float)(v)))
#define CONJ_KB(v) (v)
#define CONJ_KI(v) (v)
#define CONJ_KU(v) (v)
#define CONJ_KF(v) (v)
#define CONJ_KC(v) conj(v)
#define CONJ_KN CONJ_KF
#define MUL_KB(a, b) ((a) & (b))
#define MUL_KI(a, b) ((a) * (b))
#define MUL_KU(a, b) ((a) * (b))
#define MUL_KF(a, b) ((a) * (b))
#define MUL_KC(a, b) ((a) * (b))
#define MUL_KN MUL_KF
#define ADD_KB(a, b) ((a) | (b))
#define ADD_KI(a, b) ((a) + (b))
#define ADD_KU(a, b) ((a) + (b))
#define ADD_KF(a, b) ((a) + (b))
#define ADD_KC(a, b) ((a) + (b))
#define ADD_KN ADD_KF

typedef struct {
    int64_t len, xk, yk;
    int mode;          /* ARS_DOT_SUM, ARS_DOT_MUL or ARS_DOT_CONJ_MUL */
    int kind;          /* norms */
    double p;
} red_ctx;

/* The sum starts from the first term (not from 0), so that a single -0.0
 * stays -0.0 as in NumPy's reductions. */
#define DOT_TERM(K, acc_t, T, x, y, mode)                                            \
    ((mode) == ARS_DOT_SUM ? LD_##K(acc_t, T, x)                                      \
     : (mode) == ARS_DOT_MUL ? MUL_##K(LD_##K(acc_t, T, x), LD_##K(acc_t, T, y))      \
                   : MUL_##K(CONJ_##K(LD_##K(acc_t, T, x)), LD_##K(acc_t, T, y)))
#define DOT_LOOP(NAME, T, K)                                                          \
    static void dot_##NAME(char **data, int64_t n, const int64_t *s, void *vctx)     \
    {                                                                                 \
        const red_ctx *c = vctx;                                                      \
        typedef ACC_##K(T) acc_t;                                                     \
        int mode = c->mode;                                                           \
        for (int64_t i = 0; i < n; i++) {                                             \
            const char *x = data[1] + i * s[1], *y = data[2] + i * s[2];              \
            acc_t acc = 0;                                                            \
            if (c->len > 0)                                                           \
                acc = DOT_TERM(K, acc_t, T, x, y, mode);                              \
            if (mode == ARS_DOT_MUL) {                                                          \
                for (int64_t k = 1; k < c->len; k++)                                  \
                    acc = ADD_##K(acc, DOT_TERM(K, acc_t, T, x + k * c->xk,           \
                                                y + k * c->yk, 1));                   \
            } else {                                                                  \
                for (int64_t k = 1; k < c->len; k++)                                  \
                    acc = ADD_##K(acc, DOT_TERM(K, acc_t, T, x + k * c->xk,           \
                                                y + k * c->yk, mode));                \
            }                                                                         \
            ST_##K(T, data[0] + i * s[0], acc);                                      \
        }                                                                             \
    }
#define X(NAME, T, K) DOT_LOOP(NAME, T, K)
ARS_STORAGE_DTYPES(X)
#undef X

static const ars_loop_fn dot_loops[ARS_NDTYPES] = {
#define X(NAME, T, K) [ARS_##NAME] = dot_##NAME,
    ARS_STORAGE_DTYPES(X)
#undef X
};

static int run3(int ndim, const int64_t *shape, char *out, const int64_t *os, const char *x,
                const int64_t *xs, const char *y, const int64_t *ys, ars_loop_fn loop,
                red_ctx *ctx, int64_t work)
{
    char *data[3] = {out, (char *)x, (char *)y};
    const int64_t *st[3] = {os, xs, ys};
    return ars_iter_go(ndim, shape, 3, data, st, loop, ctx, work);
}

int ars_dot_reduce(int mode, int dtype, int ndim, const int64_t *shape, char *out,
                   const int64_t *out_strides, const char *x, const int64_t *x_strides,
                   const char *y, const int64_t *y_strides, int64_t K, int64_t xk, int64_t yk)
{
    if (dtype < 0 || dtype >= ARS_NDTYPES || mode < ARS_DOT_SUM || mode > ARS_DOT_CONJ_MUL)
        return ARS_ERR_ARG;
    if (!dot_loops[dtype])
        return ARS_ERR_DTYPE;
    red_ctx ctx = {K, xk, yk, mode, 0, 0.0};
    return run3(ndim, shape, out, out_strides, x, x_strides, y, y_strides, dot_loops[dtype],
                &ctx, (K + 1) * 2 * ars_itemsize[dtype]);
}

/* ---- vector norms ------------------------------------------------------------------ */


static double norm_of(const double *v, int64_t K, int kind, double p)
{
    double acc = 0.0;
    switch (kind) {
    case ARS_NORM_2: {
        double amax = 0.0;
        for (int64_t k = 0; k < K; k++) {
            acc += v[k] * v[k];
            amax = v[k] > amax ? v[k] : amax;  /* NaN never wins: checked below */
        }
        if ((isinf(acc) || (acc < 1e-290 && amax > 0)) && isfinite(amax)) {
            double ssq = 0.0;  /* rescale when the plain sum over- or underflows */
            for (int64_t k = 0; k < K; k++) {
                double t = v[k] / amax;
                ssq += t * t;
            }
            return amax * sqrt(ssq);
        }
        return sqrt(acc);
    }
    case ARS_NORM_1:
        for (int64_t k = 0; k < K; k++)
            acc += v[k];
        return acc;
    case ARS_NORM_MAX:
        for (int64_t k = 0; k < K; k++)
            acc = (v[k] > acc || isnan(v[k])) && !isnan(acc) ? v[k] : acc;
        return acc;
    case ARS_NORM_MIN:
        acc = K > 0 ? v[0] : 0.0;
        for (int64_t k = 1; k < K; k++)
            acc = (v[k] < acc || isnan(v[k])) && !isnan(acc) ? v[k] : acc;
        return acc;
    case ARS_NORM_0:
        for (int64_t k = 0; k < K; k++)
            acc += v[k] != 0.0;
        return acc;
    default:
        for (int64_t k = 0; k < K; k++)
            acc += pow(v[k], p);
        return pow(acc, 1.0 / p);
    }
}

/* |x| of each element (|z| for complex) into a real scratch row of 256, the
 * norm of each row, then the rows' norms combined; R is the real output type. */
#define ABS_REAL(v) fabs(v)
#define ABS_CPLX(v) cabs((ars_c128)(v))
#define NORM_LOOP(NAME, T, R, ABS)                                                    \
    static void norm_##NAME(char **data, int64_t n, const int64_t *s, void *vctx)    \
    {                                                                                 \
        const red_ctx *c = vctx;                                                      \
        double buf[256];                                                              \
        for (int64_t i = 0; i < n; i++) {                                             \
            const char *x = data[1] + i * s[1];                                       \
            double total = 0.0, part;                                                 \
            int first = 1;                                                            \
            for (int64_t k0 = 0; k0 < c->len || first; k0 += 256) {                     \
                int64_t len = c->len - k0 < 256 ? c->len - k0 : 256;                      \
                for (int64_t k = 0; k < len; k++)                                     \
                    buf[k] = ABS(*(const T *)(x + (k0 + k) * c->xk));                 \
                part = norm_of(buf, len, c->kind, c->p);                              \
                if (first)                                                            \
                    total = part;                                                     \
                else if (c->kind == ARS_NORM_2)                                           \
                    total = hypot(total, part);                                       \
                else if (c->kind == ARS_NORM_1 || c->kind == ARS_NORM_0)                      \
                    total += part;                                                    \
                else if (c->kind == ARS_NORM_MAX)                                         \
                    total = (part > total || isnan(part)) && !isnan(total) ? part : total; \
                else if (c->kind == ARS_NORM_MIN)                                         \
                    total = (part < total || isnan(part)) && !isnan(total) ? part : total; \
                else                                                                  \
                    total = pow(pow(total, c->p) + pow(part, c->p), 1.0 / c->p);      \
                first = 0;                                                            \
            }                                                                         \
            *(R *)(data[0] + i * s[0]) = (R)total;                                    \
        }                                                                             \
    }
#define ABS_F16(v) fabs((double)ars_f16_to_float(v))
#define ABS_BF16(v) fabs((double)ars_bf16_to_float(v))
NORM_LOOP(f16, ars_f16, float, ABS_F16)
NORM_LOOP(bf16, ars_bf16, float, ABS_BF16)
NORM_LOOP(f32, float, float, ABS_REAL)
NORM_LOOP(f64, double, double, ABS_REAL)
NORM_LOOP(c64, ars_c64, float, ABS_CPLX)
NORM_LOOP(c128, ars_c128, double, ABS_CPLX)

/* out (real dtype of `dtype`) = the norm of x along its reduced axis.
 * kind: 0 two-norm, 1 one-norm, 2 max |x|, 3 min |x|, 4 count of nonzeros,
 * 5 (sum |x|^p)^(1/p). */
int ars_vector_norm(int dtype, int kind, double p, int ndim, const int64_t *shape, char *out,
                    const int64_t *out_strides, const char *x, const int64_t *x_strides,
                    int64_t K, int64_t xk)
{
    ars_loop_fn loop;
    switch (dtype) {
    case ARS_FLOAT16: loop = norm_f16; break;
    case ARS_BFLOAT16: loop = norm_bf16; break;
    case ARS_FLOAT32: loop = norm_f32; break;
    case ARS_FLOAT64: loop = norm_f64; break;
    case ARS_COMPLEX64: loop = norm_c64; break;
    case ARS_COMPLEX128: loop = norm_c128; break;
    default: return ARS_ERR_DTYPE;
    }
    if (kind < 0 || kind > ARS_NORM_P)
        return ARS_ERR_ARG;
    red_ctx ctx = {K, xk, 0, 0, kind, p};
    return run3(ndim, shape, out, out_strides, x, x_strides, x, x_strides, loop, &ctx,
                (K + 1) * ars_itemsize[dtype] * (kind == ARS_NORM_P ? 8 : 1));
}

/* ---- cross product of 3-vectors --------------------------------------------------- */

#define CROSS_LOOP(NAME, T, K)                                                        \
    static void cross_##NAME(char **data, int64_t n, const int64_t *s, void *vctx)   \
    {                                                                                 \
        const red_ctx *c = vctx;                                                      \
        typedef ACC_##K(T) acc_t;                                                     \
        for (int64_t i = 0; i < n; i++) {                                             \
            const char *x = data[1] + i * s[1], *y = data[2] + i * s[2];              \
            char *o = data[0] + i * s[0];                                             \
            acc_t a[3], b[3];                                                         \
            for (int k = 0; k < 3; k++) {                                             \
                a[k] = LD_##K(acc_t, T, x + k * c->xk);                               \
                b[k] = LD_##K(acc_t, T, y + k * c->yk);                               \
            }                                                                         \
            ST_##K(T, o, a[1] * b[2] - a[2] * b[1]);                                  \
            ST_##K(T, o + c->len, a[2] * b[0] - a[0] * b[2]);                         \
            ST_##K(T, o + 2 * c->len, a[0] * b[1] - a[1] * b[0]);                     \
        }                                                                             \
    }
#define CROSS_KB(NAME, T)
#define CROSS_KI(NAME, T) CROSS_LOOP(NAME, T, KI)
#define CROSS_KU(NAME, T) CROSS_LOOP(NAME, T, KU)
#define CROSS_KF(NAME, T) CROSS_LOOP(NAME, T, KF)
#define CROSS_KC(NAME, T) CROSS_LOOP(NAME, T, KC)
#define CROSS_KN(NAME, T) CROSS_LOOP(NAME, T, KN)
#define X(NAME, T, K) CROSS_##K(NAME, T)
ARS_STORAGE_DTYPES(X)
#undef X

#define CROSS_ENTRY_KB(NAME)
#define CROSS_ENTRY_KI(NAME) [ARS_##NAME] = cross_##NAME,
#define CROSS_ENTRY_KU CROSS_ENTRY_KI
#define CROSS_ENTRY_KF CROSS_ENTRY_KI
#define CROSS_ENTRY_KC CROSS_ENTRY_KI
#define CROSS_ENTRY_KN CROSS_ENTRY_KI
static const ars_loop_fn cross_loops[ARS_NDTYPES] = {
#define X(NAME, T, K) CROSS_ENTRY_##K(NAME)
    ARS_STORAGE_DTYPES(X)
#undef X
};

/* out[..., 0:3] = x[..., 0:3] x y[..., 0:3]: the batch dims are walked by the
 * iterator; xk, yk, ok are the byte strides of the length-3 axis. */
int ars_cross(int dtype, int ndim, const int64_t *shape, char *out, const int64_t *out_strides,
              const char *x, const int64_t *x_strides, const char *y,
              const int64_t *y_strides, int64_t ok, int64_t xk, int64_t yk)
{
    if (dtype < 0 || dtype >= ARS_NDTYPES || cross_loops[dtype] == NULL)
        return ARS_ERR_DTYPE;
    red_ctx ctx = {ok, xk, yk, 0, 0, 0.0};
    return run3(ndim, shape, out, out_strides, x, x_strides, y, y_strides, cross_loops[dtype],
                &ctx, 9 * ars_itemsize[dtype]);
}
