/* ik.h: analytic two-bone inverse kinematics (after Inigo Quilez), made robust.
 *
 * Pure C11: no GL, no I/O, no globals, no allocation. The GLSL twin is shaders/ik.glsl; `ikshade check`
 * holds the two against each other.
 *
 * Geometry. The chain starts at the origin; bone 1 (length r1) ends at the joint x, bone 2 (length r2)
 * ends at the effector. Given a target p, x lies where the circles |x| = r1 and |x - p| = r2 meet.
 *
 * Conventions (all documented behaviour, relied on by the tests and the GLSL copy):
 * - bend >= 0 (the default) puts x on the left of the line 0 -> p, i.e. towards perp(p) = (-p.y, p.x);
 *   bend < 0 mirrors it. In 3D bend >= 0 puts x on the side of the pole, bend < 0 on the other side.
 * - The status classifies the target, whatever the options: REACHED when |r1-r2| <= |p| <= r1+r2,
 *   TOO_FAR above, TOO_NEAR below, DEGENERATE when p is the origin, a length is zero, negative or not
 *   finite, or any input is not finite. Statuses are decided on float |p| computed as described in
 *   ik.c, so a target within an ulp of the edge of reach may fall on either side.
 * - Out of reach the bones keep their lengths (|x| = r1): TOO_FAR points x straight at the target;
 *   TOO_NEAR folds the chain (x towards the target when r1 > r2, away from it when r1 < r2).
 *   opts.stretch reproduces the article instead: x = w p / (2h) with the square root clamped to 0.
 * - DEGENERATE answers, always finite: p at the origin -> x = (r1, 0) (the +x axis is the documented
 *   direction; in 3D, +x too); r1 == 0 -> x = 0; r2 == 0 -> x = r1 towards p; a negative length or a
 *   non-finite input -> x = 0.
 * - opts.soften S in [0, 1] (clamped) is the soft-IK zone as a fraction of the reach L = r1 + r2:
 *   a target at distance d in (L - S L, L + S L) is pulled in along its direction to
 *   d' = L - s q^2 with s = S L, q = 1 - (d - L + s) / (2 s), the quadratic form Spine uses. d' is smooth
 *   where the zone starts (slope 1), monotone, never past the target (d' <= d), and reaches L at L + s.
 * - 3D: the pole (hint) picks the bend plane: x lies in the plane of 0, p and the pole. A pole parallel
 *   to p within float precision (|pole x p| <= 2^-20 |pole| |p|) or zero carries no plane; then the
 *   plane of p and the coordinate axis least aligned with p (x, then y, then z on ties) is used.
 * - Any finite input gives a finite x; results beyond float range saturate at +-FLT_MAX.
 * - Accuracy, for every finite input from the smallest subnormal to FLT_MAX (tests/test_ik.c):
 *   the answers along p's direction u, that is out of reach without stretch, degenerate, and with
 *   soften past the zone's end, are x = +-r1 u and end = L u or D u (x when degenerate) to a few
 *   roundings of r1 (of L, D) itself, however far |p| or the other length is from it. A joint in reach (of p, or of the
 *   softened target d') is within K (1 + 1/sin(knee angle)) eps S of the exact one, K = 4, with
 *   |x| = r1 and |x - end| = r2 within 4 eps S, where S = max(|p|, r1, r2) (with soften, d' for |p|):
 *   on S's scale, not r1's: float |p| is itself up to a rounding of S from exact, and where r1 is
 *   below that (p=(0,1e30), r1=1e-20, r2=1e30) one rounding of |p| moves x around its whole circle.
 *   Results that are subnormal are rounded to float's spacing there (2^-149). eps = FLT_EPSILON.
 */
#ifndef IK_H
#define IK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* libik's version: the project's, as CMakeLists.txt sets it (project(ikshade VERSION ...)) for the
 * library and ik.pc; tests/test_twins.sh holds the two equal. */
#define IK_VERSION "0.3.0"

/* Symbols of the shared libraries are hidden unless marked: IK_API marks the public ones. */
#if defined(__GNUC__) || defined(__clang__)
#define IK_API __attribute__((visibility("default")))
#else
#define IK_API
#endif

/* X-macro: one list makes the enum and the names printed by `ikshade solve`. Its order gives the
 * numbers, which shaders/ik.glsl spells as #defines (a shader cannot include this header):
 * tests/test_twins.sh holds them to this list. */
#define IK_STATUS_LIST(X)             \
    X(IK_REACHED, "reached")          \
    X(IK_TOO_FAR, "too-far")          \
    X(IK_TOO_NEAR, "too-near")        \
    X(IK_DEGENERATE, "degenerate")

typedef enum {
#define IK_ENUM_(e, s) e,
    IK_STATUS_LIST(IK_ENUM_)
#undef IK_ENUM_
    IK_STATUS_COUNT
} ik_status;

typedef struct { float x, y; } ik_vec2;
typedef struct { float x, y, z; } ik_vec3;

/* Zero fields mean the defaults: bend +1, no stretch, no softening. */
typedef struct {
    float bend;    /* >= 0: +1 side, < 0: the mirrored solution */
    int stretch;   /* non-zero: the article's stretching out of reach */
    float soften;  /* soft-IK zone as a fraction of r1 + r2, clamped to [0, 1] */
} ik_opts;

/* Status name ("reached", ...), or "?" for a value outside the enum. */
IK_API const char *ik_status_name(ik_status s);
/* Parses a status name; returns IK_STATUS_COUNT when unknown. */
IK_API ik_status ik_status_parse(const char *name);

/* Joint position x for target p; opts may be NULL. end (may be NULL) receives the effector, the end of
 * bone 2: p itself, bit for bit, when reached without softening (or with stretch), else the nearest
 * point of the chain's reach along p's direction (the softened target in the soft zone); x itself
 * when degenerate. */
IK_API ik_status ik_solve2(ik_vec2 p, float r1, float r2, const ik_opts *opts, ik_vec2 *x, ik_vec2 *end);

/* 3D, with a pole vector choosing the bend plane (see above). */
IK_API ik_status ik_solve3(ik_vec3 p, float r1, float r2, ik_vec3 pole, const ik_opts *opts, ik_vec3 *x,
                    ik_vec3 *end);

/* Structure-of-arrays batch of n 2D solves with shared options; bit-identical to ik_solve2 case by case.
 * Inputs px, py, r1, r2; outputs x, y and (if not NULL) status, one byte per case holding an ik_status.
 * Output arrays must not overlap the inputs. */
IK_API void ik_solve2_batch(size_t n, const float *px, const float *py, const float *r1, const float *r2,
                     const ik_opts *opts, float *x, float *y, uint8_t *status);

/* Structure-of-arrays batch of n 3D solves with shared options, for many limbs; bit-identical to ik_solve3
 * case by case. Inputs px, py, pz, r1, r2 and the pole: one per case in pole_x[i], pole_y[i], pole_z[i],
 * or with shared_pole non-zero one for every case in pole_x[0], pole_y[0], pole_z[0]. Outputs x, y, z and
 * (if not NULL) status, one byte per case holding an ik_status. Output arrays must not overlap the
 * inputs. */
IK_API void ik_solve3_batch(size_t n, const float *px, const float *py, const float *pz, const float *r1,
                            const float *r2, const float *pole_x, const float *pole_y, const float *pole_z,
                            int shared_pole, const ik_opts *opts, float *x, float *y, float *z,
                            uint8_t *status);

#ifdef __cplusplus
}
#endif
#endif
