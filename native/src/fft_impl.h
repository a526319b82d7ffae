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
    FS(cpx) *rtw;               /* real plans (a length-m core for real length 2m):
                                 * e^(2 pi i k / 2m), k <= m; NULL otherwise */
} FS(plan);

#define CMUL(a, w) ((FS(cpx)){(a).r * (w).r - (a).i * (w).i, (a).r * (w).i + (a).i * (w).r})
#define CADD(a, b) ((FS(cpx)){(a).r + (b).r, (a).i + (b).i})
#define CSUB(a, b) ((FS(cpx)){(a).r - (b).r, (a).i - (b).i})
#define CC(a, b, c) cc[(a) + ido * ((b) + cdim * (c))]
#define CH(a, b, c) ch[(a) + ido * ((b) + l1 * (c))]
#define WA(x, i) wa[(i) - 1 + (x) * (ido - 1)]

/* ---- passes ---------------------------------------------------------------- */

static void FS(pass2)(int64_t ido, int64_t l1, const FS(cpx) *restrict cc,
                      FS(cpx) *restrict ch, const FS(cpx) *restrict wa)
{
    const int64_t cdim = 2;
    for (int64_t k = 0; k < l1; k++) {
        CH(0, k, 0) = CADD(CC(0, 0, k), CC(0, 1, k));
        CH(0, k, 1) = CSUB(CC(0, 0, k), CC(0, 1, k));
        for (int64_t i = 1; i < ido; i++) {
            FS(cpx) a0 = CC(i, 0, k), a1 = CC(i, 1, k);
            CH(i, k, 0) = CADD(a0, a1);
            FS(cpx) t = CSUB(a0, a1);
            CH(i, k, 1) = CMUL(t, WA(0, i));
        }
    }
}

static void FS(pass3)(int64_t ido, int64_t l1, const FS(cpx) *restrict cc,
                      FS(cpx) *restrict ch, const FS(cpx) *restrict wa)
{
    const int64_t cdim = 3;
    const FT s3 = (FT)0.86602540378443864676372317075294;
    for (int64_t k = 0; k < l1; k++) {
        for (int64_t i = 0; i < ido; i++) {
            FS(cpx) a0 = CC(i, 0, k), a1 = CC(i, 1, k), a2 = CC(i, 2, k);
            FS(cpx) t1 = CADD(a1, a2), t2 = CSUB(a1, a2);
            FS(cpx) ca = {a0.r - (FT)0.5 * t1.r, a0.i - (FT)0.5 * t1.i};
            FS(cpx) cb = {-s3 * t2.i, s3 * t2.r};
            FS(cpx) y1 = CADD(ca, cb), y2 = CSUB(ca, cb);
            CH(i, k, 0) = CADD(a0, t1);
            if (i == 0) {
                CH(i, k, 1) = y1;
                CH(i, k, 2) = y2;
            } else {
                CH(i, k, 1) = CMUL(y1, WA(0, i));
                CH(i, k, 2) = CMUL(y2, WA(1, i));
            }
        }
    }
}

static void FS(pass4)(int64_t ido, int64_t l1, const FS(cpx) *restrict cc,
                      FS(cpx) *restrict ch, const FS(cpx) *restrict wa)
{
    const int64_t cdim = 4;
    for (int64_t k = 0; k < l1; k++) {
        {
            FS(cpx) a0 = CC(0, 0, k), a1 = CC(0, 1, k), a2 = CC(0, 2, k), a3 = CC(0, 3, k);
            FS(cpx) t1 = CADD(a0, a2), t2 = CSUB(a0, a2), t3 = CADD(a1, a3), t4 = CSUB(a1, a3);
            FS(cpx) it4 = {-t4.i, t4.r};
            CH(0, k, 0) = CADD(t1, t3);
            CH(0, k, 1) = CADD(t2, it4);
            CH(0, k, 2) = CSUB(t1, t3);
            CH(0, k, 3) = CSUB(t2, it4);
        }
        for (int64_t i = 1; i < ido; i++) {
            FS(cpx) a0 = CC(i, 0, k), a1 = CC(i, 1, k), a2 = CC(i, 2, k), a3 = CC(i, 3, k);
            FS(cpx) t1 = CADD(a0, a2), t2 = CSUB(a0, a2), t3 = CADD(a1, a3), t4 = CSUB(a1, a3);
            FS(cpx) it4 = {-t4.i, t4.r};
            FS(cpx) y1 = CADD(t2, it4), y2 = CSUB(t1, t3), y3 = CSUB(t2, it4);
            CH(i, k, 0) = CADD(t1, t3);
            CH(i, k, 1) = CMUL(y1, WA(0, i));
            CH(i, k, 2) = CMUL(y2, WA(1, i));
            CH(i, k, 3) = CMUL(y3, WA(2, i));
        }
    }
}

