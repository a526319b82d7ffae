/* Internal declarations shared by the kernel sources: the dtype X-macro list,
 * the strided iterator and the thread pool. Not read by cffi. */
#ifndef ARS_INTERNAL_H
#define ARS_INTERNAL_H

#include <stdint.h>
#include <stddef.h>
#include <complex.h>
#include <string.h>
#include "arrstride.h"

typedef float _Complex ars_c64;
typedef double _Complex ars_c128;
/* One float16 element: its IEEE binary16 bits. A struct, so that no code does
 * arithmetic on the bits by mistake. */
typedef struct { uint16_t bits; } ars_f16;

/* float16 -> float: exact (NaN keeps its payload, as NumPy's conversion). */
static inline float ars_h2f(ars_f16 h)
{
    uint32_t s = (uint32_t)(h.bits & 0x8000u) << 16, e = (h.bits >> 10) & 0x1fu, m = h.bits & 0x3ffu;
    uint32_t f;
    if (e == 0x1f)
        f = s | 0x7f800000u | (m << 13);
    else if (e)
        f = s | ((e + 112u) << 23) | (m << 13);
    else if (m) {
        float v = (float)m * 0x1p-24f;  /* subnormal: exact in float */
        memcpy(&f, &v, sizeof f);
        f |= s;
    } else
        f = s;
    float r;
    memcpy(&r, &f, sizeof r);
    return r;
}

/* float16 -> double: exact, and a signaling NaN stays signaling (a float's
 * conversion to double would quiet it; NumPy's casts keep the bits). */
static inline double ars_h2d(ars_f16 h)
{
    if ((h.bits & 0x7c00u) != 0x7c00u)
        return (double)ars_h2f(h);
    uint64_t b = ((uint64_t)(h.bits & 0x8000u) << 48) | 0x7ff0000000000000ull |
                 ((uint64_t)(h.bits & 0x3ffu) << 42);
    double r;
    memcpy(&r, &b, sizeof r);
    return r;
}

/* double -> float16, rounded once to nearest even: overflow to +-inf (from
 * 65520 on), subnormals, NaN kept NaN (its top payload bits, as NumPy's
 * npy_doublebits_to_halfbits). A float converts exactly to double first, so
 * ars_d2h((double)f) is also the float -> float16 conversion. */
static inline ars_f16 ars_d2h(double x)
{
    uint64_t d;
    memcpy(&d, &x, sizeof d);
    uint16_t s = (uint16_t)((d >> 48) & 0x8000u);
    uint64_t a = d & 0x7fffffffffffffffull;
    uint16_t h;
    if (a >= 0x7ff0000000000000ull) {                   /* inf, NaN */
        h = (uint16_t)(0x7c00u | ((a & 0xfffffffffffffull) >> 42));
        if (a != 0x7ff0000000000000ull && h == 0x7c00u)
            h = 0x7c01u;
    } else if (a >= 0x40effe0000000000ull) {            /* >= 65520: inf */
        h = 0x7c00u;
    } else if (a >= 0x3f10000000000000ull) {            /* normal: >= 2**-14 */
        uint64_t r = a - ((uint64_t)1008 << 52);        /* rebias 1023 -> 15 */
        r += ((uint64_t)1 << 41) - 1 + ((r >> 42) & 1);
        h = (uint16_t)(r >> 42);
    } else if (a > 0x3e60000000000000ull) {             /* subnormal: > 2**-25 */
        int e = (int)(a >> 52);                         /* 998 .. 1008 */
        uint64_t m = (a & 0xfffffffffffffull) | ((uint64_t)1 << 52);
        int sh = 1051 - e;                              /* 43 .. 53 */
        uint64_t q = m >> sh, rem = m & (((uint64_t)1 << sh) - 1), half = (uint64_t)1 << (sh - 1);
        if (rem > half || (rem == half && (q & 1)))
            q++;
        h = (uint16_t)q;
    } else {
        h = 0;                                          /* 2**-25 itself ties to 0 */
    }
    ars_f16 r = {(uint16_t)(s | h)};
    return r;
}

