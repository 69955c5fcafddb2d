/* writer.h: where rendered frames go, whoever draws them, as the output's format says (engine/formats.h):
 * numbered image files (encoded on a bounded pool of threads, written atomically), raw RGBA frames to a
 * file descriptor, one video through ffmpeg, or one animation encoded here.
 * iks_render feeds it from its frame loop and the viewer's recording from the window's frames, so both
 * write the same files the same way.
 * What it does not do: draw, read back from GL, or decide frame times (the caller's). */
#ifndef IKS_WRITER_H
#define IKS_WRITER_H

#include "base/err.h"
#include "engine/formats.h"
#include "io/outfile.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *output;   /* a PNG name or pattern, "-" for raw frames, or a video name */
    int raw_fd;           /* for "-": 0 means standard output */
    int width, height;
    double fps;           /* the video's frame rate */
    bool alpha;           /* RGBA PNGs */
    int png_level;        /* resolved: 0 stored .. 12 */
    int jobs;             /* encoder threads (PNG) */
    int nice;             /* the encoders' lower priority, > 0 where GL runs on the CPU */
    const char *ffmpeg_args; /* a video's output options instead of ours (and any extension then) */
    int depth;            /* bits per channel, one the format takes (iks_format_takes) */
    int quality;          /* lossy formats: 1..100; 0: IKS_DEFAULT_QUALITY */
    bool png_fast;        /* 8-bit PNGs through the fast path (ISA-L) rather than libdeflate at png_level */
    const char *audio;    /* a video's audio track: a WAV file of the same length, or NULL */
    /* a video's audio track that is still being written while the frames come (the viewer's
     * microphone): a WAV that is whole by iks_writer_close, muxed in then without encoding the
     * picture again. NULL: none. A format with no sound (GIF) takes neither. */
    const char *audio_after;
    /* a single file (video, animation) under a name the user did not type: claimed, never replacing
     * anything, as claim(0), claim(1), ... names it (iks_outfile_tmp_claim); the name taken is written
     * into claimed (PATH_MAX bytes). NULL: output is replaced as the user asked. */
    iks_name_fn claim;
    void *claim_user;
    char *claimed;
    /* output as the caller classified it (iks_output_classify), so that the name is read once: its
     * format and whether it holds a frame number. NULL: the writer classifies output itself. */
    const iks_format *fmt;
    bool pattern;
    const char *id;       /* image files: the render's identity, written into each (iks_image_opts.id) */
    const char *comment;  /* a video in ikshade's settings: its comment tag (a segment's identity), or NULL */
} iks_writer_desc;

/* What the output became, from iks_writer_close */
typedef struct {
    long written;         /* frames complete: on disk, sent, or in the video */
    bool kept;            /* a video: the file is there (complete, or the frames written when stopped) */
    double fps_played;    /* a video's frame rate as the file says (a GIF's whole-centisecond delay) */
    bool padded;          /* a video of odd size padded to even by a black row or column */
    char note[320];       /* audio_after could not be added (why; the picture was kept), or empty */
} iks_writer_result;

typedef struct iks_writer iks_writer;

/* The output's format from its name (iks_format_of), and whether the name holds a frame number (a
 * printf-style %d, the only conversion allowed): files of several frames need one, a single file takes
 * none. any_video: a name that is none of ours is a video for ffmpeg to make (the user gave its
 * arguments). IKS_E_USAGE about the field "output". */
bool iks_output_classify(const char *output, long nframes, bool any_video, const iks_format **fmt, bool *pattern,
                         iks_err *err);
/* The same for a format already looked up (iks_format_of(output, any_video); NULL: none fits): the checks
 * of the name against it, with the same errors. */
bool iks_output_check_name(const char *output, const iks_format *f, long nframes, bool *pattern, iks_err *err);
/* The file name of frame `frame` of an output (pattern or single name), the number in full (64 bits).
 * false with errno ENAMETOOLONG when it does not fit in n bytes. */
bool iks_output_path(const char *output, bool pattern, long frame, char *buf, size_t n);
/* Makes the first frame's directory and checks it can be written to, before anything is drawn. */
bool iks_output_check_writable(const char *output, bool pattern, long first, iks_err *err);

/* Opens the output (starts the PNG encoders, or ffmpeg). Owner: the caller, through iks_writer_close. */
bool iks_writer_open(const iks_writer_desc *d, iks_writer **out, iks_err *err);
/* A buffer for the next frame's pixels, width*height*4 bytes (or floats: iks_format_float) bottom row
 * first as GL reads them; it
 * blocks while every buffer is being encoded. NULL once the output has failed (iks_writer_close says
 * why). */
uint8_t *iks_writer_acquire(iks_writer *w, int *slot);
/* Hands the acquired buffer over as frame number frame. false once the output has failed. */
bool iks_writer_submit(iks_writer *w, int slot, long frame);
/* Frames complete so far: on disk, sent down the pipe, or given to ffmpeg. */
long iks_writer_written(iks_writer *w);
/* Finishes every frame in flight and closes the output, then frees w. ok: nothing failed on the caller's
 * side (a render stopped early is ok: a video then holds the frames written so far, properly closed);
 * otherwise a video is removed. res (may be NULL) says what the output became. false with err set when
 * anything failed, now or before. */
bool iks_writer_close(iks_writer *w, bool ok, iks_writer_result *res, iks_err *err);

#endif
