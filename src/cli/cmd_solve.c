/* cmd_solve.c: `ikshade solve`, the solver as a filter: cases on stdin, answers on stdout.
 * Output numbers use %.9g so that every float round-trips exactly. */
#include "cli.h"
#include "ik.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char HELP_SOLVE[] =
    "usage: ikshade solve [--3d] [--stretch] [--soften S] < cases\n"
    "\n"
    "Solves one two-bone IK case per input line and prints one answer per line.\n"
    "  2D input:  px py r1 r2 [bend]            output: x y status\n"
    "  3D input:  px py pz r1 r2 hx hy hz [bend] output: x y z status   (h = pole vector)\n"
    "bend < 0 picks the mirrored solution. status is one of: reached too-far too-near degenerate.\n"
    "Numbers are printed with %.9g, so they round-trip a float exactly. Blank lines and lines\n"
    "starting with # are skipped. A malformed line stops the run with an error naming the line and\n"
    "field (exit 1); the answers before it are already written.\n"
    "\n"
    "options:\n"
    "  --3d         read 3D cases\n"
    "  --stretch    out of reach, stretch the bones as the original article does\n"
    "  --soften S   soft IK over the last fraction S (0..1) of the reach, against the knee pop\n"
    "\n"
    "example:\n"
    "  echo '1 1 1 1' | ikshade solve        # -> 0 1 reached\n";

static const char *const FIELDS2[] = { "px", "py", "r1", "r2", "bend" };
static const char *const FIELDS3[] = { "px", "py", "pz", "r1", "r2", "hx", "hy", "hz", "bend" };

int cmd_solve(int argc, char **argv)
{
    ik_opts opts = { 0 };
    int three = 0;
    for (int i = 1; i < argc; i++) {
        bool missing;
        const char *v;
        if (strcmp(argv[i], "--3d") == 0) three = 1;
        else if (strcmp(argv[i], "--stretch") == 0) opts.stretch = 1;
        else if ((v = iks_opt_value(argc, argv, &i, "--soften", &missing)) || missing) {
            double s;
            if (missing) return iks_usage("solve", "--soften needs a value (a fraction 0..1)");
            if (!iks_parse_finite(v, &s) || s < 0 || s > 1)
                return iks_usage("solve", "--soften '%s': expected a number from 0 to 1", v);
            opts.soften = (float)s;
        } else return iks_usage("solve", "unknown option '%s' (see ikshade help solve)", argv[i]);
    }

    const char *const *names = three ? FIELDS3 : FIELDS2;
    int need = three ? 8 : 4;
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int rc = EXIT_OK;
    while (getline(&line, &cap, stdin) >= 0) {
        lineno++;
        char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save);
        if (!tok || tok[0] == '#') continue;
        float f[9];
        int n = 0;
        for (; tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
            if (n == need + 1) {
                fflush(stdout);
                rc = iks_fail("solve", "stdin:%ld: too many fields: expected %d or %d, got more", lineno,
                              need, need + 1);
                goto out;
            }
            if (!iks_parse_float(tok, &f[n])) {
                fflush(stdout);
                rc = iks_fail("solve", "stdin:%ld: field %d (%s): '%s' is not a number", lineno, n + 1,
                              names[n], tok);
                goto out;
            }
            n++;
        }
        if (n < need) {
            fflush(stdout);
            rc = iks_fail("solve", "stdin:%ld: missing field %d (%s): expected %d or %d fields", lineno,
                          n + 1, names[n], need, need + 1);
            goto out;
        }
        opts.bend = n > need ? f[need] : 1.0f;
        if (three) {
            ik_vec3 x;
            ik_status st = ik_solve3((ik_vec3){ f[0], f[1], f[2] }, f[3], f[4],
                                     (ik_vec3){ f[5], f[6], f[7] }, &opts, &x, NULL);
            printf("%.9g %.9g %.9g %s\n", x.x, x.y, x.z, ik_status_name(st));
        } else {
            ik_vec2 x;
            ik_status st = ik_solve2((ik_vec2){ f[0], f[1] }, f[2], f[3], &opts, &x, NULL);
            printf("%.9g %.9g %s\n", x.x, x.y, ik_status_name(st));
        }
    }
    if (ferror(stdin)) rc = iks_fail("solve", "stdin: read error");
out:
    free(line);
    if (fflush(stdout) != 0 && rc == EXIT_OK) rc = iks_fail("solve", "stdout: write error");
    return rc;
}
