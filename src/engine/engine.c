/* engine.c: the public API's core: the thread's last error, the engine (a GL context and where the
 * shaders are), toys (loading, settings, drawing into memory), windows, and the small helpers an
 * embedding program needs. Rendering to files is render.c, the live loop live.c, the probe probe.c. */
#include "engine/engine.h"
#include "base/aslimit.h"
#include "engine/checkpoint.h"
#include "glsl/uniforms.h"
#include "base/userfile.h"
#include "base/buf.h"
#include "base/stop.h"
#include "base/strutil.h"

#include "io/pngio.h"
#include "media/analyser.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef IKSHADE_VERSION
#define IKSHADE_VERSION "0.0.0"
#endif

const char *iks_version(void) { return IKSHADE_VERSION; }

#ifdef IKS_BUILD_VERSION_NUMBER
/* the header is written by hand and the project's version in CMakeLists.txt: a bump of one alone
 * stops the build here, not a program comparing numbers later */
_Static_assert(IKS_BUILD_VERSION_NUMBER == IKS_VERSION_NUMBER,
               "ikshade.h's IKSHADE_VERSION_* differ from CMakeLists.txt's project(VERSION)");
int iks_version_number(void) { return IKS_BUILD_VERSION_NUMBER; }
#else
int iks_version_number(void) { return IKS_VERSION_NUMBER; }
#endif

void iks_interrupt(void) { iks_stop_request(); }
void iks_interrupt_reset(void) { iks_stop_reset(); }
void iks_remove_temporaries(void) { iks_outfile_remove_temporaries(); }
bool iks_outputs_finishing(void) { return iks_outfile_finishing(); }

/* ---- errors ------------------------------------------------------------------------------------ */

static _Thread_local iks_err last_error;

static const char *const CODE_NAMES[] = {
#define IKS_NAME_(e, s) s,
    IKS_ERROR_LIST(IKS_NAME_)
#undef IKS_NAME_
};

const char *iks_code_name(iks_code c)
{
    return (unsigned)c < IKS_CODE_COUNT ? CODE_NAMES[c] : "?";
}

iks_code iks_last_error(const char **message)
{
    if (message) *message = iks_err_msg(&last_error);
    return last_error.code;
}

const char *iks_last_error_field(const char **reason)
{
    if (reason) *reason = iks_err_reason(&last_error);
    return last_error.field;
}

void iks_clear_error(void) { iks_err_clear(&last_error); }

/* A thread's last error is freed when the thread ends (a host's worker that met one error would
 * otherwise leave its message behind): a key whose destructor clears it, set once per thread */
static pthread_key_t last_error_key;
static void clear_at_exit(void *p) { iks_err_clear(p); }
static void make_key(void) { (void)pthread_key_create(&last_error_key, clear_at_exit); }

iks_code iks_publish(iks_err *e)
{
    iks_code c = e->code;
    if (c == IKS_OK) return IKS_OK;
    /* out of memory under an address-space limit: the limit is the likely why, so the line says so */
    iks_as_room r;
    if (c == IKS_E_NOMEM && e->msg && !strstr(e->msg, "address-space limit") && iks_as_room_now(&r)) {
        char more[128];
        snprintf(more, sizeof more, " (under the address-space limit, ulimit -v %zu: raise or lift it)", r.limit / 1024);
        iks_err_suffix(e, more);
    }
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_key);
    if (!pthread_getspecific(last_error_key)) (void)pthread_setspecific(last_error_key, &last_error);
    iks_err_move(&last_error, e);
    return c;
}

iks_code iks_fail_field(const char *field, const char *value, const char *fmt, ...)
{
    char reason[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    iks_err e = IKS_ERR_INIT;
    iks_err_field(&e, IKS_E_USAGE, field, value, "%s", reason);
    return iks_publish(&e);
}

iks_code iks_fail_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    iks_err e = IKS_ERR_INIT;
    iks_err_vset(&e, IKS_E_USAGE, fmt, ap);
    va_end(ap);
    return iks_publish(&e);
}

/* Sizes an older header gave a description whose last bytes were tail padding, where a later header of
 * the same size put a member (toy cube_size, render cube_strips, both in 0.2.0): the library cannot tell
 * the two apart, and an FFI binding or a struct filled with memset leaves such padding non-zero, so it
 * reads a struct of that size to the end of the older layout's last member. FROZEN: the sizes 0.2.0's
 * sized headers wrote. A layout of this header never takes one of these sizes (the asserts below), which
 * is why iks_render_desc grew past 184 with stats_size. */
static const struct {
    const char *type;
    size_t size, used;
} PADDED_LAYOUTS[] = {
    { "iks_toy_desc", 144, 137 },    /* to sound_only; cube_size came into its padding */
    { "iks_render_desc", 184, 180 }, /* to quality; cube_strips came into its padding */
};

_Static_assert(sizeof(iks_toy_desc) != 144, "iks_toy_desc: 144 bytes is an older layout's size: grow it further");
_Static_assert(sizeof(iks_render_desc) != 184, "iks_render_desc: 184 bytes is an older layout's size: grow it further");

size_t iks_desc_readable(const char *type, size_t size)
{
    for (size_t i = 0; i < sizeof PADDED_LAYOUTS / sizeof *PADDED_LAYOUTS; i++)
        if (PADDED_LAYOUTS[i].size == size && !strcmp(PADDED_LAYOUTS[i].type, type)) return PADDED_LAYOUTS[i].used;
    return size;
}

bool iks_desc_take(const void *d, size_t size, size_t first, const char *type, void *copy, iks_err *err)
{
    size_t n;
    memcpy(&n, d, sizeof n); /* struct_size is every description's first member */
    char v[32];
    snprintf(v, sizeof v, "%zu", n);
    if (n == 0) n = first;   /* a zero-initialised struct: the layout the field came with */
    if (n < first)
        return iks_err_field(err, IKS_E_USAGE, "struct_size", v, "%s is at least %zu bytes; set it with IKS_DESC_SIZE(%s)",
                             type, first, type);
    /* no header will make a description this large: the bytes are not a size (a struct from before
     * struct_size, whose first member is a pointer, or garbage), and reading that far to check them
     * would read past the caller's memory */
    if (n > IKS_DESC_MAX)
        return iks_err_field(err, IKS_E_USAGE, "struct_size", v,
                             "not the size of any %s (at most %d bytes); set it with IKS_DESC_SIZE(%s) (a program built "
                             "against a header without struct_size needs rebuilding)",
                             type, IKS_DESC_MAX, type);
    /* a newer header's struct: what it adds must be left at its default, zero, for this library to
     * do what the caller asked */
    for (size_t i = size; i < n; i++)
        if (((const unsigned char *)d)[i])
            return iks_err_field(err, IKS_E_USAGE, "struct_size", v,
                                 "this library (%s) knows %zu bytes of %s, and members past them are set: a newer "
                                 "header's, which it cannot do",
                                 IKSHADE_VERSION, size, type);
    size_t have = iks_desc_readable(type, n);
    memset(copy, 0, size);
    memcpy(copy, d, have < size ? have : size);
    memcpy(copy, &size, sizeof size);
    return true;
}

