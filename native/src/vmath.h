/* arrstride's own math functions for the elementwise loops: exp, log,
 * log2, log10, sin and cos in float64, and those with log1p, expm1 and tanh
 * in float32. Portable C without branches (selects only), so that GCC and
 * Clang vectorize the loops that call them at any SIMD width, and with one
 * algorithm for every width and CPU: no FMA (the build passes
 * -ffp-contract=off), so a result's bits depend on the input alone, not on
 * the SIMD level, the CPU family or the compiler. No libm call (no glibc
 * libmvec either), except for sin and cos of |x| > 2**20 (VM_TRIG_MAX): a
 * second pass over the block (ars_sin_fix64 and friends) gives those the C
 * library's scalar sin and cos.
 *
 * float64: the table-free algorithms of fdlibm (Sun Microsystems, 1993;
 * FreeBSD's msun for log2 and log10), each within 1 ulp: exp's rational
 * approximation on |r| <= ln2/2 after a Cody-Waite reduction, log's
 * polynomial in s = f / (2 + f), log2 and log10 through a hi + lo split of
 * log(1 + f), sin and cos by fdlibm's kernels after a three-part reduction
 * by pi/2 (exact for |x| <= 2**20).
 * float32: computed in float64 (the float64 algorithms, or a float64
 * polynomial with an error far below a float32 ulp) and rounded once, which
 * is within 1 ulp and nearly always correctly rounded.
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

/* sin (q0 = 0) or cos (q0 = 1) of x, |x| <= VM_TRIG_MAX: x - n pi/2 with
 * pi/2 in three 33-bit parts and a tail (fdlibm's e_rem_pio2.c: its second
 * round always, the third where the second cancels), then the kernel of the
 * quadrant n + q0. */
static inline double vm_sincos(double x, uint64_t q0)
{
    double kd = x * 6.36619772367581382433e-01 + VM_SHIFT;
    uint64_t q = vm_bits(kd) + q0;
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
    double y1 = (r - y0) - w;
    double s = vm_ksin(y0, y1), c = vm_kcos(y0, y1);
    double v = (q & 1) ? c : s;
    return (q & 2) ? -v : v;
}

static inline double ars_sin(double x) { return vm_sincos(x, 0); }
static inline double ars_cos(double x) { return vm_sincos(x, 1); }

/* ---- float32, through float64 ---------------------------------------------------- */

/* e**x for |x| <= 110: n = round(x / ln2), e**r by its Taylor polynomial of
 * degree 11 on |r| <= 0.35 (relative error < 1e-14), times 2**n. */
static inline double vm_exp_f32(double x)
{
    double xc = x < -110.0 ? -110.0 : x > 100.0 ? 100.0 : x;
    double n = (xc * VM_INVLN2 + VM_SHIFT) - VM_SHIFT;
    double r = (xc - n * VM_LN2_HI) - n * VM_LN2_LO;
    double p = 1.0 / 39916800.0;
    p = 1.0 / 3628800.0 + r * p;
    p = 1.0 / 362880.0 + r * p;
    p = 1.0 / 40320.0 + r * p;
    p = 1.0 / 5040.0 + r * p;
    p = 1.0 / 720.0 + r * p;
    p = 1.0 / 120.0 + r * p;
    p = 1.0 / 24.0 + r * p;
    p = 1.0 / 6.0 + r * p;
    p = 0.5 + r * p;
    p = 1.0 + r * p;
    p = 1.0 + r * p;
    return p * vm_pow2(n);
}

static inline float ars_expf(float x) { return (float)vm_exp_f32(x); }

static inline float ars_expm1f(float x)
{
    double d = x;
    /* |x| < 1/16: Taylor to degree 8 (relative error < 1e-14); else e**x - 1,
     * whose cancellation costs at most a few float64 ulps */
    double p = 1.0 / 40320.0;
    p = 1.0 / 5040.0 + d * p;
    p = 1.0 / 720.0 + d * p;
    p = 1.0 / 120.0 + d * p;
    p = 1.0 / 24.0 + d * p;
    p = 1.0 / 6.0 + d * p;
    p = 0.5 + d * p;
    p = d * (1.0 + d * p);  /* -0 stays -0 */
    double e = vm_exp_f32(d) - 1.0;
    return (float)(fabs(d) < 0.0625 ? p : x < -110.0f ? -1.0 : e);
}

static inline float ars_logf(float x) { return (float)ars_log(x); }
static inline float ars_log2f(float x) { return (float)ars_log2(x); }
static inline float ars_log10f(float x) { return (float)ars_log10(x); }

static inline float ars_log1pf(float x)
{
    /* 1 + x is exact in float64 for |x| >= 2**-29; below, x - x*x/2 */
    double d = x;
    double t = d - d * d * 0.5;
    double v = ars_log(1.0 + d);
    return (float)(fabs(d) < 0x1p-29 ? t : v);
}

static inline float ars_tanhf(float x)
{
    double d = x;
    double a = fabs(d);
    /* |x| < 1/16: the odd Taylor series to x**11 (relative error < 1e-16);
     * else (e - 1) / (e + 1) with e = e**(2|x|), |x| capped at 10, where
     * tanh rounds to 1 in float32 */
    double z = d * d;
    double p = -1382.0 / 155925.0;
    p = 62.0 / 2835.0 + z * p;
    p = -17.0 / 315.0 + z * p;
    p = 2.0 / 15.0 + z * p;
    p = -1.0 / 3.0 + z * p;
    p = d * (1.0 + z * p);  /* -0 stays -0 */
    double e = vm_exp_f32(2.0 * (a > 10.0 ? 10.0 : a));  /* NaN stays */
    double t = (e - 1.0) / (e + 1.0);
    return (float)(a < 0.0625 ? p : x < 0 ? -t : t);
}

/* sin and cos of |x| <= VM_TRIG_MAX in float64: one reduction by pi/2 in two
 * parts (its error is far below a float32 ulp of the result), fdlibm's
 * kernels. */
static inline double vm_sincos_f32(double x, uint64_t q0)
{
    double kd = x * 6.36619772367581382433e-01 + VM_SHIFT;
    uint64_t q = vm_bits(kd) + q0;
    double fn = kd - VM_SHIFT;
    double r = (x - fn * 1.57079632673412561417e+00) - fn * 6.07710050650619224932e-11;
    double s = vm_ksin(r, 0.0), c = vm_kcos(r, 0.0);
    double v = (q & 1) ? c : s;
    return (q & 2) ? -v : v;
}

static inline float ars_sinf(float x) { return (float)vm_sincos_f32(x, 0); }
static inline float ars_cosf(float x) { return (float)vm_sincos_f32(x, 1); }

/* The second pass of sin and cos: the C library's for |x| > VM_TRIG_MAX
 * (and infinities, NaN), one element at a time; a compare per element. */
#define VM_TRIG_FIX(NAME, T, EXPR)                                          \
    static inline void NAME(T *o, const T *a, int64_t n)                    \
    {                                                                       \
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

/* One name per function for float and double (the loops' T). */
#define ARS_VM(NAME, x) _Generic((x), float: ars_##NAME##f, double: ars_##NAME)(x)

#endif
