/* capture_audio.c: see capture_audio.h. ffmpeg's pulse input (-f pulse) reads PulseAudio and
 * PipeWire's pulse server alike, which Debian's desktops run; the viewer already spawns ffmpeg for
 * music and video, so no library is added (docs/DESIGN-NOTES.md, "Microphone capture"). */
#include "media/capture_audio.h"

#include "base/buf.h"
#include "base/clock.h"
#include "base/subproc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* 2^20 samples (24 s): a viewer stalled longer (a slow Cube A frame) loses the oldest */
#define QUEUE (1 << 20)
#define RETRY_S 1.0
/* pulse's fragment: 512 bytes of f32 = 128 samples, 2.9 ms: the site's render quantum, so sound
 * reaches the texture in the frame it was captured in rather than in 20 ms blocks */
#define FRAGMENT "512"

struct iks_capture_audio {
    char *device;           /* NULL: the default source */
    pthread_t thread;
    pthread_mutex_t mu;
    float *queue;           /* sample number i at queue[i % QUEUE] */
    long long head, tail;   /* samples [tail, head) wait to be taken */
    char news[512];
    bool has_news, live, stop;
    bool lost;              /* it was away once: its return is news */
    pid_t pid;              /* ffmpeg while it runs, else 0 (the stop kills it) */
    double start;           /* the capture's clock: iks_now() at its sample 0 */
    long long made;         /* samples put in the queue so far (sound or silence) */
};

static void put(iks_capture_audio *c, const float *s, size_t n)
{
    pthread_mutex_lock(&c->mu);
    for (size_t i = 0; i < n; i++) c->queue[c->head++ % QUEUE] = s ? s[i] : 0.0f;
    if (c->head - c->tail > QUEUE) c->tail = c->head - QUEUE;
    pthread_mutex_unlock(&c->mu);
    c->made += (long long)n;
}

/* silence up to the wall clock: the device is away, and its time must go on */
static void catch_up(iks_capture_audio *c)
{
    long long due = (long long)((iks_now() - c->start) * IKS_CAPTURE_RATE);
    if (due > c->made) put(c, NULL, (size_t)(due - c->made));
}

static void say(iks_capture_audio *c, bool live, const char *fmt, const char *why)
{
    pthread_mutex_lock(&c->mu);
    snprintf(c->news, sizeof c->news, fmt, c->device ? c->device : "default", why);
    c->has_news = fmt[0] != '\0';
    c->live = live;
    pthread_mutex_unlock(&c->mu);
}

static bool stopping(iks_capture_audio *c)
{
    pthread_mutex_lock(&c->mu);
    bool s = c->stop;
    pthread_mutex_unlock(&c->mu);
    return s;
}

/* ffmpeg's last line on stderr, the reason it gave up, trimmed */
static void last_line(int fd, char *why, size_t n)
{
    char buf[4096];
    ssize_t k = read(fd, buf, sizeof buf - 1);
    if (k <= 0) {
        snprintf(why, n, "the capture ended");
        return;
    }
    buf[k] = '\0';
    while (k > 0 && (buf[k - 1] == '\n' || buf[k - 1] == '\r')) buf[--k] = '\0';
    char *line = strrchr(buf, '\n');
    line = line ? line + 1 : buf;
    char *colon = strstr(line, ": ");  /* "default: Connection refused" -> the reason */
    const char *shown = colon && colon[2] ? colon + 2 : line;
    size_t len = strlen(shown);
    if (len >= n) len = n - 1; /* cut: the HUD's line, not ffmpeg's whole story */
    memcpy(why, shown, len);
    why[len] = '\0';
}

/* One connection: ffmpeg started, its sound into the queue until it ends or the stop. true when it
 * delivered sound (the device was there). */
