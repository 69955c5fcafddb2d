/* import.c: iks_import, a shader and its media from shadertoy.com's API into a directory (ikshade.h).
 * The answer is judged by the toy loader's own rules (toyfile.c) before anything reaches out_dir, and
 * everything is gathered in a temporary directory beside or inside out_dir first. */
#include "engine/engine.h"
#include "io/fetch.h"
#include "io/outfile.h"
#include "media/image.h"
#include "media/volume.h"
#include "base/strutil.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define JSON_MAX ((size_t)16 << 20)
#define MEDIA_MAX ((size_t)64 << 20)

/* The ID in "XsXXDn", ".../view/XsXXDn", ".../embed/XsXXDn?gui=true" or ".../api/v1/shaders/XsXXDn?key=" */
static bool parse_id(const char *s, char *id, size_t cap)
{
    const char *p = s;
    if (strchr(s, '/')) {
        static const char *const MARKS[] = { "/view/", "/embed/", "/shaders/" };
        p = NULL;
        for (int i = 0; i < 3; i++)
            for (const char *q = strstr(s, MARKS[i]); q; q = strstr(q + 1, MARKS[i])) p = q + strlen(MARKS[i]);
        if (!p) return false;
    }
    size_t n = 0;
    while (isalnum((unsigned char)p[n])) n++;
    /* in a URL the ID ends at a '/', '?' or '#'; given alone, it is the whole argument */
    if (n == 0 || n >= cap || (p == s ? p[n] != '\0' : (p[n] && !strchr("/?#", p[n])))) return false;
    memcpy(id, p, n);
    id[n] = '\0';
    return true;
}

/* RFC 3986 percent-encoding of a query value */
static char *escape(const char *s)
{
    char *o = malloc(3 * strlen(s) + 1), *w = o;
    if (!o) return NULL;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c) || strchr("-._~", c)) *w++ = (char)c;
        else w += sprintf(w, "%%%02X", c);
    }
    *w = '\0';
    return o;
}

static char *join(const char *a, const char *b)
{
    char *p;
    return asprintf(&p, "%s/%s", a, b) < 0 ? NULL : p;
}

/* ---- secrets --------------------------------------------------------------------------------- */

/* The secrets no message may show: the key as given and as sent (percent-encoded), and the password of
 * the base URL's user:password@ as given and decoded (what a server may echo). iks_redact covers any
 * other URL's password and key= besides. */
typedef struct {
    char *s[4];
} secrets;

static char *percent_decode(const char *s, size_t n)
{
    char *o = malloc(n + 1), *w = o;
    if (!o) return NULL;
    for (size_t i = 0; i < n; i++) {
        char hex[3] = { 0 };
        if (s[i] == '%' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) && isxdigit((unsigned char)s[i + 2])) {
            memcpy(hex, s + i + 1, 2);
            *w++ = (char)strtol(hex, NULL, 16);
            i += 2;
        } else {
            *w++ = s[i];
        }
    }
    *w = '\0';
    return o;
}

static bool secrets_make(secrets *z, const char *key, const char *base)
{
    memset(z, 0, sizeof *z);
    if (key && *key && (!(z->s[0] = strdup(key)) || !(z->s[1] = escape(key)))) return false;
    const char *a = base ? strstr(base, "://") : NULL;
    if (!a) return true;
    a += 3;
    size_t n = strcspn(a, "/?#"), at = n;
    while (at > 0 && a[at - 1] != '@') at--;
    const char *colon = at ? memchr(a, ':', at - 1) : NULL;
    if (!colon || (size_t)(colon + 1 - a) >= at - 1) return true; /* no password */
    size_t pn = at - 1 - (size_t)(colon + 1 - a);
    return (z->s[2] = strndup(colon + 1, pn)) && (z->s[3] = percent_decode(colon + 1, pn));
}

static void secrets_free(secrets *z)
{
    for (size_t i = 0; i < sizeof z->s / sizeof z->s[0]; i++) free(z->s[i]);
}

static char *redact(const secrets *z, const char *text)
{
    return iks_redact(text, (const char *const *)z->s, sizeof z->s / sizeof z->s[0]);
}

/* the caller's logger, every message redacted on its way */
typedef struct {
    iks_logger to;
    const secrets *z;
} redacting_log;

static void log_redacted(void *user, iks_log_level level, const char *message)
{
    const redacting_log *r = user;
    char *m = redact(r->z, message);
    if (m) r->to.fn(r->to.user, level, m); /* out of memory: dropped, rather than shown with its secret */
    free(m);
}

