/* gpu.c: GL objects and draws for the core. Every object made here has one owner: the struct that
 * holds its name, released by the matching *_destroy. */
#include "base/aslimit.h"
#include "gpu/gpu.h"
#include "glsl/params.h"
#include "base/bigstack.h"
#include "base/buf.h"
#include "base/strutil.h"

#include <glad/gl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int gl_version; /* major * 10 + minor, once loaded */

#define UNIFORM_NAME(id, name, type, array, up, from, doc) name,
static const char *const UNIFORM_NAMES[IKS_U_COUNT] = { IKS_UNIFORMS(UNIFORM_NAME) };

bool iks_gpu_has_es3(void) { return gl_version >= 43 || GLAD_GL_ARB_ES3_compatibility; }

bool iks_gpu_load(iks_gl_proc (*get_proc)(const char *), iks_err *e)
{
    int v = gladLoadGL((GLADloadfunc)get_proc);
    gl_version = GLAD_VERSION_MAJOR(v) * 10 + GLAD_VERSION_MINOR(v);
    if (!v) return iks_err_set(e, IKS_E_GL, "GL: cannot load OpenGL entry points");
    if (GLAD_VERSION_MAJOR(v) * 10 + GLAD_VERSION_MINOR(v) < 33)
        return iks_err_set(e, IKS_E_GL, "GL: OpenGL %d.%d found, 3.3 core needed", GLAD_VERSION_MAJOR(v),
                           GLAD_VERSION_MINOR(v));
    return true;
}

const char *iks_gpu_renderer(void) { return (const char *)glGetString(GL_RENDERER); }
const char *iks_gpu_version(void) { return (const char *)glGetString(GL_VERSION); }

int iks_gpu_max_size(void)
{
    GLint tex = 0, rb = 0, vp[2] = { 0, 0 };
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &tex);
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &rb);
    glGetIntegerv(GL_MAX_VIEWPORT_DIMS, vp);
    int m = tex;
    if (rb < m) m = rb;
    if (vp[0] < m) m = vp[0];
    if (vp[1] < m) m = vp[1];
    return m;
}

void iks_gpu_finish(void) { glFinish(); }

int iks_gpu_live_objects(unsigned max_name)
{
    int n = 0;
    for (GLuint i = 1; i <= max_name; i++)
        n += glIsProgram(i) + glIsShader(i) + glIsBuffer(i) + glIsTexture(i) + glIsVertexArray(i) +
             glIsFramebuffer(i);
    return n;
}

const char *iks_gl_error(void)
{
    GLenum e = glGetError();
    switch (e) {
    case GL_NO_ERROR: return NULL;
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "unknown GL error";
    }
}

/* ---- settings ---------------------------------------------------------------------------------- */

#define SET_ERR iks_setting_err /* the setting s (its text arg) refused: about s's field */

/* ---- programs ---------------------------------------------------------------------------------- */

static char *shader_log(GLuint sh, bool program)
{
    GLint n = 0;
    if (program) glGetProgramiv(sh, GL_INFO_LOG_LENGTH, &n);
    else glGetShaderiv(sh, GL_INFO_LOG_LENGTH, &n);
    if (n <= 1) return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) return NULL;
    if (program) glGetProgramInfoLog(sh, n, NULL, s);
    else glGetShaderInfoLog(sh, n, NULL, s);
    s[n] = '\0';
    return s;
}

typedef struct {
    const char *fragment;
    bool ok;
    char *log;
} compile_only_job;

static void compile_only(void *arg)
{
    compile_only_job *j = arg;
    GLuint sh = glCreateShader(GL_FRAGMENT_SHADER);
    glShaderSource(sh, 1, &j->fragment, NULL);
    glCompileShader(sh);
    GLint status = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &status);
    j->log = shader_log(sh, false);
    glDeleteShader(sh);
    j->ok = status != 0;
}

char *iks_gpu_compile_only(const char *fragment, bool *ok)
{
    compile_only_job j = { .fragment = fragment };
    iks_on_big_stack(compile_only, &j); /* the driver's compiler recurses: see bigstack.h */
    *ok = j.ok;
    return j.log;
}