bool iks_out_give(void *out, const void *full, size_t size, size_t first, const char *type, iks_err *err)
{
    size_t n;
    memcpy(&n, out, sizeof n);
    if (n == 0) n = first; /* zeroed: the layout the struct came with */
    if (n < sizeof n) {
        char v[32];
        snprintf(v, sizeof v, "%zu", n);
        return iks_err_field(err, IKS_E_USAGE, "struct_size", v, "%s is at least %zu bytes; set it with IKS_DESC_SIZE(%s)",
                             type, first, type);
    }
    /* the caller's struct_size stays; what this library knows past the caller's size is not written */
    size_t k = n < size ? n : size;
    memcpy((char *)out + sizeof n, (const char *)full + sizeof n, k - sizeof n);
    return true;
}

/* ---- the shaders directory --------------------------------------------------------------------- */

static bool is_dir_with_ik(const char *d)
{
    char p[PATH_MAX + 16];
    struct stat st;
    snprintf(p, sizeof p, "%.*s/ik.glsl", PATH_MAX - 1, d);
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* <dir of file>/<rel>, if it holds ik.glsl */
static bool beside(const char *file, const char *rel, char *out, size_t n)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", file);
    char *slash = strrchr(buf, '/');
    if (!slash) return false;
    *slash = '\0';
    snprintf(out, n, "%.3000s/%s", buf, rel);
    return is_dir_with_ik(out);
}

const char *iks_find_shader_dir(void)
{
    /* found once per process: the answer cannot change while it runs */
    static char dir[PATH_MAX];
    if (dir[0]) return dir;
    const char *env = getenv("IKSHADE_SHADERS");
    if (env && *env && is_dir_with_ik(env)) return snprintf(dir, sizeof dir, "%s", env), dir;
    char cand[PATH_MAX];
    /* the library's own file: <libdir>/libikshade.so -> <libdir>/../share/ikshade/shaders, wherever the
     * prefix was moved to; the program using it may live anywhere (python3, say) */
    Dl_info info;
    if (dladdr((void *)iks_find_shader_dir, &info) && info.dli_fname && strchr(info.dli_fname, '/')) {
        char real[PATH_MAX];
        const char *f = realpath(info.dli_fname, real) ? real : info.dli_fname;
        if (beside(f, "../share/ikshade/shaders", cand, sizeof cand)) return snprintf(dir, sizeof dir, "%s", cand), dir;
    }
    /* a library in its build tree: the sources it was built from */
#ifdef IKS_SOURCE_SHADERS
    if (is_dir_with_ik(IKS_SOURCE_SHADERS)) return snprintf(dir, sizeof dir, "%s", IKS_SOURCE_SHADERS), dir;
#endif
#ifdef IKS_INSTALL_SHADERS
    if (is_dir_with_ik(IKS_INSTALL_SHADERS)) return snprintf(dir, sizeof dir, "%s", IKS_INSTALL_SHADERS), dir;
#endif
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        if (beside(exe, "../share/ikshade/shaders", cand, sizeof cand) || beside(exe, "shaders", cand, sizeof cand))
            return snprintf(dir, sizeof dir, "%s", cand), dir;
    }
    return NULL;
}

/* ---- the engine -------------------------------------------------------------------------------- */

iks_code iks_engine_create(const iks_engine_desc *d, iks_engine **out)
{
    static const iks_engine_desc none;
    if (!d) d = &none;
    if (!out) return iks_fail_usage("iks_engine_create: out is NULL");
    *out = NULL;
    iks_err err = IKS_ERR_INIT;
    iks_engine_desc dc;
    if (!IKS_TAKE(iks_engine_desc, d, &dc, IKS_FIRST_ENGINE_DESC, &err)) return iks_publish(&err);
    d = &dc;
    iks_engine *e = calloc(1, sizeof *e);
    if (!e) return iks_err_set(&err, IKS_E_NOMEM, "out of memory"), iks_publish(&err);
    e->log = (iks_logger){ d->log, d->log_user };
    e->media_budget = d->media_budget;
    e->pid = getpid();
    pthread_mutex_init(&e->busy, NULL);
    /* the caller's context, current again when this returns, whatever happens */
    iks_current caller;
    iks_current_save(&caller);
    if (d->shader_dir) {
        e->shader_dir = e->shader_dir_owned = strdup(d->shader_dir);
        if (!e->shader_dir_owned) {
            free(e);
            iks_err_set(&err, IKS_E_NOMEM, "out of memory");
            return iks_publish(&err);
        }
    } else e->shader_dir = iks_find_shader_dir();
    iks_gl_proc (*get_proc)(const char *) = d->get_proc;
    if (d->window) {
        if (!d->window->get_proc_address) {
            iks_err_set(&err, IKS_E_USAGE, "iks_engine_desc.window: %s has no get_proc_address",
                        d->window->name ? d->window->name : "the window");
            goto fail;
        }
        e->plat = d->window;
        get_proc = d->window->get_proc_address;
        if (d->window->make_current) {
            /* its API is not known yet: the caller's context is released whatever it is */
            iks_current_release(&caller);
            if (!d->window->make_current(d->window)) {
                iks_err_set(&err, IKS_E_GL, "%s: cannot make its GL context current",
                            d->window->name ? d->window->name : "window");
                goto fail;
            }
        }
    } else if (!get_proc) {
        /* glvnd refuses an EGL context over a GLX one (EGL_BAD_ACCESS) */
        iks_current_release(&caller);
        e->plat = iks_egl_create(&err);
        if (!e->plat) goto fail;
        e->own_plat = true;
        get_proc = e->plat->get_proc_address;
    }
    if (!iks_gpu_load(get_proc, &err)) {
        if (e->own_plat) iks_err_prefix(&err, "(platform: %s) ", e->plat->name);
        goto fail;
    }
    if (e->plat) iks_current_save(&e->mine);
    iks_current_restore(&caller);
    *out = e;
    return IKS_OK;
fail:
    iks_engine_destroy(e);
    iks_current_restore(&caller);
    return iks_publish(&err);
}

static bool make_ours_current(iks_engine *e, iks_err *err)
{
    iks_current now;
    iks_current_save(&now);
    if (iks_current_same(&now, &e->mine)) return true;
    if (now.api != IKS_API_NONE && now.api != e->mine.api) iks_current_release(&now);
    if (!e->plat->make_current(e->plat))
        return iks_err_set(err, IKS_E_GL, "%s: cannot make its GL context current", e->plat->name ? e->plat->name : "window");
    return true;
}

bool iks_engine_forked(const iks_engine *e) { return e && e->pid != getpid(); }

/* The thread rule at the door: a call in progress on one thread (depth > 0) makes a call from another
 * thread a usage error, never GL calls on a context current elsewhere. 1: the outermost call on this
 * thread (depth 0 -> 1), 0: nested, -1: refused (busy on another thread). */
