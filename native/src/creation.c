/* arange and linspace: values are computed in 64-bit (double, complex double
 * or int64 with wrapping) a chunk at a time, then cast into the output. */
#include <string.h>
#include "ars_internal.h"

enum { CHUNK = 1024 };

static int store_chunk(char *dst, int64_t i0, int64_t n, int dtype, const void *buf, int src_dtype)
{
    int64_t shape[1] = {n};
    int64_t dst_st[1] = {ars_itemsize[dtype]};
    int64_t src_st[1] = {ars_itemsize[src_dtype]};
    return ars_cast(1, shape, dst + i0 * ars_itemsize[dtype], dst_st, dtype,
                    buf, src_st, src_dtype);
}

static int is_float_kind(int dtype)
{
    return ars_is_inexact(dtype);
}

int ars_arange(char *dst, int64_t n, int dtype, double start, double step,
               int64_t istart, int64_t istep)
{
    if (dtype < 0 || dtype >= ARS_NDTYPES || n < 0)
        return ARS_ERR_ARG;
    for (int64_t i0 = 0; i0 < n; i0 += CHUNK) {
        int64_t m = n - i0 < CHUNK ? n - i0 : CHUNK;
        int rc;
        if (is_float_kind(dtype)) {
            double buf[CHUNK];
            for (int64_t i = 0; i < m; i++)
                buf[i] = start + (double)(i0 + i) * step;
            rc = store_chunk(dst, i0, m, dtype, buf, ARS_FLOAT64);
        } else {
            int64_t buf[CHUNK];
            for (int64_t i = 0; i < m; i++)  /* wrapping arithmetic */
                buf[i] = (int64_t)((uint64_t)istart + (uint64_t)(i0 + i) * (uint64_t)istep);
            rc = store_chunk(dst, i0, m, dtype, buf, ARS_INT64);
        }
        if (rc)
            return rc;
    }
    return ARS_OK;
}

int ars_linspace(char *dst, int64_t n, int dtype, double start_re, double start_im,
                 double stop_re, double stop_im, int endpoint)
{
    if (dtype < 0 || dtype >= ARS_NDTYPES || n < 0)
        return ARS_ERR_ARG;
    int64_t div = endpoint ? n - 1 : n;
    ars_c128 start = start_re + I * start_im, stop = stop_re + I * stop_im;
    ars_c128 delta = stop - start;
    ars_c128 step = div > 0 ? delta / (double)div : 0;
    for (int64_t i0 = 0; i0 < n; i0 += CHUNK) {
        int64_t m = n - i0 < CHUNK ? n - i0 : CHUNK;
        ars_c128 buf[CHUNK];
        for (int64_t i = 0; i < m; i++)
            buf[i] = (double)(i0 + i) * step + start;
        if (endpoint && n > 1 && i0 + m == n)
            buf[m - 1] = stop;
        int rc = store_chunk(dst, i0, m, dtype, buf, ARS_COMPLEX128);
        if (rc)
            return rc;
    }
    return ARS_OK;
}
