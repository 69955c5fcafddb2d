/* cmd_bench.c: `ikshade bench WHAT`. Every benchmark measures its own baseline in the same run and
 * prints ratios, since these machines are noisy; each figure is the best of several repetitions.
 *
 * Stopping. A stop signal (signals.c) is looked at between units of work: between the rows of a
 * repetition (solver: about 20 ms each) and the slices of a pass over 1e7 cases (SLICE), between
 * repetitions (gpu), and by the engine between frames (render); one atomic load against milliseconds
 * of work, so no figure moves. Rows are printed only once measured in full; after a stop the command
 * prints one line, "interrupted after N of M rows", and nothing more: no row it did not measure. */
#include "cli/bench_article.h"
#include "base/clock.h"
#include "cli/cli.h"
#include "ikshade/ik.h"
#include "cli/session.h"
#include "cli/xorshift.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    long reps, frames;
    int w, h;
    iks_args args;
} bopts;

static const iks_opt OPTIONS[] = {
    IKS_OPT_LONG_ROW(bopts, reps, "--reps", NULL, "N",
      "repetitions; each figure is the best of them (solver: 5, gpu and render: 3)",
      .min = 1, .max = 1000, .expect = "expected a whole number", .need = "a count"),
    IKS_OPT_LONG_ROW(bopts, frames, "--frames", NULL, "N",
      "render: frames (default 120)", "frames", .flags = IKS_OPT_NONZERO,
      .expect = "expected a whole number", .need = "a count"),
    IKS_OPT_SIZE_ROW(bopts, w, h, "--size", NULL, "WxH",
      "render: frame size (default " IKS_XSTR(IKS_DEFAULT_WIDTH) "x" IKS_XSTR(IKS_DEFAULT_HEIGHT) ")", "size",
      .expect = "expected WxH with whole numbers from 1, e.g. 1280x720"),
    { IKS_OPT_END, .flags = 0 },
};

const iks_help HELP_BENCH = {
    .usage = "usage: ikshade bench solver [--reps N]\n"
             "       ikshade bench gpu [--reps N]\n"
             "       ikshade bench render [SHADER] [--frames N] [--size WxH] [--reps N]\n"
             "       ikshade bench embed [--reps N]\n",
    .about = "solver: ns per solve at n = 1e3 (in cache) and n = 1e7 (in memory), each against the article's\n"
             "        formula (the baseline row, the same cases solved inline in this program) and against the\n"
             "        time to only stream the same bytes: ik_solve2 and ik_solve2_batch (16 B in, 8 B out),\n"
             "        ik_solve3 and ik_solve3_batch with a pole per case (32 B in, 12 B out).\n"
             "gpu:    solves per second through the GLSL probe at 1e6 and 1e7 cases, beside the CPU batch.\n"
             "render: SHADER (a file, JSON or directory toy; default the limb demo), 120 frames of "
             IKS_XSTR(IKS_DEFAULT_WIDTH) "x" IKS_XSTR(IKS_DEFAULT_HEIGHT) " by\n"
             "        default: (a) draw only, (b) draw+readback, (c) PNG encoding only, (d) the whole render as\n"
             "        `render` runs it; (d)/(b) and (d) against the best the machine allows; (e) the PNG\n"
             "        encoders we chose between, on the same frames. Each repetition (default 3) runs (a) to (d)\n"
             "        in turn; each figure is the best of its repetitions.\n"
             "embed:  what embedding costs: a program linked with libikshade alone that makes a headless\n"
             "        engine and draws one 64x64 frame into memory, against a bare EGL + GL program drawing the\n"
             "        same shader (the baseline), each started --reps times (default 20) in turn: the best time\n"
             "        from start to exit of each, their ratio, and the shared libraries each maps (those the\n"
             "        library adds named). Both programs come with ikshade (libexec/ikshade/).\n",
    .options = OPTIONS,
    .operand = "words:solver gpu render embed",
};

/* xorshift-based uniform in [0, 1): deterministic and identical everywhere */
static double rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (double)(*s >> 11) * 0x1p-53;
}

typedef struct {
    size_t n;
    float *px, *py, *pz, *r1, *r2, *hx, *hy, *hz, *x, *y, *z;
} bench_set;

