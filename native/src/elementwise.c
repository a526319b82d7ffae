/* Elementwise functions: the dispatch tables table[op][dtype] over the loops
 * stamped from ew_ops.h (in ew_unary.c, ew_binary_int.c, ew_binary_float.c;
 * see ew_loops.h), the entry points, and where, clip and isin. */
#include "ew_loops.h"

/* ---- streaming stores for large contiguous outputs (see ew_loops.h) ------------- */
static const int stream_on = 1;

/* The ctx of a unary or binary loop: non-NULL when the output streams. */
static void *stream_ctx(int ndim, const int64_t *shape, int64_t out_itemsize)
{
    int64_t bytes = out_itemsize, big = 0;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] <= 0)
            return NULL;
        if (shape[d] >= ARS_STREAM_TOTAL_BYTES / bytes + 1)
            big = 1;  /* and the product would only grow */
        else
            bytes *= shape[d];
        if (bytes >= ARS_STREAM_TOTAL_BYTES)
            big = 1;
    }
    return big ? (void *)&stream_on : NULL;
}

/* ---- dispatch tables ------------------------------------------------------------ */

typedef struct {
    ars_loop_fn loop;
    int out;       /* output dtype */
    int cost;      /* rough relative cost per element */
} kernel;

/* One set of tables per SIMD level (platform.h), over that level's loops
 * (named _l<level>: the entries take EW_L's level); the active level's run.
 * The cheap ops (cost 1, 2) run the AVX2 loops at the AVX-512 level: they
 * are memory-bound, and their AVX-512 loops measured 5-10% slower (add and
 * multiply of 1e6 float64, one thread). EW_LC(COST) is the level an entry
 * of that cost takes (the narrow floats' loops, ew_narrow.h, keep EW_L). */
#define EW_LC(COST) EW_LC_(EW_L, COST)
#define EW_LC_(L, COST) EW_LC__(L, COST)
#define EW_LC__(L, COST) EW_LC_##L##_##COST
#define EW_LC_0_1 0
#define EW_LC_0_2 0
#define EW_LC_0_4 0
#define EW_LC_0_8 0
#define EW_LC_0_16 0
#define EW_LC_1_1 1
#define EW_LC_1_2 1
#define EW_LC_1_4 1
#define EW_LC_1_8 1
#define EW_LC_1_16 1
#define EW_LC_2_1 1
#define EW_LC_2_2 1
#define EW_LC_2_4 2
#define EW_LC_2_8 2
#define EW_LC_2_16 2
#define U_ENTRY(DN, T, WT, RT, OP, OUT, S, COST) \
    [ARS_OP_##OP][ARS_##DN] = {ARS_LVN(u_##OP##_##DN, EW_LC(COST)), OD_##OUT(DN, RT), COST},
#define U_ENTRIES(OP, G, OUT, S, COST) G(U_ENTRY, OP, OUT, S, COST)
#define B_ENTRY(DN, T, WT, RT, OP, OUT, S, COST) \
    [ARS_OP_##OP][ARS_##DN] = {ARS_LVN(b_##OP##_##DN, EW_LC(COST)), OD_##OUT(DN, RT), COST},
#define B_ENTRIES(OP, G, OUT, S, COST) G(B_ENTRY, OP, OUT, S, COST)
#define P_ENTRY(DN, T, WT, RT, EXP, S, COST) \
    [PX_##EXP][ARS_##DN] = {ARS_LVN(p_##EXP##_##DN, EW_LC(COST)), ARS_##DN, COST},
#define P_ENTRIES(EXP, G, S, COST) G(P_ENTRY, EXP, S, COST)
#define EW_TABLES(L)                                                                 \
    static const kernel unary_table_##L[ARS_NUNARY][ARS_NDTYPES] = {                 \
        UNARY_LIST(U_ENTRIES) UNARY_LIST(UN_ENTRIES)};                               \
    static const kernel binary_table_##L[ARS_NBINARY][ARS_NDTYPES] = {               \
        BINARY_LIST(B_ENTRIES) BINARY_LIST(BN_ENTRIES)};                             \
    static const kernel pow_fast_table_##L[PX_N][ARS_NDTYPES] = {                    \
        POW_FAST_LIST(P_ENTRIES) POW_FAST_LIST(PN_ENTRIES)};
