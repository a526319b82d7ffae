/* arrstride's own math functions for the elementwise loops: exp, expm1,
 * log, log1p, log2, log10, sin, cos, tan, tanh, sinh, cosh, asinh, acosh,
 * atanh, asin, acos, atan, atan2 and pow in float64 and float32, hypot and
 * logaddexp in float32. Portable C without branches (selects only), so that GCC and
 * Clang vectorize the loops that
 * call them at any SIMD width, and with one algorithm for every width and
 * CPU: the compiler fuses nothing (the build passes -ffp-contract=off) and a
 * fused multiply-add is written out as vm_fma, correctly rounded at every
 * level, so a result's bits depend on the input alone, not on the SIMD
 * level, the CPU family or the compiler. No libm call, except for sin, cos and tan of |x| > 2**20
 * (VM_TRIG_MAX): a second pass over the block (ars_sin_fix64 and friends)
 * gives those the C library's scalar functions.
 *
 * float64: the table-free algorithms of fdlibm (Sun Microsystems, 1993;
 * FreeBSD's msun for log2 and log10), each within 1 ulp: exp's rational
 * approximation on |r| <= ln2/2 after a Cody-Waite reduction, log's
 * polynomial in s = f / (2 + f), log2 and log10 through a hi + lo split of
 * log(1 + f), sin and cos by fdlibm's kernels after a three-part reduction
 * by pi/2 (exact for |x| <= 2**20); the others from fdlibm's too, some
 * with intermediate sums in two parts (see each).
 * float32: the polynomials and the final steps in float64 lanes, with an error
 * far below a float32 ulp, and one rounding at the end: within 1 ulp and
 * nearly always correctly rounded. What needs no such precision runs in
 * float32 lanes, twice as wide: clamps, the logarithms' reduction, and the
 * float32 square root and divisions that asin, acos and atanh refine by one
 * Newton step in float64. Polynomials by Horner's rule with vm_fma.
 * tests/test_accuracy.py measures them; `python -m arrstride accuracy`
 * prints the table. Internal header. */
#ifndef ARS_VMATH_H
#define ARS_VMATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t vm_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline double vm_from_bits(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* a * b + c rounded once. One instruction where the level has FMA
 * (x86-64-v3 and v4, aarch64); at x86-64's baseline a call of the C
 * library's fma(), correctly rounded too (and hardware FMA where the CPU has
 * it): the same bits at every level, slower at the baseline. */
#define vm_fma(a, b, c) __builtin_fma((a), (b), (c))

/* x + VM_SHIFT rounds x (|x| < 2**51) to an integer n held in the low bits
 * of the sum; n = that - VM_SHIFT as a double, and its bits give 2**n
 * without a float -> int conversion (which AVX2 lacks for 64-bit lanes). */
#define VM_SHIFT 0x1.8p52

/* 2**n for the integer n (-1022 <= n <= 1023) held in the double nd. */
static inline double vm_pow2(double nd)
{
    return vm_from_bits((vm_bits(nd + VM_SHIFT) + 1023u) << 52);
}

/* ---- exp ------------------------------------------------------------------------ */

#define VM_LN2_HI 6.93147180369123816490e-01 /* 32 bits: k * VM_LN2_HI is exact */
#define VM_LN2_LO 1.90821492927058770002e-10
#define VM_INVLN2 1.44269504088896338700e+00

/* e**(hi - lo) * 2**k, for |hi - lo| <= 0.35 and -1076 <= k <= 1024 (fdlibm's
 * e_exp.c: r - r**2 P(r**2) approximates 2r / (e**r - 1) ... rearranged). */
static inline double vm_exp_tail(double hi, double lo, double k)
{
    double r = hi - lo;
    double t = r * r;
    double c = r - t * (1.66666666666666019037e-01 + t * (-2.77777777770155933842e-03
               + t * (6.61375632143793436117e-05 + t * (-1.65339022054652515390e-06
               + t * 4.13813679705723846039e-08))));
    double y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
    /* 2**k as two factors, each a normal number: y * 2**k1 is exact, the
     * second product rounds once (subnormal results included) */
    double k1 = (k * 0.5 + VM_SHIFT) - VM_SHIFT;
    return y * vm_pow2(k1) * vm_pow2(k - k1);
}

static inline double ars_exp(double x)
{
    /* beyond [-746, 710] the result is 0 or inf; NaN passes the compares */
    double xc = x < -746.0 ? -746.0 : x > 710.0 ? 710.0 : x;
    double k = (xc * VM_INVLN2 + VM_SHIFT) - VM_SHIFT;
    return vm_exp_tail(xc - k * VM_LN2_HI, k * VM_LN2_LO, k);
}

/* ---- log -------------------------------------------------------------------------- */

/* x (> 0, finite) = 2**k * z, sqrt(2)/2 <= z < sqrt(2); returns z - 1. */
static inline double vm_log_reduce(double x, double *k)
{
    int sub = x < 0x1p-1022;
    double m = sub ? x * 0x1p54 : x;
    uint64_t ix = vm_bits(m);
    /* kk = k + 1024: the exponent of x / (sqrt(2)/2), kept non-negative so
     * that a logical shift gives it */
    uint64_t kk = (ix - 0x3fe6a09e667f3bcdu + (1024ull << 52)) >> 52;
    double z = vm_from_bits(ix - (kk << 52) + (1024ull << 52));
    *k = (vm_from_bits(0x4330000000000000u | kk) - (0x1p52 + 1024.0)) - (sub ? 54.0 : 0.0);
    return z - 1.0;
}

/* log(1 + f) - f + f*f/2 for sqrt(2)/2 - 1 <= f < sqrt(2) - 1 (fdlibm's
 * k_log1p: s * (f*f/2 + R(s*s)), s = f / (2 + f)) */
static inline double vm_log1p_tail(double f, double hfsq)
{
    double s = f / (2.0 + f);
    double z = s * s;
    double w = z * z;
    double t1 = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01
                + w * 1.531383769920937332e-01));
    double t2 = z * (6.666666666666735130e-01 + w * (2.857142874366239149e-01
                + w * (1.818357216161805012e-01 + w * 1.479819860511658591e-01)));
    return s * (hfsq + t2 + t1);
}

/* The special values of every logarithm: x < 0 (and -inf) NaN, 0 -inf, +inf
 * and NaN themselves; v for the rest. */
static inline double vm_log_special(double x, double v)
{
    return x > 0 && x < INFINITY ? v : x == 0 ? -INFINITY : x < 0 ? (double)NAN : x + x;
}

static inline double ars_log(double x)
{
    double k;
    double f = vm_log_reduce(x, &k);
    double hfsq = 0.5 * f * f;
    double v = k * VM_LN2_HI - ((hfsq - (vm_log1p_tail(f, hfsq) + k * VM_LN2_LO)) - f);
    return vm_log_special(x, v);
}

/* log(1 + f) as hi + lo, hi with its low 32 bits clear (FreeBSD's e_log2.c
 * and e_log10.c), so that hi times a 32-bit constant is exact. */
static inline double vm_log_hilo(double f, double *lo)
{
    double hfsq = 0.5 * f * f;
    double r = vm_log1p_tail(f, hfsq);
    double hi = vm_from_bits(vm_bits(f - hfsq) & 0xffffffff00000000u);
    *lo = (f - hi) - hfsq + r;
    return hi;
}

static inline double ars_log2(double x)
{
    double k, lo;
    double hi = vm_log_hilo(vm_log_reduce(x, &k), &lo);
    double vhi = hi * 1.44269504072144627571e+00;
    double vlo = (lo + hi) * 1.67517131648865118353e-10 + lo * 1.44269504072144627571e+00;
    double w = k + vhi;
    vlo += (k - w) + vhi;
    return vm_log_special(x, vlo + w);
}

static inline double ars_log10(double x)
{
    double k, lo;
    double hi = vm_log_hilo(vm_log_reduce(x, &k), &lo);
    double vhi = hi * 4.34294481878168880939e-01;
    double y2 = k * 3.01029995663611771306e-01;
    double vlo = k * 3.69423907715893078616e-13 + (lo + hi) * 2.50829467116452752298e-11
                 + lo * 4.34294481878168880939e-01;
    double w = y2 + vhi;
    vlo += (y2 - w) + vhi;
    return vm_log_special(x, vlo + w);
}

/* ---- sin, cos ------------------------------------------------------------------- */

/* Beyond this size the reduction below is no longer exact: a second pass
 * (ars_sin_fix64, ...) takes the C library's sin and cos there. */
#define VM_TRIG_MAX 0x1p20

/* fdlibm's kernels on [-pi/4, pi/4]: x + y is the reduced argument. */
static inline double vm_ksin(double x, double y)
{
    double z = x * x;
    double w = z * z;
    double r = 8.33333333332248946124e-03 + z * (-1.98412698298579493134e-04 + z * 2.75573137070700676789e-06)
               + z * w * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10);
    double v = z * x;
    return x - ((z * (0.5 * y - v * r) - y) - v * -1.66666666666666324348e-01);
}