/* false when out of memory, or with *stopped set when a stop signal came while the cases were made */
static bool set_alloc(bench_set *b, size_t n, bool *stopped)
{
    memset(b, 0, sizeof *b);
    b->n = n;
    float **arrs[] = { &b->px, &b->py, &b->pz, &b->r1, &b->r2, &b->hx, &b->hy, &b->hz, &b->x, &b->y, &b->z };
    for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++) {
        *arrs[i] = aligned_alloc(64, ((n * sizeof(float)) + 63) / 64 * 64);
        if (!*arrs[i]) return false;
    }
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i++) {
        if (i % 65536 == 0 && iks_signals_stopped()) return !(*stopped = true);
        double r1 = 0.2 + rnd(&s), r2 = 0.2 + rnd(&s), ang = 6.283185307 * rnd(&s);
        double d = (r1 + r2) * 1.3 * rnd(&s); /* a mix of reached, too far and too near */
        double zt = 2 * rnd(&s) - 1;
        b->r1[i] = (float)r1;
        b->r2[i] = (float)r2;
        b->px[i] = (float)(d * __builtin_cos(ang));
        b->py[i] = (float)(d * __builtin_sin(ang));
        /* 3D: the same target lifted out of the plane (|p| grows by up to 12%), a pole across it */
        b->pz[i] = (float)(0.5 * d * zt);
        b->hx[i] = -b->py[i];
        b->hy[i] = b->px[i];
        b->hz[i] = (float)(0.5 - rnd(&s));
    }
    return true;
}

static void set_free(bench_set *b)
{
    free(b->px); free(b->py); free(b->pz); free(b->r1); free(b->r2); free(b->hx); free(b->hy); free(b->hz);
    free(b->x); free(b->y); free(b->z);
    memset(b, 0, sizeof *b);
}

/* The floor any 2D solver over these arrays must pay: read 16 B and write 8 B per case. */
static __attribute__((noinline)) void stream(bench_set *b)
{
    const float *restrict px = b->px, *restrict py = b->py, *restrict r1 = b->r1, *restrict r2 = b->r2;
    float *restrict x = b->x, *restrict y = b->y;
    for (size_t i = 0; i < b->n; i++) {
        x[i] = px[i] + r1[i];
        y[i] = py[i] + r2[i];
    }
}

/* The same for 3D with a pole per case: read 32 B and write 12 B. */
static __attribute__((noinline)) void stream3(bench_set *b)
{
    const float *restrict px = b->px, *restrict py = b->py, *restrict pz = b->pz, *restrict r1 = b->r1,
                *restrict r2 = b->r2, *restrict hx = b->hx, *restrict hy = b->hy, *restrict hz = b->hz;
    float *restrict x = b->x, *restrict y = b->y, *restrict z = b->z;
    for (size_t i = 0; i < b->n; i++) {
        x[i] = px[i] + r1[i] + hx[i];
        y[i] = py[i] + r2[i] + hy[i];
        z[i] = pz[i] + hz[i];
    }
}

/* The baseline: the article's formula, as a program would write it in its own loop (bench_article.c). */
static __attribute__((noinline)) void article(bench_set *b)
{
    iks_bench_article(b->n, b->px, b->py, b->r1, b->r2, b->x, b->y);
}

static __attribute__((noinline)) void scalar(bench_set *b)
{
    for (size_t i = 0; i < b->n; i++) {
        ik_vec2 x;
        ik_solve2((ik_vec2){ b->px[i], b->py[i] }, b->r1[i], b->r2[i], NULL, &x, NULL);
        b->x[i] = x.x;
        b->y[i] = x.y;
    }
}

static __attribute__((noinline)) void batch(bench_set *b)
{
    ik_solve2_batch(b->n, b->px, b->py, b->r1, b->r2, NULL, b->x, b->y, NULL);
}

static __attribute__((noinline)) void scalar3(bench_set *b)
{
    for (size_t i = 0; i < b->n; i++) {
        ik_vec3 x;
        ik_solve3((ik_vec3){ b->px[i], b->py[i], b->pz[i] }, b->r1[i], b->r2[i],
                  (ik_vec3){ b->hx[i], b->hy[i], b->hz[i] }, NULL, &x, NULL);
        b->x[i] = x.x;
        b->y[i] = x.y;
        b->z[i] = x.z;
    }
}

static __attribute__((noinline)) void batch3(bench_set *b)
{
    ik_solve3_batch(b->n, b->px, b->py, b->pz, b->r1, b->r2, b->hx, b->hy, b->hz, 0, NULL, b->x, b->y, b->z,
                    NULL);
}

