/* toy.h: a Shadertoy "toy": Common, Buffers A-D, Cube A and Image, with their channels, drawn in the
 * site's order every frame. Buffers are RGBA32F pairs (ping-pong): a pass reading a buffer sees its newest
 * contents, which is this frame's for a buffer drawn earlier and the previous frame's for itself or a
 * buffer drawn later, exactly as on shadertoy.com. Needs a current GL 3.3 context; never prints:
 * errors come back as an iks_err, warnings through an iks_logger. */
#ifndef IKS_TOY_H
#define IKS_TOY_H

#include "gpu/gpu.h"
#include "toy/spec.h"

#include <stdint.h>

#define IKS_CUBE_SIZE IKS_CUBE_SIDE /* a Cube A face's side on shadertoy.com (ikshade.h) */
/* Pixels in one step of a stepped Cube A (iks_gltoy_draw_steps): a strip of 128 rows of a 1024 face, about
 * 6 s for the heaviest toys seen on llvmpipe (a whole face took 50 s), so Ctrl-C and the progress bar
 * answer within seconds; on a GPU a step is well under a millisecond either way. */
#define IKS_STEP_PIXELS (128 * 1024)
/* Strips cost a draw each: on llvmpipe a cheap Cube A at the site's 1024 rendered 1.5x slower in 48
 * strips than whole, and waits and progress calls between its faces still cost 1.2x. So a stepped
 * frame is drawn in strips only where its Cube A's cost is unknown (the toy's first stepped frame) or
 * was this many seconds or more the last time; else whole, and only timed. */
#define IKS_STEP_SLOW 1.0

/* A uniform the toy's author declared (not one of ikshade's own): float, int, uint or bool, scalar or
 * vector, not an array; settable by name. */
typedef struct {
    char name[64];
    char type[32];      /* as declared: vec3, int, bvec2 */
    iks_ubase base;
    int comps;          /* 1..4 */
    double v[4];        /* its value now: the shader's initialiser or 0 at first, then what was set */
    bool active;        /* some pass's linked program still has it (compilers remove unread ones) */
    double initial[4];  /* its value at load: the #iUniform default, the initialiser or 0 */
    bool has_range, color, declared; /* from an #iUniform line (glsl/params.h) */
    double min, max, step;
} iks_uvalue;

/* A channel the caller feeds (iks_toy_set_channel) in place of what the description named: a texture of
 * the caller's (owned false: only its name is kept) or one the toy made from pixels in memory (owned). */
typedef struct {
    unsigned tex;           /* 0: none, the channel is the description's */
    unsigned target;        /* GL_TEXTURE_2D, _CUBE_MAP or _3D */
    bool owned;
    bool is_float;          /* owned: RGBA32F, else RGBA8 */
    int w, h, d;            /* iChannelResolution */
} iks_chan_feed;