/* The mapped lines of a build, gathered across its shaders; oom once memory ran out for them. */
typedef iks_sbuf build_log;

/* Appends the mapped form of raw. */
static void add_log(build_log *acc, const char *raw, const iks_source *src)
{
    if (!raw || acc->oom) return;
    char *m = iks_log_map(raw, src);
    if (!m) {
        acc->oom = true;
        return;
    }
    iks_sbuf_str(acc, m);
    free(m);
}

static GLuint compile(GLenum type, const char *text, const iks_source *src, build_log *log, bool *ok)
{
    GLuint sh = glCreateShader(type);
    glShaderSource(sh, 1, &text, NULL);
    glCompileShader(sh);
    GLint status = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &status);
    char *raw = shader_log(sh, false);
    size_t before = log->len;
    add_log(log, raw, src);
    /* a refusal must say something, even when the driver's log is missing or blank */
    if (!status && log->len == before)
        add_log(log, "0:0: error: the shader did not compile and the driver gave no log", src);
    free(raw);
    *ok = status != 0;
    return sh;
}

/* The build's end: the mapped errors become the error, or OOM when they could not all be kept. */
static bool build_failed(iks_program *p, const iks_source *src, build_log *log, iks_err *e)
{
    memset(p, 0, sizeof *p);
    if (log->oom || !log->s) iks_err_set(e, IKS_E_NOMEM, "out of memory");
    else if (e) {
        iks_err_clear(e);
        /* no mainImage after all (iks_log_map said so): not a shader, as `--each` tells an include file;
         * that line alone is the message, as for any error that is not the compiler's */
        const char *ns = src->image_unseen ? strstr(log->s, ": defines neither main") : NULL;
        if (ns) {
            while (ns > log->s && ns[-1] != '\n') ns--;
            iks_err_set(e, IKS_E_NOT_SHADER, "%.*s", (int)strcspn(ns, "\n"), ns);
        } else {
            e->code = IKS_E_COMPILE;
            /* handed over as made (the compiler-style lines are the message), but for the last line's
             * newline: no other message ends with one, and a caller's exception text should not */
            size_t n = strlen(log->s);
            while (n && log->s[n - 1] == '\n') log->s[--n] = '\0';
            e->msg = log->s;
            log->s = NULL;
        }
    }
    free(log->s);
    return false;
}

static bool program_build(iks_program *p, const iks_source *src, iks_err *e, const iks_logger *log, iks_sbuf *said);

typedef struct {
    iks_program *p;
    const iks_source *src;
    iks_err *e;
    const iks_logger *log;
    iks_sbuf *said;
    bool ok;
} build_job;

static void build_on_stack(void *arg)
{
    build_job *j = arg;
    j->ok = program_build(j->p, j->src, j->e, j->log, j->said);
}

bool iks_program_build(iks_program *p, const iks_source *src, iks_err *e, const iks_logger *log, iks_sbuf *said)
{
    /* the driver's compiler recurses once per term of an expression: a deep one overflowed an 8 MiB
     * thread of an embedding program (the command runs on a 512 MiB one): see bigstack.h */
    build_job j = { p, src, e, log, said, false };
    iks_on_big_stack(build_on_stack, &j);
    return j.ok;
}

