/* stop.c: the process-wide stop request (see stop.h). */
#include "base/stop.h"

#include <stdatomic.h>

static atomic_int stop_flag;

void iks_stop_request(void) { atomic_store(&stop_flag, 1); }
void iks_stop_reset(void) { atomic_store(&stop_flag, 0); }
bool iks_stop_requested(void) { return atomic_load(&stop_flag) != 0; }
