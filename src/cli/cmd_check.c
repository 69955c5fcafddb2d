/* cmd_check.c: `ikshade check`: the GLSL solver on this machine's GPU (iks_probe: one fragment per
 * case, read back exactly) against the C one, case by case.
 *
 * The bound. Errors are |x_gpu - x_c| in units of eps * scale (eps = FLT_EPSILON, scale = max(|p|,
 * r1, r2)), divided by the case's condition c = max(1, 1/sin(gamma)) (gamma the knee angle; out of
 * reach c = 1; with stretch c = max(1, scale/|p|) since the article's a = w/2d grows as 1/d). The C
 * solver is within 4 c of the exact answer (tests/test_ik.c: measured 2.3). GLSL lets a GPU round a
 * division to 2.5 ulp and sqrt to about 3 ulp (as 1/inversesqrt), and may fuse a*b+c: our solver does
 * one division and two square roots on its main path, so the GPU's own error is at most about
 * 4 + 2.5 + 2*3 = 12.5 c, and the two answers differ by at most about 16 c: BOUND_MAX. Roundings are
 * not all worst-case at once, so almost every case lands far lower; a systematic error (a constant
 * off by one part in a million moves x by 8.4 eps * |x|) shows in the bulk, which the 99.9th
 * percentile bound BOUND_P999 = 4 catches while an honest GPU stays under it.
 *
 * Stopping. A signal (signals.c) is looked at every STOP_EVERY cases while cases are made and
 * compared, between option sets, in each pass of the percentile's selection, and inside the GPU's
 * batch (iks_probe_run: IKS_E_INTERRUPTED); the command then prints one line, "interrupted after N of
 * M solves", and no verdict. */
#include "cli/cli.h"
#include "ikshade/ik.h"
#include "cli/session.h"
#include "cli/xorshift.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BOUND_MAX 16.0
#define BOUND_P999 4.0
#define MAX_CASES 30000000L
#define STOP_EVERY 65536L /* cases between looks at a stop signal: about 2 ms of compare() */

typedef struct {
    long cases, seed;
    const char *solver;
    bool json;
    iks_args args;
} copts;

static const iks_opt OPTIONS[] = {
    /* the probe takes any count; the cap is this command's memory for the cases and the errors */
    IKS_OPT_LONG_ROW(copts, cases, "--cases", NULL, "N", "random cases (default 1000000)", .min = 0,
      .max = MAX_CASES, .expect = "expected a whole number", .need = "a number"),
    IKS_OPT_LONG_ROW(copts, seed, "--seed", NULL, "S", "random seed (default 1)",
      .expect = "expected a whole number", .need = "a number"),
    IKS_OPT_STRING_ROW(copts, solver, "--solver", NULL, "FILE",
      "check FILE in place of shaders/ik.glsl (a port of your own)",
      .complete = "file:glsl frag", .need = "a file"),
    IKS_OPT_FLAG_ROW(copts, json, "--json", NULL, NULL, "print the result as one JSON object", .flags = 0),
    { IKS_OPT_END, .flags = 0 },
};

const iks_help HELP_CHECK = {
    .usage = "usage: ikshade check [--cases N] [--seed S] [--solver FILE] [--json]\n",
    .about = "Verifies the GLSL IK solver on this machine's GPU against the C solver, case by case: seeded\n"
             "random cases (targets concentrated at the edges of reach, lengths 1e-3..1e3) plus the edge cases\n"
             "of the solver's own tests, each solved with bend +1, bend -1, stretch and soften 0.25.\n"
             "Prints the GPU, the number of cases, status mismatches, and the maximum and 99.9th-percentile\n"
             "error of the joint in units of float epsilon x the case's scale, divided by the case's\n"
             "conditioning, and the maximum error of the effector (end) in units of float epsilon x the\n"
             "case's scale; exits 1 when a status differs or an error exceeds its bound (joint: max 16,\n"
             "99.9th percentile 4; effector: max 16).\n",
    .options = OPTIONS,
};

/* ---- cases ------------------------------------------------------------------------------------- */

static uint64_t rng_state;

