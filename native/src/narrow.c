/* Block conversions of the narrow floats to and from float32, for their
 * elementwise loops (ew_narrow.h). One portable pair per row of
 * ARS_NARROW_DTYPES, from the row's own conversions (T_to_float,
 * T_from_float); where the CPU has them, hardware conversions replace a pair
 * at load time (narrow_pick): F16C for float16 both ways (16 lanes with
 * AVX-512, else 8 with AVX2), AVX512-BF16 for
 * float32 -> bfloat16. The hardware ones give the table's result for every
 * input: where the instruction differs (F16C quiets a signaling NaN, both
 * ways; AVX512-BF16 flushes float32 subnormals to zero) the block's lanes
 * are redone by the table's conversion, a branch taken only for blocks that
 * hold such values. A new narrow dtype gets the portable pair from its row. */
#include <stdlib.h>
#include <string.h>
#include "platform.h"
#include "ew_narrow.h"
#ifdef ARS_X86_64
#include <cpuid.h>
#include <immintrin.h>
#endif

/* ---- portable: from the table's conversions ------------------------------------ */

/* A copy per SIMD level L (platform.h); narrow_pick takes the active level's. */
#define PORTABLE_CONV(N, T, K, L)                                                \
    ARS_TARGET_##L static void load_##N##_l##L(float *d, const char *s, int64_t st, int64_t n) \
    {                                                                            \
        if (st == (int64_t)sizeof(T)) {                                          \
            const T *p = (const T *)s;                                           \
            for (int64_t i = 0; i < n; i++)                                      \
                d[i] = T##_to_float(p[i]);                                       \
            return;                                                              \
        }                                                                        \
        for (int64_t i = 0; i < n; i++) {                                        \
            T v;                                                                 \
            memcpy(&v, s + i * st, sizeof v);                                    \
            d[i] = T##_to_float(v);                                              \
        }                                                                        \
    }                                                                            \
    ARS_TARGET_##L static void store_##N##_l##L(char *d, int64_t st, const float *s, int64_t n) \
    {                                                                            \
        if (st == (int64_t)sizeof(T)) {                                          \
            T *p = (T *)d;                                                       \
            for (int64_t i = 0; i < n; i++)                                      \
                p[i] = T##_from_float(s[i]);                                     \
            return;                                                              \
        }                                                                        \
        for (int64_t i = 0; i < n; i++) {                                        \
            T v = T##_from_float(s[i]);                                          \
            memcpy(d + i * st, &v, sizeof v);                                    \
        }                                                                        \
    }
#ifdef ARS_X86_64
#define PORTABLE_CONVS(N, T, K) \
    PORTABLE_CONV(N, T, K, 0) PORTABLE_CONV(N, T, K, 1) PORTABLE_CONV(N, T, K, 2) \
    static const ars_narrow_load_fn portable_load_##N[ARS_NLEVELS] = {load_##N##_l0, load_##N##_l1, load_##N##_l2}; \
    static const ars_narrow_store_fn portable_store_##N[ARS_NLEVELS] = {store_##N##_l0, store_##N##_l1, store_##N##_l2};
#else
#define PORTABLE_CONVS(N, T, K) PORTABLE_CONV(N, T, K, 0)
#endif
#define CONV_PTRS(N, T, K)                                                       \
    PORTABLE_CONVS(N, T, K)                                                      \
    ars_narrow_load_fn ars_load_##N = load_##N##_l0;                             \
    ars_narrow_store_fn ars_store_##N = store_##N##_l0;
ARS_NARROW_DTYPES(CONV_PTRS)

/* The hardware conversions exist on x86-64 only; elsewhere the portable
 * pairs above stay. */
#ifdef ARS_X86_64

/* ---- float16: F16C ---------------------------------------------------------------- */

#define F16C_TARGET __attribute__((target("avx2,f16c")))

/* Strided: gathered into contiguous blocks first, then converted. */
#define GATHERED_LOAD(NAME, T, LOAD)                                             \
    static void NAME(float *d, const char *s, int64_t st, int64_t n)             \
    {                                                                            \
        T tmp[EW_NARROW];                                                        \
        for (int64_t i = 0; i < n; i += EW_NARROW) {                             \
            int64_t m = n - i < EW_NARROW ? n - i : EW_NARROW;                   \
            for (int64_t j = 0; j < m; j++)                                      \
                memcpy(&tmp[j], s + (i + j) * st, sizeof(T));                    \
            LOAD(d + i, (const char *)tmp, sizeof(T), m);                        \
        }                                                                        \
    }
