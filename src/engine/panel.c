/* panel.c: the parameter panel's rows, layout, hit-testing and value mapping (panel.h). No GL and no
 * window: the live loop hands it events and draws its list with the HUD, and tests/test_panel.c checks
 * every mapping with numbers alone. */
#include "engine/panel.h"
#include "base/strutil.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FINE 0.1 /* Shift or Ctrl: a tenth of the usual change per pixel */

void iks_panel_init(iks_panel *p)
{
    memset(p, 0, sizeof *p);
    p->drag_row = p->drag_comp = -1;
    p->scale = 1;
}

/* ---- values ------------------------------------------------------------------------------------ */

/* v as row's component can hold it: in its range and on its step, a whole number for int and uint, 0 or
 * 1 for bool, and a float's as float rounds it (what GL holds, so what the --set line says is exact) */
static double snap(const iks_panel_row *row, double v)
{
    if (!isfinite(v)) v = 0;
    if (row->ranged && row->max > row->min) {
        if (v < row->min) v = row->min;
        if (v > row->max) v = row->max;
        if (row->step > 0) {
            v = row->min + round((v - row->min) / row->step) * row->step;
            if (v > row->max) v = row->max;
        }
    }
    switch (row->type) {
    case IKS_UNIFORM_INT:
        v = round(v);
        return v < INT_MIN ? INT_MIN : v > INT_MAX ? INT_MAX : v;
    case IKS_UNIFORM_UINT:
        v = round(v);
        return v < 0 ? 0 : v > UINT_MAX ? UINT_MAX : v;
    case IKS_UNIFORM_BOOL: return v != 0;
    default: return (double)(float)v;
    }
}

void iks_panel_set_value(iks_panel *p, int r, int c, double v)
{
    if (r < 0 || r >= p->nrows || c < 0 || c >= p->rows[r].n) return;
    iks_panel_row *row = &p->rows[r];
    double nv = snap(row, v);
    if (nv != row->v[c]) row->touched = true;
    row->v[c] = nv;
}

void iks_panel_set_fraction(iks_panel *p, int r, int c, double f)
{
    if (r < 0 || r >= p->nrows) return;
    const iks_panel_row *row = &p->rows[r];
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    iks_panel_set_value(p, r, c, row->min + f * (row->max - row->min));
}

