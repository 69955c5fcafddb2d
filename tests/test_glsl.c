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

/* a text rewrite of ours gives want exactly, and keeps every newline */
static void rewrites(char *(*f)(const char *), const char *what, const char *in, const char *want)
{
    char *got = f(in);
    CHECK(got && !strcmp(got, want), "%s of\n  %s\ngave\n  %s\nnot\n  %s", what, in, got ? got : "(null)", want);
    int nl_in = 0, nl_out = 0;
    for (const char *p = in; *p; p++) nl_in += *p == '\n';
    for (const char *p = got ? got : ""; *p; p++) nl_out += *p == '\n';
    CHECK(got && nl_in == nl_out, "%s keeps the lines: %d, not %d", what, nl_in, nl_out);
    free(got);
}

static void clamp_cases(void)
{
#define CL(in, want) rewrites(iks_clamp_indices, "clamp", in, want)
    /* reads and writes of a vector, an array of literal size, one of a named size, a matrix and its column */
    CL("void f(int i) { vec3 c; float a[4]; c[i] = a[i]; }",
       "void f(int i) { vec3 c; float a[4]; c[clamp(int(i), 0, 2)] = a[clamp(int(i), 0, 3)]; }");
    CL("const int N = 8;\nfloat g[N];\nfloat h(uint u) { return g[u + 1u]; }",
       "const int N = 8;\nfloat g[N];\nfloat h(uint u) { return g[clamp(int(u + 1u), 0, g.length() - 1)]; }");
    CL("void f(int i, int j) { mat3x2 m; m[i][j] = 1.0; }",
       "void f(int i, int j) { mat3x2 m; m[clamp(int(i), 0, 2)][clamp(int(j), 0, 1)] = 1.0; }");
    /* constant indices (literals, const names, object-like macros) and declarations' sizes: left alone */
    CL("#define K 2\nconst int N = 3;\nvoid f() { float a[N + 1]; a[N] = a[K] + a[1 + 2]; }",
       "#define K 2\nconst int N = 3;\nvoid f() { float a[N + 1]; a[N] = a[K] + a[1 + 2]; }");
    /* a side effect stays once; an index inside an index; a swizzle; an array of vectors */
    CL("void f(int i) { vec4 v; vec2 p[3]; v.xy[i++] = p[int(v[i])][i].x; }",
       "void f(int i) { vec4 v; vec2 p[3]; v.xy[clamp(int(i++), 0, 1)] = p[clamp(int(int(v[clamp(int(i), 0, 3)])), 0, 2)][clamp(int(i), 0, 1)].x; }");
    /* scopes: a parameter shadows a global, a struct's array is not followed, a name not declared is not */
    CL("vec4 q; float f(float q[2], int i) { return q[i]; }\nfloat g(int i) { return q[i] + s.a[i] + u[i]; }",
       "vec4 q; float f(float q[2], int i) { return q[clamp(int(i), 0, 1)]; }\nfloat g(int i) { return q[clamp(int(i), 0, 3)] + s.a[i] + u[i]; }");
    /* struct members: an array member, an array of structs, a vector member; a member array sized by a
     * name not declared is not followed */
    CL("struct P { float v[3]; vec2 q; float w[N]; };\nvoid f(int i) { P p; P ps[2]; p.v[i] = ps[i].q[i] + p.w[i]; }",
       "struct P { float v[3]; vec2 q; float w[N]; };\nvoid f(int i) { P p; P ps[2]; p.v[clamp(int(i), 0, 2)] = "
       "ps[clamp(int(i), 0, 1)].q[clamp(int(i), 0, 1)] + p.w[i]; }");
    /* a member array sized by a file-scope const, a macro, an expression of them: the size is written
     * again in the clamp (int(): a uint size too); an array of such structs */
    CL("const int N = 4;\n#define M 2\nstruct S { float v[N]; vec2 w[N*2]; float[M + 1] u; };\n"
       "void f(int j) { S s; S ps[2]; s.v[j] = s.w[j].x + s.u[j] + ps[j].v[j]; }",
       "const int N = 4;\n#define M 2\nstruct S { float v[N]; vec2 w[N*2]; float[M + 1] u; };\n"
       "void f(int j) { S s; S ps[2]; s.v[clamp(int(j), 0, int(N) - 1)] = s.w[clamp(int(j), 0, int(N*2) - 1)].x + "
       "s.u[clamp(int(j), 0, int(M + 1) - 1)] + ps[clamp(int(j), 0, 1)].v[clamp(int(j), 0, int(N) - 1)]; }");
    /* ... not when a name in the size may mean something else where the index is: a parameter of that
     * name, a local, a macro defined twice or #undef'd, a const that is not at file scope */
    CL("const int N = 4;\nstruct S { float v[N]; };\nfloat g(int N) { return 0.0; }\nvoid f(int j) { S s; s.v[j] = 1.0; }",
       "const int N = 4;\nstruct S { float v[N]; };\nfloat g(int N) { return 0.0; }\nvoid f(int j) { S s; s.v[j] = 1.0; }");
    CL("const int N = 4;\nstruct S { float v[N]; };\nvoid f(int j) { int a, N = 2; S s; s.v[j] = 1.0; }",
       "const int N = 4;\nstruct S { float v[N]; };\nvoid f(int j) { int a, N = 2; S s; s.v[j] = 1.0; }");
    CL("#define K 3\nstruct T { float v[K]; };\n#undef K\n#define K 5\nvoid f(int j) { T t; t.v[j] = 1.0; }",
       "#define K 3\nstruct T { float v[K]; };\n#undef K\n#define K 5\nvoid f(int j) { T t; t.v[j] = 1.0; }");
    CL("void f(int j) { const int L = 2; struct U { float v[L]; }; U u; u.v[j] = 1.0; }",
       "void f(int j) { const int L = 2; struct U { float v[L]; }; U u; u.v[j] = 1.0; }");
    /* indices in #define bodies, rewritten in place: a global array, a vector, arrays of one name and
     * different lengths (their .length()), an object-like macro, a struct's members; not SV, where the
     * member's size would name the macro's parameter */
    CL("float perm[256];\n#define H(i) perm[(i) & 255]\nvec3 g;\n#define GET(k) g[k]\n#define AT2(k) buf[k] + \\\n  perm[k]\n"
       "float f(int j) { float buf[3]; return H(j) + AT2(j); }\nfloat e(int j) { float buf[5]; return AT2(j); }",
       "float perm[256];\n#define H(i) perm[clamp(int((i) & 255), 0, 255)]\nvec3 g;\n#define GET(k) g[clamp(int(k), 0, 2)]\n"
       "#define AT2(k) buf[clamp(int(k), 0, buf.length() - 1)] + \\\n  perm[clamp(int(k), 0, 255)]\n"
       "float f(int j) { float buf[3]; return H(j) + AT2(j); }\nfloat e(int j) { float buf[5]; return AT2(j); }");
    CL("const int N = 2;\nstruct S { float v[N]; vec4 c; };\nS s; int idx;\n#define CUR s.v[idx] + s.c[idx]\n#define SV(N) s.v[N]",
       "const int N = 2;\nstruct S { float v[N]; vec4 c; };\nS s; int idx;\n#define CUR s.v[clamp(int(idx), 0, int(N) - 1)] + s.c[clamp(int(idx), 0, 3)]\n#define SV(N) s.v[N]");
    /* a name a function-like macro may declare where it is called is no longer known; a name it is not
     * called with still is */
    CL("vec3 c;\n#define DECL(n) float n[4]\n#define C(k) c[k]\nvoid f() { DECL(c); }",
       "vec3 c;\n#define DECL(n) float n[4]\n#define C(k) c[k]\nvoid f() { DECL(c); }");
    CL("vec3 c;\n#define DECL(n) float n[4]\n#define C(k) c[k]\nvoid f() { DECL(e); }",
       "vec3 c;\n#define DECL(n) float n[4]\n#define C(k) c[clamp(int(k), 0, 2)]\nvoid f() { DECL(e); }");
    /* left in a body: a parameter as the base or as a swizzle, a name declared as a vec3 and a vec4, as
     * an array and a vector, in a macro's body, with a type the scan does not know, a #define of it;
     * beside them a global vec4 is clamped */
    CL("#define AT(v,i) v[i]\n#define SW(q,i) g.q[i]\n#define C(k) c[k] + d[k] + e[k] + h[k] + w[k] + g[k]\nvec4 g;\nvec3 c; float d[2]; Made e;\n"
       "#define DECL float h[2];\n#define w x\nvoid f(int j) { vec4 c; vec2 d; }",
       "#define AT(v,i) v[i]\n#define SW(q,i) g.q[i]\n#define C(k) c[k] + d[k] + e[k] + h[k] + w[k] + g[clamp(int(k), 0, 3)]\nvec4 g;\nvec3 c; float d[2]; Made e;\n"
       "#define DECL float h[2];\n#define w x\nvoid f(int j) { vec4 c; vec2 d; }");
    /* the for's variable, the prelude's uniforms, an index across lines */
    CL("void f() { for (int i = 0; i < 9; i++) o += iChannelResolution[i].x + iMouse[\ni]; }",
       "void f() { for (int i = 0; i < 9; i++) o += iChannelResolution[clamp(int(i), 0, 3)].x + iMouse[clamp(int(\ni), 0, 3)]; }");
#undef CL
}

