/* glfw.c: a window with a GL 3.3 core context through GLFW, for the viewer. GLFW's callbacks queue
 * events in the window system's terms turned into ours (framebuffer pixels, y up), so the viewer reads
 * them in order once per frame and never sees a GLFW header. Not thread-safe: GLFW itself is not (its
 * calls belong on the main thread), so the globals here need no lock. */
#include "platform/platform.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <X11/Xlib.h>
/* glfw3native.h's one declaration we use: that header also wants the headers of XRandR, which the
 * build does not otherwise need */
extern Display *glfwGetX11Display(void);

#include "base/dynlib.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* GLFW and Xlib are loaded when the first window opens (base/dynlib.h), or when the host program has
 * loaded GLFW itself (then dlopen gives the same library, and so the same GLFW state): a headless
 * program that only draws frames maps neither, nor the X libraries they bring. */
#define GLFW_FNS(X) \
    X(glfwWindowHint) X(glfwGetCurrentContext) X(glfwSetErrorCallback) X(glfwGetWindowUserPointer) \
    X(glfwMakeContextCurrent) X(glfwTerminate) X(glfwSetWindowMonitor) X(glfwInit) \
    X(glfwGetWindowSize) X(glfwGetFramebufferSize) X(glfwGetError) X(glfwDefaultWindowHints) \
    X(glfwSwapInterval) X(glfwSwapBuffers) X(glfwSetWindowUserPointer) X(glfwSetWindowTitle) \
    X(glfwSetWindowCloseCallback) X(glfwSetMouseButtonCallback) X(glfwSetKeyCallback) \
    X(glfwSetCursorPosCallback) X(glfwPollEvents) X(glfwGetWindowPos) X(glfwGetVideoMode) \
    X(glfwGetProcAddress) X(glfwGetPrimaryMonitor) X(glfwGetCursorPos) X(glfwDestroyWindow) \
    X(glfwCreateWindow) X(glfwGetX11Display) X(glfwSetClipboardString)
static struct {
    GLFW_FNS(IKS_DYN_PTR)
} lg;
static iks_dynlib libglfw = IKS_DYNLIB("libglfw.so.3", "libglfw3");
static struct {
    IKS_DYN_PTR(XSetIOErrorHandler)
} lx11;
static iks_dynlib libx11 = IKS_DYNLIB("libX11.so.6", "libx11-6");

#define X11_FNS(X) X(XSetIOErrorHandler)
#define IKS_DYN_TABLE lg
IKS_DYNLIB_LOADER(glfw_load, GLFW_FNS, libglfw, "GLFW")
#undef IKS_DYN_TABLE
#define IKS_DYN_TABLE lx11
IKS_DYNLIB_LOADER(x11_load, X11_FNS, libx11, "Xlib")
#undef IKS_DYN_TABLE

/* only_if_loaded: true when the question is about the host's GLFW, which cannot be initialised unless
 * the process has the library already */
static bool glfw_loaded(bool only_if_loaded, iks_err *e)
{
    if (only_if_loaded) {
        void *h = dlopen(libglfw.soname, RTLD_LAZY | RTLD_NOLOAD);
        if (!h) return false;
        dlclose(h);
    }
    return glfw_load(e) && x11_load(e);
}
/* the calls below go through the pointers */
#define glfwWindowHint (*lg.glfwWindowHint)
#define glfwGetCurrentContext (*lg.glfwGetCurrentContext)
#define glfwSetErrorCallback (*lg.glfwSetErrorCallback)
#define glfwGetWindowUserPointer (*lg.glfwGetWindowUserPointer)
#define glfwMakeContextCurrent (*lg.glfwMakeContextCurrent)
#define glfwTerminate (*lg.glfwTerminate)
#define glfwSetWindowMonitor (*lg.glfwSetWindowMonitor)
#define glfwInit (*lg.glfwInit)
#define glfwGetWindowSize (*lg.glfwGetWindowSize)
#define glfwGetFramebufferSize (*lg.glfwGetFramebufferSize)
#define glfwGetError (*lg.glfwGetError)
#define glfwDefaultWindowHints (*lg.glfwDefaultWindowHints)
#define glfwSwapInterval (*lg.glfwSwapInterval)
#define glfwSwapBuffers (*lg.glfwSwapBuffers)
#define glfwSetWindowUserPointer (*lg.glfwSetWindowUserPointer)
#define glfwSetWindowTitle (*lg.glfwSetWindowTitle)
#define glfwSetWindowCloseCallback (*lg.glfwSetWindowCloseCallback)
#define glfwSetMouseButtonCallback (*lg.glfwSetMouseButtonCallback)
#define glfwSetKeyCallback (*lg.glfwSetKeyCallback)
#define glfwSetCursorPosCallback (*lg.glfwSetCursorPosCallback)
#define glfwPollEvents (*lg.glfwPollEvents)
#define glfwGetWindowPos (*lg.glfwGetWindowPos)
#define glfwGetVideoMode (*lg.glfwGetVideoMode)
#define glfwGetProcAddress (*lg.glfwGetProcAddress)
#define glfwGetPrimaryMonitor (*lg.glfwGetPrimaryMonitor)
#define glfwGetCursorPos (*lg.glfwGetCursorPos)
#define glfwDestroyWindow (*lg.glfwDestroyWindow)
#define glfwCreateWindow (*lg.glfwCreateWindow)
#define glfwGetX11Display (*lg.glfwGetX11Display)
#define glfwSetClipboardString (*lg.glfwSetClipboardString)
#define XSetIOErrorHandler (*lx11.XSetIOErrorHandler)

