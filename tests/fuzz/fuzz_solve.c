/* fuzz_solve.c: the `solve` line parser, and the property it feeds: every accepted line gives a
 * finite joint, in 2D and 3D, with and without soft IK. */
#include "cli/cli.h"
#include "fuzz.h"
#include "ikshade/ik.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;
    for (int three = 0; three < 2; three++) {
        char *line = fuzz_text(data, size);
        if (!line) return 0;
        float f[9];
        int n;
        char err[256];
        int r = iks_solve_parse_line(line, three, f, &n, err, sizeof err);
        if (r < 0 && !err[0]) abort();
        if (r > 0) {
            ik_opts o = { .bend = n > (three ? 8 : 4) ? f[three ? 8 : 4] : 1.0f, .soften = (size & 1) ? 0.2f : 0 };
            if (three) {
                ik_vec3 x;
                ik_solve3((ik_vec3){ f[0], f[1], f[2] }, f[3], f[4], (ik_vec3){ f[5], f[6], f[7] }, &o, &x, NULL);
                if (!isfinite(x.x) || !isfinite(x.y) || !isfinite(x.z)) abort();
            } else {
                ik_vec2 x;
                ik_solve2((ik_vec2){ f[0], f[1] }, f[2], f[3], &o, &x, NULL);
                if (!isfinite(x.x) || !isfinite(x.y)) abort();
            }
        }
        free(line);
    }
    return 0;
}
