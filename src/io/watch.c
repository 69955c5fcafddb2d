/* watch.c: inotify on the directories of the watched files, events filtered by name. */
#include "watch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

typedef struct {
    int wd;        /* the directory's watch descriptor */
    char *name;    /* the file's name in it */
} entry;

struct iks_watch {
    int fd;
    entry *e;
    int n;
};

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

static void clear(iks_watch *w)
{
    /* a directory's descriptor may serve several entries: remove each once */
    for (int i = 0; i < w->n; i++) {
        bool seen = false;
        for (int j = 0; j < i; j++) seen |= w->e[j].wd == w->e[i].wd;
        if (!seen && w->e[i].wd >= 0) inotify_rm_watch(w->fd, w->e[i].wd);
        free(w->e[i].name);
    }
    free(w->e);
    w->e = NULL;
    w->n = 0;
}

void iks_watch_destroy(iks_watch *w)
{
    if (!w) return;
    clear(w);
    close(w->fd);
    free(w);
}

bool iks_watch_set(iks_watch *w, const char *const *paths, int n)
{
    clear(w);
    w->e = calloc((size_t)(n > 0 ? n : 1), sizeof *w->e);
    if (!w->e) return false;
    bool ok = true;
    int err = 0;
    for (int i = 0; i < n; i++) {
        const char *slash = strrchr(paths[i], '/');
        /* the directory as written, however long: a cut name would watch some other directory */
        char *dir = !slash ? strdup(".") : slash == paths[i] ? strdup("/") : strndup(paths[i], (size_t)(slash - paths[i]));
        /* adding a directory twice returns the same descriptor, so entries share it */
        int wd = dir ? inotify_add_watch(w->fd, dir,
                                         IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE |
                                             IN_DELETE | IN_ATTRIB)
                     : -1;
        if (wd < 0) {
            ok = false;
            err = dir ? errno : ENOMEM;
        }
        free(dir);
        w->e[w->n].wd = wd;
        w->e[w->n].name = strdup(slash ? slash + 1 : paths[i]);
        if (!w->e[w->n].name) {
            ok = false;
            err = ENOMEM;
            if (wd >= 0) {
                bool shared = false;
                for (int j = 0; j < w->n; j++) shared |= w->e[j].wd == wd;
                if (!shared) inotify_rm_watch(w->fd, wd);
            }
            continue;
        }
        w->n++;
    }
    if (!ok) errno = err;
    return ok;
}

iks_watch_news iks_watch_poll(iks_watch *w)
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
