/* image.h: PNG and JPEG textures and cubemaps decoded from bytes into RGBA8 pixels in memory, by
 * libpng's and libjpeg-turbo's own decoders driven for hostile input: the sizes are checked against the
 * caller's limits before a pixel is decoded, neither library prints or exits, and a failure is one
 * iks_err line naming the file. PNG pixels are what stb_image gave (the loader before this one), so
 * renders and checkpoints stay as they were: no gamma, sRGB or ICC conversion, 16 bits cut to the high
 * byte. What it does not do: GL (src/gpu uploads what it gives), other formats, colour management. */
#ifndef IKS_MEDIA_IMAGE_H
#define IKS_MEDIA_IMAGE_H

#include "base/err.h"

#include <stdbool.h>
#include <stddef.h>

/* a texture file is read whole: far above any real texture, and a FIFO or device never ends */
#define IKS_IMAGE_FILE_MAX ((size_t)256 << 20)
/* RGBA8 bytes an image may decode to unless the caller says otherwise: 8192x8192 */
#define IKS_IMAGE_BUDGET ((size_t)1 << 28)
/* the largest side taken where no GL says (import): above every GL's textures today */
#define IKS_IMAGE_SIDE_MAX IKS_MAX_SIDE

typedef enum { IKS_IMAGE_NONE, IKS_IMAGE_PNG, IKS_IMAGE_JPEG } iks_image_kind;

/* What the first bytes say the file is (8 for a PNG, 3 for a JPEG). */
iks_image_kind iks_image_sniff(const void *data, size_t len);

typedef struct {
    int max_side;     /* the largest width or height taken: the GL's texture size; 0: IKS_IMAGE_SIDE_MAX */
    size_t max_bytes; /* the most RGBA8 bytes decoded; 0: IKS_IMAGE_BUDGET */
    bool vflip;       /* bottom row first (the site's default for textures); else top row first */
    /* A toy's budget for all its decoded media (0: none): what is left of it (a cubemap's faces take it
     * in turn), refused from the header before a pixel is decoded, the message naming the budget */
    size_t toy_left, toy_budget;
} iks_image_opts;

typedef struct {
    int w, h;
    unsigned char *px; /* w * h * 4 bytes, RGBA8, rows as the options said; owned */
} iks_image;

/* Decodes a PNG or JPEG of len bytes into img (zeroed on failure). name starts every message
 * ("tex.png: corrupt PNG: ..."); NULL leaves it out, for callers that put the name in their own
 * words. o may be NULL (the defaults: top row first). Codes: IKS_E_FORMAT (not a PNG or JPEG, or
 * corrupt), IKS_E_UNSUPPORTED (beyond the limits), IKS_E_NOMEM. */
bool iks_image_decode(iks_image *img, const void *data, size_t len, const char *name, const iks_image_opts *o,
                      iks_err *e);
/* The file at path (a regular file, at most IKS_IMAGE_FILE_MAX bytes: IKS_E_IO), decoded as above. */
bool iks_image_load(iks_image *img, const char *path, const iks_image_opts *o, iks_err *e);
void iks_image_free(iks_image *img);

/* The file of cubemap face 0..5 of a channel at path: X.ext, X_1.ext .. X_5.ext (the site's layout).
 * malloc'd; NULL when out of memory. */
char *iks_cube_face_path(const char *path, int face);

typedef struct {
    int size;                /* each face is size x size */
    unsigned char *face[6];  /* +x -x +y -y +z -z, RGBA8, owned */
} iks_image_cube;

/* The six faces of the cubemap at path (iks_cube_face_path), each loaded as iks_image_load does; they
 * must be square and all one size. */
bool iks_image_cube_load(iks_image_cube *c, const char *path, const iks_image_opts *o, iks_err *e);
void iks_image_cube_free(iks_image_cube *c);

#endif
