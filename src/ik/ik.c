/* ik.c: the two-bone solver. What it does is documented in ik.h; this file says how and why.
 *
 * Not here: anything GL, any I/O.
 *
 * Twins. shaders/ik.glsl is this file in GLSL: its functions are defined here under the same names
 * and in the same order (ik_scale_for ... ik_core, ik_sat, ikSolve2, ikSolve3), so that the two read
 * side by side and a change to one shows where the other needs it. A function with no twin is
 * marked by a comment starting "C only:" here, "GLSL only:" there, which covers the definitions up to
 * the next blank line between functions; one whose twin has another name (the public entry points,
 * in each language's style) by "GLSL twin: NAME". tests/test_twins.sh holds the two to this, and to
 * one set of status numbers.
 *
 * Accuracy. Everything is computed in float, in a frame scaled by a power of two so that the largest
 * input is in [1, 4): squares never overflow or underflow, and scaling back is exact. The offset of x
 * from the line 0 -> p is Heron's formula on the triangle (r1, r2, d) with d = |p| taken by one square
 * root, b = sqrt((L - d)(d - D)(d + D)(d + L)) / (2d), L = r1 + r2, D = |r1 - r2|: each factor is one
 * rounding away from exact inputs, so near either edge of reach the error is that of perturbing the
 * inputs by an ulp, which is the problem's own conditioning (it grows as 1/sin of the knee angle). The
 * article's 4 r1^2 h - w^2 loses up to a further factor r1/r2 (or r2/r1) to cancellation there.
 *
 * Speed. ik_core() and ikSolve2() are branch-free (selects only) so that ik_solve2_batch() vectorises;
 * build with -fno-math-errno (sqrtf must not set errno), -fno-trapping-math (a float compare may then
 * be if-converted: we never rely on FP exceptions) and -ffp-contract=off (so the batch and the scalar
 * call round identically: no FMA in one and not the other).
 */
#include "ikshade/ik.h"

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <string.h>

/* ---- status names ------------------------------------------------------------------------------ */

/* The status numbers are IK_STATUS_LIST's order; ik.glsl spells them as #defines, which
 * tests/test_twins.sh holds to that list. The names are for printing and parsing on the CPU
 * (`ikshade solve`): a shader has only the numbers. */
static const char *const STATUS_NAMES[] = {
#define IK_NAME_(e, s) s,
    IK_STATUS_LIST(IK_NAME_)
#undef IK_NAME_
};

/* C only: see STATUS_NAMES. */
const char *ik_status_name(ik_status s)
{
    return (unsigned)s < IK_STATUS_COUNT ? STATUS_NAMES[s] : "?";
}

/* C only: see STATUS_NAMES. */
ik_status ik_status_parse(const char *name)
{
    for (int i = 0; i < IK_STATUS_COUNT; i++)
        if (strcmp(name, STATUS_NAMES[i]) == 0) return (ik_status)i;
    return IK_STATUS_COUNT;
}

/* ---- float helpers that vectorise and survive -ffast-math -------------------------------------- */

/* C only: GLSL has these built in (floatBitsToUint, uintBitsToFloat, ?:, max, min, abs) and no
 * vectoriser to please. Ours are written so that the batch loop vectorises under GCC. */
static inline uint32_t bits(float v) { uint32_t u; memcpy(&u, &v, sizeof u); return u; }
static inline float from_bits(uint32_t u) { float v; memcpy(&v, &u, sizeof v); return v; }
/* c ? a : b as pure data flow: a ternary here can be turned into branches that the vectoriser
 * cannot turn back (GCC 12 gives up on joins of more than four arms). ik.glsl writes ?: where this
 * file writes sel(). */
static inline float sel(bool c, float a, float b)
{
    uint32_t m = (uint32_t)0 - (uint32_t)c;
    return from_bits((bits(a) & m) | (bits(b) & ~m));
}
static inline float max_f(float a, float b) { return a > b ? a : b; }
static inline float min_f(float a, float b) { return a < b ? a : b; }
static inline float abs_f(float v) { return from_bits(bits(v) & 0x7fffffffu); }

