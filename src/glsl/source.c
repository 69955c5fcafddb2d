/* source.c: shader assembly (#include, the Shadertoy prelude, a line map), driver-log mapping, and the
 * scan for uniform declarations. See source.h for the rules; this file holds no GL calls. */
#include "glsl/source.h"
#include "glsl/ppsize.h"
#include "glsl/params.h"
#include "glsl/uniforms.h"
#include "base/buf.h"
#include "base/strutil.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 256
#define MAX_DEPTH 32
#define MAX_TOKENS 1000000 /* after macro expansion: see iks_source_load */
#define MAX_FILE_BYTES (16u << 20)

/* ---- files: only through the caller's table (base/files.h) ------------------------------------- */

/* No table: no files, only the text given in memory */
static char *no_read(void *user, const char *path, size_t max, bool stream, size_t *len)
{
    (void)user, (void)path, (void)max, (void)stream, (void)len;
    errno = ENOENT;
    return NULL;
}
static bool no_exists(void *user, const char *path) { return (void)user, (void)path, false; }
static bool no_identity(void *user, const char *path, uint64_t id[2]) { return (void)user, (void)path, (void)id, false; }
static bool no_inside(void *user, const char *dir, const char *path) { return (void)user, (void)dir, (void)path, false; }
static const char *no_strerror(int e) { return strerror(e); }
static const iks_files NO_FILES = { no_read, no_exists, no_identity, no_inside, no_strerror, NULL };

static const char *read_error(const iks_files *fs, int e)
{
    switch (e) {
    case EILSEQ: return "binary file (contains NUL bytes), not GLSL";
    case EFBIG: return "larger than 16 MiB, not a shader";
    default: return fs->strerror(e);
    }
}

