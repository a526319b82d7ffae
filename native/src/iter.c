/* The one strided iterator every kernel runs on. */
#include <string.h>
#include "ars_internal.h"
#include "platform.h"

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* Is dim a to be iterated inside dim b?  Compare operand strides in order. */
static int inner_before(const ars_iter *it, int a, int b)
{
    for (int op = 0; op < it->nop; op++) {
        int64_t sa = abs64(it->strides[op][a]), sb = abs64(it->strides[op][b]);
        if (sa == 0 || sb == 0)
            continue;  /* a broadcast dim says nothing about order */
        if (sa != sb)
            return sa < sb;
    }
    return 0;
}

int ars_iter_prepare(ars_iter *it, int ndim, const int64_t *shape, int nop,
                     char *const *data, const int64_t *const *strides)
{
    if (ndim < 0 || ndim > ARS_MAX_DIMS || nop < 1 || nop > ARS_MAX_OPS)
        return ARS_ERR_NDIM;
    it->nop = nop;
    it->size = 1;
    it->ndim = 0;
    for (int op = 0; op < nop; op++) {
        it->data[op] = data[op];
        it->item[op] = 0;
    }
    int empty = 0;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] < 0)
            return ARS_ERR_ARG;
        empty |= shape[d] == 0;
    }
    if (empty) {  /* nothing to do, however large the other dims */
        it->size = 0;
        return ARS_OK;
    }
    /* An element count past int64 (a broadcast view of 2**64 elements) is
     * refused, never wrapped. */
    for (int d = 0; d < ndim; d++)
        if (__builtin_mul_overflow(it->size, shape[d], &it->size))
            return ARS_ERR_SIZE;

    /* Drop size-1 dims; store innermost first. */
    int n = 0;
    for (int d = ndim - 1; d >= 0; d--) {
        if (shape[d] == 1)
            continue;
        it->shape[n] = shape[d];
        for (int op = 0; op < nop; op++)
            it->strides[op][n] = strides[op][d];
        n++;
    }

    /* Flip dims where the first operand that moves runs backwards. */
    for (int d = 0; d < n; d++) {
        int64_t lead = 0;
        for (int op = 0; op < nop && lead == 0; op++)
            lead = it->strides[op][d];
        if (lead >= 0)
            continue;
        for (int op = 0; op < nop; op++) {
            it->data[op] += (it->shape[d] - 1) * it->strides[op][d];
            it->strides[op][d] = -it->strides[op][d];
        }
    }

    /* Insertion sort, stable: smallest strides innermost. */
    for (int i = 1; i < n; i++) {
        for (int j = i; j > 0 && inner_before(it, j, j - 1); j--) {
            int64_t t = it->shape[j];
            it->shape[j] = it->shape[j - 1];
            it->shape[j - 1] = t;
            for (int op = 0; op < nop; op++) {
                t = it->strides[op][j];
                it->strides[op][j] = it->strides[op][j - 1];
                it->strides[op][j - 1] = t;
            }
        }
    }

    /* Coalesce: dim d+1 folds into the merged dim when every operand agrees. */
    int m = 0;
    for (int d = 1; d < n; d++) {
        int ok = 1;
        for (int op = 0; op < nop && ok; op++) {
            int64_t reach;  /* a product past int64 cannot equal a stride */
            ok = !__builtin_mul_overflow(it->shape[m], it->strides[op][m], &reach) &&
                 it->strides[op][d] == reach;
        }
        if (ok) {
            it->shape[m] *= it->shape[d];
        } else {
            m++;
            it->shape[m] = it->shape[d];
            for (int op = 0; op < nop; op++)
                it->strides[op][m] = it->strides[op][d];
        }
    }
    it->ndim = n == 0 ? 0 : m + 1;
    return ARS_OK;
}

