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
} iks_image_opts;

/* One frame's file: px holds o->w x o->h pixels, bottom row first as GL reads them (RGBA8 or RGBA
 * float as o->depth says); the file's bytes are malloc'd into *out. false with e set. */
typedef bool (*iks_image_encode_fn)(const void *px, const iks_image_opts *o, uint8_t **out, size_t *len, iks_err *e);

/* An animation in one file, frame after frame at fps, assembled in memory. */
typedef struct {
    bool (*open)(const iks_image_opts *o, double fps, void **state, iks_err *e);
    bool (*add)(void *state, const void *px, iks_err *e); /* the next frame, as an image encoder takes it */
    bool (*finish)(void *state, uint8_t **out, size_t *len, iks_err *e);
    void (*free)(void *state);                            /* after finish, or instead of it */
} iks_anim_encoder;

#endif
