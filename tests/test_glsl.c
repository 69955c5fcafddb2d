/* test_glsl.c: the GLSL text layer alone (src/glsl with src/base, no GL, no disk: its files are held in
 * memory and handed over, tests/memfiles.h). Assembly through #include, the line map and the log
 * mapped back to the files, the refusals (a cycle, a missing include, a file outside a confined toy),
 * the preludes made from the uniform list, and no file read without a table. */
#include "check.h"
#include "glsl/source.h"
#include "glsl/uniforms.h"
#include "memfiles.h"

#include <stdlib.h>
#include <string.h>

static const memfile TREE[] = {
    { "/toy/main.frag", "#include \"lib.glsl\"\n"
                        "void mainImage(out vec4 c, in vec2 f) {\n"
                        "    c = vec4(lib(), 0.0, 0.0, 1.0);\n"
                        "}\n" },
    { "/toy/lib.glsl", "// the library\nfloat lib() { return 0.5; }\n" },
    { "/toy/cycle.frag", "#include \"cycle2.glsl\"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }\n" },
    { "/toy/cycle2.glsl", "#include \"cycle.frag\"\n" },
    { "/toy/missing.frag", "#include \"nowhere.glsl\"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }\n" },
    { "/toy/escape.frag", "#include \"../etc/secret.glsl\"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }\n" },
    { "/toy/../etc/secret.glsl", "float secret = 1.0;\n" }, /* as the include names it */
    { "/toy/twice.frag", "#include \"lib.glsl\"\n#include \"lib.glsl\"\n"
                         "void mainImage(out vec4 c, in vec2 f) { c = vec4(lib()); }\n" },
};

static memfiles mem = { TREE, (int)(sizeof TREE / sizeof TREE[0]) };

/* the line of the assembled text that holds needle (1-based), 0 when none */
static int line_of(const char *text, const char *needle)
{
    const char *at = strstr(text, needle);
    if (!at) return 0;
    int n = 1;
    for (const char *p = text; p < at; p++) n += *p == '\n';
    return n;
}

