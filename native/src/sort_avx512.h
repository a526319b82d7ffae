/* The AVX-512 quicksort's instantiations and its keys, shared by the sorting
 * (sort.c) and selection (select.c) kernels: each includes it once and uses
 * what it needs (the rest is static and unused there). Defines ARS_SORT_SIMD
 * (1 where the vector code is compiled) and, when it is, have_avx512(). */
#ifndef ARS_SORT_AVX512_H
#define ARS_SORT_AVX512_H

#include "platform.h"
#include "stats_internal.h"

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

/* ---- the quicksort (AVX-512) ------------------------------------------------------
 *
 * Unstable sorts (stable=False) of lanes longer than sort.c's QUICK_MIN run a
 * vector quicksort (sort_simd.h) on signed keys: the values' order as int64 (int32
 * for values of 4 bytes or fewer, argsort aside), one cheap invertible map
 * per dtype. The elements that sort last (NaNs; with 64-bit keys also the
 * largest value, whose key is the networks' padding) are moved to the end
 * while the keys are made, so that plain comparisons order the rest.
 * Descending is the ascending order written backwards, NaNs first, as the
 * radix sort does. */
#if defined(__x86_64__) && defined(__GNUC__)
#define ARS_SORT_SIMD 1
#include <immintrin.h>
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,popcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,popcnt")
#endif

#define SS_V __m512i
#define SS_L 8
#define SS_M __mmask8
#define SS_KT int64_t
#define SS_KMAX INT64_MAX
#define V_LOADU(p) _mm512_loadu_si512(p)
#define V_STOREU(p, v) _mm512_storeu_si512(p, v)
#define V_MLOAD(src, m, p) _mm512_mask_loadu_epi64(src, m, p)
#define V_MSTORE(p, m, v) _mm512_mask_storeu_epi64(p, m, v)
#define V_COMPRESS(m, v) _mm512_maskz_compress_epi64(m, v)
#define V_MASK_MIN(src, m, a, b) _mm512_mask_min_epi64(src, m, a, b)
#define V_SET1(x) _mm512_set1_epi64(x)
#define V_MIN(a, b) _mm512_min_epi64(a, b)
#define V_MAX(a, b) _mm512_max_epi64(a, b)
#define V_CMPLE(a, b) _mm512_cmple_epi64_mask(a, b)
#define V_CMPGE(a, b) _mm512_cmpge_epi64_mask(a, b)
#define V_PERM(i, v) _mm512_permutexvar_epi64(i, v)
#define V_PERM2(a, i, b) _mm512_permutex2var_epi64(a, i, b)
#define V_BLEND(m, a, b) _mm512_mask_blend_epi64(m, a, b)
#define V_ADD(a, b) _mm512_add_epi64(a, b)
#define V_MASK_ADD(src, m, a, b) _mm512_mask_add_epi64(src, m, a, b)
#define V_TESTM(a, b) _mm512_test_epi64_mask(a, b)
#define V_GATHER(i, p) _mm512_i64gather_epi64(i, (const void *)(p), 8)

#define SS_IDX 0
#define SS_BASE 128
#define SS(name) name##_k64
#include "sort_simd.h"
#undef SS_IDX
#undef SS_BASE
#undef SS

#define SS_IDX 1
#define SS_BASE 64
#define SS(name) name##_a64
/* keys sorted without payloads: packed with their places, or the sample */
#define SS_PACKED_SORT(a, n) qsort_k64(a, NULL, n, depth_limit_k64(n), 0, 0)
#include "sort_simd.h"
#undef SS_PACKED_SORT
#undef SS_IDX
#undef SS_BASE
#undef SS

#undef SS_V
#undef SS_L
#undef SS_M
#undef SS_KT
#undef SS_KMAX
#undef V_MLOAD
#undef V_MSTORE
#undef V_COMPRESS
#undef V_MASK_MIN
#undef V_SET1
#undef V_MIN
#undef V_MAX
#undef V_CMPLE
#undef V_CMPGE
#undef V_PERM
#undef V_PERM2
#undef V_BLEND
#undef V_ADD
#undef V_MASK_ADD
#undef V_TESTM
#undef V_GATHER

