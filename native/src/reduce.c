/* Reductions over any layout: the input and a contiguous accumulator run on
 * the shared iterator, the accumulator having stride 0 on the reduced dims.
 * Where the innermost dim is reduced, a run is folded pairwise (as NumPy
 * does, eight lanes of up to 128 elements, then halving); where it is kept,
 * the run is accumulated elementwise into the accumulator row. Large
 * reductions are split into parts, each with a private accumulator, that the
 * pool's threads share; the parts combine in a fixed tree. How many parts,
 * and where they split, depend on the problem alone (sizes, layout, dtypes),
 * never on the thread count, so that a result has the same bits on any
 * number of threads. */
#include <stdlib.h>
#include <string.h>
#include "platform.h"
#include "stats_internal.h"
#include "ew_narrow.h"

enum { PW_BLOCK = 128 };

/* Narrow float inputs (kind KN) are loaded as their bits and enter an
 * accumulator through float (stats_internal.h), as when cast to float32 first. */
#define PWB_ATTR_KN

/* ---- one row per reduction ----------------------------------------------------
 * RED_<OP>: (map, combine, identity, elementwise, pairwise, whole run), where
 *   map         how an input value enters the accumulator type     (MAPK_*)
 *   combine     how two accumulated values fold                    (COMBK_*)
 *   identity    the value of an empty reduction                    (IDENTK_*)
 *   elementwise 1: a kept inner dim folds elementwise into the accumulator row
 *   pairwise    1: fold pairwise where rounding makes order matter (float kinds)
 *   whole run   the contiguous shortcut for a whole reduced run    (MMK_*)
 * The op codes are ARS_RED_<OP> (arrstride.h); which accumulator and input
 * dtypes each op has is said where the kernels are stamped, below. */
#define RED_SUM   (CONV,  ADD,     ZERO, 1, 1, NONE)
#define RED_PROD  (CONV,  MUL,     ONE,  1, 1, NONE)
#define RED_MIN   (SELF,  LESSER,  HI,   1, 0, LESSER)
#define RED_MAX   (SELF,  GREATER, LO,   1, 0, GREATER)
#define RED_ALL   (TRUTH, AND,     ONE,  1, 0, ALL)
#define RED_ANY   (TRUTH, OR,      ZERO, 1, 0, ANY)
#define RED_COUNT (TRUTH, PLUS,    ZERO, 1, 0, NONE)

/* The fields of row RED_<OP>. */
#define RF_MAP(m, c, i, e, p, w) m
#define RF_COMB(m, c, i, e, p, w) c
#define RF_IDENT(m, c, i, e, p, w) i
#define RF_ELEMENTWISE(m, c, i, e, p, w) e
#define RF_PAIRWISE(m, c, i, e, p, w) p
#define RF_RUN(m, c, i, e, p, w) w
#define RED_FIELD(F, OP) RED_FIELD_(F, RED_##OP)
#define RED_FIELD_(F, ROW) F ROW
#define RED_CAT(a, b) RED_CAT_(a, b)
#define RED_CAT_(a, b) a##b
#define RED_MAP(OP) RED_CAT(MAPK_, RED_FIELD(RF_MAP, OP))
#define RED_COMB(OP) RED_CAT(COMBK_, RED_FIELD(RF_COMB, OP))
#define RED_IDENT(OP) RED_CAT(IDENTK_, RED_FIELD(RF_IDENT, OP))
#define RED_ELEMENTWISE(OP) RED_FIELD(RF_ELEMENTWISE, OP)
#define RED_PAIRWISE(OP) RED_FIELD(RF_PAIRWISE, OP)
#define RED_RUN(OP) RED_CAT(MMK_, RED_FIELD(RF_RUN, OP))

/* map: MAPK_<m>(AT, AK, IK, v) */
#define MAPK_CONV(AT, AK, IK, v) ACONV_##AK##_##IK(AT, v)
#define MAPK_SELF(AT, AK, IK, v) SELF_##IK(v)
#define MAPK_TRUTH(AT, AK, IK, v) ((AT)TRUTH_##IK(v))
/* whether v is nonzero; a narrow float's from its bits (NaN is nonzero) */
#define TRUTH_KB(v) ((v) != 0)
#define TRUTH_KI TRUTH_KB
#define TRUTH_KU TRUTH_KB
#define TRUTH_KF TRUTH_KB
#define TRUTH_KC TRUTH_KB
#define TRUTH_KN(v) (((v).bits & 0x7fffu) != 0)
/* the input's own value; a narrow float's as a float (exact) */
#define SELF_KB(v) (v)
#define SELF_KI(v) (v)
#define SELF_KU(v) (v)
#define SELF_KF(v) (v)
#define SELF_KN(v) NARROW_TO_FLOAT(v)

/* combine: COMBK_<c>(AT, AK, a, b) */
#define COMBK_ADD(AT, AK, a, b) ADD_##AK(AT, a, b)
#define COMBK_MUL(AT, AK, a, b) MUL_##AK(AT, a, b)
/* NaN wins (once a is NaN no compare replaces it); written as two selects so
 * that the compiler turns them into vector compares and blends */
#define COMBK_LESSER(AT, AK, a, b) ((b) != (b) ? (b) : ((b) < (a) ? (b) : (a)))
#define COMBK_GREATER(AT, AK, a, b) ((b) != (b) ? (b) : ((b) > (a) ? (b) : (a)))
#define COMBK_AND(AT, AK, a, b) ((AT)((a) & (b)))
#define COMBK_OR(AT, AK, a, b) ((AT)((a) | (b)))
#define COMBK_PLUS(AT, AK, a, b) ((a) + (b))

/* identity: IDENTK_<i>(AT, AK) */
#define IDENTK_ZERO(AT, AK) ((AT)0)
#define IDENTK_ONE(AT, AK) ((AT)1)
#define IDENTK_HI(AT, AK) HI_##AK(AT)
#define IDENTK_LO(AT, AK) LO_##AK(AT)

/* Pairwise folding where rounding makes order matter: by the accumulator's kind. */
#define PW_K_KB 0
#define PW_K_KI 0
#define PW_K_KU 0
#define PW_K_KF 1
#define PW_K_KC 1

/* Columns of a block: at least ROW_CHUNK, at most ROW_CHUNK_MAX (so that a
 * part's partial rows stay in L2), else a BLOCK_SHARES-th of the columns, so
 * that threads share the chunks while each streams long contiguous row
 * segments. (A column's result does not depend on the chunk it falls in.) */
enum { ROW_CHUNK = 256, ROW_CHUNK_MAX = 2048, ROW_LEAF = 64, BLOCK_SHARES = 4 };

/* Parts of a reduction with private accumulators: at least a thread's grain
 * of elements each, at most RED_MAX_PARTS (ROWS_MAX_PARTS when each part
 * reduces whole rows into a private row), a power of two, and private
 * accumulators of at most 1/PRIV_RATIO of the input's elements in all. Enough
 * parts for the threads of a common machine to share, few enough that
 * combining them costs little. (Measured on Zen 4: a float64 sum of 16e6 or
 * 64e6 elements read memory at half the speed in 64 parts as in 8 or 32, at
 * one thread and at two.) */
enum { RED_MAX_PARTS = 32, ROWS_MAX_PARTS = 16, PRIV_RATIO = 128 };

/* Contiguous float min/max: MM_LANES lanes of plain compares (vector max
 * instructions, AVX2 where the CPU has it) while v - v sums to NaN if any
 * element is NaN or infinite; then the exact NaN-propagating fold redoes the
 * run. Returns 0 in that case, else stores the result at res. */
/* The kernels marked RED_LEVELED have a copy per SIMD level up to AVX2
 * (platform.h): RED_STAMP(DEF, ...) stamps DEF(..., L) for those levels, L
 * the copy's suffix, and RED_PICK(name) is the active level's copy. The
 * AVX-512 level runs the AVX2 copies. */
#define RED_LEVELED(L) ARS_TARGET_##L
#ifdef ARS_X86_64
#define RED_STAMP(DEF, ...) DEF(__VA_ARGS__, 0) DEF(__VA_ARGS__, 1)
#define RED_PICK(name) (ars_cpu_level() ? name##_l1 : name##_l0)
#else
#define RED_STAMP(DEF, ...) DEF(__VA_ARGS__, 0)
#define RED_PICK(name) name##_l0
#endif
#define GT_MAX(a, b) ((a) > (b))
#define GT_MIN(a, b) ((a) < (b))
enum { MM_LANES = 64 };  /* a row of lanes the loop vectorizer takes whole */
#define DEF_MMFAST_L(OP, N, T, L)                                               \
    RED_LEVELED(L) static int mmfast_##OP##_##N##_l##L(const char *p, int64_t n, char *res) \
    {                                                                           \
        T m[MM_LANES], z[MM_LANES];                                                         \
        int64_t i;                                                              \
        if (n < MM_LANES)                                                             \
            return 0;                                                           \
        for (int k = 0; k < MM_LANES; k++) {                                          \
            m[k] = ld_##N(p + k * (int64_t)sizeof(T));                          \
            z[k] = m[k] - m[k];                                                 \
        }                                                                       \
        for (i = MM_LANES; i + MM_LANES <= n; i += MM_LANES)                                      \
            for (int k = 0; k < MM_LANES; k++) {                                      \
                T v = ld_##N(p + (i + k) * (int64_t)sizeof(T));                 \
                m[k] = GT_##OP(v, m[k]) ? v : m[k];                             \
                z[k] += v - v;                                                  \
            }                                                                   \
        T t = m[0], zz = z[0];                                                  \
        for (int k = 1; k < MM_LANES; k++) {                                          \
            t = GT_##OP(m[k], t) ? m[k] : t;                                    \
            zz += z[k];                                                         \
        }                                                                       \
        for (; i < n; i++) {                                                    \
            T v = ld_##N(p + i * (int64_t)sizeof(T));                           \
            t = GT_##OP(v, t) ? v : t;                                          \
            zz += v - v;                                                        \
        }                                                                       \
        if (zz != zz)                                                           \
            return 0;                                                           \
        st_##N(res, t);                                                         \
        return 1;                                                               \
    }
