// ik.glsl: analytic two-bone IK (after Inigo Quilez), the GLSL twin of src/ik/ik.c.
//
// Same formula, branches, statuses and options as the C library, function for function, so that
// `ikshade check` can hold them against each other. The functions are src/ik/ik.c's, under the same
// names and in the same order, so that the two read side by side; one with no twin is marked by a
// comment starting "GLSL only:" here, "C only:" there (covering the definitions up to the next blank
// line between functions). tests/test_twins.sh holds the two to this, and to one set of status numbers.
// Conventions (see include/ikshade/ik.h for the full text):
//   bend >= 0 puts the joint left of 0 -> p (towards perp(p) = (-p.y, p.x)); bend < 0 mirrors it.
//   status: IK_REACHED when |r1-r2| <= |p| <= r1+r2, IK_TOO_FAR above, IK_TOO_NEAR below,
//           IK_DEGENERATE for p at the origin, a length <= 0, or non-finite input.
//   Out of reach the bones keep their lengths; `stretch` gives the article's x = w p / 2h instead.
//   `soften` S in [0,1]: soft IK over the last S*(r1+r2) of the reach (Spine's quadratic).
//
// Use: #include "ik.glsl", then
//   vec2 x = ikSolve(p, r1, r2);                                        // the article's signature
//   int st = ikSolve2(p, r1, r2, bend, stretch, soften, x, end);        // everything
//   int st = ikSolve3(p, r1, r2, pole, bend, stretch, soften, x, end);  // 3D with a pole vector
#ifndef IK_GLSL
#define IK_GLSL

// The numbers of IK_STATUS_LIST in include/ikshade/ik.h (its order); a shader cannot include that
// header, so tests/test_twins.sh holds these to it. C only, not here: the status names
// (ik_status_name, ik_status_parse), which only the CPU prints and parses.
#define IK_REACHED 0
#define IK_TOO_FAR 1
#define IK_TOO_NEAR 2
#define IK_DEGENERATE 3

// C only, not here: bits, from_bits, sel, max_f, min_f, abs_f, which ik.c writes for its vectoriser;
// GLSL has floatBitsToUint, uintBitsToFloat, ?:, max, min and abs built in.

// Power of two s with m*s in [1, 4): exact scaling, so squares neither overflow nor underflow. Read
// from the exponent field as ik.c does (frexp/ldexp there are libm calls that stop its batch loop
// vectorising): integer work, so the GPU gets the same power of two as the CPU.
float ik_scale_for(float m)
{
    int e = int((floatBitsToUint(m) >> 23) & 0xffu);
    int se = clamp(254 - e, 1, 253);
    return uintBitsToFloat(uint(se) << 23);
}
float ik_unscale_for(float s) { return uintBitsToFloat(uint(254 - int(floatBitsToUint(s) >> 23)) << 23); }

// s / (sp 2^shift) as a power of two (held at 2^-126 or more), and its inverse, so 1/d needs no
// second division.
float ik_ratio_of(float s, float sp, int shift, out float inverse)
{
    int re = max(int(floatBitsToUint(s) >> 23) - int(floatBitsToUint(sp) >> 23) - shift + 127, 1);
    inverse = uintBitsToFloat(uint(254 - re) << 23);
    return uintBitsToFloat(uint(re) << 23);
}

// p's frame for a subnormal largest component: first multiplied by 2^shift (see ik.c). A GPU that
// flushes subnormals to zero sees the origin instead.
int ik_tiny_shift(float m) { return m < 1.17549435e-38 ? 24 : 0; }

// Not NaN and not +-Inf. The twins differ here on purpose: ik.c tests v - v == 0, sound under the
// IEEE arithmetic its build flags guarantee, but GLSL promises none (a shader compiler may fold
// v - v to 0 unless it is `precise`), so here the built-ins whose meaning the compiler must keep.
bool ik_finite(float v) { return !isnan(v) && !isinf(v); }

