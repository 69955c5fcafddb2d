/* indexclamp.c: WebGL's clamping of dynamic indices, as source text. The site's shader translator
 * (ANGLE) rewrites every index that is not a constant expression into `clamp(int(i), 0, N - 1)`, for
 * arrays, vectors and matrices, reads and writes alike: a write `c[i]` past a vec3's end lands on c.z,
 * a read `perm[k]` past 255 reads perm[255]. GLSL leaves both undefined and Mesa writes nothing or
 * reads whatever lies there; real toys depend on the site's answer.
 *
 * A token scan, as zeroinit.c is: it follows declarations (statements, a `for`'s init, a function's
 * parameters, the prelude's uniforms) with their scopes, so it knows which names are arrays,
 * vectors and matrices, and how long each is; then a postfix chain that starts at such a name
 * (`a[i]`, `m[i][j]`, `pts[i].xy[k]`) has each of its non-constant indices wrapped. The index is
 * written once inside clamp(), so its side effects happen once (`a[i++]`); int() takes a uint index as
 * ANGLE does. The length is a literal where the declaration gives one, else the array's `.length()`,
 * which is a constant and evaluates nothing. Indices made only of literals, `const` names and
 * object-like macros are constant and left alone (ANGLE leaves them too; out of range they are a
 * compile error anyway).
 * Struct members are followed too (`s.v[i]`, `ps[i].v[j]`), where the member's array has a literal
 * size. Not seen, and so left as written: a base that is not a declared name (a function's result, a
 * parenthesis), a member array of a named size, names declared with a type the scan does not know (made by
 * a function-like macro) or inside a macro's body, and indices written inside a macro's body.
 * Insertions only, never a newline: lines stay where they were. Text only, no GL. */
#include "glsl/source.h"
#include "glsl/gltok.h"
#include "glsl/uniforms.h"
#include "base/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what a name or a step of a chain is: `vecN` (dim N), `matCxR` (cols C of vecR), a scalar, or an
 * array of one of these (len: a literal length, or 0 when it is only known as NAME.length()) */
typedef struct {
    int dim;       /* components of a vector; 0: not a vector */
    int cols, rows; /* a matrix; 0: not one */
    bool array;
    bool elem;       /* an array whose elements' type is known (else only its own index is followed) */
    long len;        /* an array's literal length; 0: unknown (then lenof names it) */
    const char *lenof; /* the declared name whose .length() gives it, lenof_n long */
    size_t lenof_n;
    bool known;      /* the scan knows the type at all (an unknown one shadows, and stops a chain) */
    size_t st;       /* a struct: 1 + its index in the scan's structs (its members are followed) */
} vtype;

/* a struct's member: which struct (1 + index), its name and type */
typedef struct {
    size_t st;
    const char *name;
    size_t n;
    vtype t;
} member;

typedef struct {
    const char *name; /* in the text (or the prelude's names) */
    size_t n;
    int depth;        /* the brace depth it lives at */
    vtype t;
} sym;

typedef iks_edits edits;

static bool is(const iks_tokens *tk, size_t i, const char *s) { return iks_tok_is(tk, i, s); }
static bool ident(const iks_tokens *tk, size_t i) { return i < tk->n && tk->v[i].k == IKS_TOK_IDENT; }
static bool same(const char *t, size_t a, size_t an, size_t b, size_t bn) { return an == bn && !memcmp(t + a, t + b, an); }

static void add_edit(edits *ed, size_t at, const char *text) { iks_edits_add(ed, at, strdup(text)); }

