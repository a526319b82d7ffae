/* An AVX-512 quicksort of signed integer keys (optionally carrying int64
 * payloads, for argsort), after Bramas' and x86-simd-sort's design: vector
 * partitions that compress-store the lanes below and at-or-above the pivot to
 * the two ends of the range, bitonic sorting networks in registers for ranges
 * of up to SS_BASE keys, a pivot that is the median of SS_L (of 64 for long
 * ranges) evenly sampled keys, an equal-keys partition when the pivot equals
 * the range's lower bound (pdqsort's answer to many duplicates), and a
 * heapsort when the recursion runs too deep. Not stable. SS(sort) sorts a
 * long range on the thread pool: keys alone in pieces split by partitions,
 * keys with payloads by a sample sort.
 *
 * A template: sort.c includes it once per instantiation, inside a region
 * compiled for AVX-512, after defining
 *   SS(name)   the instantiation's name for `name`
 *   SS_KT      the key type, SS_KMAX its largest value, SS_L lanes per vector
 *   SS_IDX     1 to move an int64 payload with each key (needs SS_L == 8)
 *   SS_BASE    the largest range sorted by networks (a power of 2, <= 16 * SS_L)
 *   SS_V, SS_M the vector and mask types, and the vector operations V_*.
 * A key equal to SS_KMAX is allowed only without a payload: the networks pad
 * short ranges with SS_KMAX, and a pad must never trade places with a key. */

/* The payload pointer moved with the keys' (never offset when there is none) */
#if SS_IDX
#define SS_IXP(ix, p) ((ix) + (p))
#else
#define SS_IXP(ix, p) (ix)
#endif

#define SS_INL static inline __attribute__((always_inline))
/* Loops over registers are unrolled whole, so that the registers stay ones
 * (clang unrolls them unasked, and warns when it cannot at -O1) */
#if defined(__clang__)
#define SS_UNROLL
#else
#define SS_UNROLL _Pragma("GCC unroll 32")
#endif

/* A permutation vector: lane i takes lane i ^ x (x a constant). */
SS_INL SS_V SS(xor_perm)(int x)
{
#if SS_L == 8
    return _mm512_set_epi64(7 ^ x, 6 ^ x, 5 ^ x, 4 ^ x, 3 ^ x, 2 ^ x, 1 ^ x, 0 ^ x);
#else
    return _mm512_set_epi32(15 ^ x, 14 ^ x, 13 ^ x, 12 ^ x, 11 ^ x, 10 ^ x, 9 ^ x, 8 ^ x,
                            7 ^ x, 6 ^ x, 5 ^ x, 4 ^ x, 3 ^ x, 2 ^ x, 1 ^ x, 0 ^ x);
#endif
}

/* The lanes that keep the smaller key of a pair i, i ^ x: bit hb(x) clear. */
SS_INL SS_M SS(min_lanes)(int x)
{
    int hb = 1;
    while (hb * 2 <= x)
        hb *= 2;
    unsigned m = 0;
    for (int i = 0; i < SS_L; i++)
        if (!(i & hb))
            m |= 1u << i;
    return (SS_M)m;
}

#if SS_IDX
SS_INL __m512i SS(idx_perm)(int x)
{
    return _mm512_set_epi64(7 ^ x, 6 ^ x, 5 ^ x, 4 ^ x, 3 ^ x, 2 ^ x, 1 ^ x, 0 ^ x);
}
#endif

/* Compare-exchange of every lane with lane i ^ x of the same register. */
SS_INL void SS(lane_coex)(SS_V *v, __m512i *vi, int x)
{
    SS_V p = V_PERM(SS(xor_perm)(x), *v);
    SS_M kmin = SS(min_lanes)(x);
#if SS_IDX
    __m512i pi = _mm512_permutexvar_epi64(SS(idx_perm)(x), *vi);
    /* the two lanes of a pair agree: both keep theirs iff the lower one is <= */
    SS_M keep = (SS_M)((kmin & V_CMPLE(*v, p)) | ((SS_M)~kmin & V_CMPGE(*v, p)));
    *v = V_BLEND(keep, p, *v);
    *vi = _mm512_mask_blend_epi64(keep, pi, *vi);
#else
    (void)vi;
    *v = V_MASK_MIN(V_MAX(*v, p), kmin, *v, p);
#endif
}

/* Compare-exchange of two registers, lane by lane: smaller keys into a. */
SS_INL void SS(reg_coex)(SS_V *a, SS_V *b, __m512i *ai, __m512i *bi)
{
#if SS_IDX
    SS_M keep = V_CMPLE(*a, *b);
    SS_V na = V_BLEND(keep, *b, *a), nb = V_BLEND(keep, *a, *b);
    __m512i nai = _mm512_mask_blend_epi64(keep, *bi, *ai);
    __m512i nbi = _mm512_mask_blend_epi64(keep, *ai, *bi);
    *a = na;
    *b = nb;
    *ai = nai;
    *bi = nbi;
#else
    (void)ai;
    (void)bi;
    SS_V mn = V_MIN(*a, *b);
    *b = V_MAX(*a, *b);
    *a = mn;
#endif
}

/* Bitonic sort of one register, and the half-cleaners that sort a bitonic one. */
SS_INL void SS(sort_reg)(SS_V *v, __m512i *vi)
{
    SS(lane_coex)(v, vi, 1);
    SS(lane_coex)(v, vi, 3);
    SS(lane_coex)(v, vi, 1);
    SS(lane_coex)(v, vi, 7);
    SS(lane_coex)(v, vi, 2);
    SS(lane_coex)(v, vi, 1);
#if SS_L == 16
    SS(lane_coex)(v, vi, 15);
    SS(lane_coex)(v, vi, 4);
    SS(lane_coex)(v, vi, 2);
    SS(lane_coex)(v, vi, 1);
#endif
}