/* A pass over more cases than SLICE goes in slices of SLICE, a stop signal looked at between them: one
 * pass of ik_solve3 over 1e7 cases takes 0.4 s, and one atomic load per millisecond or more of work
 * (1 << 20 cases of the fastest row) moves no figure. Slices start 4 MiB apart: aligned as the whole. */
#define SLICE ((size_t)1 << 20)

/* One pass of fn over b; false when a stop signal came (the pass unfinished) */
static bool pass(void (*fn)(bench_set *), bench_set *b)
{
    if (b->n <= SLICE) {
        fn(b);
        return true;
    }
    for (size_t i = 0; i < b->n; i += SLICE) {
        if (iks_signals_stopped()) return false;
        bench_set s = { .n = b->n - i < SLICE ? b->n - i : SLICE, .px = b->px + i, .py = b->py + i, .pz = b->pz + i,
                        .r1 = b->r1 + i, .r2 = b->r2 + i, .hx = b->hx + i, .hy = b->hy + i, .hz = b->hz + i,
                        .x = b->x + i, .y = b->y + i, .z = b->z + i };
        fn(&s);
    }
    return true;
}

/* Passes of fn over b that last about 20 ms (at least one); 0 when a stop signal came. */
static int passes_for(void (*fn)(bench_set *), bench_set *b)
{
    double t0 = iks_now();
    if (!pass(fn, b)) return 0;
    double once = iks_now() - t0;
    return once < 0.02 ? (int)(0.02 / (once > 1e-9 ? once : 1e-9)) + 1 : 1;
}

/* ns per case of one repetition: `passes` passes of fn over b; negative when a stop signal came. */
static double rep_ns(void (*fn)(bench_set *), bench_set *b, int passes)
{
    double t0 = iks_now();
    for (int p = 0; p < passes; p++)
        if (!pass(fn, b)) return -1;
    return (iks_now() - t0) / passes * 1e9 / (double)b->n;
}

/* ---- what else ran ------------------------------------------------------------------------------- */

/* The machine's busy time (all CPUs) and this process's own CPU time, in seconds: the difference over
 * a run is what other programs took, which skews every figure of a benchmark on a shared machine. */
typedef struct {
    double machine_busy, self, wall;
    bool ok;
} load_mark;

static load_mark load_now(void)
{
    load_mark m = { .wall = iks_now() };
    FILE *f = fopen("/proc/stat", "r");
    unsigned long long v[8] = { 0 };
    if (f) {
        m.ok = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                      &v[6], &v[7]) == 8;
        fclose(f);
    }
    long hz = sysconf(_SC_CLK_TCK);
    if (hz <= 0) m.ok = false;
    /* busy: everything but idle (3) and iowait (4) */
    if (m.ok) m.machine_busy = (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / (double)hz;
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0) m.self = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    else m.ok = false;
    return m;
}

/* One line when other programs took a noticeable share of the machine between a and b */
static void load_note(load_mark a, load_mark b)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    double wall = b.wall - a.wall;
    if (!a.ok || !b.ok || cores < 1 || wall <= 0) return;
    double other = (b.machine_busy - a.machine_busy) - (b.self - a.self);
    double share = other / (wall * (double)cores);
    if (share > 0.05)
        printf("  note: other programs used %.0f%% of the machine (%ld cores) during this run: every figure above is "
               "skewed by them; run it again on an idle machine to compare\n", 100 * share, cores);
}

/* The one line a stop signal leaves: what was measured in full of what was asked; exits 128 + the
 * signal (main: iks_signals_exit_status) */
static int bench_interrupted(const char *what, long done, long total, const char *unit)
{
    iks_fail("bench", "%s: interrupted after %ld of %ld %s", what, done, total, unit);
    return EXIT_FAIL;
}

