#!/usr/bin/env bash
# test_locale.sh TEST_LOCALE: the library in a decimal-comma host (test_locale.c). The locale is made
# here from Debian's locale sources (the locales package) into a directory of the test's own, as a user
# of such a locale has it installed, and a short video (ffmpeg) feeds the video channel's case.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# localedef writes the compiled locale under its name into LOCPATH's directory
if ! localedef -i de_DE -f UTF-8 "$tmp/de_DE.UTF-8" > "$tmp/localedef.log" 2>&1; then
  echo "FAIL: localedef -i de_DE -f UTF-8 (Debian's locales package): $(tail -n 2 "$tmp/localedef.log")"; exit 1
fi
if ! ffmpeg -v error -f lavfi -i "testsrc=size=64x36:rate=30:duration=2" -pix_fmt yuv420p -y "$tmp/clip.mp4" 2> "$tmp/ffmpeg.log"; then
  echo "FAIL: ffmpeg made no clip: $(tail -n 2 "$tmp/ffmpeg.log")"; exit 1
fi
LOCPATH=$tmp "$bin" de_DE.UTF-8 "$tmp/clip.mp4"
