/* jpgio.h: JPEG encoding of 8-bit frames through libjpeg-turbo (the libjpeg API): baseline, 4:4:4 (no
 * chroma subsampling: shader frames have sharp saturated edges that 4:2:0 smears), optimized Huffman
 * tables. In memory: the caller writes the bytes (atomically, outfile.h). Thread-safe: frames are
 * encoded on the writer's pool, each call with its own libjpeg object.
 * What it does not do: alpha (JPEG has none), files, or any output-format choice (the engine's). */
#ifndef IKS_JPGIO_H
#define IKS_JPGIO_H

#include "base/err.h"
#include "io/encode.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* rgba: w x h RGBA8 pixels stored BOTTOM row first (as GL reads them); the JPEG is written top row first.
 * quality 1..100 (out of range: IKS_E_USAGE). Alpha is dropped. Returns malloc'd bytes in *out (caller frees).
 * false with e set: IKS_E_NOMEM, or IKS_E_IO with libjpeg's own message. Thread-safe (encoders run on a pool).
 * A side outside 1..65500 (JPEG's limit) is IKS_E_USAGE too. */
bool iks_jpg_encode(const uint8_t *rgba, int w, int h, int quality, uint8_t **out, size_t *len, iks_err *e);
/* The output table's JPEG encoder (io/encode.h): o->quality, o->w x o->h RGBA8; o->id, when set, in a
 * comment (COM) "ikshade:render=ID". */
bool iks_jpg_image(const void *px, const iks_image_opts *o, uint8_t **out, size_t *len, iks_err *e);
/* The output table's check (io/encode.h): a JPEG of o's size in colour, decoded whole without a warning
 * from libjpeg (a file cut short or corrupt gives one), and the identity in its comment */
bool iks_jpg_check_frame(const char *path, const iks_image_opts *o, char *id, size_t idn);

#endif
