/* checkpoint.c: render's checkpoints of a toy's feedback state (the format is in checkpoint.h): found
 * by name (its render's key and frame), checked whole and against the render before any byte reaches
 * the toy, written atomically without replacing another render's.
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
#include <sys/stat.h>
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

uint64_t iks_ckpt_key(const iks_ckpt_header *h)
{
    uint8_t b[32];
    put64(b, h->toy_id);
    put64(b + 8, h->settings_id);
    put64(b + 16, h->params_id);
    put32(b + 24, (uint32_t)h->width);
    put32(b + 28, (uint32_t)h->height);
    return iks_fnv(IKS_FNV_START, b, sizeof b);
}

static bool ckpt_path(const char *dir, uint64_t key, long frame, char *buf, size_t n)
{
    int r = snprintf(buf, n, "%s/ckpt-%016llx-%012ld.iksc", dir, (unsigned long long)key, frame);
    return r > 0 && (size_t)r < n;
}

/* A name of this format (key and frame out), of the older format (version 1: ckpt-FRAME.iksc, *key
 * 0 and *old), or neither (false) */
static bool parse_name(const char *s, uint64_t *key, long *frame, bool *old)
{
    size_t n = strlen(s);
    *old = n == 5 + 12 + 5;
    if (strncmp(s, "ckpt-", 5) != 0 || strcmp(s + n - 5, ".iksc") != 0 || (!*old && n != 5 + 17 + 12 + 5))
        return false;
    const char *f = s + n - 5 - 12;
    if (!*old && f[-1] != '-') return false;
    uint64_t k = 0;
    for (const char *p = s + 5; !*old && p < f - 1; p++) {
        int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
        if (d < 0) return false;
        k = k << 4 | (uint64_t)d;
    }
    long v = 0;
    for (int i = 0; i < 12; i++) {
        if (f[i] < '0' || f[i] > '9') return false;
        v = v * 10 + (f[i] - '0');
    }
    *key = k;
    *frame = v;
    return v >= 1;
}

/* what differs between a checkpoint and this render, in words; NULL when nothing does (payload 0:
 * the state's size is not known) */
static const char *mismatch(const iks_ckpt_header *h, const iks_ckpt_want *w, uint64_t payload, char *buf, size_t n)
{
    if (h->toy_id != w->h.toy_id)
        return "it was made from a different toy (its sources, channels, or the bytes of its images, cubemaps, "
               "volumes, music or video differ)";
    if (h->width != w->h.width || h->height != w->h.height) {
        snprintf(buf, n, "it holds buffers of %dx%d, this render draws %dx%d (its size times ssaa)", (int)h->width,
                 (int)h->height, (int)w->h.width, (int)w->h.height);
        return buf;
    }
    if (h->settings_id != w->h.settings_id) return "it was made with other settings of the uniforms";
    if (h->params_id != w->h.params_id || h->time != w->h.time)
        return "it was made with another frame rate, start time, mouse or recorded session";
    if (payload && h->payload != payload) return "its state has another size than this toy's (damaged?)";
    return NULL;
}

static bool read_at(int fd, void *data, size_t len, off_t at)
{
    uint8_t *p = data;
    while (len) {
        ssize_t r = pread(fd, p, len > (1u << 30) ? (1u << 30) : len, at);
        if (r < 0 && errno == EINTR && !iks_stop_requested()) continue;
        if (r == 0) errno = 0; /* the end of the file */
        if (r <= 0) return false;
        p += r;
        at += r;
        len -= (size_t)r;
    }
    return true;
}

/* Whether dir/name is a checkpoint (the header alone) and of which render: for the note on those not
 * used */
static bool peek_header(const char *dir, const char *name, iks_ckpt_header *h)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) return false;
    int fd = iks_userfile_open(path, 0);
    if (fd < 0) return false;
    uint8_t head[IKS_CKPT_HEADER_BYTES];
    bool ok = read_at(fd, head, sizeof head, 0) && iks_ckpt_parse(name, head, sizeof head, h, NULL);
    close(fd);
    return ok;
}

