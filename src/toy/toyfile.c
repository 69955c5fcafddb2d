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

/* What loading one JSON shares between its steps */
typedef struct {
    iks_toyfile *tf;
    const char *path;  /* the JSON's name in messages */
    const char *dir;   /* its directory (owned by tf): media and #includes are found there */
    const char *jbase; /* its base name, for the passes' names: toy.json[Image] */
    unsigned flags;
    iks_err *e;
    const iks_logger *log;
    const cJSON *slot_of[IKS_PASSES + 1]; /* each slot's renderpass, the sound pass at IKS_SOUND_SLOT */
} json_load;

static bool json_oom(json_load *jl) { return iks_err_set(jl->e, IKS_E_NOMEM, "%s: out of memory", jl->path); }

/* cJSON turns \u0000 into a NUL that ends the C string: a pass's code would be cut there, silently */
static bool json_nul_check(const char *path, const char *text, iks_err *e)
{
    for (const char *q = strstr(text, "\\u0000"); q; q = strstr(q + 1, "\\u0000")) {
        size_t slashes = 0;
        while (q - (ptrdiff_t)slashes > text && q[-1 - (ptrdiff_t)slashes] == '\\') slashes++;
        if (slashes % 2) continue; /* "\\u0000": an escaped backslash, then text */
        int line = 1;
        for (const char *p = text; p < q; p++) line += *p == '\n';
        return iks_err_set(e, IKS_E_FORMAT, "%s:%d: a string holds \\u0000 (a NUL character), which GLSL text and "
                           "file names cannot", path, line);
    }
    return true;
}

/* The slot renderpass[k] of json_type type writes (the pass kinds' table), or -1 with the error */
static int json_slot(json_load *jl, const cJSON *pass, int k, const char *type)
{
    int slot = -1;
    for (int s = 0; s < IKS_PASS_KINDS && slot < 0; s++)
        if (!strcmp(type, iks_pass_kind_at(s)->json_type)) slot = s;
    const char *pname = str_field(pass, "name", NULL);
    if (slot < 0) {
        /* the site's other kinds are a feature ikshade lacks, not a broken file */
        iks_err_set(jl->e, IKS_E_UNSUPPORTED,
                    "%s: renderpass[%d] has type '%s', which ikshade does not run (image, buffer, cubemap, common, sound)",
                    jl->path, k, type);
        return -1;
    }
    const cJSON *outs = cJSON_GetObjectItemCaseSensitive(pass, "outputs");
    const cJSON *o0 = cJSON_IsArray(outs) ? cJSON_GetArrayItem(outs, 0) : NULL;
    if (slot < 4) { /* a buffer: which one, by its output's id or its name */
        slot = o0 ? buffer_from_ref(cJSON_GetObjectItemCaseSensitive(o0, "id"), NULL) : -1;
        if (slot < 0 && pname && !strncmp(pname, "Buffer ", 7) && pname[7] >= 'A' && pname[7] <= 'D' && !pname[8])
            slot = pname[7] - 'A';
        if (slot < 0)
            iks_err_set(jl->e, IKS_E_FORMAT, "%s: renderpass[%d] is a buffer whose output is none of Buffer A-D",
                        jl->path, k);
    } else if (slot == IKS_CUBE_PASS) {
        /* Cube A is the site's only cubemap pass: an output that names another is not one we know */
        const cJSON *oid = o0 ? cJSON_GetObjectItemCaseSensitive(o0, "id") : NULL;
        if (cJSON_IsString(oid) && !is_cube_a(oid, NULL)) {
            iks_err_set(jl->e, IKS_E_FORMAT, "%s: renderpass[%d] is a cubemap pass whose output '%s' is not Cube A (%s)",
                        jl->path, k, oid->valuestring, CUBE_ID);
            return -1;
        }
    }
    return slot;
}