void ars_iter_run_range(const ars_iter *it, ars_loop_fn loop, void *ctx,
                        int64_t begin, int64_t end)
{
    int nop = it->nop;
    char *ptr[ARS_MAX_OPS];
    int64_t inner[ARS_MAX_OPS];
    if (begin >= end)
        return;
    if (it->ndim == 0) {
        for (int op = 0; op < nop; op++) {
            ptr[op] = it->data[op];
            inner[op] = 0;
        }
        loop(ptr, 1, inner, ctx);
        return;
    }
    int64_t idx[ARS_MAX_DIMS];
    int64_t rem = begin;
    for (int op = 0; op < nop; op++) {
        ptr[op] = it->data[op];
        inner[op] = it->strides[op][0];
    }
    for (int d = 0; d < it->ndim; d++) {
        idx[d] = rem % it->shape[d];
        rem /= it->shape[d];
        for (int op = 0; op < nop; op++)
            ptr[op] += idx[d] * it->strides[op][d];
    }
    int64_t pos = begin;
    while (pos < end) {
        int64_t count = it->shape[0] - idx[0];
        if (count > end - pos)
            count = end - pos;
        loop(ptr, count, inner, ctx);
        pos += count;
        if (pos >= end)
            break;
        /* Step to the start of the next inner run. */
        for (int op = 0; op < nop; op++)
            ptr[op] -= idx[0] * it->strides[op][0];
        idx[0] = 0;
        for (int d = 1; d < it->ndim; d++) {
            if (++idx[d] < it->shape[d]) {
                for (int op = 0; op < nop; op++)
                    ptr[op] += it->strides[op][d];
                break;
            }
            for (int op = 0; op < nop; op++)
                ptr[op] -= (it->shape[d] - 1) * it->strides[op][d];
            idx[d] = 0;
        }
    }
}

void ars_corder_run_range(int ndim, const int64_t *shape, int nop, char *const *data,
                          const int64_t *const *strides, int64_t begin, int64_t end,
                          ars_loop_fn loop, void *ctx)
{
    /* the dims as they are, innermost first: the iteration order is C order */
    ars_iter it;
    it.nop = nop;
    it.ndim = ndim;
    it.size = 0;  /* (unused by a run over a range) */
    for (int op = 0; op < nop; op++)
        it.data[op] = data[op];
    for (int d = 0; d < ndim; d++) {
        it.shape[d] = shape[ndim - 1 - d];
        for (int op = 0; op < nop; op++)
            it.strides[op][d] = strides[op][ndim - 1 - d];
    }
    ars_iter_run_range(&it, loop, ctx, begin, end);
}

void ars_walk_seek(ars_walk *w, char **ptr, int64_t pos)
{
    for (int d = w->nd - 1; d >= 0; d--) {
        w->idx[d] = pos % w->shape[d];
        pos /= w->shape[d];
        for (int op = 0; op < w->nop; op++)
            ptr[op] += w->idx[d] * w->strides[op][d];
    }
}

void ars_walk_next(ars_walk *w, char **ptr)
{
    for (int d = w->nd - 1; d >= 0; d--) {
        if (++w->idx[d] < w->shape[d]) {
            for (int op = 0; op < w->nop; op++)
                ptr[op] += w->strides[op][d];
            return;
        }
        w->idx[d] = 0;
        for (int op = 0; op < w->nop; op++)
            ptr[op] -= (w->shape[d] - 1) * w->strides[op][d];
    }
}

int64_t ars_corder_parts(int64_t n, int64_t work_per_elem)
{
    int64_t parts = n / ars_parallel_grain(work_per_elem);
    if (parts > ARS_CORDER_PARTS)
        parts = ARS_CORDER_PARTS;
    return parts < 1 ? 1 : parts;
}

typedef struct {
    const ars_iter *it;
    ars_loop_fn loop;
    void *ctx;
} run_job;

static void run_part(int64_t begin, int64_t end, void *p)
{
    run_job *job = p;
    ars_iter_run_range(job->it, job->loop, job->ctx, begin, end);
}

