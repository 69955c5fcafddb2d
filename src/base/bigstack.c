/* bigstack.c: see bigstack.h. A stack switch, not a thread: a GL context is current on one thread,
 * and moving it to a worker would need the window system's help for every kind of context. */
#include "base/bigstack.h"

#include <stdbool.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#ifdef IKS_SANITIZE
#include <dlfcn.h>
#include <sanitizer/common_interface_defs.h>

/* AddressSanitizer's own swapcontext prints a warning on every process's first switch (one more line
 * on stderr than a command's message); the switch is announced to it through its fiber calls
 * instead, so libc's swapcontext is called directly */
static int switch_to(ucontext_t *from, const ucontext_t *to)
{
    static int (*real)(ucontext_t *, const ucontext_t *);
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, "swapcontext");
    return real ? real(from, to) : swapcontext(from, to);
}
#else
#define switch_to swapcontext
#endif

typedef struct {
    void (*fn)(void *);
    void *arg;
    ucontext_t caller;
#ifdef IKS_SANITIZE
    void *fake;                /* AddressSanitizer's fake stack of the caller, kept across the switch */
    const void *caller_bottom; /* and the caller's stack, for the switch back */
    size_t caller_size;
#endif
} job_t;

/* The call running on a mapped stack (calls inside it go straight), NULL when none; the job itself
 * lies in the caller's frame. */
static _Thread_local job_t *current;

static void trampoline(void)
{
    job_t *job = current;
#ifdef IKS_SANITIZE
    __sanitizer_finish_switch_fiber(NULL, &job->caller_bottom, &job->caller_size);
#endif
    job->fn(job->arg);
#ifdef IKS_SANITIZE
    /* NULL: this stack is done with; uc_link takes us back to the caller */
    __sanitizer_start_switch_fiber(NULL, job->caller_bottom, job->caller_size);
#endif
}

void iks_on_big_stack(void (*fn)(void *), void *arg)
{
    /* always, but inside a call already switched: how much stack a thread has left is not known
     * cheaply, and mapping the stack costs microseconds next to a compile */
    if (current) {
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
    job_t job = { .fn = fn, .arg = arg };
    uc.uc_stack.ss_sp = map + guard;
    uc.uc_stack.ss_size = IKS_BIG_STACK;
    uc.uc_link = &job.caller;
    makecontext(&uc, trampoline, 0);
    current = &job;
#ifdef IKS_SANITIZE
    __sanitizer_start_switch_fiber(&job.fake, map + guard, IKS_BIG_STACK);
#endif
    switch_to(&job.caller, &uc);
#ifdef IKS_SANITIZE
    __sanitizer_finish_switch_fiber(job.fake, NULL, NULL);
#endif
    current = NULL;
    munmap(map, IKS_BIG_STACK + guard);
}
