/* render.c: iks_render: frames to PNG (or raw RGBA, or video through ffmpeg), and iks_bench_render,
 * which times the same pipeline stage by stage.
 *
 * The pipeline: draw frame i (into a K-times larger target when supersampling, then box-filtered
 * down), start its readback into a ring of pixel buffer objects, and collect the readback of frame
 * i-2 into a free buffer of the encoder pool, whose threads encode and write PNGs atomically. The GL
 * thread waits only when every buffer is in flight, so memory stays bounded by the pool's size.
 * Frame i is drawn at t0 + i/fps in double, so a split into ranges gives the same frames.
 * What it does not do: parse arguments or print (src/cli), or own the toy (the caller's). */
#include "engine/engine.h"
#include "base/strutil.h"

#include "engine/checkpoint.h"
#include "io/outfile.h"
#include "io/pngio.h"
#include "io/pool.h"
#include "engine/writer.h"
#include "engine/formats.h"
#include "engine/writer_internal.h"
#include "engine/toyreads.h"
#include "engine/writer_wav.h"
#include "engine/segments.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define RING 3

/* a render's description with its defaults filled in and its output classified */
typedef struct {
    iks_render_desc d;
    const iks_format *fmt;
    bool pattern;
    bool hdr;           /* frames are drawn and read back as float RGBA (EXR, 16-bit PNG) */
    bool png_fast;      /* the default PNG path (ISA-L), else libdeflate at level */
    int level;
    const iks_engine *e; /* set by the render: its context is bound again after the caller's callback */
    char id[IKS_FRAME_ID_MAX]; /* image files: the render's identity (render_id), written into each frame */
    /* a film in segments (d.segments): d's range and output are then this segment's, the film's in fl */
    bool film;
    bool empty_part;    /* this part has no frames (more parts than frames) */
    iks_film fl;
    char seg[PATH_MAX];  /* this segment's file */
    char comment[512];   /* what it says of itself (iks_segment_comment) */
} plan;

/* The time's bound, the one time0 and a recording's times already have, far inside a float's range: a
 * shader gets the time and the time step as floats, where a larger double could arrive as Inf */
#define MAX_ITIME 1e9
#define MAX_FRAMES 100000000L /* a render of more is a mistake: 19 days at 60 fps */
#define MAX_BENCH_FRAMES 100000L

/* "%g" of v, for a message's value */
static const char *num(double v, char *buf, size_t n)
{
    iks_snprintf_c(buf, n, "%g", v);
    return buf;
}

/* The format d's output asks for, NULL for none (no description, no name, or a name no format takes):
 * the render's one reading of the name against the formats' table, whose row the checks, the sound's
 * choice and the writer are all handed. A sound row is the same with or without ffmpeg_args. */
static const iks_format *output_format(const iks_render_desc *d)
{
    return d && d->output ? iks_format_of(d->output, d->ffmpeg_args != NULL) : NULL;
}

/* A film in segments: checks that the output joins, and makes d this segment's render (its frames, its
 * file); the film's range and name stay in fl. The identity is the render's, added by film_ready. */
static bool film_plan(plan *p, iks_err *err)
{
    iks_render_desc *r = &p->d;
    const iks_format *f = p->fmt;
    char v[320];
    snprintf(v, sizeof v, "%ld", r->segments);
    if (r->segments < 1 || r->segments > MAX_FRAMES)
        return iks_err_field(err, IKS_E_USAGE, "segments", v, "expected 1 to %ld segments", MAX_FRAMES);
    snprintf(v, sizeof v, "%d", (int)r->join);
    if (r->join < IKS_JOIN_NONE || r->join > IKS_JOIN_NOW)
        return iks_err_field(err, IKS_E_USAGE, "join", v, "expected IKS_JOIN_NONE, _WHEN_DONE or _NOW");
    if (r->ffmpeg_args)
        return iks_err_field(err, IKS_E_USAGE, "ffmpeg_args", NULL, "a film in segments is made in ikshade's own "
                             "settings, which its join holds every segment to");
    snprintf(v, sizeof v, "'%.300s'", r->output);
    if (f->sink != IKS_SINK_FFMPEG)
        return iks_err_field(err, IKS_E_USAGE, "output", v, "a film in segments is a video in ikshade's own settings "
                             "(.mp4, .mkv or .webm)%s", f->sink == IKS_SINK_FILES ? ": image files are parts already" : "");
    if (!f->segments)
        return iks_err_field(err, IKS_E_USAGE, "output", v, "%s segments cannot be joined without encoding the picture "
                             "again (its palette is made for the whole clip): make the film .mp4, .mkv or .webm, or "
                             "render image files", f->id.name);
    p->film = true;
    p->fl = (iks_film){ .output = r->output, .fmt = f, .first = r->first, .end = r->end, .n = r->segments,
                        .fps = r->fps, .settings = iks_film_settings(f, r->width + r->width % 2, r->height + r->height % 2) };
    if (r->join == IKS_JOIN_NOW) return true;
    snprintf(v, sizeof v, "%ld", r->segment);
    if (r->segment < 0 || r->segment >= r->segments)
        return iks_err_field(err, IKS_E_USAGE, "segment", v, "expected a segment from 0 to %ld", r->segments - 1);
    long a, b;
    iks_shard_range(r->first, r->end, r->segment, r->segments, &a, &b);
    p->empty_part = a == b;
    if (!iks_segment_name(r->output, r->segment, r->segments, p->seg, sizeof p->seg))
        return iks_err_field(err, IKS_E_USAGE, "output", v, "the name is too long");
    if (!p->empty_part) r->first = a, r->end = b, r->output = p->seg;
    return true;
}

/* Fills in the defaults and checks the description without GL; f is output_format(d). Errors name the
 * field (iks_err_field). */
