/* spec.c: the pass kinds and the channel kinds (spec.h), and what is read through them alone: a
 * channel spec's syntax and a pass's source options. A new kind of channel is a row here (and its
 * decoder in src/media, its upload in src/gpu): the spec parser, the JSON loader, `ikshade import`'s
 * media list, `ikshade info` and the completion words read the row. */
#include "toy/spec.h"

#include "base/strutil.h"
#include "base/userfile.h"
#include "media/mediain.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the pass kinds ------------------------------------------------------------------------------ */

/* iks_pass_id's numbers (ikshade.h): Image 0, Buffers A-D 1-4, Cube A 5. Written here as numbers since
 * this layer does not see the public header; test_toyfile checks them against it. */
static const iks_pass_kind PASSES[IKS_PASS_KINDS] = {
    { "Buffer A", "a", "buffer", 1, IKS_ENTRY_IMAGE },
    { "Buffer B", "b", "buffer", 2, IKS_ENTRY_IMAGE },
    { "Buffer C", "c", "buffer", 3, IKS_ENTRY_IMAGE },
    { "Buffer D", "d", "buffer", 4, IKS_ENTRY_IMAGE },
    { "Image", "image", "image", 0, IKS_ENTRY_IMAGE },
    { "Cube A", "cube_a", "cubemap", 5, IKS_ENTRY_CUBEMAP },
    { "Sound", "sound", "sound", -1, IKS_ENTRY_SOUND },
    { "Common", "common", "common", -1, IKS_ENTRY_IMAGE },
};

const iks_pass_kind *iks_pass_kind_at(int s) { return s >= 0 && s < IKS_PASS_KINDS ? &PASSES[s] : NULL; }

int iks_pass_slot_of_id(int public_id)
{
    for (int s = 0; s < IKS_PASS_KINDS; s++)
        if (public_id >= 0 && PASSES[s].public_id == public_id) return s;
    return -1;
}

int iks_pass_slot_of_word(const char *word, size_t n)
{
    /* Common has no channels: a manifest's PASS is one of the others */
    for (int s = 0; s < IKS_COMMON_SLOT; s++)
        if (strlen(PASSES[s].word) == n && !strncmp(word, PASSES[s].word, n)) return s;
    return -1;
}

iks_pass *iks_spec_pass(iks_spec *d, int s)
{
    return s >= 0 && s < IKS_PASSES ? &d->pass[s] : s == IKS_SOUND_SLOT ? &d->sound : NULL;
}

const iks_pass *iks_spec_pass_c(const iks_spec *d, int s) { return iks_spec_pass((iks_spec *)d, s); }

/* ---- the channel kinds ---------------------------------------------------------------------------- */

static const iks_channel_kind KINDS[] = {
    { .kind = IKS_IN_IMAGE, .info = "image", .exts = ".png .jpg .jpeg", .ctype = "texture", .sampler = IKS_SAMPLER_2D,
      .file = true, .vflip = true, .complete = "file:png jpg jpeg" },
    { .kind = IKS_IN_CUBEMAP, .info = "cubemap", .prefix = "cube:", .ctype = "cubemap", .sampler = IKS_SAMPLER_CUBE,
      .file = true, .vflip = false, .complete = "file:png jpg jpeg" },
    { .kind = IKS_IN_VOLUME, .info = "volume", .exts = ".bin", .ctype = "volume", .sampler = IKS_SAMPLER_3D,
      .file = true, .vflip = false, .complete = "file:bin" },
    { .kind = IKS_IN_MUSIC, .info = "music", .media_match = iks_media_is_audio, .ctype = "music",
      .sampler = IKS_SAMPLER_2D, .file = true, .vflip = true, .complete = "file:" IKS_MEDIA_AUDIO_EXTS },
    { .kind = IKS_IN_VIDEO, .info = "video", .media_match = iks_media_is_video, .ctype = "video",
      .sampler = IKS_SAMPLER_2D, .file = true, .vflip = true, .complete = "file:" IKS_MEDIA_VIDEO_EXTS },
    { .kind = IKS_IN_BUFFER, .info = "buffer", .ctype = "buffer", .sampler = IKS_SAMPLER_2D, .vflip = true,
      .complete = "words:a b c d" },
    { .kind = IKS_IN_CUBE_BUFFER, .info = "cube_a", .word = "cube_a", .sampler = IKS_SAMPLER_CUBE, .vflip = false,
      .complete = "words:cube_a" },
    { .kind = IKS_IN_KEYBOARD, .info = "keyboard", .word = "keyboard", .ctype = "keyboard", .sampler = IKS_SAMPLER_2D,
      .vflip = true, .complete = "words:keyboard" },
    /* the site's JSON names a microphone "mic"; "mic:DEVICE" picks a capture device (`ikshade devices`) */
    { .kind = IKS_IN_MIC, .info = "microphone", .word = "mic", .prefix = "mic:", .ctype = "mic",
      .sampler = IKS_SAMPLER_2D, .vflip = true, .complete = "words:mic", .live = true, .noun = "microphone" },
    { .kind = IKS_IN_WEBCAM, .info = "webcam", .word = "webcam", .prefix = "webcam:", .ctype = "webcam",
      .sampler = IKS_SAMPLER_2D, .vflip = true, .complete = "words:webcam", .live = true, .noun = "webcam" },
};
#define NKINDS (sizeof KINDS / sizeof KINDS[0])

