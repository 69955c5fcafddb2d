/* pngfast.c: the default PNG path, built for speed on frames that are hard to compress. One pass
 * turns GL's RGBA rows (bottom row first) into PNG's filtered rows (top row first, the Up filter, RGB
 * or RGBA), ISA-L's igzip compresses them at its level 1 with a zlib header, and ISA-L's CRC-32
 * (PNG's is gzip's) signs the chunks. No global state: each call stands alone, on any thread.
 * What it does not do: the higher levels (libdeflate, pngio.c). */
#include "pngio.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <stdlib.h>
#include <string.h>

/* Filtered rows with the Up filter: each byte minus the byte above it. Written so that the compiler
 * vectorises the inner loop (plain indexing, no aliasing: restrict). */
static void filter_up(const uint8_t *restrict rgba, int w, int h, bool alpha, uint8_t *restrict out)
{
    size_t row = (size_t)w * 4, orow = (size_t)w * (alpha ? 4 : 3) + 1;
    for (int y = 0; y < h; y++) {
        const uint8_t *cur = rgba + row * (size_t)(h - 1 - y);     /* image row y, top first */
        const uint8_t *up = y ? cur + row : NULL;                   /* the row above it in the image */
        uint8_t *o = out + orow * (size_t)y;
        *o++ = 2; /* Up */
        if (alpha) {
            if (up) for (size_t i = 0; i < row; i++) o[i] = (uint8_t)(cur[i] - up[i]);
            else memcpy(o, cur, row);
        } else if (up) {
            for (int x = 0; x < w; x++) {
                o[3 * x + 0] = (uint8_t)(cur[4 * x + 0] - up[4 * x + 0]);
                o[3 * x + 1] = (uint8_t)(cur[4 * x + 1] - up[4 * x + 1]);
                o[3 * x + 2] = (uint8_t)(cur[4 * x + 2] - up[4 * x + 2]);
            }
        } else {
            for (int x = 0; x < w; x++) {
                o[3 * x + 0] = cur[4 * x + 0];
                o[3 * x + 1] = cur[4 * x + 1];
                o[3 * x + 2] = cur[4 * x + 2];
            }
        }
    }
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* A chunk at p: length, type, data (already at p + 8), CRC of type and data; returns its size */
static size_t chunk(uint8_t *p, const char *type, size_t n)
{
    put32(p, (uint32_t)n);
    memcpy(p + 4, type, 4);
    put32(p + 8 + n, crc32_gzip_refl(0, p + 4, n + 4));
    return n + 12;
}

/* IDAT chunks hold at most this much each: a chunk's length is 31 bits */
#define IDAT_MAX ((size_t)1 << 30)

bool iks_png_encode_fast(const uint8_t *rgba, int w, int h, bool alpha, uint8_t **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    size_t raw_n = ((size_t)w * (alpha ? 4 : 3) + 1) * (size_t)h;
    uint8_t *raw = malloc(raw_n);
    if (!raw) return false;
    filter_up(rgba, w, h, alpha, raw);

    /* deflate's worst case (stored blocks) is 5 bytes per 64 KiB block beyond the data */
    size_t zcap = raw_n + raw_n / 1024 + 1024;
    uint8_t *z = malloc(zcap);
    uint8_t *lvl = malloc(ISAL_DEF_LVL1_DEFAULT);
    struct isal_zstream s;
    bool ok = z && lvl;
    if (ok) {
        isal_deflate_init(&s);
        s.level = 1;
        s.level_buf = lvl;
        s.level_buf_size = ISAL_DEF_LVL1_DEFAULT;
        s.gzip_flag = IGZIP_ZLIB;
        s.end_of_stream = 1;
        s.flush = NO_FLUSH;
        s.next_in = raw;
        s.next_out = z;
        /* avail_in and avail_out are 32-bit: feed and drain in pieces */
        size_t in_left = raw_n, out_left = zcap;
        while (ok && s.internal_state.state != ZSTATE_END) {
            if (s.avail_in == 0 && in_left) {
                s.avail_in = (uint32_t)(in_left > 0x40000000u ? 0x40000000u : in_left);
                in_left -= s.avail_in;
            }
            s.end_of_stream = in_left == 0;
            if (s.avail_out == 0) {
                if (!out_left) ok = false;
                s.avail_out = (uint32_t)(out_left > 0x40000000u ? 0x40000000u : out_left);
                out_left -= s.avail_out;
            }
            if (ok && isal_deflate(&s) != COMP_OK) ok = false;
        }
    }
    free(lvl);
    free(raw);
    size_t zn = ok ? s.total_out : 0;
    size_t nidat = zn / IDAT_MAX + 1;
    size_t total = 8 + 25 + zn + 12 * nidat + 12;
    uint8_t *png = ok ? malloc(total) : NULL;
    if (!png) {
        free(z);
        return false;
    }
    static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    memcpy(png, sig, 8);
    size_t k = 8;
    put32(png + k + 8, (uint32_t)w);
    put32(png + k + 12, (uint32_t)h);
    png[k + 16] = 8;                 /* bits per channel */
    png[k + 17] = alpha ? 6 : 2;     /* RGBA or RGB */
    png[k + 18] = png[k + 19] = png[k + 20] = 0; /* deflate, adaptive filtering, no interlace */
    k += chunk(png + k, "IHDR", 13);
    for (size_t off = 0; off < zn || off == 0; off += IDAT_MAX) {
        size_t n = zn - off < IDAT_MAX ? zn - off : IDAT_MAX;
        memcpy(png + k + 8, z + off, n);
        k += chunk(png + k, "IDAT", n);
        if (zn == 0) break;
    }
    k += chunk(png + k, "IEND", 0);
    free(z);
    *out = png;
    *len = k;
    return true;
}
