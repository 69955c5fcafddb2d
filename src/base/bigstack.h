/* bigstack.h: running a deep recursion (the GL driver's shader compiler) on a stack large enough for
 * it, whatever thread the embedding program calls from. */
#ifndef IKS_BIGSTACK_H
#define IKS_BIGSTACK_H

#include <stddef.h>

/* The stack the ikshade command runs on, and what a compile gets here: Mesa's compiler recurses once
 * per term of an expression, and a statement of 30,000 terms overflowed a default 8 MiB thread. */
#define IKS_BIG_STACK ((size_t)512 << 20)

/* Calls fn(arg) on this thread, on a stack of IKS_BIG_STACK mapped for the call (pages are only backed
 * as they are touched; the mapping costs microseconds) and switched to with swapcontext, so the
 * thread's GL context stays current. Directly where the mapping fails (a system that does not
 * overcommit) and inside such a call. */
void iks_on_big_stack(void (*fn)(void *), void *arg);

#endif