static bool program_build(iks_program *p, const iks_source *src, iks_err *e, const iks_logger *log, iks_sbuf *said)
{
    memset(p, 0, sizeof *p);
    build_log acc = { 0 };
    bool vok, fok;
    GLuint vs = compile(GL_VERTEX_SHADER, src->vertex, src, &acc, &vok);
    GLuint fs = compile(GL_FRAGMENT_SHADER, src->fragment, src, &acc, &fok);
    if (!vok || !fok) {
        glDeleteShader(vs);
        glDeleteShader(fs);
        return build_failed(p, src, &acc, e);
    }
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glBindFragDataLocation(prog, 0, "iks_FragColor");
    glLinkProgram(prog);
    glDetachShader(prog, vs);
    glDetachShader(prog, fs);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint linked = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    char *raw = shader_log(prog, true);
    if (!linked) {
        size_t before = acc.len;
        add_log(&acc, raw, src);
        if (acc.len == before) add_log(&acc, "error: the program did not link and the driver gave no log", src);
        free(raw);
        glDeleteProgram(prog);
        return build_failed(p, src, &acc, e);
    }
    free(raw); /* link warnings on success are driver chatter ("no errors"), not the user's */
    int n = iks_uniform_decls(src->fragment, NULL, 0);
    iks_udecl *decls = calloc((size_t)(n > 0 ? n : 1), sizeof *decls);
    if (!decls) {
        /* without its declarations every --set would be refused as undeclared: fail instead */
        glDeleteProgram(prog);
        free(acc.s);
        return iks_err_set(e, IKS_E_NOMEM, "out of memory");
    }
    iks_param *params = NULL;
    if (src->nparams > 0 && !(params = malloc(sizeof *params * (size_t)src->nparams))) {
        free(decls);
        glDeleteProgram(prog);
        free(acc.s);
        return iks_err_set(e, IKS_E_NOMEM, "out of memory");
    }
    if (params) memcpy(params, src->params, sizeof *params * (size_t)src->nparams);
    p->params = params;
    p->nparams = src->nparams;
    /* the compiler's warnings, less those another pass of the toy already gave (Common's, in each) */
    char *unsaid = said && acc.s ? iks_log_unsaid(acc.s, said) : NULL;
    const char *warn = said && unsaid ? unsaid : acc.s;
    if (warn && *warn) iks_warnf(log, "%s", warn);
    free(unsaid);
    free(acc.s);
    p->decls = decls;
    p->ndecls = iks_uniform_decls(src->fragment, decls, n);
    p->prog = prog;
    glGenVertexArrays(1, &p->vao);
    for (int i = 0; i < IKS_U_COUNT; i++) p->loc[i] = glGetUniformLocation(prog, UNIFORM_NAMES[i]);
    return true;
}

void iks_program_destroy(iks_program *p)
{
    if (p->prog) glDeleteProgram(p->prog);
    if (p->vao) glDeleteVertexArrays(1, &p->vao);
    free(p->decls);
    free(p->params);
    memset(p, 0, sizeof *p);
}

bool iks_program_uses(const iks_program *p, const char *name)
{
    return p->prog && glGetUniformLocation(p->prog, name) >= 0;
}

void iks_setting_warn_removed(const iks_logger *log, const iks_setting *s)
{
    iks_warnf(log, "uniform '%s' is declared but unused, so the compiler removed it: setting it has no effect",
              s->name);
}

