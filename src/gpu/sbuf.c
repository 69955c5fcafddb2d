/* sbuf.c: see sbuf.h. */
#include "sbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->oom) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1) cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}
void sb_str(sbuf *b, const char *s) { sb_add(b, s, strlen(s)); }
void sb_fmt(sbuf *b, const char *fmt, ...)
{
    /* straight into the buffer, grown to fit: a driver's message or a path may be any length */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0 || b->oom) return;
    size_t len = b->len;
    sb_add(b, "", 0);
    if (b->oom) return;
    if (len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap;
        while (cap < len + (size_t)n + 1) cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len = len + (size_t)n;
}
