/* livemics.c: see livemics.h. */
#include "engine/livemics.h"

#include "base/strutil.h"
#include "io/outfile.h"
#include "media/capture_audio.h"
#include "toy/spec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* devices at once: a toy has at most IKS_PASSES x 4 channels, and artists use one or two */
#define MAX_MICS 8

typedef struct {
    char *device;                   /* NULL: the default source */
    iks_capture_audio *cap;         /* NULL: it could not start (said once) */
    FILE *wav;                      /* the recording, NULL: none */
    char wav_name[PATH_MAX];        /* its name beside the log */
    double t0;                      /* the session's second its sample 0 was captured at */
    uint32_t frames;                /* samples written */
    bool logged[IKS_PASSES][4];     /* `c` lines written */
    char news[300];                 /* the last change of state, shown while the device is away */
} mic;

/* the newest sound waiting for the recording's next frame: the backlog bounds (in samples) keep the
 * sound within 0.1 s of the picture; the ring holds what a stall (a compile) brings at once, newest */
#define TRACK_RING 8192
#define TRACK_HIGH (IKS_CAPTURE_RATE / 10)
#define TRACK_LOW (IKS_CAPTURE_RATE / 20)

typedef struct {
    char *tmp;                      /* the WAV's temporary name; NULL: no track */
    FILE *f;
    double fps;
    long frames;                    /* frames recorded */
    uint32_t samples;               /* samples written */
    bool failed;                    /* a write failed: finish says so */
    float ring[TRACK_RING];
    size_t head, len;               /* the oldest waiting sample, and how many */
} track;

struct iks_mics {
    char *dflt, *log_path;
    mic m[MAX_MICS];
    int n;
    track tr;                       /* the screen recording's sound: m[0]'s */
};

iks_mics *iks_mics_new(const char *dflt, const char *log_path)
{
    iks_mics *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    if ((dflt && *dflt && !(m->dflt = strdup(dflt))) || (log_path && !(m->log_path = strdup(log_path)))) {
        iks_mics_free(m, NULL);
        return NULL;
    }
    return m;
}

static bool same_device(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

/* WAV: 32-bit float mono at 44.1 kHz, the samples exactly as the channel got them. The sizes are
 * unknown until the end (0xFFFFFFFF meanwhile, which readers take as "to the end of the file"), so
 * that a session that crashed still leaves a readable file. */
static void wav_header(FILE *f, uint32_t frames)
{
    uint32_t data = frames == UINT32_MAX ? UINT32_MAX : frames * 4;
    uint32_t riff = data == UINT32_MAX ? UINT32_MAX : 36 + 14 + data; /* fmt 18 bytes and a fact chunk */
    uint8_t h[58];
    memcpy(h, "RIFF", 4), memcpy(h + 4, &riff, 4), memcpy(h + 8, "WAVEfmt ", 8);
    uint32_t fmt_len = 18, rate = IKS_CAPTURE_RATE, bps = IKS_CAPTURE_RATE * 4;
    uint16_t tag = 3, chans = 1, align = 4, bits = 32, ext = 0;
    memcpy(h + 16, &fmt_len, 4), memcpy(h + 20, &tag, 2), memcpy(h + 22, &chans, 2), memcpy(h + 24, &rate, 4);
    memcpy(h + 28, &bps, 4), memcpy(h + 32, &align, 2), memcpy(h + 34, &bits, 2), memcpy(h + 36, &ext, 2);
    uint32_t fact_len = 4, nf = frames == UINT32_MAX ? 0 : frames;
    memcpy(h + 38, "fact", 4), memcpy(h + 42, &fact_len, 4), memcpy(h + 46, &nf, 4);
    memcpy(h + 50, "data", 4), memcpy(h + 54, &data, 4);
    fwrite(h, 1, sizeof h, f);
}

/* The recording of microphone k beside the log: LOG's name without its extension, "-micK.wav",
 * created with O_EXCL: a name taken (an earlier session's file) goes on to -micK-2.wav and so on,
 * never replacing anything */
static void wav_open(iks_mics *ms, mic *m, int k, double t, iks_logger *log)
{
    const char *slash = strrchr(ms->log_path, '/');
    size_t dir = slash ? (size_t)(slash - ms->log_path) + 1 : 0;
    const char *base = ms->log_path + dir, *dot = strrchr(base, '.');
    int stem = (int)(dot && dot != base ? (size_t)(dot - base) : strlen(base));
    for (int take = 1; take < 100; take++) {
        char path[PATH_MAX];
        if (take == 1) snprintf(m->wav_name, sizeof m->wav_name, "%.*s-mic%d.wav", stem, base, k + 1);
        else snprintf(m->wav_name, sizeof m->wav_name, "%.*s-mic%d-%d.wav", stem, base, k + 1, take);
        if (dir + strlen(m->wav_name) >= sizeof path) break; /* a name too long: said below */
        memcpy(path, ms->log_path, dir);
        strcpy(path + dir, m->wav_name);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST) continue;
        if (fd < 0 || !(m->wav = fdopen(fd, "wb"))) {
            if (fd >= 0) close(fd);
            iks_warnf(log, "%s: %s: the microphone is not recorded", path, strerror(errno));
            return;
        }
        wav_header(m->wav, UINT32_MAX);
        m->t0 = t;
        return;
    }
    iks_warnf(log, "%s: no free name beside it for the microphone's recording: it is not recorded", ms->log_path);
}