#define QUEUE 256

typedef struct {
    GLFWwindow *win;
    iks_event q[QUEUE];
    int head, len;
    bool fullscreen;
    int saved_x, saved_y, saved_w, saved_h; /* the windowed placement, to return to */
} glfw_impl;

/* GLFW is one per process, shared with a host program that uses it too. We initialise it only when it
 * is not (we_init), and then terminate it (which closes every window) with the last of our windows;
 * one the host initialised is the host's to end. */
static _Atomic int open_windows; /* read by iks_glfw_current on any thread with an engine */
static bool we_init;

/* GLFW reports errors through one process-wide callback: ours is installed only while we open a
 * window, the last error becoming our one-line reason, and each is passed on to the host's */
static char last_error[512];
static int last_code;
static GLFWerrorfun host_cb;
static void on_error(int code, const char *msg)
{
    last_code = code;
    snprintf(last_error, sizeof last_error, "%s", msg);
    if (host_cb) host_cb(code, msg);
}

/* GLFW has no question "are you initialised?": asked for its current window before, it reports
 * GLFW_NOT_INITIALIZED, which this callback takes instead of the host's */
static bool probe_hit;
static void on_probe(int code, const char *msg)
{
    (void)msg;
    if (code == GLFW_NOT_INITIALIZED) probe_hit = true;
}

bool iks_glfw_current(void **win, bool probe)
{
    *win = NULL;
    if (open_windows > 0) {
        *win = glfwGetCurrentContext(); /* callable from any thread */
        return true;
    }
    /* the error callback is the main thread's to change: only a window's opening probes */
    if (!probe || !glfw_loaded(true, NULL)) return false;
    GLFWerrorfun prev = glfwSetErrorCallback(on_probe);
    probe_hit = false;
    GLFWwindow *w = glfwGetCurrentContext();
    glfwSetErrorCallback(prev);
    if (probe_hit) {
        (void)glfwGetError(NULL); /* the error we caused is not left for the host's glfwGetError */
        return false;
    }
    *win = w;
    return true;
}

bool iks_glfw_make_current(void *win)
{
    glfwMakeContextCurrent(win);
    return glfwGetCurrentContext() == win;
}

static void push(glfw_impl *g, const iks_event *ev)
{
    if (g->len == QUEUE) {
        /* full: pointer motion is the only thing worth dropping, and the newest is what matters */
        if (ev->kind != IKS_EV_MOVE) {
            g->head = (g->head + 1) % QUEUE;
            g->len--;
        } else return;
    }
    g->q[(g->head + g->len) % QUEUE] = *ev;
    g->len++;
}

/* the cursor in framebuffer pixels, y up, floored as shadertoy.com does */
static void to_pixels(GLFWwindow *w, double cx, double cy, double *x, double *y)
{
    int ww, wh, fw, fh;
    glfwGetWindowSize(w, &ww, &wh);
    glfwGetFramebufferSize(w, &fw, &fh);
    double sx = ww > 0 ? (double)fw / ww : 1.0, sy = wh > 0 ? (double)fh / wh : 1.0;
    *x = floor(cx * sx);
    *y = floor((double)fh - cy * sy);
}

