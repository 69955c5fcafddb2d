/* egl.c: headless OpenGL 3.3 core through EGL, with no display server and no hidden window.
 * Rendering goes into the core's own framebuffer objects; a surface exists only on the last-resort
 * pbuffer path. libEGL is opened at run time by glad's loader, so a machine without it gets our
 * message instead of a loader error. Failures are IKS_E_GL with one line saying what each platform
 * answered. */
#include "base/aslimit.h"
#include "platform/platform.h"

#include <glad/egl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

typedef struct {
    EGLDisplay dpy;
    EGLContext ctx;
    EGLSurface surf;
} egl_impl;

/* EGL hands every caller the same display for the same platform, and eglTerminate ends it for all of
 * them: each display in use is counted here, terminated when its last context goes. The lock also
 * keeps glad's process-wide EGL entry points from being reloaded by two threads at once. */

/* What to do when no context could be made. A driver that is installed but could not load is most
 * often a resource limit (llvmpipe maps hundreds of MiB, and needs file descriptors), not a missing
 * package: say which. */
static const char *advice(void)
{
    static char buf[200];
    struct rlimit as, nofile;
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
        snprintf(buf, sizeof buf, "the address-space limit (ulimit -v %llu KiB) may be too small for the GL driver: "
                 "raise it", (unsigned long long)as.rlim_cur / 1024);
        return buf;
    }
    if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY && nofile.rlim_cur < 64) {
        snprintf(buf, sizeof buf, "the open-file limit (ulimit -n %llu) is too small for the GL driver: raise it",
                 (unsigned long long)nofile.rlim_cur);
        return buf;
    }
    return "install libegl-mesa0 and libgl1-mesa-dri (Mesa) or your GPU vendor's EGL driver";
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct { EGLDisplay dpy; int refs; } displays[16];

/* called with lock held, after a successful eglInitialize */
static void display_ref(EGLDisplay dpy)
{
    int free_slot = -1;
    for (int i = 0; i < 16; i++) {
        if (displays[i].refs && displays[i].dpy == dpy) {
            displays[i].refs++;
            return;
        }
        if (!displays[i].refs && free_slot < 0) free_slot = i;
    }
    /* more than 16 displays at once: left uncounted, so never terminated (a leak, not a crash) */
    if (free_slot >= 0) displays[free_slot].dpy = dpy, displays[free_slot].refs = 1;
}

/* called with lock held */
static void display_unref(EGLDisplay dpy)
{
    for (int i = 0; i < 16; i++)
        if (displays[i].refs && displays[i].dpy == dpy) {
            if (--displays[i].refs == 0) eglTerminate(dpy);
            return;
        }
}

static const char *egl_error_name(EGLint e)
{
    switch (e) {
#define E(x) case x: return #x;
        E(EGL_SUCCESS) E(EGL_NOT_INITIALIZED) E(EGL_BAD_ACCESS) E(EGL_BAD_ALLOC) E(EGL_BAD_ATTRIBUTE)
        E(EGL_BAD_CONFIG) E(EGL_BAD_CONTEXT) E(EGL_BAD_CURRENT_SURFACE) E(EGL_BAD_DISPLAY)
        E(EGL_BAD_MATCH) E(EGL_BAD_NATIVE_PIXMAP) E(EGL_BAD_NATIVE_WINDOW) E(EGL_BAD_PARAMETER)
        E(EGL_BAD_SURFACE) E(EGL_CONTEXT_LOST)
#undef E
    default: return "unknown EGL error";
    }
}

static iks_glproc egl_proc(const char *name) { return (iks_glproc)eglGetProcAddress(name); }

static bool egl_make_current(iks_platform *p)
{
    egl_impl *e = p->impl;
    /* every engine call binds its context: the common case, already current, costs no driver call */
    if (eglGetCurrentContext() == e->ctx && eglGetCurrentSurface(EGL_DRAW) == e->surf) return true;
    return eglMakeCurrent(e->dpy, e->surf, e->surf, e->ctx) == EGL_TRUE;
}

static void egl_size(iks_platform *p, int *w, int *h) { (void)p; *w = 0; *h = 0; }
static void egl_nop(iks_platform *p) { (void)p; }

