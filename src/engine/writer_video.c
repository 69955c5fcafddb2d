/* writer_video.c: the writer's video sink: raw RGBA frames, top row first, piped into ffmpeg, which
 * encodes the file under a hidden temporary name that is renamed over the output once ffmpeg has
 * finished it. ffmpeg's options are the format's row (engine/formats.c: defaults that play everywhere);
 * odd sizes are padded to even ones where the row says 4:2:0 needs them (a black row or column on the
 * bottom or right). Any other output through the user's own ffmpeg arguments.
 * What it does not do: encode (ffmpeg's), choose frames (the caller's), or know a container by name. */
#include "engine/writer.h"
#include "base/strutil.h"
#include "engine/writer_internal.h"
#include "base/buf.h"

#include "io/outfile.h"
#include "base/subproc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


int iks_gif_delay_cs(double fps)
{
    /* GIF delays are whole centiseconds, and browsers play anything under 2 cs at 10 cs */
    long cs = lround(100.0 / fps);
    return cs < 2 ? 2 : cs > 65535 ? 65535 : (int)cs;
}

/* ---- the argument list ------------------------------------------------------------------------- */

typedef struct {
    char **v;
    int n;
    size_t cap;
    bool oom;
} argv_t;

static void arg(argv_t *a, const char *s)
{
    if (a->oom) return;
    if (!IKS_GROW(a->v, (size_t)a->n + 2, a->cap)) {
        a->oom = true;
        return;
    }
    if (!(a->v[a->n] = strdup(s))) {
        a->oom = true;
        return;
    }
    a->v[++a->n] = NULL;
}

static void args_free(argv_t *a)
{
    for (int i = 0; i < a->n; i++) free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

bool iks_split_words(const char *s, char ***words, int *n, const char **why)
{
    argv_t a = { 0 };
    *why = NULL;
    size_t len = strlen(s);
    char *w = malloc(len + 1);
    if (!w) return false;
    const char *p = s;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n') p++;
        if (!*p) break;
        size_t k = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
            if (*p == '\'') {
                const char *e = strchr(p + 1, '\'');
                if (!e) {
                    *why = "an unclosed ' quote";
                    break;
                }
                memcpy(w + k, p + 1, (size_t)(e - p - 1));
                k += (size_t)(e - p - 1);
                p = e + 1;
            } else if (*p == '"') {
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) p++;
                    w[k++] = *p++;
                }
                if (!*p) {
                    *why = "an unclosed \" quote";
                    break;
                }
                p++;
            } else if (*p == '\\' && p[1]) {
                w[k++] = p[1];
                p += 2;
            } else w[k++] = *p++;
        }
        if (*why) break;
        w[k] = '\0';
        arg(&a, w);
    }
    free(w);
    if (*why || a.oom) {
        args_free(&a);
        return false;
    }
    *words = a.v;
    *n = a.n;
    return true;
}

/* A path for ffmpeg, as a file whatever its ':'s */
static void file_arg(argv_t *a, const char *path)
{
    char *s = NULL;
    if (asprintf(&s, "file:%s", path) < 0) {
        a->oom = true;
        return;
    }
    arg(a, s);
    free(s);
}

/* ---- start and end ----------------------------------------------------------------------------- */

/* Appends the words of s (a row's options: ours, well-formed) to a */
static void args_of(argv_t *a, const char *s)
{
    char **w = NULL;
    int n = 0;
    const char *why;
    if (!s) return;
    if (!iks_split_words(s, &w, &n, &why)) {
        a->oom = true;
        return;
    }
    for (int i = 0; i < n; i++) arg(a, w[i]), free(w[i]);
    free(w);
}

/* The extension a temporary for out keeps ("" for none or one too long): ffmpeg tells the container
 * from it under the user's own arguments */
static const char *tmp_ext(const char *out)
{
    const char *slash = strrchr(out, '/');
    const char *ext = strrchr(slash ? slash + 1 : out, '.');
    return ext && strlen(ext) <= 32 ? ext : "";
}

/* Removes the temporary (a video not made) */
static void tmp_drop(iks_video *v)
{
    iks_outfile_tmp_discard(v->tmp_fd, &v->tmp);
    v->tmp_fd = -1;
}

