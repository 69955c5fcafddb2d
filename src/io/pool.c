/* pool.c: the encoder pool: a free list and a FIFO of filled buffers under one mutex. */
#include "io/pool.h"


#include <limits.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct iks_pool {
    pthread_mutex_t mu;
    pthread_cond_t work, space, idle;
    pthread_t *threads;
    int nthreads;
    uint8_t **bufs;
    int nbufs;
    int *free_list, nfree;
    int *queue;   /* ring of filled buffers */
    long *frames; /* frame of each buffer */
    long *tickets; /* each buffer's place in the order of submission */
    long submitted, committed; /* tickets handed out; jobs committed, in that order */
    long fail_ticket;          /* the earliest failed job's ticket (LONG_MAX: none) */
    iks_commit_fn commit;
    pthread_cond_t turn;
    int qhead, qlen;
    int busy;     /* jobs running */
    bool stop, failed;
    long done;
    iks_err err;  /* the first failure, owned by the pool (moved here from the worker that made it) */
    iks_job_fn fn;
    void *ctx;
    int nice;
};

static void *worker(void *arg)
{
    iks_pool *p = arg;
    /* Linux applies a thread id's niceness to that thread alone; raising it needs no privilege, and if
     * it fails the pool merely runs at normal priority */
    if (p->nice > 0) (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), p->nice);
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->qlen == 0 && !p->stop) pthread_cond_wait(&p->work, &p->mu);
        if (p->qlen == 0 && p->stop) break;
        int b = p->queue[p->qhead];
        p->qhead = (p->qhead + 1) % p->nbufs;
        p->qlen--;
        p->busy++;
        bool skip = p->failed;
        long frame = p->frames[b], ticket = p->tickets[b];
        pthread_mutex_unlock(&p->mu);
        /* the job's error is this thread's until it is moved into the pool under the lock */
        iks_err err = IKS_ERR_INIT;
        bool ok = skip || p->fn(p->ctx, frame, p->bufs[b], &err);
        if (!ok && err.code == IKS_OK) iks_err_set(&err, IKS_E_IO, "frame %ld: the encoder failed without a reason", frame);
        pthread_mutex_lock(&p->mu);
        if (p->commit && ok && !skip) {
            /* Jobs before this one were taken from the queue first, so they run or have ended: waiting
             * for them cannot wait for this one. After an earlier failure this job's file would follow
             * a hole: it is given up, and what is committed stays a prefix of what was submitted. */
            while (p->committed != ticket && p->fail_ticket > ticket) pthread_cond_wait(&p->turn, &p->mu);
            bool mine = p->committed == ticket;
            pthread_mutex_unlock(&p->mu);
            if (mine) ok = p->commit(p->ctx, frame, true, &err);
            else {
                p->commit(p->ctx, frame, false, NULL);
                skip = true; /* given up, not failed: the earlier failure says why */
            }
            pthread_mutex_lock(&p->mu);
            if (mine && ok) p->committed++;
            pthread_cond_broadcast(&p->turn);
        }
        p->busy--;
        if (!ok && ticket < p->fail_ticket) {
            /* the earliest failure is the one that says why the frames stop where they do */
            p->failed = true;
            p->fail_ticket = ticket;
            iks_err_clear(&p->err);
            iks_err_move(&p->err, &err);
            pthread_cond_broadcast(&p->turn);
        }
        iks_err_clear(&err); /* a later failure's, or a warning-like error a succeeding job left */
        if (ok && !skip) p->done++;
        p->free_list[p->nfree++] = b;
        pthread_cond_broadcast(&p->space);
        if (p->qlen == 0 && p->busy == 0) pthread_cond_broadcast(&p->idle);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL; /* what a job keeps per thread (the PNG encoder's scratch) its own key destructor frees */
}

iks_pool *iks_pool_create(int threads, int buffers, size_t buf_bytes, int nice, iks_job_fn fn, iks_commit_fn commit,
                          void *ctx)
{
    if (threads < 1) threads = 1;
    if (buffers < threads + 1) buffers = threads + 1;
    iks_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->fn = fn;
    p->commit = commit;
    p->fail_ticket = LONG_MAX;
    p->nice = nice;
    p->ctx = ctx;
    p->nbufs = buffers;
    p->bufs = calloc((size_t)buffers, sizeof *p->bufs);
    p->free_list = calloc((size_t)buffers, sizeof *p->free_list);
    p->queue = calloc((size_t)buffers, sizeof *p->queue);
    p->frames = calloc((size_t)buffers, sizeof *p->frames);
    p->tickets = calloc((size_t)buffers, sizeof *p->tickets);
    p->threads = calloc((size_t)threads, sizeof *p->threads);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->space, NULL);
    pthread_cond_init(&p->idle, NULL);
    pthread_cond_init(&p->turn, NULL);
    if (!p->bufs || !p->free_list || !p->queue || !p->frames || !p->tickets || !p->threads) goto fail;
    for (int i = 0; i < buffers; i++) {
        p->bufs[i] = malloc(buf_bytes);
        if (!p->bufs[i]) goto fail;
        p->free_list[p->nfree++] = i;
    }
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&p->threads[i], NULL, worker, p) != 0) goto fail;
        p->nthreads++;
    }
    return p;
fail:
    iks_pool_finish(p, NULL);
    iks_pool_destroy(p);
    return NULL;
}

uint8_t *iks_pool_acquire(iks_pool *p, int *buf)
{
    pthread_mutex_lock(&p->mu);
    while (p->nfree == 0 && !p->failed) pthread_cond_wait(&p->space, &p->mu);
    uint8_t *r = NULL;
    if (!p->failed) {
        *buf = p->free_list[--p->nfree];
        r = p->bufs[*buf];
    }
    pthread_mutex_unlock(&p->mu);
    return r;
}

void iks_pool_submit(iks_pool *p, int buf, long frame)
{
    pthread_mutex_lock(&p->mu);
    p->frames[buf] = frame;
    p->tickets[buf] = p->submitted++;
    p->queue[(p->qhead + p->qlen) % p->nbufs] = buf;
    p->qlen++;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
}

long iks_pool_done(iks_pool *p)
{
    pthread_mutex_lock(&p->mu);
    long d = p->done;
    pthread_mutex_unlock(&p->mu);
    return d;
}

bool iks_pool_finish(iks_pool *p, iks_err *e)
{
    if (!p) return iks_err_set(e, IKS_E_USAGE, "no encoder pool");
    pthread_mutex_lock(&p->mu);
    while ((p->qlen > 0 || p->busy > 0) && p->nthreads > 0) pthread_cond_wait(&p->idle, &p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->nthreads; i++) pthread_join(p->threads[i], NULL);
    p->nthreads = 0;
    /* a copy: the pool's stays for a later call, and is freed with the pool */
    if (p->failed && e) iks_err_set(e, p->err.code, "%s", iks_err_msg(&p->err));
    return !p->failed;
}

void iks_pool_destroy(iks_pool *p)
{
    if (!p) return;
    if (p->bufs)
        for (int i = 0; i < p->nbufs; i++) free(p->bufs[i]);
    free(p->bufs);
    free(p->free_list);
    free(p->queue);
    free(p->frames);
    free(p->tickets);
    free(p->threads);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->space);
    pthread_cond_destroy(&p->idle);
    pthread_cond_destroy(&p->turn);
    iks_err_clear(&p->err);
    free(p);
}
