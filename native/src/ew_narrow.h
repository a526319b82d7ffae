/* Elementwise loops of the narrow floats (ARS_NARROW_DTYPES: float16,
 * bfloat16), generated from the table's rows: each loop converts a block of
 * narrow inputs to float32 on the stack, runs the float32 kernel of the same
 * op on it (the very kernel the float32 loop runs: ew_ops.h's G_F rows), and
 * rounds the block into the narrow output once. One pass, no temporaries,
 * and bit for bit the result of widening to float32, computing and rounding
 * (NumPy's float16 rule, PyTorch's bfloat16 one).
 *
 * The block conversions (narrow.c) are the table's portable ones, replaced at
 * load time by hardware ones where the CPU has them (F16C for float16,
 * AVX512-BF16 for rounding to bfloat16), with the table's results in every
 * case (NaN payloads, subnormals, overflow). Included by ew_loops.h; the
 * loops are stamped in the sources that hold the float32 kernels they call
 * (ew_unary.c, ew_binary_float.c). Internal header. */
#ifndef ARS_EW_NARROW_H
#define ARS_EW_NARROW_H

#include "ars_internal.h"
#include "platform.h"

/* n narrow elements from src (byte stride) into dst as floats, and back:
 * ars_load_<NAME>, ars_store_<NAME> per row of ARS_NARROW_DTYPES. */
typedef void (*ars_narrow_load_fn)(float *dst, const char *src, int64_t stride, int64_t n);
typedef void (*ars_narrow_store_fn)(char *dst, int64_t stride, const float *src, int64_t n);
#define EW_NARROW_CONV_DECL(N, T, K)                                         \
    extern ars_narrow_load_fn ars_load_##N ARS_HIDDEN;                      \
    extern ars_narrow_store_fn ars_store_##N ARS_HIDDEN;
ARS_NARROW_DTYPES(EW_NARROW_CONV_DECL)

/* Elements per block: a multiple of EW_BLOCK (so that the costly kernels see
 * whole blocks, as in the float32 loop), 2 KiB of floats per operand. */
enum { EW_NARROW = 512 };

/* Which rows of ew_ops.h's lists have narrow loops: the real-float rows
 * (G_F), whose float32 kernel each narrow loop runs. G_FW rows (nextafter:
 * a step of the narrow dtype, not of float32) have none. */
#define EW_NARROW_G_B(...)
#define EW_NARROW_G_I(...)
#define EW_NARROW_G_U(...)
#define EW_NARROW_G_F(Y, A, B, C) ARS_NARROW_DTYPES2(Y, A, B, C)
#define EW_NARROW_G_FW(...)
#define EW_NARROW_G_C(...)

/* The float32 kernel a narrow loop of the given cost calls (ew_loops.h):
 * cheap ops run FN_c on any length, costly ones FN_v (whole blocks, the
 * remainder padded); for a scalar second or first operand FN_s2 / FN_s1. */
#define EW_NSUF_1 _c
#define EW_NSUF_2 _c
#define EW_NSUF_4 _v
#define EW_NSUF_8 _v
#define EW_NSUF_16 _v
#define EW_NSUF_S2_1 _s2
#define EW_NSUF_S2_2 _s2
#define EW_NSUF_S2_4 _s2_v
#define EW_NSUF_S2_8 _s2_v
#define EW_NSUF_S2_16 _s2_v
#define EW_NSUF_S1_1 _s1
#define EW_NSUF_S1_2 _s1
#define EW_NSUF_S1_4 _s1_v
#define EW_NSUF_S1_8 _s1_v
#define EW_NSUF_S1_16 _s1_v
#define EW_NPASTE_(A, B) A##B
#define EW_NPASTE(A, B) EW_NPASTE_(A, B)
#define EW_NKERNEL(FN, COST) EW_NPASTE(FN, EW_NSUF_##COST)
#define EW_NKERNEL_S2(FN, COST) EW_NPASTE(FN, EW_NSUF_S2_##COST)
#define EW_NKERNEL_S1(FN, COST) EW_NPASTE(FN, EW_NSUF_S1_##COST)

/* The float32 kernel's output block and how it reaches the output: SAME
 * rounds it to the narrow dtype, BOOL copies the bytes. */
#define EW_NOT_SAME float
#define EW_NOT_BOOL uint8_t
#define EW_NSTORE_SAME(N, p, st, ob, m) ars_store_##N(p, st, ob, m)
#define EW_NSTORE_BOOL(N, p, st, ob, m) ew_narrow_store_bool(p, st, ob, m)
static inline void ew_narrow_store_bool(char *p, int64_t st, const uint8_t *ob, int64_t m)
{
    if (st == 1) {
        memcpy(p, ob, (size_t)m);
        return;
    }
    for (int64_t j = 0; j < m; j++)
        p[j * st] = (char)ob[j];
}

/* u_<OP>_<NAME>: the unary loop of a narrow dtype, over FN (a float32
 * unary kernel: u_<OP>_FLOAT32 or p_<EXP>_FLOAT32). */
#define EW_NARROW_UNARY(LOOP, FN, OUT, COST, N)                               \
    void ARS_LV(LOOP)(char **data, int64_t n, const int64_t *s, void *ctx)   \
    {                                                                        \
        (void)ctx;                                                           \
        _Alignas(64) float ib[EW_NARROW];                                    \
        _Alignas(64) EW_NOT_##OUT ob[EW_NARROW];                             \
        ars_narrow_load_fn load = ars_load_##N;                              \
        for (int64_t i = 0; i < n; i += EW_NARROW) {                         \
            int64_t m = n - i < EW_NARROW ? n - i : EW_NARROW;               \
            load(ib, data[1] + i * s[1], s[1], m);                           \
            EW_NKERNEL(FN, COST)(ob, ib, m);                                 \
            EW_NSTORE_##OUT(N, data[0] + i * s[0], s[0], ob, m);             \
        }                                                                    \
    }

