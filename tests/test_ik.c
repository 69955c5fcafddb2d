/* test_ik.c: the C solver against an independent oracle, and its documented properties.
 *
 * The oracle is the law of cosines in long double (acos, cos, sin), computed from the exact float
 * inputs: a different formula in 64-bit mantissas, so its own error is far below float's.
 *
 * The error bound. Errors are measured as |x - x_oracle| / (eps * scale), eps = FLT_EPSILON,
 * scale = max(|p|, r1, r2). The solver's roundings are equivalent to relative perturbations of its
 * inputs by a few eps; the joint's displacement under a perturbation dd of d (or of r1, r2) is
 * |dx| = |cos(beta)| |dd| / sin(gamma) <= |dd| / sin(gamma), gamma the knee angle (law of sines on
 * d(alpha)/dd). Adding the few roundings of the final products gives
 *        err <= K (1 + 1/sin(gamma)),   with K = 4,
 * where K = 4 counts: d (1 rounding), the four Heron factors (1 each, from exact inputs), the product
 * and the square root (~2), and the last combination and scaling (~1), of which at most about four eps
 * line up. The test fails if any case exceeds it, and prints the largest normalised error seen.
 */
#include "ikshade/ik.h"
#include "cli/xorshift.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static int checks;

#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        checks++;                                                                             \
        if (!(cond)) {                                                                        \
            if (failures++ < 30) {                                                            \
                fprintf(stderr, "%s:%d: FAIL: %s: ", __FILE__, __LINE__, #cond);              \
                fprintf(stderr, __VA_ARGS__);                                                 \
                fputc('\n', stderr);                                                          \
            }                                                                                 \
        }                                                                                     \
    } while (0)

static const double EPS = FLT_EPSILON;
static const double K = 4.0;

/* xorshift64*: a seeded, portable generator */
static uint64_t rng = 0x2545F4914F6CDD1Dull;
static double urand(void) { return xs_urand(&rng); }

/* ---- the oracle ---------------------------------------------------------------------------------- */

typedef struct {
    long double x, y;
    ik_status st;
    long double sin_gamma; /* knee angle's sine; 0 out of reach */
    long double margin;    /* distance of |p| from the nearer edge of reach */
} oracle;

static oracle solve_oracle(float px, float py, float r1f, float r2f, int bend, int stretch)
{
    oracle o = { 0 };
    long double X = px, Y = py, r1 = r1f, r2 = r2f;
    long double d = sqrtl(X * X + Y * Y);
    long double ux = X / d, uy = Y / d;
    long double L = r1 + r2, D = fabsl(r1 - r2);
    o.margin = fminl(fabsl(d - L), fabsl(d - D));
    if (d > L || d < D) {
        o.st = d > L ? IK_TOO_FAR : IK_TOO_NEAR;
        long double a = stretch ? (d * d + r1 * r1 - r2 * r2) / (2 * d)
                        : (d > L || r1 > r2) ? r1 : -r1;
        o.x = a * ux;
        o.y = a * uy;
        return o;
    }
    o.st = IK_REACHED;
    long double c = (d * d + r1 * r1 - r2 * r2) / (2 * d * r1);
    c = c > 1 ? 1 : c < -1 ? -1 : c;
    long double al = acosl(c) * (bend < 0 ? -1 : 1);
    o.x = r1 * (cosl(al) * ux - sinl(al) * uy);
    o.y = r1 * (cosl(al) * uy + sinl(al) * ux);
    o.sin_gamma = d * fabsl(sinl(al)) / r2; /* law of sines */
    return o;
}

/* ---- case generation ----------------------------------------------------------------------------- */

typedef struct { float px, py, r1, r2; } kase;

/* the distribution `ikshade check` draws from too (xorshift.h) */
static kase gen(void)
{
    kase k;
    double px, py, r1, r2;
    xs_ik_case(&rng, &px, &py, &r1, &r2);
    k.px = (float)px;
    k.py = (float)py;
    k.r1 = (float)r1;
    k.r2 = (float)r2;
    return k;
}

static double scale_of(kase k) { return fmax(fmax(hypot(k.px, k.py), k.r1), k.r2); }

/* ---- tests --------------------------------------------------------------------------------------- */

static void test_oracle(long n)
{
    double worst = 0, worst_well = 0;
    long boundary = 0;
    kase wk = { 0 };
    for (long i = 0; i < n; i++) {
        kase k = gen();
        int bend = (i & 1) ? -1 : 1;
        int stretch = (i % 7) == 0;
        ik_opts opts = { .bend = (float)bend, .stretch = stretch };
        ik_vec2 x;
        ik_status st = ik_solve2((ik_vec2){ k.px, k.py }, k.r1, k.r2, &opts, &x, NULL);
        oracle o = solve_oracle(k.px, k.py, k.r1, k.r2, bend, stretch);
        double scale = scale_of(k);
        double err = (double)hypotl(x.x - o.x, x.y - o.y) / (EPS * scale);
        /* A target within rounding of an edge may be classified either way: the float |p| is one
         * rounding off. Then the answer is the sqrt-singular one: up to sqrt(eps) * scale. */
        int near_edge = o.margin <= 4 * EPS * scale;
        if (st != o.st) {
            CHECK(near_edge, "case %ld: status %s, oracle %s (p=%.9g,%.9g r1=%.9g r2=%.9g)", i,
                  ik_status_name(st), ik_status_name(o.st), k.px, k.py, k.r1, k.r2);
            boundary++;
            if (!stretch) CHECK(err <= K * (1 + 1 / sqrt(EPS)), "case %ld: edge err %g", i, err);
            continue;
        }
        if (stretch && st != IK_REACHED) {
            /* the article's a = (d^2 + r1^2 - r2^2) / 2d: ill-conditioned as 1/d, measured relative */
            double mag = (double)hypotl(o.x, o.y);
            double rel = (double)hypotl(x.x - o.x, x.y - o.y) / (EPS * fmax(mag, scale));
            CHECK(rel <= 4 * K * (1 + scale * scale / ((double)hypot(k.px, k.py) * fmax(mag, scale))),
                  "case %ld: stretch err %g", i, rel);
            continue;
        }
        double cond = 1 + (st == IK_REACHED ? 1 / (double)fmaxl(o.sin_gamma, 1e-30L) : 0);
        double nerr = err / cond;
        if (nerr > worst) { worst = nerr; wk = k; }
        if (st == IK_REACHED && o.sin_gamma > 0.5 && err > worst_well) worst_well = err;
        CHECK(nerr <= K, "case %ld: err %.3g eps*scale > %g (1 + 1/sin gamma = %.3g) at p=(%.9g, %.9g) "
              "r1=%.9g r2=%.9g bend=%d status=%s", i, err, K, cond, k.px, k.py, k.r1, k.r2, bend,
              ik_status_name(st));
    }
    printf("oracle: %ld cases; max err / (eps scale (1 + 1/sin gamma)) = %.3f (bound %g) at "
           "p=(%.9g, %.9g) r1=%.9g r2=%.9g; max err where sin gamma > 0.5: %.3f eps scale; "
           "%ld within rounding of an edge classified the other way\n",
           n, worst, K, wk.px, wk.py, wk.r1, wk.r2, worst_well, boundary);
}

/* The article's raw discriminant, to show the test above would catch it. */
static double raw_article_worst(long n)
{
    double worst = 0;
    for (long i = 0; i < n; i++) {
        kase k = gen();
        oracle o = solve_oracle(k.px, k.py, k.r1, k.r2, 1, 0);
        if (o.st != IK_REACHED || o.margin <= 4 * EPS * scale_of(k)) continue;
        float h = k.px * k.px + k.py * k.py;
        float w = h + k.r1 * k.r1 - k.r2 * k.r2;
        float s = sqrtf(fmaxf(4 * k.r1 * k.r1 * h - w * w, 0));
        float x = (w * k.px - k.py * s) * 0.5f / h, y = (w * k.py + k.px * s) * 0.5f / h;
        double err = (double)hypotl(x - o.x, y - o.y) / (EPS * scale_of(k));
        double nerr = err / (1 + 1 / (double)o.sin_gamma);
        if (nerr > worst) worst = nerr;
    }
    return worst;
}

