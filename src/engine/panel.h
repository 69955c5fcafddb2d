/* panel.h: the viewer's parameter panel without GL: one row per uniform of the toy, its layout in the
 * window, hit-testing, what a press or a drag does to a value (slider, number field, toggle, reset),
 * and what it draws as a list of rectangles and labels for the HUD (gpu/hud.c draws them). The live
 * loop (live.c) feeds it events and applies the values it reports changed; tests/test_panel.c drives
 * it with no window at all. Coordinates are framebuffer pixels with y up, as iks_event's. */
#ifndef IKS_PANEL_H
#define IKS_PANEL_H

#include "ikshade/ikshade.h"
#include "gpu/hud.h"

#include <stdbool.h>
#include <stddef.h>

#define IKS_PANEL_MAX_ROWS 64

typedef struct {
    char name[64];
    char glsl_type[16];
    iks_uniform_type type;
    int n;                 /* components, 1..4 */
    double v[4];           /* the value now, as GL holds it (a float's rounded to float) */
    double initial[4];     /* what reset goes back to: the declared default */
    bool active;           /* false: the compiler removed it; shown dimmed, not draggable */
    bool ranged;           /* a slider per component (declared range, or 0..1 for a colour) */
    bool color;
    double min, max, step; /* step 0: continuous */
    bool touched;          /* the user changed it: kept across reloads while the name and type stay */
} iks_panel_row;

typedef struct {
    float x, y, w, h;      /* pixels, y up; x, y the bottom-left corner */
} iks_panel_box;

typedef struct {
    iks_panel_row rows[IKS_PANEL_MAX_ROWS];
    int nrows;
    int more;              /* uniforms beyond IKS_PANEL_MAX_ROWS, left out */
    bool shown;
    /* the layout (iks_panel_layout) */
    int fw, fh;
    float scale;
    iks_panel_box box;     /* the whole panel: a press inside is the panel's, never the toy's iMouse */
    float row_h, title_h, label_w, reset_w, pad;
    int visible;           /* rows that fit in the window */
    /* a press taken by the panel: its moves and its release are the panel's too */
    bool captured;
    int drag_row, drag_comp; /* -1: the press was on no control (or a toggle, a reset) */
    double anchor_x, anchor_v; /* the drag's reference: the pointer and the value there */
    bool anchor_fine;
} iks_panel;

void iks_panel_init(iks_panel *p);

/* The rows for a toy's uniforms (info[0..n-1], as iks_toy_uniform_info gives them). A row the user
 * changed keeps its value when the new list still has that name with the same GLSL type (a live reload:
 * a new default in the file does not override a dragged value); the caller then applies the rows marked
 * touched to the new toy. Its initial and range come from the new list, so reset goes to the new
 * default. */
void iks_panel_sync(iks_panel *p, const iks_uniform_info *info, int n);

/* Places the panel in a fw x fh framebuffer at the top-right, scale pixels per font unit. */
void iks_panel_layout(iks_panel *p, int fw, int fh, float scale);

/* The boxes of row r: the whole row, component c's control, the reset button ("r" at its end) */
iks_panel_box iks_panel_row_box(const iks_panel *p, int r);
iks_panel_box iks_panel_control_box(const iks_panel *p, int r, int c);
iks_panel_box iks_panel_reset_box(const iks_panel *p, int r);

/* Whether (x, y) is on the shown panel */
bool iks_panel_contains(const iks_panel *p, double x, double y);

/* The left button went down at (x, y); fine: Shift or Ctrl held (a tenth of the step). Returns whether
 * the panel takes the press (then the toy's iMouse must not see it, nor the moves and the release that
 * follow). *changed: the row whose value changed (a slider jumps to the pointer, a toggle flips, a reset),
 * or -1. */
bool iks_panel_press(iks_panel *p, double x, double y, bool fine, int *changed);
/* The pointer moved to x during a press the panel took: the row changed, or -1 */
int iks_panel_move(iks_panel *p, double x, bool fine);
/* The button went up: whether the press was the panel's */
bool iks_panel_release(iks_panel *p);

/* Sets row r's component c from a slider's fraction f (0..1) or a value, snapped (range, step, int) */
void iks_panel_set_fraction(iks_panel *p, int r, int c, double f);
void iks_panel_set_value(iks_panel *p, int r, int c, double v);
/* The fraction of its range a ranged row's component is at (0..1) */
double iks_panel_fraction(const iks_panel_row *row, int c);

/* Back to the declared default: row r (true when it changed), or every row (how many changed; the
 * indices into changed[], which has room for IKS_PANEL_MAX_ROWS) */
bool iks_panel_reset(iks_panel *p, int r);
int iks_panel_reset_all(iks_panel *p, int *changed);

/* "NAME=V[,V..]" of row r, as --set and the input log's u lines take it (floats with 9 significant
 * digits: the float GL holds, exactly) */
void iks_panel_setting(const iks_panel_row *row, char *out, size_t cap);
/* "--set NAME=V ..." of every active row; "" when there is none */
void iks_panel_set_line(const iks_panel *p, char *out, size_t cap);

/* What the panel draws (after iks_panel_layout), into the caller's arrays: returns the counts. In the
 * HUD's coordinates (pixels from the top-left, y down). */
void iks_panel_draw_list(const iks_panel *p, iks_hud_rect *rects, int max_rects, int *nrects, iks_hud_label *labels,
                         int max_labels, int *nlabels);

#endif
