/* test_mic_api.c: iks_toy_feed_audio, a host's own sound for a microphone channel. A tone fed to a mic
 * channel must give the texture the analyser gives the same samples as a music channel (a WAV of them
 * decoded by ffmpeg, at the time the fed sound ends): every byte of both rows. Bad feeds are refused
 * naming the field. Usage: test_mic_api (needs ffmpeg for the music channel). */
#include <ikshade/ikshade.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int passed, failed;

#define CHECK(cond, what, ...)                                                                        \
    do {                                                                                              \
        if (cond) passed++;                                                                           \
        else {                                                                                        \
            failed++;                                                                                 \
            printf("FAIL: %s: ", what);                                                               \
            printf(__VA_ARGS__);                                                                      \
            printf("\n");                                                                             \
        }                                                                                             \
    } while (0)

static void check_field(const char *what, iks_code c, const char *field)
{
    const char *f = iks_last_error_field(NULL), *m = "";
    iks_last_error(&m);
    CHECK(c == IKS_E_USAGE && !strcmp(f, field), what, "got code %d field '%s' (%s), expected '%s'", (int)c, f, m, field);
}

/* the texture's two rows as the picture: the bottom pixel row is texture row 0 */
static const char *SHOW = "void mainImage(out vec4 o, in vec2 p) {\n"
                          "    o = vec4(texelFetch(iChannel0, ivec2(int(p.x), int(p.y)), 0).r, 0.0, 0.0, 1.0);\n"
                          "}\n";

enum { W = 512, H = 2, RATE = 44100, N = 1033 * 128 }; /* 3 s: whole quanta, so both read one window */

static bool write_wav(const char *path, const int16_t *s, int n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    uint32_t data = (uint32_t)n * 2, riff = 36 + data, fmt = 16, rate = RATE, bps = RATE * 2;
    uint16_t tag = 1, ch = 1, align = 2, bits = 16;
    fwrite("RIFF", 1, 4, f), fwrite(&riff, 4, 1, f), fwrite("WAVEfmt ", 1, 8, f), fwrite(&fmt, 4, 1, f);
    fwrite(&tag, 2, 1, f), fwrite(&ch, 2, 1, f), fwrite(&rate, 4, 1, f), fwrite(&bps, 4, 1, f);
    fwrite(&align, 2, 1, f), fwrite(&bits, 2, 1, f), fwrite("data", 1, 4, f), fwrite(&data, 4, 1, f);
    fwrite(s, 2, (size_t)n, f);
    return fclose(f) == 0;
}

static bool draw(iks_toy *t, double time, uint8_t *px)
{
    iks_frame_info fi = { .time = time, .time_delta = 1.0 / 60, .frame_rate = 60 };
    iks_draw_desc d = IKS_DRAW_DESC_INIT;
    d.width = W, d.height = H, d.rgba8 = px, d.rgba8_len = W * H * 4;
    return iks_toy_draw(t, &fi, &d) == IKS_OK;
}

/* byte x of texture row r in a frame read top row first */
static int at(const uint8_t *px, int r, int x) { return px[((H - 1 - r) * W + x) * 4]; }

