/* util.c: messages and strict argument parsing for the subcommands. */
#include "cli/cli.h"
#include "base/strutil.h"

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

/* s shown as iks_shown_text shows it (one_line: a newline as \n too), a character at a time, so that a
 * message is printed even when memory has run out */
static void put_text(FILE *f, const char *s, bool one_line)
{
    for (; *s; s++) {
        char one[2] = { *s, '\0' }, shown[8];
        iks_shown_text(shown, sizeof shown, one, one_line);
        fputs(shown, f);
    }
}

void iks_put_text(FILE *f, const char *s) { put_text(f, s, false); }

void iks_put_name(FILE *f, const char *s) { put_text(f, s, true); }

void iks_say(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = NULL;
    if (vasprintf(&m, fmt, ap) < 0) m = NULL;
    va_end(ap);
    put_text(f, m ? m : "(out of memory formatting a line)", true);
    fputc('\n', f);
    free(m);
}

void iks_put_cell(FILE *f, const char *s)
{
    /* a file may be named "a\nb | ok | forged.frag": one cell, its bars escaped as Markdown does */
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '|') fputs("\\|", f);
        else if (ch == '\n') fputs("\\n", f);
        else if (ch < 0x20 || ch == 0x7f) fprintf(f, "\\x%02x", ch);
        else fputc(ch, f);
    }
}

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

void iks_put_wrapped(FILE *f, const char *text, int indent)
{
    int col = indent;
    for (const char *d = text; *d;) {
        size_t n = strcspn(d, " ");
        if (col + (int)n > 100 && col > indent) fprintf(f, "\n%*s", indent, ""), col = indent;
        else if (col > indent) fputc(' ', f), col++;
        fprintf(f, "%.*s", (int)n, d);
        col += (int)n;
        d += n;
        while (*d == ' ') d++;
    }
    fputc('\n', f);
}

void iks_print_help(FILE *f, const iks_command *c)
{
    const iks_help *h = c->help;
    fputs(h->usage, f);
    if (h->about) fprintf(f, "\n%s", h->about);
    if (h->more) h->more(f);
    if (h->options) {
        fputs("\noptions:\n", f);
        iks_opts_help(f, h->options);
    }
    if (h->after) fprintf(f, "\n%s", h->after);
    if (c->flags & IKS_CMD_DISPLAY)
        fputs("\nIt needs a display (an X server or Wayland): without one it exits with an error, and `ikshade\n"
              "render` draws headless.\n", f);
}