static bool make_plan(const iks_render_desc *d, const iks_format *f, plan *p, iks_err *err)
{
    memset(p, 0, sizeof *p);
    if (!d) return iks_err_set(err, IKS_E_USAGE, "iks_render: no description");
    p->d = *d;
    iks_render_desc *r = &p->d;
    char v[96];
    if (!r->output || !*r->output) return iks_err_field(err, IKS_E_USAGE, "output", NULL, "none given (out/%%04d.png, "
                                                        "a video, or - for raw frames)");
    if (!r->width) r->width = IKS_DEFAULT_WIDTH;
    if (!r->height) r->height = IKS_DEFAULT_HEIGHT;
    snprintf(v, sizeof v, "%dx%d", r->width, r->height);
    if (r->width < 1 || r->height < 1 || r->width > IKS_MAX_SIDE || r->height > IKS_MAX_SIDE)
        return iks_err_field(err, IKS_E_USAGE, "size", v, "expected 1 to %d pixels on each side", IKS_MAX_SIDE);
    /* frames do not use it (the CLI turns it into a range), but a length that cannot be is refused
     * wherever it is given */
    if (r->seconds && !(r->seconds > 0 && isfinite(r->seconds)))
        return iks_err_field(err, IKS_E_USAGE, "seconds", num(r->seconds, v, sizeof v), "expected a positive number of "
                             "seconds");
    if (!r->end && r->first < LONG_MAX) r->end = r->first + 1;
    snprintf(v, sizeof v, "%ld:%ld", r->first, r->end);
    if (r->first < 0 || r->end <= r->first)
        return iks_err_field(err, IKS_E_USAGE, "frames", v, "expected a range first:end with 0 <= first < end");
    if (r->end - r->first > MAX_FRAMES)
        return iks_err_field(err, IKS_E_USAGE, "frames", v, "at most %ld frames", MAX_FRAMES);
    if (!r->fps) r->fps = 60;
    /* the lowest rate is the one whose time step (1/fps) is still within MAX_ITIME */
    if (!(r->fps >= 1 / MAX_ITIME && r->fps <= 10000))
        return iks_err_field(err, IKS_E_USAGE, "fps", num(r->fps, v, sizeof v), "expected a number from 1e-9 to 10000 "
                             "(the time step, 1/fps, is at most 1e9 s)");
    if (!(fabs(r->time0) <= MAX_ITIME))
        return iks_err_field(err, IKS_E_USAGE, "time0", num(r->time0, v, sizeof v), "expected a finite number of "
                             "seconds from -1e9 to 1e9");
    /* the time only grows from frame to frame and starts within the bound (time0, or a recording's
     * first, both checked), so the last frame's is the one that can pass it */
    iks_frame_info last;
    iks_render_frame_info(r, r->end - 1, &last);
    if (!(fabs(last.time) <= MAX_ITIME)) {
        snprintf(v, sizeof v, "%ld:%ld", r->first, r->end);
        return iks_err_field(err, IKS_E_USAGE, "frames", v, "at fps %g%s, frame %ld's time would be %.13g s, beyond 1e9 "
                             "s (time0's limit)", r->fps, r->input ? " from the recording's first time" : "",
                             r->end - 1, last.time);
    }
    if (!r->ssaa) r->ssaa = 1;
    if (r->ssaa < 1 || r->ssaa > 8)
        return iks_err_field(err, IKS_E_USAGE, "ssaa", num(r->ssaa, v, sizeof v), "expected a whole number from 1 to 8");
    /* scaled by ssaa, a larger float could reach Inf */
    for (int k = 0; r->have_mouse && k < 4; k++)
        if (!(fabsf(r->mouse[k]) <= 1e6f))
            return iks_err_field(err, IKS_E_USAGE, "mouse", num(r->mouse[k], v, sizeof v), "not a pixel within a "
                                 "million of the frame");
    if (!r->jobs) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        r->jobs = ncpu > 0 ? (int)(ncpu > 256 ? 256 : ncpu) : 2;
    }
    if (r->jobs < 1 || r->jobs > 256)
        return iks_err_field(err, IKS_E_USAGE, "jobs", num(r->jobs, v, sizeof v), "expected a whole number from 1 to 256");
    /* 0 (the default) and 1: the fast path (ISA-L level 1); 2..12 libdeflate's levels; -1 stored */
    p->png_fast = r->png_level == 0 || r->png_level == 1;
    p->level = p->png_fast ? 1 : r->png_level < 0 ? 0 : r->png_level;
    if (r->png_level < -1 || r->png_level > 12)
        return iks_err_field(err, IKS_E_USAGE, "png_level", num(r->png_level, v, sizeof v), "expected 1 (fast) to 12 "
                             "(small), or -1 (stored)");
    /* 0: the writer's default (IKS_DEFAULT_QUALITY) */
    if (r->quality && (r->quality < 1 || r->quality > 100))
        return iks_err_field(err, IKS_E_USAGE, "quality", num(r->quality, v, sizeof v), "expected 1 to 100");
    if (r->cube_strips < -1 || r->cube_strips > 1)
        return iks_err_field(err, IKS_E_USAGE, "cube_strips", num(r->cube_strips, v, sizeof v),
                             "expected 0 (as measured), 1 (always) or -1 (never)");
    if (!iks_output_check_name(r->output, f, r->end - r->first, &p->pattern, err)) return false;
    p->fmt = f;
    snprintf(v, sizeof v, "'%.80s'", r->output);
    /* silently dropped, the user's options would leave a file made otherwise than they asked */
    if (r->ffmpeg_args && f->sink != IKS_SINK_FFMPEG)
        return iks_err_field(err, IKS_E_USAGE, "ffmpeg_args", NULL, "with output '%.200s': %s is not made by ffmpeg; "
                             "its options apply to videos", r->output, f->id.name);
    if (f->max_side && (r->width > f->max_side || r->height > f->max_side))
        return iks_err_field(err, IKS_E_USAGE, "output", v, "%s holds at most %d pixels on a side, not %dx%d", f->id.name,
                             f->max_side, r->width, r->height);
    if (f->max_fps && r->fps > f->max_fps)
        return iks_err_field(err, IKS_E_USAGE, "output", v, "%s plays at most %g frames a second, not fps %g", f->id.name,
                             f->max_fps, r->fps);
    if (!r->depth) r->depth = f->depth;
    if (!iks_format_takes(f, r->depth)) {
        char takes[32] = "";
        for (int bits = 8; bits <= 32; bits += 8)
            if (iks_format_takes(f, bits)) snprintf(takes + strlen(takes), sizeof takes - strlen(takes), "%s%d",
                                                    takes[0] ? " or " : "", bits);
        return iks_err_field(err, IKS_E_USAGE, "depth", num(r->depth, v, sizeof v), "with output '%.200s': %s takes %s "
                             "bits per channel", r->output, f->id.name, takes);
    }
    p->hdr = iks_format_float(f, r->depth);
    if (r->resume && !f->resume && !r->segments)
        return iks_err_field(err, IKS_E_USAGE, "resume", NULL, "with output '%s': resume keeps files it can check "
                             "whole, frames in PNG, JPEG or EXR files, so the output must be those (e.g. "
                             "out/%%05d.png; join them into a video afterwards)", r->output);
    if (r->checkpoint_every < 0)
        return iks_err_field(err, IKS_E_USAGE, "checkpoint_every", num((double)r->checkpoint_every, v, sizeof v),
                             "expected a whole number of frames from 1");
    if (r->checkpoint_every > 0 && !(r->checkpoint_dir && *r->checkpoint_dir))
        return iks_err_field(err, IKS_E_USAGE, "checkpoint_every", num((double)r->checkpoint_every, v, sizeof v),
                             "needs checkpoint_dir: where the checkpoints go");
    if (r->checkpoint_dir && !*r->checkpoint_dir)
        return iks_err_field(err, IKS_E_USAGE, "checkpoint_dir", "''", "an empty directory name");
    return (!r->segments && !r->join) || film_plan(p, err);
}

iks_code iks_shard_range(long first, long end, long k, long n, long *a, long *b)
{
    if (!a || !b) return iks_fail_usage("iks_shard_range: a and b must not be NULL");
    if (n < 1 || k < 0 || k >= n) {
        iks_err err = IKS_ERR_INIT;
        char v[64];
        snprintf(v, sizeof v, "%ld/%ld", k, n);
        iks_err_field(&err, IKS_E_USAGE, "shard", v, "expected part k of n with n >= 1 and k from 0 to n-1");
        return iks_publish(&err);
    }
    if (first < 0 || end < first) return iks_fail_usage("iks_shard_range: frames %ld:%ld are not a range", first, end);
    /* q frames each, and one more for the first r parts: no product that could overflow */
    long total = end - first, q = total / n, r = total % n;
    *a = first + k * q + (k < r ? k : r);
    *b = *a + q + (k < r ? 1 : 0);
    return IKS_OK;
}

/* An output that is one of the files the toy reads (its shader, a texture, the recording it replays)
 * would replace what the frames are made from: refused before anything is made or written. Raw
 * frames go down a descriptor the caller opened. */
static bool spares_inputs(const iks_toy *t, const iks_render_desc *d, const iks_format *f, bool pattern, iks_err *err)
{
    if (f && f->sink == IKS_SINK_RAW) return true;
    iks_reads r = { 0 };
    bool ok = iks_toy_reads(t, &r, err);
    if (ok && !iks_reads_add(&r, iks_input_log_path(d->input), IKS_READ_RECORDING))
        ok = iks_err_set(err, IKS_E_NOMEM, "out of memory");
    ok = ok && iks_output_spares(&r, "output", d->output, pattern, d->first, d->end, "the render", err);
    iks_reads_free(&r);
    return ok;
}

/* fail early on an output we cannot write, before any rendering */
static bool check_writable(const plan *p, iks_err *err)
{
    return p->fmt->sink != IKS_SINK_FILES || iks_output_check_writable(p->d.output, p->pattern, p->d.first, err);
}

/* ---- sound ------------------------------------------------------------------------------------- */

#define DEFAULT_SOUND_SECONDS 180.0 /* the length of the sound the site renders and plays */
#define MAX_SOUND_SECONDS 21600.0   /* 6 hours: under a WAV's 4 GiB */

/* whether the output is the toy's sound alone (f: output_format's row) */
static bool is_sound(const iks_format *f) { return f && f->sink == IKS_SINK_SOUND; }

static bool wav_plan(const iks_render_desc *d, double *seconds, iks_err *err)
{
    *seconds = d->seconds > 0 ? d->seconds : DEFAULT_SOUND_SECONDS;
    char v[64];
    if (!isfinite(d->seconds) || d->seconds < 0 || *seconds > MAX_SOUND_SECONDS)
        return iks_err_field(err, IKS_E_USAGE, "seconds", num(d->seconds, v, sizeof v), "expected a number of seconds "
                             "above 0 and at most %g", MAX_SOUND_SECONDS);
    if (!isfinite(d->time0) || d->time0 < 0 || d->time0 > MAX_SOUND_SECONDS)
        return iks_err_field(err, IKS_E_USAGE, "time0", num(d->time0, v, sizeof v), "with output %s: the sound starts at "
                             "a time from 0 to %g s", d->output, MAX_SOUND_SECONDS);
    if (d->ffmpeg_args)
        return iks_err_field(err, IKS_E_USAGE, "ffmpeg_args", NULL, "with output '%.200s': a WAV is not made by ffmpeg; "
                             "its options apply to videos", d->output);
    return true;
}

