/* constfold.c: built-ins of constant arguments folded as the site's compiler folds them. ANGLE
 * evaluates a call such as acos(0.5) when it compiles, with the C library's float functions, and
 * hands the driver the number: 1.0471976, the float nearest to the true value. Mesa evaluates the same
 * call with its own lowering (acos as a polynomial), a few units in the last place away, so toys that
 * compare or hash such constants (`acos(0.5) == 1.0471976`) differ.
 *
 * So a call of one of these functions whose arguments are constant is replaced by its value: computed
 * in double from the float arguments and rounded once to float, which is the correctly rounded result
 * (inversesqrt as ANGLE writes it, 1.0f / sqrtf(x): two float roundings). The value is printed with 9
 * significant digits, which reads back as the same float; a negative one (-0.0 too) in parentheses.
 * A constant argument is an expression of float literals, unary + and -, + - * / and parentheses,
 * float(int literal), these built-ins, and names: each operation rounded to float, since both
 * compilers fold arithmetic in float and only the built-ins differ, so the value the call gets must be
 * theirs (`PI / 4.0` is float(PI) / 4 rounded). A name is a file-scope `const float` (Common's too: it
 * is in the same text) or an object-like #define, whose body is read as its tokens in place of the name
 * as the preprocessor expands it (`#define M 1.0 + 1.0` makes `M * 2.0` 3.0). A name is used only where
 * nothing else in the text could make it mean something else: declared once in the whole text (any
 * other declaration, a local, a parameter, a member, a function, a second const or #define, an #undef
 * refuses it everywhere, since a scan of text cannot tell scopes apart soundly), not in an #if group
 * (the group may be skipped), declared before the use, and with a value itself.
 * Calls inside a #define's body are folded where they stand (its tokens read as text of their own),
 * unless a parameter of the macro is among the call's tokens (the expansion decides those) or the
 * macro is defined more than once (a redefinition's bodies must stay as different as written).
 * Left as written: a call split across lines (the replacement would lose a line), names that are
 * locals or `const` in a function (refused with the rest, see above), int arithmetic and int consts,
 * vectors, calls of function-like macros in the arguments, a name handed to a function-like macro
 * that may declare it (`V(PI)`, `#define V(n) float n = 2.0;`: it counts as a declaration), a function
 * name the text declares or #defines, bodies with `#` or `##`, and arguments where
 * the result is undefined (acos(2.0), log(0.0), pow(-1.0, 0.5), 1.0 / 0.0) or not finite, which ANGLE
 * reports and Mesa computes as it will. A wrong fold is worse than a missed one: when unsure, the call
 * stays the compiler's. Text only, no GL. */
#include "glsl/source.h"
#include "base/strutil.h"
#include "glsl/gltok.h"
#include "base/buf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is(const iks_tokens *tk, size_t i, const char *s) { return iks_tok_is(tk, i, s); }

/* the value of NAME(a[0], ...) with n arguments; false where undefined, unknown or not finite */
static bool fold(const char *name, int n, const float *a, float *out)
{
    double x = a[0], y = n > 1 ? a[1] : 0, r;
    if (n == 1 && !strcmp(name, "sin")) r = sin(x);
    else if (n == 1 && !strcmp(name, "cos")) r = cos(x);
    else if (n == 1 && !strcmp(name, "tan")) r = tan(x);
    else if (n == 1 && !strcmp(name, "asin") && fabs(x) <= 1) r = asin(x);
    else if (n == 1 && !strcmp(name, "acos") && fabs(x) <= 1) r = acos(x);
    else if (n == 1 && !strcmp(name, "atan")) r = atan(x);
    else if (n == 2 && !strcmp(name, "atan") && (x != 0 || y != 0)) r = atan2(x, y);
    else if (n == 1 && !strcmp(name, "sinh")) r = sinh(x);
    else if (n == 1 && !strcmp(name, "cosh")) r = cosh(x);
    else if (n == 1 && !strcmp(name, "tanh")) r = tanh(x);
    else if (n == 1 && !strcmp(name, "asinh")) r = asinh(x);
    else if (n == 1 && !strcmp(name, "acosh") && x >= 1) r = acosh(x);
    else if (n == 1 && !strcmp(name, "atanh") && fabs(x) < 1) r = atanh(x);
    else if (n == 1 && !strcmp(name, "exp")) r = exp(x);
    else if (n == 1 && !strcmp(name, "exp2")) r = exp2(x);
    else if (n == 1 && !strcmp(name, "log") && x > 0) r = log(x);
    else if (n == 1 && !strcmp(name, "log2") && x > 0) r = log2(x);
    else if (n == 1 && !strcmp(name, "sqrt") && x >= 0) r = sqrt(x);
    else if (n == 1 && !strcmp(name, "inversesqrt") && x > 0) r = 1.0f / sqrtf(a[0]);
    else if (n == 2 && !strcmp(name, "pow") && (x > 0 || (x == 0 && y > 0))) r = pow(x, y);
    else return false;
    *out = (float)r;
    return isfinite(*out);
}

