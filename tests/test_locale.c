/* test_locale.c LOCALE [VIDEO]: the library in a host that called setlocale(LC_ALL, LOCALE), a
 * decimal-comma locale (tests/test_locale.sh makes one): everything it reads and writes as numbers means
 * what it means in the C locale. Each case is drawn first in "C" and again after the host's setlocale,
 * and must be byte for byte the same: the limb demo (#iUniform lines) with a setting, a constant the
 * library folds into the GLSL it generates (sin(1.0) written back as text), the description of a toy's
 * parameters, a video channel (ffprobe's numbers read, the seek time written), an input log read back.
 * The host's locale is as it set it afterwards, and messages write numbers with a point. */
#include "check.h"
#include "ikshade/ikshade.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 48, H = 27, NCASES = 4 };

static const char *last_message(void)
{
    const char *m = "";
    iks_last_error(&m);
    return m ? m : "";
}

/* case k drawn into px (W x H RGBA8): 0 the limb demo with a setting, 1 a folded constant, 2 a video
 * channel (when video is given), 3 a toy whose #iUniform defaults have fractions */
static bool draw_case(iks_engine *e, int k, const char *video, unsigned char *px)
{
    static const char *const folded = "const float K = sin(1e0); /* no point to read: only the folded value's text can go wrong */\n"
                                      "void mainImage(out vec4 c, in vec2 p) { c = vec4(K, K * 0.5, fract(K * 10.0), 1.0); }\n";
    static const char *const params = "#iUniform float a = 0.25 in { 0.0, 1.0 }\n"
                                      "#iUniform vec3 col = vec3(0.5, 0.125, 0.75)\n"
                                      "void mainImage(out vec4 c, in vec2 p) { c = vec4(col * a * 4.0, 1.0); }\n";
    static const char *const sets[] = { "r1=0.65", "soften=0.125" };
    iks_toy_desc d = IKS_TOY_DESC_INIT;
    d.width = W, d.height = H;
    if (k == 0) d.sets = sets, d.nsets = 2; /* path NULL: the limb demo */
    if (k == 1) d.source = folded, d.path = "folded.frag", d.glsl = IKS_GLSL_ES; /* the site's semantics: folded */
    if (k == 2) d.source = "void mainImage(out vec4 c, in vec2 p) { c = texture(iChannel0, p / iResolution.xy); }\n",
        d.channel[0] = video;
    if (k == 3) d.source = params, d.path = "params.frag";
    iks_toy *t = NULL;
    if (iks_toy_load(e, &d, &t) != IKS_OK) {
        printf("case %d: load: %s\n", k, last_message());
        return false;
    }
    iks_draw_desc dd = IKS_DRAW_DESC_INIT;
    dd.rgba8 = px, dd.rgba8_len = W * H * 4;
    iks_frame_info fi = { .time = 1.25, .frame = 75, .time_delta = 1.0 / 60, .frame_rate = 60, .mouse = { 30.5, 12.25, 30.5, 12.25 } };
    bool ok = iks_toy_draw(t, &fi, &dd) == IKS_OK;
    if (!ok) printf("case %d: draw: %s\n", k, last_message());
    iks_toy_destroy(t);
    return ok;
}

/* the limb demo's parameters as iks_toy_describe reads them: every default and range */
static void describe(char *out, size_t cap)
{
    iks_toy_spec *s = NULL;
    out[0] = '\0';
    if (iks_toy_describe(&(iks_toy_desc){ IKS_DESC_SIZE(iks_toy_desc) }, &s) != IKS_OK) return;
    size_t k = 0;
    for (int i = 0; i < iks_toy_spec_uniform_count(s) && k < cap; i++) {
        iks_declared_uniform u = { IKS_DESC_SIZE(iks_declared_uniform) };
        if (iks_toy_spec_uniform(s, i, &u) != IKS_OK) continue;
        /* the doubles' bits, so the comparison cannot depend on this program's printf */
        unsigned long long b[4];
        memcpy(&b[0], &u.initial[0], 8), memcpy(&b[1], &u.min, 8), memcpy(&b[2], &u.max, 8), memcpy(&b[3], &u.step, 8);
        k += (size_t)snprintf(out + k, cap - k, "%s %llx %llx %llx %llx;", u.name, b[0], b[1], b[2], b[3]);
    }
    iks_toy_spec_free(s);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_locale LOCALE [VIDEO]\n");
        return 2;
    }
    const char *video = argc > 2 ? argv[2] : NULL;
    iks_engine *e = NULL;
    if (iks_engine_create(NULL, &e) != IKS_OK) {
        printf("FAIL: no engine: %s\n", last_message());
        return 1;
    }
    static unsigned char ref[NCASES][W * H * 4], got[NCASES][W * H * 4];
    bool have[NCASES];
    for (int k = 0; k < NCASES; k++) have[k] = (k != 2 || video) && draw_case(e, k, video, ref[k]);
    char dref[2048], dgot[2048];
    describe(dref, sizeof dref);

    /* the host: a decimal-comma locale for the whole process, as GTK, Qt and Python's locale module do */
    const char *set = setlocale(LC_ALL, argv[1]);
    char probe[32];
    snprintf(probe, sizeof probe, "%g", 0.5);
    CHECK(set && !strcmp(probe, "0,5"), "the host's locale %s writes 0.5 as '%s' (setlocale gave %s): the test would mean "
          "nothing", argv[1], probe, set ? set : "NULL");

    for (int k = 0; k < NCASES; k++) {
        if (k == 2 && !video) continue;
        CHECK(have[k], "case %d drew in the C locale", k);
        bool drew = draw_case(e, k, video, got[k]);
        CHECK(drew, "case %d draws in %s", k, argv[1]);
        int differ = 0;
        for (int i = 0; drew && have[k] && i < W * H * 4; i++) differ += ref[k][i] != got[k][i];
        CHECK(drew && have[k] && differ == 0, "case %d: %d of %d bytes differ from the C locale's", k, differ, W * H * 4);
    }
    describe(dgot, sizeof dgot);
    CHECK(dref[0] && !strcmp(dref, dgot), "the limb demo's parameters described alike:\n  C:    %s\n  host: %s", dref, dgot);

    /* numbers in messages: a point, whatever the host's locale */
    iks_render_desc r = IKS_RENDER_DESC_INIT;
    r.output = "x.png", r.fps = 20000.5;
    CHECK(iks_render_check(&r) == IKS_E_USAGE && strstr(last_message(), "20000.5") && !strstr(last_message(), "20000,5"),
          "a message's number is written with a point: %s", last_message());
    CHECK(iks_check_setting("k=0.5") == IKS_OK, "a setting of 0.5 reads: %s", last_message());

    /* the host's locale is as it left it */
    char wanted[128];
    snprintf(wanted, sizeof wanted, "%s", set ? set : "");
    const char *now = setlocale(LC_NUMERIC, NULL);
    CHECK(now && !strcmp(now, wanted) && !strcmp(localeconv()->decimal_point, ","),
          "the host's LC_NUMERIC is still %s with a comma (now %s, '%s')", wanted, now ? now : "NULL",
          localeconv()->decimal_point);
    iks_engine_destroy(e);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