/* samples from t0 for the given seconds, as whole samples */
static void sound_span(double t0, double seconds, long *first, long *n)
{
    *first = lround(t0 * IKS_SAMPLE_RATE);
    *n = lround((t0 + seconds) * IKS_SAMPLE_RATE) - *first;
}

/* -o song.wav: the sound pass alone, written atomically */
static iks_code render_wav(iks_toy *t, const iks_render_desc *d, iks_render_stats *st)
{
    iks_err err = IKS_ERR_INIT;
    double seconds;
    if (!wav_plan(d, &seconds, &err) || !spares_inputs(t, d, NULL, false, &err)) return iks_publish(&err);
    if (!iks_gltoy_has_audio(&t->gl)) {
        char v[320];
        snprintf(v, sizeof v, "'%.300s'", d->output);
        iks_err_field(&err, IKS_E_USAGE, "output", v, "%s has no sound (a mainSound function, a JSON's sound pass, "
                      "sound.glsl, or a music channel)", t->tf.name);
        return iks_publish(&err);
    }
    if (!iks_make_parent_dirs(d->output)) {
        iks_err_errno(&err, IKS_E_IO, errno, d->output);
        return iks_publish(&err);
    }
    if (iks_outfile_check(d->output) != 0) {
        iks_err_set(&err, IKS_E_IO, "%s: %s", d->output, iks_outfile_strerror(errno));
        return iks_publish(&err);
    }
    long first, n;
    sound_span(d->time0, seconds, &first, &n);
    double start = iks_now();
    void *wav;
    size_t len;
    if (!iks_sound_wav(&t->gl, first, n, &t->e->log, &wav, &len, &err)) return iks_publish(&err);
    bool ok = iks_write_atomic(d->output, wav, len);
    int e = errno;
    free(wav);
    if (!ok) {
        iks_err_set(&err, e == EINTR ? IKS_E_INTERRUPTED : IKS_E_IO, "%s: %s", d->output, iks_outfile_strerror(e));
        return iks_publish(&err);
    }
    st->samples = n;
    st->seconds = iks_now() - start;
    return IKS_OK;
}

/* A video's audio track: the sound of the frames' time span in a temporary WAV beside the output (its
 * name in *tmp, for the writer; the caller removes it). false with err set. */
static bool video_audio(iks_toy *t, const iks_render_desc *r, char **tmp, long *samples, iks_err *err)
{
    *tmp = NULL;
    long first, n;
    sound_span(r->time0 + r->first / r->fps, (r->end - r->first) / r->fps, &first, &n);
    void *wav;
    size_t len;
    if (!iks_sound_wav(&t->gl, first, n, &t->e->log, &wav, &len, err)) return false;
    char *name = NULL;
    int fd = iks_outfile_tmp_create(r->output, &name);
    bool ok = fd >= 0 && iks_write_all(fd, wav, len);
    int e = errno;
    free(wav);
    if (fd >= 0 && close(fd) != 0 && ok) ok = false, e = errno;
    if (!ok) {
        iks_outfile_tmp_discard(-1, &name);
        return iks_err_set(err, IKS_E_IO, "%s: its audio track: %s", r->output, iks_outfile_strerror(e));
    }
    *tmp = name;
    *samples = n;
    return true;
}

static void audio_remove(char *tmp) { iks_outfile_tmp_discard(-1, &tmp); }

iks_code iks_render_check(const iks_render_desc *d)
{
    iks_err err = IKS_ERR_INIT;
    iks_render_desc dc;
    if (!IKS_TAKE(iks_render_desc, d, &dc, IKS_FIRST_RENDER_DESC, &err)) return iks_publish(&err);
    if (d) d = &dc;
    const iks_format *f = output_format(d);
    if (is_sound(f)) {
        double s;
        return wav_plan(d, &s, &err) ? IKS_OK : iks_publish(&err);
    }
    plan p;
    if (!make_plan(d, f, &p, &err)) return iks_publish(&err);
    return IKS_OK;
}

/* ---- GL side ----------------------------------------------------------------------------------- */

typedef struct {
    iks_gltoy *toy;
    iks_target lo;     /* the output size, when supersampling */
    iks_target hi;     /* what the toy draws into: K times the output size */
    iks_downsample down;
    iks_readback rb;
    long next_key;     /* a replayed session's next key event */
    long next_param;   /* ... and its next parameter change (not in checkpoints: see replay_params) */
    iks_setting *saved; /* the values before the render of the uniforms those changes set (owned), */
    int nsaved;         /* put back at the end: the caller's toy is as it was, and a second render
                           of it replays the same frames */
    uint64_t toy_id;   /* the toy's identity with its media's bytes (iks_gltoy_content_id), for checkpoints */
} gl_state;

static void gl_free(gl_state *g)
{
    if (g->nsaved) {
        uint64_t id = g->toy->settings_id;
        iks_err ignored = IKS_ERR_INIT;
        (void)iks_gltoy_apply(g->toy, g->saved, g->nsaved, &ignored, NULL);
        iks_err_clear(&ignored);
        g->toy->settings_id = id;
    }
    free(g->saved);
    iks_readback_destroy(&g->rb);
    iks_downsample_destroy(&g->down);
    iks_target_destroy(&g->lo);
    iks_target_destroy(&g->hi);
    memset(g, 0, sizeof *g);
}

static bool gl_setup(gl_state *g, iks_toy *t, const plan *p, iks_err *err)
{
    memset(g, 0, sizeof *g);
    g->toy = &t->gl;
    const iks_render_desc *d = &p->d;
    long nu = d->input ? iks_input_log_param_count(d->input) : 0;
    if (nu > 0 && !(g->saved = calloc((size_t)nu, sizeof *g->saved)))
        return iks_err_set(err, IKS_E_NOMEM, "render: out of memory for the input recording's parameters"), false;
    for (long i = 0; i < nu; i++) {
        const iks_setting *s = iks_input_log_param(d->input, i);
        bool seen = false;
        for (int k = 0; k < g->nsaved && !seen; k++) seen = strcmp(g->saved[k].name, s->name) == 0;
        const iks_uvalue *u = seen ? NULL : iks_gltoy_uniform(g->toy, s->name);
        if (!u) continue;
        iks_setting *k = &g->saved[g->nsaved++];
        snprintf(k->name, sizeof k->name, "%s", u->name);
        k->n = u->comps;
        memcpy(k->v, u->v, sizeof k->v);
    }
    int max = iks_gpu_max_size();
    char v[64];
    snprintf(v, sizeof v, "%dx%d", d->width, d->height);
    if ((long)d->width * d->ssaa > max || (long)d->height * d->ssaa > max)
        return iks_err_field(err, IKS_E_USAGE, "size", v, "%sthis GL allows at most %d pixels on a side",
                             d->ssaa > 1 ? "times ssaa: " : "", max);
    iks_pixfmt fmt = p->hdr ? IKS_RGBA32F : IKS_RGBA8;
    if (!iks_target_create(&g->hi, d->width * d->ssaa, d->height * d->ssaa, fmt, err))
        return iks_err_prefix(err, "size: ");
    if ((g->toy->w != g->hi.w || g->toy->h != g->hi.h) && !iks_gltoy_resize(g->toy, g->hi.w, g->hi.h, err)) return false;
    if (d->ssaa > 1) {
        if (!iks_target_create(&g->lo, d->width, d->height, fmt, err)) return iks_err_prefix(err, "size: ");
        if (!iks_downsample_create(&g->down, err)) return false;
    }
    return iks_readback_create(&g->rb, RING, d->width, d->height, fmt, err);
}

void iks_render_frame_info(const iks_render_desc *d, long i, iks_frame_info *fi)
{
    static const iks_render_desc dflt;
    if (!fi) return;
    if (!d) d = &dflt;
    /* no error to give: a description it cannot read gives the defaults' frame */
    iks_render_desc dc;
    iks_err err = IKS_ERR_INIT;
    d = IKS_TAKE(iks_render_desc, d, &dc, IKS_FIRST_RENDER_DESC, &err) ? &dc : &dflt;
    iks_err_clear(&err);
    /* the defaults make_plan fills in, so that a desc straight from the caller gives the same frames */
    double fps = d->fps > 0 ? d->fps : 60;
    float k = d->ssaa > 1 ? (float)d->ssaa : 1.0f;
    /* time in double from the frame number, never accumulated */
    *fi = (iks_frame_info){ .time = d->time0 + (double)i / fps, .frame = i, .time_delta = 1.0 / fps, .frame_rate = fps };
    if (d->input) {
        /* a recorded session: its mouse at i / fps seconds in, scaled to the (supersampled) frame */
        int w = d->width > 0 ? d->width : IKS_DEFAULT_WIDTH, h = d->height > 0 ? d->height : IKS_DEFAULT_HEIGHT;
        iks_input_log_frame(d->input, fps, i, (int)((float)w * k), (int)((float)h * k), fi);
        return;
    }
    if (d->have_mouse) {
        /* held: xy the pointer, z the click x (> 0), w the click y, > 0 only on the click frame (0) */
        fi->mouse[0] = d->mouse[0] * k;
        fi->mouse[1] = d->mouse[1] * k;
        fi->mouse[2] = fabsf(d->mouse[2]) * k;
        fi->mouse[3] = (i == 0 ? 1.0f : -1.0f) * fabsf(d->mouse[3]) * k;
    }
}