bool iks_program_apply(const iks_program *p, const iks_setting *s, int n, iks_err *e, const iks_logger *log)
{
    glUseProgram(p->prog);
    for (int i = 0; i < n; i++) {
        const iks_udecl *d = NULL;
        for (int k = 0; k < p->ndecls; k++)
            if (strcmp(p->decls[k].name, s[i].name) == 0) d = &p->decls[k];
        if (!d)
            return SET_ERR(e, &s[i], s[i].name, "the shader declares no uniform '%s'", s[i].name);
        if (d->comps == 0)
            return SET_ERR(e, &s[i], s[i].name, "uniform '%s' is %s%s; only float, int, uint, bool and their "
                           "vectors can be set", s[i].name, d->type, d->array ? " (an array)" : "");
        if (s[i].n != d->comps)
            return SET_ERR(e, &s[i], s[i].name, "uniform '%s' is %s: expected %d value%s, got %d", s[i].name, d->type,
                           d->comps, d->comps > 1 ? "s" : "", s[i].n);
        const double *v = s[i].v;
        /* refused whether or not the compiler kept the uniform: the value is wrong either way */
        for (int c = 0; c < d->comps; c++) {
            const char *why = iks_ubase_refuses(d->base, v[c]);
            if (why) {
                char num[32];
                iks_double_text(v[c], num, sizeof num);
                return SET_ERR(e, &s[i], s[i].name, "uniform '%s' is %s: value %d (%s) is %s", s[i].name, d->type,
                               c + 1, num, why);
            }
        }
        GLint loc = glGetUniformLocation(p->prog, s[i].name);
        if (loc < 0) {
            iks_setting_warn_removed(log, &s[i]);
            continue;
        }
        switch (d->base) {
        case IKS_U_FLOAT:
            if (d->comps == 1) glUniform1f(loc, (float)v[0]);
            if (d->comps == 2) glUniform2f(loc, (float)v[0], (float)v[1]);
            if (d->comps == 3) glUniform3f(loc, (float)v[0], (float)v[1], (float)v[2]);
            if (d->comps == 4) glUniform4f(loc, (float)v[0], (float)v[1], (float)v[2], (float)v[3]);
            break;
        case IKS_U_INT:
        case IKS_U_BOOL: {
            GLint iv[4] = { (GLint)v[0], (GLint)v[1], (GLint)v[2], (GLint)v[3] };
            if (d->comps == 1) glUniform1iv(loc, 1, iv);
            if (d->comps == 2) glUniform2iv(loc, 1, iv);
            if (d->comps == 3) glUniform3iv(loc, 1, iv);
            if (d->comps == 4) glUniform4iv(loc, 1, iv);
            break;
        }
        case IKS_U_UINT: {
            GLuint uv[4] = { (GLuint)v[0], (GLuint)v[1], (GLuint)v[2], (GLuint)v[3] };
            if (d->comps == 1) glUniform1uiv(loc, 1, uv);
            if (d->comps == 2) glUniform2uiv(loc, 1, uv);
            if (d->comps == 3) glUniform3uiv(loc, 1, uv);
            if (d->comps == 4) glUniform4uiv(loc, 1, uv);
            break;
        }
        default: break;
        }
    }
    return true;
}

/* ---- targets ----------------------------------------------------------------------------------- */

/* Under an address-space limit, a texture that would leave the driver no room to compile the next
 * shader is refused here: llvmpipe holds textures in this process's memory, and its JIT aborts the
 * process where it finds no room (base/aslimit.h) */
static bool room_for(int w, int h, size_t bytes, const char *what, iks_err *e)
{
    iks_as_room r;
    if (iks_as_fits(bytes, &r)) return true;
    size_t mib = (size_t)1 << 20;
    return iks_err_set(e, IKS_E_NOMEM,
                       "a %s of %dx%d (%zu MiB) does not fit under the address-space limit (ulimit -v %zu): %zu MiB "
                       "are free, and the GL driver needs %d MiB of them to compile; raise the limit or draw smaller",
                       what, w, h, (bytes + mib - 1) / mib, r.limit / 1024, r.limit > r.used ? (r.limit - r.used) / mib : 0,
                       IKS_AS_JIT_MIB);
}

bool iks_target_create(iks_target *t, int w, int h, iks_pixfmt fmt, iks_err *e)
{
    memset(t, 0, sizeof *t);
    int max = iks_gpu_max_size();
    if (w < 1 || h < 1 || w > max || h > max)
        return iks_err_set(e, IKS_E_USAGE, "size %dx%d: this GL allows 1 to %d on each side", w, h, max);
    if (!room_for(w, h, (size_t)w * (size_t)h * (fmt == IKS_RGBA32F ? 16 : 4), "render target", e)) return false;
    t->w = w;
    t->h = h;
    t->fmt = fmt;
    while (glGetError() != GL_NO_ERROR) {}
    glGenTextures(1, &t->tex);
    glBindTexture(GL_TEXTURE_2D, t->tex);
    if (fmt == IKS_RGBA32F) glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, w, h, 0, GL_RGBA, GL_FLOAT, NULL);
    else glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &t->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t->tex, 0);
    GLenum st = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    const char *gl = iks_gl_error();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (st != GL_FRAMEBUFFER_COMPLETE || gl) {
        iks_err_set(e, IKS_E_GL, "size %dx%d: cannot make a render target (%s)", w, h,
                    gl ? gl : "framebuffer incomplete");
        iks_target_destroy(t);
        return false;
    }
    return true;
}