// The scaled-frame core: the joint's coordinates along u (A) and towards the bend side (B) in units
// of U (the joint is (A u + B v) U); p also in its own frame (|p|^2 = hp, 1/|p| = invp), ratio taking
// that frame to this one (1/ratio = rinv), us undoing the scaled frame, r1u r1 itself (0 where the
// answer is x = 0). The effector: the nearest point of the reach (along; inner for D u rather than
// L u), which the caller takes in the lengths' own frame, or else p k (k = 1: p's own bits). ik.c's
// twin also takes soft_on, which its callers set to soften > 0 (as tested here) so that each batch
// variant has it as a constant; and it selects with sel() where this writes ?:.
int ik_core(float d, float invp, float rinv, float hp, float ratio, float R1, float R2, float r1u, float us,
            bool ok, bool stretch, float soften, out float A, out float B, out float U, out float k,
            out bool along, out bool inner)
{
    float L = R1 + R2;
    float D = abs(R1 - R2);
    float inv_d = invp * rinv;

    // Heron's product as (L^2 - h)(h - D^2), h from p's components; the second factor in p's frame,
    // so that a tiny p beside long bones does not underflow it. Out of reach exactly when a factor is
    // negative (see ik.c).
    float Dp = D * rinv;
    float F = L * L - hp * ratio * ratio, G = hp - Dp * Dp;
    int status = G < 0.0 ? IK_TOO_NEAR : IK_REACHED;
    status = F < 0.0 ? IK_TOO_FAR : status;

    // soft IK: pull the effective target distance dt in, Spine's quadratic. The zone starts at
    // z = L - s; t goes from 0 to 1 at L + s, and dt = L - s (1 - t)^2 is written d - sd t / 2 (no
    // cancellation: soften 1 gave dt = 0 far inside the reach) and taken in p's frame. Past the zone's
    // end (`full`) the chain is straight at the target: the joint r1 along u, as ik.c's (see there).
    float dt = d, inv = inv_d, kt = 1.0;
    bool full = false;
    if (soften > 0.0) {
        float s = soften * L;
        float z = L - s;
        float sd = d - z;
        bool soft = s > 0.0 && sd > 0.0;
        float t = min(sd / (soft ? 2.0 * s : 1.0), 1.0);
        full = soft && sd >= 2.0 * s;
        bool part = soft && !full;
        float dp = d * rinv;
        float dtp = part ? dp - (dp - z * rinv) * (0.5 * t) : dp;
        float it = 1.0 / dtp, ht = dtp * dtp;
        kt = part ? dtp * invp : 1.0;
        dt = part ? dtp * ratio : d;
        inv = part ? it * rinv : inv_d;
        F = part ? L * L - ht * ratio * ratio : F;
        G = part ? ht - Dp * Dp : G;
        invp = part ? it : invp;
    }

    // geometry on the effective distance
    bool far = F < 0.0, near = G < 0.0;
    float heron = max(F * G, 0.0);
    float a = 0.5 * (dt + (R1 - R2) * L * inv);
    float b = 0.5 * sqrt(heron) * invp;

    // 2^64 (ik.c's 0x1p64f: GLSL has no hex float literals), far past anything meaningful in the
    // scaled frame; keeps the stretch answer finite
    float a_str = clamp(a, -1.8446744e19, 1.8446744e19);
    // The bones' own answers, out of reach without stretch (r1 towards p; too near, folded: towards p
    // when r1 > r2, else away) and degenerate (r1 >= 0 along u): +-r1 u, taken on r1 itself (U = 1),
    // not from R1 in this frame, where a length far below |p| or the other length is subnormal or 0
    // (see ik.c). Elsewhere A and B are in this frame, U = us.
    bool len = !ok || full || ((far || near) && !stretch);
    float r_len = (ok && near && !far && !full && !(R1 > R2)) ? -r1u : r1u;
    A = len ? r_len : ((far || near) ? a_str : a);
    B = (len || far || near) ? 0.0 : b;
    U = len ? 1.0 : us;
    // the effector: on the target when stretching, else where the chain can get: p, or dt u in the
    // soft zone, or out of reach of dt L u or D u, which the caller takes from the lengths' frame
    along = ok && (far || near || full) && !stretch;
    inner = near && !far && !full;
    k = stretch ? 1.0 : kt;
    return ok ? status : IK_DEGENERATE;
}