static void FS(pass5)(int64_t ido, int64_t l1, const FS(cpx) *restrict cc,
                      FS(cpx) *restrict ch, const FS(cpx) *restrict wa)
{
    const int64_t cdim = 5;
    const FT c1 = (FT)0.3090169943749474241022934171828191,
             s1 = (FT)0.9510565162951535721164393333793821,
             c2 = (FT)-0.8090169943749474241022934171828191,
             s2 = (FT)0.5877852522924731291687059546390728;
    for (int64_t k = 0; k < l1; k++) {
        for (int64_t i = 0; i < ido; i++) {
            FS(cpx) a0 = CC(i, 0, k), a1 = CC(i, 1, k), a2 = CC(i, 2, k),
                    a3 = CC(i, 3, k), a4 = CC(i, 4, k);
            FS(cpx) t1 = CADD(a1, a4), t4 = CSUB(a1, a4), t2 = CADD(a2, a3), t3 = CSUB(a2, a3);
            FS(cpx) ca1 = {a0.r + c1 * t1.r + c2 * t2.r, a0.i + c1 * t1.i + c2 * t2.i};
            FS(cpx) ca2 = {a0.r + c2 * t1.r + c1 * t2.r, a0.i + c2 * t1.i + c1 * t2.i};
            /* i * (s1 t4 + s2 t3) and i * (s2 t4 - s1 t3) */
            FS(cpx) cb1 = {-(s1 * t4.i + s2 * t3.i), s1 * t4.r + s2 * t3.r};
            FS(cpx) cb2 = {-(s2 * t4.i - s1 * t3.i), s2 * t4.r - s1 * t3.r};
            FS(cpx) y1 = CADD(ca1, cb1), y4 = CSUB(ca1, cb1);
            FS(cpx) y2 = CADD(ca2, cb2), y3 = CSUB(ca2, cb2);
            CH(i, k, 0) = (FS(cpx)){a0.r + t1.r + t2.r, a0.i + t1.i + t2.i};
            if (i == 0) {
                CH(i, k, 1) = y1;
                CH(i, k, 2) = y2;
                CH(i, k, 3) = y3;
                CH(i, k, 4) = y4;
            } else {
                CH(i, k, 1) = CMUL(y1, WA(0, i));
                CH(i, k, 2) = CMUL(y2, WA(1, i));
                CH(i, k, 3) = CMUL(y3, WA(2, i));
                CH(i, k, 4) = CMUL(y4, WA(3, i));
            }
        }
    }
}

/* Any odd factor p: pairs b, p-b share cosines, so each output costs about
 * p real multiply-adds per component. tmp holds p - 1 elements. */
static void FS(passg)(int64_t ido, int64_t l1, int64_t p, const FS(cpx) *restrict cc,
                      FS(cpx) *restrict ch, const FS(cpx) *restrict wa,
                      const FS(cpx) *restrict roots, FS(cpx) *restrict tmp)
{
    const int64_t cdim = p;
    const int64_t h = (p - 1) / 2;
    FS(cpx) *tp = tmp, *tm = tmp + h;
    for (int64_t k = 0; k < l1; k++) {
        for (int64_t i = 0; i < ido; i++) {
            FS(cpx) a0 = CC(i, 0, k), y0 = a0;
            for (int64_t b = 1; b <= h; b++) {
                FS(cpx) ab = CC(i, b, k), am = CC(i, p - b, k);
                tp[b - 1] = CADD(ab, am);
                tm[b - 1] = CSUB(ab, am);
                y0 = CADD(y0, tp[b - 1]);
            }
            CH(i, k, 0) = y0;
            for (int64_t c = 1; c <= h; c++) {
                FS(cpx) u = a0, v = {0, 0};
                int64_t m = 0;
                for (int64_t b = 1; b <= h; b++) {
                    m += c;
                    if (m >= p)
                        m -= p;
                    FS(cpx) w = roots[m];
                    u.r += w.r * tp[b - 1].r;
                    u.i += w.r * tp[b - 1].i;
                    v.r += w.i * tm[b - 1].r;
                    v.i += w.i * tm[b - 1].i;
                }
                /* y_c = u + i v, y_(p-c) = u - i v */
                FS(cpx) yc = {u.r - v.i, u.i + v.r}, yd = {u.r + v.i, u.i - v.r};
                if (i == 0) {
                    CH(i, k, c) = yc;
                    CH(i, k, p - c) = yd;
                } else {
                    CH(i, k, c) = CMUL(yc, WA(c - 1, i));
                    CH(i, k, p - c) = CMUL(yd, WA(p - c - 1, i));
                }
            }
        }
    }
}

#undef CC
#undef CH
#undef WA

/* ---- execution ------------------------------------------------------------- */

/* The core transform of c (n elements) using ch (n elements) as the other
 * buffer; returns whichever of the two holds the result. tmp: p_max elements. */
