/* cmd_view.c: `ikshade view`: parses the arguments, opens a window and runs iks_live_run on it
 * (src/engine/live.c does the work); prints what the loop reports: errors compiler-style, reloads
 * under --log, screenshots. */
#include "cli/cli.h"
#include "base/strutil.h"
#include "cli/session.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    int w, h;
    iks_shared_opts s; /* -I --set --channelN --missing-media --glsl --time */
    bool paused, no_vsync, no_hud, log, mute;
    long frames; /* 0: until closed */
    const char *record;
    double record_fps;
    const char *record_input;
    const char *webcam;
    const char *mic;
    const char *shader;
    char demo[4096]; /* where a demo named in place of a path is */
    char title[1024]; /* the window's first title: the toy's name shown on one line (iks_shown_text) */
    iks_args args;
} vopts;

static const iks_opt OPTIONS[] = {
    IKS_OPT_SIZE_ROW(vopts, w, h, "--size", NULL, "WxH",
      "window size (default " IKS_XSTR(IKS_DEFAULT_WIDTH) "x" IKS_XSTR(IKS_DEFAULT_HEIGHT) ")", "size",
      .expect = "expected WxH with whole numbers from 1, e.g. 1280x720"),
    IKS_OPT_TABLE_ROW(vopts, s, IKS_SHARED_OPTS),
    IKS_OPT_FLAG_ROW(vopts, paused, "--paused", NULL, NULL, "start paused", "paused", .flags = 0),
    IKS_OPT_FLAG_ROW(vopts, no_vsync, "--no-vsync", NULL, NULL,
      "draw as fast as possible (vsync: once per refresh, at most 240 fps)",
      "no_vsync", .flags = 0),
    IKS_OPT_FLAG_ROW(vopts, no_hud, "--no-hud", NULL, NULL, "start with the HUD hidden", "hide_hud", .flags = 0),
    IKS_OPT_FLAG_ROW(vopts, mute, "--mute", NULL, NULL,
      "no sound (music channels play through the default output, kept at the\n"
      "shader's time)", "mute", .flags = 0),
    IKS_OPT_LONG_ROW(vopts, frames, "--frames", NULL, "N", "quit after N frames (for scripts)", "frames",
      .flags = IKS_OPT_NONZERO, .expect = "expected a whole number", .need = "a count"),
    IKS_OPT_FLAG_ROW(vopts, log, "--log", NULL, NULL,
      "print each reload: compile time and latency from the save to the screen",
      "measure", .flags = 0),
    IKS_OPT_STRING_ROW(vopts, record, "--record", NULL, "OUT",
      "record what the window shows (no HUD), one frame per displayed frame, as\n"
      "render writes it: out/%05d.png or a video (.mp4 .webm .mkv .gif .webp); V\npauses;"
      " a video's sound track is the toy's microphone", "record",
      .complete = "file", .need = "an output: out/%05d.png or a video name"),
    IKS_OPT_DOUBLE_ROW(vopts, record_fps, "--record-fps", NULL, "F",
      "a recorded video's frame rate (default 60)", "record_fps",
      .flags = IKS_OPT_NONZERO, .expect = "expected a number", .need = "frames per second"),
    IKS_OPT_STRING_ROW(vopts, record_input, "--record-input", NULL, "FILE",
      "write the session's inputs (mouse and keys each frame, window size,\n"
      "--set, the panel's changes) for `ikshade render SHADER --input FILE`,\nwhich replays them at any size/fps;"
      " microphones are recorded beside it\n(FILE's name-micN.wav)",
      "record_input", .complete = "file", .need = "a file for the session's inputs"),
    IKS_OPT_STRING_ROW(vopts, webcam, "--webcam", NULL, "DEVICE",
      "the camera of webcam channels that name none (a JSON's, a bare 'webcam'):\n"
      "/dev/videoN, or 'test' (a test pattern); default: the first camera", "webcam",
      .need = "a camera: /dev/videoN or test"),
    IKS_OPT_STRING_ROW(vopts, mic, "--mic", NULL, "DEVICE",
      "the capture source (`ikshade devices`) of the toy's microphone channels\n"
      "that name none (a JSON's, a directory's); mic:DEVICE names one per channel", "mic",
      .need = "a capture source's name (ikshade devices lists them)"),
    { IKS_OPT_END, .flags = 0 },
};

