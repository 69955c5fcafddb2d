/* session.c: headless context set-up and program building for the GL subcommands. */
#include "session.h"

#include "cli.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir_with_ik(const char *d)
{
    char p[PATH_MAX + 16];
    struct stat st;
    snprintf(p, sizeof p, "%.*s/ik.glsl", PATH_MAX - 1, d);
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

const char *iks_shader_dir(void)
{
    static char dir[PATH_MAX];
    if (dir[0]) return dir;
    const char *env = getenv("IKSHADE_SHADERS");
    if (env && *env && is_dir_with_ik(env)) return snprintf(dir, sizeof dir, "%s", env), dir;
#ifdef IKS_SOURCE_SHADERS
    if (is_dir_with_ik(IKS_SOURCE_SHADERS)) return snprintf(dir, sizeof dir, "%s", IKS_SOURCE_SHADERS), dir;
#endif
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0';
        char cand[PATH_MAX];
        snprintf(cand, sizeof cand, "%.3000s/../share/ikshade/shaders", exe);
        if (is_dir_with_ik(cand)) return snprintf(dir, sizeof dir, "%s", cand), dir;
        snprintf(cand, sizeof cand, "%.3000s/shaders", exe);
        if (is_dir_with_ik(cand)) return snprintf(dir, sizeof dir, "%s", cand), dir;
    }
    return NULL;
}

iks_platform *iks_headless(const char *cmd)
{
    char err[IKS_ERR_LEN];
    iks_platform *p = iks_egl_create(err);
    if (!p) {
        iks_fail(cmd, "%s", err);
        return NULL;
    }
    char gerr[IKS_GPU_ERR_LEN];
    if (!iks_gpu_load(p->get_proc_address, gerr)) {
        iks_fail(cmd, "%s (platform: %s)", gerr, p->name);
        p->destroy(p);
        return NULL;
    }
    return p;
}

void iks_includes_init(iks_includes *inc)
{
    memset(inc, 0, sizeof *inc);
}

bool iks_includes_add(iks_includes *inc, const char *dir)
{
    if (inc->n >= 16) return false;
    inc->include_dirs[inc->n++] = dir;
    return true;
}

int iks_include_list(const iks_includes *inc, const char *dirs[17])
{
    int n = 0;
    for (int i = 0; i < inc->n && i < 16; i++) dirs[n++] = inc->include_dirs[i];
    const char *sd = iks_shader_dir();
    if (sd) dirs[n++] = sd;
    return n;
}

bool iks_build(const char *cmd, const char *path, const iks_includes *inc, const char *override_name,
               const char *override_path, iks_source *src, iks_program *prog)
{
    const char *dirs[17];
    int n = iks_include_list(inc, dirs);
    iks_source_opts o = { .include_dirs = dirs, .n_include_dirs = n, .override_name = override_name,
                          .override_path = override_path };
    char err[IKS_SRC_ERR_LEN];
    if (!iks_source_load(src, path, &o, err)) {
        iks_fail(cmd, "%s", err);
        return false;
    }
    char *log = NULL;
    if (!iks_program_build(prog, src, &log)) {
        /* compiler-style lines, as editors and terminals expect: path:line:col: error: message */
        (void)cmd;
        fputs(log ? log : "", stderr);
        free(log);
        iks_source_free(src);
        return false;
    }
    if (log) fputs(log, stderr); /* warnings */
    free(log);
    return true;
}

int iks_glsl_parse(const char *v)
{
    return !strcmp(v, "auto") ? IKS_GLSL_AUTO : !strcmp(v, "es") ? IKS_GLSL_ES : !strcmp(v, "330") ? IKS_GLSL_330 : -1;
}