#define EW_L 0
EW_TABLES(0)
#undef EW_L
#ifdef ARS_X86_64
#define EW_L 1
EW_TABLES(1)
#undef EW_L
#define EW_L 2
EW_TABLES(2)
#undef EW_L
static const kernel (*const unary_tables[ARS_NLEVELS])[ARS_NDTYPES] = {
    unary_table_0, unary_table_1, unary_table_2};
static const kernel (*const binary_tables[ARS_NLEVELS])[ARS_NDTYPES] = {
    binary_table_0, binary_table_1, binary_table_2};
static const kernel (*const pow_fast_tables[ARS_NLEVELS])[ARS_NDTYPES] = {
    pow_fast_table_0, pow_fast_table_1, pow_fast_table_2};
#else
static const kernel (*const unary_tables[ARS_NLEVELS])[ARS_NDTYPES] = {unary_table_0};
static const kernel (*const binary_tables[ARS_NLEVELS])[ARS_NDTYPES] = {binary_table_0};
static const kernel (*const pow_fast_tables[ARS_NLEVELS])[ARS_NDTYPES] = {pow_fast_table_0};
#endif
#define unary_table (unary_tables[ars_cpu_level()])
#define binary_table (binary_tables[ars_cpu_level()])
#define pow_fast_table (pow_fast_tables[ars_cpu_level()])

/* The fast form of pow for an exponent `e` of `dtype` that every element shares. */
static const kernel *pow_fast(int dtype, const char *e)
{
    int px = PX_NONE;
    double v = 0;
    switch (dtype) {
#define PV_REAL(DN, T, WT, RT, _u) \
    case ARS_##DN: { T t; memcpy(&t, e, sizeof t); v = (double)t; break; }
#define PV_CPLX(DN, T, WT, RT, _u) \
    case ARS_##DN: { T t; memcpy(&t, e, sizeof t); if (cimag(t) != 0) return NULL; v = creal(t); break; }
#define PV_NARROW(DN, T, K) \
    case ARS_##DN: { T t; memcpy(&t, e, sizeof t); v = T##_to_double(t); break; }
    G_I(PV_REAL, 0) G_U(PV_REAL, 0) G_F(PV_REAL, 0) G_C(PV_CPLX, 0) ARS_NARROW_DTYPES(PV_NARROW)
    default:
        return NULL;
    }
    if (v == 0) px = PX_ZERO;
    else if (v == 1) px = PX_ONE;
    else if (v == 2) px = PX_TWO;
    else if (v == 3) px = PX_THREE;
    else if (v == 4) px = PX_FOUR;
    else if (v == 0.5) px = PX_HALF;
    else if (v == -1) px = PX_M1;
    else if (v == -2) px = PX_M2;
    const kernel *k = &pow_fast_table[px][dtype];
    return px != PX_NONE && k->loop ? k : NULL;
}

static const kernel *lookup(const kernel *table, int nops, int op, int dtype)
{
    if (op < 0 || op >= nops || dtype < 0 || dtype >= ARS_NDTYPES)
        return NULL;
    const kernel *k = &table[(int64_t)op * ARS_NDTYPES + dtype];
    return k->loop ? k : NULL;
}

int ars_unary_out(int op, int dtype)
{
    const kernel *k = lookup(&unary_table[0][0], ARS_NUNARY, op, dtype);
    return k ? k->out : -1;
}

int ars_binary_out(int op, int dtype)
{
    const kernel *k = lookup(&binary_table[0][0], ARS_NBINARY, op, dtype);
    return k ? k->out : -1;
}

/* ---- running over packed dims ---------------------------------------------------- */

