/* toyfile.c: single files (or text) with --channelN, directory toys, and shadertoy.com's JSON through
 * cJSON (Debian's libcjson-dev). The JSON has had two vocabularies over the years: inputs with
 * ctype/src or with type/filepath, buffers named by output id 257-260, by the API's string ids, or by
 * their /media/previz/bufferNN.png path; all are read. Every string the description points to is
 * owned by the iks_toyfile (its owned list), so it outlives the caller's and cJSON's. */
#include "toy/toyfile.h"
#include "glsl/uniforms.h"
#include "base/buf.h"
#include "base/strutil.h"

#include "media/image.h"
#include "media/mediain.h"
#include "glsl/source.h"
#include "base/userfile.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define MAX_JSON_BYTES (32u << 20)
/* the passes a toy has: the drawn ones (IKS_PASSES), Sound and Common */
#define MAX_JSON_PASSES (IKS_PASSES + 2)

/* Takes ownership of s (malloc'd) and returns it; NULL when s is NULL or memory ran out (s is freed
 * then), which the caller reports as IKS_E_NOMEM. */
static char *keep(iks_toyfile *tf, char *s)
{
    if (!s) return NULL;
    if (!IKS_GROW(tf->owned, (size_t)tf->nowned + 1, tf->capowned)) {
        free(s);
        return NULL;
    }
    return tf->owned[tf->nowned++] = s;
}

static char *keep_copy(iks_toyfile *tf, const char *s) { return keep(tf, strdup(s)); }

static bool oom(iks_err *e) { return iks_err_set(e, IKS_E_NOMEM, "out of memory"); }

void iks_toyfile_free(iks_toyfile *tf)
{
    for (int i = 0; i < tf->nowned; i++) free(tf->owned[i]);
    free(tf->owned);
    memset(tf, 0, sizeof *tf);
}


static bool flag_value(const char *v, bool *out)
{
    if (!strcmp(v, "1") || !strcmp(v, "true")) return *out = true, true;
    if (!strcmp(v, "0") || !strcmp(v, "false")) return *out = false, true;
    return false;
}

static bool filter_value(const char *v, iks_filter *f)
{
    if (!strcmp(v, "linear")) *f = IKS_FILTER_LINEAR;
    else if (!strcmp(v, "nearest")) *f = IKS_FILTER_NEAREST;
    else if (!strcmp(v, "mipmap")) *f = IKS_FILTER_MIPMAP;
    else return false;
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
    if (!ok)
        iks_err_field(e, IKS_E_USAGE, "channel", q, "expected FILE.png, FILE.jpg, cube:FILE.png, FILE.bin, an audio "
                      "or video file, keyboard, black, a buffer a-d or cube_a");
    else if (!strcmp(what, "keyboard")) in->kind = IKS_IN_KEYBOARD;
    else if (!strcmp(what, "cube_a")) in->kind = IKS_IN_CUBE_BUFFER, in->vflip = false;
    else if (strlen(what) == 1 && what[0] >= 'a' && what[0] <= 'd') in->kind = IKS_IN_BUFFER, in->buffer = what[0] - 'a';
    else if (!strcmp(what, "black")) in->kind = IKS_IN_IMAGE, in->path = NULL;
    else if (!strncmp(what, "cube:", 5) && what[5]) {
        in->kind = IKS_IN_CUBEMAP;
        in->vflip = false; /* the site's default for cubemaps */
        in->path = spec + (what - copy) + 5;
    } else if (iks_ends_with(what, ".bin")) {
        in->kind = IKS_IN_VOLUME; /* the site's volume format */
        in->vflip = false;
        in->path = spec + (what - copy);
    } else if (iks_ends_with(what, ".png") || iks_ends_with(what, ".jpg") || iks_ends_with(what, ".jpeg")) {
        in->kind = IKS_IN_IMAGE;
        in->path = spec + (what - copy); /* into spec for now; copied below */
    } else if (iks_media_is_audio(what) || iks_media_is_video(what)) {
        in->kind = iks_media_is_audio(what) ? IKS_IN_MUSIC : IKS_IN_VIDEO;
        in->path = spec + (what - copy);
    } else if (!strcmp(what, "webcam") || !strcmp(what, "mic")) {
        /* live inputs: an offline render could never repeat them, and the viewer has no capture yet.
         * Parsed, so that the loader, which knows --missing-media, refuses it or makes it black. */
        in->kind = IKS_IN_IMAGE, in->path = NULL;
        in->live = !strcmp(what, "mic") ? "microphone" : "webcam";
    } else {
        ok = iks_err_field(e, IKS_E_USAGE, "channel", q, "expected FILE.png, FILE.jpg, cube:FILE.png, FILE.bin, an "
                           "audio or video file, keyboard, black, a buffer a-d or cube_a first");
    }
    for (char *kv; ok && (kv = strtok_r(NULL, ",", &save));) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            ok = iks_err_field(e, IKS_E_USAGE, "channel", q, "'%s' is not KEY=VALUE", kv);
            break;
        }
        *eq = '\0';
        const char *v = eq + 1;
        bool good = true;
        if (!strcmp(kv, "filter")) good = filter_value(v, &in->filter);
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
    if (ok && (in->kind == IKS_IN_IMAGE || in->kind == IKS_IN_CUBEMAP || in->kind == IKS_IN_VOLUME ||
               in->kind == IKS_IN_MUSIC || in->kind == IKS_IN_VIDEO) && in->path) {
        char *p = strndup(in->path, strcspn(in->path, ","));
        in->path = p; /* the caller keeps it */
        if (!p) ok = oom(e);
    } else if (!ok) in->path = NULL; /* nothing for the caller to free */
    free(copy);
    return ok;
}

