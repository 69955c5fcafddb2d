/* livecam.c: a webcam channel's texture: the latest frame fed to it. Until one comes it is black. */
#include "gpu/livein.h"

#include <glad/gl.h>

bool iks_livecam_open(iks_gltoy *t, int pass, int c, struct iks_livein *l, iks_err *e)
{
    (void)l, (void)e;
    static const uint8_t black[4] = { 0, 0, 0, 255 };
    glGenTextures(1, &t->tex[pass][c]);
    glBindTexture(GL_TEXTURE_2D, t->tex[pass][c]);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, black);
    glBindTexture(GL_TEXTURE_2D, 0);
    float *res = t->tex_res[pass][c];
    res[0] = res[1] = res[2] = 1;
    return true;
}

void iks_livecam_update(iks_gltoy *t, int pass, int c, struct iks_livein *l, const iks_frame *f, float *channel_time)
{
    (void)t, (void)pass, (void)c, (void)l, (void)f;
    *channel_time = 0;
}

bool iks_livecam_feed(struct iks_livein *l, const uint8_t *rgba, int w, int h, iks_err *e)
{
    (void)l, (void)rgba, (void)w, (void)h;
    return iks_err_set(e, IKS_E_UNSUPPORTED, "feeding a webcam channel is not built yet");
}

void iks_livecam_close(struct iks_livein *l) { (void)l; }
