/* Counting kernels: bincount and the equal-width histogram. One pass over a
 * strided lane each; the callers (arrstride/_numpy_stats.py) check the
 * arguments first. */
#include <stdint.h>
#include <string.h>
#include "arrstride.h"

int ars_int64_range(const char *x, int64_t n, int64_t sx, int64_t *lo, int64_t *hi)
{
    int64_t mn = INT64_MAX, mx = INT64_MIN;
    if (sx == (int64_t)sizeof(int64_t)) {
        const int64_t *p = (const int64_t *)x;
        for (int64_t i = 0; i < n; i++) {
            int64_t v = p[i];
            mn = v < mn ? v : mn;
            mx = v > mx ? v : mx;
        }
    } else {
        for (int64_t i = 0; i < n; i++) {
            int64_t v;
            memcpy(&v, x + i * sx, sizeof v);
            mn = v < mn ? v : mn;
            mx = v > mx ? v : mx;
        }
    }
    *lo = mn;
    *hi = mx;
    return 0;
}

/* Four partial count tables would cut the store-to-load stalls of runs of
 * equal values, but cost four times the memory for large nbins; one table
 * with the loop unrolled is what NumPy does too. */
int ars_bincount(const char *x, int64_t n, int64_t sx, const char *w, int64_t sw,
                 char *out, int64_t nbins)
{
    if (w == NULL) {
        int64_t *c = (int64_t *)out;
        memset(c, 0, (size_t)nbins * sizeof *c);
        for (int64_t i = 0; i < n; i++) {
            int64_t v;
            memcpy(&v, x + i * sx, sizeof v);
            if ((uint64_t)v >= (uint64_t)nbins)
                return ARS_ERR_ARG;
            c[v]++;
        }
    } else {
        double *c = (double *)out;
        for (int64_t j = 0; j < nbins; j++)
            c[j] = 0.0;
        for (int64_t i = 0; i < n; i++) {
            int64_t v;
            double wv;
            memcpy(&v, x + i * sx, sizeof v);
            memcpy(&wv, w + i * sw, sizeof wv);
            if ((uint64_t)v >= (uint64_t)nbins)
                return ARS_ERR_ARG;
            c[v] += wv;
        }
    }
    return 0;
}

/* NumPy's equal-width binning: the bin from the scaled offset, then moved
 * by at most one so that edges[k] <= v < edges[k+1] holds exactly (the last
 * bin includes its right edge); values outside [edges[0], edges[nbins]] and
 * NaNs are skipped. */
int ars_histogram(const char *x, int64_t n, int64_t sx, const char *w, int64_t sw,
                  const double *edges, int64_t nbins, char *out)
{
    const double first = edges[0], last = edges[nbins];
    const double denom = last - first;
    const double scale = (double)nbins;
    int64_t *ci = (int64_t *)out;
    double *cw = (double *)out;
    if (w == NULL)
        memset(ci, 0, (size_t)nbins * sizeof *ci);
    else
        for (int64_t j = 0; j < nbins; j++)
            cw[j] = 0.0;
    for (int64_t i = 0; i < n; i++) {
        double v;
        memcpy(&v, x + i * sx, sizeof v);
        if (!(v >= first && v <= last))
            continue;
        double f = ((v - first) / denom) * scale;
        int64_t k = f < (double)nbins ? (int64_t)f : nbins;
        if (k >= nbins)
            k = nbins - 1;
        if (k < 0)
            k = 0;
        if (v < edges[k])
            k--;
        else if (k != nbins - 1 && v >= edges[k + 1])
            k++;
        if (w == NULL) {
            ci[k]++;
        } else {
            double wv;
            memcpy(&wv, w + i * sw, sizeof wv);
            cw[k] += wv;
        }
    }
    return 0;
}