/* float -> float16: through double (exact), except NaN, whose bits are kept
 * as they are (a signaling NaN stays signaling, as in NumPy's casts). */
static inline ars_f16 ars_f2h(float x)
{
    uint32_t f;
    memcpy(&f, &x, sizeof f);
    if ((f & 0x7fffffffu) <= 0x7f800000u)
        return ars_d2h((double)x);
    uint16_t h = (uint16_t)(((f >> 16) & 0x8000u) | 0x7c00u | ((f & 0x7fffffu) >> 13));
    if ((h & 0x3ffu) == 0)
        h |= 1;
    ars_f16 r = {h};
    return r;
}

/* float16's conversions under the names the table's macros build from its C type. */
static inline float ars_f16_to_float(ars_f16 v) { return ars_h2f(v); }
static inline double ars_f16_to_double(ars_f16 v) { return ars_h2d(v); }
static inline ars_f16 ars_f16_from_float(float x) { return ars_f2h(x); }
static inline ars_f16 ars_f16_from_double(double x) { return ars_d2h(x); }
static inline ars_f16 ars_f16_from_int(int64_t x) { return ars_d2h((double)x); }
static inline ars_f16 ars_f16_from_uint(uint64_t x) { return ars_d2h((double)x); }
enum { ars_f16_dl_code = 2 /* kDLFloat */ };

/* One bfloat16 element: the top 16 bits of an IEEE float32 (PyTorch's rules:
 * widening is exact; float -> bfloat16 rounds to nearest even on the bits, a
 * NaN keeps its sign and top payload with the quiet bit set; every wider
 * source goes through float first, two roundings, as PyTorch casts). */
typedef struct { uint16_t bits; } ars_bf16;
static inline float ars_bf16_to_float(ars_bf16 v)
{
    uint32_t f = (uint32_t)v.bits << 16;
    float r;
    memcpy(&r, &f, sizeof r);
    return r;
}
static inline double ars_bf16_to_double(ars_bf16 v) { return (double)ars_bf16_to_float(v); }
static inline ars_bf16 ars_bf16_from_float(float x)
{
    uint32_t f;
    memcpy(&f, &x, sizeof f);
    ars_bf16 r;
    if ((f & 0x7fffffffu) > 0x7f800000u)
        r.bits = (uint16_t)((f >> 16) | 0x40u);
    else
        r.bits = (uint16_t)((f + 0x7fffu + ((f >> 16) & 1u)) >> 16);
    return r;
}
static inline ars_bf16 ars_bf16_from_double(double x) { return ars_bf16_from_float((float)x); }
static inline ars_bf16 ars_bf16_from_int(int64_t x) { return ars_bf16_from_float((float)x); }
static inline ars_bf16 ars_bf16_from_uint(uint64_t x) { return ars_bf16_from_float((float)x); }
enum { ars_bf16_dl_code = 4 /* kDLBfloat */ };

/* ---- the C dtype table ------------------------------------------------------
 * X(NAME, C type, kind): kind is KB (bool), KI (signed), KU (unsigned),
 * KF (real float), KC (complex) or KN (narrow float, below). Bool is stored as
 * one byte holding 0 or 1. ARS_REAL_DTYPES: the real dtypes with kernels (those
 * with an order); ARS_DTYPES: every dtype with kernels. */
#define ARS_REAL_DTYPES(X)          \
    X(BOOL, uint8_t, KB)            \
    X(INT8, int8_t, KI)             \
    X(INT16, int16_t, KI)           \
    X(INT32, int32_t, KI)           \
    X(INT64, int64_t, KI)           \
    X(UINT8, uint8_t, KU)           \
    X(UINT16, uint16_t, KU)         \
    X(UINT32, uint32_t, KU)         \
    X(UINT64, uint64_t, KU)         \
    X(FLOAT32, float, KF)           \
    X(FLOAT64, double, KF)

#define ARS_DTYPES(X)               \
    ARS_REAL_DTYPES(X)              \
    X(COMPLEX64, ars_c64, KC)       \
    X(COMPLEX128, ars_c128, KC)

