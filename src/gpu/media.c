/* media.c: music and video channels of a toy. A music channel is the site's 512x2 R8 texture (row 0 the
 * spectrum, row 1 the waveform, src/io/analyser.c), a video channel an RGBA8 texture of the clip's
 * frame; both are brought to the channel's time before the passes draw. The channel's time is the
 * frame's time (the site starts its media with the shader), clamped at 0; videos loop, and so does
 * music. Decoding is src/io/mediain.c's. */
#include "gpu/toy.h"

#include "media/analyser.h"
#include "media/mediain.h"

#include <glad/gl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct iks_media {
    bool video;
    bool live;              /* a microphone or webcam: t->live[pass][c] (livein.c) is its state */
    /* A recording of a live channel replayed as a file (iks_media_replay): its channel time is the
     * frame's time less start, it plays once (no loop: silence or its last frame past the end) */
    bool once;
    double start;
    char *replay_path;      /* owned; t->in[pass][c].path points here while it is replayed */
    iks_input_kind live_kind; /* what it replays: its channel's own kind and device, put back after */
    const char *device;
    iks_audio audio;
    iks_analyser an;
    uint8_t bytes[2 * IKS_ANALYSER_BINS];
    double last_t, last_dt; /* the music texture's time, to skip an upload of the same frame */
    iks_video_in vid;
    uint8_t *flipped;       /* a video frame bottom row first, for vflip (owned) */
    long shown;             /* the video frame in the texture, -1 before the first */
};

static bool open_channel(iks_gltoy *t, int pass, int c, bool once, double start, iks_err *e)
{
    const iks_input *in = &t->in[pass][c];
    struct iks_media *m = calloc(1, sizeof *m);
    if (!m) return iks_err_set(e, IKS_E_NOMEM, "out of memory");
    t->media[pass][c] = m;
    m->once = once;
    m->start = start;
    m->video = in->kind == IKS_IN_VIDEO;
    m->live = iks_channel_kind_of(in->kind) && iks_channel_kind_of(in->kind)->live;
    m->last_t = NAN;
    m->shown = -1;
    if (m->live) return iks_livein_open(t, pass, c, e);
    float *res = t->tex_res[pass][c];
    glGenTextures(1, &t->tex[pass][c]);
    glBindTexture(GL_TEXTURE_2D, t->tex[pass][c]);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    if (!m->video) {
        /* a missing file (--missing-media=black) is silence: the analyser of no samples */
        if (in->path && !iks_audio_load(in->path, &m->audio, e)) return false;
        iks_analyser_init(&m->an, m->audio.samples, m->audio.n, !m->once);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, IKS_ANALYSER_BINS, 2, 0, GL_RED, GL_UNSIGNED_BYTE, m->bytes);
        res[0] = IKS_ANALYSER_BINS, res[1] = 2, res[2] = 1;
    } else if (!in->path) {
        static const uint8_t black[4] = { 0, 0, 0, 255 };
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, black);
        res[0] = res[1] = res[2] = 1;
    } else {
        if (!iks_video_open(&m->vid, in->path, e)) return false;
        int max = iks_gpu_max_size();
        if (m->vid.w > max || m->vid.h > max)
            return iks_err_set(e, IKS_E_UNSUPPORTED, "%s: %dx%d is larger than this GL's textures (at most %d on a side)",
                               in->path, m->vid.w, m->vid.h, max);
        if (in->vflip && !(m->flipped = malloc((size_t)m->vid.w * (size_t)m->vid.h * 4)))
            return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", in->path);
        glTexImage2D(GL_TEXTURE_2D, 0, in->srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, m->vid.w, m->vid.h, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, NULL);
        res[0] = (float)m->vid.w, res[1] = (float)m->vid.h, res[2] = 1;
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    return true;
}

void iks_music_upload(unsigned tex, const uint8_t bytes[2 * IKS_ANALYSER_BINS])
{
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, IKS_ANALYSER_BINS, 2, GL_RED, GL_UNSIGNED_BYTE, bytes);
    glBindTexture(GL_TEXTURE_2D, 0);
}

bool iks_media_open(iks_gltoy *t, int pass, int c, iks_err *e) { return open_channel(t, pass, c, false, 0, e); }

