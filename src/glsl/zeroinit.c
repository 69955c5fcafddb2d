/* zeroinit.c: WebGL's zero-initialisation, as source text. ANGLE (the site's compiler) gives every
 * variable a value of zero: locals each time their declaration runs, arrays, globals, structs, and `out`
 * parameters at a function's start. Real toys read such variables before writing them (`vec3 acc;
 * acc += ...`), which GLSL leaves undefined and Mesa fills with whatever a register held. So the
 * shader's own declarations get explicit initialisers here, before the GL compiles them.
 *
 * A token scan, not a parser: a declaration is recognised at the start of a statement (after `;`, `{`
 * or `}`, outside parentheses) as optional precision qualifiers, a type we know (GLSL's, a struct
 * declared earlier in the text, or an object-like macro naming one of those), then names. Each name
 * without an initialiser gets ` = T(0)` (array constructors for arrays of literal size, a struct's
 * constructor of zeros for structs); a local array of any other size gets a loop after the statement,
 * and a global one (`float g[N];`) a loop where each entry point defined after it starts (mainImage,
 * mainCubemap, mainSound: the wrapper's main() calls one of them before anything else runs).
 * A `for`'s init is a declaration too (`for (int i; i++ < 2;)`).
 * What the compiler sees after preprocessing is reached without expanding anything: each #define's body
 * is scanned as text of its own and rewritten where it stands (`#define DECL vec3 acc;` becomes
 * `#define DECL vec3 acc = vec3(0);`), so every expansion carries the initialiser; a body that is a
 * function's header (`#define M void mainImage(out vec4 o, in vec2 f)`, used as `M {`) has its `out`
 * parameters zeroed after the `{` that follows its use. Bodies used in a struct or after a qualifier
 * are left alone (a member or a uniform takes no initialiser).
 * What it cannot see (a type made by a function-like macro, a declaration split between a macro and the
 * text) stays as written: undefined, as before. Lines are never added, so the line map holds; the
 * columns of a line that gained an initialiser move right.
 * What it does not do: read files or know about the prelude (source.c calls it on the shader's text). */
#include "glsl/source.h"
#include "glsl/gltok.h"
#include "base/buf.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* an array written out element by element up to this size; larger ones use a loop (locals) or stay */
#define MAX_LITERAL_ARRAY 256

/* ---- tokens (gltok.h) --------------------------------------------------------------------------------- */

typedef iks_token token;
typedef iks_tokens tokens;
#define T_IDENT IKS_TOK_IDENT
#define T_NUMBER IKS_TOK_NUMBER
#define T_PUNCT IKS_TOK_PUNCT

static bool ident_start(char c) { return iks_tok_ident_start(c); }
static bool ident_char(char c) { return iks_tok_ident_char(c); }
static size_t skip_comment(const char *t, size_t len, size_t i) { return iks_tok_skip_comment(t, len, i); }
static bool tokenise_range(tokens *tk, const char *t, size_t from, size_t len, bool line_start)
{
    return iks_tok_range(tk, t, from, len, line_start);
}
static bool tokenise(tokens *tk, const char *t, size_t len) { return iks_tok_range(tk, t, 0, len, true); }
static bool is(const tokens *tk, size_t i, const char *s) { return iks_tok_is(tk, i, s); }

/* ---- types ------------------------------------------------------------------------------------------- */

static const char *const BUILTIN[] = {
    "float", "int", "uint", "bool", "vec2", "vec3", "vec4", "ivec2", "ivec3", "ivec4", "uvec2", "uvec3", "uvec4",
    "bvec2", "bvec3", "bvec4", "mat2", "mat3", "mat4", "mat2x2", "mat2x3", "mat2x4", "mat3x2", "mat3x3",
    "mat3x4", "mat4x2", "mat4x3", "mat4x4",
};

/* a type the scan knows: its name and the expression of its zero value */
typedef struct {
    char *name;
    char *zero;
} type;

typedef struct {
    type *v;
    int n;
    size_t cap;
    bool oom;
} types;

static int find_type(const types *ty, const char *s, size_t n)
{
    for (int i = ty->n - 1; i >= 0; i--)
        if (strlen(ty->v[i].name) == n && memcmp(ty->v[i].name, s, n) == 0) return i;
    return -1;
}

static void add_type(types *ty, const char *name, size_t n, char *zero)
{
    if (!zero || ty->oom) {
        free(zero);
        ty->oom = ty->oom || !zero;
        return;
    }
    if (!IKS_GROW(ty->v, (size_t)ty->n + 1, ty->cap)) {
        free(zero);
        ty->oom = true;
        return;
    }
    char *nm = strndup(name, n);
    if (!nm) {
        free(zero);
        ty->oom = true;
        return;
    }
    ty->v[ty->n++] = (type){ nm, zero };
}

/* "T[N](z, z, ...)" for an array of a literal size n (1..MAX_LITERAL_ARRAY); NULL otherwise */
static char *array_zero(const char *tname, const char *zero, long n)
{
    if (n < 1 || n > MAX_LITERAL_ARRAY) return NULL;
    iks_sbuf b = { 0 };
    char head[64];
    snprintf(head, sizeof head, "[%ld](", n);
    iks_sbuf_str(&b, tname);
    iks_sbuf_str(&b, head);
    for (long i = 0; i < n; i++) {
        if (i) iks_sbuf_str(&b, ", ");
        iks_sbuf_str(&b, zero);
    }
    iks_sbuf_str(&b, ")");
    if (b.oom) free(b.s);
    return b.oom ? NULL : b.s;
}

