/* checkpoint.c: render's checkpoints of a toy's feedback state (the format is in checkpoint.h): found
 * by name, checked against the render before any byte reaches the toy, written atomically.
 * What it does not do: decide when to save or load (render.c), or know what the state holds (toy.c). */
#include "engine/checkpoint.h"

#include "io/outfile.h"
#include "base/userfile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char MAGIC[8] = { 'I', 'K', 'S', 'C', 'K', 'P', 'T', '\n' };

uint64_t iks_fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}
static uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> 8 * i);
}
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> 8 * i);
}

bool iks_ckpt_parse(const char *name, const uint8_t *p, size_t n, iks_ckpt_header *h, iks_err *err)
{
    memset(h, 0, sizeof *h);
    if (n < 16 || memcmp(p, MAGIC, sizeof MAGIC) != 0)
        return iks_err_set(err, IKS_E_FORMAT, "%s: not an ikshade checkpoint", name);
    h->version = get32(p + 8);
    if (h->version != IKS_CKPT_VERSION)
        return iks_err_set(err, IKS_E_FORMAT, "%s: checkpoint format version %u; this ikshade reads version %d (render "
                           "again without it, or with the ikshade that made it)", name, h->version, IKS_CKPT_VERSION);
    if (n < IKS_CKPT_HEADER_BYTES || get32(p + 12) != IKS_CKPT_HEADER_BYTES)
        return iks_err_set(err, IKS_E_FORMAT, "%s: checkpoint header cut short or damaged", name);
    h->toy_id = get64(p + 16);
    h->settings_id = get64(p + 24);
    h->params_id = get64(p + 32);
    h->width = (int32_t)get32(p + 40);
    h->height = (int32_t)get32(p + 44);
    h->frame = (int64_t)get64(p + 48);
    uint64_t t = get64(p + 56);
    memcpy(&h->time, &t, sizeof t);
    h->next_key = (int64_t)get64(p + 64);
    h->payload = get64(p + 72);
    memcpy(h->renderer, p + 80, 128);
    h->renderer[128] = '\0';
    if (h->width < 1 || h->height < 1 || h->frame < 1 || h->next_key < 0)
        return iks_err_set(err, IKS_E_FORMAT, "%s: checkpoint header damaged (size %dx%d, frame %lld)", name, (int)h->width,
                           (int)h->height, (long long)h->frame);
    return true;
}

static void header_bytes(const iks_ckpt_want *w, uint64_t payload, uint8_t *p)
{
    memset(p, 0, IKS_CKPT_HEADER_BYTES);
    memcpy(p, MAGIC, sizeof MAGIC);
    put32(p + 8, IKS_CKPT_VERSION);
    put32(p + 12, IKS_CKPT_HEADER_BYTES);
    put64(p + 16, w->h.toy_id);
    put64(p + 24, w->h.settings_id);
    put64(p + 32, w->h.params_id);
    put32(p + 40, (uint32_t)w->h.width);
    put32(p + 44, (uint32_t)w->h.height);
    put64(p + 48, (uint64_t)w->h.frame);
    uint64_t t;
    memcpy(&t, &w->h.time, sizeof t);
    put64(p + 56, t);
    put64(p + 64, (uint64_t)w->h.next_key);
    put64(p + 72, payload);
    if (w->renderer) memcpy(p + 80, w->renderer, strnlen(w->renderer, 127)); /* NUL-padded by the memset */
}

static bool ckpt_path(const char *dir, long frame, char *buf, size_t n)
{
    int r = snprintf(buf, n, "%s/ckpt-%012ld.iksc", dir, frame);
    return r > 0 && (size_t)r < n;
}

