/* livecams.c: the viewer's cameras (see livecams.h).
 * A capture belongs to the session, not to the toy: a reload keeps the camera running (an artist's save
 * must not blink the picture or re-open the device), and a new version of the toy is given the newest
 * frame at its first draw. The recording is made from what the channels were fed, at the draws, so it
 * is what the viewer showed: a video of constant rate REC_FPS whose frame k is the frame shown at the
 * last draw before T0 + (k + 1) / REC_FPS; a lost camera held, so the file's time stays the session's
 * time less T0, the rule `render --input` replays it by (a video channel played once from T0).
 * What it does not do: capture (src/media/capture_video.c) or upload (src/gpu/livecam.c). */
#include "engine/livecams.h"

#include "base/buf.h"
#include "base/strutil.h"
#include "engine/writer.h"
#include "media/capture_video.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CAMS 8
#define REC_FPS 30.0 /* a webcam's usual rate: above it frames repeat, below it the odd one is dropped */
/* lossless RGB: the replay reads back exactly the pixels the viewer uploaded */
#define REC_ARGS "-c:v ffv1 -level 3 -pix_fmt bgr0"

typedef struct {
    char *device;            /* NULL: the first camera */
    iks_vcap *cap;
    long seq, seen;          /* the capture's last frame taken, its last state said */
    bool up;
    char line[320];          /* its state, in the HUD while it is not capturing */
    uint8_t *cur;            /* the frame fed now, top row first */
    size_t cur_cap;
    int w, h;
    long cur_seq;            /* frames taken */
    const iks_gltoy *fed_gl; /* the toy fed last (a new version is fed the frame at once) */
    /* the recording */
    iks_writer *wr;
    bool rec_over;           /* one was made (or failed): none again this session */
    double t0;
    long next;               /* the next slot to write */
    int rw, rh;
    uint8_t *hold;           /* what the current slot holds, bottom row first (as the writer takes it) */
    size_t hold_cap;
    unsigned channels;       /* bit p*4+c: channels shown from it while recording (their c lines) */
    char first_name[PATH_MAX], claimed[PATH_MAX];
    int index;               /* 1, 2...: the video's name */
} cam;

struct iks_livecams {
    char *dflt;
    iks_logger log;
    FILE *inputs;
    const char *path;
    cam cams[MAX_CAMS];
    int n;
    bool full_said;
};

iks_livecams *iks_livecams_new(const char *dflt, const iks_logger *log, FILE *inputs, const char *path)
{
    iks_livecams *lc = calloc(1, sizeof *lc);
    if (!lc) return NULL;
    if (dflt && *dflt && !(lc->dflt = strdup(dflt))) {
        free(lc);
        return NULL;
    }
    lc->log = *log;
    lc->inputs = path ? inputs : NULL;
    lc->path = path;
    return lc;
}