static void test_properties(long n)
{
    double worst_len = 0, worst_mirror = 0;
    for (long i = 0; i < n; i++) {
        kase k = gen();
        ik_vec2 p = { k.px, k.py }, x, xm, e;
        ik_status st = ik_solve2(p, k.r1, k.r2, NULL, &x, &e);
        ik_solve2(p, k.r1, k.r2, &(ik_opts){ .bend = -1 }, &xm, NULL);
        double scale = scale_of(k);
        /* |x| = r1 always (out of reach too), |x - end| = r2, to a few eps of scale */
        double l1 = fabs(hypot(x.x, x.y) - k.r1) / (EPS * scale);
        double l2 = fabs(hypot(x.x - e.x, x.y - e.y) - k.r2) / (EPS * scale);
        if (l1 > worst_len) worst_len = l1;
        if (l2 > worst_len) worst_len = l2;
        CHECK(l1 <= 4, "|x| - r1 = %g eps scale", l1);
        CHECK(l2 <= 4, "|x - end| - r2 = %g eps scale", l2);
        if (st == IK_REACHED) {
            double de = hypot(e.x - p.x, e.y - p.y) / (EPS * scale);
            CHECK(de <= 2, "reached, but end is %g eps scale from p", de);
        }
        /* bend flip: the mirror image of x across the line 0 -> p */
        double d = hypot(k.px, k.py), ux = k.px / d, uy = k.py / d;
        double a = x.x * ux + x.y * uy;
        double mx = 2 * a * ux - x.x, my = 2 * a * uy - x.y;
        double me = hypot(xm.x - mx, xm.y - my) / (EPS * scale);
        if (me > worst_mirror) worst_mirror = me;
        CHECK(me <= 4, "mirror err %g eps scale", me);
        /* scale invariance: bit for bit under powers of two */
        for (int sh = -20; sh <= 20; sh += 10) {
            float f = ldexpf(1.0f, sh);
            ik_vec2 xs;
            ik_status ss = ik_solve2((ik_vec2){ k.px * f, k.py * f }, k.r1 * f, k.r2 * f, NULL, &xs, NULL);
            CHECK(ss == st && xs.x == x.x * f && xs.y == x.y * f, "scale 2^%d: (%.9g,%.9g) vs (%.9g,%.9g)",
                  sh, xs.x, xs.y, x.x * f, x.y * f);
        }
    }
    printf("properties: %ld cases; max | |x| - r1 | or | |x - end| - r2 |: %.3f eps scale; max mirror "
           "error %.3f eps scale\n", n, worst_len, worst_mirror);
}

static int finite2(ik_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

static void test_nonfinite_sweep(void)
{
    const float V[] = { 0.0f, -0.0f, 1e-45f, 1e-40f, FLT_MIN, 1e-30f, 0.5f, 1.0f, -1.0f, 3.0f,
                        1e30f, -1e30f, FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN };
    const int n = sizeof V / sizeof V[0];
    const ik_opts OPTS[] = { { 0 }, { .bend = -1 }, { .stretch = 1 }, { .soften = 0.2f },
                             { .stretch = 1, .bend = -1 }, { .soften = 1 } };
    long count = 0;
    for (size_t o = 0; o < sizeof OPTS / sizeof OPTS[0]; o++)
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++)
                for (int c = 0; c < n; c++)
                    for (int e = 0; e < n; e++) {
                        ik_vec2 x, end;
                        ik_status st = ik_solve2((ik_vec2){ V[a], V[b] }, V[c], V[e], &OPTS[o], &x, &end);
                        count++;
                        CHECK(finite2(x) && finite2(end), "non-finite out for p=(%g,%g) r=(%g,%g) opt %zu",
                              V[a], V[b], V[c], V[e], o);
                        int bad = !isfinite(V[a]) || !isfinite(V[b]) || !isfinite(V[c]) ||
                                  !isfinite(V[e]) || !(V[c] > 0) || !(V[e] > 0) ||
                                  (V[a] == 0 && V[b] == 0);
                        CHECK(!bad || st == IK_DEGENERATE, "p=(%g,%g) r=(%g,%g): %s, want degenerate",
                              V[a], V[b], V[c], V[e], ik_status_name(st));
                        CHECK(bad || st != IK_DEGENERATE, "p=(%g,%g) r=(%g,%g): degenerate", V[a], V[b],
                              V[c], V[e]);
                        ik_vec3 x3, e3;
                        ik_status s3 = ik_solve3((ik_vec3){ V[a], V[b], V[e] }, V[c], V[e],
                                                 (ik_vec3){ V[b], V[c], V[a] }, &OPTS[o], &x3, &e3);
                        CHECK(isfinite(x3.x) && isfinite(x3.y) && isfinite(x3.z) && isfinite(e3.x) &&
                                  isfinite(e3.y) && isfinite(e3.z),
                              "3D non-finite out");
                        (void)s3;
                    }
    printf("sweep: %ld cases with 0, denormals, +-1e+-30, +-FLT_MAX, +-Inf, NaN: all finite\n", count);
}

static void test_documented_answers(void)
{
    ik_vec2 x, e;
    CHECK(ik_solve2((ik_vec2){ 0, 0 }, 2, 1, NULL, &x, &e) == IK_DEGENERATE && x.x == 2 && x.y == 0,
          "p=0: (%g,%g)", x.x, x.y);
    CHECK(ik_solve2((ik_vec2){ 1, 1 }, 0, 1, NULL, &x, &e) == IK_DEGENERATE && x.x == 0 && x.y == 0,
          "r1=0: (%g,%g)", x.x, x.y);
    CHECK(ik_solve2((ik_vec2){ 3, 4 }, 2, 0, NULL, &x, &e) == IK_DEGENERATE &&
              fabsf(x.x - 1.2f) < 1e-6f && fabsf(x.y - 1.6f) < 1e-6f,
          "r2=0: (%g,%g)", x.x, x.y);
    CHECK(ik_solve2((ik_vec2){ 1, 1 }, -1, 1, NULL, &x, &e) == IK_DEGENERATE && x.x == 0 && x.y == 0,
          "r1<0");
    CHECK(ik_solve2((ik_vec2){ NAN, 1 }, 1, 1, NULL, &x, &e) == IK_DEGENERATE && x.x == 0 && x.y == 0,
          "NaN");
    /* the article's picture: p=(1,1), r1=r2=1: x=(0,1) for bend +1 (left of 0->p), (1,0) for -1 */
    CHECK(ik_solve2((ik_vec2){ 1, 1 }, 1, 1, NULL, &x, &e) == IK_REACHED && fabsf(x.x) < 1e-7f &&
              fabsf(x.y - 1) < 1e-7f,
          "bend +1: (%g,%g)", x.x, x.y);
    CHECK(ik_solve2((ik_vec2){ 1, 1 }, 1, 1, &(ik_opts){ .bend = -1 }, &x, &e) == IK_REACHED &&
              fabsf(x.x - 1) < 1e-7f && fabsf(x.y) < 1e-7f,
          "bend -1: (%g,%g)", x.x, x.y);
    /* too far: straight at the target, lengths kept */
    CHECK(ik_solve2((ik_vec2){ 0, 5 }, 1, 2, NULL, &x, &e) == IK_TOO_FAR && x.x == 0 && x.y == 1 &&
              e.x == 0 && e.y == 3,
          "too far: (%g,%g) end (%g,%g)", x.x, x.y, e.x, e.y);
    /* too near: folded; towards p when r1 > r2, away when r1 < r2 */
    CHECK(ik_solve2((ik_vec2){ 0.5f, 0 }, 2, 1, NULL, &x, &e) == IK_TOO_NEAR && x.x == 2 && x.y == 0 &&
              e.x == 1 && e.y == 0,
          "too near r1>r2: (%g,%g) end (%g,%g)", x.x, x.y, e.x, e.y);
    CHECK(ik_solve2((ik_vec2){ 0.5f, 0 }, 1, 2, NULL, &x, &e) == IK_TOO_NEAR && x.x == -1 && x.y == 0 &&
              e.x == 1 && e.y == 0,
          "too near r1<r2: (%g,%g) end (%g,%g)", x.x, x.y, e.x, e.y);
    /* stretch: the article's x = w p / 2h, and the effector on the target */
    CHECK(ik_solve2((ik_vec2){ 4, 0 }, 1, 1, &(ik_opts){ .stretch = 1 }, &x, &e) == IK_TOO_FAR &&
              x.x == 2 && x.y == 0 && e.x == 4,
          "stretch: (%g,%g) end %g", x.x, x.y, e.x);
    CHECK(strcmp(ik_status_name(IK_TOO_NEAR), "too-near") == 0 && ik_status_parse("reached") == IK_REACHED &&
              ik_status_parse("x") == IK_STATUS_COUNT && strcmp(ik_status_name((ik_status)9), "?") == 0,
          "status names");
}

/* Effector distance as a function of target distance along +x, r1 = 0.7, r2 = 0.5, soften S. */
static double soft_e(double d, float S)
{
    ik_vec2 x, e;
    ik_solve2((ik_vec2){ (float)d, 0 }, 0.7f, 0.5f, &(ik_opts){ .soften = S }, &x, &e);
    return e.x;
}

