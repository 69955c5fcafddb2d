/* cmd_render.c: `ikshade render`: parses the arguments into an iks_render_desc, loads the toy and calls
 * iks_render (src/engine/render.c does the work); owns what a terminal user sees: the progress bar,
 * Ctrl-C, the summary line. `--each DIR` is a compatibility report built from the same API calls. */
#include "cli/cli.h"
#include "base/clock.h"
#include "base/buf.h"
#include "base/strutil.h"
#include "cli/session.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char HELP_RENDER[] =
    "usage: ikshade render [SHADER] -o OUTPUT [options]\n"
    "\n"
    "Renders frames of a Shadertoy-style shader headless (no display needed). SHADER is a file, a\n"
    "shadertoy.com JSON export (Common, Buffers A-D, Cube A, Image, Sound), or a directory with\n"
    "image.glsl, a.glsl..d.glsl, cube_a.glsl, sound.glsl, common.glsl and manifest.txt; it defaults to\n"
    "the IK limb demo. Frame i is drawn at time T0 + i/FPS (computed in double), with iTimeDelta =\n"
    "1/FPS and iFrame = i; iDate is fixed (2000-01-01, seconds = iTime) so renders are reproducible.\n"
    "\n"
    "OUTPUT:\n"
    "  out/frame_%04d.png   PNG files, a printf-style frame number (directories are created)\n"
    "  still.png            a plain name, for a single frame\n"
    "  out/%04d.exr         OpenEXR (RGBA half floats, ZIP): values above 1 and below 1/255 kept\n"
    "  -                    raw RGBA8 frames, top row first, to stdout (pipe into ffmpeg)\n"
    "  movie.mp4            a video through ffmpeg (when installed), at --fps, playable anywhere:\n"
    "                       .mp4 .mkv H.264 yuv420p, .webm VP9, .gif with a palette made for the clip\n"
    "                       (GIF delays are whole 1/100 s: 60 fps plays at 50); odd sizes padded to even;\n"
    "                       a toy with a sound pass gets it as the audio track (AAC; Opus in .webm)\n"
    "  song.wav             the sound pass (mainSound, a JSON's sound pass, sound.glsl) as 44100 Hz\n"
    "                       16-bit stereo, --seconds long from --time, drawn on the GPU as the site does\n"
    "\n"
    "options:\n"
    "  -o, --output OUTPUT  where the frames go (required)\n"
    "  --size WxH           frame size (default 1280x720)\n"
    "  --frames N | A:B     N frames from 0, or frames A to B-1 (default 1); a range gives the same\n"
    "                       files as the whole run, so renders can be split across processes\n"
    "  --fps F              frames per second (default 60)\n"
    "  --seconds S          a .wav's length (default 180, the site's); for frames: S x FPS frames\n"
    "  --time T0            time of frame 0 in seconds (default 0)\n"
    "  --mouse X,Y[,CX,CY]  a fixed iMouse in pixels: held at X,Y after a click at CX,CY (default X,Y),\n"
    "                       as on shadertoy.com (w > 0 on frame 0 only)\n"
    "  --set NAME=V[,V...]  set a uniform the shader declares (float, int, bool, vecN)\n"
    "  -I DIR               add DIR to the #include path\n"
    "  --ssaa K             K x K supersampling, box-filtered (1..8, default 1)\n"
    "  --alpha              keep the alpha channel (RGBA PNGs); default RGB as shadertoy.com\n"
    "  --depth 8|16|32      bits per channel: 16 for 16-bit PNGs (drawn in float, no 8-bit steps);\n"
    "                       EXR: 16 half (default) or 32 float\n"
    "  --png-level L        1 (default): ISA-L's fastest deflate; 2..12: libdeflate's levels, smaller and\n"
    "                       slower (10 and up: much slower); 0: stored, uncompressed\n"
    "  --jobs J             encoder threads (default: the number of cores)\n"
    "  --input FILE         replay a session recorded by `ikshade view --record-input FILE`: its mouse,\n"
    "                       keys and --set values, resampled at --fps and scaled to --size; --frames\n"
    "                       defaults to the whole session\n"
    "  --ffmpeg-args 'ARGS' a video's ffmpeg output options instead of ours (any extension then), e.g.\n"
    "                       -o clip.mov --ffmpeg-args '-c:v prores_ks -profile:v 3'\n"
    "  --quiet              no progress and no summary\n"
    "  --channelN SPEC      iChannelN (0-3) of a single file: FILE.png|FILE.jpg|cube:FILE.png|keyboard|black\n"
    "                       |FILE.bin (a shadertoy.com volume, a sampler3D)\n"
    "                       ,filter=nearest|linear|mipmap ,wrap=clamp|repeat ,vflip=0|1 ,srgb=0|1\n"
    "  --missing-media black  run a JSON whose textures are not on disk with black instead\n"
    "  --allow-media-outside  let a JSON or directory toy read media and #includes outside its own directory\n"
    "  --warmup N           draw frames 0..N-1 unsaved first; the saved frames come after them\n"
    "  --shard K/N          render part K (0..N-1) of N contiguous parts of the --frames range; the parts\n"
    "                       together give the same files as one run (a part is empty when N > frames)\n"
    "  --shard auto         K and N from a Slurm job array (SLURM_ARRAY_TASK_ID, _COUNT, _MIN, _STEP), a\n"
    "                       Kubernetes Indexed Job (JOB_COMPLETION_INDEX) or GNU parallel (PARALLEL_SEQ)\n"
    "  --shard-count N      N for --shard auto where the environment lacks it (Kubernetes, GNU parallel)\n"
    "  --resume             keep frames whose PNG files are already there, complete and valid; draw the\n"
    "                       rest (a killed or preempted task is simply run again)\n"
    "  --checkpoint DIR     a toy with buffers starts a range from the newest checkpoint in DIR at or\n"
    "                       before it instead of from frame 0 (the same frames as one run); one made from\n"
    "                       another shader, size, --set, --fps, --time, --mouse, --input or format version\n"
    "                       is refused\n"
    "  --checkpoint-every N save the buffers' state in DIR after every N-th frame (frames N, 2N, ...),\n"
    "                       atomically, at full float precision\n"
    "  --glsl auto|es|330   compile as GLSL ES 3.00 (the site's WebGL2) or 3.30 core; auto (default):\n"
    "                       ES for a shadertoy.com JSON where the GL accepts it, 3.30 for a file\n"
    "  --no-es-check        do not check each pass as the site's GLSL ES 3.00 (glslangValidator where\n"
    "                       installed): by default what shadertoy.com would reject is a warning\n"
    "  --each DIR           a compatibility report: every shader in DIR (.frag .glsl .fs .json), the\n"
    "                       --frames given (default 1) at --size, as a table on stdout; exit 1 if any failed\n"
    "\n"
    "examples:\n"
    "  ikshade render -o out/%04d.png --frames 120\n"
    "  ikshade render shaders/limb.frag -o still.png --mouse 900,500 --set r1=0.6\n"
    "  ikshade render -o limb.mp4 --frames 120\n"
    "  ikshade render -o - --frames 60 | ffmpeg -y -f rawvideo -pix_fmt rgba -s 1280x720 -framerate 60 -i - \\\n"
    "      -pix_fmt yuv420p out.mp4\n";

