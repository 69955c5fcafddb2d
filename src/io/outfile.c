/* outfile.c: careful output files, registered temporaries, and the process-wide stop request (see
 * outfile.h). */
#include "io/outfile.h"

#include "base/clock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- writes that a stop request may end (base/stop.h) ------------------------------------------- */

/* After a stop was asked, how long a write may wait for its reader before it gives up: under the
 * signal policy's grace period (src/cli/signals.c, 5 s), and long enough for an encoder on a loaded
 * machine (1.5 s was not: CI saw an ffmpeg take longer, and lost the video) */
#define STOP_PATIENCE_MS 3000

bool iks_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    double deadline = -1;
    while (len > 0) {
        if (iks_stop_requested()) {
            /* stopping: a frame being written is finished, unless the reader stopped reading. The
             * patience is one deadline, which a signal (the stop's own SIGURG poke, arriving late)
             * does not cut short: it used to, at random, and a video lost its frames */
            if (deadline < 0) deadline = iks_now() + STOP_PATIENCE_MS / 1000.0;
            int r;
            do {
                int left_ms = (int)((deadline - iks_now()) * 1000.0);
                struct pollfd pf = { .fd = fd, .events = POLLOUT };
                r = left_ms > 0 ? poll(&pf, 1, left_ms) : 0;
            } while (r < 0 && errno == EINTR);
            if (r == 0) {
                errno = EINTR;
                return false;
            }
        }
        ssize_t w = write(fd, p, len);
        if (w < 0) {
            if (errno == EINTR) continue; /* a signal: the check above decides whether to go on */
            return false;
        }
        p += w;
        len -= (size_t)w;
    }
    return true;
}

/* ---- registered temporaries -------------------------------------------------------------------- */

/* A lock-free list that only grows: a node is claimed and released by flipping its state, so the
 * list is as long as the most temporaries ever in flight at once, and a signal handler may walk it
 * at any moment. Nodes live to the end of the process. */
typedef struct tnode {
    struct tnode *next;
    atomic_int state; /* 0 free, 1 being filled, 2 a live temporary, 3 a temporary directory */
    atomic_int writer; /* the child process writing it (a video's ffmpeg), 0 when none */
    atomic_int finishing; /* its writer has had its last input and is writing the file's end */
    char path[PATH_MAX];
} tnode;

static _Atomic(tnode *) temps;

static int reg(const char *path, int kind)
{
    if (strlen(path) >= PATH_MAX) return -1;
    for (tnode *n = atomic_load(&temps); n; n = n->next) {
        int expect = 0;
        if (atomic_compare_exchange_strong(&n->state, &expect, 1)) {
            strcpy(n->path, path);
            atomic_store(&n->writer, 0);
            atomic_store(&n->finishing, 0);
            atomic_store(&n->state, kind);
            return 0;
        }
    }
    tnode *n = calloc(1, sizeof *n);
    if (!n) return -1;
    strcpy(n->path, path);
    atomic_init(&n->state, kind);
    atomic_init(&n->writer, 0);
    atomic_init(&n->finishing, 0);
    n->next = atomic_load(&temps);
    while (!atomic_compare_exchange_weak(&temps, &n->next, n)) {}
    return 0;
}

int iks_outfile_tmp_register(const char *path) { return reg(path, 2); }
int iks_outfile_tmp_register_dir(const char *path) { return reg(path, 3); }

/* the live node of tmp, or NULL */
static tnode *find_tmp(const char *tmp)
{
    for (tnode *n = atomic_load(&temps); n; n = n->next)
        if (atomic_load(&n->state) >= 2 && strcmp(n->path, tmp) == 0) return n;
    return NULL;
}

void iks_outfile_tmp_writer(const char *tmp, pid_t pid)
{
    tnode *n = find_tmp(tmp);
    if (n) atomic_store(&n->writer, (int)pid);
}

void iks_outfile_tmp_finishing(const char *tmp)
{
    tnode *n = find_tmp(tmp);
    if (n) atomic_store(&n->finishing, 1);
}

bool iks_outfile_finishing(void)
{
    for (tnode *n = atomic_load(&temps); n; n = n->next) {
        pid_t pid = (pid_t)atomic_load(&n->writer);
        if (atomic_load(&n->state) == 2 && atomic_load(&n->finishing) && pid > 0 && kill(pid, 0) == 0) return true;
    }
    return false;
}