static const char *const FOLDED[] = { "sin",   "cos",   "tan", "asin", "acos", "atan", "sinh", "cosh",
                                      "tanh",  "asinh", "acosh", "atanh", "exp", "exp2", "log",  "log2",
                                      "sqrt",  "inversesqrt", "pow" };

static const char *folded_name(const iks_tokens *tk, size_t i)
{
    for (size_t k = 0; k < sizeof FOLDED / sizeof FOLDED[0]; k++)
        if (is(tk, i, FOLDED[k])) return FOLDED[k];
    return NULL;
}

/* ---- what each name may mean ------------------------------------------------------------------------ */

/* Every place the text may declare a name: a file-scope `const float` (its initialiser a candidate
 * value), an object-like #define (its body a candidate expansion), and everything else that could
 * declare or define it (a local, a parameter, a member, a function, a function-like macro, #undef). A
 * name is given a value only where it has exactly one entry, a value, and that entry ends before the
 * use: every other arrangement has a reading this scan cannot rule out. */
enum { E_CONST, E_MACRO, E_OTHER };
typedef struct {
    size_t at, n;                /* the name in the text */
    size_t end;                  /* where the declaration ends: a use before it is not of this one */
    int kind;
    bool directive;              /* made by #define or #undef: the name is expanded or not, never a plain name */
    const iks_tokens *tk;        /* E_CONST: the initialiser's tokens, E_MACRO: the body's */
    size_t first, last;
    int state;                   /* E_CONST: 0 not yet evaluated, 1 being evaluated, 2 v known, 3 not constant */
    float v;
    size_t body;                 /* a function-like macro's: its index in scan.b, plus one (0: none) */
    const char *t;               /* the text, for the sort (no global state: rewrites may run at once) */
} entry;

/* a #define's body, for folding inside it */
typedef struct {
    size_t first, last;          /* its tokens in scan.mt */
    size_t par, par_end;         /* a function-like macro's parameter list in the text (empty: none) */
    bool declares;               /* it may declare what it is handed (`#define V(n) float n = 1.0;`) */
    size_t name, name_n;         /* the macro's name in the text */
} body;

typedef struct {
    const char *t;
    size_t len;
    iks_tokens tk;               /* the text's tokens (directives make none) */
    iks_tokens mt;               /* the #define bodies' tokens */
    entry *e;
    size_t ne, cap, nsorted;     /* find() looks in the first nsorted, sorted by name */
    body *b;
    size_t nb, capb;
    int budget;                  /* tokens the evaluations of this round may still read */
} scan;

static bool add(scan *s, entry x)
{
    if (!IKS_GROW(s->e, s->ne + 1, s->cap)) return false;
    x.t = s->t;
    s->e[s->ne++] = x;
    return true;
}

static int name_cmp(const char *t, size_t a, size_t an, size_t b, size_t bn)
{
    int c = memcmp(t + a, t + b, an < bn ? an : bn);
    return c ? c : (an > bn) - (an < bn);
}

static int by_name(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    int c = name_cmp(a->t, a->at, a->n, b->at, b->n);
    return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* the entries of the name at t[at, at + n): *lo and the count */
static size_t find(const scan *s, size_t at, size_t n, size_t *lo)
{
    size_t a = 0, b = s->nsorted;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (name_cmp(s->t, s->e[m].at, s->e[m].n, at, n) < 0) a = m + 1;
        else b = m;
    }
    *lo = a;
    size_t k = a;
    while (k < s->nsorted && !name_cmp(s->t, s->e[k].at, s->e[k].n, at, n)) k++;
    return k - a;
}

/* the one entry that gives the name used at `use` a meaning of kind `kind`; NULL when there is none */
static entry *meaning(scan *s, size_t use, size_t n, int kind)
{
    size_t lo;
    if (find(s, use, n, &lo) != 1) return NULL;
    entry *e = &s->e[lo];
    return e->kind == kind && e->end <= use ? e : NULL;
}