SS_INL void SS(clean_reg)(SS_V *v, __m512i *vi)
{
#if SS_L == 16
    SS(lane_coex)(v, vi, 8);
#endif
    SS(lane_coex)(v, vi, 4);
    SS(lane_coex)(v, vi, 2);
    SS(lane_coex)(v, vi, 1);
}

/* Half-cleaners between the nr registers, at distances from, from / 2, ...,
 * 1; vi holds the index register beside each of v (step 1), or is one
 * scratch register for them all (step 0). */
SS_INL void SS(reg_cleaners)(SS_V *v, __m512i *vi, const int step, const int nr, const int from)
{
SS_UNROLL
    for (int d = from; d >= 1; d /= 2)
SS_UNROLL
        for (int base = 0; base < nr; base += 2 * d)
SS_UNROLL
            for (int j = 0; j < d; j++)
                SS(reg_coex)(&v[base + j], &v[base + j + d], &vi[step * (base + j)],
                             &vi[step * (base + j + d)]);
}

/* Sort nr registers (a constant power of 2) as one sequence of nr * SS_L keys. */
SS_INL void SS(sort_regs)(SS_V *v, __m512i *vi, const int nr)
{
SS_UNROLL
    for (int i = 0; i < nr; i++)
        SS(sort_reg)(&v[i], &vi[i]);
SS_UNROLL
    for (int w = 1; w < nr; w *= 2) {
        /* merge sorted runs of w registers in pairs: the flip stage ... */
SS_UNROLL
        for (int base = 0; base < nr; base += 2 * w) {
SS_UNROLL
            for (int j = 0; j < w; j++) {
                int hi = base + 2 * w - 1 - j;
                SS_V rb = V_PERM(SS(xor_perm)(SS_L - 1), v[hi]);
                __m512i rbi = vi[hi];
#if SS_IDX
                rbi = _mm512_permutexvar_epi64(SS(idx_perm)(7), rbi);
#endif
                SS(reg_coex)(&v[base + j], &rb, &vi[base + j], &rbi);
                v[hi] = V_PERM(SS(xor_perm)(SS_L - 1), rb);
#if SS_IDX
                rbi = _mm512_permutexvar_epi64(SS(idx_perm)(7), rbi);
#endif
                vi[hi] = rbi;
            }
        }
        /* ... then half-cleaners between registers and within them */
        SS(reg_cleaners)(v, vi, 1, nr, w / 2);
SS_UNROLL
        for (int i = 0; i < nr; i++)
            SS(clean_reg)(&v[i], &vi[i]);
    }
}

/* Sort n <= nr * SS_L keys with nr registers, padding with SS_KMAX. */
SS_INL void SS(small_n)(SS_KT *a, int64_t *ix, int64_t n, const int nr)
{
    SS_V v[16];
    __m512i vi[16];
    SS_M m[16];
SS_UNROLL
    for (int i = 0; i < nr; i++) {
        int64_t c = n - (int64_t)i * SS_L;
        m[i] = c >= SS_L ? (SS_M)~(SS_M)0 : c > 0 ? (SS_M)((1u << c) - 1) : (SS_M)0;
        v[i] = V_SET1(SS_KMAX);
        vi[i] = _mm512_setzero_si512();
        if (c > 0) {
            v[i] = V_MLOAD(v[i], m[i], a + (int64_t)i * SS_L);
#if SS_IDX
            vi[i] = _mm512_mask_loadu_epi64(vi[i], m[i], ix + (int64_t)i * SS_L);
#endif
        }
    }
    SS(sort_regs)(v, vi, nr);
SS_UNROLL
    for (int i = 0; i < nr; i++) {
        if (m[i]) {
            V_MSTORE(a + (int64_t)i * SS_L, m[i], v[i]);
#if SS_IDX
            _mm512_mask_storeu_epi64(ix + (int64_t)i * SS_L, m[i], vi[i]);
#endif
        }
    }
#if !SS_IDX
    (void)ix;
#endif
}

#if !SS_IDX
/* Sort n <= nr * SS_L keys (nr a multiple of SS_L), padding with SS_KMAX,
 * the way of x86-simd-sort's networks: most compare-exchanges are between
 * whole registers. The keys are a matrix, register r lane c holding element
 * c * nr + r (column-major): a network across the registers sorts every
 * column; bitonic merges then join columns pairwise (a flip between lanes
 * c and c ^ (k - 1) of registers r and nr - 1 - r, half-cleaners between
 * lanes, then between registers); block transposes of SS_L x SS_L put the
 * sorted sequence in row-major order for the stores. */

/* The two-source permutations that swap bit b of the register and lane
 * indices of registers i (bit b clear) and i + b: lane c of the new
 * register i (ia) and i + b (ib); lanes from the second source have bit
 * SS_L set. */
SS_INL SS_V SS(tr_index)(int b, int second)
{
#define SS_TA(c) ((c) & b ? SS_L + (c) - b : (c))
#define SS_TB(c) ((c) & b ? SS_L + (c) : (c) + b)
#define SS_T(c) (second ? SS_TB(c) : SS_TA(c))
#if SS_L == 8
    return _mm512_set_epi64(SS_T(7), SS_T(6), SS_T(5), SS_T(4), SS_T(3), SS_T(2), SS_T(1), SS_T(0));
#else
    return _mm512_set_epi32(SS_T(15), SS_T(14), SS_T(13), SS_T(12), SS_T(11), SS_T(10), SS_T(9),
                            SS_T(8), SS_T(7), SS_T(6), SS_T(5), SS_T(4), SS_T(3), SS_T(2), SS_T(1),
                            SS_T(0));
#endif
#undef SS_TA
#undef SS_TB
#undef SS_T
}

