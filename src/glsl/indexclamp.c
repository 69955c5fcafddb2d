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
 * Struct members are followed too (`s.v[i]`, `ps[i].v[j]`). A member array's length is its literal, or
 * else its size expression written again (`int(N * 2) - 1`) when every name in it is a stable constant:
 * a file-scope `const` that nothing else in the whole text declares (no local, parameter, member,
 * function, macro), or an object-like macro defined once, never #undef'd, of such an expression. The
 * compiler then computes the very value the declaration has; evaluating it here would be a second
 * reading of GLSL's integer arithmetic that could disagree, and .length() would need the base written
 * twice (its indices evaluated twice). int() takes a uint size as it takes a uint index.
 * Indices written in a #define's body are rewritten in place when the chain's base means the same
 * wherever the macro is expanded: not a parameter, no macro of that name, and every declaration of the
 * name in the whole text is one the scan typed, all the same vector or matrix or all arrays of one
 * element type (of any lengths: NAME.length(), which GLSL has for arrays only). A declaration the scan
 * cannot type anywhere (a type it does not know, a struct's member, a macro's body, an argument of a
 * macro that declares its parameter) leaves the name unknown. A member or swizzle named by a parameter
 * ends the chain, and a size that names a parameter leaves that index; a body with # or ## is left.
 * Not seen, and so left as written: a base that is not a declared name (a function's result, a
 * parenthesis), a member array sized otherwise (a call, a local const, a shadowed or redefined name),
 * names declared with a type the scan does not know (made by a function-like macro) or inside a macro's
 * body, and arrays of arrays (the site's GLSL ES 3.00 has none).
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
    const char *lenx; /* a member array's size as written (`N * 2`), lenx_n long: its names are constants
                       * that mean the same everywhere, so the compiler computes it again where it is used */
    size_t lenx_n;
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

/* A `#define`: its name, parameters and body (tokens of macros.body), for the rewrite of indices written
 * in bodies and for knowing which names a macro may change */
typedef struct {
    size_t name, n;
    bool func, bad;    /* bad: parameters this scan cannot read (the body is left as written) */
    iks_tokens params; /* a function-like macro's parameters */
    size_t tok0, tok1; /* its body's tokens in macros.body */
} macro;

struct macros {
    macro *v;
    size_t n, cap;
    iks_tokens body;   /* every body's tokens, each macro's a run of them */
    bool *bdecl;       /* per body token: it reads as a name being declared */
    iks_tokens undefs; /* the names of `#undef` lines */
};

static void macros_free(struct macros *m)
{
    for (size_t k = 0; k < m->n; k++) free(m->v[k].params.v);
    free(m->v);
    free(m->body.v);
    free(m->bdecl);
    free(m->undefs.v);
}

/* Per token of tk[from, to): whether it reads as a name being declared. After a name other than return,
 * case, else and do (a type: `vec3 c`, `in float x`, `Made m`, `struct S`), after `]` (`float[3] a`),
 * after a comma outside parentheses or in a for's init (`int a, b`). Syntax only, so a type the scan
 * does not know counts too: that is what makes it a safe test of whether a name means one thing. */
static void mark_declares(const iks_tokens *tk, size_t from, size_t to, bool *out)
{
    int depth = 0, forinit = -1;
    for (size_t k = from; k < to; k++) {
        out[k] = false;
        if (ident(tk, k) && k > from) {
            size_t p = k - 1;
            if (ident(tk, p))
                out[k] = !is(tk, p, "return") && !is(tk, p, "case") && !is(tk, p, "else") && !is(tk, p, "do");
            else if (is(tk, p, "]")) out[k] = true;
            else if (is(tk, p, ",")) out[k] = depth == 0 || depth == forinit;
        }
        if (is(tk, k, "(") || is(tk, k, "[")) {
            if (is(tk, k, "(") && k > from && is(tk, k - 1, "for")) forinit = depth + 1;
            depth++;
        } else if (is(tk, k, ")") || is(tk, k, "]")) {
            depth--;
            if (depth < forinit) forinit = -1;
        } else if (is(tk, k, ";") && depth == forinit) forinit = -1;
    }
}

/* The names a function-like macro may declare where it is called (`#define V(n) vec3 n` then `V(c);`)
 * are not where mark_declares() would see them: every name in the call's parentheses is taken as
 * declared there, in the code and in other bodies. A macro declares so when a parameter reads as
 * declared in its body, or its body calls one that does (followed to a fixed point). */
static void mark_macro_declares(const struct macros *m, const iks_tokens *tk, bool *declike, bool *bdecl)
{
    bool *dm = calloc(m->n + 1, sizeof *dm);
    if (!dm) {
        /* without the list, every name counts as declared: nothing in a body is rewritten */
        for (size_t k = 0; k < tk->n; k++) declike[k] = true;
        for (size_t k = 0; k < m->body.n; k++) bdecl[k] = true;
        return;
    }
    for (bool more = true; more;) {
        more = false;
        for (size_t i = 0; i < m->n; i++) {
            const macro *mc = &m->v[i];
            if (dm[i] || !mc->func || !mc->params.n) continue;
            for (size_t k = mc->tok0; k < mc->tok1 && !dm[i]; k++) {
                if (!ident(&m->body, k)) continue;
                for (size_t p = 0; p < mc->params.n && !dm[i]; p++)
                    dm[i] = bdecl[k] && same(m->body.t, mc->params.v[p].at, mc->params.v[p].n, m->body.v[k].at, m->body.v[k].n);
                for (size_t j = 0; j < m->n && !dm[i]; j++)
                    dm[i] = dm[j] && same(m->body.t, m->v[j].name, m->v[j].n, m->body.v[k].at, m->body.v[k].n);
            }
            more |= dm[i];
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        const iks_tokens *in = pass ? &m->body : tk;
        bool *out = pass ? bdecl : declike;
        for (size_t k = 0; k + 1 < in->n; k++) {
            bool call = false;
            for (size_t j = 0; j < m->n && !call; j++)
                call = dm[j] && is(in, k + 1, "(") && same(in->t, m->v[j].name, m->v[j].n, in->v[k].at, in->v[k].n);
            if (!call) continue;
            /* to its `)`, or on past a body's end (a call a body opens closes after it): marking more
             * only leaves more as written */
            int depth = 0;
            for (size_t j = k + 1; j < in->n; j++) {
                depth += is(in, j, "(") - is(in, j, ")");
                if (ident(in, j)) out[j] = true;
                if (depth <= 0) break;
            }
        }
    }
    free(dm);
}

/* the `#define` and `#undef` lines of t */
static bool learn_macros(const char *t, struct macros *m)
{
    m->body.t = m->undefs.t = t;
    for (const char *p = t; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const char *q = iks_tok_define_name(p);
        if (!q) {
            /* `#undef NAME` */
            q = p;
            while (*q == ' ' || *q == '\t') q++;
            if (*q++ != '#') continue;
            while (*q == ' ' || *q == '\t') q++;
            if (strncmp(q, "undef", 5) != 0 || (q[5] != ' ' && q[5] != '\t')) continue;
            for (q += 5; *q == ' ' || *q == '\t';) q++;
            const char *nm = q;
            while (iks_tok_ident_char(*q)) q++;
            if (q == nm) continue;
            if (!IKS_GROW(m->undefs.v, m->undefs.n + 1, m->undefs.cap)) return false;
            m->undefs.v[m->undefs.n++] = (iks_token){ IKS_TOK_IDENT, (size_t)(nm - t), (size_t)(q - nm) };
            continue;
        }
        const char *nm = q;
        while (iks_tok_ident_char(*q)) q++;
        if (q == nm) continue;
        macro mc = { .name = (size_t)(nm - t), .n = (size_t)(q - nm), .func = *q == '(' };
        mc.params.t = t;
        if (mc.func) {
            for (q++;;) {
                while (*q == ' ' || *q == '\t') q++;
                const char *a = q;
                while (iks_tok_ident_char(*q)) q++;
                if (q > a) {
                    if (!IKS_GROW(mc.params.v, mc.params.n + 1, mc.params.cap)) {
                        free(mc.params.v);
                        return false;
                    }
                    mc.params.v[mc.params.n++] = (iks_token){ IKS_TOK_IDENT, (size_t)(a - t), (size_t)(q - a) };
                }
                while (*q == ' ' || *q == '\t') q++;
                if (*q == ',' && q > a) q++;
                else if (*q == ')') {
                    q++;
                    break;
                } else {
                    mc.bad = true;
                    break;
                }
            }
        }
        /* the body: to the end of the line, across splices */
        const char *e = q;
        while (*e && *e != '\n') {
            if (*e == '\\' && (e[1] == '\n' || (e[1] == '\r' && e[2] == '\n'))) e += e[1] == '\r' ? 3 : 2;
            else e++;
        }
        mc.tok0 = m->body.n;
        if (!iks_tok_range(&m->body, t, (size_t)(q - t), (size_t)(e - t), false) ||
            !IKS_GROW(m->v, m->n + 1, m->cap)) {
            free(mc.params.v);
            return false;
        }
        mc.tok1 = m->body.n;
        m->v[m->n++] = mc;
        p = e;
        if (!*p) break;
    }
    m->bdecl = calloc(m->body.n + 1, sizeof *m->bdecl);
    if (!m->bdecl) return false;
    for (size_t k = 0; k < m->n; k++) mark_declares(&m->body, m->v[k].tok0, m->v[k].tok1, m->bdecl);
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
    sym *all;           /* every declaration made, in or out of scope now (a macro body's base is checked
                         * against all of them: it is expanded wherever the macro is used) */
    size_t nall, capall;
    const bool *declike; /* per token: it reads as a name being declared (see declares()) */
    const bool *gconst;  /* per token: ... by a `const` statement at file scope */
    const struct macros *mac;
    const iks_tokens *params; /* in a macro's body: its parameters (what they stand for is unknown) */
    size_t *stable_left; /* stable_name() calls left: macros of many names each would make them exponential */
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
    if (!IKS_GROW(s->all, s->nall + 1, s->capall)) {
        s->oom = true;
        return;
    }
    s->all[s->nall++] = s->v[s->nv - 1];
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

static bool is_param(const scan *s, size_t i)
{
    for (size_t k = 0; s->params && k < s->params->n; k++)
        if (same(s->tk->t, s->params->v[k].at, s->params->v[k].n, s->tk->v[i].at, s->tk->v[i].n)) return true;
    return false;
}

/* whether the text t[at, at+n) names a parameter of the macro whose body is being read */
static bool names_param(const scan *s, const char *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        if (!iks_tok_ident_start(p[i]) || (i > 0 && iks_tok_ident_char(p[i - 1]))) {
            i++;
            continue;
        }
        size_t e = i;
        while (e < n && iks_tok_ident_char(p[e])) e++;
        for (size_t k = 0; s->params && k < s->params->n; k++)
            if (s->params->v[k].n == e - i && !memcmp(s->tk->t + s->params->v[k].at, p + i, e - i)) return true;
        i = e;
    }
    return false;
}

static bool listed(const iks_tokens *l, const char *t, const char *name, size_t n)
{
    for (size_t k = 0; k < l->n; k++)
        if (l->v[k].n == n && !memcmp(t + l->v[k].at, name, n)) return true;
    return false;
}

static bool stable_expr(const scan *s, const iks_tokens *tk, size_t a, size_t b, int depth);

/* Whether the name means one constant wherever it is written: a `const` at file scope that nothing else
 * declares (no local, parameter, member, function or macro of that name anywhere, in or out of a macro
 * body), or an object-like macro defined once, never #undef'd nor declared, whose body is such a
 * constant expression in turn. Then a size written with it can be written again at any use. */
static bool stable_name(const scan *s, const char *name, size_t n, int depth)
{
    const struct macros *m = s->mac;
    const char *t = s->tk->t;
    if (depth > 8 || !*s->stable_left || listed(&m->undefs, t, name, n)) return false;
    --*s->stable_left;
    size_t defs = 0;
    const macro *d = NULL;
    for (size_t k = 0; k < m->n; k++)
        if (m->v[k].n == n && !memcmp(t + m->v[k].name, name, n)) defs++, d = &m->v[k];
    for (size_t k = 0; k < m->body.n; k++)
        if (m->bdecl[k] && m->body.v[k].n == n && !memcmp(t + m->body.v[k].at, name, n)) return false;
    size_t decls = 0, last = 0;
    for (size_t k = 0; k < s->tk->n; k++)
        if (s->declike[k] && s->tk->v[k].n == n && !memcmp(t + s->tk->v[k].at, name, n)) decls++, last = k;
    if (defs) return defs == 1 && !d->func && !decls && stable_expr(s, &m->body, d->tok0, d->tok1, depth + 1);
    return decls == 1 && s->gconst[last];
}

/* tokens [a, b) of tk: literals, + - * / %, parentheses and stable names, and at least one token */
static bool stable_expr(const scan *s, const iks_tokens *tk, size_t a, size_t b, int depth)
{
    if (a >= b) return false;
    for (size_t k = a; k < b; k++) {
        if (tk->v[k].k == IKS_TOK_NUMBER) continue;
        if (tk->v[k].k == IKS_TOK_PUNCT) {
            if (strchr("+-*/%()", tk->t[tk->v[k].at])) continue;
            return false;
        }
        if (!stable_name(s, tk->t + tk->v[k].at, tk->v[k].n, depth)) return false;
    }
    return true;
}

/* A member array's size `[ ... ]` at token i, when no literal, as text the clamp can write again: one
 * line of a stable_expr. The compiler then computes the same value the declaration has, by its own
 * rules (an evaluation here would be a second reading of GLSL's arithmetic that could disagree). */
static bool size_expr(const scan *s, size_t i, vtype *t)
{
    const iks_tokens *tk = s->tk;
    size_t c = closing(tk, i);
    if (c >= tk->n || !stable_expr(s, tk, i + 1, c, 0)) return false;
    const char *a = tk->t + tk->v[i + 1].at, *b = tk->t + tk->v[c - 1].at + tk->v[c - 1].n;
    if (b - a > 100) return false;
    for (const char *p = a; p < b; p++)
        if (*p == '\n' || *p == '\r' || *p == '\\' || (*p == '/' && (p[1] == '/' || p[1] == '*'))) return false;
    t->lenx = a;
    t->lenx_n = (size_t)(b - a);
    return true;
}

/* The members of the struct whose body opens at token i (on "{"), as struct number st: each
 * `[precision] TYPE name[N], ...;` of a type the scan knows (an array member only with a literal size or
 * a size_expr(): its .length() would need the whole base written again) */
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
                if (!t.len && !size_expr(s, j, &t)) t.known = false;
                j = closing(tk, j) + 1;
            }
            while (j < semi && ident(tk, j)) {
                vtype m = t;
                size_t name = j++;
                if (is(tk, j, "[")) {
                    m.elem = m.known && !m.array, m.known = !m.array, m.array = true;
                    m.len = size_literal(tk, j);
                    if (m.known && !m.len && !size_expr(s, j, &m)) m.known = false;
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
        if (is_param(s, k)) return false; /* in a macro's body: whatever the argument is */
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
        if (is(tk, j, ".") && is_param(s, j + 1)) return; /* a member or swizzle a macro's argument names */
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
            else if (t.lenx_n) {
                if (names_param(s, t.lenx, t.lenx_n)) return; /* the size would read the macro's argument */
                snprintf(len, sizeof len, "int(%.*s) - 1", (int)t.lenx_n, t.lenx);
            }
            else if (t.lenof_n < 100) snprintf(len, sizeof len, "%.*s.length() - 1", (int)t.lenof_n, t.lenof);
            else return; /* a name too long to write here: left as written */
            next = t;
            next.array = false, next.len = 0, next.lenof_n = 0, next.lenx_n = 0;
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

/* per token of tk: declared by a `const` statement at file scope (outside every brace and parenthesis) */
static void mark_gconst(const iks_tokens *tk, const bool *declike, bool *out)
{
    int brace = 0, paren = 0;
    bool cst = false, start = true;
    for (size_t k = 0; k < tk->n; k++) {
        if (start) cst = brace == 0 && is(tk, k, "const");
        out[k] = declike[k] && cst && brace == 0 && paren == 0;
        if (is(tk, k, "(") || is(tk, k, "[")) paren++;
        else if (is(tk, k, ")") || is(tk, k, "]")) paren -= paren > 0;
        else if (is(tk, k, "{")) brace++;
        else if (is(tk, k, "}")) brace -= brace > 0;
        start = is(tk, k, ";") || is(tk, k, "{") || is(tk, k, "}");
    }
}

/* What the name means in a macro's body, which is expanded where the macro is used, not where it is
 * defined: known only when every declaration of the name in the whole text is one the scan typed (none
 * in a macro body, none of a type it does not know), no macro has that name, and all of them agree: the
 * same vector or matrix, or arrays of one element type (of any lengths: then NAME.length(), which is an
 * array's own wherever it is expanded). */
static bool body_base(const scan *s, const bool *decl, const char *name, size_t n, sym *out)
{
    const struct macros *m = s->mac;
    const char *t = s->tk->t;
    if (listed(&m->undefs, t, name, n)) return false;
    for (size_t k = 0; k < m->n; k++)
        if (m->v[k].n == n && !memcmp(t + m->v[k].name, name, n)) return false;
    for (size_t k = 0; k < m->body.n; k++)
        if (m->bdecl[k] && m->body.v[k].n == n && !memcmp(t + m->body.v[k].at, name, n)) return false;
    for (size_t k = 0; k < s->tk->n; k++)
        if (s->declike[k] && !decl[k] && s->tk->v[k].n == n && !memcmp(t + s->tk->v[k].at, name, n)) return false;
    vtype v = { 0 };
    bool any = false, one_len = true;
    for (size_t k = 0; k < s->nall; k++) {
        const sym *a = &s->all[k];
        if (a->n != n || memcmp(a->name, name, n)) continue;
        if (!a->t.known) return false;
        if (!any) {
            v = a->t;
            any = true;
            continue;
        }
        if (a->t.array != v.array || a->t.elem != v.elem || a->t.dim != v.dim || a->t.cols != v.cols ||
            a->t.rows != v.rows || a->t.st != v.st)
            return false;
        one_len &= a->t.len == v.len;
    }
    if (!any) return false;
    if (v.array && (!one_len || !v.len)) {
        v.len = 0;
        v.lenof = name;
        v.lenof_n = n;
    }
    *out = (sym){ name, n, 0, v };
    return true;
}

/* Indices written in macro bodies: each chain whose base body_base() knows, as chain() does in the code;
 * a base, member or swizzle that is a parameter is left (it is whatever the argument is), and so is a
 * body with `#` or `##` in it or a parameter that would capture the clamp's own words */
static void rewrite_bodies(const scan *s, const bool *decl, edits *ed)
{
    const struct macros *m = s->mac;
    for (size_t i = 0; i < m->n && !ed->oom; i++) {
        const macro *mc = &m->v[i];
        if (mc->tok1 == mc->tok0) continue; /* an empty body (and maybe no token array at all) */
        iks_tokens b = { .t = m->body.t, .len = m->body.len, .v = m->body.v + mc->tok0, .n = mc->tok1 - mc->tok0 };
        bool bad = mc->bad;
        for (size_t k = 0; k < b.n; k++) bad |= is(&b, k, "#");
        for (size_t k = 0; k < mc->params.n; k++)
            bad |= mc->params.v[k].n == 5 && !memcmp(m->body.t + mc->params.v[k].at, "clamp", 5);
        if (bad) continue;
        scan bs = *s;
        bs.tk = &b;
        bs.params = &mc->params;
        for (size_t k = 0; k < b.n; k++) {
            if (!ident(&b, k) || (k > 0 && is(&b, k - 1, ".")) || is_param(&bs, k)) continue;
            if (!is(&b, k + 1, "[") && !is(&b, k + 1, ".")) continue;
            sym sy;
            if (body_base(s, decl, b.t + b.v[k].at, b.v[k].n, &sy) &&
                (sy.t.array || sy.t.dim || sy.t.cols || sy.t.st))
                chain(&bs, k, &sy, ed);
        }
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
    struct macros mac = { 0 };
    bool *decl = NULL, *declike = NULL, *gconst = NULL;
    char *out = NULL;
    if (!iks_tok_range(&tk, text, 0, len, true) || !learn_defines(text, &s.al, &s.consts) || !learn_macros(text, &mac))
        goto done;
    decl = calloc(tk.n + 1, sizeof *decl);
    declike = calloc(tk.n + 1, sizeof *declike);
    gconst = calloc(tk.n + 1, sizeof *gconst);
    if (!decl || !declike || !gconst) goto done;
    mark_declares(&tk, 0, tk.n, declike);
    mark_macro_declares(&mac, &tk, declike, mac.bdecl);
    mark_gconst(&tk, declike, gconst);
    s.declike = declike;
    s.gconst = gconst;
    s.mac = &mac;
    size_t stable_left = 4096;
    s.stable_left = &stable_left;
    /* the prelude's names at depth -1, under everything the text declares */
    for (size_t k = 0; k < sizeof PRELUDE / sizeof PRELUDE[0]; k++) {
        if (!IKS_GROW(s.v, s.nv + 1, s.cap)) goto done;
        s.v[s.nv++] = (sym){ PRELUDE[k].name, strlen(PRELUDE[k].name), -1, prelude_type(k) };
        if (!IKS_GROW(s.all, s.nall + 1, s.capall)) goto done;
        s.all[s.nall++] = s.v[s.nv - 1];
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
    rewrite_bodies(&s, decl, &ed);
    out = iks_edits_apply(&ed, text, len);
done:
    iks_edits_free(&ed);
    macros_free(&mac);
    free(decl);
    free(declike);
    free(gconst);
    free(s.all);
    free(tk.v);
    free(s.al.v);
    free(s.structs.v);
    free(s.mem);
    free(s.consts.v);
    free(s.v);
    return out;
}