static void frame_of(const plan *p, long i, iks_frame *f)
{
    iks_frame_info fi;
    iks_render_frame_info(&p->d, i, &fi);
    iks_frame_from_info(f, &fi);
}

/* A recorded session's keys due by frame i, into the keyboard texture; *next: the log's next key */
static void replay_keys(iks_gltoy *toy, const plan *p, long i, long *next)
{
    if (!p->d.input) return;
    int code;
    bool down;
    long n;
    while ((n = iks_input_log_keys(p->d.input, p->d.fps, i, *next, &code, &down)) >= 0) {
        iks_gltoy_key(toy, code, down);
        *next = n;
    }
}

/* A recorded session's parameter changes due by frame i (its panel's drags), onto the toy. A parameter's
 * value at frame i depends on i alone (the last change at or before it), so a render that starts late or
 * from a checkpoint gets it by applying every change due from the first: the index starts at 0 and is
 * not saved. For the same reason the changes stay out of the toy's settings_id, which a checkpoint must
 * match at load (before any change is applied): the log's hash, in params_id, covers them instead. */
static void replay_params(iks_gltoy *toy, const plan *p, long i, long *next)
{
    if (!p->d.input) return;
    const iks_setting *s;
    long n;
    while ((n = iks_input_log_params(p->d.input, p->d.fps, i, *next, &s)) >= 0) {
        uint64_t id = toy->settings_id;
        iks_err err = IKS_ERR_INIT;
        /* a parameter this shader does not declare (the recording of another version): warned, as
         * --set of it would be refused, once per change */
        if (!iks_gltoy_apply(toy, s, 1, &err, NULL)) {
            iks_warnf(&p->e->log, "the input recording: %s", iks_err_msg(&err));
            iks_err_clear(&err);
        }
        toy->settings_id = id;
        *next = n;
    }
}

/* Where the render is, for the progress calls between a frame's steps (Cube A's faces and strips) */
typedef struct {
    const plan *p;
    long done, total; /* as the progress call between frames has them */
    double start;
    long frame;       /* the frame being drawn */
} step_at;

static bool report(const plan *p, long done, long total, double start, long frame, int part, int parts);

static bool on_step(void *user, int part, int parts)
{
    const step_at *a = user;
    return report(a->p, a->done, a->total, a->start, a->frame, part, parts);
}

/* Frame i into the toy, in steps; false when a step's progress call said stop (the frame is dropped) */
static bool draw_steps(gl_state *g, const plan *p, long i, step_at *at)
{
    iks_frame f;
    replay_keys(g->toy, p, i, &g->next_key);
    replay_params(g->toy, p, i, &g->next_param);
    frame_of(p, i, &f);
    at->frame = i;
    return iks_gltoy_draw_steps(g->toy, &g->hi, &f, p->d.cube_strips, on_step, at);
}

static bool draw_frame(gl_state *g, const plan *p, long i, int slot, step_at *at)
{
    if (!draw_steps(g, p, i, at)) return false;
    const iks_target *out = &g->hi;
    if (p->d.ssaa > 1) {
        iks_downsample_run(&g->down, &g->hi, &g->lo, p->d.ssaa);
        out = &g->lo;
    }
    iks_readback_start(&g->rb, slot, out);
    return true;
}

/* Where the "GPU" is the CPU (llvmpipe and kin), encoder threads preempting its rasterizer threads make
 * every draw wait for its slowest tile: the cores sat ~25% idle. Encoders at lower priority fill the
 * gaps instead (bench render: (d) 2.16 -> ~1.75 s for 120 frames of 720p on 2 cores). On a real GPU
 * the encoders are the only CPU work and keep normal priority. */
static int encoder_nice(void)
{
    const char *r = iks_gpu_renderer();
    static const char *const soft[] = { "llvmpipe", "softpipe", "SwiftShader", "lavapipe" };
    for (size_t i = 0; r && i < sizeof soft / sizeof soft[0]; i++)
        if (strstr(r, soft[i])) return 10;
    return 0;
}

static bool report(const plan *p, long done, long total, double start, long frame, int part, int parts)
{
    if (iks_stop_requested()) return false; /* iks_interrupt, from a signal handler */
    if (!p->d.progress) return true;
    iks_progress pr = { .done = done, .total = total, .seconds = iks_now() - start, .frame = frame, .part = part,
                        .parts = parts };
    /* the callback runs with the caller's context current, as it was before the render: it may draw
     * with it, or with another engine; then ours again, or stop (the next GL call fails) */
    iks_engine_pause(p->e);
    bool go = p->d.progress(p->d.user, &pr);
    iks_err ignored = IKS_ERR_INIT;
    return iks_engine_resume(p->e, &ignored) && go;
}

/* the call between frames */
static bool keep_going(const plan *p, long done, long total, double start) { return report(p, done, total, start, -1, 0, 0); }

/* ---- resume and checkpoints -------------------------------------------------------------------- */

/* whether resuming keeps frame i: its file is there, complete, of this render's kind, and drawn by this
 * render (its identity); *other counts the whole frames of another render, drawn again */
