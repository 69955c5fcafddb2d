/* analyser.h: what shadertoy.com puts in a music or microphone channel: a 512x2 texture whose row 0 is
 * the spectrum and row 1 the waveform, as a WebAudio AnalyserNode gives them (fftSize 2048 at 44.1 kHz,
 * smoothingTimeConstant 0.8, decibels -100..-30 as bytes 0..255; the spec's "current frequency data":
 * Blackman window, FFT scaled by 1/N, smoothing over successive frames, 20 log10). The site reads the
 * analyser once a frame; here frame i's data depends only on its time t and the frame step dt (the
 * smoothing runs over the frames at t - k dt for the last IKS_ANALYSER_HISTORY k, oldest first, from
 * zero), so that any range of a render gives the bytes of one long run.
 * Pure computation: no GL, no I/O. */
#ifndef IKS_ANALYSER_H
#define IKS_ANALYSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IKS_ANALYSER_RATE 44100
#define IKS_ANALYSER_FFT 2048
#define IKS_ANALYSER_BINS 512    /* the site's texture width: bins 0..511 (0 to 11025 Hz) */
#define IKS_ANALYSER_QUANTUM 128 /* WebAudio's render quantum: an analyser's data moves on in these steps */
#define IKS_ANALYSER_HISTORY 64  /* 0.8^64 = 6e-7 (-124 dB): older frames no longer show in a byte */

typedef struct {
    const float *samples; /* mono at IKS_ANALYSER_RATE, not owned */
    size_t n;
    bool loop;            /* past the end: from the start again (the site's music), else silence */
    long long origin;     /* the position samples[0] is at (0 but for a live window: livemic.c) */
    /* magnitudes already computed, by window position: successive frames share most of their history */
    struct { long long pos; bool valid; double mag[IKS_ANALYSER_BINS]; } cache[IKS_ANALYSER_HISTORY + 2];
    int next;
} iks_analyser;

void iks_analyser_init(iks_analyser *a, const float *samples, size_t n, bool loop);

/* The texture at time t (seconds into the audio) for frames dt apart: out[0..511] the spectrum bytes,
 * out[512..1023] the waveform bytes (128 is silence). */
void iks_analyser_frame(iks_analyser *a, double t, double dt, uint8_t out[2 * IKS_ANALYSER_BINS]);

/* The sample at position pos (negative: before the start, silence), looping as a says. */
float iks_analyser_sample(const iks_analyser *a, long long pos);

#endif