/* A binary file is a malformed input; anything else that stops a read is the file system's */
static iks_code read_code(int e)
{
    return e == EILSEQ ? IKS_E_FORMAT : e == ENOMEM ? IKS_E_NOMEM : IKS_E_IO;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    if (slash == path) return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

static char *join(const char *dir, const char *name)
{
    if (name[0] == '/') return strdup(name);
    size_t n = strlen(dir) + strlen(name) + 2;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s/%s", strcmp(dir, ".") == 0 ? "." : dir, name);
    /* keep "./x" out of messages for files beside the current directory */
    if (s && strncmp(s, "./", 2) == 0 && strcmp(dir, ".") == 0) memmove(s, s + 2, strlen(s + 2) + 1);
    return s;
}

/* The identity of a file for cycle and once-only checks (device and inode on a disk), so that two
 * spellings of one path are one file. */
typedef struct { uint64_t v[2]; } fid;

static bool same_file(const fid *a, const fid *b) { return a->v[0] == b->v[0] && a->v[1] == b->v[1]; }

/* ---- assembly ---------------------------------------------------------------------------------- */

typedef struct {
    const iks_source_opts *opts;
    const iks_files *fs;  /* the caller's files, or NO_FILES */
    iks_source *src;
    iks_sbuf body;
    int *mfile, *mline; /* for each line of body: which file and line it came from */
    bool *mdead;        /* ... and whether it lies in a group the preprocessor certainly skips */
    int nlines;
    size_t capfile, capline, capdead, capfiles, capparams;
    fid done[MAX_FILES]; /* files fully included (skipped if seen again) */
    int ndone;
    fid chain_id[MAX_DEPTH];
    const char *chain_path[MAX_DEPTH];
    int depth;
    bool ends_nl; /* the last file read at the top (Common, then the pass) ends with a newline, or is empty */
    iks_err err; /* the first failure; later ones (out of memory while unwinding) do not replace it */
    /* macros #defined so far in live code (certain) or in code we could not decide (maybe), so that an
     * #include in a group the preprocessor will skip is not expanded, as shadertoy.com (which has no
     * #include) and every C preprocessor would not */
    struct macro { char *name; bool certain; } *macros;
    int nmacros;
    size_t capmacros;
} asm_ctx;

static bool fail(asm_ctx *c, iks_code code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(asm_ctx *c, iks_code code, const char *fmt, ...)
{
    if (c->err.code != IKS_OK) return false;
    va_list ap;
    va_start(ap, fmt);
    char *m = NULL;
    if (vasprintf(&m, fmt, ap) < 0) m = NULL;
    va_end(ap);
    if (m) iks_err_set(&c->err, code, "%s", m);
    else iks_err_set(&c->err, IKS_E_NOMEM, "out of memory");
    free(m);
    return false;
}

/* "a.frag -> b.glsl[ -> last]": the include chain down to the file at its top, malloc'd (NULL: out of
 * memory) */
static char *chain_text(asm_ctx *c, const char *last)
{
    iks_sbuf b = { 0 };
    iks_sbuf_add(&b, "", 0);
    for (int i = 0; i < c->depth; i++) iks_sbuf_fmt(&b, "%s%s", i ? " -> " : "", c->chain_path[i]);
    if (last) iks_sbuf_fmt(&b, " -> %s", last);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* The file's index in src->files; -1 when there are too many, -2 when out of memory. */
static int add_file(asm_ctx *c, const char *path)
{
    iks_source *s = c->src;
    if (s->nfiles >= MAX_FILES) return -1;
    if (!IKS_GROW(s->files, (size_t)s->nfiles + 1, c->capfiles)) return -2;
    s->files[s->nfiles] = strdup(path);
    if (!s->files[s->nfiles]) return -2;
    return s->nfiles++;
}

/* An #include line: returns the quoted name (written into name) or false if the line is not one. */
static bool parse_include(const char *line, size_t len, char *name, size_t cap, bool *malformed)
{
    *malformed = false;
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    if (i >= len || line[i] != '#') return false;
    i++;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    if (len - i < 7 || strncmp(line + i, "include", 7) != 0) return false;
    i += 7;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    char close = 0;
    if (i < len && line[i] == '"') close = '"';
    else if (i < len && line[i] == '<') close = '>';
    if (!close) {
        *malformed = true;
        return true;
    }
    size_t start = ++i;
    while (i < len && line[i] != close) i++;
    if (i >= len || i == start || i - start >= cap) {
        *malformed = true;
        return true;
    }
    memcpy(name, line + start, i - start);
    name[i - start] = '\0';
    return true;
}

/* ---- conditional groups ------------------------------------------------------------------------ */

/* A group's state, three-valued: whether its lines reach the compiler, as far as we can tell without
 * running the preprocessor (macros with values, arithmetic: unknown, taken as live). */
enum { DEAD = 0, LIVE = 1, UNKNOWN = -1 };

typedef struct {
    signed char state; /* of the branch now open */
    bool taken;        /* a branch of this #if chain was certainly live */
    bool unsure;       /* a branch of this chain was unknown: later branches are unknown too */
} cond;

typedef struct {
    cond *v;
    int n;
    size_t cap;
} cond_stack;

static int macro_find(const asm_ctx *c, const char *name, size_t len)
{
    for (int i = 0; i < c->nmacros; i++)
        if (strlen(c->macros[i].name) == len && !memcmp(c->macros[i].name, name, len)) return i;
    return -1;
}

static bool macro_define(asm_ctx *c, const char *name, size_t len, bool certain)
{
    int i = macro_find(c, name, len);
    if (i >= 0) {
        c->macros[i].certain = c->macros[i].certain || certain;
        return true;
    }
    if (!IKS_GROW(c->macros, (size_t)c->nmacros + 1, c->capmacros)) return false;
    if (!(c->macros[c->nmacros].name = strndup(name, len))) return false;
    c->macros[c->nmacros++].certain = certain;
    return true;
}

/* Whether a macro is defined here: names the driver defines (GL_*, __*) and ones defined in code we
 * could not decide are unknown */
static int macro_state(const asm_ctx *c, const char *name, size_t len)
{
    if ((len >= 3 && !memcmp(name, "GL_", 3)) || (len >= 2 && !memcmp(name, "__", 2))) return UNKNOWN;
    int i = macro_find(c, name, len);
    if (i < 0) return DEAD;
    return c->macros[i].certain ? LIVE : UNKNOWN;
}

static bool ident_start(char ch) { return isalpha((unsigned char)ch) || ch == '_'; }
static bool ident_char(char ch) { return isalnum((unsigned char)ch) || ch == '_'; }

typedef struct {
    const asm_ctx *c;
    const char *p, *end;
} expr;

static void ex_ws(expr *x)
{
    while (x->p < x->end && (*x->p == ' ' || *x->p == '\t')) x->p++;
}

static int ex_or(expr *x);

/* primary: integer, defined NAME, defined(NAME), !primary, (expr); anything else is unknown */
static int ex_primary(expr *x)
{
    ex_ws(x);
    if (x->p >= x->end) return UNKNOWN;
    if (*x->p == '!') {
        x->p++;
        int v = ex_primary(x);
        return v == UNKNOWN ? UNKNOWN : !v;
    }
    if (*x->p == '(') {
        x->p++;
        int v = ex_or(x);
        ex_ws(x);
        if (x->p < x->end && *x->p == ')') x->p++;
        else return UNKNOWN;
        return v;
    }
    if (isdigit((unsigned char)*x->p)) {
        const char *e = x->p;
        bool nonzero = false;
        while (e < x->end && isalnum((unsigned char)*e)) nonzero = nonzero || (*e >= '1' && *e <= '9'), e++;
        x->p = e;
        return nonzero; /* 0, 00, 0x0, 0u: zero; any other digit makes it non-zero */
    }
    if (ident_start(*x->p)) {
        const char *id = x->p;
        while (x->p < x->end && ident_char(*x->p)) x->p++;
        if ((size_t)(x->p - id) == 7 && !memcmp(id, "defined", 7)) {
            ex_ws(x);
            bool paren = x->p < x->end && *x->p == '(';
            if (paren) x->p++;
            ex_ws(x);
            const char *n = x->p;
            while (x->p < x->end && ident_char(*x->p)) x->p++;
            if (x->p == n) return UNKNOWN;
            int v = macro_state(x->c, n, (size_t)(x->p - n));
            ex_ws(x);
            if (paren) {
                if (x->p < x->end && *x->p == ')') x->p++;
                else return UNKNOWN;
            }
            return v;
        }
        /* an undefined name is 0; a defined macro's value is not worked out here */
        return macro_state(x->c, id, (size_t)(x->p - id)) == DEAD ? 0 : UNKNOWN;
    }
    x->p = x->end; /* an operator we do not evaluate */
    return UNKNOWN;
}

static int ex_and(expr *x)
{
    int v = ex_primary(x);
    for (;;) {
        ex_ws(x);
        if (x->end - x->p < 2 || x->p[0] != '&' || x->p[1] != '&') return v;
        x->p += 2;
        int w = ex_primary(x);
        v = (v == DEAD || w == DEAD) ? DEAD : (v == UNKNOWN || w == UNKNOWN) ? UNKNOWN : LIVE;
    }
}

static int ex_or(expr *x)
{
    int v = ex_and(x);
    for (;;) {
        ex_ws(x);
        if (x->end - x->p < 2 || x->p[0] != '|' || x->p[1] != '|') return v;
        x->p += 2;
        int w = ex_and(x);
        v = (v == LIVE || w == LIVE) ? LIVE : (v == UNKNOWN || w == UNKNOWN) ? UNKNOWN : DEAD;
    }
}

/* The value of an #if/#elif expression: unknown unless all of it was understood */
static int eval_if(const asm_ctx *c, const char *p, const char *end)
{
    expr x = { c, p, end };
    int v = ex_or(&x);
    ex_ws(&x);
    if (x.p < x.end && !(x.end - x.p >= 2 && x.p[0] == '/' && (x.p[1] == '/' || x.p[1] == '*'))) return UNKNOWN;
    return v;
}

/* Whether the lines here reach the compiler: dead if any enclosing group is dead */
static int cond_here(const cond_stack *cs)
{
    int v = LIVE;
    for (int i = 0; i < cs->n; i++) {
        if (cs->v[i].state == DEAD) return DEAD;
        if (cs->v[i].state == UNKNOWN) v = UNKNOWN;
    }
    return v;
}

/* Follows a preprocessor line (#if, #ifdef, #ifndef, #elif, #else, #endif, #define, #undef) for the
 * group state; false when out of memory. Unbalanced groups are left to the compiler to report. */
static bool cond_line(asm_ctx *c, cond_stack *cs, const char *ln, size_t n)
{
    const char *p = ln, *end = ln + n;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    if (p >= end || *p != '#') return true;
    p++;
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    const char *d = p;
    while (p < end && isalpha((unsigned char)*p)) p++;
    size_t dl = (size_t)(p - d);
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    const char *name = p;
    while (p < end && ident_char(*p)) p++;
    size_t nl = (size_t)(p - name);
#define IS(w) (dl == sizeof(w) - 1 && !memcmp(d, w, dl))
    int here = cond_here(cs);
    if (IS("if") || IS("ifdef") || IS("ifndef")) {
        int v = IS("if") ? eval_if(c, name, end) : nl ? macro_state(c, name, nl) : UNKNOWN;
        if (IS("ifndef") && v != UNKNOWN) v = !v;
        if (!IKS_GROW(cs->v, (size_t)cs->n + 1, cs->cap)) return false;
        cs->v[cs->n++] = (cond){ .state = (signed char)v, .taken = v == LIVE, .unsure = v == UNKNOWN };
    } else if ((IS("elif") || IS("else")) && cs->n) {
        cond *t = &cs->v[cs->n - 1];
        int v = t->taken ? DEAD : IS("else") ? LIVE : eval_if(c, name, end);
        if (v == LIVE && t->unsure) v = UNKNOWN; /* an earlier branch may have been the live one */
        t->state = (signed char)v;
        t->taken = t->taken || v == LIVE;
        t->unsure = t->unsure || v == UNKNOWN;
    } else if (IS("endif") && cs->n) {
        cs->n--;
    } else if (IS("define") && nl && here != DEAD) {
        return macro_define(c, name, nl, here == LIVE);
    } else if (IS("undef") && nl && here != DEAD) {
        int i = macro_find(c, name, nl);
        if (i >= 0 && here == LIVE) {
            free(c->macros[i].name);
            c->macros[i] = c->macros[--c->nmacros];
        } else if (i >= 0) c->macros[i].certain = false; /* maybe undefined */
    }
#undef IS
    return true;
}

/* Whether a block comment is still open at the end of the line, given whether one was at its start;
 * *stray: the 1-based column of the first byte outside ASCII that is not in a comment, 0 when none
 * (GLSL is ASCII, and compilers meet such a byte with an error that points elsewhere: Mesa says the
 * file "lacks main", or "unexpected end of file" after it) */
static bool comment_after(const char *s, size_t n, bool open, size_t *stray)
{
    *stray = 0;
    for (size_t i = 0; i < n; i++) {
        if (open) {
            if (s[i] == '*' && i + 1 < n && s[i + 1] == '/') open = false, i++;
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
            return false;
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            open = true;
            i++;
        } else if ((unsigned char)s[i] >= 0x80 && !*stray) {
            *stray = i + 1;
        }
    }
    return open;
}

/* Whether a toy confined to its directory may read found: by where the file is (links resolved), not
 * by how it was found (`../shaders/../../x` is found through the shaders directory and lies outside
 * it). Its own directory, the include directories (the user's -I and ikshade's shaders, where a
 * library's files include their neighbours) and the --solver file are open to it. */
static bool include_allowed(const asm_ctx *c, const char *found)
{
    const iks_source_opts *o = c->opts;
    const iks_files *fs = c->fs;
    if (!o->confine_dir || fs->inside(fs->user, o->confine_dir, found)) return true;
    if (o->override_path && strcmp(found, o->override_path) == 0) return true;
    for (int i = 0; i < o->n_include_dirs; i++)
        if (fs->inside(fs->user, o->include_dirs[i], found)) return true;
    return false;
}

static bool include_file(asm_ctx *c, const char *path, const char *text_or_null);

/* Keeps the first declaration of a name: a second is the compiler's to refuse (a redeclared uniform) */
static bool add_param(asm_ctx *c, const iks_param *p)
{
    iks_source *s = c->src;
    for (int i = 0; i < s->nparams; i++)
        if (strcmp(s->params[i].name, p->name) == 0) return true;
    if (!IKS_GROW(s->params, (size_t)s->nparams + 1, c->capparams)) return false;
    s->params[s->nparams++] = *p;
    return true;
}

/* Appends one line (without its newline) to the body and records where it came from. */
static bool emit_line(asm_ctx *c, const char *s, size_t n, int file, int line, bool dead)
{
    size_t need = (size_t)c->nlines + 1;
    if (!IKS_GROW(c->mfile, need, c->capfile) || !IKS_GROW(c->mline, need, c->capline) ||
        !IKS_GROW(c->mdead, need, c->capdead))
        return false;
    c->mfile[c->nlines] = file;
    c->mline[c->nlines] = line;
    c->mdead[c->nlines] = dead;
    c->nlines++;
    iks_sbuf_add(&c->body, s, n);
    iks_sbuf_str(&c->body, "\n");
    return !c->body.oom;
}

/* from_dir NULL: the including text names no file (held in memory), so only the include dirs */
static bool resolve(asm_ctx *c, const char *from_dir, const char *name, char **found)
{
    *found = NULL;
    const iks_source_opts *o = c->opts;
    if (o->override_name && strcmp(name, o->override_name) == 0) {
        *found = strdup(o->override_path);
        return *found != NULL;
    }
    char *p = from_dir ? join(from_dir, name) : NULL;
    if (p && c->fs->exists(c->fs->user, p)) {
        *found = p;
        return true;
    }
    free(p);
    for (int i = 0; i < o->n_include_dirs; i++) {
        p = join(o->include_dirs[i], name);
        if (p && c->fs->exists(c->fs->user, p)) {
            *found = p;
            return true;
        }
        free(p);
    }
    return false;
}

static bool include_file(asm_ctx *c, const char *path, const char *given_text)
{
    if (c->depth >= MAX_DEPTH) {
        char *chain = chain_text(c, path);
        if (!chain) return fail(c, IKS_E_NOMEM, "%s: out of memory", path);
        fail(c, IKS_E_FORMAT, "%s: includes nested deeper than %d: %s", path, MAX_DEPTH, chain);
        free(chain);
        return false;
    }
    fid id = { { 0, 0 } };
    /* text in memory under a name like "<memory>" is no file: nothing on disk to compare it with */
    bool named_file = !(given_text && path[0] == '<');
    bool have_id = named_file && c->fs->identity(c->fs->user, path, id.v);
    if (have_id) {
        for (int i = 0; i < c->depth; i++)
            if (same_file(&c->chain_id[i], &id)) {
                char *chain = chain_text(c, path);
                if (!chain) return fail(c, IKS_E_NOMEM, "%s: out of memory", path);
                fail(c, IKS_E_FORMAT, "%s: include cycle: %s", c->chain_path[c->depth - 1], chain);
                free(chain);
                return false;
            }
        for (int i = 0; i < c->ndone; i++)
            if (same_file(&c->done[i], &id)) return true; /* once only */
    }
    size_t len = 0;
    /* the main file may be a stream (`render <(cmd)`, /dev/stdin): it is read once, here; an include
     * must be a file */
    char *text = given_text ? strdup(given_text)
                            : c->fs->read(c->fs->user, path, MAX_FILE_BYTES, c->depth == 0, &len);
    if (!text) {
        int e = given_text ? ENOMEM : errno;
        if (c->depth == 0) return fail(c, read_code(e), "%s: %s", path, read_error(c->fs, e));
        char *chain = chain_text(c, path);
        if (!chain) return fail(c, IKS_E_NOMEM, "%s: out of memory", path);
        fail(c, read_code(e), "%s: %s (included from %s)", path, read_error(c->fs, e), chain);
        free(chain);
        return false;
    }
    if (named_file && c->opts->touched) c->opts->touched(c->opts->touched_user, path, true);
    if (c->depth == 0) c->ends_nl = !*text || text[strlen(text) - 1] == '\n';
    int fidx = add_file(c, path);
    if (fidx < 0) {
        free(text);
        if (fidx == -2) return fail(c, IKS_E_NOMEM, "%s: out of memory", path);
        return fail(c, IKS_E_FORMAT, "%s: too many included files (at most %d)", path, MAX_FILES);
    }
    c->chain_id[c->depth] = id;
    c->chain_path[c->depth] = c->src->files[fidx];
    c->depth++;
    char *dir = given_text && c->opts->text_dir ? strdup(c->opts->text_dir) : named_file ? dir_of(path) : NULL;
    bool ok = !(named_file || (given_text && c->opts->text_dir)) || dir != NULL;
    if (!ok) fail(c, IKS_E_NOMEM, "%s: out of memory", path);

    int lineno = 0;
    cond_stack cs = { 0 };
    bool in_comment = false, continued = false;
    /* a UTF-8 byte order mark, which editors on Windows write: no compiler takes it (Mesa said the file
     * "lacks main"), and it is no character of the text */
    bool bom = (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF;
    for (char *ln = text + (bom ? 3 : 0); ok && *ln;) {
        char *nl = strchr(ln, '\n');
        size_t n = nl ? (size_t)(nl - ln) : strlen(ln);
        lineno++;
        char name[512];
        bool malformed;
        size_t col; /* of a stray byte, see comment_after */
        bool directive = !in_comment; /* a # line inside a block comment is comment */
        /* a preprocessor line (and its continuations) may hold any byte: Mesa takes an unused
         * `#define AUTHOR Jérôme`, and a #pragma's text is the driver's business */
        const char *first = ln;
        while (first < ln + n && (*first == ' ' || *first == '\t')) first++;
        bool pp_line = continued || (directive && first < ln + n && *first == '#');
        continued = pp_line && n > 0 && ln[n - 1 - (n > 1 && ln[n - 1] == '\r')] == '\\';
        in_comment = comment_after(ln, n, in_comment, &col);
        if (directive && !cond_line(c, &cs, ln, n)) {
            ok = fail(c, IKS_E_NOMEM, "%s: out of memory", path);
            break;
        }
        if (directive && parse_include(ln, n, name, sizeof name, &malformed) && cond_here(&cs) == DEAD) {
            /* in a group the preprocessor skips: not expanded, its line kept blank for the line map */
            if (!emit_line(c, "", 0, fidx, lineno, true)) ok = fail(c, IKS_E_NOMEM, "%s: out of memory", path);
        } else if (directive && parse_include(ln, n, name, sizeof name, &malformed)) {
            if (malformed) {
                ok = fail(c, IKS_E_FORMAT, "%s:%d: malformed #include: expected #include \"file\"", path, lineno);
                break;
            }
            char *found;
            if (!resolve(c, dir, name, &found)) {
                /* every place it was looked for: a file created there later is the fix */
                for (int i = -1; c->opts->touched && i < c->opts->n_include_dirs; i++) {
                    char *cand = i < 0 ? (dir ? join(dir, name) : NULL) : join(c->opts->include_dirs[i], name);
                    if (cand) c->opts->touched(c->opts->touched_user, cand, false);
                    free(cand);
                }
                iks_sbuf dirs = { 0 };
                iks_sbuf_add(&dirs, "", 0);
                if (dir) iks_sbuf_str(&dirs, dir);
                for (int i = 0; i < c->opts->n_include_dirs; i++)
                    iks_sbuf_fmt(&dirs, "%s%s", dirs.len ? ", " : "", c->opts->include_dirs[i]);
                if (!dirs.len) iks_sbuf_str(&dirs, "no directory"); /* text in memory, no -I */
                char *chain = chain_text(c, NULL);
                if (!chain || dirs.oom) ok = fail(c, IKS_E_NOMEM, "%s: out of memory", path);
                else
                    ok = fail(c, IKS_E_FORMAT, "%s:%d: cannot include \"%s\": not found in %s (include chain: %s)",
                              path, lineno, name, dirs.s, chain);
                free(chain);
                free(dirs.s);
                break;
            }
            if (!include_allowed(c, found)) {
                ok = fail(c, IKS_E_FORMAT, "%s:%d: #include \"%s\" lies outside the toy's directory %s (a toy may read "
                          "only its own files; allow_media_outside lets it)", path, lineno, name, c->opts->confine_dir);
                free(found);
                break;
            }
            ok = include_file(c, found, NULL);
            free(found);
        } else if (directive && iks_param_is_line(ln, n)) {
            /* a parameter: `uniform TYPE NAME;` on its line; in a skipped group, a blank line */
            char decl[160], why[256]; /* why: a 63-byte name and a value past its type fit whole */
            iks_param prm;
            if (cond_here(&cs) == DEAD) {
                if (!emit_line(c, "", 0, fidx, lineno, true)) ok = fail(c, IKS_E_NOMEM, "%s: out of memory", path);
            } else if (!iks_param_parse(ln, n, &prm, decl, sizeof decl, why, sizeof why)) {
                ok = fail(c, IKS_E_FORMAT, "%s:%d: malformed #iUniform: %s", path, lineno, why);
                break;
            } else {
                prm.line = lineno;
                ok = add_param(c, &prm) && emit_line(c, decl, strlen(decl), fidx, lineno, false);
                if (!ok) fail(c, IKS_E_NOMEM, "%s: out of memory", path);
            }
        } else if (cond_here(&cs) == LIVE && !pp_line && col > 0) {
            ok = fail(c, IKS_E_FORMAT, "%s:%d:%zu: byte 0x%02x outside a comment: a shader is ASCII text (other "
                      "characters may stand only in comments)", path, lineno, col, (unsigned char)ln[col - 1]);
            break;
        } else if (!emit_line(c, ln, n, fidx, lineno, cond_here(&cs) == DEAD)) {
            ok = fail(c, IKS_E_NOMEM, "%s: out of memory", path);
        }
        ln = nl ? nl + 1 : ln + n;
    }
    free(cs.v);
    c->depth--;
    if (ok && have_id && c->ndone < MAX_FILES) c->done[c->ndone++] = id;
    free(dir);
    free(text);
    return ok;
}

/* Skips whitespace and comments from s; returns the first significant character's position. */
static const char *skip_ws_comments(const char *s)
{
    for (;;) {
        while (*s && isspace((unsigned char)*s)) s++;
        if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n') s++;
        } else if (s[0] == '/' && s[1] == '*') {
            const char *e = strstr(s + 2, "*/");
            s = e ? e + 2 : s + strlen(s);
        } else return s;
    }
}

/* A copy of GLSL text with comments blanked (newlines kept), for scanning declarations. */
static char *strip_comments(const char *s)
{
    char *o = strdup(s);
    if (!o) return NULL;
    for (char *p = o; *p;) {
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n') *p++ = ' ';
        } else if (p[0] == '/' && p[1] == '*') {
            *p++ = ' ';
            *p++ = ' ';
            while (*p && !(p[0] == '*' && p[1] == '/')) {
                if (*p != '\n') *p = ' ';
                p++;
            }
            if (*p) {
                *p++ = ' ';
                *p++ = ' ';
            }
        } else p++;
    }
    return o;
}

static bool is_ident(char ch) { return isalnum((unsigned char)ch) || ch == '_'; }

/* Is there a definition `void NAME (` in the comment-free text t? */
static bool defines_function(const char *t, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = t; (p = strstr(p, name)); p += n) {
        if (p > t && is_ident(p[-1])) continue;
        if (is_ident(p[n])) continue;
        const char *q = p + n;
        while (isspace((unsigned char)*q)) q++;
        if (*q != '(') continue;
        const char *b = p;
        while (b > t && isspace((unsigned char)b[-1])) b--;
        if (b - t >= 4 && strncmp(b - 4, "void", 4) == 0 && (b - 4 == t || !is_ident(b[-5]))) return true;
    }
    return false;
}

/* The lines every Shadertoy pass gets before its code, after the uniforms of the list (uniforms.h).
 * The aliases: the site's old names, which old shaders still use. */
#define ALIAS_DEFINE(alias, name) "#define " alias " " name "\n"
/* Layout qualifiers that WebGL2 (GLSL ES 3.00) lets a shader use as names and Mesa's GLSL does not
 * (`float packed;`) are renamed before the compiler sees them. Shadertoy code declares no uniform
 * blocks, the one place they would be qualifiers. */
static const char PRELUDE[] = IKS_UNIFORMS_COMMON(IKS_U_DECL_)
    "#define HW_PERFORMANCE 1\n"
    IKS_UNIFORM_ALIASES(ALIAS_DEFINE)
    "#define IKSHADE 1\n"
    "#define packed iks_packed\n"
    "#define row_major iks_row_major\n"
    "out vec4 iks_FragColor;\n";
/* the macros PRELUDE defines, which the #if tracking must know */
#define ALIAS_NAME(alias, name) alias,
static const char *const PRELUDE_MACROS[] = { "HW_PERFORMANCE", IKS_UNIFORM_ALIASES(ALIAS_NAME) "IKSHADE", "packed", "row_major" };
/* the channels' sampler uniforms in channel order: the SAMPLER rows of the list */
#define SAMPLER_NAME(id, name, type, array, up, from, doc) SAMPLER_NAME_##up(name)
#define SAMPLER_NAME_SAMPLER(name) name,
#define SAMPLER_NAME_F1(name)
#define SAMPLER_NAME_F3(name)
#define SAMPLER_NAME_F4(name)
#define SAMPLER_NAME_I1(name)
#define SAMPLER_NAME_F1V(name)
#define SAMPLER_NAME_F3V(name)
static const char *const CHANNEL_NAMES[] = { IKS_UNIFORMS_COMMON(SAMPLER_NAME) };
_Static_assert(sizeof CHANNEL_NAMES / sizeof CHANNEL_NAMES[0] == 4, "the list has a sampler for each of 4 channels");

/* WebGL2 leaves float without a default precision in fragment shaders; the site's shaders assume highp.
 * And no precision qualifier lowers it: the site runs on desktop GPUs, which compute mediump and lowp in
 * 32 bits, while llvmpipe's ES path computes mediump in 16 (`fract(1000.0 + x / 1000.0)` shows it).
 * The qualifiers are keywords, but the preprocessor replaces them before the compiler sees them. */
static const char ES_PRELUDE[] =
    "#define mediump highp\n"
    "#define lowp highp\n"
    "precision highp float;\n"
    "precision highp int;\n"
    "precision highp sampler2D;\n"
    "precision highp sampler3D;\n" /* ES 3.00 gives sampler3D no default precision */
    "precision highp samplerCube;\n"; /* and samplerCube lowp, which may be computed in 16 bits */

static const char EPILOGUE[] =
    "void main() {\n"
    "    vec4 color = vec4(0.0, 0.0, 0.0, 1.0);\n"
    "    mainImage(color, gl_FragCoord.xy);\n"
    "    iks_FragColor = color;\n"
    "}\n";

/* shadertoy.com's Cube A: each face is drawn with its four corners and the apex (the ray origin), and a
 * fragment's ray runs from the apex through the bilinear mix of the corners at its place on the face,
 * the site's own formula (so rays match it to the last bit, unnormalised corners and all). */
static const char CUBE_PRELUDE[] = IKS_UNIFORMS_CUBE(IKS_U_DECL_);
#define CORNERS IKS_U_NAME_CUBE_CORNERS
static const char CUBE_EPILOGUE[] =
    "void main() {\n"
    "    vec4 color = vec4(0.0, 0.0, 0.0, 1.0);\n"
    "    vec3 ro = " CORNERS "[4];\n"
    "    vec2 uv = gl_FragCoord.xy / " IKS_U_NAME_RESOLUTION ".xy;\n"
    "    vec3 rd = normalize(mix(mix(" CORNERS "[0], " CORNERS "[1], uv.x), mix(" CORNERS "[3], " CORNERS "[2], uv.x), uv.y) - ro);\n"
    "    mainCubemap(color, gl_FragCoord.xy, ro, rd);\n"
    "    iks_FragColor = color;\n"
    "}\n";

/* shadertoy.com's sound pass: a block of 512x512 samples a draw, sample s at pixel (s % 512, s / 512) of
 * the block; time and sample number computed as the site does. The site packs each channel into two
 * bytes; we keep the float and quantise once, on the way into the WAV. */
static const char SOUND_PRELUDE[] = IKS_UNIFORMS_SOUND(IKS_U_DECL_);
static const char SOUND_EPILOGUE[] =
    "void main() {\n"
    "    float t = " IKS_U_NAME_TIME_OFFSET " + ((gl_FragCoord.x - 0.5) + (gl_FragCoord.y - 0.5) * 512.0) / " IKS_U_NAME_SAMPLE_RATE ";\n"
    "    int s = " IKS_U_NAME_SAMPLE_OFFSET " + int(gl_FragCoord.y - 0.2) * 512 + int(gl_FragCoord.x - 0.2);\n"
    "    iks_FragColor = vec4(mainSound(s, t), 0.0, 1.0);\n"
    "}\n";
static const char SOUND_EPILOGUE_OLD[] =
    "void main() {\n"
    "    float t = " IKS_U_NAME_TIME_OFFSET " + ((gl_FragCoord.x - 0.5) + (gl_FragCoord.y - 0.5) * 512.0) / " IKS_U_NAME_SAMPLE_RATE ";\n"
    "    iks_FragColor = vec4(mainSound(t), 0.0, 1.0);\n"
    "}\n";

/* The lines the site puts before a pass's code, which `__LINE__` counts (there is no #line): its
 * WebGL2 prefix (#version 300 es, then #ifdef GL_ES, three precision lines, #endif: 6) and the header
 * effect.js makes for the pass type with four channels (MakeHeader_Image: HW_PERFORMANCE, 10
 * uniforms, 7 lines a channel for the old and the new sampler API, 3 declarations, then the
 * st_assert/main block: 47; MakeHeader_Buffer: 21; MakeHeader_Cubemap: 24; MakeHeader_Sound: 14).
 * Common comes after the header, then a newline, then the pass's code. ikshade's own prelude is
 * shorter (its declarations share a line), and blank lines make up the rest, so toy line n is where the
 * site has it and the line map still names the user's file and line. */
static const struct {
    iks_entry entry;
    bool buffer;
    int lines;
} SITE_HEADER[] = {
    { IKS_ENTRY_IMAGE, false, 6 + 47 },
    { IKS_ENTRY_IMAGE, true, 6 + 21 },
    { IKS_ENTRY_CUBEMAP, false, 6 + 24 },
    { IKS_ENTRY_SOUND, false, 6 + 14 },
};

static int site_header_lines(iks_entry entry, bool buffer)
{
    for (size_t i = 0; i < sizeof SITE_HEADER / sizeof SITE_HEADER[0]; i++)
        if (SITE_HEADER[i].entry == entry && SITE_HEADER[i].buffer == (buffer && entry == IKS_ENTRY_IMAGE))
            return SITE_HEADER[i].lines;
    return 0;
}

/* The entry point's name and the signature a message names */
static const char *entry_name(iks_entry e)
{
    return e == IKS_ENTRY_CUBEMAP ? "mainCubemap" : e == IKS_ENTRY_SOUND ? "mainSound" : "mainImage";
}
static const char *entry_signature(iks_entry e)
{
    return e == IKS_ENTRY_CUBEMAP ? "mainCubemap(out vec4 fragColor, in vec2 fragCoord, in vec3 rayOri, in vec3 rayDir)"
           : e == IKS_ENTRY_SOUND ? "mainSound(int samp, float time)"
                                  : "mainImage(out vec4 fragColor, in vec2 fragCoord)";
}

/* Is there a definition `vec2 mainSound (` in the comment-free text t? */
static bool defines_sound(const char *t)
{
    for (const char *p = t; (p = strstr(p, "mainSound")); p += 9) {
        if ((p > t && is_ident(p[-1])) || is_ident(p[9])) continue;
        const char *q = p + 9;
        while (isspace((unsigned char)*q)) q++;
        if (*q != '(') continue;
        const char *b = p;
        while (b > t && isspace((unsigned char)b[-1])) b--;
        if (b - t >= 4 && strncmp(b - 4, "vec2", 4) == 0 && (b - 4 == t || !is_ident(b[-5]))) return true;
    }
    return false;
}

/* Whether the comment-free text t defines `vec2 mainSound(float ...)`, the site's first form, with one
 * parameter: then the wrapper calls that one. */
static bool sound_takes_time_only(const char *t)
{
    for (const char *p = t; (p = strstr(p, "mainSound")); p += 9) {
        if ((p > t && is_ident(p[-1])) || is_ident(p[9])) continue;
        const char *q = p + 9;
        while (isspace((unsigned char)*q)) q++;
        if (*q != '(') continue;
        size_t n = strcspn(q, ")");
        if (q[n] != ')') continue;
        bool comma = memchr(q, ',', n) != NULL;
        if (!comma && n > 1) {
            /* one parameter, and not a call with an int: a declaration reads `float NAME` or `in float` */
            const char *f = strstr(q, "float");
            if (f && f < q + n) return true;
        }
    }
    return false;
}

/* Appends text (whole lines) to f, mapping each line to (file, first_line + k). */
static void emit_block(iks_sbuf *f, iks_source *src, int *nl, const char *text, int file, int first_line)
{
    int k = 0;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) + 1 : strlen(p);
        iks_sbuf_add(f, p, n);
        if (!e) iks_sbuf_str(f, "\n");
        if (src->map_file && *nl < src->nlines) {
            src->map_file[*nl] = file;
            src->map_line[*nl] = first_line + k;
        }
        (*nl)++;
        k++;
        p += n;
    }
}