static void fold_cases(void)
{
#define CF(in, want) rewrites(iks_fold_constants, "fold", in, want)
    CF("float a = acos(0.5) + cos(2.0) - sin(acos(0.25));", "float a = 1.04719758 + (-0.416146845) - 0.968245864;");
    CF("float b = pow(2.0, 3.0) + atan(1.0, -2.0) + inversesqrt(4.0f) + exp((-1.0));",
       "float b = 8.0 + 2.67794514 + 0.5 + 0.36787945;");
    /* left: undefined, not literal, int, over two lines, a member, a macro of that name */
    CF("float c = acos(2.0) + log(0.0) + sin(x) + sin(1) + sin(\n0.5) + s.sin(0.5);",
       "float c = acos(2.0) + log(0.0) + sin(x) + sin(1) + sin(\n0.5) + s.sin(0.5);");
    CF("#define cos(x) x\nfloat d = cos(0.5);", "#define cos(x) x\nfloat d = cos(0.5);");
    /* constant expressions of names: a file-scope const (a call in its initialiser folded too) and an
     * object-like macro, each operation rounded to float (PI / 4.0 is 0.785398185f, whose sine is
     * 0.707106769); a macro's body is its tokens (M * 2.0 is 1.0 + 2.0); float(int); -0.0 in parentheses */
    CF("const float PI = acos(-1.0), H = PI * 0.5;\nfloat e = sin(PI / 4.0) + cos(H) + exp(-(1.0 + 2.0) * 2.0);",
       "const float PI = 3.14159274, H = PI * 0.5;\nfloat e = 0.707106769 + (-4.37113883e-08) + 0.00247875229;");
    CF("#define PI 3.14159265\n#define M 1.0 + 1.0\nfloat g = sin(PI / 4.0) + sin(M * 2.0) + sin(float(3)) - sin(-0.0);",
       "#define PI 3.14159265\n#define M 1.0 + 1.0\nfloat g = 0.707106769 + 0.141120002 + 0.141120002 - (-0.0);");
    /* inside macro bodies, where they stand; not where a parameter is in the call */
    CF("#define PI acos(-1.)\n#define TAU (2.*acos(-1.))\n#define R(a) (a*PI/180.+sin(PI/2.))\n#define S(x) sin(x*PI)\n"
       "#define T(sin) sin(1.0)\nfloat h = sin(TAU / 8.0) + cos(PI);",
       "#define PI 3.14159274\n#define TAU (2.*3.14159274)\n#define R(a) (a*PI/180.+1.0)\n#define S(x) sin(x*PI)\n"
       "#define T(sin) sin(1.0)\nfloat h = 0.707106769 + (-1.0);");
    /* refused: a name declared again (a parameter, a member, a second const), a macro defined twice, one
     * #undef'd, one in an #if group, a name used before its declaration, a function-like macro */
    CF("const float A = 1.0;\nfloat f(float A) { return sin(A); }",
       "const float A = 1.0;\nfloat f(float A) { return sin(A); }");
    CF("struct S { float B; };\nconst float B = 1.0;\nfloat b = sin(B);",
       "struct S { float B; };\nconst float B = 1.0;\nfloat b = sin(B);");
    CF("const float C = 1.0;\nconst float C = 2.0;\nfloat c = sin(C);", "const float C = 1.0;\nconst float C = 2.0;\nfloat c = sin(C);");
    CF("#define D 1.0\n#define D 1.0\nfloat d = sin(D);", "#define D 1.0\n#define D 1.0\nfloat d = sin(D);");
    CF("#define W sin(1.)\n#define W sin(1.0)\n", "#define W sin(1.)\n#define W sin(1.0)\n");
    CF("#define E 1.0\n#undef E\nfloat e = sin(E);", "#define E 1.0\n#undef E\nfloat e = sin(E);");
    CF("#ifdef X\n#define F 1.0\nconst float G = 1.0;\n#endif\nfloat f = sin(F) + sin(G);",
       "#ifdef X\n#define F 1.0\nconst float G = 1.0;\n#endif\nfloat f = sin(F) + sin(G);");
    CF("float f() { return sin(K); }\nconst float K = 1.0;\n#define L sin(N)\n#define N 1.0\nfloat l = sin(J(1.0));\n#define J(x) x",
       "float f() { return sin(K); }\nconst float K = 1.0;\n#define L sin(N)\n#define N 1.0\nfloat l = sin(J(1.0));\n#define J(x) x");
    /* a name handed to a macro that declares what it is handed (itself, or through another macro) */
    CF("const float P = 1.0;\n#define L2(n) L(n)\n#define L(n) float n = 2.0;\nvoid f() { L2(P) float a = sin(P); }",
       "const float P = 1.0;\n#define L2(n) L(n)\n#define L(n) float n = 2.0;\nvoid f() { L2(P) float a = sin(P); }");
    CF("const float P = 1.0;\n#define D(a) (a * P)\nvoid f() { float a = D(2.0) + sin(P); }",
       "const float P = 1.0;\n#define D(a) (a * P)\nvoid f() { float a = D(2.0) + 0.841470957; }");
    /* not constant: a uniform, int arithmetic, a division by zero, a local const */
    CF("void f() { const float P = 1.0; float p = sin(P) + sin(iTime) + sin(float(1 + 2)) + sin(1.0 / 0.0); }",
       "void f() { const float P = 1.0; float p = sin(P) + sin(iTime) + sin(float(1 + 2)) + sin(1.0 / 0.0); }");
#undef CF
}

