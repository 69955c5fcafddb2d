/* livemics.h: the viewer's microphones: one capture (src/media/capture_audio.c) per device the toy's
 * mic channels name, its sound fed to those channels each frame and, with --record-input, written
 * as a WAV beside the input log with the log's `c` line for each channel. Captures outlive reloads:
 * a save does not reopen the device. What it does not do: analyse (livemic.c) or draw. */
#ifndef IKS_LIVEMICS_H
#define IKS_LIVEMICS_H

#include "base/err.h"
#include "gpu/toy.h"

#include <stdio.h>

typedef struct iks_mics iks_mics;

/* dflt: the device a channel that names none captures (--mic; NULL: the default source).
 * log_path: the input log (--record-input) the WAVs go beside, or NULL for none. */
iks_mics *iks_mics_new(const char *dflt, const char *log_path);

/* Once a frame before the draw: a capture started for each mic channel of t (NULL: none) that has
 * none yet, the sound that came since the last frame fed to its channels and into the recording.
 * inputs: the open input log (NULL: none) and session_t its time now, for `c` lines. A device's
 * change of state is one line in log. */
void iks_mics_pump(iks_mics *m, iks_gltoy *t, FILE *inputs, double session_t, iks_logger *log);

/* The HUD's lines for the microphones (a device away), "" when there is nothing to say */
void iks_mics_hud(const iks_mics *m, char *text, size_t n);

/* Captures stopped, recordings finished (a failure said in log); safe with NULL */
void iks_mics_free(iks_mics *m, iks_logger *log);

#endif
