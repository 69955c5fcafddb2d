/* buf.c: see buf.h. */
#include "base/buf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool iks_grow_(void *parr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t c = *cap < 16 ? 16 : *cap + *cap / 2;
    if (c < *cap || c < need) c = need;
    if (elem && c > SIZE_MAX / elem) return errno = ENOMEM, false;
    /* the caller's pointer is read and written as bytes: it may be any object pointer type */
    void *old;
    memcpy(&old, parr, sizeof old);
    void *p = realloc(old, c * elem);
    if (!p) return errno = ENOMEM, false;
    memcpy(parr, &p, sizeof p);
    *cap = c;
    return true;
}

void iks_sbuf_add(iks_sbuf *b, const void *data, size_t n)
{
    if (b->oom) return;
    if (n > SIZE_MAX - b->len - 1 || !IKS_GROW(b->s, b->len + n + 1, b->cap)) {
        b->oom = true;
        return;
    }
    if (n) memcpy(b->s + b->len, data, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void iks_sbuf_str(iks_sbuf *b, const char *s) { iks_sbuf_add(b, s, strlen(s)); }

void iks_sbuf_fmt(iks_sbuf *b, const char *fmt, ...)
{
    /* straight into the buffer, grown to fit: a driver's message or a path may be any length */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) b->oom = true;
    if (n <= 0 || b->oom) return;
    if (!IKS_GROW(b->s, b->len + (size_t)n + 1, b->cap)) {
        b->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *iks_sbuf_take(iks_sbuf *b, size_t *len)
{
    char *s = b->oom ? NULL : b->s ? b->s : strdup("");
    size_t n = s ? b->len : 0;
    if (b->oom) free(b->s);
    memset(b, 0, sizeof *b);
    if (len) *len = n;
    return s;
}

void iks_sbuf_free(iks_sbuf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}
