/* volume.c: shadertoy.com's .bin volumes checked and parsed (see volume.h). The texels' byte count is
 * multiplied out with an overflow check, so no header's sizes wrap around to a small product. What it
 * does not do: GL, or read the file any other way than whole through src/base/userfile.c. */
#include "media/volume.h"

#include "base/userfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t le32(const unsigned char *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* v->fault = fault, and "name: " + the message into e; returns false */
static bool fault(iks_volume *v, iks_volume_fault f, const char *name, iks_err *e, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static bool fault(iks_volume *v, iks_volume_fault f, const char *name, iks_err *e, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    v->fault = f;
    return iks_err_set(e, IKS_E_FORMAT, "%s%s%s", name ? name : "", name ? ": " : "", msg);
}

bool iks_volume_parse(iks_volume *v, const void *data, size_t len, uint32_t max_side, const char *name, iks_err *e)
{
    const unsigned char *p = data;
    memset(v, 0, sizeof *v);
    v->len = len;
    if (len < IKS_VOLUME_HEADER)
        return fault(v, IKS_VOLUME_SHORT, name, e, "%zu bytes, shorter than a volume's 20-byte header", len);
    v->x = le32(p + 4), v->y = le32(p + 8), v->z = le32(p + 12);
    v->channels = p[16];
    v->format = p[18] | (unsigned)p[19] << 8;
    v->texel_bytes = len - IKS_VOLUME_HEADER;
    if (v->channels < 1 || v->channels > 4 || (v->format != 0 && v->format != 10))
        return fault(v, IKS_VOLUME_LAYOUT, name, e, "a volume of %u channels in format %u: expected 1-4 channels of "
                     "bytes (0) or floats (10)", v->channels, v->format);
    uint32_t side[3] = { v->x, v->y, v->z };
    for (int i = 0; i < 3; i++)
        if (side[i] < 1 || (max_side && side[i] > max_side)) {
            if (max_side)
                return fault(v, IKS_VOLUME_SIDES, name, e, "a volume of %ux%ux%u: this GL takes 1 to %u on each side",
                             v->x, v->y, v->z, max_side);
            return fault(v, IKS_VOLUME_SIDES, name, e, "a volume of %ux%ux%u: a side of no texels", v->x, v->y, v->z);
        }
    /* the product, stopped where it would overflow (then it is far beyond any file's bytes) */
    size_t need = v->channels * (v->format == 10 ? 4u : 1u);
    bool overflow = false;
    for (int i = 0; i < 3 && !overflow; i++) {
        if (side[i] > SIZE_MAX / need) overflow = true;
        else need *= side[i];
    }
    if (overflow || need != v->texel_bytes) {
        const char *s = v->channels > 1 ? "s" : "";
        if (overflow)
            return fault(v, IKS_VOLUME_BYTES, name, e, "a %ux%ux%u volume of %u channel%s holds %zu bytes of texels, "
                         "far fewer than its sizes need", v->x, v->y, v->z, v->channels, s, v->texel_bytes);
        return fault(v, IKS_VOLUME_BYTES, name, e, "a %ux%ux%u volume of %u channel%s holds %zu bytes of texels, not %zu",
                     v->x, v->y, v->z, v->channels, s, v->texel_bytes, need);
    }
    v->texels = p + IKS_VOLUME_HEADER;
    return true;
}

bool iks_volume_load(iks_volume *v, const char *path, uint32_t max_side, iks_err *e)
{
    memset(v, 0, sizeof *v);
    size_t len;
    unsigned char *data = (unsigned char *)iks_userfile_read(path, IKS_VOLUME_FILE_MAX, 0, &len);
    if (!data) {
        int err = errno;
        if (err == EFBIG) return iks_err_set(e, IKS_E_IO, "%s: larger than 256 MiB, not a volume", path);
        return iks_err_set(e, err == ENOMEM ? IKS_E_NOMEM : IKS_E_IO, "%s: %s", path, iks_userfile_strerror(err));
    }
    if (!iks_volume_parse(v, data, len, max_side, path, e)) {
        free(data);
        return false;
    }
    v->owned = data;
    return true;
}

void iks_volume_free(iks_volume *v)
{
    free(v->owned);
    memset(v, 0, sizeof *v);
}
