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

/* Each float32 function computes in float64 with a relative error far below a
 * float32 ulp (under 2**-37) and rounds once: within 1 ulp, and correctly
 * rounded but for rare inputs within about 2**-13 ulp of a rounding
 * boundary. Short polynomials on small reduced ranges (log's through a table
 * of 128 intervals, looked up with vector gathers), no division where the
 * function has none. */

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
/* z in interval i of [0.703125, 1.40625) (width 2**-8 below 1, 2**-7 above):
 * 1/c for c near its middle, rounded to double, and -log of that double; 1 and 0
 * for the two intervals beside 1, where r = z - 1 is then exact */
static const double vm_log_invc[128] = {
    0x1.6b1490aa31a3dp+0, 0x1.691473a88d0c0p+0, 0x1.6719f3601671ap+0, 0x1.6524f853b4aa3p+0,
    0x1.63356b88ac0dep+0, 0x1.614b36831ae94p+0, 0x1.5f66434292dfcp+0, 0x1.5d867c3ece2a5p+0,
    0x1.5babcc647fa91p+0, 0x1.59d61f123ccaap+0, 0x1.5805601580560p+0, 0x1.56397ba7c52e2p+0,
    0x1.54725e6bb82fep+0, 0x1.52aff56a8054bp+0, 0x1.50f22e111c4c5p+0, 0x1.4f38f62dd4c9bp+0,
    0x1.4d843bedc2c4cp+0, 0x1.4bd3edda68fe1p+0, 0x1.4a27fad76014ap+0, 0x1.4880522014880p+0,
    0x1.46dce34596066p+0, 0x1.453d9e2c776cap+0, 0x1.43a2730abee4dp+0, 0x1.420b5265e5951p+0,
    0x1.40782d10e6566p+0, 0x1.3ee8f42a5af07p+0, 0x1.3d5d991aa75c6p+0, 0x1.3bd60d9232955p+0,
    0x1.3a524387ac822p+0, 0x1.38d22d366088ep+0, 0x1.3755bd1c945eep+0, 0x1.35dce5f9f2af8p+0,
    0x1.34679ace01346p+0, 0x1.32f5ced6a1dfap+0, 0x1.3187758e9ebb6p+0, 0x1.301c82ac40260p+0,
    0x1.2eb4ea1fed14bp+0, 0x1.2d50a012d50a0p+0, 0x1.2bef98e5a3711p+0, 0x1.2a91c92f3c105p+0,
    0x1.293725bb804a5p+0, 0x1.27dfa38a1ce4dp+0, 0x1.268b37cd60127p+0, 0x1.2539d7e9177b2p+0,
    0x1.23eb79717605bp+0, 0x1.22a0122a0122ap+0, 0x1.21579804855e6p+0, 0x1.2012012012012p+0,
    0x1.1ecf43c7fb84cp+0, 0x1.1d8f5672e4abdp+0, 0x1.1c522fc1ce059p+0, 0x1.1b17c67f2bae3p+0,
    0x1.19e0119e0119ep+0, 0x1.18ab083902bdbp+0, 0x1.1778a191bd684p+0, 0x1.1648d50fc3201p+0,
    0x1.151b9a3fdd5c9p+0, 0x1.13f0e8d344724p+0, 0x1.12c8b89edc0acp+0, 0x1.11a3019a74826p+0,
    0x1.107fbbe011080p+0, 0x1.0f5edfab325a2p+0, 0x1.0e40655826011p+0, 0x1.0d24456359e3ap+0,
    0x1.0c0a7868b4171p+0, 0x1.0af2f722eecb5p+0, 0x1.09ddba6af8360p+0, 0x1.08cabb37565e2p+0,
    0x1.07b9f29b8eae2p+0, 0x1.06ab59c7912fbp+0, 0x1.059eea0727586p+0, 0x1.04949cc1664c5p+0,
    0x1.038c6b78247fcp+0, 0x1.02864fc7729e9p+0, 0x1.0182436517a37p+0, 0x1.0000000000000p+0,
    0x1.0000000000000p+0, 0x1.fa11caa01fa12p-1, 0x1.f6310aca0dbb5p-1, 0x1.f25f644230ab5p-1,
    0x1.ee9c7f8458e02p-1, 0x1.eae807aba01ebp-1, 0x1.e741aa59750e4p-1, 0x1.e3a9179dc1a73p-1,
    0x1.e01e01e01e01ep-1, 0x1.dca01dca01dcap-1, 0x1.d92f2231e7f8ap-1, 0x1.d5cac807572b2p-1,
    0x1.d272ca3fc5b1ap-1, 0x1.cf26e5c44bfc6p-1, 0x1.cbe6d9601cbe7p-1, 0x1.c8b265afb8a42p-1,
    0x1.c5894d10d4986p-1, 0x1.c26b5392ea01cp-1, 0x1.bf583ee868d8bp-1, 0x1.bc4fd65883e7bp-1,
    0x1.b951e2b18ff23p-1, 0x1.b65e2e3beee05p-1, 0x1.b37484ad806cep-1, 0x1.b094b31d922a4p-1,
    0x1.adbe87f94905ep-1, 0x1.aaf1d2f87ebfdp-1, 0x1.a82e65130e159p-1, 0x1.a574107688a4ap-1,
    0x1.a2c2a87c51ca0p-1, 0x1.a01a01a01a01ap-1, 0x1.9d79f176b682dp-1, 0x1.9ae24ea5510dap-1,
    0x1.9852f0d8ec0ffp-1, 0x1.95cbb0be377aep-1, 0x1.934c67f9b2ce6p-1, 0x1.90d4f120190d5p-1,
    0x1.8e6527af1373fp-1, 0x1.8bfce8062ff3ap-1, 0x1.899c0f601899cp-1, 0x1.87427bcc092b9p-1,
    0x1.84f00c2780614p-1, 0x1.82a4a0182a4a0p-1, 0x1.8060180601806p-1, 0x1.7e225515a4f1dp-1,
    0x1.7beb3922e017cp-1, 0x1.79baa6bb6398bp-1, 0x1.77908119ac60dp-1, 0x1.756cac201756dp-1,
    0x1.734f0c541fe8dp-1, 0x1.713786d9c7c09p-1, 0x1.6f26016f26017p-1, 0x1.6d1a62681c861p-1,
};
static const double vm_log_logc[128] = {
    -0x1.65d558d4ce00bp-2, -0x1.602d08af091ecp-2, -0x1.5a8cadbbedfa1p-2, -0x1.54f431b7be1a8p-2,
    -0x1.4f637ebba9810p-2, -0x1.49da7f3bcc420p-2, -0x1.44591e0539f49p-2, -0x1.3edf463c1683ep-2,
    -0x1.396ce359bbf53p-2, -0x1.3401e12aecba0p-2, -0x1.2e9e2bce12286p-2, -0x1.2941afb186b7cp-2,
    -0x1.23ec5991eba49p-2, -0x1.1e9e1678899f5p-2, -0x1.1956d3b9bc2f9p-2, -0x1.14167ef367784p-2,
    -0x1.0edd060b78082p-2, -0x1.09aa572e6c6d4p-2, -0x1.047e60cde83b7p-2, -0x1.feb2233ea07cbp-3,
    -0x1.f474b134df228p-3, -0x1.ea4449f04aaf5p-3, -0x1.e020cc6235ab5p-3, -0x1.d60a17f903514p-3,
    -0x1.cc000c9db3c52p-3, -0x1.c2028ab17f9b5p-3, -0x1.b811730b823d4p-3, -0x1.ae2ca6f672bd8p-3,
    -0x1.a454082e6ab03p-3, -0x1.9a8778debaa3ap-3, -0x1.90c6db9fcbcdbp-3, -0x1.871213750e994p-3,
    -0x1.7d6903caf5acdp-3, -0x1.73cb9074fd14dp-3, -0x1.6a399dabbd383p-3, -0x1.60b3100b09474p-3,
    -0x1.5737cc9018cddp-3, -0x1.4dc7b897bc1c7p-3, -0x1.4462b9dc9b3dcp-3, -0x1.3b08b6757f2a7p-3,
    -0x1.31b994d3a4f86p-3, -0x1.28753bc11aba2p-3, -0x1.1f3b925f25d44p-3, -0x1.160c8024b27b0p-3,
    -0x1.0ce7ecdccc28bp-3, -0x1.03cdc0a51ec0dp-3, -0x1.f57bc7d9005dbp-4, -0x1.e3707ee30487bp-4,
    -0x1.d179788219362p-4, -0x1.bf968769fca18p-4, -0x1.adc77ee5aea8ep-4, -0x1.9c0c32d4d254dp-4,
    -0x1.8a6477a91dc29p-4, -0x1.78d02263d82d7p-4, -0x1.674f089365a78p-4, -0x1.55e10050e0382p-4,
    -0x1.4485e03dbdfb0p-4, -0x1.333d7f8183f4ap-4, -0x1.2207b5c7854a1p-4, -0x1.10e45b3cae829p-4,
    -0x1.ffa6911ab9309p-5, -0x1.dda8adc67ee59p-5, -0x1.bbcebfc68f424p-5, -0x1.9a187b573de81p-5,
    -0x1.788595a3577c8p-5, -0x1.5715c4c03cee1p-5, -0x1.35c8bfaa13069p-5, -0x1.149e3e4005a8dp-5,
    -0x1.e72bf2813ce6ap-6, -0x1.a55f548c5c427p-6, -0x1.63d6178690bbep-6, -0x1.228fb1fea2e0ap-6,
    -0x1.c317384c75f0dp-7, -0x1.41929f968330cp-7, -0x1.8121214586b02p-8, 0x0.0p+0,
    0x0.0p+0, 0x1.7dc475f810a69p-7, 0x1.3cea44346a584p-6, 0x1.b9fc027af919ap-6,
    0x1.1b0d98923d97fp-5, 0x1.58a5bafc8e4d3p-5, 0x1.95c830ec8e3f2p-5, 0x1.d276b8adb0b56p-5,
    0x1.075983598e471p-4, 0x1.253f62f0a1417p-4, 0x1.42edcbea646eep-4, 0x1.60658a93750c4p-4,
    0x1.7da766d7b12d0p-4, 0x1.9ab42462033aep-4, 0x1.b78c82bb0eda0p-4, 0x1.d4313d66cb35dp-4,
    0x1.f0a30c01162a4p-4, 0x1.0671512ca596fp-3, 0x1.14785846742acp-3, 0x1.2266f190a5acdp-3,
    0x1.303d718e47fd5p-3, 0x1.3dfc2b0ecc62ap-3, 0x1.4ba36f39a55e5p-3, 0x1.59338d9982085p-3,
    0x1.66acd4272ad51p-3, 0x1.740f8f54037a3p-3, 0x1.815c0a14357e9p-3, 0x1.8e928de886d41p-3,
    0x1.9bb362e7dfb85p-3, 0x1.a8becfc882f19p-3, 0x1.b5b519e8fb5a6p-3, 0x1.c2968558c18c2p-3,
    0x1.cf6354e09c5ddp-3, 0x1.dc1bca0abec7bp-3, 0x1.e8c0252aa5a60p-3, 0x1.f550a564b7b37p-3,
    0x1.00e6c45ad501dp-2, 0x1.071b85fcd590dp-2, 0x1.0d46b579ab74bp-2, 0x1.136870293a8b0p-2,
    0x1.1980d2dd4236fp-2, 0x1.1f8ff9e48a2f3p-2, 0x1.2596010df763ap-2, 0x1.2b9303ab89d25p-2,
    0x1.31871c9544185p-2, 0x1.3772662bfd85cp-2, 0x1.3d54fa5c1f710p-2, 0x1.432ef2a04e813p-2,
    0x1.49006804009d0p-2, 0x1.4ec9732600269p-2, 0x1.548a2c3add263p-2, 0x1.5a42ab0f4cfe2p-2,
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
    double kd = x * VM_INVLN2_32 + VM_SHIFT;
    uint64_t kk = vm_bits(kd);
    double k = kd - VM_SHIFT;
    double r = (x - k * (VM_LN2_HI / 32)) - k * (VM_LN2_LO / 32);
    double r2 = r * r;
    *p = r + r2 * ((0.5 + r * (1.0 / 6)) + r2 * (1.0 / 24));
    return vm_exp2_tab32[kk & 31] * vm_from_bits(((kk >> 5) + 1023u) << 52);
}

