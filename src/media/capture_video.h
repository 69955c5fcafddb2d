/* capture_video.h: a camera captured through ffmpeg for a webcam channel. A thread runs ffmpeg (v4l2, or
 * lavfi's test pattern through the very same path), keeps the newest whole frame and drops the rest, so
 * that the drawing thread only ever takes the latest one; when the device is missing, busy or lost it
 * says so once and tries again every second, and says so again when frames come back.
 * What it does not do: GL (src/gpu/livecam.c uploads the frames), record (the viewer does). */
#ifndef IKS_CAPTURE_VIDEO_H
#define IKS_CAPTURE_VIDEO_H

#include "base/err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The device that needs no camera: ffmpeg's testsrc2 pattern, 320x240 at 30 fps */
#define IKS_VCAP_TEST "test"

typedef struct iks_vcap iks_vcap;

/* Starts capturing device: NULL or "" for the first /dev/video* that captures, IKS_VCAP_TEST, or a device
 * path (/dev/videoN). Never waits for the device: a missing one is a status line, not a failure. NULL
 * with e set only for memory or a thread that cannot start. */
iks_vcap *iks_vcap_open(const char *device, iks_err *e);
/* Stops the thread and its ffmpeg (killed and reaped), frees c. NULL is fine. */
void iks_vcap_close(iks_vcap *c);

/* The newest frame when it is newer than *seq: use(user, rgba, w, h) (top row first, valid during the
 * call, which holds the capture's lock: be quick), *seq updated, true. false: nothing new. */
bool iks_vcap_take(iks_vcap *c, long *seq, void (*use)(void *user, const uint8_t *rgba, int w, int h), void *user);

/* The capture's state changed since *seen (lost, back, cannot open): its one line into msg, *seen
 * updated, true. *up: whether frames come now. */
bool iks_vcap_status(iks_vcap *c, long *seen, char *msg, size_t n, bool *up);

/* The devices a webcam channel can name: each(user, name, about) for every /dev/video* that is a capture
 * device (about: its card's name) and for IKS_VCAP_TEST. Returns how many. */
int iks_vcap_list(void (*each)(void *user, const char *name, const char *about), void *user);

#endif
