/* formats.c: the output formats (see formats.h). A row says everything the render and the writer need
 * to know of a format; their code reads these fields and never a format's name.
 * What it does not do: encode (src/io) or write (writer.c, writer_video.c). */
#include "engine/formats.h"

#include "base/strutil.h"
#include "io/hdrio.h"
#include "io/jpgio.h"
#include "io/pngio.h"
#include "io/webpio.h"

#include <stdio.h>
#include <string.h>

/* ffmpeg's options for the defaults that play everywhere: H.264 or VP9 in yuv420p; AAC, or Opus in
 * WebM, for the audio. VP9's realtime settings are several times faster than its default on two cores. */
#define H264 "-c:v libx264 -preset veryfast -crf 18 -pix_fmt yuv420p"
#define AAC "-c:a aac -b:a 192k"
/* a row's public face (iks_output_info: name, extensions, a line for the help, the kind) and its sink,
 * the kind under the engine's name, from the one word k */
#define ID(name, exts, what, k) .id = { name, exts, what, IKS_OUTPUT_##k }, .sink = IKS_OUTPUT_##k

static const iks_format FORMATS[] = {
    { ID("PNG", ".png", "PNG files (16 bits with depth 16, drawn in float)", FILES),
      .depths = IKS_DEPTH(8) | IKS_DEPTH(16), .depth = 8, .float_depths = IKS_DEPTH(16),
      .alpha = true, .resume = true, .encode = iks_png_image, .check = iks_png_check_frame },
    { ID("JPEG", ".jpg .jpeg", "JPEG files (baseline, 4:4:4) at quality (default 90)", FILES),
      .depths = IKS_DEPTH(8), .depth = 8, .quality = true, .max_side = 65500, .resume = true, .encode = iks_jpg_image,
      .check = iks_jpg_check_frame },
    { ID("OpenEXR", ".exr", "OpenEXR files (RGBA half floats, ZIP; floats with depth 32): "
         "values above 1 and below 1/255 kept", FILES), .depths = IKS_DEPTH(16) | IKS_DEPTH(32),
      .depth = 16, .float_depths = IKS_DEPTH(16) | IKS_DEPTH(32), .alpha = true, .resume = true,
      .encode = iks_exr_image, .check = iks_exr_check_frame },
    { ID("raw frames", "-", "raw RGBA8 frames, top row first, to a descriptor (stdout)", RAW),
      .depths = IKS_DEPTH(8), .depth = 8 },
    { ID("MP4", ".mp4", "H.264 video through ffmpeg, with the toy's sound as AAC", VIDEO),
      .depths = IKS_DEPTH(8), .depth = 8, .audio = true, .even = true, .muxer = "mp4",
      .video_args = H264, .audio_args = AAC, .mux_args = "-movflags +faststart", .segments = true },
    { ID("Matroska", ".mkv", "H.264 video through ffmpeg, with the toy's sound as AAC", VIDEO),
      .depths = IKS_DEPTH(8), .depth = 8, .audio = true, .even = true,
      .muxer = "matroska", .video_args = H264, .audio_args = AAC, .segments = true },
    { ID("WebM", ".webm", "VP9 video through ffmpeg, with the toy's sound as Opus", VIDEO),
      .depths = IKS_DEPTH(8), .depth = 8, .audio = true, .even = true, .muxer = "webm",
      .video_args = "-c:v libvpx-vp9 -b:v 0 -crf 32 -deadline realtime -cpu-used 8 -row-mt 1 -pix_fmt yuv420p",
      .audio_args = "-c:a libopus -b:a 192k", .segments = true },
    /* one palette made for the whole clip (changes only, so a still background stays clean) */
    { ID("GIF", ".gif", "an animated GIF through ffmpeg, its palette made for the clip "
         "(delays are whole 1/100 s: 60 fps plays at 50)", VIDEO), .depths = IKS_DEPTH(8),
      .depth = 8, .delay_cs = true, .muxer = "gif",
      .video_args = "-filter_complex split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:"
                    "bayer_scale=5:diff_mode=rectangle -loop 0" },
    { ID("WebP", ".webp", "an animated WebP (lossy, looping), made in-process at quality "
         "(default 90)", ANIMATION), .depths = IKS_DEPTH(8), .depth = 8, .quality = true,
      .max_side = 16383, .max_fps = 1000, .anim = &iks_webp_encoder },
    { ID("WAV", ".wav", "the toy's sound (its sound pass and music channels) as 44100 Hz "
         "16-bit stereo", SOUND), .depths = IKS_DEPTH(8), .depth = 8 },
};
#define NFORMATS (sizeof FORMATS / sizeof FORMATS[0])

/* a video of the user's own ffmpeg arguments, in a container ffmpeg tells from the name */
static const iks_format ANY_VIDEO = { ID("video", "", "", VIDEO),
                                      .depths = IKS_DEPTH(8), .depth = 8, .audio = true };

/* whether output ends with one of the space-separated extensions exts */
static bool has_ext(const char *output, const char *exts)
{
    for (const char *p = exts; *p;) {
        size_t n = strcspn(p, " ");
        char ext[16];
        if (n > 0 && n < sizeof ext) {
            memcpy(ext, p, n);
            ext[n] = '\0';
            if (iks_ends_with(output, ext)) return true;
        }
        p += n;
        while (*p == ' ') p++;
    }
    return false;
}

const iks_format *iks_format_of(const char *output, bool any_video)
{
    for (size_t i = 0; i < NFORMATS; i++) {
        const iks_format *f = &FORMATS[i];
        if (f->sink == IKS_SINK_RAW ? strcmp(output, f->id.exts) == 0 : has_ext(output, f->id.exts)) {
            /* the user's own ffmpeg arguments make an animation of ours theirs; images, raw frames and
             * sound stay what they are */
            if (any_video && f->sink == IKS_SINK_ANIM) return &ANY_VIDEO;
            return f;
        }
    }
    return any_video && strcmp(output, "-") != 0 ? &ANY_VIDEO : NULL;
}

bool iks_format_takes(const iks_format *f, int depth)
{
    return depth >= 8 && depth <= 32 && depth % 8 == 0 && (f->depths & IKS_DEPTH(depth));
}

bool iks_format_float(const iks_format *f, int depth)
{
    return iks_format_takes(f, depth) && (f->float_depths & IKS_DEPTH(depth));
}

const iks_format *iks_format_at(int i)
{
    return i >= 0 && (size_t)i < NFORMATS ? &FORMATS[i] : NULL;
}

void iks_format_list(char *buf, size_t n)
{
    size_t k = 0;
    if (n) buf[0] = '\0';
    for (size_t i = 0; i < NFORMATS && k < n; i++) {
        const char *e = FORMATS[i].id.exts;
        if (FORMATS[i].sink == IKS_SINK_RAW) continue;
        int r = snprintf(buf + k, n - k, "%s%s", k ? " " : "", e);
        if (r < 0) break;
        k += (size_t)r;
    }
}

const iks_output_info *iks_output_format(int i)
{
    return i >= 0 && (size_t)i < NFORMATS ? &FORMATS[i].id : NULL;
}

const iks_output_info *iks_output_format_of(const char *output)
{
    const iks_format *f = output ? iks_format_of(output, false) : NULL;
    return f ? &f->id : NULL;
}
