/* cmd_view.c: `ikshade view`: a window that runs a shader in real time, with shadertoy.com's iMouse,
 * a HUD, screenshots, and live reload of the shader and everything it includes on every save.
 * What it does not do: render offline (cmd_render.c) or parse GLSL (src/gpu/source.c). */
#include "cli.h"
#include "gpu.h"
#include "hud.h"
#include "platform.h"
#include "pngio.h"
#include "session.h"
#include "watch.h"

#include <errno.h>
#include <glad/gl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char HELP_VIEW[] =
    "usage: ikshade view [SHADER] [options]\n"
    "\n"
    "Runs a Shadertoy-style shader, a shadertoy.com JSON export, or a directory toy in a window\n"
    "(default: the IK limb demo; drag the target with the\n"
    "left mouse button). The shader and every file it includes are reloaded on each save; a broken\n"
    "edit keeps the last good picture and shows the error until a good edit replaces it.\n"
    "\n"
    "options:\n"
    "  --size WxH           window size (default 1280x720)\n"
    "  --set NAME=V[,V..]   set a uniform the shader declares (repeatable; kept across reloads)\n"
    "  --time T0            start at iTime = T0 seconds (default 0)\n"
    "  --paused             start paused\n"
    "  --no-vsync           draw as fast as possible (vsync: once per refresh, at most 240 fps)\n"
    "  --no-hud             start with the HUD hidden\n"
    "  --frames N           quit after N frames (for scripts)\n"
    "  --log                print each reload: compile time and latency from the save to the screen\n"
    "  -I DIR               also look for #include files in DIR (repeatable)\n"
    "  --channelN SPEC      iChannelN (0-3) of a single file: FILE.png|FILE.jpg|cube:FILE.png|keyboard|black\n"
    "                       ,filter=nearest|linear|mipmap ,wrap=clamp|repeat ,vflip=0|1 ,srgb=0|1\n"
    "  --missing-media black  run a JSON whose textures are not on disk with black instead\n"
    "  --glsl auto|es|330   GLSL ES 3.00 (the site's) or 3.30 core; auto: ES for a JSON, 3.30 for a file\n"
    "\n"
    "keys:\n"
    "  Space        pause / resume\n"
    "  R            restart time (iTime = T0, iFrame = 0)\n"
    "  Left/Right   one frame back / forward while paused (hold to scrub)\n"
    "  F or F11     fullscreen on / off\n"
    "  S            screenshot: ikshade-NNNN.png in the current directory (framebuffer size, no HUD)\n"
    "  H            HUD on / off (fps, frame time, iTime, iFrame, resolution, mouse, errors)\n"
    "  Esc or Q     quit\n"
    "When the shader reads the keyboard (a keyboard channel), keys go to it, and the viewer's own\n"
    "keys above need Ctrl (Ctrl+Space, Ctrl+S, ...); Esc and F11 always work.\n"
    "\n"
    "iMouse follows shadertoy.com: xy is the pointer while the left button is held, zw where it was\n"
    "pressed; z > 0 while held, w > 0 only on the frame of the press; both negative after release.\n"
    "Without a display this exits with an error: use `ikshade render` for headless output.\n";

#define STEP (1.0 / 60.0)      /* a frame step while paused */
#define DEBOUNCE 0.030         /* quiet time after a write that did not close the file */
#define MAX_ERR_LINES 12       /* of a compile error, in the HUD */
#define MAX_FPS 240.0          /* with vsync on, even where the driver ignores it */

typedef struct {
    const char *shader;
    int w, h;
    iks_shared_opts s; /* -I --set --channelN --missing-media --glsl --time */
    bool paused, vsync, hud, log;
    long frames; /* 0: until closed */
} vopts;

static volatile sig_atomic_t stop_requested;
static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static double now_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now_real(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long rss_kb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, res = 0;
    if (!f) return -1;
    if (fscanf(f, "%ld %ld", &pages, &res) != 2) res = -1;
    fclose(f);
    return res < 0 ? -1 : res * (sysconf(_SC_PAGESIZE) / 1024);
}