typedef struct {
    iks_program prog[IKS_PASSES];
    int order[IKS_PASSES];           /* the passes in drawing order: buffers, Cube A, Image last */
    iks_input in[IKS_PASSES][4];
    unsigned tex[IKS_PASSES][4];     /* image textures, owned */
    float tex_res[IKS_PASSES][4][3];
    iks_target buf[4][2];
    int cur[4];                      /* which of each pair holds the newest contents */
    iks_cube_target cube[2];         /* Cube A's faces, a pair like the buffers' (zeroed: no Cube A) */
    int cube_cur;                    /* which of the pair holds the newest faces */
    double cube_seconds;             /* the last stepped frame's Cube A took this long (IKS_STEP_SLOW), */
    bool cube_timed;                 /* ... once there was one */
    iks_program sound;               /* the sound pass, or prog 0 */
    iks_input sound_in[4];
    unsigned sound_tex[4];           /* its image textures, owned */
    float sound_res[4][3];
    bool image_less;                 /* no picture: a sound shader alone */
    bool sound_only;                 /* built for its sound alone (the desc's): no picture may be drawn */
    unsigned keyboard;               /* 256x3 R8: held, pressed this frame, toggled */
    unsigned char keys[3][256];
    unsigned sampler_cache[3][2];    /* [filter][repeat] sampler objects */
    int w, h;
    bool has_buffers;
    char **files;                    /* every file read, for live reload (owned, growable) */
    int nfiles;
    size_t capfiles;
    char **wanted;                   /* includes looked for in vain: their creation is news (owned) */
    int nwanted;
    size_t capwanted;
    struct iks_media *media[IKS_PASSES][4]; /* music and video channels' decoders (owned; media.c) */
    struct iks_livein *live[IKS_PASSES][4]; /* microphone and webcam channels (owned; livein.c) */
    iks_err media_err;               /* a video that stopped decoding mid-way: the draw's caller fails */
    float *snd_cache;                /* a block of the sound pass's samples for a speaker (owned), */
    long snd_block;                  /* ... and which block it is (-1: none) */
    uint64_t identity;               /* a hash of what the passes are: sources, channels, the texels of
                                      * images, cubemaps and volumes (music and video: below) */
    uint64_t settings_id;            /* a hash of every setting applied, in order (iks_gltoy_apply) */
    iks_uvalue *uniforms;            /* the author's uniforms of the picture's passes, first
                                      * declaration of a name first (owned); kept by iks_gltoy_apply */
    int nuniforms;
    size_t media_left, media_budget; /* the spec's media budget, and what its decoded media left of it */
    iks_chan_feed feed[IKS_PASSES][4]; /* channels the caller feeds (textures owned as each says) */
    uint8_t *feed_rows;              /* pixels turned bottom row first for an upload (owned) */
    size_t feed_cap;
} iks_gltoy;

/* What the caller feeds a channel with: a texture (tex, target; w, h, d 0: asked of GL) or pixels
 * (rows top first, stride bytes apart, 4 floats or 4 bytes a pixel), checked by the caller of
 * iks_gltoy_feed except against GL: the shader's sampler type, the texture and the GL's largest size,
 * which iks_gltoy_feed refuses with IKS_E_USAGE naming "target", "texture" or "size". */
typedef struct {
    unsigned tex, target;
    const void *pixels;
    bool is_float;
    int w, h, d;
    size_t stride;
} iks_feed_src;
/* Feeds channel c of pass p from src (NULL: back to the description's channel). */
bool iks_gltoy_feed(iks_gltoy *t, int p, int c, const iks_feed_src *src, iks_err *e);

/* The author's uniform called name, or NULL. */
const iks_uvalue *iks_gltoy_uniform(const iks_gltoy *t, const char *name);

/* Builds every pass (sources through iks_source_load with base's include dirs, plus Common) and loads
 * the images; the compiler's warnings go to log. On failure returns false with the error of the step
 * that failed, unchanged: iks_source_load's codes, IKS_E_COMPILE (the mapped lines), IKS_E_IO for an
 * image that is missing or cannot be decoded ("path: reason"), IKS_E_FORMAT for cubemap faces that are
 * not square and alike, IKS_E_USAGE for a desc without an Image pass or reading a buffer it lacks or
 * a size beyond the GL's, IKS_E_GL, IKS_E_NOMEM. Only t->files (those read so far) is left then:
 * iks_gltoy_destroy frees it, as after a success. */
bool iks_gltoy_create(iks_gltoy *t, const iks_spec *d, const iks_source_opts *base, int w, int h, iks_err *e,
                      const iks_logger *log);
void iks_gltoy_destroy(iks_gltoy *t);

/* Applies --set settings to every pass that declares them; a name no pass declares is IKS_E_USAGE,
 * worded as for a single program. A setting that every declaring pass's compiler removed is one
 * warning to log. */
bool iks_gltoy_apply(iks_gltoy *t, const iks_setting *s, int n, iks_err *e, const iks_logger *log);

/* Buffers follow the output size; their contents are kept (the overlap is copied), as on the site.
 * On failure (iks_target_create's codes) the old buffers stay. */