void iks_target_destroy(iks_target *t)
{
    if (t->fbo) glDeleteFramebuffers(1, &t->fbo);
    if (t->tex) glDeleteTextures(1, &t->tex);
    memset(t, 0, sizeof *t);
}

bool iks_cube_target_create(iks_cube_target *c, int size, iks_err *e)
{
    memset(c, 0, sizeof *c);
    int max = iks_gpu_max_size();
    GLint cmax = 0;
    glGetIntegerv(GL_MAX_CUBE_MAP_TEXTURE_SIZE, &cmax);
    if (cmax < max) max = cmax;
    if (size < 1 || size > max)
        return iks_err_set(e, IKS_E_USAGE, "cubemap faces of %dx%d: this GL allows 1 to %d on a side", size, size, max);
    if (!room_for(size, size, (size_t)size * (size_t)size * 6 * 8, "cubemap of six faces", e)) return false;
    c->size = size;
    while (glGetError() != GL_NO_ERROR) {}
    glGenTextures(1, &c->tex);
    glBindTexture(GL_TEXTURE_CUBE_MAP, c->tex);
    for (int f = 0; f < 6; f++)
        glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f, 0, GL_RGBA16F, size, size, 0, GL_RGBA, GL_FLOAT, NULL);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_CUBE_MAP, 0);
    glGenFramebuffers(6, c->fbo);
    bool complete = true;
    static const float zero[4] = { 0, 0, 0, 0 };
    for (int f = 0; f < 6; f++) {
        glBindFramebuffer(GL_FRAMEBUFFER, c->fbo[f]);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f,
                               c->tex, 0);
        complete &= glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
        if (complete) glClearBufferfv(GL_COLOR, 0, zero);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    const char *gl = iks_gl_error();
    if (!complete || gl) {
        iks_err_set(e, IKS_E_GL, "cubemap faces of %dx%d: cannot make a render target (%s)", size, size,
                    gl ? gl : "framebuffer incomplete");
        iks_cube_target_destroy(c);
        return false;
    }
    return true;
}

void iks_cube_target_destroy(iks_cube_target *c)
{
    for (int f = 0; f < 6; f++)
        if (c->fbo[f]) glDeleteFramebuffers(1, &c->fbo[f]);
    if (c->tex) glDeleteTextures(1, &c->tex);
    memset(c, 0, sizeof *c);
}

iks_target iks_cube_face(const iks_cube_target *c, int face)
{
    return (iks_target){ .fbo = c->fbo[face], .tex = 0, .w = c->size, .h = c->size, .fmt = IKS_RGBA32F };
}

unsigned iks_texture_rgba32f(int w, int h, const float *data)
{
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, w, h, 0, GL_RGBA, GL_FLOAT, data);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return tex;
}

void iks_texture_destroy(unsigned tex)
{
    if (tex) glDeleteTextures(1, &tex);
}

/* ---- frames ------------------------------------------------------------------------------------ */

void iks_frame_defaults(iks_frame *f)
{
    memset(f, 0, sizeof *f);
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    /* shadertoy.com: year, month from 0, day, seconds since midnight */
    f->date[0] = (float)(tm.tm_year + 1900);
    f->date[1] = (float)tm.tm_mon;
    f->date[2] = (float)tm.tm_mday;
    f->date[3] = (float)(tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec);
    f->frame_rate = 60;
    f->time_delta = 1.0 / 60;
}

