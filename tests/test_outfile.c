/* test_outfile.c: iks_write_all once a stop was requested. A frame on its way to a reader that reads is
 * finished, even when more signals arrive meanwhile (the signal policy pokes the writing thread with
 * SIGURG after the stop: it once cut the patience short at random, and CI lost a video); a reader that
 * has stopped reading makes it give up, with EINTR, within the patience. Removing the temporaries on
 * a signal ends a child that would make one after the removal. Publishing under a name that must not
 * be taken (a checkpoint's) leaves what is there alone, a symbolic link included. A temporary is
 * locked by its writer until it is published, so a cleaner removes a dead writer's (an unlocked one, a
 * killed node's) and never a live one's (another process's, or this one's). */
#include "check.h"
#include "io/outfile.h"
#include "base/subproc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void on_poke(int sig) { (void)sig; }

static bool ends_mp4(const char *s)
{
    size_t n = strlen(s);
    return n >= 4 && !strcmp(s + n - 4, ".mp4");
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

typedef struct {
    pthread_t writer;
    int rfd;
    bool drain; /* read everything after 600 ms, else never read */
} peer;

/* pokes the writer with SIGURG every 50 ms for 500 ms (signals that must not end its patience), then
 * drains the pipe if asked */
static void *poker(void *arg)
{
    peer *p = arg;
    for (int i = 0; i < 10; i++) {
        sleep_ms(50);
        pthread_kill(p->writer, SIGURG);
    }
    sleep_ms(100);
    if (p->drain) {
        char buf[65536];
        while (read(p->rfd, buf, sizeof buf) > 0) {}
    }
    return NULL;
}

/* Writes len bytes into a pipe whose buffer is already full, with a stop requested; returns what
 * iks_write_all returned, errno in *err */
static bool run(bool drain, size_t len, int *err)
{
    int fd[2];
    if (pipe(fd) != 0) return false;
    fcntl(fd[1], F_SETFL, fcntl(fd[1], F_GETFL) | O_NONBLOCK);
    char fill[4096];
    memset(fill, 1, sizeof fill);
    while (write(fd[1], fill, sizeof fill) > 0) {} /* full */
    fcntl(fd[1], F_SETFL, fcntl(fd[1], F_GETFL) & ~O_NONBLOCK);
    peer p = { pthread_self(), fd[0], drain };
    pthread_t t;
    pthread_create(&t, NULL, poker, &p);
    char *data = calloc(1, len);
    iks_stop_request();
    errno = 0;
    bool ok = iks_write_all(fd[1], data, len);
    *err = errno;
    iks_stop_reset();
    close(fd[1]); /* the drainer's read sees the end */
    pthread_join(t, NULL);
    close(fd[0]);
    free(data);
    return ok;
}

/* ---- names claimed, never replaced ---------------------------------------------------------------- */

static bool shot_name(void *user, int attempt, char *buf, size_t n)
{
    snprintf(buf, n, "%s/shot-%04d.png", (const char *)user, 1 + attempt);
    return attempt < 1000;
}

static void claims(void)
{
    char dir[] = "/tmp/ikshade-claim-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char path[PATH_MAX];
    /* a file the user has at the first name: never touched */
    snprintf(path, sizeof path, "%s/shot-0001.png", dir);
    FILE *f = fopen(path, "w");
    fputs("mine", f);
    fclose(f);
    /* four processes claiming 25 names each at once, all starting from the same first candidate (as two
     * viewers pressing S at the same moment): 100 files, each written once, none lost */
    enum { PROCS = 4, EACH = 25 };
    pid_t kids[PROCS];
    for (int p = 0; p < PROCS; p++) {
        if ((kids[p] = fork()) == 0) {
            for (int i = 0; i < EACH; i++) {
                char data[32], got[PATH_MAX];
                int len = snprintf(data, sizeof data, "%d.%d", p, i);
                if (!iks_write_new(data, (size_t)len, shot_name, dir, got, sizeof got)) _exit(1);
            }
            _exit(0);
        }
    }
    int bad = 0;
    for (int p = 0; p < PROCS; p++) {
        int st;
        waitpid(kids[p], &st, 0);
        bad += !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    CHECK(bad == 0, "%d claiming processes failed", bad);
    bool seen[PROCS][EACH] = { { false } };
    int files = 0, dup = 0;
    for (int i = 2; i <= 1 + PROCS * EACH; i++) {
        snprintf(path, sizeof path, "%s/shot-%04d.png", dir, i);
        FILE *g = fopen(path, "r");
        int p = -1, k = -1;
        if (g && fscanf(g, "%d.%d", &p, &k) == 2 && p >= 0 && p < PROCS && k >= 0 && k < EACH) {
            dup += seen[p][k];
            seen[p][k] = true;
            files++;
        }
        if (g) fclose(g);
        unlink(path);
    }
    CHECK(files == PROCS * EACH && dup == 0, "claimed at once: %d files of %d, %d written twice", files,
          PROCS * EACH, dup);
    snprintf(path, sizeof path, "%s/shot-0001.png", dir);
    char buf[16] = "";
    f = fopen(path, "r");
    if (f) {
        if (!fgets(buf, sizeof buf, f)) buf[0] = '\0';
        fclose(f);
    }
    CHECK(!strcmp(buf, "mine"), "the user's shot-0001.png was replaced: '%s'", buf);
    unlink(path);

    /* temporaries: unpredictable, exclusive, the extension kept (ffmpeg tells the format from it) */
    snprintf(path, sizeof path, "%s/clip.mp4", dir);
    char *t1, *t2;
    int f1 = iks_outfile_tmp_create_ext(path, ".mp4", &t1), f2 = iks_outfile_tmp_create_ext(path, ".mp4", &t2);
    CHECK(f1 >= 0 && f2 >= 0 && strcmp(t1, t2) != 0, "two temporaries for one output: %s, %s", t1, t2);
    CHECK(ends_mp4(t1) && ends_mp4(t2), "the extension kept: %s", t1);
    struct stat st;
    CHECK(fstat(f1, &st) == 0 && (st.st_mode & 0777) == 0600, "a temporary is 0600 until published: %o",
          (unsigned)(st.st_mode & 0777));
    close(f1), close(f2);
    unlink(t1), unlink(t2);
    iks_outfile_tmp_done(t1), iks_outfile_tmp_done(t2);
    free(t1), free(t2);

    /* two names for one output */
    char a[PATH_MAX], b[PATH_MAX];
    snprintf(a, sizeof a, "%s/x.mp4", dir);
    snprintf(b, sizeof b, "%s/./x.mp4", dir);
    CHECK(iks_same_output(a, b), "%s and %s: one file not there yet", a, b);
    snprintf(b, sizeof b, "%s/y.mp4", dir);
    CHECK(!iks_same_output(a, b), "%s and %s are two", a, b);
    rmdir(dir);
}

/* every hidden name: iks_outfile_remove_stale_in's choice left to the lock */
static bool any_hidden(void *user, const char *entry)
{
    (void)user;
    return strcmp(entry, ".") != 0 && strcmp(entry, "..") != 0;
}

/* A child's temporary (its writer alive) and one no process holds (its writer killed), side by side */
static void stale_locks(void)
{
    char dir[] = "/tmp/iks-stale-XXXXXX", target[PATH_MAX], dead[PATH_MAX], buf[PATH_MAX] = "";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(target, sizeof target, "%s/00004.png", dir);
    int up[2], hold[2];
    CHECK(pipe(up) == 0 && pipe(hold) == 0, "pipes");
    pid_t pid = fork();
    if (pid == 0) {
        /* the live writer: makes its temporary, says its name, and holds it until told */
        char *t = NULL;
        close(up[0]);
        close(hold[1]);
        if (iks_outfile_tmp_create(target, &t) < 0) _exit(1);
        if (write(up[1], t, strlen(t)) < 0) _exit(1);
        close(up[1]);
        char c;
        while (read(hold[0], &c, 1) < 0 && errno == EINTR) {}
        _exit(0);
    }
    close(up[1]);
    close(hold[0]);
    ssize_t got = 0, r;
    while ((r = read(up[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0) got += r;
    buf[got > 0 ? got : 0] = 0;
    close(up[0]);
    const char *base = strrchr(buf, '/');
    CHECK(base && iks_outfile_tmp_is(base + 1, "00004.png", ""), "the child's temporary %s has a temporary's name", buf);
    snprintf(dead, sizeof dead, "%s/.00004.png.Ab12Cd", dir);
    int fd = open(dead, O_CREAT | O_EXCL | O_WRONLY, 0600);
    CHECK(fd >= 0 && write(fd, "half a frame", 12) == 12, "a dead writer's temporary");
    if (fd >= 0) close(fd);
    char *mine = NULL;
    int mfd = iks_outfile_tmp_create(target, &mine);
    CHECK(mfd >= 0, "this process's own temporary");
    CHECK(iks_outfile_remove_stale(buf) == 0 && access(buf, F_OK) == 0, "a live writer's temporary is left (%s)", buf);
    CHECK(iks_outfile_remove_stale(mine) == 0 && access(mine, F_OK) == 0, "this process's own temporary is left");
    char first[PATH_MAX] = "";
    long n = iks_outfile_remove_stale_in(dir, any_hidden, NULL, first, sizeof first);
    CHECK(n == 1 && strcmp(first, dead) == 0, "the directory's sweep removed 1 (%ld), the dead writer's (%s)", n, first);
    CHECK(access(dead, F_OK) != 0 && access(buf, F_OK) == 0 && access(mine, F_OK) == 0,
          "only the dead writer's temporary is gone");
    /* the writer killed, as a lost node's: its lock went with it, and the temporary is now stale */
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    CHECK(iks_outfile_remove_stale(buf) == 1 && access(buf, F_OK) != 0, "the killed writer's temporary is removed");
    /* published: the lock ends with it (no copy of the descriptor kept), the file at its name */
    CHECK(write(mfd, "x", 1) == 1 && iks_outfile_tmp_publish(mfd, mine, target), "publish");
    int lfd = open(target, O_RDWR);
    CHECK(lfd >= 0 && flock(lfd, LOCK_EX | LOCK_NB) == 0, "a published file holds no lock (errno %d)", errno);
    if (lfd >= 0) close(lfd);
    free(mine);
    CHECK(!iks_outfile_tmp_is(".00004.png.short", "00004.png", "") && !iks_outfile_tmp_is("00004.png.Ab12Cd", "00004.png", "") &&
          !iks_outfile_tmp_is(".00004.png.Ab12C-", "00004.png", "") && iks_outfile_tmp_is(".a.mp4.Ab12Cd.mp4", "a.mp4", ".mp4") &&
          !iks_outfile_tmp_is(".a.mp4.Ab12Cd", "a.mp4", ".mp4"),
          "temporaries' names: hidden, the target's, 6 letters or digits, the extension");
    close(hold[1]);
    unlink(target);
    rmdir(dir);
}

int main(void)
{
    stale_locks();
    claims();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_poke; /* no SA_RESTART, as the commands install theirs */
    sigaction(SIGURG, &sa, NULL);

    int err;
    bool ok = run(true, 200000, &err);
    CHECK(ok, "a reader that reads after 600 ms, 10 signals meanwhile: the write is finished (errno %d)", err);
    ok = run(false, 200000, &err);
    CHECK(!ok && err == EINTR, "a reader that never reads: gives up with EINTR (returned %d, errno %d)", ok, err);

    /* a temporary whose writer makes it late (as ffmpeg makes its output once input arrives): removing
     * the temporaries ends the writer first, so the file does not appear after the removal */
    char dir[] = "/tmp/ikshade-outfile-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char tmp[64], cmd[128];
    snprintf(tmp, sizeof tmp, "%s/.late.part", dir);
    snprintf(cmd, sizeof cmd, "sleep 0.3; echo late > '%s'", tmp);
    char *argv[] = { "sh", "-c", cmd, NULL };
    pid_t pid;
    CHECK(iks_spawn(&pid, argv, NULL, 0, false) == 0, "spawn");
    CHECK(iks_outfile_tmp_register(tmp) == 0, "register");
    iks_outfile_tmp_writer(tmp, pid);
    iks_outfile_remove_temporaries();
    CHECK(kill(pid, 0) != 0 && errno == ESRCH, "the writer (pid %d) is still there after the removal", (int)pid);
    sleep_ms(600);
    CHECK(access(tmp, F_OK) != 0, "%s was made after the removal", tmp);
    iks_outfile_tmp_done(tmp);
    unlink(tmp);

    /* publish_new: a free name is taken; a taken one (a file, a dangling link) stays as it was */
    char target[96], *t = NULL;
    snprintf(target, sizeof target, "%s/ckpt", dir);
    int fd = iks_outfile_tmp_create(target, &t);
    CHECK(fd >= 0 && write(fd, "one", 3) == 3, "tmp_create");
    CHECK(iks_outfile_tmp_publish_new(fd, t, target), "publish_new to a free name (errno %d)", errno);
    CHECK(access(t, F_OK) != 0, "the temporary %s is gone after publishing", t);
    free(t);
    fd = iks_outfile_tmp_create(target, &t);
    CHECK(fd >= 0 && write(fd, "two", 3) == 3, "tmp_create");
    ok = iks_outfile_tmp_publish_new(fd, t, target);
    err = errno;
    CHECK(!ok && err == EEXIST, "publish_new over a file: refused with EEXIST (returned %d, errno %d)", ok, err);
    CHECK(access(t, F_OK) != 0, "the refused temporary %s is removed", t);
    free(t);
    char got[8] = "";
    int rfd = open(target, O_RDONLY);
    CHECK(rfd >= 0 && read(rfd, got, sizeof got) == 3 && memcmp(got, "one", 3) == 0, "the first file is as it was");
    if (rfd >= 0) close(rfd);
    unlink(target);
    CHECK(symlink("nowhere", target) == 0, "symlink");
    fd = iks_outfile_tmp_create(target, &t);
    CHECK(fd >= 0, "tmp_create");
    ok = iks_outfile_tmp_publish_new(fd, t, target);
    err = errno;
    CHECK(!ok && err == EEXIST, "publish_new over a dangling link: refused with EEXIST (returned %d, errno %d)", ok, err);
    free(t);
    char link[16] = "";
    CHECK(readlink(target, link, sizeof link - 1) == 7, "the link is as it was");
    unlink(target);
    rmdir(dir);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
