/* test_decode.c: src/media's decoders (image.c, volume.c) against independent references. PNGs of every
 * colour type and bit depth (palette with tRNS, gray and RGB with tRNS, gray+alpha, 16 bits, interlaced,
 * with gAMA, sRGB and sBIT chunks that must change nothing) are written here with libpng's writer and
 * must decode to exactly what stb_image decodes from the same bytes: stb_image was the loader before,
 * and renders must not change. JPEGs (gray, RGB 4:2:0 and 4:4:4, progressive, CMYK, YCCK) written here
 * with libjpeg are held against stb_image's JPEG decoder within JPEG_TOLERANCE: stb shares no code with
 * libjpeg-turbo (its own Huffman decoder, IDCT, upsampling and colour conversion), so agreement within
 * rounding says the right samples came out in the right places, rows, channels and colour model.
 * Then the refusals: sizes beyond the limits before any allocation, a DHT of more than 256 codes,
 * too many progressive scans, truncated and empty files, and the volume parser's checks.
 * usage: test_decode [TESTS_DIR] (unused) | test_decode --corpus DIR (writes the fuzz seeds there). */
#include "check.h"
#include "base/buf.h"
#include "media/image.h"
#include "media/volume.h"

#include <jpeglib.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stb_image_ref.h"

/* the largest difference of one sample allowed between libjpeg-turbo and stb_image on the JPEGs made
 * here (2 was seen): both use accurate integer IDCTs and triangle ("fancy") upsampling, but round
 * differently; a wrong channel, row or colour model is off by tens */
#define JPEG_TOLERANCE 3

static uint32_t rng = 2463534242u;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static char dir[256];
static const char *corpus; /* --corpus: where the seeds go */

