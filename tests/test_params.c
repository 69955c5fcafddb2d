/* test_params.c: #iUniform lines (src/glsl/params.c) alone, then through assembly: what the compiler sees
 * on the line, the parameter's default, range and step, the refusals, and skipped groups. No GL. */
#include "check.h"
#include "glsl/params.h"
#include "glsl/source.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool parse(const char *line, iks_param *p, char *decl, char *why)
{
    return iks_param_parse(line, strlen(line), p, decl, 160, why, 160);
}

/* each refused line and a word its reason must hold */
static const struct {
    const char *line, *why;
} BAD[] = {
    { "#iUniform", "expected a type" },
    { "#iUniform mat3 m = mat3(1.0)", "cannot be a parameter" },
    { "#iUniform sampler2D s", "cannot be a parameter" },
    { "#iUniform float", "expected a name" },
    { "#iUniform float iTime = 1.0", "set by ikshade" },
    { "#iUniform float gl_x = 1.0", "GLSL's" },
    { "#iUniform float x = ", "expected a number" },
    { "#iUniform float x = abc", "not the declared" },
    { "#iUniform vec3 x = vec3(1.0, 2.0)", "takes 1 or 3 values" },
    { "#iUniform vec3 x = vec3(1.0, 2.0, 3.0", "expected ')'" },
    { "#iUniform vec2 x = vec2(1, 2, 3, 4, 5)", "up to 4 numbers" },
    { "#iUniform float x = 1.0 in { 2.0, 1.0 }", "is empty" },
    { "#iUniform float x = 1.0 in { 1.0, 1.0 }", "is empty" },
    { "#iUniform float x = 1.0 in 0.0, 1.0", "expected '{" },
    { "#iUniform float x = 1.0 in { 0.0 1.0 }", "expected ','" },
    { "#iUniform float x = 1.0 in { 0.0, 1.0 ", "expected '}'" },
    { "#iUniform float x = 1.0 in { 0.0, 1.0 } step 0", "above 0" },
    { "#iUniform float x = 1.0 in { 0.0, 1.0 } step 2", "larger than the range" },
    { "#iUniform int n = 1.5", "n is an int: its value 1.5 is not a whole number" },
    { "#iUniform int n = 1 in { 0, 2.5 }", "its range's maximum 2.5 is not a whole number" },
    /* a value past its type, by the rule --set keeps (iks_ubase_refuses), in its words (issue 38) */
    { "#iUniform int n = 1e10", "n is an int: its value 10000000000 is beyond an int's range (-2147483648 to 2147483647)" },
    { "#iUniform int n = 2147483648", "its value 2147483648 is beyond an int's range" },
    { "#iUniform int n = -2147483649", "its value -2147483649 is beyond an int's range" },
    { "#iUniform int n = 1e39", "beyond an int's range" },
    { "#iUniform ivec2 n = ivec2(3000000000, 1)", "n is an ivec2: component 1 of its value (3000000000) is beyond an int's" },
    { "#iUniform ivec3 n = ivec3(1, 2, -3e9)", "component 3 of its value (-3000000000) is beyond an int's" },
    { "#iUniform ivec4 n = ivec4(5e9)", "component 1 of its value (5000000000) is beyond an int's" },
    { "#iUniform int n = 1 in { 0, 1e12 }", "its range's maximum 1000000000000 is beyond an int's range" },
    { "#iUniform int n = 1 in { -1e12, 5 }", "its range's minimum -1000000000000 is beyond an int's range" },
    { "#iUniform int n = 1 step 3e9", "its step 3000000000 is beyond an int's range" },
    { "#iUniform int n = 1 step 0.5", "its step 0.5 is not a whole number" },
    { "#iUniform float a = 1e39", "a is a float: its value 1e+39 is beyond a float's range (at most 3.40282e+38 either way)" },
    { "#iUniform float a = -3.5e38", "its value -3.5e+38 is beyond a float's range" },
    { "#iUniform vec2 a = vec2(0.0, 1e39)", "a is a vec2: component 2 of its value (1e+39) is beyond a float's range" },
    { "#iUniform color3 c = color3(1e39, 0.0, 0.0)", "c is a color3: component 1 of its value (1e+39) is beyond a float's" },
    { "#iUniform color4 c = vec4(1e300)", "c is a color4: component 1 of its value (1e+300) is beyond a float's" },
    { "#iUniform float a = 1.0 in { 0.0, 1e39 }", "its range's maximum 1e+39 is beyond a float's range" },
    { "#iUniform float a = 1.0 in { -1e39, 2.0 }", "its range's minimum -1e+39 is beyond a float's range" },
    { "#iUniform float a = 1.0 step 1e39", "its step 1e+39 is beyond a float's range" },
    { "#iUniform bool b = 2", "b is a bool: its value 2 is neither true nor false (1 or 0)" },
    { "#iUniform bool b = 1e10", "its value 10000000000 is neither true nor false" },
    { "#iUniform bool b = true in { 0, 1 }", "no range" },
    { "#iUniform float x = 1.0 junk", "unexpected 'junk'" },
    { "#iUniform float x = 1e999", "expected a number" },
    { "#iUniform float x = 0x10", "expected a number" },
};