/* the literal array size in `[ N ]` starting at token i (a decimal integer, optional u); -1 otherwise.
 * *end gets the token after `]` */
static long literal_size(const tokens *tk, size_t i, size_t *end)
{
    *end = i;
    if (!is(tk, i, "[")) return -1;
    if (i + 2 < tk->n && tk->v[i + 1].k == T_NUMBER && is(tk, i + 2, "]")) {
        char num[32];
        size_t n = tk->v[i + 1].n < sizeof num - 1 ? tk->v[i + 1].n : sizeof num - 1;
        memcpy(num, tk->t + tk->v[i + 1].at, n);
        num[n] = '\0';
        char *e;
        long v = strtol(num, &e, 10);
        if ((*e == '\0' || ((*e == 'u' || *e == 'U') && e[1] == '\0')) && num[0] != '0') {
            *end = i + 3;
            return v;
        }
    }
    /* not a literal: skip to the matching ] */
    int depth = 0;
    for (size_t j = i; j < tk->n; j++) {
        if (is(tk, j, "[")) depth++;
        else if (is(tk, j, "]") && --depth == 0) {
            *end = j + 1;
            return -1;
        }
    }
    *end = tk->n;
    return -1;
}

/* `struct NAME { members };` at token i (on "struct"): NAME becomes a type whose zero is its
 * constructor of members' zeros, when every member's type is known and every array has a literal size */
static void learn_struct(const tokens *tk, size_t i, types *ty)
{
    if (i + 2 >= tk->n || tk->v[i + 1].k != T_IDENT || !is(tk, i + 2, "{")) return;
    const char *name = tk->t + tk->v[i + 1].at;
    size_t nlen = tk->v[i + 1].n;
    iks_sbuf b = { 0 };
    iks_sbuf_add(&b, name, nlen);
    iks_sbuf_str(&b, "(");
    bool ok = true, first = true;
    size_t j = i + 3;
    while (ok && j < tk->n && !is(tk, j, "}")) {
        /* one member line: [precision] TYPE name[N], name2 ...; */
        while (is(tk, j, "highp") || is(tk, j, "mediump") || is(tk, j, "lowp")) j++;
        int t = j < tk->n && tk->v[j].k == T_IDENT ? find_type(ty, tk->t + tk->v[j].at, tk->v[j].n) : -1;
        if (t < 0) {
            ok = false;
            break;
        }
        const char *tname = ty->v[t].name;
        j++;
        long pre = -1;
        if (is(tk, j, "[")) { /* float[3] a; */
            pre = literal_size(tk, j, &j);
            if (pre < 0) ok = false;
        }
        while (ok && j < tk->n && tk->v[j].k == T_IDENT) {
            j++;
            long n = pre;
            if (is(tk, j, "[")) {
                if (pre >= 0) ok = false; /* arrays of arrays */
                n = literal_size(tk, j, &j);
                if (n < 0) ok = false;
            }
            if (!ok) break;
            char *z = n >= 0 ? array_zero(tname, ty->v[t].zero, n) : strdup(ty->v[t].zero);
            if (!z) {
                ok = false;
                break;
            }
            if (!first) iks_sbuf_str(&b, ", ");
            iks_sbuf_str(&b, z);
            free(z);
            first = false;
            if (is(tk, j, ",")) j++;
        }
        if (!is(tk, j, ";")) ok = false;
        j++;
    }
    iks_sbuf_str(&b, ")");
    if (ok && !first && !b.oom) add_type(ty, name, nlen, b.s);
    else free(b.s);
}

/* `#define NAME TYPE` lines: NAME is that type too (shaders shorten `vec3` this way) */
static void learn_macro_types(const char *t, types *ty)
{
    for (const char *p = t; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const char *q = iks_tok_define_name(p);
        if (!q) continue;
        const char *name = q;
        while (ident_char(*q)) q++;
        size_t nlen = (size_t)(q - name);
        if (!nlen || *q == '(') continue;
        while (*q == ' ' || *q == '\t') q++;
        const char *tn = q;
        while (ident_char(*q)) q++;
        size_t tlen = (size_t)(q - tn);
        while (*q == ' ' || *q == '\t') q++;
        if (!tlen || (*q != '\n' && *q != '\0' && *q != '\r')) continue;
        int k = find_type(ty, tn, tlen);
        if (k >= 0 && find_type(ty, name, nlen) < 0) {
            /* the zero through the macro's own name, which expands to the type */
            size_t zl = strlen(ty->v[k].zero);
            char *z = malloc(nlen + zl + 1);
            if (z) {
                memcpy(z, name, nlen);
                strcpy(z + nlen, ty->v[k].zero + strlen(ty->v[k].name));
            }
            add_type(ty, name, nlen, z);
        }
    }
}

/* ---- the rewrite ------------------------------------------------------------------------------------- */

typedef struct {
    iks_edits e;
    /* loops that zero the global arrays seen so far whose size is no literal (`float g[N];`): a global
     * takes no loop where it stands, so they run where an entry point's body starts */
    iks_sbuf globals;
} edits;

static void add_edit(edits *ed, size_t at, char *text) { iks_edits_add(&ed->e, at, text); }

static char *fmt(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s%s%s", a, b, c);
    return s;
}

