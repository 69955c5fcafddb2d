/* capture_audio.h: a microphone (a PulseAudio or PipeWire capture source) read by ffmpeg on a thread
 * of its own, as mono float samples at 44.1 kHz for a live channel (livemic.c) and a recording.
 * Never blocks its caller: the samples wait in a bounded queue that the viewer drains once a frame.
 * A device that is missing, busy or lost is retried every second; while it is away the capture goes
 * on as silence on the wall clock, so that its time stays the session's (a recording's file time =
 * session time - its start). What it does not do: analyse (livemic.c) or write files (live.c). */
#ifndef IKS_CAPTURE_AUDIO_H
#define IKS_CAPTURE_AUDIO_H

#include "base/err.h"

#include <stdbool.h>
#include <stddef.h>

#define IKS_CAPTURE_RATE 44100

typedef struct iks_capture_audio iks_capture_audio;

/* Starts capturing device (a pulse source name; NULL or "" the default). NULL with e set when no
 * ffmpeg is installed or no thread can start; a device that is absent is not an error (see above). */
iks_capture_audio *iks_capture_audio_start(const char *device, iks_err *e);

/* Moves up to max samples (oldest first) out of the queue into out; how many. */
size_t iks_capture_audio_take(iks_capture_audio *c, float *out, size_t max);

/* A change of the device's state since the last call ("microphone 'X': lost (...); retrying every
 * second", "... is back"), one line into line; false when nothing changed. */
bool iks_capture_audio_news(iks_capture_audio *c, char *line, size_t n);

/* Whether sound comes from the device now (else the capture is silence) */
bool iks_capture_audio_live(iks_capture_audio *c);

/* Stops: ffmpeg ended and reaped, the thread joined, everything freed. Safe with NULL. */
void iks_capture_audio_stop(iks_capture_audio *c);

/* The capture sources (pulse), one per call of each with its name and description, the default's
 * is_default true; false with e set when they cannot be listed (no pactl, no sound server). */
bool iks_capture_audio_list(void (*each)(void *user, const char *name, const char *desc, bool is_default),
                            void *user, iks_err *e);

#endif
