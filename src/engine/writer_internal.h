/* writer_internal.h: what writer.c shares with its video sink (writer_video.c). */
#ifndef IKS_WRITER_INTERNAL_H
#define IKS_WRITER_INTERNAL_H

#include "engine.h"
#include "writer.h"

#include <limits.h>
#include <sys/types.h>

/* ffmpeg's muxer for a video name (.mp4 .webm .mkv .gif), or NULL when the name is no video */
const char *iks_video_format(const char *out);

typedef struct {
    pid_t pid;
    int fd;               /* raw RGBA frames go here, top row first */
    char tmp[PATH_MAX];   /* ffmpeg writes here; renamed over the output when it has finished */
} iks_video;

bool iks_video_start(iks_video *v, const iks_writer_desc *d, iks_err *err);
/* Closes the pipe and waits for ffmpeg. ok: keep the file (rename it over the output); otherwise it is
 * removed. false with err set when ffmpeg failed or the rename did. */
bool iks_video_end(iks_video *v, const iks_writer_desc *d, bool ok, iks_err *err);

#endif
