/* writer.c: the output side of a render: the output's name, and the sinks frames go to as the format's
 * row says (engine/formats.c): image files on the encoder pool, raw frames down a descriptor, a video
 * through writer_video.c, an animation encoded in order here.
 * What it does not do: draw or read back (render.c, live.c), or know any format by name. */
#include "engine/writer.h"
#include "base/strutil.h"
#include "engine/writer_internal.h"

#include "io/outfile.h"
#include "io/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---- the output's name ------------------------------------------------------------------------- */

/* A frame number's field is at most this wide: a name is far shorter than 4096 anyway, and a width of
 * 2^31 made printf fail and every frame land in one file */
#define MAX_FIELD 64

/* Counts %d-style conversions in a printf pattern (%%, and %d with flags 0/- and a width up to
 * MAX_FIELD); -1 when it holds any other conversion, -2 for a wider field. The pattern is never handed
 * to printf. */
static int count_conversions(const char *p)
{
    int n = 0;
    for (; *p; p++) {
        if (*p != '%') continue;
        p++;
        if (*p == '%') continue;
        while (*p == '0' || *p == '-') p++;
        long width = 0;
        while (*p >= '0' && *p <= '9') {
            width = width * 10 + (*p++ - '0');
            if (width > MAX_FIELD) return -2;
        }
        if (*p != 'd') return -1;
        n++;
    }
    return n;
}


/* the user's text as a message quotes it: 'NAME', cut to a length a message can hold */
static void quoted(const char *s, char *buf, size_t n) { snprintf(buf, n, "'%.300s'", s); }

bool iks_output_classify(const char *output, long nframes, bool any_video, const iks_format **fmt, bool *pattern,
                         iks_err *err)
{
    const iks_format *f = iks_format_of(output, any_video);
    *fmt = NULL;
    if (!iks_output_check_name(output, f, nframes, pattern, err)) return false;
    *fmt = f;
    return true;
}

bool iks_output_check_name(const char *output, const iks_format *f, long nframes, bool *pattern, iks_err *err)
{
    *pattern = false;
    char q[320];
    quoted(output, q, sizeof q);
    if (f && f->sink == IKS_SINK_RAW) return true;
    int conv = count_conversions(output);
    if (conv == -2) return iks_err_field(err, IKS_E_USAGE, "output", q, "a frame number's width is at most %d", MAX_FIELD);
    if (conv < 0 || conv > 1)
        return iks_err_field(err, IKS_E_USAGE, "output", q, "the name may hold one frame number like %%04d and no "
                             "other %% conversion (write %%%% for a literal %%)");
    *pattern = conv == 1;
    if (!f) {
        char exts[256];
        iks_format_list(exts, sizeof exts);
        return iks_err_field(err, IKS_E_USAGE, "output", q, "expected a name ending in one of %s, or '-' for raw frames",
                             exts);
    }
    if (*pattern && f->sink != IKS_SINK_FILES)
        return iks_err_field(err, IKS_E_USAGE, "output", q, "%s is one file, without a frame number",
                             f->sink == IKS_SINK_SOUND ? "a sound" : "a video");
    if (!*pattern && nframes > 1 && f->sink == IKS_SINK_FILES) {
        const char *ext = strrchr(output, '.');
        return iks_err_field(err, IKS_E_USAGE, "output", q, "%ld frames need a frame number in the name, e.g. "
                             "out/frame_%%04d%s", nframes, ext ? ext : "");
    }
    return true;
}

bool iks_output_path(const char *output, bool pattern, long frame, char *buf, size_t n)
{
    size_t k = 0;
    for (const char *p = output; *p; p++) {
        char piece[MAX_FIELD + 32];
        size_t len;
        if (*p != '%' || !pattern) {
            piece[0] = *p;
            len = 1;
        } else if (p[1] == '%') {
            piece[0] = '%';
            len = 1;
            p++;
        } else {
            /* the frame number in 64 bits: frame 2^32 must not wrap onto frame 0's file */
            bool zero = false, left = false;
            for (p++; *p == '0' || *p == '-'; p++) zero |= *p == '0', left |= *p == '-';
            int width = 0;
            while (*p >= '0' && *p <= '9') width = width * 10 + (*p++ - '0');
            int w = width > MAX_FIELD ? MAX_FIELD : width; /* checked by count_conversions */
            int r = left ? snprintf(piece, sizeof piece, "%-*ld", w, frame)
                  : zero ? snprintf(piece, sizeof piece, "%0*ld", w, frame)
                         : snprintf(piece, sizeof piece, "%*ld", w, frame);
            len = r < 0 ? 0 : (size_t)r;
        }
        if (k + len >= n) {
            if (n) buf[0] = '\0';
            errno = ENAMETOOLONG;
            return false;
        }
        memcpy(buf + k, piece, len);
        k += len;
    }
    if (k >= n) return false;
    buf[k] = '\0';
    return true;
}

