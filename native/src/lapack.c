/* Batched LAPACK drivers (LAPACKE from scipy-openblas64, column-major).
 *
 * Every input is a contiguous stack of nb column-major matrices that the
 * caller owns and lets us overwrite; outputs are contiguous column-major
 * stacks. f selects the dtype: 0 float32, 1 float64, 2 complex64,
 * 3 complex128. info[b] receives LAPACK's status for batch element b
 * (< 0: the input held a NaN, outputs are NaN; > 0: the routine failed
 * in the way LAPACK documents). No factorization is written here. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ars_internal.h"
#include "ars_blas.h"

static const int64_t ISZ[4] = {4, 8, 8, 16};      /* element */
static const int64_t RSZ[4] = {4, 8, 4, 8};       /* its real part */

static int is_cplx(int f) { return f >= 2; }

static double complex ld(const char *p, int f)
{
    switch (f) {
    case 0: return *(const float *)p;
    case 1: return *(const double *)p;
    case 2: return *(const ars_c64 *)p;
    default: return *(const ars_c128 *)p;
    }
}

static void st(char *p, int f, double complex v)
{
    switch (f) {
    case 0: *(float *)p = (float)creal(v); break;
    case 1: *(double *)p = creal(v); break;
    case 2: *(ars_c64 *)p = (ars_c64)v; break;
    default: *(ars_c128 *)p = v; break;
    }
}

static void st_real(char *p, int f, double v)
{
    if (RSZ[f] == 4)
        *(float *)p = (float)v;
    else
        *(double *)p = v;
}

static double ld_real(const char *p, int f)
{
    return RSZ[f] == 4 ? *(const float *)p : *(const double *)p;
}

static void fill_nan(char *p, int64_t count, int f)
{
    for (int64_t i = 0; i < count; i++)
        st(p + i * ISZ[f], f, NAN + (is_cplx(f) ? NAN * I : 0));
}

static void fill_nan_real(char *p, int64_t count, int f)
{
    for (int64_t i = 0; i < count; i++)
        st_real(p + i * RSZ[f], f, NAN);
}

/* Iterative drivers (SVD, eigenvalues) can loop forever on Inf: they get
 * finite input only, and report non-finite input like LAPACKE reports NaN. */
static int all_finite(const char *p, int64_t count, int f)
{
    int64_t nreal = count * (is_cplx(f) ? 2 : 1);
    if (RSZ[f] == 4) {
        const float *v = (const float *)p;
        for (int64_t i = 0; i < nreal; i++)
            if (!isfinite(v[i]))
                return 0;
    } else {
        const double *v = (const double *)p;
        for (int64_t i = 0; i < nreal; i++)
            if (!isfinite(v[i]))
                return 0;
    }
    return 1;
}

/* The lower triangle of an n x n column-major matrix is finite. */
static int lower_finite(const char *a, int64_t n, int f)
{
    for (int64_t c = 0; c < n; c++)
        if (!all_finite(a + (c + c * n) * ISZ[f], n - c, f))
            return 0;
    return 1;
}

static void set_identity(char *p, int64_t rows, int64_t cols, int f)
{
    memset(p, 0, (size_t)(rows * cols * ISZ[f]));
    for (int64_t i = 0; i < rows && i < cols; i++)
        st(p + (i + i * rows) * ISZ[f], f, 1.0);
}

static li imax1(li v) { return v > 1 ? v : 1; }

typedef struct {
    int f;
    int64_t m, n, k;
    char *a, *b, *c, *d;
    const double *rtol;
    int64_t *info;
    int flag;
    char job;
    int status;
} la_job;

static int ready(int f)
{
    return f >= 0 && f < 4 && ars_blas_ready();
}

/* Every driver's entry: check f, run fn over the nb batch elements, return the
 * job's status. Batch elements run on several threads when each one is small;
 * a large factorization gets OpenBLAS's own threads instead. */
static int run_job(la_job j, int64_t nb, ars_range_fn fn)
{
    if (!ready(j.f))
        return ARS_ERR_ARG;
    int64_t n = j.m > j.n ? j.m : j.n;
    if (nb == 1 || (nb > 1 && n > 96)) {
        /* one at a time: after a Ctrl-C, no further matrix starts (a LAPACK
         * call itself runs to its end) */
        for (int64_t bi = 0; bi < nb && !ars_interrupted(); bi++)
            fn(bi, bi + 1, &j);
    } else if (nb > 1) {
        int64_t grain = ((int64_t)1 << 17) / (n * n * n + 64);
        ars_parallel_for(nb, grain < 1 ? 1 : grain, fn, &j);
    }
    return j.status;
}