/* ---- the twins of ik.glsl, in its order -------------------------------------------------------- */

/* Power of two s with m*s in [1, 4) for normal m (denormal m lands lower, still far from underflow
 * trouble); 1/s is a normal float too, so both multiplications are exact. Both languages read and
 * write the exponent field rather than call frexp/ldexp: here those are libm calls, which would stop
 * the batch loop vectorising, and the bit arithmetic is integer work that gives the same power of two
 * on the GPU as on the CPU. */
static inline float ik_scale_for(float m)
{
    int e = (int)((bits(m) >> 23) & 0xffu);
    int se = 254 - e;
    se = se < 1 ? 1 : se;
    se = se > 253 ? 253 : se;
    return from_bits((uint32_t)se << 23);
}
static inline float ik_unscale_for(float s)
{
    return from_bits((uint32_t)(254 - (int)(bits(s) >> 23)) << 23);
}

/* s / sp for scales from ik_scale_for(), s for the larger magnitude: 2^k <= 1, held at 2^-126 or
 * more (|p| is then negligible against the lengths, and stays a normal positive number). *inverse
 * gets 2^-k, so that 1/d comes from 1/|p| without a second division, rounded identically. */
static inline float ik_ratio_of(float s, float sp, float *inverse)
{
    int re = (int)(bits(s) >> 23) - (int)(bits(sp) >> 23) + 127;
    re = re < 1 ? 1 : re;
    *inverse = from_bits((uint32_t)(254 - re) << 23);
    return from_bits((uint32_t)re << 23);
}

/* Not NaN and not +-Inf: v - v is 0 for finite v and NaN otherwise. Needs IEEE semantics, so this
 * file must never be built with -ffinite-math-only (or -ffast-math); with the flags above it has them.
 * The twins differ here on purpose: GLSL promises no IEEE arithmetic (a shader compiler may fold
 * v - v to 0 unless it is `precise`), so ik.glsl asks isnan() and isinf(), whose meaning it must keep. */
static inline bool ik_finite(float v) { return v - v == 0.0f; }

/* In the scaled frame: d = |p| (> 0 unless degenerate), R1, R2 the lengths. Gives the joint's
 * coordinates along u = p/d (A) and along the bend side (B, before the bend sign), the effector's
 * distance along u (E; equal to d when the target is reached unsoftened), and the status of
 * the target as a float (the enum's value) so that every select has one lane width. `ok` false means
 * degenerate inputs: then the outputs are the documented ones. The twin has no soft_on: every caller
 * passes soften > 0 for it, which ik.glsl tests itself; here it is a separate flag so that it can be a
 * constant in each batch variant. */