bool iks_output_check_writable(const char *output, bool pattern, long first, iks_err *err)
{
    char path[PATH_MAX];
    if (!iks_output_path(output, pattern, first, path, sizeof path))
        return iks_err_field(err, IKS_E_USAGE, "output", NULL, "'%.200s...': the file name is too long", output);
    if (!iks_make_parent_dirs(path)) return iks_err_errno(err, IKS_E_IO, errno, path);
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *(slash == dir ? slash + 1 : slash) = '\0';
    else snprintf(dir, sizeof dir, ".");
    if (access(dir, W_OK) != 0) return iks_err_errno(err, IKS_E_IO, errno, path);
    if (iks_outfile_check(path) != 0) return iks_err_set(err, IKS_E_IO, "%s: %s", path, iks_outfile_strerror(errno));
    return true;
}

/* ---- the writer -------------------------------------------------------------------------------- */

struct iks_writer {
    iks_writer_desc d;
    const iks_format *fmt;
    bool pattern;
    iks_image_opts img;   /* what the format's encoders are told */
    iks_pool *pool;       /* files: encoders that write them */
    uint8_t *seq;         /* in-order sinks: the one buffer, taken on submit */
    int fd;               /* raw and video: where frames go */
    iks_video vid;
    void *anim;           /* an animation's encoder state */
    long written_seq;
    iks_err err;          /* the first failure of an in-order sink */
    bool ffmpeg_gone;     /* a video's pipe broke: ffmpeg ended, and will say why */
};

/* A frame written under its temporary name by file_job, until file_commit renames it into place or
 * gives it up. The pool runs both on the same worker thread, one frame at a time. */
static _Thread_local struct {
    int fd;
    char *tmp;
} pending = { -1, NULL };

/* One frame to a temporary beside its file, on an encoder thread, by the format's encoder. Renaming
 * waits for file_commit: frames finish out of order, and a full disk must not leave frames 1..8 there
 * with frame 0 missing (a count of 8 that a resumed render could not fill in from the start). */
static bool file_job(void *vctx, long frame, const uint8_t *px, iks_err *err)
{
    const iks_writer *w = vctx;
    char path[PATH_MAX];
    if (!iks_output_path(w->d.output, w->pattern, frame, path, sizeof path))
        return iks_err_field(err, IKS_E_USAGE, "output", NULL, "'%.200s...': the name of frame %ld is too long",
                             w->d.output, frame);
    uint8_t *bytes;
    size_t len;
    if (!w->fmt->encode(px, &w->img, &bytes, &len, err)) return iks_err_prefix(err, "%.400s: ", path);
    bool ok = iks_make_parent_dirs(path) && iks_outfile_check(path) == 0 &&
              (pending.fd = iks_outfile_tmp_create(path, &pending.tmp)) >= 0;
    if (ok && !iks_write_all(pending.fd, bytes, len)) {
        int e = errno;
        iks_outfile_tmp_discard(pending.fd, &pending.tmp);
        pending.fd = -1;
        errno = e;
        ok = false;
    }
    if (!ok) iks_err_set(err, IKS_E_IO, "%.400s: %s", path, iks_outfile_strerror(errno));
    free(bytes);
    return ok;
}

/* The frame file_job wrote, renamed into place when every frame before it is there (keep), else
 * removed */
static bool file_commit(void *vctx, long frame, bool keep, iks_err *err)
{
    const iks_writer *w = vctx;
    char path[PATH_MAX];
    /* the name file_job made from the same frame, so it fits */
    if (!keep || !iks_output_path(w->d.output, w->pattern, frame, path, sizeof path)) {
        iks_outfile_tmp_discard(pending.fd, &pending.tmp);
        pending.fd = -1;
        return !keep || iks_err_set(err, IKS_E_USAGE, "frame %ld: the name is too long", frame);
    }
    bool ok = iks_outfile_tmp_publish(pending.fd, pending.tmp, path);
    int e = errno;
    free(pending.tmp);
    pending.tmp = NULL;
    pending.fd = -1;
    if (!ok) iks_err_set(err, IKS_E_IO, "%.400s: %s", path, iks_outfile_strerror(e));
    return ok;
}

