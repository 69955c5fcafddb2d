/* test_ppsize.c: the measure of a text's size with its macros expanded (src/glsl/ppsize.c), which
 * keeps macro bombs and monstrous expressions away from the GL compiler: exact on the cases a
 * preprocessor defines, linear in time on bombs, and over the limit for every way of doubling. */
#include "check.h"
#include "glsl/ppsize.h"

#include <stdlib.h>
#include <string.h>

static double tokens(const char *t) { return iks_pp_tokens(t, 1e9); }

#define EXACT(text, want) CHECK(tokens(text) == (want), "%s: %.17g tokens, want %d", #text, tokens(text), want)
#define EXACT_S(text, want) CHECK(tokens(text) == (want), "%s: %.17g tokens, want %d", text, tokens(text), want)

/* n macros, each twice the one before, through the given shape */
static char *doubling(int n, const char *fmt, const char *use)
{
    size_t cap = (size_t)n * 64 + 256;
    char *s = malloc(cap);
    size_t k = (size_t)snprintf(s, cap, "#define A0 1.0\n#define F0(x) x\n");
    for (int i = 1; i <= n; i++) k += (size_t)snprintf(s + k, cap - k, fmt, i, i - 1, i - 1);
    snprintf(s + k, cap - k, use, n);
    return s;
}