/* What an answer that is not a shader says, in one line: the API's "Error", or the status and a hint */
static bool answer_error(const char *shown, const char *id, const iks_http_body *b, const cJSON *root,
                         const secrets *z, iks_err *e)
{
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(root, "Error");
    if (cJSON_IsString(err)) {
        if (!strcmp(err->valuestring, "Shader not found"))
            return iks_err_set(e, IKS_E_IO, "shader '%s': not found by the API: no shader has this ID, or it is not "
                               "published as \"public+api\" (private and unlisted shaders never are; save its JSON "
                               "from the site's page instead)", id);
        /* redacted before it is cut: the server may echo the key it got, and half a key is a secret still */
        char *whole = redact(z, err->valuestring), said[161];
        if (!whole) return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", shown);
        size_t i = 0;
        for (const char *c = whole; *c && i + 1 < sizeof said; c++) said[i++] = isprint((unsigned char)*c) ? *c : '?';
        said[i] = '\0';
        free(whole);
        return iks_err_set(e, IKS_E_IO, "%s: the API says: %s%s", shown, said,
                           strstr(said, "key") || strstr(said, "Key") ? " (check the API key)" : "");
    }
    if (b->status != 200) {
        const char *hint = b->status == 403 ? " (the site refuses this client: it may be asking for a browser; save "
                                              "the JSON from the site's page instead)"
                           : b->status == 404 ? " (not the shadertoy.com API here? check the base URL)"
                           : b->status == 429 ? " (too many requests: wait a little)"
                           : b->status >= 500 ? " (the server failed: try again later)"
                                              : "";
        return iks_err_set(e, IKS_E_IO, "%s: HTTP %ld%s", shown, b->status, hint);
    }
    return iks_err_set(e, IKS_E_FORMAT, "%s: the answer is %s", shown,
                       root ? "JSON without a \"Shader\": not a shader" :
                       b->len && b->data[strspn(b->data, " \t\r\n")] == '<' ? "an HTML page, not the API's JSON" :
                       "not JSON");
}

/* ---- what a media file's bytes must be --------------------------------------------------------- */

/* what the JSON's inputs read a file as */
enum { READ_IMAGE = 1, READ_VOLUME = 2, READ_MUSIC = 4, READ_VIDEO = 8 };

static const char *str_of(const cJSON *o, const char *a, const char *b)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, a);
    if (!cJSON_IsString(v)) v = cJSON_GetObjectItemCaseSensitive(o, b);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* How the inputs of shader that name path (a cubemap by any of its six faces) read it */
static unsigned read_as(const cJSON *shader, const char *path)
{
    unsigned as = 0;
    const cJSON *pass, *in;
    cJSON_ArrayForEach(pass, cJSON_GetObjectItemCaseSensitive(shader, "renderpass"))
    {
        cJSON_ArrayForEach(in, cJSON_GetObjectItemCaseSensitive(pass, "inputs"))
        {
            const char *type = str_of(in, "type", "ctype"), *media = str_of(in, "filepath", "src");
            if (!type || !media) continue;
            if (!strcmp(type, "cubemap")) {
                for (int face = 0; face < 6; face++) {
                    char *p = iks_cube_face_path(media, face);
                    if (p && !strcmp(p, path)) as |= READ_IMAGE;
                    free(p);
                }
            } else if (!strcmp(media, path)) {
                as |= !strcmp(type, "texture") ? READ_IMAGE : !strcmp(type, "volume") ? READ_VOLUME
                      : !strcmp(type, "music") ? READ_MUSIC : !strcmp(type, "video") ? READ_VIDEO : 0;
            }
        }
    }
    return as;
}

/* what a message calls a file read as as (the first of them, when more) */
static const char *media_noun(unsigned as)
{
    return as & READ_IMAGE ? "texture" : as & READ_VOLUME ? "volume" : as & READ_MUSIC ? "music file"
           : as & READ_VIDEO ? "video" : "media file";
}

/* Whether p is an image the texture loader takes: decoded by the same code (src/media), without a
 * GL's limit (a generous side, the default pixel budget). false with why ("" when it is no PNG or JPEG
 * at all). */
static bool is_image(const unsigned char *p, size_t n, char *why, size_t cap)
{
    if (iks_image_sniff(p, n) == IKS_IMAGE_NONE) return false;
    iks_image img;
    iks_err e = IKS_ERR_INIT;
    bool ok = iks_image_decode(&img, p, n, NULL, &(iks_image_opts){ .max_side = IKS_IMAGE_SIDE_MAX }, &e);
    if (!ok) snprintf(why, cap, "%s", iks_err_msg(&e));
    iks_image_free(&img);
    iks_err_clear(&e);
    return ok;
}

/* what ffmpeg is given for music and video: the containers the site serves (MP3, Ogg, WebM, MP4) and
 * the usual others, by their first bytes */