static int run(int nop, int ndim, const int64_t *dims, char *const *data, const int64_t *items,
               ars_loop_fn loop, void *ctx, int64_t work)
{
    if (ndim < 0 || ndim > ARS_MAX_DIMS)
        return ARS_ERR_NDIM;
    const int64_t *st[ARS_MAX_OPS];
    for (int k = 0; k < nop; k++)
        st[k] = dims + (int64_t)(k + 1) * ndim;
    return ars_iter_go_items(ndim, dims, nop, data, st, items, loop, ctx, work);
}

int ars_unary(int op, int dtype, int ndim, const int64_t *dims, char *out, const char *x)
{
    const kernel *k = lookup(&unary_table[0][0], ARS_NUNARY, op, dtype);
    if (!k)
        return ARS_ERR_DTYPE;
    char *data[2] = {out, (char *)x};
    const int64_t items[2] = {ars_itemsize[k->out], ars_itemsize[dtype]};
    int64_t work = (ars_itemsize[dtype] + ars_itemsize[k->out]) * k->cost;
    return run(2, ndim, dims, data, items, k->loop, stream_ctx(ndim, dims, ars_itemsize[k->out]), work);
}

int ars_binary(int op, int dtype, int ndim, const int64_t *dims, char *out,
               const char *x1, const char *x2)
{
    const kernel *k = lookup(&binary_table[0][0], ARS_NBINARY, op, dtype);
    if (!k)
        return ARS_ERR_DTYPE;
    if (op == ARS_OP_POW && ndim >= 0 && ndim <= ARS_MAX_DIMS) {
        /* one exponent for every element: the unary fast form over (out, x1),
         * whose dims are the prefix of ours */
        int64_t size = 1, moves = 0;
        for (int d = 0; d < ndim; d++) {
            size *= dims[d];
            moves |= dims[3 * ndim + d] && dims[d] > 1;
        }
        const kernel *f = size > 0 && !moves ? pow_fast(dtype, x2) : NULL;
        if (f) {
            char *data[2] = {out, (char *)x1};
            const int64_t items[2] = {ars_itemsize[f->out], ars_itemsize[dtype]};
            return run(2, ndim, dims, data, items, f->loop, NULL, 2 * ars_itemsize[dtype] * f->cost);
        }
    }
    char *data[3] = {out, (char *)x1, (char *)x2};
    const int64_t items[3] = {ars_itemsize[k->out], ars_itemsize[dtype], ars_itemsize[dtype]};
    int64_t work = (2 * ars_itemsize[dtype] + ars_itemsize[k->out]) * k->cost;
    return run(3, ndim, dims, data, items, k->loop, stream_ctx(ndim, dims, ars_itemsize[k->out]), work);
}

int ars_unary_flat(int op, int dtype, int64_t n, char *out, const char *x, int64_t xs)
{
    int64_t dims[3] = {n, 0, xs};
    const kernel *k = lookup(&unary_table[0][0], ARS_NUNARY, op, dtype);
    if (!k)
        return ARS_ERR_DTYPE;
    dims[1] = ars_itemsize[k->out];
    char *data[2] = {out, (char *)x};
    if (n * (ars_itemsize[dtype] + dims[1]) * k->cost < 4096) {  /* small: skip the iterator */
        k->loop(data, n, dims + 1, NULL);
        return ARS_OK;
    }
    const int64_t items[2] = {dims[1], ars_itemsize[dtype]};
    return run(2, 1, dims, data, items, k->loop, stream_ctx(1, &n, dims[1]),
               (ars_itemsize[dtype] + dims[1]) * k->cost);
}

