/* fuzz_probe.c: the reading of ffprobe's answer about a video (src/media/mediain.c) on arbitrary text:
 * a toy's file decides much of what ffprobe prints (tags, sizes, rates), so it is parsed as untrusted.
 * Never a read past the text; sides and counts never negative; rates and durations finite. */
#include "media/mediain.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    iks_video_probe p;
    iks_video_parse_probe(text, &p);
    if (p.w < 0 || p.h < 0 || p.frames < 0 || !isfinite(p.avg_fps) || p.avg_fps < 0 || !isfinite(p.r_fps) ||
        p.r_fps < 0 || !isfinite(p.duration) || p.duration < 0 || p.duration >= 1e9)
        abort();
    free(text);
    return 0;
}
