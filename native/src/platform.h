/* Platform specifics, in one place: the CPU family's intrinsics, function
 * multiversioning, compiler-only attributes, streaming stores and aligned
 * allocation. Everything else in native/src is portable C11 that GCC and
 * Clang compile for x86-64 and aarch64 (Linux, and mingw-w64 for Windows).
 * x86-64 code is only ever compiled under ARS_X86_64, each time with a
 * portable fallback beside it. Internal header. */
#ifndef ARS_PLATFORM_H
#define ARS_PLATFORM_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* x86-64 with GCC's or Clang's intrinsics and target attributes. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ARS_X86_64 1
#include <emmintrin.h>
#endif

/* SIMD levels. The hot kernels (the elementwise loops, some reductions, the
 * narrow-float conversions) exist once per level, and the level picked at
 * load (ars_cpu_level: the CPU's best, or ARRSTRIDE_CPU's request within it)
 * chooses which run. On x86-64: the baseline (SSE2), AVX2 (x86-64-v3) and
 * AVX-512 (x86-64-v4); elsewhere the baseline alone. The elementwise sources
 * are compiled once per level (native/src/levels/: the same source with
 * ARS_LEVEL defined and -march=x86-64-v3 or -v4 added by setup.py); their
 * loops are named per level, ARS_LV(name) being name_l<ARS_LEVEL>. Smaller
 * kernels get a copy per level in one source, with ARS_TARGET_<level>. Every
 * level runs the same C without FMA contraction (-ffp-contract=off, and no
 * basic-block vectorizer: see setup.py; a fused multiply-add is written out,
 * vmath.h's vm_fma), so all give the same bits. ARS_TARGET_2 is only for code without floating-point arithmetic:
 * AVX-512 brings fused multiply-adds of its own. */
enum { ARS_LEVEL_BASELINE = 0, ARS_LEVEL_AVX2 = 1, ARS_LEVEL_AVX512 = 2 };
#ifndef ARS_LEVEL
#define ARS_LEVEL 0
#endif
#define ARS_LVN_(N, L) N##_l##L
#define ARS_LVN(N, L) ARS_LVN_(N, L)
#define ARS_LV(N) ARS_LVN(N, ARS_LEVEL)
#ifdef ARS_X86_64
#define ARS_NLEVELS 3
/* X(A, level) for each level compiled in */
#define ARS_EACH_LEVEL(X, A) X(A, 0) X(A, 1) X(A, 2)
#define ARS_TARGET_0
#define ARS_TARGET_1 __attribute__((target("avx2,bmi,bmi2,lzcnt,movbe,popcnt,f16c")))
#define ARS_TARGET_2 \
    __attribute__((target("avx2,bmi,bmi2,lzcnt,movbe,popcnt,f16c,avx512f,avx512bw,avx512cd,avx512dq,avx512vl")))
#else
#define ARS_NLEVELS 1
#define ARS_EACH_LEVEL(X, A) X(A, 0)
#define ARS_TARGET_0
#endif

/* The level the kernels run at, picked once (thread-safe, cheap after the
 * first call): the CPU's best unless ARRSTRIDE_CPU asks for a lower one. */
int ars_cpu_level(void);

/* An attribute only GCC knows (Clang would warn that it ignores it). */
#if defined(__GNUC__) && !defined(__clang__)
#define ARS_GCC_ATTR(...) __attribute__((__VA_ARGS__))
#else
#define ARS_GCC_ATTR(...)
#endif

/* A symbol shared between the library's sources but not exported (ELF;
 * a Windows DLL exports only what it lists). */
#if defined(_WIN32)
#define ARS_HIDDEN
#else
#define ARS_HIDDEN __attribute__((visibility("hidden")))
#endif

/* pthread_atfork where processes fork; Windows has no fork (winpthreads
 * defines pthread_atfork as nothing, which would leave the handlers unused). */
static inline void ars_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
#if defined(_WIN32)
    (void)prepare;
    (void)parent;
    (void)child;
#else
    pthread_atfork(prepare, parent, child);
#endif
}

/* Copy nbytes to dst (16-byte aligned) with non-temporal stores where the CPU
 * has them (the output lines are not read first), else with memcpy. Call
 * ars_stream_fence once after the last one. */
static inline void ars_stream_copy(char *dst, const char *src, int64_t nbytes)
{
    int64_t i = 0;
#ifdef ARS_X86_64
    for (; i + 16 <= nbytes; i += 16)
        _mm_stream_si128((__m128i *)(dst + i), _mm_loadu_si128((const __m128i *)(src + i)));
#endif
    if (i < nbytes)
        memcpy(dst + i, src + i, (size_t)(nbytes - i));
}

static inline void ars_stream_fence(void)
{
#ifdef ARS_X86_64
    _mm_sfence();
#endif
}

/* size bytes aligned to align (a power of two, a multiple of sizeof(void *)),
 * or NULL; freed with ars_aligned_free. ars_advise_huge asks the kernel for
 * transparent huge pages over [p, p + size) where it has them. */
void *ars_aligned_alloc(size_t align, size_t size);
void ars_aligned_free(void *p);
void ars_advise_huge(void *p, size_t size);

/* The online CPU count (at least 1). */
long ars_online_cpus(void);

/* Block every signal on the calling thread, saving the old mask in *saved
 * (threads started meanwhile inherit the blocked mask); ars_restore_signals
 * puts it back. No-ops where threads have no signal masks (Windows). */
typedef struct { unsigned char bytes[256]; } ars_sigmask;
void ars_block_signals(ars_sigmask *saved);
void ars_restore_signals(const ars_sigmask *saved);

#endif
