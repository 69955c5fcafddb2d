/* uniforms.h: the uniforms ikshade gives a pass, as one list. Everything that knows a built-in uniform
 * reads it from here: the preludes declare them (glsl/source.c), the GL core finds and uploads them
 * (gpu/gpu.c), a setting that names one is refused with what sets it (engine.c), and the list is the
 * documentation (iks_builtin_uniform, `ikshade help uniforms`). A new uniform is one line here; a value
 * the caller gives is a field of the public iks_frame_info, read here as f->info.NAME (gpu.h's iks_frame
 * holds the caller's frame whole). See docs/DESIGN-NOTES.md, "where to change what".
 *
 * X(ID, NAME, TYPE, ARRAY, UPLOAD, FROM, DOC)
 *   ID      IKS_U_<ID>, the index of its location in iks_program
 *   NAME    its GLSL name (IKS_U_NAME_<ID>); TYPE its GLSL type; ARRAY "" or "[n]" (string literals, so that the preludes
 *           are made at compile time)
 *   UPLOAD  how gpu.c sends it: F1 F3 F4 (float, vec3, vec4), I1 (int), F1V F3V (arrays of float, vec3
 *           of the ARRAY's length), SAMPLER (the texture unit)
 *   FROM    the value, an expression over `t` (the target drawn into) and `f` (the frame: gpu.h's
 *           iks_frame); expanded only where gpu.c uploads
 *   DOC     what the value is, in the library's words
 * The lists are in the order the preludes declare them: a prelude's text (and so a pass's line numbers
 * and a checkpoint's shader identity) must not change when the list is reordered by accident. */
#ifndef IKS_UNIFORMS_H
#define IKS_UNIFORMS_H

/* The names, for the code that writes them into GLSL or a message (the wrappers' main(), the HUD) */
#define IKS_U_NAME_RESOLUTION "iResolution"
#define IKS_U_NAME_TIME "iTime"
#define IKS_U_NAME_TIME_DELTA "iTimeDelta"
#define IKS_U_NAME_FRAME "iFrame"
#define IKS_U_NAME_FRAME_RATE "iFrameRate"
#define IKS_U_NAME_MOUSE "iMouse"
#define IKS_U_NAME_DATE "iDate"
/* the channels' common prefix, for messages that name channel N ("iChannel%d") */
#define IKS_U_CHANNEL_PREFIX "iChannel"
#define IKS_U_NAME_CHANNEL0 "iChannel0"
#define IKS_U_NAME_CHANNEL1 "iChannel1"
#define IKS_U_NAME_CHANNEL2 "iChannel2"
#define IKS_U_NAME_CHANNEL3 "iChannel3"
#define IKS_U_NAME_CHANNEL_RES "iChannelResolution"
#define IKS_U_NAME_CHANNEL_TIME "iChannelTime"
#define IKS_U_NAME_SAMPLE_RATE "iSampleRate"
#define IKS_U_NAME_CUBE_CORNERS "iks_CubeCorners"
#define IKS_U_NAME_TIME_OFFSET "iTimeOffset"
#define IKS_U_NAME_SAMPLE_OFFSET "iSampleOffset"