static void test_soft(void)
{
    const float S = 0.1f;
    const double L = 1.2, s = S * L, start = L - s;
    /* continuity and slope 1 at the start of the zone, by finite differences on both sides */
    double hstep = 1e-3;
    double left = (soft_e(start, S) - soft_e(start - hstep, S)) / hstep;
    double right = (soft_e(start + hstep, S) - soft_e(start, S)) / hstep;
    CHECK(fabs(left - 1) < 1e-3 && fabs(right - 1) < 0.02, "slope at start: %g left, %g right", left, right);
    CHECK(fabs(soft_e(start, S) - start) < 1e-6, "continuity at start: %g vs %g", soft_e(start, S), start);
    /* monotone, never past the target, reaches L at L + s and stays */
    double prev = -1;
    for (int i = 1; i <= 20000; i++) { /* from d > 0: the origin is degenerate */
        double d = 2.0 * L * i / 20000.0;
        double e = soft_e(d, S);
        /* monotone up to the last rounding of e (2 ulps): the scaled frame changes with d */
        CHECK(e >= prev - 2 * EPS * L, "not monotone at d=%g: %.9g < %.9g", d, e, prev);
        /* (below |r1 - r2| = 0.2 the chain cannot fold closer: that is the too-near answer) */
        if (d >= 0.2) CHECK(e <= d + 1e-6 * L, "past the target at d=%g: %g", d, e);
        if (d >= L + s) CHECK(fabs(e - L) < 1e-6, "not fully extended at d=%g: %g", d, e);
        if (d > start + 1e-6 && d < L + s) CHECK(e < d, "soft zone but not softened at d=%g", d);
        prev = e;
    }
    /* the knee does not pop: x's offset from the line shrinks continuously to 0 */
    ik_vec2 x;
    ik_solve2((ik_vec2){ (float)(L + s * 0.99), 0 }, 0.7f, 0.5f, &(ik_opts){ .soften = S }, &x, NULL);
    CHECK(x.y > 0 && x.y < 0.05, "offset near end of soft zone %g", x.y);
}

static void test_batch(long n)
{
    float *px = malloc(n * sizeof *px), *py = malloc(n * sizeof *py), *r1 = malloc(n * sizeof *r1),
          *r2 = malloc(n * sizeof *r2), *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    uint8_t *st = malloc(n);
    for (long i = 0; i < n; i++) {
        kase k = gen();
        px[i] = k.px; py[i] = k.py; r1[i] = k.r1; r2[i] = k.r2;
    }
    /* a few of the awkward ones in the middle, so that they go through the vector lanes */
    px[n / 2] = NAN; r1[n / 2 + 1] = 0; px[n / 2 + 2] = 0; py[n / 2 + 2] = 0; r2[n / 2 + 3] = -1;
    const ik_opts OPTS[] = { { 0 }, { .bend = -1, .stretch = 1 }, { .soften = 0.3f } };
    long mism = 0;
    for (size_t o = 0; o < 3; o++) {
        ik_solve2_batch(n, px, py, r1, r2, &OPTS[o], x, y, st);
        for (long i = 0; i < n; i++) {
            ik_vec2 s;
            ik_status ss = ik_solve2((ik_vec2){ px[i], py[i] }, r1[i], r2[i], &OPTS[o], &s, NULL);
            if (memcmp(&s.x, &x[i], 4) || memcmp(&s.y, &y[i], 4) || ss != st[i]) mism++;
        }
        ik_solve2_batch(n, px, py, r1, r2, &OPTS[o], x, y, NULL);
        for (long i = 0; i < n; i++) {
            ik_vec2 s;
            ik_solve2((ik_vec2){ px[i], py[i] }, r1[i], r2[i], &OPTS[o], &s, NULL);
            if (memcmp(&s.x, &x[i], 4) || memcmp(&s.y, &y[i], 4)) mism++;
        }
    }
    CHECK(mism == 0, "batch differs from scalar in %ld cases", mism);
    printf("batch: %ld cases x 3 option sets, bit-identical to the scalar call\n", n);
    free(px); free(py); free(r1); free(r2); free(x); free(y); free(st);
}

/* ik_solve2's fast path (ik.c: solve2_fast) skips the power-of-two frames where ik.c proves they change
 * no bit: r1, r2 in [2^-12, 2^12], each of p.x, p.y zero or in that range. Cases at the edges of that
 * range and of reach (heron's product at its smallest, |r1 - r2| a few ulps), each held bit for bit
 * against the batch (which always scales) and against ik_solve2 itself on the case scaled by 2^40,
 * far outside the range (which compares the effector too). */
static const float EDGES[] = { 0x1p-12f, 0x1.000002p-12f, 0x1.fffffep-13f, 0x1p12f, 0x1.fffffep11f,
                               0x1.000002p12f, 0x1p-11f, 0x1.fffffep-12f, 0x1p11f };
static float edge_len(void)
{
    if (urand() < 0.4) return EDGES[(int)(urand() * (sizeof EDGES / sizeof EDGES[0]))];
    return (float)ldexp(1.0, -14) * (float)pow(2.0, 28 * urand());
}
static int in_fast_range(float v) { return v == 0 || (fabsf(v) >= 0x1p-12f && fabsf(v) <= 0x1p12f); }

static void test_fast_edges(long n)
{
    float *px = malloc(n * sizeof *px), *py = malloc(n * sizeof *py), *r1 = malloc(n * sizeof *r1),
          *r2 = malloc(n * sizeof *r2), *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    uint8_t *st = malloc(n);
    long inside = 0;
    for (long i = 0; i < n; i++) {
        float a = edge_len(), b;
        double u = urand();
        if (u < 0.3) b = a * (1 + (float)(int)(7 * urand() - 3) * FLT_EPSILON); /* |r1 - r2| tiny */
        else b = edge_len();
        double L = (double)a + b, D = fabs((double)a - b), d;
        int j = (int)(9 * urand()) - 4;
        u = urand();
        if (u < 0.35) d = L * (1 + j * 0x1p-24);      /* at the edge of reach: heron's product tiny */
        else if (u < 0.7) d = D * (1 + j * 0x1p-24); /* at the inner edge */
        else d = edge_len();
        float X, Y;
        u = urand();
        if (u < 0.2) { X = (float)d; Y = 0; }                        /* on an axis: a zero component */
        else if (u < 0.45) {                                         /* a component at the range's edge */
            X = EDGES[(int)(urand() * (sizeof EDGES / sizeof EDGES[0]))];
            Y = (float)sqrt(fmax(d * d - (double)X * X, 0));
        } else {
            double th = 2 * M_PI * urand();
            X = (float)(d * cos(th)); Y = (float)(d * sin(th));
        }
        if (urand() < 0.5) { float t = X; X = Y; Y = t; }
        if (urand() < 0.5) X = -X;
        if (urand() < 0.5) Y = -Y;
        px[i] = X; py[i] = Y;
        r1[i] = urand() < 0.5 ? a : b;
        r2[i] = r1[i] == a ? b : a;
        inside += in_fast_range(X) && in_fast_range(Y) && (X != 0 || Y != 0) && in_fast_range(r1[i]) &&
                  in_fast_range(r2[i]) && r1[i] > 0 && r2[i] > 0;
    }
    const ik_opts OPTS[] = { { 0 }, { .bend = -1 }, { .stretch = 1 }, { .bend = -1, .stretch = 1 } };
    long mism = 0, mism_scaled = 0;
    const float F = 0x1p40f;
    for (size_t o = 0; o < sizeof OPTS / sizeof OPTS[0]; o++) {
        ik_solve2_batch(n, px, py, r1, r2, &OPTS[o], x, y, st);
        for (long i = 0; i < n; i++) {
            ik_vec2 s, e, s2, e2;
            ik_status ss = ik_solve2((ik_vec2){ px[i], py[i] }, r1[i], r2[i], &OPTS[o], &s, &e);
            if (memcmp(&s.x, &x[i], 4) || memcmp(&s.y, &y[i], 4) || ss != st[i]) {
                if (mism++ < 5)
                    fprintf(stderr, "fast edge: p=(%a, %a) r1=%a r2=%a opt %zu: scalar (%a, %a) %d, "
                            "batch (%a, %a) %d\n", px[i], py[i], r1[i], r2[i], o, s.x, s.y, ss, x[i], y[i], st[i]);
            }
            ik_status s2s =
                ik_solve2((ik_vec2){ px[i] * F, py[i] * F }, r1[i] * F, r2[i] * F, &OPTS[o], &s2, &e2);
            if (s2s != ss || s2.x != s.x * F || s2.y != s.y * F || e2.x != e.x * F || e2.y != e.y * F ||
                signbit(s2.x) != signbit(s.x) || signbit(s2.y) != signbit(s.y)) {
                if (mism_scaled++ < 5)
                    fprintf(stderr, "fast edge x 2^40: p=(%a, %a) r1=%a r2=%a opt %zu\n", px[i], py[i], r1[i],
                            r2[i], o);
            }
        }
    }
    /* the inside cases alone, so that every block of the batch's vector fast path (ik.c:
     * batch_fast_avx2, eight at a time) is taken, with and without status */
    long m = 0;
    for (long i = 0; i < n; i++)
        if (in_fast_range(px[i]) && in_fast_range(py[i]) && (px[i] != 0 || py[i] != 0) && in_fast_range(r1[i]) &&
            in_fast_range(r2[i]) && r1[i] > 0 && r2[i] > 0) {
            px[m] = px[i]; py[m] = py[i]; r1[m] = r1[i]; r2[m] = r2[i];
            m++;
        }
    for (size_t o = 0; o < sizeof OPTS / sizeof OPTS[0]; o++)
        for (int with = 0; with < 2; with++) {
            ik_solve2_batch(m, px, py, r1, r2, &OPTS[o], x, y, with ? st : NULL);
            for (long i = 0; i < m; i++) {
                ik_vec2 s;
                ik_status ss = ik_solve2((ik_vec2){ px[i], py[i] }, r1[i], r2[i], &OPTS[o], &s, NULL);
                if (memcmp(&s.x, &x[i], 4) || memcmp(&s.y, &y[i], 4) || (with && ss != st[i])) {
                    if (mism++ < 5)
                        fprintf(stderr, "fast edge, inside only: p=(%a, %a) r1=%a r2=%a opt %zu: scalar (%a, %a) "
                                "%d, batch (%a, %a) %d\n", px[i], py[i], r1[i], r2[i], o, s.x, s.y, ss, x[i],
                                y[i], with ? st[i] : -1);
                }
            }
        }
    CHECK(mism == 0, "fast path vs batch: %ld cases differ", mism);
    CHECK(mism_scaled == 0, "fast path vs the case scaled by 2^40: %ld cases differ", mism_scaled);
    /* the cases must reach both sides of the range's edge, else this tests nothing */
    CHECK(inside > n / 4 && n - inside > n / 10, "%ld of %ld cases in the fast range", inside, n);
    printf("fast path: %ld cases at the edges of its range (%ld inside) x 4 option sets, bit-identical to the "
           "batch and to the case scaled by 2^40\n", n, inside);
    free(px); free(py); free(r1); free(r2); free(x); free(y); free(st);
}

