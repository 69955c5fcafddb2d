/* cmd_view.c: `ikshade view`: parses the arguments, opens a window and runs iks_live_run on it
 * (src/engine/live.c does the work); prints what the loop reports: errors compiler-style, reloads
 * under --log, screenshots. */
#include "cli/cli.h"
#include "cli/session.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char HELP_VIEW[] =
    "usage: ikshade view [SHADER] [options]\n"
    "\n"
    "Runs a Shadertoy-style shader, a shadertoy.com JSON export, or a directory toy in a window\n"
    "(default: the IK limb demo; drag the target with the left mouse button). The shader and every\n"
    "file it includes are reloaded on each save; a broken edit keeps the last good picture and shows\n"
    "the error until a good edit replaces it.\n"
    "\n"
    "options:\n"
    "  --size WxH           window size (default 1280x720)\n"
    "  --set NAME=V[,V..]   set a uniform the shader declares (repeatable; kept across reloads)\n"
    "  --time T0            start at iTime = T0 seconds (default 0)\n"
    "  --paused             start paused\n"
    "  --no-vsync           draw as fast as possible (vsync: once per refresh, at most 240 fps)\n"
    "  --no-hud             start with the HUD hidden\n"
    "  --mute               no sound (music channels play through the default output, kept at iTime)\n"
    "  --frames N           quit after N frames (for scripts)\n"
    "  --log                print each reload: compile time and latency from the save to the screen\n"
    "  --record OUT         record what the window shows (no HUD), one frame per displayed frame, as\n"
    "                       render writes it: out/%05d.png or a video (.mp4 .webm .mkv .gif); V pauses\n"
    "  --record-fps F       a recorded video's frame rate (default 60)\n"
    "  --record-input FILE  write the session's inputs (mouse and keys each frame, window size, --set)\n"
    "                       for `ikshade render SHADER --input FILE`, which replays them at any size/fps\n"
    "  -I DIR               also look for #include files in DIR (repeatable)\n"
    "  --channelN SPEC      iChannelN (0-3) of a single file: FILE.png|FILE.jpg|cube:FILE.png|keyboard|black\n"
    "                       |FILE.bin (a shadertoy.com volume, a sampler3D)\n"
    "                       ,filter=nearest|linear|mipmap ,wrap=clamp|repeat ,vflip=0|1 ,srgb=0|1\n"
    "  --missing-media black  run a JSON whose textures are not on disk with black instead\n"
    "  --allow-media-outside  let a JSON or directory toy read media and #includes outside its own directory\n"
    "  --glsl auto|es|330   GLSL ES 3.00 (the site's) or 3.30 core; auto: ES for a JSON, 3.30 for a file\n"
    "  --no-es-check        no warnings for what shadertoy.com's GLSL ES 3.00 would reject\n"
    "\n"
    "keys:\n"
    "  Space        pause / resume\n"
    "  R            restart time (iTime = T0, iFrame = 0)\n"
    "  Left/Right   one frame back / forward while paused (hold to scrub)\n"
    "  F or F11     fullscreen on / off\n"
    "  S            screenshot: ikshade-NNNN.png in the current directory (framebuffer size, no HUD)\n"
    "  H            HUD on / off (fps, frame time, iTime, iFrame, resolution, mouse, errors)\n"
    "  V            recording: pause / resume (--record), or start one into ikshade-NNNN.mp4;\n"
    "               REC and the frame count in the HUD. A resize ends a video (V starts NAME-2.mp4)\n"
    "  Esc or Q     quit\n"
    "When the shader reads the keyboard (a keyboard channel), keys go to it, and the viewer's own\n"
    "keys above need Ctrl (Ctrl+Space, Ctrl+S, ...); Esc and F11 always work.\n"
    "\n"
    "iMouse follows shadertoy.com: xy is the pointer while the left button is held, zw where it was\n"
    "pressed; z > 0 while held, w > 0 only on the frame of the press; both negative after release.\n"
    "Without a display this exits with an error: use `ikshade render` for headless output.\n";

typedef struct {
    const char *shader;
    int w, h;
    iks_shared_opts s; /* -I --set --channelN --missing-media --glsl --time */
    bool paused, vsync, hud, log, mute;
    long frames; /* 0: until closed */
    const char *record;
    double record_fps;
    const char *record_input;
} vopts;

/* Fills o from argv; -1 when valid, else the exit code after printing the one-line error. The caller
 * frees o->s with iks_shared_free whatever this returns. */
