/* hdrio.h: encoders for frames that keep more than 8 bits: OpenEXR (half or full float RGBA, through
 * OpenEXR's C API, ZIP-compressed) and 16-bit PNG (libpng). Both take float RGBA stored bottom row
 * first, as GL reads a float target, and write top row first, as the formats want. In memory: the
 * caller writes the bytes (atomically). Thread-safe: encoders run on the writer's pool.
 * What it does not do: 8-bit PNG (pngio.c). */
#ifndef IKS_HDRIO_H
#define IKS_HDRIO_H

#include "base/err.h"
#include "io/encode.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* w x h RGBA floats -> an EXR file's bytes (malloc'd; caller frees). full: 32-bit float channels,
 * else half. false with e set: IKS_E_NOMEM, or IKS_E_IO with OpenEXR's reason. */
bool iks_exr_encode(const float *rgba, int w, int h, bool full, uint8_t **out, size_t *len, iks_err *e);

/* w x h RGBA floats -> a 16-bit PNG (RGB, or RGBA with alpha), values clamped to [0, 1] and rounded to
 * the nearest of 65535 steps. false when out of memory. */
/* The output table's EXR encoder (io/encode.h): half floats at depth 16, floats at 32; o->id, when set,
 * in the string attribute "ikshade:render". */
bool iks_exr_image(const void *px, const iks_image_opts *o, uint8_t **out, size_t *len, iks_err *e);
/* The output table's check (io/encode.h): one scanline part of o's size with channels R G B A of the
 * depth's type, every chunk decoded by OpenEXR, and the identity in that attribute */
bool iks_exr_check_frame(const char *path, const iks_image_opts *o, char *id, size_t idn);

bool iks_png16_encode(const float *rgba, int w, int h, bool alpha, uint8_t **out, size_t *len, iks_err *e);

#endif
