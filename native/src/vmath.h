/* arrstride's own math functions for the elementwise loops: exp, expm1,
 * log, log1p, log2, log10, sin, cos, tan, tanh, sinh, cosh, asinh, acosh,
 * atanh, asin, acos, atan, atan2, pow, hypot and logaddexp in float64 and
 * float32. Portable C without branches (selects only), so that GCC and
 * Clang vectorize the loops that
 * call them at any SIMD width, and with one algorithm for every width and
 * CPU: the compiler fuses nothing (the build passes -ffp-contract=off) and a
 * fused multiply-add is written out as vm_fma, correctly rounded at every
 * level, so a result's bits depend on the input alone, not on the SIMD
 * level, the CPU family or the compiler. No libm call (but fma() at
 * x86-64's baseline), except for sin, cos and tan of |x| > 2**20
 * (VM_TRIG_MAX): a second pass over the block (UNARY_KERNEL) gives those the C
 * library's scalar functions; and float64 hypot's pairs whose larger
 * magnitude lies beyond [2**-500, 2**500] (inf, NaN and two zeros among
 * them) are the C library's hypot (VM_BIN_RUN's second pass). Likewise the loops of exp, log, log10 (and
 * float32 log2), atanh, and float64 asin and atan run a core without the selects
 * of special values and edges (vm_exp_core, vm_expf_core, ...), valid on
 * nearly all the domain, and the second pass redoes the other elements by
 * the full function (ars_exp, ...): the same bits as the full function,
 * whatever the layout.
 *
 * float64: exp by a 128-entry table of 2**((j + 1/2)/128) (one word per
 * entry: the value's fraction and its rounding error) after a reduction by
 * ln2/128 in FMAs, a degree-5 polynomial and one rounding (0.51 ulp); its
 * sum before the rounding and the rounding error (vm_exp_hl) serve tanh,
 * sinh and cosh; a table of 2**(j/128) in hi and lo parts and the
 * reduction in two parts, vm_exp_dd, serve expm1; atanh as k ln2/2 +
 * atanh(s), s one quotient of a in two parts; log and log10 as 2 atanh(f /
 * (2 + f)) (log10 in its own units: 2/ln10 in the coefficients), the
 * quotient in two parts and a polynomial of our own (vm_log_at); log1p,
 * asinh and acosh by fdlibm's log(1 + f) with s = f / (2 + f), but f*f/2
 * exact and the large sums in two parts (FMA; vm_log_hl); log2 and pow by
 * a 256-entry table of 1/c and log(c) (vm_log_dd, double-double, no
 * division: the table's emulated gathers made it slower than the division
 * for log itself); sin, cos and tan by polynomials of our own (mpmath)
 * after a reduction by pi/2 in three parts (exact for |x| <= 2**20): sin
 * and cos by one polynomial whose coefficients each lane selects
 * (vm_sin_or_cos), tan as r A(r*r) / B(r*r), a rational fit whose
 * numerator and denominator are kept in two parts, their quotient
 * corrected by one fma residual; atan by a reduction to |t| <= 0.21
 * around tan(k pi/8); atan2 through one reduced quotient and a polynomial of its own; the others
 * from fdlibm's, some with intermediate sums in two parts (see each).
 * vm_two_prod is one FMA.
 * The tables (mpmath) are read by scalar loads: GCC's generic tuning
 * keeps gathers off, and they were slower on Zen 4 anyway.
 * float32: the polynomials and the final steps in float64 lanes, with an error
 * far below a float32 ulp, and one rounding at the end: within 1 ulp and
 * nearly always correctly rounded. What needs no such precision runs in
 * float32 lanes, twice as wide: clamps, and the float32 square root and
 * divisions that asin, acos and atanh refine by one Newton step in float64.
 * log, log2 and log10 run in float32 lanes throughout, the sum kept in two
 * float32 parts (vm_logf_hl). Polynomials by Horner's rule with vm_fma
 * (vm_fmaf in float32 lanes).
 * tests/test_accuracy.py measures them; `python -m arrstride accuracy`
 * prints the table. Internal header. */
#ifndef ARS_VMATH_H
#define ARS_VMATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* VM_INLINE forces a function inline where GCC's inliner declines it (the
 * second passes grow the kernels, and GCC then left a core a call and its
 * loop scalar); VM_NOINLINE keeps a rarely run path out of the loops. */
#if defined(__GNUC__)
#define VM_NOINLINE __attribute__((noinline, unused))
#define VM_INLINE __attribute__((always_inline))
#else
#define VM_NOINLINE
#define VM_INLINE
#endif

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

/* a * b = p + *e exactly (the FMA's product is exact; *e loses bits only
 * where it falls below the normal range) */
static inline double vm_two_prod(double a, double b, double *e)
{
    double p = a * b;
    *e = vm_fma(a, b, -p);
    return p;
}

/* n / (d + dl) = q + *ql (|dl| below an ulp of d): one division, as a
 * reciprocal, and the residual n - q (d + dl) by two fmas */
static inline double vm_quot_hl(double n, double d, double dl, double *ql)
{
    double y = 1.0 / d;
    double q = n * y;
    *ql = vm_fma(-q, dl, vm_fma(-q, d, n)) * y;
    return q;
}

/* ---- exp ------------------------------------------------------------------------ */

#define VM_LN2_HI 6.93147180369123816490e-01 /* 32 bits: k * VM_LN2_HI is exact */
#define VM_LN2_LO 1.90821492927058770002e-10

/* 2**(j/128) = vm_exp_tab_hi[j] (1 + vm_exp_tab_lo[j]), j = 0..127: the
 * first rounded to double, the second relative to it (mpmath) */
static const double vm_exp_tab_hi[128] = {
    0x1.0000000000000p+0, 0x1.0163da9fb3335p+0, 0x1.02c9a3e778061p+0, 0x1.04315e86e7f85p+0,
    0x1.059b0d3158574p+0, 0x1.0706b29ddf6dep+0, 0x1.0874518759bc8p+0, 0x1.09e3ecac6f383p+0,
    0x1.0b5586cf9890fp+0, 0x1.0cc922b7247f7p+0, 0x1.0e3ec32d3d1a2p+0, 0x1.0fb66affed31bp+0,
    0x1.11301d0125b51p+0, 0x1.12abdc06c31ccp+0, 0x1.1429aaea92de0p+0, 0x1.15a98c8a58e51p+0,
    0x1.172b83c7d517bp+0, 0x1.18af9388c8deap+0, 0x1.1a35beb6fcb75p+0, 0x1.1bbe084045cd4p+0,
    0x1.1d4873168b9aap+0, 0x1.1ed5022fcd91dp+0, 0x1.2063b88628cd6p+0, 0x1.21f49917ddc96p+0,
    0x1.2387a6e756238p+0, 0x1.251ce4fb2a63fp+0, 0x1.26b4565e27cddp+0, 0x1.284dfe1f56381p+0,
    0x1.29e9df51fdee1p+0, 0x1.2b87fd0dad990p+0, 0x1.2d285a6e4030bp+0, 0x1.2ecafa93e2f56p+0,
    0x1.306fe0a31b715p+0, 0x1.32170fc4cd831p+0, 0x1.33c08b26416ffp+0, 0x1.356c55f929ff1p+0,
    0x1.371a7373aa9cbp+0, 0x1.38cae6d05d866p+0, 0x1.3a7db34e59ff7p+0, 0x1.3c32dc313a8e5p+0,
    0x1.3dea64c123422p+0, 0x1.3fa4504ac801cp+0, 0x1.4160a21f72e2ap+0, 0x1.431f5d950a897p+0,
    0x1.44e086061892dp+0, 0x1.46a41ed1d0057p+0, 0x1.486a2b5c13cd0p+0, 0x1.4a32af0d7d3dep+0,
    0x1.4bfdad5362a27p+0, 0x1.4dcb299fddd0dp+0, 0x1.4f9b2769d2ca7p+0, 0x1.516daa2cf6642p+0,
    0x1.5342b569d4f82p+0, 0x1.551a4ca5d920fp+0, 0x1.56f4736b527dap+0, 0x1.58d12d497c7fdp+0,
    0x1.5ab07dd485429p+0, 0x1.5c9268a5946b7p+0, 0x1.5e76f15ad2148p+0, 0x1.605e1b976dc09p+0,
    0x1.6247eb03a5585p+0, 0x1.6434634ccc320p+0, 0x1.6623882552225p+0, 0x1.68155d44ca973p+0,
    0x1.6a09e667f3bcdp+0, 0x1.6c012750bdabfp+0, 0x1.6dfb23c651a2fp+0, 0x1.6ff7df9519484p+0,
    0x1.71f75e8ec5f74p+0, 0x1.73f9a48a58174p+0, 0x1.75feb564267c9p+0, 0x1.780694fde5d3fp+0,
    0x1.7a11473eb0187p+0, 0x1.7c1ed0130c132p+0, 0x1.7e2f336cf4e62p+0, 0x1.80427543e1a12p+0,
    0x1.82589994cce13p+0, 0x1.8471a4623c7adp+0, 0x1.868d99b4492edp+0, 0x1.88ac7d98a6699p+0,
    0x1.8ace5422aa0dbp+0, 0x1.8cf3216b5448cp+0, 0x1.8f1ae99157736p+0, 0x1.9145b0b91ffc6p+0,
    0x1.93737b0cdc5e5p+0, 0x1.95a44cbc8520fp+0, 0x1.97d829fde4e50p+0, 0x1.9a0f170ca07bap+0,
    0x1.9c49182a3f090p+0, 0x1.9e86319e32323p+0, 0x1.a0c667b5de565p+0, 0x1.a309bec4a2d33p+0,
    0x1.a5503b23e255dp+0, 0x1.a799e1330b358p+0, 0x1.a9e6b5579fdbfp+0, 0x1.ac36bbfd3f37ap+0,
    0x1.ae89f995ad3adp+0, 0x1.b0e07298db666p+0, 0x1.b33a2b84f15fbp+0, 0x1.b59728de5593ap+0,
    0x1.b7f76f2fb5e47p+0, 0x1.ba5b030a1064ap+0, 0x1.bcc1e904bc1d2p+0, 0x1.bf2c25bd71e09p+0,
    0x1.c199bdd85529cp+0, 0x1.c40ab5fffd07ap+0, 0x1.c67f12e57d14bp+0, 0x1.c8f6d9406e7b5p+0,
    0x1.cb720dcef9069p+0, 0x1.cdf0b555dc3fap+0, 0x1.d072d4a07897cp+0, 0x1.d2f87080d89f2p+0,
    0x1.d5818dcfba487p+0, 0x1.d80e316c98398p+0, 0x1.da9e603db3285p+0, 0x1.dd321f301b460p+0,
    0x1.dfc97337b9b5fp+0, 0x1.e264614f5a129p+0, 0x1.e502ee78b3ff6p+0, 0x1.e7a51fbc74c83p+0,
    0x1.ea4afa2a490dap+0, 0x1.ecf482d8e67f1p+0, 0x1.efa1bee615a27p+0, 0x1.f252b376bba97p+0,
    0x1.f50765b6e4540p+0, 0x1.f7bfdad9cbe14p+0, 0x1.fa7c1819e90d8p+0, 0x1.fd3c22b8f71f1p+0,
};
static const double vm_exp_tab_lo[128] = {
    0x0.0p+0, 0x1.b3b4f1a88bf6ep-54, -0x1.160139cd8dc5dp-56, -0x1.05e7a108766d1p-54,
    0x1.cd2523567f613p-55, -0x1.bce8023f98efap-55, 0x1.0f74e61e6c861p-57, 0x1.0a3e45b33d399p-54,
    0x1.79aa65d837b6dp-54, 0x1.eb51a92fdeffcp-55, 0x1.ebe3d702f9cd1p-60, -0x1.a033489906e0bp-57,
    -0x1.556522a2fbd0ep-54, -0x1.080ef8c4eea55p-58, -0x1.1c923b9d5f416p-54, 0x1.0d3e3e95c55afp-55,
    -0x1.01b15eaa59348p-55, -0x1.f1ff055de323dp-55, 0x1.b898c3f1353bfp-55, -0x1.6d99c7611eb26p-54,
    0x1.aecf73e3a2f60p-54, -0x1.fe782cb86389dp-55, 0x1.a6f4144a6c38dp-55, 0x1.07a05b0e4047dp-55,
    0x1.68efde3a8a894p-54, 0x1.75e18f274487dp-55, 0x1.0472b981fe7f2p-55, -0x1.6b87b3f71085ep-54,
    0x1.2f7e16d09ab31p-55, -0x1.d219b1a6fbffap-60, 0x1.b3782720c0ab4p-55, 0x1.e149289cecb8fp-57,
    0x1.34d754db0abb6p-55, 0x1.64201e2ac744cp-55, 0x1.fdd395dd3f84ap-55, -0x1.6a3803b8e5b04p-55,
    -0x1.24aedcc4b5068p-54, -0x1.907f81b512d8ep-54, -0x1.1d1e83e9436d2p-56, -0x1.91919b3ce1b15p-54,
    0x1.59f48a72a4c6dp-55, -0x1.312607a28698ap-54, -0x1.8a78f4817895bp-58, -0x1.c2c9b67499a1bp-56,
    0x1.363ed60c2ac11p-59, 0x1.666093b0664efp-54, 0x1.ecce1daa10379p-57, 0x1.3ff8e3f0f1230p-54,
    0x1.690cebb7aafb0p-56, 0x1.31dbdeb54e077p-54, -0x1.f94340071a38ep-55, -0x1.7deccdc93a349p-55,
    -0x1.8dec6bd0f385fp-56, -0x1.61246ec7b5cf6p-55, 0x1.3350518fdd78ep-54, 0x1.b98b72f8a9b05p-56,
    0x1.063e1e21c5409p-54, 0x1.4c7855019c6eap-60, 0x1.432e62b64c035p-54, -0x1.ce44a6199769fp-55,
    -0x1.c33c53bef4da8p-55, -0x1.45378892be9aep-55, -0x1.3cedd78565858p-54, 0x1.710aa807e1964p-58,
    -0x1.3b3efbf5e2228p-54, -0x1.a12ad8734b982p-57, -0x1.367efb86da9eep-57, -0x1.0dc3d54e08851p-55,
    -0x1.81f647e5a3ecfp-56, -0x1.6ee4ac08b7db0p-55, -0x1.619321e55e68ap-55, 0x1.09ccb5e09d4d3p-54,
    -0x1.b32dcb94da51dp-56, 0x1.4ecfd5467c06bp-54, 0x1.5ebe1abd66c55p-57, -0x1.8a1c52fb3cf42p-55,
    -0x1.369b6f13b3734p-54, -0x1.05e843a19ff1ep-55, -0x1.4d450d872576ep-54, 0x1.0ad675b0e8a00p-54,
    0x1.db72fc1f0eab4p-55, -0x1.5b6609cc5e7ffp-57, 0x1.bf68359f35f44p-56, -0x1.3091fa71e3d83p-54,
    -0x1.da9b88b6c1e29p-58, -0x1.c23f97c90b959p-57, -0x1.2434322f4f9aap-54, -0x1.5ca6cd7668e4bp-55,
    0x1.1affc2b91ce27p-56, 0x1.dd235e10a73bbp-57, -0x1.7c50422622263p-55, 0x1.b1c86e3e231d5p-55,
    -0x1.1bbd1d3bcbb15p-54, 0x1.0cc319cee31d2p-54, 0x1.469846e735ab3p-55, -0x1.2dfcd978e9db4p-55,
    0x1.c1a7792cb3387p-55, -0x1.07b8f4ad1d9fap-54, -0x1.5c3d956dcaebap-58, -0x1.0a40e3da6f640p-54,
    -0x1.8d6f438ad9334p-57, -0x1.1eee26b588a35p-54, 0x1.4ffd70a5fddcdp-56, -0x1.1bdfbfa9298acp-54,
    0x1.36eae30af0cb3p-56, 0x1.ee3325c9ffd94p-55, 0x1.4e08fd10959acp-55, 0x1.3cdaf384e1a67p-57,
    0x1.76b2c6c921968p-57, -0x1.08a1883ccb5d2p-55, -0x1.fad5d3ffffa6fp-55, -0x1.00dae3875a949p-54,
    0x1.4a385a63d07a7p-56, -0x1.2919e2040220fp-55, 0x1.e5a50d5c192acp-55, 0x1.43a59ac016b4bp-55,
    -0x1.2d52107b43e1fp-55, -0x1.92ab93b470dc9p-55, 0x1.4b604603a88d3p-56, 0x1.3c5ec519d7271p-55,
    -0x1.ff7128fd391f0p-55, -0x1.dae98e223747dp-55, 0x1.ec3bc41aa2008p-55, 0x1.42b94c3a9eb32p-55,
    0x1.a64a931d185eep-55, -0x1.e37bae43be3edp-55, 0x1.7893b4d91cd9dp-56, 0x1.305c14160cc89p-58,
};
#define VM_INVLN2N 0x1.71547652b82fep+7  /* 128/ln2 */
#define VM_LN2N_HI 0x1.62e42fefc0000p-8  /* ln2/128, 35 bits: k * it is exact */
#define VM_LN2N_LO -0x1.c610ca86c3899p-44

/* x = n ln2/128 + r for |x| <= 746: n = round(x 128/ln2) = 128 e + j (0 <=
 * j < 128, returned), r = x - n ln2/128 as *r0 (exact: the FMA's product
 * is) + *rm, |r| <= ln2/256 + 2**-40. */
static inline uint64_t vm_exp_reduce(double x, double *r0, double *rm, double *e)
{
    double kd = vm_fma(x, VM_INVLN2N, VM_SHIFT);
    uint64_t kb = vm_bits(kd);
    double n = kd - VM_SHIFT;
    *r0 = vm_fma(n, -VM_LN2N_HI, x);
    *rm = n * -VM_LN2N_LO;
    /* the low 52 bits of kb are 2**51 + n: shifted by 7, 2**44 + floor(n / 128) */
    *e = vm_from_bits(0x4330000000000000u | ((kb & 0xfffffffffffffu) >> 7)) - (0x1p52 + 0x1p44);
    return kb & 127u;
}

