/* strutil.h: small string helpers every layer (and the command line) shares, written once.
 * What it does not do: know what the strings mean. */
#ifndef IKS_STRUTIL_H
#define IKS_STRUTIL_H

#include <stdbool.h>
#include "ikshade/ikshade.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Whether s ends with suffix, ignoring ASCII case (file extensions: ".PNG" is a PNG). */
bool iks_ends_with(const char *s, const char *suffix);

/* s as every line ikshade prints shows a name (a file may be called "a\nb.frag", a toy's JSON may hold
 * escape sequences): each control character but tab as \xHH, DEL too, and, where the text is one line,
 * a newline as \n; so that a name can neither forge a line nor drive the terminal. Writes the shown
 * text into out (cap bytes, NUL-terminated when cap > 0, never cut inside one character's \xHH) and
 * returns its whole length, as snprintf does. The command line's messages and lines (src/cli/util.c),
 * the names in the compiler's mapped log and the GLSL ES check's lines, and the viewer's HUD and title
 * all show names through it. */
size_t iks_shown_text(char *out, size_t cap, const char *s, bool one_line);

/* text as a message may show it: each of the n strings of secret (NULL and "" skipped) replaced by
 * "***" wherever it appears, and, in any URL (after a "://"), the password of a user:password@
 * ("user:***@") and the value of a key= query parameter ("?key=***"), so that a URL a server
 * redirected to or libcurl quoted is covered too. malloc'd; NULL when memory ran out (the caller then
 * shows nothing rather than the secret). The one redaction every message holding a URL or a key
 * passes through. */
char *iks_redact(const char *text, const char *const *secret, size_t n);

/* ---- numbers in the C locale, whatever the host set ------------------------------------------------
 * A host that calls setlocale(LC_ALL, "") in a decimal-comma locale (every GTK or Qt program, Python's
 * locale.setlocale) changes what strtod reads and printf writes in its whole process: "0,5". The
 * library reads and writes every number through these (GLSL it generates, #iUniform, settings, input
 * logs, ffmpeg's arguments and answers, messages) so that they mean the same in any host; the host's
 * locale is never changed (the printf ones switch the calling thread's alone, for the call). */
double iks_strtod_c(const char *s, char **end);
float iks_strtof_c(const char *s, char **end);
int iks_snprintf_c(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int iks_vasprintf_c(char **out, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
int iks_fprintf_c(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* v as the shortest of %.6g .. %.9g that reads back as the same float: a float uniform's value as a
 * --set option or an input log writes it, exact for what GL holds */
void iks_float_text(double v, char *out, size_t cap);
/* One component of a uniform's value as --set takes it and a recording writes it: a bool as true or
 * false, an int or uint whole, a float as iks_float_text */
void iks_uniform_text(iks_uniform_type type, double v, char *out, size_t cap);
/* v as the shortest of %.15g .. %.17g that reads back as the same double (0.55, not 0.55000000000000004) */
void iks_double_text(double v, char *out, size_t cap);

#endif