static int count_lines(const char *t)
{
    int n = 0;
    for (; *t; t++) n += *t == '\n';
    return n;
}

/* The prelude's lines with every declaration on one line after its directives (which need lines of
 * their own), so that it fits in fewer lines than the site's shortest header: the rest is blank lines
 * (SITE_HEADER). NULL when out of memory. */
static char *join_declarations(const char *text)
{
    iks_sbuf dir = { 0 }, decl = { 0 };
    iks_sbuf_add(&dir, "", 0);
    iks_sbuf_add(&decl, "", 0);
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        if (*p == '#') {
            iks_sbuf_add(&dir, p, n);
            iks_sbuf_str(&dir, "\n");
        } else if (n) {
            if (decl.len) iks_sbuf_str(&decl, " ");
            iks_sbuf_add(&decl, p, n);
        }
        p += n + (eol != NULL);
    }
    if (decl.len) iks_sbuf_add(&dir, decl.s, decl.len), iks_sbuf_str(&dir, "\n");
    free(decl.s);
    if (dir.oom || decl.oom) {
        free(dir.s);
        return NULL;
    }
    return dir.s;
}

/* ---- the load's steps -------------------------------------------------------------------------- */

static void free_maps(asm_ctx *c)
{
    free(c->mfile);
    free(c->mline);
    free(c->mdead);
}