static bool is_audio_video(const unsigned char *p, size_t n)
{
    if (n < 12) return false;
    return !memcmp(p, "ID3", 3) || (p[0] == 0xff && (p[1] & 0xe0) == 0xe0) /* an MPEG audio frame */ ||
           !memcmp(p, "OggS", 4) || !memcmp(p, "\x1a\x45\xdf\xa3", 4) /* Matroska, WebM */ ||
           !memcmp(p + 4, "ftyp", 4) /* MP4, QuickTime */ || !memcmp(p, "RIFF", 4) || !memcmp(p, "fLaC", 4);
}

/* The volume loader's own parser (src/media/volume.c) with no GL's size limit: false with what is
 * wrong, worded as import words it */
static bool is_volume(const unsigned char *p, size_t n, char *why, size_t cap)
{
    iks_volume v;
    if (iks_volume_parse(&v, p, n, 0, NULL, NULL)) return true;
    switch (v.fault) {
    case IKS_VOLUME_SHORT: snprintf(why, cap, "%zu bytes, shorter than a volume's 20-byte header", n); break;
    case IKS_VOLUME_LAYOUT:
        snprintf(why, cap, "its header gives %u channels in format %u, not 1-4 in format 0 or 10", v.channels, v.format);
        break;
    default:
        snprintf(why, cap, "its header gives %ux%ux%u texels of %u channel%s, and %zu bytes follow it that are not those",
                 v.x, v.y, v.z, v.channels, v.channels > 1 ? "s" : "", v.texel_bytes);
    }
    return false;
}

/* Whether a fetched file m is what the inputs read it as: an empty answer never is, nor an error page
 * served as if it were the file (with status 200), which the loader would fail on at the first render
 * and not name the site in its message */
static bool media_fits(unsigned as, const char *murl, const char *jname, const iks_http_body *m, iks_err *e)
{
    const unsigned char *p = (const unsigned char *)m->data;
    size_t n = m->len;
    char why[200] = "";
    const char *want = NULL;
    if ((as & READ_IMAGE) && !is_image(p, n, why, sizeof why)) want = "a PNG or JPEG image", as = READ_IMAGE;
    else if ((as & READ_VOLUME) && !is_volume(p, n, why, sizeof why)) want = "a volume", as = READ_VOLUME;
    else if ((as & READ_MUSIC) && !is_audio_video(p, n))
        want = "audio in MP3, Ogg, WebM, MP4, WAV or FLAC", as = READ_MUSIC;
    else if ((as & READ_VIDEO) && !is_audio_video(p, n)) want = "a video in WebM, MP4 or Ogg", as = READ_VIDEO;
    else if (n == 0) want = "a file";
    if (!want) return true;
    const char *noun = media_noun(as);
    bool html = !strcmp(m->type, "text/html") || (n && m->data[strspn(m->data, " \t\r\n")] == '<');
    if (n == 0)
        return iks_err_set(e, IKS_E_FORMAT, "%s: empty (0 bytes), not %s (a %s %s names)", murl, want, noun, jname);
    if (html) return iks_err_set(e, IKS_E_FORMAT, "%s: an HTML page, not %s (a %s %s names)", murl, want, noun, jname);
    if (why[0]) return iks_err_set(e, IKS_E_FORMAT, "%s: not %s: %s (a %s %s names)", murl, want, why, noun, jname);
    return iks_err_set(e, IKS_E_FORMAT, "%s: not %s (a %s %s names)", murl, want, noun, jname);
}

/* Whether a file is at path already: in the gathered directory, one more name there that the file
 * system takes for it */
static bool taken(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* ---- into out_dir, never over a file of the user's ------------------------------------------------ */

/* Whether the regular file at path holds exactly what the file at ours holds, or (ours NULL) the n
 * bytes at mem. Anything else there (a directory, a link, a FIFO) is not read, and is not the same. */
static bool same_bytes(const char *path, const char *ours, const char *mem, size_t n)
{
    enum { CHUNK = 1 << 16 };
    int a = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), b = ours ? open(ours, O_RDONLY | O_CLOEXEC) : -1;
    struct stat sa, sb;
    char *buf = malloc(2 * CHUNK);
    bool same = a >= 0 && (!ours || b >= 0) && buf && fstat(a, &sa) == 0 && S_ISREG(sa.st_mode) &&
                (!ours || (fstat(b, &sb) == 0 && (n = (size_t)sb.st_size, true))) && (size_t)sa.st_size == n;
    for (size_t at = 0; same && at < n;) {
        size_t want = n - at < CHUNK ? n - at : CHUNK;
        ssize_t got = read(a, buf, want);
        if (got <= 0) {
            same = false;
            break;
        }
        const char *other = mem ? mem + at : buf + CHUNK;
        for (size_t k = 0; !mem && k < (size_t)got;) {
            ssize_t r = read(b, buf + CHUNK + k, (size_t)got - k);
            if (r <= 0) {
                same = false;
                break;
            }
            k += (size_t)r;
        }
        same = same && !memcmp(buf, other, (size_t)got);
        at += (size_t)got;
    }
    /* a file that grew since fstat is not what was compared */
    char more;
    same = same && read(a, &more, 1) == 0;
    free(buf);
    if (a >= 0) close(a);
    if (b >= 0) close(b);
    return same;
}