// Saturates at +-FLT_MAX: overloaded on vec2 and vec3, where ik.c's is scalar, applied per component.
vec2 ik_sat(vec2 v) { return clamp(v, vec2(-3.4028235e38), vec2(3.4028235e38)); }
vec3 ik_sat(vec3 v) { return clamp(v, vec3(-3.4028235e38), vec3(3.4028235e38)); }

// C only, not here: opts_n and normalise(), ik.c's ik_opts made canonical once per call; the options
// come in as arguments here and are normalised inline, as in ikSolve3.

// One 2D solve. ik.c's twin, also named ikSolve2, is static and takes the options normalised; its
// public ik_solve2() and its batch loop both inline it.
int ikSolve2(vec2 p, float r1, float r2, float bend, bool stretch, float soften, out vec2 x, out vec2 end)
{
    bool fin = ik_finite(p.x) && ik_finite(p.y) && ik_finite(r1) && ik_finite(r2);
    // non-finite input: solve a zero problem instead so nothing below sees NaN
    p = fin ? p : vec2(0.0);
    r1 = fin ? r1 : 0.0;
    r2 = fin ? r2 : 0.0;
    soften = soften > 0.0 ? min(soften, 1.0) : 0.0;
    bool origin = p.x == 0.0 && p.y == 0.0;
    // p's direction from p scaled on its own, so a tiny p beside long bones keeps its direction
    float pm = max(abs(p.x), abs(p.y));
    int shift = ik_tiny_shift(pm);
    float pre = uintBitsToFloat(uint(127 + shift) << 23);
    float sp = ik_scale_for(pm * pre);
    vec2 P = p * pre * sp;
    float hp = P.x * P.x + P.y * P.y;
    float dp = sqrt(hp);
    float invd = 1.0 / (origin ? 1.0 : dp);
    vec2 u = origin ? vec2(1.0, 0.0) : P * invd;
    // the common frame: the largest of |p|, r1, r2 in [1, 4)
    float s = ik_scale_for(max(pm, max(abs(r1), abs(r2))));
    float us = ik_unscale_for(s);
    float R1 = r1 * s, R2 = r2 * s;
    float rinv;
    float ratio = ik_ratio_of(s, sp, shift, rinv);
    float d = dp * ratio;
    bool ok = r1 > 0.0 && r2 > 0.0 && !origin;
    // a negative r2 answers x = 0, as non-finite input does
    R1 = r2 >= 0.0 ? R1 : 0.0;
    float r1u = max(r2 >= 0.0 ? r1 : 0.0, 0.0);
    float A, B, U, ke;
    bool along, inner;
    int st = ik_core(d, invd, rinv, hp, ratio, R1, R2, r1u, us, ok, stretch, soften, A, B, U, ke, along, inner);
    B *= bend < 0.0 ? -1.0 : 1.0;
    vec2 j = vec2(A * u.x - B * u.y, A * u.y + B * u.x);
    x = ik_sat(j * U);
    // the effector: p itself where the chain gets there (ke = 1), p ke in the soft zone; out of reach
    // L u or D u, in the lengths' own frame (the largest in [1, 4)); degenerate: at the joint
    float sl = ik_scale_for(max(abs(r1), abs(r2))), ul = ik_unscale_for(sl);
    float R1l = r1 * sl, R2l = r2 * sl;
    float El = inner ? abs(R1l - R2l) : R1l + R2l;
    end = ok ? (along ? ik_sat(El * u * ul) : p * ke) : x;
    return fin ? st : IK_DEGENERATE;
}

