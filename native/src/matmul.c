/* Batched matrix multiplication: BLAS gemm for floating dtypes (strides passed
 * straight through when one of a matrix's two strides is the item size, a
 * contiguous tile otherwise), a blocked kernel of our own for integers and
 * bool. Small matrices in a batch run on several threads, one gemm each,
 * handed out dynamically. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "ars_internal.h"
#include "ars_blas.h"
#include "ew_narrow.h"

void *ars_blas_fn[ARS_NSYMS];

static const char *const blas_names[ARS_NSYMS] = {
#define X(name) [SYM_##name] = #name,
    ARS_BLAS_SYMS(X)
#undef X
};

int ars_blas_nsyms(void) { return ARS_NSYMS; }

const char *ars_blas_symbol(int i)
{
    return (i >= 0 && i < ARS_NSYMS) ? blas_names[i] : NULL;
}

int ars_blas_set(int i, void *fn)
{
    if (i < 0 || i >= ARS_NSYMS || fn == NULL)
        return ARS_ERR_ARG;
    ars_blas_fn[i] = fn;
    return ARS_OK;
}

int ars_blas_ready(void)
{
    for (int i = 0; i < ARS_NSYMS; i++)
        if (ars_blas_fn[i] == NULL)
            return 0;
    return 1;
}

/* ---- layout helpers -------------------------------------------------------- */

/* Can a rows x cols matrix with byte strides (rs, cs) go to a row-major BLAS
 * call as it is?  Sets *trans (0: as stored, 1: stored transposed) and *ld. */
static int blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs, int64_t isz,
                       int *trans, int64_t *ld)
{
    if ((cols == 1 || cs == isz) &&
        (rows == 1 || (rs > 0 && rs % isz == 0 && rs / isz >= cols))) {
        *trans = 0;
        *ld = rows == 1 ? (cols > 1 ? cols : 1) : rs / isz;
        return 1;
    }
    if ((rows == 1 || rs == isz) &&
        (cols == 1 || (cs > 0 && cs % isz == 0 && cs / isz >= rows))) {
        *trans = 1;
        *ld = cols == 1 ? (rows > 1 ? rows : 1) : cs / isz;
        return 1;
    }
    return 0;
}

#define TILE_COPY(T)                                                               \
    static void tile_copy_##T(int64_t rows, int64_t cols, const char *src, int64_t rs, \
                              int64_t cs, char *dst)                               \
    {                                                                              \
        T *d = (T *)dst;                                                           \
        for (int64_t i = 0; i < rows; i++) {                                       \
            const char *row = src + i * rs;                                        \
            for (int64_t j = 0; j < cols; j++)                                     \
                memcpy(d + i * cols + j, row + j * cs, sizeof(T));                 \
        }                                                                          \
    }
ARS_ITEM_TYPES(TILE_COPY)

/* Copy a strided rows x cols matrix into a contiguous row-major tile. */
void ars_tile_copy(int64_t rows, int64_t cols, const char *src, int64_t rs, int64_t cs,
                   char *dst, int64_t isz)
{
    typedef void (*tile_fn)(int64_t, int64_t, const char *, int64_t, int64_t, char *);
    static const tile_fn copies[] = ARS_SIZE_TABLE(tile_copy_);
    int sc = ars_size_class(isz);
    copies[sc < 0 ? 4 : sc](rows, cols, src, rs, cs, dst);  /* every dtype's size has a class */
}

/* ---- the job ---------------------------------------------------------------- */

typedef struct {
    int dtype;
    int nbatch;
    const int64_t *bshape;
    int64_t m, n, k, isz;
    const char *a, *b;
    char *c;
    const int64_t *as, *bs;   /* nbatch batch strides, then row and column strides */
    int64_t rows_per_unit, units_per_batch;
    int status;
    atomic_llong next;        /* the next batch element a gemm worker takes */
    int64_t nbatch_total;
    int col_major;            /* narrow floats: float32 tiles of A (1), B (2) by columns */
} mm_job;