#define SS_V __m512i
#define SS_L 16
#define SS_M __mmask16
#define SS_KT int32_t
#define SS_KMAX INT32_MAX
#define V_MLOAD(src, m, p) _mm512_mask_loadu_epi32(src, m, p)
#define V_MSTORE(p, m, v) _mm512_mask_storeu_epi32(p, m, v)
#define V_COMPRESS(m, v) _mm512_maskz_compress_epi32(m, v)
#define V_MASK_MIN(src, m, a, b) _mm512_mask_min_epi32(src, m, a, b)
#define V_SET1(x) _mm512_set1_epi32(x)
#define V_MIN(a, b) _mm512_min_epi32(a, b)
#define V_MAX(a, b) _mm512_max_epi32(a, b)
#define V_CMPLE(a, b) _mm512_cmple_epi32_mask(a, b)
#define V_CMPGE(a, b) _mm512_cmpge_epi32_mask(a, b)
#define V_PERM(i, v) _mm512_permutexvar_epi32(i, v)
#define V_PERM2(a, i, b) _mm512_permutex2var_epi32(a, i, b)
#define V_BLEND(m, a, b) _mm512_mask_blend_epi32(m, a, b)
#define V_ADD(a, b) _mm512_add_epi32(a, b)
#define V_MASK_ADD(src, m, a, b) _mm512_mask_add_epi32(src, m, a, b)
#define V_TESTM(a, b) _mm512_test_epi32_mask(a, b)
#define V_GATHER(i, p) _mm512_i32gather_epi32(i, (const void *)(p), 4)

#define SS_IDX 0
#define SS_BASE 256
#define SS(name) name##_k32
#include "sort_simd.h"
#undef SS_IDX
#undef SS_BASE
#undef SS


/* The keys, made and undone by loops that vectorize for AVX-512 too (they
 * run only on the quicksort's path). */
/* Signed 64-bit keys in the values' order (-0.0 before 0.0). */
static inline int64_t qkey_f64(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    b ^= (0 - (b >> 63)) >> 1;  /* negative: flip all but the sign */
    return (int64_t)b;
}
static inline double qunkey_f64(int64_t k)
{
    uint64_t b = (uint64_t)k;
    b ^= (0 - (b >> 63)) >> 1;
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}
static inline int64_t qkey_f32(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    b ^= (0u - (b >> 31)) >> 1;
    return (int64_t)(int32_t)b;
}
static inline float qunkey_f32(int64_t k)
{
    uint32_t b = (uint32_t)k;
    b ^= (0u - (b >> 31)) >> 1;
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}
/* Narrow floats (sign and magnitude): signed 16-bit keys from the bits, in
 * the order of their float32 values' keys (-0.0 before 0.0); a bijection of
 * the bits, so the same function undoes it. */
