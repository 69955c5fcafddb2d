/* fuzz_volume.c: src/media's volume (.bin) parser on arbitrary bytes, with no max side (as import asks)
 * and with a GL's: never a read past the end or an overflowed product; a volume it takes has exactly
 * its header's texels, and one it refuses names what was wrong. */
#include "media/volume.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* a copy of exactly size bytes, so that ASan sees any read past them */
    uint8_t *p = malloc(size ? size : 1);
    if (!p) return 0;
    memcpy(p, data, size);
    static const uint32_t MAX[2] = { 0, 64 };
    bool took[2];
    for (int i = 0; i < 2; i++) {
        iks_volume v;
        iks_err e = IKS_ERR_INIT;
        took[i] = iks_volume_parse(&v, p, size, MAX[i], "v.bin", &e);
        if (took[i]) {
            long double texels = (long double)v.x * v.y * v.z * v.channels * (v.format == 10 ? 4 : 1);
            if (v.fault != IKS_VOLUME_OK || e.code != IKS_OK || v.texels != p + IKS_VOLUME_HEADER ||
                v.texel_bytes != size - IKS_VOLUME_HEADER || texels != (long double)v.texel_bytes ||
                v.channels < 1 || v.channels > 4 || (v.format != 0 && v.format != 10) ||
                (MAX[i] && (v.x > MAX[i] || v.y > MAX[i] || v.z > MAX[i])))
                abort();
        } else if (v.fault == IKS_VOLUME_OK || e.code != IKS_E_FORMAT || strncmp(iks_err_msg(&e), "v.bin: ", 7)) {
            abort();
        }
        iks_err_clear(&e);
        iks_volume_free(&v);
    }
    /* a limit only takes away */
    if (took[1] && !took[0]) abort();
    free(p);
    return 0;
}