bool iks_video_start(iks_video *v, const iks_writer_desc *d, const iks_format *f, iks_err *err)
{
    memset(v, 0, sizeof *v);
    v->fd = v->err_fd = v->tmp_fd = -1;
    v->fmt = f;
    const char *out = d->output;
    char *ffmpeg = iks_find_program("ffmpeg");
    bool have_ffmpeg = ffmpeg != NULL;
    free(ffmpeg);
    if (!have_ffmpeg)
        return iks_err_set(err, IKS_E_UNSUPPORTED, "%s: a video needs ffmpeg, which is not installed (apt-get install "
                           "ffmpeg); or render image files (out/%%04d.png)", out);
    /* the user's own arguments, even none at all ('' is a choice: ffmpeg's defaults for the container) */
    bool own = d->ffmpeg_args != NULL;
    char **user = NULL;
    int nuser = 0;
    if (own) {
        const char *why;
        if (!iks_split_words(d->ffmpeg_args, &user, &nuser, &why))
            return why ? iks_err_field(err, IKS_E_USAGE, "ffmpeg_args", NULL, "%s", why)
                       : iks_err_set(err, IKS_E_NOMEM, "out of memory");
    }
    if (iks_outfile_check(out) != 0) {
        int e = errno;
        for (int i = 0; i < nuser; i++) free(user[i]);
        free(user);
        return iks_err_set(err, IKS_E_IO, "%s: %s", out, iks_outfile_strerror(e));
    }
    if (!iks_make_parent_dirs(out)) {
        int e = errno;
        for (int i = 0; i < nuser; i++) free(user[i]);
        free(user);
        return iks_err_errno(err, IKS_E_IO, e, out);
    }
    const char *ext = tmp_ext(out);
    /* the temporary is ours, made before ffmpeg starts; ffmpeg is handed it as file:NAME, so that no
     * ':' in a directory's name is read as a protocol ("take:2/", "pipe:/"), and it keeps the output's
     * extension, so that ffmpeg can tell the container from it under the user's own arguments */
    v->tmp_fd = iks_outfile_tmp_create_ext(out, ext, &v->tmp);
    if (v->tmp_fd < 0) {
        int e = errno;
        for (int i = 0; i < nuser; i++) free(user[i]);
        free(user);
        return iks_err_set(err, IKS_E_IO, "%s: %s", out, iks_outfile_strerror(e));
    }
    char size[48], rate[48];
    snprintf(size, sizeof size, "%dx%d", d->width, d->height);
    /* a GIF plays every frame at the delay it can express: that is its frame rate */
    v->fps_played = f->delay_cs && !own ? 100.0 / iks_gif_delay_cs(d->fps) : d->fps;
    iks_snprintf_c(rate, sizeof rate, "%.17g", v->fps_played);
    v->padded = f->even && !own && (d->width % 2 || d->height % 2);

    argv_t a = { 0 };
    arg(&a, "ffmpeg");
    arg(&a, "-hide_banner");
    arg(&a, "-nostdin"); /* its stdin is our frames; it must never read keys from it */
    arg(&a, "-loglevel");
    arg(&a, "error");
    arg(&a, "-y");
    arg(&a, "-f");
    arg(&a, "rawvideo");
    arg(&a, "-pix_fmt");
    arg(&a, "rgba");
    arg(&a, "-s");
    arg(&a, size);
    arg(&a, "-framerate");
    arg(&a, rate);
    arg(&a, "-i");
    arg(&a, "pipe:0");
    if (d->audio) {
        arg(&a, "-i");
        file_arg(&a, d->audio);
    }
    if (own) {
        for (int i = 0; i < nuser; i++) arg(&a, user[i]);
    } else {
        if (v->padded) {
            arg(&a, "-vf");
            arg(&a, "pad=ceil(iw/2)*2:ceil(ih/2)*2");
        }
        args_of(&a, f->video_args);
        if (d->audio) {
            args_of(&a, f->audio_args);
            /* the track is the sound of every frame asked for; a render stopped early has fewer: the
             * sound ends with the picture (a whole render's track is exactly as long as its frames) */
            args_of(&a, "-shortest");
        }
        args_of(&a, f->mux_args);
        /* a segment of a film says whose it is (segments.c reads it back before a join) */
        if (d->comment) {
            arg(&a, "-metadata");
            char *c = NULL;
            if (asprintf(&c, "comment=%s", d->comment) < 0) a.oom = true;
            else arg(&a, c);
            free(c);
        }
        arg(&a, "-f");
        arg(&a, f->muxer);
    }
    file_arg(&a, v->tmp);
    for (int i = 0; i < nuser; i++) free(user[i]);
    free(user);
    if (a.oom) {
        args_free(&a);
        tmp_drop(v);
        return iks_err_set(err, IKS_E_NOMEM, "out of memory");
    }

    /* ffmpeg's own messages (errors only: small) go to a file of ours in memory, for the one line we
     * report if it fails; in memory, so that a full or read-only /tmp cannot lose them */
    v->err_fd = memfd_create("ikshade-ffmpeg-log", MFD_CLOEXEC);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        int e = errno;
        args_free(&a);
        tmp_drop(v);
        if (v->err_fd >= 0) close(v->err_fd);
        v->err_fd = -1;
        return iks_err_errno(err, IKS_E_IO, e, "ffmpeg");
    }
    /* ffmpeg stops on the SIGINT a terminal sends to the whole group; we end it ourselves by closing
     * its input, so that it finishes the file: a group of its own */
    const int cfds[] = { fds[0], IKS_SPAWN_KEEP, v->err_fd >= 0 ? v->err_fd : IKS_SPAWN_KEEP };
    int rc = iks_spawn(&v->pid, a.v, cfds, 3, true);
    close(fds[0]);
    args_free(&a);
    if (rc != 0) {
        close(fds[1]);
        tmp_drop(v);
        if (v->err_fd >= 0) close(v->err_fd);
        v->err_fd = -1;
        return iks_err_errno(err, IKS_E_IO, rc, "ffmpeg");
    }
    iks_outfile_tmp_writer(v->tmp, v->pid); /* ... ending ffmpeg first, which makes the file late */
    v->fd = fds[1];
    return true;
}