/* ---- det / slogdet (getrf) ----------------------------------------------------- */

static void det_range(int64_t b0, int64_t b1, void *ctx)
{
    la_job *j = ctx;
    int f = j->f;
    int64_t n = j->n, isz = ISZ[f];
    li *ipiv = malloc((size_t)(n + 1) * sizeof(li));
    if (!ipiv) {
        j->status = ARS_ERR_NOMEM;
        return;
    }
    for (int64_t bi = b0; bi < b1; bi++) {
        char *a = j->a + bi * n * n * isz;
        double complex sign = 1.0;
        double logabs = 0.0;
        li info = 0;
        if (n > 0)
            info = BLAS(LAPACKE_sgetrf, f, getrf_t)(LAPACK_COL, n, n, a, n, ipiv);
        j->info[bi] = info;
        if (info < 0) {
            sign = NAN;
            logabs = NAN;
        } else if (info > 0) {
            sign = 0.0;
            logabs = -INFINITY;
        } else {
            for (int64_t i = 0; i < n; i++) {
                double complex d = ld(a + (i + i * n) * isz, f);
                double ad = cabs(d);
                logabs += log(ad);
                sign *= d / ad;
                if (ipiv[i] != i + 1)
                    sign = -sign;
            }
            if (!is_cplx(f))
                sign = creal(sign) < 0 ? -1.0 : 1.0;
        }
        if (j->b)
            st(j->b + bi * isz, f, sign);
        if (j->c)
            st_real(j->c + bi * RSZ[f], f, logabs);
        if (j->d)
            st(j->d + bi * isz, f, sign * exp(logabs));
    }
    free(ipiv);
}

int ars_la_det(int f, int64_t nb, int64_t n, char *a, char *sign, char *logabs, char *det,
               int64_t *info)
{
    return run_job((la_job){f, n, n, n, a, sign, logabs, det, NULL, info, 0, 0, ARS_OK},
                   nb, det_range);
}

/* ---- solve / inv (gesv) ----------------------------------------------------------- */

static void solve_range(int64_t b0, int64_t b1, void *ctx)
{
    la_job *j = ctx;
    int f = j->f;
    int64_t n = j->n, nrhs = j->k, isz = ISZ[f];
    li *ipiv = malloc((size_t)(n + 1) * sizeof(li));
    if (!ipiv) {
        j->status = ARS_ERR_NOMEM;
        return;
    }
    for (int64_t bi = b0; bi < b1; bi++) {
        char *a = j->a + bi * n * n * isz, *b = j->b + bi * n * nrhs * isz;
        if (j->flag)
            set_identity(b, n, n, f);
        li info = 0;
        if (n > 0 && nrhs > 0)
            info = BLAS(LAPACKE_sgesv, f, gesv_t)(LAPACK_COL, n, nrhs, a, n, ipiv, b, n);
        j->info[bi] = info;
        if (info < 0)
            fill_nan(b, n * nrhs, f);
    }
    free(ipiv);
}

/* Solve A X = B for nb stacks: a (n x n) and b (n x nrhs), X into b. With
 * `identity`, b is first set to the identity (nrhs == n): the inverse. */
int ars_la_solve(int f, int64_t nb, int64_t n, int64_t nrhs, char *a, char *b, int identity,
                 int64_t *info)
{
    return run_job((la_job){f, n, n, nrhs, a, b, NULL, NULL, NULL, info, identity, 0, ARS_OK},
                   nb, solve_range);
}

/* ---- cholesky (potrf) ------------------------------------------------------------ */

static void chol_range(int64_t b0, int64_t b1, void *ctx)
{
    la_job *j = ctx;
    int f = j->f;
    int64_t n = j->n, isz = ISZ[f];
    for (int64_t bi = b0; bi < b1; bi++) {
        char *a = j->a + bi * n * n * isz;
        li info = 0;
        if (n > 0)
            info = BLAS(LAPACKE_spotrf, f, potrf_t)(LAPACK_COL, j->flag ? 'U' : 'L', n, a, n);
        j->info[bi] = info;
        if (info < 0) {
            fill_nan(a, n * n, f);
            continue;
        }
        for (int64_t c = 0; c < n; c++)
            for (int64_t r = 0; r < n; r++)
                if (j->flag ? r > c : r < c)
                    memset(a + (r + c * n) * isz, 0, (size_t)isz);
    }
}