// C only, not here: ik_solve2, the C entry point wrapping ikSolve2.

// GLSL only: the article's signature, the joint for target p, bend +1, bones keeping their lengths
// (in C, ik_solve2 with NULL options).
vec2 ikSolve(vec2 p, float r1, float r2)
{
    vec2 x, end;
    ikSolve2(p, r1, r2, 1.0, false, 0.0, x, end);
    return x;
}

// C only, not here: ik_solve2_batch and its loop; a fragment shader solves one case per invocation.

// ik.c's twin is its public ik_solve3, in C's naming.
int ikSolve3(vec3 p, float r1, float r2, vec3 pole, float bend, bool stretch, float soften,
             out vec3 x, out vec3 end)
{
    bool fin = ik_finite(p.x) && ik_finite(p.y) && ik_finite(p.z) && ik_finite(r1) && ik_finite(r2) &&
               ik_finite(pole.x) && ik_finite(pole.y) && ik_finite(pole.z);
    if (!fin) {
        x = vec3(0.0);
        end = x;
        return IK_DEGENERATE;
    }
    soften = soften > 0.0 ? min(soften, 1.0) : 0.0;
    bool origin = p.x == 0.0 && p.y == 0.0 && p.z == 0.0;
    float pm = max(max(abs(p.x), abs(p.y)), abs(p.z));
    int shift = ik_tiny_shift(pm);
    float pre = uintBitsToFloat(uint(127 + shift) << 23);
    float sp = ik_scale_for(pm * pre);
    vec3 P = p * pre * sp;
    float hp = dot(P, P);
    float dp = sqrt(hp);
    vec3 u = origin ? vec3(1.0, 0.0, 0.0) : P / dp;
    float s = ik_scale_for(max(pm, max(abs(r1), abs(r2))));
    float us = ik_unscale_for(s);
    float R1 = r1 * s, R2 = r2 * s;
    float rinv;
    float ratio = ik_ratio_of(s, sp, shift, rinv);
    float d = dp * ratio;
    bool ok = r1 > 0.0 && r2 > 0.0 && !origin;

    // the pole only gives a direction: scale it on its own
    float hm = max(max(abs(pole.x), abs(pole.y)), abs(pole.z));
    vec3 H = pole * ik_scale_for(hm);
    float k = dot(H, u);
    vec3 v = H - k * u;
    float vv = dot(v, v);
    const float PAR = 9.5367431640625e-07; // 2^-20
    if (!(hm > 0.0) || vv <= PAR * PAR * dot(H, H)) {
        // documented fallback: the axis least aligned with u
        vec3 a = abs(u);
        vec3 e = (a.x <= a.y && a.x <= a.z) ? vec3(1.0, 0.0, 0.0) : (a.y <= a.z ? vec3(0.0, 1.0, 0.0) : vec3(0.0, 0.0, 1.0));
        v = e - dot(e, u) * u;
        vv = dot(v, v);
    }
    v *= 1.0 / sqrt(vv);

    R1 = r2 >= 0.0 ? R1 : 0.0;
    float r1u = max(r2 >= 0.0 ? r1 : 0.0, 0.0);
    float A, B, U, ke;
    bool along, inner;
    int st = ik_core(d, 1.0 / (origin ? 1.0 : dp), rinv, hp, ratio, R1, R2, r1u, us, ok, stretch, soften, A, B, U,
                     ke, along, inner);
    B *= bend < 0.0 ? -1.0 : 1.0;
    vec3 j = A * u + B * v;
    x = ik_sat(j * U);
    // the effector, as in ikSolve2
    float sl = ik_scale_for(max(abs(r1), abs(r2))), ul = ik_unscale_for(sl);
    float R1l = r1 * sl, R2l = r2 * sl;
    float El = inner ? abs(R1l - R2l) : R1l + R2l;
    end = ok ? (along ? ik_sat(El * u * ul) : p * ke) : x;
    return st;
}

#endif
