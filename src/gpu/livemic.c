/* livemic.c: a microphone channel's texture: the site's 512x2 music texture (analyser.h) of the sound
 * fed to it. Until sound comes it is silence (spectrum 0, waveform 128).
 *
 * Sound comes from any thread (the viewer's capture thread, a library host) into a bounded ring of the
 * newest samples; each draw copies the window the analyser needs and computes the texture there. The
 * analyser sees the captured sound as one long track ending at the newest whole render quantum
 * (origin = that window's first position), so its smoothing over successive frames is what the site's
 * AnalyserNode, read once a frame, gives, and its cache of spectra by position stays valid from one
 * draw to the next: a steady 60 fps draw computes one new FFT, not 64. */
#include "gpu/livein.h"

#include "media/analyser.h"

#include <glad/gl.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* 2^19 samples (11.9 s at 44.1 kHz): the analyser's history at frames up to 1/8 s apart (64 of them
 * and a window) fits; slower draws see the oldest part as silence, a difference under a byte */
#define RING (1 << 19)

struct iks_livemic {
    pthread_mutex_t mu;
    float *ring;          /* sample number i at ring[i % RING] */
    long long received;   /* samples fed so far */
    float *win;           /* the analyser's window, copied out of the ring at update */
    iks_analyser an;
    uint8_t bytes[2 * IKS_ANALYSER_BINS];
    long long last_end;
    double last_dt;
};

bool iks_livemic_open(iks_gltoy *t, int pass, int c, struct iks_livein *l, iks_err *e)
{
    struct iks_livemic *m = calloc(1, sizeof *m);
    if (!m || !(m->ring = calloc(RING, sizeof *m->ring)) || !(m->win = malloc(RING * sizeof *m->win))) {
        if (m) free(m->ring);
        free(m);
        return iks_err_set(e, IKS_E_NOMEM, "out of memory");
    }
    pthread_mutex_init(&m->mu, NULL);
    iks_analyser_init(&m->an, m->win, 0, false);
    memset(m->bytes, 0, IKS_ANALYSER_BINS);
    memset(m->bytes + IKS_ANALYSER_BINS, 128, IKS_ANALYSER_BINS);
    m->last_end = -1;
    l->mic = m;
    glGenTextures(1, &t->tex[pass][c]);
    glBindTexture(GL_TEXTURE_2D, t->tex[pass][c]);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, IKS_ANALYSER_BINS, 2, 0, GL_RED, GL_UNSIGNED_BYTE, m->bytes);
    glBindTexture(GL_TEXTURE_2D, 0);
    float *res = t->tex_res[pass][c];
    res[0] = IKS_ANALYSER_BINS, res[1] = 2, res[2] = 1;
    return true;
}

/* Copies samples [from, to) out of the ring into m->win; the caller holds the lock */
static void copy_window(struct iks_livemic *m, long long from, long long to)
{
    size_t n = (size_t)(to - from), at = (size_t)(from % RING);
    size_t first = n < RING - at ? n : RING - at;
    memcpy(m->win, m->ring + at, first * sizeof *m->win);
    memcpy(m->win + first, m->ring, (n - first) * sizeof *m->win);
}

void iks_livemic_update(iks_gltoy *t, int pass, int c, struct iks_livein *l, const iks_frame *f, float *channel_time)
{
    struct iks_livemic *m = l->mic;
    double dt = f->time_delta > 0 && isfinite(f->time_delta) ? f->time_delta : 1.0 / 60;
    /* the history the analyser reads: 64 frames dt apart, a window and a quantum of rounding */
    double span = (IKS_ANALYSER_HISTORY - 1) * dt * IKS_ANALYSER_RATE + IKS_ANALYSER_FFT + 2 * IKS_ANALYSER_QUANTUM;
    long long need = span < RING ? (long long)span : RING;
    pthread_mutex_lock(&m->mu);
    /* the newest whole quantum: every window the analyser reads then ends at or before it, so a
     * spectrum it caches never saw a sample that had not come yet */
    long long end = m->received / IKS_ANALYSER_QUANTUM * IKS_ANALYSER_QUANTUM;
    long long from = end > need ? end - need : 0;
    if (end != m->last_end || dt != m->last_dt) copy_window(m, from, end);
    pthread_mutex_unlock(&m->mu);
    *channel_time = (float)((double)end / IKS_ANALYSER_RATE);
    if (end == m->last_end && dt == m->last_dt) return;
    /* a window reaching further back than before: spectra cached with silence there are stale */
    if (from < m->an.origin)
        for (int k = 0; k < IKS_ANALYSER_HISTORY + 2; k++) m->an.cache[k].valid = false;
    m->an.origin = from;
    m->an.n = (size_t)(end - from);
    iks_analyser_frame(&m->an, (double)end / IKS_ANALYSER_RATE, dt, m->bytes);
    m->last_end = end;
    m->last_dt = dt;
    iks_music_upload(t->tex[pass][c], m->bytes);
}

bool iks_livemic_feed(struct iks_livein *l, const float *mono, size_t n, iks_err *e)
{
    struct iks_livemic *m = l->mic;
    if (n && !mono) return iks_err_set(e, IKS_E_USAGE, "no samples given for %zu frames", n);
    pthread_mutex_lock(&m->mu);
    /* of a feed longer than the ring only its end can show */
    size_t skip = n > RING ? n - RING : 0;
    m->received += (long long)skip;
    for (size_t i = skip; i < n; i++) {
        float v = mono[i];
        m->ring[m->received++ % RING] = isfinite(v) ? v : 0.0f;
    }
    pthread_mutex_unlock(&m->mu);
    return true;
}

void iks_livemic_close(struct iks_livein *l)
{
    struct iks_livemic *m = l->mic;
    if (!m) return;
    pthread_mutex_destroy(&m->mu);
    free(m->ring);
    free(m->win);
    free(m);
    l->mic = NULL;
}
