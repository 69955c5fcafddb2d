/* fuzz_pngcheck.c: render --resume's PNG check on arbitrary bytes, asked for the size, depth and
 * channels the file's own IHDR claims (so that well-formed inputs go deep): never a read past the end
 * or a crash, and a file it calls complete is one stb_image decodes at that size. */
#include "io/pngio.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* stb_image as the independent reference decoder (the texture loader no longer holds it) */
#include "stb_image_ref.h"

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;
    uint8_t *p = malloc(size ? size : 1);
    if (!p) return 0;
    memcpy(p, data, size);
    int w = 4, h = 4, bits = 8;
    bool alpha = false;
    if (size >= 26) {
        uint32_t cw = be32(p + 16), ch = be32(p + 20);
        /* bounded, so that an input cannot ask for gigabytes of pixels */
        if (cw >= 1 && ch >= 1 && cw <= 4096 && ch <= 4096 && (uint64_t)cw * ch <= (1u << 20)) w = (int)cw, h = (int)ch;
        bits = p[24] == 16 ? 16 : 8;
        alpha = p[25] == 6;
    }
    if (iks_png_check(p, size, w, h, bits, alpha)) {
        int dw, dh, n;
        unsigned char *px = stbi_load_from_memory(p, (int)size, &dw, &dh, &n, 0);
        if (!px || dw != w || dh != h || n != (alpha ? 4 : 3)) abort();
        stbi_image_free(px);
    }
    free(p);
    return 0;
}