/* Narrow floats (kind KN) are storage dtypes: kept as their bits and computed
 * in float32 (DType.compute), so the kernel lists above leave them out. The
 * kernels that take them stamp them in on their own: elementwise loops
 * through float32 blocks (ew_narrow.h), reductions, scans and lanes reading
 * them through float (stats_internal.h), sorting, selection, unique and
 * searchsorted ordering them by their bits; an entry point that has no
 * kernel for one returns ARS_ERR_DTYPE (ars_has_kernels tells which dtypes
 * the kernel lists hold). The storage lists add them: item sizes, casts,
 * DLPack codes, _core's scalar read and pack. A narrow C type T comes with, beside
 * its row here: T##_to_float, T##_to_double (exact), T##_from_float,
 * T##_from_double, T##_from_int (int64_t), T##_from_uint (uint64_t) and
 * T##_dl_code (its DLPack type code). A new narrow dtype is: its enum line in
 * arrstride.h, its type and conversions above, one row in each list below,
 * its row in arrstride/_dtypes.py. */
#define ARS_NARROW_DTYPES(X)        \
    X(FLOAT16, ars_f16, KN)         \
    X(BFLOAT16, ars_bf16, KN)
#define ARS_STORAGE_DTYPES(X) ARS_DTYPES(X) ARS_NARROW_DTYPES(X)

/* The same lists under a second name, for nesting inside ARS_DTYPES (a macro
 * cannot expand itself); checked against the first below. */
#define ARS_DTYPES2(X, A, B_, C_)         \
    X(A, B_, C_, BOOL, uint8_t, KB)        \
    X(A, B_, C_, INT8, int8_t, KI)         \
    X(A, B_, C_, INT16, int16_t, KI)       \
    X(A, B_, C_, INT32, int32_t, KI)       \
    X(A, B_, C_, INT64, int64_t, KI)       \
    X(A, B_, C_, UINT8, uint8_t, KU)       \
    X(A, B_, C_, UINT16, uint16_t, KU)     \
    X(A, B_, C_, UINT32, uint32_t, KU)     \
    X(A, B_, C_, UINT64, uint64_t, KU)     \
    X(A, B_, C_, FLOAT32, float, KF)       \
    X(A, B_, C_, FLOAT64, double, KF)      \
    X(A, B_, C_, COMPLEX64, ars_c64, KC)   \
    X(A, B_, C_, COMPLEX128, ars_c128, KC)
#define ARS_NARROW_DTYPES2(X, A, B_, C_)  \
    X(A, B_, C_, FLOAT16, ars_f16, KN)     \
    X(A, B_, C_, BFLOAT16, ars_bf16, KN)
#define ARS_STORAGE_DTYPES2(X, A, B_, C_) \
    ARS_DTYPES2(X, A, B_, C_) ARS_NARROW_DTYPES2(X, A, B_, C_)

/* The copy agrees with the table: the same names in the same order, of the
 * same C types (a compile error names the first row that differs). */
#define ARS_POS1_(N, T, K) ARS_POS1_##N,
#define ARS_POS2_(A, B_, C_, N, T, K) ARS_POS2_##N,
enum { ARS_STORAGE_DTYPES(ARS_POS1_) ARS_NPOS1_ };
enum { ARS_STORAGE_DTYPES2(ARS_POS2_, , , ) ARS_NPOS2_ };
#define ARS_CHECK_ROW_(N, T, K) _Static_assert((int)ARS_POS1_##N == (int)ARS_POS2_##N && \
    (int)ARS_POS1_##N == (int)ARS_##N, "ARS_DTYPES2 differs from ARS_DTYPES at " #N);
ARS_STORAGE_DTYPES(ARS_CHECK_ROW_)
_Static_assert((int)ARS_NPOS1_ == (int)ARS_NPOS2_ && (int)ARS_NPOS1_ == (int)ARS_NDTYPES,
               "ARS_STORAGE_DTYPES2, ARS_STORAGE_DTYPES and the enum in arrstride.h differ");
#undef ARS_CHECK_ROW_

/* Whether a dtype has kernels (a row of ARS_DTYPES): entry points refuse the
 * others with ARS_ERR_DTYPE. */
