/* toy.c: the passes of a Shadertoy toy, their buffers, channels and samplers. Sampling state lives in
 * sampler objects, not in textures, because one buffer may be read with different filters by
 * different passes (and by itself). */
#include "gpu/toy.h"
#include "glsl/params.h"
#include "glsl/uniforms.h"
#include "base/buf.h"
#include "base/clock.h"
#include "base/userfile.h"
#include "media/image.h"
#include "media/volume.h"

#include <errno.h>
#include <stdint.h>
#include <limits.h>
#include <glad/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a pass's name in messages: the pass kinds' table (toy/spec.h) */
static const char *pass_name(int p) { return iks_pass_kind_at(p)->name; }

/* the sampler type a channel of kind k is declared with (the channel kinds' table) */
static iks_sampler sampler_of(iks_input_kind k)
{
    const iks_channel_kind *row = iks_channel_kind_of(k);
    return row ? row->sampler : IKS_SAMPLER_2D;
}

/* The corners of each face and the apex, as the site draws Cube A (face order +x -x +y -y +z -z): a
 * fragment's ray goes from the apex through the bilinear mix of corners 0 1 (bottom row) and 3 2 (top) */
static const float CUBE_CORNERS[6][5][3] = {
    { { 1, 1, 1 }, { 1, 1, -1 }, { 1, -1, -1 }, { 1, -1, 1 }, { 0, 0, 0 } },
    { { -1, 1, -1 }, { -1, 1, 1 }, { -1, -1, 1 }, { -1, -1, -1 }, { 0, 0, 0 } },
    { { -1, 1, -1 }, { 1, 1, -1 }, { 1, 1, 1 }, { -1, 1, 1 }, { 0, 0, 0 } },
    { { -1, -1, 1 }, { 1, -1, 1 }, { 1, -1, -1 }, { -1, -1, -1 }, { 0, 0, 0 } },
    { { -1, 1, 1 }, { 1, 1, 1 }, { 1, -1, 1 }, { -1, -1, 1 }, { 0, 0, 0 } },
    { { 1, 1, -1 }, { -1, 1, -1 }, { -1, -1, -1 }, { 1, -1, -1 }, { 0, 0, 0 } },
};

/* FNV-1a, 64 bits: the toy's identity for checkpoints (a changed shader, channel or medium changes it) */
#define FNV_START 0xcbf29ce484222325ull
static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static unsigned sampler(iks_gltoy *t, iks_filter f, bool repeat)
{
    unsigned *s = &t->sampler_cache[f][repeat];
    if (*s) return *s;
    glGenSamplers(1, s);
    GLint min = f == IKS_FILTER_NEAREST ? GL_NEAREST : f == IKS_FILTER_MIPMAP ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR;
    glSamplerParameteri(*s, GL_TEXTURE_MIN_FILTER, min);
    glSamplerParameteri(*s, GL_TEXTURE_MAG_FILTER, f == IKS_FILTER_NEAREST ? GL_NEAREST : GL_LINEAR);
    GLint wrap = repeat ? GL_REPEAT : GL_CLAMP_TO_EDGE;
    glSamplerParameteri(*s, GL_TEXTURE_WRAP_S, wrap);
    glSamplerParameteri(*s, GL_TEXTURE_WRAP_T, wrap);
    glSamplerParameteri(*s, GL_TEXTURE_WRAP_R, wrap); /* volumes; cubemaps ignore it (seamless) */
    return *s;
}

/* loads a PNG or JPEG (decoded by src/media) as an RGBA8 (or sRGB) texture */
static bool load_image(iks_gltoy *t, const iks_input *in, unsigned *tex, float res[3], uint64_t *id, iks_err *e)
{
    if (!in->path) { /* media that is not there, run with --missing-media=black */
        static const unsigned char black[4] = { 0, 0, 0, 255 };
        glGenTextures(1, tex);
        glBindTexture(GL_TEXTURE_2D, *tex);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, black);
        glGenerateMipmap(GL_TEXTURE_2D);
        glBindTexture(GL_TEXTURE_2D, 0);
        res[0] = res[1] = res[2] = 1.0f;
        return true;
    }
    /* larger than GL takes, the channel would read black, silently */
    iks_image_opts o = { .max_side = iks_gpu_max_size(), .vflip = in->vflip, .toy_left = t->media_left,
                         .toy_budget = t->media_budget };
    iks_image img;
    if (!iks_image_load(&img, in->path, &o, e)) return false;
    int w = img.w, h = img.h;
    t->media_left -= (size_t)w * (size_t)h * 4; /* the decoder refused what would pass it */
    *id = fnv(fnv(fnv(*id, &w, sizeof w), &h, sizeof h), img.px, (size_t)w * (size_t)h * 4);
    glGenTextures(1, tex);
    glBindTexture(GL_TEXTURE_2D, *tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, in->srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, img.px);
    if (in->filter == IKS_FILTER_MIPMAP) glGenerateMipmap(GL_TEXTURE_2D);
    glBindTexture(GL_TEXTURE_2D, 0);
    iks_image_free(&img);
    res[0] = (float)w;
    res[1] = (float)h;
    res[2] = 1.0f;
    return true;
}

/* the six faces X.ext, X_1.ext .. X_5.ext as one cubemap */
static bool load_cube(iks_gltoy *t, const iks_input *in, unsigned *tex, float res[3], uint64_t *id, iks_err *e)
{
    iks_image_cube c = { 0 };
    if (in->path) {
        iks_image_opts o = { .max_side = iks_gpu_max_size(), .vflip = in->vflip, .toy_left = t->media_left,
                             .toy_budget = t->media_budget };
        if (!iks_image_cube_load(&c, in->path, &o, e)) return false;
        t->media_left -= 6 * (size_t)c.size * (size_t)c.size * 4;
    }
    glGenTextures(1, tex);
    glBindTexture(GL_TEXTURE_CUBE_MAP, *tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    for (int face = 0; face < 6; face++) {
        GLenum target = GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)face;
        if (!in->path) { /* missing media: black */
            static const unsigned char black[4] = { 0, 0, 0, 255 };
            glTexImage2D(target, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, black);
            continue;
        }
        int w = c.size;
        *id = fnv(fnv(*id, &w, sizeof w), c.face[face], (size_t)w * (size_t)w * 4);
        glTexImage2D(target, 0, in->srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, w, w, 0, GL_RGBA, GL_UNSIGNED_BYTE, c.face[face]);
    }
    if (in->filter == IKS_FILTER_MIPMAP) glGenerateMipmap(GL_TEXTURE_CUBE_MAP);
    glBindTexture(GL_TEXTURE_CUBE_MAP, 0);
    res[0] = res[1] = in->path ? (float)c.size : 1.0f;
    res[2] = 1.0f;
    iks_image_cube_free(&c);
    return true;
}

/* shadertoy.com's volume (.bin, parsed by src/media/volume.c) as a 3D texture of 1-4 channels of
 * bytes or floats */