/* ---- JSON -------------------------------------------------------------------------------------- */

static const char *const API_IDS[4] = { "4dXGR8", "XsXGR8", "4sXGR8", "XdfGR8" };
static const char CUBE_ID[] = "4dX3Rr"; /* the site's one cubemap buffer, Cube A */

/* Whether a "cubemap" input or pass output names Cube A (by id, or by its /media/previz/cubemap00.png) */
static bool is_cube_a(const cJSON *id, const char *path)
{
    if (cJSON_IsString(id) && !strcmp(id->valuestring, CUBE_ID)) return true;
    return path && strstr(path, "previz/cubemap00") != NULL;
}

/* a buffer's index from an id (257..260 or the API's strings) or a /media/previz/bufferNN.png path */
static int buffer_from_ref(const cJSON *id, const char *path)
{
    if (cJSON_IsNumber(id) && id->valuedouble >= 257 && id->valuedouble <= 260) return (int)id->valuedouble - 257;
    if (cJSON_IsString(id)) {
        for (int i = 0; i < 4; i++)
            if (!strcmp(id->valuestring, API_IDS[i])) return i;
        char *end;
        long v = strtol(id->valuestring, &end, 10);
        if (*end == '\0' && v >= 257 && v <= 260) return (int)v - 257;
    }
    const char *b = path ? strstr(path, "previz/buffer0") : NULL;
    if (b && b[14] >= '0' && b[14] <= '3') return b[14] - '0';
    return -1;
}

static const char *str_field(const cJSON *o, const char *a, const char *b)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, a);
    if (!cJSON_IsString(v) && b) v = cJSON_GetObjectItemCaseSensitive(o, b);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* "true"/"false" as strings (the site's habit) or as JSON booleans */
static bool bool_field(const cJSON *o, const char *name, bool dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (cJSON_IsBool(v)) return cJSON_IsTrue(v);
    if (cJSON_IsString(v)) return !strcmp(v->valuestring, "true");
    return dflt;
}

/* a media file named by the JSON: beside the JSON under the same path, or under its base name; NULL
 * when neither is there, or with *lost set when memory ran out */
static char *find_media(const char *json_dir, const char *rel, bool *lost)
{
    const char *base = strrchr(rel, '/');
    base = base ? base + 1 : rel;
    const char *tries[2] = { rel[0] == '/' ? rel + 1 : rel, base };
    for (int i = 0; i < 2; i++) {
        size_t n = strlen(json_dir) + strlen(tries[i]) + 2;
        char *p = malloc(n);
        if (!p) {
            *lost = true;
            return NULL;
        }
        snprintf(p, n, "%s/%s", json_dir, tries[i]);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) return p;
        free(p);
    }
    return NULL;
}

/* ---- media stay inside the toy ------------------------------------------------------------------ */

/* A toy fetched from anywhere must not read the user's other images into its frames (and so into
 * files they may publish): its media, each cubemap face included, stay inside its directory unless
 * the user allows more. False with IKS_E_FORMAT naming the file that names it. */
static bool media_allowed(const char *where, const char *dir, const iks_input *in, unsigned flags, iks_err *e)
{
    if ((flags & IKS_TF_MEDIA_OUTSIDE) || !in->path) return true;
    for (int face = 0; face < (in->kind == IKS_IN_CUBEMAP ? 6 : 1); face++) {
        char *p = face ? iks_cube_face_path(in->path, face) : strdup(in->path);
        if (!p) return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", where);
        bool bad = access(p, F_OK) == 0 && !iks_path_inside(dir, p);
        if (bad)
            iks_err_set(e, IKS_E_FORMAT, "%s: media '%s' lies outside the toy's directory %s (a toy may read only its "
                        "own files; allow_media_outside lets it)", where, p, dir);
        free(p);
        if (bad) return false;
    }
    return true;
}

/* pass s of a toy: 0..IKS_PASSES-1 as the desc numbers them, IKS_PASSES the sound pass */
static iks_pass *pass_at(iks_toyfile *tf, int s) { return s < IKS_PASSES ? &tf->desc.pass[s] : &tf->desc.sound; }