/* e**r - 1 - r for |r| <= ln2/256 + 2**-40: Taylor's series to r**6
 * (truncation below 2**-71, so that expm1 of a small r stays exact too) */
static inline double vm_exp_poly(double r)
{
    double r2 = r * r;
    return r2 * (vm_fma(r, 1.0 / 6, 0.5) + r2 * (vm_fma(r, 1.0 / 120, 1.0 / 24) + r2 * (1.0 / 720)));
}

/* 2**((j + 1/2) / 128), j = 0..127, in one word each: its fraction bits
 * (the value is in (1, 2)) below the rounding error, relative, in units of
 * 2**-64 plus 2048 in the 12 bits of sign and exponent (error < 2**-65;
 * mpmath). One lookup per element instead of two: the lookups are emulated
 * gathers (scalar loads), GCC's generic tuning keeps the gather
 * instructions off. */
static const uint64_t vm_exp_tab_p[128] = {
    0x56300b1afa5abcbfu, 0x5ad02168143b0281u, 0x8a9037d42e11bbccu, 0xa8c04e5f72f654b1u,
    0x2af0650a0e3c1f89u, 0xa5207bd42b72a836u, 0x292092bdf66607e0u, 0xa9e0a9c79b1f3919u,
    0xd020c0f145e46c85u, 0x1690d83b23395decu, 0x3210efa55fdfa9c5u, 0xb701073028d7233eu,
    0x14f11edbab5e2ab6u, 0x754136a814f204abu, 0x4d014e95934f312eu, 0x85c166a45471c3c2u,
    0x8f317ed48695bbc0u, 0xcb31972658375d2fu, 0xd5f1af99f8138a1cu, 0xb9c1c82f95281c6bu,
    0x2db1e0e75eb44027u, 0x1c71f9c18438ce4du, 0xc48212be3578a819u, 0xb3722bdda27912d1u,
    0xaef2451ffb82140au, 0xc5425e85711ece75u, 0xe812780e341ddf29u, 0x5fa291ba7591bb70u,
    0x2922ab8a66d10f13u, 0x3862c57e39771b2fu, 0xe2a2df961f641589u, 0x7712f9d24abd886bu,
    0xaa831432edeeb2fdu, 0x21b32eb83ba8ea32u, 0x5fe3496266e3fa2du, 0x51836431a2de883bu,
    0x2ad37f26231e754au, 0x2c339a401b7140efu, 0xc533b57fbfec6cf4u, 0x99c3d0e544ede173u,
    0x54b3ec70df1c5175u, 0xac840822c367a024u, 0x32e423fb2709468au, 0xa6c43ffa3f84b9d4u,
    0x76745c2042a7d232u, 0x2814786d668b3237u, 0x616494e1e192aed2u, 0x6584b17dea6db7d7u,
    0xb264ce41b817c114u, 0x3f54eb2d81d8abffu, 0x93e508417f4531eeu, 0x6a65257de83f4eefu,
    0xa38542e2f4f6ad27u, 0x4d356070dde910d2u, 0x4e357e27dbe2c4cfu, 0x39459c0827ff07ccu,
    0x2f15ba11fba87a03u, 0x2b85d84590998b93u, 0x5a45f6a320dceb71u, 0xd7d6152ae6cdf6f4u,
    0xc60633dd1d1929fdu, 0x32f652b9febc8fb7u, 0x548671c1c70833f6u, 0xa21690f4b19e9538u,
    0x9286b052fa75173eu, 0xcfe6cfdcddd47645u, 0x5156ef9298593ae5u, 0x84870f7466f42e87u,
    0x4e372f8286ead08au, 0xacb74fbd35d7cbfdu, 0xcb077024b1ab6e09u, 0xb46790b938ac1cf6u,
    0x3497b17b0976cfdbu, 0xafb7d26a62ff86f0u, 0x69f7f3878491c491u, 0xb63814d2add106d9u,
    0xc3b8364c1eb941f7u, 0x7b7857f4179f5b21u, 0x9c9879cad931a436u, 0xcc489bd0a478580fu,
    0xcfa8be05bad61778u, 0x44a8e06a5e0866d9u, 0xb73902fed0282c8au, 0x678925c353aa2fe2u,
    0x5a5948b82b5f98e5u, 0x7ba96bdd9a7670b3u, 0x91f98f33e47a22a2u, 0x35b9b2bb4d53fe0du,
    0x4bc9d674194bb8d5u, 0x6699fa5e8d07f29eu, 0xc59a1e7aed8eb8bbu, 0x3f1a42c980460ad8u,
    0x866a674a8af46052u, 0x4d7a8bfe53c12e59u, 0x9d8ab0e521356ebau, 0xb91ad5ff3a3c2774u,
    0x4eeafb4ce622f2ffu, 0xb14b20ce6c9a8952u, 0x6d9b468415b749b1u, 0xab9b6c6e29f1c52au,
    0x405b928cf22749e4u, 0x7eebb8e0b79a6f1fu, 0x7f0bdf69c3f3a207u, 0x5e4c06286141b33du,
    0x4c0c2d1cd9fa652cu, 0xa6dc544778fafb22u, 0x5dcc7ba88988c933u, 0x654ca3405751c4dbu,
    0x6fdccb0f2e6d1675u, 0x467cf3155b5bab74u, 0xaefd1b532b08c968u, 0xab7d43c8eacaa1d6u,
    0x845d6c76e862e6d3u, 0xb85d955d71ff6075u, 0x44edbe7cd63a8315u, 0x42bde7d5641c0658u,
    0x761e11676b197d17u, 0x491e3b333b16ee12u, 0x689e653924676d76u, 0x5c5e8f7977cdb740u,
    0xaaceb9f4867cca6eu, 0xa4dee4aaa2188510u, 0x589f0f9c1cb6412au, 0x730f3ac948dd7274u,
    0xc08f6632798844f8u, 0x7baf91d802243c89u, 0x733fbdba3692d514u, 0x8a6fe9d96b2a23d9u,
};

/* e**(x + xl) for a small xl and |x| <= 746 (garbage beyond, where the
 * callers select their limits after the call: a clamp before it made GCC
 * specialize the clamped constant's path and give up vectorizing): x = (n +
 * 1/2) ln2/128 + r, n = 128 e + j, |r| <= ln2/256 (+ 2**-36), r exact but
 * for its part below VM_LN2N_LO's product; e**r - 1 = p by a degree-5
 * polynomial (error < 2**-65, ARM's optimized-routines); with h (1 + l) =
 * 2**((j + 1/2) / 128), y = h + h (l + p) in [1, 2] (but for the last bits
 * of r's range) rounds once, and y 2**(e-1) 2 is exact for e >= -1021 and
 * overflows as it should for e = 1024. Below, the sum rounds at the
 * quantum 2**-1074: in units of 2**-1022, c + h 2**(e + 1022) + its rest
 * rounds at 2**-52 with c = 1 for e < -1022, 0 for e = -1022, and c is
 * taken away exactly. 0.51 ulp. */
/* vm_exp_xl's parts: y = h (1 + lp), scaled by 2**e (e in eb's low 12
 * bits), m = n + 1/2 */
struct vm_exp_parts { double h, lp, m; uint64_t eb; };

static inline VM_INLINE struct vm_exp_parts vm_exp_hl(double x, double xl)
{
    struct vm_exp_parts o;
    double kd = vm_fma(x, VM_INVLN2N, -0.5) + VM_SHIFT;
    uint64_t kb = vm_bits(kd);
    o.m = (kd - VM_SHIFT) + 0.5;
    double r = vm_fma(o.m, -VM_LN2N_HI, x) + (vm_fma(o.m, -VM_LN2N_LO, xl));
    uint64_t t = vm_exp_tab_p[kb & 127u];
    o.h = vm_from_bits((t & 0xfffffffffffffu) | 0x3ff0000000000000u);
    double l = vm_from_bits((t >> 52) | 0x4330000000000000u) - (0x1p52 + 2048.0);
    double r2 = r * r;
    double p = vm_fma(r2 * r2, vm_fma(r, 0x1.1111167a4d017p-7, 0x1.55555cf172b91p-5),
                      vm_fma(r2, vm_fma(r, 0x1.555555555543cp-3, 0x1.ffffffffffdbdp-2), r));
    o.lp = vm_fma(l, 0x1p-64, p);
    /* the low 12 bits of kb >> 7 are e's (kb's low 52 bits are 2**51 + n) */
    o.eb = kb >> 7;
    return o;
}

/* vm_exp_hl's y = h (1 + lp), rounded, and its rounding error in *yl */
static inline VM_INLINE double vm_exp_y(struct vm_exp_parts q, double *yl)
{
    double y = vm_fma(q.h, q.lp, q.h);
    *yl = vm_fma(q.h, q.lp, q.h - y);
    return y;
}

/* the scale 2**e of vm_exp_hl's parts, for -1022 <= e <= 1023 */
static inline VM_INLINE double vm_exp_scale(struct vm_exp_parts q)
{
    return vm_from_bits((q.eb + 1023u) << 52);
}

/* vm_exp_xl's result where it is normal (e >= -1021) */
static inline double vm_exp_xl_normal(struct vm_exp_parts q)
{
    return vm_fma(q.h, q.lp, q.h) * vm_from_bits((q.eb + 1022u) << 52) * 2.0;
}

static inline double vm_exp_xl(double x, double xl)
{
    struct vm_exp_parts q = vm_exp_hl(x, xl);
    double h = q.h, lp = q.lp, m = q.m;
    uint64_t eb = q.eb;
    double y = vm_exp_xl_normal(q);
    double hs = h * vm_from_bits((eb + 2045u) << 52);
    double c = m < -1022.0 * 128 ? 1.0 : 0.0;
    double s = c + hs;
    double w = s + vm_fma(hs, lp, hs - (s - c));
    return m < -1021.0 * 128 ? vm_fma(w, 0x1p-1022, c * -0x1p-1022) : y;
}

static inline double ars_exp(double x)
{
    /* e**x rounds to inf above 709.79, to 0 below -745.14; NaN passes */
    double v = vm_exp_xl(x, 0.0);
    return x > 710.0 ? (double)INFINITY : x < -746.0 ? 0.0 : v;
}

/* ars_exp for |x| <= VM_EXP_CORE (e >= -1021: y 2**e is exact and normal)
 * without the selects of the limits and of the subnormal results, y scaled
 * by one factor: the same bits. The float64 loop runs it, then a second
 * pass redoes the other elements by ars_exp. */
#define VM_EXP_CORE 707.0
static inline double vm_exp_core(double x)
{
    struct vm_exp_parts q = vm_exp_hl(x, 0.0);
    return vm_fma(q.h, q.lp, q.h) * vm_exp_scale(q);
}

/* ---- log -------------------------------------------------------------------------- */

/* x (> 0, finite, normal: subnormals are scaled by 2**54 first, sub = 1)
 * = 2**k * z, sqrt(2)/2 <= z < sqrt(2); returns z - 1. */
static inline double vm_log_reduce_m(double m, double *k, int sub)
{
    uint64_t ix = vm_bits(m);
    /* kk = k + 1024: the exponent of x / (sqrt(2)/2), kept non-negative so
     * that a logical shift gives it */
    uint64_t kk = (ix - 0x3fe6a09e667f3bcdu + (1024ull << 52)) >> 52;
    double z = vm_from_bits(ix - (kk << 52) + (1024ull << 52));
    *k = (vm_from_bits(0x4330000000000000u | kk) - (0x1p52 + 1024.0)) - (sub ? 54.0 : 0.0);
    return z - 1.0;
}

/* x (> 0, finite) = 2**k * z, sqrt(2)/2 <= z < sqrt(2); returns z - 1. */
static inline double vm_log_reduce(double x, double *k)
{
    int sub = x < 0x1p-1022;
    return vm_log_reduce_m(sub ? x * 0x1p54 : x, k, sub);
}

/* The special values of every logarithm: x < 0 (and -inf) NaN, 0 -inf, +inf
 * and NaN themselves; v for the rest. */
static inline double vm_log_special(double x, double v)
{
    return x > 0 && x < INFINITY ? v : x == 0 ? -INFINITY : x < 0 ? (double)NAN : x + x;
}

/* For z in the i-th of 256 intervals of [0.6875 + 2**-10, 1.375 + 2**-9)
 * (the top 8 bits of z's mantissa less that start's): 1/c, c near the
 * interval's middle, rounded to 9 bits (1 for the interval around 1), and
 * -log(1/c) = hi + lo (mpmath), lo stored in vm_log_tab_c below 1/c's last
 * bit, times 2**44. With 9 bits, z (1/c) - 1 (|.| < 2**-8.4) is exact in
 * one FMA. */
