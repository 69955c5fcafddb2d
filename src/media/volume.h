/* volume.h: shadertoy.com's volume textures (.bin), parsed from bytes in memory: a 20-byte
 * little-endian header (u32 signature, which the site ignores and so do we; u32 x, y, z sizes; u8
 * channels 1-4; u8 layout, unused; u16 format, 0 for bytes and 10 for 32-bit floats), then exactly the
 * header's texels, x fastest, then y, then z. The texture loader and `import` both judge a file here.
 * What it does not do: GL (src/gpu uploads the texels), or convert the texels. */
#ifndef IKS_MEDIA_VOLUME_H
#define IKS_MEDIA_VOLUME_H

#include "base/err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IKS_VOLUME_HEADER 20
#define IKS_VOLUME_FILE_MAX ((size_t)256 << 20)

/* which check a volume failed, for callers that word the failure themselves */
typedef enum {
    IKS_VOLUME_OK,
    IKS_VOLUME_SHORT,  /* shorter than the header */
    IKS_VOLUME_LAYOUT, /* channels not 1-4, or a format not 0 or 10 */
    IKS_VOLUME_SIDES,  /* a side of 0, or above the caller's max */
    IKS_VOLUME_BYTES,  /* the texels that follow are not the header's product */
} iks_volume_fault;

typedef struct {
    uint32_t x, y, z;
    unsigned channels;            /* 1-4 */
    unsigned format;              /* 0: bytes, 10: floats */
    const unsigned char *texels;  /* x * y * z * channels values, in the bytes parsed (or in owned) */
    size_t texel_bytes;           /* what follows the header */
    size_t len;                   /* the whole file's bytes */
    iks_volume_fault fault;       /* what was wrong, when parsing failed */
    unsigned char *owned;         /* iks_volume_load's copy of the file; NULL from iks_volume_parse */
} iks_volume;

/* Parses len bytes (kept by the caller while v is used). max_side: the largest side taken (the GL's
 * 3D texture size), 0 for no limit but the bytes. false with v->fault and e set (IKS_E_FORMAT), the
 * message naming name ("a.bin: ..."; NULL: no name in front). */
bool iks_volume_parse(iks_volume *v, const void *data, size_t len, uint32_t max_side, const char *name, iks_err *e);
/* The file at path (a regular file, at most IKS_VOLUME_FILE_MAX bytes: IKS_E_IO), parsed as above. */
bool iks_volume_load(iks_volume *v, const char *path, uint32_t max_side, iks_err *e);
void iks_volume_free(iks_volume *v);

#endif