/* ---- tiled runs: when an operand's fastest dim is not the leading operand's,
 * walk dims 0 and k in tiles so that both stay in cache. */

/* A tile is TILE items along dim 1 and TILE_ROW bytes along dim 0 (in the
 * widest item; at least TILE_MIN items): 32 KB for each buffered input, so
 * that the buffers stay in L1 beside the lines of the tile being read. On
 * a Zen 5 with 48 KB L1 (A + B.T, 3000^2 float64, one thread), 64 x 64 tiles
 * ran in 6.8 ms, 32 x 64 in 7.6, 128 x 64 in 8.6 and 256 x 64 in 14.7. */
enum { TILE = 64, TILE_ROW = 512, TILE_MIN = 16 };

/* The dim to tile with dim 0, or 0 for none. */
static int tile_dim(const ars_iter *it)
{
    if (it->ndim < 2 || it->shape[0] < TILE_MIN)
        return 0;
    for (int op = 1; op < it->nop; op++) {
        int64_t s0 = abs64(it->strides[op][0]);
        if (s0 == 0)
            continue;
        int best = 0;
        int64_t bs = s0;
        for (int d = 1; d < it->ndim; d++) {
            int64_t sd = abs64(it->strides[op][d]);
            if (sd != 0 && sd < bs) {
                bs = sd;
                best = d;
            }
        }
        if (best && it->shape[best] >= TILE_MIN)
            return best;
    }
    return 0;
}

typedef struct {
    ars_iter t;      /* dims reordered: tiled dims are 0 and 1 */
    ars_loop_fn loop;
    void *ctx;
    int64_t tile0, tile1;   /* a tile's extent along dims 0 and 1 */
    int64_t tiles0, tiles1;
    int dense;       /* bit op: operand op goes through a dense tile buffer
                      * (the output: a buffer of one tile row) */
    int prefetch;    /* prefetch the next tile's inputs */
} tiled_job;

/* Buffered outputs: the non-temporal copy of one tile row, where dst allows. */
static void tile_row_out(char *dst, const char *src, int64_t bytes)
{
    if ((uintptr_t)dst % 16 == 0)
        ars_stream_copy(dst, src, bytes);
    else
        memcpy(dst, src, (size_t)bytes);
}

/* Register transposes of 4-element blocks, where the compiler has vector
 * shuffles (GCC and Clang, on every target: the 16-byte vectors below are one
 * SSE2 or NEON register).  t4_lo/t4_hi interleave the low/high halves of two
 * vectors, t4_lo64/t4_hi64 join their low/high pairs. */
#if defined(__clang__)
#define ARS_TILE_SHUFFLE 1
#define SHUF4(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#define SHUF2(a, b, i, j) __builtin_shufflevector(a, b, i, j)
#define SHUFN(mask, a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#elif defined(__GNUC__)
#define ARS_TILE_SHUFFLE 1
#define SHUF4(a, b, i, j, k, l) __builtin_shuffle(a, b, (t4_mask){i, j, k, l})
#define SHUF2(a, b, i, j) __builtin_shuffle(a, b, (t2_mask){i, j})
#define SHUFN(mask, a, b, ...) __builtin_shuffle(a, b, (mask){__VA_ARGS__})
#else
#define ARS_TILE_SHUFFLE 0
#endif

#if ARS_TILE_SHUFFLE
typedef uint8_t t16_vec __attribute__((vector_size(16)));
typedef int8_t t16_mask __attribute__((vector_size(16)));
typedef uint16_t t8_vec __attribute__((vector_size(16)));
typedef int16_t t8_mask __attribute__((vector_size(16)));
typedef uint32_t t4_vec __attribute__((vector_size(16)));
typedef int32_t t4_mask __attribute__((vector_size(16)));
typedef uint64_t t2_vec __attribute__((vector_size(16)));
typedef int64_t t2_mask __attribute__((vector_size(16)));

