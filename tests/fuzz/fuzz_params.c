/* fuzz_params.c: the #iUniform line parser on arbitrary lines: a line it takes gives a declaration the
 * compiler can read and a parameter whose fields hold what params.h promises. */
#include "glsl/params.h"
#include "fuzz.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;
    iks_param p;
    char decl[160], why[160];
    /* not NUL-terminated on purpose: the parser must keep to the n bytes it is given */
    char *line = malloc(size ? size : 1);
    if (!line) return 0;
    memcpy(line, data, size);
    bool is = iks_param_is_line(line, size);
    if (iks_param_parse(line, size, &p, decl, sizeof decl, why, sizeof why)) {
        if (!is || strncmp(decl, "uniform ", 8) != 0 || p.n < 1 || p.n > 4 || !p.name[0]) abort();
        if (p.has_range && !(p.min < p.max)) abort();
        if (p.step < 0 || (p.base == IKS_U_INT && p.step < 1)) abort();
        for (int c = 0; c < 4; c++)
            if (!isfinite(p.def[c])) abort();
        /* what it takes, --set would take too: nothing past the type waits for the GL side to refuse */
        for (int c = 0; c < p.n; c++)
            if (iks_ubase_refuses(p.base, p.def[c])) abort();
        if (p.has_range && (iks_ubase_refuses(p.base, p.min) || iks_ubase_refuses(p.base, p.max))) abort();
        if (p.step > 0 && iks_ubase_refuses(p.base, p.step)) abort();
    } else if (!why[0]) {
        abort(); /* a refusal always says why */
    }
    free(line);
    return 0;
}