static int parse_args(int argc, char **argv, vopts *o)
{
    memset(o, 0, sizeof *o);
    o->w = 1280;
    o->h = 720;
    o->vsync = true;
    o->hud = true;
    iks_shared_init(&o->s);
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
        } else if (strcmp(a, "--paused") == 0) o->paused = true;
        else if (strcmp(a, "--no-vsync") == 0) o->vsync = false;
        else if (strcmp(a, "--no-hud") == 0) o->hud = false;
        else if (strcmp(a, "--log") == 0) o->log = true;
        else if (a[0] == '-' && a[1]) return iks_usage("view", "unknown option '%s' (see ikshade help view)", a);
        else if (!o->shader) o->shader = a;
        else return iks_usage("view", "more than one shader given ('%s' and '%s')", o->shader, a);
#undef OPT
#undef NEED
    }
    return -1;
}

/* ---- the live program -------------------------------------------------------------------------- */

typedef struct {
    const vopts *o;
    const char *path;
    iks_toyfile tf;     /* the last good toy and what it was built from */
    iks_gltoy toy;
    bool have;          /* false before the first success */
    char *files[64];    /* the files of the last attempt, watched (owned) */
    int nfiles;
    char *attempted;    /* every file of the last attempt, concatenated: saves that change nothing */
    char *error;        /* the current error (mapped compiler lines), NULL when none */
    iks_watch *watch;
    bool missing;       /* the main file was gone at the last attempt */
    int w, h;           /* the framebuffer, which buffers follow */
} live;

static void set_error(live *l, const char *msg)
{
    free(l->error);
    l->error = msg ? strdup(msg) : NULL;
}

/* the newest modification time among files, as realtime seconds; 0 if none can be read */
static double newest_mtime(char *const *files, int n)
{
    double t = 0;
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (stat(files[i], &st) == 0) {
            double m = (double)st.st_mtim.tv_sec + 1e-9 * (double)st.st_mtim.tv_nsec;
            if (m > t) t = m;
        }
    }
    return t;
}

/* the main file and every file of the last attempt, read and concatenated (malloc'd) */
static char *signature(const live *l)
{
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
    for (int i = -1; s && i < l->nfiles; i++) {
        const char *f = i < 0 ? l->path : l->files[i];
        size_t n = 0;
        char *t = iks_read_text(f, 64u << 20, &n);
        size_t need = len + strlen(f) + n + 3;
        if (need > cap) {
            while (cap < need) cap *= 2;
            char *q = realloc(s, cap);
            if (!q) {
                free(t);
                free(s);
                return NULL;
            }
            s = q;
        }
        len += (size_t)sprintf(s + len, "%s%c", f, 0) + 1;
        if (t) memcpy(s + len, t, n), len += n;
        s[len++] = 1;
        free(t);
    }
    if (s) s[len] = '\0';
    /* keep the length in front of the bytes: contents may hold NULs between files */
    char *r = s ? malloc(len + sizeof len) : NULL;
    if (r) {
        memcpy(r, &len, sizeof len);
        memcpy(r + sizeof len, s, len);
    }
    free(s);
    return r;
}

static bool same_signature(const char *a, const char *b)
{
    if (!a || !b) return false;
    size_t la, lb;
    memcpy(&la, a, sizeof la);
    memcpy(&lb, b, sizeof lb);
    return la == lb && memcmp(a + sizeof la, b + sizeof lb, la) == 0;
}

/* watch the main file and every real file the toy read (JSON passes have names, not files) */
static void take_files(live *l, iks_gltoy *t, const iks_toyfile *tf)
{
    for (int i = 0; i < l->nfiles; i++) free(l->files[i]);
    l->nfiles = 0;
    for (int i = 0; i < tf->nwatch && l->nfiles < 32; i++)
        if ((l->files[l->nfiles] = strdup(tf->watch[i]))) l->nfiles++;
    for (int i = 0; i < t->nfiles; i++) {
        struct stat st;
        if (l->nfiles < 64 && stat(t->files[i], &st) == 0 && strcmp(t->files[i], l->path) != 0) {
            l->files[l->nfiles++] = t->files[i];
            t->files[i] = NULL;
        }
    }
    if (!l->watch) return;
    const char *w[65];
    int n = 0;
    w[n++] = l->path;
    for (int i = 0; i < l->nfiles; i++) w[n++] = l->files[i];
    iks_watch_set(l->watch, w, n);
}