typedef struct {
    const char *shader;
    iks_render_desc r;
    bool quiet;
    iks_shared_opts s; /* -I --set --channelN --missing-media --glsl --time */
    long warmup;
    bool frames_given;
    iks_input_log *input; /* --input: a recorded session, owned */
    const char *input_path; /* its file, for messages */
    const char **sets;    /* its --set values, then the command line's (which win), when --input */
    int nsets;
    const char *each;  /* --each DIR: a compatibility report instead of frames */
    bool seconds_given;
    const char *shard; /* --shard K/N or auto */
    long shard_count;  /* --shard-count N, 0 when not given */
    long shard_k, shard_n; /* the part taken, when shard */
    bool shard_empty;  /* this part has no frames: nothing to draw */
} ropts;


/* ---- argument checks --------------------------------------------------------------------------- */

static bool parse_frames(const char *s, long *a, long *b)
{
    const char *colon = strchr(s, ':');
    if (!colon) {
        long n;
        if (!iks_parse_long(s, &n) || n < 1) return false;
        *a = 0;
        *b = n;
        return true;
    }
    char left[32];
    size_t k = (size_t)(colon - s);
    if (k == 0 || k >= sizeof left) return false;
    memcpy(left, s, k);
    left[k] = '\0';
    return iks_parse_long(left, a) && iks_parse_long(colon + 1, b) && *a >= 0 && *b > *a;
}