static void batch_ptrs(const mm_job *job, int64_t idx, const char **a, const char **b, char **c)
{
    const char *pa = job->a, *pb = job->b;
    int64_t rem = idx;
    for (int d = job->nbatch - 1; d >= 0; d--) {
        int64_t i = rem % job->bshape[d];
        rem /= job->bshape[d];
        pa += i * job->as[d];
        pb += i * job->bs[d];
    }
    *a = pa;
    *b = pb;
    *c = job->c + idx * job->m * job->n * job->isz;
}

/* ---- floating point: gemm --------------------------------------------------- */

typedef struct {
    char *ta, *tb;
    int64_t na, nb;
    char *wa, *wb, *wc;    /* a narrow float product's float32 operands and result */
    int64_t nwa, nwb, nwc;
} tiles;

static void tiles_free(tiles *t)
{
    free(t->ta);
    free(t->tb);
    free(t->wa);
    free(t->wb);
    free(t->wc);
}

static char *tile_get(char **buf, int64_t *have, int64_t need)
{
    if (*have < need) {
        free(*buf);
        *buf = malloc((size_t)need);
        *have = *buf ? need : 0;
    }
    return *buf;
}

/* A rows x cols operand (row and column byte strides s[0], s[1]) as BLAS takes
 * it: in place when its strides allow, else packed row-major into the tile
 * *buf (of *have bytes, grown as needed). 0 when that allocation fails. */
static int blas_operand(int64_t rows, int64_t cols, const char **p, const int64_t *s,
                        int64_t isz, char **buf, int64_t *have, int *trans, int64_t *ld)
{
    if (blas_layout(rows, cols, s[0], s[1], isz, trans, ld))
        return 1;
    char *tile = tile_get(buf, have, rows * cols * isz);
    if (!tile)
        return 0;
    ars_tile_copy(rows, cols, *p, s[0], s[1], tile, isz);
    *p = tile;
    *trans = 0;
    *ld = cols;
    return 1;
}

/* A vector of len elements (byte stride s) as BLAS takes it: in place with a
 * positive increment, else packed into the tile *buf. 0 when that fails. */
static int blas_vector(int64_t len, const char **p, int64_t s, int64_t isz, char **buf,
                       int64_t *have, int64_t *inc)
{
    if (len == 1 || (s > 0 && s % isz == 0)) {
        *inc = len == 1 ? 1 : s / isz;
        return 1;
    }
    char *tile = tile_get(buf, have, len * isz);
    if (!tile)
        return 0;
    ars_tile_copy(len, 1, *p, s, isz, tile, isz);
    *p = tile;
    *inc = 1;
    return 1;
}

/* c = x . y (no conjugation) for vectors of k elements */
static void blas_dot(int dtype, int64_t k, const char *x, int64_t incx, const char *y,
                     int64_t incy, char *c)
{
    switch (dtype) {
    case ARS_FLOAT32: {
        float r = BLAS(cblas_sdot, 0, sdot_t)(k, x, incx, y, incy);
        memcpy(c, &r, sizeof r);
        break;
    }
    case ARS_FLOAT64: {
        double r = BLAS(cblas_sdot, 1, ddot_t)(k, x, incx, y, incy);
        memcpy(c, &r, sizeof r);
        break;
    }
    case ARS_COMPLEX64:
        BLAS(cblas_sdot, 2, cdotu_t)(k, x, incx, y, incy, c);
        break;
    default:
        BLAS(cblas_sdot, 3, cdotu_t)(k, x, incx, y, incy, c);
        break;
    }
}

