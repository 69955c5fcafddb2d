/* toyfile.c: single files with --channelN, and shadertoy.com's JSON through cJSON (Debian's
 * libcjson-dev). The JSON has had two vocabularies over the years: inputs with ctype/src or with
 * type/filepath, buffers named by output id 257-260, by the API's string ids, or by their
 * /media/previz/bufferNN.png path; all are read. */
#include "toyfile.h"

#include "source.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define MAX_JSON_BYTES (32u << 20)

static char *keep(iks_toyfile *tf, char *s)
{
    if (!s) return NULL;
    if (tf->nowned == (int)(sizeof tf->owned / sizeof tf->owned[0])) {
        free(s);
        return NULL;
    }
    return tf->owned[tf->nowned++] = s;
}

void iks_toyfile_free(iks_toyfile *tf)
{
    for (int i = 0; i < tf->nowned; i++) free(tf->owned[i]);
    memset(tf, 0, sizeof *tf);
}

static bool ends_with_ci(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
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

bool iks_channel_parse(const char *spec, iks_input *in, char *err, size_t errlen)
{
    memset(in, 0, sizeof *in);
    in->vflip = true; /* the site's default for textures */
    char *copy = strdup(spec);
    if (!copy) return snprintf(err, errlen, "out of memory"), false;
    char *save = NULL, *what = strtok_r(copy, ",", &save);
    bool ok = what != NULL;
    if (!ok) snprintf(err, errlen, "'%s': expected FILE.png, FILE.jpg, cube:FILE.png, keyboard, black or a buffer a-d", spec);
    else if (!strcmp(what, "keyboard")) in->kind = IKS_IN_KEYBOARD;
    else if (strlen(what) == 1 && what[0] >= 'a' && what[0] <= 'd') in->kind = IKS_IN_BUFFER, in->buffer = what[0] - 'a';
    else if (!strcmp(what, "black")) in->kind = IKS_IN_IMAGE, in->path = NULL;
    else if (!strncmp(what, "cube:", 5) && what[5]) {
        in->kind = IKS_IN_CUBEMAP;
        in->vflip = false; /* the site's default for cubemaps */
        in->path = spec + (what - copy) + 5;
    } else if (ends_with_ci(what, ".png") || ends_with_ci(what, ".jpg") || ends_with_ci(what, ".jpeg")) {
        in->kind = IKS_IN_IMAGE;
        in->path = spec + (what - copy); /* points into spec, which outlives the desc */
    } else {
        snprintf(err, errlen, "'%s': expected FILE.png, FILE.jpg, cube:FILE.png, keyboard, black or a buffer a-d first", spec);
        ok = false;
    }
    for (char *kv; ok && (kv = strtok_r(NULL, ",", &save));) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            snprintf(err, errlen, "'%s': '%s' is not KEY=VALUE", spec, kv);
            ok = false;
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
            snprintf(err, errlen, "'%s': unknown setting '%s' (filter, wrap, vflip, srgb)", spec, kv);
            ok = false;
            break;
        }
        if (!good) {
            snprintf(err, errlen, "'%s': bad %s '%s'", spec, kv, v);
            ok = false;
        }
    }
    /* in->path points into spec at the same offset as into copy; the name must end at the first comma */
    if (ok && (in->kind == IKS_IN_IMAGE || in->kind == IKS_IN_CUBEMAP) && in->path) {
        size_t n = strcspn(in->path, ",");
        char *p = strndup(in->path, n);
        in->path = p; /* the caller keeps it (see keep) */
        if (!p) ok = false, snprintf(err, errlen, "out of memory");
    }
    free(copy);
    return ok;
}

/* ---- JSON -------------------------------------------------------------------------------------- */

static const char *const API_IDS[4] = { "4dXGR8", "XsXGR8", "4sXGR8", "XdfGR8" };

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

/* a media file named by the JSON: beside the JSON under the same path, or under its base name */
static char *find_media(const char *json_dir, const char *rel)
{
    const char *base = strrchr(rel, '/');
    base = base ? base + 1 : rel;
    const char *tries[2] = { rel[0] == '/' ? rel + 1 : rel, base };
    for (int i = 0; i < 2; i++) {
        size_t n = strlen(json_dir) + strlen(tries[i]) + 2;
        char *p = malloc(n);
        if (!p) return NULL;
        snprintf(p, n, "%s/%s", json_dir, tries[i]);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) return p;
        free(p);
    }
    return NULL;
}

