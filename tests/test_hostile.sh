#!/usr/bin/env bash
# Hostile and unlucky inputs (issue 16), each a reproduction that once crashed, hung or lied: FIFOs,
# devices and link loops where a file is expected, a toy whose media leave its directory, control
# characters and NUL escapes in a JSON, a shader whose one expression overflowed the compiler's stack,
# #include in dead code, and `solve`'s odd numbers. Rows use lib.sh's `bad` (exit code, one line, no
# signal, no hang, nothing left behind); the good cases check what was drawn.
# usage: test_hostile.sh IKSHADE [plain|sanitized]
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 build=${2:-plain}
TIMEOUT=60
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fx=$tmp/fx w=$tmp/w
mkdir -p "$fx" "$w"
ulimit -c 0
R=("$bin" render --size 32x32 --quiet)
py=/usr/bin/python3

ok='void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0, 0.0, 0.0, 1.0); }'
# the red channel of the centre pixel of a PNG, read by Python's zlib (not by our own encoder)
red_of() { "$py" "$(dirname "$0")/png.py" pixel "$1" 16 16 | cut -d' ' -f1; }

# ---- paths that are not files: refused at once, named for what they are ---------------------------
mkfifo "$fx/fifo.frag" "$fx/fifo.png" "$fx/fifo.glsl"
mkdir "$fx/adir.glsl"
ln -s loop2 "$fx/loop1.glsl"; ln -s loop1.glsl "$fx/loop2"
for inc in /dev/zero adir.glsl fifo.glsl loop1.glsl; do
  printf '#include "%s"\n%s\n' "$inc" "$ok" > "$fx/inc_$(basename "$inc").frag"
done
bad 1 "fifo.frag: a FIFO \(named pipe\) that nothing was written to" "${R[@]}" "$fx/fifo.frag" -o x.png
bad 1 "/dev/zero: a device, not a regular file \(included from .*inc_zero.frag" "${R[@]}" "$fx/inc_zero.frag" -o x.png
bad 1 "adir.glsl: a directory, not a file \(included from" "${R[@]}" "$fx/inc_adir.glsl.frag" -o x.png
bad 1 "fifo.glsl: a FIFO \(named pipe\), not a regular file \(included from" "${R[@]}" "$fx/inc_fifo.glsl.frag" -o x.png
bad 1 "loop1.glsl: a loop of symbolic links \(included from" "${R[@]}" "$fx/inc_loop1.glsl.frag" -o x.png
printf '%s\n' "$ok" > "$fx/ok.frag"
bad 1 "fifo.png: a FIFO \(named pipe\), not a regular file" "${R[@]}" "$fx/ok.frag" --channel0 "$fx/fifo.png" -o x.png
ln -s /dev/zero "$fx/zero.png"
bad 1 "zero.png: a device, not a regular file" "${R[@]}" "$fx/ok.frag" --channel0 "$fx/zero.png" -o x.png
printf '{"renderpass": []}' > "$fx/j.json"; mkfifo "$fx/f.json"
bad 1 "f.json: a FIFO \(named pipe\), not a regular file" "${R[@]}" "$fx/f.json" -o x.png
mkdir "$fx/mtoy"; printf '%s\n' "$ok" > "$fx/mtoy/image.glsl"; mkfifo "$fx/mtoy/manifest.txt"
bad 1 "manifest.txt: a FIFO \(named pipe\), not a regular file" "${R[@]}" "$fx/mtoy" -o x.png

# the main shader may be a stream, read once: `render <(cmd)` and /dev/stdin draw it
out=$(cd "$w" && timeout 60 "${R[@]}" <(printf '%s\n' "$ok") -o s.png 2>&1); rc=$?
check "render <(cmd) reads the stream once and draws it (rc $rc: $out)" [ "$rc" -eq 0 ]
check_eq "render <(cmd): the red the shader wrote" 255 "$(red_of "$w/s.png")"
rm -f "$w/s.png"
out=$(cd "$w" && printf '%s\n' "$ok" | timeout 60 "${R[@]}" /dev/stdin -o s.png 2>&1); rc=$?
check "render /dev/stdin draws what came in (rc $rc: $out)" [ "$rc" -eq 0 ]
check_eq "render /dev/stdin: the red the shader wrote" 255 "$(red_of "$w/s.png")"
rm -f "$w/s.png"

