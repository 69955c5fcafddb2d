/* util.c: messages and strict argument parsing for the subcommands. */
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <unistd.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* one_line: a newline is shown as \n too */
static void put_text(FILE *f, const char *s, bool one_line)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        /* names in a toy's JSON reach messages: its control characters must not drive the terminal */
        if ((ch < 0x20 && ch != '\n' && ch != '\t') || ch == 0x7f) fprintf(f, "\\x%02x", ch);
        else if (ch == '\n' && one_line) fputs("\\n", f);
        else fputc(ch, f);
    }
}

void iks_put_text(FILE *f, const char *s) { put_text(f, s, false); }

static void vmsg(const char *cmd, const char *kind, const char *fmt, va_list ap)
{
    char *m = NULL;
    if (vasprintf(&m, fmt, ap) < 0) m = NULL;
    fprintf(stderr, "ikshade%s%s: %s", cmd ? " " : "", cmd ? cmd : "", kind);
    /* one message, one line, whatever a name in it holds (a file may be called "a\nb.frag"): the
     * multi-line reports (compiler logs) are printed with iks_put_text */
    put_text(stderr, m ? m : "(out of memory formatting a message)", true);
    fputc('\n', stderr);
    free(m);
}

int iks_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(cmd, "", fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

/* Edit distance between a and b (each at most 63 characters; longer ones are far from anything) */
static int distance(const char *a, size_t na, const char *b, size_t nb)
{
    if (na > 63 || nb > 63) return 99;
    int row[64];
    for (size_t j = 0; j <= nb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
}

int iks_unknown_option(const char *cmd, const char *help, const char *arg)
{
    /* the options the command's own help names: the nearest one within two edits (or the one that arg
     * begins, for an option given its value with = or a typo at the end) is the likely one */
    const char *eq = strchr(arg, '=');
    size_t na = eq ? (size_t)(eq - arg) : strlen(arg);
    const char *best = NULL;
    size_t nbest = 0;
    int dbest = 3;
    for (const char *p = help; p && (p = strstr(p, "--"));) {
        const char *q = p + 2;
        while (*q && (isalnum((unsigned char)*q) || *q == '-')) q++;
        size_t n = (size_t)(q - p);
        if (n > 2 && (p == help || !isalnum((unsigned char)p[-1]))) {
            int d = distance(arg, na, p, n);
            if (d < dbest || (d == dbest && best && n < nbest)) best = p, nbest = n, dbest = d;
        }
        p = q;
    }
    if (best && !(nbest == na && !strncmp(best, arg, na)))
        return iks_usage(cmd, "unknown option '%s': did you mean '%.*s'? (see ikshade help %s)", arg, (int)nbest,
                         best, cmd);
    return iks_usage(cmd, "unknown option '%s' (see ikshade help %s)", arg, cmd);
}

int iks_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(cmd, "", fmt, ap);
    va_end(ap);
    return EXIT_FAIL;
}

int iks_stdout_status(const char *cmd, int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
    int e = errno;
    if (rc != EXIT_OK) return rc;
    if (!e) {
        /* the write failed earlier and its errno is gone: a pipe whose reader left says so (POLLERR) */
        struct pollfd pf = { .fd = STDOUT_FILENO, .events = POLLOUT };
        if (poll(&pf, 1, 0) == 1 && (pf.revents & POLLERR)) e = EPIPE;
    }
    if (e == EPIPE) return EXIT_FAIL;
    return iks_fail(cmd, "stdout: %s", e ? strerror(e) : "a write failed");
}

void iks_warn(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(cmd, "warning: ", fmt, ap);
    va_end(ap);
}

bool iks_parse_double(const char *s, double *out)
{
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0') return false;
    /* overflow is an error; underflow to a denormal or zero is a legitimate tiny number */
    if (errno == ERANGE && isinf(v)) return false;
    *out = v;
    return true;
}

bool iks_parse_float(const char *s, float *out)
{
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    float v = strtof(s, &end);
    if (end == s || *end != '\0') return false;
    if (errno == ERANGE && isinf(v)) return false;
    *out = v;
    return true;
}

bool iks_parse_finite(const char *s, double *out)
{
    double v;
    if (!iks_parse_double(s, &v) || !isfinite(v)) return false;
    *out = v;
    return true;
}

bool iks_parse_long(const char *s, long *out)
{
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE) return false;
    *out = v;
    return true;
}

const char *iks_opt_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    *missing = false;
    if (strncmp(a, name, n) != 0) return NULL;
    if (a[n] == '=') return a + n + 1;
    if (a[n] != '\0') return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

void iks_print_help(const iks_command *c)
{
    fputs(c->help, stdout);
}

bool iks_parse_size(const char *s, int *w, int *h)
{
    char *end;
    long a = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X')) return false;
    const char *q = end + 1;
    long b = strtol(q, &end, 10);
    if (end == q || *end) return false;
    if (a < 1 || b < 1 || a > 65536 || b > 65536) return false;
    *w = (int)a;
    *h = (int)b;
    return true;
}