static bool load_json(iks_toyfile *tf, const char *path, const char *text, bool missing_black, char *err,
                      size_t errlen, char *warn, size_t warnlen)
{
    size_t wl = 0;
    const char *eptr = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &eptr, true);
    if (!root) {
        int line = 1;
        for (const char *p = text; eptr && p < eptr; p++) line += *p == '\n';
        snprintf(err, errlen, "%s:%d: not valid JSON%s", path, line, eptr && !*eptr ? " (it ends too soon)" : "");
        return false;
    }
    bool ok = false;
    const cJSON *shader = cJSON_GetObjectItemCaseSensitive(root, "Shader");
    if (!shader) shader = root;
    const cJSON *passes = cJSON_GetObjectItemCaseSensitive(shader, "renderpass");
    if (!cJSON_IsArray(passes)) {
        snprintf(err, errlen, "%s: no \"renderpass\" array: not a shadertoy.com export", path);
        goto out;
    }
    const cJSON *info = cJSON_GetObjectItemCaseSensitive(shader, "info");
    const char *name = info ? str_field(info, "name", NULL) : NULL;
    snprintf(tf->name, sizeof tf->name, "%s", name ? name : path);
    char *dir = strdup(path);
    if (!dir) goto out;
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    else strcpy(dir, ".");
    keep(tf, dir);
    const char *jbase = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

    /* first pass over renderpass[]: which slot each pass takes, and its output ids */
    const cJSON *pass;
    int k = 0;
    const cJSON *slot_of[IKS_PASSES] = { 0 };
    cJSON_ArrayForEach(pass, passes)
    {
        k++;
        if (!cJSON_IsObject(pass)) {
            snprintf(err, errlen, "%s: renderpass[%d] is not an object", path, k - 1);
            goto out;
        }
        const char *type = str_field(pass, "type", NULL);
        const char *pname = str_field(pass, "name", NULL);
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(pass, "code");
        if (!type) {
            snprintf(err, errlen, "%s: renderpass[%d] has no \"type\" string", path, k - 1);
            goto out;
        }
        if (!cJSON_IsString(code)) {
            snprintf(err, errlen, "%s: renderpass[%d] (%s) has no \"code\" string", path, k - 1, type);
            goto out;
        }
        int slot;
        if (!strcmp(type, "image")) slot = IKS_IMAGE_PASS;
        else if (!strcmp(type, "common")) {
            char *nm = malloc(strlen(jbase) + 16);
            if (!nm) goto out;
            sprintf(nm, "%s[Common]", jbase);
            tf->desc.common_path = keep(tf, nm);
            tf->desc.common_text = code->valuestring;
            continue;
        } else if (!strcmp(type, "buffer")) {
            const cJSON *outs = cJSON_GetObjectItemCaseSensitive(pass, "outputs");
            const cJSON *o0 = cJSON_IsArray(outs) ? cJSON_GetArrayItem(outs, 0) : NULL;
            slot = o0 ? buffer_from_ref(cJSON_GetObjectItemCaseSensitive(o0, "id"), NULL) : -1;
            if (slot < 0 && pname && !strncmp(pname, "Buffer ", 7) && pname[7] >= 'A' && pname[7] <= 'D' && !pname[8])
                slot = pname[7] - 'A';
            if (slot < 0) {
                snprintf(err, errlen, "%s: renderpass[%d] is a buffer whose output is none of Buffer A-D", path, k - 1);
                goto out;
            }
        } else if (!strcmp(type, "sound")) {
            wl += (size_t)snprintf(warn + wl, wl < warnlen ? warnlen - wl : 0,
                                   "%s: the sound pass is ignored (ikshade draws pictures)\n", path);
            continue;
        } else {
            snprintf(err, errlen, "%s: renderpass[%d] has type '%s', which ikshade does not run (image, buffer, common, sound)",
                     path, k - 1, type);
            goto out;
        }
        if (slot_of[slot]) {
            snprintf(err, errlen, "%s: two passes write %s", path, slot == IKS_IMAGE_PASS ? "the Image" : "the same buffer");
            goto out;
        }
        slot_of[slot] = pass;
        char *nm = malloc(strlen(jbase) + 32);
        if (!nm) goto out;
        static const char *const SN[IKS_PASSES] = { "Buffer A", "Buffer B", "Buffer C", "Buffer D", "Image" };
        sprintf(nm, "%s[%s]", jbase, SN[slot]);
        tf->desc.pass[slot].path = keep(tf, nm);
        tf->desc.pass[slot].text = code->valuestring;
    }
    if (!slot_of[IKS_IMAGE_PASS]) {
        snprintf(err, errlen, "%s: no pass of type \"image\"", path);
        goto out;
    }
    /* second: each pass's inputs */
    for (int s = 0; s < IKS_PASSES; s++) {
        if (!slot_of[s]) continue;
        const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(slot_of[s], "inputs");
        if (inputs && !cJSON_IsArray(inputs)) {
            snprintf(err, errlen, "%s: %s: \"inputs\" is not an array", path, tf->desc.pass[s].path);
            goto out;
        }
        const cJSON *in;
        cJSON_ArrayForEach(in, inputs)
        {
            const cJSON *chv = cJSON_GetObjectItemCaseSensitive(in, "channel");
            if (!cJSON_IsNumber(chv) || chv->valuedouble < 0 || chv->valuedouble > 3) {
                snprintf(err, errlen, "%s: %s: an input without a \"channel\" number 0-3", path, tf->desc.pass[s].path);
                goto out;
            }
            int c = (int)chv->valuedouble;
            iks_input *d = &tf->desc.pass[s].in[c];
            const char *type = str_field(in, "type", "ctype");
            const char *media = str_field(in, "filepath", "src");
            const cJSON *smp = cJSON_GetObjectItemCaseSensitive(in, "sampler");
            d->vflip = smp ? bool_field(smp, "vflip", true) : true;
            d->srgb = smp ? bool_field(smp, "srgb", false) : false;
            const char *f = smp ? str_field(smp, "filter", NULL) : NULL;
            const char *w = smp ? str_field(smp, "wrap", NULL) : NULL;
            d->filter = IKS_FILTER_LINEAR;
            if (f && !filter_value(f, &d->filter)) {
                snprintf(err, errlen, "%s: %s: iChannel%d: unknown filter '%s'", path, tf->desc.pass[s].path, c, f);
                goto out;
            }
            d->repeat = w && !strcmp(w, "repeat");
            if (!type) {
                snprintf(err, errlen, "%s: %s: iChannel%d has no \"type\"", path, tf->desc.pass[s].path, c);
                goto out;
            }
            if (!strcmp(type, "buffer")) {
                int b = buffer_from_ref(cJSON_GetObjectItemCaseSensitive(in, "id"), media);
                if (b < 0 || !slot_of[b]) {
                    snprintf(err, errlen, "%s: %s: iChannel%d reads a buffer the JSON does not define", path,
                             tf->desc.pass[s].path, c);
                    goto out;
                }
                d->kind = IKS_IN_BUFFER;
                d->buffer = b;
            } else if (!strcmp(type, "keyboard")) {
                d->kind = IKS_IN_KEYBOARD;
            } else if (!strcmp(type, "texture") || !strcmp(type, "cubemap")) {
                bool cube = !strcmp(type, "cubemap");
                d->kind = cube ? IKS_IN_CUBEMAP : IKS_IN_IMAGE;
                if (cube) d->vflip = smp ? bool_field(smp, "vflip", false) : false; /* the site's default */
                char *found = media ? find_media(dir, media) : NULL;
                if (!found && !missing_black) {
                    snprintf(err, errlen, "%s: %s: iChannel%d: %s '%s' is not on disk beside the JSON "
                             "(put %s there, or use --missing-media=black)", path, tf->desc.pass[s].path, c, type,
                             media ? media : "(no path)", cube ? "its six faces" : "it");
                    goto out;
                }
                d->path = keep(tf, found); /* NULL: black */
            } else if (missing_black) {
                d->kind = IKS_IN_IMAGE;
                d->path = NULL;
                wl += (size_t)snprintf(warn + wl, wl < warnlen ? warnlen - wl : 0,
                                       "%s: %s: iChannel%d: input type '%s' is not supported; black instead\n", path,
                                       tf->desc.pass[s].path, c, type);
            } else {
                snprintf(err, errlen, "%s: %s: iChannel%d: input type '%s' is not supported (use "
                         "--missing-media=black to run without it)", path, tf->desc.pass[s].path, c, type);
                goto out;
            }
        }
    }
    /* the code strings live in the cJSON tree: copy them out before it goes */
    for (int s = 0; s < IKS_PASSES; s++)
        if (tf->desc.pass[s].text && !(tf->desc.pass[s].text = keep(tf, strdup(tf->desc.pass[s].text)))) goto out;
    if (tf->desc.common_text && !(tf->desc.common_text = keep(tf, strdup(tf->desc.common_text)))) goto out;
    tf->desc.es = true; /* the site's code is WebGL2's GLSL ES 3.00 */
    ok = true;