/* 4-byte items, 4 x 4: rows of src (stride s0, contiguous along dim 1) to
 * columns of buf (n0 items apart). */
static inline void tile_t4x4_u32(uint32_t *b, int64_t n0, const char *src, int64_t s0)
{
    t4_vec r0, r1, r2, r3;
    memcpy(&r0, src, 16);
    memcpy(&r1, src + s0, 16);
    memcpy(&r2, src + 2 * s0, 16);
    memcpy(&r3, src + 3 * s0, 16);
    t4_vec a0 = SHUF4(r0, r1, 0, 4, 1, 5), a1 = SHUF4(r0, r1, 2, 6, 3, 7);
    t4_vec a2 = SHUF4(r2, r3, 0, 4, 1, 5), a3 = SHUF4(r2, r3, 2, 6, 3, 7);
    t4_vec c0 = SHUF4(a0, a2, 0, 1, 4, 5), c1 = SHUF4(a0, a2, 2, 3, 6, 7);
    t4_vec c2 = SHUF4(a1, a3, 0, 1, 4, 5), c3 = SHUF4(a1, a3, 2, 3, 6, 7);
    memcpy(b, &c0, 16);
    memcpy(b + n0, &c1, 16);
    memcpy(b + 2 * n0, &c2, 16);
    memcpy(b + 3 * n0, &c3, 16);
}

/* 1-byte items, 16 x 16, and 2-byte items, 8 x 8: log2(16) or log2(8)
 * rounds of interleaving row k with row k + half into rows 2k and 2k + 1
 * transpose the block (each round rotates the bits of an item's index,
 * row bits then column bits, by one). */
static inline void tile_t16x16_u8(uint8_t *b, int64_t n0, const char *src, int64_t s0)
{
    t16_vec r[16], x[16];
    for (int k = 0; k < 16; k++)
        memcpy(&r[k], src + k * s0, 16);
    for (int round = 0; round < 4; round++) {
        for (int k = 0; k < 8; k++) {
            x[2 * k] = SHUFN(t16_mask, r[k], r[k + 8], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21,
                             6, 22, 7, 23);
            x[2 * k + 1] = SHUFN(t16_mask, r[k], r[k + 8], 8, 24, 9, 25, 10, 26, 11, 27, 12, 28,
                                 13, 29, 14, 30, 15, 31);
        }
        memcpy(r, x, sizeof r);
    }
    for (int k = 0; k < 16; k++)
        memcpy(b + k * n0, &r[k], 16);
}

static inline void tile_t8x8_u16(uint16_t *b, int64_t n0, const char *src, int64_t s0)
{
    t8_vec r[8], x[8];
    for (int k = 0; k < 8; k++)
        memcpy(&r[k], src + k * s0, 16);
    for (int round = 0; round < 3; round++) {
        for (int k = 0; k < 4; k++) {
            x[2 * k] = SHUFN(t8_mask, r[k], r[k + 4], 0, 8, 1, 9, 2, 10, 3, 11);
            x[2 * k + 1] = SHUFN(t8_mask, r[k], r[k + 4], 4, 12, 5, 13, 6, 14, 7, 15);
        }
        memcpy(r, x, sizeof r);
    }
    for (int k = 0; k < 8; k++)
        memcpy(b + k * n0, &r[k], 16);
}

/* 8-byte items, 4 rows x 2 columns: two 2 x 2 transposes. */
static inline void tile_t4x2_u64(uint64_t *b, int64_t n0, const char *src, int64_t s0)
{
    t2_vec r0, r1, r2, r3;
    memcpy(&r0, src, 16);
    memcpy(&r1, src + s0, 16);
    memcpy(&r2, src + 2 * s0, 16);
    memcpy(&r3, src + 3 * s0, 16);
    t2_vec c00 = SHUF2(r0, r1, 0, 2), c10 = SHUF2(r0, r1, 1, 3);
    t2_vec c01 = SHUF2(r2, r3, 0, 2), c11 = SHUF2(r2, r3, 1, 3);
    memcpy(b, &c00, 16);
    memcpy(b + 2, &c01, 16);
    memcpy(b + n0, &c10, 16);
    memcpy(b + n0 + 2, &c11, 16);
}
#endif