static size_t count(const scan *s, size_t at, size_t n)
{
    size_t lo;
    return find(s, at, n, &lo);
}

/* whether a #define or #undef names it (`float` and `const` are declared-looking everywhere: `in float x`) */
static bool directive_named(const scan *s, size_t at, size_t n)
{
    size_t lo, c = find(s, at, n, &lo);
    for (size_t k = lo; k < lo + c; k++)
        if (s->e[k].directive) return true;
    return false;
}

/* whether the word t[at, at + n) is the name of one of the parameters in t[par, end) */
static bool is_param(const char *t, size_t par, size_t end, size_t at, size_t n)
{
    for (size_t i = par; i < end;) {
        if (!iks_tok_ident_start(t[i])) {
            i++;
            continue;
        }
        size_t k = i;
        while (k < end && iks_tok_ident_char(t[k])) k++;
        if (k - i == n && !memcmp(t + i, t + at, n)) return true;
        i = k;
    }
    return false;
}

/* a body that can be read as its tokens: no `#` or `##` (which make other tokens of what is written),
 * no comment that runs past the line (the tokens would end elsewhere than the preprocessor's) and no
 * `//` with a splice (the preprocessor splices first, so the comment goes on into the next line) */
static bool plain_body(const char *t, size_t from, size_t end)
{
    bool slashes = false, splice = false;
    for (size_t i = from; i < end; i++) {
        if (t[i] == '#') return false;
        if (t[i] == '\\') splice = true;
        if (t[i] == '/' && i + 1 < end && t[i + 1] == '/') slashes = true;
        if (t[i] == '/' && i + 1 < end && t[i + 1] == '*') {
            size_t k = i + 2;
            while (k + 1 < end && !(t[k] == '*' && t[k + 1] == '/')) k++;
            if (k + 1 >= end) return false;
            i = k + 1;
        }
    }
    return !(slashes && splice);
}

static bool word(const char *p, const char *w)
{
    size_t n = strlen(w);
    return !strncmp(p, w, n) && !iks_tok_ident_char(p[n]);
}

/* One directive at t[at, end): its entries, its body's tokens; *depth the #if nesting. A #define or
 * #undef inside an #if group may be skipped, so neither gives a name a meaning there. */
static bool directive(scan *s, size_t at, size_t end, int *depth)
{
    const char *t = s->t, *q = t + at + 1;
    while (*q == ' ' || *q == '\t') q++;
    if (word(q, "if") || word(q, "ifdef") || word(q, "ifndef")) (*depth)++;
    else if (word(q, "endif") && *depth > 0) (*depth)--;
    bool undef = word(q, "undef");
    const char *nm = undef ? q + 5 : iks_tok_define_name(t + at);
    if (!nm) return true;
    while (undef && (*nm == ' ' || *nm == '\t')) nm++;
    const char *ne = nm;
    while (ne < t + end && iks_tok_ident_char(*ne)) ne++;
    if (ne == nm || !iks_tok_ident_start(*nm)) return true;
    entry x = { .at = (size_t)(nm - t), .n = (size_t)(ne - nm), .end = end, .kind = E_OTHER, .directive = true };
    if (undef) return add(s, x);
    body b = { .name = x.at, .name_n = x.n };
    size_t from = (size_t)(ne - t);
    bool fn = *ne == '(';
    if (fn) {
        const char *pe = memchr(ne, ')', (size_t)(t + end - ne));
        b.par = from + 1;
        b.par_end = pe ? (size_t)(pe - t) : end;
        from = pe ? b.par_end + 1 : end;
        b.declares = !pe;
    } else if (from < end && !strchr(" \t\\/", t[from])) {
        return add(s, x); /* `#define A+1`: not read */
    }
    if (!plain_body(t, from, end)) {
        if (!fn) return add(s, x);
        b.declares = true; /* `float n##_v`: what it makes is not its tokens */
        from = end;
    }
    b.first = s->mt.n;
    if (!iks_tok_range(&s->mt, t, from, end, false)) return false;
    b.last = s->mt.n;
    if (!IKS_GROW(s->b, s->nb + 1, s->capb)) return false;
    s->b[s->nb++] = b;
    if (fn) x.body = s->nb;
    if (!b.par && *depth == 0) {
        x.kind = E_MACRO;
        x.tk = &s->mt;
        x.first = b.first;
        x.last = b.last;
    }
    return add(s, x);
}