/* expf is inf above 100 (float32 overflows from 88.73), 0 below -110 (it
 * underflows below -103.98); NaN passes the compares */
static inline float ars_expf(float x)
{
    double d = x;
    double p, s = vm_exp32(d, &p);
    double v = s + s * p;
    return (float)(d > 100.0 ? (double)INFINITY : d < -110.0 ? 0.0 : v);
}

static inline float ars_expm1f(float x)
{
    double d = x;
    double p, s = vm_exp32(d, &p);
    double v = (s - 1.0) + s * p;
    /* -0 stays -0 */
    return (float)(d > 100.0 ? (double)INFINITY : d < -110.0 ? -1.0 : d == 0 ? d : v);
}

static inline float ars_tanhf(float x)
{
    /* tanh |x| = m / (m + 2), m = e**(2|x|) - 1; 1 in float32 from |x| = 9.1 */
    double d = x, a = fabs(d);
    double p, s = vm_exp32(2.0 * a, &p);
    double m = (s - 1.0) + s * p;
    return (float)copysign(a > 10.0 ? 1.0 : m / (m + 2.0), d);
}

static inline float ars_sinhf(float x)
{
    /* sinh |x| = (m + m / (m + 1)) / 2, m = e**|x| - 1 */
    double d = x, a = fabs(d);
    double p, s = vm_exp32(a, &p);
    double m = (s - 1.0) + s * p;
    return (float)copysign(a > 100.0 ? (double)INFINITY : 0.5 * (m + m / (m + 1.0)), d);
}