SS_INL void SS(cm_transpose)(SS_V *v)
{
SS_UNROLL
    for (int b = 1; b < SS_L; b *= 2) {
        SS_V ia = SS(tr_index)(b, 0), ib = SS(tr_index)(b, 1);
SS_UNROLL
        for (int i = 0; i < SS_L; i++) {
            if (i & b)
                continue;
            SS_V na = V_PERM2(v[i], ia, v[i + b]);
            SS_V nb = V_PERM2(v[i], ib, v[i + b]);
            v[i] = na;
            v[i + b] = nb;
        }
    }
}

SS_INL void SS(small_cm)(SS_KT *a, int64_t n, const int nr)
{
    SS_V v[16], t[16];
    SS_M m[16];
    __m512i dummy = _mm512_setzero_si512();
SS_UNROLL
    for (int i = 0; i < nr; i++) {
        int64_t c = n - (int64_t)i * SS_L;
        m[i] = c >= SS_L ? (SS_M)~(SS_M)0 : c > 0 ? (SS_M)((1u << c) - 1) : (SS_M)0;
        v[i] = V_SET1(SS_KMAX);
        if (c > 0)  /* loaded row-major: the network sorts whatever it is given */
            v[i] = V_MLOAD(v[i], m[i], a + (int64_t)i * SS_L);
    }
    /* sort the columns: flip-form bitonic network across registers */
SS_UNROLL
    for (int sz = 2; sz <= nr; sz *= 2) {
SS_UNROLL
        for (int base = 0; base < nr; base += sz)
SS_UNROLL
            for (int j = 0; j < sz / 2; j++)
                SS(reg_coex)(&v[base + j], &v[base + sz - 1 - j], &dummy, &dummy);
        SS(reg_cleaners)(v, &dummy, 0, nr, sz / 4);
    }
    /* merge the columns: runs of k columns */
SS_UNROLL
    for (int k = 2; k <= SS_L; k *= 2) {
        SS_M low = SS(min_lanes)(k - 1);
SS_UNROLL
        for (int r = 0; r < nr / 2; r++) {
            SS_V p = V_PERM(SS(xor_perm)(k - 1), v[nr - 1 - r]);
            SS_V mn = V_MIN(v[r], p), mx = V_MAX(v[r], p);
            v[r] = V_BLEND(low, mx, mn);
            v[nr - 1 - r] = V_PERM(SS(xor_perm)(k - 1), V_BLEND(low, mn, mx));
        }
SS_UNROLL
        for (int x = k / 4; x >= 1; x /= 2)
SS_UNROLL
            for (int i = 0; i < nr; i++)
                SS(lane_coex)(&v[i], &dummy, x);
        SS(reg_cleaners)(v, &dummy, 0, nr, nr / 2);
    }
    /* column-major to row-major: block b of SS_L registers holds memory
     * registers b, b + nr / SS_L, ... after its transpose */
SS_UNROLL
    for (int b = 0; b < nr / SS_L; b++) {
        SS(cm_transpose)(v + SS_L * b);
SS_UNROLL
        for (int c = 0; c < SS_L; c++)
            t[c * (nr / SS_L) + b] = v[SS_L * b + c];
    }
SS_UNROLL
    for (int i = 0; i < nr; i++)
        if (m[i])
            V_MSTORE(a + (int64_t)i * SS_L, m[i], t[i]);
}
#endif

static void SS(small_sort)(SS_KT *a, int64_t *ix, int64_t n)
{
#if !SS_IDX && SS_L == 8
    if (n > 4 * SS_L) {
        if (n <= 8 * SS_L)
            SS(small_cm)(a, n, 8);
        else
            SS(small_cm)(a, n, 16);
        return;
    }
#endif  /* with 16 lanes the column-major leaf measured slower: not used */
    if (n <= SS_L)
        SS(small_n)(a, ix, n, 1);
    else if (n <= 2 * SS_L)
        SS(small_n)(a, ix, n, 2);
    else if (n <= 4 * SS_L)
        SS(small_n)(a, ix, n, 4);
#if SS_BASE > 8 * SS_L
    else if (n <= 8 * SS_L)
        SS(small_n)(a, ix, n, 8);
    else
        SS(small_n)(a, ix, n, 16);
#else
    else
        SS(small_n)(a, ix, n, 8);
#endif
}

/* ---- partition ------------------------------------------------------------- */

/* Lanes of v below the pivot go to a[*ls...], the rest end at a[*rs]
 * (compressed in a register, then a masked store: compressing stores to
 * memory are slow on AMD cores). */
SS_INL void SS(part_vec)(SS_KT *a, int64_t *ix, int64_t *ls, int64_t *rs, SS_V v, __m512i vi,
                         SS_V pv)
{
    SS_M ge = V_CMPGE(v, pv);
    int nge = __builtin_popcount((unsigned)ge);
    SS_M lt = (SS_M)~ge;
    SS_M nlo = (SS_M)((1u << (SS_L - nge)) - 1), nhi = (SS_M)((1u << nge) - 1);
    V_MSTORE(a + *ls, nlo, V_COMPRESS(lt, v));
    V_MSTORE(a + *rs - nge, nhi, V_COMPRESS(ge, v));
#if SS_IDX
    _mm512_mask_storeu_epi64(ix + *ls, nlo, _mm512_maskz_compress_epi64(lt, vi));
    _mm512_mask_storeu_epi64(ix + *rs - nge, nhi, _mm512_maskz_compress_epi64(ge, vi));
#else
    (void)vi;
    (void)ix;
#endif
    *ls += SS_L - nge;
    *rs -= nge;
}

/* Vectors held in registers at each end of a partition (unrolling). */
enum { SS(U) = 4 };

