/* image.c: PNG through libpng's low-level API and JPEG through libjpeg-turbo, from bytes in memory to
 * RGBA8 rows (see image.h). Each library reports through handlers of ours that keep the message and
 * jump back (setjmp/longjmp); warnings are dropped. What it does not do: GL, or reading the file in
 * any other way than whole through src/base/userfile.c. */
#include "media/image.h"

#include "base/userfile.h"

#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h> /* before jpeglib.h, which names FILE */
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

/* libpng's ancillary chunks are held to this many bytes each (none is read but tRNS: see below) */
#define PNG_CHUNK_MAX ((size_t)8 << 20)
/* A real progressive JPEG has a dozen scans; each scan is a pass over every coefficient of the image, so
 * a file of thousands of tiny scans costs minutes of CPU for a few kilobytes (libjpeg-turbo's own
 * fuzzers and TurboJPEG stop at 500) */
#define JPEG_MAX_SCANS 500

/* "name: " + the message, or the message alone when name is NULL; returns false */
static bool fail(iks_err *e, iks_code code, const char *name, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool fail(iks_err *e, iks_code code, const char *name, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return iks_err_set(e, code, "%s%s%s", name ? name : "", name ? ": " : "", msg);
}

iks_image_kind iks_image_sniff(const void *data, size_t len)
{
    const unsigned char *p = data;
    if (len >= 8 && !memcmp(p, "\x89PNG\r\n\x1a\n", 8)) return IKS_IMAGE_PNG;
    if (len >= 3 && !memcmp(p, "\xff\xd8\xff", 3)) return IKS_IMAGE_JPEG;
    return IKS_IMAGE_NONE;
}

static int max_side(const iks_image_opts *o) { return o->max_side > 0 ? o->max_side : IKS_IMAGE_SIDE_MAX; }

/* The limits, from the header alone: before any pixel memory is asked for */
static bool fits(uint32_t w, uint32_t h, const char *name, const iks_image_opts *o, iks_err *e)
{
    if (w == 0 || h == 0) return fail(e, IKS_E_FORMAT, name, "a %" PRIu32 "x%" PRIu32 " image has no pixels", w, h);
    uint32_t max = (uint32_t)max_side(o);
    /* GL would refuse the texture and the channel would read black, silently */
    if (w > max || h > max)
        return fail(e, IKS_E_UNSUPPORTED, name, "%" PRIu32 "x%" PRIu32 " is larger than %s (at most %" PRIu32 " on a side)",
                    w, h, o->max_side > 0 ? "this GL's textures" : "any texture", max);
    size_t budget = o->max_bytes ? o->max_bytes : IKS_IMAGE_BUDGET;
    uint64_t bytes = (uint64_t)w * h * 4; /* both at most 2^31: no overflow */
    if (bytes > budget)
        return fail(e, IKS_E_UNSUPPORTED, name, "%" PRIu32 "x%" PRIu32 " is %.1f MiB of RGBA pixels, more than the %.1f MiB "
                    "a texture may take", w, h, (double)bytes / (1 << 20), (double)budget / (1 << 20));
    if (o->toy_budget && bytes > o->toy_left)
        return fail(e, IKS_E_UNSUPPORTED, name, "%" PRIu32 "x%" PRIu32 " is %.1f MiB of RGBA pixels, more than the %.1f MiB "
                    "left of the toy's media budget (media_budget %.0f MiB: every image, cubemap face and volume it "
                    "decodes)", w, h, (double)bytes / (1 << 20), (double)o->toy_left / (1 << 20),
                    (double)o->toy_budget / (1 << 20));
    return true;
}

/* row y of the image (0 the top) in the caller's order */
static unsigned char *row_at(unsigned char *px, int w, int h, int y, bool vflip)
{
    return px + (size_t)(vflip ? h - 1 - y : y) * (size_t)w * 4;
}

/* ---- PNG ---------------------------------------------------------------------------------------- */

/* Everything that lives across libpng's longjmp lives here, in the caller's frame, not in locals of
 * the function that called setjmp (whose changed locals would be indeterminate after the jump). */
typedef struct {
    const unsigned char *data;
    size_t len, pos;
    png_structp png;
    png_infop info;
    unsigned char *px;
    png_bytep *rows;
    int w, h;
    bool nomem;
    char why[256];
} png_job;

static void png_fail(png_structp png, png_const_charp msg)
{
    png_job *j = png_get_error_ptr(png);
    snprintf(j->why, sizeof j->why, "%s", msg);
    png_longjmp(png, 1);
}

static void png_quiet(png_structp png, png_const_charp msg) { (void)png, (void)msg; }

static void png_feed(png_structp png, png_bytep out, size_t n)
{
    png_job *j = png_get_io_ptr(png);
    if (n > j->len - j->pos) png_error(png, "the file ends early");
    memcpy(out, j->data + j->pos, n);
    j->pos += n;
}

/* 0: decoded; 1: libpng failed (j->why), or memory ran out (j->nomem); 2: beyond the limits (e set) */
static int png_run(png_job *j, const char *name, const iks_image_opts *o, iks_err *e)
{
    if (setjmp(png_jmpbuf(j->png))) return 1;
    png_structp png = j->png;
    png_infop info = j->info;
    png_set_read_fn(png, j, png_feed);
    /* limits: the side (checked by us already: this is libpng's own refusal behind it), and what
     * ancillary chunks may cost */
    png_set_user_limits(png, (png_uint_32)max_side(o), (png_uint_32)max_side(o));
    png_set_chunk_malloc_max(png, PNG_CHUNK_MAX);
    png_set_chunk_cache_max(png, 128);
    /* Only IHDR, PLTE, tRNS, IDAT and IEND are read, as stb_image read them: gAMA, sRGB, iCCP, sBIT and
     * the text chunks would change no pixel here anyway (no gamma call is made), and are code that
     * hostile bytes need not reach. */
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    /* stb_image checked neither the chunks' CRCs nor zlib's Adler-32, so a texture that loaded before
     * loads now; libpng still checks every length and every byte it decodes */
    png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
#ifdef PNG_IGNORE_ADLER32
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_read_info(png, info);
    png_uint_32 w, h;
    int depth, color, interlace;
    png_get_IHDR(png, info, &w, &h, &depth, &color, &interlace, NULL, NULL);
    if (!fits(w, h, name, o, e)) return 2;
    /* stb_image's conversions to RGBA8, one for one: palette and tRNS expanded, low bit depths scaled
     * (x * 255 / max), 16 bits cut to the high byte (x >> 8: strip, not scale), gray copied to R, G, B,
     * opaque alpha added */
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_strip_16(png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) png_error(png, "rows of an unexpected size after conversion");
    j->w = (int)w;
    j->h = (int)h;
    j->px = malloc((size_t)w * h * 4);
    j->rows = malloc(h * sizeof *j->rows);
    if (!j->px || !j->rows) {
        j->nomem = true;
        return 1;
    }
    for (int y = 0; y < (int)h; y++) j->rows[y] = row_at(j->px, (int)w, (int)h, y, o->vflip);
    /* every pass of an interlaced image included; what follows the pixels (IEND, a last text chunk) is
     * not needed and not read, as stb_image did not check it either */
    png_read_image(png, j->rows);
    return 0;
}

static bool decode_png(iks_image *img, const unsigned char *data, size_t len, const char *name,
                       const iks_image_opts *o, iks_err *e)
{
    /* the header's size, before libpng is even started: IHDR is the first chunk of every PNG it reads */
    if (len >= 24 && !memcmp(data + 12, "IHDR", 4)) {
        uint32_t w = (uint32_t)data[16] << 24 | (uint32_t)data[17] << 16 | (uint32_t)data[18] << 8 | data[19];
        uint32_t h = (uint32_t)data[20] << 24 | (uint32_t)data[21] << 16 | (uint32_t)data[22] << 8 | data[23];
        if (w && h && !fits(w, h, name, o, e)) return false;
    }
    png_job j = { .data = data, .len = len };
    j.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &j, png_fail, png_quiet);
    if (j.png) j.info = png_create_info_struct(j.png);
    if (!j.png || !j.info) {
        png_destroy_read_struct(&j.png, NULL, NULL);
        return fail(e, IKS_E_NOMEM, name, "out of memory");
    }
    int r = png_run(&j, name, o, e);
    png_destroy_read_struct(&j.png, &j.info, NULL);
    free(j.rows);
    if (r == 0) {
        img->w = j.w;
        img->h = j.h;
        img->px = j.px;
        return true;
    }
    free(j.px);
    if (r == 2) return false;
    if (j.nomem) return fail(e, IKS_E_NOMEM, name, "out of memory for %dx%d pixels", j.w, j.h);
    return fail(e, IKS_E_FORMAT, name, "corrupt PNG: %s", j.why[0] ? j.why : "libpng failed");
}

