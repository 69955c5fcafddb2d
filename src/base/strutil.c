/* strutil.c: see strutil.h. */
#include "base/strutil.h"

#include <string.h>
#include <strings.h>

bool iks_ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcasecmp(s + a - b, suffix) == 0;
}
