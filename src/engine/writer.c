/* writer.c: the output side of a render: the output's name, and the sinks frames go to (PNG files on
 * the encoder pool, raw frames down a descriptor, a video through writer_video.c).
 * What it does not do: draw or read back (render.c, live.c). */
#include "engine/writer.h"
#include "base/strutil.h"
#include "engine/writer_internal.h"

#include "io/hdrio.h"
#include "io/pngio.h"
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


bool iks_output_classify(const char *output, long nframes, bool any_video, iks_out_kind *kind, bool *pattern,
                         iks_err *err)
{
    *pattern = false;
    if (strcmp(output, "-") == 0) {
        *kind = IKS_OUT_RAW;
        return true;
    }
    int conv = count_conversions(output);
    if (conv == -2)
        return iks_err_set(err, IKS_E_USAGE, "-o '%.200s': a frame number's width is at most %d", output, MAX_FIELD);
    if (conv < 0 || conv > 1)
        return iks_err_set(err, IKS_E_USAGE, "-o '%s': the name may hold one frame number like %%04d and no other %% "
                           "conversion (write %%%% for a literal %%)", output);
    *pattern = conv == 1;
    if (iks_video_format(output) || (any_video && !iks_ends_with(output, ".png"))) {
        *kind = IKS_OUT_VIDEO;
        if (*pattern) return iks_err_set(err, IKS_E_USAGE, "-o '%s': a video is one file, without a frame number", output);
        return true;
    }
    *kind = iks_ends_with(output, ".exr") ? IKS_OUT_EXR : IKS_OUT_PNG;
    if (!iks_ends_with(output, ".png") && !iks_ends_with(output, ".exr"))
        return iks_err_set(err, IKS_E_USAGE, "-o '%s': expected a .png or .exr name, '-' for raw frames, or a video "
                           "(.mp4 .webm .mkv .gif)", output);
    if (!*pattern && nframes > 1)
        return iks_err_set(err, IKS_E_USAGE, "-o '%s': %ld frames need a frame number in the name, e.g. out/frame_%%04d%s",
                           output, nframes, *kind == IKS_OUT_EXR ? ".exr" : ".png");
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
        return iks_err_set(err, IKS_E_USAGE, "-o '%.200s...': the file name is too long", output);
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
    iks_out_kind kind;
    bool pattern;
    iks_pool *pool;       /* PNG: encoders that write the files */
    uint8_t *seq;         /* raw and video: the one buffer, written in order on submit */
    int fd;               /* raw and video: where frames go */
    iks_video vid;
    long written_seq;
    iks_err err;          /* the first failure of an in-order sink */
    bool ffmpeg_gone;     /* a video's pipe broke: ffmpeg ended, and will say why */
};

bool iks_output_float(iks_out_kind kind, int depth)
{
    return kind == IKS_OUT_EXR || (kind == IKS_OUT_PNG && depth == 16);
}

/* One frame to its file, on an encoder thread: PNG (8 or 16 bits) or EXR */
static bool png_job(void *vctx, long frame, const uint8_t *px, iks_err *err)
{
    const iks_writer *w = vctx;
    char path[PATH_MAX];
    if (!iks_output_path(w->d.output, w->pattern, frame, path, sizeof path))
        return iks_err_set(err, IKS_E_USAGE, "-o '%.200s...': the name of frame %ld is too long", w->d.output, frame);
    uint8_t *png;
    size_t len;
    const float *fpx = (const float *)(const void *)px;
    if (w->kind == IKS_OUT_EXR) {
        if (!iks_exr_encode(fpx, w->d.width, w->d.height, w->d.depth == 32, &png, &len, err))
            return iks_err_prefix(err, "%.400s: ", path);
    } else if (w->d.depth == 16) {
        if (!iks_png16_encode(fpx, w->d.width, w->d.height, w->d.alpha, &png, &len, err))
            return iks_err_prefix(err, "%.400s: ", path);
    } else {
        iks_png_opts o = { .level = w->d.png_fast ? 1 : w->d.png_level, .alpha = w->d.alpha };
        if (!iks_png_encode(px, w->d.width, w->d.height, &o, &png, &len, err)) return iks_err_prefix(err, "%.400s: ", path);
    }
    bool ok = iks_make_parent_dirs(path) && iks_write_atomic(path, png, len);
    if (!ok) iks_err_set(err, IKS_E_IO, "%.400s: %s", path, iks_outfile_strerror(errno));
    free(png);
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
    if (!iks_output_classify(d->output, 1, d->ffmpeg_args != NULL, &w->kind, &w->pattern, err)) {
        free(w);
        return false;
    }
    size_t frame_bytes = (size_t)d->width * (size_t)d->height * (iks_output_float(w->kind, d->depth) ? 16 : 4);
    if (w->kind == IKS_OUT_PNG || w->kind == IKS_OUT_EXR) {
        w->pool = iks_pool_create(d->jobs, d->jobs + 2, frame_bytes, d->nice, png_job, w);
        if (!w->pool) {
            free(w);
            return iks_err_set(err, IKS_E_NOMEM, "out of memory for %d frame buffers of %dx%d", d->jobs + 2, d->width,
                               d->height);
        }
    } else {
        w->seq = malloc(frame_bytes);
        if (!w->seq) {
            free(w);
            return iks_err_set(err, IKS_E_NOMEM, "out of memory for a %dx%d frame", d->width, d->height);
        }
        w->fd = d->raw_fd > 0 ? d->raw_fd : STDOUT_FILENO;
        /* a caller's descriptor that is not open (or not for writing) is its mistake, said before any
         * frame is drawn, not as an I/O error at the first frame */
        int fl = w->kind == IKS_OUT_RAW ? fcntl(w->fd, F_GETFL) : O_WRONLY;
        if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
            int fd = w->fd;
            free(w->seq);
            free(w);
            if (fd == STDOUT_FILENO) return iks_err_set(err, IKS_E_IO, "-o -: standard output is %s", fl < 0 ? "closed" : "not open for writing");
            return iks_err_set(err, IKS_E_USAGE, "raw_fd %d: %s", fd, fl < 0 ? "not an open descriptor" : "not open for writing");
        }
        if (w->kind == IKS_OUT_VIDEO) {
            if (!iks_video_start(&w->vid, &w->d, err)) {
                free(w->seq);
                free(w);
                return false;
            }
            w->fd = w->vid.fd;
        }
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
    if (!write_raw(w->fd, w->seq, w->d.width, w->d.height)) {
        char fdname[32];
        snprintf(fdname, sizeof fdname, "raw_fd %d", w->fd);
        const char *where = w->kind != IKS_OUT_RAW ? w->d.output : w->fd == STDOUT_FILENO ? "stdout" : fdname;
        /* a reader that stopped reading, and a signal that asked us to stop: stopped, not failed */
        if (errno == EINTR && iks_stop_requested())
            return iks_err_set(&w->err, IKS_E_INTERRUPTED, "interrupted while writing frame %ld to %s", frame, where);
        w->ffmpeg_gone = errno == EPIPE && w->kind == IKS_OUT_VIDEO;
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
    if (w->kind == IKS_OUT_VIDEO) {
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
    }
    iks_err_clear(&w->err);
    free(w->seq);
    free(w);
    return ok;
}