static bool already_there(iks_err *e, const char *path, int others)
{
    if (others)
        return iks_err_set(e, IKS_E_IO, "%s: already there, and %d other of the toy's files: not replaced (import "
                           "into a new directory, or remove them)", path, others);
    return iks_err_set(e, IKS_E_IO, "%s: already there: not replaced (import into a new directory, or remove it)",
                       path);
}

/* Moves from to to unless a file is at to, deciding both at once: 0, or -1 with errno (EEXIST: one
 * is there), so that a file that appears after the checks is not replaced either */
static int claim(const char *from, const char *to) { return iks_rename_new(from, to) ? 0 : -1; }

/* Before anything is fetched: what in out_dir the toy's names are already is refused now when it can
 * be, the JSON differing from its answer, or a name that is no regular file (a media file's bytes are
 * judged once fetched). files: n names, the JSON's last. */
static bool check_early(const char *out_dir, const char *const *files, int n, const iks_http_body *json, iks_err *e)
{
    char *first = NULL;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        char *to = join(out_dir, files[i]);
        if (!to) {
            free(first);
            return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", out_dir);
        }
        struct stat st;
        bool there = lstat(to, &st) == 0;
        if (!there && errno != ENOENT) {
            iks_err_errno(e, IKS_E_IO, errno, to);
            free(to), free(first);
            return false;
        }
        if (there && (!S_ISREG(st.st_mode) || (i == n - 1 && !same_bytes(to, NULL, json->data, json->len)))) {
            bad++;
            if (!first) first = to, to = NULL;
        }
        free(to);
    }
    if (bad) already_there(e, first, bad - 1);
    free(first);
    return !bad;
}

/* Moves the gathered files into out_dir. out_dir new: the gathered directory becomes it. Else each
 * name is checked first, and one already there with other bytes (or not a regular file) is an error
 * that leaves out_dir as it was; one with the same bytes is left as it is, the user's edits are never
 * replaced. Then each is claimed (media first, the JSON last, so that no ID.json is there unless its
 * media are), and a failure takes back those already moved. */
static bool publish(const char *tmp, const char *out_dir, bool exists, char **names, int n, const iks_logger *log,
                    iks_err *e)
{
    if (!exists) {
        if (renameat2(AT_FDCWD, tmp, AT_FDCWD, out_dir, RENAME_NOREPLACE) == 0) return true;
        /* without RENAME_NOREPLACE, rename replaces no directory but an empty one, which holds nothing */
        if ((errno == EINVAL || errno == ENOSYS || errno == ENOTSUP) && rename(tmp, out_dir) == 0) return true;
        struct stat st;
        /* made meanwhile (another import): published into as an existing one */
        if ((errno != EEXIST && errno != ENOTEMPTY) || stat(out_dir, &st) != 0 || !S_ISDIR(st.st_mode))
            return iks_err_errno(e, IKS_E_IO, errno == ENOTEMPTY ? EEXIST : errno, out_dir);
    }
    char **from = calloc((size_t)n, sizeof *from), **to = calloc((size_t)n, sizeof *to);
    unsigned char *state = calloc((size_t)n, 1); /* 0: to move, 1: the same bytes there, 2: moved */
    bool ok = from && to && state;
    if (!ok) iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", out_dir);
    char *first = NULL;
    int bad = 0;
    for (int i = 0; ok && i < n; i++) {
        if (!(from[i] = join(tmp, names[i])) || !(to[i] = join(out_dir, names[i]))) {
            ok = iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", out_dir);
            break;
        }
        struct stat st;
        if (lstat(to[i], &st) != 0) {
            if (errno != ENOENT) ok = iks_err_errno(e, IKS_E_IO, errno, to[i]);
        } else if (same_bytes(to[i], from[i], NULL, 0)) {
            state[i] = 1;
        } else if (!bad++) {
            first = to[i];
        }
    }
    if (ok && bad) ok = already_there(e, first, bad - 1);
    for (int i = 0; ok && i < n; i++) {
        if (state[i] == 1) {
            iks_logf(log, IKS_LOG_INFO, "%s: already there with the same bytes: left as it is", to[i]);
            continue;
        }
        if (claim(from[i], to[i]) == 0) {
            state[i] = 2;
        } else if (errno != EEXIST) {
            ok = iks_err_errno(e, IKS_E_IO, errno, to[i]);
        } else if (same_bytes(to[i], from[i], NULL, 0)) {
            state[i] = 1; /* another import of the same toy put it there meanwhile */
        } else {
            ok = already_there(e, to[i], 0);
        }
    }
    for (int i = n - 1; !ok && state && i >= 0; i--) {
        if (state[i] != 2 || claim(to[i], from[i]) == 0) continue;
        /* a file of ours that cannot be taken back is said, not hidden */
        iks_err_prefix(e, "%s could not be taken back (%s); ", to[i], strerror(errno));
    }
    if (ok) iks_outfile_remove_dir(tmp); /* what it still holds are the files left as they were */
    for (int i = 0; from && to && i < n; i++) free(from[i]), free(to[i]);
    free(from), free(to), free(state);
    return ok;
}