/* The rows i..n0-1 of a tile (and nothing else), one element at a time. */
#define TILE_COPY_ROWS(T)                                                              \
    static void tile_rows_##T(T *b, const char *src, int64_t i, int64_t n0, int64_t n1,\
                              int64_t s0, int64_t s1)                                  \
    {                                                                                  \
        for (; i + 8 <= n0; i += 8)                                                    \
            for (int64_t j = 0; j < n1; j++)                                           \
                for (int k = 0; k < 8; k++)                                            \
                    memcpy(&b[j * n0 + i + k], src + (i + k) * s0 + j * s1, sizeof(T)); \
        for (; i < n0; i++)                                                            \
            for (int64_t j = 0; j < n1; j++)                                           \
                memcpy(&b[j * n0 + i], src + i * s0 + j * s1, sizeof(T));              \
    }
ARS_ITEM_TYPES(TILE_COPY_ROWS)
#undef TILE_COPY_ROWS

/* Operand op's elements of one tile (n0 along dim 0, n1 along dim 1, starting
 * at src) into buf, dim 0 fastest: the loop then reads them with step `item`.
 * Rows of dim 0 are read along dim 1 (the operand's fastest dim) a few at a
 * time, so that the reads are a few sequential streams and every write fills
 * consecutive bytes of buf.  Where the operand is contiguous along dim 1, 1-,
 * 2-, 4- and 8-byte items move through registers in 16 x 16, 8 x 8, 4 x 4 and
 * 4 x 2 blocks; the edges of the tile and every other case, one element at a
 * time. */
#if ARS_TILE_SHUFFLE
#define TILE_COPY_BLOCKS(T, R, C, BLOCK)                                                      \
    static void tile_copy_##T(char *buf, const char *src, int64_t n0, int64_t n1, int64_t s0, \
                              int64_t s1)                                                     \
    {                                                                                         \
        T *b = (T *)buf;                                                                      \
        const int64_t isz = (int64_t)sizeof(T);                                               \
        int64_t i = 0;                                                                        \
        if (s1 == isz) {                                                                      \
            int64_t m1 = n1 - n1 % (C);                                                       \
            for (; i + (R) <= n0; i += (R)) {                                                 \
                for (int64_t j = 0; j < m1; j += (C))                                         \
                    BLOCK(b + j * n0 + i, n0, src + i * s0 + j * isz, s0);                    \
                for (int64_t j = m1; j < n1; j++)                                             \
                    for (int k = 0; k < (R); k++)                                             \
                        memcpy(&b[j * n0 + i + k], src + (i + k) * s0 + j * isz, sizeof(T));  \
            }                                                                                 \
        }                                                                                     \
        tile_rows_##T(b, src, i, n0, n1, s0, s1);                                             \
    }
#else
#define TILE_COPY_BLOCKS(T, R, C, BLOCK)                                                      \
    static void tile_copy_##T(char *buf, const char *src, int64_t n0, int64_t n1, int64_t s0, \
                              int64_t s1)                                                     \
    {                                                                                         \
        tile_rows_##T((T *)buf, src, 0, n0, n1, s0, s1);                                      \
    }
#endif
TILE_COPY_BLOCKS(uint8_t, 16, 16, tile_t16x16_u8)
TILE_COPY_BLOCKS(uint16_t, 8, 8, tile_t8x8_u16)
TILE_COPY_BLOCKS(uint32_t, 4, 4, tile_t4x4_u32)
TILE_COPY_BLOCKS(uint64_t, 4, 2, tile_t4x2_u64)
#undef TILE_COPY_BLOCKS

