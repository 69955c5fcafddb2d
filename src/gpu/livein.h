/* livein.h: between livein.c and its kinds' files (livemic.c, livecam.c); the toy's own entry points
 * are in toy.h. Each kind keeps its state in its member of iks_livein, opened with the channel's
 * texture (t->tex[pass][c], t->tex_res[pass][c]) made, fed from any thread, brought to the texture by
 * update on the drawing thread. */
#ifndef IKS_LIVEIN_H
#define IKS_LIVEIN_H

#include "gpu/toy.h"

struct iks_livemic;
struct iks_livecam;

struct iks_livein {
    iks_input_kind kind;          /* IKS_IN_MIC or IKS_IN_WEBCAM */
    struct iks_livemic *mic;      /* owned by livemic.c */
    struct iks_livecam *cam;      /* owned by livecam.c */
};

bool iks_livemic_open(iks_gltoy *t, int pass, int c, struct iks_livein *l, iks_err *e);
void iks_livemic_update(iks_gltoy *t, int pass, int c, struct iks_livein *l, const iks_frame *f, float *channel_time);
bool iks_livemic_feed(struct iks_livein *l, const float *mono, size_t n, iks_err *e);
void iks_livemic_close(struct iks_livein *l);

bool iks_livecam_open(iks_gltoy *t, int pass, int c, struct iks_livein *l, iks_err *e);
void iks_livecam_update(iks_gltoy *t, int pass, int c, struct iks_livein *l, const iks_frame *f, float *channel_time);
bool iks_livecam_feed(struct iks_livein *l, const uint8_t *rgba, int w, int h, iks_err *e);
void iks_livecam_close(struct iks_livein *l);

#endif