void iks_outfile_tmp_done(const char *tmp)
{
    tnode *n = find_tmp(tmp);
    if (!n) return;
    atomic_store(&n->writer, 0);
    atomic_store(&n->state, 0);
}

/* A directory of files (no subdirectories) removed with async-signal-safe calls only: getdents64
 * through syscall(2), unlinkat, rmdir */
static void remove_flat_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    _Alignas(8) char buf[8192];
    for (;;) {
        long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
        if (n <= 0) break;
        for (long off = 0; off < n;) {
            /* struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name */
            unsigned short reclen;
            memcpy(&reclen, buf + off + 16, sizeof reclen);
            const char *name = buf + off + 19;
            if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0) unlinkat(fd, name, 0);
            off += reclen;
        }
    }
    close(fd);
    rmdir(dir);
}

void iks_outfile_remove_dir(const char *dir) { remove_flat_dir(dir); }

void iks_outfile_remove_temporaries(void)
{
    for (tnode *n = atomic_load(&temps); n; n = n->next) {
        int s = atomic_load(&n->state);
        /* a writer that has not yet made the file (ffmpeg opens its output late) would make it after
         * the unlink and leave it behind: it is ended, and waited for, first */
        pid_t pid = s >= 2 ? (pid_t)atomic_exchange(&n->writer, 0) : 0;
        if (pid > 0 && kill(pid, SIGKILL) == 0)
            while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        if (s == 2) unlink(n->path);
        else if (s == 3) remove_flat_dir(n->path);
    }
}

/* ---- careful outputs --------------------------------------------------------------------------- */

int iks_outfile_check(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return errno == ENOENT ? 0 : -1;
    int e = 0;
    if (S_ISLNK(st.st_mode)) e = IKS_EOUT_LINK;
    else if (S_ISDIR(st.st_mode)) e = EISDIR;
    else if (!S_ISREG(st.st_mode)) e = IKS_EOUT_SPECIAL;
    /* root may write anything: the mode bits still say what the owner meant */
    else if (access(path, W_OK) != 0 || !(st.st_mode & 0222)) e = IKS_EOUT_READONLY;
    if (!e) return 0;
    errno = e;
    return -1;
}

const char *iks_outfile_strerror(int e)
{
    switch (e) {
    case IKS_EOUT_LINK: return "a symbolic link is there: not replaced (remove it, or name the file it points to)";
    case IKS_EOUT_SPECIAL: return "a FIFO, socket or device is there: not replaced";
    case IKS_EOUT_READONLY: return "a read-only file is there: not replaced";
    case EISDIR: return "a directory is there";
    default: return strerror(e);
    }
}

/* The process's umask without changing it (umask(2) would, for an instant, for every thread) */
static mode_t file_mode;
static void find_mode(void)
{
    unsigned m = 022;
    bool found = false;
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Umask: %o", &m) == 1) {
            found = true;
            break;
        }
    if (f) fclose(f);
    if (!found) {
        mode_t old = umask(022);
        umask(old);
        m = old;
    }
    file_mode = (mode_t)(0666 & ~m);
}

int iks_outfile_tmp_create(const char *path, char **tmp) { return iks_outfile_tmp_create_ext(path, "", tmp); }

/* Takes the writer's lock on a new temporary (flock, LOCK_EX, held by this open file description until
 * it is closed: after the rename, see publish). Between mkostemps and the lock a cleaner may have found
 * the file unlocked and removed it as a dead writer's: then the name no longer leads to this file, and
 * the caller makes another. true when the file is ours and locked, or when the file system has no
 * locks (then it stays unlocked, and cleaners, which cannot lock it either, leave it alone). */
