/* buf.h: the library's one way to grow memory: growable arrays (IKS_GROW, after git's ALLOC_GROW) and a
 * string buffer (iks_sbuf, after git's strbuf). Every array that grows as input arrives goes through
 * these, so that the growth policy, the overflow check and out-of-memory are written once.
 * What it does not do: own what the arrays hold (their owners free elements), or print. */
#ifndef IKS_BUF_H
#define IKS_BUF_H

#include <stdbool.h>
#include <stddef.h>

/* Makes room for at least `need` elements of `elem` bytes in *(void **)parr, whose capacity is *cap
 * elements: grows by half again (16 at first), or straight to need. false when out of memory or the
 * size would overflow, with errno ENOMEM; the array and *cap are then as they were. */
bool iks_grow_(void *parr, size_t *cap, size_t need, size_t elem);
/* IKS_GROW(arr, need, cap): arr a pointer variable (NULL at first), cap its capacity in elements (a
 * size_t, 0 at first). Usage: `if (!IKS_GROW(v, n + 1, cap)) return false; v[n++] = x;` */
#define IKS_GROW(arr, need, cap) iks_grow_((void *)&(arr), &(cap), (size_t)(need), sizeof *(arr))

/* A growing byte buffer, always NUL-terminated after len bytes (so text can be used as a string). Out
 * of memory sticks: every later call does nothing and oom stays true. The owner frees s (or takes it
 * with iks_sbuf_take). A zeroed iks_sbuf is empty and ready. */
typedef struct {
    char *s;
    size_t len, cap;
    bool oom;
} iks_sbuf;

void iks_sbuf_add(iks_sbuf *b, const void *data, size_t n);
void iks_sbuf_str(iks_sbuf *b, const char *s);
void iks_sbuf_fmt(iks_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text, handed to the caller (malloc'd, "" for an empty buffer); NULL when memory ran out at any
 * point. b is left empty either way. */
char *iks_sbuf_take(iks_sbuf *b, size_t *len);
void iks_sbuf_free(iks_sbuf *b);

#endif
