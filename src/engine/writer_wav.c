/* writer_wav.c: the sound pass's samples as 16-bit PCM in a RIFF/WAVE container. The samples are drawn
 * a block at a time (toy.c) as floats and packed here into the 16 bits the site's sound pass makes of
 * them (iks_sound_pack), so a WAV holds the site's sample codes exactly: +1 is 32512, not 32767. */
#include "engine/writer_wav.h"

#include "io/outfile.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HEADER 44

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
    put16(p, v & 0xffff);
    put16(p + 2, v >> 16);
}

bool iks_sound_wav(iks_gltoy *t, long first, long n, const iks_logger *log, void **data, size_t *len, iks_err *e)
{
    *data = NULL;
    *len = 0;
    /* a RIFF size is 32 bits: about 6.7 hours of 16-bit stereo at 44.1 kHz */
    if (n < 0 || (uint64_t)n * 4 > UINT32_MAX - HEADER)
        return iks_err_set(e, IKS_E_USAGE, "%ld samples: longer than a WAV file can hold", n);
    size_t bytes = HEADER + (size_t)n * 4;
    unsigned char *w = malloc(bytes);
    const long chunk = (long)IKS_SOUND_BLOCK * IKS_SOUND_BLOCK;
    float *lr = malloc((size_t)chunk * 2 * sizeof *lr);
    int32_t *acc = malloc((size_t)chunk * 2 * sizeof *acc);
    if (!w || !lr || !acc) {
        free(w);
        free(lr);
        free(acc);
        return iks_err_set(e, IKS_E_NOMEM, "out of memory");
    }
    memcpy(w, "RIFF", 4);
    put32(w + 4, (uint32_t)(bytes - 8));
    memcpy(w + 8, "WAVEfmt ", 8);
    put32(w + 16, 16);                   /* the fmt chunk's size */
    put16(w + 20, 1);                    /* PCM */
    put16(w + 22, 2);                    /* channels */
    put32(w + 24, IKS_SAMPLE_RATE);
    put32(w + 28, IKS_SAMPLE_RATE * 4);  /* bytes a second */
    put16(w + 32, 4);                    /* bytes a frame */
    put16(w + 34, 16);                   /* bits a sample */
    memcpy(w + 36, "data", 4);
    put32(w + 40, (uint32_t)(n * 4));
    long bad = 0;
    unsigned char *o = w + HEADER;
    for (long done = 0; done < n;) {
        if (iks_stop_requested()) {
            free(w);
            free(lr);
            free(acc);
            return iks_err_set(e, IKS_E_INTERRUPTED, "interrupted");
        }
        /* up to the end of the site's block, which the sound pass draws whole: one draw a chunk */
        long r = (first + done) % chunk; /* negative before the start (music alone may begin there) */
        long room = chunk - (r < 0 ? r + chunk : r);
        long k = n - done < room ? n - done : room;
        /* the sound pass, then the music channels mixed in (the site plays both) */
        memset(acc, 0, (size_t)k * 2 * sizeof *acc);
        if (t->sound.prog && !iks_gltoy_sound(t, first + done, k, lr, e)) {
            free(w);
            free(lr);
            free(acc);
            return false;
        }
        for (long i = 0; t->sound.prog && i < 2 * k; i++) {
            bad += !isfinite(lr[i]);
            acc[i] = iks_sound_pack(lr[i]);
        }
        iks_gltoy_music_add(t, first + done, k, acc);
        for (long i = 0; i < 2 * k; i++) {
            int32_t s = acc[i] > 32767 ? 32767 : acc[i] < -32768 ? -32768 : acc[i];
            put16(o, (unsigned)(s & 0xffff));
            o += 2;
        }
        done += k;
    }
    free(lr);
    free(acc);
    if (bad)
        iks_warnf(log, "the sound pass returned %ld NaN or infinite sample value%s, packed as the site packs them "
                  "(NaN and -infinity as -1, +infinity as +1)", bad, bad == 1 ? "" : "s");
    *data = w;
    *len = bytes;
    return true;
}
