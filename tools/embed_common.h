/* embed_common.h: what both programs of `ikshade bench embed` share: the shader they draw and the
 * count of shared libraries mapped in the process. */
#ifndef IKS_EMBED_COMMON_H
#define IKS_EMBED_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EMBED_SIDE 64
/* a picture that needs every pixel's own work, the same in both programs */
#define EMBED_IMAGE                                                                                      \
    "void mainImage(out vec4 c, in vec2 p) {\n"                                                         \
    "    vec2 u = p / iResolution.xy;\n"                                                                 \
    "    c = vec4(u, 0.5 + 0.5 * sin(10.0 * length(u - 0.5)), 1.0);\n"                                  \
    "}\n"

/* prints "libs N" and "names A B ...": the distinct shared objects in /proc/self/maps (the vDSO is not
 * a file and not counted) */
static int embed_list_libs(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return -1;
    static char seen[512][256];
    int n = 0;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        char *path = strchr(line, '/');
        if (!path || !strstr(path, ".so")) continue;
        path[strcspn(path, "\n")] = '\0';
        int i = 0;
        while (i < n && strcmp(seen[i], path)) i++;
        if (i == n && n < 512) snprintf(seen[n++], sizeof seen[0], "%s", path);
    }
    fclose(f);
    /* their names, on the second line, so that the bench can say which the library adds */
    printf("libs %d\nnames", n);
    for (int i = 0; i < n; i++) printf(" %s", strrchr(seen[i], '/') + 1);
    printf("\n");
    return n;
}

#endif
