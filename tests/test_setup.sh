#!/usr/bin/env bash
# test_setup.sh SRC: the set-up scripts. deps.sh has three sets (building and running; the fast tier's
# few Python packages; the whole suite's tools), each a list of real Debian packages; with all installed
# it says nothing; its summary counts every package apt installed; without root or sudo it names the
# one apt-get line to run. quietly.sh (make run's build) prints one line on success and the whole log
# on failure, keeping the exit status. The Makefile wires make run to the first set and the quiet
# build, make check to the second, make test to the third; make test runs every tier to its end and
# names every failure, and SKIP=LABELS leaves tests out of both builds saying which.
# test_setup.sh SRC npm: only the WebGL2 harness's npm installer without a registry (test setup.npm,
# which needs npm: the fast tier's set has none).
set -u
src=$(cd "$1" && pwd)
. "$src/tests/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ "${2:-}" = npm ]; then
  # the WebGL2 harness's tools without the npm registry: one line that says what the test needs and why
  if command -v npm >/dev/null; then
    out=$(npm_config_registry=http://127.0.0.1:9/ npm_config_fetch_retries=0 npm_config_cache="$tmp/npmcache" \
          bash "$src/tests/webgl/install.sh" "$src/tests/webgl" "$tmp/hw" 2>&1); rc=$?
    check_eq "webgl/install.sh without a registry: exit 1" 1 "$rc"
    check "... its first line says what it needs and why: $(head -n 1 <<<"$out")" \
      grep -q "^FAIL: this test needs npm's puppeteer-core (test tooling) from the npm registry: the npm registry (http://127.0.0.1:9/) cannot be reached (make test SKIP=npm runs every other test)$" <<<"$(head -n 1 <<<"$out")"
  else
    fail=$((fail + 1)); echo "FAIL: npm is not installed (scripts/deps.sh test installs it)" >&2
  fi
  finish; exit
fi
deps=$src/scripts/deps.sh

build_set=$(bash "$deps" --list-build | tr '\n' ' ')
check_set=$(bash "$deps" --list-check | tr '\n' ' ')
test_set=$(bash "$deps" --list-test | tr '\n' ' ')
# make check's set is the build set and a few Python packages: none of the suite's big tools
for p in python3-numpy python3-pil python3-venv python3-setuptools python3-wheel locales; do
  check "the check set has $p, the build set does not" bash -c '[[ " $1" == *" $3 "* && " $2" != *" $3 "* ]]' _ "$check_set" "$build_set" "$p"
done
for p in $check_set; do
  check "the test set has the check set's $p" bash -c '[[ " $1" == *" $2 "* ]]' _ "$test_set" "$p"
done
for p in xvfb xdotool clang ffmpeg chromium slurm-wlm munge nodejs npm; do
  check "the check set has no $p" bash -c '[[ " $1" != *" $2 "* ]]' _ "$check_set" "$p"
done
for p in xvfb xdotool x11-apps clang libclang-rt-14-dev ffmpeg openexr; do
  check "the test set has $p, the build set does not" bash -c '[[ " $1" == *" $3 "* && " $2" != *" $3 "* ]]' _ "$test_set" "$build_set" "$p"
done
for p in cmake gcc libglfw3-dev libcurl4-openssl-dev help2man libegl-mesa0 libgl1-mesa-dri dpkg-dev; do
  check "the build set has $p" bash -c '[[ " $1" == *" $2 "* ]]' _ "$build_set" "$p"
done
# every name is a package Debian has (apt's lists on this machine)
known=$(apt-cache show --no-all-versions $build_set $test_set 2>/dev/null | sed -n 's/^Package: //p' | sort -u | tr '\n' ' ')
for p in $build_set $test_set; do
  check "Debian has a package '$p'" bash -c '[[ " $1" == *" $2 "* ]]' _ "$known" "$p"
