/* no_glfw.c: an LD_PRELOAD module for tests/test_bad_inputs.sh. dlopen of libglfw fails, as on a
 * machine without libglfw3 (a GPU server): what `ikshade view` says there, which a machine with GLFW
 * installed cannot otherwise show. Every other library loads as usual. */
#include <dlfcn.h>
#include <string.h>

/* exported: the project builds with hidden visibility */
__attribute__((visibility("default"))) void *dlopen(const char *file, int mode)
{
    if (file && strstr(file, "libglfw")) return NULL;
    void *(*real)(const char *, int);
    *(void **)&real = dlsym(RTLD_NEXT, "dlopen");
    return real(file, mode);
}
