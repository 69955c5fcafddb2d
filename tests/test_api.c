/* test_api.c: the engine through its public API alone (include/ikshade/ikshade.h), as a program that
 * embeds it would use it: a headless engine, toys from memory and from files, exact pixels in both
 * output formats, the frame's uniforms, settings, every error code a caller can provoke, rendering to
 * files with a progress callback (and stopping it, between frames and between Cube A's steps), the
 * logger, and no GL objects leaked.
 *
 *     test_api SOURCE_DIR      (prints one line per failure, then "N passed, M failed")
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkdtemp, d_type (the build defines it too) */
#endif
#include "ikshade/ikshade.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int passed, failed;

/* CHECK(cond, "what", "expected", "got-format", got...): on failure prints what was expected and got */
#define CHECK(cond, what, want, ...)                                                                    \
    do {                                                                                                \
        if (cond) passed++;                                                                             \
        else {                                                                                          \
            failed++;                                                                                   \
            fprintf(stderr, "FAIL %s:%d: %s\n  expected: %s\n  got:      ", __FILE__, __LINE__, what, want); \
            fprintf(stderr, __VA_ARGS__);                                                               \
            fputc('\n', stderr);                                                                        \
        }                                                                                               \
    } while (0)

#define CHECK_INT(what, got, want)                                                                      \
    do {                                                                                                \
        long g_ = (long)(got), w_ = (long)(want);                                                       \
        char ws_[32];                                                                                   \
        snprintf(ws_, sizeof ws_, "%ld", w_);                                                           \
        CHECK(g_ == w_, what, ws_, "%ld", g_);                                                          \
    } while (0)

/* a call's code against the expected one; on failure also the last error's message */
#define CHECK_CODE(what, got, want)                                                                     \
    do {                                                                                                \
        iks_code g_ = (got), w_ = (want);                                                               \
        const char *m_ = "";                                                                            \
        if (g_ != w_ && g_ != IKS_OK) iks_last_error(&m_);                                              \
        CHECK(g_ == w_, what, iks_code_name(w_), "%s (last error: %s)", iks_code_name(g_), m_);         \
    } while (0)

/* iks_toy_draw into packed buffers of exactly the frame's size (what the call took before lengths) */
static iks_code draw_wh(iks_toy *t, const iks_frame_info *f, int w, int h, uint8_t *rgba8, float *rgbaf)
{
    size_t px = w > 0 && h > 0 ? (size_t)w * (size_t)h : 0;
    iks_draw_desc d = IKS_DRAW_DESC_INIT;
    d.width = w, d.height = h;
    d.rgba8 = rgba8, d.rgba8_len = px * 4;
    d.rgbaf = rgbaf, d.rgbaf_len = px * 4 * sizeof(float);
    return iks_toy_draw(t, f, &d);
}

/* ---- the logger: keeps what it was given ---- */
typedef struct {
    int warnings, infos;
    char last[1024];
    bool trailing_newline;
} logbook;

static void on_log(void *user, iks_log_level level, const char *message)
{
    logbook *b = user;
    if (level == IKS_LOG_WARN) b->warnings++;
    else b->infos++; /* INFO and DIAGNOSTICS (compile warnings) */
    snprintf(b->last, sizeof b->last, "%s", message);
    size_t n = strlen(message);
    if (n && message[n - 1] == '\n') b->trailing_newline = true;
}

/* ---- small helpers ---- */
static char tmpdir[256];

static char *tmp_path(const char *name)
{
    static char buf[4][512];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", tmpdir, name);
    return p;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

static unsigned char *read_file(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *d = malloc(*len > 0 ? (size_t)*len : 1);
    if (d && fread(d, 1, (size_t)*len, f) != (size_t)*len) {
        free(d);
        d = NULL;
    }
    fclose(f);
    return d;
}

static unsigned long be32(const unsigned char *p)
{
    return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}

/* An independent look at a PNG: the signature, IHDR first with its width and height (big-endian),
 * and an IEND chunk at the very end (a complete file). Returns false with the reason in why. */
static bool png_ok(const char *path, int w, int h, char *why, size_t n)
{
    long len = 0;
    unsigned char *d = read_file(path, &len);
    bool ok = false;
    if (!d) snprintf(why, n, "%s: cannot read", path);
    else if (len < 8 + 25 + 12 || memcmp(d, "\x89PNG\r\n\x1a\n", 8) != 0)
        snprintf(why, n, "%s: no PNG signature (%ld bytes)", path, len);
    else if (be32(d + 8) != 13 || memcmp(d + 12, "IHDR", 4) != 0) snprintf(why, n, "%s: IHDR is not first", path);
    else if (be32(d + 16) != (unsigned long)w || be32(d + 20) != (unsigned long)h)
        snprintf(why, n, "%s: IHDR says %lux%lu, want %dx%d", path, be32(d + 16), be32(d + 20), w, h);
    else if (memcmp(d + len - 8, "IEND", 4) != 0) snprintf(why, n, "%s: does not end with IEND (truncated?)", path);
    else ok = true;
    free(d);
    return ok;
}

/* ---- a small, independent PNG reader: inflate after RFC 1951 (in the manner of zlib's puff.c), then
 * the five row filters. Reads 8-bit RGB and RGBA, not interlaced: what the library writes. ---- */
typedef struct {
    const unsigned char *in;
    size_t inlen, pos;
    unsigned bitbuf, bitcnt;
    unsigned char *out;
    size_t outlen, outpos;
    bool err;
} inflater;

typedef struct {
    short count[16];
    short symbol[320];
} huffman;

static int getbits(inflater *s, unsigned need)
{
    unsigned long v = s->bitbuf;
    while (s->bitcnt < need) {
        if (s->pos >= s->inlen) {
            s->err = true;
            return 0;
        }
        v |= (unsigned long)s->in[s->pos++] << s->bitcnt;
        s->bitcnt += 8;
    }
    s->bitbuf = (unsigned)(v >> need);
    s->bitcnt -= need;
    return (int)(v & ((1UL << need) - 1));
}

static int huff_decode(inflater *s, const huffman *h)
{
    int code = 0, first = 0, index = 0;
    for (int len = 1; len < 16; len++) {
        code |= getbits(s, 1);
        int count = h->count[len];
        if (code - count < first) return h->symbol[index + (code - first)];
        index += count;
        first = (first + count) << 1;
        code <<= 1;
        if (s->err) return -1;
    }
    s->err = true;
    return -1;
}

static void huff_build(huffman *h, const short *length, int n)
{
    short offs[16];
    memset(h->count, 0, sizeof h->count);
    for (int i = 0; i < n; i++) h->count[length[i]]++;
    offs[1] = 0;
    for (int len = 1; len < 15; len++) offs[len + 1] = (short)(offs[len] + h->count[len]);
    for (int i = 0; i < n; i++)
        if (length[i]) h->symbol[offs[length[i]]++] = (short)i;
    h->count[0] = 0;
}

static void put(inflater *s, unsigned char c)
{
    if (s->outpos >= s->outlen) s->err = true;
    else s->out[s->outpos++] = c;
}

static void inflate_codes(inflater *s, const huffman *lc, const huffman *dc)
{
    static const short lbase[29] = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99,
                                     115, 131, 163, 195, 227, 258 };
    static const short lext[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
    static const short dbase[30] = { 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025,
                                     1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577 };
    static const short dext[30] = { 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };
    for (;;) {
        int sym = huff_decode(s, lc);
        if (s->err || sym == 256) return;
        if (sym < 256) {
            put(s, (unsigned char)sym);
            continue;
        }
        sym -= 257;
        if (sym >= 29) {
            s->err = true;
            return;
        }
        int len = lbase[sym] + getbits(s, (unsigned)lext[sym]);
        int d = huff_decode(s, dc);
        if (s->err || d < 0 || d >= 30) {
            s->err = true;
            return;
        }
        size_t dist = (size_t)(dbase[d] + getbits(s, (unsigned)dext[d]));
        if (dist > s->outpos) {
            s->err = true;
            return;
        }
        while (len-- > 0 && !s->err) put(s, s->out[s->outpos - dist]);
    }
}

static bool inflate_all(inflater *s)
{
    int last;
    do {
        last = getbits(s, 1);
        int type = getbits(s, 2);
        if (s->err) return false;
        if (type == 0) { /* stored */
            s->bitbuf = s->bitcnt = 0;
            if (s->pos + 4 > s->inlen) return false;
            size_t len = s->in[s->pos] | (size_t)s->in[s->pos + 1] << 8;
            s->pos += 4;
            if (s->pos + len > s->inlen) return false;
            while (len--) put(s, s->in[s->pos++]);
        } else if (type == 1) { /* fixed codes */
            static huffman lc, dc;
            short l[288];
            int i = 0;
            for (; i < 144; i++) l[i] = 8;
            for (; i < 256; i++) l[i] = 9;
            for (; i < 280; i++) l[i] = 7;
            for (; i < 288; i++) l[i] = 8;
            huff_build(&lc, l, 288);
            for (i = 0; i < 30; i++) l[i] = 5;
            huff_build(&dc, l, 30);
            inflate_codes(s, &lc, &dc);
        } else if (type == 2) { /* dynamic codes */
            static const short order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
            short l[320] = { 0 };
            int nlen = getbits(s, 5) + 257, ndist = getbits(s, 5) + 1, ncode = getbits(s, 4) + 4;
            if (s->err || nlen > 286 || ndist > 30) return false;
            for (int i = 0; i < ncode; i++) l[order[i]] = (short)getbits(s, 3);
            huffman cl, lc, dc;
            huff_build(&cl, l, 19);
            memset(l, 0, sizeof l);
            for (int i = 0; i < nlen + ndist && !s->err;) {
                int sym = huff_decode(s, &cl), rep = 0;
                short v = 0;
                if (sym < 16) {
                    l[i++] = (short)sym;
                    continue;
                }
                if (sym == 16) {
                    if (i == 0) return false;
                    v = l[i - 1];
                    rep = 3 + getbits(s, 2);
                } else if (sym == 17) rep = 3 + getbits(s, 3);
                else rep = 11 + getbits(s, 7);
                if (i + rep > nlen + ndist) return false;
                while (rep--) l[i++] = v;
            }
            huff_build(&lc, l, nlen);
            huff_build(&dc, l + nlen, ndist);
            inflate_codes(s, &lc, &dc);
        } else return false;
        if (s->err) return false;
    } while (!last);
    return true;
}

/* Reads a PNG into *px (malloc'd, w*h*ch bytes, top row first); ch is 3 or 4. */
static bool png_read(const char *path, int *w, int *h, int *ch, unsigned char **px, char *why, size_t n)
{
    long len = 0;
    unsigned char *d = read_file(path, &len), *idat = NULL, *raw = NULL;
    size_t nidat = 0;
    bool ok = false;
    *px = NULL;
    if (!d || len < 8 || memcmp(d, "\x89PNG\r\n\x1a\n", 8)) {
        snprintf(why, n, "%s: not a PNG", path);
        goto done;
    }
    *w = *h = *ch = 0;
    for (long pos = 8; pos + 12 <= len;) {
        unsigned long clen = be32(d + pos);
        if ((long)clen > len - pos - 12) break;
        const unsigned char *kind = d + pos + 4, *body = d + pos + 8;
        if (!memcmp(kind, "IHDR", 4)) {
            *w = (int)be32(body);
            *h = (int)be32(body + 4);
            if (body[8] != 8 || (body[9] != 2 && body[9] != 6) || body[12] != 0) {
                snprintf(why, n, "%s: not 8-bit RGB/RGBA non-interlaced", path);
                goto done;
            }
            *ch = body[9] == 2 ? 3 : 4;
        } else if (!memcmp(kind, "IDAT", 4)) {
            unsigned char *m = realloc(idat, nidat + clen + 1);
            if (!m) goto done;
            idat = m;
            memcpy(idat + nidat, body, clen);
            nidat += clen;
        }
        pos += 12 + (long)clen;
    }
    if (!*w || !*h || !idat || nidat < 2) {
        snprintf(why, n, "%s: no IHDR or IDAT", path);
        goto done;
    }
    size_t stride = (size_t)*w * (size_t)*ch, rawlen = (stride + 1) * (size_t)*h;
    raw = malloc(rawlen);
    *px = malloc(stride * (size_t)*h);
    if (!raw || !*px) goto done;
    inflater s = { .in = idat + 2, .inlen = nidat - 2, .out = raw, .outlen = rawlen }; /* after the zlib header */
    if (!inflate_all(&s) || s.outpos != rawlen) {
        snprintf(why, n, "%s: the image data does not inflate to %zu bytes", path, rawlen);
        goto done;
    }
    for (int y = 0; y < *h; y++) {
        const unsigned char *src = raw + (size_t)y * (stride + 1) + 1;
        unsigned char *row = *px + (size_t)y * stride, *prev = y ? row - stride : NULL;
        int f = src[-1];
        for (size_t i = 0; i < stride; i++) {
            int a = i >= (size_t)*ch ? row[i - (size_t)*ch] : 0, b = prev ? prev[i] : 0,
                c = prev && i >= (size_t)*ch ? prev[i - (size_t)*ch] : 0, v = src[i];
            if (f == 1) v += a;
            else if (f == 2) v += b;
            else if (f == 3) v += (a + b) / 2;
            else if (f == 4) {
                int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
                v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
            } else if (f != 0) {
                snprintf(why, n, "%s: row %d has filter %d", path, y, f);
                goto done;
            }
            row[i] = (unsigned char)v;
        }
    }
    ok = true;
done:
    if (!ok) {
        free(*px);
        *px = NULL;
    }
    free(raw);
    free(idat);
    free(d);
    return ok;
}

/* Files in dir: how many, and how many look temporary (hidden, or .tmp / ~ names). */
static void count_files(const char *dir, int *files, int *temporary, char *names, size_t n)
{
    *files = *temporary = 0;
    names[0] = '\0';
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        (*files)++;
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' || strstr(e->d_name, ".tmp") || strstr(e->d_name, "tmp.") ||
            (l && e->d_name[l - 1] == '~'))
            (*temporary)++;
        size_t k = strlen(names);
        snprintf(names + k, n - k, "%s%s", k ? " " : "", e->d_name);
    }
    closedir(d);
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char p[1024];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (e->d_type == DT_DIR) remove_tree(p);
        else unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

/* the last error's message is there, and one line (any error but a compile error) */
static void check_one_line(const char *what)
{
    const char *m = NULL;
    iks_last_error(&m);
    char desc[256];
    snprintf(desc, sizeof desc, "%s: the message is non-empty and one line", what);
    CHECK(m && m[0] && !strchr(m, '\n'), desc, "one non-empty line", "'%s'", m ? m : "(null)");
}

/* loads from memory; the code it returns */
static iks_code load_src(iks_engine *e, const char *name, const char *src, int w, int h, iks_toy **t)
{
    *t = NULL;
    return iks_toy_load(e, &(iks_toy_desc){ .path = name, .source = src, .width = w, .height = h }, t);
}

/* ---- the tests ---- */

/* the last error is IKS_E_USAGE about field */
#define CHECK_FIELD(what, got, field)                                                                   \
    do {                                                                                                \
        CHECK_CODE(what, got, IKS_E_USAGE);                                                             \
        const char *f_ = iks_last_error_field(NULL), *m_ = "";                                          \
        iks_last_error(&m_);                                                                            \
        CHECK(!strcmp(f_, field), what " names the field", field, "'%s' (%s)", f_, m_);                 \
    } while (0)

/* iks_draw_desc: rows a stride apart equal the packed frame and leave the gaps alone; a buffer too small
 * or a stride too short is refused with the field named and nothing written */
