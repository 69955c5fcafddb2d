/* limits.c: the address-space limit (`ulimit -v`, RLIMIT_AS), common in job scripts. The GL driver
 * (llvmpipe: LLVM and its threads) maps a few hundred MiB and does not survive every allocation that
 * fails: under a limit just too small it died of SIGSEGV growing a stack, of LLVM's bad_alloc or of a
 * double free in Mesa's EGL set-up, without a word. So, in this process, which is ours:
 * - the soft limit is raised to the hard one where it is below what a command needs (base/aslimit.h);
 * - where all of llvmpipe's rasterizer threads do not fit, fewer do (LP_NUM_THREADS), with a line;
 * - the command's thread gets a stack reserved whole and up front, of a size the limit leaves room for
 *   (a stack that grows on demand is the first thing to fail when the space is gone, and a 512 MiB
 *   reservation left the driver too little);
 * - malloc keeps to one arena (each thread's own would reserve 64 MiB of address space);
 * - a limit below what the driver needs here is one line before any GL work;
 * - under a limit, a crash is one line naming the signal and the limit, then the signal's death (its
 *   temporaries removed), in case the driver needs more than the check knew. */
#include "base/aslimit.h"
#include "cli/cli.h"
#include "ikshade/ikshade.h"

#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define MIB ((size_t)1 << 20)
#define BIG_STACK ((size_t)512 << 20)
#define MIN_STACK ((size_t)16 << 20)

static char crash_line[256];

static void on_crash(int sig)
{
    ssize_t w = write(STDERR_FILENO, crash_line, strlen(crash_line));
    (void)w;
    const char *name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGILL ? "SIGILL" : "SIGABRT";
    w = write(STDERR_FILENO, name, strlen(name));
    w = write(STDERR_FILENO, ")\n", 2);
    iks_signals_die(sig);
}

void iks_limits_thread(void)
{
    /* a stack overflow's SIGSEGV has no stack to run its handler on but this; one per thread that
     * asks (the main thread and the command's), of a size that the write and raise need */
    static char alt[2][64 * 1024];
    static int used;
    if (used >= 2) return;
    stack_t ss = { .ss_sp = alt[used++], .ss_size = sizeof alt[0] };
    sigaltstack(&ss, NULL);
}

bool iks_limits_prepare(const char *cmd, size_t *stack)
{
    *stack = BIG_STACK;
    iks_as_room r;
    if (!iks_as_room_now(&r)) return true;
    mallopt(M_ARENA_MAX, 1); /* before the command's thread mallocs */
    size_t base = r.used + MIN_STACK; /* what the process has, and the command's stack at its least */
    if (r.limit < base + r.need && r.hard > r.limit) {
        struct rlimit l;
        getrlimit(RLIMIT_AS, &l);
        l.rlim_cur = l.rlim_max;
        if (setrlimit(RLIMIT_AS, &l) == 0) iks_as_room_now(&r);
    }
    if (r.limit < base + r.need && !getenv("LP_NUM_THREADS")) {
        /* fewer rasterizer threads fit where all of them do not: slower, but it runs */
        long fit = r.limit < base + iks_as_driver_need(0)
                       ? -1
                       : (long)((r.limit - base - iks_as_driver_need(0)) / ((size_t)IKS_AS_THREAD_MIB * MIB));
        if (fit >= 1) {
            char n[16];
            snprintf(n, sizeof n, "%ld", fit);
            setenv("LP_NUM_THREADS", n, 1);
            iks_warn(cmd, "the address-space limit (ulimit -v %zu) leaves room for %ld of %d rasterizer threads: "
                     "drawing with %ld", r.limit / 1024, fit, r.threads, fit);
            iks_as_room_now(&r);
        }
    }
    if (r.limit < base + r.need) {
        size_t want = (base + r.need + MIB - 1) / MIB;
        iks_fail(cmd, "the address-space limit (ulimit -v %zu) is %zu MiB, below the %zu MiB the GL driver and the "
                 "shader compiler need here (%d rasterizer thread%s): raise it (ulimit -v %zu) or lift it (ulimit -v "
                 "unlimited)",
                 r.limit / 1024, r.limit / MIB, want, r.threads, r.threads == 1 ? "" : "s", want * 1024);
        return false;
    }
    /* room for the driver first: the stack gets an eighth of what is left above that, within 16 ..
     * 512 MiB (the library compiles on a bigger stack of its own where it can map one) */
    size_t spare = (r.limit - base - r.need) / 8 + MIN_STACK;
    *stack = spare > BIG_STACK ? BIG_STACK : spare;
    snprintf(crash_line, sizeof crash_line,
             "ikshade %s: died under the address-space limit of %zu MiB (ulimit -v %zu): the GL driver needs more "
             "here; raise or lift it (",
             cmd, r.limit / MIB, r.limit / 1024);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
    iks_limits_thread();
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
    sigaction(SIGABRT, &sa, NULL);
    return true;
}
