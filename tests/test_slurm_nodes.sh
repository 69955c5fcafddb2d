#!/usr/bin/env bash
# A render farm of two machines: a simulated Slurm cluster (tests/slurm_cluster.sh: slurmctld and two
# slurmd, each machine its own network and UTS namespace, one shared directory) runs
# examples/scale-out/render.sbatch as job arrays.
#   spread: a 4-task array lands on both nodes, and its frames equal one run's, byte for byte.
#   lost:   while an array of a feedback toy runs, the node running one task hangs midway through its
#           frames and is then lost (its slurmd, slurmstepd and ikshade killed, its network gone).
#           slurmctld marks it DOWN by itself and requeues the task, which runs again on the other
#           node with --resume: it keeps exactly the frames the lost run finished, starts from a
#           checkpoint, removes the temporary the lost run was writing, and the directory then holds
#           one run's frames and nothing else (no frame missing, none twice, no partial file, no
#           temporary); the lost run's checkpoint temporary is removed too, by its dead lock.
#   film:   the lost node back (rebooted), a film in segments (OUT=film.mp4, EXTRA options) with the
#           node running one task lost while its segment is encoded: the requeued task removes the
#           segment's temporary, the strict join job (JOIN=4) keeps the film, which decodes to the
#           frames of one local run in the same segments, with its frame count and duration, and
#           leaves its parts directory holding the segments alone (no temporary, no lock).
# Each case takes the output's name as render.sbatch's OUT (same_as_one compares a video by its
# decoded frames). Run by test_slurm.sh, as root.
# usage: test_slurm_nodes.sh IKSHADE ROOT
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
. "$here/slurm_cluster.sh"
bin=$(realpath "$1") root=$(realpath "$2")
if [ "$(id -u)" != 0 ]; then
  echo "test_slurm_nodes: FAIL: needs root for namespaces and Slurm's daemons" >&2
  exit 1
fi
sbatch_script=$root/examples/scale-out/render.sbatch
d=$(mktemp -d /tmp/ikshade-farm-XXXXXX)
chmod 755 "$d"
bye() { cd /; cluster_stop; rm -rf "$d"; }
trap bye EXIT
trap 'exit 1' INT TERM

if ! cluster_start "$d/cluster" iknode1 iknode2; then
  check "the two-node cluster came up" false
  finish; exit 1
fi
check "the two-node cluster came up (both slurmd registered, idle)" true
share=$d/share
mkdir "$share" "$share/log"
cd "$share"

# the output paths render.sbatch makes of OUT: frames OUT/%05d.png, or one video file named OUT
is_video() { case $1 in *.mp4|*.mkv|*.webm) return 0;; esac; return 1; }
out_pattern() { if is_video "$1"; then echo "$1"; else echo "$1/%05d.png"; fi; }

# one_run TOY OUT FRAMES SIZE [PARTS]: the reference, made on this machine into one-OUT (with $EXTRA's
# options, as render.sbatch takes them): one process for frame files; for a film in PARTS segments,
# its segments one after another here, the last joining them. A segment is an encode of its own, so
# the farm's film decodes to the pixels of one made in the same segments, not of one unsplit encode
# (the encoder's look-ahead and rate control see another stream)
one_run() {
  local extra k
  read -ra extra <<<"${EXTRA:-}"
  if [ -z "${5:-}" ]; then
    "$bin" render "$1" -o "$(out_pattern "one-$2")" --frames "$3" --size "$4" "${extra[@]}" --quiet
  else
    for ((k = 0; k < $5; k++)); do
      "$bin" render "$1" -o "one-$2" --frames "$3" --size "$4" "${extra[@]}" --shard $k/$5 --quiet || return
    done
  fi
}

