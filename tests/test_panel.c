/* test_panel.c: the viewer's parameter panel without GL or a window (src/engine/panel.c): rows from a
 * toy's uniform list, the layout, what a press and a drag do to each kind of control (slider, number
 * field, toggle, reset), fine steps, snapping, values kept across a reload, the --set line, the draw
 * list; and the input log's `u` lines (src/engine/inputlog.c) as render --input reads them. */
#include "check.h"
#include "engine/engine.h"
#include "engine/panel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static iks_uniform_info info(const char *name, const char *glsl, iks_uniform_type type, int n, double v0)
{
    iks_uniform_info u = { .name = name, .glsl_type = glsl, .type = type, .n = n, .active = true };
    for (int c = 0; c < n; c++) u.value[c] = u.initial[c] = v0;
    return u;
}

/* the middle of row r's component c, in pixels (y up), at fraction f of its width */
static void at(const iks_panel *p, int r, int c, double f, double *x, double *y)
{
    iks_panel_box b = iks_panel_control_box(p, r, c);
    *x = b.x + f * b.w;
    *y = b.y + b.h / 2;
}

static bool near(double a, double b, double tol) { return fabs(a - b) <= tol; }

static void rows_and_drags(void)
{
    iks_uniform_info u[6];
    u[0] = info("r1", "float", IKS_UNIFORM_FLOAT, 1, 0.55);
    u[0].has_range = true, u[0].min = 0.05, u[0].max = 2.0, u[0].step = 0.01;
    u[1] = info("gain", "float", IKS_UNIFORM_FLOAT, 1, 0.5);   /* no range: a number field */
    u[2] = info("count", "int", IKS_UNIFORM_INT, 1, 3);
    u[2].has_range = true, u[2].min = 0, u[2].max = 10;
    u[3] = info("on", "bool", IKS_UNIFORM_BOOL, 1, 0);
    u[4] = info("tint", "vec3", IKS_UNIFORM_FLOAT, 3, 0.25);   /* a colour: sliders 0..1 */
    u[4].color = true;
    u[5] = info("unused", "float", IKS_UNIFORM_FLOAT, 1, 1);
    u[5].active = false;

    iks_panel p;
    iks_panel_init(&p);
    iks_panel_sync(&p, u, 6);
    CHECK(p.nrows == 6, "%d rows", p.nrows);
    CHECK(p.rows[0].ranged && !p.rows[1].ranged && p.rows[4].ranged && p.rows[4].max == 1, "kinds: %d %d %d",
          p.rows[0].ranged, p.rows[1].ranged, p.rows[4].ranged);
    int changed;
    /* hidden: a press is the toy's */
    iks_panel_layout(&p, 640, 360, 1);
    CHECK(!iks_panel_press(&p, 600, 340, false, &changed), "a hidden panel took a press");
    p.shown = true;
    iks_panel_layout(&p, 640, 360, 1);
    CHECK(p.box.x + p.box.w <= 640 && p.box.y + p.box.h <= 360 && p.box.x > 320, "top right: %g %g %g %g", p.box.x,
          p.box.y, p.box.w, p.box.h);
    CHECK(p.visible == 6, "%d visible", p.visible);
    CHECK(!iks_panel_press(&p, 10, 10, false, &changed), "a press beside the panel is the toy's");
    CHECK(!p.captured, "captured by a press beside it");

    /* a slider jumps to the pointer: half of 0.05 .. 2 on the step of 0.01 */
    double x, y;
    at(&p, 0, 0, 0.5, &x, &y);
    CHECK(iks_panel_press(&p, x, y, false, &changed), "the slider's press not taken");
    CHECK(changed == 0, "changed %d", changed);
    CHECK(near(p.rows[0].v[0], 1.025, 0.0051) && near(fmod(p.rows[0].v[0] - 0.05 + 1e-6, 0.01), 0, 1e-5), "r1 at the middle, on a step: %.9g", p.rows[0].v[0]);
    CHECK(p.rows[0].v[0] == (double)(float)p.rows[0].v[0], "not a float's value: %.17g", p.rows[0].v[0]);
    /* dragged to the end and past it: the maximum */
    at(&p, 0, 0, 1.5, &x, &y);
    CHECK(iks_panel_move(&p, x, false) == 0, "the drag changed nothing");
    CHECK(near(p.rows[0].v[0], 2.0, 1e-6), "r1 past the end: %.9g", p.rows[0].v[0]);
    CHECK(iks_panel_release(&p), "the release not the panel's");
    CHECK(!iks_panel_release(&p), "a second release the panel's");
    CHECK(p.rows[0].touched, "a dragged row not marked");

    /* fine: no jump at the press, a tenth of the range per width afterwards */
    at(&p, 0, 0, 0.5, &x, &y);
    CHECK(iks_panel_press(&p, x, y, true, &changed) && changed == -1, "a fine press jumped (%d)", changed);
    iks_panel_box cb = iks_panel_control_box(&p, 0, 0);
    CHECK(iks_panel_move(&p, x - cb.w, true) == 0, "the fine drag changed nothing");
    CHECK(near(p.rows[0].v[0], 2.0 - 0.195, 0.006), "fine: a tenth of 1.95 less: %.9g", p.rows[0].v[0]);
    iks_panel_release(&p);

    /* a number field: relative to the value, 1% of it a pixel; a tenth of that with fine */
    at(&p, 1, 0, 0.5, &x, &y);
    CHECK(iks_panel_press(&p, x, y, false, &changed) && changed == -1, "a number field jumped at the press");
    CHECK(iks_panel_move(&p, x + 60, false) == 1, "the number field did not change");
    CHECK(near(p.rows[1].v[0], 0.5 + 60 * 0.005, 1e-6), "gain +60 px: %.9g", p.rows[1].v[0]);
    iks_panel_release(&p);
    double g = p.rows[1].v[0];
    iks_panel_press(&p, x, y, true, &changed);
    iks_panel_move(&p, x + 60, true);
    CHECK(near(p.rows[1].v[0], g + 60 * 0.01 * g * 0.1, 1e-6), "gain fine +60 px: %.9g", p.rows[1].v[0]);
    iks_panel_release(&p);

    /* an int slider snaps to whole numbers */
    at(&p, 2, 0, 0.42, &x, &y);
    iks_panel_press(&p, x, y, false, &changed);
    CHECK(changed == 2 && p.rows[2].v[0] == 4, "count at 0.42 of 0..10: %g (changed %d)", p.rows[2].v[0], changed);
    at(&p, 2, 0, 0.68, &x, &y);
    iks_panel_move(&p, x, false);
    CHECK(p.rows[2].v[0] == 7, "count at 0.68: %g", p.rows[2].v[0]);
    iks_panel_release(&p);

    /* a toggle flips on the press, and a move does nothing */
    at(&p, 3, 0, 0.5, &x, &y);
    iks_panel_press(&p, x, y, false, &changed);
    CHECK(changed == 3 && p.rows[3].v[0] == 1, "the toggle: %g", p.rows[3].v[0]);
    CHECK(iks_panel_move(&p, x + 50, false) == -1, "a toggle dragged");
    iks_panel_release(&p);

    /* a colour's components each a slider of 0..1 */
    at(&p, 4, 2, 1.0, &x, &y);
    iks_panel_press(&p, x - 0.01, y, false, &changed);
    CHECK(changed == 4 && near(p.rows[4].v[2], 1.0, 0.01) && p.rows[4].v[0] == 0.25, "tint: %g %g %g",
          p.rows[4].v[0], p.rows[4].v[1], p.rows[4].v[2]);
    iks_panel_release(&p);

    /* an inactive row: taken (never the toy's) but not changed */
    at(&p, 5, 0, 0.9, &x, &y);
    CHECK(iks_panel_press(&p, x, y, false, &changed) && changed == -1 && p.rows[5].v[0] == 1, "inactive row changed");
    iks_panel_release(&p);

    /* the --set line: active rows only, floats as short as they read back */
    char line[1024];
    iks_panel_set_line(&p, line, sizeof line);
    CHECK(strstr(line, "--set r1=") == line && strstr(line, " --set count=7") && strstr(line, " --set on=true") &&
          strstr(line, " --set tint=0.25,0.25,") && !strstr(line, "unused"), "%s", line);
    char set[128];
    p.rows[1].v[0] = (double)(float)0.55;
    iks_panel_setting(&p.rows[1], set, sizeof set);
    CHECK(strcmp(set, "gain=0.55") == 0, "the float 0.55 written as %s", set);

    /* reset: the row's r button, then every row */
    iks_panel_box rb = iks_panel_reset_box(&p, 2);
    iks_panel_press(&p, rb.x + rb.w / 2, rb.y + rb.h / 2, false, &changed);
    CHECK(changed == 2 && p.rows[2].v[0] == 3 && !p.rows[2].touched, "reset: %g", p.rows[2].v[0]);
    iks_panel_release(&p);
    int which[IKS_PANEL_MAX_ROWS];
    int n = iks_panel_reset_all(&p, which);
    CHECK(n == 4 && p.rows[0].v[0] == 0.55 && p.rows[3].v[0] == 0 && p.rows[4].v[2] == 0.25, "reset all: %d", n);
    CHECK(iks_panel_reset_all(&p, which) == 0, "a second reset all changed something");

    /* the draw list: the panel's background first, in the HUD's coordinates (y down) */
    iks_hud_rect rects[256];
    iks_hud_label labels[128];
    int nr, nl;
    iks_panel_draw_list(&p, rects, 256, &nr, labels, 128, &nl);
    CHECK(nr > 6 && nl > 6, "%d rects %d labels", nr, nl);
    CHECK(rects[0].x == p.box.x && near(rects[0].y, 360 - (p.box.y + p.box.h), 1e-3), "background at %g %g", rects[0].x,
          rects[0].y);
    CHECK(!strcmp(labels[1].text, "r1"), "the first row's name: %s", labels[1].text);
    p.shown = false;
    iks_panel_draw_list(&p, rects, 256, &nr, labels, 128, &nl);
    CHECK(nr == 0 && nl == 0, "a hidden panel drew %d %d", nr, nl);
}