/* the type named by the text t[at, at+n): GLSL's own, with its size */
static vtype builtin_type(const char *t, size_t n)
{
    vtype v = { 0 };
    char s[16];
    if (n >= sizeof s) return v;
    memcpy(s, t, n);
    s[n] = '\0';
    if (!strcmp(s, "float") || !strcmp(s, "int") || !strcmp(s, "uint") || !strcmp(s, "bool")) {
        v.known = true;
        return v;
    }
    const char *p = s;
    if (*p == 'i' || *p == 'u' || *p == 'b' || *p == 'd') p++;
    if (!strncmp(p, "vec", 3) && p[3] >= '2' && p[3] <= '4' && !p[4]) {
        v.known = true;
        v.dim = p[3] - '0';
        return v;
    }
    if (p == s && !strncmp(s, "mat", 3) && s[3] >= '2' && s[3] <= '4') {
        int c = s[3] - '0', r = c;
        if (s[4] == 'x' && s[5] >= '2' && s[5] <= '4' && !s[6]) r = s[5] - '0';
        else if (s[4]) return v;
        v.cols = c, v.rows = r;
        v.known = true;
        return v;
    }
    return v;
}

/* `#define NAME TYPE` lines, as zeroinit.c reads them: NAME is that type (shaders shorten vec3 so) */
typedef struct {
    size_t name, n;
    vtype t;
} alias;

typedef struct {
    alias *v;
    size_t n, cap;
} aliases;

static bool learn_defines(const char *t, aliases *al, iks_tokens *consts)
{
    for (const char *p = t; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const char *q = iks_tok_define_name(p);
        if (!q) continue;
        const char *name = q;
        while (iks_tok_ident_char(*q)) q++;
        size_t nlen = (size_t)(q - name);
        if (!nlen || *q == '(') continue;
        /* an object-like macro: a constant in an index (its body is whatever it is: ANGLE decides by
         * the expansion, and a non-constant one clamped or not is read the same where it is in range) */
        if (!IKS_GROW(consts->v, consts->n + 1, consts->cap)) return false;
        consts->v[consts->n++] = (iks_token){ IKS_TOK_IDENT, (size_t)(name - t), nlen };
        while (*q == ' ' || *q == '\t') q++;
        const char *tn = q;
        while (iks_tok_ident_char(*q)) q++;
        size_t tlen = (size_t)(q - tn);
        while (*q == ' ' || *q == '\t') q++;
        if (!tlen || (*q != '\n' && *q != '\0' && *q != '\r')) continue;
        vtype ty = builtin_type(tn, tlen);
        for (size_t k = 0; !ty.known && k < al->n; k++)
            if (same(t, al->v[k].name, al->v[k].n, (size_t)(tn - t), tlen)) ty = al->v[k].t;
        if (!ty.known) continue;
        if (!IKS_GROW(al->v, al->n + 1, al->cap)) return false;
        al->v[al->n++] = (alias){ (size_t)(name - t), nlen, ty };
    }
    return true;
}

typedef struct {
    const iks_tokens *tk;
    aliases al;
    iks_tokens structs; /* names of structs declared so far */
    member *mem;        /* their members */
    size_t nmem, capmem;
    iks_tokens consts;  /* const names and object-like macros */
    sym *v;             /* the declared names in scope, innermost last */
    size_t nv, cap;
    bool oom;
} scan;

/* the type named by token i, or !known when token i names none the scan knows. *is_type: whether it
 * names a type at all (a struct's name is a type of unknown shape) */
static vtype type_at(const scan *s, size_t i, bool *is_type)
{
    vtype v = { 0 };
    *is_type = false;
    if (!ident(s->tk, i)) return v;
    const char *t = s->tk->t;
    size_t at = s->tk->v[i].at, n = s->tk->v[i].n;
    v = builtin_type(t + at, n);
    for (size_t k = s->al.n; !v.known && k-- > 0;)
        if (same(t, s->al.v[k].name, s->al.v[k].n, at, n)) v = s->al.v[k].t;
    *is_type = v.known;
    for (size_t k = s->structs.n; !*is_type && k-- > 0;)
        if (same(t, s->structs.v[k].at, s->structs.v[k].n, at, n)) {
            *is_type = v.known = true;
            v.st = k + 1;
        }
    return v;
}

