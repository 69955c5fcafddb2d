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
 * one set of status numbers (names and order, not bodies). The bodies are held by `ikshade check`,
 * which compares joints and effectors: on llvmpipe every one is identical, the soft zone's, the
 * answers along u taken on the lengths themselves and the effector as p's own bits included.
 *
 * Accuracy. Everything is computed in float, in a frame scaled by a power of two so that the largest
 * input is in [1, 4): squares never overflow or underflow, and scaling back is exact. The offset of x
 * from the line 0 -> p is Heron's formula on the triangle (r1, r2, |p|) in factored form,
 * b = sqrt((L^2 - h)(h - D^2)) / (2d), h = p.p, L = r1 + r2, D = |r1 - r2|: each factor is one
 * rounding away from rounded squares, which are the exact squares of inputs perturbed by half an ulp,
 * so near either edge of reach the error is that of perturbing the inputs by an ulp, which is the
 * problem's own conditioning (it grows as 1/sin of the knee angle). It is the article's 4 r1^2 h - w^2
 * factored: that form loses up to a further factor r1/r2 (or r2/r1) to cancellation there. The
 * target is out of reach exactly when a factor is negative, so the status and the square root agree.
 * In that frame a length far below the largest input is subnormal or 0; so the answers that are
 * r1 along u (out of reach, degenerate, fully softened) take r1 itself, the effector's L u and D u
 * come from the lengths' own frame, and the soft zone's distance is taken in p's: each output is
 * then exact to a few roundings of its own size from 2^-149 to FLT_MAX (tests/test_ik.c:
 * test_whole_range). A joint in reach stays within the bound on the scale of the largest input.
 *
 * Speed. ik_core(), ikSolve2() and the 3D body are branch-free (selects only) so that the batch loops
 * vectorise; build with -fno-math-errno (sqrtf must not set errno), -fno-trapping-math (a float
 * compare may then be if-converted: we never rely on FP exceptions) and -ffp-contract=off (so the
 * batch and the scalar call round identically: no FMA in one and not the other). Where every input is
 * a modest number (see "The scalar fast path" below, with its proof), the scaled frames change no
 * bit, and ik_solve2 and the batch's AVX2 blocks skip them: that is the common case, and the frames
 * are most of the work one case at a time.
 */
#include "ikshade/ik.h"

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

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
/* c ? a : b as pure data flow in vector loops: a ternary there can be turned into branches that the
 * vectoriser cannot turn back (GCC 12 gives up on joins of more than four arms). ik.glsl writes ?:
 * where this file writes sel(). */