const iks_help HELP_VIEW = {
    .usage = "usage: ikshade view [SHADER|DEMO] [options]\n",
    .about = "Runs a Shadertoy-style shader, a shadertoy.com JSON export, or a directory toy in a window\n"
             "(default: the IK limb demo; drag the target with the left mouse button). The shader and every\n"
             "file it includes are reloaded on each save; a broken edit keeps the last good picture and shows\n"
             "the error until a good edit replaces it.\n",
    .options = OPTIONS,
    .after = "keys:\n"
             "  Space        pause / resume\n"
             "  R            restart time (back to T0, the frame count to 0)\n"
             "  Left/Right   one frame back / forward while paused (hold to scrub)\n"
             "  F or F11     fullscreen on / off\n"
             "  S            screenshot: ikshade-NNNN.png in the current directory (framebuffer size, no HUD)\n"
             "  H            HUD on / off (fps, frame time, the shader's time and frame, resolution, mouse, errors)\n"
             "  V            recording: pause / resume (--record), or start one into ikshade-NNNN.mp4;\n"
             "               REC and the frame count in the HUD. A resize ends a video (V starts NAME-2.mp4)\n"
             "  P            the parameter panel on / off: a row per uniform of the shader (top right)\n"
             "  C            print the parameters' values as --set options (and copy them to the clipboard)\n"
             "  Backspace    every parameter back to its default\n"
             "  Esc or Q     quit\n"
             "When the shader reads the keyboard (a keyboard channel), keys go to it, and the viewer's own\n"
             "keys above need Ctrl (Ctrl+Space, Ctrl+S, ...); Esc and F11 always work.\n"
             "\n"
             "The mouse follows shadertoy.com: xy is the pointer while the left button is held, zw where it was\n"
             "pressed; z > 0 while held, w > 0 only on the frame of the press; both negative after release.\n"
             "\n"
             "The panel (P): drag a slider (a declared range) or a number field (sideways; relative to the\n"
             "value), click a toggle (bool); Shift or Ctrl for tenths of the step; the [r] at a row's end resets\n"
             "it. Presses on the panel never reach iMouse. A dragged value stays through live reloads while\n"
             "the uniform keeps its name and type; --record-input records every change for render --input.\n"
             "\n"
             "examples:\n"
             "  ikshade view                                  # the limb demo\n"
             "  ikshade view creature --set speed=0.8         # a demo by name: ikshade demos lists them\n"
             "  ikshade view feedback --record take.mp4       # a shadertoy.com JSON, recorded as you watch\n",
    .operand = "toy",
};

/* Fills o from argv; -1 when valid, else the exit code after printing the one-line error. The caller
 * frees o->args whatever this returns. The library checks the values (iks_window_check, iks_live_check). */
static int parse_args(int argc, char **argv, vopts *o, iks_live_desc *d, iks_window_desc *wd);

/* ---- what the live loop reports ---------------------------------------------------------------- */

typedef struct {
    const vopts *o;
    bool failing;    /* the last load failed: the next good one is "fixed" */
    bool reported;   /* an error was printed (so a failed start is not printed twice) */
} view_state;

static void on_error(void *user, iks_code code, const char *message)
{
    view_state *v = user;
    /* a compile error stays the compiler's lines; anything else speaks of view's flags */
    char *words = code == IKS_E_COMPILE ? NULL : iks_opts_words(OPTIONS, message);
    iks_print_error("view", code, words ? words : message);
    free(words);
    v->failing = v->reported = true;
}

static void on_reload(void *user, const iks_reload_info *r)
{
    view_state *v = user;
    if (r->ok && v->failing) iks_say(stderr, "ikshade view: %s: fixed", r->path);
    if (r->ok) v->failing = false;
    if (!v->o->log) return;
    if (!r->ok)
        iks_say(stdout, "reload %s: error, kept the last good program (compile %.1f ms)", r->path, r->compile_ms);
    else {
        double compile = r->compile_ms + r->first_draw_ms;
        iks_say(stdout, "reload %s: ok, compile %.1f ms (link %.1f + first draw %.1f), save to screen %.1f ms, "
               "minus compile %.1f ms (gl objects %d, rss %ld kB)",
               r->path, compile, r->compile_ms, r->first_draw_ms, r->latency_ms, r->latency_ms - compile,
               r->gl_objects, r->rss_kb);
    }
    fflush(stdout);
}

static void on_record(void *user, const char *path, long frames, const char *message)
{
    (void)user;
    if (message) iks_warn("view", "recording %s: %s", path, message);
    else {
        iks_say(stdout, "recorded: %s (%ld frame%s)", path, frames, frames == 1 ? "" : "s");
        fflush(stdout);
    }
}

static void on_screenshot(void *user, const char *path, int w, int h, const char *message)
{
    (void)user;
    if (!path) {
        iks_warn("view", "%s", message);
        return;
    }
    iks_say(stdout, "screenshot: %s (%dx%d)", path, w, h);
    fflush(stdout);
}

/* C in the panel: the values as this command line's options, on a line of their own to copy into a
 * render, each component as the panel and a recording write it (iks_uniform_text) */
static void on_values(void *user, const iks_value *v, int n)
{
    (void)user;
    if (n == 0) printf("parameters: none (the toy declares no uniforms of its own)\n");
    else fputs("parameters:", stdout);
    for (int i = 0; i < n; i++) {
        printf(" --set %s=", v[i].name);
        for (int c = 0; c < v[i].n; c++) {
            char t[32];
            iks_uniform_text(v[i].type, v[i].v[c], t, sizeof t);
            printf("%s%s", c ? "," : "", t);
        }
    }
    if (n) putchar('\n');
    fflush(stdout);
}

