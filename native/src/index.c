/* Kernels behind boolean masks, integer-array indexing and tril/triu. */
#include <string.h>
#include "ars_internal.h"

static void count_loop(char **data, int64_t n, const int64_t *s, void *ctx)
{
    int64_t c = 0;
    const char *p = data[0];
    for (int64_t i = 0; i < n; i++)
        c += p[i * s[0]] != 0;
    *(int64_t *)ctx += c;
}

int ars_count_true(int ndim, const int64_t *shape, const char *data, const int64_t *strides,
                   int64_t *count)
{
    char *d[1] = {(char *)data};
    const int64_t *st[1] = {strides};
    *count = 0;
    return ars_iter_go(ndim, shape, 1, d, st, count_loop, count, ARS_ITER_SERIAL);
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
        return ARS_OK;
    int64_t idx[ARS_MAX_DIMS] = {0};
    const char *p = data;
    int64_t j = 0;
    for (int64_t e = 0; e < size; e++) {
        if (*p) {
            if (j >= count)
                return ARS_ERR_ARG;
            for (int d = 0; d < ndim; d++)
                out[d * count + j] = idx[d];
            j++;
        }
        for (int d = ndim - 1; d >= 0; d--) {  /* C-order odometer */
            if (++idx[d] < shape[d]) {
                p += strides[d];
                break;
            }
            p -= (shape[d] - 1) * strides[d];
            idx[d] = 0;
        }
    }
    return j == count ? ARS_OK : ARS_ERR_ARG;
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