static inline int ars_has_kernels(int dtype)
{
    switch (dtype) {
#define ARS_CASE_(N, T, K) case ARS_##N:
    ARS_DTYPES(ARS_CASE_)
#undef ARS_CASE_
        return 1;
    default:
        return 0;
    }
}

/* Whether a dtype is floating (real, complex or narrow); whether complex (below). */
#define ARS_INEXACT_KB 0
#define ARS_INEXACT_KI 0
#define ARS_INEXACT_KU 0
#define ARS_INEXACT_KF 1
#define ARS_INEXACT_KC 1
#define ARS_INEXACT_KN 1
#define ARS_COMPLEX_KB 0
#define ARS_COMPLEX_KI 0
#define ARS_COMPLEX_KU 0
#define ARS_COMPLEX_KF 0
#define ARS_COMPLEX_KC 1
#define ARS_COMPLEX_KN 0
static inline int ars_is_inexact(int dtype)
{
    switch (dtype) {
#define ARS_CASE_(N, T, K) case ARS_##N: return ARS_INEXACT_##K;
    ARS_STORAGE_DTYPES(ARS_CASE_)
#undef ARS_CASE_
    default:
        return 0;
    }
}

/* Whether a dtype is complex. */
static inline int ars_is_complex(int dtype)
{
    switch (dtype) {
#define ARS_CASE_(N, T, K) case ARS_##N: return ARS_COMPLEX_##K;
    ARS_STORAGE_DTYPES(ARS_CASE_)
#undef ARS_CASE_
    default:
        return 0;
    }
}

extern const int64_t ars_itemsize[ARS_NDTYPES];

/* ---- kernels that only move elements go by item size ------------------------
 * One raw item type per size (complex128 is the one 16-byte item), loops
 * instantiated once per size with ARS_ITEM_TYPES, and picked from a table
 * indexed by ars_size_class:
 *     static const ars_loop_fn loops[] = ARS_SIZE_TABLE(copy_);
 *     int sc = ars_size_class(itemsize);   (-1: not 1, 2, 4, 8 or 16) */
typedef struct { uint64_t lo, hi; } ars_item16;
#define ARS_ITEM_TYPES(X) X(uint8_t) X(uint16_t) X(uint32_t) X(uint64_t) X(ars_item16)
#define ARS_SIZE_TABLE(prefix) \
    {prefix##uint8_t, prefix##uint16_t, prefix##uint32_t, prefix##uint64_t, prefix##ars_item16}
static inline int ars_size_class(int64_t itemsize)
{
    switch (itemsize) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    case 16: return 4;
    default: return -1;
    }
}

/* The few Python C-API functions the library calls (owner.c, dlpack.c), handed
 * over once from ctypes.pythonapi by ars_set_python_api, since the extension is
 * built without Python.h. Every call but gil_ensure needs the GIL held. */
struct ars_python_api {
    int (*gil_ensure)(void);
    void (*gil_release)(int);
    void (*err_fetch)(void **, void **, void **);
    void (*err_restore)(void *, void *, void *);
    void *(*capsule_get_pointer)(void *, const char *);
    void (*buffer_release)(void *);
};
extern struct ars_python_api ars_py;

/* Enter Python from C: take the GIL (reentrant) and set any pending exception
 * aside; ars_leave_python puts both back. */
typedef struct {
    int state;
    void *type, *value, *traceback;
} ars_python_entry;

static inline void ars_enter_python(ars_python_entry *e)
{
    e->state = ars_py.gil_ensure();
    ars_py.err_fetch(&e->type, &e->value, &e->traceback);
}

static inline void ars_leave_python(ars_python_entry *e)
{
    ars_py.err_restore(e->type, e->value, e->traceback);
    ars_py.gil_release(e->state);
}