/* The directives, as iks_tok_range finds them (after a line's start, outside comments, with their
 * splices), one by one */
static bool directives(scan *s)
{
    size_t i = 0, at, end;
    bool line_start = true;
    int depth = 0;
    while (iks_tok_next_directive(s->t, s->len, &i, &line_start, &at, &end))
        if (!directive(s, at, end, &depth)) return false;
    return true;
}

/* whether the token before an identifier makes it a name being declared: a type or qualifier before it
 * (`float x`, `float[2] x`), a struct before it, or a comma between declarators (`float a, x;`, `for (float i = 0., x = 1.;`) */
static bool declared_here(const iks_tokens *tk, size_t from, size_t i, int paren)
{
    if (i == from) return false;
    if (tk->v[i - 1].k == IKS_TOK_IDENT)
        return !is(tk, i - 1, "return") && !is(tk, i - 1, "case") && !is(tk, i - 1, "else") && !is(tk, i - 1, "do");
    if (is(tk, i - 1, "]")) return true;
    /* a struct's or a block's instance: `struct S { float x; } K;` */
    if (is(tk, i - 1, "}") && (is(tk, i + 1, ";") || is(tk, i + 1, "[") || is(tk, i + 1, ","))) return true;
    return is(tk, i - 1, ",") && (paren == 0 || is(tk, i + 1, "="));
}

/* A file-scope `const float A = ..., B = ...;` at tokens i..: an entry for each name, E_CONST where its
 * initialiser ends as a declarator does and no #if group holds it; each name's token claimed */
static bool const_decl(scan *s, const iks_tokens *tk, size_t i, size_t to, bool in_if, bool *claimed)
{
    for (size_t j = i + 2; j < to && tk->v[j].k == IKS_TOK_IDENT;) {
        entry x = { .at = tk->v[j].at, .n = tk->v[j].n, .kind = E_OTHER };
        claimed[j] = true;
        if (!is(tk, j + 1, "=")) return add(s, x);
        size_t a = j + 2, b = a;
        int d = 0;
        for (; b < to; b++) {
            if (is(tk, b, "(")) d++;
            else if (is(tk, b, ")") && d > 0) d--;
            else if (d == 0 && (is(tk, b, ",") || is(tk, b, ";") || is(tk, b, "{") || is(tk, b, "}"))) break;
        }
        bool ends = is(tk, b, ",") || is(tk, b, ";");
        if (ends && !in_if && b > a) {
            x.kind = E_CONST;
            x.tk = tk;
            x.first = a;
            x.last = b;
            x.end = tk->v[b].at + 1;
        }
        if (!add(s, x)) return false;
        if (!is(tk, b, ",")) break;
        j = b + 1;
    }
    return true;
}

/* The names that tokens tk[from, to) may declare; file-scope consts too where `top` (the text itself,
 * ifs its #if groups) */
static bool declarations(scan *s, const iks_tokens *tk, size_t from, size_t to, bool top, const size_t *ifs, size_t nifs,
                         body *in)
{
    int paren = 0, brace = 0;
    size_t k = 0;
    bool *claimed = calloc(to - from + 1, 1);
    if (!claimed) return false;
    bool ok = true;
    for (size_t i = from; ok && i < to; i++) {
        const iks_token *v = &tk->v[i];
        if (v->k == IKS_TOK_PUNCT) {
            char c = s->t[v->at];
            paren += c == '(' || c == '[';
            paren -= (c == ')' || c == ']') && paren > 0;
            brace += c == '{';
            brace -= c == '}' && brace > 0;
            continue;
        }
        if (v->k != IKS_TOK_IDENT || claimed[i - from]) continue;
        while (k < nifs && ifs[2 * k + 1] <= v->at) k++;
        if (top && brace == 0 && paren == 0 && is(tk, i, "const") && is(tk, i + 1, "float") &&
            (i == from || is(tk, i - 1, ";") || is(tk, i - 1, "}"))) {
            bool in_if = k < nifs && ifs[2 * k] < v->at;
            ok = const_decl(s, tk, i, to, in_if, claimed); /* top: from is 0 */
            continue;
        }
        if (!declared_here(tk, from, i, paren)) continue;
        if (in && in->par != in->par_end && is_param(s->t, in->par, in->par_end, v->at, v->n)) in->declares = true;
        ok = add(s, (entry){ .at = v->at, .n = v->n, .kind = E_OTHER });
    }
    free(claimed);
    return ok;
}

