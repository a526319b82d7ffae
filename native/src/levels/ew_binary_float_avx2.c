/* ew_binary_float.c at SIMD level 1 (platform.h): compiled with -march=x86-64-v3 by
 * setup.py, its loops named _l1. Empty except on x86-64. */
#if defined(__x86_64__)
#define ARS_LEVEL 1
#include "../ew_binary_float.c"
#else
typedef int ars_level_1_unused;
#endif
