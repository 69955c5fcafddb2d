/* strutil.h: small string helpers every layer (and the command line) shares, written once.
 * What it does not do: allocate, or know what the strings mean. */
#ifndef IKS_STRUTIL_H
#define IKS_STRUTIL_H

#include <stdbool.h>

/* Whether s ends with suffix, ignoring ASCII case (file extensions: ".PNG" is a PNG). */
bool iks_ends_with(const char *s, const char *suffix);

#endif