/* First over renderpass[]: which slot each pass takes, its name and its code (in cJSON's tree) */
static bool json_passes(json_load *jl, const cJSON *passes)
{
    iks_toyfile *tf = jl->tf;
    const cJSON *pass;
    int k = -1;
    cJSON_ArrayForEach(pass, passes)
    {
        k++;
        if (!cJSON_IsObject(pass))
            return iks_err_set(jl->e, IKS_E_FORMAT, "%s: renderpass[%d] is not an object", jl->path, k);
        const char *type = str_field(pass, "type", NULL);
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(pass, "code");
        if (!type) return iks_err_set(jl->e, IKS_E_FORMAT, "%s: renderpass[%d] has no \"type\" string", jl->path, k);
        if (!cJSON_IsString(code))
            return iks_err_set(jl->e, IKS_E_FORMAT, "%s: renderpass[%d] (%s) has no \"code\" string", jl->path, k, type);
        int slot = json_slot(jl, pass, k, type);
        if (slot < 0) return false;
        char *nm = NULL;
        if (slot == IKS_COMMON_SLOT) {
            /* one Common text is prepended to every pass: a second would silently replace the first */
            if (tf->desc.common_path) return iks_err_set(jl->e, IKS_E_FORMAT, "%s: two passes of type \"common\"", jl->path);
            if (asprintf(&nm, "%s[Common]", jl->jbase) < 0 || !(tf->desc.common_path = keep(tf, nm))) return json_oom(jl);
            tf->desc.common_text = code->valuestring;
            continue;
        }
        if (jl->slot_of[slot])
            return iks_err_set(jl->e, IKS_E_FORMAT, "%s: two passes write %s", jl->path,
                               slot == IKS_IMAGE_PASS ? "the Image" : slot == IKS_CUBE_PASS ? "Cube A"
                               : slot == IKS_SOUND_SLOT ? "the sound" : "the same buffer");
        jl->slot_of[slot] = pass;
        if (slot < 4) tf->desc.buffer_order[tf->desc.nbuffer_order++] = slot; /* the site draws them so */
        if (asprintf(&nm, "%s[%s]", jl->jbase, iks_pass_kind_at(slot)->name) < 0 ||
            !(iks_spec_pass(&tf->desc, slot)->path = keep(tf, nm)))
            return json_oom(jl);
        iks_spec_pass(&tf->desc, slot)->text = code->valuestring;
    }
    if (!jl->slot_of[IKS_IMAGE_PASS]) return iks_err_set(jl->e, IKS_E_FORMAT, "%s: no pass of type \"image\"", jl->path);
    return true;
}

/* A media input's file (a texture, cubemap, volume, music or video), looked for beside the JSON: d->path,
 * or NULL (black, silence) where a missing one may be; false with the error */
static bool json_media_file(json_load *jl, const char *pp, int c, const char *type, const char *media, bool may_miss,
                            iks_input *d)
{
    bool lost = false;
    char *found = media ? find_media(jl->dir, media, &lost) : NULL;
    if (lost) return json_oom(jl);
    if (!found && !may_miss) {
        const char *what = d->kind == IKS_IN_CUBEMAP ? "its six faces" : "it";
        return iks_err_set(jl->e, IKS_E_IO, "%s: " IKS_U_CHANNEL_PREFIX "%d: %s '%s' is not on disk beside the JSON "
                           "(put %s there, or run with missing_media_black)", pp, c, type, media ? media : "(no path)", what);
    }
    d->path = NULL; /* black, or silence */
    if (found && !(d->path = keep(jl->tf, found))) return json_oom(jl);
    return media_allowed(jl->path, jl->dir, d, jl->flags, jl->e);
}

