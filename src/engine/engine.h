/* engine.h: what the engine's files share: the handles behind the public API and the step that turns
 * an internal iks_err into the calling thread's last error. Nothing outside src/engine includes this. */
#ifndef IKS_ENGINE_H
#define IKS_ENGINE_H

#include "base/clock.h"
#include "base/err.h"
#include "gpu/gpu.h"
#include "platform/platform.h"
#include "gpu/toy.h"
#include "toy/toyfile.h"

#include <stddef.h>
#include <pthread.h>
#include <sys/types.h>
#include <stdint.h>

struct iks_engine {
    iks_platform *plat;     /* the context's table: ours (headless) or the caller's window */
    bool own_plat;          /* destroy plat with the engine */
    iks_logger log;
    const char *shader_dir; /* NULL when none was found */
    char *shader_dir_owned;
    /* the host contract (iks_engine_enter): calls in progress on this engine, what was current when
     * the outermost began, what is current when ours is, and a host context's GL state */
    int depth;
    bool switched;          /* the outermost call made ours current over the caller's */
    iks_current caller, mine;
    char renderer[256], gl_version[256]; /* GL's strings, kept: ours is not current after a call */
    iks_glstate host_state; /* plat NULL: the caller's context, whose state every call gives back */
    /* toys keep their engine alive (their GL objects are names in its context): an engine destroyed
     * while toys live is released by the last toy's iks_toy_destroy */
    long toys;
    bool destroyed;
    size_t media_budget;    /* iks_engine_desc's, for each toy's spec */
    /* the process that made it: in a child forked from it the context and the driver's threads are
     * the parent's (iks_engine_forked) */
    pid_t pid;
    /* the thread rule: depth and owner under busy (a call from another thread reads them) */
    pthread_mutex_t busy;
    pthread_t owner;        /* the thread whose call is in progress, while depth > 0 */
};

struct iks_toy {
    iks_engine *e;
    iks_toyfile tf;         /* the description and the strings it points into */
    char *path;             /* its main file as the description named it (a shader, JSON or directory;
                             * the limb demo's), NULL for text without a name: what outputs must spare */
    iks_gltoy gl;           /* the passes, built */
    iks_target out8, outf;  /* iks_toy_draw's targets, made at the size asked */
    const iks_target *image; /* the one the last draw drew (iks_toy_image_texture); NULL before */
    uint8_t *scratch;       /* iks_toy_draw's readback, bottom row first, kept between draws */
    size_t scratch_cap;
    int es_issues;          /* what the GLSL ES check found at load; -1: not checked */
};

/* Checks every Shadertoy pass of d as shadertoy.com's GLSL ES 3.00 (strict.c): glslangValidator where
 * installed, else the GL's own ES compiler for a toy built as 3.30. What it rejects goes to log as
 * compiler-style warnings in the user's files. Returns how many errors it found, -1 when nothing was
 * checked (no validator; no pass the site could run: own main(), or #include). Never fails a load. */
int iks_es_check(const iks_spec *d, const iks_source_opts *base, const iks_logger *log);

