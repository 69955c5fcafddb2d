/* hdrio.c: EXR (OpenEXR's C API, OpenEXRCore) and 16-bit PNG (libpng) encoders; see hdrio.h. */
#include "io/hdrio.h"
#include "base/buf.h"
#include "base/dynlib.h"
#include "base/userfile.h"

#include <math.h>
#include <openexr.h>
#include <png.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* OpenEXR's C library is loaded when the first .exr is written (base/dynlib.h): a program that never
 * writes one does not map it. CMake gives its file name (IKS_EXR_SONAME: the release is in it). */
#define EXR_FNS(X)                                                                                       \
    X(exr_start_write) X(exr_add_part) X(exr_initialize_required_attr_simple)                            \
    X(exr_set_zip_compression_level) X(exr_add_channel) X(exr_write_header) X(exr_get_scanlines_per_chunk) \
    X(exr_write_scanline_chunk_info) X(exr_encoding_update) X(exr_encoding_initialize)                   \
    X(exr_encoding_choose_default_routines) X(exr_encoding_run) X(exr_encoding_destroy) X(exr_finish)   \
    X(exr_get_error_code_as_string) X(exr_attr_set_string) X(exr_start_read) X(exr_get_count)             \
    X(exr_get_storage) X(exr_get_data_window) X(exr_get_channels) X(exr_attr_get_string)                 \
    X(exr_read_scanline_chunk_info) X(exr_decoding_initialize) X(exr_decoding_update)                    \
    X(exr_decoding_choose_default_routines) X(exr_decoding_run) X(exr_decoding_destroy)
static struct {
    EXR_FNS(IKS_DYN_PTR)
} lx;
static iks_dynlib libexr = IKS_DYNLIB(IKS_EXR_SONAME, "libopenexr-3-1-30");

#define IKS_DYN_TABLE lx
IKS_DYNLIB_LOADER(exr_loaded, EXR_FNS, libexr, "EXR")
#undef IKS_DYN_TABLE
#define exr_start_write (*lx.exr_start_write)
#define exr_add_part (*lx.exr_add_part)
#define exr_initialize_required_attr_simple (*lx.exr_initialize_required_attr_simple)
#define exr_set_zip_compression_level (*lx.exr_set_zip_compression_level)
#define exr_add_channel (*lx.exr_add_channel)
#define exr_write_header (*lx.exr_write_header)
#define exr_get_scanlines_per_chunk (*lx.exr_get_scanlines_per_chunk)
#define exr_write_scanline_chunk_info (*lx.exr_write_scanline_chunk_info)
#define exr_encoding_update (*lx.exr_encoding_update)
#define exr_encoding_initialize (*lx.exr_encoding_initialize)
#define exr_encoding_choose_default_routines (*lx.exr_encoding_choose_default_routines)
#define exr_encoding_run (*lx.exr_encoding_run)
#define exr_encoding_destroy (*lx.exr_encoding_destroy)
#define exr_finish (*lx.exr_finish)
#define exr_get_error_code_as_string (*lx.exr_get_error_code_as_string)
#define exr_attr_set_string (*lx.exr_attr_set_string)
#define exr_start_read (*lx.exr_start_read)
#define exr_get_count (*lx.exr_get_count)
#define exr_get_storage (*lx.exr_get_storage)
#define exr_get_data_window (*lx.exr_get_data_window)
#define exr_get_channels (*lx.exr_get_channels)
#define exr_attr_get_string (*lx.exr_attr_get_string)
#define exr_read_scanline_chunk_info (*lx.exr_read_scanline_chunk_info)
#define exr_decoding_initialize (*lx.exr_decoding_initialize)
#define exr_decoding_update (*lx.exr_decoding_update)
#define exr_decoding_choose_default_routines (*lx.exr_decoding_choose_default_routines)
#define exr_decoding_run (*lx.exr_decoding_run)
#define exr_decoding_destroy (*lx.exr_decoding_destroy)

/* ---- a growing buffer that both libraries write into ----------------------------------------- */

typedef struct {
    uint8_t *p;
    size_t n, cap;
    bool oom;
} membuf;

static bool mem_put(membuf *m, const void *data, size_t len, size_t offset)
{
    if (m->oom) return false;
    size_t end = offset + len;
    if (end < offset || !IKS_GROW(m->p, end, m->cap)) {
        m->oom = true;
        return false;
    }
    memcpy(m->p + offset, data, len);
    if (end > m->n) m->n = end;
    return true;
}

/* ---- EXR --------------------------------------------------------------------------------------- */

