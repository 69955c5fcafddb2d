/* test_subproc.c: the one way children are started. A child gets the descriptors it was given
 * (/dev/null, a pipe, a file at 3) and a clean signal state whatever the caller's thread blocks or the
 * program ignores (an embedding program that ignores SIGPIPE must not leave ffmpeg writing forever
 * into a closed pipe), its own process group only when asked; reaping reports exits and signals;
 * a missing program is an errno, not a child that exits 127. */
#include "check.h"
#include "base/subproc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* all of fd, up to n - 1 bytes, NUL-terminated */
static void slurp(int fd, char *buf, size_t n)
{
    size_t got = 0;
    ssize_t k;
    while (got < n - 1 && ((k = read(fd, buf + got, n - 1 - got)) > 0 || (k < 0 && errno == EINTR)))
        if (k > 0) got += (size_t)k;
    buf[got] = '\0';
}

/* the mask a /proc status line shows, as a number */
static unsigned long long proc_mask(const char *status, const char *key)
{
    const char *at = strstr(status, key);
    return at ? strtoull(at + strlen(key), NULL, 16) : ~0ULL;
}

int main(void)
{
    /* the caller's state a child must not inherit, and one it must (nohup's SIGHUP) */
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    pthread_sigmask(SIG_BLOCK, &block, NULL);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGHUP, SIG_IGN);

    int out[2];
    CHECK(pipe2(out, O_CLOEXEC) == 0, "pipe");
    char tmpl[] = "/tmp/ikshade-subproc-XXXXXX";
    int file = mkostemp(tmpl, O_CLOEXEC);
    CHECK(file >= 0, "mkostemp");
    unlink(tmpl);
    CHECK(write(file, "three\n", 6) == 6, "write");
    lseek(file, 0, SEEK_SET);

    /* the signal state, read by a child that does not change it (a shell would) */
    char *sig[] = { "grep", "-E", "^(SigBlk|SigIgn):", "/proc/self/status", NULL };
    const int sfds[] = { IKS_SPAWN_KEEP, out[1] };
    pid_t pid = 0;
    int rc = iks_spawn(&pid, sig, sfds, 2, false);
    CHECK(rc == 0, "iks_spawn grep: %s", strerror(rc));
    close(out[1]);
    char rep[4096];
    slurp(out[0], rep, sizeof rep);
    close(out[0]);
    int st = iks_reap(pid);
    CHECK(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d; report:\n%s", st, rep);
    CHECK(proc_mask(rep, "SigBlk:") == 0, "the child starts with signals blocked: %s", rep);
    unsigned long long ign = proc_mask(rep, "SigIgn:");
    CHECK(!(ign & (1ULL << (SIGPIPE - 1))), "SIGPIPE ignored in the child: %s", rep);
    CHECK(ign & (1ULL << (SIGHUP - 1)), "an ignored SIGHUP (nohup) is not ignored in the child: %s", rep);

    /* stdin /dev/null (reads nothing), stdout a pipe, stderr kept, 3 the file */
    CHECK(pipe2(out, O_CLOEXEC) == 0, "pipe");
    char *argv[] = { "sh", "-c", "cat; echo end; cat <&3; echo pgid $(cut -d' ' -f5 /proc/self/stat)", NULL };
    const int fds[] = { IKS_SPAWN_NULL, out[1], IKS_SPAWN_KEEP, file };
    rc = iks_spawn(&pid, argv, fds, 4, false);
    CHECK(rc == 0, "iks_spawn sh: %s", strerror(rc));
    close(out[1]);
    slurp(out[0], rep, sizeof rep);
    close(out[0]);
    st = iks_reap(pid);
    CHECK(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d; report:\n%s", st, rep);
    CHECK(strncmp(rep, "end\n", 4) == 0, "stdin was not empty: %s", rep);
    CHECK(strstr(rep, "end\nthree\n") != NULL, "descriptor 3 is not the file: %s", rep);
    char want[64];
    snprintf(want, sizeof want, "pgid %d", (int)getpgrp());
    CHECK(strstr(rep, want) != NULL, "a child not asked for a group of its own left ours (%s): %s", want, rep);

    /* a group of its own */
    char *grp[] = { "sleep", "5", NULL };
    rc = iks_spawn(&pid, grp, NULL, 0, true);
    CHECK(rc == 0, "iks_spawn sleep: %s", strerror(rc));
    CHECK(getpgid(pid) == pid, "own_group: pgid %d, pid %d", (int)getpgid(pid), (int)pid);
    kill(pid, SIGKILL);
    st = iks_reap(pid);
    CHECK(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "a killed child reaped as status %d", st);

    /* an exit code, through a signal's interruptions of the wait */
    char *ex[] = { "sh", "-c", "exit 7", NULL };
    rc = iks_spawn(&pid, ex, NULL, 0, false);
    CHECK(rc == 0 && (st = iks_reap(pid)) != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 7, "exit 7: status %d", st);
    CHECK(iks_reap(pid) == -1, "a child reaped twice");

    /* no such program: ENOENT from iks_spawn itself, so callers can say "install ffmpeg" */
    char *none[] = { "ikshade-no-such-program", NULL };
    rc = iks_spawn(&pid, none, NULL, 0, false);
    CHECK(rc == ENOENT, "a missing program: %d (%s)", rc, strerror(rc));
    char *bad[] = { "sh", NULL };
    const int badfd[] = { 987 };
    rc = iks_spawn(&pid, bad, badfd, 1, false);
    if (rc == 0) {
        st = iks_reap(pid);
        CHECK(!(WIFEXITED(st) && WEXITSTATUS(st) == 0), "a child given a closed descriptor ran as if fine");
    } else {
        CHECK(rc == EBADF, "a closed descriptor: %d (%s)", rc, strerror(rc));
    }
    close(file);
    /* a program that ignores SIGCHLD: children are reaped by the kernel, their status lost; the wait
     * still waits for the end, and says a clean exit rather than failing every child */
    signal(SIGCHLD, SIG_IGN);
    char *slp[] = { "sh", "-c", "sleep 0.2; exit 3", NULL };
    rc = iks_spawn(&pid, slp, NULL, 0, false);
    st = rc == 0 ? iks_reap(pid) : -1;
    CHECK(st == 0, "SIGCHLD ignored: status %d", st);
    CHECK(kill(pid, 0) != 0, "SIGCHLD ignored: the wait returned before the child ended");
    signal(SIGCHLD, SIG_DFL);

    /* iks_find_program finds what posix_spawnp starts, so "not installed" is said exactly when the
     * spawn would fail: PATH unset is glibc's /bin:/usr/bin, an empty entry the working directory;
     * a directory or a file without x on the way is passed over */
    char dir[] = "/tmp/ikshade-findXXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
    char cwd[4096];
    CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd");
    CHECK(chdir(dir) == 0, "chdir %s", dir);
    CHECK(mkdir("d", 0755) == 0 && mkdir("d/prog", 0755) == 0 && mkdir("e", 0755) == 0, "mkdir");
    int pf = open("e/prog", O_WRONLY | O_CREAT, 0644);
    CHECK(pf >= 0, "e/prog");
    close(pf);
    pf = open("prog", O_WRONLY | O_CREAT, 0755);
    CHECK(pf >= 0 && write(pf, "#!/bin/sh\nexit 5\n", 18) == 18, "./prog");
    close(pf);
    char *old_path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    const struct { const char *path, *name, *want; } F[] = {
        { NULL, "sh", "/bin/sh" },           /* unset: /bin first */
        { "d:e:", "prog", "./prog" },        /* a directory, a file without x, then "" is here */
        { "d::e", "prog", "./prog" },
        { "", "prog", "./prog" },            /* one empty entry */
        { "d:e", "prog", NULL },
        { "/nonexistent", "sh", NULL },
        { "/nonexistent", "./prog", "./prog" }, /* a '/' skips the search */
        { "/nonexistent", "e/prog", NULL },
        { "/nonexistent", "", NULL },
    };
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++) {
        if (F[i].path) setenv("PATH", F[i].path, 1);
        else unsetenv("PATH");
        char *got = iks_find_program(F[i].name);
        CHECK(F[i].want ? got && strcmp(got, F[i].want) == 0 : got == NULL, "PATH=%s, %s: got %s, want %s",
              F[i].path ? F[i].path : "(unset)", F[i].name, got ? got : "NULL", F[i].want ? F[i].want : "NULL");
        /* and the spawn agrees: it starts the same file, or fails with ENOENT/EACCES */
        char *av[] = { (char *)F[i].name, NULL };
        if (*F[i].name && strcmp(F[i].name, "sh") != 0) {
            rc = iks_spawn(&pid, av, NULL, 0, false);
            st = rc == 0 ? iks_reap(pid) : -1;
            CHECK(F[i].want ? rc == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 5 : rc != 0,
                  "PATH=%s, spawn %s: rc %d, status %d", F[i].path ? F[i].path : "(unset)", F[i].name, rc, st);
        }
        free(got);
    }
    if (old_path) setenv("PATH", old_path, 1);
    free(old_path);
    CHECK(unlink("prog") == 0 && unlink("e/prog") == 0 && rmdir("e") == 0 && rmdir("d/prog") == 0 && rmdir("d") == 0,
          "cleanup");
    CHECK(chdir(cwd) == 0 && rmdir(dir) == 0, "rmdir %s", dir);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
