/* ppsize.c: see ppsize.h. */
#include "ppsize.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HUGE_SIZE 1e30 /* "without measure": far above any limit, and never inf (inf * 0 is NaN) */
#define MAX_NEST 1000  /* macros measured inside macros; deeper is no shader but a bomb */

typedef struct {
    uint32_t off, len;
    bool ident, bol; /* an identifier; the first token of its logical line */
} tok;

typedef struct {
    uint32_t name;        /* token index of its name */
    bool func;            /* function-like */
    int np;               /* parameters (function-like) */
    uint32_t p0, b0, b1;  /* token index of the first parameter; the body is [b0, b1) */
    unsigned gen;         /* the definitions' generation its measure is of (0: none yet) */
    bool busy;            /* being measured: a use inside its own expansion is not expanded */
    bool gone;            /* #undef'd */
    double c0, *coef;     /* its size: c0 + sum coef[k] * size(argument k) */
} macro;

typedef struct {
    const char *text;
    tok *t;
    uint32_t nt;
    macro *m;
    int nm, cap;
    int *slot; /* open addressing: index into m + 1, 0 empty */
    uint32_t nslot;
    unsigned gen;
    bool oom;
} pp;

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
        if (p[0] == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'))) {
            p += p[1] == '\n' ? 2 : 3; /* a continued line is one logical line */
            continue;
        }
        if (*p == '\n') {
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
    return k > 0 && !x->m[k - 1].gone ? &x->m[k - 1] : NULL;
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
    macro mc = { .name = name };
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
    if (x->nm == x->cap) {
        int c = x->cap ? x->cap * 2 : 64;
        macro *m = realloc(x->m, (size_t)c * sizeof *m);
        if (!m) {
            x->oom = true;
            return;
        }
        x->m = m;
        x->cap = c;
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
    x->m[x->nm++] = mc;
    set_slot(x, name, x->nm);
    x->gen++;
}

static void undef(pp *x, uint32_t d, uint32_t end)
{
    macro *m = d + 2 < end && x->t[d + 2].ident ? lookup(x, d + 2) : NULL;
    if (m) {
        m->gone = true; /* its slot stays, so that the probe chains of others stay whole */
        x->gen++;
    }
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

static double measure_range(pp *x, uint32_t a, uint32_t b, const macro *in, double *coef, int depth);

/* m's c0 and coef, for the definitions in force */
static void measure(pp *x, macro *m, int depth)
{
    if (m->gen == x->gen && m->gen != 0) return;
    double *coef = m->np ? calloc((size_t)m->np, sizeof *coef) : NULL;
    if (m->np && !coef) {
        x->oom = true;
        m->c0 = HUGE_SIZE;
        return;
    }
    free(m->coef);
    m->coef = coef;
    m->busy = true;
    m->c0 = depth > MAX_NEST ? HUGE_SIZE : measure_range(x, m->b0, m->b1, m, coef, depth + 1);
    m->busy = false;
    m->gen = x->gen;
}

/* The size of tokens [a, b) as c0 + sum coef[k] * size(parameter k of in), in is the macro whose
 * body this is (NULL at the top level); adds to coef, returns c0. */
static double measure_range(pp *x, uint32_t a, uint32_t b, const macro *in, double *coef, int depth)
{
    double c0 = 0;
    int np = in ? in->np : 0;
    for (uint32_t i = a; i < b && !x->oom;) {
        int k = param(x, in, i);
        if (k >= 0) {
            coef[k] = add(coef[k], 1);
            i++;
            continue;
        }
        macro *m = x->t[i].ident ? lookup(x, i) : NULL;
        if (m && !m->busy && !m->func) {
            measure(x, m, depth);
            c0 = add(c0, m->c0);
            i++;
            continue;
        }
        if (m && !m->busy && m->func && i + 1 < b && is(x, i + 1, "(")) {
            /* its arguments: balanced parentheses, split at the commas outside inner ones */
            uint32_t j = i + 2, open = 1;
            while (j < b && open) {
                if (is(x, j, "(")) open++;
                else if (is(x, j, ")")) open--;
                j++;
            }
            if (!open) {
                measure(x, m, depth);
                double size = m->c0;
                double *ac = np ? calloc((size_t)np, sizeof *ac) : NULL;
                if (np && !ac) {
                    x->oom = true;
                    break;
                }
                uint32_t s = i + 2, level = 0;
                int arg = 0;
                for (uint32_t q = i + 2; q < j; q++) {
                    bool last = q == j - 1;
                    if (is(x, q, "(")) level++;
                    else if (is(x, q, ")") && !last) level--;
                    if (last || (level == 0 && is(x, q, ","))) {
                        if (arg < m->np) {
                            if (np) memset(ac, 0, (size_t)np * sizeof *ac);
                            double argc0 = depth > MAX_NEST ? HUGE_SIZE : measure_range(x, s, q, in, ac, depth + 1);
                            double w = m->coef ? m->coef[arg] : 0;
                            size = add(size, mul(w, argc0));
                            for (int p = 0; p < np; p++) coef[p] = add(coef[p], mul(w, ac[p]));
                        }
                        arg++;
                        s = q + 1;
                    }
                }
                free(ac);
                c0 = add(c0, size);
                i = j;
                continue;
            }
        }
        c0 = add(c0, 1);
        i++;
    }
    return c0;
}

double iks_pp_tokens(const char *text, double limit)
{
    uint32_t n = lex(text, NULL);
    if ((double)n > limit) return (double)n; /* over already, macros or not: nothing stored */
    pp x = { .text = text, .t = malloc((size_t)(n ? n : 1) * sizeof(tok)), .nt = n };
    if (!x.t) return HUGE_SIZE;
    lex(text, x.t);
    double total = 0;
    for (uint32_t i = 0; i < n && !x.oom && total <= limit;) {
        uint32_t end = i + 1;
        while (end < n && !x.t[end].bol) end++;
        if (x.t[i].bol && is(&x, i, "#")) {
            if (is(&x, i + 1, "define")) define(&x, i, end);
            else if (is(&x, i + 1, "undef")) undef(&x, i, end);
            i = end;
            continue;
        }
        /* the text up to the next directive: a macro's arguments may span lines */
        while (end < n && !(x.t[end].bol && is(&x, end, "#"))) end++;
        double coef_none = 0;
        total = add(total, measure_range(&x, i, end, NULL, &coef_none, 0));
        i = end;
    }
    for (int k = 0; k < x.nm; k++) free(x.m[k].coef);
    free(x.m);
    free(x.slot);
    free(x.t);
    return x.oom ? HUGE_SIZE : total;
}