/* out of memory after the assembly: everything the load holds freed, and said */
static bool load_oom(asm_ctx *c, char *body, const char *path, iks_err *e)
{
    free(body);
    free_maps(c);
    iks_source_free(c->src);
    return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", path);
}

/* The body: the prelude's macros, Common and the pass with their includes, into c->body and its line
 * map. false on a failure (c->err says it, unless it was memory) */
static bool assemble(asm_ctx *c, const char *path)
{
    iks_source *src = c->src;
    bool ok = add_file(c, IKS_PRELUDE_NAME) == 0;
    /* the prelude's own macros */
    for (size_t i = 0; ok && i < sizeof PRELUDE_MACROS / sizeof PRELUDE_MACROS[0]; i++)
        ok = macro_define(c, PRELUDE_MACROS[i], strlen(PRELUDE_MACROS[i]), true);
    if (ok && c->opts->common_path) ok = include_file(c, c->opts->common_path, c->opts->common_text);
    /* the site joins Common and the pass with a newline: a Common that ends with one leaves a blank line
     * (its lines map to the prelude) */
    if (ok && c->opts->common_path && c->ends_nl) ok = emit_line(c, "", 0, 0, 0, false);
    src->main_file = src->nfiles;
    ok = ok && include_file(c, path, c->opts->text);
    for (int i = 0; i < c->nmacros; i++) free(c->macros[i].name);
    free(c->macros);
    if (ok && !c->body.s) ok = emit_line(c, "", 0, 1, 1, false);
    return ok && !c->body.oom;
}

