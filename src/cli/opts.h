/* opts.h: the command line's option tables (after git's parse-options). One table per command drives
 * the parsing of its arguments, its `--help`, the man pages (help2man reads --help), the shell
 * completions (`ikshade completion`), and the checks of the options only the command line has; the
 * library checks the rest, and an error it reports about one of its fields is put back into the user's
 * words through the same table: the option that fills that field, and the text the user gave it.
 * What it does not do: know any command's meaning (cmd_*.c) or print anything but usage errors and help. */
#ifndef IKS_OPTS_H
#define IKS_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A completion the library gives (iks_channel_completion): a channel spec's words and file endings */
#define IKS_COMPLETE_CHANNEL "library:channel"

typedef enum {
    IKS_OPT_END,    /* ends a table */
    IKS_OPT_TABLE,  /* another table's options here (.sub), their offsets from .off */
    IKS_OPT_FLAG,   /* no value: the bool at .off becomes true */
    IKS_OPT_STRING, /* the value as given: a const char * at .off */
    IKS_OPT_LIST,   /* repeatable: each value appended to the iks_strlist at .off */
    IKS_OPT_INT,    /* a whole number: an int at .off */
    IKS_OPT_LONG,   /* a whole number: a long at .off */
    IKS_OPT_DOUBLE, /* a finite number: a double at .off */
    IKS_OPT_SIZE,   /* WxH, each a whole number from 1: two ints at .off */
    IKS_OPT_PARSE,  /* .parse turns the value into what lies at .off */
} iks_opt_kind;

enum {
    IKS_OPT_NONZERO = 1, /* 0 is refused: the library's zero means "the default" */
    IKS_OPT_HIDDEN = 2,  /* parsed and completed, but not a line of --help (--channel1..3 share --channel0's) */
    /* the value is a secret (an API key): no message shows it, nor the value of an unknown option of
     * its table (--kye=KEY); every other value a message shows has its URLs' passwords redacted */
    IKS_OPT_SECRET = 4,
};

typedef struct {
    const char **v; /* argc entries at most: no count of options can overflow it */
    int n;
} iks_strlist;

typedef struct iks_opt iks_opt;
struct iks_opt {
    iks_opt_kind kind;
    size_t off;           /* where the value goes in the command's struct: made with kind by a row macro */
    const char *name;     /* "--fps"; "-I" takes its value joined too (-Idir) */
    const char *alias;    /* "-o", or NULL */
    const char *arg;      /* the value's name in --help ("F", "WxH"); NULL for a flag */
    const char *help;     /* --help's text, lines separated by '\n' */
    /* The library fields this option fills, space separated ("fps"; "sets" for each occurrence
     * sets[0], sets[1]...), so that an error about one names the option; NULL: the command line's own */
    const char *field;
    double min, max;      /* the command line's own range for the value, when min < max */
    unsigned flags;       /* IKS_OPT_* */
    /* IKS_OPT_PARSE: false when v is malformed */
    bool (*parse)(const char *v, void *dst);
    const char *expect;   /* what a malformed value should have been: "expected a number" */
    const char *need;     /* what a missing value is: "--size needs WxH"; NULL: arg */
    /* the completions, alternatives separated by '|': "file", "dir", "file:png jpg" (those extensions),
     * "words:auto es 330"; NULL: none (a value to type) */
    const char *complete;
    const char *label;    /* the name --help shows for a family of rows ("--channelN"); NULL: name */
    const char *says;     /* how prose names the option where a library message names its field
                             ("--missing-media black"); NULL: its name */
    const iks_opt *sub;   /* IKS_OPT_TABLE */
};

/* ---- rows, type-checked -------------------------------------------------------------------------
 * A row is written with the macro of its kind, which makes the kind and the offset together from the
 * command's struct S and the field: a field whose type is not the one the kind writes (a long for
 * --ssaa's int, an int for a flag's bool) stops the build with the row's struct and field in the
 * message, where a bare offsetof compiled and wrote the wrong bytes at run time (git's OPT_INTEGER
 * checks the same way). The rest of the row follows in iks_opt's order: name, alias, arg, help,
 * field, then designated members:
 *     IKS_OPT_INT_ROW(ropts, r.ssaa, "--ssaa", NULL, "K", "supersampling", "ssaa", .flags = ...)
 * tests/opts_typecheck.sh compiles rows of every kind against wrong fields and expects each to fail. */

/* offsetof(S, f), compiling only when the field is a T (_Generic on a pointer to it: exact types, no
 * conversions; a _Static_assert for a message that names the row) */
