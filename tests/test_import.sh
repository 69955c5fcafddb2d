#!/usr/bin/env bash
# test_import.sh IKSHADE SRC: `ikshade import` against a stand-in for shadertoy.com's API on 127.0.0.1
# (tests/import/server.py serving the recorded answers in tests/import/api/, the textures made here).
# The site itself is never contacted. Each import is read back: the files byte for byte against what
# was served, and the imported toy rendered and its pixels checked; each failure gives its exit code
# and one line, and leaves the output directory as it was.
set -u
bin=$(readlink -f "$1") src=$(cd "$2" && pwd)
. "$src/lib.sh"
png() { python3 "$src/png.py" "$@"; }
tmp=$(mktemp -d); srv=
trap '[ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp"
unset SHADERTOY_KEY IKSHADE_SHADERTOY_URL

# ---- the server's files: the recorded answers, and textures drawn by ikshade itself ----
cp -r "$src/import" root
mkdir -p root/media/a
TEX=0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9.png
CUBE=94284d43be78f00eb6b298e6d78656a1b34e2b91b34940d02f1ca8b22310e8a0
solid() { # RED FILE: an 8x8 PNG of red RED
  printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(%s.0 / 255.0, 0.0, 0.0, 1.0); }\n' "$1" > solid.frag
  "$bin" render solid.frag -o "$2" --size 8x8 --quiet
}
solid 200 "root/media/a/$TEX"
solid 10 "root/media/a/$CUBE.png"
for k in 1 2 3 4 5; do solid $((10 * (k + 1))) "root/media/a/${CUBE}_$k.png"; done
# tstMus's music: a 1 kHz tone made here
MP3=3c33c415862bb7964d256f4749408247da6596f2167dca2c86cc38f83c244aa6.mp3
ffmpeg -nostdin -v error -f lavfi -i "sine=frequency=1000:duration=2" -ac 2 "root/media/a/$MP3"

python3 root/server.py root requests.log > port.txt & srv=$!
for _ in $(seq 100); do [ -s port.txt ] && break; sleep 0.1; done
port=$(head -n 1 port.txt)
check "the test server started (port '$port')" test -n "$port"
base=http://127.0.0.1:$port
export IKSHADE_SHADERTOY_URL=$base
body() { tail -n +2 "root/api/$1.http"; } # what the server sends for ID
# variant ID PYTHON: serves tstOne's answer as ID, changed by PYTHON (d: the JSON; ins: the inputs of
# the pass that reads the texture, ins[0] the texture)
variant() {
  python3 - "$tmp/root/api" "$1" "$2" <<'P'
import json, sys
api, new, change = sys.argv[1:]
d = json.loads(open(api + '/tstOne.http').read().split('\n', 1)[1])
ins = d['Shader']['renderpass'][1]['inputs']
exec(change)
open('%s/%s.http' % (api, new), 'w').write('200 application/json\n' + json.dumps(d))
P
}

# ---- a multipass shader with a texture: JSON and texture byte for byte, then rendered ----
out=$("$bin" import tstOne -o toys --key testkey 2>err.txt); rc=$?
check_eq "import tstOne: exit 0" "0" "$rc$( [ $rc = 0 ] || cat err.txt)"
check "the JSON is the API's answer, byte for byte" cmp toys/tstOne.json <(body tstOne)
check "the texture is the served file, byte for byte" cmp "toys/$TEX" "root/media/a/$TEX"
check_eq "toys/ holds the JSON and its texture, nothing else" "$TEX tstOne.json" "$(ls -A toys | tr '\n' ' ' | sed 's/ $//')"
check "the summary names the file, the shader's name and the count" \
  grep -q "^toys/tstOne.json (\"Feedback and a texture\"): 1 media file, " <<<"$out"
check_eq "nothing on stderr (progress is for terminals)" "" "$(cat err.txt)"
check "the key was sent with the API request" grep -q "^/api/v1/shaders/tstOne key=ok" requests.log
check "the key is in no message" bash -c '! grep -q testkey "$1" && ! grep -q testkey <<<"$2"' _ err.txt "$out"
# rendered from another directory: Buffer A counts frames (feedback), Image shows the texture's red
mkdir elsewhere
(cd elsewhere && "$bin" render ../toys/tstOne.json -o f/%d.png --frames 3 --size 4x4 --quiet)
check_eq "the imported toy renders: texture red 200, Buffer A's count 3 at frame 2, blue 255" \
  "200 3 255" "$(png pixel elsewhere/f/2.png 1 1 2>&1)"