static const sym *lookup(const scan *s, size_t i)
{
    const char *t = s->tk->t;
    size_t n = s->tk->v[i].n;
    for (size_t k = s->nv; k-- > 0;)
        if (s->v[k].n == n && !memcmp(s->v[k].name, t + s->tk->v[i].at, n)) return &s->v[k];
    return NULL;
}

static void push(scan *s, size_t name_tok, int depth, vtype t)
{
    if (!IKS_GROW(s->v, s->nv + 1, s->cap)) {
        s->oom = true;
        return;
    }
    s->v[s->nv++] = (sym){ s->tk->t + s->tk->v[name_tok].at, s->tk->v[name_tok].n, depth, t };
}

static bool is_const_name(const scan *s, size_t i)
{
    for (size_t k = 0; k < s->consts.n; k++)
        if (same(s->tk->t, s->consts.v[k].at, s->consts.v[k].n, s->tk->v[i].at, s->tk->v[i].n)) return true;
    return false;
}

/* the token of the `]` (`)`) that closes the `[` (`(`) at i; tk->n when none */
static size_t closing(const iks_tokens *tk, size_t i)
{
    int depth = 0;
    for (size_t j = i; j < tk->n; j++) {
        if (is(tk, j, "(") || is(tk, j, "[") || is(tk, j, "{")) depth++;
        else if ((is(tk, j, ")") || is(tk, j, "]") || is(tk, j, "}")) && --depth == 0) return j;
    }
    return tk->n;
}

/* an array's size `[ ... ]` at token i: the literal, 0 when it is not one (or empty) */
static long size_literal(const iks_tokens *tk, size_t i)
{
    if (!(i + 2 < tk->n && tk->v[i + 1].k == IKS_TOK_NUMBER && is(tk, i + 2, "]"))) return 0;
    char num[32];
    size_t n = tk->v[i + 1].n < sizeof num - 1 ? tk->v[i + 1].n : sizeof num - 1;
    memcpy(num, tk->t + tk->v[i + 1].at, n);
    num[n] = '\0';
    char *e;
    long v = strtol(num, &e, 10);
    return (*e == '\0' || ((*e == 'u' || *e == 'U') && !e[1])) && num[0] != '0' && v > 0 ? v : 0;
}

/* The members of the struct whose body opens at token i (on "{"), as struct number st: each
 * `[precision] TYPE name[N], ...;` of a type the scan knows (an array member only with a literal size:
 * its .length() would need the whole base written again) */
static void learn_members(scan *s, size_t i, size_t st)
{
    const iks_tokens *tk = s->tk;
    size_t end = closing(tk, i);
    for (size_t j = i + 1; j < end && !s->oom;) {
        while (is(tk, j, "highp") || is(tk, j, "mediump") || is(tk, j, "lowp")) j++;
        bool is_type;
        vtype t = type_at(s, j, &is_type);
        size_t semi = j;
        while (semi < end && !is(tk, semi, ";")) semi++;
        if (is_type) {
            j++;
            if (is(tk, j, "[")) { /* float[3] a; */
                t.elem = t.known, t.known = t.array = true;
                t.len = size_literal(tk, j);
                if (!t.len) t.known = false;
                j = closing(tk, j) + 1;
            }
            while (j < semi && ident(tk, j)) {
                vtype m = t;
                size_t name = j++;
                if (is(tk, j, "[")) {
                    m.elem = m.known && !m.array, m.known = !m.array, m.array = true;
                    m.len = size_literal(tk, j);
                    if (!m.len) m.known = false;
                    j = closing(tk, j) + 1;
                }
                if (!IKS_GROW(s->mem, s->nmem + 1, s->capmem)) {
                    s->oom = true;
                    return;
                }
                s->mem[s->nmem++] = (member){ st, tk->t + tk->v[name].at, tk->v[name].n, m };
                if (is(tk, j, ",")) j++;
            }
        }
        j = semi + 1;
    }
}

/* Declarators from token j (after the type, and its `[N]` when pre is an array): `name [N]? (= init)?`
 * separated by commas, up to `;` or `)` at depth 0 or, for parameters (one_only), the first. Each name
 * is put in scope at depth and its token marked in decl. Returns the token after the last. */
