/* source.h: turning a user's shader file into the GLSL we compile, and the driver's log back into the
 * user's terms. Text only: no GL here, so all of it is testable without a context.
 *
 * Assembly: the file's #include "x" lines are expanded (relative to the including file, then the
 * include dirs in order). Every line of the assembled text remembers which file and line it came
 * from, and the driver's (line) in a log is looked up there: no reliance on `#line` source numbers,
 * which Mesa, for one, leaves out of its logs. A file already included is skipped the second time (like
 * #pragma once, so diamonds work); a file that includes itself through a chain is an error naming
 * the chain. A Shadertoy file (mainImage, no main) gets the version line, the Shadertoy uniforms and a
 * main(); a file with its own main() is compiled as written. Errors come back as an iks_err. */
#ifndef IKS_SOURCE_H
#define IKS_SOURCE_H

#include "base/buf.h"
#include "base/err.h"
#include "base/files.h"

#include <stdbool.h>
#include <stddef.h>

/* Which function a Shadertoy pass defines, and so which main() wraps it */
typedef enum {
    IKS_ENTRY_IMAGE,   /* void mainImage(out vec4, in vec2): Image and Buffers A-D */
    IKS_ENTRY_CUBEMAP, /* void mainCubemap(out vec4, in vec2, in vec3 rayOri, in vec3 rayDir): Cube A, drawn once
                        * per face with the face's corners as a uniform (glsl/uniforms.h) */
    IKS_ENTRY_SOUND,   /* vec2 mainSound(int samp, float time), or the older mainSound(float time): samples
                        * laid out 512 a row from the block's first sample, (left, right) in .rg */
} iks_entry;

typedef struct {
    /* Where files come from: the layer opens nothing itself (base/files.h). NULL: no files, only the
     * text given here (an #include is then not found). The engine hands iks_disk_files(). */
    const iks_files *files;
    const char *const *include_dirs; /* searched in order after the including file's directory */
    int n_include_dirs;
    /* Replaces one include name with a file: `#include "ik.glsl"` -> --solver FILE. May be NULL. */
    const char *override_name;
    const char *override_path;
    /* Source text for the main file instead of reading path (path still names it in messages and its
     * directory is searched first for #include; a path beginning with '<', such as "<memory>", names
     * no file and has no directory); may be NULL. */
    const char *text;
    /* Shadertoy's Common tab: a file (or text named by it) put before the main file, its lines mapped
     * to it; both may be NULL. */
    const char *common_path;
    const char *common_text;
    /* A toy from anywhere (a JSON, a directory) may read only its own files: when set, a file that an
     * #include finds beside the including file, or names by an absolute path, must lie inside this
     * directory (links resolved). Files found in include_dirs, which the user or ikshade named, may
     * lie anywhere. */
    const char *confine_dir;
    /* The directory that text and common_text (given as text, from a JSON) #include relative to;
     * NULL: their path's, as for files */
    const char *text_dir;
    /* A Shadertoy file is compiled as WebGL2's GLSL ES 3.00 (#version 300 es, highp defaults) instead
     * of GLSL 3.30 core. Only where the context accepts it: see iks_gpu_has_es3. */
    bool es;
    /* Channels declared samplerCube instead of sampler2D (a cubemap input) */
    bool cube[4];
    /* Channels declared sampler3D (a volume input) */
    bool volume[4];
    iks_entry entry; /* the Shadertoy entry point wrapped (ignored for a file with its own main()) */
    /* A Buffer A-D pass: mainImage is wrapped as for the Image, but the site puts fewer lines before
     * it, which __LINE__ counts */
    bool buffer;
    /* Optional: told of every file read (exists true) and of every path an #include looked for in vain
     * (false), on failure too, so that a viewer can wait for the save (or the new file) that fixes it. */
    void (*touched)(void *user, const char *path, bool exists);
    void *touched_user;
} iks_source_opts;

typedef struct {
    char *fragment;  /* the assembled fragment shader */
    char *vertex;    /* a full-screen triangle, same #version */
    char **files;    /* every file read: files[0] is IKS_PRELUDE_NAME, files[1] the main file */
    int nfiles;
    int *map_file;   /* per line of fragment: index into files, or IKS_WRAPPER */
    int *map_line;   /* per line of fragment: the line in that file */
    int nlines;
    int main_file;   /* index in files of the main file (after Common's, when there is one) */
    bool shadertoy;  /* mainImage wrapped by our main() */
    bool image_unseen; /* ... though no definition of mainImage was seen: a compile that fails for want
                          of it says that the file defines neither */
    iks_entry entry;   /* which entry point was wrapped (mainImage, mainCubemap or mainSound) */
    bool sound_seen;   /* the text defines a function named mainSound (outside skipped groups) */
    struct iks_param *params; /* the #iUniform lines seen outside skipped groups, each name once (glsl/params.h) */
    int nparams;
    char version[64];
} iks_source;

/* Reads and assembles. A file that seems to define neither mainImage nor main() is still assembled
 * with the wrapper (a macro may define mainImage): the compiler decides. On failure returns false with a one-line message naming the file:
 *   IKS_E_IO          a file that cannot be read or found, or one over 16 MiB
 *   IKS_E_FORMAT      a binary file (NUL bytes), a malformed #include, an include not found, an include
 *                     cycle, includes nested too deep or too many of them
 *   IKS_E_NOMEM       out of memory
 * The result is owned by src: release with iks_source_free (safe on a zeroed or failed src). */
