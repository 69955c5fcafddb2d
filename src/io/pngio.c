/* pngio.c: PNG through stb_image_write (Debian's libstb-dev header) with its zlib stage replaced by
 * libdeflate, the fastest deflate we measured, and the row filter forced to "Up": stb otherwise tries
 * all five filters on every row, which costs more than the compression itself. */
#include "pngio.h"

#include <errno.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int deflate_level = 1;

/* stb's hook: a zlib stream of data, malloc'd (stb frees it with STBIW_FREE = free). One compressor
 * per thread, made on first use and kept: allocation costs more than a small frame's compression. */
static _Thread_local struct libdeflate_compressor *c;
static _Thread_local int c_level = -1;

void iks_png_thread_done(void)
{
    if (c) libdeflate_free_compressor(c);
    c = NULL;
}

static unsigned char *zlib_compress(unsigned char *data, int data_len, int *out_len, int quality)
{
    (void)quality;
    if (c && c_level != deflate_level) {
        libdeflate_free_compressor(c);
        c = NULL;
    }
    if (!c) {
        c = libdeflate_alloc_compressor(deflate_level);
        c_level = deflate_level;
        if (!c) return NULL;
    }
    size_t bound = libdeflate_zlib_compress_bound(c, (size_t)data_len);
    unsigned char *out = malloc(bound);
    if (!out) return NULL;
    size_t n = libdeflate_zlib_compress(c, data, (size_t)data_len, out, bound);
    if (n == 0) {
        free(out);
        return NULL;
    }
    *out_len = (int)n;
    return out;
}

#define STBIW_ZLIB_COMPRESS zlib_compress
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

void iks_png_setup(int level, int filter)
{
    deflate_level = level < 0 ? 0 : level > 12 ? 12 : level;
    /* Up by default: one pass per row, and deflate likes it on rendered images */
    stbi_write_force_png_filter = filter < -1 || filter > 4 ? -1 : filter;
    stbi_flip_vertically_on_write(1); /* GL reads bottom row first */
}

bool iks_png_encode(const uint8_t *rgba, int w, int h, bool alpha, uint8_t **out, size_t *len)
{
    const uint8_t *src = rgba;
    uint8_t *rgb = NULL;
    if (!alpha) {
        /* shadertoy.com ignores alpha: pack to RGB */
        rgb = malloc((size_t)w * (size_t)h * 3);
        if (!rgb) return false;
        size_t n = (size_t)w * (size_t)h;
        for (size_t i = 0; i < n; i++) {
            rgb[3 * i + 0] = rgba[4 * i + 0];
            rgb[3 * i + 1] = rgba[4 * i + 1];
            rgb[3 * i + 2] = rgba[4 * i + 2];
        }
        src = rgb;
    }
    int comp = alpha ? 4 : 3, n = 0;
    unsigned char *png = stbi_write_png_to_mem(src, w * comp, w, h, comp, &n);
    free(rgb);
    if (!png) return false;
    *out = png;
    *len = (size_t)n;
    return true;
}