/* the token after an initialiser starting at i: the `,` or `;` at depth 0 */
static size_t skip_expr(const tokens *tk, size_t i)
{
    int depth = 0;
    for (; i < tk->n; i++) {
        if (is(tk, i, "(") || is(tk, i, "[") || is(tk, i, "{")) depth++;
        else if (is(tk, i, ")") || is(tk, i, "]") || is(tk, i, "}")) {
            if (--depth < 0) return i;
        } else if (depth == 0 && (is(tk, i, ",") || is(tk, i, ";"))) return i;
    }
    return i;
}

/* Where a declaration stands, for an array whose size is no literal: a global's loop runs where each
 * entry point starts, a local's after its statement; a `for`'s init or a macro body has no place for
 * a statement (the loop would land in the for's parentheses, or wherever the macro is expanded), so
 * such an array stays as written there. Every other name gets its initialiser in all three. */
typedef enum { AT_GLOBAL, AT_LOCAL, AT_INLINE } where;

/* A declaration at token i (statement start): the edits for its uninitialised names. Returns the token
 * where the scan goes on (i itself when it is not a declaration we handle). */
static size_t declaration(const tokens *tk, size_t i, const types *ty, where place, edits *ed)
{
    size_t j = i;
    while (is(tk, j, "highp") || is(tk, j, "mediump") || is(tk, j, "lowp") || is(tk, j, "precise"))
        j++;
    if (j >= tk->n || tk->v[j].k != T_IDENT) return i;
    int t = find_type(ty, tk->t + tk->v[j].at, tk->v[j].n);
    if (t < 0) return i;
    const char *tname = ty->v[t].name, *zero = ty->v[t].zero;
    j++;
    long pre = -1;
    bool pre_array = is(tk, j, "[");
    if (pre_array) pre = literal_size(tk, j, &j);
    if (j >= tk->n || tk->v[j].k != T_IDENT || is(tk, j + 1, "(")) return i; /* a function, or no name */
    for (;;) {
        if (j >= tk->n || tk->v[j].k != T_IDENT) return i;
        size_t name = j++;
        long n = pre;
        bool array = pre_array;
        if (is(tk, j, "[")) {
            if (array) return i; /* arrays of arrays: ES 3.1 */
            array = true;
            n = literal_size(tk, j, &j);
        }
        if (is(tk, j, "=")) {
            j = skip_expr(tk, j + 1);
        } else if (is(tk, j, ",") || is(tk, j, ";")) {
            size_t at = tk->v[j - 1].at + tk->v[j - 1].n;
            if (!array) add_edit(ed, at, fmt(" = ", zero, ""));
            else if (n >= 1 && n <= MAX_LITERAL_ARRAY) {
                char *z = array_zero(tname, zero, n);
                add_edit(ed, at, z ? fmt(" = ", z, "") : NULL);
                free(z);
            } else {
                /* any other size: a loop after the statement (its end found below), or for a global at
                 * the start of each entry point defined after it */
                const char *nm = tk->t + tk->v[name].at;
                size_t nl = tk->v[name].n;
                size_t cap = 3 * nl + strlen(zero) + 96;
                char *loop = malloc(cap);
                if (loop)
                    snprintf(loop, cap, " for (int iks_z = 0; iks_z < %.*s.length(); iks_z++) %.*s[iks_z] = %s;",
                             (int)nl, nm, (int)nl, nm, zero);
                size_t k = j;
                while (k < tk->n && !is(tk, k, ";")) k++;
                if (place == AT_GLOBAL) {
                    if (loop) iks_sbuf_str(&ed->globals, loop);
                    else ed->e.oom = true;
                    free(loop);
                } else if (place == AT_LOCAL && k < tk->n) add_edit(ed, tk->v[k].at + 1, loop);
                else free(loop);
            }
        } else return i;
        if (j >= tk->n) return j;
        if (is(tk, j, ";")) return j + 1;
        if (!is(tk, j, ",")) return i;
        j++;
    }
}

/* the matching `)` of the `(` at token i; i when there is none */
static size_t close_paren(const tokens *tk, size_t i)
{
    int depth = 0;
    for (size_t j = i; j < tk->n; j++) {
        if (is(tk, j, "(")) depth++;
        else if (is(tk, j, ")") && --depth == 0) return j;
    }
    return i;
}

/* `out` parameters of the parameter list (i, close) (tokens of "(" and ")"), zeroed by statements
 * inserted at offset at (just after the body's `{`) */
static void out_zeroes(const tokens *tk, size_t i, size_t close, const types *ty, edits *ed, size_t at)
{
    iks_sbuf b = { 0 };
    for (size_t j = i + 1; j < close; j++) {
        if (!is(tk, j, "out")) continue;
        size_t k = j + 1;
        while (is(tk, k, "highp") || is(tk, k, "mediump") || is(tk, k, "lowp") || is(tk, k, "precise")) k++;
        int t = k < tk->n && tk->v[k].k == T_IDENT ? find_type(ty, tk->t + tk->v[k].at, tk->v[k].n) : -1;
        if (t < 0 || k + 1 >= close || tk->v[k + 1].k != T_IDENT) continue;
        const char *nm = tk->t + tk->v[k + 1].at;
        int nl = (int)tk->v[k + 1].n;
        if (is(tk, k + 2, "[")) /* an out array: element by element */
            iks_sbuf_fmt(&b, " for (int iks_z = 0; iks_z < %.*s.length(); iks_z++) %.*s[iks_z] = %s;", nl, nm, nl,
                         nm, ty->v[t].zero);
        else iks_sbuf_fmt(&b, " %.*s = %s;", nl, nm, ty->v[t].zero);
    }
    if (b.oom) {
        free(b.s);
        ed->e.oom = true;
    } else if (b.s) add_edit(ed, at, b.s);
}