static void test_draw_desc(iks_engine *e)
{
    enum { W = 5, H = 3, S = W * 4 + 12 };
    const char *src = "void mainImage(out vec4 c, in vec2 p) { c = vec4(p.x / 5.0, p.y / 3.0, 0.25, 1.0); }\n";
    iks_toy *t = NULL;
    CHECK_CODE("load the draw_desc shader", load_src(e, "dd.frag", src, W, H, &t), IKS_OK);
    if (!t) return;
    uint8_t packed[W * H * 4], strided[S * H];
    memset(strided, 0xAB, sizeof strided);
    CHECK_CODE("a packed draw", draw_wh(t, NULL, W, H, packed, NULL), IKS_OK);
    iks_draw_desc d = IKS_DRAW_DESC_INIT;
    d.width = W, d.height = H, d.rgba8 = strided, d.rgba8_stride = S;
    d.rgba8_len = (size_t)S * (H - 1) + W * 4; /* the last row needs no padding after it */
    CHECK_CODE("a draw with rows 32 bytes apart", iks_toy_draw(t, NULL, &d), IKS_OK);
    int bad = 0;
    for (int y = 0; y < H; y++) {
        bad += memcmp(strided + y * S, packed + y * W * 4, W * 4) != 0;
        for (int k = W * 4; k < S && y < H - 1; k++) bad += strided[y * S + k] != 0xAB;
    }
    CHECK_INT("strided rows equal the packed ones, the gaps untouched", bad, 0);
    memset(strided, 0xAB, sizeof strided);
    d.rgba8_len--;
    CHECK_FIELD("rgba8_len one byte short", iks_toy_draw(t, NULL, &d), "rgba8_len");
    int touched = 0;
    for (size_t i = 0; i < sizeof strided; i++) touched += strided[i] != 0xAB;
    CHECK_INT("... and nothing written", touched, 0);
    d.rgba8_len = sizeof strided, d.rgba8_stride = W * 4 - 1;
    CHECK_FIELD("rgba8_stride below a row", iks_toy_draw(t, NULL, &d), "rgba8_stride");
    /* a stride whose rows pass the end of memory: (H-1) * stride wraps to a small number, which a
     * length check made with the product would take for one that fits */
    memset(strided, 0xAB, sizeof strided);
    d.rgba8_len = sizeof strided, d.rgba8_stride = ((size_t)1 << 63) + 16;
    CHECK_FIELD("rgba8_stride 2^63 + 16 (wraps with 3 rows)", iks_toy_draw(t, NULL, &d), "rgba8_stride");
    d.rgba8_stride = SIZE_MAX / 2 + 1;
    CHECK_FIELD("rgba8_stride SIZE_MAX / 2 + 1", iks_toy_draw(t, NULL, &d), "rgba8_stride");
    touched = 0;
    for (size_t i = 0; i < sizeof strided; i++) touched += strided[i] != 0xAB;
    CHECK_INT("... and nothing written", touched, 0);
    {
        float big[4];
        iks_draw_desc fd = IKS_DRAW_DESC_INIT;
        fd.width = W, fd.height = H, fd.rgbaf = big, fd.rgbaf_len = sizeof big;
        fd.rgbaf_stride = ((size_t)1 << 63) + 16; /* times 2 rows: 32 */
        CHECK_FIELD("rgbaf_stride 2^63 + 16", iks_toy_draw(t, NULL, &fd), "rgbaf_stride");
    }
    /* floats with rows a stride apart: the packed float draw's values, row by row */
    enum { FS = W * 4 + 3 }; /* floats from one row to the next */
    float fpacked[W * H * 4], fstrided[FS * H];
    CHECK_CODE("a packed float draw", draw_wh(t, NULL, W, H, NULL, fpacked), IKS_OK);
    d = (iks_draw_desc)IKS_DRAW_DESC_INIT;
    d.width = W, d.height = H, d.rgbaf = fstrided, d.rgbaf_len = sizeof fstrided, d.rgbaf_stride = FS * sizeof(float);
    CHECK_CODE("a float draw with rows 92 bytes apart", iks_toy_draw(t, NULL, &d), IKS_OK);
    bad = 0;
    for (int y = 0; y < H; y++) bad += memcmp(fstrided + y * FS, fpacked + y * W * 4, W * 4 * sizeof(float)) != 0;
    CHECK_INT("strided float rows equal the packed ones", bad, 0);
    float pf[W * H * 4 + 1];
    d = (iks_draw_desc)IKS_DRAW_DESC_INIT;
    d.width = W, d.height = H, d.rgbaf = pf, d.rgbaf_len = sizeof pf, d.rgbaf_stride = W * 16 + 2;
    CHECK_FIELD("rgbaf_stride not a whole number of floats", iks_toy_draw(t, NULL, &d), "rgbaf_stride");
    d.rgbaf_stride = 0, d.rgbaf_len = W * H * 16 - 4;
    CHECK_FIELD("rgbaf_len short", iks_toy_draw(t, NULL, &d), "rgbaf_len");
    d = (iks_draw_desc)IKS_DRAW_DESC_INIT;
    d.to_fbo = true;
    CHECK_FIELD("to_fbo on a headless engine", iks_toy_draw(t, NULL, &d), "fbo");
    d = (iks_draw_desc)IKS_DRAW_DESC_INIT;
    d.width = -1, d.height = 2;
    CHECK_FIELD("a size below 1", iks_toy_draw(t, NULL, &d), "size");
    d.width = IKS_MAX_SIDE + 1, d.height = 1;
    CHECK_FIELD("a side past IKS_MAX_SIDE", iks_toy_draw(t, NULL, &d), "size");
    /* refused by the GL's largest size: the toy keeps its own (a draw of 0x0 is at W x H) */
    d.width = iks_engine_max_size(e) + 1, d.height = 1;
    CHECK_CODE("a side past the GL's largest", iks_toy_draw(t, NULL, &d), IKS_E_USAGE);
    d = (iks_draw_desc)IKS_DRAW_DESC_INIT;
    d.rgba8 = packed, d.rgba8_len = sizeof packed; /* 0x0: at the toy's size, which must still be W x H */
    CHECK_CODE("... then a packed draw at the toy's size", iks_toy_draw(t, NULL, &d), IKS_OK);
    CHECK_CODE("NULL: only draw", iks_toy_draw(t, NULL, NULL), IKS_OK);

    /* the Image texture: its size and format follow the draw */
    unsigned tex = 0, fmt = 0;
    int tw = 0, th = 0;
    CHECK_CODE("iks_toy_image_texture after an 8-bit draw", iks_toy_image_texture(t, &tex, &tw, &th, &fmt), IKS_OK);
    CHECK(tex && tw == W && th == H && fmt == 0x8058, "the Image texture: a name, 5x3, GL_RGBA8", "5x3 0x8058",
          "%u %dx%d 0x%04x", tex, tw, th, fmt);
    d = (iks_draw_desc)IKS_DRAW_DESC_INIT;
    d.hdr = true;
    CHECK_CODE("an hdr draw", iks_toy_draw(t, NULL, &d), IKS_OK);
    CHECK_CODE("iks_toy_image_texture after it", iks_toy_image_texture(t, &tex, NULL, NULL, &fmt), IKS_OK);
    CHECK(fmt == 0x8814, "... is GL_RGBA32F", "0x8814", "0x%04x", fmt);
    iks_toy_destroy(t);
    t = NULL;
    CHECK_CODE("load again", load_src(e, "dd.frag", src, W, H, &t), IKS_OK);
    if (!t) return;
    CHECK_CODE("iks_toy_image_texture before any draw", iks_toy_image_texture(t, &tex, NULL, NULL, NULL), IKS_E_USAGE);
    iks_toy_destroy(t);
}

/* A draw refused for its size (past the GL's largest target) changes nothing: the toy keeps its size
 * and its buffers' contents, and the next draw at its size is drawn as before */
static void test_refused_size(iks_engine *e)
{
    enum { W = 4, H = 2 };
    const char *a = "void mainImage(out vec4 c, in vec2 p) {\n"
                    "  vec4 o = texelFetch(iChannel0, ivec2(p), 0);\n"
                    "  c = iFrame == 0 ? vec4(p.x / 8.0, p.y / 4.0, 0.0, 1.0) : o + vec4(0.0, 0.0, 0.125, 0.0); }\n";
    const char *img = "void mainImage(out vec4 c, in vec2 p) { c = texelFetch(iChannel0, ivec2(p), 0); }\n";
    char dir[] = "/tmp/iks_refusedXXXXXX";
    if (!mkdtemp(dir)) return;
    char pa[64], pi[64], pm[64];
    snprintf(pa, sizeof pa, "%s/a.glsl", dir);
    snprintf(pi, sizeof pi, "%s/image.glsl", dir);
    snprintf(pm, sizeof pm, "%s/manifest.txt", dir);
    FILE *f = fopen(pa, "w");
    if (f) fputs(a, f), fclose(f);
    f = fopen(pi, "w");
    if (f) fputs(img, f), fclose(f);
    f = fopen(pm, "w");
    if (f) fputs("a.iChannel0 = a,filter=nearest\nimage.iChannel0 = a,filter=nearest\n", f), fclose(f);
    iks_toy_desc td = IKS_TOY_DESC_INIT;
    td.path = dir, td.width = W, td.height = H;
    iks_toy *t = NULL;
    CHECK_CODE("load a toy with a buffer", iks_toy_load(e, &td, &t), IKS_OK);
    uint8_t px[W * H * 4], again[W * H * 4];
    if (t) {
        CHECK_CODE("frame 0", draw_wh(t, &(iks_frame_info){ .frame = 0 }, W, H, px, NULL), IKS_OK);
        int max = iks_engine_max_size(e);
        iks_draw_desc d = IKS_DRAW_DESC_INIT;
        d.width = max + 1, d.height = 2;
        CHECK_CODE("a draw one pixel wider than the GL allows", iks_toy_draw(t, &(iks_frame_info){ .frame = 1 }, &d),
                   IKS_E_USAGE);
        d = (iks_draw_desc)IKS_DRAW_DESC_INIT;
        d.rgba8 = again, d.rgba8_len = sizeof again; /* 0x0: the toy's size */
        CHECK_CODE("... then a draw at the toy's size (0x0)", iks_toy_draw(t, &(iks_frame_info){ .frame = 1 }, &d), IKS_OK);
        /* frame 1 adds 0.125 of blue to what frame 0 left: the buffer kept its contents and size */
        CHECK_INT("frame 1's pixel (3,1) blue", again[(0 * W + 3) * 4 + 2], 32);
        CHECK_INT("frame 1's pixel (3,1) red as frame 0's", again[(0 * W + 3) * 4], px[(0 * W + 3) * 4]);
        unsigned tex, fmt;
        int tw = 0, th = 0;
        CHECK_CODE("the Image texture", iks_toy_image_texture(t, &tex, &tw, &th, &fmt), IKS_OK);
        CHECK(tw == W && th == H, "the toy's size is the one it had", "4x2", "%dx%d", tw, th);
        iks_toy_destroy(t);
    }
    remove(pa), remove(pi), remove(pm), rmdir(dir);
}

/* iks_toy_describe: a toy read without GL; the structs it fills are never written past the size the
 * caller says it has (a program built against an older, smaller layout), and bad indices are refused
 * naming the field */
static void test_describe(void)
{
    const char *src = "#iUniform float r1 = 0.5 in { 0.0, 1.0 }\nuniform vec2 off;\n"
                      "void mainImage(out vec4 c, in vec2 p) { c = vec4(r1, off, 1.0) + texture(iChannel2, p); }\n";
    iks_toy_desc d = IKS_TOY_DESC_INIT;
    d.source = src;
    d.channel[2] = "keyboard";
    iks_toy_spec *s = NULL;
    CHECK_CODE("describe GLSL in memory", iks_toy_describe(&d, &s), IKS_OK);
    if (!s) return;
    CHECK_INT("one pass", iks_toy_spec_pass_count(s), 1);
    iks_pass_info pi = { IKS_DESC_SIZE(iks_pass_info) };
    CHECK_CODE("pass 0", iks_toy_spec_pass(s, 0, &pi), IKS_OK);
    CHECK(!strcmp(pi.name, "Image") && pi.id == IKS_PASS_IMAGE && !strcmp(pi.entry, "mainImage") && pi.channels == 1,
          "pass 0 is the Image, reading one channel", "Image 0 mainImage 1", "%s %d %s %d", pi.name, pi.id, pi.entry,
          pi.channels);
    iks_channel_info ci = { IKS_DESC_SIZE(iks_channel_info) };
    CHECK_CODE("channel 2", iks_toy_spec_channel(s, 0, 2, &ci), IKS_OK);
    CHECK(ci.kind && !strcmp(ci.kind, "keyboard") && !ci.source, "channel 2 is the keyboard", "keyboard (null)", "%s %s",
          ci.kind ? ci.kind : "(null)", ci.source ? ci.source : "(null)");
    CHECK_CODE("channel 1", iks_toy_spec_channel(s, 0, 1, &ci), IKS_OK);
    CHECK(!ci.kind, "channel 1 reads nothing", "(null)", "%s", ci.kind ? ci.kind : "(null)");
    CHECK_FIELD("channel 4", iks_toy_spec_channel(s, 0, 4, &ci), "channel");
    CHECK_FIELD("pass 1 of 1", iks_toy_spec_pass(s, 1, &pi), "index");
    CHECK_INT("two uniforms of its own", iks_toy_spec_uniform_count(s), 2);
    iks_declared_uniform u = { IKS_DESC_SIZE(iks_declared_uniform) };
    CHECK_CODE("uniform 0", iks_toy_spec_uniform(s, 0, &u), IKS_OK);
    CHECK(!strcmp(u.name, "r1") && u.declared && u.has_range && u.initial[0] == 0.5 && u.max == 1.0 && !strcmp(u.passes, "Image"),
          "r1: its #iUniform default and range", "r1 0.5 0..1 Image", "%s %g %g..%g %s", u.name, u.initial[0], u.min, u.max,
          u.passes);
    CHECK_CODE("uniform 1", iks_toy_spec_uniform(s, 1, &u), IKS_OK);
    CHECK(!strcmp(u.name, "off") && !u.declared && u.n == 2 && u.type == IKS_UNIFORM_FLOAT, "off: a plain vec2",
          "off vec2", "%s %s", u.name, u.glsl_type);
    CHECK_FIELD("uniform 2 of 2", iks_toy_spec_uniform(s, 2, &u), "index");
    /* an older program's struct: only its first members; the bytes after them are the caller's */
    struct {
        iks_declared_uniform u;
        unsigned char after[64];
    } older;
    memset(&older, 0xAB, sizeof older);
    older.u.struct_size = offsetof(iks_declared_uniform, glsl_type);
    CHECK_CODE("uniform 0 into a struct that ends after name", iks_toy_spec_uniform(s, 0, &older.u), IKS_OK);
    int touched = 0;
    for (size_t i = offsetof(iks_declared_uniform, glsl_type); i < sizeof older; i++)
        touched += ((unsigned char *)&older)[i] != 0xAB;
    CHECK(!strcmp(older.u.name, "r1") && touched == 0, "its name, and not a byte past its struct_size", "r1 0", "%s %d",
          older.u.name, touched);
    iks_pass_info tiny = { .struct_size = 4 };
    CHECK_FIELD("a struct_size smaller than struct_size itself", iks_toy_spec_pass(s, 0, &tiny), "struct_size");
    iks_toy_spec_free(s);
    s = NULL;
    d = (iks_toy_desc)IKS_TOY_DESC_INIT;
    d.path = "/nonexistent/toy.frag";
    CHECK_CODE("describe a file that is not there", iks_toy_describe(&d, &s), IKS_E_IO);
    CHECK(s == NULL, "no spec after a failure", "NULL", "%p", (void *)s);
    d.path = NULL, d.source = "void mainImage(", d.sets = (const char *const[]){ "iTime=1" }, d.nsets = 1;
    CHECK_FIELD("a setting of a built-in uniform, checked as iks_toy_check does", iks_toy_describe(&d, &s), "sets[0]");
    iks_toy_spec_free(NULL);
}

/* struct_size: 0 is the first sized layout, too small is refused, a newer header's larger struct is read
 * when what it adds is zero */
static void test_struct_size(iks_engine *e)
{
    iks_toy_desc d = { 0 };
    CHECK_CODE("struct_size 0", iks_toy_check(&d), IKS_OK);
    d.struct_size = sizeof d;
    CHECK_CODE("struct_size sizeof", iks_toy_check(&d), IKS_OK);
    d.struct_size = 4;
    CHECK_FIELD("struct_size 4", iks_toy_check(&d), "struct_size");
    struct { iks_toy_desc d; char more[16]; } newer = { .d = { .struct_size = sizeof newer } };
    CHECK_CODE("a newer header's struct, its new members zero", iks_toy_check(&newer.d), IKS_OK);
    newer.more[3] = 1;
    CHECK_FIELD("a newer header's struct with a new member set", iks_toy_check(&newer.d), "struct_size");
    iks_render_desc r = IKS_RENDER_DESC_INIT;
    r.output = "x.png";
    CHECK_CODE("IKS_RENDER_DESC_INIT", iks_render_check(&r), IKS_OK);
    r.struct_size = 1;
    CHECK_FIELD("iks_render_check with struct_size 1", iks_render_check(&r), "struct_size");
    iks_engine *e2 = NULL;
    CHECK_FIELD("iks_engine_create with struct_size 2",
                iks_engine_create(&(iks_engine_desc){ .struct_size = 2 }, &e2), "struct_size");
    CHECK_FIELD("iks_window_check with struct_size 3", iks_window_check(&(iks_window_desc){ .struct_size = 3 }),
                "struct_size");
    CHECK_FIELD("iks_live_check: the toy's own struct_size",
                iks_live_check(&(iks_live_desc){ IKS_DESC_SIZE(iks_live_desc), .toy = { .struct_size = 5 } }),
                "toy.struct_size");
    iks_toy *t = NULL;
    CHECK_FIELD("iks_toy_load with struct_size 7",
                iks_toy_load(e, &(iks_toy_desc){ .struct_size = 7, .source = "void mainImage(out vec4 c, in vec2 p) { c = vec4(1.0); }" }, &t),
                "struct_size");
    CHECK(t == NULL, "... and no toy", "NULL", "%p", (void *)t);
}

/* Layouts older headers wrote: a size that is no size (a header before struct_size put a pointer there)
 * is refused without reading past the struct; the sizes whose tail padding a later member took are read
 * to the older layout's end, however the padding is set; a struct the library fills for an older
 * program gets no byte past its size. Each struct here is on the heap at its exact size, so that
 * AddressSanitizer sees a byte read or written past it. */
static void test_old_layouts(iks_engine *e)
{
    iks_toy_desc *d = calloc(1, sizeof *d);
    if (!d) return;
    d->struct_size = (size_t)1 << 40;
    CHECK_FIELD("a struct_size of 2^40", iks_toy_check(d), "struct_size");
    const char *why = "";
    iks_last_error(&why);
    CHECK(why && strstr(why, "not the size of any iks_toy_desc"), "... says it is no size", "not the size of any",
          "%s", why ? why : "(null)");
    free(d);

    /* 144 bytes: 0.2.0's toy to sound_only, then padding where cube_size came later */
    unsigned char *old = malloc(144);
    iks_toy_desc full = IKS_TOY_DESC_INIT;
    full.cube_size = -1;
    CHECK_FIELD("this header's toy with cube_size -1", iks_toy_check(&full), "cube_size");
    memcpy(old, &full, 144);
    size_t n = 144;
    memcpy(old, &n, sizeof n);
    CHECK_CODE("a 144-byte toy whose padding holds cube_size -1: the padding is not read",
               iks_toy_check((const iks_toy_desc *)old), IKS_OK);
    free(old);
    /* 184 bytes: 0.2.0's render to quality, then padding where cube_strips came later */
    iks_render_desc r = IKS_RENDER_DESC_INIT;
    r.output = "x.png", r.cube_strips = 2;
    CHECK_FIELD("this header's render with cube_strips 2", iks_render_check(&r), "cube_strips");
    old = malloc(184);
    memcpy(old, &r, 184);
    n = 184;
    memcpy(old, &n, sizeof n);
    CHECK_CODE("a 184-byte render whose padding holds cube_strips 2: the padding is not read",
               iks_render_check((const iks_render_desc *)old), IKS_OK);
    free(old);

    /* the uniform list: 88 bytes (0.2.0's first layout) by the old symbol and by size */
    const char *src = "#iUniform float r = 0.25 in { 0.0, 1.0 }\n"
                      "void mainImage(out vec4 c, in vec2 p) { c = vec4(r); }\n";
    iks_toy *t = NULL;
    CHECK_CODE("load a toy with a declared uniform", load_src(e, "u.frag", src, 2, 2, &t), IKS_OK);
    if (!t) return;
    /* iks_uniform_info as 0.2.0's first header laid it out */
    typedef struct {
        const char *name, *glsl_type;
        iks_uniform_type type;
        int n;
        double value[4];
        bool active, has_range;
        double min, max, step;
    } uniform_info_0;
    _Static_assert(sizeof(uniform_info_0) == 88, "0.2.0's first iks_uniform_info is 88 bytes");
    uniform_info_0 *u88 = malloc(sizeof *u88);
    CHECK_CODE("iks_toy_uniform_get into 88 bytes", iks_toy_uniform_get(t, 0, (iks_uniform_info *)u88, 88), IKS_OK);
    CHECK(!strcmp(u88->name, "r") && u88->value[0] == 0.25 && u88->has_range && u88->max == 1.0,
          "... name, value and range", "r 0.25 1 1", "%s %g %d %g", u88->name, u88->value[0], u88->has_range, u88->max);
    memset(u88, 0, 88);
    CHECK_CODE("the exported iks_toy_uniform_info (older programs' call) into 88 bytes",
               (iks_toy_uniform_info)(t, 0, (iks_uniform_info *)u88), IKS_OK);
    CHECK(!strcmp(u88->name, "r") && u88->step == 0, "... name and step", "r 0", "%s %g", u88->name, u88->step);
    free(u88);
    iks_uniform_info u;
    CHECK_FIELD("iks_toy_uniform_get into 80 bytes", iks_toy_uniform_get(t, 0, &u, 80), "out_size");
    CHECK_FIELD("iks_toy_uniform_get of index 1", iks_toy_uniform_get(t, 1, &u, sizeof u), "index");
    memset(&u, 0, sizeof u);
    CHECK_CODE("iks_toy_uniform_info through the header's macro", iks_toy_uniform_info(t, 0, &u), IKS_OK);
    CHECK(u.declared && u.initial[0] == 0.25, "... has the later members", "1 0.25", "%d %g", u.declared, u.initial[0]);

    /* the stats of a render: stats_size bytes of them */
    char out[600];
    snprintf(out, sizeof out, "%s/stats.png", tmpdir);
    iks_render_desc rd = IKS_RENDER_DESC_INIT;
    rd.output = out, rd.width = 2, rd.height = 2, rd.stats_size = 40;
    iks_render_stats *st = malloc(sizeof *st);
    memset(st, 0x55, sizeof *st);
    CHECK_FIELD("stats_size 40", iks_render(t, &rd, st), "stats_size");
    CHECK(st->written == 0x5555555555555555L, "... and the stats untouched", "untouched", "%ld", st->written);
    rd.stats_size = 0;
    CHECK_CODE("a render with stats_size 0", iks_render(t, &rd, st), IKS_OK);
    CHECK(st->written == 1 && st->width == 2 && st->height == 2, "... fills 0.3.0's stats", "1 2x2", "%ld %dx%d",
          st->written, st->width, st->height);
    free(st);
    remove(out);
    iks_toy_destroy(t);
}

