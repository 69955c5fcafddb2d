/* ppsize.c: see ppsize.h. */
#include "glsl/ppsize.h"

#include "base/buf.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define HUGE_SIZE 1e30 /* "without measure": far above any limit, and never inf (inf * 0 is NaN) */
#define MAX_NEST 1000  /* macros measured inside macros; deeper is no shader but a bomb */
#define MAX_STEPS 20000000ULL /* tokens looked at, in all: a text that needs more (unclosed calls
                                 rescanned, recursion that defeats the memo) is no shader either. 20
                                 times the compiler's limit; about 4 s in the fuzz build, whose
                                 runs time out at 10 */

typedef struct {
    uint32_t off, len;
    bool ident, bol; /* an identifier; the first token of its logical line */
} tok;

typedef struct {
    uint32_t name;        /* token index of its name */
    bool func;            /* function-like */
    int np;               /* parameters (function-like) */
    uint32_t p0, b0, b1;  /* token index of the first parameter; the body is [b0, b1) */
    unsigned gen;         /* the definitions' generation its measure is of (0: none valid) */
    unsigned long ctx;    /* 0: its measure holds anywhere; else only inside the expansion numbered so,
                             for it met a macro busy outside it (one token only while that expands) */
    int dep;              /* with ctx: the lowest level of a busy macro it met */
    bool busy;            /* being measured: a use inside its own expansion is not expanded */
    int level;            /* while busy: how many macros were busy before it */
    int prev;             /* the previous definition of the same name, -1 for none */
    double c0, *coef;     /* its size: c0 + sum coef[k] * size(argument k) */
    bool off;             /* expanding (the second count): its name is not a macro until the end */
    bool undef;           /* #undef'd since (the second count follows #undef, the measure does not) */
    int *pidx;            /* the second count's: each body token's parameter or -1, then for each
                             parameter whether the body uses it (made on first use) */
} macro;

typedef struct {
    const char *text;
    tok *t;
    uint32_t nt;
    macro *m;
    int nm;
    size_t cap;
    int *slot; /* open addressing: index into m + 1, 0 empty */
    uint32_t nslot;
    unsigned gen;
    int level;            /* macros busy now */
    int min_hit;          /* the lowest level of a busy macro met since measure() last reset it */
    unsigned long top, serial; /* the innermost expansion being measured (0: none), the last number given */
    unsigned long long steps;
    bool oom, too_long;
    double xcount, xcap; /* the second count's tokens so far, and where it stops */
    const char *why;     /* set: the text is refused (a construct neither count can follow), and why: */
    uint32_t why_name;   /* the macro it is about (token index of its name) */
} pp;

/* A construct whose size neither count can bound: a call that a macro's expansion opens and the text
 * after it closes, a name a function-like macro's expansion ends in that the text after it calls, a
 * name defined both with and without parameters, a ## that may make a macro's name. Each can be
 * combined with a definition in an #if group that the preprocessor skips, which the second count
 * cannot tell, into a bomb that both count low (24 levels of the first took Mesa 18 GB); no real
 * shader was seen to need them, so the text is refused, saying which macro and why. */
static void refuse(pp *x, uint32_t name, const char *why)
{
    if (x->why) return;
    x->why = why;
    x->why_name = name;
    x->too_long = true;
}

static double add(double a, double b) { return a + b < HUGE_SIZE ? a + b : HUGE_SIZE; }
static double mul(double a, double b) { return a == 0 || b == 0 ? 0 : a * b < HUGE_SIZE ? a * b : HUGE_SIZE; }

/* ---- tokens ------------------------------------------------------------------------------------ */

static bool id_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool id_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Walks the text's tokens; stores them when out is not NULL. The count. */
static uint32_t lex(const char *s, tok *out)
{
    uint32_t n = 0;
    bool bol = true;
    const char *p = s;
    while (*p) {

        if (*p == '\n' || (*p == '\r' && p[1] != '\n')) { /* a lone CR ends a line too, as Mesa reads it */
            bol = true;
            p++;
            continue;
        }
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n') p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            for (const char *q = p; q < (e ? e : p + strlen(p)); q++)
                if (*q == '\n') bol = true;
            p = e ? e + 2 : p + strlen(p);
            continue;
        }
        const char *q = p + 1;
        bool ident = id_start(*p);
        if (ident) {
            while (id_char(*q)) q++;
        } else if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
            while (id_char(*q) || *q == '.' || ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E'))) q++;
        }
        if (out) out[n] = (tok){ (uint32_t)(p - s), (uint32_t)(q - p), ident, bol };
        n++;
        bol = false;
        p = q;
    }
    return n;
}