/* `out` parameters of the function whose parameter list opens at token i (on "("), zeroed where its
 * body starts: the edit goes after the body's `{` */
static void out_params(const tokens *tk, size_t i, const types *ty, edits *ed)
{
    size_t close = close_paren(tk, i);
    if (close == i || !is(tk, close + 1, "{")) return; /* a prototype, or not a function */
    out_zeroes(tk, i, close, ty, ed, tk->v[close + 1].at + 1);
}

static bool is_entry(const tokens *tk, size_t i)
{
    return is(tk, i, "mainImage") || is(tk, i, "mainCubemap") || is(tk, i, "mainSound") || is(tk, i, "mainVR");
}

/* the global arrays' loops after the `{` of the function whose parameter list opens at token i */
static void entry_globals(const tokens *tk, size_t i, edits *ed)
{
    int depth = 0;
    for (size_t j = i; j < tk->n; j++) {
        if (is(tk, j, "(")) depth++;
        else if (is(tk, j, ")") && --depth == 0) {
            if (is(tk, j + 1, "{")) add_edit(ed, tk->v[j + 1].at + 1, strdup(ed->globals.s));
            return;
        }
    }
}

/* ---- macro bodies ------------------------------------------------------------------------------------- */

/* A #define: where its name and its body lie in the text. The compiler sees a macro's body wherever the
 * macro is used, so a declaration there (`#define DECL vec3 acc;`), a `for` (`for (int i; ...)`) or a
 * function's header with `out` parameters (`#define M void mainImage(out vec4 o, in vec2 f) {`) is
 * rewritten in the body itself: every expansion then carries the initialiser, on the line the user
 * wrote, with no macro expanded by us. */
typedef struct {
    size_t name, nlen; /* offset and length of its name */
    size_t body, end;  /* its body: after the name (and the parameter list) to the end of its logical line */
    bool func;         /* function-like */
    bool skip;         /* used where a declaration takes no initialiser: in a struct, after a qualifier */
    int braces;        /* the body's `{` less its `}` (default returns: a body may open or close a function's) */
    bool returns;      /* the body holds a `return` */
} define;

typedef struct {
    define *v;
    size_t n, cap;
} defines;

static bool collect_defines(const char *t, size_t len, defines *d)
{
    for (size_t p = 0; p < len;) {
        size_t q = p;
        while (q < len && (t[q] == ' ' || t[q] == '\t')) q++;
        bool directive = q < len && t[q] == '#';
        /* the end of this logical line (splices continue it) */
        size_t e = q;
        while (e < len && t[e] != '\n') e += t[e] == '\\' && e + 1 < len ? 2 : 1;
        if (e > len) e = len;
        if (directive) {
            q++;
            while (q < e && (t[q] == ' ' || t[q] == '\t')) q++;
            if (e - q > 7 && !memcmp(t + q, "define", 6) && (t[q + 6] == ' ' || t[q + 6] == '\t')) {
                q += 6;
                while (q < e && (t[q] == ' ' || t[q] == '\t')) q++;
                size_t nm = q;
                while (q < e && ident_char(t[q])) q++;
                if (q > nm && ident_start(t[nm])) {
                    define m = { nm, q - nm, q, e, false, false, 0, false };
                    if (q < e && t[q] == '(') { /* parameters: the body starts after them */
                        m.func = true;
                        while (q < e && t[q] != ')') q++;
                        m.body = q < e ? q + 1 : e;
                    }
                    if (!IKS_GROW(d->v, d->n + 1, d->cap)) return false;
                    d->v[d->n++] = m;
                }
            }
        }
        p = e + 1;
    }
    return true;
}

/* the object-like or function-like #define named by token i, or NULL (the last definition wins) */
static define *find_define(const tokens *tk, size_t i, defines *d)
{
    if (i >= tk->n || tk->v[i].k != T_IDENT) return NULL;
    for (size_t k = d->n; k-- > 0;)
        if (d->v[k].nlen == tk->v[i].n && !memcmp(tk->t + d->v[k].name, tk->t + tk->v[i].at, tk->v[i].n))
            return &d->v[k];
    return NULL;
}

/* identifiers in tokens [a, b) that name macros: their bodies are not rewritten */
static void skip_defines_in(const tokens *tk, size_t a, size_t b, defines *d)
{
    for (size_t k = a; k < b && k < tk->n; k++) {
        define *m = find_define(tk, k, d);
        if (m) m->skip = true;
    }
}

/* `M {` at global scope where M's body is a function's header `T name(...)`: its `out` parameters are
 * zeroed after this `{`, which the main text holds */
static bool header_macro(const tokens *tk, size_t i, const types *ty, defines *d, edits *ed)
{
    define *m = find_define(tk, i, d);
    if (!m || m->func || !is(tk, i + 1, "{")) return false;
    tokens bt = { 0 };
    bool done = false;
    if (!tokenise_range(&bt, tk->t, m->body, m->end, false)) ed->e.oom = true;
    else if (bt.n >= 4 && bt.v[0].k == T_IDENT && bt.v[1].k == T_IDENT && is(&bt, 2, "(") &&
             close_paren(&bt, 2) == bt.n - 1) {
        out_zeroes(&bt, 2, bt.n - 1, ty, ed, tk->v[i + 1].at + 1);
        done = true;
    }
    free(bt.v);
    return done;
}