static bool load_volume(iks_gltoy *t, const iks_input *in, unsigned *tex, float res[3], uint64_t *id, iks_err *e)
{
    if (!in->path) { /* missing media: one black texel */
        static const unsigned char black[4] = { 0, 0, 0, 255 };
        glGenTextures(1, tex);
        glBindTexture(GL_TEXTURE_3D, *tex);
        glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 1, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, black);
        glGenerateMipmap(GL_TEXTURE_3D);
        glBindTexture(GL_TEXTURE_3D, 0);
        res[0] = res[1] = res[2] = 1.0f;
        return true;
    }
    GLint max = 0;
    glGetIntegerv(GL_MAX_3D_TEXTURE_SIZE, &max);
    iks_volume v;
    if (!iks_volume_load(&v, in->path, max > 0 ? (uint32_t)max : 1, e)) return false;
    /* a volume's texels are its file's (read whole, under the file's own limit): counted before upload */
    size_t vbytes = (size_t)v.x * v.y * v.z * v.channels * (v.format == 10 ? 4 : 1);
    if (vbytes > t->media_left) {
        iks_err_set(e, IKS_E_UNSUPPORTED, "%s: a volume of %.1f MiB, more than the %.1f MiB left of the toy's media "
                    "budget (media_budget %.0f MiB: every image, cubemap face and volume it decodes)", in->path,
                    (double)vbytes / (1 << 20), (double)t->media_left / (1 << 20), (double)t->media_budget / (1 << 20));
        iks_volume_free(&v);
        return false;
    }
    t->media_left -= vbytes;
    static const GLenum BYTE_FMT[4] = { GL_R8, GL_RG8, GL_RGB8, GL_RGBA8 };
    static const GLenum FLOAT_FMT[4] = { GL_R32F, GL_RG32F, GL_RGB32F, GL_RGBA32F };
    static const GLenum LAYOUT[4] = { GL_RED, GL_RG, GL_RGB, GL_RGBA };
    unsigned ch = v.channels;
    bool floats = v.format == 10;
    /* the texels themselves, not the file's name: a volume rewritten in place is another toy */
    uint32_t dims[5] = { v.x, v.y, v.z, ch, v.format };
    *id = fnv(fnv(*id, dims, sizeof dims), v.texels, (size_t)v.x * v.y * v.z * ch * (floats ? 4 : 1));
    while (glGetError() != GL_NO_ERROR) {}
    glGenTextures(1, tex);
    glBindTexture(GL_TEXTURE_3D, *tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage3D(GL_TEXTURE_3D, 0, (GLint)(floats ? FLOAT_FMT : BYTE_FMT)[ch - 1], (GLsizei)v.x, (GLsizei)v.y,
                 (GLsizei)v.z, 0, LAYOUT[ch - 1], floats ? GL_FLOAT : GL_UNSIGNED_BYTE, v.texels);
    if (in->filter == IKS_FILTER_MIPMAP) glGenerateMipmap(GL_TEXTURE_3D);
    glBindTexture(GL_TEXTURE_3D, 0);
    bool ok = true;
    const char *gl = iks_gl_error();
    if (gl) ok = iks_err_set(e, IKS_E_GL, "%s: the GL refused a %ux%ux%u volume (%s)", in->path, v.x, v.y, v.z, gl);
    res[0] = (float)v.x;
    res[1] = (float)v.y;
    res[2] = (float)v.z;
    iks_volume_free(&v);
    return ok;
}

static bool make_buffers(iks_gltoy *t, int w, int h, iks_err *e)
{
    for (int b = 0; b < 4; b++) {
        if (!t->prog[b].prog) continue;
        for (int k = 0; k < 2; k++) {
            if (!iks_target_create(&t->buf[b][k], w, h, IKS_RGBA32F, e)) return false;
            static const float zero[4] = { 0, 0, 0, 0 };
            glBindFramebuffer(GL_FRAMEBUFFER, t->buf[b][k].fbo);
            glClearBufferfv(GL_COLOR, 0, zero);
        }
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    t->w = w;
    t->h = h;
    return true;
}

/* Adds path to a growable list of owned names, once; false when out of memory */
static bool add_name(char ***list, int *n, size_t *cap, const char *path)
{
    for (int j = 0; j < *n; j++)
        if (strcmp((*list)[j], path) == 0) return true;
    if (!IKS_GROW(*list, (size_t)*n + 1, *cap)) return false;
    if (!((*list)[*n] = strdup(path))) return false;
    (*n)++;
    return true;
}

/* The source assembler's report of each file read and each include looked for in vain: a viewer
 * watches every one of them, also when the pass fails. (Out of memory here only watches less.) */
static void touched(void *user, const char *path, bool exists)
{
    iks_gltoy *t = user;
    if (exists) (void)add_name(&t->files, &t->nfiles, &t->capfiles, path);
    else (void)add_name(&t->wanted, &t->nwanted, &t->capwanted, path);
}

/* One pass's source assembled for entry; the caller builds it (or not) and frees src */
void iks_gltoy_pass_opts(const iks_spec *d, const iks_pass *ps, iks_entry entry, const iks_source_opts *base,
                         iks_source_opts *o)
{
    iks_spec_pass_opts(d, ps, entry, iks_gpu_has_es3(), base, o);
}

static bool pass_source(iks_gltoy *t, const iks_spec *d, const iks_pass *ps, iks_entry entry,
                        const iks_source_opts *base, iks_source *src, iks_err *e)
{
    iks_source_opts o;
    iks_gltoy_pass_opts(d, ps, entry, base, &o);
    o.touched = touched;
    o.touched_user = t;
    return iks_source_load(src, ps->path, &o, e);
}

/* A pass's channels: checks what they read and loads their media into tex/res (owned by t) */
/* pass: the index of the pass in t (for its media channels), -1 for the sound pass */
static bool load_inputs(iks_gltoy *t, const iks_spec *d, int pass, const char *name, const iks_input in4[4],
                        iks_input out[4], unsigned tex[4], float res[4][3], iks_err *e)
{
    for (int c = 0; c < 4; c++) {
        const iks_input *in = &in4[c];
        out[c] = *in;
        /* what the channel is joins the toy's identity (a checkpoint holds only for the same toy); media
         * by their decoded texels here, music and video by their bytes in iks_gltoy_content_id (never
         * by name: a file rewritten in place is another toy) */
        int what[9] = { pass, c, (int)in->kind, in->buffer, (int)in->filter, in->repeat, in->vflip, in->srgb, !!in->path };
        t->identity = fnv(t->identity, what, sizeof what);
        if (in->kind == IKS_IN_CUBE_BUFFER) {
            if (!d->pass[IKS_CUBE_PASS].path)
                return iks_err_set(e, IKS_E_USAGE, "%s: " IKS_U_CHANNEL_PREFIX "%d reads Cube A, which the toy does not have", name, c);
            glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS); /* as WebGL2 samples cubemaps */
        }
        if (in->kind == IKS_IN_BUFFER && (in->buffer < 0 || in->buffer > 3 || !d->pass[in->buffer].path))
            return iks_err_set(e, IKS_E_USAGE, "%s: " IKS_U_CHANNEL_PREFIX "%d reads a buffer that the toy does not have", name, c);
        if (in->kind == IKS_IN_IMAGE && !load_image(t, in, &tex[c], res[c], &t->identity, e)) return false;
        if (in->kind == IKS_IN_CUBEMAP) {
            if (!load_cube(t, in, &tex[c], res[c], &t->identity, e)) return false;
            glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS); /* as WebGL2 samples cubemaps */
        }
        if (in->kind == IKS_IN_VOLUME && !load_volume(t, in, &tex[c], res[c], &t->identity, e)) return false;
        if (in->kind == IKS_IN_MUSIC || in->kind == IKS_IN_VIDEO || in->kind == IKS_IN_MIC || in->kind == IKS_IN_WEBCAM) {
            if (pass < 0)
                return iks_err_set(e, IKS_E_UNSUPPORTED, "%s: " IKS_U_CHANNEL_PREFIX "%d: a %s channel in a sound pass is not supported",
                                   name, c, iks_channel_kind_of(in->kind)->info);
            if (!iks_media_open(t, pass, c, e)) return false;
        }
        if (in->kind == IKS_IN_KEYBOARD && !t->keyboard) {
            glGenTextures(1, &t->keyboard);
            glBindTexture(GL_TEXTURE_2D, t->keyboard);
            glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
            glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, 256, 3, 0, GL_RED, GL_UNSIGNED_BYTE, t->keys);
            glBindTexture(GL_TEXTURE_2D, 0);
        }
    }
    return true;
}