# --each over a directory with a FIFO in it: a row says what it is, the others still run
mkdir "$fx/each"; printf '%s\n' "$ok" > "$fx/each/a.frag"; mkfifo "$fx/each/b.frag"; printf '%s\n' "$ok" > "$fx/each/c.frag"
out=$(cd "$w" && timeout 60 "$bin" render --each "$fx/each" --size 16x16 2>&1); rc=$?
check "--each with a FIFO among the shaders ends (exit 1 for the one failure), rc $rc" [ "$rc" -eq 1 ]
check "--each names the FIFO's row" grep -q "b.frag.*FIFO" <<<"$out"
check "--each runs the shaders after it" grep -qE "c.frag \| ok" <<<"$out"
rm -rf "${w:?}"/*

# --each prints names as table cells: a newline or a '|' in a file name cannot forge a row, an escape
# sequence cannot reach the terminal
mkdir "$fx/eachnames"
printf '%s\n' "$ok" > "$fx/eachnames/a
b | ok | forged.frag"
printf '%s\n' "$ok" > "$fx/eachnames/$(printf 'e\033[31mred.frag')"
out=$(cd "$w" && timeout 60 "$bin" render --each "$fx/eachnames" --size 16x16 2>/dev/null); rc=$?
check_eq "--each with odd names: exit 0" 0 "$rc"
check_eq "--each: one row per shader (2 + the header's 2)" 4 "$(printf '%s\n' "$out" | wc -l)"
check "--each: the newline and bars escaped" grep -qF '| a\nb \| ok \| forged.frag | ok |' <<<"$out"
check "--each: the escape sequence shown, not sent" grep -qF '| e\x1b[31mred.frag | ok |' <<<"$out"
check_eq "--each: no control character in the table" 0 "$(printf '%s' "$out" | tr -d '\n' | LC_ALL=C grep -c '[[:cntrl:]]')"
rm -rf "${w:?}"/*

# every other line that shows a name shows it as the error messages do (issue 38): a newline as \n, a
# control character as \xHH. A name cannot forge a second line, nor set the terminal's title
odd=$(printf 'n\nikshade render: forged \033]0;title\007')
shown='n\nikshade render: forged \x1b]0;title\x07'
# no control character in what was printed, its newlines set aside
no_cntrl() { [ "$(printf '%s' "$1" | tr -d '\n' | LC_ALL=C grep -c '[[:cntrl:]]')" -eq 0 ]; }
lines() { printf '%s\n' "$1" | grep -c .; }
err=$(cd "$w" && timeout 60 "$bin" render "$fx/ok.frag" --size 8x8 -o "$odd.png" 2>&1 >/dev/null); rc=$?
check_eq "render -o with a newline and an escape in the name: exit 0" 0 "$rc"
check "... the file made under the name given" test -s "$w/$odd.png"
check_eq "... the summary one line ($err)" 1 "$(lines "$err")"
check "... naming the output escaped" grep -qF -- "frames/s) -> $shown.png" <<<"$err"
check "... no control character" no_cntrl "$err"
err=$(cd "$w" && timeout 60 "$bin" render "$(dirname "$0")/../examples/sound.frag" --seconds 0.05 -o "$odd.wav" 2>&1 >/dev/null); rc=$?
check_eq "render to an odd .wav: exit 0, one summary line naming it escaped ($err)" "0 1 1" \
  "$rc $(lines "$err") $(grep -cF -- "-> $shown.wav" <<<"$err")"
check "... no control character" no_cntrl "$err"
rm -rf "${w:?}"/*
mkdir "$fx/$odd"; cp "$fx/ok.frag" "$fx/$odd/"
out=$(cd "$w" && timeout 60 "$bin" render --each "$fx/$odd" --size 8x8 2>&1 >/dev/null); rc=$?
check_eq "render --each of an odd directory: exit 0, its summary one line naming it escaped ($out)" "0 1 1" \
  "$rc $(lines "$out") $(grep -cF -- "--each $fx/$shown: 1 shaders: 1 ok" <<<"$out")"
cp "$fx/ok.frag" "$fx/$odd.frag"
out=$(cd "$w" && timeout 60 "$bin" info "$fx/$odd.frag" 2>&1); rc=$?
check_eq "info of an odd name: exit 0, four lines ($out)" "0 4" "$rc $(lines "$out")"
check_eq "... its name escaped" "$shown.frag" "$(sed -n 1p <<<"$out")"
check "... its pass's source escaped" grep -qF -- "Image     $fx/$shown.frag  (mainImage)" <<<"$out"
check "... no control character" no_cntrl "$out"
out=$(cd "$w" && timeout 60 "$bin" bench render "$fx/$odd.frag" --frames 1 --reps 1 --size 8x8 2>&1); rc=$?
check_eq "bench render of an odd name: exit 0, its first line naming it escaped" "0 1" \
  "$rc $(sed -n 1p <<<"$out" | grep -cF -- "bench render: $fx/$shown.frag, 1 frames")"
check "... no control character" no_cntrl "$out"
cp "$(dirname "$0")/../shaders/ik.glsl" "$fx/$odd.glsl"
out=$(cd "$w" && timeout 60 "$bin" check --cases 100 --solver "$fx/$odd.glsl" 2>&1); rc=$?
check_eq "check --solver of an odd name: exit 0, one solver line naming it escaped" "0 1" \
  "$rc $(grep -cxF -- "solver: $fx/$shown.glsl" <<<"$out")"
check "... no control character" no_cntrl "$out"
mkdir -p "$fx/$odd-share"; cp -r "$(dirname "$0")/../shaders" "$(dirname "$0")/../examples" "$fx/$odd-share/"
out=$(IKSHADE_SHADERS="$fx/$odd-share/shaders" timeout 60 "$bin" demos --paths 2>&1); rc=$?
check_eq "demos --paths from an odd directory: exit 0, a line a demo" "0 8" "$rc $(lines "$out")"
check "... its paths escaped" grep -qxF -- "limb      $fx/$shown-share/shaders/limb.frag" <<<"$out"
# the compiler's lines and the site's GLSL ES check's, many to a report, show a file's name on one line
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0) }\n' > "$fx/$odd-bad.frag"
err=$(cd "$w" && timeout 60 "$bin" render "$fx/$odd-bad.frag" --size 8x8 -o x.png 2>&1 >/dev/null); rc=$?
check_eq "a compile error in an odd name: exit 1, one line naming it escaped ($err)" "1 1 1" \
  "$rc $(lines "$err") $(grep -cF -- "$fx/$shown-bad.frag:1:" <<<"$err")"
if command -v glslangValidator >/dev/null; then
  printf 'void mainImage(out vec4 c, in vec2 f) { float x = 1; c = vec4(x); }\n' > "$fx/$odd-es.frag"
  err=$(cd "$w" && timeout 60 "$bin" render "$fx/$odd-es.frag" --size 8x8 -o es.png --quiet 2>&1 >/dev/null); rc=$?
  check_eq "the GLSL ES check on an odd name: exit 0, one warning naming it escaped ($err)" "0 1 1" \
    "$rc $(lines "$err") $(grep -cF -- "$fx/$shown-es.frag:1: warning: shadertoy.com" <<<"$err")"
  check "... no control character" no_cntrl "$err"
fi
if command -v Xvfb >/dev/null; then
  out=$(cd "$w" && xvfb_exec timeout 60 "$bin" view "$fx/$odd.frag" --frames 3 --record "$odd.webp" 2>&1); rc=$?
  check_eq "view --record to an odd name: exit 0, one line naming the recording escaped ($out)" "0 1 1" \
    "$rc $(lines "$out") $(grep -cxF -- "recorded: $shown.webp (3 frames)" <<<"$out")"
  check "... the recording made under the name given" test -s "$w/$odd.webp"
  check "... no control character" no_cntrl "$out"
  # an input log names its toy in a comment line: a newline there forged a line replay reads as an event
  out=$(cd "$w" && xvfb_exec timeout 60 "$bin" view "$fx/$odd.frag" --frames 3 --record-input in.log 2>&1); rc=$?
  check_eq "view --record-input of an odd name: exit 0, the log's first two lines, the name on one (rc $rc: $out)" \
    "ikshade-input 1|# $fx/$shown.frag" "$(head -n 2 "$w/in.log" | paste -sd '|')"
  check "... and no line of the log starts with the name's forged text" bash -c '! grep -q "^ikshade render: forged" "$1"' _ "$w/in.log"
fi
rm -rf "${w:?}"/*

# ---- #include where the preprocessor will not look -----------------------------------------------
cat > "$fx/dead.frag" <<'G'
/* a comment that mentions
#include "nowhere.glsl"
*/
#if 0
#include "nowhere.glsl"
#endif
#define HAVE_A
#ifndef HAVE_A
#include "nowhere.glsl"
#elif defined(HAVE_A) && 1
void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0, 0.0, 0.0, 1.0); }
#else
#include "nowhere.glsl"
#endif
G
out=$(cd "$w" && timeout 60 "${R[@]}" "$fx/dead.frag" -o d.png 2>&1); rc=$?
check "an #include in a comment or a skipped group is not expanded (rc $rc: $out)" [ "$rc" -eq 0 ]
check_eq "the live branch drew" 255 "$(red_of "$w/d.png")"
rm -f "$w/d.png"
printf '#ifdef NOT_DEFINED_ANYWHERE\n#include "nowhere.glsl"\n#else\n#include "nowhere.glsl"\n#endif\n%s\n' "$ok" > "$fx/live_inc.frag"
bad 1 'live_inc.frag:4: cannot include "nowhere.glsl": not found' "${R[@]}" "$fx/live_inc.frag" -o x.png

# ---- a toy's media stay inside the toy ------------------------------------------------------------
mkdir -p "$fx/secret" "$fx/toy"
"$py" - "$fx" <<'P'
import sys, zlib, struct
def png(path, rgb):
    raw = b''.join(b'\0' + bytes(rgb) * 4 for _ in range(4))
    chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 4, 4, 8, 2, 0, 0, 0))
                           + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
png(sys.argv[1] + '/secret/secret.png', (0, 0, 255))
png(sys.argv[1] + '/toy/own.png', (0, 255, 0))
P
printf 'void mainImage(out vec4 c, in vec2 f) { c = texture(iChannel0, vec2(0.5)); }\n' > "$fx/toy/image.glsl"
echo 'image.iChannel0 = ../secret/secret.png' > "$fx/toy/manifest.txt"
bad 1 "manifest.txt:1: media '.*secret.png' lies outside the toy's directory .*--allow-media-outside" \
  "${R[@]}" "$fx/toy" -o x.png
ln -s ../secret/secret.png "$fx/toy/link.png"
echo 'image.iChannel0 = link.png' > "$fx/toy/manifest.txt"
bad 1 "manifest.txt:1: media '.*link.png' lies outside the toy's directory" "${R[@]}" "$fx/toy" -o x.png
out=$(cd "$w" && timeout 60 "${R[@]}" "$fx/toy" --allow-media-outside -o m.png 2>&1); rc=$?
check "--allow-media-outside lets the toy read it (rc $rc: $out)" [ "$rc" -eq 0 ]
check_eq "... and it is the outside image (blue) that was drawn" "0 0 255" "$("$py" "$(dirname "$0")/png.py" pixel "$w/m.png" 16 16)"
rm -f "$w/m.png"
echo 'image.iChannel0 = own.png' > "$fx/toy/manifest.txt"
out=$(cd "$w" && timeout 60 "${R[@]}" "$fx/toy" -o m.png 2>&1); rc=$?
check "the toy's own media load (rc $rc: $out)" [ "$rc" -eq 0 ]
check_eq "... and draw (green)" "0 255 0" "$("$py" "$(dirname "$0")/png.py" pixel "$w/m.png" 16 16)"
rm -f "$w/m.png"
cat > "$fx/toy/t.json" <<'J'
{"Shader": {"info": {"name": "t"}, "renderpass": [{"name": "Image", "type": "image",
 "code": "void mainImage(out vec4 c, in vec2 f) { c = texture(iChannel0, vec2(0.5)); }",
 "inputs": [{"channel": 0, "type": "texture", "filepath": "../secret/secret.png"}], "outputs": []}]}}
