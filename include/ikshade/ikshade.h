/* ikshade.h: the ikshade engine as a library: Shadertoy-style toys (a GLSL file, a shadertoy.com JSON,
 * a directory of passes, or source text in memory) drawn with OpenGL into memory, rendered to files,
 * or run live against a window, reloading on every save.
 *
 * Conventions
 * - Opaque handles with create/destroy pairs; the caller owns what a create gives it.
 * - Description structs whose zero fields mean the defaults: `&(iks_render_desc){ .output = "a.png" }`.
 *   Each begins with struct_size, the bytes of the struct as the caller's header defines it; set it
 *   with the struct's INIT macro (`iks_render_desc d = IKS_RENDER_DESC_INIT;`, or
 *   `&(iks_render_desc){ IKS_DESC_SIZE(iks_render_desc), .output = "a.png" }`). 0 reads the struct as the
 *   first header with the field laid it out, so a zero-initialised one keeps working; a size the library
 *   cannot read is IKS_E_USAGE about "struct_size" (the policy: docs/DESIGN-NOTES.md, "ABI and SONAME").
 *   A struct the library fills in the caller's memory carries its size the same way (struct_size,
 *   out_size, iks_render_desc.stats_size), and no byte past it is written.
 * - Every call that writes into the caller's memory takes the buffer's length in bytes (and a stride
 *   for pixels): a buffer too small for what was asked is IKS_E_USAGE naming the field, never written.
 * - Every call that can fail returns an iks_code; on failure the calling thread's last error holds the
 *   code and a message made where the error happened (`iks_last_error`). The library never prints and
 *   never exits: warnings go to the engine's logger callback.
 * - One engine owns one GL context (headless EGL, or the caller's); use it, and everything made from it,
 *   from the thread that created it. Callbacks (progress, live) may use another engine; the log
 *   callback, called in the middle of the work, must not.
 * - The host contract: the library changes nothing of its caller's that it did not create, or gives it
 *   back. Every call returns with the context that was current before it current again (GLX, EGL,
 *   GLFW's current window; or none), even one that made its own context current for the work, and an
 *   engine can be made whatever is current. On an engine made from the caller's own context (get_proc)
 *   each call saves the GL state it may touch (program, vertex array, array, element and pixel
 *   buffers, framebuffers, renderbuffer, viewport, scissor, the enables, colour mask, clear colour,
 *   polygon mode, pixel storage, units 0-3's textures and samplers, the active unit), draws with the
 *   plain state it needs, and restores it. GLFW is initialised by iks_window_open only when it is not
 *   already, and then terminated with the last library window; the program's GLFW error callback
 *   stays (it also hears the errors of opening a window); GLFW's window hints are back at their
 *   defaults after iks_window_open. Pending GL errors of the caller's context are read (cleared) by
 *   calls on an engine made from it. iks_engine_bind / iks_engine_unbind keep an engine current across
 *   many calls, saving the switches.
 * - The GL compiler recurses into a shader's expressions (once a term: a statement of 30,000 overflowed
 *   a default 8 MiB thread), so the library compiles on a 512 MiB stack of its own, mapped for the
 *   call and switched to on the calling thread, when the thread's is smaller.
 * - Pixels handed to the caller are top row first (image order, as PNGs store them).
 *
 * The solver alone, without GL, is <ikshade/ik.h> (libik).
 */
#ifndef IKSHADE_H
#define IKSHADE_H

#include "ik.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
/* a description of type T, zero but for its struct_size (templates cannot have C linkage: before it) */
template <typename T> inline T iks_desc_init_() { T d = T(); d.struct_size = sizeof(T); return d; }
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define IKS_API __attribute__((visibility("default")))
#else
#define IKS_API
#endif

#define IKSHADE_VERSION_MAJOR 0
#define IKSHADE_VERSION_MINOR 3
#define IKSHADE_VERSION_PATCH 0
/* The same under the library's prefix, and as one number that compares in order: MAJOR * 10000 +
 * MINOR * 100 + PATCH (0.2.0 -> 200, 1.12.3 -> 11203). A program checks the library it runs against
 * with iks_version_number() >= the number it needs. */
#define IKS_VERSION_MAJOR IKSHADE_VERSION_MAJOR
#define IKS_VERSION_MINOR IKSHADE_VERSION_MINOR
#define IKS_VERSION_PATCH IKSHADE_VERSION_PATCH
#define IKS_VERSION_NUMBER (IKS_VERSION_MAJOR * 10000 + IKS_VERSION_MINOR * 100 + IKS_VERSION_PATCH)
/* The size of a frame, a toy's buffers and a window where a description leaves it 0, and the largest
 * side any of them may have (a GL's own limit, iks_engine_max_size, is usually lower) */
#define IKS_XSTR_(x) #x
#define IKS_XSTR(x) IKS_XSTR_(x) /* a macro's value as a string: "1280" */
#define IKS_DEFAULT_WIDTH 1280
#define IKS_DEFAULT_HEIGHT 720
#define IKS_MAX_SIDE 65536
#define IKS_CUBE_SIDE 1024 /* a Cube A face's side on shadertoy.com: iks_toy_desc.cube_size's default */

/* struct_size, the first member of every description struct, as its INIT macro sets it. In C, a
 * designator: `&(iks_toy_desc){ IKS_DESC_SIZE(iks_toy_desc), .path = "x" }`. C++ before 20 has no
 * designators, and `{ sizeof(T) }` draws -Wextra's missing-initializer warning there, so a C++ INIT
 * macro is a value-initialised T with the size set (iks_desc_init_ below); assign the members after. */
#ifdef __cplusplus
#define IKS_DESC_SIZE(T) sizeof(T)
#define IKS_DESC_INIT_(T) iks_desc_init_<T>()
#else
#define IKS_DESC_SIZE(T) .struct_size = sizeof(T)
#define IKS_DESC_INIT_(T) { IKS_DESC_SIZE(T) }
#endif

/* The library's version, "MAJOR.MINOR.PATCH" (may differ from the header a program was built with). */
IKS_API const char *iks_version(void);
/* The library's version as IKS_VERSION_NUMBER writes it, of the library loaded at run time. */
IKS_API int iks_version_number(void);

/* ---- errors ------------------------------------------------------------------------------------ */

/* One list makes the codes and their names. A command line maps them to exit status: USAGE -> 2,
 * INTERRUPTED -> 130, every other failure -> 1. */
#define IKS_ERROR_LIST(X)                                                                              \
    X(IKS_OK, "ok")                                                                                    \
    X(IKS_E_USAGE, "usage")             /* a bad argument or description: the caller's mistake */    \
    X(IKS_E_IO, "io")                   /* a file could not be read, found or written */               \
    X(IKS_E_FORMAT, "format")           /* an input is malformed: JSON, manifest, include, binary */   \
    X(IKS_E_NOT_SHADER, "not-shader")   /* a file that defines neither mainImage nor main() */         \
    X(IKS_E_COMPILE, "compile")         /* the driver refused the GLSL: message = mapped log lines */  \
    X(IKS_E_GL, "gl")                   /* no GL context, or GL could not make an object */            \
    X(IKS_E_NO_DISPLAY, "no-display")   /* no display to open a window on */                          \
    X(IKS_E_NOMEM, "out-of-memory")                                                                    \
    X(IKS_E_UNSUPPORTED, "unsupported") /* a tool or feature this machine lacks (ffmpeg, ...) */      \
    X(IKS_E_INTERRUPTED, "interrupted") /* stopped by the caller (a progress callback said stop) */

typedef enum {
#define IKS_ENUM_(e, s) e,
    IKS_ERROR_LIST(IKS_ENUM_)
#undef IKS_ENUM_
    IKS_CODE_COUNT
} iks_code;

/* "ok", "usage", ...; "?" for a value outside the list. */
IKS_API const char *iks_code_name(iks_code code);
/* The calling thread's last failure: its code, and (if message is not NULL) its text, valid until the
 * next failing call on this thread. IKS_OK with "" when nothing has failed. A compile error's text is
 * the driver's log mapped to the user's files, one `path:line:col: error: ...` line each (no `:col` where
 * the driver gives none, as NVIDIA's does not); any other text is one line naming the input and what is
 * wrong. */
IKS_API iks_code iks_last_error(const char **message);
/* The field of the caller's description that the last error is about, named as this header names the
 * fields: a member ("fps", "output", "time0", "checkpoint_every"), "size" (width and height), "frames"
 * (first and end), or a member and an index ("sets[1]", "channel[2]", "include_dirs[0]"); "" when it is
 * about no one field. Such a message is "FIELD VALUE: REASON" ("fps 0: expected a number from ..."),
 * and reason (may be NULL) gets REASON alone, so that a program can name the field in its own words: the
 * command line writes its flag and the text the user typed ("--fps '0': expected ..."). Reasons that
 * mention another field name it as this header does too (missing_media_black). */
