/* mediain.c: music and video decoded through ffmpeg (see mediain.h). What it does not do: GL
 * (src/gpu/media.c uploads the frames), or the analyser's texture (analyser.c). */
#include "media/mediain.h"
#include "base/strutil.h"

#include "base/buf.h"
#include "base/subproc.h"
#include "base/userfile.h"
#include "base/clock.h"
#include "base/stop.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* whether path's extension is one of the space-separated words of exts, in any case */
static bool has_ext(const char *path, const char *exts)
{
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/')) return false;
    size_t n = strlen(dot + 1);
    for (const char *p = exts; *p;) {
        size_t k = strcspn(p, " ");
        if (k == n && !strncasecmp(dot + 1, p, k)) return true;
        p += k;
        p += strspn(p, " ");
    }
    return false;
}

bool iks_media_is_audio(const char *path) { return has_ext(path, IKS_MEDIA_AUDIO_EXTS); }
bool iks_media_is_video(const char *path) { return has_ext(path, IKS_MEDIA_VIDEO_EXTS); }

/* ---- running ffmpeg and ffprobe on a checked file ------------------------------------------------ */

typedef struct {
    pid_t pid;
    int out, err; /* its stdout and stderr */
} child;

/* What ffmpeg and ffprobe may do with a toy's file: read that one file (no other protocol, so no URL,
 * no pipe, no subprocess) and only through the demuxers of the containers channels take. A playlist
 * (HLS, DASH, concat, image sequences) named clip.mp4 would otherwise open files or URLs of its own
 * choosing, outside the toy, or wait for ever on a live stream. The demuxers are named by their first
 * name ("mov" is MP4, M4A and MOV; "matroska" is MKV and WebM). */
#define SANDBOX(formats) "-protocol_whitelist", "file", "-format_whitelist", formats
#define VIDEO_FORMATS "mov,matroska,ogg"
#define AUDIO_FORMATS "mov,matroska,ogg,mp3,wav,flac"

/* argv with "/dev/fd/3" standing for the file fd; false with e set (no ffmpeg, or no process). Its
 * stderr goes to a file in memory, read at the end: a pipe there, read only then, filled with one line
 * per damaged frame of a long file and blocked ffmpeg, which then looked hung. */
static bool spawn(child *c, int fd, char *const argv[], const char *path, iks_err *e)
{
    int o[2];
    if (pipe2(o, O_CLOEXEC) != 0) return iks_err_set(e, IKS_E_IO, "%s: %s", path, strerror(errno));
    int log = memfd_create("ikshade-decoder-log", MFD_CLOEXEC); /* -1: its words are lost, not the file */
    const int fds[] = { IKS_SPAWN_NULL, o[1], log >= 0 ? log : IKS_SPAWN_NULL, fd };
    int rc = iks_spawn(&c->pid, argv, fds, 4, false);
    close(o[1]);
    if (rc != 0) {
        close(o[0]);
        if (log >= 0) close(log);
        c->pid = 0;
        if (rc == ENOENT)
            return iks_err_set(e, IKS_E_UNSUPPORTED, "%s: decoding it needs %s (apt-get install ffmpeg)", path, argv[0]);
        return iks_err_set(e, IKS_E_IO, "%s: cannot run %s: %s", path, argv[0], strerror(rc));
    }
    c->out = o[0];
    c->err = log;
    return true;
}

/* A decoder that says nothing for this long is taken to hang (a file crafted to make a demuxer wait,
 * or a machine stalled): it is ended and the file named, rather than a render that never ends. Far
 * above what any sane file needs for one frame or a probe on a loaded machine. */
#define IDLE_LIMIT_MS 30000

#define HUNG (-2)    /* read_full: nothing came for IDLE_LIMIT_MS */
#define STOPPED (-3) /* read_full: a stop was asked (base/stop.h) while it waited */

/* Reads up to n bytes of a child's pipe, through short reads; the count read (less at the end), -1 on
 * an error, HUNG or STOPPED. The silence is measured from the last byte, across signals. */