static size_t declarators(scan *s, size_t j, vtype pre, int depth, bool one_only, bool *decl)
{
    const iks_tokens *tk = s->tk;
    for (;;) {
        if (!ident(tk, j)) return j;
        size_t name = j++;
        vtype t = pre;
        if (is(tk, j, "[")) {
            size_t c = closing(tk, j);
            bool twice = t.array;
            t.elem = t.known;
            t.known = true;
            t.array = true;
            t.len = size_literal(tk, j);
            j = c + 1;
            if (twice || is(tk, j, "[")) t.known = false; /* arrays of arrays: ES 3.1; not followed */
        }
        if (t.array && !t.len) t.lenof = tk->t + tk->v[name].at, t.lenof_n = tk->v[name].n;
        push(s, name, depth, t);
        decl[name] = true;
        if (is(tk, j, "=")) {
            /* the initialiser: to the `,` or `;` at depth 0 */
            int d = 0;
            for (j++; j < tk->n; j++) {
                if (is(tk, j, "(") || is(tk, j, "[") || is(tk, j, "{")) d++;
                else if (is(tk, j, ")") || is(tk, j, "]") || is(tk, j, "}")) {
                    if (--d < 0) break;
                } else if (d == 0 && (is(tk, j, ",") || is(tk, j, ";"))) break;
            }
        }
        if (one_only || !is(tk, j, ",")) return j;
        j++;
    }
}

static bool qualifier(const iks_tokens *tk, size_t i)
{
    static const char *const Q[] = { "const", "uniform", "in", "out", "inout", "highp", "mediump", "lowp",
                                     "precise", "flat", "smooth", "centroid", "invariant" };
    for (size_t k = 0; k < sizeof Q / sizeof Q[0]; k++)
        if (is(tk, i, Q[k])) return true;
    return false;
}

/* A declaration at token i (qualifiers, a type, declarators): its names put in scope. Returns the
 * token after it, or i when it is none. *is_const: it began with const. */
static size_t declaration(scan *s, size_t i, int depth, bool one_only, bool *decl, bool *is_const)
{
    const iks_tokens *tk = s->tk;
    size_t j = i;
    *is_const = false;
    while (qualifier(tk, j)) *is_const |= is(tk, j++, "const");
    bool is_type;
    vtype t = type_at(s, j, &is_type);
    if (!is_type) return i;
    j++;
    if (is(tk, j, "[")) { /* float[3] a */
        t.elem = t.known;
        t.known = true;
        t.array = true;
        t.len = size_literal(tk, j);
        j = closing(tk, j) + 1;
    }
    if (!ident(tk, j) || is(tk, j + 1, "(")) return i; /* a function, or no name */
    size_t first = j;
    size_t end = declarators(s, j, t, depth, one_only, decl);
    if (*is_const && !one_only) /* a const parameter is no constant expression */
        for (size_t k = first; k < end; k++)
            if (decl[k] && IKS_GROW(s->consts.v, s->consts.n + 1, s->consts.cap)) s->consts.v[s->consts.n++] = tk->v[k];
    return end;
}

/* whether the index between [ at a and ] at b is a constant expression: literals, operators, const
 * names and object-like macros, the constructors int() and uint() */
static bool constant_index(const scan *s, size_t a, size_t b)
{
    const iks_tokens *tk = s->tk;
    if (b <= a + 1) return true;
    for (size_t k = a + 1; k < b; k++) {
        if (tk->v[k].k == IKS_TOK_NUMBER) continue;
        if (tk->v[k].k == IKS_TOK_PUNCT) {
            if (strchr("+-*/%()<>&|^~?:!=", tk->t[tk->v[k].at])) continue;
            return false;
        }
        if (is(tk, k, "int") || is(tk, k, "uint") || is_const_name(s, k)) continue;
        return false;
    }
    return true;
}

