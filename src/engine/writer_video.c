/* writer_video.c: the writer's video sink: raw RGBA frames piped into ffmpeg, which encodes the file
 * under a temporary name that is renamed over the output once ffmpeg has finished it.
 * What it does not do: encode (ffmpeg's), or choose frames (the caller's). */
#include "writer.h"
#include "writer_internal.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

const char *iks_video_format(const char *out)
{
    if (ends_with(out, ".mp4")) return "mp4";
    if (ends_with(out, ".webm")) return "webm";
    if (ends_with(out, ".mkv")) return "matroska";
    if (ends_with(out, ".gif")) return "gif";
    return NULL;
}

static bool find_in_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path) return false;
    char *copy = strdup(path), *save = NULL;
    bool found = false;
    for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d && !found; d = strtok_r(NULL, ":", &save)) {
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%.3800s/%s", *d ? d : ".", prog);
        found = access(p, X_OK) == 0;
    }
    free(copy);
    return found;
}

bool iks_video_start(iks_video *v, const iks_writer_desc *d, iks_err *err)
{
    memset(v, 0, sizeof *v);
    v->fd = -1;
    const char *out = d->output;
    if (!find_in_path("ffmpeg"))
        return iks_err_set(err, IKS_E_UNSUPPORTED, "-o %s: a video needs ffmpeg, which is not installed (apt-get install "
                           "ffmpeg); or render PNGs with -o out/%%04d.png", out);
    if (!iks_make_parent_dirs(out)) return iks_err_errno(err, IKS_E_IO, errno, out);
    const char *slash = strrchr(out, '/');
    int dl = slash ? (int)(slash - out) + 1 : 0;
    snprintf(v->tmp, sizeof v->tmp, "%.*s.%s.%ld.part", dl, out, out + dl, (long)getpid());
    char size[32], rate[32];
    snprintf(size, sizeof size, "%dx%d", d->width, d->height);
    snprintf(rate, sizeof rate, "%.17g", d->fps);
    const char *fmt = iks_video_format(out);
    const char *args[40];
    int k = 0;
    args[k++] = "ffmpeg"; args[k++] = "-hide_banner"; args[k++] = "-loglevel"; args[k++] = "error";
    args[k++] = "-y"; args[k++] = "-f"; args[k++] = "rawvideo"; args[k++] = "-pix_fmt"; args[k++] = "rgba";
    args[k++] = "-s"; args[k++] = size; args[k++] = "-framerate"; args[k++] = rate; args[k++] = "-i";
    args[k++] = "-"; args[k++] = "-vf"; args[k++] = "vflip";
    if (strcmp(fmt, "gif") != 0) { args[k++] = "-pix_fmt"; args[k++] = "yuv420p"; }
    args[k++] = "-f"; args[k++] = fmt; args[k++] = v->tmp; args[k] = NULL;
    int fds[2];
    if (pipe(fds) != 0) return iks_err_errno(err, IKS_E_IO, errno, "ffmpeg");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[0], STDIN_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    int rc = posix_spawnp(&v->pid, "ffmpeg", &fa, NULL, (char *const *)args, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[0]);
    if (rc != 0) {
        close(fds[1]);
        return iks_err_errno(err, IKS_E_IO, rc, "ffmpeg");
    }
    v->fd = fds[1];
    return true;
}

bool iks_video_end(iks_video *v, const iks_writer_desc *d, bool ok, iks_err *err)
{
    if (v->fd >= 0) close(v->fd);
    v->fd = -1;
    int status = 0;
    if (v->pid > 0) waitpid(v->pid, &status, 0);
    v->pid = 0;
    if (ok && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        iks_err_set(err, IKS_E_IO, "%s: ffmpeg failed (exit %d)", d->output, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        ok = false;
    }
    if (ok && rename(v->tmp, d->output) != 0) {
        iks_err_errno(err, IKS_E_IO, errno, d->output);
        ok = false;
    }
    if (!ok) unlink(v->tmp);
    return ok;
}
