/* segments.c: a film in segments (see segments.h). Each segment is a video of its own, picture alone,
 * from a key frame, with the film's identity in its comment tag; ffprobe reads that tag and counts its
 * packets (every byte of every frame read, so a file cut short counts fewer), and the join is ffmpeg's
 * concat demuxer with the picture copied, each segment placed at its exact length (frames / fps: the
 * containers' own durations are rounded, which drifts a join's time stamps), and the toy's sound for
 * the whole film encoded once: AAC and Opus prime and pad every encoding, so sound cut per segment
 * would click or fall silent at each join (docs/DESIGN-NOTES.md, "a film in segments").
 * What it does not do: draw, or encode the picture (the writer makes each segment). */
#include "engine/segments.h"

#include "base/buf.h"
#include "engine/checkpoint.h"
#include "engine/engine.h"
#include "base/strutil.h"
#include "base/subproc.h"
#include "engine/writer.h"
#include "engine/writer_internal.h"
#include "io/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

bool iks_segment_name(const char *output, long k, long n, char *buf, size_t size)
{
    const char *slash = strrchr(output, '/');
    const char *ext = strrchr(slash ? slash + 1 : output, '.');
    int r = snprintf(buf, size, "%s.parts/%05ld-of-%05ld%s", output, k, n, ext ? ext : "");
    return r >= 0 && (size_t)r < size;
}

iks_code iks_segment_path(const char *output, long k, long n, char *buf, size_t size)
{
    if (!output || !buf) return iks_fail_usage("iks_segment_path: output and buf must not be NULL");
    if (n < 1 || k < 0 || k >= n) return iks_fail_usage("iks_segment_path: segment %ld of %ld is not one", k, n);
    if (!iks_segment_name(output, k, n, buf, size)) return iks_fail_usage("%s: its segments' names are too long", output);
    return IKS_OK;
}

uint64_t iks_film_settings(const iks_format *f, int width, int height)
{
    uint64_t h = IKS_FNV_START;
    const char *words[] = { f->muxer, f->video_args, f->mux_args };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (words[i]) h = iks_fnv(h, words[i], strlen(words[i]) + 1);
    int size[2] = { width, height };
    return iks_fnv(h, size, sizeof size);
}

/* the words every comment of this film starts with; then its part, or the film's */
static void film_words(const iks_film *f, const char *kind, char *buf, size_t n)
{
    char fps[40];
    iks_snprintf_c(fps, sizeof fps, "%.17g", f->fps);
    snprintf(buf, n, "ikshade:%s render=%s settings=%016llx film=%ld:%ld fps=%s", kind, f->id,
             (unsigned long long)f->settings, f->first, f->end, fps);
}

void iks_segment_comment(const iks_film *f, long k, char *buf, size_t n)
{
    long a, b;
    iks_shard_range(f->first, f->end, k, f->n, &a, &b);
    film_words(f, "segment", buf, n);
    size_t at = strlen(buf);
    snprintf(buf + at, n - at, " part=%ld/%ld frames=%ld:%ld", k, f->n, a, b);
}

static void film_comment(const iks_film *f, char *buf, size_t n)
{
    film_words(f, "film", buf, n);
    size_t at = strlen(buf);
    snprintf(buf + at, n - at, " parts=%ld", f->n);
}

/* ---- ffprobe ----------------------------------------------------------------------------------- */

/* ffprobe on path: its report (key=value lines) in out, its first error line in why; its exit status,
 * or -1 when it could not run */
