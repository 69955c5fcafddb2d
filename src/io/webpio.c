/* webpio.c: animated WebP through WebPAnimEncoder (see webpio.h). Each frame is imported from GL's rows
 * with a negative stride (the last row first), as RGBX into libwebp's ARGB picture, which is what
 * WebPAnimEncoder compares frames in (a YUV picture would be converted back, with a loss). Timestamps
 * are computed from the frame's index, never summed from rounded durations, so the clip does not drift.
 * What it does not do: decode, or write files. */
#include "io/webpio.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <webp/encode.h>
#include <webp/mux.h>

/* WebP's limit on a side (VP8's 14-bit dimensions) */
#define WEBP_SIDE_MAX 16383
/* a frame's duration is a 24-bit field of milliseconds (ANMF); libwebp refuses longer steps */
#define WEBP_DURATION_MAX 16777215.0

/* libwebp's method (0 fast .. 6 small): 2. WebPAnimEncoder is one sequential stream (its frames cannot
 * be spread over the writer's pool), so its time a frame is the pace of a .webp render. Measured on 60
 * frames of 640x360 shader-like frames (moving gradients, a plasma, antialiased saturated discs), CPU
 * time a frame (the best of 5 runs) and bytes a frame, libwebp 1.2.4 on this project's 2-core build machine:
 *   quality 75:  m0 12.7 ms 16733 B, m1 13.6 ms 15892 B, m2 17.4 ms 13472 B, m3 26.2 ms 12824 B,
 *                m4 25.5 ms 12796 B, m5 25.1 ms 12793 B, m6 418 ms 12530 B (20 frames)
 *   quality 90:  m0 12.7 ms 22726 B, m1 13.9 ms 21615 B, m2 13.6 ms 20651 B, m3 25.0 ms 19823 B,
 *                m4 23.8 ms 19860 B, m5 26.0 ms 19922 B, m6 423 ms 19558 B (20 frames)
 * and at 1280x720, quality 90 (20 frames, the best of 3 runs): m0 55.6 ms, m1 71.3 ms, m2 38.5 ms, m3 110 ms,
 * m4 88.1 ms, m5 97.9 ms; m2's files 6.4% larger than m4's. Method 2's files are 4-6% larger than
 * method 4's (3 and 5 are alike to 4) at 57-68% of its time, 44% at 720p; 0 and 1 are 5-24% larger
 * than 2 and only 7-27% faster at 640x360, slower at 720p; 6 takes 16 times as long for 1.5-2% less.
 * The PSNR at a given quality was the same for methods 0 to 5 (within 0.1 dB). A macro so that the
 * benchmark can build this file with another. */
#ifndef IKS_WEBP_METHOD
#define IKS_WEBP_METHOD 2
#endif

struct iks_webp_anim {
    WebPAnimEncoder *enc;
    WebPConfig config;
    int w, h;
    double fps;
    long frames;   /* added so far */
    bool finished; /* finish ran (whether or not it succeeded) */
    bool failed;   /* an add failed: libwebp's encoder is not to be fed again */
};

bool iks_webp_anim_open(int w, int h, double fps, int quality, iks_webp_anim **out, iks_err *e)
{
    *out = NULL;
    if (w < 1 || h < 1 || w > WEBP_SIDE_MAX || h > WEBP_SIDE_MAX)
        return iks_err_set(e, IKS_E_USAGE, "WebP of %dx%d pixels: each side must be 1..%d (WebP's limit)", w, h,
                           WEBP_SIDE_MAX);
    if (!isfinite(fps) || !(fps > 0.0) || fps > 1000.0 || !(1000.0 / fps <= WEBP_DURATION_MAX))
        return iks_err_set(e, IKS_E_USAGE,
                           "WebP at %g fps: expected %g..1000 (WebP's frame durations are whole milliseconds, "
                           "at most %.0f)",
                           fps, 1000.0 / WEBP_DURATION_MAX, WEBP_DURATION_MAX);
    if (quality < 1 || quality > 100)
        return iks_err_set(e, IKS_E_USAGE, "WebP quality %d: expected 1..100", quality);

    iks_webp_anim *a = calloc(1, sizeof *a);
    if (!a) return iks_err_set(e, IKS_E_NOMEM, "WebP: out of memory");
    a->w = w;
    a->h = h;
    a->fps = fps;
    if (!WebPConfigInit(&a->config)) {
        free(a);
        return iks_err_set(e, IKS_E_IO, "WebP: this libwebp's encoder ABI is not the one built against");
    }
    a->config.lossless = 0;
    a->config.quality = (float)quality;
    a->config.method = IKS_WEBP_METHOD;
    /* thread_level stays 0: frames of many outputs encode side by side on the writer's pool already */
    WebPAnimEncoderOptions o;
    if (!WebPAnimEncoderOptionsInit(&o)) {
        free(a);
        return iks_err_set(e, IKS_E_IO, "WebP: this libwebpmux's ABI is not the one built against");
    }
    o.anim_params.loop_count = 0; /* for ever */
    o.allow_mixed = 0;            /* every frame lossy, at the quality asked for */
    /* kmin and kmax stay libwebp's: a key frame now and then bounds how much a viewer seeking into the
     * clip must decode, at little cost in size */
    a->enc = WebPAnimEncoderNew(w, h, &o);
    if (!a->enc) {
        free(a);
        return iks_err_set(e, IKS_E_NOMEM, "WebP: out of memory");
    }
    *out = a;
    return true;
}