static mic *mic_for(iks_mics *ms, const char *device, double t, iks_logger *log)
{
    for (int i = 0; i < ms->n; i++)
        if (same_device(ms->m[i].device, device)) return &ms->m[i];
    if (ms->n == MAX_MICS) return NULL;
    mic *m = &ms->m[ms->n];
    memset(m, 0, sizeof *m);
    if (device && !(m->device = strdup(device))) return NULL;
    iks_err err = IKS_ERR_INIT;
    if (!(m->cap = iks_capture_audio_start(device, &err))) iks_warnf(log, "%s: the channel is silent", iks_err_msg(&err));
    iks_err_clear(&err);
    if (m->cap && ms->log_path) wav_open(ms, m, ms->n, t, log);
    ms->n++;
    return m;
}

/* The samples that came, to every mic channel of t that listens to m, and into its recording */
static void track_push(track *tr, const float *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        tr->ring[(tr->head + tr->len) % TRACK_RING] = s[i];
        if (tr->len < TRACK_RING) tr->len++;
        else tr->head = (tr->head + 1) % TRACK_RING; /* the oldest goes */
    }
}

static void deliver(mic *m, iks_gltoy *t, const char *dflt, track *tr, iks_logger *log)
{
    float buf[4096];
    for (size_t n; (n = iks_capture_audio_take(m->cap, buf, sizeof buf / sizeof *buf)) > 0;) {
        if (m->wav && fwrite(buf, sizeof *buf, n, m->wav) == n) m->frames += (uint32_t)n;
        if (tr) track_push(tr, buf, n);
        for (int p = 0; t && p < IKS_PASSES; p++)
            for (int c = 0; c < 4; c++) {
                const iks_input *in = &t->in[p][c];
                if (in->kind != IKS_IN_MIC || !t->live[p][c] || !same_device(in->path ? in->path : dflt, m->device))
                    continue;
                iks_err err = IKS_ERR_INIT;
                if (!iks_livein_audio(t, p, c, buf, n, &err)) iks_warnf(log, "%s", iks_err_msg(&err));
                iks_err_clear(&err);
            }
    }
}

void iks_mics_pump(iks_mics *ms, iks_gltoy *t, FILE *inputs, double session_t, iks_logger *log)
{
    if (!ms) return;
    for (int p = 0; t && p < IKS_PASSES; p++)
        for (int c = 0; c < 4; c++) {
            const iks_input *in = &t->in[p][c];
            if (in->kind != IKS_IN_MIC) continue;
            mic *m = mic_for(ms, in->path ? in->path : ms->dflt, session_t, log);
            if (!m || !m->wav || !inputs || m->logged[p][c]) continue;
            /* a plain name beside the log: render --input replays it as this channel's music */
            fprintf(inputs, "c %.6f %s %d %s\n", m->t0, iks_pass_kind_at(p)->word, c, m->wav_name);
            m->logged[p][c] = true;
        }
    for (int i = 0; i < ms->n; i++) {
        mic *m = &ms->m[i];
        if (!m->cap) continue;
        char line[300];
        if (iks_capture_audio_news(m->cap, line, sizeof line)) {
            iks_warnf(log, "%s", line);
            snprintf(m->news, sizeof m->news, "%s", line);
        }
        deliver(m, t, ms->dflt, i == 0 && ms->tr.f ? &ms->tr : NULL, log);
    }
}

void iks_mics_hud(const iks_mics *ms, char *text, size_t n)
{
    size_t k = 0;
    if (n) text[0] = '\0';
    for (int i = 0; ms && i < ms->n && k < n; i++) {
        const mic *m = &ms->m[i];
        if (!m->cap || iks_capture_audio_live(m->cap) || !m->news[0]) continue;
        int w = snprintf(text + k, n - k, "%s%s", k ? "\n" : "", m->news);
        if (w < 0) break;
        k += (size_t)w;
    }
}

