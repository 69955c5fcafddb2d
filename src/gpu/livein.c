/* livein.c: a toy's live channels (microphone, webcam): the state each holds and the dispatch to its
 * kind's file (livemic.c: the analyser's texture of captured sound; livecam.c: the latest camera frame).
 * What it does not do: capture (src/media does, on the viewer's behalf) or know where sound and frames
 * come from: a capture thread and a library host feed them the same way. */
#include "gpu/livein.h"

#include <stdlib.h>

static bool not_live(iks_err *e, int c, const char *what)
{
    return iks_err_set(e, IKS_E_USAGE, IKS_U_CHANNEL_PREFIX "%d is not a %s channel", c, what);
}

bool iks_livein_open(iks_gltoy *t, int pass, int c, iks_err *e)
{
    struct iks_livein *l = calloc(1, sizeof *l);
    if (!l) return iks_err_set(e, IKS_E_NOMEM, "out of memory");
    t->live[pass][c] = l;
    l->kind = t->in[pass][c].kind;
    return l->kind == IKS_IN_MIC ? iks_livemic_open(t, pass, c, l, e) : iks_livecam_open(t, pass, c, l, e);
}

void iks_livein_update(iks_gltoy *t, int pass, int c, const iks_frame *f, float *channel_time)
{
    struct iks_livein *l = t->live[pass][c];
    if (!l) return;
    if (l->kind == IKS_IN_MIC) iks_livemic_update(t, pass, c, l, f, channel_time);
    else iks_livecam_update(t, pass, c, l, f, channel_time);
}

void iks_livein_close(iks_gltoy *t, int pass, int c)
{
    struct iks_livein *l = t->live[pass][c];
    if (!l) return;
    if (l->kind == IKS_IN_MIC) iks_livemic_close(l);
    else iks_livecam_close(l);
    free(l);
    t->live[pass][c] = NULL;
}

bool iks_livein_audio(iks_gltoy *t, int pass, int c, const float *mono, size_t n, iks_err *e)
{
    struct iks_livein *l = pass >= 0 && pass < IKS_PASSES && c >= 0 && c < 4 ? t->live[pass][c] : NULL;
    if (!l || l->kind != IKS_IN_MIC) return not_live(e, c, "microphone");
    return iks_livemic_feed(l, mono, n, e);
}

bool iks_livein_frame(iks_gltoy *t, int pass, int c, const uint8_t *rgba, int w, int h, iks_err *e)
{
    struct iks_livein *l = pass >= 0 && pass < IKS_PASSES && c >= 0 && c < 4 ? t->live[pass][c] : NULL;
    if (!l || l->kind != IKS_IN_WEBCAM) return not_live(e, c, "webcam");
    return iks_livecam_feed(l, rgba, w, h, e);
}