static void release(egl_impl *e)
{
    if (e->dpy != EGL_NO_DISPLAY) {
        /* only our own context is unbound: another engine's may be current on this thread */
        if (e->ctx != EGL_NO_CONTEXT && eglGetCurrentContext() == e->ctx)
            eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (e->ctx != EGL_NO_CONTEXT) eglDestroyContext(e->dpy, e->ctx);
        if (e->surf != EGL_NO_SURFACE) eglDestroySurface(e->dpy, e->surf);
        display_unref(e->dpy);
    }
    e->dpy = EGL_NO_DISPLAY;
    e->ctx = EGL_NO_CONTEXT;
    e->surf = EGL_NO_SURFACE;
}

static void egl_destroy(iks_platform *p)
{
    if (!p) return;
    egl_impl *e = p->impl;
    if (e) {
        pthread_mutex_lock(&lock);
        release(e);
        pthread_mutex_unlock(&lock);
        free(e);
    }
    free(p);
    /* libEGL stays loaded: unloading a GL driver while its threads may still run (llvmpipe keeps a
     * pool) is unsafe, and LeakSanitizer can only name the driver's own leaks while it is loaded. */
}

/* Initialise dpy and make a 3.3 core context current on it; pbuffer true adds a 16x16 surface for
 * drivers without surfaceless contexts. On failure writes what went wrong into why (a fixed text or an
 * EGL error's name: 256 bytes always hold it). Called with lock held. */
static bool try_display(egl_impl *e, EGLDisplay dpy, bool pbuffer, char *why, size_t n)
{
    e->dpy = EGL_NO_DISPLAY;
    e->ctx = EGL_NO_CONTEXT;
    e->surf = EGL_NO_SURFACE;
    if (dpy == EGL_NO_DISPLAY) {
        snprintf(why, n, "no display (%s)", egl_error_name(eglGetError()));
        return false;
    }
    EGLint major, minor;
    if (!eglInitialize(dpy, &major, &minor)) {
        snprintf(why, n, "eglInitialize: %s", egl_error_name(eglGetError()));
        return false;
    }
    e->dpy = dpy;
    display_ref(dpy);
    /* reload with the display so that its extensions' entry points are found */
    if (!gladLoaderLoadEGL(dpy)) {
        snprintf(why, n, "cannot load EGL %d.%d entry points", major, minor);
        goto fail;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        snprintf(why, n, "no desktop OpenGL (eglBindAPI: %s)", egl_error_name(eglGetError()));
        goto fail;
    }
    const EGLint cfg_attr[] = { EGL_SURFACE_TYPE, pbuffer ? EGL_PBUFFER_BIT : 0, EGL_RENDERABLE_TYPE,
                                EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
                                EGL_NONE };
    EGLConfig cfg = NULL;
    EGLint ncfg = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &ncfg) || ncfg < 1) {
        snprintf(why, n, "no OpenGL config (%s)", egl_error_name(eglGetError()));
        goto fail;
    }
    const EGLint ctx_attr[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                EGL_NONE };
    e->ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (e->ctx == EGL_NO_CONTEXT) {
        snprintf(why, n, "no OpenGL 3.3 core context (%s)", egl_error_name(eglGetError()));
        goto fail;
    }
    if (pbuffer) {
        const EGLint pb_attr[] = { EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE };
        e->surf = eglCreatePbufferSurface(dpy, cfg, pb_attr);
        if (e->surf == EGL_NO_SURFACE) {
            snprintf(why, n, "no pbuffer (%s)", egl_error_name(eglGetError()));
            goto fail;
        }
    }
    if (!eglMakeCurrent(dpy, e->surf, e->surf, e->ctx)) {
        snprintf(why, n, "eglMakeCurrent: %s", egl_error_name(eglGetError()));
        goto fail;
    }
    return true;
fail:
    release(e);
    return false;
}

