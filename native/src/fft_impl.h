/* One precision of the FFT. Included twice by fft.c, with FT (float or
 * double) and FS(name) (adds the precision suffix) defined: this is the one
 * definition of every kernel below.
 *
 * The core computes the unnormalized "backward" transform
 *     X[k] = sum_j x[j] exp(+2 pi i j k / n)
 * in place on a contiguous buffer; the forward sign is conj(core(conj(x))),
 * and the conjugations are folded into the gather and scatter copies.
 *
 * Direct plans run the Stockham-ordered passes of FFTPACK: with the factors
 * p_1 ... p_m of n, the pass for factor p (l1 = product of the earlier
 * factors, ido = n / (l1 p)) maps
 *     cc[i + ido (b + p k)]  (i < ido, b < p, k < l1)
 * to  ch[i + ido (k + l1 c)] = w^(l1 i c) sum_b cc[i + ido (b + p k)] e^(2 pi i b c / p)
 * with w = e^(2 pi i / n): a decimation in frequency whose output comes out
 * in natural order. Large prime factors go through Bluestein's chirp-z
 * convolution on a 2^a 3^b 5^c length, so every n is O(n log n). */

typedef struct { FT r, i; } FS(cpx);

typedef struct FS(plan) {
    int64_t n;
    int nfct;
    int64_t fct[FFT_MAXF];
    FS(cpx) *tw[FFT_MAXF];      /* (p-1)(ido-1) twiddles per pass: tw[(c-1)(ido-1) + i-1] */
    FS(cpx) *roots[FFT_MAXF];   /* e^(2 pi i m / p), m < p, for generic passes */
    FS(cpx) *mem;               /* one block holding tw and roots */
    int64_t n2;                 /* Bluestein length; 0 for a direct plan */
    struct FS(plan) *sub;       /* the direct plan of length n2 */
    FS(cpx) *chirp;             /* e^(i pi m^2 / n), m < n */
    FS(cpx) *bk;                /* core(wrapped conj(chirp)) / n2 */
    int64_t bufcap;             /* elements the buffer and the work area must hold */
    int64_t tmpcap;             /* elements the generic passes' scratch must hold */
    FS(cpx) *rtw;               /* real plans (a length-m core for real length 2m):
                                 * e^(2 pi i k / 2m), k <= m; NULL otherwise */
} FS(plan);


/* ---- the passes: once on single lines, once on vectors of lines ------------- */

#define PASS_SCALAR
#define DV FT
#define PS(name) FS(name)
#include "fft_pass.h"
#undef PS
#undef DV
#undef PASS_SCALAR

#ifdef FFT_VECTORS
#define DV FV
#define PS(name) FSV(name)
#include "fft_pass.h"
#undef PS
#undef DV
#endif

/* ---- plans ----------------------------------------------------------------- */

static void FS(plan_free)(FS(plan) *pl)
{
    if (!pl)
        return;
    FS(plan_free)(pl->sub);
    ars_free(pl->mem);
    ars_free(pl->chirp);
    ars_free(pl->bk);
    ars_free(pl->rtw);
    free(pl);
}