int ars_la_cholesky(int f, int64_t nb, int64_t n, char *a, int upper, int64_t *info)
{
    return run_job((la_job){f, n, n, n, a, NULL, NULL, NULL, NULL, info, upper, 0, ARS_OK},
                   nb, chol_range);
}

/* ---- eigh (syevd / heevd, lower triangle) -------------------------------------- */

static void eigh_range(int64_t b0, int64_t b1, void *ctx)
{
    la_job *j = ctx;
    int f = j->f;
    int64_t n = j->n, isz = ISZ[f];
    for (int64_t bi = b0; bi < b1; bi++) {
        char *a = j->a + bi * n * n * isz, *w = j->b + bi * n * RSZ[f];
        li info = lower_finite(a, n, f) ? 0 : -1;
        if (n > 0 && info == 0)
            info = BLAS(LAPACKE_ssyevd, f, syevd_t)(LAPACK_COL, j->flag ? 'V' : 'N', 'L', n, a,
                                                    n, w);
        j->info[bi] = info;
        if (info < 0) {
            fill_nan_real(w, n, f);
            fill_nan(a, n * n, f);
        }
    }
}

int ars_la_eigh(int f, int64_t nb, int64_t n, char *a, char *w, int vectors, int64_t *info)
{
    return run_job((la_job){f, n, n, n, a, w, NULL, NULL, NULL, info, vectors, 0, ARS_OK},
                   nb, eigh_range);
}

/* ---- eig (geev, right eigenvectors); w and v are complex ------------------------ */

static void eig_range(int64_t b0, int64_t b1, void *ctx)
{
    la_job *j = ctx;
    int f = j->f, fc = f | 2;             /* the complex dtype of the results */
    int64_t n = j->n, isz = ISZ[f], csz = ISZ[fc];
    int want_v = j->c != NULL;
    char *wr = NULL, *wi = NULL, *vr = NULL, dummy[16];
    if (!is_cplx(f)) {
        wr = malloc((size_t)(n * isz) + 1);
        wi = malloc((size_t)(n * isz) + 1);
        vr = malloc((size_t)(n * n * isz) + 1);
        if (!wr || !wi || !vr) {
            j->status = ARS_ERR_NOMEM;
            free(wr), free(wi), free(vr);
            return;
        }
    }
    for (int64_t bi = b0; bi < b1; bi++) {
        char *a = j->a + bi * n * n * isz, *w = j->b + bi * n * csz;
        char *v = want_v ? j->c + bi * n * n * csz : NULL;
        li info = all_finite(a, n * n, f) ? 0 : -1;
        char jobv = want_v ? 'V' : 'N';
        if (n > 0 && info == 0 && is_cplx(f))
            info = BLAS(LAPACKE_sgeev, f, geev_cplx_t)(LAPACK_COL, 'N', jobv, n, a, n, w, dummy, 1,
                                                       want_v ? v : dummy, want_v ? n : 1);
        else if (n > 0 && info == 0)
            info = BLAS(LAPACKE_sgeev, f, geev_real_t)(LAPACK_COL, 'N', jobv, n, a, n, wr, wi,
                                                       dummy, 1, want_v ? vr : dummy,
                                                       want_v ? n : 1);
        j->info[bi] = info;
        if (info != 0) {
            fill_nan(w, n, fc);
            if (v)
                fill_nan(v, n * n, fc);
            continue;
        }
        if (is_cplx(f))
            continue;
        for (int64_t c = 0; c < n; c++) {
            double re = ld_real(wr + c * isz, f), im = ld_real(wi + c * isz, f);
            st(w + c * csz, fc, re + im * I);
            if (!v)
                continue;
            if (im == 0.0) {
                for (int64_t r = 0; r < n; r++)
                    st(v + (r + c * n) * csz, fc, ld_real(vr + (r + c * n) * isz, f));
            } else if (im > 0.0 && c + 1 < n) {
                /* a conjugate pair: columns c and c+1 of vr hold re and im */
                for (int64_t r = 0; r < n; r++) {
                    double x = ld_real(vr + (r + c * n) * isz, f);
                    double y = ld_real(vr + (r + (c + 1) * n) * isz, f);
                    st(v + (r + c * n) * csz, fc, x + y * I);
                    st(v + (r + (c + 1) * n) * csz, fc, x - y * I);
                }
            }
        }
    }
    free(wr), free(wi), free(vr);
}