/* channels from memory: RGBA8 rows a stride apart and floats above 1, read back exactly, replaced
 * between two frames and given back; bad sizes, strides and formats refused naming the field */
static void test_memory_channels(iks_engine *e)
{
    /* each output pixel is its channel texel, halved (so a float's 1.5 shows as 0.75) */
    const char *src = "void mainImage(out vec4 c, in vec2 p) { c = texelFetch(iChannel1, ivec2(p), 0) * 0.5; }\n";
    iks_toy *t = NULL;
    CHECK_CODE("load the channel shader", load_src(e, "chan.frag", src, 2, 2, &t), IKS_OK);
    if (!t) return;
    enum { STRIDE = 2 * 4 + 8 };
    uint8_t px[STRIDE * 2];
    memset(px, 0xEE, sizeof px); /* the gaps hold what a shader must never see */
    const uint8_t top[8] = { 200, 100, 50, 254, 2, 4, 6, 8 }, bottom[8] = { 20, 40, 60, 80, 100, 120, 140, 160 };
    memcpy(px, top, 8);
    memcpy(px + STRIDE, bottom, 8);
    iks_channel_desc cd = IKS_CHANNEL_DESC_INIT;
    cd.pixels = px, cd.format = IKS_PIXELS_RGBA8, cd.width = 2, cd.height = 2, cd.stride = STRIDE;
    CHECK_CODE("iks_toy_set_channel: RGBA8, rows 16 bytes apart", iks_toy_set_channel(t, 1, &cd), IKS_OK);
    uint8_t out[16];
    CHECK_CODE("draw with it", draw_wh(t, NULL, 2, 2, out, NULL), IKS_OK);
    /* the output is top row first, as the pixels were given: each byte halved, rounded to nearest */
    int bad = 0;
    for (int i = 0; i < 8; i++) bad += abs(out[i] - top[i] / 2) > 0 || abs(out[8 + i] - bottom[i] / 2) > 0;
    CHECK(bad == 0, "the shader reads the pixels as given, top row first", "100 50 25 127 1 2 3 4 / 10 20 30 40 ...",
          "%d %d %d %d %d %d %d %d / %d %d %d %d", out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7],
          out[8], out[9], out[10], out[11]);
    /* the next frame of a camera: new values, and the caller's memory is free to change */
    float fl[2 * 2 * 4];
    for (int i = 0; i < 16; i++) fl[i] = 1.5f + (float)i;
    memset(px, 0, sizeof px);
    cd.pixels = fl, cd.format = IKS_PIXELS_RGBAF, cd.stride = 0;
    CHECK_CODE("replaced by floats", iks_toy_set_channel(t, 1, &cd), IKS_OK);
    float of[16];
    CHECK_CODE("draw with the floats", draw_wh(t, NULL, 2, 2, NULL, of), IKS_OK);
    bad = 0;
    for (int i = 0; i < 16; i++) bad += of[i] != fl[i] * 0.5f;
    CHECK(bad == 0, "the floats, above 1, read exactly (halved)", "0.75 1.25 1.75 ...", "%g %g %g %g", of[0], of[1],
          of[2], of[3]);
    CHECK_CODE("given back (d NULL)", iks_toy_set_channel(t, 1, NULL), IKS_OK);
    CHECK_CODE("draw without it", draw_wh(t, NULL, 2, 2, NULL, of), IKS_OK);
    CHECK(of[0] == 0 && of[1] == 0 && of[2] == 0, "an unset channel again: black", "0 0 0", "%g %g %g", of[0], of[1],
          of[2]);

    cd = (iks_channel_desc)IKS_CHANNEL_DESC_INIT;
    cd.pixels = px, cd.format = IKS_PIXELS_RGBA8, cd.width = 2, cd.height = 2, cd.stride = 7;
    CHECK_FIELD("a stride below a row", iks_toy_set_channel(t, 1, &cd), "stride");
    cd.stride = 10;
    CHECK_FIELD("a stride not a multiple of 4", iks_toy_set_channel(t, 1, &cd), "stride");
    cd.stride = 0, cd.width = 0;
    CHECK_FIELD("width 0", iks_toy_set_channel(t, 1, &cd), "size");
    cd.width = 2, cd.format = (iks_pixel_format)7;
    CHECK_FIELD("format 7", iks_toy_set_channel(t, 1, &cd), "format");
    cd.format = IKS_PIXELS_RGBA8, cd.pixels = NULL;
    CHECK_FIELD("neither pixels nor a texture", iks_toy_set_channel(t, 1, &cd), "pixels");
    cd.pixels = px;
    CHECK_FIELD("channel 4", iks_toy_set_channel(t, 4, &cd), "channel");
    cd.pass = IKS_PASS_B;
    CHECK_FIELD("a pass the toy lacks", iks_toy_set_channel(t, 1, &cd), "pass");
    cd.pass = IKS_PASS_IMAGE, cd.struct_size = 3;
    CHECK_FIELD("struct_size 3", iks_toy_set_channel(t, 1, &cd), "struct_size");

    /* the other calls that write the caller's memory: a length short of what they write */
    iks_toy_destroy(t);
}

/* a webcam channel fed by the host's own capture (its camera's frames as pixels, one call a frame): black
 * until fed, then the frame as given (top row first), iChannelResolution its size; given back, black again */
static void test_webcam_channel(iks_engine *e)
{
    /* the top row: the channel's texels (at their centres, so whatever its size); the bottom row: its
     * resolution, in bytes */
    const char *src = "void mainImage(out vec4 c, in vec2 p) {\n"
                      "    c = p.y > 1.0 ? texture(iChannel1, p / iResolution.xy) : vec4(iChannelResolution[1].xy / 255.0, 0.0, 1.0);\n"
                      "}\n";
    iks_toy *t = NULL;
    iks_toy_desc td = { .path = "cam.frag", .source = src, .width = 2, .height = 2 };
    td.channel[1] = "webcam";
    CHECK_CODE("load a shader whose channel 1 is a webcam", iks_toy_load(e, &td, &t), IKS_OK);
    if (!t) return;
    uint8_t out[16];
    CHECK_CODE("draw before any frame", draw_wh(t, NULL, 2, 2, out, NULL), IKS_OK);
    CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0, "the webcam is black until fed", "0 0 0", "%d %d %d", out[0], out[1],
          out[2]);
    for (int frame = 0; frame < 2; frame++) {
        uint8_t px[16];
        for (int i = 0; i < 16; i++) px[i] = (uint8_t)(10 * i + 50 * frame + 5);
        iks_channel_desc cd = IKS_CHANNEL_DESC_INIT;
        cd.pixels = px, cd.format = IKS_PIXELS_RGBA8, cd.width = 2, cd.height = 2;
        CHECK_CODE("the host's camera frame into the webcam channel", iks_toy_set_channel(t, 1, &cd), IKS_OK);
        CHECK_CODE("draw with it", draw_wh(t, NULL, 2, 2, out, NULL), IKS_OK);
        CHECK(!memcmp(out, px, 8), "the shader reads the frame's top row as given", "5 15 25 35 ...", "%d %d %d %d (frame %d)",
              out[0], out[1], out[2], out[3], frame);
        CHECK(out[8] == 2 && out[9] == 2, "... iChannelResolution its size", "2 2", "%d %d", out[8], out[9]);
    }
    CHECK_CODE("given back (d NULL)", iks_toy_set_channel(t, 1, NULL), IKS_OK);
    CHECK_CODE("draw without it", draw_wh(t, NULL, 2, 2, out, NULL), IKS_OK);
    CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0, "the webcam channel black again", "0 0 0", "%d %d %d", out[0],
          out[1], out[2]);
    iks_toy_destroy(t);
}

static void test_codes(void)
{
    for (int c = 0; c < IKS_CODE_COUNT; c++) {
        char what[64];
        snprintf(what, sizeof what, "iks_code_name(%d) is a name", c);
        const char *n = iks_code_name((iks_code)c);
        CHECK(n && strcmp(n, "?") != 0 && n[0], what, "a name, not \"?\"", "'%s'", n ? n : "(null)");
        for (int k = 0; k < c; k++)
            if (n && !strcmp(n, iks_code_name((iks_code)k))) CHECK(false, "code names differ", "distinct", "%d and %d: %s", k, c, n);
    }
    CHECK(!strcmp(iks_code_name(IKS_OK), "ok"), "iks_code_name(IKS_OK)", "ok", "%s", iks_code_name(IKS_OK));
    CHECK(!strcmp(iks_code_name(IKS_CODE_COUNT), "?"), "iks_code_name(out of range)", "?", "%s",
          iks_code_name(IKS_CODE_COUNT));
    CHECK(!strcmp(iks_code_name((iks_code)-1), "?"), "iks_code_name(-1)", "?", "%s", iks_code_name((iks_code)-1));

    char v[32];
    snprintf(v, sizeof v, "%d.%d.%d", IKSHADE_VERSION_MAJOR, IKSHADE_VERSION_MINOR, IKSHADE_VERSION_PATCH);
    CHECK(!strcmp(iks_version(), v), "iks_version() is the header's", v, "%s", iks_version());
    CHECK_INT("iks_version_number() is the header's IKS_VERSION_NUMBER", iks_version_number(), IKS_VERSION_NUMBER);
    CHECK_INT("IKS_VERSION_NUMBER from its parts", IKS_VERSION_NUMBER,
              IKS_VERSION_MAJOR * 10000 + IKS_VERSION_MINOR * 100 + IKS_VERSION_PATCH);
    int mj = -1, mn = -1, pt = -1;
    sscanf(iks_version(), "%d.%d.%d", &mj, &mn, &pt);
    CHECK_INT("iks_version_number() is iks_version()'s string as a number", iks_version_number(),
              mj * 10000 + mn * 100 + pt);

    iks_clear_error();
    const char *m = NULL;
    iks_code c = iks_last_error(&m);
    CHECK(c == IKS_OK && m && !m[0], "no error after iks_clear_error", "ok and \"\"", "%s '%s'", iks_code_name(c),
          m ? m : "(null)");
    CHECK(iks_last_error(NULL) == IKS_OK, "iks_last_error(NULL) works", "ok", "not ok");

    /* the checks that need no GL */
    CHECK_CODE("iks_check_setting(\"k=1\")", iks_check_setting("k=1"), IKS_OK);
    CHECK_CODE("iks_check_setting(\"v=1,2,3\")", iks_check_setting("v=1,2,3"), IKS_OK);
    CHECK_CODE("iks_check_setting(\"k\")", iks_check_setting("k"), IKS_E_USAGE);
    check_one_line("iks_check_setting(\"k\")");
    CHECK_CODE("iks_check_setting(\"k=abc\")", iks_check_setting("k=abc"), IKS_E_USAGE);
    CHECK_CODE("iks_check_channel(\"keyboard\")", iks_check_channel("keyboard"), IKS_OK);
    CHECK_CODE("iks_check_channel(\"black,filter=nearest\")", iks_check_channel("black,filter=nearest"), IKS_OK);
    CHECK_CODE("iks_check_channel(\"keyboard,filter=bogus\")", iks_check_channel("keyboard,filter=bogus"), IKS_E_USAGE);
    check_one_line("iks_check_channel(bad filter)");
}

/* The output formats' table through the API: every row has a kind, a name maps to its row (any case,
 * any extension of the row), and the kinds are the ones a caller tells outputs apart by */
static void test_output_formats(void)
{
    int n = 0, sounds = 0;
    for (const iks_output_info *o; (o = iks_output_format(n)); n++) {
        CHECK(o->name && o->exts && o->what && o->kind >= IKS_OUTPUT_FILES && o->kind <= IKS_OUTPUT_SOUND,
              "iks_output_format(i) is whole", "name, exts, what and a kind", "row %d: kind %d", n, (int)o->kind);
        sounds += o->kind == IKS_OUTPUT_SOUND;
        /* each of its extensions, as a name in upper case too, maps back to this row */
        char exts[64], name[80];
        snprintf(exts, sizeof exts, "%s", o->exts);
        for (char *e = strtok(exts, " "); e; e = strtok(NULL, " ")) {
            snprintf(name, sizeof name, "%s%s", e[0] == '.' ? "out/a" : "", e);
            CHECK(iks_output_format_of(name) == o, "iks_output_format_of(a name of the row) is the row", o->name, "%s: %s",
                  name, iks_output_format_of(name) ? iks_output_format_of(name)->name : "NULL");
            for (char *c = name; *c; c++) *c = (char)toupper((unsigned char)*c);
            CHECK(iks_output_format_of(name) == o, "iks_output_format_of(NAME) in upper case", o->name, "%s", name);
        }
    }
    CHECK(n >= 10 && sounds == 1, "the formats: ten or more, one of them sound", ">= 10, 1", "%d, %d", n, sounds);
    const struct { const char *name; int kind; } kinds[] = {
        { "song.wav", IKS_OUTPUT_SOUND }, { "-", IKS_OUTPUT_RAW }, { "out/%04d.png", IKS_OUTPUT_FILES },
        { "a.JPEG", IKS_OUTPUT_FILES }, { "clip.mp4", IKS_OUTPUT_VIDEO }, { "a.gif", IKS_OUTPUT_VIDEO },
        { "a.webp", IKS_OUTPUT_ANIMATION }, { "a.exr", IKS_OUTPUT_FILES },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        const iks_output_info *o = iks_output_format_of(kinds[i].name);
        CHECK(o && (int)o->kind == kinds[i].kind, "iks_output_format_of's kind", "the row's kind", "%s: %d",
              kinds[i].name, o ? (int)o->kind : -1);
    }
    /* names no row takes: NULL (a video of the caller's own ffmpeg_args is iks_render_check's to say) */
    const char *none[] = { "a.mov", "wav", "a.wav.txt", "", "--", "noext" };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        CHECK(!iks_output_format_of(none[i]), "iks_output_format_of: no format", "NULL", "'%s': %s", none[i],
              iks_output_format_of(none[i]) ? iks_output_format_of(none[i])->name : "");
    CHECK(!iks_output_format_of(NULL), "iks_output_format_of(NULL)", "NULL", "a row");
}

/* iks_shard_range: for every range and part count, the parts are contiguous, in order, cover every
 * frame exactly once (N above the frame count too: the extra parts are empty) and differ by one frame
 * at most; bad K and N are usage errors */
static void test_shards(void)
{
    int bad = 0;
    for (long first = 0; first <= 7; first += 7)
        for (long total = 0; total <= 40 && bad < 5; total++)
            for (long n = 1; n <= 50 && bad < 5; n++) {
                long next = first, lo = total, hi = 0;
                static unsigned char seen[64];
                memset(seen, 0, sizeof seen);
                for (long k = 0; k < n; k++) {
                    long a = -1, b = -1;
                    if (iks_shard_range(first, first + total, k, n, &a, &b) != IKS_OK || a != next || b < a) {
                        bad++;
                        CHECK(false, "shard parts are contiguous", "part k starts where k-1 ended", "frames %ld+%ld, %ld/%ld: "
                              "%ld:%ld after %ld", first, total, k, n, a, b, next);
                        break;
                    }
                    for (long f = a; f < b; f++) seen[f - first]++;
                    lo = b - a < lo ? b - a : lo;
                    hi = b - a > hi ? b - a : hi;
                    next = b;
                }
                bool once = next == first + total;
                for (long f = 0; f < total; f++) once &= seen[f] == 1;
                if (!once || hi - lo > 1) {
                    bad++;
                    CHECK(false, "every frame in exactly one part, sizes within one", "once each, sizes within 1",
                          "frames %ld+%ld in %ld parts: end %ld, sizes %ld..%ld", first, total, n, next, lo, hi);
                }
            }
    CHECK(bad == 0, "shard arithmetic over 2 x 41 ranges x 50 counts", "no failure", "%d failures", bad);
    long a, b;
    CHECK_CODE("a shard of 7 parts of 3 frames: empty", iks_shard_range(0, 3, 5, 7, &a, &b), IKS_OK);
    CHECK(a == b && a == 3, "part 5/7 of 0:3 is empty", "3:3", "%ld:%ld", a, b);
    CHECK_CODE("iks_shard_range(k = n)", iks_shard_range(0, 10, 4, 4, &a, &b), IKS_E_USAGE);
    check_one_line("iks_shard_range(k = n)");
    CHECK_CODE("iks_shard_range(n = 0)", iks_shard_range(0, 10, 0, 0, &a, &b), IKS_E_USAGE);
    CHECK_CODE("iks_shard_range(k < 0)", iks_shard_range(0, 10, -1, 4, &a, &b), IKS_E_USAGE);
    /* the largest ranges: no overflow in the arithmetic */
    CHECK_CODE("a shard of LONG_MAX frames", iks_shard_range(0, LONG_MAX, 2, 3, &a, &b), IKS_OK);
    CHECK(b == LONG_MAX && a == LONG_MAX - LONG_MAX / 3, "the last of 3 parts of 0:LONG_MAX ends there", "LONG_MAX",
          "%ld:%ld", a, b);
}