/* a #version must come first: lifted out of the body into src->version, leaving blanks so line numbers
 * stay true. Whether the text had its own. */
static bool lift_version(iks_source *src, char *body, bool es)
{
    const char *sig = skip_ws_comments(body);
    snprintf(src->version, sizeof src->version, "%s", es ? "#version 300 es" : "#version 330 core");
    if (strncmp(sig, "#version", 8) != 0) return false;
    char *eol = strchr(sig, '\n');
    size_t n = eol ? (size_t)(eol - sig) : strlen(sig);
    /* the directive without a trailing comment (which need not fit in version), and the whole line
     * blanked: a piece of it left in the body would be compiled as code */
    size_t k = strcspn(sig, "/\n");
    if (k > n) k = n;
    while (k && isspace((unsigned char)sig[k - 1])) k--;
    if (k >= sizeof src->version) k = sizeof src->version - 1;
    memcpy(src->version, sig, k);
    src->version[k] = '\0';
    memset((char *)sig, ' ', n);
    return true;
}

/* what the scan of the body for entry points found */
typedef struct {
    bool has_main;  /* its own main(): its own program */
    bool has_image; /* the entry point the pass calls (mainImage, mainCubemap, mainSound) */
    bool sound_old; /* mainSound(float time), the site's first form */
} entry_scan;

