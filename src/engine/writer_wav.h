/* writer_wav.h: a toy's sound pass as a WAV file (44100 Hz, 16-bit stereo PCM), for `-o song.wav` and
 * for a video's audio track.
 * What it does not do: draw the samples (toy.c's iks_gltoy_sound) or mux them (ffmpeg's). */
#ifndef IKS_WRITER_WAV_H
#define IKS_WRITER_WAV_H

#include "base/err.h"
#include "gpu/toy.h"

#include <stdbool.h>
#include <stddef.h>

/* The WAV of n samples of t's sound pass from sample first on: *data (malloc'd, the caller frees) of
 * *len bytes. Each sample packed into 16 bits as the site packs it (iks_sound_pack); NaN or infinite
 * samples are counted in one warning to log. Stops with IKS_E_INTERRUPTED when a stop is
 * requested; iks_gltoy_sound's codes; IKS_E_NOMEM. */
bool iks_sound_wav(iks_gltoy *t, long first, long n, const iks_logger *log, void **data, size_t *len, iks_err *e);

#endif
