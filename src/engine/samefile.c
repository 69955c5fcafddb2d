/* samefile.c: the outputs that are the same file as one the toy reads (see toyreads.h): a pattern's
 * frames found from the digits in the inputs' names rather than by naming each frame. */
#include "engine/toyreads.h"

#include "engine/writer.h"
#include "io/outfile.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- outputs ------------------------------------------------------------------------------------- */

/* what a toy's file is to it, in a message */
static const char *role_words(iks_read_role role)
{
    return role == IKS_READ_MEDIA ? "the toy's media" : role == IKS_READ_RECORDING ? "the input recording replayed"
                                                                                     : "the toy's source";
}

/* A pattern's frames first..end-1, and its text after the frame number (%% read as %): every frame's
 * name ends with it, and the number comes right before */
typedef struct {
    const char *pattern;
    long first, end;
    char suffix[PATH_MAX];
} frames;

static void frames_init(frames *f, const char *pattern, long first, long end)
{
    *f = (frames){ .pattern = pattern, .first = first, .end = end };
    size_t k = 0;
    bool after = false;
    for (const char *p = pattern; *p && k + 1 < sizeof f->suffix; p++) {
        if (*p == '%' && p[1] == '%') p++;
        else if (*p == '%' && !after) {
            /* the one conversion (iks_output_check_name allowed no other): flags, width, d */
            for (p++; *p && *p != 'd'; p++) {}
            after = true;
            if (!*p) break;
            continue;
        }
        if (after) f->suffix[k++] = *p;
    }
    f->suffix[k] = '\0';
}

/* Frame k of f whose name match(name, user) accepts, where the digits that end s before the suffix
 * (padding blanks aside) are k, or its last digits (a name's prefix may end in digits too): the only
 * frames whose names s can be. true with *frame. */
static bool frame_named(const frames *f, const char *s, bool (*match)(const char *name, void *user), void *user,
                        long *frame)
{
    size_t n = strlen(s), sl = strlen(f->suffix);
    if (n < sl || strcmp(s + n - sl, f->suffix) != 0) return false;
    size_t e = n - sl;
    while (e > 0 && s[e - 1] == ' ') e--; /* %-4d pads after the number */
    unsigned long long v = 0, scale = 1;
    long last = -1;
    for (size_t b = e; b > 0 && s[b - 1] >= '0' && s[b - 1] <= '9' && scale <= LONG_MAX / 10; b--, scale *= 10) {
        v += (unsigned long long)(s[b - 1] - '0') * scale;
        if (v > LONG_MAX) break;
        long k = (long)v;
        if (k == last || k < f->first || k >= f->end) continue; /* 0003: 3 once */
        last = k;
        char name[PATH_MAX];
        if (iks_output_path(f->pattern, true, k, name, sizeof name) && match(name, user)) {
            *frame = k;
            return true;
        }
    }
    return false;
}

static bool same_file(const char *name, void *path) { return iks_same_output(name, path); }

bool iks_pattern_frame_of(const char *pattern, long first, long end, const char *path, long *frame)
{
    frames f;
    frames_init(&f, pattern, first, end);
    if (frame_named(&f, path, same_file, (void *)path, frame)) return true;
    /* a link to a frame's name: its target's digits */
    char real[PATH_MAX];
    return realpath(path, real) && frame_named(&f, real, same_file, (void *)path, frame);
}

static bool same_text(const char *name, void *s) { return strcmp(name, s) == 0; }

/* The files already at frames' names in a pattern's one directory that are links to one of r (a hard
 * link, or a symbolic link, which the frame's own name does not show): *hit its index, *frame the frame.
 * Entries are told apart by their inode first, so that a directory of a million earlier frames costs a
 * read of it, not a stat of each. */
static bool linked_frame(const iks_reads *r, const frames *f, int *hit, long *frame)
{
    if (strchr(f->suffix, '/')) return false; /* the number names a directory: no one directory */
    char dir[PATH_MAX];
    if (!iks_output_path(f->pattern, true, f->first, dir, sizeof dir)) return false;
    char *slash = strrchr(dir, '/');
    if (slash) *(slash == dir ? slash + 1 : slash) = '\0';
    DIR *dp = opendir(slash ? dir : ".");
    if (!dp) return false;
    bool found = false;
    struct dirent *ent;
    while (!found && (ent = readdir(dp))) {
        bool maybe = ent->d_type == DT_LNK || ent->d_type == DT_UNKNOWN;
        for (int i = 0; !maybe && i < r->n; i++) maybe = r->v[i].there && r->v[i].ino == ent->d_ino;
        if (!maybe) continue;
        char name[PATH_MAX];
        if (snprintf(name, sizeof name, "%s%s%s", slash ? dir : "", slash && slash != dir ? "/" : "", ent->d_name) >=
            (int)sizeof name)
            continue;
        struct stat st;
        if (!frame_named(f, name, same_text, name, frame) || stat(name, &st) != 0) continue;
        for (int i = 0; !found && i < r->n; i++)
            if (r->v[i].there && r->v[i].dev == st.st_dev && r->v[i].ino == st.st_ino) *hit = i, found = true;
    }
    closedir(dp);
    return found;
}

bool iks_output_spares(const iks_reads *r, const char *field, const char *output, bool pattern, long first, long end,
                       const char *doing, iks_err *err)
{
    char q[320];
    snprintf(q, sizeof q, "'%.300s'", output);
    if (!pattern) {
        for (int i = 0; i < r->n; i++)
            if (iks_same_output(output, r->v[i].path))
                return iks_err_field(err, IKS_E_USAGE, field, q, "the same file as '%.300s', %s: %s would replace it; "
                                     "name another file", r->v[i].path, role_words(r->v[i].role), doing);
        return true;
    }
    frames f;
    frames_init(&f, output, first, end);
    int hit = -1;
    long k = 0;
    for (int i = 0; i < r->n && hit < 0; i++)
        if (iks_pattern_frame_of(output, first, end, r->v[i].path, &k)) hit = i;
    if (hit < 0 && !linked_frame(r, &f, &hit, &k)) return true;
    char name[PATH_MAX];
    if (!iks_output_path(output, true, k, name, sizeof name)) name[0] = '\0';
    return iks_err_field(err, IKS_E_USAGE, field, q, "frame %ld ('%.300s') is the same file as '%.300s', %s: %s would "
                         "replace it; name another file", k, name, r->v[hit].path, role_words(r->v[hit].role), doing);
}