typedef enum { RL_SAME, RL_OK, RL_FAILED } reload_result;

/* Loads and builds the toy again. On success the new toy replaces the old; on failure the old one
 * stays and the error is kept for the HUD and printed once. *mtime gets the save's time. */
static reload_result reload(live *l, double *compile_s, double *mtime)
{
    const vopts *o = l->o;
    *compile_s = 0;
    *mtime = 0;
    if (access(l->path, F_OK) != 0 && errno == ENOENT) {
        char msg[PATH_MAX + 128];
        snprintf(msg, sizeof msg, "%s: deleted; showing the last good program until it comes back", l->path);
        bool repeat = l->error && strcmp(l->error, msg) == 0;
        if (!repeat) {
            iks_fail("view", "%s", msg);
            set_error(l, msg);
        }
        l->missing = true;
        free(l->attempted);
        l->attempted = NULL;
        return repeat ? RL_SAME : RL_FAILED;
    }
    l->missing = false;
    char *sig = signature(l);
    if (sig && same_signature(sig, l->attempted)) {
        free(sig);
        return RL_SAME;
    }
    free(l->attempted);
    l->attempted = sig;

    iks_toyfile ntf;
    iks_gltoy nt;
    char *msg = NULL;
    double t = now_mono();
    bool ok = iks_toy_load(l->path, &o->s, l->w, l->h, &ntf, &nt, &msg) == 0;
    *compile_s = now_mono() - t;
    /* a new include is watched from now on, also when it is the broken one; a file that could not be
     * read at all (a bad JSON or manifest) keeps the watch list as it was */
    if (nt.nfiles > 0 || ntf.nwatch > 0) take_files(l, &nt, &ntf);
    /* the signature of what was just read, so the next save is compared with this version */
    free(l->attempted);
    l->attempted = signature(l);
    *mtime = fmax(newest_mtime(l->files, l->nfiles), newest_mtime((char *const *)&l->path, 1));
    if (!ok) {
        iks_print_build_error("view", msg);
        set_error(l, msg ? msg : "cannot build the shader");
        free(msg);
        iks_gltoy_destroy(&nt);
        iks_toyfile_free(&ntf);
        return RL_FAILED;
    }
    free(msg);
    char aerr[IKS_GPU_ERR_LEN], awarn[2048] = "";
    if (o->s.nsets && !iks_gltoy_apply(&nt, o->s.sets, o->s.nsets, aerr, awarn, sizeof awarn)) {
        /* an edit may drop a uniform that --set names: say so, but show the edit */
        iks_warn("view", "%s", aerr);
    }
    if (awarn[0]) fputs(awarn, stderr);
    if (l->have) {
        iks_gltoy_destroy(&l->toy);
        iks_toyfile_free(&l->tf);
    }
    l->toy = nt;
    l->tf = ntf;
    l->have = true;
    if (l->error) fprintf(stderr, "ikshade view: %s: fixed\n", l->path);
    set_error(l, NULL);
    return RL_OK;
}

/* ---- screenshots ------------------------------------------------------------------------------- */