static bool lock_new(int fd, const char *name)
{
    while (flock(fd, LOCK_EX) != 0)
        if (errno != EINTR) return true;
    struct stat a, b;
    return fstat(fd, &a) == 0 && lstat(name, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int iks_outfile_tmp_create_ext(const char *path, const char *ext, char **tmp)
{
    *tmp = NULL;
    size_t n = strlen(path), ne = strlen(ext);
    if (ne > 32) return errno = ENAMETOOLONG, -1;
    char *t = malloc(n + ne + 32);
    if (!t) return -1;
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dirlen;
    int fd = -1;
    /* a few tries: each lost only to a cleaner that removed the new file in the instant before its lock */
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        /* hidden, beside the target (rename stays within one file system), unpredictable and claimed
         * with O_EXCL (mkostemps: a name planted in advance, a symbolic link included, is never
         * followed, and two processes never share one, whatever their PID namespaces), and short
         * enough for a name already near NAME_MAX */
        if (strlen(base) + ne + 8 <= NAME_MAX) snprintf(t, n + ne + 32, "%.*s.%s.XXXXXX%s", (int)dirlen, path, base, ext);
        else snprintf(t, n + ne + 32, "%.*s.ikshade.XXXXXX%s", (int)dirlen, path, ext);
        fd = mkostemps(t, (int)ne, O_CLOEXEC);
        if (fd < 0) break;
        if (!lock_new(fd, t)) {
            close(fd);
            fd = -1;
            errno = EAGAIN;
        }
    }
    if (fd < 0) {
        int e = errno;
        free(t);
        errno = e;
        return -1;
    }
    if (iks_outfile_tmp_register(t) != 0) {
        close(fd);
        unlink(t);
        free(t);
        errno = ENOMEM;
        return -1;
    }
    *tmp = t;
    return fd;
}

bool iks_outfile_tmp_is(const char *entry, const char *base, const char *ext)
{
    size_t nb = strlen(base), ne = strlen(ext), n = strlen(entry);
    if (n != 1 + nb + 7 + ne || entry[0] != '.' || strncmp(entry + 1, base, nb) != 0 || entry[1 + nb] != '.' ||
        strcmp(entry + n - ne, ext) != 0)
        return false;
    for (size_t k = 2 + nb; k < 8 + nb; k++) {
        char c = entry[k];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
    }
    return true;
}

int iks_outfile_remove_stale(const char *tmp)
{
    /* for writing: NFS emulates flock with a POSIX lock on the server, which an exclusive lock needs */
    int fd = open(tmp, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? 0 : -1;
    struct stat a, b;
    int r = -1;
    if (fstat(fd, &a) != 0) goto out;
    if (!S_ISREG(a.st_mode)) {
        errno = IKS_EOUT_SPECIAL;
        goto out;
    }
    /* held by a live writer (EWOULDBLOCK), or no locks here to tell (left: it may be live) */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        r = errno == EWOULDBLOCK ? 0 : -1;
        goto out;
    }
    /* the name still leads to the file locked (its writer did not rename it in between) */
    if (lstat(tmp, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino) r = 0;
    else r = unlink(tmp) == 0 ? 1 : -1;
out:;
    int e = errno;
    close(fd);
    errno = e;
    return r;
}

long iks_outfile_remove_stale_in(const char *dir, iks_tmp_match_fn match, void *user, char *first, size_t n)
{
    DIR *dp = opendir(dir);
    if (!dp) return 0;
    long removed = 0;
    struct dirent *e;
    char path[PATH_MAX];
    while ((e = readdir(dp)))
        if (e->d_name[0] == '.' && match(user, e->d_name) &&
            (size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < sizeof path &&
            iks_outfile_remove_stale(path) == 1 && removed++ == 0 && first)
            snprintf(first, n, "%s", path);
    closedir(dp);
    return removed;
}

typedef struct {
    const char *base, *ext;
} tmp_of;

static bool is_tmp_of(void *user, const char *entry)
{
    const tmp_of *t = user;
    return iks_outfile_tmp_is(entry, t->base, t->ext);
}

long iks_outfile_remove_stale_of(const char *path, const char *ext, char *first, size_t n)
{
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    /* no trailing '/': the paths made from it are the ones a user reads in the log */
    int len = slash ? (slash == path ? 1 : (int)(slash - path)) : 1;
    if ((size_t)snprintf(dir, sizeof dir, "%.*s", len, slash ? path : ".") >= sizeof dir)
        return 0;
    tmp_of t = { slash ? slash + 1 : path, ext };
    return iks_outfile_remove_stale_in(dir, is_tmp_of, &t, first, n);
}

/* Closes a temporary's fd for its errors (NFS reports a failed write-back at close, on every close of
 * a descriptor) while a duplicate keeps its lock (it belongs to the open file description) until the
 * rename is done: released earlier, a cleaner could take the whole file for a dead writer's. The
 * duplicate, or -1 when none could be made (the lock then ends here: the old, narrower window). */
static int close_keeping_lock(int fd, bool *ok, int *e)
{
    int keep = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (close(fd) != 0 && *ok) *ok = false, *e = errno;
    return keep;
}

static void drop_lock(int keep)
{
    if (keep >= 0) close(keep);
}

bool iks_outfile_tmp_publish(int fd, const char *tmp, const char *path)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_mode);
    bool ok = fchmod(fd, file_mode) == 0;
    int e = errno;
    int keep = close_keeping_lock(fd, &ok, &e);
    if (ok && iks_outfile_check(path) != 0) ok = false, e = errno;
    if (ok && rename(tmp, path) != 0) ok = false, e = errno;
    if (!ok) unlink(tmp);
    drop_lock(keep);
    iks_outfile_tmp_done(tmp);
    errno = e;
    return ok;
}

bool iks_rename_new(const char *from, const char *to)
{
    /* RENAME_NOREPLACE claims the name in one step; file systems without it (NFS, some FUSE) get a
     * hard link, which fails on an existing name too; one that has neither gets a check and a rename,
     * whose window two writers of one name could only race in */
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return true;
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) return false;
    if (link(from, to) == 0) {
        unlink(from);
        return true;
    }
    if (errno == EEXIST) return false;
    struct stat sb;
    if (lstat(to, &sb) == 0) return errno = EEXIST, false;
    if (errno != ENOENT) return false;
    return rename(from, to) == 0;
}

