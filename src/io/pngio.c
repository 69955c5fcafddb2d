/* pngio.c: 8-bit PNGs, built for speed on frames that are hard to compress. One pass turns GL's RGBA
 * rows (bottom row first) into PNG's filtered rows (top row first, the Up filter, RGB or RGBA); ISA-L's
 * igzip (the default) or libdeflate (the higher levels, and stored) deflates them with a zlib header;
 * ISA-L's CRC-32 (PNG's is gzip's) signs the chunks. For igzip the pass runs a strip of rows at a time
 * and feeds each strip to the compressor while it is still in cache: the whole filtered image is never
 * in memory. Settings are per call; each thread keeps its buffers and compressors from call to call
 * (page faults on fresh multi-megabyte buffers cost about as much as the filter), freed when the
 * thread ends (a pthread key's destructor) or by iks_png_thread_done.
 * What it does not do: 16-bit PNGs (hdrio.c), files (outfile.c). */
#include "io/pngio.h"
#include "io/hdrio.h"
#include "base/buf.h"
#include "base/userfile.h"

#include <errno.h>
#include <stdint.h>
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Rows per strip for igzip: about this many filtered bytes, so that a strip stays in L2 between the
 * filter writing it and the compressor reading it (bench render: 64-256 KiB measured alike). */
#define STRIP_BYTES ((size_t)128 << 10)
/* IDAT chunks of at most this much: any frame over 1 MiB compressed has several, which keeps that
 * path exercised by ordinary frames (tests/test_png.sh) instead of only by multi-gigabyte ones. */
#define IDAT_MAX ((size_t)1 << 20)

typedef struct {
    uint8_t *p;
    size_t cap;
} buf;

/* a thread's buffers and compressor, kept from call to call */
typedef struct {
    buf raw;                             /* filtered rows: a strip (igzip) or the whole image */
    buf z;                               /* the zlib stream */
    buf lvl;                             /* igzip's level buffer (hash tables, tokens) */
    struct libdeflate_compressor *c;
    int c_level;
} scratch;

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t key;
static bool key_made;

static void scratch_free(void *v)
{
    scratch *t = v;
    free(t->raw.p);
    free(t->z.p);
    free(t->lvl.p);
    if (t->c) libdeflate_free_compressor(t->c);
    free(t);
}

static void make_key(void) { key_made = pthread_key_create(&key, scratch_free) == 0; }

static scratch *thread_scratch(void)
{
    pthread_once(&key_once, make_key);
    if (!key_made) return NULL;
    scratch *t = pthread_getspecific(key);
    if (!t && (t = calloc(1, sizeof *t)) && pthread_setspecific(key, t) != 0) {
        free(t);
        t = NULL;
    }
    return t;
}

void iks_png_thread_done(void)
{
    pthread_once(&key_once, make_key);
    scratch *t = key_made ? pthread_getspecific(key) : NULL;
    if (!t) return;
    pthread_setspecific(key, NULL);
    scratch_free(t);
}

/* b with room for n bytes, its contents kept */
static uint8_t *reserve(buf *b, size_t n)
{
    return IKS_GROW(b->p, n, b->cap) ? b->p : NULL;
}

/* AVX2 and SSSE3 have the byte shuffle that packs RGBA to RGB; without one (x86-64's SSE2 baseline)
 * GCC leaves the RGB loop scalar. The ASan and fuzzing builds (clang) take the plain function. */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define PNG_CLONES __attribute__((target_clones("avx2", "ssse3", "default")))
#else
#define PNG_CLONES
#endif

/* Image rows y0..y1-1 (top first) of GL's bottom-first rgba as PNG's filtered rows at out: the filter
 * byte 2 (Up), then each byte minus the byte above it in the image (zero above the first row). Plain
 * indexing and restrict, so that the compiler vectorises the inner loops (-fopt-info-vec says it does,
 * for each clone but "default"'s RGB loop). */