# ---- by URL, a cubemap: its six faces fetched, the -x face drawn ----
out=$("$bin" import "https://www.shadertoy.com/view/tstCub?ref=x" -o toys --key testkey --quiet 2>&1); rc=$?
check_eq "import by URL: exit 0, nothing printed with --quiet" "0:" "$rc:$out"
for f in "$CUBE.png" "${CUBE}_1.png" "${CUBE}_5.png"; do
  check "cubemap face $f fetched" cmp "toys/$f" "root/media/a/$f"
done
check_eq "toys/ now holds both shaders and all 7 files" "9" "$(ls -A toys | wc -l)"
check "the first import is still there" cmp toys/tstOne.json <(body tstOne)
"$bin" render toys/tstCub.json -o cube.png --size 2x2 --quiet
check_eq "the cubemap toy draws its -x face (red 20)" "20 0 0" "$(png pixel cube.png 0 0 2>&1)"

# ---- inputs ikshade does not run are not fetched, with a warning ----
"$bin" import tstMus -o mus --key testkey > out.txt 2> err.txt; rc=$?
check_eq "music and webcam: exit 0" 0 "$rc"
check "... a warning counts what was not fetched (the webcam)" grep -q "warning: tstMus.json: 1 input (a webcam, microphone or music stream) not fetched" err.txt
check "... in the command line's words: --missing-media black runs it" grep -q "(--missing-media black runs the toy without them)" err.txt
check "... 1 media file" grep -q ": 1 media file" out.txt
check_eq "... the JSON and the music" "$MP3 tstMus.json" "$(ls -A mus | tr '\n' ' ' | sed 's/ $//')"
check "... the music byte for byte" cmp "mus/$MP3" "root/media/a/$MP3"
check "... and the imported toy runs, its webcam black" "$bin" render mus/tstMus.json -o mus.png --size 8x8 --quiet --missing-media=black

# ---- the key from $SHADERTOY_KEY; an existing directory keeps its other files; the JSON is replaced ----
mkdir keep && echo mine > keep/notes.txt && echo old > keep/tstOne.json
check "the key from SHADERTOY_KEY" env SHADERTOY_KEY=testkey "$bin" import tstOne -o keep --quiet
check "the user's other file is untouched" grep -qx mine keep/notes.txt
check "an older tstOne.json is replaced" cmp keep/tstOne.json <(body tstOne)
check_eq "no temporary left in keep/" "$TEX notes.txt tstOne.json" "$(ls -A keep | tr '\n' ' ' | sed 's/ $//')"

# ---- a name holding a newline (and an escape): the summary stays one line ----
variant tstNln 'd["Shader"]["info"]["name"] = "Two\nlines\x1b[31m"'
out=$("$bin" import tstNln -o nln --key testkey 2>err.txt); rc=$?
check_eq "a name with a newline: exit 0" "0" "$rc$( [ $rc = 0 ] || cat err.txt)"
check_eq "... the summary is one line" "1" "$(printf '%s\n' "$out" | wc -l)"
check "... the newline shown as \\n, the escape as \\x1b" \
  grep -qF 'nln/tstNln.json ("Two\nlines\x1b[31m"): 1 media file' <<<"$out"

# ---- failures: one line, the exit code, the output directory as it was ----
w=$tmp/w; mkdir -p "$w"; TIMEOUT=30
I=("$bin" import)
bad 2 "no API key: --key KEY or \\\$SHADERTOY_KEY" "${I[@]}" tstOne -o d
bad 2 "--key needs the API key" "${I[@]}" tstOne -o d --key
bad 2 "no output directory: -o DIR" "${I[@]}" tstOne --key testkey
bad 2 "no shader ID or URL given" "${I[@]}" -o d --key testkey
bad 2 "'ab/cd': no shader ID in it" "${I[@]}" ab/cd -o d --key testkey
bad 2 "'https://www.shadertoy.com/user/iq': no shader ID in it" "${I[@]}" https://www.shadertoy.com/user/iq -o d --key testkey
bad 2 "'x!': no shader ID in it" "${I[@]}" 'x!' -o d --key testkey
bad 2 "unknown option '--kye': did you mean '--key'" "${I[@]}" tstOne -o d --kye testkey
bad 2 "--base-url 'ftp://x': expected an http" "${I[@]}" tstOne -o d --key testkey --base-url ftp://x
bad 2 "one shader at a time" "${I[@]}" tstOne tstCub -o d --key testkey
bad 1 "the API says: Invalid key \\(check the API key\\)" "${I[@]}" tstOne -o d --key wrong
bad 1 "shader 'nosuch': not found by the API: no shader has this ID, or it is not published as \"public\\+api\"" \
  "${I[@]}" nosuch -o d --key testkey
