#!/usr/bin/env bash
# test_opts_types.sh SRC CC: the option tables' rows are type-checked when they compile (src/cli/opts.h's
# IKS_OPT_*_ROW macros). Each row below puts a kind on a field of another type, as a slip in a cmd_*.c
# table would, and must stop the compiler with the row's "option row:" message; the same file with the
# fields' right types must compile, so that a failure is the check's and not a broken snippet's.
set -u
src=$(cd "$1" && pwd) cc=$2
. "$src/tests/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# a command's struct with a field of each type a kind writes, and one of each wrong type beside it
cat > "$tmp/base.h" <<'C'
#include "cli/opts.h"
typedef struct { int x; } other_opts;
typedef other_opts OTHER_OPTS_fills_;
static const iks_opt OTHER_OPTS[] = { { IKS_OPT_END, .flags = 0 } };
typedef struct {
    bool flag; int i; long l; double d; float f; const char *s; char *mut; iks_strlist list;
    int w, h; long lw; int gap, w2, pad, h2; other_opts sub; int not_sub;
} S;
IKS_OPT_PARSER(parse_int, int, v, dst)
{
    *dst = v[0];
    return true;
}
C
# ROW: a right row; the wrong ones follow, one a line: "what|row"
good='IKS_OPT_FLAG_ROW(S, flag, "--a", NULL, NULL, "h", .flags = 0), IKS_OPT_INT_ROW(S, i, "--b", NULL, "N", "h", .flags = 0),
  IKS_OPT_LONG_ROW(S, l, "--c", NULL, "N", "h", .flags = 0), IKS_OPT_DOUBLE_ROW(S, d, "--d", NULL, "F", "h", .flags = 0),
  IKS_OPT_STRING_ROW(S, s, "--e", NULL, "S", "h", .flags = 0), IKS_OPT_LIST_ROW(S, list, "--f", NULL, "S", "h", .flags = 0),
  IKS_OPT_SIZE_ROW(S, w, h, "--g", NULL, "WxH", "h", .flags = 0), IKS_OPT_PARSE_ROW(S, i, parse_int, "--h", NULL, "X", "h", .flags = 0),
  IKS_OPT_TABLE_ROW(S, sub, OTHER_OPTS)'
bad=(
  'an int option on a long|IKS_OPT_INT_ROW(S, l, "--x", NULL, "N", "h", .flags = 0)'
  'a long option on an int|IKS_OPT_LONG_ROW(S, i, "--x", NULL, "N", "h", .flags = 0)'
  'a flag on an int|IKS_OPT_FLAG_ROW(S, i, "--x", NULL, NULL, "h", .flags = 0)'
  'a double option on a float|IKS_OPT_DOUBLE_ROW(S, f, "--x", NULL, "F", "h", .flags = 0)'
  'a string option on a char * (not const)|IKS_OPT_STRING_ROW(S, mut, "--x", NULL, "S", "h", .flags = 0)'
  'a list option on a string|IKS_OPT_LIST_ROW(S, s, "--x", NULL, "S", "h", .flags = 0)'
  'a size on a long width|IKS_OPT_SIZE_ROW(S, lw, h, "--x", NULL, "WxH", "h", .flags = 0)'
  'a size whose height does not follow its width|IKS_OPT_SIZE_ROW(S, w2, h2, "--x", NULL, "WxH", "h", .flags = 0)'
  'a parser of ints on a bool|IKS_OPT_PARSE_ROW(S, flag, parse_int, "--x", NULL, "X", "h", .flags = 0)'
  'a table on a field of another type|IKS_OPT_TABLE_ROW(S, not_sub, OTHER_OPTS)'
)
compile() { # compile ROWS: the compiler's status, its messages in $tmp/log
  { cat "$tmp/base.h"; printf 'const iks_opt T[] = { %s, { IKS_OPT_END, .flags = 0 } };\n' "$1"; } > "$tmp/t.c"
  "$cc" -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$src/src" -I"$src/include" -fsyntax-only "$tmp/t.c" > "$tmp/log" 2>&1
}
check "the rows of every kind on fields of their types compile (-Wall -Wextra -Werror)" compile "$good" || cat "$tmp/log" >&2
for b in "${bad[@]}"; do
  what=${b%%|*} row=${b#*|}
  if compile "$good, $row"; then check "$what does not compile" false
  else check "$what: the compiler says it is the option row's type" grep -q "option row: " "$tmp/log" || cat "$tmp/log" >&2
  fi
done
finish