static void put(float *c, long i, double px, double py, double r1, double r2)
{
    c[4 * i + 0] = (float)px;
    c[4 * i + 1] = (float)py;
    c[4 * i + 2] = (float)r1;
    c[4 * i + 3] = (float)r2;
}

/* The solver tests' edge cases: exact edges, the origin, zero lengths, scales 1e-3..1e3, ratios. */
static long edge_cases(float *c)
{
    long n = 0;
    static const double S[] = { 1e-3, 1e-2, 1, 1e2, 1e3 };
    static const double R[][2] = { { 1, 1 }, { 1, 0.5 }, { 0.5, 1 }, { 1, 1e-3 }, { 1e-3, 1 }, { 1, 1e-6 } };
    for (size_t a = 0; a < sizeof S / sizeof S[0]; a++)
        for (size_t b = 0; b < sizeof R / sizeof R[0]; b++) {
            double r1 = S[a] * R[b][0], r2 = S[a] * R[b][1], L = r1 + r2, D = fabs(r1 - r2);
            const double dist[] = { 0, L, D, L * (1 + 1e-7), L * (1 - 1e-7), D * (1 + 1e-7), D * (1 - 1e-7),
                                    0.5 * (L + D), 2 * L, 1e-9 * L };
            for (size_t k = 0; k < sizeof dist / sizeof dist[0]; k++)
                for (int q = 0; q < 4; q++) {
                    double ang = q * 1.5707963267948966 + 0.3;
                    if (c) put(c, n, dist[k] * cos(ang), dist[k] * sin(ang), r1, r2);
                    n++;
                }
            if (c) {
                put(c, n++, 1, 1, 0, r2);  /* zero lengths */
                put(c, n++, 1, 1, r1, 0);
                put(c, n++, 0, 0, 0, 0);
            } else n += 3;
        }
    /* magnitudes far apart, where a length is subnormal or 0 in the frame of the largest input: the
     * answers along u are taken on the lengths themselves (ik.c), and must be in both solvers. Normal
     * floats only, and p on an axis, so that a GPU's rounding of 1/|p| cannot move them; and no
     * intermediate subnormal in the scaled frames, which GPUs flush to 0 (p=(0,2e-38) beside bones of
     * 1e38 did on llvmpipe). */
    static const double F[][4] = {
        { 0, 1, 1e-20, 1e30 }, { 0, 0, 1e-7, FLT_MAX }, { 1, 0, 1e-22, 1 }, { 0, 1e25, 1, 0.5 },
        { -1e30, 0, 1, 1 }, { 0, -1e-30, 1, 1 }, { 1e20, 0, 1e-20, 1e-20 }, { 0, 4, 1e-25, 1e25 },
        { 2, 0, 3e38, 1e-30 },
    };
    for (size_t k = 0; k < sizeof F / sizeof F[0]; k++) {
        if (c) put(c, n, F[k][0], F[k][1], F[k][2], F[k][3]);
        n++;
    }
    return n;
}

/* false when a stop signal came first */
static bool random_cases(float *c, long from, long n, uint64_t seed)
{
    rng_state = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    for (long i = 0; i < n; i++) {
        if (i % STOP_EVERY == 0 && iks_signals_stopped()) return false;
        double px, py, r1, r2;
        xs_ik_case(&rng_state, &px, &py, &r1, &r2);
        put(c, from + i, px, py, r1, r2);
    }
    return true;
}

/* ---- comparison -------------------------------------------------------------------------------- */

typedef struct {
    long cases, solves, status_mismatch, edge;
    double max_err, p999;
    long worst_i;
    int worst_set;
    float wx_gpu, wy_gpu, wx_c, wy_c;
    int wst_gpu, wst_c;
    /* the effector's, where the statuses agree (where they do not, the joints' count it) */
    double max_end_err;
    long worst_end_i;
    int worst_end_set;
    float we_gpu[2], we_c[2];
} result;

