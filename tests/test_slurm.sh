#!/usr/bin/env bash
# A real one-node Slurm cluster on this machine runs examples/scale-out/render.sbatch as a job array,
# and the frames its tasks render equal one run's, byte for byte; submitted again after frames were
# lost or damaged, it redraws just those (--resume). munged, slurmctld and slurmd are started here on
# loopback with a temporary key, configuration and state, as root (the daemons need it), and stopped
# on every way out. Then tests/test_slurm_nodes.sh: two nodes, one lost midway. Debian's slurm-wlm
# and munge (scripts/deps.sh). Run by `make test-slurm`.
# usage: test_slurm.sh IKSHADE ROOT
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
bin=$(realpath "$1") root=$(realpath "$2")
if [ "$(id -u)" != 0 ]; then
  echo "test_slurm: FAIL: needs root to start munged, slurmctld and slurmd (make test-slurm uses sudo -n where it can)" >&2
  exit 1
fi
for c in munged mungekey slurmctld slurmd sbatch sinfo; do
  command -v "$c" >/dev/null || { echo "test_slurm: FAIL: $c is missing (scripts/deps.sh installs slurm-wlm and munge)" >&2; exit 1; }
done
d=$(mktemp -d /tmp/ikshade-slurm-XXXXXX)
chmod 755 "$d"
# stop what we started, by the pids the daemons wrote, then wait (bounded) until each is gone
stop() {
  local f pid
  for f in "$d/slurmd.pid" "$d/slurmctld.pid" "$d/munge/munged.pid"; do
    [ -s "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
  done
  rm -rf "$d"
}
trap stop EXIT
trap 'exit 1' INT TERM

# munge: a fresh key, its socket in our directory
mkdir -m 700 "$d/munge"
mungekey -c -k "$d/munge/munge.key" || exit 1
munged -f --key-file="$d/munge/munge.key" --socket="$d/munge/sock" --pid-file="$d/munge/munged.pid" \
  --log-file="$d/munge/munged.log" --seed-file="$d/munge/seed" || { echo "test_slurm: FAIL: munged did not start" >&2; exit 1; }

# two free loopback ports for slurmctld and slurmd
read -r p1 p2 < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
host=$(hostname -s)
mkdir "$d/state" "$d/spool" "$d/work"
cat >"$d/slurm.conf" <<EOF
ClusterName=ikshadetest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$p1
SlurmdPort=$p2
AuthType=auth/munge
AuthInfo=socket=$d/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=ikshade1 NodeHostname=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=render Nodes=ikshade1 Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$d/slurm.conf
unset SLURM_JOB_ID SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_MAX \
      SLURM_ARRAY_TASK_STEP JOB_COMPLETION_INDEX PARALLEL_SEQ
slurmctld -i || { echo "test_slurm: FAIL: slurmctld did not start: $(tail -3 "$d/slurmctld.log")" >&2; exit 1; }
slurmd -N ikshade1 || { echo "test_slurm: FAIL: slurmd did not start: $(tail -3 "$d/slurmd.log")" >&2; exit 1; }
up=
for _ in $(seq 60); do
  [ "$(sinfo -h -N -o %t 2>/dev/null)" = idle ] && { up=1; break; }
  sleep 0.5
done
check "the one-node cluster came up (sinfo says idle)" [ -n "$up" ]
[ -n "$up" ] || { tail -5 "$d/slurmctld.log" "$d/slurmd.log" >&2; finish; exit 1; }

# the example script as a user submits it, with this build's program and a small render
cd "$d/work"
env=(ALL,IKSHADE="$bin",SHADER="$root/examples/scale-out/trails",OUT="$d/work/frames",FRAMES=0:30,SIZE=96x54,CHECKPOINT_EVERY=8)
"$bin" render "$root/examples/scale-out/trails" -o one/%05d.png --frames 0:30 --size 96x54 --quiet
timeout 300 sbatch --wait --array=0-3 --export="${env[*]}" "$root/examples/scale-out/render.sbatch" >submit.txt 2>&1
rc=$?
check "sbatch --wait of the 4-task array: every task exited 0 (sbatch: $(tr '\n' ' ' <submit.txt))" [ "$rc" -eq 0 ]
check "4 task logs, one per array task" [ "$(ls ikshade-render-*_[0-3].log 2>/dev/null | wc -l)" -eq 4 ]
check "the array's frames equal one run's, byte for byte" diff -r -x '.*' one frames
parts=$(cat ikshade-render-*_[0-3].log | grep -oE 'shard [0-9]/4: frames [0-9]+:[0-9]+' | sort | tr '\n' ' ')
check "each task rendered its own part: $parts" [ "$parts" = "shard 0/4: frames 0:8 shard 1/4: frames 8:16 shard 2/4: frames 16:23 shard 3/4: frames 23:30 " ]
check "30 frames, no more" [ "$(ls frames | wc -l)" -eq 30 ]
check "the tasks left checkpoints of the buffers" [ -n "$(ls frames.checkpoints | grep -E "^ckpt-[0-9a-f]{16}-000000000008\.iksc$")" ]

# lost and damaged frames: the same array again redraws them, nothing else
rm frames/00003.png frames/00017.png
head -c 100 one/00025.png >frames/00025.png
before=$(stat -c %Y frames/00010.png)
sleep 1.1
timeout 300 sbatch --wait --array=0-3 --export="${env[*]}" "$root/examples/scale-out/render.sbatch" >submit2.txt 2>&1
check "the array submitted again exits 0" [ $? -eq 0 ]
check "after the rerun the frames equal one run's again" diff -r -x '.*' one frames
check "a frame that was complete was kept, not drawn again" [ "$(stat -c %Y frames/00010.png)" = "$before" ]
if [ "$fail" -ne 0 ]; then
  echo "--- slurmctld.log:" >&2; tail -15 "$d/slurmctld.log" >&2
  for f in ikshade-render-*.log; do echo "--- $f:" >&2; cat "$f" >&2; done
fi
# then a farm of two machines, one of them lost midway (tests/test_slurm_nodes.sh), once this
# cluster is stopped: one Slurm cluster at a time
echo "test_slurm: one node: $pass passed, $fail failed; now two nodes (tests/test_slurm_nodes.sh)"
cd /
stop
trap - EXIT
bash "$here/test_slurm_nodes.sh" "$bin" "$root" || { fail=$((fail + 1)); echo "FAIL: test_slurm_nodes.sh (above)" >&2; }
finish
