/* live.c: iks_live_run: a toy in the caller's window in real time, with shadertoy.com's mouse uniform, a HUD,
 * screenshots, and live reload of the toy and everything it read on every save.
 * What it does not do: open the window (the caller's, or iks_window_open), print (callbacks and the
 * engine's logger carry everything), or parse GLSL (src/glsl/source.c). */
#include "engine/engine.h"
#include "engine/toyreads.h"
#include "engine/livemics.h"
#include "base/strutil.h"
#include "engine/panel.h"
#include "glsl/uniforms.h"
#include "base/userfile.h"
#include "base/buf.h"

#include "platform/audio.h"
#include "platform/platform.h"
#include "gpu/hud.h"
#include "engine/livecams.h"
#include "io/outfile.h"
#include "engine/writer.h"
#include "io/pngio.h"
#include "io/watch.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define STEP (1.0 / 60.0)      /* a frame step while paused */
#define DEBOUNCE 0.030         /* quiet time after a write that did not close the file */
#define MAX_ERR_LINES 12       /* of a compile error, in the HUD */
#define MAX_FPS 240.0          /* with vsync on, even where the driver ignores it */
#define IDLE_REDRAW 0.25       /* paused and idle: redraw this often all the same (s) */
#define SLOW_FRAME 0.25        /* a frame that took longer: the next one's Cube A is drawn in steps (s) */

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

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* ---- the live toy ------------------------------------------------------------------------------ */

typedef struct {
    iks_engine *e;
    const iks_live_desc *d;
    iks_setting *sets;   /* the desc's settings, parsed once, applied to every new version */
    int nsets;
    const char *path;    /* the main file (NULL for source text: nothing to watch) */
    iks_toy *toy;        /* the last good version; NULL before the first success */
    char **files;        /* the files of the last attempt, watched (owned) */
    int nfiles;
    size_t capfiles;
    char *attempted;     /* what the last attempt read (see signature): saves that change nothing */
    size_t attempted_len;
    char *error;         /* the current error (mapped compiler lines), NULL when none */
    iks_code error_code; /* its code */
    iks_watch *watch;
    int w, h;            /* the framebuffer, which buffers follow */
    iks_panel *panel;    /* the parameter panel (the loop's): its rows follow every new version */
} live;

static void set_error(live *l, const char *msg, iks_code code)
{
    free(l->error);
    l->error = msg ? strdup(msg) : NULL;
    l->error_code = msg ? code : IKS_OK;
}

