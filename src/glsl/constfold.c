/* constfold.c: built-ins of constant arguments folded as the site's compiler folds them. ANGLE
 * evaluates a call such as acos(0.5) when it compiles, with the C library's float functions, and
 * hands the driver the number: 1.0471976, the float nearest to the true value. Mesa evaluates the same
 * call with its own lowering (acos as a polynomial), a few units in the last place away, so toys that
 * compare or hash such constants (`acos(0.5) == 1.0471976`) differ.
 *
 * So a call of one of these functions whose arguments are float literals (each maybe signed or in
 * parentheses) is replaced by its value: computed in double from the float arguments and rounded once
 * to float, which is the correctly rounded result (inversesqrt as ANGLE writes it, 1.0f / sqrtf(x):
 * two float roundings). The value is printed with 9 significant digits, which reads back as the same
 * float. Calls nested in calls fold from the inside out (`sin(acos(0.5))`).
 * Left as written: arguments that are not literals (a `const` name, an expression: ANGLE folds those
 * too, this does not), a call split across lines (the replacement would lose a line), calls inside a
 * macro's body, a function name the text #defines, and arguments where the result is undefined
 * (acos(2.0), log(0.0), pow(-1.0, 0.5)) or not finite, which ANGLE reports and Mesa computes as it
 * will. Text only, no GL. */
#include "glsl/source.h"
#include "glsl/gltok.h"
#include "base/buf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is(const iks_tokens *tk, size_t i, const char *s) { return iks_tok_is(tk, i, s); }

/* one float literal argument at token i, maybe signed and in parentheses: its value rounded to float
 * as the compiler reads it; *end the token after it */
static bool literal(const iks_tokens *tk, size_t i, float *v, size_t *end)
{
    if (is(tk, i, "(")) {
        if (!literal(tk, i + 1, v, end) || !is(tk, *end, ")")) return false;
        (*end)++;
        return true;
    }
    double sign = 1;
    if (is(tk, i, "-") || is(tk, i, "+")) {
        sign = is(tk, i, "-") ? -1 : 1;
        i++;
    }
    if (i >= tk->n || tk->v[i].k != IKS_TOK_NUMBER || tk->v[i].n >= 64) return false;
    char num[64];
    memcpy(num, tk->t + tk->v[i].at, tk->v[i].n);
    num[tk->v[i].n] = '\0';
    size_t n = strlen(num);
    if (n && (num[n - 1] == 'f' || num[n - 1] == 'F')) num[--n] = '\0';
    /* a float literal: a point or an exponent, decimal (an int argument is another overload, or an error) */
    if (!strpbrk(num, ".eE") || strpbrk(num, "xX")) return false;
    char *e;
    float f = strtof(num, &e);
    if (*e || !isfinite(f)) return false;
    *v = (float)(sign * f);
    *end = i + 1;
    return true;
}

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

/* the names that a #define makes: a call of one of them is the macro's, not the built-in */
static bool defined(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const char *q = iks_tok_define_name(p);
        if (!q) continue;
        if (!strncmp(q, name, n) && !iks_tok_ident_char(q[n])) return true;
    }
    return false;
}

static const char *const FOLDED[] = { "sin",   "cos",   "tan", "asin", "acos", "atan", "sinh", "cosh",
                                      "tanh",  "asinh", "acosh", "atanh", "exp", "exp2", "log",  "log2",
                                      "sqrt",  "inversesqrt", "pow" };

/* one round: every call whose arguments are literals now; *changed when any was folded. NULL: out of
 * memory */
static char *round_once(const char *text, bool *changed)
{
    size_t len = strlen(text);
    iks_tokens tk = { 0 };
    *changed = false;
    if (!iks_tok_range(&tk, text, 0, len, true)) return NULL;
    iks_sbuf b = { 0 };
    size_t from = 0;
    for (size_t i = 0; i + 3 < tk.n; i++) {
        if (tk.v[i].k != IKS_TOK_IDENT || !is(&tk, i + 1, "(") || (i > 0 && is(&tk, i - 1, "."))) continue;
        const char *name = NULL;
        for (size_t k = 0; k < sizeof FOLDED / sizeof FOLDED[0] && !name; k++)
            if (is(&tk, i, FOLDED[k])) name = FOLDED[k];
        if (!name) continue;
        float a[2];
        int n = 0;
        size_t j = i + 2;
        while (n < 2 && literal(&tk, j, &a[n], &j)) {
            n++;
            if (!is(&tk, j, ",")) break;
            j++;
        }
        float v;
        if (!n || !is(&tk, j, ")") || !fold(name, n, a, &v) || defined(text, name)) continue;
        size_t at = tk.v[i].at, end = tk.v[j].at + 1;
        if (memchr(text + at, '\n', end - at)) continue; /* a call across lines: folding would lose one */
        char num[48];
        snprintf(num, sizeof num, "%.9g", (double)v);
        if (!strpbrk(num, ".e")) strcat(num, ".0"); /* "1" would be an int */
        iks_sbuf_add(&b, text + from, at - from);
        iks_sbuf_fmt(&b, v < 0 ? "(%s)" : "%s", num);
        from = end;
        *changed = true;
        i = j;
    }
    iks_sbuf_add(&b, text + from, len - from);
    free(tk.v);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s ? b.s : strdup(text);
}

char *iks_fold_constants(const char *text)
{
    char *cur = strdup(text);
    /* each round folds the innermost calls; a round that folds nothing ends it (every round that folds
     * one removes a call, so it ends) */
    for (bool changed = true; cur && changed;) {
        char *next = round_once(cur, &changed);
        free(cur);
        cur = next;
    }
    return cur;
}
