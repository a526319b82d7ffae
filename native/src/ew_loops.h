/* The elementwise loops, shared by the sources that stamp them: ew_unary.c
 * (unary ops and the fast forms of pow), ew_binary_int.c and ew_binary_float.c
 * (binary ops on bool/integer and on floating/complex dtypes), and
 * elementwise.c (dispatch tables, entry points, where, clip, isin). The
 * operations themselves are defined once, in ew_ops.h; this header holds the
 * loop shapes they are stamped into, and declares every stamped loop (from the
 * same lists), so that the tables in elementwise.c can name loops compiled in
 * the other sources. The split lets a parallel build compile the loops (the
 * bulk of the build: every op and dtype, cloned per instruction set) on
 * several cores at once. Internal header. */
#ifndef ARS_EW_LOOPS_H
#define ARS_EW_LOOPS_H

#include <stdlib.h>
#include <string.h>
#include "platform.h"
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
 * at least STREAM_MIN_BYTES. Only the cheap ops stream (the loops' STREAM
 * argument): a costly op (exp, sin, atan2...) is bound by its arithmetic, and
 * streamed it alternates computing a chunk with writing it out, where plain
 * stores overlap the two. On a Zen 5 core, 1e7 elements, one thread: float32
 * exp 3.41 ms streamed against 2.55 plain, tanh 4.56 against 3.77, float64
 * atan 9.44 against 7.67; no costly op ran faster streamed, with one thread
 * or two. */
enum { STREAM_MIN_BYTES = 1 << 16, CHUNK_BYTES = 8192 };

/* Elements to compute normally before dst reaches 16-byte alignment. */
static inline int64_t head_elems(const char *dst, int64_t itemsize)
{
    int64_t mis = (int64_t)((uintptr_t)dst & 15);
    if (mis == 0)
        return 0;
    if ((16 - mis) % itemsize)
        return -1;  /* never aligns: do not stream */
    return (16 - mis) / itemsize;
}

/* ---- loops ------------------------------------------------------------------- */

/* The sources that stamp the loops are compiled once per SIMD level
 * (platform.h), so that the contiguous paths vectorize wide where the CPU
 * allows; elementwise.c's tables hold every level's loops and run the
 * active level's.
 *
 * Ops by cost (the last column of ew_ops.h's lists): cheap ones (1, 2) are
 * memory-bound and keep 256-bit vectors at the AVX-512 level: short 512-bit
 * bursts between Python calls pay for frequency-licence switches (x ** 2 on
 * 2e4 float64 went from 3.4 to 4.6 us with 512-bit vectors). Costly ones (4,
 * 8, 16: exp, log, the trigonometric functions) take 512-bit vectors there,
 * in which arrstride's vector math (vmath.h) runs 8 double lanes. Every
 * level runs the same C without FMA contraction, so they all give the same
 * bits. */
#if ARS_LEVEL == 2
#define EW_CLONES ARS_GCC_ATTR(target("prefer-vector-width=256"))
#else
#define EW_CLONES
#endif
#define EW_CLONES_WIDE
#define EW_CLONES_1 EW_CLONES
#define EW_CLONES_2 EW_CLONES
#define EW_CLONES_4 EW_CLONES_WIDE
#define EW_CLONES_8 EW_CLONES_WIDE
#define EW_CLONES_16 EW_CLONES_WIDE

/* One shape for both kinds of loop, FN_l<level> (its kernels are static). CALL names the contiguous kernel that the
 * contiguous path runs (FN##_c itself, or FN##_v: see below), STRIDED the
 * strided path (STRIDED_SCALAR: one element at a time; STRIDED_BLOCKS:
 * gathered into blocks and run through FN##_v), and STREAM (1 or 0) whether
 * a large contiguous output is written with streaming stores. */