/* GLFW's key to the browser's keyCode, which Shadertoy's keyboard texture is indexed by */
static int js_code(int key)
{
    if ((key >= GLFW_KEY_A && key <= GLFW_KEY_Z) || (key >= GLFW_KEY_0 && key <= GLFW_KEY_9)) return key;
    if (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F12) return 112 + key - GLFW_KEY_F1;
    if (key >= GLFW_KEY_KP_0 && key <= GLFW_KEY_KP_9) return 96 + key - GLFW_KEY_KP_0;
    switch (key) {
    case GLFW_KEY_SPACE: return 32;
    case GLFW_KEY_LEFT: return 37;
    case GLFW_KEY_UP: return 38;
    case GLFW_KEY_RIGHT: return 39;
    case GLFW_KEY_DOWN: return 40;
    case GLFW_KEY_ENTER: return 13;
    case GLFW_KEY_ESCAPE: return 27;
    case GLFW_KEY_TAB: return 9;
    case GLFW_KEY_BACKSPACE: return 8;
    case GLFW_KEY_LEFT_SHIFT: case GLFW_KEY_RIGHT_SHIFT: return 16;
    case GLFW_KEY_LEFT_CONTROL: case GLFW_KEY_RIGHT_CONTROL: return 17;
    case GLFW_KEY_LEFT_ALT: case GLFW_KEY_RIGHT_ALT: return 18;
    case GLFW_KEY_PAGE_UP: return 33;
    case GLFW_KEY_PAGE_DOWN: return 34;
    case GLFW_KEY_END: return 35;
    case GLFW_KEY_HOME: return 36;
    case GLFW_KEY_INSERT: return 45;
    case GLFW_KEY_DELETE: return 46;
    case GLFW_KEY_COMMA: return 188;
    case GLFW_KEY_PERIOD: return 190;
    case GLFW_KEY_SLASH: return 191;
    case GLFW_KEY_MINUS: return 189;
    case GLFW_KEY_EQUAL: return 187;
    default: return 0;
    }
}

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods)
{
    (void)scancode;
    glfw_impl *g = glfwGetWindowUserPointer(w);
    iks_key k;
    switch (key) {
    case GLFW_KEY_SPACE: k = IKS_KEY_SPACE; break;
    case GLFW_KEY_R: k = IKS_KEY_R; break;
    case GLFW_KEY_LEFT: k = IKS_KEY_LEFT; break;
    case GLFW_KEY_RIGHT: k = IKS_KEY_RIGHT; break;
    case GLFW_KEY_F: k = IKS_KEY_F; break;
    case GLFW_KEY_F11: k = IKS_KEY_F11; break;
    case GLFW_KEY_S: k = IKS_KEY_S; break;
    case GLFW_KEY_H: k = IKS_KEY_H; break;
    case GLFW_KEY_V: k = IKS_KEY_V; break;
    case GLFW_KEY_ESCAPE: k = IKS_KEY_ESCAPE; break;
    case GLFW_KEY_Q: k = IKS_KEY_Q; break;
    default: k = IKS_KEY_OTHER; break;
    }
    push(g, &(iks_event){ .kind = IKS_EV_KEY, .key = k, .code = js_code(key), .ctrl = (mods & GLFW_MOD_CONTROL) != 0,
                          .down = action != GLFW_RELEASE, .repeat = action == GLFW_REPEAT });
}

static void on_button(GLFWwindow *w, int button, int action, int mods)
{
    (void)mods;
    if (button != GLFW_MOUSE_BUTTON_LEFT) return;
    glfw_impl *g = glfwGetWindowUserPointer(w);
    double cx, cy, x, y;
    glfwGetCursorPos(w, &cx, &cy);
    to_pixels(w, cx, cy, &x, &y);
    push(g, &(iks_event){ .kind = IKS_EV_BUTTON, .down = action == GLFW_PRESS, .x = x, .y = y });
}

static void on_move(GLFWwindow *w, double cx, double cy)
{
    glfw_impl *g = glfwGetWindowUserPointer(w);
    double x, y;
    to_pixels(w, cx, cy, &x, &y);
    push(g, &(iks_event){ .kind = IKS_EV_MOVE, .x = x, .y = y });
}

