/* pool.h: a bounded pool of encoder threads. The producer (the GL thread) acquires a free frame
 * buffer, fills it, and submits it; workers run the job on it and give it back. Memory is bounded by
 * the number of buffers, whatever the number of frames. */
#ifndef IKS_POOL_H
#define IKS_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IKS_POOL_ERR_LEN 512

/* A job: returns false and fills err on failure (the first failure stops the pool). */
typedef bool (*iks_job_fn)(void *ctx, long frame, const uint8_t *data, char err[IKS_POOL_ERR_LEN]);

typedef struct iks_pool iks_pool;

/* threads >= 1 workers, buffers of buf_bytes each (at least threads + 1 of them). nice > 0 lowers the
 * workers' scheduling priority by that much (see the render loop for why). NULL on failure.
 * Owner: the caller, through iks_pool_finish then iks_pool_destroy. */
iks_pool *iks_pool_create(int threads, int buffers, size_t buf_bytes, int nice, iks_job_fn fn, void *ctx);
/* Blocks for a free buffer; NULL once a job has failed (then stop producing). */
uint8_t *iks_pool_acquire(iks_pool *p, int *buf);
void iks_pool_submit(iks_pool *p, int buf, long frame);
/* Jobs completed successfully so far. */
long iks_pool_done(iks_pool *p);
/* Waits for every submitted job and stops the workers. false with the first error in err. */
bool iks_pool_finish(iks_pool *p, char err[IKS_POOL_ERR_LEN]);
void iks_pool_destroy(iks_pool *p);

#endif
