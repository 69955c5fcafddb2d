/* gltok.c: see gltok.h. */
#include "glsl/gltok.h"
#include "base/buf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool iks_tok_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
bool iks_tok_ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Where the comment starting at t[i] ends (the newline of a // comment stays); i when none starts there */
size_t iks_tok_skip_comment(const char *t, size_t len, size_t i)
{
    if (t[i] != '/' || i + 1 >= len) return i;
    if (t[i + 1] == '/') {
        while (i < len && t[i] != '\n') i++;
        return i;
    }
    if (t[i + 1] == '*') {
        const char *e = strstr(t + i + 2, "*/");
        return e ? (size_t)(e - t) + 2 : len;
    }
    return i;
}

bool iks_tok_next_directive(const char *t, size_t len, size_t *i, bool *line_start, size_t *start, size_t *end)
{
    size_t k = *i;
    bool ls = *line_start;
    while (k < len) {
        char c = t[k];
        if (c == '\\' && k + 1 < len && (t[k + 1] == '\n' || t[k + 1] == '\r')) {
            k++;
            continue;
        }
        if (c == '\n') {
            ls = true;
            k++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            k++;
            continue;
        }
        size_t after = iks_tok_skip_comment(t, len, k);
        if (after != k) {
            k = after;
            continue;
        }
        if (c == '#' && ls) {
            *start = k;
            while (k < len && t[k] != '\n') k += t[k] == '\\' && k + 1 < len ? 2 : 1;
            *end = *i = k;
            *line_start = false; /* the newline at k starts the next line */
            return true;
        }
        ls = false;
        k++;
    }
    *i = k;
    *line_start = ls;
    return false;
}

/* Tokens of t, skipping comments and preprocessor lines (with their continuations); false when out of
 * memory. A preprocessor line is kept out of the stream: what it defines is looked at separately. */
bool iks_tok_range(iks_tokens *tk, const char *t, size_t from, size_t len, bool line_start)
{
    tk->t = t;
    tk->len = len;
    for (size_t i = from; i < len;) {
        char c = t[i];
        if (c == '\\' && i + 1 < len && (t[i + 1] == '\n' || t[i + 1] == '\r')) {
            i++; /* a splice joins two lines: no token (a macro body's continuation lines) */
            continue;
        }
        if (c == '\n') {
            line_start = true;
            i++;
            continue;
        }
        if (isspace((unsigned char)c)) {
            i++;
            continue;
        }
        size_t after = iks_tok_skip_comment(t, len, i);
        if (after != i) {
            i = after;
            continue;
        }
        if (c == '#' && line_start) {
            while (i < len && t[i] != '\n') i += t[i] == '\\' && i + 1 < len ? 2 : 1;
            continue;
        }
        line_start = false;
        iks_token k = { IKS_TOK_PUNCT, i, 1 };
        if (iks_tok_ident_start(c)) {
            k.k = IKS_TOK_IDENT;
            while (i + k.n < len && iks_tok_ident_char(t[i + k.n])) k.n++;
        } else if (isdigit((unsigned char)c) || (c == '.' && i + 1 < len && isdigit((unsigned char)t[i + 1]))) {
            k.k = IKS_TOK_NUMBER;
            while (i + k.n < len) {
                char d = t[i + k.n];
                bool exp_sign = (d == '+' || d == '-') && (t[i + k.n - 1] == 'e' || t[i + k.n - 1] == 'E') &&
                                !(t[i] == '0' && k.n > 1 && (t[i + 1] == 'x' || t[i + 1] == 'X'));
                if (!(iks_tok_ident_char(d) || d == '.' || exp_sign)) break;
                k.n++;
            }
        }
        if (!IKS_GROW(tk->v, tk->n + 1, tk->cap)) return false;
        tk->v[tk->n++] = k;
        i += k.n;
    }
    return true;
}


bool iks_tok_is(const iks_tokens *tk, size_t i, const char *s)
{
    if (i >= tk->n) return false;
    size_t n = strlen(s);
    return tk->v[i].n == n && memcmp(tk->t + tk->v[i].at, s, n) == 0;
}


void iks_edits_add(iks_edits *ed, size_t at, char *text)
{
    if (!text || ed->oom || !IKS_GROW(ed->v, ed->n + 1, ed->cap)) {
        free(text);
        ed->oom = true;
        return;
    }
    ed->v[ed->n] = (iks_edit){ at, ed->n, text };
    ed->n++;
}

static int by_offset(const void *a, const void *b)
{
    const iks_edit *x = a, *y = b;
    /* at one offset, the earlier edit first (qsort is not stable) */
    if (x->at != y->at) return x->at < y->at ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

char *iks_edits_apply(iks_edits *ed, const char *text, size_t len)
{
    if (ed->oom) return NULL;
    if (ed->n) qsort(ed->v, ed->n, sizeof *ed->v, by_offset);
    iks_sbuf b = { 0 };
    size_t from = 0;
    for (size_t i = 0; i < ed->n; i++) {
        iks_sbuf_add(&b, text + from, ed->v[i].at - from);
        iks_sbuf_str(&b, ed->v[i].text);
        from = ed->v[i].at;
    }
    iks_sbuf_add(&b, text + from, len - from);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s ? b.s : strdup(text);
}

void iks_edits_free(iks_edits *ed)
{
    for (size_t i = 0; i < ed->n; i++) free(ed->v[i].text);
    free(ed->v);
    memset(ed, 0, sizeof *ed);
}

const char *iks_tok_define_name(const char *line)
{
    const char *q = line;
    while (*q == ' ' || *q == '\t') q++;
    if (*q++ != '#') return NULL;
    while (*q == ' ' || *q == '\t') q++;
    if (strncmp(q, "define", 6) != 0 || (q[6] != ' ' && q[6] != '\t')) return NULL;
    q += 6;
    while (*q == ' ' || *q == '\t') q++;
    return q;
}