static inline float sel(bool lanes, bool c, float a, float b)
{
    /* lanes: for a vector loop; else a ternary, which scalar code keeps in float registers (sel()'s
     * masks would go through integer ones). A select is exact either way: the same bits. */
    if (!lanes) return c ? a : b;
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

/* s / (sp 2^shift) for scales from ik_scale_for(), s for the larger magnitude (shift: see
 * ik_tiny_shift): 2^k <= 1, held at 2^-126 or more (|p| is then negligible against the lengths, and
 * stays a normal positive number). *inverse gets 2^-k, so that 1/d comes from 1/|p| without a second
 * division, rounded identically. */
static inline float ik_ratio_of(float s, float sp, int shift, float *inverse)
{
    int re = (int)(bits(s) >> 23) - (int)(bits(sp) >> 23) - shift + 127;
    re = re < 1 ? 1 : re;
    *inverse = from_bits((uint32_t)(254 - re) << 23);
    return from_bits((uint32_t)re << 23);
}

/* p's frame for a subnormal largest component m: one power of two (a float, at most 2^127) cannot
 * bring it into [1, 4), so p is first multiplied by 2^shift (exact), shift 24 for a subnormal m and
 * 0 otherwise. Without it |p| stays near 2^-23 in its frame and 1/|p| times the frames' ratio
 * overflows: a target of 1e-45 beside bones of 1 gave x = -FLT_MAX. */
static inline int ik_tiny_shift(float m) { return m < FLT_MIN ? 24 : 0; }

/* Not NaN and not +-Inf: v - v is 0 for finite v and NaN otherwise. Needs IEEE semantics, so this
 * file must never be built with -ffinite-math-only (or -ffast-math); with the flags above it has them.
 * The twins differ here on purpose: GLSL promises no IEEE arithmetic (a shader compiler may fold
 * v - v to 0 unless it is `precise`), so ik.glsl asks isnan() and isinf(), whose meaning it must keep. */
static inline bool ik_finite(float v) { return v - v == 0.0f; }

/* In the scaled frame: d = |p| (> 0 unless degenerate), R1, R2 the lengths; and p in its own frame,
 * where |p|^2 = hp and 1/|p| = invp, ratio taking that frame to this one (1/ratio = rinv); us undoes
 * the scaled frame, and r1u is r1 itself (0 where the answer is x = 0). Gives the joint's
 * coordinates along u = p/d (A) and along the bend side (B, before the bend sign) in units of U (the
 * joint is (A u + B v) U); the effector, either the nearest point of the reach, L u or D u (along;
 * inner for D), which the caller takes in the lengths' own frame, or else p k: k = 1 where the
 * effector is the target itself (reached unsoftened, or stretching: p's own bits, as ik.h promises),
 * dt / d in the soft zone; and the status of
 * the target as a float (the enum's value) so that every select has one lane width. `ok` false means
 * degenerate inputs: then the outputs are the documented ones. The twin has no soft_on: every caller
 * passes soften > 0 for it, which ik.glsl tests itself; here it is a separate flag so that it can be a
 * constant in each batch variant. */
static inline __attribute__((always_inline)) float
ik_core(float d, float invp, float rinv, float hp, float ratio, float R1, float R2, float r1u, float us, bool ok,
        bool stretch, bool soft_on, float soften, bool lanes, float *A, float *B, float *U, float *k, bool *along,
        bool *inner)
{
    float L = R1 + R2;
    float D = abs_f(R1 - R2);
    float inv_d = invp * rinv;

    /* Heron's product as (L^2 - h)(h - D^2), h = |p|^2 from p's components rather than from d: each
     * factor is one rounding from rounded squares (which perturb L, D and |p| by half an ulp each),
     * and in the scalar fast path (see ik_solve2) d's square root is then off the longest chain to
     * the joint. The second factor is taken in p's frame (D scaled there; D >> |p| overflows to Inf,
     * the target then too near), so that a tiny p beside long bones (r1 = r2 = 1, |p| = 1e-30) does
     * not underflow it to 0 and fold the joint onto p. The target is out of reach exactly when a
     * factor is negative: the status and the square root never disagree at the edges. */
    float Dp = D * rinv;
    float F = L * L - hp * ratio * ratio, G = hp - Dp * Dp;
    float status = sel(lanes, G < 0.0f, (float)IK_TOO_NEAR, (float)IK_REACHED);
    status = sel(lanes, F < 0.0f, (float)IK_TOO_FAR, status);

    /* soft IK: pull the effective target distance dt in, Spine's quadratic. soft_on is a constant in
     * each caller's loop, so the common case pays none of this. The zone starts at z = L - s; t is
     * the way through it, from 0 to 1 at L + s, and dt = L - s (1 - t)^2, written as d - sd t / 2
     * (sd = d - z): the same number without L - s q^2's cancellation, which gave dt = 0 for soften 1
     * (z = 0) and d < 2^-25 L. Past the zone's end (t = 1: `full`) dt = L, the chain straight at
     * the target: the caller's answer along u on r1 itself, as too far, since |p| may be any number
     * of binades above L, whose square then underflows in this frame (p=(0,1e25), r1=1, r2=0.5 gave
     * x=(0,0.75)). In the zone (t < 1), d/2 <= dt <= d: dt is taken in p's own frame, as d is, and
     * the geometry below is that of an unsoftened target at dt, its factors in the same frames (soften
     * 1 puts targets far below equal bones in the zone, where dt^2 underflows in this frame). */
    float dt = d, inv = inv_d, kt = 1.0f;
    bool full = false;
    if (soft_on) {
        float s = soften * L;
        float z = L - s;
        float sd = d - z;
        bool soft = (s > 0.0f) & (sd > 0.0f);
        float t = min_f(sd / sel(lanes, soft, 2.0f * s, 1.0f), 1.0f);
        full = soft & (sd >= 2.0f * s); /* (t >= 1 here stops GCC 12 vectorising the loops) */
        bool part = soft & !full;
        /* in p's frame: dp = d rinv exactly (d is a normal float, ratio a power of two); z rinv
         * overflows only outside the zone, where the selects drop it */
        float dp = d * rinv;
        float dtp = sel(lanes, part, dp - (dp - z * rinv) * (0.5f * t), dp);
        float it = 1.0f / dtp, ht = dtp * dtp;
        kt = sel(lanes, part, dtp * invp, 1.0f);
        dt = sel(lanes, part, dtp * ratio, d);
        inv = sel(lanes, part, it * rinv, inv_d);
        F = sel(lanes, part, L * L - ht * ratio * ratio, F);
        G = sel(lanes, part, ht - Dp * Dp, G);
        invp = sel(lanes, part, it, invp);
    }

    /* geometry on the effective distance */
    bool far = F < 0.0f, near = G < 0.0f;
    float heron = max_f(F * G, 0.0f);
    float a = 0.5f * (dt + (R1 - R2) * L * inv);
    float b = 0.5f * sqrtf(heron) * invp;

    /* 2^64 in the scaled frame is far past anything meaningful; keeps the stretch answer finite.
     * (ik.glsl writes it in decimal: GLSL has no hex float literals.) */
    float a_str = min_f(max_f(a, -0x1p64f), 0x1p64f);
    /* The bones' own answers, out of reach without stretch (r1 towards p; too near, folded: towards p
     * when r1 > r2, else away) and degenerate (r1 >= 0 along u = +x or towards p): +-r1 u, taken on r1
     * itself, U = 1, not from R1 in this frame, where a length far below |p| or the other length
     * (p=(0,1), r1=1e-20, r2=1e30; p=0, r1=1e-7, r2=FLT_MAX) is subnormal or 0. R1 > R2 is exact
     * here: too near, the longer bone is in [1/2, 4). Elsewhere A and B are in this frame, U = us. */
    bool len = (!ok) | full | ((far | near) & !stretch);
    float r_len = sel(lanes, ok & near & !far & !full & !(R1 > R2), -r1u, r1u);
    *A = sel(lanes, len, r_len, sel(lanes, far | near, a_str, a));
    *B = sel(lanes, len | far | near, 0.0f, b);
    *U = sel(lanes, len, 1.0f, us);
    /* the effector: on the target when stretching, else where the chain can get: p, or dt u in the
     * soft zone, or out of reach of dt L u or D u, which the caller takes from the lengths' frame for
     * the same reason as r1 above */
    *along = ok & (far | near | full) & !stretch;
    *inner = near & !far & !full;
    *k = sel(lanes, stretch, 1.0f, kt);
    return sel(lanes, ok, status, (float)IK_DEGENERATE);
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
ikSolve2(float px, float py, float r1, float r2, opts_n o, bool soft_on, bool lanes, float *ox, float *oy,
         float *ex, float *ey)
{
    bool fin = ik_finite(px) & ik_finite(py) & ik_finite(r1) & ik_finite(r2);
    /* non-finite input: solve a zero problem instead so nothing below sees NaN */
    px = sel(lanes, fin, px, 0.0f); py = sel(lanes, fin, py, 0.0f);
    r1 = sel(lanes, fin, r1, 0.0f); r2 = sel(lanes, fin, r2, 0.0f);
    bool origin = (px == 0.0f) & (py == 0.0f);
    /* p's direction from p scaled on its own, so a tiny p beside long bones keeps its direction */
    float pm = max_f(abs_f(px), abs_f(py));
    int shift = ik_tiny_shift(pm);
    float pre = from_bits((uint32_t)(127 + shift) << 23);
    float sp = ik_scale_for(pm * pre);
    float Xp = px * pre * sp, Yp = py * pre * sp;
    float hp = Xp * Xp + Yp * Yp;
    float dp = sqrtf(hp);
    float invd = 1.0f / sel(lanes, origin, 1.0f, dp);
    float ux = sel(lanes, origin, 1.0f, Xp * invd);
    float uy = sel(lanes, origin, 0.0f, Yp * invd);
    /* the common frame: the largest of |p|, r1, r2 in [1, 4) */
    float s = ik_scale_for(max_f(pm, max_f(abs_f(r1), abs_f(r2)))), us = ik_unscale_for(s);
    float R1 = r1 * s, R2 = r2 * s;
    float rinv, ratio = ik_ratio_of(s, sp, shift, &rinv);
    float d = dp * ratio;
    bool ok = (r1 > 0.0f) & (r2 > 0.0f) & !origin; /* non-finite input was zeroed above */
    /* a negative r2 answers x = 0, as non-finite input does */
    R1 = sel(lanes, r2 >= 0.0f, R1, 0.0f);
    float r1u = max_f(sel(lanes, r2 >= 0.0f, r1, 0.0f), 0.0f);
    float A, B, U, ke;
    bool along, inner;
    float st = ik_core(d, invd, rinv, hp, ratio, R1, R2, r1u, us, ok, o.stretch, soft_on, o.soften, lanes, &A, &B,
                       &U, &ke, &along, &inner);
    B *= o.bend;
    float x = A * ux - B * uy, y = A * uy + B * ux;
    *ox = ik_sat(x * U);
    *oy = ik_sat(y * U);
    /* the effector: p itself where the chain gets there (ke = 1), p ke in the soft zone; out of reach
     * L u or D u, in the lengths' own frame (the largest in [1, 4)); degenerate: at the joint. (Only
     * ik_solve2 with an end reads it: elsewhere the compiler drops all this.) */
    float sl = ik_scale_for(max_f(abs_f(r1), abs_f(r2))), ul = ik_unscale_for(sl);
    float R1l = r1 * sl, R2l = r2 * sl;
    float El = sel(lanes, inner, abs_f(R1l - R2l), R1l + R2l);
    *ex = sel(lanes, ok, sel(lanes, along, ik_sat(El * ux * ul), px * ke), *ox);
    *ey = sel(lanes, ok, sel(lanes, along, ik_sat(El * uy * ul), py * ke), *oy);
    return sel(lanes, fin, st, (float)IK_DEGENERATE);
}

/* The scalar fast path (C only). ikSolve2 above is written for the batch's vector lanes; one case at a
 * time it pays for the two power-of-two frames (exponent fields moved between integer and float
 * registers) and for computing every select's both arms. When every input is a modest number, the
 * scaled frames change nothing, and this computes the same answer without them, bit for bit.
 *
 * The range: r1, r2 in [2^-E, 2^(E+1)), each of p.x, p.y zero or of magnitude in that range, p not
 * the origin, E = IK_FAST_E = 12 (so from 0.000244 to 8192, exponents -12 to 12), and no softening.
 *
 * Why bit for bit. ikSolve2 multiplies p by sp = 2^j and everything by s = 2^k, with |j|, |k| <= E
 * here (they bring the largest magnitude into [1, 2); so ik_ratio_of's clamp at 2^-126 never acts,
 * and its selects for non-finite, degenerate or softened input pass the values through); each value
 * it computes is the value computed
 * here times 2^(k * its degree in lengths) (2^j for p's own frame; heron, a product of a factor in
 * each frame, 2^(2k + 2j), and b, sqrt(heron) times 1/|p| in p's frame, 2^k again; out of reach its
 * joint is +-r1 u on r1 itself, as here, and its effector L u or D u in the lengths' frame, 2^k' for
 * |k'| <= E likewise; reached, the effector is p itself in both). Rounding commutes with a power of
 * two, fl(2^n v) = 2^n fl(v), and a square root with an even one, whenever the exact results in both
 * frames are zero or normal floats (no underflow to subnormals, no overflow). So it is enough that
 * every nonzero intermediate v of degree g here has 2^-126 * 2^(E|g|) <= |v| <= 2^127 * 2^-(E|g|).
 * All inputs are multiples of 2^(-E-23) (floats of magnitude >= 2^-E), so is every difference of two
 * of them or of L, d, D (themselves such floats), and a nonzero difference is at least that much.
 * With m = 2^-E and M = 2^(E+1) (and |ux|, |uy| in [m / (2M), 1]):
 *   p.x^2, h, d, 1/d, ux: within [m^2 / 2, 2 M^2]           (degrees 2, 2, 1, -1, 0)
 *   L^2 in [4 m^2, 4 M^2]; D^2, if nonzero, >= 2^-46 m^2 = 2^-70 (degree 2: scaled >= 2^-94).
 *   F = L^2 - h, G = h - D^2: floats >= m^2 are multiples of 2^-23 m^2, so a nonzero F is at least
 *     that; G too, unless D^2 < h / 2, and then G >= m^2 / 2. F + G = L^2 - D^2 = 4 r1 r2 >= 4 m^2
 *     (up to roundings), so one of them is >= m^2 and heron = F G >= 2^-24 m^4 when nonzero (degree
 *     4): scaled, >= 2^-24 m^8 = 2^-120 > 2^-126; and <= (4 M^2)^2 = 2^56, scaled <= 2^104.
 *   (r1 - r2) L >= 2^-22 m^2, times 1/d >= 2^-23 m^3; d + that, if nonzero, >= 2^-24 m (if the two
 *     nearly cancel both are >= m / 2, multiples of 2^-24 m), so |a| >= 2^-25 m: scaled >= 2^-49.
 *     |a| <= M^3, scaled <= M^4 = 2^48: the 2^64 clamp of the stretch answer never acts.
 *   b >= 2^-14 m^3; the products A ux, B uy >= 2^-15 m^5 and their nonzero difference >= 2^-38 m^5,
 *     scaled >= 2^-110: x and y are the same in both frames, and far from FLT_MAX (no saturation).
 *   The statuses are the signs of F and G, and the selects compare scaled values: the same answers.
 * The tightest is heron's product: E = 12 leaves 6 binades to spare there. tests/test_ik.c holds this
 * against the batch (which always scales) on cases at the edges of the range and of reach. */
#define IK_FAST_E 12
#define IK_NOINLINE __attribute__((noinline))

/* target_clones gives AVX2 machines 8 lanes in the batch loops, and the scalar call three-operand
 * instructions (no register copies); with contraction off the rounding is the same in every clone. */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && !defined(IK_NO_CLONES)
#define IK_CLONES_ON 1
#define IK_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define IK_CLONES
#endif

/* C only: ik_solve2 outside the fast path's range, out of line so that the fast path does not pay
 * for its registers (saved and restored on every call otherwise). */
static IK_NOINLINE ik_status solve2_general(ik_vec2 p, float r1, float r2, opts_n o, ik_vec2 *x, ik_vec2 *end)
{
    ik_vec2 e;
    bool soft_on = o.soften > 0.0f;
    /* two copies, as in ik_solve3 */
    if (!end) return (ik_status)(int)ikSolve2(p.x, p.y, r1, r2, o, soft_on, false, &x->x, &x->y, &e.x, &e.y);
    ik_status st = (ik_status)(int)ikSolve2(p.x, p.y, r1, r2, o, soft_on, false, &x->x, &x->y, &e.x, &e.y);
    *end = e;
    return st;
}

#if !defined(__SSE2__)
/* C only: whether the fast path's range holds, as one unsigned compare on each input's bits (negative,
 * NaN and Inf fall outside). (The SSE version makes the same test on one register.) */
static inline bool fast_range(float px, float py, float r1, float r2)
{
    const uint32_t lo = (uint32_t)(127 - IK_FAST_E) << 23, span = (uint32_t)(2 * IK_FAST_E) << 23;
    uint32_t ax = bits(px) & 0x7fffffffu, ay = bits(py) & 0x7fffffffu;
    bool okx = (ax - lo <= span) | (ax == 0), oky = (ay - lo <= span) | (ay == 0);
    return okx & oky & ((ax | ay) != 0) & (bits(r1) - lo <= span) & (bits(r2) - lo <= span);
}
#endif

#if defined(__SSE2__)
/* C only: the public entry, in C's naming; the work is ikSolve2() above, or the fast path below where
 * it gives the same bits: ikSolve2 and ik_core with ok true and soft_on false, in their order of
 * operations. The fast path is written twice, in SSE's intrinsics here (every x86-64 has SSE2) and in
 * plain C below; the operations are the same, each exact or correctly rounded, so both give the same
 * bits. SSE because one case at a time is short of work for the machine: GCC turns a scalar ?: on
 * floats into a branch (mispredicted a third of the time on targets reached, too far or too near in no
 * pattern) and sel() goes through integer registers; here selects are compare masks and and/andnot/or
 * in float registers, and x and y come from one multiply and one add on (ux, uy) and (-uy, ux)
 * (x = A ux + B (-uy) is A ux - B uy bit for bit, as IEEE defines subtraction). Lane 0 carries the
 * scalar values. Measured (ikshade bench solver, AMD Zen 5 under KVM), one case at a time is bound
 * by the number of instructions, not by the divider (two square roots and a division here, one and
 * one in the article's formula) nor by the chain's latency: replacing both square roots by multiplies
 * saved 0.45 ns of 5.3, and every instruction taken out since, about 0.08 ns. Hence the compares on
 * one register for the range, the masks, and the AVX2 build's blend below. */
/* m ? t : f on lane masks: one VBLENDVPS where the caller is built for AVX (vex), else three
 * instructions. In asm, as the intrinsic cannot be inlined into this function, built for SSE2 too. */
static inline __attribute__((always_inline)) __m128
pick(bool vex, __m128 m, __m128 t, __m128 f)
{
    if (vex) {
        __m128 r;
        __asm__("vblendvps %3, %2, %1, %0" : "=x"(r) : "x"(f), "x"(t), "x"(m));
        return r;
    }
    return _mm_or_ps(_mm_and_ps(m, t), _mm_andnot_ps(m, f));
}
static inline __m128 lane0(__m128 v) { return _mm_shuffle_ps(v, v, 0); }
/* v in lane 0 of a register whose other lanes are left as they are: _mm_set_ss would zero them, two
 * instructions per value where nothing reads those lanes. (GCC: an empty asm, which only renames;
 * clang rejects it, and needs none.) */
static inline __m128 in_lane0(float v)
{
#if defined(__clang__)
    return _mm_set_ss(v);
#else
    __m128 r;
    __asm__("" : "=x"(r) : "0"(v));
    return r;
#endif
}
/* the same for the two floats of a vec2, in the low half */
static inline __m128 in_low_half(ik_vec2 p)
{
    double pd;
    memcpy(&pd, &p, sizeof pd);
#if defined(__clang__)
    return _mm_castpd_ps(_mm_set_sd(pd));
#else
    __m128 r;
    __asm__("" : "=x"(r) : "0"(pd));
    return r;
#endif
}
static inline __attribute__((always_inline)) ik_status
solve2_sse(ik_vec2 p, float r1, float r2, opts_n o, bool vex, ik_vec2 *x, ik_vec2 *end)
{
    /* (p.x, p.y, r1, r2); p arrives as the low half of one register */
    __m128 V = _mm_movelh_ps(in_low_half(p), _mm_unpacklo_ps(in_lane0(r1), in_lane0(r2)));
    /* fast_range() on the four lanes at once, as float compares: (|p.x|, |p.y|, r1, r2) against
     * [2^-E, 2^(E+1)), which is fast_range's exponent test (a negative length fails the lower bound,
     * NaN both); p's components may be zero, but not both. Constants from memory: built in registers
     * (as GCC does _mm_set1) they cost more than the test. */
    static const float LIM[3][4] __attribute__((aligned(16))) = {
        { 0x1p-12f, 0x1p-12f, 0x1p-12f, 0x1p-12f },
        { 0x1p13f, 0x1p13f, 0x1p13f, 0x1p13f },
        { -0.0f, -0.0f, 0.0f, 0.0f },
    };
    _Static_assert(IK_FAST_E == 12, "LIM holds 2^-IK_FAST_E and 2^(IK_FAST_E + 1)");
    __m128 W = _mm_andnot_ps(_mm_load_ps(LIM[2]), V);
    __m128 inside = _mm_and_ps(_mm_cmpnlt_ps(W, _mm_load_ps(LIM[0])), _mm_cmplt_ps(W, _mm_load_ps(LIM[1])));
    int zero = _mm_movemask_ps(_mm_cmpeq_ps(W, _mm_setzero_ps())) & 3;
    if (((_mm_movemask_ps(inside) | zero) != 15) | (zero == 3) | (o.soften != 0.0f))
        return solve2_general(p, r1, r2, o, x, end);
    const __m128 half = _mm_set_ss(0.5f), nzero = _mm_set1_ps(-0.0f);
    __m128 sq = _mm_mul_ps(V, V);
    __m128 h = _mm_add_ss(sq, _mm_shuffle_ps(sq, sq, 1));
    __m128 dp = _mm_sqrt_ss(h);
    __m128 inv = _mm_div_ss(_mm_set_ss(1.0f), dp);
    __m128 U = _mm_mul_ps(V, lane0(inv)); /* (ux, uy, -, -) */
    __m128 R1 = _mm_shuffle_ps(V, V, 2), R2 = _mm_shuffle_ps(V, V, 3);
    __m128 L = _mm_add_ss(R1, R2), diff = _mm_sub_ss(R1, R2), D = _mm_andnot_ps(nzero, diff);
    /* heron from h, not from d: the longest chain of dependent operations is then h, heron, sqrt,
     * with d's square root and 1/d beside it rather than before it. Out of reach (F = L^2 - h < 0
     * or G = h - D^2 < 0: the sign of a difference is exact, so these are ik_core's F < 0, G < 0)
     * heron is masked to 0 before the square root, which is ik_core's max(heron, 0) and then 0 for
     * b: in reach F, G >= 0. And B = (0.5 sqrt(heron)) / d * bend as sqrt(heron) (0.5 bend / d):
     * +-0.5 is a power of two, exact in any order (no underflow in this range), and the sign
     * commutes with every rounding. */
    __m128 L2 = _mm_mul_ss(L, L), D2 = _mm_mul_ss(D, D);
    __m128 far = _mm_cmplt_ss(L2, h), near = _mm_cmplt_ss(h, D2);
    __m128 heron = _mm_andnot_ps(_mm_or_ps(far, near), _mm_mul_ss(_mm_sub_ss(L2, h), _mm_sub_ss(h, D2)));
    __m128 a = _mm_mul_ss(half, _mm_add_ss(dp, _mm_mul_ss(_mm_mul_ss(diff, L), inv)));
    __m128 B = _mm_mul_ss(_mm_sqrt_ss(heron), _mm_mul_ss(_mm_set_ss(0.5f * o.bend), inv));
    __m128 A = a;
    if (!o.stretch) {
        /* far: R1; near: the fold, R1 if R1 > R2 else -R1, which is R1 with diff's sign (near means
         * D^2 > h >= 0, so diff is not 0; far and near never both hold). diff ^ D is diff's sign bit. */
        __m128 flip = _mm_and_ps(near, _mm_xor_ps(diff, D));
        A = pick(vex, _mm_or_ps(far, near), _mm_xor_ps(R1, flip), A);
    }
    __m128 swapped = _mm_shuffle_ps(U, U, _MM_SHUFFLE(3, 2, 0, 1)); /* (uy, ux, -, -) */
    __m128 X;
    if (vex) {
        /* (A ux - B uy, A uy + B ux) in one VADDSUBPS */
        __m128 Au = _mm_mul_ps(lane0(A), U), Bs = _mm_mul_ps(lane0(B), swapped);
        __asm__("vaddsubps %2, %1, %0" : "=x"(X) : "x"(Au), "x"(Bs));
    } else {
        __m128 perp = _mm_xor_ps(swapped, _mm_setr_ps(-0.0f, 0.0f, 0.0f, 0.0f)); /* (-uy, ux, -, -) */
        X = _mm_add_ps(_mm_mul_ps(lane0(A), U), _mm_mul_ps(lane0(B), perp));
    }
    _mm_storel_pi((__m64 *)(void *)x, X);
    if (end) {
        /* p itself (V's low half) where reached or stretching, bit for bit as ikSolve2 gives it; out of
         * reach the nearest point of the reach along u: L u too far, D u too near */
        __m128 e = V;
        if (!o.stretch)
            e = pick(vex, lane0(_mm_or_ps(far, near)), _mm_mul_ps(lane0(_mm_max_ss(_mm_min_ss(dp, L), D)), U), V);
        _mm_storel_pi((__m64 *)(void *)end, e);
    }
    /* far and near never both hold (D^2 <= L^2), so far | near << 1 is the select ik_core makes */
    _Static_assert(IK_TOO_FAR == 1 && IK_TOO_NEAR == 2, "the status is the two masks' sign bits");
    return (ik_status)(_mm_movemask_ps(_mm_unpacklo_ps(far, near)) & 3);
}
/* C only: the entry's body, built twice: vex for AVX2 machines (VEX's three-operand instructions and
 * the blend), else for SSE2. No options, the common call, has them as constants. */
static inline __attribute__((always_inline)) ik_status
solve2_entry(ik_vec2 p, float r1, float r2, const ik_opts *opts, bool vex, ik_vec2 *x, ik_vec2 *end)
{
    if (!opts) return solve2_sse(p, r1, r2, (opts_n){ 1.0f, false, 0.0f }, vex, x, end);
    return solve2_sse(p, r1, r2, normalise(opts), vex, x, end);
}
#if defined(IK_CLONES_ON)
/* C only: ik_solve2 resolved once, at load, as target_clones does (which cannot give the two clones
 * different source: the blend is an instruction SSE2 lacks). */
__attribute__((target("avx2"))) static ik_status
solve2_avx2(ik_vec2 p, float r1, float r2, const ik_opts *opts, ik_vec2 *x, ik_vec2 *end)
{
    return solve2_entry(p, r1, r2, opts, true, x, end);
}
static ik_status solve2_sse2(ik_vec2 p, float r1, float r2, const ik_opts *opts, ik_vec2 *x, ik_vec2 *end)
{
    return solve2_entry(p, r1, r2, opts, false, x, end);
}
typedef ik_status solve2_fn(ik_vec2, float, float, const ik_opts *, ik_vec2 *, ik_vec2 *);
static solve2_fn *solve2_resolve(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? solve2_avx2 : solve2_sse2;
}
/* C only (declared, defined by the resolver: GCC's ifunc, called while the library loads). */
ik_status ik_solve2(ik_vec2 p, float r1, float r2, const ik_opts *opts, ik_vec2 *x, ik_vec2 *end)
    __attribute__((ifunc("solve2_resolve")));
#else
/* C only: the public entry, for SSE2 alone. */
ik_status ik_solve2(ik_vec2 p, float r1, float r2, const ik_opts *opts, ik_vec2 *x, ik_vec2 *end)
{
    return solve2_entry(p, r1, r2, opts, false, x, end);
}
#endif
#else
/* C only: the public entry, in C's naming; the work is ikSolve2() above, or the fast path where it
 * gives the same bits (as the SSE version above). */
ik_status ik_solve2(ik_vec2 p, float r1, float r2, const ik_opts *opts, ik_vec2 *x, ik_vec2 *end)
{
    opts_n o = normalise(opts);
    if (!(o.soften == 0.0f && fast_range(p.x, p.y, r1, r2))) return solve2_general(p, r1, r2, o, x, end);
    float h = p.x * p.x + p.y * p.y;
    float dp = sqrtf(h);
    float inv = 1.0f / dp;
    float ux = p.x * inv, uy = p.y * inv;
    float L = r1 + r2, D = fabsf(r1 - r2);
    float L2 = L * L, D2 = D * D;
    bool far = L2 < h, near = h < D2;
    float heron = (far | near) ? 0.0f : (L2 - h) * (h - D2); /* as in the SSE version */
    float a = 0.5f * (dp + (r1 - r2) * L * inv);
    float B = sqrtf(heron) * (0.5f * o.bend * inv);
    float A = a;
    ik_vec2 e = p; /* reached or stretching: p itself, as ikSolve2 gives it */
    if (!o.stretch) {
        A = far ? r1 : near ? (r2 < r1 ? r1 : -r1) : A;
        float E = max_f(min_f(dp, L), D);
        if (far | near) e = (ik_vec2){ E * ux, E * uy };
    }
    *x = (ik_vec2){ A * ux - B * uy, A * uy + B * ux };
    if (end) *end = e;
    return far ? IK_TOO_FAR : near ? IK_TOO_NEAR : IK_REACHED;
}
#endif

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
        float st = ikSolve2(px[i], py[i], r1[i], r2[i], o, soft_on, true, &ox, &oy, &ex, &ey);
        x[i] = ox;
        y[i] = oy;
        if (with_status) status[i] = (uint8_t)st;
    }
}


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

