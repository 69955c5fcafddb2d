/* test_abi_sized.c: a program built against 0.2.0's first header with struct_size (tests/abi/0.2.0-sized,
 * frozen from the tree where descriptions gained it), run against this library. Its iks_toy_desc (144
 * bytes) and iks_render_desc (184) end in padding where later 0.2.0 headers of the same sizes put
 * cube_size and cube_strips: a program whose padding is not zero (an FFI binding's, or a struct filled
 * with memset before its members are set) is read as it laid the struct out, and the padding is not
 * read as those members. Its iks_uniform_info (128 bytes) is filled to 88 by the old call, and never
 * past: rebuilt against this header (0.3.0, libikshade.so.1), it is filled whole. */
#include "check.h"
#include "ikshade/ikshade.h" /* tests/abi/0.2.0-sized/ikshade/ikshade.h, first on the include path */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(IKS_DESC_SIZE) || defined(IKS_TOY_DESC_HAS_VALUES)
#error "tests/abi/0.2.0-sized must come first on the include path"
#endif
_Static_assert(sizeof(iks_toy_desc) == 144 && sizeof(iks_render_desc) == 184, "0.2.0's sized layouts");

static const char *message(void)
{
    const char *m = "";
    iks_last_error(&m);
    return m ? m : "";
}

int main(void)
{
    iks_engine *e = NULL;
    CHECK(iks_engine_create(&(iks_engine_desc)IKS_ENGINE_DESC_INIT, &e) == IKS_OK, "an engine: %s", message());
    if (!e) return 1;
    /* the description on the heap at its size, every byte 0xff before its members are set */
    iks_toy_desc *td = malloc(sizeof *td);
    memset(td, 0xff, sizeof *td);
    static const char *const sets[] = { "k=0.5" };
    const iks_toy_desc members = {
        IKS_DESC_SIZE(iks_toy_desc),
        .source = "#iUniform float k = 0.25 in { 0.0, 1.0 }\n"
                  "void mainImage(out vec4 c, in vec2 p) { c = vec4(k, 0.0, 1.0, 1.0); }\n",
        .width = 4, .height = 4, .sets = sets, .nsets = 1,
    };
    /* member by member, as a binding writes them, so the padding keeps its 0xff */
    td->struct_size = members.struct_size, td->path = NULL, td->source = members.source;
    for (int i = 0; i < 4; i++) td->channel[i] = NULL;
    td->sets = members.sets, td->nsets = 1, td->include_dirs = NULL, td->n_include_dirs = 0;
    td->glsl = 0, td->missing_media_black = false, td->override_include = false, td->override_path = NULL;
    td->width = 4, td->height = 4, td->allow_media_outside = false, td->es_check = false, td->json = NULL;
    td->sound_only = false;
    iks_toy *t = NULL;
    CHECK(iks_toy_load(e, td, &t) == IKS_OK, "the toy loads, its padding 0xff: %s", message());
    unsigned char px[4 * 4 * 4] = { 0 };
    iks_draw_desc dd = IKS_DRAW_DESC_INIT;
    dd.rgba8 = px, dd.rgba8_len = sizeof px;
    CHECK(t && iks_toy_draw(t, NULL, &dd) == IKS_OK, "it draws: %s", message());
    CHECK(px[0] >= 127 && px[0] <= 128 && px[2] == 255, "with its setting k = 0.5: %d %d", px[0], px[2]);

    /* the uniform list: the old call fills 88 bytes of this header's 128, never more */
    iks_uniform_info *u = malloc(sizeof *u);
    memset(u, 0x55, sizeof *u);
    CHECK(t && iks_toy_uniform_info(t, 0, u) == IKS_OK, "the uniform's info: %s", message());
    CHECK(!strcmp(u->name, "k") && u->value[0] == 0.5 && u->has_range && u->max == 1.0,
          "its name, value and range: %s %g", u->name, u->value[0]);
    const unsigned char *tail = (const unsigned char *)u + 88;
    int touched = 0;
    for (size_t i = 0; i < sizeof *u - 88; i++) touched += tail[i] != 0x55;
    CHECK(touched == 0, "no byte past the first layout's 88 written: %d", touched);
    free(u);

    /* a render whose padding is 0xff, one frame to a PNG */
    iks_render_desc *rd = malloc(sizeof *rd);
    memset(rd, 0xff, sizeof *rd);
    iks_render_desc r = IKS_RENDER_DESC_INIT;
    r.output = "abi_sized.png", r.width = 4, r.height = 4, r.end = 1;
    memcpy(rd, &r, offsetof(iks_render_desc, quality) + sizeof r.quality); /* the members, not the padding */
    iks_render_stats st;
    memset(&st, 0, sizeof st);
    CHECK(t && iks_render(t, rd, &st) == IKS_OK, "a render, its padding 0xff: %s", message());
    CHECK(st.written == 1 && st.width == 4, "one 4x4 frame written: %ld %d", st.written, st.width);
    FILE *f = fopen("abi_sized.png", "rb");
    unsigned char sig[8] = { 0 };
    CHECK(f && fread(sig, 1, 8, f) == 8 && !memcmp(sig, "\x89PNG\r\n\x1a\n", 8), "the PNG is there");
    if (f) fclose(f);
    remove("abi_sized.png");
    free(rd);
    free(td);
    iks_toy_destroy(t);
    iks_engine_destroy(e);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
