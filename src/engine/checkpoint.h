/* checkpoint.h: a toy's feedback state at a frame, saved to a file so that a render of a later range
 * starts there instead of from frame 0. The format (version 2, all numbers little-endian):
 *
 *   offset  size  field
 *   0       8     magic "IKSCKPT\n"
 *   8       4     format version (2; version 1 hashed music, video and volumes by their names)
 *   12      4     header size (HEADER_BYTES: the payload starts there)
 *   16      8     the toy's identity: a hash of its passes' assembled sources, its channels, the texels
 *                 of its images, cubemaps and volumes and the bytes of its music and video files
 *   24      8     a hash of the --set values applied
 *   32      8     a hash of the render's parameters that reach the buffers: the buffers' size,
 *                 fps, time0, the fixed mouse or the recorded session
 *   40      4,4   the buffers' width and height (the render's size times its supersampling)
 *   48      8     frame: the next frame to draw (the state is that after frames 0..frame-1)
 *   56      8     the frame's time (double), as a check of fps and time0
 *   64      8     the replayed session's next key event (0 without one)
 *   72      8     payload size in bytes
 *   80      128   GL_RENDERER of the machine that made it (NUL-padded): another GPU may round
 *                 differently, which is worth a warning, not a refusal
 *   208     ...   payload: iks_gltoy_state_save's bytes (each feedback target's two halves as RGBA32F,
 *                 bottom row first, then which half is the newest; then the keyboard's rows)
 *   end-8   8     FNV-1a 64 of the payload
 *
 * Files are named ckpt-KEY-FRAME.iksc in the checkpoint directory: KEY is iks_ckpt_key of the header
 * (16 hex digits: toy, settings, parameters and buffer size together), FRAME 12 digits. Renders of
 * different toys or options share one directory without meeting: each finds its own newest checkpoint
 * by name and never writes another's. Before a checkpoint is used or kept it is checked whole (size =
 * header + payload + 8, checksum); a damaged one is refused on load and written again on save. A file
 * is written under a temporary name and claimed without replacing anything there (RENAME_NOREPLACE),
 * so a killed render never leaves a partial checkpoint and no render replaces another's. Files of
 * version 1 (ckpt-FRAME.iksc) are not used, with a note. */
#ifndef IKS_CHECKPOINT_H
#define IKS_CHECKPOINT_H

#include "engine/engine.h"

#include <stddef.h>
#include <stdint.h>

#define IKS_CKPT_VERSION 2
#define IKS_CKPT_HEADER_BYTES 208

typedef struct {
    uint32_t version;
    uint64_t toy_id, settings_id, params_id;
    int32_t width, height;
    int64_t frame;
    double time;
    int64_t next_key;
    uint64_t payload;
    char renderer[129];
} iks_ckpt_header;

/* Parses the first IKS_CKPT_HEADER_BYTES of a file (n may be less: a short file). false with
 * IKS_E_FORMAT naming what is wrong ("not an ikshade checkpoint", "format version 7; this ikshade
 * reads 1"), name in front. */
bool iks_ckpt_parse(const char *name, const uint8_t *p, size_t n, iks_ckpt_header *h, iks_err *err);

/* What a render expects a checkpoint of its toy at frame to be (everything but renderer). */
typedef struct {
    iks_ckpt_header h;
    const char *renderer;
} iks_ckpt_want;

/* The key of a render's checkpoints, in their names: a hash of h's toy_id, settings_id, params_id,
 * width and height */
uint64_t iks_ckpt_key(const iks_ckpt_header *h);

/* The newest checkpoint of want's render in dir at a frame from 1 to at_most, by name; 0 when there is
 * none (dir missing counts as none). Newer ones of other renders, or of format version 1, are a note
 * to log saying why they are not used. -1 with IKS_E_IO when dir cannot be listed. */
long iks_ckpt_newest(const char *dir, const iks_ckpt_want *want, long at_most, const iks_logger *log, iks_err *err);
/* Loads dir's checkpoint of want's render at frame into t after checking the file whole (IKS_E_FORMAT:
 * cut short, longer, checksum mismatch) and against want (want->h.frame is ignored; want->h.time is
 * that frame's time): a mismatch is IKS_E_USAGE; each in one line naming the file and what is wrong.
 * *next_key gets the session's next key. A renderer that differs is one warning to log. */
bool iks_ckpt_load(const char *dir, long frame, iks_gltoy *t, const iks_ckpt_want *want, int64_t *next_key,
                   const iks_logger *log, iks_err *err);
/* Saves t's state as dir's checkpoint of want->h.frame (made if missing), atomically. A whole one of
 * this render already there is kept as it is; a damaged one is written again, with a warning; anything
 * else at the name is left alone, with a warning (a save that is skipped, not a failure). */
bool iks_ckpt_save(const char *dir, iks_gltoy *t, const iks_ckpt_want *want, const iks_logger *log, iks_err *err);

/* Removes the checkpoint temporaries in dir whose writer is gone (a killed node's: no process holds
 * their lock; iks_outfile_remove_stale), of any render, never a live writer's. How many; first gets
 * the first one's path. */
long iks_ckpt_remove_stale(const char *dir, char *first, size_t n);

/* FNV-1a 64, for the parameter hashes */
#define IKS_FNV_START 0xcbf29ce484222325ull
uint64_t iks_fnv(uint64_t h, const void *data, size_t n);

/* An error about the render's checkpoint directory dir (the field checkpoint_dir): false */
bool iks_ckpt_dir_err(iks_err *err, iks_code code, const char *dir, const char *why);

#endif