/* The scan over tokens: in the shader's text (d: its #defines, marked where they must not be
 * rewritten), or in a macro's body (d NULL: every declaration is AT_INLINE). */
static void scan(const tokens *tk, types *ty, edits *ed, defines *d)
{
    /* statement starts: after ; { } at parenthesis depth 0; braces tell locals from globals */
    int paren = 0, brace = 0;
    bool start = true;
    for (size_t i = 0; i < tk->n && !ty->oom && !ed->e.oom;) {
        if (start && paren == 0 && is(tk, i, "struct")) {
            /* its members take no initialisers: learn it, and go on after its body */
            learn_struct(tk, i, ty);
            size_t from = i;
            int depth = 0;
            for (i++; i < tk->n; i++) {
                if (is(tk, i, "{")) depth++;
                else if (is(tk, i, "}") && --depth <= 0) break;
            }
            if (d) skip_defines_in(tk, from, i, d);
            start = false;
            i++;
            continue;
        }
        /* a `for`'s init is a declaration too (`for (int i; i++ < 2;)`, `for (float k = 0.0, i; ...)`);
         * the scan goes on through the parentheses as before */
        if (is(tk, i, "for") && is(tk, i + 1, "(")) declaration(tk, i + 2, ty, AT_INLINE, ed);
        if (start && paren == 0) {
            bool qualified = is(tk, i, "const") || is(tk, i, "uniform") || is(tk, i, "in") || is(tk, i, "out") ||
                             is(tk, i, "inout") || is(tk, i, "layout") || is(tk, i, "flat") ||
                             is(tk, i, "smooth") || is(tk, i, "centroid") || is(tk, i, "buffer") ||
                             is(tk, i, "shared") || is(tk, i, "attribute") || is(tk, i, "varying") ||
                             is(tk, i, "invariant") || is(tk, i, "precision");
            if (qualified) {
                /* const needs its initialiser anyway; the rest are interface variables (an interface
                 * block's members too): the statement is left alone up to its end */
                size_t from = i;
                int depth = 0;
                for (; i < tk->n; i++) {
                    if (is(tk, i, "(") || is(tk, i, "{") || is(tk, i, "[")) depth++;
                    else if (is(tk, i, ")") || is(tk, i, "}") || is(tk, i, "]")) depth -= depth > 0;
                    else if (depth == 0 && is(tk, i, ";")) break;
                }
                if (d) skip_defines_in(tk, from, i, d);
                i++;
                start = true;
                continue;
            }
            size_t next = declaration(tk, i, ty, !d ? AT_INLINE : brace > 0 ? AT_LOCAL : AT_GLOBAL, ed);
            if (next != i) {
                i = next;
                start = true;
                continue;
            }
            /* a function definition at global scope: its out parameters, and for an entry point the
             * global arrays zeroed by loops (not from a macro's body: the loops name globals that may
             * be declared after the macro) */
            if (brace == 0 && i + 2 < tk->n && tk->v[i].k == T_IDENT && tk->v[i + 1].k == T_IDENT && is(tk, i + 2, "(")) {
                out_params(tk, i + 2, ty, ed);
                if (d && ed->globals.len && is_entry(tk, i + 1)) entry_globals(tk, i + 2, ed);
            } else if (d && brace == 0) header_macro(tk, i, ty, d, ed);
        }
        if (is(tk, i, "(")) paren++;
        else if (is(tk, i, ")")) paren -= paren > 0;
        else if (is(tk, i, "{")) brace++;
        else if (is(tk, i, "}")) brace -= brace > 0;
        start = paren == 0 && (is(tk, i, ";") || is(tk, i, "{") || is(tk, i, "}"));
        i++;
    }
}

/* What both rewrites start from: the text's tokens, its #defines, and the types a zero can be made
 * of (the built-ins, and what macros are seen to name) */
typedef struct {
    size_t len;
    tokens tk;
    types ty;
    edits ed;
    defines d;
} rewrite;

static bool prepare(rewrite *rw, const char *text)
{
    *rw = (rewrite){ .len = strlen(text) };
    if (!tokenise(&rw->tk, text, rw->len) || !collect_defines(text, rw->len, &rw->d)) return false;
    for (size_t i = 0; i < sizeof BUILTIN / sizeof BUILTIN[0]; i++) {
        char *z = fmt(BUILTIN[i], "(0)", "");
        add_type(&rw->ty, BUILTIN[i], strlen(BUILTIN[i]), z);
    }
    learn_macro_types(text, &rw->ty);
    return true;
}

static void release(rewrite *rw)
{
    iks_edits_free(&rw->ed.e);
    free(rw->ed.globals.s);
    for (int i = 0; i < rw->ty.n; i++) free(rw->ty.v[i].name), free(rw->ty.v[i].zero);
    free(rw->ty.v);
    free(rw->tk.v);
    free(rw->d.v);
}

