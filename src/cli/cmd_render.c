/* cmd_render.c: `ikshade render`: parses the arguments (its option table) into an iks_render_desc, loads
 * the toy and calls iks_render (src/engine/render.c does the work); owns what a terminal user sees: the
 * progress bar, Ctrl-C, the summary line. `--each DIR` is a compatibility report built from the same
 * API calls. */
#include "cli/cli.h"
#include "base/buf.h"
#include "base/clock.h"
#include "base/strutil.h"
#include "cli/session.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    iks_render_desc r;
    iks_shared_opts s; /* -I --set --channelN --missing-media --glsl --time */
    bool quiet;
    long warmup;
    const char *input_path; /* --input FILE */
    const char *each;       /* --each DIR: a compatibility report instead of frames */
    const char *shard;      /* --shard K/N or auto */
    long shard_count;       /* --shard-count N, 0 when not given */
    bool join;              /* --join: the film from its segments, none drawn */
    /* made after parsing */
    const char *shader;
    const iks_output_info *format; /* the output's format (the library's row), NULL for a name none takes */
    char demo[4096];        /* where a demo named in place of a path is */
    iks_input_log *input;   /* the --input recording, owned */
    const char **sets;      /* its settings, then the command line's (which win), when --input */
    int nsets;
    long shard_k, shard_n;  /* the part taken, when shard */
    bool shard_empty;       /* this part has no frames: nothing to draw */
    iks_args args;
} ropts;

/* N or A:B: a count from 0, or a range (the library checks what it may be) */
IKS_OPT_PARSER(parse_frames, iks_render_desc, s, r)
{
    const char *colon = strchr(s, ':');
    if (!colon) {
        long n;
        if (!iks_parse_long(s, &n) || n < 1) return false; /* 0 frames is nothing to render */
        r->first = 0;
        r->end = n;
        return true;
    }
    char left[32];
    size_t k = (size_t)(colon - s);
    if (k == 0 || k >= sizeof left) return false;
    memcpy(left, s, k);
    left[k] = '\0';
    /* checked here as well as by the library: --warmup moves the range before the library sees it */
    return iks_parse_long(left, &r->first) && iks_parse_long(colon + 1, &r->end) && r->first >= 0 && r->end > r->first;
}

/* X,Y or X,Y,CX,CY: held at X,Y after a click at CX,CY (default X,Y) */
IKS_OPT_PARSER(parse_mouse, iks_render_desc, s, r)
{
    float v[4];
    int n = 0, commas = 0;
    for (const char *c = s; *c; c++) commas += *c == ',';
    if (commas != 1 && commas != 3) return false;
    for (const char *p = s;; n++) {
        char num[64];
        size_t k = strcspn(p, ",");
        if (k == 0 || k >= sizeof num) return false;
        memcpy(num, p, k);
        num[k] = '\0';
        double d;
        if (!iks_parse_finite(num, &d) || fabs(d) > 3.4e38) return false;
        v[n] = (float)d;
        if (!p[k]) break;
        p += k + 1;
    }
    memcpy(r->mouse, v, sizeof v);
    if (n == 1) r->mouse[2] = v[0], r->mouse[3] = v[1];
    r->have_mouse = true;
    return true;
}

/* 0 is the command line's word for stored (the library's -1: its 0 means the default); the range is
 * checked here as it is the command line's own, not the library's */
IKS_OPT_PARSER(parse_png_level, int, s, level)
{
    long l;
    if (!iks_parse_long(s, &l) || l < 0 || l > 12) return false;
    *level = l == 0 ? -1 : (int)l;
    return true;
}