static int claim(iks_engine *e)
{
    pthread_mutex_lock(&e->busy);
    int r = e->depth > 0 && !pthread_equal(e->owner, pthread_self()) ? -1 : e->depth == 0 ? 1 : 0;
    if (r >= 0 && e->depth++ == 0) e->owner = pthread_self();
    pthread_mutex_unlock(&e->busy);
    return r;
}

/* One call out; true when it was the outermost (depth back to 0). Never below 0. */
static bool unclaim(iks_engine *e)
{
    pthread_mutex_lock(&e->busy);
    bool last = e->depth > 0 && --e->depth == 0;
    pthread_mutex_unlock(&e->busy);
    return last;
}

/* iks_engine_enter, saying which way it failed: 1 entered, 0 refused before any GL (a forked child, a
 * call in progress on another thread: the caller must do no GL work), -1 ours could not be made current */
static int enter(iks_engine *e, iks_err *err)
{
    /* before any GL call: in a forked child the driver's threads are gone, and a draw waits for them
     * for ever */
    if (iks_engine_forked(e))
        return iks_err_set(err, IKS_E_USAGE, "this engine was made by process %ld, and this is %ld, a child forked "
                           "from it: its GL context stays in the parent (make engines after the fork, or start "
                           "children with the 'spawn' method)", (long)e->pid, (long)getpid());
    if (!e) return 1;
    int c = claim(e);
    if (c < 0)
        return iks_err_set(err, IKS_E_USAGE, "the engine is in a call on another thread: an engine and its toys are "
                           "used by one thread at a time (hold a lock around its calls, or make an engine per thread)");
    if (c == 0) return 1;
    if (!e->plat) {
        iks_glstate_save(&e->host_state);
        iks_glstate_reset();
        return 1;
    }
    e->switched = false;
    if (!e->plat->make_current) return 1; /* a window table whose context its program keeps current */
    iks_current_save(&e->caller);
    if (iks_current_same(&e->caller, &e->mine)) return 1;
    e->switched = true;
    if (make_ours_current(e, err)) return 1;
    iks_current_restore(&e->caller);
    e->switched = false;
    (void)unclaim(e);
    return -1;
}

bool iks_engine_enter(const iks_engine *e, iks_err *err) { return enter((iks_engine *)e, err) > 0; }

void iks_engine_leave(const iks_engine *ce)
{
    iks_engine *e = (iks_engine *)ce;
    if (!e || !unclaim(e)) return;
    if (!e->plat) iks_glstate_restore(&e->host_state);
    else if (e->switched) iks_current_restore(&e->caller);
    e->switched = false;
}

void iks_engine_pause(const iks_engine *ce)
{
    iks_engine *e = (iks_engine *)ce;
    if (!e || e->depth == 0) return;
    if (!e->plat) iks_glstate_restore(&e->host_state);
    else if (e->switched) iks_current_restore(&e->caller);
}

bool iks_engine_resume(const iks_engine *ce, iks_err *err)
{
    iks_engine *e = (iks_engine *)ce;
    if (!e || e->depth == 0) return true;
    if (!e->plat) {
        iks_glstate_save(&e->host_state);
        iks_glstate_reset();
        return true;
    }
    return iks_engine_rebind(e, err);
}

bool iks_engine_rebind(const iks_engine *ce, iks_err *err)
{
    iks_engine *e = (iks_engine *)ce;
    if (!e || !e->plat || !e->plat->make_current) return true;
    return make_ours_current(e, err);
}

iks_code iks_engine_bind(iks_engine *e)
{
    if (!e) return iks_fail_usage("iks_engine_bind: engine is NULL");
    iks_err err = IKS_ERR_INIT;
    return iks_engine_enter(e, &err) ? IKS_OK : iks_publish(&err);
}

void iks_engine_unbind(iks_engine *e) { iks_engine_leave(e); }

/* for calls that cannot report an error: on failure their GL work goes to whatever is current, as it
 * did before; the next call that can fail says why. false where no GL work may be done at all (a
 * forked child, a call in progress on another thread): the caller skips it, and its leave */
static bool enter_quietly(const iks_engine *e)
{
    iks_err ignored = IKS_ERR_INIT;
    int r = enter((iks_engine *)e, &ignored);
    iks_err_clear(&ignored);
    if (r == 0) return false; /* nothing on a context another thread, or the parent process, is using */
    if (r < 0) (void)claim((iks_engine *)e); /* so that the leave after balances */
    return true;
}

static void engine_free(iks_engine *e)
{
    if (e->own_plat && e->plat) e->plat->destroy(e->plat);
    pthread_mutex_destroy(&e->busy);
    free(e->shader_dir_owned);
    free(e);
}

void iks_engine_destroy(iks_engine *e)
{
    if (!e || e->destroyed) return;
    if (iks_engine_forked(e)) return; /* the parent's: its context and memory go with the child's exit */
    /* destroyed while bound (an iks_engine_bind without its unbind): the caller's context back first */
    if (e->depth > 0) {
        e->depth = 1;
        iks_engine_leave(e);
    }
    e->destroyed = true;
    /* a toy still alive needs the context to free its GL objects in: the last one frees the engine */
    if (e->toys == 0) engine_free(e);
}

/* GL_RENDERER and GL_VERSION are kept by the engine: the strings GL returns are the context's, and
 * ours is not current once the call returns */
static const char *gl_string(const iks_engine *e, bool version)
{
    if (!e) return "";
    char *keep = version ? ((iks_engine *)e)->gl_version : ((iks_engine *)e)->renderer;
    if (!keep[0] && enter_quietly(e)) {
        const char *s = version ? iks_gpu_version() : iks_gpu_renderer();
        snprintf(keep, sizeof e->renderer, "%s", s ? s : "");
        iks_engine_leave(e);
    }
    return keep;
}
const char *iks_engine_renderer(const iks_engine *e) { return gl_string(e, false); }
const char *iks_engine_gl_version(const iks_engine *e) { return gl_string(e, true); }
int iks_engine_max_size(const iks_engine *e)
{
    if (!e || !enter_quietly(e)) return 0;
    int m = iks_gpu_max_size();
    iks_engine_leave(e);
    return m;
}
const char *iks_engine_shader_dir(const iks_engine *e) { return e ? e->shader_dir : NULL; }
void iks_engine_finish(iks_engine *e)
{
    if (!e || !enter_quietly(e)) return;
    iks_gpu_finish();
    iks_engine_leave(e);
}
int iks_engine_live_objects(iks_engine *e, unsigned max_name)
{
    if (!e || !enter_quietly(e)) return 0;
    int n = iks_gpu_live_objects(max_name);
    iks_engine_leave(e);
    return n;
}

/* ---- windows ----------------------------------------------------------------------------------- */

#define MAX_WINDOW 16384 /* a side: more than any screen's, far less than a GL's targets */

