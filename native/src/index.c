/* Kernels behind boolean masks, integer-array indexing and tril/triu. */
#include <stdlib.h>
#include <string.h>
#include "ars_internal.h"

/* ---- boolean masks: count, compress (x[mask]) and nonzero, in C order -------------- */

#define DEF_COMPRESS(T)                                                            \
    static int64_t compress_run_##T(const char *src, int64_t ss, const char *m,    \
                                      int64_t ms, int64_t n, char *dst, int64_t j)  \
    {                                                                              \
        if (ss == (int64_t)sizeof(T) && ms == 1) {                                 \
            for (int64_t i = 0; i < n; i++) {                                      \
                memcpy(dst + j * (int64_t)sizeof(T), src + i * (int64_t)sizeof(T), sizeof(T)); \
                j += m[i] != 0;                                                    \
            }                                                                      \
            return j;                                                              \
        }                                                                          \
        for (int64_t i = 0; i < n; i++) {                                          \
            memcpy(dst + j * (int64_t)sizeof(T), src + i * ss, sizeof(T));         \
            j += m[i * ms] != 0;                                                   \
        }                                                                          \
        return j;                                                                  \
    }
ARS_ITEM_TYPES(DEF_COMPRESS)

typedef int64_t (*compress_fn)(const char *, int64_t, const char *, int64_t, int64_t, char *, int64_t);

/* The branch-free loop writes a slot for every element it reads (the kept
 * ones are not overwritten): a block that could write at or past `limit` (the
 * part's end in dst, where the next part's elements go) goes through scratch. */
enum { COMPRESS_BLOCK = 512 };

typedef struct {
    compress_fn fn;
    char *dst;
    int64_t isz, j, limit;
    int over;  /* more kept elements than the part's room: the mask changed */
    char scratch[COMPRESS_BLOCK * 16];
} compress_run;

static void compress_loop(char **data, int64_t n, const int64_t *s, void *ctx)
{
    compress_run *r = ctx;
    for (int64_t b = 0; b < n && !r->over; b += COMPRESS_BLOCK) {
        int64_t len = n - b < COMPRESS_BLOCK ? n - b : COMPRESS_BLOCK;
        const char *ps = data[0] + b * s[0], *pm = data[1] + b * s[1];
        if (r->j + len <= r->limit) {
            r->j = r->fn(ps, s[0], pm, s[1], len, r->dst, r->j);
            continue;
        }
        int64_t got = r->fn(ps, s[0], pm, s[1], len, r->scratch, 0);
        if (r->j + got > r->limit) {
            r->over = 1;
            return;
        }
        memcpy(r->dst + r->j * r->isz, r->scratch, (size_t)(got * r->isz));
        r->j += got;
    }
}

static void count_loop(char **data, int64_t n, const int64_t *s, void *ctx)
{
    int64_t c = 0;
    const char *p = data[0];
    if (s[0] == 1)  /* a loop that vectorizes */
        for (int64_t i = 0; i < n; i++)
            c += p[i] != 0;
    else
        for (int64_t i = 0; i < n; i++)
            c += p[i * s[0]] != 0;
    *(int64_t *)ctx += c;
}

/* The C-order parts of a mask's elements (data[1]; data[0] is compress's
 * source): each part counted, then each part written from the count of the
 * parts before it. */
typedef struct {
    int ndim;
    const int64_t *shape;
    char *data[2];
    const int64_t *strides[2];
    int64_t size, nparts;
    int64_t start[ARS_CORDER_PARTS + 1];  /* each part's first slot */
    compress_fn fn;                       /* compress: the item copy, */
    char *dst;                            /* its destination */
    int64_t isz;
    int64_t *out, count;                  /* nonzero: (ndim, count) indices */
    int failed;
} mask_job;

static void mask_count_part(int64_t begin, int64_t end, void *p);

/* start[1:] = the parts' counts, then their running sums: 0 when they add up
 * to count (the count the caller sized its output with), else ARS_ERR_ARG. */
static int mask_starts(mask_job *job, int64_t count)
{
    if (job->nparts == 1) {
        job->start[1] = count;
        return 0;
    }
    ars_parallel_for(job->nparts, 1, mask_count_part, job);
    for (int64_t t = 0; t < job->nparts; t++)
        job->start[t + 1] += job->start[t];
    return job->start[job->nparts] == count ? 0 : ARS_ERR_ARG;
}

