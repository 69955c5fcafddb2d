#!/usr/bin/env bash
# The C and GLSL solvers as twins: shaders/ik.glsl's status #defines carry the numbers of
# IK_STATUS_LIST (include/ikshade/ik.h), and src/ik/ik.c defines ik.glsl's functions under the same
# names in the same order; and ik.h's IK_VERSION is the project's. Usage: test_twins.sh SOURCE-DIR
#
# Conventions, as the top of ik.c states them:
# - A comment line starting "C only:" (in ik.c) or "GLSL only:" (in ik.glsl) marks the functions
#   defined from there to the next blank line between functions as having no twin. A tag that
#   marks no function fails, so that tags cannot outlive what they excuse.
# - A comment line starting "GLSL twin: NAME" in ik.c gives the next function's GLSL name, where
#   each language keeps its own naming (ik_solve3 / ikSolve3).
# - Overloads (ik.glsl's ik_sat on vec2 and vec3) count once.
# A function definition is a line at column 0 naming `NAME(`, whose `{` comes before any `;` or other
# such line, outside comments and preprocessor lines; so functions that macros write are not seen.
set -u
. "$(dirname "$0")/lib.sh"
src=${1:?usage: test_twins.sh SOURCE-DIR}
h=$src/include/ikshade/ik.h c=$src/src/ik/ik.c glsl=$src/shaders/ik.glsl
for f in "$h" "$c" "$glsl"; do [ -r "$f" ] || { echo "FAIL: cannot read $f" >&2; echo "0 passed, 1 failed"; exit 1; }; done

# same WHAT EXPECTED GOT: equal strings, else both printed
same() {
  [ "$2" == "$3" ] && return 0
  printf '  expected (%s):\n%s\n  got (%s):\n%s\n' "${1%% *}" "$(sed 's/^/    /' <<<"$2")" \
         "${1#* }" "$(sed 's/^/    /' <<<"$3")" >&2
  return 1
}

# none LINES: true when LINES is empty, else prints them
none() { [ -z "$1" ] && return 0; printf '%s\n' "$1" >&2; return 1; }