const iks_channel_kind *iks_channel_kind_at(int i) { return i >= 0 && (size_t)i < NKINDS ? &KINDS[i] : NULL; }

const iks_channel_kind *iks_channel_kind_of(iks_input_kind k)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (KINDS[i].kind == k) return &KINDS[i];
    return NULL;
}

const iks_channel_kind *iks_channel_kind_of_ctype(const char *type)
{
    for (size_t i = 0; type && i < NKINDS; i++)
        if (KINDS[i].ctype && !strcmp(KINDS[i].ctype, type)) return &KINDS[i];
    return NULL;
}

/* word w (n bytes) appended to list (cap bytes) unless it is there already */
static void add_word(char *list, size_t cap, const char *w, size_t n)
{
    size_t len = strlen(list);
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, " ");
        if (k == n && !strncmp(p, w, n)) return;
        p += k + (p[k] == ' ');
    }
    if (len + n + 2 > cap) return;
    if (len) list[len++] = ' ';
    memcpy(list + len, w, n);
    list[len + n] = '\0';
}

void iks_channel_kinds_complete(char *out, size_t cap)
{
    char words[256] = "", files[512] = "";
    for (size_t i = 0; i < NKINDS; i++) {
        /* a row's completion: alternatives "words:..." or "file:..." separated by '|' */
        for (const char *alt = KINDS[i].complete; alt && *alt;) {
            size_t n = strcspn(alt, "|");
            bool file = !strncmp(alt, "file:", 5);
            const char *w = alt + (file ? 5 : 6), *end = alt + n;
            while (w < end) {
                size_t k = strcspn(w, " |");
                if (k) add_word(file ? files : words, file ? sizeof files : sizeof words, w, k);
                w += k + (w[k] == ' ');
            }
            alt += n + (alt[n] == '|');
        }
    }
    add_word(words, sizeof words, "black", 5); /* an image channel with no file */
    snprintf(out, cap, "words:%s|file:%s", words, files);
}

/* whether name ends with one of exts' space-separated endings */
static bool ends_with_one(const char *name, const char *exts)
{
    size_t n = strlen(name);
    for (const char *p = exts; *p;) {
        size_t k = strcspn(p, " ");
        if (k && n >= k && !strncmp(name + n - k, p, k)) return true;
        p += k;
        p += strspn(p, " ");
    }
    return false;
}

/* The row a spec's first word names: a word of its own, then a prefix, then a file's ending; with
 * *rest at what names the file (NULL: no file) */