/* Moves e into the calling thread's last error and returns its code (IKS_OK leaves it untouched). */
iks_code iks_publish(iks_err *e);
/* A usage error straight into the thread's last error: for checks at the API's door. */
iks_code iks_fail_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same about one field of the caller's (iks_err_field: "FIELD VALUE: REASON"; value may be NULL) */
iks_code iks_fail_field(const char *field, const char *value, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The caller's d read by its struct_size into copy (iks_desc_take), then checked with its settings
 * parsed into *sets (iks_toy_desc_sets): what iks_toy_check, iks_toy_load and iks_toy_describe begin
 * with. false with the error; *sets is then NULL. */
bool iks_toy_desc_take(const iks_toy_desc *d, iks_toy_desc *copy, iks_setting **sets, iks_err *err);
/* How many settings iks_toy_desc_sets makes of d: its sets, then its typed values */
static inline int iks_toy_desc_nsettings(const iks_toy_desc *d)
{
    return (d->nsets > 0 ? d->nsets : 0) + (d->nvalues > 0 ? d->nvalues : 0);
}
/* The desc's settings parsed (NULL with none), sets then values; false with IKS_E_USAGE naming the bad one. */
bool iks_toy_desc_sets(const iks_toy_desc *d, iks_setting **out, iks_err *err);
/* The desc's main file: its path, or the limb demo's (in buf) when it names neither a path nor source;
 * NULL for source text without a name, or with IKS_E_IO when there is no shaders directory. */
const char *iks_toy_desc_path(const iks_engine *e, const iks_toy_desc *d, char *buf, size_t n, iks_err *err);
/* The same with the demo shaders in shader_dir (NULL: none), for a check that has no engine */
const char *iks_toy_desc_path_in(const char *shader_dir, const iks_toy_desc *d, char *buf, size_t n, iks_err *err);

/* The one builder (toyspec.c): d's file, JSON, directory or text read into tf's spec (the limb demo in
 * shader_dir where d names none), with what d says over what the file says (glsl, sound_only,
 * cube_size). d is checked first by iks_toy_desc_sets. false with the loader's error; tf then holds
 * nothing. */
bool iks_toy_spec_build(const iks_toy_desc *d, const char *shader_dir, iks_toyfile *tf, iks_err *err,
                        const iks_logger *log);
/* The include search of d's passes (its include_dirs, then shader_dir) and its override, into base;
 * base->include_dirs is malloc'd (the caller frees it). false: IKS_E_NOMEM. */
bool iks_toy_source_base(const iks_toy_desc *d, const char *shader_dir, iks_source_opts *base, iks_err *err);
/* The built-in uniform called name (or an alias of one: *alias_of then is name); NULL for another */
const iks_builtin *iks_builtin_named(const char *name, const char **alias_of);
/* A GLSL base type as the public API names it */
iks_uniform_type iks_public_uniform_type(iks_ubase b);

/* Whether e was made by another process than this one: a child forked after it was made. Its GL
 * context, its driver's threads and its decoders are the parent's: calls refuse to run (iks_engine_enter
 * says why) and destroying it or its toys frees nothing of theirs (the child's exit does). */
bool iks_engine_forked(const iks_engine *e);

/* Loads and builds a toy without applying its settings (the live loop applies them leniently). */
bool iks_toy_open(iks_engine *e, const iks_toy_desc *d, iks_toy **out, iks_err *err);

/* The host contract: every entry point that uses GL runs between enter and leave. The outermost enter
 * saves what the caller has current and makes e's context current (releasing first a context of the
 * other API, which glvnd would refuse beside ours); leave makes the caller's current again. On an engine
 * without a context of its own (get_proc) they save the caller's GL state, set what drawing needs, and
 * give the state back. Calls nest (an entry point calling another, iks_engine_bind around calls): only
 * the outermost pair switches. The engine is const in some entry points (a query); its bookkeeping
 * is not part of what they promise to leave alone. */
bool iks_engine_enter(const iks_engine *e, iks_err *err);
void iks_engine_leave(const iks_engine *e);
/* Around a callback inside a call (a render's progress): pause makes the caller's context current as
 * it was (or gives a host context its GL state back), so that the callback may draw with it (over our
 * EGL context glvnd would end the program at its glXMakeCurrent); resume takes ours again (saving the
 * state the callback left, to give back at the end). false with err set when ours is refused. */
void iks_engine_pause(const iks_engine *e);
bool iks_engine_resume(const iks_engine *e, iks_err *err);
/* Makes e's context current again inside a call, after a callback that may have used another engine or
 * its own context; false with err set when the window system refuses. */
bool iks_engine_rebind(const iks_engine *e, iks_err *err);

/* A description struct as the caller gave it, read into copy (of this library's size) by the policy of
 * docs/DESIGN-NOTES.md ("ABI and SONAME"): struct_size 0 is the first sized layout (first bytes), a
 * smaller size than that is refused, a larger one is a newer header's and read when the members this
 * library does not know are zero. Members past the caller's size read as 0 (their default). false with
 * IKS_E_USAGE about "struct_size" (prefixed by type) in err. */
bool iks_desc_take(const void *d, size_t size, size_t first, const char *type, void *copy, iks_err *err);
/* The largest struct_size read: no description comes near it */
#define IKS_DESC_MAX 4096
/* The bytes of a type's description (its name: "iks_toy_desc") of struct_size size that the library
 * reads: size, or less where an older header of that size ended in padding that a later one used. */
size_t iks_desc_readable(const char *type, size_t size);
/* A struct the library fills for the caller (full, size bytes, its first member struct_size) given
 * into out as the caller's struct_size says it has room for: never a byte past it, whatever this
 * library's layout has grown to (0: the first sized layout, first bytes). false with IKS_E_USAGE about
 * "struct_size" when out is smaller than a size_t. */
bool iks_out_give(void *out, const void *full, size_t size, size_t first, const char *type, iks_err *err);
/* The end of member m in T: the first sized layout's size is the end of its last member then, a number
 * that stays when members are added (tail padding is not part of what the library reads) */
#define IKS_SIZE_TO(T, m) (offsetof(T, m) + sizeof(((T *)0)->m))
/* Each description's first sized layout (0.2.0: struct_size 0 means this): FROZEN, a member added
 * later is not in it. */
#define IKS_FIRST_WINDOW_DESC IKS_SIZE_TO(iks_window_desc, no_vsync)
#define IKS_FIRST_ENGINE_DESC IKS_SIZE_TO(iks_engine_desc, log_user)
#define IKS_FIRST_TOY_DESC IKS_SIZE_TO(iks_toy_desc, sound_only)
#define IKS_FIRST_RENDER_DESC IKS_SIZE_TO(iks_render_desc, quality)
/* iks_toy_desc as 0.2.0 had it (before values and nvalues): the size of the toy inside an older
 * header's iks_live_desc, whose first layout ended at mute that much earlier (live.c moves it) */
#define IKS_TOY_DESC_0 offsetof(iks_toy_desc, values)
#define IKS_FIRST_LIVE_DESC (IKS_SIZE_TO(iks_live_desc, mute) - (sizeof(iks_toy_desc) - IKS_TOY_DESC_0))
#define IKS_FIRST_IMPORT_DESC IKS_SIZE_TO(iks_import_desc, log_user)
#define IKS_FIRST_DRAW_DESC IKS_SIZE_TO(iks_draw_desc, h)
#define IKS_FIRST_CHANNEL_DESC IKS_SIZE_TO(iks_channel_desc, stride)
/* iks_uniform_info as 0.2.0's first header had it, before initial, color and declared: what the exported
 * iks_toy_uniform_info writes, not knowing its caller's size */
#define IKS_FIRST_UNIFORM_INFO IKS_SIZE_TO(iks_uniform_info, step)
/* iks_render_stats as 0.3.0 has it: what iks_render writes when iks_render_desc.stats_size is 0 */
#define IKS_FIRST_RENDER_STATS IKS_SIZE_TO(iks_render_stats, height)
/* the structs the library fills (iks_out_give), 0.2.0's */
#define IKS_FIRST_PASS_INFO IKS_SIZE_TO(iks_pass_info, channels)
#define IKS_FIRST_CHANNEL_INFO IKS_SIZE_TO(iks_channel_info, sampler)
#define IKS_FIRST_DECLARED_UNIFORM IKS_SIZE_TO(iks_declared_uniform, initial)
/* `if (!IKS_TAKE(T, d, &copy, FIRST, &err)) return iks_publish(&err); d = &copy;` in one: d NULL passes */
#define IKS_TAKE(T, d, copy, first, err) (!(d) || iks_desc_take((d), sizeof(T), (first), #T, (copy), (err)))

/* The uniforms of a frame from the public description. */
void iks_frame_from_info(iks_frame *f, const iks_frame_info *fi);

/* what drawing a sound shader alone is told */
#define IKS_NO_PICTURE "a sound shader (mainSound and no mainImage) has no picture: render it to a .wav"

/* iks_setting_parse, and what it lets through that no frame could honour: a value a float cannot hold
 * (the shader would see Inf) and a built-in uniform (set by ikshade before every draw) */
bool iks_setting_check(const char *arg, iks_setting *s, iks_err *err);


/* Replay (inputlog.c): the uniforms of render frame i of a width x height render at fps, from the log */
void iks_input_log_frame(const iks_input_log *l, double fps, long i, int width, int height, iks_frame_info *fi);
/* The keys that changed at or before render frame i, from index from on: returns the next index after
 * one key (filling code and down), or -1 when none is due */
/* A hash of everything replay reads from the log (frames, keys and parameters; not its --set lines) */
uint64_t iks_input_log_hash(const iks_input_log *l);
long iks_input_log_keys(const iks_input_log *l, double fps, long i, long from, int *code, bool *down);
/* The parameter changes (u lines) at or before render frame i, from index from on, as iks_input_log_keys:
 * the next index after one change (*s, owned by l), or -1 when none is due */
long iks_input_log_params(const iks_input_log *l, double fps, long i, long from, const iks_setting **s);
/* how many u lines the log has, and the i-th's setting (0 <= i < count) */
long iks_input_log_param_count(const iks_input_log *l);
/* The recorded live channels (c lines): how many; and channel of the pass at slot, if recorded: its
 * file (beside the log) and the session's second it starts at */
int iks_input_log_live_count(const iks_input_log *l);
double iks_input_log_itime0(const iks_input_log *l); /* the first frame's iTime: replay's time runs on from it */
bool iks_input_log_live(const iks_input_log *l, int slot, int channel, const char **path, double *t0);
const iks_setting *iks_input_log_param(const iks_input_log *l, long i);
/* The file l was loaded from (iks_input_log_load), NULL for one parsed from text: an output must not
 * replace the recording it replays */
const char *iks_input_log_path(const iks_input_log *l);
/* Whether the regular file at path may be replaced by a new recording: it is empty, or it is one (its
 * first line that is not blank or a comment is the header). Anything else, a file that cannot be read
 * included, is someone's other file. */
bool iks_input_log_replaceable(const char *path);

#endif