/* Partition a[0, n) (n >= 2 * SS_L) around pivot: returns p with the keys
 * below pivot in [0, p) and the others in [p, n). In place: the first and
 * last vectors are held in registers, then every vector read makes room
 * for its own lanes, read from the end with less room (so that both ends
 * have room for a whole vector), and the held ones are written last. */
static int64_t SS(partition)(SS_KT *a, int64_t *ix, int64_t n, SS_KT pivot)
{
    /* the vector part runs on [r, n), a whole number of vectors */
    int64_t r = n % SS_L;
    SS_KT *b = a + r;
    int64_t *bi = SS_IXP(ix, r);
    int64_t m = n - r;
    int u = m >= 4 * SS(U) * SS_L ? SS(U) : 1;
    SS_V pv = V_SET1(pivot);
    SS_V hv[2 * SS(U)];
    __m512i hi[2 * SS(U)];
    for (int j = 0; j < u; j++) {
        hv[j] = V_LOADU(b + j * SS_L);
        hv[u + j] = V_LOADU(b + m - (u - j) * SS_L);
        hi[j] = hi[u + j] = _mm512_setzero_si512();
#if SS_IDX
        hi[j] = _mm512_loadu_si512(bi + j * SS_L);
        hi[u + j] = _mm512_loadu_si512(bi + m - (u - j) * SS_L);
#endif
    }
    /* unread [l, rr); written [0, ls) and [rs, m); room is (l - ls) + (rs - rr) */
    int64_t l = u * SS_L, rr = m - u * SS_L, ls = 0, rs = m;
    if (u == SS(U)) {
        for (int64_t polled = l; rr - l >= SS(U) * SS_L;) {
            /* Ctrl-C: stop every 2^16 keys or so, leaving a with some keys
             * lost and others twice (no key or index is ever an address,
             * and the stopped sort's output is dropped) */
            if ((l + m - rr) - polled >= (1 << 16)) {
                polled = l + m - rr;
                if (ars_interrupted())
                    return 0;
            }
            SS_KT *p;
            int64_t *pi;
            if (rs - rr < l - ls) {
                rr -= SS(U) * SS_L;
                p = b + rr;
                pi = SS_IXP(bi, rr);
            } else {
                p = b + l;
                pi = SS_IXP(bi, l);
                l += SS(U) * SS_L;
            }
            SS_V v[SS(U)];
            __m512i vi[SS(U)];
SS_UNROLL
            for (int j = 0; j < SS(U); j++) {
                v[j] = V_LOADU(p + j * SS_L);
                vi[j] = _mm512_setzero_si512();
#if SS_IDX
                vi[j] = _mm512_loadu_si512(pi + j * SS_L);
#else
                (void)pi;
#endif
            }
SS_UNROLL
            for (int j = 0; j < SS(U); j++)
                SS(part_vec)(b, bi, &ls, &rs, v[j], vi[j], pv);
        }
    }
    while (rr > l) {
        SS_V v;
        __m512i vi = _mm512_setzero_si512();
        if (rs - rr < l - ls) {
            rr -= SS_L;
            v = V_LOADU(b + rr);
#if SS_IDX
            vi = _mm512_loadu_si512(bi + rr);
#endif
        } else {
            v = V_LOADU(b + l);
#if SS_IDX
            vi = _mm512_loadu_si512(bi + l);
#endif
            l += SS_L;
        }
        SS(part_vec)(b, bi, &ls, &rs, v, vi, pv);
    }
    for (int j = 0; j < 2 * u; j++)
        SS(part_vec)(b, bi, &ls, &rs, hv[j], hi[j], pv);
    /* the r keys before b: [i + 1, p) are below the pivot, [p, n) are not */
    int64_t p = r + ls;
    for (int64_t i = r - 1; i >= 0; i--) {
        if (a[i] >= pivot) {
            p--;
            SS_KT t = a[i];
            a[i] = a[p];
            a[p] = t;
#if SS_IDX
            int64_t ti = ix[i];
            ix[i] = ix[p];
            ix[p] = ti;
#endif
        }
    }
    return p;
}

/* The median of SS_L keys sampled evenly from a[0, n) (n >= SS_L). */
static SS_KT SS(pivot)(const SS_KT *a, int64_t n)
{
    SS_KT t[SS_L];
    int64_t step = n / SS_L;
    for (int i = 0; i < SS_L; i++)
        t[i] = a[i * step + step / 2];
    SS_V v = V_LOADU(t);
    __m512i vi = _mm512_setzero_si512();
    SS(sort_reg)(&v, &vi);
    V_STOREU(t, v);
    return t[SS_L / 2];
}

/* ---- fallback -------------------------------------------------------------- */

static void SS(sift)(SS_KT *a, int64_t *ix, int64_t i, int64_t n)
{
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n)
            return;
        if (c + 1 < n && a[c + 1] > a[c])
            c++;
        if (a[c] <= a[i])
            return;
        SS_KT t = a[i];
        a[i] = a[c];
        a[c] = t;
#if SS_IDX
        int64_t ti = ix[i];
        ix[i] = ix[c];
        ix[c] = ti;
#else
        (void)ix;
#endif
        i = c;
    }
}

static void SS(heapsort)(SS_KT *a, int64_t *ix, int64_t n)
{
    for (int64_t i = n / 2 - 1; i >= 0; i--)
        SS(sift)(a, ix, i, n);
    for (int64_t e = n - 1; e > 0; e--) {
        SS_KT t = a[0];
        a[0] = a[e];
        a[e] = t;
#if SS_IDX
        int64_t ti = ix[0];
        ix[0] = ix[e];
        ix[e] = ti;
#endif
        SS(sift)(a, ix, 0, e);
    }
}

