/* toyspec.c: a toy's description (the public iks_toy_desc) checked and built into a spec (src/toy) in
 * one place, which iks_toy_check, iks_toy_load, the live loop and iks_toy_describe all go through; the
 * built-in uniforms' public list and the checks of a setting and a channel spec; and the GL-free view
 * of a toy (iks_toy_describe). What it does not do: anything with GL (engine.c builds the GPU toy from
 * the finished spec). */
#include "engine/engine.h"
#include "glsl/uniforms.h"
#include "toy/describe.h"
#include "base/userfile.h"
#include "base/strutil.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *desc_path(const char *shader_dir, const iks_toy_desc *d, char *buf, size_t n, iks_err *err);

/* ---- the built-in uniforms: glsl/uniforms.h's list ------------------------------------------------ */

#define BUILTIN_ROW(id, name, type, array, up, from, doc) { name, type array, doc, PASSES },
#define PASSES "every pass"
static const iks_builtin BUILTINS[] = { IKS_UNIFORMS_COMMON(BUILTIN_ROW)
#undef PASSES
#define PASSES "Cube A"
                                        IKS_UNIFORMS_CUBE(BUILTIN_ROW)
#undef PASSES
#define PASSES "the sound pass"
                                        IKS_UNIFORMS_SOUND(BUILTIN_ROW) };
#undef PASSES
#define ALIAS_ROW(alias, name) { alias, name },
static const struct { const char *alias, *name; } ALIASES[] = { IKS_UNIFORM_ALIASES(ALIAS_ROW) };

const iks_builtin *iks_builtin_uniform(int i)
{
    return i >= 0 && (size_t)i < sizeof BUILTINS / sizeof BUILTINS[0] ? &BUILTINS[i] : NULL;
}

const iks_builtin *iks_builtin_named(const char *name, const char **alias_of)
{
    *alias_of = NULL;
    for (size_t i = 0; i < sizeof ALIASES / sizeof ALIASES[0]; i++)
        if (strcmp(name, ALIASES[i].alias) == 0) *alias_of = name, name = ALIASES[i].name;
    for (size_t i = 0; i < sizeof BUILTINS / sizeof BUILTINS[0]; i++)
        if (strcmp(name, BUILTINS[i].name) == 0) return &BUILTINS[i];
    return NULL;
}

/* What a setting may not be, however it came (text or typed): a built-in uniform, or a value a float
 * cannot hold. q: how the message quotes it. */
static bool setting_rules(const iks_setting *s, const char *q, iks_err *err)
{
    const char *alias;
    const iks_builtin *b = iks_builtin_named(s->name, &alias);
    if (b && alias)
        return iks_err_field(err, IKS_E_USAGE, "setting", q, "%s is %s, set by ikshade for every frame: %s", alias,
                             b->name, b->doc);
    if (b) return iks_err_field(err, IKS_E_USAGE, "setting", q, "%s is set by ikshade for every frame: %s", b->name, b->doc);
    /* the preludes are the truth: a name they gain without a line above is still refused */
    if (iks_prelude_declares(s->name))
        return iks_err_field(err, IKS_E_USAGE, "setting", q, "%s is set by ikshade for every frame", s->name);
    /* the type is the shader's, unknown here: what no uniform's type holds (past a float) is refused
     * now, the rest where the declaration is known (iks_program_apply), both by iks_ubase_refuses */
    for (int i = 0; i < s->n; i++) {
        const char *why = iks_ubase_refuses(IKS_U_FLOAT, s->v[i]);
        if (why) {
            char num[32];
            iks_double_text(s->v[i], num, sizeof num);
            return iks_err_field(err, IKS_E_USAGE, "setting", q, "value %d (%s) is %s", i + 1, num, why);
        }
    }
    return true;
}

bool iks_setting_check(const char *arg, iks_setting *s, iks_err *err)
{
    if (!iks_setting_parse(arg, s, err)) return false;
    char q[160];
    snprintf(q, sizeof q, "'%.150s'", arg);
    return setting_rules(s, q, err);
}

iks_code iks_value_parse(const char *setting, iks_value *out)
{
    if (!setting || !out) return iks_fail_usage("iks_value_parse: setting and out must not be NULL");
    iks_err err = IKS_ERR_INIT;
    iks_setting s;
    if (!iks_setting_parse(setting, &s, &err)) return iks_publish(&err);
    *out = (iks_value){ .n = s.n, .type = IKS_UNIFORM_FLOAT };
    memcpy(out->name, s.name, sizeof out->name);
    memcpy(out->v, s.v, sizeof out->v);
    return IKS_OK;
}

