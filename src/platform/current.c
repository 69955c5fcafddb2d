/* current.c: which GL context is current on this thread, whatever made it (a host's GLX or EGL context,
 * GLFW's idea of its current window, one of ours), saved and made current again. Under libglvnd a
 * thread holds a context of one API at a time: making an EGL context current over a GLX one fails
 * (EGL_BAD_ACCESS), and a GLX one over an EGL one is an X BadAccess that ends the program. So a switch
 * between APIs first releases what is current, through its own API. libGL and libEGL are only looked
 * up where the process has loaded them already (RTLD_NOLOAD): an API not loaded has nothing current.
 * No EGL or GLX headers: the few entry points are declared here, as the ABI has them. */
#include "platform/platform.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

typedef unsigned int egl_bool;
#define EGL_DRAW_ 0x3059
#define EGL_READ_ 0x305A

static struct {
    bool tried;
    void *(*egl_ctx)(void), *(*egl_dpy)(void), *(*egl_surf)(int);
    egl_bool (*egl_make)(void *, void *, void *, void *);
    void *(*glx_ctx)(void), *(*glx_dpy)(void);
    unsigned long (*glx_draw)(void), (*glx_read)(void);
    int (*glx_make)(void *, unsigned long, unsigned long, void *);
} api;

/* engines on several threads look the entry points up at once */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *sym(void *lib, const char *name) { return lib ? dlsym(lib, name) : NULL; }

/* the entry points of what is loaded; looked up again until both APIs are there, since a program
 * loads libGL (glfwInit) or libEGL (our first headless engine) at any time */
static void lookup(void)
{
    if (api.egl_ctx && api.glx_ctx) return;
    if (!api.egl_ctx) {
        void *egl = dlopen("libEGL.so.1", RTLD_LAZY | RTLD_NOLOAD);
        *(void **)&api.egl_ctx = sym(egl, "eglGetCurrentContext");
        *(void **)&api.egl_dpy = sym(egl, "eglGetCurrentDisplay");
        *(void **)&api.egl_surf = sym(egl, "eglGetCurrentSurface");
        *(void **)&api.egl_make = sym(egl, "eglMakeCurrent");
        if (!api.egl_dpy || !api.egl_surf || !api.egl_make) api.egl_ctx = NULL;
        if (egl) dlclose(egl); /* NOLOAD took a reference of its own: the library stays loaded */
    }
    if (!api.glx_ctx) {
        void *glx = dlopen("libGLX.so.0", RTLD_LAZY | RTLD_NOLOAD);
        if (!glx) glx = dlopen("libGL.so.1", RTLD_LAZY | RTLD_NOLOAD);
        *(void **)&api.glx_ctx = sym(glx, "glXGetCurrentContext");
        *(void **)&api.glx_dpy = sym(glx, "glXGetCurrentDisplay");
        *(void **)&api.glx_draw = sym(glx, "glXGetCurrentDrawable");
        *(void **)&api.glx_read = sym(glx, "glXGetCurrentReadDrawable");
        *(void **)&api.glx_make = sym(glx, "glXMakeContextCurrent");
        if (!api.glx_dpy || !api.glx_draw || !api.glx_read || !api.glx_make) api.glx_ctx = NULL;
        if (glx) dlclose(glx);
    }
}

static void save(iks_current *c, bool probe)
{
    memset(c, 0, sizeof *c);
    pthread_mutex_lock(&lock);
    lookup();
    pthread_mutex_unlock(&lock);
    c->glfw_up = iks_glfw_current(&c->glfw_win, probe);
    void *ctx;
    if (api.glx_ctx && (ctx = api.glx_ctx())) {
        c->api = IKS_API_GLX;
        c->ctx = ctx;
        c->dpy = api.glx_dpy();
        c->draw = (void *)api.glx_draw();
        c->read = (void *)api.glx_read();
    } else if (api.egl_ctx && (ctx = api.egl_ctx())) {
        c->api = IKS_API_EGL;
        c->ctx = ctx;
        c->dpy = api.egl_dpy();
        c->draw = api.egl_surf(EGL_DRAW_);
        c->read = api.egl_surf(EGL_READ_);
    }
}

void iks_current_save(iks_current *c) { save(c, false); }
void iks_current_save_probing(iks_current *c) { save(c, true); }

bool iks_current_same(const iks_current *a, const iks_current *b)
{
    return a->api == b->api && a->ctx == b->ctx && a->dpy == b->dpy && a->draw == b->draw && a->read == b->read;
}

void iks_current_release(const iks_current *c)
{
    if (c->api == IKS_API_GLX) api.glx_make(c->dpy, 0, 0, NULL);
    else if (c->api == IKS_API_EGL) api.egl_make(c->dpy, NULL, NULL, NULL);
}

bool iks_current_restore(const iks_current *c)
{
    iks_current now;
    iks_current_save(&now);
    bool glfw_differs = now.glfw_up && now.glfw_win != c->glfw_win;
    if (iks_current_same(&now, c) && !glfw_differs) return true;
    /* GLFW's current window is its own bookkeeping beside GLX's: a host that had its window current
     * gets it back through GLFW, so that glfwGetCurrentContext answers as before */
    if (c->api == IKS_API_GLX && c->glfw_win) {
        if (now.api == IKS_API_EGL) iks_current_release(&now);
        return iks_glfw_make_current(c->glfw_win);
    }
    /* GLFW forgets its window by releasing GLX, which is safe only with nothing current */
    bool forget = glfw_differs && now.glfw_win;
    if (now.api != IKS_API_NONE && (now.api != c->api || c->api == IKS_API_NONE || forget)) iks_current_release(&now);
    if (forget) iks_glfw_make_current(NULL);
    if (c->api == IKS_API_GLX) return api.glx_make(c->dpy, (unsigned long)c->draw, (unsigned long)c->read, c->ctx) != 0;
    if (c->api == IKS_API_EGL) return api.egl_make(c->dpy, c->draw, c->read, c->ctx) != 0;
    return true;
}