/* every pass that draws a picture (Image, Buffers A-D, Cube A) and the sound pass */
#define IKS_UNIFORMS_COMMON(X)                                                                                       \
    X(RESOLUTION, IKS_U_NAME_RESOLUTION, "vec3", "", F3, ((float[]){ (float)t->w, (float)t->h, 1.0f }),              \
      "the size of what the pass draws, in pixels: (width, height, 1)")                                              \
    X(TIME, IKS_U_NAME_TIME, "float", "", F1, (float)f->time,                                                        \
      "the frame's time in seconds: time0 + frame / fps in a render, the clock in the viewer")                       \
    X(TIME_DELTA, IKS_U_NAME_TIME_DELTA, "float", "", F1, (float)f->time_delta,                                      \
      "seconds since the previous frame: 1 / fps in a render")                                                       \
    X(FRAME, IKS_U_NAME_FRAME, "int", "", I1, f->frame, "the frame's number, from 0")                                \
    X(FRAME_RATE, IKS_U_NAME_FRAME_RATE, "float", "", F1, (float)f->frame_rate, "frames per second: fps in a render") \
    X(MOUSE, IKS_U_NAME_MOUSE, "vec4", "", F4, f->mouse,                                                             \
      "the pointer as shadertoy.com gives it, in pixels: xy while the button is held, zw where it was "              \
      "pressed, z > 0 while held and w > 0 on the press's frame")                                                    \
    X(DATE, IKS_U_NAME_DATE, "vec4", "", F4, f->date,                                                                \
      "year, month (from 0), day, seconds since midnight; a render's is 2000-01-01 with the frame's time as "        \
      "its seconds, so renders repeat")                                                                              \
    X(CHANNEL0, IKS_U_NAME_CHANNEL0, "sampler2D", "", SAMPLER, 0, "channel 0's texture (samplerCube or sampler3D for a " \
      "cubemap or a volume)")                                                                                        \
    X(CHANNEL1, IKS_U_NAME_CHANNEL1, "sampler2D", "", SAMPLER, 1, "channel 1's texture")                             \
    X(CHANNEL2, IKS_U_NAME_CHANNEL2, "sampler2D", "", SAMPLER, 2, "channel 2's texture")                             \
    X(CHANNEL3, IKS_U_NAME_CHANNEL3, "sampler2D", "", SAMPLER, 3, "channel 3's texture")                             \
    X(CHANNEL_RES, IKS_U_NAME_CHANNEL_RES, "vec3", "[4]", F3V, &f->channel_res[0][0],                                \
      "each channel's size in pixels (0 for an empty channel)")                                                      \
    X(CHANNEL_TIME, IKS_U_NAME_CHANNEL_TIME, "float", "[4]", F1V, f->channel_time,                                   \
      "each channel's playback time in seconds (music and video; 0 otherwise)")                                      \
    X(SAMPLE_RATE, IKS_U_NAME_SAMPLE_RATE, "float", "", F1, (float)IKS_SAMPLE_RATE, "the sound's sample rate: 44100")

/* Cube A alone: the face drawn, as the site's footer takes it (four corners and the apex) */
#define IKS_UNIFORMS_CUBE(X)                                                                                         \
    X(CUBE_CORNERS, IKS_U_NAME_CUBE_CORNERS, "vec3", "[5]", F3V, f->cube_corners,                                    \
      "Cube A's face being drawn: its four corners and the ray origin (ikshade's own)")

/* the sound pass alone: where its block of 512 x 512 samples starts */
#define IKS_UNIFORMS_SOUND(X)                                                                                        \
    X(TIME_OFFSET, IKS_U_NAME_TIME_OFFSET, "float", "", F1, (float)f->time_offset, "the sound block's first sample's time") \
    X(SAMPLE_OFFSET, IKS_U_NAME_SAMPLE_OFFSET, "int", "", I1, f->sample_offset, "the sound block's first sample's number")

#define IKS_UNIFORMS(X) IKS_UNIFORMS_COMMON(X) IKS_UNIFORMS_CUBE(X) IKS_UNIFORMS_SOUND(X)

typedef enum {
#define IKS_U_ENUM_(id, name, type, array, up, from, doc) IKS_U_##id,
    IKS_UNIFORMS(IKS_U_ENUM_)
#undef IKS_U_ENUM_
    IKS_U_COUNT
} iks_uniform_id;

/* Names the preludes #define as a uniform of the list (the site's old name for the time) */
#define IKS_UNIFORM_ALIASES(X) X("iGlobalTime", IKS_U_NAME_TIME)

/* One line of a prelude: `uniform TYPE NAME[ARRAY];` */
#define IKS_U_DECL_(id, name, type, array, up, from, doc) "uniform " type " " name array ";\n"

#endif