static inline float ars_coshf(float x)
{
    double a = fabs((double)x);
    double p, s = vm_exp32(a, &p);
    double e = s + s * p;
    return (float)(a > 100.0 ? (double)INFINITY : 0.5 * e + 0.5 / e);
}

/* log(x) - k ln2 for a positive normal double x = 2**k * z (float32 values
 * all are), 0.703125 <= z < 1.40625: log(c) + log(1 + r) with r = z/c - 1
 * from a table of 128 intervals of z (|r| < 2**-7), log(1 + r) by Taylor to
 * degree 6 (relative error < 2**-42). Where the result is near 0 (z beside
 * 1), c = 1 and r = z - 1 is exact. */
static inline double vm_log32(double x, double *k)
{
    uint64_t ix = vm_bits(x);
    uint64_t tmp = ix - 0x3fe6800000000000u;
    uint64_t i = (tmp >> 45) & 127;
    uint64_t kk = (tmp + (1024ull << 52)) >> 52;  /* k + 1024 */
    double z = vm_from_bits(ix - (tmp & 0xfff0000000000000u));
    *k = vm_from_bits(0x4330000000000000u | kk) - (0x1p52 + 1024.0);
    double r = z * vm_log_invc[i] - 1.0;
    double r2 = r * r;
    double p = (r - r2 * (0.5 - r * (1.0 / 3))) + (r2 * r2) * ((-0.25 + r * 0.2) - r2 * (1.0 / 6));
    return vm_log_logc[i] + p;
}

