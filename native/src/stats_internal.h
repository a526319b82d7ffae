/* Shared by the statistics, sorting and set kernels: typed loads and stores,
 * accumulator conversions, wrapping integer arithmetic, order keys. */
#ifndef ARS_STATS_INTERNAL_H
#define ARS_STATS_INTERNAL_H

#include <math.h>
#include <string.h>
#include "ars_internal.h"

/* The accumulator dtypes of sums and products. */
#define ARS_ACC_DTYPES(X)           \
    X(INT64, int64_t, KI)           \
    X(UINT64, uint64_t, KU)         \
    X(FLOAT32, float, KF)           \
    X(FLOAT64, double, KF)          \
    X(COMPLEX64, ars_c64, KC)       \
    X(COMPLEX128, ars_c128, KC)

/* Unaligned-safe typed access: ld_T(p), st_T(p, v). */
#define ARS_DEF_LDST(NAME, T, K)                                              \
    static inline T ld_##NAME(const char *p) { T v; memcpy(&v, p, sizeof v); return v; } \
    static inline void st_##NAME(char *p, T v) { memcpy(p, &v, sizeof v); }
ARS_DTYPES(ARS_DEF_LDST)
ARS_NARROW_DTYPES(ARS_DEF_LDST)

/* A narrow float (kind KN) as the float it widens to (exact). */
#define NARROW_TO_FLOAT(v) _Generic((v), ars_f16: ars_f16_to_float, ars_bf16: ars_bf16_to_float)(v)

/* ACONV_<acc kind>_<input kind>(AT, v): v into the accumulator type AT. */
#define ACONV_KI_KB(AT, v) ((AT)(v))
#define ACONV_KI_KI(AT, v) ((AT)(v))
#define ACONV_KI_KU(AT, v) ((AT)(v))
#define ACONV_KI_KF(AT, v) ARS_F2INT_I(AT, (double)(v))
#define ACONV_KI_KC(AT, v) ARS_F2INT_I(AT, creal(v))
#define ACONV_KU_KB(AT, v) ((AT)(v))
#define ACONV_KU_KI(AT, v) ((AT)(v))
#define ACONV_KU_KU(AT, v) ((AT)(v))
#define ACONV_KU_KF(AT, v) ARS_F2INT_U(AT, (double)(v))
#define ACONV_KU_KC(AT, v) ARS_F2INT_U(AT, creal(v))
#define ACONV_KF_KB(AT, v) ((AT)(v))
#define ACONV_KF_KI(AT, v) ((AT)(v))
#define ACONV_KF_KU(AT, v) ((AT)(v))
#define ACONV_KF_KF(AT, v) ((AT)(v))
#define ACONV_KF_KC(AT, v) ((AT)creal(v))
#define ACONV_KC_KB(AT, v) ((AT)(v))
#define ACONV_KC_KI(AT, v) ((AT)(v))
#define ACONV_KC_KU(AT, v) ((AT)(v))
#define ACONV_KC_KF(AT, v) ((AT)(v))
#define ACONV_KC_KC(AT, v) ((AT)(v))
/* a narrow float enters through float, as when cast to float32 first */
#define ACONV_KI_KN(AT, v) ACONV_KI_KF(AT, NARROW_TO_FLOAT(v))
#define ACONV_KU_KN(AT, v) ACONV_KU_KF(AT, NARROW_TO_FLOAT(v))
#define ACONV_KF_KN(AT, v) ((AT)NARROW_TO_FLOAT(v))
#define ACONV_KC_KN(AT, v) ((AT)NARROW_TO_FLOAT(v))

/* Wrapping integer arithmetic (signed overflow is done in unsigned). */
#define ADD_KB(T, a, b) ((T)((a) + (b)))
#define ADD_KI(T, a, b) ((T)((uint64_t)(a) + (uint64_t)(b)))
#define ADD_KU(T, a, b) ((T)((a) + (b)))
#define ADD_KF(T, a, b) ((a) + (b))
#define ADD_KC(T, a, b) ((a) + (b))
#define SUB_KB(T, a, b) ((T)((a) != (b)))
#define SUB_KI(T, a, b) ((T)((uint64_t)(a) - (uint64_t)(b)))
#define SUB_KU(T, a, b) ((T)((uint64_t)(a) - (uint64_t)(b)))
#define SUB_KF(T, a, b) ((a) - (b))
#define SUB_KC(T, a, b) ((a) - (b))
#define MUL_KB(T, a, b) ((T)((a) * (b)))
#define MUL_KI(T, a, b) ((T)((uint64_t)(a) * (uint64_t)(b)))
#define MUL_KU(T, a, b) ((T)((uint64_t)(a) * (uint64_t)(b)))
#define MUL_KF(T, a, b) ((a) * (b))
#define MUL_KC(T, a, b) ((a) * (b))

