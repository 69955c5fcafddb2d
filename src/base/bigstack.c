/* bigstack.c: see bigstack.h. A stack switch, not a thread: a GL context is current on one thread,
 * and moving it to a worker would need the window system's help for every kind of context. */
#include "bigstack.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#ifdef IKS_SANITIZE
#include <sanitizer/common_interface_defs.h>
#endif

typedef struct {
    void (*fn)(void *);
    void *arg;
    ucontext_t caller;
    bool on_big;               /* fn is running on the mapped stack: calls inside it go straight */
#ifdef IKS_SANITIZE
    void *fake;                /* AddressSanitizer's fake stack of the caller, kept across the switch */
    const void *caller_bottom; /* and the caller's stack, for the switch back */
    size_t caller_size;
#endif
} job_t;

static _Thread_local job_t job;

/* How much of this thread's stack lies below the caller's frame; SIZE_MAX when it cannot be told */
static size_t stack_left(void)
{
    pthread_attr_t a;
    void *lo = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &a) != 0) return SIZE_MAX;
    int rc = pthread_attr_getstack(&a, &lo, &size);
    pthread_attr_destroy(&a);
    if (rc != 0 || !lo) return SIZE_MAX;
    char here;
    uintptr_t at = (uintptr_t)&here, bottom = (uintptr_t)lo;
    return at > bottom && at - bottom <= size ? at - bottom : SIZE_MAX;
}

static void trampoline(void)
{
#ifdef IKS_SANITIZE
    __sanitizer_finish_switch_fiber(NULL, &job.caller_bottom, &job.caller_size);
#endif
    job.fn(job.arg);
#ifdef IKS_SANITIZE
    /* NULL: this stack is done with; uc_link takes us back to the caller */
    __sanitizer_start_switch_fiber(NULL, job.caller_bottom, job.caller_size);
#endif
}

void iks_on_big_stack(void (*fn)(void *), void *arg)
{
    if (job.on_big || stack_left() >= IKS_BIG_STACK / 2) {
        fn(arg);
        return;
    }
    long page = sysconf(_SC_PAGESIZE);
    size_t guard = page > 0 ? (size_t)page : 4096;
    char *map = mmap(NULL, IKS_BIG_STACK + guard, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    ucontext_t uc;
    if (map == MAP_FAILED || getcontext(&uc) != 0) {
        if (map != MAP_FAILED) munmap(map, IKS_BIG_STACK + guard);
        fn(arg);
        return;
    }
    /* an overflow of this stack too faults at once rather than writing below it */
    mprotect(map, guard, PROT_NONE);
    uc.uc_stack.ss_sp = map + guard;
    uc.uc_stack.ss_size = IKS_BIG_STACK;
    uc.uc_link = &job.caller;
    makecontext(&uc, trampoline, 0);
    job.fn = fn;
    job.arg = arg;
    job.on_big = true;
#ifdef IKS_SANITIZE
    __sanitizer_start_switch_fiber(&job.fake, map + guard, IKS_BIG_STACK);
#endif
    swapcontext(&job.caller, &uc);
#ifdef IKS_SANITIZE
    __sanitizer_finish_switch_fiber(job.fake, NULL, NULL);
#endif
    job.on_big = false;
    munmap(map, IKS_BIG_STACK + guard);
}