static int probe(const char *path, char *out, size_t n, char *why, size_t nwhy)
{
    out[0] = why[0] = '\0';
    char *file = NULL;
    if (asprintf(&file, "file:%s", path) < 0) return -1;
    char *argv[] = { "ffprobe", "-v", "error", "-protocol_whitelist", "file", "-count_packets", "-select_streams",
                     "v:0", "-show_entries", "stream=codec_name,profile,level,pix_fmt,width,height,nb_read_packets:"
                     "format_tags=comment", "-of", "default=nw=1", file, NULL };
    int o[2];
    if (pipe2(o, O_CLOEXEC) != 0) {
        free(file);
        return -1;
    }
    int log = memfd_create("ikshade-ffprobe-log", MFD_CLOEXEC);
    const int fds[] = { IKS_SPAWN_NULL, o[1], log >= 0 ? log : IKS_SPAWN_NULL };
    pid_t pid;
    int rc = iks_spawn(&pid, argv, fds, 3, false);
    close(o[1]);
    free(file);
    if (rc != 0) {
        close(o[0]);
        if (log >= 0) close(log);
        return -1;
    }
    size_t got = 0;
    for (;;) {
        char sink[512];
        /* what does not fit is read and dropped: a report that long is not one of ours */
        ssize_t k = got + 1 < n ? read(o[0], out + got, n - 1 - got) : read(o[0], sink, sizeof sink);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        if (got + 1 < n) got += (size_t)k;
    }
    out[got] = '\0';
    close(o[0]);
    int st = iks_reap(pid);
    if (log >= 0) {
        ssize_t k = pread(log, why, nwhy - 1, 0);
        why[k > 0 ? k : 0] = '\0';
        why[strcspn(why, "\n")] = '\0';
        close(log);
    }
    return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* the value of key in a report, into buf ("" when absent); any case: Matroska says COMMENT */
static void value_of(const char *report, const char *key, char *buf, size_t n)
{
    buf[0] = '\0';
    size_t kl = strlen(key);
    for (const char *p = report; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncasecmp(p, key, kl) == 0 && p[kl] == '=') {
            size_t l = strcspn(p + kl + 1, "\n");
            snprintf(buf, n, "%.*s", (int)l, p + kl + 1);
            return;
        }
    }
}

/* ---- a segment --------------------------------------------------------------------------------- */

int iks_segment_check(const iks_film *f, long k, iks_seg_shape *shape, char *why, size_t n)
{
    char path[PATH_MAX], want[512], report[4096], line[512];
    why[0] = '\0';
    if (!iks_segment_name(f->output, k, f->n, path, sizeof path)) return snprintf(why, n, "its name is too long"), -1;
    struct stat sb;
    if (stat(path, &sb) != 0) return errno == ENOENT ? 0 : (snprintf(why, n, "%s", strerror(errno)), -1);
    int rc = probe(path, report, sizeof report, line, sizeof line);
    if (rc == -1) return snprintf(why, n, "cannot be read: ffprobe did not run (apt-get install ffmpeg)"), -1;
    if (rc != 0) return snprintf(why, n, "is damaged: %s", line[0] ? line : "ffprobe cannot read it"), -1;
    char comment[512], packets[32];
    value_of(report, "TAG:comment", comment, sizeof comment);
    value_of(report, "nb_read_packets", packets, sizeof packets);
    iks_segment_comment(f, k, want, sizeof want);
    if (strcmp(comment, want) != 0) {
        char mine[64];
        int l = snprintf(mine, sizeof mine, "ikshade:segment render=%s ", f->id);
        if (strncmp(comment, "ikshade:segment ", 16) != 0) snprintf(why, n, "is not a segment ikshade wrote");
        else if (strncmp(comment, mine, (size_t)l) != 0)
            snprintf(why, n, "is of another render (the toy, its media or its settings changed)");
        else snprintf(why, n, "is of other settings: it says '%s' where this render is '%s'", comment + 16, want + 16);
        return -1;
    }
    long a, b;
    iks_shard_range(f->first, f->end, k, f->n, &a, &b);
    char *e;
    long got = strtol(packets, &e, 10);
    if (!packets[0] || *e || got != b - a)
        return snprintf(why, n, "is damaged: %s of its %ld frames can be read", packets[0] ? packets : "none", b - a), -1;
    /* the stream's shape, the comment and the packets aside: one stream, joined, needs one shape */
    char s[sizeof shape->text];
    s[0] = '\0';
    const char *keys[] = { "codec_name", "profile", "level", "pix_fmt", "width", "height" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        value_of(report, keys[i], line, sizeof line);
        size_t at = strlen(s);
        snprintf(s + at, sizeof s - at, "%s%s=%.32s", at ? " " : "", keys[i], line);
    }
    if (!shape->text[0]) snprintf(shape->text, sizeof shape->text, "%s", s);
    else if (strcmp(s, shape->text) != 0)
        return snprintf(why, n, "holds a stream unlike the first segment's (%s, not %s): made by another ffmpeg?", s,
                        shape->text), -1;
    return 1;
}

long iks_film_segments_there(const iks_film *f)
{
    long there = 0;
    for (long k = 0; k < f->n; k++) {
        long a, b;
        char path[PATH_MAX];
        iks_shard_range(f->first, f->end, k, f->n, &a, &b);
        struct stat sb;
        if (a == b || (iks_segment_name(f->output, k, f->n, path, sizeof path) && stat(path, &sb) == 0)) there++;
    }
    return there;
}