/* OpenEXR writes at offsets (the chunk table is filled in at the end) */
static int64_t exr_write(exr_const_context_t ctxt, void *user, const void *buf, uint64_t sz, uint64_t offset,
                         exr_stream_error_func_ptr_t error_cb)
{
    (void)ctxt;
    (void)error_cb;
    return mem_put(user, buf, (size_t)sz, (size_t)offset) ? (int64_t)sz : -1;
}

static bool exr_encode(const float *rgba, int w, int h, bool full, const char *id, uint8_t **out, size_t *len,
                       iks_err *e)
{
    *out = NULL;
    *len = 0;
    if (!exr_loaded(e)) return false;
    membuf m = { 0 };
    /* OpenEXR's scanlines go top row first: flip GL's rows once, into a buffer the encoder reads */
    size_t row = (size_t)w * 4;
    float *top = malloc(row * (size_t)h * sizeof *top);
    if (!top) return iks_err_set(e, IKS_E_NOMEM, "EXR: out of memory for a %dx%d frame", w, h);
    for (int y = 0; y < h; y++) memcpy(top + row * (size_t)y, rgba + row * (size_t)(h - 1 - y), row * sizeof *top);
    /* a NaN in a pixel is 0, as in every other output (and on the site): compositors spread a NaN
     * through every filter it meets. Infinities stay: 1.0/0.0 is +inf in both, and HDR can hold it */
    for (size_t i = 0; i < row * (size_t)h; i++)
        if (isnan(top[i])) top[i] = 0.0f;

    exr_context_t ctxt = NULL;
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.user_data = &m;
    init.write_fn = exr_write;
    exr_encode_pipeline_t enc;
    bool have_enc = false;
    int part = 0;
    exr_result_t rv = exr_start_write(&ctxt, "frame.exr", EXR_WRITE_FILE_DIRECTLY, &init);
    if (rv == EXR_ERR_SUCCESS) rv = exr_add_part(ctxt, "frame", EXR_STORAGE_SCANLINE, &part);
    /* ZIP: lossless, and on rendered frames several times smaller than none at a fraction of PIZ's cost */
    if (rv == EXR_ERR_SUCCESS) rv = exr_initialize_required_attr_simple(ctxt, part, w, h, EXR_COMPRESSION_ZIP);
    /* zlib's fastest level: several times faster than the default 4 on rendered frames, a little larger */
    if (rv == EXR_ERR_SUCCESS) rv = exr_set_zip_compression_level(ctxt, part, 1);
    static const char *const names[4] = { "R", "G", "B", "A" };
    exr_pixel_type_t pt = full ? EXR_PIXEL_FLOAT : EXR_PIXEL_HALF;
    for (int c = 0; c < 4 && rv == EXR_ERR_SUCCESS; c++)
        rv = exr_add_channel(ctxt, part, names[c], pt, EXR_PERCEPTUALLY_LINEAR, 1, 1);
    if (rv == EXR_ERR_SUCCESS && id) rv = exr_attr_set_string(ctxt, part, IKS_FRAME_ID_KEY, id);
    if (rv == EXR_ERR_SUCCESS) rv = exr_write_header(ctxt);
    int32_t lines = 1;
    if (rv == EXR_ERR_SUCCESS) rv = exr_get_scanlines_per_chunk(ctxt, part, &lines);
    for (int y = 0; y < h && rv == EXR_ERR_SUCCESS; y += lines) {
        exr_chunk_info_t ci;
        rv = exr_write_scanline_chunk_info(ctxt, part, y, &ci);
        if (rv != EXR_ERR_SUCCESS) break;
        rv = have_enc ? exr_encoding_update(ctxt, part, &ci, &enc) : exr_encoding_initialize(ctxt, part, &ci, &enc);
        if (rv != EXR_ERR_SUCCESS) break;
        have_enc = true;
        /* the channels come sorted by name (A B G R): each reads its component of our RGBA rows, the
         * library converting float to half where the file's channel is half */
        for (int c = 0; c < enc.channel_count; c++) {
            exr_coding_channel_info_t *ch = &enc.channels[c];
            int k = 0;
            while (k < 4 && strcmp(ch->channel_name, names[k]) != 0) k++;
            ch->user_data_type = EXR_PIXEL_FLOAT;
            ch->user_bytes_per_element = 4;
            ch->user_pixel_stride = 4 * (int32_t)sizeof(float);
            ch->user_line_stride = (int32_t)(row * sizeof(float));
            ch->encode_from_ptr = (const uint8_t *)(top + row * (size_t)y + (k < 4 ? k : 0));
        }
        rv = exr_encoding_choose_default_routines(ctxt, part, &enc);
        if (rv == EXR_ERR_SUCCESS) rv = exr_encoding_run(ctxt, part, &enc);
    }
    if (have_enc) exr_encoding_destroy(ctxt, &enc);
    exr_result_t fin = ctxt ? exr_finish(&ctxt) : EXR_ERR_SUCCESS;
    if (rv == EXR_ERR_SUCCESS) rv = fin;
    free(top);
    if (rv != EXR_ERR_SUCCESS || m.oom) {
        free(m.p);
        if (m.oom) return iks_err_set(e, IKS_E_NOMEM, "EXR: out of memory encoding a %dx%d frame", w, h);
        return iks_err_set(e, IKS_E_IO, "EXR: OpenEXR failed: %s", exr_get_error_code_as_string(rv));
    }
    *out = m.p;
    *len = m.n;
    return true;
}

