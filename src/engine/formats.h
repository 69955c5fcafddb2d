/* formats.h: the output formats, one table (formats.c). Every place that treats outputs differently
 * reads a row's fields instead of switching on a kind: the render's checks (depth, resume, frame
 * numbers), the writer's sinks, ffmpeg's arguments, the audio track, the viewer's recordings, the
 * help. A new format is a row there and an encoder in src/io (docs/DESIGN-NOTES.md, "where to change
 * what").
 * What it does not do: encode (src/io) or write files (writer.c). */
#ifndef IKS_FORMATS_H
#define IKS_FORMATS_H

#include "ikshade/ikshade.h"
#include "io/encode.h"

#include <stdbool.h>

/* Where a format's frames go: the public kind (iks_output_kind in ikshade.h, which a caller reads as
 * iks_output_info.kind) under the engine's names */
typedef iks_output_kind iks_sink;
#define IKS_SINK_FILES IKS_OUTPUT_FILES   /* a file per frame (one frame: one file), each encoded on the writer's pool */
#define IKS_SINK_RAW IKS_OUTPUT_RAW       /* raw RGBA8 frames, top row first, down a descriptor in order */
#define IKS_SINK_FFMPEG IKS_OUTPUT_VIDEO  /* one video: frames piped into ffmpeg */
#define IKS_SINK_ANIM IKS_OUTPUT_ANIMATION /* one animated file, encoded in this process frame after frame */
#define IKS_SINK_SOUND IKS_OUTPUT_SOUND   /* the toy's sound alone; no frames */

/* a set of bits per channel: IKS_DEPTH(8) | IKS_DEPTH(16) */
#define IKS_DEPTH(bits) (1u << ((bits) / 8))

/* The quality of a lossy format when nobody names one (render's --quality, a recording) */
#define IKS_DEFAULT_QUALITY 90

typedef struct iks_format {
    /* name ("PNG", for messages), its extensions (lower case, space separated: ".jpg .jpeg"; "-" for
     * raw frames), a line for the help and its kind: the row's public face (iks_output_format) */
    iks_output_info id;
    /* id.kind, under the name the engine's code reads; formats.c's rows set both from one word
     * (KIND), so they never differ */
    iks_sink sink;
    unsigned depths;          /* the bits per channel it takes (IKS_DEPTH) ... */
    int depth;                /* ... and its default */
    unsigned float_depths;    /* depths drawn into a float target and handed over as RGBA floats */
    bool alpha;               /* keeps the alpha channel when asked */
    bool quality;             /* lossy: takes a quality */
    bool audio;               /* carries the toy's sound as an audio track */
    bool resume;              /* its files can be kept by a resumed render (check says when one is whole) */
    bool even;                /* needs an even size (4:2:0 video): an odd one is padded */
    bool delay_cs;            /* plays at whole-centisecond frame delays (GIF) */
    int max_side;             /* the largest side the format holds; 0: none of its own */
    double max_fps;           /* the highest frame rate it can express; 0: none of its own */
    iks_image_encode_fn encode;        /* FILES */
    const iks_anim_encoder *anim;      /* ANIM */
    const char *muxer;                 /* FFMPEG: ffmpeg's -f (NULL: from the name, for the user's own args) */
    const char *video_args, *audio_args; /* FFMPEG: ffmpeg's options for the video and the audio */
    const char *mux_args;              /* FFMPEG: the container's options (a film joined from segments too) */
    /* FFMPEG: made in segments that join without encoding again (each a closed stream from a key
     * frame); not a GIF, whose palette is made for the whole clip */
    bool segments;
    iks_image_check_fn check;          /* FILES that resume: whether a file is a whole frame, and its identity */
} iks_format;

/* The format an output name asks for: "-" raw frames, else by its extension (any case). any_video: a
 * name no row takes is a video for ffmpeg (the caller gave its arguments). NULL when none fits. The one
 * reading of a name against the table: a caller looks its output up once and passes the row on. */
const iks_format *iks_format_of(const char *output, bool any_video);
/* Whether f takes depth bits per channel; and whether it is handed floats at that depth */
bool iks_format_takes(const iks_format *f, int depth);
bool iks_format_float(const iks_format *f, int depth);
/* Every format with a name, for messages and the help: i from 0, NULL past the last */
const iks_format *iks_format_at(int i);
/* The extensions of every format of sink, "a .png, .jpg, .jpeg" style, into buf */
void iks_format_list(char *buf, size_t n);

#endif