static bool is(const pp *x, uint32_t i, const char *w)
{
    size_t n = strlen(w);
    return i < x->nt && x->t[i].len == n && memcmp(x->text + x->t[i].off, w, n) == 0;
}

static bool same(const pp *x, uint32_t a, uint32_t b)
{
    return x->t[a].len == x->t[b].len && memcmp(x->text + x->t[a].off, x->text + x->t[b].off, x->t[a].len) == 0;
}

/* ---- macros ------------------------------------------------------------------------------------ */

static uint32_t hash(const pp *x, uint32_t i)
{
    uint32_t h = 2166136261u;
    for (uint32_t k = 0; k < x->t[i].len; k++) h = (h ^ (unsigned char)x->text[x->t[i].off + k]) * 16777619u;
    return h;
}

/* the slot of the macro named by token i: where it is, or the empty slot where it would go */
static uint32_t slot_of(const pp *x, uint32_t i)
{
    uint32_t s = hash(x, i) & (x->nslot - 1);
    while (x->slot[s] && !same(x, x->m[x->slot[s] - 1].name, i)) s = (s + 1) & (x->nslot - 1);
    return s;
}

static macro *lookup(const pp *x, uint32_t i)
{
    if (!x->nslot) return NULL;
    int k = x->slot[slot_of(x, i)];
    return k > 0 ? &x->m[k - 1] : NULL;
}

static void set_slot(pp *x, uint32_t name, int v)
{
    if (!x->nslot) return;
    x->slot[slot_of(x, name)] = v;
}

/* #define at token d (the '#'), its line ending before token end */
static void define(pp *x, uint32_t d, uint32_t end)
{
    uint32_t name = d + 2;
    if (name >= end || !x->t[name].ident) return;
    macro mc = { .name = name, .prev = -1 };
    const tok *nt = &x->t[name];
    uint32_t i = name + 1;
    if (i < end && is(x, i, "(") && x->t[i].off == nt->off + nt->len) {
        mc.func = true;
        mc.p0 = ++i;
        while (i < end && !is(x, i, ")")) {
            if (x->t[i].ident) mc.np++;
            i++;
        }
        i++;
    }
    mc.b0 = i < end ? i : end;
    mc.b1 = end;
    if (!IKS_GROW(x->m, (size_t)x->nm + 1, x->cap)) {
        x->oom = true;
        return;
    }
    /* the table at most half full: grown (rehashed) before it passes that */
    if ((uint32_t)(x->nm + 1) * 2 > x->nslot) {
        uint32_t ns = x->nslot ? x->nslot * 2 : 256;
        int *sl = calloc(ns, sizeof *sl);
        if (!sl) {
            x->oom = true;
            return;
        }
        int *old = x->slot;
        uint32_t on = x->nslot;
        x->slot = sl;
        x->nslot = ns;
        for (uint32_t s = 0; s < on; s++)
            if (old[s]) set_slot(x, x->m[old[s] - 1].name, old[s]);
        free(old);
    }
    int old = x->slot[slot_of(x, name)];
    mc.prev = old > 0 ? old - 1 : -1;
    if (old > 0 && x->m[old - 1].func != mc.func) refuse(x, name, "is defined both with and without parameters");
    /* ## (two '#' tokens, as lexed here): neither count pastes, and what it pastes may name a macro
     * (a doubling chain's last link, from CAT(A, 22)); shadertoy.com's GLSL ES has no ## either */
    for (uint32_t b = mc.b0; b + 1 < mc.b1; b++)
        if (is(x, b, "#") && is(x, b + 1, "#") && x->t[b].off + 1 == x->t[b + 1].off)
            refuse(x, name, "pastes tokens (##) into what may be a macro's name");
    x->m[x->nm++] = mc;
    set_slot(x, name, x->nm);
    x->gen++;
}

/* the parameter of m that token i names, or -1 */
static int param(const pp *x, const macro *m, uint32_t i)
{
    if (!m || !m->func || !x->t[i].ident) return -1;
    int k = 0;
    for (uint32_t j = m->p0; j < m->b0; j++)
        if (x->t[j].ident) {
            if (same(x, j, i)) return k;
            k++;
        }
    return -1;
}

