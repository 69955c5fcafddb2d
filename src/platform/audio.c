/* audio.c: the viewer's sound through ALSA (see audio.h). */
#include "platform/audio.h"

#include "base/clock.h"
#include "base/dynlib.h"

#include <alsa/asoundlib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LEAD 0.12          /* written ahead of the frame's time (s): covers a slow frame without an underrun */
#define JUMP 0.25          /* the time off from where the stream is by more than this: a jump, restart */
#define MAX_QUEUED 0.5     /* the device further behind than this (its clock is slower): restart */
#define CHUNK 1024

struct iks_audio_out {
    snd_pcm_t *pcm;
    bool running;
    long long next;        /* the stream's next sample to write */
    double last_t, last_wall;
    int16_t buf[2 * CHUNK];
};

/* ALSA is loaded when the viewer first plays a sound (base/dynlib.h): a program that never does, an
 * embedder drawing frames, does not map it */
#define ALSA_FNS(X)                                                                                      \
    X(snd_pcm_open) X(snd_pcm_set_params) X(snd_pcm_close) X(snd_pcm_drop) X(snd_pcm_prepare)            \
    X(snd_pcm_delay) X(snd_pcm_avail_update) X(snd_pcm_writei) X(snd_strerror) X(snd_lib_error_set_local)
static struct {
    ALSA_FNS(IKS_DYN_PTR)
} la;
static iks_dynlib libasound = IKS_DYNLIB("libasound.so.2", "libasound2");

#define IKS_DYN_TABLE la
IKS_DYNLIB_LOADER(alsa_loaded, ALSA_FNS, libasound, "ALSA")
#undef IKS_DYN_TABLE
/* the calls below go through the pointers */
#define snd_pcm_open (*la.snd_pcm_open)
#define snd_pcm_set_params (*la.snd_pcm_set_params)
#define snd_pcm_close (*la.snd_pcm_close)
#define snd_pcm_drop (*la.snd_pcm_drop)
#define snd_pcm_prepare (*la.snd_pcm_prepare)
#define snd_pcm_delay (*la.snd_pcm_delay)
#define snd_pcm_avail_update (*la.snd_pcm_avail_update)
#define snd_pcm_writei (*la.snd_pcm_writei)
#define snd_strerror (*la.snd_strerror)
#define snd_lib_error_set_local (*la.snd_lib_error_set_local)

/* ALSA prints its own lines ("ALSA lib confmisc.c:855:(...) cannot find card '0'") on stderr where there
 * is no sound device, before our one warning says the same. Its thread-local handler takes them for this
 * thread alone while we open (a host's own handler, set with snd_lib_error_set_handler, still gets them):
 * the first becomes the warning's reason. */
static _Thread_local char alsa_said[160];

static void alsa_quiet(const char *file, int line, const char *func, int err, const char *fmt, va_list ap)
{
    (void)file, (void)line, (void)func, (void)err;
    if (!alsa_said[0]) vsnprintf(alsa_said, sizeof alsa_said, fmt, ap);
}

iks_audio_out *iks_audio_out_open(iks_err *e)
{
    if (!alsa_loaded(e)) return NULL;
    iks_audio_out *a = calloc(1, sizeof *a);
    if (!a) {
        iks_err_set(e, IKS_E_NOMEM, "out of memory");
        return NULL;
    }
    alsa_said[0] = '\0';
    snd_local_error_handler_t was = snd_lib_error_set_local(alsa_quiet);
    int rc = snd_pcm_open(&a->pcm, "default", SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK);
    if (rc >= 0)
        rc = snd_pcm_set_params(a->pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 2, IKS_AUDIO_OUT_RATE,
                                1, 250000 /* us of buffer */);
    snd_lib_error_set_local(was);
    if (rc < 0) {
        if (alsa_said[0]) iks_err_set(e, IKS_E_UNSUPPORTED, "ALSA: %s (%s)", snd_strerror(rc), alsa_said);
        else iks_err_set(e, IKS_E_UNSUPPORTED, "ALSA: %s", snd_strerror(rc));
        if (a->pcm) snd_pcm_close(a->pcm);
        free(a);
        return NULL;
    }
    return a;
}

static void restart(iks_audio_out *a, double t)
{
    snd_pcm_drop(a->pcm);
    snd_pcm_prepare(a->pcm);
    a->next = (long long)floor(t * IKS_AUDIO_OUT_RATE + 1e-6);
    a->running = true;
}

void iks_audio_out_play(iks_audio_out *a, double t, bool playing, iks_audio_fill fill, void *user)
{
    if (!a) return;
    double now = iks_now();
    if (!playing) {
        if (a->running) snd_pcm_drop(a->pcm);
        a->running = false;
    } else {
        /* where the stream would be if the time had run on with the clock since the last call */
        double expect = a->last_t + (now - a->last_wall);
        snd_pcm_sframes_t delay = 0;
        bool behind = a->running && snd_pcm_delay(a->pcm, &delay) == 0 && delay > MAX_QUEUED * IKS_AUDIO_OUT_RATE;
        if (!a->running || fabs(t - expect) > JUMP || behind) restart(a, t);
        long long target = (long long)floor((t + LEAD) * IKS_AUDIO_OUT_RATE);
        int restarts = 0; /* a device that underruns at once every time is not retried forever */
        while (a->next < target && restarts < 2) {
            int n = target - a->next > CHUNK ? CHUNK : (int)(target - a->next);
            snd_pcm_sframes_t room = snd_pcm_avail_update(a->pcm);
            if (room == -EPIPE) { /* an underrun (the viewer stalled): start again at the frame's time */
                restart(a, t);
                restarts++;
                continue;
            }
            if (room <= 0) break;
            if (n > room) n = (int)room;
            fill(user, a->next, n, a->buf);
            snd_pcm_sframes_t w = snd_pcm_writei(a->pcm, a->buf, (snd_pcm_uframes_t)n);
            if (w == -EPIPE) {
                restart(a, t);
                restarts++;
                continue;
            }
            if (w <= 0) break; /* EAGAIN: full; anything else: try again next frame */
            a->next += w;
        }
    }
    a->last_t = t;
    a->last_wall = now;
}

void iks_audio_out_close(iks_audio_out *a)
{
    if (!a) return;
    /* the frames queued are not played out: the window is gone, and so should its sound be */
    snd_pcm_drop(a->pcm);
    snd_pcm_close(a->pcm);
    free(a);
}