iks_code iks_window_check(const iks_window_desc *d)
{
    if (!d) return IKS_OK;
    iks_err err = IKS_ERR_INIT;
    iks_window_desc dc;
    if (!IKS_TAKE(iks_window_desc, d, &dc, IKS_FIRST_WINDOW_DESC, &err)) return iks_publish(&err);
    d = &dc;
    char v[64];
    snprintf(v, sizeof v, "%dx%d", d->width, d->height);
    if (d->width < 0 || d->height < 0 || d->width > MAX_WINDOW || d->height > MAX_WINDOW)
        return iks_err_field(&err, IKS_E_USAGE, "size", v, "expected 0 (the default) or 1 to %d a side", MAX_WINDOW),
               iks_publish(&err);
    return IKS_OK;
}

iks_code iks_window_open(const iks_window_desc *d, iks_window **out)
{
    static const iks_window_desc none;
    if (!out) return iks_fail_usage("iks_window_open: out is NULL");
    if (iks_window_check(d) != IKS_OK) return iks_last_error(NULL);
    iks_err err = IKS_ERR_INIT;
    iks_window_desc dc;
    if (!IKS_TAKE(iks_window_desc, d, &dc, IKS_FIRST_WINDOW_DESC, &err)) return iks_publish(&err);
    if (d) d = &dc;
    iks_current caller;
    iks_current_save_probing(&caller); /* GLFW's current window too, a host's that we never touched */
    /* glvnd refuses our GLX context over an EGL one with an X error that ends the program */
    if (caller.api == IKS_API_EGL) iks_current_release(&caller);
    *out = iks_glfw_create(d ? d : &none, &err);
    iks_current_restore(&caller);
    return *out ? IKS_OK : iks_publish(&err);
}

void iks_window_close(iks_window *w)
{
    if (w && w->destroy) w->destroy(w);
}

/* ---- toys -------------------------------------------------------------------------------------- */

bool iks_toy_open(iks_engine *e, const iks_toy_desc *d, iks_toy **out, iks_err *err)
{
    *out = NULL;
    iks_toy *t = calloc(1, sizeof *t);
    if (!t) return iks_err_set(err, IKS_E_NOMEM, "out of memory");
    t->e = e;
    e->toys++; /* until iks_toy_destroy */
    iks_source_opts base;
    if (!iks_toy_spec_build(d, e->shader_dir, &t->tf, err, &e->log) ||
        !iks_toy_source_base(d, e->shader_dir, &base, err)) {
        iks_toy_destroy(t);
        return false;
    }
    char dflt[PATH_MAX];
    iks_err none = IKS_ERR_INIT;
    const char *main_file = iks_toy_desc_path(e, d, dflt, sizeof dflt, &none);
    iks_err_clear(&none); /* the build above found it, or the toy is text without a name */
    if (main_file && !(t->path = strdup(main_file))) {
        iks_toy_destroy(t);
        free((void *)base.include_dirs);
        return iks_err_set(err, IKS_E_NOMEM, "out of memory");
    }
    int w = d->width > 0 ? d->width : IKS_DEFAULT_WIDTH, h = d->height > 0 ? d->height : IKS_DEFAULT_HEIGHT;
    t->tf.desc.media_budget = e->media_budget;
    bool ok = iks_gltoy_create(&t->gl, &t->tf.desc, &base, w, h, err, &e->log);
    t->es_issues = ok && d->es_check ? iks_es_check(&t->tf.desc, &base, &e->log) : -1;
    free((void *)base.include_dirs);
    *out = t; /* also on failure: t->gl.files names what was read, for the live loop's watch list */
    return ok;
}

iks_code iks_toy_load(iks_engine *e, const iks_toy_desc *d, iks_toy **out)
{
    if (!e || !d || !out) return iks_fail_usage("iks_toy_load: engine, desc and out must not be NULL");
    *out = NULL;
    iks_err err = IKS_ERR_INIT;
    iks_toy_desc dc;
    iks_setting *sets = NULL;
    /* settings are checked before anything is read, as a command line checks its arguments */
    if (!iks_toy_desc_take(d, &dc, &sets, &err)) return iks_publish(&err);
    d = &dc;
    iks_toy *t = NULL;
    bool ok = iks_engine_enter(e, &err);
    if (ok) {
        ok = iks_toy_open(e, d, &t, &err) && iks_gltoy_apply(&t->gl, sets, iks_toy_desc_nsettings(d), &err, &e->log);
        iks_engine_leave(e);
    }
    free(sets);
    if (!ok) {
        iks_toy_destroy(t);
        return iks_publish(&err);
    }
    *out = t;
    return IKS_OK;
}

void iks_toy_destroy(iks_toy *t)
{
    if (!t || iks_engine_forked(t->e)) return; /* a forked child's copy: its GL objects are the parent's */
    (void)enter_quietly(t->e); /* its GL objects are names in its engine's context (not forked: above) */
    iks_target_destroy(&t->out8);
    iks_target_destroy(&t->outf);
    iks_gltoy_destroy(&t->gl);
    iks_engine_leave(t->e);
    iks_toyfile_free(&t->tf);
    free(t->path);
    free(t->scratch);
    iks_engine *e = t->e;
    free(t);
    if (--e->toys == 0 && e->destroyed) engine_free(e);
}

const char *iks_toy_name(const iks_toy *t) { return t ? t->tf.name : ""; }
bool iks_toy_has_buffers(const iks_toy *t) { return t && t->gl.has_buffers; }
bool iks_toy_has_sound(const iks_toy *t) { return t && t->gl.sound.prog; }
bool iks_toy_has_image(const iks_toy *t) { return t && !t->gl.image_less; }

iks_code iks_toy_sound(iks_toy *t, long first, long n, float *lr, size_t lr_len)
{
    if (!t || (n > 0 && !lr)) return iks_fail_usage("iks_toy_sound: toy or lr is NULL");
    if (n < 0) return iks_fail_usage("iks_toy_sound: n %ld: expected a count of samples, 0 or more", n);
    if ((size_t)n > lr_len / (2 * sizeof(float)))
        return iks_fail_field("lr_len", NULL, "%zu bytes: %ld stereo samples need %zu", lr_len, n,
                              (size_t)n * 2 * sizeof(float));
    iks_err err = IKS_ERR_INIT;
    if (!iks_engine_enter(t->e, &err)) return iks_publish(&err);
    bool ok = iks_gltoy_sound(&t->gl, first, n, lr, &err);
    iks_engine_leave(t->e);
    return ok ? IKS_OK : iks_publish(&err);
}
bool iks_toy_reads_keyboard(const iks_toy *t) { return t && t->gl.keyboard != 0; }
int iks_toy_es_issues(const iks_toy *t) { return t ? t->es_issues : -1; }

iks_code iks_toy_set(iks_toy *t, const char *setting)
{
    if (!t || !setting) return iks_fail_usage("iks_toy_set: toy and setting must not be NULL");
    iks_err err = IKS_ERR_INIT;
    iks_setting s;
    if (!iks_setting_check(setting, &s, &err) || !iks_engine_enter(t->e, &err)) return iks_publish(&err);
    bool ok = iks_gltoy_apply(&t->gl, &s, 1, &err, &t->e->log);
    iks_engine_leave(t->e);
    return ok ? IKS_OK : iks_publish(&err);
}