/* Which entry point: the file's own main() makes it its own program; otherwise mainImage is wrapped.
 * A main() in a group the preprocessor skips (`#ifdef GLSLSANDBOX`) is not one, and a mainImage the
 * scan cannot see (defined through a macro, as code-golfed shaders do) is the compiler's to find:
 * the wrapper is added, and only a compile that then fails for want of it says so (iks_log_map).
 * A `void main()` in a directive (`#define LOCAL_MAIN void main()`) defines nothing where it stands
 * either: the site adds its prelude whatever the text holds, and only a main() the compiler sees
 * makes a file its own program here, so directive lines and their continuations are blanked too.
 * false when out of memory. */
static bool scan_entry(const asm_ctx *c, const char *body, iks_entry entry, entry_scan *sc)
{
    char *plain = strip_comments(body);
    if (!plain) return false;
    char *ln = plain;
    bool continued = false;
    for (int i = 0; i < c->nlines && *ln; i++) {
        char *e = strchr(ln, '\n');
        size_t n = e ? (size_t)(e - ln) : strlen(ln);
        const char *first = ln + strspn(ln, " \t");
        bool directive = continued || *first == '#';
        size_t k = n;
        while (k && (ln[k - 1] == '\r' || ln[k - 1] == ' ' || ln[k - 1] == '\t')) k--;
        continued = directive && k && ln[k - 1] == '\\';
        if (c->mdead[i] || directive) memset(ln, ' ', n);
        if (!e) break;
        ln = e + 1;
    }
    sc->has_main = defines_function(plain, "main");
    sc->has_image = entry == IKS_ENTRY_SOUND ? defines_sound(plain) : defines_function(plain, entry_name(entry));
    sc->sound_old = entry == IKS_ENTRY_SOUND && sound_takes_time_only(plain);
    c->src->sound_seen = defines_sound(plain);
    free(plain);
    return true;
}

/* The body as the site's compiler would take it; each rewrite that runs out of memory is skipped, and
 * the text stays as it was */
static char *site_rewrites(char *body, bool shadertoy)
{
    char *sp = iks_space_macro_calls(body);
    if (sp) free(body), body = sp;
    if (!shadertoy) return body;
    /* the site's compiler folds built-ins of constant arguments, correctly rounded; Mesa's differ */
    char *cf = iks_fold_constants(body);
    if (cf) free(body), body = cf;
    /* the site's translator clamps every dynamic index; toys index past the end and get the last */
    char *ci = iks_clamp_indices(body);
    if (ci) free(body), body = ci;
    /* the site's compiler gives every variable a zero value; real toys read some before writing */
    char *z = iks_zero_init(body);
    if (z) free(body), body = z;
    /* ... and a function that runs off its end returns zero there (a loop that ends a function) */
    char *r = iks_default_returns(body);
    if (r) free(body), body = r;
    return body;
}

/* The prelude of a shadertoy.com toy, its declarations joined (join_declarations): as written, with
 * each cubemap or volume channel's sampler type swapped, then the entry point's extra uniforms. NULL
 * when out of memory. */
static char *site_prelude(const iks_source_opts *o, bool es_prelude, const char *extra)
{
    iks_sbuf pre = { 0 };
    if (es_prelude) iks_sbuf_str(&pre, ES_PRELUDE);
    for (const char *p = PRELUDE; *p;) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) + 1 : strlen(p);
        int ch = -1;
        for (int k = 0; k < 4; k++) {
            char decl[64];
            int dn = snprintf(decl, sizeof decl, "uniform sampler2D %s;\n", CHANNEL_NAMES[k]);
            if ((size_t)dn == n && !memcmp(p, decl, n)) ch = k;
        }
        if (ch >= 0 && (o->cube[ch] || o->volume[ch]))
            iks_sbuf_fmt(&pre, "uniform %s %s;\n", o->cube[ch] ? "samplerCube" : "sampler3D", CHANNEL_NAMES[ch]);
        else iks_sbuf_add(&pre, p, n);
        p += n;
    }
    iks_sbuf_str(&pre, extra);
    char *joined = pre.s && !pre.oom ? join_declarations(pre.s) : NULL;
    free(pre.s);
    return joined;
}

/* The fragment into f: version, [prelude, blank lines up to the site's count], body, [main wrapper];
 * each line's origin in src's map (NULL maps when out of memory: the caller checks) */
static void emit_fragment(iks_source *src, const asm_ctx *c, const char *body, const char *joined,
                          const char *epilogue, iks_sbuf *f)
{
    int before = 1 + (joined ? count_lines(joined) : 0);
    int site = src->shadertoy ? site_header_lines(src->entry, c->opts->buffer) : 0;
    int pad = site > before ? site - before : 0;
    src->nlines = before + pad + (src->shadertoy ? count_lines(epilogue) : 0) + c->nlines;
    src->map_file = malloc((size_t)src->nlines * sizeof *src->map_file);
    src->map_line = malloc((size_t)src->nlines * sizeof *src->map_line);
    int nl = 0;
    char vline[80];
    snprintf(vline, sizeof vline, "%s\n", src->version);
    emit_block(f, src, &nl, vline, 0, 0);
    if (joined) emit_block(f, src, &nl, joined, 0, 1);
    for (int i = 0; i < pad; i++) emit_block(f, src, &nl, "\n", 0, nl);
    for (int i = 0; i < c->nlines && src->map_file; i++, nl++) {
        src->map_file[nl] = c->mfile[i];
        src->map_line[nl] = c->mline[i];
    }
    iks_sbuf_str(f, body);
    if (src->shadertoy) emit_block(f, src, &nl, epilogue, IKS_WRAPPER, 1);
}

/* Measured before any compiler sees it: Mesa's recursion overflowed a 512 MiB stack at about 4
 * million tokens (two million terms in one sum, or 21 doubling macros), and forty doubling
 * macros expanded for ever; a million tokens compile (in about a second and 800 MB here), and a
 * real toy is some thousands. false (src freed) when refused. */
static bool check_size(iks_source *src, const char *path, iks_err *e)
{
    iks_err why = IKS_ERR_INIT;
    double toks = iks_pp_measure(src->fragment, MAX_TOKENS, &why);
    if (why.code != IKS_OK) {
        iks_source_free(src);
        iks_err_set(e, IKS_E_FORMAT, "%s: %s: ikshade cannot bound the size of its expansion, so it refuses it (a "
                    "guard against macro bombs)", path, iks_err_msg(&why));
        iks_err_clear(&why);
        return false;
    }
    if (toks > MAX_TOKENS) {
        iks_source_free(src);
        if (toks >= 1e29) /* counting stopped: the number is no count */
            return iks_err_set(e, IKS_E_FORMAT, "%s: too many tokens once its macros are expanded to count them, "
                               "more than a GL compiler takes (at most %d)", path, MAX_TOKENS);
        return iks_err_set(e, IKS_E_FORMAT, "%s: %.*g tokens once its macros are expanded, more than a GL compiler "
                           "takes (at most %d)", path, toks < 1e12 ? 12 : 3, toks, MAX_TOKENS);
    }
    return true;
}