/* Input `in` (channel c) of the pass at slot s, into d by its kind (the channel kinds' table) */
static bool json_input(json_load *jl, int s, const char *pp, const cJSON *in, int c, iks_input *d)
{
    /* a render of the sound alone needs only the sound pass's media */
    bool black = jl->flags & IKS_TF_MISSING_BLACK;
    bool missing_black = black || ((jl->flags & IKS_TF_SOUND_ONLY) && s != IKS_SOUND_SLOT);
    const char *type = str_field(in, "type", "ctype");
    const char *media = str_field(in, "filepath", "src");
    const cJSON *smp = cJSON_GetObjectItemCaseSensitive(in, "sampler");
    d->vflip = smp ? bool_field(smp, "vflip", true) : true;
    d->srgb = smp ? bool_field(smp, "srgb", false) : false;
    const char *f = smp ? str_field(smp, "filter", NULL) : NULL;
    const char *w = smp ? str_field(smp, "wrap", NULL) : NULL;
    d->filter = IKS_FILTER_LINEAR;
    if (f && !iks_filter_parse(f, &d->filter))
        return iks_err_set(jl->e, IKS_E_FORMAT, "%s: " IKS_U_CHANNEL_PREFIX "%d: unknown filter '%s'", pp, c, f);
    d->repeat = w && !strcmp(w, "repeat");
    if (!type) return iks_err_set(jl->e, IKS_E_FORMAT, "%s: " IKS_U_CHANNEL_PREFIX "%d has no \"type\"", pp, c);
    const iks_channel_kind *k = iks_channel_kind_of_ctype(type);
    /* the site's "cubemap" is Cube A's faces when its id (or path) says so */
    if (k && k->kind == IKS_IN_CUBEMAP && is_cube_a(cJSON_GetObjectItemCaseSensitive(in, "id"), media))
        k = iks_channel_kind_of(IKS_IN_CUBE_BUFFER);
    if (!k) {
        if (!missing_black)
            return iks_err_set(jl->e, IKS_E_UNSUPPORTED, "%s: " IKS_U_CHANNEL_PREFIX "%d: input type '%s' is not supported "
                               "(run with missing_media_black to run without it)", pp, c, type);
        d->kind = IKS_IN_IMAGE;
        d->path = NULL;
        iks_warnf(jl->log, "%s: " IKS_U_CHANNEL_PREFIX "%d: input type '%s' is not supported; black instead", pp, c, type);
        return true;
    }
    d->kind = k->kind;
    if (k->kind == IKS_IN_BUFFER) {
        int b = buffer_from_ref(cJSON_GetObjectItemCaseSensitive(in, "id"), media);
        if (b < 0 || !jl->slot_of[b])
            return iks_err_set(jl->e, IKS_E_FORMAT, "%s: " IKS_U_CHANNEL_PREFIX "%d reads a buffer the JSON does not define",
                               pp, c);
        d->buffer = b;
        return true;
    }
    if (k->kind == IKS_IN_CUBE_BUFFER) {
        if (!jl->slot_of[IKS_CUBE_PASS])
            return iks_err_set(jl->e, IKS_E_FORMAT, "%s: " IKS_U_CHANNEL_PREFIX "%d reads Cube A, which the JSON does not "
                               "define", pp, c);
        d->vflip = false;
        return true;
    }
    if (!k->file) return true; /* the keyboard */
    /* the kind's own default where the site has one (a cubemap's is false; volumes are never flipped) */
    if (k->kind == IKS_IN_VOLUME) d->vflip = false;
    if (k->kind == IKS_IN_CUBEMAP) d->vflip = smp ? bool_field(smp, "vflip", false) : false;
    /* music is heard in a sound-only render: missing, it is still an error */
    bool may_miss = k->kind == IKS_IN_MUSIC ? black : missing_black;
    return json_media_file(jl, pp, c, type, media, may_miss, d);
}

/* Second: each pass's inputs */
static bool json_inputs(json_load *jl)
{
    for (int s = 0; s <= IKS_SOUND_SLOT; s++) {
        if (!jl->slot_of[s]) continue;
        /* messages name the pass as the user's path to the JSON and the pass: dir/toy.json[Image] */
        const char *bracket = strchr(iks_spec_pass(&jl->tf->desc, s)->path, '[');
        char pp[PATH_MAX + 32];
        snprintf(pp, sizeof pp, "%s%s", jl->path, bracket ? bracket : "");
        const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(jl->slot_of[s], "inputs");
        if (inputs && !cJSON_IsArray(inputs)) return iks_err_set(jl->e, IKS_E_FORMAT, "%s: \"inputs\" is not an array", pp);
        const cJSON *in;
        bool taken[4] = { false };
        cJSON_ArrayForEach(in, inputs)
        {
            const cJSON *chv = cJSON_GetObjectItemCaseSensitive(in, "channel");
            if (!cJSON_IsNumber(chv) || chv->valuedouble < 0 || chv->valuedouble > 3)
                return iks_err_set(jl->e, IKS_E_FORMAT, "%s: an input without a \"channel\" number 0-3", pp);
            int c = (int)chv->valuedouble;
            /* the site gives a channel one input: of two, one would be dropped without a word */
            if (taken[c]) return iks_err_set(jl->e, IKS_E_FORMAT, "%s: two inputs on " IKS_U_CHANNEL_PREFIX "%d", pp, c);
            taken[c] = true;
            if (!json_input(jl, s, pp, in, c, &iks_spec_pass(&jl->tf->desc, s)->in[c])) return false;
        }
    }
    return true;
}