/* ---- JPEG --------------------------------------------------------------------------------------- */

typedef struct {
    struct jpeg_error_mgr pub; /* first: libjpeg hands us this pointer */
    jmp_buf jump;
    char why[JMSG_LENGTH_MAX + 64];
} jpeg_errors;

typedef struct {
    struct jpeg_decompress_struct cinfo;
    jpeg_errors err;
    struct jpeg_progress_mgr progress;
    unsigned char *px;
    int w, h;
    bool nomem;
} jpeg_job;

static void jpeg_fail(j_common_ptr cinfo)
{
    jpeg_errors *err = (jpeg_errors *)cinfo->err;
    char msg[JMSG_LENGTH_MAX];
    err->pub.format_message(cinfo, msg);
    snprintf(err->why, sizeof err->why, "%s", msg);
    longjmp(err->jump, 1);
}

/* warnings (corrupt data that libjpeg decodes past, as stb_image did) and trace messages: not printed */
static void jpeg_quiet(j_common_ptr cinfo) { (void)cinfo; }
static void jpeg_emit(j_common_ptr cinfo, int level)
{
    if (level < 0) cinfo->err->num_warnings++;
}

/* a failure of our own, worded as libjpeg's are */
static void jpeg_refuse(j_common_ptr cinfo, const char *why)
{
    jpeg_errors *err = (jpeg_errors *)cinfo->err;
    snprintf(err->why, sizeof err->why, "%s", why);
    longjmp(err->jump, 1);
}

