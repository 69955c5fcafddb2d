/* writer_internal.h: what writer.c shares with its video sink (writer_video.c). */
#ifndef IKS_WRITER_INTERNAL_H
#define IKS_WRITER_INTERNAL_H

#include "engine/engine.h"
#include "engine/writer.h"

#include <limits.h>
#include <sys/types.h>

typedef struct {
    pid_t pid;
    int fd;               /* raw RGBA frames go here, top row first */
    int err_fd;           /* ffmpeg's stderr, kept for the message when it fails */
    char *tmp;            /* ours (O_EXCL); ffmpeg writes it; renamed over the output when it has finished */
    int tmp_fd;           /* tmp held open: its mode is set through it when it is published */
    double fps_played;    /* the file's frame rate: a GIF's is what its whole-centisecond delay gives */
    bool padded;          /* an odd size padded to even for 4:2:0 */
    const iks_format *fmt; /* its row: the sound track's options when one is muxed in at the end */
    char note[320];       /* what went wrong with a sound track muxed in at the end (the picture kept) */
} iks_video;

/* Starts ffmpeg making d->output as the format's row says (its muxer and options, or the user's
 * ffmpeg_args instead). */
bool iks_video_start(iks_video *v, const iks_writer_desc *d, const iks_format *f, iks_err *err);
/* Closes the pipe (ffmpeg then finishes the file) and waits for ffmpeg. keep: rename the file over the
 * output; otherwise it is removed. false with err set when ffmpeg failed or the rename did. */
bool iks_video_end(iks_video *v, const iks_writer_desc *d, bool keep, iks_err *err);

/* A GIF's frame delay in centiseconds for fps: the nearest it can express, at least 2 (browsers play
 * shorter delays at 10 cs) */
int iks_gif_delay_cs(double fps);

/* Splits s into words as a shell would for spaces, 'single' and "double" quotes and backslashes
 * (no expansions). *words (NULL-terminated, each and the array malloc'd) and *n; false when out of
 * memory, or with *why set for a malformed s. */
bool iks_split_words(const char *s, char ***words, int *n, const char **why);

#endif