static void zero_cases(void)
{
#define ZI(in, want) rewrites(iks_zero_init, "zero-init", in, want)
    ZI("void f() { for (int i; i < 2; i++) ; for (float k = 0.0, j; k < 1.0; k++) ; }",
       "void f() { for (int i = int(0); i < 2; i++) ; for (float k = 0.0, j = float(0); k < 1.0; k++) ; }");
    ZI("#define DECL vec3 acc; \\\n  float b;\nvoid f() { DECL }",
       "#define DECL vec3 acc = vec3(0); \\\n  float b = float(0);\nvoid f() { DECL }");
    ZI("#define M void mainImage(out vec4 o, in vec2 f) {\nM o += vec4(1.0); }",
       "#define M void mainImage(out vec4 o, in vec2 f) { o = vec4(0);\nM o += vec4(1.0); }");
    ZI("#define H void h(out float x)\nH { x += 1.0; }",
       "#define H void h(out float x)\nH { x = float(0); x += 1.0; }");
    ZI("#define MEM float a;\nstruct S { MEM };\n#define U float u;\nuniform U",
       "#define MEM float a;\nstruct S { MEM };\n#define U float u;\nuniform U");
#undef ZI
}

/* ANGLE's default return (AddDefaultReturnStatements): `return <zero of the type>;` before the `}` of
 * each non-void function that has a return but whose body's last statement is not one, on the `}`'s own
 * line */