char *iks_zero_init(const char *text)
{
    rewrite rw;
    char *out = NULL;
    if (prepare(&rw, text)) {
        scan(&rw.tk, &rw.ty, &rw.ed, &rw.d);
        /* then each macro's body, with every struct of the text known */
        for (size_t k = 0; k < rw.d.n && !rw.ty.oom && !rw.ed.e.oom; k++) {
            if (rw.d.v[k].skip) continue;
            tokens bt = { 0 };
            if (!tokenise_range(&bt, text, rw.d.v[k].body, rw.d.v[k].end, false)) rw.ed.e.oom = true;
            else scan(&bt, &rw.ty, &rw.ed, NULL);
            free(bt.v);
        }
        if (!rw.ty.oom && !rw.ed.globals.oom) out = iks_edits_apply(&rw.ed.e, text, rw.len);
    }
    release(&rw);
    return out;
}

/* ---- default returns ------------------------------------------------------------------------------- */

/* ANGLE appends `return <zero of the type>;` to every non-void function whose body's last statement is
 * not a return (its AddDefaultReturnStatements, run for every output: GLSL, SPIR-V, HLSL, Metal); GLSL
 * leaves the value of a function that runs off its end undefined, and Mesa returns whatever the return
 * slot held. Toys whose loop ends a function (`for (...) { if (hit) return c; }`) rely on the zero. */

/* how far token i moves the brace depth: 1 or -1 for a brace, a macro's net braces for its name (a
 * #define may open or close a function's body: `#define END return c; }`) */
static int brace_step(const tokens *tk, size_t i, defines *d)
{
    if (is(tk, i, "{")) return 1;
    if (is(tk, i, "}")) return -1;
    define *m = d ? find_define(tk, i, d) : NULL;
    return m ? m->braces : 0;
}

/* The `}` that closes a body whose depth is `depth` before token from; tk->n when it closes inside a
 * macro's expansion (the end is not in this text) or never */
static size_t body_end(const tokens *tk, size_t from, int depth, defines *d)
{
    for (size_t j = from; j < tk->n; j++) {
        depth += brace_step(tk, j, d);
        if (depth <= 0) return is(tk, j, "}") && depth == 0 ? j : tk->n;
    }
    return tk->n;
}

/* What the body (tokens start, close) holds that decides whether it gets a return:
 * - RETURNS_NONE: no `return` outside conditional groups (in the text or in a macro it uses). ANGLE
 *   rejects a non-void function with no return at all ("function does not return a value"), and so
 *   does Mesa; one whose only return the preprocessor may drop is left as written too.
 * - RETURNS_UNSURE: the `}` found may not be this body's end: a conditional group in the body whose
 *   braces do not balance (`#if A\n if (a) {\n#else\n if (b) {\n#endif`: every group reaches the
 *   tokens, and the `}` that seems to close the body would be another function's), or an #else, #elif or
 *   #endif of a group opened before the body. Left as written.
 * - RETURNS_CHOSEN: preprocessor lines in the body: which statement is last is the preprocessor's choice.
 * - RETURNS_PLAIN: none of these. */
typedef enum { RETURNS_NONE, RETURNS_UNSURE, RETURNS_CHOSEN, RETURNS_PLAIN } body_kind;

/* whether token i is `return` or names a macro whose body holds one */
static bool returns_at(const tokens *tk, size_t i, defines *d)
{
    if (is(tk, i, "return")) return true;
    define *m = d ? find_define(tk, i, d) : NULL;
    return m && m->returns;
}

static body_kind body_facts(const tokens *tk, size_t start, size_t close, defines *d)
{
    size_t from = tk->v[start].at, to = tk->v[close].at, a = 0, b, j = start + 1;
    bool ls = false, chosen = false, ret = false;
    int cond = 0; /* conditional groups open */
    for (;;) {
        bool more = iks_tok_next_directive(tk->t, to, &from, &ls, &a, &b);
        int net = 0; /* the braces of the tokens up to this line, or to the body's end */
        for (; j < close && (!more || tk->v[j].at < a); j++) {
            net += brace_step(tk, j, d);
            ret = ret || (cond == 0 && returns_at(tk, j, d));
        }
        if (cond > 0 && net != 0) return RETURNS_UNSURE;
        if (!more) return !ret ? RETURNS_NONE : chosen ? RETURNS_CHOSEN : RETURNS_PLAIN;
        chosen = true;
        for (a++; a < b && (tk->t[a] == ' ' || tk->t[a] == '\t');) a++;
        const char *w = tk->t + a;
        size_t n = 0;
        while (a + n < b && ident_char(w[n])) n++;
        bool opens = (n == 2 && !memcmp(w, "if", 2)) || (n == 5 && !memcmp(w, "ifdef", 5)) ||
                     (n == 6 && !memcmp(w, "ifndef", 6));
        bool ends = n == 5 && !memcmp(w, "endif", 5);
        bool turns = n == 4 && (!memcmp(w, "else", 4) || !memcmp(w, "elif", 4));
        if (opens) cond++;
        else if ((ends && --cond < 0) || (turns && cond == 0)) return RETURNS_UNSURE;
    }
}

/* Whether the body (tokens start, close) ends in a return as ANGLE reads it: its last statement, empty
 * ones left out, starts with `return`. A `}` last (a block, an if's or a loop's body) is no return,
 * whatever it holds; neither is a macro's name. (Where that is not so, the return added is never
 * reached.) */
