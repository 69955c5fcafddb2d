/* fuzz_inputlog.c: a recorded session (view --record-input) on arbitrary text: parsed, or refused with
 * IKS_E_FORMAT and a message naming the line; a parsed log replays any frame at any size without a
 * crash or a non-finite iMouse, keys stay key codes, and a recorded live channel's file is a plain name. */
#include "engine/engine.h"
#include "fuzz.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return 0;
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    iks_input_log *l = NULL;
    if (iks_input_log_parse("fuzz.txt", text, &l) == IKS_OK) {
        const char *const *sets;
        int n = iks_input_log_sets(l, &sets);
        for (int i = 0; i < n; i++) (void)strlen(sets[i]);
        /* a recorded live channel: a plain name beside the log, a start that is a time */
        for (int slot = 0; slot < 6; slot++)
            for (int c = 0; c < 4; c++) {
                const char *file;
                double t0;
                if (!iks_input_log_live(l, slot, c, &file, &t0)) continue;
                if (!(t0 >= 0 && t0 <= 1e9) || !file || strchr(file, '/') || !*file) abort();
            }
        double dur = iks_input_log_duration(l);
        if (!(dur >= 0) || !isfinite(dur)) abort();
        static const double fps[] = { 1, 30, 60, 1000 };
        for (int k = 0; k < 4; k++)
            for (long i = 0; i < 64; i++) {
                iks_frame_info fi = { 0 };
                iks_input_log_frame(l, fps[k], i, 1 + (int)i * 7, 1 + (int)i * 3, &fi);
                for (int c = 0; c < 4; c++)
                    if (!isfinite(fi.mouse[c])) abort();
                int code;
                bool down;
                long from = 0;
                while ((from = iks_input_log_keys(l, fps[k], i, from, &code, &down)) >= 0)
                    if (code < 0 || code > 255) abort();
            }
        iks_input_log_free(l);
    } else {
        const char *m;
        if (iks_last_error(&m) == IKS_OK || !m || !strstr(m, "fuzz.txt")) abort();
    }
    free(text);
    return 0;
}