/* Float to integer, as NumPy does on x86-64 (whose C conversions compile to
 * cvttsd2si), so that arrstride gives NumPy's result on every platform
 * (NumPy's own differ on ARM; C leaves them undefined):
 * - a signed conversion of 32 or 64 bits truncates a value in its range, and
 *   gives its width's minimum for anything else, NaN and +-inf included;
 * - int8, int16, uint8 and uint16 convert through int32, int32 and int64
 *   directly, then wrap to the target's width;
 * - uint32 and uint64: a value >= 0 in range converts exactly, beyond the
 *   range gives 0; a negative value or NaN goes through the signed conversion
 *   of the same width and wraps (-1.0 -> 2**64 - 1, NaN -> 2**63).
 * tests/test_dtypes.py checks every case against NumPy. */
static inline int32_t ars_f2i32(double v)
{
    return (v > -2147483649.0 && v < 2147483648.0) ? (int32_t)v : INT32_MIN;
}

static inline int64_t ars_f2i64(double v)
{
    return (v >= -9223372036854775808.0 && v < 9223372036854775808.0) ? (int64_t)v : INT64_MIN;
}

static inline uint32_t ars_f2u32(double v)
{
    if (v >= 0)
        return v < 4294967296.0 ? (uint32_t)v : 0;
    return (uint32_t)ars_f2i32(v);
}

static inline uint64_t ars_f2u64(double v)
{
    if (v >= 0)
        return v < 18446744073709551616.0 ? (uint64_t)v : 0;
    return (uint64_t)ars_f2i64(v);
}

/* To the signed (_I) or unsigned (_U) integer type T of any width, by the
 * rules above. */
#define ARS_F2INT_I(T, v) ((T)(sizeof(T) == 8 ? (T)ars_f2i64(v) : (T)ars_f2i32(v)))
#define ARS_F2INT_U(T, v)                                                         \
    ((T)(sizeof(T) == 8 ? (T)ars_f2u64(v) : sizeof(T) == 4 ? (T)ars_f2u32(v) : (T)ars_f2i32(v)))

/* ---- iterator ------------------------------------------------------------ */

/* Inner loop over n elements: data[op] points at the first element of
 * operand op, strides[op] is its byte stride. */
typedef void (*ars_loop_fn)(char **data, int64_t n, const int64_t *strides, void *ctx);

typedef struct {
    int ndim;                 /* prepared dims; shape[0] is the innermost */
    int nop;
    int64_t size;             /* total elements; 0 means nothing to do */
    int64_t shape[ARS_MAX_DIMS];
    int64_t strides[ARS_MAX_OPS][ARS_MAX_DIMS];
    char *data[ARS_MAX_OPS];
    /* item[op] > 0: the loop reads operand op >= 1 (an input) as items of
     * that many bytes and nothing else, or writes operand 0 (its output) so,
     * and a tiled run may hand the loop a dense buffer in its place: a tile of
     * an input copied in, transposed; the output's tile written out from it
     * with non-temporal stores. 0 (what ars_iter_prepare sets): the loop gets
     * the operand itself. */
    int64_t item[ARS_MAX_OPS];
} ars_iter;

/* Outputs of at least this many bytes are written with non-temporal stores
 * where that is possible (ew_loops.h says why and when). */
enum { ARS_STREAM_TOTAL_BYTES = 1 << 24 };

/* Prepare: drop size-1 dims, flip dims whose leading operand runs backwards
 * (for every operand together), order dims by operand 0's stride (then the
 * next operands'), coalesce dims that merge for every operand.
 * strides[op][d] are given outermost-first, as in Python. */
int ars_iter_prepare(ars_iter *it, int ndim, const int64_t *shape, int nop,
                     char *const *data, const int64_t *const *strides);

/* Run the loop over elements [begin, end) of the prepared iteration order. */
void ars_iter_run_range(const ars_iter *it, ars_loop_fn loop, void *ctx,
                        int64_t begin, int64_t end);

/* Run the loop over everything, on several threads when the work is large.
 * `work_per_elem` is a rough cost in bytes touched per element. */
void ars_iter_run(const ars_iter *it, ars_loop_fn loop, void *ctx, int64_t work_per_elem);

/* Run the loop over elements [begin, end) of shape in C order (the last dim
 * fastest; dims neither reordered nor merged): one call per run along the
 * last dim, or one call with n = 1 for 0 dims. For kernels whose output
 * position follows the C order (a boolean mask's gather, nonzero), which
 * split [0, size) into parts for the pool. */