int main(void)
{
    iks_files files = memfiles_table(&mem);
    iks_source src;
    iks_err e = IKS_ERR_INIT;

    /* an include expanded in place, every line mapped to its file and line */
    iks_source_opts o = { .files = &files };
    CHECK(iks_source_load(&src, "/toy/main.frag", &o, &e), "main.frag: %s", iks_err_msg(&e));
    const char *path = NULL;
    int fl = 0;
    int at = line_of(src.fragment, "return 0.5");
    CHECK(at > 0 && iks_source_where(&src, at, &path, &fl) && path && !strcmp(path, "/toy/lib.glsl") && fl == 2,
          "lib()'s body maps to lib.glsl:2, not %s:%d", path ? path : "(none)", fl);
    at = line_of(src.fragment, "c = vec4(lib()");
    CHECK(at > 0 && iks_source_where(&src, at, &path, &fl) && path && !strcmp(path, "/toy/main.frag") && fl == 3,
          "the call maps to main.frag:3, not %s:%d", path ? path : "(none)", fl);
    CHECK(src.shadertoy && src.nfiles == 3, "a Shadertoy file with two files read: %d", src.nfiles);
    /* a driver's log comes back in the user's files */
    char log[128];
    snprintf(log, sizeof log, "0:%d(12): error: 'lib' : no matching overloaded function\n",
             line_of(src.fragment, "c = vec4(lib()"));
    char *mapped = iks_log_map(log, &src);
    CHECK(mapped && strstr(mapped, "/toy/main.frag:3:12: error: 'lib'"), "mapped: %s", mapped ? mapped : "(null)");
    free(mapped);
    /* NVIDIA's compile log (580.x, as seen on an H100) has a line and no column: `path:line: error:` */
    snprintf(log, sizeof log, "0(%d) : error C0000: syntax error, unexpected '}'\n", line_of(src.fragment, "c = vec4(lib()"));
    mapped = iks_log_map(log, &src);
    CHECK(mapped && !strcmp(mapped, "/toy/main.frag:3: error: syntax error, unexpected '}'\n"), "NVIDIA compile: %s",
          mapped ? mapped : "(null)");
    free(mapped);
    /* NVIDIA's link log heads its lines with the stage and a rule: one error, one line, no headers */
    snprintf(log, sizeof log, "Fragment info\n-------------\n0(%d) : error C1008: undefined function \"float g();\"\n",
             line_of(src.fragment, "c = vec4(lib()"));
    mapped = iks_log_map(log, &src);
    CHECK(mapped && !strcmp(mapped, "/toy/main.frag:3: error: undefined function \"float g();\"\n"), "NVIDIA link: %s",
          mapped ? mapped : "(null)");
    free(mapped);
    snprintf(log, sizeof log, "Vertex info\n-----------\n0(1) : error C5145: must write to gl_Position\n"
                              "Geometry info\n---\n");
    mapped = iks_log_map(log, &src);
    CHECK(mapped && !strstr(mapped, "info") && !strstr(mapped, "--") && strstr(mapped, "must write to gl_Position") &&
              !strchr(strchr(mapped, '\n') + 1, '\n'),
          "NVIDIA's Vertex and Geometry headers dropped too: %s", mapped ? mapped : "(null)");
    free(mapped);
    /* ... while a line of the log that is no header is still said (prefixed with the file) */
    mapped = iks_log_map("Fragment info about it\n", &src);
    CHECK(mapped && strstr(mapped, "/toy/main.frag: error: Fragment info about it\n"), "not a header: %s",
          mapped ? mapped : "(null)");
    free(mapped);
    /* a warning in a file every pass includes (as Common is) comes from each pass's compile: said once,
     * with NVIDIA's log (no column) as with Mesa's; other lines still come through */
    iks_sbuf said = { 0 };
    int lib_line = line_of(src.fragment, "return 0.5"), main_line = line_of(src.fragment, "c = vec4(lib()");
    for (int fmt = 0; fmt < 2; fmt++) {
        char pass1[256], pass2[256];
        const char *f = fmt ? "0(%d) : warning C7011: implicit cast from \"int\" to \"float\"\n"
                            : "0:%d(3): warning: implicit cast from \"int\" to \"float\"\n";
        snprintf(pass1, sizeof pass1, f, lib_line);
        snprintf(pass2, sizeof pass2, f, lib_line);
        snprintf(pass2 + strlen(pass2), sizeof pass2 - strlen(pass2), f, main_line);
        char *m1 = iks_log_map(pass1, &src), *m2 = iks_log_map(pass2, &src);
        char *u1 = iks_log_unsaid(m1, &said), *u2 = iks_log_unsaid(m2, &said);
        CHECK(u1 && m1 && !strcmp(u1, m1) && strstr(u1, "/toy/lib.glsl:2"), "%s: the first pass's warning: %s",
              fmt ? "NVIDIA" : "Mesa", u1 ? u1 : "(null)");
        CHECK(u2 && !strstr(u2, "lib.glsl") && strstr(u2, "/toy/main.frag:3") && !strchr(strchr(u2, '\n') + 1, '\n'),
              "%s: the second pass says only its own: %s", fmt ? "NVIDIA" : "Mesa", u2 ? u2 : "(null)");
        free(m1), free(m2), free(u1), free(u2);
    }
    char *other = iks_log_unsaid("/toy/lib.glsl:2: warning: another message\n", &said);
    CHECK(other && !strcmp(other, "/toy/lib.glsl:2: warning: another message\n"),
          "the same line with another message is said: %s", other ? other : "(null)");
    free(other);
    iks_sbuf_free(&said);
    /* the prelude declares every uniform of the list, once; the ones of other passes not */
#define DECLARED(id, name, type, array, up, from, doc)                                                              \
    CHECK(strstr(src.fragment, "uniform " type " " name array ";") != NULL, "the prelude declares %s", name);
    IKS_UNIFORMS_COMMON(DECLARED)
    CHECK(!strstr(src.fragment, IKS_U_NAME_TIME_OFFSET) && !strstr(src.fragment, IKS_U_NAME_CUBE_CORNERS),
          "an Image pass has neither the sound's nor Cube A's uniforms");
    CHECK(iks_prelude_declares(IKS_U_NAME_TIME) && iks_prelude_declares(IKS_U_NAME_SAMPLE_OFFSET) &&
              !iks_prelude_declares("r1"),
          "iks_prelude_declares knows the list");
    iks_source_free(&src);

    /* a cubemap channel's sampler is swapped in the prelude, lines unchanged */
    iks_source_opts oc = { .files = &files, .cube = { false, true } };
    CHECK(iks_source_load(&src, "/toy/main.frag", &oc, &e) &&
              strstr(src.fragment, "uniform samplerCube " IKS_U_NAME_CHANNEL1 ";") &&
              strstr(src.fragment, "uniform sampler2D " IKS_U_NAME_CHANNEL0 ";"),
          "channel 1 as a cubemap: %s", iks_err_msg(&e));
    iks_source_free(&src);

    /* once only: a second include of the same file adds nothing */
    CHECK(iks_source_load(&src, "/toy/twice.frag", &o, &e), "twice.frag: %s", iks_err_msg(&e));
    const char *first = strstr(src.fragment, "float lib()");
    CHECK(first && !strstr(first + 1, "float lib()"), "lib.glsl included once");
    iks_source_free(&src);

    /* the refusals, each naming the file */
    CHECK(!iks_source_load(&src, "/toy/cycle.frag", &o, &e) && e.code == IKS_E_FORMAT &&
              strstr(iks_err_msg(&e), "include cycle"),
          "a cycle: %s %s", cname(e.code), iks_err_msg(&e));
    CHECK(!iks_source_load(&src, "/toy/missing.frag", &o, &e) && e.code == IKS_E_FORMAT &&
              strstr(iks_err_msg(&e), "cannot include \"nowhere.glsl\""),
          "a missing include: %s %s", cname(e.code), iks_err_msg(&e));
    iks_source_opts confined = { .files = &files, .confine_dir = "/toy" };
    CHECK(!iks_source_load(&src, "/toy/escape.frag", &confined, &e) && e.code == IKS_E_FORMAT &&
              strstr(iks_err_msg(&e), "lies outside the toy's directory"),
          "an include outside a confined toy: %s %s", cname(e.code), iks_err_msg(&e));
    CHECK(iks_source_load(&src, "/toy/escape.frag", &o, &e), "... which a file of the user's may read: %s",
          iks_err_msg(&e));
    iks_source_free(&src);

    /* no table, no files: text in memory alone */
    iks_source_opts none = { .text = "#include \"lib.glsl\"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }\n" };
    CHECK(!iks_source_load(&src, "/toy/main.frag", &none, &e) && e.code == IKS_E_FORMAT,
          "without a files table an include is not found: %s %s", cname(e.code), iks_err_msg(&e));
    iks_source_opts plain = { .text = "void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }\n" };
    CHECK(iks_source_load(&src, "<memory>", &plain, &e), "text alone: %s", iks_err_msg(&e));
    iks_source_free(&src);
    CHECK(!iks_source_load(&src, "/toy/main.frag", &(iks_source_opts){ 0 }, &e) && e.code == IKS_E_IO,
          "a file without a table cannot be read: %s %s", cname(e.code), iks_err_msg(&e));

    iks_err_clear(&e);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