/* RGBA8 exact and top row first: row 0 is the highest fragCoord.y */
static void test_rgba8(iks_engine *e)
{
    enum { W = 8, H = 4 };
    const char *src = "void mainImage(out vec4 fragColor, in vec2 fragCoord) {\n"
                      "    fragColor = vec4(floor(fragCoord.x) / 255., floor(fragCoord.y) / 255., 0.25, 1.);\n"
                      "}\n";
    iks_toy *t;
    CHECK_CODE("load a shader from memory", load_src(e, "grad.frag", src, W, H, &t), IKS_OK);
    if (!t) return;
    CHECK(!strcmp(iks_toy_name(t), "grad.frag"), "iks_toy_name of source named grad.frag", "grad.frag", "%s",
          iks_toy_name(t));
    CHECK(!iks_toy_has_buffers(t), "a single file has no buffers", "false", "true");
    CHECK(!iks_toy_reads_keyboard(t), "it does not read the keyboard", "false", "true");

    uint8_t px[W * H * 4];
    memset(px, 0xAB, sizeof px);
    CHECK_CODE("iks_toy_draw rgba8", draw_wh(t, &(iks_frame_info){ 0 }, W, H, px, NULL), IKS_OK);
    int bad = 0;
    char first[160] = "";
    for (int r = 0; r < H; r++)
        for (int x = 0; x < W; x++) {
            const uint8_t *p = px + (r * W + x) * 4;
            /* x / 255 and y / 255 come back exactly; 0.25 * 255 = 63.75 is rounded by the driver */
            int want[4] = { x, H - 1 - r, 64, 255 };
            if (p[0] != want[0] || p[1] != want[1] || abs(p[2] - want[2]) > 1 || p[3] != want[3]) {
                if (!bad++)
                    snprintf(first, sizeof first, "row %d x %d: %d %d %d %d, want %d %d %d %d", r, x, p[0], p[1],
                             p[2], p[3], want[0], want[1], want[2], want[3]);
            }
        }
    CHECK(bad == 0, "RGBA8 exact, row 0 = top (highest fragCoord.y)", "every pixel (x, H-1-row, 64 +-1, 255)",
          "%d of %d pixels differ; first: %s", bad, W * H, first);

    /* another size than the load's: the toy follows */
    uint8_t big[16 * 2 * 4];
    CHECK_CODE("draw at another size (16x2)", draw_wh(t, &(iks_frame_info){ 0 }, 16, 2, big, NULL), IKS_OK);
    CHECK(big[(0 * 16 + 15) * 4] == 15 && big[(0 * 16 + 15) * 4 + 1] == 1 && big[(1 * 16 + 3) * 4 + 1] == 0,
          "16x2: top-right (15,1), bottom row y 0", "15 1 / 0", "%d %d / %d", big[(0 * 16 + 15) * 4],
          big[(0 * 16 + 15) * 4 + 1], big[(1 * 16 + 3) * 4 + 1]);
    CHECK_CODE("draw with neither output (only draws)", draw_wh(t, &(iks_frame_info){ 0 }, W, H, NULL, NULL),
               IKS_OK);
    CHECK_CODE("draw at width 0", draw_wh(t, &(iks_frame_info){ 0 }, 0, H, px, NULL), IKS_E_USAGE);
    iks_toy_destroy(t);
}

/* the float output keeps values above 1 and below 1/255; rgba8 alongside is the same picture rounded */
static void test_rgbaf(iks_engine *e)
{
    enum { W = 4, H = 2 };
    const char *src = "void mainImage(out vec4 c, in vec2 f) { c = vec4(4.0, 0.001, floor(f.x), floor(f.y)); }\n";
    iks_toy *t;
    CHECK_CODE("load the float shader", load_src(e, "float.frag", src, W, H, &t), IKS_OK);
    if (!t) return;
    float pf[W * H * 4];
    uint8_t p8[W * H * 4];
    for (int i = 0; i < W * H * 4; i++) pf[i] = -1.0f;
    CHECK_CODE("iks_toy_draw rgbaf + rgba8", draw_wh(t, &(iks_frame_info){ 0 }, W, H, p8, pf), IKS_OK);
    /* exact in float32; a half-float target would give 0.0010004 for 0.001: allow 1e-3 relative */
    int bad = 0, bad8 = 0;
    char first[200] = "", first8[200] = "";
    for (int r = 0; r < H; r++)
        for (int x = 0; x < W; x++) {
            const float *p = pf + (r * W + x) * 4;
            float want[4] = { 4.0f, 0.001f, (float)x, (float)(H - 1 - r) };
            bool ok = true;
            for (int k = 0; k < 4; k++)
                if (fabsf(p[k] - want[k]) > 1e-3f * fabsf(want[k])) ok = false;
            if (!ok && !bad++)
                snprintf(first, sizeof first, "row %d x %d: %g %g %g %g, want %g %g %g %g", r, x, p[0], p[1], p[2],
                         p[3], want[0], want[1], want[2], want[3]);
            const uint8_t *q = p8 + (r * W + x) * 4;
            int w8[4] = { 255, 0, x ? 255 : 0, (H - 1 - r) ? 255 : 0 };
            if ((q[0] != w8[0] || q[1] != w8[1] || q[2] != w8[2] || q[3] != w8[3]) && !bad8++)
                snprintf(first8, sizeof first8, "row %d x %d: %d %d %d %d, want %d %d %d %d", r, x, q[0], q[1], q[2],
                         q[3], w8[0], w8[1], w8[2], w8[3]);
        }
    CHECK(bad == 0, "rgbaf keeps 4.0 and 0.001, top row first", "(4, 0.001, x, H-1-row) within 1e-3 relative",
          "%d pixels differ; first: %s", bad, first);
    CHECK(bad8 == 0, "rgba8 beside rgbaf is the same picture rounded", "(255, 0, x?255:0, y?255:0)",
          "%d pixels differ; first: %s", bad8, first8);
    float exact = pf[1];
    CHECK(exact == 0.001f, "0.001 survives exactly (an RGBA32F target; informative)", "0.001", "%.9g", exact);
    iks_toy_destroy(t);
}

/* iTime, iFrame, iTimeDelta, iFrameRate, iMouse, iResolution, iDate through to the shader */
static void test_uniforms(iks_engine *e)
{
    enum { W = 4, H = 2 };
    const char *src =
        "void mainImage(out vec4 c, in vec2 f) {\n"
        "    if (f.x < 1.0) c = vec4(iTime * 10.0, float(iFrame), iTimeDelta * 100.0, iFrameRate) / 255.0;\n"
        "    else if (f.x < 2.0) c = vec4(iMouse) / 255.0;\n"
        "    else if (f.x < 3.0) c = vec4(iResolution.xy, iDate.w * 10.0, iMouse.w > 0.0 ? 1.0 : 0.0) / 255.0;\n"
        "    else c = vec4(iMouse.w < 0.0 ? 1.0 : 0.0, 0.0, 0.0, 1.0);\n"
        "}\n";
    iks_toy *t;
    CHECK_CODE("load the uniforms shader", load_src(e, "uni.frag", src, W, H, &t), IKS_OK);
    if (!t) return;
    uint8_t p[W * H * 4];
    iks_frame_info f = { .time = 3.0, .frame = 7, .time_delta = 0.25, .frame_rate = 40, .mouse = { 3, 2, 5, 6 } };
    CHECK_CODE("draw with frame info", draw_wh(t, &f, W, H, p, NULL), IKS_OK);
    const uint8_t *a = p + 0, *b = p + 4, *c = p + 8; /* top row; every row is the same */
    CHECK(a[0] == 30 && a[1] == 7 && a[2] == 25 && a[3] == 40, "iTime 3, iFrame 7, iTimeDelta .25, iFrameRate 40",
          "30 7 25 40", "%d %d %d %d", a[0], a[1], a[2], a[3]);
    CHECK(b[0] == 3 && b[1] == 2 && b[2] == 5 && b[3] == 6, "iMouse passes through", "3 2 5 6", "%d %d %d %d",
          b[0], b[1], b[2], b[3]);
    CHECK(c[0] == W && c[1] == H && c[2] == 30, "iResolution = the draw's size, iDate.w = iTime (fixed date)",
          "4 2 30", "%d %d %d", c[0], c[1], c[2]);
    iks_frame_info g = { .time = 0.5, .frame = 100000, .mouse = { 1, 1, 1, -1 } };
    CHECK_CODE("draw again", draw_wh(t, &g, W, H, p, NULL), IKS_OK);
    CHECK(p[0] == 5 && p[4 * 3] == 255, "iTime 0.5, iMouse.w < 0 after the click", "5, 255", "%d, %d", p[0], p[12]);
    iks_toy_destroy(t);
}

/* --set through the desc and iks_toy_set; undeclared names; a removed uniform warns through the logger */
static void test_sets(iks_engine *e, logbook *lb)
{
    const char *src = "uniform float k = 1.0;\n"
                      "uniform vec2 v = vec2(0.0);\n"
                      /* no initializer: Mesa keeps a uniform with one active even when unread */
                      "uniform float unused;\n"
                      "void mainImage(out vec4 c, in vec2 f) { c = vec4(k, v, 255.0) / 255.0; }\n";
    const char *sets[] = { "k=17", "v=3,4" };
    iks_toy *t = NULL;
    CHECK_CODE("load with sets", iks_toy_load(e, &(iks_toy_desc){ .path = "set.frag", .source = src, .sets = sets,
                                                                  .nsets = 2, .width = 2, .height = 2 }, &t),
               IKS_OK);
    if (!t) return;
    uint8_t p[2 * 2 * 4];
    CHECK_CODE("draw", draw_wh(t, &(iks_frame_info){ 0 }, 2, 2, p, NULL), IKS_OK);
    CHECK(p[0] == 17 && p[1] == 3 && p[2] == 4, "desc.sets k=17 v=3,4 applied", "17 3 4", "%d %d %d", p[0], p[1], p[2]);
    CHECK_CODE("iks_toy_set k=42", iks_toy_set(t, "k=42"), IKS_OK);
    CHECK_CODE("draw", draw_wh(t, &(iks_frame_info){ 0 }, 2, 2, p, NULL), IKS_OK);
    CHECK(p[0] == 42 && p[1] == 3, "iks_toy_set k=42 applied, v kept", "42 3", "%d %d", p[0], p[1]);
    CHECK_CODE("iks_toy_set of an undeclared name", iks_toy_set(t, "nope=1"), IKS_E_USAGE);
    check_one_line("iks_toy_set nope=1");
    CHECK_CODE("iks_toy_set with a wrong count (v=1)", iks_toy_set(t, "v=1"), IKS_E_USAGE);
    CHECK_CODE("iks_toy_set malformed (k=)", iks_toy_set(t, "k="), IKS_E_USAGE);
    CHECK_CODE("draw", draw_wh(t, &(iks_frame_info){ 0 }, 2, 2, p, NULL), IKS_OK);
    CHECK(p[0] == 42, "a refused set changes nothing", "42", "%d", p[0]);

    int before = lb->warnings;
    CHECK_CODE("iks_toy_set on a uniform the compiler removed: not an error", iks_toy_set(t, "unused=2"), IKS_OK);
    CHECK(lb->warnings == before + 1 && strstr(lb->last, "unused"), "... the logger gets a warning naming it",
          "one warning mentioning 'unused'", "%d warnings, last '%s'", lb->warnings - before, lb->last);
    CHECK(!lb->trailing_newline, "log messages hold no trailing newline", "none", "a trailing newline");
    iks_toy_destroy(t);

    t = NULL;
    const char *bad[] = { "nope=1" };
    CHECK_CODE("load with an undeclared --set", iks_toy_load(e, &(iks_toy_desc){ .path = "set.frag", .source = src,
                                                                                 .sets = bad, .nsets = 1 }, &t),
               IKS_E_USAGE);
    check_one_line("load with nope=1");
    CHECK(t == NULL, "a failed load gives no toy", "NULL", "%p", (void *)t);
    iks_toy_destroy(t);
}

/* a usage error whose message names every word in want (NULL-terminated) */
static void check_usage(const char *what, iks_code c, const char *const *want)
{
    const char *msg = "";
    iks_code got = iks_last_error(&msg);
    CHECK(c == IKS_E_USAGE && got == IKS_E_USAGE, what, "usage", "%s (last error %s: %s)", iks_code_name(c),
          iks_code_name(got), msg);
    for (; *want; want++) CHECK(strstr(msg, *want) != NULL, what, *want, "message '%s'", msg);
}

/* The typed setters and the list of a toy's own uniforms: what a program's sliders are made of. The
 * values reach the picture (a pixel's channels are the uniforms), the list says what the shader
 * declared (initialisers included, ikshade's own left out) and follows every way of setting. */
static void test_typed_uniforms(iks_engine *e, logbook *lb)
{
    const char *common = "uniform float shared_k;\n";
    const char *src = "uniform float speed = 0.5;\n"
                      "uniform vec3 tint;\n"
                      "uniform int count = 3;\n"
                      "uniform ivec2 cells;\n"
                      "uniform bool on;\n"
                      "uniform uvec2 big;\n"
                      "uniform float unread;\n"
                      "uniform float arr[2];\n"
                      "void mainImage(out vec4 c, in vec2 f) {\n"
                      "  c = vec4(speed, tint.y, float(count + cells.y) / 10.0 + float(big.x) / 100.0,\n"
                      "           on ? 1.0 : 0.5) + vec4(1e-6 * (arr[1] + shared_k));\n"
                      "}\n";
    char *text = malloc(strlen(common) + strlen(src) + 1);
    strcpy(text, common);
    strcat(text, src);
    iks_toy *t = NULL;
    int warnings = lb->warnings;
    CHECK_CODE("load the typed uniforms' shader", load_src(e, "typed.frag", text, 2, 2, &t), IKS_OK);
    free(text);
    if (!t) return;
    static const struct { const char *name, *glsl; iks_uniform_type type; int n; double v0; bool active; } W[] = {
        { "shared_k", "float", IKS_UNIFORM_FLOAT, 1, 0, true }, { "speed", "float", IKS_UNIFORM_FLOAT, 1, 0.5, true },
        { "tint", "vec3", IKS_UNIFORM_FLOAT, 3, 0, true },       { "count", "int", IKS_UNIFORM_INT, 1, 3, true },
        { "cells", "ivec2", IKS_UNIFORM_INT, 2, 0, true },       { "on", "bool", IKS_UNIFORM_BOOL, 1, 0, true },
        { "big", "uvec2", IKS_UNIFORM_UINT, 2, 0, true },        { "unread", "float", IKS_UNIFORM_FLOAT, 1, 0, false },
    };
    int nw = (int)(sizeof W / sizeof W[0]);
    CHECK_INT("the toy's own uniforms (no iTime, no array)", iks_toy_uniform_count(t), nw);
    for (int i = 0; i < nw && i < iks_toy_uniform_count(t); i++) {
        iks_uniform_info u;
        CHECK_CODE("iks_toy_uniform_info", iks_toy_uniform_info(t, i, &u), IKS_OK);
        CHECK(strcmp(u.name, W[i].name) == 0 && strcmp(u.glsl_type, W[i].glsl) == 0 && u.type == W[i].type &&
                  u.n == W[i].n && u.value[0] == W[i].v0 && u.active == W[i].active && !u.has_range,
              "a uniform's name, type, count, first value, active, no range", W[i].name,
              "%s %s type %d n %d value %g active %d range %d", u.name, u.glsl_type, (int)u.type, u.n, u.value[0],
              u.active, u.has_range);
    }
    iks_uniform_info u;
    CHECK_CODE("iks_toy_uniform_info past the last", iks_toy_uniform_info(t, nw, &u), IKS_E_USAGE);
    CHECK_CODE("iks_toy_uniform_info at -1", iks_toy_uniform_info(t, -1, &u), IKS_E_USAGE);

    /* each setter, then the picture: (speed, tint.y, (count + cells.y) / 10 + big.x / 100, on) */
    CHECK_CODE("iks_toy_set_float speed", iks_toy_set_float(t, "speed", (const float[]){ 0.25f }, 1), IKS_OK);
    CHECK_CODE("iks_toy_set_float tint", iks_toy_set_float(t, "tint", (const float[]){ 0, 0.75f, 0 }, 3), IKS_OK);
    /* NaN and Inf: refused as the text form refuses them, naming the values, and the uniform keeps its value */
    CHECK_FIELD("iks_toy_set_float speed NaN", iks_toy_set_float(t, "speed", (const float[]){ NAN }, 1), "v");
    CHECK_FIELD("iks_toy_set_float tint with Inf", iks_toy_set_float(t, "tint", (const float[]){ 0, INFINITY, 0 }, 3), "v");
    {
        iks_uniform_info ui;
        bool found = false;
        for (int i = 0; i < iks_toy_uniform_count(t); i++)
            if (iks_toy_uniform_info(t, i, &ui) == IKS_OK && !strcmp(ui.name, "speed")) found = ui.value[0] == 0.25;
        CHECK(found, "speed is still 0.25 after a refused NaN", "0.25", "%s", found ? "0.25" : "changed");
    }
    CHECK_CODE("iks_toy_set_int cells", iks_toy_set_int(t, "cells", (const int[]){ 9, 2 }, 2), IKS_OK);
    CHECK_CODE("iks_toy_set_uint big", iks_toy_set_uint(t, "big", (const unsigned[]){ 10, 7 }, 2), IKS_OK);
    CHECK_CODE("iks_toy_set_bool on", iks_toy_set_bool(t, "on", (const bool[]){ true }, 1), IKS_OK);
    uint8_t px[2 * 2 * 4];
    CHECK_CODE("draw with the typed uniforms", draw_wh(t, NULL, 2, 2, px, NULL), IKS_OK);
    /* 0.25 -> 63.75, 0.75 -> 191.25, 0.5 + 0.1 = 0.6 -> 153, 1 -> 255: GL rounds to nearest (1 of slack) */
    CHECK(abs(px[0] - 64) <= 1 && abs(px[1] - 191) <= 1 && abs(px[2] - 153) <= 1 && px[3] == 255,
          "the pixel the typed values make", "64 191 153 255", "%d %d %d %d", px[0], px[1], px[2], px[3]);
    iks_toy_uniform_info(t, 4, &u);
    CHECK(u.value[0] == 9 && u.value[1] == 2, "cells' value as set", "9 2", "%g %g", u.value[0], u.value[1]);
    iks_toy_uniform_info(t, 5, &u);
    CHECK(u.value[0] == 1, "on's value as set", "1", "%g", u.value[0]);
    /* the string setter is seen by the list too */
    CHECK_CODE("iks_toy_set speed=0.125", iks_toy_set(t, "speed=0.125"), IKS_OK);
    iks_toy_uniform_info(t, 1, &u);
    CHECK(u.value[0] == 0.125, "speed after iks_toy_set", "0.125", "%g", u.value[0]);
    CHECK_CODE("iks_toy_set_float on an unread uniform (a warning, not an error)",
               iks_toy_set_float(t, "unread", (const float[]){ 1 }, 1), IKS_OK);
    CHECK(lb->warnings > warnings, "setting a removed uniform warns", "a warning", "%d", lb->warnings - warnings);

    /* refusals name the uniform, and what to do instead; nothing is set */
    check_usage("iks_toy_set_int on a float", iks_toy_set_int(t, "speed", (const int[]){ 1 }, 1),
                (const char *const[]){ "speed", "float", "iks_toy_set_float", NULL });
    check_usage("iks_toy_set_float on a bool", iks_toy_set_float(t, "on", (const float[]){ 1 }, 1),
                (const char *const[]){ "'on'", "iks_toy_set_bool", NULL });
    check_usage("iks_toy_set_float with 2 values for a vec3", iks_toy_set_float(t, "tint", (const float[]){ 1, 1 }, 2),
                (const char *const[]){ "tint", "vec3", "expected 3 values, got 2", NULL });
    check_usage("iks_toy_set_float with 5 values", iks_toy_set_float(t, "tint", (const float[]){ 1, 1, 1, 1, 1 }, 5),
                (const char *const[]){ "tint", "got 5", NULL });
    check_usage("iks_toy_set_float on an undeclared name", iks_toy_set_float(t, "nope", (const float[]){ 1 }, 1),
                (const char *const[]){ "'nope'", "declares no such uniform", "speed", NULL });
    check_usage("iks_toy_set_float on iTime", iks_toy_set_float(t, "iTime", (const float[]){ 1 }, 1),
                (const char *const[]){ "'iTime'", "set by ikshade", NULL });
    check_usage("iks_toy_set_float on an array", iks_toy_set_float(t, "arr", (const float[]){ 1 }, 1),
                (const char *const[]){ "'arr'", NULL });
    check_usage("iks_toy_set_int with NULL values", iks_toy_set_int(t, "count", NULL, 1),
                (const char *const[]){ "iks_toy_set_int", NULL });
    iks_toy_uniform_info(t, 2, &u);
    CHECK(u.value[1] == 0.75, "a refused set changed nothing", "0.75", "%g", u.value[1]);
    CHECK_CODE("draw after the refusals", draw_wh(t, NULL, 2, 2, px, NULL), IKS_OK);
    CHECK(abs(px[1] - 191) <= 1, "the picture after the refusals", "191", "%d", px[1]);
    CHECK_INT("no uniforms of a NULL toy", iks_toy_uniform_count(NULL), 0);
    iks_toy_destroy(t);
}