int main(int argc, char **argv)
{
    /* --count: the count of the text on stdin, for tests/ppsize_cpp.py */
    if (argc > 1 && strcmp(argv[1], "--count") == 0) {
        size_t cap = 1 << 20, n = 0, r;
        char *t = malloc(cap);
        while (t && (r = fread(t + n, 1, cap - 1 - n, stdin)) > 0) {
            n += r;
            if (n == cap - 1 && !(t = realloc(t, cap *= 2))) break;
        }
        if (!t) return 1;
        t[n] = '\0';
        printf("%.17g\n", iks_pp_tokens(t, 1e9));
        free(t);
        return 0;
    }
    EXACT("a b c", 3);
    EXACT("", 0);
    EXACT("float x = 1.0e-3;", 5);
    EXACT("#define A x y\nA A", 4);
    EXACT("#define F(a) a a a\nF(x y)", 6);
    EXACT("#define F(a, b) a b\nF((1,2),3)", 6); /* the inner comma belongs to the parentheses */
    EXACT("#define F(a) a\nF()", 0);
    EXACT("#define F(x) x\nF + 1", 3); /* a function-like name without ( is not a call */
    EXACT("#define F (x) x\nF", 4);    /* a space before ( makes an object-like macro */
    EXACT("#define A B\n#define B A\nA", 1); /* a macro does not expand inside itself */
    /* an #undef or a redefinition may stand in a group the preprocessor skips: the larger counts */
    EXACT("#define A 1 2\n#undef A\nA", 2);
    EXACT("#define A 1 2\n#define A 3\nA", 2);
    EXACT("#define A 3\n#define A 1 2\nA", 2);
    EXACT("#define A 1 \\\n 2\nA // a comment\n/* x\n y */ A", 4);
    EXACT("#define G(a, b) a b b\n#define F(x) G(x, x x)\nF(1 2)", 10);
    EXACT("#if 0\nx\n#endif\ny", 2); /* directives are not tokens of the text (both branches count) */

    /* doubling, object-like (with and without parentheses) and function-like: far over any limit,
     * measured without being expanded */
    const char *shape[][2] = {
        { "#define A%d A%d+A%d\n", "float a = A%d;\n" },
        { "#define A%d (A%d+A%d)\n", "float a = A%d;\n" },
        { "#define F%d(x) F%d(x)+F%d(x)\n", "float a = F%d(1.0);\n" },
    };
    for (int k = 0; k < 3; k++) {
        char *s = doubling(60, shape[k][0], shape[k][1]);
        double n = iks_pp_tokens(s, 1e6); /* expanding 2^60 terms would never return */
        CHECK(n > 1e17, "shape %d: 60 doublings measured as %.3g tokens", k, n);
        free(s);
        s = doubling(10, shape[k][0], shape[k][1]);
        n = tokens(s);
        CHECK(n >= 2047 && n <= 2 * 2047 + 8, "shape %d: 10 doublings measured as %.17g tokens (2^11-1 terms)", k, n);
        free(s);
    }
    /* ways around a simple measure (a review found each): a function-like macro reached through an
     * object-like name, or passed as an argument and called in the body; lines ended by a lone CR; a
     * bomb hidden by a redefinition in a skipped group; a splice inside a macro's name; a measure
     * taken while another macro was busy reused where it is not */
    char big[4096];
    size_t k = (size_t)snprintf(big, sizeof big, "#define D(x) (x+x)\n");
    for (int i = 0; i < 40; i++) k += (size_t)snprintf(big + k, sizeof big - k, "#define I%d D\n", i);
    for (int i = 0; i < 40; i++) k += (size_t)snprintf(big + k, sizeof big - k, "I%d(", i);
    k += (size_t)snprintf(big + k, sizeof big - k, "1");
    for (int i = 0; i < 40; i++) k += (size_t)snprintf(big + k, sizeof big - k, ")");
    CHECK(tokens(big) > 1e12, "doubling through object-like names: %.3g tokens", tokens(big));
    k = (size_t)snprintf(big, sizeof big, "#define D(x) (x+x)\n#define A(f, x) f(f(x))\n");
    for (int i = 0; i < 30; i++) k += (size_t)snprintf(big + k, sizeof big - k, "A(D, ");
    k += (size_t)snprintf(big + k, sizeof big - k, "1");
    for (int i = 0; i < 30; i++) k += (size_t)snprintf(big + k, sizeof big - k, ")");
    CHECK(tokens(big) > 1e12, "a macro passed as an argument and called: %.3g tokens", tokens(big));
    char *cr = doubling(40, "#define A%d A%d+A%d\r", "float a = A%d;\r");
    CHECK(tokens(cr) > 1e12, "lines ended by a lone CR: %.3g tokens", tokens(cr));
    free(cr);
    char *dead = doubling(40, "#define A%d A%d+A%d\n", "#if 0\n#undef A%1$d\n#define A%1$d 1.0\n#endif\nfloat a = A%1$d;\n");
    CHECK(tokens(dead) > 1e12, "a redefinition in a skipped group: %.3g tokens", tokens(dead));
    free(dead);
    k = (size_t)snprintf(big, sizeof big, "#define D0(x) x\n");
    for (int i = 1; i <= 40; i++) k += (size_t)snprintf(big + k, sizeof big - k, "#define D%d\\\n(x) D%d(x)+D%d(x)\n", i, i - 1, i - 1);
    snprintf(big + k, sizeof big - k, "D40(1)\n");
    CHECK(tokens(big) > 1e12, "a splice between a macro's name and its parameters: %.3g tokens", tokens(big));
    k = (size_t)snprintf(big, sizeof big, "#define A");
    for (int i = 0; i < 200; i++) k += (size_t)snprintf(big + k, sizeof big - k, " B");
    k += (size_t)snprintf(big + k, sizeof big - k, "\n#define B A\n#define C0 B\n");
    for (int i = 1; i <= 30; i++) k += (size_t)snprintf(big + k, sizeof big - k, "#define C%d C%d C%d\n", i, i - 1, i - 1);
    snprintf(big + k, sizeof big - k, "A C30\n");
    CHECK(tokens(big) > 1e10, "B measured inside A, then used outside it: %.3g tokens", tokens(big));
    /* unclosed calls, rescanned: stopped by the step budget (as over the limit), not quadratic for ever */
    size_t n = 600000;
    char *open = malloc(n * 2 + 64);
    size_t o = (size_t)sprintf(open, "#define F(x) x\n");
    for (size_t i = 0; i < n / 2; i++) o += (size_t)sprintf(open + o, "F( ");
    CHECK(iks_pp_tokens(open, 1e6) > 1e6, "300000 unclosed calls: %.3g", iks_pp_tokens(open, 1e6));
    free(open);

    /* F(F(F(...))) nested 40 deep where F doubles its argument */
    char nest[512] = "#define D(x) (x+x)\n";
    for (int i = 0; i < 40; i++) strcat(nest, "D(");
    strcat(nest, "1");
    for (int i = 0; i < 40; i++) strcat(nest, ")");
    CHECK(tokens(nest) > 1e12, "nested doubling calls: %.3g tokens", tokens(nest));
    /* a chain of doublings measured inside a macro that its last link names (a fuzzed input): F1 is
     * one token while it expands, so each link depends on that expansion and was measured again for
     * each use, 2^40 times; now once per link, and exact: F2(1) is `F1 ( 1 ) + F1 ( 1 )`, 9 tokens, and
     * each link doubles the one below and adds its + */
    char busy[2048] = "";
    for (int i = 2; i <= 40; i++)
        sprintf(busy + strlen(busy), "#define F%d(x) F%d(x)+F%d(x)\n", i, i - 1, i - 1);
    strcat(busy, "#define F1 F40(1)\nF1 F1");
    double want = 2 * (10 * 274877906944.0 - 1); /* 2 * (10 * 2^38 - 1) */
    CHECK(tokens(busy) == want, "doublings inside the macro they name: %.17g tokens, want %.17g", tokens(busy), want);
    /* calls a macro opens and the text after it closes: the arguments are partly outside the body,
     * which the measure cannot see (24 levels crashed the renderer); counted by expanding */
    char open_calls[512] = "#define H(a) a a\n#define D ";
    for (int i = 0; i < 10; i++) strcat(open_calls, "H(");
    strcat(open_calls, "x\nD");
    for (int i = 0; i < 10; i++) strcat(open_calls, ")");
    iks_err why = IKS_ERR_INIT;
    double n_open = iks_pp_measure(open_calls, 1e9, &why);
    CHECK(n_open > 1e9 && why.code == IKS_E_FORMAT && strcmp(iks_err_msg(&why), "#define D opens a call that the text after it closes") == 0,
          "10 calls opened by a macro, closed after it: refused, not %.3g tokens ('%s')", n_open, iks_err_msg(&why));
    iks_err_clear(&why);
    open_calls[strlen(open_calls) - 10] = '\0'; /* never closed: the names and what follows stay */
    CHECK(tokens(open_calls) >= 21, "10 calls never closed: %.17g tokens", tokens(open_calls));
    /* an argument the body drops is expanded all the same (Mesa does: 6 GB at 24 levels) */
    char *dropped = doubling(10, "#define A%d A%d+A%d\n", "#define E(x) 1.0\nfloat a = E(A%d);\n");
    EXACT_S(dropped, 5 + 2047); /* float a = 1.0 ; and the argument once */
    free(dropped);
    EXACT("#define A 1 2\n#undef A\n#define B(x) x x\nB(A)", 2 * 2); /* the last A is the larger */
    /* the other constructs refused, each of which a definition in a skipped #if group turned into a bomb
     * that both counts measured low (the reviewer's cases) */
    static const char *const refused[][2] = {
        { "#define H(a) a a\n#define ID(x) x\nID(H)(1)", "#define ID ends in a function-like macro's name" },
        { "#define H(a) a a\n#define K ID(H)\n#define ID(x) x\nK(1)", "#define ID ends in a function-like macro's name" },
        { "#define F(a) a a\n#if 0\n#define F 1\n#endif\nF(F(x))", "#define F is defined both with and without parameters" },
        { "#define CAT(a, b) a##b\n#define A1 x\nCAT(A, 1)", "#define CAT pastes tokens (##)" },
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        double got = iks_pp_measure(refused[k][0], 1e9, &why);
        CHECK(got > 1e9 && strncmp(iks_err_msg(&why), refused[k][1], strlen(refused[k][1])) == 0,
              "%s: refused, not %.3g tokens ('%s')", refused[k][0], got, iks_err_msg(&why));
        iks_err_clear(&why);
    }
    /* and what is not refused: a tail parameter given an expression, a tail name not called, ## nowhere */
    double ok1 = iks_pp_measure("#define sq(x) x*x\n#define H(a) a\nsq(2)+sq(H(3))(1)", 1e9, &why);
    CHECK(why.code == IKS_OK && ok1 == 10, "ordinary macros are measured, not refused: %.17g tokens, '%s'", ok1,
          iks_err_msg(&why));
    /* over the limit before macros: the count is the text's own */
    CHECK(iks_pp_tokens("a b c d e", 3) > 3, "a text over the limit: %.17g", iks_pp_tokens("a b c d e", 3));
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