/* The value a linked program holds for d (GL keeps a uniform's initialiser, or 0) */
static void read_value(const iks_program *p, const iks_udecl *d, double v[4])
{
    GLint loc = glGetUniformLocation(p->prog, d->name);
    if (loc < 0) return;
    if (d->base == IKS_U_FLOAT) {
        GLfloat f[4] = { 0 };
        glGetUniformfv(p->prog, loc, f);
        for (int c = 0; c < 4; c++) v[c] = f[c];
    } else if (d->base == IKS_U_UINT) {
        GLuint u[4] = { 0 };
        glGetUniformuiv(p->prog, loc, u);
        for (int c = 0; c < 4; c++) v[c] = u[c];
    } else {
        GLint i[4] = { 0 };
        glGetUniformiv(p->prog, loc, i);
        for (int c = 0; c < 4; c++) v[c] = d->base == IKS_U_BOOL ? i[c] != 0 : i[c];
    }
}

/* The #iUniform parameters: their defaults set in every pass that declares them (a uniform can have no
 * initialiser in GLSL ES), their ranges on the uniform's entry. The first pass's declaration wins, as in
 * the list; a pass whose source declares the name otherwise (a plain uniform) keeps its initialiser. */
static bool apply_params(iks_gltoy *t, iks_err *e)
{
    for (int p = 0; p < IKS_PASSES; p++) {
        const iks_program *pr = &t->prog[p];
        for (int k = 0; pr->prog && k < pr->nparams; k++) {
            const iks_param *pm = &pr->params[k];
            iks_uvalue *u = (iks_uvalue *)iks_gltoy_uniform(t, pm->name);
            if (!u || u->declared || u->base != pm->base || u->comps != pm->n) continue;
            iks_setting s = { .n = pm->n };
            snprintf(s.name, sizeof s.name, "%s", pm->name);
            memcpy(s.v, pm->def, sizeof s.v);
            for (int q = 0; q < IKS_PASSES; q++)
                for (int j = 0; t->prog[q].prog && j < t->prog[q].nparams; j++)
                    if (strcmp(t->prog[q].params[j].name, pm->name) == 0 &&
                        !iks_program_apply(&t->prog[q], &s, 1, e, NULL))
                        return false;
            for (int c = 0; c < 4; c++) u->v[c] = pm->base == IKS_U_FLOAT ? (float)pm->def[c] : pm->def[c];
            memcpy(u->initial, u->v, sizeof u->initial);
            u->declared = true;
            u->color = pm->color;
            u->has_range = pm->has_range;
            u->min = pm->min;
            u->max = pm->max;
            u->step = pm->step;
        }
    }
    return true;
}

/* The author's uniforms of the built passes, each name once, in pass order then declaration order:
 * what a program's sliders list. ikshade's own (the preludes') and what no value can set are left out. */
static bool collect_uniforms(iks_gltoy *t, iks_err *e)
{
    size_t cap = 0;
    for (int p = 0; p < IKS_PASSES; p++) {
        const iks_program *pr = &t->prog[p];
        for (int k = 0; pr->prog && k < pr->ndecls; k++) {
            const iks_udecl *d = &pr->decls[k];
            if (d->comps < 1 || d->array || d->base == IKS_U_OTHER || iks_prelude_declares(d->name)) continue;
            iks_uvalue *u = (iks_uvalue *)iks_gltoy_uniform(t, d->name);
            bool used = glGetUniformLocation(pr->prog, d->name) >= 0;
            if (u) {
                /* another pass reading it gives it its value when the first had it removed */
                if (used && !u->active && u->base == d->base && u->comps == d->comps) {
                    read_value(pr, d, u->v);
                    memcpy(u->initial, u->v, sizeof u->initial);
                }
                u->active |= used;
                continue;
            }
            if (!IKS_GROW(t->uniforms, t->nuniforms + 1, cap))
                return iks_err_set(e, IKS_E_NOMEM, "out of memory");
            u = &t->uniforms[t->nuniforms++];
            memset(u, 0, sizeof *u);
            snprintf(u->name, sizeof u->name, "%s", d->name);
            snprintf(u->type, sizeof u->type, "%s", d->type);
            u->base = d->base;
            u->comps = d->comps;
            u->active = used;
            read_value(pr, d, u->v);
            memcpy(u->initial, u->v, sizeof u->initial);
        }
    }
    return apply_params(t, e);
}

const iks_uvalue *iks_gltoy_uniform(const iks_gltoy *t, const char *name)
{
    for (int i = 0; i < t->nuniforms; i++)
        if (strcmp(t->uniforms[i].name, name) == 0) return &t->uniforms[i];
    return NULL;
}