int ars_la_eig(int f, int64_t nb, int64_t n, char *a, char *w, char *v, int64_t *info)
{
    return run_job((la_job){f, n, n, n, a, w, v, NULL, NULL, info, 0, 0, ARS_OK},
                   nb, eig_range);
}

/* ---- svd (gesdd) ------------------------------------------------------------------ */

/* Typed BLAS-3 calls for the tall SVD below; column-major, alpha 1, beta 0. */
static void gemm_cm(int f, int ta, int tb, int64_t m, int64_t n, int64_t k, const char *a,
                    int64_t lda, const char *b, int64_t ldb, char *c, int64_t ldc)
{
    double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
    float onef[2] = {1.0f, 0.0f}, zerof[2] = {0.0f, 0.0f};
    if (f == 0)
        BLAS(cblas_sgemm, 0, sgemm_t)(CBLAS_COL, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f,
                                      c, ldc);
    else if (f == 1)
        BLAS(cblas_sgemm, 1, dgemm_t)(CBLAS_COL, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0,
                                      c, ldc);
    else
        BLAS(cblas_sgemm, f, cgemm_t)(CBLAS_COL, ta, tb, m, n, k,
                                      f == 2 ? (void *)onef : (void *)one, a, lda, b, ldb,
                                      f == 2 ? (void *)zerof : (void *)zero, c, ldc);
}

/* g (n x n, upper triangle written) = a^H a for a: m x n, lda m; or, real
 * only, for a stored row-major (lda n: column-major a^T, so g = a^T (a^T)^T). */
static void gram_rows(int f, int64_t m, int64_t n, const char *a, char *g)
{
    if (f == 0)
        BLAS(cblas_ssyrk, 0, ssyrk_t)(CBLAS_COL, CBLAS_UPPER, CBLAS_N, n, m, 1.0f, a, n, 0.0f,
                                      g, n);
    else
        BLAS(cblas_ssyrk, 1, dsyrk_t)(CBLAS_COL, CBLAS_UPPER, CBLAS_N, n, m, 1.0, a, n, 0.0,
                                      g, n);
}

static void gram_cm(int f, int64_t m, int64_t n, const char *a, char *g)
{
    if (f == 0)
        BLAS(cblas_ssyrk, 0, ssyrk_t)(CBLAS_COL, CBLAS_UPPER, CBLAS_T, n, m, 1.0f, a, m, 0.0f,
                                      g, n);
    else if (f == 1)
        BLAS(cblas_ssyrk, 1, dsyrk_t)(CBLAS_COL, CBLAS_UPPER, CBLAS_T, n, m, 1.0, a, m, 0.0,
                                      g, n);
    else
        gemm_cm(f, CBLAS_C, CBLAS_N, n, n, m, a, m, a, m, g, n);
}

/* b = b r^-1 (side CBLAS_RIGHT, b: rows x cols) or r^-1 b (CBLAS_LEFT); r upper, n x n. */
static void trsm_cm(int f, int side, int64_t rows, int64_t cols, const char *r, int64_t n,
                    char *b, int64_t ldb)
{
    double one[2] = {1.0, 0.0};
    float onef[2] = {1.0f, 0.0f};
    if (f == 0)
        BLAS(cblas_strsm, 0, strsm_t)(CBLAS_COL, side, CBLAS_UPPER, CBLAS_N, CBLAS_NONUNIT,
                                      rows, cols, 1.0f, r, n, b, ldb);
    else if (f == 1)
        BLAS(cblas_strsm, 1, dtrsm_t)(CBLAS_COL, side, CBLAS_UPPER, CBLAS_N, CBLAS_NONUNIT,
                                      rows, cols, 1.0, r, n, b, ldb);
    else
        BLAS(cblas_strsm, f, ctrsm_t)(CBLAS_COL, side, CBLAS_UPPER, CBLAS_N, CBLAS_NONUNIT,
                                      rows, cols, f == 2 ? (void *)onef : (void *)one, r, n,
                                      b, ldb);
}

/* Zero the strict lower triangle of an n x n column-major matrix. */
static void zero_lower(char *r, int64_t n, int f)
{
    for (int64_t c = 0; c + 1 < n; c++)
        memset(r + (c + 1 + c * n) * ISZ[f], 0, (size_t)((n - c - 1) * ISZ[f]));
}