static bool parse_floats(const char *s, float *v, int *n, int max)
{
    *n = 0;
    char *copy = strdup(s);
    if (!copy) return false;
    bool ok = true;
    char *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t && ok; t = strtok_r(NULL, ",", &save)) {
        double d;
        /* a million pixels, as a recording's iMouse: far past any frame, and still finite once a float
         * scaled by --ssaa */
        if (*n == max || !iks_parse_finite(t, &d) || fabs(d) > 1e6) ok = false;
        else v[(*n)++] = (float)d;
    }
    /* "1,,2" or a trailing comma: strtok skips empties, so count commas to catch them */
    int commas = 0;
    for (const char *c = s; *c; c++) commas += *c == ',';
    free(copy);
    return ok && *n == commas + 1;
}

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
    if (!iks_parse_long(v, &idx) || idx < (kube ? 0 : 1))
        return iks_usage("render", "--shard auto: %s '%s': expected a whole number from %d", name, v, kube ? 0 : 1);
    if (!count)
        return iks_usage("render", "--shard auto with %s (%s) needs --shard-count N: the number of %s", name,
                         kube ? "a Kubernetes Indexed Job" : "GNU parallel", kube ? "completions" : "jobs");
    *k = kube ? idx : idx - 1; /* PARALLEL_SEQ counts from 1 */
    *n = count;
    if (*k >= *n) return iks_usage("render", "--shard auto: %s %s is past --shard-count %ld", name, v, count);
    return -1;
}

/* --shard: the part of [first, end) this process takes */
static int apply_shard(ropts *o)
{
    iks_render_desc *r = &o->r;
    if (strcmp(o->shard, "auto") == 0) {
        int rc = shard_from_env(o->shard_count, &o->shard_k, &o->shard_n);
        if (rc >= 0) return rc;
    } else {
        const char *slash = strchr(o->shard, '/');
        char left[32];
        size_t k = slash ? (size_t)(slash - o->shard) : 0;
        if (!slash || k == 0 || k >= sizeof left)
            return iks_usage("render", "--shard '%s': expected K/N (part K of N, K from 0) or auto", o->shard);
        memcpy(left, o->shard, k);
        left[k] = '\0';
        if (!iks_parse_long(left, &o->shard_k) || !iks_parse_long(slash + 1, &o->shard_n) || o->shard_n < 1 ||
            o->shard_k < 0 || o->shard_k >= o->shard_n)
            return iks_usage("render", "--shard '%s': expected K/N with N >= 1 and K from 0 to N-1", o->shard);
        if (o->shard_count && o->shard_count != o->shard_n)
            return iks_usage("render", "--shard %s with --shard-count %ld: the counts differ", o->shard, o->shard_count);
    }
    long a, b;
    if (iks_shard_range(r->first, r->end, o->shard_k, o->shard_n, &a, &b) != IKS_OK) return iks_print_last_error("render");
    o->shard_empty = a == b;
    if (!o->shard_empty) {
        r->first = a;
        r->end = b;
    }
    return -1;
}

/* Fills o from argv; -1 when valid, else the exit code after printing the one-line error. Owns o->s's
 * arrays: the caller frees them with iks_shared_free whatever this returns. */