long iks_ckpt_newest(const char *dir, const iks_ckpt_want *want, long at_most, const iks_logger *log, iks_err *err)
{
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOENT) return 0;
        iks_err_errno(err, IKS_E_IO, errno, dir);
        return -1;
    }
    uint64_t mine = iks_ckpt_key(&want->h);
    long best = 0, other_best = 0, others = 0, old_best = 0, olds = 0;
    char other[NAME_MAX + 1] = "", old[NAME_MAX + 1] = "";
    struct dirent *ent;
    while ((ent = readdir(d))) {
        uint64_t key;
        long f;
        bool is_old;
        if (!parse_name(ent->d_name, &key, &f, &is_old) || f > at_most) continue;
        if (is_old) {
            olds++;
            if (f > old_best) old_best = f, snprintf(old, sizeof old, "%s", ent->d_name);
        } else if (key == mine) {
            if (f > best) best = f;
        } else {
            others++;
            if (f > other_best) other_best = f, snprintf(other, sizeof other, "%s", ent->d_name);
        }
    }
    closedir(d);
    /* other toys' checkpoints are expected in a shared directory, so not using them is a note; it says
     * why the newest of them differs, for the one who changed a medium or an option by mistake */
    if (other_best > best) {
        iks_ckpt_header h;
        char buf[160];
        iks_ckpt_want w = *want;
        const char *why = NULL;
        if (peek_header(dir, other, &h)) {
            w.h.time = h.time; /* another frame's time: of no use to compare */
            why = mismatch(&h, &w, 0, buf, sizeof buf);
        }
        iks_logf(log, IKS_LOG_INFO, "checkpoint_dir: %s/%s%s not used: %s", dir, other,
                 others > 1 ? " and other checkpoints there" : "",
                 why ? why : "it is not of this render (its name says so; damaged?)");
    }
    if (old_best > best)
        iks_logf(log, IKS_LOG_INFO, "checkpoint_dir: %s/%s%s not used: an older ikshade's (checkpoint format version 1; "
                 "delete %s)", dir, old, olds > 1 ? " and other checkpoints there" : "", olds > 1 ? "them" : "it");
    return best;
}

/* ---- reading ----------------------------------------------------------------------------------- */

bool iks_ckpt_dir_err(iks_err *err, iks_code code, const char *dir, const char *why)
{
    char q[300];
    snprintf(q, sizeof q, "'%.280s'", dir);
    return iks_err_field(err, code, "checkpoint_dir", q, "%s", why);
}

/* How a file at a checkpoint's name failed the whole-file check */
typedef enum {
    WHOLE,       /* header, size and checksum agree */
    NOT_OURS,    /* not a checkpoint, or another format version: nothing this ikshade may judge */
    DAMAGED,     /* a checkpoint of this format cut short, grown, or with a payload that fails the checksum */
    UNREADABLE,  /* a read failed (err holds the errno's words) */
} whole_check;

/* a read_at that failed: errno 0 is a file that ended sooner than its size said */
static whole_check read_failed(const char *path, iks_err *err)
{
    if (errno) iks_err_set(err, IKS_E_IO, "%s: %s", path, strerror(errno));
    else iks_err_set(err, IKS_E_IO, "%s: cut short while read (changed meanwhile?)", path);
    return UNREADABLE;
}

/* Reads fd's header into h and checks the file whole before anything trusts it: its size is exactly
 * the header, the payload the header announces and the checksum, and the payload's FNV-1a is the
 * checksum (*hash gets it). Anything else is one line in err naming path and what is wrong, damage
 * followed by then (what the caller does about it). */