/* The median of 64 keys sampled evenly from a[0, n) (n >= 64). */
static SS_KT SS(pivot_wide)(const SS_KT *a, int64_t n)
{
    SS_KT t[64];
    int64_t ti[64] = {0};
    int64_t step = n / 64;
    for (int i = 0; i < 64; i++)
        t[i] = a[i * step + step / 2];
    SS(small_n)(t, ti, 64, 64 / SS_L);
    return t[32];
}

/* ---- quicksort ------------------------------------------------------------- */

/* Sort a[0, n) (and ix with it); every key is >= lo when has_lo. Recurses
 * into the smaller side and loops on the larger; heapsort past depth 0. */
static void SS(qsort)(SS_KT *a, int64_t *ix, int64_t n, int depth, int has_lo, SS_KT lo)
{
    while (n > SS_BASE) {
        /* Ctrl-C: stop between partitions */
        if (n >= (1 << 14) && ars_interrupted())
            return;
        if (depth-- <= 0) {
            SS(heapsort)(a, ix, n);
            return;
        }
        SS_KT pv = n >= 8192 ? SS(pivot_wide)(a, n) : SS(pivot)(a, n);
        if (has_lo && pv == lo) {
            /* the keys equal to the lower bound go first and are done */
            if (pv == SS_KMAX)
                return;
            int64_t p = SS(partition)(a, ix, n, (SS_KT)(pv + 1));
            a += p;
            ix = SS_IXP(ix, p);
            n -= p;
            continue;
        }
        int64_t p = SS(partition)(a, ix, n, pv);
        if (p < n - p) {
            SS(qsort)(a, ix, p, depth, has_lo, lo);
            a += p;
            ix = SS_IXP(ix, p);
            n -= p;
            has_lo = 1;
            lo = pv;
        } else {
            SS(qsort)(a + p, SS_IXP(ix, p), n - p, depth, 1, pv);
            n = p;
        }
    }
    SS(small_sort)(a, ix, n);
}

/* The depth after which a range is heapsorted: about 2 log2(n). */
static int SS(depth_limit)(int64_t n)
{
    int d = 4;
    while (n > 1) {
        n >>= 1;
        d += 2;
    }
    return d;
}

/* ---- on the thread pool ------------------------------------------------------
 * Keys alone: a long range is split by serial partitions into pieces that the
 * pool sorts (equal keys are equal values, so the pieces do not show in the
 * result); keys with payloads: a sample sort, below. */
#if !SS_IDX

/* A part of the range left to sort, every key >= lo when has_lo. */
typedef struct {
    int64_t start, n;
    int has_lo;
    SS_KT lo;
} SS(piece);

typedef struct {
    SS_KT *a;
    int64_t *ix;
    const SS(piece) *p;
} SS(pjob);

static void SS(run_pieces)(int64_t begin, int64_t end, void *ctx)
{
    const SS(pjob) *j = ctx;
    for (int64_t i = begin; i < end; i++) {
        const SS(piece) *q = &j->p[i];
        SS(qsort)(j->a + q->start, SS_IXP(j->ix, q->start), q->n, SS(depth_limit)(q->n),
                  q->has_lo, q->lo);
    }
}

/* Ranges shorter than this are not split for the pool. */
enum { SS(PAR_MIN) = 1 << 16, SS(MAX_PIECES) = 32 };

/* Sort a[0, n) (and ix with it): on one thread, or split by serial partitions
 * into about two pieces per thread that the pool sorts, largest first. */
static void SS(sort)(SS_KT *a, int64_t *ix, int64_t n)
{
    int nt = n < 2 * SS(PAR_MIN) ? 1 : ars_get_num_threads();
    if (nt <= 1) {
        SS(qsort)(a, ix, n, SS(depth_limit)(n), 0, 0);
        return;
    }
    int want = nt > SS(MAX_PIECES) / 2 ? SS(MAX_PIECES) : 2 * nt;
    SS(piece) p[SS(MAX_PIECES)];
    int np = 1;
    p[0] = (SS(piece)){0, n, 0, 0};
    while (np < want) {
        if (ars_interrupted())
            return;
        int big = 0;
        for (int i = 1; i < np; i++)
            if (p[i].n > p[big].n)
                big = i;
        SS(piece) q = p[big];
        if (q.n < 2 * SS(PAR_MIN))
            break;
        SS_KT *qa = a + q.start;
        int64_t *qi = SS_IXP(ix, q.start);
        SS_KT pv = SS(pivot_wide)(qa, q.n);
        if (q.has_lo && pv == q.lo) {
            /* the keys equal to the lower bound are done */
            int64_t k = pv == SS_KMAX ? q.n : SS(partition)(qa, qi, q.n, (SS_KT)(pv + 1));
            p[big] = (SS(piece)){q.start + k, q.n - k, 1, q.lo};
            continue;
        }
        int64_t k = SS(partition)(qa, qi, q.n, pv);
        p[big] = (SS(piece)){q.start, k, q.has_lo, q.lo};
        p[np++] = (SS(piece)){q.start + k, q.n - k, 1, pv};
    }
    for (int i = 1; i < np; i++)  /* largest first */
        for (int j = i; j > 0 && p[j].n > p[j - 1].n; j--) {
            SS(piece) t = p[j];
            p[j] = p[j - 1];
            p[j - 1] = t;
        }
    SS(pjob) job = {a, ix, p};
    ars_parallel_for(np, 1, SS(run_pieces), &job);
}
#else

