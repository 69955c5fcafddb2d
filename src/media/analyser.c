/* analyser.c: the WebAudio AnalyserNode's byte frequency and time-domain data, computed from a decoded
 * track at a given time (see analyser.h for what and why). */
#include "media/analyser.h"

#include <math.h>
#include <string.h>

#define N IKS_ANALYSER_FFT
#define DB_MIN (-100.0)
#define DB_MAX (-30.0)
#define SMOOTHING 0.8

void iks_analyser_init(iks_analyser *a, const float *samples, size_t n, bool loop)
{
    memset(a, 0, sizeof *a);
    a->samples = samples;
    a->n = n;
    a->loop = loop;
}

float iks_analyser_sample(const iks_analyser *a, long long pos)
{
    pos -= a->origin;
    if (pos < 0 || a->n == 0) return 0.0f;
    if ((unsigned long long)pos >= a->n) {
        if (!a->loop) return 0.0f;
        pos %= (long long)a->n;
    }
    return a->samples[pos];
}

/* In-place radix-2 FFT of N complex values (re, im), forward. */
static void fft(double *re, double *im)
{
    for (int i = 1, j = 0; i < N; i++) {
        int bit = N >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) {
            double t = re[i]; re[i] = re[j]; re[j] = t;
            t = im[i]; im[i] = im[j]; im[j] = t;
        }
    }
    for (int len = 2; len <= N; len <<= 1) {
        double ang = -2.0 * M_PI / len;
        for (int k = 0; k < len / 2; k++) {
            /* twiddles from the angle each time, not by repeated multiplication: no drift */
            double wr = cos(ang * k), wi = sin(ang * k);
            for (int i = k; i < N; i += len) {
                int j = i + len / 2;
                double xr = re[j] * wr - im[j] * wi, xi = re[j] * wi + im[j] * wr;
                re[j] = re[i] - xr;
                im[j] = im[i] - xi;
                re[i] += xr;
                im[i] += xi;
            }
        }
    }
}

/* |X[k]| / N for the window ending (exclusive) at sample pos, Blackman-windowed as the spec says */
static const double *magnitudes(iks_analyser *a, long long pos)
{
    for (int c = 0; c < IKS_ANALYSER_HISTORY + 2; c++)
        if (a->cache[c].valid && a->cache[c].pos == pos) return a->cache[c].mag;
    static const double alpha = 0.16;
    double re[N], im[N];
    for (int n = 0; n < N; n++) {
        double w = (1.0 - alpha) / 2 - 0.5 * cos(2.0 * M_PI * n / N) + alpha / 2 * cos(4.0 * M_PI * n / N);
        re[n] = w * iks_analyser_sample(a, pos - N + n);
        im[n] = 0.0;
    }
    fft(re, im);
    int c = a->next;
    a->next = (a->next + 1) % (IKS_ANALYSER_HISTORY + 2);
    a->cache[c].pos = pos;
    a->cache[c].valid = true;
    for (int k = 0; k < IKS_ANALYSER_BINS; k++) a->cache[c].mag[k] = sqrt(re[k] * re[k] + im[k] * im[k]) / N;
    return a->cache[c].mag;
}

/* The sample the window at time t ends before. WebAudio renders in quanta of 128 samples and an
 * analyser's data changes only when one is done: at a time inside a quantum it holds that whole
 * quantum (Chromium's OfflineAudioContext rounds a suspend time up to the next boundary, and a page
 * reading its analyser mid-quantum sees the quantum already rendered). Rounding to the sample instead
 * put the waveform row up to 127 samples early: 12 to 34 levels off on average against Chromium at
 * 60 fps, the spectrum 0.05 to 0.6 (tests/test_media.sh). A millionth of a sample down first: a frame
 * time such as 64 i / 3675 s lies exactly on a boundary but computes a hair over or under it. */
static long long position(double t)
{
    double s = t * IKS_ANALYSER_RATE;
    long long q = (long long)ceil(s / IKS_ANALYSER_QUANTUM - 1e-6);
    return q * IKS_ANALYSER_QUANTUM;
}

void iks_analyser_frame(iks_analyser *a, double t, double dt, uint8_t out[2 * IKS_ANALYSER_BINS])
{
    double smooth[IKS_ANALYSER_BINS] = { 0 };
    if (!(dt > 0)) dt = 1.0 / 60;
    /* oldest first, as the site's analyser smoothed frame after frame; frames before the start add
     * nothing (the track and the smoothing both start at zero) */
    for (int k = IKS_ANALYSER_HISTORY - 1; k >= 0; k--) {
        double tk = t - k * dt;
        if (tk < 0) continue;
        long long pos = position(tk);
        const double *m = magnitudes(a, pos);
        for (int b = 0; b < IKS_ANALYSER_BINS; b++) smooth[b] = SMOOTHING * smooth[b] + (1.0 - SMOOTHING) * m[b];
    }
    for (int b = 0; b < IKS_ANALYSER_BINS; b++) {
        double v = smooth[b] > 0 ? 255.0 / (DB_MAX - DB_MIN) * (20.0 * log10(smooth[b]) - DB_MIN) : 0.0;
        out[b] = v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)v;
    }
    /* the waveform: the window's first 512 samples (getByteTimeDomainData into 512 bytes), in float as
     * Chromium adds the 1: a sample a hair below zero (a 5.1 mix that nearly cancels) is 1.0f there,
     * byte 128, where a double kept it under and gave 127. Exact either way for 16-bit samples. */
    long long pos = position(t < 0 ? 0 : t);
    for (int n = 0; n < IKS_ANALYSER_BINS; n++) {
        float v = 128.0f * (iks_analyser_sample(a, pos - N + n) + 1.0f);
        out[IKS_ANALYSER_BINS + n] = v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)v;
    }
}
