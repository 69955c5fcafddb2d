/* platform.h: a GL context from some window system, behind one small table of function pointers.
 * The core (src/gpu) sees only this table: it never includes EGL or GLFW headers. */
#ifndef IKS_PLATFORM_H
#define IKS_PLATFORM_H

#include "base/err.h"

#include <stdbool.h>
#include <stddef.h>

/* The table itself is the public iks_window (ikshade.h): a program's own window fills one in. */
typedef iks_window iks_platform;

/* Headless EGL: Mesa's surfaceless platform, then the EGL device platform (NVIDIA), then the default
 * display with a pbuffer. Returns NULL with IKS_E_GL and a one-line reason (which platforms were tried
 * and what each said). The context is current on return. Owner: the caller, through destroy(). */
iks_platform *iks_egl_create(iks_err *e);

/* A GLFW window with a GL 3.3 core context, current on return (iks_window_desc: ikshade.h). NULL with
 * IKS_E_NO_DISPLAY when there is no display to open a window on, else IKS_E_GL with the reason.
 * Owner: the caller, through destroy(). */
iks_platform *iks_glfw_create(const iks_window_desc *d, iks_err *e);

/* ---- the current context (current.c) ---------------------------------------------------------- */

/* What is current on the calling thread: a GLX or EGL context with its display and drawables (none:
 * IKS_API_NONE), and GLFW's current window where GLFW is initialised (glfw_up). */
typedef enum { IKS_API_NONE, IKS_API_GLX, IKS_API_EGL } iks_gl_api;
typedef struct {
    iks_gl_api api;
    void *ctx, *dpy, *draw, *read;
    bool glfw_up;
    void *glfw_win;
} iks_current;
void iks_current_save(iks_current *c);
/* The same, also finding out GLFW's current window when none of ours is open (glfw_up false
 * otherwise: GLFW's bookkeeping is then untouched by us, and GLX alone is restored). It changes GLFW's
 * error callback for a moment, so only code on GLFW's main thread (opening a window) calls it. */
void iks_current_save_probing(iks_current *c);
/* the same context and drawables (GLFW's bookkeeping aside) */
bool iks_current_same(const iks_current *a, const iks_current *b);
/* Leaves nothing current where c is (a saved state that is current now), through c's own API, so that a
 * context of the other API can be made current. */
void iks_current_release(const iks_current *c);
/* Makes c current again, releasing first whatever of another API is current now, and puts GLFW's
 * current window back. false: the window system refused. */
bool iks_current_restore(const iks_current *c);

/* glfw.c's side of it: whether GLFW is initialised, and then its current window (*win): known while a
 * window of ours is open, else found out only with probe (main thread); and making a window (NULL:
 * none) current through GLFW. Neither reports to the program's GLFW error callback. */
bool iks_glfw_current(void **win, bool probe);
bool iks_glfw_make_current(void *win);

/* Puts text on the clipboard of w when w is a GLFW window of ours (iks_window_open); false for any
 * other window (a program's own table has no clipboard entry) or when GLFW refuses. */
bool iks_glfw_set_clipboard(iks_window *w, const char *text);

/* Where the window system can lose its connection for good (an X server that ends), fn(user) is called
 * at that moment, before the process is ended by what handled that before (Xlib's default: exit(1)):
 * the last chance to finish files in flight. It must not touch GL or the window. NULL fn: none.
 * Process-wide, as Xlib's hook is; set by the viewer's loop for its recordings. */
void iks_platform_on_display_lost(void (*fn)(void *user), void *user);

/* Sanitizer builds only (a no-op otherwise): keeps every module loaded so far loaded for good. Mesa and
 * GLFW unload the GL driver on terminate, after which LeakSanitizer can no longer name the driver's
 * own leaks (they show as "<unknown module>") and so cannot suppress them by library. */
void iks_pin_modules(void);

#endif