/* y = op(A) x for the row-major rows x cols matrix A (transposed when trans) */
static void blas_gemv(int dtype, int trans, int64_t rows, int64_t cols, const char *a,
                      int64_t lda, const char *x, int64_t incx, char *y)
{
    int op = trans ? CBLAS_T : CBLAS_N;
    switch (dtype) {
    case ARS_FLOAT32:
        BLAS(cblas_sgemv, 0, sgemv_t)(CBLAS_ROW, op, rows, cols, 1.0f, a, lda, x, incx,
                                      0.0f, y, 1);
        break;
    case ARS_FLOAT64:
        BLAS(cblas_sgemv, 1, dgemv_t)(CBLAS_ROW, op, rows, cols, 1.0, a, lda, x, incx,
                                      0.0, y, 1);
        break;
    case ARS_COMPLEX64: {
        float one[2] = {1.0f, 0.0f}, zero[2] = {0.0f, 0.0f};
        BLAS(cblas_sgemv, 2, cgemv_t)(CBLAS_ROW, op, rows, cols, one, a, lda, x, incx,
                                      zero, y, 1);
        break;
    }
    default: {
        double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
        BLAS(cblas_sgemv, 3, cgemv_t)(CBLAS_ROW, op, rows, cols, one, a, lda, x, incx,
                                      zero, y, 1);
        break;
    }
    }
}

/* c (m x m, row-major): the lower triangle from the upper one, in tiles so
 * that the column reads stay in cache (a plain copy per element was a third
 * of syrk's own time at m = 500). Items move by size (ARS_ITEM_TYPES). */
#define FILL_TILE 64
#define FILL_LOWER(T)                                                               \
    static void fill_lower_##T(char *cc, int64_t m)                                 \
    {                                                                               \
        T *c = (T *)(void *)cc;                                                     \
        for (int64_t ib = 0; ib < m; ib += FILL_TILE)                               \
            for (int64_t jb = ib; jb < m; jb += FILL_TILE) {                        \
                int64_t ie = ib + FILL_TILE < m ? ib + FILL_TILE : m;               \
                int64_t je = jb + FILL_TILE < m ? jb + FILL_TILE : m;               \
                for (int64_t i = ib; i < ie; i++)                                   \
                    for (int64_t j = jb > i + 1 ? jb : i + 1; j < je; j++)          \
                        c[j * m + i] = c[i * m + j];                                \
            }                                                                       \
    }
ARS_ITEM_TYPES(FILL_LOWER)

static void fill_lower(char *c, int64_t m, int64_t isz)
{
    static void (*const fills[])(char *, int64_t) = ARS_SIZE_TABLE(fill_lower_);
    fills[ars_size_class(isz)](c, m);  /* isz: 4, 8 or 16 (the BLAS dtypes) */
}

/* c (m x m, row-major) = A A^T for A m x k, row-major with lda, or stored
 * transposed (k x m row-major) when trans; the upper triangle by syrk (as
 * NumPy asks for it: OpenBLAS's lower-triangle form ran 15% slower), then
 * mirrored (a plain transpose: symmetric, also for complex). */
static void blas_syrk(int dtype, int trans, int64_t m, int64_t k, const char *a, int64_t lda,
                      int add, char *c)
{
    int op = trans ? CBLAS_T : CBLAS_N;
    switch (dtype) {
    case ARS_FLOAT32:
        BLAS(cblas_ssyrk, 0, ssyrk_t)(CBLAS_ROW, CBLAS_UPPER, op, m, k, 1.0f, a, lda,
                                      add ? 1.0f : 0.0f, c, m);
        break;
    case ARS_FLOAT64:
        BLAS(cblas_ssyrk, 1, dsyrk_t)(CBLAS_ROW, CBLAS_UPPER, op, m, k, 1.0, a, lda,
                                      add ? 1.0 : 0.0, c, m);
        break;
    case ARS_COMPLEX64: {
        float one[2] = {1.0f, 0.0f}, beta[2] = {add ? 1.0f : 0.0f, 0.0f};
        BLAS(cblas_ssyrk, 2, csyrk_t)(CBLAS_ROW, CBLAS_UPPER, op, m, k, one, a, lda, beta,
                                      c, m);
        break;
    }
    default: {
        double one[2] = {1.0, 0.0}, beta[2] = {add ? 1.0 : 0.0, 0.0};
        BLAS(cblas_ssyrk, 3, csyrk_t)(CBLAS_ROW, CBLAS_UPPER, op, m, k, one, a, lda, beta,
                                      c, m);
        break;
    }
    }
}