/* Largest and smallest values of a real type. */
#define HI_KB(T) ((T)1)
#define HI_KI(T) ((T)((((uint64_t)1) << (8 * sizeof(T) - 1)) - 1))
#define HI_KU(T) ((T)~(T)0)
#define HI_KF(T) ((T)INFINITY)
#define LO_KB(T) ((T)0)
#define LO_KI(T) ((T)(-HI_KI(T) - 1))
#define LO_KU(T) ((T)0)
#define LO_KF(T) ((T)-INFINITY)

/* Order keys: unsigned 64-bit integers that sort as the values do, with
 * -0.0 == 0.0 and every NaN equal to UINT64_MAX (last). */
#define KEY_SIGN ((uint64_t)1 << 63)
#define ARS_KEY_KB(T, v) ((uint64_t)(v))
#define ARS_KEY_KU(T, v) ((uint64_t)(v))
#define ARS_KEY_KI(T, v) ((uint64_t)(int64_t)(v) ^ KEY_SIGN)
#define ARS_KEY_KF(T, v) (sizeof(T) == 4 ? ars_key_f32((float)(v)) : ars_key_f64((double)(v)))

static inline uint64_t ars_key_f64(double v)
{
    if (v != v)
        return UINT64_MAX;
    if (v == 0)
        return KEY_SIGN;
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return (b & KEY_SIGN) ? ~b : (b | KEY_SIGN);
}
static inline uint64_t ars_key_f32(float v)
{
    /* widening is exact and order preserving */
    return ars_key_f64((double)v);
}
static inline double ars_unkey_f64(uint64_t k)
{
    uint64_t b = (k & KEY_SIGN) ? (k ^ KEY_SIGN) : ~k;
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}
#define ARS_UNKEY_KB(T, k) ((T)(k))
#define ARS_UNKEY_KU(T, k) ((T)(k))
#define ARS_UNKEY_KI(T, k) ((T)(int64_t)((k) ^ KEY_SIGN))
#define ARS_UNKEY_KF(T, k) ((k) == UINT64_MAX ? (T)NAN : (T)ars_unkey_f64(k))

/* Narrow floats (kind KN): loaded and stored as their bits; their value
 * through float (exact). float16 and bfloat16 are both sign and magnitude
 * with NaNs above the bits of +inf, so their keys come from the bits: the
 * bits in the key's top 16, as ars_key_f64 does for a double (a different
 * number than the float32 value's key, in the same order: -0.0 == 0.0, NaNs
 * last). A decoded NaN is the float NaN cast to the dtype, as a float32
 * sort cast back gives. (Their loads, stores and NARROW_TO_FLOAT: above.) */
#define NARROW_INF_BITS(v) _Generic((v), ars_f16: 0x7c00u, ars_bf16: 0x7f80u)
#define NARROW_ISNAN(v) (((v).bits & 0x7fffu) > NARROW_INF_BITS(v))
#define NARROW_NAN_BITS(T) _Generic((T *)0, ars_f16 *: 0x7e00u, ars_bf16 *: 0x7fc0u)
static inline uint64_t ars_key_n16(uint16_t b, unsigned inf)
{
    if ((b & 0x7fffu) > inf)
        return UINT64_MAX;
    if ((b & 0x7fffu) == 0)
        return KEY_SIGN;
    uint64_t w = (uint64_t)b << 48;
    return (w & KEY_SIGN) ? ~w : (w | KEY_SIGN);
}
static inline uint16_t ars_unkey_n16(uint64_t k, unsigned nan)
{
    if (k == UINT64_MAX)
        return (uint16_t)nan;
    uint64_t w = (k & KEY_SIGN) ? (k ^ KEY_SIGN) : ~k;
    return (uint16_t)(w >> 48);
}
#define ARS_KEY_KN(T, v) ars_key_n16((v).bits, NARROW_INF_BITS(v))
#define ARS_UNKEY_KN(T, k) ((T){ars_unkey_n16(k, NARROW_NAN_BITS(T))})

/* Stable LSD radix sort of n keys (and their payload when idx != NULL),
 * using tmp buffers of n slots each. */
void ars_radix_sort(uint64_t *keys, int64_t *idx, uint64_t *tmp_keys, int64_t *tmp_idx, int64_t n);

#endif