static bool should_stop(void *user)
{
    (void)user;
    return iks_signals_stopped() != 0;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static int parse_args(int argc, char **argv, vopts *o, iks_live_desc *d, iks_window_desc *wd)
{
    memset(o, 0, sizeof *o);
    int rc = iks_opts_parse("view", OPTIONS, argc, argv, o, &o->args);
    if (rc >= 0 || (rc = iks_shared_parse(&o->s, &o->args)) >= 0) return rc;
    if (o->args.npos > 1) return iks_usage("view", "more than one shader given ('%s' and '%s')", o->args.pos[0], o->args.pos[1]);
    o->shader = o->args.npos ? iks_cli_toy_path(o->args.pos[0], o->demo, sizeof o->demo) : NULL;
    iks_shown_text(o->title, sizeof o->title, o->shader ? base_name(o->shader) : "limb.frag", true);
    *wd = (iks_window_desc){ IKS_DESC_SIZE(iks_window_desc), .width = o->w, .height = o->h, .title = o->title,
                             .no_vsync = o->no_vsync };
    *d = (iks_live_desc){ IKS_DESC_SIZE(iks_live_desc), .toy = iks_shared_toy(&o->s, o->shader), .time0 = o->s.t0, .paused = o->paused,
                          .hide_hud = o->no_hud, .mute = o->mute, .no_vsync_cap = o->no_vsync, .frames = o->frames,
                          .measure = o->log, .record = o->record, .record_fps = o->record_fps,
                          .record_input = o->record_input, .webcam = o->webcam, .mic = o->mic };
    if (iks_window_check(wd) != IKS_OK || iks_live_check(d) != IKS_OK) return iks_opts_error(&o->args);
    return -1;
}

static int view(const vopts *o, iks_live_desc *d, const iks_window_desc *wd)
{
    if (iks_cli_toy_missing("view", o->shader)) return EXIT_FAIL;
    if (o->shader && access(o->shader, R_OK) != 0) return iks_fail("view", "%s: %s", o->shader, strerror(errno));
    /* Without a display there is no window to open, with or without GLFW: said before GLFW is loaded,
     * so that a machine without a display (and often without libglfw3 either) is pointed to `ikshade
     * render`, not told to install a library it cannot use. GLFW would word an empty DISPLAY as "Failed
     * to open display )": say what is wrong instead. */
    const char *dpy = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
    if (!(dpy && *dpy) && !(wl && *wl))
        return iks_fail("view", "no display to open a window on (%s); for headless output use `ikshade render`",
                        dpy ? "DISPLAY is set but empty" : "neither DISPLAY nor WAYLAND_DISPLAY is set");
    iks_window *win = NULL;
    if (iks_window_open(wd, &win) != IKS_OK) {
        const char *m;
        if (iks_last_error(&m) == IKS_E_NO_DISPLAY)
            return iks_fail("view", "no display to open a window on (%s); for headless output use `ikshade "
                            "render`", m);
        return iks_opts_error(&o->args);
    }
    iks_cli_toy_note("view", o->args.npos ? o->args.pos[0] : NULL, o->shader);
    iks_cli_log log = { "view", false, OPTIONS };
    iks_engine *e = iks_cli_engine(&log, win);
    if (!e) {
        iks_window_close(win);
        return EXIT_FAIL;
    }
    view_state vs = { .o = o };
    d->on_error = on_error;
    d->on_reload = on_reload;
    d->on_values = on_values;
    d->on_screenshot = on_screenshot;
    d->on_record = on_record;
    d->should_stop = should_stop;
    d->user = &vs;
    iks_code c = iks_live_run(e, d); /* Ctrl-C, SIGTERM, SIGHUP end it through should_stop: signals.c */
    int rc = EXIT_OK;
    if (c != IKS_OK) rc = vs.reported ? iks_exit_status(c) : iks_opts_error(&o->args);
    iks_engine_destroy(e);
    iks_window_close(win);
    return rc;
}

int cmd_view(int argc, char **argv)
{
    vopts o;
    iks_live_desc d;
    iks_window_desc wd;
    int rc = parse_args(argc, argv, &o, &d, &wd);
    if (rc < 0) rc = view(&o, &d, &wd);
    iks_shared_free(&o.s);
    iks_args_free(&o.args, &o);
    return rc;
}

int iks_view_parse_only(int argc, char **argv)
{
    vopts o;
    iks_live_desc d;
    iks_window_desc wd;
    int rc = parse_args(argc, argv, &o, &d, &wd);
    iks_shared_free(&o.s);
    iks_args_free(&o.args, &o);
    return rc;
}