static bool swizzle(const char *p, size_t n)
{
    static const char *const SETS[] = { "xyzw", "rgba", "stpq" };
    if (n < 1 || n > 4) return false;
    for (int k = 0; k < 3; k++) {
        size_t m = 0;
        while (m < n && strchr(SETS[k], p[m])) m++;
        if (m == n) return true;
    }
    return false;
}

/* The postfix chain that starts at name token i: each `[index]` on a known array, vector or matrix
 * with a non-constant index gets its clamp */
static void chain(const scan *s, size_t i, const sym *sy, edits *ed)
{
    const iks_tokens *tk = s->tk;
    vtype t = sy->t;
    size_t j = i + 1;
    while (t.known && j < tk->n) {
        if (is(tk, j, ".") && ident(tk, j + 1) && !t.array && t.dim && swizzle(tk->t + tk->v[j + 1].at, tk->v[j + 1].n)) {
            size_t n = tk->v[j + 1].n;
            t = (vtype){ .known = true, .dim = n > 1 ? (int)n : 0 };
            j += 2;
            continue;
        }
        if (is(tk, j, ".") && ident(tk, j + 1) && !t.array && t.st) { /* a struct's member */
            const member *m = NULL;
            for (size_t k = 0; k < s->nmem && !m; k++)
                if (s->mem[k].st == t.st && s->mem[k].n == tk->v[j + 1].n &&
                    !memcmp(s->mem[k].name, tk->t + tk->v[j + 1].at, s->mem[k].n))
                    m = &s->mem[k];
            if (!m) return;
            t = m->t;
            j += 2;
            continue;
        }
        if (!is(tk, j, "[")) return;
        size_t c = closing(tk, j);
        if (c >= tk->n) return;
        char len[160];
        vtype next = { .known = true };
        if (t.array) {
            if (t.len) snprintf(len, sizeof len, "%ld", t.len - 1);
            else if (t.lenof_n < 100) snprintf(len, sizeof len, "%.*s.length() - 1", (int)t.lenof_n, t.lenof);
            else return; /* a name too long to write here: left as written */
            next = t;
            next.array = false, next.len = 0, next.lenof_n = 0;
            next.known = t.elem;
        } else if (t.cols) {
            snprintf(len, sizeof len, "%d", t.cols - 1);
            next.dim = t.rows;
        } else if (t.dim) {
            snprintf(len, sizeof len, "%d", t.dim - 1);
        } else return;
        if (!constant_index(s, j, c)) {
            char tail[200];
            snprintf(tail, sizeof tail, "), 0, %s)", len);
            add_edit(ed, tk->v[j].at + 1, "clamp(int(");
            add_edit(ed, tk->v[c].at, tail);
        }
        t = next;
        j = c + 1;
    }
}

/* the prelude's uniforms, from the one list (glsl/uniforms.h): their types, so that a toy's
 * `iResolution[i]` or `iChannelResolution[i]` is clamped too */
#define IKS_PRELUDE_ROW(id, name, type, array, up, from, doc) { name, type, array },
static const struct {
    const char *name, *type, *array;
} PRELUDE[] = { IKS_UNIFORMS_COMMON(IKS_PRELUDE_ROW) };
#undef IKS_PRELUDE_ROW

static vtype prelude_type(size_t k)
{
    vtype t = builtin_type(PRELUDE[k].type, strlen(PRELUDE[k].type));
    if (PRELUDE[k].array[0] == '[') {
        t.elem = t.known;
        t.known = t.array = true;
        t.len = strtol(PRELUDE[k].array + 1, NULL, 10);
    }
    return t;
}