static void test_errors(iks_engine *e)
{
    iks_toy *t = NULL;
    /* a compile error: the driver's log mapped to our file and line */
    const char *broken = "void mainImage(out vec4 c, in vec2 f) {\n"
                         "    c = vec4(no_such_thing, 0.0, 0.0, 1.0);\n"
                         "}\n";
    CHECK_CODE("a compile error", load_src(e, "broken.frag", broken, 4, 4, &t), IKS_E_COMPILE);
    const char *m = NULL;
    iks_last_error(&m);
    m = m ? m : "";
    /* every line `broken.frag:LINE:COL: error: ...` (or `warning:`); the first an error on line 2. The
     * column is there only where the driver gives one (Mesa does, NVIDIA does not): `broken.frag:LINE:` */
    bool form = m[0] != '\0', line2 = strncmp(m, "broken.frag:2:", 14) == 0;
    int nlines = 0;
    for (const char *s = m; *s;) {
        const char *end = strchr(s, '\n');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        char l[512];
        snprintf(l, sizeof l, "%.*s", (int)(n < 511 ? n : 511), s);
        int ln = 0, col = 0, used = 0;
        if (sscanf(l, "broken.frag:%d:%d: %n", &ln, &col, &used) != 2 || used == 0) {
            used = 0;
            if (sscanf(l, "broken.frag:%d: %n", &ln, &used) != 1 || used == 0) form = false;
        }
        if (used && strncmp(l + used, "error: ", 7) && strncmp(l + used, "warning: ", 9)) form = false;
        nlines++;
        s += n;
        if (*s) s++;
    }
    CHECK(form && line2, "compile error message: `broken.frag:LINE[:COL]: error: ...` lines, first on line 2",
          "broken.frag:2[:COL]: error: ...", "'%s' (%d lines)", m, nlines);
    CHECK(m[0] && m[strlen(m) - 1] != '\n', "... with no newline after the last line, as every other message",
          "no trailing newline", "'%s'", m);
    CHECK(t == NULL, "a failed load gives no toy", "NULL", "%p", (void *)t);

    /* a compile error from source without a path still names something */
    CHECK_CODE("a compile error, source without a path", load_src(e, NULL, broken, 4, 4, &t), IKS_E_COMPILE);
    iks_last_error(&m);
    CHECK(m && m[0] && strstr(m, ":2:") && strstr(m, "error:"), "... the message has line 2 and 'error:'",
          "NAME:2[:COL]: error: ...", "'%s'", m ? m : "(null)");

    /* a file with no mainImage (an include file) */
    write_file(tmp_path("lib.glsl"), "float twice(float x) { return 2.0 * x; }\n");
    t = NULL;
    CHECK_CODE("a file with no mainImage", iks_toy_load(e, &(iks_toy_desc){ .path = tmp_path("lib.glsl") }, &t),
               IKS_E_NOT_SHADER);
    check_one_line("not a shader");

    /* a missing file */
    CHECK_CODE("a missing file", iks_toy_load(e, &(iks_toy_desc){ .path = tmp_path("missing.frag") }, &t), IKS_E_IO);
    check_one_line("missing file");
    iks_last_error(&m);
    CHECK(m && strstr(m, "missing.frag"), "... the message names the file", "contains missing.frag", "'%s'",
          m ? m : "(null)");

    /* a missing #include */
    CHECK_CODE("a missing #include", load_src(e, "inc.frag", "#include \"nowhere.glsl\"\n"
                                                             "void mainImage(out vec4 c, in vec2 f) { c = vec4(1); }\n",
                                              4, 4, &t),
               IKS_E_FORMAT);
    check_one_line("missing include");

    /* a bad channel spec */
    const char *good = "void mainImage(out vec4 c, in vec2 f) { c = texture(iChannel0, f); }\n";
    CHECK_CODE("a bad channel spec", iks_toy_load(e, &(iks_toy_desc){ .path = "ch.frag", .source = good,
                                                                      .channel = { "keyboard,filter=bogus" } }, &t),
               IKS_E_USAGE);
    check_one_line("bad channel");
    CHECK_CODE("a channel naming a buffer a single file lacks",
               iks_toy_load(e, &(iks_toy_desc){ .path = "ch.frag", .source = good, .channel = { "a" } }, &t),
               IKS_E_USAGE);

    /* a bad JSON */
    write_file(tmp_path("bad.json"), "{ \"Shader\": { \"renderpass\": [ ");
    CHECK_CODE("a malformed JSON", iks_toy_load(e, &(iks_toy_desc){ .path = tmp_path("bad.json") }, &t),
               IKS_E_FORMAT);
    check_one_line("bad json");

    /* a description's fields a program can get wrong: refused in one line, never a crash or a guess */
    static const char ok_src[] = "void mainImage(out vec4 c, in vec2 f) { c = vec4(1); }\n";
    const char *null_set[] = { "a=1", NULL };
    const char *null_dir[] = { NULL };
    const struct { const char *what; iks_toy_desc d; } B[] = {
        { "a NULL entry in sets[]", { .source = ok_src, .sets = null_set, .nsets = 2 } },
        { "nsets -1", { .source = ok_src, .sets = null_set, .nsets = -1 } },
        { "a NULL entry in include_dirs[]", { .source = ok_src, .include_dirs = null_dir, .n_include_dirs = 1 } },
        { "n_include_dirs with include_dirs NULL", { .source = ok_src, .n_include_dirs = 2 } },
        { "glsl 7", { .source = ok_src, .glsl = (iks_glsl)7 } },
        { "override_path alone", { .source = ok_src, .override_path = "x.glsl" } },
        { "a negative size", { .source = ok_src, .width = -4, .height = 4 } },
        { "a size past 65536", { .source = ok_src, .width = 100000, .height = 4 } },
    };
    for (size_t i = 0; i < sizeof B / sizeof B[0]; i++) {
        t = NULL;
        CHECK_CODE(B[i].what, iks_toy_load(e, &B[i].d, &t), IKS_E_USAGE);
        check_one_line(B[i].what);
        CHECK(t == NULL, B[i].what, "no toy", "%p", (void *)t);
    }
    iks_toy_destroy(t);

    /* the render description's edges: a first frame with no frame after it; the stored PNG level is -1,
     * nothing below; a descriptor that is not open */
    CHECK_CODE("iks_render_check: first frame LONG_MAX", iks_render_check(&(iks_render_desc){ .output = "x.png", .first = LONG_MAX }),
               IKS_E_USAGE);
    check_one_line("first LONG_MAX");
    CHECK_CODE("iks_render_check: png_level -1 (stored)", iks_render_check(&(iks_render_desc){ .output = "x.png", .png_level = -1 }),
               IKS_OK);
    CHECK_CODE("iks_render_check: png_level -5", iks_render_check(&(iks_render_desc){ .output = "x.png", .png_level = -5 }),
               IKS_E_USAGE);
    iks_frame_info fi = { .time = 7 };
    iks_render_frame_info(NULL, 3, &fi); /* the defaults: 60 fps */
    CHECK(fi.frame == 3 && fi.time > 0.049 && fi.time < 0.051, "iks_render_frame_info(NULL, 3): the defaults", "frame 3 at 0.05 s",
          "frame %ld at %g s", (long)fi.frame, fi.time);
    iks_render_frame_info(NULL, 3, NULL); /* nothing to fill: no crash */
    if (load_src(e, "raw.frag", ok_src, 4, 4, &t) == IKS_OK) {
        CHECK_CODE("iks_render to a raw_fd that is not open",
                   iks_render(t, &(iks_render_desc){ .output = "-", .raw_fd = 987, .width = 4, .height = 4 }, NULL), IKS_E_USAGE);
        const char *rm = NULL;
        iks_last_error(&rm);
        CHECK(rm && strstr(rm, "raw_fd 987"), "... named as raw_fd 987", "raw_fd 987: ...", "'%s'", rm ? rm : "(null)");
        CHECK_CODE("iks_toy_sound with a negative count", iks_toy_sound(t, 0, -4, NULL, 0), IKS_E_USAGE);
        iks_toy_destroy(t);
        t = NULL;
    }
    iks_window nogl = { .name = "my window" };
    iks_engine *e3 = NULL;
    CHECK_CODE("an engine on a window with no get_proc_address", iks_engine_create(&(iks_engine_desc){ .window = &nogl }, &e3),
               IKS_E_USAGE);
    check_one_line("window without get_proc_address");
    iks_engine_destroy(e3);
}

typedef struct {
    int calls;
    long max_done, total;
    int stop_after; /* return false from this call on; 0: never */
    bool monotone;
    long last_done;
} progress_log;

static bool on_progress(void *user, const iks_progress *p)
{
    progress_log *l = user;
    l->calls++;
    if (p->done > l->max_done) l->max_done = p->done;
    if (p->done < l->last_done || p->done > p->total) l->monotone = false;
    l->last_done = p->done;
    l->total = p->total;
    return !(l->stop_after && l->calls >= l->stop_after);
}

/* ---- Cube A in steps ---- */

/* what a render's progress calls said within frames */
typedef struct {
    int calls, steps;      /* calls, and those within a frame */
    int last_part, parts;  /* the last step seen, and its frame's count */
    bool in_order;         /* each step one after the one before (1 after parts: the next frame) */
    bool between_ok;       /* every call between frames says 0/0 and frame -1 */
    long frames_seen[4];   /* the frames the steps named, in the order they began */
    int nframes;
    int stop_at;           /* return false at this step of frame stop_frame or later; 0: never */
    long stop_frame;
    int interrupt_at;      /* call iks_interrupt() at this step (the signal path); 0: never */
} step_log;

static bool on_step_progress(void *user, const iks_progress *p)
{
    step_log *l = user;
    l->calls++;
    if (p->parts == 0) {
        if (p->part != 0 || p->frame != -1) l->between_ok = false;
        return true;
    }
    l->steps++;
    int want = l->last_part == l->parts ? 1 : l->last_part + 1;
    if (p->part != want || (l->parts && p->parts != l->parts) || p->part > p->parts) l->in_order = false;
    if (p->part == 1 && l->nframes < 4) l->frames_seen[l->nframes++] = p->frame;
    l->last_part = p->part;
    l->parts = p->parts;
    if (l->interrupt_at && p->part == l->interrupt_at) iks_interrupt();
    return !(l->stop_at && p->part == l->stop_at && p->frame >= l->stop_frame);
}

/* A toy whose Cube A and Image depend on every pixel's position, its derivatives (2x2 quads, which a
 * scissored strip must not change) and Cube A's previous frame; Image looks in every direction. */
static const char *CUBE_JSON =
    "{\"Shader\":{\"info\":{\"name\":\"steps\"},\"renderpass\":["
    "{\"type\":\"cubemap\",\"name\":\"Cube A\",\"inputs\":[{\"id\":\"4dX3Rr\",\"type\":\"cubemap\",\"channel\":0,"
    "\"sampler\":{\"filter\":\"nearest\",\"wrap\":\"clamp\"}}],\"outputs\":[{\"id\":\"4dX3Rr\",\"channel\":0}],"
    "\"code\":\"void mainCubemap(out vec4 c, in vec2 f, in vec3 ro, in vec3 rd) {"
    " float h = fract(sin(dot(f, vec2(12.9898, 78.233))) * 43758.5453);"
    " c = vec4(h, fract(dFdx(rd.x) * 4000.0 + dFdy(rd.y) * 3000.0), fract(fwidth(f.y * rd.z) * 0.37), 1.0)"
    " + 0.5 * texture(iChannel0, rd.yzx) * float(iFrame); }\"},"
    "{\"type\":\"image\",\"name\":\"Image\",\"inputs\":[{\"id\":\"4dX3Rr\",\"type\":\"cubemap\",\"channel\":0,"
    "\"sampler\":{\"filter\":\"nearest\",\"wrap\":\"clamp\"}}],\"outputs\":[],"
    "\"code\":\"void mainImage(out vec4 c, in vec2 f) { vec2 a = (f / iResolution.xy) * vec2(6.2831853, 3.1415926);"
    " vec3 d = vec3(sin(a.y) * cos(a.x), cos(a.y), sin(a.y) * sin(a.x));"
    " c = vec4(fract(texture(iChannel0, d).rgb * 7.0), 1.0); }\"}"
    "]}}";

static iks_toy *load_cube(iks_engine *e, int side, int w, int h)
{
    iks_toy_desc d = IKS_TOY_DESC_INIT;
    d.json = CUBE_JSON, d.width = w, d.height = h, d.cube_size = side;
    iks_toy *t = NULL;
    CHECK_CODE("load a Cube A toy from JSON", iks_toy_load(e, &d, &t), IKS_OK);
    return t;
}