/* Tall matrices (m >= TALL_RATIO * n) take the SVD of R from CholeskyQR2
 * (Fukaya, Nakatsukasa, Yanagisawa, Yamamoto 2014): a = Q1 R1 with R1 the
 * Cholesky factor of a^H a and Q1 = a R1^-1, then the same again on Q1, so
 * a = Q R with R = R2 R1 and Q = Q1 R2^-1 orthonormal to working precision;
 * then R = Ur S Vt (gesdd, n x n) and U = Q Ur = Q1 (R2^-1 Ur). Every pass
 * over a is one BLAS-3 call (syrk, trsm, syrk, gemm), where gesdd's own QR of
 * a tall matrix is a long run of BLAS-2 updates. The second Gram matrix
 * Q1^H Q1 measures how far Q1 is from orthonormal: unless it is within
 * TALL_TOL of the identity (cond(a)^2 * eps well below 1; otherwise a's
 * conditioning needs Householder QR), or a Cholesky factorization fails,
 * this returns 1 with a and the outputs unchanged, for gesdd to do the work.
 * jobz is 'S' (u: m x n, vt: n x n) or 'N'. */
/* ONE_PASS_COND: when cond(R1) = cond(a) is at most this, one Cholesky pass
 * is accurate enough and the second is skipped: a = Q1 R1, R1 = Ur S Vt,
 * U = a (R1^-1 Ur) in one gemm, S those of R1. The Gram matrix's rounding E
 * (|E| ~ eps |a|^2) then costs U^H U - I ~ |E| / s_min^2 ~ eps cond^2 and
 * S an absolute eps |a| cond: at cond 2, within a small factor of gesdd.
 * Passes over a: syrk and gemm (gesdd: a QR's worth of BLAS-2 sweeps). */
#define ONE_PASS_COND 2.0
#define ONE_PASS_MAX_N 256
#define TALL_RATIO 4
#define TALL_MIN 16384   /* m * n below this, gesdd is quick enough */
#define TALL_TOL 0.25

/* Where svd_tall measured faster than gesdd (OpenBLAS 0.3, one or two threads):
 * with vectors from 8 columns on; singular values alone from 16 to 256 columns. */
static int tall_pays(char jobz, int64_t m, int64_t n)
{
    if (jobz == 'A' || m < TALL_RATIO * n || m * n < TALL_MIN)
        return 0;
    return jobz == 'N' ? n >= 16 && n <= 256 : n >= 8;
}

/* The one-pass form: r1 (n x n work) = the Cholesky factor of a^H a, then, if
 * cond(R1) <= ONE_PASS_COND and a^H a was formed clear of underflow, s, vt and
 * u = a (R1^-1 Ur). a is column-major (lda m) or, rows set (real only),
 * row-major (lda n). Returns 1 when done, 0 when R1 is in r1 (upper, lower
 * zeroed) but its conditioning asks for the second pass, -1 when a^H a has
 * no finite Cholesky factor. w: 2 n x n elements of work. */
static int svd_one_pass(int f, char jobz, int64_t m, int64_t n, const char *a, int rows,
                        char *s, char *u, char *vt, char *r1, char *w)
{
    int64_t isz = ISZ[f], nn = n * n;
    char *r = w, *ur = w + nn * isz;
    char dummy[16];
    if (rows)
        gram_rows(f, m, n, a, r1);
    else
        gram_cm(f, m, n, a, r1);
    if (BLAS(LAPACKE_spotrf, f, potrf_t)(LAPACK_COL, 'U', n, r1, n) != 0)
        return -1;
    zero_lower(r1, n, f);
    if (!all_finite(r1, nn, f))                       /* a^H a overflowed */
        return -1;
    if (n > ONE_PASS_MAX_N)     /* the trial SVD of R1 would cost as much as a's own QR */
        return 0;
    memcpy(r, r1, (size_t)(nn * isz));
    if (BLAS(LAPACKE_sgesdd, f, gesdd_t)(LAPACK_COL, jobz, n, n, r, n, s,
                                         jobz == 'N' ? dummy : ur, jobz == 'N' ? 1 : n,
                                         jobz == 'N' ? dummy : vt, jobz == 'N' ? 1 : n) != 0)
        return 0;
    double smax = ld_real(s, f), smin = ld_real(s + (n - 1) * RSZ[f], f);
    double tiny = RSZ[f] == 4 ? FLT_MIN / FLT_EPSILON : DBL_MIN / DBL_EPSILON;
    if (!(smin > 0 && smax <= ONE_PASS_COND * smin && smin * smin >= (double)m * tiny))
        return 0;
    if (jobz != 'N') {
        trsm_cm(f, CBLAS_LEFT, n, n, r1, n, ur, n);     /* R1^-1 Ur = V S^-1 */
        gemm_cm(f, rows ? CBLAS_T : CBLAS_N, CBLAS_N, m, n, n, a, rows ? n : m, ur, n, u, m);
    }
    return 1;
}