static inline __attribute__((always_inline)) float
ik_core(float d, float inv_d, float R1, float R2, bool ok, bool stretch, bool soft_on, float soften,
        float *A, float *B, float *E)
{
    float L = R1 + R2;
    float D = abs_f(R1 - R2);

    /* soft IK: pull the effective target distance dt in, Spine's quadratic. soft_on is a constant in
     * each caller's loop, so the common case pays none of this. */
    float dt = d, inv = inv_d;
    if (soft_on) {
        float s = soften * L;
        float sd = d - (L - s);
        bool soft = (s > 0.0f) & (sd > 0.0f);
        float t = min_f(sd / sel(soft, 2.0f * s, 1.0f), 1.0f);
        float q = 1.0f - t;
        dt = sel(soft, L - s * q * q, d);
        inv = sel(soft, 1.0f / sel(dt > 0.0f, dt, 1.0f), inv_d);
    }

    /* geometry on the effective distance */
    float heron = max_f((L - dt) * (dt - D) * (dt + D) * (dt + L), 0.0f);
    float a = 0.5f * (dt + (R1 - R2) * L * inv);
    float b = 0.5f * sqrtf(heron) * inv;

    /* 2^64 in the scaled frame is far past anything meaningful; keeps the stretch answer finite.
     * (ik.glsl writes it in decimal: GLSL has no hex float literals.) */
    float a_str = min_f(max_f(a, -0x1p64f), 0x1p64f);
    float fold = sel(R1 > R2, R1, -R1);
    bool far = dt > L, near = dt < D;
    float a_out = sel(near, sel(stretch, a_str, fold), a);
    a_out = sel(far, sel(stretch, a_str, R1), a_out);
    float b_out = sel(far | near, 0.0f, b);

    *A = sel(ok, a_out, max_f(R1, 0.0f));
    *B = sel(ok, b_out, 0.0f);
    /* the effector: on the target when stretching, else where the chain can get, D <= E <= L */
    *E = sel(stretch, d, max_f(min_f(dt, L), D));
    float status = sel(d < D, (float)IK_TOO_NEAR, (float)IK_REACHED);
    status = sel(d > L, (float)IK_TOO_FAR, status);
    return sel(ok, status, (float)IK_DEGENERATE);
}

/* Saturates at +-FLT_MAX. Scalar here, applied per component; ik.glsl overloads it on vec2 and vec3. */
static inline float ik_sat(float v) { return min_f(max_f(v, -FLT_MAX), FLT_MAX); }

/* C only: ik_opts normalised once per call (once per batch); ikSolve2 and ikSolve3 in ik.glsl take
 * the options as arguments and normalise them inline. */
typedef struct {
    float bend;    /* +1 or -1 */
    bool stretch;
    float soften;  /* in [0, 1] */
} opts_n;
static opts_n normalise(const ik_opts *o)
{
    opts_n n = { 1.0f, false, 0.0f };
    if (o) {
        n.bend = o->bend < 0.0f ? -1.0f : 1.0f;
        n.stretch = o->stretch != 0;
        /* written so that a NaN soften becomes 0 */
        n.soften = o->soften > 0.0f ? (o->soften < 1.0f ? o->soften : 1.0f) : 0.0f;
    }
    return n;
}

/* One 2D solve: the body of ik.glsl's ikSolve2, under its name, on normalised options. Inlined into
 * both the scalar call and the batch loop so they cannot drift apart. */
static inline __attribute__((always_inline)) float
ikSolve2(float px, float py, float r1, float r2, opts_n o, bool soft_on, float *ox, float *oy, float *ex,
         float *ey)
{
    bool fin = ik_finite(px) & ik_finite(py) & ik_finite(r1) & ik_finite(r2);
    /* non-finite input: solve a zero problem instead so nothing below sees NaN */
    px = sel(fin, px, 0.0f); py = sel(fin, py, 0.0f);
    r1 = sel(fin, r1, 0.0f); r2 = sel(fin, r2, 0.0f);
    bool origin = (px == 0.0f) & (py == 0.0f);
    /* p's direction from p scaled on its own, so a tiny p beside long bones keeps its direction */
    float pm = max_f(abs_f(px), abs_f(py));
    float sp = ik_scale_for(pm);
    float Xp = px * sp, Yp = py * sp;
    float dp = sqrtf(Xp * Xp + Yp * Yp);
    float invd = 1.0f / sel(origin, 1.0f, dp);
    float ux = sel(origin, 1.0f, Xp * invd);
    float uy = sel(origin, 0.0f, Yp * invd);
    /* the common frame: the largest of |p|, r1, r2 in [1, 4) */
    float s = ik_scale_for(max_f(pm, max_f(abs_f(r1), abs_f(r2)))), us = ik_unscale_for(s);
    float R1 = r1 * s, R2 = r2 * s;
    float rinv, ratio = ik_ratio_of(s, sp, &rinv);
    float d = dp * ratio;
    bool ok = (r1 > 0.0f) & (r2 > 0.0f) & !origin; /* non-finite input was zeroed above */
    /* a negative r2 answers x = 0, as non-finite input does */
    R1 = sel(r2 >= 0.0f, R1, 0.0f);
    float A, B, E;
    float st = ik_core(d, invd * rinv, R1, R2, ok, o.stretch, soft_on, o.soften, &A, &B, &E);
    B *= o.bend;
    float x = A * ux - B * uy, y = A * uy + B * ux;
    *ox = ik_sat(x * us);
    *oy = ik_sat(y * us);
    /* degenerate: the effector is reported at the joint */
    *ex = ik_sat(sel(ok, E * ux, x) * us);
    *ey = ik_sat(sel(ok, E * uy, y) * us);
    return sel(fin, st, (float)IK_DEGENERATE);
}

