/* Platform specifics (platform.h): aligned allocation and memory advice. */
#include "platform.h"

#if defined(_WIN32)
#include <malloc.h>
#else
#include <sys/mman.h>
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