static const double vm_log_tab_c[256] = {
    0x1.7318783cb9802p+0, 0x1.71e0fa896e016p+0, 0x1.710fb6aeb27afp+0, 0x1.7018c76ceb015p+0,
    0x1.6f0a966408ebcp+0, 0x1.6e1cfb1b39ca4p+0, 0x1.6d1da856ccd98p+0, 0x1.6c0eef507bfacp+0,
    0x1.6b1f893d41c41p+0, 0x1.69f4242837568p+0, 0x1.690de3077d7e3p+0, 0x1.67ebdc9c7c238p+0,
    0x1.6718ebcb7deeap+0, 0x1.65ead9524d7cap+0, 0x1.650c0ce7bf184p+0, 0x1.63fd8db0a7cc1p+0,
    0x1.63142a87d977ep+0, 0x1.62092cd9ad824p+0, 0x1.610cffe1a0f8cp+0, 0x1.5fe0bd2132133p+0,
    0x1.5f129931715adp+0, 0x1.5e10bcfb6082dp+0, 0x1.5e10bcfb6082dp+0, 0x1.5d1e3265c6a1dp+0,
    0x1.5c0e34328ca30p+0, 0x1.5b036ac53b023p+0, 0x1.5a0a6ea62c049p+0, 0x1.590151acc4c0ap+0,
    0x1.5818f4cdb95ecp+0, 0x1.571896b5fd853p+0, 0x1.55e852db3ec10p+0, 0x1.55043ddb15c1dp+0,
    0x1.54176f5eb0963p+0, 0x1.54176f5eb0963p+0, 0x1.531c9fdf9a0c5p+0, 0x1.52010e5c62affp+0,
    0x1.50e62c2e4f1b3p+0, 0x1.4fff18ce0aa3cp+0, 0x1.4ee8499d67123p+0, 0x1.4df9d817d52cdp+0,
    0x1.4df9d817d52cdp+0, 0x1.4cf7e09bf1e1ap+0, 0x1.4be8230217f9ep+0, 0x1.4af8ba3e01a11p+0,
    0x1.4a0947610bd28p+0, 0x1.490e5cab47fb8p+0, 0x1.490e5cab47fb8p+0, 0x1.480e555732791p+0,
    0x1.46ff1d049017fp+0, 0x1.45f5bce435792p+0, 0x1.4502dc0747380p+0, 0x1.4402c2af0003cp+0,
    0x1.4402c2af0003cp+0, 0x1.42f3e59d7333ap+0, 0x1.41f48dde5340ep+0, 0x1.40f6e32fc1552p+0,
    0x1.400a7b44fc21ap+0, 0x1.400a7b44fc21ap+0, 0x1.3f0b9ef71c520p+0, 0x1.3dfac0c62ede4p+0,
    0x1.3cf22ec011f31p+0, 0x1.3cf22ec011f31p+0, 0x1.3c04e633fcd90p+0, 0x1.3b07a30de4631p+0,
    0x1.39fcd91dc9f0bp+0, 0x1.39fcd91dc9f0bp+0, 0x1.38f5450e707fep+0, 0x1.37f137d9f158fp+0,
    0x1.370ab4ec28d2bp+0, 0x1.370ab4ec28d2bp+0, 0x1.360dfbfedfd04p+0, 0x1.35052f9201ce8p+0,
    0x1.33fc83929a52cp+0, 0x1.33fc83929a52cp+0, 0x1.3306c99018aa1p+0, 0x1.320e557134767p+0,
    0x1.320e557134767p+0, 0x1.310424039387bp+0, 0x1.3006f183bebf2p+0, 0x1.2f059748aaa2bp+0,
    0x1.2f059748aaa2bp+0, 0x1.2e0ba37fc5238p+0, 0x1.2cf4bb3f219e5p+0, 0x1.2cf4bb3f219e5p+0,
    0x1.2bf30584d5e0fp+0, 0x1.2b06acea39f60p+0, 0x1.2b06acea39f60p+0, 0x1.29f8864d27544p+0,
    0x1.29002d738fb2cp+0, 0x1.29002d738fb2cp+0, 0x1.27f67f4471dfcp+0, 0x1.26f055c2073fbp+0,
    0x1.26f055c2073fbp+0, 0x1.25fadf3f72e35p+0, 0x1.24f2ebbf60e2cp+0, 0x1.24f2ebbf60e2cp+0,
    0x1.23f32d11d0b7ep+0, 0x1.22fabce6e051ep+0, 0x1.22fabce6e051ep+0, 0x1.22055d1ae6607p+0,
    0x1.20f9e83368e91p+0, 0x1.20f9e83368e91p+0, 0x1.200161578001ep+0, 0x1.1efa1bc89ab8ap+0,
    0x1.1efa1bc89ab8ap+0, 0x1.1dfea29e8107fp+0, 0x1.1dfea29e8107fp+0, 0x1.1cff7bc3987e7p+0,
    0x1.1bf9af42dd564p+0, 0x1.1bf9af42dd564p+0, 0x1.1b024133c3831p+0, 0x1.1a00a534bd59ap+0,
    0x1.1a00a534bd59ap+0, 0x1.1907bbb7f3765p+0, 0x1.1907bbb7f3765p+0, 0x1.180641b664613p+0,
    0x1.1704e21163b08p+0, 0x1.1704e21163b08p+0, 0x1.15f96d8719796p+0, 0x1.15f96d8719796p+0,
    0x1.14fc44560d94dp+0, 0x1.14fc44560d94dp+0, 0x1.1406d667c89f0p+0, 0x1.13007049658ffp+0,
    0x1.13007049658ffp+0, 0x1.120179da3e8c2p+0, 0x1.120179da3e8c2p+0, 0x1.10fcfe4b59987p+0,
    0x1.0ffcf419b4749p+0, 0x1.0ffcf419b4749p+0, 0x1.0eff70e1d66d4p+0, 0x1.0eff70e1d66d4p+0,
    0x1.0e01eb9759c13p+0, 0x1.0e01eb9759c13p+0, 0x1.0cfc14be2ff5cp+0, 0x1.0cfc14be2ff5cp+0,
    0x1.0bfdce586af09p+0, 0x1.0b039cab8569cp+0, 0x1.0b039cab8569cp+0, 0x1.0a02b7f526febp+0,
    0x1.0a02b7f526febp+0, 0x1.0901e9ae889bbp+0, 0x1.0901e9ae889bbp+0, 0x1.07fecc1c0fb0ep+0,
    0x1.07fecc1c0fb0ep+0, 0x1.070010ae6922ap+0, 0x1.070010ae6922ap+0, 0x1.06015b602ace4p+0,
    0x1.06015b602ace4p+0, 0x1.0500432d6a40bp+0, 0x1.0500432d6a40bp+0, 0x1.040060c24b166p+0,
    0x1.040060c24b166p+0, 0x1.030045b5da1f5p+0, 0x1.030045b5da1f5p+0, 0x1.020003c896fc7p+0,
    0x1.020003c896fc7p+0, 0x1.00ffdafbca54bp+0, 0x1.00ffdafbca54bp+0, 0x1.0000000000000p+0,
    0x1.fe00fcb31c67bp-1, 0x1.fc00a33316a0cp-1, 0x1.fa008258b09c0p-1, 0x1.f8024f91d082ep-1,
    0x1.f5fce64a18dffp-1, 0x1.f3fc5cda5f3ccp-1, 0x1.f1fc63f9eb2f3p-1, 0x1.f0070173c75d5p-1,
    0x1.eefeacb7d2e06p-1, 0x1.ecffabdf3d66bp-1, 0x1.eafe4407713b0p-1, 0x1.e90797be262dap-1,
    0x1.e6fa362764de5p-1, 0x1.e503cb9e741ebp-1, 0x1.e3f86dc13ebfcp-1, 0x1.e1fb06c0db121p-1,
    0x1.dff1147fb37eap-1, 0x1.ddfa2a9f26165p-1, 0x1.dcf19f8218f7ep-1, 0x1.db0d4957e477cp-1,
    0x1.d908dd1a4d56ep-1, 0x1.d6f5d0314f1ccp-1, 0x1.d60f9c3a2e2e2p-1, 0x1.d3fe8da99ded3p-1,
    0x1.d20373e5bff7ep-1, 0x1.d0f815f37adbfp-1, 0x1.cf07ec2f8f330p-1, 0x1.cdf5251aefe0ep-1,
    0x1.cbfbfea044b8dp-1, 0x1.ca0d1c65aacd3p-1, 0x1.c90676bdf7ddbp-1, 0x1.c7084e6766abdp-1,
    0x1.c5f975019ba20p-1, 0x1.c3f29b05ef503p-1, 0x1.c1e228ff66fd4p-1, 0x1.c0e96d5ffaa23p-1,
    0x1.beed2a9009e3dp-1, 0x1.bdf8e44389934p-1, 0x1.bbe91c7e9efaep-1, 0x1.bae9c6b2605cdp-1,
    0x1.b8f1dc74a1020p-1, 0x1.b80bea08d2dcap-1, 0x1.b5e278195cab3p-1, 0x1.b4f4eb1dc9f3dp-1,
    0x1.b2e6d82b87fc4p-1, 0x1.b1fe8e5697dc7p-1, 0x1.b114f4d710fecp-1, 0x1.aef526cee0fd8p-1,
    0x1.adfc5961e173cp-1, 0x1.abe721a63de1fp-1, 0x1.aaeade5fff4b3p-1, 0x1.aa0f7c7b75e7ep-1,
    0x1.a7eedcd318f42p-1, 0x1.a71d685f35eeap-1, 0x1.a51054473941bp-1, 0x1.a408a16283fdcp-1,
    0x1.a31f47dfd8720p-1, 0x1.a10ef903ee2e2p-1, 0x1.a01bcafa9de97p-1, 0x1.9f1ab5ca9eaa1p-1,
    0x1.9d0341dce6bb4p-1, 0x1.9c03ba6abed4ap-1, 0x1.9b1f11aa3853ap-1, 0x1.99e71a74d3a86p-1,
    0x1.9816062924247p-1, 0x1.96e3f207be58ep-1, 0x1.960d508ea4fcbp-1, 0x1.950ff5246ebdcp-1,
    0x1.92e2cc6e6546cp-1, 0x1.91f7baa6911c8p-1, 0x1.90f6c1c410945p-1, 0x1.901f665066f98p-1,
    0x1.8dfb9f5bd0b5bp-1, 0x1.8cdf10d397f3cp-1, 0x1.8c39b62dda9d2p-1, 0x1.8b143c2e68685p-1,
    0x1.8a08b163ceae9p-1, 0x1.87ef19c5a0fe4p-1, 0x1.8700f049b55eap-1, 0x1.862cdf7a51681p-1,
    0x1.852f73ad1aa14p-1, 0x1.83eed5147bdb7p-1, 0x1.832a2586e9344p-1, 0x1.821f7ae91aebap-1,
    0x1.803c1df5bb3b6p-1, 0x1.7ee7a919e3aebp-1, 0x1.7dcfa4a5004f4p-1, 0x1.7d00c128d1dc2p-1,
    0x1.7bd852cdec348p-1, 0x1.7af195523adc6p-1, 0x1.79f66d878bbe4p-1, 0x1.78f18ea672671p-1,
    0x1.77daa5b035eaep-1, 0x1.7610dbb243827p-1, 0x1.74da9db5b709ep-1, 0x1.74031f698298bp-1,
};
static const double vm_log_tab_hi[256] = {
    -0x1.7bede0a37afc0p-2, -0x1.792a55fdd47a2p-2, -0x1.7664e1239dbcfp-2, -0x1.739d7f6bbd007p-2,
    -0x1.70d42e2789236p-2, -0x1.6e08eaa2ba1e4p-2, -0x1.6b3bb2235943ep-2, -0x1.686c81e9b14afp-2,
    -0x1.659b57303e1f3p-2, -0x1.62c82f2b9c795p-2, -0x1.5ff3070a793d4p-2, -0x1.5d1bdbf5809cap-2,
    -0x1.5a42ab0f4cfe2p-2, -0x1.5767717455a6cp-2, -0x1.548a2c3add263p-2, -0x1.51aad872df82dp-2,
    -0x1.4ec973260026ap-2, -0x1.4be5f957778a1p-2, -0x1.49006804009d1p-2, -0x1.4618bc21c5ec2p-2,
    -0x1.432ef2a04e814p-2, -0x1.404308686a7e4p-2, -0x1.404308686a7e4p-2, -0x1.3d54fa5c1f710p-2,
    -0x1.3a64c556945eap-2, -0x1.3772662bfd85bp-2, -0x1.347dd9a987d55p-2, -0x1.31871c9544185p-2,
    -0x1.2e8e2bae11d31p-2, -0x1.2b9303ab89d25p-2, -0x1.2895a13de86a3p-2, -0x1.2596010df763ap-2,
    -0x1.22941fbcf7966p-2, -0x1.22941fbcf7966p-2, -0x1.1f8ff9e48a2f3p-2, -0x1.1c898c16999fbp-2,
    -0x1.1980d2dd4236fp-2, -0x1.1675cababa60ep-2, -0x1.136870293a8b0p-2, -0x1.1058bf9ae4ad5p-2,
    -0x1.1058bf9ae4ad5p-2, -0x1.0d46b579ab74bp-2, -0x1.0a324e27390e3p-2, -0x1.071b85fcd590dp-2,
    -0x1.0402594b4d041p-2, -0x1.00e6c45ad501dp-2, -0x1.00e6c45ad501dp-2, -0x1.fb9186d5e3e2bp-3,
    -0x1.f550a564b7b37p-3, -0x1.ef0adcbdc5936p-3, -0x1.e8c0252aa5a60p-3, -0x1.e27076e2af2e6p-3,
    -0x1.e27076e2af2e6p-3, -0x1.dc1bca0abec7dp-3, -0x1.d5c216b4fbb91p-3, -0x1.cf6354e09c5dcp-3,
    -0x1.c8ff7c79a9a22p-3, -0x1.c8ff7c79a9a22p-3, -0x1.c2968558c18c1p-3, -0x1.bc286742d8cd6p-3,
    -0x1.b5b519e8fb5a4p-3, -0x1.b5b519e8fb5a4p-3, -0x1.af3c94e80bff3p-3, -0x1.a8becfc882f19p-3,
    -0x1.a23bc1fe2b563p-3, -0x1.a23bc1fe2b563p-3, -0x1.9bb362e7dfb83p-3, -0x1.9525a9cf456b4p-3,
    -0x1.8e928de886d41p-3, -0x1.8e928de886d41p-3, -0x1.87fa06520c911p-3, -0x1.815c0a14357ebp-3,
    -0x1.7ab890210d909p-3, -0x1.7ab890210d909p-3, -0x1.740f8f54037a5p-3, -0x1.6d60fe719d21dp-3,
    -0x1.6d60fe719d21dp-3, -0x1.66acd4272ad51p-3, -0x1.5ff3070a793d4p-3, -0x1.59338d9982086p-3,
    -0x1.59338d9982086p-3, -0x1.526e5e3a1b438p-3, -0x1.4ba36f39a55e5p-3, -0x1.4ba36f39a55e5p-3,
    -0x1.44d2b6ccb7d1ep-3, -0x1.3dfc2b0ecc62ap-3, -0x1.3dfc2b0ecc62ap-3, -0x1.371fc201e8f74p-3,
    -0x1.303d718e47fd3p-3, -0x1.303d718e47fd3p-3, -0x1.29552f81ff523p-3, -0x1.2266f190a5acbp-3,
    -0x1.2266f190a5acbp-3, -0x1.1b72ad52f67a0p-3, -0x1.14785846742acp-3, -0x1.14785846742acp-3,
    -0x1.0d77e7cd08e59p-3, -0x1.0671512ca596ep-3, -0x1.0671512ca596ep-3, -0x1.fec9131dbeabbp-4,
    -0x1.f0a30c01162a6p-4, -0x1.f0a30c01162a6p-4, -0x1.e27076e2af2e6p-4, -0x1.d4313d66cb35dp-4,
    -0x1.d4313d66cb35dp-4, -0x1.c5e548f5bc743p-4, -0x1.c5e548f5bc743p-4, -0x1.b78c82bb0eda1p-4,
    -0x1.a926d3a4ad563p-4, -0x1.a926d3a4ad563p-4, -0x1.9ab42462033adp-4, -0x1.8c345d6319b21p-4,
    -0x1.8c345d6319b21p-4, -0x1.7da766d7b12cdp-4, -0x1.7da766d7b12cdp-4, -0x1.6f0d28ae56b4cp-4,
    -0x1.60658a93750c4p-4, -0x1.60658a93750c4p-4, -0x1.51b073f06183fp-4, -0x1.51b073f06183fp-4,
    -0x1.42edcbea646f0p-4, -0x1.42edcbea646f0p-4, -0x1.341d7961bd1d1p-4, -0x1.253f62f0a1417p-4,
    -0x1.253f62f0a1417p-4, -0x1.16536eea37ae1p-4, -0x1.16536eea37ae1p-4, -0x1.075983598e471p-4,
    -0x1.f0a30c01162a6p-5, -0x1.f0a30c01162a6p-5, -0x1.d276b8adb0b52p-5, -0x1.d276b8adb0b52p-5,
    -0x1.b42dd711971bfp-5, -0x1.b42dd711971bfp-5, -0x1.95c830ec8e3ebp-5, -0x1.95c830ec8e3ebp-5,
    -0x1.77458f632dcfcp-5, -0x1.58a5bafc8e4d5p-5, -0x1.58a5bafc8e4d5p-5, -0x1.39e87b9febd60p-5,
    -0x1.39e87b9febd60p-5, -0x1.1b0d98923d980p-5, -0x1.1b0d98923d980p-5, -0x1.f829b0e783300p-6,
    -0x1.f829b0e783300p-6, -0x1.b9fc027af9198p-6, -0x1.b9fc027af9198p-6, -0x1.7b91b07d5b11bp-6,
    -0x1.7b91b07d5b11bp-6, -0x1.3cea44346a575p-6, -0x1.3cea44346a575p-6, -0x1.fc0a8b0fc03e4p-7,
    -0x1.fc0a8b0fc03e4p-7, -0x1.7dc475f810a77p-7, -0x1.7dc475f810a77p-7, -0x1.fe02a6b106789p-8,
    -0x1.fe02a6b106789p-8, -0x1.ff00aa2b10bc0p-9, -0x1.ff00aa2b10bc0p-9, 0x0.0p+0,
    0x1.0080559588b35p-8, 0x1.010157588de71p-7, 0x1.82448a388a2aap-7, 0x1.0205658935847p-6,
    0x1.432a925980cc1p-6, 0x1.8492528c8cabfp-6, 0x1.c63d2ec14aaf2p-6, 0x1.0415d89e74444p-5,
    0x1.149e3e4005a8dp-5, 0x1.35c8bfaa1306bp-5, 0x1.5715c4c03ceefp-5, 0x1.788595a3577bap-5,
    0x1.9a187b573de7cp-5, 0x1.bbcebfc68f420p-5, 0x1.ccb73cdddb2ccp-5, 0x1.eea31c006b87cp-5,
    0x1.08598b59e3a07p-4, 0x1.1973bd1465567p-4, 0x1.2207b5c78549ep-4, 0x1.333d7f8183f4bp-4,
    0x1.4485e03dbdfadp-4, 0x1.55e10050e0384p-4, 0x1.5e95a4d9791cbp-4, 0x1.700d30aeac0e1p-4,
    0x1.8197e2f40e3f0p-4, 0x1.8a6477a91dc29p-4, 0x1.9c0c32d4d2548p-4, 0x1.a4e7640b1bc38p-4,
    0x1.b6ac88dad5b1cp-4, 0x1.c885801bc4b23p-4, 0x1.d179788219364p-4, 0x1.e3707ee30487bp-4,
    0x1.ec739830a1120p-4, 0x1.fe89139dbd566p-4, 0x1.08598b59e3a07p-3, 0x1.0ce7ecdccc28dp-3,
    0x1.160c8024b27b1p-3, 0x1.1aa2b7e23f72ap-3, 0x1.23d712a49c202p-3, 0x1.28753bc11aba5p-3,
    0x1.31b994d3a4f85p-3, 0x1.365fcb0159016p-3, 0x1.3fb45a59928ccp-3, 0x1.4462b9dc9b3dcp-3,
    0x1.4dc7b897bc1c8p-3, 0x1.527e5e4a1b58dp-3, 0x1.5737cc9018cddp-3, 0x1.60b3100b09476p-3,
    0x1.6574ebe8c133ap-3, 0x1.6f0128b756abcp-3, 0x1.73cb9074fd14dp-3, 0x1.7898d85444c73p-3,
    0x1.823c16551a3c2p-3, 0x1.871213750e994p-3, 0x1.90c6db9fcbcd9p-3, 0x1.95a5adcf7017fp-3,
    0x1.9a8778debaa38p-3, 0x1.a454082e6ab05p-3, 0x1.a93ed3c8ad9e3p-3, 0x1.ae2ca6f672bd4p-3,
    0x1.b811730b823d2p-3, 0x1.bd087383bd8adp-3, 0x1.c2028ab17f9b4p-3, 0x1.c6ffbc6f00f71p-3,
    0x1.d1037f2655e7bp-3, 0x1.d60a17f903515p-3, 0x1.db13db0d48940p-3, 0x1.e020cc6235ab5p-3,
    0x1.ea4449f04aaf5p-3, 0x1.ef5ade4dcffe6p-3, 0x1.f474b134df229p-3, 0x1.f991c6cb3b379p-3,
    0x1.01eae5626c691p-2, 0x1.047e60cde83b8p-2, 0x1.07138604d5862p-2, 0x1.09aa572e6c6d4p-2,
    0x1.0c42d676162e3p-2, 0x1.1178e8227e47cp-2, 0x1.14167ef367783p-2, 0x1.16b5ccbacfb73p-2,
    0x1.1956d3b9bc2fap-2, 0x1.1bf99635a6b95p-2, 0x1.1e9e1678899f4p-2, 0x1.214456d0eb8d4p-2,
    0x1.269621134db92p-2, 0x1.2941afb186b7cp-2, 0x1.2bef07cdc9354p-2, 0x1.2e9e2bce12286p-2,
    0x1.314f1e1d35ce4p-2, 0x1.3401e12aecba1p-2, 0x1.36b6776be1117p-2, 0x1.396ce359bbf54p-2,
    0x1.3c25277333184p-2, 0x1.419b423d5e8c7p-2, 0x1.44591e0539f49p-2, 0x1.4718dc271c41bp-2,
};


/* x (> 0, finite; subnormals scaled by 2**54 first where subn) = 2**k z, z
 * in the i-th interval of the tables (returned); r = z/c - 1 exactly, |r| <
 * 2**-8.4; *cl = log(c)'s low part (-lo). */