#if defined(__GNUC__) && defined(__x86_64__) && !defined(IK_NO_CLONES)
#define IK_FAST_BATCH 1
/* C only: ik_solve2's fast path eight cases at a time, in AVX2's intrinsics: the same operations as
 * the SSE version in ik_solve2 (so the same bits), on eight cases per register. A block of eight
 * with any case outside the fast path's range goes to the general loop, which gives the same bits
 * for those inside. Without softening only (the caller sees to that). Returns how many cases it did:
 * whole blocks, the rest left to the general loop. */
__attribute__((target("avx2"))) static size_t
batch_fast_avx2(size_t n, const float *restrict px, const float *restrict py, const float *restrict r1,
                const float *restrict r2, opts_n o, float *restrict x, float *restrict y,
                uint8_t *restrict status)
{
    const __m256i flip = _mm256_set1_epi32((int)0x80000000u);
    const __m256i lo = _mm256_set1_epi32((127 - IK_FAST_E) << 23);
    const __m256i span = _mm256_xor_si256(_mm256_set1_epi32((2 * IK_FAST_E) << 23), flip);
    const __m256 nzero = _mm256_set1_ps(-0.0f), half = _mm256_set1_ps(0.5f);
    const __m256 one = _mm256_set1_ps(1.0f), hbend = _mm256_set1_ps(0.5f * o.bend);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 X = _mm256_loadu_ps(px + i), Y = _mm256_loadu_ps(py + i);
        __m256 R1 = _mm256_loadu_ps(r1 + i), R2 = _mm256_loadu_ps(r2 + i);
        /* the range, as in ik_solve2: outside(v) is |v| - 2^-E > 2^E - 2^-E on the bits, unsigned */
        __m256i ax = _mm256_castps_si256(_mm256_andnot_ps(nzero, X));
        __m256i ay = _mm256_castps_si256(_mm256_andnot_ps(nzero, Y));
        __m256i zx = _mm256_cmpeq_epi32(ax, _mm256_setzero_si256());
        __m256i zy = _mm256_cmpeq_epi32(ay, _mm256_setzero_si256());
#define IK_OUTSIDE_(v) _mm256_cmpgt_epi32(_mm256_xor_si256(_mm256_sub_epi32((v), lo), flip), span)
        __m256i bad = _mm256_or_si256(_mm256_andnot_si256(zx, IK_OUTSIDE_(ax)),
                                      _mm256_andnot_si256(zy, IK_OUTSIDE_(ay)));
        bad = _mm256_or_si256(bad, _mm256_or_si256(IK_OUTSIDE_(_mm256_castps_si256(R1)),
                                                   IK_OUTSIDE_(_mm256_castps_si256(R2))));
        bad = _mm256_or_si256(bad, _mm256_and_si256(zx, zy));
#undef IK_OUTSIDE_
        if (!_mm256_testz_si256(bad, bad)) {
            if (status) batch_xys(8, px + i, py + i, r1 + i, r2 + i, o, x + i, y + i, status + i);
            else batch_xy(8, px + i, py + i, r1 + i, r2 + i, o, x + i, y + i, NULL);
            continue;
        }
        __m256 h = _mm256_add_ps(_mm256_mul_ps(X, X), _mm256_mul_ps(Y, Y));
        __m256 dp = _mm256_sqrt_ps(h);
        __m256 inv = _mm256_div_ps(one, dp);
        __m256 ux = _mm256_mul_ps(X, inv), uy = _mm256_mul_ps(Y, inv);
        __m256 L = _mm256_add_ps(R1, R2), diff = _mm256_sub_ps(R1, R2), D = _mm256_andnot_ps(nzero, diff);
        __m256 L2 = _mm256_mul_ps(L, L), D2 = _mm256_mul_ps(D, D);
        __m256 far = _mm256_cmp_ps(L2, h, _CMP_LT_OQ), near = _mm256_cmp_ps(h, D2, _CMP_LT_OQ);
        /* as in ik_solve2 */
        __m256 heron = _mm256_andnot_ps(_mm256_or_ps(far, near),
                                        _mm256_mul_ps(_mm256_sub_ps(L2, h), _mm256_sub_ps(h, D2)));
        __m256 A = _mm256_mul_ps(half, _mm256_add_ps(dp, _mm256_mul_ps(_mm256_mul_ps(diff, L), inv)));
        __m256 B = _mm256_mul_ps(_mm256_sqrt_ps(heron), _mm256_mul_ps(hbend, inv));
        if (!o.stretch) {
            __m256 fold = _mm256_blendv_ps(_mm256_xor_ps(R1, nzero), R1, _mm256_cmp_ps(R2, R1, _CMP_LT_OQ));
            A = _mm256_blendv_ps(_mm256_blendv_ps(A, fold, near), R1, far);
        }
        _mm256_storeu_ps(x + i, _mm256_sub_ps(_mm256_mul_ps(A, ux), _mm256_mul_ps(B, uy)));
        _mm256_storeu_ps(y + i, _mm256_add_ps(_mm256_mul_ps(A, uy), _mm256_mul_ps(B, ux)));
        if (status) {
            /* far and near never both hold: the status is far & 1 | near & 2, packed to bytes */
            __m256i fs = _mm256_and_si256(_mm256_castps_si256(far), _mm256_set1_epi32(IK_TOO_FAR));
            __m256i ns = _mm256_and_si256(_mm256_castps_si256(near), _mm256_set1_epi32(IK_TOO_NEAR));
            __m256i st = _mm256_or_si256(fs, ns);
            __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(st), _mm256_extracti128_si256(st, 1));
            _mm_storel_epi64((__m128i *)(void *)(status + i), _mm_packus_epi16(w, w));
        }
    }
    return i;
}
#endif