/* What ffmpeg wrote to its log, NUL-terminated in buf (empty when nothing): its start, or with tail its
 * end (where it reports the file's end; a long log may precede it) */
static void read_log(int fd, bool tail, char *buf, size_t n)
{
    buf[0] = '\0';
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) return;
    off_t at = tail && st.st_size > (off_t)(n - 1) ? st.st_size - (off_t)(n - 1) : 0;
    if (lseek(fd, at, SEEK_SET) != at) return;
    ssize_t r = read(fd, buf, n - 1);
    buf[r > 0 ? r : 0] = '\0';
}

/* ffmpeg's first error line, for a message (empty when it said nothing) */
static void first_line(int fd, char *buf, size_t n)
{
    read_log(fd, false, buf, n);
    buf[strcspn(buf, "\n")] = '\0';
}

/* The reason ffmpeg gives where it says it could not finish the file, else empty. ffmpeg 5.1 exits 0
 * after "Error writing trailer of F: No space left on device" and "Error closing file F: ...", with a
 * file that has no index (an MP4 without its moov atom: unplayable), so its exit status alone would
 * let a broken video replace the output. */
static void unfinished_reason(int fd, char *buf, size_t n)
{
    char text[16384];
    read_log(fd, true, text, sizeof text);
    buf[0] = '\0';
    static const char *const SAID[] = { "Error writing trailer", "Error closing file" };
    for (size_t i = 0; i < sizeof SAID / sizeof SAID[0]; i++) {
        char *at = strstr(text, SAID[i]);
        if (!at) continue;
        /* "Error writing trailer of TMP: REASON": the reason, as TMP is our hidden name, not the user's */
        at[strcspn(at, "\n")] = '\0';
        char *why = strstr(at, ": ");
        while (why && strstr(why + 2, ": ")) why = strstr(why + 2, ": ");
        snprintf(buf, n, "%s", why ? why + 2 : at);
        return;
    }
}

/* The finished picture (v->tmp) and the WAV d->audio_after into a second temporary that takes the
 * first's place: the picture copied, the sound encoded as the format's row says. The WAV is as long as
 * the frames (the caller's), so nothing is cut. false (why in v->note) leaves v->tmp as it was: a
 * recording without its sound is still the recording. */