static inline float ars_logf(float x)
{
    double k, l = vm_log32(x, &k);
    return (float)vm_log_special(x, k * 6.93147180559945286227e-01 + l);
}

static inline float ars_log2f(float x)
{
    double k, l = vm_log32(x, &k);
    return (float)vm_log_special(x, k + l * 1.44269504088896338700e+00);
}

static inline float ars_log10f(float x)
{
    double k, l = vm_log32(x, &k);
    return (float)vm_log_special(x, k * 3.01029995663981198017e-01 + l * 4.34294481903251816668e-01);
}

/* log(u) for u > 0 (any double from the functions below), else as log */
static inline double vm_log_d32(double u)
{
    double k, l = vm_log32(u, &k);
    return vm_log_special(u, k * 6.93147180559945286227e-01 + l);
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

static inline float ars_atanhf(float x)
{
    /* log((1 + a) / (1 - a)) / 2; below 2**-7 the odd Taylor series to a**9 */
    double d = x, a = fabs(d), z = d * d;
    double t = d * (1.0 + z * (1.0 / 3 + z * (0.2 + z * (1.0 / 7 + z * (1.0 / 9)))));
    double v = copysign(0.5 * vm_log_d32((1.0 + a) / (1.0 - a)), d);
    return (float)(a < 0x1p-7 ? t : v);
}

/* sin (q0 = 0) or cos (q0 = 1) of |x| <= VM_TRIG_MAX: r = x - m pi/2 with m
 * = 2n + q0 the nearest such to x (pi/2 in two parts: m * the first is
 * exact), |r| <= pi/2; then +-sin(r) by one odd polynomial of degree 13
 * (relative error < 2**-43), negated where n + q0 is odd. */
static inline double vm_sin32(double x, uint64_t q0)
{
    double kd = (x * 3.18309886183790671538e-01 - 0.5 * (double)q0) + VM_SHIFT;
    uint64_t flip = (vm_bits(kd) + q0) & 1;
    double m = 2.0 * (kd - VM_SHIFT) + (double)q0;
    double r = (x - m * 1.57079632673412561417e+00) - m * 6.07710050650619224932e-11;
    double t = r * r, t2 = t * t;
    double p = (0x1.ffffffffffe3ap-1 + t * -0x1.5555555543bdep-3)
               + t2 * (0x1.11111109ef000p-7 + t * -0x1.a019fd48ee1e6p-13)
               + (t2 * t2) * ((0x1.71dcf81f7d9dep-19 + t * -0x1.ae04489f3e1c3p-26) + t2 * 0x1.52e574529a459p-33);
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
    double kd = x * 6.36619772367581382433e-01 + VM_SHIFT;
    uint64_t odd = vm_bits(kd) & 1;
    double n = kd - VM_SHIFT;
    double r = (x - n * 1.57079632673412561417e+00) - n * 6.07710050650619224932e-11;
    double t = r * r, t2 = t * t;
    double s = r * ((0x1.fffffffffffd9p-1 + t * -0x1.5555555550efep-3)
                    + t2 * (0x1.1111110bde5e3p-7 + t * -0x1.a019f8a207d3fp-13)
                    + (t2 * t2) * (0x1.71d7317b8ee33p-19 + t * -0x1.a9507f3711e2dp-26));
    double c = (0x1.ffffffffffe0bp-1 + t * -0x1.ffffffffe3763p-2)
               + t2 * (0x1.5555554476425p-5 + t * -0x1.6c16b2d3e61f5p-10)
               + (t2 * t2) * (0x1.a00e9685da9c4p-16 + t * -0x1.23c5c15441a00p-22);
    return odd ? -c / s : s / c;
}

static inline float ars_tanf(float x) { return (float)vm_tan32(x); }

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