/* called as the input is read, at least once a scan */
static void jpeg_progress(j_common_ptr cinfo)
{
    if (cinfo->is_decompressor && ((j_decompress_ptr)cinfo)->input_scan_number > JPEG_MAX_SCANS) {
        char why[64];
        snprintf(why, sizeof why, "more than %d scans", JPEG_MAX_SCANS);
        jpeg_refuse(cinfo, why);
    }
}

/* x * y / 255, rounded as stb_image's stbi__blinn_8x8 rounds it */
static unsigned char blinn(unsigned x, unsigned y)
{
    unsigned t = x * y + 128;
    return (unsigned char)((t + (t >> 8)) >> 8);
}

/* 0: decoded; 1: libjpeg failed (why) or memory ran out (nomem); 2: beyond the limits (e set) */
static int jpeg_run(jpeg_job *j, const unsigned char *data, size_t len, const char *name, const iks_image_opts *o,
                    iks_err *e)
{
    if (setjmp(j->err.jump)) return 1;
    j_decompress_ptr cinfo = &j->cinfo;
    jpeg_create_decompress(cinfo);
    cinfo->progress = &j->progress;
    /* libjpeg's own allocations beyond its small ones (a progressive file's coefficients: at most two
     * bytes a sample, four samples a pixel) are held to what an image within the budget needs; more
     * would need a backing store, which libjpeg-turbo refuses */
    size_t budget = o->max_bytes ? o->max_bytes : IKS_IMAGE_BUDGET;
    cinfo->mem->max_memory_to_use = (long)(2 * budget + ((size_t)16 << 20));
    jpeg_mem_src(cinfo, data, (unsigned long)len);
    jpeg_read_header(cinfo, TRUE);
    if (!fits(cinfo->image_width, cinfo->image_height, name, o, e)) return 2;
    /* Adobe's CMYK and YCCK come out as (inverted) CMYK, made RGB below as stb_image made it */
    bool cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    cinfo->out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(cinfo);
    if (cinfo->output_width != cinfo->image_width || cinfo->output_height != cinfo->image_height ||
        cinfo->output_components != 4)
        jpeg_refuse((j_common_ptr)cinfo, "not decoded at its own size into 4 channels");
    int w = (int)cinfo->output_width, h = (int)cinfo->output_height;
    j->w = w;
    j->h = h;
    if (!(j->px = malloc((size_t)w * h * 4))) {
        j->nomem = true;
        return 1;
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        int y = (int)cinfo->output_scanline;
        JSAMPROW row = row_at(j->px, w, h, y, o->vflip);
        if (jpeg_read_scanlines(cinfo, &row, 1) != 1) jpeg_refuse((j_common_ptr)cinfo, "a row not decoded");
        if (cmyk)
            for (int x = 0; x < w; x++) {
                unsigned char *p = row + 4 * x;
                unsigned k = p[3];
                p[0] = blinn(p[0], k), p[1] = blinn(p[1], k), p[2] = blinn(p[2], k), p[3] = 255;
            }
    }
    /* what follows the last scan is not read: stb_image did not need an EOI either */
    return 0;
}

