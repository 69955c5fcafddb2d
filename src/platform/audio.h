/* audio.h: the viewer's sound out of the speakers (ALSA's default device: PulseAudio or PipeWire on a
 * desktop, through their ALSA plugins). The stream is kept at the shader's time rather than at its own
 * clock: each frame the samples up to that time + a short lead are written, and a jump of that time (a pause
 * ending, R, stepping, a reload that restarts time) restarts the stream there, so sound and picture
 * stay together through everything the viewer does to time. No device is a warning for the caller,
 * never a failure. */
#ifndef IKS_AUDIO_OUT_H
#define IKS_AUDIO_OUT_H

#include "base/err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IKS_AUDIO_OUT_RATE 44100

typedef struct iks_audio_out iks_audio_out;

/* Fills n stereo frames (interleaved 16-bit) of the stream from sample `first` on (the time * rate). */
typedef void (*iks_audio_fill)(void *user, long long first, int n, int16_t *lr);

/* Opens the default output at 44.1 kHz, 16-bit stereo; NULL with e set when there is none
 * (IKS_E_UNSUPPORTED with ALSA's reason). */
iks_audio_out *iks_audio_out_open(iks_err *e);

/* Keeps the output playing the stream at time t (seconds) while playing, silent otherwise. Call once
 * a frame; never blocks. */
void iks_audio_out_play(iks_audio_out *a, double t, bool playing, iks_audio_fill fill, void *user);

void iks_audio_out_close(iks_audio_out *a);

#endif