static int svd_tall(int f, char jobz, int64_t m, int64_t n, char *a, char *s, char *u, char *vt,
                    li *info)
{
    int64_t isz = ISZ[f], nn = n * n;
    char *w = malloc((size_t)(4 * nn * isz) + 1), *save = NULL;
    char *r1 = w, *r2 = w + nn * isz, *r = w + 2 * nn * isz, *ur = w + 3 * nn * isz;
    char dummy[16];
    double dev = 0.0;                                 /* |Q1^H Q1 - I|_F^2 */
    int ok = 0, one;
    if (!w)
        goto done;
    one = svd_one_pass(f, jobz, m, n, a, 0, s, u, vt, r1, r);
    if (one != 0) {
        ok = one > 0;
        *info = 0;
        goto done;
    }
    save = jobz == 'N' ? malloc((size_t)(m * n * isz) + 1) : u;
    if (!save)
        goto done;
    memcpy(save, a, (size_t)(m * n * isz));           /* a itself, for gesdd if we give up */
    trsm_cm(f, CBLAS_RIGHT, m, n, r1, n, a, m);       /* a = Q1 */
    gram_cm(f, m, n, a, r2);
    for (int64_t c = 0; c < n; c++)
        for (int64_t i = 0; i <= c; i++) {
            double complex g = ld(r2 + (i + c * n) * isz, f) - (i == c ? 1.0 : 0.0);
            double a2 = creal(g) * creal(g) + cimag(g) * cimag(g);
            dev += i == c ? a2 : 2.0 * a2;
        }
    if (!(dev <= TALL_TOL * TALL_TOL)
        || BLAS(LAPACKE_spotrf, f, potrf_t)(LAPACK_COL, 'U', n, r2, n) != 0) {
        memcpy(a, save, (size_t)(m * n * isz));
        goto done;
    }
    zero_lower(r2, n, f);
    gemm_cm(f, CBLAS_N, CBLAS_N, n, n, n, r2, n, r1, n, r, n);   /* R = R2 R1 */
    *info = BLAS(LAPACKE_sgesdd, f, gesdd_t)(LAPACK_COL, jobz, n, n, r, n, s,
                                             jobz == 'N' ? dummy : ur, jobz == 'N' ? 1 : n,
                                             jobz == 'N' ? dummy : vt, jobz == 'N' ? 1 : n);
    if (jobz != 'N' && *info == 0) {
        trsm_cm(f, CBLAS_LEFT, n, n, r2, n, ur, n);             /* R2^-1 Ur */
        gemm_cm(f, CBLAS_N, CBLAS_N, m, n, n, a, m, ur, n, u, m);
    }
    ok = 1;
done:
    free(w);
    if (jobz == 'N')
        free(save);
    return ok ? 0 : 1;
}

static li svd_one(int f, char jobz, int64_t m, int64_t n, char *a, char *s, char *u, char *vt)
{
    int64_t k = m < n ? m : n;
    int64_t ucols = jobz == 'A' ? m : k, vtrows = jobz == 'A' ? n : k;
    if (m == 0 || n == 0) {
        if (jobz == 'A') {
            set_identity(u, m, m, f);
            set_identity(vt, n, n, f);
        }
        return 0;
    }
    char dummy[16];
    li info = all_finite(a, m * n, f) ? 0 : -1;
    if (info == 0 && tall_pays(jobz, m, n) && svd_tall(f, jobz, m, n, a, s, u, vt, &info) == 0)
        goto finish;
    if (info == 0)
        info = BLAS(LAPACKE_sgesdd, f, gesdd_t)(LAPACK_COL, jobz, m, n, a, m, s,
                                              jobz == 'N' ? dummy : u, jobz == 'N' ? 1 : m,
                                              jobz == 'N' ? dummy : vt,
                                              jobz == 'N' ? 1 : imax1(vtrows));
finish:
    if (info < 0) {
        fill_nan_real(s, k, f);
        if (jobz != 'N') {
            fill_nan(u, m * ucols, f);
            fill_nan(vt, vtrows * n, f);
        }
    }
    return info;
}