static int bench_solver(int reps)
{
    static const size_t SIZES[] = { 1000, 10000000 };
    static const struct {
        const char *name;
        void (*fn)(bench_set *);
        int stream; /* which stream row it is held against: 0 for 2D, 1 for 3D */
    } ROWS[] = {
        { "article (baseline)", article, 0 },
        { "ik_solve2", scalar, 0 },
        { "ik_solve2_batch", batch, 0 },
        { "stream 2D", stream, 0 },
        { "ik_solve3", scalar3, 1 },
        { "ik_solve3_batch", batch3, 1 },
        { "stream 3D", stream3, 1 },
    };
    load_mark m0 = load_now();
    printf("bench solver: ns per solve, best of %d, every row measured in this run; x article = time / the\n"
           "article's formula's time (the baseline row: scalar, inline, no guarantees); x stream = time / the\n"
           "time to only read the inputs and write the outputs (2D: 16 B in, 8 B out; 3D with a pole per\n"
           "case: 32 B in, 12 B out)\n", reps);
    printf("%10s  %-20s %10s %10s %10s\n", "n", "what", "ns/solve", "x article", "x stream");
    enum { NSIZES = sizeof SIZES / sizeof SIZES[0], NROWS = sizeof ROWS / sizeof ROWS[0] };
    for (size_t k = 0; k < NSIZES; k++) {
        bench_set b;
        bool stopped = false;
        if (!set_alloc(&b, SIZES[k], &stopped)) {
            set_free(&b);
            if (stopped) return bench_interrupted("solver", (long)(k * NROWS), NSIZES * NROWS, "rows");
            return iks_fail("bench", "solver: out of memory for %zu cases", SIZES[k]);
        }
        double t[NROWS];
        int passes[NROWS];
        for (size_t r = 0; r < NROWS && !stopped; r++) {
            passes[r] = passes_for(ROWS[r].fn, &b);
            t[r] = 1e30;
            stopped = passes[r] == 0 || iks_signals_stopped();
        }
        /* the rows take turns within each repetition, so that a change in the machine's load between
         * repetitions falls on every row alike, and the ratios hold better than the times; a stop is
         * looked at between rows, outside the timed passes */
        for (int rep = 0; rep < reps && !stopped; rep++)
            for (size_t r = 0; r < NROWS && !stopped; r++) {
                double v = rep_ns(ROWS[r].fn, &b, passes[r]);
                if (v >= 0 && v < t[r]) t[r] = v;
                stopped = v < 0 || iks_signals_stopped();
            }
        if (stopped) {
            set_free(&b);
            return bench_interrupted("solver", (long)(k * NROWS), NSIZES * NROWS, "rows");
        }
        double ts[2] = { t[3], t[6] };
        for (size_t r = 0; r < sizeof ROWS / sizeof ROWS[0]; r++)
            printf("%10zu  %-20s %10.3f %10.2f %10.2f\n", b.n, ROWS[r].name, t[r], t[r] / t[0],
                   t[r] / ts[ROWS[r].stream]);
        set_free(&b);
    }
    if (iks_signals_stopped()) return bench_interrupted("solver", NSIZES * NROWS, NSIZES * NROWS, "rows");
    load_note(m0, load_now());
    return EXIT_OK;
}

/* ---- bench gpu --------------------------------------------------------------------------------- */

/* the same distribution check draws from (xorshift.h) */
static void random_cases(float *c, long n, uint64_t seed)
{
    uint64_t st = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    for (long i = 0; i < n; i++) {
        double px, py, r1, r2;
        xs_ik_case(&st, &px, &py, &r1, &r2);
        c[4 * i] = (float)px; c[4 * i + 1] = (float)py; c[4 * i + 2] = (float)r1; c[4 * i + 3] = (float)r2;
    }
}