static inline double vm_kcos(double x, double y)
{
    double z = x * x;
    double w = z * z;
    double r = z * (4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03 + z * 2.48015872894767294178e-05))
               + w * w * (-2.75573143513906633035e-07 + z * (2.08757232129817482790e-09
               + z * -1.13596475577881948265e-11));
    double hz = 0.5 * z;
    w = 1.0 - hz;
    return w + (((1.0 - w) - hz) + (z * r - x * y));
}

/* x - n pi/2 = y0 + *y1 for |x| <= VM_TRIG_MAX, n (mod 4) in *q: pi/2 in
 * three 33-bit parts and a tail (fdlibm's e_rem_pio2.c: its second round
 * always, the third where the second cancels). */
static inline double vm_rem_pio2(double x, double *y1, uint64_t *q)
{
    double kd = x * 6.36619772367581382433e-01 + VM_SHIFT;
    *q = vm_bits(kd);
    double fn = kd - VM_SHIFT;
    double r = x - fn * 1.57079632673412561417e+00;
    double w, t;
    t = r;
    w = fn * 6.07710050630396597660e-11;
    r = t - w;
    w = fn * 2.02226624879595063154e-21 - ((t - r) - w);
    double y0 = r - w;
    /* the third round where the second left fewer than 49 bits of x (its
     * tail fn * pio2_2t is then redone in two parts) */
    double r3, w3;
    t = r;
    w3 = fn * 2.02226624871116645580e-21;
    r3 = t - w3;
    w3 = fn * 8.47842766036889956997e-32 - ((t - r3) - w3);
    int third = fabs(y0) < fabs(x) * 0x1p-49;
    r = third ? r3 : r;
    w = third ? w3 : w;
    y0 = r - w;
    *y1 = (r - y0) - w;
    return y0;
}

/* sin (q0 = 0) or cos (q0 = 1) of x, |x| <= VM_TRIG_MAX: the kernel of the
 * quadrant n + q0 after the reduction. */
static inline double vm_sincos(double x, uint64_t q0)
{
    double y1;
    uint64_t q;
    double y0 = vm_rem_pio2(x, &y1, &q);
    q += q0;
    double s = vm_ksin(y0, y1), c = vm_kcos(y0, y1);
    double v = (q & 1) ? c : s;
    return (q & 2) ? -v : v;
}

static inline double ars_sin(double x) { return vm_sincos(x, 0); }
static inline double ars_cos(double x) { return vm_sincos(x, 1); }

/* ---- float64: tan, expm1, tanh, sinh, cosh, log1p, asinh, acosh, atanh,
 * atan, asin, acos, atan2 ------------------------------------------------------- */

#define VM_PI_HI 3.14159265358979311600e+00
#define VM_PIO2_HI 1.57079632679489655800e+00
#define VM_PIO2_LO 6.12323399573676603587e-17
#define VM_PIO4_HI 7.85398163397448278999e-01

/* y * 2**k for an integer k (in a double), -2044 <= k <= 2046: two factors,
 * each a normal number, so that only the last product rounds */
static inline double vm_scale(double y, double k)
{
    double k1 = (k * 0.5 + VM_SHIFT) - VM_SHIFT;
    return y * vm_pow2(k1) * vm_pow2(k - k1);
}

/* a + b = s + *e exactly (Knuth's two-sum, any order of magnitude) */
static inline double vm_two_sum(double a, double b, double *e)
{
    double s = a + b;
    double bb = s - a;
    *e = (a - (s - bb)) + (b - bb);
    return s;
}

/* a * b = p + *e exactly (Dekker's product, no FMA), |a|, |b| < 2**995 and
 * the product's low part not below the normal range */
static inline double vm_two_prod(double a, double b, double *e)
{
    double ca = a * 134217729.0, cb = b * 134217729.0;
    double ah = ca - (ca - a), al = a - ah;
    double bh = cb - (cb - b), bl = b - bh;
    double p = a * b;
    *e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    return p;
}

/* e**x = (s + *t) * 2**k for |x| <= 711, k = round(x / ln2) in *k:
 * fdlibm's exp kernel (as vm_exp_tail) in two parts, so that the callers
 * round once at the end. e**r = 1 + r + r*r/2 + R3, R3 = r c / (2 - c) -
 * r*r/2 rewritten as r z (1 - (2 + r) P) / (2 (2 - c)) (c = r - z P, z =
 * r*r): s = 1 + hi rounded; *t its rounding error (exact), r*r/2 (exact in
 * two parts), R3, -lo and the rounding error of r = hi - lo. */
static inline double vm_exp_dd(double x, double *t, double *k)
{
    double kd = (x * VM_INVLN2 + VM_SHIFT) - VM_SHIFT;
    double hi = x - kd * VM_LN2_HI, lo = kd * VM_LN2_LO;
    double r = hi - lo;
    double rr = (hi - r) - lo;
    double zl, z = vm_two_prod(r, r, &zl);
    double p = 1.66666666666666019037e-01 + z * (-2.77777777770155933842e-03
               + z * (6.61375632143793436117e-05 + z * (-1.65339022054652515390e-06
               + z * 4.13813679705723846039e-08)));
    double c = r - z * p;
    double r3 = (r * z) * (1.0 - (2.0 + r) * p) / (2.0 * (2.0 - c));
    double s = 1.0 + hi;
    *t = ((1.0 - s) + hi) + (0.5 * z + ((0.5 * zl + r3 + r * rr) - lo));
    *k = kd;
    return s;
}

/* e**x - 1 = hi + *lo, hi the rounded sum, for -40 <= x <= 710 */
static inline double vm_expm1_dd(double x, double *lo)
{
    double t, k, s = vm_exp_dd(x, &t, &k);
    /* 2**k s - 1 + 2**k t; 2**k is a normal number for -58 <= k <= 56,
     * beyond that the -1 is below half an ulp */
    double p = vm_pow2(k > 56.0 ? 0.0 : k);
    double e, d = vm_two_sum(s * p, -1.0, &e);
    double w = t * p + e;
    double h = vm_two_sum(d, w, &e);
    double big = vm_scale(s + t, k);
    *lo = k > 56.0 ? 0.0 : e;
    return k > 56.0 ? big : h;
}

static inline double ars_expm1(double x)
{
    /* e**x - 1 rounds to -1 below -38, overflows above 709.79; NaN passes */
    double xc = x < -40.0 ? -40.0 : x > 710.0 ? 710.0 : x;
    double lo, v = vm_expm1_dd(xc, &lo);
    return x == 0 ? x : v;
}

static inline double ars_tanh(double x)
{
    /* tanh a = m / (m + 2), m = e**(2a) - 1 in two parts, a = |x|: q = n / d
     * with n = m (a < 0.55) or 2 (then tanh = 1 - q), corrected for the
     * low parts and the division's rounding (the residual n - q d exactly,
     * divided in float32: it only needs a few bits). 1 from 22 on; a - a**3/3
     * below 2**-26. */
    double a = fabs(x), ac = a > 22.0 ? 22.0 : a;
    double ml, mh = vm_expm1_dd(ac + ac, &ml);
    double dl, dh = vm_two_sum(mh, 2.0, &dl);
    dl += ml;
    int small = a < 0.55;
    double n = small ? mh : 2.0;
    double nl = small ? ml : 0.0;
    double q = n / dh;
    double pe, pp = vm_two_prod(q, dh, &pe);
    double res = (((n - pp) - pe) + nl) - q * dl;
    double corr = (double)((float)res / (float)dh);
    double v = small ? q + corr : 1.0 - (q + corr);
    v = a < 0x1p-26 ? a - a * a * a * (1.0 / 3) : v;
    return copysign(a > 22.0 ? 1.0 : v, x);
}

/* sinh (sg = -1) and cosh (sg = 1) of a = |x| >= 0.34: e**a / 2 = (s + t)
 * 2**(k-1), e**-a / 2 = 2**(-k-1) / (s + t) (s + t as dh + dl, 1 / (dh +
 * dl) ~ (1 - dl/dh) / dh); rounded once, in the sum of the parts scaled by
 * 2**(1-k). a is clamped
 * to 710.5 (both overflow from 710.48). */
static inline double vm_cosh_sinh(double a, double sg)
{
    double ac = a > 710.5 ? 710.5 : a;
    double t, k, s = vm_exp_dd(ac, &t, &k);
    double kc = k > 30.0 ? 30.0 : k;
    double dl, dh = vm_two_sum(s, t, &dl);
    double inv = 1.0 / dh;
    double f = vm_pow2(-2.0 * kc) * (inv - inv * (dl * inv));
    double e, h = vm_two_sum(dh, sg * f, &e);
    return vm_scale(h + (e + dl), k - 1.0);
}

static inline double ars_cosh(double x)
{
    /* below ln2/2 the Taylor series to a**14 */
    double a = fabs(x), z = a * a;
    double p = z * (0.5 + z * (1.0 / 24 + z * (1.0 / 720 + z * (1.0 / 40320
               + z * (1.0 / 3628800 + z * (1.0 / 479001600.0 + z * (1.0 / 87178291200.0)))))));
    double v = vm_cosh_sinh(a, 1.0);
    return a < 0.34 ? 1.0 + p : v;
}

