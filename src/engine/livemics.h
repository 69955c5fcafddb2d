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

/* The screen recording's sound track (--record): the first microphone's sound, a frame's worth
 * (44100 / fps samples) for each frame recorded, so that the picture and the sound stay together
 * whatever the display's pace: the sound that came since the frame before, a shortfall made up with
 * silence and a backlog over 0.1 s (a display slower than the recording's fps, a pause) let go of.
 * Written as a WAV in a temporary beside video. begin: false when no microphone is capturing or the
 * file cannot be made (said in log). */
bool iks_mics_track_begin(iks_mics *m, const char *video, double fps, iks_logger *log);
/* The WAV's name while a track is written (for the video writer's audio_after), else NULL */
const char *iks_mics_track_path(const iks_mics *m);
/* One frame recorded: its share of the sound written */
void iks_mics_track_frame(iks_mics *m);
/* The WAV made whole (its sizes written) for the writer to mux; false (said in log) when it could not be */
bool iks_mics_track_finish(iks_mics *m, iks_logger *log);
/* The temporary removed; safe without a track */
void iks_mics_track_end(iks_mics *m);
/* Whether some microphone is capturing (its channel has a device) */
bool iks_mics_capturing(const iks_mics *m);

/* Captures stopped, recordings finished (a failure said in log); safe with NULL */
void iks_mics_free(iks_mics *m, iks_logger *log);

#endif