static const iks_opt OPTIONS[] = {
    IKS_OPT_STRING_ROW(ropts, r.output, "--output", "-o", "OUTPUT",
      "where the frames go (required): see OUTPUT above", "output",
      .complete = "file", .need = "an output (see ikshade help render)"),
    IKS_OPT_SIZE_ROW(ropts, r.width, r.height, "--size", NULL, "WxH",
      "frame size (default " IKS_XSTR(IKS_DEFAULT_WIDTH) "x" IKS_XSTR(IKS_DEFAULT_HEIGHT) ")", "size",
      .expect = "expected WxH with whole numbers from 1, e.g. 1280x720"),
    IKS_OPT_PARSE_ROW(ropts, r, parse_frames, "--frames", NULL, "N | A:B",
      "N frames from 0, or frames A to B-1 (default 1); a range gives the same\n"
      "files as the whole run, so renders can be split across processes", "frames",
      .expect = "expected a count N >= 1 or a range A:B with 0 <= A < B"),
    IKS_OPT_DOUBLE_ROW(ropts, r.fps, "--fps", NULL, "F",
      "frames per second (default 60)", "fps", .flags = IKS_OPT_NONZERO,
      .expect = "expected a number", .need = "a number"),
    IKS_OPT_DOUBLE_ROW(ropts, r.seconds, "--seconds", NULL, "S",
      "a .wav's length (default 180, the site's); for frames: S x FPS frames",
      "seconds frames", .flags = IKS_OPT_NONZERO, .expect = "expected a number of seconds",
      .need = "a number of seconds"),
    IKS_OPT_PARSE_ROW(ropts, r, parse_mouse, "--mouse", NULL, "X,Y[,CX,CY]",
      "a fixed mouse in pixels: held at X,Y after a click at CX,CY (default\n"
      "X,Y), as on shadertoy.com (w > 0 on frame 0 only)", "mouse",
      .expect = "expected X,Y or X,Y,CX,CY in pixels (each within a million)"),
    IKS_OPT_TABLE_ROW(ropts, s, IKS_SHARED_OPTS),
    IKS_OPT_INT_ROW(ropts, r.ssaa, "--ssaa", NULL, "K", "K x K supersampling, box-filtered (1..8, default 1)", "ssaa",
      .flags = IKS_OPT_NONZERO, .expect = "expected a whole number"),
    IKS_OPT_FLAG_ROW(ropts, r.alpha, "--alpha", NULL, NULL,
      "keep the alpha channel (RGBA PNGs); default RGB as shadertoy.com",
      "alpha", .flags = 0),
    IKS_OPT_INT_ROW(ropts, r.depth, "--depth", NULL, "8|16|32",
      "bits per channel: 16 for 16-bit PNGs (drawn in float, no 8-bit steps);\n"
      "EXR: 16 half (default) or 32 float", "depth", .flags = IKS_OPT_NONZERO,
      .expect = "expected 8, 16 (PNG, or an EXR's half) or 32 (EXR float)", .complete = "words:8 16 32",
      .need = "bits per channel: 8, 16 or 32"),
    IKS_OPT_INT_ROW(ropts, r.quality, "--quality", NULL, "Q", "JPEG and WebP quality, 1..100 (default 90)", "quality",
      .flags = IKS_OPT_NONZERO, .expect = "expected a whole number"),
    IKS_OPT_PARSE_ROW(ropts, r.png_level, parse_png_level, "--png-level", NULL, "L",
      "1 (default): ISA-L's fastest deflate; 2..12: libdeflate's levels, smaller\n"
      "and slower (10 and up: much slower); 0: stored, uncompressed", "png_level",
      .expect = "expected a whole number from 0 to 12", .need = "a level"),
    IKS_OPT_INT_ROW(ropts, r.jobs, "--jobs", NULL, "J", "encoder threads (default: the number of cores)", "jobs",
      .flags = IKS_OPT_NONZERO, .expect = "expected a whole number", .need = "a count"),
    IKS_OPT_STRING_ROW(ropts, input_path, "--input", NULL, "FILE",
      "replay a session recorded by `ikshade view --record-input FILE`: its\n"
      "mouse, keys and --set values, resampled at --fps and scaled to --size;\n--frames defaults to the whole session",
      "input frames input_log", .complete = "file",
      .need = "a recorded session (ikshade view --record-input FILE)"),
    IKS_OPT_STRING_ROW(ropts, r.ffmpeg_args, "--ffmpeg-args", NULL, "'ARGS'",
      "a video's ffmpeg output options instead of ours (any extension\n"
      "then), e.g. -o clip.mov --ffmpeg-args '-c:v prores_ks -profile:v 3'", "ffmpeg_args",
      .need = "ffmpeg's output options, quoted as one argument"),
    IKS_OPT_FLAG_ROW(ropts, quiet, "--quiet", "-q", NULL, "no progress and no summary", .flags = 0),
    IKS_OPT_LONG_ROW(ropts, warmup, "--warmup", NULL, "N",
      "draw frames 0..N-1 unsaved first; the saved frames come after them",
      .min = 0, .max = 1000000, .expect = "expected a whole number", .need = "a frame count"),
    IKS_OPT_STRING_ROW(ropts, shard, "--shard", NULL, "K/N",
      "render part K (0..N-1) of N contiguous parts of the --frames range; the\n"
      "parts together give the same files as one run (a part is empty when N > frames)\n"
      "auto: K and N from a Slurm job array (SLURM_ARRAY_TASK_ID, _COUNT, _MIN,\n"
      "_STEP), a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) or GNU parallel\n(PARALLEL_SEQ)\n"
      "with a video (.mp4 .mkv .webm) each part is a segment, OUTPUT.parts/K-of-N.EXT,\n"
      "and the last part to finish joins them into OUTPUT (see --join)",
      "shard", .need = "K/N or auto", .complete = "words:auto"),
    IKS_OPT_LONG_ROW(ropts, shard_count, "--shard-count", NULL, "N",
      "N for --shard auto where the environment lacks it (Kubernetes, GNU\nparallel)",
      .min = 1, .max = 100000000, .expect = "expected a whole number",
      .need = "the number of parts N"),
    IKS_OPT_FLAG_ROW(ropts, join, "--join", NULL, NULL,
      "with --shard-count N and a video: draw nothing, join the N segments the\n"
      "parts wrote into OUTPUT (the picture copied, the sound encoded once over\n"
      "the film); refused when one is missing, damaged or of another render;\n"
      "an OUTPUT that is this film, whole, already is kept",
      .flags = 0),
    IKS_OPT_FLAG_ROW(ropts, r.resume, "--resume", NULL, NULL,
      "keep frames whose files (PNG, JPEG, EXR) are already there, complete,\n"
      "valid and of this same render (each carries its identity), or a part's\n"
      "video segment that is; draw the rest\n"
      "(a killed or preempted task is simply run again; frames of an edited\n"
      "shader are drawn again, and a warning says how many)", "resume", .flags = 0),
    IKS_OPT_STRING_ROW(ropts, r.checkpoint_dir, "--checkpoint", NULL, "DIR",
      "a toy with buffers starts a range from the newest checkpoint in DIR at\n"
      "or before it instead of from frame 0 (the same frames as one run); each\n"
      "toy, size, --set, --fps, --time, --mouse and --input has its own there\n"
      "(named by a hash of the shaders and the media's bytes too), so toys may\n"
      "share DIR; a damaged one, or one of another format version, is refused",
      "checkpoint_dir", .complete = "dir", .need = "a directory"),
    IKS_OPT_LONG_ROW(ropts, r.checkpoint_every, "--checkpoint-every", NULL, "N",
      "save the buffers' state in DIR after every N-th frame (frames N, 2N,\n"
      "...), atomically, at full float precision", "checkpoint_every", .flags = IKS_OPT_NONZERO,
      .expect = "expected a whole number of frames", .need = "a frame count"),
    IKS_OPT_STRING_ROW(ropts, each, "--each", NULL, "DIR",
      "a compatibility report: every shader in DIR (.frag .glsl .fs .json), the\n"
      "--frames given (default 1) at --size, as a table on stdout; exit 1 if any\nfailed", .complete = "dir",
      .need = "a directory of shaders"),
    { IKS_OPT_END, .flags = 0 },
};