bool iks_outfile_tmp_claim(int fd, const char *tmp, iks_name_fn name, void *user, char *buf, size_t n)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_mode);
    bool ok = fchmod(fd, file_mode) == 0;
    int e = errno;
    int keep = close_keeping_lock(fd, &ok, &e);
    if (ok) {
        ok = false;
        e = EEXIST;
        for (int i = 0; !ok && e == EEXIST && name(user, i, buf, n); i++) {
            ok = iks_rename_new(tmp, buf);
            if (!ok) e = errno;
        }
    }
    if (!ok) unlink(tmp);
    drop_lock(keep);
    iks_outfile_tmp_done(tmp);
    errno = e;
    return ok;
}

/* the one candidate of iks_outfile_tmp_publish_new */
static bool only_name(void *user, int attempt, char *buf, size_t n)
{
    return attempt == 0 && (size_t)snprintf(buf, n, "%s", (const char *)user) < n;
}

void iks_outfile_tmp_discard(int fd, char **tmp)
{
    int e = errno;
    if (*tmp) unlink(*tmp); /* before the close that ends its lock */
    if (fd >= 0) close(fd);
    if (*tmp) {
        iks_outfile_tmp_done(*tmp);
        free(*tmp);
        *tmp = NULL;
    }
    errno = e;
}

bool iks_outfile_tmp_publish_new(int fd, const char *tmp, const char *path)
{
    char buf[PATH_MAX];
    if (strlen(path) >= sizeof buf) {
        close(fd);
        unlink(tmp);
        iks_outfile_tmp_done(tmp);
        return errno = ENAMETOOLONG, false;
    }
    return iks_outfile_tmp_claim(fd, tmp, only_name, (void *)path, buf, sizeof buf);
}

/* A temporary beside path holding data: its fd, or -1 with errno set and nothing left behind */
static int tmp_with(const char *path, const void *data, size_t len, char **tmp)
{
    int fd = iks_outfile_tmp_create(path, tmp);
    if (fd < 0) return -1;
    if (iks_write_all(fd, data, len)) return fd;
    iks_outfile_tmp_discard(fd, tmp);
    return -1;
}

bool iks_write_new(const void *data, size_t len, iks_name_fn name, void *user, char *buf, size_t n)
{
    /* the temporary beside the first candidate: the same directory as all of them */
    if (!name(user, 0, buf, n)) return errno = EINVAL, false;
    char *tmp;
    int fd = tmp_with(buf, data, len, &tmp);
    if (fd < 0) return false;
    bool ok = iks_outfile_tmp_claim(fd, tmp, name, user, buf, n);
    int e = errno;
    free(tmp);
    errno = e;
    return ok;
}

/* d (PATH_MAX bytes) resolved as far as it exists, the components not there yet applied to that as
 * mkdir -p would make them (a . stays, a .. goes up): an output's directory is made before it is
 * written, so new/../t.png is t.png. false when a part that exists cannot be resolved. */
