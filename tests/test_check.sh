#!/usr/bin/env bash
# `ikshade check`: passes with our GLSL solver, and fails with each of four mutated copies of it,
# made here from shaders/ik.glsl so that they follow the real solver.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 shaders=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
N=200000

out=$("$bin" check --cases $N); rc=$?
check "check passes on this GPU (exit 0)" [ $rc -eq 0 ]
check "prints the renderer and GL version" grep -q '^GL_RENDERER: .' <<<"$out"
check "prints the case count" grep -qE "^cases: [0-9]+ \($N random" <<<"$out"
check "prints the errors against their bounds" grep -qE '^error.*max .* \(bound 16\), 99.9th percentile .* \(bound 4\)' <<<"$out"
check "says PASS" grep -q '^PASS' <<<"$out"
# the largest error is named only when there is one (case 0 was named when every error was 0)
mx=$(grep -oE '^error.*: max [^ ]+' <<<"$out" | grep -oE '[^ ]+$')
if [ "$mx" = 0 ]; then
  check "every error 0: no case named as the largest" bash -c '! grep -q "^largest at case" <<<"$1" && grep -q "no largest error to show" <<<"$1"' _ "$out"
else
  check "an error above 0: the largest named" grep -q '^largest at case' <<<"$out"
fi
# llvmpipe computes in IEEE float as ik.c does, so there the twins agree bit for bit, the edge cases of
# far-apart magnitudes included (answers taken on the lengths themselves); a real GPU may round
# divisions and square roots otherwise, so elsewhere only the bounds hold
check "prints the effector's error against its bound" grep -qE '^effector error, in eps x scale: max .* \(bound 16\)$' <<<"$out"
ex=$(grep -oE '^effector error.*: max [^ ]+' <<<"$out" | grep -oE '[^ ]+$')
if grep -q '^GL_RENDERER: llvmpipe' <<<"$out"; then
  check "on llvmpipe every joint is the C solver's, bit for bit (max $mx)" [ "$mx" = 0 ]
  check "... and every effector (max $ex)" [ "$ex" = 0 ]
fi

j=$("$bin" check --cases 1000 --json)
check "--json is one object with pass:true" python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["pass"] is True and d["cases"] > 1000 and "renderer" in d and d["max_effector_error"] <= 16' "$j"

# a solver that answers NaN: --json is still JSON (null where there is no number), and fails
sed '0,/    x = ik_sat(j \* U);/s//    x = vec2(uintBitsToFloat(0x7fc00000u));/' "$shaders/ik.glsl" > "$tmp/nan.glsl"
j=$("$bin" check --cases 100 --json --solver "$tmp/nan.glsl")
check "--json of a NaN solver parses, with null for its errors and answers, and pass:false" python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["pass"] is False and d["max_error"] is None and d["worst"]["gpu"][:2] == [None, None], d' "$j"

mutate() { # NAME SED-EXPRESSION
  sed "$2" "$shaders/ik.glsl" > "$tmp/$1.glsl"
  if cmp -s "$shaders/ik.glsl" "$tmp/$1.glsl"; then echo "FAIL: mutation $1 changed nothing" >&2; fail=$((fail+1)); return; fi
  local o rc
  o=$("$bin" check --cases $N --solver "$tmp/$1.glsl"); rc=$?
  check "mutant '$1' fails the check (exit 1)" [ $rc -eq 1 ]
  check "mutant '$1' says FAIL" grep -q '^FAIL' <<<"$o"
  check "mutant '$1' names its largest error" grep -q '^largest at case' <<<"$o"
}
# an effector off by 1e-4 of the target's distance: the joints agree, the effectors do not
sed 's/: p \* ke) : x;/: p * ke * 0.9999) : x;/' "$shaders/ik.glsl" > "$tmp/end.glsl"
o=$("$bin" check --cases $N --solver "$tmp/end.glsl"); rc=$?
check "mutant 'end' changed the file" bash -c '! cmp -s "$1" "$2"' _ "$shaders/ik.glsl" "$tmp/end.glsl"
check "mutant 'end' fails the check (exit 1) on the effector alone" [ $rc -eq 1 ]
check "mutant 'end' names its largest effector error" grep -q '^largest effector error at case' <<<"$o"
check "... its joints still agree within the bounds" grep -qE '^error.*: max [0-9.e+-]+ \(bound 16\), 99.9th percentile [0-4](\.[0-9]+)? ' <<<"$o"
mutate const 's/float a = 0\.5 \* (dt/float a = 0.5000005 * (dt/'
mutate swap 's/float R1 = r1 \* s, R2 = r2 \* s;/float R1 = r2 * s, R2 = r1 * s;/'
mutate bend 's/B \*= bend < 0\.0 ? -1\.0 : 1\.0;/B *= 1.0;/'
# the article's discriminant, in the units of ours (the common frame's length^2 times p's frame's)
mutate raw 's/float heron = max(F \* G, 0\.0);/float w = dt * dt + R1 * R1 - R2 * R2; float heron = max((4.0 * R1 * R1 * dt * dt - w * w) * rinv * rinv, 0.0);/'