static void reload_keeps_values(void)
{
    iks_uniform_info u[3];
    u[0] = info("r1", "float", IKS_UNIFORM_FLOAT, 1, 0.55);
    u[1] = info("n", "int", IKS_UNIFORM_INT, 1, 2);
    u[2] = info("gone", "float", IKS_UNIFORM_FLOAT, 1, 1);
    iks_panel p;
    iks_panel_init(&p);
    iks_panel_sync(&p, u, 3);
    iks_panel_set_value(&p, 0, 0, 0.9);
    iks_panel_set_value(&p, 1, 0, 5);
    iks_panel_set_value(&p, 2, 0, 4);
    CHECK(p.rows[0].touched && p.rows[1].touched, "set values not marked");
    /* the file saved again: r1 has a new default, n became a float, gone is gone, a new one appeared */
    iks_uniform_info w[3];
    w[0] = info("new", "float", IKS_UNIFORM_FLOAT, 1, 7);
    w[1] = info("r1", "float", IKS_UNIFORM_FLOAT, 1, 0.6);
    w[2] = info("n", "float", IKS_UNIFORM_FLOAT, 1, 2.5);
    iks_panel_sync(&p, w, 3);
    CHECK(p.nrows == 3, "%d rows", p.nrows);
    CHECK(!strcmp(p.rows[1].name, "r1") && near(p.rows[1].v[0], 0.9, 1e-6) && p.rows[1].touched,
          "r1's dragged value lost: %g", p.rows[1].v[0]);
    CHECK(p.rows[1].initial[0] == 0.6, "reset goes to the old default: %g", p.rows[1].initial[0]);
    CHECK(p.rows[2].v[0] == 2.5 && !p.rows[2].touched, "a value kept across a change of type: %g", p.rows[2].v[0]);
    CHECK(p.rows[0].v[0] == 7 && !p.rows[0].touched, "the new one: %g", p.rows[0].v[0]);
    CHECK(iks_panel_reset(&p, 1) && p.rows[1].v[0] == 0.6, "reset to the new default: %g", p.rows[1].v[0]);
    /* untouched after the reset: the next reload follows the file's default */
    w[1].value[0] = w[1].initial[0] = 0.7;
    iks_panel_sync(&p, w, 3);
    CHECK(p.rows[1].v[0] == 0.7, "a reset row kept its value: %g", p.rows[1].v[0]);
    /* a kept value on a new range is clamped to it */
    iks_panel_set_value(&p, 1, 0, 1.5);
    w[1].has_range = true, w[1].min = 0, w[1].max = 1, w[1].step = 0.1;
    iks_panel_sync(&p, w, 3);
    CHECK(p.rows[1].v[0] == 1.0, "a kept value outside the new range: %g", p.rows[1].v[0]);
}