static void mask_count_part(int64_t begin, int64_t end, void *p)
{
    mask_job *job = p;
    for (int64_t t = begin; t < end; t++) {
        int64_t c = 0;
        ars_corder_run_range(job->ndim, job->shape, 1, &job->data[1], &job->strides[1],
                             ars_split(job->size, t, job->nparts),
                             ars_split(job->size, t + 1, job->nparts), count_loop, &c);
        job->start[t + 1] = c;
    }
}

static void compress_write_part(int64_t begin, int64_t end, void *p)
{
    mask_job *job = p;
    compress_run *r = malloc(sizeof *r);
    if (!r) {
        __atomic_store_n(&job->failed, ARS_ERR_NOMEM, __ATOMIC_RELAXED);
        return;
    }
    for (int64_t t = begin; t < end; t++) {
        r->fn = job->fn;
        r->dst = job->dst;
        r->isz = job->isz;
        r->j = job->start[t];
        r->limit = job->start[t + 1];
        r->over = 0;
        ars_corder_run_range(job->ndim, job->shape, 2, job->data, job->strides,
                             ars_split(job->size, t, job->nparts),
                             ars_split(job->size, t + 1, job->nparts), compress_loop, r);
        if (r->over || r->j != r->limit)
            __atomic_store_n(&job->failed, ARS_ERR_ARG, __ATOMIC_RELAXED);
    }
    free(r);
}

int ars_compress(int ndim, const int64_t *shape,
                 const char *src, const int64_t *src_strides,
                 const char *mask, const int64_t *mask_strides,
                 char *dst, int64_t itemsize, int64_t count)
{
    static const compress_fn runs[] = ARS_SIZE_TABLE(compress_run_);
    int sc = ars_size_class(itemsize);
    if (sc < 0)
        return ARS_ERR_ARG;
    if (ndim < 0 || ndim > ARS_MAX_DIMS)
        return ARS_ERR_NDIM;
    int64_t size = 1;
    for (int d = 0; d < ndim; d++)
        size *= shape[d];
    if (size == 0 || count == 0)
        return ARS_OK;
    mask_job job = {ndim, shape, {(char *)src, (char *)mask}, {src_strides, mask_strides},
                    size, ars_corder_parts(size, 2 * itemsize + 2), {0}, runs[sc], dst,
                    itemsize, NULL, 0, 0};
    int rc = mask_starts(&job, count);
    if (rc)
        return rc;
    ars_parallel_for(job.nparts, 1, compress_write_part, &job);
    return job.failed;
}

int ars_count_true(int ndim, const int64_t *shape, const char *data, const int64_t *strides,
                   int64_t *count)
{
    *count = 0;
    if (ndim < 0 || ndim > ARS_MAX_DIMS)
        return ARS_ERR_NDIM;
    int64_t size = 1;
    for (int d = 0; d < ndim; d++)
        if (__builtin_mul_overflow(size, shape[d], &size))
            return ARS_ERR_SIZE;
    if (size == 0)
        return ARS_OK;
    mask_job job = {ndim, shape, {NULL, (char *)data}, {NULL, strides}, size,
                    ars_corder_parts(size, 1), {0}, NULL, NULL, 0, NULL, 0, 0};
    ars_parallel_for(job.nparts, 1, mask_count_part, &job);
    for (int64_t t = 0; t < job.nparts; t++)
        *count += job.start[t + 1];
    return ARS_OK;
}

/* nonzero: the C-order index of every true element, dim d's in out[d * count:]. */
typedef struct {
    int ndim;
    const int64_t *shape;
    int64_t *out, count, pos, j, limit;
    int over;
} nonzero_run;