# same_as_one OUT: the farm's OUT equals one run's: frame files byte for byte, with nothing else in
# the directory (a hidden temporary, a partial file or an extra frame is a difference), or a video's
# decoded frames
same_as_one() {
  local out=$1
  if is_video "$out"; then
    # each decoded frame's MD5, in order (ffmpeg's framemd5, its 6th field)
    local a b first
    a=$(ffmpeg -v error -i "one-$out" -map 0:v -f framemd5 - 2>/dev/null | grep -v '^#' | cut -d, -f6)
    b=$(ffmpeg -v error -i "$out" -map 0:v -f framemd5 - 2>/dev/null | grep -v '^#' | cut -d, -f6)
    first=$(paste -d' ' <(echo "$a") <(echo "$b") | awk '$1 != $2 { print NR - 1; exit }')
    check "$out: the video's decoded frames equal one run's ($(grep -c . <<<"$b") frames, $(grep -c . <<<"$a") wanted; first that differs: ${first:-none})" \
      [ "${a:+decoded}:${first:-none}" = "decoded:none" ]
  else
    local extra missing
    extra=$(comm -23 <(ls -A "$out" 2>/dev/null) <(ls -A "one-$out") | tr '\n' ' ')
    missing=$(comm -13 <(ls -A "$out" 2>/dev/null) <(ls -A "one-$out") | tr '\n' ' ')
    check "$out holds one run's frame files and nothing else (extra: ${extra:-none}; missing: ${missing:-none})" \
      [ -z "$extra$missing" ]
    check "$out: every frame equals one run's, byte for byte" diff -r "one-$out" "$out"
  fi
}

# submit TOY OUT FRAMES SIZE CHECKPOINT_EVERY ARRAY: render.sbatch as a user submits it, from the
# shared directory; each task's log is log/JOB_TASK-NODE.log, so the file names say where each ran.
# --requeue on the command line as well as in the script: a task whose node fails runs again.
# EXTRA (render.sbatch's more options, no comma) from the environment when set.
submit() {
  on_ctl timeout 600 sbatch --wait --requeue --array="$6" --output='log/%A_%a-%N.log' \
    --export=ALL,IKSHADE="$bin",SHADER="$1",OUT="$2",FRAMES="$3",SIZE="$4",CHECKPOINT_EVERY="$5",EXTRA="${EXTRA:-}" "$sbatch_script"
}

# the node names that ran task K of the arrays logged so far, from the log names
nodes_of() { ls log | sed -nE "s/^[0-9]+_$1-(.*)\.log$/\1/p" | sort -u | tr '\n' ' '; }

