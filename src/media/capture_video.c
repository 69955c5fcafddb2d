/* capture_video.c: a camera through ffmpeg for a webcam channel (see capture_video.h).
 * ffmpeg rather than V4L2 by hand: it already turns every pixel format a camera offers (YUYV, MJPEG,
 * NV12...) into the RGBA the texture takes, it is already a dependency (media files), and its lavfi
 * test pattern goes through the same pipe, reader and reconnection as a camera, so the tests and a user
 * without a camera exercise the very code a performance runs. V4L2 itself is asked only what ffmpeg is
 * not: which /dev/video* capture, and at what size (its current format). */
#include "media/capture_video.h"

#include "base/buf.h"
#include "base/clock.h"
#include "base/subproc.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define TEST_W 320
#define TEST_H 240
#define RETRY_S 1.0      /* between attempts at a missing, busy or lost device */
#define STALL_S 3.0      /* a capture that gives no frame for this long is taken as lost (unplugged) */
#define MAX_VIDEO_NODES 64

struct iks_vcap {
    char *device;            /* NULL: the first that captures */
    char name[96];           /* as messages say it: "webcam /dev/video0" */
    pthread_t thread;
    atomic_bool stop;
    pthread_mutex_t mu;      /* guards the fields below */
    uint8_t *front;          /* the newest whole frame, top row first */
    size_t front_cap;
    int fw, fh;
    long seq;                /* frames taken in so far */
    char msg[320];           /* the state's line */
    long msg_seq;
    bool up;
    bool had;                /* the thread's: frames came before, so the next trouble is a loss */
};

/* ---- V4L2: which nodes capture, and at what size --------------------------------------------------- */

/* 0 and the card's name and current size, or an errno value (ENODEV: not a capture device) */
static int query_node(const char *path, char *card, size_t n, int *w, int *h)
{
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return errno;
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    int rc = 0;
    if (ioctl(fd, VIDIOC_QUERYCAP, &cap) != 0) rc = errno == ENOTTY ? ENODEV : errno;
    else {
        /* a node of a device with several (metadata, output) answers for itself in device_caps */
        unsigned caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps : cap.capabilities;
        if (!(caps & V4L2_CAP_VIDEO_CAPTURE)) rc = ENODEV;
    }
    if (!rc && card) snprintf(card, n, "%.*s", (int)sizeof cap.card, (const char *)cap.card);
    if (!rc && w) {
        struct v4l2_format f;
        memset(&f, 0, sizeof f);
        f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        if (ioctl(fd, VIDIOC_G_FMT, &f) != 0) rc = errno;
        else *w = (int)f.fmt.pix.width, *h = (int)f.fmt.pix.height;
    }
    close(fd);
    return rc;
}

int iks_vcap_list(void (*each)(void *user, const char *name, const char *about), void *user)
{
    int n = 0;
    for (int i = 0; i < MAX_VIDEO_NODES; i++) {
        char path[32], card[64];
        snprintf(path, sizeof path, "/dev/video%d", i);
        if (query_node(path, card, sizeof card, NULL, NULL) != 0) continue;
        each(user, path, card);
        n++;
    }
    each(user, IKS_VCAP_TEST, "a test pattern (ffmpeg's testsrc2, 320x240 at 30 fps), no camera needed");
    return n + 1;
}

/* ---- one attempt: ffmpeg started on the device ----------------------------------------------------- */

typedef struct {
    char path[32];           /* the v4l2 node, "" for the test pattern */
    char size[32];
    int w, h;
} source;

/* Where device is now and its size; false with why (one phrase) when it cannot be captured */
static bool find_source(const iks_vcap *c, source *s, char *why, size_t n)
{
    memset(s, 0, sizeof *s);
    if (c->device && !strcmp(c->device, IKS_VCAP_TEST)) {
        s->w = TEST_W, s->h = TEST_H;
    } else if (c->device) {
        int rc = query_node(c->device, NULL, 0, &s->w, &s->h);
        if (rc) {
            snprintf(why, n, "%s", rc == ENODEV ? "not a video capture device" : strerror(rc));
            return false;
        }
        snprintf(s->path, sizeof s->path, "%.31s", c->device);
    } else {
        int rc = ENOENT;
        for (int i = 0; i < MAX_VIDEO_NODES && rc; i++) {
            snprintf(s->path, sizeof s->path, "/dev/video%d", i);
            rc = query_node(s->path, NULL, 0, &s->w, &s->h);
        }
        if (rc) {
            snprintf(why, n, "no camera found (no /dev/video* captures)");
            return false;
        }
    }
    if (s->w < 1 || s->h < 1 || s->w > 16384 || s->h > 16384) {
        snprintf(why, n, "it says its size is %dx%d", s->w, s->h);
        return false;
    }
    snprintf(s->size, sizeof s->size, "%dx%d", s->w, s->h);
    return true;
}

