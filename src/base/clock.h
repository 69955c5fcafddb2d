/* clock.h: monotonic time, for every layer's deadlines and timings (one clock, one owner). */
#ifndef IKS_CLOCK_H
#define IKS_CLOCK_H

/* Seconds since an arbitrary fixed point, never going back (CLOCK_MONOTONIC). */
double iks_now(void);

#endif