static bool load_json(iks_toyfile *tf, const char *path, const char *text, unsigned flags, iks_err *e,
                      const iks_logger *log)
{
    bool black = flags & IKS_TF_MISSING_BLACK;
    /* cJSON turns \u0000 into a NUL that ends the C string: a pass's code would be cut there, silently */
    for (const char *q = strstr(text, "\\u0000"); q; q = strstr(q + 1, "\\u0000")) {
        size_t slashes = 0;
        while (q - (ptrdiff_t)slashes > text && q[-1 - (ptrdiff_t)slashes] == '\\') slashes++;
        if (slashes % 2) continue; /* "\\u0000": an escaped backslash, then text */
        int line = 1;
        for (const char *p = text; p < q; p++) line += *p == '\n';
        return iks_err_set(e, IKS_E_FORMAT, "%s:%d: a string holds \\u0000 (a NUL character), which GLSL text and "
                           "file names cannot", path, line);
    }
    const char *eptr = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &eptr, true);
    if (!root) {
        int line = 1;
        for (const char *p = text; eptr && p < eptr; p++) line += *p == '\n';
        return iks_err_set(e, IKS_E_FORMAT, "%s:%d: not valid JSON%s", path, line,
                           eptr && !*eptr ? " (it ends too soon)" : "");
    }
    bool ok = false;
    const cJSON *shader = cJSON_GetObjectItemCaseSensitive(root, "Shader");
    if (!shader) shader = root;
    const cJSON *passes = cJSON_GetObjectItemCaseSensitive(shader, "renderpass");
    if (!cJSON_IsArray(passes)) {
        iks_err_set(e, IKS_E_FORMAT, "%s: no \"renderpass\" array: not a shadertoy.com export", path);
        goto out;
    }
    const cJSON *info = cJSON_GetObjectItemCaseSensitive(shader, "info");
    const char *name = info ? str_field(info, "name", NULL) : NULL;
    if (!(tf->name = keep_copy(tf, name ? name : path))) goto nomem;
    char *dir = keep_copy(tf, path);
    if (!dir) goto nomem;
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    else strcpy(dir, ".");
    /* its #includes are found beside it, and stay inside its directory as its media do */
    tf->desc.text_dir = dir;
    if (!(flags & IKS_TF_MEDIA_OUTSIDE)) tf->desc.confine_dir = dir;
    const char *jbase = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

    /* first pass over renderpass[]: which slot each pass takes, and its output ids */
    const cJSON *pass;
    int k = 0;
    const cJSON *slot_of[IKS_PASSES + 1] = { 0 }; /* the passes, then the sound pass at IKS_PASSES */
    cJSON_ArrayForEach(pass, passes)
    {
        k++;
        if (!cJSON_IsObject(pass)) {
            iks_err_set(e, IKS_E_FORMAT, "%s: renderpass[%d] is not an object", path, k - 1);
            goto out;
        }
        const char *type = str_field(pass, "type", NULL);
        const char *pname = str_field(pass, "name", NULL);
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(pass, "code");
        if (!type) {
            iks_err_set(e, IKS_E_FORMAT, "%s: renderpass[%d] has no \"type\" string", path, k - 1);
            goto out;
        }
        if (!cJSON_IsString(code)) {
            iks_err_set(e, IKS_E_FORMAT, "%s: renderpass[%d] (%s) has no \"code\" string", path, k - 1, type);
            goto out;
        }
        int slot;
        char *nm = NULL;
        if (!strcmp(type, "image")) slot = IKS_IMAGE_PASS;
        else if (!strcmp(type, "common")) {
            /* one Common text is prepended to every pass: a second would silently replace the first */
            if (tf->desc.common_path) {
                iks_err_set(e, IKS_E_FORMAT, "%s: two passes of type \"common\"", path);
                goto out;
            }
            if (asprintf(&nm, "%s[Common]", jbase) < 0 || !(tf->desc.common_path = keep(tf, nm))) goto nomem;
            tf->desc.common_text = code->valuestring;
            continue;
        } else if (!strcmp(type, "buffer")) {
            const cJSON *outs = cJSON_GetObjectItemCaseSensitive(pass, "outputs");
            const cJSON *o0 = cJSON_IsArray(outs) ? cJSON_GetArrayItem(outs, 0) : NULL;
            slot = o0 ? buffer_from_ref(cJSON_GetObjectItemCaseSensitive(o0, "id"), NULL) : -1;
            if (slot < 0 && pname && !strncmp(pname, "Buffer ", 7) && pname[7] >= 'A' && pname[7] <= 'D' && !pname[8])
                slot = pname[7] - 'A';
            if (slot < 0) {
                iks_err_set(e, IKS_E_FORMAT, "%s: renderpass[%d] is a buffer whose output is none of Buffer A-D", path,
                            k - 1);
                goto out;
            }
        } else if (!strcmp(type, "cubemap")) {
            const cJSON *outs = cJSON_GetObjectItemCaseSensitive(pass, "outputs");
            const cJSON *o0 = cJSON_IsArray(outs) ? cJSON_GetArrayItem(outs, 0) : NULL;
            /* Cube A is the site's only cubemap pass: an output that names another is not one we know */
            const cJSON *oid = o0 ? cJSON_GetObjectItemCaseSensitive(o0, "id") : NULL;
            if (cJSON_IsString(oid) && !is_cube_a(oid, NULL)) {
                iks_err_set(e, IKS_E_FORMAT, "%s: renderpass[%d] is a cubemap pass whose output '%s' is not Cube A (%s)",
                            path, k - 1, oid->valuestring, CUBE_ID);
                goto out;
            }
            slot = IKS_CUBE_PASS;
        } else if (!strcmp(type, "sound")) {
            slot = IKS_PASSES;
        } else {
            /* the site's other kinds (a cubemap pass, ...) are a feature ikshade lacks, not a broken file */
            iks_err_set(e, IKS_E_UNSUPPORTED,
                        "%s: renderpass[%d] has type '%s', which ikshade does not run (image, buffer, cubemap, common, sound)",
                        path, k - 1, type);
            goto out;
        }
        if (slot_of[slot]) {
            iks_err_set(e, IKS_E_FORMAT, "%s: two passes write %s", path,
                        slot == IKS_IMAGE_PASS ? "the Image" : slot == IKS_CUBE_PASS ? "Cube A"
                        : slot == IKS_PASSES ? "the sound" : "the same buffer");
            goto out;
        }
        slot_of[slot] = pass;
        if (slot < 4) tf->desc.buffer_order[tf->desc.nbuffer_order++] = slot; /* the site draws them so */
        static const char *const SN[IKS_PASSES + 1] = { "Buffer A", "Buffer B", "Buffer C", "Buffer D", "Image", "Cube A",
                                                        "Sound" };
        if (asprintf(&nm, "%s[%s]", jbase, SN[slot]) < 0 || !(pass_at(tf, slot)->path = keep(tf, nm))) goto nomem;
        pass_at(tf, slot)->text = code->valuestring;
    }
    if (!slot_of[IKS_IMAGE_PASS]) {
        iks_err_set(e, IKS_E_FORMAT, "%s: no pass of type \"image\"", path);
        goto out;
    }
    /* second: each pass's inputs */
    for (int s = 0; s <= IKS_PASSES; s++) {
        if (!slot_of[s]) continue;
        /* messages name the pass as the user's path to the JSON and the pass: dir/toy.json[Image] */
        const char *bracket = strchr(pass_at(tf, s)->path, '[');
        char pp[PATH_MAX + 32];
        snprintf(pp, sizeof pp, "%s%s", path, bracket ? bracket : "");
        /* a render of the sound alone needs only the sound pass's media */
        bool missing_black = black || ((flags & IKS_TF_SOUND_ONLY) && s != IKS_PASSES);
        const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(slot_of[s], "inputs");
        if (inputs && !cJSON_IsArray(inputs)) {
            iks_err_set(e, IKS_E_FORMAT, "%s: \"inputs\" is not an array", pp);
            goto out;
        }
        const cJSON *in;
        bool taken[4] = { false };
        cJSON_ArrayForEach(in, inputs)
        {
            const cJSON *chv = cJSON_GetObjectItemCaseSensitive(in, "channel");
            if (!cJSON_IsNumber(chv) || chv->valuedouble < 0 || chv->valuedouble > 3) {
                iks_err_set(e, IKS_E_FORMAT, "%s: an input without a \"channel\" number 0-3", pp);
                goto out;
            }
            int c = (int)chv->valuedouble;
            /* the site gives a channel one input: of two, one would be dropped without a word */
            if (taken[c]) {
                iks_err_set(e, IKS_E_FORMAT, "%s: two inputs on " IKS_U_CHANNEL_PREFIX "%d", pp, c);
                goto out;
            }
            taken[c] = true;
            iks_input *d = &pass_at(tf, s)->in[c];
            const char *type = str_field(in, "type", "ctype");
            const char *media = str_field(in, "filepath", "src");
            const cJSON *smp = cJSON_GetObjectItemCaseSensitive(in, "sampler");
            d->vflip = smp ? bool_field(smp, "vflip", true) : true;
            d->srgb = smp ? bool_field(smp, "srgb", false) : false;
            const char *f = smp ? str_field(smp, "filter", NULL) : NULL;
            const char *w = smp ? str_field(smp, "wrap", NULL) : NULL;
            d->filter = IKS_FILTER_LINEAR;
            if (f && !filter_value(f, &d->filter)) {
                iks_err_set(e, IKS_E_FORMAT, "%s: " IKS_U_CHANNEL_PREFIX "%d: unknown filter '%s'", pp, c, f);
                goto out;
            }
            d->repeat = w && !strcmp(w, "repeat");
            if (!type) {
                iks_err_set(e, IKS_E_FORMAT, "%s: " IKS_U_CHANNEL_PREFIX "%d has no \"type\"", pp, c);
                goto out;
            }
            if (!strcmp(type, "buffer")) {
                int b = buffer_from_ref(cJSON_GetObjectItemCaseSensitive(in, "id"), media);
                if (b < 0 || !slot_of[b]) {
                    iks_err_set(e, IKS_E_FORMAT, "%s: " IKS_U_CHANNEL_PREFIX "%d reads a buffer the JSON does not define", pp, c);
                    goto out;
                }
                d->kind = IKS_IN_BUFFER;
                d->buffer = b;
            } else if (!strcmp(type, "keyboard")) {
                d->kind = IKS_IN_KEYBOARD;
            } else if (!strcmp(type, "cubemap") && is_cube_a(cJSON_GetObjectItemCaseSensitive(in, "id"), media)) {
                if (!slot_of[IKS_CUBE_PASS]) {
                    iks_err_set(e, IKS_E_FORMAT, "%s: " IKS_U_CHANNEL_PREFIX "%d reads Cube A, which the JSON does not define", pp, c);
                    goto out;
                }
                d->kind = IKS_IN_CUBE_BUFFER;
                d->vflip = false;
            } else if (!strcmp(type, "texture") || !strcmp(type, "cubemap") || !strcmp(type, "volume")) {
                bool cube = !strcmp(type, "cubemap");
                d->kind = cube ? IKS_IN_CUBEMAP : !strcmp(type, "volume") ? IKS_IN_VOLUME : IKS_IN_IMAGE;
                if (d->kind == IKS_IN_VOLUME) d->vflip = false; /* the site does not flip volumes */
                if (cube) d->vflip = smp ? bool_field(smp, "vflip", false) : false; /* the site's default */
                bool lost = false;
                char *found = media ? find_media(dir, media, &lost) : NULL;
                if (lost) goto nomem;
                if (!found && !missing_black) {
                    iks_err_set(e, IKS_E_IO, "%s: " IKS_U_CHANNEL_PREFIX "%d: %s '%s' is not on disk beside the JSON "
                                "(put %s there, or run with missing_media_black)", pp, c, type,
                                media ? media : "(no path)", cube ? "its six faces" : "it");
                    goto out;
                }
                d->path = NULL; /* black */
                if (found && !(d->path = keep(tf, found))) goto nomem;
                if (!media_allowed(path, dir, d, flags, e)) goto out;
            } else if (!strcmp(type, "music") || !strcmp(type, "video")) {
                /* the site's media, looked for beside the JSON as textures are */
                bool video = !strcmp(type, "video");
                d->kind = video ? IKS_IN_VIDEO : IKS_IN_MUSIC;
                bool lost = false;
                char *found = media ? find_media(dir, media, &lost) : NULL;
                if (lost) goto nomem;
                /* music is heard in a sound-only render: missing, it is still an error */
                if (!found && !(video ? missing_black : black)) {
                    iks_err_set(e, IKS_E_IO, "%s: " IKS_U_CHANNEL_PREFIX "%d: %s '%s' is not on disk beside the JSON "
                                "(put it there, or run with missing_media_black)", pp, c, type, media ? media : "(no path)");
                    goto out;
                }
                d->path = NULL; /* silence, or black */
                if (found && !(d->path = keep(tf, found))) goto nomem;
                if (!media_allowed(path, dir, d, flags, e)) goto out;
            } else if (missing_black) {
                d->kind = IKS_IN_IMAGE;
                d->path = NULL;
                iks_warnf(log, "%s: " IKS_U_CHANNEL_PREFIX "%d: input type '%s' is not supported; black instead", pp, c,
                          type);
            } else {
                iks_err_set(e, IKS_E_UNSUPPORTED, "%s: " IKS_U_CHANNEL_PREFIX "%d: input type '%s' is not supported (run with "
                            "missing_media_black to run without it)", pp, c, type);
                goto out;
            }
        }
    }
    /* the code strings live in the cJSON tree: copy them out before it goes */
    for (int s = 0; s <= IKS_PASSES; s++)
        if (pass_at(tf, s)->text && !(pass_at(tf, s)->text = keep_copy(tf, pass_at(tf, s)->text))) goto nomem;
    if (tf->desc.common_text && !(tf->desc.common_text = keep_copy(tf, tf->desc.common_text))) goto nomem;
    tf->desc.es = true; /* the site's code is WebGL2's GLSL ES 3.00 */
    ok = true;
    goto out;
