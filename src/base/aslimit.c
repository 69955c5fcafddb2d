#include "base/aslimit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#define MIB ((size_t)1 << 20)

size_t iks_as_driver_need(int t) { return ((size_t)IKS_AS_DRIVER_MIB + (size_t)IKS_AS_THREAD_MIB * (size_t)t) * MIB; }

/* llvmpipe's own rule: LP_NUM_THREADS where set, else one per core, at most LP_MAX_THREADS (32) */
static int rasterizer_threads(void)
{
    const char *e = getenv("LP_NUM_THREADS");
    char *end;
    long n = e && *e ? strtol(e, &end, 10) : -1;
    if (!e || !*e || *end || n < 0) n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 0 ? 1 : n > 32 ? 32 : (int)n;
}

bool iks_as_room_now(iks_as_room *r)
{
    struct rlimit l;
    if (getrlimit(RLIMIT_AS, &l) != 0 || l.rlim_cur == RLIM_INFINITY) return false;
    r->limit = (size_t)l.rlim_cur;
    r->hard = l.rlim_max == RLIM_INFINITY ? SIZE_MAX : (size_t)l.rlim_max;
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "re");
    if (!f || fscanf(f, "%lu", &pages) != 1) pages = 0;
    if (f) fclose(f);
    r->used = (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
    r->threads = rasterizer_threads();
    r->need = iks_as_driver_need(r->threads);
    return true;
}

bool iks_as_fits(size_t bytes, iks_as_room *r)
{
    if (!iks_as_room_now(r)) return true;
    size_t want = bytes + (size_t)IKS_AS_JIT_MIB * MIB;
    return r->limit > r->used && r->limit - r->used >= want;
}