static int bench_gpu(int reps)
{
    int rc;
    iks_cli_log log = { "bench", false, OPTIONS };
    iks_engine *e = iks_cli_engine(&log, NULL);
    if (!e) return EXIT_FAIL;
    static const long SIZES[] = { 1000000, 10000000 };
    printf("bench gpu: solves per second, best of %d; the probe (draw + readback of x, status) beside the "
           "CPU batch solver on the same cases\n", reps);
    printf("%10s %14s %14s %14s %10s\n", "n", "gpu draw", "gpu draw+read", "cpu batch", "gpu/cpu");
    static const ik_opts dflt = { .bend = 1 };
    for (size_t k = 0; k < sizeof SIZES / sizeof SIZES[0]; k++) {
        long n = SIZES[k];
        float *cases = malloc((size_t)n * 16), *out = malloc((size_t)n * 16), *soa = malloc((size_t)n * 24);
        iks_probe *p = NULL;
        if (!cases || !out || !soa) {
            free(cases); free(out); free(soa);
            iks_engine_destroy(e);
            return iks_fail("bench", "gpu: out of memory for %ld cases", n);
        }
        random_cases(cases, n, 7);
        /* the first run is a warm-up: some drivers compile the shader lazily, at its first draw */
        if (iks_signals_stopped() || iks_probe_create(e, NULL, cases, n, &p) != IKS_OK ||
            iks_probe_run(p, &dflt, out, (size_t)n * 16) != IKS_OK) {
            /* a stop signal: the probe's IKS_E_INTERRUPTED, or a failure it caused */
            rc = iks_signals_stopped() ? bench_interrupted("gpu", (long)k, sizeof SIZES / sizeof SIZES[0], "rows")
                                       : iks_print_last_error("bench");
            iks_probe_destroy(p);
            free(cases); free(out); free(soa);
            iks_engine_destroy(e);
            return rc;
        }
        double best_draw = 1e30, best_rt = 1e30, best_cpu = 1e30;
        for (int r = 0; r < reps && !iks_signals_stopped(); r++) {
            double t0 = iks_now();
            iks_probe_run(p, &dflt, NULL, 0);
            iks_engine_finish(e);
            double t1 = iks_now();
            iks_probe_run(p, &dflt, out, (size_t)n * 16);
            double t2 = iks_now();
            if (t1 - t0 < best_draw) best_draw = t1 - t0;
            if (t2 - t1 < best_rt) best_rt = t2 - t1;
        }
        float *px = soa, *py = soa + n, *r1 = soa + 2 * n, *r2 = soa + 3 * n, *x = soa + 4 * n, *y = soa + 5 * n;
        for (long i = 0; i < n; i++) {
            px[i] = cases[4 * i]; py[i] = cases[4 * i + 1]; r1[i] = cases[4 * i + 2]; r2[i] = cases[4 * i + 3];
        }
        for (int r = 0; r < reps && !iks_signals_stopped(); r++) {
            double t0 = iks_now();
            ik_solve2_batch((size_t)n, px, py, r1, r2, NULL, x, y, NULL);
            double t = iks_now() - t0;
            if (t < best_cpu) best_cpu = t;
        }
        if (iks_signals_stopped()) {
            iks_probe_destroy(p);
            free(cases); free(out); free(soa);
            iks_engine_destroy(e);
            return bench_interrupted("gpu", (long)k, sizeof SIZES / sizeof SIZES[0], "rows");
        }
        printf("%10ld %14.3g %14.3g %14.3g %10.2f\n", n, n / best_draw, n / best_rt, n / best_cpu, best_cpu / best_rt);
        iks_probe_destroy(p);
        free(cases); free(out); free(soa);
    }
    iks_engine_destroy(e);
    return EXIT_OK;
}

/* ---- bench embed ------------------------------------------------------------------------------- */

/* where `ikshade bench embed`'s programs are: beside this program (the build tree), or installed under
 * libexec/ikshade beside its bin/ */
static bool embed_program(const char *name, char *out, size_t n)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return false;
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return false;
    *slash = '\0';
    const char *const where[] = { "%s/%s", "%s/../libexec/ikshade/%s" };
    for (size_t i = 0; i < sizeof where / sizeof where[0]; i++) {
        if ((size_t)snprintf(out, n, where[i], exe, name) < n && access(out, X_OK) == 0) return true;
    }
    return false;
}

typedef struct {
    double best;       /* s, from spawn to exit */
    int libs;
    unsigned long sum; /* of the pixels: both programs must draw the same picture */
    char names[8192];  /* the libraries' file names, space separated */
} embed_run;

/* runs path once: its wall time, and what it printed */
static bool embed_once(const char *path, embed_run *r, char *why, size_t nwhy)
{
    int fd[2];
    if (pipe(fd)) return snprintf(why, nwhy, "pipe: %s", strerror(errno)), false;
    double t0 = iks_now();
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]), close(fd[1]);
        return snprintf(why, nwhy, "fork: %s", strerror(errno)), false;
    }
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]), close(fd[1]);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    char out[16384];
    size_t got = 0;
    ssize_t k;
    while ((k = read(fd[0], out + got, sizeof out - 1 - got)) > 0 || (k < 0 && errno == EINTR)) got += k > 0 ? (size_t)k : 0;
    close(fd[0]);
    out[got] = '\0';
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    double t = iks_now() - t0;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) return snprintf(why, nwhy, "%s failed (status %d)", path, st), false;
    const char *names = strstr(out, "\nnames");
    if (sscanf(out, "sum %lu\nlibs %d", &r->sum, &r->libs) != 2 || !names)
        return snprintf(why, nwhy, "%s: unexpected output", path), false;
    snprintf(r->names, sizeof r->names, "%s", names + 7);
    r->names[strcspn(r->names, "\n")] = '\0';
    if (r->best == 0 || t < r->best) r->best = t;
    return true;
}

