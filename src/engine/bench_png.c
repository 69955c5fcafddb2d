/* bench_png.c: the PNG encoders we chose between, measured on the same rendered frames: stb_image_write
 * as shipped (its own zlib, five filters tried per row), libpng at level 1, and our own container
 * (pngio.c: the fused Up filter) with libdeflate's and ISA-L's levels. Only iks_bench_render calls
 * this; the alternatives live here so that the render path links them nowhere else. iks_interrupt
 * stops it between frames (false, r untouched). */
#include "engine/engine.h"
#include "base/buf.h"
#include "io/outfile.h"
#include "io/pngio.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a second, private copy of stb_image_write with its own deflate: the "default path" to compare with */
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#if defined(__GNUC__)
/* left on to the end of the file: GCC reports unused static functions only when the file ends */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

typedef struct {
    uint8_t *p;
    size_t n, cap;
    bool oom;
} membuf;

static void mem_write(png_structp png, png_bytep data, png_size_t len)
{
    membuf *m = png_get_io_ptr(png);
    if (m->oom) return;
    if (!IKS_GROW(m->p, m->n + len, m->cap)) {
        m->oom = true;
        return;
    }
    memcpy(m->p + m->n, data, len);
    m->n += len;
}

static void mem_flush(png_structp png) { (void)png; }

/* libpng, RGB from bottom-up RGBA rows; filter < 0 leaves libpng's own adaptive choice. Returns the size. */
static size_t libpng_encode(const uint8_t *rgba, int w, int h, int level, int filter)
{
    membuf m = { 0 };
    png_bytep *rows = malloc(sizeof *rows * (size_t)h);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    size_t n = 0;
    if (!rows || !info) goto done;
    if (setjmp(png_jmpbuf(png))) goto done;
    png_set_write_fn(png, &m, mem_write, mem_flush);
    png_set_compression_level(png, level);
    if (filter >= 0) png_set_filter(png, 0, filter);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_set_filler(png, 0, PNG_FILLER_AFTER); /* drop the alpha byte on write */
    for (int y = 0; y < h; y++) rows[y] = (png_bytep)(rgba + (size_t)(h - 1 - y) * (size_t)w * 4);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    n = m.oom ? 0 : m.n;
done:
    png_destroy_write_struct(&png, &info);
    free(rows);
    free(m.p);
    return n;
}

static size_t stb_default_encode(const uint8_t *rgba, int w, int h)
{
    uint8_t *rgb = malloc((size_t)w * (size_t)h * 3);
    if (!rgb) return 0;
    for (size_t i = 0, n = (size_t)w * (size_t)h; i < n; i++) memcpy(rgb + 3 * i, rgba + 4 * i, 3);
    int len = 0;
    stbi_flip_vertically_on_write(1);
    unsigned char *png = stbi_write_png_to_mem(rgb, w * 3, w, h, 3, &len);
    free(rgb);
    size_t n = png ? (size_t)len : 0;
    free(png);
    return n;
}

static size_t ours_encode(const uint8_t *rgba, int w, int h, iks_png_lib lib, int level)
{
    uint8_t *png;
    size_t len;
    iks_png_opts o = { .level = level, .lib = lib };
    iks_err e = IKS_ERR_INIT;
    bool ok = iks_png_encode(rgba, w, h, &o, &png, &len, &e);
    iks_err_clear(&e);
    if (!ok) return 0;
    free(png);
    return len;
}

/* ISA-L's levels 2 and 3 are left out: on busy frames they made files about 1% smaller than its level
 * 1 for more time, where libdeflate 2 makes them 16% smaller */
enum { STB_DEFAULT, LIBPNG_ADAPTIVE, LIBPNG_UP, DEFLATE1, DEFLATE2, DEFLATE6, ISAL0, ISAL1, N_ENC };
static const char *const NAMES[N_ENC] = {
    "stb_image_write as shipped (own zlib, 5 filters)",
    "libpng level 1, adaptive filters",
    "libpng level 1, Up filter",
    "fused Up + libdeflate 1",
    "fused Up + libdeflate 2 (png_level 2)",
    "fused Up + libdeflate 6 (png_level 6)",
    "fused Up + ISA-L igzip 0",
    "fused Up + ISA-L igzip 1 (png_level 1)",
};

static size_t encode(int which, const uint8_t *rgba, int w, int h)
{
    switch (which) {
    case STB_DEFAULT: return stb_default_encode(rgba, w, h);
    case LIBPNG_ADAPTIVE: return libpng_encode(rgba, w, h, 1, -1);
    case LIBPNG_UP: return libpng_encode(rgba, w, h, 1, PNG_FILTER_UP);
    case DEFLATE1: return ours_encode(rgba, w, h, IKS_PNG_LIBDEFLATE, 1);
    case DEFLATE2: return ours_encode(rgba, w, h, IKS_PNG_LIBDEFLATE, 2);
    case DEFLATE6: return ours_encode(rgba, w, h, IKS_PNG_LIBDEFLATE, 6);
    case ISAL0: return ours_encode(rgba, w, h, IKS_PNG_ISAL, 0);
    default: return ours_encode(rgba, w, h, IKS_PNG_ISAL, 1);
    }
}

bool iks_bench_encoders(const uint8_t *frames, size_t frame_bytes, long count, int w, int h, int level, bool fast,
                        iks_bench_render_result *r);
bool iks_bench_encoders(const uint8_t *frames, size_t frame_bytes, long count, int w, int h, int level, bool fast,
                        iks_bench_render_result *r)
{
    double ms[N_ENC];
    size_t bytes[N_ENC];
    /* best of 3 rounds, the encoders interleaved, so that warm-up and drift favour none of them */
    for (int round = 0; round < 3; round++) {
        for (int e = 0; e < N_ENC; e++) {
            size_t total = 0;
            double t = iks_now();
            for (long i = 0; i < count; i++) {
                /* one atomic load a frame, against milliseconds of encoding: no figure moves */
                size_t n = iks_stop_requested() ? 0 : encode(e, frames + frame_bytes * (size_t)i, w, h);
                if (n == 0) {
                    iks_png_thread_done();
                    return false;
                }
                total += n;
            }
            double m = 1e3 * (iks_now() - t) / (double)count;
            if (round == 0 || m < ms[e]) ms[e] = m;
            bytes[e] = total / (size_t)count;
        }
    }
    iks_png_thread_done(); /* this thread's buffers: the caller's thread may live on */
    r->nencoders = N_ENC;
    for (int e = 0; e < N_ENC; e++) {
        r->encoders[e].name = NAMES[e];
        r->encoders[e].ms = ms[e];
        r->encoders[e].bytes = (double)bytes[e];
        r->encoders[e].chosen = fast ? e == ISAL1 : (level == 2 && e == DEFLATE2) || (level == 6 && e == DEFLATE6);
    }
    return true;
}