int ars_binary_flat(int op, int dtype, int64_t n, char *out, const char *x1, int64_t s1,
                    const char *x2, int64_t s2)
{
    int64_t dims[4] = {n, 0, s1, s2};
    const kernel *k = lookup(&binary_table[0][0], ARS_NBINARY, op, dtype);
    if (!k)
        return ARS_ERR_DTYPE;
    dims[1] = ars_itemsize[k->out];
    if (op == ARS_OP_POW && s2 == 0 && n > 0) {
        const kernel *f = pow_fast(dtype, x2);
        if (f) {
            char *data[2] = {out, (char *)x1};
            int64_t w = 2 * ars_itemsize[dtype] * f->cost;
            if (n * w < 4096) {
                f->loop(data, n, dims + 1, NULL);
                return ARS_OK;
            }
            const int64_t items[2] = {ars_itemsize[f->out], ars_itemsize[dtype]};
            return run(2, 1, dims, data, items, f->loop, NULL, w);
        }
    }
    char *data[3] = {out, (char *)x1, (char *)x2};
    int64_t work = (2 * ars_itemsize[dtype] + dims[1]) * k->cost;
    if (n * work < 4096) {
        k->loop(data, n, dims + 1, NULL);
        return ARS_OK;
    }
    const int64_t items[3] = {dims[1], ars_itemsize[dtype], ars_itemsize[dtype]};
    return run(3, 1, dims, data, items, k->loop, stream_ctx(1, &n, dims[1]), work);
}

/* ---- where, by item size ---------------------------------------------------------- */

/* Contiguous out and condition; each value operand contiguous (step 1) or one
 * repeated value (step 0: a Python scalar or a broadcast 0-d array), a copy
 * of which the loop reads so that the compiler can vectorize the select.
 * One copy per SIMD level L (platform.h). */
#define WHERE_LOOP(T, L)                                                          \
    ARS_TARGET_##L static void where_c_##T##_l##L(T *o, const uint8_t *c, const T *a, const T *b, \
                                      int64_t n)                                 \
    {                                                                            \
        for (int64_t i = 0; i < n; i++)                                          \
            o[i] = c[i] ? a[i] : b[i];                                           \
    }                                                                            \
    ARS_TARGET_##L static void where_sa_##T##_l##L(T *o, const uint8_t *c, T a, const T *b,  \
                                       int64_t n)                                \
    {                                                                            \
        for (int64_t i = 0; i < n; i++)                                          \
            o[i] = c[i] ? a : b[i];                                              \
    }                                                                            \
    ARS_TARGET_##L static void where_sb_##T##_l##L(T *o, const uint8_t *c, const T *a, T b,  \
                                       int64_t n)                                \
    {                                                                            \
        for (int64_t i = 0; i < n; i++)                                          \
            o[i] = c[i] ? a[i] : b;                                              \
    }                                                                            \
    ARS_TARGET_##L static void where_ss_##T##_l##L(T *o, const uint8_t *c, T a, T b, int64_t n) \
    {                                                                            \
        for (int64_t i = 0; i < n; i++)                                          \
            o[i] = c[i] ? a : b;                                                 \
    }                                                                            \
    static void where_l##L##_##T(char **data, int64_t n, const int64_t *s, void *ctx)   \
    {                                                                            \
        (void)ctx;                                                               \
        if (s[0] == sizeof(T) && s[1] == 1 && (s[2] == sizeof(T) || s[2] == 0)   \
            && (s[3] == sizeof(T) || s[3] == 0)) {                               \
            T *o = (T *)data[0];                                                 \
            const uint8_t *c = (const uint8_t *)data[1];                         \
            T a, b;                                                              \
            if (n <= 0)                                                          \
                return;                                                          \
            memcpy(&a, data[2], sizeof(T));                                      \
            memcpy(&b, data[3], sizeof(T));                                      \
            if (s[2] && s[3])                                                    \
                where_c_##T##_l##L(o, c, (const T *)data[2], (const T *)data[3], n);    \
            else if (s[3])                                                       \
                where_sa_##T##_l##L(o, c, a, (const T *)data[3], n);                    \
            else if (s[2])                                                       \
                where_sb_##T##_l##L(o, c, (const T *)data[2], b, n);                    \
            else                                                                 \
                where_ss_##T##_l##L(o, c, a, b, n);                                     \
            return;                                                              \
        }                                                                        \
        for (int64_t i = 0; i < n; i++) {                                        \
            const char *src = *(const uint8_t *)(data[1] + i * s[1])             \
                                  ? data[2] + i * s[2] : data[3] + i * s[3];     \
            *(T *)(data[0] + i * s[0]) = *(const T *)src;                        \
        }                                                                        \
    }
