/* opts.c: see opts.h. */
#include "cli/opts.h"

#include "base/buf.h"
#include "base/strutil.h"
#include "cli/cli.h"
#include "cli/session.h"
#include "ikshade/ikshade.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- walking a table (with the tables it includes) ---------------------------------------------- */

typedef bool (*row_fn)(const iks_opt *o, size_t base, void *ctx);

/* Calls fn on every row, with the offset of the struct its .off counts from; false stops the walk */
static bool each_row(const iks_opt *t, size_t base, row_fn fn, void *ctx)
{
    for (; t && t->kind != IKS_OPT_END; t++) {
        if (t->kind == IKS_OPT_TABLE) {
            if (!each_row(t->sub, base + t->off, fn, ctx)) return false;
        } else if (!fn(t, base, ctx)) return false;
    }
    return true;
}

typedef struct {
    const char *arg;    /* what was given: "--fps", "--fps=3", "-Idir" */
    const iks_opt *hit;
    size_t base;
    const char *joined; /* the value given in the same word (after '=', or -I's) */
    const char *as;     /* the spelling used (the name or the alias) */
} finding;

static bool match_row(const iks_opt *o, size_t base, void *ctx)
{
    finding *f = ctx;
    const char *names[2] = { o->name, o->alias };
    for (int k = 0; k < 2; k++) {
        const char *n = names[k];
        if (!n) continue;
        size_t len = strlen(n);
        if (strncmp(f->arg, n, len) != 0) continue;
        const char *rest = f->arg + len;
        /* -Idir: a short option whose value follows it in the same word */
        bool glued = len == 2 && n[0] == '-' && n[1] != '-' && *rest && o->kind != IKS_OPT_FLAG && strcmp(n, "-o") != 0;
        if (*rest && *rest != '=' && !glued) continue;
        f->hit = o;
        f->base = base;
        f->as = n;
        f->joined = *rest == '=' && !glued ? rest + 1 : glued ? rest : NULL;
        return false;
    }
    return true;
}

/* ---- "did you mean" ------------------------------------------------------------------------------ */