done
# what the build links against comes from the build set: every pkg-config module CMakeLists.txt asks for
for m in $(sed -n 's/.*pkg_check_modules([A-Z]* REQUIRED IMPORTED_TARGET \([a-zA-Z0-9_-]*\)).*/\1/p' "$src/CMakeLists.txt"); do
  pc=$(pkg-config --path "$m" 2>/dev/null)
  owner=$( [ -n "$pc" ] && dpkg -S "$(readlink -f "$pc")" 2>/dev/null | cut -d: -f1 | head -n 1)
  check "pkg-config module $m comes from a package of the build set ($owner)" \
    bash -c '[ -n "$2" ] && [[ " $1" == *" $2 "* ]]' _ "$build_set" "$owner"
done
expect_fail "deps.sh with an unknown set" 2 "deps.sh: 'nope': expected build, check or test" bash "$deps" nope

# all installed: silent
out=$(bash "$deps" build 2>&1); rc=$?
check_eq "deps.sh build with everything installed: exit 0 and no output" "0:" "$rc:$out"
# missing, with neither root nor sudo: the one line to run (a copy of the script with one package
# Debian does not have added to the build set, run as an unprivileged user)
sed 's/^BUILD_PKGS=(cmake /BUILD_PKGS=(ikshade-no-such-package cmake /' "$deps" > "$tmp/deps.sh"
chmod 755 "$tmp" "$tmp/deps.sh"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  expect_fail "missing packages, no root, no sudo: one line to run" 1 \
    "^deps: missing Debian packages; run: sudo apt-get install ikshade-no-such-package$" \
    setpriv --reuid=nobody --regid=nogroup --clear-groups env PATH=/usr/bin:/bin bash "$tmp/deps.sh" build
elif [ "$(id -u)" != 0 ] && ! sudo -n true 2>/dev/null; then
  expect_fail "missing packages, no root, no sudo: one line to run" 1 \
    "^deps: missing Debian packages; run: sudo apt-get install ikshade-no-such-package$" bash "$tmp/deps.sh" build
else
  echo "note: cannot run deps.sh without root and sudo here; its no-privilege path was not tested" >&2
fi

# quietly.sh
q=$src/scripts/quietly.sh
out=$(bash "$q" "$tmp/logs/ok.log" "build thing" sh -c 'echo compiling a; echo compiling b >&2' 2>&1); rc=$?
check_eq "quietly.sh: success is exit 0" 0 "$rc"
check "... and one line: 'build thing: ok in N s (log: ...)'" \
  bash -c '[ "$(grep -c . <<<"$1")" = 1 ] && grep -qE "^build thing: ok in [0-9]+ s \(log: $2\)$" <<<"$1"' _ "$out" "$tmp/logs/ok.log"
check_eq "... the log keeps both streams" "compiling a compiling b" "$(tr '\n' ' ' < "$tmp/logs/ok.log" | sed 's/ $//')"
out=$(bash "$q" "$tmp/logs/bad.log" "build thing" sh -c 'echo step 1; echo "x.c:3: error: boom" >&2; exit 3' 2>&1); rc=$?
check_eq "quietly.sh: a failure keeps its exit status" 3 "$rc"
check "... shows the whole log" bash -c 'grep -q "^step 1$" <<<"$1" && grep -q "x.c:3: error: boom" <<<"$1"' _ "$out"
check "... and says it failed, naming the log" grep -q "^build thing: failed (exit 3); the log above is also in $tmp/logs/bad.log$" <<<"$out"

# the Makefile's wiring (its recipes as make -n prints them; nothing is run)
mrun=$(make -s -n -C "$src" run BUILD="$tmp/b" 2>&1)
check "make run installs the build set only" bash -c 'grep -q "scripts/deps.sh build" <<<"$1" && ! grep -q "deps.sh test" <<<"$1"' _ "$mrun"
check "make run builds through quietly.sh" grep -q "scripts/quietly.sh" <<<"$mrun"
check "make test-fast installs the test set" grep -q "scripts/deps.sh test" <<<"$(make -s -n -C "$src" test-fast BUILD="$tmp/b" 2>&1)"
mcheck=$(make -s -n -C "$src" check BUILD="$tmp/b" 2>&1)
check "make check installs the check set only" bash -c 'grep -q "scripts/deps.sh check" <<<"$1" && ! grep -q "deps.sh test" <<<"$1"' _ "$mcheck"
check "make check runs unit and gpu, without slow or media (ffmpeg) tests" grep -qF "ctest.sh $tmp/b check -L 'unit|gpu' -LE 'slow|media'" <<<"$mcheck"
# make test: its four tiers through tiers.sh; SKIP=npm gives both builds' ctest -LE npm, and no SKIP none
check "make test runs the four tiers through tiers.sh" \
  grep -q "scripts/tiers.sh test-fast test-asan test-fuzz test-slurm" <<<"$(make -s -n -C "$src" test BUILD="$tmp/b" 2>&1)"