static bool decode_jpeg(iks_image *img, const unsigned char *data, size_t len, const char *name,
                        const iks_image_opts *o, iks_err *e)
{
    jpeg_job *j = calloc(1, sizeof *j);
    if (!j) return fail(e, IKS_E_NOMEM, name, "out of memory");
    j->cinfo.err = jpeg_std_error(&j->err.pub);
    j->err.pub.error_exit = jpeg_fail;
    j->err.pub.output_message = jpeg_quiet;
    j->err.pub.emit_message = jpeg_emit;
    j->progress.progress_monitor = jpeg_progress;
    int r = jpeg_run(j, data, len, name, o, e);
    jpeg_destroy_decompress(&j->cinfo);
    bool ok = r == 0;
    if (ok) {
        img->w = j->w;
        img->h = j->h;
        img->px = j->px;
    } else {
        free(j->px);
        if (r == 1 && j->nomem) fail(e, IKS_E_NOMEM, name, "out of memory for %dx%d pixels", j->w, j->h);
        else if (r == 1) fail(e, IKS_E_FORMAT, name, "corrupt JPEG: %s", j->err.why);
    }
    free(j);
    return ok;
}

/* ---- the entry points --------------------------------------------------------------------------- */

bool iks_image_decode(iks_image *img, const void *data, size_t len, const char *name, const iks_image_opts *o,
                      iks_err *e)
{
    static const iks_image_opts defaults = { 0 };
    memset(img, 0, sizeof *img);
    if (!o) o = &defaults;
    switch (iks_image_sniff(data, len)) {
    case IKS_IMAGE_PNG: return decode_png(img, data, len, name, o, e);
    case IKS_IMAGE_JPEG: return decode_jpeg(img, data, len, name, o, e);
    case IKS_IMAGE_NONE: break;
    }
    if (len == 0) return fail(e, IKS_E_FORMAT, name, "empty (0 bytes), not a PNG or JPEG image");
    return fail(e, IKS_E_FORMAT, name, "not a PNG or JPEG image");
}

bool iks_image_load(iks_image *img, const char *path, const iks_image_opts *o, iks_err *e)
{
    memset(img, 0, sizeof *img);
    size_t len;
    char *data = iks_userfile_read(path, IKS_IMAGE_FILE_MAX, 0, &len);
    if (!data) {
        int err = errno;
        if (err == EFBIG) return iks_err_set(e, IKS_E_IO, "%s: larger than 256 MiB, not a texture", path);
        return iks_err_set(e, err == ENOMEM ? IKS_E_NOMEM : IKS_E_IO, "%s: %s", path, iks_userfile_strerror(err));
    }
    bool ok = iks_image_decode(img, data, len, path, o, e);
    free(data);
    return ok;
}

void iks_image_free(iks_image *img)
{
    free(img->px);
    memset(img, 0, sizeof *img);
}

/* ---- cubemaps ----------------------------------------------------------------------------------- */

char *iks_cube_face_path(const char *path, int face)
{
    const char *dot = strrchr(path, '.');
    if (dot && strchr(dot, '/')) dot = NULL; /* a dot in a directory's name, none in the file's */
    char *p = NULL;
    int r;
    if (face == 0) r = asprintf(&p, "%s", path);
    else if (dot) r = asprintf(&p, "%.*s_%d%s", (int)(dot - path), path, face, dot);
    else r = asprintf(&p, "%s_%d", path, face);
    return r < 0 ? NULL : p;
}

bool iks_image_cube_load(iks_image_cube *c, const char *path, const iks_image_opts *o, iks_err *e)
{
    memset(c, 0, sizeof *c);
    static const iks_image_opts none;
    iks_image_opts fo = o ? *o : none;
    for (int face = 0; face < 6; face++) {
        char *p = iks_cube_face_path(path, face);
        if (!p) {
            iks_image_cube_free(c);
            return iks_err_set(e, IKS_E_NOMEM, "out of memory");
        }
        iks_image img;
        bool ok = iks_image_load(&img, p, &fo, e);
        /* the faces take the toy's budget in turn */
        if (ok && fo.toy_budget) fo.toy_left -= (size_t)img.w * (size_t)img.h * 4;
        if (ok && (img.w != img.h || (face && img.w != c->size)))
            ok = iks_err_set(e, IKS_E_FORMAT, "%s: cubemap faces must be square and all the same size", p);
        free(p);
        if (!ok) {
            iks_image_free(&img);
            iks_image_cube_free(c);
            return false;
        }
        c->size = img.w;
        c->face[face] = img.px;
    }
    return true;
}

void iks_image_cube_free(iks_image_cube *c)
{
    for (int f = 0; f < 6; f++) free(c->face[f]);
    memset(c, 0, sizeof *c);
}