/* C only: the public batch entry. */
void ik_solve2_batch(size_t n, const float *px, const float *py, const float *r1, const float *r2,
                     const ik_opts *opts, float *x, float *y, uint8_t *status)
{
    opts_n o = normalise(opts);
    if (o.soften > 0.0f) {
        (status ? batch_soft_xys : batch_soft_xy)(n, px, py, r1, r2, o, x, y, status);
        return;
    }
    size_t done = 0;
#ifdef IK_FAST_BATCH
    if (__builtin_cpu_supports("avx2")) done = batch_fast_avx2(n, px, py, r1, r2, o, x, y, status);
#endif
    (status ? batch_xys : batch_xy)(n - done, px + done, py + done, r1 + done, r2 + done, o, x + done,
                                    y + done, status ? status + done : NULL);
}

/* ---- 3D ---------------------------------------------------------------------------------------- */

/* GLSL twin: ikSolve3. One 3D solve on normalised options: the body of ik.glsl's ikSolve3, inlined
 * into the public ik_solve3 and the 3D batch loop so they cannot drift apart. Selects where ik.glsl
 * branches, so that the batch vectorises: non-finite input solves a zero problem instead (which is
 * degenerate, with the same answers as ik.glsl's early return), and both planes are computed, the
 * pole's and the fallback axis's, before one is chosen. */