int main(void)
{
    iks_param p;
    char decl[160], why[160];

    CHECK(iks_param_is_line("#iUniform float x", 17) && iks_param_is_line("  \t#iUniform", 12),
          "an #iUniform line, also indented");
    CHECK(!iks_param_is_line("#iUniforms x", 12) && !iks_param_is_line("# iUniform x", 12) &&
              !iks_param_is_line("#define iUniform", 16),
          "not a longer word, a space after #, or a #define");

    /* the extension's README's examples, and forms seen in real files */
    CHECK(parse("#iUniform float my_scalar = 1.0 in { 0.0, 5.0 } // This will expose a slider", &p, decl, why), "%s", why);
    CHECK(!strcmp(decl, "uniform float my_scalar;") && p.n == 1 && p.base == IKS_U_FLOAT && p.def[0] == 1.0 &&
              p.has_range && p.min == 0.0 && p.max == 5.0 && p.step == 0.0 && !p.color,
          "a slider: '%s' def %g range %d %g..%g step %g", decl, p.def[0], p.has_range, p.min, p.max, p.step);
    CHECK(parse("#iUniform float d = 1.0 in { 0.0, 5.0 } step 0.2", &p, decl, why) && p.step == 0.2, "step: %s", why);
    CHECK(parse("#iUniform float other_scalar = 5.0", &p, decl, why) && !p.has_range && p.def[0] == 5.0,
          "no range: a number field: %s", why);
    CHECK(parse("#iUniform color3 my_color = color3(1.0)", &p, decl, why) && !strcmp(decl, "uniform vec3 my_color;") &&
              p.color && p.n == 3 && p.def[0] == 1.0 && p.def[1] == 1.0 && p.def[2] == 1.0,
          "color3(1.0) fills every component, a vec3 for the compiler: '%s' %s", decl, why);
    CHECK(parse("#iUniform color3 c = vec3(0.964, 0.144, 0.519)", &p, decl, why) && p.def[1] == 0.144,
          "a colour given as vec3: %s", why);
    CHECK(parse("#iUniform vec4 other_color = vec4(1.0) in { 0.0, 1.0 }", &p, decl, why) && p.n == 4 &&
              p.has_range && p.def[3] == 1.0 && !p.color,
          "a vec4 with one range for its four sliders: %s", why);
    CHECK(parse("#iUniform color4 c4 = color4(0.1, 0.2, 0.3, 0.4)", &p, decl, why) && p.color && p.def[3] == 0.4 &&
              !strcmp(decl, "uniform vec4 c4;"),
          "color4: %s", why);
    CHECK(parse("#iUniform int n = 10 in{10, 1280 }", &p, decl, why) && p.base == IKS_U_INT && p.step == 1 &&
              p.min == 10 && p.max == 1280 && !strcmp(decl, "uniform int n;"),
          "an int without spaces around in{: step 1: %s (step %g)", why, p.step);
    CHECK(parse("#iUniform float seed = 52.", &p, decl, why) && p.def[0] == 52.0, "'52.': %s", why);
    CHECK(parse("#iUniform float h = -5. in { -20., 20. }", &p, decl, why) && p.def[0] == -5.0 && p.min == -20.0,
          "negative numbers: %s", why);
    CHECK(parse("#iUniform float f = 1.5f;", &p, decl, why) && p.def[0] == 1.5, "a suffix and a semicolon: %s", why);
    CHECK(parse("#iUniform float e = 1e-3 in { 0.0, 2.5e-2 }", &p, decl, why) && p.def[0] == 1e-3 && p.max == 2.5e-2,
          "exponents: %s", why);
    CHECK(parse("#iUniform bool ghost = true", &p, decl, why) && p.base == IKS_U_BOOL && p.def[0] == 1.0 &&
              !strcmp(decl, "uniform bool ghost;"),
          "a bool: %s", why);
    CHECK(parse("#iUniform bool off = false /* a toggle */", &p, decl, why) && p.def[0] == 0.0, "false: %s", why);
    CHECK(parse("#iUniform vec2 v", &p, decl, why) && p.def[0] == 0 && p.def[1] == 0, "no value: zero: %s", why);
    CHECK(parse("#iUniform ivec2 cells = ivec2(4, 8) in { 1, 64 }", &p, decl, why) && p.def[1] == 8 &&
              !strcmp(decl, "uniform ivec2 cells;"),
          "ivec2: %s", why);

    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        bool ok = parse(BAD[i].line, &p, decl, why);
        CHECK(!ok && strstr(why, BAD[i].why), "'%s' refused saying '%s': %s", BAD[i].line, BAD[i].why, ok ? "accepted" : why);
    }
    /* a type's ends are its own: taken, and held exactly */
    CHECK(parse("#iUniform int n = -2147483648 in { -2147483648, 2147483647 } step 2147483647", &p, decl, why) &&
              p.def[0] == -2147483648.0 && p.min == -2147483648.0 && p.max == 2147483647.0 && p.step == 2147483647.0,
          "an int's whole range: %s", why);
    CHECK(parse("#iUniform ivec2 n = ivec2(2147483647, -2147483648)", &p, decl, why) && p.def[0] == 2147483647.0 &&
              p.def[1] == -2147483648.0,
          "an ivec2 at both ends: %s", why);
    CHECK(parse("#iUniform float a = 3.4e38 in { -3.4e38, 3.4e38 } step 3.4e38", &p, decl, why) && p.def[0] == 3.4e38,
          "a float near its largest: %s", why);
    CHECK(parse("#iUniform bool b = 1", &p, decl, why) && p.def[0] == 1.0, "a bool written 1: %s", why);
    CHECK(parse("#iUniform bool b = 0", &p, decl, why) && p.def[0] == 0.0, "a bool written 0: %s", why);

    /* the rule itself, at each type's ends: what --set, the typed setters and the lines above all use */
    static const struct { iks_ubase b; double v; const char *why; } RULE[] = {
        { IKS_U_FLOAT, 3.4028234663852886e38, NULL }, { IKS_U_FLOAT, -3.4028234663852886e38, NULL },
        { IKS_U_FLOAT, 3.5e38, "beyond a float's range (at most 3.40282e+38 either way)" },
        { IKS_U_FLOAT, INFINITY, "not a finite number" }, { IKS_U_FLOAT, NAN, "not a finite number" },
        { IKS_U_FLOAT, 0.1, NULL },
        { IKS_U_INT, 2147483647.0, NULL }, { IKS_U_INT, -2147483648.0, NULL },
        { IKS_U_INT, 2147483648.0, "beyond an int's range (-2147483648 to 2147483647)" },
        { IKS_U_INT, -2147483649.0, "beyond an int's range (-2147483648 to 2147483647)" },
        { IKS_U_INT, 1e39, "beyond an int's range" }, { IKS_U_INT, 1.5, "not a whole number" },
        { IKS_U_INT, -INFINITY, "not a finite number" },
        { IKS_U_UINT, 4294967295.0, NULL }, { IKS_U_UINT, 0.0, NULL },
        { IKS_U_UINT, 4294967296.0, "beyond an unsigned int's range (0 to 4294967295)" },
        { IKS_U_UINT, -1.0, "beyond an unsigned int's range (0 to 4294967295)" },
        { IKS_U_UINT, 0.5, "not a whole number" },
        { IKS_U_BOOL, 0.0, NULL }, { IKS_U_BOOL, 1.0, NULL },
        { IKS_U_BOOL, 2.0, "neither true nor false (1 or 0)" }, { IKS_U_BOOL, 0.5, "neither true nor false" },
        { IKS_U_BOOL, -1.0, "neither true nor false" },
    };
    for (size_t i = 0; i < sizeof RULE / sizeof RULE[0]; i++) {
        const char *got = iks_ubase_refuses(RULE[i].b, RULE[i].v);
        CHECK(RULE[i].why ? got && strstr(got, RULE[i].why) == got : !got, "base %d, %.17g: '%s', want '%s'",
              (int)RULE[i].b, RULE[i].v, got ? got : "(held)", RULE[i].why ? RULE[i].why : "(held)");
    }

    /* a name too long for the table is refused, never cut */
    char longline[200];
    snprintf(longline, sizeof longline, "#iUniform float %0100d = 1.0", 0);
    longline[16] = 'x';
    CHECK(!parse(longline, &p, decl, why), "a 100-character name is refused");

    /* through assembly: the line becomes the declaration on the same line; a skipped group's is blank */
    const char *text = "#iUniform float level = 0.5 in { 0.0, 1.0 }\n"
                       "#ifdef NOPE\n"
                       "#iUniform float dead = 1.0\n"
                       "#endif\n"
                       "#iUniform color3 tint = color3(1.0, 0.5, 0.0)\n"
                       "#iUniform float level = 0.7\n"
                       "void mainImage(out vec4 c, in vec2 f) { c = vec4(tint * level, 1.0); }\n";
    iks_source src;
    iks_err e = IKS_ERR_INIT;
    iks_source_opts o = { .text = text };
    CHECK(iks_source_load(&src, "<memory>", &o, &e), "%s", iks_err_msg(&e));
    CHECK(src.nparams == 2 && !strcmp(src.params[0].name, "level") && src.params[0].line == 1 &&
              src.params[0].def[0] == 0.5 && !strcmp(src.params[1].name, "tint") && src.params[1].line == 5,
          "two parameters, the first declaration of a name kept, dead ones left out: %d", src.nparams);
    CHECK(strstr(src.fragment, "uniform float level;\n") && strstr(src.fragment, "uniform vec3 tint;\n") &&
              !strstr(src.fragment, "#iUniform float level") && !strstr(src.fragment, "dead"),
          "the compiler sees declarations, no #iUniform, nothing of the skipped group");
    const char *at = strstr(src.fragment, "uniform vec3 tint;");
    int line = 1;
    for (const char *q = src.fragment; at && q < at; q++) line += *q == '\n';
    const char *path = NULL;
    int fl = 0;
    CHECK(at && iks_source_where(&src, line, &path, &fl) && fl == 5, "tint's line maps to line 5, not %d", fl);
    iks_source_free(&src);

    iks_source_opts bad = { .text = "void f() {}\n#iUniform float x = 1.0 in { 1.0, 0.0 }\n" };
    CHECK(!iks_source_load(&src, "toy.frag", &bad, &e) && e.code == IKS_E_FORMAT &&
              strstr(iks_err_msg(&e), "toy.frag:2: malformed #iUniform: the range { 1, 0 } is empty"),
          "a malformed line is an error naming the file and line: %s %s", cname(e.code), iks_err_msg(&e));
    iks_source_free(&src);
    iks_err_clear(&e);
    /* a value past its type: on its file and line at load (not when the GL side sets it), and said
     * whole after the longest name */
    char name[64], wide[300], want[300];
    memset(name, 'k', 63);
    name[63] = '\0';
    snprintf(wide, sizeof wide, "void f() {}\n\n#iUniform ivec4 %s = ivec4(1, 2, 3, 3000000000)\n", name);
    snprintf(want, sizeof want, "toy.frag:3: malformed #iUniform: %s is an ivec4: component 4 of its value (3000000000) "
             "is beyond an int's range (-2147483648 to 2147483647)", name);
    bad.text = wide;
    CHECK(!iks_source_load(&src, "toy.frag", &bad, &e) && e.code == IKS_E_FORMAT && !strcmp(iks_err_msg(&e), want),
          "an int past 32 bits: %s %s", cname(e.code), iks_err_msg(&e));
    iks_source_free(&src);
    iks_err_clear(&e);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
