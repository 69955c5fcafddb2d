/* session.c: the options render and view share, the command line's engine and logger, and the one
 * mapping from the library's error codes to exit status and printed lines. */
#include "cli/session.h"

#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int iks_exit_status(iks_code c)
{
    switch (c) {
    case IKS_OK: return EXIT_OK;
    case IKS_E_USAGE: return EXIT_USAGE;
    case IKS_E_INTERRUPTED: return 130;
    default: return EXIT_FAIL;
    }
}

int iks_print_error(const char *cmd, iks_code code, const char *message)
{
    if (code == IKS_OK) return EXIT_OK;
    const char *m = message && *message ? message : iks_code_name(code);
    if (code == IKS_E_COMPILE) {
        /* compiler-style lines, as editors and terminals expect: path:line:col: error: message */
        iks_put_text(stderr, m);
        if (m[strlen(m) - 1] != '\n') fputc('\n', stderr);
    } else iks_fail(cmd, "%s", m);
    return iks_exit_status(code);
}

int iks_print_last_error(const char *cmd)
{
    const char *m;
    iks_code c = iks_last_error(&m);
    return iks_print_error(cmd, c == IKS_OK ? IKS_E_GL : c, m);
}

void iks_cli_log_fn(void *user, iks_log_level level, const char *message)
{
    const iks_cli_log *l = user;
    if (level == IKS_LOG_DIAGNOSTICS) {
        iks_put_text(stderr, message);
        fputc('\n', stderr);
    }
    else if (level == IKS_LOG_WARN) iks_warn(l->cmd, "%s", message);
    else if (!l->quiet) iks_fail(l->cmd, "%s", message);
}

iks_engine *iks_cli_engine(iks_cli_log *log, iks_window *win)
{
    iks_engine *e = NULL;
    iks_engine_desc d = { .window = win, .log = iks_cli_log_fn, .log_user = log };
    if (iks_engine_create(&d, &e) != IKS_OK) {
        iks_print_last_error(log->cmd);
        return NULL;
    }
    return e;
}

bool iks_shared_init(iks_shared_opts *o, int argc)
{
    memset(o, 0, sizeof *o);
    size_t n = argc > 0 ? (size_t)argc : 1;
    o->sets = calloc(n, sizeof *o->sets);
    o->inc = calloc(n, sizeof *o->inc);
    if (o->sets && o->inc) return true;
    iks_shared_free(o);
    return false;
}

void iks_shared_free(iks_shared_opts *o)
{
    free(o->sets);
    free(o->inc);
    memset(o, 0, sizeof *o);
}

iks_toy_desc iks_shared_toy(const iks_shared_opts *o, const char *path)
{
    iks_toy_desc d = { .path = path, .sets = o->sets, .nsets = o->nsets, .include_dirs = o->inc,
                       .n_include_dirs = o->ninc, .glsl = o->glsl, .missing_media_black = o->missing_black,
                       .allow_media_outside = o->media_outside, .es_check = !o->no_es_check };
    memcpy(d.channel, o->channel, sizeof d.channel);
    return d;
}

static int glsl_parse(const char *v)
{
    return !strcmp(v, "auto") ? IKS_GLSL_AUTO : !strcmp(v, "es") ? IKS_GLSL_ES : !strcmp(v, "330") ? IKS_GLSL_330 : -1;
}

int iks_shared_opt(const char *cmd, int argc, char **argv, int *i, iks_shared_opts *o)
{
    const char *a = argv[*i], *v;
    bool miss = false;
#define OPT(name) ((v = iks_opt_value(argc, argv, i, name, &miss)) || miss)
#define NEED(name, what) \
    if (miss) return iks_usage(cmd, "%s needs %s", name, what)
    if (OPT("--time")) {
        NEED("--time", "seconds");
        if (!iks_parse_finite(v, &o->t0) || fabs(o->t0) > 1e9)
            return iks_usage(cmd, "--time '%s': expected a finite number of seconds from -1e9 to 1e9", v);
    } else if (OPT("--set")) {
        NEED("--set", "NAME=VALUE");
        if (iks_check_setting(v) != IKS_OK) return iks_print_last_error(cmd);
        o->sets[o->nsets++] = v;
    } else if (strncmp(a, "-I", 2) == 0) {
        const char *d = a[2] ? a + 2 : (*i + 1 < argc ? argv[++*i] : NULL);
        if (!d) return iks_usage(cmd, "-I needs a directory");
        struct stat st;
        if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) return iks_usage(cmd, "-I %s: not a directory", d);
        o->inc[o->ninc++] = d;
    } else if (strncmp(a, "--channel", 9) == 0 && a[9] >= '0' && a[9] <= '3' && (a[10] == '\0' || a[10] == '=')) {
        char name[16];
        snprintf(name, sizeof name, "--channel%c", a[9]);
        v = iks_opt_value(argc, argv, i, name, &miss);
        NEED(name, "FILE.png, FILE.jpg, cube:FILE.png, FILE.bin, an audio or video file, keyboard, black, a buffer a-d or cube_a");
        /* checked now, so that a typo is a usage error before any window or context exists */
        if (iks_check_channel(v) != IKS_OK) {
            const char *m;
            iks_code c = iks_last_error(&m);
            char named[1024];
            snprintf(named, sizeof named, "%s %s", name, m);
            if (c != IKS_E_USAGE) return iks_print_error(cmd, c, named);
            return iks_usage(cmd, "%s", named);
        }
        o->channel[a[9] - '0'] = v;
    } else if (OPT("--glsl")) {
        NEED("--glsl", "auto, es or 330");
        int g = glsl_parse(v);
        if (g < 0) return iks_usage(cmd, "--glsl '%s': expected auto, es or 330", v);
        o->glsl = (iks_glsl)g;
    } else if (OPT("--missing-media")) {
        NEED("--missing-media", "black");
        if (strcmp(v, "black") != 0) return iks_usage(cmd, "--missing-media '%s': the one choice is black", v);
        o->missing_black = true;
    } else if (strcmp(a, "--no-es-check") == 0) {
        o->no_es_check = true;
    } else if (strcmp(a, "--allow-media-outside") == 0) {
        o->media_outside = true;
    } else return -1;
#undef OPT
#undef NEED
    return 0;
}