IKS_API const char *iks_last_error_field(const char **reason);
/* Forgets the calling thread's last error. */
IKS_API void iks_clear_error(void);

/* ---- logging ----------------------------------------------------------------------------------- */

/* WARN: something was ignored or will not work as asked. INFO: a note on what is being done.
 * DIAGNOSTICS: a driver's compile warnings, as compiler-style lines (path:line:col: warning: ...), to
 * be shown as they are. */
typedef enum { IKS_LOG_WARN, IKS_LOG_INFO, IKS_LOG_DIAGNOSTICS } iks_log_level;
/* Warnings (an ignored sound pass, a uniform the compiler removed, compile warnings) and notes (frames
 * drawn unsaved for a range's buffers). message holds no trailing newline; it may hold several lines. */
typedef void (*iks_log_fn)(void *user, iks_log_level level, const char *message);

/* ---- windows ----------------------------------------------------------------------------------- */

/* Input as the live loop needs it, independent of the window system. Positions are framebuffer pixels
 * with y up (Shadertoy's convention), HiDPI scaling already applied. */
typedef enum { IKS_EV_KEY, IKS_EV_BUTTON, IKS_EV_MOVE, IKS_EV_CLOSE } iks_event_kind;
typedef enum {
    IKS_KEY_OTHER, IKS_KEY_SPACE, IKS_KEY_R, IKS_KEY_LEFT, IKS_KEY_RIGHT, IKS_KEY_F, IKS_KEY_F11, IKS_KEY_S,
    IKS_KEY_H, IKS_KEY_ESCAPE, IKS_KEY_Q, IKS_KEY_V
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

typedef void (*iks_glproc)(void);

/* A GL context from some window system, as one table of functions. The library makes one for headless
 * EGL and one for a GLFW window (iks_window_open); a program with its own window fills one in. Headless
 * tables leave the window-only entries NULL. */
typedef struct iks_window iks_window;
struct iks_window {
    const char *name;                                      /* "GLFW window", "EGL surfaceless (Mesa)" */
    iks_glproc (*get_proc_address)(const char *name);
    bool (*make_current)(iks_window *w);
    void (*framebuffer_size)(iks_window *w, int *width, int *height); /* 0x0 when there is none */
    void (*swap)(iks_window *w);
    void (*poll)(iks_window *w);
    void (*destroy)(iks_window *w);                        /* frees w itself; NULL: the caller's */
    bool (*next_event)(iks_window *w, iks_event *ev);      /* the next queued event; false: none left */
    void (*set_title)(iks_window *w, const char *title);
    void (*toggle_fullscreen)(iks_window *w);
    void *impl;                                            /* the window system's own state */
};

typedef struct {
    size_t struct_size; /* IKS_DESC_SIZE(iks_window_desc): see the conventions at the top */
    int width, height;  /* in screen coordinates; 0: IKS_DEFAULT_WIDTH x IKS_DEFAULT_HEIGHT */
    const char *title;  /* NULL: "ikshade" */
    bool no_vsync;      /* swap as fast as possible instead of once per refresh */
} iks_window_desc;
#define IKS_WINDOW_DESC_INIT IKS_DESC_INIT_(iks_window_desc)
/* Checks a window's description without a display: IKS_E_USAGE about "size" (0 or 1 to 16384). */
IKS_API iks_code iks_window_check(const iks_window_desc *d);
/* Opens a GLFW window with a GL 3.3 core context; the caller's context stays current (the engine made
 * on the window makes it current for its own calls). IKS_E_NO_DISPLAY when there is no
 * display to open it on. Close it with iks_window_close, after the engine that uses it is destroyed. */
IKS_API iks_code iks_window_open(const iks_window_desc *d, iks_window **out);
IKS_API void iks_window_close(iks_window *w);

/* ---- the engine -------------------------------------------------------------------------------- */

typedef struct iks_engine iks_engine;

typedef struct {
    size_t struct_size; /* IKS_DESC_SIZE(iks_engine_desc): see the conventions at the top */
    /* Where GL comes from. Both NULL: a headless EGL context the engine makes and owns. window: that
     * window's context (the live loop needs one). get_proc: the loader of a context the caller made
     * current, for drawing into memory from a program that has its own window. */
    iks_window *window;
    iks_glproc (*get_proc)(const char *name);
    /* The directory holding ik.glsl and the demos; NULL: $IKSHADE_SHADERS, the source tree the
     * library was built from, then the installed share/ikshade/shaders. */
    const char *shader_dir;
    iks_log_fn log;     /* NULL: warnings are dropped */
    void *log_user;
    /* Bytes of decoded media (every image, cubemap face and volume) one toy of this engine may hold,
     * checked from each file's header before it is decoded: a toy of a few small files can declare
     * gigabytes of pixels. 0: 1 GiB. A toy past it fails to load (IKS_E_UNSUPPORTED naming the file and
     * media_budget). */
    size_t media_budget;
} iks_engine_desc;
#define IKS_ENGINE_DESC_INIT IKS_DESC_INIT_(iks_engine_desc)

/* Works whatever context is current (a program's GLX or EGL context, another engine's, none) and
 * returns with that one current again. */
IKS_API iks_code iks_engine_create(const iks_engine_desc *d, iks_engine **out);
/* Order of destruction: toys keep their engine alive. Destroying an engine whose toys are still alive
 * gives the handle up (the caller must not use it again) and leaves the engine, its context and its
 * GL objects to the toys, which stay usable; the last iks_toy_destroy frees it. A toy of an engine made
 * on the caller's context (get_proc) needs that context current when it is destroyed, as always.
 * NULL is a no-op. */
IKS_API void iks_engine_destroy(iks_engine *e);
/* Makes e's context current, remembering what the caller had current, until iks_engine_unbind makes
 * that current again; calls in between skip their own switches (and, on an engine made from the
 * caller's context, keep its GL state saved once, given back by unbind: draw nothing of your own in
 * between). Pairs nest; every library call does the same inside. IKS_E_GL when the window system
 * refuses the context. */
IKS_API iks_code iks_engine_bind(iks_engine *e);
IKS_API void iks_engine_unbind(iks_engine *e);
IKS_API const char *iks_engine_renderer(const iks_engine *e);   /* GL_RENDERER */
IKS_API const char *iks_engine_gl_version(const iks_engine *e); /* GL_VERSION */
IKS_API int iks_engine_max_size(const iks_engine *e);           /* the largest frame side the GL allows */
IKS_API const char *iks_engine_shader_dir(const iks_engine *e); /* NULL when none was found */
/* Waits until every GL command issued so far has run (for timing). */
IKS_API void iks_engine_finish(iks_engine *e);
/* GL objects alive now, found by asking GL about every name up to max_name: leak checks. */
IKS_API int iks_engine_live_objects(iks_engine *e, unsigned max_name);

/* The shaders directory as the engine would find it, without an engine: NULL when none. */
IKS_API const char *iks_find_shader_dir(void);
/* The toys that ship with ikshade ("limb", "creature", ...): the name of the i-th from 0, NULL past the
 * last; *about (when about is not NULL) gets its one-line description. Static strings. */
IKS_API const char *iks_demo(int i, const char **about);
/* Where the demo NAME is: its absolute path, beside the shaders directory iks_find_shader_dir finds
 * (share/ikshade/examples when installed), into buf of n bytes. false: no demo of that name, its
 * files are not there, or buf is too small. Whether a bare name means a demo or a file of the user's is
 * the caller's rule (the command line's: a toy in the current directory wins). */
IKS_API bool iks_demo_path(const char *name, char *buf, size_t n);

/* ---- built-in uniforms ------------------------------------------------------------------------- */

/* A uniform ikshade declares in a pass and sets before every draw (iResolution, iTime, iMouse, ...):
 * its GLSL name, its type (with an array's length: "vec3[4]"), what its value is, and which passes have
 * it ("every pass", "Cube A", "the sound pass"). */
typedef struct {
    const char *name, *type, *doc, *passes;
} iks_builtin;
/* The i-th built-in uniform, from 0; NULL past the last. A setting (iks_toy_desc.sets) may not name
 * one: ikshade would overwrite it before every frame. */
IKS_API const iks_builtin *iks_builtin_uniform(int i);

/* ---- toys -------------------------------------------------------------------------------------- */

typedef struct iks_toy iks_toy;

typedef enum { IKS_GLSL_AUTO, IKS_GLSL_ES, IKS_GLSL_330 } iks_glsl;

/* A uniform's components' type (iks_uniform_info, iks_value) */
typedef enum { IKS_UNIFORM_FLOAT, IKS_UNIFORM_INT, IKS_UNIFORM_UINT, IKS_UNIFORM_BOOL } iks_uniform_type;
/* A value of one of the toy's own uniforms, typed: what a program gives a toy at load
 * (iks_toy_desc.values) and what the parameter panel hands back (iks_live_desc.on_values): name, its n
 * components (1 to 4; a float's as GL holds it, an int's whole, a bool's 0 or 1) and, handed back, the
 * uniform's type. */
typedef struct {
    char name[64];
    int n;
    double v[4];
    iks_uniform_type type;
} iks_value;

typedef struct {
    size_t struct_size; /* IKS_DESC_SIZE(iks_toy_desc): see the conventions at the top */
    /* What to load: a shader file, a shadertoy.com .json, or a directory toy (image.glsl, common.glsl,
     * a.glsl .. d.glsl, cube_a.glsl, sound.glsl, manifest.txt). NULL with source NULL: the IK limb demo
     * (limb.frag). A file that defines mainSound is its own sound pass as well (only that without a
     * mainImage). */
    const char *path;
    /* GLSL text of the Image pass held in memory; path (may be NULL) then only names it in messages
     * and locates its relative #includes. */
    const char *source;
    /* iChannel0..3 of a single file or source: FILE.png|FILE.jpg|cube:FILE.png|FILE.bin (a
     * volume)|an audio or video file|keyboard|black|a..d|cube_a, then ,filter= ,wrap= ,vflip= ,srgb= */
    const char *channel[4];
    /* "NAME=V" or "NAME=V1,V2[,V3[,V4]]" for uniforms the shader declares (float, int, uint, bool and
     * vectors); an undeclared name is an IKS_E_USAGE error. */
    const char *const *sets;
    int nsets;
    /* #include search, after the including file's directory and before the shaders directory */
    const char *const *include_dirs;
    int n_include_dirs;
    iks_glsl glsl;          /* AUTO: GLSL ES 3.00 for a JSON where the GL accepts it, 3.30 for a file */
    bool missing_media_black; /* media a JSON names that are not on disk become black */
    /* Replaces one include by a file: `#include "ik.glsl"` -> a port of the solver. Both or neither. */
    const char *override_include, *override_path;
    int width, height;      /* the buffers' first size; 0: the default (IKS_DEFAULT_WIDTH x _HEIGHT). Drawing at
                               another size resizes */
    /* A JSON's or directory toy's media (textures, cubemap faces; links resolved) must lie inside the
     * toy's directory, since a toy may come from anywhere: true lifts that (IKS_E_FORMAT otherwise).
     * The channels given in channel[] are the caller's own and may lie anywhere. */
    bool allow_media_outside;
    /* Also check each pass as shadertoy.com's GLSL ES 3.00 (glslangValidator where installed, else the
     * GL's own ES compiler for a toy built as 3.30): what the site would reject is logged as warnings in
     * the user's file:line; the load still succeeds. The command line turns it on. */
    bool es_check;
    /* A whole toy held in memory: a shadertoy.com JSON as the site exports it or its API returns it
     * (Common, Buffers A-D, Cube A, Image, Sound and their channels), instead of a file. path (may be
     * NULL) then names it in messages and locates its media: beside path, or in the current directory.
     * Not with source (IKS_E_USAGE, field "json"). */
    const char *json;
    /* Only the toy's sound will be drawn (a render to .wav): the textures and videos of the other
     * passes are neither loaded nor required (as on the site, the sound pass reads only its own
     * channels); their music channels, which are heard, still are. A toy loaded so draws no frames
     * (iks_render refuses them with IKS_E_USAGE). */
    bool sound_only;
    /* Cube A's face side in pixels: 0 is the site's 1024 (IKS_CUBE_SIDE). A toy's Cube A draws its six
     * faces every frame, which on a CPU renderer can take minutes at 1024; a smaller side previews it
     * (the faces are sampled the same way, at the lower resolution). At most the GL's cubemap limit. */
    int cube_size;
    /* The toy's own uniforms' first values, typed (nvalues of them: name, n components), applied after
     * sets as the typed setters (iks_toy_set_float ...) would apply them: a name the shader does not
     * declare, a built-in uniform, a count or type that does not fit, or a value the uniform's type
     * cannot hold (past a float's range; an int's or uint's fraction or past its 32 bits; a bool's other
     * than 0 or 1) is IKS_E_USAGE about "values[i]". Each value's type is not read: the shader's
     * declaration decides.
     * (Added after 0.2.0: iks_live_desc, which holds an iks_toy_desc, is read by its struct_size in
     * either layout.) */
    const iks_value *values;
    int nvalues;
} iks_toy_desc;
#define IKS_TOY_DESC_HAS_VALUES 1 /* this header's iks_toy_desc has values and nvalues */
/* "NAME=V" or "NAME=V1,V2[,V3[,V4]]" (true and false for 1 and 0; numbers in the C locale) into out,
 * type float: a user's text as a typed value (the command line's --set). IKS_E_USAGE about the field
 * "setting" for text of another shape; what a toy refuses (a built-in, a value past a float) is said
 * when the value is used. */
IKS_API iks_code iks_value_parse(const char *setting, iks_value *out);
#define IKS_TOY_DESC_INIT IKS_DESC_INIT_(iks_toy_desc)

/* Checks a toy's description without GL and without reading the toy: the settings (their syntax, a
 * built-in uniform, a value a float cannot hold), the channel specs and the files they name, the
 * include directories, glsl and the size. IKS_E_USAGE about the field: "sets[i]", "channel[c]",
 * "include_dirs[i]", "glsl", "size". iks_toy_load checks the same first. */
IKS_API iks_code iks_toy_check(const iks_toy_desc *d);
/* Loads and builds a toy. A bad channel spec or setting is IKS_E_USAGE (as iks_toy_check); a file that
 * cannot be read IKS_E_IO; a malformed JSON, manifest or include IKS_E_FORMAT; no mainImage
 * IKS_E_NOT_SHADER; the driver's refusal IKS_E_COMPILE. */
IKS_API iks_code iks_toy_load(iks_engine *e, const iks_toy_desc *d, iks_toy **out);
IKS_API void iks_toy_destroy(iks_toy *t);
/* The name for titles and reports: the file's or directory's name, or the JSON's info.name. */
IKS_API const char *iks_toy_name(const iks_toy *t);
IKS_API bool iks_toy_has_buffers(const iks_toy *t);  /* Buffers A-D carry state from frame to frame */
IKS_API bool iks_toy_has_sound(const iks_toy *t);    /* a sound pass (mainSound): .wav output, a video's audio */
IKS_API bool iks_toy_has_image(const iks_toy *t);    /* a picture: false for a sound shader alone */
IKS_API bool iks_toy_reads_keyboard(const iks_toy *t);
/* How many errors the GLSL ES check of the load found (iks_toy_desc.es_check); -1 when not checked. */
IKS_API int iks_toy_es_issues(const iks_toy *t);
/* Sets one uniform ("NAME=V[,V..]") in every pass that declares it. A value its type cannot hold is
 * IKS_E_USAGE, by the rule of iks_toy_desc.values and the #iUniform lines. */
IKS_API iks_code iks_toy_set(iks_toy *t, const char *setting);

/* The toy's own uniforms, for a program's controls (sliders, checkboxes): those its author declared in
 * the picture's passes (Buffers A-D, Cube A, Image), each name once, float, int, uint or bool, scalar
 * or vector; not ikshade's (iks_builtin_uniform), not arrays or samplers. */
typedef struct {
    const char *name;       /* valid while the toy lives */
    const char *glsl_type;  /* as declared: "vec3", "int", "bvec2" */
    iks_uniform_type type;  /* its components' type */
    int n;                  /* components: 1 for a scalar, 2 to 4 for a vector */
    double value[4];        /* its value now (n of them): the shader's initialiser or 0, then the last set
                               (a float's as GL holds it, rounded to float; a bool's 0 or 1) */
    bool active;            /* false: the compiler removed it (nothing reads it), so setting it does
                               nothing visible */
    /* A range declared for it (`#iUniform float r1 = 0.6 in { 0.05, 2.0 } step 0.01`), for a slider:
     * min .. max for every component, in steps of step (0: continuous). has_range false: a number field. */
    bool has_range;
    double min, max, step;
    double initial[4];      /* its value when the toy was loaded: the declared default (reset goes back to
                               it), before any setting */
    bool color;             /* declared color3 or color4: a colour picker (its components 0 .. 1) */
    bool declared;          /* declared by an #iUniform line (a parameter with a default), not a plain
                               uniform */
} iks_uniform_info;
/* How many there are (0 for NULL): index them 0 .. count-1. */
IKS_API int iks_toy_uniform_count(const iks_toy *t);
/* The i-th into out, which has out_size bytes (sizeof(iks_uniform_info)): never a byte past them, the
 * members that fit filled. IKS_E_USAGE for an i outside 0 .. count-1, naming "index", and for an
 * out_size below 88 (name .. step, the first layout), naming "out_size". */
IKS_API iks_code iks_toy_uniform_get(const iks_toy *t, int i, iks_uniform_info *out, size_t out_size);
/* The same with this header's size. (The library's symbol of that name, which programs built against
 * 0.2.0's headers call, cannot know their size: it fills the first layout's 88 bytes, name .. step.) */
IKS_API iks_code iks_toy_uniform_info(const iks_toy *t, int i, iks_uniform_info *out);
#define iks_toy_uniform_info(t, i, out) iks_toy_uniform_get((t), (i), (out), sizeof *(out))

/* ---- a toy described, without GL ----------------------------------------------------------------
 * What a toy is, read and checked as iks_toy_load reads it (the same builder: the description, the
 * file, JSON or directory, every pass's text with its #includes) but with no GL context, no engine and
 * no media decoded: its passes, each pass's channels and the uniforms its author declared. For a
 * program's "open" dialog, a tool listing a toy's inputs before fetching them, `ikshade info`. Works
 * where no EGL display can be made. The structs it fills are the caller's: struct_size
 * (IKS_DESC_SIZE) says how many bytes the caller has, and the library writes no more (0: this header's
 * layout). Strings stay valid while the spec lives. */
typedef struct iks_toy_spec iks_toy_spec;
/* IKS_E_USAGE for the description (as iks_toy_check), else iks_toy_load's codes but IKS_E_COMPILE
 * (nothing is compiled) and IKS_E_GL. */
IKS_API iks_code iks_toy_describe(const iks_toy_desc *d, iks_toy_spec **out);
/* What a channel spec (iks_toy_desc.channel[c]) may be, for a shell's completion, from the library's
 * table of channel kinds: "words:W W ...|file:EXT EXT ..." (the words, then the file endings). */
IKS_API const char *iks_channel_completion(void);
IKS_API void iks_toy_spec_free(iks_toy_spec *s);
IKS_API const char *iks_toy_spec_name(const iks_toy_spec *s); /* its title: a JSON's name, a file's */
/* Its passes in the order a frame draws them: Common (text every pass includes) first where there is
 * one, the buffers as the site draws them, Cube A, Image, then Sound. 0 for NULL. */
IKS_API int iks_toy_spec_pass_count(const iks_toy_spec *s);
typedef struct {
    size_t struct_size;     /* IKS_DESC_SIZE(iks_pass_info) */
    const char *name;       /* "Common", "Buffer A" .. "Buffer D", "Cube A", "Image", "Sound" */
    int id;                 /* its iks_pass_id (iks_toy_set_channel's pass); -1 for Common and Sound */
    const char *source;     /* its file, or the name its text goes by ("toy.json[Buffer A]", "<memory>") */
    const char *entry;      /* the function it defines: "mainImage", "mainCubemap", "mainSound"; "" for Common */
    int channels;           /* how many of its iChannel0..3 read something */
} iks_pass_info;
/* The i-th pass (0 .. count-1): IKS_E_USAGE for another i, naming "index". */
IKS_API iks_code iks_toy_spec_pass(const iks_toy_spec *s, int i, iks_pass_info *out);
typedef struct {
    size_t struct_size;     /* IKS_DESC_SIZE(iks_channel_info) */
    /* What it reads: "image", "cubemap", "volume", "music", "video", "buffer", "cube_a", "keyboard",
     * "black" (no file: a missing medium or a live input made black, or black asked for); NULL: nothing
     * (the channel is unused). */
    const char *kind;
    const char *source;     /* the file (a cubemap's first face), or the pass read ("Buffer B", "Cube A");
                               NULL for the keyboard and black */
    const char *filter;     /* "linear", "nearest", "mipmap" */
    const char *wrap;       /* "clamp", "repeat" */
    bool vflip, srgb;
    const char *sampler;    /* how the pass declares iChannelN: "sampler2D", "samplerCube", "sampler3D" */
} iks_channel_info;
/* Channel c (0..3) of the i-th pass: IKS_E_USAGE naming "index" or "channel". */
IKS_API iks_code iks_toy_spec_channel(const iks_toy_spec *s, int i, int c, iks_channel_info *out);
/* The uniforms its author declared in the picture's passes, each name once, as iks_toy_uniform_info
 * will list them after a load (the compiler may yet remove one that nothing reads). */
IKS_API int iks_toy_spec_uniform_count(const iks_toy_spec *s);
typedef struct {
    size_t struct_size;     /* IKS_DESC_SIZE(iks_declared_uniform) */
    const char *name;
    const char *glsl_type;  /* as the compiler sees it: "vec3", "int", "bvec2" */
    iks_uniform_type type;
    int n;                  /* components, 1 to 4 */
    const char *passes;     /* the passes that declare it: "Image", "Buffer A, Image" */
    bool declared;          /* by an #iUniform line, which gives: */
    bool has_range, color;
    double min, max, step;
    double initial[4];      /* the #iUniform default; 0 for a plain uniform (its initialiser is the
                               compiler's: iks_toy_uniform_info after a load has it) */
} iks_declared_uniform;
/* The i-th (0 .. count-1): IKS_E_USAGE for another i, naming "index". */
IKS_API iks_code iks_toy_spec_uniform(const iks_toy_spec *s, int i, iks_declared_uniform *out);

/* Set one by name, in every pass that declares it, with n values of the setter's type: float and vec2-4
 * by iks_toy_set_float, int and ivec by _int, uint and uvec by _uint, bool and bvec by _bool. A name the
 * toy does not declare, one of ikshade's own, a uniform of another type or n other than its component
 * count is IKS_E_USAGE naming the uniform (and the setter to use), and nothing is set. One typed
 * function per type, as GL's glUniform*: the compiler checks the values' type, and a ctypes caller
 * passes a plain array. */
IKS_API iks_code iks_toy_set_float(iks_toy *t, const char *name, const float *v, int n);
IKS_API iks_code iks_toy_set_int(iks_toy *t, const char *name, const int *v, int n);
IKS_API iks_code iks_toy_set_uint(iks_toy *t, const char *name, const unsigned *v, int n);
IKS_API iks_code iks_toy_set_bool(iks_toy *t, const char *name, const bool *v, int n);
/* Back to the state before its first frame: every buffer's and Cube A's contents zero, no key held,
 * as when it was loaded (its uniforms keep the values set). The next draw should be iFrame 0. */
IKS_API iks_code iks_toy_reset(iks_toy *t);
/* What frames leave behind for later frames (every buffer in full float, both halves of each pair,
 * Cube A's faces, the keyboard), saved into memory and restored: the checkpoint of `render
 * --checkpoint` as calls. iks_toy_state_size gives the bytes save writes (0 for NULL); they depend on
 * the toy's passes and its size now. save: IKS_E_USAGE when len is less. load: into a toy of the same
 * passes and size (IKS_E_USAGE otherwise), from bytes a save wrote (IKS_E_FORMAT for anything else,
 * checked whole before any of it is used). */
IKS_API size_t iks_toy_state_size(const iks_toy *t);
IKS_API iks_code iks_toy_state_save(iks_toy *t, void *buf, size_t len);
IKS_API iks_code iks_toy_state_load(iks_toy *t, const void *buf, size_t len);
/* A key (JavaScript keyCode 0..255) went down or up: the keyboard channel's rows. */
IKS_API void iks_toy_key(iks_toy *t, int keycode, bool down);

/* The uniforms of one frame. Zero fields: iTimeDelta 0, iFrameRate 0, iMouse 0, and iDate fixed at
 * 2000-01-01 with its seconds = iTime, so that renders repeat; real_date takes the clock instead. */
typedef struct {
    double time;              /* iTime */
    long frame;               /* iFrame */
    double time_delta;        /* iTimeDelta */
    double frame_rate;        /* iFrameRate */
    float mouse[4];           /* iMouse as shadertoy.com defines it, in pixels of the frame */
    bool real_date;
} iks_frame_info;

/* Where a frame goes: into memory (rgba8, rgbaf), into the caller's framebuffer (fbo), or only into
 * the toy's Image texture (iks_toy_image_texture); any of them together. */
typedef struct {
    size_t struct_size;     /* IKS_DESC_SIZE(iks_draw_desc) */
    int width, height;      /* the frame; 0x0: the toy's size now, iks_toy_desc's at first. Another size
                               resizes the buffers (their contents kept where they overlap) */
    /* RGBA8 pixels, top row first, rgba8_stride bytes from one row to the next (0: width*4; at least
       that): rgba8_len must hold (height-1)*stride + width*4 bytes. NULL: none. */
    uint8_t *rgba8;
    size_t rgba8_len, rgba8_stride;
    /* The same as 4 floats a pixel (stride 0: width*16 bytes; a multiple of 4). With rgbaf the Image pass
       is drawn into a float target, so values above 1 and below 1/255 survive, and rgba8 is then the same
       picture rounded to 8 bits. */
    float *rgbaf;
    size_t rgbaf_len, rgbaf_stride;
    /* hdr: the Image pass into a float target (RGBA32F) without rgbaf: for fbo and the Image texture */
    bool hdr;
    /* to_fbo: also into framebuffer object fbo of the caller's context (0: its default framebuffer),
       in the rectangle x, y, w, h of it (GL's convention: x, y its lower left corner; w, h 0: the frame's
       size; another size scales, linearly). Only on an engine made from the caller's context
       (iks_engine_desc.get_proc) or its window: IKS_E_USAGE otherwise. The frame is drawn at
       width x height and copied (glBlitFramebuffer), so its pixels are those rgba8 would get. The
       caller's bindings, viewport and the rest of the state the host contract lists are as they were
       after the call. */
    bool to_fbo;
    unsigned fbo;
    int x, y, w, h;
} iks_draw_desc;
#define IKS_DRAW_DESC_INIT IKS_DESC_INIT_(iks_draw_desc)
/* Draws one frame: Buffers A-D, then Image, into what d names (d NULL: only draw, at the toy's size;
 * see iks_engine_finish). IKS_E_USAGE naming the field for a size below 1x1 ("size"), a stride below a
 * row or not a whole number of floats ("rgba8_stride", "rgbaf_stride"), a length too small for the
 * frame ("rgba8_len", "rgbaf_len": nothing written), to_fbo on a headless engine ("fbo"), or a
 * rectangle with a negative side ("w"). A framebuffer GL refuses to draw into is IKS_E_GL. A toy with Cube A
 * draws it in steps where it is slow, and iks_interrupt stops it between two (IKS_E_INTERRUPTED; its
 * buffers are then mid-frame: reset or restore it). */
IKS_API iks_code iks_toy_draw(iks_toy *t, const iks_frame_info *f, const iks_draw_desc *d);
/* The Image pass's picture of the last iks_toy_draw, as a GL_TEXTURE_2D of the engine's context that the
 * caller may sample (bind it, read it with glGetTexImage or a framebuffer of its own) but not change or
 * delete: it is the toy's, valid until the next iks_toy_draw or iks_toy_destroy (a draw at another size
 * or format makes another). Its rows are GL's, bottom row first; internal format GL_RGBA8 (0x8058), or
 * GL_RGBA32F (0x8814) after a draw with rgbaf or hdr: *format (may be NULL) gets which. Its sampler
 * state is left as GL's default (linear, no mipmaps): set your own sampler object. IKS_E_USAGE before
 * the first draw. */
IKS_API iks_code iks_toy_image_texture(iks_toy *t, unsigned *texture, int *width, int *height, unsigned *format);

/* A channel fed by the caller instead of what the toy's description names, until it is replaced again or
 * cleared (iks_toy_set_channel with d NULL): a host's camera, video or drawing. Either a texture of the
 * engine's context (texture and target; the caller keeps it, and must keep it alive while the toy reads
 * it), or pixels in memory copied into a texture the toy owns (pixels, format, width, height,
 * stride; the caller's memory is not used after the call, so a new frame every draw is one call). */
typedef enum { IKS_PIXELS_RGBA8, IKS_PIXELS_RGBAF } iks_pixel_format;
typedef enum { IKS_PASS_IMAGE, IKS_PASS_A, IKS_PASS_B, IKS_PASS_C, IKS_PASS_D, IKS_PASS_CUBE_A } iks_pass_id;
typedef struct {
    size_t struct_size;     /* IKS_DESC_SIZE(iks_channel_desc) */
    iks_pass_id pass;       /* which pass's channel: 0, the Image pass (a single file's only one) */
    /* A texture: GL_TEXTURE_2D (0x0DE1), or GL_TEXTURE_CUBE_MAP (0x8513) / GL_TEXTURE_3D (0x806F) for a
       channel the toy declared a cubemap or a volume (the shader's sampler type is fixed at load).
       width, height (and depth) say its size for iChannelResolution (0: read from the texture). */
    unsigned texture, target;
    /* Pixels: top row first (as images: the top row is at texture coordinate y = 1), stride bytes from one
       row to the next (0: width x the pixel's bytes; at least that, a multiple of 4 bytes), 4 bytes a
       pixel (RGBA8) or 4 floats (RGBAF, kept as RGBA32F: values above 1 survive). */
    const void *pixels;
    iks_pixel_format format;
    int width, height, depth;
    size_t stride;
} iks_channel_desc;
#define IKS_CHANNEL_DESC_INIT IKS_DESC_INIT_(iks_channel_desc)
/* Sets channel c (0..3) of d->pass. IKS_E_USAGE naming the field: "channel" (c), "pass" (one the toy
 * lacks), "target" (another than the shader's sampler type, or not a texture), "format", "size" (width
 * or height below 1 or past the GL's largest), "stride" (below a row, or not a multiple of 4), "pixels"
 * and "texture" (both or neither). The channel is sampled with the filter and wrap its description gave
 * it (linear and clamped by default; a mipmapped filter builds mipmaps of pixels, and is linear on a
 * caller's texture, whose levels the library does not touch). */
IKS_API iks_code iks_toy_set_channel(iks_toy *t, int c, const iks_channel_desc *d);
/* The live input devices a viewer's mic and webcam channels can capture, by kind: kind i's name
 * ("microphone", "webcam"), NULL past the last. iks_devices calls each for every device of that kind, the
 * system's default marked; IKS_E_USAGE naming "kind" for an unknown one, IKS_E_UNSUPPORTED or IKS_E_IO
 * when they cannot be listed (no sound server, no pactl), with the reason. (Added in 0.4: IKSHADE_1.1.) */
IKS_API const char *iks_device_kind(int i);
IKS_API iks_code iks_devices(const char *kind, void (*each)(void *user, const char *name, const char *about, bool is_default),
                             void *user);
/* Sound for a microphone channel (mic in its description) from the caller's own capture, appended
 * after what came before (from any thread, while the toy lives): frames of channels interleaved
 * floats (-1..1) at rate, which must be 44100 (the site's analyser's; resample before). Stereo is
 * mixed to mono as WebAudio does ((L + R) / 2); 1 or 2 channels. Each draw then shows the site's 512x2
 * texture of the newest sound (spectrum and waveform) and iChannelTime the seconds fed so far.
 * IKS_E_USAGE naming "pass" (an iks_pass_id the toy lacks), "channel" (not 0..3, or not a microphone
 * channel), "channels", "rate" or "samples" (NULL with frames > 0). (Added in 0.4: IKSHADE_1.1.) */
IKS_API iks_code iks_toy_feed_audio(iks_toy *t, iks_pass_id pass, int channel, const float *samples, size_t frames,
                                    int channels, int rate);
/* Samples first .. first+n-1 of the toy's sound pass (sample s plays at s / 44100 s; its `time` is the
 * site's float one, from the 512x512 block that holds s, whatever first is) into lr, 2n floats
 * interleaved left, right, as mainSound returned them (not clamped); lr_len, its bytes, must hold them
 * (IKS_E_USAGE about "lr_len" otherwise). IKS_E_USAGE without a sound pass (iks_toy_has_sound) or for a
 * range the site's 32-bit sample numbers cannot reach. */
IKS_API iks_code iks_toy_sound(iks_toy *t, long first, long n, float *lr, size_t lr_len);

/* ---- stopping ---------------------------------------------------------------------------------- */

/* Async-signal-safe, for a program's SIGINT/SIGTERM handler: every render in the process stops after
 * the frames in flight (IKS_E_INTERRUPTED, every file on disk complete), a write blocked on a pipe
 * gives up when the signal interrupts it, and iks_live_run returns. It stays set until
 * iks_interrupt_reset. */
IKS_API void iks_interrupt(void);
IKS_API void iks_interrupt_reset(void);
/* Async-signal-safe: removes the temporary files of outputs still being written (hidden names beside
 * the outputs), for a handler that then ends the process at once. */
IKS_API void iks_remove_temporaries(void);
/* Async-signal-safe: whether an output has had its last frame and its encoder is still writing the
 * file's end (ffmpeg finishing a video; a GIF's palette pass can take many seconds), so that a handler
 * with a deadline can wait for a file that is nearly done rather than drop it. */
IKS_API bool iks_outputs_finishing(void);

/* ---- rendering to files ------------------------------------------------------------------------ */

typedef struct iks_input_log iks_input_log; /* a recorded viewer session: see "recorded input" below */

typedef struct {
    long done, total;   /* frames written so far, of total */
    double seconds;     /* since the render began */
    /* Within a frame (parts > 0): step `part` of the `parts` of frame `frame` has been drawn. frame is
     * its number as iFrame has it, so below the render's first while a range that starts later draws
     * the frames before it, unsaved. A toy's Cube A draws six faces of 1024x1024 every frame, which on
     * a CPU rasterizer can take minutes, so a render draws them in steps: each face in strips of about
     * 128K pixels (parts: 6 for faces of 256 or less, 12 for 512, 48 for the default 1024). Between
     * frames, and for a toy without Cube A: part = parts = 0 and frame = -1. */
    long frame;
    int part, parts;
} iks_progress;
/* Called after each frame drawn, whenever one has been written, and after each step of a frame drawn in
 * steps (see iks_progress.parts); return false to stop the render (it then ends with IKS_E_INTERRUPTED
 * after the frames in flight, every file on disk complete; a frame stopped within is dropped, and the
 * toy's buffers are then part way into it: iks_toy_reset or iks_toy_state_load before drawing on). It
 * runs with the context that was current when iks_render was called current again (and, on an engine
 * made from that context, its GL state given back), so it may draw with it, or with this engine's other
 * toys (not the one being rendered, whose frame is half drawn). iks_interrupt is honoured at the same
 * points. */
typedef bool (*iks_progress_fn)(void *user, const iks_progress *p);

/* What a render in segments (iks_render_desc.segments) does about the film. A join draws no picture:
 * it checks every segment (there, whole, of this same render and settings: refused with
 * IKS_E_FORMAT naming the first that is not), joins them into the output without encoding the
 * picture again, and encodes the toy's sound once over the whole film (so no join has a gap or a
 * click), atomically. */
typedef enum {
    IKS_JOIN_NONE,      /* the segment alone */
    IKS_JOIN_WHEN_DONE, /* the segment, then the film when every other segment is there (the last part
                           to finish joins; a film of this render already there is kept) */
    IKS_JOIN_NOW,       /* no segment drawn (segment unused): the film, from the segments there, unless
                           the output is this film, whole, already (kept: joined_before) */
} iks_join;

typedef struct {
    size_t struct_size; /* IKS_DESC_SIZE(iks_render_desc): see the conventions at the top */
    /* The format is the name's extension (iks_output_format lists them): image files, one a frame, named
     * with one printf-style frame number (out/%04d.png; directories are made), or one file for a single
     * frame (still.png): .png, .jpg, .exr (see depth); one animated file: a video through ffmpeg (.mp4
     * .webm .mkv .gif) or an animated .webp; the toy's sound alone (.wav, see seconds); or "-", raw RGBA8
     * frames top row first to raw_fd. */
    const char *output;
    int raw_fd;             /* for "-": 0 means standard output */
    int width, height;      /* 0: IKS_DEFAULT_WIDTH x IKS_DEFAULT_HEIGHT; at most IKS_MAX_SIDE */
    long first, end;        /* frames first .. end-1; end 0: first + 1 */
    double fps;             /* 0: 60. Frame i is drawn at time0 + i/fps, in double */
    double time0;
    bool have_mouse;        /* mouse: held at xy after a click at zw; w > 0 on frame 0 only */
    float mouse[4];
    int ssaa;               /* K x K supersampling, box-filtered; 0 or 1: none */
    bool alpha;             /* RGBA PNGs; default RGB, as shadertoy.com ignores alpha */
    int png_level;          /* 0 or 1: the fast default (ISA-L level 1, the Up filter fused into the pass
                               from GL's rows); 2..12: libdeflate's levels, smaller and slower; -1: stored */
    int jobs;               /* encoder threads; 0: the number of cores */
    iks_progress_fn progress;
    void *user;
    /* A video's ffmpeg output options instead of ikshade's (H.264 yuv420p for .mp4 .mkv, VP9 for
     * .webm, a palette GIF), split into words as a shell would; with them any extension (.mov, .avi)
     * is a video. NULL: ikshade's. */
    const char *ffmpeg_args;
    /* Bits per channel, as the format takes them. 0: the format's default (8; 16 = half float for
     * .exr). 16: a 16-bit PNG. 32: an EXR of 32-bit floats. .exr (OpenEXR, RGBA, ZIP) and 16-bit PNGs
     * are drawn into a float target, so values above 1 (EXR) and between 8-bit steps survive. */
    int depth;
    /* A recorded session to replay (see iks_input_log): frame i gets the mouse and keys of the session
     * at i / fps seconds into it, iTime from the session's first on; time0 and mouse are ignored. */
    const iks_input_log *input;
    /* A .wav output: the toy's sound pass (mainSound) as 44100 Hz 16-bit stereo, `seconds` long (0:
     * 180, the site's length) from time0 on; frames and size are not used. A video of a toy with a
     * sound pass gets the same sound, for the frames' time, as its audio track (not a GIF). */
    double seconds;
    /* Keep frames whose files already exist, are complete and valid frames of this render's size,
     * depth and alpha (a PNG's every chunk's CRC checked and its pixels inflated; a JPEG decoded
     * without a warning; an EXR's every chunk decoded), and carry this render's identity; draw the
     * others. Every frame file iks_render writes carries that identity under "ikshade:render" (a PNG
     * tEXt chunk, an EXR string attribute, a JPEG comment): the hash checkpoints are named by (the
     * toy's sources and media's bytes, settings, size, ssaa, fps, time0, mouse, session), so frames of
     * an edited shader are drawn again, with a warning to the engine's log saying how many. A toy with
     * buffers draws kept frames unsaved when later frames need their state. Frame files only (PNG,
     * JPEG, EXR): a video or an animated WebP is one file, and is refused (IKS_E_USAGE). */
    bool resume;
    /* A directory of checkpoints of a toy with buffers (format: docs/DESIGN-NOTES.md). A range that
     * starts after 0 starts from the newest one of its own render at or before it instead of from frame
     * 0: checkpoints are named by a hash of the toy (its sources and its media's bytes), size,
     * settings, fps, time0, mouse and session, so renders of other toys or options share the directory
     * and never use or replace each other's. A damaged one is IKS_E_FORMAT; one of another format
     * version too. With checkpoint_every N > 0, the state after each N-th frame drawn (frames N, 2N,
     * ...) is saved there atomically: a toy's buffers twice, w x h x 16 bytes each, per checkpoint. */
    const char *checkpoint_dir;
    long checkpoint_every;
    /* Lossy formats (.jpg, .webp): 1..100; 0: 90 */
    int quality;
    /* Cube A in strips of about 128K pixels, each waited for, with a progress call (part, parts) after
     * each and a stop acting there: what keeps a frame that takes minutes on a CPU rasterizer answering.
     * Strips cost a draw each (a cheap Cube A at the site's 1024 renders 1.5x slower in them), so 0, the
     * default, draws them where Cube A's cost is unknown (a toy's first frame) or its last one took 1 s
     * or more, and a frame's faces whole otherwise; 1: always; -1: never (no progress within a frame). */
    int cube_strips;
    /* The bytes of the iks_render_stats given to iks_render, which writes no more: sizeof(iks_render_stats)
     * for the members a later header adds to it; 0: 0.3.0's 88 (written .. height). */
    size_t stats_size;
    /* A film in segments, for a render farm (docs/scale-out.md). segments N > 0 with a video output
     * (.mp4 .mkv .webm in ikshade's own settings; not a GIF, whose palette is the clip's, nor
     * ffmpeg_args): output names the whole film of frames first..end-1, and this render draws its part
     * `segment` (0..N-1, as iks_shard_range cuts the range) into its own file, OUTPUT.parts/
     * KKKKK-of-NNNNN.EXT (iks_segment_path), picture alone, starting on a key frame, written atomically
     * and carrying the render's identity (resume keeps a whole one of this render). join says what
     * becomes of the film: */
    long segment, segments;
    iks_join join;
} iks_render_desc;
#define IKS_RENDER_DESC_INIT IKS_DESC_INIT_(iks_render_desc)

typedef struct {
    long written, total;    /* frames complete on disk (or sent), of total */
    long warmed;            /* frames drawn unsaved first for a range's buffers */
    double seconds;         /* the saved frames' wall time */
    double fps_played;      /* a video's frame rate in the file: a GIF's is 100 / its whole-centisecond
                               delay (60 fps -> 2 cs -> 50 fps); 0 for PNG and raw frames */
    bool padded;            /* a video of odd size was padded to even (a black bottom row or right column) */
    long samples;           /* sound written: stereo samples at 44100 Hz (a .wav, or a video's audio) */
    long kept;              /* resume: frames whose files were there already, complete */
    long restored;          /* the checkpoint the buffers started from (its frame); 0: none */
    long checkpoints;       /* checkpoints written (or found there already, identical) */
    int width, height;      /* the frames' size (the description's, its defaults filled in) */
    /* a render in segments: how many of the film's segments are there, whole (this one included), and
     * whether the film was joined now (or found joined already: joined_before) */
    long segments_there;
    bool joined, joined_before;
} iks_render_stats;

/* The uniforms iks_render gives frame i of d: iTime = time0 + i/fps (in double), iTimeDelta 1/fps,
 * iFrame i, and d's mouse (scaled by ssaa) with w > 0 on frame 0 only. For drawing the same frames
 * into memory with iks_toy_draw. */
IKS_API void iks_render_frame_info(const iks_render_desc *d, long i, iks_frame_info *out);
/* What an output is, by the way its frames go (a format's kind, iks_output_info.kind) */
typedef enum {
    IKS_OUTPUT_FILES,     /* image files: one a frame (a name with a frame number), or one for a single frame */
    IKS_OUTPUT_RAW,       /* raw RGBA8 frames, top row first, down a descriptor ("-") */
    IKS_OUTPUT_VIDEO,     /* one video, made by ffmpeg from the frames piped into it */
    IKS_OUTPUT_ANIMATION, /* one animated file, encoded in this process frame after frame */
    IKS_OUTPUT_SOUND,     /* the toy's sound alone (seconds long): no frames are drawn */
} iks_output_kind;
/* The output formats, one a call: i from 0, NULL past the last. name ("PNG"), its extensions (".jpg
 * .jpeg"; "-" for raw frames), what such an output is, in a line, and its kind. */
typedef struct {
    const char *name, *exts, *what;
    /* Members are only ever added at the end: the library owns these structs and hands out pointers
     * to them, so a program built against an older header, which reads the members before, is
     * unaffected. */
    iks_output_kind kind;
} iks_output_info;
IKS_API const iks_output_info *iks_output_format(int i);
/* The format an output name asks for, as iks_render_desc.output takes it: "-" raw frames, else by its
 * extension in any case ("a.WAV" is a sound); NULL for a name no format takes. (With ffmpeg_args such
 * a name, and an animation's, is a video through ffmpeg instead: iks_render_check says.) The name's
 * other rules (one frame number, in image files alone) are iks_render_check's. */
IKS_API const iks_output_info *iks_output_format_of(const char *output);

/* Checks a render's description without GL and without touching the disk: the output's name and kind
 * (one frame number at most, a known extension), the frame range, the numbers. IKS_E_USAGE, as
 * iks_render would. (iks_render also makes the output's directory and checks it is writable before it
 * draws anything: IKS_E_IO.) */
IKS_API iks_code iks_render_check(const iks_render_desc *d);
/* Part k (0 .. n-1) of n contiguous parts of frames first..end-1, as Slurm array tasks and the like
 * take them: frames *a .. *b-1, every frame in exactly one part, sizes differing by one at most (the
 * first parts the larger). A part is empty (*a == *b) when n exceeds the frames. IKS_E_USAGE when
 * n < 1, k outside 0..n-1 or end < first. */
IKS_API iks_code iks_shard_range(long first, long end, long k, long n, long *a, long *b);
/* The file of segment k of n of the film output (iks_render_desc.segments), into buf: OUTPUT.parts/
 * KKKKK-of-NNNNN.EXT, the film's extension. IKS_E_USAGE when it does not fit in n bytes. */
IKS_API iks_code iks_segment_path(const char *output, long k, long n, char *buf, size_t size);
/* Renders frames first..end-1 of t to the output. A range that starts after 0 of a toy with buffers
 * draws the frames before it unsaved (noted through the logger), from the newest checkpoint at or
 * before it when checkpoint_dir has one, so it equals one long run. stats
 * (may be NULL; d->stats_size bytes of it) is filled also on failure, but for a d refused for its
 * struct_size. PNGs are written to a temporary name and renamed: no
 * partial file is ever left under the output's name. An output that is the same file as one the toy
 * reads (its shader, #includes, JSON, a directory toy's files, its media) or as d->input's recording,
 * through ./, ../ or a link, any frame of a pattern in first..end-1 included, is IKS_E_USAGE about
 * "output", naming both, before anything is made or written. */
IKS_API iks_code iks_render(iks_toy *t, const iks_render_desc *d, iks_render_stats *stats);

/* ---- benchmarks -------------------------------------------------------------------------------- */

/* `ikshade bench render`: the render pipeline of d (PNG output) timed stage by stage, each the best of
 * reps runs, so a caller can print ratios against the best this machine allows. Seconds throughout.
 * d->output NULL: the PNGs go to a temporary directory of its own, removed after (and by
 * iks_remove_temporaries). iks_interrupt stops it (IKS_E_INTERRUPTED). */
typedef struct {
    long frames;
    int width, height, cores, png_level, reps;
    double draw;            /* (a) draw only, each frame finished */
    double readback;        /* (b) draw + readback through the ring of pixel buffers */
    double readback_cpu;    /*     its CPU time */
    double encode;          /* (c) PNG encoding only, of the same frames, on every core */
    double encode_cpu;      /*     its CPU time */
    double whole;           /* (d) iks_render itself */
    int nencoders;          /* (e) the PNG encoders we chose between, one thread, on the first frames */
    struct {
        const char *name;
        double ms;          /* per frame */
        double bytes;       /* mean per frame */
        bool chosen;        /* what iks_render uses */
    } encoders[8];
} iks_bench_render_result;
IKS_API iks_code iks_bench_render(iks_toy *t, const iks_render_desc *d, int reps, iks_bench_render_result *r);

/* ---- recorded input ---------------------------------------------------------------------------- */

/* A viewer session's inputs (`ikshade view --record-input FILE`): the mouse each frame, the keys, the
 * window's size, the settings, as a small versioned text file (format in src/engine/inputlog.c).
 * iks_render replays it (iks_render_desc.input) at any size and frame rate. (iks_input_log is declared
 * with the render's description.) */
/* IKS_E_FORMAT naming FILE:LINE and what is wrong; IKS_E_IO for a file that cannot be read. */
IKS_API iks_code iks_input_log_load(const char *path, iks_input_log **out);
IKS_API iks_code iks_input_log_parse(const char *name, const char *text, iks_input_log **out);
IKS_API void iks_input_log_free(iks_input_log *l);
/* seconds from the first recorded frame to the last */
IKS_API double iks_input_log_duration(const iks_input_log *l);
/* the session's settings ("NAME=V"), owned by l */
IKS_API int iks_input_log_sets(const iks_input_log *l, const char *const **sets);

/* ---- the live loop ----------------------------------------------------------------------------- */

typedef struct {
    bool ok;            /* false: the new version failed and the last good one stays on screen */
    const char *path;   /* the toy's main file */
    double compile_ms;  /* loading and linking */
    double first_draw_ms; /* the first draw of the new program (drivers finish compiling there) */
    double latency_ms;  /* from the save (the file's mtime) to the frame on screen */
    int gl_objects;     /* GL objects alive after the reload */
    long rss_kb;        /* resident memory after the reload */
} iks_reload_info;

typedef struct {
    size_t struct_size; /* IKS_DESC_SIZE(iks_live_desc): see the conventions at the top */
    iks_toy_desc toy;   /* what to load, and load again on every save of any file it read */
    double time0;       /* iTime at the start and after R */
    bool paused, hide_hud, no_vsync_cap;
    long frames;        /* quit after this many frames (then the error, if nothing ever loaded); 0: until
                           the window closes */
    bool measure;       /* time each reload's first draw and latency for on_reload (adds a glFinish), and
                           say what ended the session (a diagnostics line) */
    const char *screenshot_dir; /* S saves ikshade-NNNN.png here; NULL: the current directory */
    /* The toy could not be (re)loaded: code and message as iks_last_error gives them (a compile
     * error's message is the mapped log lines), or its main file was deleted (IKS_E_IO). Warnings
     * while running go to the engine's logger instead. */
    void (*on_error)(void *user, iks_code code, const char *message);
    /* A reload finished (ok or not); with ok after a failure, the error is fixed. */
    void (*on_reload)(void *user, const iks_reload_info *r);
    /* A screenshot was written (path NULL and message set on failure). */
    void (*on_screenshot)(void *user, const char *path, int width, int height, const char *message);
    /* Polled once a frame: true ends the loop (Ctrl-C). */
    bool (*should_stop)(void *user);
    void *user;
    /* Recording what the window shows (without the HUD), one frame per displayed frame, through the
     * same output path as iks_render: a PNG pattern (out/%05d.png) or a video (.mp4 .webm .mkv .gif).
     * record: recording starts at once; V pauses and resumes it (without record, V starts one into
     * the next free ikshade-NNNN.mp4 of screenshot_dir). A video has one size: a resize ends it, and
     * V then starts the next (NAME-2.mp4, ...); a PNG pattern goes on numbering. */
    const char *record;
    double record_fps;  /* a recorded video's frame rate; 0: 60 */
    /* A recording ended (path, frames in it) or failed (message set). */
    void (*on_record)(void *user, const char *path, long frames, const char *message);
    /* The session's inputs into this file (see iks_input_log), written when the loop ends; a failure
     * is reported through on_record with the file's name. A file already there is replaced only when
     * it is empty or an earlier recording. */
    const char *record_input;
    /* The toy's music channels play through the default sound output (ALSA), kept at iTime: paused,
     * stepped and restarted with it. true: silent. No output device is a warning, never a failure. */
    bool mute;
    /* The parameter panel's C key: the toy's parameters as they are now, as options for render or view
     * ("--set r1=0.8 --set bend=true"; "" when it has none). Also put on the window's clipboard where the
     * window is ikshade's own (iks_window_open). NULL: the line goes to the engine's logger (INFO). */
    void (*on_params)(void *user, const char *set_line);
    /* The same as values (n of them, typed, each a float as GL holds it): with it, on_params is not
     * called and the caller words them (the command line writes its own --set options). The values are
     * valid during the call. */
    void (*on_values)(void *user, const iks_value *values, int n);
    /* The camera of the toy's webcam channels that name none (a JSON's, a directory's, a bare "webcam"):
     * a V4L2 device (/dev/video2), "test" (a test pattern, no camera needed); NULL: the first camera.
     * Each is captured through ffmpeg while the session runs; a missing or lost one is a line in the HUD
     * and the log, the channel black (or its last frame) until it is back. With record_input, what the
     * channels showed is also written beside that file as a lossless video (NAME-webcam.mkv) that its
     * replay reads; nothing captured is written anywhere otherwise. */
    const char *webcam;
    /* The capture source (PulseAudio/PipeWire's name, `ikshade devices`) for the toy's microphone
     * channels that name none; NULL: the default source. (Added in 0.4.) */
    const char *mic;
} iks_live_desc;
#define IKS_LIVE_DESC_INIT IKS_DESC_INIT_(iks_live_desc)

/* Checks a live run's description without a window or GL: its toy's (iks_toy_check), time0, frames,
 * record (an output name as for a render, not raw frames or sound), record_fps (0, or 1e-9 to 1000);
 * record and record_input neither one file nor, as iks_render's output, a file the toy reads now (it
 * reads the toy's files for that), record_input no file that is not a recording. IKS_E_USAGE about the
 * field. iks_live_run checks the same first. */
IKS_API iks_code iks_live_check(const iks_live_desc *d);
/* Runs the toy in the engine's window until it closes, Esc or Q, frames run out, or should_stop:
 * iMouse from the left button, the keys of `ikshade view` (Space R Left Right F F11 S H V P C Backspace
 * Esc Q), a HUD, the parameter panel (P: the toy's uniforms as sliders, number fields and toggles; a
 * dragged value kept across reloads), and the toy reloaded on every save (the last good program kept while a save is broken). A toy that
 * fails at the start opens a blank window waiting for a good save, unless nothing can be watched
 * (then the load's error is returned). */
IKS_API iks_code iks_live_run(iks_engine *e, const iks_live_desc *d);

/* ---- the solver probe -------------------------------------------------------------------------- */

/* The GLSL solver run on the GPU, one fragment per case: what `ikshade check` holds against ik.h. */
typedef struct iks_probe iks_probe;
/* cases: n x (px, py, r1, r2). solver: a GLSL file replacing ik.glsl, NULL for the built-in one. */
IKS_API iks_code iks_probe_create(iks_engine *e, const char *solver, const float *cases, long n,
                                  iks_probe **out);
/* Solves every case with opts (bend, stretch, soften); out (n x 4 floats: x, y, status, 0; out_len its
 * bytes, IKS_E_USAGE about "out_len" when less) may be NULL to only draw. IKS_E_USAGE when the solver's option uniforms cannot be set; IKS_E_INTERRUPTED when
 * iks_interrupt stopped a big batch (drawn in bands of about 50 ms), out then unwritten. */
IKS_API iks_code iks_probe_run(iks_probe *p, const ik_opts *opts, float *out, size_t out_len);
/* The same for the effector: out gets (end.x, end.y, status, 0) per case. */
IKS_API iks_code iks_probe_run_effector(iks_probe *p, const ik_opts *opts, float *out, size_t out_len);
IKS_API void iks_probe_destroy(iks_probe *p);

/* ---- fetching a shader from shadertoy.com ----------------------------------------------------- */

/* The site's API serves the JSON of shaders published "public+api" to anyone with a key (made at
 * https://www.shadertoy.com/myapps): GET BASE/api/v1/shaders/ID?key=KEY. iks_import fetches it and the
 * textures and cubemap faces its passes name (BASE/media/a/...), into out_dir as ID.json and the media
 * beside it under their file names, where iks_toy_load finds them. Everything is written into a
 * temporary directory first and moved into out_dir only when all of it arrived: a failure leaves
 * out_dir as it was (out_dir is created when absent). Nothing already in out_dir is replaced: a name
 * the toy would take that holds other bytes (or is not a regular file) is IKS_E_IO, and nothing is
 * written; one holding the very bytes is left as it is. A JSON naming more passes than a toy has (8),
 * or more than one input on a channel 0-3, is IKS_E_FORMAT before any media file is requested. */
typedef struct {
    size_t struct_size; /* IKS_DESC_SIZE(iks_import_desc): see the conventions at the top */
    const char *shader;   /* an ID ("XsXXDn") or a URL with one (https://www.shadertoy.com/view/XsXXDn) */
    const char *key;      /* the API key */
    const char *out_dir;
    const char *base_url; /* NULL: https://www.shadertoy.com; a mirror, or a local server for tests */
    double timeout;       /* seconds to connect, and of less than 1 KiB/s, per request (0: 20 and 30);
                             a request also ends after that plus 1 s per 64 KiB it may hold */
    /* notes on what is fetched (INFO) and on inputs not fetched (WARN); may be NULL */
    iks_log_fn log;
    void *log_user;
} iks_import_desc;
#define IKS_IMPORT_DESC_INIT IKS_DESC_INIT_(iks_import_desc)

typedef struct {
    char id[72];         /* the shader's ID: the JSON is out_dir/ID.json */
    char name[128];      /* the shader's name on the site (cut to fit), "" when it has none */
    int media;           /* media files fetched */
    int skipped;         /* inputs not fetched: a webcam, microphone or music stream (live, no files) */
    long long bytes;     /* bytes fetched, the JSON included */
} iks_import_stats;

/* IKS_E_USAGE: no shader, no key, an ID or URL without an ID, no out_dir. IKS_E_IO: the network (no
 * connection, a refused one, a timeout), an HTTP error status, the API's own error ("Shader not found":
 * a wrong ID, or a shader not published as public+api), out_dir not writable. IKS_E_FORMAT: an answer
 * that is not a shader's JSON. IKS_E_INTERRUPTED: iks_interrupt. No message (errors, and what goes to
 * log) holds the key or base_url's password: "***" stands for each, "user:***@" in a URL. */
IKS_API iks_code iks_import(const iks_import_desc *d, iks_import_stats *stats);

/* ---- small things an embedding program needs ---------------------------------------------------- */

/* Checks one setting ("NAME=V[,V..]") or one channel spec without GL: IKS_E_USAGE about the field
 * "setting" or "channel". A channel naming a file (an image, a cubemap's first face, a volume, music, a
 * video) that is not there is IKS_E_USAGE too. */
IKS_API iks_code iks_check_setting(const char *setting);
IKS_API iks_code iks_check_channel(const char *spec);
/* Writes width x height RGBA8 pixels (top row first) as a PNG (RGB unless alpha), atomically. */
IKS_API iks_code iks_write_png(const char *path, const uint8_t *rgba, int width, int height, bool alpha);

#ifdef __cplusplus
}
#endif
#endif