/* The back buffer as PNG into the next free ikshade-NNNN.png of the current directory. */
static void screenshot(int w, int h)
{
    size_t bytes = (size_t)w * (size_t)h * 4;
    uint8_t *px = malloc(bytes);
    if (!px) {
        iks_warn("view", "screenshot: out of memory for %dx%d", w, h);
        return;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
    uint8_t *png = NULL;
    size_t len = 0;
    if (!iks_png_encode(px, w, h, false, &png, &len)) {
        free(px);
        iks_warn("view", "screenshot: out of memory while encoding");
        return;
    }
    free(px);
    char name[64];
    for (int i = 1; i < 100000; i++) {
        snprintf(name, sizeof name, "ikshade-%04d.png", i);
        if (access(name, F_OK) != 0 && errno == ENOENT) break;
    }
    if (iks_write_atomic(name, png, len)) {
        printf("screenshot: %s (%dx%d)\n", name, w, h);
        fflush(stdout);
    } else iks_warn("view", "screenshot: %s: %s", name, strerror(errno));
    free(png);
}

/* ---- the loop ---------------------------------------------------------------------------------- */

typedef struct {
    float mouse[4];
    bool held, clicked; /* clicked: the press happened since the last frame */
} mouse_state;

/* shadertoy.com's iMouse: xy while held; zw the press; z > 0 while held; w > 0 on the press frame */
static void mouse_event(mouse_state *m, const iks_event *ev)
{
    if (ev->kind == IKS_EV_BUTTON && ev->down) {
        m->held = m->clicked = true;
        m->mouse[0] = m->mouse[2] = (float)ev->x;
        m->mouse[1] = m->mouse[3] = (float)ev->y;
    } else if (ev->kind == IKS_EV_BUTTON && m->held) {
        m->held = false;
        m->mouse[2] = -fabsf(m->mouse[2]);
        m->mouse[3] = -fabsf(m->mouse[3]);
    } else if (ev->kind == IKS_EV_MOVE && m->held) {
        m->mouse[0] = (float)ev->x;
        m->mouse[1] = (float)ev->y;
    }
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

int cmd_view(int argc, char **argv)
{
    vopts o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0) return rc;
    char def[PATH_MAX];
    if (!o.shader) {
        const char *sd = iks_shader_dir();
        if (!sd) return iks_fail("view", "cannot find the demo shaders; set IKSHADE_SHADERS or give a shader");
        snprintf(def, sizeof def, "%.4000s/limb.frag", sd);
        o.shader = def;
    }
    if (access(o.shader, R_OK) != 0) return iks_fail("view", "%s: %s", o.shader, strerror(errno));

    char err[IKS_ERR_LEN];
    bool no_display = false;
    iks_window_desc wd = { .w = o.w, .h = o.h, .title = base_name(o.shader), .vsync = o.vsync };
    iks_platform *p = iks_glfw_create(&wd, err, &no_display);
    if (!p) {
        if (no_display)
            return iks_fail("view", "no display to open a window on (%s); for headless output use `ikshade "
                            "render`", err);
        return iks_fail("view", "%s", err);
    }
    char gerr[IKS_GPU_ERR_LEN];
    if (!iks_gpu_load(p->get_proc_address, gerr)) {
        p->destroy(p);
        return iks_fail("view", "%s", gerr);
    }
    iks_png_setup(2, 2);
    live l = { .o = &o, .path = o.shader };
    p->framebuffer_size(p, &l.w, &l.h);
    if (l.w < 1 || l.h < 1) l.w = o.w, l.h = o.h;
    l.watch = iks_watch_create();
    if (!l.watch) iks_warn("view", "cannot watch files (%s): live reload is off", strerror(errno));
    double compile_s, mtime;
    if (reload(&l, &compile_s, &mtime) != RL_OK && l.watch) {
        /* a shader broken from the start: stay open on a blank screen with the error in the HUD, so
         * that the user can fix it in the editor as with any later edit */
        iks_warn("view", "%s: nothing to show until a save compiles", l.path);
    } else if (!l.have) {
        iks_watch_destroy(l.watch);
        for (int i = 0; i < l.nfiles; i++) free(l.files[i]);
        free(l.attempted);
        free(l.error);
        p->destroy(p);
        return EXIT_FAIL;
    }
    iks_hud hud;
    if (!iks_hud_create(&hud)) iks_warn("view", "the HUD could not be built; running without it");

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    mouse_state ms = { .mouse = { 0 } };
    double t = o.s.t0;               /* iTime */
    long frame = 0;                /* iFrame */
    bool paused = o.paused, hud_on = o.hud, want_shot = false;
    double last = now_mono(), title_at = 0, fps = 0, frame_ms = 0;
    double pending_since = 0, due = 0; /* a save seen, reload at due (monotonic); 0: none */
    double present_wanted = 0;         /* a reload to report once its first frame is on screen */
    double reload_save = 0, reload_compile = 0, first_draw = 0;
    long drawn = 0;
    bool quit = false, stepped = false;
    long drawn_since_reload = 0; /* a new toy draws its buffers once even when paused */
    char title[PATH_MAX + 64];
    while (!quit && !stop_requested) {
        p->poll(p);
        iks_event ev;
        while (p->next_event(p, &ev)) {
            /* a shader that reads the keyboard gets the keys; the viewer's own then need Ctrl */
            bool to_shader = ev.kind == IKS_EV_KEY && l.have && l.toy.keyboard && !ev.ctrl &&
                             ev.key != IKS_KEY_ESCAPE && ev.key != IKS_KEY_F11;
            if (ev.kind == IKS_EV_KEY && l.have && l.toy.keyboard && (to_shader || !ev.down))
                iks_gltoy_key(&l.toy, ev.code, ev.down);
            if (ev.kind == IKS_EV_CLOSE) quit = true;
            else if (to_shader) continue;
            else if (ev.kind == IKS_EV_KEY && ev.down) {
                switch (ev.key) {
                case IKS_KEY_ESCAPE:
                case IKS_KEY_Q: quit = true; break;
                case IKS_KEY_SPACE:
                    if (!ev.repeat) paused = !paused;
                    break;
                case IKS_KEY_R:
                    if (!ev.repeat) t = o.s.t0, frame = 0;
                    break;
                case IKS_KEY_LEFT:
                    if (paused && frame > 0) t -= STEP, frame--, stepped = true;
                    break;
                case IKS_KEY_RIGHT:
                    if (paused) t += STEP, frame++, stepped = true;
                    break;
                case IKS_KEY_F:
                case IKS_KEY_F11:
                    if (!ev.repeat) p->toggle_fullscreen(p);
                    break;
                case IKS_KEY_S:
                    if (!ev.repeat) want_shot = true;
                    break;
                case IKS_KEY_H:
                    if (!ev.repeat) hud_on = !hud_on;
                    break;
                default: break;
                }
            } else mouse_event(&ms, &ev);
        }
        if (quit) break;

        /* live reload: a finished save reloads now; a write still in progress waits for quiet */
        double tnow = now_mono();
        iks_watch_news news = l.watch ? iks_watch_poll(l.watch) : IKS_WATCH_NONE;
        if (news != IKS_WATCH_NONE) {
            if (!pending_since) pending_since = now_real();
            due = news == IKS_WATCH_SETTLED ? tnow : tnow + DEBOUNCE;
        }
        if (due && tnow >= due) {
            double seen = pending_since;
            due = 0;
            pending_since = 0;
            reload_result r = reload(&l, &compile_s, &mtime);
            if (r != RL_SAME) {
                /* the save's own time when the file has a fresh one; a file renamed in keeps an old
                 * mtime, and then the moment we saw it is the best we know */
                reload_save = mtime > seen - 1.0 && mtime <= now_real() ? mtime : seen;
                reload_compile = compile_s;
                if (r == RL_OK) present_wanted = 1, drawn_since_reload = 0;
                else if (o.log) {
                    printf("reload %s: error, kept the last good program (compile %.1f ms)\n", l.path,
                           1e3 * compile_s);
                    fflush(stdout);
                }
            }
        }

        int fw, fh;
        p->framebuffer_size(p, &fw, &fh);
        if (fw > 0 && fh > 0) {
            iks_frame f;
            iks_frame_defaults(&f);
            f.time = t;
            f.frame = (int)(frame > INT32_MAX ? INT32_MAX : frame);
            f.time_delta = paused ? 0.0 : fmax(frame_ms, 0.0) / 1e3;
            f.frame_rate = fps;
            memcpy(f.mouse, ms.mouse, sizeof f.mouse);
            if (!ms.clicked && f.mouse[3] > 0) f.mouse[3] = -f.mouse[3];
            iks_target screen = { .fbo = 0, .w = fw, .h = fh, .fmt = IKS_RGBA8 };
            double t_draw = now_mono();
            if (l.have && (fw != l.toy.w || fh != l.toy.h)) {
                char rerr[IKS_GPU_ERR_LEN];
                if (!iks_gltoy_resize(&l.toy, fw, fh, rerr)) iks_warn("view", "resize: %s", rerr);
            }
            l.w = fw, l.h = fh;
            /* paused, the buffers hold still: only a step (or a new program) moves them on */
            if (l.have && (!paused || stepped || drawn_since_reload == 0)) iks_gltoy_draw(&l.toy, &screen, &f);
            else if (l.have) iks_gltoy_redraw_image(&l.toy, &screen, &f);
            else {
                glBindFramebuffer(GL_FRAMEBUFFER, 0);
                glViewport(0, 0, fw, fh);
                glClearColor(0.1f, 0.1f, 0.11f, 1.0f);
                glClear(GL_COLOR_BUFFER_BIT);
            }
            stepped = false;
            drawn_since_reload++;
            if (present_wanted && o.log) {
                /* drivers finish compiling at the first draw (llvmpipe JITs the shader inside the draw
                 * call): that time is compile time too, measured apart from the latency we control */
                glFinish();
                first_draw = now_mono() - t_draw;
            }
            if (want_shot) {
                screenshot(fw, fh);
                want_shot = false;
            }
            if (hud_on) {
                char text[4096];
                int k = snprintf(text, sizeof text,
                                 "%s\n%.1f fps  %.2f ms\niTime %.3f  iFrame %ld%s\n%dx%d  iMouse %.0f %.0f %.0f %.0f",
                                 base_name(l.path), fps, frame_ms, t, frame, paused ? "  (paused)" : "", fw, fh,
                                 f.mouse[0], f.mouse[1], f.mouse[2], f.mouse[3]);
                if (l.error && k > 0 && (size_t)k < sizeof text) {
                    /* the first lines of the error, each cut to fit */
                    const char *s = l.error;
                    for (int line = 0; *s && line < MAX_ERR_LINES; line++) {
                        const char *e = strchr(s, '\n');
                        int len = e ? (int)(e - s) : (int)strlen(s);
                        if (len > 120) len = 120;
                        int m = snprintf(text + k, sizeof text - (size_t)k, "\n%.*s", len, s);
                        if (m < 0 || (size_t)(k + m) >= sizeof text) break;
                        k += m;
                        s = e ? e + 1 : s + strlen(s);
                    }
                }
                float scale = fh >= 1400 ? 3.0f : fh >= 400 ? 2.0f : 1.0f;
                iks_hud_draw(&hud, text, fw, fh, scale);
            }
        }
        p->swap(p);
        ms.clicked = false;
        if (present_wanted) {
            present_wanted = 0;
            if (o.log) {
                /* on screen: the swap has been issued; finish so the figure includes the draw */
                glFinish();
                double latency = now_real() - reload_save;
                double compile = reload_compile + first_draw;
                printf("reload %s: ok, compile %.1f ms (link %.1f + first draw %.1f), save to screen %.1f ms, "
                       "minus compile %.1f ms (gl objects %d, rss %ld kB)\n",
                       l.path, 1e3 * compile, 1e3 * reload_compile, 1e3 * first_draw, 1e3 * latency,
                       1e3 * (latency - compile), iks_gpu_live_objects(4096), rss_kb());
                fflush(stdout);
            }
        }

        /* vsync requested but not honoured (Xvfb, VNC, some drivers return from the swap at once):
         * hold to MAX_FPS rather than spin a core on frames no display shows */
        if (o.vsync) {
            double spare = 1.0 / MAX_FPS - (now_mono() - last);
            if (spare > 0) nanosleep(&(struct timespec){ 0, (long)(spare * 1e9) }, NULL);
        }
        double t1 = now_mono(), dt = t1 - last;
        last = t1;
        frame_ms = 1e3 * dt;
        fps = fps > 0 ? 0.9 * fps + 0.1 / fmax(dt, 1e-6) : 1.0 / fmax(dt, 1e-6);
        if (!paused) {
            t += dt;
            frame++;
        }
        if (t1 - title_at > 0.5) {
            title_at = t1;
            snprintf(title, sizeof title, "%s - %.0f fps%s%s", base_name(l.path), fps, paused ? " (paused)" : "",
                     l.error ? " - error" : "");
            p->set_title(p, title);
        }
        if (o.frames && ++drawn >= o.frames) break;
    }
    iks_hud_destroy(&hud);
    if (l.have) {
        iks_gltoy_destroy(&l.toy);
        iks_toyfile_free(&l.tf);
    }
    for (int i = 0; i < l.nfiles; i++) free(l.files[i]);
    iks_watch_destroy(l.watch);
    free(l.attempted);
    free(l.error);
    p->destroy(p);
    return EXIT_OK;
}

int iks_view_parse_only(int argc, char **argv)
{
    vopts o;
    return parse_args(argc, argv, &o);
}