static void swap_d(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

/* The k-th smallest of a[0 .. n-1] (k < n), as a[k] after sorting a: a quickselect (median of three,
 * Hoare's partition, which splits runs of equal errors evenly), a[] reordered. The errors hold no NaN
 * (compare() makes it infinity), so < orders them totally. Looks at a stop signal before each pass (the
 * first, over every solve, takes about 0.1 s per 1e8): false when one came. */
static bool select_kth(double *a, long n, long k, double *out)
{
    long lo = 0, hi = n - 1;
    while (lo < hi) {
        if (iks_signals_stopped()) return false;
        long mid = lo + (hi - lo) / 2;
        if (a[mid] < a[lo]) swap_d(&a[mid], &a[lo]);
        if (a[hi] < a[lo]) swap_d(&a[hi], &a[lo]);
        if (a[hi] < a[mid]) swap_d(&a[hi], &a[mid]);
        double pivot = a[mid];
        long i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot) i++;
            while (pivot < a[j]) j--;
            if (i <= j) swap_d(&a[i++], &a[j--]);
        }
        /* a[lo .. j] <= pivot, a[i .. hi] >= pivot, and anything between equals it */
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else break;
    }
    *out = a[k];
    return true;
}

static const ik_opts SETS[] = { { .bend = 1 }, { .bend = -1 }, { .stretch = 1 }, { .soften = 0.25f } };
static const char *const SET_NAMES[] = { "bend +1", "bend -1", "stretch", "soften 0.25" };
#define NSETS 4

/* Case c solved by the C solver with option set `set`: its status, joint and effector, and the case's
 * scale (the largest of |p|, r1, r2; 1 when all are 0) */
static ik_status solve_case(const float *c, int set, ik_vec2 *x, ik_vec2 *e, double *scale)
{
    ik_status st = ik_solve2((ik_vec2){ c[0], c[1] }, c[2], c[3], &SETS[set], x, e);
    *scale = fmax(fmax(hypot(c[0], c[1]), fabs(c[2])), fabs(c[3]));
    if (!(*scale > 0)) *scale = 1;
    return st;
}

/* Returns how many cases it compared: n, or fewer when a stop signal came. */
static long compare(const float *cases, long n, const float *gpu, int set, double *errs, result *r)
{
    const ik_opts *o = &SETS[set];
    for (long i = 0; i < n; i++) {
        if (i % STOP_EVERY == 0 && i > 0 && iks_signals_stopped()) return i;
        const float *c = cases + 4 * i;
        ik_vec2 x, e;
        double scale;
        ik_status st = solve_case(c, set, &x, &e, &scale);
        const float *g = gpu + 4 * i;
        int gst = (int)lrintf(g[2]);
        double d = hypot(c[0], c[1]);
        double err = hypot((double)g[0] - x.x, (double)g[1] - x.y) / (FLT_EPSILON * scale);
        if (!isfinite(g[0]) || !isfinite(g[1])) err = INFINITY;
        double L = (double)c[2] + c[3], D = fabs((double)c[2] - c[3]);
        bool at_edge = fmin(fabs(d - L), fabs(d - D)) <= 4 * FLT_EPSILON * scale;
        double cond = 1;
        if (st == IK_REACHED || (o->soften > 0 && st == IK_TOO_FAR)) {
            double ax = -x.x, ay = -x.y, bx = (double)e.x - x.x, by = (double)e.y - x.y;
            double la = hypot(ax, ay), lb = hypot(bx, by);
            double sg = la > 0 && lb > 0 ? fabs(ax * by - ay * bx) / (la * lb) : 0;
            cond = 1 / fmax(sg, 1e-30);
        } else if (o->stretch && st != IK_DEGENERATE) cond = scale / fmax(d, 1e-30);
        if (cond < 1) cond = 1;
        double nerr = err / cond;
        if (gst != (int)st) {
            if (at_edge) {
                /* either status is right within rounding; the answer is then sqrt-singular */
                r->edge++;
                nerr = err / (1 / sqrt(FLT_EPSILON));
            } else {
                r->status_mismatch++;
                nerr = INFINITY;
            }
        }
        errs[i] = isnan(nerr) ? INFINITY : nerr; /* no agreement, and a total order for select_kth */
        if (nerr > r->max_err || r->worst_i < 0) {
            r->max_err = nerr;
            r->worst_i = i;
            r->worst_set = set;
            r->wx_gpu = g[0]; r->wy_gpu = g[1]; r->wx_c = x.x; r->wy_c = x.y;
            r->wst_gpu = gst; r->wst_c = (int)st;
        }
    }
    return n;
}

