/* session.h: what the commands that draw share: the options about what is drawn (-I, --set,
 * --channelN, --missing-media, --glsl, --time: one table both commands include), an engine made the
 * command line's way, and errors printed from the library's code and message. Only the public API
 * (ikshade.h) is used here. */
#ifndef IKS_SESSION_H
#define IKS_SESSION_H

#include "cli/opts.h"
#include "ikshade/ikshade.h"

#include <stdbool.h>

/* The options render and view share (the lists point into argv). */
typedef struct {
    iks_strlist sets;       /* --set NAME=V */
    iks_strlist inc;        /* -I DIR */
    const char *channel[4]; /* --channelN */
    bool missing_black;     /* --missing-media black */
    bool media_outside;     /* --allow-media-outside */
    iks_glsl glsl;          /* --glsl */
    bool no_es_check;       /* --no-es-check */
    double t0;              /* --time */
    int cube_size;          /* --cube-size */
    iks_value *values;      /* --set, parsed by iks_shared_parse (owned: iks_shared_free) */
    int nvalues;
} iks_shared_opts;

/* The shared options' values the library takes typed: each --set parsed (iks_value_parse). -1 when
 * they are well formed, else the exit status after printing the error about that --set. */
int iks_shared_parse(iks_shared_opts *o, const iks_args *a);
void iks_shared_free(iks_shared_opts *o);

/* Their table, for a command's table to include: IKS_OPT_TABLE_ROW(the command's struct, its
 * iks_shared_opts, IKS_SHARED_OPTS), which checks the field is one (IKS_SHARED_OPTS_fills_) */
extern const iks_opt IKS_SHARED_OPTS[];
typedef iks_shared_opts IKS_SHARED_OPTS_fills_;
/* The toy description these options make for path (NULL: the demo). */
iks_toy_desc iks_shared_toy(const iks_shared_opts *o, const char *path);

/* The logger the commands give the engine: warnings always, notes unless quiet, compile diagnostics
 * as they are; the fields a message names are put as the command's options (opts, may be NULL). */
typedef struct {
    const char *cmd;
    bool quiet;
    const iks_opt *opts;
} iks_cli_log;
void iks_cli_log_fn(void *user, iks_log_level level, const char *message);

/* A headless engine (or one on win) logging through log; NULL after printing the error. */
iks_engine *iks_cli_engine(iks_cli_log *log, iks_window *win);

/* The exit status of a code: 0 ok, 2 usage, 130 interrupted, 1 any other failure. The one place. */
int iks_exit_status(iks_code c);
/* Prints an error: a compile error's lines as they are (compiler-style, for editors), anything else as
 * "ikshade CMD: message". Returns iks_exit_status(code). */
int iks_print_error(const char *cmd, iks_code code, const char *message);
/* iks_print_error of the thread's last error. */
int iks_print_last_error(const char *cmd);

#endif
