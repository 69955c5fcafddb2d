/* test_pngio.c: the 8-bit PNG encoder (src/io/pngio.c) on synthetic frames that no render can make:
 * rows wider than a strip, incompressible data (the stream outgrows its first buffer, several IDAT
 * chunks), every library and level, 1x1. Writes each PNG with the pixels it must hold (top row first,
 * RGBA) for test_pngio.sh to decode with independent readers. Here it asserts what only C can see:
 * the bytes of a PNG do not depend on what other threads encode at the same time with other settings
 * (the settings were process-wide once).
 * usage: test_pngio DIR   (writes DIR/cases.txt, DIR/NAME.png, DIR/NAME.rgba) */
#include "pngio.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    int w, h;
    bool alpha;
    iks_png_lib lib;
    int level;
    int pattern; /* 0 noise, 1 gradient, 2 noise in the left half, gradient in the right */
} tcase;

static const tcase CASES[] = {
    { "1x1_rgb", 1, 1, false, IKS_PNG_AUTO, 1, 0 },
    { "1x1_rgba", 1, 1, true, IKS_PNG_AUTO, 1, 0 },
    { "1x1_stored", 1, 1, false, IKS_PNG_AUTO, 0, 0 },
    { "3x2_rgba_l2", 3, 2, true, IKS_PNG_AUTO, 2, 0 },
    { "97x61_rgb", 97, 61, false, IKS_PNG_AUTO, 1, 2 },
    { "97x61_rgba_l9", 97, 61, true, IKS_PNG_AUTO, 9, 2 },
    /* rows wider than igzip's strip (one row a strip), and two rows a strip with one left over */
    { "45000x3_rgb", 45000, 3, false, IKS_PNG_AUTO, 1, 2 },
    { "16000x5_rgba", 16000, 5, true, IKS_PNG_AUTO, 1, 2 },
    /* incompressible: the stream outgrows its buffer and spans several IDAT chunks */
    { "1024x700_noise_rgba", 1024, 700, true, IKS_PNG_AUTO, 1, 0 },
    { "1001x401_noise_rgb", 1001, 401, false, IKS_PNG_AUTO, 1, 0 },
    { "1024x700_noise_stored", 1024, 700, true, IKS_PNG_AUTO, 0, 0 },
    { "1024x700_noise_l2", 1024, 700, false, IKS_PNG_AUTO, 2, 0 },
    /* ISA-L's and libdeflate's own levels, as bench render uses them */
    { "640x360_isal0", 640, 360, false, IKS_PNG_ISAL, 0, 2 },
    { "640x360_isal1", 640, 360, false, IKS_PNG_ISAL, 1, 2 },
    { "640x360_isal2", 640, 360, true, IKS_PNG_ISAL, 2, 2 },
    { "640x360_isal3", 640, 360, false, IKS_PNG_ISAL, 3, 2 },
    { "640x360_libdeflate1", 640, 360, false, IKS_PNG_LIBDEFLATE, 1, 1 },
    { "640x360_libdeflate12", 640, 360, true, IKS_PNG_LIBDEFLATE, 12, 2 },
};
#define NCASES (sizeof CASES / sizeof CASES[0])

/* the frame as GL gives it: bottom row first */
static uint8_t *make_frame(const tcase *c)
{
    uint8_t *px = malloc((size_t)c->w * (size_t)c->h * 4);
    if (!px) return NULL;
    uint64_t s = 0x9e3779b97f4a7c15ull ^ (uint64_t)c->w * 131 ^ (uint64_t)c->h;
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            uint8_t *p = px + ((size_t)y * (size_t)c->w + (size_t)x) * 4;
            for (int k = 0; k < 4; k++) {
                s ^= s << 13, s ^= s >> 7, s ^= s << 17;
                bool noise = c->pattern == 0 || (c->pattern == 2 && x < c->w / 2);
                p[k] = noise ? (uint8_t)(s >> 56) : (uint8_t)(x * (k + 1) + y * (3 - k));
            }
        }
    return px;
}

