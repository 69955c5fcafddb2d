/* webpio.h: animated WebP through libwebp's WebPAnimEncoder (libwebpmux): lossy frames, looping for
 * ever, opaque (alpha is ignored). Frames arrive one at a time, in order, and the file is assembled in
 * memory at the end; the caller writes the bytes (atomically, outfile.h). One animation is one
 * sequence: its calls come from one thread at a time (different animations may run on different
 * threads). A frame equal to the one before is merged into it by libwebp (one frame shown for both
 * durations), so a file may hold fewer frames than were added; the clip's length is the same.
 * What it does not do: lossless or mixed frames, alpha, still WebPs other than one-frame animations
 * (libwebp writes a one-frame animation as a plain still image), files, or output-format choice. */
#ifndef IKS_WEBPIO_H
#define IKS_WEBPIO_H

#include "base/err.h"
#include "io/encode.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct iks_webp_anim iks_webp_anim;
/* An animation of w x h frames at fps (frame i shown at round(i * 1000 / fps) ms, so durations add up to the
 * clip's length without drift), lossy at quality 1..100. IKS_E_USAGE for a bad size/fps/quality; WebP's limit
 * is 16383 pixels a side: say so.
 * fps: finite, at most 1000 (WebP's durations are whole milliseconds: more would make frames of 0 ms)
 * and at least 1000 / 16777215 (a frame's duration is a 24-bit field). */
bool iks_webp_anim_open(int w, int h, double fps, int quality, iks_webp_anim **out, iks_err *e);
/* Adds the next frame: RGBA8, bottom row first (GL's order). false with e set (IKS_E_NOMEM, IKS_E_IO with libwebp's reason).
 * After a failure (or after finish) the animation takes no more frames: IKS_E_USAGE. */
bool iks_webp_anim_add(iks_webp_anim *a, const uint8_t *rgba, iks_err *e);
/* Assembles the file (the last frame's duration is 1000/fps ms too). malloc'd bytes; a is still to be freed.
 * No frames, or a second finish: IKS_E_USAGE. */
bool iks_webp_anim_finish(iks_webp_anim *a, uint8_t **out, size_t *len, iks_err *e);
void iks_webp_anim_free(iks_webp_anim *a);   /* safe on NULL */
/* The same as the output table's animation encoder (io/encode.h): o->w x o->h, o->quality. */
extern const iks_anim_encoder iks_webp_encoder;

#endif
