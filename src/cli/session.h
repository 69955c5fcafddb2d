/* session.h: what the GL subcommands share: a headless context, the shaders directory, and building a
 * program from a user's file with errors printed in the user's terms. */
#ifndef IKS_SESSION_H
#define IKS_SESSION_H

#include "gpu.h"
#include "platform.h"
#include "source.h"
#include "toy.h"
#include "toyfile.h"

/* The directory holding ik.glsl and the demos: $IKSHADE_SHADERS, else the source tree this binary was
 * built from (for a build tree), else <bindir>/../share/ikshade/shaders (installed). NULL if none. */
const char *iks_shader_dir(void);

/* Headless EGL context with GL loaded. Prints the reason and returns NULL on failure. */
iks_platform *iks_headless(const char *cmd);

typedef struct {
    const char *include_dirs[17]; /* the user's -I dirs, then the shaders dir */
    int n;
} iks_includes;
void iks_includes_init(iks_includes *inc);
/* Adds a user -I dir; false when there are too many. */
bool iks_includes_add(iks_includes *inc, const char *dir);

/* The include search list: the user's -I dirs, then the shaders dir. Returns how many (<= 17). */
int iks_include_list(const iks_includes *inc, const char *dirs[17]);

/* Loads, assembles and builds path. On failure prints the (mapped) errors and returns false. */
bool iks_build(const char *cmd, const char *path, const iks_includes *inc, const char *override_name,
               const char *override_path, iks_source *src, iks_program *prog);



#define IKS_MAX_SETS 64
/* The options render and view share, about what is drawn and how it is compiled. */
typedef struct {
    iks_setting sets[IKS_MAX_SETS]; /* --set, applied to every pass that declares the uniform */
    int nsets;
    iks_includes inc;               /* -I */
    const char *channel[4];         /* --channelN */
    bool missing_black;             /* --missing-media black */
    int glsl;                       /* --glsl */
    double t0;                      /* --time */
} iks_shared_opts;
void iks_shared_init(iks_shared_opts *o);
/* If argv[*i] is one of the shared options, consumes it and its value and returns 0, or prints the
 * one-line error and returns EXIT_USAGE; returns -1 when it is not one of them. */
int iks_shared_opt(const char *cmd, int argc, char **argv, int *i, iks_shared_opts *o);

/* Loads path (a file with --channelN specs, a shadertoy.com JSON, or a directory toy) into tf and
 * builds its passes into toy at w x h, printing only warnings. 0 on success; else EXIT_USAGE (a bad
 * --channel) or EXIT_FAIL, with *msg (malloc'd) the mapped compile errors or one reason. tf and toy are
 * the caller's to free, also after a failure (toy->files then lists the files read so far). */
int iks_toy_load(const char *path, const iks_shared_opts *s, int w, int h, iks_toyfile *tf, iks_gltoy *toy,
                 char **msg);
/* Prints iks_toy_load's message: compile errors as they are (compiler-style lines), else one line. */
void iks_print_build_error(const char *cmd, const char *msg);
/* iks_toy_load, then the message printed; returns the exit code (0 on success). */
int iks_toy_build(const char *cmd, const char *path, const iks_shared_opts *s, int w, int h, iks_toyfile *tf,
                  iks_gltoy *toy);

/* --glsl: 0 auto (GLSL ES 3.00 for a shadertoy.com JSON, 3.30 core for a file), 1 es, 2 330 */
enum { IKS_GLSL_AUTO, IKS_GLSL_ES, IKS_GLSL_330 };
/* Parses --glsl's value; -1 when it is none of auto, es, 330. */
int iks_glsl_parse(const char *v);

#endif
