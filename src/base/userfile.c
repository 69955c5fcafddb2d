/* userfile.c: careful opens and whole-file reads of users' paths (see userfile.h). */
#include "base/userfile.h"

#include "base/buf.h"
#include "base/files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int refusal(mode_t m)
{
    if (S_ISDIR(m)) return EISDIR;
    if (S_ISFIFO(m)) return IKS_EFIFO;
    if (S_ISSOCK(m)) return IKS_ESOCK;
    return IKS_EDEV;
}

static bool is_stream(mode_t m)
{
    return S_ISFIFO(m) || S_ISCHR(m) || S_ISSOCK(m);
}

int iks_userfile_open(const char *path, unsigned flags)
{
    struct stat st;
    /* look before opening: an open of a FIFO for reading without O_NONBLOCK waits for a writer */
    if (stat(path, &st) != 0) return -1;
    bool stream = (flags & IKS_UF_STREAM_OK) && is_stream(st.st_mode) && !S_ISSOCK(st.st_mode);
    if (!S_ISREG(st.st_mode) && !stream) {
        errno = refusal(st.st_mode);
        return -1;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) return -1;
    /* the path may have changed between the look and the open */
    struct stat now;
    if (fstat(fd, &now) != 0 || (!S_ISREG(now.st_mode) && !(stream && is_stream(now.st_mode)))) {
        int e = errno;
        if (fstat(fd, &now) == 0) e = refusal(now.st_mode);
        close(fd);
        errno = e;
        return -1;
    }
    /* of character devices, a stream is a terminal (text typed in, ended by Ctrl-D): /dev/zero or
     * /dev/urandom would only be read to the size limit and refused as "too large" */
    if (S_ISCHR(now.st_mode) && !isatty(fd)) {
        close(fd);
        errno = IKS_EDEV;
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

char *iks_userfile_read(const char *path, size_t max_bytes, unsigned flags, size_t *len)
{
    int fd = iks_userfile_open(path, flags);
    if (fd < 0) return NULL;
    struct stat st;
    size_t want = 65536;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        if ((uintmax_t)st.st_size > max_bytes) {
            close(fd);
            errno = EFBIG;
            return NULL;
        }
        want = (size_t)st.st_size + 1; /* /proc files say 0 and grow below */
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int e = IKS_GROW(buf, want, cap) ? 0 : ENOMEM;
    while (!e) {
        if (n + 1 >= cap && !IKS_GROW(buf, n + 65536, cap)) {
            e = ENOMEM;
            break;
        }
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r < 0) {
            e = errno; /* EINTR included: a signal is how a user stops a read from a slow stream */
            break;
        }
        if (r == 0) break;
        n += (size_t)r;
        if (n > max_bytes) e = EFBIG;
    }
    close(fd);
    if (e) {
        free(buf);
        errno = e;
        return NULL;
    }
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

char *iks_userfile_read_text(const char *path, size_t max_bytes, unsigned flags, size_t *len)
{
    size_t n = 0;
    char *t = iks_userfile_read(path, max_bytes, flags, &n);
    if (t && memchr(t, '\0', n)) {
        free(t);
        errno = EILSEQ;
        return NULL;
    }
    struct stat st;
    if (t && n == 0 && (flags & IKS_UF_STREAM_OK) && stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
        free(t);
        errno = ENODATA;
        return NULL;
    }
    if (t && len) *len = n;
    return t;
}

const char *iks_userfile_strerror(int e)
{
    switch (e) {
    case IKS_EFIFO: return "a FIFO (named pipe), not a regular file";
    case IKS_ESOCK: return "a socket, not a regular file";
    case IKS_EDEV: return "a device, not a regular file";
    case EISDIR: return "a directory, not a file";
    case ELOOP: return "a loop of symbolic links";
    case ENODATA: return "a FIFO (named pipe) that nothing was written to";
    default: return strerror(e);
    }
}

bool iks_userfile_is_regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool iks_path_inside(const char *dir, const char *path)
{
    char *rd = realpath(dir, NULL), *rp = realpath(path, NULL);
    size_t n = rd ? strlen(rd) : 0;
    bool in = rd && rp && strncmp(rp, rd, n) == 0 && (rp[n] == '/' || (n == 1 && rd[0] == '/'));
    free(rd);
    free(rp);
    return in;
}

/* ---- the disk, for the GLSL text layer ------------------------------------------------------------ */

static char *disk_read(void *user, const char *path, size_t max_bytes, bool stream, size_t *len)
{
    (void)user;
    return iks_userfile_read_text(path, max_bytes, stream ? IKS_UF_STREAM_OK : 0, len);
}

/* something is there: a file, or something that is not one (a directory, a FIFO, a device, a loop of
 * links), which stops an include search so that the read says what it is rather than "not found" */
static bool disk_exists(void *user, const char *path)
{
    (void)user;
    struct stat st;
    return stat(path, &st) == 0 || errno == ELOOP;
}

static bool disk_identity(void *user, const char *path, uint64_t id[2])
{
    (void)user;
    struct stat st;
    if (stat(path, &st) != 0) return false;
    id[0] = (uint64_t)st.st_dev;
    id[1] = (uint64_t)st.st_ino;
    return true;
}

static bool disk_inside(void *user, const char *dir, const char *path)
{
    (void)user;
    return iks_path_inside(dir, path);
}

static const iks_files DISK = { disk_read, disk_exists, disk_identity, disk_inside, iks_userfile_strerror, NULL };

const iks_files *iks_disk_files(void) { return &DISK; }
