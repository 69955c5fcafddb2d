/* session.h: what the commands that draw share: the options about what is drawn (-I, --set,
 * --channelN, --missing-media, --glsl, --time), an engine made the command line's way, and errors
 * printed from the library's code and message. Only the public API (ikshade.h) is used here. */
#ifndef IKS_SESSION_H
#define IKS_SESSION_H

#include "ikshade/ikshade.h"

#include <stdbool.h>

/* The options render and view share. The arrays point into argv and are sized by argc, so no count of
 * options can overflow them. */
typedef struct {
    const char **sets;      /* --set NAME=V, checked at parse time */
    int nsets;
    const char **inc;       /* -I DIR */
    int ninc;
    const char *channel[4]; /* --channelN */
    bool missing_black;     /* --missing-media black */
    bool media_outside;     /* --allow-media-outside */
    iks_glsl glsl;          /* --glsl */
    bool no_es_check;       /* --no-es-check */
    double t0;              /* --time */
} iks_shared_opts;

/* false when out of memory */
bool iks_shared_init(iks_shared_opts *o, int argc);
void iks_shared_free(iks_shared_opts *o);
/* If argv[*i] is one of the shared options, consumes it and its value and returns 0, or prints the
 * one-line error and returns EXIT_USAGE; returns -1 when it is not one of them. */
int iks_shared_opt(const char *cmd, int argc, char **argv, int *i, iks_shared_opts *o);
/* The toy description these options make for path (NULL: the demo). */
iks_toy_desc iks_shared_toy(const iks_shared_opts *o, const char *path);

/* The logger the commands give the engine: warnings always, notes unless quiet, compile diagnostics
 * as they are. */
typedef struct {
    const char *cmd;
    bool quiet;
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