for t in test-fast test-asan; do
  check "make $t SKIP=npm: ctest.sh ... -LE 'npm'" grep -qE "scripts/ctest.sh [^ ]+ test -LE 'npm'$" <<<"$(make -s -n -C "$src" $t SKIP=npm BUILD="$tmp/b" ASAN_BUILD="$tmp/a" 2>&1)"
  check "make $t: no -LE" bash -c '! grep -q -- "-LE" <<<"$1"' _ "$(make -s -n -C "$src" $t BUILD="$tmp/b" ASAN_BUILD="$tmp/a" 2>&1)"
done
check "CI runs make test with SKIP empty (the whole suite, whatever its environment)" grep -qE "^make test SKIP= " "$src/.ci/run"
# scripts/ctest.sh: a test's standard input is /dev/null whatever ctest's is (here a pipe nobody closes,
# as a terminal would be: `cat` would wait for ever), and a failing test is named with its FAIL lines
# and its last lines
ct=$tmp/ct && mkdir -p "$ct"
cat > "$ct/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(t NONE)
enable_testing()
add_test(NAME reads.stdin COMMAND sh -c "cat >/dev/null && echo stdin-ended")
add_test(NAME fails COMMAND sh -c "echo 'FAIL: the early reason'; for i in $(seq 1 60); do echo filler $i; done; echo the-last-line; exit 3")
CM
cmake -S "$ct" -B "$ct/b" >/dev/null 2>&1
mkfifo "$tmp/never"
sleep 1000 > "$tmp/never" & holder=$!
out=$(timeout 60 "$src/scripts/ctest.sh" "$ct/b" t < "$tmp/never" 2>&1); rc=$?
kill $holder 2>/dev/null
check "ctest.sh: exit non-zero when a test fails (rc $rc; 124 would be a hang on stdin)" bash -c '[ "$1" -ne 0 ] && [ "$1" -ne 124 ]' _ "$rc"
check "... the test that reads stdin passed (it got /dev/null)" grep -q "reads.stdin .*Passed" <<<"$out"
check "... the failing test is named" grep -q "^== fails: " <<<"$out"
check "... with its FAIL line from early on" grep -q "FAIL: the early reason" <<<"$out"
check "... and its last line" grep -q "the-last-line" <<<"$out"
check "... its whole output kept in BUILD/logs" grep -q "filler 1$" "$ct/b/logs/t.log"

# ctest.sh -LE: the tests left out are named in one line before the run, and are not run
cat >> "$ct/CMakeLists.txt" <<'CM'
add_test(NAME needs.registry COMMAND sh -c "exit 1")
set_tests_properties(needs.registry PROPERTIES LABELS npm)
add_test(NAME plain.ok COMMAND true)
CM
cmake -S "$ct" -B "$ct/b" >/dev/null 2>&1
out=$(timeout 60 "$src/scripts/ctest.sh" "$ct/b" t -R 'needs|plain' -LE npm 2>&1); rc=$?
check_eq "ctest.sh -LE npm: exit 0 (the npm-labelled failing test left out)" 0 "$rc"
check "... one line names what it left out: $(grep 'left out' <<<"$out")" \
  grep -qx "t: left out 1 test(s) labelled 'npm': needs.registry" <<<"$out"
check "... and the rest ran" grep -q "plain.ok .*Passed" <<<"$out"