/* The toy's name, its directory (media and #includes are found there, and stay inside it) */
static bool json_names(json_load *jl, const cJSON *shader)
{
    iks_toyfile *tf = jl->tf;
    const cJSON *info = cJSON_GetObjectItemCaseSensitive(shader, "info");
    const char *name = info ? str_field(info, "name", NULL) : NULL;
    if (!(tf->name = keep_copy(tf, name ? name : jl->path))) return json_oom(jl);
    char *dir = keep_copy(tf, jl->path);
    if (!dir) return json_oom(jl);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    else strcpy(dir, ".");
    jl->dir = tf->desc.text_dir = dir;
    if (!(jl->flags & IKS_TF_MEDIA_OUTSIDE)) tf->desc.confine_dir = dir;
    jl->jbase = strrchr(jl->path, '/') ? strrchr(jl->path, '/') + 1 : jl->path;
    return true;
}

static bool load_json(iks_toyfile *tf, const char *path, const char *text, unsigned flags, iks_err *e,
                      const iks_logger *log)
{
    if (!json_nul_check(path, text, e)) return false;
    const char *eptr = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &eptr, true);
    if (!root) {
        int line = 1;
        for (const char *p = text; eptr && p < eptr; p++) line += *p == '\n';
        return iks_err_set(e, IKS_E_FORMAT, "%s:%d: not valid JSON%s", path, line,
                           eptr && !*eptr ? " (it ends too soon)" : "");
    }
    json_load jl = { .tf = tf, .path = path, .flags = flags, .e = e, .log = log };
    const cJSON *shader = cJSON_GetObjectItemCaseSensitive(root, "Shader");
    if (!shader) shader = root;
    const cJSON *passes = cJSON_GetObjectItemCaseSensitive(shader, "renderpass");
    bool ok = cJSON_IsArray(passes);
    if (!ok) iks_err_set(e, IKS_E_FORMAT, "%s: no \"renderpass\" array: not a shadertoy.com export", path);
    ok = ok && json_names(&jl, shader) && json_passes(&jl, passes) && json_inputs(&jl);
    /* the code strings live in the cJSON tree: copy them out before it goes */
    for (int s = 0; ok && s <= IKS_SOUND_SLOT; s++) {
        iks_pass *ps = iks_spec_pass(&tf->desc, s);
        if (ps->text && !(ps->text = keep_copy(tf, ps->text))) ok = iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", path);
    }
    if (ok && tf->desc.common_text && !(tf->desc.common_text = keep_copy(tf, tf->desc.common_text)))
        ok = iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", path);
    tf->desc.es = true; /* the site's code is WebGL2's GLSL ES 3.00 */
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

/* A toy from elsewhere does not choose the user's capture devices: its live inputs take the one the
 * user picks (the viewer's options, or the default device) */
static bool device_refused(const iks_input *in, const char *where, iks_err *e)
{
    const iks_channel_kind *k = iks_channel_kind_of(in->kind);
    if (!k || !k->live || !in->path) return false;
    iks_err_set(e, IKS_E_FORMAT, "%s: a toy may not name a capture device ('%s'): write %s alone, and pick the "
                "device when running it", where, in->path, k->word);
    return true;
}

/* a directory toy's file for the pass at slot s: its manifest word and .glsl (the pass kinds' table) */
static const char *dir_file(int s, char buf[32])
{
    snprintf(buf, 32, "%s.glsl", iks_pass_kind_at(s)->word);
    return buf;
}