nomem:
    iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", path);
out:
    cJSON_Delete(root);
    return ok;
}

bool iks_toyfile_parse_json(iks_toyfile *tf, const char *name, const char *text, unsigned flags, iks_err *e,
                            const iks_logger *log)
{
    memset(tf, 0, sizeof *tf);
    bool ok = load_json(tf, name, text, flags, e, log);
    if (!ok) iks_toyfile_free(tf);
    return ok;
}

/* ---- a directory, one file per pass ------------------------------------------------------------ */

static char *join2(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static bool is_reg(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* the code of a failure to read a file: a binary one is malformed, the rest is the file system's */
static iks_code read_code(int err)
{
    return err == EILSEQ ? IKS_E_FORMAT : err == ENOMEM ? IKS_E_NOMEM : IKS_E_IO;
}

static bool blank(const char *s)
{
    for (; *s; s++)
        if (!isspace((unsigned char)*s)) return false;
    return true;
}

/* A live input from --channelN or a manifest (where: what to name it by): refused, or black with
 * --missing-media=black, said once. */
/* where: the input's place for messages; field (may be NULL): the caller's field it came from, whose
 * value where's text after the field's name is */
static bool live_input(const iks_input *in, const char *where, const char *field, unsigned flags, iks_err *e,
                       const iks_logger *log)
{
    if (!in->live) return true;
    if (!(flags & IKS_TF_MISSING_BLACK) && field)
        return iks_err_field(e, IKS_E_UNSUPPORTED, field, where + strlen(field) + 1, "a %s is not supported (an audio "
                             "or video file is; missing_media_black runs it as black)", in->live);
    if (!(flags & IKS_TF_MISSING_BLACK))
        return iks_err_set(e, IKS_E_UNSUPPORTED, "%s: a %s is not supported (an audio or video file is; "
                           "missing_media_black runs it as black)", where, in->live);
    iks_warnf(log, "%s: a %s is not supported; black instead", where, in->live);
    return true;
}

static const char *const DIR_FILES[IKS_PASSES + 1] = { "a.glsl",     "b.glsl",      "c.glsl",    "d.glsl",
                                                       "image.glsl", "cube_a.glsl", "sound.glsl" };

bool iks_toyfile_parse_manifest(iks_toyfile *tf, const char *dir, const char *man, char *text, unsigned flags,
                                iks_err *e, const iks_logger *log)
{
    static const char *const PASS[IKS_PASSES + 1] = { "a", "b", "c", "d", "image", "cube_a", "sound" };
    const char *const *FILES = DIR_FILES;
    bool ok = true;
    int lineno = 0;
    for (char *ln = text, *next; ok && ln; ln = next) {
        next = strchr(ln, '\n');
        if (next) *next++ = '\0';
        lineno++;
        char *hash = strchr(ln, '#');
        if (hash) *hash = '\0';
        /* "LHS = RHS": LHS up to '=' or a blank, RHS the rest of the line however long */
        char *lhs = ln;
        while (isspace((unsigned char)*lhs)) lhs++;
        size_t lhs_len = strcspn(lhs, "= \t");
        char *rhs = lhs + lhs_len;
        while (isspace((unsigned char)*rhs)) rhs++;
        bool shaped = lhs_len > 0 && *rhs == '=';
        if (shaped) {
            rhs++;
            while (isspace((unsigned char)*rhs)) rhs++;
            shaped = *rhs != '\0';
        }
        if (!shaped) {
            if (!blank(ln))
                ok = iks_err_set(e, IKS_E_FORMAT, "%s:%d: expected PASS." IKS_U_CHANNEL_PREFIX "N = SPEC, e.g. image." IKS_U_NAME_CHANNEL0 " = a", man,
                                 lineno);
            continue;
        }
        lhs[lhs_len] = '\0'; /* after rhs has moved past the '=' that may sit there */
        for (size_t k = strlen(rhs); k && isspace((unsigned char)rhs[k - 1]);) rhs[--k] = '\0';
        char *dot = strchr(lhs, '.');
        int p = -1;
        for (int i = 0; dot && i <= IKS_PASSES; i++)
            if ((size_t)(dot - lhs) == strlen(PASS[i]) && !strncmp(lhs, PASS[i], strlen(PASS[i]))) p = i;
        const size_t k = sizeof IKS_U_CHANNEL_PREFIX - 1;
        int c = dot && !strncmp(dot + 1, IKS_U_CHANNEL_PREFIX, k) && dot[k + 1] >= '0' && dot[k + 1] <= '3' && !dot[k + 2]
                    ? dot[k + 1] - '0' : -1;
        if (p < 0 || c < 0) {
            ok = iks_err_set(e, IKS_E_FORMAT, "%s:%d: '%s': expected PASS." IKS_U_CHANNEL_PREFIX "N with PASS one of a b c d image cube_a sound and N 0-3",
                             man, lineno, lhs);
            break;
        }
        if (!pass_at(tf, p)->path) {
            ok = iks_err_set(e, IKS_E_FORMAT, "%s:%d: '%s': the directory has no %s", man, lineno, lhs, FILES[p]);
            break;
        }
        iks_input *in = &pass_at(tf, p)->in[c];
        if (!iks_channel_parse(rhs, in, e)) {
            /* a bad SPEC here is a malformed file, not a bad command line */
            if (e && e->code == IKS_E_USAGE) e->code = IKS_E_FORMAT;
            ok = iks_err_prefix(e, "%s:%d: ", man, lineno);
            break;
        }
        if (in->live) {
            char where[PATH_MAX + 96];
            snprintf(where, sizeof where, "%s:%d: '%.40s'", man, lineno, rhs);
            if (!(ok = live_input(in, where, NULL, flags, e, log))) break;
        }
        if (in->path) {
            char *owned = (char *)in->path;
            char *full = owned[0] == '/' ? owned : join2(dir, owned);
            if (full != owned) free(owned);
            if (!(in->path = keep(tf, full))) {
                ok = iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", man);
                break;
            }
            char where[PATH_MAX + 16];
            snprintf(where, sizeof where, "%s:%d", man, lineno);
            if (!(ok = media_allowed(where, dir, in, flags, e))) break;
        }
        if (in->kind == IKS_IN_CUBE_BUFFER && !tf->desc.pass[IKS_CUBE_PASS].path) {
            ok = iks_err_set(e, IKS_E_FORMAT, "%s:%d: %s reads Cube A, but the directory has no cube_a.glsl", man, lineno,
                             lhs);
        }
        if (ok && in->kind == IKS_IN_BUFFER && !tf->desc.pass[in->buffer].path) {
            ok = iks_err_set(e, IKS_E_FORMAT, "%s:%d: %s reads buffer %c, but the directory has no %s", man, lineno, lhs,
                             'a' + in->buffer, FILES[in->buffer]);
        }
    }
    return ok;
}

static bool load_dir(iks_toyfile *tf, const char *dir, unsigned flags, iks_err *e, const iks_logger *log)
{
    const char *const *FILES = DIR_FILES;
    const char *base = strrchr(dir, '/');
    if (!(tf->name = keep_copy(tf, base && base[1] ? base + 1 : dir))) return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", dir);
    /* its #includes stay inside its directory, as its media do */
    if (!(flags & IKS_TF_MEDIA_OUTSIDE) && !(tf->desc.confine_dir = keep_copy(tf, dir)))
        return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", dir);
    for (int p = 0; p < IKS_PASSES; p++) {
        char *f = keep(tf, join2(dir, FILES[p]));
        if (!f) return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", dir);
        if (is_reg(f)) tf->desc.pass[p].path = f;
    }
    if (!tf->desc.pass[IKS_IMAGE_PASS].path)
        return iks_err_set(e, IKS_E_FORMAT, "%s: a directory toy needs image.glsl (and may have common.glsl, a.glsl .. "
                           "d.glsl, cube_a.glsl, sound.glsl, manifest.txt)", dir);
    char *snd = keep(tf, join2(dir, FILES[IKS_PASSES]));
    if (!snd) return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", dir);
    if (is_reg(snd)) tf->desc.sound.path = snd;
    char *common = keep(tf, join2(dir, "common.glsl"));
    char *man = keep(tf, join2(dir, "manifest.txt"));
    if (!common || !man) return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", dir);
    if (is_reg(common)) tf->desc.common_path = common;
    tf->watch[tf->nwatch++] = man; /* watched even before it exists (the one entry: watch[] cannot fill) */
    struct stat st;
    /* none is fine; anything else under the name (a FIFO, a directory) is read, and refused by name */
    if (stat(man, &st) != 0 && errno == ENOENT) return true;
    size_t len;
    char *text = iks_userfile_read_text(man, 1u << 20, 0, &len);
    if (!text) {
        int err = errno;
        return iks_err_set(e, read_code(err), "%s: %s", man,
                           err == EILSEQ ? "binary file (contains NUL bytes), not a manifest" : iks_userfile_strerror(err));
    }
    bool ok = iks_toyfile_parse_manifest(tf, dir, man, text, flags, e, log);
    free(text);
    return ok;
}

/* ---- a single pass: a file, or text in memory -------------------------------------------------- */

/* The Image pass at path (kept), its text (kept, or NULL to read path), channels from --channelN */
static bool load_single(iks_toyfile *tf, const char *path, const char *text, const char *const channel[4],
                        unsigned flags, iks_err *e, const iks_logger *log)
{
    const char *base = strrchr(path, '/');
    if (!(tf->name = keep_copy(tf, base && base[1] ? base + 1 : path)) ||
        !(tf->desc.pass[IKS_IMAGE_PASS].path = keep_copy(tf, path)) ||
        (text && !(tf->desc.pass[IKS_IMAGE_PASS].text = keep_copy(tf, text))))
        return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", path);
    for (int c = 0; channel && c < 4; c++) {
        if (!channel[c]) continue;
        iks_input *in = &tf->desc.pass[IKS_IMAGE_PASS].in[c];
        char field[16], where[64];
        snprintf(field, sizeof field, "channel[%d]", c);
        if (!iks_channel_parse(channel[c], in, e)) return iks_err_rename_field(e, field), false;
        snprintf(where, sizeof where, "channel[%d] '%.40s'", c, channel[c]);
        if (!live_input(in, where, field, flags, e, log)) return false;
        if (in->path && !(in->path = keep(tf, (char *)in->path))) return oom(e);
        if (in->kind == IKS_IN_BUFFER || in->kind == IKS_IN_CUBE_BUFFER)
            return iks_err_field(e, IKS_E_USAGE, field, where + strlen(field) + 1, "a single file has no buffers (use a "
                                 "JSON or a directory toy)");
    }
    return true;
}

bool iks_toyfile_from_text(iks_toyfile *tf, const char *name, const char *text, const char *const channel[4],
                           unsigned flags, iks_err *e, const iks_logger *log)
{
    memset(tf, 0, sizeof *tf);
    if (!text) return iks_err_set(e, IKS_E_USAGE, "%s: no source text", name ? name : "<memory>");
    bool ok = load_single(tf, name ? name : "<memory>", text, channel, flags, e, log);
    if (!ok) iks_toyfile_free(tf);
    return ok;
}

/* a channel the caller gave that this kind of toy cannot take */
static bool channel_refused(iks_err *e, int c, const char *spec, const char *why)
{
    char field[16], q[64];
    snprintf(field, sizeof field, "channel[%d]", c);
    snprintf(q, sizeof q, "'%.40s'", spec);
    return iks_err_field(e, IKS_E_USAGE, field, q, "%s", why);
}

bool iks_toyfile_load(iks_toyfile *tf, const char *path, const char *const channel[4], unsigned flags,
                      iks_err *e, const iks_logger *log)
{
    memset(tf, 0, sizeof *tf);
    if (iks_ends_with(path, ".json")) {
        for (int c = 0; channel && c < 4; c++)
            if (channel[c]) return channel_refused(e, c, channel[c], "a JSON brings its own channels");
        size_t len;
        char *text = iks_userfile_read_text(path, MAX_JSON_BYTES, 0, &len);
        if (!text) {
            int err = errno;
            return iks_err_set(e, read_code(err), "%s: %s", path, err == EILSEQ ? "binary file, not JSON" : iks_userfile_strerror(err));
        }
        bool ok = load_json(tf, path, text, flags, e, log);
        free(text);
        if (!ok) iks_toyfile_free(tf);
        return ok;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        for (int c = 0; channel && c < 4; c++)
            if (channel[c])
                return channel_refused(e, c, channel[c], "a directory toy wires its channels in manifest.txt");
        bool ok = load_dir(tf, path, flags, e, log);
        if (!ok) iks_toyfile_free(tf);
        return ok;
    }
    bool ok = load_single(tf, path, NULL, channel, flags, e, log);
    if (!ok) iks_toyfile_free(tf);
    return ok;
}

/* ---- the media a JSON names, for `ikshade import` ------------------------------------------------ */

/* A path the site gives ("/media/a/<hash>.jpg"): under /media/, only [A-Za-z0-9._-] between single
 * slashes, no "." or ".." component, so that it can be fetched from the site and named on disk as is */
static bool site_media_path(const char *p)
{
    if (strncmp(p, "/media/", 7) != 0 || strlen(p) > 512) return false;
    for (const char *c = p + 1; *c;) {
        size_t n = strspn(c, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-");
        if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.')) return false;
        c += n;
        if (*c == '/' && c[1]) c++;
        else if (*c) return false; /* an odd character, or a '/' at the end: no file name */
    }
    return true;
}

bool iks_toyfile_json_media(const char *name, const char *text, iks_media_list *out, iks_err *e)
{
    memset(out, 0, sizeof *out);
    cJSON *root = cJSON_ParseWithOpts(text, NULL, true);
    if (!root) return iks_err_set(e, IKS_E_FORMAT, "%s: not valid JSON", name);
    bool ok = false;
    const cJSON *shader = cJSON_GetObjectItemCaseSensitive(root, "Shader");
    if (!shader) shader = root;
    const cJSON *passes = cJSON_GetObjectItemCaseSensitive(shader, "renderpass");
    const cJSON *pass, *in;
    if (!cJSON_IsArray(passes)) {
        iks_err_set(e, IKS_E_FORMAT, "%s: no \"renderpass\" array: not a shadertoy.com export", name);
        goto out;
    }
    /* What a toy can read bounds what is fetched, checked before anything is: a pass has four
     * channels, and a toy at most one pass of each kind (a JSON naming thousands of inputs would
     * otherwise cost thousands of requests). The loader's own rules, whatever kinds of pass it runs. */
    int npasses = cJSON_GetArraySize(passes);
    if (npasses > MAX_JSON_PASSES) {
        iks_err_set(e, IKS_E_FORMAT, "%s: %d passes: a toy has at most %d (Image, Buffer A-D, Cube A, Sound and "
                    "Common)", name, npasses, MAX_JSON_PASSES);
        goto out;
    }
    int k = -1;
    cJSON_ArrayForEach(pass, passes)
    {
        k++;
        const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(pass, "inputs");
        const char *ptype = str_field(pass, "type", NULL);
        /* the loader reads no inputs of the Common pass: nothing to fetch for them */
        if (!cJSON_IsArray(inputs) || (ptype && !strcmp(ptype, "common"))) continue;
        bool taken[4] = { false };
        cJSON_ArrayForEach(in, inputs)
        {
            const cJSON *chv = cJSON_GetObjectItemCaseSensitive(in, "channel");
            if (!cJSON_IsNumber(chv) || chv->valuedouble < 0 || chv->valuedouble > 3) {
                iks_err_set(e, IKS_E_FORMAT, "%s: renderpass[%d]: an input without a \"channel\" number 0-3", name, k);
                goto out;
            }
            int c = (int)chv->valuedouble;
            if (taken[c]) {
                iks_err_set(e, IKS_E_FORMAT, "%s: renderpass[%d]: two inputs on " IKS_U_CHANNEL_PREFIX "%d", name, k, c);
                goto out;
            }
            taken[c] = true;
            const char *type = str_field(in, "type", "ctype");
            const char *media = str_field(in, "filepath", "src");
            /* files ikshade reads: textures, cubemap faces, volumes, music and video. Buffers, Cube A and
             * the keyboard are no files; a webcam, a microphone or a SoundCloud stream cannot be fetched */
            bool file = type && (!strcmp(type, "texture") || !strcmp(type, "volume") || !strcmp(type, "music") ||
                                 !strcmp(type, "video") ||
                                 (!strcmp(type, "cubemap") && !is_cube_a(cJSON_GetObjectItemCaseSensitive(in, "id"), media)));
            if (!file) {
                if (type && strcmp(type, "buffer") && strcmp(type, "keyboard") && strcmp(type, "cubemap")) out->skipped++;
                continue;
            }
            if (!media || !site_media_path(media)) {
                iks_err_set(e, IKS_E_FORMAT, "%s: %s path '%s' is not one of the site's /media/ paths", name, type,
                            media ? media : "(none)");
                goto out;
            }
            bool cube = !strcmp(type, "cubemap");
            for (int face = 0; face < (cube ? 6 : 1); face++) {
                char *p = face ? iks_cube_face_path(media, face) : strdup(media);
                if (!p) goto nomem;
                bool dup = false;
                for (int i = 0; i < out->n && !dup; i++) dup = !strcmp(out->path[i], p);
                if (dup) {
                    free(p);
                    continue;
                }
                if (!IKS_GROW(out->path, (size_t)out->n + 1, out->cap)) {
                    free(p);
                    goto nomem;
                }
                out->path[out->n++] = p;
            }
        }
    }
    ok = true;
    goto out;
nomem:
    iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", name);
out:
    cJSON_Delete(root);
    if (!ok) iks_media_list_free(out);
    return ok;
}

void iks_media_list_free(iks_media_list *l)
{
    for (int i = 0; i < l->n; i++) free(l->path[i]);
    free(l->path);
    memset(l, 0, sizeof *l);
}