# tiers.sh (make test): every tier runs after one fails; the end names every failure of every tier, and
# the exit status is 1. The tiers here are two ctest runs with a failing test each (through ctest.sh),
# a passing tier between them, and a tier that fails without ctest.
cat > "$tmp/Tiers.mk" <<MK
one:
	@"$src/scripts/ctest.sh" "$ct/b" one -R '^fails\$\$'
two:
	@echo tier two ran
three:
	@"$src/scripts/ctest.sh" "$ct/b" three -R 'needs|plain'
four:
	@echo "FAIL: the fourth tier's own check" >&2; exit 3
MK
out=$(cd "$tmp" && MAKE="make -f $tmp/Tiers.mk" TIERS_LOGS="$tmp/tl" timeout 120 bash "$src/scripts/tiers.sh" one two three four 2>&1); rc=$?
check_eq "tiers.sh with failing tiers: exit 1" 1 "$rc"
check "... the tiers after a failing one ran" bash -c 'grep -q "^tier two ran$" <<<"$1" && grep -q "plain.ok .*Passed" <<<"$1" && grep -q "fourth tier" <<<"$1"' _ "$out"
summary=$(sed -n '/^make test: /,$p' <<<"$out")
check "... the end says 3 of 4 tiers failed: $(head -n 1 <<<"$summary")" grep -q "^make test: 3 of 4 tiers failed" <<<"$summary"
check "... and names tier one's failing test" grep -q "^  one: failed (exit [0-9]*): fails (their output: $ct/b/logs/one.log)$" <<<"$summary"
check "... tier two passed" grep -qx "  two: passed" <<<"$summary"
check "... tier three's failing test" grep -q "^  three: failed (exit [0-9]*): needs.registry " <<<"$summary"
check "... tier four's FAIL line" bash -c 'grep -q "^  four: failed (exit 2)" <<<"$1" && grep -q "^    FAIL: the fourth tier.s own check$" <<<"$1"' _ "$summary"
check "... each tier's output kept in TIERS_LOGS" grep -q "tier two ran" "$tmp/tl/two.log"
out=$(cd "$tmp" && MAKE="make -f $tmp/Tiers.mk" TIERS_LOGS="$tmp/tl" bash "$src/scripts/tiers.sh" two 2>&1); rc=$?
check_eq "tiers.sh with every tier passing: exit 0, and says so" "0 make test: all 1 tiers passed (two)" "$rc $(tail -n 1 <<<"$out")"

# deps.sh's summary counts what apt installed, not what it named: apt-get and dpkg-query stand-ins on
# PATH (as root: deps.sh calls apt-get itself), where installing the two missing packages pulls in three
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$tmp/stub"
  printf '%s\n' $build_set | grep -v '^cmake$\|^help2man$' > "$tmp/stub/state"
  cat > "$tmp/stub/dpkg-query" <<'ST'
#!/bin/bash
# dpkg-query -W -f=FMT [PKG]: the stand-in's state file as dpkg's database
st=$(dirname "$0")/state
pkg=${3:-}
if [ -n "$pkg" ]; then grep -qx "$pkg" "$st" && printf installed; exit 0; fi
sed 's/.*/installed &:amd64/' "$st"
ST
  cat > "$tmp/stub/apt-get" <<'ST'
#!/bin/bash
# apt-get ... install PKG...: each named package and, for the first, three it depends on
st=$(dirname "$0")/state
for a; do shift; [ "$a" = install ] && break; done
[ $# -gt 0 ] || exit 0
printf '%s\n' "$@" dep-one dep-two dep-three >> "$st"
ST
  chmod +x "$tmp/stub/dpkg-query" "$tmp/stub/apt-get"
  out=$(PATH="$tmp/stub:$PATH" bash "$deps" build 2>&1); rc=$?
  check_eq "deps.sh build, two missing, apt adding three more: exit 0" 0 "$rc"
  check "... its one line counts 5 ($out)" \
    grep -qxE "deps: installed 5 Debian package\(s\) in [0-9]+ s: the 2 missing of the build set \(cmake help2man\) and 3 they depend on" <<<"$out"
else
  echo "note: deps.sh's count was not tested (its stand-in apt-get is called directly only as root)" >&2
fi
finish