bool iks_gltoy_resize(iks_gltoy *t, int w, int h, iks_err *e);

/* Key k (a JavaScript keyCode, 0..255) went down or up: rows of the keyboard texture. */
void iks_gltoy_key(iks_gltoy *t, int k, bool down);

/* Draws Buffers A-D, then Cube A's six faces, then Image into out; f's channel fields are filled here. Then clears the
 * "pressed this frame" row of the keyboard. */
void iks_gltoy_draw(iks_gltoy *t, const iks_target *out, iks_frame *f);
/* A frame's Cube A in steps, for a caller that must show progress or stop while one frame takes minutes
 * on a CPU rasterizer (strips 0: where its last Cube A was fast, whole and timed, IKS_STEP_SLOW; 1:
 * always in strips; -1: whole, no steps):
 * step(user, part, parts) runs after each step has finished drawing (glFinish), so
 * a stop acts within one step; false stops the frame there, with the buffers drawn before it moved on
 * and Cube A's newer half part drawn (a render that stops drops the toy's state anyway). The picture
 * is byte for byte iks_gltoy_draw's. */
typedef bool (*iks_step_fn)(void *user, int part, int parts);
bool iks_gltoy_draw_steps(iks_gltoy *t, const iks_target *out, iks_frame *f, int strips, iks_step_fn step, void *user);
/* Whether it has a Cube A pass, which iks_gltoy_draw_steps draws in steps (the other passes draw whole) */
bool iks_gltoy_has_cube(const iks_gltoy *t);
/* Draws the Image pass alone from the buffers as they are: a paused viewer redraws the same frame
 * without moving any feedback on. */
void iks_gltoy_redraw_image(iks_gltoy *t, const iks_target *out, iks_frame *f);

/* The source options pass ps of d is assembled with (its text, Common, ES, its channels' sampler
 * types, the entry point wrapped), from base's include search. */
void iks_gltoy_pass_opts(const iks_spec *d, const iks_pass *ps, iks_entry entry, const iks_source_opts *base,
                         iks_source_opts *o);

/* Music and video channels (media.c): opened at create, their textures brought to the frame's time
 * before each draw, closed at destroy. */
bool iks_media_open(iks_gltoy *t, int pass, int c, iks_err *e);
void iks_media_update(iks_gltoy *t, int pass, int c, const iks_frame *f, float *channel_time);
void iks_media_close(iks_gltoy *t, int pass, int c);
/* The site's 512x2 music texture (the analyser's bytes: spectrum row, waveform row) into tex: music and
 * microphone channels alike */
void iks_music_upload(unsigned tex, const uint8_t bytes[2 * 512]);
/* A live channel (microphone, webcam) replaced by its recording at path (a WAV, a video): from then on
 * the music or video channel of that file, its time the frame's time less start, played once (silence,
 * or its last frame, past its end). An offline render's replay of a session (render.c). */
bool iks_media_replay(iks_gltoy *t, int pass, int c, const char *path, double start, iks_err *e);
/* Undoes iks_media_replay: the live channel again, as it was opened (nothing for any other channel) */
void iks_media_unreplay(iks_gltoy *t, int pass, int c);
/* ---- live channels (livein.c) ----
 * A microphone or webcam channel: silent or black until fed. What feeds it is a capture the viewer
 * runs (src/media's, started by live.c) or a library host (iks_toy_feed_audio, iks_toy_set_channel).
 * Feeding may come from any thread; the texture is brought up to date by the draw (update). */
bool iks_livein_open(iks_gltoy *t, int pass, int c, iks_err *e);
void iks_livein_update(iks_gltoy *t, int pass, int c, const iks_frame *f, float *channel_time);
void iks_livein_close(iks_gltoy *t, int pass, int c);
/* Feeding a live channel (any thread; false with e for a channel that is not one of that kind):
 * a microphone's sound, mono at IKS_ANALYSER_RATE (44.1 kHz), appended after what came before; */