static int parse_args(int argc, char **argv, ropts *o)
{
    memset(o, 0, sizeof *o);
    if (!iks_shared_init(&o->s, argc)) return iks_fail("render", "out of memory");
    iks_render_desc *r = &o->r;
    r->width = 1280;
    r->height = 720;
    r->first = 0;
    r->end = 1;
    r->fps = 60;
    r->ssaa = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        bool miss = false;
        int shared = iks_shared_opt("render", argc, argv, &i, &o->s);
        if (shared >= 0) {
            if (shared) return shared;
            continue;
        }
#define OPT(name) ((v = iks_opt_value(argc, argv, &i, name, &miss)) || miss)
#define NEED(name, what) \
    if (miss) return iks_usage("render", "%s needs %s", name, what)
        if (strcmp(a, "-o") == 0 || OPT("--output")) {
            if (strcmp(a, "-o") == 0) {
                if (i + 1 >= argc) return iks_usage("render", "-o needs an output (see ikshade help render)");
                v = argv[++i];
            }
            NEED("--output", "an output");
            r->output = v;
        } else if (OPT("--size")) {
            NEED("--size", "WxH");
            if (!iks_parse_size(v, &r->width, &r->height))
                return iks_usage("render", "--size '%s': expected WxH with whole numbers from 1, e.g. 1280x720", v);
        } else if (OPT("--frames")) {
            NEED("--frames", "N or A:B");
            if (!parse_frames(v, &r->first, &r->end))
                return iks_usage("render", "--frames '%s': expected a count N >= 1 or a range A:B with 0 <= A < B", v);
            if (r->end - r->first > 100000000L) return iks_usage("render", "--frames '%s': at most 100000000 frames", v);
            o->frames_given = true;
        } else if (OPT("--fps")) {
            NEED("--fps", "a number");
            /* the engine's bound: iTimeDelta, 1/fps, within --time's 1e9 s */
            if (!iks_parse_finite(v, &r->fps) || !(r->fps >= 1e-9 && r->fps <= 10000))
                return iks_usage("render", "--fps '%s': expected a number from 1e-9 to 10000 (iTimeDelta, 1/fps, is at "
                                 "most 1e9 s)", v);
        } else if (OPT("--seconds")) {
            NEED("--seconds", "a number of seconds");
            if (!iks_parse_finite(v, &r->seconds) || r->seconds <= 0 || r->seconds > 21600)
                return iks_usage("render", "--seconds '%s': expected a number above 0 and at most 21600 (6 hours)", v);
            o->seconds_given = true;
        } else if (OPT("--mouse")) {
            NEED("--mouse", "X,Y[,CX,CY]");
            int n;
            if (!parse_floats(v, r->mouse, &n, 4) || (n != 2 && n != 4))
                return iks_usage("render", "--mouse '%s': expected X,Y or X,Y,CX,CY in pixels (each within a million)", v);
            if (n == 2) {
                r->mouse[2] = r->mouse[0];
                r->mouse[3] = r->mouse[1];
            }
            r->have_mouse = true;
        } else if (OPT("--ssaa")) {
            NEED("--ssaa", "a factor");
            long k;
            if (!iks_parse_long(v, &k) || k < 1 || k > 8)
                return iks_usage("render", "--ssaa '%s': expected a whole number from 1 to 8", v);
            r->ssaa = (int)k;
        } else if (OPT("--jobs")) {
            NEED("--jobs", "a count");
            long j;
            if (!iks_parse_long(v, &j) || j < 1 || j > 256)
                return iks_usage("render", "--jobs '%s': expected a whole number from 1 to 256", v);
            r->jobs = (int)j;
        } else if (OPT("--png-level")) {
            NEED("--png-level", "a level");
            long l;
            if (!iks_parse_long(v, &l) || l < 0 || l > 12)
                return iks_usage("render", "--png-level '%s': expected a whole number from 0 to 12", v);
            r->png_level = l == 0 ? -1 : (int)l; /* the API's 0 means the default; -1 is stored */
        } else if (OPT("--each")) {
            NEED("--each", "a directory of shaders");
            struct stat st;
            if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) return iks_usage("render", "--each %s: not a directory", v);
            o->each = v;
        } else if (OPT("--warmup")) {
            NEED("--warmup", "a frame count");
            if (!iks_parse_long(v, &o->warmup) || o->warmup < 0 || o->warmup > 1000000)
                return iks_usage("render", "--warmup '%s': expected a whole number from 0 to 1000000", v);
        } else if (OPT("--depth")) {
            NEED("--depth", "bits per channel: 8, 16 or 32");
            long b;
            if (!iks_parse_long(v, &b) || (b != 8 && b != 16 && b != 32))
                return iks_usage("render", "--depth '%s': expected 8, 16 (PNG, or an EXR's half) or 32 (EXR float)", v);
            r->depth = (int)b;
        } else if (OPT("--input")) {
            NEED("--input", "a recorded session (ikshade view --record-input FILE)");
            iks_input_log_free(o->input);
            o->input = NULL;
            if (iks_input_log_load(v, &o->input) != IKS_OK) return iks_print_last_error("render");
            o->input_path = v;
        } else if (OPT("--shard")) {
            NEED("--shard", "K/N or auto");
            o->shard = v;
        } else if (OPT("--shard-count")) {
            NEED("--shard-count", "the number of parts N");
            if (!iks_parse_long(v, &o->shard_count) || o->shard_count < 1 || o->shard_count > 100000000L)
                return iks_usage("render", "--shard-count '%s': expected a whole number from 1 to 100000000", v);
        } else if (OPT("--checkpoint")) {
            NEED("--checkpoint", "a directory");
            if (!*v) return iks_usage("render", "--checkpoint '': expected a directory");
            r->checkpoint_dir = v;
        } else if (OPT("--checkpoint-every")) {
            NEED("--checkpoint-every", "a frame count");
            if (!iks_parse_long(v, &r->checkpoint_every) || r->checkpoint_every < 1)
                return iks_usage("render", "--checkpoint-every '%s': expected a whole number of frames from 1", v);
        } else if (strcmp(a, "--resume") == 0) r->resume = true;
        else if (OPT("--ffmpeg-args")) {
            NEED("--ffmpeg-args", "ffmpeg's output options, quoted as one argument");
            r->ffmpeg_args = v;
        } else if (strcmp(a, "--alpha") == 0) r->alpha = true;
        else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) o->quiet = true;
        else if (a[0] == '-' && a[1]) return iks_unknown_option("render", HELP_RENDER, a);
        else if (!o->shader) o->shader = a;
        else return iks_usage("render", "more than one shader given ('%s' and '%s')", o->shader, a);
