/* pool.h: a bounded pool of encoder threads. The producer (the GL thread) acquires a free frame
 * buffer, fills it, and submits it; workers run the job on it and give it back. Memory is bounded by
 * the number of buffers, whatever the number of frames. A job's error is an iks_err made on the worker
 * thread; the pool keeps the earliest submitted job's and hands it to iks_pool_finish's caller as it
 * was made. */
#ifndef IKS_POOL_H
#define IKS_POOL_H

#include "base/err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A job: returns false and sets e on failure (the first failure stops the pool). e is the worker's own,
 * clear on entry; a job that fails without setting it is reported as IKS_E_IO naming the frame. */
typedef bool (*iks_job_fn)(void *ctx, long frame, const uint8_t *data, iks_err *e);

/* A job's second step, when the pool has one: run on the job's own thread after it succeeded, in the
 * order the jobs were submitted. keep: this job's turn came (every job before it committed), so it is
 * to publish what its job prepared (false with e set when that fails); else a job before it failed and
 * this one gives up what it prepared (e is NULL; its result is ignored). Jobs whose turn came are the
 * ones counted done: after a failure they are a prefix of those submitted, with no holes. */
typedef bool (*iks_commit_fn)(void *ctx, long frame, bool keep, iks_err *e);

typedef struct iks_pool iks_pool;

/* threads >= 1 workers, buffers of buf_bytes each (at least threads + 1 of them). nice > 0 lowers the
 * workers' scheduling priority by that much (see the render loop for why). commit: NULL, or the step
 * that publishes each job's result in submission order (above). NULL on failure: out of
 * memory for the buffers, or no thread could be started.
 * Owner: the caller, through iks_pool_finish then iks_pool_destroy. */
iks_pool *iks_pool_create(int threads, int buffers, size_t buf_bytes, int nice, iks_job_fn fn, iks_commit_fn commit,
                          void *ctx);
/* Blocks for a free buffer; NULL once a job has failed (then stop producing). */
uint8_t *iks_pool_acquire(iks_pool *p, int *buf);
void iks_pool_submit(iks_pool *p, int buf, long frame);
/* Jobs completed successfully so far (with a commit step: committed, a prefix of those submitted). */
long iks_pool_done(iks_pool *p);
/* Waits for every submitted job and stops the workers. false when a job failed: e (may be NULL) gets
 * the error of the earliest submitted job that failed, code and message unchanged (again on every later
 * call). */
bool iks_pool_finish(iks_pool *p, iks_err *e);
void iks_pool_destroy(iks_pool *p);

#endif