#define IKS_OPT_AT_(S, f, T)                                                                             \
    (offsetof(S, f) + 0 * sizeof(struct {                                                                \
         _Static_assert(_Generic(&((S *)0)->f, T *: 1, default: 0), "option row: " #S "." #f " is not a " #T); \
         int at_;                                                                                        \
     }))

#define IKS_OPT_FLAG_ROW(S, f, ...) { IKS_OPT_FLAG, IKS_OPT_AT_(S, f, bool), __VA_ARGS__ }
#define IKS_OPT_STRING_ROW(S, f, ...) { IKS_OPT_STRING, IKS_OPT_AT_(S, f, const char *), __VA_ARGS__ }
#define IKS_OPT_LIST_ROW(S, f, ...) { IKS_OPT_LIST, IKS_OPT_AT_(S, f, iks_strlist), __VA_ARGS__ }
#define IKS_OPT_INT_ROW(S, f, ...) { IKS_OPT_INT, IKS_OPT_AT_(S, f, int), __VA_ARGS__ }
#define IKS_OPT_LONG_ROW(S, f, ...) { IKS_OPT_LONG, IKS_OPT_AT_(S, f, long), __VA_ARGS__ }
#define IKS_OPT_DOUBLE_ROW(S, f, ...) { IKS_OPT_DOUBLE, IKS_OPT_AT_(S, f, double), __VA_ARGS__ }
/* WxH into two ints, w and h, h right after w (the parser writes them as an int[2]) */
#define IKS_OPT_SIZE_ROW(S, w, h, ...)                                                                   \
    { IKS_OPT_SIZE,                                                                                      \
      IKS_OPT_AT_(S, w, int) + IKS_OPT_AT_(S, h, int) * 0 + 0 * sizeof(struct {                          \
          _Static_assert(offsetof(S, h) == offsetof(S, w) + sizeof(int), "option row: " #S "." #h        \
                         " does not follow " #S "." #w);                                                 \
          int at_;                                                                                       \
      }),                                                                                                \
      __VA_ARGS__ }
/* A value parsed by a function of the command's, declared with IKS_OPT_PARSER, which names the type
 * it fills: the row's field must be of that type */
#define IKS_OPT_PARSE_ROW(S, f, parser, ...)                                                             \
    { IKS_OPT_PARSE, IKS_OPT_AT_(S, f, parser##_fills_), __VA_ARGS__, .parse = parser }
/* Another table's options, at field f of S (sub's struct: sub##_fills_, declared beside the table) */
#define IKS_OPT_TABLE_ROW(S, f, table) { IKS_OPT_TABLE, IKS_OPT_AT_(S, f, table##_fills_), .sub = table }

/* Defines a parser for IKS_OPT_PARSE_ROW: fn, the iks_opt.parse the table calls, and the type T it
 * fills (fn##_fills_), then the typed body that follows, which reads the text v and writes *dst:
 *     IKS_OPT_PARSER(parse_glsl, iks_glsl, v, g) { ... *g = IKS_GLSL_ES; return true; } */
#define IKS_OPT_PARSER(fn, T, v, dst)                                                                    \
    typedef T fn##_fills_;                                                                               \
    static bool fn##_typed_(const char *v, T *dst);                                                      \
    static bool fn(const char *v_, void *dst_) { return fn##_typed_(v_, dst_); }                         \
    static bool fn##_typed_(const char *v, T *dst)

/* An option as given on this command line: which row, its text, its place among repeats */
typedef struct {
    const iks_opt *opt;
    const char *value; /* NULL for a flag */
    int nth;           /* 0 for the first time this row was given */
    const char *as;    /* the spelling used: the name or the alias */
} iks_given;

typedef struct {
    const char *cmd;
    const iks_opt *table;
    iks_given *given;  /* every option given, in order */
    int ngiven;
    const char **pos;  /* the other arguments, in order */
    int npos;
} iks_args;

/* Parses argv[1..] by table into base (a command's options struct; its lists are allocated here, sized
 * by argc, and freed by iks_args_free). -1 when the arguments are well formed, else the exit status
 * after printing the one-line error. "--" ends the options. a is filled either way. */
int iks_opts_parse(const char *cmd, const iks_opt *table, int argc, char **argv, void *base, iks_args *a);
/* Frees what iks_opts_parse allocated in a and in base's lists. */
void iks_args_free(iks_args *a, void *base);
/* The last time an option (by name) was given; NULL when it was not */
const iks_given *iks_args_given(const iks_args *a, const char *name);

/* The library's last error in the user's words: when it is about a field an option here fills (its
 * nth occurrence for "sets[n]"), "ikshade CMD: --flag 'TEXT': REASON"; else the message, with the
 * fields it names put as the options that fill them. Returns the exit status of the error's code. */
int iks_opts_error(const iks_args *a);
/* The same, with the error taken as about field (a caller that knows the field's place among the
 * options better than the library: render's --set values after a recording's settings) */
int iks_opts_error_as(const iks_args *a, const char *field);
/* A library message in the user's words: fields the table fills (those with '_' or a digit in their
 * name, which no prose word has) written as the options. malloc'd; NULL when out of memory. */
char *iks_opts_words(const iks_opt *table, const char *message);

/* --help's option lines of table, as "  --name ARG   help" with continued lines aligned */
void iks_opts_help(FILE *f, const iks_opt *table);

#endif
