#!/usr/bin/env bash
# test_import.sh IKSHADE SRC [RACE]: `ikshade import` against a stand-in for shadertoy.com's API on 127.0.0.1
# (tests/import/server.py serving the recorded answers in tests/import/api/, the textures made here).
# The site itself is never contacted. Each import is read back: the files byte for byte against what
# was served, and the imported toy rendered and its pixels checked; each failure gives its exit code
# and one line, and leaves the output directory as it was.
set -u
bin=$(readlink -f "$1") src=$(cd "$2" && pwd) race=${3:+$(readlink -f "$3")}
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
# the summary shows the directory's name as messages do (issue 38): a newline or an escape sequence in
# it can neither forge a second line nor reach the terminal
odd=$(printf 'o\nforged \033]0;title\007')
out=$("$bin" import tstOne -o "$odd" --key testkey 2>&1); rc=$?
check_eq "import -o a directory with a newline and an escape in its name: exit 0" 0 "$rc"
check "... the JSON in it" cmp "$odd/tstOne.json" <(body tstOne)
check_eq "... the summary one line, naming it escaped ($out)" \
  'o\nforged \x1b]0;title\x07/tstOne.json ("Feedback and a texture"): 1 media file, ' "$(printf '%s' "$out" | grep -o '^.*media file, ')"
check_eq "... no control character in it" 0 "$(printf '%s' "$out" | LC_ALL=C grep -c '[[:cntrl:]]')"
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

# ---- the key from $SHADERTOY_KEY; an existing directory keeps its other files ----
mkdir keep && echo mine > keep/notes.txt
check "the key from SHADERTOY_KEY" env SHADERTOY_KEY=testkey "$bin" import tstOne -o keep --quiet
check "the user's other file is untouched" grep -qx mine keep/notes.txt
check_eq "no temporary left in keep/" "$TEX notes.txt tstOne.json" "$(ls -A keep | tr '\n' ' ' | sed 's/ $//')"

# ---- import never replaces a file: the same bytes are left as they are, other bytes refused ----
# files: the directory's names, inodes, times and bytes, to compare before and after
files() { (cd "$1" && for f in $(ls -A); do printf '%s %s %s\n' "$f" "$(stat -c %i.%Y "$f")" "$(cksum < "$f" 2>/dev/null)"; done); }
media_asked() { grep -c "^/media/" requests.log; } # how many media requests the server has seen
before=$(files keep)
check "importing the same shader again: exit 0 (its files are already there, the same bytes)" \
  "$bin" import tstOne -o keep --key testkey --quiet
check_eq "... not one file rewritten (the same inodes and times)" "$before" "$(files keep)"
# the user edited the JSON: refused before a single media request, nothing changed
printf "\n// my edit\n" >> keep/tstOne.json
before=$(files keep) m0=$(media_asked)
expect_fail "the user's edited JSON is not replaced" 1 \
  "^ikshade import: keep/tstOne\.json: already there: not replaced \(import into a new directory, or remove it\)\$" \
  "$bin" import tstOne -o keep --key testkey
check_eq "... keep/ as it was, byte for byte" "$before" "$(files keep)"
check "... the edit is still there" grep -qx "// my edit" keep/tstOne.json
check_eq "... no media file was even asked for" "$m0" "$(media_asked)"
# the user's own file under a medium's name: fetched, compared, refused; the JSON not written either
body tstOne > keep/tstOne.json && echo my-texture > "keep/$TEX"
before=$(files keep)
expect_fail "the user's file under a texture's name is not replaced" 1 \
  "^ikshade import: keep/$TEX: already there: not replaced \(import into a new directory, or remove it\)\$" \
  "$bin" import tstOne -o keep --key testkey
check_eq "... keep/ as it was, byte for byte, no temporary" "$before" "$(files keep)"
check "... the user's texture is theirs" grep -qx my-texture "keep/$TEX"
# several: the first named, the others counted; a directory under a medium's name is refused unread
rm "keep/$TEX" && mkdir "keep/$TEX" && echo "// mine" >> keep/tstOne.json
before=$(files keep)
expect_fail "a directory under a texture's name and an edited JSON" 1 \
  "^ikshade import: keep/$TEX: already there, and 1 other of the toy's files: not replaced \(import into a new directory, or remove them\)\$" \
  "$bin" import tstOne -o keep --key testkey