static double measure_range(pp *x, uint32_t a, uint32_t b, const macro *in, macro *const *bind, double *coef,
                            int depth);

/* A busy macro met at token i: counted as the one token it stays, and remembered, for a measure that
 * depends on it is true only inside that macro's expansion */
static void met_busy(pp *x, const macro *m)
{
    if (m->level < x->min_hit) x->min_hit = m->level;
}

/* m's body measured with m busy: c0 returned, coef (m->np) filled; bind: macros its parameters stand for */
static double measure_body(pp *x, macro *m, macro *const *bind, double *coef, int depth)
{
    m->busy = true;
    m->level = x->level++;
    unsigned long outer = x->top;
    x->top = ++x->serial; /* a number never given before: the macros busy now are known by it */
    double c0 = depth > MAX_NEST ? HUGE_SIZE : measure_range(x, m->b0, m->b1, m, bind, coef, depth + 1);
    x->top = outer;
    x->level--;
    m->busy = false;
    return c0;
}

/* m's c0 and coef for the definitions in force: remembered per generation, and when they depended on
 * a macro busy outside m (B inside A is one token only while A expands) only for the expansion they
 * were measured in: `F2(x) F1(x)+F1(x)` ... `F29(x) F28(x)+F28(x)` measured inside a macro that F1
 * names is measured once per level, not 2^28 times */
static void measure(pp *x, macro *m, int depth)
{
    if (m->gen == x->gen && m->gen != 0 && (m->ctx == 0 || m->ctx == x->top)) {
        if (m->ctx && m->dep < x->min_hit) x->min_hit = m->dep; /* what it met, its users meet */
        return;
    }
    if (depth > MAX_NEST) { /* macros within macros (or redefinitions of one name) past any shader's */
        x->too_long = true;
        return;
    }
    double *coef = m->np ? calloc((size_t)m->np, sizeof *coef) : NULL;
    if (m->np && !coef) {
        x->oom = true;
        m->c0 = HUGE_SIZE;
        return;
    }
    free(m->coef);
    m->coef = coef;
    int saved = x->min_hit;
    x->min_hit = x->level + 1;
    int mine = x->level;
    unsigned long ctx = x->top;
    m->c0 = measure_body(x, m, NULL, coef, depth);
    /* an earlier definition of the name may be the one in force (a #define or #undef in a group the
     * preprocessor skips is not seen as skipped here): the larger of the two counts */
    if (m->prev >= 0) {
        macro *p = &x->m[m->prev];
        if (!p->busy) {
            measure(x, p, depth + 1);
            if (p->c0 > m->c0) m->c0 = p->c0;
            for (int k = 0; k < m->np && k < p->np; k++)
                if (p->coef && p->coef[k] > m->coef[k]) m->coef[k] = p->coef[k];
        }
    }
    m->gen = x->gen;
    m->ctx = x->min_hit < mine ? ctx : 0;
    m->dep = x->min_hit;
    if (saved < x->min_hit) x->min_hit = saved;
}

/* The function-like macro that an object-like one ends with (its last token names it, maybe through
 * more object-like ones): `#define I D` then `I(x)` calls D. NULL when none. */
static macro *tail_func(pp *x, macro *m, int depth)
{
    for (; m && !m->func && m->b1 > m->b0 && depth < 64; depth++) {
        macro *t = x->t[m->b1 - 1].ident ? lookup(x, m->b1 - 1) : NULL;
        if (!t || t->busy) return NULL;
        m = t;
    }
    return m && m->func ? m : NULL;
}

/* What an argument [s, q) stands for when it is one name: a function-like macro (directly, through an
 * object-like one, or through the bound parameter of the macro whose body this is) */
static macro *named_func(pp *x, uint32_t s, uint32_t q, const macro *in, macro *const *bind)
{
    if (q != s + 1 || !x->t[s].ident) return NULL;
    int k = param(x, in, s);
    if (k >= 0) return bind ? bind[k] : NULL;
    macro *m = lookup(x, s);
    return m && !m->busy ? tail_func(x, m, 0) : NULL;
}

/* f called at token i with '(' at i + 1, within [.., b): its size added to *c0 and coef (in's
 * parameters); the token after its ')', or 0 when there is none */
