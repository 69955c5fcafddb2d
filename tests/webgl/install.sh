#!/usr/bin/env bash
# install.sh SRC_DIR DEST_DIR: the harness's scripts and npm's puppeteer-core (test tooling only, from
# the lock file) in DEST_DIR, where node finds them. Tests that run at once share it: flock.
set -u
src=$1 dest=$2
mkdir -p "$dest"
exec 9>"$dest/.install.lock"
flock 9
cp "$src"/{package.json,package-lock.json,render.mjs,site.js,analyser.mjs} "$dest"/
if ! [ -f "$dest/node_modules/puppeteer-core/package.json" ] ||
   ! cmp -s "$src/package-lock.json" "$dest/node_modules/.ikshade-lock"; then
  if ! (cd "$dest" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >npm.log 2>&1); then
    echo "FAIL: npm ci of the WebGL harness's tools failed:" >&2; tail -5 "$dest/npm.log" >&2; exit 1
  fi
  cp "$src/package-lock.json" "$dest/node_modules/.ikshade-lock"
fi
command -v chromium >/dev/null || { echo "FAIL: chromium is not installed (scripts/deps.sh installs it)" >&2; exit 1; }