/* Every message of an import leaves through here or the redacting logger: none shows a secret */
static iks_code fail(iks_err *e, const secrets *z)
{
    iks_err_redact(e, (const char *const *)z->s, sizeof z->s / sizeof z->s[0]);
    return iks_publish(e);
}

/* ---- the import's steps ------------------------------------------------------------------------ */

/* The description's fields, each refused in the caller's words before anything is fetched; the shader's
 * ID into st->id. IKS_OK, or the error already published (redacted) */
static iks_code check_desc(const iks_import_desc *d, iks_import_stats *st, const secrets *z, iks_err *err)
{
    char q[300];
    /* redacted before it is cut to fit: a password cut in two would not be recognised */
    char *given = redact(z, d->shader);
    if (!given) return iks_err_set(err, IKS_E_NOMEM, "import: out of memory"), fail(err, z);
    snprintf(q, sizeof q, "'%.280s'", given);
    free(given);
    if (!parse_id(d->shader, st->id, sizeof st->id))
        return iks_err_field(err, IKS_E_USAGE, "shader", q, "no shader ID in it (an ID is letters and digits, as "
                             "XsXXDn in https://www.shadertoy.com/view/XsXXDn)"), fail(err, z);
    if (!d->key || !*d->key)
        return iks_err_field(err, IKS_E_USAGE, "key", NULL, "none given: the API serves shaders only with one (make "
                             "one at https://www.shadertoy.com/myapps)"), fail(err, z);
    if (!d->out_dir || !*d->out_dir) return iks_err_field(err, IKS_E_USAGE, "out_dir", NULL, "none given"), fail(err, z);
    /* not quoted: a URL may hold a password */
    if (d->base_url && *d->base_url && strncmp(d->base_url, "http://", 7) && strncmp(d->base_url, "https://", 8))
        return iks_err_field(err, IKS_E_USAGE, "base_url", NULL, "expected an http:// or https:// URL"), fail(err, z);
    iks_snprintf_c(q, sizeof q, "%g", d->timeout);
    if (!(d->timeout >= 0 && d->timeout <= 86400))
        return iks_err_field(err, IKS_E_USAGE, "timeout", q, "expected seconds, more than 0 and at most 86400 (0: the "
                             "default)"), fail(err, z);
    return IKS_OK;
}

/* One import under way: what its steps share. Each allocation has one owner, this, and job_free frees
 * them all on every outcome. */
typedef struct {
    const iks_import_desc *d;
    iks_import_stats *st;
    const secrets *z;
    redacting_log rlog;
    iks_logger log;       /* the caller's, redacted (through rlog) */
    iks_http_body b;      /* the answer */
    iks_media_list media;
    iks_toyfile tf;
    cJSON *root;          /* the answer, parsed: what each medium is read as */
    const cJSON *shader;  /* its "Shader", inside root */
    char *base, *key, *url, *shown, *jname, *out, *tmp;
    char *shown_base;     /* base as messages show it */
    char **names;         /* the files gathered in tmp, the JSON last (names borrowed from media and jname) */
    int nnames;
    bool exists;          /* out_dir was there before */
    bool registered;      /* tmp is registered for removal on a signal */
} job;

static bool out_of_memory(iks_err *err)
{
    return iks_err_set(err, IKS_E_NOMEM, "import: out of memory");
}

/* the URLs and names the import uses: the API's base and out_dir without their trailing slashes, the
 * shader's URL with the key and as messages show it, and the JSON's file name */
