/* take / take_along_axis (one gather kernel), repeat indices. */
#include <stdlib.h>
#include <string.h>
#include "stats_internal.h"


typedef struct {
    int64_t axis_len, axis_stride;
    int64_t bad;
    int failed;
} take_ctx;

/* The gather checks each index as it goes (a branch that is never taken
 * while the indices are good, which costs less than a separate checking
 * pass). A source larger than TAKE_PREFETCH_BYTES is also prefetched
 * TAKE_AHEAD indices ahead: random gathers from it are bound by memory
 * latency, while from a cache-resident source the prefetch only costs (a
 * prefetch of a bad index's address is harmless: it never faults). */
enum { TAKE_AHEAD = 16 };
static const int64_t TAKE_PREFETCH_BYTES = (int64_t)1 << 20;

/* Index v of an axis of len as 0 <= *w < len; 0 when out of range (then c
 * records it: the first bad index any thread saw). len is passed rather than
 * read from c, which the compiler would reload after every store. */
static inline int take_wrap(take_ctx *c, int64_t len, int64_t v, int64_t *w)
{
    *w = v + ((v >> 63) & len);
    if (__builtin_expect((uint64_t)*w < (uint64_t)len, 1))
        return 1;
    __atomic_store_n(&c->bad, v, __ATOMIC_RELAXED);
    __atomic_store_n(&c->failed, 1, __ATOMIC_RELAXED);
    return 0;
}

/* out[I] = src[idx[I]] with the given byte strides (constants where the
 * caller knows them, so that the loop needs no multiplies for them). */
#define TAKE_AT(T, I, SI, SS, SO)                                                 \
    {                                                                             \
        int64_t w;                                                                \
        if (!take_wrap(c, len, ld_INT64(idx + (I) * (SI)), &w))                   \
            return;                                                               \
        T item;                                                                   \
        memcpy(&item, src + (I) * (SS) + w * step, sizeof(T));                    \
        memcpy(out + (I) * (SO), &item, sizeof(T));                               \
    }
#define TAKE_ONE(T, I) TAKE_AT(T, I, si, ss, so)

#define DEF_TAKE(T)                                                               \
    static void take_##T(char **data, int64_t n, const int64_t *s, void *p)      \
    {                                                                             \
        take_ctx *c = p;                                                          \
        const int64_t len = c->axis_len, step = c->axis_stride;                   \
        char *out = data[0];                                                      \
        const char *idx = data[1], *src = data[2];                                \
        const int64_t so = s[0], si = s[1], ss = s[2];                            \
        if (si == 0) { /* one index for the run: a row (or column) of src */      \
            int64_t w;                                                            \
            if (!take_wrap(c, len, ld_INT64(idx), &w))                            \
                return;                                                           \
            const char *from = src + w * step;                                    \
            if (so == (int64_t)sizeof(T) && ss == (int64_t)sizeof(T)) {           \
                memmove(out, from, (size_t)n * sizeof(T));                        \
                return;                                                           \
            }                                                                     \
            for (int64_t i = 0; i < n; i++) {                                     \
                T item;                                                           \
                memcpy(&item, from + i * ss, sizeof(T));                          \
                memcpy(out + i * so, &item, sizeof(T));                           \
            }                                                                     \
            return;                                                               \
        }                                                                         \
        int64_t i = 0;                                                            \
        /* the source's extent along the axis decides whether to prefetch */      \
        if (step != 0 && len > TAKE_PREFETCH_BYTES / (step < 0 ? -step : step))   \
            for (; i + TAKE_AHEAD < n; i++) {                                     \
                int64_t a = ld_INT64(idx + (i + TAKE_AHEAD) * si);                \
                a += (a >> 63) & len;                                             \
                __builtin_prefetch(src + (i + TAKE_AHEAD) * ss + a * step);       \
                TAKE_ONE(T, i)                                                    \
            }                                                                     \
        if (si == 8 && ss == 0 && so == (int64_t)sizeof(T)) {                     \
            for (; i < n; i++) /* the common 1-D gather, strides constant */     \
                TAKE_AT(T, i, 8, 0, (int64_t)sizeof(T))                           \
            return;                                                               \
        }                                                                         \
        for (; i < n; i++)                                                        \
            TAKE_ONE(T, i)                                                        \
    }
ARS_ITEM_TYPES(DEF_TAKE)

int ars_take(int ndim, const int64_t *shape,
             char *out, const int64_t *out_strides,
             const char *idx, const int64_t *idx_strides,
             const char *src, const int64_t *src_strides,
             int64_t axis_len, int64_t axis_stride, int64_t itemsize, int64_t *bad)
{
    static const ars_loop_fn loops[] = ARS_SIZE_TABLE(take_);
    int sc = ars_size_class(itemsize);
    if (sc < 0)
        return ARS_ERR_ARG;
    ars_loop_fn loop = loops[sc];
    char *data[3] = {out, (char *)idx, (char *)src};
    const int64_t *st[3] = {out_strides, idx_strides, src_strides};
    take_ctx c = {axis_len, axis_stride, 0, 0};
    int rc = ars_iter_go(ndim, shape, 3, data, st, loop, &c, 64);
    if (rc)
        return rc;
    if (c.failed) {
        *bad = c.bad;
        return ARS_ERR_ARG;
    }
    return ARS_OK;
}

int ars_repeat_index(const int64_t *repeats, int64_t n, int64_t *out)
{
    int64_t j = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t r = 0; r < repeats[i]; r++)
            out[j++] = i;
    return ARS_OK;
}
