/* fuzz_output.c: render's output name (-o) on arbitrary text: classified or refused with a message;
 * a name that is accepted formats every frame number, 64-bit ones included, into a name that fits or
 * is refused, and two frames of a pattern never share a file (no silent overwrite). */
#include "fuzz.h"
#include "engine/writer.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 8192) return 0;
    char *out = fuzz_text(data, size);
    if (!out) return 0;
    static const long frames[] = { 0, 1, 9, 10, 99999, 2147483647L, 2147483648L, 4294967296L, LONG_MAX };
    for (long n = 1; n <= 2; n++) {
        const iks_format *fmt;
        bool pattern;
        iks_err e = IKS_ERR_INIT;
        if (!iks_output_classify(out, n, n == 2, &fmt, &pattern, &e)) {
            /* refused, about the output, in words */
            if (e.code != IKS_E_USAGE || !e.msg || !e.msg[0] || strcmp(e.field, "output") != 0) abort();
            iks_err_clear(&e);
            continue;
        }
        if (!fmt) abort();
        if (n > 1 && fmt->sink == IKS_SINK_FILES && !pattern) abort(); /* many frames need a number */
        if (pattern && fmt->sink != IKS_SINK_FILES) abort();               /* one file takes no number */
        char a[512], b[512];
        for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
            bool fa = iks_output_path(out, pattern, frames[i], a, sizeof a);
            if (fa && strlen(a) >= sizeof a) abort();
            for (size_t j = 0; fa && pattern && j < i; j++)
                if (iks_output_path(out, pattern, frames[j], b, sizeof b) && !strcmp(a, b)) abort();
        }
    }
    free(out);
    return 0;
}