#undef OPT
#undef NEED
    }
    r->time0 = o->s.t0;
    if (o->each) {
        if (r->output) return iks_usage("render", "--each writes a report to stdout, not frames: drop -o");
        if (o->shader) return iks_usage("render", "--each takes the shaders from its directory, not '%s'", o->shader);
        if (o->shard || r->resume || r->checkpoint_dir)
            return iks_usage("render", "--each writes a report, not frames: --shard, --resume and --checkpoint do not apply");
        return -1;
    }
    if (!r->output) return iks_usage("render", "no output: add -o out/%%04d.png (or -o - for raw frames)");
    if (o->input) {
        /* the whole session at --fps unless --frames says otherwise; its --set values first */
        r->input = o->input;
        double fps = r->fps > 0 ? r->fps : 60, span = iks_input_log_duration(o->input);
        if (!o->frames_given) {
            /* the cap --frames and --seconds have (a recording may span 1e9 s), where the recording is
             * what says how many frames: not with --seconds, nor for a .wav, which draws none */
            double n = floor(span * fps) + 1;
            if (n > 100000000 && !o->seconds_given && !iks_ends_with(r->output, ".wav"))
                return iks_usage("render", "--input %s: its %g s at --fps %g make %.0f frames, more than 100000000 "
                                 "(give --frames, or a lower --fps)", o->input_path, span, fps, n);
            r->end = r->first + (long)fmin(n, 100000000);
        }
        const char *const *ls;
        int nl = iks_input_log_sets(o->input, &ls);
        if (nl > 0) {
            o->sets = malloc(sizeof *o->sets * (size_t)(nl + o->s.nsets + 1));
            if (!o->sets) return iks_fail("render", "out of memory");
            for (int i = 0; i < nl; i++) o->sets[i] = ls[i];
            for (int i = 0; i < o->s.nsets; i++) o->sets[nl + i] = o->s.sets[i];
            o->nsets = nl + o->s.nsets;
        }
    }
    /* --seconds S for frames: S x FPS of them, the last one started before S */
    if (o->seconds_given && !iks_ends_with(r->output, ".wav")) {
        if (o->frames_given) return iks_usage("render", "--seconds and --frames both say how long: give one");
        r->end = r->first + (long)ceil(r->seconds * r->fps - 1e-9);
        if (r->end - r->first > 100000000L)
            return iks_usage("render", "--seconds %g at --fps %g: more than 100000000 frames", r->seconds, r->fps);
    }
    /* --warmup N: frames 0..N-1 are drawn unsaved, and the saved frames come after them */
    if (r->end > LONG_MAX - o->warmup)
        return iks_usage("render", "--frames %ld:%ld with --warmup %ld: the frame numbers pass %ld", r->first, r->end,
                         o->warmup, LONG_MAX);
    r->first += o->warmup;
    r->end += o->warmup;
    if (o->shard_count && !o->shard) return iks_usage("render", "--shard-count goes with --shard auto");
    if (o->shard) {
        /* what one run of the whole range refuses, every part refuses: a part's own range can pass
         * where the whole one cannot (its last iTime; one file named for several frames) */
        if (iks_render_check(r) != IKS_OK) return iks_print_last_error("render");
        int rc = apply_shard(o);
        if (rc >= 0) return rc;
    }
    if (strcmp(r->output, "-") == 0 && isatty(STDOUT_FILENO))
        return iks_usage("render", "-o -: stdout is a terminal; pipe it into a program");
    if (iks_render_check(r) != IKS_OK) return iks_print_last_error("render");
    return -1;
}

