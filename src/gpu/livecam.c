/* livecam.c: a webcam channel's texture: the latest frame fed to it (a capture's thread, a library host),
 * uploaded by the next draw. Until one comes it is black, 1x1. A frame waits in one slot under a mutex:
 * a newer one replaces it, so a draw never works through a backlog, and the feeding thread never waits
 * for GL. Oriented as media.c orients a video (the channel's vflip, as WebGL uploads a video element),
 * its size iChannelResolution, re-specified when the camera's size changes. */
#include "gpu/livein.h"

#include "base/buf.h"
#include "base/clock.h"

#include <glad/gl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct iks_livecam {
    pthread_mutex_t mu;      /* guards the slot: px, w, h, seq, first */
    uint8_t *px;             /* the newest frame fed, top row first */
    size_t cap;
    int w, h;
    long seq;                /* frames fed */
    double first;            /* when the first came (iks_now): iChannelTime counts from it */
    long shown;              /* the drawing thread's: the frame in the texture */
    int tw, th;              /* the texture's size */
    uint8_t *flipped;        /* the drawing thread's: a frame bottom row first, for vflip */
    size_t flipped_cap;
};

bool iks_livecam_open(iks_gltoy *t, int pass, int c, struct iks_livein *l, iks_err *e)
{
    static const uint8_t black[4] = { 0, 0, 0, 255 };
    struct iks_livecam *k = calloc(1, sizeof *k);
    if (!k) return iks_err_set(e, IKS_E_NOMEM, "out of memory");
    pthread_mutex_init(&k->mu, NULL);
    k->tw = k->th = 1;
    l->cam = k;
    glGenTextures(1, &t->tex[pass][c]);
    glBindTexture(GL_TEXTURE_2D, t->tex[pass][c]);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, black);
    glBindTexture(GL_TEXTURE_2D, 0);
    float *res = t->tex_res[pass][c];
    res[0] = res[1] = res[2] = 1;
    return true;
}

/* the slot's frame into the texture (the caller holds the lock) */
static void upload(iks_gltoy *t, int pass, int c, struct iks_livecam *k)
{
    const iks_input *in = &t->in[pass][c];
    const uint8_t *px = k->px;
    size_t row = (size_t)k->w * 4;
    if (in->vflip && IKS_GROW(k->flipped, row * (size_t)k->h, k->flipped_cap)) {
        /* the camera's top row first; GL's first row is the bottom, where vflip wants the image's bottom */
        for (int y = 0; y < k->h; y++) memcpy(k->flipped + (size_t)y * row, px + (size_t)(k->h - 1 - y) * row, row);
        px = k->flipped;
    }
    glBindTexture(GL_TEXTURE_2D, t->tex[pass][c]);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    if (k->w != k->tw || k->h != k->th) {
        glTexImage2D(GL_TEXTURE_2D, 0, in->srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, k->w, k->h, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
        k->tw = k->w, k->th = k->h;
        float *res = t->tex_res[pass][c];
        res[0] = (float)k->w, res[1] = (float)k->h, res[2] = 1;
    } else glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, k->w, k->h, GL_RGBA, GL_UNSIGNED_BYTE, px);
    if (in->filter == IKS_FILTER_MIPMAP) glGenerateMipmap(GL_TEXTURE_2D);
    glBindTexture(GL_TEXTURE_2D, 0);
}

void iks_livecam_update(iks_gltoy *t, int pass, int c, struct iks_livein *l, const iks_frame *f, float *channel_time)
{
    (void)f;
    struct iks_livecam *k = l->cam;
    pthread_mutex_lock(&k->mu);
    if (k->seq != k->shown && k->px) {
        upload(t, pass, c, k);
        k->shown = k->seq;
    }
    /* the site's iChannelTime of a webcam: the time its stream has played, here since the first frame */
    *channel_time = k->seq ? (float)(iks_now() - k->first) : 0.0f;
    pthread_mutex_unlock(&k->mu);
}

bool iks_livecam_feed(struct iks_livein *l, const uint8_t *rgba, int w, int h, iks_err *e)
{
    struct iks_livecam *k = l->cam;
    if (!rgba || w < 1 || h < 1 || w > 16384 || h > 16384)
        return iks_err_set(e, IKS_E_USAGE, "a webcam frame of %dx%d%s: expected 1 to 16384 pixels a side", w, h,
                           rgba ? "" : " without pixels");
    size_t bytes = (size_t)w * (size_t)h * 4;
    pthread_mutex_lock(&k->mu);
    bool ok = IKS_GROW(k->px, bytes, k->cap);
    if (ok) {
        memcpy(k->px, rgba, bytes);
        k->w = w, k->h = h;
        if (!k->seq) k->first = iks_now();
        k->seq++;
    }
    pthread_mutex_unlock(&k->mu);
    return ok || iks_err_set(e, IKS_E_NOMEM, "out of memory for a %dx%d webcam frame", w, h);
}

void iks_livecam_close(struct iks_livein *l)
{
    struct iks_livecam *k = l->cam;
    if (!k) return;
    pthread_mutex_destroy(&k->mu);
    free(k->px);
    free(k->flipped);
    free(k);
    l->cam = NULL;
}
