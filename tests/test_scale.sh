#!/usr/bin/env bash
# Renders split across processes as schedulers run them: --shard K/N and --shard auto (Slurm array,
# Kubernetes Indexed Job and GNU parallel environments) give exactly the files of one run, N above the
# frame count included; --resume after a render killed mid-way gives one run's files, redrawing broken
# ones; checkpoints let a feedback toy's later range start there (fewer frames drawn, counted) with
# the same bytes; a checkpoint of another toy (another shader, a volume rewritten in place), size or fps
# is not used (several toys share one directory, each its own files), one of another format version or
# a damaged one (cut short even right after its header) is refused, and never kept by a later save.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 root=$2
trails=$root/examples/scale-out/trails
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
# the tests set these themselves: none may leak in from a scheduler running the suite
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_MAX SLURM_ARRAY_TASK_STEP \
      JOB_COMPLETION_INDEX PARALLEL_SEQ
# same DIR A B: the same visible files with the same bytes
same() { diff -r -x '.*' "$1" "$2" >/dev/null && [ "$(ls "$1" | wc -l)" -eq "$(ls "$2" | wc -l)" ]; }
# explain_frames A B: for each frame whose bytes differ, whether its pixels differ too (else only the
# encoding does), by how much, and which frame of A has B's pixels (a frame drawn or written out of turn)
explain_frames() {
  python3 - "$1" "$2" "$root/tests" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[3])
from png import read
a, b = sys.argv[1], sys.argv[2]
for f in sorted(os.listdir(a)):
    pa, pb = os.path.join(a, f), os.path.join(b, f)
    if not os.path.exists(pb) or open(pa, 'rb').read() == open(pb, 'rb').read():
        continue
    ia, ib = read(pa), read(pb)
    d = [abs(x - y) for ra, rb in zip(ia[3], ib[3]) for x, y in zip(ra, rb)]
    same = [g for g in sorted(os.listdir(a)) if read(os.path.join(a, g))[3] == ib[3]]
    print(f'  {f}: {sum(1 for v in d if v)} of {len(d)} channel values differ, max {max(d)}; '
          f'sizes {os.path.getsize(pa)} and {os.path.getsize(pb)} bytes; {b}/{f} has the pixels of {a}/{same}')
PY
}
# ck DIR N: the name of DIR's checkpoint of frame N (ckpt-KEY-FRAME.iksc), one per line if several
ck() { ls "$1" | grep -E "^ckpt-[0-9a-f]{16}-0*$2\.iksc$"; }
# same_frames A B: every file of B has the bytes of A's file of its name
same_frames() { local f; for f in "$2"/*; do cmp -s "$f" "$1/${f##*/}" || return 1; done; }
differ() { ! cmp -s "$1" "$2"; }
# summary FILE WORDS: the number before WORDS in the summary line, 0 when absent
num() { grep -oE "[0-9]+ $2" "$1" | head -1 | grep -oE '^[0-9]+' || echo 0; }

# ---- shards ------------------------------------------------------------------------------------------
R=(render "$trails" --size 96x54)
"$bin" "${R[@]}" -o one/%03d.png --frames 9 --quiet
check "one run: 9 frames" [ "$(ls one | wc -l)" -eq 9 ]
for n in 1 2 4 9 12; do
  for ((k = 0; k < n; k++)); do "$bin" "${R[@]}" -o "s$n/%03d.png" --frames 9 --shard "$k/$n" 2>>"s$n.log" || echo "shard $k/$n failed" >>"s$n.log"; done
  check "--shard K/$n: the union of the $n parts is one run, byte for byte" same one "s$n"
  check "--shard K/$n: no part failed" [ "$(grep -c failed "s$n.log")" -eq 0 ]
done
check "12 parts of 9 frames: 3 are empty, and say so" [ "$(grep -c 'has no frames: nothing to do' s12.log)" -eq 3 ]
check "each part renders its own frames only" [ "$(grep -c '1 frame of' s9.log)" -eq 9 ]
"$bin" "${R[@]}" -o sr/%03d.png --frames 3:9 --shard 1/2 2>sr.log
check "--shard splits the --frames range: part 1/2 of 3:9 is 6:9" grep -q 'shard 1/2: frames 6:9' sr.log
check "... and only those files" [ "$(ls sr | tr '\n' ' ')" = "006.png 007.png 008.png " ]

# a part refuses what one run of the whole range refuses, though its own range would pass: one file for
# several frames (every part would overwrite it), a last frame's iTime past the bound
"$bin" "${R[@]}" -o still.png --frames 3 --shard 0/3 2>still.err; rc=$?
check "--shard 0/3 of 3 frames into one PNG: a usage error, as one run's" [ "$rc" -eq 2 ]
check "... naming the whole range" grep -q "3 frames need a frame number" still.err
check "... and writing no file" [ ! -e still.png ]
"$bin" "${R[@]}" -o far/%d.png --fps 1e-9 --frames 3 --shard 0/3 2>far.err; rc=$?
check "--shard 0/3 whose own frame is within iTime's bound, the whole range's last not: usage error" [ "$rc" -eq 2 ]
check "... naming the whole range's last frame" grep -q "frame 2's time" far.err

# --shard auto from each scheduler's environment: Slurm (--array=3-9:2 is tasks 3 5 7 9: K 0..3)
for id in 3 5 7 9; do
  SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=3 SLURM_ARRAY_TASK_MAX=9 SLURM_ARRAY_TASK_STEP=2 \
    "$bin" "${R[@]}" -o slurm/%03d.png --frames 9 --shard auto --quiet
done
check "--shard auto in a Slurm array (--array=3-9:2): one run" same one slurm
for i in 0 1 2; do JOB_COMPLETION_INDEX=$i "$bin" "${R[@]}" -o kube/%03d.png --frames 9 --shard auto --shard-count 3 --quiet; done
check "--shard auto in a Kubernetes Indexed Job (3 completions): one run" same one kube
if command -v parallel >/dev/null; then
  # real GNU parallel sets PARALLEL_SEQ 1..4, two jobs at a time
  parallel --will-cite -j 2 -N0 "$bin" "${R[@]}" -o par/%03d.png --frames 9 --shard auto --shard-count 4 --quiet ::: 1 2 3 4
  check "--shard auto under GNU parallel (4 jobs): one run" same one par