/* c (m x n, row-major) = A B, plus c when add. */
static void blas_gemm(int dtype, int opa, int opb, int64_t m, int64_t n, int64_t k,
                      const char *a, int64_t lda, const char *b, int64_t ldb, int add, char *c)
{
    switch (dtype) {
    case ARS_FLOAT32:
        BLAS(cblas_sgemm, 0, sgemm_t)(CBLAS_ROW, opa, opb, m, n, k, 1.0f, a, lda, b, ldb,
                                      add ? 1.0f : 0.0f, c, n);
        break;
    case ARS_FLOAT64:
        BLAS(cblas_sgemm, 1, dgemm_t)(CBLAS_ROW, opa, opb, m, n, k, 1.0, a, lda, b, ldb,
                                      add ? 1.0 : 0.0, c, n);
        break;
    case ARS_COMPLEX64: {
        float one[2] = {1.0f, 0.0f}, beta[2] = {add ? 1.0f : 0.0f, 0.0f};
        BLAS(cblas_sgemm, 2, cgemm_t)(CBLAS_ROW, opa, opb, m, n, k, one, a, lda, b, ldb,
                                      beta, c, n);
        break;
    }
    default: {
        double one[2] = {1.0, 0.0}, beta[2] = {add ? 1.0 : 0.0, 0.0};
        BLAS(cblas_sgemm, 3, cgemm_t)(CBLAS_ROW, opa, opb, m, n, k, one, a, lda, b, ldb,
                                      beta, c, n);
        break;
    }
    }
}

/* Ctrl-C: a gemm or syrk of more than PANEL_WORK multiply-adds (complex ones
 * count 4) runs as a sum over panels of the reduction dim, c = A[:, p] B[p, :]
 * summed over p, and stops between panels once ars_interrupted(). A panel
 * spans a multiple of KP_ALIGN (a multiple of the k-blocks OpenBLAS's x86
 * gemm kernels use, 256 or 384), so that BLAS packs little more and sweeps c
 * little more often than in one call. A panel holds at most PANEL_WORK
 * multiply-adds (about 0.1 s on one current core) or KP_ALIGN of k, whichever
 * is more: 4000 x 4000 float64 runs in 6 panels. */
static const int64_t PANEL_WORK = (int64_t)1 << 31;
enum { KP_ALIGN = 768 };

static int64_t k_panel(int dtype, int64_t m, int64_t n, int64_t k)
{
    int64_t mn = m * n * (dtype >= ARS_COMPLEX64 ? 4 : 1);
    if (k <= KP_ALIGN || k <= PANEL_WORK / mn)
        return k;
    int64_t kp = PANEL_WORK / mn / KP_ALIGN * KP_ALIGN;
    return kp < KP_ALIGN ? KP_ALIGN : kp;
}