static bool ends_in_return(const tokens *tk, size_t start, size_t close)
{
    size_t p = close;
    while (p > start + 1 && is(tk, p - 1, ";") &&
           (p - 2 == start || is(tk, p - 2, ";") || is(tk, p - 2, "{") || is(tk, p - 2, "}")))
        p--;
    if (p == start + 1 || !is(tk, p - 1, ";")) return false;
    int depth = 0;
    size_t q = p - 1;
    while (q-- > start + 1) {
        if (is(tk, q, ")") || is(tk, q, "]")) depth++;
        else if (is(tk, q, "(") || is(tk, q, "[")) depth--;
        else if (depth <= 0 && (is(tk, q, ";") || is(tk, q, "{") || is(tk, q, "}"))) break;
    }
    return is(tk, q + 1, "return");
}

/* The zero of the return type written before the function's name at token name: `T(0)`, a struct's
 * constructor of zeros, `T[N](z, ...)` for an array of a literal size, and for an array of another size
 * a block that fills a local of the type (`{ T[N] iks_r; for (...) iks_r[iks_z] = z; return iks_r; }`).
 * The whole statement, or NULL for void, a type the scan does not know, or no memory (ty->oom). */
static char *return_zero(const tokens *tk, size_t name, types *ty)
{
    if (name < 1) return NULL;
    size_t t = name - 1, open = name;
    if (is(tk, t, "]")) {
        for (open = t; open > 0 && !is(tk, open, "["); open--)
            if (is(tk, open, "(") || is(tk, open, ";") || is(tk, open, "{") || is(tk, open, "}")) return NULL;
        if (open < 1) return NULL;
        t = open - 1;
    }
    int k = tk->v[t].k == T_IDENT ? find_type(ty, tk->t + tk->v[t].at, tk->v[t].n) : -1;
    if (k < 0) return NULL;
    const char *tname = ty->v[k].name, *zero = ty->v[k].zero;
    char *z = NULL;
    if (open == name) z = fmt(" return ", zero, "; ");
    else {
        size_t end;
        long n = literal_size(tk, open, &end);
        char *az = end == name ? array_zero(tname, zero, n) : NULL;
        if (az) z = fmt(" return ", az, "; ");
        else if (end == name) {
            const char *dims = tk->t + tk->v[open].at;
            int dl = (int)(tk->v[name - 1].at + 1 - tk->v[open].at);
            if (memchr(dims, '\n', (size_t)dl)) return NULL; /* a splice in the size: lines must stay */
            iks_sbuf b = { 0 };
            iks_sbuf_fmt(&b, " { %s%.*s iks_r; for (int iks_z = 0; iks_z < iks_r.length(); iks_z++) "
                             "iks_r[iks_z] = %s; return iks_r; } ",
                         tname, dl, dims, zero);
            if (b.oom) free(b.s);
            else z = b.s;
            ty->oom = ty->oom || !z;
            return z;
        }
        free(az);
    }
    ty->oom = ty->oom || !z;
    return z;
}

/* The header `[precision] T[..] name(...)` in tokens [a, b) exactly (a macro's body): the name's token,
 * or b when the tokens are not one */
static size_t header_name(const tokens *tk, size_t a, size_t b)
{
    for (size_t i = a + 1; i + 1 < b; i++)
        if (tk->v[i].k == T_IDENT && is(tk, i + 1, "(") && close_paren(tk, i + 1) == b - 1) return i;
    return b;
}

/* The default return before the `}` at close, when the body from token start (its `{`, or the macro
 * name that opens it) has a return but does not end in one */
static void add_return(const tokens *tk, size_t start, size_t close, char *zero, defines *d, edits *ed)
{
    if (!zero) return;
    body_kind k = close < tk->n ? body_facts(tk, start, close, d) : RETURNS_UNSURE;
    if (k == RETURNS_CHOSEN || (k == RETURNS_PLAIN && !ends_in_return(tk, start, close)))
        add_edit(ed, tk->v[close].at, zero);
    else free(zero);
}

/* whether token i of tk is one of the parameters of the function-like macro m */
static bool macro_param(const tokens *tk, size_t i, const define *m)
{
    const char *t = tk->t, *nm = t + tk->v[i].at;
    size_t n = tk->v[i].n;
    for (size_t k = m->name + m->nlen; m->func && k < m->body; k++)
        if (ident_start(t[k]) && !ident_char(t[k - 1])) {
            size_t e = k;
            while (e < m->body && ident_char(t[e])) e++;
            if (e - k == n && !memcmp(t + k, nm, n)) return true;
            k = e;
        }
    return false;
}

/* A function's header made by the macro m used at token i of the text, alone (`H { ... }`, `FN(f) {
 * ... }`) or with its `{` (`BEGIN ... }`): the default return goes before the `}` in the text, the type
 * comes from the macro's body (not when it is one of the macro's parameters). The `}` that ends the body,
 * or tk->n when this is no such use. */
static size_t macro_header(const tokens *tk, size_t i, define *m, types *ty, defines *d, edits *ed)
{
    size_t after = i + 1, end = tk->n;
    if (m->func) {
        if (!is(tk, i + 1, "(") || (after = close_paren(tk, i + 1) + 1) == i + 2) return tk->n;
    }
    tokens bt = { 0 };
    if (!tokenise_range(&bt, tk->t, m->body, m->end, false)) {
        ed->e.oom = true;
        return tk->n;
    }
    bool brace = bt.n && is(&bt, bt.n - 1, "{");
    size_t nb = bt.n - brace, name = bt.n ? header_name(&bt, 0, nb) : nb;
    if (name < nb && (brace || is(tk, after, "{"))) {
        size_t start = brace ? after - 1 : after;
        end = body_end(tk, start + 1, 1, d);
        size_t t = is(&bt, name - 1, "]") ? 0 : name - 1; /* an array's type: its size may be a parameter */
        bool param = false;
        for (; t < name; t++) param = param || (bt.v[t].k == T_IDENT && macro_param(&bt, t, m));
        add_return(tk, start, end, param ? NULL : return_zero(&bt, name, ty), d, ed);
    }
    free(bt.v);
    return end;
}