bool iks_source_load(iks_source *src, const char *path, const iks_source_opts *opts, iks_err *e)
{
    static const iks_source_opts none = { 0 };
    memset(src, 0, sizeof *src);
    asm_ctx c = { .opts = opts ? opts : &none, .src = src };
    c.fs = c.opts->files ? c.opts->files : &NO_FILES;
    if (!assemble(&c, path)) {
        fail(&c, IKS_E_NOMEM, "%s: out of memory", path); /* only if nothing failed before */
        iks_err_move(e, &c.err);
        free(c.body.s);
        free_maps(&c);
        iks_source_free(src);
        return false;
    }
    char *body = c.body.s;
    bool own_version = lift_version(src, body, c.opts->es);
    iks_entry entry = c.opts->entry;
    entry_scan sc;
    if (!scan_entry(&c, body, entry, &sc)) return load_oom(&c, body, path, e);
    src->shadertoy = !sc.has_main;
    src->image_unseen = !sc.has_main && !sc.has_image;
    src->entry = entry;
    const char *extra = entry == IKS_ENTRY_CUBEMAP ? CUBE_PRELUDE : entry == IKS_ENTRY_SOUND ? SOUND_PRELUDE : "";
    const char *epilogue = entry == IKS_ENTRY_CUBEMAP ? CUBE_EPILOGUE
                           : entry == IKS_ENTRY_SOUND ? (sc.sound_old ? SOUND_EPILOGUE_OLD : SOUND_EPILOGUE)
                                                      : EPILOGUE;
    body = site_rewrites(body, src->shadertoy);
    bool es_prelude = src->shadertoy && c.opts->es && !own_version;
    char *joined = NULL;
    if (src->shadertoy && !(joined = site_prelude(c.opts, es_prelude, extra))) return load_oom(&c, body, path, e);
    iks_sbuf f = { 0 };
    emit_fragment(src, &c, body, joined, epilogue, &f);
    free(joined);
    free(body);
    free_maps(&c);
    iks_sbuf v = { 0 };
    iks_sbuf_fmt(&v, "%s\n", src->version);
    iks_sbuf_str(&v, "void main() {\n"
               "    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));\n"
               "    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n"
               "}\n");
    src->fragment = f.s;
    src->vertex = v.s;
    if (f.oom || v.oom || !src->map_file || !src->map_line) {
        iks_source_free(src);
        return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", path);
    }
    return check_size(src, path, e);
}

bool iks_source_where(const iks_source *src, int line, const char **path, int *file_line)
{
    if (line < 1 || line > src->nlines) return false;
    int f = src->map_file[line - 1];
    *file_line = src->map_line[line - 1];
    *path = f == IKS_WRAPPER ? NULL : src->files[f];
    return true;
}

void iks_source_free(iks_source *src)
{
    if (!src) return;
    for (int i = 0; i < src->nfiles; i++) free(src->files[i]);
    free(src->files);
    free(src->fragment);
    free(src->vertex);
    free(src->map_file);
    free(src->params);
    free(src->map_line);
    memset(src, 0, sizeof *src);
}

/* ---- driver logs ------------------------------------------------------------------------------- */

static bool read_int(const char **p, int *out)
{
    const char *s = *p;
    if (!isdigit((unsigned char)*s)) return false;
    long v = 0;
    while (isdigit((unsigned char)*s)) {
        v = v * 10 + (*s - '0');
        if (v > 100000000) return false;
        s++;
    }
    *out = (int)v;
    *p = s;
    return true;
}

static bool lit(const char **p, const char *s)
{
    size_t n = strlen(s);
    if (strncmp(*p, s, n) != 0) return false;
    *p += n;
    return true;
}

static void ws(const char **p)
{
    while (**p == ' ' || **p == '\t') (*p)++;
}

/* "error", "warning" (any case) at *p, copied lower-case into sev */
static bool severity(const char **p, char *sev, size_t n)
{
    /* Mesa's preprocessor says "preprocessor error": an error at a line like any other */
    if (strncasecmp(*p, "preprocessor ", 13) == 0) *p += 13;
    static const char *const S[] = { "error", "warning", "info", "note" };
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++) {
        size_t k = strlen(S[i]);
        if (strncasecmp(*p, S[i], k) == 0 && !is_ident((*p)[k])) {
            snprintf(sev, n, "%s", S[i]);
            *p += k;
            return true;
        }
    }
    return false;
}

bool iks_log_parse(const char *line, iks_log_line *out)
{
    memset(out, 0, sizeof *out);
    const char *p = line;
    ws(&p);
    /* ANGLE / AMD / Apple: "ERROR: 0:12: message" */
    const char *q = p;
    if (severity(&q, out->sev, sizeof out->sev) && lit(&q, ":")) {
        ws(&q);
        if (read_int(&q, &out->id) && lit(&q, ":") && read_int(&q, &out->line) && lit(&q, ":")) {
            ws(&q);
            out->msg = q;
            return true;
        }
        return false;
    }
    int id;
    if (!read_int(&p, &id)) return false;
    out->id = id;
    if (lit(&p, ":")) {
        /* Mesa: "0:12(7): error: message" */
        if (!read_int(&p, &out->line)) return false;
        if (lit(&p, "(")) {
            if (!read_int(&p, &out->col) || !lit(&p, ")")) return false;
        }
        if (!lit(&p, ":")) return false;
        ws(&p);
        if (!severity(&p, out->sev, sizeof out->sev)) return false;
        if (!lit(&p, ":")) return false;
        ws(&p);
        out->msg = p;
        return true;
    }
    if (lit(&p, "(")) {
        /* NVIDIA: "0(12) : error C0000: message" */
        if (!read_int(&p, &out->line) || !lit(&p, ")")) return false;
        ws(&p);
        if (!lit(&p, ":")) return false;
        ws(&p);
        if (!severity(&p, out->sev, sizeof out->sev)) return false;
        ws(&p);
        while (is_ident(*p)) p++; /* the C0000 code */
        if (!lit(&p, ":")) return false;
        ws(&p);
        out->msg = p;
        return true;
    }
    return false;
}

/* a file's name for a log line, shown as every message shows a name (iks_shown_text): a newline in it
 * (a file may be called "a\nb.frag") as \n, so that each line of the log stays one report, and an
 * escape sequence as text; NULL stays NULL, and so does a name when memory runs out */
static char *log_name(const char *name)
{
    if (!name) return NULL;
    size_t n = iks_shown_text(NULL, 0, name, true) + 1;
    char *out = malloc(n);
    if (out) iks_shown_text(out, n, name, true);
    return out;
}

/* A line of a log that only heads the lines after it: NVIDIA's link log is "Fragment info", a line of
 * dashes, then the located lines ("0(2) : error C1008: ..."); each header alone would be reported as an
 * error of its own. The stage names are GL's (NVIDIA: "Vertex info", "Fragment info", "Geometry info"). */
static bool log_header(const char *line)
{
    const char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '-') {
        while (*p == '-') p++;
        while (*p == ' ' || *p == '\t') p++;
        return *p == '\0';
    }
    static const char *const STAGES[] = { "Vertex", "Fragment", "Geometry", "Tessellation control",
                                          "Tessellation evaluation", "Compute" };
    for (size_t i = 0; i < sizeof STAGES / sizeof STAGES[0]; i++) {
        size_t n = strlen(STAGES[i]);
        if (strncasecmp(p, STAGES[i], n) == 0 && strcmp(p + n, " info") == 0) return true;
    }
    return false;
}

