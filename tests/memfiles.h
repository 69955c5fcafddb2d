/* memfiles.h: a files table (base/files.h) over texts held in memory, for the GLSL layer's tests and
 * fuzz targets: they hand it to iks_source_load and so touch no disk. Paths are compared as written;
 * "inside" is a prefix of folders. Header-only: each program that includes it has its own. */
#ifndef IKS_MEMFILES_H
#define IKS_MEMFILES_H

#include "base/files.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *path, *text;
} memfile;

typedef struct {
    const memfile *f;
    int n;
} memfiles;

static int memfile_find(const memfiles *m, const char *path)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->f[i].path, path) == 0) return i;
    return -1;
}

static char *memfile_read(void *user, const char *path, size_t max, bool stream, size_t *len)
{
    (void)stream;
    int i = memfile_find(user, path);
    if (i < 0) return errno = ENOENT, NULL;
    const char *t = ((const memfiles *)user)->f[i].text;
    size_t n = strlen(t);
    if (n > max) return errno = EFBIG, NULL;
    char *s = strdup(t);
    if (!s) return errno = ENOMEM, NULL;
    if (len) *len = n;
    return s;
}

static bool memfile_exists(void *user, const char *path) { return memfile_find(user, path) >= 0; }

static bool memfile_identity(void *user, const char *path, uint64_t id[2])
{
    int i = memfile_find(user, path);
    if (i < 0) return false;
    id[0] = 1;
    id[1] = (uint64_t)i;
    return true;
}

static bool memfile_inside(void *user, const char *dir, const char *path)
{
    (void)user;
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && path[n] == '/' && !strstr(path + n, "/../");
}

static const char *memfile_strerror(int e) { return strerror(e); }

/* The table over m (which must outlive it) */
static inline iks_files memfiles_table(memfiles *m)
{
    return (iks_files){ memfile_read, memfile_exists, memfile_identity, memfile_inside, memfile_strerror, m };
}

#endif