static uint32_t invoke(pp *x, macro *f, uint32_t i, uint32_t b, const macro *in, macro *const *bind, double *coef,
                       int depth, double *c0)
{
    uint32_t j = i + 2, open = 1;
    while (j < b && open) {
        if (is(x, j, "(")) open++;
        else if (is(x, j, ")")) open--;
        j++;
    }
    x->steps += j - i;
    if (open) {
        /* the call goes on past the body it is in, into text the measure does not see */
        if (in) refuse(x, in->name, "opens a call that the text after it closes");
        return 0;
    }
    int np = in ? in->np : 0;
    /* its arguments: split at the commas outside inner parentheses */
    int na = 0;
    uint32_t as[64], ae[64];
    uint32_t s = i + 2, level = 0;
    for (uint32_t q = i + 2; q < j; q++) {
        bool last = q == j - 1;
        if (is(x, q, "(")) level++;
        else if (is(x, q, ")") && !last) level--;
        if (last || (level == 0 && is(x, q, ","))) {
            if (na < 64) as[na] = s, ae[na] = q;
            na++;
            s = q + 1;
        }
    }
    /* a macro given as an argument may be called in the body (`#define A(f, x) f(f(x))`): the body is
     * then measured for these arguments, not remembered */
    macro *fb[64] = { 0 };
    bool bound = false;
    for (int k = 0; k < f->np && k < na && k < 64; k++) bound |= (fb[k] = named_func(x, as[k], ae[k], in, bind)) != NULL;
    double fc0, *fcoef;
    double *own = NULL;
    int fnp = f->np;
    if (bound && !f->busy) {
        own = fnp ? calloc((size_t)fnp, sizeof *own) : NULL;
        if (fnp && !own) {
            x->oom = true;
            return j;
        }
        fc0 = measure_body(x, f, fb, own, depth);
        fcoef = own;
    } else {
        measure(x, f, depth);
        fc0 = f->c0;
        /* a copy: measuring the arguments below can measure f again, which replaces f->coef (a fuzzed
         * input read it after it was freed) */
        if (fnp && f->coef) {
            own = malloc((size_t)fnp * sizeof *own);
            if (!own) {
                x->oom = true;
                return j;
            }
            memcpy(own, f->coef, (size_t)fnp * sizeof *own);
        }
        fcoef = own;
    }
    /* the expansion ends in a function-like macro's name (a parameter given one, or its own last name)
     * and what follows the call, here or after the body this is in, may call it: `ID(H)(x)` */
    if (f->b1 > f->b0 && (j < b ? is(x, j, "(") : in != NULL)) {
        uint32_t last = f->b1 - 1;
        int k = param(x, f, last);
        macro *t = k >= 0 ? (k < 64 ? fb[k] : NULL) : x->t[last].ident ? lookup(x, last) : NULL;
        if (t && !t->func) t = tail_func(x, t, 0);
        if (t && t->func && !t->busy) refuse(x, f->name, "ends in a function-like macro's name that the text after it may call");
    }
    double size = fc0;
    double *ac = np ? calloc((size_t)np, sizeof *ac) : NULL;
    if (np && !ac) x->oom = true;
    for (int k = 0; k < na && k < fnp && k < 64 && !x->oom; k++) {
        if (np) memset(ac, 0, (size_t)np * sizeof *ac);
        double argc0 = depth > MAX_NEST ? HUGE_SIZE : measure_range(x, as[k], ae[k], in, bind, ac, depth + 1);
        /* an argument is expanded once even where the body drops it (see the second count) */
        double w = fcoef && fcoef[k] > 1 ? fcoef[k] : 1;
        size = add(size, mul(w, argc0));
        for (int p = 0; p < np; p++) coef[p] = add(coef[p], mul(w, ac[p]));
    }
    free(ac);
    free(own);
    *c0 = add(*c0, size);
    return j;
}

/* The size of tokens [a, b) as c0 + sum coef[k] * size(parameter k of in), in is the macro whose
 * body this is (NULL at the top level) and bind what its parameters stand for when they are called;
 * adds to coef, returns c0. */
