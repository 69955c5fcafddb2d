/* toyfile.h: what the user names, turned into a toy description: a single shader file or GLSL text in
 * memory (the Image pass) with the caller's channels, the JSON that shadertoy.com exports or its API
 * returns (with or without the outer {"Shader": ...}), or a directory with one file per pass. No GL
 * here. Errors come back as an iks_err naming the file and what is wrong; warnings (parts that are
 * ignored) go to an iks_logger, one message each. */
#ifndef IKS_TOYFILE_H
#define IKS_TOYFILE_H

#include "base/err.h"
#include "toy/spec.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    iks_spec desc;        /* what the toy is (spec.h) */
    char **owned;         /* strings the desc and name point into (code, names, media paths): growable */
    int nowned;
    size_t capowned;
    const char *name;     /* the toy's name, for titles and reports; never NULL after a load */
    const char *watch[4]; /* files besides the passes' sources that define the toy (a manifest) */
    int nwatch;
} iks_toyfile;

/* Fills tf from path: a shader file, a .json, or a directory with one file per pass (common.glsl,
 * a.glsl .. d.glsl, cube_a.glsl, image.glsl, sound.glsl) and an optional manifest.txt of lines
 * "PASS.iChannelN = SPEC" (PASS one of a b c d image cube_a sound; SPEC a buffer a-d, cube_a or a
 * channel value, with its settings). A JSON's passes: image, buffer, common, cubemap (Cube A) and
 * sound. channel[c] is the
 * channel C's spec or NULL (single files only). flags: IKS_TF_*. A JSON's or manifest's media (each
 * cubemap face, links resolved) must lie inside the toy's directory unless IKS_TF_MEDIA_OUTSIDE: the
 * toy may come from anywhere, the caller's own channels are the user's. tf owns copies of everything it points to. Codes:
 *   IKS_E_USAGE        a channel spec that is malformed or does not fit (a JSON, a directory, a
 *                      buffer for a single file): errors about the field channel[N]
 *   IKS_E_IO           a file that cannot be read; a texture not on disk beside the JSON
 *   IKS_E_FORMAT       malformed JSON, manifest or toy structure; a binary file; media outside the toy
 *   IKS_E_UNSUPPORTED  an input type (video, ...) or pass type (cubemap, ...) ikshade does not run
 *   IKS_E_NOMEM        out of memory
 * On failure tf holds nothing. */
/* iks_toyfile_load's flags */
enum {
    IKS_TF_MISSING_BLACK = 1, /* media a JSON names that are not on disk become black, not an error */
    IKS_TF_MEDIA_OUTSIDE = 2, /* a JSON's or manifest's media may lie outside the toy's directory */
    IKS_TF_SOUND_ONLY = 4,    /* only the sound will be drawn: a JSON's textures and videos for other passes
                               * may be missing (music, which is heard, may not) */
};
bool iks_toyfile_load(iks_toyfile *tf, const char *path, const char *const channel[4], unsigned flags,
                      iks_err *e, const iks_logger *log);
/* A single Image pass whose GLSL is text (copied). name (may be NULL: "<memory>") names the pass in
 * messages and, when it is a path, its directory is searched first for relative #includes. channel
 * as for a single file; codes as iks_toyfile_load's. */
bool iks_toyfile_from_text(iks_toyfile *tf, const char *name, const char *text, const char *const channel[4],
                           unsigned flags, iks_err *e, const iks_logger *log);
/* Safe on a zeroed or failed tf. */
void iks_toyfile_free(iks_toyfile *tf);

/* A directory toy's manifest.txt (text, named man in messages; dir is the toy's directory) applied to
 * tf, whose passes are those the directory has (their paths set). text is changed in place. For the
 * loader, the fuzzer and tests. */
bool iks_toyfile_parse_manifest(iks_toyfile *tf, const char *dir, const char *man, char *text, unsigned flags,
                                iks_err *e, const iks_logger *log);
/* The JSON half of iks_toyfile_load on text already read (name stands for the file in messages and
 * locates media beside it). For the fuzzer and for tests. */
bool iks_toyfile_parse_json(iks_toyfile *tf, const char *name, const char *text, unsigned flags, iks_err *e,
                            const iks_logger *log);

/* The media files a shadertoy.com JSON's passes name: each texture's path and each cubemap's six faces
 * (FILE.png, FILE_1.png .. FILE_5.png), once each, as the site gives them ("/media/a/<hash>.jpg");
 * skipped counts the inputs that are neither a file nor a buffer or the keyboard (video, music, ...).
 * A path that is not a plain /media/... path (no "..", no odd characters) is IKS_E_FORMAT, so that a
 * name from the network can be used as a URL path and a file name; so are more passes than a toy has
 * (8), an input without a channel 0-3 and two inputs on one channel, so that the list is at most what
 * a toy can read (the Common pass's inputs, which the loader ignores, are not listed). */
typedef struct {
    char **path;
    int n;
    size_t cap;
    int skipped;
} iks_media_list;
bool iks_toyfile_json_media(const char *name, const char *text, iks_media_list *out, iks_err *e);
void iks_media_list_free(iks_media_list *l);

#endif
