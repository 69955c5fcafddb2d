/* jpgio.c: JPEG through libjpeg-turbo (see jpgio.h). GL's rows go to libjpeg as they lie (JCS_EXT_RGBX
 * reads the fourth byte as padding), last row first: no converted or flipped copy of the frame. libjpeg
 * reports errors by calling error_exit, which by default prints and exits the process: ours formats the
 * message and longjmps back, and its message output is silenced.
 * What it does not do: read JPEGs beyond render --resume's check of a frame, or write files. */
#include "io/jpgio.h"

#include "base/buf.h"
#include "base/userfile.h"

#include <setjmp.h>
#include <stdio.h> /* jpeglib.h needs FILE and size_t declared first */
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jb;
    char msg[JMSG_LENGTH_MAX];
} jerr;

/* Our own destination rather than jpeg_mem_dest: when jpeg_mem_dest has had to grow its buffer, the
 * grown buffer is held only in libjpeg's private struct, and neither jpeg_abort nor jpeg_destroy frees
 * it (libjpeg-turbo 2.1's jdatadst.c), so an error after the first growth leaked it. Here the caller
 * owns the buffer on every path, and it grows the project's one way (IKS_GROW). */
typedef struct {
    struct jpeg_destination_mgr pub;
    uint8_t *buf;
    size_t cap;
    size_t first; /* the first buffer's size, guessed from the frame's */
} memdest;

static void on_error(j_common_ptr ci)
{
    jerr *j = (jerr *)ci->err;
    j->pub.format_message(ci, j->msg);
    longjmp(j->jb, 1);
}

/* warnings and trace messages: a library never prints (a corrupt-data warning cannot happen when
 * writing; whatever else libjpeg says in passing is not the caller's concern) */
static void on_output(j_common_ptr ci) { (void)ci; }
static void on_emit(j_common_ptr ci, int level)
{
    (void)ci;
    (void)level;
}

static void dest_init(j_compress_ptr ci)
{
    memdest *d = (memdest *)ci->dest;
    if (!IKS_GROW(d->buf, d->first, d->cap)) ERREXIT1(ci, JERR_OUT_OF_MEMORY, 0);
    d->pub.next_output_byte = d->buf;
    d->pub.free_in_buffer = d->cap;
}

/* called when the buffer is full: all cap bytes are data */
static boolean dest_empty(j_compress_ptr ci)
{
    memdest *d = (memdest *)ci->dest;
    size_t used = d->cap;
    if (!IKS_GROW(d->buf, used + 1, d->cap)) ERREXIT1(ci, JERR_OUT_OF_MEMORY, 1);
    d->pub.next_output_byte = d->buf + used;
    d->pub.free_in_buffer = d->cap - used;
    return TRUE;
}

static void dest_term(j_compress_ptr ci) { (void)ci; }

/* Everything that survives a longjmp lives in the caller's objects (ci, its error manager, the
 * destination): nothing local to this function is read after one. Not inlined, so that the caller's
 * objects stay outside the function that calls setjmp. */
__attribute__((noinline)) static bool compress(struct jpeg_compress_struct *ci, jerr *j, memdest *d, const uint8_t *rgba, int w, int h,
                     int quality, const char *comment)
{
    if (setjmp(j->jb)) return false;
    jpeg_create_compress(ci);
    ci->dest = &d->pub;
    ci->image_width = (JDIMENSION)w;
    ci->image_height = (JDIMENSION)h;
    ci->input_components = 4;
    ci->in_color_space = JCS_EXT_RGBX;
    jpeg_set_defaults(ci); /* YCbCr from an RGB input, 4:2:0, sequential, the accurate integer DCT */
    /* force_baseline: the quantisation tables of low qualities are clamped to 8 bits, which every
     * decoder reads */
    jpeg_set_quality(ci, quality, TRUE);
    for (int c = 0; c < ci->num_components; c++) ci->comp_info[c].h_samp_factor = ci->comp_info[c].v_samp_factor = 1;
    /* a second pass over the coefficients for tables fitted to the frame: a few percent smaller at
     * little cost beside the DCT */
    ci->optimize_coding = TRUE;
    jpeg_start_compress(ci, TRUE);
    if (comment) jpeg_write_marker(ci, JPEG_COM, (const JOCTET *)comment, (unsigned)strlen(comment));
    size_t stride = (size_t)w * 4;
    while (ci->next_scanline < ci->image_height) {
        /* libjpeg's row type is not const; it only reads input rows */
        JSAMPROW row = (JSAMPROW)(uintptr_t)(rgba + stride * (size_t)(h - 1 - (int)ci->next_scanline));
        jpeg_write_scanlines(ci, &row, 1);
    }
    jpeg_finish_compress(ci);
    return true;
}