/* A typed value as a setting: a GLSL identifier, 1 to 4 finite components, and the rules of any setting */
static bool value_check(const iks_value *v, iks_setting *s, iks_err *err)
{
    memset(s, 0, sizeof *s);
    size_t len = strnlen(v->name, sizeof v->name);
    char q[96];
    snprintf(q, sizeof q, "'%.*s'", (int)(len < 64 ? len : 63), v->name);
    if (len >= sizeof v->name || !iks_glsl_identifier(v->name, len)) return iks_err_field(err, IKS_E_USAGE, "setting", q, "name: expected a GLSL identifier, NUL-ended");
    if (v->n < 1 || v->n > 4) return iks_err_field(err, IKS_E_USAGE, "setting", q, "n %d: expected 1 to 4 values", v->n);
    memcpy(s->name, v->name, len);
    s->n = v->n;
    for (int i = 0; i < v->n; i++) {
        if (!isfinite(v->v[i])) return iks_err_field(err, IKS_E_USAGE, "setting", q, "value %d is not a finite number", i + 1);
        s->v[i] = v->v[i];
    }
    return setting_rules(s, q, err);
}

/* A channel spec: its syntax, and the file it names there (a cubemap's other faces are looked for at
 * load). field: "channel[N]", or "channel" for a lone spec. */
static bool channel_check(const char *spec, const char *field, iks_err *err)
{
    iks_input in;
    if (!iks_channel_parse(spec, &in, err)) return iks_err_rename_field(err, field), false;
    /* the parser knows which words name files (not a..d, cube_a, keyboard, black): a file that is not
     * there is the caller's mistake, said before any context is made */
    struct stat st;
    bool ok = true;
    const iks_channel_kind *k = iks_channel_kind_of(in.kind);
    /* a live input's is a capture device, which is there or not when it runs (it may come later) */
    if (in.path && k && k->file && stat(in.path, &st) != 0) {
        char q[300];
        snprintf(q, sizeof q, "'%.280s'", spec);
        int e = errno;
        if (strcmp(in.path, spec) == 0) ok = iks_err_field(err, IKS_E_USAGE, field, q, "%s", strerror(e));
        else ok = iks_err_field(err, IKS_E_USAGE, field, q, "%s: %s", in.path, strerror(e));
    }
    free((char *)in.path);
    return ok;
}

/* Everything a toy's description says that can be checked without GL and without reading the toy:
 * refused, never guessed, each error about its field */
static bool toy_desc_check(const iks_toy_desc *d, iks_err *err)
{
    if (d->json && d->source)
        return iks_err_field(err, IKS_E_USAGE, "json", NULL, "a toy is a JSON or source text, not both");
    char v[64], f[32];
    if (d->nsets < 0) return iks_err_field(err, IKS_E_USAGE, "nsets", NULL, "%d: expected 0 or more", d->nsets);
    if (d->nsets > 0 && !d->sets) return iks_err_field(err, IKS_E_USAGE, "sets", NULL, "NULL with nsets %d", d->nsets);
    if (d->nvalues < 0) return iks_err_field(err, IKS_E_USAGE, "nvalues", NULL, "%d: expected 0 or more", d->nvalues);
    if (d->nvalues > 0 && !d->values)
        return iks_err_field(err, IKS_E_USAGE, "values", NULL, "NULL with nvalues %d", d->nvalues);
    if (d->n_include_dirs < 0 || (d->n_include_dirs > 0 && !d->include_dirs))
        return iks_err_field(err, IKS_E_USAGE, "include_dirs", NULL, "%s with n_include_dirs %d",
                             d->include_dirs ? "given" : "NULL", d->n_include_dirs);
    for (int i = 0; i < d->n_include_dirs; i++) {
        snprintf(f, sizeof f, "include_dirs[%d]", i);
        const char *dir = d->include_dirs[i];
        struct stat st;
        if (!dir || !*dir) return iks_err_field(err, IKS_E_USAGE, f, NULL, "%s", dir ? "empty" : "NULL");
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            char q[300];
            snprintf(q, sizeof q, "'%.280s'", dir);
            return iks_err_field(err, IKS_E_USAGE, f, q, "not a directory");
        }
    }
    if (d->cube_size < 0 || d->cube_size > IKS_MAX_SIDE) {
        snprintf(v, sizeof v, "%d", d->cube_size);
        return iks_err_field(err, IKS_E_USAGE, "cube_size", v, "expected 0 (the site's %d) or a side in pixels",
                             IKS_CUBE_SIDE);
    }
    if (d->glsl != IKS_GLSL_AUTO && d->glsl != IKS_GLSL_ES && d->glsl != IKS_GLSL_330) {
        snprintf(v, sizeof v, "%d", (int)d->glsl);
        return iks_err_field(err, IKS_E_USAGE, "glsl", v, "expected IKS_GLSL_AUTO, _ES or _330");
    }
    if (!d->override_include != !d->override_path)
        return iks_err_field(err, IKS_E_USAGE, d->override_include ? "override_include" : "override_path", NULL,
                             "override_include and override_path go together");
    snprintf(v, sizeof v, "%dx%d", d->width, d->height);
    if (d->width < 0 || d->height < 0 || d->width > IKS_MAX_SIDE || d->height > IKS_MAX_SIDE)
        return iks_err_field(err, IKS_E_USAGE, "size", v, "expected 0 (the default) or 1 to %d a side", IKS_MAX_SIDE);
    for (int c = 0; c < 4; c++) {
        snprintf(f, sizeof f, "channel[%d]", c);
        if (d->channel[c] && !channel_check(d->channel[c], f, err)) return false;
    }
    return true;
}

