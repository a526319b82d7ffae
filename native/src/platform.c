/* Platform specifics (platform.h): aligned allocation, memory advice, the
 * CPU count and signal masks. */
#include "platform.h"

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