static int failures;

static bool encode(const tcase *c, const uint8_t *px, uint8_t **png, size_t *len)
{
    iks_png_opts o = { .level = c->level, .alpha = c->alpha, .lib = c->lib };
    return iks_png_encode(px, c->w, c->h, &o, png, len);
}

/* encodes every case in turn, from the first case index given, and checks the bytes against want */
typedef struct {
    int first;
    uint8_t **frames, **want;
    size_t *want_len;
    int bad;
} worker;

static void *run_worker(void *v)
{
    worker *k = v;
    for (int round = 0; round < 3; round++)
        for (size_t j = 0; j < NCASES; j++) {
            size_t i = (j + (size_t)k->first) % NCASES;
            uint8_t *png;
            size_t len;
            if (!encode(&CASES[i], k->frames[i], &png, &len)) k->bad++;
            else if (len != k->want_len[i] || memcmp(png, k->want[i], len) != 0) k->bad++;
            free(png);
        }
    iks_png_thread_done();
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_pngio DIR\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/cases.txt", argv[1]);
    FILE *list = fopen(path, "w");
    if (!list) {
        perror(path);
        return 2;
    }
    uint8_t *frames[NCASES], *want[NCASES];
    size_t want_len[NCASES];
    for (size_t i = 0; i < NCASES; i++) {
        const tcase *c = &CASES[i];
        frames[i] = make_frame(c);
        if (!frames[i] || !encode(c, frames[i], &want[i], &want_len[i])) {
            fprintf(stderr, "FAIL: %s: the encoder failed\n", c->name);
            return 1;
        }
        /* the PNG, and the pixels it must hold: top row first */
        snprintf(path, sizeof path, "%s/%s.png", argv[1], c->name);
        FILE *f = fopen(path, "wb");
        bool ok = f && fwrite(want[i], 1, want_len[i], f) == want_len[i];
        if (f && fclose(f) != 0) ok = false;
        snprintf(path, sizeof path, "%s/%s.rgba", argv[1], c->name);
        f = fopen(path, "wb");
        size_t row = (size_t)c->w * 4;
        for (int y = c->h - 1; ok && f && y >= 0; y--) ok = fwrite(frames[i] + (size_t)y * row, 1, row, f) == row;
        if (!f || fclose(f) != 0) ok = false;
        if (!ok) {
            perror(path);
            return 2;
        }
        fprintf(list, "%s %d %d %d\n", c->name, c->w, c->h, c->alpha ? 4 : 3);
    }
    fclose(list);
    /* two threads encode every case with every setting at once, each starting elsewhere in the list:
     * each PNG must come out byte for byte as it did alone */
    worker k[2] = { { 0, frames, want, want_len, 0 }, { (int)NCASES / 2, frames, want, want_len, 0 } };
    pthread_t th[2];
    for (int t = 0; t < 2; t++)
        if (pthread_create(&th[t], NULL, run_worker, &k[t]) != 0) {
            fprintf(stderr, "FAIL: cannot start a thread\n");
            return 1;
        }
    for (int t = 0; t < 2; t++) pthread_join(th[t], NULL);
    if (k[0].bad + k[1].bad) {
        fprintf(stderr, "FAIL: %d PNGs encoded beside another thread differ from the same PNGs encoded alone\n",
                k[0].bad + k[1].bad);
        failures++;
    } else printf("ok: %d PNGs encoded on two threads at once, with mixed settings, equal the ones made alone\n",
                  (int)(3 * 2 * NCASES));
    /* releasing twice, or on a thread that never encoded, is harmless */
    iks_png_thread_done();
    iks_png_thread_done();
    for (size_t i = 0; i < NCASES; i++) {
        free(frames[i]);
        free(want[i]);
    }
    return failures ? 1 : 0;
}