/* ---- progress ---------------------------------------------------------------------------------- */

typedef struct {
    bool tty;
    double last_bar;
} progress_state;

static void draw_bar(long done, long total, double el, bool final)
{
    double rate = el > 0 ? done / el : 0;
    double eta = rate > 0 ? (total - done) / rate : 0;
    int width = 30, fill = total ? (int)(width * done / total) : width;
    char bar[64];
    for (int i = 0; i < width; i++) bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r[%s] %ld/%ld frames  %.1f frames/s  ETA %.1f s  ", bar, done, total, rate, eta);
    if (final) fputc('\n', stderr);
    fflush(stderr);
}

/* the render's progress callback: the bar on a terminal, and Ctrl-C */
static bool on_progress(void *user, const iks_progress *p)
{
    progress_state *s = user;
    if (s->tty && (iks_now() - s->last_bar > 0.1 || p->done == p->total)) {
        draw_bar(p->done, p->total, p->seconds, false);
        s->last_bar = iks_now();
    }
    return !iks_signals_stopped(); /* Ctrl-C, SIGTERM, SIGHUP: see signals.c */
}

/* ---- --each ------------------------------------------------------------------------------------ */

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* the first line of a message, with table-breaking characters replaced */
static void one_line(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; s && *s && *s != '\n' && k + 1 < n; s++) out[k++] = *s == '|' ? '/' : *s;
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
    each_log log = { .base = { "render", o->quiet } };
    iks_engine *e = NULL;
    iks_engine_desc ed = { .log = each_log_fn, .log_user = &log };
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
            c = lr ? iks_toy_sound(t, 0, BLOCK, lr) : IKS_E_NOMEM;
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
                c = iks_toy_draw(t, &fi, r->width, r->height, NULL, NULL);
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
        iks_toy_destroy(t);
        if (!strcmp(result, "ok")) ok++;
        else if (!strcmp(result, "skipped")) skipped++;
        else failed++;
        if (ms >= 0) printf("| %s | %s | %.1f | %s | %s |\n", names[i], result, ms, esv, detail);
        else printf("| %s | %s | | %s | %s |\n", names[i], result, esv, detail);
        fflush(stdout);
    }
    iks_engine_destroy(e);
    free_names(names, n);
    if (!o->quiet)
        fprintf(stderr, "ikshade render --each %s: %d shaders: %d ok, %d failed, %d skipped\n", o->each, ok + failed + skipped,
                ok, failed, skipped);
    return failed ? EXIT_FAIL : EXIT_OK;
}

