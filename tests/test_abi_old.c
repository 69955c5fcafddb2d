/* test_abi_old.c: a program built against the previous release's public header (tests/abi/, frozen from
 * the tree before iks_toy_desc gained its typed values), run against this library, as an embedding
 * program that was not rebuilt runs. Its descriptions are read as it laid them out: a toy loads and
 * draws with its settings, and an iks_live_desc, whose toy is now longer, has the members after the toy
 * read where that program put them (a record_fps out of range is refused by name, a good one passes). */
#include "check.h"
#include "ikshade/ikshade.h" /* tests/abi/ikshade/ikshade.h: the old header, first on the include path */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef IKS_TOY_DESC_HAS_VALUES
#error "built against the current header: tests/abi must come first on the include path"
#endif

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
    static const char *const sets[] = { "k=0.5" };
    iks_toy_desc td = IKS_TOY_DESC_INIT;
    td.source = "uniform float k;\nvoid mainImage(out vec4 c, in vec2 p) { c = vec4(k, 0.0, 1.0, 1.0); }\n";
    td.width = 4, td.height = 4, td.sets = sets, td.nsets = 1;
    iks_toy *t = NULL;
    CHECK(iks_toy_load(e, &td, &t) == IKS_OK, "the old layout's toy loads with its setting: %s", message());
    unsigned char px[4 * 4 * 4] = { 0 };
    iks_draw_desc dd = IKS_DRAW_DESC_INIT;
    dd.rgba8 = px, dd.rgba8_len = sizeof px;
    CHECK(t && iks_toy_draw(t, NULL, &dd) == IKS_OK, "it draws: %s", message());
    CHECK(abs(px[0] - 128) <= 1 && px[1] == 0 && px[2] == 255, "with k = 0.5: got %d %d %d", px[0], px[1], px[2]);
    iks_toy_destroy(t);

    /* iks_live_desc holds an iks_toy_desc: everything after it moved when the toy grew */
    iks_live_desc ld = IKS_LIVE_DESC_INIT;
    ld.toy = td;
    ld.time0 = 2.5;
    ld.record = "x.mp4";
    ld.record_fps = 5000;
    CHECK(iks_live_check(&ld) == IKS_E_USAGE && !strcmp(iks_last_error_field(NULL), "record_fps"),
          "record_fps 5000 after the old toy is read as record_fps: %s", message());
    ld.record_fps = 30;
    CHECK(iks_live_check(&ld) == IKS_OK, "and 30 passes: %s", message());
    ld.time0 = NAN;
    CHECK(iks_live_check(&ld) == IKS_E_USAGE && !strcmp(iks_last_error_field(NULL), "time0"),
          "time0 NaN after the old toy is read as time0: %s", message());
    /* the first sized layout (struct_size 0) too */
    iks_live_desc zero;
    memset(&zero, 0, sizeof zero);
    zero.toy = td;
    zero.record_fps = 5000;
    CHECK(iks_live_check(&zero) == IKS_E_USAGE && !strcmp(iks_last_error_field(NULL), "record_fps"),
          "struct_size 0: record_fps read where the old layout has it: %s", message());
    iks_engine_destroy(e);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
