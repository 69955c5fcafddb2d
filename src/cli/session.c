/* session.c: the options render and view share, the command line's engine and logger, and the one
 * mapping from the library's error codes to exit status and printed lines. */
#include "cli/session.h"

#include "cli/cli.h"

#include <errno.h>
#include <stddef.h>
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
        return;
    }
    char *words = l->opts ? iks_opts_words(l->opts, message) : NULL;
    const char *m = words ? words : message;
    if (level == IKS_LOG_WARN) iks_warn(l->cmd, "%s", m);
    else if (!l->quiet) iks_fail(l->cmd, "%s", m);
    free(words);
}

iks_engine *iks_cli_engine(iks_cli_log *log, iks_window *win)
{
    iks_engine *e = NULL;
    iks_engine_desc d = { IKS_DESC_SIZE(iks_engine_desc), .window = win, .log = iks_cli_log_fn, .log_user = log };
    if (iks_engine_create(&d, &e) != IKS_OK) {
        iks_print_last_error(log->cmd);
        return NULL;
    }
    return e;
}

iks_toy_desc iks_shared_toy(const iks_shared_opts *o, const char *path)
{
    iks_toy_desc d = { IKS_DESC_SIZE(iks_toy_desc), .path = path, .values = o->values, .nvalues = o->nvalues, .include_dirs = o->inc.v,
                       .n_include_dirs = o->inc.n, .glsl = o->glsl, .missing_media_black = o->missing_black,
                       .allow_media_outside = o->media_outside, .es_check = !o->no_es_check,
                       .cube_size = o->cube_size };
    memcpy(d.channel, o->channel, sizeof d.channel);
    return d;
}

int iks_shared_parse(iks_shared_opts *o, const iks_args *a)
{
    if (o->sets.n == 0) return -1;
    o->values = calloc((size_t)o->sets.n, sizeof *o->values);
    if (!o->values) return iks_fail(a->cmd, "out of memory");
    for (int i = 0; i < o->sets.n; i++) {
        if (iks_value_parse(o->sets.v[i], &o->values[i]) != IKS_OK) {
            char field[32];
            snprintf(field, sizeof field, "values[%d]", i);
            return iks_opts_error_as(a, field);
        }
    }
    o->nvalues = o->sets.n;
    return -1;
}

void iks_shared_free(iks_shared_opts *o)
{
    free(o->values);
    o->values = NULL;
    o->nvalues = 0;
}

IKS_OPT_PARSER(parse_glsl, iks_glsl, v, g)
{
    if (!strcmp(v, "auto")) *g = IKS_GLSL_AUTO;
    else if (!strcmp(v, "es")) *g = IKS_GLSL_ES;
    else if (!strcmp(v, "330")) *g = IKS_GLSL_330;
    else return false;
    return true;
}

IKS_OPT_PARSER(parse_black, bool, v, black)
{
    if (strcmp(v, "black") != 0) return false;
    *black = true;
    return true;
}

#define CHANNEL(n, hidden, help)                                                                                    \
    IKS_OPT_STRING_ROW(iks_shared_opts, channel[n], "--channel" #n, NULL, "SPEC", help, "channel[" #n "]", .flags = hidden, \
      .complete = IKS_COMPLETE_CHANNEL, /* the library's table (iks_channel_completion) */               \
      .label = "--channelN")
const iks_opt IKS_SHARED_OPTS[] = {
    IKS_OPT_LIST_ROW(iks_shared_opts, sets, "--set", NULL, "NAME=V[,V...]",
      "set a uniform the shader declares (float, int, bool, vecN; repeatable)",
      "values", .flags = 0),
    IKS_OPT_LIST_ROW(iks_shared_opts, inc, "-I", NULL, "DIR",
      "also look for #include files in DIR (repeatable)", "include_dirs",
      .complete = "dir"),
    IKS_OPT_DOUBLE_ROW(iks_shared_opts, t0, "--time", NULL, "T0",
      "time of the first frame in seconds (default 0)", "time0",
      .expect = "expected a finite number of seconds", .need = "seconds"),
    CHANNEL(0, 0, "iChannelN (0-3) of a single file: FILE.png|FILE.jpg|cube:FILE.png|keyboard|black\n"
                  "|FILE.bin (a shadertoy.com volume, a sampler3D)|an audio or video file\n"
                  ",filter=nearest|linear|mipmap ,wrap=clamp|repeat ,vflip=0|1 ,srgb=0|1"),
    CHANNEL(1, IKS_OPT_HIDDEN, NULL), CHANNEL(2, IKS_OPT_HIDDEN, NULL), CHANNEL(3, IKS_OPT_HIDDEN, NULL),
    IKS_OPT_PARSE_ROW(iks_shared_opts, missing_black, parse_black, "--missing-media", NULL, "black",
      "run a JSON whose textures are not on disk with black instead",
      "missing_media_black", .expect = "the one choice is black",
      .complete = "words:black", .says = "--missing-media black"),
    IKS_OPT_FLAG_ROW(iks_shared_opts, media_outside, "--allow-media-outside", NULL, NULL,
      "let a JSON or directory toy read media and #includes outside "
      "its own directory", "allow_media_outside", .flags = 0),
    IKS_OPT_PARSE_ROW(iks_shared_opts, glsl, parse_glsl, "--glsl", NULL, "auto|es|330",
      "compile as GLSL ES 3.00 (the site's WebGL2) or 3.30 core; auto\n"
      "(default): ES for a shadertoy.com JSON where the GL accepts it, 3.30 for a file", "glsl",
      .expect = "expected auto, es or 330", .complete = "words:auto es 330"),
    IKS_OPT_FLAG_ROW(iks_shared_opts, no_es_check, "--no-es-check", NULL, NULL,
      "do not check each pass as the site's GLSL ES 3.00 (glslangValidator\n"
      "where installed): by default what shadertoy.com would reject is a warning", "es_check", .flags = 0),
    IKS_OPT_INT_ROW(iks_shared_opts, cube_size, "--cube-size", NULL, "N",
      "Cube A's face side in pixels (default 1024, the site's): smaller\n"
      "previews a toy whose Cube A is slow on a CPU renderer", "cube_size",
      .flags = IKS_OPT_NONZERO, .min = 1, .max = IKS_MAX_SIDE, .expect = "expected a side in pixels"),
    { IKS_OPT_END, .flags = 0 },
};
