/* hud.h: a text overlay (stb_easy_font's vector glyphs) drawn over whatever is in the framebuffer:
 * the viewer's fps, times and mouse, and the current compile error. Needs a current GL 3.3 context. */
#ifndef IKS_HUD_H
#define IKS_HUD_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    unsigned prog, vao, vbo, ibo;
    int loc_view, loc_scale, loc_origin;
    int cap_quads; /* capacity of vbo and ibo, in quads */
} iks_hud;

bool iks_hud_create(iks_hud *h);
void iks_hud_destroy(iks_hud *h);

/* Draws text ('\n' separates lines) at the top-left of a w x h framebuffer (fbo 0) on a translucent
 * panel; lines starting with "error" or a path followed by ": error" are drawn in the error colour.
 * scale: pixels per font unit (2 on HiDPI). */
void iks_hud_draw(iks_hud *h, const char *text, int w, int h_, float scale);

/* Rectangles and labels at places of their own (the parameter panel, engine/panel.c): pixels from the
 * top-left of the framebuffer, y down; a label's glyphs scale pixels per font unit (a line is 12 units
 * high, a character at most 7 wide). Rectangles are drawn first, in order, then the labels. */
typedef struct {
    float x, y, w, h;
    unsigned char rgba[4];
} iks_hud_rect;
typedef struct {
    float x, y;
    char text[48];
    unsigned char rgba[4];
} iks_hud_label;
void iks_hud_draw_items(iks_hud *h, const iks_hud_rect *rects, int nrects, const iks_hud_label *labels, int nlabels,
                        int w, int h_, float scale);

/* An error's text for the HUD into out (cap bytes, NUL-terminated): its lines wrapped at cols characters
 * (at a space when there is one in the second half; continuations indented by two), at most max_lines
 * of them, then "+N more lines (in the terminal)" when some are left. No GL. */
void iks_hud_error_lines(char *out, size_t cap, const char *error, int cols, int max_lines);

#endif