static bool encode(const uint8_t *rgba, int w, int h, int quality, const char *comment, uint8_t **out, size_t *len,
                   iks_err *e)
{
    *out = NULL;
    *len = 0;
    if (quality < 1 || quality > 100)
        return iks_err_set(e, IKS_E_USAGE, "JPEG quality %d: expected 1..100", quality);
    if (w < 1 || h < 1 || w > JPEG_MAX_DIMENSION || h > JPEG_MAX_DIMENSION)
        return iks_err_set(e, IKS_E_USAGE, "JPEG of %dx%d pixels: each side must be 1..%ld (JPEG's limit)", w, h,
                           (long)JPEG_MAX_DIMENSION);

    struct jpeg_compress_struct ci;
    memset(&ci, 0, sizeof ci); /* so that jpeg_destroy_compress is safe even if creating it failed */
    jerr j;
    ci.err = jpeg_std_error(&j.pub);
    j.pub.error_exit = on_error;
    j.pub.output_message = on_output;
    j.pub.emit_message = on_emit;
    j.msg[0] = '\0';
    /* 4 bits a pixel at first (a 1280x720 shader-like frame took 1.2 at quality 90), so that growth is
     * rare; at most 64 MiB, so that a huge frame does not reserve gigabytes before a byte is known */
    size_t first = (size_t)w * (size_t)h / 2 + 4096;
    memdest d = { .pub = { .init_destination = dest_init, .empty_output_buffer = dest_empty,
                           .term_destination = dest_term },
                  .first = first < ((size_t)64 << 20) ? first : (size_t)64 << 20 };
    bool ok = compress(&ci, &j, &d, rgba, w, h, quality, comment);
    size_t n = ok ? d.cap - d.pub.free_in_buffer : 0;
    bool nomem = !ok && j.pub.msg_code == JERR_OUT_OF_MEMORY;
    jpeg_destroy_compress(&ci);
    if (!ok) {
        free(d.buf);
        if (nomem) return iks_err_set(e, IKS_E_NOMEM, "JPEG: out of memory");
        return iks_err_set(e, IKS_E_IO, "JPEG: %s", j.msg);
    }
    *out = d.buf;
    *len = n;
    return true;
}

bool iks_jpg_encode(const uint8_t *rgba, int w, int h, int quality, uint8_t **out, size_t *len, iks_err *e)
{
    return encode(rgba, w, h, quality, NULL, out, len, e);
}

/* the identity as a comment: "ikshade:render=ID", since a COM marker has no keyword of its own */
bool iks_jpg_image(const void *px, const iks_image_opts *o, uint8_t **out, size_t *len, iks_err *e)
{
    char comment[IKS_FRAME_ID_MAX + sizeof IKS_FRAME_ID_KEY + 1];
    if (o->id) snprintf(comment, sizeof comment, "%s=%s", IKS_FRAME_ID_KEY, o->id);
    return encode(px, o->w, o->h, o->quality, o->id ? comment : NULL, out, len, e);
}

/* ---- checking a frame on disk ------------------------------------------------------------------ */

/* a warning while decoding (data cut short, a corrupt entropy segment) makes the file not whole */
static void on_warning(j_common_ptr ci, int level)
{
    if (level < 0) ci->err->num_warnings++;
}

/* As compress: nothing local is read after a longjmp */
__attribute__((noinline)) static bool decompress(struct jpeg_decompress_struct *ci, jerr *j, const uint8_t *data,
                                                 size_t len, const iks_image_opts *o, uint8_t *row, char *id,
                                                 size_t idn)
{
    if (setjmp(j->jb)) return false;
    jpeg_create_decompress(ci);
    jpeg_mem_src(ci, data, (unsigned long)len);
    jpeg_save_markers(ci, JPEG_COM, 0xffff);
    if (jpeg_read_header(ci, TRUE) != JPEG_HEADER_OK) return false;
    if (ci->image_width != (JDIMENSION)o->w || ci->image_height != (JDIMENSION)o->h || ci->num_components != 3)
        return false;
    size_t kn = strlen(IKS_FRAME_ID_KEY);
    for (jpeg_saved_marker_ptr m = ci->marker_list; m; m = m->next)
        if (m->marker == JPEG_COM && m->data_length > kn + 1 && m->data_length - kn - 1 < idn &&
            memcmp(m->data, IKS_FRAME_ID_KEY "=", kn + 1) == 0) {
            memcpy(id, m->data + kn + 1, m->data_length - kn - 1);
            id[m->data_length - kn - 1] = '\0';
        }
    ci->out_color_space = JCS_RGB;
    jpeg_start_decompress(ci);
    while (ci->output_scanline < ci->output_height)
        if (jpeg_read_scanlines(ci, &row, 1) != 1) break;
    bool whole = ci->output_scanline == ci->output_height;
    if (whole) jpeg_finish_decompress(ci);
    return whole && ci->err->num_warnings == 0;
}

bool iks_jpg_check_frame(const char *path, const iks_image_opts *o, char *id, size_t idn)
{
    if (idn) id[0] = '\0';
    /* a JPEG of a frame is far smaller than its pixels; four bytes a pixel is ample */
    size_t len;
    char *data = iks_userfile_read(path, (size_t)o->w * (size_t)o->h * 4 + (1u << 20), 0, &len);
    /* the caller's row: a longjmp out of decompress would lose one allocated there */
    uint8_t *row = data ? malloc((size_t)o->w * 3) : NULL;
    if (!row) {
        free(data);
        return false;
    }
    struct jpeg_decompress_struct ci;
    memset(&ci, 0, sizeof ci);
    jerr j;
    ci.err = jpeg_std_error(&j.pub);
    j.pub.error_exit = on_error;
    j.pub.output_message = on_output;
    j.pub.emit_message = on_warning;
    bool ok = decompress(&ci, &j, (const uint8_t *)data, len, o, row, id, idn);
    jpeg_destroy_decompress(&ci);
    free(row);
    free(data);
    if (!ok && idn) id[0] = '\0';
    return ok;
}