static whole_check check_whole(int fd, const char *path, iks_ckpt_header *h, uint8_t head[IKS_CKPT_HEADER_BYTES],
                               uint64_t *hash, const char *then, iks_err *err)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0) return iks_err_set(err, IKS_E_IO, "%s: %s", path, strerror(errno)), UNREADABLE;
    uint64_t size = (uint64_t)sb.st_size;
    size_t n = size < IKS_CKPT_HEADER_BYTES ? (size_t)size : IKS_CKPT_HEADER_BYTES;
    memset(head, 0, IKS_CKPT_HEADER_BYTES);
    if (!read_at(fd, head, n, 0)) return read_failed(path, err);
    if (!iks_ckpt_parse(path, head, n, h, err)) {
        /* a header of this version cut or damaged is ours to call damaged; no magic or another version is not */
        if (n < 16 || memcmp(head, MAGIC, sizeof MAGIC) != 0 || get32(head + 8) != IKS_CKPT_VERSION) return NOT_OURS;
        char *m = strdup(iks_err_msg(err));
        iks_err_set(err, IKS_E_FORMAT, "%s (damaged checkpoint%s)", m ? m : path, then);
        free(m);
        return DAMAGED;
    }
    uint64_t want = IKS_CKPT_HEADER_BYTES + 8;
    bool cut = size < want || size - want < h->payload;
    if (cut || size - want > h->payload) {
        iks_err_set(err, IKS_E_FORMAT, "%s: %s: %llu bytes, where its header makes %llu (damaged checkpoint%s)",
                    path, cut ? "cut short" : "longer than its header says", (unsigned long long)size,
                    (unsigned long long)(h->payload > UINT64_MAX - want ? UINT64_MAX : h->payload + want), then);
        return DAMAGED;
    }
    enum { CHUNK = 1 << 20 };
    uint8_t *buf = malloc(CHUNK);
    if (!buf) return iks_err_set(err, IKS_E_NOMEM, "out of memory"), UNREADABLE;
    uint64_t hsh = IKS_FNV_START;
    off_t at = IKS_CKPT_HEADER_BYTES;
    bool ok = true;
    for (uint64_t left = h->payload; ok && left;) {
        size_t k = left < CHUNK ? (size_t)left : CHUNK;
        if ((ok = read_at(fd, buf, k, at))) hsh = iks_fnv(hsh, buf, k), at += (off_t)k, left -= k;
    }
    uint8_t tail[8];
    ok = ok && read_at(fd, tail, sizeof tail, at);
    free(buf);
    if (!ok) return read_failed(path, err);
    if (get64(tail) != hsh)
        return iks_err_set(err, IKS_E_FORMAT, "%s: checksum mismatch (damaged checkpoint%s)", path, then), DAMAGED;
    *hash = hsh;
    return WHOLE;
}

typedef struct {
    int fd;
    off_t at;
    uint64_t hash, left;
    bool short_read;
} reader;

static bool get_state(void *user, void *data, size_t len)
{
    reader *r = user;
    if (len > r->left || !read_at(r->fd, data, len, r->at)) return !(r->short_read = true);
    r->at += (off_t)len;
    r->left -= len;
    r->hash = iks_fnv(r->hash, data, len);
    return true;
}

