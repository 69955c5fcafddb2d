/* encode.h: what every image and animation encoder of src/io takes, so that the output-format table
 * (engine/formats.c) names them all alike: a new format is a row there and one encoder file here.
 * What it does not do: write files (the writer does, atomically) or choose a format. */
#ifndef IKS_ENCODE_H
#define IKS_ENCODE_H

#include "base/err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int w, h;
    int depth;      /* bits per channel: 8 takes RGBA8 pixels; 16 and 32 take RGBA floats */
    bool alpha;     /* keep the alpha channel (else it is dropped: shadertoy.com ignores it) */
    int level;      /* PNG's deflate level: 0 stored .. 12 */
    bool fast;      /* PNG through the fast path (ISA-L's level 1) rather than libdeflate at level */
    int quality;    /* lossy formats: 1 .. 100 */
    /* The render's identity (NULL: none), written into the file under IKS_FRAME_ID_KEY: a PNG's tEXt
     * chunk, an EXR's string attribute, a JPEG's comment. `render --resume` keeps only frames of its
     * own render: a frame drawn before the shader or its media changed is drawn again. */
    const char *id;
} iks_image_opts;

#define IKS_FRAME_ID_KEY "ikshade:render"
/* at most this long with its NUL, as an iks_image_check_fn reads it back */
#define IKS_FRAME_ID_MAX 64

/* One frame's file: px holds o->w x o->h pixels, bottom row first as GL reads them (RGBA8 or RGBA
 * float as o->depth says); the file's bytes are malloc'd into *out. false with e set. */
typedef bool (*iks_image_encode_fn)(const void *px, const iks_image_opts *o, uint8_t **out, size_t *len, iks_err *e);

/* Whether the file at path is a complete, valid frame of o's kind (its size, depth and alpha), every
 * byte checked by decoding it; id gets the identity it carries ("" for none), idn bytes at most. For
 * `render --resume`, which keeps such a file and draws any other again. */
typedef bool (*iks_image_check_fn)(const char *path, const iks_image_opts *o, char *id, size_t idn);

/* An animation in one file, frame after frame at fps, assembled in memory. */
typedef struct {
    bool (*open)(const iks_image_opts *o, double fps, void **state, iks_err *e);
    bool (*add)(void *state, const void *px, iks_err *e); /* the next frame, as an image encoder takes it */
    bool (*finish)(void *state, uint8_t **out, size_t *len, iks_err *e);
    void (*free)(void *state);                            /* after finish, or instead of it */
} iks_anim_encoder;

#endif