void iks_draw(const iks_program *p, const iks_target *t, const iks_frame *f)
{
    glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
    glViewport(0, 0, t->w, t->h);
    glUseProgram(p->prog);
    /* the built-in uniforms, each as the list says (glsl/uniforms.h); an array's length is its "[n]" */
#define UP_F1(loc, n, v) glUniform1f(loc, v)
#define UP_I1(loc, n, v) glUniform1i(loc, v)
#define UP_SAMPLER(loc, n, v) glUniform1i(loc, v)
#define UP_F3(loc, n, v) glUniform3fv(loc, 1, v)
#define UP_F4(loc, n, v) glUniform4fv(loc, 1, v)
#define UP_F1V(loc, n, v) if (v) glUniform1fv(loc, n, v)
#define UP_F3V(loc, n, v) if (v) glUniform3fv(loc, n, v)
#define UPLOAD(id, name, type, array, up, from, doc)                                                             \
    if (p->loc[IKS_U_##id] >= 0) {                                                                               \
        UP_##up(p->loc[IKS_U_##id], (int)(sizeof array > 1 ? strtol(array + 1, NULL, 10) : 1), from);           \
    }
    IKS_UNIFORMS(UPLOAD)
#undef UPLOAD
    for (int i = 0; i < 4; i++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)i);
        bool flat = !f->channel_cube[i] && !f->channel_3d[i];
        glBindTexture(GL_TEXTURE_2D, flat ? f->channel[i] : 0);
        glBindTexture(GL_TEXTURE_CUBE_MAP, f->channel_cube[i] ? f->channel[i] : 0);
        glBindTexture(GL_TEXTURE_3D, f->channel_3d[i] ? f->channel[i] : 0);
    }
    glBindVertexArray(p->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
}

void iks_read_rows(const iks_target *t, int y0, int rows, void *dst)
{
    glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    if (t->fmt == IKS_RGBA32F) glReadPixels(0, y0, t->w, rows, GL_RGBA, GL_FLOAT, dst);
    else glReadPixels(0, y0, t->w, rows, GL_RGBA, GL_UNSIGNED_BYTE, dst);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void iks_draw_rows(const iks_program *p, const iks_target *t, const iks_frame *f, int y0, int rows)
{
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, y0, t->w, rows);
    iks_draw(p, t, f);
    glDisable(GL_SCISSOR_TEST);
}

void iks_gpu_read_screen(int w, int h, uint8_t *dst)
{
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, dst);
}

void iks_gpu_clear_screen(int w, int h, const float rgba[4])
{
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, w, h);
    glClearColor(rgba[0], rgba[1], rgba[2], rgba[3]);
    glClear(GL_COLOR_BUFFER_BIT);
}

void iks_read(const iks_target *t, void *dst)
{
    iks_read_rows(t, 0, t->h, dst);
}

bool iks_target_blit(const iks_target *t, unsigned fbo, int x, int y, int w, int h, iks_err *e)
{
    char v[32];
    snprintf(v, sizeof v, "%u", fbo);
    if (fbo && !glIsFramebuffer(fbo))
        return iks_err_field(e, IKS_E_USAGE, "fbo", v, "not a framebuffer object of the engine's GL context");
    while (iks_gl_error()) {} /* the host's pending errors are not this copy's */
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
    GLenum st = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER);
    if (st != GL_FRAMEBUFFER_COMPLETE)
        return iks_err_field(e, IKS_E_GL, "fbo", v, "GL cannot draw into it (framebuffer status 0x%04x)", (unsigned)st);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, t->fbo);
    /* the same size copies texels exactly; another scales */
    glBlitFramebuffer(0, 0, t->w, t->h, x, y, x + w, y + h, GL_COLOR_BUFFER_BIT,
                      w == t->w && h == t->h ? GL_NEAREST : GL_LINEAR);
    const char *ge = iks_gl_error();
    if (ge) return iks_err_field(e, IKS_E_GL, "fbo", v, "GL: %s copying the frame into it", ge);
    return true;
}

/* ---- asynchronous readback --------------------------------------------------------------------- */

static size_t pixel_bytes(iks_pixfmt f) { return f == IKS_RGBA32F ? 16 : 4; }