static bool kept_frame(const plan *p, long i, long *other)
{
    if (!p->d.resume) return false;
    char path[PATH_MAX], id[IKS_FRAME_ID_MAX];
    iks_image_opts o = { .w = p->d.width, .h = p->d.height, .depth = p->d.depth, .alpha = p->d.alpha && p->fmt->alpha };
    if (!p->fmt->check || !iks_output_path(p->d.output, p->pattern, i, path, sizeof path) ||
        !p->fmt->check(path, &o, id, sizeof id))
        return false;
    if (strcmp(id, p->id) == 0) return true;
    ++*other;
    return false;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Resuming: removes the hidden temporaries (`.NAME.XXXXXX`, iks_outfile_tmp_create's names) that a
 * killed run left beside the frame files of [first, end), or beside this part's segment, so that a part
 * run again after a lost node or a SIGKILL leaves no debris. Only this part's files, and only those
 * whose writer is gone (iks_outfile_remove_stale: no process holds their lock), so that a run of the
 * same part still alive elsewhere (a node cut off from the controller, not dead) keeps its own.
 * Returns how many were removed; name gets the first one's. */
static long remove_stale_temporaries(const plan *p, long first, long end, char *name, size_t n)
{
    long removed = 0, count = end - first;
    if (p->d.resume && p->film) {
        /* the segment's temporary keeps its extension (the writer's, for ffmpeg) */
        const char *slash = strrchr(p->seg, '/'), *ext = strrchr(slash ? slash + 1 : p->seg, '.');
        return iks_outfile_remove_stale_of(p->seg, ext ? ext : "", name, n);
    }
    if (!p->d.resume || !p->pattern || p->fmt->sink != IKS_SINK_FILES || count <= 0) return 0;
    char **paths = calloc((size_t)count, sizeof *paths);
    if (!paths) return 0;
    char path[PATH_MAX];
    long have = 0;
    for (long i = first; i < end; i++)
        if (iks_output_path(p->d.output, p->pattern, i, path, sizeof path) && (paths[have] = strdup(path))) have++;
    qsort(paths, (size_t)have, sizeof *paths, cmp_str);
    /* each directory the frames are in, once (sorted paths: a directory's frames are together) */
    for (long i = 0; i < have; i++) {
        const char *slash = strrchr(paths[i], '/');
        size_t dl = slash ? (size_t)(slash - paths[i]) + 1 : 0;
        if (i > 0 && strncmp(paths[i - 1], paths[i], dl) == 0 && !strchr(paths[i - 1] + dl, '/')) continue;
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", dl ? (int)dl : 1, dl ? paths[i] : ".");
        DIR *dp = opendir(dir);
        if (!dp) continue;
        struct dirent *e;
        while ((e = readdir(dp))) {
            /* ".NAME.XXXXXX": NAME a frame file of this part in this directory */
            size_t len = strlen(e->d_name);
            if (e->d_name[0] != '.' || len < 9 || dl + len - 8 >= sizeof path) continue;
            snprintf(path, sizeof path, "%.*s%.*s", (int)dl, paths[i], (int)(len - 8), e->d_name + 1);
            const char *key = path;
            if (!iks_outfile_tmp_is(e->d_name, path + dl, "") || !bsearch(&key, paths, (size_t)have, sizeof *paths, cmp_str))
                continue;
            char tmp[PATH_MAX];
            snprintf(tmp, sizeof tmp, "%.*s%s", (int)dl, paths[i], e->d_name);
            if (iks_outfile_remove_stale(tmp) == 1 && removed++ == 0) snprintf(name, n, "%s", tmp);
        }
        closedir(dp);
    }
    for (long i = 0; i < have; i++) free(paths[i]);
    free(paths);
    return removed;
}

/* what a checkpoint of this render at frame must say about itself */
static void ckpt_want(const plan *p, const gl_state *g, long frame, iks_ckpt_want *w)
{
    const iks_render_desc *d = &p->d;
    memset(w, 0, sizeof *w);
    w->h.toy_id = g->toy_id;
    w->h.settings_id = g->toy->settings_id;
    uint64_t h = IKS_FNV_START;
    int size[3] = { d->width, d->height, d->ssaa };
    h = iks_fnv(h, size, sizeof size);
    h = iks_fnv(h, &d->fps, sizeof d->fps);
    h = iks_fnv(h, &d->time0, sizeof d->time0);
    if (d->have_mouse) h = iks_fnv(h, d->mouse, sizeof d->mouse);
    if (d->input) {
        uint64_t ih = iks_input_log_hash(d->input);
        h = iks_fnv(h, &ih, sizeof ih);
    }
    w->h.params_id = h;
    w->h.width = g->hi.w;
    w->h.height = g->hi.h;
    w->h.frame = frame;
    iks_frame_info fi;
    iks_render_frame_info(d, frame, &fi);
    w->h.time = fi.time;
    w->h.next_key = g->next_key;
    w->renderer = iks_gpu_renderer();
}

/* The render's identity, the key its checkpoints are named by (iks_ckpt_key: the toy with its media's
 * bytes, the --set values, size, supersampling, fps, time0, mouse and session), as 16 hex digits: a
 * frame file carries it, so that resuming after an edit draws the frames of the old toy again. The
 * depth and alpha are not in it: the frame's check reads them from the file. */
static void render_id(const plan *p, const gl_state *g, char *buf, size_t n)
{
    iks_ckpt_want w;
    ckpt_want(p, g, 0, &w);
    snprintf(buf, n, "%016llx", (unsigned long long)iks_ckpt_key(&w.h));
}

/* after frames 0..drawn-1: the checkpoint of frame `drawn` when it is one of the N-th */
static bool maybe_checkpoint(gl_state *g, const plan *p, long drawn, iks_render_stats *st, iks_err *err)
{
    long every = p->d.checkpoint_every;
    if (every <= 0 || !g->toy->has_buffers || drawn % every != 0) return true;
    iks_ckpt_want w;
    ckpt_want(p, g, drawn, &w);
    if (!iks_ckpt_save(p->d.checkpoint_dir, g->toy, &w, &p->e->log, err)) return iks_err_prefix(err, "checkpoint_dir: ");
    st->checkpoints++;
    return true;
}

/* Frame i drawn for the buffers' state only, then its checkpoint if due; *stopped (and no checkpoint)
 * when a step's progress call said stop */
static bool draw_unsaved(gl_state *g, const plan *p, long i, step_at *at, iks_render_stats *st, bool *stopped,
                         iks_err *err)
{
    if (!draw_steps(g, p, i, at)) return *stopped = true;
    st->warmed++;
    return maybe_checkpoint(g, p, i + 1, st, err);
}

/* The buffers' state before frame `from`: the newest checkpoint at or before it, if any, then the frames
 * after it drawn unsaved. false on a refused or damaged checkpoint (or a failed save); *stopped when the
 * caller asked to stop meanwhile. */
static bool reach_state(gl_state *g, const plan *p, iks_toy *t, long from, long total, double start,
                        iks_render_stats *st, bool *stopped, iks_err *err)
{
    long at = 0;
    if (p->d.checkpoint_dir && from > 0) {
        iks_ckpt_want w;
        ckpt_want(p, g, from, &w);
        at = iks_ckpt_newest(p->d.checkpoint_dir, &w, from, &t->e->log, err);
        if (at < 0) return iks_err_prefix(err, "checkpoint_dir: ");
        if (at > 0) {
            ckpt_want(p, g, at, &w);
            int64_t next_key;
            if (!iks_ckpt_load(p->d.checkpoint_dir, at, g->toy, &w, &next_key, &t->e->log, err)) return false;
            g->next_key = (long)next_key;
            st->restored = at;
            iks_logf(&t->e->log, IKS_LOG_INFO, "buffers from the checkpoint of frame %ld", at);
        }
    }
    if (at < from)
        iks_logf(&t->e->log, IKS_LOG_INFO, "drawing frames %ld..%ld first, unsaved, for the buffers' state", at, from - 1);
    step_at sa = { .p = p, .done = st->kept, .total = total, .start = start };
    for (long i = at; i < from && !*stopped; i++) {
        if (!draw_unsaved(g, p, i, &sa, st, stopped, err)) return false;
        if (!*stopped) *stopped = !keep_going(p, st->kept, total, start);
    }
    return true;
}

/* A checkpoint directory that cannot be used fails before anything is drawn, not at the first save */
static bool check_checkpoint_dir(const plan *p, const iks_toy *t, iks_err *err)
{
    const char *dir = p->d.checkpoint_dir;
    if (!dir || !t->gl.has_buffers) return true;
    struct stat sb;
    if (stat(dir, &sb) == 0) {
        if (!S_ISDIR(sb.st_mode)) return iks_ckpt_dir_err(err, IKS_E_IO, dir, "not a directory");
    } else if (errno != ENOENT) {
        return iks_ckpt_dir_err(err, IKS_E_IO, dir, strerror(errno));
    } else if (p->d.checkpoint_every > 0) {
        char probe[PATH_MAX];
        if (snprintf(probe, sizeof probe, "%s/x", dir) >= (int)sizeof probe)
            return iks_ckpt_dir_err(err, IKS_E_USAGE, dir, "the name is too long");
        if (!iks_make_parent_dirs(probe)) return iks_ckpt_dir_err(err, IKS_E_IO, dir, strerror(errno));
    }
    if (p->d.checkpoint_every > 0 && access(dir, W_OK) != 0)
        return iks_ckpt_dir_err(err, IKS_E_IO, dir, strerror(errno));
    return true;
}

/* ---- a film in segments ------------------------------------------------------------------------ */

/* the render's identity (render_id), now known, into the film and the segment's comment */
static void film_ready(plan *p)
{
    snprintf(p->fl.id, sizeof p->fl.id, "%s", p->id);
    if (p->d.join != IKS_JOIN_NOW) iks_segment_comment(&p->fl, p->d.segment, p->comment, sizeof p->comment);
}

/* The film from its segments, with the toy's sound over the whole of it */
static bool film_join(iks_toy *t, const plan *p, iks_render_stats *st, iks_err *err)
{
    iks_render_desc whole = p->d;
    whole.first = p->fl.first;
    whole.end = p->fl.end;
    whole.output = p->fl.output;
    char *audio = NULL;
    if (p->fmt->audio && iks_gltoy_has_audio(&t->gl) && !video_audio(t, &whole, &audio, &st->samples, err)) return false;
    bool ok = iks_film_join(&p->fl, audio, err);
    audio_remove(audio);
    st->joined = ok;
    st->segments_there = iks_film_segments_there(&p->fl);
    return ok;
}

/* After this part's segment: the film, when every segment is there and join asks for it. The parts
 * that finish together take turns on a lock beside the segments; the one after the join finds the
 * film there, of this render, and keeps it. */
static bool film_after(iks_toy *t, const plan *p, iks_render_stats *st, iks_err *err)
{
    st->segments_there = iks_film_segments_there(&p->fl);
    if (p->d.join != IKS_JOIN_WHEN_DONE || st->segments_there < p->fl.n) return true;
    char lock[PATH_MAX];
    snprintf(lock, sizeof lock, "%s.parts/.join.lock", p->fl.output);
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    while (fd >= 0 && flock(fd, LOCK_EX) != 0 && errno == EINTR) {}
    bool ok = true;
    iks_err why = IKS_ERR_INIT;
    if (iks_film_joined(&p->fl)) st->joined_before = true;
    else if (!film_join(t, p, st, &why) && why.code == IKS_E_FORMAT) {
        /* another part's segment is not whole (cut short, of an older render): not this part's failure;
         * that part, run again (resuming), draws it and joins the film */
        iks_warnf(&t->e->log, "%s; not joined yet: the part that draws it again joins the film", why.msg);
    } else if (why.code != IKS_OK) {
        iks_err_move(err, &why);
        ok = false;
    }
    iks_err_clear(&why);
    /* the film is there, whole: the lock has served, and goes while held, so that the parts directory
     * holds the segments alone. A part that opened it before and waits gets it next and finds the film;
     * one that comes later makes a new one and finds the film too: a second join needs a film missing. */
    struct stat a, b;
    if (fd >= 0 && (st->joined || st->joined_before) && fstat(fd, &a) == 0 && lstat(lock, &b) == 0 &&
        a.st_dev == b.st_dev && a.st_ino == b.st_ino)
        unlink(lock);
    if (fd >= 0) close(fd);
    return ok;
}

/* Whether resuming keeps this part's segment: there, whole and of this film (else it is drawn again,
 * with a note saying why) */
static bool segment_kept(const iks_toy *t, const plan *p)
{
    if (!p->d.resume) return false;
    iks_seg_shape shape = { { 0 } };
    char why[768];
    int rc = iks_segment_check(&p->fl, p->d.segment, &shape, why, sizeof why);
    if (rc < 0) iks_logf(&t->e->log, IKS_LOG_INFO, "resume: %s %s: drawn again", p->seg, why);
    return rc == 1;
}

/* What a film's render does before drawing, when that is all: a join alone, a part with no frames, a
 * segment resuming keeps. true when it was (*c its result). */
static bool film_early(iks_toy *t, const plan *p, iks_render_stats *st, iks_code *c)
{
    iks_err err = IKS_ERR_INIT;
    if (!p->film) return false;
    if (p->d.join == IKS_JOIN_NOW && iks_film_joined(&p->fl)) st->joined_before = true;
    else if (p->d.join == IKS_JOIN_NOW) film_join(t, p, st, &err);
    else if (p->empty_part) film_after(t, p, st, &err);
    else if (segment_kept(t, p)) {
        st->total = st->kept = p->d.end - p->d.first;
        film_after(t, p, st, &err);
    } else return false;
    *c = iks_publish(&err);
    return true;
}

/* The error of a render stopped before its end: what the user has now, and how to go on */
static void stopped_error(const plan *p, const iks_render_stats *st, const iks_writer_result *wr, long total, iks_err *err)
{
    const iks_render_desc *r = &p->d;
    bool one_file = p->fmt->sink == IKS_SINK_FFMPEG || p->fmt->sink == IKS_SINK_ANIM;
    if (p->film)
        iks_err_set(err, IKS_E_INTERRUPTED, "interrupted: segment %s not made (a segment is kept whole or not at "
                    "all); the same part again draws it", p->seg);
    else if (one_file && wr->kept)
        iks_err_set(err, IKS_E_INTERRUPTED, "interrupted: %s holds the first %ld of %ld frames, properly closed "
                    "(it plays)", r->output, st->written, total);
    else if (one_file)
        iks_err_set(err, IKS_E_INTERRUPTED, "interrupted before any frame was written: no %s made", r->output);
    else if (p->fmt->sink == IKS_SINK_FILES && r->resume && st->written + st->kept < total)
        iks_err_set(err, IKS_E_INTERRUPTED, "interrupted: %ld of %ld frames there, every one complete; the "
                    "same render again (resuming) draws the rest", st->written + st->kept, total);
    else if (p->fmt->sink == IKS_SINK_FILES && st->written < total)
        iks_err_set(err, IKS_E_INTERRUPTED, "interrupted: %ld of %ld frames written, every one complete; the "
                    "rest are frames %ld:%ld", st->written, total, r->first + st->written, r->end);
    else
        iks_err_set(err, IKS_E_INTERRUPTED, "interrupted: %ld of %ld frames written", st->written, total);
}

/* ---- the render -------------------------------------------------------------------------------- */

static iks_code render_frames(iks_toy *t, const iks_render_desc *d, const iks_format *f, iks_render_stats *st);

static iks_code render_entry(iks_toy *t, const iks_render_desc *d, iks_render_stats *stats);
static iks_code render_made(iks_toy *t, const iks_render_desc *d, iks_render_stats *st);

/* the host contract: the caller's context (or its GL state) as it was, on every return */
iks_code iks_render(iks_toy *t, const iks_render_desc *d, iks_render_stats *stats)
{
    iks_err err = IKS_ERR_INIT;
    iks_render_desc dc;
    /* a description refused for its size says nothing of the stats' size either: they are not touched */
    if (!IKS_TAKE(iks_render_desc, d, &dc, IKS_FIRST_RENDER_DESC, &err)) return iks_publish(&err);
    if (d) d = &dc;
    /* the stats are filled here and given in the caller's size, which may be an older header's */
    size_t have = d && d->stats_size ? d->stats_size : IKS_FIRST_RENDER_STATS;
    if (stats && have < IKS_FIRST_RENDER_STATS) {
        char v[32];
        snprintf(v, sizeof v, "%zu", have);
        return iks_fail_field("stats_size", v, "iks_render_stats is at least %zu bytes: sizeof(iks_render_stats)",
                              (size_t)IKS_FIRST_RENDER_STATS);
    }
    iks_render_stats st = { 0 };
    iks_code c;
    if (!t) c = render_entry(t, d, &st);
    else if (!iks_engine_enter(t->e, &err)) c = iks_publish(&err);
    else {
        c = render_entry(t, d, &st);
        iks_engine_leave(t->e);
    }
    if (stats) memcpy(stats, &st, have < sizeof st ? have : sizeof st);
    return c;
}

/* A toy's live channels (microphone, webcam) in an offline render: each replays its recording from the
 * session's input log, or is silent and black where the toy was loaded with missing_media_black;
 * anything else would make a render that no later one repeats, so it is refused. */
static bool live_begin(iks_toy *t, const iks_render_desc *d, iks_err *err)
{
    for (int p = 0; p < IKS_PASSES; p++)
        for (int c = 0; c < 4; c++) {
            const iks_channel_kind *k = iks_channel_kind_of(t->gl.in[p][c].kind);
            if (!k || !k->live || !t->gl.live[p][c]) continue;
            const char *file;
            double t0;
            if (d && iks_input_log_live(d->input, p, c, &file, &t0)) {
                /* the session's time T is the replay's iTime less the first frame's */
                if (!iks_media_replay(&t->gl, p, c, file, iks_input_log_itime0(d->input) + t0, err)) return false;
                continue;
            }
            if (t->tf.desc.live_black) {
                iks_warnf(&t->e->log, "%s: " IKS_U_CHANNEL_PREFIX "%d: a %s is a live input; %s in this render",
                          iks_pass_kind_at(p)->name, c, k->noun, k->kind == IKS_IN_MIC ? "silent" : "black");
                continue;
            }
            /* input_log: the render description's input, as the command line's table words it */
            return iks_err_set(err, IKS_E_UNSUPPORTED, "%s: " IKS_U_CHANNEL_PREFIX "%d: a %s is a live input: an offline "
                               "render replays the session's recording of it (input_log: a session recorded with it%s) or runs it %s with "
                               "missing_media_black", iks_pass_kind_at(p)->name, c, k->noun,
                               d && d->input ? ", but this one has none of it" : "",
                               k->kind == IKS_IN_MIC ? "silent" : "black");
        }
    return true;
}

/* The recordings put back to the live channels they stand for: the toy is the host's again */
static void live_end(iks_toy *t)
{
    for (int p = 0; p < IKS_PASSES; p++)
        for (int c = 0; c < 4; c++) iks_media_unreplay(&t->gl, p, c);
}

static iks_code render_entry(iks_toy *t, const iks_render_desc *d, iks_render_stats *st)
{
    if (!t) return iks_fail_usage("iks_render: toy is NULL");
    iks_err lerr = IKS_ERR_INIT;
    bool live_ok = live_begin(t, d, &lerr);
    iks_code c = live_ok ? render_made(t, d, st) : iks_publish(&lerr);
    live_end(t);
    return c;
}

static iks_code render_made(iks_toy *t, const iks_render_desc *d, iks_render_stats *st)
{
    /* the directories a render makes for its output and checkpoints are taken back when it fails, where
     * they are empty (a video that ffmpeg refused, a refused checkpoint): a failed render leaves
     * nothing, an empty directory included; frames it did write keep theirs */
    char *top_out = d && d->output ? iks_missing_parent(d->output) : NULL, *ck = NULL, *top_ck = NULL;
    if (d && d->checkpoint_dir && asprintf(&ck, "%s/x", d->checkpoint_dir) >= 0) top_ck = iks_missing_parent(ck);
    const iks_format *f = output_format(d);
    iks_code c = is_sound(f) ? render_wav(t, d, st) : render_frames(t, d, f, st);
    if (c != IKS_OK) {
        if (ck) iks_remove_made_dirs(ck, top_ck);
        if (top_out) iks_remove_made_dirs(d->output, top_out);
    }
    free(top_out);
    free(top_ck);
    free(ck);
    return c;
}

static iks_code render_frames(iks_toy *t, const iks_render_desc *d, const iks_format *f, iks_render_stats *st)
{
    iks_err err = IKS_ERR_INIT;
    plan p;
    if (!make_plan(d, f, &p, &err) || !spares_inputs(t, &p.d, p.fmt, p.pattern, &err) || !check_writable(&p, &err) ||
        !check_checkpoint_dir(&p, t, &err))
        return iks_publish(&err);
    p.e = t->e;
    const iks_render_desc *r = &p.d;
    st->width = r->width;
    st->height = r->height;
    if (t->gl.image_less)
        return iks_fail_usage("%s: %s", t->tf.desc.pass[IKS_IMAGE_PASS].path, IKS_NO_PICTURE);
    if (t->gl.sound_only) return iks_fail_usage("iks_render: the toy was loaded for its sound alone (sound_only)");
    gl_state g;
    if (!gl_setup(&g, t, &p, &err)) {
        gl_free(&g);
        return iks_publish(&err);
    }
    /* the toy's sound goes into a video as its audio track (a GIF has none) */
    char *audio = NULL;
    /* the toy's media are read whole for its identity once, where checkpoints are kept or frame files
     * carry it */
    bool files = p.fmt->sink == IKS_SINK_FILES;
    if (((r->checkpoint_dir && t->gl.has_buffers) || files || p.film) && !iks_gltoy_content_id(&t->gl, &g.toy_id, &err)) {
        gl_free(&g);
        return iks_publish(&err);
    }
    if (files || p.film) render_id(&p, &g, p.id, sizeof p.id);
    if (p.film) film_ready(&p);
    iks_code fc;
    if (film_early(t, &p, st, &fc)) {
        gl_free(&g);
        return fc;
    }
    /* a segment is picture alone: the film's sound is encoded once, at the join */
    bool takes_audio = !p.film && (p.fmt->audio || (p.fmt->sink == IKS_SINK_FFMPEG && r->ffmpeg_args));
    if (takes_audio && iks_gltoy_has_audio(&t->gl) && !video_audio(t, r, &audio, &st->samples, &err)) {
        gl_free(&g);
        return iks_publish(&err);
    }
    iks_writer *w = NULL;
    iks_writer_desc wd = { .output = r->output, .raw_fd = r->raw_fd, .width = r->width, .height = r->height,
                           .fps = r->fps, .alpha = r->alpha, .png_level = p.level, .jobs = r->jobs,
                           .nice = encoder_nice(), .ffmpeg_args = r->ffmpeg_args, .depth = r->depth,
                           .quality = r->quality, .png_fast = p.png_fast, .audio = audio, .fmt = p.fmt,
                           .pattern = p.pattern, .id = files ? p.id : NULL, .comment = p.film ? p.comment : NULL };
    if (!iks_writer_open(&wd, &w, &err)) {
        audio_remove(audio);
        gl_free(&g);
        return iks_publish(&err);
    }
    /* a closed pipe becomes EPIPE, reported as an error, instead of killing the caller's process */
    struct sigaction ign = { 0 }, old_pipe;
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old_pipe);

    /* from here on frames are drawn: total says so to the caller, also on failure */
    long total = st->total = r->end - r->first;
    bool stopped = false, ok = true;
    double start = iks_now();
    /* resume: the frames already there from the start on are kept as they are, and what a killed run
     * of this part was writing is removed */
    char stale[PATH_MAX] = "";
    long nstale = remove_stale_temporaries(&p, r->first, r->end, stale, sizeof stale);
    if (nstale)
        iks_logf(&t->e->log, IKS_LOG_INFO, "resume: removed %ld temporar%s a stopped run left (%s)", nstale,
                 nstale == 1 ? "y" : "ies", stale);
    /* the checkpoint directory is shared by every part, which warm up through each other's frames: its
     * temporaries are told dead or live by their lock alone, whoever's they are */
    if (r->checkpoint_dir && t->gl.has_buffers && (r->resume || r->checkpoint_every > 0) &&
        (nstale = iks_ckpt_remove_stale(r->checkpoint_dir, stale, sizeof stale)))
        iks_logf(&t->e->log, IKS_LOG_INFO, "checkpoint_dir: removed %ld temporar%s a stopped run left (%s)", nstale,
                 nstale == 1 ? "y" : "ies", stale);
    long from = r->first, other = 0;
    while (from < r->end && kept_frame(&p, from, &other)) from++, st->kept++;
    if (r->checkpoint_dir && !t->gl.has_buffers)
        iks_logf(&t->e->log, IKS_LOG_INFO, "checkpoint_dir: this toy has no buffers, so no state to save or load");
    /* buffers carry state from frame to frame: a range that starts later must live through the frames
     * before it, unsaved (from a checkpoint when there is one), to be the same as one long run */
    if (ok && t->gl.has_buffers && from < r->end && !reach_state(&g, &p, t, from, total, start, st, &stopped, &err)) ok = false;
    start = iks_now();
    /* The n-th frame saved is drawn into ring slot n % RING and collected once RING frames are
     * outstanding (or when drawing stops), so its readback overlaps the drawing of the next ones. */
    long next = from, slot_frame[RING], drawn = 0, collected = 0;
    step_at sa = { .p = &p, .total = total, .start = start };
    while (ok) {
        /* frames resuming keeps: skipped, or drawn unsaved where the buffers need them */
        for (; ok && next < r->end && !stopped && next > from && kept_frame(&p, next, &other); next++) {
            st->kept++;
            sa.done = iks_writer_written(w) + st->kept;
            if (t->gl.has_buffers) ok = draw_unsaved(&g, &p, next, &sa, st, &stopped, &err);
        }
        bool drawing = ok && next < r->end && !stopped;
        if (drawing) {
            int slot = (int)(drawn % RING);
            sa.done = iks_writer_written(w) + st->kept;
            if (draw_frame(&g, &p, next, slot, &sa)) {
                drawn++;
                slot_frame[slot] = next;
                /* a video channel that stopped decoding: the frame would be wrong, so the render stops here */
                ok = iks_gltoy_media_ok(g.toy, &err) && maybe_checkpoint(&g, &p, ++next, st, &err);
            } else {
                /* stopped within the frame: it is dropped, the frames before it are still written */
                stopped = true;
                drawing = false;
            }
        }
        while (ok && collected < drawn && (drawn - collected >= RING || !drawing)) {
            int slot = (int)(collected++ % RING);
            long c = slot_frame[slot];
            int buf;
            uint8_t *dst = iks_writer_acquire(w, &buf);
            if (!dst) ok = false; /* the output failed: the writer holds why */
            else if (!iks_readback_finish(&g.rb, slot, dst)) {
                iks_err_set(&err, IKS_E_GL, "GL: readback of frame %ld failed", c);
                ok = false;
            } else ok = iks_writer_submit(w, buf, c);
        }
        if (drawing && !keep_going(&p, iks_writer_written(w) + st->kept, total, start)) stopped = true;
        if (!drawing) break;
    }
    /* frames of an earlier render of another toy or settings were there, whole: the user should know
     * that their files were replaced, not kept */
    if (other)
        iks_warnf(&t->e->log, "resume: %ld frame%s there %s drawn by another render (the toy, its media or its "
                  "settings changed): drawn again", other, other == 1 ? "" : "s", other == 1 ? "was" : "were");
    iks_err werr = IKS_ERR_INIT;
    iks_writer_result wr;
    /* a segment is whole or not there: one stopped part way is dropped, and drawn again whole */
    bool wok = iks_writer_close(w, ok && !(stopped && p.film), &wr, &werr);
    audio_remove(audio);
    if (!wok && err.code == IKS_OK) iks_err_move(&err, &werr);
    iks_err_clear(&werr);
    ok = ok && wok;
    st->written = wr.written;
    st->fps_played = wr.fps_played;
    st->padded = wr.padded;
    st->seconds = iks_now() - start;
    gl_free(&g);
    sigaction(SIGPIPE, &old_pipe, NULL);
    if (ok && !stopped && p.film) ok = film_after(t, &p, st, &err);
    if (ok && stopped) stopped_error(&p, st, &wr, total, &err);
    if (ok && !stopped) keep_going(&p, st->written + st->kept, total, start);
    return iks_publish(&err);
}

/* ---- bench render ------------------------------------------------------------------------------ */

bool iks_bench_encoders(const uint8_t *frames, size_t frame_bytes, long count, int w, int h, int level, bool fast,
                        iks_bench_render_result *r);

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static bool encode_job(void *vctx, long frame, const uint8_t *px, iks_err *err)
{
    (void)frame;
    const plan *p = vctx;
    uint8_t *png;
    size_t len;
    iks_png_opts o = { .level = p->png_fast ? 1 : p->level, .alpha = p->d.alpha };
    if (!iks_png_encode(px, p->d.width, p->d.height, &o, &png, &len, err)) return false;
    free(png);
    return true;
}

static iks_code bench_render(iks_toy *t, const iks_render_desc *d, int reps, iks_bench_render_result *res);

static iks_code bench_entry(iks_toy *t, const iks_render_desc *d, int reps, iks_bench_render_result *res);

/* the host contract: the caller's context (or its GL state) as it was, on every return */
iks_code iks_bench_render(iks_toy *t, const iks_render_desc *d, int reps, iks_bench_render_result *res)
{
    iks_err err = IKS_ERR_INIT;
    iks_render_desc dc;
    if (!IKS_TAKE(iks_render_desc, d, &dc, IKS_FIRST_RENDER_DESC, &err)) return iks_publish(&err);
    if (d) d = &dc;
    if (!t) return bench_entry(t, d, reps, res);
    if (!iks_engine_enter(t->e, &err)) return iks_publish(&err);
    iks_code c = bench_entry(t, d, reps, res);
    iks_engine_leave(t->e);
    return c;
}

static iks_code bench_entry(iks_toy *t, const iks_render_desc *d, int reps, iks_bench_render_result *res)
{
    if (!t || !res || !d) return iks_fail_usage("iks_bench_render: toy, desc and result must not be NULL");
    if (d->output) return bench_render(t, d, reps, res);
    /* no output named: PNGs into a temporary directory of our own, removed after, also on a signal */
    const char *tmpdir = getenv("TMPDIR");
    char dir[PATH_MAX], pattern[PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%.3900s/ikshade-bench-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(dir)) {
        iks_err err = IKS_ERR_INIT;
        iks_err_errno(&err, IKS_E_IO, errno, dir);
        return iks_publish(&err);
    }
    iks_outfile_tmp_register_dir(dir);
    snprintf(pattern, sizeof pattern, "%s/%%06d.png", dir);
    iks_render_desc dd = *d;
    dd.output = pattern;
    iks_code rc = bench_render(t, &dd, reps, res);
    iks_outfile_remove_dir(dir);
    iks_outfile_tmp_done(dir);
    return rc;
}

static iks_code bench_render(iks_toy *t, const iks_render_desc *d, int reps, iks_bench_render_result *res)
{
    memset(res, 0, sizeof *res);
    iks_err err = IKS_ERR_INIT;
    plan p;
    if (!make_plan(d, output_format(d), &p, &err) || !check_writable(&p, &err)) return iks_publish(&err);
    p.e = t->e;
    if (p.fmt->encode != iks_png_image || p.hdr) return iks_fail_usage("bench render: the output must be 8-bit PNG files");
    if (reps < 1) reps = 3;
    const iks_render_desc *r = &p.d;
    long frames = r->end - r->first;
    if (frames > MAX_BENCH_FRAMES) {
        char v[64];
        snprintf(v, sizeof v, "%ld:%ld", r->first, r->end);
        iks_err_field(&err, IKS_E_USAGE, "frames", v, "the benchmark keeps every frame in memory: at most %ld frames",
                      MAX_BENCH_FRAMES);
        return iks_publish(&err);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    gl_state g;
    if (!gl_setup(&g, t, &p, &err)) {
        gl_free(&g);
        return iks_publish(&err);
    }
    size_t fb = (size_t)r->width * r->height * 4;
    uint8_t *all = malloc(fb * (size_t)frames);
    if (!all) {
        gl_free(&g);
        iks_err_set(&err, IKS_E_NOMEM, "render: out of memory for %ld frames", frames);
        return iks_publish(&err);
    }
    double ta = INFINITY, tb = INFINITY, cb = 0, tc = INFINITY, cc = 0, td = INFINITY;
    iks_code rc = IKS_OK;
    /* Each repetition runs (a) to (d) in turn, and each figure is the best of its repetitions: on a
     * shared machine whose load drifts, stages run minutes apart would compare different machines. */
    /* (b) draws in steps as a render does, without calls between them: only iks_interrupt stops one,
     * and the loop sees it */
    plan quiet = p;
    quiet.d.progress = NULL;
    step_at quiet_steps = { .p = &quiet };
    for (int rep = 0; rep < reps && rc == IKS_OK && !iks_stop_requested(); rep++) {
        /* (a) draw only. Each frame is finished on its own: llvmpipe drops a full-screen opaque draw
         * that a later one overwrites before any flush, so a batch of draws would measure only the last. */
        iks_frame f;
        double t0 = iks_now();
        for (long i = 0; i < frames && !iks_stop_requested(); i++) {
            frame_of(&p, r->first + i, &f);
            iks_gltoy_draw(&t->gl, &g.hi, &f);
            iks_gpu_finish();
        }
        ta = fmin(ta, iks_now() - t0);
        /* (b) draw and read back through the ring, every frame kept for (c) so it encodes the same
         * pictures (the copy is the same work the render does into its pool's buffers) */
        double c0 = cpu_now();
        t0 = iks_now();
        for (long i = 0; i < frames + RING - 1; i++) {
            if (iks_stop_requested()) break; /* the figures are thrown away: no need to collect */
            if (i < frames) draw_frame(&g, &p, r->first + i, (int)((r->first + i) % RING), &quiet_steps);
            long c = i - (RING - 1);
            if (c >= 0) iks_readback_finish(&g.rb, (int)((r->first + c) % RING), all + fb * (size_t)c);
        }
        t0 = iks_now() - t0;
        if (t0 < tb) {
            tb = t0;
            cb = cpu_now() - c0;
        }
        /* (c) encode only, the same frames, on all cores */
        c0 = cpu_now();
        t0 = iks_now();
        iks_pool *pool = iks_pool_create((int)cores, (int)cores + 2, fb, encoder_nice(), encode_job, NULL, &p);
        if (!pool) {
            iks_err_set(&err, IKS_E_NOMEM, "render: cannot start the encoder pool");
            rc = iks_publish(&err);
            break;
        }
        for (long i = 0; i < frames && !iks_stop_requested(); i++) {
            int buf;
            uint8_t *dst = iks_pool_acquire(pool, &buf);
            if (!dst) break;
            memcpy(dst, all + fb * (size_t)i, fb);
            iks_pool_submit(pool, buf, i);
        }
        iks_pool_finish(pool, NULL);
        iks_pool_destroy(pool);
        t0 = iks_now() - t0;
        if (t0 < tc) {
            tc = t0;
            cc = cpu_now() - c0;
        }
        if (iks_stop_requested()) break;
        /* (d) the whole render, as a user runs it */
        t0 = iks_now();
        rc = iks_render(t, r, NULL); /* on failure it set the thread's error */
        td = fmin(td, iks_now() - t0);
    }
    gl_free(&g);
    if (rc != IKS_OK) {
        free(all);
        return rc;
    }
    if (iks_stop_requested()) {
        free(all);
        iks_err_set(&err, IKS_E_INTERRUPTED, "bench render: interrupted");
        return iks_publish(&err);
    }
    res->frames = frames;
    res->width = r->width;
    res->height = r->height;
    res->cores = (int)cores;
    res->png_level = p.level;
    res->reps = reps;
    res->draw = ta;
    res->readback = tb;
    res->readback_cpu = cb;
    res->encode = tc;
    res->encode_cpu = cc;
    res->whole = td;
    /* (e) the encoders we chose between, on the first frames */
    bool enc_ok = iks_bench_encoders(all, fb, frames < 12 ? frames : 12, r->width, r->height, p.level, p.png_fast, res);
    free(all);
    if (!enc_ok) {
        if (iks_stop_requested()) iks_err_set(&err, IKS_E_INTERRUPTED, "render: interrupted while timing the encoders");
        else iks_err_set(&err, IKS_E_NOMEM, "render: an encoder failed (out of memory?)");
        return iks_publish(&err);
    }
    return IKS_OK;
}
