/* toyreads.c: the files a toy reads, and the outputs that would replace one of them (see toyreads.h). */
#include "engine/toyreads.h"

#include "base/buf.h"
#include "glsl/source.h"
#include "media/image.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the list ------------------------------------------------------------------------------------ */

bool iks_reads_add(iks_reads *r, const char *path, iks_read_role role)
{
    if (!path || !*path) return true;
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->v[i].path, path)) return true;
    if (!IKS_GROW(r->v, (size_t)r->n + 1, r->cap)) return false;
    char *p = strdup(path);
    if (!p) return false;
    struct stat st;
    bool there = stat(path, &st) == 0;
    r->v[r->n++] = (iks_toy_read){ .path = p, .role = role, .there = there, .dev = there ? st.st_dev : 0,
                               .ino = there ? st.st_ino : 0 };
    return true;
}

void iks_reads_free(iks_reads *r)
{
    for (int i = 0; i < r->n; i++) free(r->v[i].path);
    free(r->v);
    memset(r, 0, sizeof *r);
}

static bool oom(iks_err *err) { return iks_err_set(err, IKS_E_NOMEM, "out of memory"); }

/* the files of pass ps's channels: a cubemap is six */
static bool add_media(iks_reads *r, const iks_pass *ps)
{
    for (int c = 0; c < 4; c++) {
        const iks_input *in = &ps->in[c];
        const iks_channel_kind *k = iks_channel_kind_of(in->kind);
        if (!k || !k->file || !in->path) continue;
        for (int f = 0; f < (in->kind == IKS_IN_CUBEMAP ? 6 : 1); f++) {
            char *p = iks_cube_face_path(in->path, f);
            bool ok = p && iks_reads_add(r, p, IKS_READ_MEDIA);
            free(p);
            if (!ok) return false;
        }
    }
    return true;
}

/* what a built spec names: the passes' files (a JSON's passes are text, named after the JSON), Common,
 * a directory toy's manifest, the media */
static bool add_spec(iks_reads *r, const iks_toyfile *tf)
{
    const iks_spec *d = &tf->desc;
    bool ok = true;
    for (int s = 0; ok && s <= IKS_SOUND_SLOT; s++) {
        const iks_pass *ps = iks_spec_pass_c(d, s);
        if (!ps || !ps->path) continue;
        if (!ps->text) ok = iks_reads_add(r, ps->path, IKS_READ_SOURCE);
        ok = ok && add_media(r, ps);
    }
    if (ok && d->common_path && !d->common_text) ok = iks_reads_add(r, d->common_path, IKS_READ_SOURCE);
    for (int i = 0; ok && i < tf->nwatch; i++) ok = iks_reads_add(r, tf->watch[i], IKS_READ_SOURCE);
    return ok;
}

bool iks_toy_reads(const iks_toy *t, iks_reads *r, iks_err *err)
{
    bool ok = iks_reads_add(r, t->path, IKS_READ_SOURCE) && add_spec(r, &t->tf);
    /* every file the passes' text was assembled from: #includes, Common */
    for (int i = 0; ok && i < t->gl.nfiles; i++)
        if (t->gl.files[i]) ok = iks_reads_add(r, t->gl.files[i], IKS_READ_SOURCE);
    return ok || oom(err);
}

typedef struct {
    iks_reads *r;
    bool oom;
} scan;

static void touched(void *user, const char *path, bool exists)
{
    scan *s = user;
    if (exists && !iks_reads_add(s->r, path, IKS_READ_SOURCE)) s->oom = true;
}

/* The #includes of every pass, as a load assembles them. A pass that fails to assemble has still
 * named the files it read up to there, which is all a toy that is broken now reads. */
static bool add_includes(iks_reads *r, const iks_toy_desc *d, const char *shader_dir, const iks_spec *sp, iks_err *err)
{
    iks_source_opts base;
    if (!iks_toy_source_base(d, shader_dir, &base, err)) return false;
    scan s = { .r = r };
    for (int slot = 0; slot <= IKS_SOUND_SLOT && !s.oom; slot++) {
        const iks_pass *ps = iks_spec_pass_c(sp, slot);
        if (!ps || !ps->path) continue;
        iks_source_opts o;
        iks_spec_pass_opts(sp, ps, iks_pass_kind_at(slot)->entry, true, &base, &o);
        o.touched = touched;
        o.touched_user = &s;
        iks_source src;
        iks_err ignored = IKS_ERR_INIT;
        if (iks_source_load(&src, ps->path, &o, &ignored)) iks_source_free(&src);
        iks_err_clear(&ignored);
    }
    free((void *)base.include_dirs);
    return !s.oom || oom(err);
}

bool iks_toy_desc_reads(const iks_toy_desc *d, const char *shader_dir, iks_reads *r, iks_err *err)
{
    char dflt[PATH_MAX];
    iks_err none = IKS_ERR_INIT;
    const char *path = iks_toy_desc_path_in(shader_dir, d, dflt, sizeof dflt, &none);
    iks_err_clear(&none);
    if (!iks_reads_add(r, path, IKS_READ_SOURCE)) return oom(err);
    /* the channels as given: what a toy that does not build yet will read once it does */
    for (int c = 0; c < 4; c++) {
        iks_input in;
        iks_err bad = IKS_ERR_INIT;
        if (!d->channel[c] || !iks_channel_parse(d->channel[c], &in, &bad)) {
            iks_err_clear(&bad);
            continue;
        }
        iks_pass one = { .in = { [0] = in } };
        bool ok = add_media(r, &one);
        free((void *)in.path);
        if (!ok) return oom(err);
    }
    iks_toyfile tf;
    iks_err broken = IKS_ERR_INIT;
    if (!iks_toy_spec_build(d, shader_dir, &tf, &broken, NULL)) {
        iks_err_clear(&broken);
        return true;
    }
    bool ok = add_spec(r, &tf) ? add_includes(r, d, shader_dir, &tf.desc, err) : oom(err);
    iks_toyfile_free(&tf);
    return ok;
}