#define WHERE_LOOP_0(T) WHERE_LOOP(T, 0)
ARS_ITEM_TYPES(WHERE_LOOP_0)
#ifdef ARS_X86_64
#define WHERE_LOOP_1(T) WHERE_LOOP(T, 1)
#define WHERE_LOOP_2(T) WHERE_LOOP(T, 2)
ARS_ITEM_TYPES(WHERE_LOOP_1)
ARS_ITEM_TYPES(WHERE_LOOP_2)
#endif

/* The where loop of an item size at the active level, or NULL. */
static ars_loop_fn where_loop(int64_t itemsize)
{
    static const ars_loop_fn loops[ARS_NLEVELS][5] = {
        ARS_SIZE_TABLE(where_l0_),
#ifdef ARS_X86_64
        ARS_SIZE_TABLE(where_l1_), ARS_SIZE_TABLE(where_l2_),
#endif
    };
    int sc = ars_size_class(itemsize);
    return sc < 0 ? NULL : loops[ars_cpu_level()][sc];
}

int ars_where(int64_t itemsize, int ndim, const int64_t *dims, char *out, const char *cond,
              const char *x1, const char *x2)
{
    ars_loop_fn loop = where_loop(itemsize);
    if (!loop)
        return ARS_ERR_ARG;
    char *data[4] = {out, (char *)cond, (char *)x1, (char *)x2};
    const int64_t items[4] = {itemsize, 1, itemsize, itemsize};
    return run(4, ndim, dims, data, items, loop, NULL, 3 * itemsize + 1);
}

/* ---- clip ------------------------------------------------------------------------ */

/* min(max(x, lo), hi), as NumPy: hi wins when lo > hi. */
#define CLIP_MAX(x, lo) ((x) < (lo) ? (lo) : (x))
#define CLIP_I(T, x, lo, hi) (CLIP_MAX(x, lo) > (hi) ? (hi) : CLIP_MAX(x, lo))
#define CLIP_F(T, x, lo, hi) \
    (isnan(x) || isnan(lo) || isnan(hi) ? (T)NAN : CLIP_I(T, x, lo, hi))
#define CLIP_LOOP(DN, T, WT, RT, CL, _u)                                    \
    static void clip_##DN(char **data, int64_t n, const int64_t *s, void *ctx)   \
    {                                                                            \
        (void)ctx;                                                               \
        for (int64_t i = 0; i < n; i++) {                                        \
            T x = *(const T *)(data[1] + i * s[1]);                              \
            T lo = *(const T *)(data[2] + i * s[2]);                             \
            T hi = *(const T *)(data[3] + i * s[3]);                             \
            *(T *)(data[0] + i * s[0]) = CL(T, x, lo, hi);                       \
        }                                                                        \
    }
G_I(CLIP_LOOP, CLIP_I, 0)
G_U(CLIP_LOOP, CLIP_I, 0)
G_F(CLIP_LOOP, CLIP_F, 0)
#define CLIP_ENTRY(DN, T, WT, RT, _a, _b) [ARS_##DN] = clip_##DN,
static const ars_loop_fn clip_table[ARS_NDTYPES] = {
    G_I(CLIP_ENTRY, 0, 0) G_U(CLIP_ENTRY, 0, 0) G_F(CLIP_ENTRY, 0, 0)
};

int ars_clip(int dtype, int ndim, const int64_t *dims, char *out, const char *x,
             const char *lo, const char *hi)
{
    if (dtype < 0 || dtype >= ARS_NDTYPES || !clip_table[dtype])
        return ARS_ERR_DTYPE;
    char *data[4] = {out, (char *)x, (char *)lo, (char *)hi};
    const int64_t items[4] = {ars_itemsize[dtype], ars_itemsize[dtype], ars_itemsize[dtype],
                              ars_itemsize[dtype]};
    return run(4, ndim, dims, data, items, clip_table[dtype], NULL, 4 * ars_itemsize[dtype]);
}

/* ---- isin: sort the set, then binary-search each element --------------------------- */