bool iks_gltoy_create(iks_gltoy *t, const iks_spec *d, const iks_source_opts *base, int w, int h, iks_err *e,
                      const iks_logger *log)
{
    memset(t, 0, sizeof *t);
    t->identity = FNV_START;
    iks_spec_draw_order(d, t->order);
    t->sound_only = d->sound_only;
    t->identity = fnv(t->identity, t->order, sizeof t->order);
    int cube_size = d->cube_size > 0 ? d->cube_size : IKS_CUBE_SIZE;
    t->identity = fnv(t->identity, &cube_size, sizeof cube_size);
    t->media_budget = t->media_left = d->media_budget ? d->media_budget : IKS_MEDIA_BUDGET;
    if (!d->pass[IKS_IMAGE_PASS].path) return iks_err_set(e, IKS_E_USAGE, "the toy has no Image pass");
    const iks_pass *sound = d->sound.path ? &d->sound : NULL;
    /* the compiler's warnings given so far: Common is in every pass, and its warnings are said once */
    iks_sbuf said = { 0 };
    for (int p = 0; p < IKS_PASSES; p++) {
        const iks_pass *ps = &d->pass[p];
        if (!ps->path) continue;
        iks_source src;
        if (!pass_source(t, d, ps, p == IKS_CUBE_PASS ? IKS_ENTRY_CUBEMAP : IKS_ENTRY_IMAGE, base, &src, e)) goto fail;
        t->identity = fnv(fnv(t->identity, &p, sizeof p), src.fragment, strlen(src.fragment));
        /* a file that defines mainSound is a sound shader: also its own sound pass, and only that when
         * it shows no mainImage (a picture then would only fail for want of one) */
        bool build = true;
        if (p == IKS_IMAGE_PASS && !sound && src.sound_seen) {
            sound = ps;
            build = !src.image_unseen;
            t->image_less = !build;
        }
        bool ok = !build || iks_program_build(&t->prog[p], &src, e, log, &said);
        iks_source_free(&src);
        if (!ok) goto fail;
        if (!build) continue;
        if (d->sound_only) {
            /* of its channels only the music is heard (the site plays it beside the sound pass); its
             * textures and videos are the picture's */
            for (int c = 0; c < 4; c++) {
                t->in[p][c] = ps->in[c];
                if (ps->in[c].kind == IKS_IN_MUSIC && !iks_media_open(t, p, c, e)) goto fail;
            }
            continue;
        }
        if (!load_inputs(t, d, p, pass_name(p), ps->in, t->in[p], t->tex[p], t->tex_res[p], e)) goto fail;
        if (p < 4 || p == IKS_CUBE_PASS) t->has_buffers = true;
    }
    if (sound) {
        iks_source src;
        if (!pass_source(t, d, sound, IKS_ENTRY_SOUND, base, &src, e)) goto fail;
        t->identity = fnv(t->identity, src.fragment, strlen(src.fragment));
        bool ok = iks_program_build(&t->sound, &src, e, log, &said);
        iks_source_free(&src);
        if (!ok) goto fail;
        if (!load_inputs(t, d, -1, "Sound", sound->in, t->sound_in, t->sound_tex, t->sound_res, e)) goto fail;
    }
    iks_sbuf_free(&said);
    if (!make_buffers(t, w, h, e)) goto fail;
    if (!collect_uniforms(t, e)) goto fail;
    t->settings_id = FNV_START;
    if (t->prog[IKS_CUBE_PASS].prog) {
        int size = d->cube_size > 0 ? d->cube_size : IKS_CUBE_SIZE;
        for (int k = 0; k < 2; k++)
            if (!iks_cube_target_create(&t->cube[k], size, e)) {
                iks_err_prefix(e, "Cube A: ");
                goto fail;
            }
    }
    return true;
fail:;
    iks_sbuf_free(&said);
    /* the files read so far outlive the failure: a viewer watches them for the save that fixes it */
    char **files = t->files, **wanted = t->wanted;
    int nfiles = t->nfiles, nwanted = t->nwanted;
    size_t capfiles = t->capfiles, capwanted = t->capwanted;
    t->files = t->wanted = NULL;
    t->nfiles = t->nwanted = 0;
    t->capfiles = t->capwanted = 0;
    iks_gltoy_destroy(t);
    t->files = files;
    t->nfiles = nfiles;
    t->capfiles = capfiles;
    t->wanted = wanted;
    t->nwanted = nwanted;
    t->capwanted = capwanted;
    return false;
}

/* Music and video are decoded while the frames are drawn, so their bytes join the identity here, read
 * whole once, and only by a caller that needs the identity (a render keeping checkpoints or writing
 * frame files, which carry it): a viewer's
 * every rebuild would otherwise read a long video through. */
bool iks_gltoy_content_id(const iks_gltoy *t, uint64_t *id, iks_err *e)
{
    uint64_t h = t->identity;
    enum { CHUNK = 1 << 20 };
    unsigned char *buf = NULL;
    for (int p = 0; p < IKS_PASSES; p++)
        for (int c = 0; c < 4; c++) {
            const iks_input *in = &t->in[p][c];
            if ((in->kind != IKS_IN_MUSIC && in->kind != IKS_IN_VIDEO) || !in->path) continue;
            if (!buf && !(buf = malloc(CHUNK))) return iks_err_set(e, IKS_E_NOMEM, "out of memory");
            int fd = iks_userfile_open(in->path, 0);
            if (fd < 0) {
                free(buf);
                return iks_err_set(e, IKS_E_IO, "%s: %s", in->path, iks_userfile_strerror(errno));
            }
            int pc[2] = { p, c };
            h = fnv(h, pc, sizeof pc);
            ssize_t r;
            while ((r = read(fd, buf, CHUNK)) > 0 || (r < 0 && errno == EINTR))
                if (r > 0) h = fnv(h, buf, (size_t)r);
            int err = errno;
            close(fd);
            if (r < 0) {
                free(buf);
                return iks_err_set(e, IKS_E_IO, "%s: %s", in->path, iks_userfile_strerror(err));
            }
        }
    free(buf);
    *id = h;
    return true;
}

static void feed_drop(iks_chan_feed *f)
{
    if (f->owned && f->tex) glDeleteTextures(1, &f->tex);
    memset(f, 0, sizeof *f);
}

void iks_gltoy_destroy(iks_gltoy *t)
{
    for (int p = 0; p < IKS_PASSES; p++) {
        iks_program_destroy(&t->prog[p]);
        for (int c = 0; c < 4; c++) {
            iks_media_close(t, p, c);
            if (t->tex[p][c]) glDeleteTextures(1, &t->tex[p][c]);
            feed_drop(&t->feed[p][c]);
        }
    }
    free(t->feed_rows);
    iks_err_clear(&t->media_err);
    free(t->snd_cache);
    for (int b = 0; b < 4; b++)
        for (int k = 0; k < 2; k++) iks_target_destroy(&t->buf[b][k]);
    for (int k = 0; k < 2; k++) iks_cube_target_destroy(&t->cube[k]);
    iks_program_destroy(&t->sound);
    for (int c = 0; c < 4; c++)
        if (t->sound_tex[c]) glDeleteTextures(1, &t->sound_tex[c]);
    if (t->keyboard) glDeleteTextures(1, &t->keyboard);
    for (int f = 0; f < 3; f++)
        for (int r = 0; r < 2; r++)
            if (t->sampler_cache[f][r]) glDeleteSamplers(1, &t->sampler_cache[f][r]);
    for (int i = 0; i < t->nfiles; i++) free(t->files[i]);
    free(t->files);
    for (int i = 0; i < t->nwanted; i++) free(t->wanted[i]);
    free(t->wanted);
    free(t->uniforms);
    memset(t, 0, sizeof *t);
}

/* the texture target the shader's sampler for channel in needs (its type is fixed when it is compiled) */
static unsigned sampler_target(const iks_input *in)
{
    static const unsigned TARGETS[] = { [IKS_SAMPLER_2D] = GL_TEXTURE_2D, [IKS_SAMPLER_CUBE] = GL_TEXTURE_CUBE_MAP,
                                        [IKS_SAMPLER_3D] = GL_TEXTURE_3D };
    return TARGETS[sampler_of(in->kind)];
}