/* the outputs, from the library's own table of formats */
static void outputs(FILE *f)
{
    fputs("\nOUTPUT (the format follows the name's extension):\n", f);
    for (int i = 0; iks_output_format(i); i++) {
        const iks_output_info *o = iks_output_format(i);
        char names[64];
        snprintf(names, sizeof names, "%s", o->exts);
        for (char *c = names; *c; c++)
            if (*c == ' ') *c = ',';
        fprintf(f, "  %-20s ", names);
        iks_put_wrapped(f, o->what, 23);
    }
    fputs("  Frame files are named with one printf-style frame number (out/frame_%04d.png; directories are\n"
          "  made), or one plain name for a single frame (still.png); one file takes every frame (a video, a\n"
          "  .webp); - writes raw frames to stdout (pipe them into ffmpeg). Videos are playable anywhere:\n"
          "  yuv420p, odd sizes padded to even; a toy with a sound pass gets it as the audio track.\n", f);
}

const iks_help HELP_RENDER = {
    .usage = "usage: ikshade render [SHADER|DEMO] -o OUTPUT [options]\n",
    .about = "Renders frames of a Shadertoy-style shader headless (no display needed). SHADER is a file, a\n"
             "shadertoy.com JSON export (Common, Buffers A-D, Cube A, Image, Sound), or a directory with\n"
             "image.glsl, a.glsl..d.glsl, cube_a.glsl, sound.glsl, common.glsl and manifest.txt; it defaults to\n"
             "the IK limb demo. Frame i is drawn at time T0 + i/FPS (computed in double), and the date is fixed\n"
             "(2000-01-01, its seconds the frame's time), so renders are reproducible: `ikshade help uniforms`\n"
             "says what each uniform holds.\n",
    .more = outputs,
    .options = OPTIONS,
    .after = "examples:\n"
             "  ikshade render -o out/%04d.png --frames 120\n"
             "  ikshade render limb -o still.png --mouse 900,500 --set r1=0.6     # a demo by name: ikshade demos\n"
             "  ikshade render creature -o walk.mp4 --seconds 2\n"
             "  ikshade render -o limb.mp4 --frames 120\n"
             "  ikshade render -o - --frames 60 | ffmpeg -y -f rawvideo -pix_fmt rgba -s 1280x720 -framerate 60 -i - \\\n"
             "      -pix_fmt yuv420p out.mp4\n",
    .operand = "toy",
};

#define MAX_ENV_INDEX 1000000000L /* a scheduler's task numbers, from the environment: at most this */

/* K and N of --shard auto from the environment of the scheduler running us; -1 when found, else the
 * exit code after printing the one-line error */