static int gemm_one(const mm_job *job, const char *a, const char *b, char *c, tiles *t)
{
    int64_t m = job->m, n = job->n, k = job->k, isz = job->isz;
    const int64_t *as = job->as + job->nbatch, *bs = job->bs + job->nbatch;
    if (m == 0 || n == 0)
        return ARS_OK;
    if (k == 0) {
        memset(c, 0, (size_t)(m * n * isz));
        return ARS_OK;
    }
    int ta = 0, tb = 0;
    int64_t lda = 0, ldb = 0, incx, incy;
    if (m == 1 && n == 1) {  /* a row times a column: dot */
        if (!blas_vector(k, &a, as[1], isz, &t->ta, &t->na, &incx) ||
            !blas_vector(k, &b, bs[0], isz, &t->tb, &t->nb, &incy))
            return ARS_ERR_NOMEM;
        blas_dot(job->dtype, k, a, incx, b, incy, c);
        return ARS_OK;
    }
    /* A matrix times a vector: gemv, the matrix in BLAS's row-major form
     * as it is stored (by rows, or by columns as its transpose). */
    if (n == 1 && blas_layout(m, k, as[0], as[1], isz, &ta, &lda)) {
        if (!blas_vector(k, &b, bs[0], isz, &t->tb, &t->nb, &incx))
            return ARS_ERR_NOMEM;
        if (ta)
            blas_gemv(job->dtype, 1, k, m, a, lda, b, incx, c);
        else
            blas_gemv(job->dtype, 0, m, k, a, lda, b, incx, c);
        return ARS_OK;
    }
    if (m == 1 && blas_layout(k, n, bs[0], bs[1], isz, &tb, &ldb) && !tb) {
        if (!blas_vector(k, &a, as[1], isz, &t->ta, &t->na, &incx))
            return ARS_ERR_NOMEM;
        blas_gemv(job->dtype, 1, k, n, b, ldb, a, incx, c);
        return ARS_OK;
    }
    int syrk = m == n && a == b && as[0] == bs[1] && as[1] == bs[0];
    /* b is a's transpose (same address, swapped strides): A A^T by syrk,
     * exactly symmetric as NumPy's (gemm is faster when k << m, 500 x 10:
     * 108 us against 337, but its two triangles can differ in the last bit) */
    if (!blas_operand(m, k, &a, as, isz, &t->ta, &t->na, &ta, &lda) ||
        (!syrk && !blas_operand(k, n, &b, bs, isz, &t->tb, &t->nb, &tb, &ldb)))
        return ARS_ERR_NOMEM;
    int opa = ta ? CBLAS_T : CBLAS_N, opb = tb ? CBLAS_T : CBLAS_N;
    int64_t kp = k_panel(job->dtype, m, n, k);
    for (int64_t p0 = 0; p0 < k; p0 += kp) {
        if (p0 > 0 && ars_interrupted())
            return ARS_OK;  /* c is dropped */
        int64_t kn = k - p0 < kp ? k - p0 : kp;
        /* column p0 of A and row p0 of B, as stored */
        const char *ap = a + p0 * (ta ? lda : 1) * isz;
        if (syrk)
            blas_syrk(job->dtype, ta, m, kn, ap, lda, p0 > 0, c);
        else
            blas_gemm(job->dtype, opa, opb, m, n, kn, ap, lda, b + p0 * (tb ? 1 : ldb) * isz,
                      ldb, p0 > 0, c);
    }
    if (syrk)
        fill_lower(c, m, isz);
    return ARS_OK;
}

/* A strided rows x cols matrix of a narrow float into a row-major float32 tile
 * (exact), a row at a time through the table's block conversion. */
static void narrow_tile(int dtype, int64_t rows, int64_t cols, const char *src, int64_t rs,
                        int64_t cs, float *dst)
{
    ars_narrow_load_fn load = dtype == ARS_FLOAT16 ? ars_load_FLOAT16 : ars_load_BFLOAT16;
    for (int64_t i = 0; i < rows; i++)
        load(dst + i * cols, src + i * rs, cs, cols);
}

/* One matrix of a narrow float product: its operands converted to float32
 * tiles, row-major (the layout of a C-ordered float32 copy of each) unless
 * job->col_major asks for column-major, the float32
 * product of gemm_one on them (the same BLAS calls, panels and leading
 * dimensions as that of the float32 copies), the result rounded once into c. */