/* The sweep's awkward values through both batch calls, each case against its scalar call, in lanes
 * mixed with ordinary cases. */
static void test_batch_sweep(void)
{
    const float V[] = { 0.0f, -0.0f, 1e-45f, 1e-40f, FLT_MIN, 1e-30f, 0.5f, 1.0f, -1.0f, 3.0f,
                        1e30f, -1e30f, FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN };
    const long nv = sizeof V / sizeof V[0], n = nv * nv * nv * nv;
    float *a[11];
    for (int i = 0; i < 11; i++) a[i] = malloc(n * sizeof(float));
    float *px = a[0], *py = a[1], *pz = a[2], *r1 = a[3], *r2 = a[4], *hx = a[5], *hy = a[6], *hz = a[7],
          *x = a[8], *y = a[9], *z = a[10];
    uint8_t *st = malloc(n);
    for (long i = 0; i < n; i++) {
        long q = i;
        px[i] = V[q % nv]; q /= nv; py[i] = V[q % nv]; q /= nv; r1[i] = V[q % nv]; q /= nv; r2[i] = V[q % nv];
        pz[i] = V[(i * 7) % nv]; hx[i] = V[(i * 5) % nv]; hy[i] = V[(i * 3) % nv]; hz[i] = V[(i * 11) % nv];
        if (i % 3 == 0) { /* an ordinary case between, so the awkward ones sit in every lane */
            kase k = gen();
            px[i] = k.px; py[i] = k.py; r1[i] = k.r1; r2[i] = k.r2; pz[i] = k.px * 0.5f;
            hx[i] = -k.py; hy[i] = k.px; hz[i] = 0.25f;
        }
    }
    const ik_opts OPTS[] = { { 0 }, { .bend = -1, .stretch = 1 }, { .soften = 0.2f } };
    long mism2 = 0, mism3 = 0, nonfinite = 0;
    for (size_t o = 0; o < sizeof OPTS / sizeof OPTS[0]; o++) {
        for (int with = 0; with < 2; with++) {
            ik_solve2_batch(n, px, py, r1, r2, &OPTS[o], x, y, with ? st : NULL);
            for (long i = 0; i < n; i++) {
                ik_vec2 s;
                ik_status ss = ik_solve2((ik_vec2){ px[i], py[i] }, r1[i], r2[i], &OPTS[o], &s, NULL);
                if (memcmp(&s.x, &x[i], 4) || memcmp(&s.y, &y[i], 4) || (with && ss != st[i])) mism2++;
                if (!isfinite(x[i]) || !isfinite(y[i])) nonfinite++;
            }
            for (int shared = 0; shared < 2; shared++) {
                ik_solve3_batch(n, px, py, pz, r1, r2, hx + shared * 7, hy + shared * 7, hz + shared * 7, shared,
                                &OPTS[o], x, y, z, with ? st : NULL);
                for (long i = 0; i < n; i++) {
                    long h = shared ? 7 : i;
                    ik_vec3 s;
                    ik_status ss = ik_solve3((ik_vec3){ px[i], py[i], pz[i] }, r1[i], r2[i],
                                             (ik_vec3){ hx[h], hy[h], hz[h] }, &OPTS[o], &s, NULL);
                    if (memcmp(&s.x, &x[i], 4) || memcmp(&s.y, &y[i], 4) || memcmp(&s.z, &z[i], 4) ||
                        (with && ss != st[i]))
                        mism3++;
                    if (!isfinite(x[i]) || !isfinite(y[i]) || !isfinite(z[i])) nonfinite++;
                }
            }
        }
    }
    CHECK(mism2 == 0, "2D batch differs from ik_solve2 on %ld sweep cases", mism2);
    CHECK(mism3 == 0, "3D batch differs from ik_solve3 on %ld sweep cases", mism3);
    CHECK(nonfinite == 0, "%ld non-finite batch outputs on the sweep", nonfinite);
    printf("batch sweep: %ld cases x 3 option sets, 2D and 3D (pole per case and shared), with and without "
           "status: bit-identical to the scalar calls, all finite\n", n);
    for (int i = 0; i < 11; i++) free(a[i]);
    free(st);
}

/* ---- 3D ------------------------------------------------------------------------------------------ */