bool iks_film_joined(const iks_film *f)
{
    char report[4096], line[256], comment[512], want[512];
    if (access(f->output, F_OK) != 0 || probe(f->output, report, sizeof report, line, sizeof line) != 0) return false;
    value_of(report, "TAG:comment", comment, sizeof comment);
    film_comment(f, want, sizeof want);
    char packets[32];
    value_of(report, "nb_read_packets", packets, sizeof packets);
    return strcmp(comment, want) == 0 && strtol(packets, NULL, 10) == f->end - f->first;
}

/* ---- the join ---------------------------------------------------------------------------------- */

/* The concat demuxer's list of the segments, each at its exact length, into the temporary *list beside
 * the output; false with err set. Every segment is checked first. */
static bool write_list(const iks_film *f, char **list, iks_err *err)
{
    iks_sbuf s = { 0 };
    iks_sbuf_fmt(&s, "ffconcat version 1.0\n");
    iks_seg_shape shape = { { 0 } };
    for (long k = 0; k < f->n; k++) {
        long a, b;
        iks_shard_range(f->first, f->end, k, f->n, &a, &b);
        if (a == b) continue; /* more parts than frames: this one has none */
        char path[PATH_MAX], why[768], full[PATH_MAX];
        int rc = iks_segment_check(f, k, &shape, why, sizeof why);
        iks_segment_name(f->output, k, f->n, path, sizeof path);
        if (rc <= 0) {
            iks_sbuf_free(&s);
            if (rc == 0)
                return iks_err_set(err, IKS_E_FORMAT, "%s: segment %ld of %ld (%s, frames %ld:%ld) is missing: render that "
                                   "part first", f->output, k, f->n, path, a, b);
            return iks_err_set(err, IKS_E_FORMAT, "%s: segment %ld of %ld (%s) %s", f->output, k, f->n, path, why);
        }
        if (!realpath(path, full) || strchr(full, '\n')) {
            iks_sbuf_free(&s);
            return iks_err_set(err, IKS_E_IO, "%s: %s: %s", f->output, path, errno ? strerror(errno) : "a newline in its name");
        }
        /* unquoted, each character the list's syntax reads escaped */
        iks_sbuf_fmt(&s, "file file:");
        for (const char *c = full; *c; c++) iks_sbuf_fmt(&s, "%s%c", strchr("'\\ #\t", *c) ? "\\" : "", *c);
        char dur[48];
        iks_snprintf_c(dur, sizeof dur, "%.17g", (double)(b - a) / f->fps);
        iks_sbuf_fmt(&s, "\nduration %s\n", dur);
    }
    if (s.oom) {
        iks_sbuf_free(&s);
        return iks_err_set(err, IKS_E_NOMEM, "out of memory");
    }
    int fd = iks_outfile_tmp_create(f->output, list);
    bool ok = fd >= 0 && iks_write_all(fd, s.s, s.len);
    int e = errno;
    if (fd >= 0 && close(fd) != 0 && ok) ok = false, e = errno;
    iks_sbuf_free(&s);
    if (!ok) {
        iks_outfile_tmp_discard(-1, list);
        return iks_err_set(err, IKS_E_IO, "%s: %s", f->output, iks_outfile_strerror(e));
    }
    return true;
}

/* ffmpeg's words for the join: the list's picture copied, the sound encoded, the container's options */
static bool join_args(const iks_film *f, const char *list, const char *audio, const char *tmp, char ***argv, int *argc)
{
    char comment[512];
    film_comment(f, comment, sizeof comment);
    iks_sbuf s = { 0 };
    /* quoted for iks_split_words: the names are the temporaries' and ours, the comment has no quote */
    iks_sbuf_fmt(&s, "ffmpeg -hide_banner -nostdin -loglevel error -y -protocol_whitelist file -f concat -safe 0 "
                        "-i 'file:%s'", list);
    if (audio) iks_sbuf_fmt(&s, " -i 'file:%s' -map 0:v:0 -map 1:a:0", audio);
    else iks_sbuf_fmt(&s, " -map 0:v:0");
    iks_sbuf_fmt(&s, " -c:v copy");
    /* the sound as one render's video has it (writer_video.c), so the film is what one run would make */
    if (audio) iks_sbuf_fmt(&s, " %s -shortest", f->fmt->audio_args);
    iks_sbuf_fmt(&s, " %s -metadata 'comment=%s' -f %s 'file:%s'", f->fmt->mux_args ? f->fmt->mux_args : "", comment,
                    f->fmt->muxer, tmp);
    const char *why;
    bool ok = !s.oom && !strchr(list, '\'') && !strchr(tmp, '\'') && (!audio || !strchr(audio, '\'')) &&
              iks_split_words(s.s, argv, argc, &why);
    iks_sbuf_free(&s);
    return ok;
}