/* The functions defined at global scope of tk (the text with its #defines d, or a macro's body with d
 * NULL): each non-void one gets ANGLE's default return, its header written out or made by a macro. */
static void returns_scan(const tokens *tk, types *ty, defines *d, edits *ed)
{
    int depth = 0;
    for (size_t i = 0; i < tk->n && !ty->oom && !ed->e.oom; i++) {
        define *m = depth == 0 && d ? find_define(tk, i, d) : NULL;
        if (m) {
            size_t end = macro_header(tk, i, m, ty, d, ed);
            if (end < tk->n) {
                i = end;
                continue;
            }
        }
        if (depth == 0 && tk->v[i].k == T_IDENT && is(tk, i + 1, "(")) {
            size_t close = close_paren(tk, i + 1);
            if (close != i + 1 && is(tk, close + 1, "{")) {
                size_t end = body_end(tk, close + 1, 0, d);
                add_return(tk, close + 1, end, return_zero(tk, i, ty), d, ed);
                if (end < tk->n) {
                    i = end;
                    continue;
                }
            }
        }
        depth += brace_step(tk, i, d);
        if (depth < 0) depth = 0;
    }
}

char *iks_default_returns(const char *text)
{
    rewrite rw;
    char *out = NULL;
    if (prepare(&rw, text)) {
        tokens *tk = &rw.tk;
        defines *d = &rw.d;
        for (size_t i = 0; i < tk->n; i++)
            if (is(tk, i, "struct")) learn_struct(tk, i, &rw.ty);
        /* each macro's braces and returns, from its tokens (a brace in a comment on its line is none);
         * then a function defined whole in a macro's body (`#define F float f(float x) { ... }`) gets its
         * return there, and every expansion carries it */
        for (size_t k = 0; k < d->n && !rw.ed.e.oom; k++) {
            tokens bt = { 0 };
            if (!tokenise_range(&bt, text, d->v[k].body, d->v[k].end, false)) rw.ed.e.oom = true;
            for (size_t j = 0; j < bt.n; j++) {
                d->v[k].braces += is(&bt, j, "{") - is(&bt, j, "}");
                d->v[k].returns = d->v[k].returns || is(&bt, j, "return");
            }
            free(bt.v);
        }
        returns_scan(tk, &rw.ty, d, &rw.ed);
        for (size_t k = 0; k < d->n && !rw.ty.oom && !rw.ed.e.oom; k++) {
            tokens bt = { 0 };
            if (!tokenise_range(&bt, text, d->v[k].body, d->v[k].end, false)) rw.ed.e.oom = true;
            else returns_scan(&bt, &rw.ty, NULL, &rw.ed);
            free(bt.v);
        }
        if (!rw.ty.oom) out = iks_edits_apply(&rw.ed.e, text, rw.len);
    }
    release(&rw);
    return out;
}

/* ---- token gluing ---------------------------------------------------------------------------------- */

/* Mesa's preprocessor prints a function-like macro's expansion right after the token before the call:
 * `-D2R(-90.0)` with `#define D2R(a) a*k` reaches the compiler as `--90.0*k`, a decrement, where a C
 * preprocessor (and the site's) keeps two minus signs. A space before such a call keeps them apart, and
 * a space changes nothing else. */
char *iks_space_macro_calls(const char *text)
{
    size_t len = strlen(text);
    /* the names of function-like macros: `#define NAME(` with no space before the parenthesis */
    tokens names = { .t = text, .len = len };
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const char *q = iks_tok_define_name(p);
        if (!q) continue;
        const char *nm = q;
        while (ident_char(*q)) q++;
        if (q == nm || *q != '(' || !ident_start(*nm)) continue;
        if (!IKS_GROW(names.v, names.n + 1, names.cap)) {
            free(names.v);
            return NULL;
        }
        names.v[names.n++] = (token){ T_IDENT, (size_t)(nm - text), (size_t)(q - nm) };
    }
    iks_sbuf b = { 0 };
    size_t from = 0;
    for (size_t i = 0; names.n && i < len;) {
        char c = text[i];
        size_t after = skip_comment(text, len, i);
        if (after != i) {
            i = after;
            continue;
        }
        if (!ident_start(c) || (i > 0 && ident_char(text[i - 1]))) {
            i++;
            continue;
        }
        size_t n = 1;
        while (i + n < len && ident_char(text[i + n])) n++;
        size_t k = i + n;
        while (k < len && (text[k] == ' ' || text[k] == '\t')) k++;
        bool call = k < len && text[k] == '(' && i > 0 && strchr("-+&|=!<>*/%^", text[i - 1]);
        for (size_t m = 0; call && m < names.n; m++) {
            if (names.v[m].n != n || memcmp(text + names.v[m].at, text + i, n) != 0) continue;
            iks_sbuf_add(&b, text + from, i - from);
            iks_sbuf_add(&b, " ", 1);
            from = i;
            break;
        }
        i += n;
    }
    free(names.v);
    iks_sbuf_add(&b, text + from, len - from);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s ? b.s : strdup(text);
}