static double dot3(ik_vec3 a, ik_vec3 b) { return (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z; }
static ik_vec3 sub3(ik_vec3 a, ik_vec3 b) { return (ik_vec3){ a.x - b.x, a.y - b.y, a.z - b.z }; }
static double len3(ik_vec3 a) { return sqrt(dot3(a, a)); }

static void test_3d(long n)
{
    double worst = 0;
    for (long i = 0; i < n; i++) {
        kase k = gen();
        double zt = urand() * 2 - 1;
        /* rotate the 2D case into 3D: p in a random plane, the pole on the +perp side of that plane */
        double th = 2 * M_PI * urand(), ph = acos(zt);
        double ax[3] = { sin(ph) * cos(th), sin(ph) * sin(th), cos(ph) }; /* the plane's normal */
        double t1[3] = { -ax[1], ax[0], 0 };
        double tl = sqrt(t1[0] * t1[0] + t1[1] * t1[1]);
        if (tl < 1e-3) { t1[0] = 1; t1[1] = 0; tl = 1; }
        for (int j = 0; j < 3; j++) t1[j] /= tl;
        double t2[3] = { ax[1] * t1[2] - ax[2] * t1[1], ax[2] * t1[0] - ax[0] * t1[2], ax[0] * t1[1] - ax[1] * t1[0] };
        ik_vec3 p = { (float)(k.px * t1[0] + k.py * t2[0]), (float)(k.px * t1[1] + k.py * t2[1]),
                      (float)(k.px * t1[2] + k.py * t2[2]) };
        /* pole: perp(p) in that plane, plus some of p */
        double pp[2] = { -k.py + 0.3 * k.px, k.px + 0.3 * k.py };
        ik_vec3 pole = { (float)(pp[0] * t1[0] + pp[1] * t2[0]), (float)(pp[0] * t1[1] + pp[1] * t2[1]),
                         (float)(pp[0] * t1[2] + pp[1] * t2[2]) };
        ik_vec3 x, e, xm;
        ik_status st = ik_solve3(p, k.r1, k.r2, pole, NULL, &x, &e);
        ik_solve3(p, k.r1, k.r2, pole, &(ik_opts){ .bend = -1 }, &xm, NULL);
        double scale = fmax(fmax(len3(p), k.r1), k.r2);
        CHECK(fabs(len3(x) - k.r1) <= 4 * EPS * scale, "3D |x| - r1 = %g", len3(x) - k.r1);
        CHECK(fabs(len3(sub3(x, e)) - k.r2) <= 4 * EPS * scale, "3D |x-end| - r2");
        if (st == IK_REACHED) {
            /* in the plane of 0, p, pole, on the pole's side; the bend flip on the other */
            ik_vec3 nrm = { p.y * pole.z - p.z * pole.y, p.z * pole.x - p.x * pole.z, p.x * pole.y - p.y * pole.x };
            double nl = len3(nrm);
            double off = fabs(dot3(x, nrm)) / nl / (EPS * scale);
            double pd = len3(p);
            double side = dot3(x, pole) - dot3(x, p) * dot3(pole, p) / (pd * pd);
            double sidem = dot3(xm, pole) - dot3(xm, p) * dot3(pole, p) / (pd * pd);
            double b = sqrt(fmax(dot3(x, x) - pow(dot3(x, p) / pd, 2), 0));
            if (off > worst) worst = off;
            CHECK(off <= 8, "3D: x off the plane by %g eps scale", off);
            if (b > 1e-3 * scale) CHECK(side > 0 && sidem < 0, "3D: side %g, mirrored %g", side, sidem);
            /* the 3D answer equals the 2D one mapped into the plane */
            oracle o = solve_oracle(k.px, k.py, k.r1, k.r2, 1, 0);
            double ox = (double)o.x * t1[0] + (double)o.y * t2[0], oy = (double)o.x * t1[1] + (double)o.y * t2[1],
                   oz = (double)o.x * t1[2] + (double)o.y * t2[2];
            double err = sqrt(pow(x.x - ox, 2) + pow(x.y - oy, 2) + pow(x.z - oz, 2)) / (EPS * scale);
            /* p itself was rounded into 3D: its own perturbation adds to the conditioning term */
            double cond = 1 + 1 / fmax((double)o.sin_gamma, 1e-30);
            if (o.st == IK_REACHED && o.margin > 8 * EPS * scale)
                CHECK(err <= 4 * K * cond, "3D vs oracle: %g eps scale, cond %g", err, cond);
        }
    }
    /* a pole parallel to p, or zero: the documented axis fallback */
    ik_vec3 x, x2;
    ik_status st = ik_solve3((ik_vec3){ 0, 1.5f, 0 }, 1, 1, (ik_vec3){ 0, 7, 0 }, NULL, &x, NULL);
    ik_solve3((ik_vec3){ 0, 1.5f, 0 }, 1, 1, (ik_vec3){ 1, 0, 0 }, NULL, &x2, NULL);
    CHECK(st == IK_REACHED && x.x == x2.x && x.y == x2.y && x.z == x2.z && x.x > 0,
          "parallel pole: (%g,%g,%g) vs x-axis pole (%g,%g,%g)", x.x, x.y, x.z, x2.x, x2.y, x2.z);
    ik_solve3((ik_vec3){ 0, 1.5f, 0 }, 1, 1, (ik_vec3){ 0, 0, 0 }, NULL, &x, NULL);
    CHECK(x.x == x2.x && x.y == x2.y && x.z == x2.z, "zero pole");
    ik_solve3((ik_vec3){ 1.5f, 0, 0 }, 1, 1, (ik_vec3){ -3, 0, 0 }, NULL, &x, NULL);
    CHECK(x.y > 0 && x.z == 0, "parallel pole along x falls back to y: (%g,%g,%g)", x.x, x.y, x.z);
    CHECK(ik_solve3((ik_vec3){ 1, 1, 1 }, 1, 1, (ik_vec3){ NAN, 0, 0 }, NULL, &x, NULL) == IK_DEGENERATE,
          "NaN pole is degenerate");
    /* a case in the xy plane with pole perp(p) equals the 2D solve */
    ik_vec2 x2d;
    ik_solve2((ik_vec2){ 0.3f, 0.9f }, 0.8f, 0.6f, NULL, &x2d, NULL);
    ik_solve3((ik_vec3){ 0.3f, 0.9f, 0 }, 0.8f, 0.6f, (ik_vec3){ -0.9f, 0.3f, 0 }, NULL, &x, NULL);
    CHECK(fabsf(x.x - x2d.x) < 2e-7f && fabsf(x.y - x2d.y) < 2e-7f && x.z == 0, "3D in plane vs 2D");
    printf("3D: %ld cases; max distance off the pole plane %.3f eps scale\n", n, worst);
}

/* The 3D batch against ik_solve3, case by case, on the solver tests' cases lifted into 3D with poles
 * of every kind (random, parallel to p, zero), per case and shared, under each kind of options. */
static void test_batch3(long n)
{
    float *a[11];
    for (int i = 0; i < 11; i++) a[i] = malloc(n * sizeof(float));
    float *px = a[0], *py = a[1], *pz = a[2], *r1 = a[3], *r2 = a[4], *hx = a[5], *hy = a[6], *hz = a[7],
          *x = a[8], *y = a[9], *z = a[10];
    uint8_t *st = malloc(n);
    for (long i = 0; i < n; i++) {
        kase k = gen();
        double zt = urand() * 2 - 1;
        px[i] = k.px * (float)sqrt(1 - zt * zt); py[i] = k.py; pz[i] = (float)(zt * hypot(k.px, k.py));
        r1[i] = k.r1; r2[i] = k.r2;
        double u = urand();
        if (u < 0.1) { hx[i] = px[i] * 3; hy[i] = py[i] * 3; hz[i] = pz[i] * 3; } /* parallel: the fallback */
        else if (u < 0.15) { hx[i] = hy[i] = hz[i] = 0; }
        else { hx[i] = (float)(urand() - 0.5); hy[i] = (float)(urand() - 0.5); hz[i] = (float)(urand() - 0.5); }
    }
    px[n / 2] = NAN; r1[n / 2 + 1] = 0; px[n / 2 + 2] = py[n / 2 + 2] = pz[n / 2 + 2] = 0; r2[n / 2 + 3] = -1;
    hz[n / 2 + 4] = INFINITY;
    const ik_opts OPTS[] = { { 0 }, { .bend = -1, .stretch = 1 }, { .soften = 0.3f } };
    long mism = 0, cmp = 0;
    for (size_t o = 0; o < sizeof OPTS / sizeof OPTS[0]; o++)
        for (int with = 0; with < 2; with++)
            for (int shared = 0; shared < 2; shared++) {
                long h0 = n / 3;
                ik_solve3_batch(n, px, py, pz, r1, r2, hx + shared * h0, hy + shared * h0, hz + shared * h0,
                                shared, &OPTS[o], x, y, z, with ? st : NULL);
                for (long i = 0; i < n; i++) {
                    long h = shared ? h0 : i;
                    ik_vec3 s;
                    ik_status ss = ik_solve3((ik_vec3){ px[i], py[i], pz[i] }, r1[i], r2[i],
                                             (ik_vec3){ hx[h], hy[h], hz[h] }, &OPTS[o], &s, NULL);
                    cmp++;
                    if (memcmp(&s.x, &x[i], 4) || memcmp(&s.y, &y[i], 4) || memcmp(&s.z, &z[i], 4) ||
                        (with && ss != st[i])) {
                        if (mism++ < 5)
                            fprintf(stderr, "3D batch: case %ld opt %zu shared %d: scalar (%a,%a,%a) %d, batch "
                                    "(%a,%a,%a) %d\n", i, o, shared, s.x, s.y, s.z, ss, x[i], y[i], z[i],
                                    with ? st[i] : -1);
                    }
                }
            }
    CHECK(mism == 0, "3D batch differs from ik_solve3 in %ld of %ld cases", mism, cmp);
    printf("3D batch: %ld cases x 3 option sets x pole per case and shared x with and without status, "
           "bit-identical to ik_solve3\n", n);
    for (int i = 0; i < 11; i++) free(a[i]);
    free(st);
}

/* A target far smaller than equal bones (r1 = r2, so D = 0 and every |p| > 0 is in reach): the joint
 * stands at the bones' length, nearly across p (its component along p is |p| / 2). Before Heron's second
 * factor moved into p's own frame, h - D^2 underflowed to 0 below |p| ~ 1e-19 r1 and the joint folded
 * onto p (|x| = |p| / 2). Bones from 1e-20 to 1e30, targets down to the smallest denormal; 2D, 3D,
 * the batch. */
static void test_tiny_target(void)
{
    const float R[] = { 1e-20f, 1.0f, 3.0f, 1e20f, 1e30f };
    const float T[] = { 1e-45f, 1e-40f, 1e-30f, 1e-20f, 1e-10f, 1e-5f };
    int n = 0;
    for (size_t a = 0; a < sizeof R / sizeof R[0]; a++)
        for (size_t b = 0; b < sizeof T / sizeof T[0]; b++)
            for (int ang = 0; ang < 8; ang++) {
                float r = R[a], t = T[b] * r;
                if (!(t > 0.0f)) continue;
                double th = 0.7853981633974483 * ang + 0.1;
                float px = (float)(t * cos(th)), py = (float)(t * sin(th));
                if (px == 0.0f && py == 0.0f) continue;
                ik_vec2 x;
                ik_status st = ik_solve2((ik_vec2){ px, py }, r, r, NULL, &x, NULL);
                double d = hypot(px, py), len = hypot(x.x, x.y), along = ((double)x.x * px + (double)x.y * py) / d;
                CHECK(st == IK_REACHED && fabs(len - r) <= 4 * EPS * r && fabs(along - d / 2) <= 4 * EPS * r,
                      "p=(%g,%g) r1=r2=%g: %s, |x| = %.9g, along p %.9g (want r1 and |p|/2)", px, py, r,
                      ik_status_name(st), len, along);
                float bx, by;
                ik_solve2_batch(1, &px, &py, &r, &r, NULL, &bx, &by, NULL);
                CHECK(bx == x.x && by == x.y, "batch differs at p=(%g,%g) r=%g", px, py, r);
                ik_vec3 x3;
                ik_status s3 = ik_solve3((ik_vec3){ px, py, 0 }, r, r, (ik_vec3){ -py, px, 0 }, NULL, &x3, NULL);
                double len3 = sqrt((double)x3.x * x3.x + (double)x3.y * x3.y + (double)x3.z * x3.z);
                CHECK(s3 == IK_REACHED && fabs(len3 - r) <= 4 * EPS * r, "3D p=(%g,%g) r=%g: %s, |x| = %.9g", px,
                      py, r, ik_status_name(s3), len3);
                n++;
            }
    printf("tiny targets: %d cases, |p| from 1e-45 r1 to 1e-5 r1 with r1 = r2: the joint at r1, across p\n", n);
}

/* The effector of a target reached without softening is p itself, bit for bit (ik.h), and p with
 * stretch whatever the target: in 2D through the fast path and, scaled by powers of two far outside
 * its range, through the general one; with soften when the target lies before the soft zone; in 3D.
 * Before the fix it was E u with u = p / |p|, a rounding off p in about 4 reached cases in 10. */
static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }
static void test_end_on_target(long n)
{
    const float SH[] = { 1.0f, 0x1p-40f, 0x1p40f, 0x1p-100f, 0x1p90f };
    const ik_opts OPTS[] = { { 0 }, { .bend = -1 }, { .stretch = 1 }, { .soften = 0.3f },
                             { .stretch = 1, .soften = 0.3f } };
    long tried = 0, reached = 0, off2 = 0, off3 = 0;
    for (long i = 0; i < n; i++) {
        kase k = gen();
        float f = SH[i % (sizeof SH / sizeof SH[0])];
        const ik_opts *o = &OPTS[(i / 5) % (sizeof OPTS / sizeof OPTS[0])];
        ik_vec2 p = { k.px * f, k.py * f }, x, e;
        float r1 = k.r1 * f, r2 = k.r2 * f;
        ik_status st = ik_solve2(p, r1, r2, o, &x, &e);
        /* before the soft zone by a margin: (1 - S) L - d well above the roundings of d and L */
        double d = hypot(p.x, p.y), L = (double)r1 + r2;
        int unsoftened = o->soften == 0 || d < (1 - o->soften) * L * (1 - 1e-5);
        int want = st != IK_DEGENERATE && (o->stretch || (st == IK_REACHED && unsoftened));
        if (!want) continue;
        tried++;
        reached += st == IK_REACHED;
        if (!same_bits(e.x, p.x) || !same_bits(e.y, p.y)) {
            if (off2++ < 5)
                fprintf(stderr, "end != p: p=(%a, %a) r1=%a r2=%a opts %ld: %s, end (%a, %a)\n", p.x, p.y, r1,
                        r2, (i / 5) % 5, ik_status_name(st), e.x, e.y);
        }
        /* 3D: the same case in a tilted plane, a pole off p */
        ik_vec3 p3 = { p.x, p.y * 0.6f, p.y * 0.8f }, x3, e3;
        ik_status s3 = ik_solve3(p3, r1, r2, (ik_vec3){ -p.y, p.x, 0.25f * f }, o, &x3, &e3);
        if ((o->stretch || (s3 == IK_REACHED && unsoftened)) && s3 != IK_DEGENERATE &&
            (!same_bits(e3.x, p3.x) || !same_bits(e3.y, p3.y) || !same_bits(e3.z, p3.z))) {
            if (off3++ < 5)
                fprintf(stderr, "3D end != p: p=(%a, %a, %a) r1=%a r2=%a: %s, end (%a, %a, %a)\n", p3.x, p3.y,
                        p3.z, r1, r2, ik_status_name(s3), e3.x, e3.y, e3.z);
        }
    }
    CHECK(off2 == 0, "2D: end differs from p in %ld of %ld cases reached unsoftened or stretched", off2, tried);
    CHECK(off3 == 0, "3D: end differs from p in %ld cases reached unsoftened or stretched", off3);
    CHECK(reached > n / 10, "only %ld reached cases of %ld: the test would test little", reached, n);
    /* the client's case, and the documented too-far effector beside it */
    ik_vec2 x, e;
    ik_solve2((ik_vec2){ 1, 1 }, 1, 1, NULL, &x, &e);
    CHECK(e.x == 1 && e.y == 1, "p=(1,1) r1=r2=1: end (%.9g, %.9g)", e.x, e.y);
    printf("end on target: %ld cases reached unsoftened or stretched (%ld reached), 2D and 3D, over 2^-100..2^90 "
           "scales: end == p bit for bit\n", tried, reached);
}