static inline double ars_sinh(double x)
{
    /* below 1 (where the difference cancels) the Taylor series to a**21 */
    double a = fabs(x), z = a * a;
    double p = z * (1.0 / 6 + z * (1.0 / 120 + z * (1.0 / 5040 + z * (1.0 / 362880
               + z * (1.0 / 39916800 + z * (1.0 / 6227020800.0 + z * (1.0 / 1307674368000.0
               + z * (1.0 / 355687428096000.0 + z * (1.0 / 121645100408832000.0
               + z * (1.0 / 51090942171709440000.0))))))))));
    double v = vm_cosh_sinh(a, -1.0);
    return copysign(a < 1.0 ? a + a * p : v, x);
}

/* ---- log1p and the inverse hyperbolic functions --------------------------------- */

/* log(u) + c / u + kadd ln2 for u > 0 (fdlibm's s_log1p.c: c is the
 * rounding error of u = 1 + x), and log's special values of u */
static inline double vm_log_c(double u, double c, double kadd)
{
    double k;
    double f = vm_log_reduce(u, &k);
    k += kadd;
    double hfsq = 0.5 * f * f;
    double v = k * VM_LN2_HI - ((hfsq - (vm_log1p_tail(f, hfsq) + (k * VM_LN2_LO + c / u))) - f);
    return vm_log_special(u, v);
}

/* log1p(w + wl) for w > -1 and a small wl (and the special values), through
 * u = 1 + w and its rounding error, exact (zero beyond 2**54, where it does
 * not matter) */
static inline double vm_log1p(double w, double wl)
{
    double u = 1.0 + w;
    double c = u >= 2.0 ? 1.0 - (u - w) : w - (u - 1.0);
    return vm_log_c(u, u < 0x1p54 ? c + wl : 0.0, 0.0);
}

static inline double ars_log1p(double x)
{
    double v = vm_log1p(x, 0.0);
    return fabs(x) < 0x1p-54 ? x : v;
}

/* A small correction: a / b for the residuals below, where a few bits do
 * (float32: one cheap division). */
static inline double vm_div_lo(double a, double b)
{
    return (double)((float)a / (float)b);
}

/* sqrt(a + al) = s + *sl (al small) */
static inline double vm_sqrt_dd(double a, double al, double *sl)
{
    double s = sqrt(a);
    double pe, pp = vm_two_prod(s, s, &pe);
    *sl = s > 0 ? vm_div_lo(((a - pp) - pe) + al, s + s) : 0.0;
    return s;
}

/* The inverse hyperbolic functions as fdlibm's s_asinh.c, e_acosh.c and
 * e_atanh.c, but with log1p's argument in two parts (the rounding errors of
 * its sums, square root and quotient kept), which takes their error from
 * about 2 ulp to 1. */

/* log(2a + 1 / (sqrt(a*a + 1) + a)) above 2, log1p(a + a*a / (1 + sqrt(1 +
 * a*a))) up to 2, log(a) + ln2 above 2**28, a below 2**-28 */
static inline double ars_asinh(double x)
{
    double a = fabs(x);
    int big = a > 2.0, huge = a > 0x1p28;
    double zl, z = vm_two_prod(a, a, &zl);
    double bl, b = vm_two_sum(1.0, z, &bl);
    double sl, sq = vm_sqrt_dd(b, bl + zl, &sl);
    double dl, d = vm_two_sum(1.0, sq, &dl);
    dl += sl;
    double q = (big ? 1.0 : z) / (big ? sq + a : d);
    double pe, pp = vm_two_prod(q, d, &pe);
    double ql = vm_div_lo((((z - pp) - pe) + zl) - q * dl, d);
    double we, w = vm_two_sum(big ? a + a : a, q, &we);
    we += big ? 0.0 : ql;
    double u = big ? w : 1.0 + w;
    double c = u >= 2.0 ? 1.0 - (u - w) : w - (u - 1.0);
    c = big ? we : c + we;
    u = huge ? a : u;
    double v = vm_log_c(u, huge ? 0.0 : c, huge ? 1.0 : 0.0);
    return a < 0x1p-28 ? x : copysign(v, x);
}

/* log(2x - 1 / (x + sqrt(x*x - 1))) above 2, log1p(t + sqrt(2t + t*t)), t
 * = x - 1, up to 2, log(x) + ln2 above 2**28 */
static inline double ars_acosh(double x)
{
    int big = x > 2.0, huge = x > 0x1p28;
    double t = x - 1.0;
    double zl, z = vm_two_prod(t, t, &zl);
    double al, a2 = vm_two_sum(t + t, z, &al);
    double sl, sq = vm_sqrt_dd(a2, al + zl, &sl);
    double we, w = vm_two_sum(t, sq, &we);
    we += sl;
    double be, bw = vm_two_sum(x + x, -1.0 / (x + sqrt(x * x - 1.0)), &be);
    double u = big ? bw : 1.0 + w;
    double c = u >= 2.0 ? 1.0 - (u - w) : w - (u - 1.0);
    c = big ? be : c + we;
    u = huge ? x : u;
    double v = vm_log_c(u, huge ? 0.0 : c, huge ? 1.0 : 0.0);
    return x < 1.0 ? (double)NAN : v;
}

/* log1p(2a / (1 - a)) / 2 (the quotient in two parts); |x| = 1 gives inf,
 * |x| > 1 NaN (log1p of less than -1), a below 2**-28 */
static inline double ars_atanh(double x)
{
    double a = fabs(x), n = a + a;
    double de, d = vm_two_sum(1.0, -a, &de);
    double q = n / d;
    double pe, pp = vm_two_prod(q, d, &pe);
    double ql = vm_div_lo(((n - pp) - pe) - q * de, d);
    double v = 0.5 * vm_log1p(q, a < 1.0 ? ql : 0.0);
    return a < 0x1p-28 ? x : copysign(v, x);
}

/* ---- atan, atan2, asin, acos ----------------------------------------------------- */

/* fdlibm's s_atan.c after the reduction: hi + lo + neg (r - r p(r*r) +
 * cr), (hi, lo) the table entry (vm_atan_entry), r the reduced argument,
 * cr a correction for an error of the unreduced one (atan2's quotient);
 * neg = -1 with the entry subtracted from pi gives pi - atan. */
static inline double vm_atan_poly(double r, double hi, double lo, double neg, double cr)
{
    double z = r * r;
    double w = z * z;
    double s1 = z * (3.33333333333329318027e-01 + w * (1.42857142725034663711e-01
                + w * (9.09088713343650656196e-02 + w * (6.66107313738753120669e-02
                + w * (4.97687799461593236017e-02 + w * 1.62858201153657823623e-02)))));
    double s2 = w * (-1.99999999998764832476e-01 + w * (-1.11111104054623557880e-01
                + w * (-7.69187620504482999495e-02 + w * (-5.83357013379057348645e-02
                + w * -3.65315727442169155270e-02))));
    double u = r * (s1 + s2);
    return hi - (((neg * u - lo) - neg * cr) - neg * r);
}

/* The entry of fdlibm's atan table for the interval flags g1..g4 (|x| or
 * n/d from 7/16, 11/16, 19/16, 39/16 on): atan(0, 0.5, 1, 1.5, inf) as hi +
 * lo, or with neg = -1 (atan2's left half-plane) pi minus those. One
 * two-way select after another (nested ones of constants became branches). */
static inline double vm_atan_entry(int g1, int g2, int g3, int g4, int left, double *lo)
{
    double h = 0.0, l = 0.0;
    h = g1 ? 4.63647609000806093515e-01 : h;
    l = g1 ? 2.26987774529616870924e-17 : l;
    h = g2 ? 7.85398163397448278999e-01 : h;
    l = g2 ? 3.06161699786838301793e-17 : l;
    h = g3 ? 9.82793723247329054082e-01 : h;
    l = g3 ? 1.39033110312309984516e-17 : l;
    h = g4 ? 1.57079632679489655800e+00 : h;
    l = g4 ? 6.12323399573676603587e-17 : l;
    double ph = 3.141592653589793116e+00, pl = 1.2246467991473532e-16;
    ph = g1 ? 2.677945044588987e+00 : ph;
    pl = g1 ? 1.5527705369303147e-16 : pl;
    ph = g2 ? 2.356194490192345e+00 : ph;
    pl = g2 ? 9.184850993605148e-17 : pl;
    ph = g3 ? 2.158798930342464e+00 : ph;
    pl = g3 ? 2.1958367134601997e-16 : pl;
    ph = g4 ? 1.5707963267948966e+00 : ph;
    pl = g4 ? 6.123233995736766e-17 : pl;
    *lo = left ? pl : l;
    return left ? ph : h;
}

/* fdlibm's s_atan.c: the reduced argument (2a - 1) / (2 + a), (a - 1) / (a
 * + 1), (a - 1.5) / (1 + 1.5a) or -1/a by one division of selected parts */