static const char *target_name(unsigned target)
{
    return target == GL_TEXTURE_2D ? "GL_TEXTURE_2D" : target == GL_TEXTURE_CUBE_MAP ? "GL_TEXTURE_CUBE_MAP"
           : target == GL_TEXTURE_3D ? "GL_TEXTURE_3D" : "another target";
}

/* The units the library binds are 0..3 (the host contract gives them back); unit 0 is where it works. */
static bool feed_texture(iks_chan_feed *f, const iks_feed_src *s, iks_err *e)
{
    char v[32];
    snprintf(v, sizeof v, "%u", s->tex);
    if (!glIsTexture(s->tex))
        return iks_err_field(e, IKS_E_USAGE, "texture", v, "not a texture of the engine's GL context");
    while (iks_gl_error()) {} /* GL's errors before ours are not ours to report */
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(s->target, s->tex);
    bool fits = iks_gl_error() == NULL; /* binding to another target than its own is INVALID_OPERATION */
    int w = s->w, h = s->h, d = s->d;
    if (fits && (w <= 0 || h <= 0)) {
        GLenum level_target = s->target == GL_TEXTURE_CUBE_MAP ? GL_TEXTURE_CUBE_MAP_POSITIVE_X : s->target;
        glGetTexLevelParameteriv(level_target, 0, GL_TEXTURE_WIDTH, &w);
        glGetTexLevelParameteriv(level_target, 0, GL_TEXTURE_HEIGHT, &h);
        glGetTexLevelParameteriv(level_target, 0, GL_TEXTURE_DEPTH, &d);
    }
    glBindTexture(s->target, 0);
    if (!fits) return iks_err_field(e, IKS_E_USAGE, "target", target_name(s->target), "texture %u is not one", s->tex);
    feed_drop(f);
    *f = (iks_chan_feed){ .tex = s->tex, .target = s->target, .w = w, .h = h, .d = d > 0 ? d : 1 };
    return true;
}

static bool feed_pixels(iks_gltoy *t, iks_chan_feed *f, const iks_input *in, const iks_feed_src *s, iks_err *e)
{
    int max = iks_gpu_max_size();
    if (s->w > max || s->h > max) {
        char v[48];
        snprintf(v, sizeof v, "%dx%d", s->w, s->h);
        return iks_err_field(e, IKS_E_USAGE, "size", v, "this GL's textures are at most %d pixels on a side", max);
    }
    size_t row = (size_t)s->w * (s->is_float ? 16 : 4), bytes = row * (size_t)s->h;
    if (!IKS_GROW(t->feed_rows, bytes, t->feed_cap))
        return iks_err_set(e, IKS_E_NOMEM, "out of memory for a %dx%d channel", s->w, s->h);
    /* the caller's rows are top first; a texture's first row is its bottom (y = 0), and images load with
     * their top at y = 1 */
    for (int y = 0; y < s->h; y++)
        memcpy(t->feed_rows + (size_t)(s->h - 1 - y) * row, (const uint8_t *)s->pixels + (size_t)y * s->stride, row);
    bool same = f->owned && f->is_float == s->is_float && f->w == s->w && f->h == s->h;
    if (!same) {
        feed_drop(f);
        glGenTextures(1, &f->tex);
        *f = (iks_chan_feed){ .tex = f->tex, .target = GL_TEXTURE_2D, .owned = true, .is_float = s->is_float,
                              .w = s->w, .h = s->h, .d = 1 };
    }
    GLenum type = s->is_float ? GL_FLOAT : GL_UNSIGNED_BYTE;
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, f->tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4); /* rows of 4-byte pixels: packed */
    if (same) glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, s->w, s->h, GL_RGBA, type, t->feed_rows);
    else glTexImage2D(GL_TEXTURE_2D, 0, s->is_float ? GL_RGBA32F : GL_RGBA8, s->w, s->h, 0, GL_RGBA, type, t->feed_rows);
    if (in->filter == IKS_FILTER_MIPMAP) glGenerateMipmap(GL_TEXTURE_2D);
    glBindTexture(GL_TEXTURE_2D, 0);
    const char *ge = iks_gl_error();
    if (ge) {
        feed_drop(f);
        return iks_err_set(e, IKS_E_GL, "GL: %s making a %dx%d channel texture", ge, s->w, s->h);
    }
    return true;
}

bool iks_gltoy_feed(iks_gltoy *t, int p, int c, const iks_feed_src *s, iks_err *e)
{
    iks_chan_feed *f = &t->feed[p][c];
    if (!s) return feed_drop(f), true;
    const iks_input *in = &t->in[p][c];
    unsigned need = s->pixels ? GL_TEXTURE_2D : s->target;
    if (need != sampler_target(in))
        return iks_err_field(e, IKS_E_USAGE, "target", s->pixels ? "pixels" : target_name(s->target),
                             "the shader samples channel %d as a %s (as the toy's description declared it)", c,
                             sampler_target(in) == GL_TEXTURE_2D ? "sampler2D (GL_TEXTURE_2D)"
                             : sampler_target(in) == GL_TEXTURE_3D ? "sampler3D (GL_TEXTURE_3D)"
                                                                   : "samplerCube (GL_TEXTURE_CUBE_MAP)");
    return s->pixels ? feed_pixels(t, f, in, s, e) : feed_texture(f, s, e);
}

static bool declares(const iks_program *p, const char *name)
{
    for (int k = 0; p->prog && k < p->ndecls; k++)
        if (strcmp(p->decls[k].name, name) == 0) return true;
    return false;
}

