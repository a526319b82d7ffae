/* Strided copy, cast between every pair of dtypes, and fill. */
#include <string.h>
#include <math.h>
#include "ars_internal.h"

const int64_t ars_itemsize[ARS_NDTYPES] = {
#define X(NAME, T, K) [ARS_##NAME] = sizeof(T),
    ARS_STORAGE_DTYPES(X)
#undef X
};

/* ---- pure copies go by item size ---------------------------------------- */

#define COPY_LOOP(T)                                                          \
    static void copy_##T(char **data, int64_t n, const int64_t *s, void *ctx) \
    {                                                                         \
        (void)ctx;                                                            \
        char *d = data[0];                                                    \
        const char *src = data[1];                                            \
        if (s[0] == sizeof(T) && s[1] == sizeof(T)) {                         \
            memmove(d, src, (size_t)n * sizeof(T));                           \
            return;                                                           \
        }                                                                     \
        for (int64_t i = 0; i < n; i++)                                       \
            memcpy(d + i * s[0], src + i * s[1], sizeof(T));                  \
    }
ARS_ITEM_TYPES(COPY_LOOP)

static ars_loop_fn copy_loop_for(int64_t itemsize)
{
    static const ars_loop_fn loops[] = ARS_SIZE_TABLE(copy_);
    int sc = ars_size_class(itemsize);
    return sc < 0 ? NULL : loops[sc];
}

/* A copy or cast loop over (dst, src): items of dst_item and src_item bytes. */
static int run2(int ndim, const int64_t *shape, char *dst, const int64_t *dst_strides,
                int64_t dst_item, const char *src, const int64_t *src_strides, int64_t src_item,
                ars_loop_fn loop, int64_t work)
{
    char *data[2] = {dst, (char *)src};
    const int64_t *st[2] = {dst_strides, src_strides};
    const int64_t items[2] = {dst_item, src_item};
    return ars_iter_go_items(ndim, shape, 2, data, st, items, loop, NULL, work);
}

int ars_copy(int ndim, const int64_t *shape,
             char *dst, const int64_t *dst_strides,
             const char *src, const int64_t *src_strides, int64_t itemsize)
{
    ars_loop_fn loop = copy_loop_for(itemsize);
    if (!loop)
        return ARS_ERR_ARG;
    return run2(ndim, shape, dst, dst_strides, itemsize, src, src_strides, itemsize, loop,
                2 * itemsize);
}

/* ---- casts: defined results for every value (float to int: NumPy x86's) ---- */

/* CONV_<dst kind><src kind>(DT, v) converts v to the C type DT. */
#define CONV_KB_KB(DT, ST, v) (v)
#define CONV_KB_KI(DT, ST, v) ((DT)((v) != 0))
#define CONV_KB_KU(DT, ST, v) ((DT)((v) != 0))
#define CONV_KB_KF(DT, ST, v) ((DT)((v) != 0))
#define CONV_KB_KC(DT, ST, v) ((DT)(creal(v) != 0 || cimag(v) != 0))
#define CONV_KI_KB(DT, ST, v) ((DT)(v))
#define CONV_KI_KI(DT, ST, v) ((DT)(v))
#define CONV_KI_KU(DT, ST, v) ((DT)(v))
#define CONV_KI_KF(DT, ST, v) ARS_F2INT_I(DT, (double)(v))
#define CONV_KI_KC(DT, ST, v) ARS_F2INT_I(DT, creal(v))
#define CONV_KU_KB(DT, ST, v) ((DT)(v))
#define CONV_KU_KI(DT, ST, v) ((DT)(v))
#define CONV_KU_KU(DT, ST, v) ((DT)(v))
#define CONV_KU_KF(DT, ST, v) ARS_F2INT_U(DT, (double)(v))
#define CONV_KU_KC(DT, ST, v) ARS_F2INT_U(DT, creal(v))
#define CONV_KF_KB(DT, ST, v) ((DT)(v))
#define CONV_KF_KI(DT, ST, v) ((DT)(v))
#define CONV_KF_KU(DT, ST, v) ((DT)(v))
#define CONV_KF_KF(DT, ST, v) ((DT)(v))
#define CONV_KF_KC(DT, ST, v) ((DT)creal(v))
#define CONV_KC_KB(DT, ST, v) ((DT)(v))
#define CONV_KC_KI(DT, ST, v) ((DT)(v))
#define CONV_KC_KU(DT, ST, v) ((DT)(v))
#define CONV_KC_KF(DT, ST, v) ((DT)(v))
#define CONV_KC_KC(DT, ST, v) ((DT)(v))

/* Narrow floats (KN) go through float: loads with ST##_to_float (exact; to
 * double: ST##_to_double, NaN bits kept), stores with DT##_from_* (one
 * rounding from the source's own value, as the narrow type defines it). */
