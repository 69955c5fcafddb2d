/* livemic.c: a microphone channel's texture: the site's 512x2 music texture (analyser.h) of the sound
 * fed to it. Until sound comes it is silence (spectrum 0, waveform 128). */
#include "gpu/livein.h"

#include "media/analyser.h"

#include <glad/gl.h>
#include <string.h>

bool iks_livemic_open(iks_gltoy *t, int pass, int c, struct iks_livein *l, iks_err *e)
{
    (void)l, (void)e;
    uint8_t silence[2 * IKS_ANALYSER_BINS];
    memset(silence, 0, IKS_ANALYSER_BINS);
    memset(silence + IKS_ANALYSER_BINS, 128, IKS_ANALYSER_BINS);
    glGenTextures(1, &t->tex[pass][c]);
    glBindTexture(GL_TEXTURE_2D, t->tex[pass][c]);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, IKS_ANALYSER_BINS, 2, 0, GL_RED, GL_UNSIGNED_BYTE, silence);
    glBindTexture(GL_TEXTURE_2D, 0);
    float *res = t->tex_res[pass][c];
    res[0] = IKS_ANALYSER_BINS, res[1] = 2, res[2] = 1;
    return true;
}

void iks_livemic_update(iks_gltoy *t, int pass, int c, struct iks_livein *l, const iks_frame *f, float *channel_time)
{
    (void)t, (void)pass, (void)c, (void)l, (void)f;
    *channel_time = 0;
}

bool iks_livemic_feed(struct iks_livein *l, const float *mono, size_t n, iks_err *e)
{
    (void)l, (void)mono, (void)n;
    return iks_err_set(e, IKS_E_UNSUPPORTED, "feeding a microphone channel is not built yet");
}

void iks_livemic_close(struct iks_livein *l) { (void)l; }