bool iks_gltoy_apply(iks_gltoy *t, const iks_setting *s, int n, iks_err *e, const iks_logger *log)
{
    /* each setting must be declared by some pass; each pass gets the settings it declares */
    for (int i = 0; i < n; i++) {
        bool found = false;
        for (int p = 0; p < IKS_PASSES && !found; p++) found = declares(&t->prog[p], s[i].name);
        if (!found) {
            /* the single-program check words the error */
            return iks_program_apply(&t->prog[IKS_IMAGE_PASS], &s[i], 1, e, NULL);
        }
    }
    for (int p = 0; p < IKS_PASSES; p++)
        for (int i = 0; i < n; i++)
            if (declares(&t->prog[p], s[i].name) && !iks_program_apply(&t->prog[p], &s[i], 1, e, NULL)) return false;
    /* every setting applied, in order, is part of what a checkpoint must match */
    uint64_t id = t->settings_id;
    for (int i = 0; i < n; i++) {
        id = fnv(fnv(id, s[i].name, strlen(s[i].name)), &s[i].n, sizeof s[i].n);
        id = fnv(id, s[i].v, sizeof s[i].v[0] * (size_t)s[i].n);
    }
    t->settings_id = id;
    for (int i = 0; i < n; i++) {
        iks_uvalue *u = (iks_uvalue *)iks_gltoy_uniform(t, s[i].name);
        if (!u) continue;
        /* what GL holds: a float's value rounded to float, a bool's to 0 or 1 */
        for (int c = 0; c < u->comps; c++)
            u->v[c] = u->base == IKS_U_BOOL ? s[i].v[c] != 0 : u->base == IKS_U_FLOAT ? (float)s[i].v[c] : s[i].v[c];
    }
    /* removed only where no declaring pass kept it: one pass reading it is enough for an effect */
    for (int i = 0; i < n; i++) {
        bool used = false;
        for (int p = 0; p < IKS_PASSES && !used; p++) used = declares(&t->prog[p], s[i].name) && iks_program_uses(&t->prog[p], s[i].name);
        if (!used) iks_setting_warn_removed(log, &s[i]);
    }
    /* a value past a declared range is the user's to choose (a slider's ends are a suggestion), but
     * worth a word: a typo in a --set of a long render is costly */
    for (int i = 0; i < n; i++) {
        const iks_uvalue *u = iks_gltoy_uniform(t, s[i].name);
        for (int c = 0; u && u->has_range && c < s[i].n; c++)
            if (s[i].v[c] < u->min || s[i].v[c] > u->max) {
                iks_warnf(log, "uniform '%s': %g is outside its declared range %g .. %g", s[i].name, s[i].v[c], u->min,
                          u->max);
                break;
            }
    }
    return true;
}

bool iks_gltoy_resize(iks_gltoy *t, int w, int h, iks_err *e)
{
    if (w == t->w && h == t->h) return true;
    iks_target old[4][2];
    memcpy(old, t->buf, sizeof old);
    memset(t->buf, 0, sizeof t->buf);
    int ow = t->w, oh = t->h;
    if (!make_buffers(t, w, h, e)) {
        for (int b = 0; b < 4; b++)
            for (int k = 0; k < 2; k++) iks_target_destroy(&t->buf[b][k]);
        memcpy(t->buf, old, sizeof old);
        t->w = ow;
        t->h = oh;
        return false;
    }
    /* keep what the buffers hold, as the site does: copy the overlap */
    int cw = w < ow ? w : ow, ch = h < oh ? h : oh;
    for (int b = 0; b < 4; b++)
        for (int k = 0; k < 2; k++) {
            if (!old[b][k].fbo) continue;
            glBindFramebuffer(GL_READ_FRAMEBUFFER, old[b][k].fbo);
            glBindFramebuffer(GL_DRAW_FRAMEBUFFER, t->buf[b][k].fbo);
            glBlitFramebuffer(0, 0, cw, ch, 0, 0, cw, ch, GL_COLOR_BUFFER_BIT, GL_NEAREST);
            iks_target_destroy(&old[b][k]);
        }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return true;
}

void iks_gltoy_key(iks_gltoy *t, int k, bool down)
{
    if (k < 0 || k > 255) return;
    if (down && !t->keys[0][k]) {
        t->keys[1][k] = 255;
        t->keys[2][k] ^= 255;
    }
    t->keys[0][k] = down ? 255 : 0;
}

static bool draw_passes(iks_gltoy *t, const iks_target *out, iks_frame *f, bool buffers, int strips,
                        iks_step_fn step, void *user);

/* a mipmapped read of buffer p needs its levels rebuilt from its newest contents */
static void rebuild_mips(iks_gltoy *t, int p)
{
    bool mip = false;
    for (int q = 0; q < IKS_PASSES; q++)
        for (int c = 0; c < 4; c++)
            mip |= t->in[q][c].kind == IKS_IN_BUFFER && t->in[q][c].buffer == p && t->in[q][c].filter == IKS_FILTER_MIPMAP;
    if (mip) {
        glBindTexture(GL_TEXTURE_2D, t->buf[p][t->cur[p]].tex);
        glGenerateMipmap(GL_TEXTURE_2D);
        glBindTexture(GL_TEXTURE_2D, 0);
    }
}

/* Cube A's levels, when some pass reads it mipmapped */
static void rebuild_cube_mips(iks_gltoy *t)
{
    bool mip = false;
    for (int q = 0; q < IKS_PASSES; q++)
        for (int c = 0; c < 4; c++)
            mip |= t->in[q][c].kind == IKS_IN_CUBE_BUFFER && t->in[q][c].filter == IKS_FILTER_MIPMAP;
    if (mip) {
        glBindTexture(GL_TEXTURE_CUBE_MAP, t->cube[t->cube_cur].tex);
        glGenerateMipmap(GL_TEXTURE_CUBE_MAP);
        glBindTexture(GL_TEXTURE_CUBE_MAP, 0);
    }
}

void iks_gltoy_draw(iks_gltoy *t, const iks_target *out, iks_frame *f) { draw_passes(t, out, f, true, 0, NULL, NULL); }

bool iks_gltoy_draw_steps(iks_gltoy *t, const iks_target *out, iks_frame *f, int strips, iks_step_fn step, void *user)
{
    return draw_passes(t, out, f, true, strips, step, user);
}

void iks_gltoy_redraw_image(iks_gltoy *t, const iks_target *out, iks_frame *f)
{
    draw_passes(t, out, f, false, 0, NULL, NULL);
}

/* Rows in one strip of a face of this side. A multiple of 64, llvmpipe's tile, so that no tile is set up
 * twice; the scissor changes nothing of a fragment's value (derivatives come from its whole quad
 * either way), which is why strips give the one draw's picture. */
static int strip_rows(int side)
{
    int rows = IKS_STEP_PIXELS / (side > 0 ? side : 1) / 64 * 64;
    return rows < 64 ? 64 : rows;
}

/* whether the next stepped frame is drawn in strips (see IKS_STEP_SLOW) */
static bool in_strips(const iks_gltoy *t) { return !t->cube_timed || t->cube_seconds >= IKS_STEP_SLOW; }

bool iks_gltoy_has_cube(const iks_gltoy *t) { return t->prog[IKS_CUBE_PASS].prog != 0; }

/* Cube A's faces, whole or in strips with step called after each; false: step said stop. A stepped
 * frame whose Cube A is known to be fast is drawn whole, its time still taken (one wait, after the
 * last face), so that a toy that turns slow is drawn in strips again from the next frame. */
