/* sbuf.h: a growing NUL-terminated text buffer for the shader text side (source.c, zeroinit.c). Out of
 * memory sticks: every later call does nothing and oom stays true; the owner frees s. */
#ifndef IKS_SBUF_H
#define IKS_SBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *s;
    size_t len, cap;
    bool oom;
} sbuf;

void sb_add(sbuf *b, const char *s, size_t n);
void sb_str(sbuf *b, const char *s);
void sb_fmt(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
