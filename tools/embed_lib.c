/* embed_lib.c: the embedder of `ikshade bench embed`: a program linked with libikshade alone that
 * creates a headless engine, loads the same shader as embed_bare.c from memory and draws one 64x64
 * frame into memory. Prints what the baseline prints. */
#include "ikshade/ikshade.h"

#include <stdint.h>
#include <stdlib.h>

#include "embed_common.h"

int main(void)
{
    iks_engine *e = NULL;
    iks_toy *t = NULL;
    static uint8_t px[EMBED_SIDE * EMBED_SIDE * 4];
    if (iks_engine_create(&(iks_engine_desc)IKS_ENGINE_DESC_INIT, &e) != IKS_OK ||
        iks_toy_load(e, &(iks_toy_desc){ IKS_DESC_SIZE(iks_toy_desc), .source = EMBED_IMAGE, .width = EMBED_SIDE,
                                         .height = EMBED_SIDE }, &t) != IKS_OK ||
        iks_toy_draw(t, &(iks_frame_info){ 0 }, &(iks_draw_desc){ IKS_DESC_SIZE(iks_draw_desc), .width = EMBED_SIDE,
                                                                  .height = EMBED_SIDE, .rgba8 = px, .rgba8_len = sizeof px })
            != IKS_OK) {
        const char *m = "";
        iks_last_error(&m);
        fprintf(stderr, "embed-lib: %s\n", m);
        return 1;
    }
    unsigned long sum = 0;
    for (size_t i = 0; i < sizeof px; i++) sum += px[i];
    printf("sum %lu\n", sum);
    embed_list_libs();
    iks_toy_destroy(t);
    iks_engine_destroy(e);
    return 0;
}
