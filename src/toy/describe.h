/* describe.h: a toy as its author wrote it, read without GL: the spec's passes and channels (from
 * the loader) and what each pass's assembled text declares: the uniforms its author can set (plain and
 * #iUniform ones), and whether a single file is a sound shader alone. What iks_toy_describe and
 * `ikshade info` show, on a machine where no GL context can be made.
 * What it does not do: compile (a uniform the compiler would remove is listed; a plain uniform's
 * initialiser is the compiler's, so only an #iUniform's default is known here). */
#ifndef IKS_DESCRIBE_H
#define IKS_DESCRIBE_H

#include "toy/toyfile.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char name[64];
    char type[32];    /* as declared: vec3, int, bvec2 (an #iUniform's color3 is the vec3 it declares) */
    iks_ubase base;
    int comps;        /* 1..4 */
    unsigned passes;  /* bit s: the pass at slot s declares it (spec.h's slots) */
    bool declared;    /* by an #iUniform line, with: */
    bool has_range, color;
    double def[4], min, max, step;
} iks_view_uniform;

typedef struct {
    iks_toyfile tf;           /* the spec and the strings it points into */
    bool image_less;          /* a single file that is a sound shader alone: its file is the Sound pass */
    bool file_sound;          /* the Image's file is also the sound pass (it defines mainSound) */
    iks_view_uniform *u;      /* the author's uniforms of the picture's passes, first declaration first */
    int nu;
    size_t capu;
} iks_toy_view;

/* Reads what each pass of v->tf's spec declares (iks_source_load with base's include search, GLSL as
 * the spec says). false with iks_source_load's error (naming the file) or IKS_E_NOMEM; v keeps tf
 * either way (iks_toy_view_free). */
bool iks_toy_view_scan(iks_toy_view *v, const iks_source_opts *base, iks_err *e);
/* Safe on a zeroed or failed view. */
void iks_toy_view_free(iks_toy_view *v);

#endif