static ssize_t read_full(int fd, void *buf, size_t n)
{
    size_t got = 0;
    double since = iks_now();
    while (got < n) {
        int left = (int)(IDLE_LIMIT_MS - (iks_now() - since) * 1000.0);
        if (left <= 0) return HUNG;
        struct pollfd pf = { .fd = fd, .events = POLLIN };
        int r = poll(&pf, 1, left);
        if (r < 0 && errno == EINTR) {
            /* a stop must not wait out a stalled decoder: the signal policy's grace is shorter */
            if (iks_stop_requested()) return STOPPED;
            continue;
        }
        if (r == 0) return HUNG;
        ssize_t k = read(fd, (char *)buf + got, n - got);
        if (k == 0) break;
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        got += (size_t)k;
        since = iks_now();
    }
    return (ssize_t)got;
}

/* Ends a child: killed first when kill, then reaped; its first stderr line into why (may be "") */
static int finish(child *c, bool kill_it, char *why, size_t n)
{
    if (!c->pid) return -1;
    if (kill_it) kill(c->pid, SIGKILL);
    if (c->out >= 0) close(c->out);
    c->out = -1;
    int st = iks_reap(c->pid);
    if (why && n) {
        /* its log, now that it has ended: the first line */
        why[0] = '\0';
        ssize_t k = !kill_it && c->err >= 0 ? pread(c->err, why, n - 1, 0) : 0;
        why[k > 0 ? k : 0] = '\0';
        why[strcspn(why, "\n")] = '\0';
    }
    if (c->err >= 0) close(c->err);
    c->err = -1;
    c->pid = 0;
    if (st == -1) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* ffmpeg's line in words of the file: without "[hls @ 0x55...] " or our "/dev/fd/3: ", and a demuxer
 * that the sandbox refused said as what the file is not */
static void tidy(char *why, const char *wanted)
{
    char *p = why;
    if (*p == '[') {
        char *q = strstr(p, "] ");
        if (q) p = q + 2;
    }
    static const char FD[] = "/dev/fd/3: ";
    if (!strncmp(p, FD, sizeof FD - 1)) p += sizeof FD - 1;
    if (strstr(p, "not on whitelist")) {
        /* "[hls @ 0x..] Format not on whitelist 'mov,...'": the demuxer's name is in the bracket */
        char kind[32] = "";
        if (why[0] == '[') sscanf(why + 1, "%31[^] @]", kind);
        char tmp[256];
        snprintf(tmp, sizeof tmp, "not %s%s%s%s", wanted, kind[0] ? " (ffmpeg reads it as '" : "", kind,
                 kind[0] ? "', which a channel does not take)" : "");
        strcpy(why, tmp); /* why holds at least 512 bytes */
        return;
    }
    memmove(why, p, strlen(p) + 1);
}

/* The checked file: a regular one, opened without blocking */
static int open_media(const char *path, iks_err *e)
{
    int fd = iks_userfile_open(path, 0);
    if (fd < 0) iks_err_set(e, IKS_E_IO, "%s: %s", path, iks_userfile_strerror(errno));
    return fd;
}

/* ---- audio ---------------------------------------------------------------------------------------- */

/* WebAudio's "speakers" mixing (the Web Audio spec's up-mix and down-mix tables) for the channel counts
 * it names a layout for: the analyser's mono (its input down-mixed to one channel) and the speakers'
 * stereo (the site's destination has two channels), as weights of the file's channels. WebAudio goes by
 * the count alone, not by the layout a file names, and takes the channels in WAV's order (ffmpeg's and
 * Chromium's too): 5.1 is L R C LFE SL SR, quad L R SL SR. Any other count is "discrete" there: the
 * first channel is the mono, the first two the speakers (a mono file is never that: its one channel
 * plays on both sides at full level). The spec's tables print 0.7071; Chromium weighs by the float of
 * the square root of 1/2, and sums weight times channel in channel order, one rounding per step, which
 * is what weigh() does (both measured against Chromium's output, docs/DESIGN-NOTES.md). */
#define SQRT_HALF 0.70710678f
typedef struct {
    int channels;
    float mono[6], left[6], right[6];
} speakers_mix;
static const speakers_mix MIXES[] = {
    { 1, { 1 }, { 1 }, { 1 } },
    /* M = 0.5 (L + R) */
    { 2, { 0.5f, 0.5f }, { 1, 0 }, { 0, 1 } },
    /* M = 0.25 (L + R + SL + SR); L = 0.5 (L + SL), R = 0.5 (R + SR) */
    { 4, { 0.25f, 0.25f, 0.25f, 0.25f }, { 0.5f, 0, 0.5f, 0 }, { 0, 0.5f, 0, 0.5f } },
    /* M = √½ (L + R) + C + 0.5 (SL + SR); L = L + √½ (C + SL), R = R + √½ (C + SR); LFE is dropped */
    { 6, { SQRT_HALF, SQRT_HALF, 1, 0, 0.5f, 0.5f }, { 1, 0, SQRT_HALF, 0, SQRT_HALF, 0 },
      { 0, 1, SQRT_HALF, 0, 0, SQRT_HALF } },
};
static const speakers_mix DISCRETE = { 0, { 1 }, { 1, 0 }, { 0, 1 } };
#define AUDIO_MAX_CHANNELS 32 /* WebAudio's: an AudioBuffer has at most 32 */

static const speakers_mix *mix_of(int channels)
{
    for (size_t i = 0; i < sizeof MIXES / sizeof MIXES[0]; i++)
        if (MIXES[i].channels == channels) return &MIXES[i];
    return &DISCRETE;
}

/* One output of a frame: w[ch] times channel ch, added in channel order, each product and sum rounded
 * to float (CMake builds this file with -ffp-contract=off: a fused multiply-add rounds once, not
 * twice). For stereo's mono that is 0.5 (L + R) as before, halving being exact. */
static float weigh(const float *w, const float *frame, int channels)
{
    float v = 0.0f;
    for (int ch = 0; ch < channels && ch < 6; ch++)
        if (w[ch] != 0.0f) v += w[ch] * frame[ch];
    return v;
}

static int16_t to_s16(float v)
{
    v *= 32768.0f; /* exact for 16-bit sources */
    return (int16_t)lrintf(v > 32767.0f ? 32767.0f : v < -32768.0f ? -32768.0f : v);
}

static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static unsigned le16(const uint8_t *p) { return p[0] | p[1] << 8; }

/* The WAV header ffmpeg writes before the samples (to a pipe its sizes are unknown): 1 with the channel
 * count of its 32-bit float samples at 44.1 kHz, the data next; 0 at an early end or a header not so;
 * else read_full's error. The decoded samples come in a WAV, not raw, because the count is the file's
 * own now and only ffmpeg's own output says it for certain: a probe first could pick another stream. */
static ssize_t wav_header(int fd, int *channels)
{
    uint8_t h[12];
    ssize_t k = read_full(fd, h, sizeof h);
    if (k != (ssize_t)sizeof h) return k < 0 ? k : 0;
    if (memcmp(h, "RIFF", 4) || memcmp(h + 8, "WAVE", 4)) return 0;
    *channels = 0;
    for (int chunk = 0; chunk < 8; chunk++) {
        uint8_t ck[8], body[256];
        if ((k = read_full(fd, ck, sizeof ck)) != (ssize_t)sizeof ck) return k < 0 ? k : 0;
        if (!memcmp(ck, "data", 4)) return *channels > 0;
        size_t n = le32(ck + 4) + (le32(ck + 4) & 1); /* chunks are padded to even sizes */
        if (n > sizeof body) return 0;                /* ffmpeg's fmt is 40 bytes; no metadata is asked */
        if ((k = read_full(fd, body, n)) != (ssize_t)n) return k < 0 ? k : 0;
        if (memcmp(ck, "fmt ", 4) || n < 16) continue;
        unsigned tag = le16(body);
        if (tag == 0xFFFE && n >= 26) tag = le16(body + 24); /* WAVE_FORMAT_EXTENSIBLE: its sub-format */
        if (tag == 3 && le32(body + 4) == 44100 && le16(body + 14) == 32) *channels = (int)le16(body + 2);
    }
    return 0;
}

/* The samples after the header, each frame mixed to the analyser's mono and the speakers' stereo; the
 * last read's result (0 at the end) */
static ssize_t read_samples(int fd, int channels, iks_audio *a, bool *too_long, bool *oom)
{
    const speakers_mix *m = mix_of(channels);
    size_t cap = 0, cap2 = 0, max = (size_t)IKS_AUDIO_MAX_SECONDS * 44100;
    float buf[8192];
    size_t per_read = sizeof buf / sizeof buf[0] / (size_t)channels;
    for (;;) {
        ssize_t k = read_full(fd, buf, per_read * (size_t)channels * sizeof(float));
        if (k <= 0) return k;
        size_t frames = (size_t)k / ((size_t)channels * sizeof(float));
        if (a->n + frames > max) {
            *too_long = true;
            return k;
        }
        if (!IKS_GROW(a->samples, a->n + frames, cap) || !IKS_GROW(a->stereo, 2 * (a->n + frames), cap2)) {
            *oom = true;
            return k;
        }
        for (size_t i = 0; i < frames; i++) {
            const float *f = buf + i * (size_t)channels;
            a->samples[a->n + i] = weigh(m->mono, f, channels);
            a->stereo[2 * (a->n + i)] = to_s16(weigh(m->left, f, channels));
            a->stereo[2 * (a->n + i) + 1] = to_s16(weigh(m->right, f, channels));
        }
        a->n += frames;
    }
}

bool iks_audio_load(const char *path, iks_audio *a, iks_err *e)
{
    memset(a, 0, sizeof *a);
    int fd = open_media(path, e);
    if (fd < 0) return false;
    /* the file's own channels (no -ac): WebAudio's mixing is applied here, where ffmpeg's would put a
     * mono file 3 dB down on each side; bit-exact and without metadata, its header is fmt and data alone */
    char *argv[] = { "ffmpeg", "-nostdin", "-v", "error", SANDBOX(AUDIO_FORMATS), "-i", "/dev/fd/3", "-vn", "-ar", "44100",
                     "-map_metadata", "-1", "-fflags", "+bitexact", "-c:a", "pcm_f32le", "-f", "wav", "-", NULL };
    child c;
    bool ok = spawn(&c, fd, argv, path, e);
    close(fd);
    if (!ok) return false;
    bool too_long = false, oom = false, too_many = false;
    int channels = 0;
    ssize_t k = wav_header(c.out, &channels);
    if (k == 1 && channels > AUDIO_MAX_CHANNELS) too_many = true;
    else if (k == 1) k = read_samples(c.out, channels, a, &too_long, &oom);
    char why[512];
    int st = finish(&c, too_long || oom || too_many || k == HUNG || k == STOPPED, why, sizeof why);
    if (k == HUNG) iks_err_set(e, IKS_E_FORMAT, "%s: ffmpeg decoded nothing for %d s: given up", path, IDLE_LIMIT_MS / 1000);
    else if (k == STOPPED) iks_err_set(e, IKS_E_INTERRUPTED, "%s: decoding it was interrupted", path);
    else if (too_many) iks_err_set(e, IKS_E_FORMAT, "%s: %d channels: a music channel takes at most %d (WebAudio's limit)",
                                   path, channels, AUDIO_MAX_CHANNELS);
    else if (too_long) iks_err_set(e, IKS_E_FORMAT, "%s: longer than %d minutes: too long for a music channel", path,
                              IKS_AUDIO_MAX_SECONDS / 60);
    else if (oom) iks_err_set(e, IKS_E_NOMEM, "%s: out of memory decoding it", path);
    else if (st != 0) {
        tidy(why, "music in MP3, Ogg, MP4/M4A, WebM, WAV or FLAC");
        iks_err_set(e, IKS_E_FORMAT, "%s: ffmpeg: %s", path, why[0] ? why : "cannot decode it");
    }
    else if (a->n == 0) iks_err_set(e, IKS_E_FORMAT, "%s: no audio in it", path);
    else return true;
    iks_audio_free(a);
    return false;
}

void iks_audio_free(iks_audio *a)
{
    free(a->samples);
    free(a->stereo);
    memset(a, 0, sizeof *a);
}

/* ---- video ---------------------------------------------------------------------------------------- */

/* "30000/1001" or "25" as a rate; 0 when it is none */
static double rate_of(const char *s)
{
    char *end;
    double a = iks_strtod_c(s, &end), b = 1;
    if (end == s) return 0;
    if (*end == '/') b = iks_strtod_c(end + 1, &end);
    return a > 0 && b > 0 && isfinite(a / b) ? a / b : 0;
}

bool iks_video_open(iks_video_in *v, const char *path, iks_err *e)
{
    memset(v, 0, sizeof *v);
    v->fd = -1;
    v->out = -1;
    v->have = -1;
    v->fd = open_media(path, e);
    if (v->fd < 0) return false;
    if (!(v->path = strdup(path))) {
        iks_video_close(v);
        return iks_err_set(e, IKS_E_NOMEM, "out of memory");
    }
    char *argv[] = { "ffprobe", "-v", "error", SANDBOX(VIDEO_FORMATS), "-select_streams", "v:0", "-show_entries",
                     "stream=width,height,avg_frame_rate,r_frame_rate,nb_frames:stream_side_data=rotation:"
                     "format=duration", "-of", "default=noprint_wrappers=1", "/dev/fd/3", NULL };
    child c;
    if (!spawn(&c, v->fd, argv, path, e)) {
        iks_video_close(v);
        return false;
    }
    char buf[4096];
    ssize_t k = read_full(c.out, buf, sizeof buf - 1);
    buf[k > 0 ? k : 0] = '\0';
    char why[512];
    int st = finish(&c, k == HUNG || k == STOPPED, why, sizeof why);
    if (k == HUNG || k == STOPPED) {
        if (k == HUNG) iks_err_set(e, IKS_E_FORMAT, "%s: ffprobe said nothing for %d s: given up", path, IDLE_LIMIT_MS / 1000);
        else iks_err_set(e, IKS_E_INTERRUPTED, "%s: probing it was interrupted", path);
        iks_video_close(v);
        return false;
    }
    iks_video_probe pr;
    iks_video_parse_probe(buf, &pr);
    v->w = pr.w;
    v->h = pr.h;
    double avg = pr.avg_fps, r = pr.r_fps, dur = pr.duration;
    long nb = pr.frames;
    v->fps = avg > 0 ? avg : r;
    if (st != 0 || v->w <= 0 || v->h <= 0) {
        tidy(why, "a video in MP4, WebM/Matroska or Ogg");
        iks_err_set(e, IKS_E_FORMAT, "%s: %s", path, st != 0 && why[0] ? why : "no video stream in it");
        iks_video_close(v);
        return false;
    }
    /* a stream there, but not one a texture (at most 16384 a side, as the site's GPUs) or a frame clock
     * can take: said as such, not as "no video" */
    if (v->w > 16384 || v->h > 16384 || !(v->fps > 0) || v->fps > 1000) {
        if (v->w > 16384 || v->h > 16384)
            iks_err_set(e, IKS_E_FORMAT, "%s: a %dx%d video: at most 16384 pixels a side", path, v->w, v->h);
        else if (!(v->fps > 0))
            iks_err_set(e, IKS_E_FORMAT, "%s: its video stream has no frame rate", path);
        else
            iks_err_set(e, IKS_E_FORMAT, "%s: a video at %g frames per second: at most 1000", path, v->fps);
        iks_video_close(v);
        return false;
    }
    v->frames = nb > 0 ? nb : (long)llround(dur * v->fps);
    if (v->frames <= 0) v->frames = 1;
    if (!(v->frame = calloc((size_t)v->w * (size_t)v->h, 4))) {
        iks_video_close(v);
        return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", path);
    }
    return true;
}

double iks_video_duration(const iks_video_in *v) { return (double)v->frames / v->fps; }

/* Ends the decoder now running, if any */
static void stop_decoder(iks_video_in *v)
{
    if (!v->pid) return;
    child c = { v->pid, v->out, -1 };
    finish(&c, true, NULL, 0);
    v->pid = 0;
    v->out = -1;
}

void iks_video_parse_probe(char *text, iks_video_probe *p)
{
    memset(p, 0, sizeof *p);
    double rot = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');
        if (!eq) continue;
        *eq++ = '\0';
        /* ffprobe's numbers, but read as untrusted text: out of range is none */
        long n = 0;
        char *end;
        errno = 0;
        if (!strcmp(line, "width") || !strcmp(line, "height") || !strcmp(line, "nb_frames")) {
            n = strtol(eq, &end, 10);
            if (errno || end == eq || n < 0) n = 0;
        }
        if (!strcmp(line, "width")) p->w = n > INT_MAX ? 0 : (int)n;
        else if (!strcmp(line, "height")) p->h = n > INT_MAX ? 0 : (int)n;
        else if (!strcmp(line, "nb_frames")) p->frames = n;
        else if (!strcmp(line, "avg_frame_rate")) p->avg_fps = rate_of(eq);
        else if (!strcmp(line, "r_frame_rate")) p->r_fps = rate_of(eq);
        else if (!strcmp(line, "duration")) {
            double d = iks_strtod_c(eq, NULL);
            p->duration = d > 0 && d < 1e9 ? d : 0; /* a frame count from it stays a long */
        } else if (!strcmp(line, "rotation")) {
            double d = iks_strtod_c(eq, NULL);
            rot = isfinite(d) ? d : 0;
        }
    }
    /* ffmpeg turns a phone's portrait video upright as it decodes it (as browsers play it, so as the
     * site's channel shows it): a quarter turn swaps the sides the container gives */
    if (fabs(rot) < 1e9 && lround(fabs(rot) / 90.0) % 2 == 1) {
        int t = p->w;
        p->w = p->h;
        p->h = t;
    }
}