double iks_panel_fraction(const iks_panel_row *row, int c)
{
    if (!row->ranged || !(row->max > row->min)) return 0;
    double f = (row->v[c] - row->min) / (row->max - row->min);
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

bool iks_panel_reset(iks_panel *p, int r)
{
    if (r < 0 || r >= p->nrows) return false;
    iks_panel_row *row = &p->rows[r];
    bool changed = memcmp(row->v, row->initial, sizeof row->v) != 0;
    memcpy(row->v, row->initial, sizeof row->v);
    row->touched = false; /* back on the file's default: a reload follows the file again */
    return changed;
}

int iks_panel_reset_all(iks_panel *p, int *changed)
{
    int k = 0;
    for (int r = 0; r < p->nrows; r++)
        if (iks_panel_reset(p, r)) changed[k++] = r;
    return k;
}

/* ---- rows from the toy ------------------------------------------------------------------------- */

void iks_panel_sync(iks_panel *p, const iks_uniform_info *info, int n)
{
    /* the old rows, to find the values the user changed */
    iks_panel_row *old = malloc(sizeof *old * (size_t)(p->nrows ? p->nrows : 1));
    int nold = 0;
    if (old) {
        memcpy(old, p->rows, sizeof *old * (size_t)p->nrows);
        nold = p->nrows;
    }
    p->nrows = 0;
    p->more = n > IKS_PANEL_MAX_ROWS ? n - IKS_PANEL_MAX_ROWS : 0;
    for (int i = 0; i < n && p->nrows < IKS_PANEL_MAX_ROWS; i++) {
        const iks_uniform_info *u = &info[i];
        iks_panel_row *row = &p->rows[p->nrows++];
        memset(row, 0, sizeof *row);
        snprintf(row->name, sizeof row->name, "%s", u->name ? u->name : "?");
        snprintf(row->glsl_type, sizeof row->glsl_type, "%s", u->glsl_type ? u->glsl_type : "");
        row->type = u->type;
        row->n = u->n < 1 ? 1 : u->n > 4 ? 4 : u->n;
        row->active = u->active;
        row->color = u->color;
        row->ranged = u->has_range && u->max > u->min;
        row->min = u->min, row->max = u->max, row->step = u->step > 0 ? u->step : 0;
        if (row->color && !row->ranged) row->ranged = true, row->min = 0, row->max = 1, row->step = 0;
        memcpy(row->v, u->value, sizeof row->v);
        memcpy(row->initial, u->initial, sizeof row->initial);
        for (int j = 0; j < nold; j++)
            if (old[j].touched && strcmp(old[j].name, row->name) == 0 && strcmp(old[j].glsl_type, row->glsl_type) == 0) {
                /* the user's value, on the new range and step */
                for (int c = 0; c < row->n; c++) row->v[c] = snap(row, old[j].v[c]);
                row->touched = true;
                break;
            }
    }
    free(old);
    p->captured = false;
    p->drag_row = p->drag_comp = -1;
    if (p->fw > 0) iks_panel_layout(p, p->fw, p->fh, p->scale);
}

/* ---- layout and hit-testing -------------------------------------------------------------------- */

void iks_panel_layout(iks_panel *p, int fw, int fh, float scale)
{
    float s = scale > 0 ? scale : 1;
    p->fw = fw, p->fh = fh, p->scale = s;
    p->pad = 4 * s;
    p->row_h = 14 * s;
    p->title_h = 14 * s;
    p->label_w = 78 * s;
    p->reset_w = 12 * s;
    float w = fminf(300 * s, (float)fw - 16 * s);
    if (w < 0) w = 0;
    /* as many rows as fit below the title, one line kept for "+N more" when some do not */
    float room = (float)fh - 16 * s - p->title_h - 2 * p->pad;
    int fit = room > 0 ? (int)(room / p->row_h) : 0;
    p->visible = p->nrows <= fit ? p->nrows : fit > 0 ? fit - 1 : 0;
    bool cut = p->visible < p->nrows || p->more > 0;
    float h = p->title_h + (float)(p->visible + (cut ? 1 : 0)) * p->row_h + 2 * p->pad;
    p->box = (iks_panel_box){ (float)fw - w - 8 * s, (float)fh - 8 * s - h, w, h };
}

iks_panel_box iks_panel_row_box(const iks_panel *p, int r)
{
    float top = p->box.y + p->box.h - p->pad - p->title_h - (float)r * p->row_h;
    return (iks_panel_box){ p->box.x + p->pad, top - p->row_h, p->box.w - 2 * p->pad, p->row_h };
}

iks_panel_box iks_panel_control_box(const iks_panel *p, int r, int c)
{
    iks_panel_box b = iks_panel_row_box(p, r);
    int n = p->rows[r].n;
    float gap = 3 * p->scale;
    float x0 = b.x + p->label_w, w = b.w - p->label_w - p->reset_w - gap;
    float cw = (w - gap * (float)(n - 1)) / (float)n;
    return (iks_panel_box){ x0 + (float)c * (cw + gap), b.y + p->scale, cw, b.h - 2 * p->scale };
}

iks_panel_box iks_panel_reset_box(const iks_panel *p, int r)
{
    iks_panel_box b = iks_panel_row_box(p, r);
    return (iks_panel_box){ b.x + b.w - p->reset_w, b.y + p->scale, p->reset_w, b.h - 2 * p->scale };
}

static bool inside(iks_panel_box b, double x, double y)
{
    return x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h;
}

bool iks_panel_contains(const iks_panel *p, double x, double y)
{
    return p->shown && p->fw > 0 && inside(p->box, x, y);
}

/* ---- the mouse --------------------------------------------------------------------------------- */

/* where x lies along a control: its fraction of the box's width */
static double along(iks_panel_box b, double x) { return b.w > 0 ? (x - b.x) / b.w : 0; }

bool iks_panel_press(iks_panel *p, double x, double y, bool fine, int *changed)
{
    *changed = -1;
    if (!iks_panel_contains(p, x, y)) return false;
    p->captured = true;
    p->drag_row = p->drag_comp = -1;
    for (int r = 0; r < p->visible; r++) {
        iks_panel_box rb = iks_panel_row_box(p, r);
        if (y < rb.y || y >= rb.y + rb.h) continue;
        iks_panel_row *row = &p->rows[r];
        if (!row->active) return true; /* nothing reads it: a change would show nothing */
        iks_panel_box reset = iks_panel_reset_box(p, r);
        if (x >= reset.x && x < reset.x + reset.w) {
            if (iks_panel_reset(p, r)) *changed = r;
            return true;
        }
        for (int c = 0; c < row->n; c++) {
            iks_panel_box cb = iks_panel_control_box(p, r, c);
            if (x < cb.x || x >= cb.x + cb.w) continue;
            double before = row->v[c];
            if (row->type == IKS_UNIFORM_BOOL) iks_panel_set_value(p, r, c, row->v[c] != 0 ? 0 : 1);
            else {
                /* a slider jumps to the pointer; with the fine modifier it stays and moves by tenths */
                if (row->ranged && !fine) iks_panel_set_fraction(p, r, c, along(cb, x));
                p->drag_row = r, p->drag_comp = c;
                p->anchor_x = x, p->anchor_v = row->v[c], p->anchor_fine = fine;
            }
            if (row->v[c] != before) *changed = r;
            return true;
        }
        return true;
    }
    return true;
}

int iks_panel_move(iks_panel *p, double x, bool fine)
{
    if (!p->captured || p->drag_row < 0 || p->drag_row >= p->nrows) return -1;
    int r = p->drag_row, c = p->drag_comp;
    iks_panel_row *row = &p->rows[r];
    if (fine != p->anchor_fine) /* the modifier went down or up mid-drag: go on from here */
        p->anchor_x = x, p->anchor_v = row->v[c], p->anchor_fine = fine;
    double before = row->v[c], dx = x - p->anchor_x;
    iks_panel_box cb = iks_panel_control_box(p, r, c);
    if (row->ranged) {
        if (!fine) iks_panel_set_fraction(p, r, c, along(cb, x));
        else iks_panel_set_value(p, r, c, p->anchor_v + dx / (cb.w > 0 ? cb.w : 1) * (row->max - row->min) * FINE);
    } else {
        /* a number field: relative to the value's size (1% of it a pixel, at least 0.001; a whole number
         * at least a tenth a pixel), so that 2 and 2000 are both draggable */
        double mag = fabs(p->anchor_v);
        double rate = row->type == IKS_UNIFORM_FLOAT ? 0.01 * fmax(mag, 0.1) : fmax(0.1, 0.01 * mag);
        if (fine) rate *= FINE;
        iks_panel_set_value(p, r, c, p->anchor_v + dx * rate);
    }
    return row->v[c] != before ? r : -1;
}

bool iks_panel_release(iks_panel *p)
{
    bool was = p->captured;
    p->captured = false;
    p->drag_row = p->drag_comp = -1;
    return was;
}

/* ---- text -------------------------------------------------------------------------------------- */


void iks_panel_setting(const iks_panel_row *row, char *out, size_t cap)
{
    size_t k = 0;
    int m = snprintf(out, cap, "%s=", row->name);
    if (m < 0 || (size_t)m >= cap) return;
    k = (size_t)m;
    for (int c = 0; c < row->n; c++) {
        char v[32];
        iks_uniform_text(row->type, row->v[c], v, sizeof v);
        m = snprintf(out + k, cap - k, "%s%s", c ? "," : "", v);
        if (m < 0 || (size_t)m >= cap - k) return;
        k += (size_t)m;
    }
}

void iks_panel_set_line(const iks_panel *p, char *out, size_t cap)
{
    if (!cap) return;
    out[0] = '\0';
    size_t k = 0;
    for (int r = 0; r < p->nrows; r++) {
        if (!p->rows[r].active) continue;
        char s[512];
        iks_panel_setting(&p->rows[r], s, sizeof s);
        int m = snprintf(out + k, cap - k, "%s--set %s", k ? " " : "", s);
        if (m < 0 || (size_t)m >= cap - k) {
            out[k] = '\0'; /* whole settings only */
            return;
        }
        k += (size_t)m;
    }
}

/* ---- drawing ----------------------------------------------------------------------------------- */

typedef struct {
    iks_hud_rect *r;
    int nr, maxr;
    iks_hud_label *l;
    int nl, maxl;
    int fh;
} list;

/* a box of ours (y up) as the HUD's rectangle (y down) */
static void rect(list *L, iks_panel_box b, unsigned char r, unsigned char g, unsigned char bl, unsigned char a)
{
    if (L->nr >= L->maxr || b.w <= 0 || b.h <= 0) return;
    L->r[L->nr++] = (iks_hud_rect){ b.x, (float)L->fh - (b.y + b.h), b.w, b.h, { r, g, bl, a } };
}

/* text of at most chars characters, its top-left at x and the top of b (y up) with a margin */
static void label(list *L, float x, iks_panel_box b, float s, const char *text, int chars, unsigned char grey)
{
    if (L->nl >= L->maxl || chars <= 0) return;
    iks_hud_label *l = &L->l[L->nl++];
    *l = (iks_hud_label){ x, (float)L->fh - (b.y + b.h) + 3 * s, { 0 }, { grey, grey, grey, 255 } };
    int n = chars < (int)sizeof l->text - 1 ? chars : (int)sizeof l->text - 1;
    snprintf(l->text, sizeof l->text, "%.*s", n, text);
}

void iks_panel_draw_list(const iks_panel *p, iks_hud_rect *rects, int max_rects, int *nrects, iks_hud_label *labels,
                         int max_labels, int *nlabels)
{
    list L = { rects, 0, max_rects, labels, 0, max_labels, p->fh };
    *nrects = *nlabels = 0;
    if (!p->shown || p->fw <= 0 || p->box.w <= 0) return;
    float s = p->scale, cw = 6 * s; /* a character, about */
    rect(&L, p->box, 0, 0, 0, 180);
    iks_panel_box title = { p->box.x + p->pad, p->box.y + p->box.h - p->pad - p->title_h, p->box.w - 2 * p->pad, p->title_h };
    const char *head = p->nrows ? "parameters: drag; Shift fine; r resets" : "no parameters: the toy declares no uniforms";
    label(&L, title.x, title, s, head, (int)(title.w / cw), 200);
    for (int r = 0; r < p->visible; r++) {
        const iks_panel_row *row = &p->rows[r];
        iks_panel_box rb = iks_panel_row_box(p, r);
        unsigned char ink = row->active ? 235 : 120;
        float name_w = p->label_w - (row->color ? 14 * s : 0);
        label(&L, rb.x, rb, s, row->name, (int)(name_w / cw) - 1, ink);
        if (row->color) {
            iks_panel_box sw = { rb.x + p->label_w - 14 * s, rb.y + 2 * s, 10 * s, rb.h - 4 * s };
            unsigned char c3[3];
            for (int c = 0; c < 3; c++) c3[c] = (unsigned char)lround(255.0 * fmin(fmax(c < row->n ? row->v[c] : 0, 0), 1));
            rect(&L, sw, c3[0], c3[1], c3[2], 255);
        }
        for (int c = 0; c < row->n; c++) {
            iks_panel_box cb = iks_panel_control_box(p, r, c);
            char v[32];
            iks_uniform_text(row->type, row->v[c], v, sizeof v);
            if (row->type == IKS_UNIFORM_BOOL) {
                bool on = row->v[c] != 0;
                rect(&L, cb, on ? 50 : 55, on ? 140 : 55, on ? 70 : 55, 230);
                snprintf(v, sizeof v, "%s", on ? "on" : "off");
            } else if (row->ranged) {
                rect(&L, cb, 55, 55, 55, 230);
                iks_panel_box fill = cb;
                fill.w = (float)(cb.w * iks_panel_fraction(row, c));
                rect(&L, fill, 60, 110, 190, 255);
            } else {
                /* a number field: a frame and the number, dragged sideways */
                rect(&L, cb, 110, 110, 110, 230);
                rect(&L, (iks_panel_box){ cb.x + s, cb.y + s, cb.w - 2 * s, cb.h - 2 * s }, 30, 30, 30, 240);
            }
            label(&L, cb.x + 2 * s, rb, s, v, (int)((cb.w - 2 * s) / cw), ink);
        }
        iks_panel_box rs = iks_panel_reset_box(p, r);
        rect(&L, rs, row->touched ? 150 : 70, 60, 60, 230);
        label(&L, rs.x + 3 * s, rb, s, "r", 1, ink);
    }
    if (p->visible < p->nrows || p->more > 0) {
        char more[48];
        snprintf(more, sizeof more, "+%d more (a bigger window shows them)", p->nrows - p->visible + p->more);
        iks_panel_box rb = iks_panel_row_box(p, p->visible);
        label(&L, rb.x, rb, s, more, (int)(rb.w / cw), 200);
    }
    *nrects = L.nr;
    *nlabels = L.nl;
}