static bool draw_cube(iks_gltoy *t, const iks_program *prog, iks_frame *f, const GLuint samplers[4], int mode,
                      iks_step_fn step, void *user)
{
    int next = 1 - t->cube_cur, side = t->cube[next].size;
    bool strips = step && (mode > 0 || (mode == 0 && in_strips(t)));
    int rows = strips ? strip_rows(side) : side, parts = 6 * ((side + rows - 1) / rows), part = 0;
    bool go = true;
    double drawing = 0, began = iks_now(); /* the strips' own time, without the calls between them */
    for (int face = 0; face < 6 && go; face++) {
        iks_target ft = iks_cube_face(&t->cube[next], face);
        f->cube_corners = &CUBE_CORNERS[face][0][0];
        if (!strips) {
            iks_draw(prog, &ft, f);
            continue;
        }
        for (int y = 0; y < side && go; y += rows) {
            double at = iks_now();
            iks_draw_rows(prog, &ft, f, y, side - y < rows ? side - y : rows);
            /* reported when drawn, not when queued: a CPU rasterizer only starts on a flush */
            glFinish();
            drawing += iks_now() - at;
            go = step(user, ++part, parts);
            /* the callback may have drawn with this engine (another toy): our samplers again */
            for (int c = 0; c < 4 && go; c++) glBindSampler((GLuint)c, samplers[c]);
        }
    }
    f->cube_corners = NULL;
    if (!go) return false;
    if (step && mode == 0) { /* only the rule needs the time: -1 never waits */
        if (!strips) {
            glFinish(); /* with the passes queued before it: an overestimate, on the safe side */
            drawing = iks_now() - began;
        }
        t->cube_seconds = drawing;
        t->cube_timed = true;
    }
    t->cube_cur = next;
    rebuild_cube_mips(t);
    return true;
}

static bool draw_passes(iks_gltoy *t, const iks_target *out, iks_frame *f, bool buffers, int strips,
                        iks_step_fn step, void *user)
{
    bool go = true;
    GLuint samplers[4];
    if (t->keyboard) {
        glBindTexture(GL_TEXTURE_2D, t->keyboard);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 256, 3, GL_RED, GL_UNSIGNED_BYTE, t->keys);
        glBindTexture(GL_TEXTURE_2D, 0);
    }
    for (int i = buffers ? 0 : IKS_PASSES - 1; i < IKS_PASSES; i++) {
        int p = t->order[i];
        if (!t->prog[p].prog) continue;
        for (int c = 0; c < 4; c++) {
            const iks_input *in = &t->in[p][c];
            unsigned tex = 0;
            float *res = f->channel_res[c];
            res[0] = res[1] = res[2] = 0;
            f->channel_time[c] = 0;
            const iks_chan_feed *fed = &t->feed[p][c];
            if (fed->tex) { /* the caller's: it replaces whatever the description named */
                tex = fed->tex;
                res[0] = (float)fed->w, res[1] = (float)fed->h, res[2] = (float)fed->d;
            } else if (in->kind == IKS_IN_BUFFER) {
                tex = t->buf[in->buffer][t->cur[in->buffer]].tex;
                res[0] = (float)t->w, res[1] = (float)t->h, res[2] = 1;
            } else if (in->kind == IKS_IN_CUBE_BUFFER) {
                tex = t->cube[t->cube_cur].tex;
                res[0] = res[1] = (float)t->cube[t->cube_cur].size, res[2] = 1;
            } else if (in->kind == IKS_IN_IMAGE || in->kind == IKS_IN_CUBEMAP || in->kind == IKS_IN_VOLUME) {
                tex = t->tex[p][c];
                memcpy(res, t->tex_res[p][c], sizeof t->tex_res[p][c]);
            } else if (in->kind == IKS_IN_MUSIC || in->kind == IKS_IN_VIDEO || in->kind == IKS_IN_MIC ||
                       in->kind == IKS_IN_WEBCAM) {
                tex = t->tex[p][c];
                memcpy(res, t->tex_res[p][c], sizeof t->tex_res[p][c]);
                /* brought to the frame's time; the same time again costs no decoding */
                iks_media_update(t, p, c, f, &f->channel_time[c]);
            } else if (in->kind == IKS_IN_KEYBOARD) {
                tex = t->keyboard;
                res[0] = 256, res[1] = 3, res[2] = 1;
            }
            f->channel[c] = tex;
            f->channel_cube[c] = sampler_of(in->kind) == IKS_SAMPLER_CUBE;
            f->channel_3d[c] = sampler_of(in->kind) == IKS_SAMPLER_3D;
            /* the keyboard is read with texelFetch; nearest keeps texture() exact on it too */
            iks_filter filter = in->kind == IKS_IN_KEYBOARD && !fed->tex ? IKS_FILTER_NEAREST : in->filter;
            /* a caller's texture has the levels it has: the library makes none on it */
            if (fed->tex && !fed->owned && filter == IKS_FILTER_MIPMAP) filter = IKS_FILTER_LINEAR;
            samplers[c] = tex ? sampler(t, filter, in->repeat) : 0;
            glBindSampler((GLuint)c, samplers[c]);
        }
        if (p < 4) {
            int next = 1 - t->cur[p];
            iks_draw(&t->prog[p], &t->buf[p][next], f);
            t->cur[p] = next;
            /* a mipmapped read of this buffer needs its levels rebuilt from what was just drawn */
            rebuild_mips(t, p);
        } else if (p == IKS_CUBE_PASS) {
            if (!(go = draw_cube(t, &t->prog[p], f, samplers, strips, step, user))) break;
        } else iks_draw(&t->prog[p], out, f);
    }
    for (int c = 0; c < 4; c++) glBindSampler((GLuint)c, 0);
    if (buffers && go) memset(t->keys[1], 0, sizeof t->keys[1]);
    return go;
}

bool iks_gltoy_sound(iks_gltoy *t, long first, long n, float *lr, iks_err *e)
{
    if (!t->sound.prog) return iks_err_set(e, IKS_E_USAGE, "the toy has no sound pass (mainSound)");
    if (first < 0 || n < 0 || first > INT_MAX - n)
        return iks_err_set(e, IKS_E_USAGE, "samples %ld to %ld: the site numbers samples with a 32-bit int", first,
                           first + n);
    const long block = (long)IKS_SOUND_BLOCK * IKS_SOUND_BLOCK;
    iks_target tg;
    if (!iks_target_create(&tg, IKS_SOUND_BLOCK, IKS_SOUND_BLOCK, IKS_RGBA32F, e)) return false;
    float *rows = malloc((size_t)block * 4 * sizeof *rows);
    if (!rows) {
        iks_target_destroy(&tg);
        return iks_err_set(e, IKS_E_NOMEM, "out of memory");
    }
    /* the sound pass's uniforms: the date and the channels' sizes as the site gives them; no time of its own */
    iks_frame f;
    memset(&f, 0, sizeof f);
    f.date[0] = 2000;
    f.date[2] = 1;
    for (int c = 0; c < 4; c++) {
        const iks_input *in = &t->sound_in[c];
        bool media = in->kind == IKS_IN_IMAGE || in->kind == IKS_IN_CUBEMAP || in->kind == IKS_IN_VOLUME;
        f.channel[c] = media ? t->sound_tex[c] : in->kind == IKS_IN_KEYBOARD ? t->keyboard : 0;
        f.channel_cube[c] = in->kind == IKS_IN_CUBEMAP;
        f.channel_3d[c] = in->kind == IKS_IN_VOLUME;
        if (media) memcpy(f.channel_res[c], t->sound_res[c], sizeof t->sound_res[c]);
        glBindSampler((GLuint)c, f.channel[c] ? sampler(t, in->filter, in->repeat) : 0);
    }
    /* The site draws the blocks that start at 0, 262144, ...: a sample's time is its block's float
     * iTimeOffset plus its place in the block, so a range that starts inside a block (a render from
     * --time 6) is cut from the block the site would draw, or its times differ in the last bits */
    for (long done = 0; done < n;) {
        long off = first + done, base = off - off % block, skip = off - base;
        long k = n - done < block - skip ? n - done : block - skip;
        f.time_offset = (double)base / IKS_SAMPLE_RATE;
        f.sample_offset = (int)base;
        iks_draw(&t->sound, &tg, &f);
        int row0 = (int)(skip / IKS_SOUND_BLOCK), row1 = (int)((skip + k - 1) / IKS_SOUND_BLOCK) + 1;
        iks_read_rows(&tg, row0, row1 - row0, rows);
        const float *at = rows + 4 * (skip - (long)row0 * IKS_SOUND_BLOCK);
        for (long i = 0; i < k; i++) {
            lr[2 * (done + i)] = at[4 * i];
            lr[2 * (done + i) + 1] = at[4 * i + 1];
        }
        done += k;
    }
    for (int c = 0; c < 4; c++) glBindSampler((GLuint)c, 0);
    free(rows);
    iks_target_destroy(&tg);
    return true;
}
/* ---- feedback state ---------------------------------------------------------------------------- */