static inline double ars_atan(double x)
{
    double a = fabs(x);
    int g1 = a >= 0.4375, g2 = a >= 0.6875, g3 = a >= 1.1875, g4 = a >= 2.4375;
    double n = a, d = 1.0;
    n = g1 ? (a + a) - 1.0 : n;
    d = g1 ? 2.0 + a : d;
    n = g2 ? a - 1.0 : n;
    d = g2 ? a + 1.0 : d;
    n = g3 ? a - 1.5 : n;
    d = g3 ? 1.0 + 1.5 * a : d;
    n = g4 ? -1.0 : n;
    d = g4 ? a : d;
    double lo, hi = vm_atan_entry(g1, g2, g3, g4, 0, &lo);
    return copysign(vm_atan_poly(n / d, hi, lo, 1.0, 0.0), x);
}

/* atan2: fdlibm's e_atan2.c computes atan(|y/x|) of the rounded quotient q;
 * here the quotient's rounding error is added back (cr = (n - q d) / (d (1
 * + q*q)), the residual exact by Dekker's product after scaling n and d to
 * about 1, divided in float32), so that the result rounds about once. Then
 * C99 Annex F's special values: both 0 give 0, both infinite pi/4, y
 * infinite pi/2, x infinite 0; pi minus those where x's sign bit is set,
 * then y's sign. */
static inline double ars_atan2(double y, double x)
{
    double n = fabs(y), d = fabs(x);
    int left = (int)(vm_bits(x) >> 63);
    double q = n / d;
    int g1 = q >= 0.4375, g2 = q >= 0.6875, g3 = q >= 1.1875, g4 = q >= 2.4375;
    double rn = q, rd = 1.0;
    rn = g1 ? (q + q) - 1.0 : rn;
    rd = g1 ? 2.0 + q : rd;
    rn = g2 ? q - 1.0 : rn;
    rd = g2 ? q + 1.0 : rd;
    rn = g3 ? q - 1.5 : rn;
    rd = g3 ? 1.0 + 1.5 * q : rd;
    rn = g4 ? -1.0 : rn;
    rd = g4 ? q : rd;
    /* n, d scaled by one power of 2 so that the larger is in [1, 2) */
    double m = n > d ? n : d;
    double pre = m > 0x1p500 ? 0x1p-600 : 1.0;
    pre = m < 0x1p-500 ? 0x1p600 : pre;
    double sc = vm_from_bits((2046u - (vm_bits(m * pre) >> 52)) << 52);
    double ns = (n * pre) * sc, ds = (d * pre) * sc;
    double pe, pp = vm_two_prod(q, ds, &pe);
    double res = (ns - pp) - pe;
    double cr = (double)((float)res / (float)(ds + q * ns));
    cr = ((q > 0x1p-600) & (q < 0x1p60)) ? cr : 0.0;
    double lo, hi = vm_atan_entry(g1, g2, g3, g4, left, &lo);
    double v = vm_atan_poly(rn / rd, hi, lo, left ? -1.0 : 1.0, cr);
    int yinf = n == (double)INFINITY, xinf = d == (double)INFINITY;
    double w = 0.0;
    w = (yinf & xinf) ? 7.85398163397448278999e-01 : w;
    w = (yinf & !xinf) ? VM_PIO2_HI : w;
    w = left ? VM_PI_HI - w : w;
    w = (yinf & xinf & left) ? 2.356194490192344837e+00 : w;
    int special = (((n == 0) & (d == 0)) | yinf | xinf) & (n == n) & (d == d);
    return copysign(special ? w : v, y);
}

/* fdlibm's e_asin.c and e_acos.c: asin(t) - t as t*t*p(t*t)/q(t*t) for |t| <
 * 0.5 (p/q: R below), and from 0.5 on through sqrt((1 - |x|)/2) */
static inline double vm_asin_r(double t)
{
    double p = t * (1.66666666666666657415e-01 + t * (-3.25565818622400915405e-01
               + t * (2.01212532134862925881e-01 + t * (-4.00555345006794114027e-02
               + t * (7.91534994289814532176e-04 + t * 3.47933107596021167570e-05)))));
    double q = 1.0 + t * (-2.40339491173441421878e+00 + t * (2.02094576023350569471e+00
               + t * (-6.88283971605453293030e-01 + t * 7.70381505559019352791e-02)));
    return p / q;
}

static inline double ars_asin(double x)
{
    double a = fabs(x);
    int small = a < 0.5;
    double t = small ? x * x : (1.0 - a) * 0.5;
    double r = vm_asin_r(t);
    double s = sqrt(t);
    /* s as hi (its low 32 bits clear) + c, c = (t - hi*hi) / (s + hi) */
    double sh = vm_from_bits(vm_bits(s) & 0xffffffff00000000u);
    double c = (t - sh * sh) / (s + sh);
    double p = 2.0 * s * r - (VM_PIO2_LO - 2.0 * c);
    double qq = VM_PIO4_HI - 2.0 * sh;
    double v = VM_PIO4_HI - (p - qq);
    double v2 = VM_PIO2_HI - (2.0 * (s + s * r) - VM_PIO2_LO);
    v = a >= 0.975 ? v2 : v;
    v = copysign(v, x);
    v = small ? x + x * r : v;
    return a < 0x1p-26 ? x : v;
}

static inline double ars_acos(double x)
{
    double a = fabs(x);
    int small = a < 0.5;
    double t = small ? x * x : (1.0 - a) * 0.5;
    double r = vm_asin_r(t);
    double s = sqrt(t);
    double vs = VM_PIO2_HI - (x - (VM_PIO2_LO - x * r));
    double vn = VM_PI_HI - 2.0 * (s + (r * s - VM_PIO2_LO));
    double df = vm_from_bits(vm_bits(s) & 0xffffffff00000000u);
    double c = s > 0 ? (t - df * df) / (s + df) : 0.0;
    double vp = 2.0 * (df + (r * s + c));
    double v = x < 0 ? vn : vp;
    return small ? vs : v;
}

/* ---- tan -------------------------------------------------------------------------- */

/* fdlibm's k_tan.c on x + y (|x + y| <= pi/4, from vm_rem_pio2): tan for
 * odd = 0, -1/tan for odd = 1, the polynomial of degree 27 after folding
 * |x| >= 0.6744 to pi/4 - |x|; its two divisions (w*w / (w + v) folded,
 * -1/w unfolded) as one of selected parts. */
static inline double vm_ktan(double x, double y, uint64_t odd)
{
    int big = fabs(x) >= 0.6744;
    double sg = x < 0 ? -1.0 : 1.0;
    double xa = sg * x, ya = sg * y;
    double xf = (VM_PIO4_HI - xa) + (3.06161699786838301793e-17 - ya);
    x = big ? xf : x;
    y = big ? 0.0 : y;
    double z = x * x;
    double w = z * z;
    double r = 1.33333333333201242699e-01 + w * (2.18694882948595424599e-02
               + w * (3.59207910759131235356e-03 + w * (5.88041240820264096874e-04
               + w * (7.81794442939557092300e-05 + w * -1.85586374855275456654e-05))));
    double v = z * (5.39682539762260521377e-02 + w * (8.86323982359930005737e-03
               + w * (1.45620945432529025516e-03 + w * (2.46463134818469906812e-04
               + w * (7.14072491382608190305e-05 + w * 2.59073051863633712884e-05)))));
    double s = z * x;
    r = y + z * (s * (r + v) + y);
    r += 3.33333333333334091986e-01 * s;
    w = x + r;
    double iy = odd ? -1.0 : 1.0;
    double q = (big ? w * w : -1.0) / (big ? w + iy : w);
    double vb = sg * (iy - 2.0 * (x - (q - r)));
    /* -1/(x + r) with w = x + r split, as fdlibm */
    double wh = vm_from_bits(vm_bits(w) & 0xffffffff00000000u);
    double vv = r - (wh - x);
    double th = vm_from_bits(vm_bits(q) & 0xffffffff00000000u);
    double so = 1.0 + th * wh;
    double vo = th + q * (so + th * vv);
    return big ? vb : odd ? vo : w;
}

static inline double ars_tan(double x)
{
    double y1;
    uint64_t q;
    double y0 = vm_rem_pio2(x, &y1, &q);
    double v = vm_ktan(y0, y1, q & 1);
    return x == 0 ? x : v;
}

/* the second pass of tan: the C library's beyond VM_TRIG_MAX (as
 * ars_sin_fix64) */
static inline void ars_tan_fix64(double *o, const double *a, int64_t n)
{
    int any = 0;
    for (int64_t i = 0; i < n; i++)
        any |= !(fabs(a[i]) <= VM_TRIG_MAX);
    if (!any)
        return;
    for (int64_t i = 0; i < n; i++)
        if (!(fabs(a[i]) <= VM_TRIG_MAX))
            o[i] = tan(a[i]);
}

/* ---- pow -------------------------------------------------------------------------- */