check_eq "... keep/ as it was" "$before" "$(files keep)"
# a medium the user deleted comes back; the JSON, the same bytes, is left as it is
rmdir "keep/$TEX" && body tstOne > keep/tstOne.json
json_was=$(stat -c %i.%Y keep/tstOne.json)
check "a deleted texture: imported again, exit 0" "$bin" import tstOne -o keep --key testkey --quiet
check "... the texture back, byte for byte" cmp "keep/$TEX" "root/media/a/$TEX"
check_eq "... the JSON not rewritten" "$json_was" "$(stat -c %i.%Y keep/tstOne.json)"
# a file of the user's that appears after the checks, just before the JSON's rename (RACE: an
# LD_PRELOAD module that makes it): claimed at the rename, not replaced; the texture already moved is
# taken back
if [ -n "$race" ]; then
  mkdir race && echo mine > race/notes.txt
  LD_PRELOAD=$race RACE_NAME=tstOne.json ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
    "$bin" import tstOne -o race --key testkey > out.txt 2> err.txt; rc=$?
  check_eq "a file appearing at the rename: exit 1" "1" "$rc"
  check "... said in one line" grep -qx "ikshade import: race/tstOne.json: already there: not replaced (import into a new directory, or remove it)" err.txt
  check_eq "... race/ holds the user's files alone (the texture taken back, no temporary)" "notes.txt tstOne.json" \
    "$(ls -A race | tr '\n' ' ' | sed 's/ $//')"
  check "... the late file is the user's" grep -qx user race/tstOne.json
else
  echo "note: no RACE module given: the rename-time race is not tested" >&2
fi
# a directory made while the import runs (a slow texture): claimed at the rename, not replaced. Made
# empty, it is the user's directory that receives the files (a plain rename replaces an empty one)...
variant tstSlm 'ins[0]["filepath"] = "/media/slow/'"$TEX"'"'
"$bin" import tstSlm -o late --key testkey --quiet 2>err.txt & pid=$!
sleep 0.5; mkdir late; ino=$(stat -c %i late); wait $pid; rc=$?
check_eq "a directory made during the import: exit 0" "0" "$rc$( [ $rc = 0 ] || cat err.txt)"
check_eq "... the same directory (not replaced)" "$ino" "$(stat -c %i late)"
check_eq "... holding the toy" "$TEX tstSlm.json" "$(ls -A late | tr '\n' ' ' | sed 's/ $//')"
# ... and made with a file under the texture's name, that file is not replaced, nor anything written
"$bin" import tstSlm -o late2 --key testkey 2>err.txt & pid=$!
sleep 0.5; mkdir late2; echo mine > "late2/$TEX"; wait $pid; rc=$?
check_eq "a directory made during the import with the texture's name in it: exit 1" "1" "$rc"
check "... said in one line" grep -qx "ikshade import: late2/$TEX: already there: not replaced (import into a new directory, or remove it)" err.txt
check_eq "... late2/ holds the user's file alone" "$TEX:mine" "$(ls -A late2 | tr '\n' ' ' | sed 's/ $//'):$(cat "late2/$TEX")"
check "... no temporary beside it" bash -c '! ls -A | grep -q "^\.late2"'

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

# ---- what is fetched is bounded by what a toy can read, refused before any media request ----
# thousands of textures in a pass of a kind the loader does not run (it stops reading there, and such
# a JSON is saved anyway): import's own bound stops them, four channels a pass
variant tstMny 'd["Shader"]["renderpass"].append(dict(type="sdf", name="X", code="", outputs=[],
  inputs=[dict(ins[0], channel=i % 4, filepath="/media/a/x%05d.png" % i) for i in range(5000)]))'