/* Raw frames go out top row first; GL gives bottom row first. */
static bool write_raw(int fd, const uint8_t *px, int w, int h)
{
    size_t row = (size_t)w * 4;
    for (int y = h - 1; y >= 0; y--)
        if (!iks_write_all(fd, px + (size_t)y * row, row)) return false;
    return true;
}

bool iks_writer_open(const iks_writer_desc *d, iks_writer **out, iks_err *err)
{
    *out = NULL;
    iks_writer *w = calloc(1, sizeof *w);
    if (!w) return iks_err_set(err, IKS_E_NOMEM, "out of memory");
    w->d = *d;
    w->fd = -1;
    w->vid.fd = -1;
    w->err = (iks_err)IKS_ERR_INIT;
    /* the caller's reading of the name, when it has one (the render's); else ours */
    if (d->fmt) {
        w->fmt = d->fmt;
        w->pattern = d->pattern;
    } else if (!iks_output_classify(d->output, 1, d->ffmpeg_args != NULL, &w->fmt, &w->pattern, err)) {
        free(w);
        return false;
    }
    const iks_format *f = w->fmt;
    if (f->sink == IKS_SINK_SOUND) {
        free(w);
        return iks_err_field(err, IKS_E_USAGE, "output", NULL, "'%.300s': %s takes sound, not frames", d->output, f->id.name);
    }
    w->img = (iks_image_opts){ .w = d->width, .h = d->height, .depth = d->depth, .alpha = d->alpha && f->alpha,
                               .level = d->png_level, .fast = d->png_fast, .quality = d->quality ? d->quality : IKS_DEFAULT_QUALITY, .id = d->id };
    size_t frame_bytes = (size_t)d->width * (size_t)d->height * (iks_format_float(f, d->depth) ? 16 : 4);
    if (f->sink == IKS_SINK_FILES) {
        w->pool = iks_pool_create(d->jobs, d->jobs + 2, frame_bytes, d->nice, file_job, file_commit, w);
        if (!w->pool) {
            free(w);
            return iks_err_set(err, IKS_E_NOMEM, "out of memory for %d frame buffers of %dx%d", d->jobs + 2, d->width,
                               d->height);
        }
        *out = w;
        return true;
    }
    w->seq = malloc(frame_bytes);
    if (!w->seq) {
        free(w);
        return iks_err_set(err, IKS_E_NOMEM, "out of memory for a %dx%d frame", d->width, d->height);
    }
    bool ok = true;
    if (f->sink == IKS_SINK_RAW) {
        w->fd = d->raw_fd > 0 ? d->raw_fd : STDOUT_FILENO;
        /* a caller's descriptor that is not open (or not for writing) is its mistake, said before any
         * frame is drawn, not as an I/O error at the first frame */
        int fl = fcntl(w->fd, F_GETFL);
        if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
            const char *why = fl < 0 ? "not an open descriptor" : "not open for writing";
            if (w->fd == STDOUT_FILENO)
                ok = iks_err_set(err, IKS_E_IO, "standard output is %s", fl < 0 ? "closed" : "not open for writing");
            else {
                char v[32];
                snprintf(v, sizeof v, "%d", w->fd);
                ok = iks_err_field(err, IKS_E_USAGE, "raw_fd", v, "%s", why);
            }
        }
    } else if (f->sink == IKS_SINK_FFMPEG) {
        ok = iks_video_start(&w->vid, &w->d, f, err);
        w->fd = w->vid.fd;
    } else if (f->sink == IKS_SINK_ANIM) {
        /* the file appears whole at the end: its name is checked and its directory made now */
        if (iks_outfile_check(d->output) != 0) ok = iks_err_set(err, IKS_E_IO, "%s: %s", d->output, iks_outfile_strerror(errno));
        else if (!iks_make_parent_dirs(d->output)) ok = iks_err_errno(err, IKS_E_IO, errno, d->output);
        else ok = f->anim->open(&w->img, d->fps, &w->anim, err);
    }
    if (!ok) {
        if (w->anim) f->anim->free(w->anim);
        free(w->seq);
        free(w);
        return false;
    }
    *out = w;
    return true;
}

