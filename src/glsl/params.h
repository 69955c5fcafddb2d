/* params.h: a toy's parameters declared in its text, in the form the VS Code "Shader Toy" extension
 * reads, so that one file runs in both:
 *
 *   #iUniform float r1 = 0.6 in { 0.05, 2.0 } step 0.01   // a slider
 *   #iUniform int octaves = 3 in { 1, 15 }                // integer steps
 *   #iUniform color3 tint = color3(1.0, 0.5, 0.0)          // a colour picker
 *   #iUniform vec2 offset = vec2(0.0) in { -1.0, 1.0 }     // a slider per component
 *   #iUniform bool ghost = true                            // a toggle
 *   #iUniform float seed = 52.                             // no range: a number field
 *
 * Each such line becomes `uniform TYPE NAME;` on the same line (so line numbers hold) and a parameter
 * with its default, which the GL side sets after linking (GLSL ES allows no initialiser on a uniform).
 * Text only: no GL, testable alone (tests/test_glsl.c) and fuzzed (tests/fuzz). */
#ifndef IKS_PARAMS_H
#define IKS_PARAMS_H

#include "glsl/source.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct iks_param {
    char name[64];
    char type[8];      /* what the compiler sees: float, vec2-4, int, ivec2-4, bool */
    iks_ubase base;    /* IKS_U_FLOAT, IKS_U_INT or IKS_U_BOOL */
    int n;             /* components, 1 to 4 */
    bool color;        /* declared color3 or color4 */
    double def[4];     /* the default (a single value in a constructor fills every component) */
    bool has_range;
    double min, max;   /* for every component */
    double step;       /* 0: continuous (an int's is 1 unless given) */
    int line;          /* where it was declared, for messages */
} iks_param;

/* Whether the line (n bytes, no newline) is an #iUniform directive. */
bool iks_param_is_line(const char *s, size_t n);

/* Parses one #iUniform line into p and writes what the compiler sees instead into decl (cap bytes:
 * `uniform TYPE NAME;`, at most 80 bytes with a 63-byte name). False with a reason (why, whycap bytes:
 * "expected ..." without the file and line) when the line is malformed. */
bool iks_param_parse(const char *s, size_t n, iks_param *p, char *decl, size_t cap, char *why, size_t whycap);

#endif