static void return_cases(void)
{
#define DR(in, want) rewrites(iks_default_returns, "default return", in, want)
    /* the two reproducers' shapes: a loop last, and an `if` that returns followed by a statement */
    DR("vec3 f(vec2 p) {\n  for (int i = 0; i < 4; i++) {\n    if (p.x > 1e9) return vec3(1.0);\n  }\n}",
       "vec3 f(vec2 p) {\n  for (int i = 0; i < 4; i++) {\n    if (p.x > 1e9) return vec3(1.0);\n  }\n return vec3(0); }");
    DR("float f(float x) { if (x > 1e9) return 1.0; x *= 3.0; }",
       "float f(float x) { if (x > 1e9) return 1.0; x *= 3.0;  return float(0); }");
    /* no return at all: ANGLE rejects it ("function does not return a value"), and so does Mesa: as
     * written, also where the only return is in a conditional group */
    DR("float f(float x) { x *= 3.0; }\nint h() {}\nfloat g(float x) {\n#ifdef A\n  return x;\n#endif\n  x += 1.0;\n}",
       "float f(float x) { x *= 3.0; }\nint h() {}\nfloat g(float x) {\n#ifdef A\n  return x;\n#endif\n  x += 1.0;\n}");
    /* a return last (empty statements after it do not count): as written; an if/else whose branches both
     * return, a block last: ANGLE adds its return all the same, never reached */
    DR("float f(float x) { if (x > 0.0) return 1.0; return 2.0; }\nfloat g() { return 1.0;; }",
       "float f(float x) { if (x > 0.0) return 1.0; return 2.0; }\nfloat g() { return 1.0;; }");
    DR("float f(float x) { if (x > 0.0) return 1.0; else return 2.0; }\nfloat g() { { return 1.0; } }",
       "float f(float x) { if (x > 0.0) return 1.0; else return 2.0;  return float(0); }\n"
       "float g() { { return 1.0; }  return float(0); }");
    /* prototypes are not definitions; void functions and mainImage have nothing to return; overloads are
     * each their own function */
    DR("float f(float x);\nvoid g() { return; }\nvoid mainImage(out vec4 o, in vec2 c) { o = vec4(f(c.x)); }\n"
       "float f(float x) { if (x > 0.0) return x; }",
       "float f(float x);\nvoid g() { return; }\nvoid mainImage(out vec4 o, in vec2 c) { o = vec4(f(c.x)); }\n"
       "float f(float x) { if (x > 0.0) return x;  return float(0); }");
    DR("float f(float x) { if (x > 0.0) return x; }\nvec2 f(vec2 x) { return x; }\nvec3 f(vec3 x) { if (x.x > 0.0) return x; }",
       "float f(float x) { if (x > 0.0) return x;  return float(0); }\nvec2 f(vec2 x) { return x; }\n"
       "vec3 f(vec3 x) { if (x.x > 0.0) return x;  return vec3(0); }");
    /* the zero of each kind of type: a struct's constructor, arrays of a literal and of a named size,
     * matrices, a precision, a type named by a macro */
    DR("struct S { float a; vec2 b[2]; };\nS f(S s) { if (s.a > 0.0) return s; }",
       "struct S { float a; vec2 b[2]; };\nS f(S s) { if (s.a > 0.0) return s;  return S(float(0), vec2[2](vec2(0), vec2(0))); }");
    DR("float[3] f(float[3] a) { if (a[0] > 0.0) return a; }\nconst int N = 2;\nivec2[N] g(ivec2[N] a) { if (a[0].x > 0) return a; }",
       "float[3] f(float[3] a) { if (a[0] > 0.0) return a;  return float[3](float(0), float(0), float(0)); }\nconst int N = 2;\n"
       "ivec2[N] g(ivec2[N] a) { if (a[0].x > 0) return a;  { ivec2[N] iks_r; for (int iks_z = 0; iks_z < iks_r.length(); "
       "iks_z++) iks_r[iks_z] = ivec2(0); return iks_r; } }");
    DR("#define V3 vec3\nV3 f(V3 v) { if (v.x > 0.0) return v; }\nhighp mat3 m(mat3 a) { if (a[0].x > 0.0) return a; }\n"
       "bool b(bool c) { if (c) return c; }",
       "#define V3 vec3\nV3 f(V3 v) { if (v.x > 0.0) return v;  return V3(0); }\n"
       "highp mat3 m(mat3 a) { if (a[0].x > 0.0) return a;  return mat3(0); }\nbool b(bool c) { if (c) return c;  return bool(0); }");
    /* a type the scan cannot zero (unknown, a struct with an array of no literal size): as written */
    DR("T f(T t) { if (t.x > 0.0) return t; }\nstruct Q { float v[N]; };\nQ q(Q a) { if (a.v[0] > 0.0) return a; }",
       "T f(T t) { if (t.x > 0.0) return t; }\nstruct Q { float v[N]; };\nQ q(Q a) { if (a.v[0] > 0.0) return a; }");
    /* macros: a whole function in a body (on continuation lines too), a header made by a macro (alone,
     * with its `{`, function-like), a name made by a macro; a type that is a macro's parameter is left */
    DR("#define F float f(float x) { \\\n  if (x > 0.0) return x; \\\n}\nvoid g() { }",
       "#define F float f(float x) { \\\n  if (x > 0.0) return x; \\\n return float(0); }\nvoid g() { }");
    DR("#define H float h(float x)\nH { if (x > 0.0) return x; }\n#define BEGIN vec2 g(vec2 v) {\nBEGIN if (v.x > 0.0) return v; }",
       "#define H float h(float x)\nH { if (x > 0.0) return x;  return float(0); }\n#define BEGIN vec2 g(vec2 v) {\n"
       "BEGIN if (v.x > 0.0) return v;  return vec2(0); }");
    DR("#define FN(n) float n(float x)\nFN(f) { if (x > 0.0) return x; }\n#define FT(T) T g(T x)\nFT(vec2) { if (x.x > 0.0) return x; }\n"
       "#define D(T) T d(T x) { if (x.x > 0.0) return x; }\n#define NAME fn\nfloat NAME(float x) { if (x > 0.0) return x; }",
       "#define FN(n) float n(float x)\nFN(f) { if (x > 0.0) return x;  return float(0); }\n#define FT(T) T g(T x)\n"
       "FT(vec2) { if (x.x > 0.0) return x; }\n#define D(T) T d(T x) { if (x.x > 0.0) return x; }\n#define NAME fn\n"
       "float NAME(float x) { if (x > 0.0) return x;  return float(0); }");
    /* a body that a macro closes (`END`): its end is not in the text, left; the next function is found.
     * A return through a macro counts as one, but is not seen as the last statement: the return added
     * there is never reached. */
    DR("#define END return c; }\nvec3 f(vec3 c) { c *= 2.0; END\nfloat g(float x) { if (x > 0.0) return x; }\n"
       "#define RET(x) return x\nfloat h() { RET(1.0); }",
       "#define END return c; }\nvec3 f(vec3 c) { c *= 2.0; END\nfloat g(float x) { if (x > 0.0) return x;  return float(0); }\n"
       "#define RET(x) return x\nfloat h() { RET(1.0);  return float(0); }");
    /* a brace in a comment on a #define's line is no brace of its body */
    DR("#define PI 3.14159 // {approximately}  {\nfloat f(float x) { if (x > PI) return x; }",
       "#define PI 3.14159 // {approximately}  {\nfloat f(float x) { if (x > PI) return x;  return float(0); }");
    /* preprocessor lines in a body: the preprocessor picks the last statement, so the return is added
     * (never reached where it keeps a return); groups whose braces do not balance leave the body as
     * written, since the `}` found would be another function's */
    DR("float f(float x) {\n  if (x > 0.0) return x;\n#if 0\n  return x;\n#endif\n}",
       "float f(float x) {\n  if (x > 0.0) return x;\n#if 0\n  return x;\n#endif\n return float(0); }");
    DR("float f(float x) {\n#ifdef AA\n  x *= 2.0;\n#else\n  x *= 3.0;\n#endif\n  if (x > 0.0) return x;\n}",
       "float f(float x) {\n#ifdef AA\n  x *= 2.0;\n#else\n  x *= 3.0;\n#endif\n  if (x > 0.0) return x;\n return float(0); }");
    DR("float f(float x) {\n#if A\n  if (x > 0.0) {\n#else\n  if (x < 0.0) {\n#endif\n    return 1.0;\n  }\n}\nvec3 g(vec3 v) { return v; }",
       "float f(float x) {\n#if A\n  if (x > 0.0) {\n#else\n  if (x < 0.0) {\n#endif\n    return 1.0;\n  }\n}\nvec3 g(vec3 v) { return v; }");
#undef DR
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

    clamp_cases();
    zero_cases();
    return_cases();
    fold_cases();

    iks_err_clear(&e);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