bool iks_mics_capturing(const iks_mics *ms) { return ms && ms->n > 0 && ms->m[0].cap; }

bool iks_mics_track_begin(iks_mics *ms, const char *video, double fps, iks_logger *log)
{
    if (!iks_mics_capturing(ms) || ms->tr.tmp) return false;
    track *tr = &ms->tr;
    memset(tr, 0, sizeof *tr);
    int fd = iks_make_parent_dirs(video) ? iks_outfile_tmp_create(video, &tr->tmp) : -1;
    if (fd < 0 || !(tr->f = fdopen(fd, "wb"))) {
        iks_warnf(log, "%s: the microphone's sound for it: %s: recorded without", video, iks_outfile_strerror(errno));
        iks_outfile_tmp_discard(fd, &tr->tmp);
        return false;
    }
    tr->fps = fps;
    wav_header(tr->f, UINT32_MAX);
    return true;
}

const char *iks_mics_track_path(const iks_mics *ms) { return ms && ms->tr.f ? ms->tr.tmp : NULL; }

void iks_mics_track_frame(iks_mics *ms)
{
    track *tr = ms ? &ms->tr : NULL;
    if (!tr || !tr->f) return;
    /* frame k ends at sample round((k + 1) x rate / fps): no drift over a long take */
    long k = tr->frames++;
    size_t need = (size_t)(llround((double)(k + 1) * IKS_CAPTURE_RATE / tr->fps) -
                           llround((double)k * IKS_CAPTURE_RATE / tr->fps));
    if (tr->len > need + TRACK_HIGH) {
        size_t drop = tr->len - need - TRACK_LOW;
        tr->head = (tr->head + drop) % TRACK_RING;
        tr->len -= drop;
    }
    float out[2048];
    while (need > 0 && !tr->failed) {
        size_t n = need < sizeof out / sizeof *out ? need : sizeof out / sizeof *out;
        for (size_t i = 0; i < n; i++) {
            out[i] = tr->len ? tr->ring[tr->head] : 0.0f;
            if (tr->len) tr->head = (tr->head + 1) % TRACK_RING, tr->len--;
        }
        if (fwrite(out, sizeof *out, n, tr->f) != n) tr->failed = true;
        tr->samples += (uint32_t)n;
        need -= n;
    }
}

bool iks_mics_track_finish(iks_mics *ms, iks_logger *log)
{
    track *tr = ms ? &ms->tr : NULL;
    if (!tr || !tr->f) return false;
    /* past 4 GiB the header keeps its "to the end of the file" sizes, which ffmpeg reads */
    bool ok = !tr->failed && fflush(tr->f) == 0 && !ferror(tr->f);
    if (ok && tr->samples < UINT32_MAX / 4 - 64 && fseek(tr->f, 0, SEEK_SET) == 0) {
        wav_header(tr->f, tr->samples);
        ok = fflush(tr->f) == 0 && !ferror(tr->f);
    }
    int e = ok ? 0 : errno ? errno : EIO;
    if (fclose(tr->f) != 0 && ok) ok = false, e = errno;
    tr->f = NULL;
    if (!ok) iks_warnf(log, "the microphone's sound for the recording: %s: recorded without", iks_outfile_strerror(e));
    return ok;
}

void iks_mics_track_end(iks_mics *ms)
{
    if (!ms) return;
    if (ms->tr.f) fclose(ms->tr.f);
    ms->tr.f = NULL;
    iks_outfile_tmp_discard(-1, &ms->tr.tmp);
}

void iks_mics_free(iks_mics *ms, iks_logger *log)
{
    if (!ms) return;
    iks_mics_track_end(ms);
    for (int i = 0; i < ms->n; i++) {
        mic *m = &ms->m[i];
        iks_capture_audio_stop(m->cap);
        if (m->wav) {
            /* the sizes now known; samples past 4 GiB keep the "to the end" sizes */
            bool ok = fflush(m->wav) == 0 && !ferror(m->wav);
            if (ok && m->frames < UINT32_MAX / 4 - 64 && fseek(m->wav, 0, SEEK_SET) == 0) wav_header(m->wav, m->frames);
            ok = fclose(m->wav) == 0 && ok;
            if (!ok && log) iks_warnf(log, "%s: the microphone's recording could not be finished: %s", m->wav_name, strerror(errno));
        }
        free(m->device);
    }
    free(ms->dflt);
    free(ms->log_path);
    free(ms);
}
