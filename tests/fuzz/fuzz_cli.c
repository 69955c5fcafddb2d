/* fuzz_cli.c: the command-line parsers of render and view (one argument per input line). A parse
 * either accepts (-1) or answers with a usage (2) or run-time (1) error: nothing else, no crash.
 * Each rejected input prints its one line: run with -close_fd_mask=2 (scripts/fuzz.sh does), which
 * keeps libFuzzer's and the sanitizers' own reports. */
#include "cli/cli.h"
#include "fuzz.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;
    char *buf = fuzz_text(data, size);
    if (!buf) return 0;
    char *argv[34];
    int argc = 1;
    for (char *s = buf; s && argc < 33;) {
        char *e = strchr(s, '\n');
        if (e) *e = '\0';
        argv[argc++] = s;
        s = e ? e + 1 : NULL;
    }
    argv[argc] = NULL;
    argv[0] = "render";
    int r = iks_render_parse_only(argc, argv);
    if (r != -1 && r != 1 && r != 2) abort();
    argv[0] = "view";
    r = iks_view_parse_only(argc, argv);
    if (r != -1 && r != 1 && r != 2) abort();
    free(buf);
    return 0;
}