static int parse_args(int argc, char **argv, vopts *o)
{
    memset(o, 0, sizeof *o);
    if (!iks_shared_init(&o->s, argc)) return iks_fail("view", "out of memory");
    o->w = 1280;
    o->h = 720;
    o->vsync = true;
    o->hud = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        bool miss = false;
        int shared = iks_shared_opt("view", argc, argv, &i, &o->s);
        if (shared >= 0) {
            if (shared) return shared;
            continue;
        }
#define OPT(name) ((v = iks_opt_value(argc, argv, &i, name, &miss)) || miss)
#define NEED(name, what) \
    if (miss) return iks_usage("view", "%s needs %s", name, what)
        if (OPT("--size")) {
            NEED("--size", "WxH");
            if (!iks_parse_size(v, &o->w, &o->h) || o->w > 16384 || o->h > 16384)
                return iks_usage("view", "--size '%s': expected WxH with whole numbers from 1 to 16384", v);
        } else if (OPT("--frames")) {
            NEED("--frames", "a count");
            if (!iks_parse_long(v, &o->frames) || o->frames < 1)
                return iks_usage("view", "--frames '%s': expected a whole number from 1", v);
        } else if (OPT("--record")) {
            NEED("--record", "an output: out/%05d.png or a video name");
            iks_render_desc probe = { .output = v, .end = 2 };
            if (strcmp(v, "-") == 0) return iks_usage("view", "--record -: raw frames need a fixed size; record a video or PNGs");
            if (iks_render_check(&probe) != IKS_OK) {
                /* render's check speaks of its -o: here the name came from --record */
                const char *m;
                iks_code c = iks_last_error(&m);
                if (!m || strncmp(m, "-o ", 3) != 0) return iks_print_last_error("view");
                char named[1024];
                snprintf(named, sizeof named, "--record %s", m + 3);
                return iks_print_error("view", c, named);
            }
            o->record = v;
        } else if (OPT("--record-input")) {
            NEED("--record-input", "a file for the session's inputs");
            o->record_input = v;
        } else if (OPT("--record-fps")) {
            NEED("--record-fps", "frames per second");
            /* render's lowest rate (1/fps within 1e9 s): below it a GIF's delay overflowed */
            if (!iks_parse_finite(v, &o->record_fps) || !(o->record_fps >= 1e-9 && o->record_fps <= 1000))
                return iks_usage("view", "--record-fps '%s': expected a number from 1e-9 to 1000", v);
        } else if (strcmp(a, "--paused") == 0) o->paused = true;
        else if (strcmp(a, "--no-vsync") == 0) o->vsync = false;
        else if (strcmp(a, "--no-hud") == 0) o->hud = false;
        else if (strcmp(a, "--mute") == 0) o->mute = true;
        else if (strcmp(a, "--log") == 0) o->log = true;
        else if (a[0] == '-' && a[1]) return iks_unknown_option("view", HELP_VIEW, a);
        else if (!o->shader) o->shader = a;
        else return iks_usage("view", "more than one shader given ('%s' and '%s')", o->shader, a);
#undef OPT
#undef NEED
    }
    return -1;
}

/* ---- what the live loop reports ---------------------------------------------------------------- */

typedef struct {
    const vopts *o;
    bool failing;    /* the last load failed: the next good one is "fixed" */
    bool reported;   /* an error was printed (so a failed start is not printed twice) */
} view_state;

static void on_error(void *user, iks_code code, const char *message)
{
    view_state *v = user;
    iks_print_error("view", code, message);
    v->failing = v->reported = true;
}

static void on_reload(void *user, const iks_reload_info *r)
{
    view_state *v = user;
    if (r->ok && v->failing) fprintf(stderr, "ikshade view: %s: fixed\n", r->path);
    if (r->ok) v->failing = false;
    if (!v->o->log) return;
    if (!r->ok)
        printf("reload %s: error, kept the last good program (compile %.1f ms)\n", r->path, r->compile_ms);
    else {
        double compile = r->compile_ms + r->first_draw_ms;
        printf("reload %s: ok, compile %.1f ms (link %.1f + first draw %.1f), save to screen %.1f ms, "
               "minus compile %.1f ms (gl objects %d, rss %ld kB)\n",
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
        printf("recorded: %s (%ld frame%s)\n", path, frames, frames == 1 ? "" : "s");
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
    printf("screenshot: %s (%dx%d)\n", path, w, h);
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

static int view(const vopts *o)
{
    if (o->shader && access(o->shader, R_OK) != 0) return iks_fail("view", "%s: %s", o->shader, strerror(errno));
    iks_window *win = NULL;
    iks_window_desc wd = { .width = o->w, .height = o->h, .title = o->shader ? base_name(o->shader) : "limb.frag",
                           .no_vsync = !o->vsync };
    if (iks_window_open(&wd, &win) != IKS_OK) {
        const char *m;
        if (iks_last_error(&m) == IKS_E_NO_DISPLAY) {
            /* GLFW words an empty DISPLAY as "Failed to open display )": say what is wrong instead */
            const char *dpy = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
            if (dpy && !*dpy && !(wl && *wl))
                return iks_fail("view", "no display to open a window on (DISPLAY is set but empty); for headless "
                                "output use `ikshade render`");
            return iks_fail("view", "no display to open a window on (%s); for headless output use `ikshade "
                            "render`", m);
        }
        return iks_print_last_error("view");
    }
    iks_cli_log log = { "view", false };
    iks_engine *e = iks_cli_engine(&log, win);
    if (!e) {
        iks_window_close(win);
        return EXIT_FAIL;
    }
    view_state vs = { .o = o };
    iks_live_desc d = { .toy = iks_shared_toy(&o->s, o->shader), .time0 = o->s.t0, .paused = o->paused,
                        .hide_hud = !o->hud, .mute = o->mute, .no_vsync_cap = !o->vsync, .frames = o->frames, .measure = o->log,
                        .on_error = on_error, .on_reload = on_reload, .on_screenshot = on_screenshot,
                        .record = o->record, .record_fps = o->record_fps, .on_record = on_record,
                        .record_input = o->record_input,
                        .should_stop = should_stop, .user = &vs };
    iks_code c = iks_live_run(e, &d); /* Ctrl-C, SIGTERM, SIGHUP end it through should_stop: signals.c */
    int rc = EXIT_OK;
    if (c != IKS_OK) rc = vs.reported ? iks_exit_status(c) : iks_print_last_error("view");
    iks_engine_destroy(e);
    iks_window_close(win);
    return rc;
}

int cmd_view(int argc, char **argv)
{
    vopts o;
    int rc = parse_args(argc, argv, &o);
    if (rc < 0) rc = view(&o);
    iks_shared_free(&o.s);
    return rc;
}

int iks_view_parse_only(int argc, char **argv)
{
    vopts o;
    int rc = parse_args(argc, argv, &o);
    iks_shared_free(&o.s);
    return rc;
}
