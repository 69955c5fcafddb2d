/* params.c: #iUniform lines (see params.h for the form). A small recursive-descent reader over one line:
 * the line is the whole input, so nothing here can run past it. */
#include "glsl/params.h"
#include "base/strutil.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEYWORD "#iUniform"

typedef struct {
    const char *p, *end;
    char *why;
    size_t whycap;
} rd;

static bool bad(rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool bad(rd *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, r->whycap, fmt, ap);
    va_end(ap);
    return false;
}

static void ws(rd *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\r')) r->p++;
}

static bool at_end(rd *r)
{
    ws(r);
    /* a comment ends the line's content, as the extension's own examples write them */
    return r->p >= r->end || (r->end - r->p >= 2 && r->p[0] == '/' && (r->p[1] == '/' || r->p[1] == '*'));
}

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* an identifier into out (cap bytes); false (nothing consumed) when there is none */
static bool ident(rd *r, char *out, size_t cap)
{
    ws(r);
    const char *s = r->p;
    if (s >= r->end || !(isalpha((unsigned char)*s) || *s == '_')) return false;
    while (r->p < r->end && ident_char(*r->p)) r->p++;
    size_t n = (size_t)(r->p - s);
    if (n >= cap) {
        r->p = s;
        return false;
    }
    memcpy(out, s, n);
    out[n] = '\0';
    return true;
}

static bool punct(rd *r, char c)
{
    ws(r);
    if (r->p < r->end && *r->p == c) {
        r->p++;
        return true;
    }
    return false;
}

static bool word(rd *r, const char *w)
{
    ws(r);
    size_t n = strlen(w);
    if ((size_t)(r->end - r->p) >= n && memcmp(r->p, w, n) == 0 && (r->p + n == r->end || !ident_char(r->p[n]))) {
        r->p += n;
        return true;
    }
    return false;
}

/* a number as GLSL writes one (1, -2.5, .5, 52., 1e-3, a trailing f or u), true or false */
static bool number(rd *r, double *v)
{
    ws(r);
    if (word(r, "true")) return *v = 1, true;
    if (word(r, "false")) return *v = 0, true;
    char buf[64];
    size_t n = 0;
    const char *s = r->p;
    while (s + n < r->end && n < sizeof buf - 1 && (isalnum((unsigned char)s[n]) || strchr("+-.", s[n]))) {
        /* a sign only first or after an exponent's e */
        if ((s[n] == '+' || s[n] == '-') && n > 0 && s[n - 1] != 'e' && s[n - 1] != 'E') break;
        buf[n] = s[n];
        n++;
    }
    buf[n] = '\0';
    if (n && (buf[n - 1] == 'f' || buf[n - 1] == 'F' || buf[n - 1] == 'u' || buf[n - 1] == 'U')) buf[--n] = '\0';
    if (!n || strpbrk(buf, "xX")) return false; /* no hexadecimal: GLSL's floats have none */
    char *e;
    errno = 0;
    double d = iks_strtod_c(buf, &e);
    if (*e || errno == ERANGE || !isfinite(d)) return false;
    const char *after = s + (e - buf);
    r->p = after + (after < r->end && strchr("fFuU", *after) != NULL);
    *v = d;
    return true;
}

typedef struct {
    const char *name;   /* as written after #iUniform */
    const char *type;   /* what the compiler sees */
    iks_ubase base;
    int n;
    bool color;
} ptype;

/* the types the extension takes, and ours: one table for the parser, the docs and the messages */
static const ptype TYPES[] = {
    { "float", "float", IKS_U_FLOAT, 1, false }, { "vec2", "vec2", IKS_U_FLOAT, 2, false },
    { "vec3", "vec3", IKS_U_FLOAT, 3, false },   { "vec4", "vec4", IKS_U_FLOAT, 4, false },
    { "color3", "vec3", IKS_U_FLOAT, 3, true },  { "color4", "vec4", IKS_U_FLOAT, 4, true },
    { "int", "int", IKS_U_INT, 1, false },       { "ivec2", "ivec2", IKS_U_INT, 2, false },
    { "ivec3", "ivec3", IKS_U_INT, 3, false },   { "ivec4", "ivec4", IKS_U_INT, 4, false },
    { "bool", "bool", IKS_U_BOOL, 1, false },
};
#define NTYPES (sizeof TYPES / sizeof TYPES[0])
#define TYPE_LIST "float, vec2, vec3, vec4, color3, color4, int, ivec2, ivec3, ivec4 or bool"

/* a value: a number, or a constructor of the declared type (or, for a colour, vec3/vec4 as well) with one
 * value for every component or a single one for all */