else
  check "GNU parallel is installed (scripts/deps.sh installs it)" false
fi

# GNU parallel over ssh, as the README runs it on other hosts (-S, --workdir .): here "ssh" runs the
# command on this machine, which tests what reaches the remote side (PARALLEL_SEQ, the directory)
fakessh=$tmp/fakessh
# Real ssh starts the remote command in the home directory, and parallel's --workdir . sends this
# directory relative to $HOME when it finds $HOME (by device and inode) among its parents, else whole
# (and "." when it cannot tell where it is). Which of these a run took depended on the home the suite
# ran under, and a stand-in that guessed wrong put the frames elsewhere (CI's did, twice), so each run
# below starts in a fresh home of its own, where all three name the same directory.
# sshd also sets SHELL (the login shell), which parallel's remote side runs the job with: CI runs the
# suite with SHELL unset, where the job silently did nothing and parallel still exited 0, so the
# stand-in sets it as sshd would. It logs where it started, so a failure says where the frames went.
printf '#!/bin/sh\n# ssh HOST -- COMMAND...: run it here, from $HOME and with SHELL set, as sshd does\nshift; [ "$1" = -- ] && shift\ncd "$HOME" || exit 255\nexport SHELL=/bin/sh\necho "ssh started in $(pwd)" >>"%s"\nexec sh -c "$*"\n' "$tmp/fakessh.log" >"$fakessh"
chmod +x "$fakessh"
# where_to: on a failure, say where the stand-in started and where frames were written
where_to() { sort -u "$tmp/fakessh.log" | sed 's/^/  /' >&2; find "$tmp" -name '*.png' -newer "$fakessh" -printf '  wrote %h\n' | sort -u >&2; }
mkdir -p "$tmp/h1" && cd "$tmp/h1"
HOME=$tmp/h1 parallel --will-cite --ssh "$fakessh" -S 1/hostA,1/hostB --workdir . -N0 "$bin" "${R[@]}" -o ssh/%03d.png \
  --frames 9 --shard auto --shard-count 3 --quiet ::: 1 2 3
cd "$tmp"
check "--shard auto under GNU parallel over (stand-in) ssh hosts: one run" same one h1/ssh || where_to

# examples/scale-out/render-parallel.sh as shipped: here, then over the stand-in ssh hosts (into a
# directory whose name has a space, which must reach the remote command as one word)
"$bin" "${R[@]}" -o one5/%05d.png --frames 9 --quiet
IKSHADE=$bin SHADER=$trails OUT=pscript FRAMES=0:9 SIZE=96x54 CHECKPOINT_EVERY=4 JOBS=2 \
  "$root/examples/scale-out/render-parallel.sh" 4
check "render-parallel.sh, 4 parts here: one run" same one5 pscript
check "... leaving checkpoints beside the frames" [ -s "pscript.checkpoints/$(ck pscript.checkpoints 4)" ]
mkdir -p "$tmp/h2" && cd "$tmp/h2"
HOME=$tmp/h2 PARALLEL_SSH=$fakessh HOSTS=1/hostA,1/hostB IKSHADE=$bin SHADER=$trails OUT="p ssh" FRAMES=0:9 \
  SIZE=96x54 "$root/examples/scale-out/render-parallel.sh" 3
cd "$tmp"
check "render-parallel.sh, 3 parts over two ssh hosts: one run" same one5 "h2/p ssh" || where_to
# a host whose jobs never start (the stand-in drops them, exit 0, as ssh without SHELL did): parallel
# reports success, the script counts the frames and does not
printf '#!/bin/sh\nexit 0\n' >"$tmp/deadssh" && chmod +x "$tmp/deadssh"
PARALLEL_SSH=$tmp/deadssh HOSTS=1/hostA IKSHADE=$bin SHADER=$trails OUT=dead FRAMES=2:9 SIZE=96x54 \
  "$root/examples/scale-out/render-parallel.sh" 3 2>dead.err; rc=$?
check "render-parallel.sh: jobs that did nothing fail the script (exit 1)" [ "$rc" -eq 1 ]
check "... with one line counting the missing frames" grep -qx 'render-parallel.sh: 7 of 7 frames missing in dead/; run the same line again to draw them' dead.err

# the Kubernetes Indexed Job's own command, run here once per index as its pods would (at a smaller
# size and frame range): the manifest's shard count matches its completions, and the parts make one run
python3 - "$root/examples/scale-out/render-job.yaml" >kube.args <<'PY' || echo "manifest unreadable" >kube.args
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
spec = job["spec"]
assert job["kind"] == "Job" and spec["completionMode"] == "Indexed", "not an Indexed Job"
cmd = spec["template"]["spec"]["containers"][0]["command"]
n = int(cmd[cmd.index("--shard-count") + 1])
assert n == spec["completions"], f"--shard-count {n}, completions {spec['completions']}"
assert cmd[cmd.index("--shard") + 1] == "auto"
cmd[cmd.index("--size") + 1] = "96x54"
cmd[cmd.index("--frames") + 1] = "0:9"
cmd[cmd.index("-o") + 1] = "frames/%03d.png"
print(n, spec["template"]["spec"]["containers"][0]["workingDir"], *cmd)
PY
read -r kn kdir kprog kargs <kube.args
check "the Job manifest reads as an Indexed Job whose --shard-count is its completions" [ "$kprog" = ikshade ]
mkdir -p kwork/shaders && cp -r "$trails" kwork/shaders/trails # the toy where the pods' volume has it
for ((i = 0; i < ${kn:-0}; i++)); do (cd kwork && JOB_COMPLETION_INDEX=$i "$bin" $kargs); done
check "the Job's $kn pods' frames (its own command) equal one run" same one kwork/frames