static inline __attribute__((always_inline)) float
solve3(float px, float py, float pz, float r1, float r2, float hx, float hy, float hz, opts_n o, bool soft_on,
       bool lanes, float *ox, float *oy, float *oz, float *ex, float *ey, float *ez)
{
    bool fin = ik_finite(px) & ik_finite(py) & ik_finite(pz) & ik_finite(r1) & ik_finite(r2) &
               ik_finite(hx) & ik_finite(hy) & ik_finite(hz);
    px = sel(lanes, fin, px, 0.0f); py = sel(lanes, fin, py, 0.0f); pz = sel(lanes, fin, pz, 0.0f);
    r1 = sel(lanes, fin, r1, 0.0f); r2 = sel(lanes, fin, r2, 0.0f);
    hx = sel(lanes, fin, hx, 0.0f); hy = sel(lanes, fin, hy, 0.0f); hz = sel(lanes, fin, hz, 0.0f);
    bool origin = (px == 0.0f) & (py == 0.0f) & (pz == 0.0f);
    float pm = max_f(max_f(abs_f(px), abs_f(py)), abs_f(pz));
    int shift = ik_tiny_shift(pm);
    float pre = from_bits((uint32_t)(127 + shift) << 23);
    float sp = ik_scale_for(pm * pre);
    float Xp = px * pre * sp, Yp = py * pre * sp, Zp = pz * pre * sp;
    float hp = Xp * Xp + Yp * Yp + Zp * Zp;
    float dp = sqrtf(hp);
    /* (at the origin these divide by zero; the selects discard the results) */
    float ux = sel(lanes, origin, 1.0f, Xp / dp), uy = sel(lanes, origin, 0.0f, Yp / dp);
    float uz = sel(lanes, origin, 0.0f, Zp / dp);
    float s = ik_scale_for(max_f(pm, max_f(abs_f(r1), abs_f(r2)))), us = ik_unscale_for(s);
    float R1 = r1 * s, R2 = r2 * s;
    float rinv, ratio = ik_ratio_of(s, sp, shift, &rinv);
    float d = dp * ratio;
    bool ok = (r1 > 0.0f) & (r2 > 0.0f) & !origin;

    /* the pole only gives a direction: scale it on its own */
    float hm = max_f(max_f(abs_f(hx), abs_f(hy)), abs_f(hz));
    float ps = ik_scale_for(hm);
    float Hx = hx * ps, Hy = hy * ps, Hz = hz * ps;
    float hh = Hx * Hx + Hy * Hy + Hz * Hz;
    float k = Hx * ux + Hy * uy + Hz * uz;
    float vx = Hx - k * ux, vy = Hy - k * uy, vz = Hz - k * uz;
    float vv = vx * vx + vy * vy + vz * vz;
    const float PAR = 0x1p-20f;
    bool fallback = !(hm > 0.0f) | (vv <= PAR * PAR * hh);
    /* documented fallback: the axis least aligned with u */
    float ax = abs_f(ux), ay = abs_f(uy), az = abs_f(uz);
    bool ex_ = (ax <= ay) & (ax <= az), ey_ = !ex_ & (ay <= az), ez_ = !ex_ & !ey_;
    float fx = sel(lanes, ex_, 1.0f, 0.0f), fy = sel(lanes, ey_, 1.0f, 0.0f), fz = sel(lanes, ez_, 1.0f, 0.0f);
    float kf = fx * ux + fy * uy + fz * uz;
    float wx = fx - kf * ux, wy = fy - kf * uy, wz = fz - kf * uz;
    float ww = wx * wx + wy * wy + wz * wz;
    vx = sel(lanes, fallback, wx, vx); vy = sel(lanes, fallback, wy, vy); vz = sel(lanes, fallback, wz, vz);
    vv = sel(lanes, fallback, ww, vv);
    float iv = 1.0f / sqrtf(vv);
    vx *= iv; vy *= iv; vz *= iv;

    R1 = sel(lanes, r2 >= 0.0f, R1, 0.0f);
    float r1u = max_f(sel(lanes, r2 >= 0.0f, r1, 0.0f), 0.0f);
    float A, B, U, ke;
    bool along, inner;
    float st = ik_core(d, 1.0f / sel(lanes, origin, 1.0f, dp), rinv, hp, ratio, R1, R2, r1u, us, ok, o.stretch,
                       soft_on, o.soften, lanes, &A, &B, &U, &ke, &along, &inner);
    B *= o.bend;
    float jx = A * ux + B * vx, jy = A * uy + B * vy, jz = A * uz + B * vz;
    *ox = ik_sat(jx * U); *oy = ik_sat(jy * U); *oz = ik_sat(jz * U);
    /* the effector, as in ikSolve2 */
    float sl = ik_scale_for(max_f(abs_f(r1), abs_f(r2))), ul = ik_unscale_for(sl);
    float R1l = r1 * sl, R2l = r2 * sl;
    float El = sel(lanes, inner, abs_f(R1l - R2l), R1l + R2l);
    *ex = sel(lanes, ok, sel(lanes, along, ik_sat(El * ux * ul), px * ke), *ox);
    *ey = sel(lanes, ok, sel(lanes, along, ik_sat(El * uy * ul), py * ke), *oy);
    *ez = sel(lanes, ok, sel(lanes, along, ik_sat(El * uz * ul), pz * ke), *oz);
    return st;
}

