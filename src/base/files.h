/* files.h: how the GLSL text layer (src/glsl) reaches files. It opens nothing itself: whoever assembles a shader
 * hands it a table of these functions (the disk's is iks_disk_files() in base/userfile.c; a test or a
 * fuzz target hands files held in memory), so the layer's own code does no I/O and links with base
 * alone. */
#ifndef IKS_FILES_H
#define IKS_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct iks_files {
    /* The whole text of path, malloc'd and NUL-terminated, *len its length; NULL with errno set
     * (ENOENT..., EILSEQ for a binary file, EFBIG over max_bytes, ENODATA for a stream with nothing in
     * it). stream: the main file, which may be a pipe read once. */
    char *(*read)(void *user, const char *path, size_t max_bytes, bool stream, size_t *len);
    /* Whether something is at path (a file or not): an include search stops there */
    bool (*exists)(void *user, const char *path);
    /* An identity that two spellings of one file share (device and inode); false when none */
    bool (*identity)(void *user, const char *path, uint64_t id[2]);
    /* Whether path lies inside dir once both are resolved (links too) */
    bool (*inside)(void *user, const char *dir, const char *path);
    /* Words for read's errno values ("a FIFO (named pipe), not a regular file") */
    const char *(*strerror)(int e);
    void *user;
} iks_files;

#endif