# refused ID PATTERN: importing ID into d fails in one line matching PATTERN, leaving nothing
refused() { bad 1 "$2" "${I[@]}" "$1" -o d --key testkey; }
refused tst500 "/api/v1/shaders/tst500: HTTP 500 \\(the server failed"
refused tstHtm "/api/v1/shaders/tstHtm: HTTP 403 \\(the site refuses this client"
refused tstBad "/api/v1/shaders/tstBad: the answer is not JSON"
refused tstMis "/media/a/f{64}\\.png: HTTP 404 \\(a texture tstMis.json names\\)"
refused tstEvl "tstEvl.json: texture path '/media/a/\\.\\./\\.\\./\\.\\./etc/passwd.png' is not one of the site's /media/ paths"
refused tstNoi "tstNoi.json: no pass of type \"image\""
bad 1 "/api/v1/shaders/tstOne: HTTP 404 \\(not the shadertoy.com API here" "${I[@]}" tstOne -o d --key testkey \
  --base-url "$base/elsewhere"
# network down: a port nobody listens on (bound, then closed)
dead=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
bad 1 "http://127.0.0.1:$dead/api/v1/shaders/tstOne: .*(Couldn't connect|Failed to connect).*\\(no network, or the server is down\\?\\)" \
  "${I[@]}" tstOne -o d --key testkey --base-url "http://127.0.0.1:$dead"
# a server that does not answer: --timeout ends it
bad 1 "/api/v1/shaders/tstSlow: timed out after [0-9.]+ s: no answer in 1 s \\(the network or the server is too slow\\)" \
  "${I[@]}" tstSlow -o d --key testkey --timeout 1
# a server that answers two bytes a second, for ever, is as slow: it ends too, the API's answer or a
# texture (TIMEOUT 10: a regression fails its row as a hang, rather than holding the test)
TIMEOUT=10 bad 1 "/api/v1/shaders/tstDrip: timed out after [0-9.]+ s: less than 1 KiB/s for 1 s" \
  "${I[@]}" tstDrip -o d --key testkey --timeout 1
variant tstDrm 'ins[0]["filepath"] = "/media/drip/x.png"'
TIMEOUT=10 bad 1 "/media/drip/x\\.png: timed out after [0-9.]+ s: less than 1 KiB/s for 1 s" \
  "${I[@]}" tstDrm -o d --key testkey --timeout 1
# two textures with one file name cannot both lie beside the JSON
variant tstTwo 'ins.append(dict(ins[0], channel=3, filepath=ins[0]["filepath"].replace("/media/a/", "/media/b/")))'
mkdir -p root/media/b && cp "root/media/a/$TEX" root/media/b/
refused tstTwo "tstTwo.json: two media files named $TEX"
# media named as the JSON, or as each other where letter case does not count, or hidden as the
# import's temporaries are: each would be one file with another, refused before anything is fetched
variant tstJsn 'ins[0]["filepath"] = "/media/a/tstJsn.json"'
variant tstCas 'ins[0]["filepath"] = "/media/a/TSTCAS.JSON"'
variant tstTwc 'ins.append(dict(ins[0], channel=3, filepath="/media/b/" + ins[0]["filepath"].split("/")[-1].upper()))'
variant tstDot 'ins[0]["filepath"] = "/media/a/.ikshade-import-AAAAAA"'
for f in tstJsn.json TSTCAS.JSON .ikshade-import-AAAAAA; do cp "root/media/a/$TEX" "root/media/a/$f"; done
cp "root/media/a/$TEX" "root/media/b/${TEX^^}"
refused tstJsn "tstJsn.json: media file /media/a/tstJsn\\.json would have the JSON's own name: they cannot both lie in d\$"
refused tstCas "tstCas.json: media file /media/a/TSTCAS\\.JSON would have the JSON's own name \\(letter case aside\\)"
refused tstTwc "tstTwc.json: two media files named $TEX and ${TEX^^}, one name where letter case does not count"
refused tstDot "tstDot.json: media file /media/a/\\.ikshade-import-AAAAAA has a hidden name"
mkdir -p keep3 && echo mine > keep3/notes.txt
expect_fail "a texture named as the JSON, into an existing directory" 1 "would have the JSON's own name" \
  "$bin" import tstJsn -o keep3 --key testkey