#define UNARY_LOOP_(FN, T, OT, EXPR, CLONES, CALL, STRIDED, STREAM)           \
    void ARS_LV(FN)(char **data, int64_t n, const int64_t *s, void *ctx)     \
    {                                                                        \
        char *o = data[0];                                                   \
        const char *a = data[1];                                             \
        if (s[0] == sizeof(OT) && s[1] == sizeof(T)) {                       \
            int64_t h = head_elems(o, sizeof(OT));                           \
            if (!(STREAM) || !ctx || n * (int64_t)sizeof(OT) < STREAM_MIN_BYTES || h < 0) { \
                FN##CALL((OT *)o, (const T *)a, n);                          \
                return;                                                      \
            }                                                                \
            _Alignas(64) char tmp[CHUNK_BYTES];                              \
            const int64_t c = CHUNK_BYTES / (int64_t)sizeof(OT);             \
            FN##CALL((OT *)o, (const T *)a, h);                              \
            for (int64_t i = h; i < n; i += c) {                             \
                int64_t m = n - i < c ? n - i : c;                           \
                FN##CALL((OT *)tmp, (const T *)a + i, m);                    \
                ars_stream_copy((char *)((OT *)o + i), tmp, m * (int64_t)sizeof(OT)); \
            }                                                                \
            ars_stream_fence();                                              \
            return;                                                          \
        }                                                                    \
        STRIDED##_U(FN, T, OT, EXPR)                                         \
    }
#define STRIDED_SCALAR_U(FN, T, OT, EXPR)                                    \
        for (int64_t i = 0; i < n; i++) {                                    \
            T x = *(const T *)(a + i * s[1]);                                \
            *(OT *)(o + i * s[0]) = (OT)(EXPR);                              \
        }
#define STRIDED_BLOCKS_U(FN, T, OT, EXPR)                                    \
        T ib[EW_GATHER];                                                     \
        OT ob[EW_GATHER];                                                    \
        for (int64_t i = 0; i < n; i += EW_GATHER) {                         \
            int64_t m = n - i < EW_GATHER ? n - i : EW_GATHER;               \
            for (int64_t j = 0; j < m; j++)                                  \
                ib[j] = *(const T *)(a + (i + j) * s[1]);                    \
            FN##_v(ob, ib, m);                                               \
            for (int64_t j = 0; j < m; j++)                                  \
                *(OT *)(o + (i + j) * s[0]) = ob[j];                         \
        }

/* A second pass reads the operands after the core wrote o: a kernel
 * whose output overlaps an operand (x **= y) runs EW_BLOCKWISE_'s STEPS on
 * blocks of EW_GATHER elements (i_, m_) through a buffer t_ of type TB
 * instead, and returns. */
static inline int ew_overlaps_(const void *o, int64_t on, const void *a, int64_t an)
{
    uintptr_t uo = (uintptr_t)o, ua = (uintptr_t)a;
    return uo < ua + (uintptr_t)an && ua < uo + (uintptr_t)on;
}
#define EW_BLOCKWISE_(TB, ...)                                               \
    {                                                                        \
        TB t_[EW_GATHER];                                                    \
        for (int64_t i_ = 0; i_ < n; i_ += EW_GATHER) {                      \
            int64_t m_ = n - i_ < EW_GATHER ? n - i_ : EW_GATHER;            \
            __VA_ARGS__;                                                     \
        }                                                                    \
        return;                                                              \
    }

/* A loop FN with a checked core (EW_CHECK_<FN> defined as "~, 1, OK, FULL"
 * in ew_ops.h: exp, log, sin, ...) notes in the vectorized loop whether any
 * x fails OK(x), and only then redoes those elements by FULL(x), one at a
 * time; an input under the output is copied a block at a time first. The
 * flag has the lanes' width (EW_FLAG_<T>). */