static bool same_device(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

static cam *cam_of(iks_livecams *lc, const char *device)
{
    for (int i = 0; i < lc->n; i++)
        if (same_device(lc->cams[i].device, device)) return &lc->cams[i];
    if (lc->n == MAX_CAMS) {
        if (!lc->full_said) iks_warnf(&lc->log, "webcam %s: more than %d cameras at once; it stays black", device ? device : "", MAX_CAMS);
        lc->full_said = true;
        return NULL;
    }
    cam *k = &lc->cams[lc->n];
    memset(k, 0, sizeof *k);
    iks_err e = IKS_ERR_INIT;
    if ((device && !(k->device = strdup(device))) || !(k->cap = iks_vcap_open(device, &e))) {
        iks_warnf(&lc->log, "webcam %s: %s", device ? device : "", e.code != IKS_OK ? iks_err_msg(&e) : "out of memory");
        iks_err_clear(&e);
        free(k->device);
        return NULL;
    }
    lc->n++;
    k->index = lc->n;
    return k;
}

static void take(void *user, const uint8_t *rgba, int w, int h)
{
    cam *k = user;
    if (!IKS_GROW(k->cur, (size_t)w * (size_t)h * 4, k->cur_cap)) return;
    memcpy(k->cur, rgba, (size_t)w * (size_t)h * 4);
    k->w = w, k->h = h;
    k->cur_seq++;
}

/* ---- the recording ----------------------------------------------------------------------------- */

/* the video beside the log: LOG's name without its extension, -webcam.mkv (-webcam2 for a second
 * camera), a take number when that is there (never replacing a file) */
static bool rec_name(void *user, int attempt, char *buf, size_t n)
{
    const cam *k = user;
    const char *log = k->first_name;
    const char *slash = strrchr(log, '/');
    const char *dot = strrchr(slash ? slash : log, '.');
    int stem = dot ? (int)(dot - log) : (int)strlen(log);
    char idx[16] = "", take[16] = "";
    if (k->index > 1) snprintf(idx, sizeof idx, "%d", k->index);
    if (attempt > 0) snprintf(take, sizeof take, "-%d", attempt + 1);
    int r = snprintf(buf, n, "%.*s-webcam%s%s.mkv", stem, log, idx, take);
    return attempt < 1000 && r >= 0 && (size_t)r < n;
}

static void rec_fail(iks_livecams *lc, cam *k, const char *why)
{
    iks_warnf(&lc->log, "webcam %s: its recording stops: %s", k->device ? k->device : "", why);
    iks_err e = IKS_ERR_INIT;
    (void)iks_writer_close(k->wr, false, NULL, &e);
    iks_err_clear(&e);
    k->wr = NULL;
    k->channels = 0; /* no line names a file that is not there */
}

static void rec_start(iks_livecams *lc, cam *k, double t)
{
    k->rec_over = true;
    snprintf(k->first_name, sizeof k->first_name, "%s", lc->path);
    char out[PATH_MAX];
    if (strpbrk(lc->path, "\n\r")) {
        /* its line in the log would be two lines */
        iks_warnf(&lc->log, "webcam %s: not recorded: the log's name holds a line break", k->device ? k->device : "");
        return;
    }
    if (!rec_name(k, 0, out, sizeof out)) return;
    iks_writer_desc wd = { .output = out, .width = k->w, .height = k->h, .fps = REC_FPS, .jobs = 1, .depth = 8,
                           .ffmpeg_args = REC_ARGS, .claim = rec_name, .claim_user = k, .claimed = k->claimed };
    iks_err e = IKS_ERR_INIT;
    if (!iks_writer_open(&wd, &k->wr, &e)) {
        iks_warnf(&lc->log, "webcam %s: not recorded: %s", k->device ? k->device : "", iks_err_msg(&e));
        iks_err_clear(&e);
        k->wr = NULL;
        return;
    }
    k->t0 = t, k->next = 0, k->rw = k->w, k->rh = k->h;
}

/* the frame fed now held (bottom row first) for the slot it falls in */
static bool rec_hold(cam *k)
{
    size_t row = (size_t)k->w * 4;
    if (!IKS_GROW(k->hold, row * (size_t)k->h, k->hold_cap)) return false;
    for (int y = 0; y < k->h; y++) memcpy(k->hold + (size_t)y * row, k->cur + (size_t)(k->h - 1 - y) * row, row);
    return true;
}

static bool rec_submit(cam *k)
{
    int slot;
    uint8_t *px = iks_writer_acquire(k->wr, &slot);
    if (!px) return false;
    memcpy(px, k->hold, (size_t)k->rw * (size_t)k->rh * 4);
    return iks_writer_submit(k->wr, slot, k->next++);
}

/* The slots before t's hold what the last draw before them showed; the slot of t holds this draw's
 * frame until a later draw in it, or the end */
/* The recording's last slot written and its file closed (claimed under its name); a failure said once,
 * and its channels get no line */
static void rec_close(iks_livecams *lc, cam *k)
{
    iks_err e = IKS_ERR_INIT;
    bool ok = rec_submit(k);
    k->claimed[0] = '\0';
    if (!iks_writer_close(k->wr, ok, NULL, &e) || !ok || !k->claimed[0]) {
        iks_warnf(&lc->log, "webcam %s: its recording failed: %s", k->device ? k->device : "",
                  e.code != IKS_OK ? iks_err_msg(&e) : "the video could not be written");
        k->channels = 0;
    }
    iks_err_clear(&e);
    k->wr = NULL;
}

static void rec_step(iks_livecams *lc, cam *k, double t, bool fresh)
{
    if (!k->wr && !k->rec_over) rec_start(lc, k, t);
    if (!k->wr) return;
    long slot = (long)floor((t - k->t0) * REC_FPS + 1e-9);
    if (k->next == 0 && !k->hold && !rec_hold(k)) return rec_fail(lc, k, "out of memory");
    while (k->next < slot)
        if (!rec_submit(k)) return rec_fail(lc, k, "the video could not be written");
    if (fresh && (k->w != k->rw || k->h != k->rh)) {
        /* what was recorded stays, and replays up to here (its last frame held after) */
        iks_warnf(&lc->log, "webcam %s: the camera's size changed to %dx%d: its recording ends here",
                  k->device ? k->device : "", k->w, k->h);
        rec_close(lc, k);
        return;
    }
    if (fresh && !rec_hold(k)) rec_fail(lc, k, "out of memory");
}

/* the recording finished (the last slot written) and its channels' lines into the input log */
static void rec_end(iks_livecams *lc, cam *k)
{
    if (k->wr) {
        rec_close(lc, k);
    }
    if (!k->channels || !k->claimed[0] || !lc->inputs) return;
    const char *slash = strrchr(k->claimed, '/');
    for (int b = 0; b < IKS_PASSES * 4; b++)
        if (k->channels & (1u << b))
            iks_fprintf_c(lc->inputs, "c %.6f %s %d %s\n", k->t0, iks_pass_kind_at(b / 4)->word, b % 4,
                          slash ? slash + 1 : k->claimed);
}

/* ---- each draw --------------------------------------------------------------------------------- */

static void say_state(iks_livecams *lc, cam *k)
{
    char line[sizeof k->line];
    bool up;
    if (!iks_vcap_status(k->cap, &k->seen, line, sizeof line, &up)) return;
    k->up = up;
    snprintf(k->line, sizeof k->line, "%s", line);
    iks_logf(&lc->log, up ? IKS_LOG_INFO : IKS_LOG_WARN, "%s", line);
}

void iks_livecams_step(iks_livecams *lc, iks_gltoy *gl, double t)
{
    if (!lc) return;
    bool fresh[MAX_CAMS] = { false }, asked[MAX_CAMS] = { false };
    for (int p = 0; gl && p < IKS_PASSES; p++)
        for (int c = 0; c < 4; c++) {
            if (gl->in[p][c].kind != IKS_IN_WEBCAM || !gl->live[p][c]) continue;
            cam *k = cam_of(lc, gl->in[p][c].path ? gl->in[p][c].path : lc->dflt);
            if (!k) continue;
            int i = (int)(k - lc->cams);
            if (!asked[i]) fresh[i] = iks_vcap_take(k->cap, &k->seq, take, k), asked[i] = true;
            /* a new frame, or a new version of the toy that has none yet */
            if (!k->cur_seq || (!fresh[i] && k->fed_gl == gl)) continue;
            iks_err e = IKS_ERR_INIT;
            if (!iks_livein_frame(gl, p, c, k->cur, k->w, k->h, &e)) iks_warnf(&lc->log, "%s", iks_err_msg(&e));
            iks_err_clear(&e);
            /* a channel replays one file: after a save moved it to another camera, that one's */
            for (int j = 0; lc->inputs && j < lc->n; j++) lc->cams[j].channels &= ~(1u << (p * 4 + c));
            if (lc->inputs) k->channels |= 1u << (p * 4 + c);
        }
    for (int i = 0; i < lc->n; i++) {
        cam *k = &lc->cams[i];
        say_state(lc, k);
        if (k->cur_seq && lc->inputs && k->channels) rec_step(lc, k, t, fresh[i]);
        if (asked[i]) k->fed_gl = gl;
    }
}

void iks_livecams_hud(const iks_livecams *lc, char *text, size_t cap)
{
    for (int i = 0; lc && i < lc->n; i++) {
        const cam *k = &lc->cams[i];
        size_t n = strlen(text);
        if (!k->up && k->line[0] && n + 1 < cap) snprintf(text + n, cap - n, "\n%s", k->line);
    }
}

void iks_livecams_free(iks_livecams *lc)
{
    if (!lc) return;
    for (int i = 0; i < lc->n; i++) {
        cam *k = &lc->cams[i];
        /* the camera first: nothing captured after the recording's end */
        iks_vcap_close(k->cap);
        rec_end(lc, k);
        free(k->device);
        free(k->cur);
        free(k->hold);
    }
    free(lc->dflt);
    free(lc);
}