static double measure_range(pp *x, uint32_t a, uint32_t b, const macro *in, macro *const *bind, double *coef,
                            int depth)
{
    double c0 = 0;
    for (uint32_t i = a; i < b && !x->oom;) {
        if (++x->steps > MAX_STEPS) {
            x->too_long = true;
            return HUGE_SIZE;
        }
        bool call = i + 1 < b && is(x, i + 1, "(");
        int k = param(x, in, i);
        if (k >= 0) {
            uint32_t next = call && bind && bind[k] ? invoke(x, bind[k], i, b, in, bind, coef, depth, &c0) : 0;
            if (next) {
                i = next;
                continue;
            }
            coef[k] = add(coef[k], 1);
            i++;
            continue;
        }
        macro *m = x->t[i].ident ? lookup(x, i) : NULL;
        if (m && m->busy) met_busy(x, m);
        if (m && !m->busy && !m->func) {
            measure(x, m, depth);
            macro *f = call ? tail_func(x, m, 0) : NULL;
            uint32_t next = f ? invoke(x, f, i, b, in, bind, coef, depth, &c0) : 0;
            /* called through its last name: the expansion less that name, then the call */
            c0 = add(c0, next ? m->c0 - 1 : m->c0);
            i = next ? next : i + 1;
            continue;
        }
        if (m && !m->busy && m->func && call) {
            uint32_t next = invoke(x, m, i, b, in, bind, coef, depth, &c0);
            if (next) {
                i = next;
                continue;
            }
        }
        c0 = add(c0, 1);
        i++;
    }
    return c0;
}

/* ---- the second count: the expansion itself, up to the limit ------------------------------------
 * The measure above is an estimate, and its gaps are found one at a time (calls a macro opens and
 * the text after it closes, which 24 levels of crashed the compiler, are now refused). So a text the
 * measure finds within the limit is also expanded, as the preprocessor does it, counting the tokens
 * that come out and stopping past the limit or the step budget: cheap for a real shader, never more
 * than the limit for a bomb that got past the measure. The larger of the two counts is the answer. Tokens are indices into the text's own tokens (every
 * token of an expansion is one of a body's or an argument's); a macro's name is not expanded while its
 * expansion is rescanned (an end mark on the stack turns it back on), and a name met then stays as it
 * is (painted). */

typedef struct {
    uint32_t tok;
    int32_t end; /* >= 0: not a token but the end of macro end's expansion */
    bool painted;
} xtok;

typedef struct {
    xtok *v;
    size_t n, cap;
} xvec;

/* what the expansion may hold at once: a real shader's expansion is under the limit */
static bool xpush(pp *x, xvec *s, xtok t, size_t most)
{
    if (++x->steps > MAX_STEPS || s->n >= most) {
        x->too_long = true;
        return false;
    }
    if (!IKS_GROW(s->v, s->n + 1, s->cap)) {
        x->oom = true;
        return false;
    }
    s->v[s->n++] = t;
    return true;
}

/* one token out of the text's expansion, or of an argument that is expanded for nothing */
static bool xcounted(pp *x)
{
    return ++x->xcount <= x->xcap;
}

/* Function-like m's table, made once per definition: each body token's parameter (or -1), then for
 * each parameter 1 if the body uses it. Looking parameters up by name at every expansion made a call
 * of a macro with 2000 parameters cost 2000 x its body, each time. NULL when out of memory. */
static const int *params_of(pp *x, macro *m)
{
    if (m->pidx) return m->pidx;
    size_t nb = m->b1 - m->b0;
    m->pidx = calloc(nb + (size_t)m->np + 1, sizeof *m->pidx);
    if (!m->pidx) {
        x->oom = true;
        return NULL;
    }
    for (uint32_t q = m->b0; q < m->b1; q++) {
        int k = param(x, m, q);
        m->pidx[q - m->b0] = k;
        if (k >= 0) m->pidx[nb + (size_t)k] = 1;
    }
    return m->pidx;
}

/* t out of the expansion: onto out, or counted when out is NULL */
static bool xemit(pp *x, xvec *out, xtok t, size_t most)
{
    return out ? xpush(x, out, t, most) : xcounted(x);
}

/* the macro a name is for the second count */
static macro *xlookup(const pp *x, uint32_t i)
{
    macro *m = x->t[i].ident ? lookup(x, i) : NULL;
    return m && !m->undef ? m : NULL;
}

/* the stack's next token that is not an end mark, from the top: its index, or SIZE_MAX */
static size_t xpeek(const xvec *s)
{
    for (size_t k = s->n; k-- > 0;)
        if (s->v[k].end < 0) return k;
    return SIZE_MAX;
}

/* Expands the stack (the next token on top) to its end: the tokens that come out appended to out, or
 * counted in x->xcount when out is NULL; stops once that passes x->xcap. false when over a budget or
 * the cap. */