bool iks_exr_encode(const float *rgba, int w, int h, bool full, uint8_t **out, size_t *len, iks_err *e)
{
    return exr_encode(rgba, w, h, full, NULL, out, len, e);
}

bool iks_exr_image(const void *px, const iks_image_opts *o, uint8_t **out, size_t *len, iks_err *e)
{
    return exr_encode(px, o->w, o->h, o->depth == 32, o->id, out, len, e);
}

/* ---- checking an EXR frame on disk ------------------------------------------------------------- */

typedef struct {
    const uint8_t *p;
    size_t n;
} memsrc;

static int64_t exr_read(exr_const_context_t ctxt, void *user, void *buf, uint64_t sz, uint64_t offset,
                        exr_stream_error_func_ptr_t error_cb)
{
    (void)ctxt;
    (void)error_cb;
    const memsrc *m = user;
    if (offset >= m->n) return 0;
    size_t n = sz < m->n - offset ? (size_t)sz : m->n - (size_t)offset;
    memcpy(buf, m->p + offset, n);
    return (int64_t)n;
}

static int64_t exr_size(exr_const_context_t ctxt, void *user)
{
    (void)ctxt;
    return (int64_t)((const memsrc *)user)->n;
}

/* a damaged file is an answer (redraw it), not a message on stderr */
static void exr_quiet(exr_const_context_t ctxt, exr_result_t code, const char *msg)
{
    (void)ctxt;
    (void)code;
    (void)msg;
}

/* The header as iks_exr_encode writes it for o (one scanline part, o's size, channels A B G R of the
 * depth's type), its identity into id, and every chunk decoded: a file cut short or damaged fails */
static bool exr_whole(exr_context_t ctxt, const iks_image_opts *o, char *id, size_t idn)
{
    int parts = 0;
    exr_storage_t st;
    exr_attr_box2i_t dw;
    const exr_attr_chlist_t *ch = NULL;
    if (exr_get_count(ctxt, &parts) != EXR_ERR_SUCCESS || parts != 1 ||
        exr_get_storage(ctxt, 0, &st) != EXR_ERR_SUCCESS || st != EXR_STORAGE_SCANLINE ||
        exr_get_data_window(ctxt, 0, &dw) != EXR_ERR_SUCCESS || dw.min.x != 0 || dw.min.y != 0 ||
        dw.max.x != o->w - 1 || dw.max.y != o->h - 1 || exr_get_channels(ctxt, 0, &ch) != EXR_ERR_SUCCESS ||
        !ch || ch->num_channels != 4)
        return false;
    exr_pixel_type_t pt = o->depth == 32 ? EXR_PIXEL_FLOAT : EXR_PIXEL_HALF;
    static const char *const sorted[4] = { "A", "B", "G", "R" };
    for (int c = 0; c < 4; c++)
        if (strcmp(ch->entries[c].name.str, sorted[c]) != 0 || ch->entries[c].pixel_type != pt) return false;
    int32_t n = 0;
    const char *s = NULL;
    if (exr_attr_get_string(ctxt, 0, IKS_FRAME_ID_KEY, &n, &s) == EXR_ERR_SUCCESS && s && n >= 0 && (size_t)n < idn) {
        memcpy(id, s, (size_t)n);
        id[n] = '\0';
    }
    int32_t lines = 1;
    if (exr_get_scanlines_per_chunk(ctxt, 0, &lines) != EXR_ERR_SUCCESS || lines < 1) return false;
    float *px = malloc((size_t)o->w * (size_t)lines * 4 * sizeof *px);
    if (!px) return false;
    exr_decode_pipeline_t dec;
    bool have_dec = false, ok = true;
    for (int y = 0; y < o->h && ok; y += lines) {
        exr_chunk_info_t ci;
        ok = exr_read_scanline_chunk_info(ctxt, 0, y, &ci) == EXR_ERR_SUCCESS;
        if (ok) ok = (have_dec ? exr_decoding_update(ctxt, 0, &ci, &dec) : exr_decoding_initialize(ctxt, 0, &ci, &dec)) ==
                     EXR_ERR_SUCCESS;
        if (!ok) break;
        have_dec = true;
        for (int c = 0; c < dec.channel_count; c++) {
            exr_coding_channel_info_t *cc = &dec.channels[c];
            cc->user_data_type = EXR_PIXEL_FLOAT;
            cc->user_bytes_per_element = 4;
            cc->user_pixel_stride = 4 * (int32_t)sizeof(float);
            cc->user_line_stride = o->w * 4 * (int32_t)sizeof(float);
            cc->decode_to_ptr = (uint8_t *)(px + (c & 3));
        }
        ok = exr_decoding_choose_default_routines(ctxt, 0, &dec) == EXR_ERR_SUCCESS &&
             exr_decoding_run(ctxt, 0, &dec) == EXR_ERR_SUCCESS;
    }
    if (have_dec) exr_decoding_destroy(ctxt, &dec);
    free(px);
    return ok;
}