static void tile_copy_ars_item16(char *buf, const char *src, int64_t n0, int64_t n1,
                                 int64_t s0, int64_t s1)
{
    tile_rows_ars_item16((ars_item16 *)buf, src, 0, n0, n1, s0, s1);
}

typedef void (*tile_copy_fn)(char *, const char *, int64_t, int64_t, int64_t, int64_t);

/* One tile: where each operand's part starts, and its extents. */
typedef struct {
    char *base[ARS_MAX_OPS];   /* operand op at (i0, j1) */
    int64_t n0, n1;
} tile_at;

static void tile_locate(const tiled_job *job, int64_t u, tile_at *t)
{
    const ars_iter *it = &job->t;
    int64_t t0 = u % job->tiles0;
    int64_t t1 = (u / job->tiles0) % job->tiles1;
    int64_t r = u / (job->tiles0 * job->tiles1);
    for (int op = 0; op < it->nop; op++)
        t->base[op] = it->data[op];
    for (int d = 2; d < it->ndim; d++) {
        int64_t i = r % it->shape[d];
        r /= it->shape[d];
        for (int op = 0; op < it->nop; op++)
            t->base[op] += i * it->strides[op][d];
    }
    int64_t i0 = t0 * job->tile0, j1 = t1 * job->tile1;
    t->n0 = it->shape[0] - i0 < job->tile0 ? it->shape[0] - i0 : job->tile0;
    t->n1 = it->shape[1] - j1 < job->tile1 ? it->shape[1] - j1 : job->tile1;
    for (int op = 0; op < it->nop; op++)
        t->base[op] += i0 * it->strides[op][0] + j1 * it->strides[op][1];
}

/* Part p of parts of the lines of tile t's inputs, where an input reads
 * every line along dim 0 or dim 1 (a step of at most a line): a tile's short
 * runs (a few hundred bytes along each of up to 64 rows) are too short for
 * the hardware prefetchers, and without this the loads of a tile wait for
 * memory one run after another. */
static void tile_prefetch(const tiled_job *job, const tile_at *t, int64_t p, int64_t parts)
{
    const ars_iter *it = &job->t;
    for (int op = 1; op < it->nop; op++) {
        int64_t s0 = it->strides[op][0], s1 = it->strides[op][1];
        int64_t runs, len, step, along;  /* runs of len items, step bytes apart */
        if (s0 != 0 && abs64(s0) <= 64 && (s1 == 0 || abs64(s0) <= abs64(s1))) {
            runs = s1 == 0 ? 1 : t->n1;
            step = s1;
            len = t->n0;
            along = s0;
        } else if (s1 != 0 && abs64(s1) <= 64) {
            runs = s0 == 0 ? 1 : t->n0;
            step = s0;
            len = t->n1;
            along = s1;
        } else {
            continue;
        }
        for (int64_t r = p * runs / parts; r < (p + 1) * runs / parts; r++) {
            const char *first = t->base[op] + r * step, *last = first + (len - 1) * along;
            uintptr_t lo = (uintptr_t)(along > 0 ? first : last);
            uintptr_t hi = (uintptr_t)(along > 0 ? last : first);
            for (uintptr_t x = lo & ~(uintptr_t)63; x <= hi; x += 64)
                __builtin_prefetch((const char *)x, 0, 3);
        }
    }
}