static int shard_from_env(long count, long *k, long *n)
{
    const char *slurm = getenv("SLURM_ARRAY_TASK_ID"), *kube = getenv("JOB_COMPLETION_INDEX"),
               *par = getenv("PARALLEL_SEQ");
    int found = (slurm != NULL) + (kube != NULL) + (par != NULL);
    if (found == 0)
        return iks_usage("render", "--shard auto: none of SLURM_ARRAY_TASK_ID (a Slurm job array), JOB_COMPLETION_INDEX "
                         "(a Kubernetes Indexed Job) or PARALLEL_SEQ (GNU parallel) is set; give --shard K/N");
    if (found > 1)
        return iks_usage("render", "--shard auto: more than one scheduler's index is set (%s%s%s); give --shard K/N",
                         slurm ? "SLURM_ARRAY_TASK_ID " : "", kube ? "JOB_COMPLETION_INDEX " : "", par ? "PARALLEL_SEQ" : "");
    if (slurm) {
        /* tasks MIN, MIN+STEP, ... MAX: K counts them from 0 (--array=1-8 or 0-30:2 alike) */
        const char *cs = getenv("SLURM_ARRAY_TASK_COUNT"), *ms = getenv("SLURM_ARRAY_TASK_MIN"),
                   *xs = getenv("SLURM_ARRAY_TASK_MAX"), *ss = getenv("SLURM_ARRAY_TASK_STEP");
        long id, cnt, min, max = 0, step = 1;
        if (!iks_parse_long(slurm, &id) || !cs || !iks_parse_long(cs, &cnt) || !ms || !iks_parse_long(ms, &min) ||
            (xs && !iks_parse_long(xs, &max)) || (ss && !iks_parse_long(ss, &step)) || cnt < 1 || step < 1)
            return iks_usage("render", "--shard auto: SLURM_ARRAY_TASK_ID '%s' without a whole SLURM_ARRAY_TASK_COUNT "
                             "and _MIN (and _STEP): give --shard K/N", slurm);
        /* Slurm's indices are far below this (MaxArraySize): numbers past it are not a scheduler's, and
         * in range no sum or product below can overflow */
        const struct { const char *name, *text; long v, lo; } env[] = {
            { "SLURM_ARRAY_TASK_ID", slurm, id, 0 }, { "SLURM_ARRAY_TASK_COUNT", cs, cnt, 1 },
            { "SLURM_ARRAY_TASK_MIN", ms, min, 0 }, { "SLURM_ARRAY_TASK_MAX", xs, max, 0 },
            { "SLURM_ARRAY_TASK_STEP", ss, step, 1 } };
        for (size_t i = 0; i < sizeof env / sizeof env[0]; i++)
            if (env[i].text && (env[i].v < env[i].lo || env[i].v > MAX_ENV_INDEX))
                return iks_usage("render", "--shard auto: %s '%s': expected a whole number from %ld to %ld", env[i].name,
                                 env[i].text, env[i].lo, (long)MAX_ENV_INDEX);
        if (id < min || (id - min) % step || (id - min) / step >= cnt || (xs && max != min + (cnt - 1) * step))
            return iks_usage("render", "--shard auto: Slurm array task %ld is not one of %ld evenly spaced tasks from %ld "
                             "(an array like --array=1,5,7?); use --array=0-%ld, or --shard K/N", id, cnt, min, cnt - 1);
        if (count && count != cnt)
            return iks_usage("render", "--shard-count %ld, but the Slurm array has %ld tasks", count, cnt);
        *k = (id - min) / step;
        *n = cnt;
        return -1;
    }
    const char *name = kube ? "JOB_COMPLETION_INDEX" : "PARALLEL_SEQ", *v = kube ? kube : par;
    long idx;
    if (!iks_parse_long(v, &idx) || idx < (kube ? 0 : 1) || idx > MAX_ENV_INDEX)
        return iks_usage("render", "--shard auto: %s '%s': expected a whole number from %d to %ld", name, v, kube ? 0 : 1,
                         (long)MAX_ENV_INDEX);
    if (!count)
        return iks_usage("render", "--shard auto with %s (%s) needs --shard-count N: the number of %s", name,
                         kube ? "a Kubernetes Indexed Job" : "GNU parallel", kube ? "completions" : "jobs");
    *k = kube ? idx : idx - 1; /* PARALLEL_SEQ counts from 1 */
    *n = count;
    if (*k >= *n) return iks_usage("render", "--shard auto: %s %s is past --shard-count %ld", name, v, count);
    return -1;
}

/* --shard: the part of [first, end) this process takes; film: the output is a video, made in segments */
static int apply_shard(ropts *o, bool film)
{
    iks_render_desc *r = &o->r;
    if (strcmp(o->shard, "auto") == 0) {
        int rc = shard_from_env(o->shard_count, &o->shard_k, &o->shard_n);
        if (rc >= 0) return rc;
    } else {
        const char *slash = strchr(o->shard, '/');
        char left[32];
        size_t k = slash ? (size_t)(slash - o->shard) : 0;
        bool ok = slash && k > 0 && k < sizeof left;
        if (ok) {
            memcpy(left, o->shard, k);
            left[k] = '\0';
            ok = iks_parse_long(left, &o->shard_k) && iks_parse_long(slash + 1, &o->shard_n);
        }
        if (!ok) return iks_usage("render", "--shard '%s': expected K/N (part K of N, K from 0) or auto", o->shard);
        if (o->shard_count && o->shard_count != o->shard_n)
            return iks_usage("render", "--shard %s with --shard-count %ld: the counts differ", o->shard, o->shard_count);
    }
    long a, b;
    if (iks_shard_range(r->first, r->end, o->shard_k, o->shard_n, &a, &b) != IKS_OK) return iks_opts_error(&o->args);
    if (film) {
        /* a video: the library draws this part into its segment of the whole range's film */
        r->segment = o->shard_k;
        r->segments = o->shard_n;
        r->join = IKS_JOIN_WHEN_DONE;
        return -1;
    }
    o->shard_empty = a == b;
    if (!o->shard_empty) {
        r->first = a;
        r->end = b;
    }
    return -1;
}

/* Fills o from argv; -1 when valid, else the exit code after printing the one-line error. The caller
 * frees o with ropts_free whatever this returns. The library checks every value it takes (iks_toy_check,
 * iks_render_check), its errors put back in the user's words by the option table. */