int iks_toy_load(const char *path, const iks_shared_opts *s, int w, int h, iks_toyfile *tf, iks_gltoy *toy, char **msg)
{
    memset(toy, 0, sizeof *toy);
    *msg = NULL;
    char err[1024], warn[2048];
    if (!iks_toyfile_load(tf, path, s->channel, s->missing_black, err, sizeof err, warn, sizeof warn)) {
        *msg = strdup(err);
        return strncmp(err, "--channel", 9) == 0 ? EXIT_USAGE : EXIT_FAIL;
    }
    if (warn[0]) fputs(warn, stderr);
    if (s->glsl != IKS_GLSL_AUTO) tf->desc.es = s->glsl == IKS_GLSL_ES;
    const char *dirs[17];
    int n = iks_include_list(&s->inc, dirs);
    iks_source_opts base = { .include_dirs = dirs, .n_include_dirs = n };
    return iks_gltoy_create(toy, &tf->desc, &base, w, h, msg) ? 0 : EXIT_FAIL;
}

void iks_print_build_error(const char *cmd, const char *msg)
{
    /* the driver's errors are already one compiler-style line each; anything else is one reason */
    if (msg && (strstr(msg, ": error") || strchr(msg, '\n'))) fputs(msg, stderr);
    else iks_fail(cmd, "%s", msg ? msg : "cannot build the shader");
}

int iks_toy_build(const char *cmd, const char *path, const iks_shared_opts *s, int w, int h, iks_toyfile *tf,
                  iks_gltoy *toy)
{
    char *msg;
    int rc = iks_toy_load(path, s, w, h, tf, toy, &msg);
    if (rc == EXIT_USAGE) iks_usage(cmd, "%s", msg ? msg : "bad --channel");
    else if (rc) iks_print_build_error(cmd, msg);
    free(msg);
    return rc;
}

void iks_shared_init(iks_shared_opts *o)
{
    memset(o, 0, sizeof *o);
    iks_includes_init(&o->inc);
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
            return iks_usage(cmd, "--time '%s': expected a finite number of seconds", v);
    } else if (OPT("--set")) {
        NEED("--set", "NAME=VALUE");
        char err[IKS_GPU_ERR_LEN];
        if (o->nsets == IKS_MAX_SETS) return iks_usage(cmd, "--set: at most %d settings", IKS_MAX_SETS);
        if (!iks_setting_parse(v, &o->sets[o->nsets++], err)) return iks_usage(cmd, "%s", err);
    } else if (strncmp(a, "-I", 2) == 0) {
        const char *d = a[2] ? a + 2 : (*i + 1 < argc ? argv[++*i] : NULL);
        if (!d) return iks_usage(cmd, "-I needs a directory");
        struct stat st;
        if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) return iks_usage(cmd, "-I %s: not a directory", d);
        if (!iks_includes_add(&o->inc, d)) return iks_usage(cmd, "-I: at most 16 include directories");
    } else if (strncmp(a, "--channel", 9) == 0 && a[9] >= '0' && a[9] <= '3' && (a[10] == '\0' || a[10] == '=')) {
        char name[16];
        snprintf(name, sizeof name, "--channel%c", a[9]);
        v = iks_opt_value(argc, argv, i, name, &miss);
        NEED(name, "FILE.png, FILE.jpg, cube:FILE.png, keyboard, black or a buffer a-d");
        /* checked now, so that a typo is a usage error before any window or context exists */
        iks_input in;
        char err[600];
        if (!iks_channel_parse(v, &in, err, sizeof err)) return iks_usage(cmd, "%s %s", name, err);
        free((char *)in.path);
        o->channel[a[9] - '0'] = v;
    } else if (OPT("--glsl")) {
        NEED("--glsl", "auto, es or 330");
        if ((o->glsl = iks_glsl_parse(v)) < 0) return iks_usage(cmd, "--glsl '%s': expected auto, es or 330", v);
    } else if (OPT("--missing-media")) {
        NEED("--missing-media", "black");
        if (strcmp(v, "black") != 0) return iks_usage(cmd, "--missing-media '%s': the one choice is black", v);
        o->missing_black = true;
    } else return -1;
#undef OPT
#undef NEED
    return 0;
}