static const iks_channel_kind *kind_of_spec(const char *what, const char **rest)
{
    *rest = NULL;
    for (size_t i = 0; i < NKINDS; i++)
        if (KINDS[i].word && !strcmp(what, KINDS[i].word)) return &KINDS[i];
    for (size_t i = 0; i < NKINDS; i++)
        if (KINDS[i].prefix && !strncmp(what, KINDS[i].prefix, strlen(KINDS[i].prefix)) && what[strlen(KINDS[i].prefix)])
            return *rest = what + strlen(KINDS[i].prefix), &KINDS[i];
    for (size_t i = 0; i < NKINDS; i++)
        if ((KINDS[i].exts && ends_with_one(what, KINDS[i].exts)) || (KINDS[i].media_match && KINDS[i].media_match(what)))
            return *rest = what, &KINDS[i];
    return NULL;
}

static bool oom(iks_err *e) { return iks_err_set(e, IKS_E_NOMEM, "out of memory"); }

static bool flag_value(const char *v, bool *out)
{
    if (!strcmp(v, "1") || !strcmp(v, "true")) return *out = true, true;
    if (!strcmp(v, "0") || !strcmp(v, "false")) return *out = false, true;
    return false;
}

static const char *const FILTER_WORDS[] = { "linear", "nearest", "mipmap" };

bool iks_filter_parse(const char *v, iks_filter *f)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(v, FILTER_WORDS[i])) return *f = (iks_filter)i, true;
    return false;
}

const char *iks_filter_word(iks_filter f) { return (unsigned)f < 3 ? FILTER_WORDS[f] : "?"; }

#define SPEC_EXPECTED "FILE.png, FILE.jpg, cube:FILE.png, FILE.bin, an audio or video file, keyboard, mic[:DEVICE], webcam[:DEVICE], black, a buffer a-d or cube_a"

/* what the first word of a spec names, into in; false with the error when it names nothing */
static bool spec_what(const char *spec, char *copy, char *what, iks_input *in, const char *q, iks_err *e)
{
    const char *rest;
    const iks_channel_kind *k = kind_of_spec(what, &rest);
    if (k) {
        in->kind = k->kind;
        in->vflip = k->vflip;
        in->path = rest ? spec + (rest - copy) : NULL; /* into spec for now; copied by the caller */
    } else if (strlen(what) == 1 && what[0] >= 'a' && what[0] <= 'd') {
        in->kind = IKS_IN_BUFFER, in->buffer = what[0] - 'a';
    } else if (!strcmp(what, "black")) {
        in->kind = IKS_IN_IMAGE, in->path = NULL;
    } else {
        return iks_err_field(e, IKS_E_USAGE, "channel", q, "expected " SPEC_EXPECTED " first");
    }
    return true;
}

bool iks_channel_parse(const char *spec, iks_input *in, iks_err *e)
{
    memset(in, 0, sizeof *in);
    in->vflip = true; /* the site's default for textures */
    char q[300];
    snprintf(q, sizeof q, "'%.280s'", spec);
    char *copy = strdup(spec);
    if (!copy) return oom(e);
    char *save = NULL, *what = strtok_r(copy, ",", &save);
    bool ok = what != NULL;
    if (!ok) iks_err_field(e, IKS_E_USAGE, "channel", q, "expected " SPEC_EXPECTED);
    else ok = spec_what(spec, copy, what, in, q, e);
    for (char *kv; ok && (kv = strtok_r(NULL, ",", &save));) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            ok = iks_err_field(e, IKS_E_USAGE, "channel", q, "'%s' is not KEY=VALUE", kv);
            break;
        }
        *eq = '\0';
        const char *v = eq + 1;
        bool good = true;
        if (!strcmp(kv, "filter")) good = iks_filter_parse(v, &in->filter);
        else if (!strcmp(kv, "wrap")) good = !strcmp(v, "repeat") ? (in->repeat = true) : !strcmp(v, "clamp") ? (in->repeat = false, true) : false;
        else if (!strcmp(kv, "vflip")) good = flag_value(v, &in->vflip);
        else if (!strcmp(kv, "srgb")) good = flag_value(v, &in->srgb);
        else {
            ok = iks_err_field(e, IKS_E_USAGE, "channel", q, "unknown setting '%s' (filter, wrap, vflip, srgb)", kv);
            break;
        }
        if (!good) ok = iks_err_field(e, IKS_E_USAGE, "channel", q, "bad %s '%s'", kv, v);
    }
    /* in->path points into spec at the same offset as into copy; the name must end at the first comma */
    if (ok && in->path) {
        char *p = strndup(in->path, strcspn(in->path, ","));
        in->path = p; /* the caller keeps it */
        if (!p) ok = oom(e);
    } else if (!ok) in->path = NULL; /* nothing for the caller to free */
    free(copy);
    return ok;
}