# bad shards: one line, exit 2, nothing drawn
expect_fail "--shard auto with no scheduler" 2 "none of SLURM_ARRAY_TASK_ID .*JOB_COMPLETION_INDEX .*PARALLEL_SEQ .*give --shard K/N" \
  "$bin" "${R[@]}" -o bad/%03d.png --frames 9 --shard auto
expect_fail "--shard 3/3" 2 "--shard '3/3': expected part k of n with n >= 1 and k from 0 to n-1" "$bin" "${R[@]}" -o bad/%03d.png --shard 3/3
expect_fail "--shard 1" 2 "--shard '1': expected K/N" "$bin" "${R[@]}" -o bad/%03d.png --shard 1
expect_fail "--shard -1/2" 2 "--shard '-1/2': expected part k of n" "$bin" "${R[@]}" -o bad/%03d.png --shard -1/2
expect_fail "Kubernetes without --shard-count" 2 "JOB_COMPLETION_INDEX .*needs --shard-count N" \
  env JOB_COMPLETION_INDEX=0 "$bin" "${R[@]}" -o bad/%03d.png --shard auto
expect_fail "PARALLEL_SEQ past --shard-count" 2 "PARALLEL_SEQ 5 is past --shard-count 4" \
  env PARALLEL_SEQ=5 "$bin" "${R[@]}" -o bad/%03d.png --shard auto --shard-count 4
expect_fail "an irregular Slurm array" 2 "Slurm array task 5 is not one of 3 evenly spaced tasks" \
  env SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=7 "$bin" "${R[@]}" -o bad/%03d.png --shard auto
expect_fail "two schedulers at once" 2 "more than one scheduler" \
  env SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=1 SLURM_ARRAY_TASK_MIN=0 PARALLEL_SEQ=1 "$bin" "${R[@]}" -o bad/%03d.png --shard auto
expect_fail "--shard-count against the Slurm array's" 2 "--shard-count 5, but the Slurm array has 2 tasks" \
  env SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_TASK_MIN=0 "$bin" "${R[@]}" -o bad/%03d.png --shard auto --shard-count 5
check "no bad shard wrote anything" [ ! -e bad ]

# ---- resume ------------------------------------------------------------------------------------------
# a render killed (SIGKILL: no clean-up at all) once some of its frames are on disk, then run again
# with --resume: the same files as one run, and only the missing frames drawn
# (a shader of about 35 ms a frame on llvmpipe: the limb demo's 5 ms let a render finish all 60 frames
# between two looks of a loaded machine's poll, and the kill then found nothing to interrupt)
cat > slow.frag <<'GLSL'
void mainImage(out vec4 c, in vec2 p) {
    float a = 0.0;
    for (int i = 0; i < 600; i++) a = fract(a * 1.7 + sin(p.x * 0.01 + float(i) * 0.1 + iTime));
    c = vec4(a, p.y / iResolution.y, 0.5, 1.0);
}
GLSL
L=(render slow.frag --size 320x180 --frames 60 --jobs 1)
"$bin" "${L[@]}" -o lone/%03d.png --quiet
"$bin" "${L[@]}" -o lres/%03d.png --quiet & pid=$!
for _ in $(seq 400); do [ "$(ls lres 2>/dev/null | wc -l)" -ge 10 ] && break; sleep 0.02; done
kill -KILL $pid; wait $pid 2>/dev/null
have=$(ls lres | wc -l)
check "the render was killed mid-way: at least 10 frames there" [ "$have" -ge 10 ]
check "... and not all 60" [ "$have" -lt 60 ]
# damage the way disks and other programs do: a truncated frame, an empty one, another size
head -c 300 lone/003.png >lres/003.png
: >lres/004.png
"$bin" render "$root/shaders/limb.frag" --size 32x18 -o lres/005.png --quiet
"$bin" "${L[@]}" -o lres/%03d.png --resume 2>res.log
check "--resume after a kill equals one run, byte for byte" same lone lres
kept=$(num res.log 'kept from before') wrote=$(grep -oE '^ikshade render: [0-9]+' res.log | grep -oE '[0-9]+$')
check "--resume kept the complete frames" [ "$kept" -eq $((have - 3)) ]
check "... and redrew the 3 damaged ones and the missing ones" [ "$wrote" -eq $((60 - have + 3)) ]
"$bin" "${L[@]}" -o lres/%03d.png --resume 2>res2.log
check "--resume with every frame there draws nothing" grep -q '^ikshade render: 0 frames .*(60 kept from before)' res2.log
# what a killed run was writing (hidden temporaries beside its frames, as a lost node leaves them) is
# removed when the part runs again, and only that part's: another part's may be a live render's
S=(render "$root/shaders/limb.frag" --size 32x18 --frames 6 -o stale/%02d.png)
"$bin" "${S[@]}" --quiet
head -c 50 stale/04.png >stale/.04.png.Ab12Cd; cp stale/05.png stale/.01.png.Zz98Yx; : >stale/.05.png.QwErTy
: >stale/.05.png.short; rm stale/04.png
"$bin" "${S[@]}" --shard 0/2 --resume 2>stale0.log
check_eq "--resume of part 0/2 removes its own temporary, not part 1's" ".04.png.Ab12Cd .05.png.QwErTy .05.png.short 00.png 01.png 02.png 03.png 05.png " \
  "$(ls -A stale | tr '\n' ' ')"
check "... and says so" grep -q 'resume: removed 1 temporary a stopped run left (stale/.01.png.Zz98Yx)' stale0.log
"$bin" "${S[@]}" --shard 1/2 --resume 2>stale1.log
check_eq "--resume of part 1/2 removes its two, draws the missing frame, keeps a name not of its making" \
  ".05.png.short 00.png 01.png 02.png 03.png 04.png 05.png " "$(ls -A stale | tr '\n' ' ')"