bool iks_toyfile_parse_manifest(iks_toyfile *tf, const char *dir, const char *man, char *text, unsigned flags,
                                iks_err *e, const iks_logger *log)
{
    (void)log; /* nothing a manifest names is only warned about */
    char fb[32];
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
        int p = dot ? iks_pass_slot_of_word(lhs, (size_t)(dot - lhs)) : -1;
        const size_t k = sizeof IKS_U_CHANNEL_PREFIX - 1;
        int c = dot && !strncmp(dot + 1, IKS_U_CHANNEL_PREFIX, k) && dot[k + 1] >= '0' && dot[k + 1] <= '3' && !dot[k + 2]
                    ? dot[k + 1] - '0' : -1;
        if (p < 0 || c < 0) {
            ok = iks_err_set(e, IKS_E_FORMAT, "%s:%d: '%s': expected PASS." IKS_U_CHANNEL_PREFIX "N with PASS one of a b c d image cube_a sound and N 0-3",
                             man, lineno, lhs);
            break;
        }
        if (!pass_at(tf, p)->path) {
            ok = iks_err_set(e, IKS_E_FORMAT, "%s:%d: '%s': the directory has no %s", man, lineno, lhs, dir_file(p, fb));
            break;
        }
        iks_input *in = &pass_at(tf, p)->in[c];
        if (!iks_channel_parse(rhs, in, e)) {
            /* a bad SPEC here is a malformed file, not a bad command line */
            if (e && e->code == IKS_E_USAGE) e->code = IKS_E_FORMAT;
            ok = iks_err_prefix(e, "%s:%d: ", man, lineno);
            break;
        }
        char here[PATH_MAX + 16];
        snprintf(here, sizeof here, "%s:%d", man, lineno);
        if (device_refused(in, here, e)) {
            free((char *)in->path); /* the parser's copy, not yet the toy's */
            in->path = NULL;
            ok = false;
            break;
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
                             'a' + in->buffer, dir_file(in->buffer, fb));
        }
    }
    return ok;
}

static bool load_dir(iks_toyfile *tf, const char *dir, unsigned flags, iks_err *e, const iks_logger *log)
{
    char fb[32];
    const char *base = strrchr(dir, '/');
    if (!(tf->name = keep_copy(tf, base && base[1] ? base + 1 : dir))) return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", dir);
    /* its #includes stay inside its directory, as its media do */
    if (!(flags & IKS_TF_MEDIA_OUTSIDE) && !(tf->desc.confine_dir = keep_copy(tf, dir)))
        return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", dir);
    for (int p = 0; p < IKS_PASSES; p++) {
        char *f = keep(tf, join2(dir, dir_file(p, fb)));
        if (!f) return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", dir);
        if (is_reg(f)) tf->desc.pass[p].path = f;
    }
    if (!tf->desc.pass[IKS_IMAGE_PASS].path)
        return iks_err_set(e, IKS_E_FORMAT, "%s: a directory toy needs image.glsl (and may have common.glsl, a.glsl .. "
                           "d.glsl, cube_a.glsl, sound.glsl, manifest.txt)", dir);
    char *snd = keep(tf, join2(dir, dir_file(IKS_SOUND_SLOT, fb)));
    if (!snd) return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", dir);
    if (is_reg(snd)) tf->desc.sound.path = snd;
    char *common = keep(tf, join2(dir, dir_file(IKS_COMMON_SLOT, fb)));
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
                        iks_err *e)
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
    (void)flags, (void)log; /* the loaders' one shape: a caller's own channels are never missing media */
    memset(tf, 0, sizeof *tf);
    if (!text) return iks_err_set(e, IKS_E_USAGE, "%s: no source text", name ? name : "<memory>");
    bool ok = load_single(tf, name ? name : "<memory>", text, channel, e);
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
    bool ok = load_single(tf, path, NULL, channel, e);
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
            const iks_channel_kind *kind = iks_channel_kind_of_ctype(type);
            bool file = kind && kind->file &&
                        !(kind->kind == IKS_IN_CUBEMAP && is_cube_a(cJSON_GetObjectItemCaseSensitive(in, "id"), media));
            if (!file) {
                if (!kind || kind->live) out->skipped += type != NULL; /* a webcam, a microphone, a stream */
                continue;
            }
            if (!media || !site_media_path(media)) {
                iks_err_set(e, IKS_E_FORMAT, "%s: %s path '%s' is not one of the site's /media/ paths", name, type,
                            media ? media : "(none)");
                goto out;
            }
            bool cube = kind->kind == IKS_IN_CUBEMAP;
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
