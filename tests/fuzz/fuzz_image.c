/* fuzz_image.c: src/media's PNG and JPEG decoder on arbitrary bytes, top row first and bottom row first,
 * with a small max side and pixel budget so that a header claiming a huge image is refused (as a GL's
 * limit refuses it) instead of costing gigabytes. Never a crash, a leak or a print; a failure is one
 * message with a decoder's code; a success is the same pixels both ways, rows reversed. */
#include "media/image.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    iks_image img[2];
    iks_err e[2] = { IKS_ERR_INIT, IKS_ERR_INIT };
    bool ok[2];
    for (int flip = 0; flip < 2; flip++) {
        iks_image_opts o = { .max_side = 1024, .max_bytes = (size_t)4 << 20, .vflip = flip };
        ok[flip] = iks_image_decode(&img[flip], data, size, "fuzz", &o, &e[flip]);
        if (ok[flip] ? !img[flip].px || img[flip].w < 1 || img[flip].h < 1 || img[flip].w > 1024 || img[flip].h > 1024 ||
                           e[flip].code != IKS_OK
                     : img[flip].px || strncmp(iks_err_msg(&e[flip]), "fuzz: ", 6) ||
                           (e[flip].code != IKS_E_FORMAT && e[flip].code != IKS_E_UNSUPPORTED && e[flip].code != IKS_E_NOMEM))
            abort();
    }
    /* the row order is the only thing vflip changes */
    if (ok[0] != ok[1]) abort();
    if (ok[0]) {
        if (img[0].w != img[1].w || img[0].h != img[1].h) abort();
        size_t row = (size_t)img[0].w * 4;
        for (int y = 0; y < img[0].h; y++)
            if (memcmp(img[0].px + (size_t)y * row, img[1].px + (size_t)(img[0].h - 1 - y) * row, row)) abort();
    } else if (strcmp(iks_err_msg(&e[0]), iks_err_msg(&e[1]))) abort();
    for (int flip = 0; flip < 2; flip++) {
        iks_image_free(&img[flip]);
        iks_err_clear(&e[flip]);
    }
    return 0;
}
