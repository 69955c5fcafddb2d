/* test_pool.c: the encoder pool: every job runs exactly once with its frame's number and data, no more
 * buffers exist than were asked for, the first failing job stops the pool and its error (code and
 * message, made on the worker thread) reaches iks_pool_finish's caller unchanged, and odd shapes (more
 * threads than jobs, one thread) work. Run it under ASan/TSan-free builds alike: it needs no GL. */
#include "check.h"
#include "io/pool.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BYTES 4096
#define MAX_FRAMES 20000

typedef struct {
    pthread_mutex_t mu;
    int runs[MAX_FRAMES];   /* how often each frame's job ran */
    long order[MAX_FRAMES]; /* frames in the order their jobs ran */
    int nrun;
    int bad_data;           /* jobs that saw another frame's bytes */
    long fail_from;         /* jobs for frames >= this fail (-1: none) */
    bool fail_silently;     /* fail without setting the error */
    int slow_us;            /* each job's duration */
} job_ctx;

static void fill(uint8_t *b, long frame)
{
    memcpy(b, &frame, sizeof frame);
    memset(b + sizeof frame, (int)(frame * 7 & 0xff), BYTES - sizeof frame);
}

static bool job(void *vctx, long frame, const uint8_t *data, iks_err *e)
{
    job_ctx *c = vctx;
    if (c->slow_us) nanosleep(&(struct timespec){ 0, c->slow_us * 1000L }, NULL);
    long got;
    memcpy(&got, data, sizeof got);
    bool same = got == frame;
    for (size_t i = sizeof got; i < BYTES && same; i++) same = data[i] == (uint8_t)(frame * 7 & 0xff);
    pthread_mutex_lock(&c->mu);
    if (frame >= 0 && frame < MAX_FRAMES) c->runs[frame]++;
    if (c->nrun < MAX_FRAMES) c->order[c->nrun] = frame;
    c->nrun++;
    if (!same) c->bad_data++;
    pthread_mutex_unlock(&c->mu);
    if (c->fail_from >= 0 && frame >= c->fail_from) {
        if (c->fail_silently) return false;
        return iks_err_set(e, IKS_E_IO, "frame %ld: out/%04ld.png: No space left on device", frame, frame);
    }
    return true;
}

/* Produces frames 0..n-1 (or until acquire says stop); returns how many were submitted and the number
 * of distinct buffers handed out. */
static long produce(iks_pool *p, long n, int *distinct)
{
    uint8_t *seen[64];
    int nseen = 0;
    long f = 0;
    for (; f < n; f++) {
        int b = -1;
        uint8_t *buf = iks_pool_acquire(p, &b);
        if (!buf) break;
        bool known = false;
        for (int i = 0; i < nseen; i++) known |= seen[i] == buf;
        if (!known && nseen < 64) seen[nseen++] = buf;
        fill(buf, f);
        iks_pool_submit(p, b, f);
    }
    *distinct = nseen;
    return f;
}

