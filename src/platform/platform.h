/* platform.h: a GL context from some window system, behind one small table of function pointers.
 * The core (src/gpu) sees only this table: it never includes EGL or GLFW headers. */
#ifndef IKS_PLATFORM_H
#define IKS_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

#define IKS_ERR_LEN 1024

typedef void (*iks_glproc)(void);

typedef struct iks_platform iks_platform;
struct iks_platform {
    const char *name; /* "EGL surfaceless (Mesa)", "GLFW window", ... */
    iks_glproc (*get_proc_address)(const char *name);
    bool (*make_current)(iks_platform *p);
    void (*framebuffer_size)(iks_platform *p, int *w, int *h); /* 0x0 when there is no window */
    void (*swap)(iks_platform *p);
    void (*poll)(iks_platform *p);
    void (*destroy)(iks_platform *p); /* frees p itself */
    void *impl;
};

/* Headless EGL: Mesa's surfaceless platform, then the EGL device platform (NVIDIA), then the default
 * display with a pbuffer. Returns NULL with a one-line reason in err (which platforms were tried and
 * what each said). The context is current on return. Owner: the caller, through destroy(). */
iks_platform *iks_egl_create(char err[IKS_ERR_LEN]);

#endif