/* Edit distance between a and b (each at most 63 characters; longer ones are far from anything) */
static int distance(const char *a, size_t na, const char *b, size_t nb)
{
    if (na > 63 || nb > 63) return 99;
    int row[64];
    for (size_t j = 0; j <= nb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
}

typedef struct {
    const char *arg;
    size_t na;
    const char *best;
    int dbest;
} nearest;

static bool near_row(const iks_opt *o, size_t base, void *ctx)
{
    (void)base;
    nearest *n = ctx;
    const char *names[2] = { o->name, o->alias };
    for (int k = 0; k < 2; k++) {
        if (!names[k] || strlen(names[k]) < 3) continue;
        int d = distance(n->arg, n->na, names[k], strlen(names[k]));
        if (d < n->dbest || (d == n->dbest && n->best && strlen(names[k]) < strlen(n->best)))
            n->best = names[k], n->dbest = d;
    }
    return true;
}

static bool secret_row(const iks_opt *o, size_t base, void *ctx)
{
    (void)base;
    *(bool *)ctx |= (o->flags & IKS_OPT_SECRET) != 0;
    return true;
}

static int unknown(const char *cmd, const iks_opt *table, const char *arg)
{
    /* the nearest option within two edits is the likely one */
    const char *eq = strchr(arg, '=');
    nearest n = { arg, eq ? (size_t)(eq - arg) : strlen(arg), NULL, 3 };
    each_row(table, 0, near_row, &n);
    /* a mistyped secret option's value is the secret */
    bool secret = false;
    each_row(table, 0, secret_row, &secret);
    char *shown = secret ? strndup(arg, n.na) : iks_redact(arg, NULL, 0);
    if (!shown) return iks_fail(cmd, "out of memory");
    int rc = n.best ? iks_usage(cmd, "unknown option '%s': did you mean '%s'? (see ikshade help %s)", shown, n.best, cmd)
                    : iks_usage(cmd, "unknown option '%s' (see ikshade help %s)", shown, cmd);
    free(shown);
    return rc;
}

/* ---- values ------------------------------------------------------------------------------------ */

/* A value into its place. 1: stored; 0: malformed (the row's expect says how); -1: outside the
 * command line's own range or a forbidden 0 (said here) */
static int store(const iks_opt *o, const char *as, const char *v, void *dst, char *why, size_t n)
{
    why[0] = '\0';
    long l = 0;
    double d = 0;
    switch (o->kind) {
    case IKS_OPT_STRING: *(const char **)dst = v; return 1;
    case IKS_OPT_LIST: {
        iks_strlist *list = dst;
        list->v[list->n++] = v;
        return 1;
    }
    case IKS_OPT_INT:
    case IKS_OPT_LONG:
        if (!iks_parse_long(v, &l) || (o->kind == IKS_OPT_INT && (l < INT_MIN || l > INT_MAX))) return 0;
        d = (double)l;
        break;
    case IKS_OPT_DOUBLE:
        if (!iks_parse_finite(v, &d)) return 0;
        break;
    case IKS_OPT_SIZE: {
        int *wh = dst;
        char *end;
        errno = 0;
        long w = strtol(v, &end, 10), h;
        if (end == v || (*end != 'x' && *end != 'X') || w < 1 || w > INT_MAX || errno) return 0;
        const char *q = end + 1;
        if (!iks_parse_long(q, &h) || h < 1 || h > INT_MAX || *q == '+' || *q == '-' || isspace((unsigned char)*q)) return 0;
        wh[0] = (int)w;
        wh[1] = (int)h;
        return 1;
    }
    case IKS_OPT_PARSE: return o->parse(v, dst) ? 1 : 0;
    default: return 0;
    }
    if ((o->flags & IKS_OPT_NONZERO) && d == 0) {
        snprintf(why, n, "%s '%s': expected a number other than 0", as, v);
        return -1;
    }
    if (o->min < o->max && !(d >= o->min && d <= o->max)) {
        snprintf(why, n, "%s '%s': expected %s from %.15g to %.15g", as, v, o->kind == IKS_OPT_DOUBLE ? "a number" :
                 "a whole number", o->min, o->max);
        return -1;
    }
    if (o->kind == IKS_OPT_INT) *(int *)dst = (int)l;
    else if (o->kind == IKS_OPT_LONG) *(long *)dst = l;
    else *(double *)dst = d;
    return 1;
}

/* ---- parsing ----------------------------------------------------------------------------------- */

typedef struct {
    void *base;
    int argc;
    bool failed;
} alloc_ctx;

static bool alloc_lists(const iks_opt *o, size_t base, void *ctx)
{
    alloc_ctx *c = ctx;
    if (o->kind != IKS_OPT_LIST) return true;
    iks_strlist *l = (iks_strlist *)((char *)c->base + base + o->off);
    l->v = calloc((size_t)(c->argc > 0 ? c->argc : 1), sizeof *l->v);
    l->n = 0;
    if (!l->v) c->failed = true;
    return true;
}

static bool free_lists(const iks_opt *o, size_t base, void *ctx)
{
    if (o->kind != IKS_OPT_LIST) return true;
    iks_strlist *l = (iks_strlist *)((char *)ctx + base + o->off);
    free(l->v);
    l->v = NULL;
    l->n = 0;
    return true;
}

int iks_opts_parse(const char *cmd, const iks_opt *table, int argc, char **argv, void *base, iks_args *a)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->table = table;
    size_t n = argc > 0 ? (size_t)argc : 1;
    a->given = calloc(n, sizeof *a->given);
    a->pos = calloc(n, sizeof *a->pos);
    alloc_ctx ac = { base, argc, false };
    each_row(table, 0, alloc_lists, &ac);
    if (!a->given || !a->pos || ac.failed) return iks_fail(cmd, "out of memory");
    bool options = true;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (options && strcmp(arg, "--") == 0) {
            options = false;
            continue;
        }
        if (!options || arg[0] != '-' || !arg[1]) {
            a->pos[a->npos++] = arg;
            continue;
        }
        finding f = { .arg = arg };
        each_row(table, 0, match_row, &f);
        const iks_opt *o = f.hit;
        if (!o) return unknown(cmd, table, arg);
        const char *v = NULL;
        if (o->kind == IKS_OPT_FLAG) {
            if (f.joined) return iks_usage(cmd, "%s takes no value (got '%s')", f.as, f.joined);
            *(bool *)((char *)base + f.base + o->off) = true;
        } else {
            v = f.joined;
            if (!v && i + 1 < argc) v = argv[++i];
            if (!v) return iks_usage(cmd, "%s needs %s", f.as, o->need ? o->need : o->arg);
            char why[512];
            int r = store(o, f.as, v, (char *)base + f.base + o->off, why, sizeof why);
            if (r == 0) return iks_usage(cmd, "%s '%s': %s", f.as, v, o->expect ? o->expect : "malformed");
            if (r < 0) return iks_usage(cmd, "%s", why);
        }
        int nth = 0;
        for (int k = 0; k < a->ngiven; k++) nth += a->given[k].opt == o;
        a->given[a->ngiven++] = (iks_given){ o, v, nth, f.as };
    }
    return -1;
}

void iks_args_free(iks_args *a, void *base)
{
    if (base && a->table) each_row(a->table, 0, free_lists, base);
    free(a->given);
    free(a->pos);
    memset(a, 0, sizeof *a);
}

const iks_given *iks_args_given(const iks_args *a, const char *name)
{
    for (int k = a->ngiven - 1; k >= 0; k--)
        if (strcmp(a->given[k].opt->name, name) == 0) return &a->given[k];
    return NULL;
}

/* ---- the library's errors in the user's words -------------------------------------------------- */

/* whether the space-separated list holds word (n bytes) */
static bool lists(const char *list, const char *word, size_t n)
{
    for (const char *p = list; p && *p;) {
        size_t k = strcspn(p, " ");
        if (k == n && !strncmp(p, word, n)) return true;
        p += k;
        while (*p == ' ') p++;
    }
    return false;
}