int main(void)
{
    char dir[] = "/tmp/iks_mic_api_XXXXXX", wav[64];
    if (!mkdtemp(dir)) return perror("mkdtemp"), 1;
    snprintf(wav, sizeof wav, "%s/tone.wav", dir);
    int16_t *s16 = malloc(N * sizeof *s16);
    float *lr = malloc(2 * N * sizeof *lr);
    if (!s16 || !lr) return 1;
    /* a tone on bin 48 (48 x 44100 / 2048 Hz) at 0.05, as 16-bit samples: the WAV holds them exactly */
    for (int i = 0; i < N; i++) {
        s16[i] = (int16_t)lrint(32767 * 0.05 * sin(2 * M_PI * 48 * 44100.0 / 2048 * i / RATE));
        lr[2 * i] = lr[2 * i + 1] = (float)s16[i] / 32768.0f; /* stereo, L = R: (L + R) / 2 is the sample */
    }
    if (!write_wav(wav, s16, N)) return perror(wav), 1;

    iks_engine *e = NULL;
    if (iks_engine_create(&(iks_engine_desc){ IKS_DESC_SIZE(iks_engine_desc) }, &e) != IKS_OK) {
        printf("FAIL: no engine: %s\n", iks_last_error(NULL) ? "" : "");
        return 1;
    }
    iks_toy_desc mic = { IKS_DESC_SIZE(iks_toy_desc), .source = SHOW, .channel = { "mic" }, .width = W, .height = H };
    iks_toy_desc music = { IKS_DESC_SIZE(iks_toy_desc), .source = SHOW, .channel = { wav }, .width = W, .height = H };
    iks_toy *tm = NULL, *tw = NULL;
    CHECK(iks_toy_load(e, &mic, &tm) == IKS_OK, "a toy with a mic channel loads", "%s", "");
    CHECK(iks_toy_load(e, &music, &tw) == IKS_OK, "the same toy with the WAV as music loads", "%s", "");
    if (!tm || !tw) return printf("%d passed, %d failed\n", passed, failed), 1;

    static uint8_t a[W * H * 4], b[W * H * 4];
    /* nothing fed yet: silence, as the site's analyser of a silent stream */
    CHECK(draw(tm, 0.5, a), "a draw before any sound", "%s", "");
    int zero = 0, mid = 0;
    for (int x = 0; x < W; x++) zero += at(a, 0, x) == 0, mid += at(a, 1, x) == 128;
    CHECK(zero == W && mid == W, "silence: spectrum 0, waveform 128", "%d zero, %d at 128", zero, mid);

    /* fed in uneven pieces, as a capture delivers */
    size_t done = 0, piece = 1000;
    while (done < N) {
        size_t n = N - done < piece ? N - done : piece;
        if (iks_toy_feed_audio(tm, IKS_PASS_IMAGE, 0, lr + 2 * done, n, 2, RATE) != IKS_OK) break;
        done += n;
        piece = piece == 1000 ? 777 : 1000;
    }
    CHECK(done == N, "every piece is taken", "%zu of %d", done, N);
    CHECK(draw(tm, 123.0, a), "the mic toy draws", "%s", ""); /* its own time: the sound's, not iTime */
    CHECK(draw(tw, (double)N / RATE, b), "the music toy draws", "%s", "");
    int same = 0, peak = 0;
    for (int r = 0; r < 2; r++)
        for (int x = 0; x < W; x++) same += at(a, r, x) == at(b, r, x);
    for (int x = 1; x < W; x++)
        if (at(a, 0, x) > at(a, 0, peak)) peak = x;
    CHECK(same == 2 * W, "the fed tone's texture = the analyser's of the same samples as music", "%d of %d bytes equal",
          same, 2 * W);
    CHECK(peak == 48 && at(a, 0, 48) > 200, "the spectrum peaks at the tone's bin", "bin %d level %d", peak,
          at(a, 0, peak));

    check_field("a rate other than 44100", iks_toy_feed_audio(tm, IKS_PASS_IMAGE, 0, lr, 10, 2, 48000), "rate");
    check_field("3 channels", iks_toy_feed_audio(tm, IKS_PASS_IMAGE, 0, lr, 10, 3, RATE), "channels");
    check_field("a channel that is not a microphone", iks_toy_feed_audio(tm, IKS_PASS_IMAGE, 1, lr, 10, 1, RATE), "channel");
    check_field("channel 4", iks_toy_feed_audio(tm, IKS_PASS_IMAGE, 4, lr, 10, 1, RATE), "channel");
    check_field("a pass the toy lacks", iks_toy_feed_audio(tm, IKS_PASS_B, 0, lr, 10, 1, RATE), "pass");
    check_field("no samples", iks_toy_feed_audio(tm, IKS_PASS_IMAGE, 0, NULL, 10, 1, RATE), "samples");
    check_field("a music channel is not fed", iks_toy_feed_audio(tw, IKS_PASS_IMAGE, 0, lr, 10, 1, RATE), "channel");

    iks_toy_destroy(tm);
    iks_toy_destroy(tw);
    iks_engine_destroy(e);
    unlink(wav);
    rmdir(dir);
    free(s16);
    free(lr);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