static bool xrun(pp *x, xvec *s, xvec *out, size_t most, int depth)
{
    if (depth > MAX_NEST) { /* arguments within arguments past any shader's */
        x->too_long = true;
        return false;
    }
    xvec arg = { 0 }, *exp = NULL;
    size_t *as = NULL, *ae = NULL, nargs = 0;
    bool ok = true;
    while (ok && s->n && !x->oom && !x->too_long) {
        xtok t = s->v[--s->n];
        if (t.end >= 0) {
            x->m[t.end].off = false;
            continue;
        }
        macro *m = !t.painted ? xlookup(x, t.tok) : NULL;
        if (m && m->off) {
            t.painted = true;
            m = NULL;
        }
        if (m && m->func) {
            size_t k = xpeek(s);
            if (k == SIZE_MAX || !is(x, s->v[k].tok, "(")) m = NULL;
        }
        if (!m) {
            ok = xemit(x, out, t, most);
            continue;
        }
        int mi = (int)(m - x->m);
        if (!m->func) {
            ok = xpush(x, s, (xtok){ 0, mi, false }, most);
            for (uint32_t b = m->b1; ok && b-- > m->b0;) ok = xpush(x, s, (xtok){ b, -1, false }, most);
            m->off = true;
            continue;
        }
        /* the arguments, to the matching ')': an end mark passed on the way ends that expansion */
        arg.n = 0;
        size_t np = (size_t)m->np, na = 0;
        free(as);
        free(ae);
        as = calloc(np + 1, sizeof *as);
        ae = calloc(np + 1, sizeof *ae);
        if (!as || !ae) {
            x->oom = true;
            break;
        }
        int open = 0;
        bool closed = false;
        while (s->n) {
            xtok a = s->v[--s->n];
            if (a.end >= 0) {
                x->m[a.end].off = false;
                continue;
            }
            if (++x->steps > MAX_STEPS) {
                x->too_long = true;
                break;
            }
            /* a name read while its macro expands stays a name, also once that expansion ends (an
             * argument that runs past it): without this `#define D H(D` would expand for ever */
            macro *am = xlookup(x, a.tok);
            if (am && am->off) a.painted = true;
            if (is(x, a.tok, "(") && open++ == 0) continue;
            if (is(x, a.tok, ")") && --open == 0) {
                closed = true;
                break;
            }
            if (open == 1 && is(x, a.tok, ",")) { /* arguments past the parameters are dropped */
                if (na < np) ae[na] = arg.n;
                if (++na < np) as[na] = arg.n;
                continue;
            }
            if (!(ok = xpush(x, &arg, a, most))) break;
        }
        if (!ok || x->too_long) break;
        if (!closed) { /* the text ends inside the call: the name and what followed stay as they were */
            ok = xemit(x, out, t, most);
            for (size_t k = 0; ok && k < arg.n; k++) ok = xemit(x, out, arg.v[k], most);
            continue;
        }
        if (na < np) ae[na] = arg.n;
        for (size_t k = na + 1; k < np; k++) as[k] = ae[k] = arg.n; /* missing arguments: empty */
        /* each argument expanded on its own, once; Mesa's preprocessor expands those the body does not
         * use too (a doubling bomb as an unused argument took it 6 GB at 24 levels): counted as they
         * come out */
        if (exp)
            for (size_t k = 0; k < nargs; k++) free(exp[k].v);
        free(exp);
        nargs = np;
        exp = calloc(np + 1, sizeof *exp);
        if (!exp) {
            x->oom = true;
            break;
        }
        const int *pi = params_of(x, m);
        if (!pi) break;
        const int *used = pi + (m->b1 - m->b0);
        for (size_t k = 0; ok && k < np; k++) {
            xvec as_stack = { 0 };
            for (size_t q = ae[k]; ok && q-- > as[k];) ok = xpush(x, &as_stack, arg.v[q], most);
            if (ok) ok = xrun(x, &as_stack, used[k] ? &exp[k] : NULL, most, depth + 1);
            free(as_stack.v);
        }
        if (!ok) break;
        ok = xpush(x, s, (xtok){ 0, mi, false }, most);
        for (uint32_t b = m->b1; ok && b-- > m->b0;) {
            int k = pi[b - m->b0];
            if (k < 0) {
                ok = xpush(x, s, (xtok){ b, -1, false }, most);
                continue;
            }
            for (size_t q = exp[k].n; ok && q-- > 0;) ok = xpush(x, s, exp[k].v[q], most);
        }
        m->off = true;
    }
    if (exp)
        for (size_t k = 0; k < nargs; k++) free(exp[k].v);
    free(exp);
    free(as);
    free(ae);
    free(arg.v);
    return ok && !x->oom && !x->too_long && x->xcount <= x->xcap;
}