char *iks_log_map(const char *log, const iks_source *src)
{
    iks_sbuf b = { 0 };
    char *main_path = log_name(src->main_file > 0 && src->main_file < src->nfiles ? src->files[src->main_file] : "shader");
    if (!main_path) return NULL;
    bool unseen_said = false;
    for (const char *ln = log; ln && *ln;) {
        const char *nl = strchr(ln, '\n');
        size_t n = nl ? (size_t)(nl - ln) : strlen(ln);
        char *line = strndup(ln, n);
        if (line) {
            size_t k = strlen(line);
            while (k && (line[k - 1] == '\r' || line[k - 1] == ' ')) line[--k] = '\0';
            iks_log_line L;
            if (k == 0 || log_header(line)) {
                /* skip blank lines, and the headers that NVIDIA puts over a link log's lines */
            } else if (iks_log_parse(line, &L)) {
                /* the driver's line is a line of the assembled text: the map says whose it is */
                const char *where;
                int fl;
                if (!iks_source_where(src, L.line, &where, &fl)) {
                    where = main_path;
                    fl = L.line;
                }
                char *path = where ? log_name(where) : NULL;
                if (where && !path) {
                    free(line);
                    free(main_path);
                    free(b.s);
                    return NULL;
                }
                if (!path && src->image_unseen && strstr(L.msg, entry_name(src->entry))) {
                    if (!unseen_said)
                        iks_sbuf_fmt(&b, "%s: defines neither %s nor main()\n", main_path, entry_signature(src->entry));
                    unseen_said = true;
                } else if (!path)
                    iks_sbuf_fmt(&b, "%s: %s: %s (in the main() that ikshade adds: is %s declared as %s%s?)\n", main_path,
                           L.sev, L.msg, entry_name(src->entry), src->entry == IKS_ENTRY_SOUND ? "vec2 " : "void ",
                           entry_signature(src->entry));
                else if (L.col > 0) iks_sbuf_fmt(&b, "%s:%d:%d: %s: %s\n", path, fl, L.col, L.sev, L.msg);
                else iks_sbuf_fmt(&b, "%s:%d: %s: %s\n", path, fl, L.sev, L.msg);
                free(path);
            } else {
                const char *m = line;
                while (*m == ' ' || *m == '\t') m++;
                iks_sbuf_fmt(&b, "%s: %s%s\n", main_path, strncasecmp(m, "error", 5) == 0 ? "" : "error: ", m);
            }
            free(line);
        }
        ln = nl ? nl + 1 : ln + n;
    }
    free(main_path);
    if (!b.s) iks_sbuf_add(&b, "", 0);
    return b.s;
}

char *iks_log_unsaid(const char *mapped, iks_sbuf *said)
{
    iks_sbuf out = { 0 };
    iks_sbuf_add(&out, "", 0);
    for (const char *ln = mapped; ln && *ln;) {
        const char *nl = strchr(ln, '\n');
        size_t n = nl ? (size_t)(nl - ln) : strlen(ln);
        bool seen = false;
        for (const char *s = said->s; s && *s;) { /* said's lines, each compared whole */
            const char *e = strchr(s, '\n');
            size_t k = e ? (size_t)(e - s) : strlen(s);
            if (k == n && memcmp(s, ln, n) == 0) {
                seen = true;
                break;
            }
            s = e ? e + 1 : s + k;
        }
        if (!seen && n) {
            iks_sbuf_add(&out, ln, n);
            iks_sbuf_add(&out, "\n", 1);
            iks_sbuf_add(said, ln, n);
            iks_sbuf_add(said, "\n", 1);
        }
        ln = nl ? nl + 1 : ln + n;
    }
    if (out.oom || said->oom) {
        free(out.s);
        return NULL;
    }
    return out.s;
}

/* name as a whole word after "uniform TYPE " on a line of text */
static bool declares(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *ln = text; *ln; ln = strchr(ln, '\n') ? strchr(ln, '\n') + 1 : ln + strlen(ln)) {
        if (strncmp(ln, "uniform ", 8) != 0) continue;
        const char *p = ln + 8;
        while (is_ident(*p)) p++;
        if (*p++ == ' ' && strncmp(p, name, n) == 0 && !is_ident(p[n])) return true;
    }
    return false;
}

bool iks_prelude_declares(const char *name)
{
    if (!name || !*name) return false;
    return declares(PRELUDE, name) || declares(CUBE_PRELUDE, name) || declares(SOUND_PRELUDE, name);
}

/* ---- uniform declarations ---------------------------------------------------------------------- */

static void classify(iks_udecl *u)
{
    static const struct { const char *t; iks_ubase b; int n; } T[] = {
        { "float", IKS_U_FLOAT, 1 }, { "vec2", IKS_U_FLOAT, 2 }, { "vec3", IKS_U_FLOAT, 3 },
        { "vec4", IKS_U_FLOAT, 4 },  { "int", IKS_U_INT, 1 },    { "ivec2", IKS_U_INT, 2 },
        { "ivec3", IKS_U_INT, 3 },   { "ivec4", IKS_U_INT, 4 },  { "uint", IKS_U_UINT, 1 },
        { "uvec2", IKS_U_UINT, 2 },  { "uvec3", IKS_U_UINT, 3 }, { "uvec4", IKS_U_UINT, 4 },
        { "bool", IKS_U_BOOL, 1 },   { "bvec2", IKS_U_BOOL, 2 }, { "bvec3", IKS_U_BOOL, 3 },
        { "bvec4", IKS_U_BOOL, 4 },
    };
    u->base = IKS_U_OTHER;
    u->comps = 0;
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (strcmp(u->type, T[i].t) == 0) {
            u->base = T[i].b;
            u->comps = T[i].n;
        }
}

const char *iks_ubase_refuses(iks_ubase b, double v)
{
    if (!isfinite(v)) return "not a finite number";
    switch (b) {
    /* GL would hold a larger one as infinity; the figure is FLT_MAX as %g writes it */
    case IKS_U_FLOAT: return fabs(v) > FLT_MAX ? "beyond a float's range (at most 3.40282e+38 either way)" : NULL;
    case IKS_U_INT:
        if (v != floor(v)) return "not a whole number";
        return v < INT32_MIN || v > INT32_MAX ? "beyond an int's range (-2147483648 to 2147483647)" : NULL;
    case IKS_U_UINT:
        if (v != floor(v)) return "not a whole number";
        return v < 0 || v > UINT32_MAX ? "beyond an unsigned int's range (0 to 4294967295)" : NULL;
    /* a toggle's 2 or 0.5 is a slip, not a meaning: GL would take either as true */
    case IKS_U_BOOL: return v == 0 || v == 1 ? NULL : "neither true nor false (1 or 0)";
    default: return "of a type no value sets";
    }
}

static const char *word(const char *p, char *out, size_t cap)
{
    while (isspace((unsigned char)*p)) p++;
    size_t n = 0;
    while (is_ident(p[n])) n++;
    if (n == 0 || n >= cap) return NULL;
    memcpy(out, p, n);
    out[n] = '\0';
    return p + n;
}

int iks_uniform_decls(const char *glsl, iks_udecl *out, int max)
{
    char *t = strip_comments(glsl);
    if (!t) return 0;
    int count = 0;
    for (const char *p = t; (p = strstr(p, "uniform"));) {
        if ((p > t && is_ident(p[-1])) || is_ident(p[7])) {
            p += 7;
            continue;
        }
        p += 7;
        char type[32];
        const char *q = word(p, type, sizeof type);
        while (q && (!strcmp(type, "lowp") || !strcmp(type, "mediump") || !strcmp(type, "highp")))
            q = word(q, type, sizeof type);
        if (!q) continue;
        /* names, separated by commas, each maybe with [N] or = initialiser, up to ';' */
        for (;;) {
            char name[64];
            const char *r = word(q, name, sizeof name);
            if (!r) break;
            if (count < max) {
                iks_udecl *u = &out[count];
                snprintf(u->name, sizeof u->name, "%s", name);
                snprintf(u->type, sizeof u->type, "%s", type);
                classify(u);
                while (isspace((unsigned char)*r)) r++;
                u->array = *r == '[';
                if (u->array) u->comps = 0; /* arrays cannot be --set */
            }
            count++;
            int depth = 0;
            while (*r && !(depth == 0 && (*r == ',' || *r == ';'))) {
                if (*r == '(' || *r == '[') depth++;
                if (*r == ')' || *r == ']') depth--;
                r++;
            }
            if (*r != ',') break;
            q = r + 1;
        }
        p = q ? q : p;
    }
    free(t);
    return count;
}