long iks_ckpt_newest(const char *dir, long at_most, iks_err *err)
{
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOENT) return 0;
        iks_err_errno(err, IKS_E_IO, errno, dir);
        return -1;
    }
    long best = 0;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        const char *s = ent->d_name;
        if (strncmp(s, "ckpt-", 5) != 0 || strlen(s) != 5 + 12 + 5 || strcmp(s + 17, ".iksc") != 0) continue;
        long f = 0;
        bool digits = true;
        for (int i = 5; i < 17; i++) {
            digits &= s[i] >= '0' && s[i] <= '9';
            f = f * 10 + (s[i] - '0');
        }
        if (digits && f >= 1 && f <= at_most && f > best) best = f;
    }
    closedir(d);
    return best;
}

/* ---- reading ----------------------------------------------------------------------------------- */

typedef struct {
    int fd;
    uint64_t hash, left;
    bool short_read;
} reader;

static bool read_exact(int fd, void *data, size_t len)
{
    uint8_t *p = data;
    while (len) {
        ssize_t r = read(fd, p, len > (1u << 30) ? (1u << 30) : len);
        if (r < 0 && errno == EINTR && !iks_stop_requested()) continue;
        if (r <= 0) return false;
        p += r;
        len -= (size_t)r;
    }
    return true;
}

static bool get_state(void *user, void *data, size_t len)
{
    reader *r = user;
    if (len > r->left || !read_exact(r->fd, data, len)) return !(r->short_read = true);
    r->left -= len;
    r->hash = iks_fnv(r->hash, data, len);
    return true;
}

bool iks_ckpt_dir_err(iks_err *err, iks_code code, const char *dir, const char *why)
{
    char q[300];
    snprintf(q, sizeof q, "'%.280s'", dir);
    return iks_err_field(err, code, "checkpoint_dir", q, "%s", why);
}

/* what differs between a checkpoint and this render, in words; NULL when nothing does */
static const char *mismatch(const iks_ckpt_header *h, const iks_ckpt_want *w, uint64_t payload, char *buf, size_t n)
{
    if (h->toy_id != w->h.toy_id)
        return "it was made from a different shader (its sources, channels or textures differ)";
    if (h->width != w->h.width || h->height != w->h.height) {
        snprintf(buf, n, "it holds buffers of %dx%d, this render draws %dx%d (its size times ssaa)", (int)h->width,
                 (int)h->height, (int)w->h.width, (int)w->h.height);
        return buf;
    }
    if (h->settings_id != w->h.settings_id) return "it was made with other settings of the uniforms";
    if (h->params_id != w->h.params_id || h->time != w->h.time)
        return "it was made with another frame rate, start time, mouse or recorded session";
    if (h->payload != payload) return "its state has another size than this toy's (damaged?)";
    return NULL;
}

