/* strutil.c: see strutil.h. */
#include "base/strutil.h"

#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool iks_ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

size_t iks_shown_text(char *out, size_t cap, const char *s, bool one_line)
{
    size_t len = 0, kept = 0; /* the whole shown length; what of it is in out, whole characters only */
    bool full = cap == 0;
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        char one[5] = { (char)ch, '\0' };
        if ((ch < 0x20 && ch != '\n' && ch != '\t') || ch == 0x7f) snprintf(one, sizeof one, "\\x%02x", ch);
        else if (ch == '\n' && one_line) memcpy(one, "\\n", 3);
        size_t n = strlen(one);
        if (!full && kept + n < cap) {
            memcpy(out + kept, one, n);
            kept += n;
        } else full = true;
        len += n;
    }
    if (cap) out[kept] = '\0';
    return len;
}

/* where a URL's authority (after "://") ends: a message puts a URL in quotes or parentheses */
static size_t authority_len(const char *a) { return strcspn(a, "/?#'\"()<> \t\r\n"); }

char *iks_redact(const char *text, const char *const *secret, size_t n)
{
    size_t len = strlen(text);
    /* each replacement turns at least one byte (a secret's) or a five-byte "?key=" into at most three
     * more: the text at most triples */
    char *out = malloc(3 * len + 1), *w = out;
    if (!out) return NULL;
    size_t pw_from = 0, pw_to = 0; /* the password of the URL being copied, [pw_from, pw_to) */
    size_t auth_end = 0;           /* the end of the last authority read: a "://" inside it starts no URL */
    bool in_url = false;
    for (size_t i = 0; i < len;) {
        if (i >= pw_from && i < pw_to) {
            memcpy(w, "***", 3), w += 3;
            i = pw_to;
            continue;
        }
        size_t best = 0; /* the longest secret here: one may hold another (the key, and the key escaped) */
        for (size_t k = 0; k < n; k++) {
            size_t m = secret[k] ? strlen(secret[k]) : 0;
            if (m > best && !strncmp(text + i, secret[k], m)) best = m;
        }
        if (best) {
            memcpy(w, "***", 3), w += 3;
            i += best;
            continue;
        }
        if (i >= auth_end && !strncmp(text + i, "://", 3)) {
            size_t a = i + 3, end = a + authority_len(text + a), at = end;
            while (at > a && text[at - 1] != '@') at--;
            if (at > a) { /* user info: user:password@, the '@' the last one (a password may hold one) */
                const char *colon = memchr(text + a, ':', at - 1 - a);
                if (colon && (size_t)(colon - text) + 1 < at - 1)
                    pw_from = (size_t)(colon - text) + 1, pw_to = at - 1;
            }
            auth_end = end;
            in_url = true;
        } else if (in_url && (text[i] == '?' || text[i] == '&') && !strncasecmp(text + i + 1, "key=", 4)) {
            size_t v = i + 5, m = strcspn(text + v, "&#'\"()<> \t\r\n");
            memcpy(w, text + i, 5), w += 5;
            if (m) memcpy(w, "***", 3), w += 3;
            i = v + m;
            continue;
        }
        *w++ = text[i++];
    }
    *w = '\0';
    return out;
}

void iks_float_text(double v, char *out, size_t cap)
{
    for (int prec = 6; prec <= 9; prec++) {
        iks_snprintf_c(out, cap, "%.*g", prec, v);
        if ((float)iks_strtod_c(out, NULL) == (float)v) return;
    }
}

void iks_uniform_text(iks_uniform_type type, double v, char *out, size_t cap)
{
    if (type == IKS_UNIFORM_BOOL) snprintf(out, cap, "%s", v != 0 ? "true" : "false");
    else if (type == IKS_UNIFORM_FLOAT) iks_float_text(v, out, cap);
    else iks_snprintf_c(out, cap, "%.0f", v);
}

void iks_double_text(double v, char *out, size_t cap)
{
    for (int prec = 15; prec <= 17; prec++) {
        iks_snprintf_c(out, cap, "%.*g", prec, v);
        if (iks_strtod_c(out, NULL) == v) return;
    }
}

/* ---- numbers in the C locale ---------------------------------------------------------------------- */

static locale_t c_locale;
static void make_c_locale(void) { c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0); }

/* the C locale, made once; (locale_t)0 when even that failed (no memory): then the thread's own is used */
static locale_t c_loc(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_c_locale);
    return c_locale;
}

double iks_strtod_c(const char *s, char **end)
{
    locale_t c = c_loc();
    return c ? strtod_l(s, end, c) : strtod(s, end);
}

float iks_strtof_c(const char *s, char **end)
{
    locale_t c = c_loc();
    return c ? strtof_l(s, end, c) : strtof(s, end);
}

/* the calling thread in the C locale for one call, and back to what it had (the host's, or its own) */
static locale_t enter_c(void)
{
    locale_t c = c_loc();
    return c ? uselocale(c) : (locale_t)0;
}

static void leave_c(locale_t old)
{
    if (old) uselocale(old);
}

int iks_snprintf_c(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    locale_t old = enter_c();
    int n = vsnprintf(out, cap, fmt, ap);
    leave_c(old);
    va_end(ap);
    return n;
}

int iks_vasprintf_c(char **out, const char *fmt, va_list ap)
{
    locale_t old = enter_c();
    int n = vasprintf(out, fmt, ap);
    leave_c(old);
    return n;
}

int iks_fprintf_c(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    locale_t old = enter_c();
    int n = vfprintf(f, fmt, ap);
    leave_c(old);
    va_end(ap);
    return n;
}
