/* err.h: the one error model inside the library. A failing function fills an iks_err (a code from
 * ikshade.h's IKS_ERROR_LIST and a message made where the error happened) and returns false; callers
 * pass it up unchanged or add context in front (iks_err_prefix). The public API moves it into the
 * thread's last error. Warnings go through an iks_logger. Nothing here prints. */
#ifndef IKS_ERR_H
#define IKS_ERR_H

#include "ikshade/ikshade.h"

#include <stdarg.h>
#include <stdbool.h>

typedef struct {
    iks_code code;     /* IKS_OK when nothing failed */
    char *msg;         /* malloc'd (or a static "out of memory"); NULL with IKS_OK */
    char field[40];    /* the caller's field the error is about ("fps", "channel[2]"), "" for none */
    size_t reason_len; /* with a field: the message's last reason_len bytes are the reason alone */
} iks_err;

#define IKS_ERR_INIT { IKS_OK, NULL, "", 0 }

/* Sets the error (replacing any earlier one); returns false so that `return iks_err_set(...)` works.
 * e may be NULL (the error is dropped). */
bool iks_err_set(iks_err *e, iks_code code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool iks_err_vset(iks_err *e, iks_code code, const char *fmt, va_list ap);
/* An error about one field of the caller's description, named as the public header names it ("fps",
 * "size", "channel[2]", "sets[0]"): the message is "FIELD VALUE: REASON" ("fps 0.5: expected ..."), or
 * "FIELD: REASON" with value NULL, and the field and the reason are kept apart for a caller that names
 * the field in words of its own (the command line: "--fps '0.5': expected ..."). Returns false. */
bool iks_err_field(iks_err *e, iks_code code, const char *field, const char *value, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The same error about another field (a caller that knows the field's place: "setting" -> "sets[2]") */
void iks_err_rename_field(iks_err *e, const char *field);
/* The reason of a field's error (the message after "FIELD VALUE: "); the whole message otherwise. */
const char *iks_err_reason(const iks_err *e);
/* Puts context in front of the message: "--size: " + "size 9x9: ...". Returns false. */
bool iks_err_prefix(iks_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sets the error from errno's text: "<what>: <strerror>"; code IKS_E_NOMEM for ENOMEM. Returns false. */
/* Words added at the message's end (and its reason's, where it has a field) */
void iks_err_suffix(iks_err *e, const char *text);
bool iks_err_errno(iks_err *e, iks_code code, int errnum, const char *what);
void iks_err_clear(iks_err *e);
/* Moves src into dst (dst's old error is freed); src is left clear. */
void iks_err_move(iks_err *dst, iks_err *src);
/* Replaces the secrets in the message as iks_redact does, the field's reason kept apart; when memory
 * runs out the message becomes "out of memory" rather than keep a secret. */
void iks_err_redact(iks_err *e, const char *const *secret, size_t n);
/* The message, "" when none. */
const char *iks_err_msg(const iks_err *e);

/* Warnings and notes, for the engine's logger callback; a zero logger drops them. */
typedef struct {
    iks_log_fn fn;
    void *user;
} iks_logger;
void iks_logf(const iks_logger *l, iks_log_level level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define iks_warnf(l, ...) iks_logf((l), IKS_LOG_WARN, __VA_ARGS__)

#endif