/* [open, close) offset pairs of the #if groups at the outermost level, for declarations() */
static bool if_groups(const char *t, size_t len, size_t **out, size_t *n)
{
    size_t cap = 0, i = 0, at, end;
    int depth = 0;
    bool line_start = true;
    *out = NULL;
    *n = 0;
    while (iks_tok_next_directive(t, len, &i, &line_start, &at, &end)) {
        const char *q = t + at + 1;
        while (*q == ' ' || *q == '\t') q++;
        if (word(q, "if") || word(q, "ifdef") || word(q, "ifndef")) {
            if (depth++ == 0) {
                if (!IKS_GROW(*out, 2 * (*n + 1), cap)) return false;
                (*out)[2 * *n] = at;
                (*out)[2 * *n + 1] = len; /* an #if never closed runs to the end */
                (*n)++;
            }
        } else if (word(q, "endif") && depth > 0 && --depth == 0) {
            (*out)[2 * *n - 1] = at;
        }
    }
    return true;
}

/* whether a call of the name at t[at, at + n) may declare what it is handed */
static bool declaring(const scan *s, size_t at, size_t n)
{
    size_t lo, c = find(s, at, n, &lo);
    for (size_t k = lo; k < lo + c; k++)
        if (s->e[k].body && s->b[s->e[k].body - 1].declares) return true;
    return false;
}

/* Every name handed to a macro that may declare it (`V(PI)` with `#define V(n) float n = 1.0;`) is
 * a declaration of it, in tk[from, to) */
static bool handed(scan *s, const iks_tokens *tk, size_t from, size_t to)
{
    int depth = 0, close = -1; /* close: the depth at which the outermost such call ends, -1 outside one */
    for (size_t i = from; i < to; i++) {
        if (is(tk, i, "(")) depth++;
        else if (is(tk, i, ")") && depth > 0 && --depth == close) close = -1;
        if (tk->v[i].k != IKS_TOK_IDENT) continue;
        if (close >= 0 && !add(s, (entry){ .at = tk->v[i].at, .n = tk->v[i].n, .kind = E_OTHER })) return false;
        if (close < 0 && i + 1 < to && is(tk, i + 1, "(") && declaring(s, tk->v[i].at, tk->v[i].n)) close = depth;
    }
    return true;
}

static bool scan_text(scan *s, const char *t)
{
    s->t = t;
    s->len = strlen(t);
    if (!iks_tok_range(&s->tk, t, 0, s->len, true) || !directives(s)) return false;
    size_t *ifs, nifs;
    if (!if_groups(t, s->len, &ifs, &nifs)) return false;
    bool ok = declarations(s, &s->tk, 0, s->tk.n, true, ifs, nifs, NULL);
    for (size_t k = 0; ok && k < s->nb; k++)
        ok = declarations(s, &s->mt, s->b[k].first, s->b[k].last, false, NULL, 0, &s->b[k]);
    free(ifs);
    if (!ok) return false;
    /* `const` and `float` themselves must mean what they say */
    bool redefined = false;
    for (size_t i = 0; i < s->ne; i++) {
        const entry *x = &s->e[i];
        redefined |= x->directive && x->n == 5 && (!memcmp(t + x->at, "const", 5) || !memcmp(t + x->at, "float", 5));
    }
    for (size_t j = 0; redefined && j < s->ne; j++)
        if (s->e[j].kind == E_CONST) s->e[j].kind = E_OTHER;
    if (s->ne) qsort(s->e, s->ne, sizeof *s->e, by_name);
    s->nsorted = s->ne;
    /* a macro that hands its parameter to another macro may declare it there */
    for (size_t k = 0; k < s->nb; k++)
        for (size_t i = s->b[k].first; i + 1 < s->b[k].last && !s->b[k].declares; i++)
            if (s->mt.v[i].k == IKS_TOK_IDENT && is(&s->mt, i + 1, "(") && directive_named(s, s->mt.v[i].at, s->mt.v[i].n))
                s->b[k].declares = true;
    size_t before = s->ne;
    ok = handed(s, &s->tk, 0, s->tk.n);
    for (size_t k = 0; ok && k < s->nb; k++) ok = handed(s, &s->mt, s->b[k].first, s->b[k].last);
    if (ok && s->ne != before) qsort(s->e, s->ne, sizeof *s->e, by_name);
    s->nsorted = s->ne;
    return ok;
}

