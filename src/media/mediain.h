/* mediain.h: music and video files as channel inputs, decoded by ffmpeg through a pipe (as the video
 * output encodes through one). The path is opened here with the project's care (a regular file only:
 * no FIFO, device or socket that would block or never end) and ffmpeg reads that very file through
 * /dev/fd/3, so what was checked is what is decoded. ffmpeg is a sandboxed decoder: the file protocol
 * alone and the demuxers of the channels' containers alone (a playlist named clip.mp4 cannot make it
 * open other files, URLs or a live stream), and a decoder silent for 30 s is ended and the file named.
 * A video's rotation is applied (as browsers play it) and its frames scaled to the probed size, so a
 * frame read is always a whole one.
 * - Audio: the whole track at its own channel count, resampled to 44.1 kHz, mixed as WebAudio mixes it
 *   (the spec's "speakers" rules, one table in mediain.c): to mono as the analyser reads it, and to
 *   stereo as the site's two speakers play it (a mono file at full level on both); at most
 *   IKS_AUDIO_MAX_SECONDS and 32 channels.
 * - Video: RGBA frames at the file's own size, top row first, the frame shown at a time t; frames are
 *   read in order through one ffmpeg process, which is restarted with a seek when t goes back (a loop,
 *   a restart) or far ahead.
 * Errors name the file and say what is wrong ("song.ogg: ffmpeg: Invalid data found when processing
 * input"); without ffmpeg, one line saying to install it. What it does not do: GL (src/gpu/media.c
 * uploads), the analyser's texture (analyser.h), or decode anything in this process: ffmpeg does, apart. */
#ifndef IKS_MEDIAIN_H
#define IKS_MEDIAIN_H

#include "base/err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define IKS_AUDIO_MAX_SECONDS (10 * 60) /* 10 minutes: 212 MB decoded (mono float + 16-bit stereo) */

/* The extensions (any case) taken as music and as video: the one list, which the channel kinds'
 * table (src/toy/spec.c) shows the shell's completion too */
#define IKS_MEDIA_AUDIO_EXTS "wav ogg mp3 flac opus m4a oga"
#define IKS_MEDIA_VIDEO_EXTS "mp4 webm mkv mov ogv m4v"
bool iks_media_is_audio(const char *path);
bool iks_media_is_video(const char *path);

typedef struct {
    float *samples;   /* mono, 44100 Hz, owned: what the analyser reads */
    int16_t *stereo;  /* the same n frames as 16-bit stereo, interleaved, owned: what a speaker plays */
    size_t n;
} iks_audio;

bool iks_audio_load(const char *path, iks_audio *a, iks_err *e);
void iks_audio_free(iks_audio *a);

typedef struct {
    char *path;
    int fd;            /* the checked file, passed to each ffmpeg as /dev/fd/3 */
    int w, h;
    double fps;        /* frames per second of the stream */
    long frames;       /* frames in the file (counted by decoding when the container does not say) */
    pid_t pid;         /* the ffmpeg now decoding, or 0 */
    int out;           /* its stdout */
    long next;         /* the index of the frame it gives next */
    uint8_t *frame;    /* the frame last read, w * h * 4, owned */
    long have;         /* its index, -1 before the first */
    bool hung;         /* a decoder of it said nothing for the idle limit: not started again */
} iks_video_in;

/* What ffprobe said of a video stream (its text: "key=value" lines), as a decoder will give it: the
 * sides swapped for a quarter turn. Numbers out of range, or not numbers, are 0. text is modified. */
typedef struct {
    int w, h;
    double avg_fps, r_fps, duration;
    long frames;
} iks_video_probe;
void iks_video_parse_probe(char *text, iks_video_probe *p);

/* Opens and probes (size, rate, frame count); no frame is decoded yet. */
bool iks_video_open(iks_video_in *v, const char *path, iks_err *e);
/* The frame shown at t seconds into the clip, looping as the site's videos do (t mod duration);
 * returns v->frame (valid until the next call), NULL with e set when decoding failed. */
const uint8_t *iks_video_frame_at(iks_video_in *v, double t, iks_err *e);
/* The clip's length in seconds (frames / fps). */
double iks_video_duration(const iks_video_in *v);
void iks_video_close(iks_video_in *v);

#endif