static int gemm_one_narrow(const mm_job *job, const char *a, const char *b, char *c, tiles *t)
{
    int64_t m = job->m, n = job->n, k = job->k;
    const int64_t *as = job->as + job->nbatch, *bs = job->bs + job->nbatch;
    const int64_t most = INT64_MAX / 8;  /* m k, k n and m n of an allocation we could make */
    if (m > most / k || n > most / k || m > most / n)
        return ARS_ERR_NOMEM;
    float *fa = (float *)(void *)tile_get(&t->wa, &t->nwa, m * k * 4);
    float *fb = (float *)(void *)tile_get(&t->wb, &t->nwb, k * n * 4);
    float *fc = (float *)(void *)tile_get(&t->wc, &t->nwc, m * n * 4);
    if (!fa || !fb || !fc)
        return ARS_ERR_NOMEM;
    int64_t fas[2] = {k * 4, 4}, fbs[2] = {n * 4, 4};
    if (job->col_major & 1) {  /* A^T row-major */
        narrow_tile(job->dtype, k, m, a, as[1], as[0], fa);
        fas[0] = 4;
        fas[1] = m * 4;
    } else {
        narrow_tile(job->dtype, m, k, a, as[0], as[1], fa);
    }
    if (job->col_major & 2) {
        narrow_tile(job->dtype, n, k, b, bs[1], bs[0], fb);
        fbs[0] = 4;
        fbs[1] = k * 4;
    } else {
        narrow_tile(job->dtype, k, n, b, bs[0], bs[1], fb);
    }
    mm_job fjob = {ARS_FLOAT32, 0, NULL, m, n, k, 4, NULL, NULL, NULL, fas, fbs, m, 1,
                   ARS_OK, 0, 0, 0};
    int rc = gemm_one(&fjob, (const char *)fa, (const char *)fb, (char *)fc, t);
    if (rc != ARS_OK)
        return rc;
    (job->dtype == ARS_FLOAT16 ? ars_store_FLOAT16 : ars_store_BFLOAT16)(c, job->isz, fc, m * n);
    return ARS_OK;
}

static int gemm_any(const mm_job *job, const char *a, const char *b, char *c, tiles *t)
{
    return ars_has_kernels(job->dtype) ? gemm_one(job, a, b, c, t)
                                       : gemm_one_narrow(job, a, b, c, t);
}

/* A worker of the small-gemm batch: takes batch elements one at a time from a
 * shared counter, so a thread the OS leaves waiting delays nobody. */
static void gemm_worker(int64_t begin, int64_t end, void *ctx)
{
    (void)begin, (void)end;
    mm_job *job = ctx;
    tiles t = {NULL, NULL, 0, 0, NULL, NULL, NULL, 0, 0, 0};
    for (;;) {
        int64_t i = atomic_fetch_add(&job->next, 1);
        if (i >= job->nbatch_total || ars_interrupted())
            break;
        const char *a, *b;
        char *c;
        batch_ptrs(job, i, &a, &b, &c);
        if (gemm_any(job, a, b, c, &t) != ARS_OK)
            job->status = ARS_ERR_NOMEM;
    }
    tiles_free(&t);
}

static void gemm_range(int64_t begin, int64_t end, void *ctx)
{
    mm_job *job = ctx;
    tiles t = {NULL, NULL, 0, 0, NULL, NULL, NULL, 0, 0, 0};
    for (int64_t i = begin; i < end && !ars_interrupted(); i++) {
        const char *a, *b;
        char *c;
        batch_ptrs(job, i, &a, &b, &c);
        if (gemm_any(job, a, b, c, &t) != ARS_OK)
            job->status = ARS_ERR_NOMEM;  /* every writer stores the same value */
    }
    tiles_free(&t);
}

/* ---- integers and bool: our own blocked kernel --------------------------------
 * Products accumulate in an unsigned type at least as wide as int, so that
 * overflow wraps (as NumPy's integer matmul does) without undefined behaviour. */

typedef uint32_t wrap_int8_t, wrap_int16_t, wrap_int32_t, wrap_uint8_t, wrap_uint16_t,
    wrap_uint32_t;