/* The effectors of cases 0..n-1 against ik_solve2's: the target itself, a point of it scaled, or the
 * nearest point of the reach, all well-conditioned, so the error is in eps x the case's scale alone.
 * Returns how many cases it compared, as compare() does. */
static long compare_end(const float *cases, long n, const float *gpu, int set, result *r)
{
    for (long i = 0; i < n; i++) {
        if (i % STOP_EVERY == 0 && i > 0 && iks_signals_stopped()) return i;
        ik_vec2 x, e;
        double scale;
        ik_status st = solve_case(cases + 4 * i, set, &x, &e, &scale);
        const float *g = gpu + 4 * i;
        if ((int)lrintf(g[2]) != (int)st) continue;
        double err = hypot((double)g[0] - e.x, (double)g[1] - e.y) / (FLT_EPSILON * scale);
        if (!isfinite(g[0]) || !isfinite(g[1]) || isnan(err)) err = INFINITY;
        if (err > r->max_end_err || r->worst_end_i < 0) {
            r->max_end_err = err;
            r->worst_end_i = i;
            r->worst_end_set = set;
            r->we_gpu[0] = g[0]; r->we_gpu[1] = g[1]; r->we_c[0] = e.x; r->we_c[1] = e.y;
        }
    }
    return n;
}

/* The one line a stop signal leaves, after `done` solves of `total` were compared; exits 128 + the
 * signal (main: iks_signals_exit_status) */
static int interrupted(long done, long total)
{
    iks_fail("check", "interrupted after %ld of %ld solves compared: no verdict", done, total);
    return EXIT_FAIL;
}

/* Option set `set` drawn by the probe into gpu: the joints, or the effectors. EXIT_OK, or the exit
 * status of a stop (before or during the GPU's batch: IKS_E_INTERRUPTED) or of the probe's failure,
 * said. done of total solves are compared so far. */
static int probe_pass(iks_probe *p, int set, bool effector, float *gpu, size_t gpu_len, long done, long total)
{
    if (iks_signals_stopped()) return interrupted(done, total);
    iks_code c = effector ? iks_probe_run_effector(p, &SETS[set], gpu, gpu_len)
                         : iks_probe_run(p, &SETS[set], gpu, gpu_len);
    if (c == IKS_OK) return EXIT_OK;
    int rc = iks_signals_stopped() ? interrupted(done, total) : iks_print_last_error("check");
    return rc == EXIT_USAGE ? EXIT_FAIL : rc;
}

/* a number, or null for what JSON has no number for (a broken solver's NaN, an infinite error) */
static void json_num(const char *before, double v)
{
    if (isfinite(v)) printf("%s%.9g", before, v);
    else printf("%snull", before);
}

static void json_str(const char *s)
{
    putchar('"');
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20) printf("\\u%04x", *s);
        else putchar(*s);
    }
    putchar('"');
}

/* Why the --solver file cannot be the solver, or NULL: said before the GPU is set up, naming the
 * option. It looks before it opens, since an open of a FIFO waits for a writer (forever, as fopen did
 * here) and an open of a device can act on it. The loader reads the file itself with the careful
 * helper (src/base/userfile.c, not exported to the command line), which refuses a path swapped in
 * after this look; the words here are that helper's, so both say the same. */
static const char *solver_unusable(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return errno == ELOOP ? "a loop of symbolic links" : strerror(errno);
    if (S_ISDIR(st.st_mode)) return "a directory, not a file";
    if (S_ISFIFO(st.st_mode)) return "a FIFO (named pipe), not a regular file";
    if (S_ISSOCK(st.st_mode)) return "a socket, not a regular file";
    if (!S_ISREG(st.st_mode)) return "a device, not a regular file";
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK); /* to say "Permission denied" now */
    if (fd < 0) return strerror(errno);
    close(fd);
    return NULL;
}