bool iks_livein_audio(iks_gltoy *t, int pass, int c, const float *mono, size_t n, iks_err *e);
/* a webcam's frame, RGBA, top row first, w x h: the one shown from the next draw on */
bool iks_livein_frame(iks_gltoy *t, int pass, int c, const uint8_t *rgba, int w, int h, iks_err *e);
/* The toy's sound for a speaker: its sound pass and its music channels mixed, as the site plays each
 * of them, 16-bit stereo from sample `first` (the time * 44100) on; silence where it has none. The sound
 * pass is drawn a 512x512-sample block at a time (about 6 s) when the stream reaches it: needs t's
 * GL context current. */
bool iks_gltoy_has_audio(const iks_gltoy *t);
/* Adds the music channels' 16-bit stereo samples first .. first+n-1 (looping) into acc (2n values). */
void iks_gltoy_music_add(const iks_gltoy *t, long long first, long n, int32_t *acc);
void iks_gltoy_audio(void *toy, long long first, int n, int16_t *lr);
/* A media error met while drawing (kept, the draw went on with the last good frame): false and e. */
bool iks_gltoy_media_ok(iks_gltoy *t, iks_err *e);
/* The sound pass's sample rate and the block of samples one draw makes, as on shadertoy.com */
#define IKS_SOUND_BLOCK 512 /* a block is IKS_SOUND_BLOCK x IKS_SOUND_BLOCK samples */
/* Samples first .. first+n-1 of the sound pass (sample s at s / 44100 s), as interleaved left/right
 * floats into lr (2n of them), as the shader returned them (not clamped). Drawn in blocks of 512x512
 * into a float target and read back, as the site does. IKS_E_USAGE when the toy has no sound pass,
 * IKS_E_GL when the target cannot be made. */
bool iks_gltoy_sound(iks_gltoy *t, long first, long n, float *lr, iks_err *e);
/* One sample value y as a signed 16-bit sample, packed as the site packs it: u = floor((0.5 + 0.5y) *
 * 65536) in 32-bit float, its low and high bytes stored as two channels of an 8-bit target (each clamped
 * to 0..255 by the store), read back as u = lo + 256 hi; the result is u - 32768. So +1 gives 32512 (not
 * 32767), 1.2 keeps its low byte (32665), -1.3 gives 153 - 32768, and NaN (stored as 0) gives -32768. */
int16_t iks_sound_pack(float y);
/* The toy's identity (t->identity) with the bytes of its music and video files, which it reads whole:
 * a checkpoint's mark of the toy. IKS_E_IO naming a file that cannot be read, IKS_E_NOMEM. */
bool iks_gltoy_content_id(const iks_gltoy *t, uint64_t *id, iks_err *e);
/* ---- feedback state (render's checkpoints) ----
 * Everything a frame leaves behind for later frames: the contents of every feedback target (both halves
 * of each ping-pong pair, since a pass that discards pixels leaves the older half's there), which half
 * is the newest, and the keyboard's rows. One iterator in toy.c visits the targets in a fixed order;
 * a new kind of feedback target joins the state by being visited there. */

/* Moves len bytes between the caller's store and data; false stops the walk (the caller words why). */
typedef bool (*iks_state_io)(void *user, void *data, size_t len);
/* How many bytes iks_gltoy_state_save hands to put in all: w x h RGBA32F per target, and a little. */
uint64_t iks_gltoy_state_bytes(const iks_gltoy *t);
/* Hands the state to put, in pieces, in the order _load takes them. false: IKS_E_NOMEM, or put failed
 * (IKS_E_IO with an empty message: the caller's put knows why). */
bool iks_gltoy_state_save(iks_gltoy *t, iks_state_io put, void *user, iks_err *e);
/* Takes the state back from get, as _save gave it, into a toy of the same passes and size. false:
 * IKS_E_NOMEM, IKS_E_FORMAT for a value no save writes, or get failed (as for put); the state is then
 * partly replaced. */
bool iks_gltoy_state_load(iks_gltoy *t, iks_state_io get, void *user, iks_err *e);

#endif