/* log(x) = hi + *lo for a positive finite x, relative error about 2**-64:
 * x = 2**k (1 + f), log(1 + f) = 2 atanh(s), s = f / (2 + f), |s| < 0.172,
 * = 2s + 2s**3/3 + s**5 P(s*s), with s, s*s, s**3 and 2s**3/3 in two parts
 * (Dekker's products), the series to s**29. */
static inline double vm_log_dd(double x, double *lo)
{
    double k;
    double f = vm_log_reduce(x, &k);
    double dl, d = vm_two_sum(2.0, f, &dl);
    double s = f / d;
    double pe, pp = vm_two_prod(s, d, &pe);
    double sl = vm_div_lo(((f - pp) - pe) - s * dl, d);
    double s2l, s2 = vm_two_prod(s, s, &s2l);
    s2l += 2.0 * s * sl;
    double s3l, s3 = vm_two_prod(s, s2, &s3l);
    s3l += s * s2l + sl * s2;
    double w = s2 * s2;
    double p = (0.4 + s2 * (2.0 / 7)) + w * ((2.0 / 9 + s2 * (2.0 / 11)) + w * ((2.0 / 13 + s2 * (2.0 / 15))
               + w * ((2.0 / 17 + s2 * (2.0 / 19)) + w * ((2.0 / 21 + s2 * (2.0 / 23))
               + w * ((2.0 / 25 + s2 * (2.0 / 27)) + w * (2.0 / 29))))));
    /* 2/3 = C + Cl */
    const double C = 6.66666666666666629659e-01, Cl = 3.70074341541718826264e-17;
    double t3e, t3 = vm_two_prod(s3, C, &t3e);
    double ae, a = vm_two_sum(2.0 * s, t3, &ae);
    double l = 2.0 * sl + ae + t3e + (s3l * C + s3 * Cl) + s3 * s2 * p;
    double be, b = vm_two_sum(k * VM_LN2_HI, a, &be);
    l += be + k * VM_LN2_LO;
    double h = b + l;
    *lo = l - (h - b);
    return h;
}

/* e**(x + xl) for |x| <= 746 (a small xl), rounded once but for results in
 * the subnormal range */
static inline double vm_exp_xl(double x, double xl)
{
    double kd = (x * VM_INVLN2 + VM_SHIFT) - VM_SHIFT;
    double hi = x - kd * VM_LN2_HI, lo = kd * VM_LN2_LO - xl;
    double r = hi - lo;
    double rr = (hi - r) - lo;
    double zl, z = vm_two_prod(r, r, &zl);
    double p = 1.66666666666666019037e-01 + z * (-2.77777777770155933842e-03
               + z * (6.61375632143793436117e-05 + z * (-1.65339022054652515390e-06
               + z * 4.13813679705723846039e-08)));
    double c = r - z * p;
    double r3 = (r * z) * (1.0 - (2.0 + r) * p) / (2.0 * (2.0 - c));
    double s = 1.0 + hi;
    double t = ((1.0 - s) + hi) + (0.5 * z + ((0.5 * zl + r3 + r * rr) - lo));
    return vm_scale(s + t, kd);
}

/* pow: e**(y log|x|) with log|x| and the product in two parts, the sign
 * from y's parity, and C99 Annex F's special values by selects. Forced
 * inline: GCC's size limit would keep it a call, and the loop scalar. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline double ars_pow(double x, double y)
{
    double ax = fabs(x), ay = fabs(y);
    /* y an integer (every |y| >= 2**52 is one), odd? */
    uint64_t yb = vm_bits(ay + 0x1p52);
    int yint = (ay >= 0x1p52) | ((vm_from_bits(yb) - 0x1p52) == ay);
    int yodd = yint & (ay < 0x1p53) & (int)((ay < 0x1p52 ? yb : vm_bits(ay)) & 1);
    double ll, l = vm_log_dd(ax, &ll);
    double ze, z = vm_two_prod(y, l, &ze);
    ze += y * ll;
    int over = z > 710.0, under = z < -746.0;
    double zc = over ? 710.0 : under ? -746.0 : z;
    double v = vm_exp_xl(zc, (over | under) ? 0.0 : ze);
    v = (over | under) ? (over ? (double)INFINITY : 0.0) : v;
    int neg = (x < 0) & yodd;
    v = neg ? -v : v;
    /* |x| = 1: +-1 exactly (y * log|x| is 0, but its exact product's low
     * part is NaN for |y| > 2**996, where the split of y overflows) */
    v = ax == 1.0 ? (neg ? -1.0 : 1.0) : v;
    v = ((x < 0) & !yint & (ax < (double)INFINITY)) ? (double)NAN : v;
    /* x = +-0: +-inf or +-0 for odd y, else +inf or +0 */
    double zero = y < 0 ? (double)INFINITY : 0.0;
    zero = yodd ? copysign(zero, x) : zero;
    v = ((ax == 0) & (y == y)) ? zero : v;
    /* x = +-inf: the reciprocal of the zero case */
    double inf = y < 0 ? 0.0 : (double)INFINITY;
    inf = yodd ? copysign(inf, x) : inf;
    v = ((ax == (double)INFINITY) & (y == y)) ? inf : v;
    /* y = +-inf: 1 for |x| = 1, else 0 or inf */
    double yi = ((ax < 1.0) == (y > 0)) ? 0.0 : (double)INFINITY;
    yi = ax == 1.0 ? 1.0 : yi;
    v = ((ay == (double)INFINITY) & (ax == ax)) ? yi : v;
    v = ((x != x) | (y != y)) ? x + y : v;
    /* pow(x, +-0) and pow(1, y) are 1, NaN included */
    v = y == 0 ? 1.0 : v;
    return x == 1.0 ? 1.0 : v;
}

/* ---- float32, through float64 ---------------------------------------------------- */

/* A NaN never meets a negated copy of itself in one operation (the negation is
 * put on the constant: vm_fma(k, -c, x), not vm_fma(-k, c, x)): which of two
 * NaNs an operation passes on differs between the levels.
 *
 * Each float32 function computes in float64 with a relative error far below a
 * float32 ulp (under 2**-37) and rounds once: within 1 ulp, and correctly
 * rounded but for rare inputs within about 2**-13 ulp of a rounding
 * boundary. Short polynomials on small reduced ranges, and at most one
 * float64 division. The polynomials' degrees are the least that keep 2**-37
 * or so: one degree less (fitted again) gives 2**-34 to 2**-36 for atan,
 * sin, tan and asin, about 0.05% of results not correctly rounded. */

/* 2**(j/32), j = 0..31, rounded to double */
static const double vm_exp2_tab32[32] = {
    0x1.0000000000000p+0, 0x1.059b0d3158574p+0, 0x1.0b5586cf9890fp+0, 0x1.11301d0125b51p+0,
    0x1.172b83c7d517bp+0, 0x1.1d4873168b9aap+0, 0x1.2387a6e756238p+0, 0x1.29e9df51fdee1p+0,
    0x1.306fe0a31b715p+0, 0x1.371a7373aa9cbp+0, 0x1.3dea64c123422p+0, 0x1.44e086061892dp+0,
    0x1.4bfdad5362a27p+0, 0x1.5342b569d4f82p+0, 0x1.5ab07dd485429p+0, 0x1.6247eb03a5585p+0,
    0x1.6a09e667f3bcdp+0, 0x1.71f75e8ec5f74p+0, 0x1.7a11473eb0187p+0, 0x1.82589994cce13p+0,
    0x1.8ace5422aa0dbp+0, 0x1.93737b0cdc5e5p+0, 0x1.9c49182a3f090p+0, 0x1.a5503b23e255dp+0,
    0x1.ae89f995ad3adp+0, 0x1.b7f76f2fb5e47p+0, 0x1.c199bdd85529cp+0, 0x1.cb720dcef9069p+0,
    0x1.d5818dcfba487p+0, 0x1.dfc97337b9b5fp+0, 0x1.ea4afa2a490dap+0, 0x1.f50765b6e4540p+0,
};
#define VM_INVLN2_32 4.61662413084468283841e+01 /* 32/ln2 */

/* e**x for |x| <= 110 as s * (1 + *p): s = 2**(k/32) for k = round(x * 32/ln2)
 * (a table's 2**((k & 31)/32) times 2**(k >> 5)), *p = e**r - 1 for
 * r = x - k ln2/32, |r| <= ln2/64, by Taylor to degree 4 (relative error
 * < 2**-39). For k = 0, s = 1 and r = x exactly (expm1 relies on it).
 * Beyond 110 the result is garbage (not a trap; the table index stays in
 * range): the callers select their limit for such x after the call, not
 * before (a clamp before it makes GCC specialize the path of the clamped
 * constant and give up vectorizing the table lookup). */
static inline double vm_exp32(double x, double *p)
{
    double kd = vm_fma(x, VM_INVLN2_32, VM_SHIFT);
    uint64_t kk = vm_bits(kd);
    double k = kd - VM_SHIFT;
    double r = vm_fma(k, -VM_LN2_LO / 32, vm_fma(k, -VM_LN2_HI / 32, x));
    *p = vm_fma(r * r, vm_fma(r, vm_fma(r, 1.0 / 24, 1.0 / 6), 0.5), r);
    return vm_exp2_tab32[kk & 31] * vm_from_bits(((kk >> 5) + 1023u) << 52);
}

