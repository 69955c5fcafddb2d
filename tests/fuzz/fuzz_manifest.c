/* fuzz_manifest.c: a directory toy's manifest.txt on arbitrary text: it wires channels (every path it
 * hands out owned) or refuses with a code and a reason naming the manifest's line; never a crash or a
 * leak. Media checks look at the disk under a directory that does not exist, so nothing is found. */
#include "fuzz.h"
#include "toy/toyfile.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return 0;
    static const char *const pass[IKS_PASSES] = { "/nonexistent-fuzz/a.glsl", "/nonexistent-fuzz/b.glsl",
                                                  "/nonexistent-fuzz/c.glsl", "/nonexistent-fuzz/d.glsl",
                                                  "/nonexistent-fuzz/image.glsl", "/nonexistent-fuzz/cube_a.glsl" };
    /* every subset of buffer passes: a manifest may name a pass the directory lacks */
    for (unsigned mask = 0; mask < 64; mask += 63) {
        char *text = fuzz_text(data, size);
        if (!text) return 0;
        iks_toyfile tf;
        memset(&tf, 0, sizeof tf);
        for (int p = 0; p < IKS_PASSES; p++)
            if ((mask >> p) & 1 || p == IKS_IMAGE_PASS) tf.desc.pass[p].path = pass[p];
        iks_err e = IKS_ERR_INIT;
        bool ok = iks_toyfile_parse_manifest(&tf, "/nonexistent-fuzz", "/nonexistent-fuzz/manifest.txt", text,
                                             mask ? IKS_TF_MEDIA_OUTSIDE : 0, &e, NULL);
        if (ok && e.code != IKS_OK) abort();
        if (!ok && (e.code == IKS_OK || !e.msg || !strstr(e.msg, "manifest.txt"))) abort();
        for (int p = 0; ok && p < IKS_PASSES; p++)
            for (int c = 0; c < 4; c++) {
                const iks_input *in = &tf.desc.pass[p].in[c];
                if (in->path) (void)strlen(in->path);
                if (in->kind == IKS_IN_BUFFER && !tf.desc.pass[in->buffer].path) abort();
                if (in->kind == IKS_IN_CUBE_BUFFER && !tf.desc.pass[IKS_CUBE_PASS].path) abort();
            }
        iks_err_clear(&e);
        iks_toyfile_free(&tf);
        free(text);
    }
    return 0;
}