static bool run_once(iks_capture_audio *c, char *why, size_t nwhy)
{
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0) return snprintf(why, nwhy, "%s", strerror(errno)), false;
    if (pipe2(err, O_CLOEXEC | O_NONBLOCK) != 0) {
        close(out[0]), close(out[1]);
        return snprintf(why, nwhy, "%s", strerror(errno)), false;
    }
    char *argv[] = { "ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-f", "pulse", "-fragment_size", FRAGMENT,
                     "-name", "ikshade", "-i", c->device ? c->device : "default", "-ac", "2", "-ar", "44100",
                     "-f", "f32le", "pipe:1", NULL };
    int fds[3] = { IKS_SPAWN_NULL, out[1], err[1] };
    pid_t pid;
    int rc = iks_spawn(&pid, argv, fds, 3, true);
    close(out[1]), close(err[1]);
    if (rc != 0) {
        close(out[0]), close(err[0]);
        return snprintf(why, nwhy, "ffmpeg: %s", strerror(rc)), false;
    }
    pthread_mutex_lock(&c->mu);
    c->pid = c->stop ? 0 : pid;
    bool stop = c->stop;
    pthread_mutex_unlock(&c->mu);
    if (stop) kill(pid, SIGTERM);
    bool got = false;
    float buf[2048], mono[1024];
    size_t have = 0; /* bytes of buf filled: a frame may come in two reads */
    for (;;) {
        struct pollfd pf = { out[0], POLLIN, 0 };
        int r = poll(&pf, 1, 50);
        if (stopping(c)) break;
        if (r == 0 || (r < 0 && errno == EINTR)) {
            if (!got) catch_up(c); /* ffmpeg still connecting */
            continue;
        }
        ssize_t k = read(out[0], (char *)buf + have, sizeof buf - have);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        if (!got) {
            catch_up(c);
            got = true;
            say(c, true, c->lost ? "microphone '%s': back%s" : "", "");
        }
        have += (size_t)k;
        /* stereo to mono as WebAudio mixes a stream into an analyser, (L + R) / 2 (ffmpeg's -ac 1 takes
         * -3 dB of each, 3 dB louder than the site); a mono source comes doubled, so it stays itself */
        size_t whole = have / (2 * sizeof(float));
        for (size_t i = 0; i < whole; i++) mono[i] = 0.5f * (buf[2 * i] + buf[2 * i + 1]);
        put(c, mono, whole);
        memmove(buf, (char *)buf + whole * 2 * sizeof(float), have - whole * 2 * sizeof(float));
        have -= whole * 2 * sizeof(float);
    }
    pthread_mutex_lock(&c->mu);
    c->pid = 0;
    pthread_mutex_unlock(&c->mu);
    kill(pid, SIGTERM);
    close(out[0]);
    iks_reap(pid);
    last_line(err[0], why, nwhy);
    close(err[0]);
    return got;
}

static void *capture_main(void *arg)
{
    iks_capture_audio *c = arg;
    bool reported = false; /* the device's absence said once, until it is back */
    while (!stopping(c)) {
        char why[300];
        bool got = run_once(c, why, sizeof why);
        if (stopping(c)) break;
        if (got || !reported) {
            say(c, false, "microphone '%s': no sound (%s): silent, retrying every second", why);
            c->lost = reported = true;
        }
        for (double until = iks_now() + RETRY_S; iks_now() < until && !stopping(c);) {
            catch_up(c);
            nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
        }
    }
    return NULL;
}

iks_capture_audio *iks_capture_audio_start(const char *device, iks_err *e)
{
    char *ff = iks_find_program("ffmpeg");
    if (!ff) return iks_err_set(e, IKS_E_UNSUPPORTED, "a microphone channel needs ffmpeg (apt-get install ffmpeg)"), NULL;
    free(ff);
    iks_capture_audio *c = calloc(1, sizeof *c);
    if (!c || !(c->queue = malloc(QUEUE * sizeof *c->queue)) || (device && *device && !(c->device = strdup(device)))) {
        if (c) free(c->queue);
        free(c);
        return iks_err_set(e, IKS_E_NOMEM, "out of memory"), NULL;
    }
    pthread_mutex_init(&c->mu, NULL);
    c->start = iks_now();
    /* the capture thread takes no signal: Ctrl-C reaches the viewer's loop, which stops it */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&c->thread, NULL, capture_main, c);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        pthread_mutex_destroy(&c->mu);
        free(c->device);
        free(c->queue);
        free(c);
        return iks_err_set(e, IKS_E_IO, "cannot start the microphone's thread: %s", strerror(rc)), NULL;
    }
    return c;
}