PNG_CLONES static void filter_up(const uint8_t *restrict rgba, int w, int h, int y0, int y1, bool alpha,
                                 uint8_t *restrict out)
{
    size_t row = (size_t)w * 4, orow = (size_t)w * (alpha ? 4 : 3) + 1;
    for (int y = y0; y < y1; y++) {
        const uint8_t *restrict cur = rgba + row * (size_t)(h - 1 - y);
        const uint8_t *restrict up = cur + row; /* the image row above; read only when y > 0 */
        uint8_t *restrict o = out + orow * (size_t)(y - y0);
        *o++ = 2;
        if (alpha && y) {
            for (size_t i = 0; i < row; i++) o[i] = (uint8_t)(cur[i] - up[i]);
        } else if (alpha) {
            memcpy(o, cur, row);
        } else if (y) {
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

/* Feeds s's input to igzip until it is taken: to the stream's end with end_of_stream, through the
 * flush with a flush, else until avail_in is 0; tl->z grows as the output needs */
static bool isal_feed(scratch *tl, struct isal_zstream *s)
{
    for (;;) {
        if (s->avail_out == 0) {
            /* avail_out is 32 bits: hand out the buffer a gigabyte at a time, grow it when full */
            size_t used = (size_t)(s->next_out - tl->z.p);
            if (used == tl->z.cap && !reserve(&tl->z, tl->z.cap + tl->z.cap / 2)) return false;
            size_t room = tl->z.cap - used;
            s->next_out = tl->z.p + used;
            s->avail_out = (uint32_t)(room > ((size_t)1 << 30) ? (size_t)1 << 30 : room);
        }
        uint32_t in0 = s->avail_in, out0 = s->avail_out;
        if (isal_deflate(s) != COMP_OK) {
            errno = EIO;
            return false;
        }
        if (s->end_of_stream ? s->internal_state.state == ZSTATE_END
            : s->flush != NO_FLUSH ? s->avail_in == 0 && s->internal_state.state == ZSTATE_NEW_HDR
                                   : s->avail_in == 0)
            return true;
        if (s->avail_out && s->avail_in == in0 && s->avail_out == out0) { /* no progress: never seen */
            errno = EIO;
            return false;
        }
    }
}

/* igzip at level 0..3 into tl->z, strip by strip; the stream's length in *zn */
static bool deflate_isal(scratch *tl, const uint8_t *rgba, int w, int h, bool alpha, int level, size_t *zn)
{
    static const uint32_t lvl_bytes[4] = { 0, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT };
    size_t orow = (size_t)w * (alpha ? 4 : 3) + 1, raw_n = orow * (size_t)h;
    size_t rows = STRIP_BYTES / orow;
    if (rows < 1) rows = 1;
    if (rows > (size_t)h) rows = (size_t)h;
    uint8_t *strip = reserve(&tl->raw, orow * rows);
    uint8_t *lvl = reserve(&tl->lvl, lvl_bytes[level] ? lvl_bytes[level] : 1);
    /* hard frames deflate to about a third; room for stored blocks' worst case, else grown below */
    uint8_t *z = reserve(&tl->z, raw_n + raw_n / 64 + 4096);
    if (!strip || !lvl || !z) return false;
    struct isal_zstream s;
    isal_deflate_init(&s);
    s.level = (uint32_t)level;
    s.level_buf = level ? lvl : NULL;
    s.level_buf_size = lvl_bytes[level];
    s.gzip_flag = IGZIP_ZLIB;
    s.flush = NO_FLUSH;
    s.next_out = z;
    s.avail_out = 0;
    /* ISA-L 2.30's level 1-2 body (igzip_icf_body_h1_gr_bt.asm, .write_first_byte; level 0's
     * igzip_body.asm alike) hashes the stream's third byte from a register that still holds the
     * stream's address, so one hash entry lands where the stack happens to be: the same pixels gave
     * other (valid) bytes for one stack address in about 5000 (a frame in 8,000 to 40,000 of a
     * render, depending on which thread took it). Its finish routine takes the first byte properly,
     * so the first PRIME bytes go alone, through it, with a sync flush (an empty stored block: 4 to
     * 10 bytes a PNG); the body then never sees a stream without history. An image of PRIME bytes or
     * fewer goes through finish anyway. The first strip holds the whole image or far more than PRIME. */
    enum { PRIME = 8 };
    for (int y = 0; y < h;) {
        int y1 = (size_t)(h - y) > rows ? y + (int)rows : h;
        filter_up(rgba, w, h, y, y1, alpha, strip);
        s.next_in = strip;
        s.avail_in = (uint32_t)(orow * (size_t)(y1 - y));
        if (y == 0 && raw_n > PRIME) {
            uint32_t rest = s.avail_in - PRIME;
            s.avail_in = PRIME;
            s.flush = SYNC_FLUSH;
            if (!isal_feed(tl, &s)) return false;
            s.flush = NO_FLUSH;
            s.avail_in = rest; /* next_in is past the PRIME bytes */
        }
        s.end_of_stream = y1 == h;
        if (!isal_feed(tl, &s)) return false;
        y = y1;
    }
    *zn = (size_t)(s.next_out - tl->z.p);
    return true;
}

/* libdeflate at level 0..12 into tl->z, from the whole filtered image (it has no streaming interface) */
static bool deflate_libdeflate(scratch *tl, const uint8_t *rgba, int w, int h, bool alpha, int level, size_t *zn)
{
    size_t raw_n = ((size_t)w * (alpha ? 4 : 3) + 1) * (size_t)h;
    if (tl->c && tl->c_level != level) {
        libdeflate_free_compressor(tl->c);
        tl->c = NULL;
    }
    if (!tl->c) {
        tl->c = libdeflate_alloc_compressor(level);
        tl->c_level = level;
        if (!tl->c) return false;
    }
    uint8_t *raw = reserve(&tl->raw, raw_n);
    size_t bound = libdeflate_zlib_compress_bound(tl->c, raw_n);
    uint8_t *z = reserve(&tl->z, bound);
    if (!raw || !z) return false;
    filter_up(rgba, w, h, 0, h, alpha, raw);
    *zn = libdeflate_zlib_compress(tl->c, raw, raw_n, z, bound);
    if (*zn == 0) { /* the bound is a bound: never seen */
        errno = EIO;
        return false;
    }
    return true;
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

/* what a failure of the steps below (errno: EIO from a compressor, else out of memory) becomes */
static bool encode_failed(iks_err *e, const char *lib)
{
    if (errno == EIO) return iks_err_set(e, IKS_E_IO, "PNG: %s failed to compress the image", lib);
    return iks_err_set(e, IKS_E_NOMEM, "PNG: out of memory encoding the image");
}

bool iks_png_encode(const uint8_t *rgba, int w, int h, const iks_png_opts *o, uint8_t **out, size_t *len, iks_err *e)
{
    *out = NULL;
    *len = 0;
    bool alpha = o->alpha;
    int level = o->level;
    iks_png_lib lib = o->lib;
    if (lib == IKS_PNG_AUTO) lib = level == 1 ? IKS_PNG_ISAL : IKS_PNG_LIBDEFLATE;
    size_t zn = 0;
    scratch *tl = thread_scratch();
    errno = ENOMEM;
    if (!tl) return encode_failed(e, "");
    errno = ENOMEM; /* what a failed allocation below leaves, whatever errno held before */
    if (lib == IKS_PNG_ISAL) {
        level = level < 0 ? 0 : level > ISAL_DEF_MAX_LEVEL ? ISAL_DEF_MAX_LEVEL : level;
        if (!deflate_isal(tl, rgba, w, h, alpha, level, &zn)) return encode_failed(e, "ISA-L's igzip");
    } else {
        level = level < 0 ? 0 : level > 12 ? 12 : level;
        if (!deflate_libdeflate(tl, rgba, w, h, alpha, level, &zn)) return encode_failed(e, "libdeflate");
    }
    size_t nidat = zn ? (zn + IDAT_MAX - 1) / IDAT_MAX : 1;
    uint8_t *png = malloc(8 + 25 + zn + 12 * nidat + 12);
    if (!png) return iks_err_set(e, IKS_E_NOMEM, "PNG: out of memory encoding the image");
    static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    memcpy(png, sig, 8);
    size_t k = 8;
    put32(png + k + 8, (uint32_t)w);
    put32(png + k + 12, (uint32_t)h);
    png[k + 16] = 8;                 /* bits per channel */
    png[k + 17] = alpha ? 6 : 2;     /* RGBA or RGB */
    png[k + 18] = png[k + 19] = png[k + 20] = 0; /* deflate, adaptive filtering, no interlace */
    k += chunk(png + k, "IHDR", 13);
    for (size_t off = 0, i = 0; i < nidat; i++) {
        size_t n = zn - off < IDAT_MAX ? zn - off : IDAT_MAX;
        memcpy(png + k + 8, tl->z.p + off, n);
        k += chunk(png + k, "IDAT", n);
        off += n;
    }
    k += chunk(png + k, "IEND", 0);
    *out = png;
    *len = k;
    return true;
}

/* A tEXt chunk "key\0value" put in before the IEND that ends *png: the encoders' output stays theirs, and
 * one place writes the identity for both depths */
static bool add_text(uint8_t **png, size_t *len, const char *key, const char *value, iks_err *e)
{
    size_t kn = strlen(key), vn = strlen(value), n = kn + 1 + vn;
    size_t cap = *len; /* the encoder's buffer holds the file exactly */
    if (!IKS_GROW(*png, *len + 12 + n, cap)) {
        free(*png);
        *png = NULL;
        return iks_err_set(e, IKS_E_NOMEM, "PNG: out of memory encoding the image");
    }
    uint8_t *p = *png;
    size_t at = *len - 12; /* IEND: length, type, CRC */
    memmove(p + at + 12 + n, p + at, 12);
    memcpy(p + at + 8, key, kn + 1);
    memcpy(p + at + 8 + kn + 1, value, vn);
    chunk(p + at, "tEXt", n);
    *png = p;
    *len += 12 + n;
    return true;
}

bool iks_png_image(const void *px, const iks_image_opts *o, uint8_t **out, size_t *len, iks_err *e)
{
    bool ok;
    if (o->depth == 16) ok = iks_png16_encode(px, o->w, o->h, o->alpha, out, len, e);
    else {
        iks_png_opts po = { .level = o->fast ? 1 : o->level, .alpha = o->alpha };
        ok = iks_png_encode(px, o->w, o->h, &po, out, len, e);
    }
    return ok && (!o->id || add_text(out, len, IKS_FRAME_ID_KEY, o->id, e));
}

/* ---- checking a PNG on disk -------------------------------------------------------------------- */

static uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

/* iks_png_check, and the value of the tEXt chunk of keyword key into val (vn bytes, "" when none) */
static bool check_png(const uint8_t *data, size_t len, int w, int h, int bits, bool alpha, const char *key, char *val,
                      size_t vn)
{
    if (vn) val[0] = '\0';
    static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    if (w < 1 || h < 1 || (bits != 8 && bits != 16) || len < 8 || memcmp(data, sig, 8) != 0) return false;
    size_t row = 1 + (size_t)w * (size_t)(alpha ? 4 : 3) * (size_t)(bits / 8);
    if ((size_t)h > SIZE_MAX / row) return false;
    size_t raw_n = row * (size_t)h;
    /* the IDAT data gathered into one zlib stream; never more than len bytes */
    uint8_t *z = malloc(len);
    if (!z) return false;
    size_t zn = 0, at = 8;
    bool ok = false, ihdr = false;
    while (len - at >= 12) {
        uint32_t n = get32(data + at);
        if (n > len - at - 12) break;
        const uint8_t *type = data + at + 4, *body = data + at + 8;
        if (crc32_gzip_refl(0, type, (uint64_t)n + 4) != get32(body + n)) break;
        at += 12 + (size_t)n;
        if (!ihdr) {
            /* IHDR first: size, depth, colour type (2 RGB, 6 RGBA), deflate, adaptive filters, no interlace */
            if (memcmp(type, "IHDR", 4) != 0 || n != 13 || get32(body) != (uint32_t)w || get32(body + 4) != (uint32_t)h ||
                body[8] != bits || body[9] != (alpha ? 6 : 2) || body[10] || body[11] || body[12])
                break;
            ihdr = true;
        } else if (memcmp(type, "IDAT", 4) == 0) {
            memcpy(z + zn, body, n);
            zn += n;
        } else if (key && memcmp(type, "tEXt", 4) == 0) {
            size_t kn = strlen(key);
            if (n > kn && memcmp(body, key, kn + 1) == 0 && n - kn - 1 < vn) {
                memcpy(val, body + kn + 1, n - kn - 1);
                val[n - kn - 1] = '\0';
            }
        } else if (memcmp(type, "IEND", 4) == 0) {
            ok = n == 0 && at == len;
            break;
        } else if (!(type[0] & 0x20)) break; /* a critical chunk we do not know (PLTE has no place in RGB) */
    }
    if (ok) {
        uint8_t *raw = malloc(raw_n ? raw_n : 1);
        struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
        /* NULL actual size: the stream must inflate to exactly raw_n bytes */
        ok = raw && d && zn && libdeflate_zlib_decompress(d, z, zn, raw, raw_n, NULL) == LIBDEFLATE_SUCCESS;
        for (size_t y = 0; ok && y < (size_t)h; y++) ok = raw[y * row] <= 4;
        if (d) libdeflate_free_decompressor(d);
        free(raw);
    }
    free(z);
    return ok;
}

bool iks_png_check(const uint8_t *data, size_t len, int w, int h, int bits, bool alpha)
{
    return check_png(data, len, w, h, bits, alpha, NULL, NULL, 0);
}

static bool check_file(const char *path, int w, int h, int bits, bool alpha, char *id, size_t idn)
{
    /* a valid PNG of this size is at most its raw rows stored, plus chunk framing: twice is ample */
    size_t max = (size_t)w * (size_t)h * 8 * (size_t)(bits / 8) * 2 + (1u << 20);
    size_t len;
    char *data = iks_userfile_read(path, max, 0, &len);
    if (!data) return false;
    bool ok = check_png((const uint8_t *)data, len, w, h, bits, alpha, id ? IKS_FRAME_ID_KEY : NULL, id, idn);
    free(data);
    return ok;
}

bool iks_png_check_file(const char *path, int w, int h, int bits, bool alpha)
{
    return check_file(path, w, h, bits, alpha, NULL, 0);
}

bool iks_png_check_frame(const char *path, const iks_image_opts *o, char *id, size_t idn)
{
    return check_file(path, o->w, o->h, o->depth, o->alpha, id, idn);
}