J
bad 1 "t.json: media '.*secret.png' lies outside the toy's directory" "${R[@]}" "$fx/toy/t.json" -o x.png
# the command line's own channel is the user's: it may be anywhere
out=$(cd "$w" && timeout 60 "${R[@]}" "$fx/toy/image.glsl" --channel0 "$fx/secret/secret.png" -o m.png 2>&1); rc=$?
check "--channel0 outside any toy is the user's own and loads (rc $rc: $out)" [ "$rc" -eq 0 ]
rm -f "$w/m.png"

# ---- a texture wider than GL allows: an error naming it, not a black channel and exit 0 -------------
"$py" -c "
import zlib, struct, sys
w, h = 20000, 2
raw = b''.join(b'\0' + b'\xff\0\0' * w for _ in range(h))
chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
open(sys.argv[1], 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
                              + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))" "$fx/wide.png"
bad 1 "wide.png: 20000x2 is larger than this GL's textures \(at most [0-9]+ on a side\)" "${R[@]}" "$fx/ok.frag" --channel0 "$fx/wide.png" -o x.png
bad 1 "wide.png: 20000x2 is larger than this GL's textures" "${R[@]}" "$fx/ok.frag" --channel0 "$fx/wide.png" --ssaa 2 -o x.png

# ---- what a JSON's strings may not do --------------------------------------------------------------
printf '{"renderpass": [{"name": "Image", "type": "image", "code": "%s\\u0000 tail", "inputs": [], "outputs": []}]}' \
  "$ok" > "$fx/nul.json"
bad 1 'nul.json:1: a string holds \\u0000' "${R[@]}" "$fx/nul.json" -o x.png
printf '{"renderpass": [{"name": "Image", "type": "image", "code": "%s", "outputs": [], "inputs": [{"channel": 0, "type": "texture", "filepath": "/media/\\u001b[31mred.png"}]}]}' \
  "$ok" > "$fx/esc.json"
err=$(cd "$w" && "${R[@]}" "$fx/esc.json" -o x.png 2>&1 >/dev/null)
check "an escape code from a JSON is shown, not sent to the terminal" grep -qF '\x1b[31mred.png' <<<"$err"
check "... no raw ESC byte in the message" [ "$(printf '%s' "$err" | tr -cd '\033' | wc -c)" -eq 0 ]

# ---- one long expression: Mesa's compiler recursion needs more than an 8 MiB stack -----------------
"$py" -c "print('void mainImage(out vec4 c, in vec2 f) { c = vec4(' + '+'.join(['0.0']*20000) + ', 0.0, 0.0, 1.0); }')" > "$fx/long.frag"
out=$(cd "$w" && ulimit -s 8192 && MESA_SHADER_CACHE_DISABLE=true timeout 300 "${R[@]}" "$fx/long.frag" -o l.png 2>&1); rc=$?
check "a 20,000-term expression compiles under an 8 MiB stack limit (rc $rc: $(head -c 300 <<<"$out"))" [ "$rc" -eq 0 ]
rm -f "$w/l.png"
mkdir "$fx/each2"; cp "$fx/long.frag" "$fx/each2/a.frag"; printf '%s\n' "$ok" > "$fx/each2/b.frag"
out=$(cd "$w" && ulimit -s 8192 && MESA_SHADER_CACHE_DISABLE=true timeout 300 "$bin" render --each "$fx/each2" --size 16x16 2>&1); rc=$?
check "--each with the long shader finishes its table (rc $rc)" [ "$rc" -eq 0 ]
check "--each: both rows ok" [ "$(grep -cE '(a|b).frag \| ok' <<<"$out")" -eq 2 ]
rm -rf "${w:?}"/*

# ---- tight limits get advice about the limit, not "install Mesa" or "no display" ---------------------
# (AddressSanitizer reserves terabytes of address space for itself: under it the row is not run, and
# not counted; the plain build runs it)
if [ "$build" = plain ]; then
  # below what the driver needs: one line naming the limit and a size that would do, before any GL work
  bad 1 "the address-space limit \(ulimit -v 200000\) is 195 MiB, below the [0-9]+ MiB the GL driver .*raise it \(ulimit -v [0-9]+\)" \
    bash -c 'ulimit -v 200000; exec "$@"' _ "${R[@]}" "$fx/ok.frag" -o x.png
  # a soft limit below the need under a hard one above it is raised, and the render works
  out=$(cd "$w" && bash -c 'ulimit -S -v 200000 && ulimit -H -v 8000000 && exec "$@"' _ "${R[@]}" "$fx/ok.frag" -o soft.png 2>&1)
  rc=$?
  check "soft ulimit -v 200000 under a hard 8000000: raised, rendered (rc $rc: $out)" \
    bash -c '[ "$1" -eq 0 ] && [ "$(head -c 8 "$2" | od -An -tx1 | tr -d " ")" = 89504e470d0a1a0a ]' _ "$rc" "$w/soft.png"
  rm -f "$w/soft.png"
  # around the need (the limits where llvmpipe died without a word: SIGSEGV, LLVM's bad_alloc, a double
  # free), with the cube demo, whose 1024 faces take their share: every run renders whole PNGs or says
  # why in lines naming the limit, never a signal, never a frame left behind when it fails
  for v in 350000 400000 420000 440000 460000 480000 500000 540000 600000; do
    for toy in limb cube; do
      out=$(cd "$w" && bash -c 'ulimit -v "$1" && shift && exec "$@"' _ "$v" "$bin" render "$toy" --size 640x360 --frames 2 \
            --quiet -o "sw_%d.png" 2>&1)
      rc=$?
      n=$(ls "$w" | grep -c '^sw_')
      said=$(sed -nE 's/.*\(([0-9]+) of 2 frames written\).*/\1/p' <<<"$out")
      check "ulimit -v $v, $toy: two PNGs, or exit 1 naming the limit with the frames it counts, whole (rc $rc, $n files: $out)" \
        bash -c '{ [ "$1" -eq 0 ] && [ "$2" -eq 2 ]; } ||
                 { [ "$1" -eq 1 ] && [ "$2" -eq "${4:-0}" ] && grep -q "address-space limit" <<<"$3"; } || exit 1
                 for f in "$5"/sw_*; do [ -e "$f" ] || continue; python3 "$6" info "$f" >/dev/null || exit 1; done' \
        _ "$rc" "$n" "$out" "$said" "$w" "$(dirname "$0")/png.py"
      rm -f "$w"/sw_*
    done
  done
else echo "note: the ulimit -v rows run in the plain build only (ASan needs the address space)"
fi
if command -v Xvfb >/dev/null; then
  bad 1 "the open-file limit \(ulimit -n 5\) is too small to reach display" \
    bash -c '. "$0/lib.sh"; xvfb_exec bash -c "ulimit -n 5; exec \"\$@\"" _ "$@"' "$(cd "$(dirname "$0")" && pwd)" \
    "$bin" view "$fx/ok.frag" --frames 2
  # the viewer reads a stream once too (it read it twice, the second time empty)
  out=$(xvfb_exec bash -c 'timeout 60 "$0" view <(printf "%s\n" "$1") --frames 5 2>&1' "$bin" "$ok"); rc=$?
  check "view <(cmd) runs the stream's shader (rc $rc: $out)" [ "$rc" -eq 0 ]
  out=$(printf '%s\n' "$ok" | xvfb_exec timeout 60 "$bin" view /dev/stdin --frames 5 2>&1); rc=$?
  check "view /dev/stdin runs it (rc $rc: $out)" [ "$rc" -eq 0 ]