static bool mux_sound(iks_video *v, const iks_writer_desc *d)
{
    char *tmp = NULL;
    int fd = iks_outfile_tmp_create_ext(d->output, tmp_ext(d->output), &tmp);
    if (fd < 0) {
        snprintf(v->note, sizeof v->note, "%s", iks_outfile_strerror(errno));
        return false;
    }
    argv_t a = { 0 };
    arg(&a, "ffmpeg");
    args_of(&a, "-hide_banner -nostdin -loglevel error -y -i");
    file_arg(&a, v->tmp);
    arg(&a, "-i");
    file_arg(&a, d->audio_after);
    args_of(&a, "-map 0:v:0 -map 1:a:0 -c:v copy");
    args_of(&a, v->fmt->audio_args);
    args_of(&a, v->fmt->mux_args);
    arg(&a, "-f");
    arg(&a, v->fmt->muxer);
    file_arg(&a, tmp);
    pid_t pid = 0;
    int rc = ENOMEM;
    /* ffmpeg's log from its start again: only this run's lines can be its reasons */
    if (v->err_fd >= 0 && (ftruncate(v->err_fd, 0) != 0 || lseek(v->err_fd, 0, SEEK_SET) != 0)) {
        close(v->err_fd);
        v->err_fd = -1;
    }
    if (!a.oom) {
        const int cfds[] = { IKS_SPAWN_KEEP, IKS_SPAWN_KEEP, v->err_fd >= 0 ? v->err_fd : IKS_SPAWN_KEEP };
        rc = iks_spawn(&pid, a.v, cfds, 3, true);
    }
    args_free(&a);
    int status = -1;
    if (rc == 0) {
        iks_outfile_tmp_writer(tmp, pid);
        iks_outfile_tmp_finishing(tmp);
        iks_wait_exit(pid);
        iks_outfile_tmp_writer(tmp, 0);
        status = iks_reap(pid);
    }
    char line[256] = "";
    if (rc == 0) unfinished_reason(v->err_fd, line, sizeof line);
    if (rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && !line[0]) {
        iks_outfile_tmp_discard(v->tmp_fd, &v->tmp);
        v->tmp = tmp;
        v->tmp_fd = fd;
        return true;
    }
    if (rc != 0) snprintf(line, sizeof line, "ffmpeg: %s", strerror(rc));
    else if (!line[0]) first_line(v->err_fd, line, sizeof line);
    /* "file:NAME: reason": the reason; the names are ours (a hidden temporary, the caller's WAV) */
    const char *why = line;
    const char *const named[] = { v->tmp, d->audio_after, tmp };
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        size_t k = strlen(named[i]);
        if (!strncmp(why, "file:", 5) && !strncmp(why + 5, named[i], k) && !strncmp(why + 5 + k, ": ", 2)) why += 7 + k;
    }
    snprintf(v->note, sizeof v->note, "%s", why[0] ? why : "ffmpeg failed");
    iks_outfile_tmp_discard(fd, &tmp);
    return false;
}

bool iks_video_end(iks_video *v, const iks_writer_desc *d, bool keep, iks_err *err)
{
    /* closing its input is how ffmpeg learns the clip is over and writes the file's end */
    if (v->fd >= 0) close(v->fd);
    v->fd = -1;
    if (keep) iks_outfile_tmp_finishing(v->tmp);
    int status = 0;
    if (v->pid > 0) {
        /* its number stays ours until reaped: the registry lets go of it in between */
        iks_wait_exit(v->pid);
        iks_outfile_tmp_writer(v->tmp, 0);
        status = iks_reap(v->pid);
    }
    v->pid = 0;
    bool ok = keep;
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        char line[512];
        first_line(v->err_fd, line, sizeof line);
        if (status == -1)
            iks_err_set(err, IKS_E_IO, "%s: ffmpeg could not be waited for", d->output);
        else if (WIFSIGNALED(status))
            iks_err_set(err, IKS_E_IO, "%s: ffmpeg was killed by signal %d", d->output, WTERMSIG(status));
        else
            iks_err_set(err, IKS_E_IO, "%s: ffmpeg failed (exit %d)%s%s", d->output, WEXITSTATUS(status),
                        line[0] ? ": " : "", line);
        ok = false;
    } else if (ok) {
        char line[512];
        unfinished_reason(v->err_fd, line, sizeof line);
        if (line[0]) {
            iks_err_set(err, IKS_E_IO, "%s: ffmpeg could not finish it: %s", d->output, line);
            ok = false;
        }
    }
    /* a sound track lost keeps the picture: the note says why */
    if (ok && d->audio_after && v->fmt && v->fmt->audio && !d->ffmpeg_args && !mux_sound(v, d)) {
        char why[200];
        snprintf(why, sizeof why, "%.199s", v->note);
        snprintf(v->note, sizeof v->note, "its sound track could not be added (%s): the picture is kept alone", why);
    }
    if (ok) {
        /* the mode a new file gets (ffmpeg kept our 0600), what is at the name checked, renamed */
        ok = d->claim ? iks_outfile_tmp_claim(v->tmp_fd, v->tmp, d->claim, d->claim_user, d->claimed, PATH_MAX)
                      : iks_outfile_tmp_publish(v->tmp_fd, v->tmp, d->output);
        if (!ok) iks_err_set(err, IKS_E_IO, "%s: %s", d->output, iks_outfile_strerror(errno));
        v->tmp_fd = -1;
        free(v->tmp);
        v->tmp = NULL;
    } else tmp_drop(v);
    if (v->err_fd >= 0) close(v->err_fd);
    v->err_fd = -1;
    return ok;
}