static void scan_free(scan *s)
{
    free(s->tk.v);
    free(s->mt.v);
    free(s->e);
    free(s->b);
}

/* ---- the value of a constant expression ------------------------------------------------------------- */

/* A float constant expression read over tokens with the object-like macros expanded as the
 * preprocessor would (a body's tokens in place of its name), each operation rounded to float as both
 * compilers fold it: literals, unary + and -, + - * / and parentheses, float(int literal), the folded
 * built-ins and the names that have a value. Anything else makes it not constant. */
#define MAX_NEST 48
typedef struct {
    scan *s;
    struct {
        const iks_tokens *tk;
        size_t i, end;
    } f[MAX_NEST];
    int nf;
    int *budget, *depth;
    bool bad;
} ev;

static const iks_token *peek(ev *e, const iks_tokens **tkp)
{
    while (!e->bad) {
        if (e->f[e->nf - 1].i == e->f[e->nf - 1].end) {
            if (e->nf == 1) return NULL;
            e->nf--;
            continue;
        }
        const iks_tokens *tk = e->f[e->nf - 1].tk;
        const iks_token *v = &tk->v[e->f[e->nf - 1].i];
        if (v->k == IKS_TOK_IDENT) {
            size_t lo;
            size_t n = find(e->s, v->at, v->n, &lo);
            bool dir = false;
            for (size_t k = lo; k < lo + n; k++) dir |= e->s->e[k].directive;
            if (dir) {
                entry *m = meaning(e->s, v->at, v->n, E_MACRO);
                if (!m || e->nf == MAX_NEST || --*e->budget < 0) {
                    e->bad = true;
                    return NULL;
                }
                e->f[e->nf - 1].i++;
                e->f[e->nf].tk = m->tk;
                e->f[e->nf].i = m->first;
                e->f[e->nf].end = m->last;
                e->nf++;
                continue;
            }
        }
        *tkp = tk;
        return v;
    }
    return NULL;
}

static bool at_punct(ev *e, char c)
{
    const iks_tokens *tk;
    const iks_token *v = peek(e, &tk);
    return v && v->k == IKS_TOK_PUNCT && tk->t[v->at] == c;
}

static void step(ev *e)
{
    e->f[e->nf - 1].i++;
    if (--*e->budget < 0) e->bad = true;
}

static bool expect(ev *e, char c)
{
    if (!at_punct(e, c)) return e->bad = true, false;
    step(e);
    return true;
}

static float expr(ev *e);

/* a number token: a float literal as the compiler reads it (int_ok: a decimal int literal too) */
static bool number(const char *t, const iks_token *v, bool int_ok, float *out)
{
    char num[64];
    if (v->n >= sizeof num) return false;
    memcpy(num, t + v->at, v->n);
    num[v->n] = '\0';
    size_t n = v->n;
    if (!strpbrk(num, ".eE")) {
        /* an int: decimal only (010 is octal), in range */
        if (!int_ok || strspn(num, "0123456789") != n || (num[0] == '0' && n > 1) || n > 10) return false;
        long long x = strtoll(num, NULL, 10);
        if (x > 2147483647) return false;
        *out = (float)x;
        return true;
    }
    if (num[n - 1] == 'f' || num[n - 1] == 'F') num[--n] = '\0';
    if (strpbrk(num, "xX")) return false;
    char *end;
    float f = iks_strtof_c(num, &end);
    if (*end || !isfinite(f)) return false;
    *out = f;
    return true;
}

static float value_of(ev *e, entry *c);

