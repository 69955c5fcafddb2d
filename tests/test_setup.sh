#!/usr/bin/env bash
# test_setup.sh SRC: the set-up scripts. deps.sh has two sets (building and running; the test tools on
# top), each a list of real Debian packages; with all installed it says nothing; without root or sudo
# it names the one apt-get line to run. quietly.sh (make run's build) prints one line on success and
# the whole log on failure, keeping the exit status. The Makefile wires make run to the first set and
# the quiet build, make test to the second.
set -u
src=$(cd "$1" && pwd)
. "$src/tests/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
deps=$src/scripts/deps.sh

build_set=$(bash "$deps" --list-build | tr '\n' ' ')
test_set=$(bash "$deps" --list-test | tr '\n' ' ')
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
expect_fail "deps.sh with an unknown set" 2 "deps.sh: 'nope': expected build or test" bash "$deps" nope

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
# the WebGL2 harness's tools without the npm registry: one line that says what the test needs and why
if command -v npm >/dev/null; then
  out=$(npm_config_registry=http://127.0.0.1:9/ npm_config_fetch_retries=0 npm_config_cache="$tmp/npmcache" \
        bash "$src/tests/webgl/install.sh" "$src/tests/webgl" "$tmp/hw" 2>&1); rc=$?
  check_eq "webgl/install.sh without a registry: exit 1" 1 "$rc"
  check "... its first line says what it needs and why: $(head -n 1 <<<"$out")" \
    grep -q "^FAIL: this test needs npm's puppeteer-core (test tooling) from the npm registry: the npm registry (http://127.0.0.1:9/) cannot be reached$" <<<"$(head -n 1 <<<"$out")"
else
  fail=$((fail + 1)); echo "FAIL: npm is not installed (scripts/deps.sh test installs it)" >&2
fi
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
finish