/* tokens [a, b) expanded and counted, up to cap */
static double expand_count(pp *x, uint32_t a, uint32_t b, double cap)
{
    xvec s = { 0 };
    size_t most = (size_t)(cap < 1e7 ? cap : 1e7) * 4 + 1024;
    x->xcount = 0;
    x->xcap = cap;
    bool ok = true;
    for (uint32_t i = b; ok && i-- > a;) ok = xpush(x, &s, (xtok){ i, -1, false }, most);
    if (ok) ok = xrun(x, &s, NULL, most, 0);
    free(s.v);
    /* a run to its end met every end mark; one stopped early left names off */
    if (!ok)
        for (int k = 0; k < x->nm; k++) x->m[k].off = false;
    /* past the cap: how far past is not known, only that it is */
    return ok ? x->xcount : x->xcount > cap ? x->xcount : HUGE_SIZE;
}

/* text without its line splices (a backslash before a line's end), which may fall inside a token:
 * `#define D\<newline>(x)` is D(x) to the compiler. malloc'd. */
static char *unsplice(const char *text)
{
    size_t n = strlen(text);
    char *o = malloc(n + 1), *q = o;
    if (!o) return NULL;
    for (const char *p = text; *p;) {
        if (p[0] == '\\' && (p[1] == '\n' || p[1] == '\r')) {
            p += 2 + (p[1] == '\r' && p[2] == '\n');
            continue;
        }
        *q++ = *p++;
    }
    *q = '\0';
    return o;
}

double iks_pp_tokens(const char *text, double limit) { return iks_pp_measure(text, limit, NULL); }

double iks_pp_measure(const char *text, double limit, iks_err *refused)
{
    char *flat = unsplice(text);
    if (!flat) return HUGE_SIZE;
    uint32_t n = lex(flat, NULL);
    if ((double)n > limit) { /* over already, macros or not: nothing stored */
        free(flat);
        return (double)n;
    }
    pp x = { .text = flat, .t = malloc((size_t)(n ? n : 1) * sizeof(tok)), .nt = n };
    if (!x.t) {
        free(flat);
        return HUGE_SIZE;
    }
    lex(flat, x.t);
    double total = 0;
    for (uint32_t i = 0; i < n && !x.oom && !x.too_long && total <= limit;) {
        uint32_t end = i + 1;
        while (end < n && !x.t[end].bol) end++;
        if (x.t[i].bol && is(&x, i, "#")) {
            /* the measure does not follow #undef: one in a group the preprocessor skips would hide a
             * definition still in force, and counting a macro that is gone errs only high; the second
             * count, which follows the newest definition anyway, does */
            if (is(&x, i + 1, "define")) define(&x, i, end);
            macro *u = is(&x, i + 1, "undef") && i + 2 < end ? xlookup(&x, i + 2) : NULL;
            if (u) u->undef = true;
            i = end;
            continue;
        }
        /* the text up to the next directive: a macro's arguments may span lines */
        while (end < n && !(x.t[end].bol && is(&x, end, "#"))) end++;
        double coef_none = 0;
        x.min_hit = 0;
        double measured = measure_range(&x, i, end, NULL, NULL, &coef_none, 0);
        if (!x.oom && !x.too_long && add(total, measured) <= limit) {
            double counted = expand_count(&x, i, end, limit - total);
            if (counted > measured) measured = counted;
        }
        total = add(total, measured);
        i = end;
    }
    if (x.why) {
        const tok *nm = &x.t[x.why_name];
        iks_err_set(refused, IKS_E_FORMAT, "#define %.*s %s", nm->len > 64 ? 64 : (int)nm->len, flat + nm->off, x.why);
    }
    for (int k = 0; k < x.nm; k++) {
        free(x.m[k].coef);
        free(x.m[k].pidx);
    }
    free(x.m);
    free(x.slot);
    free(x.t);
    free(flat);
    return x.oom || x.too_long ? HUGE_SIZE : total;
}