static float primary(ev *e)
{
    const iks_tokens *tk;
    const iks_token *v = peek(e, &tk);
    float r = 0;
    if (!v) return e->bad = true, 0;
    if (v->k == IKS_TOK_NUMBER) {
        if (!number(tk->t, v, false, &r)) e->bad = true;
        step(e);
        return r;
    }
    if (v->k == IKS_TOK_PUNCT) {
        if (tk->t[v->at] != '(') return e->bad = true, 0;
        step(e);
        r = expr(e);
        expect(e, ')');
        return r;
    }
    size_t at = v->at, n = v->n;
    step(e);
    entry *c = meaning(e->s, at, n, E_CONST);
    if (c) return value_of(e, c);
    /* a built-in, or float(): only where the text declares nothing of that name */
    bool is_float = n == 5 && !memcmp(tk->t + at, "float", 5);
    if ((is_float ? directive_named(e->s, at, n) : count(e->s, at, n) != 0) || !at_punct(e, '('))
        return e->bad = true, 0;
    step(e);
    if (is_float) {
        const iks_tokens *ntk;
        const iks_token *nv = peek(e, &ntk);
        if (nv && nv->k == IKS_TOK_NUMBER && !memchr(ntk->t + nv->at, '.', nv->n) &&
            !memchr(ntk->t + nv->at, 'e', nv->n) && !memchr(ntk->t + nv->at, 'E', nv->n)) {
            if (!number(ntk->t, nv, true, &r)) e->bad = true;
            step(e);
        } else {
            r = expr(e);
        }
        expect(e, ')');
        return r;
    }
    const char *name = NULL;
    for (size_t k = 0; k < sizeof FOLDED / sizeof FOLDED[0] && !name; k++)
        if (strlen(FOLDED[k]) == n && !memcmp(tk->t + at, FOLDED[k], n)) name = FOLDED[k];
    if (!name) return e->bad = true, 0;
    float a[2];
    int na = 0;
    a[na++] = expr(e);
    if (at_punct(e, ',')) {
        step(e);
        a[na++] = expr(e);
    }
    if (!expect(e, ')') || e->bad || !fold(name, na, a, &r)) return e->bad = true, 0;
    return r;
}

static float unary(ev *e)
{
    if (*e->depth >= MAX_NEST) return e->bad = true, 0;
    ++*e->depth;
    float r;
    if (at_punct(e, '-')) {
        step(e);
        r = -unary(e);
    } else if (at_punct(e, '+')) {
        step(e);
        r = unary(e);
    } else {
        r = primary(e);
    }
    --*e->depth;
    return r;
}

/* one operation, rounded to float: in double, each of + - * / of two floats rounds to the same float
 * as the float operation (53 >= 2 * 24 + 2 bits), whatever the C compiler contracts */
static float op(ev *e, char o, float a, float b)
{
    double r = o == '+' ? (double)a + b : o == '-' ? (double)a - b : o == '*' ? (double)a * b : (double)a / b;
    float f = (float)r;
    if ((o == '/' && b == 0) || !isfinite(f)) e->bad = true;
    return f;
}

static float term(ev *e)
{
    float r = unary(e);
    while (!e->bad && (at_punct(e, '*') || at_punct(e, '/'))) {
        char o = at_punct(e, '*') ? '*' : '/';
        step(e);
        r = op(e, o, r, unary(e));
    }
    return r;
}

static float expr(ev *e)
{
    float r = term(e);
    while (!e->bad && (at_punct(e, '+') || at_punct(e, '-'))) {
        char o = at_punct(e, '+') ? '+' : '-';
        step(e);
        r = op(e, o, r, term(e));
    }
    return r;
}

/* the whole of tk[from, to) as one constant; false when it is not one */
static bool evaluate(scan *s, const iks_tokens *tk, size_t from, size_t to, int *budget, int *depth, float *out)
{
    ev e = { .s = s, .nf = 1, .budget = budget, .depth = depth };
    e.f[0].tk = tk;
    e.f[0].i = from;
    e.f[0].end = to;
    if (from == to) return false;
    const iks_tokens *rest;
    *out = expr(&e);
    return !e.bad && !peek(&e, &rest) && !e.bad && isfinite(*out);
}

static float value_of(ev *e, entry *c)
{
    if (c->state == 0) {
        if (*e->depth >= MAX_NEST) return e->bad = true, 0;
        c->state = 1; /* a name in its own initialiser is not constant (and the scan cannot loop) */
        ++*e->depth;
        c->state = evaluate(e->s, c->tk, c->first, c->last, e->budget, e->depth, &c->v) ? 2 : 3;
        --*e->depth;
    }
    if (c->state != 2) e->bad = true;
    return c->v;
}

/* ---- the rewrite -------------------------------------------------------------------------------------- */

typedef struct {
    size_t at, end;
    float v;
} repl;

typedef struct {
    repl *v;
    size_t n, cap;
} repls;

/* Every call of a folded built-in in tk[from, to) whose arguments are constant, with its value; in a
 * function-like macro's body (par: its parameter list in the text) none whose arguments or name hold a
 * parameter, which is the expansion's to say */