static void nonzero_loop(char **data, int64_t n, const int64_t *s, void *ctx)
{
    nonzero_run *r = ctx;
    int64_t idx[ARS_MAX_DIMS];
    int64_t rem = r->pos;
    for (int d = r->ndim - 1; d >= 0; d--) {
        idx[d] = rem % r->shape[d];
        rem /= r->shape[d];
    }
    int last = r->ndim - 1;
    const char *p = data[0];
    if (last < 0) {  /* 0 dims: a count alone */
        r->j += *p != 0;
        r->over |= r->j > r->limit;
        return;
    }
    /* The last coordinate branch-free, a slot written for every element read
     * (as compress does) in blocks that cannot reach the part's limit; the
     * others, the same along the run, written once per element kept. */
    int64_t *o = r->out + last * r->count, first = idx[last];
    for (int64_t b = 0; b < n; b += COMPRESS_BLOCK) {
        int64_t len = n - b < COMPRESS_BLOCK ? n - b : COMPRESS_BLOCK, j0 = r->j, j = j0;
        const char *q = p + b * s[0];
        if (j + len < r->limit) {
            for (int64_t i = 0; i < len; i++) {
                o[j] = first + b + i;
                j += q[i * s[0]] != 0;
            }
        } else {
            for (int64_t i = 0; i < len; i++) {
                if (!q[i * s[0]])
                    continue;
                if (j >= r->limit) {
                    r->over = 1;
                    return;
                }
                o[j++] = first + b + i;
            }
        }
        for (int d = 0; d < last; d++)
            for (int64_t k = j0; k < j; k++)
                r->out[d * r->count + k] = idx[d];
        r->j = j;
    }
    r->pos += n;
}

static void nonzero_write_part(int64_t begin, int64_t end, void *p)
{
    mask_job *job = p;
    for (int64_t t = begin; t < end; t++) {
        int64_t b = ars_split(job->size, t, job->nparts), e = ars_split(job->size, t + 1, job->nparts);
        nonzero_run r = {job->ndim, job->shape, job->out, job->count, b,
                         job->start[t], job->start[t + 1], 0};
        ars_corder_run_range(job->ndim, job->shape, 1, &job->data[1], &job->strides[1], b, e,
                             nonzero_loop, &r);
        if (r.over || r.j != r.limit)
            __atomic_store_n(&job->failed, ARS_ERR_ARG, __ATOMIC_RELAXED);
    }
}

int ars_nonzero_bool(int ndim, const int64_t *shape, const char *data, const int64_t *strides,
                     int64_t *out, int64_t count)
{
    if (ndim < 0 || ndim > ARS_MAX_DIMS)
        return ARS_ERR_NDIM;
    int64_t size = 1;
    for (int d = 0; d < ndim; d++)
        size *= shape[d];
    if (size == 0)
        return count == 0 ? ARS_OK : ARS_ERR_ARG;
    mask_job job = {ndim, shape, {NULL, (char *)data}, {NULL, strides}, size,
                    ars_corder_parts(size, 1 + 8 * (ndim ? ndim : 1)), {0}, NULL, NULL, 0,
                    out, count, 0};
    int rc = mask_starts(&job, count);
    if (rc)
        return rc;
    ars_parallel_for(job.nparts, 1, nonzero_write_part, &job);
    return job.failed;
}

typedef struct {
    int64_t dim_size, dim_stride, bad;
    int failed;
} acc_ctx;

static void accumulate_loop(char **data, int64_t n, const int64_t *s, void *p)
{
    acc_ctx *c = p;
    if (c->failed)
        return;
    for (int64_t i = 0; i < n; i++) {
        int64_t v, o;
        memcpy(&v, data[1] + i * s[1], sizeof v);
        if (v < -c->dim_size || v >= c->dim_size) {
            c->bad = v;
            c->failed = 1;
            return;
        }
        if (v < 0)
            v += c->dim_size;
        memcpy(&o, data[0] + i * s[0], sizeof o);
        o += v * c->dim_stride;
        memcpy(data[0] + i * s[0], &o, sizeof o);
    }
}

int ars_index_accumulate(int ndim, const int64_t *shape, int64_t *offsets,
                         const char *idx, const int64_t *idx_strides,
                         int64_t dim_size, int64_t dim_stride, int64_t *bad)
{
    if (ndim < 0 || ndim > ARS_MAX_DIMS)
        return ARS_ERR_NDIM;
    int64_t off_strides[ARS_MAX_DIMS];
    int64_t acc = sizeof(int64_t);
    for (int d = ndim - 1; d >= 0; d--) {
        off_strides[d] = acc;
        acc *= shape[d];
    }
    char *data[2] = {(char *)offsets, (char *)idx};
    const int64_t *st[2] = {off_strides, idx_strides};
    acc_ctx c = {dim_size, dim_stride, 0, 0};
    int rc = ars_iter_go(ndim, shape, 2, data, st, accumulate_loop, &c, ARS_ITER_SERIAL);
    if (rc)
        return rc;
    if (c.failed) {
        *bad = c.bad;
        return ARS_ERR_ARG;
    }
    return ARS_OK;
}