/* ---- the whole float range ------------------------------------------------------------------------ */

/* One case anywhere in float's range, 2D and 3D, against what ik.h documents, each measured on the
 * scale of what it is about:
 * - an answer along u (out of reach without stretch; with soften, fully extended at d >= L + s): the
 *   bones keep their lengths, x = +-r1 u and end = L u or D u, to 4 eps of r1 (of L, D), whatever |p|
 *   (a length 1e-20 beside a target at 1 or a bone of 1e30 must not vanish in the other's frame);
 * - a joint in reach (of p, or of the softened target dt): |x| = r1 and |x - end| = r2 to 4 eps of
 *   max(dt, r1, r2); unsoftened, the oracle's bound K (1 + 1/sin gamma) eps max(|p|, r1, r2) too;
 * - the status of p itself (either one within rounding of an edge of reach).
 * Results may be subnormal: SLACK is two roundings there. Returns the largest error seen, in those
 * units, through *worst_along and *worst_geom. */
static const long double SLACK = 0x1p-148L;
typedef struct { long along, geom, soft_part, soft_full; double worst_along, worst_geom, worst_soft; } range_stats;

static void range_case(float px, float py, float r1, float r2, const ik_opts *o, range_stats *rs)
{
    const long double eps = FLT_EPSILON;
    ik_vec2 x, e;
    ik_status st = ik_solve2((ik_vec2){ px, py }, r1, r2, o, &x, &e);
    ik_vec3 x3, e3;
    ik_status s3 = ik_solve3((ik_vec3){ px, 0, py }, r1, r2, (ik_vec3){ -py, 0.5f, px }, o, &x3, &e3);
    CHECK(finite2(x) && finite2(e) && isfinite(x3.x) && isfinite(x3.y) && isfinite(x3.z) && isfinite(e3.x) &&
              isfinite(e3.y) && isfinite(e3.z),
          "non-finite output at p=(%a, %a) r1=%a r2=%a", px, py, r1, r2);
    long double X = px, Y = py, d = hypotl(X, Y), R1 = r1, R2 = r2, L = R1 + R2, D = fabsl(R1 - R2);
    if (d == 0 || !(r1 > 0) || !(r2 > 0)) return; /* degenerate: test_range_degenerate */
    long double ux = X / d, uy = Y / d;
    ik_status want = d > L ? IK_TOO_FAR : d < D ? IK_TOO_NEAR : IK_REACHED;
    long double scale = fmaxl(d, fmaxl(R1, R2));
    int edge = fminl(fabsl(d - L), fabsl(d - D)) <= 4 * eps * scale;
    CHECK((st == want && s3 == want) || edge, "p=(%a, %a) r1=%a r2=%a: %s (3D %s), want %s", px, py, r1, r2,
          ik_status_name(st), ik_status_name(s3), ik_status_name(want));
    if (o->stretch || edge) return; /* the article's stretch: tested on its own scale in test_oracle */
    /* the softened distance, in long double */
    long double S = o->soften > 1 ? 1 : o->soften > 0 ? o->soften : 0, sz = S * L, dt = d;
    int soft = sz > 0 && d > L - sz, full = 0;
    if (soft) {
        long double t = (d - L + sz) / (2 * sz);
        if (t >= 1) { t = 1; full = 1; }
        dt = L - sz * (1 - t) * (1 - t);
    }
    /* within rounding of an edge of reach of dt, or of the zone's end (fully extended or not), either
     * answer is right */
    if (soft && !full && fminl(fabsl(dt - L), fabsl(dt - D)) <= 4 * eps * fmaxl(dt, fmaxl(R1, R2))) return;
    if (soft && fabsl(d - (L + sz)) <= 4 * eps * scale) return;
    rs->soft_part += soft && !full;
    rs->soft_full += full;
    if (full || dt > L || dt < D) {
        /* along u: x = +-r1 u, end = L u or D u, on the scale of r1 (L, D) alone */
        long double a = (!full && dt < D && R1 < R2) ? -R1 : R1, E = (full || dt > L) ? L : D;
        long double ex = a * ux, ey = a * uy;
        double err = (double)(hypotl(x.x - ex, x.y - ey) / (eps * R1 + SLACK));
        double err3 = (double)(sqrtl(powl(x3.x - ex, 2) + powl(x3.y, 2) + powl(x3.z - ey, 2)) / (eps * R1 + SLACK));
        long double E2 = E > FLT_MAX ? FLT_MAX : E; /* saturated (ik.h) */
        double eerr = (double)(hypotl(e.x - E * ux, e.y - E * uy) / (eps * E + SLACK));
        double eerr3 = (double)(sqrtl(powl(e3.x - E * ux, 2) + powl(e3.y, 2) + powl(e3.z - E * uy, 2)) / (eps * E + SLACK));
        if (E > FLT_MAX) {
            /* saturated: each component at most FLT_MAX, on u's side */
            eerr = eerr3 = (fabsl(e.x) <= E2 && fabsl(e.y) <= E2 && e.x * ux >= 0 && e.y * uy >= 0) ? 0 : 1e9;
        }
        rs->along++;
        if (err > rs->worst_along) rs->worst_along = err;
        if (err3 > rs->worst_along) rs->worst_along = err3;
        CHECK(err <= 4 && err3 <= 4, "p=(%a, %a) r1=%a r2=%a soften %g: x=(%a, %a) (3D %a, %a, %a), want %s r1 u: "
              "off by %.3g (3D %.3g) eps r1", px, py, r1, r2, (double)S, x.x, x.y, x3.x, x3.y, x3.z,
              a < 0 ? "-" : "", err, err3);
        CHECK(eerr <= 4 && eerr3 <= 4, "p=(%a, %a) r1=%a r2=%a soften %g: end=(%a, %a) (3D %a, %a, %a), want %s u: "
              "off by %.3g (3D %.3g) eps", px, py, r1, r2, (double)S, e.x, e.y, e3.x, e3.y, e3.z,
              E == L ? "L" : "D", eerr, eerr3);
        return;
    }
    /* a joint in reach of dt */
    long double sc = fmaxl(dt, fmaxl(R1, R2)), unit = eps * sc + SLACK;
    double l1 = (double)(fabsl(hypotl(x.x, x.y) - R1) / unit);
    double l2 = (double)(fabsl(hypotl(x.x - e.x, x.y - e.y) - R2) / unit);
    double l13 = (double)(fabsl(sqrtl(powl(x3.x, 2) + powl(x3.y, 2) + powl(x3.z, 2)) - R1) / unit);
    double l23 = (double)(fabsl(sqrtl(powl(x3.x - e3.x, 2) + powl(x3.y - e3.y, 2) + powl(x3.z - e3.z, 2)) - R2) / unit);
    double w = fmax(fmax(l1, l2), fmax(l13, l23));
    rs->geom++;
    if (w > rs->worst_geom) rs->worst_geom = w;
    CHECK(w <= 4, "p=(%a, %a) r1=%a r2=%a soften %g: | |x| - r1 |, | |x - end| - r2 | = %.3g, %.3g (3D %.3g, "
          "%.3g) eps max(dt, r1, r2)", px, py, r1, r2, (double)S, l1, l2, l13, l23);
    if (!soft) {
        oracle or = solve_oracle(px, py, r1, r2, o->bend < 0 ? -1 : 1, 0);
        double cond = 1 + 1 / (double)fmaxl(or.sin_gamma, 1e-30L);
        double err = (double)(hypotl(x.x - or.x, x.y - or.y) / unit) / cond;
        CHECK(err <= K, "p=(%a, %a) r1=%a r2=%a: err %.3g eps scale (1 + 1/sin gamma) > %g", px, py, r1, r2, err, K);
    } else {
        /* the triangle (r1, r2, dt) along u, in long double; dt itself is a few roundings off, which
         * moves the joint by as many eps dt / sin gamma: the same form of bound */
        long double a = (dt * dt + R1 * R1 - R2 * R2) / (2 * dt), b = sqrtl(fmaxl(R1 * R1 - a * a, 0));
        if (o->bend < 0) b = -b;
        long double ox = a * ux - b * uy, oy = a * uy + b * ux;
        double cond = 1 + 1 / (double)fmaxl(dt * fabsl(b) / (R1 * R2), 1e-30L); /* sin gamma = dt |b| / (r1 r2) */
        double err = (double)(hypotl(x.x - ox, x.y - oy) / unit) / cond;
        double eerr = (double)(hypotl(e.x - dt * ux, e.y - dt * uy) / unit);
        if (err > rs->worst_soft) rs->worst_soft = err;
        CHECK(err <= K && eerr <= 4, "p=(%a, %a) r1=%a r2=%a soften %g: err %.3g eps scale (1 + 1/sin gamma) > %g, "
              "or end off dt u by %.3g eps scale", px, py, r1, r2, (double)S, err, K, eerr);
    }
}