# ---- status numbers -------------------------------------------------------------------------------
# "NAME NUMBER" lines: the C enum numbers IK_STATUS_LIST's entries from 0 in order
c_status=$(awk '/^#define IK_STATUS_LIST\(/ { on = 1; next }
                on { if (match($0, /X\([A-Za-z0-9_]+,/)) print substr($0, RSTART + 2, RLENGTH - 3), n++
                     if ($0 !~ /\\$/) on = 0 }' "$h")
g_status=$(awk '$1 == "#define" && $2 ~ /^IK_[A-Z0-9_]+$/ && $3 ~ /^[0-9]+$/ { print $2, $3 }' "$glsl")
check "ik.h: IK_STATUS_LIST found" [ -n "$c_status" ]
check "ik.glsl: status #defines found" [ -n "$g_status" ]
check "the same status names in both" \
  same "ik.h ik.glsl" "$(cut -d' ' -f1 <<<"$c_status" | sort)" "$(cut -d' ' -f1 <<<"$g_status" | sort)"
while read -r name num; do
  [ -n "$name" ] || continue
  check "$name is $num in ik.glsl as in ik.h" \
    same "ik.h ik.glsl" "$name $num" "$(grep -E "^$name " <<<"$g_status" || echo "$name (none)")"
done <<<"$c_status"

# ---- the version ----------------------------------------------------------------------------------
# ik.h's IK_VERSION is the project's version, which CMakeLists.txt sets (project(... VERSION x.y.z))
# and gives libik's soname and ik.pc; a header of its own kept it at 0.1.0 after 0.2.0
cm=$src/CMakeLists.txt
p_ver=$(sed -nE 's/^project\([A-Za-z0-9_]+ +VERSION +([0-9]+\.[0-9]+\.[0-9]+)[ )].*/\1/p' "$cm" 2>/dev/null)
h_ver=$(sed -nE 's/^#define IK_VERSION "([^"]*)"$/\1/p' "$h")
check "CMakeLists.txt: the project's version found" [ -n "$p_ver" ]
check_eq "ik.h's IK_VERSION is the project's version (CMakeLists.txt)" "$p_ver" "$h_ver"

# ---- functions ------------------------------------------------------------------------------------
# defs FILE ONLY-TAG: "D NAME" per function with a twin (NAME its GLSL name), "X NAME" per one
# exempted by ONLY-TAG, "S LINE" per tag that marks nothing
defs() {
  awk -v only="$2" '
    function endscope() { if (scope && !used) print "S " scope; scope = 0 }
    function emit(name) {
      if (scope) { print "X " name; used = 1 }
      else if (twin != "") { print "D " twin; twin = "" }
      else print "D " name
    }
    {
      raw = $0
      if (!incomment && (cont || raw ~ /^[ \t]*#/)) { cont = (raw ~ /\\$/); next }
      if (!incomment && depth == 0) {
        if (raw ~ /^[ \t]*$/) { endscope(); cand = ""; next }
        if (raw ~ "^[ \t]*(/[*]|//)[ \t]*" only ":") { endscope(); scope = NR; used = 0 }
        if (match(raw, /^[ \t]*(\/\*|\/\/)[ \t]*GLSL twin:[ \t]*[A-Za-z_][A-Za-z0-9_]*/)) {
          twin = substr(raw, RSTART, RLENGTH); sub(/.*GLSL twin:[ \t]*/, "", twin); twinline = NR
        }
      }
      # the code on this line: comments and string contents removed
      code = ""; line = raw
      while (line != "") {
        if (incomment) {
          i = index(line, "*/"); if (!i) break
          line = substr(line, i + 2); incomment = 0; continue
        }
        a = index(line, "/*"); b = index(line, "//"); q = index(line, "\"")
        m = 0
        if (a && (!m || a < m)) m = a
        if (b && (!m || b < m)) m = b
        if (q && (!m || q < m)) m = q
        if (!m) { code = code line; break }
        code = code substr(line, 1, m - 1)
        if (m == a) { incomment = 1; line = substr(line, m + 2) }
        else if (m == b) break
        else {
          rest = substr(line, m + 1)
          while ((j = index(rest, "\"")) && substr(rest, j - 1, 1) == "\\") rest = substr(rest, j + 1)
          code = code "\"\""; line = j ? substr(rest, j + 1) : ""
        }
      }
      if (depth == 0 && code ~ /^[A-Za-z_]/) {
        cand = ""
        if (match(code, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
          cand = substr(code, RSTART, RLENGTH); sub(/[ \t]*\($/, "", cand)
        }
      }
      for (k = 1; k <= length(code); k++) {
        ch = substr(code, k, 1)
        if (ch == "{") { if (depth == 0 && cand != "") { emit(cand); cand = "" } depth++ }
        else if (ch == "}") depth--
        else if (ch == ";" && depth == 0) cand = ""
      }
    }
    END { endscope(); if (twin != "") print "S " twinline }' "$1"
}
c_defs=$(defs "$c" "C only") g_defs=$(defs "$glsl" "GLSL only")
# the names with a twin, in order, overloads once
seq_of() { awk '$1 == "D" && $2 != last { print $2; last = $2 }' <<<"$1"; }
c_seq=$(seq_of "$c_defs") g_seq=$(seq_of "$g_defs")
stale() { awk -v f="$1" '$1 == "S" { printf "  %s:%s: tag marks no function\n", f, $2 }' <<<"$2"; }
c_stale=$(stale ik.c "$c_defs") g_stale=$(stale ik.glsl "$g_defs")
check "ik.c: functions with a twin found" [ -n "$c_seq" ]
check "ik.glsl: functions with a twin found" [ -n "$g_seq" ]
check "ik.c: every C only / GLSL twin tag marks a function" none "$c_stale"
check "ik.glsl: every GLSL only tag marks a function" none "$g_stale"
check "ik.c defines ik.glsl's functions under its names, in its order" \
  same "ik.glsl ik.c" "$g_seq" "$c_seq"
echo "twins: $(tr '\n' ' ' <<<"$g_seq")"
echo "C only: $(awk '$1 == "X" { printf "%s ", $2 }' <<<"$c_defs")"
echo "GLSL only: $(awk '$1 == "X" { printf "%s ", $2 }' <<<"$g_defs")"
finish
