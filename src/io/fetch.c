/* fetch.c: HTTP GETs through libcurl (see fetch.h). */
#include "io/fetch.h"
#include "base/buf.h"
#include "base/dynlib.h"
#include "base/strutil.h"

#include "io/outfile.h"

#include <ctype.h>
#include <curl/curl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Under this pace for the timeout's seconds a transfer ends: curl's own guard counts a single byte a
 * second as progress, and a server sending two a second held an import for ever */
#define SLOW_BYTES_PER_S 1024L
/* The whole transfer's deadline grows with what it may hold: a server above the slow pace but far
 * below any real network's still ends, and the largest answer allowed arrives at a pace of 64 KiB/s */
#define DEADLINE_BYTES_PER_S ((double)(64 << 10))

/* libcurl is loaded on the first request (base/dynlib.h): a program that never imports does not map
 * it and the thirty libraries of its TLS, Kerberos and LDAP stacks */
#define CURL_FNS(X)                                                                                      \
    X(curl_global_init) X(curl_easy_init) X(curl_easy_setopt) X(curl_easy_perform) X(curl_easy_getinfo)   \
    X(curl_easy_cleanup) X(curl_easy_strerror)
static struct {
    CURL_FNS(IKS_DYN_PTR)
} lc;
static iks_dynlib libcurl = IKS_DYNLIB("libcurl.so.4", "libcurl4");

#define IKS_DYN_TABLE lc
IKS_DYNLIB_LOADER(curl_loaded, CURL_FNS, libcurl, "import")
#undef IKS_DYN_TABLE
/* the calls below go through the pointers (curl.h's type-checking macros are set aside) */
#undef curl_easy_setopt
#undef curl_easy_getinfo
#define curl_global_init (*lc.curl_global_init)
#define curl_easy_init (*lc.curl_easy_init)
#define curl_easy_setopt (*lc.curl_easy_setopt)
#define curl_easy_perform (*lc.curl_easy_perform)
#define curl_easy_getinfo (*lc.curl_easy_getinfo)
#define curl_easy_cleanup (*lc.curl_easy_cleanup)
#define curl_easy_strerror (*lc.curl_easy_strerror)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static CURLcode global_rc = CURLE_FAILED_INIT;
static void global_init(void) { global_rc = curl_global_init(CURL_GLOBAL_DEFAULT); }

typedef struct {
    iks_http_body *b;
    size_t cap, max;
    bool too_big, nomem;
} sink;

static size_t on_data(char *p, size_t size, size_t n, void *user)
{
    sink *s = user;
    size_t add = size * n;
    if (add > s->max - s->b->len) {
        s->too_big = true;
        return 0; /* curl stops with CURLE_WRITE_ERROR */
    }
    if (!IKS_GROW(s->b->data, s->b->len + add + 1, s->cap)) {
        s->nomem = true;
        return 0;
    }
    memcpy(s->b->data + s->b->len, p, add);
    s->b->len += add;
    s->b->data[s->b->len] = '\0';
    return add;
}

/* Ctrl-C (or a caller's iks_stop_request) ends a transfer at once, not after the timeout */
static int on_progress(void *user, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
    (void)user, (void)dt, (void)dn, (void)ut, (void)un;
    return iks_stop_requested();
}

void iks_http_body_free(iks_http_body *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

bool iks_http_get(const char *url, const char *shown, size_t max_bytes, double timeout, iks_http_body *b, iks_err *e)
{
    memset(b, 0, sizeof *b);
    if (!curl_loaded(e)) return false;
    pthread_once(&once, global_init);
    if (global_rc != CURLE_OK)
        return iks_err_set(e, IKS_E_IO, "%s: libcurl could not start: %s", shown, curl_easy_strerror(global_rc));
    CURL *c = curl_easy_init();
    if (!c) return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", shown);
    char why[CURL_ERROR_SIZE] = "";
    sink s = { .b = b, .max = max_bytes };
    double connect = timeout > 0 ? timeout : 20, slow = timeout > 0 ? timeout : 30;
    double deadline = slow + (double)max_bytes / DEADLINE_BYTES_PER_S;
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, why);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "ikshade/" IKSHADE_VERSION " (libcurl)");
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, ""); /* whatever this libcurl can decode */
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)(connect * 1000));
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, SLOW_BYTES_PER_S);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, (long)ceil(slow));
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)(deadline * 1000));
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L); /* threads: no SIGALRM for DNS timeouts */
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &s);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    CURLcode rc = curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &b->status);
    const char *type = NULL;
    if (curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &type) == CURLE_OK && type) {
        size_t i = 0;
        for (; type[i] && type[i] != ';' && !isspace((unsigned char)type[i]) && i + 1 < sizeof b->type; i++)
            b->type[i] = (char)tolower((unsigned char)type[i]);
        b->type[i] = '\0';
    }
    curl_off_t took = 0, connected = 0;
    curl_easy_getinfo(c, CURLINFO_TOTAL_TIME_T, &took);
    curl_easy_getinfo(c, CURLINFO_CONNECT_TIME_T, &connected);
    curl_easy_cleanup(c);
    if (rc == CURLE_OK && !b->data) { /* an empty body */
        if (!(b->data = calloc(1, 1))) return iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", shown);
        return true;
    }
    if (rc == CURLE_OK) return true;
    bool ok = false;
    if (s.nomem) iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", shown);
    else if (s.too_big) iks_err_set(e, IKS_E_FORMAT, "%s: the answer is larger than %zu MiB", shown, max_bytes >> 20);
    else if (rc == CURLE_ABORTED_BY_CALLBACK) iks_err_set(e, IKS_E_INTERRUPTED, "%s: interrupted", shown);
    else if (rc == CURLE_OPERATION_TIMEDOUT) {
        /* curl's words for its three limits ("Operation too slow. Less than 1024 bytes/sec transferred
         * the last 1 seconds") do not say which limit or how long it waited: the caller sees both */
        double t = (double)took / 1e6;
        char what[160], got[48] = "";
        if (b->status) snprintf(got, sizeof got, "%zu bytes received; ", b->len);
        if (!connected) iks_snprintf_c(what, sizeof what, "no connection in %g s", connect);
        else if (!b->status) iks_snprintf_c(what, sizeof what, "no answer in %g s", slow);
        else if (t >= deadline - 0.5)
            iks_snprintf_c(what, sizeof what, "not finished in the %g s a request may take", deadline);
        else iks_snprintf_c(what, sizeof what, "less than 1 KiB/s for %g s", slow);
        iks_err_set(e, IKS_E_IO, "%s: timed out after %.*f s: %s (%sthe network or the server is too slow)", shown,
                    t < 10 ? 1 : 0, t, what, got);
    } else {
        /* curl's own words ("Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server")
         * name the host and say what happened; a hint where the cause is usual */
        const char *hint = rc == CURLE_COULDNT_RESOLVE_HOST ? " (no network, or a wrong host name?)"
                           : rc == CURLE_COULDNT_CONNECT   ? " (no network, or the server is down?)"
                           : rc == CURLE_PEER_FAILED_VERIFICATION ? " (its TLS certificate is not trusted here)"
                                                                   : "";
        /* and may quote a URL a server redirected to, which may hold a password or a key= */
        char *said = iks_redact(why[0] ? why : curl_easy_strerror(rc), NULL, 0);
        if (said) iks_err_set(e, IKS_E_IO, "%s: %s%s", shown, said, hint);
        else iks_err_set(e, IKS_E_NOMEM, "%s: out of memory", shown);
        free(said);
    }
    iks_http_body_free(b);
    return ok;
}