/* ---- long ranges: a sample sort on the thread pool ------------------------------
 *
 * A range of at least SS(PAR_MIN) keys is split into SS(NB) buckets by
 * SS(NB) - 1 splitters, every SS(OVER)th of a sorted sample taken at
 * pseudo-random positions: bucket b holds the keys k with sp[b - 1] <= k <
 * sp[b]. SS(PARTS) equal parts of the range classify their keys (a branchless
 * search of a splitter tree, a vector of keys at a time, its first levels held
 * in registers, then one read whole and the last gathered) and count them per bucket; a serial
 * pass turns the counts into each part's starts in every bucket (buckets in
 * order, parts in order within one); the parts scatter keys and payloads into
 * scratch; then the pool sorts every bucket there (SS(sort_bucket)) into a.
 * Each step splits by the range's length only, so the order of equal keys
 * does not depend on the thread count. Buckets may be empty or hold the whole
 * range (all keys equal): each is sorted in O(m log m) all the same. The
 * buckets' sort packs 64-bit keys with their places: this part is written for
 * the 64-bit instantiation with payloads only. */
#if SS_L != 8 || !SS_IDX
#error "the sample sort is written for 64-bit keys with payloads"
#endif
enum {
    SS(PAR_MIN) = 1 << 15,
    SS(LEVELS) = 8,
    SS(REG_LEVELS) = 6,  /* levels held in registers: 1, 2, 4, 8, 16 and 32 nodes */
    SS(NB) = 1 << SS(LEVELS),
    SS(OVER) = 8,
    SS(PARTS) = 16
};

typedef struct {
    SS_KT *a, *t;
    int64_t *ix, *ti;
    uint8_t *bid;    /* each key's bucket */
    int64_t n;
    int iota;        /* ix unset: key i's payload is i */
    int64_t *pos;    /* SS(PARTS) x SS(NB): a part's count, then its next slot, per bucket */
    int64_t ends[SS(NB)];  /* where bucket b ends in t */
    /* sp[b]: the sorted splitters; tree: the same in breadth-first order, level
     * l's 2^l nodes from tree[2^l - 1] (node j: sp[(2j + 1) 2^(LEVELS-l-1) - 1]),
     * padded so that a vector load at any level stays inside */
    SS_KT sp[SS(NB)];
    SS_KT tree[SS(NB) + SS_L];
} SS(sjob);

/* The buckets of the keys of SS(CU) vectors v[u] into j[u]: the tree walked
 * down one level per step, the vectors side by side (their steps overlap). */
enum { SS(CU) = 8 };
SS_INL void SS(classify)(const SS_V *lv, const SS_KT *tree, const SS_V *v, SS_V *j)
{
    SS_V one = V_SET1(1);
SS_UNROLL
    for (int u = 0; u < SS(CU); u++)
        j[u] = V_SET1(0);
    const SS_V *r = lv;
SS_UNROLL
    for (int l = 0; l < SS(LEVELS); l++) {
        int nodes = 1 << l;
SS_UNROLL
        for (int u = 0; u < SS(CU); u++) {
            SS_V s;
            if (nodes <= SS_L) {
                s = V_PERM(j[u], r[0]);
            } else if (nodes == 2 * SS_L) {
                s = V_PERM2(r[0], j[u], r[1]);
            } else if (nodes == 4 * SS_L) {
                SS_V lo = V_PERM2(r[0], j[u], r[1]), hi = V_PERM2(r[2], j[u], r[3]);
                s = V_BLEND(V_TESTM(j[u], V_SET1(2 * SS_L)), lo, hi);
            } else if (nodes == 8 * SS_L) {  /* 8 registers' worth, loaded */
                const SS_KT *q = tree + nodes - 1;
                SS_V p0 = V_PERM2(V_LOADU(q), j[u], V_LOADU(q + SS_L));
                SS_V p1 = V_PERM2(V_LOADU(q + 2 * SS_L), j[u], V_LOADU(q + 3 * SS_L));
                SS_V p2 = V_PERM2(V_LOADU(q + 4 * SS_L), j[u], V_LOADU(q + 5 * SS_L));
                SS_V p3 = V_PERM2(V_LOADU(q + 6 * SS_L), j[u], V_LOADU(q + 7 * SS_L));
                SS_M b1 = V_TESTM(j[u], V_SET1(2 * SS_L));
                SS_V lo = V_BLEND(b1, p0, p1), hi = V_BLEND(b1, p2, p3);
                s = V_BLEND(V_TESTM(j[u], V_SET1(4 * SS_L)), lo, hi);
            } else {
                s = V_GATHER(V_ADD(j[u], V_SET1(nodes - 1)), tree);
            }
            j[u] = V_ADD(j[u], j[u]);
            j[u] = V_MASK_ADD(j[u], V_CMPGE(v[u], s), j[u], one);
        }
        r += nodes <= SS_L ? 1 : nodes == 2 * SS_L ? 2 : nodes == 4 * SS_L ? 4 : 0;
    }
}

static void SS(part_classify)(int64_t begin, int64_t end, void *ctx)
{
    SS(sjob) *c = ctx;
    /* the levels' registers: level l takes max(1, 2^l / SS_L) of them */
    SS_V lv[SS(REG_LEVELS) + 6];
    int nr = 0;
    for (int l = 0; l < SS(REG_LEVELS); l++)
        for (int q = 0; q < (1 << l) || q == 0; q += SS_L)
            lv[nr++] = V_LOADU(c->tree + ((1 << l) - 1) + q);
    for (int64_t p = begin; p < end; p++) {
        int64_t i0 = ars_split(c->n, p, SS(PARTS)), i1 = ars_split(c->n, p + 1, SS(PARTS));
        int64_t *h = c->pos + p * SS(NB);
        memset(h, 0, SS(NB) * sizeof(int64_t));
        int64_t i = i0;
        for (; i + SS(CU) * SS_L <= i1; i += SS(CU) * SS_L) {
            SS_V v[SS(CU)], j[SS(CU)];
SS_UNROLL
            for (int u = 0; u < SS(CU); u++)
                v[u] = V_LOADU(c->a + i + u * SS_L);
            SS(classify)(lv, c->tree, v, j);
SS_UNROLL
            for (int u = 0; u < SS(CU); u++)
                _mm_storel_epi64((__m128i *)(void *)(c->bid + i + u * SS_L), _mm512_cvtepi64_epi8(j[u]));
        }
        for (; i < i1; i++) {
            int64_t j = 0;
            for (int l = 0; l < SS(LEVELS); l++)
                j = 2 * j + (c->a[i] >= c->tree[(1 << l) - 1 + j]);
            c->bid[i] = (uint8_t)j;
        }
        for (i = i0; i < i1; i++)
            h[c->bid[i]]++;
    }
}