#define DEF_MMFAST(OP, N, T)                                                    \
    RED_STAMP(DEF_MMFAST_L, OP, N, T)                                           \
    static int mmfast_##OP##_##N(const char *p, int64_t n, char *res)           \
    {                                                                           \
        return RED_PICK(mmfast_##OP##_##N)(p, n, res);                          \
    }
DEF_MMFAST(MAX, FLOAT64, double)
DEF_MMFAST(MAX, FLOAT32, float)
DEF_MMFAST(MIN, FLOAT64, double)
DEF_MMFAST(MIN, FLOAT32, float)
/* The same for a narrow float run, its float result at res: blocks of it
 * widened (exact) and fed to the lanes as its float32 copy's elements would
 * be, so with that copy's result to the bit. */
enum { MM_NBLOCK = 16 * MM_LANES };
#define DEF_MMFAST_N_L(OP, N, L)                                                \
    RED_LEVELED(L) static int mmfast_##OP##_##N##_l##L(const char *p, int64_t n, char *res) \
    {                                                                           \
        _Alignas(64) float b[MM_NBLOCK];                                        \
        float m[MM_LANES], z[MM_LANES];                                         \
        const int64_t isz = ars_itemsize[ARS_##N];                              \
        int64_t i;                                                              \
        if (n < MM_LANES)                                                       \
            return 0;                                                           \
        ars_load_##N(b, p, isz, MM_LANES);                                      \
        for (int k = 0; k < MM_LANES; k++) {                                    \
            m[k] = b[k];                                                        \
            z[k] = m[k] - m[k];                                                 \
        }                                                                       \
        for (i = MM_LANES; i + MM_LANES <= n;) {                                \
            int64_t nb = (n - i) / MM_LANES * MM_LANES;                         \
            if (nb > MM_NBLOCK)                                                 \
                nb = MM_NBLOCK;                                                 \
            ars_load_##N(b, p + i * isz, isz, nb);                              \
            for (int64_t j = 0; j < nb; j += MM_LANES)                          \
                for (int k = 0; k < MM_LANES; k++) {                            \
                    float v = b[j + k];                                         \
                    m[k] = GT_##OP(v, m[k]) ? v : m[k];                         \
                    z[k] += v - v;                                              \
                }                                                               \
            i += nb;                                                            \
        }                                                                       \
        float t = m[0], zz = z[0];                                              \
        for (int k = 1; k < MM_LANES; k++) {                                    \
            t = GT_##OP(m[k], t) ? m[k] : t;                                    \
            zz += z[k];                                                         \
        }                                                                       \
        if (i < n)                                                              \
            ars_load_##N(b, p + i * isz, isz, n - i);                           \
        for (int64_t j = 0; i + j < n; j++) {                                   \
            float v = b[j];                                                     \
            t = GT_##OP(v, t) ? v : t;                                          \
            zz += v - v;                                                        \
        }                                                                       \
        if (zz != zz)                                                           \
            return 0;                                                           \
        st_FLOAT32(res, t);                                                     \
        return 1;                                                               \
    }
#define DEF_MMFAST_N(N, T, K)                                                   \
    RED_STAMP(DEF_MMFAST_N_L, MAX, N)                                           \
    RED_STAMP(DEF_MMFAST_N_L, MIN, N)                                           \
    static int mmfast_MAX_##N(const char *p, int64_t n, char *res)              \
    {                                                                           \
        return RED_PICK(mmfast_MAX_##N)(p, n, res);                             \
    }                                                                           \
    static int mmfast_MIN_##N(const char *p, int64_t n, char *res)              \
    {                                                                           \
        return RED_PICK(mmfast_MIN_##N)(p, n, res);                             \
    }
ARS_NARROW_DTYPES(DEF_MMFAST_N)
static int mmfast_none(const char *p, int64_t n, char *res)
{
    (void)p; (void)n; (void)res;
    return 0;
}
/* whole run: MMK_<w>(AT), the shortcut's function for accumulator type AT */
#define MMK_GREATER(AT) \
    _Generic((AT)0, double: mmfast_MAX_FLOAT64, float: mmfast_MAX_FLOAT32, default: mmfast_none)
#define MMK_LESSER(AT) \
    _Generic((AT)0, double: mmfast_MIN_FLOAT64, float: mmfast_MIN_FLOAT32, default: mmfast_none)
#define MMK_NONE(AT) mmfast_none
/* the same for a narrow input IN (into a float accumulator) */
#define MMKN_GREATER(IN) mmfast_MAX_##IN
#define MMKN_LESSER(IN) mmfast_MIN_##IN
#define MMKN_NONE(IN) mmfast_none
#define MMKN_ALL(IN) mmfast_none
#define MMKN_ANY(IN) mmfast_none
/* RUN_<input kind>(OP, AT, IT, IN, p, n, res): the whole-run shortcut of a
 * contiguous run, 0 where it declines */
#define RUN_KB(OP, AT, IT, IN, p, n, res) (sizeof(AT) == sizeof(IT) && RED_RUN(OP)(AT)(p, n, res))
#define RUN_KI RUN_KB
#define RUN_KU RUN_KB
#define RUN_KF RUN_KB
#define RUN_KC RUN_KB
#define RUN_KN(OP, AT, IT, IN, p, n, res) RED_CAT(MMKN_, RED_FIELD(RF_RUN, OP))(IN)(p, n, res)
/* any/all of a contiguous run of 1-byte values (bool, int8, uint8; the caller
 * checks the sizes): eight bytes a word, a block of words at a time, the
 * loop free of early exits so that it vectorizes; all() tests each word for
 * a zero byte. The result (0 or 1) goes to res as a uint8_t. */
enum { BYTE_BLOCK = 256 };  /* bytes folded between two checks */
#define ZERO_BYTE(w) (((w) - 0x0101010101010101ULL) & ~(w) & 0x8080808080808080ULL)
#define DEF_BYTEFAST_L(OP, FOLD, HIT, EMPTY, L)                                 \
    RED_LEVELED(L) static int bytefast_##OP##_l##L(const char *p, int64_t n, char *res) \
    {                                                                           \
        int64_t i = 0;                                                          \
        for (; i + BYTE_BLOCK <= n; i += BYTE_BLOCK) {                          \
            uint64_t w[BYTE_BLOCK / 8], acc = 0;                                \
            memcpy(w, p + i, BYTE_BLOCK);                                       \
            for (int k = 0; k < BYTE_BLOCK / 8; k++)                            \
                acc |= FOLD(w[k]);                                              \
            if (acc) {                                                          \
                *(uint8_t *)res = HIT;                                          \
                return 1;                                                       \
            }                                                                   \
        }                                                                       \
        for (; i < n; i++)                                                      \
            if ((p[i] != 0) == HIT) {                                           \
                *(uint8_t *)res = HIT;                                          \
                return 1;                                                       \
            }                                                                   \
        *(uint8_t *)res = EMPTY;                                                \
        return 1;                                                               \
    }
#define DEF_BYTEFAST(OP, FOLD, HIT, EMPTY)                                      \
    RED_STAMP(DEF_BYTEFAST_L, OP, FOLD, HIT, EMPTY)                             \
    static int bytefast_##OP(const char *p, int64_t n, char *res)               \
    {                                                                           \
        return RED_PICK(bytefast_##OP)(p, n, res);                              \
    }
#define NONZERO_WORD(w) (w)
DEF_BYTEFAST(ANY, NONZERO_WORD, 1, 0)
DEF_BYTEFAST(ALL, ZERO_BYTE, 0, 1)
#define MMK_ALL(AT) bytefast_ALL
#define MMK_ANY(AT) bytefast_ANY

/* A 2-D block: a kept inner dim 0 (n0) over a reduced dim 1 (n1); aux is
 * the kernel's own (the variance's: the bytes between its moments' fields). */
typedef struct {
    int64_t n0, n1, in_s0, in_s1, acc_s0, aux;
} block_geom;
typedef void (*red_block_fn)(const char *in, char *acc, const block_geom *g, int64_t j0, int64_t j1,
                             void *scratch);

typedef void (*red_init_fn)(char *acc, int64_t n);
typedef void (*red_comb_fn)(char *acc, const char *part, int64_t n);

typedef struct {
    ars_loop_fn loop;
    red_init_fn init;
    red_comb_fn comb;
    red_block_fn block;
} red_kernel;

/* GCC 12 at -O3 miscompiles the loop vectorization of the 8-lane fold below
 * when a narrow integer input widens into the accumulator (sum of 1032 int8
 * ones gave 65; -O2 and -fno-tree-loop-vectorize give 1032). Integer inputs
 * therefore fold without loop vectorization; float inputs keep it. */
#define PWB_ATTR_KB ARS_GCC_ATTR(optimize("no-tree-loop-vectorize"))
#define PWB_ATTR_KI PWB_ATTR_KB
#define PWB_ATTR_KU PWB_ATTR_KB
#define PWB_ATTR_KF
#define PWB_ATTR_KC

/* A narrow input's run of at most PW_BLOCK elements: widened into a block of
 * floats (the hardware conversion where the CPU has one, exact), then folded
 * by the float32 input's loop, lane for lane as a float32 copy would be. */
#define PWB_NARROW_KB(OP, AN, IN, p, n, s)
#define PWB_NARROW_KI PWB_NARROW_KB
#define PWB_NARROW_KU PWB_NARROW_KB
#define PWB_NARROW_KF PWB_NARROW_KB
#define PWB_NARROW_KC PWB_NARROW_KB
#define PWB_NARROW_KN(OP, AN, IN, p, n, s)                                                \
    if (n <= PW_BLOCK) {                                                                  \
        _Alignas(64) float b_[PW_BLOCK];                                                  \
        ars_load_##IN(b_, p, s, n);                                                       \
        return pwb_##OP##_##AN##_FLOAT32((const char *)b_, n, (int64_t)sizeof(float));    \
    }

#define DEF_RED(OP, AN, AT, AK, IN, IT, IK)                                               \
    PWB_ATTR_##IK static inline AT pwb_##OP##_##AN##_##IN(const char *p, int64_t n, int64_t s) \
    {                                                                                     \
        PWB_NARROW_##IK(OP, AN, IN, p, n, s)                                              \
        AT r[8];                                                                          \
        int64_t i;                                                                        \
        for (int k = 0; k < 8; k++)                                                       \
            r[k] = RED_MAP(OP)(AT, AK, IK, ld_##IN(p + k * s));                           \
        for (i = 8; i + 8 <= n; i += 8)                                                   \
            for (int k = 0; k < 8; k++) {                                                 \
                AT v = RED_MAP(OP)(AT, AK, IK, ld_##IN(p + (i + k) * s));                 \
                r[k] = RED_COMB(OP)(AT, AK, r[k], v);                                     \
            }                                                                             \
        AT t = RED_COMB(OP)(AT, AK, RED_COMB(OP)(AT, AK, RED_COMB(OP)(AT, AK, r[0], r[1]), \
                                                   RED_COMB(OP)(AT, AK, r[2], r[3])),     \
                         RED_COMB(OP)(AT, AK, RED_COMB(OP)(AT, AK, r[4], r[5]),           \
                                   RED_COMB(OP)(AT, AK, r[6], r[7])));                    \
        for (; i < n; i++) {                                                              \
            AT v = RED_MAP(OP)(AT, AK, IK, ld_##IN(p + i * s));                           \
            t = RED_COMB(OP)(AT, AK, t, v);                                               \
        }                                                                                 \
        return t;                                                                         \
    }                                                                                     \
    static AT pw_##OP##_##AN##_##IN(const char *p, int64_t n, int64_t s)                  \
    {                                                                                     \
        if (n < 8) {                                                                      \
            AT t = RED_MAP(OP)(AT, AK, IK, ld_##IN(p));                                   \
            for (int64_t i = 1; i < n; i++) {                                             \
                AT v = RED_MAP(OP)(AT, AK, IK, ld_##IN(p + i * s));                       \
                t = RED_COMB(OP)(AT, AK, t, v);                                           \
            }                                                                             \
            return t;                                                                     \
        }                                                                                 \
        if (n <= PW_BLOCK || !(RED_PAIRWISE(OP) && PW_K_##AK)) {                          \
            if (s == (int64_t)sizeof(IT))                                                 \
                return pwb_##OP##_##AN##_##IN(p, n, (int64_t)sizeof(IT));                 \
            return pwb_##OP##_##AN##_##IN(p, n, s);                                       \
        }                                                                                 \
        int64_t h = n / 2;                                                                \
        h -= h % 8;                                                                       \
        AT a = pw_##OP##_##AN##_##IN(p, h, s);                                            \
        AT b = pw_##OP##_##AN##_##IN(p + h * s, n - h, s);                                \
        return RED_COMB(OP)(AT, AK, a, b);                                                \
    }                                                                                     \
    static void loop_##OP##_##AN##_##IN(char **data, int64_t n, const int64_t *s, void *ctx) \
    {                                                                                     \
        (void)ctx;                                                                        \
        const char *in = data[0];                                                         \
        char *acc = data[1];                                                              \
        if (s[1] == 0) {                                                                  \
            char r_[sizeof(AT)];                                                          \
            if (s[0] == (int64_t)sizeof(IT) && RUN_##IK(OP, AT, IT, IN, in, n, r_)) {      \
                st_##AN(acc, RED_COMB(OP)(AT, AK, ld_##AN(acc), ld_##AN(r_)));            \
                return;                                                                   \
            }                                                                             \
            AT r = pw_##OP##_##AN##_##IN(in, n, s[0]);                                    \
            st_##AN(acc, RED_COMB(OP)(AT, AK, ld_##AN(acc), r));                          \
            return;                                                                       \
        }                                                                                 \
        if (s[0] == (int64_t)sizeof(IT) && s[1] == (int64_t)sizeof(AT) &&                 \
            RED_ELEMENTWISE(OP)) {                                                        \
            for (int64_t i = 0; i < n; i++) {                                             \
                AT a = ld_##AN(acc + i * (int64_t)sizeof(AT));                            \
                AT v = RED_MAP(OP)(AT, AK, IK, ld_##IN(in + i * (int64_t)sizeof(IT)));    \
                st_##AN(acc + i * (int64_t)sizeof(AT), RED_COMB(OP)(AT, AK, a, v));       \
            }                                                                             \
            return;                                                                       \
        }                                                                                 \
        for (int64_t i = 0; i < n; i++) {                                                 \
            AT a = ld_##AN(acc + i * s[1]);                                               \
            AT v = RED_MAP(OP)(AT, AK, IK, ld_##IN(in + i * s[0]));                       \
            st_##AN(acc + i * s[1], RED_COMB(OP)(AT, AK, a, v));                          \
        }                                                                                 \
    }                                                                                     \
    /* out[j] = fold over the nr rows (byte step rs) of column j < nc (step cs):          \
     * sequential within leaves of ROW_LEAF rows, pairwise above them */                  \
    static inline void leaf_##OP##_##AN##_##IN(const char *restrict in, int64_t nr,       \
                                               int64_t rs, int64_t nc, int64_t cs,        \
                                               AT *restrict out)                          \
    {                                                                                     \
        for (int64_t j = 0; j < nc; j++)                                                  \
            out[j] = RED_MAP(OP)(AT, AK, IK, ld_##IN(in + j * cs));                       \
        for (int64_t r = 1; r < nr; r++) {                                                \
            const char *row = in + r * rs;                                                \
            for (int64_t j = 0; j < nc; j++) {                                            \
                AT v = RED_MAP(OP)(AT, AK, IK, ld_##IN(row + j * cs));                    \
                out[j] = RED_COMB(OP)(AT, AK, out[j], v);                                 \
            }                                                                             \
        }                                                                                 \
    }                                                                                     \
    static void rows_##OP##_##AN##_##IN(const char *in, int64_t nr, int64_t rs,           \
                                        int64_t nc, int64_t cs, AT *out, AT *scratch)     \
    {                                                                                     \
        if (nr <= ROW_LEAF || !(RED_PAIRWISE(OP) && PW_K_##AK)) {                         \
            if (cs == (int64_t)sizeof(IT))                                                \
                leaf_##OP##_##AN##_##IN(in, nr, rs, nc, (int64_t)sizeof(IT), out);        \
            else                                                                          \
                leaf_##OP##_##AN##_##IN(in, nr, rs, nc, cs, out);                         \
            return;                                                                       \
        }                                                                                 \
        int64_t h = nr / 2;                                                               \
        rows_##OP##_##AN##_##IN(in, h, rs, nc, cs, out, scratch);                         \
        rows_##OP##_##AN##_##IN(in + h * rs, nr - h, rs, nc, cs, scratch, scratch + nc);  \
        for (int64_t j = 0; j < nc; j++)                                                  \
            out[j] = RED_COMB(OP)(AT, AK, out[j], scratch[j]);                            \
    }                                                                                     \
    static void block_##OP##_##AN##_##IN(const char *in, char *acc, const block_geom *g,  \
                                         int64_t j0, int64_t j1, void *scratch)           \
    {                                                                                     \
        AT *part = scratch;                                                               \
        int64_t nc = j1 - j0;                                                             \
        rows_##OP##_##AN##_##IN(in + j0 * g->in_s0, g->n1, g->in_s1, nc, g->in_s0, part,  \
                                part + nc);                                               \
        for (int64_t c = 0; c < nc; c++) {                                                \
            char *a = acc + (j0 + c) * g->acc_s0;                                         \
            st_##AN(a, RED_COMB(OP)(AT, AK, ld_##AN(a), part[c]));                        \
        }                                                                                 \
    }                                                                                     \
    static void init_##OP##_##AN##_##IN(char *acc, int64_t n)                             \
    {                                                                                     \
        AT v = RED_IDENT(OP)(AT, AK);                                                     \
        for (int64_t i = 0; i < n; i++)                                                   \
            st_##AN(acc + i * (int64_t)sizeof(AT), v);                                    \
    }                                                                                     \
    static void comb_##OP##_##AN##_##IN(char *acc, const char *part, int64_t n)           \
    {                                                                                     \
        for (int64_t i = 0; i < n; i++) {                                                 \
            char *a = acc + i * (int64_t)sizeof(AT);                                      \
            st_##AN(a, RED_COMB(OP)(AT, AK, ld_##AN(a), ld_##AN(part + i * (int64_t)sizeof(AT)))); \
        }                                                                                 \
    }

#define ENT_RED(OP, AN, IN) \
    [ARS_RED_##OP][ARS_##AN][ARS_##IN] = {loop_##OP##_##AN##_##IN, init_##OP##_##AN##_##IN, \
                                          comb_##OP##_##AN##_##IN, block_##OP##_##AN##_##IN},

/* sums and products: every accumulator from every input, narrow floats
 * included (read element by element through float, no widened copy) */
#define DEF_SUMPROD(AN, AT, AK, IN, IT, IK) \
    DEF_RED(SUM, AN, AT, AK, IN, IT, IK) DEF_RED(PROD, AN, AT, AK, IN, IT, IK)
#define DEF_SUMPROD_ROW(AN, AT, AK) ARS_STORAGE_DTYPES2(DEF_SUMPROD, AN, AT, AK)
ARS_ACC_DTYPES(DEF_SUMPROD_ROW)
#define ENT_SUMPROD(AN, AT, AK, IN, IT, IK) ENT_RED(SUM, AN, IN) ENT_RED(PROD, AN, IN)
#define ENT_SUMPROD_ROW(AN, AT, AK) ARS_STORAGE_DTYPES2(ENT_SUMPROD, AN, AT, AK)

/* min and max in the input's own type; a narrow float's in float32 (exact) */
#define DEF_MINMAX(N, T, K) DEF_RED(MIN, N, T, K, N, T, K) DEF_RED(MAX, N, T, K, N, T, K)
ARS_REAL_DTYPES(DEF_MINMAX)
#define ENT_MINMAX(N, T, K) ENT_RED(MIN, N, N) ENT_RED(MAX, N, N)
#define DEF_MINMAX_N(N, T, K) \
    DEF_RED(MIN, FLOAT32, float, KF, N, T, K) DEF_RED(MAX, FLOAT32, float, KF, N, T, K)
ARS_NARROW_DTYPES(DEF_MINMAX_N)
#define ENT_MINMAX_N(N, T, K) ENT_RED(MIN, FLOAT32, N) ENT_RED(MAX, FLOAT32, N)

/* truth tests and counts from every input, narrow floats included */
#define DEF_OTHER(N, T, K)                          \
    DEF_RED(ALL, BOOL, uint8_t, KB, N, T, K)        \
    DEF_RED(ANY, BOOL, uint8_t, KB, N, T, K)        \
    DEF_RED(COUNT, INT64, int64_t, KI, N, T, K)
ARS_STORAGE_DTYPES(DEF_OTHER)
#define ENT_OTHER(N, T, K) \
    ENT_RED(ALL, BOOL, N) ENT_RED(ANY, BOOL, N) ENT_RED(COUNT, INT64, N)

static const red_kernel red_table[ARS_RED_NOPS][ARS_NDTYPES][ARS_NDTYPES] = {
    ARS_ACC_DTYPES(ENT_SUMPROD_ROW)
    ARS_REAL_DTYPES(ENT_MINMAX)
    ARS_NARROW_DTYPES(ENT_MINMAX_N)
    ARS_STORAGE_DTYPES(ENT_OTHER)
};

/* How many parts of at least a thread's grain `size` elements of `isz`
 * bytes make: the largest power of two not above that nor `most` (and at
 * least 1). A function of the problem only. */
static int64_t red_parts(int64_t size, int64_t isz, int64_t most)
{
    int64_t n = size / ars_parallel_grain(isz), p = 1;
    if (n > most)
        n = most;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

/* The starts of nparts (a power of two) parts of [lo, lo + n) that halve the
 * way a fold halves its run (the first half n / 2 rounded down to a multiple
 * of `align`), into bounds[0..nparts - 1]. The parts are then the subtrees of
 * the whole run's pairwise tree, log2(nparts) levels down, and red_combine
 * folds their results as the rest of that tree would: the bits of the fold
 * of the whole run, with the leaves the whole run has. */
static void tree_bounds(int64_t lo, int64_t n, int64_t nparts, int64_t align, int64_t *bounds)
{
    if (nparts == 1) {
        bounds[0] = lo;
        return;
    }
    int64_t h = n / 2;
    h -= h % align;
    tree_bounds(lo, h, nparts / 2, align, bounds);
    tree_bounds(lo + h, n - h, nparts / 2, align, bounds + nparts / 2);
}

/* Fold the nparts accumulators of n values (the first at acc, the others in
 * priv, `bytes` apart) into acc, pairwise in a fixed tree: 0 += 1, 2 += 3, ...,
 * then 0 += 2, 4 += 6, ... */
static void red_combine(red_comb_fn comb, char *acc, char *priv, int64_t nparts, int64_t bytes,
                        int64_t n)
{
    for (int64_t step = 1; step < nparts; step *= 2)
        for (int64_t p = 0; p + step < nparts; p += 2 * step)
            comb(p == 0 ? acc : priv + (p - 1) * bytes, priv + (p + step - 1) * bytes, n);
}

typedef struct {
    const ars_iter *it;
    ars_loop_fn loop;
    char *acc;
    char *priv;        /* nparts - 1 private accumulators, acc_bytes apart */
    int64_t acc_bytes;
    int64_t bounds[RED_MAX_PARTS + 1];  /* part p: elements [bounds[p], bounds[p + 1]) */
} red_job;

static void red_part(int64_t begin, int64_t end, void *p)
{
    const red_job *job = p;
    ars_iter it = *job->it;
    for (int64_t part = begin; part < end; part++) {
        it.data[1] = part == 0 ? job->acc : job->priv + (part - 1) * job->acc_bytes;
        ars_iter_run_range(&it, job->loop, NULL, job->bounds[part], job->bounds[part + 1]);
    }
}

/* The reduced dims all inside the kept ones (a sum over the last axis of a
 * C-ordered matrix): each range of kept elements, `inner` input elements
 * apiece, reduces its whole runs into its own accumulator elements. Every
 * element's fold is then the same however the ranges fall. */
typedef struct {
    const ars_iter *it;
    ars_loop_fn loop;
    int64_t inner;
    void *ctx;         /* the loop's context */
} runs_job;

static void runs_part(int64_t begin, int64_t end, void *p)
{
    const runs_job *job = p;
    ars_iter_run_range(job->it, job->loop, job->ctx, begin * job->inner, end * job->inner);
}

/* The innermost dim kept and the next one too (a sum over axis 0 of a
 * 3-D array stepped on its last axis): each chunk of `width` columns of
 * it runs the whole iteration of its columns, into its own accumulator
 * elements. */
typedef struct {
    const ars_iter *it;
    ars_loop_fn loop;
    int64_t width;
    void *ctx;         /* the loop's context */
} cols_job;

static void cols_part(int64_t begin, int64_t end, void *p)
{
    const cols_job *job = p;
    ars_iter it = *job->it;
    int64_t n0 = job->it->shape[0], j0 = begin * job->width, j1 = end * job->width;
    if (j1 > n0)
        j1 = n0;
    it.shape[0] = j1 - j0;
    it.size = job->it->size / n0 * (j1 - j0);
    for (int op = 0; op < it.nop; op++)
        it.data[op] += j0 * it.strides[op][0];
    ars_iter_run_range(&it, job->loop, job->ctx, 0, it.size);
}

/* Columns per chunk of a kept innermost dim of n0: at least ROW_CHUNK, at
 * most ROW_CHUNK_MAX, else a BLOCK_SHARES-th of them, a multiple of 64. */
static int64_t chunk_width(int64_t n0)
{
    int64_t width = (n0 + BLOCK_SHARES - 1) / BLOCK_SHARES;
    width = (width + 63) / 64 * 64;
    if (width > ROW_CHUNK_MAX)
        width = ROW_CHUNK_MAX;
    if (width < ROW_CHUNK)
        width = ROW_CHUNK;
    return width;
}

/* The innermost dim is kept and the next one reduced (a sum over axis 0 of a
 * C-ordered matrix): fold blocks of rows pairwise into chunks of columns,
 * the threads sharing the chunks. */
typedef struct {
    const ars_iter *outer;
    red_block_fn block;
    block_geom g;
    int64_t width;     /* columns per chunk */
    int *failed;
} blocks_job;

/* One part's columns [j0, j1) of every block the outer iterator reaches. */
typedef struct {
    const blocks_job *job;
    int64_t j0, j1;
    void *scratch;
} blocks_walk;

static void blocks_outer(char **data, int64_t n, const int64_t *strides, void *ctx)
{
    const blocks_walk *w = ctx;
    for (int64_t e = 0; e < n; e++)
        w->job->block(data[0] + e * strides[0], data[1] + e * strides[1], &w->job->g,
                      w->j0, w->j1, w->scratch);
}

static void blocks_part(int64_t begin, int64_t end, void *p)
{
    const blocks_job *job = p;
    int64_t j0 = begin * job->width, j1 = end * job->width;
    if (j1 > job->g.n0)
        j1 = job->g.n0;
    /* whole rows of the part's columns stream through memory in order; the
     * pairwise levels need one row of partial results each (and the
     * variance's blocks three) */
    int64_t levels = 3;
    for (int64_t r = job->g.n1; r > ROW_LEAF; r = (r + 1) / 2)
        levels++;
    void *scratch = malloc((size_t)((j1 - j0) * levels * 16 + 1024));
    if (!scratch) {
        __atomic_store_n(job->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    /* the outer dims run on the shared iterator, one block per element */
    blocks_walk w = {job, j0, j1, scratch};
    ars_iter_run_range(job->outer, blocks_outer, &w, 0, job->outer->size);
    free(scratch);
}

/* Columns per chunk of a part's whole rows (rows_run). */
enum { ROWS_WIDTH = 4096 };

/* What a reduction over rows brings to rows_run: its block kernel and how
 * its parts' result rows combine, start and are laid out. */
typedef struct {
    red_block_fn block;
    red_comb_fn comb;
    red_init_fn init;    /* a private row's start, or NULL: zeroed */
    int64_t leaf;        /* rows the block folds sequentially: a part has two at least */
    int64_t align;       /* the parts' first rows are multiples of this */
    int64_t part_bytes;  /* bytes of a private result row (and its fields) */
    int64_t acc_s0, aux; /* block_geom's: the results' column step, the kernel's own */
    int64_t col_bytes;   /* scratch bytes per column of a chunk (and 1 KiB more) */
} rows_plan;

typedef struct {
    const ars_iter *it;
    const rows_plan *plan;
    char *priv;        /* nparts - 1 private result rows */
    int *failed;
    int64_t bounds[ROWS_MAX_PARTS + 1];  /* part p: rows [bounds[p], bounds[p + 1]) */
} rows_job;

static void rows_part(int64_t begin, int64_t end, void *p)
{
    const rows_job *job = p;
    const ars_iter *it = job->it;
    const rows_plan *pl = job->plan;
    int64_t n0 = it->shape[0];
    int64_t width = n0 < ROWS_WIDTH ? n0 : ROWS_WIDTH;
    void *scratch = malloc((size_t)(width * pl->col_bytes + 1024));
    if (!scratch) {
        __atomic_store_n(job->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    for (int64_t part = begin; part < end; part++) {
        int64_t r0 = job->bounds[part], r1 = job->bounds[part + 1];
        char *acc = part == 0 ? it->data[1] : job->priv + (part - 1) * pl->part_bytes;
        block_geom g = {n0, r1 - r0, it->strides[0][0], it->strides[0][1], pl->acc_s0, pl->aux};
        const char *in = it->data[0] + r0 * it->strides[0][1];
        for (int64_t j0 = 0; j0 < n0; j0 += width)
            pl->block(in, acc, &g, j0, j0 + width < n0 ? j0 + width : n0, scratch);
    }
    free(scratch);
}

/* A 2-D iteration (a kept innermost dim, the next reduced) with a
 * contiguous row of results: parts of the rows, halving them as a pairwise
 * fold over rows does, each streaming whole rows (in column chunks that keep
 * its partial rows in cache) into a private result row, folded into the
 * results in a fixed tree at the end. */
static int rows_run(const ars_iter *it, const rows_plan *pl, int64_t isz)
{
    int64_t n0 = it->shape[0], n1 = it->shape[1];
    int64_t most = n1 / (2 * pl->leaf);
    int64_t nparts = red_parts(it->size, isz, most < ROWS_MAX_PARTS ? most : ROWS_MAX_PARTS);
    int failed = 0;
    char *priv = NULL;
    if (nparts > 1) {
        priv = pl->init ? ars_alloc((nparts - 1) * pl->part_bytes)
                        : ars_alloc_zeroed((nparts - 1) * pl->part_bytes);
        if (!priv)
            return ARS_ERR_NOMEM;
        for (int64_t p = 0; pl->init && p < nparts - 1; p++)
            pl->init(priv + p * pl->part_bytes, n0);
    }
    rows_job job = {it, pl, priv, &failed, {0}};
    tree_bounds(0, n1, nparts, pl->align, job.bounds);
    job.bounds[nparts] = n1;
    ars_parallel_for(nparts, 1, rows_part, &job);
    red_combine(pl->comb, it->data[1], priv, nparts, pl->part_bytes, n0);
    ars_free(priv);
    return failed ? ARS_ERR_NOMEM : ARS_OK;
}

/* A 2-D sum (or other fold) over rows into a contiguous accumulator row. */
static int reduce_rows(const ars_iter *it, const red_kernel *k, int64_t isz, int64_t asz)
{
    /* the pairwise levels need one row of partial results each */
    int64_t levels = 2;
    for (int64_t r = it->shape[1]; r > ROW_LEAF; r = (r + 1) / 2)
        levels++;
    rows_plan pl = {k->block, k->comb, k->init, ROW_LEAF, 1, it->shape[0] * asz, asz, 0, levels * 16};
    return rows_run(it, &pl, isz);
}

static int reduce_blocks(const ars_iter *it, red_block_fn block, int64_t isz, int64_t aux)
{
    ars_iter outer = *it;
    outer.ndim = it->ndim - 2;
    outer.size = 1;
    for (int d = 0; d < outer.ndim; d++) {
        outer.shape[d] = it->shape[d + 2];
        outer.size *= outer.shape[d];
        for (int op = 0; op < 2; op++)
            outer.strides[op][d] = it->strides[op][d + 2];
    }
    int failed = 0;
    int64_t n0 = it->shape[0], width = chunk_width(n0);
    blocks_job job = {&outer, block,
                      {n0, it->shape[1], it->strides[0][0], it->strides[0][1],
                       it->strides[1][0], aux}, width, &failed};
    int64_t chunks = (n0 + width - 1) / width;
    int64_t per_chunk;  /* elements per chunk, saturating (only the grain depends on it) */
    if (__builtin_mul_overflow(width, it->shape[1], &per_chunk) ||
        __builtin_mul_overflow(per_chunk, outer.size, &per_chunk))
        per_chunk = INT64_MAX;
    int64_t grain = ars_parallel_grain(isz) / (per_chunk > 0 ? per_chunk : 1);
    ars_parallel_for(chunks, grain < 1 ? 1 : grain, blocks_part, &job);
    return failed ? ARS_ERR_NOMEM : ARS_OK;
}

int ars_reduce(int op, int ndim, const int64_t *shape,
               const char *in, const int64_t *in_strides, int in_dtype,
               char *acc, const int64_t *acc_strides, int64_t acc_size, int acc_dtype)
{
    if (op < 0 || op >= ARS_RED_NOPS || in_dtype < 0 || in_dtype >= ARS_NDTYPES ||
        acc_dtype < 0 || acc_dtype >= ARS_NDTYPES)
        return ARS_ERR_DTYPE;
    const red_kernel *k = &red_table[op][acc_dtype][in_dtype];
    if (!k->loop)
        return ARS_ERR_DTYPE;
    k->init(acc, acc_size);
    if (ndim < 0 || ndim > ARS_MAX_DIMS)
        return ARS_ERR_NDIM;
    ars_iter it;
    char *data[2] = {(char *)in, acc};
    const int64_t *st[2] = {in_strides, acc_strides};
    int rc = ars_iter_prepare(&it, ndim, shape, 2, data, st);
    if (rc)
        return rc;
    if (it.size == 0)
        return ARS_OK;
    /* the work per element: a narrow float's is float32's, so that the parts
     * (and the bits) are those of its float32 copy */
    int64_t isz = ars_itemsize[in_dtype == ARS_FLOAT16 || in_dtype == ARS_BFLOAT16 ? ARS_FLOAT32 : in_dtype];
    int64_t asz = ars_itemsize[acc_dtype];
    if (it.ndim >= 2 && it.strides[1][0] != 0 && it.strides[1][1] == 0) {
        if (it.ndim == 2 && it.strides[1][0] == asz)
            return reduce_rows(&it, k, isz, asz);
        return reduce_blocks(&it, k->block, isz, 0);
    }
    /* dims [0, r) reduced, [r, ndim) kept: split the kept ones */
    int r = 0;
    int64_t inner = 1;
    while (r < it.ndim && it.strides[1][r] == 0)
        inner *= it.shape[r++];
    int kept_outside = r > 0 && r < it.ndim;
    for (int d = r; d < it.ndim; d++)
        kept_outside &= it.strides[1][d] != 0;
    if (kept_outside) {
        int64_t grain = ars_parallel_grain(isz) / inner;
        runs_job job = {&it, k->loop, inner, NULL};
        ars_parallel_for(it.size / inner, grain < 1 ? 1 : grain, runs_part, &job);
        return ARS_OK;
    }
    /* the innermost dim kept and wide: split its columns */
    if (it.ndim >= 2 && it.strides[1][0] != 0 && it.shape[0] >= 2 * ROW_CHUNK) {
        int64_t width = chunk_width(it.shape[0]);
        int64_t per_chunk = it.size / it.shape[0] * width;
        int64_t grain = ars_parallel_grain(isz) / per_chunk;
        cols_job job = {&it, k->loop, width, NULL};
        ars_parallel_for((it.shape[0] + width - 1) / width, grain < 1 ? 1 : grain, cols_part, &job);
        return ARS_OK;
    }
    int64_t nparts = red_parts(it.size, isz, RED_MAX_PARTS);
    /* private accumulators must stay small next to the input */
    while (nparts > 1 && (nparts - 1) * acc_size > it.size / PRIV_RATIO)
        nparts /= 2;
    if (nparts <= 1) {
        ars_iter_run_range(&it, k->loop, NULL, 0, it.size);
        return ARS_OK;
    }
    int64_t acc_bytes = acc_size * asz;
    char *priv = ars_alloc((nparts - 1) * acc_bytes);
    if (!priv)
        return ARS_ERR_NOMEM;
    for (int64_t p = 0; p < nparts - 1; p++)
        k->init(priv + p * acc_bytes, acc_size);
    /* a single run (it.ndim 1) splits as its pairwise fold does; the same
     * halving serves any other shape as a fixed split */
    red_job job = {&it, k->loop, acc, priv, acc_bytes, {0}};
    tree_bounds(0, it.size, nparts, 8, job.bounds);
    job.bounds[nparts] = it.size;
    ars_parallel_for(nparts, 1, red_part, &job);
    red_combine(k->comb, acc, priv, nparts, acc_bytes, acc_size);
    ars_free(priv);
    return ARS_OK;
}

#define DEF_FINISH(N, T, K)                                                       \
    static void finish_##N(char *acc, int64_t n, int kind, double count, double corr) \
    {                                                                             \
        double d = kind == ARS_FIN_MEAN ? count : count - corr;                   \
        for (int64_t i = 0; i < n; i++) {                                         \
            char *p = acc + i * (int64_t)sizeof(T);                               \
            T v = ld_##N(p);                                                      \
            if (kind == ARS_FIN_MEAN)                                             \
                v = v / (T)d;                                                     \
            else                                                                  \
                v = d > 0 ? v / (T)d : (T)NAN;                                    \
            if (kind == ARS_FIN_STD)                                              \
                v = FSQRT(v);                                                     \
            st_##N(p, v);                                                         \
        }                                                                         \
    }
#define FSQRT(v) _Generic((v), float: sqrtf, double: sqrt, ars_c64: csqrtf, ars_c128: csqrt)(v)
/* the floating and complex rows of the table (the accumulators of means) */
#define FIN_KB(X, N, T, K)
#define FIN_KI(X, N, T, K)
#define FIN_KU(X, N, T, K)
#define FIN_KF(X, N, T, K) X(N, T, K)
#define FIN_KC(X, N, T, K) X(N, T, K)
#define FIN_ROW_(X, _b, _c, N, T, K) FIN_##K(X, N, T, K)
#define FIN_DTYPES(X) ARS_DTYPES2(FIN_ROW_, X, , )
FIN_DTYPES(DEF_FINISH)

int ars_reduce_finish(int kind, char *acc, int64_t n, int acc_dtype,
                      double count, double correction)
{
    switch (acc_dtype) {
#define CASE_FINISH(N, T, K) \
    case ARS_##N: finish_##N(acc, n, kind, count, correction); return ARS_OK;
    FIN_DTYPES(CASE_FINISH)
#undef CASE_FINISH
    default:
        return ARS_ERR_DTYPE;
    }
}

/* ---- variance in one pass ------------------------------------------------------
 * The moments of the reduced elements of each result element: count, mean
 * and M2, the sum of |x - mean|^2, in float64, the mean taken of x - k for a
 * shift k, the first element the moments met (so that a large mean costs no
 * accuracy: the means that merge are of the size of the deviations). A
 * reduced run is read once from memory in blocks of MOM_BLOCK elements: each
 * block's mean and M2 come from two passes over it while it sits in L1, and
 * the blocks merge pairwise (halving the run, as the sums fold) by Chan et
 * al.'s formula
 *   n = na + nb, d = mb - ma, m = ma + d nb / n, M2 = M2a + M2b + |d|^2 na nb / n.
 * A kept innermost dim updates a row of moments per reduced step instead
 * (Welford's update: Chan's with nb = 1). The moments of the results lie in
 * MOM_FIELDS float64 arrays laid out as the result, `off` bytes apart (the
 * order of the struct below). How the work splits depends on the problem
 * alone, as ars_reduce's. */
enum { MOM_BLOCK = 512, MOM_FIELDS = 6 };

typedef struct {
    double re, im, m2, n, kre, kim;
} moments;

static inline moments mom_load(const char *m, int64_t off)
{
    moments a = {ld_FLOAT64(m), ld_FLOAT64(m + off), ld_FLOAT64(m + 2 * off),
                 ld_FLOAT64(m + 3 * off), ld_FLOAT64(m + 4 * off), ld_FLOAT64(m + 5 * off)};
    return a;
}

static inline void mom_store(char *m, int64_t off, const moments *a)
{
    st_FLOAT64(m, a->re);
    st_FLOAT64(m + off, a->im);
    st_FLOAT64(m + 2 * off, a->m2);
    st_FLOAT64(m + 3 * off, a->n);
    st_FLOAT64(m + 4 * off, a->kre);
    st_FLOAT64(m + 5 * off, a->kim);
}

/* a = the moments of a's elements and b's (a keeps its shift) */
static inline void mom_merge(moments *a, const moments *b)
{
    if (b->n == 0)
        return;
    if (a->n == 0) {
        *a = *b;
        return;
    }
    double n = a->n + b->n, f = b->n / n;
    double dr = (b->kre - a->kre) + (b->re - a->re), di = (b->kim - a->kim) + (b->im - a->im);
    a->m2 = a->m2 + b->m2 + (dr * dr + di * di) * a->n * f;
    a->re += dr * f;
    a->im += di * f;
    a->n = n;
}

/* The real and imaginary parts of an element, as double. */
#define MRE_KB(N, T, p) ((double)ld_##N(p))
#define MRE_KI MRE_KB
#define MRE_KU MRE_KB
#define MRE_KF MRE_KB
#define MRE_KC(N, T, p) ((double)creal(ld_##N(p)))
#define MRE_KN(N, T, p) T##_to_double(ld_##N(p))
#define MIM_KB(N, T, p) ((void)(p), 0.0)
#define MIM_KI MIM_KB
#define MIM_KU MIM_KB
#define MIM_KF MIM_KB
#define MIM_KN MIM_KB
#define MIM_KC(N, T, p) ((double)cimag(ld_##N(p)))
#define MCPLX_KB 0
#define MCPLX_KI 0
#define MCPLX_KU 0
#define MCPLX_KF 0
#define MCPLX_KN 0
#define MCPLX_KC 1

/* The moments (shift kr, ki) of a block of n <= MOM_BLOCK elements `S` bytes
 * apart: eight lanes of sums of the values, then of the squared deviations. */
#define MOM_BLOCK_BODY(N, T, K, S)                                                  \
    do {                                                                            \
        double sr[8] = {0}, si[8] = {0};                                            \
        int64_t i;                                                                  \
        for (i = 0; i + 8 <= n; i += 8)                                             \
            for (int k = 0; k < 8; k++) {                                           \
                sr[k] += MRE_##K(N, T, p + (i + k) * (S)) - kr;                     \
                if (MCPLX_##K)                                                      \
                    si[k] += MIM_##K(N, T, p + (i + k) * (S)) - ki;                 \
            }                                                                       \
        for (; i < n; i++) {                                                        \
            sr[0] += MRE_##K(N, T, p + i * (S)) - kr;                               \
            if (MCPLX_##K)                                                          \
                si[0] += MIM_##K(N, T, p + i * (S)) - ki;                           \
        }                                                                           \
        double mr = (((sr[0] + sr[1]) + (sr[2] + sr[3])) + ((sr[4] + sr[5]) + (sr[6] + sr[7]))) / (double)n; \
        double mi = (((si[0] + si[1]) + (si[2] + si[3])) + ((si[4] + si[5]) + (si[6] + si[7]))) / (double)n; \
        double q[8] = {0};                                                          \
        for (i = 0; i + 8 <= n; i += 8)                                             \
            for (int k = 0; k < 8; k++) {                                           \
                double dr = (MRE_##K(N, T, p + (i + k) * (S)) - kr) - mr;           \
                q[k] += dr * dr;                                                    \
                if (MCPLX_##K) {                                                    \
                    double di = (MIM_##K(N, T, p + (i + k) * (S)) - ki) - mi;       \
                    q[k] += di * di;                                                \
                }                                                                   \
            }                                                                       \
        for (; i < n; i++) {                                                        \
            double dr = (MRE_##K(N, T, p + i * (S)) - kr) - mr;                     \
            q[0] += dr * dr;                                                        \
            if (MCPLX_##K) {                                                        \
                double di = (MIM_##K(N, T, p + i * (S)) - ki) - mi;                 \
                q[0] += di * di;                                                    \
            }                                                                       \
        }                                                                           \
        r.re = mr;                                                                  \
        r.im = mi;                                                                  \
        r.m2 = ((q[0] + q[1]) + (q[2] + q[3])) + ((q[4] + q[5]) + (q[6] + q[7]));  \
        r.n = (double)n;                                                            \
        r.kre = kr;                                                                 \
        r.kim = ki;                                                                 \
    } while (0)

/* One more element for each of a row of n results (`AS` bytes apart), which
 * have all seen the same count: Welford's update of the shifted values; the
 * first element is the shift. */
#define MOM_KEPT_BODY(N, T, K, S, AS)                                               \
    do {                                                                            \
        if (cnt == 1) { /* M2 is x - x: 0, or NaN for an infinite or NaN first x */ \
            for (int64_t i = 0; i < n; i++) {                                       \
                char *q = m + i * (AS);                                             \
                double x = MRE_##K(N, T, p + i * (S)), y = MIM_##K(N, T, p + i * (S)); \
                st_FLOAT64(q + 2 * off, (x - x) + (y - y));                         \
                st_FLOAT64(q + 3 * off, 1);                                         \
                st_FLOAT64(q + 4 * off, x);                                         \
                st_FLOAT64(q + 5 * off, y);                                         \
            }                                                                       \
            break;                                                                  \
        }                                                                           \
        for (int64_t i = 0; i < n; i++) {                                           \
            char *q = m + i * (AS);                                                 \
            double x = MRE_##K(N, T, p + i * (S)) - ld_FLOAT64(q + 4 * off);        \
            double mr = ld_FLOAT64(q), v = ld_FLOAT64(q + 2 * off);                 \
            double dr = x - mr;                                                     \
            mr += dr * rc;                                                          \
            v += dr * (x - mr);                                                     \
            if (MCPLX_##K) {                                                        \
                double y = MIM_##K(N, T, p + i * (S)) - ld_FLOAT64(q + 5 * off);    \
                double mi = ld_FLOAT64(q + off);                                    \
                double di = y - mi;                                                 \
                mi += di * rc;                                                      \
                v += di * (y - mi);                                                 \
                st_FLOAT64(q + off, mi);                                            \
            }                                                                       \
            st_FLOAT64(q, mr);                                                      \
            st_FLOAT64(q + 2 * off, v);                                             \
            st_FLOAT64(q + 3 * off, cnt);                                           \
        }                                                                           \
    } while (0)

/* Columns [j0, j1) of a kept innermost dim over n1 reduced rows (g), the
 * rows MOM_ROWS at a time: a corrected two-pass variance of each column's
 * block (the sums, the means m, then the sums of d = x - m and of |d|^2
 * while the rows sit in cache: M2 = S(|d|^2) - |S(d)|^2 / nb and the mean
 * m + S(d) / nb, which undo the rounding of m), merged into the column's
 * moments by Chan's formula, the block's mean taken relative to the
 * column's shift k (its first element). The loops run along the columns,
 * four rows at a time, so they vectorize whatever the row stride. scratch
 * holds 6 (j1 - j0) doubles and 1 KiB. */
enum { MOM_ROWS = 32 };
static inline double mom_sq(double x)
{
    return x * x;
}
#define MOM_RE(N, T, K, p) MRE_##K(N, T, p)
#define MOM_IM(N, T, K, p) MIM_##K(N, T, p)
/* Over the block's nb rows (s1 bytes apart), four at a time, then one at a
 * time, and along each row's w columns: STEP##4 for four elements of a
 * column (at p0..p3 + o), STEP##1 for one. X, Y, Z, E: the step's own. */
#define MOM_ROWS_LOOP(STEP, X, Y, Z, E, N, T, K, S0)                                \
    do {                                                                            \
        int64_t r = 0;                                                              \
        for (; r + 4 <= nb; r += 4) {                                               \
            const char *p0 = rows + r * s1, *p1 = p0 + s1, *p2 = p1 + s1, *p3 = p2 + s1; \
            for (int64_t j = 0; j < w; j++) {                                       \
                int64_t o = j * (S0);                                               \
                STEP##4(X, Y, Z, E, N, T, K, p0 + o, p1 + o, p2 + o, p3 + o, j);    \
            }                                                                       \
        }                                                                           \
        for (; r < nb; r++) {                                                       \
            const char *p0 = rows + r * s1;                                         \
            for (int64_t j = 0; j < w; j++)                                         \
                STEP##1(X, Y, Z, E, N, T, K, p0 + j * (S0), j);                     \
        }                                                                           \
    } while (0)
/* X[j] += the sum of E(element) */
#define MOM_SUM4(X, Y, Z, E, N, T, K, a, b, c, d, j)                                \
    X[j] += (E(N, T, K, a) + E(N, T, K, b)) + (E(N, T, K, c) + E(N, T, K, d))
#define MOM_SUM1(X, Y, Z, E, N, T, K, a, j) X[j] += E(N, T, K, a)
/* X[j] += the sum of the deviations E(element) - Z[j], Y[j] += that of their
 * squares */
#define MOM_DEV4(X, Y, Z, E, N, T, K, a, b, c, d, j)                                \
    do {                                                                            \
        double d0 = E(N, T, K, a) - Z[j], d1 = E(N, T, K, b) - Z[j];                \
        double d2 = E(N, T, K, c) - Z[j], d3 = E(N, T, K, d) - Z[j];                \
        X[j] += (d0 + d1) + (d2 + d3);                                              \
        Y[j] += (mom_sq(d0) + mom_sq(d1)) + (mom_sq(d2) + mom_sq(d3));              \
    } while (0)
#define MOM_DEV1(X, Y, Z, E, N, T, K, a, j)                                         \
    do {                                                                            \
        double d0 = E(N, T, K, a) - Z[j];                                           \
        X[j] += d0;                                                                 \
        Y[j] += mom_sq(d0);                                                         \
    } while (0)
#define MOM_COLS_BODY(N, T, K, S0)                                                  \
    do {                                                                            \
        int64_t w = j1 - j0, s1 = g->in_s1, as = g->acc_s0, off = g->aux;           \
        /* the rows 17 doubles apart: loads never alias a store 4 KiB away */     \
        double *restrict sr = scratch, *restrict si = sr + w + 17;                  \
        double *restrict q = si + w + 17, *restrict cr = q + w + 17;                \
        double *restrict ci = cr + w + 17;                                          \
        const char *col = in + j0 * (S0);                                           \
        char *m = acc + j0 * as;                                                    \
        for (int64_t r0 = 0; r0 < g->n1; r0 += MOM_ROWS) {                          \
            int64_t nb = g->n1 - r0 < MOM_ROWS ? g->n1 - r0 : MOM_ROWS;             \
            const char *rows = col + r0 * s1;                                       \
            double na = ld_FLOAT64(m + 3 * off);                                    \
            for (int64_t j = 0; j < w; j++)                                         \
                sr[j] = si[j] = q[j] = cr[j] = ci[j] = 0;                           \
            MOM_ROWS_LOOP(MOM_SUM, sr, , , MOM_RE, N, T, K, S0);                    \
            if (MCPLX_##K)                                                          \
                MOM_ROWS_LOOP(MOM_SUM, si, , , MOM_IM, N, T, K, S0);                \
            for (int64_t j = 0; j < w; j++) {                                       \
                sr[j] /= (double)nb;                                                \
                si[j] /= (double)nb;                                                \
            }                                                                       \
            MOM_ROWS_LOOP(MOM_DEV, cr, q, sr, MOM_RE, N, T, K, S0);                 \
            if (MCPLX_##K)                                                          \
                MOM_ROWS_LOOP(MOM_DEV, ci, q, si, MOM_IM, N, T, K, S0);             \
            double n = na + (double)nb, f = (double)nb / n;                         \
            for (int64_t j = 0; j < w; j++) {                                       \
                char *a = m + j * as;                                               \
                double kr = na == 0 ? MRE_##K(N, T, rows + j * (S0)) : ld_FLOAT64(a + 4 * off); \
                double ki = na == 0 ? MIM_##K(N, T, rows + j * (S0)) : ld_FLOAT64(a + 5 * off); \
                double ar = na == 0 ? 0 : ld_FLOAT64(a), ai = na == 0 ? 0 : ld_FLOAT64(a + off); \
                double a2 = na == 0 ? 0 : ld_FLOAT64(a + 2 * off);                  \
                double b2 = q[j] - (cr[j] * cr[j] + ci[j] * ci[j]) / (double)nb;    \
                /* the block's mean relative to the shift, less a's */              \
                double dr = ((sr[j] - kr) + cr[j] / (double)nb) - ar;               \
                double di = ((si[j] - ki) + ci[j] / (double)nb) - ai;               \
                st_FLOAT64(a + 2 * off, a2 + b2 + (dr * dr + di * di) * na * f);    \
                st_FLOAT64(a, ar + dr * f);                                         \
                st_FLOAT64(a + off, ai + di * f);                                   \
                st_FLOAT64(a + 3 * off, n);                                         \
                st_FLOAT64(a + 4 * off, kr);                                        \
                st_FLOAT64(a + 5 * off, ki);                                        \
            }                                                                       \
        }                                                                           \
    } while (0)

#define DEF_MOM_L(N, T, K, L)                                                      \
    RED_LEVELED(L) static void mom_cols_##N##_l##L(const char *in, char *acc, const block_geom *g, \
                                                   int64_t j0, int64_t j1, void *scratch_) \
    {                                                                               \
        double *scratch = scratch_;                                                 \
        if (g->in_s0 == (int64_t)sizeof(T))                                         \
            MOM_COLS_BODY(N, T, K, (int64_t)sizeof(T));                             \
        else                                                                        \
            MOM_COLS_BODY(N, T, K, g->in_s0);                                       \
    }                                                                               \
    RED_LEVELED(L) static moments mom_block_##N##_l##L(const char *p, int64_t n, int64_t s, double kr, \
                                            double ki)                                      \
    {                                                                               \
        moments r;                                                                  \
        if (s == (int64_t)sizeof(T))                                                \
            MOM_BLOCK_BODY(N, T, K, (int64_t)sizeof(T));                            \
        else                                                                        \
            MOM_BLOCK_BODY(N, T, K, s);                                             \
        return r;                                                                   \
    }                                                                               \
    RED_LEVELED(L) static void mom_loop_kept_##N##_l##L(char **data, int64_t n, const int64_t *strides, \
                                             void *ctx)                                      \
    {                                                                               \
        int64_t off = *(const int64_t *)ctx, s = strides[0], as = strides[1];       \
        const char *p = data[0];                                                    \
        char *m = data[1];                                                          \
        double cnt = ld_FLOAT64(m + 3 * off) + 1, rc = 1 / cnt;                     \
        if (s == (int64_t)sizeof(T) && as == (int64_t)sizeof(double))              \
            MOM_KEPT_BODY(N, T, K, (int64_t)sizeof(T), (int64_t)sizeof(double));    \
        else                                                                        \
            MOM_KEPT_BODY(N, T, K, s, as);                                          \
    }
#define DEF_MOM(N, T, K)                                                            \
    RED_STAMP(DEF_MOM_L, N, T, K)                                               \
    static moments mom_block_##N(const char *p, int64_t n, int64_t s, double kr, double ki) \
    {                                                                           \
        return RED_PICK(mom_block_##N)(p, n, s, kr, ki);                        \
    }                                                                           \
    static void mom_loop_kept_##N(char **data, int64_t n, const int64_t *strides, void *ctx) \
    {                                                                           \
        RED_PICK(mom_loop_kept_##N)(data, n, strides, ctx);                     \
    }                                                                           \
    static void mom_cols_##N(const char *in, char *acc, const block_geom *g, int64_t j0, \
                             int64_t j1, void *scratch)                         \
    {                                                                           \
        RED_PICK(mom_cols_##N)(in, acc, g, j0, j1, scratch);                    \
    }                                                                           \
    static moments mom_run_##N(const char *p, int64_t n, int64_t s, double kr, double ki) \
    {                                                                               \
        if (n <= MOM_BLOCK)                                                         \
            return mom_block_##N(p, n, s, kr, ki);                                  \
        int64_t h = n / 2 / MOM_BLOCK * MOM_BLOCK;                                  \
        if (h == 0)                                                                 \
            h = MOM_BLOCK;                                                          \
        moments a = mom_run_##N(p, h, s, kr, ki);                                   \
        moments b = mom_run_##N(p + h * s, n - h, s, kr, ki);                       \
        mom_merge(&a, &b);                                                          \
        return a;                                                                   \
    }                                                                               \
    /* a reduced innermost dim: the run's moments merge into its result's */        \
    static void mom_loop_red_##N(char **data, int64_t n, const int64_t *strides, void *ctx) \
    {                                                                               \
        int64_t off = *(const int64_t *)ctx;                                        \
        moments a = mom_load(data[1], off);                                         \
        if (a.n == 0) {                                                             \
            a.kre = MRE_##K(N, T, data[0]);                                         \
            a.kim = MIM_##K(N, T, data[0]);                                         \
        }                                                                           \
        moments r = mom_run_##N(data[0], n, strides[0], a.kre, a.kim);              \
        mom_merge(&a, &r);                                                          \
        mom_store(data[1], off, &a);                                                \
    }
ARS_STORAGE_DTYPES(DEF_MOM)

typedef struct {
    ars_loop_fn red, kept;
    red_block_fn cols;
} mom_kernel;
static const mom_kernel mom_table[ARS_NDTYPES] = {
#define ENT_MOM(N, T, K) [ARS_##N] = {mom_loop_red_##N, mom_loop_kept_##N, mom_cols_##N},
    ARS_STORAGE_DTYPES(ENT_MOM)
#undef ENT_MOM
};

enum { MOM_BYTES = MOM_FIELDS * (int)sizeof(double) };

/* One result: parts of the iteration with private moments (part 0 the
 * result's own), merged in a fixed tree. */
typedef struct {
    const ars_iter *it;
    ars_loop_fn loop;
    int64_t off;
    char *priv;        /* nparts - 1 private moments, MOM_BYTES apart */
    int64_t bounds[RED_MAX_PARTS + 1];
} mom_job;

static void mom_part(int64_t begin, int64_t end, void *p)
{
    const mom_job *job = p;
    ars_iter it = *job->it;
    for (int64_t part = begin; part < end; part++) {
        int64_t off = job->off;
        if (part > 0) {
            it.data[1] = job->priv + (part - 1) * MOM_BYTES;
            off = sizeof(double);
        }
        ars_iter_run_range(&it, job->loop, &off, job->bounds[part], job->bounds[part + 1]);
    }
}

/* a's one set of moments (fields a double apart) merged with b's: the
 * combine step of red_combine's tree */
static void mom_comb(char *a, const char *b, int64_t n)
{
    (void)n;
    moments ma = mom_load(a, sizeof(double)), mb = mom_load(b, sizeof(double));
    mom_merge(&ma, &mb);
    mom_store(a, sizeof(double), &ma);
}

static int mom_one_result(const ars_iter *it, ars_loop_fn loop, char *mom, int64_t nparts)
{
    char *priv = ars_alloc_zeroed((nparts - 1) * MOM_BYTES);
    if (!priv)
        return ARS_ERR_NOMEM;
    mom_job job = {it, loop, sizeof(double), priv, {0}};
    tree_bounds(0, it->size, nparts, MOM_BLOCK, job.bounds);
    job.bounds[nparts] = it->size;
    ars_parallel_for(nparts, 1, mom_part, &job);
    red_combine(mom_comb, mom, priv, nparts, MOM_BYTES, 1);
    ars_free(priv);
    return ARS_OK;
}

/* The moments of two rows of n results (fields n doubles apart) merged:
 * a's = a's and b's. */
static void mom_comb_row(char *a, const char *b, int64_t n)
{
    int64_t off = n * (int64_t)sizeof(double);
    for (int64_t j = 0; j < n; j++) {
        moments ma = mom_load(a + j * sizeof(double), off);
        moments mb = mom_load(b + j * sizeof(double), off);
        mom_merge(&ma, &mb);
        mom_store(a + j * sizeof(double), off, &ma);
    }
}

/* A 2-D variance over rows into a contiguous row of moments (fields off
 * bytes apart): rows_run, the parts multiples of MOM_ROWS rows, so that the
 * blocks, and the bits, are those of one part. */
static int var_rows(const ars_iter *it, red_block_fn cols, int64_t isz, int64_t off)
{
    rows_plan pl = {cols, mom_comb_row, NULL, MOM_ROWS, MOM_ROWS, MOM_FIELDS * off,
                    sizeof(double), off, 6 * sizeof(double)};
    return rows_run(it, &pl, isz);
}

int ars_var(int ndim, const int64_t *shape, const char *in, const int64_t *in_strides,
            int in_dtype, double *m2, const int64_t *m2_strides, int64_t m2_size)
{
    if (in_dtype < 0 || in_dtype >= ARS_NDTYPES)
        return ARS_ERR_DTYPE;
    if (ndim < 0 || ndim > ARS_MAX_DIMS)
        return ARS_ERR_NDIM;
    const mom_kernel *k = &mom_table[in_dtype];
    if (!k->red)
        return ARS_ERR_DTYPE;
    int64_t off = m2_size * (int64_t)sizeof(double);
    char *mom = ars_alloc_zeroed(off > 0 ? MOM_FIELDS * off : MOM_BYTES);
    if (!mom)
        return ARS_ERR_NOMEM;
    ars_iter it;
    char *data[2] = {(char *)in, mom};
    const int64_t *st[2] = {in_strides, m2_strides};
    int rc = ars_iter_prepare(&it, ndim, shape, 2, data, st);
    int64_t isz = ars_itemsize[in_dtype];
    if (rc || it.size == 0) {
        /* an error, or nothing to reduce */
    } else if (it.ndim >= 2 && it.strides[1][0] != 0 && it.strides[1][1] == 0) {
        /* a kept innermost dim over a reduced one: blocks of rows */
        if (it.ndim == 2 && it.strides[1][0] == (int64_t)sizeof(double))
            rc = var_rows(&it, k->cols, isz, off);
        else
            rc = reduce_blocks(&it, k->cols, isz, off);
    } else if (it.strides[1][0] != 0) {
        /* a kept innermost dim: chunks of its columns when it is wide */
        if (it.ndim >= 2 && it.shape[0] >= 2 * ROW_CHUNK) {
            int64_t width = chunk_width(it.shape[0]);
            int64_t grain = ars_parallel_grain(isz) / (it.size / it.shape[0] * width);
            cols_job job = {&it, k->kept, width, &off};
            ars_parallel_for((it.shape[0] + width - 1) / width, grain < 1 ? 1 : grain,
                             cols_part, &job);
        } else {
            ars_iter_run_range(&it, k->kept, &off, 0, it.size);
        }
    } else {
        int r = 0;
        int64_t inner = 1;
        while (r < it.ndim && it.strides[1][r] == 0)
            inner *= it.shape[r++];
        int kept_outside = r < it.ndim;
        for (int d = r; d < it.ndim; d++)
            kept_outside &= it.strides[1][d] != 0;
        int64_t nparts = m2_size == 1 ? red_parts(it.size, isz, RED_MAX_PARTS) : 1;
        if (kept_outside) {
            int64_t grain = ars_parallel_grain(isz) / inner;
            runs_job job = {&it, k->red, inner, &off};
            ars_parallel_for(it.size / inner, grain < 1 ? 1 : grain, runs_part, &job);
        } else if (nparts > 1) {
            rc = mom_one_result(&it, k->red, mom, nparts);
        } else {
            ars_iter_run_range(&it, k->red, &off, 0, it.size);
        }
    }
    if (!rc) {
        memcpy(m2, mom + 2 * off, (size_t)off);
        /* A NaN result is the one quiet NaN: which NaN operand an addition
         * passes on (x86 passes its first) depends on how the compiler
         * ordered it, which differs between SIMD levels. */
        for (int64_t i = 0; i < m2_size; i++)
            if (m2[i] != m2[i])
                m2[i] = NAN;
    }
    ars_free(mom);
    return rc;
}