bool iks_exr_check_frame(const char *path, const iks_image_opts *o, char *id, size_t idn)
{
    if (idn) id[0] = '\0';
    iks_err e = IKS_ERR_INIT;
    bool loaded = exr_loaded(&e);
    iks_err_clear(&e);
    /* floats uncompressed, and the header: no frame of o's size is larger */
    size_t len;
    char *data = loaded ? iks_userfile_read(path, (size_t)o->w * (size_t)o->h * 16 + (1u << 20), 0, &len) : NULL;
    if (!data) return false;
    memsrc m = { (const uint8_t *)data, len };
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.user_data = &m;
    init.read_fn = exr_read;
    init.size_fn = exr_size;
    init.error_handler_fn = exr_quiet;
    exr_context_t ctxt = NULL;
    bool ok = exr_start_read(&ctxt, path, &init) == EXR_ERR_SUCCESS && exr_whole(ctxt, o, id, idn);
    if (ctxt) exr_finish(&ctxt);
    free(data);
    if (!ok && idn) id[0] = '\0';
    return ok;
}

/* ---- 16-bit PNG -------------------------------------------------------------------------------- */

static void png_mem_write(png_structp png, png_bytep data, png_size_t n)
{
    membuf *m = png_get_io_ptr(png);
    mem_put(m, data, n, m->n);
}

static void png_mem_flush(png_structp png) { (void)png; }

static uint16_t to16(float v)
{
    /* NaN reads as 0; the rest clamped to [0, 1] */
    if (!(v > 0.0f)) return 0;
    if (v >= 1.0f) return 65535;
    return (uint16_t)lrintf(v * 65535.0f);
}

/* libpng reports errors by longjmp: nothing here is changed after the setjmp */
static bool write_png16(membuf *m, png_bytep *rows, int w, int h, bool alpha)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        if (png) png_destroy_write_struct(&png, NULL);
        return false;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return false;
    }
    png_set_write_fn(png, m, png_mem_write, png_mem_flush);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 16, alpha ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    /* the fastest level and the Up filter, as for 8-bit frames: 16-bit frames are 6 bytes a pixel */
    png_set_compression_level(png, 1);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
    png_set_rows(png, info, rows);
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    png_destroy_write_struct(&png, &info);
    return true;
}

bool iks_png16_encode(const float *rgba, int w, int h, bool alpha, uint8_t **out, size_t *len, iks_err *e)
{
    *out = NULL;
    *len = 0;
    int ch = alpha ? 4 : 3;
    size_t stride = (size_t)w * (size_t)ch * 2;
    uint8_t *px = malloc(stride * (size_t)h);
    png_bytep *rows = malloc(sizeof *rows * (size_t)h);
    membuf m = { 0 };
    bool ok = px && rows;
    for (int y = 0; ok && y < h; y++) {
        const float *src = rgba + (size_t)(h - 1 - y) * (size_t)w * 4; /* top row first */
        uint8_t *dst = px + stride * (size_t)y;
        for (int x = 0; x < w; x++)
            for (int c = 0; c < ch; c++) {
                uint16_t v = to16(src[(size_t)x * 4 + (size_t)c]);
                *dst++ = (uint8_t)(v >> 8); /* PNG is big-endian */
                *dst++ = (uint8_t)(v & 255);
            }
        rows[y] = px + stride * (size_t)y;
    }
    ok = ok && write_png16(&m, rows, w, h, alpha);
    free(rows);
    free(px);
    if (!ok || m.oom) {
        free(m.p);
        /* libpng fails only for want of memory here: the rows are ours and the sink is memory */
        return iks_err_set(e, IKS_E_NOMEM, "PNG: out of memory encoding a %dx%d 16-bit frame", w, h);
    }
    *out = m.p;
    *len = m.n;
    return true;
}