static void test_cube_steps(iks_engine *e)
{
    enum { W = 96, H = 48, FR = 2 };
    /* faces of 64: one strip a face, six steps a frame */
    iks_toy *t = load_cube(e, 64, W, H);
    if (!t) return;
    char out[600];
    snprintf(out, sizeof out, "%s/cube_steps.png", tmpdir);
    step_log l = { .in_order = true, .between_ok = true };
    CHECK_CODE("render a Cube A toy", iks_render(t, &(iks_render_desc){ .output = out, .width = W, .height = H,
                                                                       .progress = on_step_progress, .user = &l },
                                                 NULL),
               IKS_OK);
    CHECK(l.steps == 6 && l.parts == 6 && l.in_order && l.nframes == 1 && l.frames_seen[0] == 0,
          "progress within Cube A's frame: parts 1..6 of 6, frame 0", "6 steps 1..6 of 6 in order, frame 0",
          "%d steps, last %d of %d, %s, frame %ld", l.steps, l.last_part, l.parts, l.in_order ? "in order" : "not in order",
          l.nframes ? l.frames_seen[0] : -2);
    CHECK(l.between_ok && l.calls > l.steps, "the calls between frames say part 0 of 0, frame -1", "0/0, -1",
          "not (%d calls)", l.calls);
    iks_toy_destroy(t);

    /* a toy without Cube A: no steps */
    CHECK_CODE("load a toy without Cube A", load_src(e, "plain.frag", "void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }",
                                                     8, 8, &t),
               IKS_OK);
    step_log pl = { .in_order = true, .between_ok = true };
    CHECK_CODE("render it", iks_render(t, &(iks_render_desc){ .output = out, .width = 8, .height = 8, .progress = on_step_progress,
                                                              .user = &pl },
                                       NULL),
               IKS_OK);
    CHECK(pl.steps == 0 && pl.calls > 0 && pl.between_ok, "without Cube A every call says 0/0", "0 steps",
          "%d steps of %d calls", pl.steps, pl.calls);
    iks_toy_destroy(t);

    /* faces of 512: two strips a face (12 steps); the frames equal iks_toy_draw's, whose faces are one draw each */
    t = load_cube(e, 512, W, H);
    if (!t) return;
    snprintf(out, sizeof out, "%s/cube_steps.raw", tmpdir);
    FILE *raw = fopen(out, "w+b");
    if (!raw) return;
    step_log sl = { .in_order = true, .between_ok = true };
    iks_render_desc rd = { IKS_DESC_SIZE(iks_render_desc), .output = "-", .raw_fd = fileno(raw), .width = W, .height = H, .end = FR,
                           .progress = on_step_progress, .user = &sl, .cube_strips = 1 };
    CHECK_CODE("reset", iks_toy_reset(t), IKS_OK);
    CHECK_CODE("render 2 frames in steps, raw", iks_render(t, &rd, NULL), IKS_OK);
    CHECK(sl.steps == 2 * 12 && sl.parts == 12 && sl.in_order && sl.nframes == 2 && sl.frames_seen[1] == 1,
          "faces of 512: 12 steps a frame (2 strips a face), in order, frames 0 and 1", "24 steps of 12, frames 0 1",
          "%d steps of %d, %s, %d frames", sl.steps, sl.parts, sl.in_order ? "in order" : "not in order", sl.nframes);
    static uint8_t stepped[FR][W * H * 4], whole[FR][W * H * 4];
    rewind(raw);
    size_t got = fread(stepped, 1, sizeof stepped, raw);
    fclose(raw);
    CHECK(got == sizeof stepped, "the raw output holds both frames", "all bytes", "%zu of %zu", got, sizeof stepped);
    CHECK_CODE("reset", iks_toy_reset(t), IKS_OK);
    for (int i = 0; i < FR; i++) {
        iks_frame_info fi;
        iks_render_frame_info(&rd, i, &fi);
        CHECK_CODE("iks_toy_draw the same frame", draw_wh(t, &fi, W, H, whole[i], NULL), IKS_OK);
    }
    int differ = 0, first = -1;
    for (size_t i = 0; i < sizeof stepped; i++)
        if (((uint8_t *)stepped)[i] != ((uint8_t *)whole)[i] && !differ++) first = (int)i;
    CHECK(differ == 0, "Cube A in strips gives the one-draw picture byte for byte (two frames, feedback)",
          "identical", "%d bytes differ, the first at %d", differ, first);
    /* ... and the picture is not trivially the same everywhere, so the comparison could fail */
    int distinct = 0;
    for (int i = 4; i < W * H * 4; i += 4) distinct += memcmp(whole[1] + i, whole[1] + i - 4, 3) != 0;
    CHECK(distinct > W * H / 2, "the compared picture varies from pixel to pixel", "> half", "%d", distinct);

    /* a stop at step 5 of frame 0: INTERRUPTED at once, no file */
    snprintf(out, sizeof out, "%s/cube_stop/%%02d.png", tmpdir);
    step_log stop = { .in_order = true, .between_ok = true, .stop_at = 5 };
    iks_render_stats st;
    CHECK_CODE("a progress call returning false within Cube A stops the render",
               iks_render(t, &(iks_render_desc){ IKS_DESC_SIZE(iks_render_desc), .output = out, .width = W, .height = H,
                                                  .end = 3, .progress = on_step_progress, .user = &stop, .cube_strips = 1 },
                          &st),
               IKS_E_INTERRUPTED);
    CHECK(stop.steps == 5 && stop.last_part == 5 && st.written == 0, "... at that step, nothing written",
          "5 steps, 0 written", "%d steps (last %d), %ld written", stop.steps, stop.last_part, st.written);
    snprintf(out, sizeof out, "%s/cube_stop", tmpdir);
    int files, temps;
    char names[1024];
    count_files(out, &files, &temps, names, sizeof names);
    CHECK(files == 0 && temps == 0, "no output file after a stop within the first frame", "none", "%s", names);

    /* the same after frame 0 is written: a stop within frame 1 keeps frame 0, whole */
    snprintf(out, sizeof out, "%s/cube_stop1/%%02d.png", tmpdir);
    step_log stop1 = { .in_order = true, .between_ok = true, .stop_at = 3, .stop_frame = 1 };
    CHECK_CODE("a stop within frame 1 of 3",
               iks_render(t, &(iks_render_desc){ IKS_DESC_SIZE(iks_render_desc), .output = out, .width = W, .height = H,
                                                  .end = 3, .progress = on_step_progress, .user = &stop1, .cube_strips = 1 },
                          &st),
               IKS_E_INTERRUPTED);
    CHECK(stop1.steps == 12 + 3 && st.written == 1, "... keeps frame 0, drawn before it", "15 steps, 1 written",
          "%d steps, %ld written", stop1.steps, st.written);
    snprintf(out, sizeof out, "%s/cube_stop1", tmpdir);
    count_files(out, &files, &temps, names, sizeof names);
    snprintf(out, sizeof out, "%s/cube_stop1/00.png", tmpdir);
    char why[600] = "";
    CHECK(files == 1 && temps == 0 && png_ok(out, W, H, why, sizeof why), "... as its one file, a whole PNG",
          "00.png, complete", "%s %s", names, why);

    /* iks_interrupt (a signal handler's call) between steps: no step after it */
    snprintf(out, sizeof out, "%s/cube_int.png", tmpdir);
    step_log in = { .in_order = true, .between_ok = true, .interrupt_at = 2 };
    CHECK_CODE("iks_interrupt within Cube A stops the render",
               iks_render(t, &(iks_render_desc){ IKS_DESC_SIZE(iks_render_desc), .output = out, .width = W, .height = H,
                                                  .progress = on_step_progress, .user = &in, .cube_strips = 1 },
                          NULL),
               IKS_E_INTERRUPTED);
    iks_interrupt_reset();
    CHECK(in.steps == 2 && access(out, F_OK) != 0, "... at the next step, with no file", "2 steps, no file",
          "%d steps, %s", in.steps, access(out, F_OK) == 0 ? "a file" : "no file");

    /* -1: never in strips, no calls within a frame; 2 is no choice */
    snprintf(out, sizeof out, "%s/cube_never_%%d.png", tmpdir);
    step_log never = { .in_order = true, .between_ok = true };
    CHECK_CODE("cube_strips -1", iks_render(t, &(iks_render_desc){ IKS_DESC_SIZE(iks_render_desc), .output = out, .width = W,
                                                                   .height = H, .end = 2, .progress = on_step_progress,
                                                                   .user = &never, .cube_strips = -1 },
                                            NULL),
               IKS_OK);
    CHECK(never.steps == 0 && never.calls > 0, "cube_strips -1: no calls within frames", "0 steps", "%d steps",
          never.steps);
    CHECK_CODE("cube_strips 2", iks_render(t, &(iks_render_desc){ IKS_DESC_SIZE(iks_render_desc), .output = out, .width = W,
                                                                  .height = H, .cube_strips = 2 },
                                           NULL),
               IKS_E_USAGE);
    CHECK(!strcmp(iks_last_error_field(NULL), "cube_strips"), "... refused naming the field", "cube_strips", "'%s'",
          iks_last_error_field(NULL));
    iks_toy_destroy(t);

    /* 0, the default: a toy's first frame in strips, its cost unknown; later frames as the last one took
     * (this cheap Cube A of 512 is far under the second that calls for strips on llvmpipe and on GPUs, but
     * the test only holds what timing cannot change) */
    t = load_cube(e, 512, W, H);
    if (!t) return;
    snprintf(out, sizeof out, "%s/cube_auto_%%d.png", tmpdir);
    step_log au = { .in_order = true, .between_ok = true };
    CHECK_CODE("cube_strips 0 over 3 frames", iks_render(t, &(iks_render_desc){ .output = out, .width = W, .height = H,
                                                                               .end = 3, .progress = on_step_progress,
                                                                               .user = &au },
                                                         NULL),
               IKS_OK);
    CHECK(au.nframes >= 1 && au.frames_seen[0] == 0 && au.steps % 12 == 0 && au.steps >= 12 && au.in_order,
          "cube_strips 0: frame 0 in 12 strips, later ones whole or in 12", "frame 0 first, a multiple of 12",
          "%d frames, first %ld, %d steps", au.nframes, au.nframes ? au.frames_seen[0] : -2, au.steps);
    iks_toy_destroy(t);
}

static void test_render(iks_engine *e)
{
    iks_toy *t;
    const char *src = "void mainImage(out vec4 c, in vec2 f) {\n"
                      "    c = vec4(floor(f.x) / 255.0, floor(f.y) / 255.0, float(iFrame) / 255.0, 1.0);\n"
                      "}\n";
    CHECK_CODE("load for render", load_src(e, "r.frag", src, 16, 8, &t), IKS_OK);
    if (!t) return;

    char dir[512], pattern[600], why[600];
    snprintf(dir, sizeof dir, "%s/frames", tmpdir);
    snprintf(pattern, sizeof pattern, "%s/%%02d.png", dir);
    progress_log pl = { .monotone = true };
    iks_render_stats st = { -1, -1, -1, -1, -1, true, -1, -1, -1, -1, -1, -1, -1, true, true };
    iks_render_desc d = { .output = pattern, .width = 16, .height = 8, .end = 3, .progress = on_progress,
                          .user = &pl };
    CHECK_CODE("iks_render_check of a good render", iks_render_check(&d), IKS_OK);
    CHECK_CODE("iks_render 3 frames to a PNG pattern", iks_render(t, &d, &st), IKS_OK);
    CHECK(st.written == 3 && st.total == 3, "stats: 3 of 3 written", "3 / 3", "%ld / %ld", st.written, st.total);
    CHECK(pl.calls >= 1 && pl.max_done == 3 && pl.total == 3, "the progress callback is called, done reaches 3",
          "calls >= 1, done 3 of 3", "%d calls, done %ld of %ld", pl.calls, pl.max_done, pl.total);
    CHECK(pl.monotone, "progress: done never goes back nor past total", "monotone", "not");
    for (int i = 0; i < 3; i++) {
        char f[600];
        snprintf(f, sizeof f, "%s/%02d.png", dir, i);
        bool ok = png_ok(f, 16, 8, why, sizeof why);
        CHECK(ok, "frame file is a complete 16x8 PNG", "signature, IHDR 16x8, IEND", "%s", why);
        /* its pixels: R = x, G = fragCoord.y (row 0 the top), B = iFrame; RGB by default */
        int w, h, ch;
        unsigned char *px = NULL;
        ok = ok && png_read(f, &w, &h, &ch, &px, why, sizeof why);
        CHECK(ok && ch == 3, "frame file decodes as RGB", "RGB", "%s", ok ? "RGBA" : why);
        int bad = 0;
        char first[160] = "";
        for (int r = 0; ok && ch == 3 && r < 8; r++)
            for (int x = 0; x < 16; x++) {
                const unsigned char *p = px + (r * 16 + x) * 3;
                if ((p[0] != x || p[1] != 7 - r || p[2] != i) && !bad++)
                    snprintf(first, sizeof first, "row %d x %d: %d %d %d, want %d %d %d", r, x, p[0], p[1], p[2], x,
                             7 - r, i);
            }
        CHECK(ok && bad == 0, "frame file's pixels: (x, 7-row, iFrame), top row first", "exact",
              "%d pixels differ; first: %s", bad, first);
        free(px);
    }
    int files, temps;
    char names[1024];
    count_files(dir, &files, &temps, names, sizeof names);
    CHECK(files == 3 && temps == 0, "exactly the 3 frames in the directory", "00.png 01.png 02.png", "%s", names);

    /* a still: one file, no pattern */
    snprintf(pattern, sizeof pattern, "%s/still.png", tmpdir);
    CHECK_CODE("iks_render one still", iks_render(t, &(iks_render_desc){ .output = pattern, .width = 20, .height = 10 },
                                                  NULL),
               IKS_OK);
    CHECK(png_ok(pattern, 20, 10, why, sizeof why), "the still is a 20x10 PNG", "ok", "%s", why);

    /* stopped by the callback after the first frame: INTERRUPTED, complete files only */
    snprintf(dir, sizeof dir, "%s/stopped", tmpdir);
    snprintf(pattern, sizeof pattern, "%s/%%03d.png", dir);
    progress_log stop = { .stop_after = 1, .monotone = true };
    iks_render_stats s2 = { -1, -1, -1, -1, -1, true, -1, -1, -1, -1, -1, -1, -1, true, true };
    iks_render_desc d2 = { .output = pattern, .width = 64, .height = 32, .end = 40, .progress = on_progress,
                           .user = &stop };
    CHECK_CODE("iks_render stopped by its progress callback", iks_render(t, &d2, &s2), IKS_E_INTERRUPTED);
    CHECK(s2.written < s2.total && s2.total == 40 && s2.written >= 0, "stats: fewer written than total (40)",
          "0 <= written < 40 = total", "%ld of %ld", s2.written, s2.total);
    count_files(dir, &files, &temps, names, sizeof names);
    CHECK(temps == 0, "no temporary files left after the stop", "none", "%s", names);
    CHECK(files == s2.written, "the files on disk are the frames written", "files == stats.written",
          "%d files, written %ld: %s", files, s2.written, names);
    for (long i = 0; i < s2.written; i++) {
        char f[600];
        snprintf(f, sizeof f, "%s/%03ld.png", dir, i);
        bool ok = png_ok(f, 64, 32, why, sizeof why);
        CHECK(ok, "each file written before the stop is a complete PNG", "ok", "%s", why);
    }

    /* descriptions refused before any work */
    snprintf(pattern, sizeof pattern, "%s/two/%%d_%%d.png", tmpdir);
    CHECK_CODE("iks_render_check: two frame numbers", iks_render_check(&(iks_render_desc){ .output = pattern, .end = 2 }),
               IKS_E_USAGE);
    check_one_line("two %d");
    snprintf(pattern, sizeof pattern, "%s/many.png", tmpdir);
    CHECK_CODE("iks_render_check: 5 frames into one PNG",
               iks_render_check(&(iks_render_desc){ .output = pattern, .end = 5 }), IKS_E_USAGE);
    CHECK_CODE("iks_render_check: end before first",
               iks_render_check(&(iks_render_desc){ .output = pattern, .first = 5, .end = 2 }), IKS_E_USAGE);
    CHECK_CODE("iks_render_check: no output", iks_render_check(&(iks_render_desc){ 0 }), IKS_E_USAGE);
    CHECK_CODE("iks_render_check: a mouse no float can hold once scaled by --ssaa",
               iks_render_check(&(iks_render_desc){ .output = pattern, .end = 1, .have_mouse = true, .ssaa = 8,
                                                    .mouse = { 1e37f, 0, 0, 0 } }), IKS_E_USAGE);
    CHECK_CODE("iks_render_check: fps 1e-300 (iTimeDelta Inf)",
               iks_render_check(&(iks_render_desc){ .output = pattern, .end = 1, .fps = 1e-300 }), IKS_E_USAGE);
    CHECK_CODE("iks_render with two frame numbers fails the same way",
               iks_render(t, &(iks_render_desc){ .output = "x/%d_%d.png", .end = 2 }, NULL), IKS_E_USAGE);
    write_file(tmp_path("afile"), "x");
    snprintf(pattern, sizeof pattern, "%s/afile/sub/%%02d.png", tmpdir);
    /* iks_render_check does not touch the disk; iks_render finds the directory cannot be made */
    CHECK_CODE("iks_render_check: a directory under a file is not its business (no disk access)",
               iks_render_check(&(iks_render_desc){ .output = pattern, .end = 2 }), IKS_OK);
    snprintf(pattern, sizeof pattern, "%s/unmade/%%02d.png", tmpdir);
    CHECK_CODE("iks_render_check of a new directory", iks_render_check(&(iks_render_desc){ .output = pattern, .end = 2 }),
               IKS_OK);
    CHECK(access(tmp_path("unmade"), F_OK) != 0, "... which it does not make", "no directory unmade/", "it exists");
    snprintf(pattern, sizeof pattern, "%s/afile/sub/%%02d.png", tmpdir);
    CHECK_CODE("iks_render: a directory that cannot be made (under a file)",
               iks_render(t, &(iks_render_desc){ .output = pattern, .width = 8, .height = 4, .end = 2 }, NULL),
               IKS_E_IO);
    check_one_line("directory under a file");
    iks_toy_destroy(t);
}

/* An output that is one of the toy's own inputs (its texture, its shader) is refused by the library
 * itself before any work, for every caller: the file keeps its bytes */
static void test_own_inputs(iks_engine *e)
{
    static const uint8_t px[4 * 4 * 4] = { 0 };
    char tex[600], shader[600], out[600];
    snprintf(tex, sizeof tex, "%s/own7.png", tmpdir);
    snprintf(shader, sizeof shader, "%s/own.frag", tmpdir);
    CHECK_CODE("write the texture", iks_write_png(tex, px, 4, 4, false), IKS_OK);
    write_file(shader, "void mainImage(out vec4 c, in vec2 f) { c = texture(iChannel0, f / iResolution.xy); }\n");
    long n0 = 0, n1 = 0;
    unsigned char *before = read_file(tex, &n0);
    iks_toy *t = NULL;
    CHECK_CODE("load a toy with a texture",
               iks_toy_load(e, &(iks_toy_desc){ .path = shader, .channel = { tex }, .width = 4, .height = 4 }, &t), IKS_OK);
    if (!t || !before) {
        free(before);
        iks_toy_destroy(t);
        return;
    }
    snprintf(out, sizeof out, "%s/./own7.png", tmpdir);
    CHECK_FIELD("iks_render into the toy's own texture", iks_render(t, &(iks_render_desc){ .output = out, .width = 4,
                                                                   .height = 4 }, NULL), "output");
    check_one_line("own texture");
    snprintf(out, sizeof out, "%s/own%%d.png", tmpdir);
    CHECK_FIELD("iks_render of a pattern whose frame 7 is the texture",
                iks_render(t, &(iks_render_desc){ .output = out, .width = 4, .height = 4, .end = 8 }, NULL), "output");
    unsigned char *after = read_file(tex, &n1);
    CHECK(after && n0 == n1 && !memcmp(before, after, (size_t)n0), "... the texture keeps its bytes", "the same bytes",
          "%ld bytes, then %ld", n0, n1);
    free(after);
    free(before);
    iks_toy_destroy(t);
    iks_live_desc ld = { IKS_DESC_SIZE(iks_live_desc), .toy = { IKS_DESC_SIZE(iks_toy_desc), .path = shader },
                         .record_input = shader };
    CHECK_FIELD("iks_live_check: the session's inputs over the shader", iks_live_check(&ld), "record_input");
    ld.record_input = tex;
    CHECK_FIELD("iks_live_check: the session's inputs over a file that is not a recording", iks_live_check(&ld),
                "record_input");
}