out:
    if (!ok && !err[0]) snprintf(err, errlen, "%s: out of memory", path);
    cJSON_Delete(root);
    return ok;
}

bool iks_toyfile_parse_json(iks_toyfile *tf, const char *name, const char *text, bool missing_black, char *err,
                            size_t errlen, char *warn, size_t warnlen)
{
    memset(tf, 0, sizeof *tf);
    err[0] = '\0';
    if (warnlen) warn[0] = '\0';
    bool ok = load_json(tf, name, text, missing_black, err, errlen, warn, warnlen);
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

static bool load_dir(iks_toyfile *tf, const char *dir, char *err, size_t errlen)
{
    static const char *const FILES[IKS_PASSES] = { "a.glsl", "b.glsl", "c.glsl", "d.glsl", "image.glsl" };
    static const char *const PASS[IKS_PASSES] = { "a", "b", "c", "d", "image" };
    const char *base = strrchr(dir, '/');
    snprintf(tf->name, sizeof tf->name, "%s", base && base[1] ? base + 1 : dir);
    for (int p = 0; p < IKS_PASSES; p++) {
        char *f = keep(tf, join2(dir, FILES[p]));
        if (!f) return snprintf(err, errlen, "%s: out of memory", dir), false;
        if (is_reg(f)) tf->desc.pass[p].path = f;
    }
    if (!tf->desc.pass[IKS_IMAGE_PASS].path) {
        snprintf(err, errlen, "%s: a directory toy needs image.glsl (and may have common.glsl, a.glsl .. d.glsl, "
                 "manifest.txt)", dir);
        return false;
    }
    char *common = keep(tf, join2(dir, "common.glsl"));
    if (common && is_reg(common)) tf->desc.common_path = common;
    char *man = keep(tf, join2(dir, "manifest.txt"));
    if (!man) return snprintf(err, errlen, "%s: out of memory", dir), false;
    tf->watch[tf->nwatch++] = man; /* watched even before it exists */
    if (!is_reg(man)) return true;
    size_t len;
    char *text = iks_read_text(man, 1u << 20, &len);
    if (!text) return snprintf(err, errlen, "%s: %s", man, strerror(errno)), false;
    bool ok = true;
    int lineno = 0;
    for (char *ln = text, *next; ok && ln; ln = next) {
        next = strchr(ln, '\n');
        if (next) *next++ = '\0';
        lineno++;
        char *hash = strchr(ln, '#');
        if (hash) *hash = '\0';
        char lhs[64], rhs[1024];
        if (sscanf(ln, " %63[^= \t] = %1023[^\n]", lhs, rhs) != 2) {
            bool blank = true;
            for (char *c = ln; *c; c++) blank &= isspace((unsigned char)*c) != 0;
            if (!blank) {
                snprintf(err, errlen, "%s:%d: expected PASS.iChannelN = SPEC, e.g. image.iChannel0 = a", man, lineno);
                ok = false;
            }
            continue;
        }
        for (size_t k = strlen(rhs); k && isspace((unsigned char)rhs[k - 1]);) rhs[--k] = '\0';
        char *dot = strchr(lhs, '.');
        int p = -1;
        for (int i = 0; dot && i < IKS_PASSES; i++)
            if ((size_t)(dot - lhs) == strlen(PASS[i]) && !strncmp(lhs, PASS[i], strlen(PASS[i]))) p = i;
        int c = dot && !strncmp(dot + 1, "iChannel", 8) && dot[9] >= '0' && dot[9] <= '3' && !dot[10] ? dot[9] - '0' : -1;
        if (p < 0 || c < 0) {
            snprintf(err, errlen, "%s:%d: '%s': expected PASS.iChannelN with PASS one of a b c d image and N 0-3", man,
                     lineno, lhs);
            ok = false;
            break;
        }
        if (!tf->desc.pass[p].path) {
            snprintf(err, errlen, "%s:%d: '%s': the directory has no %s", man, lineno, lhs, FILES[p]);
            ok = false;
            break;
        }
        iks_input *in = &tf->desc.pass[p].in[c];
        char e[600];
        if (!iks_channel_parse(rhs, in, e, sizeof e)) {
            snprintf(err, errlen, "%s:%d: %s", man, lineno, e);
            ok = false;
            break;
        }
        if (in->path) {
            char *owned = (char *)in->path;
            in->path = owned[0] == '/' ? keep(tf, owned) : (keep(tf, owned), keep(tf, join2(dir, owned)));
        }
        if (in->kind == IKS_IN_BUFFER && !tf->desc.pass[in->buffer].path) {
            snprintf(err, errlen, "%s:%d: %s reads buffer %c, but the directory has no %s", man, lineno, lhs,
                     'a' + in->buffer, FILES[in->buffer]);
            ok = false;
        }
    }
    free(text);
    return ok;
}

bool iks_toyfile_load(iks_toyfile *tf, const char *path, const char *const channel[4], bool missing_black,
                      char *err, size_t errlen, char *warn, size_t warnlen)
{
    memset(tf, 0, sizeof *tf);
    err[0] = '\0';
    if (warnlen) warn[0] = '\0';
    if (ends_with_ci(path, ".json")) {
        for (int c = 0; c < 4; c++)
            if (channel[c]) {
                snprintf(err, errlen, "--channel%d: a JSON brings its own channels", c);
                return false;
            }
        size_t len;
        char *text = iks_read_text(path, MAX_JSON_BYTES, &len);
        if (!text) {
            snprintf(err, errlen, "%s: %s", path, errno == EILSEQ ? "binary file, not JSON" : strerror(errno));
            return false;
        }
        bool ok = load_json(tf, path, text, missing_black, err, errlen, warn, warnlen);
        free(text);
        if (!ok) iks_toyfile_free(tf);
        return ok;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        for (int c = 0; c < 4; c++)
            if (channel[c]) {
                snprintf(err, errlen, "--channel%d: a directory toy wires its channels in manifest.txt", c);
                return false;
            }
        bool ok = load_dir(tf, path, err, errlen);
        if (!ok) iks_toyfile_free(tf);
        return ok;
    }
    const char *base = strrchr(path, '/');
    snprintf(tf->name, sizeof tf->name, "%s", base ? base + 1 : path);
    tf->desc.pass[IKS_IMAGE_PASS].path = path;
    for (int c = 0; c < 4; c++) {
        if (!channel[c]) continue;
        iks_input *in = &tf->desc.pass[IKS_IMAGE_PASS].in[c];
        char e[512];
        if (!iks_channel_parse(channel[c], in, e, sizeof e)) {
            snprintf(err, errlen, "--channel%d %s", c, e);
            iks_toyfile_free(tf);
            return false;
        }
        if (in->path) keep(tf, (char *)in->path);
        if (in->kind == IKS_IN_BUFFER) {
            snprintf(err, errlen, "--channel%d '%s': a single file has no buffers (use a JSON or a directory toy)", c,
                     channel[c]);
            iks_toyfile_free(tf);
            return false;
        }
    }
    return true;
}
