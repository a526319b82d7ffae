/* BLAS/LAPACK entry points, as function pointers handed over at import time
 * (arrstride/_blas.py dlopens scipy-openblas64 and calls ars_blas_set).
 * Integers are ILP64 (int64_t). Matrices are passed as void*; real and
 * complex variants of one routine share a pointer type where their
 * arguments are all pointers. Not read by cffi. */
#ifndef ARS_BLAS_H
#define ARS_BLAS_H

#include <stdint.h>

/* Each routine in s, d, c, z order, so that `SYM + f` picks the variant for
 * f = 0 (float32), 1 (float64), 2 (complex64), 3 (complex128). */
#define ARS_BLAS_SYMS(X)                                                         \
    X(cblas_sgemm) X(cblas_dgemm) X(cblas_cgemm) X(cblas_zgemm)                   \
    X(cblas_sgemv) X(cblas_dgemv) X(cblas_cgemv) X(cblas_zgemv)                   \
    X(cblas_ssyrk) X(cblas_dsyrk) X(cblas_csyrk) X(cblas_zsyrk)                   \
    X(cblas_strsm) X(cblas_dtrsm) X(cblas_ctrsm) X(cblas_ztrsm)                   \
    X(cblas_sdot) X(cblas_ddot) X(cblas_cdotu_sub) X(cblas_zdotu_sub)             \
    X(LAPACKE_sgetrf) X(LAPACKE_dgetrf) X(LAPACKE_cgetrf) X(LAPACKE_zgetrf)       \
    X(LAPACKE_sgesv) X(LAPACKE_dgesv) X(LAPACKE_cgesv) X(LAPACKE_zgesv)           \
    X(LAPACKE_spotrf) X(LAPACKE_dpotrf) X(LAPACKE_cpotrf) X(LAPACKE_zpotrf)       \
    X(LAPACKE_ssyevd) X(LAPACKE_dsyevd) X(LAPACKE_cheevd) X(LAPACKE_zheevd)       \
    X(LAPACKE_sgeev) X(LAPACKE_dgeev) X(LAPACKE_cgeev) X(LAPACKE_zgeev)           \
    X(LAPACKE_sgesdd) X(LAPACKE_dgesdd) X(LAPACKE_cgesdd) X(LAPACKE_zgesdd)       \
    X(LAPACKE_sgeqrf) X(LAPACKE_dgeqrf) X(LAPACKE_cgeqrf) X(LAPACKE_zgeqrf)       \
    X(LAPACKE_sorgqr) X(LAPACKE_dorgqr) X(LAPACKE_cungqr) X(LAPACKE_zungqr)

enum {
#define X(name) SYM_##name,
    ARS_BLAS_SYMS(X)
#undef X
    ARS_NSYMS
};

extern void *ars_blas_fn[ARS_NSYMS];

enum { CBLAS_ROW = 101, CBLAS_COL = 102, CBLAS_N = 111, CBLAS_T = 112, CBLAS_C = 113 };
enum { CBLAS_UPPER = 121, CBLAS_LOWER = 122 };
enum { CBLAS_NONUNIT = 131, CBLAS_LEFT = 141, CBLAS_RIGHT = 142 };
enum { LAPACK_COL = 102 };

typedef int64_t li;  /* lapack_int / blasint of the ILP64 build */

typedef void (*sgemm_t)(int, int, int, li, li, li, float, const void *, li,
                        const void *, li, float, void *, li);
typedef void (*dgemm_t)(int, int, int, li, li, li, double, const void *, li,
                        const void *, li, double, void *, li);
typedef void (*cgemm_t)(int, int, int, li, li, li, const void *, const void *, li,
                        const void *, li, const void *, void *, li);
typedef void (*sgemv_t)(int, int, li, li, float, const void *, li, const void *, li, float,
                        void *, li);
typedef void (*dgemv_t)(int, int, li, li, double, const void *, li, const void *, li, double,
                        void *, li);
typedef void (*cgemv_t)(int, int, li, li, const void *, const void *, li, const void *, li,
                        const void *, void *, li);
typedef void (*ssyrk_t)(int, int, int, li, li, float, const void *, li, float, void *, li);
typedef void (*dsyrk_t)(int, int, int, li, li, double, const void *, li, double, void *, li);
typedef void (*csyrk_t)(int, int, int, li, li, const void *, const void *, li, const void *,
                        void *, li);
typedef void (*strsm_t)(int, int, int, int, int, li, li, float, const void *, li, void *, li);
typedef void (*dtrsm_t)(int, int, int, int, int, li, li, double, const void *, li, void *, li);
typedef void (*ctrsm_t)(int, int, int, int, int, li, li, const void *, const void *, li, void *,
                        li);
typedef float (*sdot_t)(li, const void *, li, const void *, li);
typedef double (*ddot_t)(li, const void *, li, const void *, li);
typedef void (*cdotu_t)(li, const void *, li, const void *, li, void *);
typedef li (*getrf_t)(int, li, li, void *, li, li *);
typedef li (*gesv_t)(int, li, li, void *, li, li *, void *, li);
typedef li (*potrf_t)(int, char, li, void *, li);
typedef li (*syevd_t)(int, char, char, li, void *, li, void *);
typedef li (*geev_real_t)(int, char, char, li, void *, li, void *, void *, void *, li, void *, li);
typedef li (*geev_cplx_t)(int, char, char, li, void *, li, void *, void *, li, void *, li);
typedef li (*gesdd_t)(int, char, li, li, void *, li, void *, void *, li, void *, li);
typedef li (*geqrf_t)(int, li, li, void *, li, void *);
typedef li (*orgqr_t)(int, li, li, li, void *, li, const void *);

#define BLAS(sym, f, type) ((type)ars_blas_fn[SYM_##sym + (f)])

#endif
