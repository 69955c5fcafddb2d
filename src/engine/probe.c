/* probe.c: the GLSL solver on the GPU, one fragment per case, read back exactly: cases go in through
 * an RGBA32F texture (px, py, r1, r2), answers come out of an RGBA32F target (x, y, status). What
 * `ikshade check` holds against the C solver and `ikshade bench gpu` times.
 *
 * Stopping. A big batch (tens of millions of cases on a slow GPU or llvmpipe) is drawn in bands of
 * rows, each finished before the next, so that iks_interrupt stops it within a band (IKS_E_INTERRUPTED,
 * out left unwritten). The first band is BAND_CASES; the rest are sized from its time to take about
 * BAND_SECONDS each, so a fast GPU draws the rest in one go: one wait more than a single draw. A batch
 * of BAND_CASES or fewer is one draw, as it always was (what `bench gpu` times at 1e6). */
#include "engine/engine.h"
#include "base/userfile.h"

#include "io/outfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 2048
#define BAND_CASES (1L << 21) /* 1024 rows of WIDTH */
#define BAND_SECONDS 0.05

struct iks_probe {
    iks_engine *e;
    iks_source src;
    iks_program prog;
    iks_target target;
    unsigned tex;
    long n;
    float *tail; /* the last row when it is only partly cases (padded with copies of case 0) */
};

void iks_probe_destroy(iks_probe *p)
{
    if (!p) return;
    iks_err ignored = IKS_ERR_INIT;
    /* its GL objects are names in its engine's context; failing that, they go with the context */
    bool bound = iks_engine_enter(p->e, &ignored);
    iks_texture_destroy(p->tex);
    iks_target_destroy(&p->target);
    iks_program_destroy(&p->prog);
    if (bound) iks_engine_leave(p->e);
    iks_source_free(&p->src);
    free(p->tail);
    free(p);
}

static iks_code probe_create(iks_engine *e, const char *solver, const float *cases, long n, iks_probe **out);

/* the host contract: the caller's context (or its GL state) as it was, on every return */
iks_code iks_probe_create(iks_engine *e, const char *solver, const float *cases, long n, iks_probe **out)
{
    if (!e) return probe_create(e, solver, cases, n, out);
    iks_err err = IKS_ERR_INIT;
    if (!iks_engine_enter(e, &err)) return iks_publish(&err);
    iks_code c = probe_create(e, solver, cases, n, out);
    iks_engine_leave(e);
    return c;
}

static iks_code probe_create(iks_engine *e, const char *solver, const float *cases, long n, iks_probe **out)
{
    if (!e || !out || (n > 0 && !cases) || n < 0)
        return iks_fail_usage("iks_probe_create: engine and out must not be NULL, n must be 0 or more, and cases "
                              "may be NULL only when n is 0 (got n %ld)", n);
    *out = NULL;
    iks_err err = IKS_ERR_INIT;
    if (!e->shader_dir) {
        iks_err_set(&err, IKS_E_IO, "cannot find the shaders directory (ik.glsl); set IKSHADE_SHADERS");
        return iks_publish(&err);
    }
    iks_probe *p = calloc(1, sizeof *p);
    if (!p) return iks_err_set(&err, IKS_E_NOMEM, "out of memory"), iks_publish(&err);
    p->e = e;
    p->n = n;
    char path[4096];
    snprintf(path, sizeof path, "%.4000s/check.frag", e->shader_dir);
    const char *dirs[1] = { e->shader_dir };
    iks_source_opts o = { .files = iks_disk_files(), .include_dirs = dirs, .n_include_dirs = 1, .override_name = solver ? "ik.glsl" : NULL,
                          .override_path = solver };
    if (!iks_source_load(&p->src, path, &o, &err) || !iks_program_build(&p->prog, &p->src, &err, &e->log, NULL)) goto fail;
    int w = WIDTH, h = (int)((n + WIDTH - 1) / WIDTH);
    if (h < 1) h = 1;
    if (!iks_target_create(&p->target, w, h, IKS_RGBA32F, &err)) {
        iks_err_prefix(&err, "%ld cases: ", n);
        goto fail;
    }
    /* pad the last row with copies of case 0 so the texture upload reads only our memory */
    size_t texels = (size_t)w * (size_t)h;
    float *pad = malloc(texels * 4 * sizeof *pad);
    p->tail = malloc((size_t)w * 4 * sizeof *p->tail);
    if (!pad || !p->tail) {
        free(pad);
        iks_err_set(&err, IKS_E_NOMEM, "out of memory for %ld cases", n);
        goto fail;
    }
    static const float zero[4];
    const float *first = n > 0 ? cases : zero;
    if (n > 0) memcpy(pad, cases, (size_t)n * 4 * sizeof *pad);
    for (size_t i = (size_t)n; i < texels; i++) memcpy(pad + 4 * i, first, 4 * sizeof *pad);
    p->tex = iks_texture_rgba32f(w, h, pad);
    free(pad);
    *out = p;
    return IKS_OK;
fail:
    iks_probe_destroy(p);
    return iks_publish(&err);
}

