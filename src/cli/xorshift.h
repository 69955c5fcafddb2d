/* xorshift.h: xorshift64*, the seeded generator behind `ikshade check`'s cases and the solver tests'
 * cases: portable and identical everywhere, so a seed names the same cases on every machine. */
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

#endif
