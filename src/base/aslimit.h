/* aslimit.h: the address-space limit (RLIMIT_AS, `ulimit -v`) against what a headless GL context needs.
 * llvmpipe maps a few hundred MiB (LLVM, its JIT's sections) and more for each rasterizer thread, and
 * under a limit just too small it dies (SIGSEGV, LLVM's bad_alloc, a double free in Mesa's EGL set-up)
 * rather than failing: the numbers here let a caller say so in one line before it loads the driver.
 * Measured on Debian 12's Mesa 22.3 (docs/DESIGN-NOTES.md, "The address-space limit"). */
#ifndef IKS_ASLIMIT_H
#define IKS_ASLIMIT_H

#include <stdbool.h>
#include <stddef.h>

/* a headless context, its compiles and a small first frame: a base and a share per rasterizer thread */
#define IKS_AS_DRIVER_MIB 360
#define IKS_AS_THREAD_MIB 20

typedef struct {
    size_t limit;   /* the soft limit, bytes */
    size_t hard;    /* the hard limit, bytes (SIZE_MAX: none) */
    size_t used;    /* the address space this process has mapped now */
    int threads;    /* llvmpipe's rasterizer threads: LP_NUM_THREADS, else the cores (at most 32) */
    size_t need;    /* what the driver needs above used, for those threads */
} iks_as_room;

/* false when there is no limit (then *r is untouched) */
bool iks_as_room_now(iks_as_room *r);
/* bytes a headless context needs with t rasterizer threads */
size_t iks_as_driver_need(int t);
/* What a driver's JIT still needs after a toy's textures are made: a shader variant compiled at the
 * first draw (llvmpipe aborts with "Unable to allocate section memory" where it finds none) */
#define IKS_AS_JIT_MIB 64
/* Whether bytes more (a texture the driver will hold in this process's memory) leave the JIT its room
 * under the limit: true where there is no limit; else false with *r filled. */
bool iks_as_fits(size_t bytes, iks_as_room *r);

#endif
