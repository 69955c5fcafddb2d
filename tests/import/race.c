/* race.c: an LD_PRELOAD module for tests/test_import.sh. Just before ikshade renames a file onto a
 * name ending in $RACE_NAME, "the user" writes a file of their own there: the moment between import's
 * checks and its rename, which no timing in a shell script can hit. Renames into the import's own
 * temporary directory (taking files back) are left alone. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* exported: the project builds with hidden visibility */
__attribute__((visibility("default"))) int renameat2(int fromdir, const char *from, int todir, const char *to,
                                                     unsigned int flags)
{
    int (*real)(int, const char *, int, const char *, unsigned int);
    *(void **)&real = dlsym(RTLD_NEXT, "renameat2");
    const char *name = getenv("RACE_NAME");
    size_t n = name ? strlen(name) : 0, t = strlen(to);
    if (n && t >= n && !strcmp(to + t - n, name) && !strstr(to, "ikshade-import")) {
        FILE *f = fopen(to, "wx");
        if (f) fputs("user\n", f), fclose(f);
    }
    return real ? real(fromdir, from, todir, to, flags) : -1;
}
