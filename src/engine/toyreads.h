/* toyreads.h: the files a toy reads (its sources and #includes, a JSON, a directory toy's files, its
 * media) and the recording a render replays, and the refusal of an output that is one of them. A render
 * into the toy's own texture, or a session's inputs written over its shader, would replace what the
 * output is made from: iks_render and the live loop refuse it before anything is written, for every
 * caller of the library (C, Python, the command line).
 * "The same file" is iks_same_output's: the same device and inode where both are there, the same
 * resolved name where the output is not there yet, so ./, ../, a linked directory, a symbolic or a
 * hard link all count.
 * toyreads.c makes the lists, samefile.c holds outputs against them.
 * What it does not do: name an output's frames (writer.c) or write anything. */
#ifndef IKS_TOYREADS_H
#define IKS_TOYREADS_H

#include "engine/engine.h"

#include <stdbool.h>
#include <sys/types.h>

typedef enum { IKS_READ_SOURCE, IKS_READ_MEDIA, IKS_READ_RECORDING } iks_read_role;

typedef struct {
    char *path;         /* as the toy names it (owned) */
    iks_read_role role;
    bool there;         /* it exists: dev and ino are what it is */
    dev_t dev;
    ino_t ino;
} iks_toy_read;

typedef struct {
    iks_toy_read *v;
    int n;
    size_t cap;
} iks_reads;

/* Adds path (copied; once); false when out of memory */
bool iks_reads_add(iks_reads *r, const char *path, iks_read_role role);
void iks_reads_free(iks_reads *r);
/* What a loaded toy read: its main file (a shader, a JSON, a directory), every source file and
 * #include its passes read, a directory toy's manifest, and its media (each cubemap face). false:
 * IKS_E_NOMEM. */
bool iks_toy_reads(const iks_toy *t, iks_reads *r, iks_err *err);
/* The same from a description, without GL, as far as the toy can be read now: a toy that does not
 * load (yet) still has its main file and its channels' files. shader_dir: the limb demo's, where d
 * names no toy. false: IKS_E_NOMEM. */
bool iks_toy_desc_reads(const iks_toy_desc *d, const char *shader_dir, iks_reads *r, iks_err *err);

/* Frame k of pattern (an output with one frame number, out/%04d.png), first <= k < end, that is the
 * same file as path: true with *frame, found without naming every frame (from the digits in path's
 * names); false when none is */
bool iks_pattern_frame_of(const char *pattern, long first, long end, const char *path, long *frame);
/* Refuses output, a single file or with pattern frames first..end-1, that is the same file as one of
 * r: IKS_E_USAGE about field, the message naming both files ("the same file as 'tex.png', the toy's
 * media: the render would replace it"). doing: what would write it ("the render"). */
bool iks_output_spares(const iks_reads *r, const char *field, const char *output, bool pattern, long first, long end,
                       const char *doing, iks_err *err);

#endif