static inline uint64_t vm_log_tab_reduce(double x, double *k, double *r, double *cl, int subn)
{
    int sub = subn & (x < 0x1p-1022);
    double m = sub ? x * 0x1p54 : x;
    uint64_t ix = vm_bits(m);
    uint64_t tmp = ix - 0x3fe6080000000000u;
    uint64_t i = (tmp >> 44) & 255u;
    /* kk = k + 1024, kept non-negative so that a logical shift gives it */
    uint64_t kk = (tmp + (1024ull << 52)) >> 52;
    double z = vm_from_bits(ix - (kk << 52) + (1024ull << 52));
    *k = (vm_from_bits(0x4330000000000000u | kk) - (0x1p52 + 1024.0)) - (sub ? 54.0 : 0.0);
    double t = vm_log_tab_c[i];
    double invc = (t + 0x1.8p43) - 0x1.8p43;
    *cl = (t - invc) * 0x1p-44;
    *r = vm_fma(z, invc, -1.0);
    return i;
}

/* log1p(r) - r + r*r/2 for |r| < 2**-8: r**3 (1/3 - r/4 + ... - r**5/8)
 * (Taylor: error below 2**-67 r) */
static inline double vm_log_poly(double r, double r2)
{
    return (r2 * r) * (vm_fma(r, -0.25, 1.0 / 3) + r2 * vm_fma(r, -1.0 / 6, 0.2)
           + (r2 * r2) * vm_fma(r, -0.125, 1.0 / 7));
}

/* log(x) = hi + *lo for a positive finite x, relative error below 2**-67:
 * log(x) = k ln2 - log(1/c) + log1p(r), the sums of the large terms (k ln2,
 * log c, r, r*r/2) in two parts. No division; two table lookups. subn = 0:
 * for a normal x only (no scaling of subnormals; the same bits). */
static inline VM_INLINE double vm_log_dd_(double x, double *lo, int subn)
{
    double k, cl, r;
    uint64_t i = vm_log_tab_reduce(x, &k, &r, &cl, subn);
    double r2e, r2 = vm_two_prod(r, r, &r2e);
    double we, w = vm_two_sum(k * VM_LN2_HI, vm_log_tab_hi[i], &we);
    double e1, h1 = vm_two_sum(w, r, &e1);
    double e2, h2 = vm_two_sum(h1, -0.5 * r2, &e2);
    double l = (we + e1 + e2) + (cl + k * VM_LN2_LO) + (vm_log_poly(r, r2) - 0.5 * r2e);
    double h = h2 + l;
    *lo = l - (h - h2);
    return h;
}
static inline double vm_log_dd(double x, double *lo) { return vm_log_dd_(x, lo, 1); }

/* log(x) = hi + *lo for a positive finite x, relative error about 2**-58,
 * table-free (the table's emulated gathers cost more than one division):
 * fdlibm's log(1 + f) = f - f*f/2 + s (f*f/2 + R(s*s)), s = f / (2 + f),
 * with f*f/2 exact in two parts (FMA) and the sums f - f*f/2 and k ln2 +
 * that in two parts. */
static inline double vm_log_hl(double x, double *lo)
{
    double k;
    double f = vm_log_reduce(x, &k);
    double s = f / (2.0 + f);
    double z = s * s;
    double w = z * z;
    double t1 = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01
                + w * 1.531383769920937332e-01));
    double t2 = z * (6.666666666666735130e-01 + w * (2.857142874366239149e-01
                + w * (1.818357216161805012e-01 + w * 1.479819860511658591e-01)));
    double he, h = vm_two_prod(0.5 * f, f, &he);
    double a = f - h;
    double ae = (f - a) - h;
    double be, b = vm_two_sum(k * VM_LN2_HI, a, &be);
    double l = (be + ae) + (vm_fma(s, h + (t1 + t2), k * VM_LN2_LO) - he);
    double v = b + l;
    *lo = l - (v - b);
    return v;
}

/* s = f / (2 + f) as s + *sl (2 + f kept in two parts): float64 log's and
 * log10's reduced argument, log(1 + f) = 2 atanh(s) */
static inline double vm_log_s(double f, double *sl)
{
    double d = 2.0 + f;
    double dl = (2.0 - d) + f;
    return vm_quot_hl(f, d, dl, sl);
}

/* log(x) = b + *lo (b = k ln2 + 2s rounded, *lo the rest) for a positive
 * finite x = 2**k (1 + f) (vm_log_reduce), table-free: log(1 + f) = 2
 * atanh(s), s = f / (2 + f) = s + sl (vm_log_s), 2 atanh(s) = 2s +
 * 2s**3/3 + 2s**5 Q(s*s), Q of degree 6 fit by mpmath (relative error
 * below 2**-66; its pairs of terms in z = s*s by Horner's rule in z*z, and
 * the small terms added into FMAs: 10% less time than sums of products),
 * k ln2 + 2s summed exactly (a fast two-sum), 2s**3 (1/3 + z Q) (below 2%
 * of the result) and the rest rounded: about 0.02 ulp before the last
 * rounding. */
static inline double vm_log_bl(double f, double k, double *lo)
{
    double sl, s = vm_log_s(f, &sl);
    double u = 2.0 * s;
    double z = s * s;
    double v = u * z;
    double w = z * z;
    double q = vm_fma(w, vm_fma(w, vm_fma(w, 0x1.0e40de89f8460p-4, vm_fma(z, 0x1.0f801d58e6d76p-4, 0x1.3b1ee9bb91e75p-4)),
                      vm_fma(z, 0x1.745ce9f0b1404p-4, 0x1.c71c722d3df2bp-4)), vm_fma(z, 0x1.2492492457f3bp-3, 0x1.9999999999b2fp-3));
    double kh = k * VM_LN2_HI;
    double b = kh + u;
    *lo = ((kh - b) + u) + vm_fma(v, vm_fma(z, q, 0x1.5555555555555p-2),
                                  vm_fma(k, VM_LN2_LO, vm_fma(2.0 * sl, z, 2.0 * sl)));
    return b;
}

/* log(x) = hi + *lo (hi the rounded sum) from vm_log_bl's parts */
static inline double vm_log_at_fk(double f, double k, double *lo)
{
    double l, b = vm_log_bl(f, k, &l);
    double h = b + l;
    *lo = l - (h - b);
    return h;
}

/* log10(x) for x = 2**k (1 + f) (vm_log_reduce), in log10's own units
 * rather than log's times 1/ln10: s + sl = f / (2 + f) as in vm_log_bl,
 * log10(1 + f) = (2/ln10) atanh(s) = c s + c s**3/3 + c s**5 Q(s*s), c =
 * 2/ln10 = ch + cl, c folded into Q's coefficients and 1/3. k log10(2) =
 * kh + k L, kh = k times log10(2) to 42 bits (exact). b = kh + s ch
 * rounded by one fma and its error (kh - b) + s ch by another (kh - b is
 * exact: |s ch| <= 0.149 < |kh|/2 unless k = 0), in place of a
 * two-product and a two-sum; the small terms (s cl, c sl (1 + s*s), k L,
 * c s**3/3 and up) rounded with that error, then the one rounding: 0.515
 * ulp on 1.6e7 samples, 0.52 where |s| is largest (NumPy 0.596). */
static inline double vm_log10_fk(double f, double k)
{
    const double ch = 0x1.bcb7b1526e50ep-1, cl = 0x1.95355baaafad3p-56;
    double sl, s = vm_log_s(f, &sl);
    double z = s * s;
    double v = s * z;
    double w = z * z;
    double q = vm_fma(w, vm_fma(w, vm_fma(w, 0x1.d57a6d883e53dp-5, vm_fma(z, 0x1.d7a5038a2b3d4p-5, 0x1.11b5dd601eb77p-4)),
                      vm_fma(z, 0x1.436e2b0a69391p-4, 0x1.8b4df34ca5fa1p-4)), vm_fma(z, 0x1.fc3fa614ab066p-4, 0x1.63c6277525238p-3));
    double kh = k * 0x1.34413509f78p-2;
    double b = vm_fma(s, ch, kh);
    double bl = vm_fma(s, ch, kh - b);
    double c2 = ch * sl;
    double l = bl + vm_fma(v, vm_fma(z, q, 0x1.287a7636f435fp-2),
                           vm_fma(k, 0x1.fef311f12b358p-46, vm_fma(c2, z, vm_fma(s, cl, c2))));
    return b + l;
}

static inline double vm_log_at(double x, double *lo)
{
    double k;
    double f = vm_log_reduce(x, &k);
    return vm_log_at_fk(f, k, lo);
}

static inline double ars_log(double x)
{
    double lo;
    return vm_log_special(x, vm_log_at(x, &lo));
}

/* (hi + lo) times ch + cl, rounded once */
static inline double vm_log_mul(double hi, double lo, double ch, double cl)
{
    double pe, p = vm_two_prod(hi, ch, &pe);
    return p + (pe + vm_fma(hi, cl, lo * ch));
}

/* log(x) (hi + lo) times 1/ln2 or 1/ln10 (ch + cl), rounded once */
static inline double vm_log_times(double x, double hi, double lo, double ch, double cl)
{
    return vm_log_special(x, vm_log_mul(hi, lo, ch, cl));
}

/* log2 through the table's double-double log (slower than vm_log_hl, whose
 * error log2's multiplication by 1/ln2 magnifies: 0.67 ulp against 0.50) */
static inline double ars_log2(double x)
{
    double lo, hi = vm_log_dd(x, &lo);
    return vm_log_times(x, hi, lo, 0x1.71547652b82fep+0, 0x1.777d0ffda0d24p-56);
}

static inline double ars_log10(double x)
{
    double k;
    double f = vm_log_reduce(x, &k);
    return vm_log_special(x, vm_log10_fk(f, k));
}

/* ars_log and ars_log10 for a normal positive finite x, without the
 * selects of subnormals and special values: the same bits. The float64
 * loops run these, then a second pass redoes the other elements by ars_log
 * and ars_log10. */
static inline double vm_log_core(double x)
{
    double k, lo;
    double f = vm_log_reduce_m(x, &k, 0);
    return vm_log_at_fk(f, k, &lo);
}

static inline double vm_log10_core(double x)
{
    double k;
    double f = vm_log_reduce_m(x, &k, 0);
    return vm_log10_fk(f, k);
}

/* ---- sin, cos, tan ------------------------------------------------------------- */

/* Beyond this size the reduction below is no longer exact: a second pass
 * (ew_loops.h's UNARY_KERNEL) takes the C library's sin, cos and tan there. */
#define VM_TRIG_MAX 0x1p20

/* x - n pi/2 = r + *rl exactly enough for |x| <= VM_TRIG_MAX, n the nearest
 * integer to x 2/pi (n mod 4 in *q's low bits): pi/2 in three parts of 53
 * bits; n * the first is subtracted exactly by one fma, n * the second as an
 * exact product (two_prod by fma) and an exact sum (two_sum), the third
 * only approximately (|n * it| < 2**-88). */
static inline double vm_reduce_pio2(double x, double *rl, uint64_t *q)
{
    double kd = vm_fma(x, 0x1.45f306dc9c883p-1, VM_SHIFT);
    *q = vm_bits(kd);
    double n = kd - VM_SHIFT;
    double r1 = vm_fma(n, -0x1.921fb54442d18p+0, x);
    double t = n * 0x1.1a62633145c07p-54;
    double te = vm_fma(n, 0x1.1a62633145c07p-54, -t);
    double r = r1 - t;
    double bb = r - r1;
    double e = (r1 - (r - bb)) - (t + bb);
    *rl = vm_fma(n, 0x1.f1976b7ed8fbcp-110, e - te);
    return r;
}

/* sin(r + rl) (odd = 0) or cos(r + rl) (odd = 1), |r| <= pi/4 + a
 * little, rounded once: both as b (1 + k1 z + k2 z*z + z**3 K(z)), z =
 * r*r, b = r or 1, the coefficients selected per lane (one polynomial
 * evaluated, not two): sin r = r - r**3/6 + r**5 (k2 + r*r P(r*r)), -1/6
 * in two parts and the polynomial of degree 5 in r*r fit by mpmath
 * (relative error below 2**-68); cos r = 1 - r*r/2 + r**4 (k2 + r*r
 * Q(r*r)), Q of degree 4 (2**-63.9); b z, b z*z and their products by
 * k1 and k2 exact by fma, the sums b + b k1 z + b k2 z*z exact (fast
 * two-sums); rl enters as rl cos r or -rl sin r. */
static inline double vm_sin_or_cos(double r, double rl, uint64_t odd)
{
    double z = r * r;
    double zl = vm_fma(r, r, -z);
    double v = r * z;
    double vl = vm_fma(r, zl, vm_fma(r, z, -v));
    double b = odd ? 1.0 : r;
    double m1 = odd ? z : v;
    double m1l = odd ? zl : vl;
    double k1h = odd ? -0.5 : -0x1.5555555555555p-3;
    double k1l = odd ? 0.0 : -0x1.5555555555555p-57;
    double k2 = odd ? 0x1.555555555554bp-5 : 0x1.111111111110fp-7;
    double k3 = odd ? -0x1.6c16c16c15012p-10 : -0x1.a01a01a01944cp-13;
    double k4 = odd ? 0x1.a01a019c8ea04p-16 : 0x1.71de3a53e0635p-19;
    double k5 = odd ? -0x1.27e4f7f10f436p-22 : -0x1.ae645356afbccp-26;
    double k6 = odd ? 0x1.1ee9db633cedbp-29 : 0x1.6120feda32310p-33;
    double k7 = odd ? -0x1.8fa64419ee591p-37 : -0x1.aad5be6ce507dp-41;
    double w = z * z;
    double kp = vm_fma(z, k4, k3) + w * (vm_fma(z, k6, k5) + w * k7);
    double t = m1 * k1h;
    double s0 = b + t;
    double m2 = m1 * z;
    double m2l = vm_fma(m1, z, -m2) + vm_fma(m1, zl, m1l * z);
    double t4 = m2 * k2;
    double s1 = s0 + t4;
    double g = odd ? -vm_fma(v, -0x1.5555555555555p-3, r) : vm_fma(w, 0x1.5555555555555p-5, vm_fma(z, -0.5, 1.0));
    double tl = (((b - s0) + t) + ((s0 - s1) + t4))
                + ((vm_fma(m1, k1h, -t) + vm_fma(m1l, k1h, m1 * k1l))
                + (vm_fma(m2, k2, -t4) + vm_fma(m2l, k2, rl * g)) + (m2 * z) * kp);
    return s1 + tl;
}

/* sin (q0 = 0) or cos (q0 = 1) of x, |x| <= VM_TRIG_MAX: +-sin or +-cos of
 * the reduced argument by the quadrant n + q0. */
static inline double vm_sincos(double x, uint64_t q0)
{
    double rl;
    uint64_t q;
    double r = vm_reduce_pio2(x, &rl, &q);
    q += q0;
    double v = vm_sin_or_cos(r, rl, q & 1);
    v = vm_from_bits(vm_bits(v) ^ ((q & 2) << 62));  /* negated where q & 2 */
    return ((q0 == 0) & (x == 0)) ? x : v;  /* sin(-0) = -0 */
}

static inline double ars_sin(double x) { return vm_sincos(x, 0); }
static inline double ars_cos(double x) { return vm_sincos(x, 1); }

/* ---- float64: tan, expm1, tanh, sinh, cosh, log1p, asinh, acosh, atanh,
 * atan, asin, acos, atan2 ------------------------------------------------------- */

#define VM_PI_HI 3.14159265358979311600e+00
#define VM_PIO2_HI 1.57079632679489655800e+00
#define VM_PIO2_LO 6.12323399573676603587e-17
#define VM_PIO4_HI 7.85398163397448278999e-01

/* e**x = (s + *t) * 2**k for |x| <= 711, the parts as in vm_exp_xl:
 * 2**(j/128) e**r = h (1 + l) (1 + r + P), with r = r0 + rm and 1 + l + r
 * + P in two parts (|l| < 2**-53, |r| < 2**-8); s = h + h u rounded (in [1,
 * 2]), *t the rest. Relative error about 2**-68. */
static inline double vm_exp_dd(double x, double *t, double *k)
{
    double r0, rm, e;
    uint64_t j = vm_exp_reduce(x, &r0, &rm, &e);
    double rl, r = vm_two_sum(r0, rm, &rl);
    double h = vm_exp_tab_hi[j], l = vm_exp_tab_lo[j];
    double c = vm_exp_poly(r);
    double pl, p = vm_two_sum(r, c, &pl);
    double ul, u = vm_two_sum(p, l, &ul);
    ul += pl + rl + l * p;
    double hl, hu = vm_two_prod(h, u, &hl);
    hl = vm_fma(h, ul, hl);
    double s = h + hu;
    *t = ((h - s) + hu) + hl;
    *k = e;
    return s;
}

/* e**x - 1 = hi + *lo, hi the rounded sum, for -40 <= x <= 710 */
static inline double vm_expm1_dd(double x, double *lo)
{
    double t, k, s = vm_exp_dd(x, &t, &k);
    /* 2**k s - 1 + 2**k t; 2**k is a normal number for -58 <= k <= 56,
     * beyond that the -1 is below half an ulp and joins t */
    double p = vm_pow2(k > 56.0 ? 0.0 : k);
    double e, d = vm_two_sum(s * p, -1.0, &e);
    double w = t * p + e;
    double h = vm_two_sum(d, w, &e);
    double big = vm_scale(s + (t - vm_pow2(-(k < 1000.0 ? k : 1000.0))), k);
    *lo = k > 56.0 ? 0.0 : e;
    return k > 56.0 ? big : h;
}

static inline double ars_expm1(double x)
{
    /* e**x - 1 rounds to -1 below -38, overflows above 709.79; NaN passes */
    double xc = x < -40.0 ? -40.0 : x > 710.0 ? 710.0 : x;
    double lo, v = vm_expm1_dd(xc, &lo);
    /* below 2**-35 x + x*x/2 (the two parts' absolute error, 2**-106, is
     * too much there); -0 stays -0 */
    v = fabs(x) < 0x1p-35 ? vm_fma(x, 0.5 * x, x) : v;
    return x == 0 ? x : v;
}