/* C only: the public entry, in C's naming; the work is solve3() above. */
ik_status ik_solve3(ik_vec3 p, float r1, float r2, ik_vec3 pole, const ik_opts *opts, ik_vec3 *x,
                    ik_vec3 *end)
{
    ik_vec3 e;
    opts_n o = normalise(opts);
    bool soft_on = o.soften > 0.0f;
    /* two copies, so that the call without end does not work it out (the compiler drops it there) */
    if (!end)
        return (ik_status)(int)solve3(p.x, p.y, p.z, r1, r2, pole.x, pole.y, pole.z, o, soft_on, false, &x->x,
                                      &x->y, &x->z, &e.x, &e.y, &e.z);
    ik_status st = (ik_status)(int)solve3(p.x, p.y, p.z, r1, r2, pole.x, pole.y, pole.z, o, soft_on, false, &x->x,
                                          &x->y, &x->z, &e.x, &e.y, &e.z);
    *end = e;
    return st;
}

/* C only: the 3D batch loop, as batch_loop is the 2D one; the pole is per case (pole_step 1) or one
 * for all (0), a constant in each variant. */
static inline __attribute__((always_inline)) void
batch3_loop(size_t n, const float *restrict px, const float *restrict py, const float *restrict pz,
            const float *restrict r1, const float *restrict r2, const float *restrict hx,
            const float *restrict hy, const float *restrict hz, size_t pole_step, opts_n o, bool soft_on,
            bool with_status, float *restrict x, float *restrict y, float *restrict z,
            uint8_t *restrict status)
{
    for (size_t i = 0; i < n; i++) {
        float ox, oy, oz, ex, ey, ez;
        float st = solve3(px[i], py[i], pz[i], r1[i], r2[i], hx[i * pole_step], hy[i * pole_step],
                          hz[i * pole_step], o, soft_on, true, &ox, &oy, &oz, &ex, &ey, &ez);
        x[i] = ox;
        y[i] = oy;
        z[i] = oz;
        if (with_status) status[i] = (uint8_t)st;
    }
}

