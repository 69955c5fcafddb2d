/* fuzz.h: what every fuzz target does first: the input as a NUL-terminated string (malloc'd; NULL when
 * out of memory), since every parser under test reads C strings. */
#ifndef IKS_FUZZ_H
#define IKS_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s) {
        memcpy(s, data, size);
        s[size] = '\0';
    }
    return s;
}

#endif
