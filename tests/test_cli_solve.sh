#!/usr/bin/env bash
# `ikshade solve`, `--help`, `--version`, as a user scripts them.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1

out=$(printf '1 1 1 1\n1 1 1 1 -1\n0 5 1 2\n0.5 0 1 2\n0 0 1 1\n1 1 0 1\n# a comment\n\n' | "$bin" solve)
want=$'-0 1 reached\n1 -0 reached\n0 1 too-far\n-1 0 too-near\n1 0 degenerate\n0 0 degenerate'
# signs of zeros are the solver's business; compare numerically
norm() { awk '{ for (i = 1; i < NF; i++) $i = $i + 0; print }'; }
check "2D answers" [ "$(norm <<<"$out")" = "$(norm <<<"$want")" ]

# round trip: %.9g output read back as input gives the same float (feed x back as a target)
rt=$(printf '0.3 0.9 0.8 0.6\n' | "$bin" solve | awk '{print $1, $2, 0.8, 0.000001}' | "$bin" solve | awk '{print $3}')
check "round trip: |x| = r1 exactly reachable" [ "$rt" = reached ]
v=$(printf '0.1 0.2 0.3 0.4\n' | "$bin" solve)
check "%.9g output" grep -qE '^-?[0-9.e+-]+ -?[0-9.e+-]+ (reached|too-far|too-near|degenerate)$' <<<"$v"
x=$(printf '1e-3 2e-3 1e3 1e3\n' | "$bin" solve | awk '{print $1}')
check "extreme scales give a finite answer ($x)" awk -v x="$x" 'BEGIN { exit !(x ~ /^-?[0-9]/ && x !~ /nan|inf/) }'

out3=$(printf '0 1.5 0 1 1 1 0 0\n0 1.5 0 1 1 1 0 0 -1\n' | "$bin" solve --3d | awk '{print ($1 > 0) "" ($4)}')
check "3D bends towards the pole, and away with bend -1" [ "$out3" = $'1reached\n0reached' ]

s=$(printf '4 0 1 1\n' | "$bin" solve --stretch)
check "--stretch" [ "$s" = "2 0 too-far" ]
a=$(printf '1.99 0 1 1\n' | "$bin" solve); b=$(printf '1.99 0 1 1\n' | "$bin" solve --soften 0.1)
ya=$(awk '{print $2}' <<<"$a"); yb=$(awk '{print $2}' <<<"$b")
check "--soften bends the knee more near full reach ($ya, $yb)" awk -v a="$ya" -v b="$yb" 'BEGIN{exit !(a ~ /^-?[0-9]/ && b ~ /^-?[0-9]/ && b + 0 > a + 0)}'

# malformed input: error names line and field, exit 1, earlier lines already written
out=$(printf '1 1 1 1\n1 x 1 1\n2 2 2 2\n' | "$bin" solve 2>/tmp/ikerr.$$); rc=$?
check "malformed line exits 1" [ $rc -eq 1 ]
check "lines before the bad one are written" [ "$(wc -l <<<"$out")" -eq 1 ]
check "error names line 2, field py" grep -q "stdin:2: field 2 (py): 'x' is not a number" /tmp/ikerr.$$
rm -f /tmp/ikerr.$$
expect_fail "too few fields" 1 'stdin:1: missing field 4 \(r2\)' sh -c "printf '1 1 1\n' | '$bin' solve"
expect_fail "too many fields" 1 'stdin:1: too many fields' sh -c "printf '1 1 1 1 1 1\n' | '$bin' solve"
expect_fail "3D missing pole" 1 'stdin:1: missing field 6 \(hx\)' sh -c "printf '1 1 1 1 1\n' | '$bin' solve --3d"
expect_fail "overflowing number" 1 "field 1 \(px\): '1e99'" sh -c "printf '1e99 1 1 1\n' | '$bin' solve"
expect_fail "--soften out of range" 2 "--soften '2'" "$bin" solve --soften 2
expect_fail "--soften without value" 2 "--soften needs a value" "$bin" solve --soften
expect_fail "unknown option" 2 "unknown option '--bogus'" "$bin" solve --bogus
expect_fail "unknown command" 2 "no command 'frobnicate'" "$bin" frobnicate
expect_fail "no command" 2 "no command given" "$bin"
check_eq "bare ikshade prints the usage --help prints, on stdout" "$("$bin" --help)" "$("$bin" 2>/dev/null)"
# every summary of --help's command list starts in one column, two spaces or more after the longest name
cols=$("$bin" --help | sed -n '/^commands:/,/^$/{/^  [a-z]/p}' | awk '{ match($0, /^  [a-z][a-z0-9-]* +/); print RLENGTH + 1 }' |
       sort -u | tr '\n' ' ')