static int parse_args(int argc, char **argv, ropts *o)
{
    memset(o, 0, sizeof *o);
    /* this header's layout: 0 would be the first one, and a member added since would read as 0 */
    o->r.struct_size = sizeof o->r;
    o->r.stats_size = sizeof(iks_render_stats); /* its members past 0.3.0's (the segments') too */
    int rc = iks_opts_parse("render", OPTIONS, argc, argv, o, &o->args);
    if (rc >= 0 || (rc = iks_shared_parse(&o->s, &o->args)) >= 0) return rc;
    if (o->args.npos > 1)
        return iks_usage("render", "more than one shader given ('%s' and '%s')", o->args.pos[0], o->args.pos[1]);
    o->shader = o->args.npos ? iks_cli_toy_path(o->args.pos[0], o->demo, sizeof o->demo) : NULL;
    iks_render_desc *r = &o->r;
    r->time0 = o->s.t0;
    bool frames_given = iks_args_given(&o->args, "--frames") != NULL;
    bool seconds_given = iks_args_given(&o->args, "--seconds") != NULL;
    if (!frames_given) r->first = 0, r->end = 1;
    if (o->each) {
        struct stat st;
        if (stat(o->each, &st) != 0 || !S_ISDIR(st.st_mode)) return iks_usage("render", "--each %s: not a directory", o->each);
        if (r->output) return iks_usage("render", "--each writes a report to stdout, not frames: drop -o");
        if (o->shader) return iks_usage("render", "--each takes the shaders from its directory, not '%s'", o->shader);
        if (o->shard || r->resume || r->checkpoint_dir)
            return iks_usage("render", "--each writes a report, not frames: --shard, --resume and --checkpoint do not apply");
        return -1;
    }
    if (!r->output) return iks_usage("render", "no output: add -o out/%%04d.png (or -o - for raw frames)");
    o->format = iks_output_format_of(r->output);
    bool to_sound = o->format && o->format->kind == IKS_OUTPUT_SOUND; /* --seconds is its length, not frames */
    if (o->input_path) {
        if (iks_input_log_load(o->input_path, &o->input) != IKS_OK) return iks_print_last_error("render");
        /* the whole session at --fps unless --frames says otherwise; its --set values first */
        r->input = o->input;
        double fps = r->fps > 0 ? r->fps : 60, span = iks_input_log_duration(o->input);
        /* frames as the recording lasts, unless --frames or --seconds say how many (a .wav draws none);
         * the library refuses a count past its cap, as for --frames */
        if (!frames_given && !seconds_given && !to_sound) r->end = r->first + (long)fmin(floor(span * fps) + 1, 1e15);
        const char *const *ls;
        int nl = iks_input_log_sets(o->input, &ls);
        if (nl > 0) {
            /* the recording's, as text it holds; the command line's --set are typed values, applied after */
            o->sets = malloc(sizeof *o->sets * (size_t)(nl + 1));
            if (!o->sets) return iks_fail("render", "out of memory");
            for (int i = 0; i < nl; i++) o->sets[i] = ls[i];
            o->nsets = nl;
        }
    }
    /* --seconds S for frames: S x FPS of them, the last one started before S */
    if (seconds_given && !to_sound) {
        if (frames_given) return iks_usage("render", "--seconds and --frames both say how long: give one");
        double fps = r->fps > 0 ? r->fps : 60, n = ceil(r->seconds * fps - 1e-9);
        r->end = r->first + (long)fmin(n, 1e15);
    }
    /* --warmup N: frames 0..N-1 are drawn unsaved, and the saved frames come after them */
    if (r->end > LONG_MAX - o->warmup)
        return iks_usage("render", "--frames %ld:%ld with --warmup %ld: the frame numbers pass %ld", r->first, r->end,
                         o->warmup, LONG_MAX);
    r->first += o->warmup;
    r->end += o->warmup;
    if (o->join && o->shard) return iks_usage("render", "--join joins the parts' segments: give it --shard-count N, not "
                                              "--shard (each part joins them when it finds the others done)");
    if (o->join && !o->shard_count) return iks_usage("render", "--join needs --shard-count N: the number of segments");
    if (o->shard_count && !o->shard && !o->join) return iks_usage("render", "--shard-count goes with --shard auto");
    bool film = o->format && o->format->kind == IKS_OUTPUT_VIDEO;
    if (o->join) {
        r->segments = o->shard_count;
        r->join = IKS_JOIN_NOW;
    }
    iks_toy_desc td = iks_shared_toy(&o->s, o->shader);
    if (iks_toy_check(&td) != IKS_OK) return iks_opts_error(&o->args);
    if (o->shard) {
        /* what one run of the whole range refuses, every part refuses: a part's own range can pass
         * where the whole one cannot (its last frame's time; one file named for several frames) */
        if (!film && iks_render_check(r) != IKS_OK) return iks_opts_error(&o->args);
        rc = apply_shard(o, film); /* a film's part keeps the whole range: checked below */
        if (rc >= 0) return rc;
    }
    if (o->format && o->format->kind == IKS_OUTPUT_RAW && isatty(STDOUT_FILENO))
        return iks_usage("render", "-o -: stdout is a terminal; pipe it into a program");
    if (iks_render_check(r) != IKS_OK) return iks_opts_error(&o->args);
    return -1;
}

static void ropts_free(ropts *o)
{
    iks_input_log_free(o->input);
    free(o->sets);
    iks_shared_free(&o->s);
    iks_args_free(&o->args, o);
}

/* ---- progress ---------------------------------------------------------------------------------- */

typedef struct {
    bool tty;
    double last_bar;
    long first; /* the render's first frame: the bar counts frames from it */
} progress_state;

/* step: where a frame drawn in steps is ("frame 3/10, Cube A 5/48"), or "" */
static void draw_bar(long done, long total, double el, bool final, const char *step)
{
    double rate = el > 0 ? done / el : 0;
    double eta = rate > 0 ? (total - done) / rate : 0;
    int width = 30, fill = total ? (int)(width * done / total) : width;
    char bar[64];
    for (int i = 0; i < width; i++) bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    /* padded, so that a shorter line after a step's covers the step's words */
    fprintf(stderr, "\r[%s] %ld/%ld frames  %.1f frames/s  ETA %.1f s  %-36s", bar, done, total, rate, eta, step);
    if (final) fputc('\n', stderr);
    fflush(stderr);
}