static bool resolve_made(const char *d, char *out)
{
    char head[PATH_MAX];
    snprintf(head, sizeof head, "%s", d);
    size_t tail = strlen(head); /* head[tail..] (once cut) holds the components that are not there */
    for (;;) {
        if (realpath(head[0] ? head : ".", out)) break;
        if (errno != ENOENT || !head[0]) return false;
        char *slash = strrchr(head, '/');
        if (slash == head) head[1] = '\0', tail = 1;
        else if (slash) *slash = '\0', tail = (size_t)(slash - head);
        else head[0] = '\0', tail = 0;
    }
    for (const char *p = d + tail; *p;) {
        while (*p == '/') p++;
        size_t n = strcspn(p, "/");
        bool dot = n == 1 && p[0] == '.';
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            char *up = strrchr(out, '/');
            if (up) *(up == out ? up + 1 : up) = '\0';
        } else if (n > 0 && !dot) {
            size_t k = strlen(out);
            if (k + 1 + n >= PATH_MAX) return errno = ENAMETOOLONG, false;
            snprintf(out + k, PATH_MAX - k, "%s%.*s", k && out[k - 1] == '/' ? "" : "/", (int)n, p);
        }
        p += n;
    }
    return true;
}

/* path's directory, resolved (resolve_made), and its last component; false when the directory cannot
 * be resolved */
static bool resolved_parts(const char *path, char *dir, const char **base)
{
    const char *slash = strrchr(path, '/');
    char d[PATH_MAX];
    if (!slash) snprintf(d, sizeof d, ".");
    else if (slash == path) snprintf(d, sizeof d, "/");
    else snprintf(d, sizeof d, "%.*s", (int)(slash - path), path);
    *base = slash ? slash + 1 : path;
    return resolve_made(d, dir);
}

bool iks_same_output(const char *a, const char *b)
{
    if (!strcmp(a, b)) return true;
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char da[PATH_MAX], db[PATH_MAX];
    const char *ba, *bb;
    if (!resolved_parts(a, da, &ba) || !resolved_parts(b, db, &bb)) return false;
    return !strcmp(da, db) && !strcmp(ba, bb);
}

bool iks_write_atomic(const char *path, const void *data, size_t len)
{
    if (iks_outfile_check(path) != 0) return false;
    char *tmp;
    int fd = tmp_with(path, data, len, &tmp);
    if (fd < 0) return false;
    bool ok = iks_outfile_tmp_publish(fd, tmp, path);
    int e = errno;
    free(tmp);
    errno = e;
    return ok;
}

/* ---- the directories an output goes into ------------------------------------------------------- */

bool iks_make_parent_dirs(const char *path)
{
    size_t n = strlen(path);
    char *d = malloc(n + 1);
    if (!d) return errno = ENOMEM, false;
    memcpy(d, path, n + 1);
    char *slash = strrchr(d, '/');
    bool ok = true;
    if (slash && slash != d) {
        *slash = '\0';
        for (char *p = d + 1; *p && ok; p++) {
            if (*p != '/') continue;
            *p = '\0';
            if (mkdir(d, 0777) != 0 && errno != EEXIST) ok = false;
            *p = '/';
        }
        if (ok && mkdir(d, 0777) != 0 && errno != EEXIST) ok = false;
        struct stat st;
        if (ok && stat(d, &st) != 0) ok = false;
        if (ok && !S_ISDIR(st.st_mode)) errno = ENOTDIR, ok = false;
    }
    int saved = errno;
    free(d);
    errno = saved;
    return ok;
}

char *iks_missing_parent(const char *path)
{
    /* with a . or .. in the way, the path's prefixes are not the directories it goes through
     * (new/../keep/x goes through keep): nothing is taken back then */
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) return NULL;
        p += n;
        while (*p == '/') p++;
    }
    char *d = strdup(path);
    if (!d) return NULL;
    char *slash = strrchr(d, '/');
    char *found = NULL;
    if (slash && slash != d) {
        *slash = '\0';
        for (char *p = d + 1;; p++) {
            if (*p != '/' && *p) continue;
            char c = *p;
            *p = '\0';
            struct stat st;
            bool there = stat(d, &st) == 0;
            if (!there) found = strdup(d);
            *p = c;
            if (!there || !c) break;
        }
    }
    free(d);
    return found;
}

void iks_remove_made_dirs(const char *path, const char *top)
{
    if (!top) return;
    char *d = strdup(path);
    if (!d) return;
    size_t nt = strlen(top);
    for (char *slash = strrchr(d, '/'); slash && slash != d; slash = strrchr(d, '/')) {
        *slash = '\0';
        if (strlen(d) < nt || rmdir(d) != 0 || strlen(d) == nt) break;
    }
    free(d);
}