/* C only: the public entry, in C's naming; the work is ikSolve2() above. */
ik_status ik_solve2(ik_vec2 p, float r1, float r2, const ik_opts *opts, ik_vec2 *x, ik_vec2 *end)
{
    ik_vec2 e;
    opts_n o = normalise(opts);
    ik_status st =
        (ik_status)(int)ikSolve2(p.x, p.y, r1, r2, o, o.soften > 0.0f, &x->x, &x->y, &e.x, &e.y);
    if (end) *end = e;
    return st;
}

/* GLSL only, so not here: ikSolve(p, r1, r2), the article's signature; in C that is
 * ik_solve2(p, r1, r2, NULL, &x, NULL). */

/* ---- batch: C only (a fragment shader solves one case per invocation) -------------------------- */

/* C only: the loop, inlined with constant flags into each variant below, so that the common case
 * carries neither a status store it throws away nor the soft-IK arithmetic. */
static inline __attribute__((always_inline)) void
batch_loop(size_t n, const float *restrict px, const float *restrict py, const float *restrict r1,
           const float *restrict r2, opts_n o, bool soft_on, bool with_status, float *restrict x,
           float *restrict y, uint8_t *restrict status)
{
    for (size_t i = 0; i < n; i++) {
        float ox, oy, ex, ey;
        float st = ikSolve2(px[i], py[i], r1[i], r2[i], o, soft_on, &ox, &oy, &ex, &ey);
        x[i] = ox;
        y[i] = oy;
        if (with_status) status[i] = (uint8_t)st;
    }
}

/* target_clones gives AVX2 machines 8 lanes; with contraction off the rounding is the same on both. */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && !defined(IK_NO_CLONES)
#define IK_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define IK_CLONES
#endif

/* Four instances of batch_loop with its flags as constants, for ik_solve2_batch to pick from. */
#define IK_BATCH_VARIANT(name, soft_on, with_status)                                               \
    IK_CLONES static void name(size_t n, const float *px, const float *py, const float *r1,          \
                               const float *r2, opts_n o, float *x, float *y, uint8_t *status)        \
    {                                                                                                 \
        batch_loop(n, px, py, r1, r2, o, soft_on, with_status, x, y, status);                         \
    }
IK_BATCH_VARIANT(batch_xy, false, false)
IK_BATCH_VARIANT(batch_xys, false, true)
IK_BATCH_VARIANT(batch_soft_xy, true, false)
IK_BATCH_VARIANT(batch_soft_xys, true, true)

/* C only: the public batch entry. */
void ik_solve2_batch(size_t n, const float *px, const float *py, const float *r1, const float *r2,
                     const ik_opts *opts, float *x, float *y, uint8_t *status)
{
    opts_n o = normalise(opts);
    if (o.soften > 0.0f) (status ? batch_soft_xys : batch_soft_xy)(n, px, py, r1, r2, o, x, y, status);
    else (status ? batch_xys : batch_xy)(n, px, py, r1, r2, o, x, y, status);
}

/* ---- 3D ---------------------------------------------------------------------------------------- */

