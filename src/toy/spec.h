/* spec.h: what a toy is, without GL: its passes (Buffers A-D, Image, Cube A, Sound, and the Common
 * text), each pass's four channels, and the two tables every user of them reads: the pass kinds and
 * the channel kinds. src/gpu builds a toy from a finished spec and only reads it; the loaders
 * (toyfile.c) fill one from a file, a JSON, a directory or text; `ikshade info` and iks_toy_describe
 * show one without any GL context (as sokol validates its plain-data descs before a backend sees
 * them, and as raylib's Image sits below Texture).
 * What it does not do: read files (toyfile.c), decode media (src/media) or touch GL (src/gpu). */
#ifndef IKS_SPEC_H
#define IKS_SPEC_H

#include "base/err.h"
#include "glsl/source.h"

#include <stdbool.h>

#define IKS_PASSES 6 /* A, B, C, D, Image, Cube A (drawn after the buffers, before Image) */
#define IKS_IMAGE_PASS 4
#define IKS_CUBE_PASS 5
#define IKS_SOUND_SLOT IKS_PASSES        /* the sound pass, after the drawn ones */
#define IKS_COMMON_SLOT (IKS_PASSES + 1) /* the Common text: a pass of the site's JSON, drawn by none */
#define IKS_PASS_KINDS (IKS_PASSES + 2)

/* IKS_IN_CUBE_BUFFER: the faces Cube A draws; IKS_IN_VOLUME: the site's .bin volume as a sampler3D */
typedef enum {
    IKS_IN_NONE,
    IKS_IN_BUFFER,
    IKS_IN_IMAGE,
    IKS_IN_KEYBOARD,
    IKS_IN_CUBEMAP,
    IKS_IN_CUBE_BUFFER,
    IKS_IN_VOLUME,
    IKS_IN_MUSIC, /* an audio file: the site's 512x2 spectrum + waveform texture at the channel's time */
    IKS_IN_VIDEO, /* a video file: its frame at the channel's time, looping */
    IKS_IN_MIC,   /* a live microphone or line-in: the music texture of what a capture device hears */
    IKS_IN_WEBCAM, /* a live camera: its latest frame */
    IKS_IN_KINDS
} iks_input_kind;
typedef enum { IKS_FILTER_LINEAR, IKS_FILTER_NEAREST, IKS_FILTER_MIPMAP } iks_filter;
/* the sampler type a channel's kind declares iChannelN as */
typedef enum { IKS_SAMPLER_2D, IKS_SAMPLER_CUBE, IKS_SAMPLER_3D } iks_sampler;

typedef struct {
    iks_input_kind kind;
    int buffer;       /* IKS_IN_BUFFER: 0..3 for A..D */
    const char *path; /* IKS_IN_IMAGE: a PNG or JPEG file; IKS_IN_CUBEMAP: the first face, X.png, with
                       * X_1.png .. X_5.png beside it (+x -x +y -y +z -z, the site's layout);
                       * IKS_IN_MUSIC, IKS_IN_VIDEO: the file (NULL: silence / black);
                       * IKS_IN_MIC, IKS_IN_WEBCAM: the capture device (NULL: the default one) */
    iks_filter filter;
    bool repeat;      /* wrap: repeat instead of clamp */
    bool vflip;       /* images: flip vertically on load (the site's default for textures) */
    bool srgb;        /* images: stored as sRGB, read back linear */
} iks_input;

typedef struct {
    const char *path; /* the pass's file, or its name when text is given; NULL: no such pass */
    const char *text; /* the code itself (from a JSON), or NULL to read path */
    iks_input in[4];
} iks_pass;

/* A toy: what every pass is and reads. Strings are owned by whoever filled it (an iks_toyfile). */
typedef struct {
    const char *common_path, *common_text; /* Shadertoy's Common tab, or NULLs */
    bool es;                                /* compile as GLSL ES 3.00 where the context can */
    bool sound_only; /* only the sound will be drawn: the picture passes are compiled, their media not loaded */
    const char *confine_dir;                /* see iks_source_opts; NULL for none */
    const char *text_dir;                   /* where passes given as text (a JSON's) #include from */
    iks_pass pass[IKS_PASSES];              /* A..D, Image (which must be there), Cube A */
    int cube_size;                          /* Cube A's face side; 0: the site's (IKS_CUBE_SIDE) */
    /* The order Buffers A-D are drawn in each frame: the site draws them in its JSON's pass order, which
     * is A, B, C, D unless the author added them otherwise. nbuffer_order 0: A, B, C, D. */
    int buffer_order[4];
    int nbuffer_order;
    /* The sound pass (mainSound), or path NULL. A single file with no sound pass that defines mainSound
     * is its own sound pass too, and only that when no mainImage can be seen in it. */
    iks_pass sound;
    /* An offline render without a recording of them runs its live inputs (microphone, webcam) silent and
     * black instead of refusing them (missing_media_black) */
    bool live_black;
    /* Bytes of decoded media (images, cubemap faces, volumes) the toy may hold in all; 0: IKS_MEDIA_BUDGET */
    size_t media_budget;
} iks_spec;
#define IKS_MEDIA_BUDGET ((size_t)1 << 30) /* 1 GiB: the site's heaviest toys hold a few hundred MiB */

/* ---- a uniform's value by name (--set, iks_toy_desc's sets and values) ----------------------------- */

typedef struct {
    char name[64];
    double v[4];
    int n;
    char field[16]; /* which of the caller's settings it is, for errors ("sets[2]"); "": "setting" */
} iks_setting;