/* ffmpeg on s, frames to *out and its words to *err; 0 or an errno value */
static int start(const source *s, pid_t *pid, int *out, int *err)
{
    char graph[96];
    snprintf(graph, sizeof graph, "testsrc2=size=%dx%d:rate=30", TEST_W, TEST_H);
    /* the pattern is paced as a camera is (-re): as fast as it can be made would be a flood of frames */
    char *test[] = { "ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i", graph,
                     "-pix_fmt", "rgba", "-f", "rawvideo", "pipe:1", NULL };
    char *cam[] = { "ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-f", "v4l2", "-video_size",
                    (char *)s->size, "-i", (char *)s->path, "-pix_fmt", "rgba", "-f", "rawvideo", "pipe:1", NULL };
    int o[2], e[2];
    if (pipe2(o, O_CLOEXEC) != 0) return errno;
    if (pipe2(e, O_CLOEXEC) != 0) {
        int rc = errno;
        close(o[0]), close(o[1]);
        return rc;
    }
    const int fds[] = { IKS_SPAWN_NULL, o[1], e[1] };
    /* a group of its own: the terminal's Ctrl-C is the viewer's to handle, which then stops it */
    int rc = iks_spawn(pid, s->path[0] ? cam : test, fds, 3, true);
    close(o[1]), close(e[1]);
    if (rc) {
        close(o[0]), close(e[0]);
        return rc;
    }
    *out = o[0], *err = e[0];
    return 0;
}