typedef uint64_t wrap_int64_t, wrap_uint64_t;

/* B rows of one block of the reduction dim: ~256 KiB of B per block. */
static int64_t k_block(int64_t n, int64_t isz)
{
    int64_t kb = (256 * 1024) / (n * isz > 0 ? n * isz : 1);
    return kb < 8 ? 8 : kb;
}

#define IMM_DEF(NAME, T, W, MAC)                                                      \
    static void imm_##NAME(const mm_job *job, int64_t r0, int64_t r1, const char *a,  \
                           const T *bt, char *c, W *acc)                              \
    {                                                                                 \
        int64_t n = job->n, k = job->k;                                               \
        int64_t ars = job->as[job->nbatch], acs = job->as[job->nbatch + 1];           \
        int64_t rows = r1 - r0, kb = k_block(n, sizeof(T));                           \
        memset(acc, 0, (size_t)(rows * n) * sizeof(W));                               \
        for (int64_t p0 = 0; p0 < k; p0 += kb) {                                      \
            int64_t p1 = p0 + kb < k ? p0 + kb : k;                                   \
            for (int64_t i = r0; i < r1; i++) {                                       \
                W *arow = acc + (i - r0) * n;                                         \
                for (int64_t p = p0; p < p1; p++) {                                   \
                    T av;                                                             \
                    memcpy(&av, a + i * ars + p * acs, sizeof(T));                    \
                    if (av == 0)                                                      \
                        continue;                                                     \
                    const T *brow = bt + p * n;                                       \
                    for (int64_t j = 0; j < n; j++)                                   \
                        MAC(arow[j], (W)av, (W)brow[j]);                              \
                }                                                                     \
            }                                                                         \
        }                                                                             \
        T *out = (T *)c + r0 * n;                                                     \
        for (int64_t e = 0; e < rows * n; e++)                                        \
            out[e] = (T)acc[e];                                                       \
    }
#define MAC_ADD(acc, x, y) ((acc) += (x) * (y))
#define MAC_OR(acc, x, y) ((acc) |= (x) & (y))

#define IMM_KB(NAME, T) IMM_DEF(NAME, T, uint8_t, MAC_OR)
#define IMM_KI(NAME, T) IMM_DEF(NAME, T, wrap_##T, MAC_ADD)
#define IMM_KU(NAME, T) IMM_DEF(NAME, T, wrap_##T, MAC_ADD)
#define IMM_KF(NAME, T)
#define IMM_KC(NAME, T)
#define X(NAME, T, K) IMM_##K(NAME, T)
ARS_DTYPES(X)
#undef X

static void imatmul_range(int64_t begin, int64_t end, void *ctx)
{
    mm_job *job = ctx;
    int64_t n = job->n, k = job->k, isz = job->isz;
    int64_t wsz = isz < 4 ? 4 : isz;
    if (job->dtype == ARS_BOOL)
        wsz = 1;
    char *bt = malloc((size_t)(k * n * isz) + 1);
    char *acc = malloc((size_t)(job->rows_per_unit * n * wsz) + 1);
    if (!bt || !acc) {
        job->status = ARS_ERR_NOMEM;
        free(bt);
        free(acc);
        return;
    }
    int64_t packed = -1;
    for (int64_t u = begin; u < end && !ars_interrupted(); u++) {
        int64_t batch = u / job->units_per_batch, blk = u % job->units_per_batch;
        int64_t r0 = blk * job->rows_per_unit;
        int64_t r1 = r0 + job->rows_per_unit < job->m ? r0 + job->rows_per_unit : job->m;
        const char *a, *b;
        char *c;
        batch_ptrs(job, batch, &a, &b, &c);
        if (packed != batch) {
            const int64_t *bs = job->bs + job->nbatch;
            ars_tile_copy(k, n, b, bs[0], bs[1], bt, isz);
            packed = batch;
        }
        switch (job->dtype) {
#define IMM_CASE_KB(NAME, T) case ARS_##NAME: imm_##NAME(job, r0, r1, a, (const T *)bt, c, (uint8_t *)acc); break;
#define IMM_CASE_KI(NAME, T) case ARS_##NAME: imm_##NAME(job, r0, r1, a, (const T *)bt, c, (wrap_##T *)acc); break;
#define IMM_CASE_KU IMM_CASE_KI
#define IMM_CASE_KF(NAME, T)
#define IMM_CASE_KC(NAME, T)
#define X(NAME, T, K) IMM_CASE_##K(NAME, T)
            ARS_DTYPES(X)
#undef X
        default: break;
        }
    }
    free(bt);
    free(acc);
}