/* The scatter goes through a buffer of one cache line per bucket (and one of
 * payloads), written out when it reaches a line boundary of its destination:
 * whole lines go by streaming stores (no read of the line first, no store to
 * one of SS(NB) places per key); the partial lines at a part's ends by plain
 * ones. A bucket's keys and payloads sit side by side in the buffer: apart,
 * the two arrays put the payloads 4 KiB from the keys, which the store buffer
 * takes for a dependency. Here one part [i0, i1), h its next slot per
 * bucket; payloads i when iota (a constant: each case gets its own loop). */
SS_INL void SS(scatter_part)(const SS(sjob) *c, int64_t i0, int64_t i1, int64_t *h, int iota)
{
    struct {
        _Alignas(64) SS_KT k[SS_L];
        int64_t i[SS_L];
    } buf[SS(NB)];
    int fill[SS(NB)], need[SS(NB)];
    const SS_KT *a = c->a;
    const int64_t *ix = c->ix;
    const uint8_t *bid = c->bid;
    SS_KT *t = c->t;
    int64_t *ti = c->ti;
    for (int b = 0; b < SS(NB); b++) {
        fill[b] = 0;
        need[b] = SS_L - (int)(h[b] % SS_L);
    }
    for (int64_t i = i0; i < i1; i++) {
        int b = bid[i], f = fill[b];
        buf[b].k[f] = a[i];
        buf[b].i[f] = iota ? i : ix[i];
        if (++f == need[b]) {
            if (f == SS_L) {
                _mm512_stream_si512((void *)(t + h[b]), V_LOADU(buf[b].k));
                _mm512_stream_si512((void *)(ti + h[b]), _mm512_loadu_si512(buf[b].i));
            } else {
                memcpy(t + h[b], buf[b].k, (size_t)f * sizeof(SS_KT));
                memcpy(ti + h[b], buf[b].i, (size_t)f * sizeof(int64_t));
            }
            h[b] += f;
            f = 0;
            need[b] = SS_L;
        }
        fill[b] = f;
    }
    for (int b = 0; b < SS(NB); b++) {
        memcpy(t + h[b], buf[b].k, (size_t)fill[b] * sizeof(SS_KT));
        memcpy(ti + h[b], buf[b].i, (size_t)fill[b] * sizeof(int64_t));
        h[b] += fill[b];
    }
}

static void SS(part_scatter)(int64_t begin, int64_t end, void *ctx)
{
    const SS(sjob) *c = ctx;
    for (int64_t p = begin; p < end; p++) {
        int64_t i0 = ars_split(c->n, p, SS(PARTS)), i1 = ars_split(c->n, p + 1, SS(PARTS));
        int64_t *h = c->pos + p * SS(NB);
        if (c->iota)
            SS(scatter_part)(c, i0, i1, h, 1);
        else
            SS(scatter_part)(c, i0, i1, h, 0);
    }
    _mm_sfence();  /* the streamed lines are seen by the threads that sort them */
}

/* Sort bucket [s, s + m) of t (keys >= lo when has_lo) and write its payloads
 * in order into ix (the sorted keys are not written back: a is scratch after
 * the sample sort). When its keys span less than 2^(63 - w), with m <= 2^w,
 * each key becomes (key - min) << w | its place in the bucket, and these are
 * sorted alone (the quicksort without payloads, some times faster): the
 * payload is then the one at the place. Equal keys then keep their order in
 * t. Otherwise a bucket of 256 keys or more is split in two by a partition
 * (at most `splits` times deep) and each side tried again; the rest, keys
 * and payloads sorted together. */