static FS(plan) *FS(plan_direct)(int64_t n)
{
    FS(plan) *pl = calloc(1, sizeof *pl);
    if (!pl)
        return NULL;
    pl->n = n;
    pl->bufcap = n;
    pl->nfct = fft_factorize(n, pl->fct);
    pl->tmpcap = 1;
    for (int f = 0; f < pl->nfct; f++)
        if (pl->fct[f] > pl->tmpcap)
            pl->tmpcap = pl->fct[f];
    int64_t total = 0, l1 = 1;
    for (int f = 0; f < pl->nfct; f++) {
        int64_t ip = pl->fct[f], ido = n / (l1 * ip);
        total += (ip - 1) * (ido - 1);
        if (ip > 5)
            total += ip;
        l1 *= ip;
    }
    pl->mem = ars_alloc((total ? total : 1) * (int64_t)sizeof(FS(cpx)));
    fft_roots rg;
    if (!pl->mem || fft_roots_init(&rg, n)) {
        FS(plan_free)(pl);
        return NULL;
    }
    FS(cpx) *q = pl->mem;
    l1 = 1;
    for (int f = 0; f < pl->nfct; f++) {
        int64_t ip = pl->fct[f], ido = n / (l1 * ip);
        pl->tw[f] = q;
        for (int64_t c = 1; c < ip; c++)
            for (int64_t i = 1; i < ido; i++) {
                double re, im;
                fft_root(&rg, l1 * i * c, &re, &im);
                q[(c - 1) * (ido - 1) + i - 1] = (FS(cpx)){(FT)re, (FT)im};
            }
        q += (ip - 1) * (ido - 1);
        if (ip > 5) {
            pl->roots[f] = q;
            for (int64_t m = 0; m < ip; m++) {
                double re, im;
                fft_root(&rg, m * (n / ip), &re, &im);
                q[m] = (FS(cpx)){(FT)re, (FT)im};
            }
            q += ip;
        }
        l1 *= ip;
    }
    fft_roots_free(&rg);
    return pl;
}

static FS(plan) *FS(plan_complex)(int64_t n)
{
    int64_t n2 = fft_bluestein_length(n);
    if (!n2)
        return FS(plan_direct)(n);
    FS(plan) *pl = calloc(1, sizeof *pl);
    if (!pl)
        return NULL;
    pl->n = n;
    pl->n2 = n2;
    pl->bufcap = n2;
    pl->sub = FS(plan_direct)(n2);
    pl->tmpcap = pl->sub ? pl->sub->tmpcap : 1;
    pl->chirp = ars_alloc(n * (int64_t)sizeof(FS(cpx)));
    pl->bk = ars_alloc(n2 * (int64_t)sizeof(FS(cpx)));
    FS(cpx) *work = ars_alloc(n2 * (int64_t)sizeof(FS(cpx)));
    FS(cpx) *tmp = ars_alloc((pl->sub ? pl->sub->tmpcap : 1) * (int64_t)sizeof(FS(cpx)));
    fft_roots rg;
    int bad = !pl->sub || !pl->chirp || !pl->bk || !work || !tmp || fft_roots_init(&rg, 2 * n);
    if (bad) {
        ars_free(work);
        ars_free(tmp);
        FS(plan_free)(pl);
        return NULL;
    }
    /* chirp[m] = e^(i pi m^2 / n) = e^(2 pi i (m^2 mod 2n) / 2n), with m^2
     * mod 2n kept exactly by (m+1)^2 = m^2 + 2m + 1. */
    int64_t q = 0;
    for (int64_t m = 0; m < n; m++) {
        double re, im;
        fft_root(&rg, q, &re, &im);
        pl->chirp[m] = (FS(cpx)){(FT)re, (FT)im};
        q += 2 * m + 1;
        if (q >= 2 * n)
            q -= 2 * n;
    }
    fft_roots_free(&rg);
    FS(cpx) *b = pl->bk;
    for (int64_t m = 0; m < n2; m++)
        b[m] = (FS(cpx)){0, 0};
    b[0] = (FS(cpx)){pl->chirp[0].r, -pl->chirp[0].i};
    for (int64_t m = 1; m < n; m++) {
        FS(cpx) c = {pl->chirp[m].r, -pl->chirp[m].i};
        b[m] = c;
        b[n2 - m] = c;
    }
    FS(cpx) *r = FS(exec_direct)(pl->sub, b, work, tmp, NULL);
    FT inv = (FT)(1.0 / (double)n2);
    for (int64_t m = 0; m < n2; m++)
        b[m] = (FS(cpx)){r[m].r * inv, r[m].i * inv};
    ars_free(work);
    ars_free(tmp);
    return pl;
}