/* the render's progress callback: the bar on a terminal, and Ctrl-C */
static bool on_progress(void *user, const iks_progress *p)
{
    progress_state *s = user;
    if (s->tty && (iks_now() - s->last_bar > 0.1 || p->done == p->total)) {
        /* a Cube A frame can take minutes here: its steps show that it moves */
        char step[96] = "";
        if (p->parts > 0 && p->frame >= s->first)
            snprintf(step, sizeof step, "frame %ld/%ld, Cube A %d/%d", p->frame - s->first + 1, p->total, p->part,
                     p->parts);
        else if (p->parts > 0)
            snprintf(step, sizeof step, "frame %ld (unsaved), Cube A %d/%d", p->frame, p->part, p->parts);
        draw_bar(p->done, p->total, p->seconds, false, step);
        s->last_bar = iks_now();
    }
    return !iks_signals_stopped(); /* Ctrl-C, SIGTERM, SIGHUP: see signals.c */
}

/* ---- --each ------------------------------------------------------------------------------------ */

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* the first line of a message (iks_put_cell escapes what would break the table) */
static void one_line(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; s && *s && *s != '\n' && k + 1 < n; s++) out[k++] = *s;
    out[k] = '\0';
}

/* the engine's logger during --each: the first warning of each shader goes into its row */
typedef struct {
    iks_cli_log base;
    char first_warning[512];
    char first_es[512]; /* the GLSL ES check's first line */
} each_log;

static void each_log_fn(void *user, iks_log_level level, const char *message)
{
    each_log *l = user;
    if (level == IKS_LOG_WARN && !l->first_warning[0]) one_line(message, l->first_warning, sizeof l->first_warning);
    else if (level == IKS_LOG_DIAGNOSTICS && !l->first_es[0]) one_line(message, l->first_es, sizeof l->first_es);
    else if (level == IKS_LOG_INFO) iks_cli_log_fn(&l->base, level, message);
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
}

/* --each DIR: every shader in DIR built and drawn; a table of what worked and why not */
static int render_each(const ropts *o)
{
    DIR *d = opendir(o->each);
    if (!d) return iks_fail("render", "--each %s: %s", o->each, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        const char *x = ent->d_name;
        if (x[0] == '.' || !(iks_ends_with(x, ".frag") || iks_ends_with(x, ".glsl") || iks_ends_with(x, ".fs") || iks_ends_with(x, ".json")))
            continue;
        if (!IKS_GROW(names, n + 1, cap)) break;
        if (!(names[n] = strdup(x))) break;
        n++;
    }
    bool listed = ent == NULL;
    closedir(d);
    if (!listed) {
        free_names(names, n);
        return iks_fail("render", "--each %s: out of memory listing the directory", o->each);
    }
    if (n) qsort(names, n, sizeof names[0], cmp_names);
    each_log log = { .base = { "render", o->quiet, OPTIONS } };
    iks_engine *e = NULL;
    iks_engine_desc ed = { IKS_DESC_SIZE(iks_engine_desc), .log = each_log_fn, .log_user = &log };
    if (iks_engine_create(&ed, &e) != IKS_OK) {
        free_names(names, n);
        return iks_print_last_error("render");
    }
    const iks_render_desc *r = &o->r;
    printf("| shader | result | ms/frame | site (GLSL ES) | detail |\n|---|---|---:|---|---|\n");
    int ok = 0, failed = 0, skipped = 0;
    for (size_t i = 0; i < n && !iks_signals_stopped(); i++) {
        char path[PATH_MAX], detail[512] = "";
        snprintf(path, sizeof path, "%.2000s/%.1000s", o->each, names[i]);
        iks_toy_desc td = iks_shared_toy(&o->s, path);
        td.sets = NULL; /* settings are for one shader, not a folder of them */
        td.nsets = 0;
        td.values = NULL;
        td.nvalues = 0;
        memset(td.channel, 0, sizeof td.channel);
        td.width = r->width;
        td.height = r->height;
        log.first_warning[0] = '\0';
        log.first_es[0] = '\0';
        const char *result = "ok";
        double ms = -1;
        iks_toy *t = NULL;
        iks_code c = iks_toy_load(e, &td, &t);
        if (c != IKS_OK) {
            const char *m;
            iks_last_error(&m);
            result = c == IKS_E_NOT_SHADER ? "skipped" : c == IKS_E_COMPILE ? "compile error" : "load error";
            one_line(c == IKS_E_NOT_SHADER ? "no mainImage or main(): an include file?" : m, detail, sizeof detail);
        } else if (!iks_toy_has_image(t)) {
            /* a sound shader: its first block of samples, as the site draws first */
            enum { BLOCK = 512 * 512 };
            float *lr = malloc(2 * BLOCK * sizeof *lr);
            bool mem = lr != NULL;
            double t0 = iks_now();
            c = lr ? iks_toy_sound(t, 0, BLOCK, lr, 2 * BLOCK * sizeof *lr) : IKS_E_NOMEM;
            iks_engine_finish(e);
            ms = 1e3 * (iks_now() - t0);
            long bad = 0;
            for (long k = 0; lr && c == IKS_OK && k < 2 * BLOCK; k++) bad += !isfinite(lr[k]);
            free(lr);
            if (c != IKS_OK) {
                const char *m;
                iks_last_error(&m);
                result = "draw error";
                one_line(mem ? m : "out of memory", detail, sizeof detail);
            } else if (bad) snprintf(detail, sizeof detail, "sound: %ld of the first %d samples are NaN or infinite", bad, 2 * BLOCK);
            else snprintf(detail, sizeof detail, "sound: the first %d samples (ms for them, not a frame)", BLOCK);
        } else {
            double t0 = iks_now();
            for (long f = r->first; f < r->end && c == IKS_OK; f++) {
                iks_frame_info fi;
                iks_render_frame_info(r, f, &fi);
                c = iks_toy_draw(t, &fi, &(iks_draw_desc){ IKS_DESC_SIZE(iks_draw_desc), .width = r->width, .height = r->height });
            }
            iks_engine_finish(e);
            ms = 1e3 * (iks_now() - t0) / (double)(r->end - r->first);
            if (c != IKS_OK) {
                const char *m;
                iks_last_error(&m);
                result = "draw error";
                one_line(m, detail, sizeof detail);
            } else if (log.first_warning[0]) snprintf(detail, sizeof detail, "%s", log.first_warning);
        }
        /* the GLSL ES check's verdict: "-" where none ran (a failed load, --no-es-check, no validator) */
        int es = t && c == IKS_OK ? iks_toy_es_issues(t) : -1;
        char esv[32] = "-";
        if (es == 0) snprintf(esv, sizeof esv, "ok");
        else if (es > 0) snprintf(esv, sizeof esv, "%d error%s", es, es == 1 ? "" : "s");
        if (es > 0 && !detail[0]) snprintf(detail, sizeof detail, "%s", log.first_es);
        if (c != IKS_E_COMPILE && detail[0]) {
            char *words = iks_opts_words(OPTIONS, detail);
            if (words) snprintf(detail, sizeof detail, "%s", words);
            free(words);
        }
        iks_toy_destroy(t);
        if (!strcmp(result, "ok")) ok++;
        else if (!strcmp(result, "skipped")) skipped++;
        else failed++;
        fputs("| ", stdout);
        iks_put_cell(stdout, names[i]);
        if (ms >= 0) printf(" | %s | %.1f | %s | ", result, ms, esv);
        else printf(" | %s | | %s | ", result, esv);
        iks_put_cell(stdout, detail);
        fputs(" |\n", stdout);
        fflush(stdout);
    }
    iks_engine_destroy(e);
    free_names(names, n);
    if (!o->quiet)
        iks_say(stderr, "ikshade render --each %s: %d shaders: %d ok, %d failed, %d skipped", o->each, ok + failed + skipped,
                ok, failed, skipped);
    return failed ? EXIT_FAIL : EXIT_OK;
}

