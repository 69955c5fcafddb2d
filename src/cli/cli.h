/* cli.h: what the subcommands share: the command table entry, exit codes, and argument parsing helpers
 * that produce the one-line errors every command prints. Only src/cli talks to the user. */
#ifndef IKS_CLI_H
#define IKS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    const char *summary;
    const char *help; /* full text for `ikshade help NAME` and `ikshade NAME --help` */
} iks_command;

/* Prints "ikshade CMD: message" on stderr; returns EXIT_USAGE so callers can `return usage(...)`. */
/* The signal policy (signals.c): installed once by main before any command runs */
void iks_signals_install(void);
/* Called on the thread that runs the command, so that signals taken elsewhere reach it */
void iks_signals_command_thread(void);
/* The first stop signal received (SIGINT, SIGTERM, SIGHUP), or 0 */
int iks_signals_stopped(void);
/* A command's exit status, made 128 + the signal when a signal stopped it */
int iks_signals_exit_status(int status);
/* Writes s with control characters other than newline and tab shown as \xHH. */
void iks_put_text(FILE *f, const char *s);
int iks_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "unknown option 'ARG'", with the nearest option that help names when one is close; returns EXIT_USAGE */
int iks_unknown_option(const char *cmd, const char *help, const char *arg);
/* Prints "ikshade CMD: message" on stderr; returns EXIT_FAIL. */
int iks_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What a command that ended with rc leaves as its exit status once stdout is flushed: output that could
 * not be written (`ikshade --help > /dev/full`) fails in one line, as coreutils' close_stdout does; a
 * reader that went away (EPIPE: `| head`) is a quiet exit 1; a command that failed already said why. */
int iks_stdout_status(const char *cmd, int rc);
void iks_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Strict number parsing: the whole string must be the number (no trailing junk, no empty string).
 * Return false on anything else; the caller names the input in its message. */
bool iks_parse_float(const char *s, float *out);
bool iks_parse_double(const char *s, double *out);
bool iks_parse_long(const char *s, long *out);
/* "WxH" with whole numbers from 1 to 65536. */
bool iks_parse_size(const char *s, int *w, int *h);
/* A finite double, for options where NaN or Inf make no sense. */
bool iks_parse_finite(const char *s, double *out);

/* `--name VALUE` or `--name=VALUE` at argv[*i]; advances *i past the value. Returns NULL if argv[*i]
 * is not this option; sets *missing when the value is absent. */
const char *iks_opt_value(int argc, char **argv, int *i, const char *name, bool *missing);


/* Prints the help of a command to stdout. */
void iks_print_help(const iks_command *c);

/* One line of `solve` input: 1 with n numbers in f (4-5 or 8-9 fields), 0 for a blank or comment line,
 * -1 with a reason in err (which field, what is wrong). Modifies line. */
int iks_solve_parse_line(char *line, bool three, float f[9], int *n, char *err, size_t errlen);
/* The option parsers of render and view alone (no GL, no files written): -1 when the arguments are
 * valid, else the exit code after printing the one-line error. For tests and fuzzing. */
int iks_render_parse_only(int argc, char **argv);
int iks_view_parse_only(int argc, char **argv);

/* The subcommands. */
int cmd_solve(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_import(int argc, char **argv);
extern const char HELP_SOLVE[];
extern const char HELP_BENCH[];
extern const char HELP_CHECK[];
extern const char HELP_RENDER[];
extern const char HELP_VIEW[];
extern const char HELP_IMPORT[];

#endif