/* ---- the toy's own uniforms, typed ------------------------------------------------------------- */

iks_uniform_type iks_public_uniform_type(iks_ubase b)
{
    return b == IKS_U_INT ? IKS_UNIFORM_INT : b == IKS_U_UINT ? IKS_UNIFORM_UINT : b == IKS_U_BOOL ? IKS_UNIFORM_BOOL
                                                                                                 : IKS_UNIFORM_FLOAT;
}

static const char *const SETTERS[] = { "iks_toy_set_float", "iks_toy_set_int", "iks_toy_set_uint", "iks_toy_set_bool" };

int iks_toy_uniform_count(const iks_toy *t) { return t ? t->gl.nuniforms : 0; }

iks_code iks_toy_uniform_get(const iks_toy *t, int i, iks_uniform_info *out, size_t out_size)
{
    if (!t || !out) return iks_fail_usage("iks_toy_uniform_get: toy and out must not be NULL");
    if (out_size < IKS_FIRST_UNIFORM_INFO) {
        char v[32];
        snprintf(v, sizeof v, "%zu", out_size);
        return iks_fail_field("out_size", v, "iks_uniform_info is at least %zu bytes: sizeof(iks_uniform_info)",
                              (size_t)IKS_FIRST_UNIFORM_INFO);
    }
    if (i < 0 || i >= t->gl.nuniforms) {
        char v[32];
        snprintf(v, sizeof v, "%d", i);
        return iks_fail_field("index", v, "the toy has %d uniform%s of its own (0 to %d)", t->gl.nuniforms,
                              t->gl.nuniforms == 1 ? "" : "s", t->gl.nuniforms - 1);
    }
    const iks_uvalue *u = &t->gl.uniforms[i];
    iks_uniform_info full = { .name = u->name, .glsl_type = u->type, .type = iks_public_uniform_type(u->base),
                              .n = u->comps, .active = u->active, .has_range = u->has_range, .min = u->min,
                              .max = u->max, .step = u->step, .color = u->color, .declared = u->declared };
    memcpy(full.value, u->v, sizeof full.value);
    memcpy(full.initial, u->initial, sizeof full.initial);
    memcpy(out, &full, out_size < sizeof full ? out_size : sizeof full);
    return IKS_OK;
}

/* the exported name older programs call, with the first layout's size (the header's macro of the same
 * name, which this definition's parentheses keep out, passes the caller's) */
iks_code(iks_toy_uniform_info)(const iks_toy *t, int i, iks_uniform_info *out)
{
    return iks_toy_uniform_get(t, i, out, IKS_FIRST_UNIFORM_INFO);
}

/* One typed setter's checks (what the toy declares, the type, the count), then the setting as
 * iks_toy_set would apply it. */
