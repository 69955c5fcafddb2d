/* userfile.h: opening the paths users name (shaders, includes, textures, JSONs, manifests) with care.
 * A FIFO would block the open (or the read) until some writer comes, a device can be endless and a
 * socket is no file: all are refused before anything is read, with errno values that
 * iks_userfile_strerror turns into words. Only a caller that reads its input once may take a stream
 * (`view <(cmd)`, /dev/stdin). A directory and a loop of symbolic links are named as such.
 * What it does not do: writing (src/io), or deciding what a file means. */
#ifndef IKS_USERFILE_H
#define IKS_USERFILE_H

#include <stdbool.h>
#include <stddef.h>

/* errno values of refusals that have no errno of their own */
#define IKS_EFIFO ESPIPE  /* a FIFO (named pipe) */
#define IKS_ESOCK ENXIO   /* a socket */
#define IKS_EDEV ENODEV   /* a character or block device */

enum {
    IKS_UF_STREAM_OK = 1, /* a pipe, FIFO or terminal is read once, as it comes (no size known ahead);
                             other devices are still refused */
};

/* Opens path for reading: a regular file (or, with IKS_UF_STREAM_OK, a stream). The open never blocks.
 * Returns the descriptor (close-on-exec, blocking), or -1 with errno set. */
int iks_userfile_open(const char *path, unsigned flags);

/* Reads the whole file at path into a malloc'd, NUL-terminated buffer (caller frees); *len (may be
 * NULL) gets its length. More than max_bytes: EFBIG, before reading when the size is known. NULL with
 * errno set; a read cut short by a signal is EINTR. */
char *iks_userfile_read(const char *path, size_t max_bytes, unsigned flags, size_t *len);

/* iks_userfile_read for text: a file holding a NUL byte (binary) is EILSEQ. A FIFO that ended with
 * nothing written to it is ENODATA (a stream read once can be told from an empty file only so). */
char *iks_userfile_read_text(const char *path, size_t max_bytes, unsigned flags, size_t *len);

/* strerror for the errno values above, worded for a path the user named ("a FIFO (named pipe), not a
 * regular file", "a loop of symbolic links", ...). */
const char *iks_userfile_strerror(int e);

/* Whether path names a regular file (following links). */
bool iks_userfile_is_regular(const char *path);

/* Whether path (which exists) lies inside dir once both are resolved, links included: what a toy from
 * anywhere may read (its media, its #includes) */
bool iks_path_inside(const char *dir, const char *path);

/* The disk as the GLSL text layer reaches it (base/files.h): careful reads, stat's identity, realpath
 * for what lies inside a directory. */
struct iks_files;
const struct iks_files *iks_disk_files(void);

#endif