/* is word (a library's file name) one of the space-separated list? */
static bool listed(const char *list, const char *from, size_t wl)
{
    char word[256];
    if (wl >= sizeof word) return false;
    memcpy(word, from, wl);
    word[wl] = '\0';
    for (const char *p = list; (p = strstr(p, word)); p += wl)
        if ((p == list || p[-1] == ' ') && (p[wl] == ' ' || p[wl] == '\0')) return true;
    return false;
}

static int bench_embed(long reps)
{
    char bare[PATH_MAX], lib[PATH_MAX], why[PATH_MAX + 64];
    if (!embed_program("ikshade-embed-bare", bare, sizeof bare) || !embed_program("ikshade-embed-lib", lib, sizeof lib))
        return iks_fail("bench", "embed: its programs (ikshade-embed-bare, ikshade-embed-lib) are not beside ikshade "
                                 "nor in libexec/ikshade: a build or install that lacks them");
    embed_run b = { 0 }, l = { 0 };
    for (long i = 0; i < reps; i++) {
        if (iks_signals_stopped()) return iks_fail("bench", "embed: interrupted after %ld of %ld runs", i, reps);
        /* in turn, so that the machine's load falls on both alike */
        if (!embed_once(bare, &b, why, sizeof why) || !embed_once(lib, &l, why, sizeof why))
            return iks_fail("bench", "embed: %s", why);
    }
    if (b.sum != l.sum)
        return iks_fail("bench", "embed: the two programs drew different pictures (sums %lu and %lu)", b.sum, l.sum);
    printf("bench embed: start, make a headless GL context, draw one 64x64 frame into memory, exit; best of %ld each\n",
           reps);
    printf("  bare EGL + GL (baseline)  %7.1f ms  %3d shared libraries mapped\n", 1e3 * b.best, b.libs);
    printf("  libikshade                %7.1f ms  %3d shared libraries mapped\n", 1e3 * l.best, l.libs);
    int more = 0;
    char added[4096] = "";
    size_t used = 0;
    for (const char *p = l.names; *p;) {
        while (*p == ' ') p++;
        size_t wl = strcspn(p, " ");
        if (!wl) break;
        if (!listed(b.names, p, wl)) {
            more++;
            int w = snprintf(added + used, sizeof added - used, " %.*s", (int)wl, p);
            if (w > 0 && (size_t)w < sizeof added - used) used += (size_t)w;
        }
        p += wl;
    }
    printf("  libikshade / baseline: %.2fx the time (goal: at most 2x); %d libraries beyond the baseline's "
           "(goal: at most 15):%s\n", l.best / b.best, more, added);
    return EXIT_OK;
}

/* ---- bench render ------------------------------------------------------------------------------ */