static bool make_names(job *j, iks_err *err)
{
    const iks_import_desc *d = j->d;
    if (!(j->base = strdup(d->base_url && *d->base_url ? d->base_url : "https://www.shadertoy.com")) ||
        !(j->out = strdup(d->out_dir)) || !(j->key = escape(d->key)))
        return out_of_memory(err);
    char *base = j->base, *out = j->out;
    for (size_t n = strlen(base); n > 1 && base[n - 1] == '/';) base[--n] = '\0';
    for (size_t n = strlen(out); n > 1 && out[n - 1] == '/';) out[--n] = '\0';
    /* "new/." is new, as mkdir -p takes it: the gathered directory renamed onto "new/." was EBUSY, with
     * new/ made and left behind */
    for (size_t n = strlen(out); n >= 2 && out[n - 1] == '.' && out[n - 2] == '/';) {
        out[--n] = '\0';
        while (n > 1 && out[n - 1] == '/') out[--n] = '\0';
    }
    if (!(j->shown_base = redact(j->z, base))) return out_of_memory(err);
    const char *id = j->st->id;
    if (asprintf(&j->url, "%s/api/v1/shaders/%s?key=%s", base, id, j->key) < 0) j->url = NULL;
    if (asprintf(&j->shown, "%s/api/v1/shaders/%s", j->shown_base, id) < 0) j->shown = NULL;
    if (asprintf(&j->jname, "%s.json", id) < 0) j->jname = NULL;
    if (!j->url || !j->shown || !j->jname) return out_of_memory(err);
    return true;
}

/* out_dir: an existing directory, or created (its parents too) from the gathered one */
static bool check_out_dir(job *j, iks_err *err)
{
    const char *out = j->out;
    struct stat sb;
    j->exists = stat(out, &sb) == 0;
    if (j->exists && !S_ISDIR(sb.st_mode)) return iks_err_set(err, IKS_E_IO, "%s: not a directory", out);
    if (!j->exists && errno != ENOENT) return iks_err_errno(err, IKS_E_IO, errno, out);
    /* a ".." after a directory not there yet names nothing until that directory is made, and made as
     * a parent it would stay, outside DIR, after a failure and a success alike */
    for (const char *p = out; !j->exists && (p = strstr(p, "..")); p += 2) {
        if (p == out || p[-1] != '/' || (p[2] && p[2] != '/') || p - out == 1) continue;
        char *before = strndup(out, (size_t)(p - out - 1));
        if (!before) return out_of_memory(err);
        bool there = stat(before, &sb) == 0;
        if (!there)
            iks_err_set(err, IKS_E_IO, "%s: '%s' does not exist, so '..' after it names no directory", out, before);
        free(before);
        if (!there) return false;
    }
    return true;
}

/* The shader's JSON fetched and judged by the loader's rules, its name into st->name, and its media
 * listed */
static bool fetch_shader(job *j, iks_err *err)
{
    iks_logf(&j->log, IKS_LOG_INFO, "fetching %s", j->shown);
    if (!iks_http_get(j->url, j->shown, JSON_MAX, j->d->timeout, &j->b, err)) return false;
    j->st->bytes += (long long)j->b.len;
    j->root = cJSON_ParseWithOpts(j->b.data, NULL, true);
    j->shader = j->root ? cJSON_GetObjectItemCaseSensitive(j->root, "Shader") : NULL;
    if (j->b.status != 200 || !cJSON_IsObject(j->shader)) {
        answer_error(j->shown, j->st->id, &j->b, j->root, j->z, err);
        return false;
    }
    const cJSON *info = cJSON_GetObjectItemCaseSensitive(j->shader, "info");
    const cJSON *nm = info ? cJSON_GetObjectItemCaseSensitive(info, "name") : NULL;
    /* the name is the server's to choose, and is shown: a hostile one could echo the key in it */
    if (cJSON_IsString(nm)) {
        char *said = redact(j->z, nm->valuestring);
        if (!said) return out_of_memory(err);
        snprintf(j->st->name, sizeof j->st->name, "%s", said);
        free(said);
    }
    /* the loader's rules: a JSON it cannot read is not saved; one using what ikshade does not run yet
     * (a cubemap pass) is, with a warning */
    iks_err unsupported = IKS_ERR_INIT;
    if (!iks_toyfile_parse_json(&j->tf, j->jname, j->b.data, IKS_TF_MISSING_BLACK | IKS_TF_MEDIA_OUTSIDE, err, NULL)) {
        if (err->code != IKS_E_UNSUPPORTED) return false;
        iks_err_move(&unsupported, err);
    }
    iks_toyfile_free(&j->tf);
    /* a JSON the loader stopped reading at a pass it does not run is bounded by the media list's own
     * rules: refused there, it is not "saved anyway" */
    if (!iks_toyfile_json_media(j->jname, j->b.data, &j->media, err)) {
        iks_err_clear(&unsupported);
        return false;
    }
    if (unsupported.code != IKS_OK) iks_warnf(&j->log, "%s (saved anyway)", iks_err_msg(&unsupported));
    iks_err_clear(&unsupported);
    j->st->skipped = j->media.skipped;
    if (j->media.skipped)
        iks_warnf(&j->log, "%s: %d input%s (a webcam, microphone or music stream) not fetched: live inputs are no "
                  "files (missing_media_black runs the toy without them)", j->jname, j->media.skipped,
                  j->media.skipped == 1 ? "" : "s");
    return true;
}