check "... and says so" grep -q 'resume: removed 2 temporaries a stopped run left' stale1.log
# hold FILE: a live writer's lock on FILE (flock, as ikshade holds its temporaries' until they are
# renamed), held by a process of its own until `kill $held`; returns once it is held
hold() {
  (flock -x 9 && exec sleep 120) 9<>"$1" &
  held=$!
  for _ in $(seq 200); do flock -n -x "$1" true 2>/dev/null || return 0; sleep 0.02; done
  return 1
}
# a temporary of this part whose writer lives (a run of the same part on a node cut off from the
# controller, not dead) is left; the dead writer's beside it is removed
cp stale/03.png stale/.02.png.LiVe01; head -c 30 stale/01.png >stale/.01.png.DeAd01
check "a live writer's lock is held on stale/.02.png.LiVe01" hold stale/.02.png.LiVe01
"$bin" "${S[@]}" --shard 0/2 --resume 2>stale2.log
check_eq "--resume removes a temporary no process holds, and leaves one whose writer holds its lock" \
  ".02.png.LiVe01 00.png 01.png 02.png 03.png 04.png 05.png " "$(ls -A stale | grep -v short | tr '\n' ' ')"
check "... and says so, naming the dead one" grep -q 'resume: removed 1 temporary a stopped run left (stale/.01.png.DeAd01)' stale2.log
kill $held; wait $held 2>/dev/null
"$bin" "${S[@]}" --shard 0/2 --resume 2>stale3.log
check_eq "... and removes it once its writer is gone" ".05.png.short 00.png 01.png 02.png 03.png 04.png 05.png " \
  "$(ls -A stale | tr '\n' ' ')"

# a feedback toy killed mid-way: the kept frames are drawn again unsaved for the buffers' state
T=(render "$trails" --size 320x180 --frames 40 --jobs 1)
"$bin" "${T[@]}" -o tone/%03d.png --quiet
"$bin" "${T[@]}" -o tres/%03d.png --quiet & pid=$!
for _ in $(seq 400); do [ "$(ls tres 2>/dev/null | wc -l)" -ge 8 ] && break; sleep 0.02; done
kill -KILL $pid; wait $pid 2>/dev/null
have=$(ls tres | wc -l)
check "the feedback render was killed with frames on disk" [ "$have" -ge 3 ]
rm -f tres/002.png # a hole before the others: the frames after it are still kept
"$bin" "${T[@]}" -o tres/%03d.png --resume 2>tres.log
check "--resume of a feedback toy after a kill ($have of 40 there) equals one run" same tone tres ||
  { diff -rq -x '.*' tone tres | head -5 >&2; sed 's/^/  resume: /' tres.log >&2; ls -A tres | tr '\n' ' ' >&2; echo >&2
    explain_frames tone tres >&2; }
check "... keeping the frames there" [ "$(num tres.log 'kept from before')" -eq $((have - 1)) ]

# what counts as complete is this render's kind of PNG: 16-bit ones are kept by a 16-bit render, and
# RGBA frames are drawn again by a render that makes RGB ones
"$bin" render "$root/shaders/limb.frag" --size 64x36 --depth 16 -o r16/%02d.png --frames 3 --quiet
"$bin" render "$root/shaders/limb.frag" --size 64x36 --depth 16 -o r16/%02d.png --frames 3 --resume 2>r16.log
check "16-bit PNGs are kept by a 16-bit render" grep -q '^ikshade render: 0 frames .*(3 kept from before)' r16.log
"$bin" render "$root/shaders/limb.frag" --size 64x36 --alpha -o ra/%02d.png --frames 3 --quiet
"$bin" render "$root/shaders/limb.frag" --size 64x36 -o ra/%02d.png --frames 3 --resume 2>ra.log
check "RGBA frames are drawn again by an RGB render" grep -q '^ikshade render: 3 frames of 64x36' ra.log
check "... which replaced them with RGB ones" [ "$(python3 "$root/tests/png.py" info ra/01.png)" = "64 36 3" ]
expect_fail "--resume into a video" 2 "--resume: with output 'x.mp4': resume keeps files it can check whole, frames in PNG, JPEG or EXR files" "$bin" render -o x.mp4 --frames 2 --resume
expect_fail "--resume into an animated WebP (one file)" 2 "--resume: with output 'x.webp': resume keeps files it can check whole" "$bin" render -o x.webp --frames 2 --resume

# every kind of frame file resumes (issue 38): JPEG, EXR (half and float) and 16-bit PNG keep their
# whole frames and draw a missing one and one cut short, giving the files of one run, byte for byte
for kind in jpg exr exr32 png16; do
  ext=${kind%%[0-9]*} opt=()
  case $kind in exr32) opt=(--depth 32);; png16) opt=(--depth 16);; esac
  F=(render "$root/shaders/limb.frag" --size 64x36 --frames 5 "${opt[@]}")
  "$bin" "${F[@]}" -o "k1$kind/%02d.$ext" --quiet
  "$bin" "${F[@]}" -o "k2$kind/%02d.$ext" --quiet
  rm "k2$kind/01.$ext"
  head -c 200 "k1$kind/03.$ext" > "k2$kind/03.$ext"
  "$bin" "${F[@]}" -o "k2$kind/%02d.$ext" --resume 2>"k$kind.log"; rc=$?
  check "--resume of .$ext frames ($kind): exit 0, the missing and the cut-short frame drawn, 3 kept ($(cat "k$kind.log"))" \
    bash -c '[ "$1" = 0 ] && grep -q "^ikshade render: 2 frames .*(3 kept from before)" "$2"' _ "$rc" "k$kind.log"
  check "... the files of one run, byte for byte" same "k1$kind" "k2$kind"
done