static iks_code set_typed(iks_toy *t, iks_uniform_type type, const char *name, const double *v, int n)
{
    const char *fn = SETTERS[type];
    if (!t || !name || (n > 0 && !v)) return iks_fail_usage("%s: toy, name and values must not be NULL", fn);
    const char *alias;
    const iks_builtin *b = iks_builtin_named(name, &alias);
    if (b || iks_prelude_declares(name))
        return iks_fail_usage("%s: uniform '%s' is set by ikshade for every frame%s%s", fn, name, b ? ": " : "",
                              b ? b->doc : "");
    const iks_uvalue *u = iks_gltoy_uniform(&t->gl, name);
    if (!u) {
        char list[512] = "";
        size_t len = 0;
        for (int i = 0; i < t->gl.nuniforms && len < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", t->gl.uniforms[i].name);
        return iks_fail_usage("%s: uniform '%s': the toy declares no such uniform (%s%s)", fn, name,
                              t->gl.nuniforms ? "it has " : "it has none of its own", list);
    }
    iks_uniform_type want = iks_public_uniform_type(u->base);
    if (want != type)
        return iks_fail_usage("%s: uniform '%s' is %s: set it with %s", fn, name, u->type, SETTERS[want]);
    if (n != u->comps)
        return iks_fail_usage("%s: uniform '%s' is %s: expected %d value%s, got %d", fn, name, u->type, u->comps,
                              u->comps > 1 ? "s" : "", n);
    iks_setting s = { .n = n };
    snprintf(s.name, sizeof s.name, "%s", name);
    for (int c = 0; c < n; c++) {
        /* what the text form (iks_toy_set) refuses, the typed one refuses too, in its words: NaN and Inf
         * would reach the shader without a word */
        const char *why = iks_ubase_refuses(u->base, v[c]);
        if (why) {
            char val[32];
            iks_double_text(v[c], val, sizeof val);
            return iks_fail_field("v", val, "%s: uniform '%s' is %s: value %d is %s", fn, name, u->type, c + 1, why);
        }
        s.v[c] = v[c];
    }
    iks_err err = IKS_ERR_INIT;
    if (!iks_engine_enter(t->e, &err)) return iks_publish(&err);
    bool ok = iks_gltoy_apply(&t->gl, &s, 1, &err, &t->e->log);
    iks_engine_leave(t->e);
    return ok ? IKS_OK : iks_publish(&err);
}

/* each copies at most 4 values (more is refused for the count before any is used) */
#define TYPED_SETTER(fn, ctype, type)                                                                        \
    iks_code fn(iks_toy *t, const char *name, const ctype *v, int n)                                      \
    {                                                                                                      \
        double d[4] = { 0 };                                                                               \
        for (int c = 0; v && c < n && c < 4; c++) d[c] = (double)v[c];                                     \
        return set_typed(t, type, name, v ? d : NULL, n);                                                  \
    }
TYPED_SETTER(iks_toy_set_float, float, IKS_UNIFORM_FLOAT)
TYPED_SETTER(iks_toy_set_int, int, IKS_UNIFORM_INT)
TYPED_SETTER(iks_toy_set_uint, unsigned, IKS_UNIFORM_UINT)
TYPED_SETTER(iks_toy_set_bool, bool, IKS_UNIFORM_BOOL)
#undef TYPED_SETTER

/* ---- the feedback state in memory --------------------------------------------------------------
 * A blob is a header (magic, the toy's size, the payload's length and FNV-1a) and the payload that
 * iks_gltoy_state_save hands out: checked whole before any of it reaches the GL. */

#define STATE_MAGIC "IKSSTAT1"
enum { STATE_HEAD = 32 };

typedef struct {
    uint8_t *p;
    size_t at, len;
} state_cursor;

static bool state_put(void *user, void *data, size_t len)
{
    state_cursor *c = user;
    if (len > c->len - c->at) return false;
    memcpy(c->p + c->at, data, len);
    c->at += len;
    return true;
}

static bool state_get(void *user, void *data, size_t len)
{
    state_cursor *c = user;
    if (len > c->len - c->at) return false;
    if (c->p) memcpy(data, c->p + c->at, len);
    else memset(data, 0, len); /* no blob: zeros, the state before the first frame */
    c->at += len;
    return true;
}

size_t iks_toy_state_size(const iks_toy *t)
{
    return t ? STATE_HEAD + (size_t)iks_gltoy_state_bytes(&t->gl) : 0;
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

iks_code iks_toy_state_save(iks_toy *t, void *buf, size_t len)
{
    if (!t || !buf) return iks_fail_usage("iks_toy_state_save: toy and buf must not be NULL");
    size_t need = iks_toy_state_size(t);
    if (len < need)
        return iks_fail_usage("iks_toy_state_save: len %zu: the state of this toy at %dx%d takes %zu bytes", len,
                              t->gl.w, t->gl.h, need);
    iks_err err = IKS_ERR_INIT;
    if (!iks_engine_enter(t->e, &err)) return iks_publish(&err);
    uint8_t *p = buf;
    state_cursor c = { p + STATE_HEAD, 0, need - STATE_HEAD };
    bool ok = iks_gltoy_state_save(&t->gl, state_put, &c, &err);
    iks_engine_leave(t->e);
    if (!ok) {
        if (!err.msg || !*err.msg) iks_err_set(&err, IKS_E_IO, "iks_toy_state_save: the state did not fit its own size");
        return iks_publish(&err);
    }
    memcpy(p, STATE_MAGIC, 8);
    put_u64(p + 8, (uint64_t)t->gl.w << 32 | (uint32_t)t->gl.h);
    put_u64(p + 16, c.at);
    put_u64(p + 24, iks_fnv(IKS_FNV_START, p + STATE_HEAD, c.at));
    return IKS_OK;
}

static iks_code state_load(iks_toy *t, const uint8_t *p, size_t len, const char *fn)
{
    iks_err err = IKS_ERR_INIT;
    if (!iks_engine_enter(t->e, &err)) return iks_publish(&err);
    state_cursor c = { (uint8_t *)p, 0, len };
    bool ok = iks_gltoy_state_load(&t->gl, state_get, &c, &err);
    iks_engine_leave(t->e);
    if (!ok) {
        if (!err.msg || !*err.msg) iks_err_set(&err, IKS_E_FORMAT, "%s: the state ends before the toy's does", fn);
        return iks_publish(&err);
    }
    return IKS_OK;
}

iks_code iks_toy_state_load(iks_toy *t, const void *buf, size_t len)
{
    if (!t || !buf) return iks_fail_usage("iks_toy_state_load: toy and buf must not be NULL");
    const uint8_t *p = buf;
    size_t need = iks_toy_state_size(t);
    if (len < STATE_HEAD || memcmp(p, STATE_MAGIC, 8) != 0) {
        iks_err err = IKS_ERR_INIT;
        iks_err_set(&err, IKS_E_FORMAT, "iks_toy_state_load: not a state iks_toy_state_save wrote");
        return iks_publish(&err);
    }
    uint64_t wh = get_u64(p + 8), payload = get_u64(p + 16);
    int w = (int)(wh >> 32), h = (int)(uint32_t)wh;
    if (w != t->gl.w || h != t->gl.h || len != need || payload != need - STATE_HEAD)
        return iks_fail_usage("iks_toy_state_load: a state of %dx%d (%zu bytes) for a toy of %dx%d whose state takes %zu: "
                              "another toy's, or this one at another size", w, h, len, t->gl.w, t->gl.h, need);
    if (get_u64(p + 24) != iks_fnv(IKS_FNV_START, p + STATE_HEAD, (size_t)payload)) {
        iks_err err = IKS_ERR_INIT;
        iks_err_set(&err, IKS_E_FORMAT, "iks_toy_state_load: the state's checksum does not match: damaged");
        return iks_publish(&err);
    }
    return state_load(t, p + STATE_HEAD, (size_t)payload, "iks_toy_state_load");
}

iks_code iks_toy_reset(iks_toy *t)
{
    if (!t) return iks_fail_usage("iks_toy_reset: toy is NULL");
    return state_load(t, NULL, (size_t)iks_gltoy_state_bytes(&t->gl), "iks_toy_reset");
}

void iks_toy_key(iks_toy *t, int keycode, bool down)
{
    if (!t || keycode < 0 || keycode >= 256 || !enter_quietly(t->e)) return;
    iks_gltoy_key(&t->gl, keycode, down);
    iks_engine_leave(t->e);
}

/* No GL and no engine entered: the feed only appends to the channel's ring (livemic.c), so a host's
 * capture thread calls it as it likes */
iks_code iks_toy_feed_audio(iks_toy *t, iks_pass_id pass, int channel, const float *samples, size_t frames,
                            int channels, int rate)
{
    if (!t) return iks_fail_usage("iks_toy_feed_audio: toy is NULL");
    char v[48];
    snprintf(v, sizeof v, "%d", (int)pass);
    int p = iks_pass_slot_of_id((int)pass);
    if (p < 0 || !t->gl.prog[p].prog) return iks_fail_field("pass", v, "%s has no such pass", iks_toy_name(t));
    snprintf(v, sizeof v, "%d", rate);
    if (rate != IKS_ANALYSER_RATE) return iks_fail_field("rate", v, "expected 44100 (resample before feeding)");
    snprintf(v, sizeof v, "%d", channels);
    if (channels != 1 && channels != 2) return iks_fail_field("channels", v, "expected 1 or 2");
    if (frames && !samples) return iks_fail_field("samples", NULL, "NULL with %zu frames", frames);
    iks_err err = IKS_ERR_INIT;
    float mono[1024];
    /* in pieces: the ring takes any length, and the down-mix needs no allocation */
    for (size_t at = 0; at < frames || at == 0; at += sizeof mono / sizeof *mono) {
        size_t n = frames - at < sizeof mono / sizeof *mono ? frames - at : sizeof mono / sizeof *mono;
        for (size_t i = 0; i < n; i++)
            mono[i] = channels == 1 ? samples[at + i] : 0.5f * (samples[2 * (at + i)] + samples[2 * (at + i) + 1]);
        if (!iks_livein_audio(&t->gl, p, channel, mono, n, &err)) {
            snprintf(v, sizeof v, "%d", channel);
            iks_code code = iks_fail_field("channel", v, "%s", iks_err_msg(&err));
            iks_err_clear(&err);
            return code;
        }
        if (frames == 0) break;
    }
    return IKS_OK;
}

void iks_frame_from_info(iks_frame *f, const iks_frame_info *fi)
{
    iks_frame_defaults(f);
    f->info = *fi;
    f->time = fi->time;
    f->frame = (int)(fi->frame > INT32_MAX ? INT32_MAX : fi->frame < INT32_MIN ? INT32_MIN : fi->frame);
    f->time_delta = fi->time_delta;
    f->frame_rate = fi->frame_rate;
    memcpy(f->mouse, fi->mouse, sizeof f->mouse);
    if (!fi->real_date) {
        /* reproducible: 2000-01-01, seconds since midnight from the frame's time */
        f->date[0] = 2000;
        f->date[1] = 0;
        f->date[2] = 1;
        f->date[3] = (float)fmod(fabs(f->time), 86400.0);
    }
}

/* the target t draws into at w x h in format fmt, remade when the size changes */
static bool target_at(iks_target *tg, int w, int h, iks_pixfmt fmt, iks_err *err)
{
    if (tg->fbo && tg->w == w && tg->h == h) return true;
    iks_target_destroy(tg);
    return iks_target_create(tg, w, h, fmt, err);
}

/* GL rows come bottom first; the caller's are top first */
static void flip_rows(uint8_t *dst, const uint8_t *src, size_t row, int h)
{
    for (int y = 0; y < h; y++) memcpy(dst + (size_t)y * row, src + (size_t)(h - 1 - y) * row, row);
}

/* A draw description's fields against the frame of w x h: the buffers' lengths and strides, the
 * rectangle in the caller's framebuffer. IKS_E_USAGE naming the field. */
static iks_code draw_desc_check(const iks_engine *e, const iks_draw_desc *d, int w, int h)
{
    char v[48];
    static const struct { size_t px; const char *len, *stride; } kinds[2] = {
        { 4, "rgba8_len", "rgba8_stride" }, { 16, "rgbaf_len", "rgbaf_stride" } };
    for (int k = 0; k < 2; k++) {
        if (!(k ? (const void *)d->rgbaf : (const void *)d->rgba8)) continue;
        size_t len = k ? d->rgbaf_len : d->rgba8_len, stride = k ? d->rgbaf_stride : d->rgba8_stride;
        size_t row = (size_t)w * kinds[k].px;
        if (stride == 0) stride = row;
        snprintf(v, sizeof v, "%zu", stride);
        if (stride < row)
            return iks_fail_field(kinds[k].stride, v, "less than a row of the %dx%d frame (%zu bytes)", w, h, row);
        if (k && stride % sizeof(float))
            return iks_fail_field(kinds[k].stride, v, "not a whole number of floats (a multiple of %zu bytes)",
                                  sizeof(float));
        /* the last row needs only its pixels, not a whole stride: a caller's sub-image of a larger one.
         * The stride is the caller's and may be anything: a product that wrapped would pass the length
         * check and the rows would be written past the buffer */
        if (h > 1 && stride > (SIZE_MAX - row) / (size_t)(h - 1))
            return iks_fail_field(kinds[k].stride, v, "too large: %d rows that far apart pass the end of memory", h);
        size_t need = (size_t)(h - 1) * stride + row;
        snprintf(v, sizeof v, "%zu", len);
        if (len < need)
            return iks_fail_field(kinds[k].len, v, "a %dx%d frame with rows %zu bytes apart needs %zu bytes", w, h,
                                  stride, need);
    }
    if (d->to_fbo) {
        /* a headless engine's context is its own: no framebuffer of the caller's is a name there */
        if (e->own_plat) /* the engine made its own (headless) context: nobody else draws there */
            return iks_fail_field("fbo", NULL, "to_fbo on a headless engine: the caller's framebuffers are in its own "
                                               "context (make the engine with get_proc or a window)");
        snprintf(v, sizeof v, "%dx%d", d->w, d->h);
        if (d->w < 0 || d->h < 0) return iks_fail_field("w", v, "a rectangle's sides are 0 (the frame's) or more");
    }
    return IKS_OK;
}

static iks_code toy_draw(iks_toy *t, const iks_frame_info *fi, const iks_draw_desc *d);

iks_code iks_toy_draw(iks_toy *t, const iks_frame_info *fi, const iks_draw_desc *d)
{
    static const iks_draw_desc only_draw;
    if (!t) return iks_fail_usage("iks_toy_draw: toy is NULL");
    iks_err err = IKS_ERR_INIT;
    iks_draw_desc dc;
    if (!IKS_TAKE(iks_draw_desc, d, &dc, IKS_FIRST_DRAW_DESC, &err)) return iks_publish(&err);
    d = d ? &dc : &only_draw;
    if (!iks_engine_enter(t->e, &err)) return iks_publish(&err);
    iks_code c = toy_draw(t, fi, d);
    iks_engine_leave(t->e);
    return c;
}

/* GL's bottom-first rows (packed) into the caller's, top first, stride apart */
static void rows_out(uint8_t *dst, size_t stride, const uint8_t *src, size_t row, int h)
{
    for (int y = 0; y < h; y++) memcpy(dst + (size_t)y * stride, src + (size_t)(h - 1 - y) * row, row);
}

/* between a draw's steps: on unless the process was asked to stop */
static bool draw_step(void *user, int part, int parts)
{
    (void)user, (void)part, (void)parts;
    return !iks_stop_requested();
}

static iks_code toy_draw(iks_toy *t, const iks_frame_info *fi, const iks_draw_desc *d)
{
    static const iks_frame_info zero;
    int w = d->width, h = d->height;
    if (w == 0 && h == 0) w = t->gl.w, h = t->gl.h; /* the size it has: its desc's, or its last draw's */
    if (w < 1 || h < 1 || w > IKS_MAX_SIDE || h > IKS_MAX_SIDE) {
        char v[48];
        snprintf(v, sizeof v, "%dx%d", w, h);
        return iks_fail_field("size", v, "expected 1 to %d on each side", IKS_MAX_SIDE);
    }
    if (t->gl.image_less) return iks_fail_usage("%s: %s", t->tf.desc.pass[IKS_IMAGE_PASS].path, IKS_NO_PICTURE);
    iks_code dc = draw_desc_check(t->e, d, w, h);
    if (dc != IKS_OK) return dc;
    iks_err err = IKS_ERR_INIT;
    bool hdr = d->rgbaf || d->hdr;
    /* what the size may be refused for comes before the toy is resized: a refused draw changes
     * nothing, so the next draw at the toy's size is not refused too (its buffers would have been) */
    iks_target *tg = hdr ? &t->outf : &t->out8;
    t->image = NULL; /* until the target is there again */
    if (!target_at(tg, w, h, hdr ? IKS_RGBA32F : IKS_RGBA8, &err)) return iks_publish(&err);
    size_t px = (size_t)w * (size_t)h, bytes = px * 4 * (hdr ? sizeof(float) : 1);
    if ((d->rgbaf || d->rgba8) && !IKS_GROW(t->scratch, bytes, t->scratch_cap))
        return iks_err_set(&err, IKS_E_NOMEM, "out of memory for a %dx%d frame", w, h), iks_publish(&err);
    if ((w != t->gl.w || h != t->gl.h) && !iks_gltoy_resize(&t->gl, w, h, &err)) return iks_publish(&err);
    iks_frame f;
    iks_frame_from_info(&f, fi ? fi : &zero);
    /* a Cube A frame can take minutes on a CPU rasterizer: drawn in steps where it is slow, so that
     * iks_interrupt (a host's Ctrl-C) stops it within one (the picture is iks_gltoy_draw's, byte for byte) */
    if (iks_gltoy_has_cube(&t->gl)) {
        if (!iks_gltoy_draw_steps(&t->gl, tg, &f, 0, draw_step, NULL)) {
            iks_err_set(&err, IKS_E_INTERRUPTED, "%s: interrupted in Cube A (its buffers are mid-frame: reset or "
                        "restore the toy)", iks_toy_name(t));
            return iks_publish(&err);
        }
    } else iks_gltoy_draw(&t->gl, tg, &f);
    t->image = tg;
    if (!iks_gltoy_media_ok(&t->gl, &err)) return iks_publish(&err);
    if (d->to_fbo && !iks_target_blit(tg, d->fbo, d->x, d->y, d->w ? d->w : w, d->h ? d->h : h, &err))
        return iks_publish(&err);
    if (d->rgbaf || d->rgba8) iks_read(tg, t->scratch);
    if (d->rgbaf) {
        size_t row = (size_t)w * 4 * sizeof(float);
        rows_out((uint8_t *)d->rgbaf, d->rgbaf_stride ? d->rgbaf_stride : row, t->scratch, row, h);
    }
    if (d->rgba8 && hdr) {
        /* what GL's own conversion to an 8-bit target does: clamp, scale, round to nearest */
        size_t stride = d->rgba8_stride ? d->rgba8_stride : (size_t)w * 4;
        const float *src = (const float *)(const void *)t->scratch;
        for (int y = 0; y < h; y++) {
            uint8_t *out = d->rgba8 + (size_t)y * stride;
            const float *in = src + (size_t)(h - 1 - y) * (size_t)w * 4;
            for (size_t i = 0; i < (size_t)w * 4; i++) {
                float v = in[i];
                v = v > 0 ? (v < 1 ? v : 1) : 0; /* NaN -> 0 */
                out[i] = (uint8_t)lrintf(v * 255.0f);
            }
        }
    } else if (d->rgba8) {
        size_t row = (size_t)w * 4;
        rows_out(d->rgba8, d->rgba8_stride ? d->rgba8_stride : row, t->scratch, row, h);
    }
    const char *ge = iks_gl_error();
    if (ge) return iks_err_set(&err, IKS_E_GL, "GL: %s while drawing", ge), iks_publish(&err);
    return IKS_OK;
}

iks_code iks_toy_image_texture(iks_toy *t, unsigned *texture, int *width, int *height, unsigned *format)
{
    if (!t || !texture) return iks_fail_usage("iks_toy_image_texture: toy and texture must not be NULL");
    if (!t->image) return iks_fail_usage("iks_toy_image_texture: %s has not been drawn yet", iks_toy_name(t));
    *texture = t->image->tex;
    if (width) *width = t->image->w;
    if (height) *height = t->image->h;
    /* GL_RGBA8 and GL_RGBA32F as numbers: the public header does not include GL's */
    if (format) *format = t->image->fmt == IKS_RGBA32F ? 0x8814u : 0x8058u;
    return IKS_OK;
}

iks_code iks_toy_set_channel(iks_toy *t, int c, const iks_channel_desc *d)
{
    if (!t) return iks_fail_usage("iks_toy_set_channel: toy is NULL");
    char v[48];
    snprintf(v, sizeof v, "%d", c);
    if (c < 0 || c > 3) return iks_fail_field("channel", v, "expected 0 to 3");
    iks_err err = IKS_ERR_INIT;
    iks_channel_desc dc;
    if (!IKS_TAKE(iks_channel_desc, d, &dc, IKS_FIRST_CHANNEL_DESC, &err)) return iks_publish(&err);
    if (d) d = &dc;
    /* the public pass numbers (Image first, as a single file's only pass) to the toy's slots */
    int pid = d ? (int)d->pass : 0;
    snprintf(v, sizeof v, "%d", pid);
    int p = iks_pass_slot_of_id(pid);
    if (p < 0) return iks_fail_field("pass", v, "expected an iks_pass_id, 0 to %d", IKS_PASS_CUBE_A);
    if (!t->gl.prog[p].prog) return iks_fail_field("pass", iks_pass_kind_at(p)->name, "%s has no such pass", iks_toy_name(t));
    iks_feed_src src = { 0 }, *s = NULL;
    if (d) {
        if (!d->pixels == !d->texture)
            return iks_fail_field(d->pixels ? "texture" : "pixels", NULL, "give either pixels or a texture, not %s",
                                  d->pixels ? "both" : "neither");
        snprintf(v, sizeof v, "%dx%d", d->width, d->height);
        if (d->pixels) {
            if (d->format != IKS_PIXELS_RGBA8 && d->format != IKS_PIXELS_RGBAF) {
                snprintf(v, sizeof v, "%d", (int)d->format);
                return iks_fail_field("format", v, "expected IKS_PIXELS_RGBA8 or IKS_PIXELS_RGBAF");
            }
            if (d->width < 1 || d->height < 1) return iks_fail_field("size", v, "expected 1 or more pixels on each side");
            size_t row = (size_t)d->width * (d->format == IKS_PIXELS_RGBAF ? 16 : 4);
            size_t stride = d->stride ? d->stride : row;
            snprintf(v, sizeof v, "%zu", stride);
            if (stride < row) return iks_fail_field("stride", v, "less than a row of %d pixels (%zu bytes)", d->width, row);
            if (stride % 4) return iks_fail_field("stride", v, "not a multiple of 4 bytes");
            src = (iks_feed_src){ .pixels = d->pixels, .is_float = d->format == IKS_PIXELS_RGBAF, .w = d->width,
                                  .h = d->height, .stride = stride };
        } else {
            if (d->width < 0 || d->height < 0 || d->depth < 0)
                return iks_fail_field("size", v, "0 (asked of GL) or more on each side");
            src = (iks_feed_src){ .tex = d->texture, .target = d->target, .w = d->width, .h = d->height, .d = d->depth };
        }
        s = &src;
    }
    if (!iks_engine_enter(t->e, &err)) return iks_publish(&err);
    bool ok = iks_gltoy_feed(&t->gl, p, c, s, &err);
    iks_engine_leave(t->e);
    return ok ? IKS_OK : iks_publish(&err);
}

/* ---- small things ------------------------------------------------------------------------------ */

iks_code iks_write_png(const char *path, const uint8_t *rgba, int w, int h, bool alpha)
{
    if (!path || !rgba || w < 1 || h < 1) return iks_fail_usage("iks_write_png: a path, pixels and a size of 1x1 or more");
    iks_err err = IKS_ERR_INIT;
    /* the encoder takes GL's bottom-up rows */
    size_t row = (size_t)w * 4;
    uint8_t *up = malloc(row * (size_t)h), *png = NULL;
    size_t len = 0;
    if (!up) return iks_err_set(&err, IKS_E_NOMEM, "%s: out of memory", path), iks_publish(&err);
    flip_rows(up, rgba, row, h);
    iks_png_opts o = { .level = 2, .alpha = alpha }; /* libdeflate 2: a single image, smaller */
    bool ok = iks_png_encode(up, w, h, &o, &png, &len, &err);
    free(up);
    if (!ok) return iks_err_prefix(&err, "%s: ", path), iks_publish(&err);
    ok = iks_write_atomic(path, png, len);
    if (!ok) iks_err_set(&err, IKS_E_IO, "%s: %s", path, iks_outfile_strerror(errno));
    free(png);
    return ok ? IKS_OK : iks_publish(&err);
}