static inline double ars_tanh(double x)
{
    /* From 1/8 on, tanh a = 1 - 2 / (E + 1), a = |x| (clamped to 22, where
     * tanh rounds to 1), E = e**(2a) = (eh + el) 2**e from vm_exp_hl (its
     * sum y = h + h lp and y's rounding error), the quotient q = 2 / (E + 1)
     * as qh + 2 rl (the residual of qh by fma, divided by E + 1 as a product
     * with 1 / (E + 1), in the FMA that adds it to 1 - qh's rounding error;
     * E's low part joins E + 1's in an FMA too), 1 - qh in two parts:
     * rounded once. Below 1/8 a +
     * a**3 P(a**2), Taylor's series to a**17 (truncation below 2**-60 a), by
     * Estrin's scheme. */
    double a = fabs(x), ac = a > 22.0 ? 22.0 : a;
    struct vm_exp_parts q = vm_exp_hl(ac + ac, 0.0);
    double yl, y = vm_exp_y(q, &yl);
    double sc = vm_exp_scale(q);
    double eh = y * sc;
    double dh = eh + 1.0;
    double dl = vm_fma(yl, sc, (eh - dh) + 1.0);
    double rc = 1.0 / dh;
    double qh = rc + rc;
    double res = vm_fma(-qh, dl, vm_fma(-qh, dh, 2.0));
    double s = 1.0 - qh;
    double e = (1.0 - s) - qh;
    double v = s + vm_fma(-res, rc, e);
    double z = a * a, z2 = z * z;
    double p01 = vm_fma(z, 2.0 / 15.0, -1.0 / 3.0), p23 = vm_fma(z, 62.0 / 2835.0, -17.0 / 315.0);
    double p45 = vm_fma(z, 21844.0 / 6081075.0, -1382.0 / 155925.0);
    double p67 = vm_fma(z, 6404582.0 / 10854718875.0, -929569.0 / 638512875.0);
    double p = vm_fma(z2 * z2, vm_fma(z2, p67, p45), vm_fma(z2, p23, p01));
    double w = vm_fma(a * z, p, a);
    return copysign(a < 0.125 ? w : v, x);
}

/* sinh (sg = -1) and cosh (sg = 1) of a = |x| >= 0.34: e**a / 2 = (s + t)
 * 2**(k-1) (vm_exp_hl's y = h (1 + lp) and its rounding error), e**-a / 2 = 2**(-k-1) / (s + t) (s + t as dh + dl, 1 / (dh +
 * dl) ~ (1 - dl/dh) / dh); rounded once, in the sum of the parts scaled by
 * 2**(1-k). a is clamped
 * to 710.5 (both overflow from 710.48). */
static inline double vm_cosh_sinh(double a, double sg)
{
    double ac = a > 710.5 ? 710.5 : a;
    struct vm_exp_parts q = vm_exp_hl(ac, 0.0);
    double t, s = vm_exp_y(q, &t);
    /* e from the low 12 bits of eb, two's complement */
    double k = vm_from_bits(0x4330000000000000u | ((q.eb + 2048u) & 0xfffu)) - (0x1p52 + 2048.0);
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

/* log(u) + c / u + kadd ln2 for u > 0 (vm_log_hl; as fdlibm's s_log1p.c, c
 * is the rounding error of u = 1 + x), and log's special values of u */
static inline double vm_log_c(double u, double c, double kadd)
{
    double lo, hi = vm_log_hl(u, &lo);
    /* kadd is 0 or 1, and 1 only for u > 2**28: |hi| > ln2 (Fast2Sum) */
    double a = kadd * VM_LN2_HI;
    double b = hi + a;
    double v = b + ((((hi - b) + a) + lo) + (c / u + kadd * VM_LN2_LO));
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
    /* below 2**-20 x - x*x/2 + x**3/3 (error < 2**-62 x) */
    double v = vm_log1p(x, 0.0);
    v = fabs(x) < 0x1p-20 ? vm_fma(x * x, vm_fma(x, 1.0 / 3, -0.5), x) : v;
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

/* asinh and acosh as fdlibm's s_asinh.c and e_acosh.c, but with log1p's
 * argument in two parts (the rounding errors of its sums, square root and
 * quotient kept), which takes their error from about 2 ulp to 1. */

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

/* atanh a = log(u) / 2, u = (1 + a) / (1 - a) = 2**k (1 + f), f / (2 + f)
 * = s: atanh a = k ln2/2 + atanh s, atanh s = s + s R(s*s) / 2. k =
 * round(log2 u) estimated from the bits of A = 1 + a and B = 1 - a (their
 * difference is log2 u within 0.087 in units of the exponent: no division
 * on the way to s), which leaves |s| <= 0.2007; R(z) = z Q(z), Q of
 * degree 7 fit by mpmath on z <= 0.0406 (z (Q - Q*) / 2 below 2**-61.3).
 * s = N / D straight from a, N = A - 2**k B (exact but for the parts' low
 * parts), D = A + 2**k B, each in two parts, the quotient as sh + sl (one
 * division and its fma residual). atanh(sh + sl) = atanh(sh) + sl (1 +
 * z), z = sh*sh (the sl z term reaches 0.06 ulp); Q/2 = 1/3 + z Q1(z),
 * the constant added last (z/3 + z*z Q1 by one fma: the roundings of Q's
 * partial sums, near 2/3, cost 0.03 ulp at |s| = 0.2). Before the last
 * rounding the error is below 0.016 ulp (1.6e7 samples and the cuts of k:
 * 0.515 ulp). vm_atanh_core: for 2**-28 <= |x| < 1
 * (the float64 loop runs it, then a second pass redoes the other elements
 * by ars_atanh); ars_atanh: |x| = 1 gives inf, |x| > 1
 * NaN, a below 2**-28 x. */
static inline double vm_atanh_core(double x)
{
    double a = fabs(x);
    double A = 1.0 + a, Al = (1.0 - A) + a;
    double B = 1.0 - a, Bl = (1.0 - B) - a;
    /* t's exponent field k + 1023 (A >= B: the difference of the bits is
     * not negative): P = 2**k by a mask, k by the usual 2**52 + int trick */
    uint64_t t = vm_bits(A) - vm_bits(B) + (1ull << 51) + (1023ull << 52);
    double P = vm_from_bits(t & 0x7ff0000000000000ull);
    double k = vm_from_bits(0x4330000000000000u | (t >> 52)) - (0x1p52 + 1023.0);
    double pb = P * B;
    double nh = A - pb;
    double nl = Al - P * Bl;
    double dl, dh = vm_two_sum(A, pb, &dl);
    dl += Al + P * Bl;
    double rc = 1.0 / dh;
    double sh = nh * rc;
    double sl = ((vm_fma(-sh, dh, nh) + nl) - sh * dl) * rc;
    double z = sh * sh;
    double w = z * z;
    /* Q1 by Estrin's scheme (a short dependency chain), r = z Q(z) / 2 */
    double q12 = vm_fma(z, 0x1.24924921a36d5p-3, 0x1.999999999c619p-3);
    double q34 = vm_fma(z, 0x1.745c3ea1a988ep-4, 0x1.c71c74c625d6ep-4);
    double q56 = vm_fma(z, 0x1.0db2e1b3c719ap-4, 0x1.3b37434ff4609p-4);
    double q1 = vm_fma(w * w, vm_fma(w, 0x1.1c24f95245d58p-4, q56), vm_fma(w, q34, q12));
    double r = vm_fma(z, 0x1.555555555554ep-2, w * q1);
    double kh = k * (0.5 * VM_LN2_HI);
    double b = kh + sh;
    double v = b + (((kh - b) + sh) + vm_fma(sh, r, vm_fma(sl, z, vm_fma(k, 0.5 * VM_LN2_LO, sl))));
    return copysign(v, x);
}

static inline double ars_atanh(double x)
{
    double a = fabs(x);
    double v = vm_atanh_core(x);
    double w = copysign(a == 1.0 ? (double)INFINITY : a > 1.0 ? (double)NAN : x + x, x);
    v = a < 1.0 ? v : w;
    return a < 0x1p-28 ? x : v;
}

/* ---- atan, atan2, asin, acos ----------------------------------------------------- */

/* P(z) = -1/3 + z Q(z), atan(r) = r + r**3 P(r*r) for |r| <= 0.2084 (float64
 * atan and atan2): Q of degree 6 fit by mpmath (relative error of atan below
 * 2**-61.6), by fmas in pairs of terms in z*z */
static inline double vm_atan_p(double z)
{
    double w = z * z;
    double q = vm_fma(w, vm_fma(w, vm_fma(w, 0x1.98afab147d3e4p-5, vm_fma(z, -0x1.0e56ef1194e1fp-4, 0x1.3af7aca1b5bd4p-4)),
                                vm_fma(z, -0x1.745c731eaba6fp-4, 0x1.c71c6fabcfcc2p-4)),
                      vm_fma(z, -0x1.24924922cfb07p-3, 0x1.99999999987acp-3));
    return vm_fma(z, q, -0x1.5555555555555p-2);
}

/* atan(a) = atan(c) + atan((a - c) / (1 + a c)) for c = 0, tan(pi/8),
 * 1, tan(3pi/8) (as doubles) and atan(a) = pi/2 + atan(-1 / a) from 4.8
 * on, which keeps the reduced argument |t| <= 0.2084. a - c is exact
 * (Sterbenz), 1 + a c is kept in two parts, and t = r + rl comes from one
 * reciprocal and an fma residual. atan(r + rl) = r + r**3 P(r*r) + rl (1
 * - r*r), P(z) = -1/3 + z Q(z) (vm_atan_p), r**3 in plain products;
 * atan(c) + r sums exactly, the rest rounds once: max error 0.534 ulp
 * (0.503 with r**3 and r**3/3 exact and summed in two parts, which cost a
 * fifth more time), NumPy's 0.576 on the same 5e6 arguments, most near the
 * top of c = 0's range. vm_atan_core: for |x| <= 2**1000 (the float64 loop
 * runs it, then a second pass redoes the other elements by ars_atan);
 * ars_atan caps |x| at 2**1000 so that infinity gives pi/2 (the cap's
 * select inside the core cost a fifth of its time). */
static inline VM_INLINE double vm_atan_core(double x)
{
    double a = fabs(x);
    double c = a >= 0.208 ? 0x1.a827999fcef32p-2 : 0.0;
    double hi = a >= 0.208 ? 0x1.921fb54442d18p-2 : 0.0;
    double lo = a >= 0.208 ? 0x1.c398861b78b55p-59 : 0.0;
    c = a >= 0.6682 ? 1.0 : c;
    hi = a >= 0.6682 ? 0x1.921fb54442d18p-1 : hi;
    lo = a >= 0.6682 ? 0x1.1a62633145c07p-55 : lo;
    c = a >= 1.4966 ? 0x1.3504f333f9de6p+1 : c;
    hi = a >= 1.4966 ? 0x1.2d97c7f3321d2p+0 : hi;
    lo = a >= 1.4966 ? 0x1.fc774dbe287a0p-56 : lo;
    double n = a >= 4.8 ? -1.0 : a - c;
    double one = a >= 4.8 ? 0.0 : 1.0;
    c = a >= 4.8 ? 1.0 : c;
    hi = a >= 4.8 ? 0x1.921fb54442d18p+0 : hi;
    lo = a >= 4.8 ? 0x1.1a62633145c07p-54 : lo;
    double pr = a * c;
    double dl, d = vm_two_sum(one, pr, &dl);
    dl += vm_fma(a, c, -pr);
    double rl, r = vm_quot_hl(n, d, dl, &rl);
    double z = r * r;
    double v = r * z;
    double pz = vm_atan_p(z);
    double s0 = hi + r;
    double tl = (lo + ((hi - s0) + r)) + vm_fma(v, pz, vm_fma(-rl, z, rl));
    return copysign(s0 + tl, x);
}

static inline double ars_atan(double x)
{
    return vm_atan_core(fabs(x) > 0x1p1000 ? copysign(0x1p1000, x) : x);
}

/* atan(mn / mx) + k pi/4 (0 <= mn <= mx, both finite, mx not 0 and below
 * 2**1001, above 2**-1001 or mn / mx negligible there, mn 0 or from
 * 2**-969 on, so that the quotient's fma residual stays a normal number, or
 * mn / mx below 2**-1300), atan's sign that of
 * sw * lf (each +-1): k = 0, 2 where sw < 0, 4 minus that where lf < 0.
 * atan(a), a = mn / mx <= 1, as atan(c) + atan(t), t = (mn - c mx) / (mx +
 * c mn), with c = 0, tan(pi/8) (as a double, T8) from a >= 0.208 and 1
 * from a >= 0.6682 on, as vm_atan_core does: |t| <= 0.2084. mn - c mx is
 * exact (Sterbenz) but for c mx's fma residual; mx + c mn is kept in two
 * parts (c mn's own rounding left: below 0.09 ulp); t = r + rl from one
 * reciprocal and an fma residual. atan(r + rl) = r + r**3 P(r*r) + rl (1 -
 * r*r), P (vm_atan_p) by fmas.
 * The constant k pi/4 +- j pi/8 (j = 0, 1, 2 with c) is m pi/8 for an
 * integer m <= 8, its high part m PIO8_HI exact (PIO8_HI has 50 bits);
 * atan(T8) - pi/8, for j = 1, joins rl through the numerator's low part.
 * m PIO8_HI and r sum exactly, the rest rounds once. Max error 0.567
 * ulp, 99.81% correctly rounded (1e7 pairs uniform in [-10, 10]**2, near
 * the cuts, near a = 1/2 and tiny a; NumPy 0.797 on the same pairs).
 * The cases are selects of computed values: written as selects of c, GCC
 * split c * mx by cases with mask arithmetic, 40% slower. */
__attribute__((always_inline)) static inline double vm_atan_mm(double mn, double mx, double sw, double lf)
{
    const double T8 = 0x1.a827999fcef32p-2, PIO8_HI = 0x1.921fb54442d18p-2, PIO8_LO = 0x1.1a62633145c07p-56;
    const double D1 = -0x1.c3dea4dbad538p-57; /* atan(T8) - pi/8 */
    int b1 = mn >= 0.208 * mx, b2 = mn >= 0.6682 * mx;
    /* p8l: T8 mx's rounding, and atan(T8) - pi/8 moved into t's low part
     * (t + D1 (1 + t*t) for D1: the product with t*t, below 0.02 ulp, left) */
    double p8 = T8 * mx, q8 = T8 * mn, p8l = vm_fma(-D1, mx + q8, vm_fma(T8, mx, -p8));
    double p = b1 ? p8 : 0.0, pl = b1 ? p8l : 0.0, cn = b1 ? q8 : 0.0;
    double j = b1 ? 1.0 : 0.0;
    p = b2 ? mx : p;
    pl = b2 ? 0.0 : pl;
    cn = b2 ? mn : cn;
    j = b2 ? 2.0 : j;
    double nh = mn - p;
    double dh = mx + cn;
    double dl = (mx - dh) + cn;
    double y = 1.0 / dh;
    double r = nh * y;
    double rl = vm_fma(-r, dl, vm_fma(-r, dh, nh) - pl) * y;
    double z = r * r;
    double pz = vm_atan_p(z);
    double sg = sw * lf;
    /* m = k * 2 + sg j, k * 2 = 4 - 2 (lf + sg) */
    double m = vm_fma(sg, j, vm_fma(-2.0, lf + sg, 4.0));
    double bh = m * PIO8_HI;
    double bl = m * PIO8_LO;
    double rs = sg * r;
    double sh = bh + rs;
    return sh + ((bl + ((bh - sh) + rs)) + sg * vm_fma(r * z, pz, vm_fma(-rl, z, rl)));
}

/* atan2 through vm_atan_mm, with the magnitudes scaled by one power of 2:
 * by 2**-600 where the larger is beyond 2**1000, by 2**600 where the
 * smaller is below 2**-969 and the larger at most 2**400 (both exact: a
 * subnormal smaller magnitude becomes normal, and the quotient's residual
 * keeps its bits); then C99 Annex F's special values:
 * both 0 give 0, both infinite pi/4, y infinite pi/2, x infinite 0; pi
 * minus those where x's sign bit is set, then y's sign. Forced inline: GCC's
 * size limit kept it a call in ew_binary_float.c, and the loop scalar. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline double ars_atan2(double y, double x)
{
    double ay = fabs(y), ax = fabs(x);
    double lf = (int64_t)vm_bits(x) < 0 ? -1.0 : 1.0;
    double mn = ay > ax ? ax : ay, mx = ay > ax ? ay : ax;
    double pre = mx > 0x1p1000 ? 0x1p-600 : 1.0;
    pre = ((mn < 0x1p-969) & (mx <= 0x1p400)) ? 0x1p600 : pre;
    double v = vm_atan_mm(mn * pre, mx * pre, ay > ax ? -1.0 : 1.0, lf);
    double w = ay == (double)INFINITY ? (ax == (double)INFINITY ? 7.85398163397448278999e-01 : VM_PIO2_HI) : 0.0;
    w = lf < 0 ? VM_PI_HI - w : w;
    w = ((ay == (double)INFINITY) & (ax == (double)INFINITY) & (lf < 0)) ? 2.356194490192344837e+00 : w;
    int special = (((ay == 0) & (ax == 0)) | (ay == (double)INFINITY) | (ax == (double)INFINITY))
                  & (ay == ay) & (ax == ax);
    v = copysign(special ? w : v, y);
    /* a NaN argument's own payload, x's before y's (as the C library's x +
     * y): the arithmetic's choice between two NaNs follows operand order,
     * which differs between the compiler's scalar and vector code */
    v = y != y ? y + y : v;
    return x != x ? x + x : v;
}

/* fdlibm's e_asin.c and e_acos.c: asin(t) - t as t*t*p(t*t)/q(t*t) for |t| <
 * 0.5 (p/q: R below), and from 0.5 on through sqrt((1 - |x|)/2); p, with q
 * in *q, by Horner's rule in FMAs */
static inline double vm_asin_pq(double t, double *q)
{
    *q = vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, 7.70381505559019352791e-02, -6.88283971605453293030e-01),
                2.02094576023350569471e+00), -2.40339491173441421878e+00), 1.0);
    return t * vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, 3.47933107596021167570e-05,
               7.91534994289814532176e-04), -4.00555345006794114027e-02), 2.01212532134862925881e-01),
               -3.25565818622400915405e-01), 1.66666666666666657415e-01);
}