/* ---- the render -------------------------------------------------------------------------------- */

/* A load's error: a setting that came from the --input recording (its settings go first) is the
 * recording's to name; the others are the command line's */
static int load_error(const ropts *o)
{
    if (iks_cli_toy_missing("render", o->shader)) return EXIT_FAIL;
    const char *reason;
    const char *field = iks_last_error_field(&reason);
    int i;
    /* sets are the recording's alone (the command line's --set are values, which its table names) */
    if (o->sets && sscanf(field, "sets[%d]", &i) == 1 && i >= 0 && i < o->nsets) {
        iks_fail("render", "%s: its setting '%s': %s", o->input_path, o->sets[i], reason);
        return iks_exit_status(iks_last_error(NULL));
    }
    return iks_opts_error(&o->args);
}

/* The summary of a part of a film in segments, or of its join */
static int film_summary(const ropts *o, const iks_render_stats *st)
{
    const iks_render_desc *r = &o->r;
    if (o->quiet) return EXIT_OK;
    char seg[PATH_MAX] = "", then[PATH_MAX + 160] = "";
    if (r->join == IKS_JOIN_NOW && st->joined_before) {
        iks_say(stderr, "ikshade render: %s is this film of %ld segments, whole, joined already: kept", r->output,
                r->segments);
        return EXIT_OK;
    }
    if (r->join == IKS_JOIN_NOW) {
        iks_say(stderr, "ikshade render: %ld segments of frames %ld:%ld joined -> %s%s", r->segments, r->first, r->end,
                r->output, st->samples > 0 ? " (with the toy's sound, encoded once over the film)" : "");
        return EXIT_OK;
    }
    iks_segment_path(r->output, r->segment, r->segments, seg, sizeof seg);
    if (st->joined) snprintf(then, sizeof then, "; all %ld there: joined -> %s", r->segments, r->output);
    else if (st->joined_before) snprintf(then, sizeof then, "; all %ld there, and %s is joined already", r->segments, r->output);
    else snprintf(then, sizeof then, "; %ld of %ld segments there (the last part to finish joins them)",
                  st->segments_there, r->segments);
    long a, b;
    iks_shard_range(r->first, r->end, r->segment, r->segments, &a, &b);
    if (a == b)
        iks_say(stderr, "ikshade render: shard %ld/%ld of frames %ld:%ld has no frames%s", r->segment, r->segments, r->first,
                r->end, then);
    else if (st->kept)
        iks_say(stderr, "ikshade render: segment %s kept from before (shard %ld/%ld: frames %ld:%ld)%s", seg, r->segment,
                r->segments, a, b, then);
    else
        iks_say(stderr, "ikshade render: %ld frames of %dx%d in %.2f s -> %s (shard %ld/%ld: frames %ld:%ld)%s", st->written,
                st->width, st->height, st->seconds, seg, r->segment, r->segments, a, b, then);
    return EXIT_OK;
}