/* A decoder that gives frame `first` next */
static bool start_at(iks_video_in *v, long first, iks_err *e)
{
    stop_decoder(v);
    char ss[64];
    /* half a frame early: the first frame whose time is at or after it is frame `first` */
    iks_snprintf_c(ss, sizeof ss, "%.6f", first > 0 ? (first - 0.5) / v->fps : 0.0);
    /* the frames are scaled to the probed size, whatever the stream does (a WebM may change its size
     * mid-stream, a rotation may be read one way by the probe and another by the decoder): each read
     * is then a whole frame of the size the texture has */
    char size[48];
    snprintf(size, sizeof size, "%dx%d", v->w, v->h);
    char *argv[] = { "ffmpeg", "-nostdin", "-v", "error", SANDBOX(VIDEO_FORMATS), "-ss", ss, "-i", "/dev/fd/3", "-an",
                     "-fps_mode", "passthrough", "-s", size, "-f", "rawvideo", "-pix_fmt", "rgba", "-", NULL };
    child c;
    if (!spawn(&c, v->fd, argv, v->path, e)) return false;
    /* its log is not read: a failure is said by the frames that do not come */
    v->pid = c.pid;
    v->out = c.out;
    if (c.err >= 0) close(c.err);
    v->next = first;
    return true;
}