static void set_status(iks_vcap *c, bool up, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_status(iks_vcap *c, bool up, const char *fmt, ...)
{
    char line[sizeof c->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&c->mu);
    c->up = up;
    /* the same trouble each second is said once */
    if (strcmp(line, c->msg) != 0) {
        memcpy(c->msg, line, sizeof line);
        c->msg_seq++;
    }
    pthread_mutex_unlock(&c->mu);
}

/* the last line ffmpeg said, kept in line (a phrase for the message) */
static void read_words(int fd, char *line, size_t n)
{
    char buf[512];
    ssize_t k = read(fd, buf, sizeof buf - 1);
    if (k <= 0) return;
    buf[k] = '\0';
    char *end = buf + k;
    while (end > buf && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ')) *--end = '\0';
    char *last = strrchr(buf, '\n');
    if (*buf) snprintf(line, n, "%.*s", (int)(n - 1), last ? last + 1 : buf);
}

/* The frames of one ffmpeg until it ends, stalls or a stop: each whole one becomes the newest. Returns
 * how many came; why says what ended it. */
static long pump(iks_vcap *c, const source *s, int out, int err, char *why, size_t n)
{
    size_t bytes = (size_t)s->w * (size_t)s->h * 4, have = 0, cap = 0;
    uint8_t *back = NULL;
    long frames = 0;
    double last = iks_now();
    char words[200] = "";
    snprintf(why, n, "ffmpeg ended");
    if (!IKS_GROW(back, bytes, cap)) {
        snprintf(why, n, "out of memory");
        return 0;
    }
    while (!atomic_load(&c->stop)) {
        struct pollfd p[2] = { { .fd = out, .events = POLLIN }, { .fd = err, .events = POLLIN } };
        int r = poll(p, 2, 100);
        if (r < 0 && errno != EINTR) break;
        if (p[1].revents) read_words(err, words, sizeof words);
        if (r > 0 && p[0].revents) {
            ssize_t k = read(out, back + have, bytes - have);
            if (k == 0 || (k < 0 && errno != EINTR && errno != EAGAIN)) break;
            if (k > 0) have += (size_t)k;
        }
        if (have == bytes) {
            /* the newest whole frame replaces the one before, taken or not: never a backlog */
            pthread_mutex_lock(&c->mu);
            uint8_t *f = c->front;
            size_t fc = c->front_cap;
            c->front = back, c->front_cap = cap, c->fw = s->w, c->fh = s->h, c->seq++;
            pthread_mutex_unlock(&c->mu);
            back = f, cap = fc, have = 0;
            if (!IKS_GROW(back, bytes, cap)) break;
            if (!frames++) set_status(c, true, "%s: %s %dx%d", c->name, c->had ? "back, capturing" : "capturing", s->w, s->h);
            last = iks_now();
        } else if (iks_now() - last > STALL_S) {
            snprintf(why, n, "no frame for %.0f s", STALL_S);
            break;
        }
    }
    if (*words) snprintf(why, n, "%s", words);
    free(back);
    return frames;
}

static void nap(iks_vcap *c, double s)
{
    for (double t = 0; t < s && !atomic_load(&c->stop); t += 0.05)
        nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
}

static void *run(void *arg)
{
    iks_vcap *c = arg;
    while (!atomic_load(&c->stop)) {
        source s;
        char why[256];
        pid_t pid = 0;
        int out = -1, err = -1, rc;
        if (!find_source(c, &s, why, sizeof why)) {
            set_status(c, false, "%s: %s; %s", c->name, why, c->had ? "the channel holds its last frame, trying again every second" : "the channel is black, trying again every second");
        } else if ((rc = start(&s, &pid, &out, &err)) != 0) {
            set_status(c, false, "%s: cannot run ffmpeg: %s%s", c->name, strerror(rc), rc == ENOENT ? " (apt-get install ffmpeg)" : "");
        } else {
            long got = pump(c, &s, out, err, why, sizeof why);
            kill(pid, SIGKILL);
            (void)iks_reap(pid);
            close(out), close(err);
            if (atomic_load(&c->stop)) break;
            if (got) c->had = true;
            set_status(c, false, "%s: %s (%s); %s", c->name, got ? "lost" : "cannot capture", why,
                       c->had ? "the channel holds its last frame, trying again every second"
                           : "the channel is black, trying again every second");
        }
        nap(c, RETRY_S);
    }
    return NULL;
}

iks_vcap *iks_vcap_open(const char *device, iks_err *e)
{
    iks_vcap *c = calloc(1, sizeof *c);
    if (!c) return iks_err_set(e, IKS_E_NOMEM, "out of memory"), NULL;
    if (device && *device && !(c->device = strdup(device))) {
        free(c);
        return iks_err_set(e, IKS_E_NOMEM, "out of memory"), NULL;
    }
    snprintf(c->name, sizeof c->name, "webcam %.80s", c->device ? c->device : "(the first camera)");
    pthread_mutex_init(&c->mu, NULL);
    atomic_init(&c->stop, false);
    int rc = pthread_create(&c->thread, NULL, run, c);
    if (rc) {
        pthread_mutex_destroy(&c->mu);
        free(c->device);
        free(c);
        return iks_err_set(e, IKS_E_IO, "webcam: cannot start its thread: %s", strerror(rc)), NULL;
    }
    return c;
}

void iks_vcap_close(iks_vcap *c)
{
    if (!c) return;
    atomic_store(&c->stop, true);
    pthread_join(c->thread, NULL);
    pthread_mutex_destroy(&c->mu);
    free(c->front);
    free(c->device);
    free(c);
}

bool iks_vcap_take(iks_vcap *c, long *seq, void (*use)(void *user, const uint8_t *rgba, int w, int h), void *user)
{
    pthread_mutex_lock(&c->mu);
    bool fresh = c->seq != *seq && c->front;
    if (fresh) {
        use(user, c->front, c->fw, c->fh);
        *seq = c->seq;
    }
    pthread_mutex_unlock(&c->mu);
    return fresh;
}

bool iks_vcap_status(iks_vcap *c, long *seen, char *msg, size_t n, bool *up)
{
    pthread_mutex_lock(&c->mu);
    bool changed = c->msg_seq != *seen;
    if (changed) snprintf(msg, n, "%s", c->msg);
    *seen = c->msg_seq;
    if (up) *up = c->up;
    pthread_mutex_unlock(&c->mu);
    return changed;
}