# --resume across an edit: frames of a red shader, one lost, the shader made blue: the red frames are
# of another render (each frame file carries the render's identity), so all four are drawn blue, and
# the warning says how many were replaced. In every frame format that resumes.
red='void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0, 0.0, 0.0, 1.0); }'
blue='void mainImage(out vec4 c, in vec2 f) { c = vec4(0.0, 0.0, 1.0, 1.0); }'
for ext in png jpg exr; do
  printf '%s\n' "$red" > edit.frag
  "$bin" render edit.frag --size 32x32 --frames 4 -o "ed$ext/%d.$ext" --quiet
  rm "ed$ext/2.$ext"
  printf '%s\n' "$blue" > edit.frag
  "$bin" render edit.frag --size 32x32 --frames 4 -o "ed$ext/%d.$ext" --resume 2>"ed$ext.log"; rc=$?
  "$bin" render edit.frag --size 32x32 --frames 4 -o "eb$ext/%d.$ext" --quiet
  check "--resume after the shader changed (.$ext): exit 0, all 4 drawn, none kept ($(cat "ed$ext.log"))" \
    bash -c '[ "$1" = 0 ] && grep -q "^ikshade render: 4 frames of 32x32" "$2" && ! grep -q "kept from before" "$2"' _ "$rc" "ed$ext.log"
  check "... the warning says 3 frames of another render were drawn again" \
    grep -q "^ikshade render: warning: resume: 3 frames there were drawn by another render" "ed$ext.log"
  check "... the frames are those of a fresh blue render, byte for byte" same "ed$ext" "eb$ext"
done
check "... blue, as Python's zlib reads them" [ "$(python3 "$root/tests/png.py" pixel edpng/0.png 16 16)" = "0 0 255" ]
# the same render again: its own frames, all kept
"$bin" render edit.frag --size 32x32 --frames 4 -o edpng/%d.png --resume 2>same.log
check "the same render again keeps all 4, with no warning" \
  bash -c 'grep -q "(4 kept from before)" "$1" && ! grep -q warning "$1"' _ same.log
expect_fail "--checkpoint-every without --checkpoint" 2 "--checkpoint-every '4': needs --checkpoint: where the checkpoints go" \
  "$bin" render -o c/%02d.png --checkpoint-every 4
expect_fail "--checkpoint-every 0" 2 "--checkpoint-every '0': expected a number other than 0" \
  "$bin" render -o c/%02d.png --checkpoint cp --checkpoint-every 0

# ---- checkpoints -------------------------------------------------------------------------------------
C=(render "$trails" --size 128x72)
"$bin" "${C[@]}" -o cone/%03d.png --frames 30 --quiet
"$bin" "${C[@]}" -o cpart/%03d.png --frames 0:13 --checkpoint cp --checkpoint-every 5 2>c1.log
check "checkpoints after frames 5 and 10 (none at 15: not drawn), named by the render's key" \
  [ "$(ls cp | sed -E 's/^ckpt-[0-9a-f]{16}-/ckpt-KEY-/' | tr '\n' ' ')" = "ckpt-KEY-000000000005.iksc ckpt-KEY-000000000010.iksc " ]
check "... one key for both" [ "$(ls cp | cut -c 6-21 | sort -u | wc -l)" -eq 1 ]
check "a checkpoint holds both halves of each buffer pair in float, and a little" \
  [ "$(stat -c %s "cp/$(ck cp 5)")" -eq $((208 + 2 * 128 * 72 * 16 + 1 + 768 + 8)) ]
"$bin" "${C[@]}" -o cpart/%03d.png --frames 22:30 --checkpoint cp --checkpoint-every 5 2>c2.log
"$bin" "${C[@]}" -o cpart/%03d.png --frames 13:22 --checkpoint cp 2>c3.log
check "ranges 0:13, 22:30, 13:22 through checkpoints equal one run of 30, byte for byte" same cone cpart
check "22:30 started from the newest checkpoint at or before it: frame 10's" \
  grep -q 'buffers from the checkpoint of frame 10' c2.log
check "... and drew only frames 10..21 unsaved: 12, not 22" [ "$(num c2.log 'drawn unsaved')" -eq 12 ]
check "... writing the checkpoints of frames 15, 20, 25 and 30 on its way" [ "$(num c2.log checkpoints)" -eq 4 ]
check "13:22 started from the checkpoint of frame 10 (3 drawn unsaved, not 13)" \
  grep -q 'buffers from the checkpoint of frame 10) (3 drawn unsaved' c3.log
"$bin" "${C[@]}" -o cnone/%03d.png --frames 22:30 2>c4.log
check "without checkpoints the same range draws all 22 frames before it" [ "$(num c4.log 'drawn unsaved')" -eq 22 ]
mkdir -p cpick && cp cpart/02[2-9].png cpick/
check "a range without checkpoints equals the one through them" same cnone cpick

# a pass that discards pixels keeps the older half of its ping-pong pair there: both halves are state
mkdir -p dtoy
cat >dtoy/a.glsl <<'G'
void mainImage(out vec4 c, in vec2 f) {
  if (iFrame % 3 == 1 && int(f.x) % 2 == 0) discard; // left as the buffer's older half held it
  c = texelFetch(iChannel0, ivec2(f), 0) * 0.9 + vec4(sin(iTime * 3.0 + f.x * 0.1), f.y * 0.01, float(iFrame) * 0.01, 1.0);
}
G
printf 'void mainImage(out vec4 c, in vec2 f) { c = texelFetch(iChannel0, ivec2(f), 0); }\n' >dtoy/image.glsl
printf 'a.iChannel0 = a\nimage.iChannel0 = a\n' >dtoy/manifest.txt
"$bin" render dtoy --size 40x24 -o done/%02d.png --frames 12 --quiet
"$bin" render dtoy --size 40x24 -o dpart/%02d.png --frames 0:5 --checkpoint dcp --checkpoint-every 4 --quiet
"$bin" render dtoy --size 40x24 -o dpart/%02d.png --frames 5:12 --checkpoint dcp 2>d.log
check "a toy that discards: two ranges through a checkpoint equal one run" same done dpart
check "... started from the checkpoint" grep -q 'checkpoint of frame 4' d.log