/* e**r - 1 for |r| <= ln2/2 (and a little beyond): r + r*r q(r), q of degree
 * 5 fitted (Chebyshev nodes, mpmath) to the relative error of e**r: < 2**-32
 * (the float32 results stay correctly rounded but for about 1 in 10**5:
 * float32's error budget spent on speed, measured), and the error relative
 * to e**r - 1 is below 2**-30 (expm1-like uses). No table: a table lookup
 * costs GCC's emulated gather (scalar loads); without it float32 exp took
 * 0.69 against 0.86 ns per element (512-bit vectors, Zen 4). */
static inline double vm_expm1_r(double r)
{
    double q = vm_fma(r, vm_fma(r, vm_fma(r, vm_fma(r, vm_fma(r, 0x1.a124e3f154d32p-13, 0x1.6d431504c53d3p-10),
               0x1.1110e0f726534p-7), 0x1.5554e9114ecf9p-5), 0x1.5555555a78232p-3), 0x1.0000000b8f62bp-1);
    return vm_fma(r * r, q, r);
}

/* e**x for float32 x clamped to [-110, 100] (a NaN passes: both clamps are
 * compares that fail), in float32 lanes where they are twice as wide: e**100
 * rounds to inf and e**-110 to 0 in float32. k = round(x/ln2), r = x - k ln2
 * (ln2 in one double: for |k| <= 159 the reduction's error stays under
 * 2**-45), e**x = 2**k (1 + vm_expm1_r(r)) with k added to the exponent. */
static inline float ars_expf(float x)
{
    float xc = 100.0f < x ? 100.0f : x;
    xc = -110.0f > xc ? -110.0f : xc;
    double d = xc;
    double kd = vm_fma(d, 1.44269504088896338700e+00, VM_SHIFT);
    double r = vm_fma(kd - VM_SHIFT, -6.93147180559945286227e-01, d);
    double e = 1.0 + vm_expm1_r(r);
    return (float)vm_from_bits(vm_bits(e) + (vm_bits(kd) << 52));
}

static inline float ars_expm1f(float x)
{
    double d = x;
    double p, s = vm_exp32(d, &p);
    double v = vm_fma(s, p, s - 1.0);
    /* -0 stays -0 */
    return (float)(d > 100.0 ? (double)INFINITY : d < -110.0 ? -1.0 : d == 0 ? d : v);
}

static inline float ars_tanhf(float x)
{
    /* tanh |x| = m / (m + 2), m = e**(2|x|) - 1 = 2**k (1 + p) - 1; 1 in
     * float32 from |x| = 9.1, so |x| is clamped to 10 (in float32 lanes) */
    float ac = fabsf(x);
    ac = 10.0f < ac ? 10.0f : ac;
    double y = 2.0 * (double)ac;
    double kd = vm_fma(y, 1.44269504088896338700e+00, VM_SHIFT);
    double p = vm_expm1_r(vm_fma(kd - VM_SHIFT, -6.93147180559945286227e-01, y));
    double s = vm_from_bits((vm_bits(kd) + 1023u) << 52);
    double m = vm_fma(s, p, s - 1.0);
    return copysignf((float)(m / (m + 2.0)), x);
}

static inline float ars_sinhf(float x)
{
    /* sinh |x| = (m + m / (m + 1)) / 2, m = e**|x| - 1 */
    double d = x, a = fabs(d);
    double p, s = vm_exp32(a, &p);
    double m = vm_fma(s, p, s - 1.0);
    return (float)copysign(a > 100.0 ? (double)INFINITY : 0.5 * (m + m / (m + 1.0)), d);
}

static inline float ars_coshf(float x)
{
    double a = fabs((double)x);
    double p, s = vm_exp32(a, &p);
    double e = vm_fma(s, p, s);
    return (float)(a > 100.0 ? (double)INFINITY : vm_fma(0.5, e, 0.5 / e));
}

/* log(x) - k ln2 for a positive normal double x = 2**k * z (float32 values
 * all are), sqrt(2)/2 <= z < sqrt(2): 2 atanh(s) with s = f / (2 + f),
 * f = z - 1 (exact), |s| < 0.172, by a fitted polynomial in s*s of degree 5
 * (relative error < 2**-45). One division; a table of intervals instead
 * (no division, but two gathers GCC emulates with scalar loads) took 1.3
 * ns per element against 1.0. */
static inline double vm_log32(double x, double *k)
{
    uint64_t ix = vm_bits(x);
    uint64_t tmp = ix - 0x3fe6a09e667f3bcdu;
    uint64_t kk = (tmp + (1024ull << 52)) >> 52;  /* k + 1024 */
    double z = vm_from_bits(ix - (tmp & 0xfff0000000000000u));
    *k = vm_from_bits(0x4330000000000000u | kk) - (0x1p52 + 1024.0);
    double f = z - 1.0;
    double sv = f / (2.0 + f);
    double t = sv * sv;
    double p = vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, 0x1.9192e478c4308p-4, 0x1.c620ee6e2b4a3p-4),
               0x1.2494381ee5869p-3), 0x1.9999962c06032p-3), 0x1.555555567148cp-2), 0x1.fffffffffff12p-1);
    return (sv + sv) * p;
}

static inline uint32_t vm_bits32(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline float vm_from_bits32(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* log(x) - k ln2 for float32 x = 2**k z (sqrt(2)/2 <= z < sqrt(2)), the
 * reduction in float32 lanes (twice as wide as double ones): subnormals
 * scaled by 2**23 first, f = z - 1 exact in float32. Then in double 2
 * atanh(s), s = f / (2 + f), by a polynomial of degree 4 in s*s fitted
 * for the relative error (< 2**-37.7; degree 3, 2**-30.4, left 0.09% of
 * the float32 results not correctly rounded). Garbage for x <= 0, inf and
 * NaN: the callers select those after. */
static inline double vm_log32f(float x, double *k)
{
    int sub = x < 0x1p-126f;
    float xs = sub ? x * 0x1p23f : x;
    uint32_t ix = vm_bits32(xs);
    uint32_t tmp = ix - 0x3f3504f3u;  /* bits of sqrt(2)/2 rounded down */
    float kf = (float)((int32_t)tmp >> 23) + (sub ? -23.0f : 0.0f);
    double f = vm_from_bits32(ix - (tmp & 0xff800000u)) - 1.0f;
    *k = kf;
    double sv = f / (2.0 + f);
    double t = sv * sv;
    double p = vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, 0x1.e3a9bc9e83906p-3, 0x1.2432ec97e26d1p-2),
               0x1.999a9bbfcf938p-2), 0x1.555554db6d410p-1), 0x1.0000000004988p+1);
    return sv * p;
}

/* The special values of the float32 logarithms, selected in float32 lanes:
 * +inf and NaN give themselves, 0 -inf, x < 0 NaN. */
static inline float vm_log_special32(float x, float v)
{
    v = x < INFINITY ? v : x;
    return x > 0 ? v : x == 0 ? -INFINITY : NAN;
}

static inline float ars_logf(float x)
{
    double k, l = vm_log32f(x, &k);
    return vm_log_special32(x, (float)vm_fma(k, 6.93147180559945286227e-01, l));
}

static inline float ars_log2f(float x)
{
    double k, l = vm_log32f(x, &k);
    return vm_log_special32(x, (float)vm_fma(l, 1.44269504088896338700e+00, k));
}

static inline float ars_log10f(float x)
{
    double k, l = vm_log32f(x, &k);
    return vm_log_special32(x, (float)vm_fma(k, 3.01029995663981198017e-01, l * 4.34294481903251816668e-01));
}

/* log(u) for u > 0 (any double from the functions below), else as log */
static inline double vm_log_d32(double u)
{
    double k, l = vm_log32(u, &k);
    return vm_log_special(u, vm_fma(k, 6.93147180559945286227e-01, l));
}

static inline float ars_log1pf(float x)
{
    /* 1 + x is exact in float64 for |x| >= 2**-29; below, x - x*x/2 */
    double d = x;
    double t = d - d * d * 0.5;
    double v = vm_log_d32(1.0 + d);
    return (float)(fabs(d) < 0x1p-29 ? t : v);
}

static inline float ars_asinhf(float x)
{
    /* log(a + sqrt(a*a + 1)); below 2**-7, whose rounding near 1 would
     * cost too much, the odd Taylor series to a**7 */
    double d = x, a = fabs(d), z = d * d;
    double t = d * (1.0 + z * (-1.0 / 6 + z * (3.0 / 40 + z * (-15.0 / 336))));
    double v = copysign(vm_log_d32(a + sqrt(z + 1.0)), d);
    return (float)(a < 0x1p-7 ? t : v);
}

