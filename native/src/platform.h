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

/* ARS_CLONES("default", "avx2", ...): a function compiled once per listed
 * x86-64 level, one picked at load. target_clones needs ifuncs (ELF with glibc
 * or FreeBSD's libc); elsewhere, and on other CPUs, the function is compiled
 * once for the baseline. Every clone runs the same C: the loops' results do
 * not depend on the clone (no FMA contraction: -ffp-contract=off). */
#if defined(ARS_X86_64) && defined(__ELF__) && (defined(__GLIBC__) || defined(__FreeBSD__))
#define ARS_CLONES(...) __attribute__((target_clones(__VA_ARGS__)))
#else
#define ARS_CLONES(...)
#endif

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