bool iks_readback_create(iks_readback *r, int slots, int w, int h, iks_pixfmt fmt, iks_err *e)
{
    memset(r, 0, sizeof *r);
    if (slots < 1 || slots > IKS_RING_MAX)
        return iks_err_set(e, IKS_E_USAGE, "readback: %d slots (1 to %d)", slots, IKS_RING_MAX);
    r->n = slots;
    r->w = w;
    r->h = h;
    r->fmt = fmt;
    while (glGetError() != GL_NO_ERROR) {} /* only this call's errors count */
    glGenBuffers(slots, r->pbo);
    for (int i = 0; i < slots; i++) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, r->pbo[i]);
        glBufferData(GL_PIXEL_PACK_BUFFER, (GLsizeiptr)((size_t)w * (size_t)h * pixel_bytes(fmt)), NULL, GL_STREAM_READ);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    if (iks_gl_error()) {
        iks_readback_destroy(r);
        return iks_err_set(e, IKS_E_GL, "GL: cannot make readback buffers");
    }
    return true;
}

void iks_readback_start(iks_readback *r, int slot, const iks_target *t)
{
    glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, r->pbo[slot]);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, r->w, r->h, GL_RGBA, r->fmt == IKS_RGBA32F ? GL_FLOAT : GL_UNSIGNED_BYTE, (void *)0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

bool iks_readback_finish(iks_readback *r, int slot, void *dst)
{
    glBindBuffer(GL_PIXEL_PACK_BUFFER, r->pbo[slot]);
    size_t n = (size_t)r->w * (size_t)r->h * pixel_bytes(r->fmt);
    const void *src = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, (GLsizeiptr)n, GL_MAP_READ_BIT);
    bool ok = src != NULL;
    if (ok) {
        memcpy(dst, src, n);
        ok = glUnmapBuffer(GL_PIXEL_PACK_BUFFER) == GL_TRUE;
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    return ok;
}

void iks_readback_destroy(iks_readback *r)
{
    if (r->n) glDeleteBuffers(r->n, r->pbo);
    memset(r, 0, sizeof *r);
}

/* ---- supersampling ----------------------------------------------------------------------------- */

static const char DOWN_VS[] = "#version 330 core\n"
                              "void main() {\n"
                              "    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));\n"
                              "    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n"
                              "}\n";
static const char DOWN_FS[] = "#version 330 core\n"
                              "uniform sampler2D src;\n"
                              "uniform int k;\n"
                              "out vec4 o;\n"
                              "void main() {\n"
                              "    ivec2 b = ivec2(gl_FragCoord.xy) * k;\n"
                              "    vec4 s = vec4(0.0);\n"
                              "    for (int y = 0; y < k; y++)\n"
                              "        for (int x = 0; x < k; x++) s += texelFetch(src, b + ivec2(x, y), 0);\n"
                              "    o = s / float(k * k);\n"
                              "}\n";

bool iks_downsample_create(iks_downsample *d, iks_err *e)
{
    memset(d, 0, sizeof *d);
    const char *src[2] = { DOWN_VS, DOWN_FS };
    GLenum types[2] = { GL_VERTEX_SHADER, GL_FRAGMENT_SHADER };
    GLuint prog = glCreateProgram();
    for (int i = 0; i < 2; i++) {
        GLuint sh = glCreateShader(types[i]);
        glShaderSource(sh, 1, &src[i], NULL);
        glCompileShader(sh);
        glAttachShader(prog, sh);
        glDeleteShader(sh);
    }
    glLinkProgram(prog);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        glDeleteProgram(prog);
        return iks_err_set(e, IKS_E_GL, "GL: the supersampling filter did not build");
    }
    d->prog = prog;
    d->loc_src = glGetUniformLocation(prog, "src");
    d->loc_k = glGetUniformLocation(prog, "k");
    glGenVertexArrays(1, &d->vao);
    return true;
}

void iks_downsample_run(const iks_downsample *d, const iks_target *src, const iks_target *dst, int k)
{
    glBindFramebuffer(GL_FRAMEBUFFER, dst->fbo);
    glViewport(0, 0, dst->w, dst->h);
    glUseProgram(d->prog);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, src->tex);
    glUniform1i(d->loc_src, 0);
    glUniform1i(d->loc_k, k);
    glBindVertexArray(d->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
}

void iks_downsample_destroy(iks_downsample *d)
{
    if (d->prog) glDeleteProgram(d->prog);
    if (d->vao) glDeleteVertexArrays(1, &d->vao);
    memset(d, 0, sizeof *d);
}