static void SS(sort_bucket)(SS(sjob) *c, int64_t s, int64_t m, int has_lo, SS_KT lo, int splits)
{
    SS_KT *t = c->t + s;
    int64_t *ti = c->ti + s;
    SS_KT mn = t[0], mx = t[0];
    for (int64_t i = 1; i < m; i++) {
        mn = t[i] < mn ? t[i] : mn;
        mx = t[i] > mx ? t[i] : mx;
    }
    /* the payloads are read at random below: fetched in order now */
    for (int64_t i = 0; i < m; i += 8)
        _mm_prefetch((const char *)(ti + i), _MM_HINT_T1);
    int w = 0;
    while (((int64_t)1 << w) < m)
        w++;
    uint64_t span = (uint64_t)mx - (uint64_t)mn;
    if (w > 62 || (span >> (63 - w)) != 0) {
        /* halves have a bit more room, and often a narrower span: split
         * by a partition, a few times at most */
        if (m >= 256 && splits > 0) {
            SS_KT pv = SS(pivot_wide)(t, m);
            if (!has_lo || pv != lo) {
                int64_t p = SS(partition)(t, ti, m, pv);
                if (p > 0 && p < m) {
                    SS(sort_bucket)(c, s, p, has_lo, lo, splits - 1);
                    SS(sort_bucket)(c, s + p, m - p, 1, pv, splits - 1);
                    return;
                }
            }
        }
        SS(qsort)(t, ti, m, SS(depth_limit)(m), has_lo, lo);
        memcpy(c->ix + s, ti, (size_t)m * sizeof(int64_t));
        return;
    }
    int64_t *io = c->ix + s, i = 0;
    __m512i vmn = _mm512_set1_epi64(mn), vw = _mm512_set1_epi64(w);
    __m512i place = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), eight = _mm512_set1_epi64(8);
    for (; i + 8 <= m; i += 8) {
        __m512i v = _mm512_sub_epi64(_mm512_loadu_si512(t + i), vmn);
        _mm512_storeu_si512(t + i, _mm512_or_si512(_mm512_sllv_epi64(v, vw), place));
        place = _mm512_add_epi64(place, eight);
    }
    for (; i < m; i++)
        t[i] = (SS_KT)(((uint64_t)t[i] - (uint64_t)mn) << w | (uint64_t)i);
    SS_PACKED_SORT(t, m);
    uint64_t low = ((uint64_t)1 << w) - 1;
    /* whole lines of ix by streaming stores: no read of them first */
    for (i = 0; i < m && ((uintptr_t)(io + i) & 63); i++)
        io[i] = ti[(uint64_t)t[i] & low];
    for (; i + 8 <= m; i += 8) {
        const SS_KT *u = t + i;
        _mm512_stream_si512((void *)(io + i),
                            _mm512_set_epi64(ti[u[7] & low], ti[u[6] & low], ti[u[5] & low],
                                             ti[u[4] & low], ti[u[3] & low], ti[u[2] & low],
                                             ti[u[1] & low], ti[u[0] & low]));
    }
    for (; i < m; i++)
        io[i] = ti[(uint64_t)t[i] & low];
}

static void SS(bucket_sort)(int64_t begin, int64_t end, void *ctx)
{
    SS(sjob) *c = ctx;
    for (int64_t b = begin; b < end; b++) {
        int64_t s = b ? c->ends[b - 1] : 0, m = c->ends[b] - s;
        if (m > 0)
            SS(sort_bucket)(c, s, m, b > 0, b > 0 ? c->sp[b - 1] : 0, 8);
    }
    _mm_sfence();
}

/* The payloads ix[0, n) in the order that sorts the keys a[0, n), a left
 * in any order (scratch): by the quicksort, or the sample sort above for a
 * long range (the quicksort again when its scratch cannot be had). When iota,
 * ix holds nothing yet and key i's payload is i. */
static void SS(sort)(SS_KT *a, int64_t *ix, int64_t n, int iota)
{
    if (n < SS(PAR_MIN)) {
        for (int64_t i = 0; iota && i < n; i++)
            ix[i] = i;
        SS(qsort)(a, ix, n, SS(depth_limit)(n), 0, 0);
        return;
    }
    /* scratch: pos, then the keys, payloads, bucket numbers and the sample */
    int64_t n8 = (n + 7) / 8 * 8;  /* the payloads start on a cache line too */
    enum { S = SS(NB) * SS(OVER) };
    char *mem = ars_alloc(n8 * ((int64_t)sizeof(SS_KT) + 1 + (SS_IDX ? 8 : 0)) +
                          (SS(PARTS) * SS(NB) + S) * 8);
    if (!mem) {
        for (int64_t i = 0; iota && i < n; i++)
            ix[i] = i;
        SS(qsort)(a, ix, n, SS(depth_limit)(n), 0, 0);
        return;
    }
    SS(sjob) job, *c = &job;
    c->a = a;
    c->ix = ix;
    c->n = n;
    c->iota = iota;
    c->pos = (int64_t *)(void *)mem;
    c->t = (SS_KT *)(void *)(mem + SS(PARTS) * SS(NB) * 8);
    c->ti = SS_IDX ? (int64_t *)(void *)(c->t + n8) : NULL;
    c->bid = (uint8_t *)(c->t + n8) + (SS_IDX ? n8 * 8 : 0);
    /* the sample: positions from a fixed sequence (splitmix64's) */
    SS_KT *smp = (SS_KT *)(void *)(c->bid + n8);
    uint64_t x = 0;
    for (int i = 0; i < S; i++) {
        uint64_t z = (x += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        z ^= z >> 31;
        smp[i] = a[(int64_t)(z % (uint64_t)n)];
    }
    SS_PACKED_SORT(smp, S);  /* keys alone */
    for (int b = 0; b + 1 < SS(NB); b++)
        c->sp[b] = smp[(b + 1) * SS(OVER)];
    c->sp[SS(NB) - 1] = SS_KMAX;
    for (int l = 0; l < SS(LEVELS); l++)
        for (int j = 0; j < (1 << l); j++)
            c->tree[(1 << l) - 1 + j] = c->sp[((2 * j + 1) << (SS(LEVELS) - l - 1)) - 1];
    for (int k = SS(NB) - 1; k < SS(NB) + SS_L; k++)
        c->tree[k] = SS_KMAX;
    /* A chunk of a region is skipped after Ctrl-C: its counts and bucket
     * numbers are then unset, and nothing past that point may run. */
    ars_parallel_for(SS(PARTS), 1, SS(part_classify), c);
    if (!ars_interrupted()) {
        int64_t sum = 0;
        for (int b = 0; b < SS(NB); b++) {
            for (int p = 0; p < SS(PARTS); p++) {
                int64_t k = c->pos[p * SS(NB) + b];
                c->pos[p * SS(NB) + b] = sum;
                sum += k;
            }
            c->ends[b] = sum;
        }
        ars_parallel_for(SS(PARTS), 1, SS(part_scatter), c);
        if (!ars_interrupted())
            ars_parallel_for(SS(NB), 1, SS(bucket_sort), c);
    }
    ars_free(mem);
}
#endif

#undef SS_IXP
#undef SS_INL
#undef SS_UNROLL