/* Eight instances of batch3_loop with its flags as constants, for ik_solve3_batch to pick from. */
#define IK_BATCH3_VARIANT(name, pole_step, soft_on, with_status)                                      \
    IK_CLONES static void name(size_t n, const float *px, const float *py, const float *pz,             \
                               const float *r1, const float *r2, const float *hx, const float *hy,      \
                               const float *hz, opts_n o, float *x, float *y, float *z, uint8_t *status) \
    {                                                                                                  \
        batch3_loop(n, px, py, pz, r1, r2, hx, hy, hz, pole_step, o, soft_on, with_status, x, y, z,      \
                    status);                                                                           \
    }
IK_BATCH3_VARIANT(batch3_xy, 1, false, false)
IK_BATCH3_VARIANT(batch3_xys, 1, false, true)
IK_BATCH3_VARIANT(batch3_soft_xy, 1, true, false)
IK_BATCH3_VARIANT(batch3_soft_xys, 1, true, true)
IK_BATCH3_VARIANT(batch3_shared_xy, 0, false, false)
IK_BATCH3_VARIANT(batch3_shared_xys, 0, false, true)
IK_BATCH3_VARIANT(batch3_shared_soft_xy, 0, true, false)
IK_BATCH3_VARIANT(batch3_shared_soft_xys, 0, true, true)

/* C only: the public 3D batch entry. */
void ik_solve3_batch(size_t n, const float *px, const float *py, const float *pz, const float *r1,
                     const float *r2, const float *pole_x, const float *pole_y, const float *pole_z,
                     int shared_pole, const ik_opts *opts, float *x, float *y, float *z, uint8_t *status)
{
    typedef void variant(size_t, const float *, const float *, const float *, const float *, const float *,
                         const float *, const float *, const float *, opts_n, float *, float *, float *,
                         uint8_t *);
    static variant *const V[2][2][2] = {
        { { batch3_xy, batch3_xys }, { batch3_soft_xy, batch3_soft_xys } },
        { { batch3_shared_xy, batch3_shared_xys }, { batch3_shared_soft_xy, batch3_shared_soft_xys } },
    };
    opts_n o = normalise(opts);
    V[shared_pole != 0][o.soften > 0.0f][status != NULL](n, px, py, pz, r1, r2, pole_x, pole_y, pole_z, o, x,
                                                         y, z, status);
}
