/* pngio.h: PNG encoding (stb_image_write's container, libdeflate's deflate) and atomic file writes.
 * Thread-safe once iks_png_setup() has run: workers encode frames in parallel. The level and filter
 * are process-wide (stb_image_write's own globals): two renders at once encode with the last ones set,
 * which changes their size, never their pixels. Failures set errno; the caller words the message. */
#ifndef IKS_PNGIO_H
#define IKS_PNGIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outfile.h" /* iks_write_all, iks_write_atomic: their users came here for them */

/* Call before any thread encodes. level: libdeflate's 0..12 (1 is the fast default). filter: the PNG row
 * filter 0..4 for every row (2, Up, is render's), or -1 for stb's per-row choice of the best of five. */
void iks_png_setup(int level, int filter);

/* Encodes w x h RGBA8 pixels stored bottom row first (as GL reads them) into a PNG, top row first;
 * RGB unless alpha. Returns malloc'd bytes in *out (caller frees), or false when out of memory. */
bool iks_png_encode(const uint8_t *rgba, int w, int h, bool alpha, uint8_t **out, size_t *len);

/* The default, fast path (pngfast.c): the same PNG contract, with the Up filter fused into the pass
 * from RGBA rows, ISA-L's igzip level 1 and ISA-L's CRC. No global state: safe on any thread, with no
 * setup. */
bool iks_png_encode_fast(const uint8_t *rgba, int w, int h, bool alpha, uint8_t **out, size_t *len);

/* Releases the calling thread's compressor; each thread that encoded calls it before it ends. */
void iks_png_thread_done(void);


#endif