static void on_close(GLFWwindow *w)
{
    push(glfwGetWindowUserPointer(w), &(iks_event){ .kind = IKS_EV_CLOSE });
}

static iks_glproc get_proc(const char *name) { return (iks_glproc)glfwGetProcAddress(name); }

static bool make_current(iks_platform *p)
{
    glfw_impl *g = p->impl;
    /* always: GLFW's idea of what is current does not see an EGL engine's eglMakeCurrent beside it */
    glfwMakeContextCurrent(g->win);
    return glfwGetCurrentContext() == g->win;
}

static void fb_size(iks_platform *p, int *w, int *h)
{
    glfw_impl *g = p->impl;
    glfwGetFramebufferSize(g->win, w, h);
}

static void swap(iks_platform *p)
{
    glfw_impl *g = p->impl;
    glfwSwapBuffers(g->win);
}

static void poll(iks_platform *p)
{
    (void)p;
    glfwPollEvents();
}

static bool next_event(iks_platform *p, iks_event *ev)
{
    glfw_impl *g = p->impl;
    if (g->len == 0) return false;
    *ev = g->q[g->head];
    g->head = (g->head + 1) % QUEUE;
    g->len--;
    return true;
}

static void set_title(iks_platform *p, const char *title)
{
    glfw_impl *g = p->impl;
    glfwSetWindowTitle(g->win, title);
}

static void toggle_fullscreen(iks_platform *p)
{
    glfw_impl *g = p->impl;
    if (g->fullscreen) {
        glfwSetWindowMonitor(g->win, NULL, g->saved_x, g->saved_y, g->saved_w, g->saved_h, GLFW_DONT_CARE);
        g->fullscreen = false;
        return;
    }
    GLFWmonitor *m = glfwGetPrimaryMonitor();
    const GLFWvidmode *mode = m ? glfwGetVideoMode(m) : NULL;
    if (!mode) return; /* no monitor to fill: stay windowed */
    glfwGetWindowPos(g->win, &g->saved_x, &g->saved_y);
    glfwGetWindowSize(g->win, &g->saved_w, &g->saved_h);
    glfwSetWindowMonitor(g->win, m, 0, 0, mode->width, mode->height, mode->refreshRate);
    g->fullscreen = true;
}

/* ---- the X server going away ------------------------------------------------------------------ */

/* Xlib calls its IO error handler when the connection dies (the server ended, the network went) and
 * exits when it returns. GLFW 3.3 installs none, so the process ended there with a recording's
 * temporary left and its video lost. Ours runs the hook first, then whatever handled it before (Xlib's
 * default, or a host program's own): the program keeps its behaviour, our files are finished. */
static XIOErrorHandler prev_io;
static bool io_hooked;
static void (*lost_fn)(void *);
static void *lost_user;

void iks_platform_on_display_lost(void (*fn)(void *user), void *user)
{
    lost_fn = fn;
    lost_user = user;
}

static int on_io_error(Display *dpy)
{
    void (*fn)(void *) = lost_fn;
    lost_fn = NULL; /* once: the hook's own work must not come back here */
    if (fn) fn(lost_user);
    if (prev_io) return prev_io(dpy);
    exit(1);
}

static void hook_io(void)
{
    if (io_hooked || !glfwGetX11Display()) return;
    prev_io = XSetIOErrorHandler(on_io_error);
    io_hooked = true;
}

static void unhook_io(void)
{
    if (!io_hooked) return;
    /* given back only if it is still ours: a handler installed after ours stays */
    XIOErrorHandler now = XSetIOErrorHandler(prev_io);
    if (now != on_io_error) XSetIOErrorHandler(now);
    io_hooked = false;
    prev_io = NULL;
}

static void destroy(iks_platform *p)
{
    if (!p) return;
    glfw_impl *g = p->impl;
    if (g && g->win) glfwDestroyWindow(g->win);
    if (open_windows == 1) unhook_io();
    if (--open_windows == 0 && we_init) {
        glfwTerminate();
        we_init = false;
    }
    free(g);
    free(p);
}

static iks_platform *create(const iks_window_desc *d, int w, int h, bool host_init, iks_err *err);

