/* gpu.h: the OpenGL core with no window system: programs built from iks_source, render targets,
 * Shadertoy uniforms, draws and readback. It needs a current GL 3.3 core context from src/platform;
 * it never includes EGL or GLFW headers, never prints and never exits: errors come back as an iks_err
 * (src/base/err.h) made where they happen, warnings through an iks_logger. */
#ifndef IKS_GPU_H
#define IKS_GPU_H

#include "base/err.h"
#include "toy/spec.h"
#include "glsl/source.h"
#include "glsl/uniforms.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef void (*iks_gl_proc)(void);
/* Loads GL entry points through the platform's getter; checks for 3.3 core. IKS_E_GL when it cannot.
 * The entry points are process-wide (glad's), so every context in the process must be one driver's. */
bool iks_gpu_load(iks_gl_proc (*get_proc)(const char *), iks_err *e);
const char *iks_gpu_renderer(void);
/* Whether the context compiles GLSL ES 3.00 (#version 300 es): GL 4.3, or ARB_ES3_compatibility. */
bool iks_gpu_has_es3(void);
const char *iks_gpu_version(void);
int iks_gpu_max_size(void); /* the largest render target side this GL allows */
void iks_gpu_finish(void);  /* waits for all GL work issued so far */
/* GL objects alive now (programs, shaders, buffers, textures, vertex arrays, framebuffers), found by
 * asking GL about every name from 1 to max_name: for leak checks, independent of our bookkeeping. */
int iks_gpu_live_objects(unsigned max_name);

/* ---- programs ---------------------------------------------------------------------------------- */

typedef struct {
    unsigned prog, vao;
    int loc[IKS_U_COUNT]; /* the built-in uniforms' locations (glsl/uniforms.h), -1 where unused */
    iks_udecl *decls; /* uniform declarations, for --set */
    int ndecls;
    struct iks_param *params; /* its source's #iUniform parameters (owned copy; glsl/params.h) */
    int nparams;
} iks_program;

/* Compiles and links. On failure returns false with IKS_E_COMPILE whose message is the driver's log
 * mapped to the user's files: `path:line[:col]: error: ...` lines (the column where the driver gives
 * one), each ending in '\n' (IKS_E_NOMEM when memory ran out). The compiler's warnings on success go to log as one message. p is zeroed on
 * failure (iks_program_destroy is safe on it either way). said: NULL, or the warning lines already
 * given for other programs of the same toy, which are not given again (iks_log_unsaid). */
bool iks_program_build(iks_program *p, const iks_source *src, iks_err *e, const iks_logger *log, iks_sbuf *said);
void iks_program_destroy(iks_program *p);

/* Compiles a fragment shader and nothing more (no link, no program): the driver's raw log (malloc'd,
 * NULL when empty) and whether it compiled. For diagnostics only; the shader is deleted. */
char *iks_gpu_compile_only(const char *fragment, bool *ok);
/* Applies settings after checking them against the declarations: an undeclared name, a wrong count or
 * a value the type cannot hold is IKS_E_USAGE naming the uniform and its declared type (the settings
 * before it are applied); a declared uniform that the compiler removed is a warning, one message each
 * to log. Leaves p's program current. */
bool iks_program_apply(const iks_program *p, const iks_setting *s, int n, iks_err *e, const iks_logger *log);
/* Whether the linked program still has the uniform (compilers remove the ones nothing reads). */
bool iks_program_uses(const iks_program *p, const char *name);
/* The warning for a setting whose uniform every program that declares it has removed. */
void iks_setting_warn_removed(const iks_logger *log, const iks_setting *s);

/* ---- targets ----------------------------------------------------------------------------------- */

typedef enum { IKS_RGBA8, IKS_RGBA32F } iks_pixfmt;

typedef struct {
    unsigned fbo, tex;
    int w, h;
    iks_pixfmt fmt;
} iks_target;

/* A size outside what this GL allows is IKS_E_USAGE; GL refusing the texture or framebuffer IKS_E_GL.
 * t is zeroed on failure. */
bool iks_target_create(iks_target *t, int w, int h, iks_pixfmt fmt, iks_err *e);
/* Copies t into the rectangle x, y, w, h of framebuffer fbo (0: the default one; scaled linearly when
 * the sizes differ); leaves both framebuffer bindings changed (the caller's state is the host
 * contract's). IKS_E_USAGE about "fbo" for a name that is not a framebuffer, IKS_E_GL for one GL cannot
 * draw into. */
bool iks_target_blit(const iks_target *t, unsigned fbo, int x, int y, int w, int h, iks_err *e);
void iks_target_destroy(iks_target *t);

/* A cubemap a pass draws into (shadertoy.com's Cube A): six square RGBA16F faces, as the site keeps
 * them, each with a framebuffer, in GL's face order (+x -x +y -y +z -z). */
typedef struct {
    unsigned tex, fbo[6];
    int size;
} iks_cube_target;
/* Cleared to zero. A size outside what this GL allows is IKS_E_USAGE; GL refusing it IKS_E_GL. c is
 * zeroed on failure. */