# a replayed session (mouse and keys) into a toy whose buffer keeps the keyboard's rows and iMouse:
# the keyboard's state and the session's next key cross the checkpoints with the buffers
mkdir -p ktoy
cat >ktoy/a.glsl <<'G'
void mainImage(out vec4 c, in vec2 f) {
  vec4 k = vec4(texelFetch(iChannel1, ivec2(65, 0), 0).r, texelFetch(iChannel1, ivec2(65, 1), 0).r,
                texelFetch(iChannel1, ivec2(65, 2), 0).r, texelFetch(iChannel1, ivec2(66, 2), 0).r);
  c = texelFetch(iChannel0, ivec2(f), 0) * 0.95 + k * 0.1 + vec4(iMouse.xy / 100.0, iMouse.zw / 1000.0) * 0.01 * (f.x + 1.0);
}
G
printf 'void mainImage(out vec4 c, in vec2 f) { c = texelFetch(iChannel0, ivec2(f), 0); }\n' >ktoy/image.glsl
printf 'a.iChannel0 = a\na.iChannel1 = keyboard\nimage.iChannel0 = a\n' >ktoy/manifest.txt
python3 -c '
ev = [(i * 0.025, "f %.3f %.3f 40 24 %d %d 3 4" % (i * 0.025, i * 0.025, i % 17, i % 11)) for i in range(41)]
ev += [(t, "k %.3f %d %d" % (t, k, d)) for t, k, d in ((0.10, 65, 1), (0.15, 65, 0), (0.20, 65, 1), (0.31, 65, 0), (0.36, 66, 1), (0.56, 65, 1), (0.61, 66, 0), (0.81, 65, 0))]
print("ikshade-input 1")
for _, line in sorted(ev, key=lambda e: e[0]): print(line)
' >take.txt
K=(render ktoy --size 40x24 --input take.txt --fps 20)
"$bin" "${K[@]}" -o kone/%02d.png --frames 0:20 --quiet
"$bin" "${K[@]}" -o kpart/%02d.png --frames 0:7 --checkpoint kcp --checkpoint-every 3 --quiet
"$bin" "${K[@]}" -o kpart/%02d.png --frames 13:20 --checkpoint kcp --checkpoint-every 3 2>k2.log
"$bin" "${K[@]}" -o kpart/%02d.png --frames 7:13 --checkpoint kcp 2>k3.log
check "a replayed session with keys: three ranges through checkpoints equal one run" same kone kpart
check "... the later ranges started from the checkpoint of frame 6, after three key events" \
  grep -q 'checkpoint of frame 6' k2.log
check "... both of them" grep -q 'checkpoint of frame 6' k3.log
"$bin" render ktoy --size 40x24 --fps 20 -o kref/%02d.png --frames 10:12 --checkpoint kcp 2>kref.log
check "a checkpoint of another session is not used: a note names the newest and says why" \
  grep -qE "ckpt-[0-9a-f]{16}-000000000009.iksc and other checkpoints there not used: it was made with another frame rate, start time, mouse or recorded session" kref.log
check "... and the range draws its 10 frames before it" [ "$(num kref.log 'drawn unsaved')" -eq 10 ]

# a replayed session that moves the panel's sliders (u lines): a value set before a checkpoint holds in
# a range that starts from it, and one set after it lands on its frame
mkdir -p utoy
cat >utoy/a.glsl <<'G'
#iUniform float gain = 0.1 in { 0.0, 1.0 }
#iUniform vec3 tint = vec3(1.0, 0.5, 0.25)
void mainImage(out vec4 c, in vec2 f) { c = texelFetch(iChannel0, ivec2(f), 0) * 0.9 + vec4(tint * gain, 1.0) * (0.5 + f.x / 80.0); }
G
printf 'void mainImage(out vec4 c, in vec2 f) { c = texelFetch(iChannel0, ivec2(f), 0); }\n' >utoy/image.glsl
printf 'a.iChannel0 = a\nimage.iChannel0 = a\n' >utoy/manifest.txt
python3 -c '
ev = [(i * 0.025, "f %.3f %.3f 40 24 0 0 0 0" % (i * 0.025, i * 0.025)) for i in range(41)]
ev += [(0.12, "u 0.120 gain=0.6"), (0.17, "u 0.170 tint=0.2,0.9,0.4"), (0.47, "u 0.470 gain=0.05"), (0.73, "u 0.730 tint=1,1,1")]
print("ikshade-input 1")
for _, line in sorted(ev, key=lambda e: e[0]): print(line)
' >utake.txt
U=(render utoy --size 40x24 --input utake.txt --fps 20)
"$bin" "${U[@]}" -o uone/%02d.png --frames 0:20 --quiet
"$bin" render utoy --size 40x24 --fps 20 -o unone/%02d.png --frames 0:20 --quiet
check "the u lines change the picture (a run without them differs)" bash -c '! python3 "$1" same uone/19.png unone/19.png' _ "$root/tests/png.py"
"$bin" "${U[@]}" -o upart/%02d.png --frames 0:7 --checkpoint ucp --checkpoint-every 3 --quiet
"$bin" "${U[@]}" -o upart/%02d.png --frames 13:20 --checkpoint ucp 2>u2.log
"$bin" "${U[@]}" -o upart/%02d.png --frames 7:13 --checkpoint ucp 2>u3.log
check "a session of u lines: three ranges through checkpoints equal one run" same uone upart
check "... the later ranges started from the checkpoint of frame 6, after two of its u lines" \
  grep -q 'checkpoint of frame 6' u2.log
check "... both of them" grep -q 'checkpoint of frame 6' u3.log

# checkpoints of other renders are not theirs: another size, fps or shader finds none of its own (a
# note says why the newest there is not used), draws from frame 0 and leaves the others alone
"$bin" render "$trails" --size 64x36 -o oth1/%03d.png --frames 12:14 --checkpoint cp 2>o1.log
check "another size: not used, with why" grep -qE "ckpt-[0-9a-f]{16}-000000000010.iksc and other checkpoints there not used: it holds buffers of 128x72, this render draws 64x36" o1.log
check "... drawn from frame 0" [ "$(num o1.log 'drawn unsaved')" -eq 12 ]
"$bin" "${C[@]}" --fps 30 -o oth2/%03d.png --frames 12:14 --checkpoint cp 2>o2.log
check "another fps: not used, with why" grep -q "not used: it was made with another frame rate, start time, mouse or recorded session" o2.log
cp -r "$trails" other && sed -i 's/0\.97/0.96/' other/a.glsl
"$bin" render other --size 128x72 -o oth3/%03d.png --frames 12:14 --checkpoint cp 2>o3.log
check "another shader: not used, with why" grep -q "not used: it was made from a different toy" o3.log
check "... drawn from frame 0" [ "$(num o3.log 'drawn unsaved')" -eq 12 ]