bool iks_toy_desc_sets(const iks_toy_desc *d, iks_setting **out, iks_err *err)
{
    *out = NULL;
    if (!toy_desc_check(d, err)) return false;
    int nsets = d->nsets > 0 ? d->nsets : 0, nvalues = d->nvalues > 0 ? d->nvalues : 0; /* negative: refused above */
    if (nsets + nvalues == 0) return true;
    iks_setting *s = calloc((size_t)nsets + (size_t)nvalues, sizeof *s);
    if (!s) return iks_err_set(err, IKS_E_NOMEM, "out of memory");
    /* the typed values after the text ones: a value given both ways ends as the typed one says */
    for (int i = 0; i < nvalues; i++) {
        iks_setting *v = &s[nsets + i];
        char f[sizeof v->field];
        snprintf(f, sizeof f, "values[%d]", i % 10000000);
        if (!value_check(&d->values[i], v, err)) {
            free(s);
            iks_err_rename_field(err, f);
            return false;
        }
        snprintf(v->field, sizeof v->field, "%s", f);
    }
    for (int i = 0; i < nsets; i++) {
        char f[sizeof s->field];
        snprintf(f, sizeof f, "sets[%d]", i % 100000000);
        if (!d->sets[i]) {
            free(s);
            return iks_err_field(err, IKS_E_USAGE, f, NULL, "NULL");
        }
        if (!iks_setting_check(d->sets[i], &s[i], err)) {
            free(s);
            iks_err_rename_field(err, f);
            return false;
        }
        snprintf(s[i].field, sizeof s[i].field, "%s", f);
    }
    *out = s;
    return true;
}

bool iks_toy_desc_take(const iks_toy_desc *d, iks_toy_desc *copy, iks_setting **sets, iks_err *err)
{
    *sets = NULL;
    return IKS_TAKE(iks_toy_desc, d, copy, IKS_FIRST_TOY_DESC, err) && iks_toy_desc_sets(copy, sets, err);
}

iks_code iks_toy_check(const iks_toy_desc *d)
{
    if (!d) return iks_fail_usage("iks_toy_check: desc is NULL");
    iks_err err = IKS_ERR_INIT;
    iks_toy_desc dc;
    iks_setting *s;
    if (!iks_toy_desc_take(d, &dc, &s, &err)) return iks_publish(&err);
    free(s);
    return IKS_OK;
}

const char *iks_toy_desc_path(const iks_engine *e, const iks_toy_desc *d, char *buf, size_t n, iks_err *err)
{
    return desc_path(e->shader_dir, d, buf, n, err);
}

const char *iks_toy_desc_path_in(const char *shader_dir, const iks_toy_desc *d, char *buf, size_t n, iks_err *err)
{
    return desc_path(shader_dir, d, buf, n, err);
}

