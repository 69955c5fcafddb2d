/* subproc.c: see subproc.h. */
#include "base/subproc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int iks_spawn(pid_t *pid, char *const argv[], const int *fds, int n, bool own_group)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc != 0) return rc;
    rc = posix_spawnattr_init(&at);
    if (rc != 0) {
        posix_spawn_file_actions_destroy(&fa);
        return rc;
    }
    /* glibc clears FD_CLOEXEC when fds[i] == i, so an inherited descriptor of the same number works */
    for (int i = 0; i < n && rc == 0; i++) {
        if (fds[i] == IKS_SPAWN_NULL) rc = posix_spawn_file_actions_addopen(&fa, i, "/dev/null", O_RDWR, 0);
        else if (fds[i] != IKS_SPAWN_KEEP) rc = posix_spawn_file_actions_adddup2(&fa, fds[i], i);
    }
    sigset_t none, dflt;
    sigemptyset(&none);
    sigemptyset(&dflt);
    sigaddset(&dflt, SIGPIPE);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (own_group ? POSIX_SPAWN_SETPGROUP : 0);
    if (rc == 0) rc = posix_spawnattr_setsigmask(&at, &none);
    if (rc == 0) rc = posix_spawnattr_setsigdefault(&at, &dflt);
    if (rc == 0 && own_group) rc = posix_spawnattr_setpgroup(&at, 0);
    if (rc == 0) rc = posix_spawnattr_setflags(&at, flags);
    if (rc == 0) rc = posix_spawnp(pid, argv[0], &fa, &at, argv, environ);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

static bool runnable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *iks_find_program(const char *name)
{
    if (!name || !*name) return NULL;
    if (strchr(name, '/')) return runnable(name) ? strdup(name) : NULL;
    /* glibc's default search path for the exec*p family when PATH is unset */
    const char *path = getenv("PATH");
    if (!path) path = "/bin:/usr/bin";
    size_t nlen = strlen(name);
    for (const char *p = path;; p++) {
        size_t n = strcspn(p, ":");
        const char *dir = n ? p : ".";
        size_t dlen = n ? n : 1;
        char *cand = malloc(dlen + nlen + 2);
        if (!cand) return NULL;
        memcpy(cand, dir, dlen);
        cand[dlen] = '/';
        memcpy(cand + dlen + 1, name, nlen + 1);
        if (runnable(cand)) return cand;
        free(cand);
        p += n;
        if (!*p) return NULL;
    }
}

void iks_wait_exit(pid_t pid)
{
    siginfo_t info;
    while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {}
}

int iks_reap(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0) {
        /* ECHILD: an embedding program that ignores SIGCHLD has the kernel reap its children, and
         * their status is lost once they end (the wait above blocked until then): the callers judge
         * the child by what it left (ffmpeg's log, the file), as they did before this helper */
        if (errno == ECHILD) {
            struct sigaction sa;
            bool auto_reaped = sigaction(SIGCHLD, NULL, &sa) == 0 &&
                               (sa.sa_handler == SIG_IGN || (sa.sa_flags & SA_NOCLDWAIT));
            return auto_reaped ? 0 : -1;
        }
        if (errno != EINTR) return -1;
    }
    return st;
}
