/* cmd_solve.c: `ikshade solve`, the solver as a filter: cases on stdin, answers on stdout.
 * Output numbers use %.9g so that every float round-trips exactly. */
#include "cli/cli.h"
#include "base/buf.h"
#include "ikshade/ik.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

typedef struct {
    bool three, stretch;
    double soften;
    iks_args args;
} sopts;

static const iks_opt OPTIONS[] = {
    IKS_OPT_FLAG_ROW(sopts, three, "--3d", NULL, NULL, "read 3D cases", .field = NULL),
    IKS_OPT_FLAG_ROW(sopts, stretch, "--stretch", NULL, NULL,
      "out of reach, stretch the bones as the original article does",
      .field = NULL),
    /* the solver's library has no errors of its own to report: its range is the command line's */
    IKS_OPT_DOUBLE_ROW(sopts, soften, "--soften", NULL, "S",
      "soft IK over the last fraction S (0..1) of the reach, against the knee pop",
      .min = 0, .max = 1, .expect = "expected a number from 0 to 1",
      .need = "a value (a fraction 0..1)"),
    { IKS_OPT_END, .flags = 0 },
};

const iks_help HELP_SOLVE = {
    .usage = "usage: ikshade solve [--3d] [--stretch] [--soften S] < cases\n",
    .about = "Solves one two-bone IK case per input line and prints one answer per line.\n"
             "  2D input:  px py r1 r2 [bend]            output: x y status\n"
             "  3D input:  px py pz r1 r2 hx hy hz [bend] output: x y z status   (h = pole vector)\n"
             "bend < 0 picks the mirrored solution. status is one of: reached too-far too-near degenerate.\n"
             "Numbers are printed with %.9g, so they round-trip a float exactly. Blank lines and lines\n"
             "starting with # are skipped. A malformed line stops the run with an error naming the line and\n"
             "field (exit 1), as does NaN or Inf or a line longer than 1 MiB; the answers before it are already\n"
             "written. When stdout's reader goes away (| head), solve stops quietly with exit 1.\n",
    .options = OPTIONS,
    .after = "example:\n"
             "  echo '1.6 0 1 1' | ikshade solve      # -> 0.800000012 0.599999964 reached\n",
};

static const char *const FIELDS2[] = { "px", "py", "r1", "r2", "bend" };
static const char *const FIELDS3[] = { "px", "py", "pz", "r1", "r2", "hx", "hy", "hz", "bend" };

int iks_solve_parse_line(char *line, bool three, float f[9], int *n, char *err, size_t errlen)
{
    const char *const *names = three ? FIELDS3 : FIELDS2;
    int need = three ? 8 : 4;
    char *save = NULL, *tok = strtok_r(line, " \t\r\n", &save);
    *n = 0;
    if (!tok || tok[0] == '#') return 0;
    for (; tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
        if (*n == need + 1) {
            snprintf(err, errlen, "too many fields: expected %d or %d, got more", need, need + 1);
            return -1;
        }
        double d;
        if (!iks_parse_double(tok, &d)) {
            char *end;
            errno = 0;
            (void)strtod(tok, &end);
            bool range = errno == ERANGE && end != tok && *end == '\0';
            snprintf(err, errlen, "field %d (%s): '%.40s' is %s", *n + 1, names[*n], tok,
                     range ? "out of range for a float" : "not a number");
            return -1;
        }
        /* NaN or Inf is never a case anyone meant: say so instead of answering "degenerate" */
        if (!isfinite(d) || fabs(d) > FLT_MAX) {
            snprintf(err, errlen, "field %d (%s): '%.40s' is not a finite float", *n + 1, names[*n], tok);
            return -1;
        }
        f[(*n)++] = (float)d;
    }
    if (*n < need) {
        snprintf(err, errlen, "missing field %d (%s): expected %d or %d fields", *n + 1, names[*n], need,
                 need + 1);
        return -1;
    }
    return 1;
}

/* A solve line is a few numbers. A line of a megabyte is no case but a runaway input (/dev/zero, a
 * binary file): refused once it passes this, so that no input can make us hold more than it. */
#define LINE_MAX_BYTES ((size_t)1 << 20)
#define LINE_MAX_TEXT "1 MiB"

enum { LINE_END = -1, LINE_LONG = -2, LINE_NOMEM = -3 };

/* The next line of in in *buf (grown as needed, to at most LINE_MAX_BYTES + 2), with its newline
 * when it has one, NUL-terminated: its length, or LINE_END at the end of input or a read error
 * (ferror(in), errno), LINE_LONG past LINE_MAX_BYTES, LINE_NOMEM. getline has no cap, and its
 * ENOMEM looked like the end of input. */