static const char *desc_path(const char *shader_dir, const iks_toy_desc *d, char *buf, size_t n, iks_err *err)
{
    if (d->path || d->source || d->json) return d->path;
    if (!shader_dir) {
        iks_err_set(err, IKS_E_IO, "cannot find the demo shaders; give a SHADER or set IKSHADE_SHADERS");
        return NULL;
    }
    snprintf(buf, n, "%.4000s/limb.frag", shader_dir);
    return buf;
}


/* ---- small checks ---- */
iks_code iks_check_setting(const char *setting)
{
    if (!setting) return iks_fail_usage("iks_check_setting: setting is NULL");
    iks_err err = IKS_ERR_INIT;
    iks_setting s;
    return iks_setting_check(setting, &s, &err) ? IKS_OK : iks_publish(&err);
}

iks_code iks_check_channel(const char *spec)
{
    if (!spec) return iks_fail_usage("iks_check_channel: spec is NULL");
    iks_err err = IKS_ERR_INIT;
    return channel_check(spec, "channel", &err) ? IKS_OK : iks_publish(&err);
}


/* ---- the one builder ------------------------------------------------------------------------------ */

bool iks_toy_spec_build(const iks_toy_desc *d, const char *shader_dir, iks_toyfile *tf, iks_err *err,
                        const iks_logger *log)
{
    memset(tf, 0, sizeof *tf);
    char dflt[PATH_MAX];
    const char *path = desc_path(shader_dir, d, dflt, sizeof dflt, err);
    if (!path && !d->source && !d->json) return false;
    unsigned flags = (d->missing_media_black ? IKS_TF_MISSING_BLACK : 0u) |
                     (d->allow_media_outside ? IKS_TF_MEDIA_OUTSIDE : 0u) | (d->sound_only ? IKS_TF_SOUND_ONLY : 0u);
    bool ok = d->json     ? iks_toyfile_parse_json(tf, path ? path : "<memory>.json", d->json, flags, err, log)
              : d->source ? iks_toyfile_from_text(tf, path, d->source, d->channel, flags, err, log)
                          : iks_toyfile_load(tf, path, d->channel, flags, err, log);
    if (!ok) return false;
    /* what the description says over what the file says */
    if (d->glsl != IKS_GLSL_AUTO) tf->desc.es = d->glsl == IKS_GLSL_ES;
    tf->desc.sound_only = d->sound_only;
    tf->desc.cube_size = d->cube_size;
    tf->desc.live_black = d->missing_media_black;
    return true;
}

bool iks_toy_source_base(const iks_toy_desc *d, const char *shader_dir, iks_source_opts *base, iks_err *err)
{
    /* the include search: the user's directories, then the shaders directory */
    int nd = d->n_include_dirs > 0 && d->include_dirs ? d->n_include_dirs : 0;
    const char **dirs = malloc(sizeof *dirs * (size_t)(nd + 1));
    if (!dirs) return iks_err_set(err, IKS_E_NOMEM, "out of memory");
    for (int i = 0; i < nd; i++) dirs[i] = d->include_dirs[i];
    if (shader_dir) dirs[nd++] = shader_dir;
    *base = (iks_source_opts){ .files = iks_disk_files(), .include_dirs = dirs, .n_include_dirs = nd,
                               .override_name = d->override_include, .override_path = d->override_path };
    return true;
}

static char channel_completion[1024];
static void make_channel_completion(void)
{
    iks_channel_kinds_complete(channel_completion, sizeof channel_completion);
}

const char *iks_channel_completion(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_channel_completion);
    return channel_completion;
}

/* ---- a toy described, without GL ----------------------------------------------------------------- */

struct iks_toy_spec {
    iks_toy_view v;
    int order[IKS_PASS_KINDS]; /* the slots of its passes, in the order iks_toy_spec_pass lists them */
    int npasses;
    char (*passes)[96];        /* each uniform's passes, as words ("Buffer A, Image") */
};

/* The order a frame draws them: Common first (every pass's text begins with it), the buffers as the
 * site draws them, Cube A, Image, Sound */