static int bench_render(const bopts *o, const char *shader)
{
    long frames = o->frames ? o->frames : 120, reps = o->reps ? o->reps : 3;
    int w = o->w, h = o->h; /* 0: the library's default */
    iks_cli_log log = { "bench", true, OPTIONS };
    iks_engine *e = iks_cli_engine(&log, NULL);
    iks_toy *t = NULL;
    iks_bench_render_result res;
    int rc = EXIT_FAIL;
    /* no output: the benchmark writes its PNGs into a temporary directory of its own, removed after */
    iks_render_desc d = { IKS_DESC_SIZE(iks_render_desc), .end = frames, .width = w, .height = h };
    load_mark m0 = load_now();
    bool failed = e && (iks_toy_load(e, &(iks_toy_desc){ IKS_DESC_SIZE(iks_toy_desc), .path = shader }, &t) != IKS_OK ||
                        iks_bench_render(t, &d, (int)reps, &res) != IKS_OK);
    /* A stop signal, whatever the engine made of it: IKS_E_INTERRUPTED from (a) to (d), the whole
     * render's own "N of M frames written" (of files the benchmark removes), or a failure of (e).
     * Nothing of the figures is printed, nor after a stop that came once they were done. */
    if (e && iks_signals_stopped()) rc = iks_fail("bench", "render: interrupted; no figures printed");
    else if (failed) rc = iks_opts_error(&o->args);
    else if (e) rc = EXIT_OK;
    load_mark m1 = load_now();
    iks_toy_destroy(t);
    iks_engine_destroy(e);
    if (rc) return rc;
    double cpu_bound = (res.readback_cpu + res.encode_cpu) / (double)res.cores;
    double best = fmax(fmax(res.readback, res.encode), cpu_bound), fr = (double)res.frames;
    iks_say(stdout, "bench render: %s, %ld frames of %dx%d, %d cores, PNG with ISA-L igzip 1 (render's default), best of %d",
           shader ? shader : "limb demo", res.frames, res.width, res.height, res.cores, res.reps);
    printf("  (a) draw only            %7.3f s  %6.1f ms/frame\n", res.draw, 1e3 * res.draw / fr);
    printf("  (b) draw + readback      %7.3f s  %6.1f ms/frame  (cpu %.3f s)\n", res.readback, 1e3 * res.readback / fr,
           res.readback_cpu);
    printf("  (c) encode only, %d thr   %7.3f s  %6.1f ms/frame  (cpu %.3f s)\n", res.cores, res.encode,
           1e3 * res.encode / fr, res.encode_cpu);
    printf("  (d) whole render         %7.3f s  %6.1f ms/frame\n", res.whole, 1e3 * res.whole / fr);
    printf("  (d) / (b) = %.2f: the whole render against drawing and reading back alone (goal <= 1.20)\n",
           res.whole / res.readback);
    printf("  best the machine allows: max((b), (c), cpu(b+c)/cores) = %.3f s; (d) / best = %.2f (goal <= 1.10)\n",
           best, res.whole / best);
    double ref_ms = 0, ref_bytes = 0;
    for (int i = 0; i < res.nencoders; i++)
        if (res.encoders[i].chosen) ref_ms = res.encoders[i].ms, ref_bytes = res.encoders[i].bytes;
    printf("  (e) PNG encoders, one thread, %ld of the frames (ms/frame, mean bytes, against render's):\n",
           res.frames < 12 ? res.frames : 12);
    for (int i = 0; i < res.nencoders; i++) {
        char name[96];
        snprintf(name, sizeof name, "%s%s", res.encoders[i].name, res.encoders[i].chosen ? "   <- render" : "");
        printf("      %-56s %7.1f ms %5.2fx  %8.0f B %5.2fx\n", name, res.encoders[i].ms, res.encoders[i].ms / ref_ms,
               res.encoders[i].bytes, res.encoders[i].bytes / ref_bytes);
    }
    load_note(m0, m1);
    return EXIT_OK;
}

int cmd_bench(int argc, char **argv)
{
    bopts o = { 0 };
    int rc = iks_opts_parse("bench", OPTIONS, argc, argv, &o, &o.args);
    const char *what = o.args.npos ? o.args.pos[0] : NULL;
    bool render = what && !strcmp(what, "render");
    if (rc >= 0) {
    } else if (!what) rc = iks_usage("bench", "which benchmark? (see ikshade help bench)");
    else if (strcmp(what, "solver") && strcmp(what, "gpu") && strcmp(what, "embed") && !render)
        rc = iks_usage("bench", "no benchmark '%s' (see ikshade help bench)", what);
    else if (!render && (iks_args_given(&o.args, "--frames") || iks_args_given(&o.args, "--size")))
        rc = iks_usage("bench", "%s: --frames and --size are render's", what);
    else if (o.args.npos > (render ? 2 : 1))
        rc = iks_usage("bench", "%s: '%s': %s", what, o.args.pos[o.args.npos - 1], render ? "one shader at a time" :
                       "takes no operands");
    else if (!strcmp(what, "solver")) rc = bench_solver(o.reps ? (int)o.reps : 5);
    else if (!strcmp(what, "gpu")) rc = bench_gpu(o.reps ? (int)o.reps : 3);
    else if (!strcmp(what, "embed")) rc = bench_embed(o.reps ? o.reps : 20);
    else {
        char demo[4096];
        const char *arg = o.args.npos > 1 ? o.args.pos[1] : NULL, *path = iks_cli_toy_path(arg, demo, sizeof demo);
        iks_cli_toy_note("bench", arg, path);
        rc = bench_render(&o, path);
    }
    iks_args_free(&o.args, &o);
    return rc;
}
