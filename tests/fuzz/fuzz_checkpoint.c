/* fuzz_checkpoint.c: a checkpoint's header (render --checkpoint reads files a user names) on arbitrary
 * bytes: parsed or refused with IKS_E_FORMAT and a message naming the file, never read past its end;
 * an accepted header has the sizes and frame a checkpoint can have. */
#include "engine/checkpoint.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* an exact-size copy: ASan sees any read past the end */
    uint8_t *p = malloc(size ? size : 1);
    if (!p) return 0;
    memcpy(p, data, size);
    iks_ckpt_header h;
    iks_err e = IKS_ERR_INIT;
    if (!iks_ckpt_parse("f.iksc", p, size, &h, &e)) {
        if (e.code != IKS_E_FORMAT || !e.msg || strncmp(e.msg, "f.iksc: ", 8) != 0 || strchr(e.msg, '\n')) abort();
        iks_err_clear(&e);
    } else if (size < IKS_CKPT_HEADER_BYTES || h.version != IKS_CKPT_VERSION || h.width < 1 || h.height < 1 ||
               h.frame < 1 || h.next_key < 0 || strlen(h.renderer) > 128) {
        abort();
    }
    free(p);
    return 0;
}
