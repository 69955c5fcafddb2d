/* fuzz_json.c: the shadertoy.com JSON loader on arbitrary text: it accepts (with an Image pass and
 * every string it hands out owned) or refuses with a code and a reason; never a crash or a leak. The
 * same for the list of media `ikshade import` fetches, whose paths must stay plain /media/ paths. */
#include "toy/toyfile.h"
#include "fuzz.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return 0;
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    iks_toyfile tf;
    for (int black = 0; black < 2; black++) {
        iks_err e = IKS_ERR_INIT;
        if (iks_toyfile_parse_json(&tf, "/tmp/fuzz.json", text, black, &e, NULL)) {
            if (e.code != IKS_OK) abort();
            if (!tf.desc.pass[IKS_IMAGE_PASS].path || !tf.desc.pass[IKS_IMAGE_PASS].text || !tf.name) abort();
            for (int p = 0; p < IKS_PASSES; p++) (void)strlen(tf.desc.pass[p].text ? tf.desc.pass[p].text : "");
            iks_toyfile_free(&tf);
        } else if (e.code == IKS_OK || !e.msg || !e.msg[0]) abort();
        iks_err_clear(&e);
    }
    /* the media list `ikshade import` fetches: every path one the site could serve and a file name
     * that stays in its directory */
    iks_media_list ml;
    iks_err e = IKS_ERR_INIT;
    if (iks_toyfile_json_media("/tmp/fuzz.json", text, &ml, &e)) {
        if (e.code != IKS_OK || ml.n < 0 || ml.skipped < 0) abort();
        for (int i = 0; i < ml.n; i++) {
            const char *p = ml.path[i];
            if (strncmp(p, "/media/", 7) || strstr(p, "/../") || strstr(p, "//") || strstr(p, "/./") ||
                p[strlen(p) - 1] == '/' || strchr(p, '\\'))
                abort();
        }
        iks_media_list_free(&ml);
    } else if (e.code == IKS_OK || !e.msg || !e.msg[0]) abort();
    iks_err_clear(&e);
    free(text);
    return 0;
}