/* small ? a : b as a mask on the bits: GCC turns a select of the argument
 * of a long computation into two copies of the computation, one per arm
 * (each with its division), and this keeps the one */
static inline double vm_sel_bits(int small, double a, double b)
{
    uint64_t m = -(uint64_t)small;
    return vm_from_bits((vm_bits(a) & m) | (vm_bits(b) & ~m));
}

static inline double vm_asin_r(double t)
{
    double q, p = vm_asin_pq(t, &q);
    return p / q;
}

/* asin(|x|) - |x| (small: |x| < 1/2, t = x*x) or asin(s) - s (s = sqrt(t),
 * t = (1 - |x|) / 2) plus sqrt's rounding error s_true - s = (t - s*s) /
 * 2s (by fma), as one quotient: |x| p / q or (e q + 2 (t - e) p) / (2 s q),
 * e = t - s*s (vm_asin_pq; GCC still divides once per arm of the select). */
static inline double vm_asin_u(double a, double t, double s, int small)
{
    double q, p = vm_asin_pq(t, &q);
    double e = vm_fma(-s, s, t);
    double n = small ? a * p : vm_fma(e, q, 2.0 * (t - e) * p);
    double d = small ? q : 2.0 * s * q;
    return n / d;
}

/* asin: |x| + u below 1/2, pi/2 - 2 (s + u) from there (pi/2 - 2s exact as
 * a sum), u from vm_asin_u (0 / 0 at |x| = 1: u = 0 there); the special
 * values from the arithmetic (sqrt of a negative t gives NaN beyond 1).
 * vm_asin_core: for 2**-26 <= |x| < 1 (the float64 loop runs it, then a
 * second pass redoes the other elements by ars_asin). */
static inline double vm_asin_core(double x)
{
    double a = fabs(x);
    int small = a < 0.5;
    double t = vm_sel_bits(small, x * x, (1.0 - a) * 0.5);
    double s = sqrt(t);
    double u = vm_asin_u(a, t, s, small);
    double h = VM_PIO2_HI - 2.0 * s;
    double l = ((VM_PIO2_HI - h) - 2.0 * s) + (VM_PIO2_LO - 2.0 * u);
    double v = small ? a + u : h + l;
    return copysign(v, x);
}

static inline double ars_asin(double x)
{
    double a = fabs(x);
    double v = vm_asin_core(x);
    v = a == 1.0 ? copysign(VM_PIO2_HI, x) : v;
    return a < 0x1p-26 ? x : v;
}

static inline double ars_acos(double x)
{
    double a = fabs(x);
    int small = a < 0.5;
    double t = vm_sel_bits(small, x * x, (1.0 - a) * 0.5);
    double r = vm_asin_r(t);
    double s = sqrt(t);
    /* pi/2 - x and pi - 2 df (df: s's high 21 bits, exact) as sums of
     * two parts, sqrt(t) = df + c */
    double hs = VM_PIO2_HI - x;
    double vs = hs + (((VM_PIO2_HI - hs) - x) + (VM_PIO2_LO - x * r));
    double df = vm_from_bits(vm_bits(s) & 0xffffffff00000000u);
    double c = s > 0 ? (t - df * df) / (s + df) : 0.0;
    double vn = (VM_PI_HI - 2.0 * df) + (2.0 * VM_PIO2_LO - 2.0 * (c + r * s));
    double vp = 2.0 * (df + (r * s + c));
    double v = x < 0 ? vn : vp;
    return small ? vs : v;
}

/* ---- tan -------------------------------------------------------------------------- */

/* x - n pi/2 = r + *rl for |x| <= VM_TRIG_MAX, n the nearest integer to x
 * 2/pi (n mod 4 in *q's low bits), for tan: pi/2 in three parts, the first
 * of 53 bits (x - n * it exact by one fma), the second of 30 bits (n * it
 * exact, |n| < 2**20), the third of 53 bits; r = r1 - n * the second with its
 * rounding error by a fast two-sum (exact: |r1| is the larger, or the
 * difference exact), n * the third (|n * it| < 2**-67) only added to *rl. */
static inline double vm_tan_reduce(double x, double *rl, uint64_t *q)
{
    double kd = vm_fma(x, 0x1.45f306dc9c883p-1, VM_SHIFT);
    *q = vm_bits(kd);
    double n = kd - VM_SHIFT;
    double r1 = vm_fma(n, -0x1.921fb54442d18p+0, x);
    double t = n * 0x1.1a62633100000p-54;
    double r = r1 - t;
    *rl = vm_fma(n, -0x1.1701b839a2520p-88, (r1 - r) - t);
    return r;
}

/* tan of |x| <= VM_TRIG_MAX: x - n pi/2 = r + rl (vm_tan_reduce), tan r =
 * r A(z) / B(z), z = r*r, A = 9 - z + z*z PA(z) and B = 9 - 4z + z*z PB(z),
 * PA and PB of degree 2, a rational fit (mpmath, Lawson) with the leading
 * coefficients held at -1 and -4 so that their products with z are exact:
 * relative error 2**-62.8 for |r| <= pi/4. z rounded to a multiple of 2**-49
 * (zh, the rest zlo by fma) makes 9 - zh and 9 - 4 zh exact, so that A and
 * B come as hi + lo from one fast two-sum each. tan = N / D with N = r A, D
 * = B for even n, N = B, D = -r A for odd (r A as hi + lo by fma), picked
 * per lane: the quotient q0 = N * (1 / D) of the high parts by one division,
 * then q0 + (N - q0 D) / D with the residual by fma, and rl enters as rl (1
 * + q0 q0) (the derivative of tan and of -cot), so that the result rounds
 * once: max 0.525 ULP over 2.3e7 arguments, a third near odd multiples of
 * pi/4 (NumPy's tan: 0.568 on the same).
 * Forced inline: GCC's size limit kept it a call in ew_unary.c, and the
 * loop scalar. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline double ars_tan(double x)
{
    double rl;
    uint64_t q;
    double r = vm_tan_reduce(x, &rl, &q);
    int odd = (int)(q & 1);
    double z = r * r;
    double w = z * z;
    double zh = (z + 12.0) - 12.0;
    double zlo = vm_fma(r, r, -zh);
    double pa = w * vm_fma(z, vm_fma(z, -0x1.92fe1995a1915p-20, 0x1.a55554c4b25f2p-12), 0x1.4ec7190eb614fp-8);
    double pb = w * vm_fma(z, vm_fma(z, -0x1.3909f69d4ed22p-15, 0x1.eb2a8c5da1ca8p-10), 0x1.1b8749d986c4ep-3);
    double ha = 9.0 - zh;
    double ah = ha + pa;
    double al = ((ha - ah) + pa) - zlo;
    double hb = vm_fma(zh, -4.0, 9.0);
    double bh = hb + pb;
    double bl = vm_fma(zlo, -4.0, (hb - bh) + pb);
    double rs = odd ? -r : r;
    double rah = rs * ah;
    double ral = vm_fma(rs, ah, -rah) + rs * al;
    double nh = odd ? bh : rah, nl = odd ? bl : ral;
    double dh = odd ? rah : bh, dl = odd ? ral : bl;
    double y = 1.0 / dh;
    double q0 = nh * y;
    double res = vm_fma(-q0, dh, nh);
    double e = vm_fma(-q0, dl, res + nl);
    double v = q0 + vm_fma(e, y, rl * vm_fma(q0, q0, 1.0));
    return x == 0 ? x : v;
}

/* ---- pow -------------------------------------------------------------------------- */

/* pow: e**(y log|x|) with log|x| and the product in two parts, the sign
 * from y's parity, and C99 Annex F's special values by selects. Forced
 * inline: GCC's size limit would keep it a call, and the loop scalar. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline double ars_pow(double x, double y)
{
    double ax = fabs(x), ay = fabs(y);
    /* y an integer (every |y| >= 2**52 is one), an odd one (y/2 not an
     * integer, from 2**53 on every y is even)? Comparisons of doubles only:
     * y's bits as an integer flag made GCC convert lane widths. */
    double hy = 0.5 * ay;
    int yint = (ay >= 0x1p52) | (((ay + 0x1p52) - 0x1p52) == ay);
    int yodd = yint & (ay < 0x1p53) & (((hy + 0x1p52) - 0x1p52) != hy);
    double ll, l = vm_log_dd(ax, &ll);
    double ze, z = vm_two_prod(y, l, &ze);
    ze += y * ll;
    double v = vm_exp_xl(z, ze);
    v = z > 710.0 ? (double)INFINITY : z < -746.0 ? 0.0 : v;
    /* |x| = 1: +-1 exactly (y * log|x| is 0, but its exact product's low
     * part is NaN for |y| > 2**996, where the split of y overflows) */
    v = ax == 1.0 ? 1.0 : v;
    /* x = +-0: +inf or +0, x = +-inf: +0 or +inf (the sign below) */
    double zi = (ax == 0) == (y < 0) ? (double)INFINITY : 0.0;
    v = ((ax == 0) | (ax == (double)INFINITY)) ? zi : v;
    /* x's sign for odd y (-0 and -inf too) */
    v = yodd ? copysign(v, x) : v;
    v = ((x < 0) & !yint & (ax < (double)INFINITY)) ? (double)NAN : v;
    /* y = +-inf: 1 for |x| = 1, else 0 or inf */
    double yi = ((ax < 1.0) == (y > 0)) ? 0.0 : (double)INFINITY;
    yi = ax == 1.0 ? 1.0 : yi;
    v = ((ay == (double)INFINITY) & (ax == ax)) ? yi : v;
    /* a NaN argument's own payload, x's before y's (as the C library's x +
     * y, but by selects: see ars_atan2) */
    v = y != y ? y + y : v;
    v = x != x ? x + x : v;
    /* pow(x, +-0) and pow(1, y) are 1, NaN included */
    v = y == 0 ? 1.0 : v;
    return x == 1.0 ? 1.0 : v;
}

/* ---- float32, through float64 ---------------------------------------------------- */

/* A NaN never meets a negated copy of itself in one operation (the negation is
 * put on the constant: vm_fma(k, -c, x), not vm_fma(-k, c, x)): which of two
 * NaNs an operation passes on differs between the levels.
 *
 * Each float32 function but log, log2 and log10 computes in float64 with a
 * relative error far below a float32 ulp (2**-34 to 2**-45) and rounds once:
 * within 1 ulp, and correctly rounded but for rare inputs within about
 * 2**-10 ulp of a rounding boundary. Short polynomials on small reduced
 * ranges, and at most one float64 division. The polynomials of atan, asin
 * and acos, atanh, sin and cos, and tan are fitted (Lawson, mpmath) one
 * degree shorter than 2**-37 would need: the error budget spent on speed,
 * measured over every float32 (at most 0.5009 ulp, and 99.994% or more
 * correctly rounded). exp, log, log2 and log10 compute the ordinary
 * arguments only and leave the others to a second pass over the block
 * (ew_loops.h's UNARY_KERNEL). */

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
 * 2**-45), e**x = 2**k (1 + vm_expm1_r(r)) with k added to the exponent.
 * The vector loop runs it without the clamps (vm_expf_core, |x| <= 100
 * only); the second pass redoes the others with the clamps (ars_expf). */
static inline float vm_expf(float x, int clamp)
{
    float xc = x;
    if (clamp) {
        xc = 100.0f < x ? 100.0f : x;
        xc = -110.0f > xc ? -110.0f : xc;
    }
    double d = xc;
    double kd = vm_fma(d, 1.44269504088896338700e+00, VM_SHIFT);
    double r = vm_fma(kd - VM_SHIFT, -6.93147180559945286227e-01, d);
    double e = 1.0 + vm_expm1_r(r);
    return (float)vm_from_bits(vm_bits(e) + (vm_bits(kd) << 52));
}

static inline float vm_expf_core(float x) { return vm_expf(x, 0); }
static inline float ars_expf(float x) { return vm_expf(x, 1); }
/* the core's domain: |x| <= 100 (not inf or NaN) */
#define VM_EXPF_OK(x) ((vm_bits32(x) & 0x7fffffffu) <= 0x42c80000u)

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
     * float32 from |x| = 9.1, so |x| is clamped to 10, and doubled (exact),
     * in float32 lanes */
    float ac = fabsf(x);
    ac = 10.0f < ac ? 10.0f : ac;
    double y = ac + ac;
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

/* a * b + c rounded once in float32: as vm_fma (one instruction at x86-64-v3,
 * v4 and aarch64, the C library's correctly rounded fmaf() at x86-64's
 * baseline). */
#define vm_fmaf(a, b, c) __builtin_fmaf((a), (b), (c))

/* log(x) for float32 x as hi + *lo (|*lo| <= about an ulp of hi, relative
 * error < 2**-33), in float32 lanes throughout. x = 2**k z, sqrt(2)/2 <= z
 * < sqrt(2) (a subnormal x's bits, converted as an integer, give x 2**149
 * exactly, and k 149 less); z's third of that range picks a center c
 * (about 2**(-1/3), 1 or 2**(1/3)), and log z = log c + 2
 * atanh(s), s = d / (z + c), d = z - c exact (Sterbenz), |s| < 0.0603; 2s
 * = h + l with h = d rc, rc = 1 / v, v = c + d/2 (the one division), and l
 * from the residual d - h v (v in two parts, exact; the residual by two
 * FMAs); 2 atanh(s) = h + l + h**3 P(h*h), P of degree 2 fitted with float32
 * coefficients (relative error of the sum < 2**-38). The outer centers are
 * float32 numbers whose log lies within 2**-37 of a multiple of 2**-17
 * (searched for), ch; k times ln2's first part (a multiple of 2**-17 too)
 * plus ch is then exact (both under 2**7, 24 bits), and hi = that + h by
 * Fast2Sum (|k ln2 + ch| >= 0.22 > |h| unless it is 0), its error and ln2's
 * second part in *lo. With c = 1 about z = 1, log 1 is +0 and log(1 + tiny)
 * correctly rounded. Garbage for x <= 0, inf and NaN, and for subnormal x
 * unless sub_too (a constant: the vector loops leave subnormals to the
 * second pass). */
static inline VM_INLINE float vm_logf_hl(float x, float *lo, int sub_too)
{
    uint32_t ix0 = vm_bits32(x);
    int sub = sub_too && ix0 < 0x00800000u;
    uint32_t ix = sub ? vm_bits32((float)(int32_t)ix0) : ix0;
    uint32_t tmp = ix - 0x3f3504f3u;  /* bits of sqrt(2)/2 rounded down */
    float k = (float)((int32_t)tmp >> 23) - (sub ? 149.0f : 0.0f);
    float z = vm_from_bits32(ix - (tmp & 0xff800000u));
    int lo3 = z < 0x1.c94c82p-1f, hi3 = z >= 0x1.202e64p+0f;  /* sqrt of the centers */
    float c = lo3 ? 0x1.98711ep-1f : 1.0f;
    float ch = lo3 ? -0x1.ceccp-3f : 0.0f;
    c = hi3 ? 0x1.446868p+0f : c;
    ch = hi3 ? 0x1.e504p-3f : ch;
    float d = z - c;
    float v = vm_fmaf(d, 0.5f, c);
    float vl = vm_fmaf(d, 0.5f, c - v);
    float rc = 1.0f / v;
    float h = d * rc;
    float l = vm_fmaf(h, -vl, vm_fmaf(h, -v, d)) * rc;
    float t = h * h;
    float p = vm_fmaf(t, vm_fmaf(t, 0x1.297b3ap-9f, 0x1.99947ep-7f), 0x1.555556p-4f);
    float a = vm_fmaf(k, 0x1.62e4p-1f, ch);   /* ln2 = 0x1.62e4p-1 + 0x1.7f7d1cp-20 */
    float hi = a + h;
    float e = (a - hi) + h;
    *lo = e + vm_fmaf(k, 0x1.7f7d1cp-20f, vm_fmaf(h * t, p, l));
    return hi;
}

/* The special values of the float32 logarithms, selected in float32 lanes:
 * +inf and NaN give themselves, 0 -inf, x < 0 NaN. */
static inline float vm_log_special32(float x, float v)
{
    v = x < INFINITY ? v : x;
    return x > 0 ? v : x == 0 ? -INFINITY : NAN;
}

/* log2 and log10: log's hi + lo times the constant c = ch + cl (float32
 * parts), hi ch exact as p + pe (one FMA), then p + (pe + hi cl + lo ch)
 * rounded once; c = 1 gives log's hi + lo. */
static inline float vm_logf_times(float x, float ch, float cl, int sub_too)
{
    float lo, hi = vm_logf_hl(x, &lo, sub_too);
    if (ch == 1.0f)
        return hi + lo;
    float p = hi * ch;
    float pe = vm_fmaf(hi, ch, -p);
    return p + vm_fmaf(lo, ch, vm_fmaf(hi, cl, pe));
}

#define VM_LOG2_32 0x1.715476p+0f, 0x1.4ae0cp-26f
#define VM_LOG10_32 0x1.bcb7b2p-2f, -0x1.5b235ep-27f

/* The vector loops' log, log2 and log10 of float32: positive normal x only
 * (no selects); the second pass below redoes the others with the full
 * functions (subnormals in the core, then the special values). */
