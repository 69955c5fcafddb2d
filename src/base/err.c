/* err.c: iks_err and the logger (see err.h). */
#include "base/err.h"
#include "base/strutil.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the message when there is no memory for the message itself: never freed */
static char OOM[] = "out of memory";

static void drop(iks_err *e)
{
    if (e->msg != OOM) free(e->msg);
    e->msg = NULL;
}

static char *vformat(const char *fmt, va_list ap)
{
    char *s = NULL;
    /* numbers in a message read the same in any host's locale */
    if (iks_vasprintf_c(&s, fmt, ap) < 0) return NULL;
    return s;
}

bool iks_err_vset(iks_err *e, iks_code code, const char *fmt, va_list ap)
{
    if (!e) return false;
    drop(e);
    char *m = vformat(fmt, ap);
    e->code = m ? code : IKS_E_NOMEM;
    e->msg = m ? m : OOM;
    e->field[0] = '\0';
    e->reason_len = 0;
    return false;
}

bool iks_err_field(iks_err *e, iks_code code, const char *field, const char *value, const char *fmt, ...)
{
    if (!e) return false;
    va_list ap;
    va_start(ap, fmt);
    char *reason = vformat(fmt, ap);
    va_end(ap);
    if (!reason) return iks_err_set(e, IKS_E_NOMEM, "out of memory");
    iks_err_set(e, code, "%s%s%s: %s", field, value ? " " : "", value ? value : "", reason);
    if (e->code == code && strlen(field) < sizeof e->field) {
        strcpy(e->field, field);
        e->reason_len = strlen(reason);
    }
    free(reason);
    return false;
}

void iks_err_rename_field(iks_err *e, const char *field)
{
    if (!e || !e->field[0] || !e->msg || strlen(field) >= sizeof e->field) return;
    size_t n = strlen(e->field);
    if (strncmp(e->msg, e->field, n) != 0) return; /* a caller put context in front: leave it */
    char *m = NULL;
    if (asprintf(&m, "%s%s", field, e->msg + n) < 0) return;
    drop(e);
    e->msg = m;
    strcpy(e->field, field);
}

const char *iks_err_reason(const iks_err *e)
{
    const char *m = iks_err_msg(e);
    size_t n = strlen(m);
    return e && e->field[0] && e->reason_len <= n ? m + n - e->reason_len : m;
}

bool iks_err_set(iks_err *e, iks_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    iks_err_vset(e, code, fmt, ap);
    va_end(ap);
    return false;
}

bool iks_err_prefix(iks_err *e, const char *fmt, ...)
{
    if (!e) return false;
    va_list ap;
    va_start(ap, fmt);
    char *pre = vformat(fmt, ap);
    va_end(ap);
    char *m = NULL;
    if (pre && asprintf(&m, "%s%s", pre, e->msg ? e->msg : "") < 0) m = NULL;
    free(pre);
    if (!m) return false; /* keep the message as it was rather than lose it */
    drop(e);
    e->msg = m; /* the reason stays the message's end: field and reason_len hold */
    return false;
}

void iks_err_suffix(iks_err *e, const char *text)
{
    if (!e || !e->msg || !text) return;
    char *m = NULL;
    if (asprintf(&m, "%s%s", e->msg, text) < 0) return; /* the message as it was rather than none */
    size_t reason = e->reason_len + strlen(text);
    drop(e);
    e->msg = m;
    if (e->field[0]) e->reason_len = reason; /* the reason is the message's end, the words added too */
}

bool iks_err_errno(iks_err *e, iks_code code, int errnum, const char *what)
{
    return iks_err_set(e, errnum == ENOMEM ? IKS_E_NOMEM : code, "%s: %s", what, strerror(errnum));
}

void iks_err_clear(iks_err *e)
{
    if (!e) return;
    drop(e);
    e->code = IKS_OK;
    e->field[0] = '\0';
    e->reason_len = 0;
}

void iks_err_move(iks_err *dst, iks_err *src)
{
    if (!dst) {
        iks_err_clear(src);
        return;
    }
    drop(dst);
    *dst = *src;
    src->code = IKS_OK;
    src->msg = NULL;
    src->field[0] = '\0';
    src->reason_len = 0;
}

void iks_err_redact(iks_err *e, const char *const *secret, size_t n)
{
    if (!e || !e->msg || e->msg == OOM) return;
    size_t len = strlen(e->msg), keep = e->field[0] && e->reason_len <= len ? len - e->reason_len : len;
    char *head = strndup(e->msg, keep);
    char *h = head ? iks_redact(head, secret, n) : NULL, *r = iks_redact(e->msg + keep, secret, n), *m = NULL;
    if (h && r && asprintf(&m, "%s%s", h, r) < 0) m = NULL;
    drop(e);
    if (m) {
        e->msg = m;
        e->reason_len = strlen(r);
    } else {
        e->msg = OOM, e->code = IKS_E_NOMEM, e->field[0] = '\0', e->reason_len = 0;
    }
    free(head), free(h), free(r);
}

const char *iks_err_msg(const iks_err *e)
{
    return e && e->msg ? e->msg : "";
}

void iks_logf(const iks_logger *l, iks_log_level level, const char *fmt, ...)
{
    if (!l || !l->fn) return;
    va_list ap;
    va_start(ap, fmt);
    char *m = vformat(fmt, ap);
    va_end(ap);
    if (!m) return;
    /* one message, without the trailing newline the callers' text may carry */
    size_t n = strlen(m);
    while (n && m[n - 1] == '\n') m[--n] = '\0';
    if (n) l->fn(l->user, level, m);
    free(m);
}
