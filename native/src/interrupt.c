/* Ctrl-C for long kernels.
 *
 * While a kernel runs, its Python caller is inside C: Python's own SIGINT
 * handler only notes the signal, and KeyboardInterrupt is raised when the call
 * returns. A long kernel therefore has to learn about the signal itself and stop
 * early. Around such a call Python runs ars_interrupt_begin() and
 * ars_interrupt_end() on its main thread (where Python runs its signal
 * handlers). begin() installs a SIGINT handler that counts the signal and then
 * calls the handler it replaced (Python's, which notes the signal as before),
 * and end() puts the replaced handler back. Nothing is installed when SIGINT is
 * ignored or left to its default action (the process dies, as without
 * arrstride).
 *
 * A thread is "armed" between begin() and end(); the pool arms its workers
 * for the chunks of a region an armed caller started. ars_interrupted() is
 * true on an armed thread once a SIGINT has arrived since its begin(): long
 * kernels test it between blocks of work and return early, leaving their
 * output unspecified (but never writing out of bounds), and end() tells
 * Python to drop that output and raise KeyboardInterrupt. Kernels called from
 * other threads are never armed, so a Ctrl-C never cuts their work short.
 *
 * The count is a lock-free atomic, the only thing the handler writes, so the
 * handler is async-signal-safe; a signal is counted, never cleared, so
 * concurrent callers cannot lose one another's interrupts. */
#include "ars_internal.h"

#if defined(__unix__) || defined(__APPLE__)
#include <signal.h>
#define ARS_HAVE_SIGACTION 1
#endif

uint64_t ars_sigint_count = 0;
_Thread_local int64_t ars_intr_base = -1;

#if ARS_HAVE_SIGACTION
typedef void (*info_handler)(int, siginfo_t *, void *);
typedef void (*plain_handler)(int);
/* The replaced handler, as the handler reads it (maybe on another thread):
 * published before ours is installed, one of the two set. */
static info_handler replaced_info = NULL;
static plain_handler replaced_plain = NULL;
static struct sigaction replaced;   /* what end() puts back */
static int depth = 0;                /* nested begin()s; main thread only */
static int installed = 0;

static void on_sigint(int sig, siginfo_t *info, void *uc)
{
    __atomic_add_fetch(&ars_sigint_count, 1, __ATOMIC_SEQ_CST);
    info_handler hi = __atomic_load_n(&replaced_info, __ATOMIC_ACQUIRE);
    plain_handler hp = __atomic_load_n(&replaced_plain, __ATOMIC_ACQUIRE);
    if (hi)
        hi(sig, info, uc);
    else if (hp)
        hp(sig);
}
#endif

int ars_interrupt_begin(void)
{
#if ARS_HAVE_SIGACTION
    if (depth++ == 0) {
        struct sigaction cur;
        installed = 0;
        if (sigaction(SIGINT, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO ||
                                                   (cur.sa_handler != SIG_DFL &&
                                                    cur.sa_handler != SIG_IGN))) {
            replaced = cur;
            int si = (cur.sa_flags & SA_SIGINFO) != 0;
            __atomic_store_n(&replaced_info, si ? cur.sa_sigaction : NULL, __ATOMIC_RELEASE);
            __atomic_store_n(&replaced_plain, si ? NULL : cur.sa_handler, __ATOMIC_RELEASE);
            struct sigaction ours;
            memset(&ours, 0, sizeof ours);
            ours.sa_sigaction = on_sigint;
            ours.sa_flags = SA_SIGINFO | (cur.sa_flags & (SA_ONSTACK | SA_RESTART));
            ours.sa_mask = cur.sa_mask;
            installed = sigaction(SIGINT, &ours, NULL) == 0;
        }
    }
    if (!installed)
        return 0;
    ars_intr_base = (int64_t)__atomic_load_n(&ars_sigint_count, __ATOMIC_SEQ_CST);
    return 1;
#else
    return 0;
#endif
}

int ars_interrupt_end(void)
{
    int hit = ars_interrupted();
    ars_intr_base = -1;
#if ARS_HAVE_SIGACTION
    if (depth > 0 && --depth == 0 && installed) {
        /* Put the replaced handler back, unless someone replaced ours meanwhile. */
        struct sigaction cur;
        if (sigaction(SIGINT, NULL, &cur) == 0 && cur.sa_flags & SA_SIGINFO &&
            cur.sa_sigaction == on_sigint)
            sigaction(SIGINT, &replaced, NULL);
        installed = 0;
    }
#endif
    return hit;
}
