/* cmd_bench.c: `ikshade bench WHAT`. Every benchmark measures its own baseline in the same run and
 * prints ratios, since these machines are noisy; each figure is the best of several repetitions. */
#include "bench.h"
#include "cli.h"
#include "ikshade/ik.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char HELP_BENCH[] =
    "usage: ikshade bench solver [--reps N]\n"
#ifdef IKS_HAVE_GL
    "       ikshade bench gpu [--reps N]\n"
#endif
#ifdef IKS_HAVE_RENDER
    "       ikshade bench render [--frames N]\n"
#endif
    "\n"
    "solver: ns per 2D solve for the scalar call and the batch call, at n = 1e3 (in cache) and\n"
    "        n = 1e7 (in memory), beside the time to only stream the same bytes (16 B in, 8 B out).\n"
#ifdef IKS_HAVE_GL
    "gpu:    solves per second through the GLSL probe at 1e6 and 1e7 cases, beside the CPU batch.\n"
#endif
#ifdef IKS_HAVE_RENDER
    "render: the limb demo at 1280x720: draw only, draw+readback, encode only, whole render.\n"
#endif
    ;

double iks_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

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
    float *px, *py, *r1, *r2, *x, *y;
} bench_set;

static bool set_alloc(bench_set *b, size_t n)
{
    memset(b, 0, sizeof *b);
    b->n = n;
    float **arrs[] = { &b->px, &b->py, &b->r1, &b->r2, &b->x, &b->y };
    for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++) {
        *arrs[i] = aligned_alloc(64, ((n * sizeof(float)) + 63) / 64 * 64);
        if (!*arrs[i]) return false;
    }
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i++) {
        double r1 = 0.2 + rnd(&s), r2 = 0.2 + rnd(&s), ang = 6.283185307 * rnd(&s);
        double d = (r1 + r2) * 1.3 * rnd(&s); /* a mix of reached, too far and too near */
        b->r1[i] = (float)r1;
        b->r2[i] = (float)r2;
        b->px[i] = (float)(d * __builtin_cos(ang));
        b->py[i] = (float)(d * __builtin_sin(ang));
    }
    return true;
}

static void set_free(bench_set *b)
{
    free(b->px); free(b->py); free(b->r1); free(b->r2); free(b->x); free(b->y);
    memset(b, 0, sizeof *b);
}

/* The floor any solver over these arrays must pay: read 16 B and write 8 B per case. */
static __attribute__((noinline)) void stream(bench_set *b)
{
    const float *restrict px = b->px, *restrict py = b->py, *restrict r1 = b->r1, *restrict r2 = b->r2;
    float *restrict x = b->x, *restrict y = b->y;
    for (size_t i = 0; i < b->n; i++) {
        x[i] = px[i] + r1[i];
        y[i] = py[i] + r2[i];
    }
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

/* Best ns per case over reps, each rep running enough passes to last about 20 ms. */
static double time_ns(void (*fn)(bench_set *), bench_set *b, int reps)
{
    int passes = 1;
    double t0 = iks_now();
    fn(b);
    double once = iks_now() - t0;
    if (once < 0.02) passes = (int)(0.02 / (once > 1e-9 ? once : 1e-9)) + 1;
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        t0 = iks_now();
        for (int p = 0; p < passes; p++) fn(b);
        double t = (iks_now() - t0) / passes;
        if (t < best) best = t;
    }
    return best * 1e9 / (double)b->n;
}

static int bench_solver(int reps)
{
    static const size_t SIZES[] = { 1000, 10000000 };
    printf("bench solver: ns per 2D solve, best of %d; ratio = time / stream time of the same bytes\n", reps);
    printf("%10s %10s %10s %10s %12s %12s\n", "n", "stream", "scalar", "batch", "scalar/strm",
           "batch/strm");
    for (size_t k = 0; k < sizeof SIZES / sizeof SIZES[0]; k++) {
        bench_set b;
        if (!set_alloc(&b, SIZES[k])) {
            set_free(&b);
            return iks_fail("bench", "solver: out of memory for %zu cases", SIZES[k]);
        }
        double ts = time_ns(stream, &b, reps);
        double tc = time_ns(scalar, &b, reps);
        double tb = time_ns(batch, &b, reps);
        printf("%10zu %10.3f %10.3f %10.3f %12.2f %12.2f\n", b.n, ts, tc, tb, tc / ts, tb / ts);
        set_free(&b);
    }
    return EXIT_OK;
}

/* --reps N, shared by the benchmarks that repeat; any other argument is an error. */
int bench_parse_reps(const char *what, int argc, char **argv, int *reps)
{
    for (int i = 1; i < argc; i++) {
        bool missing;
        const char *v = iks_opt_value(argc, argv, &i, "--reps", &missing);
        if (missing) return iks_usage("bench", "%s: --reps needs a value", what);
        long r;
        if (!v) return iks_usage("bench", "%s: unknown option '%s'", what, argv[i]);
        if (!iks_parse_long(v, &r) || r < 1 || r > 1000)
            return iks_usage("bench", "%s: --reps '%s': expected a whole number from 1 to 1000", what, v);
        *reps = (int)r;
    }
    return EXIT_OK;
}

int cmd_bench(int argc, char **argv)
{
    if (argc < 2) return iks_usage("bench", "which benchmark? (see ikshade help bench)");
    const char *what = argv[1];
    if (strcmp(what, "solver") == 0) {
        int reps = 5, rc = bench_parse_reps(what, argc - 1, argv + 1, &reps);
        return rc ? rc : bench_solver(reps);
    }
#ifdef IKS_HAVE_GL
    if (strcmp(what, "gpu") == 0) return bench_gpu(argc - 1, argv + 1);
#endif
#ifdef IKS_HAVE_RENDER
    if (strcmp(what, "render") == 0) return bench_render(argc - 1, argv + 1);
#endif
    return iks_usage("bench", "no benchmark '%s' (see ikshade help bench)", what);
}