const uint8_t *iks_video_frame_at(iks_video_in *v, double t, iks_err *e)
{
    double d = iks_video_duration(v);
    double tm = t > 0 && isfinite(t) ? fmod(t, d) : 0.0;
    long want = (long)floor(tm * v->fps + 1e-9);
    if (want >= v->frames) want = v->frames - 1;
    if (want == v->have) return v->frame;
    /* a decoder that hung once is not started again each frame (the viewer would stall 30 s a frame) */
    if (v->hung)
        return iks_err_set(e, IKS_E_FORMAT, "%s: ffmpeg decoded nothing for %d s: given up", v->path,
                           IDLE_LIMIT_MS / 1000), NULL;
    /* forward within two seconds: read on; otherwise a new decoder from a seek */
    if (!v->pid || want < v->next || want - v->next > 2 * v->fps)
        if (!start_at(v, want, e)) return NULL;
    size_t bytes = (size_t)v->w * (size_t)v->h * 4;
    while (v->next <= want) {
        ssize_t k = read_full(v->out, v->frame, bytes);
        if (k == HUNG || k == STOPPED) {
            v->have = -1;
            stop_decoder(v); /* stopped: a later call (a render resumed) starts afresh */
            if (k == STOPPED) return iks_err_set(e, IKS_E_INTERRUPTED, "%s: decoding it was interrupted", v->path), NULL;
            v->hung = true;
            return iks_err_set(e, IKS_E_FORMAT, "%s: ffmpeg decoded nothing for %d s at frame %ld: given up", v->path,
                               IDLE_LIMIT_MS / 1000, v->next), NULL;
        }
        if (k != (ssize_t)bytes) {
            /* the container said more frames than there are: the last one stands for the rest */
            if (v->have >= 0 && k == 0) {
                v->frames = v->next;
                return v->frame;
            }
            v->have = -1;
            return iks_err_set(e, IKS_E_FORMAT, "%s: ffmpeg stopped decoding at frame %ld", v->path, v->next), NULL;
        }
        v->have = v->next++;
    }
    return v->frame;
}

void iks_video_close(iks_video_in *v)
{
    stop_decoder(v);
    if (v->fd >= 0) close(v->fd);
    free(v->path);
    free(v->frame);
    memset(v, 0, sizeof *v);
    v->fd = -1;
    v->out = -1;
}