/* The loader finds media beside the JSON by file name, so every name must be one file of its own:
 * a medium named as the JSON was overwritten by it, and two names one file system folds together
 * (letter case, on macOS's and Windows' disks, where an imported directory may be copied) are one
 * file. The site names its media by lowercase hashes: refusing loses no real shader, while
 * storing one under another name would need the JSON rewritten, and it is kept as the API sent it. */
static bool check_media_names(const job *j, iks_err *err)
{
    const iks_media_list *media = &j->media;
    const char *jname = j->jname;
    for (int i = 0; i < media->n; i++) {
        const char *file = strrchr(media->path[i], '/') + 1;
        if (file[0] == '.')
            return iks_err_set(err, IKS_E_FORMAT, "%s: media file %s has a hidden name: the site's media have none, "
                               "and the import's own temporaries are named so", jname, media->path[i]);
        if (!strcasecmp(file, jname))
            return iks_err_set(err, IKS_E_FORMAT, "%s: media file %s would have the JSON's own name%s: they cannot "
                               "both lie in %s", jname, media->path[i], strcmp(file, jname) ? " (letter case aside)" :
                               "", j->out);
        for (int k = 0; k < i; k++) {
            const char *other = strrchr(media->path[k], '/') + 1;
            if (strcasecmp(other, file)) continue;
            if (!strcmp(other, file))
                return iks_err_set(err, IKS_E_FORMAT, "%s: two media files named %s: they cannot both lie beside it",
                                   jname, file);
            return iks_err_set(err, IKS_E_FORMAT, "%s: two media files named %s and %s, one name where letter case "
                               "does not count: they cannot both lie beside it", jname, other, file);
        }
    }
    return true;
}

/* into an existing out_dir: the names checked against what is there before anything is fetched */
static bool check_existing(const job *j, iks_err *err)
{
    const iks_media_list *media = &j->media;
    const char **files = calloc((size_t)media->n + 1, sizeof *files);
    if (!files) return out_of_memory(err);
    for (int i = 0; i < media->n; i++) files[i] = strrchr(media->path[i], '/') + 1;
    files[media->n] = j->jname;
    bool clear = check_early(j->out, files, media->n + 1, &j->b, err);
    free(files);
    return clear;
}

/* the temporary directory everything is gathered in: inside out_dir when it exists, else beside it */
static bool make_tmp(job *j, iks_err *err)
{
    const char *out = j->out;
    if (j->exists) {
        if (asprintf(&j->tmp, "%s/.ikshade-import-XXXXXX", out) < 0) j->tmp = NULL;
    } else {
        const char *slash = strrchr(out, '/');
        if (asprintf(&j->tmp, "%.*s.%s.import-XXXXXX", slash ? (int)(slash - out + 1) : 0, out,
                     slash ? slash + 1 : out) < 0)
            j->tmp = NULL;
    }
    if (!j->tmp) return out_of_memory(err);
    if (!j->exists && !iks_make_parent_dirs(out)) return iks_err_errno(err, IKS_E_IO, errno, out);
    if (!mkdtemp(j->tmp)) {
        iks_err_errno(err, IKS_E_IO, errno, j->exists ? out : j->tmp);
        free(j->tmp);
        j->tmp = NULL;
        return false;
    }
    /* mkdtemp makes it 0700; renamed into place it is out_dir, made as mkdir would make it */
    mode_t mask = umask(0);
    umask(mask);
    chmod(j->tmp, 0777 & ~mask);
    if (iks_outfile_tmp_register_dir(j->tmp) != 0) {
        iks_outfile_remove_dir(j->tmp);
        return out_of_memory(err);
    }
    j->registered = true;
    if (!(j->names = calloc((size_t)j->media.n + 1, sizeof *j->names))) return out_of_memory(err);
    return true;
}