static bool has_ext(const char *list, const char *ext)
{
    size_t n = strlen(ext);
    for (const char *s = list; s && (s = strstr(s, ext)); s += n)
        if ((s == list || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0')) return true;
    return false;
}


static iks_platform *create(iks_err *err);

iks_platform *iks_egl_create(iks_err *err)
{
    pthread_mutex_lock(&lock);
    iks_platform *p = create(err);
    pthread_mutex_unlock(&lock);
    return p;
}

/* A limit the driver cannot start under is one line here, not its crash part-way through (aslimit.h);
 * where this process already holds a display the driver is loaded and the numbers do not apply. */
static bool room_for_driver(iks_err *err)
{
    for (size_t i = 0; i < sizeof displays / sizeof *displays; i++)
        if (displays[i].refs) return true;
    iks_as_room r;
    if (!iks_as_room_now(&r) || r.limit >= r.used + r.need) return true;
    size_t mib = (size_t)1 << 20, free_mib = r.limit > r.used ? (r.limit - r.used) / mib : 0;
    iks_err_set(err, IKS_E_GL,
                "EGL: the address-space limit (ulimit -v %zu) leaves %zu MiB of this process's address space free, "
                "and a headless GL context needs about %zu MiB (llvmpipe with %d rasterizer thread%s): raise it, or "
                "set LP_NUM_THREADS lower",
                r.limit / 1024, free_mib, r.need / mib, r.threads, r.threads == 1 ? "" : "s");
    return false;
}

static iks_platform *create(iks_err *err)
{
    if (!room_for_driver(err)) return NULL;
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
        iks_err_set(err, IKS_E_GL, "EGL: cannot load libEGL.so.1; install libegl1 and libegl-mesa0 "
                                   "(or your GPU vendor's EGL driver)");
        return NULL;
    }
    egl_impl *e = calloc(1, sizeof *e);
    iks_platform *p = calloc(1, sizeof *p);
    if (!e || !p) {
        free(e);
        free(p);
        iks_err_set(err, IKS_E_NOMEM, "EGL: out of memory");
        return NULL;
    }
    p->impl = e;
    const char *cext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    bool platform_base = has_ext(cext, "EGL_EXT_platform_base") && eglGetPlatformDisplayEXT;
    char why[3][256] = { "not tried", "not tried", "not tried" };

    /* 1: Mesa's surfaceless platform: no display server, no surface at all */
    if (!platform_base) snprintf(why[0], sizeof why[0], "no EGL_EXT_platform_base");
    else if (!has_ext(cext, "EGL_MESA_platform_surfaceless"))
        snprintf(why[0], sizeof why[0], "no EGL_MESA_platform_surfaceless");
    else if (try_display(e, eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL),
                         false, why[0], sizeof why[0])) {
        p->name = "EGL surfaceless";
        goto ok;
    }

    /* 2: the EGL device platform, how NVIDIA's driver renders without X */
    if (!platform_base) snprintf(why[1], sizeof why[1], "no EGL_EXT_platform_base");
    else if (!has_ext(cext, "EGL_EXT_platform_device") || !eglQueryDevicesEXT)
        snprintf(why[1], sizeof why[1], "no EGL_EXT_platform_device");
    else {
        EGLDeviceEXT devs[8];
        EGLint ndev = 0;
        if (!eglQueryDevicesEXT(8, devs, &ndev) || ndev < 1)
            snprintf(why[1], sizeof why[1], "no devices (%s)", egl_error_name(eglGetError()));
        for (EGLint i = 0; i < ndev; i++) {
            if (try_display(e, eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devs[i], NULL), false,
                            why[1], sizeof why[1])) {
                p->name = "EGL device";
                goto ok;
            }
        }
    }

    /* 3: whatever the default display is, with a tiny pbuffer */
    if (try_display(e, eglGetDisplay(EGL_DEFAULT_DISPLAY), true, why[2], sizeof why[2])) {
        p->name = "EGL default display (pbuffer)";
        goto ok;
    }

    iks_err_set(err, IKS_E_GL, "EGL: no headless OpenGL 3.3 core context: surfaceless: %s; device: %s; default display: %s; %s",
                why[0], why[1], why[2], advice());
    free(e);
    free(p);
    return NULL;
ok:
    iks_pin_modules();
    p->get_proc_address = egl_proc;
    p->make_current = egl_make_current;
    p->framebuffer_size = egl_size;
    p->swap = egl_nop;
    p->poll = egl_nop;
    p->destroy = egl_destroy;
    return p;
}
