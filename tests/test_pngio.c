/* test_pngio.c: the 8-bit PNG encoder (src/io/pngio.c) on synthetic frames that no render can make:
 * rows wider than a strip, incompressible data (the stream outgrows its first buffer, several IDAT
 * chunks), every library and level, 1x1. Writes each PNG with the pixels it must hold (top row first,
 * RGBA) for test_pngio.sh to decode with independent readers. Here it asserts what only C can see:
 * the bytes of a PNG do not depend on what other threads encode at the same time with other settings
 * (the settings were process-wide once), nor on where in memory the encoder's stack lies (ISA-L's
 * first-byte path hashes a register holding its stream's address: see deflate_isal).
 * usage: test_pngio DIR   (writes DIR/cases.txt, DIR/NAME.png, DIR/NAME.rgba) */
#include "io/pngio.h"

#include <pthread.h>
#include <sys/mman.h>
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
    iks_err e = IKS_ERR_INIT;
    bool ok = iks_png_encode(px, c->w, c->h, &o, png, len, &e);
    iks_err_clear(&e);
    return ok;
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

/* Small one-colour frames: the whole stream is one igzip call, so its hash table shrinks to a few
 * hundred entries, of which the few the repeating bytes use decide the matches; a stray entry lands on
 * one of those for about one stack address in a hundred or two */
typedef struct {
    int w, h, level;
    uint8_t *px, *want;
    size_t want_len;
} small;

#define NSMALL 12
#define STACK_STEPS 1024 /* distinct 64 KiB pages for the encoder's stack */

static void make_small(small *c, int i)
{
    c->w = 12 + i;
    c->h = 3 + i % 4;
    c->level = 1 + i % 2; /* ISA-L levels 1 and 2: the body with the first-byte path */
    c->px = malloc((size_t)c->w * (size_t)c->h * 4);
    if (!c->px) return;
    for (int k = 0; k < c->w * c->h; k++) { /* one colour: the image's bytes repeat every 3 */
        c->px[4 * k + 0] = (uint8_t)(40 + 17 * i);
        c->px[4 * k + 1] = (uint8_t)(200 - 9 * i);
        c->px[4 * k + 2] = (uint8_t)(7 * i);
        c->px[4 * k + 3] = 255;
    }
}

static bool encode_small(const small *c, uint8_t **png, size_t *len)
{
    iks_png_opts o = { .level = c->level, .alpha = false, .lib = IKS_PNG_ISAL };
    iks_err e = IKS_ERR_INIT;
    bool ok = iks_png_encode(c->px, c->w, c->h, &o, png, len, &e);
    iks_err_clear(&e);
    return ok;
}

static void *run_small(void *v)
{
    small *cs = v;
    long bad = 0;
    for (int i = 0; i < NSMALL; i++) {
        uint8_t *png;
        size_t len;
        if (!encode_small(&cs[i], &png, &len) || len != cs[i].want_len || memcmp(png, cs[i].want, len) != 0) bad++;
        free(png);
    }
    iks_png_thread_done();
    return (void *)bad;
}

/* every small frame, encoded on threads whose stacks start STACK_STEPS different 64 KiB pages apart,
 * must come out as it did on the main thread */
static void check_stack_independence(void)
{
    small cs[NSMALL];
    for (int i = 0; i < NSMALL; i++) {
        make_small(&cs[i], i);
        if (!cs[i].px || !encode_small(&cs[i], &cs[i].want, &cs[i].want_len)) {
            fprintf(stderr, "FAIL: small frame %d: the encoder failed\n", i);
            failures++;
            return;
        }
    }
    size_t stack = (size_t)1 << 19, step = (size_t)1 << 16, span = stack + step * STACK_STEPS;
    uint8_t *region = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (region == MAP_FAILED) {
        perror("test_pngio: mmap");
        failures++;
        return;
    }
    long bad = 0, runs = 0;
    for (int j = 0; j < STACK_STEPS; j++) { /* one at a time: the stacks overlap */
        pthread_attr_t a;
        pthread_t t;
        void *r = NULL;
        if (pthread_attr_init(&a) != 0 || pthread_attr_setstack(&a, region + step * (size_t)j, stack) != 0 ||
            pthread_create(&t, &a, run_small, cs) != 0) {
            fprintf(stderr, "FAIL: cannot start a thread on a stack of our own\n");
            failures++;
            break;
        }
        pthread_join(t, &r);
        pthread_attr_destroy(&a);
        bad += (long)r;
        runs += NSMALL;
    }
    munmap(region, span);
    if (bad) {
        fprintf(stderr, "FAIL: %ld of %ld small PNGs differ with the encoder's stack elsewhere in memory\n", bad, runs);
        failures++;
    } else printf("ok: %ld small PNGs encoded on stacks at %d different addresses equal the ones made on the main thread\n",
                  runs, STACK_STEPS);
    for (int i = 0; i < NSMALL; i++) {
        free(cs[i].px);
        free(cs[i].want);
    }
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
    check_stack_independence();
    /* releasing twice, or on a thread that never encoded, is harmless */
    iks_png_thread_done();
    iks_png_thread_done();
    for (size_t i = 0; i < NCASES; i++) {
        free(frames[i]);
        free(want[i]);
    }
    return failures ? 1 : 0;
}