/* medium i fetched, judged as what the shader reads it as, and written into tmp */
static bool fetch_medium(job *j, int i, iks_err *err)
{
    const char *path = j->media.path[i], *file = strrchr(path, '/') + 1;
    char *murl = NULL, *mshown = NULL, *dest = NULL;
    if (asprintf(&murl, "%s%s", j->base, path) < 0) murl = NULL;
    if (asprintf(&mshown, "%s%s", j->shown_base, path) < 0) mshown = NULL;
    if (!murl || !mshown || !(dest = join(j->tmp, file))) {
        free(murl), free(mshown);
        return out_of_memory(err);
    }
    iks_http_body m = { 0 };
    /* the names differ as the file system here compares them too: nothing is replaced */
    bool got = !taken(dest) || iks_err_set(err, IKS_E_FORMAT, "%s: media file %s is one file with another here: "
                                              "they cannot both lie beside it", j->jname, path);
    got = got && iks_http_get(murl, mshown, MEDIA_MAX, j->d->timeout, &m, err);
    unsigned as = read_as(j->shader, path);
    if (got && m.status != 200)
        got = iks_err_set(err, IKS_E_IO, "%s: HTTP %ld (a %s %s names)", mshown, m.status, media_noun(as), j->jname);
    if (got) got = media_fits(as, mshown, j->jname, &m, err);
    if (got && !iks_write_atomic(dest, m.data, m.len)) got = iks_err_errno(err, IKS_E_IO, errno, dest);
    if (got) {
        j->st->bytes += (long long)m.len;
        j->st->media++;
        iks_logf(&j->log, IKS_LOG_INFO, "fetched %s (%zu bytes)", mshown, m.len);
    }
    iks_http_body_free(&m);
    free(murl), free(mshown);
    free(dest);
    if (got) j->names[j->nnames++] = (char *)file;
    return got;
}

/* the JSON into tmp, after its media, as the API sent it */
static bool write_json(job *j, iks_err *err)
{
    char *jdest = join(j->tmp, j->jname);
    if (!jdest) return out_of_memory(err);
    bool wrote = !taken(jdest) || iks_err_set(err, IKS_E_FORMAT, "%s: a media file is one file with the JSON here: "
                                                 "they cannot both lie in %s", j->jname, j->out);
    if (wrote && !(wrote = iks_write_atomic(jdest, j->b.data, j->b.len))) iks_err_errno(err, IKS_E_IO, errno, jdest);
    free(jdest);
    if (wrote) j->names[j->nnames++] = j->jname;
    return wrote;
}

/* the import's steps in order; false at the first that fails, with err set */
static bool import_steps(job *j, iks_err *err)
{
    if (!make_names(j, err) || !check_out_dir(j, err) || !fetch_shader(j, err) || !check_media_names(j, err))
        return false;
    if (j->exists && !check_existing(j, err)) return false;
    if (!make_tmp(j, err)) return false;
    for (int i = 0; i < j->media.n; i++)
        if (!fetch_medium(j, i, err)) return false;
    return write_json(j, err) && publish(j->tmp, j->out, j->exists, j->names, j->nnames, &j->log, err);
}

/* everything the job holds; the gathered directory too unless it was published */
static void job_free(job *j, bool ok)
{
    if (j->tmp && !ok) iks_outfile_remove_dir(j->tmp);
    if (j->registered) iks_outfile_tmp_done(j->tmp);
    iks_toyfile_free(&j->tf);
    iks_media_list_free(&j->media);
    cJSON_Delete(j->root);
    iks_http_body_free(&j->b);
    free(j->names);
    free(j->base), free(j->key), free(j->url), free(j->shown), free(j->shown_base), free(j->jname), free(j->out),
        free(j->tmp);
}

iks_code iks_import(const iks_import_desc *d, iks_import_stats *stats)
{
    iks_import_stats local;
    iks_import_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    iks_err err = IKS_ERR_INIT;
    iks_import_desc dc;
    if (!IKS_TAKE(iks_import_desc, d, &dc, IKS_FIRST_IMPORT_DESC, &err)) return iks_publish(&err);
    if (d) d = &dc;
    if (!d || !d->shader || !*d->shader) return iks_fail_usage("no shader ID or URL given");
    secrets z;
    if (!secrets_make(&z, d->key, d->base_url)) {
        secrets_free(&z);
        return iks_err_set(&err, IKS_E_NOMEM, "import: out of memory"), iks_publish(&err);
    }
    iks_code rc = check_desc(d, st, &z, &err);
    if (rc != IKS_OK) {
        secrets_free(&z);
        return rc;
    }
    job j = { .d = d, .st = st, .z = &z, .rlog = { { d->log, d->log_user }, &z } };
    j.log = (iks_logger){ d->log ? log_redacted : NULL, &j.rlog };
    bool ok = import_steps(&j, &err);
    job_free(&j, ok);
    rc = ok ? IKS_OK : fail(&err, &z);
    secrets_free(&z);
    return rc;
}