static void tiled_part(int64_t begin, int64_t end, void *p)
{
    const tiled_job *job = p;
    const ars_iter *it = &job->t;
    int nop = it->nop;
    char *ptr[ARS_MAX_OPS];
    int64_t inner[ARS_MAX_OPS];
    static const tile_copy_fn copies[] = ARS_SIZE_TABLE(tile_copy_);
    int64_t tile0 = job->tile0, tile1 = job->tile1;
    /* one tile of each buffered input, one tile row of a buffered output;
     * without the memory, no buffers */
    int dense = job->dense;
    char *buf[ARS_MAX_OPS] = {NULL}, *mem = NULL;
    int64_t room[ARS_MAX_OPS];
    if (dense) {
        int64_t bytes = 0;
        for (int op = 0; op < nop; op++) {
            room[op] = dense >> op & 1 ? (op ? tile1 : 1) * tile0 * it->item[op] : 0;
            bytes += room[op];
        }
        mem = ars_aligned_alloc(64, (size_t)bytes);
        if (!mem)
            dense = 0;
        int64_t off = 0;
        for (int op = 0; mem && op < nop; op++) {
            buf[op] = mem + off;
            off += room[op];
        }
    }
    for (int op = 0; op < nop; op++)
        inner[op] = dense >> op & 1 ? it->item[op] : it->strides[op][0];
    tile_at cur, next;
    if (begin < end)
        tile_locate(job, begin, &next);
    for (int64_t u = begin; u < end; u++) {
        cur = next;
        int prefetch = job->prefetch && u + 1 < end;
        if (u + 1 < end)
            tile_locate(job, u + 1, &next);
        int64_t n0 = cur.n0, n1 = cur.n1;
        for (int op = 1; op < nop; op++)
            if (dense >> op & 1)
                copies[ars_size_class(it->item[op])](buf[op], cur.base[op], n0, n1,
                                                     it->strides[op][0], it->strides[op][1]);
        /* A buffered output row goes out as soon as it is computed: its
         * buffer is one row, not a tile, which leaves L1 to the inputs, and
         * the non-temporal stores spread over the tile. */
        for (int64_t j = 0; j < n1; j++) {
            if (prefetch)
                tile_prefetch(job, &next, j, n1);
            for (int op = 0; op < nop; op++)
                ptr[op] = !(dense >> op & 1) ? cur.base[op] + j * it->strides[op][1]
                          : op ? buf[op] + j * n0 * it->item[op] : buf[0];
            job->loop(ptr, n0, inner, job->ctx);
            if (dense & 1)
                tile_row_out(cur.base[0] + j * it->strides[0][1], buf[0], n0 * it->item[0]);
        }
    }
    if (dense & 1)
        ars_stream_fence();
    ars_aligned_free(mem);
}

static void run_tiled(const ars_iter *it, int k, ars_loop_fn loop, void *ctx,
                      int64_t work_per_elem)
{
    tiled_job job;
    job.t = *it;
    job.loop = loop;
    job.ctx = ctx;
    /* Move dim k to position 1 (any order of dims is a valid order). */
    for (int d = k; d > 1; d--) {
        int64_t t = job.t.shape[d];
        job.t.shape[d] = job.t.shape[d - 1];
        job.t.shape[d - 1] = t;
        for (int op = 0; op < it->nop; op++) {
            t = job.t.strides[op][d];
            job.t.strides[op][d] = job.t.strides[op][d - 1];
            job.t.strides[op][d - 1] = t;
        }
    }
    /* An input read along dim 1 (its fastest) goes through a dense buffer:
     * the loop then runs on contiguous items, as on untransposed operands. A
     * large output dense along dim 0 does too, and is written out with
     * non-temporal stores, as the untiled loops write theirs. */
    job.dense = 0;
    int64_t out_item = it->item[0];
    if (ars_size_class(out_item) >= 0 && job.t.strides[0][0] == out_item &&
        it->size >= ARS_STREAM_TOTAL_BYTES / out_item)
        job.dense = 1;
    for (int op = 1; op < it->nop; op++) {
        int64_t item = it->item[op], s0 = abs64(job.t.strides[op][0]);
        if (ars_size_class(item) >= 0 && s0 != item && s0 != 0 &&
            abs64(job.t.strides[op][1]) < s0)
            job.dense |= 1 << op;
    }
    /* Square tiles where an item size is not known. When the operands move
     * ARS_STREAM_TOTAL_BYTES or more, inputs are prefetched a tile ahead;
     * from the caches the prefetches only cost instructions (A + B.T, float64,
     * one thread: 30% slower with them at 700^2, as fast at 1000^2, 2.2x
     * faster at 3000^2; 3000^2 uint8 1.4x faster). */
    int64_t widest = 1, moved = 0;
    int known = 1;
    for (int op = 0; op < it->nop; op++) {
        known &= it->item[op] > 0;
        widest = it->item[op] > widest ? it->item[op] : widest;
        moved += it->item[op] > 0 ? it->item[op] : 0;
    }
    job.tile0 = !known ? TILE : TILE_ROW / widest < TILE_MIN ? TILE_MIN : TILE_ROW / widest;
    job.tile1 = TILE;
    job.prefetch = moved > 0 && it->size >= ARS_STREAM_TOTAL_BYTES / moved;
    job.tiles0 = (job.t.shape[0] + job.tile0 - 1) / job.tile0;
    job.tiles1 = (job.t.shape[1] + job.tile1 - 1) / job.tile1;
    int64_t units = it->size / (job.t.shape[0] * job.t.shape[1]) * job.tiles0 * job.tiles1;
    int64_t grain = ars_parallel_grain(work_per_elem) / (job.tile0 * job.tile1);
    ars_parallel_for(units, grain < 1 ? 1 : grain, tiled_part, &job);
}

