/* toyfile.h: what the user names on the command line, turned into a toy description: a single shader
 * file (the Image pass) with channels from --channelN, or the JSON that shadertoy.com exports or its
 * API returns (with or without the outer {"Shader": ...}). */
#ifndef IKS_TOYFILE_H
#define IKS_TOYFILE_H

#include "toy.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    iks_gltoy_desc desc;
    char *owned[48]; /* strings the desc points into (code, names, media paths) */
    int nowned;
    char name[256];  /* the toy's name, for titles and reports */
    const char *watch[4]; /* files besides the passes' sources that define the toy (a manifest) */
    int nwatch;
} iks_toyfile;

/* Fills tf from path: a shader file, a .json, or a directory with one file per pass (common.glsl,
 * a.glsl .. d.glsl, image.glsl) and an optional manifest.txt of lines "PASS.iChannelN = SPEC" (PASS
 * one of a b c d image; SPEC a buffer a-d or a --channel value, with its settings). channel[c] is the
 * --channelC text or NULL (single files only). missing_black:
 * media a JSON names but that is not on disk become black instead of an error. On failure returns
 * false with a one-line reason in err naming the file and what is wrong; tf holds nothing. warn gets
 * one line per ignored part (a sound pass, ...), may be empty. */
bool iks_toyfile_load(iks_toyfile *tf, const char *path, const char *const channel[4], bool missing_black,
                      char *err, size_t errlen, char *warn, size_t warnlen);
void iks_toyfile_free(iks_toyfile *tf);

/* The JSON half of iks_toyfile_load on text already read (name stands for the file in messages and
 * locates media beside it). For the fuzzer and for tests. */
bool iks_toyfile_parse_json(iks_toyfile *tf, const char *name, const char *text, bool missing_black, char *err,
                            size_t errlen, char *warn, size_t warnlen);

/* Parses one --channelN value: FILE.png|FILE.jpg|cube:FILE.png|keyboard|black|a|b|c|d (a-d: a
 * buffer; cube: the first of six faces FILE.png, FILE_1.png .. FILE_5.png), then
 * ,filter=nearest|linear|mipmap ,wrap=clamp|repeat ,vflip=0|1 ,srgb=0|1. false with the reason in err.
 * An image's path is malloc'd (the caller keeps it). */
bool iks_channel_parse(const char *spec, iks_input *in, char *err, size_t errlen);

#endif
