/* devices.c: the live input devices, one table of kinds (a row per kind: its name and its lister in
 * src/media), so that `ikshade devices` and a host list them the same way. */
#include "engine/engine.h"
#include "media/capture_audio.h"

#include <string.h>

typedef bool (*lister)(void (*each)(void *, const char *, const char *, bool), void *user, iks_err *e);

static const struct {
    const char *kind;
    lister list;
} KINDS[] = {
    { "microphone", iks_capture_audio_list },
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
    return iks_fail_field("kind", kind, "expected one of the kinds iks_device_kind names (microphone)");
}