bool iks_cube_target_create(iks_cube_target *c, int size, iks_err *e);
void iks_cube_target_destroy(iks_cube_target *c);
/* Face 0..5 as a target to draw into (owned by c: never destroyed by itself). */
iks_target iks_cube_face(const iks_cube_target *c, int face);

/* A float texture to feed a shader through a channel (RGBA32F, nearest, clamped). */
unsigned iks_texture_rgba32f(int w, int h, const float *data);
void iks_texture_destroy(unsigned tex);

/* ---- frames ------------------------------------------------------------------------------------ */

/* The sound pass's sample rate, as on shadertoy.com */
#define IKS_SAMPLE_RATE 44100

typedef struct {
    double time, time_delta, frame_rate;
    int frame;
    float mouse[4];
    float date[4];
    unsigned channel[4];    /* GL textures, 0 for none */
    bool channel_cube[4];   /* that texture is a cubemap */
    bool channel_3d[4];     /* that texture is 3D (a volume) */
    float channel_res[4][3];
    float channel_time[4];  /* a video's or music's playback time, else 0 (the site's) */
    const float *cube_corners; /* Cube A: the face's corners and apex, 5 x vec3 */
    double time_offset;     /* the sound pass: its block's first sample's time and number */
    int sample_offset;
    /* The caller's frame as it was given (iks_frame_from_info copies it whole): a uniform whose value
     * the caller gives reads it here (FROM `f->info.NAME` in glsl/uniforms.h), with no field or copy of
     * its own in between. Zero in a frame made otherwise (the probe's). */
    iks_frame_info info;
} iks_frame;

/* Fills date from the clock and mouse with zeros; the caller sets time and frame. */
void iks_frame_defaults(iks_frame *f);

/* Draws the program into t (viewport = t's size). */
void iks_draw(const iks_program *p, const iks_target *t, const iks_frame *f);
/* Draws rows y0 .. y0+rows-1 of t alone (counted from the bottom; a scissor): a long draw split into
 * bands, each finished before the next, so that a stop request is looked at between them. */
void iks_draw_rows(const iks_program *p, const iks_target *t, const iks_frame *f, int y0, int rows);
/* Synchronous readback of t into dst (w*h*4 bytes for RGBA8, w*h*16 for RGBA32F), bottom row first. */
void iks_read(const iks_target *t, void *dst);
/* Rows y0 .. y0+rows-1 of t (counted from the bottom), as iks_read packs them. */
void iks_read_rows(const iks_target *t, int y0, int rows, void *dst);
/* The window's back buffer (the default framebuffer), w x h RGBA8 bottom row first: screenshots and
 * recordings of what the viewer shows. */
void iks_gpu_read_screen(int w, int h, uint8_t *dst);
/* Clears the window's back buffer (w x h) to one colour. */
void iks_gpu_clear_screen(int w, int h, const float rgba[4]);
/* Any GL error since the last call, as a name; NULL if none. */
const char *iks_gl_error(void);

/* The GL state an engine on a host's own context may change (glstate.c: one table of rows), saved on
 * entry and given back on the way out; reset sets the values the library's drawing needs (no blend,
 * scissor, depth, stencil or culling, all colours written, filled polygons, plain pixel storage). */
typedef union { int i[4]; float f[4]; } iks_glvalue;
#define IKS_GLSTATE_ROWS 64
typedef struct { iks_glvalue v[IKS_GLSTATE_ROWS]; } iks_glstate;
void iks_glstate_save(iks_glstate *s);
void iks_glstate_reset(void);
void iks_glstate_restore(const iks_glstate *s);


/* ---- asynchronous readback --------------------------------------------------------------------- */

/* A ring of pixel buffer objects: start() queues glReadPixels of a target into a slot and returns at
 * once; finish() maps that slot later (a frame or two on) and copies it out, so drawing the next
 * frames overlaps the transfer. fmt: what the targets read are (RGBA8: 4 bytes a pixel, RGBA32F: 16). */
#define IKS_RING_MAX 4
typedef struct {
    unsigned pbo[IKS_RING_MAX];
    int n, w, h;
    iks_pixfmt fmt;
} iks_readback;
/* slots outside 1..IKS_RING_MAX is IKS_E_USAGE; GL failing to make the buffers IKS_E_GL. r is zeroed on
 * failure. */
bool iks_readback_create(iks_readback *r, int slots, int w, int h, iks_pixfmt fmt, iks_err *e);
void iks_readback_start(iks_readback *r, int slot, const iks_target *t);
bool iks_readback_finish(iks_readback *r, int slot, void *dst);
void iks_readback_destroy(iks_readback *r);

/* ---- supersampling ----------------------------------------------------------------------------- */

/* Box-filters a K-times larger target down into dst (K x K texels per pixel). */
typedef struct {
    unsigned prog, vao;
    int loc_src, loc_k;
} iks_downsample;
/* IKS_E_GL when the filter's program does not build. */
bool iks_downsample_create(iks_downsample *d, iks_err *e);
void iks_downsample_run(const iks_downsample *d, const iks_target *src, const iks_target *dst, int k);
void iks_downsample_destroy(iks_downsample *d);

#endif
