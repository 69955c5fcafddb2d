/* stop.h: the process-wide stop request. A signal handler asks (async-signal-safe); blocking writes
 * (io/outfile.c), render loops and decoders waiting on a child (media/mediain.c) look, so that a stop
 * is not held up by whichever of them is waiting. In base, as every layer may need to look. */
#ifndef IKS_STOP_H
#define IKS_STOP_H

#include <stdbool.h>

/* Async-signal-safe: asks every blocking write, wait and render loop in the process to stop. */
void iks_stop_request(void);
void iks_stop_reset(void);
bool iks_stop_requested(void);

#endif