/* ---- the render -------------------------------------------------------------------------------- */

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
    iks_cli_log log = { "render", o->quiet };
    iks_engine *e = iks_cli_engine(&log, NULL);
    if (!e) return EXIT_FAIL;
    int max = iks_engine_max_size(e);
    if ((long)r->width * r->ssaa > max || (long)r->height * r->ssaa > max) {
        iks_engine_destroy(e);
        return iks_usage("render", "--size %dx%d%s: this GL allows at most %d pixels on a side", r->width, r->height,
                         r->ssaa > 1 ? " with --ssaa" : "", max);
    }
    iks_toy_desc td = iks_shared_toy(&o->s, o->shader);
    if (o->sets) {
        td.sets = o->sets;
        td.nsets = o->nsets;
    }
    td.width = r->width * r->ssaa;
    td.height = r->height * r->ssaa;
    iks_toy *t = NULL;
    if (iks_toy_load(e, &td, &t) != IKS_OK) {
        int rc = iks_print_last_error("render");
        iks_engine_destroy(e);
        return rc;
    }
    progress_state ps = { .tty = isatty(STDERR_FILENO) && !o->quiet };
    r->progress = on_progress;
    r->user = &ps;
    iks_render_stats st;
    iks_code c = iks_render(t, r, &st);
    if (ps.tty) draw_bar(st.written, st.total, st.seconds, true);
    iks_toy_destroy(t);
    iks_engine_destroy(e);
    const char *m;
    iks_last_error(&m);
    if (c == IKS_E_INTERRUPTED) return iks_print_error("render", c, m);
    if (c != IKS_OK) {
        /* before any frame was drawn (total 0) there is nothing to count */
        /* a failed video is removed: there are no frames written to count */
        if (c == IKS_E_COMPILE || c == IKS_E_USAGE || st.total == 0 || st.fps_played > 0)
            return iks_print_error("render", c, m);
        iks_fail("render", "%s (%ld of %ld frames written)", m, st.written, st.total);
        return iks_exit_status(c);
    }
    if (!o->quiet && iks_ends_with(r->output, ".wav")) {
        fprintf(stderr, "ikshade render: %.3f s of sound (%ld samples, 44100 Hz 16-bit stereo) in %.2f s -> %s\n",
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
                                r->width + r->width % 2, r->height + r->height % 2);
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
        fprintf(stderr, "ikshade render: %ld frame%s of %dx%d in %.2f s (%.1f frames/s) -> %s%s\n", st.written,
                st.written == 1 ? "" : "s", r->width, r->height, st.seconds, st.seconds > 0 ? st.written / st.seconds : 0.0,
                strcmp(r->output, "-") == 0 ? "stdout" : r->output, note);
    }
    return EXIT_OK;
}

int cmd_render(int argc, char **argv)
{
    ropts o;
    int rc = parse_args(argc, argv, &o);
    if (rc < 0) rc = render(&o);
    iks_input_log_free(o.input);
    free(o.sets);
    iks_shared_free(&o.s);
    return rc;
}

int iks_render_parse_only(int argc, char **argv)
{
    ropts o;
    int rc = parse_args(argc, argv, &o);
    iks_input_log_free(o.input);
    free(o.sets);
    iks_shared_free(&o.s);
    return rc;
}