bool iks_source_load(iks_source *src, const char *path, const iks_source_opts *opts, iks_err *e);
void iks_source_free(iks_source *src);

/* The name of the lines ikshade adds (its prelude) in a source's file list: never the user's, whatever
 * the user's own files are called ("<memory>" for text in memory is theirs) */
#define IKS_PRELUDE_NAME "<prelude>"

/* WebGL's zero-initialisation as source text (zeroinit.c): the text with an initialiser of zero for each
 * declared variable that has none and each `out` parameter, without adding lines. NULL when out of memory. */
char *iks_zero_init(const char *text);
/* The site's default return as source text (zeroinit.c): each non-void function whose body's last
 * statement is not a return gets `return <zero of its type>;` before its closing `}`, as ANGLE gives it,
 * without adding lines. NULL when out of memory. */
char *iks_default_returns(const char *text);
/* WebGL's clamping of dynamic indices as source text (indexclamp.c): each non-constant index of an array,
 * vector or matrix whose declaration the scan saw becomes `clamp(int(i), 0, N - 1)`, without adding
 * lines. NULL when out of memory. */
char *iks_clamp_indices(const char *text);
/* Built-ins of constant arguments folded as the site's compiler folds them (constfold.c): a call such
 * as acos(0.5) or sin(PI / 4.0) (PI a file-scope const or object-like macro) on one line, in the text or
 * in a #define's body, becomes its correctly rounded value, 1.04719758. NULL when out of memory. */
char *iks_fold_constants(const char *text);
/* A space before each call of a function-like macro that follows an operator character, so that Mesa's
 * preprocessor cannot glue the expansion to it (`-D2R(-1.0)` into `--1.0`). NULL when out of memory. */
char *iks_space_macro_calls(const char *text);

#define IKS_WRAPPER (-1) /* the main() that wraps mainImage */
/* Where line `line` (1-based) of the assembled fragment came from: *path NULL for the wrapper. */
bool iks_source_where(const iks_source *src, int line, const char **path, int *file_line);

/* One line of a driver's info log, in any of the formats we know:
 *   Mesa        0:12(7): error: message
 *   NVIDIA      0(12) : error C0000: message
 *   ANGLE/AMD   ERROR: 0:12: message     (also WARNING:)
 * Returns false if the line is none of them. sev gets "error" or "warning"; msg points into line. */
typedef struct {
    int id, line, col; /* col 0 when the driver gives none */
    char sev[16];
    const char *msg;
} iks_log_line;
bool iks_log_parse(const char *line, iks_log_line *out);

/* The whole log rewritten as `path:line:col: error: message` lines (col left out when unknown), the
 * driver's line numbers looked up in the source's line map (the ids they carry are ignored);
 * lines we cannot parse are kept, prefixed with the main file's path. Returns malloc'd text. */
char *iks_log_map(const char *log, const iks_source *src);

/* The lines of mapped (iks_log_map's text) that are not yet in *said, in order, each ending in '\n';
 * they are added to *said. A toy's passes share Common, so the compiler says the same warning at
 * `json[Common]:line` once per pass: a toy keeps one said list across its passes to report it once.
 * Lines are compared whole (path, line, column where the driver gives one, message), so a log without
 * columns (NVIDIA's) is deduplicated as well as Mesa's. NULL when out of memory. */
char *iks_log_unsaid(const char *mapped, iks_sbuf *said);

/* Whether the text ikshade adds around a pass (every prelude: image, cube, sound) declares a uniform
 * called name: ikshade sets those itself before every draw. */
bool iks_prelude_declares(const char *name);

/* Uniform declarations found in the assembled fragment source (comments skipped). */
typedef enum { IKS_U_FLOAT, IKS_U_INT, IKS_U_UINT, IKS_U_BOOL, IKS_U_OTHER } iks_ubase;
typedef struct {
    char name[64];
    char type[32]; /* as written: vec3, int, sampler2D, ... */
    iks_ubase base;
    int comps;     /* 1..4 for scalars and vectors, 0 for anything else */
    bool array;
} iks_udecl;
/* Fills up to max declarations; returns how many there are (may exceed max). */
int iks_uniform_decls(const char *glsl, iks_udecl *out, int max);

/* Whether a component of base b can hold v: NULL when it can, otherwise why not, worded to follow
 * "value N (V) is ": "not a finite number", "beyond a float's range (at most 3.40282e+38 either way)",
 * "not a whole number", "beyond an int's range (-2147483648 to 2147483647)", "beyond an unsigned int's
 * range (0 to 4294967295)", "neither true nor false (1 or 0)". The one rule for every way a value
 * reaches a uniform: an #iUniform's default, range and step (params.c), --set, a recording's set lines,
 * a desc's sets and values and the typed setters (gpu.c's iks_program_apply, engine's checks), so a
 * value refused one way is refused the others, in the same words. */
const char *iks_ubase_refuses(iks_ubase b, double v);

#endif