/* ---- entry point ------------------------------------------------------------- */

int ars_matmul(int dtype, int nbatch, const int64_t *batch_shape, int64_t m, int64_t n,
               int64_t k, const char *a, const int64_t *a_strides, const char *b,
               const int64_t *b_strides, char *c)
{
    return ars_matmul_ex(dtype, nbatch, batch_shape, m, n, k, a, a_strides, b, b_strides, c, 0);
}

int ars_matmul_ex(int dtype, int nbatch, const int64_t *batch_shape, int64_t m, int64_t n,
                  int64_t k, const char *a, const int64_t *a_strides, const char *b,
                  const int64_t *b_strides, char *c, int col_major)
{
    if (dtype < 0 || dtype >= ARS_NDTYPES)
        return ARS_ERR_DTYPE;
    int narrow = dtype == ARS_FLOAT16 || dtype == ARS_BFLOAT16;  /* in float32 */
    if (!ars_has_kernels(dtype) && !narrow)
        return ARS_ERR_DTYPE;
    if (nbatch < 0 || nbatch > ARS_MAX_DIMS)
        return ARS_ERR_NDIM;
    int64_t nb = 1;
    for (int d = 0; d < nbatch; d++)
        nb *= batch_shape[d];
    if (nb == 0 || m == 0 || n == 0)
        return ARS_OK;
    mm_job job = {dtype, nbatch, batch_shape, m, n, k, ars_itemsize[dtype],
                  a, b, c, a_strides, b_strides, m, 1, ARS_OK, 0, 0, col_major & 3};
    int64_t work = m * n * (k > 0 ? k : 1);
    if (dtype >= ARS_FLOAT32 || narrow) {
        if (!ars_blas_ready())
            return ARS_ERR_ARG;
        if (k == 0) {
            memset(c, 0, (size_t)(nb * m * n * job.isz));
            return ARS_OK;
        }
        /* OpenBLAS threads a single large gemm itself; in a batch of small
         * ones, each of our threads runs whole single-threaded gemms, taking
         * the next matrix from a shared counter. */
        if (nb > 1 && work <= (int64_t)1 << 21) {
            int64_t nt = ars_get_num_threads(), per = ((int64_t)1 << 16) / work + 1;
            if (nt > nb / per)
                nt = nb / per > 1 ? nb / per : 1;
            atomic_init(&job.next, 0);
            job.nbatch_total = nb;
            ars_parallel_for(nt, 1, gemm_worker, &job);
        } else {
            gemm_range(0, nb, &job);
        }
        return job.status;
    }
    if (k == 0) {
        memset(c, 0, (size_t)(nb * m * n * job.isz));
        return ARS_OK;
    }
    job.rows_per_unit = m < 64 ? m : 64;
    job.units_per_batch = (m + job.rows_per_unit - 1) / job.rows_per_unit;
    int64_t units = nb * job.units_per_batch;
    int64_t per_unit = job.rows_per_unit * n * k;
    int64_t grain = ((int64_t)1 << 16) / (per_unit > 0 ? per_unit : 1);
    ars_parallel_for(units, grain < 1 ? 1 : grain, imatmul_range, &job);
    return job.status;
}