static inline float ars_acoshf(float x)
{
    /* log(x + sqrt(x*x - 1)); x*x - 1 is exact near 1; x < 1 gives NaN */
    double d = x;
    double v = vm_log_d32(d + sqrt(d * d - 1.0));
    return (float)(d < 1.0 ? (double)NAN : v);
}

/* atanh |x| = log(u)/2, u = (1 + a)/(1 - a), a = |x|, with a single float64
 * division: k = the exponent of u / (sqrt(2)/2) from a float32 estimate of u
 * (one float32 division; an error of an ulp there only moves z a little
 * outside its interval), then z = u 2**-k and log(z) = 2 atanh(s) with s =
 * (z - 1)/(z + 1) = (p - q)/(p + q), p = 1 + a and q = (1 - a) 2**k, for
 * k != 0 (a > 0.17) both exact in double and p - q too; for k = 0, p - q is
 * 2a (exact where p is not). atanh(s) = s P(s*s) by vm_log32's polynomial.
 * a = 1 gives inf, a > 1 and NaN NaN. */
static inline float ars_atanhf(float x)
{
    float a = fabsf(x);
    float uf = (1.0f + a) / (1.0f - a);
    uint32_t tmp = vm_bits32(uf) - 0x3f3504f3u;
    int32_t ki = (int32_t)tmp >> 23;
    double k = (float)ki;
    double sc = vm_from_bits32((uint32_t)(127 + ki) << 23);
    double ad = a, p = 1.0 + ad, q = (1.0 - ad) * sc;
    double sv = (k == 0.0 ? ad + ad : p - q) / (p + q);
    double t = sv * sv;
    double pl = vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, 0x1.9192e478c4308p-4, 0x1.c620ee6e2b4a3p-4),
                0x1.2494381ee5869p-3), 0x1.9999962c06032p-3), 0x1.555555567148cp-2), 0x1.fffffffffff12p-1);
    float v = (float)vm_fma(k, 0.5 * 6.93147180559945286227e-01, sv * pl);
    v = a == 1.0f ? INFINITY : v;
    v = a > 1.0f ? NAN : v;
    return copysignf(v, x);
}

/* atan(n / d) for n, d >= 0, finite, not both 0 (and NaN for NaN): theta =
 * i pi/8 for the i (0..4) whose interval around it holds n/d (four compares
 * with tan((2i - 1) pi/16) d), r = tan(atan(n/d) - theta) = (n cos theta -
 * d sin theta) / (d cos theta + n sin theta), |r| <= tan(pi/16), one
 * division; atan(r) by a fitted odd polynomial of degree 11 (relative error
 * < 2**-42). For i = 0, r = n / d exactly. */
static inline double vm_atan_q(double n, double d)
{
    /* one two-way select after another (nested ones of constants became
     * branches that GCC does not vectorize) */
    int g1 = n > 0x1.975f5e0553158p-3 * d, g2 = n > 0x1.561b82ab7f990p-1 * d;
    int g3 = n > 0x1.7f218e25a7461p+0 * d, g4 = n > 0x1.41bfee2424771p+2 * d;
    double c = g1 ? 0x1.d906bcf328d46p-1 : 1.0;
    double s = g1 ? 0x1.87de2a6aea963p-2 : 0.0;
    c = g2 ? 0x1.6a09e667f3bcdp-1 : c;
    s = g2 ? 0x1.6a09e667f3bcdp-1 : s;
    c = g3 ? 0x1.87de2a6aea963p-2 : c;
    s = g3 ? 0x1.d906bcf328d46p-1 : s;
    c = g4 ? 0.0 : c;
    s = g4 ? 1.0 : s;
    double th = g1 ? 0x1.921fb54442d18p-2 : 0.0;  /* i pi/8 */
    th = g2 ? 0x1.921fb54442d18p-1 : th;
    th = g3 ? 0x1.2d97c7f3321d2p+0 : th;
    th = g4 ? 0x1.921fb54442d18p+0 : th;
    double r = vm_fma(d, -s, n * c) / vm_fma(d, c, n * s);
    double t = r * r;
    double p = vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, -0x1.513f7b9e76491p-4, 0x1.c59481d5f60a1p-4),
               -0x1.248e4ddd71240p-3), 0x1.9999903222ad0p-3), -0x1.5555555142d2dp-2), 0x1.ffffffffffb6bp-1);
    return vm_fma(r, p, th);
}

#define VM_PI 0x1.921fb54442d18p+1
#define VM_PI_2 0x1.921fb54442d18p+0

static inline float ars_atanf(float x)
{
    double d = x, a = fabs(d);
    double v = vm_atan_q(a, 1.0);
    return (float)copysign(a == (double)INFINITY ? VM_PI_2 : v, d);
}

/* asin(y) for 0 <= y <= 1/2 given z = y*y (exact): y + y z P(z), P of degree
 * 7 fitted (weighted least squares, mpmath) so that the relative error of the
 * result is < 2**-39.8. */
static inline double vm_asin_p(double y, double z)
{
    double p = vm_fma(z, vm_fma(z, vm_fma(z, vm_fma(z, vm_fma(z, vm_fma(z, vm_fma(z, 0x1.0ddbbdd46d100p-5,
               0x1.fec9e4f086600p-10), 0x1.527a392f7e372p-6), 0x1.66341cb7ede3ep-6), 0x1.f2836ca47db3dp-6),
               0x1.6db24ebe458d9p-5), 0x1.333340bc0c3cbp-4), 0x1.555555479bf4dp-3);
    return vm_fma(y * z, p, y);
}

/* For a = |x| > 1/2: asin a = pi/2 - 2 asin(s), s = sqrt(w), w = (1 - a)/2
 * (exact in float32), s <= 1/2. s to double precision without a double square
 * root or division: s0 = sqrtf(w) in float32 lanes, then one Newton step s0 +
 * (w - s0*s0) h, with w - s0*s0 exact in double and h = 0.5f / s0 in float32
 * (the step's relative error is under 2**-46; the 2**-100 keeps h finite at
 * w = 0). Below 1/2, y = a and z = a*a. |x| > 1 gives NaN through the square
 * root. */
static inline double vm_asin_arg(float a, int big, double *z)
{
    float wf = (1.0f - a) * 0.5f;
    float sf = sqrtf(wf);
    float hf = 0.5f / (sf + 0x1p-100f);
    double w = wf, s0 = sf, ad = a;
    double s = vm_fma(vm_fma(-s0, s0, w), (double)hf, s0);
    *z = big ? w : ad * ad;
    return big ? s : ad;
}

static inline float ars_asinf(float x)
{
    float a = fabsf(x);
    int big = a > 0.5f;
    double z, y = vm_asin_arg(a, big, &z);
    double v = vm_asin_p(y, z);
    return copysignf((float)(big ? vm_fma(-2.0, v, VM_PI_2) : v), x);
}

/* acos x = pi/2 - asin x for |x| <= 1/2, else 2 asin(s) (pi - that for x < 0) */
static inline float ars_acosf(float x)
{
    float a = fabsf(x);
    int big = a > 0.5f, neg = x < 0;
    double z, y = vm_asin_arg(a, big, &z);
    double v = vm_asin_p(y, z);
    double vb = neg ? vm_fma(-2.0, v, VM_PI) : 2.0 * v;
    return (float)(big ? vb : VM_PI_2 - (neg ? -v : v));
}

/* atan2 with C99 Annex F's special values: both 0 give 0, both infinite
 * pi/4, y infinite pi/2, x infinite 0 (before the quadrant: pi minus that
 * where x's sign bit is set, then y's sign). */
static inline float ars_atan2f(float y, float x)
{
    double dy = y, dx = x, ay = fabs(dy), ax = fabs(dx);
    double v = vm_atan_q(ay, ax);
    int yinf = ay == (double)INFINITY, xinf = ax == (double)INFINITY;
    v = ((ay == 0) & (ax == 0)) ? 0.0 : v;
    v = (yinf & xinf) ? VM_PI_2 * 0.5 : v;
    v = (yinf & (ax < (double)INFINITY)) ? VM_PI_2 : v;
    v = (xinf & (ay < (double)INFINITY)) ? 0.0 : v;
    v = (vm_bits(dx) >> 63) ? VM_PI - v : v;
    return (float)copysign(v, dy);
}

/* sin (q0 = 0) or cos (q0 = 1) of |x| <= VM_TRIG_MAX: r = x - m pi/2 with m
 * = 2n + q0 the nearest such to x (pi/2 in two parts: m * the first is
 * exact), |r| <= pi/2; then +-sin(r) by one odd polynomial of degree 13
 * (relative error < 2**-43), negated where n + q0 is odd. */
static inline double vm_sin32(double x, uint64_t q0)
{
    double kd = vm_fma(x, 3.18309886183790671538e-01, -0.5 * (double)q0) + VM_SHIFT;
    uint64_t flip = (vm_bits(kd) + q0) & 1;
    double m = vm_fma(2.0, kd - VM_SHIFT, (double)q0);
    double r = vm_fma(m, -6.07710050650619224932e-11, vm_fma(m, -1.57079632673412561417e+00, x));
    double t = r * r;
    double p = vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, 0x1.52e574529a459p-33,
               -0x1.ae04489f3e1c3p-26), 0x1.71dcf81f7d9dep-19), -0x1.a019fd48ee1e6p-13), 0x1.11111109ef000p-7),
               -0x1.5555555543bdep-3), 0x1.ffffffffffe3ap-1);
    double v = r * p;
    return flip ? -v : v;
}