static inline float vm_logf_core(float x) { return vm_logf_times(x, 1.0f, 0.0f, 0); }
static inline float vm_log2f_core(float x) { return vm_logf_times(x, VM_LOG2_32, 0); }
static inline float vm_log10f_core(float x) { return vm_logf_times(x, VM_LOG10_32, 0); }
static inline float ars_logf(float x) { return vm_log_special32(x, vm_logf_times(x, 1.0f, 0.0f, 1)); }
static inline float ars_log2f(float x) { return vm_log_special32(x, vm_logf_times(x, VM_LOG2_32, 1)); }
static inline float ars_log10f(float x) { return vm_log_special32(x, vm_logf_times(x, VM_LOG10_32, 1)); }
/* the cores' domain: x positive and normal (not 0, subnormal, negative,
 * inf or NaN) */
#define VM_LOGF_OK(x) ((uint32_t)(vm_bits32(x) - 0x00800000u) < 0x7f000000u)

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
 * division: k, the nearest integer to log2(u), is estimated from the bits
 * of 1 + a and 1 - a in float32 (their difference is log2(u) 2**23 within
 * 0.09 2**23 from the linear mantissa; k only has to put z near 1), then z
 * = u 2**-k, |log2(z)| < 0.59, and log(z) = 2 atanh(s) with s = (z - 1)/(z
 * + 1) = (p - q)/(p + q), p = 1 + a and q = (1 - a) 2**k, written without
 * a select as ((1 - 2**k) + a (1 + 2**k)) / ((1 + 2**k) + a (1 - 2**k)),
 * each an fma of an exact product: the numerator is exact (2a for k = 0,
 * where p alone would not be), the denominator rounded once. atanh(s) = s
 * P(s*s), |s| <= 0.2005, P of degree 4 with P(0) = 1 fitted (Lawson,
 * mpmath) to a relative error < 2**-35.3 (exhaustively: <= 0.5004 ulp,
 * 99.9994% correctly rounded). a = 1 gives inf, a > 1 and NaN NaN
 * (ars_atanhf; the vector loop runs the core without those selects, and
 * its second pass redoes |x| >= 1 and NaN). */
static inline float vm_atanhf_abs(float x)
{
    float a = fabsf(x);
    int32_t ki = (int32_t)(vm_bits32(1.0f + a) - vm_bits32(1.0f - a) + 0x400000u) >> 23;
    double k = ki;
    double sc = vm_from_bits((uint64_t)(1023 + (int64_t)ki) << 52);
    double ad = a;
    double sv = vm_fma(ad, 1.0 + sc, 1.0 - sc) / vm_fma(ad, 1.0 - sc, 1.0 + sc);
    double t = sv * sv;
    double pl = vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, 0x1.edb5fd238bee2p-4, 0x1.23e842f836a5ep-3),
                0x1.999be2932e787p-3), 0x1.5555541d897aep-2), 1.0);
    return (float)vm_fma(k, 0.5 * 6.93147180559945286227e-01, sv * pl);
}
static inline float vm_atanhf_core(float x) { return copysignf(vm_atanhf_abs(x), x); }
static inline float ars_atanhf(float x)
{
    float a = fabsf(x), v = vm_atanhf_abs(x);
    v = a == 1.0f ? INFINITY : v;
    v = a > 1.0f ? NAN : v;
    return copysignf(v, x);
}
/* the core's domain: |x| < 1 (not NaN) */
#define VM_ATANHF_OK(x) ((vm_bits32(x) & 0x7fffffffu) < 0x3f800000u)

#define VM_PI 0x1.921fb54442d18p+1
#define VM_PI_2 0x1.921fb54442d18p+0

/* atan for float32: a = |x| clamped to 2**30 (from 2**25 on, atan rounds to
 * float32's pi/2, and inf comes out as that; a NaN passes), then theta = 0,
 * pi/4 or pi/2 by two compares (cuts at tan(pi/8) and tan(3pi/8)), r =
 * tan(atan(a) - theta) = a, (a - 1)/(a + 1) or -1/a, written (a c - s) /
 * (a s + c) with c, s in {0, 1} (exact but the one division), |r| <=
 * tan(pi/8); atan(r) by an odd polynomial of degree 13 fitted (Lawson,
 * mpmath) to a relative error < 2**-35.4 (exhaustively: <= 0.5003 ulp,
 * 99.999% correctly rounded). Fewer, cheaper selects than five
 * intervals, made in float32 lanes (16 to a vector) and converted: 0.38
 * against 0.51 ns per element (the same selects in float64 lanes: 0.45). */
static inline float ars_atanf(float x)
{
    float af = fabsf(x);
    af = af > 0x1p30f ? 0x1p30f : af;
    float sf = af > 0x1.a827ap-2f ? 1.0f : 0.0f;
    float cf = af > 0x1.3504f4p+1f ? 0.0f : 1.0f;
    float kf = sf - cf + 1.0f;
    double a = af, s = sf, c = cf;
    double th = (double)kf * 0x1.921fb54442d18p-1;  /* 0, pi/4, pi/2 */
    double r = vm_fma(a, c, -s) / vm_fma(a, s, c);
    double t = r * r;
    double p = vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, 0x1.8232b6c8b3fabp-5, -0x1.5a8367660e038p-4),
               0x1.c43f3d381add9p-4), -0x1.247cfba7a5e45p-3), 0x1.999901190404cp-3), -0x1.55555487735e7p-2),
               0x1.ffffffffd2797p-1);
    return copysignf((float)vm_fma(r, p, th), x);
}

/* asin(y) for 0 <= y <= 1/2 given z ~ y*y (relative error < 2**-44): y + y
 * z P(z), P of degree 6 fitted (Lawson, mpmath) so that the relative error
 * of the result is < 2**-35.8 (exhaustively, asin: <= 0.5003 ulp, 99.9995%
 * correctly rounded). */
static inline double vm_asin_p(double y, double z)
{
    double p = vm_fma(z, vm_fma(z, vm_fma(z, vm_fma(z, vm_fma(z, vm_fma(z, 0x1.1bd286de6f45dp-5,
               0x1.ec24a62591931p-8), 0x1.931f98734bfedp-6), 0x1.ed5d17b656438p-6), 0x1.6ddabfec29bd9p-5),
               0x1.3332aa061a5b2p-4), 0x1.55555605cd659p-3);
    return vm_fma(y * z, p, y);
}

/* For a = |x| > 1/2: asin a = pi/2 - 2 asin(s), s = sqrt(w), w = (1 - a)/2
 * (exact in float32), s <= 1/2. s to double precision without a double square
 * root or division: s0 = sqrtf(w) in float32 lanes, then one Newton step s0 +
 * (w - s0*s0) h, with w - s0*s0 exact in double and h = 0.5f / s0 in float32
 * (the step's relative error is under 2**-46; the 2**-100 keeps h finite at
 * w = 0). Below 1/2, y = a and z = a*a: the same step with s0 = a, w = 0 and
 * h = 0 gives y = a exactly (h's zero wins over a NaN's square only in the
 * sign, which the callers set). The choices are made in float32 lanes
 * before the conversions, so that GCC evaluates one polynomial (selects
 * after it made it evaluate both). |x| > 1 gives NaN through the square
 * root. */
static inline double vm_asin_arg(float a, int big, double *z)
{
    float wf = (1.0f - a) * 0.5f;
    float sf = sqrtf(wf);
    float hf = 0.5f / (sf + 0x1p-100f);
    float y0 = big ? sf : a, h = big ? hf : 0.0f, w = big ? wf : 0.0f;
    double s0 = y0, wd = w;
    *z = big ? wd : s0 * s0;
    return vm_fma(vm_fma(-s0, s0, wd), (double)h, s0);
}

/* asin: v = asin(y), then v (|x| <= 1/2) or pi/2 - 2v as one fma, v (1 -
 * 3c) + c pi/2, with c = 0 or 1 chosen in float32 lanes */
static inline float ars_asinf(float x)
{
    float a = fabsf(x);
    int big = a > 0.5f;
    float c = big ? 1.0f : 0.0f;
    double z, y = vm_asin_arg(a, big, &z);
    double v = vm_asin_p(y, z);
    double cd = c;
    return copysignf((float)vm_fma(v, vm_fma(cd, -3.0, 1.0), cd * VM_PI_2), x);
}

/* acos x = pi/2 - asin x for |x| <= 1/2, else 2 asin(s) (pi - that for x <
 * 0): v times -1, 1, 2 or -2 plus 0, pi/2 or pi (as c pi/2) in one fma; a
 * NaN x is returned as |x| (the Newton step's product of the NaN with its
 * negation would leave the sign to the SIMD level) */
static inline float ars_acosf(float x)
{
    float a = fabsf(x);
    int big = a > 0.5f;
    float sg = copysignf(1.0f, x);
    float m = sg * (big ? 2.0f : -1.0f), c = big ? 1.0f - sg : 1.0f;
    double z, y = vm_asin_arg(a, big, &z);
    double v = vm_asin_p(y, z);
    float r = (float)vm_fma(v, (double)m, (double)c * VM_PI_2);
    return x != x ? a + a : r;
}

/* atan2(y, x) for y, x finite, |y| + |x| >= 2**-100 (else anything; NaN
 * for NaN), as atanf does: a = |y|, b = |x|, theta = 0, pi/4 or pi/2 by two
 * compares in float32 lanes, of a with b tan(pi/8) and of a tan(pi/8) with
 * b (a rounded product moves a cut by 2**-24 relative at most, both being
 * normal there), r = tan(atan(a/b) - theta) = (a c - b s) / (b c + a s), c,
 * s in {0, 1}, numerator and denominator exact in float64, one division;
 * the quadrant folded in: where x's sign bit is set, pi - atan(a/b) = (4 -
 * k) pi/4 - atan(r) (theta = k pi/4), the numerator negated; then y's sign.
 * atan(r) by ars_atanf's polynomial. Sampled (1e8 pairs, with the cuts,
 * tiny and huge ratios and the axes): <= 0.5000 ulp, 99.994% correctly
 * rounded. Two compares and a few selects in float32 lanes, where five
 * intervals took four compares and twelve selects in float64 lanes: 0.45
 * against 0.57 ns per element. */
static inline VM_INLINE float vm_atan2f_q(float y, float x)
{
    float a = fabsf(y), b = fabsf(x);
    float sf = a > b * 0x1.a827ap-2f ? 1.0f : 0.0f;
    float cf = a * 0x1.a827ap-2f > b ? 0.0f : 1.0f;
    float kf = sf - cf + 1.0f;
    float neg = (vm_bits32(x) >> 31) ? -1.0f : 1.0f;
    float kq = neg < 0 ? 4.0f - kf : kf;
    float cm = cf * neg, sm = sf * neg;
    double ad = a, bd = b;
    double r = vm_fma(ad, (double)cm, -(bd * (double)sm)) / vm_fma(bd, (double)cf, ad * (double)sf);
    double t = r * r;
    double p = vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, 0x1.8232b6c8b3fabp-5, -0x1.5a8367660e038p-4),
               0x1.c43f3d381add9p-4), -0x1.247cfba7a5e45p-3), 0x1.999901190404cp-3), -0x1.55555487735e7p-2),
               0x1.ffffffffd2797p-1);
    return copysignf((float)vm_fma(r, p, (double)kq * 0x1.921fb54442d18p-1), y);
}

/* atan2 with C99 Annex F's special values: both 0 give 0, both infinite
 * pi/4, y infinite pi/2, x infinite 0 (pi minus that where x's sign bit is
 * set, then y's sign); |y| + |x| < 2**-100 is scaled by 2**64 first (the
 * compares of vm_atan2f_q need normal products). */
static inline float ars_atan2f(float y, float x)
{
    float a = fabsf(y), b = fabsf(x);
    int tiny = a + b < 0x1p-100f;
    float ys = tiny ? y * 0x1p64f : y, xs = tiny ? x * 0x1p64f : x;
    float v = fabsf(vm_atan2f_q(ys, xs));
    int neg = (int)(vm_bits32(x) >> 31);
    int yinf = a == INFINITY, xinf = b == INFINITY;
    v = ((a == 0) & (b == 0)) ? (neg ? (float)VM_PI : 0.0f) : v;
    v = (yinf & xinf) ? (neg ? (float)(VM_PI - VM_PI_2 * 0.5) : (float)(VM_PI_2 * 0.5)) : v;
    v = (yinf & (b < INFINITY)) ? (float)VM_PI_2 : v;
    v = (xinf & (a < INFINITY)) ? (neg ? (float)VM_PI : 0.0f) : v;
    double dy = y, dx = x;
    double w = copysign((double)v, dy);
    w = dy != dy ? dy : w;  /* a NaN's payload as in pow */
    return (float)(dx != dx ? dx : w);
}

/* sin (q0 = 0) or cos (q0 = 1) of |x| <= VM_TRIG_MAX: r = x - m pi/2 with m
 * = 2n + q0 the nearest such to x (pi/2 in two parts: m * the first is
 * exact), |r| <= pi/2; then +-sin(r) by one odd polynomial of degree 11
 * fitted (Lawson, mpmath; relative error < 2**-35.4; exhaustively: <= 0.5004
 * ulp, 99.997% correctly rounded, sin and cos), negated where n + q0 is
 * odd: the low bit of n + q0, shifted to the sign bit, is xored in (a shift
 * and an xor, no compare and select). */
static inline double vm_sin32(double x, uint64_t q0)
{
    double kd = vm_fma(x, 3.18309886183790671538e-01, -0.5 * (double)q0) + VM_SHIFT;
    uint64_t sign = (vm_bits(kd) + q0) << 63;
    double m = vm_fma(2.0, kd - VM_SHIFT, (double)q0);
    double r = vm_fma(m, -6.07710050650619224932e-11, vm_fma(m, -1.57079632673412561417e+00, x));
    double t = r * r;
    double p = vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, -0x1.9a0d9409b7281p-26, 0x1.716b9f133c682p-19),
               -0x1.a017a8cf3bd6ap-13), 0x1.11110b7417682p-7), -0x1.555555417301cp-3), 0x1.ffffffffd175ap-1);
    return vm_from_bits(vm_bits(r * p) ^ sign);
}

static inline float ars_sinf(float x) { return (float)vm_sin32(x, 0); }
static inline float ars_cosf(float x) { return (float)vm_sin32(x, 1); }

/* tan of |x| <= VM_TRIG_MAX: r = x - n pi/2 (n the nearest, pi/2 in two
 * parts), |r| <= pi/4, z = r*r; tan r = r P(z) / Q(z) with P, Q of degree 2
 * and P(0) = Q(0) = 1, a rational fit (Lawson, mpmath) with relative error
 * < 2**-35.2 (exhaustively: <= 0.5004 ulp, 99.998% correctly rounded); tan
 * = r P / Q for even n, -Q / (r P) for odd (GCC computes both quotients
 * and selects, which is faster here than one quotient of selected
 * operands). */
static inline double vm_tan32(double x)
{
    double kd = vm_fma(x, 6.36619772367581382433e-01, VM_SHIFT);
    uint64_t odd = vm_bits(kd) & 1;
    double n = kd - VM_SHIFT;
    double r = vm_fma(n, -6.07710050650619224932e-11, vm_fma(n, -1.57079632673412561417e+00, x));
    double z = r * r;
    double p = r * vm_fma(z, vm_fma(z, 0x1.19bc67bbbf636p-10, -0x1.c81ca088380dfp-4), 1.0);
    double q = vm_fma(z, vm_fma(z, 0x1.05ab1d4ad9734p-6, -0x1.c75c7d62db4ddp-2), 1.0);
    return odd ? -q / p : p / q;
}

static inline float ars_tanf(float x) { return (float)vm_tan32(x); }

/* ---- float32 pow, hypot, logaddexp ------------------------------------------------ */

/* log2(x) for a positive normal double x (float32 values all are): x = 2**k
 * z, sqrt(2)/2 <= z < sqrt(2), log2(z) = (2/ln2) atanh(s) with s = f / (2 +
 * f), f = z - 1 (exact), by vm_log32's polynomial in s*s with its
 * coefficients times 2/ln2 (relative error < 2**-44), and k added in one
 * fma. One division. */
static inline double vm_log2_32(double x)
{
    uint64_t ix = vm_bits(x);
    uint64_t tmp = ix - 0x3fe6a09e667f3bcdu;
    uint64_t kk = (tmp + (1024ull << 52)) >> 52;  /* k + 1024 */
    double z = vm_from_bits(ix - (tmp & 0xfff0000000000000u));
    double k = vm_from_bits(0x4330000000000000u | kk) - (0x1p52 + 1024.0);
    double f = z - 1.0;
    double sv = f / (2.0 + f);
    double t = sv * sv;
    double p = vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, vm_fma(t, 0x1.21ac9c9040d9fp-2, 0x1.4795a63079ddfp-2),
               0x1.a61a2cc1ced3cp-2), 0x1.2776c295f01cfp-1), 0x1.ec709dc539e76p-1), 0x1.71547652b8252p+1);
    return vm_fma(sv, p, k);
}

/* 2**w for -160 <= w <= 150 (garbage beyond, not a trap: see
 * vm_exp2_lim32): k = round(w), r = w - k exactly, |r| <= 1/2,
 * 2**r = 1 + r q(r), q of degree 7 fitted (Lawson's weighted least squares,
 * mpmath) to the relative error of 2**r: < 2**-40; then k added to the
 * exponent bits (2**k P(r) is a normal double). No table: a table lookup is
 * an emulated gather (scalar loads), which took a third of pow's time. An
 * integer w gives 2**w exactly (pow(0.5, 150) is then 2**-150, which rounds
 * to 0 as it must, not up to the smallest subnormal). */