/* frame i's timestamp in ms: round(i * 1000 / fps). Kept modulo 2^32: libwebp takes int timestamps and
 * works with their differences in unsigned arithmetic, so a clip longer than 2^31 ms still has the right
 * durations. */
static int stamp(const iks_webp_anim *a, long i)
{
    return (int)(uint32_t)(uint64_t)llround((double)i * 1000.0 / a->fps);
}

bool iks_webp_anim_add(iks_webp_anim *a, const uint8_t *rgba, iks_err *e)
{
    if (a->finished || a->failed)
        return iks_err_set(e, IKS_E_USAGE, "WebP: frame %ld added after the animation %s", a->frames + 1,
                           a->finished ? "was finished" : "failed");
    WebPPicture pic;
    if (!WebPPictureInit(&pic)) return iks_err_set(e, IKS_E_IO, "WebP: this libwebp's ABI is not the one built against");
    pic.width = a->w;
    pic.height = a->h;
    pic.use_argb = 1;
    int stride = a->w * 4;
    if (!WebPPictureImportRGBX(&pic, rgba + (size_t)stride * (size_t)(a->h - 1), -stride)) {
        /* the import only allocates (its size and stride are ours, and right) */
        WebPPictureFree(&pic);
        return iks_err_set(e, IKS_E_NOMEM, "WebP: out of memory");
    }
    bool ok = WebPAnimEncoderAdd(a->enc, &pic, stamp(a, a->frames), &a->config);
    bool nomem = pic.error_code == VP8_ENC_ERROR_OUT_OF_MEMORY;
    WebPPictureFree(&pic);
    if (!ok) {
        a->failed = true;
        if (nomem) return iks_err_set(e, IKS_E_NOMEM, "WebP: out of memory at frame %ld", a->frames + 1);
        return iks_err_set(e, IKS_E_IO, "WebP: frame %ld: %s", a->frames + 1, WebPAnimEncoderGetError(a->enc));
    }
    a->frames++;
    return true;
}

bool iks_webp_anim_finish(iks_webp_anim *a, uint8_t **out, size_t *len, iks_err *e)
{
    *out = NULL;
    *len = 0;
    if (a->finished) return iks_err_set(e, IKS_E_USAGE, "WebP: the animation was finished already");
    if (a->failed) return iks_err_set(e, IKS_E_USAGE, "WebP: the animation failed at frame %ld", a->frames + 1);
    if (a->frames == 0) return iks_err_set(e, IKS_E_USAGE, "WebP: an animation of no frames");
    a->finished = true;
    /* the end of the last frame, so that its duration is one frame's like every other's (without it
     * libwebp gives it the average of the others) */
    if (!WebPAnimEncoderAdd(a->enc, NULL, stamp(a, a->frames), NULL))
        return iks_err_set(e, IKS_E_IO, "WebP: %s", WebPAnimEncoderGetError(a->enc));
    WebPData d;
    WebPDataInit(&d);
    if (!WebPAnimEncoderAssemble(a->enc, &d))
        return iks_err_set(e, IKS_E_IO, "WebP: %s", WebPAnimEncoderGetError(a->enc));
    /* handed over as malloc'd bytes, as every encoder here: libwebp's own must go back through WebPFree */
    uint8_t *p = malloc(d.size ? d.size : 1);
    if (!p) {
        WebPDataClear(&d);
        return iks_err_set(e, IKS_E_NOMEM, "WebP: out of memory");
    }
    memcpy(p, d.bytes, d.size);
    *out = p;
    *len = d.size;
    WebPDataClear(&d);
    return true;
}

void iks_webp_anim_free(iks_webp_anim *a)
{
    if (!a) return;
    WebPAnimEncoderDelete(a->enc);
    free(a);
}

/* ---- as the output table takes it ---------------------------------------------------------------- */

static bool anim_open(const iks_image_opts *o, double fps, void **state, iks_err *e)
{
    iks_webp_anim *a = NULL;
    bool ok = iks_webp_anim_open(o->w, o->h, fps, o->quality, &a, e);
    *state = a;
    return ok;
}
static bool anim_add(void *state, const void *px, iks_err *e) { return iks_webp_anim_add(state, px, e); }
static bool anim_finish(void *state, uint8_t **out, size_t *len, iks_err *e)
{
    return iks_webp_anim_finish(state, out, len, e);
}
static void anim_free(void *state) { iks_webp_anim_free(state); }

const iks_anim_encoder iks_webp_encoder = { anim_open, anim_add, anim_finish, anim_free };