variant tstCh9 'd["Shader"]["renderpass"].append(dict(type="sdf", code="", inputs=[dict(ins[0], channel=9)]))'
variant tstPas 'd["Shader"]["renderpass"] += [dict(type="sdf", code="", inputs=[dict(ins[0], channel=0)]) for _ in range(3000)]'
# and in the passes it runs, by the loader's own rules
variant tstCh4 'ins.append(dict(ins[0], channel=4, filepath="/media/a/y.png"))'
variant tstDup 'ins.append(dict(ins[0], channel=0, filepath="/media/a/y.png"))'
variant tstCom 'd["Shader"]["renderpass"] += [dict(type="common", code="", inputs=[]) for _ in range(2)]'
m0=$(media_asked)
refused tstMny "^ikshade import: tstMny\\.json: renderpass\\[2\\]: two inputs on iChannel0\$"
refused tstCh9 "^ikshade import: tstCh9\\.json: renderpass\\[2\\]: an input without a \"channel\" number 0-3\$"
refused tstPas "^ikshade import: tstPas\\.json: 3002 passes: a toy has at most 8 \\(Image, Buffer A-D, Cube A, Sound and Common\\)\$"
refused tstCh4 "^ikshade import: tstCh4\\.json\\[Image\\]: an input without a \"channel\" number 0-3\$"
refused tstDup "^ikshade import: tstDup\\.json\\[Image\\]: two inputs on iChannel0\$"
refused tstCom "^ikshade import: tstCom\\.json: two passes of type \"common\"\$"
check_eq "... not one media request for any of them" "$m0" "$(media_asked)"
# the same texture read by two passes, on three channels: fetched once
variant tstShr 'd["Shader"]["renderpass"][0]["inputs"].append(dict(ins[0], channel=1)); ins.append(dict(ins[0], channel=3))'
t0=$(grep -c "^/media/a/$TEX " requests.log)
check "a texture three channels read: exit 0" "$bin" import tstShr -o shr --key testkey --quiet
check_eq "... fetched once" "1" "$(( $(grep -c "^/media/a/$TEX " requests.log) - t0 ))"
# time linear in the JSON's size: 12 MB of inputs in one pass is refused at once, not after n^2 steps
python3 - "$tmp/root/api" <<'P'
import json, sys
inputs = ",".join('{"channel":%d,"type":"texture","filepath":"/media/a/z%06d.png"}' % (i % 4, i) for i in range(190000))
body = '{"Shader":{"info":{"name":"big"},"renderpass":[{"type":"image","code":"","inputs":[],"outputs":[]},' \
       '{"type":"sdf","code":"","inputs":[%s]}]}}' % inputs
open(sys.argv[1] + "/tstBig.http", "w").write("200 application/json\n" + body)
P
check "... (a 12 MB JSON served)" [ "$(stat -c %s root/api/tstBig.http)" -gt 12000000 ]
# (no clock is asserted: the 20 s bound only tells a superlinear walk, which took minutes, from a hang)
TIMEOUT=20 refused tstBig "tstBig\\.json: renderpass\\[1\\]: two inputs on iChannel0"