static job_ctx *new_ctx(void)
{
    job_ctx *c = calloc(1, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    c->fail_from = -1;
    return c;
}

static void free_ctx(job_ctx *c)
{
    pthread_mutex_destroy(&c->mu);
    free(c);
}

/* n jobs on threads x buffers all run exactly once, with their data, in bounded memory */
static void run_all(int threads, int buffers, long n, int slow_us)
{
    job_ctx *c = new_ctx();
    c->slow_us = slow_us;
    iks_pool *p = iks_pool_create(threads, buffers, BYTES, 0, job, NULL, c);
    CHECK(p != NULL, "create %d threads", threads);
    if (!p) return;
    int distinct = 0;
    long sent = produce(p, n, &distinct);
    iks_err e = IKS_ERR_INIT;
    CHECK(iks_pool_finish(p, &e), "%d threads: %s", threads, iks_err_msg(&e));
    CHECK(e.code == IKS_OK, "no error: %s", cname(e.code));
    CHECK(sent == n, "%d threads: submitted %ld of %ld", threads, sent, n);
    CHECK(iks_pool_done(p) == n, "%d threads: done %ld of %ld", threads, iks_pool_done(p), n);
    int wrong = 0;
    for (long f = 0; f < n; f++) wrong += c->runs[f] != 1;
    CHECK(wrong == 0 && c->nrun == n, "%d threads: %d frames ran other than once (%d runs)", threads, wrong, c->nrun);
    CHECK(c->bad_data == 0, "%d threads: %d jobs saw the wrong bytes", threads, c->bad_data);
    int asked = buffers < threads + 1 ? threads + 1 : buffers;
    CHECK(distinct <= asked, "%d threads, %d buffers asked: %d handed out", threads, asked, distinct);
    if (threads == 1) {
        bool in_order = true;
        for (long f = 0; f < n; f++) in_order &= c->order[f] == f;
        CHECK(in_order, "one thread runs the frames in order");
    }
    iks_pool_destroy(p);
    free_ctx(c);
}

/* the first failure stops the pool; finish hands over its code and message as the job made them */
static void run_failing(int threads, bool silently)
{
    job_ctx *c = new_ctx();
    c->fail_from = 10;
    c->fail_silently = silently;
    c->slow_us = 200;
    iks_pool *p = iks_pool_create(threads, 0, BYTES, 0, job, NULL, c);
    CHECK(p != NULL, "create");
    if (!p) return;
    int distinct;
    long sent = produce(p, MAX_FRAMES, &distinct);
    CHECK(sent < MAX_FRAMES, "%d threads: acquire stopped the producer after the failure (sent %ld)", threads, sent);
    iks_err e = IKS_ERR_INIT;
    CHECK(!iks_pool_finish(p, &e), "%d threads: finish reports the failure", threads);
    CHECK(e.code == IKS_E_IO, "code %s", cname(e.code));
    long frame = -1, again = -2;
    if (silently)
        CHECK(sscanf(iks_err_msg(&e), "frame %ld: the encoder failed without a reason", &frame) == 1 && frame >= 10,
              "a silent failure is named: '%s'", iks_err_msg(&e));
    else
        CHECK(sscanf(iks_err_msg(&e), "frame %ld: out/%ld.png: No space left on device", &frame, &again) == 2 &&
                  frame == again && frame >= 10, "the job's own message: '%s'", iks_err_msg(&e));
    if (threads == 1) CHECK(frame == 10, "one thread: the first failure is frame 10's, got %ld", frame);
    CHECK(iks_pool_done(p) == 10, "%d threads: the 10 jobs before it succeeded: %ld", threads, iks_pool_done(p));
    /* jobs queued after the failure are skipped, not run: before any failing job has finished, at most
     * one per thread can have started */
    CHECK(c->nrun <= 10 + threads, "%d threads: %d of %ld jobs ran", threads, c->nrun, sent);
    /* asking again gives the same error; NULL is allowed */
    iks_err e2 = IKS_ERR_INIT;
    CHECK(!iks_pool_finish(p, &e2) && e2.code == e.code && !strcmp(iks_err_msg(&e2), iks_err_msg(&e)),
          "again: %s '%s'", cname(e2.code), iks_err_msg(&e2));
    CHECK(!iks_pool_finish(p, NULL), "without an error to fill");
    iks_err_clear(&e);
    iks_err_clear(&e2);
    iks_pool_destroy(p);
    free_ctx(c);
}

int main(void)
{
    run_all(4, 0, 500, 0);      /* the default: threads + 1 buffers */
    run_all(3, 8, 300, 50);     /* more buffers than threads, slow jobs: the producer waits for buffers */
    run_all(16, 0, 3, 0);       /* more threads than jobs */
    run_all(1, 0, 200, 0);      /* one thread: in order */
    run_all(2, 0, 0, 0);        /* no jobs at all */
    run_failing(1, false);
    run_failing(4, false);
    run_failing(3, true);
    iks_err e = IKS_ERR_INIT;
    CHECK(!iks_pool_finish(NULL, &e) && e.code != IKS_OK, "no pool: %s", cname(e.code));
    iks_err_clear(&e);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