else check "Xvfb is installed (scripts/deps.sh installs xvfb)" false
fi

# ---- outputs: what is at the name is replaced only if it is a file the user may write ---------------
# (the links lead to a file the toy does not read: one that it reads is refused before, further down)
mkdir -p "$fx/outs"; printf '%s\n' "$ok" > "$fx/kept.frag"; ln -s "$fx/kept.frag" "$fx/outs/link.png"
bad 1 "link.png: a symbolic link is there: not replaced" "${R[@]}" "$fx/ok.frag" -o "$fx/outs/link.png"
check "... and the link still points where it did" [ "$(readlink "$fx/outs/link.png")" = "$fx/kept.frag" ]
check_eq "... and its target is untouched" "$ok" "$(cat "$fx/kept.frag")"
ln -s "$fx/kept.frag" "$fx/outs/0001.png"
out=$(cd "$w" && "${R[@]}" "$fx/ok.frag" -o "$fx/outs/%04d.png" --frames 3 2>&1); rc=$?
check "a link among a pattern's names fails the render (rc $rc)" [ "$rc" -eq 1 ]
check "... naming it" grep -q "outs/0001.png: a symbolic link is there: not replaced" <<<"$out"
check "... and leaves it a link to the shader" [ "$(readlink "$fx/outs/0001.png")" = "$fx/kept.frag" ]
mkfifo "$fx/outs/f.png"
bad 1 "f.png: a FIFO, socket or device is there: not replaced" "${R[@]}" "$fx/ok.frag" -o "$fx/outs/f.png"
printf 'keep' > "$fx/outs/ro.png"; chmod 444 "$fx/outs/ro.png"
bad 1 "ro.png: a read-only file is there: not replaced" "${R[@]}" "$fx/ok.frag" -o "$fx/outs/ro.png"
check_eq "... and the read-only file keeps its bytes" keep "$(cat "$fx/outs/ro.png")"
out=$(cd "$w" && umask 077 && "${R[@]}" "$fx/ok.frag" -o u.png 2>&1); rc=$?
check_eq "an output honours the umask (077 -> 600), rc $rc" "600" "$(stat -c %a "$w/u.png" 2>/dev/null)"
rm -f "$w/u.png"
long=$(printf 'n%.0s' $(seq 251))
out=$(cd "$w" && "${R[@]}" "$fx/ok.frag" -o "$long.png" 2>&1); rc=$?
check "a 255-byte file name (the longest allowed) is written, rc $rc: $out" [ -f "$w/$long.png" ]
rm -f "$w/$long.png"
out=$(cd "$w" && "${R[@]}" "$fx/ok.frag" -o 'o/%d.png' --frames 4294967296:4294967298 2>&1); rc=$?
check_eq "frame numbers past 2^32 keep their own names (rc $rc: $out)" "4294967296.png 4294967297.png" "$(ls "$w/o" | tr '\n' ' ' | sed 's/ $//')"
rm -rf "${w:?}"/*
bad 2 "--warmup 1000000: the frame numbers pass 9223372036854775807" "${R[@]}" "$fx/ok.frag" -o 'o/%d.png' \
  --frames 9223372036854775000:9223372036854775800 --warmup 1000000
bad 2 "a frame number's width is at most 64" "${R[@]}" "$fx/ok.frag" -o 'a%2147483648d.png' --frames 2

# ---- an output that is one of the toy's own inputs (issue 38): refused before any work, in one line
# naming both, every file of the toy as it was. The same file through ./ and ../ (a directory not made
# yet included), a symbolic or hard link, and a pattern's frame k; a session's inputs never replace a
# file that is not an earlier recording of them. The view rows run under Xvfb for two frames, where the
# viewer used to record over the file and say "recorded".
own=$fx/own
mkdir -p "$own/toy" "$own/out"
printf 'void mainImage(out vec4 c, in vec2 f) { c = texture(iChannel0, f / iResolution.xy); }\n' > "$own/s.frag"
printf '%s\n' "$ok" > "$own/mine.frag"
printf '#include "inc.glsl"\n%s\n' "$ok" > "$own/withinc.frag"; printf '// included\n' > "$own/inc.glsl"
(cd "$w" && "${R[@]}" "$fx/ok.frag" -o "$own/t.png")
cp "$own/t.png" "$own/toy/tex.png"; cp "$own/t.png" "$own/out/0003.png"
cp "$own/s.frag" "$own/toy/image.glsl"; printf 'image.iChannel0 = tex.png\n' > "$own/toy/manifest.txt"
ln -s t.png "$own/link.png"; ln "$own/t.png" "$own/hard.png"; ln "$own/t.png" "$own/out/0001.png"
printf 'my notes\n' > "$own/notes.txt"
printf 'ikshade-input 1\nf 0 0 640 360 1 2 3 4\n' > "$own/take5.png" # a recording, under a frame's name
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }\nvec2 mainSound(int s, float t) { return vec2(0.0); }\n' > "$fx/snd.frag"
(cd "$w" && "$bin" render --quiet "$fx/snd.frag" -o "$own/w.wav" --seconds 0.05)
have_ffmpeg=false
if command -v ffmpeg >/dev/null && (cd "$w" && "${R[@]}" "$fx/ok.frag" --frames 4 -o "$own/clip.mp4"); then have_ffmpeg=true; fi
# the toy's files: names, kinds, link targets and bytes
snap() { (cd "$own" && find . -printf '%p %y %l %n\n' | LC_ALL=C sort && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum); }
snap0=$(snap)
# own CODE PATTERN CMD...: a `bad` row, then every file of the toy as it was
own() { bad "$@"; check_eq "... and the toy's files as they were (row $rows)" "$snap0" "$(snap)"; }
same="the same file as '$own/[^']*', the toy's"
own 2 "-o '$own/t.png': the same file as '$own/t.png', the toy's media: the render would replace it; name another file" \
  "${R[@]}" "$own/s.frag" --channel0 "$own/t.png" -o "$own/t.png"
own 2 "-o '$own/./t.png': $same media" "${R[@]}" "$own/s.frag" --channel0 "$own/t.png" -o "$own/./t.png"
own 2 "-o '$own/out/../t.png': $same media" "${R[@]}" "$own/s.frag" --channel0 "$own/t.png" -o "$own/out/../t.png"
own 2 "-o '$own/new/../t.png': $same media" "${R[@]}" "$own/s.frag" --channel0 "$own/t.png" -o "$own/new/../t.png"
own 2 "-o '$own/t.png': the same file as '$own/link.png', the toy's media" \
  "${R[@]}" "$own/s.frag" --channel0 "$own/link.png" -o "$own/t.png"
own 2 "-o '$own/hard.png': the same file as '$own/t.png', the toy's media" \
  "${R[@]}" "$own/s.frag" --channel0 "$own/t.png" -o "$own/hard.png"
own 2 "-o '$own/toy/tex.png': the same file as '$own/toy/tex.png', the toy's media" \
  "${R[@]}" "$own/toy" -o "$own/toy/tex.png"
own 2 "-o '$own/out/%04d.png': frame 3 \('$own/out/0003.png'\) is the same file as '$own/out/0003.png', the toy's media: the render would replace it" \
  "${R[@]}" "$own/s.frag" --channel0 "$own/out/0003.png" -o "$own/out/%04d.png" --frames 2:5
own 2 "-o '$own/out/%04d.png': frame 1 \('$own/out/0001.png'\) is the same file as '$own/t.png', the toy's media" \
  "${R[@]}" "$own/s.frag" --channel0 "$own/t.png" -o "$own/out/%04d.png" --frames 3
own 2 "-o '$own/take%d.png': frame 5 \('$own/take5.png'\) is the same file as '$own/take5.png', the input recording replayed" \
  "${R[@]}" "$own/mine.frag" --input "$own/take5.png" -o "$own/take%d.png" --frames 6
own 2 "-o '$own/w.wav': the same file as '$own/w.wav', the toy's media" \
  "$bin" render --quiet "$own/mine.frag" --channel0 "$own/w.wav" -o "$own/w.wav" --seconds 0.05
if $have_ffmpeg; then
  own 2 "-o '$own/clip.mp4': the same file as '$own/clip.mp4', the toy's media" \
    "${R[@]}" "$own/s.frag" --channel0 "$own/clip.mp4" -o "$own/clip.mp4" --frames 2
else echo "note: no ffmpeg: the video row not run" >&2
fi
# a range that does not reach the input's frame is no conflict
mkdir "$w/o"; cp "$own/t.png" "$w/o/0003.png"
out=$(cd "$w" && "${R[@]}" "$own/s.frag" --channel0 o/0003.png -o o/%04d.png --frames 3 2>&1); rc=$?
check "frames 0-2 of a pattern whose frame 3 is the input are drawn (rc $rc: $out)" [ "$rc $(ls "$w/o" | tr '\n' ' ')" = "0 0000.png 0001.png 0002.png 0003.png " ]
check "... and frame 3, the input, is untouched" cmp -s "$own/t.png" "$w/o/0003.png"
rm -rf "${w:?}"/*
# checkpoints take only names no file has (another render's, anyone's file stays): the toy's own
# directory may hold them, and its files stay as they were
cp -r "$own/toy" "$w/btoy"; printf 'void mainImage(out vec4 c, in vec2 f) { c = texture(iChannel0, f / iResolution.xy) + 0.01; }\n' > "$w/btoy/a.glsl"
printf 'image.iChannel0 = a\na.iChannel0 = a\n' > "$w/btoy/manifest.txt"
before=$(cd "$w/btoy" && md5sum ./*)
out=$(cd "$w" && "${R[@]}" btoy -o f/%d.png --frames 3 --checkpoint btoy --checkpoint-every 1 2>&1); rc=$?
check "checkpoints into the toy's own directory (rc $rc: $out)" [ "$rc $(ls "$w/btoy" | grep -c '^ckpt-.*\.iksc$')" = "0 3" ]
check_eq "... leave its files as they were" "$before" "$(cd "$w/btoy" && md5sum ./a.glsl ./image.glsl ./manifest.txt ./tex.png)"
rm -rf "${w:?}"/*
if command -v Xvfb >/dev/null; then
  V=(bash -c '. "$0/lib.sh"; xvfb_exec "$@"' "$(cd "$(dirname "$0")" && pwd)" "$bin" view)
  own 2 "view: --record-input '$own/mine.frag': the same file as '$own/mine.frag', the toy's source: the input recording would replace it; name another file" \
    "${V[@]}" "$own/mine.frag" --record-input "$own/mine.frag" --frames 2
  own 2 "view: --record-input '$own/inc.glsl': $same source" "${V[@]}" "$own/withinc.frag" --record-input "$own/inc.glsl" --frames 2
  own 2 "view: --record-input '$own/toy/manifest.txt': $same source" "${V[@]}" "$own/toy" --record-input "$own/toy/manifest.txt" --frames 2
  own 2 "view: --record-input '$own/notes.txt': not an input recording \(its first line is not 'ikshade-input 1'\): not replaced" \
    "${V[@]}" "$own/mine.frag" --record-input "$own/notes.txt" --frames 2
  own 2 "view: --record '$own/out/%04d.png': frame 3 \('$own/out/0003.png'\) is the same file as '$own/out/0003.png', the toy's media: the recording would replace it" \
    "${V[@]}" "$own/s.frag" --channel0 "$own/out/0003.png" --record "$own/out/%04d.png" --frames 2
  # an earlier recording of a session is replaced by the next one, as ever
  printf '# an old take\nikshade-input 1\nf 0 0 640 360 1 2 3 4\n' > "$w/old.txt"
  out=$(cd "$w" && "${V[@]}" "$own/mine.frag" --record-input old.txt --frames 2 2>&1); rc=$?
  check "view --record-input over an earlier recording replaces it (rc $rc: $out)" [ "$rc" -eq 0 ]
  check "... with the new session" bash -c '[ "$(head -1 "$1")" = "ikshade-input 1" ] && ! grep -q "an old take" "$1"' _ "$w/old.txt"
  rm -rf "${w:?}"/*
else check "Xvfb is installed (scripts/deps.sh installs xvfb)" false
fi

# ---- numbers a frame's uniforms cannot hold: refused, never a silent Inf in the shader ----------------
# iTime and iTimeDelta: the bound --time has (1e9 s) for every frame's, wherever fps, time and frames meet
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(isinf(iTime) ? 1.0 : 0.0, isinf(iTimeDelta) ? 1.0 : 0.0, 0.0, 1.0); }\n' > "$fx/inf.frag"
bad 2 "--fps '1e-300': expected a number from 1e-9 to 10000 \(the time step, 1/fps, is at most 1e9 s\)" \
  "${R[@]}" "$fx/inf.frag" -o 'f/%d.png' --fps 1e-300 --frames 2
bad 2 "--fps '1e-20': expected a number from 1e-9" "${R[@]}" "$fx/inf.frag" -o 'f/%d.png' --fps 1e-20 \
  --frames 9223372036854775806:9223372036854775807
bad 2 "--frames '9223372036854775806:9223372036854775807': at fps 60, frame 9223372036854775806's time would be 1.5372286728[0-9]*e\+17 s, beyond 1e9 s" \
  "${R[@]}" "$fx/inf.frag" -o 'f/%d.png' --frames 9223372036854775806:9223372036854775807
bad 2 "--frames '2': at fps 60, frame 1's time would be 1000000000.017 s, beyond 1e9 s \(--time's limit\)" \
  "${R[@]}" "$fx/inf.frag" -o 'f/%d.png' --time 1e9 --frames 2
bad 2 "--time '2e9': expected a finite number of seconds from -1e9 to 1e9" "${R[@]}" "$fx/inf.frag" -o x.png --time 2e9
bad 2 "--mouse '1e39,0': expected X,Y or X,Y,CX,CY in pixels \(each within a million\)" \
  "${R[@]}" "$fx/inf.frag" -o x.png --mouse 1e39,0
out=$(cd "$w" && "${R[@]}" "$fx/inf.frag" -o 'f/%d.png' --fps 1e-9 --frames 2 2>&1); rc=$?
check "--fps 1e-9, the lowest: frame 1 at iTime 1e9 s is drawn (rc $rc: $out)" [ "$rc" -eq 0 ]
check_eq "... with iTime and iTimeDelta finite" "0 0 0" "$("$py" "$(dirname "$0")/png.py" pixel "$w/f/1.png" 16 16)"
rm -rf "${w:?}"/*
# --set: a value a float cannot hold, and a uniform ikshade sets itself (it was silently overwritten)
printf 'uniform float uf;\nuniform vec2 v2;\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(isinf(uf) ? 1.0 : 0.0, isinf(v2.y) ? 1.0 : 0.0, iTime, 1.0); }\n' > "$fx/set.frag"
bad 2 "--set 'uf=1e39': value 1 \(1e\+39\) is beyond a float's range \(at most 3.40282e\+38 either way\)" \
  "${R[@]}" "$fx/set.frag" --set uf=1e39 -o x.png
bad 2 "--set 'v2=0,-1e300': value 2 \(-1e\+300\) is beyond a float's range" "${R[@]}" "$fx/set.frag" --set v2=0,-1e300 -o x.png
bad 2 "--set 'iTime=5': iTime is set by ikshade for every frame: the frame's time in seconds" \
  "${R[@]}" "$fx/set.frag" --set iTime=5 -o x.png
bad 2 "--set 'iMouse=1,2,3,4': iMouse is set by ikshade for every frame: the pointer" \
  "${R[@]}" "$fx/set.frag" --set iMouse=1,2,3,4 -o x.png
bad 2 "view: --set 'iResolution=1,2,3': iResolution is set by ikshade for every frame: the size of what the pass draws" \
  "$bin" view "$fx/set.frag" --set iResolution=1,2,3
# every uniform of ikshade's preludes (image, cube, sound), read from their one list, and its alias are
# refused: a list that gains a uniform cannot let --set write to it unnoticed
pre=$(grep -oE '^#define IKS_U_NAME_[A-Z_0-9]+ "[A-Za-z_][A-Za-z0-9_]*"' "$(dirname "$0")/../src/glsl/uniforms.h" | sed 's/.*"\(.*\)"/\1/' | sort -u)
check "the preludes' uniforms are found in src/glsl/uniforms.h" [ "$(wc -w <<<"$pre")" -ge 17 ]
check "... and iGlobalTime, the alias" grep -q 'X("iGlobalTime", IKS_U_NAME_TIME)' "$(dirname "$0")/../src/glsl/uniforms.h"
for u in $pre iGlobalTime; do
  bad 2 "--set '$u=1': $u is (iTime, )?set by ikshade for every frame" "${R[@]}" "$fx/set.frag" --set "$u=1" -o x.png
done
out=$(cd "$w" && "${R[@]}" "$fx/set.frag" --set uf=3.4e38 --set v2=0,-3.4e38 -o s.png 2>&1); rc=$?
check "--set at a float's largest magnitude is taken (rc $rc: $out)" [ "$rc" -eq 0 ]
check_eq "... and is finite in the shader" "0 0 0" "$("$py" "$(dirname "$0")/png.py" pixel "$w/s.png" 16 16)"
rm -rf "${w:?}"/*
# the same for an --input recording's set lines, named by file:line as its other lines are
printf 'ikshade-input 1\nset v2=1,2\nset uf=-1e39\nf 0 0 64 64 1 1 1 1\n' > "$fx/set_big.txt"
bad 1 "set_big.txt:3: setting 'uf=-1e39': value 1 \(-1e\+39\) is beyond a float's range" \
  "${R[@]}" "$fx/set.frag" -o x.png --input "$fx/set_big.txt"
printf 'ikshade-input 1\nset iTime=5\nf 0 0 64 64 1 1 1 1\n' > "$fx/set_itime.txt"
bad 1 "set_itime.txt:2: setting 'iTime=5': iTime is set by ikshade" "${R[@]}" "$fx/set.frag" -o x.png --input "$fx/set_itime.txt"
# an --input recording's frames: the cap --frames and --seconds have (this one meant 60000000001)
printf 'ikshade-input 1\nf 0 0 64 64 1 1 1 1\nf 1000000000 0 64 64 1 1 1 1\n' > "$fx/span.txt"
bad 2 "--input '.*span.txt': at most 100000000 frames" \
  "${R[@]}" "$fx/ok.frag" -o 'i/%d.png' --input "$fx/span.txt"
out=$(cd "$w" && "${R[@]}" "$fx/ok.frag" -o 'i/%d.png' --input "$fx/span.txt" --frames 2 2>&1); rc=$?
check_eq "... and with --frames it renders what was asked (rc $rc: $out)" "0.png 1.png" "$(ls "$w/i" | tr '\n' ' ' | sed 's/ $//')"
rm -rf "${w:?}"/*
out=$(cd "$w" && "${R[@]}" "$fx/ok.frag" -o 'i/%d.png' --input "$fx/span.txt" --seconds 0.05 2>&1); rc=$?
check_eq "... and with --seconds too (rc $rc: $out)" "0.png 1.png 2.png" "$(ls "$w/i" | tr '\n' ' ' | sed 's/ $//')"
rm -rf "${w:?}"/*

# ---- signals: one policy, exit 128+signal, nothing half-written left ---------------------------------
slow='void mainImage(out vec4 c, in vec2 f) { float a = 0.0; for (int i = 0; i < 200000; i++) a += sin(a + f.x * 0.001 + float(i)); c = vec4(fract(a)); }'
printf '%s\n' "$slow" > "$fx/slow.frag"
# sig_test SIGNALS... : a render of 100000 small frames, stopped by the signals given (one per 0.3 s)
sig_render() {
  local shader=$1 size=$2; shift 2
  (cd "$w" && exec "$bin" render "$shader" -o s/%06d.png --frames 100000 --size "$size" --quiet 2>/dev/null) & local p=$!
  sleep 2
  t0=$(date +%s%N)
  sent=0
  for s in "$@"; do kill -"$s" "$p" 2>/dev/null && sent=$((sent + 1)); sleep 0.3; done
  wait "$p"; rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
}
sig_render "$fx/ok.frag" 32x32 TERM
check_eq "SIGTERM: exit 143" 143 "$rc"
check "SIGTERM: no temporary left" [ -z "$(ls -A "$w/s" | grep '^\.')" ]
check "SIGTERM: frames were written before it" [ "$(ls "$w/s" | wc -l)" -gt 0 ]
rm -rf "${w:?}"/*
sig_render "$fx/ok.frag" 32x32 HUP
check_eq "SIGHUP (terminal closed): exit 129" 129 "$rc"
check "SIGHUP: no temporary left" [ -z "$(ls -A "$w/s" | grep '^\.')" ]
check "SIGHUP: frames were written before it" [ "$(ls "$w/s" | wc -l)" -gt 0 ]
rm -rf "${w:?}"/*
# llvmpipe ends a loop after 65535 turns: the frame is made slow (seconds here) by its size
sig_render "$fx/slow.frag" 256x144 INT INT
check_eq "a second Ctrl-C during a slow frame reached the render while it was still stopping" 2 "$sent"
check_eq "... exit 130" 130 "$rc"
check "... at once (${ms} ms after the first, 300 of them between the two)" [ "$ms" -lt 3000 ]
check "... and no temporary left" [ -z "$(ls -A "$w/s" 2>/dev/null | grep '^\.')" ]
rm -rf "${w:?}"/*
sig_render "$fx/slow.frag" 256x144 TERM
check_eq "one SIGTERM during a slow frame: exit 143" 143 "$rc"
check "... within the 5 s grace (${ms} ms)" [ "$ms" -lt 9000 ]
rm -rf "${w:?}"/*
# a reader that stops reading: raw frames blocked in write(2); SIGTERM still ends the render
(cd "$w" && exec "$bin" render "$fx/ok.frag" -o - --frames 100000 --size 64x64 2>"$w/err" | sleep 20) & p=$!
sleep 2; pkill -TERM -f -- "render $fx/ok.frag -o - --frames 100000"; t0=$(date +%s%N)
while pgrep -f -- "render $fx/ok.frag -o - --frames 100000" >/dev/null && [ $(( ($(date +%s%N) - t0) / 1000000 )) -lt 8000 ]; do sleep 0.1; done
still=$(pgrep -f -- "render $fx/ok.frag -o - --frames 100000")
check_eq "SIGTERM ends a render whose reader stopped reading" "" "$still"
check "... saying it was interrupted while writing" grep -q "interrupted while writing frame" "$w/err"
kill "$p" 2>/dev/null; wait "$p" 2>/dev/null
rm -rf "${w:?}"/*
(cd "$w" && "${R[@]}" "$fx/ok.frag" -o p.png 2>&1 | true; echo "${PIPESTATUS[0]}" > rc)
check_eq "stderr to a closed pipe: the frame is written and the exit is 0" "0" "$(cat "$w/rc")"
check "... the frame is there" [ -f "$w/p.png" ]
rm -rf "${w:?}"/*

# ---- bench render: its temporary directory goes, whatever stops it -----------------------------------
mkdir -p "$fx/tmpd"
for sigs in "INT" "INT INT"; do
  (cd "$w" && TMPDIR="$fx/tmpd" exec "$bin" bench render --frames 200 >/dev/null 2>&1) & p=$!
  for _ in $(seq 100); do [ -n "$(ls -A "$fx/tmpd")" ] && break; sleep 0.1; done
  check "bench render made its temporary directory under TMPDIR" [ -n "$(ls -A "$fx/tmpd")" ]
  for s in $sigs; do kill -"$s" "$p" 2>/dev/null; sleep 0.02; done
  wait "$p"; rc=$?
  check_eq "bench render stopped by $sigs: exit 130" 130 "$rc"
  check_eq "bench render stopped by $sigs: its temporary directory is gone" "" "$(ls -A "$fx/tmpd")"
done

# ---- ffmpeg as a sandboxed decoder (issue 25) ---------------------------------------------------------
# A toy's clip.mp4 that is really an HLS playlist naming a video outside the toy: ffmpeg would open
# that file (or any URL) itself. Only the file ikshade opened, through MP4/Matroska/Ogg demuxers.
if command -v ffmpeg >/dev/null; then
  ffmpeg -v error -nostdin -f lavfi -i testsrc=size=32x32:rate=10 -t 1 -f mpegts "$fx/outside.ts"
  mkdir "$fx/hlstoy"
  printf '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\n%s\n#EXT-X-ENDLIST\n' "$fx/outside.ts" > "$fx/hlstoy/clip.mp4"
  printf 'void mainImage(out vec4 c, in vec2 f) { c = texture(iChannel0, f / iResolution.xy); }\n' > "$fx/hlstoy/image.glsl"
  printf 'image.iChannel0 = clip.mp4\n' > "$fx/hlstoy/manifest.txt"
  bad 1 "clip.mp4: not a video in MP4, WebM/Matroska or Ogg \(ffmpeg reads it as 'hls', which a channel does not take\)" \
    "${R[@]}" "$fx/hlstoy" -o x.png
  # the same playlist as music, and as a live stream (no ENDLIST: probing would wait for more)
  printf '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\n%s\n' "$fx/outside.ts" > "$fx/live.ogg"
  printf '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\n%s\n' "$fx/outside.ts" > "$fx/live.webm"
  bad 1 "live.ogg: ffmpeg: " "${R[@]}" "$fx/ok.frag" --channel0 "$fx/live.ogg" -o x.png
  bad 1 "live.webm: " "${R[@]}" "$fx/ok.frag" --channel0 "$fx/live.webm" -o x.png

  # a decoder that hangs (a demuxer made to wait, a stalled machine) is ended after 30 s of silence and
  # the file named: here an ffprobe that never answers
  mkdir -p "$fx/hangbin"
  printf '#!/bin/sh\necho $$ > "%s"\nexec sleep 1000\n' "$fx/hang.pid" > "$fx/hangbin/ffprobe"; chmod +x "$fx/hangbin/ffprobe"
  ffmpeg -v error -nostdin -f lavfi -i testsrc=size=32x32:rate=10 -t 1 "$fx/hang.mp4"
  bad 1 "hang.mp4: ffprobe said nothing for 30 s: given up" env PATH="$fx/hangbin:$PATH" "${R[@]}" "$fx/ok.frag" --channel0 "$fx/hang.mp4" -o x.png
  check "... and the hung ffprobe was ended" bash -c '[ -s "$1" ] && ! kill -0 "$(cat "$1")" 2>/dev/null' _ "$fx/hang.pid"

  # Ctrl-C while a video's decoder is stalled: the stop does not wait out its 30 s of silence (an
  # ffmpeg that never answers; ffprobe is the real one)
  printf '#!/bin/sh\nexec sleep 1000\n' > "$fx/hangbin/ffmpeg"; chmod +x "$fx/hangbin/ffmpeg"
  mkdir -p "$fx/stallbin"; ln -sf "$fx/hangbin/ffmpeg" "$fx/stallbin/ffmpeg"
  (cd "$w" && PATH="$fx/stallbin:$PATH" exec timeout -s KILL 20 "${R[@]}" "$fx/ok.frag" --channel0 "$fx/hang.mp4" -o x.png 2>err) & p=$!
  sleep 2; kill -INT "$p" 2>/dev/null  # timeout passes it on to the render
  wait "$p"; rc=$?
  check_eq "Ctrl-C during a stalled video decode: exit 130, not a 30 s wait ($(cat "$w/err"))" 130 "$rc"
  check_eq "... nothing left behind" "err" "$(ls -A "$w")"
  rm -rf "${w:?}"/*

  # a phone's portrait video: a 64x32 stream with a quarter turn in its display matrix plays 32x64,
  # upright, as a browser shows it; the texture is the decoded frame, not a transposed smear
  ffmpeg -v error -nostdin -f lavfi -i testsrc=size=64x32:rate=10 -t 1 -c:v libx264 -pix_fmt yuv444p -qp 0 "$fx/flat.mp4"
  ffmpeg -v error -nostdin -i "$fx/flat.mp4" -c copy -metadata:s:v:0 rotate=90 "$fx/portrait.mp4"
  ffmpeg -v error -nostdin -i "$fx/portrait.mp4" -frames:v 1 "$fx/portrait_ref.png"
  printf 'void mainImage(out vec4 c, in vec2 f) { c = texelFetch(iChannel0, ivec2(f), 0);\n  if (f.x < 1.0 && f.y < 1.0) c = vec4(iChannelResolution[0].xy / 255.0, 0, 1); }\n' > "$fx/rot.frag"
  out=$(cd "$w" && timeout 60 "$bin" render --quiet --size 32x64 "$fx/rot.frag" --channel0 "$fx/portrait.mp4" -o rot.png 2>&1); rc=$?
  check "a video with a rotation draws (rc $rc: $out)" [ "$rc" -eq 0 ]
  cmp=$("$py" -c '
import sys; sys.path.insert(0, sys.argv[1]); import png
r, f = png.read(sys.argv[2]), png.read(sys.argv[3])
w, h = r[0], r[1]
print(png.px(r, 0, h - 1)[:2], (f[0], f[1]), max(abs(a - b) for y in range(h) for x in range(w) if (x, y) != (0, h - 1)
      for a, b in zip(png.px(r, x, y)[:3], png.px(f, x, y)[:3])))' "$(dirname "$0")" "$w/rot.png" "$fx/portrait_ref.png" 2>&1)
  check_eq "the rotated video is 32x64 (iChannelResolution), upright, the frame ffmpeg shows" "(32, 64) (32, 64) 0" "$cmp"
  rm -rf "${w:?}"/*

  # outputs: a ':' in a directory is not a protocol, and the user's empty --ffmpeg-args are ffmpeg's defaults
  for o in "take:2/clip.mp4" "pipe:/clip.mp4" "x.mov"; do
    extra=(); [ "$o" = x.mov ] && extra=(--ffmpeg-args '')
    out=$(cd "$w" && umask 022 && timeout 60 "${R[@]}" "$fx/ok.frag" --frames 5 -o "$o" "${extra[@]}" 2>&1 >/dev/null); rc=$?
    check "-o $o ${extra[*]} makes the video (rc $rc: $out)" [ "$rc" -eq 0 ]
    check_eq "-o $o: 5 frames, read by ffprobe" "5" \
      "$(ffprobe -v error -count_frames -show_entries stream=nb_read_frames -of csv=p=0 "file:$w/$o" 2>&1)"
  done
  check_eq "... and nothing else is left (no temporaries)" "pipe: take:2 x.mov" "$(cd "$w" && echo *)"
  check_eq "... the video has a new file's mode (umask), not a temporary's 0600" "644" "$(stat -c %a "$w/x.mov")"
  rm -rf "${w:?}"/*
fi

# ---- resource limits and hostile environments (issue 25) ---------------------------------------------
# past `ulimit -f`: the one-line "File too large" naming the file, no SIGXFSZ death, no temporary left
grad='void mainImage(out vec4 c, in vec2 f) { c = vec4(fract(f.x * 0.37 + f.y * 0.11), f.y / 64.0, 0.5, 1.0); }'
printf '%s\n' "$grad" > "$fx/grad.frag"
bad 1 "big.png: File too large \(0 of 1 frames written\)" bash -c 'ulimit -f 1; exec "$@"' sh "$bin" render --quiet --size 512x512 "$fx/grad.frag" -o big.png
if command -v ffmpeg >/dev/null; then
  bad 1 "big.mp4: ffmpeg could not finish it: File too large" bash -c 'ulimit -f 1; exec "$@"' sh "$bin" render --quiet --size 256x256 --frames 30 "$fx/grad.frag" -o big.mp4
fi
# a disk that fills under several encoders (issue 38): frames are renamed into place in order, so what
# the message counts is what is there, frames 0..N-1 with no hole, and the file it names is frame N.
# Encoders finish out of order: it was a race (frames 1..8 there, frame 0 missing), so it runs 5 times.
if [ "$(id -u)" = 0 ]; then fns=(unshare -m); else fns=(unshare -r -m); fi
noise='void mainImage(out vec4 c, in vec2 f) { c = vec4(fract(sin(dot(f, vec2(12.9898, 78.233)) + iTime) * 43758.5453), 0.3, 0.5, 1.0); }'
printf '%s\n' "$noise" > "$fx/noise.frag"
if "${fns[@]}" mount -t tmpfs -o size=1m tmpfs "$w" 2>/dev/null; then
  for i in 1 2 3 4 5; do
    got=$("${fns[@]}" bash -c 'mount -t tmpfs -o size=1m tmpfs "$1" && cd "$1" && shift &&
          "$@" -o f%03d.png 2>&1; echo "rc=$?"; ls -A | tr "\n" " "' _ "$w" "$bin" render --quiet \
          --size 200x100 --frames 40 --jobs 4 "$fx/noise.frag")
    n=$(sed -n 's/.*No space left on device (\([0-9]*\) of 40 frames written)$/\1/p' <<<"$got")
    want=$(for ((k = 0; k < ${n:-0}; k++)); do printf 'f%03d.png ' "$k"; done)
    check "a full disk, run $i: exit 1, and the count ($n) is the frames there, 0..$((${n:-1} - 1)), nothing else (got: $got)" \
      bash -c '[ -n "$1" ] && grep -q "^rc=1$" <<<"$2" && [ "$(tail -n 1 <<<"$2")" = "$3" ] &&
               grep -q "^ikshade render: f$(printf %03d "$1").png: No space left" <<<"$2"' _ "$n" "$got" "$want"
  done
else
  echo "note: no mount namespace here (unshare): the full-disk case not run" >&2
fi
# an interrupted video of a sound toy: the sound is cut where the picture ends (it was the whole
# asked-for minute and a half under ten seconds of picture, "properly closed")
if command -v ffmpeg >/dev/null; then
  snd=$(cd "$(dirname "$0")/.." && pwd)/examples/sound.frag
  (cd "$w" && exec "$bin" render --quiet --size 64x64 --frames 6000 "$snd" -o snd.mp4 2>err) & p=$!
  for _ in $(seq 200); do [ -n "$(ls -A "$w" | grep '^\.snd')" ] && break; sleep 0.05; done
  sleep 2; kill -INT "$p"; wait "$p"; rc=$?
  check_eq "a sound toy's video, interrupted: exit 130 ($(cat "$w/err"))" 130 "$rc"
  lens=$(ffprobe -v error -show_entries stream=codec_type,duration -of csv=p=0 "$w/snd.mp4" | sort | tr '\n' ' ')
  check "... its sound ends with its picture (audio,video durations: $lens)" "$py" -c '
import sys; d = dict(x.split(",") for x in sys.argv[1].split())
sys.exit(0 if float(d["video"]) < 90 and abs(float(d["audio"]) - float(d["video"])) < 0.1 else 1)' "$lens"
  rm -rf "${w:?}"/*
fi
# a scheduler's numbers out of any scheduler's range: refused by name, no overflow (UBSan), no blame
# for a --shard the user never typed
bad 2 "SLURM_ARRAY_TASK_ID '9223372036854775807': expected a whole number from 0 to 1000000000" \
  env SLURM_ARRAY_TASK_ID=9223372036854775807 SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_TASK_MIN=-9223372036854775807 \
  "${R[@]}" "$fx/ok.frag" --shard auto --frames 4 -o f/%d.png
bad 2 "SLURM_ARRAY_TASK_MIN '-5': expected a whole number from 0 to 1000000000" \
  env SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_TASK_MIN=-5 "${R[@]}" "$fx/ok.frag" --shard auto --frames 4 -o f/%d.png
bad 2 "SLURM_ARRAY_TASK_STEP '9223372036854775807': expected a whole number from 1 to 1000000000" \
  env SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_STEP=9223372036854775807 \
  "${R[@]}" "$fx/ok.frag" --shard auto --frames 4 -o f/%d.png
bad 2 "JOB_COMPLETION_INDEX '9223372036854775807': expected a whole number from 0 to 1000000000" \
  env JOB_COMPLETION_INDEX=9223372036854775807 "${R[@]}" "$fx/ok.frag" --shard auto --shard-count 3 --frames 4 -o f/%d.png

# ---- solve's odd numbers -----------------------------------------------------------------------------
bad 1 "stdin:1: field 1 \(px\): '1e400' is out of range for a float" bash -c "echo '1e400 1 1 1' | \"\$0\" solve" "$bin"
bad 1 "stdin:2: a NUL byte" bash -c "printf '1 1 1 1\n1 1\0 1 1\n' | \"\$0\" solve" "$bin"
got=$(printf '\357\273\2771 1 1 1\n' | "$bin" solve 2>&1); rc=$?
check_eq "a UTF-8 byte order mark before the first case is skipped" "0 0.99999994 reached rc=0" "$got rc=$rc"

# ---- a library loaded on first use that is not there: one line naming it and its package ----
# (libcurl hidden by a file bind-mounted over it in a private mount namespace; root or user namespaces)
src_dir=$(cd "$(dirname "$0")/.." && pwd)
if [ "$(id -u)" = 0 ]; then ns=(unshare -m); else ns=(unshare -r -m); fi
curl_so=$(ldconfig -p | sed -n 's/.*libcurl.so.4 (libc6,x86-64) => \(.*\)/\1/p' | head -n 1)
if [ -n "$curl_so" ] && "${ns[@]}" true 2>/dev/null; then
  : > "$tmp/empty.so"
  out=$("${ns[@]}" bash -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' _ "$tmp/empty.so" "$curl_so" \
        "$bin" import XsXXDn -o "$tmp/nocurl" --key k --base-url http://127.0.0.1:9 2>&1); rc=$?
  check_eq "import without libcurl: exit 1" 1 "$rc"
  check "... one line naming libcurl.so.4 and its package ($out)" \
    bash -c '[ "$(grep -c . <<<"$1")" = 1 ] && grep -q "libcurl.so.4 cannot be loaded (.*): install libcurl4" <<<"$1"' _ "$out"
  check "... and nothing made" test ! -e "$tmp/nocurl"
  out=$("${ns[@]}" bash -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' _ "$tmp/empty.so" "$curl_so" \
        "$bin" render "$src_dir/shaders/limb.frag" -o "$tmp/nocurl.png" --size 32x18 --quiet 2>&1); rc=$?
  check "... while a render, which never needs it, works (rc $rc: $out)" test $rc -eq 0 -a -s "$tmp/nocurl.png"
else
  echo "note: no libcurl.so.4 in ldconfig's cache or no mount namespace: the missing-library case not run" >&2
fi

echo "$rows bad inputs"
finish