static void spec_order(iks_toy_spec *s)
{
    const iks_spec *d = &s->v.tf.desc;
    int n = 0;
    if (d->common_path) s->order[n++] = IKS_COMMON_SLOT;
    int drawn[IKS_PASSES];
    iks_spec_draw_order(d, drawn);
    for (int k = 0; k < IKS_PASSES; k++) {
        int p = drawn[k];
        if (p == IKS_IMAGE_PASS ? !s->v.image_less : d->pass[p].path != NULL) s->order[n++] = p;
    }
    if (d->sound.path || s->v.file_sound) s->order[n++] = IKS_SOUND_SLOT;
    s->npasses = n;
}

static bool spec_uniform_passes(iks_toy_spec *s, iks_err *err)
{
    if (s->v.nu == 0) return true;
    if (!(s->passes = calloc((size_t)s->v.nu, sizeof *s->passes))) return iks_err_set(err, IKS_E_NOMEM, "out of memory");
    for (int i = 0; i < s->v.nu; i++) {
        size_t len = 0;
        for (int k = 0; k < s->npasses; k++) {
            int slot = s->order[k];
            if (slot < IKS_PASSES && (s->v.u[i].passes >> slot & 1u) && len < sizeof s->passes[i])
                len += (size_t)snprintf(s->passes[i] + len, sizeof s->passes[i] - len, "%s%s", len ? ", " : "",
                                        iks_pass_kind_at(slot)->name);
        }
    }
    return true;
}

iks_code iks_toy_describe(const iks_toy_desc *d, iks_toy_spec **out)
{
    if (!d || !out) return iks_fail_usage("iks_toy_describe: desc and out must not be NULL");
    *out = NULL;
    iks_err err = IKS_ERR_INIT;
    iks_toy_desc dc;
    iks_setting *sets = NULL;
    if (!iks_toy_desc_take(d, &dc, &sets, &err)) return iks_publish(&err);
    d = &dc;
    free(sets);
    iks_toy_spec *s = calloc(1, sizeof *s);
    if (!s) return iks_err_set(&err, IKS_E_NOMEM, "out of memory"), iks_publish(&err);
    const char *shader_dir = iks_find_shader_dir();
    iks_source_opts base;
    bool ok = iks_toy_spec_build(d, shader_dir, &s->v.tf, &err, NULL) && iks_toy_source_base(d, shader_dir, &base, &err);
    if (ok) {
        ok = iks_toy_view_scan(&s->v, &base, &err);
        free((void *)base.include_dirs);
    }
    if (ok) spec_order(s);
    if (ok) ok = spec_uniform_passes(s, &err);
    if (!ok) {
        iks_toy_spec_free(s);
        return iks_publish(&err);
    }
    *out = s;
    return IKS_OK;
}

void iks_toy_spec_free(iks_toy_spec *s)
{
    if (!s) return;
    iks_toy_view_free(&s->v);
    free(s->passes);
    free(s);
}

const char *iks_toy_spec_name(const iks_toy_spec *s) { return s ? s->v.tf.name : ""; }
int iks_toy_spec_pass_count(const iks_toy_spec *s) { return s ? s->npasses : 0; }
int iks_toy_spec_uniform_count(const iks_toy_spec *s) { return s ? s->v.nu : 0; }

/* the pass a listed index names: its slot, or -1 with the error */
static int spec_slot(const iks_toy_spec *s, int i, const char *fn)
{
    if (!s) return iks_fail_usage("%s: spec is NULL", fn), -1;
    if (i < 0 || i >= s->npasses) {
        char v[32];
        snprintf(v, sizeof v, "%d", i);
        return iks_fail_field("index", v, "the toy has %d pass%s (0 to %d)", s->npasses, s->npasses == 1 ? "" : "es",
                              s->npasses - 1), -1;
    }
    return s->order[i];
}

static const iks_pass *slot_pass(const iks_toy_spec *s, int slot)
{
    /* a sound shader alone (or a file that is both) is its own sound pass: the Image's file */
    if (slot == IKS_SOUND_SLOT && s->v.file_sound) return &s->v.tf.desc.pass[IKS_IMAGE_PASS];
    return iks_spec_pass_c(&s->v.tf.desc, slot);
}

static const char *const ENTRY_NAMES[] = { [IKS_ENTRY_IMAGE] = "mainImage", [IKS_ENTRY_CUBEMAP] = "mainCubemap",
                                           [IKS_ENTRY_SOUND] = "mainSound" };

