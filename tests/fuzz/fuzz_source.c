/* fuzz_source.c: the shader preprocessor (prelude, #include with a small tree of files including a
 * cycle, the line map), the uniform scanner and the log mapper, on arbitrary main-file text. */
#include "glsl/source.h"
#include "base/userfile.h"
#include "fuzz.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static void put(const char *name, const char *text)
{
    char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (!f) abort();
    fputs(text, f);
    fclose(f);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(dir, sizeof dir, "/tmp/ikshade-fuzz-XXXXXX");
    if (!mkdtemp(dir)) abort();
    put("a.glsl", "#include \"b.glsl\"\nfloat a() { return 1.0; }\n");
    put("b.glsl", "float b() { return 2.0; }\n");
    put("cycle.glsl", "#include \"cycle2.glsl\"\n");
    put("cycle2.glsl", "#include \"cycle.glsl\"\n");
    put("ik.glsl", "#ifndef IK\n#define IK\nuniform float r1;\n#endif\n");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return 0;
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    char path[128];
    snprintf(path, sizeof path, "%s/main.frag", dir);
    const char *dirs[] = { dir };
    /* every entry point's wrapper (mainImage, mainCubemap, mainSound), picked by the input's length */
    iks_source_opts o = { .files = iks_disk_files(), .include_dirs = dirs, .n_include_dirs = 1, .text = text, .entry = (iks_entry)(size % 3),
                          .cube = { size & 4 }, .volume = { false, size & 8 } };
    iks_source src;
    memset(&src, 0, sizeof src);
    iks_err e = IKS_ERR_INIT;
    if (iks_source_load(&src, path, &o, &e)) {
        if (e.code != IKS_OK) abort(); /* success leaves the error clear */
        iks_udecl d[8];
        iks_uniform_decls(src.fragment, d, 8);
        for (int line = 0; line <= src.nlines + 1; line++) {
            const char *p;
            int fl;
            iks_source_where(&src, line, &p, &fl);
        }
        char *m = iks_log_map("0:1(1): error: a\n0:3(2): warning: b\nERROR: 0:2: c\n0(9999) : error C0000: d\n", &src);
        free(m);
    } else if (e.code == IKS_OK || !e.msg || !e.msg[0]) abort(); /* a failure must say what and why */
    iks_err_clear(&e);
    iks_source_free(&src);
    free(text);
    return 0;
}