static iks_code probe_run_bound(iks_probe *p, const ik_opts *o, bool effector, float *out);

/* the host contract: the caller's context (or its GL state) as it was, on every return */
static iks_code probe_run(iks_probe *p, const ik_opts *o, bool effector, float *out)
{
    if (!p) return probe_run_bound(p, o, effector, out);
    iks_err err = IKS_ERR_INIT;
    if (!iks_engine_enter(p->e, &err)) return iks_publish(&err);
    iks_code c = probe_run_bound(p, o, effector, out);
    iks_engine_leave(p->e);
    return c;
}

static iks_code probe_run_bound(iks_probe *p, const ik_opts *o, bool effector, float *out)
{
    static const ik_opts dflt;
    if (!p) return iks_fail_usage(effector ? "iks_probe_run_effector: probe is NULL" : "iks_probe_run: probe is NULL");
    if (!o) o = &dflt;
    iks_setting s[4] = { { "uBend", { o->bend < 0 ? -1 : 1 }, 1, "" }, { "uStretch", { o->stretch }, 1, "" },
                         { "uSoften", { o->soften }, 1, "" }, { "uEffector", { effector }, 1, "" } };
    iks_err err = IKS_ERR_INIT;
    if (!iks_program_apply(&p->prog, s, 4, &err, NULL)) {
        iks_err_prefix(&err, "the probe's option uniforms: ");
        return iks_publish(&err);
    }
    iks_frame f;
    iks_frame_defaults(&f);
    f.channel[0] = p->tex;
    f.channel_res[0][0] = (float)p->target.w;
    f.channel_res[0][1] = (float)p->target.h;
    int h = p->target.h, band = (int)(BAND_CASES / WIDTH), y = 0;
    if (h <= band) iks_draw(&p->prog, &p->target, &f);
    else {
        while (y < h && !iks_stop_requested()) {
            int rows = band < h - y ? band : h - y;
            double t0 = iks_now();
            iks_draw_rows(&p->prog, &p->target, &f, y, rows);
            y += rows;
            if (y >= h) break; /* the last band needs no wait of its own: the readback (or caller) waits */
            iks_gpu_finish();
            double dt = iks_now() - t0, want = (double)rows * BAND_SECONDS / (dt > 1e-6 ? dt : 1e-6);
            band = want < 64 ? 64 : want > h ? h : (int)want;
        }
        if (y < h) {
            long drawn = (long)y * WIDTH < p->n ? (long)y * WIDTH : p->n;
            iks_err_set(&err, IKS_E_INTERRUPTED, "interrupted: the probe solved %ld of %ld cases", drawn, p->n);
            return iks_publish(&err);
        }
    }
    if (out) {
        /* the full rows straight into out; only a partly filled last row goes through tail, so that
         * the readback costs what it did when callers read the padded target themselves */
        long full = p->n / WIDTH, rest = p->n % WIDTH;
        if (full) iks_read_rows(&p->target, 0, (int)full, out);
        if (rest) {
            iks_read_rows(&p->target, (int)full, 1, p->tail);
            memcpy(out + (size_t)full * WIDTH * 4, p->tail, (size_t)rest * 4 * sizeof *out);
        }
    }
    const char *ge = iks_gl_error();
    if (ge) return iks_err_set(&err, IKS_E_GL, "GL: %s", ge), iks_publish(&err);
    return IKS_OK;
}

/* out's length is checked before anything is drawn: a too-small buffer is refused, never written */
static iks_code probe_checked(iks_probe *p, const ik_opts *o, bool effector, float *out, size_t out_len)
{
    if (p && out && (size_t)p->n > out_len / (4 * sizeof(float)))
        return iks_fail_field("out_len", NULL, "%zu bytes: %ld cases need %zu (4 floats each)", out_len, p->n,
                              (size_t)p->n * 4 * sizeof(float));
    return probe_run(p, o, effector, out);
}

iks_code iks_probe_run(iks_probe *p, const ik_opts *o, float *out, size_t out_len)
{
    return probe_checked(p, o, false, out, out_len);
}

iks_code iks_probe_run_effector(iks_probe *p, const ik_opts *o, float *out, size_t out_len)
{
    return probe_checked(p, o, true, out, out_len);
}