/* Parses "NAME=V" or "NAME=V1,V2[,V3[,V4]]" (true and false for 1 and 0); false with IKS_E_USAGE about
 * the field "setting" (which a caller that knows the setting's place renames: iks_err_rename_field). */
bool iks_setting_parse(const char *arg, iks_setting *out, iks_err *e);
/* The slots of d's drawn passes in the order a frame draws them (the site's): Buffers A-D as d lists
 * them (then any it does not), Cube A, Image last (a paused redraw draws the last one alone);
 * IKS_PASSES of them, present or not */
void iks_spec_draw_order(const iks_spec *d, int order[IKS_PASSES]);
/* Whether the n bytes at s are a GLSL identifier (a letter or _, then letters, digits and _) */
bool iks_glsl_identifier(const char *s, size_t n);
/* A setting's error: IKS_E_USAGE about s's field ("setting" when it has none), its text arg quoted */
bool iks_setting_err(iks_err *e, const iks_setting *s, const char *arg, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- the pass kinds ------------------------------------------------------------------------------ */

typedef struct {
    const char *name;      /* "Buffer A": messages, a JSON pass's bracket, the HUD */
    const char *word;      /* "a": a manifest's PASS word; the directory's file is word + ".glsl" */
    const char *json_type; /* the site's renderpass type: "buffer", "image", "cubemap", "sound", "common" */
    int public_id;         /* its iks_pass_id (ikshade.h); -1 for Sound and Common, which draw no picture */
    iks_entry entry;       /* the entry point its main() wraps (Common has none of its own) */
} iks_pass_kind;

/* Slot s (0..IKS_PASS_KINDS-1: A-D, Image, Cube A, Sound, Common); NULL outside. */
const iks_pass_kind *iks_pass_kind_at(int s);
/* The slot of public pass id (iks_pass_id), -1 for none */
int iks_pass_slot_of_id(int public_id);
/* The slot whose manifest word is the n bytes at word, -1 for none */
int iks_pass_slot_of_word(const char *word, size_t n);
/* The pass at slot s of d (Sound at IKS_SOUND_SLOT); NULL for Common and outside */
iks_pass *iks_spec_pass(iks_spec *d, int s);
const iks_pass *iks_spec_pass_c(const iks_spec *d, int s);

/* ---- the channel kinds ---------------------------------------------------------------------------- */

typedef struct {
    iks_input_kind kind;
    const char *info;      /* its name in `ikshade info` and iks_channel_info: "image", "buffer", ... */
    const char *word;      /* a spec that is this word alone ("keyboard", "cube_a"); NULL: none */
    const char *prefix;    /* a spec that starts so ("cube:" FILE); NULL: none */
    const char *exts;      /* a spec FILE ending so (".png .jpg .jpeg"); NULL: matched by media_match */
    bool (*media_match)(const char *path); /* src/media's own list, for what ffmpeg decodes */
    const char *ctype;     /* the site's JSON input type ("texture"); NULL: not one of its inputs */
    iks_sampler sampler;   /* what the shader declares the channel as */
    bool file;             /* names a file (media that `ikshade import` fetches, that must stay inside a toy) */
    bool vflip;            /* the site's default vflip for it */
    const char *complete;  /* its words for a shell's completion ("keyboard", "file:png jpg jpeg") */
    /* A live input (a capture device): the viewer captures it, a library host feeds it, and an offline
     * render replays a recording of it (an input log's) or refuses it; noun names it in messages */
    bool live;
    const char *noun;      /* "microphone": what messages call a channel of this kind */
} iks_channel_kind;

/* The row of kind k; NULL outside (IKS_IN_NONE has none). */
const iks_channel_kind *iks_channel_kind_of(iks_input_kind k);
/* Row i of the table (0..), NULL past the last: the order of specs' matching and of the docs. */
const iks_channel_kind *iks_channel_kind_at(int i);
/* The row whose JSON ctype is type (Cube A's "cubemap" is told by the caller, which knows the id) */
const iks_channel_kind *iks_channel_kind_of_ctype(const char *type);

/* The completion of a channel spec, from the table: "words:W ...|file:EXT ..." (every kind's words, and
 * black; every kind's file endings, once each), into out (cap bytes, cut whole words short) */
void iks_channel_kinds_complete(char *out, size_t cap);
/* Parses one channel spec: FILE.png|FILE.jpg|cube:FILE.png|FILE.bin|an audio or video file|keyboard|
 * black|a|b|c|d|cube_a (a-d: a buffer; cube_a: the faces Cube A draws; cube: the first of six faces
 * FILE.png, FILE_1.png .. FILE_5.png), then ,filter=nearest|linear|mipmap ,wrap=clamp|repeat ,vflip=0|1
 * ,srgb=0|1. false with IKS_E_USAGE and the reason ("'SPEC': ...", for the caller to put the option's
 * name in front), or IKS_E_NOMEM; in->path is then NULL. An image's path is malloc'd (the caller frees
 * it). */
bool iks_channel_parse(const char *spec, iks_input *in, iks_err *e);
/* A filter's word ("linear", "nearest", "mipmap") and back */
bool iks_filter_parse(const char *v, iks_filter *f);
const char *iks_filter_word(iks_filter f);

/* The source options pass ps of d is assembled with (its text, Common, ES where es3 says the context
 * has it, its channels' sampler types, the entry point wrapped), from base's include search. */
void iks_spec_pass_opts(const iks_spec *d, const iks_pass *ps, iks_entry entry, bool es3, const iks_source_opts *base,
                        iks_source_opts *o);

#endif
