/* devices.c: the live input devices, one table of kinds (a row per kind: its name and its lister in
 * src/media), so that `ikshade devices` and a host list them the same way. */
#include "engine/engine.h"
#include "media/capture_audio.h"
#include "media/capture_video.h"

#include <string.h>

typedef bool (*lister)(void (*each)(void *, const char *, const char *, bool), void *user, iks_err *e);

/* the cameras: the default is the first /dev/video* that captures (what a bare `webcam` opens) */
typedef struct {
    void (*each)(void *, const char *, const char *, bool);
    void *user;
    bool had_default;
} cam_walk;

static void each_camera(void *user, const char *name, const char *about)
{
    cam_walk *w = user;
    bool dflt = !w->had_default && strcmp(name, IKS_VCAP_TEST) != 0;
    w->had_default = w->had_default || dflt;
    w->each(w->user, name, about, dflt);
}

static bool list_cameras(void (*each)(void *, const char *, const char *, bool), void *user, iks_err *e)
{
    (void)e; /* a node that cannot be asked is not a camera: nothing here fails */
    cam_walk w = { each, user, false };
    iks_vcap_list(each_camera, &w);
    return true;
}

static const struct {
    const char *kind;
    lister list;
} KINDS[] = {
    { "microphone", iks_capture_audio_list },
    { "webcam", list_cameras },
};
enum { NKINDS = sizeof KINDS / sizeof KINDS[0] };

const char *iks_device_kind(int i) { return i >= 0 && i < NKINDS ? KINDS[i].kind : NULL; }

iks_code iks_devices(const char *kind, void (*each)(void *user, const char *name, const char *about, bool is_default),
                     void *user)
{
    if (!each) return iks_fail_usage("iks_devices: each is NULL");
    for (int i = 0; i < NKINDS; i++) {
        if (!kind || strcmp(kind, KINDS[i].kind) != 0) continue;
        iks_err err = IKS_ERR_INIT;
        if (!KINDS[i].list(each, user, &err)) return iks_publish(&err);
        return IKS_OK;
    }
    return iks_fail_field("kind", kind, "expected one of the kinds iks_device_kind names (microphone, webcam)");
}