void ars_iter_run(const ars_iter *it, ars_loop_fn loop, void *ctx, int64_t work_per_elem)
{
    if (it->size == 0)
        return;
    int k = tile_dim(it);
    if (k) {
        run_tiled(it, k, loop, ctx, work_per_elem);
        return;
    }
    run_job job = {it, loop, ctx};
    ars_parallel_for(it->size, ars_parallel_grain(work_per_elem), run_part, &job);
}

int ars_iter_describe(int ndim, const int64_t *shape, int nop, const int64_t *strides,
                      int *out_ndim, int64_t *out_shape, int64_t *out_strides,
                      int64_t *out_offsets)
{
    if (nop < 1 || nop > ARS_MAX_OPS || ndim < 0 || ndim > ARS_MAX_DIMS)
        return ARS_ERR_NDIM;
    ars_iter it;
    char *data[ARS_MAX_OPS];
    const int64_t *st[ARS_MAX_OPS];
    char base = 0;
    for (int op = 0; op < nop; op++) {
        data[op] = &base;
        st[op] = strides + (int64_t)op * ndim;
    }
    int rc = ars_iter_prepare(&it, ndim, shape, nop, data, st);
    if (rc)
        return rc;
    *out_ndim = it.size == 0 ? -1 : it.ndim;
    for (int d = 0; d < it.ndim; d++) {
        out_shape[d] = it.shape[d];
        for (int op = 0; op < nop; op++)
            out_strides[op * it.ndim + d] = it.strides[op][d];
    }
    for (int op = 0; op < nop; op++)
        out_offsets[op] = (int64_t)(it.data[op] - &base);
    return ARS_OK;
}

/* Prepare and run in one call: ars_iter_prepare's status, else ARS_OK. */
int ars_iter_go(int ndim, const int64_t *shape, int nop, char *const *data,
                const int64_t *const *strides, ars_loop_fn loop, void *ctx, int64_t work_per_elem)
{
    return ars_iter_go_items(ndim, shape, nop, data, strides, NULL, loop, ctx, work_per_elem);
}

int ars_iter_go_items(int ndim, const int64_t *shape, int nop, char *const *data,
                      const int64_t *const *strides, const int64_t *items, ars_loop_fn loop,
                      void *ctx, int64_t work_per_elem)
{
    ars_iter it;
    int rc = ars_iter_prepare(&it, ndim, shape, nop, data, strides);
    if (rc)
        return rc;
    for (int op = 0; items && op < nop; op++)
        it.item[op] = items[op];
    if (work_per_elem == ARS_ITER_SERIAL)
        ars_iter_run_range(&it, loop, ctx, 0, it.size);
    else
        ars_iter_run(&it, loop, ctx, work_per_elem);
    return ARS_OK;
}