# ---- no message shows a secret: the key, a base URL's password (as given, and decoded) ----
# a hostile server: it echoes the key it got, redirects to URLs holding it, is slow, fails
sec=$tmp/sec; mkdir -p "$sec"; n=0
PW='Sesame%21Open' # decoded: Sesame!Open
pwbase="http://user:$PW@127.0.0.1:$port"
# said CODE PATTERN CMD...: run in $w, exit CODE and output (stdout and stderr) matching PATTERN; the
# output kept in sec/ for the search at the end
said() {
  local code=$1 pat=$2 rc; shift 2; n=$((n + 1))
  (cd "$w" && timeout -s KILL 20 "$@") > "$sec/$n.txt" 2>&1 </dev/null; rc=$?
  rm -rf "${w:?}"/* "$w"/.[!.]* 2>/dev/null
  check_eq "[$*]: exit" "$code" "$rc"
  check "[$*]: says $pat" grep -qE -- "$pat" "$sec/$n.txt"
}
said 1 "tstEch: the API says: no such key: \\*\\*\\* \\(as sent: key=\\*\\*\\*\\) \\(check the API key\\)\$" \
  "${I[@]}" tstEch -o d --key testkey
# a key with characters sent percent-encoded: echoed decoded and as sent, both redacted
said 1 "tstEch: the API says: no such key: \\*\\*\\* \\(as sent: key=\\*\\*\\*\\)" "${I[@]}" tstEch -o d --key 'test key/&+x'
said 1 "tstRdk: (Could not resolve host: \\*\\*\\*\\.invalid|timed out after)" "${I[@]}" tstRdk -o d --key testkey --timeout 3
said 1 "tstRdp: .*(Couldn't connect|Failed to connect)" "${I[@]}" tstRdp -o d --key testkey
said 1 "tstRdl: Maximum \\(5\\) redirects followed" "${I[@]}" tstRdl -o d --key testkey
said 1 "^ikshade import: http://user:\\*\\*\\*@127\\.0\\.0\\.1:$port/api/v1/shaders/tstSlow: timed out after [0-9.]+ s: no answer" \
  "${I[@]}" tstSlow -o d --key testkey --timeout 1 --base-url "$pwbase"
said 1 "^ikshade import: http://user:\\*\\*\\*@127\\.0\\.0\\.1:$port/api/v1/shaders/tst500: HTTP 500" \
  "${I[@]}" tst500 -o d --key testkey --base-url "$pwbase"
said 1 "^ikshade import: http://user:\\*\\*\\*@127\\.0\\.0\\.1:$port/media/a/[0-9a-f]+\\.png: HTTP 404" \
  "${I[@]}" tstMis -o d --key testkey --base-url "$pwbase"
said 1 "^ikshade import: http://user:\\*\\*\\*@127\\.0\\.0\\.1:$port/media/drip/x\\.png: timed out after" \
  "${I[@]}" tstDrm -o d --key testkey --timeout 1 --base-url "$pwbase"
said 1 "^ikshade import: http://user:\\*\\*\\*@127\\.0\\.0\\.1:$dead/api/v1/shaders/tstOne: .*(Couldn't connect|Failed to connect)" \
  "${I[@]}" tstOne -o d --key testkey --base-url "http://user:$PW@127.0.0.1:$dead"
# from the server's JSON: the shader's name in the summary, a pass's type in a warning
variant tstNam 'd["Shader"]["info"]["name"] = "key testkey, Sesame!Open"'
said 0 "^d/tstNam\\.json \\(\"key \\*\\*\\*, \\*\\*\\*\"\\): 1 media file" "${I[@]}" tstNam -o d --key testkey --base-url "$pwbase"
variant tstWrn 'd["Shader"]["renderpass"].append(dict(type="x-testkey", code="", inputs=[]))'
said 0 "^ikshade import: warning: tstWrn\\.json: renderpass\\[2\\] has type 'x-\\*\\*\\*'.* \\(saved anyway\\)\$" \
  "${I[@]}" tstWrn -o d --key testkey
# the command line's own messages: an option's value, a mistyped option, the shader argument
said 2 "^ikshade import: --base-url 'ftp://user:\\*\\*\\*@x': expected an http:// or https:// URL\$" \
  "${I[@]}" tstOne -o d --key testkey --base-url "ftp://user:$PW@x"
said 2 "^ikshade import: unknown option '--kye': did you mean '--key'" "${I[@]}" tstOne -o d --kye=testkey
said 2 "^ikshade import: shader 'https://u:\\*\\*\\*@www\\.shadertoy\\.com/user/x\\?key=\\*\\*\\*': no shader ID in it" \
  "${I[@]}" "https://u:$PW@www.shadertoy.com/user/x?key=testkey" -o d --key testkey
# progress, shown on a terminal
n=$((n + 1))
(cd "$w" && script -qec "$(printf '%q ' "${I[@]}" tstOne -o d --key testkey --base-url "$pwbase")" /dev/null) > "$sec/$n.txt" 2>&1
rm -rf "${w:?}"/* "$w"/.[!.]* 2>/dev/null
check "on a terminal: progress names the URLs, the password redacted" \
  grep -q "^import: fetching http://user:\\*\\*\\*@127\\.0\\.0\\.1:$port/api/v1/shaders/tstOne" "$sec/$n.txt"
check "... and each texture's" grep -q "^import: fetched http://user:\\*\\*\\*@127\\.0\\.0\\.1:$port/media/a/$TEX" "$sec/$n.txt"
check_eq "$n runs kept" "$n" "$(ls "$sec" | wc -l)"
check "no message of any of them holds the key or the password" bash -c '! grep -rE "testkey|test key|test%20key|Sesame" "$1"' _ "$sec"

echo "rows: $rows"
finish