void iks_media_update(iks_gltoy *t, int pass, int c, const iks_frame *f, float *channel_time)
{
    struct iks_media *m = t->media[pass][c];
    if (!m) return;
    if (m->live) {
        iks_livein_update(t, pass, c, f, channel_time);
        return;
    }
    const iks_input *in = &t->in[pass][c];
    double tc = f->time > 0 && isfinite(f->time) ? f->time : 0.0;
    if (m->once) tc = isfinite(f->time) && f->time > m->start ? f->time - m->start : 0.0;
    if (!m->video) {
        double len = m->audio.n ? (double)m->audio.n / IKS_ANALYSER_RATE : 0;
        *channel_time = (float)(len > 0 && !m->once ? fmod(tc, len) : tc);
        double dt = f->time_delta > 0 ? f->time_delta : 1.0 / 60;
        if (tc == m->last_t && dt == m->last_dt) return;
        iks_analyser_frame(&m->an, tc, dt, m->bytes);
        m->last_t = tc;
        m->last_dt = dt;
        iks_music_upload(t->tex[pass][c], m->bytes);
        return;
    }
    if (!in->path) return; /* black */
    double dur = iks_video_duration(&m->vid);
    /* a recording holds its last frame past its end (the session ended there) */
    if (m->once && tc >= dur) tc = fmax(0.0, dur - 0.5 / m->vid.fps);
    *channel_time = (float)(m->once ? tc : fmod(tc, dur));
    iks_err e = IKS_ERR_INIT;
    const uint8_t *px = iks_video_frame_at(&m->vid, tc, &e);
    if (!px) {
        /* the texture keeps the last good frame; the caller of the draw reports this */
        if (t->media_err.code == IKS_OK) t->media_err = e;
        else iks_err_clear(&e);
        return;
    }
    if (m->vid.have == m->shown) return;
    m->shown = m->vid.have;
    int w = m->vid.w, h = m->vid.h;
    if (m->flipped) {
        /* ffmpeg gives the top row first; GL's first row is the bottom, where vflip wants the image's
         * bottom, as the site uploads videos (UNPACK_FLIP_Y) */
        for (int y = 0; y < h; y++) memcpy(m->flipped + (size_t)y * w * 4, px + (size_t)(h - 1 - y) * w * 4, (size_t)w * 4);
        px = m->flipped;
    }
    glBindTexture(GL_TEXTURE_2D, t->tex[pass][c]);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
    if (in->filter == IKS_FILTER_MIPMAP) glGenerateMipmap(GL_TEXTURE_2D);
    glBindTexture(GL_TEXTURE_2D, 0);
}

void iks_media_close(iks_gltoy *t, int pass, int c)
{
    struct iks_media *m = t->media[pass][c];
    if (!m) return;
    if (m->live) iks_livein_close(t, pass, c);
    if (m->replay_path) t->in[pass][c].path = NULL; /* it pointed at the copy freed here */
    free(m->replay_path);
    iks_audio_free(&m->audio);
    if (m->video && m->vid.path) iks_video_close(&m->vid); /* a zeroed one was never opened */
    free(m->flipped);
    free(m);
    t->media[pass][c] = NULL;
}

void iks_gltoy_music_add(const iks_gltoy *t, long long first, long n, int32_t *acc)
{
    for (int p = 0; p < IKS_PASSES; p++)
        for (int c = 0; c < 4; c++) {
            const struct iks_media *m = t->media[p][c];
            if (!m || m->video || !m->audio.n) continue; /* a live channel holds no track */
            long long len = (long long)m->audio.n;
            /* a replayed recording starts where the session's capture did, and plays once */
            long long skip = m->once ? llround(m->start * IKS_ANALYSER_RATE) : 0;
            for (long i = 0; i < n; i++) {
                long long pos = first + i - skip;
                if (pos < 0) continue; /* before the shader started: silence */
                if (m->once && pos >= len) break;
                pos %= len;            /* music loops, as the analyser reads it */
                acc[2 * i] += m->audio.stereo[2 * pos];
                acc[2 * i + 1] += m->audio.stereo[2 * pos + 1];
            }
        }
}

int16_t iks_sound_pack(float y)
{
    /* the site's shader, in the same 32-bit float steps (0.5y is exact, so one rounding in the sum) */
    float v = floorf((0.5f + 0.5f * y) * 65536.0f);
    /* its mod(v, 256.0) and floor(v / 256.0): NaN and infinities are NaN or out of range there, and a
     * NaN stored into an 8-bit channel is 0 (the GL ES and D3D rules the site's ANGLE follows) */
    float hi = floorf(v / 256.0f), lo = v - 256.0f * hi;
    int l = lo == lo && lo >= 0 && lo <= 255 ? (int)lo : 0;
    int h = hi != hi ? 0 : hi > 255 ? 255 : hi < 0 ? 0 : (int)hi;
    return (int16_t)(l + 256 * h - 32768);
}