/* The option given for a field ("fps", "channel[2]", "sets[3]"): a row that lists the field itself, or
 * one that lists its name without the index, given that many times. NULL when none was given. */
static const iks_given *given_for(const iks_args *a, const char *field)
{
    const iks_given *g = NULL;
    for (int k = 0; k < a->ngiven; k++)
        if (a->given[k].opt->field && lists(a->given[k].opt->field, field, strlen(field))) g = &a->given[k];
    if (g) return g;
    const char *br = strchr(field, '[');
    long idx;
    char *end;
    if (!br || (idx = strtol(br + 1, &end, 10)) < 0 || *end != ']') return NULL;
    for (int k = 0; k < a->ngiven; k++)
        if (a->given[k].opt->field && lists(a->given[k].opt->field, field, (size_t)(br - field)) && a->given[k].nth == idx)
            return &a->given[k];
    return NULL;
}

typedef struct {
    const char *word;
    size_t n;
    const iks_opt *found;
} field_find;

static bool find_field(const iks_opt *o, size_t base, void *ctx)
{
    (void)base;
    field_find *f = ctx;
    if (o->field && lists(o->field, f->word, f->n)) {
        f->found = o;
        return false;
    }
    return true;
}

static bool ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

static bool lone_word(const char *m, const char *p, size_t n)
{
    char before = p == m ? ' ' : p[-1], after = p[n];
    if (before != ' ' && before != '(') return false;
    if (!after || after == ' ' || after == ')' || after == ',' || after == ':' || after == ';') return true;
    /* the end of a sentence, or "png_level's" */
    if (after == '.') return !p[n + 1] || p[n + 1] == ' ';
    return after == '\'' && p[n + 1] == 's' && (!p[n + 2] || p[n + 2] == ' ');
}

char *iks_opts_words(const iks_opt *table, const char *m)
{
    iks_sbuf out = { 0 };
    for (const char *p = m; *p;) {
        size_t n = 0;
        if (ident(*p) && (p == m || !ident(p[-1])))
            while (ident(p[n])) n++;
        /* a field with an index, channel[2] */
        if (n && p[n] == '[' && isdigit((unsigned char)p[n + 1])) {
            size_t k = n + 1;
            while (isdigit((unsigned char)p[k])) k++;
            if (p[k] == ']') n = k + 1;
        }
        bool marked = false;
        for (size_t i = 0; i < n && !marked; i++) marked = p[i] == '_' || p[i] == '[' || (i && isdigit((unsigned char)p[i]));
        /* only a word standing alone: a path (/ro/time0.png) or a quoted name ('png_level', a uniform)
         * holds the same letters and must come out as it went in */
        marked = marked && lone_word(m, p, n);
        field_find f = { p, n, NULL };
        if (marked) each_row(table, 0, find_field, &f);
        if (f.found) iks_sbuf_str(&out, f.found->says ? f.found->says : f.found->name);
        else iks_sbuf_add(&out, p, n ? n : 1);
        p += n ? n : 1;
    }
    return iks_sbuf_take(&out, NULL);
}

int iks_opts_error(const iks_args *a) { return iks_opts_error_as(a, iks_last_error_field(NULL)); }

int iks_opts_error_as(const iks_args *a, const char *field)
{
    const char *msg, *reason;
    iks_code c = iks_last_error(&msg);
    iks_last_error_field(&reason);
    const iks_given *g = field && field[0] ? given_for(a, field) : NULL;
    if (c == IKS_E_COMPILE || c == IKS_OK) return iks_print_last_error(a->cmd);
    char *words = iks_opts_words(a->table, g ? reason : msg);
    const char *text = words ? words : g ? reason : msg;
    char *value = g && g->value && !(g->opt->flags & IKS_OPT_SECRET) ? iks_redact(g->value, NULL, 0) : NULL;
    if (value) iks_fail(a->cmd, "%s '%s': %s", g->as, value, text);
    else if (g) iks_fail(a->cmd, "%s: %s", g->as, text);
    else iks_fail(a->cmd, "%s", text);
    free(value), free(words);
    return iks_exit_status(c);
}

/* ---- help and completions ----------------------------------------------------------------------- */

#define LEFT 20 /* the options' column: "  --name ARG" padded to it */

static bool help_row(const iks_opt *o, size_t base, void *ctx)
{
    (void)base;
    FILE *f = ctx;
    if (o->flags & IKS_OPT_HIDDEN) return true;
    char left[128];
    snprintf(left, sizeof left, "%s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->label ? o->label : o->name,
             o->arg ? " " : "", o->arg ? o->arg : "");
    fprintf(f, "  %-*s%s", LEFT, left, strlen(left) >= LEFT ? "  " : " ");
    for (const char *h = o->help ? o->help : ""; *h;) {
        size_t n = strcspn(h, "\n");
        fprintf(f, "%.*s\n", (int)n, h);
        h += n;
        if (*h) {
            h++;
            fprintf(f, "%*s", LEFT + 3, "");
        }
    }
    if (!o->help || !*o->help) fputc('\n', f);
    return true;
}

void iks_opts_help(FILE *f, const iks_opt *table) { each_row(table, 0, help_row, f); }