/* A plan for length n; real = 1 makes the plan of real transforms of
 * length 2n (a length-n core and the twiddles that split its result). */
static FS(plan) *FS(plan_make)(int64_t n, int real)
{
    FS(plan) *pl = FS(plan_complex)(n);
    if (!pl || !real)
        return pl;
    fft_roots rg;
    pl->rtw = ars_alloc((n + 1) * (int64_t)sizeof(FS(cpx)));
    if (!pl->rtw || fft_roots_init(&rg, 2 * n)) {
        FS(plan_free)(pl);
        return NULL;
    }
    for (int64_t k = 0; k <= n; k++) {
        double re, im;
        fft_root(&rg, k, &re, &im);
        pl->rtw[k] = (FS(cpx)){(FT)re, (FT)im};
    }
    fft_roots_free(&rg);
    return pl;
}

#define CMUL(a, w) ((FS(cpx)){(a).r * (w).r - (a).i * (w).i, (a).r * (w).i + (a).i * (w).r})
#define CADD(a, b) ((FS(cpx)){(a).r + (b).r, (a).i + (b).i})
#define CSUB(a, b) ((FS(cpx)){(a).r - (b).r, (a).i - (b).i})

/* ---- batched lines ------------------------------------------------------------ */

static inline FS(cpx) FS(load)(const char *p)
{
    FS(cpx) v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Read one line into buf as the core's input. */
static void FS(gather)(const fft_job *jb, const FS(plan) *pl, const char *src,
                       FS(cpx) *restrict buf, FS(cpx) *restrict work)
{
    const int64_t n = jb->n, ss = jb->sstride, slen = jb->slen;
    const int conj = jb->sign < 0;
    if (jb->kind == ARS_FFT_R2C) {
        /* real x: z[j] = x[2j] + i x[2j+1] for even n, else x[j] + 0i */
        int64_t m = slen < n ? slen : n;
        FT *f = (FT *)buf;
        int64_t stop = jb->half ? n : 2 * n;
        int64_t step = jb->half ? 1 : 2;
        int64_t j = 0;
        if (jb->narrow && step == 1 && sizeof(FT) == sizeof(float)) {
            /* exact in float, a block conversion (F16C where the CPU has it) */
            (jb->narrow == ARS_FLOAT16 ? ars_load_FLOAT16 : ars_load_BFLOAT16)(
                (float *)(void *)f, src, ss, m);
            j = m;
        } else if (jb->narrow) {
            for (; j < m; j++)
                f[j * step] = (FT)fft_read_real(jb->narrow, src + j * ss);
        } else if (ss == (int64_t)sizeof(FT) && step == 1) {
            memcpy(f, src, (size_t)m * sizeof(FT));
            j = m;
        }
        for (; j < m; j++)
            memcpy(f + j * step, src + j * ss, sizeof(FT));
        for (int64_t q = m * step; q < stop; q++)
            f[q] = 0;
        if (step == 2)
            for (j = 0; j < m; j++)
                f[2 * j + 1] = 0;
        return;
    }
    const int64_t have = jb->kind == ARS_FFT_C2R ? n / 2 + 1 : n;
    const int64_t m = slen < have ? slen : have;
    /* the Hermitian half of a real transform of even n goes to work first */
    FS(cpx) *in = jb->half ? work : buf;
    if (jb->real_src)  /* real input: imaginary parts +0, as its complex copy has */
        for (int64_t j = 0; j < m; j++)
            in[j] = (FS(cpx)){(FT)fft_read_real(jb->real_src, src + j * ss), 0};
    else if (ss == (int64_t)sizeof(FS(cpx)))
        memcpy(in, src, (size_t)m * sizeof(FS(cpx)));
    else
        for (int64_t j = 0; j < m; j++)
            memcpy(&in[j], src + j * ss, sizeof(FS(cpx)));
    if (conj)
        for (int64_t j = 0; j < m; j++)
            in[j].i = -in[j].i;
    for (int64_t j = m; j < have; j++)
        in[j] = (FS(cpx)){0, 0};
    if (jb->kind == ARS_FFT_C2C)
        return;
    if (!jb->half) {
        /* odd n: the whole Hermitian spectrum; the real part is kept at the end */
        for (int64_t k = have; k < n; k++)
            buf[k] = (FS(cpx)){buf[n - k].r, -buf[n - k].i};
        return;
    }
    /* even n = 2h: X[k] = in[k], X[k+h] = conj(in[h-k]) (in[h] for k = 0), the
     * imaginary parts of X[0] and X[h] dropped; the core of length h gets
     * Y[k] = (X[k] + X[k+h]) + i w^k (X[k] - X[k+h]) and returns x[2p] + i x[2p+1]. */
    const int64_t h = n / 2;
    const FS(cpx) *w = pl->rtw;
    in[0].i = 0;
    in[h].i = 0;
    for (int64_t k = 0; k < h; k++) {
        FS(cpx) a = in[k];
        FS(cpx) b = k == 0 ? in[h] : (FS(cpx)){in[h - k].r, -in[h - k].i};
        FS(cpx) s = CADD(a, b), d = CSUB(a, b);
        FS(cpx) t = CMUL(d, w[k]);
        buf[k] = (FS(cpx)){s.r - t.i, s.i + t.r};
    }
}

/* Write the core's result r of one line to dst, scaled. */
static void FS(scatter)(const fft_job *jb, const FS(plan) *pl, const FS(cpx) *restrict r, char *dst)
{
    const int64_t n = jb->n, ds = jb->dstride;
    const FT scale = (FT)jb->scale;
    const int scaled = jb->scale != 1.0;
    if (jb->kind == ARS_FFT_C2R) {
        if (jb->half) {
            const FT *f = (const FT *)r;
            if (!scaled && ds == (int64_t)sizeof(FT)) {
                memcpy(dst, f, (size_t)n * sizeof(FT));
                return;
            }
            for (int64_t j = 0; j < n; j++) {
                FT x = f[j] * scale;
                memcpy(dst + j * ds, &x, sizeof x);
            }
            return;
        }
        for (int64_t j = 0; j < n; j++) {
            FT x = r[j].r * scale;
            memcpy(dst + j * ds, &x, sizeof x);
        }
        return;
    }
    const int conj = jb->sign < 0;
    const FT si = conj ? -scale : scale;
    if (jb->kind == ARS_FFT_R2C && jb->half) {
        /* even n = 2h: Z = E + i O with E, O the transforms of the even and odd
         * samples; X[k] = E[k] + w^k O[k], E[k] = (Z[k] + conj Z[h-k]) / 2,
         * O[k] = (Z[k] - conj Z[h-k]) / 2i */
        const int64_t h = n / 2;
        const FS(cpx) *w = pl->rtw;
        const FT half = (FT)0.5;
        for (int64_t k = 0; k <= h; k++) {
            FS(cpx) a = r[k == h ? 0 : k];
            FS(cpx) b = r[k == 0 ? 0 : h - k];
            b.i = -b.i;
            FS(cpx) e = {half * (a.r + b.r), half * (a.i + b.i)};
            FS(cpx) o = {half * (a.i - b.i), -half * (a.r - b.r)};
            FS(cpx) t = CMUL(o, w[k]);
            FS(cpx) v = {(e.r + t.r) * scale, (e.i + t.i) * si};
            memcpy(dst + k * ds, &v, sizeof v);
        }
        return;
    }
    const int64_t m = jb->dlen;
    if (!scaled && !conj && ds == (int64_t)sizeof(FS(cpx))) {
        memcpy(dst, r, (size_t)m * sizeof(FS(cpx)));
        return;
    }
    for (int64_t j = 0; j < m; j++) {
        FS(cpx) v = {r[j].r * scale, r[j].i * si};
        memcpy(dst + j * ds, &v, sizeof v);
    }
}

static void FS(run_lines)(int64_t begin, int64_t end, void *ctx)
{
    const fft_job *jb = ctx;
    const FS(plan) *pl = jb->plan;
#ifdef FFT_VECTORS
    const int width = FW;
#else
    const int width = 1;
#endif
    /* two spare elements: the Hermitian half of an even real transform has h + 1 */
    const int64_t cap = pl->bufcap + 2;
    FS(cpx) *sb[FFT_MAXW] = {NULL};
    FS(cpx) *work = ars_alloc(cap * (int64_t)sizeof(FS(cpx)));
    FS(cpx) *tmp = ars_alloc(pl->tmpcap * (int64_t)sizeof(FS(cpx)));
    int bad = !work || !tmp;
    for (int l = 0; l < width; l++) {
        sb[l] = ars_alloc(cap * (int64_t)sizeof(FS(cpx)));
        bad |= !sb[l];
    }
#ifdef FFT_VECTORS
    FSV(dc) *vbuf = ars_alloc(cap * (int64_t)sizeof(FSV(dc)));
    FSV(dc) *vwork = ars_alloc(cap * (int64_t)sizeof(FSV(dc)));
    FSV(dc) *vtmp = ars_alloc(pl->tmpcap * (int64_t)sizeof(FSV(dc)));
    bad |= !vbuf || !vwork || !vtmp;
#endif
    /* the batch's lines in C order: src and dst, by the iterator's walker */
    const int64_t *const bstrides[2] = {jb->bsrc, jb->bdst};
    ars_walk walk = {jb->nb, 2, jb->bshape, bstrides, {0}};
    char *at[2] = {(char *)jb->src, jb->dst};
    if (bad) {
        __atomic_store_n(jb->status, ARS_ERR_NOMEM, __ATOMIC_RELAXED);
        goto done;
    }
    ars_walk_seek(&walk, at, begin);
    for (int64_t line = begin; line < end;) {
        int g = end - line >= width && !jb->par ? width : 1;
        const char *srcs[FFT_MAXW];
        char *dsts[FFT_MAXW];
        for (int l = 0; l < g; l++) {
            srcs[l] = at[0];
            dsts[l] = at[1];
            ars_walk_next(&walk, at);
        }
        line += g;
        if (g == 1) {
            FS(gather)(jb, pl, srcs[0], sb[0], work);
            FS(scatter)(jb, pl, FS(exec)(pl, sb[0], work, tmp, jb->par ? jb->status : NULL), dsts[0]);
            continue;
        }
#ifdef FFT_VECTORS
        /* g lines through one vector core: lane l holds line l */
        const int64_t nc = pl->n;
        for (int l = 0; l < g; l++)
            FS(gather)(jb, pl, srcs[l], sb[l], work);
        for (int64_t j = 0; j < nc; j++)
            for (int l = 0; l < FW; l++) {
                vbuf[j].r[l] = sb[l][j].r;
                vbuf[j].i[l] = sb[l][j].i;
            }
        FSV(dc) *vr = FSV(exec)(pl, vbuf, vwork, vtmp, NULL);
        for (int64_t j = 0; j < nc; j++)
            for (int l = 0; l < FW; l++)
                sb[l][j] = (FS(cpx)){vr[j].r[l], vr[j].i[l]};
        for (int l = 0; l < g; l++)
            FS(scatter)(jb, pl, sb[l], dsts[l]);
#endif
    }
done:
    for (int l = 0; l < width; l++)
        ars_free(sb[l]);
    ars_free(work);
    ars_free(tmp);
#ifdef FFT_VECTORS
    ars_free(vbuf);
    ars_free(vwork);
    ars_free(vtmp);
#endif
}

#undef CMUL
#undef CADD
#undef CSUB