static bool calls(scan *s, const iks_tokens *tk, size_t from, size_t to, const body *in, repls *out)
{
    const char *t = s->t;
    for (size_t i = from; i < to; i++) {
        if (tk->v[i].k != IKS_TOK_IDENT || i + 1 >= to || !is(tk, i + 1, "(") || (i > from && is(tk, i - 1, ".")))
            continue;
        const char *name = folded_name(tk, i);
        if (!name || count(s, tk->v[i].at, tk->v[i].n)) continue;
        /* the arguments: up to the matching parenthesis, split at its commas */
        size_t arg[3], na = 0, j = i + 2;
        arg[na++] = j;
        int d = 0;
        bool param = in && in->par != in->par_end && is_param(t, in->par, in->par_end, tk->v[i].at, tk->v[i].n);
        /* a longer call is no constant anyone writes, and the bound keeps nested calls from costing the
         * square of the text */
        size_t stop = to - j > 512 ? j + 512 : to;
        for (; j < stop; j++) {
            if (in && in->par != in->par_end && tk->v[j].k == IKS_TOK_IDENT &&
                is_param(t, in->par, in->par_end, tk->v[j].at, tk->v[j].n))
                param = true;
            if (is(tk, j, "(")) d++;
            else if (is(tk, j, ")") && d-- == 0) break;
            else if (d == 0 && is(tk, j, ",")) {
                if (na == 3) break;
                arg[na++] = j + 1;
            }
        }
        if (j >= stop || param || na > 2) continue;
        size_t at = tk->v[i].at, end = tk->v[j].at + 1;
        if (memchr(t + at, '\n', end - at)) continue; /* a call across lines: folding would lose one */
        float a[2], v;
        bool ok = true;
        /* tokens read, macros expanded: a bound per call and per round, which no toy's constants reach
         * but a macro doubling another's body would */
        int budget = s->budget < 20000 ? s->budget : 20000, given = budget;
        for (size_t k = 0; k < na && ok; k++) {
            int depth = 0;
            size_t e = k + 1 < na ? arg[k + 1] - 1 : j;
            ok = evaluate(s, tk, arg[k], e, &budget, &depth, &a[k]);
        }
        s->budget -= given - (budget > 0 ? budget : 0);
        if (!ok || !fold(name, (int)na, a, &v)) continue;
        if (!IKS_GROW(out->v, out->n + 1, out->cap)) return false;
        out->v[out->n++] = (repl){ at, end, v };
        i = j;
    }
    return true;
}

static int by_at(const void *x, const void *y)
{
    const repl *a = x, *b = y;
    return (a->at > b->at) - (a->at < b->at);
}

/* one round: every call whose arguments are constant now; *changed when any was folded. NULL: out of
 * memory */
static char *round_once(const char *text, bool *changed)
{
    scan s = { .budget = 2000000 };
    repls r = { 0 };
    *changed = false;
    bool ok = scan_text(&s, text) && calls(&s, &s.tk, 0, s.tk.n, NULL, &r);
    /* not in a macro defined twice: `sin(1.)` and `sin(1.0)` differ as bodies, which both compilers
     * reject, and would not once folded */
    for (size_t k = 0; ok && k < s.nb; k++)
        if (count(&s, s.b[k].name, s.b[k].name_n) == 1) ok = calls(&s, &s.mt, s.b[k].first, s.b[k].last, &s.b[k], &r);
    iks_sbuf b = { 0 };
    if (ok && r.n) {
        /* the text's calls and the bodies' lie apart, each in order: sorted, none overlaps */
        qsort(r.v, r.n, sizeof *r.v, by_at);
        size_t from = 0;
        for (size_t k = 0; k < r.n; k++) {
            char num[48];
            iks_snprintf_c(num, sizeof num, "%.9g", (double)r.v[k].v);
            if (!strpbrk(num, ".e")) strcat(num, ".0"); /* "1" would be an int */
            iks_sbuf_add(&b, text + from, r.v[k].at - from);
            /* a negative value (-0.0 too) in parentheses: `x-cos(2.0)` must not become `x--0.41` */
            iks_sbuf_fmt(&b, signbit(r.v[k].v) ? "(%s)" : "%s", num);
            from = r.v[k].end;
        }
        iks_sbuf_add(&b, text + from, strlen(text) - from);
        *changed = true;
    }
    scan_free(&s);
    free(r.v);
    if (!ok || b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s ? b.s : strdup(text);
}

char *iks_fold_constants(const char *text)
{
    char *cur = strdup(text);
    /* each round folds every call it can; a round that folds nothing ends it (every round that folds
     * one removes a call, so it ends) */
    for (bool changed = true; cur && changed;) {
        char *next = round_once(cur, &changed);
        free(cur);
        cur = next;
    }
    return cur;
}
