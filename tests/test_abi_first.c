/* test_abi_first.c: a program built against 0.2.0's first header with the uniform list (tests/abi/0.2.0-first,
 * frozen from the tree before iks_uniform_info gained initial, color and declared, and before descriptions
 * had struct_size), run against this library as a program compiled with an old copy of the header and
 * linked against it runs. Such a program must be rebuilt (0.3.0 is libikshade.so.1), but nothing it
 * does may corrupt memory: its 88-byte iks_uniform_info gets no byte past it, and a description whose
 * first member is a pointer, read as struct_size, is refused without a byte read past the struct. */
#include "check.h"
#include "ikshade/ikshade.h" /* tests/abi/0.2.0-first/ikshade/ikshade.h, first on the include path */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef IKS_DESC_SIZE
#error "built against a header with struct_size: tests/abi/0.2.0-first must come first on the include path"
#endif
_Static_assert(sizeof(iks_uniform_info) == 88, "0.2.0's first iks_uniform_info is 88 bytes");

static const char *message(void)
{
    const char *m = "";
    iks_last_error(&m);
    return m ? m : "";
}

int main(void)
{
    iks_engine *e = NULL;
    CHECK(iks_engine_create(NULL, &e) == IKS_OK, "an engine with the defaults: %s", message());
    if (!e) return 1;
    /* all zero: path NULL, read as struct_size 0 (the first sized layout, a byte longer than this
     * struct, hence the room after it), and the rest zero: the IK limb demo */
    struct {
        iks_toy_desc d;
        char room[16];
    } zero;
    memset(&zero, 0, sizeof zero);
    iks_toy *t = NULL;
    CHECK(iks_toy_load(e, &zero.d, &t) == IKS_OK, "the demo loads from a zero description: %s", message());
    int n = iks_toy_uniform_count(t);
    CHECK(n > 0, "the demo has uniforms of its own: %d", n);
    for (int i = 0; i < n; i++) {
        iks_uniform_info *u = malloc(sizeof *u); /* exactly 88 bytes: AddressSanitizer sees one more */
        CHECK(u && iks_toy_uniform_info(t, i, u) == IKS_OK, "uniform %d into 88 bytes: %s", i, message());
        CHECK(u && u->name && u->name[0] && u->n >= 1 && u->n <= 4, "uniform %d has a name and 1-4 components", i);
        free(u);
    }
    iks_toy_destroy(t);

    /* a render description whose first member, output, is read as struct_size */
    iks_render_desc *rd = calloc(1, sizeof *rd);
    rd->output = "never.png";
    iks_render_stats *st = malloc(sizeof *st);
    memset(st, 0x55, sizeof *st);
    iks_toy *t2 = NULL;
    CHECK(iks_toy_load(e, &zero.d, &t2) == IKS_OK, "the demo again: %s", message());
    iks_code c = iks_render(t2, rd, st);
    CHECK(c == IKS_E_USAGE && !strcmp(iks_last_error_field(NULL), "struct_size") && strstr(message(), "rebuilding"),
          "a pointer where struct_size is: refused, saying to rebuild: %s", message());
    CHECK(st->written == 0x5555555555555555L, "and the stats, whose size it cannot know, untouched");
    FILE *f = fopen("never.png", "rb");
    CHECK(!f, "and no file");
    if (f) fclose(f);
    /* a toy description with a path: the same */
    iks_toy_desc *td = calloc(1, sizeof *td);
    td->path = "limb.frag";
    iks_toy *t3 = NULL;
    CHECK(iks_toy_load(e, td, &t3) == IKS_E_USAGE && !t3, "a toy description with a path: refused: %s", message());
    free(td);
    free(st);
    free(rd);
    iks_toy_destroy(t2);
    iks_engine_destroy(e);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