iks_platform *iks_glfw_create(const iks_window_desc *d, iks_err *err)
{
    static const iks_window_desc dflt = { 0 };
    if (!d) d = &dflt;
    if (d->width < 0 || d->height < 0) {
        iks_err_set(err, IKS_E_USAGE, "window size %dx%d: expected positive sides (0: the default)", d->width, d->height);
        return NULL;
    }
    int w = d->width ? d->width : IKS_DEFAULT_WIDTH, h = d->height ? d->height : IKS_DEFAULT_HEIGHT;
    if (!glfw_loaded(false, err)) return NULL;
    void *ignored;
    bool host_init = open_windows == 0 && iks_glfw_current(&ignored, true);
    host_cb = glfwSetErrorCallback(on_error);
    last_error[0] = '\0';
    last_code = 0;
    iks_platform *p = create(d, w, h, host_init, err);
    glfwSetErrorCallback(host_cb);
    host_cb = NULL;
    return p;
}

static iks_platform *create(const iks_window_desc *d, int w, int h, bool host_init, iks_err *err)
{
    if (!glfwInit()) {
        /* GLFW 3.3 says "X11: The DISPLAY environment variable is missing" or "Failed to open display" */
        bool no_display = last_code == GLFW_PLATFORM_ERROR || strstr(last_error, "DISPLAY") ||
                          strstr(last_error, "display");
        /* a display that is there but cannot be reached for want of descriptors is no missing display */
        const char *disp = getenv("DISPLAY");
        struct rlimit nofile;
        if (disp && *disp && getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY &&
            nofile.rlim_cur < 64)
            iks_err_set(err, IKS_E_GL, "GLFW: %s: the open-file limit (ulimit -n %llu) is too small to reach display %s: "
                        "raise it", last_error[0] ? last_error : "cannot initialise",
                        (unsigned long long)nofile.rlim_cur, disp);
        else
            iks_err_set(err, no_display ? IKS_E_NO_DISPLAY : IKS_E_GL, "GLFW: %s",
                        last_error[0] ? last_error : "cannot initialise");
        return NULL;
    }
    if (open_windows++ == 0) we_init = !host_init; /* this window's share, given back by destroy */
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    glfw_impl *g = calloc(1, sizeof *g);
    iks_platform *p = calloc(1, sizeof *p);
    if (!g || !p) {
        free(g);
        free(p);
        if (--open_windows == 0 && we_init) glfwTerminate(), we_init = false;
        iks_err_set(err, IKS_E_NOMEM, "GLFW: out of memory");
        return NULL;
    }
    p->impl = g;
    p->name = "GLFW window";
    p->get_proc_address = get_proc;
    p->make_current = make_current;
    p->framebuffer_size = fb_size;
    p->swap = swap;
    p->poll = poll;
    p->destroy = destroy;
    p->next_event = next_event;
    p->set_title = set_title;
    p->toggle_fullscreen = toggle_fullscreen;
    g->win = glfwCreateWindow(w, h, d->title ? d->title : "ikshade", NULL, NULL);
    if (!g->win) {
        iks_err_set(err, IKS_E_GL, "GLFW: cannot open a GL 3.3 core window: %s",
                    last_error[0] ? last_error : "unknown reason");
        glfwDefaultWindowHints(); /* before destroy, which may terminate GLFW */
        destroy(p);
        return NULL;
    }
    glfwSetWindowUserPointer(g->win, g);
    glfwSetKeyCallback(g->win, on_key);
    glfwSetMouseButtonCallback(g->win, on_button);
    glfwSetCursorPosCallback(g->win, on_move);
    glfwSetWindowCloseCallback(g->win, on_close);
    /* the hints are process-wide: a host's next window gets GLFW's defaults, not ours */
    glfwDefaultWindowHints();
    glfwMakeContextCurrent(g->win);
    glfwSwapInterval(d->no_vsync ? 0 : 1); /* a setting of the current context: ours, made current for it */
    hook_io();
    iks_pin_modules();
    return p;
}

bool iks_glfw_set_clipboard(iks_window *w, const char *text)
{
    /* our tables alone have this make_current: any other is a program's own window */
    if (!w || w->make_current != make_current || !text) return false;
    glfw_impl *g = w->impl;
    glfwSetClipboardString(g->win, text);
    return true;
}