# two toys checkpointing the same frames into one directory: each keeps its own files and resumes from them
"$bin" "${C[@]}" -o two1/%03d.png --frames 0:10 --checkpoint two --checkpoint-every 5 --quiet
"$bin" render other --size 128x72 -o two2/%03d.png --frames 0:10 --checkpoint two --checkpoint-every 5 --quiet
check "two toys' checkpoints of frames 5 and 10 in one directory: all four there" [ "$(ls two | wc -l)" -eq 4 ]
check "... two of frame 10" [ "$(ck two 10 | wc -l)" -eq 2 ]
check "... the first toy's as it wrote it (the second replaced nothing)" cmp -s "two/$(ck cp 10)" "cp/$(ck cp 10)"
"$bin" "${C[@]}" -o two1/%03d.png --frames 10:13 --checkpoint two 2>two1.log
"$bin" render other --size 128x72 -o two2/%03d.png --frames 10:13 --checkpoint two 2>two2.log
"$bin" render other --size 128x72 -o oone/%03d.png --frames 13 --quiet
check "the first toy resumed from its own checkpoint of frame 10" grep -q 'buffers from the checkpoint of frame 10' two1.log
check "the second toy too" grep -q 'buffers from the checkpoint of frame 10' two2.log
check "... the first toy's frames equal one run's" same_frames cone two1
check "... the second toy's too" same_frames oone two2
check "... which differ from the first toy's (the test tells them apart)" differ two1/012.png two2/012.png

# a volume rewritten in place (same name, same size, other bytes) is another toy: its old checkpoint is
# not used, and the resumed frames are those of a fresh render with the new volume
mkdir -p vtoy
vol() { python3 -c 'import struct, sys, random; r = random.Random(int(sys.argv[2])); open(sys.argv[1], "wb").write(b"BIN\0" + struct.pack("<IIIBBH", 4, 4, 4, 1, 0, 0) + bytes(r.randrange(256) for _ in range(64)))' "$@"; }
vol vtoy/noise.bin 1
printf 'void mainImage(out vec4 c, in vec2 f) { c = texelFetch(iChannel0, ivec2(f), 0) * 0.8 + texelFetch(iChannel1, ivec3(int(f.x) %% 4, int(f.y) %% 4, iFrame %% 4), 0).rrrr * 0.3; }\n' >vtoy/a.glsl
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(texelFetch(iChannel0, ivec2(f), 0).rgb, 1.0); }\n' >vtoy/image.glsl
printf 'a.iChannel0 = a\na.iChannel1 = noise.bin\nimage.iChannel0 = a\n' >vtoy/manifest.txt
"$bin" render vtoy --size 32x18 -o vold/%02d.png --frames 0:8 --checkpoint volcp --checkpoint-every 4 --quiet
sz=$(stat -c %s vtoy/noise.bin)
vol vtoy/noise.bin 2
check "the new volume has the old one's size and name" [ "$(stat -c %s vtoy/noise.bin)" -eq "$sz" ]
"$bin" render vtoy --size 32x18 -o vfresh/%02d.png --frames 0:8 --quiet
"$bin" render vtoy --size 32x18 -o vres/%02d.png --frames 6:8 --checkpoint volcp 2>vres.log
check "a volume changed on disk: the resumed frames equal a fresh render's" same_frames vfresh vres
check "... which differ from the old volume's (the test has teeth)" differ vold/07.png vfresh/07.png
check "... the old checkpoint was not used, and a note says why" grep -q "not used: it was made from a different toy" vres.log
check "... (6 frames drawn unsaved)" [ "$(num vres.log 'drawn unsaved')" -eq 6 ]

# music is decoded while drawing, so its file's bytes join the identity: a track rewritten in place
# (same name, same length) is another toy too
mkdir -p mtoy
wav() { python3 -c 'import math, struct, sys, wave; w = wave.open(sys.argv[1], "wb"); w.setnchannels(2); w.setsampwidth(2); w.setframerate(44100); f = float(sys.argv[2]); w.writeframes(b"".join(struct.pack("<hh", *(2 * [int(12000 * math.sin(2 * math.pi * f * i / 44100))])) for i in range(22050))); w.close()' "$@"; }
wav mtoy/tone.wav 440
printf 'void mainImage(out vec4 c, in vec2 f) { c = texelFetch(iChannel0, ivec2(f), 0) * 0.8 + texelFetch(iChannel1, ivec2(int(f.x) * 16, 0), 0) * 0.3; }\n' >mtoy/a.glsl
printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(texelFetch(iChannel0, ivec2(f), 0).rgb, 1.0); }\n' >mtoy/image.glsl
printf 'a.iChannel0 = a\na.iChannel1 = tone.wav\nimage.iChannel0 = a\n' >mtoy/manifest.txt
"$bin" render mtoy --size 32x18 -o mold/%02d.png --frames 0:8 --checkpoint mcp --checkpoint-every 4 --quiet
wav mtoy/tone.wav 3000
"$bin" render mtoy --size 32x18 -o mfresh/%02d.png --frames 0:8 --quiet
"$bin" render mtoy --size 32x18 -o mres/%02d.png --frames 6:8 --checkpoint mcp 2>mres.log
check "a music file changed on disk: the resumed frames equal a fresh render's" same_frames mfresh mres
check "... which differ from the old track's" differ mold/07.png mfresh/07.png
check "... the old checkpoint was not used, and a note says why" grep -q "not used: it was made from a different toy" mres.log

