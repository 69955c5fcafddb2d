/* segments.h: a film rendered in segments on many machines (iks_render_desc.segments): where each
 * segment lies, what it says of itself, whether one is whole and of this film, and the join of them
 * into the film without encoding the picture again (docs/DESIGN-NOTES.md, "a film in segments").
 * What it does not do: draw or encode frames (render.c and the writer make each segment). */
#ifndef IKS_SEGMENTS_H
#define IKS_SEGMENTS_H

#include "base/err.h"
#include "engine/formats.h"
#include "io/encode.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A film of frames first..end-1 in n segments, as a render describes it */
typedef struct {
    const char *output;          /* the film */
    const iks_format *fmt;       /* its row: a video that joins (segments) */
    long first, end, n;
    double fps;
    char id[IKS_FRAME_ID_MAX];   /* the render's identity (render.c's render_id) */
    uint64_t settings;           /* the encoder's settings and the size (iks_film_settings) */
} iks_film;

/* Segment k of n's file, into buf (iks_segment_path without an error published); false when too long */
bool iks_segment_name(const char *output, long k, long n, char *buf, size_t size);
/* The hash of what decides a segment's stream besides the render: the format's options, the size */
uint64_t iks_film_settings(const iks_format *f, int width, int height);
/* The comment segment k carries (its identity, the film's range, its part and frames) */
void iks_segment_comment(const iks_film *f, long k, char *buf, size_t n);

/* Whether segment k is whole and of this film: 1 yes, 0 not there, -1 there but not it (why says
 * what is wrong: damaged, of another render, of other settings). Its stream's shape is held against
 * *shape (the first segment's, filled when empty), so that every segment joins into one stream. */
typedef struct {
    char text[256];
} iks_seg_shape;
int iks_segment_check(const iks_film *f, long k, iks_seg_shape *shape, char *why, size_t n);
/* How many of the film's segments are there, by name (an empty part counts as there) */
long iks_film_segments_there(const iks_film *f);
/* Whether the output is already this film, joined and whole (its comment says so, every frame reads) */
bool iks_film_joined(const iks_film *f);
/* Checks every segment and joins them into the output, with audio (a WAV of the whole film's sound, or
 * NULL) encoded once as the format's sound; atomically. IKS_E_FORMAT naming the first segment that is
 * missing or not whole and of this film. */
bool iks_film_join(const iks_film *f, const char *audio, iks_err *err);

#endif
