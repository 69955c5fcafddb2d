/* watch.h: knowing when any of a set of files changes on disk, however an editor saves it.
 * Directories are watched, not files (inotify), so saves by rename (vim, many IDEs), by
 * truncate-then-write and by a new file over the old are all seen, and a deleted file is seen coming
 * back. Non-blocking: the viewer polls it once per frame. Linux only. */
#ifndef IKS_WATCH_H
#define IKS_WATCH_H

#include <stdbool.h>

typedef struct iks_watch iks_watch;

typedef enum {
    IKS_WATCH_NONE = 0,
    IKS_WATCH_CHANGED = 1, /* something was written to a watched file; more may follow */
    IKS_WATCH_SETTLED = 2, /* a save finished (closed after writing, or renamed into place) */
} iks_watch_news;

/* NULL with errno set when inotify is unavailable. Owner: the caller, through iks_watch_destroy. */
iks_watch *iks_watch_create(void);
void iks_watch_destroy(iks_watch *w);

/* Replaces the watched set with these files (their directories are watched). false with errno set
 * when a directory cannot be watched; the others still are. */
bool iks_watch_set(iks_watch *w, const char *const *paths, int n);

/* Drains pending events; returns the strongest news about the watched files (events about other
 * files in the same directories are ignored). */
iks_watch_news iks_watch_poll(iks_watch *w);

#endif