static FS(cpx) *FS(exec_direct)(const FS(plan) *pl, FS(cpx) *c, FS(cpx) *ch, FS(cpx) *tmp)
{
    int64_t l1 = 1, n = pl->n;
    FS(cpx) *p1 = c, *p2 = ch;
    for (int f = 0; f < pl->nfct; f++) {
        int64_t ip = pl->fct[f], l2 = ip * l1, ido = n / l2;
        switch (ip) {
        case 2: FS(pass2)(ido, l1, p1, p2, pl->tw[f]); break;
        case 3: FS(pass3)(ido, l1, p1, p2, pl->tw[f]); break;
        case 4: FS(pass4)(ido, l1, p1, p2, pl->tw[f]); break;
        case 5: FS(pass5)(ido, l1, p1, p2, pl->tw[f]); break;
        default: FS(passg)(ido, l1, ip, p1, p2, pl->tw[f], pl->roots[f], tmp); break;
        }
        FS(cpx) *t = p1;
        p1 = p2;
        p2 = t;
        l1 = l2;
    }
    return p1;
}

/* buf holds the n inputs and room for bufcap elements; work holds bufcap. */
static FS(cpx) *FS(exec)(const FS(plan) *pl, FS(cpx) *buf, FS(cpx) *work, FS(cpx) *tmp)
{
    if (!pl->n2)
        return FS(exec_direct)(pl, buf, work, tmp);
    int64_t n = pl->n, n2 = pl->n2;
    const FS(cpx) *ch = pl->chirp, *bk = pl->bk;
    for (int64_t j = 0; j < n; j++)
        buf[j] = CMUL(buf[j], ch[j]);
    for (int64_t j = n; j < n2; j++)
        buf[j] = (FS(cpx)){0, 0};
    FS(cpx) *r = FS(exec_direct)(pl->sub, buf, work, tmp);
    for (int64_t k = 0; k < n2; k++) {
        FS(cpx) t = CMUL(r[k], bk[k]);
        r[k] = (FS(cpx)){t.r, -t.i};
    }
    FS(cpx) *r2 = FS(exec_direct)(pl->sub, r, r == buf ? work : buf, tmp);
    for (int64_t k = 0; k < n; k++) {
        FS(cpx) t = {r2[k].r, -r2[k].i};
        buf[k] = CMUL(t, ch[k]);
    }
    return buf;
}

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
    pl->chirp = ars_alloc(n * (int64_t)sizeof(FS(cpx)));
    pl->bk = ars_alloc(n2 * (int64_t)sizeof(FS(cpx)));
    FS(cpx) *work = ars_alloc(n2 * (int64_t)sizeof(FS(cpx)));
    FS(cpx) *tmp = ars_alloc(FFT_MAX_GENERIC * (int64_t)sizeof(FS(cpx)));
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
    FS(cpx) *r = FS(exec_direct)(pl->sub, b, work, tmp);
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
        if (ss == (int64_t)sizeof(FT) && step == 1) {
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
    if (ss == (int64_t)sizeof(FS(cpx)))
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
    /* two spare elements: the Hermitian half of an even real transform has h + 1 */
    const int64_t cap = (pl->bufcap + 2) * (int64_t)sizeof(FS(cpx));
    FS(cpx) *buf = ars_alloc(cap);
    FS(cpx) *work = ars_alloc(cap);
    FS(cpx) *tmp = ars_alloc(FFT_MAX_GENERIC * (int64_t)sizeof(FS(cpx)));
    if (!buf || !work || !tmp) {
        ars_free(buf);
        ars_free(work);
        ars_free(tmp);
        __atomic_store_n(jb->status, ARS_ERR_NOMEM, __ATOMIC_RELAXED);
        return;
    }
    int64_t idx[ARS_MAX_DIMS];
    int64_t rem = begin;
    const char *src = jb->src;
    char *dst = jb->dst;
    for (int d = jb->nb - 1; d >= 0; d--) {
        idx[d] = rem % jb->bshape[d];
        rem /= jb->bshape[d];
        src += idx[d] * jb->bsrc[d];
        dst += idx[d] * jb->bdst[d];
    }
    for (int64_t line = begin; line < end; line++) {
        FS(gather)(jb, pl, src, buf, work);
        FS(scatter)(jb, pl, FS(exec)(pl, buf, work, tmp), dst);
        for (int d = jb->nb - 1; d >= 0; d--) {
            if (++idx[d] < jb->bshape[d]) {
                src += jb->bsrc[d];
                dst += jb->bdst[d];
                break;
            }
            idx[d] = 0;
            src -= (jb->bshape[d] - 1) * jb->bsrc[d];
            dst -= (jb->bshape[d] - 1) * jb->bdst[d];
        }
    }
    ars_free(buf);
    ars_free(work);
    ars_free(tmp);
}

#undef CMUL
#undef CADD
#undef CSUB
