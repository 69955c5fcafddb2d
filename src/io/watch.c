/* watch.c: inotify on the directories of the watched files, events filtered by name. A directory that
 * goes away (deleted, renamed, not there yet) is watched again as soon as it is back; a file that is a
 * symbolic link is also watched where it points. */
#include "io/watch.h"
#include "base/clock.h"
#include "base/buf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int wd;        /* the directory's watch descriptor; -1 while the directory is not there */
    char *dir;     /* the directory, for watching it again */
    char *name;    /* the file's name in it */
} entry;

struct iks_watch {
    int fd;
    entry *e;
    int n;
    size_t cap;
    double last_retry; /* iks_now() */
    iks_watch_news pending; /* what events read while replacing the set said, for the next poll */
};

#define MASK (IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | \
              IN_DELETE_SELF | IN_MOVE_SELF)

iks_watch *iks_watch_create(void)
{
    iks_watch *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (w->fd < 0) {
        int e = errno;
        free(w);
        errno = e;
        return NULL;
    }
    return w;
}

/* Frees entries [0, n) of e, removing the watch of each directory that no entry of keep[0, nkeep) uses
 * (a descriptor may serve several entries: each is removed once) */
static void drop(iks_watch *w, entry *e, int n, const entry *keep, int nkeep)
{
    for (int i = 0; i < n; i++) {
        bool seen = e[i].wd < 0;
        for (int j = 0; j < i && !seen; j++) seen = e[j].wd == e[i].wd;
        for (int j = 0; j < nkeep && !seen; j++) seen = keep[j].wd == e[i].wd;
        if (!seen) inotify_rm_watch(w->fd, e[i].wd);
        free(e[i].name);
        free(e[i].dir);
    }
    free(e);
}

void iks_watch_destroy(iks_watch *w)
{
    if (!w) return;
    drop(w, w->e, w->n, NULL, 0);
    close(w->fd);
    free(w);
}

/* Adds an entry for the file at path (its directory watched); false with errno set when the directory
 * cannot be watched now (the entry is kept, and tried again by the poll) or memory ran out */
static bool add_entry(iks_watch *w, const char *path)
{
    if (!IKS_GROW(w->e, (size_t)w->n + 1, w->cap)) return false;
    const char *slash = strrchr(path, '/');
    /* the directory as written, however long: a cut name would watch some other directory */
    char *dir = !slash ? strdup(".") : slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
    char *name = strdup(slash ? slash + 1 : path);
    if (!dir || !name) {
        free(dir);
        free(name);
        errno = ENOMEM;
        return false;
    }
    /* adding a directory twice returns the same descriptor, so entries share it */
    int wd = inotify_add_watch(w->fd, dir, MASK);
    int err = errno;
    w->e[w->n++] = (entry){ .wd = wd, .dir = dir, .name = name };
    errno = err;
    return wd >= 0;
}

static iks_watch_news drain(iks_watch *w);

bool iks_watch_set(iks_watch *w, const char *const *paths, int n)
{
    /* A file read by a load and watched only after it could change unseen in between. So the caller
     * watches before it reads, and a new set replaces the old without a gap: events already queued are
     * read against the old set (and kept for the next poll), new directories are watched before the
     * old ones are let go (adding a directory that is watched already keeps its descriptor). */
    iks_watch_news news = drain(w);
    if (news > w->pending) w->pending = news;
    entry *old = w->e;
    int nold = w->n;
    w->e = NULL;
    w->n = 0;
    w->cap = 0;
    bool ok = true;
    int err = 0;
    for (int i = 0; i < n; i++) {
        if (!add_entry(w, paths[i]) && errno != ENOENT) ok = false, err = errno;
        /* a link: an edit of the file it points to is a save too */
        struct stat st;
        char *real = lstat(paths[i], &st) == 0 && S_ISLNK(st.st_mode) ? realpath(paths[i], NULL) : NULL;
        if (real && !add_entry(w, real) && errno != ENOENT) ok = false, err = errno;
        free(real);
    }
    drop(w, old, nold, w->e, w->n);
    if (!ok) errno = err;
    return ok;
}

/* Watches again the directories that went away and are back, at most every 100 ms; true when one
 * came back (its files may have come with it) */
static bool rewatch(iks_watch *w)
{
    double now = iks_now();
    if (now - w->last_retry < 0.1) return false;
    w->last_retry = now;
    bool back = false;
    for (int i = 0; i < w->n; i++) {
        if (w->e[i].wd >= 0) continue;
        int wd = inotify_add_watch(w->fd, w->e[i].dir, MASK);
        if (wd < 0) continue;
        for (int j = i; j < w->n; j++)
            if (w->e[j].wd < 0 && strcmp(w->e[j].dir, w->e[i].dir) == 0) w->e[j].wd = wd;
        back = true;
    }
    return back;
}

/* Reads every queued event; the strongest news about the entries */
static iks_watch_news drain(iks_watch *w)
{
    iks_watch_news news = IKS_WATCH_NONE;
    _Alignas(struct inotify_event) char buf[16384];
    for (;;) {
        ssize_t len = read(w->fd, buf, sizeof buf);
        if (len <= 0) break; /* EAGAIN: drained */
        for (char *p = buf; p < buf + len;) {
            const struct inotify_event *ev = (const struct inotify_event *)p;
            p += sizeof *ev + ev->len;
            if (ev->mask & IN_Q_OVERFLOW) {
                news = IKS_WATCH_SETTLED; /* events were lost: assume the worst, a reload compares */
                continue;
            }
            if (ev->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)) {
                /* the directory itself went: watch it again once it is back (see rewatch) */
                bool ours = false;
                for (int i = 0; i < w->n; i++)
                    if (w->e[i].wd == ev->wd) w->e[i].wd = -1, ours = true;
                if (ours) {
                    if (ev->mask & IN_MOVE_SELF) inotify_rm_watch(w->fd, ev->wd);
                    news = IKS_WATCH_SETTLED;
                }
                continue;
            }
            if (ev->len == 0) continue;
            for (int i = 0; i < w->n; i++) {
                if (w->e[i].wd != ev->wd || strcmp(w->e[i].name, ev->name) != 0) continue;
                iks_watch_news n = ev->mask & (IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM)
                                       ? IKS_WATCH_SETTLED
                                       : IKS_WATCH_CHANGED;
                if (n > news) news = n;
            }
        }
    }
    return news;
}

iks_watch_news iks_watch_poll(iks_watch *w)
{
    iks_watch_news news = drain(w);
    if (w->pending > news) news = w->pending;
    w->pending = IKS_WATCH_NONE;
    if (rewatch(w) && news < IKS_WATCH_SETTLED) news = IKS_WATCH_SETTLED;
    return news;
}