static long read_line(FILE *in, char **buf, size_t *cap)
{
    size_t n = 0;
    for (;;) {
        int c = getc_unlocked(in);
        if (c == EOF) {
            if (n == 0 || ferror(in)) return LINE_END;
            break;
        }
        if (c != '\n' && n == LINE_MAX_BYTES) return LINE_LONG;
        if (n + 2 > *cap && !IKS_GROW(*buf, n + 2, *cap)) return LINE_NOMEM;
        (*buf)[n++] = (char)c;
        if (c == '\n') break;
    }
    (*buf)[n] = '\0';
    return (long)n;
}

static int interrupted(long lineno)
{
    return iks_fail("solve", "interrupted after %ld line%s of stdin", lineno, lineno == 1 ? "" : "s");
}

/* stdout took no more (e: the write's errno). A reader that went away (EPIPE: `solve | head`) is how a
 * pipeline stage is told to stop, so no message. Exit 1, not the 141 of a death by SIGPIPE: the
 * program ignores SIGPIPE on purpose (signals.c) so that a closed pipe is an error, not a signal, and
 * `render -o -` exits 1 when its reader goes; 128 + N is kept for the signals a user sends. */
static int write_failed(int e, long lineno)
{
    if (e == EPIPE) return EXIT_FAIL;
    /* a write blocked on a slow reader returns EINTR when a stop signal comes */
    if (iks_signals_stopped()) return interrupted(lineno);
    return iks_fail("solve", "stdout: %s", strerror(e ? e : EIO));
}

int cmd_solve(int argc, char **argv)
{
    sopts so = { 0 };
    int rc = iks_opts_parse("solve", OPTIONS, argc, argv, &so, &so.args);
    if (rc < 0 && so.args.npos) rc = iks_usage("solve", "'%s': solve reads its cases from stdin, not arguments", so.args.pos[0]);
    iks_args_free(&so.args, &so);
    if (rc >= 0) return rc;
    ik_opts opts = { .stretch = so.stretch, .soften = (float)so.soften };
    bool three = so.three;

    int need = three ? 8 : 4;
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    rc = EXIT_OK;
    long len;
    while (!iks_signals_stopped() && (len = read_line(stdin, &line, &cap)) != LINE_END) {
        lineno++;
        if (len == LINE_LONG || len == LINE_NOMEM) {
            fflush(stdout);
            rc = len == LINE_LONG ? iks_fail("solve", "stdin:%ld: line longer than %s", lineno, LINE_MAX_TEXT)
                                  : iks_fail("solve", "stdin:%ld: out of memory reading the line", lineno);
            goto out;
        }
        /* a NUL would end the line for the parser and drop the rest unseen */
        if (memchr(line, '\0', (size_t)len)) {
            fflush(stdout);
            rc = iks_fail("solve", "stdin:%ld: a NUL byte: expected text", lineno);
            goto out;
        }
        /* a UTF-8 byte order mark, as some editors save, is not part of the first number */
        if (lineno == 1 && (size_t)len >= 3 && !memcmp(line, "\xEF\xBB\xBF", 3)) memmove(line, line + 3, (size_t)len - 2);
        float f[9];
        int n = 0;
        char err[256];
        int r = iks_solve_parse_line(line, three, f, &n, err, sizeof err);
        if (r == 0) continue;
        if (r < 0) {
            fflush(stdout);
            rc = iks_fail("solve", "stdin:%ld: %s", lineno, err);
            goto out;
        }
        opts.bend = n > need ? f[need] : 1.0f;
        int w;
        errno = 0;
        if (three) {
            ik_vec3 x;
            ik_status st = ik_solve3((ik_vec3){ f[0], f[1], f[2] }, f[3], f[4],
                                     (ik_vec3){ f[5], f[6], f[7] }, &opts, &x, NULL);
            w = printf("%.9g %.9g %.9g %s\n", x.x, x.y, x.z, ik_status_name(st));
        } else {
            ik_vec2 x;
            ik_status st = ik_solve2((ik_vec2){ f[0], f[1] }, f[2], f[3], &opts, &x, NULL);
            w = printf("%.9g %.9g %s\n", x.x, x.y, ik_status_name(st));
        }
        /* looked at every line: with endless input the final flush never comes, and a reader that
         * went away would leave us solving into the void */
        if (w < 0 || ferror(stdout)) {
            rc = write_failed(errno, lineno);
            goto out;
        }
    }
    /* a signal interrupts the read (no SA_RESTART), or comes between lines while input keeps
     * coming: either way a stop, not a broken input */
    if (iks_signals_stopped()) rc = interrupted(lineno);
    else if (ferror(stdin)) rc = iks_fail("solve", "stdin: read error: %s", strerror(errno));
out:
    free(line);
    errno = 0;
    if (fflush(stdout) != 0 && rc == EXIT_OK) rc = write_failed(errno, lineno);
    return rc;
}