bool iks_ckpt_load(const char *dir, long frame, iks_gltoy *t, const iks_ckpt_want *want, int64_t *next_key,
                   const iks_logger *log, iks_err *err)
{
    char path[PATH_MAX];
    if (!ckpt_path(dir, frame, path, sizeof path))
        return iks_ckpt_dir_err(err, IKS_E_USAGE, dir, "name too long");
    int fd = iks_userfile_open(path, 0);
    if (fd < 0) return iks_err_set(err, IKS_E_IO, "%s: %s", path, iks_userfile_strerror(errno));
    uint8_t head[IKS_CKPT_HEADER_BYTES];
    size_t got = 0;
    while (got < sizeof head) {
        ssize_t r = read(fd, head + got, sizeof head - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    iks_ckpt_header h;
    bool ok = iks_ckpt_parse(path, head, got, &h, err);
    uint64_t payload = iks_gltoy_state_bytes(t);
    char why[160];
    const char *diff = ok ? mismatch(&h, want, payload, why, sizeof why) : NULL;
    if (diff) ok = iks_err_set(err, IKS_E_USAGE, "%s: refused: %s; use another checkpoint_dir", path, diff);
    if (ok && h.frame != frame)
        ok = iks_err_set(err, IKS_E_FORMAT, "%s: holds frame %lld, not %ld (renamed?)", path, (long long)h.frame, frame);
    if (ok && want->renderer && strcmp(h.renderer, want->renderer) != 0)
        iks_warnf(log, "%s was made on another GL (%s; this is %s): frames may differ from one run here in the last bits",
                  path, h.renderer, want->renderer);
    if (ok) {
        reader r = { .fd = fd, .hash = IKS_FNV_START, .left = h.payload };
        uint8_t tail[8];
        ok = iks_gltoy_state_load(t, get_state, &r, err);
        if (!ok && r.short_read) iks_err_set(err, IKS_E_FORMAT, "%s: cut short (damaged checkpoint; delete it)", path);
        else if (!ok) iks_err_prefix(err, "%s: ", path);
        else if (r.left || !read_exact(fd, tail, sizeof tail) || get64(tail) != r.hash || read(fd, tail, 1) != 0)
            ok = iks_err_set(err, IKS_E_FORMAT, "%s: checksum mismatch (damaged checkpoint; delete it)", path);
        *next_key = h.next_key;
    }
    close(fd);
    return ok;
}

/* ---- writing ----------------------------------------------------------------------------------- */

typedef struct {
    int fd;
    uint64_t hash;
    int err;
} writer;

static bool put_state(void *user, void *data, size_t len)
{
    writer *w = user;
    w->hash = iks_fnv(w->hash, data, len);
    if (!iks_write_all(w->fd, data, len)) {
        w->err = errno;
        return false;
    }
    return true;
}

/* whether path already holds a checkpoint with exactly this header (a run done again passes the same
 * frames: the file is kept instead of rewritten) */
static bool same_header(const char *path, const uint8_t *head)
{
    int fd = iks_userfile_open(path, 0);
    if (fd < 0) return false;
    uint8_t have[IKS_CKPT_HEADER_BYTES];
    bool same = read_exact(fd, have, sizeof have) && memcmp(have, head, sizeof have) == 0;
    close(fd);
    return same;
}

bool iks_ckpt_save(const char *dir, iks_gltoy *t, const iks_ckpt_want *want, iks_err *err)
{
    char path[PATH_MAX];
    if (!ckpt_path(dir, (long)want->h.frame, path, sizeof path))
        return iks_ckpt_dir_err(err, IKS_E_USAGE, dir, "name too long");
    uint64_t payload = iks_gltoy_state_bytes(t);
    uint8_t head[IKS_CKPT_HEADER_BYTES];
    header_bytes(want, payload, head);
    if (same_header(path, head)) return true;
    if (!iks_make_parent_dirs(path)) return iks_err_errno(err, IKS_E_IO, errno, dir);
    char *tmp = NULL;
    int fd = iks_outfile_tmp_create(path, &tmp);
    if (fd < 0) return iks_err_set(err, IKS_E_IO, "%s: %s", path, iks_outfile_strerror(errno));
    writer w = { .fd = fd, .hash = IKS_FNV_START };
    bool ok = iks_write_all(fd, head, sizeof head) || (w.err = errno, false);
    if (ok && !iks_gltoy_state_save(t, put_state, &w, err)) {
        ok = false;
        if (w.err) iks_err_set(err, IKS_E_IO, "%s: %s", path, iks_outfile_strerror(w.err));
        else iks_err_prefix(err, "%s: ", path);
    } else if (ok) {
        uint8_t tail[8];
        put64(tail, w.hash);
        ok = iks_write_all(fd, tail, sizeof tail) || (w.err = errno, false);
    }
    if (!ok && w.err && err->code == IKS_OK) iks_err_set(err, IKS_E_IO, "%s: %s", path, iks_outfile_strerror(w.err));
    if (ok && !iks_outfile_tmp_publish(fd, tmp, path)) ok = iks_err_set(err, IKS_E_IO, "%s: %s", path, iks_outfile_strerror(errno));
    else if (!ok) {
        close(fd);
        unlink(tmp);
    }
    iks_outfile_tmp_done(tmp);
    free(tmp);
    return ok;
}