/* iks_write_png: top row first in, top row first in the file; RGB, or RGBA with alpha */
static void test_write_png(const char *when)
{
    enum { W = 5, H = 3 };
    uint8_t px[W * H * 4];
    for (int r = 0; r < H; r++)
        for (int x = 0; x < W; x++) {
            uint8_t *p = px + (r * W + x) * 4;
            p[0] = (uint8_t)x, p[1] = (uint8_t)r, p[2] = (uint8_t)(10 * x + r), p[3] = (uint8_t)(200 + x);
        }
    for (int alpha = 0; alpha < 2; alpha++) {
        char what[160], why[300];
        snprintf(what, sizeof what, "iks_write_png %s (%s)", alpha ? "RGBA" : "RGB", when);
        const char *path = tmp_path(alpha ? "w4.png" : "w3.png");
        CHECK_CODE(what, iks_write_png(path, px, W, H, alpha), IKS_OK);
        int w, h, ch;
        unsigned char *got = NULL;
        bool ok = png_read(path, &w, &h, &ch, &got, why, sizeof why);
        CHECK(ok, what, "a readable PNG", "%s", why);
        if (!ok) continue;
        CHECK(w == W && h == H && ch == 3 + alpha, what, alpha ? "5x3, 4 channels" : "5x3, 3 channels",
              "%dx%d, %d channels", w, h, ch);
        int bad = 0;
        char first[160] = "";
        for (int r = 0; r < H && w == W && h == H && ch == 3 + alpha; r++)
            for (int x = 0; x < W; x++)
                for (int k = 0; k < ch; k++)
                    if (got[(r * W + x) * ch + k] != px[(r * W + x) * 4 + k] && !bad++)
                        snprintf(first, sizeof first, "row %d x %d channel %d: %d, want %d", r, x, k,
                                 got[(r * W + x) * ch + k], px[(r * W + x) * 4 + k]);
        snprintf(what, sizeof what, "iks_write_png %s (%s): the file's pixels are the caller's, top row first",
                 alpha ? "RGBA" : "RGB", when);
        CHECK(bad == 0, what, "equal", "%d values differ; first: %s", bad, first);
        free(got);
    }
    CHECK_CODE("iks_write_png into a missing directory", iks_write_png(tmp_path("no/such/dir.png"), px, W, H, false),
               IKS_E_IO);
    check_one_line("iks_write_png into a missing directory");
}

/* the limb demo through the shaders directory the engine found */
static void test_limb(iks_engine *e)
{
    iks_toy *t = NULL;
    CHECK_CODE("load the limb demo (path NULL)", iks_toy_load(e, &(iks_toy_desc){ .width = 64, .height = 36 }, &t),
               IKS_OK);
    if (!t) return;
    CHECK(strstr(iks_toy_name(t), "limb") != NULL, "its name", "contains 'limb'", "%s", iks_toy_name(t));
    uint8_t p[64 * 36 * 4];
    CHECK_CODE("draw the limb demo", draw_wh(t, &(iks_frame_info){ .time = 1.5 }, 64, 36, p, NULL), IKS_OK);
    int distinct = 0;
    for (int i = 4; i < (int)sizeof p; i += 4)
        if (memcmp(p, p + i, 3)) distinct++;
    CHECK(distinct > 0, "the limb picture is not one flat colour", "several colours", "one");
    CHECK_CODE("limb: --set r1=0.6", iks_toy_set(t, "r1=0.6"), IKS_OK);
    iks_toy_destroy(t);
}

/* the solver probe through the API alone: the GPU's joints and effectors are ik.h's, bit for bit on
 * llvmpipe (which computes in IEEE float as the C solver does); a real GPU may round the reached joint's
 * square root otherwise, so there it gets a few ulps */
static void test_probe(iks_engine *e)
{
    const char *r = iks_engine_renderer(e);
    float tol = r && strstr(r, "llvmpipe") ? 0 : 4e-7f;
    const float cases[] = { 1.6f, 0, 1, 1, /* reached: x = (0.8, 0.6), end = p */
                            0, 5, 1, 1,    /* too far: x = r1 u, end = L u */
                            0, 0, 1, 1,    /* degenerate: end at the joint */
                            0, 1, 1e-20f, 1e30f }; /* too near, r1 far below r2: x = -r1 u on r1 itself */
    iks_probe *p = NULL;
    CHECK_CODE("iks_probe_create with 4 cases", iks_probe_create(e, NULL, cases, 4, &p), IKS_OK);
    if (!p) return;
    float x[16], end[16];
    CHECK_CODE("iks_probe_run", iks_probe_run(p, NULL, x, sizeof x), IKS_OK);
    CHECK_CODE("iks_probe_run_effector", iks_probe_run_effector(p, NULL, end, sizeof end), IKS_OK);
    CHECK_FIELD("iks_probe_run into 15 floats for 4 cases", iks_probe_run(p, NULL, x, sizeof x - sizeof(float)),
                "out_len");
    for (int i = 0; i < 4; i++) {
        ik_vec2 cx, ce;
        ik_status st = ik_solve2((ik_vec2){ cases[4 * i], cases[4 * i + 1] }, cases[4 * i + 2], cases[4 * i + 3], NULL,
                                 &cx, &ce);
        CHECK(fabsf(x[4 * i] - cx.x) <= tol && fabsf(x[4 * i + 1] - cx.y) <= tol && (int)x[4 * i + 2] == (int)st,
              "the probe's joint is ik_solve2's",
              "equal", "case %d: GPU (%.9g, %.9g) %d, C (%.9g, %.9g) %d", i, x[4 * i], x[4 * i + 1], (int)x[4 * i + 2],
              cx.x, cx.y, (int)st);
        CHECK(end[4 * i] == ce.x && end[4 * i + 1] == ce.y && (int)end[4 * i + 2] == (int)st,
              "the probe's effector is ik_solve2's", "equal", "case %d: GPU (%.9g, %.9g), C (%.9g, %.9g)", i, end[4 * i],
              end[4 * i + 1], ce.x, ce.y);
    }
    CHECK(end[0] == 1.6f && end[1] == 0, "a reached target's effector is the target", "(1.6, 0)", "(%.9g, %.9g)",
          end[0], end[1]);
    CHECK(x[12] == 0 && x[13] == -1e-20f, "r1 = 1e-20 beside r2 = 1e30: the joint is -r1 u on r1 itself",
          "(0, -1e-20)", "(%.9g, %.9g)", x[12], x[13]);
    iks_probe_destroy(p);
    CHECK_CODE("iks_probe_run_effector(NULL)", iks_probe_run_effector(NULL, NULL, end, sizeof end), IKS_E_USAGE);
}

/* load, draw, render and destroy leave as many GL objects alive as before */
static void test_leaks(iks_engine *e, logbook *lb)
{
    const char *src = "uniform float k = 1.0;\n"
                      "void mainImage(out vec4 c, in vec2 f) { c = vec4(k * f / iResolution.xy, 0.5, 1.0); }\n";
    char pattern[600];
    snprintf(pattern, sizeof pattern, "%s/leak/%%d.png", tmpdir);
    int counts[4];
    for (int round = 0; round < 4; round++) {
        counts[round] = iks_engine_live_objects(e, 20000);
        iks_toy *t = NULL;
        if (load_src(e, "leak.frag", src, 32, 16, &t) != IKS_OK) {
            CHECK(false, "load in the leak cycle", "ok", "failed");
            return;
        }
        uint8_t p8[32 * 16 * 4];
        float pf[32 * 16 * 4];
        draw_wh(t, &(iks_frame_info){ 0 }, 32, 16, p8, pf);
        draw_wh(t, &(iks_frame_info){ 0 }, 48, 24, NULL, NULL);
        iks_toy_set(t, "k=0.5");
        iks_render(t, &(iks_render_desc){ .output = pattern, .width = 24, .height = 12, .end = 2 }, NULL);
        iks_toy_destroy(t);
        /* failed loads too */
        load_src(e, "broken.frag", "void mainImage(out vec4 c, in vec2 f) { c = nope; }\n", 4, 4, &t);
    }
    int after = iks_engine_live_objects(e, 20000);
    (void)lb;
    CHECK(counts[0] > 0, "iks_engine_live_objects counts something (the engine's own objects)", "> 0", "%d",
          counts[0]);
    /* the first cycle may make objects the engine keeps for later (caches); after it, none may grow */
    CHECK(after == counts[1] && counts[2] == counts[1], "GL objects alive before and after load+draw+render+destroy",
          "equal", "%d before the first cycle, then %d %d %d, %d after", counts[0], counts[1], counts[2], counts[3],
          after);
    if (counts[1] != counts[0])
        fprintf(stderr, "note: the first cycle left %d GL objects (engine caches?)\n", counts[1] - counts[0]);
}

/* An engine on a context the caller made current, through its GL loader alone (.get_proc): here the
 * headless engine's context and libEGL's eglGetProcAddress, as a program with its own EGL or GLFW
 * context would hand it over. It draws the same exact pixels and leaves the first engine working. */
/* a sound shader from memory: its samples through iks_toy_sound, exactly what samp says */
static void test_sound(iks_engine *e)
{
    const char *src = "vec2 mainSound(int samp, float time) { return vec2(float(samp % 7) * 0.125, -2.0); }\n";
    iks_toy *t;
    CHECK_CODE("load a sound shader from memory", load_src(e, "s.frag", src, 8, 8, &t), IKS_OK);
    if (!t) return;
    CHECK(iks_toy_has_sound(t) && !iks_toy_has_image(t), "a sound shader alone: sound, no picture", "true true",
          "%d %d", iks_toy_has_sound(t), iks_toy_has_image(t));
    enum { N = 600 };
    static float lr[2 * N];
    CHECK_CODE("iks_toy_sound of 600 samples from 262000 (across a block)", iks_toy_sound(t, 262000, N, lr, sizeof lr), IKS_OK);
    int bad = -1;
    for (int i = 0; i < N && bad < 0; i++)
        if (lr[2 * i] != (float)((262000 + i) % 7) * 0.125f || lr[2 * i + 1] != -2.0f) bad = i;
    lr[2 * N - 1] = 42.0f;
    CHECK_FIELD("iks_toy_sound into a buffer one float short", iks_toy_sound(t, 0, N, lr, sizeof lr - sizeof(float)),
                "lr_len");
    CHECK(lr[2 * N - 1] == 42.0f, "... and nothing written", "42", "%g", lr[2 * N - 1]);
    CHECK(bad < 0, "each sample is what samp gives, unclamped", "all", "sample %d: %g %g", bad, bad >= 0 ? lr[2 * bad] : 0,
          bad >= 0 ? lr[2 * bad + 1] : 0);
    uint8_t px[8 * 8 * 4];
    iks_frame_info fi = { 0 };
    CHECK_CODE("a picture of it is refused", draw_wh(t, &fi, 8, 8, px, NULL), IKS_E_USAGE);
    iks_toy_destroy(t);
    const char *pic = "void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }\n";
    CHECK_CODE("load a picture", load_src(e, "p.frag", pic, 8, 8, &t), IKS_OK);
    if (!t) return;
    CHECK(!iks_toy_has_sound(t) && iks_toy_has_image(t), "a picture alone: no sound", "false true", "%d %d",
          iks_toy_has_sound(t), iks_toy_has_image(t));
    CHECK_CODE("iks_toy_sound without a sound pass", iks_toy_sound(t, 0, 1, lr, sizeof lr), IKS_E_USAGE);
    iks_toy_destroy(t);
}

static void test_get_proc(iks_engine *first)
{
    void *egl = dlopen("libEGL.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!egl) egl = dlopen("libEGL.so.1", RTLD_NOW);
    CHECK(egl != NULL, "libEGL.so.1 loads", "a handle", "%s", dlerror());
    if (!egl) return;
    iks_glproc (*get_proc)(const char *) = NULL;
    *(void **)&get_proc = dlsym(egl, "eglGetProcAddress");
    CHECK(get_proc != NULL, "eglGetProcAddress", "a function", "NULL");
    iks_engine *e2 = NULL;
    /* the caller's context, here the first engine's, made current as a program makes its own: the
     * explicit pair keeps it current between the calls */
    CHECK_CODE("iks_engine_bind", iks_engine_bind(first), IKS_OK);
    if (get_proc)
        CHECK_CODE("iks_engine_create with the caller's GL loader", iks_engine_create(&(iks_engine_desc){ .get_proc = get_proc }, &e2),
                   IKS_OK);
    if (e2) {
        test_rgba8(e2);
        iks_engine_destroy(e2);
    }
    iks_engine_unbind(first);
    test_rgba8(first); /* the context the caller lent is still theirs, and still works */
    dlclose(egl);
}

/* The ES strictness check (es_check): the same text says the same thing from a file, from memory
 * under a name, and from memory with no name (it said nothing there: "<memory>" was taken for ikshade's
 * own lines) */
static void test_es_check(iks_engine *e, logbook *lb)
{
    static const char text[] = "void mainImage(out vec4 o, in vec2 f) { float x = 1; o = vec4(x); }\n";
    char *path = tmp_path("es.frag");
    write_file(path, text);
    const struct { const char *what, *path, *source, *name; } C[] = {
        { "es_check from a file", path, NULL, "es.frag:1" },
        { "es_check from memory under a name", "mem.frag", text, "mem.frag:1" },
        { "es_check from memory, no name", NULL, text, "<memory>:1" },
    };
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        iks_toy *t = NULL;
        int before = lb->warnings + lb->infos; /* the ES notes are diagnostics, as compile warnings are */
        lb->last[0] = '\0';
        CHECK_CODE(C[i].what, iks_toy_load(e, &(iks_toy_desc){ .path = C[i].path, .source = C[i].source, .width = 8,
                                                                .height = 8, .es_check = true }, &t), IKS_OK);
        CHECK_INT(C[i].what, t ? iks_toy_es_issues(t) : -99, 1);
        CHECK(lb->warnings + lb->infos == before + 1 && strstr(lb->last, C[i].name), C[i].what, C[i].name,
              "%d message(s), last '%s'", lb->warnings + lb->infos - before, lb->last);
        iks_toy_destroy(t);
    }
}

/* A statement of 40,000 terms (80,000 tokens, within the measure's million): the driver's compiler
 * recurses once a term, which overflowed this program's 8 MiB main thread (SIGSEGV; 30,000 did);
 * the library compiles on a stack of its own. The deep ES check too. */
static void test_deep_expression(iks_engine *e)
{
    const int terms = 40000;
    /* not constant (f.x): a constant chain is folded as it is parsed, without the recursion */
    const char head[] = "void mainImage(out vec4 o, in vec2 f) { float x = f.x * 0.0; o = vec4(0.25", tail[] = ", 0.0, 0.0, 1.0); }\n";
    size_t n = sizeof head + (size_t)terms * 2 + sizeof tail;
    char *src = malloc(n), *w = src;
    if (!src) return;
    w += sprintf(w, "%s", head);
    for (int i = 1; i < terms; i++) w += sprintf(w, "+x");
    sprintf(w, "%s", tail);
    iks_toy *t = NULL;
    CHECK_CODE("a 40,000-term statement loads on an 8 MiB thread",
               iks_toy_load(e, &(iks_toy_desc){ .path = "deep.frag", .source = src, .width = 4, .height = 4,
                                                .es_check = true }, &t), IKS_OK);
    if (t) {
        unsigned char px[4 * 4 * 4];
        CHECK_CODE("... and draws", draw_wh(t, &(iks_frame_info){ 0 }, 4, 4, px, NULL), IKS_OK);
        CHECK(abs(px[0] - 64) <= 1, "... its value", "64 (0.25, within 1)", "%d", px[0]);
    }
    iks_toy_destroy(t);
    free(src);
}

/* one engine's pixels: the centre of a 4x4 draw, each channel within 1 of want (GL leaves the rounding of
 * a tie such as 0.5 * 255 = 127.5 to the driver: llvmpipe gives 128, NVIDIA 127) */
static void centre(iks_toy *t, const char *what, const unsigned char want[3])
{
    unsigned char px[4 * 4 * 4];
    memset(px, 0x77, sizeof px);
    CHECK_CODE(what, draw_wh(t, &(iks_frame_info){ 0 }, 4, 4, px, NULL), IKS_OK);
    const unsigned char *c = px + (2 * 4 + 2) * 4;
    char w[32];
    snprintf(w, sizeof w, "%d %d %d", want[0], want[1], want[2]);
    CHECK(abs(c[0] - want[0]) <= 1 && abs(c[1] - want[1]) <= 1 && abs(c[2] - want[2]) <= 1, what, w, "%d %d %d", c[0],
          c[1], c[2]);
}

/* Two engines on one thread: each call draws with its own engine's context, whichever was used last,
 * and destroying one leaves the other working (it drew the other's picture with IKS_OK, then failed) */
static void test_two_engines(void)
{
    static const unsigned char red[3] = { 255, 0, 0 }, green[3] = { 0, 255, 0 };
    iks_engine *a = NULL, *b = NULL;
    iks_toy *ta = NULL, *tb = NULL;
    CHECK_CODE("engine A", iks_engine_create(NULL, &a), IKS_OK);
    if (a) CHECK_CODE("A's red toy", load_src(a, "a.frag", "uniform float k = 1.0;\n"
                                             "void mainImage(out vec4 o, in vec2 f) { o = vec4(k, 0, 0, 1); }", 4, 4, &ta), IKS_OK);
    CHECK_CODE("engine B", iks_engine_create(NULL, &b), IKS_OK);
    if (b) CHECK_CODE("B's green toy", load_src(b, "b.frag", "void mainImage(out vec4 o, in vec2 f) { o = vec4(0, 1, 0, 1); }", 4, 4, &tb), IKS_OK);
    if (!ta || !tb) goto out;
    centre(ta, "A draws after B was made: red", red);
    centre(tb, "B draws: green", green);
    centre(ta, "A again: red", red);
    centre(tb, "B again: green", green);
    /* a uniform set while B's context is current goes to A's program, not to a name in B's */
    CHECK_CODE("A takes a setting while B's context was current", iks_toy_set(ta, "k=0.5"), IKS_OK);
    centre(ta, "... and draws with it", (const unsigned char[3]){ 128, 0, 0 });
    CHECK_CODE("A's setting back", iks_toy_set(ta, "k=1"), IKS_OK);
    centre(tb, "B: green", green);
    iks_toy_destroy(tb); /* its GL objects go from B's context, not A's */
    tb = NULL;
    centre(ta, "A after B's toy went: red", red);
    iks_engine_destroy(b);
    b = NULL;
    centre(ta, "A after B's engine went: red", red);
    CHECK(iks_engine_live_objects(a, 4096) > 0, "A's context still holds A's objects", "> 0", "%d", iks_engine_live_objects(a, 4096));
out:
    iks_toy_destroy(ta);
    iks_toy_destroy(tb);
    iks_engine_destroy(b);
    iks_engine_destroy(a);
}

/* The engine destroyed before its toys (as a garbage collector may order it): the toys keep it alive,
 * still draw, and the last one's destroy frees it (ASan and LSan see a use-after-free or a leak) */