#define SCATTERED_STORE(NAME, T, STORE)                                          \
    static void NAME(char *d, int64_t st, const float *s, int64_t n)             \
    {                                                                            \
        T tmp[EW_NARROW];                                                        \
        for (int64_t i = 0; i < n; i += EW_NARROW) {                             \
            int64_t m = n - i < EW_NARROW ? n - i : EW_NARROW;                   \
            STORE((char *)tmp, sizeof(T), s + i, m);                             \
            for (int64_t j = 0; j < m; j++)                                      \
                memcpy(d + (i + j) * st, &tmp[j], sizeof(T));                    \
        }                                                                        \
    }
/* The F16C loops at one vector width: W lanes of VF (floats) and VH (halves),
 * with that width's intrinsics. A lane that converts to NaN is redone by the
 * table's conversion (see the top). */
#define F16_LOOPS(TARGET, W, LOAD, STORE, VF, VH, LOAD_H, STORE_H, LOAD_F, STORE_F, CVTPH, CVTPS, NANS) \
    TARGET static void LOAD(float *d, const char *s, int64_t st, int64_t n);     \
    GATHERED_LOAD(LOAD##_gathered, ars_f16, LOAD)                                \
    TARGET static void LOAD(float *d, const char *s, int64_t st, int64_t n)      \
    {                                                                            \
        if (st != 2) {                                                           \
            LOAD##_gathered(d, s, st, n);                                        \
            return;                                                              \
        }                                                                        \
        const ars_f16 *p = (const ars_f16 *)s;                                   \
        int64_t i = 0;                                                           \
        for (; i + W <= n; i += W) {                                             \
            VF f = CVTPH(LOAD_H((const VH *)(p + i)));                           \
            STORE_F(d + i, f);                                                   \
            for (unsigned nan = NANS(f); nan; nan &= nan - 1) {                  \
                int j = __builtin_ctz(nan);  /* a signaling NaN stays signaling */ \
                d[i + j] = ars_h2f(p[i + j]);                                    \
            }                                                                    \
        }                                                                        \
        for (; i < n; i++)                                                       \
            d[i] = ars_h2f(p[i]);                                                \
    }                                                                            \
    TARGET static void STORE(char *d, int64_t st, const float *s, int64_t n);    \
    SCATTERED_STORE(STORE##_scattered, ars_f16, STORE)                           \
    TARGET static void STORE(char *d, int64_t st, const float *s, int64_t n)     \
    {                                                                            \
        if (st != 2) {                                                           \
            STORE##_scattered(d, st, s, n);                                      \
            return;                                                              \
        }                                                                        \
        ars_f16 *p = (ars_f16 *)d;                                               \
        int64_t i = 0;                                                           \
        for (; i + W <= n; i += W) {                                             \
            VF f = LOAD_F(s + i);                                                \
            STORE_H((VH *)(p + i), CVTPS(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)); \
            for (unsigned nan = NANS(f); nan; nan &= nan - 1) {                  \
                int j = __builtin_ctz(nan);  /* NaN payloads as the table keeps them */ \
                p[i + j] = ars_f2h(s[i + j]);                                    \
            }                                                                    \
        }                                                                        \
        for (; i < n; i++)                                                       \
            p[i] = ars_f2h(s[i]);                                                \
    }

/* the lanes of f that hold NaN, as bits */
F16C_TARGET static inline unsigned nan_lanes8(__m256 f) {
    return (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(f, f, _CMP_UNORD_Q));
}
F16_LOOPS(F16C_TARGET, 8, load_f16_f16c, store_f16_f16c, __m256, __m128i, _mm_loadu_si128,
          _mm_storeu_si128, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_cvtph_ps, _mm256_cvtps_ph,
          nan_lanes8)

/* The same 16 lanes at a time, where the CPU has AVX-512 (1e6 elements
 * there and back: 0.10 ms against AVX2's 0.15). */
#define AVX512_TARGET __attribute__((target("avx512f")))
AVX512_TARGET static inline unsigned nan_lanes16(__m512 f) {
    return _mm512_cmp_ps_mask(f, f, _CMP_UNORD_Q);
}
F16_LOOPS(AVX512_TARGET, 16, load_f16_avx512, store_f16_avx512, __m512, __m256i, _mm256_loadu_si256,
          _mm256_storeu_si256, _mm512_loadu_ps, _mm512_storeu_ps, _mm512_cvtph_ps, _mm512_cvtps_ph,
          nan_lanes16)

/* ---- bfloat16: AVX512-BF16 (its 256-bit form, AVX512VL) ---------------------------- */

__attribute__((target("avx512f,avx512vl,avx512bf16")))
static void store_bf16_avx512(char *d, int64_t st, const float *s, int64_t n);
SCATTERED_STORE(store_bf16_scattered, ars_bf16, store_bf16_avx512)

__attribute__((target("avx512f,avx512vl,avx512bf16")))
static void store_bf16_avx512(char *d, int64_t st, const float *s, int64_t n)
{
    if (st != 2) {
        store_bf16_scattered(d, st, s, n);
        return;
    }
    ars_bf16 *p = (ars_bf16 *)d;
    const __m256 tiny = _mm256_set1_ps(0x1p-126f), zero = _mm256_setzero_ps();
    const __m256 abs = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 f = _mm256_loadu_ps(s + i);
        __m128bh h = _mm256_cvtneps_pbh(f);
        _mm_storeu_si128((__m128i *)(p + i), (__m128i)h);
        /* 0 < |f| < 2**-126: the instruction gives +-0, the table rounds */
        __mmask8 sub = _mm256_cmp_ps_mask(_mm256_and_ps(f, abs), tiny, _CMP_LT_OQ)
                       & _mm256_cmp_ps_mask(f, zero, _CMP_NEQ_OQ);
        for (unsigned m = sub; m; m &= m - 1) {
            int j = __builtin_ctz(m);
            p[i + j] = ars_bf16_from_float(s[i + j]);
        }
    }
    for (; i < n; i++)
        p[i] = ars_bf16_from_float(s[i]);
}

/* ---- the pick, once at load ----------------------------------------------------- */

/* F16C and AVX512-BF16 from CPUID itself (clang's __builtin_cpu_supports
 * knows neither name); the level (ars_cpu_level) stands for AVX2 / AVX-512,
 * the OS saving their registers included. */
static int cpu_has_f16c(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29));
}
static int cpu_has_avx512bf16(void)
{
    unsigned a, b, c, d;
    return __get_cpuid_count(7, 1, &a, &b, &c, &d) && (a & (1u << 5));
}