void iks_spec_draw_order(const iks_spec *d, int order[IKS_PASSES])
{
    int n = 0;
    bool taken[4] = { false };
    for (int k = 0; k < d->nbuffer_order && k < 4; k++) {
        int b = d->buffer_order[k];
        if (b >= 0 && b < 4 && !taken[b]) taken[b] = true, order[n++] = b;
    }
    for (int b = 0; b < 4; b++)
        if (!taken[b]) order[n++] = b;
    order[n++] = IKS_CUBE_PASS;
    order[n++] = IKS_IMAGE_PASS;
}

bool iks_glsl_identifier(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (i && c >= '0' && c <= '9'))) return false;
    }
    return n > 0;
}

/* ---- a uniform's value by name -------------------------------------------------------------------- */

bool iks_setting_err(iks_err *e, const iks_setting *s, const char *arg, const char *fmt, ...)
{
    char *reason = NULL, q[160];
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&reason, fmt, ap) < 0) reason = NULL;
    va_end(ap);
    snprintf(q, sizeof q, "'%.150s'", arg);
    iks_err_field(e, IKS_E_USAGE, s && s->field[0] ? s->field : "setting", q, "%s", reason ? reason : "out of memory");
    free(reason);
    return false;
}

bool iks_setting_parse(const char *arg, iks_setting *out, iks_err *e)
{
    memset(out, 0, sizeof *out);
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return iks_setting_err(e, NULL, arg, "expected NAME=VALUE or NAME=V1,V2[,V3[,V4]]");
    size_t n = (size_t)(eq - arg);
    if (n >= sizeof out->name) return iks_setting_err(e, NULL, arg, "name too long");
    memcpy(out->name, arg, n);
    if (!iks_glsl_identifier(out->name, n)) return iks_setting_err(e, NULL, arg, "'%s' is not a GLSL identifier", out->name);
    const char *p = eq + 1;
    for (;;) {
        if (out->n == 4) return iks_setting_err(e, NULL, arg, "at most 4 values");
        char *end;
        double v;
        if (strncmp(p, "true", 4) == 0 && (p[4] == ',' || !p[4])) { v = 1; end = (char *)p + 4; }
        else if (strncmp(p, "false", 5) == 0 && (p[5] == ',' || !p[5])) { v = 0; end = (char *)p + 5; }
        else v = iks_strtod_c(p, &end);
        if (end == p || (*end && *end != ',') || !isfinite(v))
            return iks_setting_err(e, NULL, arg, "value %d is not a finite number", out->n + 1);
        out->v[out->n++] = v;
        if (!*end) break;
        p = end + 1;
    }
    return true;
}

/* ---- a pass's source ------------------------------------------------------------------------------ */

void iks_spec_pass_opts(const iks_spec *d, const iks_pass *ps, iks_entry entry, bool es3, const iks_source_opts *base,
                        iks_source_opts *o)
{
    static const iks_source_opts none = { 0 };
    *o = base ? *base : none;
    if (!o->files) o->files = iks_disk_files(); /* a toy's passes are files unless given as text */
    o->text = ps->text;
    o->common_path = d->common_path;
    o->common_text = d->common_text;
    o->confine_dir = d->confine_dir;
    o->text_dir = d->text_dir;
    o->es = d->es && es3;
    o->entry = entry;
    o->buffer = ps >= &d->pass[0] && ps < &d->pass[4];
    for (int c = 0; c < 4; c++) {
        const iks_channel_kind *k = iks_channel_kind_of(ps->in[c].kind);
        o->cube[c] = k && k->sampler == IKS_SAMPLER_CUBE;
        o->volume[c] = k && k->sampler == IKS_SAMPLER_3D;
    }
}
