#!/usr/bin/env bash
# install.sh SRC_DIR DEST_DIR: the harness's scripts and npm's puppeteer-core (test tooling only, from
# the lock file) in DEST_DIR, where node finds them. Tests that run at once share it: flock.
set -u
src=$1 dest=$2
mkdir -p "$dest"
exec 9>"$dest/.install.lock"
flock 9
cp "$src"/{package.json,package-lock.json,render.mjs,site.js,analyser.mjs,playback.mjs} "$dest"/
if ! [ -f "$dest/node_modules/puppeteer-core/package.json" ] ||
   ! cmp -s "$src/package-lock.json" "$dest/node_modules/.ikshade-lock"; then
  if ! (cd "$dest" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >npm.log 2>&1); then
    # one line that says what the test needs, then npm's own words
    reg=$(cd "$dest" && npm config get registry 2>/dev/null)
    if grep -qE 'SELF_SIGNED_CERT|UNABLE_TO_(GET|VERIFY)|CERT_|certificate' "$dest/npm.log"; then
      why="the npm registry ($reg) is behind a TLS certificate npm does not trust (an intercepting proxy?): set npm's cafile, see README"
    elif grep -qE 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH|network' "$dest/npm.log"; then
      why="the npm registry ($reg) cannot be reached"
    else why="npm ci failed"; fi
    echo "FAIL: this test needs npm's puppeteer-core (test tooling) from the npm registry: $why (make test SKIP=npm runs every other test)" >&2
    tail -5 "$dest/npm.log" | sed 's/^/  npm: /' >&2; exit 1
  fi
  cp "$src/package-lock.json" "$dest/node_modules/.ikshade-lock"
fi
command -v chromium >/dev/null || { echo "FAIL: chromium is not installed (scripts/deps.sh installs it)" >&2; exit 1; }
