/* ew_unary.c at SIMD level 2 (platform.h): compiled with -march=x86-64-v4 by
 * setup.py, its loops named _l2. Empty except on x86-64. */
#if defined(__x86_64__)
#define ARS_LEVEL 2
#include "../ew_unary.c"
#else
typedef int ars_level_2_unused;
#endif