static void test_destroy_order(void)
{
    static const unsigned char blue[3] = { 0, 0, 255 };
    iks_engine *e = NULL;
    iks_toy *t1 = NULL, *t2 = NULL;
    CHECK_CODE("an engine", iks_engine_create(NULL, &e), IKS_OK);
    if (!e) return;
    const char *src = "void mainImage(out vec4 o, in vec2 f) { o = vec4(0, 0, 1, 1); }";
    CHECK_CODE("toy 1", load_src(e, "o1.frag", src, 4, 4, &t1), IKS_OK);
    CHECK_CODE("toy 2", load_src(e, "o2.frag", src, 4, 4, &t2), IKS_OK);
    iks_engine_destroy(e); /* before its toys */
    if (t1) centre(t1, "toy 1 draws after its engine was destroyed", blue);
    iks_toy_destroy(t1);
    if (t2) {
        centre(t2, "toy 2 draws after toy 1 and the engine went", blue);
        CHECK_CODE("toy 2 takes a channel", iks_toy_set_channel(t2, 0, NULL), IKS_OK);
    }
    iks_toy_destroy(t2); /* the last: frees the engine */
    /* an engine destroyed with no toys is freed at once; one whose toy failed to load holds nothing */
    e = NULL;
    CHECK_CODE("another engine", iks_engine_create(NULL, &e), IKS_OK);
    iks_toy *bad = NULL;
    if (e) CHECK_CODE("a toy that fails to compile", load_src(e, "bad.frag", "void mainImage(", 4, 4, &bad), IKS_E_COMPILE);
    CHECK(bad == NULL, "no toy after a failed load", "NULL", "%p", (void *)bad);
    iks_engine_destroy(e);
}

/* The thread rule: while one thread is inside a call (here: between iks_engine_bind and unbind) a call
 * from another thread is IKS_E_USAGE naming the rule, never GL calls on a context current elsewhere;
 * once it is out, the other thread draws the right picture */
typedef struct {
    iks_toy *t;
    iks_code code;
    char msg[256];
    unsigned char px[3];
} thread_try;

static void *draw_from_thread(void *arg)
{
    thread_try *a = arg;
    unsigned char px[4 * 4 * 4] = { 0 };
    a->code = draw_wh(a->t, NULL, 4, 4, px, NULL);
    const char *m = "";
    iks_last_error(&m);
    snprintf(a->msg, sizeof a->msg, "%s", a->code == IKS_OK ? "" : m);
    memcpy(a->px, px + (2 * 4 + 2) * 4, 3);
    return NULL;
}

static void test_threads(iks_engine *e)
{
    iks_toy *t = NULL;
    CHECK_CODE("a toy for two threads", load_src(e, "thr.frag", "void mainImage(out vec4 o, in vec2 f) { o = vec4(0, 1, 0, 1); }",
                                                 4, 4, &t), IKS_OK);
    if (!t) return;
    CHECK_CODE("this thread binds the engine (a call in progress)", iks_engine_bind(e), IKS_OK);
    thread_try a = { .t = t };
    pthread_t th;
    if (pthread_create(&th, NULL, draw_from_thread, &a) == 0) pthread_join(th, NULL);
    CHECK(a.code == IKS_E_USAGE && strstr(a.msg, "another thread"), "a draw from another thread meanwhile is refused, naming the rule",
          "usage: ... another thread ...", "%s: %s", iks_code_name(a.code), a.msg);
    iks_engine_unbind(e);
    a = (thread_try){ .t = t };
    if (pthread_create(&th, NULL, draw_from_thread, &a) == 0) pthread_join(th, NULL);
    CHECK(a.code == IKS_OK && a.px[0] == 0 && a.px[1] == 255 && a.px[2] == 0, "after the unbind the other thread draws green",
          "ok 0 255 0", "%s %d %d %d (%s)", iks_code_name(a.code), a.px[0], a.px[1], a.px[2], a.msg);
    centre(t, "and this thread draws after it", (const unsigned char[3]){ 0, 255, 0 });
    iks_toy_destroy(t);
}

/* A toy's media budget: each image is taken against what the toy's earlier ones left of it, refused from
 * its header (before its pixels are decoded) naming the file and media_budget; within it the toy loads */
static void test_media_budget(void)
{
    char dir[] = "/tmp/iks_budgetXXXXXX";
    if (!mkdtemp(dir)) return;
    enum { S = 1024 }; /* 4 MiB decoded each, a few KiB on disk */
    uint8_t *px = calloc((size_t)S * S, 4);
    char png[4][96];
    for (int i = 0; px && i < 4; i++) {
        snprintf(png[i], sizeof png[i], "%s/t%d.png", dir, i);
        CHECK_CODE("a 1024x1024 PNG", iks_write_png(png[i], px, S, S, false), IKS_OK);
    }
    free(px);
    const char *src = "void mainImage(out vec4 o, in vec2 f) { o = texture(iChannel0, f) + texture(iChannel1, f) + "
                      "texture(iChannel2, f) + texture(iChannel3, f); }";
    for (int k = 0; k < 2; k++) {
        iks_engine_desc ed = IKS_ENGINE_DESC_INIT;
        ed.media_budget = k ? (size_t)16 << 20 : (size_t)14 << 20; /* four images take 16 MiB */
        iks_engine *e = NULL;
        CHECK_CODE("an engine with a media budget", iks_engine_create(&ed, &e), IKS_OK);
        if (!e) continue;
        iks_toy_desc d = IKS_TOY_DESC_INIT;
        d.source = src, d.width = 4, d.height = 4;
        for (int c = 0; c < 4; c++) d.channel[c] = png[c];
        iks_toy *t = NULL;
        iks_code code = iks_toy_load(e, &d, &t);
        const char *m = "";
        iks_last_error(&m);
        if (k) CHECK(code == IKS_OK, "four 4 MiB images within a 16 MiB budget load", "ok", "%s: %s", iks_code_name(code), m);
        else
            CHECK(code == IKS_E_UNSUPPORTED && strstr(m, png[3]) && strstr(m, "media_budget 14 MiB") && strstr(m, "2.0 MiB left"),
                  "the fourth image past a 14 MiB budget is refused naming it and the budget", "unsupported: t3.png ... 2.0 "
                  "MiB left ... media_budget 14 MiB", "%s: %s", iks_code_name(code), m);
        iks_toy_destroy(t);
        iks_engine_destroy(e);
    }
    for (int i = 0; i < 4; i++) remove(png[i]);
    rmdir(dir);
}

/* iks_toy_desc.values: typed first values, after the text ones, refused by field like them */
static void test_values(iks_engine *e)
{
    const char *src = "uniform float k;\nuniform ivec2 n;\n"
                      "void mainImage(out vec4 o, in vec2 f) { o = vec4(k, float(n.x) / 255.0, float(n.y) / 255.0, 1.0); }";
    static const char *const sets[] = { "k=1.0", "n=1,1" };
    iks_value v[2] = { { .name = "k", .n = 1, .v = { 0.5 } }, { .name = "n", .n = 2, .v = { 3, 200 } } };
    iks_toy_desc d = IKS_TOY_DESC_INIT;
    d.source = src, d.width = 4, d.height = 4, d.sets = sets, d.nsets = 2, d.values = v, d.nvalues = 2;
    iks_toy *t = NULL;
    CHECK_CODE("typed values with text ones", iks_toy_load(e, &d, &t), IKS_OK);
    if (t) centre(t, "the typed values win: k 0.5, n (3, 200)", (const unsigned char[3]){ 128, 3, 200 });
    iks_toy_destroy(t);
    t = NULL;
    static const struct { iks_value v; const char *why; } BAD[] = {
        { { .name = "iTime", .n = 1, .v = { 1 } }, "set by ikshade" },
        { { .name = "k", .n = 1, .v = { NAN } }, "not a finite number" },
        { { .name = "k", .n = 5 }, "1 to 4" },
        { { .name = "2k", .n = 1 }, "GLSL identifier" },
        { { .name = "k", .n = 1, .v = { 1e39 } }, "beyond a float's range" },
        /* where the shader's type is known, its own words (issue 38) */
        { { .name = "n", .n = 2, .v = { 1, 3e9 } }, "uniform 'n' is ivec2: value 2 (3000000000) is beyond an int's range" },
        { { .name = "n", .n = 2, .v = { 1.5, 1 } }, "uniform 'n' is ivec2: value 1 (1.5) is not a whole number" },
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        d.values = &BAD[i].v, d.nvalues = 1, d.nsets = 0;
        CHECK_FIELD("a bad typed value", iks_toy_load(e, &d, &t), "values[0]");
        const char *m = "";
        iks_last_error(&m);
        CHECK(strstr(m, BAD[i].why) != NULL, "... says why", BAD[i].why, "%s", m);
    }
    iks_value undeclared = { .name = "nosuch", .n = 1, .v = { 1 } };
    d.values = &undeclared, d.nvalues = 1;
    CHECK_CODE("a value the shader does not declare", iks_toy_load(e, &d, &t), IKS_E_USAGE);
    d.values = NULL, d.nvalues = 1;
    CHECK_FIELD("values NULL with nvalues 1", iks_toy_check(&d), "values");
    d.nvalues = -1;
    CHECK_FIELD("nvalues -1", iks_toy_check(&d), "nvalues");
}

/* fork after drawing: in the child every call on the parent's engine or toys is IKS_E_USAGE at once
 * (the driver's threads are the parent's: a draw would wait for them for ever), destroying them touches
 * nothing of the parent's, and the parent goes on drawing */
static void test_fork(iks_engine *e)
{
    static const unsigned char blue[3] = { 0, 0, 255 };
    iks_toy *t = NULL;
    CHECK_CODE("a toy before the fork", load_src(e, "fork.frag", "void mainImage(out vec4 o, in vec2 f) { o = vec4(0, 0, 1, 1); }",
                                                 4, 4, &t), IKS_OK);
    if (!t) return;
    centre(t, "drawn before the fork", blue);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        /* the child: exit status 0 when every call was refused as it should be */
        alarm(20); /* a hang is the failure this guards against: SIGALRM ends it */
        unsigned char px[4 * 4 * 4];
        int bad = 0;
        bad += draw_wh(t, NULL, 4, 4, px, NULL) != IKS_E_USAGE;
        const char *m = "";
        iks_last_error(&m);
        bad += !strstr(m, "forked") || !strstr(m, "spawn");
        iks_toy *t2 = NULL;
        bad += load_src(e, "fork2.frag", "void mainImage(out vec4 o, in vec2 f) { o = vec4(1); }", 4, 4, &t2) != IKS_E_USAGE;
        bad += t2 != NULL;
        iks_toy_key(t, 32, true);       /* nothing to report, nothing done */
        iks_engine_finish(e);
        iks_toy_destroy(t);
        iks_engine_destroy(e);
        _exit(bad ? 10 + bad : 0);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork and wait", "the child", "pid %d", (int)pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child: every call refused at once, no hang", "exit 0",
          "%s %d", WIFEXITED(status) ? "exit" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    centre(t, "the parent draws after the child's calls", blue);
    iks_toy_destroy(t);
}

/* a whole toy in memory (a JSON: Buffer A adding 0.1 a frame to itself, Image showing it), its state
 * saved into memory and restored, and reset to before its first frame */
static int red_after(iks_toy *t, long frame)
{
    uint8_t px[4 * 4 * 4];
    if (draw_wh(t, &(iks_frame_info){ .frame = frame }, 4, 4, px, NULL) != IKS_OK) return -1;
    return px[0];
}

static void test_state(iks_engine *e)
{
    const char *json =
        "{\"Shader\":{\"info\":{\"name\":\"acc\"},\"renderpass\":["
        "{\"type\":\"buffer\",\"name\":\"Buffer A\",\"inputs\":[{\"id\":\"4dXGR8\",\"type\":\"buffer\",\"channel\":0}],"
        "\"outputs\":[{\"id\":\"4dXGR8\",\"channel\":0}],"
        "\"code\":\"void mainImage(out vec4 c, in vec2 p) { c = texelFetch(iChannel0, ivec2(p), 0) + vec4(0.1, 0.0, 0.0, 0.0); }\"},"
        "{\"type\":\"image\",\"name\":\"Image\",\"inputs\":[{\"id\":\"4dXGR8\",\"type\":\"buffer\",\"channel\":0}],"
        "\"outputs\":[],\"code\":\"void mainImage(out vec4 c, in vec2 p) { c = vec4(texelFetch(iChannel0, ivec2(p), 0).r, 0.0, 0.0, 1.0); }\"}"
        "]}}";
    iks_toy *t = NULL;
    CHECK_CODE("a JSON in memory (Buffer A fed back, Image)",
               iks_toy_load(e, &(iks_toy_desc){ .json = json, .width = 4, .height = 4 }, &t), IKS_OK);
    if (!t) return;
    CHECK(iks_toy_has_buffers(t), "the JSON's Buffer A is there", "has buffers", "none");
    int r[3];
    for (int i = 0; i < 3; i++) r[i] = red_after(t, i);
    /* 0.1 * k in float, stored in 8 bits: within one step of 25.5 k */
#define NEAR(v, k) ((v) >= 0 && abs((v) * 10 - 255 * (k)) <= 15)
    CHECK(NEAR(r[0], 1) && NEAR(r[1], 2) && NEAR(r[2], 3), "three frames accumulate 0.1 each", "26 51 77 (+-1)",
          "%d %d %d", r[0], r[1], r[2]);
    size_t n = iks_toy_state_size(t);
    CHECK(n > 4 * 4 * 16 * 2, "the state holds both halves of Buffer A in float", "> 512 bytes", "%zu", n);
    uint8_t *st = malloc(n), *small = malloc(n);
    if (!st || !small) return;
    CHECK_CODE("state_save into too few bytes", iks_toy_state_save(t, small, n - 1), IKS_E_USAGE);
    CHECK_CODE("state_save after 3 frames", iks_toy_state_save(t, st, n), IKS_OK);
    red_after(t, 3), red_after(t, 4);
    CHECK_CODE("state_load", iks_toy_state_load(t, st, n), IKS_OK);
    int v = red_after(t, 3);
    CHECK(NEAR(v, 4), "after the load, the next frame is the 4th's (0.4)", "102 (+-1)", "%d", v);
    CHECK_CODE("reset", iks_toy_reset(t), IKS_OK);
    v = red_after(t, 0);
    CHECK(NEAR(v, 1), "after reset, the first frame's (0.1)", "26 (+-1)", "%d", v);
    memcpy(small, st, n);
    small[n / 2] ^= 0x40;
    CHECK_CODE("a damaged state is refused", iks_toy_state_load(t, small, n), IKS_E_FORMAT);
    v = red_after(t, 1);
    CHECK(NEAR(v, 2), "... and nothing of it was used", "51 (+-1)", "%d", v);
    CHECK_CODE("a state of another length is refused", iks_toy_state_load(t, st, n - 16), IKS_E_USAGE);
    memset(small, 0, n);
    CHECK_CODE("bytes no save wrote are refused", iks_toy_state_load(t, small, n), IKS_E_FORMAT);
    /* another size: the state is another toy's */
    CHECK(red_after(t, 0) >= 0, "draw at 4x4", "ok", "failed");
    uint8_t px[8 * 8 * 4];
    CHECK_CODE("draw at 8x8", draw_wh(t, &(iks_frame_info){ 0 }, 8, 8, px, NULL), IKS_OK);
    CHECK_CODE("a 4x4 state into the toy at 8x8 is refused", iks_toy_state_load(t, st, n), IKS_E_USAGE);
    free(st);
    free(small);
    iks_toy_destroy(t);
#undef NEAR
    iks_toy *u = NULL;
    CHECK_CODE("json and source both: refused", iks_toy_load(e, &(iks_toy_desc){ .json = json, .source = "x" }, &u),
               IKS_E_USAGE);
    CHECK(!strcmp(iks_last_error_field(NULL), "json"), "... about the field json", "json", "%s",
          iks_last_error_field(NULL));
    CHECK_CODE("a JSON in memory that is not JSON", iks_toy_load(e, &(iks_toy_desc){ .json = "{\"Shader\": [" }, &u),
               IKS_E_FORMAT);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv; /* the source directory: not needed, the engine finds its shaders itself */
    snprintf(tmpdir, sizeof tmpdir, "%s/iks_api_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }

    test_codes();
    test_describe();
    test_output_formats();
    test_shards();
    test_two_engines();
    test_destroy_order();

    logbook lb = { 0 };
    iks_engine *e = NULL;
    iks_code c = iks_engine_create(&(iks_engine_desc){ .log = on_log, .log_user = &lb }, &e);
    CHECK_CODE("iks_engine_create headless", c, IKS_OK);
    if (!e) {
        remove_tree(tmpdir);
        printf("%d passed, %d failed\n", passed, failed);
        return 1;
    }
    const char *r = iks_engine_renderer(e), *v = iks_engine_gl_version(e), *sd = iks_engine_shader_dir(e);
    printf("GL: %s, %s; shaders: %s\n", r ? r : "(null)", v ? v : "(null)", sd ? sd : "(none)");
    CHECK(r && r[0] && v && v[0], "renderer and GL version", "non-empty", "'%s' '%s'", r ? r : "", v ? v : "");
    CHECK(iks_engine_max_size(e) >= 1024, "max frame side", ">= 1024", "%d", iks_engine_max_size(e));
    CHECK(sd != NULL, "the engine found a shaders directory", "a directory", "NULL");
    const char *found = iks_find_shader_dir();
    CHECK(found && sd && !strcmp(found, sd), "iks_find_shader_dir agrees with the engine", sd ? sd : "(null)", "%s",
          found ? found : "(null)");

    test_write_png("before any iks_render");
    test_rgba8(e);
    test_rgbaf(e);
    test_draw_desc(e);
    test_refused_size(e);
    test_struct_size(e);
    test_old_layouts(e);
    test_memory_channels(e);
    test_webcam_channel(e);
    test_uniforms(e);
    test_sets(e, &lb);
    test_typed_uniforms(e, &lb);
    test_state(e);
    test_fork(e);
    test_threads(e);
    test_values(e);
    test_media_budget();
    test_es_check(e, &lb);
    test_deep_expression(e);
    test_errors(e);
    test_render(e);
    test_own_inputs(e);
    test_cube_steps(e);
    test_write_png("after iks_render");
    test_limb(e);
    test_probe(e);
    test_sound(e);
    test_leaks(e, &lb);
    test_get_proc(e);

    iks_engine_finish(e);
    iks_engine_destroy(e);
    remove_tree(tmpdir);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