/* Every feedback pair of the toy, in a fixed order, with the index of its newest half and what to do
 * once that half is replaced (pass: the buffer whose mipmaps follow it). Cube A's pair, six faces a
 * half, follows them (cube_state); a new kind of feedback target joins the state in the same way. */
typedef bool (*feedback_fn)(iks_gltoy *t, iks_target pair[2], int *cur, int pass, void *ctx);
static bool each_feedback(iks_gltoy *t, feedback_fn fn, void *ctx)
{
    for (int b = 0; b < 4; b++)
        if (t->prog[b].prog && !fn(t, t->buf[b], &t->cur[b], b, ctx)) return false;
    return true;
}

typedef struct {
    iks_state_io io;
    void *user;
    float *scratch; /* one target's pixels */
    uint64_t bytes;
    iks_err *e;
} state_walk;

static bool count_pair(iks_gltoy *t, iks_target pair[2], int *cur, int pass, void *ctx)
{
    (void)t, (void)cur, (void)pass;
    state_walk *w = ctx;
    w->bytes += 2 * (uint64_t)pair[0].w * (uint64_t)pair[0].h * 16 + 1;
    return true;
}

/* Cube A's pair: six faces a half, read and written as RGBA float (the faces hold half floats, which
 * float holds exactly), and the newest half */
static uint64_t cube_bytes(const iks_gltoy *t)
{
    if (!t->prog[IKS_CUBE_PASS].prog) return 0;
    uint64_t s = (uint64_t)t->cube[0].size;
    return 2 * 6 * s * s * 16 + 1;
}

uint64_t iks_gltoy_state_bytes(const iks_gltoy *t)
{
    state_walk w = { 0 };
    each_feedback((iks_gltoy *)t, count_pair, &w); /* counts only: nothing is changed */
    return w.bytes + cube_bytes(t) + sizeof t->keys;
}

static bool io_failed(state_walk *w) { return iks_err_set(w->e, IKS_E_IO, "%s", ""); }

static bool save_pair(iks_gltoy *t, iks_target pair[2], int *cur, int pass, void *ctx)
{
    (void)t, (void)pass;
    state_walk *w = ctx;
    size_t n = (size_t)pair[0].w * (size_t)pair[0].h * 16;
    for (int k = 0; k < 2; k++) {
        iks_read(&pair[k], w->scratch);
        if (!w->io(w->user, w->scratch, n)) return io_failed(w);
    }
    unsigned char c = (unsigned char)*cur;
    return w->io(w->user, &c, 1) || io_failed(w);
}

static bool load_pair(iks_gltoy *t, iks_target pair[2], int *cur, int pass, void *ctx)
{
    state_walk *w = ctx;
    size_t n = (size_t)pair[0].w * (size_t)pair[0].h * 16;
    for (int k = 0; k < 2; k++) {
        if (!w->io(w->user, w->scratch, n)) return io_failed(w);
        glBindTexture(GL_TEXTURE_2D, pair[k].tex);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, pair[k].w, pair[k].h, GL_RGBA, GL_FLOAT, w->scratch);
        glBindTexture(GL_TEXTURE_2D, 0);
    }
    unsigned char c;
    if (!w->io(w->user, &c, 1)) return io_failed(w);
    if (c > 1) return iks_err_set(w->e, IKS_E_FORMAT, "%s: newest half %d of 2", pass_name(pass), c);
    *cur = c;
    rebuild_mips(t, pass);
    return true;
}

static bool cube_state(iks_gltoy *t, bool save, state_walk *w)
{
    int size = t->cube[0].size;
    size_t n = (size_t)size * (size_t)size * 16;
    for (int k = 0; k < 2; k++)
        for (int face = 0; face < 6; face++) {
            iks_target ft = iks_cube_face(&t->cube[k], face);
            if (save) {
                iks_read(&ft, w->scratch);
                if (!w->io(w->user, w->scratch, n)) return io_failed(w);
            } else {
                if (!w->io(w->user, w->scratch, n)) return io_failed(w);
                glBindTexture(GL_TEXTURE_CUBE_MAP, t->cube[k].tex);
                glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
                glTexSubImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)face, 0, 0, 0, size, size, GL_RGBA, GL_FLOAT,
                                w->scratch);
                glBindTexture(GL_TEXTURE_CUBE_MAP, 0);
            }
        }
    unsigned char c = (unsigned char)t->cube_cur;
    if (!w->io(w->user, &c, 1)) return io_failed(w);
    if (save) return true;
    if (c > 1) return iks_err_set(w->e, IKS_E_FORMAT, "Cube A: newest half %d of 2", c);
    t->cube_cur = c;
    rebuild_cube_mips(t);
    return true;
}

static bool state_walk_run(iks_gltoy *t, feedback_fn fn, iks_state_io io, void *user, iks_err *e)
{
    state_walk w = { .io = io, .user = user, .e = e };
    bool cube = t->prog[IKS_CUBE_PASS].prog != 0;
    size_t px = t->has_buffers ? (size_t)t->w * (size_t)t->h : 0;
    if (cube && (size_t)t->cube[0].size * (size_t)t->cube[0].size > px) px = (size_t)t->cube[0].size * t->cube[0].size;
    if (px && !(w.scratch = malloc(px * 16)))
        return iks_err_set(e, IKS_E_NOMEM, "out of memory for a %dx%d buffer's state", t->w, t->h);
    bool ok = each_feedback(t, fn, &w) && (!cube || cube_state(t, fn == save_pair, &w));
    free(w.scratch);
    return ok && (io(user, t->keys, sizeof t->keys) || io_failed(&w));
}

bool iks_gltoy_state_save(iks_gltoy *t, iks_state_io put, void *user, iks_err *e)
{
    return state_walk_run(t, save_pair, put, user, e);
}

bool iks_gltoy_state_load(iks_gltoy *t, iks_state_io get, void *user, iks_err *e)
{
    return state_walk_run(t, load_pair, get, user, e);
}
