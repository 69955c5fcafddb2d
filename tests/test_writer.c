/* test_writer.c: a video's sound track muxed in once the picture is finished (iks_writer_desc.audio_after,
 * the viewer's microphone under --record). Read back by ffprobe, an independent reader: a WAV as long as
 * the frames gives the file a sound track of that length; a file that is no sound keeps the picture,
 * alone, and says why in the result's note; a format with no sound (GIF) ignores it. No temporary is left
 * beside the output either way. */
#include "check.h"
#include "engine/writer.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define W 64
#define H 48
#define FPS 30
#define FRAMES 30

/* A 16-bit mono 44.1 kHz WAV of n samples of a 440 Hz square-ish tone */
static void write_wav(const char *path, uint32_t n)
{
    FILE *f = fopen(path, "wb");
    uint32_t data = n * 2, riff = 36 + data, fmt_len = 16, rate = 44100, bps = 88200;
    uint16_t tag = 1, chans = 1, align = 2, bits = 16;
    fwrite("RIFF", 1, 4, f), fwrite(&riff, 4, 1, f), fwrite("WAVEfmt ", 1, 8, f), fwrite(&fmt_len, 4, 1, f);
    fwrite(&tag, 2, 1, f), fwrite(&chans, 2, 1, f), fwrite(&rate, 4, 1, f), fwrite(&bps, 4, 1, f);
    fwrite(&align, 2, 1, f), fwrite(&bits, 2, 1, f), fwrite("data", 1, 4, f), fwrite(&data, 4, 1, f);
    for (uint32_t i = 0; i < n; i++) {
        int16_t s = (int16_t)((i / 50) % 2 ? 3000 : -3000);
        fwrite(&s, 2, 1, f);
    }
    fclose(f);
}

/* FRAMES frames into out with audio_after = sound; the result */
static bool record(const char *out, const char *sound, iks_writer_result *res)
{
    iks_err err = IKS_ERR_INIT;
    iks_writer *w = NULL;
    iks_writer_desc d = { .output = out, .width = W, .height = H, .fps = FPS, .jobs = 1, .depth = 8,
                          .audio_after = sound };
    bool ok = iks_writer_open(&d, &w, &err);
    CHECK(ok, "%s: open: %s", out, iks_err_msg(&err));
    for (long k = 0; ok && k < FRAMES; k++) {
        int slot;
        uint8_t *px = iks_writer_acquire(w, &slot);
        if (!px) break;
        memset(px, (int)(k * 8), (size_t)W * H * 4);
        ok = iks_writer_submit(w, slot, k);
    }
    ok = iks_writer_close(w, ok, res, &err) && ok;
    CHECK(ok, "%s: close: %s", out, iks_err_msg(&err));
    iks_err_clear(&err);
    return ok;
}

/* ffprobe's one line of "codec,duration" per stream, joined by spaces */
static void probe(const char *path, char *buf, size_t n)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ffprobe -v error -show_entries stream=codec_type,duration -of csv=p=0 '%s'", path);
    buf[0] = '\0';
    FILE *p = popen(cmd, "r");
    if (!p) return;
    size_t k = 0;
    char line[128];
    while (fgets(line, sizeof line, p) && k + strlen(line) + 1 < n) {
        line[strcspn(line, "\n")] = '\0';
        k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? " " : "", line);
    }
    pclose(p);
}

/* files in dir whose name starts with a dot (our temporaries), other than . and .. */
static int hidden_files(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    if (d) closedir(d);
    return n;
}

int main(void)
{
    if (system("command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null") != 0) {
        printf("SKIP: no ffmpeg here\n");
        return 77;
    }
    char dir[] = "/tmp/iks-writer-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char wav[300], junk[300], out[300], info[512];
    snprintf(wav, sizeof wav, "%s/sound.wav", dir);
    snprintf(junk, sizeof junk, "%s/junk.wav", dir);
    write_wav(wav, FRAMES * 44100 / FPS);
    FILE *f = fopen(junk, "w");
    fputs("not a sound at all\n", f);
    fclose(f);
    iks_writer_result res;

    static const char *const exts[] = { "mp4", "webm", "mkv" };
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++) {
        snprintf(out, sizeof out, "%s/take.%s", dir, exts[i]);
        record(out, wav, &res);
        probe(out, info, sizeof info);
        CHECK(strstr(info, "video") && strstr(info, "audio"), "%s: picture and sound: ffprobe says '%s'", out, info);
        CHECK(res.written == FRAMES && !res.note[0], "%s: %ld frames, note '%s'", out, res.written, res.note);
        /* the sound as long as the frames (MP4's and WebM's durations are per stream; MKV's N/A) */
        const char *a = strstr(info, "audio,");
        double dur = a && a[6] != 'N' ? atof(a + 6) : 1.0;
        CHECK(dur > 0.95 && dur < 1.06, "%s: the sound lasts %g s, the frames 1 s (%s)", out, dur, info);
    }

    snprintf(out, sizeof out, "%s/junk.mp4", dir);
    record(out, junk, &res);
    probe(out, info, sizeof info);
    CHECK(strstr(info, "video") && !strstr(info, "audio"), "%s: the picture alone: ffprobe says '%s'", out, info);
    printf("the note: %s\n", res.note);
    CHECK(strstr(res.note, "its sound track could not be added (") && strstr(res.note, "the picture is kept alone"),
          "%s: the note says why: '%s'", out, res.note);

    snprintf(out, sizeof out, "%s/take.gif", dir);
    record(out, wav, &res);
    probe(out, info, sizeof info);
    CHECK(strstr(info, "video") && !strstr(info, "audio") && !res.note[0], "%s: a GIF, no sound, no note: '%s', '%s'",
          out, info, res.note);

    CHECK(hidden_files(dir) == 0, "%s: %d temporaries left", dir, hidden_files(dir));
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
