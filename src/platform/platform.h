/* platform.h: a GL context from some window system, behind one small table of function pointers.
 * The core (src/gpu) sees only this table: it never includes EGL or GLFW headers. */
#ifndef IKS_PLATFORM_H
#define IKS_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

#define IKS_ERR_LEN 1024

typedef void (*iks_glproc)(void);

/* Input, as the viewer needs it, independent of the window system. Positions are in framebuffer
 * pixels with y up (Shadertoy's convention), so HiDPI scaling is already applied. */
typedef enum { IKS_EV_KEY, IKS_EV_BUTTON, IKS_EV_MOVE, IKS_EV_CLOSE } iks_event_kind;
typedef enum {
    IKS_KEY_OTHER, IKS_KEY_SPACE, IKS_KEY_R, IKS_KEY_LEFT, IKS_KEY_RIGHT, IKS_KEY_F, IKS_KEY_F11, IKS_KEY_S,
    IKS_KEY_H, IKS_KEY_ESCAPE, IKS_KEY_Q
} iks_key;
typedef struct {
    iks_event_kind kind;
    iks_key key;     /* IKS_EV_KEY */
    int code;        /* IKS_EV_KEY: the JavaScript keyCode (Shadertoy's keyboard texture), 0 if none */
    bool ctrl;       /* IKS_EV_KEY: Ctrl was held */
    bool down;       /* KEY: pressed or repeated; BUTTON: the left button went down */
    bool repeat;     /* KEY: an auto-repeat of a held key */
    double x, y;     /* BUTTON, MOVE: the pointer */
} iks_event;

typedef struct iks_platform iks_platform;
struct iks_platform {
    const char *name; /* "EGL surfaceless (Mesa)", "GLFW window", ... */
    iks_glproc (*get_proc_address)(const char *name);
    bool (*make_current)(iks_platform *p);
    void (*framebuffer_size)(iks_platform *p, int *w, int *h); /* 0x0 when there is no window */
    void (*swap)(iks_platform *p);
    void (*poll)(iks_platform *p);
    void (*destroy)(iks_platform *p); /* frees p itself */
    /* Windows only (NULL for headless): the next queued input event, false when none is left. */
    bool (*next_event)(iks_platform *p, iks_event *ev);
    void (*set_title)(iks_platform *p, const char *title);
    void (*toggle_fullscreen)(iks_platform *p);
    void *impl;
};

/* Headless EGL: Mesa's surfaceless platform, then the EGL device platform (NVIDIA), then the default
 * display with a pbuffer. Returns NULL with a one-line reason in err (which platforms were tried and
 * what each said). The context is current on return. Owner: the caller, through destroy(). */
iks_platform *iks_egl_create(char err[IKS_ERR_LEN]);

/* A GLFW window with a GL 3.3 core context, current on return. w x h in screen coordinates; vsync
 * swaps once per display refresh. NULL with a one-line reason in err; no_display is set when the reason
 * is that there is no display to open a window on. Owner: the caller, through destroy(). */
typedef struct {
    int w, h;
    const char *title;
    bool vsync;
} iks_window_desc;
iks_platform *iks_glfw_create(const iks_window_desc *d, char err[IKS_ERR_LEN], bool *no_display);

/* Sanitizer builds only (a no-op otherwise): keeps every module loaded so far loaded for good. Mesa and
 * GLFW unload the GL driver on terminate, after which LeakSanitizer can no longer name the driver's
 * own leaks (they show as "<unknown module>") and so cannot suppress them by library. */
void iks_pin_modules(void);

#endif