#define LESS_KB(a, b) ((a) < (b))
#define LESS_KI(a, b) ((a) < (b))
#define LESS_KU(a, b) ((a) < (b))
#define LESS_KF(a, b) ((a) < (b))
#define LESS_KC(a, b) \
    (creal(a) < creal(b) || (creal(a) == creal(b) && cimag(a) < cimag(b)))
#define NAN_KB(a) 0
#define NAN_KI(a) 0
#define NAN_KU(a) 0
#define NAN_KF(a) isnan(a)
#define NAN_KC(a) (isnan(creal(a)) || isnan(cimag(a)))

typedef struct {
    const char *set;
    int64_t m;
    int invert;
} isin_ctx;

#define ISIN_DEFS(NAME, T, K)                                                    \
    static int cmp_##NAME(const void *pa, const void *pb)                        \
    {                                                                            \
        T a = *(const T *)pa, b = *(const T *)pb;                                \
        return LESS_##K(a, b) ? -1 : LESS_##K(b, a) ? 1 : 0;                     \
    }                                                                            \
    static int64_t prep_##NAME(char *set, int64_t m)                             \
    {                                                                            \
        T *v = (T *)set;                                                         \
        int64_t k = 0;                                                           \
        for (int64_t i = 0; i < m; i++)                                          \
            if (!(NAN_##K(v[i])))                                                \
                v[k++] = v[i];                                                   \
        qsort(v, (size_t)k, sizeof(T), cmp_##NAME);                              \
        return k;                                                                \
    }                                                                            \
    static void isin_##NAME(char **data, int64_t n, const int64_t *s, void *p)   \
    {                                                                            \
        const isin_ctx *c = p;                                                   \
        const T *v = (const T *)c->set;                                          \
        for (int64_t i = 0; i < n; i++) {                                        \
            T x = *(const T *)(data[1] + i * s[1]);                              \
            int64_t lo = 0, hi = c->m;                                           \
            while (lo < hi) {                                                    \
                int64_t mid = lo + (hi - lo) / 2;                                \
                if (LESS_##K(v[mid], x))                                         \
                    lo = mid + 1;                                                \
                else                                                             \
                    hi = mid;                                                    \
            }                                                                    \
            int found = lo < c->m && !LESS_##K(x, v[lo]) && !(NAN_##K(x));       \
            *(uint8_t *)(data[0] + i * s[0]) = (uint8_t)(found != c->invert);    \
        }                                                                        \
    }
ARS_DTYPES(ISIN_DEFS)

typedef int64_t (*prep_fn)(char *, int64_t);
#define PREP_ENTRY(NAME, T, K) [ARS_##NAME] = prep_##NAME,
#define ISIN_ENTRY(NAME, T, K) [ARS_##NAME] = isin_##NAME,
static const prep_fn prep_table[ARS_NDTYPES] = {ARS_DTYPES(PREP_ENTRY)};
static const ars_loop_fn isin_table[ARS_NDTYPES] = {ARS_DTYPES(ISIN_ENTRY)};

/* ---- operands of other dtypes: converted block by block ---------------------------- */

/* Bytes of one operand's block on the stack: the kernel sees inputs already in
 * its dtype, a few KB at a time, and never a full-size converted copy. */
enum { CONV_BYTES = 8192 };

typedef struct {
    ars_loop_fn loop;        /* the kernel of the compute dtype */
    void *ctx;               /* its ctx (streaming stores) when it writes the output itself */
    ars_loop_fn load[3];     /* each input's cast into the compute dtype, or NULL */
    ars_loop_fn store;       /* the cast of the kernel's output into the output's dtype, or NULL */
    int64_t isz, osz;        /* item sizes: the compute dtype, the kernel's output dtype */
    int nin;
} conv_ctx;

/* The kernel over n elements, each input not of the compute dtype cast into a
 * contiguous block first, and the output (when of another dtype than the
 * kernel's) computed into a block and cast on store: the same casts as
 * ars_cast, so the results are those of casting whole operands first. */
static void conv_loop(char **data, int64_t n, const int64_t *s, void *p)
{
    const conv_ctx *c = p;
    _Alignas(64) char buf[4][CONV_BYTES];
    int64_t wide = c->isz > c->osz ? c->isz : c->osz, b = CONV_BYTES / wide;
    char *d[4];
    int64_t st[4];
    for (int k = 0; k < c->nin; k++)
        if (c->load[k] && s[k + 1] == 0 && n > 0) {  /* one value for every element: cast once */
            char *cd[2] = {buf[k + 1], data[k + 1]};
            int64_t cs[2] = {c->isz, 0};
            c->load[k](cd, 1, cs, NULL);
        }
    for (int64_t i = 0; i < n; i += b) {
        int64_t m = n - i < b ? n - i : b;
        for (int k = 1; k <= c->nin; k++) {
            if (!c->load[k - 1]) {
                d[k] = data[k] + i * s[k], st[k] = s[k];
            } else if (s[k] == 0) {
                d[k] = buf[k], st[k] = 0;
            } else {
                char *cd[2] = {buf[k], data[k] + i * s[k]};
                int64_t cs[2] = {c->isz, s[k]};
                c->load[k - 1](cd, m, cs, NULL);
                d[k] = buf[k], st[k] = c->isz;
            }
        }
        if (c->store) {
            d[0] = buf[0], st[0] = c->osz;
            c->loop(d, m, st, NULL);
            char *cd[2] = {data[0] + i * s[0], buf[0]};
            int64_t cs[2] = {s[0], c->osz};
            c->store(cd, m, cs, NULL);
        } else {
            d[0] = data[0] + i * s[0], st[0] = s[0];
            c->loop(d, m, st, c->ctx);
        }
    }
}

/* isin: x (of x_dtype, cast into dtype block by block when they differ)
 * looked up in the set, sorted in place first. */
int ars_isin(int dtype, int x_dtype, int ndim, const int64_t *dims, char *out, const char *x,
             char *set, int64_t m, int invert)
{
    if (dtype < 0 || dtype >= ARS_NDTYPES || !prep_table[dtype] || x_dtype < 0 || x_dtype >= ARS_NDTYPES)
        return ARS_ERR_DTYPE;
    isin_ctx c = {set, prep_table[dtype](set, m), invert != 0};
    char *data[2] = {out, (char *)x};
    const int64_t items[2] = {1, ars_itemsize[x_dtype]};
    int64_t work = 4 * ars_itemsize[dtype];
    if (x_dtype == dtype)
        return run(2, ndim, dims, data, items, isin_table[dtype], &c, work);
    conv_ctx cc = {isin_table[dtype], &c, {ars_cast_loop(dtype, x_dtype), NULL, NULL}, NULL,
                   ars_itemsize[dtype], 1, 1};
    return run(2, ndim, dims, data, items, conv_loop, &cc, work + ars_itemsize[x_dtype] + ars_itemsize[dtype]);
}

/* An input that takes the same value at every element (its byte strides 0
 * where the shape moves): cast once into the compute dtype at `item`. */
static const char *conv_fixed(int ndim, const int64_t *dims, const int64_t *st, const char *x, int from, int to,
                              char *item)
{
    for (int d = 0; d < ndim; d++)
        if (st[d] != 0 && dims[d] > 1)
            return NULL;
    char *cd[2] = {item, (char *)x};
    int64_t cs[2] = {0, 0};
    ars_cast_loop(to, from)(cd, 1, cs, NULL);
    return item;
}

/* where (ARS_CONV_WHERE) or clip (ARS_CONV_CLIP) as a kernel of `dtype`
 * (the where loop of dtype's item size at the active level), or NULL */
static const kernel *select_kernel(int op, int dtype, kernel *k)
{
    k->out = dtype;
    k->cost = 1;
    k->loop = op == ARS_CONV_WHERE ? where_loop(ars_itemsize[dtype])
              : op == ARS_CONV_CLIP ? clip_table[dtype]
                                    : NULL;
    return k->loop ? k : NULL;
}

int ars_ewise_conv(int op, int nin, int dtype, int out_dtype, const int *in_dtypes, int ndim,
                   const int64_t *dims, char *out, const char *x1, const char *x2, const char *x3)
{
    if (ndim < 0 || ndim > ARS_MAX_DIMS || nin < 1 || nin > 3 || out_dtype < 0 || out_dtype >= ARS_NDTYPES
        || dtype < 0 || dtype >= ARS_NDTYPES)
        return ARS_ERR_ARG;
    kernel sel;
    const kernel *k = nin == 1 ? lookup(&unary_table[0][0], ARS_NUNARY, op, dtype)
                      : nin == 2 ? lookup(&binary_table[0][0], ARS_NBINARY, op, dtype)
                                 : select_kernel(op, dtype, &sel);
    if (!k)
        return ARS_ERR_DTYPE;
    /* where's condition is read as it is (bool); its other inputs are cast */
    int where = nin == 3 && op == ARS_CONV_WHERE;
    if (where && (in_dtypes[0] != ARS_BOOL || out_dtype != dtype))
        return ARS_ERR_DTYPE;
    for (int d = 0; d < ndim; d++)
        if (dims[d] <= 0)
            return ARS_OK;  /* no element: nothing read or written */
    const char *x[3] = {x1, x2, x3};
    _Alignas(16) char item[3][16];
    int from[3] = {dtype, dtype, dtype};
    int same = out_dtype == k->out, load[3] = {0, 0, 0};
    for (int i = 0; i < nin; i++) {
        from[i] = in_dtypes[i];
        if (from[i] < 0 || from[i] >= ARS_NDTYPES)
            return ARS_ERR_DTYPE;
        load[i] = from[i] != dtype && !(where && i == 0);  /* (the condition is read as it is) */
        if (load[i]) {
            const char *v = conv_fixed(ndim, dims, dims + (2 + i) * ndim, x[i], from[i], dtype, item[i]);
            if (v)
                x[i] = v, from[i] = dtype, load[i] = 0;
        }
        same &= !load[i];
    }
    if (same)
        return nin == 1   ? ars_unary(op, dtype, ndim, dims, out, x[0])
               : nin == 2 ? ars_binary(op, dtype, ndim, dims, out, x[0], x[1])
               : where    ? ars_where(ars_itemsize[dtype], ndim, dims, out, x[0], x[1], x[2])
                          : ars_clip(dtype, ndim, dims, out, x[0], x[1], x[2]);
    if (op == ARS_OP_POW && nin == 2 && from[1] == dtype) {
        /* one exponent for every element: ars_binary's unary fast form */
        int moves = 0;
        for (int d = 0; d < ndim; d++)
            moves |= dims[3 * ndim + d] && dims[d] > 1;
        const kernel *f = moves ? NULL : pow_fast(dtype, x[1]);
        if (f)
            k = f, nin = 1;
    }
    conv_ctx c = {k->loop, NULL, {NULL, NULL, NULL}, NULL, ars_itemsize[dtype], ars_itemsize[k->out], nin};
    int64_t work = ars_itemsize[out_dtype] * k->cost;
    for (int i = 0; i < nin; i++) {
        if (load[i])
            c.load[i] = ars_cast_loop(dtype, from[i]);
        work += ars_itemsize[from[i]] * k->cost + (c.load[i] ? ars_itemsize[dtype] : 0);
    }
    if (out_dtype != k->out) {
        c.store = ars_cast_loop(out_dtype, k->out);
        work += ars_itemsize[k->out];
    } else if (nin < 3) {  /* (where and clip store plainly) */
        c.ctx = stream_ctx(ndim, dims, ars_itemsize[out_dtype]);
    }
    char *data[4] = {out, (char *)x[0], (char *)x[1], (char *)x[2]};
    const int64_t items[4] = {ars_itemsize[out_dtype], ars_itemsize[from[0]],
                              nin >= 2 ? ars_itemsize[from[1]] : 0, nin == 3 ? ars_itemsize[from[2]] : 0};
    return run(1 + nin, ndim, dims, data, items, conv_loop, &c, work);
}