# ---- spread: an array over both nodes equals one run ------------------------------------------------
spread() {
  local out=$1
  rm -rf log/*
  one_run "$root/examples/scale-out/trails" "$out" 0:40 96x54
  submit "$root/examples/scale-out/trails" "$out" 0:40 96x54 8 0-3 >submit-spread.txt 2>&1
  check "spread $out: sbatch --wait of the 4-task array exits 0 (sbatch: $(tr '\n' ' ' <submit-spread.txt))" [ $? -eq 0 ]
  local ran
  ran=$(ls log | sed -nE 's/^[0-9]+_[0-9]+-(.*)\.log$/\1/p' | sort -u | tr '\n' ' ')
  check "spread $out: the array's tasks ran on both nodes (logs: $(ls log | tr '\n' ' '))" [ "$ran" = "iknode1 iknode2 " ]
  check "spread $out: 4 task logs, one per task" [ "$(ls log | wc -l)" -eq 4 ]
  same_as_one "$out"
}

# ---- lost: a node lost midway through its task ------------------------------------------------------
# The toy: trails with many more points in Buffer A (feedback, so a task starts from a checkpoint),
# slow on purpose (about 40 frames/s at 96x54 on llvmpipe) so that a task is still drawing when the
# test stops its node. 4 tasks of 120 frames, checkpoints every 20.
# make_heavy [DIR [POINTS]]: that toy in DIR (heavy), with POINTS points (1000)
make_heavy() {
  local dir=${1:-heavy} n=${2:-1000}
  rm -rf "$dir" && cp -r "$root/examples/scale-out/trails" "$dir" && cat >"$dir/a.glsl" <<EOF
// Buffer A: the trails of $n points, slow on purpose, so that a task lasts long enough to be stopped
void mainImage(out vec4 col, in vec2 fragCoord)
{
    vec2 uv = (2.0 * fragCoord - iResolution.xy) / iResolution.y;
    vec3 acc = texelFetch(iChannel0, ivec2(fragCoord), 0).rgb * 0.97;
    for (int i = 0; i < $n; i++) {
        float t = iTime * (0.5 + 0.001 * float(i)) + 0.37 * float(i);
        vec2 p = vec2(cos(t), sin(1.3 * t)) * vec2(1.2, 0.7);
        acc += (0.5 + 0.5 * cos(float(i) + vec3(0.0, 2.0, 4.0))) * 0.00002 / (0.002 + dot(uv - p, uv - p));
    }
    col = vec4(acc, 1.0);
}
EOF
}

# frames of [A, B) in OUT (complete files: frames are renamed into place whole)
count_in() { local n=0 i; for ((i = $2; i < $3; i++)); do [ -e "$(printf "%s/%05d.png" "$1" "$i")" ] && n=$((n + 1)); done; echo $n; }

# the task of the array iknode2 runs, as squeue names it (JOB_K), once there is one (60 s at most)
task_on_node2() {
  local t
  for _ in $(seq 600); do
    t=$(on_ctl squeue -h -t R -w iknode2 -o '%i' 2>/dev/null | head -1)
    [ -n "$t" ] && break
    sleep 0.1
  done
  echo "$t"
}

lost() {
  local out=$1 frames=0:480 per=120 sb task k a b have=0 gone=
  rm -rf log/*
  make_heavy
  one_run heavy "$out" $frames 96x54
  submit heavy "$out" $frames 96x54 20 0-3 >submit-lost.txt 2>&1 &
  sb=$!
  task=$(task_on_node2)
  if ! check "lost $out: a task of the array runs on iknode2 within 60 s (squeue: $(on_ctl squeue -h -o '%i %t %N' | tr '\n' ','))" [ -n "$task" ]; then
    on_ctl scancel -u root; wait $sb; return
  fi
  k=${task#*_} a=$((${task#*_} * per)) b=$(((${task#*_} + 1) * per))
  # let it draw 30 frames of its part (past the checkpoint of frame a+20), then the node hangs
  for _ in $(seq 1200); do
    have=$(count_in "$out" $a $b)
    [ "$have" -ge 30 ] && break
    [ -z "$(on_ctl squeue -h -t R -w iknode2 -o '%i' 2>/dev/null)" ] && break
    sleep 0.05
  done
  check "lost $out: every process on iknode2 stopped (SIGSTOP)" node_freeze iknode2
  have=$(count_in "$out" $a $b)
  local tmps
  tmps=$(ls -A "$out" | grep '^\.' | tr '\n' ' ')
  if ! check "lost $out: task $task stopped on iknode2 midway through frames $a:$b (it had $have; a faster machine needs a slower toy)" \
       [ "$have" -ge 30 -a "$have" -lt $per ]; then
    node_lose iknode2; on_ctl scancel -u root; wait $sb; return
  fi
  # a node killed while an encoder thread writes a frame leaves that frame's hidden temporary; at this
  # size the freeze seldom lands inside one, so then the test leaves one as such a kill does: the
  # start of the next frame's file under the name the encoder gives it
  if [ -z "$tmps" ]; then
    tmps=$(printf ".%05d.png.Lo5tNd" $((a + have)))
    head -c 200 "$(printf "one-%s/%05d.png" "$out" $((a + have)))" >"$out/$tmps"
    tmps="$tmps (left by the test)"
  fi
  # the same for a checkpoint being saved: its temporary, which the rerun (saving checkpoints there) must
  # tell from a live part's by its lock, and remove
  local cks newest
  cks=$(ls -A "$out.checkpoints" | grep '^\.' | tr '\n' ' ')
  newest=$(ls "$out.checkpoints" | grep -E '^ckpt-[0-9a-f]{16}-[0-9]{12}\.iksc$' | tail -1)
  if [ -z "$cks" ] && [ -n "$newest" ]; then
    cks=".$newest.Lo5tCk"
    head -c 300 "$out.checkpoints/$newest" >"$out.checkpoints/$cks"
    cks="$cks (left by the test)"
  fi
  echo "lost $out: iknode2 hangs then is lost with $have of frames $a:$b written (temporaries then: $tmps; checkpoints': ${cks:-none})"
  node_lose iknode2
  check "lost $out: nothing of iknode2 is left running" [ -z "$(node_procs iknode2)" ]
  # slurmctld finds out by itself: no answer for SlurmdTimeout, then DOWN, the task requeued
  for _ in $(seq 120); do
    [ "$(on_ctl sinfo -h -n iknode2 -o %t)" = 'down*' ] && gone=1 && break
    sleep 0.5
  done
  check "lost $out: slurmctld marks iknode2 DOWN within 60 s (sinfo: $(on_ctl sinfo -h -N -o '%N %t' | tr '\n' ' '))" [ -n "$gone" ] ||
    on_ctl scancel -u root
  wait $sb
  check "lost $out: sbatch --wait of the array exits 0 once the requeued task is done (sbatch: $(tr '\n' ' ' <submit-lost.txt))" [ $? -eq 0 ]
  check "lost $out: slurmctld requeued task $task for iknode2's failure" \
    grep -q "requeue job JobId=$task(.*) due to failure of node iknode2" "$d/cluster/log/slurmctld.log"
  check "lost $out: task $task ran first on iknode2, then on iknode1 (logs: $(ls log | tr '\n' ' '))" [ "$(nodes_of "$k")" = "iknode1 iknode2 " ]
  local again
  again=$(cat log/*_"$k"-iknode1.log 2>/dev/null)
  echo "lost $out: the rerun on iknode1 said: $(tr '\n' ' ' <<<"$again")"
  check "lost $out: the rerun kept exactly the $have frames the lost run finished" grep -q "($have kept from before)" <<<"$again"
  check "lost $out: the rerun's log says where it ran and that it is Slurm's second attempt" \
    grep -q "on iknode1, attempt 2 (SLURM_RESTART_COUNT=1)" <<<"$again"
  local from
  from=$(sed -nE 's/.*buffers from the checkpoint of frame ([0-9]+).*/\1/p' <<<"$again" | head -1)
  check "lost $out: the rerun started from a checkpoint inside its part (frame ${from:-none}, part $a:$b)" \
    [ -n "$from" -a "${from:-0}" -gt $a -a "${from:-0}" -le $((a + have)) ]
  same_as_one "$out"
  check "lost $out: a task saving checkpoints removed the lost run's checkpoint temporary, and said so ($(grep -h 'checkpoint: removed' log/*.log | tr '\n' ' '))" \
    grep -q -- '--checkpoint: removed [0-9]* temporar.* a stopped run left' log/*.log
  check "lost $out: the checkpoints hold only whole checkpoints, no temporary ($(ls -A "$out.checkpoints" | grep -v '^ckpt-.*\.iksc$' | tr '\n' ' '))" \
    [ -z "$(ls -A "$out.checkpoints" | grep -v '^ckpt-[0-9a-f]*-[0-9]*\.iksc$')" ]
}

# ---- film: a film in segments, a node lost midway through a segment ---------------------------------
# render.sbatch with OUT a video: each task writes its segment of the film (picture alone) and the last
# to finish joins them; then JOIN=4, the strict join run after the array, finds the film and keeps it.
# The node running one task is lost once that task's segment is being encoded (its hidden temporary has
# ffmpeg's first bytes): the task, requeued on the other node, draws its segment again from a
# checkpoint, removes the lost run's temporary (its lock died with it), and the film equals one run's
# decoded frame for frame, with one run's frame count and duration. A slower toy than lost's (8000
# points, some 8 frames/s at 64x64 alone), 48 frames of 64x64 in 4 segments of 12, so that a segment
# lasts seconds; EXTRA's option is given to every task, the join and the reference alike.
film() {
  local out=$1 frames=0:48 sb task k seg tmp gone=
  rm -rf log/*
  # iknode2, lost by the case before, comes back as a rebooted machine would
  if [ -z "$(node_procs iknode2)" ]; then
    check "film $out: iknode2 came back (a new machine of that name, its slurmd registered, idle)" node_revive iknode2 || return
  fi
  make_heavy heavyfilm 8000
  export EXTRA="--time 1.5"
  one_run heavyfilm "$out" $frames 64x64 4
  check "film $out: the reference, its 4 segments made here one after another, is joined" [ -f "one-$out" ]
  submit heavyfilm "$out" $frames 64x64 6 0-3 >submit-film.txt 2>&1 &
  sb=$!
  task=$(task_on_node2)
  if ! check "film $out: a task of the array runs on iknode2 within 60 s" [ -n "$task" ]; then
    on_ctl scancel -u root; wait $sb; unset EXTRA; return
  fi
  k=${task#*_}
  seg=$(printf "%s.parts/%05d-of-00004.mp4" "$out" "$k")
  # its segment is being encoded: the temporary beside it has ffmpeg's first bytes
  for _ in $(seq 1200); do
    tmp=$(find "$out.parts" -maxdepth 1 -name ".${seg##*/}.*" -size +0 2>/dev/null | head -1)
    [ -n "$tmp" ] && break
    [ -z "$(on_ctl squeue -h -t R -w iknode2 -o '%i' 2>/dev/null)" ] && break
    sleep 0.05
  done
  check "film $out: every process on iknode2 stopped (SIGSTOP)" node_freeze iknode2
  if ! check "film $out: task $task stopped on iknode2 midway through its segment (temporary: ${tmp:-none}; a faster machine needs a slower toy)" \
       [ -n "$tmp" -a -e "$tmp" -a ! -e "$seg" ]; then
    node_lose iknode2; on_ctl scancel -u root; wait $sb; unset EXTRA; return
  fi
  echo "film $out: iknode2 hangs then is lost while encoding $seg (its temporary: $tmp)"
  node_lose iknode2
  for _ in $(seq 120); do
    [ "$(on_ctl sinfo -h -n iknode2 -o %t)" = 'down*' ] && gone=1 && break
    sleep 0.5
  done
  check "film $out: slurmctld marks iknode2 DOWN within 60 s" [ -n "$gone" ] || on_ctl scancel -u root
  wait $sb
  check "film $out: sbatch --wait of the array exits 0 once the requeued task is done (sbatch: $(tr '\n' ' ' <submit-film.txt))" [ $? -eq 0 ]
  check "film $out: task $task ran first on iknode2, then on iknode1 (logs: $(ls log | tr '\n' ' '))" [ "$(nodes_of "$k")" = "iknode1 iknode2 " ]
  local again
  again=$(cat log/*_"$k"-iknode1.log 2>/dev/null)
  echo "film $out: the rerun on iknode1 said: $(tr '\n' ' ' <<<"$again")"
  check "film $out: the rerun removed the temporary of the lost run's segment" \
    grep -qF "resume: removed 1 temporary a stopped run left ($tmp)" <<<"$again"
  # the strict join after the array, as docs/scale-out.md has it: the film is there, whole, and kept
  on_ctl timeout 300 sbatch --wait --output='log/join-%j.log' \
    --export=ALL,IKSHADE="$bin",SHADER=heavyfilm,OUT="$out",FRAMES=$frames,SIZE=64x64,EXTRA="$EXTRA",JOIN=4 "$sbatch_script" >submit-join.txt 2>&1
  check "film $out: the strict join after the array (JOIN=4) exits 0 (sbatch: $(tr '\n' ' ' <submit-join.txt); log: $(cat log/join-*.log | tr '\n' ' '))" [ $? -eq 0 ]
  check "film $out: the join job is one job, not an array of joins (logs: $(ls log | grep join | tr '\n' ' '))" [ "$(ls log | grep -c '^join-')" -eq 1 ]
  same_as_one "$out"
  local n1 n2 d1 d2
  n1=$(ffprobe -v error -count_packets -select_streams v:0 -show_entries stream=nb_read_packets -of csv=p=0 "one-$out")
  n2=$(ffprobe -v error -count_packets -select_streams v:0 -show_entries stream=nb_read_packets -of csv=p=0 "$out")
  check_eq "film $out: ffprobe counts 48 frames, as in one run's ($n1)" "48 48" "$n1 $n2"
  d1=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "one-$out")
  d2=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$out")
  check "film $out: its duration is one run's ($d2 s; one run's $d1 s; 48 frames at 60 fps are 0.8 s)" \
    [ -n "$d2" ] && [ "$d1" = "$d2" ] && python3 -c "import sys; sys.exit(abs(float('$d2') - 0.8) > 1 / 60)"
  check_eq "film $out: its parts directory holds the 4 segments and nothing else (no temporary, no lock)" \
    "00000-of-00004.mp4 00001-of-00004.mp4 00002-of-00004.mp4 00003-of-00004.mp4" "$(ls -A "$out.parts" | tr '\n' ' ' | sed 's/ $//')"
  check "film $out: no temporary beside the film ($(ls -A | grep '^\.' | tr '\n' ' '))" [ -z "$(ls -A | grep '^\.')" ]
  check "film $out: the checkpoints hold only whole checkpoints ($(ls -A "$out.checkpoints" | grep -v '^ckpt-.*\.iksc$' | tr '\n' ' '))" \
    [ -z "$(ls -A "$out.checkpoints" | grep -v '^ckpt-[0-9a-f]*-[0-9]*\.iksc$')" ]
  unset EXTRA
}

spread frames
lost lostframes
film film.mp4
if [ "$fail" -ne 0 ]; then
  echo "--- slurmctld.log:" >&2; tail -20 "$d/cluster/log/slurmctld.log" >&2
  for f in log/*.log; do echo "--- $f:" >&2; tail -5 "$f" >&2; done
fi
finish