static inline int32_t qkey_n16(uint16_t b)
{
    b ^= (uint16_t)(((0u - (uint32_t)(b >> 15)) & 0xffffu) >> 1);
    return (int16_t)b;
}
static inline uint16_t qunkey_n16(int64_t k)
{
    return (uint16_t)qkey_n16((uint16_t)k);
}
/* Keys of W bits: 64 for every dtype, 32 for those of 4 bytes or fewer. */
#define QKEY64_KB(T, v) ((int64_t)(v))
#define QKEY64_KI(T, v) ((int64_t)(v))
#define QKEY64_KU(T, v) ((int64_t)((uint64_t)(v) ^ (sizeof(T) == 8 ? KEY_SIGN : 0)))
#define QKEY64_KF(T, v) (sizeof(T) == 4 ? qkey_f32((float)(v)) : qkey_f64((double)(v)))
#define QUNKEY64_KB(T, k) ((T)(k))
#define QUNKEY64_KI(T, k) ((T)(k))
#define QUNKEY64_KU(T, k) ((T)((uint64_t)(k) ^ (sizeof(T) == 8 ? KEY_SIGN : 0)))
#define QUNKEY64_KF(T, k) (sizeof(T) == 4 ? (T)qunkey_f32(k) : (T)qunkey_f64(k))
#define QKEY64_KN(T, v) ((int64_t)qkey_n16((v).bits))
#define QUNKEY64_KN(T, k) ((T){qunkey_n16(k)})
#define QKEY32_KB(T, v) ((int32_t)(v))
#define QKEY32_KI(T, v) ((int32_t)(v))
#define QKEY32_KU(T, v) ((int32_t)((uint32_t)(v) ^ 0x80000000u))
#define QKEY32_KF(T, v) ((int32_t)qkey_f32((float)(v)))
#define QUNKEY32_KB(T, k) ((T)(k))
#define QUNKEY32_KI(T, k) ((T)(k))
#define QUNKEY32_KU(T, k) ((T)((uint32_t)(k) ^ 0x80000000u))
#define QUNKEY32_KF(T, k) ((T)qunkey_f32(k))
#define QKEY32_KN(T, v) qkey_n16((v).bits)
#define QUNKEY32_KN(T, k) ((T){qunkey_n16(k)})
/* The elements set aside to sort last: NaNs, and (64-bit keys, which may
 * carry a payload) the keys equal to the networks' padding. */
#define QLAST64_KB(v, k) 0
#define QLAST64_KI(v, k) ((k) == INT64_MAX)
#define QLAST64_KU(v, k) ((k) == INT64_MAX)
#define QLAST64_KF(v, k) ((v) != (v))
#define QLAST64_KN(v, k) NARROW_ISNAN(v)
#define QLAST32_KB(v, k) 0
#define QLAST32_KI(v, k) 0
#define QLAST32_KU(v, k) 0
#define QLAST32_KF(v, k) ((v) != (v))
#define QLAST32_KN(v, k) NARROW_ISNAN(v)

/* The real dtypes of 4 bytes or less also sort on 32-bit keys (values only;
 * argsort uses 64-bit keys): the table picks them by size (the 32-bit
 * functions of wider dtypes are stamped but never picked). */
#define Q32_FN(N, T, F) (sizeof(T) <= 4 ? F##32_##N : NULL)

typedef int64_t (*qencode64_fn)(const char *in, int64_t n, int64_t s, int64_t *k, int64_t *ix,
                                int64_t i0);
typedef void (*qdecode64_fn)(const int64_t *k, int64_t lo, int64_t hi, int64_t n, int64_t m,
                             char *out, int64_t os, int desc);
typedef int64_t (*qencode32_fn)(const char *in, int64_t n, int64_t s, int32_t *k, int64_t *ix,
                                int64_t i0);
typedef void (*qdecode32_fn)(const int32_t *k, int64_t lo, int64_t hi, int64_t n, int64_t m,
                             char *out, int64_t os, int desc);

/* qencode: keys of in[0, n) into k[0, m), the last elements' raw bytes into
 * k[m, n) (and their positions plus i0 into ix when given); returns m.
 * qdecode: elements [lo, hi) of the n sorted back into values: ascending, or
 * backwards after the n - m last ones. */