char *iks_clamp_indices(const char *text)
{
    size_t len = strlen(text);
    iks_tokens tk = { 0 };
    scan s = { .tk = &tk };
    edits ed = { 0 };
    bool *decl = NULL;
    char *out = NULL;
    if (!iks_tok_range(&tk, text, 0, len, true) || !learn_defines(text, &s.al, &s.consts)) goto done;
    decl = calloc(tk.n + 1, sizeof *decl);
    if (!decl) goto done;
    /* the prelude's names at depth -1, under everything the text declares */
    for (size_t k = 0; k < sizeof PRELUDE / sizeof PRELUDE[0]; k++) {
        if (!IKS_GROW(s.v, s.nv + 1, s.cap)) goto done;
        s.v[s.nv++] = (sym){ PRELUDE[k].name, strlen(PRELUDE[k].name), -1, prelude_type(k) };
    }
    int brace = 0, paren = 0;
    bool start = true;
    size_t params_from = 0, params_to = 0; /* the symbols of a function's parameters, until its { */
    bool params = false;
    for (size_t i = 0; i < tk.n && !s.oom && !ed.oom;) {
        if (start && paren == 0 && is(&tk, i, "struct")) {
            /* a struct's name is a type; its members are not names in scope */
            size_t j = i + 1;
            while (j < tk.n && !is(&tk, j, "{") && !is(&tk, j, ";")) j++;
            if (ident(&tk, i + 1) && is(&tk, i + 2, "{")) {
                if (!IKS_GROW(s.structs.v, s.structs.n + 1, s.structs.cap)) goto done;
                s.structs.v[s.structs.n++] = tk.v[i + 1];
                learn_members(&s, i + 2, s.structs.n);
            }
            if (is(&tk, j, "{")) j = closing(&tk, j) + 1;
            /* `struct S { ... } s;`: its variables, of a type not followed */
            i = ident(&tk, j) ? declarators(&s, j, (vtype){ 0 }, brace, false, decl) : j;
            start = false;
            continue;
        }
        if (start && paren == 0) {
            bool c;
            /* the declaration's names go in scope; the walk goes on through it (initialisers index too) */
            if (declaration(&s, i, brace, false, decl, &c) != i) {
                i++;
                start = false;
                continue;
            }
            /* a function's header at global scope: its parameters live in its body */
            if (brace == 0 && ident(&tk, i) && ident(&tk, i + 1) && is(&tk, i + 2, "(")) {
                size_t close = closing(&tk, i + 2);
                params_from = s.nv;
                for (size_t j = i + 3; j < close && !s.oom;) {
                    size_t e = declaration(&s, j, 1, true, decl, &c);
                    j = e == j ? j + 1 : e;
                    while (j < close && !is(&tk, j, ",")) j++;
                    j++;
                }
                params_to = s.nv;
                params = true;
                i = close < tk.n ? close + 1 : close;
                start = false;
                if (!is(&tk, i, "{")) { /* a prototype */
                    s.nv = params_from;
                    params = false;
                }
                continue;
            }
        }
        if (is(&tk, i, "for") && is(&tk, i + 1, "(")) {
            bool c;
            declaration(&s, i + 2, brace + 1, false, decl, &c);
        }
        if (ident(&tk, i) && !decl[i] && !(i > 0 && is(&tk, i - 1, "."))) {
            const sym *sy = lookup(&s, i);
            if (sy && sy->t.known && (sy->t.array || sy->t.dim || sy->t.cols || sy->t.st)) chain(&s, i, sy, &ed);
        }
        if (is(&tk, i, "(")) paren++;
        else if (is(&tk, i, ")")) paren -= paren > 0;
        else if (is(&tk, i, "{")) {
            brace++;
            if (params) { /* the parameters are this body's */
                for (size_t k = params_from; k < params_to; k++) s.v[k].depth = brace;
                params = false;
            }
        } else if (is(&tk, i, "}")) {
            brace -= brace > 0;
            while (s.nv && s.v[s.nv - 1].depth > brace) s.nv--;
        }
        start = paren == 0 && (is(&tk, i, ";") || is(&tk, i, "{") || is(&tk, i, "}"));
        i++;
    }
    if (s.oom) goto done;
    out = iks_edits_apply(&ed, text, len);
done:
    iks_edits_free(&ed);
    free(decl);
    free(tk.v);
    free(s.al.v);
    free(s.structs.v);
    free(s.mem);
    free(s.consts.v);
    free(s.v);
    return out;
}
