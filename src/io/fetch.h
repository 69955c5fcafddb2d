/* fetch.h: one HTTP(S) GET into memory, through libcurl, with the failures a user meets worded in one
 * line each (no network, a refused connection, a timeout, an HTTP error status) and never the secret
 * parts of a URL. What it does not do: decide what a response means (src/engine/import.c). */
#ifndef IKS_FETCH_H
#define IKS_FETCH_H

#include "base/err.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *data;   /* NUL-terminated (the NUL not counted in len); malloc'd */
    size_t len;
    long status;  /* the HTTP status of the last response (after redirects) */
    char type[64]; /* its Content-Type without parameters, lowercased ("image/png"); "" when none */
} iks_http_body;

/* GETs url (http or https only, up to 5 redirects) into b. shown is the URL as messages name it (the
 * query's secrets left out). A body larger than max_bytes is IKS_E_FORMAT. timeout: seconds to
 * connect, and of less than 1 KiB/s (0: 20 and 30); whatever the pace, a transfer also ends after
 * that plus 1 s per 64 KiB of max_bytes, so that a server trickling bytes cannot hold it for ever.
 * A network failure or a timeout ("timed out after N s: ...") is IKS_E_IO; a stop requested
 * (iks_stop_request) IKS_E_INTERRUPTED. Any HTTP status is returned (the caller judges it). */
bool iks_http_get(const char *url, const char *shown, size_t max_bytes, double timeout, iks_http_body *b, iks_err *e);
void iks_http_body_free(iks_http_body *b);

#endif