/* Runs ffmpeg's join into tmp: false with err set (its first line) */
static bool run_join(const iks_film *f, char **argv, const char *tmp, iks_err *err)
{
    int log = memfd_create("ikshade-ffmpeg-log", MFD_CLOEXEC);
    const int fds[] = { IKS_SPAWN_NULL, IKS_SPAWN_NULL, log >= 0 ? log : IKS_SPAWN_NULL };
    pid_t pid;
    int rc = iks_spawn(&pid, argv, fds, 3, true);
    if (rc != 0) {
        if (log >= 0) close(log);
        return iks_err_set(err, rc == ENOENT ? IKS_E_UNSUPPORTED : IKS_E_IO, "%s: joining it needs ffmpeg: %s",
                           f->output, rc == ENOENT ? "not installed (apt-get install ffmpeg)" : strerror(rc));
    }
    iks_outfile_tmp_writer(tmp, pid);
    iks_wait_exit(pid);
    iks_outfile_tmp_writer(tmp, 0);
    int st = iks_reap(pid);
    char line[512] = "";
    if (log >= 0) {
        ssize_t k = pread(log, line, sizeof line - 1, 0);
        line[k > 0 ? k : 0] = '\0';
        line[strcspn(line, "\n")] = '\0';
        close(log);
    }
    if (!(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0))
        return iks_err_set(err, IKS_E_IO, "%s: ffmpeg could not join the segments%s%s", f->output, line[0] ? ": " : "",
                           line);
    /* ffmpeg can exit 0 with a file it could not finish (a full disk at its trailer): the film is read
     * back whole, every frame, before it takes the output's name */
    char report[4096], packets[32];
    if (probe(tmp, report, sizeof report, line, sizeof line) != 0)
        return iks_err_set(err, IKS_E_IO, "%s: the joined film cannot be read back: %s", f->output, line);
    value_of(report, "nb_read_packets", packets, sizeof packets);
    if (strtol(packets, NULL, 10) != f->end - f->first)
        return iks_err_set(err, IKS_E_IO, "%s: the joined film holds %s frames, not %ld", f->output, packets,
                           f->end - f->first);
    return true;
}

bool iks_film_join(const iks_film *f, const char *audio, iks_err *err)
{
    char *list = NULL, *tmp = NULL, **argv = NULL;
    int argc = 0;
    const char *slash = strrchr(f->output, '/');
    const char *ext = strrchr(slash ? slash + 1 : f->output, '.');
    /* a joiner killed mid-join (a lost node) left its film in the making (".FILM.XXXXXX.EXT") beside
     * the film: gone once its writer is (another joiner still at work holds its lock). Not the list
     * and the sound (".FILM.XXXXXX"): closed once written and read by ffmpeg afterwards, an unlocked
     * one may still be in use; they are small beside the film. */
    if (ext && ext[1] && strlen(ext) <= 32) (void)iks_outfile_remove_stale_of(f->output, ext, NULL, 0);
    if (!write_list(f, &list, err)) return false;
    int fd = iks_outfile_tmp_create_ext(f->output, ext && strlen(ext) <= 32 ? ext : "", &tmp);
    bool ok = fd >= 0;
    if (!ok) iks_err_set(err, IKS_E_IO, "%s: %s", f->output, iks_outfile_strerror(errno));
    if (ok && !join_args(f, list, audio, tmp, &argv, &argc)) ok = iks_err_set(err, IKS_E_NOMEM, "out of memory");
    ok = ok && run_join(f, argv, tmp, err);
    for (int i = 0; i < argc; i++) free(argv[i]);
    free(argv);
    iks_outfile_tmp_discard(-1, &list);
    if (!ok) {
        iks_outfile_tmp_discard(fd, &tmp);
        return false;
    }
    ok = iks_outfile_tmp_publish(fd, tmp, f->output);
    if (!ok) iks_err_set(err, IKS_E_IO, "%s: %s", f->output, iks_outfile_strerror(errno));
    free(tmp);
    return ok;
}