# refusals: one line, exit 2 (1 for a damaged file), no frame written
# a file under this render's name whose header is another render's (copied or renamed there)
"$bin" render "$trails" --size 64x36 -o r64/%03d.png --frames 0:5 --checkpoint cp64 --checkpoint-every 5 --quiet
cp "cp/$(ck cp 5)" "cp64/$(ck cp64 5)"
expect_fail "a checkpoint whose header is another render's" 2 "ckpt-[0-9a-f]{16}-000000000005.iksc: refused: it holds buffers of 128x72, this render draws 64x36.*use another --checkpoint" \
  "$bin" render "$trails" --size 64x36 -o ref1/%03d.png --frames 6:7 --checkpoint cp64
mkdir -p vcp && cp "cp/$(ck cp 10)" vcp/
printf '\x01' | dd of="vcp/$(ck cp 10)" bs=1 seek=8 conv=notrunc 2>/dev/null
expect_fail "a checkpoint of another format version" 1 "checkpoint format version 1; this ikshade reads version 2" \
  "$bin" "${C[@]}" -o ref4/%03d.png --frames 12:14 --checkpoint vcp
mkdir -p oldname && cp "cp/$(ck cp 10)" oldname/ckpt-000000000010.iksc
"$bin" "${C[@]}" -o old/%03d.png --frames 12:14 --checkpoint oldname 2>old.log
check "a file named as format version 1 named it is not used, with a note" \
  grep -q "ckpt-000000000010.iksc not used: an older ikshade's (checkpoint format version 1; delete it)" old.log
check "... drawn from frame 0" [ "$(num old.log 'drawn unsaved')" -eq 12 ]
mkdir -p dmg && cp "cp/$(ck cp 10)" dmg/
printf '\x55' | dd of="dmg/$(ck cp 10)" bs=1 seek=5000 conv=notrunc 2>/dev/null
expect_fail "a damaged checkpoint" 1 "checksum mismatch \(damaged checkpoint; delete it\)" \
  "$bin" "${C[@]}" -o ref5/%03d.png --frames 12:14 --checkpoint dmg
mkdir -p cut && head -c 9000 "cp/$(ck cp 10)" >"cut/$(ck cp 10)"
expect_fail "a checkpoint cut short" 1 "cut short" "$bin" "${C[@]}" -o ref6/%03d.png --frames 12:14 --checkpoint cut
# cut right after its header: the header alone is whole and right, the file is not
mkdir -p cuth && head -c 208 "cp/$(ck cp 10)" >"cuth/$(ck cp 10)"
expect_fail "a checkpoint cut right after its header is not used" 1 \
  "cuth/ckpt-[0-9a-f]{16}-000000000010.iksc: cut short: 208 bytes, where its header makes $((208 + 2 * 128 * 72 * 16 + 1 + 768 + 8)) \(damaged checkpoint; delete it\)" \
  "$bin" "${C[@]}" -o ref8/%03d.png --frames 12:14 --checkpoint cuth
"$bin" "${C[@]}" -o cutw/%03d.png --frames 0:11 --checkpoint cuth --checkpoint-every 10 2>cutw.log
check "... nor kept by a render that saves that frame: a warning names it and what is wrong" \
  grep -qE "warning: .*cuth/ckpt-[0-9a-f]{16}-000000000010.iksc: cut short: 208 bytes.*written again" cutw.log
check "... and it is written whole again" cmp -s "cuth/$(ck cp 10)" "cp/$(ck cp 10)"
mkdir -p junk && echo hello >"junk/$(ck cp 10)"
expect_fail "a file that is no checkpoint" 1 "not an ikshade checkpoint" "$bin" "${C[@]}" -o ref7/%03d.png --frames 12:14 --checkpoint junk
"$bin" "${C[@]}" -o junkw/%03d.png --frames 0:11 --checkpoint junk --checkpoint-every 10 2>junkw.log
check "a file that is no checkpoint is never replaced by a save: a warning says so" grep -q "not an ikshade checkpoint; not replaced" junkw.log
check "... it is as it was" [ "$(cat "junk/$(ck cp 10)")" = hello ]
check "no refused render wrote a frame" [ -z "$(find ref* -type f 2>/dev/null)" ]
# the checkpoint directory, shared by every part: a temporary whose writer is gone (a node killed while
# it saved a checkpoint) is removed by the next run that saves there, whichever render's it was; one
# whose writer still holds its lock (another part saving now) is left; a name not of ikshade's making too
live=".$(ck cp 5).LiVe02" dead1=".$(ck cp 10).DeAd02" dead2=".ckpt-0123456789abcdef-000000000007.iksc.DeAd03"
for f in "$live" "$dead1" "$dead2" .ckpt-junk.iksc.DeAd04; do head -c 300 "cp/$(ck cp 5)" >"cp/$f"; done
check "a live writer's lock is held on cp/$live" hold "cp/$live"
"$bin" "${C[@]}" -o cres/%03d.png --frames 0:3 --checkpoint cp --checkpoint-every 5 2>cres.log
check_eq "a render saving checkpoints removes the dead writers' temporaries, any render's, and leaves the live one" \
  "$live .ckpt-junk.iksc.DeAd04" "$(ls -A cp | grep '^\.' | sort | tr '\n' ' ' | sed 's/ $//')"
check "... and says so" grep -qE -- '--checkpoint: removed 2 temporaries a stopped run left \(cp/\.ckpt-' cres.log
kill $held; wait $held 2>/dev/null
"$bin" "${C[@]}" -o cres2/%03d.png --frames 3:4 --checkpoint cp --resume 2>cres2.log
check_eq "--resume with checkpoints removes it once its writer is gone" ".ckpt-junk.iksc.DeAd04" "$(ls -A cp | grep '^\.' | tr '\n' ' ' | sed 's/ $//')"
rm "cp/.ckpt-junk.iksc.DeAd04"
check "no temporary checkpoint left behind" [ -z "$(find cp dcp two volcp cuth -name '.*' -type f)" ]

# a toy without buffers: checkpoints are not needed and none are written
"$bin" render "$root/shaders/limb.frag" --size 64x36 -o nob/%02d.png --frames 3:6 --checkpoint nobcp --checkpoint-every 2 2>nob.log
check "a toy without buffers says so and writes no checkpoint" grep -q 'this toy has no buffers' nob.log
check "... none" [ ! -e nobcp ]
finish
