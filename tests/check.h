/* check.h: the C unit tests' assertion: counts checks, and on failure prints the condition and the
 * values the test names (what it got beside what it wanted); code names for iks_err codes without
 * linking the engine. Each test ends with `printf("%d passed, %d failed\n", ...)` from these counts. */
#ifndef IKS_TEST_CHECK_H
#define IKS_TEST_CHECK_H

#include "ikshade/ikshade.h"

#include <stdio.h>

static int failures, checks;
#define CHECK(cond, ...)                                                              \
    do {                                                                              \
        checks++;                                                                     \
        if (!(cond)) {                                                                \
            failures++;                                                               \
            fprintf(stderr, "%s:%d: FAIL: %s: ", __FILE__, __LINE__, #cond);          \
            fprintf(stderr, __VA_ARGS__);                                             \
            fputc('\n', stderr);                                                      \
        }                                                                             \
    } while (0)

static inline const char *cname(iks_code c)
{
#define IKS_NAME_(e, s) if (c == e) return s;
    IKS_ERROR_LIST(IKS_NAME_)
#undef IKS_NAME_
    return "?";
}

#endif