check_eq "... keep3/ as it was" "notes.txt" "$(ls -A keep3)"
check "... the texture was not even fetched" bash -c '! grep -q "^/media/a/tstJsn.json " "$1"' _ requests.log
# media that are not what the JSON reads them as: an empty file, an HTML page served with 200 (as a
# texture, as music), a volume whose header does not fit its bytes; a real volume passes
variant tstEmp 'ins[0]["filepath"] = "/media/a/empty.png"'
variant tstHtl 'ins[0]["filepath"] = "/media/html/x.png"'
variant tstMht 'ins[0].update(type="music", filepath="/media/html/x.mp3")'
variant tstVbd 'ins[0].update(type="volume", filepath="/media/a/bad.bin")'
variant tstVok 'ins[0].update(type="volume", filepath="/media/a/ok.bin")'
variant tstPct 'ins[0]["filepath"] = "/media/a/cut.png"'
variant tstVsh 'ins[0].update(type="volume", filepath="/media/a/short.bin")'
: > root/media/a/empty.png
printf 'BIN\0\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377' > root/media/a/bad.bin
# 2x2x2, 1 channel of bytes: the 20-byte header, then 8 texels
printf 'BIN\0\2\0\0\0\2\0\0\0\2\0\0\0\1\0\0\0ABCDEFGH' > root/media/a/ok.bin
printf 'BIN\0\2\0\0\0\2\0\0\0\2\0\0\0\1\0\0\0ABCDEFG' > root/media/a/short.bin
# a PNG that starts right and stops: decoded by the loader's own decoder, not judged by its first bytes
head -c 60 "root/media/a/$TEX" > root/media/a/cut.png
refused tstEmp "/media/a/empty\\.png: empty \\(0 bytes\\), not a PNG or JPEG image \\(a texture tstEmp\\.json names\\)"
refused tstHtl "/media/html/x\\.png: an HTML page, not a PNG or JPEG image \\(a texture tstHtl\\.json names\\)"
refused tstMht "/media/html/x\\.mp3: an HTML page, not audio .* \\(a music file tstMht\\.json names\\)"
refused tstVbd "/media/a/bad\\.bin: not a volume: its header gives 255 channels in format 65535"
refused tstPct "/media/a/cut\\.png: not a PNG or JPEG image: corrupt PNG: .* \\(a texture tstPct\\.json names\\)"
refused tstVsh "/media/a/short\\.bin: not a volume: its header gives 2x2x2 texels of 1 channel, and 7 bytes follow it"
check "a volume as the site makes them is taken" "$bin" import tstVok -o vok --key testkey --quiet
check "... byte for byte" cmp vok/ok.bin root/media/a/ok.bin
# a '..' after a directory not there yet: refused before anything is made (new/ stayed behind)
bad 1 "new/\\.\\.: 'new' does not exist, so '\\.\\.' after it names no directory" "${I[@]}" tstOne -o new/.. --key testkey
bad 1 "new/\\.\\./x: 'new' does not exist, so '\\.\\.' after it names no directory" "${I[@]}" tstOne -o new/../x --key testkey
# new/. is new, as mkdir -p takes it (the gathered directory renamed onto new/. was EBUSY)
(cd "$w" && "$bin" import tstOne -o new/. --key testkey --quiet 2>&1); rc=$?
check_eq "-o new/.: exit 0" "0" "$rc"
check_eq "... new/ made, nothing beside it" "new" "$(ls -A "$w")"
check_eq "... new/ holds the JSON and its texture" "$TEX tstOne.json" "$(ls -A "$w/new" | tr '\n' ' ' | sed 's/ $//')"
rm -rf "${w:?}"/*
# Ctrl-C while waiting for the server: exit 130 at once, nothing left
"$bin" import tstSlow -o slow --key testkey 2>err.txt & pid=$!
sleep 1; kill -INT $pid; t0=$SECONDS; wait $pid; rc=$?
check_eq "Ctrl-C during a fetch: exit 130" 130 "$rc"
check "... within 3 s of the signal" [ $((SECONDS - t0)) -le 3 ]
check "... slow/ not made, no temporary beside it" bash -c '! ls -A | grep -q slow' _
# a failure with an existing directory leaves it as it was (no temporary, no partial toy)
mkdir -p keep2 && echo mine > keep2/notes.txt
expect_fail "a missing texture, into an existing directory" 1 "HTTP 404" "$bin" import tstMis -o keep2 --key testkey
check_eq "... keep2/ as it was" "notes.txt" "$(ls -A keep2)"
echo x > afile
expect_fail "-o names a file" 1 "afile: not a directory" "$bin" import tstOne -o afile --key testkey
check_eq "... the file as it was" "x" "$(cat afile)"
# nested output directories are made; the parents of one that failed are the only trace
check "import into a/b/c (parents made)" "$bin" import tstOne -o a/b/c --key testkey --quiet
check "... a/b/c/tstOne.json" cmp a/b/c/tstOne.json <(body tstOne)

echo "rows: $rows"
finish