static int render(ropts *o)
{
    if (o->each) return render_each(o);
    iks_render_desc *r = &o->r;
    if (o->shard_empty) {
        /* more parts than frames: this one has none, and that is no failure */
        if (!o->quiet)
            fprintf(stderr, "ikshade render: shard %ld/%ld of frames %ld:%ld has no frames: nothing to do\n", o->shard_k,
                    o->shard_n, r->first, r->end);
        return EXIT_OK;
    }
    iks_cli_toy_note("render", o->args.npos ? o->args.pos[0] : NULL, o->shader);
    iks_cli_log log = { "render", o->quiet, OPTIONS };
    iks_engine *e = iks_cli_engine(&log, NULL);
    if (!e) return EXIT_FAIL;
    iks_toy_desc td = iks_shared_toy(&o->s, o->shader);
    if (o->sets) {
        td.sets = o->sets;
        td.nsets = o->nsets;
    }
    td.width = r->width * r->ssaa;
    td.height = r->height * r->ssaa;
    td.sound_only = o->format && o->format->kind == IKS_OUTPUT_SOUND;
    iks_toy *t = NULL;
    if (iks_toy_load(e, &td, &t) != IKS_OK) {
        int rc = load_error(o);
        iks_engine_destroy(e);
        return rc;
    }
    progress_state ps = { .tty = isatty(STDERR_FILENO) && !o->quiet, .first = r->first };
    r->progress = on_progress;
    r->user = &ps;
    iks_render_stats st;
    iks_code c = iks_render(t, r, &st);
    if (ps.tty) draw_bar(st.written, st.total, st.seconds, true, "");
    iks_toy_destroy(t);
    iks_engine_destroy(e);
    const char *m;
    iks_last_error(&m);
    if (c == IKS_E_INTERRUPTED) return iks_print_error("render", c, m);
    if (c != IKS_OK) {
        /* before any frame was drawn (total 0) there is nothing to count; a failed video is removed:
         * there are no frames written to count */
        if (c == IKS_E_COMPILE || c == IKS_E_USAGE || st.total == 0 || st.fps_played > 0) return iks_opts_error(&o->args);
        char *words = iks_opts_words(OPTIONS, m);
        /* with --resume the kept frames are on disk too: the count says what is there */
        if (st.kept)
            iks_fail("render", "%s (%ld of %ld frames written, %ld kept from before)", words ? words : m, st.written,
                     st.total, st.kept);
        else iks_fail("render", "%s (%ld of %ld frames written)", words ? words : m, st.written, st.total);
        free(words);
        return iks_exit_status(c);
    }
    if (r->segments) return film_summary(o, &st);
    if (!o->quiet && st.samples > 0 && st.total == 0) {
        iks_say(stderr, "ikshade render: %.3f s of sound (%ld samples, 44100 Hz 16-bit stereo) in %.2f s -> %s",
                st.samples / 44100.0, st.samples, st.seconds, r->output);
        return EXIT_OK;
    }
    if (!o->quiet) {
        char note[512] = "";
        double fps = r->fps > 0 ? r->fps : 60;
        if (st.fps_played > 0 && fabs(st.fps_played - fps) > 1e-9 * fps)
            snprintf(note, sizeof note, " (GIF: %.0f/100 s a frame, so %.4g fps where %.4g was asked)", 100.0 / st.fps_played,
                     st.fps_played, fps);
        if (st.padded) snprintf(note + strlen(note), sizeof note - strlen(note), " (padded to %dx%d for yuv420p)",
                                st.width + st.width % 2, st.height + st.height % 2);
        if (st.samples > 0) snprintf(note + strlen(note), sizeof note - strlen(note), " (with the toy's sound as audio)");
        if (o->shard) snprintf(note + strlen(note), sizeof note - strlen(note), " (shard %ld/%ld: frames %ld:%ld)",
                               o->shard_k, o->shard_n, r->first, r->end);
        if (st.kept) snprintf(note + strlen(note), sizeof note - strlen(note), " (%ld kept from before)", st.kept);
        if (st.restored) snprintf(note + strlen(note), sizeof note - strlen(note), " (buffers from the checkpoint of "
                                  "frame %ld)", st.restored);
        if (st.warmed) snprintf(note + strlen(note), sizeof note - strlen(note), " (%ld drawn unsaved for the buffers)",
                                st.warmed);
        if (st.checkpoints) snprintf(note + strlen(note), sizeof note - strlen(note), " (%ld checkpoint%s)",
                                     st.checkpoints, st.checkpoints == 1 ? "" : "s");
        iks_say(stderr, "ikshade render: %ld frame%s of %dx%d in %.2f s (%.1f frames/s) -> %s%s", st.written,
                st.written == 1 ? "" : "s", st.width, st.height, st.seconds, st.seconds > 0 ? st.written / st.seconds : 0.0,
                o->format && o->format->kind == IKS_OUTPUT_RAW ? "stdout" : r->output, note);
    }
    return EXIT_OK;
}

int cmd_render(int argc, char **argv)
{
    ropts o;
    int rc = parse_args(argc, argv, &o);
    if (rc < 0) rc = render(&o);
    ropts_free(&o);
    return rc;
}

int iks_render_parse_only(int argc, char **argv)
{
    ropts o;
    int rc = parse_args(argc, argv, &o);
    ropts_free(&o);
    return rc;
}
