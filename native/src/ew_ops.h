/* The scalar definition of every elementwise operation, one per operation and
 * dtype kind, and the lists that say which dtypes each operation takes.
 * elementwise.c stamps these into loops and dispatch tables. Internal header. */
#ifndef ARS_EW_OPS_H
#define ARS_EW_OPS_H

#include <math.h>
#include <tgmath.h>
#include <string.h>
#include "ars_internal.h"
#include "vmath.h"

/* ---- dtype groups, from the table (ars_internal.h's ARS_DTYPES) ----------------
 * G_<kind>(Y, ...) calls Y(NAME, C type, wide unsigned type, real type, ...)
 * for each row of that kind, in the table's order: G_B bool, G_I signed,
 * G_U unsigned, G_F real floats, G_C complex. The wide unsigned type is the
 * one integer arithmetic wraps in (uint32_t, or uint64_t for 64-bit types;
 * floats: the type itself, complex: its real type); the real type is the
 * type itself, or a complex type's real part. A new row of the table joins
 * its kind's group with nothing written here. */
#define EW_UWIDE_(T) \
    __typeof__(_Generic((char (*)[sizeof(T) > 4 ? 2 : 1])0, char (*)[2]: (uint64_t)0, default: (uint32_t)0))
#define EW_REAL_OF_(T) __typeof__(__real__ (T)0)
#define EW_WT_KB(T) EW_UWIDE_(T)
#define EW_WT_KI(T) EW_UWIDE_(T)
#define EW_WT_KU(T) EW_UWIDE_(T)
#define EW_WT_KF(T) T
#define EW_WT_KC(T) EW_REAL_OF_(T)
#define EW_RT_KB(T) T
#define EW_RT_KI(T) T
#define EW_RT_KU(T) T
#define EW_RT_KF(T) T
#define EW_RT_KC(T) EW_REAL_OF_(T)
/* EW_WHEN_(EW_SAME_KIND_(A, B))(tokens): the tokens when kinds A and B are one */
#define EW_SECOND_(a, b, ...) b
#define EW_PROBE_(...) EW_SECOND_(__VA_ARGS__, 0, ~)
#define EW_SAME_KIND_(A, B) EW_PROBE_(EW_KIND_EQ_##A##_##B)
#define EW_KIND_EQ_KB_KB ~, 1
#define EW_KIND_EQ_KI_KI ~, 1
#define EW_KIND_EQ_KU_KU ~, 1
#define EW_KIND_EQ_KF_KF ~, 1
#define EW_KIND_EQ_KC_KC ~, 1
#define EW_WHEN_(c) EW_WHEN__(c)
#define EW_WHEN__(c) EW_WHEN_##c
#define EW_WHEN_1(...) __VA_ARGS__
#define EW_WHEN_0(...)
#define EW_UNPACK_(...) __VA_ARGS__
#define EW_CALL_(Y, ARGS) Y ARGS
#define EW_ROW_(Y, ARGS, WANT, N, T, K) \
    EW_WHEN_(EW_SAME_KIND_(WANT, K))(EW_CALL_(Y, (N, T, EW_WT_##K(T), EW_RT_##K(T), EW_UNPACK_ ARGS)))
#define G_B(Y, ...) ARS_DTYPES2(EW_ROW_, Y, (__VA_ARGS__), KB)
#define G_I(Y, ...) ARS_DTYPES2(EW_ROW_, Y, (__VA_ARGS__), KI)
#define G_U(Y, ...) ARS_DTYPES2(EW_ROW_, Y, (__VA_ARGS__), KU)
#define G_F(Y, ...) ARS_DTYPES2(EW_ROW_, Y, (__VA_ARGS__), KF)
#define G_C(Y, ...) ARS_DTYPES2(EW_ROW_, Y, (__VA_ARGS__), KC)
/* The real floats, for an op whose narrow floats have no loop of their own
 * (ew_narrow.h): the same rows as G_F. */
#define G_FW(Y, ...) G_F(Y, __VA_ARGS__)

/* Output type selectors: the C type, and the dtype code (a complex dtype's
 * real part is float32 or float64, by its size). */
#define OT_SAME(T, RT) T
#define OT_BOOL(T, RT) uint8_t
#define OT_REAL(T, RT) RT
#define OD_SAME(DN, RT) ARS_##DN
#define OD_BOOL(DN, RT) ARS_BOOL
#define OD_REAL(DN, RT) (sizeof(RT) == sizeof(float) ? ARS_FLOAT32 : ARS_FLOAT64)

#define BITS(T) ((uint64_t)sizeof(T) * 8u)

/* ---- helpers, one definition per type ---------------------------------------- */

/* base**e modulo 2**64 by squaring: the integer powers of every width (the
 * result's low bits are the narrower type's power; signed bases wrap). */
static inline uint64_t u64_pow(uint64_t base, uint64_t e)
{
    uint64_t r = 1;
    while (e) {
        if (e & 1)
            r *= base;
        base *= base;
        e >>= 1;
    }
    return r;
}

/* Integer floor division and remainder as NumPy: by zero gives 0, MIN // -1 wraps. */
#define DEF_SIGNED(T, WT)                                                    \
    static inline T i_fdiv_##T(T a, T b)                                     \
    {                                                                        \
        if (b == 0)                                                          \
            return 0;                                                        \
        if (b == -1)                                                         \
            return (T)(0u - (WT)a);                                          \
        T q = (T)(a / b);                                                    \
        if ((T)(a % b) != 0 && ((a < 0) != (b < 0)))                         \
            q--;                                                             \
        return q;                                                            \
    }                                                                        \
    static inline T i_rem_##T(T a, T b)                                      \
    {                                                                        \
        if (b == 0 || b == -1)                                               \
            return 0;                                                        \
        T r = (T)(a % b);                                                    \
        if (r != 0 && ((r < 0) != (b < 0)))                                  \
            r = (T)(r + b);                                                  \
        return r;                                                            \
    }                                                                        \
    static inline T i_pow_##T(T a, T b)                                      \
    {                                                                        \
        if (b < 0) /* 1/a**|b| truncated */                                  \
            return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;            \
        return (T)u64_pow((uint64_t)(WT)a, (uint64_t)b);                     \
    }
#define DEF_UNSIGNED(T, WT)                                                  \
    static inline T i_pow_##T(T a, T b)                                      \
    {                                                                        \
        return (T)u64_pow(a, b);                                             \
    }

/* Real floating helpers (tgmath picks the float or double function). */
#define TINY_OF(T) (sizeof(T) == 4 ? (T)0x1p-12 : (T)0x1p-27)
#define DEF_REAL(T)                                                          \
    static inline T f_fdiv_##T(T a, T b)                                     \
    {                                                                        \
        if (isnan(a) || isnan(b))                                            \
            return NAN;                                                      \
        if (b == 0 || isinf(a) || isinf(b))                                  \
            return (isinf(a) && isinf(b)) ? (T)NAN : a / b;                  \
        T mod = fmod(a, b);                                                  \
        T div = (a - mod) / b;                                               \
        if (mod != 0 && ((b < 0) != (mod < 0)))                              \
            div -= 1;                                                        \
        if (div == 0)                                                        \
            return copysign((T)0, a / b);                                    \
        T fl = floor(div);                                                   \
        if (div - fl > (T)0.5)                                               \
            fl += 1;                                                         \
        return fl;                                                           \
    }                                                                        \
    static inline T f_rem_##T(T a, T b)                                      \
    {                                                                        \
        if (isnan(a) || isnan(b) || isinf(a) || b == 0)                      \
            return NAN;                                                      \
        if (isinf(b)) {                                                      \
            if (a == 0)                                                      \
                return copysign((T)0, b);                                    \
            return ((a > 0) == (b > 0)) ? a : b;                             \
        }                                                                    \
        T mod = fmod(a, b);                                                  \
        if (mod != 0) {                                                      \
            if ((b < 0) != (mod < 0))                                        \
                mod += b;                                                    \
        } else {                                                             \
            mod = copysign((T)0, b);                                         \
        }                                                                    \
        return mod;                                                          \
    }                                                                        \
    static inline T f_sign_##T(T x) { return x > 0 ? (T)1 : x < 0 ? (T)-1 : x == 0 ? (T)0 : x; } \
    /* pow(x, 0.5): sqrt, but +0 for -0 and +inf for -inf (the select comes  \
     * before sqrt, so that it vectorizes without masks) */                  \
    static inline T f_pow_half_##T(T x)                                      \
    {                                                                        \
        return sqrt(x == -(T)INFINITY ? (T)INFINITY : x) + (T)0;             \
    }                                                                        \
    /* atanh and tanh of tiny x, where the true value rounds to x: glibc's   \
     * vector atanh and its scalar tanh are 1 ulp off there, and code checks \
     * tanh(x) == x. Below TINY_OF(T), x*x/3 is under half an ulp. A select \
     * after the call, so that the loop still vectorizes. */                 \
    static inline T f_atanh_##T(T x)                                         \
    {                                                                        \
        T t = atanh(x);                                                      \
        return fabs(x) < TINY_OF(T) ? x : t;                                 \
    }                                                                        \
    static inline T f_tanh_##T(T x)                                          \
    {                                                                        \
        T t = tanh(x);                                                       \
        return fabs(x) < TINY_OF(T) ? x : t;                                 \
    }

/* Complex helpers: the special cases of the standard where C's differ or
 * where C has no function. */
#define DEF_COMPLEX(CT, RT)                                                  \
    static inline CT mk_##CT(RT re, RT im)                                   \
    {                                                                        \
        CT z;                                                                \
        RT *p = (RT *)&z;                                                    \
        p[0] = re;                                                           \
        p[1] = im;                                                           \
        return z;                                                            \
    }                                                                        \
    static inline CT c_expm1_##CT(CT z)                                      \
    {                                                                        \
        RT a = creal(z), b = cimag(z);                                       \
        if (!isfinite(a) || !isfinite(b)) {                                  \
            CT e = exp(z);                                                  \
            return mk_##CT(creal(e) - 1, cimag(e));                          \
        }                                                                    \
        if (b == 0) /* expm1(-0 + 0j) is +0 + 0j */                          \
            return mk_##CT(a == 0 ? 0 : expm1(a), b);                        \
        RT h = sin(b / 2);                                                   \
        return mk_##CT(expm1(a) * cos(b) - 2 * h * h, exp(a) * sin(b));      \
    }                                                                        \
    static inline CT c_sign_##CT(CT z)                                       \
    {                                                                        \
        RT a = creal(z), b = cimag(z);                                       \
        if (isnan(a) || isnan(b))                                            \
            return mk_##CT(NAN, NAN);                                        \
        if (a == 0 && b == 0)                                                \
            return mk_##CT(0, 0);                                            \
        if (isinf(a) || isinf(b)) {                                          \
            if (isinf(a) && isinf(b))                                        \
                return mk_##CT(NAN, NAN);                                    \
            return mk_##CT(isinf(a) ? copysign((RT)1, a) : 0,                \
                           isinf(b) ? copysign((RT)1, b) : 0);               \
        }                                                                    \
        RT h = hypot(a, b);                                                  \
        return mk_##CT(a / h, b / h);                                        \
    }                                                                        \
    static inline CT c_tanh_##CT(CT z)                                       \
    {                                                                        \
        RT a = creal(z), b = cimag(z);                                       \
        if (a == 0 && !isfinite(b)) /* +-0 + inf j or +-0 + NaN j */         \
            return mk_##CT(a, NAN);                                          \
        if (isinf(a) && isfinite(b)) /* +-1 + 0j, the zero signed as b */    \
            return mk_##CT(copysign((RT)1, a), copysign((RT)0, b));          \
        return tanh(z);                                                     \
    }                                                                        \
    static inline CT c_log1p_##CT(CT z)                                      \
    {                                                                        \
        RT a = creal(z), b = cimag(z);                                       \
        if (fabs(a) < (RT)0.5 && fabs(b) < (RT)0.5)                          \
            return mk_##CT(log1p(a * (2 + a) + b * b) / 2, atan2(b, 1 + a)); \
        return log(mk_##CT(1 + a, b));                                      \
    }                                                                        \
    static inline CT c_scale_##CT(CT z, RT s) { return mk_##CT(creal(z) * s, cimag(z) * s); } \
    static inline CT c_round_##CT(CT z) { return mk_##CT(nearbyint(creal(z)), nearbyint(cimag(z))); } \
    static inline CT c_square_##CT(CT z)                                     \
    {                                                                        \
        return z * z;                                                        \
    }                                                                        \
    /* pow as NumPy's npy_cpow: the textbook product and Smith's quotient,   \
     * repeated multiplication for integer exponents below 100 in size (so   \
     * that (2j) ** 2 is exactly -4 + 0j), the C library's cpow otherwise. */ \
    static inline CT c_mul_##CT(CT a, CT b)                                  \
    {                                                                        \
        RT ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b);       \
        return mk_##CT(ar * br - ai * bi, ar * bi + ai * br);                \
    }                                                                        \
    static inline CT c_div_##CT(CT a, CT b)                                  \
    {                                                                        \
        RT ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b);       \
        RT abr = fabs(br), abi = fabs(bi);                                   \
        if (abr >= abi) {                                                    \
            if (abr == 0 && abi == 0)                                        \
                return mk_##CT(ar / abr, ai / abr);                          \
            RT rat = bi / br, scl = (RT)1 / (br + bi * rat);                 \
            return mk_##CT((ar + ai * rat) * scl, (ai - ar * rat) * scl);    \
        }                                                                    \
        RT rat = br / bi, scl = (RT)1 / (bi + br * rat);                     \
        return mk_##CT((ar * rat + ai) * scl, (ai * rat - ar) * scl);        \
    }                                                                        \
    /* a ** (n + 0j) for an integer 0 < |n| < 100 */                         \
    static inline CT c_powi_##CT(CT a, int n)                                \
    {                                                                        \
        if (creal(a) == 0 && cimag(a) == 0)                                  \
            return n > 0 ? mk_##CT(0, 0) : mk_##CT(NAN, NAN);                \
        if (n == 1)                                                          \
            return a;                                                        \
        if (n == 2)                                                          \
            return c_mul_##CT(a, a);                                         \
        if (n == 3)                                                          \
            return c_mul_##CT(a, c_mul_##CT(a, a));                          \
        int m = n < 0 ? -n : n;                                              \
        CT acc = mk_##CT(1, 0), p = a;                                       \
        for (;;) {                                                           \
            if (m & 1)                                                       \
                acc = c_mul_##CT(acc, p);                                    \
            m >>= 1;                                                         \
            if (!m)                                                          \
                break;                                                       \
            p = c_mul_##CT(p, p);                                            \
        }                                                                    \
        return n < 0 ? c_div_##CT(mk_##CT(1, 0), acc) : acc;                 \
    }                                                                        \
    static inline CT c_pow_##CT(CT a, CT b)                                  \
    {                                                                        \
        RT br = creal(b), bi = cimag(b);                                     \
        if (br == 0 && bi == 0)                                              \
            return mk_##CT(1, 0);                                            \
        if (creal(a) == 0 && cimag(a) == 0)                                  \
            return br > 0 ? mk_##CT(0, 0) : mk_##CT(NAN, NAN);               \
        if (bi == 0 && br > -100 && br < 100 && br == (RT)(int)br)           \
            return c_powi_##CT(a, (int)br);                                  \
        return pow(a, b);                                                    \
    }

/* The helpers of every row of the table, by its kind. */
#define EW_HELPERS_(N, T, K) EW_HELPERS_##K(T)
#define EW_HELPERS_KB(T)
#define EW_HELPERS_KI(T) DEF_SIGNED(T, EW_UWIDE_(T))
#define EW_HELPERS_KU(T) DEF_UNSIGNED(T, EW_UWIDE_(T))
#define EW_HELPERS_KF(T) DEF_REAL(T)
#define EW_HELPERS_KC(T) DEF_COMPLEX(T, EW_REAL_OF_(T))
ARS_DTYPES(EW_HELPERS_)

/* ---- scalar definitions: S(T, WT, RT, x) or S(T, WT, RT, a, b) ----------------- */

#define S_ID(T, WT, RT, x) (x)
#define S_FALSE(T, WT, RT, x) ((void)(x), 0)
#define S_TRUE(T, WT, RT, x) ((void)(x), 1)
#define S_ABS_I(T, WT, RT, x) ((x) < 0 ? (T)(0u - (WT)(x)) : (x))
#define S_FABS(T, WT, RT, x) fabs(x)
#define S_CABS(T, WT, RT, x) fabs(x)
#define S_ACOS(T, WT, RT, x) acos(x)
#define S_ACOSH(T, WT, RT, x) acosh(x)
#define S_ASIN(T, WT, RT, x) asin(x)
#define S_ASINH(T, WT, RT, x) asinh(x)
#define S_ATAN(T, WT, RT, x) atan(x)
#define S_ATANH(T, WT, RT, x) atanh(x)
#define S_ATANH_F(T, WT, RT, x) f_atanh_##T(x)
#define S_NOT(T, WT, RT, x) ((uint8_t)!(x))
#define S_INVERT(T, WT, RT, x) ((T)~(x))
#define S_CEIL(T, WT, RT, x) ceil(x)
#define S_FLOOR(T, WT, RT, x) floor(x)
#define S_TRUNC(T, WT, RT, x) trunc(x)
#define S_RINT(T, WT, RT, x) nearbyint(x)
#define S_CROUND(T, WT, RT, x) c_round_##T(x)
#define S_CONJ(T, WT, RT, x) conj(x)
#define S_COS(T, WT, RT, x) cos(x)
#define S_COSH(T, WT, RT, x) cosh(x)
#define S_EXP(T, WT, RT, x) exp(x)
#define S_EXPM1(T, WT, RT, x) expm1(x)
#define S_CEXPM1(T, WT, RT, x) c_expm1_##T(x)
#define S_ISFINITE(T, WT, RT, x) ((uint8_t)(isfinite(x) != 0))
#define S_ISINF(T, WT, RT, x) ((uint8_t)(isinf(x) != 0))
#define S_ISNAN(T, WT, RT, x) ((uint8_t)(isnan(x) != 0))
#define S_CISFINITE(T, WT, RT, x) ((uint8_t)(isfinite(creal(x)) && isfinite(cimag(x))))
#define S_CISINF(T, WT, RT, x) ((uint8_t)(isinf(creal(x)) || isinf(cimag(x))))
#define S_CISNAN(T, WT, RT, x) ((uint8_t)(isnan(creal(x)) || isnan(cimag(x))))
#define S_LOG(T, WT, RT, x) log(x)
#define S_LOG10(T, WT, RT, x) log10(x)
#define S_LOG1P(T, WT, RT, x) log1p(x)
#define S_LOG2(T, WT, RT, x) log2(x)
#define S_CLOG10(T, WT, RT, x) c_scale_##T(log(x), (RT)0.434294481903251827651128918916605082)
#define S_CLOG2(T, WT, RT, x) c_scale_##T(log(x), (RT)1.442695040888963407359924681001892137)
#define S_CLOG1P(T, WT, RT, x) c_log1p_##T(x)
#define S_NEG_I(T, WT, RT, x) ((T)(0u - (WT)(x)))
#define S_NEG(T, WT, RT, x) (-(x))
#define S_RECIP(T, WT, RT, x) ((RT)1 / (x))
#define S_SIGN_I(T, WT, RT, x) ((T)(((x) > 0) - ((x) < 0)))
#define S_SIGN_U(T, WT, RT, x) ((T)((x) > 0))
#define S_SIGN_F(T, WT, RT, x) f_sign_##T(x)
#define S_SIGN_C(T, WT, RT, x) c_sign_##T(x)
#define S_SIGNBIT(T, WT, RT, x) ((uint8_t)(signbit(x) != 0))
#define S_SIN(T, WT, RT, x) sin(x)
#define S_SINH(T, WT, RT, x) sinh(x)
#define S_SQRT(T, WT, RT, x) sqrt(x)
#define S_SQUARE_I(T, WT, RT, x) ((T)((WT)(x) * (WT)(x)))
#define S_SQUARE(T, WT, RT, x) ((x) * (x))
#define S_CSQUARE(T, WT, RT, x) c_square_##T(x)
#define S_TAN(T, WT, RT, x) tan(x)
#define S_TANH(T, WT, RT, x) f_tanh_##T(x)
/* Real floats: arrstride's own functions (vmath.h). */
#define S_EXP_R(T, WT, RT, x) ARS_VM_CORE(exp, x)
#define S_LOG_R(T, WT, RT, x) ARS_VM_CORE(log, x)
#define S_LOG2_R(T, WT, RT, x) ARS_VM_CORE32(log2, x)
#define S_LOG10_R(T, WT, RT, x) ARS_VM_CORE(log10, x)
#define S_LOG1P_R(T, WT, RT, x) ARS_VM(log1p, x)
#define S_SIN_R(T, WT, RT, x) ARS_VM(sin, x)
#define S_COS_R(T, WT, RT, x) ARS_VM(cos, x)
#define S_EXPM1_R(T, WT, RT, x) ARS_VM(expm1, x)
#define S_TANH_R(T, WT, RT, x) ARS_VM(tanh, x)
#define S_TAN_R(T, WT, RT, x) ARS_VM(tan, x)
#define S_ASIN_R(T, WT, RT, x) ARS_VM_CORE64(asin, x)
#define S_ACOS_R(T, WT, RT, x) ARS_VM(acos, x)
#define S_ATAN_R(T, WT, RT, x) ARS_VM_CORE64(atan, x)
#define S_SINH_R(T, WT, RT, x) ARS_VM(sinh, x)
#define S_COSH_R(T, WT, RT, x) ARS_VM(cosh, x)
#define S_ASINH_R(T, WT, RT, x) ARS_VM(asinh, x)
#define S_ACOSH_R(T, WT, RT, x) ARS_VM(acosh, x)
#define S_ATANH_R(T, WT, RT, x) ARS_VM_CORE(atanh, x)
/* The unary loops with a second pass (ew_loops.h's UNARY_KERNEL): the
 * vectorized loop runs a core that gives the full function's bits on its
 * domain and notes whether any x falls outside; only then does a second
 * pass redo those elements one at a time by the full function: the special
 * values and edges of exp, log, log2, log10, atanh and float64 asin and
 * atan, the arguments of sin, cos and tan beyond the vector reduction (the
 * C library's functions there). EW_CHECK_<FN> is "~, 1, OK, FULL": the
 * core's domain OK(x) (vmath.h's VM_*_OK) and the full function FULL. */
#define EW_CHECK_u_SIN_FLOAT64 ~, 1, VM_TRIG_OK, sin
#define EW_CHECK_u_COS_FLOAT64 ~, 1, VM_TRIG_OK, cos
#define EW_CHECK_u_TAN_FLOAT64 ~, 1, VM_TRIG_OK, tan
#define EW_CHECK_u_SIN_FLOAT32 ~, 1, VM_TRIG_OK, vm_libm_sinf
#define EW_CHECK_u_COS_FLOAT32 ~, 1, VM_TRIG_OK, vm_libm_cosf
#define EW_CHECK_u_TAN_FLOAT32 ~, 1, VM_TRIG_OK, vm_libm_tanf
#define EW_CHECK_u_EXP_FLOAT64 ~, 1, VM_EXP_OK, ars_exp
#define EW_CHECK_u_EXP_FLOAT32 ~, 1, VM_EXPF_OK, ars_expf
#define EW_CHECK_u_LOG_FLOAT64 ~, 1, VM_LOG_OK, ars_log
#define EW_CHECK_u_LOG_FLOAT32 ~, 1, VM_LOGF_OK, ars_logf
#define EW_CHECK_u_LOG2_FLOAT32 ~, 1, VM_LOGF_OK, ars_log2f
#define EW_CHECK_u_LOG10_FLOAT64 ~, 1, VM_LOG_OK, ars_log10
#define EW_CHECK_u_LOG10_FLOAT32 ~, 1, VM_LOGF_OK, ars_log10f
#define EW_CHECK_u_ASIN_FLOAT64 ~, 1, VM_ASIN_OK, ars_asin
#define EW_CHECK_u_ATANH_FLOAT64 ~, 1, VM_ATANH_OK, ars_atanh
#define EW_CHECK_u_ATAN_FLOAT64 ~, 1, VM_ATAN_OK, ars_atan
#define EW_CHECK_u_ATANH_FLOAT32 ~, 1, VM_ATANHF_OK, ars_atanhf
#define S_CTANH(T, WT, RT, x) c_tanh_##T(x)

/* X(OP, group, output selector, scalar definition, cost) */
#define UNARY_LIST(X)                                      \
    X(ABS, G_I, SAME, S_ABS_I, 1)                          \
    X(ABS, G_U, SAME, S_ID, 1)                             \
    X(ABS, G_F, SAME, S_FABS, 1)                           \
    X(ABS, G_C, REAL, S_CABS, 8)                           \
    X(ACOS, G_F, SAME, S_ACOS_R, 8)                        \
    X(ACOS, G_C, SAME, S_ACOS, 16)                         \
    X(ACOSH, G_F, SAME, S_ACOSH_R, 8)                      \
    X(ACOSH, G_C, SAME, S_ACOSH, 16)                       \
    X(ASIN, G_F, SAME, S_ASIN_R, 8)                        \
    X(ASIN, G_C, SAME, S_ASIN, 16)                         \
    X(ASINH, G_F, SAME, S_ASINH_R, 8)                      \
    X(ASINH, G_C, SAME, S_ASINH, 16)                       \
    X(ATAN, G_F, SAME, S_ATAN_R, 8)                        \
    X(ATAN, G_C, SAME, S_ATAN, 16)                         \
    X(ATANH, G_F, SAME, S_ATANH_R, 8)                      \
    X(ATANH, G_C, SAME, S_ATANH, 16)                       \
    X(BITWISE_INVERT, G_B, SAME, S_NOT, 1)                 \
    X(BITWISE_INVERT, G_I, SAME, S_INVERT, 1)              \
    X(BITWISE_INVERT, G_U, SAME, S_INVERT, 1)              \
    X(CEIL, G_I, SAME, S_ID, 1)                            \
    X(CEIL, G_U, SAME, S_ID, 1)                            \
    X(CEIL, G_F, SAME, S_CEIL, 1)                          \
    X(CONJ, G_C, SAME, S_CONJ, 1)                          \
    X(COS, G_F, SAME, S_COS_R, 8)                          \
    X(COS, G_C, SAME, S_COS, 16)                           \
    X(COSH, G_F, SAME, S_COSH_R, 8)                        \
    X(COSH, G_C, SAME, S_COSH, 16)                         \
    X(EXP, G_F, SAME, S_EXP_R, 4)                            \
    X(EXP, G_C, SAME, S_EXP, 16)                           \
    X(EXPM1, G_F, SAME, S_EXPM1_R, 8)                        \
    X(EXPM1, G_C, SAME, S_CEXPM1, 16)                      \
    X(FLOOR, G_I, SAME, S_ID, 1)                           \
    X(FLOOR, G_U, SAME, S_ID, 1)                           \
    X(FLOOR, G_F, SAME, S_FLOOR, 1)                        \
    X(ISFINITE, G_I, BOOL, S_TRUE, 1)                      \
    X(ISFINITE, G_U, BOOL, S_TRUE, 1)                      \
    X(ISFINITE, G_F, BOOL, S_ISFINITE, 1)                  \
    X(ISFINITE, G_C, BOOL, S_CISFINITE, 1)                 \
    X(ISINF, G_I, BOOL, S_FALSE, 1)                        \
    X(ISINF, G_U, BOOL, S_FALSE, 1)                        \
    X(ISINF, G_F, BOOL, S_ISINF, 1)                        \
    X(ISINF, G_C, BOOL, S_CISINF, 1)                       \
    X(ISNAN, G_I, BOOL, S_FALSE, 1)                        \
    X(ISNAN, G_U, BOOL, S_FALSE, 1)                        \
    X(ISNAN, G_F, BOOL, S_ISNAN, 1)                        \
    X(ISNAN, G_C, BOOL, S_CISNAN, 1)                       \
    X(LOG, G_F, SAME, S_LOG_R, 4)                            \
    X(LOG, G_C, SAME, S_LOG, 16)                           \
    X(LOG10, G_F, SAME, S_LOG10_R, 8)                        \
    X(LOG10, G_C, SAME, S_CLOG10, 16)                      \
    X(LOG1P, G_F, SAME, S_LOG1P_R, 8)                        \
    X(LOG1P, G_C, SAME, S_CLOG1P, 16)                      \
    X(LOG2, G_F, SAME, S_LOG2_R, 8)                          \
    X(LOG2, G_C, SAME, S_CLOG2, 16)                        \
    X(LOGICAL_NOT, G_B, SAME, S_NOT, 1)                    \
    X(NEGATIVE, G_I, SAME, S_NEG_I, 1)                     \
    X(NEGATIVE, G_U, SAME, S_NEG_I, 1)                     \
    X(NEGATIVE, G_F, SAME, S_NEG, 1)                       \
    X(NEGATIVE, G_C, SAME, S_NEG, 1)                       \
    X(POSITIVE, G_I, SAME, S_ID, 1)                        \
    X(POSITIVE, G_U, SAME, S_ID, 1)                        \
    X(POSITIVE, G_F, SAME, S_ID, 1)                        \
    X(POSITIVE, G_C, SAME, S_ID, 1)                        \
    X(RECIPROCAL, G_F, SAME, S_RECIP, 1)                   \
    X(RECIPROCAL, G_C, SAME, S_RECIP, 4)                   \
    X(ROUND, G_I, SAME, S_ID, 1)                           \
    X(ROUND, G_U, SAME, S_ID, 1)                           \
    X(ROUND, G_F, SAME, S_RINT, 1)                         \
    X(ROUND, G_C, SAME, S_CROUND, 1)                       \
    X(SIGN, G_I, SAME, S_SIGN_I, 1)                        \
    X(SIGN, G_U, SAME, S_SIGN_U, 1)                        \
    X(SIGN, G_F, SAME, S_SIGN_F, 1)                        \
    X(SIGN, G_C, SAME, S_SIGN_C, 8)                        \
    X(SIGNBIT, G_F, BOOL, S_SIGNBIT, 1)                    \
    X(SIN, G_F, SAME, S_SIN_R, 8)                            \
    X(SIN, G_C, SAME, S_SIN, 16)                           \
    X(SINH, G_F, SAME, S_SINH_R, 8)                        \
    X(SINH, G_C, SAME, S_SINH, 16)                         \
    X(SQRT, G_F, SAME, S_SQRT, 4)                          \
    X(SQRT, G_C, SAME, S_SQRT, 8)                          \
    X(SQUARE, G_I, SAME, S_SQUARE_I, 1)                    \
    X(SQUARE, G_U, SAME, S_SQUARE_I, 1)                    \
    X(SQUARE, G_F, SAME, S_SQUARE, 1)                      \
    X(SQUARE, G_C, SAME, S_CSQUARE, 2)                     \
    X(TAN, G_F, SAME, S_TAN_R, 8)                          \
    X(TAN, G_C, SAME, S_TAN, 16)                           \
    X(TANH, G_F, SAME, S_TANH_R, 8)                          \
    X(TANH, G_C, SAME, S_CTANH, 16)                        \
    X(TRUNC, G_I, SAME, S_ID, 1)                           \
    X(TRUNC, G_U, SAME, S_ID, 1)                           \
    X(TRUNC, G_F, SAME, S_TRUNC, 1)

/* ---- binary scalar definitions ------------------------------------------------ */

#define B_ADD_I(T, WT, RT, a, b) ((T)((WT)(a) + (WT)(b)))
#define B_SUB_I(T, WT, RT, a, b) ((T)((WT)(a) - (WT)(b)))
#define B_MUL_I(T, WT, RT, a, b) ((T)((WT)(a) * (WT)(b)))
#define B_ADD(T, WT, RT, a, b) ((a) + (b))
#define B_SUB(T, WT, RT, a, b) ((a) - (b))
#define B_MUL(T, WT, RT, a, b) ((a) * (b))
#define B_DIV(T, WT, RT, a, b) ((a) / (b))
#define B_ATAN2(T, WT, RT, a, b) _Generic((a), float: ars_atan2f, double: ars_atan2)(a, b)
#define B_AND(T, WT, RT, a, b) ((T)((a) & (b)))
#define B_OR(T, WT, RT, a, b) ((T)((a) | (b)))
#define B_XOR(T, WT, RT, a, b) ((T)((a) ^ (b)))
/* Shifts as NumPy: by a negative amount or the width or more, left gives 0 and
 * right gives the sign fill. */
#define B_SHL(T, WT, RT, a, b) \
    ((uint64_t)(int64_t)(b) < BITS(T) ? (T)((uint64_t)(WT)(a) << (b)) : (T)0)
#define B_SHR_I(T, WT, RT, a, b) \
    ((uint64_t)(int64_t)(b) < BITS(T) ? (T)((a) >> (b)) : (T)((a) < 0 ? -1 : 0))
#define B_SHR_U(T, WT, RT, a, b) ((uint64_t)(b) < BITS(T) ? (T)((a) >> (b)) : (T)0)
#define B_COPYSIGN(T, WT, RT, a, b) copysign(a, b)
#define B_EQ(T, WT, RT, a, b) ((uint8_t)((a) == (b)))
#define B_NE(T, WT, RT, a, b) ((uint8_t)((a) != (b)))
#define B_GT(T, WT, RT, a, b) ((uint8_t)((a) > (b)))
#define B_GE(T, WT, RT, a, b) ((uint8_t)((a) >= (b)))
#define B_LT(T, WT, RT, a, b) ((uint8_t)((a) < (b)))
#define B_LE(T, WT, RT, a, b) ((uint8_t)((a) <= (b)))
#define B_FDIV_I(T, WT, RT, a, b) i_fdiv_##T(a, b)
#define B_FDIV_U(T, WT, RT, a, b) ((b) == 0 ? (T)0 : (T)((a) / (b)))
#define B_FDIV_F(T, WT, RT, a, b) f_fdiv_##T(a, b)
#define B_REM_I(T, WT, RT, a, b) i_rem_##T(a, b)
#define B_REM_U(T, WT, RT, a, b) ((b) == 0 ? (T)0 : (T)((a) % (b)))
#define B_REM_F(T, WT, RT, a, b) f_rem_##T(a, b)
#define B_HYPOT(T, WT, RT, a, b) _Generic((a), float: ars_hypotf, double: ars_hypot)(a, b)
#define B_LOGADDEXP(T, WT, RT, a, b) _Generic((a), float: ars_logaddexpf, double: ars_logaddexp)(a, b)
#define B_LAND(T, WT, RT, a, b) ((uint8_t)((a) && (b)))
#define B_LOR(T, WT, RT, a, b) ((uint8_t)((a) || (b)))
#define B_LXOR(T, WT, RT, a, b) ((uint8_t)(!(a) != !(b)))
#define B_MAX(T, WT, RT, a, b) ((a) >= (b) ? (a) : (b))
#define B_MIN(T, WT, RT, a, b) ((a) <= (b) ? (a) : (b))
#define B_MAX_F(T, WT, RT, a, b) (((a) >= (b) || isnan(a)) ? (a) : (b))
#define B_MIN_F(T, WT, RT, a, b) (((a) <= (b) || isnan(a)) ? (a) : (b))
#define B_NEXTAFTER(T, WT, RT, a, b) nextafter(a, b)
/* float pow and atan2, float64 hypot and logaddexp: a core on most
 * elements, the full function on the rare ones (ew_loops.h's
 * BINARY_KERNELS, vmath.h's VM_BIN_RUN) */
#define EW_CORE_b_POW_FLOAT32 ~, 1
#define EW_CORE_b_POW_FLOAT64 ~, 1
#define EW_CORE_b_ATAN2_FLOAT32 ~, 1
#define EW_CORE_b_ATAN2_FLOAT64 ~, 1
#define EW_CORE_b_HYPOT_FLOAT64 ~, 1
#define EW_CORE_b_LOGADDEXP_FLOAT64 ~, 1
#define EW_CORE_CALL_b_POW_FLOAT32 ars_powf_run
#define EW_CORE_CALL_b_POW_FLOAT64 ars_pow_run
#define EW_CORE_CALL_b_ATAN2_FLOAT32 ars_atan2f_run
#define EW_CORE_CALL_b_ATAN2_FLOAT64 ars_atan2_run
#define EW_CORE_CALL_b_HYPOT_FLOAT64 ars_hypot_run
#define EW_CORE_CALL_b_LOGADDEXP_FLOAT64 ars_logaddexp_run
#define B_POW_I(T, WT, RT, a, b) i_pow_##T(a, b)
#define B_POW(T, WT, RT, a, b) _Generic((a), float: ars_powf, double: ars_pow)(a, b)
#define B_CPOW(T, WT, RT, a, b) c_pow_##T(a, b)

/* ---- pow with one exponent for every element ----------------------------------
 * x ** 2, x ** 0.5, ...: when the exponent of pow is the same for every element
 * (a Python scalar, a 0-d array, any operand of stride 0 throughout) and is one
 * of these, a unary loop with a cheaper form runs instead of pow. Each form
 * gives pow's result for every special value (NaN ** 0 is 1, (-0) ** 0.5 is +0,
 * (-inf) ** 0.5 is +inf, integers wrap); 2, 1, -1 and 0.5 are exact (one
 * rounding, as pow), 3, 4 and -2 are within an ulp or two (float32 is computed
 * in double and rounded once). Complex exponents follow c_pow exactly. */
enum { PX_NONE, PX_ZERO, PX_ONE, PX_TWO, PX_THREE, PX_FOUR, PX_HALF, PX_M1, PX_M2, PX_N };

#define P_ONE_R(T, WT, RT, x) ((void)(x), (T)1)
#define P_CUBE_I(T, WT, RT, x) ((T)((WT)(x) * (WT)(x) * (WT)(x)))
#define P_POW4_I(T, WT, RT, x) ((T)(((WT)(x) * (WT)(x)) * ((WT)(x) * (WT)(x))))
#define P_CUBE_F(T, WT, RT, x) ((T)((double)(x) * (double)(x) * (double)(x)))
#define P_POW4_F(T, WT, RT, x) ((T)(((double)(x) * (double)(x)) * ((double)(x) * (double)(x))))
#define P_M2_F(T, WT, RT, x) ((T)((1.0 / (double)(x)) * (1.0 / (double)(x))))
#define P_HALF_F(T, WT, RT, x) f_pow_half_##T(x)
#define P_ONE_C(T, WT, RT, x) ((void)(x), mk_##T(1, 0))
#define P_CPOW1(T, WT, RT, x) c_powi_##T(x, 1)
#define P_CPOW2(T, WT, RT, x) c_powi_##T(x, 2)
#define P_CPOW3(T, WT, RT, x) c_powi_##T(x, 3)
#define P_CPOW4(T, WT, RT, x) c_powi_##T(x, 4)
#define P_CPOWM1(T, WT, RT, x) c_powi_##T(x, -1)
#define P_CPOWM2(T, WT, RT, x) c_powi_##T(x, -2)

/* X(exponent, group, scalar definition, cost) */
#define POW_FAST_LIST(X)                                   \
    X(ZERO, G_I, P_ONE_R, 1)                               \
    X(ZERO, G_U, P_ONE_R, 1)                               \
    X(ZERO, G_F, P_ONE_R, 1)                               \
    X(ZERO, G_C, P_ONE_C, 1)                               \
    X(ONE, G_I, S_ID, 1)                                   \
    X(ONE, G_U, S_ID, 1)                                   \
    X(ONE, G_F, S_ID, 1)                                   \
    X(ONE, G_C, P_CPOW1, 1)                                \
    X(TWO, G_I, S_SQUARE_I, 1)                             \
    X(TWO, G_U, S_SQUARE_I, 1)                             \
    X(TWO, G_F, S_SQUARE, 1)                               \
    X(TWO, G_C, P_CPOW2, 2)                                \
    X(THREE, G_I, P_CUBE_I, 1)                             \
    X(THREE, G_U, P_CUBE_I, 1)                             \
    X(THREE, G_F, P_CUBE_F, 1)                             \
    X(THREE, G_C, P_CPOW3, 2)                              \
    X(FOUR, G_I, P_POW4_I, 1)                              \
    X(FOUR, G_U, P_POW4_I, 1)                              \
    X(FOUR, G_F, P_POW4_F, 1)                              \
    X(FOUR, G_C, P_CPOW4, 2)                               \
    X(HALF, G_F, P_HALF_F, 4)                              \
    X(M1, G_F, S_RECIP, 1)                                 \
    X(M1, G_C, P_CPOWM1, 4)                                \
    X(M2, G_F, P_M2_F, 1)                                  \
    X(M2, G_C, P_CPOWM2, 4)

#define BINARY_LIST(X)                                     \
    X(ADD, G_I, SAME, B_ADD_I, 1)                          \
    X(ADD, G_U, SAME, B_ADD_I, 1)                          \
    X(ADD, G_F, SAME, B_ADD, 1)                            \
    X(ADD, G_C, SAME, B_ADD, 1)                            \
    X(ATAN2, G_F, SAME, B_ATAN2, 8)                        \
    X(BITWISE_AND, G_B, SAME, B_AND, 1)                    \
    X(BITWISE_AND, G_I, SAME, B_AND, 1)                    \
    X(BITWISE_AND, G_U, SAME, B_AND, 1)                    \
    X(BITWISE_LEFT_SHIFT, G_I, SAME, B_SHL, 1)             \
    X(BITWISE_LEFT_SHIFT, G_U, SAME, B_SHL, 1)             \
    X(BITWISE_OR, G_B, SAME, B_OR, 1)                      \
    X(BITWISE_OR, G_I, SAME, B_OR, 1)                      \
    X(BITWISE_OR, G_U, SAME, B_OR, 1)                      \
    X(BITWISE_RIGHT_SHIFT, G_I, SAME, B_SHR_I, 1)          \
    X(BITWISE_RIGHT_SHIFT, G_U, SAME, B_SHR_U, 1)          \
    X(BITWISE_XOR, G_B, SAME, B_XOR, 1)                    \
    X(BITWISE_XOR, G_I, SAME, B_XOR, 1)                    \
    X(BITWISE_XOR, G_U, SAME, B_XOR, 1)                    \
    X(COPYSIGN, G_F, SAME, B_COPYSIGN, 1)                  \
    X(DIVIDE, G_F, SAME, B_DIV, 1)                         \
    X(DIVIDE, G_C, SAME, B_DIV, 4)                         \
    X(EQUAL, G_B, BOOL, B_EQ, 1)                           \
    X(EQUAL, G_I, BOOL, B_EQ, 1)                           \
    X(EQUAL, G_U, BOOL, B_EQ, 1)                           \
    X(EQUAL, G_F, BOOL, B_EQ, 1)                           \
    X(EQUAL, G_C, BOOL, B_EQ, 1)                           \
    X(FLOOR_DIVIDE, G_I, SAME, B_FDIV_I, 4)                \
    X(FLOOR_DIVIDE, G_U, SAME, B_FDIV_U, 4)                \
    X(FLOOR_DIVIDE, G_F, SAME, B_FDIV_F, 4)                \
    X(GREATER, G_I, BOOL, B_GT, 1)                         \
    X(GREATER, G_U, BOOL, B_GT, 1)                         \
    X(GREATER, G_F, BOOL, B_GT, 1)                         \
    X(GREATER_EQUAL, G_I, BOOL, B_GE, 1)                   \
    X(GREATER_EQUAL, G_U, BOOL, B_GE, 1)                   \
    X(GREATER_EQUAL, G_F, BOOL, B_GE, 1)                   \
    X(HYPOT, G_F, SAME, B_HYPOT, 4)                        \
    X(LESS, G_I, BOOL, B_LT, 1)                            \
    X(LESS, G_U, BOOL, B_LT, 1)                            \
    X(LESS, G_F, BOOL, B_LT, 1)                            \
    X(LESS_EQUAL, G_I, BOOL, B_LE, 1)                      \
    X(LESS_EQUAL, G_U, BOOL, B_LE, 1)                      \
    X(LESS_EQUAL, G_F, BOOL, B_LE, 1)                      \
    X(LOGADDEXP, G_F, SAME, B_LOGADDEXP, 16)               \
    X(LOGICAL_AND, G_B, BOOL, B_LAND, 1)                   \
    X(LOGICAL_OR, G_B, BOOL, B_LOR, 1)                     \
    X(LOGICAL_XOR, G_B, BOOL, B_LXOR, 1)                   \
    X(MAXIMUM, G_I, SAME, B_MAX, 1)                        \
    X(MAXIMUM, G_U, SAME, B_MAX, 1)                        \
    X(MAXIMUM, G_F, SAME, B_MAX_F, 1)                      \
    X(MINIMUM, G_I, SAME, B_MIN, 1)                        \
    X(MINIMUM, G_U, SAME, B_MIN, 1)                        \
    X(MINIMUM, G_F, SAME, B_MIN_F, 1)                      \
    X(MULTIPLY, G_I, SAME, B_MUL_I, 1)                     \
    X(MULTIPLY, G_U, SAME, B_MUL_I, 1)                     \
    X(MULTIPLY, G_F, SAME, B_MUL, 1)                       \
    X(MULTIPLY, G_C, SAME, B_MUL, 2)                       \
    X(NEXTAFTER, G_FW, SAME, B_NEXTAFTER, 2)                \
    X(NOT_EQUAL, G_B, BOOL, B_NE, 1)                       \
    X(NOT_EQUAL, G_I, BOOL, B_NE, 1)                       \
    X(NOT_EQUAL, G_U, BOOL, B_NE, 1)                       \
    X(NOT_EQUAL, G_F, BOOL, B_NE, 1)                       \
    X(NOT_EQUAL, G_C, BOOL, B_NE, 1)                       \
    X(POW, G_I, SAME, B_POW_I, 4)                          \
    X(POW, G_U, SAME, B_POW_I, 4)                          \
    X(POW, G_F, SAME, B_POW, 8)                            \
    X(POW, G_C, SAME, B_CPOW, 16)                           \
    X(REMAINDER, G_I, SAME, B_REM_I, 4)                    \
    X(REMAINDER, G_U, SAME, B_REM_U, 4)                    \
    X(REMAINDER, G_F, SAME, B_REM_F, 4)                    \
    X(SUBTRACT, G_I, SAME, B_SUB_I, 1)                     \
    X(SUBTRACT, G_U, SAME, B_SUB_I, 1)                     \
    X(SUBTRACT, G_F, SAME, B_SUB, 1)                       \
    X(SUBTRACT, G_C, SAME, B_SUB, 1)

#endif
