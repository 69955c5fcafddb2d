/* test_ppsize.c: the measure of a text's size with its macros expanded (src/gpu/ppsize.c), which
 * keeps macro bombs and monstrous expressions away from the GL compiler: exact on the cases a
 * preprocessor defines, linear in time on bombs, and over the limit for every way of doubling. */
#include "check.h"
#include "ppsize.h"

#include <stdlib.h>
#include <string.h>

static double tokens(const char *t) { return iks_pp_tokens(t, 1e9); }

#define EXACT(text, want) CHECK(tokens(text) == (want), "%s: %.17g tokens, want %d", #text, tokens(text), want)

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

int main(void)
{
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
    EXACT("#define A 1 2\n#undef A\nA", 1);
    EXACT("#define A 1 2\n#define A 3\nA", 1);
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
    /* F(F(F(...))) nested 40 deep where F doubles its argument */
    char nest[512] = "#define D(x) (x+x)\n";
    for (int i = 0; i < 40; i++) strcat(nest, "D(");
    strcat(nest, "1");
    for (int i = 0; i < 40; i++) strcat(nest, ")");
    CHECK(tokens(nest) > 1e12, "nested doubling calls: %.3g tokens", tokens(nest));
    /* over the limit before macros: the count is the text's own */
    CHECK(iks_pp_tokens("a b c d e", 3) > 3, "a text over the limit: %.17g", iks_pp_tokens("a b c d e", 3));
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