size_t iks_capture_audio_take(iks_capture_audio *c, float *out, size_t max)
{
    pthread_mutex_lock(&c->mu);
    size_t n = 0;
    while (n < max && c->tail < c->head) out[n++] = c->queue[c->tail++ % QUEUE];
    pthread_mutex_unlock(&c->mu);
    return n;
}

bool iks_capture_audio_news(iks_capture_audio *c, char *line, size_t n)
{
    pthread_mutex_lock(&c->mu);
    bool had = c->has_news;
    if (had) snprintf(line, n, "%s", c->news);
    c->has_news = false;
    pthread_mutex_unlock(&c->mu);
    return had;
}

bool iks_capture_audio_live(iks_capture_audio *c)
{
    pthread_mutex_lock(&c->mu);
    bool live = c->live;
    pthread_mutex_unlock(&c->mu);
    return live;
}

void iks_capture_audio_stop(iks_capture_audio *c)
{
    if (!c) return;
    pthread_mutex_lock(&c->mu);
    c->stop = true;
    if (c->pid > 0) kill(c->pid, SIGTERM); /* not reaped yet (run_once reaps): the pid is still ours */
    pthread_mutex_unlock(&c->mu);
    pthread_join(c->thread, NULL);
    pthread_mutex_destroy(&c->mu);
    free(c->device);
    free(c->queue);
    free(c);
}

/* One line of `pactl list short sources`: index, name, driver, format, state, tab-separated */
static void list_line(char *line, const char *dflt, void (*each)(void *, const char *, const char *, bool), void *user)
{
    char *f[5] = { 0 };
    int k = 0;
    for (char *s = line; k < 5 && s; k++) {
        f[k] = s;
        s = strchr(s, '\t');
        if (s) *s++ = '\0';
    }
    if (k < 2 || !*f[1]) return;
    char desc[256];
    snprintf(desc, sizeof desc, "%s%s%s", f[3] ? f[3] : "", f[4] ? ", " : "", f[4] ? f[4] : "");
    each(user, f[1], desc, strcmp(f[1], dflt) == 0);
}

/* pactl's output, NUL-terminated (malloc'd), or NULL */
static char *pactl(char *const argv[], iks_err *e)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) return iks_err_set(e, IKS_E_IO, "%s", strerror(errno)), NULL;
    pid_t pid;
    int rc = iks_spawn(&pid, argv, (int[]){ IKS_SPAWN_NULL, p[1], IKS_SPAWN_NULL }, 3, true);
    close(p[1]);
    if (rc != 0) {
        close(p[0]);
        return iks_err_set(e, IKS_E_UNSUPPORTED, "listing microphones needs pactl (apt-get install pulseaudio-utils)"), NULL;
    }
    iks_sbuf b = { 0 };
    char chunk[4096];
    for (ssize_t k; (k = read(p[0], chunk, sizeof chunk)) != 0;) {
        if (k < 0) {
            if (errno == EINTR) continue;
            break;
        }
        iks_sbuf_add(&b, chunk, (size_t)k);
    }
    close(p[0]);
    int st = iks_reap(pid);
    char *s = iks_sbuf_take(&b, NULL);
    if (!s) return iks_err_set(e, IKS_E_NOMEM, "out of memory"), NULL;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        free(s);
        return iks_err_set(e, IKS_E_IO, "no sound server answered (pactl failed): no microphones to list"), NULL;
    }
    return s;
}

bool iks_capture_audio_list(void (*each)(void *user, const char *name, const char *desc, bool is_default),
                            void *user, iks_err *e)
{
    char *dflt = pactl((char *[]){ "pactl", "get-default-source", NULL }, e);
    if (!dflt) return false;
    dflt[strcspn(dflt, "\n")] = '\0';
    char *all = pactl((char *[]){ "pactl", "list", "short", "sources", NULL }, e);
    if (!all) {
        free(dflt);
        return false;
    }
    for (char *line = all, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        list_line(line, dflt, each, user);
    }
    free(all);
    free(dflt);
    return true;
}
