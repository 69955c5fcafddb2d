#!/usr/bin/env bash
# deps.sh [build|check|test]: installs the Debian packages ikshade needs, and only those that are missing.
#   build  what building and running need (make build, make run, make install, make deb)
#   check  that, and the few Python packages and locale tools the fast tier's tests use (make check)
#   test   that, and the tools the whole suite uses (make test): Xvfb and xdotool for the viewer, clang
#          for the fuzzers, ffmpeg and OpenEXR's tools to read outputs back, Chromium, Node, Slurm, ...
# apt-get as root, sudo otherwise; without either, one line naming what to install, and exit 1.
# Quiet: one summary line when it installs something, counting every package apt installed (those
# named and what they pulled in); apt's whole log only when it fails.
set -euo pipefail
# glslang-tools: render and view check shaders as the site's GLSL ES 3.00 with it (a feature, not a test)
# libx11-dev: the viewer ends a recording properly when the X server goes away (Xlib's IO error hook)
# libjpeg62-turbo-dev: JPEG textures and .jpg output; libwebp-dev: animated .webp output
BUILD_PKGS=(cmake make gcc pkg-config python3-glad libglfw3-dev libx11-dev libstb-dev libdeflate-dev libpng-dev libjpeg62-turbo-dev
            libwebp-dev libcjson-dev libopenexr-dev libisal-dev libegl-dev libegl-mesa0 libgl1-mesa-dri libcurl4-openssl-dev
            help2man dpkg-dev file libasound2-dev glslang-tools)
# the fast tier (make check: ctest -L 'unit|gpu' -LE 'slow|media'): PIL and numpy read outputs back,
# python.package installs the Python package into a venv offline (venv, setuptools, wheel) and makes a
# decimal-comma locale (localedef, from locales)
CHECK_PKGS=(python3-numpy python3-pil python3-venv python3-setuptools python3-wheel locales)
# chromium: the WebGL2 harness; parallel, slurm-wlm, munge, python3-yaml: the scale-out tests; iproute2: the
# Slurm farm test's namespaced network (ip); procps: pgrep, the viewer's capture child (test_webcam.sh);
# pulseaudio, pulseaudio-utils: view.mic's own sound server, whose null sink's monitor is the microphone
# vlc-bin, vlc-plugin-base: VLC without its GUI (some 7 MB), playing joined films to their end (cli.playback_vlc)
TEST_PKGS=(xvfb xauth xdotool x11-apps clang libclang-rt-14-dev ffmpeg openexr git man-db
           bash-completion chromium python3-yaml parallel slurm-wlm munge iproute2 procps pulseaudio pulseaudio-utils
           vlc-bin vlc-plugin-base)
case "${1:-build}" in
  build) PKGS=("${BUILD_PKGS[@]}") ;;
  check) PKGS=("${BUILD_PKGS[@]}" "${CHECK_PKGS[@]}") ;;
  test) PKGS=("${BUILD_PKGS[@]}" "${CHECK_PKGS[@]}" "${TEST_PKGS[@]}") ;;
  --list-build) printf '%s\n' "${BUILD_PKGS[@]}"; exit 0 ;;
  --list-check) printf '%s\n' "${CHECK_PKGS[@]}"; exit 0 ;;
  --list-test) printf '%s\n' "${CHECK_PKGS[@]}" "${TEST_PKGS[@]}"; exit 0 ;;
  *) echo "deps.sh: '$1': expected build, check or test" >&2; exit 2 ;;
esac
missing=()
for p in "${PKGS[@]}"; do
  st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$st" = installed ] || missing+=("$p")
done
# node and npm by command: a machine may have them from another source than Debian's packages (whose npm
# then conflicts); the WebGL2 harness needs both, and npm's puppeteer-core, which the test installs
if [ "${1:-build}" = test ]; then
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ]; then SUDO=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=(sudo -n)
elif command -v sudo >/dev/null && [ -t 0 ] && [ -t 2 ]; then
  # a user at a terminal whose sudo asks for a password: ask once, saying what for
  echo "deps: installing ${missing[*]} with sudo" >&2
  sudo -v || { echo "deps: missing Debian packages; run: sudo apt-get install ${missing[*]}" >&2; exit 1; }
  SUDO=(sudo)
else
  echo "deps: missing Debian packages; run: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp); trap 'rm -f "$log"' EXIT
t0=$SECONDS
# what apt installs is counted from dpkg's own list, before and after: the packages named here are a
# few of those apt pulls in
installed() { dpkg-query -W -f='${db:Status-Status} ${Package}:${Architecture}\n' 2>/dev/null | sed -n 's/^installed //p' | sort; }
before=$(installed)
# A fresh machine has no package lists yet: refresh them when they are absent or the install fails.
# Another apt (unattended upgrades, a second make) may hold the lock: wait for it rather than fail.
apt=("${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=600 -y --no-install-recommends)
ok=true
{
  if ! ls /var/lib/apt/lists/*_Packages >/dev/null 2>&1; then "${apt[@]}" update; fi
  if ! "${apt[@]}" install "${missing[@]}"; then
    "${apt[@]}" update && "${apt[@]}" install "${missing[@]}"
  fi
} >"$log" 2>&1 || ok=false
if ! $ok; then
  cat "$log" >&2
  echo "deps: apt-get could not install: ${missing[*]} (its log is above)" >&2
  exit 1
fi
n=$(comm -13 <(printf '%s\n' "$before") <(installed) | grep -c . || true)
echo "deps: installed $n Debian package(s) in $((SECONDS - t0)) s: the ${#missing[@]} missing of the ${1:-build} set (${missing[*]}) and $((n - ${#missing[@]})) they depend on" >&2