static void write_bytes(const char *d, const char *name, const void *p, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", d, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

/* a seed for fuzz target sub (image, volume), when asked for */
static void seed(const char *sub, const char *name, const void *p, size_t n)
{
    if (!corpus) return;
    char d[512];
    snprintf(d, sizeof d, "%s/%s", corpus, sub);
    mkdir(d, 0777);
    write_bytes(d, name, p, n);
}

/* ---- PNGs written with libpng ------------------------------------------------------------------- */

static void png_put(png_structp png, png_bytep data, size_t n) { iks_sbuf_add(png_get_io_ptr(png), data, n); }
static void png_flush_none(png_structp png) { (void)png; }

typedef struct {
    const char *name;
    int color, depth, w, h;
    bool interlace, trns, gama, srgb, sbit;
} png_case;

/* A PNG of random samples, as c says; with tRNS, about a quarter of the pixels are the transparent
 * colour (or its palette entries translucent) so that both sides of the test are taken */
static char *make_png(const png_case *c, size_t *len)
{
    iks_sbuf b = { 0 };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        fprintf(stderr, "%s: libpng could not write it\n", c->name);
        exit(2);
    }
    png_set_write_fn(png, &b, png_put, png_flush_none);
    png_set_IHDR(png, info, (png_uint_32)c->w, (png_uint_32)c->h, c->depth, c->color,
                 c->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    int npal = c->color == PNG_COLOR_TYPE_PALETTE ? (c->depth == 8 ? 200 : 1 << c->depth) : 0;
    png_color pal[256];
    png_byte alpha[256];
    for (int i = 0; i < npal; i++) {
        pal[i].red = (png_byte)next(), pal[i].green = (png_byte)next(), pal[i].blue = (png_byte)next();
        alpha[i] = (png_byte)(i % 3 == 0 ? next() : 255);
    }
    if (npal) png_set_PLTE(png, info, pal, npal);
    int channels = c->color == PNG_COLOR_TYPE_GRAY || c->color == PNG_COLOR_TYPE_PALETTE ? 1
                   : c->color == PNG_COLOR_TYPE_GRAY_ALPHA ? 2 : c->color == PNG_COLOR_TYPE_RGB ? 3 : 4;
    int maxv = (1 << c->depth) - 1;
    png_color_16 tc = { 0 };
    tc.gray = (png_uint_16)(next() & (unsigned)maxv);
    tc.red = (png_uint_16)(next() & (unsigned)maxv), tc.green = (png_uint_16)(next() & (unsigned)maxv);
    tc.blue = (png_uint_16)(next() & (unsigned)maxv);
    if (c->trns) png_set_tRNS(png, info, alpha, npal > 3 ? npal - 3 : npal, npal ? NULL : &tc);
    if (c->gama) png_set_gAMA(png, info, 1.0 / 2.2);
    if (c->srgb) png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    if (c->sbit) {
        png_color_8 sb = { 5, 6, 5, 3, 4 };
        png_set_sBIT(png, info, &sb);
    }
    png_write_info(png, info);
    /* samples as integers, then packed big-endian into rows of the bit depth */
    size_t rowbytes = ((size_t)c->w * (size_t)channels * (size_t)c->depth + 7) / 8;
    unsigned char *rows = calloc((size_t)c->h, rowbytes);
    png_bytep *rp = malloc((size_t)c->h * sizeof *rp);
    for (int y = 0; y < c->h; y++) {
        unsigned char *r = rows + (size_t)y * rowbytes;
        rp[y] = r;
        for (int x = 0; x < c->w; x++) {
            unsigned v[4];
            bool clear = c->trns && !npal && next() % 4 == 0;
            for (int k = 0; k < channels; k++) {
                v[k] = next() & (unsigned)maxv;
                if (npal) v[k] %= (unsigned)npal;
                /* some 16-bit pixels share the transparent colour's high byte only: still opaque */
                if (c->depth == 16 && c->trns && next() % 4 == 0)
                    v[k] = ((channels == 1 ? tc.gray : k == 0 ? tc.red : k == 1 ? tc.green : tc.blue) & 0xff00u) |
                           (v[k] & 0xffu);
            }
            if (clear) {
                if (channels == 1) v[0] = tc.gray;
                else v[0] = tc.red, v[1] = tc.green, v[2] = tc.blue;
            }
            for (int k = 0; k < channels; k++) {
                size_t bit = ((size_t)x * (size_t)channels + (size_t)k) * (size_t)c->depth;
                if (c->depth == 16) r[bit / 8] = (unsigned char)(v[k] >> 8), r[bit / 8 + 1] = (unsigned char)v[k];
                else r[bit / 8] |= (unsigned char)(v[k] << (8 - c->depth - (int)(bit % 8)));
            }
        }
    }
    png_write_image(png, rp);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(rows);
    free(rp);
    return iks_sbuf_take(&b, len);
}

static void expect_fail(bool ok, iks_err *e, iks_code want, const char *text, const char *what)
{
    CHECK(!ok, "%s: decoded", what);
    CHECK(e->code == want, "%s: code %s, expected %s (%s)", what, cname(e->code), cname(want), iks_err_msg(e));
    CHECK(strstr(iks_err_msg(e), text) != NULL, "%s: message '%s' lacks '%s'", what, iks_err_msg(e), text);
    iks_err_clear(e);
}

/* ours against stb_image, both flips: exactly equal, or within tol; the largest difference back */
static int against_stb(const char *name, const char *data, size_t len, int tol)
{
    int worst = -1;
    for (int flip = 0; flip < 2; flip++) {
        iks_image img;
        iks_err e = IKS_ERR_INIT;
        iks_image_opts o = { .max_side = 16384, .vflip = flip };
        bool ok = iks_image_decode(&img, data, len, name, &o, &e);
        CHECK(ok, "%s: %s", name, iks_err_msg(&e));
        stbi_set_flip_vertically_on_load(flip);
        int w, h, n;
        unsigned char *ref = stbi_load_from_memory((const unsigned char *)data, (int)len, &w, &h, &n, 4);
        CHECK(ref != NULL, "%s: stb_image: %s", name, stbi_failure_reason());
        if (ok && ref) {
            CHECK(img.w == w && img.h == h, "%s: %dx%d, stb %dx%d", name, img.w, img.h, w, h);
            size_t n4 = (size_t)w * (size_t)h * 4, at = 0;
            int d = 0;
            for (size_t i = 0; img.w == w && img.h == h && i < n4; i++) {
                int k = abs(img.px[i] - ref[i]);
                if (k > d) d = k, at = i;
            }
            CHECK(d <= tol, "%s (vflip %d): differs from stb_image by %d at pixel %zu channel %zu (ours %d, stb %d)",
                  name, flip, d, at / 4, at % 4, img.px[at], ref[at]);
            if (d > worst) worst = d;
        }
        stbi_image_free(ref);
        iks_image_free(&img);
        iks_err_clear(&e);
    }
    stbi_set_flip_vertically_on_load(0);
    return worst;
}

static void test_png_like_stb(void)
{
    static const struct { int color, depth; } kinds[] = {
        { PNG_COLOR_TYPE_GRAY, 1 }, { PNG_COLOR_TYPE_GRAY, 2 }, { PNG_COLOR_TYPE_GRAY, 4 },
        { PNG_COLOR_TYPE_GRAY, 8 }, { PNG_COLOR_TYPE_GRAY, 16 }, { PNG_COLOR_TYPE_PALETTE, 1 },
        { PNG_COLOR_TYPE_PALETTE, 2 }, { PNG_COLOR_TYPE_PALETTE, 4 }, { PNG_COLOR_TYPE_PALETTE, 8 },
        { PNG_COLOR_TYPE_RGB, 8 }, { PNG_COLOR_TYPE_RGB, 16 }, { PNG_COLOR_TYPE_GRAY_ALPHA, 8 },
        { PNG_COLOR_TYPE_GRAY_ALPHA, 16 }, { PNG_COLOR_TYPE_RGB_ALPHA, 8 }, { PNG_COLOR_TYPE_RGB_ALPHA, 16 },
    };
    int n = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (int variant = 0; variant < 6; variant++) {
            png_case c = { .color = kinds[k].color, .depth = kinds[k].depth };
            bool alpha = c.color & PNG_COLOR_MASK_ALPHA;
            /* sizes that leave Adam7's passes partly empty, and one pixel */
            static const int sizes[6][2] = { { 13, 7 }, { 37, 19 }, { 1, 1 }, { 5, 3 }, { 64, 33 }, { 2, 9 } };
            c.w = sizes[variant][0], c.h = sizes[variant][1];
            c.interlace = variant & 1;
            c.trns = !alpha && variant >= 2;
            c.gama = variant == 3 || variant == 4;
            c.srgb = variant == 5;
            c.sbit = variant == 4 && c.color != PNG_COLOR_TYPE_PALETTE && c.depth >= 8;
            char name[96];
            snprintf(name, sizeof name, "png-c%d-d%d%s%s%s%s-%dx%d.png", c.color, c.depth, c.interlace ? "-i" : "",
                     c.trns ? "-trns" : "", c.gama ? "-gama" : "", c.sbit ? "-sbit" : "", c.w, c.h);
            c.name = name;
            size_t len;
            char *data = make_png(&c, &len);
            against_stb(name, data, len, 0);
            if (variant == 1 || (variant == 2 && k % 3 == 0)) seed("image", name, data, len);
            free(data);
            n++;
        }
    printf("%d PNGs equal to stb_image's pixels, both row orders\n", n);
}

/* ---- JPEGs written with libjpeg ----------------------------------------------------------------- */

enum { J_GRAY, J_420, J_444, J_PROGRESSIVE, J_CMYK, J_YCCK, J_SCANS };

/* a smooth picture with some noise: what JPEG is for, so both decoders' rounding is all that differs */
static unsigned char *make_jpeg(int kind, int w, int h, int nscans, unsigned long *len)
{
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr err;
    c.err = jpeg_std_error(&err);
    jpeg_create_compress(&c);
    unsigned char *out = NULL;
    jpeg_mem_dest(&c, &out, len);
    c.image_width = (JDIMENSION)w;
    c.image_height = (JDIMENSION)h;
    int comps = kind == J_GRAY || kind == J_SCANS ? 1 : kind == J_CMYK || kind == J_YCCK ? 4 : 3;
    c.input_components = comps;
    c.in_color_space = comps == 1 ? JCS_GRAYSCALE : comps == 4 ? JCS_CMYK : JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, 90, TRUE);
    if (kind == J_YCCK) jpeg_set_colorspace(&c, JCS_YCCK);
    if (kind == J_444) c.comp_info[0].h_samp_factor = c.comp_info[0].v_samp_factor = 1;
    if (kind == J_PROGRESSIVE) jpeg_simple_progression(&c);
    jpeg_scan_info *scans = NULL;
    if (kind == J_SCANS) {
        /* DC, then AC coefficients one at a time, each in successive approximation from bit 10 down */
        scans = calloc((size_t)nscans, sizeof *scans);
        int s = 0;
        scans[s++] = (jpeg_scan_info){ 1, { 0 }, 0, 0, 0, 0 };
        for (int k = 1; k <= 63 && s < nscans; k++)
            for (int a = 10; a >= 0 && s < nscans; a--)
                scans[s++] = (jpeg_scan_info){ 1, { 0 }, k, k, a == 10 ? 0 : a + 1, a };
        c.scan_info = scans;
        c.num_scans = s;
    }
    jpeg_start_compress(&c, TRUE);
    unsigned char *row = malloc((size_t)w * (size_t)comps);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            for (int k = 0; k < comps; k++) {
                int v = (x * 255 / (w > 1 ? w - 1 : 1) * (k + 1) + y * 255 / (h > 1 ? h - 1 : 1) * (3 - k)) / 4;
                v += (int)(next() % 9) - 4;
                row[(size_t)x * (size_t)comps + (size_t)k] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        JSAMPROW r = row;
        jpeg_write_scanlines(&c, &r, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
    free(row);
    free(scans);
    return out;
}

static void test_jpeg_like_stb(void)
{
    static const char *const NAMES[] = { "gray", "rgb420", "rgb444", "progressive", "cmyk", "ycck" };
    static const int sizes[3][2] = { { 48, 32 }, { 37, 21 }, { 1, 1 } };
    int worst = 0;
    for (int kind = J_GRAY; kind <= J_YCCK; kind++)
        for (int s = 0; s < 3; s++) {
            unsigned long len;
            unsigned char *data = make_jpeg(kind, sizes[s][0], sizes[s][1], 0, &len);
            char name[64];
            snprintf(name, sizeof name, "jpeg-%s-%dx%d.jpg", NAMES[kind], sizes[s][0], sizes[s][1]);
            int d = against_stb(name, (const char *)data, len, JPEG_TOLERANCE);
            if (d > worst) worst = d;
            if (s == 1) seed("image", name, data, len);
            free(data);
        }
    printf("JPEGs within %d of stb_image's pixels (tolerance %d)\n", worst, JPEG_TOLERANCE);
}

/* ---- refusals ----------------------------------------------------------------------------------- */

static uint32_t crc_of(const unsigned char *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return ~c;
}

static void be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16), p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* a PNG of an IHDR claiming w x h (8-bit RGB) and nothing after it */
static size_t header_png(unsigned char out[33], uint32_t w, uint32_t h)
{
    memcpy(out, "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16);
    be32(out + 16, w);
    be32(out + 20, h);
    memcpy(out + 24, "\x08\x02\0\0\0", 5);
    be32(out + 29, crc_of(out + 12, 17));
    return 33;
}

static void test_limits(void)
{
    iks_image img;
    iks_err e = IKS_ERR_INIT;
    unsigned char big[33];
    size_t n = header_png(big, 100000, 100000);
    /* a budget of 1 MiB refuses it by its header: no pixel (and no 40 GB) was asked for */
    iks_image_opts tight = { .max_side = 200000, .max_bytes = 1 << 20 };
    expect_fail(iks_image_decode(&img, big, n, "big.png", &tight, &e), &e, IKS_E_UNSUPPORTED,
                "big.png: 100000x100000 is 38147.0 MiB of RGBA pixels, more than the 1.0 MiB a texture may take",
                "a PNG over the pixel budget");
    CHECK(img.px == NULL && img.w == 0, "nothing handed back");
    iks_image_opts gl = { .max_side = 16384 };
    expect_fail(iks_image_decode(&img, big, n, "big.png", &gl, &e), &e, IKS_E_UNSUPPORTED,
                "big.png: 100000x100000 is larger than this GL's textures (at most 16384 on a side)", "over the GL's side");
    expect_fail(iks_image_decode(&img, big, n, NULL, NULL, &e), &e, IKS_E_UNSUPPORTED,
                "100000x100000 is larger than any texture (at most 65536 on a side)", "over any side, no name");
    /* within the limits, the same header is decoded, and fails for want of pixels */
    n = header_png(big, 64, 64);
    expect_fail(iks_image_decode(&img, big, n, "h.png", NULL, &e), &e, IKS_E_FORMAT, "h.png: corrupt PNG: ",
                "a PNG of a header alone");
    seed("image", "png-header-only.png", big, n);

    /* a JPEG's header size: a small JPEG with its SOF's sizes made 60000x60000 */
    unsigned long len;
    unsigned char *j = make_jpeg(J_420, 16, 16, 0, &len);
    unsigned char *sof = NULL;
    for (unsigned long i = 2; i + 9 < len && !sof; i++)
        if (j[i] == 0xff && j[i + 1] == 0xc0) sof = j + i;
    CHECK(sof != NULL, "the JPEG has a baseline SOF");
    if (sof) {
        sof[5] = 0xea, sof[6] = 0x60, sof[7] = 0xea, sof[8] = 0x60;
        expect_fail(iks_image_decode(&img, j, len, "big.jpg", &gl, &e), &e, IKS_E_UNSUPPORTED,
                    "big.jpg: 60000x60000 is larger than this GL's textures (at most 16384 on a side)", "a JPEG's side");
        sof[5] = 0x07, sof[6] = 0xd0, sof[7] = 0x07, sof[8] = 0xd0;
        expect_fail(iks_image_decode(&img, j, len, "big.jpg", &tight, &e), &e, IKS_E_UNSUPPORTED,
                    "big.jpg: 2000x2000 is 15.3 MiB of RGBA pixels, more than the 1.0 MiB", "a JPEG over the budget");
    }
    free(j);
}

static void test_hostile(void)
{
    iks_image img;
    iks_err e = IKS_ERR_INIT;
    expect_fail(iks_image_decode(&img, "", 0, "e.png", NULL, &e), &e, IKS_E_FORMAT,
                "e.png: empty (0 bytes), not a PNG or JPEG image", "a 0-byte file");
    expect_fail(iks_image_decode(&img, "GIF89a....", 10, "g.png", NULL, &e), &e, IKS_E_FORMAT,
                "g.png: not a PNG or JPEG image", "a GIF");
    CHECK(iks_image_sniff("\x89PNG\r\n\x1a\n", 8) == IKS_IMAGE_PNG && iks_image_sniff("\xff\xd8\xff", 3) == IKS_IMAGE_JPEG &&
              iks_image_sniff("\x89PNG\r\n\x1a", 7) == IKS_IMAGE_NONE && iks_image_sniff("\xff\xd8", 2) == IKS_IMAGE_NONE,
          "sniff");

    /* truncated: a PNG anywhere after its signature is an error; a JPEG cut in its header too, while one
     * cut in its scan data decodes (grey past the cut), as stb_image and browsers show it */
    png_case c = { .name = "t.png", .color = PNG_COLOR_TYPE_RGB, .depth = 8, .w = 40, .h = 30 };
    size_t len;
    char *png = make_png(&c, &len);
    for (size_t cut = 9; cut < len - 12; cut += (len / 7) | 1) {
        char what[64];
        snprintf(what, sizeof what, "a PNG cut at %zu of %zu bytes", cut, len);
        expect_fail(iks_image_decode(&img, png, cut, "t.png", NULL, &e), &e, IKS_E_FORMAT, "t.png: corrupt PNG: ", what);
    }
    seed("image", "png-truncated.png", png, len / 2);
    free(png);
    unsigned long jl;
    unsigned char *j = make_jpeg(J_420, 64, 48, 0, &jl);
    expect_fail(iks_image_decode(&img, j, 100, "t.jpg", NULL, &e), &e, IKS_E_FORMAT, "t.jpg: corrupt JPEG: ",
                "a JPEG cut in its header");
    CHECK(iks_image_decode(&img, j, jl * 3 / 4, "t.jpg", NULL, &e) && img.w == 64 && img.h == 48,
          "a JPEG cut in its scan data: %s", iks_err_msg(&e));
    iks_image_free(&img);

    /* a DHT segment declaring 304 codes: stb_image writes past its 257-entry table on it; libjpeg
     * refuses the table */
    unsigned char dht[4 + 1 + 16 + 304];
    memcpy(dht, "\xff\xc4", 2);
    dht[2] = (unsigned char)((sizeof dht - 2) >> 8), dht[3] = (unsigned char)(sizeof dht - 2);
    dht[4] = 0x00;
    for (int i = 0; i < 16; i++) dht[5 + i] = 19;
    for (int i = 0; i < 304; i++) dht[21 + i] = (unsigned char)i;
    unsigned char *bad = malloc(jl + sizeof dht);
    memcpy(bad, j, 2);
    memcpy(bad + 2, dht, sizeof dht);
    memcpy(bad + 2 + sizeof dht, j + 2, jl - 2);
    expect_fail(iks_image_decode(&img, bad, jl + sizeof dht, "dht.jpg", NULL, &e), &e, IKS_E_FORMAT,
                "dht.jpg: corrupt JPEG: Bogus Huffman table definition", "a DHT of more than 256 codes");
    seed("image", "jpeg-dht-304-codes.jpg", bad, jl + sizeof dht);
    free(bad);
    free(j);

    /* progressive scans: 400 decode; 694 (every AC coefficient alone, bit by bit) are refused */
    j = make_jpeg(J_SCANS, 16, 16, 400, &jl);
    CHECK(iks_image_decode(&img, j, jl, "s.jpg", NULL, &e) && img.w == 16, "400 scans: %s", iks_err_msg(&e));
    iks_image_free(&img);
    free(j);
    j = make_jpeg(J_SCANS, 16, 16, 694, &jl);
    expect_fail(iks_image_decode(&img, j, jl, "s.jpg", NULL, &e), &e, IKS_E_FORMAT,
                "s.jpg: corrupt JPEG: more than 500 scans", "694 progressive scans");
    free(j);
}

/* ---- cubemaps and files ------------------------------------------------------------------------- */

static void test_files(void)
{
    iks_err e = IKS_ERR_INIT;
    char *p = iks_cube_face_path("a.b/sky.png", 3), *q = iks_cube_face_path("a.b/sky", 5),
         *r = iks_cube_face_path("sky.png", 0);
    CHECK(p && q && r && !strcmp(p, "a.b/sky_3.png") && !strcmp(q, "a.b/sky_5") && !strcmp(r, "sky.png"),
          "face paths %s %s %s", p, q, r);
    free(p), free(q), free(r);

    char path[512];
    for (int f = 0; f < 6; f++) {
        png_case c = { .name = "face", .color = PNG_COLOR_TYPE_RGB, .depth = 8, .w = f == 4 ? 8 : 4, .h = f == 4 ? 8 : 4 };
        size_t len;
        char *png = make_png(&c, &len);
        char name[32];
        snprintf(name, sizeof name, f ? "sky_%d.png" : "sky.png", f);
        write_bytes(dir, name, png, len);
        if (f == 4) { /* the odd one, and a copy of the right size for the cube that loads */
            c.w = c.h = 4;
            free(png);
            png = make_png(&c, &len);
            write_bytes(dir, "ok_4.png", png, len);
        } else {
            snprintf(name, sizeof name, f ? "ok_%d.png" : "ok.png", f);
            write_bytes(dir, name, png, len);
        }
        free(png);
    }
    iks_image_cube cube;
    snprintf(path, sizeof path, "%s/sky.png", dir);
    expect_fail(iks_image_cube_load(&cube, path, NULL, &e), &e, IKS_E_FORMAT,
                "sky_4.png: cubemap faces must be square and all the same size", "a face of another size");
    CHECK(cube.face[0] == NULL && cube.size == 0, "nothing kept of a failed cube");
    snprintf(path, sizeof path, "%s/ok.png", dir);
    CHECK(iks_image_cube_load(&cube, path, NULL, &e) && cube.size == 4, "six faces: %s", iks_err_msg(&e));
    for (int f = 0; f < 6; f++) CHECK(cube.face[f] != NULL, "face %d", f);
    iks_image_cube_free(&cube);
    snprintf(path, sizeof path, "%s/none.png", dir);
    iks_image img;
    expect_fail(iks_image_load(&img, path, NULL, &e), &e, IKS_E_IO, "none.png: No such file or directory", "no file");
    expect_fail(iks_image_load(&img, dir, NULL, &e), &e, IKS_E_IO, dir, "a directory");
}

/* ---- volumes ------------------------------------------------------------------------------------ */

static size_t volume(unsigned char *out, uint32_t x, uint32_t y, uint32_t z, unsigned ch, unsigned fmt, size_t texels)
{
    memset(out, 0, 20 + texels);
    memcpy(out, "BIN\0", 4);
    for (int i = 0; i < 4; i++) {
        out[4 + i] = (unsigned char)(x >> (8 * i));
        out[8 + i] = (unsigned char)(y >> (8 * i));
        out[12 + i] = (unsigned char)(z >> (8 * i));
    }
    out[16] = (unsigned char)ch;
    out[18] = (unsigned char)fmt, out[19] = (unsigned char)(fmt >> 8);
    for (size_t i = 0; i < texels; i++) out[20 + i] = (unsigned char)i;
    return 20 + texels;
}

static void expect_volume(const unsigned char *d, size_t n, uint32_t max, iks_volume_fault f, const char *text,
                          const char *what)
{
    iks_volume v;
    iks_err e = IKS_ERR_INIT;
    bool ok = iks_volume_parse(&v, d, n, max, "v.bin", &e);
    CHECK(!ok && v.fault == f, "%s: fault %d, expected %d", what, (int)v.fault, (int)f);
    expect_fail(ok, &e, IKS_E_FORMAT, text, what);
}

static void test_volume(void)
{
    unsigned char b[20 + 4096];
    iks_volume v;
    iks_err e = IKS_ERR_INIT;
    size_t n = volume(b, 2, 2, 2, 4, 0, 32);
    CHECK(iks_volume_parse(&v, b, n, 16, "v.bin", &e) && v.x == 2 && v.channels == 4 && v.texels == b + 20 &&
              v.texel_bytes == 32 && v.fault == IKS_VOLUME_OK, "a 2x2x2 RGBA volume: %s", iks_err_msg(&e));
    seed("volume", "vol-2x2x2x4.bin", b, n);
    n = volume(b, 3, 1, 2, 1, 10, 24);
    CHECK(iks_volume_parse(&v, b, n, 0, NULL, &e) && v.format == 10, "floats, no max: %s", iks_err_msg(&e));
    seed("volume", "vol-3x1x2-float.bin", b, n);
    expect_volume(b, 12, 16, IKS_VOLUME_SHORT, "v.bin: 12 bytes, shorter than a volume's 20-byte header", "short");
    n = volume(b, 2, 2, 2, 5, 0, 40);
    expect_volume(b, n, 16, IKS_VOLUME_LAYOUT, "v.bin: a volume of 5 channels in format 0: expected 1-4 channels",
                  "five channels");
    n = volume(b, 2, 2, 2, 1, 7, 8);
    expect_volume(b, n, 16, IKS_VOLUME_LAYOUT, "a volume of 1 channels in format 7", "format 7");
    n = volume(b, 100000, 100000, 100000, 4, 0, 0);
    expect_volume(b, n, 2048, IKS_VOLUME_SIDES, "v.bin: a volume of 100000x100000x100000: this GL takes 1 to 2048",
                  "sides beyond the max");
    n = volume(b, 2, 0, 2, 1, 0, 0);
    expect_volume(b, n, 0, IKS_VOLUME_SIDES, "a volume of 2x0x2: a side of no texels", "a side of 0, no max");
    n = volume(b, 2, 2, 2, 4, 0, 35);
    expect_volume(b, n, 16, IKS_VOLUME_BYTES, "v.bin: a 2x2x2 volume of 4 channels holds 35 bytes of texels, not 32",
                  "texels that do not fill the sizes");
    n = volume(b, 2, 2, 2, 4, 0, 31);
    expect_volume(b, n, 0, IKS_VOLUME_BYTES, "holds 31 bytes of texels, not 32", "one byte short");
    /* 2^31 x 2^31 x 4 texels of 16 bytes: 2^68, which wraps to 0 in 64 bits */
    n = volume(b, 0x80000000u, 0x80000000u, 4, 4, 10, 16);
    expect_volume(b, n, 0, IKS_VOLUME_BYTES, "holds 16 bytes of texels, far fewer than its sizes need",
                  "sizes whose product overflows");
    seed("volume", "vol-overflow.bin", b, n);
    n = volume(b, 0xffffffffu, 0xffffffffu, 0xffffffffu, 4, 10, 0);
    expect_volume(b, n, 0, IKS_VOLUME_BYTES, "far fewer than its sizes need", "the largest sizes");
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--corpus")) {
        corpus = argv[2];
        mkdir(corpus, 0777);
    }
    snprintf(dir, sizeof dir, "/tmp/ikshade-test-decode-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    test_png_like_stb();
    test_jpeg_like_stb();
    test_limits();
    test_hostile();
    test_files();
    test_volume();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