static bool value(rd *r, const ptype *t, double out[4])
{
    char ctor[16];
    const char *save = r->p;
    if (!ident(r, ctor, sizeof ctor) || strcmp(ctor, "true") == 0 || strcmp(ctor, "false") == 0) {
        r->p = save;
        double v;
        if (!number(r, &v)) return bad(r, "expected a number or %s(...) as the value", t->name);
        for (int c = 0; c < 4; c++) out[c] = v;
        return true;
    }
    if (strcmp(ctor, t->name) != 0 && strcmp(ctor, t->type) != 0)
        return bad(r, "the value's type %s is not the declared %s", ctor, t->name);
    if (!punct(r, '(')) return bad(r, "expected '(' after %s", ctor);
    int k = 0;
    double v[4] = { 0 };
    do {
        if (k == 4 || !number(r, &v[k])) return bad(r, "expected up to 4 numbers in %s(...)", ctor);
        k++;
    } while (punct(r, ','));
    if (!punct(r, ')')) return bad(r, "expected ')' to close %s(...)", ctor);
    if (k != 1 && k != t->n) return bad(r, "%s(...) takes 1 or %d values, got %d", ctor, t->n, k);
    for (int c = 0; c < 4; c++) out[c] = k == 1 ? v[0] : c < k ? v[c] : 0;
    return true;
}

/* Whether what of t's declaration (its value, a component of it, a bound or its step) fits t's
 * components, by the rule --set and every setter keep (iks_ubase_refuses): refused here, on the line
 * that wrote it, rather than when the GL side sets the default */
static bool fits(rd *r, const char *name, const ptype *t, const char *what, int comp, double v)
{
    const char *why = iks_ubase_refuses(t->base, v);
    if (!why) return true;
    char num[32];
    iks_double_text(v, num, sizeof num);
    const char *a = t->name[0] == 'i' ? "an" : "a";
    if (comp) return bad(r, "%s is %s %s: component %d of its %s (%s) is %s", name, a, t->name, comp, what, num, why);
    return bad(r, "%s is %s %s: its %s %s is %s", name, a, t->name, what, num, why);
}

bool iks_param_is_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
    size_t k = strlen(KEYWORD);
    return n - i >= k && memcmp(s + i, KEYWORD, k) == 0 && (n - i == k || !ident_char(s[i + k]));
}

bool iks_param_parse(const char *s, size_t n, iks_param *p, char *decl, size_t cap, char *why, size_t whycap)
{
    rd r = { s, s + n, why, whycap };
    memset(p, 0, sizeof *p);
    ws(&r);
    if (!word(&r, KEYWORD)) return bad(&r, "expected " KEYWORD);
    char tname[16], name[sizeof p->name];
    if (!ident(&r, tname, sizeof tname)) return bad(&r, "expected a type after " KEYWORD " (" TYPE_LIST ")");
    const ptype *t = NULL;
    for (size_t i = 0; i < NTYPES && !t; i++)
        if (strcmp(TYPES[i].name, tname) == 0) t = &TYPES[i];
    if (!t) return bad(&r, "type '%s' cannot be a parameter: expected " TYPE_LIST, tname);
    if (!ident(&r, name, sizeof name)) return bad(&r, "expected a name (at most %zu characters) after %s", sizeof name - 1, tname);
    if (strncmp(name, "gl_", 3) == 0) return bad(&r, "'%s': names beginning with gl_ are GLSL's", name);
    if (iks_prelude_declares(name)) return bad(&r, "'%s' is set by ikshade for every frame", name);
    snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->type, sizeof p->type, "%s", t->type);
    p->base = t->base;
    p->n = t->n;
    p->color = t->color;
    if (punct(&r, '=') && !value(&r, t, p->def)) return false;
    for (int c = 0; c < p->n; c++)
        if (!fits(&r, name, t, "value", p->n > 1 ? c + 1 : 0, p->def[c])) return false;
    if (word(&r, "in")) {
        if (t->base == IKS_U_BOOL) return bad(&r, "a bool takes no range");
        if (!punct(&r, '{')) return bad(&r, "expected '{ min, max }' after in");
        if (!number(&r, &p->min)) return bad(&r, "expected a number as the range's minimum");
        if (!punct(&r, ',')) return bad(&r, "expected ',' between the range's minimum and maximum");
        if (!number(&r, &p->max)) return bad(&r, "expected a number as the range's maximum");
        if (!punct(&r, '}')) return bad(&r, "expected '}' to close the range");
        if (!fits(&r, name, t, "range's minimum", 0, p->min) || !fits(&r, name, t, "range's maximum", 0, p->max))
            return false;
        if (!(p->min < p->max)) return bad(&r, "the range { %g, %g } is empty: the minimum must be below the maximum", p->min, p->max);
        p->has_range = true;
    }
    if (word(&r, "step")) {
        if (!number(&r, &p->step) || !(p->step > 0)) return bad(&r, "expected a number above 0 after step");
        if (!fits(&r, name, t, "step", 0, p->step)) return false;
        if (p->has_range && p->step > p->max - p->min)
            return bad(&r, "step %g is larger than the range { %g, %g }", p->step, p->min, p->max);
    }
    if (t->base == IKS_U_INT && p->step == 0) p->step = 1;
    punct(&r, ';'); /* written by habit after a declaration */
    if (!at_end(&r)) return bad(&r, "unexpected '%.*s' after the declaration", (int)(r.end - r.p > 20 ? 20 : r.end - r.p), r.p);
    snprintf(decl, cap, "uniform %s %s;", t->type, name);
    return true;
}