/* b_<OP>_<NAME>: the binary loop; an operand of stride 0 (a scalar) is
 * converted once and goes to the float32 kernel's scalar form. */
#define EW_NARROW_BINARY(LOOP, FN, OUT, COST, N)                              \
    void ARS_LV(LOOP)(char **data, int64_t n, const int64_t *s, void *ctx)   \
    {                                                                        \
        (void)ctx;                                                           \
        _Alignas(64) float ia[EW_NARROW], ibb[EW_NARROW];                    \
        _Alignas(64) EW_NOT_##OUT ob[EW_NARROW];                             \
        ars_narrow_load_fn load = ars_load_##N;                              \
        float c;                                                             \
        int form = s[2] == 0 && s[1] != 0 ? 2 : s[1] == 0 && s[2] != 0 ? 1 : 0; \
        if (form == 2 && n > 0)                                              \
            load(&c, data[2], 0, 1);                                         \
        if (form == 1 && n > 0)                                              \
            load(&c, data[1], 0, 1);                                         \
        for (int64_t i = 0; i < n; i += EW_NARROW) {                         \
            int64_t m = n - i < EW_NARROW ? n - i : EW_NARROW;               \
            if (form == 2) {                                                 \
                load(ia, data[1] + i * s[1], s[1], m);                       \
                EW_NKERNEL_S2(FN, COST)(ob, ia, c, m);                       \
            } else if (form == 1) {                                          \
                load(ibb, data[2] + i * s[2], s[2], m);                      \
                EW_NKERNEL_S1(FN, COST)(ob, c, ibb, m);                      \
            } else {                                                         \
                load(ia, data[1] + i * s[1], s[1], m);                       \
                load(ibb, data[2] + i * s[2], s[2], m);                      \
                EW_NKERNEL(FN, COST)(ob, ia, ibb, m);                        \
            }                                                                \
            EW_NSTORE_##OUT(N, data[0] + i * s[0], s[0], ob, m);             \
        }                                                                    \
    }

/* Stamps, for ew_unary.c / ew_binary_float.c, after the float32 loops:
 *     UNARY_LIST(UN_GROUP) POW_FAST_LIST(PN_GROUP) / BINARY_LIST(BN_GROUP) */
#define UN_STAMP(OP, OUT, COST, N, T, K) \
    EW_NARROW_UNARY(u_##OP##_##N, u_##OP##_FLOAT32, OUT, COST, N)
#define UN_GROUP(OP, G, OUT, S, COST) EW_NARROW_##G(UN_STAMP, OP, OUT, COST)
#define BN_STAMP(OP, OUT, COST, N, T, K) \
    EW_NARROW_BINARY(b_##OP##_##N, b_##OP##_FLOAT32, OUT, COST, N)
#define BN_GROUP(OP, G, OUT, S, COST) EW_NARROW_##G(BN_STAMP, OP, OUT, COST)
#define PN_STAMP(EXP, _u, COST, N, T, K) \
    EW_NARROW_UNARY(p_##EXP##_##N, p_##EXP##_FLOAT32, SAME, COST, N)
#define PN_GROUP(EXP, G, S, COST) EW_NARROW_##G(PN_STAMP, EXP, 0, COST)

/* Declarations (for elementwise.c's tables) and table entries (of level
 * EW_L, defined where the table is). */
#define UN_DECL(OP, OUT, COST, N, T, K) EW_LOOP_DECL(u_##OP##_##N)
#define UN_DECLS(OP, G, OUT, S, COST) EW_NARROW_##G(UN_DECL, OP, OUT, COST)
#define BN_DECL(OP, OUT, COST, N, T, K) EW_LOOP_DECL(b_##OP##_##N)
#define BN_DECLS(OP, G, OUT, S, COST) EW_NARROW_##G(BN_DECL, OP, OUT, COST)
#define PN_DECL(EXP, _u, COST, N, T, K) EW_LOOP_DECL(p_##EXP##_##N)
#define PN_DECLS(EXP, G, S, COST) EW_NARROW_##G(PN_DECL, EXP, 0, COST)
#define UN_ENTRY(OP, OUT, COST, N, T, K) \
    [ARS_OP_##OP][ARS_##N] = {ARS_LVN(u_##OP##_##N, EW_L), OD_##OUT(N, float), COST},
#define UN_ENTRIES(OP, G, OUT, S, COST) EW_NARROW_##G(UN_ENTRY, OP, OUT, COST)
#define BN_ENTRY(OP, OUT, COST, N, T, K) \
    [ARS_OP_##OP][ARS_##N] = {ARS_LVN(b_##OP##_##N, EW_L), OD_##OUT(N, float), COST},
#define BN_ENTRIES(OP, G, OUT, S, COST) EW_NARROW_##G(BN_ENTRY, OP, OUT, COST)
#define PN_ENTRY(EXP, _u, COST, N, T, K) [PX_##EXP][ARS_##N] = {ARS_LVN(p_##EXP##_##N, EW_L), ARS_##N, COST},
#define PN_ENTRIES(EXP, G, S, COST) EW_NARROW_##G(PN_ENTRY, EXP, 0, COST)

#endif
