/* describe.c: each pass of a spec assembled as text (no GL) and scanned for the uniforms its author
 * declared, as src/gpu's toy collects them after compiling: each name once, first declaration first,
 * scalars and vectors of float, int, uint and bool, never ikshade's own. */
#include "toy/describe.h"

#include "base/buf.h"
#include "glsl/params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void iks_toy_view_free(iks_toy_view *v)
{
    iks_toyfile_free(&v->tf);
    free(v->u);
    memset(v, 0, sizeof *v);
}

static iks_view_uniform *find(iks_toy_view *v, const char *name)
{
    for (int i = 0; i < v->nu; i++)
        if (!strcmp(v->u[i].name, name)) return &v->u[i];
    return NULL;
}

/* the declarations of one assembled pass (slot s) joined to v's list, its #iUniform lines over them */
static bool add_pass(iks_toy_view *v, int s, const iks_source *src, iks_err *e)
{
    int n = iks_uniform_decls(src->fragment, NULL, 0);
    iks_udecl *d = calloc((size_t)(n > 0 ? n : 1), sizeof *d);
    if (!d) return iks_err_set(e, IKS_E_NOMEM, "out of memory");
    n = iks_uniform_decls(src->fragment, d, n);
    bool ok = true;
    for (int k = 0; ok && k < n; k++) {
        if (d[k].comps < 1 || d[k].array || d[k].base == IKS_U_OTHER || iks_prelude_declares(d[k].name)) continue;
        iks_view_uniform *u = find(v, d[k].name);
        if (!u) {
            if (!IKS_GROW(v->u, (size_t)v->nu + 1, v->capu)) {
                ok = iks_err_set(e, IKS_E_NOMEM, "out of memory");
                break;
            }
            u = &v->u[v->nu++];
            memset(u, 0, sizeof *u);
            snprintf(u->name, sizeof u->name, "%s", d[k].name);
            snprintf(u->type, sizeof u->type, "%s", d[k].type);
            u->base = d[k].base;
            u->comps = d[k].comps;
        }
        u->passes |= 1u << s;
    }
    free(d);
    /* an #iUniform's default and range, from the first pass that declares it so (as a load applies them) */
    for (int k = 0; ok && k < src->nparams; k++) {
        const iks_param *p = &src->params[k];
        iks_view_uniform *u = find(v, p->name);
        if (!u || u->declared) continue;
        u->declared = true;
        u->has_range = p->has_range;
        u->color = p->color;
        u->min = p->min, u->max = p->max, u->step = p->step;
        memcpy(u->def, p->def, sizeof u->def);
    }
    return ok;
}

bool iks_toy_view_scan(iks_toy_view *v, const iks_source_opts *base, iks_err *e)
{
    const iks_spec *d = &v->tf.desc;
    /* the GL's ES support is unknown here: the text is assembled as ES wherever the spec asks for it,
     * as a GL with ES 3.00 (every GL ikshade runs on) assembles it */
    for (int s = 0; s < IKS_PASSES; s++) {
        const iks_pass *ps = &d->pass[s];
        if (!ps->path) continue;
        iks_source_opts o;
        iks_spec_pass_opts(d, ps, iks_pass_kind_at(s)->entry, true, base, &o);
        iks_source src;
        if (!iks_source_load(&src, ps->path, &o, e)) return false;
        /* a file that defines mainSound is also its own sound pass, and only that without a mainImage */
        if (s == IKS_IMAGE_PASS && !d->sound.path && src.sound_seen) {
            v->file_sound = true;
            v->image_less = src.image_unseen;
        }
        bool ok = v->image_less || add_pass(v, s, &src, e);
        iks_source_free(&src);
        if (!ok) return false;
    }
    /* the sound pass declares nothing a caller sets, but its text must assemble as a load's would */
    if (d->sound.path) {
        iks_source_opts o;
        iks_spec_pass_opts(d, &d->sound, IKS_ENTRY_SOUND, true, base, &o);
        iks_source src;
        if (!iks_source_load(&src, d->sound.path, &o, e)) return false;
        iks_source_free(&src);
    }
    return true;
}