width=$("$bin" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p' | awk '{ if (length($0) > w) w = length($0) } END { print w }')
check_eq "--help: the command summaries in one column, after the longest name and two spaces" "$((width + 5)) " "$cols"

check "--version" grep -qE '^ikshade [0-9]+\.[0-9]+\.[0-9]+$' <<<"$("$bin" --version)"
check "help solve = solve --help" [ "$("$bin" help solve)" = "$("$bin" solve --help)" ]
check "--help lists solve" grep -q '^  solve' <<<"$("$bin" --help)"
# the example in solve --help prints what the help says it prints
ex=$("$bin" solve --help | grep -E "^  echo '.*' \| ikshade solve +# -> ")
check "solve --help has an example" [ -n "$ex" ]
in=$(sed -E "s/^  echo '([^']*)'.*/\1/" <<<"$ex"); want=$(sed -E 's/.*# -> //' <<<"$ex")
check_eq "solve --help's example prints what it says" "$want" "$(echo "$in" | "$bin" solve)"

# a benchmark run beside other work says so: two busy loops take a share of the machine it measures
yes >/dev/null & y1=$!; yes >/dev/null & y2=$!
bo=$("$bin" bench solver --reps 1)
kill $y1 $y2; wait $y1 $y2 2>/dev/null
check "bench solver beside two busy loops notes the other programs' share" \
  grep -qE '^  note: other programs used [0-9]+% of the machine' <<<"$bo"

# Ctrl-C while solve waits for its input: a stop, said in one line, not "stdin: read error"
errf=$(mktemp)
"$bin" solve < <(sleep 10) > /dev/null 2> "$errf" & p=$!
sleep 1; kill -INT $p; wait $p; rc=$?
check_eq "solve waiting on stdin, SIGINT: exit 130" 130 "$rc"
check_eq "... one line saying so" "ikshade solve: interrupted after 0 lines of stdin" "$(cat "$errf")"
rm -f "$errf"

# stdout that takes no more: endless input must not keep solve running. Each under `timeout`, so that a
# solve that only looks at stdout at its final flush (it never comes) fails here instead of hanging.
errf=$(mktemp); rcf=$(mktemp); outf=$(mktemp)
# a reader that goes away (head): a pipeline stage's quiet end, exit 1 (SIGPIPE is ignored by design)
{ yes '1.6 0 1 1' 2>/dev/null | timeout 20 "$bin" solve 2>"$errf"; echo $? >"$rcf"; } | head -n 1 >"$outf"
check_eq "solve | head -1, endless input: exit 1, not killed by timeout" 1 "$(cat "$rcf")"
check_eq "... nothing on stderr" "" "$(cat "$errf")"
check_eq "... head got the first answer" "0.800000012 0.599999964 reached" "$(cat "$outf")"
expect_fail "solve > /dev/full, endless input: stops with the write's error" 1 \
  '^ikshade solve: stdout: No space left on device$' \
  sh -c "yes '1.6 0 1 1' 2>/dev/null | timeout 20 '$bin' solve > /dev/full"
expect_fail "solve > /dev/full, one line: the final flush's error" 1 \
  '^ikshade solve: stdout: No space left on device$' sh -c "echo '1.6 0 1 1' | '$bin' solve > /dev/full"

# a line-length cap of 1 MiB, enforced while reading: the bad line is named, the answers before it kept
line_of() { # BYTES: one line of exactly BYTES bytes (newline not counted) that is the case '1 1 1 1'
  printf '1 1 1 1'; head -c $(($1 - 7)) /dev/zero | tr '\0' ' '; echo
}
out=$({ echo '1.6 0 1 1'; line_of $((1 << 20)); } | timeout 20 "$bin" solve 2>"$errf"); rc=$?
check_eq "a line of exactly 1 MiB is a case: exit 0" 0 "$rc"
check_eq "... both answered" 2 "$(grep -c reached <<<"$out")"
out=$({ echo '1.6 0 1 1'; line_of $(((1 << 20) + 1)); echo garbage; } | timeout 20 "$bin" solve 2>"$errf"); rc=$?
check_eq "a line of 1 MiB + 1 byte: exit 1" 1 "$rc"
check_eq "... one line naming it" "ikshade solve: stdin:2: line longer than 1 MiB" "$(cat "$errf")"
check_eq "... the answer before it written" "0.800000012 0.599999964 reached" "$out"
out=$({ echo '1.6 0 1 1'; head -c 400000000 /dev/zero | tr '\0' 7; echo; echo garbage; } |
      timeout 60 "$bin" solve 2>"$errf"); rc=$?
check_eq "a 400 MB line: exit 1" 1 "$rc"
check_eq "... one line naming it" "ikshade solve: stdin:2: line longer than 1 MiB" "$(cat "$errf")"
# endless input with no newline under a memory limit: getline's ENOMEM read as the end, exit 0, silent.
# AddressSanitizer needs terabytes of address space: where the binary cannot start under the limit, the
# row is not run (the plain build runs it).
if (ulimit -v 600000; "$bin" --version) >/dev/null 2>&1; then
  expect_fail "solve < /dev/zero under ulimit -v 600000: refused, never exit 0" 1 \
    '^ikshade solve: stdin:1: line longer than 1 MiB$' \
    bash -c 'ulimit -v 600000; exec timeout 20 "$0" solve < /dev/zero' "$bin"
else echo "note: the ulimit -v row needs a binary that starts under ulimit -v 600000 (not ASan)" >&2
fi

# a stop signal while input keeps coming (no read ever blocks): stopped at once with the one line,
# not by the 5 s grace alarm with nothing said
# (timeout --foreground passes the signal on to solve once, and kills it only if it is lost)
yes '1.6 0 1 1' 2>/dev/null | timeout --foreground -s KILL 30 "$bin" solve >/dev/null 2>"$errf" & sp=$!
sleep 1; kill -INT "$sp"; wait "$sp"; echo $? >"$rcf"
check_eq "solve with endless input, SIGINT: exit 130" 130 "$(cat "$rcf")"
check "... one line saying so" grep -qxE 'ikshade solve: interrupted after [0-9]+ lines of stdin' "$errf"
rm -f "$errf" "$rcf" "$outf"

finish
