/* livecams.h: the viewer's cameras: one capture per device the toy's webcam channels name, kept across
 * reloads, each draw's newest frame fed to every channel on it, their state in a line (the log, the
 * HUD), and, with an input log, what the channels showed recorded into a video beside it. */
#ifndef IKS_LIVECAMS_H
#define IKS_LIVECAMS_H

#include "base/err.h"
#include "gpu/toy.h"

#include <stdio.h>

typedef struct iks_livecams iks_livecams;

/* dflt: the device of webcam channels that name none (NULL: the first camera). log: where the state
 * lines go. inputs: the session's input log being written (NULL: nothing is recorded, nothing written),
 * at path (its directory and name: the videos are named from it). NULL for memory. */
iks_livecams *iks_livecams_new(const char *dflt, const iks_logger *log, FILE *inputs, const char *path);
/* Before gl draws at the session's second t (the input log's): the webcam channels get their devices'
 * newest frames (a capture started for a device seen the first time), the state lines said, the
 * recording brought up to t. gl NULL: nothing to feed (the toy failed to build). */
void iks_livecams_step(iks_livecams *lc, iks_gltoy *gl, double t);
/* The devices' trouble (one line each, "" when all capture) appended to the HUD's text */
void iks_livecams_hud(const iks_livecams *lc, char *text, size_t cap);
/* Captures stopped; the recordings finished and their lines (`c T0 PASS N FILE`) written into the input
 * log. NULL is fine. */
void iks_livecams_free(iks_livecams *lc);

#endif
