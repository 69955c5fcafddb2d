/* test_gpu.c: the GL core on llvmpipe through headless EGL: program assembly, error mapping against
 * deliberately broken shaders, recorded logs of other drivers, Shadertoy uniforms read back exactly,
 * and --set; toys (passes, images, the files they read, settings across passes); each failure's code
 * and message (an iks_err) and each warning (through a logger). Writes
 * its shader files into a fresh temporary directory. */
#include "check.h"
#include "base/userfile.h"
#include "gpu/gpu.h"
#include "gpu/hud.h"
#include "platform/platform.h"
#include "io/pngio.h"
#include "glsl/source.h"
#include "gpu/toy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256];

/* the code's name from ikshade.h's list (the engine's iks_code_name, without needing the engine) */

/* A logger that keeps every warning, "\n"-separated, for checks on their text */
static char warned[4096];
static int nwarned;
static void keep_warning(void *user, iks_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    size_t k = strlen(warned);
    snprintf(warned + k, sizeof warned - k, "%s%s", k ? "\n" : "", msg);
    nwarned++;
}
static const iks_logger logger = { keep_warning, NULL };
static void forget_warnings(void)
{
    warned[0] = '\0';
    nwarned = 0;
}

static const char *write_file(const char *name, const char *text)
{
    static char paths[32][512];
    static int k;
    char *p = paths[k++ % 32];
    snprintf(p, 512, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (!f) {
        perror(p);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
    return p;
}

/* Builds path; returns the mapped log (malloc'd: the error's message on failure, the warnings on
 * success, "" when none), sets *ok and *code (the failure's code, IKS_OK on success). */
static char *build_code(const char *path, bool *ok, iks_code *code, iks_program *prog, iks_source *src)
{
    const char *dirs[] = { dir };
    iks_source_opts o = { .files = iks_disk_files(), .include_dirs = dirs, .n_include_dirs = 1 };
    iks_err e = IKS_ERR_INIT;
    forget_warnings();
    *ok = iks_source_load(src, path, &o, &e) && iks_program_build(prog, src, &e, &logger, NULL);
    *code = e.code;
    char *log = strdup(*ok ? warned : iks_err_msg(&e));
    iks_err_clear(&e);
    return log;
}

static char *build(const char *path, bool *ok, iks_program *prog, iks_source *src)
{
    iks_code code;
    return build_code(path, ok, &code, prog, src);
}

/* The first line of the log for a shader that must fail, starting with want_prefix. */
static void expect_error(const char *name, const char *text, const char *want_prefix)
{
    const char *path = write_file(name, text);
    iks_program prog;
    iks_source src;
    bool ok;
    iks_code code;
    char *log = build_code(path, &ok, &code, &prog, &src);
    char want[600];
    snprintf(want, sizeof want, "%s/%s", dir, want_prefix);
    CHECK(!ok, "%s compiled", name);
    CHECK(code == IKS_E_COMPILE, "%s: code %s, expected compile", name, cname(code));
    size_t n = strlen(log);
    /* lines apart, and no newline after the last: an error's text ends as every other message does */
    CHECK(n && log[n - 1] != '\n', "%s: the log ends in a newline: '%s'", name, log);
    CHECK(strncmp(log, want, strlen(want)) == 0, "%s: log '%s' does not start with '%s'", name, log, want);
    if (ok) iks_program_destroy(&prog);
    iks_source_free(&src);
    free(log);
}

static void test_errors(void)
{
    expect_error("first.frag", "float x = ;\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }\n",
                 "first.frag:1:");
    expect_error("middle.frag",
                 "// a comment\nvoid mainImage(out vec4 c, in vec2 f) {\n  c = vec4(1.0);\n  c.x += undefined_name;\n"
                 "  c.y = 0.0;\n}\n",
                 "middle.frag:4:");
    expect_error("last.frag", "void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }\nfloat g() { return 1.0 }",
                 "last.frag:2:");
    write_file("bad.glsl", "float helper() {\n  return 1.0;\n}\nfloat broken() { return nope; }\n");
    expect_error("inc.frag", "// uses an include\n#include \"bad.glsl\"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(helper()); }\n",
                 "bad.glsl:4:");
    /* a line after the include still maps to the including file */
    write_file("good.glsl", "float helper() {\n  return 1.0;\n}\n");
    expect_error("after.frag", "#include \"good.glsl\"\nvoid mainImage(out vec4 c, in vec2 f) {\n  c = vec4(zz);\n}\n",
                 "after.frag:3:");
    /* own #version and main(): compiled as written, errors still mapped */
    expect_error("own.frag", "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(1.0) + zz; }\n", "own.frag:3:");
    /* a wrong mainImage signature is reported against the user's file with a hint */
    expect_error("sig.frag", "void mainImage(out vec4 c) { c = vec4(1.0); }\n", "sig.frag: error:");
}

/* Loads path, expecting a failure of code want; err gets the message */
static bool load_fails(iks_source *src, const char *path, const iks_source_opts *o, iks_code want, char *err, size_t n)
{
    iks_err e = IKS_ERR_INIT;
    bool failed = !iks_source_load(src, path, o, &e);
    snprintf(err, n, "%s", iks_err_msg(&e));
    CHECK(!failed || e.code == want, "%s: code %s, expected %s (%s)", path, cname(e.code), cname(want),
          err);
    iks_err_clear(&e);
    return failed;
}

static void test_assembly_errors(void)
{
    char err[1024];
    iks_source src;
    const char *dirs[] = { dir };
    iks_source_opts o = { .files = iks_disk_files(), .include_dirs = dirs, .n_include_dirs = 1 };
    write_file("good.glsl", "float helper() {\n  return 1.0;\n}\n");
    write_file("a.glsl", "#include \"b.glsl\"\n");
    write_file("b.glsl", "#include \"a.glsl\"\n");
    const char *p = write_file("cycle.frag", "#include \"a.glsl\"\nvoid mainImage(out vec4 c, in vec2 f) {}\n");
    CHECK(load_fails(&src, p, &o, IKS_E_FORMAT, err, sizeof err) && strstr(err, "include cycle") &&
              strstr(err, "cycle.frag -> ") && strstr(err, "a.glsl -> ") && strstr(err, "b.glsl -> "),
          "cycle: %s", err);
    p = write_file("missing.frag", "#include \"good.glsl\"\n#include \"nowhere.glsl\"\nvoid mainImage(out vec4 c, in vec2 f) {}\n");
    CHECK(load_fails(&src, p, &o, IKS_E_FORMAT, err, sizeof err) &&
              strstr(err, "missing.frag:2: cannot include \"nowhere.glsl\""),
          "missing: %s", err);
    /* a diamond: both branches include good.glsl; it goes in once, so no redefinition */
    write_file("l.glsl", "#include \"good.glsl\"\nfloat l() { return helper(); }\n");
    write_file("r.glsl", "#include \"good.glsl\"\nfloat r() { return helper(); }\n");
    p = write_file("diamond.frag",
                   "#include \"l.glsl\"\n#include \"r.glsl\"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(l() + r()); }\n");
    iks_program prog;
    bool ok;
    char *log = build(p, &ok, &prog, &src);
    CHECK(ok, "diamond: %s", log);
    if (ok) iks_program_destroy(&prog);
    iks_source_free(&src);
    free(log);
    /* no mainImage the scan can see: the compiler decides. Not there at all: not a shader (one line) */
    p = write_file("nomain.frag", "float f() { return 1.0; }\n");
    iks_code code;
    log = build_code(p, &ok, &code, &prog, &src);
    CHECK(!ok && code == IKS_E_NOT_SHADER && log && strstr(log, "nomain.frag: defines neither mainImage") &&
              !strchr(log, '\n'),
          "no main: code %s, log '%s'", cname(code), log ? log : "");
    if (ok) iks_program_destroy(&prog);
    iks_source_free(&src);
    free(log);
    /* a mainImage made by a macro (code golf: statements the wrapper's call expands to) compiles, and a
     * main() in a group the preprocessor skips does not make the file its own program */
    p = write_file("golf.frag", "#define mainImage(O, U) O = vec4(U / 8.0, 0.0, 1.0)\n");
    log = build(p, &ok, &prog, &src);
    CHECK(ok && src.shadertoy, "mainImage by a macro: %s", log ? log : "");
    if (ok) iks_program_destroy(&prog);
    iks_source_free(&src);
    free(log);
    p = write_file("sandbox.frag", "void mainImage(out vec4 o, in vec2 f) { o = vec4(iTime); }\n#ifdef GLSLSANDBOX\n"
                                   "void main() { mainImage(gl_FragColor, gl_FragCoord.xy); }\n#endif\n");
    log = build(p, &ok, &prog, &src);
    CHECK(ok && src.shadertoy, "main() under #ifdef GLSLSANDBOX: %s", log ? log : "");
    if (ok) iks_program_destroy(&prog);
    iks_source_free(&src);
    free(log);
    CHECK(load_fails(&src, "/nonexistent/x.frag", &o, IKS_E_IO, err, sizeof err) &&
              strstr(err, "/nonexistent/x.frag: No such file"),
          "missing file: %s", err);
    p = write_file("bin.frag", "");
    FILE *f = fopen(p, "wb");
    fwrite("ab\0cd", 1, 5, f);
    fclose(f);
    CHECK(load_fails(&src, p, &o, IKS_E_FORMAT, err, sizeof err) && strstr(err, "binary file"), "binary: %s", err);
}

static void test_log_formats(void)
{
    iks_log_line L;
    CHECK(iks_log_parse("0:12(7): error: `x' undeclared", &L) && L.line == 12 && L.col == 7 &&
              !strcmp(L.sev, "error") && !strcmp(L.msg, "`x' undeclared"), "mesa");
    CHECK(iks_log_parse("0(12) : error C0000: syntax error, unexpected '}'", &L) && L.line == 12 && L.col == 0 &&
              !strcmp(L.sev, "error") && !strcmp(L.msg, "syntax error, unexpected '}'"), "nvidia");
    CHECK(iks_log_parse("ERROR: 0:12: 'foo' : undeclared identifier", &L) && L.line == 12 &&
              !strcmp(L.sev, "error") && !strcmp(L.msg, "'foo' : undeclared identifier"), "angle/amd");
    CHECK(iks_log_parse("WARNING: 0:3: extension not supported", &L) && L.line == 3 && !strcmp(L.sev, "warning"),
          "amd warning");
    CHECK(iks_log_parse("0(5) : warning C7050: \"c\" might be used before being initialized", &L) &&
              L.line == 5 && !strcmp(L.sev, "warning"), "nvidia warning");
    CHECK(iks_log_parse("0:23(9): preprocessor error: Redefinition of macro X", &L) && L.line == 23 && L.col == 9 &&
              !strcmp(L.sev, "error") && !strcmp(L.msg, "Redefinition of macro X"), "mesa preprocessor");
    CHECK(!iks_log_parse("error: linking with uncompiled shader", &L), "not a located line");
    /* mapped through a real source: line numbers of the assembled text go back to the user's file */
    iks_source src;
    iks_err e = IKS_ERR_INIT;
    const char *p = write_file("map.frag", "void mainImage(out vec4 c, in vec2 f) {\n  c = vec4(1.0);\n}\n");
    CHECK(iks_source_load(&src, p, &(iks_source_opts){ .files = iks_disk_files() }, &e), "%s", iks_err_msg(&e));
    iks_err_clear(&e);
    int line = 0; /* find the assembled line holding "c = vec4" */
    int k = 1;
    for (const char *s = src.fragment; *s; s++) {
        if (!strncmp(s, "  c = vec4", 10)) line = k;
        if (*s == '\n') k++;
    }
    char rec[3][128];
    snprintf(rec[0], 128, "0:%d(5): error: mesa says\n", line);
    snprintf(rec[1], 128, "0(%d) : error C1008: nvidia says\n", line);
    snprintf(rec[2], 128, "ERROR: 0:%d: amd says\n", line);
    for (int i = 0; i < 3; i++) {
        char *m = iks_log_map(rec[i], &src);
        char want[600];
        snprintf(want, sizeof want, "%s:2:", p);
        CHECK(strncmp(m, want, strlen(want)) == 0, "mapped '%s' from '%s'", m, rec[i]);
        free(m);
    }
    char *m = iks_log_map("error: fragment shader lacks `main'\n", &src);
    CHECK(strstr(m, "map.frag: error: fragment shader lacks") != NULL, "unlocated: %s", m);
    free(m);
    iks_source_free(&src);
}

static void test_decls(void)
{
    iks_udecl d[8];
    int n = iks_uniform_decls("uniform float a; // uniform int commented;\n/* uniform vec2 no; */ uniform highp vec3 b, c = vec3(1);\n"
                              "uniform int arr[3];\nuniform bool flag;\nfloat notuniform;\n", d, 8);
    CHECK(n == 5, "got %d declarations", n);
    CHECK(!strcmp(d[0].name, "a") && d[0].base == IKS_U_FLOAT && d[0].comps == 1, "a");
    CHECK(!strcmp(d[1].name, "b") && d[1].comps == 3 && !strcmp(d[2].name, "c") && d[2].comps == 3, "b, c");
    CHECK(!strcmp(d[3].name, "arr") && d[3].comps == 0 && d[3].array, "arrays cannot be set");
    CHECK(!d[0].array && !d[4].array, "scalars are not arrays");
    CHECK(!strcmp(d[4].name, "flag") && d[4].base == IKS_U_BOOL, "bool");
}

static void test_render(void)
{
    /* every Shadertoy uniform we feed, written into pixels that are read back exactly */
    const char *p = write_file("uniforms.frag",
        "uniform float uGain;\nuniform vec2 uOff;\nuniform int uCount;\nuniform bool uOn;\nuniform float uUnused;\n"
        "void mainImage(out vec4 fragColor, in vec2 fragCoord) {\n"
        "  int x = int(fragCoord.x);\n"
        "  if (x == 0) fragColor = vec4(iResolution.xy, iResolution.z, 0.0);\n"
        "  else if (x == 1) fragColor = vec4(iTime, iTimeDelta, float(iFrame), iFrameRate);\n"
        "  else if (x == 2) fragColor = iMouse;\n"
        "  else if (x == 3) fragColor = vec4(uGain, uOff, float(uCount));\n"
        "  else if (x == 4) fragColor = vec4(uOn ? 1.0 : 0.0, fragCoord, iSampleRate);\n"
        "  else fragColor = iDate;\n"
        "}\n");
    iks_program prog;
    iks_source src;
    bool ok;
    char *log = build(p, &ok, &prog, &src);
    CHECK(ok, "uniforms.frag: %s", log);
    free(log);
    if (!ok) return;
    iks_target t;
    iks_err e = IKS_ERR_INIT;
#define err iks_err_msg(&e)
    CHECK(iks_target_create(&t, 8, 3, IKS_RGBA32F, &e), "%s", err);
    iks_setting s[4];
    CHECK(iks_setting_parse("uGain=2.5", &s[0], &e), "%s", err);
    CHECK(iks_setting_parse("uOff=-1,0.25", &s[1], &e), "%s", err);
    CHECK(iks_setting_parse("uCount=7", &s[2], &e), "%s", err);
    CHECK(iks_setting_parse("uOn=true", &s[3], &e), "%s", err);
    forget_warnings();
    CHECK(iks_program_apply(&prog, s, 4, &e, &logger), "%s", err);
    CHECK(nwarned == 0, "no warnings for used uniforms: '%s'", warned);
    iks_frame f;
    iks_frame_defaults(&f);
    f.time = 12.5;
    f.time_delta = 0.25;
    f.frame = 42;
    f.frame_rate = 4;
    memcpy(f.mouse, (float[]){ 10, 20, 30, -40 }, sizeof f.mouse);
    iks_draw(&prog, &t, &f);
    float px[8 * 3 * 4];
    iks_read(&t, px);
    const float *r = px + 4 * (8 * 1); /* row 1 */
    CHECK(r[0] == 8 && r[1] == 3 && r[2] == 1, "iResolution %g %g %g", r[0], r[1], r[2]);
    CHECK(r[4] == 12.5f && r[5] == 0.25f && r[6] == 42 && r[7] == 4, "time %g %g %g %g", r[4], r[5], r[6], r[7]);
    CHECK(r[8] == 10 && r[9] == 20 && r[10] == 30 && r[11] == -40, "iMouse");
    CHECK(r[12] == 2.5f && r[13] == -1 && r[14] == 0.25f && r[15] == 7, "--set values %g %g %g %g", r[12], r[13],
          r[14], r[15]);
    CHECK(r[16] == 1 && r[17] == 4.5f && r[18] == 1.5f && r[19] == 44100, "bool, fragCoord at pixel centres");
    CHECK(r[20] >= 2024 && r[21] >= 0 && r[21] <= 11 && r[22] >= 1 && r[23] >= 0 && r[23] < 86400, "iDate");
    CHECK(iks_gl_error() == NULL, "GL error");
    /* bad settings: each names the uniform and its type */
    iks_setting b;
#define USAGE_ERR (e.code == IKS_E_USAGE)
    CHECK(iks_setting_parse("nosuch=1", &b, &e) && !iks_program_apply(&prog, &b, 1, &e, &logger) &&
              strstr(err, "declares no uniform 'nosuch'") && USAGE_ERR, "undeclared: %s (%s)", err, cname(e.code));
    CHECK(iks_setting_parse("uOff=1", &b, &e) && !iks_program_apply(&prog, &b, 1, &e, &logger) &&
              strstr(err, "uniform 'uOff' is vec2: expected 2 values, got 1") && USAGE_ERR, "count: %s (%s)", err,
          cname(e.code));
    CHECK(iks_setting_parse("uCount=1.5", &b, &e) && !iks_program_apply(&prog, &b, 1, &e, &logger) &&
              strstr(err, "not a whole number") && USAGE_ERR, "int: %s (%s)", err, cname(e.code));
    iks_err_clear(&e);
    forget_warnings();
    CHECK(iks_setting_parse("uUnused=1", &b, &e) && iks_program_apply(&prog, &b, 1, &e, &logger) &&
              strstr(warned, "'uUnused' is declared but unused"), "removed: '%s'", warned);
    CHECK(nwarned == 1 && !strchr(warned, '\n'), "one warning, one line: %d '%s'", nwarned, warned);
    CHECK(e.code == IKS_OK, "a warning is no error: %s", cname(e.code));
    CHECK(!iks_setting_parse("x", &b, &e) && strstr(err, "expected NAME=VALUE") && USAGE_ERR, "%s", err);
    CHECK(!iks_setting_parse("1x=2", &b, &e) && strstr(err, "not a GLSL identifier") && USAGE_ERR, "%s", err);
    CHECK(!iks_setting_parse("x=1,2,3,4,5", &b, &e) && strstr(err, "at most 4") && USAGE_ERR, "%s", err);
    CHECK(!iks_setting_parse("x=nan", &b, &e) && strstr(err, "not a finite number") && USAGE_ERR, "%s", err);
    CHECK(!iks_setting_parse("x=1,", &b, &e) && USAGE_ERR, "trailing comma");
    /* size limits */
    iks_target big;
    CHECK(!iks_target_create(&big, iks_gpu_max_size() + 1, 4, IKS_RGBA8, &e) && strstr(err, "this GL allows") &&
              USAGE_ERR, "%s", err);
#undef USAGE_ERR
#undef err
    iks_err_clear(&e);
    iks_target_destroy(&t);
    iks_program_destroy(&prog);
    iks_source_free(&src);
}

/* a w x h PNG of one grey level, for image channels */
static const char *write_png(const char *name, int w, int h)
{
    uint8_t px[16 * 16 * 4];
    memset(px, 128, sizeof px);
    uint8_t *png;
    size_t len;
    const char *p = write_file(name, "");
    iks_png_opts o = { .level = 1, .alpha = true };
    iks_err e = IKS_ERR_INIT;
    if (!iks_png_encode(px, w, h, &o, &png, &len, &e) || !iks_write_atomic(p, png, len)) {
        perror(p);
        exit(2);
    }
    free(png);
    return p;
}

static void test_toy(void)
{
    iks_err e = IKS_ERR_INIT;
    iks_gltoy t;
    /* a missing image: IKS_E_IO with the file system's reason, and the files read so far are kept */
    write_file("tinc.glsl", "float tk() { return 1.0; }\n");
    const char *img = write_file("timg.frag", "#include \"tinc.glsl\"\nvoid mainImage(out vec4 c, in vec2 f) { c = texture(iChannel0, f) * tk(); }\n");
    char nosuch[600];
    snprintf(nosuch, sizeof nosuch, "%s/nosuch.png", dir);
    iks_spec d = { 0 };
    d.pass[IKS_IMAGE_PASS].path = img;
    d.pass[IKS_IMAGE_PASS].in[0] = (iks_input){ .kind = IKS_IN_IMAGE, .path = nosuch };
    CHECK(!iks_gltoy_create(&t, &d, NULL, 8, 8, &e, &logger) && e.code == IKS_E_IO && strstr(iks_err_msg(&e), nosuch) &&
              strstr(iks_err_msg(&e), ": No such file or directory"), "missing image: %s %s", cname(e.code),
          iks_err_msg(&e));
    CHECK(t.nfiles == 2, "the files read are kept for a watcher: %d", t.nfiles);
    iks_gltoy_destroy(&t);
    /* not an image: a malformed input (it was read), not a file-system failure */
    d.pass[IKS_IMAGE_PASS].in[0].path = img;
    CHECK(!iks_gltoy_create(&t, &d, NULL, 8, 8, &e, &logger) && e.code == IKS_E_FORMAT, "undecodable: %s %s",
          cname(e.code), iks_err_msg(&e));
    iks_gltoy_destroy(&t);
    d.pass[IKS_IMAGE_PASS].in[0].path = write_png("tok.png", 2, 2);
    CHECK(iks_gltoy_create(&t, &d, NULL, 8, 8, &e, &logger), "an image: %s", iks_err_msg(&e));
    CHECK(t.tex_res[IKS_IMAGE_PASS][0][0] == 2, "its size");
    iks_gltoy_destroy(&t);
    /* cubemap faces that are not square */
    const char *cube = write_file("tcube.frag", "void mainImage(out vec4 c, in vec2 f) { c = texture(iChannel1, vec3(1.0)); }\n");
    write_png("face.png", 2, 2);
    for (int i = 1; i < 6; i++) {
        char n[32];
        snprintf(n, sizeof n, "face_%d.png", i);
        write_png(n, 2, i == 4 ? 1 : 2);
    }
    char face[600];
    snprintf(face, sizeof face, "%s/face.png", dir);
    iks_spec cd = { 0 };
    cd.pass[IKS_IMAGE_PASS].path = cube;
    cd.pass[IKS_IMAGE_PASS].in[1] = (iks_input){ .kind = IKS_IN_CUBEMAP, .path = face };
    CHECK(!iks_gltoy_create(&t, &cd, NULL, 8, 8, &e, &logger) && e.code == IKS_E_FORMAT &&
              strstr(iks_err_msg(&e), "face_4.png: cubemap faces must be square"), "cube: %s %s", cname(e.code),
          iks_err_msg(&e));
    iks_gltoy_destroy(&t);
    /* a compile error in a buffer pass is passed up as it was made */
    const char *bad = write_file("tbad.frag", "void mainImage(out vec4 c, in vec2 f) { c = nope; }\n");
    iks_spec bd = { 0 };
    bd.pass[0].path = bad;
    bd.pass[IKS_IMAGE_PASS].path = cube;
    CHECK(!iks_gltoy_create(&t, &bd, NULL, 8, 8, &e, &logger) && e.code == IKS_E_COMPILE &&
              strstr(iks_err_msg(&e), "tbad.frag:1:"), "compile: %s %s", cname(e.code), iks_err_msg(&e));
    iks_gltoy_destroy(&t);
    iks_spec nd = { 0 };
    CHECK(!iks_gltoy_create(&t, &nd, NULL, 8, 8, &e, &logger) && e.code == IKS_E_USAGE, "no image pass: %s",
          cname(e.code));
    iks_gltoy_destroy(&t);

    /* settings across passes: one warning only when no declaring pass kept the uniform */
    const char *pa = write_file("tpa.frag", "uniform float k;\nuniform float z;\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(k); }\n");
    const char *pi = write_file("tpi.frag", "uniform float k;\nuniform float z;\nvoid mainImage(out vec4 c, in vec2 f) { c = texelFetch(iChannel0, ivec2(f), 0); }\n");
    iks_spec sd = { 0 };
    sd.pass[0].path = pa;
    sd.pass[IKS_IMAGE_PASS].path = pi;
    sd.pass[IKS_IMAGE_PASS].in[0] = (iks_input){ .kind = IKS_IN_BUFFER, .buffer = 0 };
    CHECK(iks_gltoy_create(&t, &sd, NULL, 8, 8, &e, &logger), "two passes: %s", iks_err_msg(&e));
    iks_setting st[2];
    iks_setting_parse("k=1", &st[0], &e);
    iks_setting_parse("z=2", &st[1], &e);
    forget_warnings();
    CHECK(iks_gltoy_apply(&t, st, 2, &e, &logger), "%s", iks_err_msg(&e));
    CHECK(nwarned == 1 && strstr(warned, "uniform 'z' is declared but unused") && !strstr(warned, "'k'"),
          "one warning, for z alone: %d '%s'", nwarned, warned);
    iks_setting nope;
    iks_setting_parse("nope=1", &nope, &e);
    CHECK(!iks_gltoy_apply(&t, &nope, 1, &e, &logger) && e.code == IKS_E_USAGE &&
              strstr(iks_err_msg(&e), "declares no uniform 'nope'"), "undeclared: %s", iks_err_msg(&e));
    CHECK(!iks_gltoy_resize(&t, iks_gpu_max_size() + 1, 8, &e) && e.code == IKS_E_USAGE && t.w == 8,
          "too big a resize keeps the buffers: %s", cname(e.code));
    CHECK(iks_gltoy_resize(&t, 16, 4, &e) && t.w == 16 && t.h == 4, "resize: %s", iks_err_msg(&e));
    iks_gltoy_destroy(&t);

    /* more files than the old fixed table held (64): every one is kept for the watcher */
    char text[8192] = "";
    size_t k = 0;
    for (int i = 0; i < 70; i++) {
        char n[32], body[64];
        snprintf(n, sizeof n, "many%02d.glsl", i);
        snprintf(body, sizeof body, "float many%02d() { return 1.0; }\n", i);
        write_file(n, body);
        k += (size_t)snprintf(text + k, sizeof text - k, "#include \"%s\"\n", n);
    }
    snprintf(text + k, sizeof text - k, "void mainImage(out vec4 c, in vec2 f) { c = vec4(many69()); }\n");
    iks_spec md = { 0 };
    md.pass[IKS_IMAGE_PASS].path = write_file("many.frag", text);
    CHECK(iks_gltoy_create(&t, &md, NULL, 4, 4, &e, &logger), "many: %s", iks_err_msg(&e));
    CHECK(t.nfiles == 71, "all 71 files kept: %d", t.nfiles);
    iks_gltoy_destroy(&t);
    iks_err_clear(&e);
}

/* the HUD's error text: wrapped to the window, at most so many lines, and how many more */
static void test_hud_lines(void)
{
    char out[512];
    iks_hud_error_lines(out, sizeof out, "a.frag:1:2: error: short\nsecond\n", 40, 12);
    CHECK(!strcmp(out, "a.frag:1:2: error: short\nsecond"), "two short lines as they are: '%s'", out);
    iks_hud_error_lines(out, sizeof out, "a.frag:9:1: error: a message far longer than the twenty-five columns", 25, 12);
    CHECK(!strcmp(out, "a.frag:9:1: error: a\n  message far longer than\n  the twenty-five columns"),
          "wrapped at spaces, continuations indented: '%s'", out);
    for (const char *p = out; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        CHECK(n <= 25, "a line of %zu characters in 25 columns", n);
        p = e ? e + 1 : p + n;
    }
    iks_hud_error_lines(out, sizeof out, "1\n2\n3\n4\n5\n6\n", 40, 4);
    CHECK(!strcmp(out, "1\n2\n3\n4\n+2 more lines (in the terminal)"), "four lines and how many more: '%s'", out);
    iks_hud_error_lines(out, sizeof out, "1\n2\n3\n4\n5", 40, 4);
    CHECK(!strcmp(out, "1\n2\n3\n4\n+1 more line (in the terminal)"), "one more: '%s'", out);
    iks_hud_error_lines(out, 8, "a.frag:1:2: error: short", 40, 12);
    CHECK(strlen(out) < 8, "a small buffer is never overrun: '%s'", out);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/ikshade-test-gpu-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    test_log_formats();
    test_decls();
    test_hud_lines();
    iks_err e = IKS_ERR_INIT;
    iks_platform *plat = iks_egl_create(&e);
    CHECK(plat != NULL, "no headless context: %s", iks_err_msg(&e));
    if (plat) {
        CHECK(iks_gpu_load(plat->get_proc_address, &e), "%s", iks_err_msg(&e));
        printf("platform: %s, renderer: %s\n", plat->name, iks_gpu_renderer());
        test_assembly_errors();
        test_errors();
        test_render();
        test_toy();
        plat->destroy(plat);
    }
    iks_err_clear(&e);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