iks_code iks_toy_spec_pass(const iks_toy_spec *s, int i, iks_pass_info *out)
{
    if (!out) return iks_fail_usage("iks_toy_spec_pass: out is NULL");
    int slot = spec_slot(s, i, "iks_toy_spec_pass");
    if (slot < 0) return iks_last_error(NULL);
    const iks_pass_kind *k = iks_pass_kind_at(slot);
    const iks_pass *ps = slot_pass(s, slot);
    iks_pass_info pi = { sizeof pi, .name = k->name, .id = k->public_id, .entry = "" };
    if (ps) {
        pi.source = ps->path;
        pi.entry = ENTRY_NAMES[k->entry];
        /* a file that is also the sound pass reads its channels as the picture does */
        for (int c = 0; c < 4; c++) pi.channels += ps->in[c].kind != IKS_IN_NONE;
    } else pi.source = s->v.tf.desc.common_path;
    iks_err err = IKS_ERR_INIT;
    return iks_out_give(out, &pi, sizeof pi, IKS_FIRST_PASS_INFO, "iks_pass_info", &err) ? IKS_OK : iks_publish(&err);
}

static const char *const SAMPLER_NAMES[] = { [IKS_SAMPLER_2D] = "sampler2D", [IKS_SAMPLER_CUBE] = "samplerCube",
                                             [IKS_SAMPLER_3D] = "sampler3D" };

iks_code iks_toy_spec_channel(const iks_toy_spec *s, int i, int c, iks_channel_info *out)
{
    if (!out) return iks_fail_usage("iks_toy_spec_channel: out is NULL");
    int slot = spec_slot(s, i, "iks_toy_spec_channel");
    if (slot < 0) return iks_last_error(NULL);
    char v[32];
    snprintf(v, sizeof v, "%d", c);
    if (c < 0 || c > 3) return iks_fail_field("channel", v, "expected 0 to 3");
    const iks_pass *ps = slot_pass(s, slot);
    iks_channel_info ci = { sizeof ci, .filter = "linear", .wrap = "clamp", .sampler = "sampler2D" };
    const iks_input *in = ps ? &ps->in[c] : NULL;
    const iks_channel_kind *k = in ? iks_channel_kind_of(in->kind) : NULL;
    if (k) {
        ci.kind = k->info;
        ci.filter = iks_filter_word(in->filter);
        ci.wrap = in->repeat ? "repeat" : "clamp";
        /* how a file is uploaded: nothing to black, a buffer or the keyboard */
        ci.vflip = k->file && in->path && in->vflip;
        ci.srgb = k->file && in->path && in->srgb;
        ci.sampler = SAMPLER_NAMES[k->sampler];
        if (k->file) ci.source = in->path;
        if (k->file && !in->path) ci.kind = "black";
        if (in->kind == IKS_IN_BUFFER) ci.source = iks_pass_kind_at(in->buffer)->name;
        if (in->kind == IKS_IN_CUBE_BUFFER) ci.source = iks_pass_kind_at(IKS_CUBE_PASS)->name;
    }
    iks_err err = IKS_ERR_INIT;
    return iks_out_give(out, &ci, sizeof ci, IKS_FIRST_CHANNEL_INFO, "iks_channel_info", &err) ? IKS_OK : iks_publish(&err);
}

iks_code iks_toy_spec_uniform(const iks_toy_spec *s, int i, iks_declared_uniform *out)
{
    if (!s || !out) return iks_fail_usage("iks_toy_spec_uniform: spec and out must not be NULL");
    char v[32];
    snprintf(v, sizeof v, "%d", i);
    if (i < 0 || i >= s->v.nu)
        return iks_fail_field("index", v, "the toy declares %d uniform%s of its own (0 to %d)", s->v.nu,
                              s->v.nu == 1 ? "" : "s", s->v.nu - 1);
    const iks_view_uniform *u = &s->v.u[i];
    iks_declared_uniform du = { sizeof du, .name = u->name, .glsl_type = u->type, .type = iks_public_uniform_type(u->base),
                                .n = u->comps, .passes = s->passes[i], .declared = u->declared,
                                .has_range = u->has_range, .color = u->color, .min = u->min, .max = u->max,
                                .step = u->step };
    if (u->declared) memcpy(du.initial, u->def, sizeof du.initial);
    iks_err err = IKS_ERR_INIT;
    return iks_out_give(out, &du, sizeof du, IKS_FIRST_DECLARED_UNIFORM, "iks_declared_uniform", &err) ? IKS_OK : iks_publish(&err);
}
