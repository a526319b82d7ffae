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
 * walk dims 0 and k in square tiles so that both stay in cache. */

enum { TILE = 64, TILE_MIN = 16 };

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
    int64_t tiles0, tiles1;
    int dense;       /* bit op: operand op goes through a dense tile buffer */
} tiled_job;

/* Buffered outputs: the non-temporal copy of one tile row, where dst allows. */
static void tile_row_out(char *dst, const char *src, int64_t bytes)
{
    if ((uintptr_t)dst % 16 == 0)
        ars_stream_copy(dst, src, bytes);
    else
        memcpy(dst, src, (size_t)bytes);
}

/* Operand op's elements of one tile (n0 along dim 0, n1 along dim 1, starting
 * at src) into buf, dim 0 fastest: the loop then reads them with step `item`.
 * Eight rows of dim 0 at a time, each read along dim 1 (the operand's fastest
 * dim), so that the reads are eight sequential streams and every write of the
 * inner loop fills consecutive bytes of buf. */
#define TILE_COPY(T)                                                                   \
    static void tile_copy_##T(char *buf, const char *src, int64_t n0, int64_t n1,      \
                              int64_t s0, int64_t s1)                                  \
    {                                                                                  \
        T *b = (T *)buf;                                                               \
        int64_t i = 0;                                                                 \
        for (; i + 8 <= n0; i += 8)                                                    \
            for (int64_t j = 0; j < n1; j++)                                           \
                for (int k = 0; k < 8; k++)                                            \
                    memcpy(&b[j * n0 + i + k], src + (i + k) * s0 + j * s1, sizeof(T)); \
        for (; i < n0; i++)                                                            \
            for (int64_t j = 0; j < n1; j++)                                           \
                memcpy(&b[j * n0 + i], src + i * s0 + j * s1, sizeof(T));              \
    }
ARS_ITEM_TYPES(TILE_COPY)
#undef TILE_COPY

typedef void (*tile_copy_fn)(char *, const char *, int64_t, int64_t, int64_t, int64_t);

static void tiled_part(int64_t begin, int64_t end, void *p)
{
    const tiled_job *job = p;
    const ars_iter *it = &job->t;
    int nop = it->nop;
    char *base[ARS_MAX_OPS], *ptr[ARS_MAX_OPS];
    int64_t inner[ARS_MAX_OPS];
    static const tile_copy_fn copies[] = ARS_SIZE_TABLE(tile_copy_);
    /* one tile of each buffered operand; without the memory, no buffers */
    int dense = job->dense;
    char *buf[ARS_MAX_OPS] = {NULL}, *mem = NULL;
    if (dense) {
        int64_t bytes = 0;
        for (int op = 0; op < nop; op++)
            bytes += dense >> op & 1 ? TILE * TILE * it->item[op] : 0;
        mem = ars_aligned_alloc(64, (size_t)bytes);
        if (!mem)
            dense = 0;
        for (int op = 0, off = 0; mem && op < nop; op++)
            if (dense >> op & 1) {
                buf[op] = mem + off;
                off += TILE * TILE * (int)it->item[op];
            }
    }
    for (int op = 0; op < nop; op++)
        inner[op] = dense >> op & 1 ? it->item[op] : it->strides[op][0];
    for (int64_t u = begin; u < end; u++) {
        int64_t t0 = u % job->tiles0;
        int64_t t1 = (u / job->tiles0) % job->tiles1;
        int64_t r = u / (job->tiles0 * job->tiles1);
        for (int op = 0; op < nop; op++)
            base[op] = it->data[op];
        for (int d = 2; d < it->ndim; d++) {
            int64_t i = r % it->shape[d];
            r /= it->shape[d];
            for (int op = 0; op < nop; op++)
                base[op] += i * it->strides[op][d];
        }
        int64_t i0 = t0 * TILE, n0 = it->shape[0] - i0;
        int64_t j1 = t1 * TILE, e1 = j1 + TILE;
        if (n0 > TILE)
            n0 = TILE;
        if (e1 > it->shape[1])
            e1 = it->shape[1];
        for (int op = 1; op < nop; op++)
            if (dense >> op & 1)
                copies[ars_size_class(it->item[op])](
                    buf[op], base[op] + i0 * it->strides[op][0] + j1 * it->strides[op][1],
                    n0, e1 - j1, it->strides[op][0], it->strides[op][1]);
        for (int64_t j = j1; j < e1; j++) {
            for (int op = 0; op < nop; op++)
                ptr[op] = dense >> op & 1
                              ? buf[op] + (j - j1) * n0 * it->item[op]
                              : base[op] + i0 * it->strides[op][0] + j * it->strides[op][1];
            job->loop(ptr, n0, inner, job->ctx);
        }
        if (dense & 1)
            for (int64_t j = j1; j < e1; j++)
                tile_row_out(base[0] + i0 * it->strides[0][0] + j * it->strides[0][1],
                             buf[0] + (j - j1) * n0 * it->item[0], n0 * it->item[0]);
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
    job.tiles0 = (job.t.shape[0] + TILE - 1) / TILE;
    job.tiles1 = (job.t.shape[1] + TILE - 1) / TILE;
    int64_t units = it->size / (job.t.shape[0] * job.t.shape[1]) * job.tiles0 * job.tiles1;
    int64_t grain = ars_parallel_grain(work_per_elem) / (TILE * TILE);
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