/* log-uniform over every float exponent, subnormals included */
static float any_float(void) { return (float)ldexp(1 + urand(), (int)(urand() * 277) - 150); }

static void test_whole_range(long n)
{
    const ik_opts OPTS[] = { { 0 }, { .bend = -1 }, { .stretch = 1 }, { .soften = 0.2f }, { .soften = 1 },
                             { .soften = 1e-3f, .bend = -1 } };
    const int no = sizeof OPTS / sizeof OPTS[0];
    range_stats rs = { 0 };
    /* a grid of magnitudes from the smallest subnormal to FLT_MAX for r1, r2 and |p| */
    const float V[] = { 0x1p-149f, 1e-40f, FLT_MIN, 1e-30f, 1e-20f, 1e-7f, 0.75f, 1.0f, 3.0f, 1e7f, 1e20f,
                        1e30f, 0x1p126f, FLT_MAX };
    const int nv = sizeof V / sizeof V[0];
    for (int a = 0; a < nv; a++)
        for (int b = 0; b < nv; b++)
            for (int c = 0; c < nv; c++)
                for (int ang = 0; ang < 3; ang++) {
                    double th = 0.3 + 2.1 * ang;
                    float px = (float)(V[c] * cos(th) * 0.7), py = (float)(V[c] * sin(th) * 0.7);
                    if (ang == 2) { px = 0; py = V[c]; } /* on an axis */
                    for (int k = 0; k < no; k++) range_case(px, py, V[a], V[b], &OPTS[k], &rs);
                }
    /* random cases: lengths anywhere, targets anywhere or at the edges of reach and of the soft zone */
    for (long i = 0; i < n; i++) {
        float r1 = any_float(), r2 = any_float();
        if (urand() < 0.4) r2 = (float)ldexp(r1 * (1 + urand()), (int)(urand() * 7) - 4); /* comparable */
        double L = (double)r1 + r2, D = fabs((double)r1 - r2), u = urand(), d;
        double rel = ldexp(urand(), -(int)(urand() * 24));
        if (urand() < 0.5) rel = -rel;
        if (u < 0.4) d = any_float();
        else if (u < 0.6) d = L * (1 + rel);
        else if (u < 0.8) d = D * (1 + rel);
        else d = L * (1.2 + rel); /* the soft zone's end for soften 0.2 */
        d = fmin(d, FLT_MAX);
        double th = 2 * M_PI * urand();
        float px = (float)(d * cos(th)), py = (float)(d * sin(th));
        range_case(px, py, r1, r2, &OPTS[i % no], &rs);
    }
    printf("whole range: %d grid cases and %ld random ones, r1, r2, |p| from 2^-149 to FLT_MAX: %ld answers along "
           "u within %.3f eps r1 (bound 4), %ld joints in reach with lengths within %.3f eps scale (bound 4); "
           "%ld in the soft zone (max err %.3f eps scale (1 + 1/sin gamma), bound %g), %ld fully extended by it\n",
           nv * nv * nv * 3 * no, n, rs.along, rs.worst_along, rs.geom, rs.worst_geom, rs.soft_part, rs.worst_soft, K,
           rs.soft_full);
    CHECK(rs.soft_part > n / 50 && rs.soft_full > n / 50, "soft zone: %ld cases in it, %ld past it: too few to test",
          rs.soft_part, rs.soft_full);
}

/* The degenerate answers of ik.h over the whole range: p at the origin -> x = (r1, 0) exactly;
 * r2 = 0 -> r1 towards p; r1 = 0 -> 0. */