static void input_log_u_lines(void)
{
    const char *text = "ikshade-input 1\n"
                       "set r2=0.4\n"
                       "f 0 0 640 360 0 0 0 0\n"
                       "u 0.05 r1=0.9\n"
                       "f 0.1 0.1 640 360 0 0 0 0\n"
                       "u 0.1 on=true\n"
                       "u 0.25 tint=1,0.5,0\n"
                       "f 0.3 0.3 640 360 0 0 0 0\n";
    iks_input_log *l = NULL;
    CHECK(iks_input_log_parse("t", text, &l) == IKS_OK, "parse: %s", iks_last_error(NULL) ? "failed" : "");
    if (!l) return;
    CHECK(iks_input_log_param_count(l) == 3, "%ld u lines", iks_input_log_param_count(l));
    /* at 10 fps: frame 0 (t 0) none; frame 1 (t 0.1) the first two; frame 3 (t 0.3) the third */
    const iks_setting *s = NULL;
    CHECK(iks_input_log_params(l, 10, 0, 0, &s) == -1, "a change before its time");
    CHECK(iks_input_log_params(l, 10, 1, 0, &s) == 1 && !strcmp(s->name, "r1") && s->n == 1 && near(s->v[0], 0.9, 1e-12),
          "the first change at frame 1");
    CHECK(iks_input_log_params(l, 10, 1, 1, &s) == 2 && !strcmp(s->name, "on") && s->v[0] == 1, "the toggle at frame 1");
    CHECK(iks_input_log_params(l, 10, 1, 2, &s) == -1 && iks_input_log_params(l, 10, 2, 2, &s) == -1,
          "the third change before 0.25 s");
    CHECK(iks_input_log_params(l, 10, 3, 2, &s) == 3 && s->n == 3 && s->v[1] == 0.5, "the colour at frame 3");
    CHECK(iks_input_log_params(l, 10, 9, 3, &s) == -1, "past the end");
    uint64_t h = iks_input_log_hash(l);
    iks_input_log_free(l);
    /* the changes are part of the hash that checkpoints match */
    char *other = strdup(text);
    *strstr(other, "r1=0.9") = 'x';
    memcpy(strstr(other, "x1=0.9"), "r1=0.8", 6);
    CHECK(iks_input_log_parse("t", other, &l) == IKS_OK && iks_input_log_hash(l) != h, "the hash ignores u lines");
    iks_input_log_free(l);
    free(other);

    static const struct {
        const char *line, *msg;
    } bad[] = {
        { "u 0.2\n", "t:4: expected 'u T NAME=V[,V..]'" },
        { "u x r1=1\n", "t:4: expected 'u T NAME=V[,V..]'" },
        { "u 0.2 r1\n", "t:4: " },
        { "u 0.2 iTime=1\n", "t:4: " },
        { "u 0.2 r1=1e40\n", "t:4: " },
        { "u 0.05 r1=1\n", "t:4: time 0.05 goes back" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char t[256];
        snprintf(t, sizeof t, "ikshade-input 1\nf 0 0 640 360 0 0 0 0\nf 0.1 0.1 640 360 0 0 0 0\n%s", bad[i].line);
        l = NULL;
        iks_code c = iks_input_log_parse("t", t, &l);
        const char *m = NULL;
        iks_last_error(&m);
        CHECK(c == IKS_E_FORMAT && !l && m && strstr(m, bad[i].msg), "%s -> %s: %s", bad[i].line, cname(c), m ? m : "");
        iks_input_log_free(l);
    }
}

int main(void)
{
    rows_and_drags();
    reload_keeps_values();
    input_log_u_lines();
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
