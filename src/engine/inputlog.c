/* inputlog.c: a viewer session's inputs as a small text file, and their replay by render.
 *
 *   ikshade-input 1
 *   set NAME=V                       the --set values the session ran with (any number)
 *   f T ITIME W H MX MY MZ MW        one line per displayed frame: seconds since the recording began
 *                                    (monotonic), the frame's time, the framebuffer's size, the mouse in its pixels
 *   k T CODE DOWN                    a key (JavaScript keyCode) went down (1) or up (0)
 *   r T ok|error                     the shader was reloaded (for the reader: not replayed)
 *   u T NAME=V[,V..]                 a parameter changed in the viewer's panel (a drag, a toggle, a
 *                                    reset), in --set's syntax: the value from then on
 *   c T0 PASS N FILE                 live channel N (0-3) of PASS (a manifest word: image, a..d, cube_a)
 *                                    was recorded into FILE, a name beside the log (a WAV for a
 *                                    microphone, a video for a webcam), whose start is the session's
 *                                    second T0; any place in the file (written when the capture began)
 *   # ...                            a comment
 *
 * Replay resamples the session on its own clock: render frame i stands at T = i / fps; it gets the
 * mouse of the last recorded frame at or before T, scaled from that frame's size to the render's, with
 * the mouse's w > 0 only if a press happened since the previous render frame (the site's rule); keys that
 * went down or up since then reach the keyboard texture, and so do the parameters changed since then (u
 * lines: each applied at the first render frame at or after its T, as a key is); the time runs on from
 * the session's first. A recorded live channel is replayed as the music or video channel its FILE is,
 * from T0 on, once: render frame i reads it at i / fps - T0, as the viewer showed it then.
 * What it does not do: draw (render.c), or read the window (live.c writes the lines). */
#include "engine/checkpoint.h"
#include "base/strutil.h"
#include "engine/engine.h"
#include "glsl/source.h"
#include "base/buf.h"
#include "base/userfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    double t, itime;
    int w, h;
    float mouse[4];
} rec_frame;

typedef struct {
    double t;
    int code;
    bool down;
} rec_key;

typedef struct {
    double t;
    iks_setting s;
} rec_param;

typedef struct {
    double t0;
    int slot, channel;
    char *path; /* FILE beside the log: the log's directory joined (owned) */
} rec_live;

struct iks_input_log {
    rec_param *u;
    long nu;
    size_t capu;
    rec_frame *f;
    long nf;
    size_t capf;
    rec_key *k;
    long nk;
    size_t capk;
    char **sets;
    int nsets;
    size_t capsets;
    rec_live *c;
    int nc;
    size_t capc;
    char *path; /* the file it was loaded from, or NULL */
};

void iks_input_log_free(iks_input_log *l)
{
    if (!l) return;
    for (int i = 0; i < l->nsets; i++) free(l->sets[i]);
    free(l->sets);
    for (int i = 0; i < l->nc; i++) free(l->c[i].path);
    free(l->c);
    free(l->f);
    free(l->k);
    free(l->u);
    free(l->path);
    free(l);
}


/* strtod of exactly one finite number at *s, moving past it */
static bool num(char **s, double *v)
{
    char *e;
    errno = 0;
    *v = iks_strtod_c(*s, &e);
    if (e == *s || errno == ERANGE || !isfinite(*v) || (*e && *e != ' ' && *e != '\t')) return false;
    *s = e;
    return true;
}

/* ---- reading a recording ------------------------------------------------------------------------- */

#define HEADER "ikshade-input 1" /* the first line that is not blank or a comment */

/* the line being read, and where the log goes: what each line's parser shares */
typedef struct {
    iks_input_log *l;
    const char *name; /* the file's, in messages */
    const char *dir;  /* its path: a recording's FILE lies beside it */
    int lineno;
    double last_t;    /* the previous line's time: times never go back */
    iks_err *err;
} reader;

static bool out_of_memory(reader *r)
{
    return iks_err_set(r->err, IKS_E_NOMEM, "%s: out of memory", r->name);
}