static void svd_range(int64_t b0, int64_t b1, void *ctx)
{
    la_job *j = ctx;
    int f = j->f;
    int64_t m = j->m, n = j->n, k = m < n ? m : n, isz = ISZ[f];
    int64_t ucols = j->job == 'A' ? m : k, vtrows = j->job == 'A' ? n : k;
    for (int64_t bi = b0; bi < b1; bi++)
        j->info[bi] = svd_one(f, j->job, m, n, j->a + bi * m * n * isz, j->b + bi * k * RSZ[f],
                              j->c ? j->c + bi * m * ucols * isz : NULL,
                              j->d ? j->d + bi * vtrows * n * isz : NULL);
}

/* jobz: 'A' (u: m x m, vt: n x n), 'S' (u: m x k, vt: k x n) or 'N' (s only). */
int ars_la_svd(int f, int64_t nb, int64_t m, int64_t n, char *a, char *s, char *u, char *vt,
               char jobz, int64_t *info)
{
    if (jobz != 'A' && jobz != 'S' && jobz != 'N')
        return ARS_ERR_ARG;
    return run_job((la_job){f, m, n, m < n ? m : n, a, s, u, vt, NULL, info, 0, jobz, ARS_OK},
                   nb, svd_range);
}

/* One real m x n matrix stored row-major (x, read only), tall enough for
 * svd_tall: its one-pass form straight from x, without the column-major copy
 * the general entry needs. *done = 0 (outputs unspecified) when x does not
 * qualify (complex, not tall, non-finite, cond(x) > ONE_PASS_COND): the caller
 * then takes ars_la_svd. u: m x n column-major, vt: n x n, s: n. */
int ars_la_svd_rows(int f, int64_t m, int64_t n, const char *x, char *s, char *u, char *vt,
                    char jobz, int *done)
{
    *done = 0;
    if (jobz != 'S' && jobz != 'N')
        return ARS_ERR_ARG;
    /* no pass over x for NaN or inf: one in column j makes a^H a's (j, j)
     * NaN or inf, which potrf refuses or the finiteness test of R1 catches,
     * and the general path (which reports it) takes over */
    if (!ready(f) || f > 1 || !tall_pays(jobz, m, n))
        return ARS_OK;
    char *w = malloc((size_t)(3 * n * n * ISZ[f]) + 1);
    if (!w)
        return ARS_ERR_NOMEM;
    *done = svd_one_pass(f, jobz, m, n, x, 1, s, u, vt, w, w + n * n * ISZ[f]) > 0;
    free(w);
    return ARS_OK;
}

/* ---- pinv (gesdd, then V diag(1/s) U^H with gemm) ------------------------------- */

static void pinv_range(int64_t b0, int64_t b1, void *ctx)
{
    la_job *j = ctx;
    int f = j->f;
    int64_t m = j->m, n = j->n, k = m < n ? m : n, isz = ISZ[f];
    char *s = malloc((size_t)(k * RSZ[f]) + 1);
    char *u = malloc((size_t)(m * k * isz) + 1);
    char *vt = malloc((size_t)(k * n * isz) + 1);
    if (!s || !u || !vt) {
        j->status = ARS_ERR_NOMEM;
        free(s), free(u), free(vt);
        return;
    }
    for (int64_t bi = b0; bi < b1; bi++) {
        char *a = j->a + bi * m * n * isz, *out = j->b + bi * n * m * isz;
        li info = svd_one(f, 'S', m, n, a, s, u, vt);
        j->info[bi] = info;
        if (k == 0)
            continue;
        if (info != 0) {
            fill_nan(out, n * m, f);
            continue;
        }
        double smax = ld_real(s, f);   /* gesdd sorts s in decreasing order */
        double cutoff = j->rtol[bi] * smax;
        for (int64_t l = 0; l < k; l++) {
            double sl = ld_real(s + l * RSZ[f], f);
            double inv = sl > cutoff ? 1.0 / sl : 0.0;
            for (int64_t r = 0; r < m; r++) {
                char *p = u + (r + l * m) * isz;
                st(p, f, ld(p, f) * inv);
            }
        }
        /* out (n x m) = vt^H (n x k) @ u^H (k x m), column-major */
        if (f == 0)
            BLAS(cblas_sgemm, 0, sgemm_t)(CBLAS_COL, CBLAS_C, CBLAS_C, n, m, k, 1.0f, vt, k, u,
                                          m, 0.0f, out, n);
        else if (f == 1)
            BLAS(cblas_sgemm, 1, dgemm_t)(CBLAS_COL, CBLAS_C, CBLAS_C, n, m, k, 1.0, vt, k, u,
                                          m, 0.0, out, n);
        else {
            double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
            float onef[2] = {1.0f, 0.0f}, zerof[2] = {0.0f, 0.0f};
            BLAS(cblas_sgemm, f, cgemm_t)(CBLAS_COL, CBLAS_C, CBLAS_C, n, m, k,
                                          f == 2 ? (void *)onef : (void *)one, vt, k, u, m,
                                          f == 2 ? (void *)zerof : (void *)zero, out, n);
        }
    }
    free(s), free(u), free(vt);
}

