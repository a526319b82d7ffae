/* Platform specifics (platform.h): the SIMD level, aligned allocation,
 * memory advice, the CPU count and signal masks. */
#include "platform.h"
#include "arrstride.h"
#ifdef ARS_X86_64
#include <cpuid.h>
#endif

#if defined(_WIN32)
#include <malloc.h>
#include <windows.h>
#else
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
_Static_assert(sizeof(sigset_t) <= sizeof(ars_sigmask), "ars_sigmask must hold a sigset_t");
#endif

void *ars_aligned_alloc(size_t align, size_t size)
{
#if defined(_WIN32)
    return _aligned_malloc(size, align);
#else
    void *p = NULL;
    return posix_memalign(&p, align, size) == 0 ? p : NULL;
#endif
}

void ars_aligned_free(void *p)
{
#if defined(_WIN32)
    _aligned_free(p);
#else
    free(p);
#endif
}

void ars_advise_huge(void *p, size_t size)
{
#if defined(MADV_HUGEPAGE)
    /* Advice only: a kernel without transparent huge pages ignores it. */
    (void)madvise(p, size, MADV_HUGEPAGE);
#else
    (void)p;
    (void)size;
#endif
}

long ars_online_cpus(void)
{
#if defined(_WIN32)
    DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n < 1 ? 1 : (long)n;
#else
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n;
#endif
}

void ars_block_signals(ars_sigmask *saved)
{
#if defined(_WIN32)
    (void)saved;
#else
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, (sigset_t *)(void *)saved->bytes);
#endif
}

void ars_restore_signals(const ars_sigmask *saved)
{
#if defined(_WIN32)
    (void)saved;
#else
    pthread_sigmask(SIG_SETMASK, (const sigset_t *)(const void *)saved->bytes, NULL);
#endif
}

/* ---- the SIMD level ---------------------------------------------------------------- */

#ifdef ARS_X86_64
/* XCR0: the register state the OS saves on a context switch. */
static uint64_t xcr0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}
#endif

/* The CPU's highest level: every feature of x86-64-v3 (AVX2, FMA, BMI1/2,
 * F16C, LZCNT, MOVBE) with the OS saving the YMM state, then every feature of
 * x86-64-v4 (AVX-512 F, BW, CD, DQ, VL) with the OS saving the ZMM state. */
static int cpu_best(void)
{
#ifdef ARS_X86_64
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    const unsigned v3_c1 = (1u << 12) | (1u << 22) | (1u << 23) | (1u << 27) | (1u << 28) | (1u << 29);
    if ((c & v3_c1) != v3_c1 || (xcr0() & 0x6) != 0x6)  /* FMA MOVBE POPCNT OSXSAVE AVX F16C; XMM YMM */
        return 0;
    unsigned lzcnt = __get_cpuid(0x80000001u, &a, &b, &c, &d) && (c & (1u << 5));
    if (!lzcnt || __get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    const unsigned v3_b7 = (1u << 3) | (1u << 5) | (1u << 8);  /* BMI1 AVX2 BMI2 */
    if ((b & v3_b7) != v3_b7)
        return 0;
    const unsigned v4_b7 = (1u << 16) | (1u << 17) | (1u << 28) | (1u << 30) | (1u << 31);
    if ((b & v4_b7) != v4_b7 || (xcr0() & 0xe6) != 0xe6)  /* F DQ CD BW VL; opmask, ZMM */
        return 1;
    return 2;
#else
    return 0;
#endif
}

static int level_active = -1, level_cpu, level_requested;

static void level_pick(void)
{
    int best = cpu_best(), req = -1;
    if (best > ARS_NLEVELS - 1)
        best = ARS_NLEVELS - 1;
    const char *e = getenv("ARRSTRIDE_CPU");
    if (e != NULL && *e != '\0') {
        static const char *const names[] = {"baseline", "avx2", "avx512"};
        req = -2;
        for (int i = 0; i < 3; i++)
            if (strcmp(e, names[i]) == 0)
                req = i;
        if (strcmp(e, "native") == 0)
            req = -1;
    }
    level_cpu = cpu_best();
    level_requested = req;
    __atomic_store_n(&level_active, req >= 0 && req < best ? req : best, __ATOMIC_RELEASE);
}

int ars_cpu_level(void)
{
    int v = __atomic_load_n(&level_active, __ATOMIC_ACQUIRE);
    if (v >= 0)
        return v;
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, level_pick);
    return __atomic_load_n(&level_active, __ATOMIC_ACQUIRE);
}

int ars_cpu_info(int *compiled, int *cpu, int *requested)
{
    int v = ars_cpu_level();
    *compiled = ARS_NLEVELS - 1;
    *cpu = level_cpu;
    *requested = level_requested;
    return v;
}