static char *skip_blanks(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

/* a line's time t (beyond: one of its times is past 10^9 s), which never goes back */
static bool line_time(reader *r, double t, bool beyond)
{
    if (beyond) return iks_err_set(r->err, IKS_E_FORMAT, "%s:%d: a time beyond 10^9 seconds", r->name, r->lineno);
    if (t < r->last_t || t < 0)
        return iks_err_set(r->err, IKS_E_FORMAT, "%s:%d: time %g goes back (the previous line said %g)", r->name,
                           r->lineno, t, r->last_t);
    r->last_t = t;
    return true;
}

/* u T NAME=V[,V..]: the setting checked as --set's (a bool's true/false, a float's range) */
static bool parse_param(reader *r, char *s)
{
    double t;
    s = skip_blanks(s);
    bool ok = num(&s, &t);
    while (ok && (*s == ' ' || *s == '\t')) s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = '\0';
    iks_setting st;
    iks_err why = IKS_ERR_INIT;
    if (!ok || !*s)
        return iks_err_set(r->err, IKS_E_FORMAT, "%s:%d: expected 'u T NAME=V[,V..]' (a parameter's change)", r->name,
                           r->lineno);
    if (!iks_setting_check(s, &st, &why)) {
        iks_err_set(r->err, IKS_E_FORMAT, "%s:%d: %s", r->name, r->lineno, iks_err_msg(&why));
        iks_err_clear(&why);
        return false;
    }
    if (!line_time(r, t, t > 1e9)) return false;
    iks_input_log *l = r->l;
    if (!IKS_GROW(l->u, l->nu + 1, l->capu)) return out_of_memory(r);
    l->u[l->nu++] = (rec_param){ .t = t, .s = st };
    return true;
}

/* c T0 PASS N FILE: FILE a plain name (no directory: it lies beside the log, and a log from elsewhere
 * must not make a render read other files) */
static bool parse_live(reader *r, char *s)
{
    double t0, ch;
    s = skip_blanks(s);
    bool ok = num(&s, &t0) && t0 >= 0 && t0 <= 1e9;
    s = skip_blanks(s);
    size_t wn = strcspn(s, " \t");
    int slot = ok ? iks_pass_slot_of_word(s, wn) : -1;
    s = skip_blanks(s + wn);
    ok = ok && slot >= 0 && slot < IKS_PASSES && num(&s, &ch) && (ch == 0 || ch == 1 || ch == 2 || ch == 3);
    const char *file = skip_blanks(s);
    if (!ok || s == file || !*file || strchr(file, '/') || !strcmp(file, ".") || !strcmp(file, ".."))
        return iks_err_set(r->err, IKS_E_FORMAT, "%s:%d: expected 'c T0 PASS N FILE' (a recorded live channel: "
                           "T0 >= 0, PASS image, a-d or cube_a, N 0-3, FILE a name beside the log)", r->name, r->lineno);
    iks_input_log *l = r->l;
    for (int i = 0; i < l->nc; i++)
        if (l->c[i].slot == slot && l->c[i].channel == (int)ch)
            return iks_err_set(r->err, IKS_E_FORMAT, "%s:%d: channel %d of %s is recorded twice", r->name, r->lineno,
                               (int)ch, iks_pass_kind_at(slot)->name);
    if (!IKS_GROW(l->c, l->nc + 1, l->capc)) return out_of_memory(r);
    char *path = NULL;
    const char *slash = r->dir ? strrchr(r->dir, '/') : NULL;
    if (slash ? asprintf(&path, "%.*s/%s", (int)(slash - r->dir), r->dir, file) < 0 : !(path = strdup(file)))
        return out_of_memory(r);
    l->c[l->nc++] = (rec_live){ .t0 = t0, .slot = slot, .channel = (int)ch, .path = path };
    return true;
}

/* set NAME=V: kept as given; the toy applies it when it loads */
static bool parse_set(reader *r, char *s)
{
    iks_input_log *l = r->l;
    s = skip_blanks(s);
    if (!strchr(s, '=')) return iks_err_set(r->err, IKS_E_FORMAT, "%s:%d: expected 'set NAME=V'", r->name, r->lineno);
    if (!IKS_GROW(l->sets, l->nsets + 1, l->capsets) || !(l->sets[l->nsets] = strdup(s))) return out_of_memory(r);
    l->nsets++;
    /* what needs no shader is checked here, where the line is known (a float's range, a
     * built-in's name); whether the shader declares NAME, only its load can say */
    iks_setting st;
    iks_err why = IKS_ERR_INIT;
    if (!iks_setting_check(s, &st, &why)) {
        iks_err_set(r->err, IKS_E_FORMAT, "%s:%d: %s", r->name, r->lineno, iks_err_msg(&why));
        iks_err_clear(&why);
        return false;
    }
    return true;
}

/* f T ITIME W H MX MY MZ MW, its numbers read: a whole size and a mouse within the window's reach */
static bool add_frame(reader *r, const double v[8])
{
    iks_input_log *l = r->l;
    if (v[2] < 1 || v[3] < 1 || v[2] > IKS_MAX_SIDE || v[3] > IKS_MAX_SIDE || v[2] != floor(v[2]) || v[3] != floor(v[3]))
        return iks_err_set(r->err, IKS_E_FORMAT, "%s:%d: size %gx%g: expected whole numbers from 1 to "
                           IKS_XSTR(IKS_MAX_SIDE), r->name, r->lineno, v[2], v[3]);
    /* pixels of a window at most 65536 wide: anything far beyond is no mouse (and would overflow
     * a float once scaled to the render's size) */
    bool sane = true;
    for (int i = 4; i < 8; i++) sane = sane && fabs(v[i]) <= 1e6;
    if (!sane)
        return iks_err_set(r->err, IKS_E_FORMAT, "%s:%d: a mouse position beyond a million pixels", r->name, r->lineno);
    if (!IKS_GROW(l->f, l->nf + 1, l->capf)) return out_of_memory(r);
    l->f[l->nf++] = (rec_frame){ .t = v[0], .itime = v[1], .w = (int)v[2], .h = (int)v[3],
                                 .mouse = { (float)v[4], (float)v[5], (float)v[6], (float)v[7] } };
    return true;
}

/* k T CODE DOWN, its numbers read */
static bool add_key(reader *r, const double v[3])
{
    iks_input_log *l = r->l;
    if (v[1] < 0 || v[1] > 255 || v[1] != floor(v[1]) || (v[2] != 0 && v[2] != 1))
        return iks_err_set(r->err, IKS_E_FORMAT, "%s:%d: a key is a code 0..255 and 0 (up) or 1 (down)", r->name,
                           r->lineno);
    if (!IKS_GROW(l->k, l->nk + 1, l->capk)) return out_of_memory(r);
    l->k[l->nk++] = (rec_key){ .t = v[0], .code = (int)v[1], .down = v[2] == 1 };
    return true;
}

/* a line of numbers (f, k, r), or of no kind known: its fields read, then its time checked, then kept */
static bool parse_event(reader *r, char kind, char *s)
{
    double v[8];
    int nv = kind == 'f' ? 8 : kind == 'k' ? 3 : kind == 'r' ? 1 : 0;
    bool ok = kind == 'f' || kind == 'k' || kind == 'r';
    for (int i = 0; ok && i < nv; i++) {
        s = skip_blanks(s);
        ok = num(&s, &v[i]);
    }
    while (ok && (*s == ' ' || *s == '\t')) s++;
    if (ok && kind == 'r') {
        ok = !strcmp(s, "ok") || !strcmp(s, "error");
        s += strlen(s);
    }
    if (!ok || *s)
        return iks_err_set(r->err, IKS_E_FORMAT, "%s:%d: expected %s", r->name, r->lineno,
                           kind == 'f' ? "'f T ITIME W H MX MY MZ MW' (finite numbers)"
                           : kind == 'k' ? "'k T CODE DOWN' (finite numbers)"
                           : kind == 'r' ? "'r T ok' or 'r T error'"
                                         : "a line f (frame), k (key), u (parameter), c (live channel), r (reload), set or # (comment)");
    if (!line_time(r, v[0], v[0] > 1e9 || (kind == 'f' && fabs(v[1]) > 1e9))) return false;
    if (kind == 'f') return add_frame(r, v);
    if (kind == 'k') return add_key(r, v);
    return true;
}

/* one line after the header, blanks skipped: by its kind, its first word */
static bool parse_line(reader *r, char *s)
{
    char kind = *s++;
    if (kind == 's' && !strncmp(s, "et", 2) && (s[2] == ' ' || s[2] == '\t')) s += 2; /* "set" */
    else if (kind == 's') kind = '?';
    if (*s != ' ' && *s != '\t') kind = '?';
    if (kind == 'u') return parse_param(r, s);
    if (kind == 'c') return parse_live(r, s);
    if (kind == 's') return parse_set(r, s);
    return parse_event(r, kind, s);
}

iks_code iks_input_log_parse(const char *name, const char *text, iks_input_log **out)
{
    iks_err err = IKS_ERR_INIT;
    if (!out) return iks_fail_usage("iks_input_log_parse: out must not be NULL");
    *out = NULL;
    if (!text) return iks_fail_usage("iks_input_log_parse: no text");
    if (!name) name = "<input>";
    iks_input_log *l = calloc(1, sizeof *l);
    char *copy = strdup(text);
    if (!l || !copy) {
        free(l);
        free(copy);
        iks_err_set(&err, IKS_E_NOMEM, "%s: out of memory", name);
        return iks_publish(&err);
    }
    reader r = { .l = l, .name = name, .dir = name, .last_t = -INFINITY, .err = &err };
    bool header = false;
    for (char *ln = copy, *next; ln; ln = next) {
        next = strchr(ln, '\n');
        if (next) *next++ = '\0';
        r.lineno++;
        size_t n = strlen(ln);
        if (n && ln[n - 1] == '\r') ln[--n] = '\0';
        char *s = skip_blanks(ln);
        if (!*s || *s == '#') continue;
        if (!header) {
            if (strcmp(s, HEADER) != 0) {
                iks_err_set(&err, IKS_E_FORMAT, "%s:%d: not an ikshade input recording (expected the line "
                            "'ikshade-input 1')", name, r.lineno);
                break;
            }
            header = true;
            continue;
        }
        if (!parse_line(&r, s)) break;
    }
    free(copy);
    if (err.code == IKS_OK && !header)
        iks_err_set(&err, IKS_E_FORMAT, "%s: empty: not an ikshade input recording", name);
    if (err.code == IKS_OK && l->nf == 0) iks_err_set(&err, IKS_E_FORMAT, "%s: no frames recorded", name);
    if (err.code != IKS_OK) {
        iks_input_log_free(l);
        return iks_publish(&err);
    }
    *out = l;
    return IKS_OK;
}

iks_code iks_input_log_load(const char *path, iks_input_log **out)
{
    if (!path || !out) return iks_fail_usage("iks_input_log_load: path and out must not be NULL");
    *out = NULL;
    size_t len;
    char *text = iks_userfile_read_text(path, 64u << 20, 0, &len);
    if (!text) {
        iks_err err = IKS_ERR_INIT;
        int e = errno;
        iks_err_set(&err, e == EILSEQ ? IKS_E_FORMAT : IKS_E_IO, "%s: %s", path,
                    e == EILSEQ ? "binary file, not an input recording" : iks_userfile_strerror(e));
        return iks_publish(&err);
    }
    iks_code c = iks_input_log_parse(path, text, out);
    free(text);
    if (c == IKS_OK && !((*out)->path = strdup(path))) {
        iks_input_log_free(*out);
        *out = NULL;
        iks_err err = IKS_ERR_INIT;
        iks_err_set(&err, IKS_E_NOMEM, "%s: out of memory", path);
        return iks_publish(&err);
    }
    return c;
}

const char *iks_input_log_path(const iks_input_log *l) { return l ? l->path : NULL; }

bool iks_input_log_replaceable(const char *path)
{
    int fd = iks_userfile_open(path, 0);
    if (fd < 0) return false;
    /* the header comes first, after blank lines and comments at most: the start of the file tells */
    char buf[4096];
    size_t n = 0;
    ssize_t r = 0;
    while (n < sizeof buf - 1 && ((r = read(fd, buf + n, sizeof buf - 1 - n)) > 0 || (r < 0 && errno == EINTR)))
        if (r > 0) n += (size_t)r;
    close(fd);
    if (n == 0) return r == 0; /* empty: nothing of anyone's to lose */
    if (memchr(buf, '\0', n)) return false; /* binary */
    buf[n] = '\0';
    for (char *ln = buf, *next; ln; ln = next) {
        next = strchr(ln, '\n');
        if (next) *next++ = '\0';
        else if (n == sizeof buf - 1) return false; /* a line longer than this is no header */
        size_t len = strlen(ln);
        if (len && ln[len - 1] == '\r') ln[--len] = '\0';
        char *s = skip_blanks(ln);
        if (!*s || *s == '#') continue;
        return strcmp(s, HEADER) == 0;
    }
    return false;
}

double iks_input_log_duration(const iks_input_log *l)
{
    return l && l->nf ? l->f[l->nf - 1].t : 0;
}

int iks_input_log_sets(const iks_input_log *l, const char *const **sets)
{
    if (sets) *sets = l ? (const char *const *)l->sets : NULL;
    return l ? l->nsets : 0;
}

/* the last recorded frame at or before t (the first when t is before it) */
static long frame_at(const iks_input_log *l, double t)
{
    long lo = 0, hi = l->nf - 1;
    if (t < l->f[0].t) return 0;
    while (lo < hi) {
        long mid = (lo + hi + 1) / 2;
        if (l->f[mid].t <= t) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

void iks_input_log_frame(const iks_input_log *l, double fps, long i, int width, int height, iks_frame_info *fi)
{
    double t = (double)i / fps, prev = i > 0 ? (double)(i - 1) / fps : -INFINITY;
    long k = frame_at(l, t);
    const rec_frame *f = &l->f[k];
    float sx = (float)width / (float)f->w, sy = (float)height / (float)f->h;
    fi->time = l->f[0].itime + t;
    /* a press (w > 0) anywhere in (prev, t]: the site shows it for exactly one frame */
    bool pressed = false;
    for (long j = k; j >= 0 && l->f[j].t > prev; j--) pressed = pressed || l->f[j].mouse[3] > 0;
    fi->mouse[0] = f->mouse[0] * sx;
    fi->mouse[1] = f->mouse[1] * sy;
    fi->mouse[2] = f->mouse[2] * sx;
    fi->mouse[3] = (pressed ? 1.0f : -1.0f) * fabsf(f->mouse[3] * sy);
}

long iks_input_log_keys(const iks_input_log *l, double fps, long i, long from, int *code, bool *down)
{
    double t = (double)i / fps;
    for (long j = from; j < l->nk; j++)
        if (l->k[j].t <= t) {
            *code = l->k[j].code;
            *down = l->k[j].down;
            return j + 1;
        } else break;
    return -1;
}

long iks_input_log_params(const iks_input_log *l, double fps, long i, long from, const iks_setting **s)
{
    double t = (double)i / fps;
    if (from >= 0 && from < l->nu && l->u[from].t <= t) {
        *s = &l->u[from].s;
        return from + 1;
    }
    return -1;
}

long iks_input_log_param_count(const iks_input_log *l) { return l ? l->nu : 0; }

const iks_setting *iks_input_log_param(const iks_input_log *l, long i) { return &l->u[i].s; }

uint64_t iks_input_log_hash(const iks_input_log *l)
{
    /* field by field: struct padding holds no data */
    uint64_t h = IKS_FNV_START;
    for (long i = 0; i < l->nf; i++) {
        const rec_frame *f = &l->f[i];
        h = iks_fnv(h, &f->t, sizeof f->t);
        h = iks_fnv(h, &f->itime, sizeof f->itime);
        h = iks_fnv(h, &f->w, sizeof f->w);
        h = iks_fnv(h, &f->h, sizeof f->h);
        h = iks_fnv(h, f->mouse, sizeof f->mouse);
    }
    for (long i = 0; i < l->nk; i++) {
        const rec_key *k = &l->k[i];
        h = iks_fnv(h, &k->t, sizeof k->t);
        h = iks_fnv(h, &k->code, sizeof k->code);
        h = iks_fnv(h, &k->down, sizeof k->down);
    }
    for (int i = 0; i < l->nc; i++) {
        const rec_live *c = &l->c[i];
        h = iks_fnv(h, &c->t0, sizeof c->t0);
        h = iks_fnv(h, &c->slot, sizeof c->slot);
        h = iks_fnv(h, &c->channel, sizeof c->channel);
        h = iks_fnv(h, c->path, strlen(c->path));
    }
    for (long i = 0; i < l->nu; i++) {
        const rec_param *u = &l->u[i];
        h = iks_fnv(h, &u->t, sizeof u->t);
        h = iks_fnv(h, u->s.name, strlen(u->s.name));
        h = iks_fnv(h, &u->s.n, sizeof u->s.n);
        h = iks_fnv(h, u->s.v, sizeof u->s.v[0] * (size_t)u->s.n);
    }
    return h;
}

int iks_input_log_live_count(const iks_input_log *l) { return l ? l->nc : 0; }

bool iks_input_log_live(const iks_input_log *l, int slot, int channel, const char **path, double *t0)
{
    for (int i = 0; l && i < l->nc; i++)
        if (l->c[i].slot == slot && l->c[i].channel == channel) {
            *path = l->c[i].path;
            *t0 = l->c[i].t0;
            return true;
        }
    return false;
}

double iks_input_log_itime0(const iks_input_log *l) { return l->f[0].itime; }