int cmd_check(int argc, char **argv)
{
    copts co = { .cases = 1000000, .seed = 1 };
    int rc = iks_opts_parse("check", OPTIONS, argc, argv, &co, &co.args);
    if (rc < 0 && co.args.npos) rc = iks_usage("check", "'%s': check takes no operands", co.args.pos[0]);
    iks_args_free(&co.args, &co);
    if (rc >= 0) return rc;
    long ncases = co.cases, seed = co.seed;
    const char *solver = co.solver;
    bool json = co.json;
    const char *why = solver ? solver_unusable(solver) : NULL;
    if (why) return iks_fail("check", "--solver %s: %s", solver, why);
    long nedge = edge_cases(NULL);
    long n = nedge + ncases;
    float *cases = malloc((size_t)n * 4 * sizeof *cases);
    float *gpu = malloc((size_t)n * 4 * sizeof *gpu);
    double *errs = malloc((size_t)n * NSETS * sizeof *errs);
    if (!cases || !gpu || !errs) {
        free(cases); free(gpu); free(errs);
        return iks_fail("check", "out of memory for %ld cases", n);
    }
    edge_cases(cases);
    if (!random_cases(cases, nedge, ncases, (uint64_t)seed)) {
        free(cases); free(gpu); free(errs);
        return interrupted(0, n * NSETS);
    }

    iks_cli_log log = { "check", false, OPTIONS };
    iks_engine *e = iks_cli_engine(&log, NULL);
    iks_probe *p = NULL;
    if (!e || iks_probe_create(e, solver, cases, n, &p) != IKS_OK) {
        /* a stop signal during either is that, whatever the failure it caused */
        rc = iks_signals_stopped() ? interrupted(0, n * NSETS) : e ? iks_print_last_error("check") : EXIT_FAIL;
        iks_engine_destroy(e);
        free(cases); free(gpu); free(errs);
        return rc;
    }
    result r = { .cases = n, .worst_i = -1, .worst_end_i = -1 };
    long done = 0; /* solves compared */
    rc = EXIT_OK;
    for (int s = 0; s < NSETS && rc == EXIT_OK; s++) {
        rc = probe_pass(p, s, false, gpu, (size_t)n * 4 * sizeof *gpu, done, n * NSETS);
        if (rc == EXIT_OK) {
            long c = compare(cases, n, gpu, s, errs + (size_t)s * n, &r);
            done += c;
            if (c < n) rc = interrupted(done, n * NSETS);
        }
        /* the effectors, drawn into the same buffer once the joints are compared */
        if (rc == EXIT_OK) rc = probe_pass(p, s, true, gpu, (size_t)n * 4 * sizeof *gpu, done, n * NSETS);
        if (rc == EXIT_OK && compare_end(cases, n, gpu, s, &r) < n) rc = interrupted(done, n * NSETS);
    }
    r.solves = n * NSETS;
    if (rc == EXIT_OK && !select_kth(errs, r.solves, (long)((double)(r.solves - 1) * 0.999), &r.p999))
        rc = interrupted(done, r.solves);
    if (rc != EXIT_OK) {
        iks_probe_destroy(p);
        iks_engine_destroy(e);
        free(cases); free(gpu); free(errs);
        return rc;
    }
    const char *glerr = NULL; /* a GL error fails iks_probe_run itself */
    bool pass = !glerr && r.status_mismatch == 0 && r.max_err <= BOUND_MAX && r.p999 <= BOUND_P999 &&
                r.max_end_err <= BOUND_MAX;
    const float *we = cases + 4 * (r.worst_end_i < 0 ? 0 : r.worst_end_i);
    const float *wc = cases + 4 * (r.worst_i < 0 ? 0 : r.worst_i);
    if (json) {
        printf("{\"renderer\": ");
        json_str(iks_engine_renderer(e));
        printf(", \"version\": ");
        json_str(iks_engine_gl_version(e));
        printf(", \"solver\": ");
        json_str(solver ? solver : "ik.glsl");
        printf(", \"cases\": %ld, \"option_sets\": %d, \"solves\": %ld, \"status_mismatches\": %ld, "
               "\"edge_status_differences\": %ld", r.cases, NSETS, r.solves, r.status_mismatch, r.edge);
        json_num(", \"max_error\": ", r.max_err);
        json_num(", \"p999_error\": ", r.p999);
        json_num(", \"max_effector_error\": ", r.max_end_err);
        printf(", \"bound_max\": %g, \"bound_p999\": %g, \"worst\": {\"set\": ", BOUND_MAX, BOUND_P999);
        json_str(SET_NAMES[r.worst_set]);
        printf(", \"p\": [%.9g, %.9g], \"r1\": %.9g, \"r2\": %.9g", wc[0], wc[1], wc[2], wc[3]);
        json_num(", \"gpu\": [", r.wx_gpu);
        json_num(", ", r.wy_gpu);
        printf(", %d], \"c\": [%.9g, %.9g, %d]}", r.wst_gpu, r.wx_c, r.wy_c, r.wst_c);
        if (r.worst_end_i >= 0) {
            printf(", \"worst_effector\": {\"set\": ");
            json_str(SET_NAMES[r.worst_end_set]);
            printf(", \"p\": [%.9g, %.9g], \"r1\": %.9g, \"r2\": %.9g", we[0], we[1], we[2], we[3]);
            json_num(", \"gpu\": [", r.we_gpu[0]);
            json_num(", ", r.we_gpu[1]);
            printf("], \"c\": [%.9g, %.9g]}", r.we_c[0], r.we_c[1]);
        }
        printf(", \"pass\": %s}\n", pass ? "true" : "false");
    } else {
        printf("GL_RENDERER: %s\nGL_VERSION:  %s\n", iks_engine_renderer(e), iks_engine_gl_version(e));
        iks_say(stdout, "solver: %s", solver ? solver : "ik.glsl (built in)");
        printf("cases: %ld (%ld random, seed %ld, + %ld edge cases) x %d option sets = %ld solves\n", n,
               ncases, seed, nedge, NSETS, r.solves);
        printf("status mismatches: %ld (+ %ld within rounding of an edge of reach, where either status is right)\n",
               r.status_mismatch, r.edge);
        printf("error, in eps x scale / conditioning: max %.3g (bound %g), 99.9th percentile %.3g (bound %g)\n",
               r.max_err, BOUND_MAX, r.p999, BOUND_P999);
        /* with every error 0 there is no largest one to show: case 0 would be named for nothing */
        if (r.max_err > 0)
            printf("largest at case %ld (%s): p=(%.9g, %.9g) r1=%.9g r2=%.9g: GPU x=(%.9g, %.9g) %s, C x=(%.9g, "
                   "%.9g) %s\n", r.worst_i, SET_NAMES[r.worst_set], wc[0], wc[1], wc[2], wc[3], r.wx_gpu, r.wy_gpu,
                   ik_status_name((ik_status)r.wst_gpu), r.wx_c, r.wy_c, ik_status_name((ik_status)r.wst_c));
        else printf("every joint identical to the C solver's: no largest error to show\n");
        printf("effector error, in eps x scale: max %.3g (bound %g)\n", r.max_end_err, BOUND_MAX);
        if (r.max_end_err > 0)
            printf("largest effector error at case %ld (%s): p=(%.9g, %.9g) r1=%.9g r2=%.9g: GPU end=(%.9g, %.9g), "
                   "C end=(%.9g, %.9g)\n", r.worst_end_i, SET_NAMES[r.worst_end_set], we[0], we[1], we[2], we[3],
                   r.we_gpu[0], r.we_gpu[1], r.we_c[0], r.we_c[1]);
        else printf("every effector identical to the C solver's\n");
        if (glerr) printf("GL error: %s\n", glerr);
        printf("%s\n", pass ? "PASS: the GLSL solver agrees with the C solver"
                            : "FAIL: the GLSL solver disagrees with the C solver");
    }
    iks_probe_destroy(p);
    iks_engine_destroy(e);
    free(cases); free(gpu); free(errs);
    /* the verdict is the command's whole point: a PASS nobody could read is no pass */
    return iks_stdout_status("check", pass ? EXIT_OK : EXIT_FAIL);
}