/* GLSL twin: ikSolve3. The public name is in C's style; with no batch to share it, the work stays
 * here rather than in a static under the GLSL name. Branches where ikSolve2 selects: nothing
 * vectorises this. */
ik_status ik_solve3(ik_vec3 p, float r1, float r2, ik_vec3 pole, const ik_opts *opts, ik_vec3 *x,
                    ik_vec3 *end)
{
    opts_n o = normalise(opts);
    bool fin = ik_finite(p.x) && ik_finite(p.y) && ik_finite(p.z) && ik_finite(r1) && ik_finite(r2) &&
               ik_finite(pole.x) && ik_finite(pole.y) && ik_finite(pole.z);
    if (!fin) {
        *x = (ik_vec3){ 0.0f, 0.0f, 0.0f };
        if (end) *end = *x;
        return IK_DEGENERATE;
    }
    bool origin = p.x == 0.0f && p.y == 0.0f && p.z == 0.0f;
    float pm = max_f(max_f(abs_f(p.x), abs_f(p.y)), abs_f(p.z));
    float sp = ik_scale_for(pm);
    float Xp = p.x * sp, Yp = p.y * sp, Zp = p.z * sp;
    float dp = sqrtf(Xp * Xp + Yp * Yp + Zp * Zp);
    float ux = 1.0f, uy = 0.0f, uz = 0.0f;
    if (!origin) { ux = Xp / dp; uy = Yp / dp; uz = Zp / dp; }
    float s = ik_scale_for(max_f(pm, max_f(abs_f(r1), abs_f(r2)))), us = ik_unscale_for(s);
    float R1 = r1 * s, R2 = r2 * s;
    float rinv, ratio = ik_ratio_of(s, sp, &rinv);
    float d = dp * ratio;
    bool ok = r1 > 0.0f && r2 > 0.0f && !origin;

    /* the pole only gives a direction: scale it on its own */
    float hm = max_f(max_f(abs_f(pole.x), abs_f(pole.y)), abs_f(pole.z));
    float ps = ik_scale_for(hm);
    float hx = pole.x * ps, hy = pole.y * ps, hz = pole.z * ps;
    float hh = hx * hx + hy * hy + hz * hz;
    float k = hx * ux + hy * uy + hz * uz;
    float vx = hx - k * ux, vy = hy - k * uy, vz = hz - k * uz;
    float vv = vx * vx + vy * vy + vz * vz;
    const float PAR = 0x1p-20f;
    if (!(hm > 0.0f) || vv <= PAR * PAR * hh) {
        /* documented fallback: the axis least aligned with u */
        float ax = abs_f(ux), ay = abs_f(uy), az = abs_f(uz);
        float ex = 0.0f, ey = 0.0f, ez = 0.0f;
        if (ax <= ay && ax <= az) ex = 1.0f;
        else if (ay <= az) ey = 1.0f;
        else ez = 1.0f;
        k = ex * ux + ey * uy + ez * uz;
        vx = ex - k * ux; vy = ey - k * uy; vz = ez - k * uz;
        vv = vx * vx + vy * vy + vz * vz;
    }
    float iv = 1.0f / sqrtf(vv);
    vx *= iv; vy *= iv; vz *= iv;

    R1 = r2 >= 0.0f ? R1 : 0.0f;
    float A, B, E;
    ik_status st = (ik_status)(int)ik_core(d, rinv / dp, R1, R2, ok, o.stretch, o.soften > 0.0f,
                                           o.soften, &A, &B, &E);
    B *= o.bend;
    float jx = A * ux + B * vx, jy = A * uy + B * vy, jz = A * uz + B * vz;
    *x = (ik_vec3){ ik_sat(jx * us), ik_sat(jy * us), ik_sat(jz * us) };
    if (end) {
        if (ok) *end = (ik_vec3){ ik_sat(E * ux * us), ik_sat(E * uy * us), ik_sat(E * uz * us) };
        else *end = *x;
    }
    return st;
}
