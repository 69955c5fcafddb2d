#!/usr/bin/env bash
# Installs the Debian packages ikshade needs to build, test and run, and only those that are missing:
# apt-get as root, sudo otherwise; without either, one line naming what to install, and exit 1.
set -euo pipefail
PKGS=(cmake make gcc pkg-config python3-glad libglfw3-dev libasound2-dev libstb-dev libdeflate-dev libpng-dev libcjson-dev
      libopenexr-dev libisal-dev libegl-dev libegl-mesa0 libgl1-mesa-dri xvfb xauth xdotool x11-apps clang libclang-rt-14-dev
      python3-numpy python3-pil python3-yaml ffmpeg openexr chromium glslang-tools parallel slurm-wlm munge)
missing=()
for p in "${PKGS[@]}"; do
  st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$st" = installed ] || missing+=("$p")
done
# node and npm by command: a machine may have them from another source than Debian's packages (whose npm
# then conflicts); the WebGL2 harness needs both, and npm's puppeteer-core, which the test installs
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}" >&2
if [ "$(id -u)" = 0 ]; then SUDO=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=(sudo -n)
else
  echo "deps: missing Debian packages; run: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# a fresh machine has no package lists yet; refresh them when they are absent or the install fails
if ! ls /var/lib/apt/lists/*_Packages >/dev/null 2>&1; then "${SUDO[@]}" apt-get update -qq; fi
if ! "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