bool iks_ckpt_load(const char *dir, long frame, iks_gltoy *t, const iks_ckpt_want *want, int64_t *next_key,
                   const iks_logger *log, iks_err *err)
{
    char path[PATH_MAX];
    if (!ckpt_path(dir, iks_ckpt_key(&want->h), frame, path, sizeof path))
        return iks_ckpt_dir_err(err, IKS_E_USAGE, dir, "name too long");
    int fd = iks_userfile_open(path, 0);
    if (fd < 0) return iks_err_set(err, IKS_E_IO, "%s: %s", path, iks_userfile_strerror(errno));
    uint8_t head[IKS_CKPT_HEADER_BYTES];
    iks_ckpt_header h;
    uint64_t sum = 0;
    /* the whole file is judged before a byte of it reaches the toy: a damaged one is never used */
    bool ok = check_whole(fd, path, &h, head, &sum, "; delete it", err) == WHOLE;
    uint64_t payload = iks_gltoy_state_bytes(t);
    char why[200];
    const char *diff = ok ? mismatch(&h, want, payload, why, sizeof why) : NULL;
    if (diff) ok = iks_err_set(err, IKS_E_USAGE, "%s: refused: %s; use another checkpoint_dir", path, diff);
    if (ok && h.frame != frame)
        ok = iks_err_set(err, IKS_E_FORMAT, "%s: holds frame %lld, not %ld (renamed?)", path, (long long)h.frame, frame);
    if (ok && want->renderer && strcmp(h.renderer, want->renderer) != 0)
        iks_warnf(log, "%s was made on another GL (%s; this is %s): frames may differ from one run here in the last bits",
                  path, h.renderer, want->renderer);
    if (ok) {
        reader r = { .fd = fd, .at = IKS_CKPT_HEADER_BYTES, .hash = IKS_FNV_START, .left = h.payload };
        ok = iks_gltoy_state_load(t, get_state, &r, err);
        if (!ok && r.short_read) iks_err_set(err, IKS_E_FORMAT, "%s: cut short while read (changed meanwhile?)", path);
        else if (!ok) iks_err_prefix(err, "%s: ", path);
        else if (r.left || r.hash != sum)
            ok = iks_err_set(err, IKS_E_FORMAT, "%s: changed while read (checksum mismatch)", path);
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

/* What to do with what is at a checkpoint's name before saving there */
typedef enum { WRITE_NEW, KEEP, REPLACE_DAMAGED, LEAVE_ALONE } at_name;

/* ".ckpt-KEY-FRAME.iksc.XXXXXX": a checkpoint's temporary (iks_outfile_tmp_create's name), any render's */
static bool ckpt_tmp(void *user, const char *entry)
{
    (void)user;
    size_t n = strlen(entry);
    char base[NAME_MAX + 1];
    if (n < 9 || n - 8 > NAME_MAX) return false;
    snprintf(base, sizeof base, "%.*s", (int)(n - 8), entry + 1);
    uint64_t key;
    long frame;
    bool old;
    return parse_name(base, &key, &frame, &old) && iks_outfile_tmp_is(entry, base, "");
}

long iks_ckpt_remove_stale(const char *dir, char *first, size_t n)
{
    /* any render's: the lock, not the name, tells a dead writer's (parts share the directory, and warm
     * up through each other's frames, so a name cannot say whose a temporary is) */
    return iks_outfile_remove_stale_in(dir, ckpt_tmp, NULL, first, n);
}

/* A whole checkpoint of this very render is kept (a rerun, or a racing task of the same render, passed
 * the same frame); a damaged one of this format is written again; anything else there, a checkpoint of
 * another render or another format or no checkpoint at all, is never replaced. */
static at_name judge_existing(const char *path, const iks_ckpt_want *want, uint64_t payload, bool raced,
                              const iks_logger *log)
{
    int fd = iks_userfile_open(path, 0);
    if (fd < 0 && errno == ENOENT) return WRITE_NEW;
    if (fd < 0) {
        iks_warnf(log, "%s: not replaced: %s", path, iks_userfile_strerror(errno));
        return LEAVE_ALONE;
    }
    uint8_t head[IKS_CKPT_HEADER_BYTES];
    iks_ckpt_header h;
    uint64_t sum;
    iks_err why = IKS_ERR_INIT;
    whole_check c = check_whole(fd, path, &h, head, &sum, raced ? "" : ": written again", &why);
    close(fd);
    char buf[200];
    const char *diff = c == WHOLE ? mismatch(&h, want, payload, buf, sizeof buf) : NULL;
    at_name r = LEAVE_ALONE;
    if (c == WHOLE && !diff && h.frame == want->h.frame) r = KEEP;
    else if (c == WHOLE) iks_warnf(log, "%s: not replaced: %s", path, diff ? diff : "it holds another frame (renamed?)");
    else if (c == DAMAGED) {
        iks_warnf(log, "%s%s", iks_err_msg(&why), raced ? "; not replaced (it appeared while this one was written)" : "");
        r = REPLACE_DAMAGED;
    } else iks_warnf(log, "%s; not replaced", iks_err_msg(&why));
    iks_err_clear(&why);
    return r;
}

bool iks_ckpt_save(const char *dir, iks_gltoy *t, const iks_ckpt_want *want, const iks_logger *log, iks_err *err)
{
    char path[PATH_MAX];
    if (!ckpt_path(dir, iks_ckpt_key(&want->h), (long)want->h.frame, path, sizeof path))
        return iks_ckpt_dir_err(err, IKS_E_USAGE, dir, "name too long");
    uint64_t payload = iks_gltoy_state_bytes(t);
    uint8_t head[IKS_CKPT_HEADER_BYTES];
    header_bytes(want, payload, head);
    at_name there = judge_existing(path, want, payload, false, log);
    if (there == KEEP || there == LEAVE_ALONE) return true;
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
    if (ok) {
        /* the name is claimed without replacing what appeared there meanwhile (a racing task's own copy) */
        bool done = there == REPLACE_DAMAGED ? iks_outfile_tmp_publish(fd, tmp, path) : iks_outfile_tmp_publish_new(fd, tmp, path);
        if (!done && errno == EEXIST) (void)judge_existing(path, want, payload, true, log);
        else if (!done) ok = iks_err_set(err, IKS_E_IO, "%s: %s", path, iks_outfile_strerror(errno));
    } else iks_outfile_tmp_discard(fd, &tmp);
    free(tmp);
    return ok;
}