uint8_t *iks_writer_acquire(iks_writer *w, int *slot)
{
    if (w->pool) return iks_pool_acquire(w->pool, slot); /* NULL once a job failed: the pool holds why */
    *slot = 0;
    return w->err.code == IKS_OK ? w->seq : NULL;
}

bool iks_writer_submit(iks_writer *w, int slot, long frame)
{
    if (w->pool) {
        iks_pool_submit(w->pool, slot, frame);
        return true;
    }
    if (w->err.code != IKS_OK) return false;
    if (w->fmt->sink == IKS_SINK_ANIM) {
        if (!w->fmt->anim->add(w->anim, w->seq, &w->err)) return iks_err_prefix(&w->err, "%s: ", w->d.output);
    } else if (!write_raw(w->fd, w->seq, w->d.width, w->d.height)) {
        char fdname[32];
        snprintf(fdname, sizeof fdname, "raw_fd %d", w->fd);
        bool video = w->fmt->sink == IKS_SINK_FFMPEG;
        const char *where = video ? w->d.output : w->fd == STDOUT_FILENO ? "stdout" : fdname;
        /* a reader that stopped reading, and a signal that asked us to stop: stopped, not failed */
        if (errno == EINTR && iks_stop_requested())
            return iks_err_set(&w->err, IKS_E_INTERRUPTED, "interrupted while writing frame %ld to %s", frame, where);
        w->ffmpeg_gone = errno == EPIPE && video;
        return iks_err_set(&w->err, IKS_E_IO, "%s: %s", where, w->ffmpeg_gone ? "ffmpeg stopped reading" : strerror(errno));
    }
    w->written_seq++;
    return true;
}

long iks_writer_written(iks_writer *w)
{
    return w->pool ? iks_pool_done(w->pool) : w->written_seq;
}

bool iks_writer_close(iks_writer *w, bool caller_ok, iks_writer_result *res, iks_err *err)
{
    iks_writer_result local;
    if (!res) res = &local;
    memset(res, 0, sizeof *res);
    if (!w) return true;
    bool ok = w->err.code == IKS_OK;
    if (!ok) iks_err_move(err, &w->err);
    if (w->pool) {
        iks_err perr = IKS_ERR_INIT;
        if (!iks_pool_finish(w->pool, &perr)) {
            if (ok) iks_err_move(err, &perr);
            ok = false;
        }
        iks_err_clear(&perr);
        res->written = iks_pool_done(w->pool);
        iks_pool_destroy(w->pool);
    } else res->written = w->written_seq;
    if (w->fmt->sink == IKS_SINK_ANIM) {
        /* as a video: frames stopped early still make a file that plays; a failure makes none */
        bool keep = ok && caller_ok && res->written > 0;
        uint8_t *bytes = NULL;
        size_t len = 0;
        if (keep && !w->fmt->anim->finish(w->anim, &bytes, &len, err)) keep = ok = false;
        if (keep && !(w->d.claim ? iks_write_new(bytes, len, w->d.claim, w->d.claim_user, w->d.claimed, PATH_MAX)
                                 : iks_write_atomic(w->d.output, bytes, len))) {
            iks_err_set(err, IKS_E_IO, "%s: %s", w->d.output, iks_outfile_strerror(errno));
            keep = ok = false;
        }
        free(bytes);
        w->fmt->anim->free(w->anim);
        res->kept = keep;
        res->fps_played = w->d.fps;
    }
    if (w->fmt->sink == IKS_SINK_FFMPEG) {
        iks_err verr = IKS_ERR_INIT;
        /* frames stopped early still make a video that plays; a failure, or none at all, makes none */
        bool keep = ok && caller_ok && res->written > 0;
        bool vok = iks_video_end(&w->vid, &w->d, keep, &verr);
        res->kept = vok && keep;
        /* ffmpeg's own reason beats ours ("ffmpeg stopped reading") */
        if (verr.code != IKS_OK && (ok || w->ffmpeg_gone)) {
            iks_err_clear(err);
            iks_err_move(err, &verr);
            ok = false;
        }
        iks_err_clear(&verr);
        res->fps_played = w->vid.fps_played;
        res->padded = w->vid.padded;
        snprintf(res->note, sizeof res->note, "%s", w->vid.note);
    }
    iks_err_clear(&w->err);
    free(w->seq);
    free(w);
    return ok;
}