/* out (n x m per batch, column-major; zeroed by the caller) = pinv(a);
 * singular values <= rtol[b] * max(s) count as zero. */
int ars_la_pinv(int f, int64_t nb, int64_t m, int64_t n, char *a, char *out,
                const double *rtol, int64_t *info)
{
    return run_job((la_job){f, m, n, m < n ? m : n, a, out, NULL, NULL, rtol, info, 0, 0, ARS_OK},
                   nb, pinv_range);
}

/* Number of singular values above rtol[b] * max(s), for nb stacks of k values. */
int ars_la_rank(int f, int64_t nb, int64_t k, const char *s, const double *rtol, int64_t *out)
{
    if (f < 0 || f > 3)
        return ARS_ERR_ARG;
    for (int64_t bi = 0; bi < nb; bi++) {
        const char *sb = s + bi * k * RSZ[f];
        double smax = 0.0;
        for (int64_t l = 0; l < k; l++) {
            double v = ld_real(sb + l * RSZ[f], f);
            smax = v > smax ? v : smax;
        }
        int64_t count = 0;
        for (int64_t l = 0; l < k; l++)
            count += ld_real(sb + l * RSZ[f], f) > rtol[bi] * smax;
        out[bi] = count;
    }
    return ARS_OK;
}

/* ---- qr (geqrf + orgqr/ungqr) --------------------------------------------------- */

static void qr_range(int64_t b0, int64_t b1, void *ctx)
{
    la_job *j = ctx;
    int f = j->f;
    int64_t m = j->m, n = j->n, k = m < n ? m : n, isz = ISZ[f];
    int64_t qc = j->flag ? m : k, rr = j->flag ? m : k;
    char *tau = malloc((size_t)(k * isz) + 1);
    if (!tau) {
        j->status = ARS_ERR_NOMEM;
        return;
    }
    for (int64_t bi = b0; bi < b1; bi++) {
        char *a = j->a + bi * m * n * isz;
        char *q = j->b + bi * m * qc * isz, *r = j->c + bi * rr * n * isz;
        li info = 0;
        if (m > 0 && n > 0)
            info = BLAS(LAPACKE_sgeqrf, f, geqrf_t)(LAPACK_COL, m, n, a, m, tau);
        if (info != 0) {
            j->info[bi] = info;
            fill_nan(q, m * qc, f);
            fill_nan(r, rr * n, f);
            continue;
        }
        memset(r, 0, (size_t)(rr * n * isz));
        for (int64_t c = 0; c < n; c++)
            for (int64_t i = 0; i <= c && i < rr && i < m; i++)
                memcpy(r + (i + c * rr) * isz, a + (i + c * m) * isz, (size_t)isz);
        memset(q, 0, (size_t)(m * qc * isz));
        memcpy(q, a, (size_t)(m * k * isz));
        if (m > 0 && qc > 0)
            info = BLAS(LAPACKE_sorgqr, f, orgqr_t)(LAPACK_COL, m, qc, k, q, m, tau);
        j->info[bi] = info;
    }
    free(tau);
}

/* a: m x n; q: m x k (m x m when complete); r: k x n (m x n when complete). */
int ars_la_qr(int f, int64_t nb, int64_t m, int64_t n, char *a, char *q, char *r, int complete,
              int64_t *info)
{
    return run_job((la_job){f, m, n, m < n ? m : n, a, q, r, NULL, NULL, info, complete, 0, ARS_OK},
                   nb, qr_range);
}