#define EW_CHECKED_(FN) EW_WHEN_(EW_PROBE_(EW_CHECK_##FN))
#define EW_CHECK_OK_(FN) EW_CHECK_3_(EW_CHECK_##FN)
#define EW_CHECK_FULL_(FN) EW_CHECK_4_(EW_CHECK_##FN)
#define EW_CHECK_3_(...) EW_CHECK_ARG3_(__VA_ARGS__)
#define EW_CHECK_4_(...) EW_CHECK_ARG4_(__VA_ARGS__)
#define EW_CHECK_ARG3_(a, b, c, ...) c
#define EW_CHECK_ARG4_(a, b, c, d, ...) d
#define EW_FLAG_float uint32_t
#define EW_FLAG_double uint64_t
#define UNARY_KERNEL(FN, T, OT, EXPR, CLONES)                                \
    CLONES static void FN##_c(OT *o, const T *a, int64_t n)                  \
    {                                                                        \
        EW_CHECKED_(FN)(                                                     \
            if (ew_overlaps_(o, n * (int64_t)sizeof(OT), a, n * (int64_t)sizeof(T))) \
                EW_BLOCKWISE_(T, memcpy(t_, a + i_, (size_t)m_ * sizeof(T)); \
                                 FN##_c(o + i_, t_, m_))                     \
            EW_FLAG_##T ew_bad = 0;)                                         \
        for (int64_t i = 0; i < n; i++) {                                    \
            T x = a[i];                                                      \
            o[i] = (OT)(EXPR);                                               \
            EW_CHECKED_(FN)(ew_bad |= !(EW_CHECK_OK_(FN)(x));)               \
        }                                                                    \
        EW_CHECKED_(FN)(                                                     \
            if (ew_bad)                                                      \
                for (int64_t i = 0; i < n; i++) {                            \
                    T x = a[i];                                              \
                    if (!(EW_CHECK_OK_(FN)(x)))                              \
                        o[i] = (OT)EW_CHECK_FULL_(FN)(x);                    \
                })                                                           \
    }

/* The cheap ops: the kernel runs on any length, strided data one by one. */
#define UNARY_LOOP_CL(FN, T, OT, EXPR, CLONES)                               \
    UNARY_KERNEL(FN, T, OT, EXPR, CLONES)                                    \
    UNARY_LOOP_(FN, T, OT, EXPR, CLONES, _c, STRIDED_SCALAR, 1)

/* The costly ops (exp, log, the trigonometric functions, pow...): one result
 * per value whatever the array's length, layout or thread split. Their
 * functions are plain C (vmath.h, or the C library's scalar ones), so the
 * vectorized loop and its scalar remainder give the same bits; still, the
 * kernel only ever sees whole blocks of EW_BLOCK elements (a multiple of
 * every vector width), so that no compiler's choice of remainder loop can
 * matter: FN##_v runs the whole blocks in place and a remainder padded into
 * a block (with copies of its first element), and strided data is gathered
 * into blocks. tests/test_elementwise.py::test_vector_libm_* checks the
 * bits. */
enum { EW_BLOCK = 32, EW_GATHER = 256 };
/* NAME: KERNEL on the whole blocks of the n elements in place (ARGS_WHOLE,
 * m = n rounded down to a block), then on the remainder copied into one
 * block padded with copies of its first element (DECLS declares the operand
 * blocks, FILL sets their element j from element k of the operands,
 * ARGS_PADDED calls KERNEL on them into ob). */
#define PADDED(NAME, KERNEL, OT, PARAMS, ARGS_WHOLE, DECLS, FILL, ARGS_PADDED) \
    static void NAME PARAMS                                                  \
    {                                                                        \
        int64_t m = n & ~(int64_t)(EW_BLOCK - 1);                            \
        if (m)                                                               \
            KERNEL ARGS_WHOLE;                                               \
        if (n > m) {                                                         \
            DECLS                                                            \
            OT ob[EW_BLOCK];                                                 \
            for (int64_t j = 0; j < EW_BLOCK; j++) {                         \
                int64_t k = m + (j < n - m ? j : 0);                         \
                FILL                                                         \
            }                                                                \
            KERNEL ARGS_PADDED;                                              \
            memcpy(o + m, ob, (size_t)(n - m) * sizeof(OT));                 \
        }                                                                    \
    }
#define UNARY_PADDED(FN, T, OT)                                              \
    PADDED(FN##_v, FN##_c, OT, (OT *o, const T *a, int64_t n), (o, a, m),     \
           T ib[EW_BLOCK];, ib[j] = a[k];, (ob, ib, EW_BLOCK))
#define UNARY_LOOP_BLOCKS(FN, T, OT, EXPR, CLONES)                           \
    UNARY_KERNEL(FN, T, OT, EXPR, CLONES)                                    \
    UNARY_PADDED(FN, T, OT)                                                  \
    UNARY_LOOP_(FN, T, OT, EXPR, CLONES, _v, STRIDED_BLOCKS, 0)

/* A binary loop FN with a core and a second pass (EW_CORE_<FN> defined as
 * "~, 1"): its kernels call EW_CORE_CALL_<FN>(o, pa, sa, pb, sb, n) (sa,
 * sb: 1, or 0 for a scalar operand) instead of their loop of EXPR; it
 * computes a core without the special values on most elements and EXPR's
 * function on the rare ones: pow and atan2, whose special values cost more
 * as selects on every element (vmath.h's VM_BIN_RUN). */
#define EW_IF_(c) EW_IF__(c)
#define EW_IF__(c) EW_IF_##c
#define EW_IF_1(t, ...) t
#define EW_IF_0(t, ...) __VA_ARGS__
#define EW_BRUN_(FN, A, SA, B, SB, ...) \
    EW_IF_(EW_PROBE_(EW_CORE_##FN))(EW_CORE_CALL_##FN(o, A, SA, B, SB, n);, __VA_ARGS__)
#define EW_BALIAS_(FN, T, OT, OVERLAP, ...)                                  \
    EW_WHEN_(EW_PROBE_(EW_CORE_##FN))(                                       \
        if (OVERLAP)                                                         \
            EW_BLOCKWISE_(OT, __VA_ARGS__;                                   \
                          memcpy(o + i_, t_, (size_t)m_ * sizeof(OT))))
#define EW_OV_(P) ew_overlaps_(o, n * (int64_t)sizeof(*o), P, n * (int64_t)sizeof(*(P)))
#define BINARY_KERNELS(FN, T, OT, EXPR, CLONES)                              \
    CLONES static void FN##_c(OT *o, const T *pa, const T *pb, int64_t n)    \
    {                                                                        \
        EW_BALIAS_(FN, T, OT, EW_OV_(pa) || EW_OV_(pb),                      \
                   FN##_c(t_, pa + i_, pb + i_, m_))                         \
        EW_BRUN_(FN, pa, 1, pb, 1,                                           \
            for (int64_t i = 0; i < n; i++) {                                \
                T a = pa[i], b = pb[i];                                      \
                o[i] = (OT)(EXPR);                                           \
            })                                                               \
    }                                                                        \
    CLONES static void FN##_s2(OT *o, const T *pa, T b, int64_t n)           \
    {                                                                        \
        EW_BALIAS_(FN, T, OT, EW_OV_(pa), FN##_s2(t_, pa + i_, b, m_))       \
        EW_BRUN_(FN, pa, 1, &b, 0,                                           \
            for (int64_t i = 0; i < n; i++) {                                \
                T a = pa[i];                                                 \
                o[i] = (OT)(EXPR);                                           \
            })                                                               \
    }                                                                        \
    CLONES static void FN##_s1(OT *o, T a, const T *pb, int64_t n)           \
    {                                                                        \
        EW_BALIAS_(FN, T, OT, EW_OV_(pb), FN##_s1(t_, a, pb + i_, m_))       \
        EW_BRUN_(FN, &a, 0, pb, 1,                                           \
            for (int64_t i = 0; i < n; i++) {                                \
                T b = pb[i];                                                 \
                o[i] = (OT)(EXPR);                                           \
            })                                                               \
    }

#define BINARY_LOOP_(FN, T, OT, EXPR, CLONES, CALL, CALL_S2, CALL_S1, STRIDED, STREAM) \
    void ARS_LV(FN)(char **data, int64_t n, const int64_t *s, void *ctx)     \
    {                                                                        \
        char *o = data[0];                                                   \
        const char *x1 = data[1], *x2 = data[2];                             \
        if (s[0] == sizeof(OT)) {                                            \
            if (s[1] == sizeof(T) && s[2] == sizeof(T)) {                    \
                int64_t h = head_elems(o, sizeof(OT));                       \
                if (!(STREAM) || !ctx || n * (int64_t)sizeof(OT) < STREAM_MIN_BYTES || h < 0) { \
                    FN##CALL((OT *)o, (const T *)x1, (const T *)x2, n);      \
                    return;                                                  \
                }                                                            \
                _Alignas(64) char tmp[CHUNK_BYTES];                          \
                const int64_t c = CHUNK_BYTES / (int64_t)sizeof(OT);         \
                FN##CALL((OT *)o, (const T *)x1, (const T *)x2, h);          \
                for (int64_t i = h; i < n; i += c) {                         \
                    int64_t m = n - i < c ? n - i : c;                       \
                    FN##CALL((OT *)tmp, (const T *)x1 + i, (const T *)x2 + i, m); \
                    ars_stream_copy((char *)((OT *)o + i), tmp, m * (int64_t)sizeof(OT)); \
                }                                                            \
                ars_stream_fence();                                          \
                return;                                                      \
            }                                                                \
            if (s[1] == sizeof(T) && s[2] == 0) {                            \
                FN##CALL_S2((OT *)o, (const T *)x1, *(const T *)x2, n);      \
                return;                                                      \
            }                                                                \
            if (s[1] == 0 && s[2] == sizeof(T)) {                            \
                FN##CALL_S1((OT *)o, *(const T *)x1, (const T *)x2, n);      \
                return;                                                      \
            }                                                                \
        }                                                                    \
        STRIDED##_B(FN, T, OT, EXPR)                                         \
    }
#define STRIDED_SCALAR_B(FN, T, OT, EXPR)                                    \
        for (int64_t i = 0; i < n; i++) {                                    \
            T a = *(const T *)(x1 + i * s[1]);                               \
            T b = *(const T *)(x2 + i * s[2]);                               \
            *(OT *)(o + i * s[0]) = (OT)(EXPR);                              \
        }
#define STRIDED_BLOCKS_B(FN, T, OT, EXPR)                                    \
        T ia[EW_GATHER], ibb[EW_GATHER];                                     \
        OT ob[EW_GATHER];                                                    \
        for (int64_t i = 0; i < n; i += EW_GATHER) {                         \
            int64_t m = n - i < EW_GATHER ? n - i : EW_GATHER;               \
            for (int64_t j = 0; j < m; j++) {                                \
                ia[j] = *(const T *)(x1 + (i + j) * s[1]);                   \
                ibb[j] = *(const T *)(x2 + (i + j) * s[2]);                  \
            }                                                                \
            FN##_v(ob, ia, ibb, m);                                          \
            for (int64_t j = 0; j < m; j++)                                  \
                *(OT *)(o + (i + j) * s[0]) = ob[j];                         \
        }

/* The cheap binary ops: the kernels run on any length. */
#define BINARY_LOOP_CL(FN, T, OT, EXPR, CLONES)                              \
    BINARY_KERNELS(FN, T, OT, EXPR, CLONES)                                  \
    BINARY_LOOP_(FN, T, OT, EXPR, CLONES, _c, _s2, _s1, STRIDED_SCALAR, 1)

/* The costly binary ops (atan2, pow...): whole blocks only, as for the unary
 * ones above; a scalar operand keeps its vector form (FN##_s1/_s2). */
#define BINARY_PADDED(FN, T, OT)                                             \
    PADDED(FN##_v, FN##_c, OT, (OT *o, const T *pa, const T *pb, int64_t n),  \
           (o, pa, pb, m), T ia[EW_BLOCK]; T ibb[EW_BLOCK];,                  \
           ia[j] = pa[k]; ibb[j] = pb[k];, (ob, ia, ibb, EW_BLOCK))           \
    PADDED(FN##_s2_v, FN##_s2, OT, (OT *o, const T *pa, T b, int64_t n),      \
           (o, pa, b, m), T ia[EW_BLOCK];, ia[j] = pa[k];, (ob, ia, b, EW_BLOCK)) \
    PADDED(FN##_s1_v, FN##_s1, OT, (OT *o, T a, const T *pb, int64_t n),      \
           (o, a, pb, m), T ibb[EW_BLOCK];, ibb[j] = pb[k];, (ob, a, ibb, EW_BLOCK))
#define BINARY_LOOP_BLOCKS(FN, T, OT, EXPR, CLONES)                          \
    BINARY_KERNELS(FN, T, OT, EXPR, CLONES)                                  \
    BINARY_PADDED(FN, T, OT)                                                 \
    BINARY_LOOP_(FN, T, OT, EXPR, CLONES, _v, _s2_v, _s1_v, STRIDED_BLOCKS, 0)

/* Loop shape by cost (the last column of ew_ops.h's lists): cheap ops (1, 2)
 * run on any length, costly ones (4, 8, 16) in whole blocks. */
#define UNARY_LOOP_1 UNARY_LOOP_CL
#define UNARY_LOOP_2 UNARY_LOOP_CL
#define UNARY_LOOP_4 UNARY_LOOP_BLOCKS
#define UNARY_LOOP_8 UNARY_LOOP_BLOCKS
#define UNARY_LOOP_16 UNARY_LOOP_BLOCKS
#define BINARY_LOOP_1 BINARY_LOOP_CL
#define BINARY_LOOP_2 BINARY_LOOP_CL
#define BINARY_LOOP_4 BINARY_LOOP_BLOCKS
#define BINARY_LOOP_8 BINARY_LOOP_BLOCKS
#define BINARY_LOOP_16 BINARY_LOOP_BLOCKS

/* ---- the stamped loops, declared from the lists of ew_ops.h -------------------- */

/* every level's loop FN_l<level> */
#define EW_LOOP_DECL1(FN, L) \
    ARS_HIDDEN void ARS_LVN(FN, L)(char **data, int64_t n, const int64_t *s, void *ctx);
#define EW_LOOP_DECL(FN) ARS_EACH_LEVEL(EW_LOOP_DECL1, FN)
#define U_DECL(DN, T, WT, RT, OP, OUT, S, COST) EW_LOOP_DECL(u_##OP##_##DN)
#define U_DECLS(OP, G, OUT, S, COST) G(U_DECL, OP, OUT, S, COST)
UNARY_LIST(U_DECLS)
#define B_DECL(DN, T, WT, RT, OP, OUT, S, COST) EW_LOOP_DECL(b_##OP##_##DN)
#define B_DECLS(OP, G, OUT, S, COST) G(B_DECL, OP, OUT, S, COST)
BINARY_LIST(B_DECLS)
#define P_DECL(DN, T, WT, RT, EXP, S, COST) EW_LOOP_DECL(p_##EXP##_##DN)
#define P_DECLS(EXP, G, S, COST) G(P_DECL, EXP, S, COST)
POW_FAST_LIST(P_DECLS)

/* The narrow floats' loops (ew_narrow.h), declared from the same lists. */
#include "ew_narrow.h"
UNARY_LIST(UN_DECLS)
BINARY_LIST(BN_DECLS)
POW_FAST_LIST(PN_DECLS)

/* Stamp one loop per (op, dtype of the group). */
#define U_STAMP(DN, T, WT, RT, OP, OUT, S, COST) \
    UNARY_LOOP_##COST(u_##OP##_##DN, T, OT_##OUT(T, RT), S(T, WT, RT, x), EW_CLONES_##COST)
#define U_GROUP(OP, G, OUT, S, COST) G(U_STAMP, OP, OUT, S, COST)
#define B_STAMP(DN, T, WT, RT, OP, OUT, S, COST) \
    BINARY_LOOP_##COST(b_##OP##_##DN, T, OT_##OUT(T, RT), S(T, WT, RT, a, b), EW_CLONES_##COST)
#define P_STAMP(DN, T, WT, RT, EXP, S, COST) \
    UNARY_LOOP_##COST(p_##EXP##_##DN, T, T, S(T, WT, RT, x), EW_CLONES_##COST)
#define P_GROUP(EXP, G, S, COST) G(P_STAMP, EXP, S, COST)

#endif