static void test_range_degenerate(void)
{
    const float V[] = { 0x1p-149f, 1e-40f, FLT_MIN, 1e-30f, 1e-7f, 1.0f, 1e7f, 1e30f, FLT_MAX };
    const int nv = sizeof V / sizeof V[0];
    const ik_opts OPTS[] = { { 0 }, { .stretch = 1 }, { .soften = 0.5f } };
    long n = 0;
    for (int a = 0; a < nv; a++)
        for (int b = 0; b < nv; b++)
            for (size_t k = 0; k < sizeof OPTS / sizeof OPTS[0]; k++) {
                ik_vec2 x, e;
                ik_vec3 x3;
                ik_status st = ik_solve2((ik_vec2){ 0, 0 }, V[a], V[b], &OPTS[k], &x, &e);
                ik_status s3 = ik_solve3((ik_vec3){ 0, 0, 0 }, V[a], V[b], (ik_vec3){ 0, 1, 0 }, &OPTS[k], &x3, NULL);
                CHECK(st == IK_DEGENERATE && x.x == V[a] && x.y == 0 && e.x == x.x && e.y == x.y,
                      "p=0 r1=%a r2=%a: x=(%a, %a), want (r1, 0)", V[a], V[b], x.x, x.y);
                CHECK(s3 == IK_DEGENERATE && x3.x == V[a] && x3.y == 0 && x3.z == 0,
                      "3D p=0 r1=%a r2=%a: x=(%a, %a, %a), want (r1, 0, 0)", V[a], V[b], x3.x, x3.y, x3.z);
                /* r2 = 0: r1 towards p, p of any size */
                float px = V[b] * 0.6f, py = V[b] * 0.8f;
                if (px == 0 && py == 0) py = V[b];
                ik_solve2((ik_vec2){ px, py }, V[a], 0, &OPTS[k], &x, NULL);
                long double d = hypotl(px, py), ex = V[a] * (px / d), ey = V[a] * (py / d);
                double err = (double)(hypotl(x.x - ex, x.y - ey) / (FLT_EPSILON * (long double)V[a] + SLACK));
                CHECK(err <= 4, "r2=0 p=(%a, %a) r1=%a: x=(%a, %a), off r1 u by %.3g eps r1", px, py, V[a], x.x, x.y,
                      err);
                ik_solve2((ik_vec2){ px, py }, 0, V[a], &OPTS[k], &x, NULL);
                CHECK(x.x == 0 && x.y == 0, "r1=0: x=(%a, %a)", x.x, x.y);
                n += 3;
            }
    /* the client's two cases */
    ik_vec2 x;
    ik_solve2((ik_vec2){ 0, 0 }, 1e-7f, FLT_MAX, NULL, &x, NULL);
    CHECK(x.x == 1e-7f && x.y == 0, "p=0 r1=1e-7 r2=FLT_MAX: x=(%.9g, %.9g), want (1e-7, 0)", x.x, x.y);
    ik_status st = ik_solve2((ik_vec2){ 0, 1 }, 1e-20f, 1e30f, NULL, &x, NULL);
    CHECK(st == IK_TOO_NEAR && x.x == 0 && x.y == -1e-20f, "p=(0,1) r1=1e-20 r2=1e30: %s x=(%.9g, %.9g), want "
          "too-near (0, -1e-20)", ik_status_name(st), x.x, x.y);
    printf("degenerate over the whole range: %ld cases, x = (r1, 0) at the origin, r1 u when r2 = 0, 0 when r1 = 0\n", n);
}

/* Soft IK far from the lengths' scale (ik.h: soften keeps every guarantee): the client's cases, a
 * target far beyond the reach is fully extended (x = r1 u, end = L u), and soften 1, whose zone starts
 * at 0, on targets far below equal bones: softened to dt = d (1 - d / 4L) ~ d, the joint still at r1,
 * across p (its component along p is dt / 2). Softened distances were taken in the frame of the
 * largest input, where L^2 underflowed (p=(0,1e25), r1=1, r2=0.5 gave x=(0, 0.75)). */
static void test_soft_range(void)
{
    ik_vec2 x, e;
    ik_status st = ik_solve2((ik_vec2){ 0, 1e25f }, 1, 0.5f, &(ik_opts){ .soften = 0.2f }, &x, &e);
    CHECK(st == IK_TOO_FAR && x.x == 0 && x.y == 1 && e.x == 0 && e.y == 1.5f,
          "p=(0,1e25) r1=1 r2=0.5 soften 0.2: %s x=(%.9g, %.9g) end=(%.9g, %.9g), want too-far (0,1) (0,1.5)",
          ik_status_name(st), x.x, x.y, e.x, e.y);
    st = ik_solve2((ik_vec2){ 1, 0 }, 1e-22f, 5e-23f, &(ik_opts){ .soften = 0.2f }, &x, &e);
    CHECK(st == IK_TOO_FAR && x.x == 1e-22f && x.y == 0 && fabsf(e.x - 1.5e-22f) <= 1.5e-22f * FLT_EPSILON,
          "p=(1,0) r1=1e-22 r2=5e-23 soften 0.2: %s x=(%.9g, %.9g) end %.9g, want (1e-22, 0), 1.5e-22",
          ik_status_name(st), x.x, x.y, e.x);
    int n = 0;
    /* every binade of a target beyond bones 0.7 2^k, 0.5 2^k */
    for (int k = -140; k <= 120; k += 20)
        for (int j = k + 1; j <= 127; j++) {
            float r1 = ldexpf(0.7f, k), r2 = ldexpf(0.5f, k), px = ldexpf(0.6f, j), py = ldexpf(-0.8f, j);
            double d = hypot(px, py), L = (double)r1 + r2;
            if (d < L * 1.21) continue; /* past the zone's end for soften 0.2 */
            ik_vec3 x3, e3;
            ik_solve2((ik_vec2){ px, py }, r1, r2, &(ik_opts){ .soften = 0.2f }, &x, &e);
            ik_solve3((ik_vec3){ px, py, 0 }, r1, r2, (ik_vec3){ 0, 0, 1 }, &(ik_opts){ .soften = 0.2f }, &x3, &e3);
            double ex = r1 * (px / d), ey = r1 * (py / d), u = FLT_EPSILON * r1 + 0x1p-148;
            double err = hypot(x.x - ex, x.y - ey) / u, err3 = sqrt(pow(x3.x - ex, 2) + pow(x3.y - ey, 2) + pow(x3.z, 2)) / u;
            double eerr = hypot(e.x - L / r1 * ex, e.y - L / r1 * ey) / (FLT_EPSILON * L + 0x1p-148);
            CHECK(err <= 4 && err3 <= 4 && eerr <= 4, "soften 0.2, p=(%a, %a) r1=%a r2=%a: x=(%a, %a) (3D %a, %a, %a) "
                  "end=(%a, %a): want r1 u and L u", px, py, r1, r2, x.x, x.y, x3.x, x3.y, x3.z, e.x, e.y);
            n++;
        }
    /* soften 1 on targets far below equal bones */
    const float R[] = { 1e-30f, 1.0f, 1e30f };
    for (size_t a = 0; a < sizeof R / sizeof R[0]; a++)
        for (int j = 1; j <= 140; j += 3) {
            float r = R[a], px = r * ldexpf(0.6f, -j), py = r * ldexpf(0.8f, -j);
            if (px == 0 && py == 0) continue;
            ik_vec3 x3;
            st = ik_solve2((ik_vec2){ px, py }, r, r, &(ik_opts){ .soften = 1 }, &x, &e);
            ik_status s3 = ik_solve3((ik_vec3){ px, py, 0 }, r, r, (ik_vec3){ -py, px, 0 }, &(ik_opts){ .soften = 1 },
                                     &x3, NULL);
            double d = hypot(px, py), dt = d * (1 - d / (8.0 * r)), along = ((double)x.x * px + (double)x.y * py) / d;
            double len = hypot(x.x, x.y), len3 = sqrt((double)x3.x * x3.x + (double)x3.y * x3.y + (double)x3.z * x3.z);
            double unit = FLT_EPSILON * r;
            CHECK(st == IK_REACHED && s3 == IK_REACHED && fabs(len - r) <= 4 * unit && fabs(len3 - r) <= 4 * unit &&
                      fabs(along - dt / 2) <= 4 * unit && fabs(hypot(e.x, e.y) - dt) <= 4 * FLT_EPSILON * dt + 0x1p-148,
                  "soften 1, p=(%a, %a) r1=r2=%a: %s, |x| = %.9g (3D %.9g), along p %.9g, |end| %.9g (want r1, "
                  "dt/2 = %.9g, dt)", px, py, r, ik_status_name(st), len, len3, along, hypot(e.x, e.y), dt / 2);
            n++;
        }
    printf("soft range: %d cases, targets far beyond the reach fully extended at r1 u, L u; soften 1 on targets "
           "down to 2^-140 of the bones, the joint at r1 across p\n", n);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    test_documented_answers();
    test_oracle(n);
    double raw = raw_article_worst(n / 4);
    printf("the article's raw 4 r1^2 h - w^2 on the same kind of cases: max normalised error %.3g "
           "(bound %g): the bound tells the two apart\n", raw, K);
    CHECK(raw > 10 * K, "the raw discriminant should fail the bound, got %g", raw);
    test_properties(n / 4);
    test_nonfinite_sweep();
    test_tiny_target();
    test_end_on_target(n / 4);
    test_whole_range(n / 4);
    test_range_degenerate();
    test_soft_range();
    test_soft();
    test_batch(n / 4 + 3);
    test_fast_edges(n / 4);
    test_batch_sweep();
    test_3d(n / 4);
    test_batch3(n / 4 + 5);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