static inline float ars_sinf(float x) { return (float)vm_sin32(x, 0); }
static inline float ars_cosf(float x) { return (float)vm_sin32(x, 1); }

/* tan of |x| <= VM_TRIG_MAX: r = x - n pi/2 (n the nearest, pi/2 in two
 * parts), |r| <= pi/4; s = sin(r), c = cos(r) by polynomials of degree 11
 * and 10 (relative errors < 2**-43), tan = s / c for even n, -c / s for
 * odd: one division. */
static inline double vm_tan32(double x)
{
    double kd = vm_fma(x, 6.36619772367581382433e-01, VM_SHIFT);
    uint64_t odd = vm_bits(kd) & 1;
    double n = kd - VM_SHIFT;
    double r = vm_fma(n, -6.07710050650619224932e-11, vm_fma(n, -1.57079632673412561417e+00, x));
    double t = r * r;
    double s = r * vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, -0x1.a9507f3711e2dp-26, 0x1.71d7317b8ee33p-19),
                   -0x1.a019f8a207d3fp-13), 0x1.1111110bde5e3p-7), -0x1.5555555550efep-3), 0x1.fffffffffffd9p-1);
    double c = vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, -0x1.23c5c15441a00p-22, 0x1.a00e9685da9c4p-16),
               -0x1.6c16b2d3e61f5p-10), 0x1.5555554476425p-5), -0x1.ffffffffe3763p-2), 0x1.ffffffffffe0bp-1);
    return odd ? -c / s : s / c;
}

static inline float ars_tanf(float x) { return (float)vm_tan32(x); }

/* ---- float32 pow, hypot, logaddexp ------------------------------------------------ */

/* 2**w for |w| <= 160 as s * (1 + *p), as vm_exp32 but reduced in base 2:
 * k = round(32 w), r = (32 w - k) / 32 exactly, so that an integer w gives
 * p = 0 and 2**w exactly (pow(0.5, 150) is then 2**-150, which rounds to 0
 * as it must, not up to the smallest subnormal). */
static inline double vm_exp2_32(double w, double *p)
{
    double kd = vm_fma(w, 32.0, VM_SHIFT);
    uint64_t kk = vm_bits(kd);
    double r = vm_fma(w, 32.0, VM_SHIFT - kd) * (6.93147180559945286227e-01 / 32);
    *p = vm_fma(r * r, vm_fma(r, vm_fma(r, 1.0 / 24, 1.0 / 6), 0.5), r);
    return vm_exp2_tab32[kk & 31] * vm_from_bits(((kk >> 5) + 1023u) << 52);
}

/* pow: 2**(y log2|x|) with log|x| from vm_log32 (relative error < 2**-44:
 * w = y log2|x| is then within 2**-37 of the truth wherever the result is a
 * finite nonzero float32, |w| < 150) and 2**w from vm_exp2_32. An exact
 * float32 result (2**3, 10**2, 0.5**150) comes out exact: the double is
 * within far less than half a float32 ulp of it, or equal to it for powers
 * of 2. Then C99 Annex F's special values by selects: the sign for negative
 * x and odd integer y, NaN for negative finite x and non-integer y, 1 for
 * y = +-0, x = 1 and (-1)**(+-inf). The zeros and infinities of x and y need
 * nothing more: log2|x| is -inf or +inf and the limits of 2**w give 0 or
 * inf. */
static inline float ars_powf(float x, float y)
{
    double dx = x, dy = y, ax = fabs(dx), ay = fabs(dy);
    double k, l = vm_log32(ax, &k);
    double w = dy * vm_log_special(ax, vm_fma(l, 1.44269504088896338700e+00, k));
    double p, s = vm_exp2_32(w, &p);
    double v = w > 150.0 ? (double)INFINITY : w < -160.0 ? 0.0 : vm_fma(s, p, s);
    /* y integer: every float32 from 2**24 on is; below, the rounding of y
     * to an integer (VM_SHIFT) is y itself, and its last bit says odd */
    double ys = dy + VM_SHIFT;
    int yint = (ay >= 0x1p24) | ((ys - VM_SHIFT) == dy);
    int yodd = (ay < 0x1p24) & ((ys - VM_SHIFT) == dy) & (int)(vm_bits(ys) & 1);
    v = (yodd & (int)(vm_bits(dx) >> 63)) ? -v : v;
    v = ((dx < 0) & (dx > -(double)INFINITY) & !yint) ? (double)NAN : v;
    /* a NaN argument's own payload (x's before y's): the arithmetic's
     * choice between two NaNs follows operand order, which differs between
     * the compiler's scalar and vector code */
    v = dy != dy ? dy : v;
    v = dx != dx ? dx : v;
    v = ((dy == 0) | (dx == 1.0) | ((ax == 1.0) & (ay == (double)INFINITY))) ? 1.0 : v;
    return (float)v;
}

/* hypot: x*x and y*y are exact in double, so the sum and the square root
 * round once each (correctly rounded to float32 but for about one input in
 * 2**29); an infinite argument gives +inf even beside a quiet NaN. */
static inline float ars_hypotf(float x, float y)
{
    double dx = x, dy = y;
    double v = sqrt(dx * dx + dy * dy);
    v = dy != dy ? dy : v;  /* a NaN's payload as in pow */
    v = dx != dx ? dx : v;
    /* but a signaling NaN gives NaN (IEEE 754, as the C library): told
     * apart on the float32 bits, since widening quiets it */
    uint32_t bx = vm_bits32(x) & 0x7fffffffu, by = vm_bits32(y) & 0x7fffffffu;
    int snan = ((bx > 0x7f800000u) & (bx < 0x7fc00000u)) | ((by > 0x7f800000u) & (by < 0x7fc00000u));
    int inf = (int)(fabs(dx) == (double)INFINITY) | (int)(fabs(dy) == (double)INFINITY);
    return (float)((inf & !snan) ? (double)INFINITY : v);
}

/* logaddexp: max(a, b) + log1p(e**-|a - b|); log1p(u) of u < 2**-7 by its
 * series to u**6 (relative error < 2**-42), above by log(1 + u) (the
 * rounding of 1 + u costs < 2**-46 of the result). a == b gives a + log 2
 * (infinities of one sign included); a NaN gives NaN. */
static inline float ars_logaddexpf(float a, float b)
{
    double da = a, db = b;
    double m = da >= db ? da : db;
    double d = -fabs(da - db);
    double p, s = vm_exp32(d, &p);
    double u = d < -110.0 ? 0.0 : s + s * p;
    double t = u * (1.0 + u * (-0.5 + u * ((1.0 / 3) + u * (-0.25 + u * (0.2 + u * (-1.0 / 6))))));
    /* 1 + u is in [1, 2] or NaN: vm_log32 needs no special values (and
     * vm_log_special's selects here kept GCC from vectorizing the loop) */
    double k, l = vm_log32(1.0 + u, &k);
    double v = m + (u < 0x1p-7 ? t : k * 6.93147180559945286227e-01 + l);
    v = db != db ? db : v;  /* a NaN's payload as in pow */
    v = da != da ? da : v;
    return (float)(da == db ? da + 6.93147180559945286227e-01 : v);
}

/* The second pass of sin, cos (and float32 tan): the C library's for |x| >
 * VM_TRIG_MAX (and infinities, NaN), one element at a time. A vectorized
 * scan first, so that blocks without such elements (nearly all) skip the
 * scalar loop: a compare and a branch per element took half of float32
 * sin's time. */
#define VM_TRIG_FIX(NAME, T, EXPR)                                          \
    static inline void NAME(T *o, const T *a, int64_t n)                    \
    {                                                                       \
        int any = 0;                                                        \
        for (int64_t i = 0; i < n; i++)                                     \
            any |= !(fabs((double)a[i]) <= VM_TRIG_MAX);                    \
        if (!any)                                                           \
            return;                                                         \
        for (int64_t i = 0; i < n; i++)                                     \
            if (!(fabs((double)a[i]) <= VM_TRIG_MAX)) {                     \
                double x = a[i];                                            \
                o[i] = (T)(EXPR);                                           \
            }                                                               \
    }
VM_TRIG_FIX(ars_sin_fix64, double, sin(x))
VM_TRIG_FIX(ars_cos_fix64, double, cos(x))
VM_TRIG_FIX(ars_sin_fix32, float, sin(x))
VM_TRIG_FIX(ars_cos_fix32, float, cos(x))
VM_TRIG_FIX(ars_tan_fix32, float, tan(x))

/* One name per function for float and double (the loops' T). */
#define ARS_VM(NAME, x) _Generic((x), float: ars_##NAME##f, double: ars_##NAME)(x)

#endif
