/* fuzz_source.c: the shader preprocessor (prelude, #include with a small tree of files including a
 * cycle, the line map), the text rewrites (zero-init, index clamping, constant folding, macro-call
 * spacing, default returns: each must keep every line), the uniform scanner and the log mapper, on arbitrary main-file text. The files are held
 * in memory (tests/memfiles.h): the GLSL layer links here with src/base alone. */
#include "glsl/source.h"
#include "fuzz.h"
#include "memfiles.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const memfile TREE[] = {
    { "/toy/a.glsl", "#include \"b.glsl\"\nfloat a() { return 1.0; }\n" },
    { "/toy/b.glsl", "float b() { return 2.0; }\n" },
    { "/toy/cycle.glsl", "#include \"cycle2.glsl\"\n" },
    { "/toy/cycle2.glsl", "#include \"cycle.glsl\"\n" },
    { "/toy/ik.glsl", "#ifndef IK\n#define IK\nuniform float r1;\n#endif\n" },
};
static memfiles mem = { TREE, (int)(sizeof TREE / sizeof TREE[0]) };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return 0;
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    /* the text rewrites on their own: never a line added or lost (errors name the user's lines through
     * them), and all but the folding only insert */
    char *(*const rewrite[])(const char *) = { iks_zero_init, iks_clamp_indices, iks_space_macro_calls,
                                                iks_fold_constants, iks_default_returns };
    for (size_t k = 0; k < sizeof rewrite / sizeof rewrite[0]; k++) {
        char *r = rewrite[k](text);
        if (r) {
            size_t a = 0, b = 0;
            for (const char *p = text; *p; p++) a += *p == '\n';
            for (const char *p = r; *p; p++) b += *p == '\n';
            /* insertions only, but folding replaces a call by a number, which may be shorter */
            if (a != b || (rewrite[k] != iks_fold_constants && strlen(r) < strlen(text))) abort();
        }
        free(r);
    }
    const char *dirs[] = { "/toy" };
    iks_files files = memfiles_table(&mem);
    /* every entry point's wrapper (mainImage, mainCubemap, mainSound), picked by the input's length;
     * confined to /toy by the input's length too */
    iks_source_opts o = { .files = &files, .include_dirs = dirs, .n_include_dirs = 1, .text = text,
                          .entry = (iks_entry)(size % 3), .cube = { size & 4 }, .volume = { false, size & 8 },
                          .confine_dir = size & 16 ? "/toy" : NULL };
    iks_source src;
    memset(&src, 0, sizeof src);
    iks_err e = IKS_ERR_INIT;
    if (iks_source_load(&src, "/toy/main.frag", &o, &e)) {
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
