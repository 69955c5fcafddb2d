/* cli.h: what the subcommands share: the command table entry, exit codes, and the messages every
 * command prints. Only src/cli talks to the user. */
#ifndef IKS_CLI_H
#define IKS_CLI_H

#include "cli/opts.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* A command's help, made from its parts and its option table: `ikshade help NAME`, `ikshade NAME
 * --help`, the man pages (help2man) and the completions all read it. */
typedef struct {
    const char *usage;       /* the usage lines: "usage: ikshade render [SHADER] -o OUTPUT [options]\n" */
    const char *about;       /* what the command does, before the options */
    void (*more)(FILE *f);   /* sections made at run time from the library's own tables (NULL: none) */
    const iks_opt *options;  /* its option table (NULL: none) */
    const char *after;       /* after the options: keys, examples */
    const char *operand;     /* completion of the operands: "toy" (a shader, JSON or directory), "words:solver
                                gpu render", NULL: none */
} iks_help;

/* What a command needs, for main (and the help) */
enum {
    IKS_CMD_GL = 1,      /* draws: GL through an engine (runs on a big stack, EGL's loader kept quiet) */
    IKS_CMD_DISPLAY = 2, /* opens a window: a display */
    IKS_CMD_NET = 4,     /* reaches a server */
};

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    unsigned flags;                    /* IKS_CMD_* */
    const char *summary;
    const iks_help *help;
} iks_command;

/* The command table (main.c): every command, in the order `ikshade --help` lists them */
extern const iks_command IKS_COMMANDS[];
extern const int IKS_NCOMMANDS;

/* Prints "ikshade CMD: message" on stderr; returns EXIT_USAGE so callers can `return usage(...)`. */
/* The signal policy (signals.c): installed once by main before any command runs */
void iks_signals_install(void);
/* Called on the thread that runs the command, so that signals taken elsewhere reach it */
void iks_signals_command_thread(void);
/* The first stop signal received (SIGINT, SIGTERM, SIGHUP), or 0 */
int iks_signals_stopped(void);
/* A command's exit status, made 128 + the signal when a signal stopped it */
int iks_signals_exit_status(int status);
/* Ends the process now as the signal sig would have (its default action), leaving no temporary behind;
 * async-signal-safe */
void iks_signals_die(int sig);
/* Under an address-space limit (ulimit -v), before a GL command: raises the soft limit where it is
 * below the command's need and the hard one allows, says in one line (false) when the limit is still
 * too small, keeps malloc's arenas few, and makes a crash one line naming the limit. *stack: the
 * command thread's stack size the limit leaves room for (512 MiB without one). limits.c. */
bool iks_limits_prepare(const char *cmd, size_t *stack);
/* The calling thread's alternate signal stack, for the crash line under a limit (the command's thread) */
void iks_limits_thread(void);
/* Writes s with control characters other than newline and tab shown as \xHH: the many-line reports
 * (compiler logs). */
void iks_put_text(FILE *f, const char *s);
/* Writes s as one line shows a name: as iks_put_text, and a newline as \n (iks_shown_text, one line) */
void iks_put_name(FILE *f, const char *s);
/* Prints a line that is no error (a summary, a report's line, a note): formatted, shown as a message
 * is (iks_put_name: a name in it can neither forge a line nor drive the terminal), and a newline.
 * Every line ikshade prints that holds a name the user gave goes through this or the messages. */
void iks_say(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as one cell of a Markdown table row: '|' escaped, control characters (a newline too) as \n, \xNN */
void iks_put_cell(FILE *f, const char *s);
int iks_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints "ikshade CMD: message" on stderr; returns EXIT_FAIL. */
int iks_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What a command that ended with rc leaves as its exit status once stdout is flushed: output that could
 * not be written (`ikshade --help > /dev/full`) fails in one line, as coreutils' close_stdout does; a
 * reader that went away (EPIPE: `| head`) is a quiet exit 1; a command that failed already said why. */
int iks_stdout_status(const char *cmd, int rc);
void iks_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Strict number parsing: the whole string must be the number (no trailing junk, no empty string).
 * Return false on anything else; the caller names the input in its message. */
bool iks_parse_double(const char *s, double *out);
bool iks_parse_long(const char *s, long *out);
/* A finite double, for options where NaN or Inf make no sense. */
bool iks_parse_finite(const char *s, double *out);

/* Writes text from column indent on (the caller has written that much of the line), its words wrapped
 * under it before column 100, and a newline. */
void iks_put_wrapped(FILE *f, const char *text, int indent);
/* Prints the help of a command to f. */
void iks_print_help(FILE *f, const iks_command *c);

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
int cmd_completion(int argc, char **argv);
int cmd_demos(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_info(int argc, char **argv);
/* A toy named on the command line: ARG itself when it is not a bare name, or a toy of the user's is
 * there; else (nothing there, or what cannot be a toy: a directory without image.glsl, an empty file)
 * the shipped demo of that name (cmd_demos.c), written into buf; else ARG, for the loader to name in
 * its error. */
const char *iks_cli_toy_path(const char *arg, char *buf, size_t n);
/* When PATH (iks_cli_toy_path's answer) is the demo although something is at ARG here: one warning
 * that says the demo was taken, why, and how to name what is here (./ARG). Said where the toy is
 * loaded, not when the arguments are read, so that a usage error stays one line. */
void iks_cli_toy_note(const char *cmd, const char *arg, const char *path);
/* When ARG is a bare name that is neither here nor a demo: says so (naming `ikshade demos`), true */
bool iks_cli_toy_missing(const char *cmd, const char *arg);
/* The demos' names, space separated (for the completions) */
void iks_cli_demo_names(FILE *f);
extern const iks_help HELP_SOLVE, HELP_BENCH, HELP_CHECK, HELP_RENDER, HELP_VIEW, HELP_IMPORT, HELP_COMPLETION, HELP_DEMOS,
    HELP_INFO, HELP_DEVICES;

#endif