/* Shared by gather and scatter: operand 0 is moved by offsets, operand 1 by b. */
static int move_blocks(int64_t nb, const int64_t *offsets, char *a, char *b,
                       int64_t b_stride, int rest_ndim, const int64_t *rest_shape,
                       const int64_t *a_rest_strides, const int64_t *b_rest_strides,
                       int64_t itemsize, int a_is_dst)
{
    if (rest_ndim < 0 || rest_ndim > ARS_MAX_DIMS)
        return ARS_ERR_NDIM;
    for (int64_t j = 0; j < nb; j++) {
        char *pa = a + offsets[j] * itemsize;
        char *pb = b + j * b_stride;
        int rc;
        if (rest_ndim == 0) {
            if (a_is_dst)
                memcpy(pa, pb, (size_t)itemsize);
            else
                memcpy(pb, pa, (size_t)itemsize);
            continue;
        }
        if (a_is_dst)
            rc = ars_copy(rest_ndim, rest_shape, pa, a_rest_strides, pb, b_rest_strides, itemsize);
        else
            rc = ars_copy(rest_ndim, rest_shape, pb, b_rest_strides, pa, a_rest_strides, itemsize);
        if (rc)
            return rc;
    }
    return ARS_OK;
}

int ars_gather(int64_t nb, const int64_t *offsets, const char *src, char *dst,
               int64_t dst_b_stride, int rest_ndim, const int64_t *rest_shape,
               const int64_t *src_rest_strides, const int64_t *dst_rest_strides,
               int64_t itemsize)
{
    return move_blocks(nb, offsets, (char *)src, dst, dst_b_stride, rest_ndim, rest_shape,
                       src_rest_strides, dst_rest_strides, itemsize, 0);
}

int ars_scatter(int64_t nb, const int64_t *offsets, char *dst, const char *src,
                int64_t src_b_stride, int rest_ndim, const int64_t *rest_shape,
                const int64_t *dst_rest_strides, const int64_t *src_rest_strides,
                int64_t itemsize)
{
    return move_blocks(nb, offsets, dst, (char *)src, src_b_stride, rest_ndim, rest_shape,
                       dst_rest_strides, src_rest_strides, itemsize, 1);
}

typedef struct {
    int64_t rows, cols, rs, cs, itemsize, k;
    int lower;
} tri_ctx;

static void tri_loop(char **data, int64_t n, const int64_t *s, void *p)
{
    const tri_ctx *c = p;
    for (int64_t b = 0; b < n; b++) {
        char *m = data[0] + b * s[0];
        for (int64_t i = 0; i < c->rows; i++) {
            /* lower keeps j <= i + k; upper keeps j >= i + k */
            int64_t j0 = c->lower ? i + c->k + 1 : 0;
            int64_t j1 = c->lower ? c->cols : i + c->k;
            if (j0 < 0)
                j0 = 0;
            if (j1 > c->cols)
                j1 = c->cols;
            for (int64_t j = j0; j < j1; j++)
                memset(m + i * c->rs + j * c->cs, 0, (size_t)c->itemsize);
        }
    }
}

int ars_tri_zero(int ndim, const int64_t *shape, char *dst, const int64_t *strides,
                 int64_t itemsize, int64_t k, int lower)
{
    if (ndim < 2 || ndim > ARS_MAX_DIMS)
        return ARS_ERR_NDIM;
    tri_ctx c = {shape[ndim - 2], shape[ndim - 1], strides[ndim - 2], strides[ndim - 1],
                 itemsize, k, lower};
    ars_iter it;
    char *data[1] = {dst};
    const int64_t *st[1] = {strides};
    int rc = ars_iter_prepare(&it, ndim - 2, shape, 1, data, st);
    if (rc)
        return rc;
    if (c.rows == 0 || c.cols == 0)
        return ARS_OK;
    ars_iter_run_range(&it, tri_loop, &c, 0, it.size);
    return ARS_OK;
}
