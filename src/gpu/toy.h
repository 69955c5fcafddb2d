/* toy.h: a Shadertoy "toy": Common, Buffers A-D and Image, with their channels, drawn in the site's
 * order every frame. Buffers are RGBA32F pairs (ping-pong): a pass reading a buffer sees its newest
 * contents, which is this frame's for a buffer drawn earlier and the previous frame's for itself or a
 * buffer drawn later, exactly as on shadertoy.com. Needs a current GL 3.3 context; never prints. */
#ifndef IKS_TOY_H
#define IKS_TOY_H

#include "gpu.h"

#define IKS_PASSES 5 /* A, B, C, D, Image */
#define IKS_IMAGE_PASS 4

typedef enum { IKS_IN_NONE, IKS_IN_BUFFER, IKS_IN_IMAGE, IKS_IN_KEYBOARD, IKS_IN_CUBEMAP } iks_input_kind;
typedef enum { IKS_FILTER_LINEAR, IKS_FILTER_NEAREST, IKS_FILTER_MIPMAP } iks_filter;

typedef struct {
    iks_input_kind kind;
    int buffer;       /* IKS_IN_BUFFER: 0..3 for A..D */
    const char *path; /* IKS_IN_IMAGE: a PNG or JPEG file; IKS_IN_CUBEMAP: the first face, X.png, with
                       * X_1.png .. X_5.png beside it (+x -x +y -y +z -z, the site's layout) */
    iks_filter filter;
    bool repeat;      /* wrap: repeat instead of clamp */
    bool vflip;       /* images: flip vertically on load (the site's default for textures) */
    bool srgb;        /* images: stored as sRGB, read back linear */
} iks_input;

typedef struct {
    const char *path; /* the pass's file, or its name when text is given; NULL: no such pass */
    const char *text; /* the code itself (from a JSON), or NULL to read path */
    iks_input in[4];
} iks_pass;

typedef struct {
    const char *common_path, *common_text; /* Shadertoy's Common tab, or NULLs */
    bool es;                                /* compile as GLSL ES 3.00 where the context can */
    iks_pass pass[IKS_PASSES];              /* A..D, then Image (which must be there) */
} iks_gltoy_desc;

typedef struct {
    iks_program prog[IKS_PASSES];
    iks_input in[IKS_PASSES][4];
    unsigned tex[IKS_PASSES][4];     /* image textures, owned */
    float tex_res[IKS_PASSES][4][3];
    iks_target buf[4][2];
    int cur[4];                      /* which of each pair holds the newest contents */
    unsigned keyboard;               /* 256x3 R8: held, pressed this frame, toggled */
    unsigned char keys[3][256];
    unsigned sampler_cache[3][2];    /* [filter][repeat] sampler objects */
    int w, h;
    bool has_buffers;
    char *files[64];                 /* every file read, for live reload (owned) */
    int nfiles;
} iks_gltoy;

/* Builds every pass (sources through iks_source_load with base's include dirs, plus Common) and loads
 * the images. On failure returns false with *log holding the mapped compile errors or a one-line
 * reason (malloc'd; caller frees); only t->files (those read so far) is left: iks_gltoy_destroy frees
 * it, as after a success. */
bool iks_gltoy_create(iks_gltoy *t, const iks_gltoy_desc *d, const iks_source_opts *base, int w, int h, char **log);
void iks_gltoy_destroy(iks_gltoy *t);

/* Applies --set settings to every pass that declares them; an undeclared name in all passes is an
 * error, as for a single program. */
bool iks_gltoy_apply(const iks_gltoy *t, const iks_setting *s, int n, char err[IKS_GPU_ERR_LEN], char *warn,
                   size_t warn_len);

/* Buffers follow the output size; their contents are kept (the overlap is copied), as on the site. */
bool iks_gltoy_resize(iks_gltoy *t, int w, int h, char err[IKS_GPU_ERR_LEN]);

/* Key k (a JavaScript keyCode, 0..255) went down or up: rows of the keyboard texture. */
void iks_gltoy_key(iks_gltoy *t, int k, bool down);

/* Draws Buffers A-D, then Image into out; f's channel fields are filled here. Then clears the
 * "pressed this frame" row of the keyboard. */
void iks_gltoy_draw(iks_gltoy *t, const iks_target *out, iks_frame *f);
/* Draws the Image pass alone from the buffers as they are: a paused viewer redraws the same frame
 * without moving any feedback on. */
void iks_gltoy_redraw_image(iks_gltoy *t, const iks_target *out, iks_frame *f);

#endif