static inline double vm_exp2_32(double w)
{
    double kd = w + VM_SHIFT;
    uint64_t kk = vm_bits(kd);
    double r = w - (kd - VM_SHIFT);
    double r2 = r * r;
    double q = vm_fma(r2, vm_fma(r2, vm_fma(r2, vm_fma(r, 0x1.61c4eeedabadep-20, 0x1.00d854862c21ap-16),
               vm_fma(r, 0x1.430aa8887b4d0p-13, 0x1.5d874d04b1ff5p-10)),
               vm_fma(r, 0x1.3b2ab5ed68b63p-7, 0x1.c6b08dced5bf7p-5)),
               vm_fma(r, 0x1.ebfbdff8edf1bp-3, 0x1.62e42fef89d0ap-1));
    /* kk's low bits are k's (two's complement): k << 52 added mod 2**64 */
    return vm_from_bits(vm_bits(vm_fma(r, q, 1.0)) + (kk << 52));
}

/* 2**w for a w from y log2|x|, in float32 terms: inf above 150, 0 below
 * -160. With AVX-512 by selects after the call (a clamp of w before it
 * made GCC compute the clamped constants' path apart, under masks: 10%
 * slower), else by a clamp of w to [-160, 150] before it (selects after it
 * were 12% slower with AVX2). Both give the same float32: 2**150 rounds to
 * inf, 2**-160 to 0, and a NaN w passes either way. */
static inline double vm_exp2_lim32(double w)
{
#if defined(__AVX512F__)
    double v = vm_exp2_32(w);
    return w > 150.0 ? (double)INFINITY : w < -160.0 ? 0.0 : v;
#else
    w = w > 150.0 ? 150.0 : w;
    w = w < -160.0 ? -160.0 : w;
    return vm_exp2_32(w);
#endif
}

/* pow: 2**(y log2|x|) with log2|x| from vm_log2_32 (w = y log2|x| is then
 * within 2**-37 of the truth wherever the result is a finite nonzero
 * float32, |w| < 150) and 2**w from vm_exp2_32. An exact float32 result
 * (2**3, 10**2, 0.5**150) comes out exact: the double is within far less
 * than half a float32 ulp of it, or equal to it for powers of 2. Then C99
 * Annex F's special values by selects: the sign for negative x and odd
 * integer y, NaN for negative finite x and non-integer y, 1 for y = +-0, x =
 * 1 and (-1)**(+-inf). The zeros and infinities of x and y need nothing
 * more: log2|x| is -inf or +inf and the limits of 2**w give 0 or inf. */
static inline float ars_powf(float x, float y)
{
    double dx = x, dy = y, ax = fabs(dx), ay = fabs(dy);
    double v = vm_exp2_lim32(dy * vm_log_special(ax, vm_log2_32(ax)));
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

/* float64 hypot of a = max(|x|, |y|) and b = min(|x|, |y|): a*a + b*b in
 * two parts (the products' rounding errors by fma, the sum's by Fast2Sum,
 * a*a >= b*b), its rounded square root r, corrected once, r + ((a*a + b*b)
 * - r*r) / 2r with r*r's error by fma: correctly rounded on 8e5 sampled
 * pairs against mpmath (glibc's hypot 0.564 ulp, 5550 of them not). The
 * core: for a within [2**-500, 2**500], where neither square overflows and
 * an underflowing b*b is below a*a's last bit; the other pairs (two zeros,
 * huge, tiny, inf, NaN) are the C library's hypot (vm_hypot_rare). */
static inline VM_INLINE double vm_hypot_core(double x, double y)
{
    uint64_t bx = vm_bits(x) & 0x7fffffffffffffffu, by = vm_bits(y) & 0x7fffffffffffffffu;
    double a = vm_from_bits(bx > by ? bx : by), b = vm_from_bits(bx > by ? by : bx);
    double e1, p1 = vm_two_prod(a, a, &e1);
    double e2, p2 = vm_two_prod(b, b, &e2);
    double s = p1 + p2;
    double l = ((p1 - s) + p2) + (e1 + e2);
    double r = sqrt(s);
    double d = vm_fma(-r, r, s) + l;
    return vm_fma(d, 0.5 / r, r);
}
static inline int vm_hypot_rare(double x, double y)
{
    uint64_t bx = vm_bits(x) & 0x7fffffffffffffffu, by = vm_bits(y) & 0x7fffffffffffffffu;
    uint64_t m = bx > by ? bx : by;
    return m - vm_bits(0x1p-500) > vm_bits(0x1p500) - vm_bits(0x1p-500);
}
static inline double ars_hypot(double x, double y)
{
    return vm_hypot_rare(x, y) ? hypot(x, y) : vm_hypot_core(x, y);
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

/* float64 logaddexp: max(a, b) + log1p(u), u = e**-|a - b| in (0, 1]. The
 * core, for finite a and b with |a - b| <= 700: a - b exactly in two parts
 * (TwoSum), u from vm_exp_hl in two parts (relative error about 2**-64),
 * log1p(u) = log(w) + c / w with w = 1 + u and c its rounding error plus
 * u's second part, log(w) in two parts (vm_log_hl, about 2**-58), and
 * max(a, b) plus its first part in two parts: rounded once, so within half
 * an ulp and a little, but where the two terms cancel (max(a, b) near -log
 * 2), where the absolute error stays about 2**-58. The other pairs
 * (vm_logaddexp_rare) take the full function: NaN for a NaN, a + log 2 for
 * equal infinities, else max(a, b) + e**-|a - b| (u < 2**-1000: log1p(u) =
 * u, and ars_exp rounds u's subnormals). */
static inline VM_INLINE double vm_logaddexp_core(double a, double b)
{
    double dl, d = vm_two_sum(a, -b, &dl);
    double m = a >= b ? a : b;
    double ad = fabs(d), adl = d < 0 ? -dl : dl;
    struct vm_exp_parts q = vm_exp_hl(-ad, -adl);
    double yl, y = vm_exp_y(q, &yl);
    double sc = vm_exp_scale(q);
    double u = y * sc;
    double w = 1.0 + u;
    double c = (u - (w - 1.0)) + yl * sc;
    double lo, hi = vm_log_hl(w, &lo);
    double e, h = vm_two_sum(m, hi, &e);
    return h + (e + (lo + c / w));
}
static inline int vm_logaddexp_rare(double a, double b) { return !(fabs(a - b) <= 700.0); }
static inline double ars_logaddexp(double a, double b)
{
    double m = a >= b ? a : b;
    double v = m + ars_exp(-fabs(a - b));
    v = b != b ? b : v;  /* a NaN's payload as in pow */
    v = a != a ? a : v;
    v = a == b ? a + 6.93147180559945286227e-01 : v;
    return vm_logaddexp_rare(a, b) ? v : vm_logaddexp_core(a, b);
}

/* The domains of the unary loops' cores (ew_ops.h's EW_CHECK_*): the
 * vectorized loop runs a core, exact on its domain VM_<NAME>_OK(x), notes
 * whether any x falls outside (ew_loops.h's UNARY_KERNEL), and only then
 * redoes those elements by the full function, one at a time (a scan of its
 * own cost a tenth of float64 asin's time). sin, cos and tan beyond
 * VM_TRIG_MAX (and inf, NaN) are the C library's: float32 through these
 * wrappers (tgmath's sin would take the float function). VM_BITS_IN_
 * tests lo <= |x| < hi on the bits, as one unsigned compare of the distance
 * from lo's (NaN's bits lie above infinity's). */
#define VM_BITS_IN_(x, lo, hi) (vm_bits(fabs(x)) - vm_bits(lo) < vm_bits(hi) - vm_bits(lo))
#define VM_EXP_OK(x) (fabs(x) <= VM_EXP_CORE)
#define VM_LOG_OK(x) ((x) >= 0x1p-1022 && (x) < (double)INFINITY)
#define VM_ASIN_OK(x) (fabs(x) >= 0x1p-26 && fabs(x) < 1.0)
#define VM_ATANH_OK(x) VM_BITS_IN_(x, 0x1p-28, 1.0)
#define VM_ATAN_OK(x) (fabs(x) <= 0x1p1000)
#define VM_TRIG_OK(x) (fabs((double)(x)) <= VM_TRIG_MAX)
static inline float vm_libm_sinf(float x) { return (float)sin((double)x); }
static inline float vm_libm_cosf(float x) { return (float)cos((double)x); }
static inline float vm_libm_tanf(float x) { return (float)tan((double)x); }

/* ---- pow and atan2: the cores and their second pass ------------------------------
 * The binary loops of pow and atan2 (ew_loops.h's BINARY_KERNELS) compute a
 * core for every element: the full function's arithmetic without the
 * selects of its special values, which costs a third of float32 pow's time.
 * For the ordinary arguments (vm_*_rare false) the core's result is the full
 * function's, bit for bit; the full function runs for the rare ones
 * (VM_BIN_RUN).
 *
 * pow: x > 0 and finite, y finite. float64 also excludes x = 1 and y = 0,
 * whose core result (e**0 from a table's midpoint) need not be exactly 1,
 * subnormal x, and results beyond the normal range, where its core gives
 * NaN (vm_pow_rare_out): the subnormal paths of its log and exp are then
 * left out of the core. The scans test bits, two
 * unsigned compares each: a compare per condition took as long as a tenth
 * of float64 pow. */
static inline VM_INLINE float vm_powf_core(float x, float y)
{
    return (float)vm_exp2_lim32((double)y * vm_log2_32(x));
}
static inline int vm_powf_rare(float x, float y)
{
    /* 0 < x < inf, y finite */
    return !((int)((vm_bits32(x) - 1u) < 0x7f7fffffu) & (int)((vm_bits32(y) << 1) < 0xff000000u));
}
static inline VM_INLINE double vm_pow_core(double x, double y)
{
    double ll, l = vm_log_dd_(x, &ll, 0);
    double ze, z = vm_two_prod(y, l, &ze);
    ze += y * ll;
    double v = vm_exp_xl_normal(vm_exp_hl(z, ze));
    return ((int)(z > -707.0) & (int)(z < 709.0)) ? v : (double)NAN;
}
static inline int vm_pow_rare(double x, double y)
{
    /* x normal, positive and finite; (x - 1) y nonzero and finite (x = 1,
     * y = 0, y not finite, and rarely an ordinary pair whose product
     * underflows) */
    double t = (x - 1.0) * y;
    return !((int)((vm_bits(x) - 0x0010000000000000u) < 0x7fe0000000000000u)
             & (int)(((vm_bits(t) << 1) - 1u) < 0xffdfffffffffffffu));
}
static inline int vm_pow_rare_out(double o) { return o != o; }
static inline int vm_no_rare_out(double o) { (void)o; return 0; }

/* atan2: both finite, |y| + |x| within [2**-100, inf) for float32 (where
 * vm_atan2f_q's compares are exact enough; a sum that overflows only sends an
 * ordinary pair to the full function); float64 keeps the sum within
 * [2**-998, 2**1000), the larger magnitude then within [2**-1000, 2**1000],
 * and the smaller 0 or from 2**-969 on, where ars_atan2 scales nothing. */
static inline VM_INLINE float vm_atan2f_core(float y, float x) { return vm_atan2f_q(y, x); }
static inline int vm_atan2f_rare(float y, float x)
{
    return (vm_bits32(fabsf(y) + fabsf(x)) - 0x0d800000u) >= 0x7f800000u - 0x0d800000u;
}
static inline VM_INLINE double vm_atan2_core(double y, double x)
{
    double ay = fabs(y), ax = fabs(x);
    double lf = vm_from_bits(vm_bits(1.0) | (vm_bits(x) & 0x8000000000000000u));
    double mn = ay > ax ? ax : ay, mx = ay > ax ? ay : ax;
    /* vm_atan_mm's result is +0 or positive here: y's sign by an or */
    double v = vm_atan_mm(mn, mx, ay > ax ? -1.0 : 1.0, lf);
    return vm_from_bits(vm_bits(v) | (vm_bits(y) & 0x8000000000000000u));
}
static inline int vm_atan2_rare(double y, double x)
{
    double ay = fabs(y), ax = fabs(x);
    double mn = ay > ax ? ax : ay;
    return (int)!VM_BITS_IN_(ay + ax, 0x1p-998, 0x1p1000) | (int)VM_BITS_IN_(mn, 0x1p-1074, 0x1p-969);
}

/* The loop: o[i] = CORE(a[i sa], b[i sb]) (sa, sb: 1, or 0 for a scalar
 * operand) where RARE(a, b) and RARE_OUT(o[i]) are false, FULL(a, b)
 * elsewhere, by chunks of 256. Where FIRST, a vectorized count of the rare
 * arguments comes first: more than 8 (negative bases with integer
 * exponents, many zeros), and the chunk is FULL's alone, in a vectorized
 * loop (NAME_all*); otherwise (float64 atan2, whose rare pairs are rarer)
 * the count is taken in the core's loop, which saves a pass over the
 * arguments (a tenth of its time). After the core's vectorized loop, where
 * some element is rare (nearly never), FULL runs for each rare one, out of
 * line (NAME_one), or for the whole chunk again if the core's results add
 * more than 8 (float64 pow beyond the normal range). One element of scalar
 * float64 pow costs as much as 16 in the vector loop. FULL is plain C, its
 * NaN results chosen by selects: its scalar and vector forms give the same
 * bits. The loops of FULL are out of line (VM_BIN_FULL_): inlined into the
 * kernels, they made GCC leave the core a call and its loop scalar. */
#define VM_BIN_FULL_(NAME, T, FULL)                                         \
    static VM_NOINLINE T NAME##_one(T a, T b) { return FULL(a, b); }        \
    static VM_NOINLINE void NAME##_all(T *o, const T *pa, const T *pb, int64_t m) \
    {                                                                       \
        for (int64_t i = 0; i < m; i++)                                     \
            o[i] = FULL(pa[i], pb[i]);                                      \
    }                                                                       \
    static VM_NOINLINE void NAME##_all1(T *o, T a, const T *pb, int64_t m)  \
    {                                                                       \
        for (int64_t i = 0; i < m; i++)                                     \
            o[i] = FULL(a, pb[i]);                                          \
    }                                                                       \
    static VM_NOINLINE void NAME##_all2(T *o, const T *pa, T b, int64_t m)  \
    {                                                                       \
        for (int64_t i = 0; i < m; i++)                                     \
            o[i] = FULL(pa[i], b);                                          \
    }                                                                       \
    static inline VM_INLINE void NAME##_allx(T *o, const T *pa, int64_t sa, \
                                             const T *pb, int64_t sb, int64_t m) \
    {                                                                       \
        if (sa && sb)                                                       \
            NAME##_all(o, pa, pb, m);                                       \
        else if (sb)                                                        \
            NAME##_all1(o, *pa, pb, m);                                     \
        else                                                                \
            NAME##_all2(o, pa, *pb, m);                                     \
    }
#define VM_BIN_RUN(NAME, T, FIRST, RARE, RARE_OUT, CORE, FULL)              \
    VM_BIN_FULL_(NAME, T, FULL)                                             \
    static inline VM_INLINE void NAME(T *o, const T *pa, int64_t sa,        \
                                      const T *pb, int64_t sb, int64_t n)   \
    {                                                                       \
        for (int64_t j = 0; j < n; j += 256) {                              \
            int64_t m = n - j < 256 ? n - j : 256;                          \
            T *oj = o + j;                                                  \
            const T *aj = pa + j * sa, *bj = pb + j * sb;                   \
            int c = 0;                                                      \
            if (FIRST) {                                                    \
                for (int64_t i = 0; i < m; i++)                             \
                    c += RARE(aj[i * sa], bj[i * sb]);                      \
                if (c > 8) {                                                \
                    NAME##_allx(oj, aj, sa, bj, sb, m);                     \
                    continue;                                               \
                }                                                           \
            }                                                               \
            for (int64_t i = 0; i < m; i++) {                               \
                oj[i] = CORE(aj[i * sa], bj[i * sb]);                       \
                if (!(FIRST))                                               \
                    c += RARE(aj[i * sa], bj[i * sb]);                      \
            }                                                               \
            for (int64_t i = 0; i < m; i++)                                 \
                c += RARE_OUT(oj[i]);                                       \
            if (c > 8)                                                      \
                NAME##_allx(oj, aj, sa, bj, sb, m);                         \
            else if (c)                                                     \
                for (int64_t i = 0; i < m; i++)                             \
                    if (RARE(aj[i * sa], bj[i * sb]) | RARE_OUT(oj[i]))     \
                        oj[i] = NAME##_one(aj[i * sa], bj[i * sb]);         \
        }                                                                   \
    }
VM_BIN_RUN(ars_powf_run, float, 1, vm_powf_rare, vm_no_rare_out, vm_powf_core, ars_powf)
VM_BIN_RUN(ars_pow_run, double, 1, vm_pow_rare, vm_pow_rare_out, vm_pow_core, ars_pow)
VM_BIN_RUN(ars_atan2f_run, float, 1, vm_atan2f_rare, vm_no_rare_out, vm_atan2f_core, ars_atan2f)
VM_BIN_RUN(ars_atan2_run, double, 0, vm_atan2_rare, vm_no_rare_out, vm_atan2_core, ars_atan2)
VM_BIN_RUN(ars_hypot_run, double, 0, vm_hypot_rare, vm_no_rare_out, vm_hypot_core, ars_hypot)
VM_BIN_RUN(ars_logaddexp_run, double, 0, vm_logaddexp_rare, vm_no_rare_out, vm_logaddexp_core, ars_logaddexp)

/* One name per function for float and double (the loops' T). */
#define ARS_VM(NAME, x) _Generic((x), float: ars_##NAME##f, double: ars_##NAME)(x)
/* The same with the cores (vm_<NAME>_core, vm_<NAME>f_core), for the loops
 * that have their second pass. */
#define ARS_VM_CORE(NAME, x) _Generic((x), float: vm_##NAME##f_core, double: vm_##NAME##_core)(x)
/* ... with float64's core only, or float32's only */
#define ARS_VM_CORE64(NAME, x) _Generic((x), float: ars_##NAME##f, double: vm_##NAME##_core)(x)
#define ARS_VM_CORE32(NAME, x) _Generic((x), float: vm_##NAME##f_core, double: ars_##NAME)(x)

#endif