void ars_corder_run_range(int ndim, const int64_t *shape, int nop, char *const *data,
                          const int64_t *const *strides, int64_t begin, int64_t end,
                          ars_loop_fn loop, void *ctx);

/* A C-order walk (the last dim fastest) over the nd dims of shape, moving
 * nop pointers by their byte strides strides[op][d], one element at a time:
 * for loops that take whole items one by one in C order (the FFT's lines).
 * ars_walk_seek puts the pointers (at element 0 when called) at element pos;
 * ars_walk_next moves them to the next element (back to element 0 after the
 * last). */
typedef struct {
    int nd, nop;
    const int64_t *shape;
    const int64_t *const *strides;
    int64_t idx[ARS_MAX_DIMS];
} ars_walk;
void ars_walk_seek(ars_walk *w, char **ptr, int64_t pos);
void ars_walk_next(ars_walk *w, char **ptr);

/* The number of C-order parts for n elements of a kernel that makes two
 * passes over them (count, then write): at most ARS_CORDER_PARTS, each at
 * least a parallel grain; a function of n alone, never of the thread count. */
enum { ARS_CORDER_PARTS = 64 };
int64_t ars_corder_parts(int64_t n, int64_t work_per_elem);

/* work_per_elem for ars_iter_go: run on the calling thread alone, in the
 * prepared order (loops that accumulate into their ctx). */
enum { ARS_ITER_SERIAL = -1 };

/* Prepare and run in one call: ars_iter_prepare's status, else ARS_OK (iter.c). */
int ars_iter_go(int ndim, const int64_t *shape, int nop, char *const *data,
                const int64_t *const *strides, ars_loop_fn loop, void *ctx, int64_t work_per_elem);

/* ars_iter_go for an elementwise loop: it writes operand 0 and reads operand
 * op >= 1 as items of items[op] bytes and nothing else (ars_iter's item), so
 * that transposed operands go through dense tiles; items NULL: no buffers. */
int ars_iter_go_items(int ndim, const int64_t *shape, int nop, char *const *data,
                      const int64_t *const *strides, const int64_t *items, ars_loop_fn loop,
                      void *ctx, int64_t work_per_elem);

/* The loop of ars_cast from src_dtype into dst_dtype (two operands: the
 * destination, then the source), or NULL for a code out of range (copy.c). */
ars_loop_fn ars_cast_loop(int dst_dtype, int src_dtype);

/* ---- threads ------------------------------------------------------------- */

/* The start of part t of nt equal parts of [0, n): n * t / nt without
 * forming n * t, which overflows for n near INT64_MAX (0 <= t <= nt). */
static inline int64_t ars_split(int64_t n, int64_t t, int64_t nt)
{
    return n / nt * t + n % nt * t / nt;
}

typedef void (*ars_range_fn)(int64_t begin, int64_t end, void *ctx);
/* Split [0, n) into contiguous chunks, each at least `grain` long (at most a
 * few per thread), and run fn once per chunk on the calling thread and the
 * pool's workers, each chunk exactly once, in no fixed order or thread; returns
 * when all are done. Called inside a region, or while another thread runs one,
 * it runs fn(0, n) on the calling thread. */
void ars_parallel_for(int64_t n, int64_t grain, ars_range_fn fn, void *ctx);

/* Elements below which work stays on one thread, for a given bytes/element. */
int64_t ars_parallel_grain(int64_t work_per_elem);

/* Ctrl-C (interrupt.c): SIGINTs counted while a caller is armed, and the count
 * at this thread's arming (-1: not armed). */
extern uint64_t ars_sigint_count;
extern _Thread_local int64_t ars_intr_base;
/* True on an armed thread once a SIGINT has arrived since it was armed: a
 * long kernel tests it between blocks of work (a few ms apart) and returns
 * early, its output unspecified; Python then drops the output. */
static inline int ars_interrupted(void)
{
    int64_t b = ars_intr_base;
    return b >= 0 && (int64_t)__atomic_load_n(&ars_sigint_count, __ATOMIC_RELAXED) != b;
}

#endif
