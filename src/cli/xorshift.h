/* xorshift.h: xorshift64*, the seeded generator behind `ikshade check`'s cases and the solver tests'
 * cases, and the case distribution both draw from: portable and identical everywhere, so a seed
 * names the same cases on every machine. */
#ifndef IKS_XORSHIFT_H
#define IKS_XORSHIFT_H

#include <math.h>
#include <stdint.h>

/* uniform in [0, 1) from state *s (any nonzero seed) */
static inline double xs_urand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (double)((*s * 0x2545F4914F6CDD1Dull) >> 11) * 0x1p-53;
}

/* log-uniform in [lo, hi) */
static inline double xs_logu(uint64_t *s, double lo, double hi) { return lo * pow(hi / lo, xs_urand(s)); }

/* One two-bone case where the solver is hardest: lengths log-uniform in 1e-3..1e3 (ratios to 1e6); a
 * third of targets anywhere up to 1.3 (r1 + r2), a third within 1e-7..1e-1 relative of r1 + r2, a
 * third within that of |r1 - r2|. */
static inline void xs_ik_case(uint64_t *s, double *px, double *py, double *r1, double *r2)
{
    *r1 = xs_logu(s, 1e-3, 1e3);
    *r2 = xs_logu(s, 1e-3, 1e3);
    double L = *r1 + *r2, D = fabs(*r1 - *r2), d;
    /* one draw per statement: C leaves the order of a product's operands open, and a seed must name
     * the same cases whatever the compiler */
    double u = xs_urand(s);
    double rel = xs_logu(s, 1e-7, 1e-1);
    if (xs_urand(s) < 0.5) rel = -rel;
    if (u < 1.0 / 3) d = 1.3 * L * xs_urand(s);
    else if (u < 2.0 / 3) d = L * (1 + rel);
    else d = D * (1 + rel);
    double ang = 6.283185307179586 * xs_urand(s);
    *px = d * cos(ang);
    *py = d * sin(ang);
}

#endif