#define DEF_QKEYS(W, KT, N, T, K)                                                       \
    static int64_t qencode##W##_##N(const char *in, int64_t n, int64_t s, KT *k, int64_t *ix, \
                                    int64_t i0)                                         \
    {                                                                                   \
        /* first a pass that vectorizes, right when nothing is set aside */             \
        int64_t nlast = 0;                                                              \
        if (s == sizeof(T) && !ix)                                                      \
            for (int64_t i = 0; i < n; i++) {                                           \
                T v = ld_##N(in + i * (int64_t)sizeof(T));                              \
                KT key = QKEY##W##_##K(T, v);                                           \
                nlast += QLAST##W##_##K(v, key);                                        \
                k[i] = key;                                                             \
            }                                                                           \
        else                                                                            \
            for (int64_t i = 0; i < n; i++) {                                           \
                T v = ld_##N(in + i * s);                                               \
                KT key = QKEY##W##_##K(T, v);                                           \
                nlast += QLAST##W##_##K(v, key);                                        \
                k[i] = key;                                                             \
                if (ix)                                                                 \
                    ix[i] = i0 + i;                                                     \
            }                                                                           \
        if (!nlast)                                                                     \
            return n;                                                                   \
        int64_t h = 0, t = n;                                                           \
        for (int64_t i = 0; i < n; i++) {                                               \
            T v = ld_##N(in + i * s);                                                   \
            KT key = QKEY##W##_##K(T, v);                                               \
            if (QLAST##W##_##K(v, key)) {                                               \
                t--;                                                                    \
                k[t] = 0;                                                               \
                memcpy(&k[t], &v, sizeof v);                                            \
                if (ix)                                                                 \
                    ix[t] = i0 + i;                                                     \
            } else {                                                                    \
                k[h] = key;                                                             \
                if (ix)                                                                 \
                    ix[h] = i0 + i;                                                     \
                h++;                                                                    \
            }                                                                           \
        }                                                                               \
        return h;                                                                       \
    }                                                                                   \
    static void qdecode##W##_##N(const KT *k, int64_t lo, int64_t hi, int64_t n, int64_t m, \
                                 char *out, int64_t os, int desc)                       \
    {                                                                                   \
        int64_t e = hi < m ? hi : m;                                                    \
        if (!desc && os == sizeof(T))                                                   \
            for (int64_t i = lo; i < e; i++)                                            \
                st_##N(out + i * (int64_t)sizeof(T), QUNKEY##W##_##K(T, k[i]));         \
        else                                                                            \
            for (int64_t i = lo; i < e; i++)                                            \
                st_##N(out + (desc ? n - 1 - i : i) * os, QUNKEY##W##_##K(T, k[i]));    \
        for (int64_t j = lo > m ? lo : m; j < hi; j++) {                                \
            char *o = out + (desc ? j - m : j) * os;                                    \
            if (o != (const char *)&k[j]) /* in place */                                \
                memcpy(o, &k[j], sizeof(T));                                            \
        }                                                                               \
    }
#define DEF_QKEYS64(N, T, K) DEF_QKEYS(64, int64_t, N, T, K)
#define DEF_QKEYS32(N, T, K) DEF_QKEYS(32, int32_t, N, T, K)
ARS_REAL_DTYPES(DEF_QKEYS64)
ARS_REAL_DTYPES(DEF_QKEYS32)
ARS_NARROW_DTYPES(DEF_QKEYS64)
ARS_NARROW_DTYPES(DEF_QKEYS32)

#define ENT_QENC64(N, T, K) [ARS_##N] = qencode64_##N,
#define ENT_QDEC64(N, T, K) [ARS_##N] = qdecode64_##N,
#define ENT_QENC32(N, T, K) [ARS_##N] = Q32_FN(N, T, qencode),
#define ENT_QDEC32(N, T, K) [ARS_##N] = Q32_FN(N, T, qdecode),
static const qencode64_fn qencode64_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_QENC64)
    ARS_NARROW_DTYPES(ENT_QENC64)};
static const qdecode64_fn qdecode64_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_QDEC64)
    ARS_NARROW_DTYPES(ENT_QDEC64)};
static const qencode32_fn qencode32_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_QENC32)
    ARS_NARROW_DTYPES(ENT_QENC32)};
static const qdecode32_fn qdecode32_table[ARS_NDTYPES] = {ARS_REAL_DTYPES(ENT_QDEC32)
    ARS_NARROW_DTYPES(ENT_QDEC32)};

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

/* the AVX-512 level (platform.h; ARRSTRIDE_CPU may force a lower one) has F and POPCNT */
static int have_avx512(void)
{
    return ars_cpu_level() >= ARS_LEVEL_AVX512;
}
#else
#define ARS_SORT_SIMD 0
#endif

#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#endif
