/* gltok.h: GLSL text as tokens, for the rewrites that work on the shader's text (zeroinit.c,
 * indexclamp.c, constfold.c). Each token is an offset and a length in the text it was made from, so a
 * rewrite is a list of insertions at offsets and never moves a line. Comments and preprocessor lines
 * (with their continuations) make no tokens; a splice (backslash-newline) makes none either, so the
 * body of a #define can be tokenised as a range of its own. Text only, no GL. */
#ifndef IKS_GLTOK_H
#define IKS_GLTOK_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { IKS_TOK_IDENT, IKS_TOK_NUMBER, IKS_TOK_PUNCT } iks_tkind;
typedef struct {
    iks_tkind k;
    size_t at, n; /* offset and length in the text */
} iks_token;

typedef struct {
    const char *t;
    size_t len;
    iks_token *v;
    size_t n, cap; /* owned: free(v) */
} iks_tokens;

bool iks_tok_ident_start(char c);
bool iks_tok_ident_char(char c);
/* Where the comment starting at t[i] ends (the newline of a // comment stays); i when none starts there */
size_t iks_tok_skip_comment(const char *t, size_t len, size_t i);
/* The next preprocessor line of t[0, len) at or after *i, as iks_tok_range finds them: a `#` first on
 * its line (blanks, comments and splices before it), outside comments; [*start, *end) is the line up
 * to its newline, continuation lines included. *i moves to *end; *line_start carries, from call to
 * call, whether *i starts a line (true at 0). False once the text has no more. */
bool iks_tok_next_directive(const char *t, size_t len, size_t *i, bool *line_start, size_t *start, size_t *end);
/* The tokens of t[from, len) appended to tk (line_start: whether from starts a line, where a `#` starts
 * a preprocessor line); false when out of memory */
bool iks_tok_range(iks_tokens *tk, const char *t, size_t from, size_t len, bool line_start);
/* Where the macro's name starts on a `#define` line (line: the line's first byte): after `#`, `define`
 * and the blanks around them; NULL for any other line. The name itself is not checked. */
const char *iks_tok_define_name(const char *line);
/* whether token i exists and is the text s */
bool iks_tok_is(const iks_tokens *tk, size_t i, const char *s);

/* Insertions of text before offsets of one text: what each rewrite makes, applied at once, so no line
 * moves. At one offset they go in the order they were added. */
typedef struct {
    size_t at, seq;
    char *text;
} iks_edit;
typedef struct {
    iks_edit *v;
    size_t n, cap;
    bool oom; /* an insertion was lost: the rewrite must not be used */
} iks_edits;
/* Adds text (taken: freed when it cannot be kept; NULL means that making it ran out of memory) */
void iks_edits_add(iks_edits *ed, size_t at, char *text);
/* text (len bytes) with every insertion made: malloc'd, NULL when out of memory or ed->oom */
char *iks_edits_apply(iks_edits *ed, const char *text, size_t len);
void iks_edits_free(iks_edits *ed);

#endif
