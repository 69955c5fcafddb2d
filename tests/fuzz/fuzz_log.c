/* fuzz_log.c: the compile-log parser and mapper on arbitrary driver logs, against a fixed source. */
#include "glsl/source.h"
#include "fuzz.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static iks_source src;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    iks_source_opts o = { .text = "void mainImage(out vec4 c, in vec2 f)\n{\n  c = vec4(1.0);\n}\n" };
    if (!iks_source_load(&src, "fuzz.frag", &o, NULL)) abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return 0;
    char *log = fuzz_text(data, size);
    if (!log) return 0;
    iks_log_line l;
    for (char *s = log; s;) {
        char *e = strchr(s, '\n');
        if (e) *e = '\0';
        if (iks_log_parse(s, &l) && (!l.msg || l.line < 0)) abort();
        if (e) *e = '\n';
        s = e ? e + 1 : NULL;
    }
    char *m = iks_log_map(log, &src);
    if (!m) abort();
    free(m);
    free(log);
    return 0;
}