/* The active SIMD level's pairs (ars_cpu_level: at the baseline, the
 * portable ones). ARRSTRIDE_NARROW_HW=0 in the environment keeps the portable
 * pairs, =avx2 takes nothing beyond AVX2 and F16C (the tests compare them
 * all). */
__attribute__((constructor)) static void narrow_pick(void)
{
    int level = ars_cpu_level();
#define PICK_PORTABLE(N, T, K) ars_load_##N = portable_load_##N[level], ars_store_##N = portable_store_##N[level];
    ARS_NARROW_DTYPES(PICK_PORTABLE)
    const char *hw = getenv("ARRSTRIDE_NARROW_HW");
    if (hw != NULL && strcmp(hw, "0") == 0)
        return;
    if (hw != NULL && strcmp(hw, "avx2") == 0 && level > ARS_LEVEL_AVX2)
        level = ARS_LEVEL_AVX2;
    /* the levels imply AVX2 with F16C (x86-64-v3) and AVX-512 F and VL (-v4) */
    if (level >= ARS_LEVEL_AVX512) {
        ars_load_FLOAT16 = load_f16_avx512;
        ars_store_FLOAT16 = store_f16_avx512;
    } else if (level >= ARS_LEVEL_AVX2 && cpu_has_f16c()) {
        ars_load_FLOAT16 = load_f16_f16c;
        ars_store_FLOAT16 = store_f16_f16c;
    }
    if (level >= ARS_LEVEL_AVX512 && cpu_has_avx512bf16())
        ars_store_BFLOAT16 = store_bf16_avx512;
}

#endif