static void report(live *l, iks_code code, const char *msg)
{
    if (l->d->on_error) l->d->on_error(l->d->user, code, msg);
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

/* A signature is one record per file: the name's length and the name, then the content's length
 * (SIZE_MAX: unreadable) and the content */
static void put_record(iks_sbuf *s, const char *name, const char *t, size_t n)
{
    size_t nl = strlen(name), tl = t ? n : SIZE_MAX;
    iks_sbuf_add(s, &nl, sizeof nl);
    iks_sbuf_add(s, name, nl);
    iks_sbuf_add(s, &tl, sizeof tl);
    if (t) iks_sbuf_add(s, t, n);
}

/* The record of name in sig (*rec, *rlen bytes); false when it has none */
static bool find_record(const char *sig, size_t siglen, const char *name, const char **rec, size_t *rlen)
{
    size_t want = strlen(name);
    for (size_t at = 0; at + 2 * sizeof(size_t) <= siglen;) {
        size_t nl, tl;
        memcpy(&nl, sig + at, sizeof nl);
        memcpy(&tl, sig + at + sizeof nl + nl, sizeof tl);
        size_t end = at + 2 * sizeof nl + nl + (tl == SIZE_MAX ? 0 : tl);
        if (nl == want && memcmp(sig + at + sizeof nl, name, nl) == 0) {
            *rec = sig + at;
            *rlen = end - at;
            return true;
        }
        at = end;
    }
    return false;
}

/* The main file and every file of the last attempt with their contents (malloc'd, *len bytes), for
 * telling a save that changes nothing. A file that has a record in pre keeps that one: pre was taken
 * before a build read the files, and what the build read is what later saves must be compared with
 * (a save during the build then differs, and reloads). NULL when out of memory. */
static char *signature(const live *l, const char *pre, size_t prelen, size_t *len)
{
    iks_sbuf s = { 0 };
    for (int i = -1; i < l->nfiles && !s.oom; i++) {
        const char *f = i < 0 ? l->path : l->files[i];
        const char *rec;
        size_t rlen;
        if (pre && find_record(pre, prelen, f, &rec, &rlen)) {
            iks_sbuf_add(&s, rec, rlen);
            continue;
        }
        size_t n = 0;
        char *t = iks_userfile_read_text(f, 64u << 20, 0, &n);
        put_record(&s, f, t, n);
        free(t);
    }
    return iks_sbuf_take(&s, len);
}

static void free_files(live *l)
{
    for (int i = 0; i < l->nfiles; i++) free(l->files[i]);
    l->nfiles = 0;
}

static bool add_file(live *l, char *f)
{
    if (!IKS_GROW(l->files, (size_t)l->nfiles + 1, l->capfiles)) return false;
    l->files[l->nfiles++] = f;
    return true;
}

/* watch the main file and every real file the toy read (JSON passes have names, not files) */
static void take_files(live *l, iks_toy *t)
{
    free_files(l);
    for (int i = 0; i < t->tf.nwatch; i++) {
        char *f = strdup(t->tf.watch[i]);
        if (f && !add_file(l, f)) free(f);
    }
    for (int i = 0; i < t->gl.nfiles; i++) {
        struct stat st;
        if (t->gl.files[i] && stat(t->gl.files[i], &st) == 0 && strcmp(t->gl.files[i], l->path) != 0 &&
            add_file(l, t->gl.files[i]))
            t->gl.files[i] = NULL; /* ours now */
    }
    /* includes looked for in vain: the file that appears there is the fix */
    for (int i = 0; i < t->gl.nwanted; i++)
        if (t->gl.wanted[i] && add_file(l, t->gl.wanted[i])) t->gl.wanted[i] = NULL;
    if (!l->watch) return;
    const char **w = malloc(sizeof *w * (size_t)(l->nfiles + 1));
    if (!w) return;
    int n = 0;
    w[n++] = l->path;
    for (int i = 0; i < l->nfiles; i++) w[n++] = l->files[i];
    if (!iks_watch_set(l->watch, w, n))
        iks_warnf(&l->e->log, "cannot watch every file (%s): some saves may not reload", strerror(errno));
    free(w);
}

/* ---- the parameter panel's values on the toy --------------------------------------------------- */

/* Row r's value into the toy through the typed setter of its type; false (warned) when refused */
static bool panel_apply(iks_toy *t, const iks_panel_row *row, iks_logger *log)
{
    iks_code c;
    switch (row->type) {
    case IKS_UNIFORM_INT: {
        int v[4];
        for (int i = 0; i < row->n; i++) v[i] = (int)row->v[i];
        c = iks_toy_set_int(t, row->name, v, row->n);
        break;
    }
    case IKS_UNIFORM_UINT: {
        unsigned v[4];
        for (int i = 0; i < row->n; i++) v[i] = (unsigned)row->v[i];
        c = iks_toy_set_uint(t, row->name, v, row->n);
        break;
    }
    case IKS_UNIFORM_BOOL: {
        bool v[4];
        for (int i = 0; i < row->n; i++) v[i] = row->v[i] != 0;
        c = iks_toy_set_bool(t, row->name, v, row->n);
        break;
    }
    default: {
        float v[4];
        for (int i = 0; i < row->n; i++) v[i] = (float)row->v[i];
        c = iks_toy_set_float(t, row->name, v, row->n);
        break;
    }
    }
    if (c != IKS_OK) {
        const char *why = NULL;
        iks_last_error(&why);
        iks_warnf(log, "parameter %s: %s", row->name, why ? why : "not set");
    }
    return c == IKS_OK;
}

/* A new version of the toy: the panel's rows from its uniforms, and the values the user dragged
 * applied to it (after the --set settings: the drag is the newer word) */
static void panel_adopt(live *l, iks_toy *t)
{
    if (!l->panel) return;
    int n = iks_toy_uniform_count(t), k = 0;
    iks_uniform_info *info = n > 0 ? malloc(sizeof *info * (size_t)n) : NULL;
    for (int i = 0; info && i < n; i++)
        if (iks_toy_uniform_info(t, i, &info[k]) == IKS_OK) k++;
    iks_panel_sync(l->panel, info, k);
    free(info);
    for (int r = 0; r < l->panel->nrows; r++)
        if (l->panel->rows[r].touched) (void)panel_apply(t, &l->panel->rows[r], &l->e->log);
}

typedef enum { RL_SAME, RL_OK, RL_FAILED } reload_result;

/* Loads and builds the toy again. On success the new toy replaces the old; on failure the old one
 * stays and the error is reported once. *mtime gets the save's time. */
static reload_result reload(live *l, double *compile_s, double *mtime, iks_code *code)
{
    *compile_s = 0;
    *mtime = 0;
    *code = IKS_OK;
    if (l->path && access(l->path, F_OK) != 0 && errno == ENOENT) {
        char msg[PATH_MAX + 128];
        snprintf(msg, sizeof msg, "%s: deleted; %s until it comes back", l->path,
                 l->toy ? "showing the last good program" : "nothing to show");
        bool repeat = l->error && strcmp(l->error, msg) == 0;
        *code = IKS_E_IO;
        if (!repeat) {
            report(l, IKS_E_IO, msg);
            set_error(l, msg, IKS_E_IO);
        }
        free(l->attempted);
        l->attempted = NULL;
        return repeat ? RL_SAME : RL_FAILED;
    }
    size_t prelen = 0;
    char *pre = l->path ? signature(l, NULL, 0, &prelen) : NULL;
    if (pre && l->attempted && prelen == l->attempted_len && memcmp(pre, l->attempted, prelen) == 0) {
        free(pre);
        return RL_SAME;
    }
    iks_toy_desc td = l->d->toy;
    td.path = l->path;
    td.width = l->w;
    td.height = l->h;
    iks_err err = IKS_ERR_INIT;
    iks_toy *nt = NULL;
    double t = iks_now();
    bool ok = iks_toy_open(l->e, &td, &nt, &err);
    *compile_s = iks_now() - t;
    /* a new include is watched from now on, also when it is the broken one; a file that could not be
     * read at all (a bad JSON or manifest) keeps the watch list as it was */
    if (l->path && nt && (nt->gl.nfiles > 0 || nt->tf.nwatch > 0 || nt->gl.nwanted > 0)) take_files(l, nt);
    /* the signature of what was just read, so the next save is compared with this version */
    if (l->path) {
        free(l->attempted);
        l->attempted = signature(l, pre, prelen, &l->attempted_len);
        *mtime = fmax(newest_mtime(l->files, l->nfiles), newest_mtime((char *const *)&l->path, 1));
    }
    free(pre);
    if (!ok) {
        *code = err.code;
        report(l, err.code, iks_err_msg(&err));
        set_error(l, err.msg ? err.msg : "cannot build the shader", err.code);
        iks_err_clear(&err);
        iks_toy_destroy(nt);
        return RL_FAILED;
    }
    if (l->nsets && !iks_gltoy_apply(&nt->gl, l->sets, l->nsets, &err, &l->e->log)) {
        /* an edit may drop a uniform that a setting names: say so, but show the edit */
        iks_warnf(&l->e->log, "%s", iks_err_msg(&err));
        iks_err_clear(&err);
    }
    panel_adopt(l, nt);
    iks_toy_destroy(l->toy);
    l->toy = nt;
    set_error(l, NULL, IKS_OK);
    if (nt->gl.image_less)
        iks_warnf(&l->e->log, "%s: a sound shader alone (mainSound, no mainImage): no picture, %s",
                  l->path ? l->path : "the shader", l->d->mute ? "and mute silences it" : "its sound plays");
    return RL_OK;
}

/* ---- names the user did not type: claimed, never replacing a file -------------------------------- */

/* ikshade-NNNN.EXT in dir (NULL: the current directory, unprefixed), or with take set, the takes of a
 * recording named by the user: NAME-N.EXT */
typedef struct {
    const char *dir, *ext;
    int first; /* the first candidate's number */
    const char *take; /* the recording's name, for takes */
} numbered;

static bool numbered_name(void *user, int attempt, char *buf, size_t n)
{
    const numbered *nm = user;
    long i = (long)nm->first + attempt;
    if (i > 99999) return false;
    int r;
    if (nm->take) {
        const char *slash = strrchr(nm->take, '/');
        const char *dot = strrchr(slash ? slash : nm->take, '.');
        if (!dot) r = snprintf(buf, n, "%s-%ld", nm->take, i);
        else r = snprintf(buf, n, "%.*s-%ld%s", (int)(dot - nm->take), nm->take, i, dot);
    } else if (nm->dir) r = snprintf(buf, n, "%s/ikshade-%04ld%s", nm->dir, i, nm->ext);
    else r = snprintf(buf, n, "ikshade-%04ld%s", i, nm->ext);
    /* a name cut short would be another file (another directory, no extension): none then */
    return r >= 0 && (size_t)r < n;
}

/* The first number from nm->first whose name is free now: where claiming starts (a file that appears
 * meanwhile is skipped then) */
static int first_free(const numbered *nm)
{
    char buf[PATH_MAX];
    for (int a = 0; numbered_name((void *)nm, a, buf, sizeof buf); a++) {
        struct stat st;
        if (lstat(buf, &st) != 0 && errno == ENOENT) return nm->first + a;
    }
    return nm->first;
}

/* ---- screenshots ------------------------------------------------------------------------------- */

/* The back buffer as PNG into the next free ikshade-NNNN.png of the screenshot directory. */
static void screenshot(live *l, int w, int h)
{
    const iks_live_desc *d = l->d;
    size_t bytes = (size_t)w * (size_t)h * 4;
    uint8_t *px = malloc(bytes), *png = NULL;
    size_t len = 0;
    char msg[PATH_MAX + 128];
    if (!px) {
        snprintf(msg, sizeof msg, "screenshot: out of memory for %dx%d", w, h);
        goto fail;
    }
    iks_gpu_read_screen(w, h, px);
    iks_png_opts o = { .level = 2 }; /* libdeflate 2: a single image, smaller */
    iks_err err = IKS_ERR_INIT;
    bool enc = iks_png_encode(px, w, h, &o, &png, &len, &err);
    free(px);
    if (!enc) {
        snprintf(msg, sizeof msg, "screenshot: %s", iks_err_msg(&err));
        iks_err_clear(&err);
        goto fail;
    }
    char name[PATH_MAX];
    numbered nm = { d->screenshot_dir && *d->screenshot_dir ? d->screenshot_dir : NULL, ".png", 1, 0 };
    nm.first = first_free(&nm);
    if (iks_write_new(png, len, numbered_name, &nm, name, sizeof name)) {
        free(png);
        if (d->on_screenshot) d->on_screenshot(d->user, name, w, h, NULL);
        return;
    }
    snprintf(msg, sizeof msg, "screenshot: %s: %s", name, strerror(errno));
    free(png);
fail:
    if (d->on_screenshot) d->on_screenshot(d->user, NULL, w, h, msg);
    else iks_warnf(&l->e->log, "%s", msg);
}

/* ---- recording --------------------------------------------------------------------------------- */

typedef struct {
    iks_writer *w;      /* open while a recording runs (paused or not) */
    bool on;            /* frames are being written */
    int w_px, h_px;     /* its size */
    long frames;        /* frames in the current file(s) */
    long next_frame;    /* a PNG pattern's next number: numbering goes on across recordings */
    int take;           /* recordings started into a single video name: the 2nd is NAME-2.ext */
    char path[PATH_MAX]; /* the current output */
    numbered names;     /* a name the user did not type (a take after the first, ikshade-NNNN.mp4) */
    bool claiming;      /* ... is claimed when the file is finished, never replacing one */
    char claimed[PATH_MAX]; /* the name it took */
} recorder;

/* The output of take n: the name as given (the user asked for it), or else a name of r->names: NAME-n.ext
 * (videos), or the next free ikshade-NNNN.mp4 when the user gave none; claimed at the end */
static void record_name(recorder *r, const iks_live_desc *d, bool pattern)
{
    r->claiming = false;
    if (d->record && (r->take <= 1 || pattern)) {
        snprintf(r->path, sizeof r->path, "%s", d->record);
        return;
    }
    r->names = d->record ? (numbered){ .take = d->record, .first = r->take }
                         : (numbered){ .dir = d->screenshot_dir && *d->screenshot_dir ? d->screenshot_dir : ".",
                                       .ext = ".mp4", .first = 1 };
    r->names.first = first_free(&r->names);
    if (d->record) r->take = r->names.first;
    numbered_name(&r->names, 0, r->path, sizeof r->path);
    r->claiming = true;
}

static void record_report(const iks_live_desc *d, iks_logger *log, const char *path, long frames, const char *msg)
{
    if (d->on_record) d->on_record(d->user, path, frames, msg);
    else if (msg) iks_warnf(log, "%s", msg);
}

/* Ends the current recording: the file closed (a video finished by ffmpeg, the microphone's sound
 * muxed in), its frames reported */
static void record_close(recorder *r, const iks_live_desc *d, iks_mics *mics, iks_logger *log)
{
    if (!r->w) return;
    iks_err err = IKS_ERR_INIT;
    iks_writer_result res;
    r->claimed[0] = '\0';
    /* a sound track that could not be finished is left out rather than muxed half-written */
    bool sound = iks_mics_track_path(mics) && iks_mics_track_finish(mics, log);
    bool ok = iks_writer_close(r->w, true, &res, &err);
    iks_mics_track_end(mics);
    r->w = NULL;
    r->on = false;
    if (ok && r->claiming && r->claimed[0]) snprintf(r->path, sizeof r->path, "%s", r->claimed);
    if (ok && sound && res.note[0]) iks_warnf(log, "recording %s: %s", r->path, res.note);
    if (ok) record_report(d, log, r->path, res.written, NULL);
    else record_report(d, log, r->path, res.written, iks_err_msg(&err));
    iks_err_clear(&err);
}

/* Starts a recording of w x h frames, with the microphone's sound where the toy listens to one and
 * the format has sound; false (reported) when the output cannot be opened */
static bool record_open(recorder *r, const iks_live_desc *d, iks_mics *mics, iks_logger *log, int w, int h)
{
    const iks_format *fmt;
    bool pattern = false;
    iks_err err = IKS_ERR_INIT;
    if (d->record && !iks_output_classify(d->record, 2, false, &fmt, &pattern, &err)) {
        record_report(d, log, d->record, 0, iks_err_msg(&err));
        iks_err_clear(&err);
        return false;
    }
    r->take++;
    record_name(r, d, pattern);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    iks_writer_desc wd = { .output = r->path, .width = w, .height = h, .fps = d->record_fps > 0 ? d->record_fps : 60,
                           .png_fast = true, .png_level = 1, .jobs = cores > 1 ? (int)(cores > 8 ? 8 : cores) : 1,
                           .depth = 8 };
    if (r->claiming) {
        wd.claim = numbered_name;
        wd.claim_user = &r->names;
        wd.claimed = r->claimed;
    }
    const iks_format *f = d->record ? fmt : iks_format_of(r->path, false);
    if (iks_mics_capturing(mics) && f && !f->audio)
        iks_warnf(log, "recording %s: this format has no sound track: the microphone is not in it (an .mp4, .webm or "
                  ".mkv has one)", r->path);
    else if (f && f->audio && iks_mics_track_begin(mics, r->path, wd.fps, log))
        wd.audio_after = iks_mics_track_path(mics);
    if ((pattern && !iks_output_check_writable(r->path, true, r->next_frame, &err)) || !iks_writer_open(&wd, &r->w, &err)) {
        iks_mics_track_end(mics);
        record_report(d, log, r->path, 0, iks_err_msg(&err));
        iks_err_clear(&err);
        r->w = NULL;
        return false;
    }
    r->on = true;
    r->w_px = w;
    r->h_px = h;
    if (!pattern) r->next_frame = 0;
    return true;
}

/* The back buffer as it is now (the toy drawn, no HUD yet) into the recording */
static void record_frame(recorder *r, const iks_live_desc *d, iks_mics *mics, iks_logger *log, int w, int h)
{
    if (!r->on) return;
    if (w != r->w_px || h != r->h_px) {
        char msg[PATH_MAX + 128];
        snprintf(msg, sizeof msg, "recording: the window was resized to %dx%d: %s ends here (V records again)", w, h,
                 r->path);
        iks_warnf(log, "%s", msg);
        record_close(r, d, mics, log);
        return;
    }
    int slot;
    uint8_t *px = iks_writer_acquire(r->w, &slot);
    if (px) iks_gpu_read_screen(w, h, px);
    if (!px || !iks_writer_submit(r->w, slot, r->next_frame++)) {
        record_close(r, d, mics, log); /* the writer says why */
        return;
    }
    iks_mics_track_frame(mics);
    r->frames++;
}

/* ---- the session's inputs (inputlog.c reads them) ------------------------------------------------- */

typedef struct {
    FILE *f;
    char *tmp;
    double start;
    long frames;
} input_rec;

static void inputs_open(input_rec *r, const iks_live_desc *d, const live *l, iks_logger *log)
{
    memset(r, 0, sizeof *r);
    if (!d->record_input) return;
    char msg[PATH_MAX + 160];
    if (iks_outfile_check(d->record_input) != 0) {
        snprintf(msg, sizeof msg, "%s", iks_outfile_strerror(errno));
        record_report(d, log, d->record_input, 0, msg);
        return;
    }
    int fd = iks_make_parent_dirs(d->record_input) ? iks_outfile_tmp_create(d->record_input, &r->tmp) : -1;
    if (fd < 0 || !(r->f = fdopen(fd, "w"))) {
        snprintf(msg, sizeof msg, "%s", strerror(errno));
        iks_outfile_tmp_discard(fd, &r->tmp);
        record_report(d, log, d->record_input, 0, msg);
        return;
    }
    r->start = iks_now();
    /* the path shown on one line: a newline in a name would forge a line that replay reads as an event */
    char shown[1024];
    iks_shown_text(shown, sizeof shown, l->path ? l->path : "<memory>", true);
    fprintf(r->f, "ikshade-input 1\n# %s\n", shown);
    for (int i = 0; i < d->toy.nsets; i++) fprintf(r->f, "set %s\n", d->toy.sets[i]);
    /* typed values as the same lines, each number the shortest text that reads back as it */
    for (int i = 0; i < d->toy.nvalues; i++) {
        const iks_value *v = &d->toy.values[i];
        fprintf(r->f, "set %.63s=", v->name);
        for (int c = 0; c < v->n && c < 4; c++) {
            char t[40];
            iks_double_text(v->v[c], t, sizeof t);
            fprintf(r->f, "%s%s", c ? "," : "", t);
        }
        fputc('\n', r->f);
    }
}

static double inputs_t(const input_rec *r) { return iks_now() - r->start; }

static void inputs_close(input_rec *r, const iks_live_desc *d, iks_logger *log)
{
    if (!r->f) return;
    bool ok = fflush(r->f) == 0 && !ferror(r->f);
    int fd = ok ? dup(fileno(r->f)) : -1;
    fclose(r->f);
    r->f = NULL;
    if (fd >= 0 && iks_outfile_tmp_publish(fd, r->tmp, d->record_input))
        record_report(d, log, d->record_input, r->frames, NULL);
    else {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", strerror(errno));
        if (fd < 0) iks_outfile_tmp_discard(-1, &r->tmp);
        record_report(d, log, d->record_input, 0, msg);
    }
    free(r->tmp);
    r->tmp = NULL;
}

/* A row of the panel changed: the toy gets the value, and a recording of the inputs the line
 * `u T NAME=V[,V..]` (inputlog.c), which render --input applies at the frame it happened */
static void panel_changed(live *l, input_rec *in, int r)
{
    const iks_panel_row *row = &l->panel->rows[r];
    if (l->toy) (void)panel_apply(l->toy, row, &l->e->log);
    if (in->f) {
        char set[600];
        iks_panel_setting(row, set, sizeof set);
        iks_fprintf_c(in->f, "u %.6f %s\n", inputs_t(in), set);
    }
}

/* C: the values as options, to the caller (or the logger), and onto the clipboard where we can */
static void panel_copy(const live *l, const iks_live_desc *d)
{
    char line[8192];
    iks_panel_set_line(l->panel, line, sizeof line);
    if (d->on_values) {
        /* the values themselves: the caller words them (the command line as its own options) */
        iks_value v[IKS_PANEL_MAX_ROWS];
        int n = 0;
        for (int r = 0; r < l->panel->nrows; r++) {
            const iks_panel_row *row = &l->panel->rows[r];
            if (!row->active) continue;
            v[n] = (iks_value){ .n = row->n, .type = row->type };
            snprintf(v[n].name, sizeof v[n].name, "%s", row->name);
            memcpy(v[n].v, row->v, sizeof v[n].v);
            n++;
        }
        d->on_values(d->user, v, n);
    } else if (d->on_params) d->on_params(d->user, line);
    else iks_logf(&l->e->log, IKS_LOG_INFO, "parameters: %s", *line ? line : "(none)");
    if (*line) (void)iks_glfw_set_clipboard(l->e->plat, line);
}

/* the HUD's and the panel's pixels per font unit, by the framebuffer's height */
static float hud_scale(int fh) { return fh >= 1400 ? 3.0f : fh >= 400 ? 2.0f : 1.0f; }

/* ---- the display going away ----------------------------------------------------------------------- */

typedef struct {
    recorder *rec;
    input_rec *inputs;
    iks_livecams **cams;
    iks_mics **mics;
    const iks_live_desc *d;
    iks_logger *log;
} display_lost;

/* The X server ended under the viewer: the process is about to end (iks_platform_on_display_lost);
 * what is being recorded is finished as a stop would finish it, so the video plays and says its frames */
static void on_display_lost(void *user)
{
    display_lost *l = user;
    iks_warnf(l->log, "the display went away (its connection was lost): the window is gone%s",
              l->rec->w || l->inputs->f ? "; finishing the recording" : "");
    record_close(l->rec, l->d, *l->mics, l->log);
    iks_livecams_free(*l->cams); /* its recordings' lines go into the input log */
    *l->cams = NULL;
    inputs_close(l->inputs, l->d, l->log);
}

/* ---- the loop ---------------------------------------------------------------------------------- */

typedef struct {
    float mouse[4];
    bool held, clicked; /* clicked: the press happened since the last frame */
} mouse_state;

/* shadertoy.com's mouse uniform: xy while held; zw the press; z > 0 while held; w > 0 on the press frame */
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

static void live_free(live *l)
{
    iks_toy_destroy(l->toy);
    free_files(l);
    free(l->files);
    iks_watch_destroy(l->watch);
    free(l->attempted);
    free(l->error);
    free(l->sets);
}

/* the HUD's text: figures, then the first lines of the error, each cut to fit */
static void hud_text(char *text, size_t cap, const live *l, const char *name, double fps, double frame_ms, double t,
                     long frame, bool paused, int fw, int fh, const float mouse[4], float scale)
{
    int k = iks_snprintf_c(text, cap, "%s\n%.1f fps  %.2f ms\n" IKS_U_NAME_TIME " %.3f  " IKS_U_NAME_FRAME " %ld%s\n%dx%d  " IKS_U_NAME_MOUSE " %.0f %.0f %.0f %.0f",
                     name, fps, frame_ms, t, frame, paused ? "  (paused)" : "", fw, fh, mouse[0], mouse[1], mouse[2],
                     mouse[3]);
    if (!l->error || k < 0 || (size_t)k + 2 >= cap) return;
    /* the error's lines wrapped to the window (stb_easy_font: at most 7 units a character) */
    int cols = (int)(((float)fw / scale - 16.0f) / 7.0f);
    text[k++] = '\n';
    iks_hud_error_lines(text + k, cap - (size_t)k, l->error, cols, MAX_ERR_LINES);
}

/* Between the steps of a slow Cube A frame (minutes on llvmpipe): the window's events are read, so that
 * the desktop does not mark it hung (they are acted on after the frame), and the caller's should_stop
 * (Ctrl-C in `ikshade view`) is asked, ending the session within a step rather than after the frame. */
typedef struct {
    iks_platform *p;
    const iks_live_desc *d;
    const iks_engine *e;
    bool stop;
} live_step;

static bool on_live_step(void *user, int part, int parts)
{
    (void)part, (void)parts;
    live_step *s = user;
    s->p->poll(s->p);
    if (s->d->should_stop && s->d->should_stop(s->d->user)) s->stop = true;
    /* should_stop may have used another engine, as at the top of the loop */
    iks_err err = IKS_ERR_INIT;
    if (!iks_engine_rebind(s->e, &err)) s->stop = true;
    iks_err_clear(&err);
    return !s->stop;
}

/* A recording into a file the toy reads (its shader, an #include, a texture) would replace what the
 * session is made of, and a session's inputs written over a file that is not an earlier recording of
 * them (notes, another toy's shader) would lose it: both are refused before the window opens. What
 * the toy reads is what it reads now; the includes a later save adds are not known yet. */
static bool live_spares_toy(const iks_live_desc *d, bool pattern, const char *shader_dir, iks_err *err)
{
    iks_reads r = { 0 };
    bool ok = iks_toy_desc_reads(&d->toy, shader_dir, &r, err);
    if (ok && d->record) ok = iks_output_spares(&r, "record", d->record, pattern, 0, LONG_MAX, "the recording", err);
    if (ok && d->record_input)
        ok = iks_output_spares(&r, "record_input", d->record_input, false, 0, 0, "the input recording", err);
    iks_reads_free(&r);
    struct stat st;
    if (ok && d->record_input && stat(d->record_input, &st) == 0 && S_ISREG(st.st_mode) &&
        !iks_input_log_replaceable(d->record_input)) {
        char q[320];
        snprintf(q, sizeof q, "'%.300s'", d->record_input);
        return iks_err_field(err, IKS_E_USAGE, "record_input", q, "not an input recording (its first line is not "
                             "'ikshade-input 1'): not replaced; name a new file or an earlier recording");
    }
    return ok;
}

/* Everything of a live run's description that needs no window: its fields and its toy's. shader_dir:
 * the demo shaders', for a description that names no toy. */
static bool live_check(const iks_live_desc *d, const char *shader_dir, iks_err *err)
{
    char v[64];
    iks_setting *s;
    if (!iks_toy_desc_sets(&d->toy, &s, err)) return false;
    free(s);
    iks_snprintf_c(v, sizeof v, "%g", d->time0);
    if (!(fabs(d->time0) <= 1e9)) /* render's bound: the time reaches the shader as a float */
        return iks_err_field(err, IKS_E_USAGE, "time0", v, "expected a finite number of seconds from -1e9 to 1e9");
    snprintf(v, sizeof v, "%ld", d->frames);
    if (d->frames < 0) return iks_err_field(err, IKS_E_USAGE, "frames", v, "expected a count of frames from 1 (0: until "
                                            "the window closes)");
    iks_snprintf_c(v, sizeof v, "%g", d->record_fps);
    /* render's lowest rate (1/fps within 1e9 s): below it a GIF's delay overflowed */
    if (!(d->record_fps == 0 || (d->record_fps >= 1e-9 && d->record_fps <= 1000)))
        return iks_err_field(err, IKS_E_USAGE, "record_fps", v, "expected a number from 1e-9 to 1000");
    bool pattern = false;
    if (d->record) {
        const iks_format *f;
        if (!iks_output_classify(d->record, 2, false, &f, &pattern, err)) return iks_err_rename_field(err, "record"), false;
        if (f->sink == IKS_SINK_RAW || f->sink == IKS_SINK_SOUND) {
            char q[320];
            snprintf(q, sizeof q, "'%.300s'", d->record);
            return iks_err_field(err, IKS_E_USAGE, "record", q, "%s", f->sink == IKS_SINK_RAW ? "raw frames need a fixed "
                                 "size; record a video or image files" : "a recording is frames, not sound");
        }
        /* one file cannot be both: the second written would replace the first (a pattern's frames are
         * numbered on from 0 while the session lasts) */
        long k;
        if (d->record_input && (pattern ? iks_pattern_frame_of(d->record, 0, LONG_MAX, d->record_input, &k)
                                        : iks_same_output(d->record, d->record_input))) {
            char q[320];
            snprintf(q, sizeof q, "'%.300s'", d->record_input);
            return iks_err_field(err, IKS_E_USAGE, "record_input", q, "the same file as the recording '%.300s': the "
                                 "one would replace the other; name two files", d->record);
        }
    }
    return !(d->record || d->record_input) || live_spares_toy(d, pattern, shader_dir, err);
}

/* A live description made with a header older than this one's iks_toy_desc (which gained values and
 * nvalues after 0.2.0) holds the shorter toy, and every member after it sits that much earlier. Such a
 * caller's struct_size is 0 (the first layout) or below this header's whole size, which IKS_DESC_SIZE
 * gives every caller of this header: its bytes are moved to this layout, the toy's zero-filled past
 * what it had, so that its own struct_size reads it. */
static const iks_live_desc *live_layout(const iks_live_desc *d, iks_live_desc *buf)
{
    size_t n;
    memcpy(&n, d, sizeof n);
    size_t have = n ? n : IKS_FIRST_LIVE_DESC, growth = sizeof(iks_toy_desc) - IKS_TOY_DESC_0;
    if (n >= sizeof *buf || have < IKS_FIRST_LIVE_DESC) return d; /* this layout, or refused as it is */
    size_t at = offsetof(iks_live_desc, toy) + IKS_TOY_DESC_0; /* where the caller's toy ended */
    memset(buf, 0, sizeof *buf);
    memcpy(buf, d, have < at ? have : at);
    if (have > at) memcpy((char *)buf + at + growth, (const char *)d + at, have - at);
    buf->struct_size = have + growth;
    return buf;
}

/* the live description and the toy's inside it, each by its own struct_size */
static bool take_live(const iks_live_desc *d, iks_live_desc *dc, iks_err *err)
{
    iks_live_desc moved;
    d = live_layout(d, &moved);
    if (!IKS_TAKE(iks_live_desc, d, dc, IKS_FIRST_LIVE_DESC + sizeof(iks_toy_desc) - IKS_TOY_DESC_0, err)) return false;
    iks_toy_desc toy;
    if (!IKS_TAKE(iks_toy_desc, &dc->toy, &toy, IKS_FIRST_TOY_DESC, err))
        return iks_err_rename_field(err, "toy.struct_size"), false;
    dc->toy = toy;
    return true;
}

iks_code iks_live_check(const iks_live_desc *d)
{
    if (!d) return iks_fail_usage("iks_live_check: desc is NULL");
    iks_err err = IKS_ERR_INIT;
    iks_live_desc dc;
    if (!take_live(d, &dc, &err)) return iks_publish(&err);
    return live_check(&dc, iks_find_shader_dir(), &err) ? IKS_OK : iks_publish(&err);
}

static iks_code live_run(iks_engine *e, const iks_live_desc *d);

/* the host contract: the caller's context as it was, on every return */
iks_code iks_live_run(iks_engine *e, const iks_live_desc *d)
{
    iks_err err = IKS_ERR_INIT;
    iks_live_desc dc;
    if (d && !take_live(d, &dc, &err)) return iks_publish(&err);
    if (d) d = &dc;
    if (!e) return live_run(e, d);
    if (!iks_engine_enter(e, &err)) return iks_publish(&err);
    iks_code c = live_run(e, d);
    iks_engine_leave(e);
    return c;
}

/* ---- the session: the loop's steps --------------------------------------------------------------- */

/* what the panel draws each frame, kept from frame to frame */
enum { PANEL_RECTS = 16 * IKS_PANEL_MAX_ROWS, PANEL_LABELS = 8 * IKS_PANEL_MAX_ROWS };

/* One live session: the toy, the window's and the loop's state, shared by the steps of the loop below
 * (one frame each time round). It lives on live_run's stack: l.panel and lost point into it. */
typedef struct {
    iks_engine *e;
    const iks_live_desc *d;
    iks_platform *p;
    live l;
    char dflt[PATH_MAX];      /* the demo shader's path when the desc names no toy (l.path may point here) */
    char name[1024];          /* the toy's, in the HUD and the title: on one line, as messages show it */
    iks_panel panel;
    iks_hud hud;
    bool have_hud;
    iks_hud_rect *prects;     /* the panel's rectangles and labels, drawn each frame */
    iks_hud_label *plabels;
    bool shift, ctrl;         /* held now: the panel's fine steps */
    mouse_state ms;
    double t;                 /* the frame's time */
    long frame;               /* the frame's number */
    bool paused, hud_on, want_shot, want_record_toggle;
    recorder rec;
    input_rec inputs;
    iks_livecams *cams;       /* the webcam channels' cameras, kept across reloads */
    iks_mics *mics;            /* the microphones the toy's mic channels capture (livemics.c) */
    display_lost lost;
    bool record_at_start;
    double last, title_at, fps, frame_ms, last_drawn;
    long title_draws;
    double pending_since, due; /* a save seen, reload at due (monotonic); 0: none */
    double compile_s, mtime;   /* the last reload's compile time and save time */
    bool present_wanted;       /* a reload to report once its first frame is on screen */
    double reload_save, reload_compile, first_draw;
    long drawn;
    bool quit, stepped;
    const char *why;           /* what ended the session, said with --log */
    long drawn_since_reload;   /* a new toy draws its buffers once even when paused */
    iks_audio_out *audio;
    bool audio_tried;          /* the output is opened once, when a toy first has sound */
    char title[PATH_MAX + 64];
    iks_err bind_err;          /* the engine could not be made current again: the session ends with it */
} session;

/* The toy's first build, before the loop. false (err set, nothing left to free) when there is nothing to
 * run: no toy to find, or one that failed with no file to watch for the save that would fix it. */
static bool session_open(session *s, iks_err *err)
{
    const iks_live_desc *d = s->d;
    live *l = &s->l;
    if (!iks_toy_desc_sets(&d->toy, &l->sets, err)) return false;
    l->nsets = l->sets ? iks_toy_desc_nsettings(&d->toy) : 0;
    l->path = iks_toy_desc_path(s->e, &d->toy, s->dflt, sizeof s->dflt, err);
    if (!l->path && !d->toy.source && !d->toy.json) {
        free(l->sets);
        return false;
    }
    if (d->toy.source || d->toy.json) l->path = NULL; /* text in memory: nothing on disk to watch */
    /* a newline in a file's name would be a second line of the HUD */
    iks_shown_text(s->name, sizeof s->name, l->path ? base_name(l->path) : d->toy.path ? base_name(d->toy.path) : "<memory>",
                   true);
    s->p->framebuffer_size(s->p, &l->w, &l->h);
    iks_panel_init(&s->panel);
    l->panel = &s->panel;
    if (l->w < 1 || l->h < 1)
        l->w = d->toy.width > 0 ? d->toy.width : IKS_DEFAULT_WIDTH, l->h = d->toy.height > 0 ? d->toy.height : IKS_DEFAULT_HEIGHT;
    if (l->path) {
        l->watch = iks_watch_create();
        if (!l->watch) iks_warnf(&s->e->log, "cannot watch files (%s): live reload is off", strerror(errno));
        /* watched before the first read, so that a save or a delete during the first build is seen, and
         * a main file that cannot be read at all is still watched for the save that fixes it */
        else if (!iks_watch_set(l->watch, (const char *const *)&l->path, 1) && errno != ENOENT)
            iks_warnf(&s->e->log, "cannot watch %s (%s): live reload is off", l->path, strerror(errno));
    }
    iks_code first;
    if (reload(l, &s->compile_s, &s->mtime, &first) != RL_OK && l->watch) {
        /* a toy broken from the start: stay open on a blank screen with the error in the HUD, so that
         * the user can fix it in the editor as with any later edit */
        iks_warnf(&s->e->log, "%s: nothing to show until a save compiles", l->path);
    } else if (!l->toy) {
        iks_err_set(err, first == IKS_OK ? IKS_E_COMPILE : first, "%s", l->error ? l->error : "cannot build the shader");
        live_free(l);
        return false;
    }
    return true;
}

/* What the loop holds beyond the toy: the HUD, the panel's lists, the clock, the input log, and the
 * recording's finish should the display go away */
static void session_begin(session *s)
{
    const iks_live_desc *d = s->d;
    s->have_hud = iks_hud_create(&s->hud);
    if (!s->have_hud) iks_warnf(&s->e->log, "the HUD could not be built; running without it");
    s->prects = malloc(sizeof *s->prects * PANEL_RECTS);
    s->plabels = malloc(sizeof *s->plabels * PANEL_LABELS);
    s->t = d->time0;
    s->paused = d->paused;
    s->hud_on = !d->hide_hud;
    inputs_open(&s->inputs, d, &s->l, &s->e->log);
    if (!(s->cams = iks_livecams_new(d->webcam, &s->e->log, s->inputs.f, d->record_input)))
        iks_warnf(&s->e->log, "out of memory: webcam channels stay black");
    if (!(s->mics = iks_mics_new(d->mic, s->inputs.f ? d->record_input : NULL)))
        iks_warnf(&s->e->log, "out of memory: microphone channels are silent");
    s->lost = (display_lost){ &s->rec, &s->inputs, &s->cams, &s->mics, d, &s->e->log };
    iks_platform_on_display_lost(on_display_lost, &s->lost);
    s->record_at_start = d->record != NULL;
    s->last = iks_now();
}

/* the viewer's own keys, pressed (a toy that reads the keyboard took the others before) */
static void viewer_key(session *s, const iks_event *ev)
{
    switch (ev->key) {
    case IKS_KEY_ESCAPE:
    case IKS_KEY_Q:
        s->quit = true;
        s->why = ev->key == IKS_KEY_Q ? "Q" : "Esc";
        break;
    case IKS_KEY_SPACE:
        if (!ev->repeat) s->paused = !s->paused;
        break;
    case IKS_KEY_R:
        if (!ev->repeat) s->t = s->d->time0, s->frame = 0;
        break;
    case IKS_KEY_LEFT:
        if (s->paused && s->frame > 0) s->t -= STEP, s->frame--, s->stepped = true;
        break;
    case IKS_KEY_RIGHT:
        if (s->paused) s->t += STEP, s->frame++, s->stepped = true;
        break;
    case IKS_KEY_F:
    case IKS_KEY_F11:
        if (!ev->repeat && s->p->toggle_fullscreen) s->p->toggle_fullscreen(s->p);
        break;
    case IKS_KEY_S:
        if (!ev->repeat) s->want_shot = true;
        break;
    case IKS_KEY_H:
        if (!ev->repeat) s->hud_on = !s->hud_on;
        break;
    case IKS_KEY_V:
        if (!ev->repeat) s->want_record_toggle = true;
        break;
    default:
        /* the panel's keys by their keyCode: P shows and hides it, C copies the values as
         * --set options, Backspace resets every value to its default */
        if (ev->repeat) break;
        if (ev->code == 'P') s->panel.shown = !s->panel.shown, s->panel.captured = false;
        else if (ev->code == 'C') panel_copy(&s->l, s->d);
        else if (ev->code == 8) {
            int changed[IKS_PANEL_MAX_ROWS];
            int nc = iks_panel_reset_all(&s->panel, changed);
            for (int i = 0; i < nc; i++) panel_changed(&s->l, &s->inputs, changed[i]);
        }
        break;
    }
}

/* a press on the shown panel, and the moves and release after it, are the panel's: the toy's iMouse
 * never sees them */
static void pointer_event(session *s, const iks_event *ev)
{
    bool fine = s->shift || s->ctrl;
    int changed = -1;
    if (ev->kind == IKS_EV_BUTTON && ev->down && !s->ms.held) {
        iks_panel_layout(&s->panel, s->l.w, s->l.h, hud_scale(s->l.h));
        if (!iks_panel_press(&s->panel, ev->x, ev->y, fine, &changed)) mouse_event(&s->ms, ev);
    } else if (ev->kind == IKS_EV_MOVE && s->panel.captured) changed = iks_panel_move(&s->panel, ev->x, fine);
    else if (!(ev->kind == IKS_EV_BUTTON && !ev->down && iks_panel_release(&s->panel))) mouse_event(&s->ms, ev);
    if (changed >= 0) panel_changed(&s->l, &s->inputs, changed);
}

/* one event of the window: to the toy's keyboard, the input log, the viewer's keys, the panel or iMouse */
static void on_event(session *s, const iks_event *ev)
{
    /* a toy that reads the keyboard gets the keys; the viewer's own then need Ctrl */
    bool kb = s->l.toy && s->l.toy->gl.keyboard;
    bool to_shader = ev->kind == IKS_EV_KEY && kb && !ev->ctrl && ev->key != IKS_KEY_ESCAPE && ev->key != IKS_KEY_F11;
    if (ev->kind == IKS_EV_KEY && kb && (to_shader || !ev->down)) iks_gltoy_key(&s->l.toy->gl, ev->code, ev->down);
    /* the modifiers as their own keys (16 Shift, 17 Ctrl): the event of a button has none */
    if (ev->kind == IKS_EV_KEY && ev->code == 16) s->shift = ev->down;
    if (ev->kind == IKS_EV_KEY && ev->code == 17) s->ctrl = ev->down;
    if (s->inputs.f && ev->kind == IKS_EV_KEY && !ev->repeat && ev->code >= 0 && ev->code < 256)
        iks_fprintf_c(s->inputs.f, "k %.6f %d %d\n", inputs_t(&s->inputs), ev->code, ev->down ? 1 : 0);
    if (ev->kind == IKS_EV_CLOSE) s->quit = true, s->why = "the window was closed";
    else if (to_shader) return;
    else if (ev->kind == IKS_EV_KEY && ev->down) viewer_key(s, ev);
    else if (ev->kind == IKS_EV_BUTTON || ev->kind == IKS_EV_MOVE) pointer_event(s, ev);
    else mouse_event(&s->ms, ev);
}

/* every event waiting; how many there were */
static int read_events(session *s)
{
    iks_event ev;
    int nevents = 0;
    while (s->p->next_event(s->p, &ev)) {
        nevents++;
        on_event(s, &ev);
    }
    return nevents;
}

/* live reload: a finished save reloads now; a write still in progress waits for quiet */
static void watch_reload(session *s)
{
    const iks_live_desc *d = s->d;
    double tnow = iks_now();
    iks_watch_news news = s->l.watch ? iks_watch_poll(s->l.watch) : IKS_WATCH_NONE;
    if (news != IKS_WATCH_NONE) {
        if (!s->pending_since) s->pending_since = now_real();
        s->due = news == IKS_WATCH_SETTLED ? tnow : tnow + DEBOUNCE;
    }
    if (!s->due || tnow < s->due) return;
    double seen = s->pending_since;
    s->due = 0;
    s->pending_since = 0;
    iks_code code;
    reload_result r = reload(&s->l, &s->compile_s, &s->mtime, &code);
    if (r == RL_SAME) return;
    /* the save's own time when the file has a fresh one; a file renamed in keeps an old
     * mtime, and then the moment we saw it is the best we know */
    s->reload_save = s->mtime > seen - 1.0 && s->mtime <= now_real() ? s->mtime : seen;
    s->reload_compile = s->compile_s;
    if (s->inputs.f) iks_fprintf_c(s->inputs.f, "r %.6f %s\n", inputs_t(&s->inputs), r == RL_OK ? "ok" : "error");
    if (r == RL_OK) s->present_wanted = true, s->drawn_since_reload = 0;
    else if (d->on_reload) {
        iks_reload_info ri = { .ok = false, .path = s->l.path, .compile_ms = 1e3 * s->compile_s };
        d->on_reload(d->user, &ri);
    }
}

/* Paused with nothing new (no input, reload, step, screenshot or recording): a draw would make the
 * picture already on screen, so neither draw nor swap, and wait a little instead of spinning a core at
 * hundreds of frames a second. Redrawn now and then all the same, in case the window system lost the
 * window's contents. */
static bool idle(const session *s, int nevents, int fw, int fh)
{
    return s->paused && !nevents && !s->stepped && !s->want_shot && !s->want_record_toggle && !s->record_at_start &&
           !(s->rec.w && s->rec.on) && !s->due && !s->present_wanted && s->drawn_since_reload > 0 && !s->d->frames &&
           fw == s->l.w && fh == s->l.h && iks_now() - s->last_drawn < IDLE_REDRAW;
}

/* The toy into the window (its buffers only while running, stepped, or new), or a blank for a sound
 * shader alone. false when a step of a slow Cube A said stop. */
static bool draw_toy(session *s, int fw, int fh, iks_frame *f)
{
    live *l = &s->l;
    iks_target screen = { .fbo = 0, .w = fw, .h = fh, .fmt = IKS_RGBA8 };
    iks_err err = IKS_ERR_INIT;
    if (l->toy && (fw != l->toy->gl.w || fh != l->toy->gl.h) && !iks_gltoy_resize(&l->toy->gl, fw, fh, &err)) {
        iks_warnf(&s->e->log, "resize: %s", iks_err_msg(&err));
        iks_err_clear(&err);
    }
    l->w = fw, l->h = fh;
    /* paused, the buffers hold still: only a step (or a new program) moves them on */
    /* a sound shader alone has no picture: a blank window while its sound plays */
    bool picture = l->toy && !l->toy->gl.image_less;
    /* in steps only for a toy's first frame and after a slow one: each step waits for the GPU,
     * which a fast toy on a GPU would feel every frame. Whether Cube A is cut into strips is the
     * draw's own choice, from its last timing, so a toy that turns slow gets them again */
    live_step ls = { .p = s->p, .d = s->d, .e = s->e };
    bool steps = picture && (s->drawn_since_reload == 0 || s->frame_ms >= 1e3 * SLOW_FRAME) &&
                 iks_gltoy_has_cube(&l->toy->gl);
    if (picture && (!s->paused || s->stepped || s->drawn_since_reload == 0)) {
        if (!steps) iks_gltoy_draw(&l->toy->gl, &screen, f);
        else if (!iks_gltoy_draw_steps(&l->toy->gl, &screen, f, 0, on_live_step, &ls)) return false;
    } else if (picture) iks_gltoy_redraw_image(&l->toy->gl, &screen, f);
    else iks_gpu_clear_screen(fw, fh, (const float[4]){ 0.1f, 0.1f, 0.11f, 1.0f });
    return true;
}

/* the frame as it is on screen taken by a screenshot asked for, and by the recording (started, paused
 * or resumed here at a frame's edge) */
static void take_frame(session *s, int fw, int fh)
{
    if (s->want_shot) {
        screenshot(&s->l, fw, fh);
        s->want_shot = false;
    }
    if (s->record_at_start || s->want_record_toggle) {
        if (s->rec.w && !s->record_at_start) s->rec.on = !s->rec.on;  /* pause, resume */
        else if (!s->rec.w) (void)record_open(&s->rec, s->d, s->mics, &s->e->log, fw, fh);
        s->record_at_start = s->want_record_toggle = false;
    }
    record_frame(&s->rec, s->d, s->mics, &s->e->log, fw, fh);
}

/* the HUD: its figures and error, the panel's hint while hidden, the recording's state */
static void draw_hud(session *s, int fw, int fh, const float mouse[4])
{
    char text[4096];
    float scale = hud_scale(fh);
    hud_text(text, sizeof text, &s->l, s->name, s->fps, s->frame_ms, s->t, s->frame, s->paused, fw, fh, mouse, scale);
    if (!s->panel.shown && s->panel.nrows) {
        size_t k = strlen(text);
        snprintf(text + k, sizeof text - k, "\nP: %d parameter%s", s->panel.nrows, s->panel.nrows == 1 ? "" : "s");
    }
    if (s->rec.w) {
        size_t k = strlen(text);
        snprintf(text + k, sizeof text - k, "\n%s %ld  %.200s", s->rec.on ? "REC" : "rec paused", s->rec.frames, s->rec.path);
    }
    iks_livecams_hud(s->cams, text, sizeof text);
    char mics[1024];
    iks_mics_hud(s->mics, mics, sizeof mics);
    if (mics[0]) {
        size_t k = strlen(text);
        snprintf(text + k, sizeof text - k, "\n%s", mics);
    }
    iks_hud_draw(&s->hud, text, fw, fh, scale);
}

/* One frame at fw x fh: the toy, what takes the frame (screenshot, recording), then the HUD and the panel
 * over it, which neither takes. false when a step of the toy's draw said stop. */
static bool draw_frame(session *s, int fw, int fh)
{
    iks_frame_info fi = { .time = s->t, .frame = s->frame, .time_delta = s->paused ? 0.0 : fmax(s->frame_ms, 0.0) / 1e3,
                          .frame_rate = s->fps, .real_date = true };
    memcpy(fi.mouse, s->ms.mouse, sizeof fi.mouse);
    if (!s->ms.clicked && fi.mouse[3] > 0) fi.mouse[3] = -fi.mouse[3];
    iks_frame f;
    iks_frame_from_info(&f, &fi);
    double t_in = s->inputs.f ? inputs_t(&s->inputs) : 0;
    if (s->inputs.f) {
        iks_fprintf_c(s->inputs.f, "f %.6f %.6f %d %d %.9g %.9g %.9g %.9g\n", t_in, s->t, fw, fh, fi.mouse[0],
                fi.mouse[1], fi.mouse[2], fi.mouse[3]);
        s->inputs.frames++;
    }
    iks_livecams_step(s->cams, s->l.toy ? &s->l.toy->gl : NULL, t_in);
    double t_draw = iks_now();
    if (!draw_toy(s, fw, fh, &f)) return false;
    s->stepped = false;
    s->drawn_since_reload++;
    if (s->present_wanted && s->d->measure) {
        /* drivers finish compiling at the first draw (llvmpipe JITs the shader inside the draw
         * call): that time is compile time too, measured apart from the latency we control */
        iks_gpu_finish();
        s->first_draw = iks_now() - t_draw;
    }
    take_frame(s, fw, fh);
    if (s->hud_on && s->have_hud) draw_hud(s, fw, fh, fi.mouse);
    /* the panel, with or without the HUD (H hides the figures, P the panel); like the HUD, after
     * the screenshot and the recording took the frame */
    if (s->panel.shown && s->have_hud && s->prects && s->plabels) {
        int nr, nl;
        iks_panel_layout(&s->panel, fw, fh, hud_scale(fh));
        iks_panel_draw_list(&s->panel, s->prects, PANEL_RECTS, &nr, s->plabels, PANEL_LABELS, &nl);
        iks_hud_draw_items(&s->hud, s->prects, nr, s->plabels, nl, fw, fh, hud_scale(fh));
    }
    return true;
}

/* sound with the picture: at the frame's time, silent while paused */
static void play_sound(session *s)
{
    bool sound = s->l.toy && !s->d->mute && iks_gltoy_has_audio(&s->l.toy->gl);
    if (sound && !s->audio_tried) {
        iks_err why = IKS_ERR_INIT;
        s->audio_tried = true;
        if (!(s->audio = iks_audio_out_open(&why)))
            iks_warnf(&s->e->log, "no sound: %s (the music channels still move the picture)", iks_err_msg(&why));
        iks_err_clear(&why);
    }
    if (s->audio) iks_audio_out_play(s->audio, s->t, sound && !s->paused, iks_gltoy_audio, sound ? &s->l.toy->gl : NULL);
}

/* a reload's first frame is on screen: the caller hears of it, with the figures of --measure */
static void report_reload(session *s)
{
    const iks_live_desc *d = s->d;
    if (!s->present_wanted) return;
    s->present_wanted = false;
    if (!d->on_reload) return;
    iks_reload_info ri = { .ok = true, .path = s->l.path, .compile_ms = 1e3 * s->reload_compile };
    if (d->measure) {
        /* on screen: the swap has been issued; finish so the figure includes the draw */
        iks_gpu_finish();
        ri.first_draw_ms = 1e3 * s->first_draw;
        ri.latency_ms = 1e3 * (now_real() - s->reload_save);
        ri.gl_objects = iks_gpu_live_objects(4096);
        ri.rss_kb = rss_kb();
    }
    d->on_reload(d->user, &ri);
}

/* After the swap: the pace, the clock and the toy's time, and the window's title */
static void tick(session *s)
{
    /* vsync requested but not honoured (Xvfb, VNC, some drivers return from the swap at once):
     * hold to MAX_FPS rather than spin a core on frames no display shows */
    if (!s->d->no_vsync_cap) {
        double spare = 1.0 / MAX_FPS - (iks_now() - s->last);
        if (spare > 0) nanosleep(&(struct timespec){ 0, (long)(spare * 1e9) }, NULL);
    }
    double t1 = iks_now(), dt = t1 - s->last;
    s->last = t1;
    s->frame_ms = 1e3 * dt;
    s->fps = s->fps > 0 ? 0.9 * s->fps + 0.1 / fmax(dt, 1e-6) : 1.0 / fmax(dt, 1e-6);
    if (!s->paused) {
        s->t += dt;
        s->frame++;
    }
    s->title_draws++;
    if (t1 - s->title_at > 0.5 && s->p->set_title) {
        /* frames drawn since the last title, not the smoothed rate: idle and paused, that is a few */
        double rate = s->title_at > 0 ? s->title_draws / (t1 - s->title_at) : s->fps;
        s->title_at = t1;
        s->title_draws = 0;
        iks_snprintf_c(s->title, sizeof s->title, "%s - %.0f fps%s%s", s->name, rate, s->paused ? " (paused)" : "",
                 s->l.error ? " - error" : "");
        s->p->set_title(s->p, s->title);
    }
}

/* The session's end: recordings finished, everything freed, and its outcome */
static iks_code session_end(session *s)
{
    const iks_live_desc *d = s->d;
    iks_engine *e = s->e;
    if (d->measure)
        iks_logf(&e->log, IKS_LOG_DIAGNOSTICS, "view: ended by %s", s->why ? s->why : d->frames && s->drawn >= d->frames ? "its frames" : "a signal or the embedding program");
    iks_audio_out_close(s->audio);
    iks_platform_on_display_lost(NULL, NULL);
    record_close(&s->rec, d, s->mics, &e->log);
    iks_livecams_free(s->cams); /* before the input log closes: its recordings' lines go there */
    s->cams = NULL;
    iks_mics_free(s->mics, &e->log);
    inputs_close(&s->inputs, d, &e->log);
    if (s->have_hud) iks_hud_destroy(&s->hud);
    free(s->prects);
    free(s->plabels);
    if (s->bind_err.code != IKS_OK) {
        live_free(&s->l);
        return iks_publish(&s->bind_err);
    }
    /* a run of --frames N (a script's) that never had anything to show failed, as a render would */
    if (d->frames && !s->l.toy && s->l.error) {
        iks_err err = IKS_ERR_INIT;
        iks_err_set(&err, s->l.error_code != IKS_OK ? s->l.error_code : IKS_E_COMPILE, "%s", s->l.error);
        live_free(&s->l);
        return iks_publish(&err);
    }
    live_free(&s->l);
    return IKS_OK;
}

static iks_code live_run(iks_engine *e, const iks_live_desc *d)
{
    if (!e || !d) return iks_fail_usage("iks_live_run: engine and desc must not be NULL");
    iks_err checked = IKS_ERR_INIT;
    if (!live_check(d, e->shader_dir, &checked)) return iks_publish(&checked); /* d: iks_live_run's copy */
    iks_platform *p = e->plat;
    if (!p || !p->swap || !p->poll || !p->next_event || !p->framebuffer_size)
        return iks_fail_usage("iks_live_run: the engine has no window (create it with iks_engine_desc.window)");
    iks_err err = IKS_ERR_INIT;
    session s = { .e = e, .d = d, .p = p, .l = { .e = e, .d = d }, .bind_err = IKS_ERR_INIT };
    if (!session_open(&s, &err)) return iks_publish(&err);
    session_begin(&s);
    while (!s.quit && !(d->should_stop && d->should_stop(d->user))) {
        /* the caller's callbacks (should_stop, on_reload, on_record...) may have used another engine */
        if (!iks_engine_rebind(e, &s.bind_err)) break;
        p->poll(p);
        int nevents = read_events(&s);
        if (s.quit) break;
        watch_reload(&s);
        /* every time round, drawn or idle: the capture's queue stays short and the recording whole */
        iks_mics_pump(s.mics, s.l.toy ? &s.l.toy->gl : NULL, s.inputs.f, s.inputs.f ? inputs_t(&s.inputs) : 0, &e->log);
        int fw, fh;
        p->framebuffer_size(p, &fw, &fh);
        if (idle(&s, nevents, fw, fh)) {
            nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
            continue;
        }
        s.last_drawn = iks_now();
        if (fw > 0 && fh > 0 && !draw_frame(&s, fw, fh)) break;
        play_sound(&s);
        p->swap(p);
        s.ms.clicked = false;
        report_reload(&s);
        tick(&s);
        if (d->frames && ++s.drawn >= d->frames) break;
    }
    return session_end(&s);
}
