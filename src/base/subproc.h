/* subproc.h: the one way the engine starts a helper program (ffmpeg, ffprobe, glslangValidator) and
 * reaps it, so that every child gets the same descriptors discipline and the same signal state. */
#ifndef IKS_SUBPROC_H
#define IKS_SUBPROC_H

#include <stdbool.h>
#include <sys/types.h>

/* In fds[]: the child's descriptor reads or writes /dev/null */
#define IKS_SPAWN_NULL (-2)
/* In fds[]: the child keeps the parent's descriptor of that number */
#define IKS_SPAWN_KEEP (-1)

/* Starts argv[0] (looked up on PATH when it has no '/') with fds[i] as its descriptor i for i < n.
 * The child starts with no signal blocked and SIGPIPE at its default, whatever the calling thread
 * blocks or the embedding program ignores (a pipe's reader that dies must end a writer such as
 * ffmpeg); other ignored signals stay ignored, as nohup means them to. own_group: a process group
 * of its own, out of reach of the SIGINT a terminal sends to ours. 0 and *pid, or an errno value. */
int iks_spawn(pid_t *pid, char *const argv[], const int *fds, int n, bool own_group);

/* The file iks_spawn would start for name (posix_spawnp's search: PATH, or /bin:/usr/bin where PATH
 * is unset, an empty entry meaning the working directory), malloc'd; NULL when none is there or memory
 * ran out. A name with a '/' is itself. The callers ask first to say "not installed" in one line. */
char *iks_find_program(const char *name);

/* Waits for the child to end without reaping it (its pid stays taken, so a signal handler that may
 * still kill it cannot hit another process), through interruptions. */
void iks_wait_exit(pid_t pid);

/* Waits for the child through interruptions: its wait status (WIFEXITED...), -1 when it cannot be
 * waited for. Where the program ignores SIGCHLD (the kernel then reaps children itself and keeps no
 * status) it waits for the end and says 0, a clean exit. */
int iks_reap(pid_t pid);

#endif