# a solver file that does not compile: compiler-style errors pointing into it, exit 1
printf 'vec2 ikSolve(vec2 p, float r1, float r2) { return p }\n' > "$tmp/broken.glsl"
err=$("$bin" check --cases 10 --solver "$tmp/broken.glsl" 2>&1 >/dev/null); rc=$?
check "broken solver exits 1" [ $rc -eq 1 ]
check "broken solver error names its file:line" grep -q "^$tmp/broken.glsl:1:" <<<"$err"

# a signal stops check promptly (signals.c's standard): exit 128 + the signal, one "interrupted" line,
# no verdict. Sent to ikshade itself: timeout --foreground passes it on once, and only kills at 60 s.
interrupt() { # SIG SECONDS CMD...: runs CMD, sends SIG after SECONDS; irc: its exit status
  local sig=$1 after=$2 p; shift 2
  timeout --foreground -s KILL 60 "$@" >"$tmp/int.out" 2>"$tmp/int.err" & p=$!
  sleep "$after"
  kill -"$sig" $p; wait $p; irc=$?
}
expect_interrupted() { # WHAT CODE: the run above ended by the interruption, not by the 5 s grace alarm
  check "$1: exit $2" [ "$irc" -eq "$2" ]
  check "$1: exactly one line on stderr" [ "$(grep -c . "$tmp/int.err")" -eq 1 ]
  check "$1: it says it was interrupted, and how far it got" \
    grep -qE '^ikshade check: interrupted after [0-9]+ of [0-9]+ solves compared: no verdict$' "$tmp/int.err"
  check "$1: no verdict on stdout" [ ! -s "$tmp/int.out" ]
}
# the reviewer's case: 30 million cases (about 10 s here), Ctrl-C after 1 s
interrupt INT 1 "$bin" check --cases 30000000
expect_interrupted "check --cases 30000000, SIGINT" 130
# the GPU's batch: a solver 40 times slower (each case solved 40 times over), so that the probe's draws
# of 10 million cases take seconds on llvmpipe; it must stop between bands of them
python3 - "$shaders/ik.glsl" "$tmp/slow.glsl" <<'PY'
import sys
t = open(sys.argv[1]).read()
sig = 'int ikSolve2(vec2 p, float r1, float r2, float bend, bool stretch, float soften, out vec2 x, out vec2 end)'
once = sig.replace('ikSolve2(', 'ikSolve2_once(')
assert t.count(sig) == 1
t = t.replace(sig, once + ';\n' + sig + '\n{\n    int st = 0;\n    for (int i = 0; i < 40; i++) {\n'
              '        st = ikSolve2_once(p, r1, r2, bend, stretch, soften, x, end);\n        p += x * 1e-30;\n    }\n'
              '    return st;\n}\n' + once)
open(sys.argv[2], 'w').write(t)
PY
interrupt INT 2 "$bin" check --cases 10000000 --solver "$tmp/slow.glsl"
expect_interrupted "check with a slow solver, SIGINT during the GPU's batch" 130
interrupt TERM 2 "$bin" check --cases 10000000 --solver "$tmp/slow.glsl" --json
expect_interrupted "check --json with a slow solver, SIGTERM" 143

expect_fail "missing solver file" 1 "--solver /nonexistent.glsl: No such file" "$bin" check --solver /nonexistent.glsl
# a --solver that is no regular file: refused at once, naming the option (an fopen of a FIFO waited
# for a writer forever; `timeout` makes that a failure here instead of a hang)
mkfifo "$tmp/fifo.glsl"; mkdir "$tmp/dir.glsl"
expect_fail "a FIFO as --solver" 1 "^ikshade check: --solver $tmp/fifo.glsl: a FIFO \(named pipe\), not a regular file\$" \
  timeout 20 "$bin" check --cases 10 --solver "$tmp/fifo.glsl"
expect_fail "a directory as --solver" 1 "^ikshade check: --solver $tmp/dir.glsl: a directory, not a file\$" \
  timeout 60 "$bin" check --cases 10 --solver "$tmp/dir.glsl"
expect_fail "a device as --solver" 1 "^ikshade check: --solver /dev/zero: a device, not a regular file\$" \
  timeout 60 "$bin" check --cases 10 --solver /dev/zero
# a verdict that cannot be written is no pass
expect_fail "check > /dev/full: the write's error, exit 1" 1 "^ikshade check: stdout: No space left on device\$" \
  sh -c "timeout 60 '$bin' check --cases 1000 > /dev/full"
expect_fail "bad --cases" 2 "--cases 'lots'" "$bin" check --cases lots
expect_fail "negative --cases" 2 "--cases '-5'" "$bin" check --cases -5
expect_fail "unknown option" 2 "unknown option '--fast'" "$bin" check --fast
finish