bool iks_gltoy_has_audio(const iks_gltoy *t)
{
    if (t->sound.prog) return true;
    for (int p = 0; p < IKS_PASSES; p++)
        for (int c = 0; c < 4; c++)
            if (t->media[p][c] && !t->media[p][c]->video && t->media[p][c]->audio.n) return true;
    return false;
}

void iks_gltoy_audio(void *toy, long long first, int n, int16_t *lr)
{
    iks_gltoy *t = toy;
    int32_t *acc = calloc((size_t)n * 2, sizeof *acc);
    if (!acc) {
        memset(lr, 0, (size_t)n * 2 * sizeof *lr);
        return;
    }
    if (t->sound.prog && t->snd_block != -2) { /* -2: drawing it failed once; silence, not a stall a call */
        const long block = (long)IKS_SOUND_BLOCK * IKS_SOUND_BLOCK;
        if (!t->snd_cache) {
            t->snd_cache = malloc((size_t)block * 2 * sizeof *t->snd_cache);
            t->snd_block = -1;
        }
        for (int i = 0; t->snd_cache && i < n; i++) {
            long long pos = first + i;
            if (pos < 0 || pos >= INT_MAX) continue; /* before the start; past what the site numbers */
            long b = (long)(pos / block);
            if (b != t->snd_block) {
                iks_err e = IKS_ERR_INIT;
                t->snd_block = iks_gltoy_sound(t, b * block, block, t->snd_cache, &e) ? b : -2;
                iks_err_clear(&e);
                if (t->snd_block < 0) break;
            }
            for (int ch = 0; ch < 2; ch++) {
                /* packed as the WAV is */
                acc[2 * i + ch] += iks_sound_pack(t->snd_cache[2 * (pos - b * block) + ch]);
            }
        }
    }
    iks_gltoy_music_add(t, first, n, acc);
    for (int i = 0; i < 2 * n; i++) lr[i] = (int16_t)(acc[i] > 32767 ? 32767 : acc[i] < -32768 ? -32768 : acc[i]);
    free(acc);
}

bool iks_gltoy_media_ok(iks_gltoy *t, iks_err *e)
{
    if (t->media_err.code == IKS_OK) return true;
    *e = t->media_err;
    t->media_err = (iks_err)IKS_ERR_INIT;
    return false;
}

bool iks_media_replay(iks_gltoy *t, int pass, int c, const char *path, double start, iks_err *e)
{
    iks_input *in = &t->in[pass][c];
    const iks_channel_kind *k = iks_channel_kind_of(in->kind);
    if (!k || !k->live) return iks_err_set(e, IKS_E_USAGE, "channel %d is not a live input", c);
    char *copy = strdup(path);
    if (!copy) return iks_err_set(e, IKS_E_NOMEM, "out of memory");
    iks_input_kind kind = in->kind;
    const char *device = in->path;
    iks_media_close(t, pass, c);
    if (t->tex[pass][c]) glDeleteTextures(1, &t->tex[pass][c]);
    t->tex[pass][c] = 0;
    /* from here on it is the music or video channel the recording is, played once from start */
    in->kind = in->kind == IKS_IN_MIC ? IKS_IN_MUSIC : IKS_IN_VIDEO;
    in->path = copy;
    bool ok = open_channel(t, pass, c, true, start, e);
    struct iks_media *m = t->media[pass][c];
    if (m) { /* freed with it, failed or not */
        m->replay_path = copy;
        m->live_kind = kind;
        m->device = device;
    } else {
        free(copy);
        in->kind = kind, in->path = device;
    }
    return ok;
}

void iks_media_unreplay(iks_gltoy *t, int pass, int c)
{
    struct iks_media *m = t->media[pass][c];
    if (!m || !m->replay_path) return;
    iks_input_kind kind = m->live_kind;
    const char *device = m->device;
    iks_media_close(t, pass, c);
    if (t->tex[pass][c]) glDeleteTextures(1, &t->tex[pass][c]);
    t->tex[pass][c] = 0;
    t->in[pass][c].kind = kind;
    t->in[pass][c].path = device;
    iks_err e = IKS_ERR_INIT;
    /* a live channel's opening makes a texture and nothing that can fail but memory; without it the
     * channel reads nothing (no texture): still drawable */
    if (!iks_media_open(t, pass, c, &e)) iks_err_clear(&e);
}
