/* pngio.h: 8-bit PNG encoding (our own container: the Up filter fused into the pass from GL's rows,
 * ISA-L's igzip or libdeflate for the deflate, ISA-L's CRC) and atomic file writes. Every setting is
 * per call: threads encode frames in parallel with any mix of levels. Each thread keeps its scratch
 * buffers and compressor between calls (iks_png_thread_done frees them). Failures are an iks_err; the
 * caller puts the file's name in front. */
#ifndef IKS_PNGIO_H
#define IKS_PNGIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "io/encode.h"
#include "io/outfile.h" /* iks_write_all, iks_write_atomic: their users came here for them */

/* Which deflate: AUTO is render's --png-level mapping (0 stored, 1 ISA-L igzip level 1, 2..12
 * libdeflate's levels); the others take that library's own levels (ISA-L 0..3, libdeflate 0..12), for
 * `bench render`'s comparison. */
typedef enum { IKS_PNG_AUTO, IKS_PNG_ISAL, IKS_PNG_LIBDEFLATE } iks_png_lib;

typedef struct {
    int level;          /* out of range: clamped to the library's */
    bool alpha;         /* RGBA; else RGB (shadertoy.com ignores alpha) */
    iks_png_lib lib;
} iks_png_opts;

/* Encodes w x h RGBA8 pixels stored bottom row first (as GL reads them) into a PNG, top row first.
 * Returns malloc'd bytes in *out (caller frees); false with e set: IKS_E_NOMEM, or IKS_E_IO when the
 * compressor fails. */
bool iks_png_encode(const uint8_t *rgba, int w, int h, const iks_png_opts *o, uint8_t **out, size_t *len, iks_err *e);

/* The output table's PNG encoder (io/encode.h): 8 bits through iks_png_encode, 16 through libpng
 * (iks_png16_encode); o->id, when set, in a tEXt chunk before IEND. */
bool iks_png_image(const void *px, const iks_image_opts *o, uint8_t **out, size_t *len, iks_err *e);

/* Releases the calling thread's scratch buffers and compressors; each thread that encoded calls it
 * before it ends (calling it again, or without encoding, is harmless). */
void iks_png_thread_done(void);

/* Whether data is a complete, valid PNG of w x h pixels, `bits` per channel (8 or 16), RGB or RGBA:
 * the signature, every chunk's length and CRC, IHDR as expected (not interlaced), IDAT inflating to
 * exactly the rows such an image has (the zlib checksum included) with known row filters, and IEND
 * last with nothing after it. For `render --resume`, which keeps such a file and redraws any other. */
bool iks_png_check(const uint8_t *data, size_t len, int w, int h, int bits, bool alpha);
/* The same for the file at path (opened with care: a FIFO or device is not a PNG). */
bool iks_png_check_file(const char *path, int w, int h, int bits, bool alpha);
/* The output table's check (io/encode.h): iks_png_check_file of o's kind, and the identity in the
 * tEXt chunk IKS_FRAME_ID_KEY that iks_png_image writes when o->id is set */
bool iks_png_check_frame(const char *path, const iks_image_opts *o, char *id, size_t idn);

#endif