#define CONV_KB_KN(DT, ST, v) ((DT)(ST##_to_float(v) != 0))
#define CONV_KI_KN(DT, ST, v) CONV_KI_KF(DT, float, ST##_to_float(v))
#define CONV_KU_KN(DT, ST, v) CONV_KU_KF(DT, float, ST##_to_float(v))
#define CONV_KF_KN(DT, ST, v) _Generic((DT)0, double: ST##_to_double(v), default: ST##_to_float(v))
#define CONV_KC_KN(DT, ST, v) ((DT)ST##_to_float(v))
#define CONV_KN_KB(DT, ST, v) DT##_from_float((float)(v))
#define CONV_KN_KI(DT, ST, v) DT##_from_int((int64_t)(v))
#define CONV_KN_KU(DT, ST, v) DT##_from_uint((uint64_t)(v))
#define CONV_KN_KF(DT, ST, v) _Generic((v), float: DT##_from_float, default: DT##_from_double)(v)
#define CONV_KN_KC(DT, ST, v) DT##_from_double((double)creal(v))
#define CONV_KN_KN(DT, ST, v) CONV_KN_NN_(DT, ST, v)
/* narrow to narrow: the same type is a copy, another goes through the exact double */
#define CONV_KN_NN_(DT, ST, v) _Generic((DT *)0, ST *: (v), default: DT##_from_double(ST##_to_double(v)))

#define CAST_LOOP(DN, DT, DK, SN, ST, SK)                                          \
    static void cast_##DN##_##SN(char **data, int64_t n, const int64_t *s, void *ctx) \
    {                                                                              \
        (void)ctx;                                                                 \
        char *d = data[0];                                                         \
        const char *src = data[1];                                                 \
        if (s[0] == sizeof(DT) && s[1] == sizeof(ST)) {                            \
            for (int64_t i = 0; i < n; i++) {                                      \
                ST v;                                                              \
                memcpy(&v, src + i * (int64_t)sizeof(ST), sizeof v);               \
                DT r = CONV_##DK##_##SK(DT, ST, v);                                       \
                memcpy(d + i * (int64_t)sizeof(DT), &r, sizeof r);                 \
            }                                                                      \
            return;                                                                \
        }                                                                          \
        for (int64_t i = 0; i < n; i++) {                                          \
            ST v;                                                                  \
            memcpy(&v, src + i * s[1], sizeof v);                                  \
            DT r = CONV_##DK##_##SK(DT, ST, v);                                           \
            memcpy(d + i * s[0], &r, sizeof r);                                    \
        }                                                                          \
    }
#define CAST_ROW(DN, DT, DK) ARS_STORAGE_DTYPES2(CAST_LOOP, DN, DT, DK)
ARS_STORAGE_DTYPES(CAST_ROW)
#undef CAST_ROW

#define CAST_ENTRY(DN, DT, DK, SN, ST, SK) [ARS_##SN] = cast_##DN##_##SN,
#define CAST_TABLE_ROW(DN, DT, DK) [ARS_##DN] = {ARS_STORAGE_DTYPES2(CAST_ENTRY, DN, DT, DK)},
static const ars_loop_fn cast_table[ARS_NDTYPES][ARS_NDTYPES] = {
    ARS_STORAGE_DTYPES(CAST_TABLE_ROW)
};
#undef CAST_TABLE_ROW
#undef CAST_ENTRY

ars_loop_fn ars_cast_loop(int dst_dtype, int src_dtype)
{
    if (dst_dtype < 0 || dst_dtype >= ARS_NDTYPES || src_dtype < 0 || src_dtype >= ARS_NDTYPES)
        return NULL;
    return cast_table[dst_dtype][src_dtype];
}

int ars_cast(int ndim, const int64_t *shape,
             char *dst, const int64_t *dst_strides, int dst_dtype,
             const char *src, const int64_t *src_strides, int src_dtype)
{
    if (dst_dtype < 0 || dst_dtype >= ARS_NDTYPES || src_dtype < 0 || src_dtype >= ARS_NDTYPES)
        return ARS_ERR_DTYPE;
    if (dst_dtype == src_dtype)
        return ars_copy(ndim, shape, dst, dst_strides, src, src_strides, ars_itemsize[dst_dtype]);
    int64_t work = ars_itemsize[dst_dtype] + ars_itemsize[src_dtype];
    return run2(ndim, shape, dst, dst_strides, ars_itemsize[dst_dtype], src, src_strides,
                ars_itemsize[src_dtype], cast_table[dst_dtype][src_dtype], work);
}

/* ---- fill ---------------------------------------------------------------- */

#define FILL_LOOP(T)                                                          \
    static void fill_##T(char **data, int64_t n, const int64_t *s, void *ctx) \
    {                                                                         \
        T v;                                                                  \
        memcpy(&v, ctx, sizeof v);                                            \
        char *d = data[0];                                                    \
        if (s[0] == sizeof(T)) {                                              \
            for (int64_t i = 0; i < n; i++)                                   \
                memcpy(d + i * (int64_t)sizeof(T), &v, sizeof v);             \
            return;                                                           \
        }                                                                     \
        for (int64_t i = 0; i < n; i++)                                       \
            memcpy(d + i * s[0], &v, sizeof v);                               \
    }
ARS_ITEM_TYPES(FILL_LOOP)

int ars_fill(int ndim, const int64_t *shape,
             char *dst, const int64_t *dst_strides, int64_t itemsize,
             const void *value)
{
    static const ars_loop_fn loops[] = ARS_SIZE_TABLE(fill_);
    int sc = ars_size_class(itemsize);
    if (sc < 0)
        return ARS_ERR_ARG;
    ars_loop_fn loop = loops[sc];
    char *data[1] = {dst};
    const int64_t *st[1] = {dst_strides};
    return ars_iter_go(ndim, shape, 1, data, st, loop, (void *)value, itemsize);
}
