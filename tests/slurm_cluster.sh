# slurm_cluster.sh: a simulated Slurm cluster of several machines on this one, for the Slurm tests
# (sourced, after lib.sh). Each machine is a network and UTS namespace made here: the controller
# (slurmctld, and the commands a user types: sbatch, squeue, sinfo, scontrol) and each compute node
# (its own slurmd). They meet on a bridge inside the controller's namespace, one veth pair a node, with
# addresses (10.77.0.0/24) that exist only inside those namespaces: the host's network and hostname
# are never touched. The file system is not separated: the cluster's directory is the shared disk
# every node sees, as a farm's NFS is, and one munged with one key (its socket a file there) serves
# every machine. A node is lost by SIGKILL to every process in its namespaces (its slurmd, the task's
# slurmstepd and ikshade), which also takes its veth away: slurmctld stops hearing from it and marks
# it DOWN after SlurmdTimeout, as it would a machine that lost power.
#
#   cluster_start DIR NODES...   munged, slurmctld on "ikctl" and one slurmd per node name; DIR is the
#                                cluster's directory (state, spools, logs), removed by cluster_stop
#   on_ctl CMD...                runs CMD on the controller (sbatch, squeue, sinfo talk to slurmctld)
#   node_procs NODE              the pids of every process on NODE
#   node_freeze NODE, node_lose NODE
#   node_revive NODE             a lost NODE back (a new machine of that name and address, its slurmd)
#   cluster_stop                 stops everything started here (a trap calls it on every way out)
#
# Needs root (namespaces, daemons), unshare and nsenter (util-linux), ip (iproute2), Debian's
# slurm-wlm and munge. Only one Slurm cluster should run on a machine at a time.

cl_dir= cl_ctl= cl_munged=
declare -A cl_holder=() cl_netns=() cl_ip=()
cl_nodes=()
cl_self_net=$(readlink /proc/self/ns/net)

# cl_make_machine NAME: a process that holds a new network and UTS namespace for machine NAME, and ends by
# itself when this test's shell is gone (tail --pid), so that no namespace outlives a killed test
cl_make_machine() {
  local name=$1 pid
  unshare --net --uts -- tail --pid=$$ -f /dev/null &
  pid=$!
  disown "$pid"   # its end (node_lose's SIGKILL) is no job of ours to report
  for _ in $(seq 50); do
    [ "$(readlink "/proc/$pid/ns/net" 2>/dev/null)" != "$cl_self_net" ] && [ -n "$(readlink "/proc/$pid/ns/net" 2>/dev/null)" ] && break
    sleep 0.1
  done
  # never configure a namespace that is not a new one: that would be the host's network and hostname
  if [ "$(readlink "/proc/$pid/ns/net" 2>/dev/null)" = "$cl_self_net" ] || [ -z "$(readlink "/proc/$pid/ns/net" 2>/dev/null)" ] ||
     [ "$(readlink "/proc/$pid/ns/uts")" = "$(readlink /proc/self/ns/uts)" ]; then
    echo "slurm_cluster: no new network and UTS namespace for $name (unshare --net --uts)" >&2
    kill "$pid" 2>/dev/null
    return 1
  fi
  cl_holder[$name]=$pid
  cl_netns[$name]=$(readlink "/proc/$pid/ns/net")
}

# cl_in NAME CMD...: CMD inside machine NAME's network and UTS namespaces
cl_in() { local name=$1; shift; nsenter -t "${cl_holder[$name]:?no machine $name}" -n -u -- "$@"; }
on_ctl() { cl_in ikctl "$@"; }

# the pids of every process in machine NAME's network namespace
cl_procs() {
  local ns=${cl_netns[$1]:-} p
  [ -n "$ns" ] || return 0
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/ns/net" 2>/dev/null)" = "$ns" ] && echo "${p#/proc/}"
  done
}
node_procs() { cl_procs "$1"; }

# cl_kill_machine NAME SIGNAL: SIGNAL to every process of machine NAME until none is left (bounded)
cl_kill_machine() {
  local name=$1 sig=$2 pids
  for i in $(seq 100); do
    pids=$(cl_procs "$name")
    [ -n "$pids" ] || return 0
    # TERM first; what is still there after 5 s gets KILL
    if [ "$i" -gt 50 ]; then kill -KILL $pids 2>/dev/null; else kill "-$sig" $pids 2>/dev/null; fi
    sleep 0.1
  done
  echo "slurm_cluster: processes of $name still there after 10 s: $(cl_procs "$name" | tr '\n' ' ')" >&2
  return 1
}

# node_freeze NODE: stops every process on NODE where it stands (a machine that hangs), so that what
# it has written can be looked at before it is lost
node_freeze() {
  local p t line st all pids
  pids=$(cl_procs "$1")
  for p in $pids; do kill -STOP "$p" 2>/dev/null; done
  # SIGSTOP is asynchronous: a thread stops only when it next leaves the kernel, so a rename under
  # way still lands. Wait (bounded) until every thread of every process there says T (stopped).
  for _ in $(seq 100); do
    all=1
    for p in $pids; do
      for t in /proc/"$p"/task/*/stat; do
        read -r line 2>/dev/null <"$t" || continue
        st=${line##*) } st=${st%% *}
        case $st in T|t|Z|X) ;; *) all= ;; esac
      done
    done
    [ -n "$all" ] && return 0
    sleep 0.1
  done
  echo "slurm_cluster: the processes of $1 did not all stop within 10 s" >&2
  return 1
}
# node_lose NODE: the machine is gone, with its slurmd, its tasks and its network
node_lose() { cl_kill_machine "$1" KILL; }

# cl_make_node NAME: machine NAME, plugged into the controller's bridge with its address cl_ip[NAME]
cl_make_node() {
  local n=$1 ip=${cl_ip[$1]}
  cl_make_machine "$n" || return 1
  on_ctl sh -ec "ip link add v$n type veth peer name eth0 netns ${cl_holder[$n]}; ip link set v$n master br0 up" &&
    cl_in "$n" sh -ec "hostname $n; ip link set lo up; ip addr add $ip/24 dev eth0; ip link set eth0 up" ||
    { echo "slurm_cluster: the network of $n failed" >&2; return 1; }
}

# node_revive NODE: a lost NODE comes back, as a machine rebooted: a new machine of that name and
# address, its slurmd started again; slurmctld returns it to service when it registers
# (ReturnToService=1). Returns once sinfo says it is idle (bounded, 60 s).
node_revive() {
  local n=$1
  [ -z "$(cl_procs "$n")" ] || { echo "slurm_cluster: $n is not lost" >&2; return 1; }
  cl_make_node "$n" || return 1
  cl_in "$n" slurmd -N "$n" || { echo "slurm_cluster: slurmd on $n did not start again" >&2; return 1; }
  for _ in $(seq 120); do
    [ "$(on_ctl sinfo -h -n "$n" -o %t 2>/dev/null)" = idle ] && return 0
    sleep 0.5
  done
  echo "slurm_cluster: $n did not come back idle in 60 s; sinfo says: $(on_ctl sinfo -h -n "$n" -o %t)" >&2
  return 1
}

cluster_start() {
  cl_dir=$1; shift
  cl_nodes=("$@")
  local n i ip nodes="" ctlip=10.77.0.1
  for c in unshare nsenter ip munged mungekey slurmctld slurmd; do
    command -v "$c" >/dev/null || { echo "slurm_cluster: $c is missing (scripts/deps.sh)" >&2; return 1; }
  done
  mkdir -p "$cl_dir/state" "$cl_dir/log" || return 1
  mkdir -m 700 "$cl_dir/munge"
  mungekey -c -k "$cl_dir/munge/munge.key" || return 1
  munged -f --key-file="$cl_dir/munge/munge.key" --socket="$cl_dir/munge/sock" --pid-file="$cl_dir/munge/munged.pid" \
    --log-file="$cl_dir/munge/munged.log" --seed-file="$cl_dir/munge/seed" || { echo "slurm_cluster: munged did not start" >&2; return 1; }
  cl_munged=$(cat "$cl_dir/munge/munged.pid")

  # the controller's machine, with the bridge the nodes plug into
  cl_make_machine ikctl || return 1
  cl_ctl=${cl_holder[ikctl]}
  on_ctl sh -ec "hostname ikctl; ip link set lo up; ip link add br0 type bridge;
                 ip addr add $ctlip/24 dev br0; ip link set br0 up" || { echo "slurm_cluster: the controller's network failed" >&2; return 1; }
  i=10
  for n in "${cl_nodes[@]}"; do
    i=$((i + 1)); ip=10.77.0.$i
    cl_ip[$n]=$ip
    cl_make_node "$n" || return 1
    mkdir -p "$cl_dir/spool/$n"
    nodes+="NodeName=$n NodeHostname=$n NodeAddr=$ip CPUs=2 RealMemory=1000 State=UNKNOWN"$'\n'
  done
  # A node that stops answering is DOWN after SlurmdTimeout (10 s), and its batch tasks are requeued
  # (JobRequeue=1, and the task's --requeue), as a farm wants of a machine that died; one that comes
  # back and registers is used again (ReturnToService=1). A requeued task may start again after
  # cred_expire (120 s by default), and is placed by the next pass of the scheduler (sched_interval,
  # 60 s by default): both shortened, so that a lost node's task runs again within seconds.
  cat >"$cl_dir/slurm.conf" <<EOF
ClusterName=ikshadefarm
SlurmctldHost=ikctl($ctlip)
SlurmctldPort=6817
SlurmdPort=6818
AuthType=auth/munge
AuthInfo=socket=$cl_dir/munge/sock,cred_expire=10
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$cl_dir/state
SlurmdSpoolDir=$cl_dir/spool/%n
SlurmctldPidFile=$cl_dir/slurmctld.pid
SlurmdPidFile=$cl_dir/spool/%n/slurmd.pid
SlurmctldLogFile=$cl_dir/log/slurmctld.log
SlurmdLogFile=$cl_dir/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=5
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
JobRequeue=1
ReturnToService=1
SlurmdTimeout=10
MessageTimeout=5
KillWait=5
${nodes}PartitionName=render Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$cl_dir/slurm.conf
  unset SLURM_JOB_ID SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_MAX \
        SLURM_ARRAY_TASK_STEP JOB_COMPLETION_INDEX PARALLEL_SEQ
  on_ctl slurmctld -i || { echo "slurm_cluster: slurmctld did not start: $(tail -3 "$cl_dir/log/slurmctld.log")" >&2; return 1; }
  for n in "${cl_nodes[@]}"; do
    cl_in "$n" slurmd -N "$n" || { echo "slurm_cluster: slurmd on $n did not start: $(tail -3 "$cl_dir/log/slurmd-$n.log")" >&2; return 1; }
  done
  # every node idle, bounded
  local want st
  want=$(printf '%s idle\n' "${cl_nodes[@]}" | sort)
  for _ in $(seq 120); do
    st=$(on_ctl sinfo -h -N -o '%N %t' 2>/dev/null | sort)
    [ "$st" = "$want" ] && return 0
    sleep 0.5
  done
  echo "slurm_cluster: the nodes did not come up in 60 s; sinfo says: $(echo "$st" | tr '\n' ',')" >&2
  tail -5 "$cl_dir/log/slurmctld.log" "$cl_dir"/log/slurmd-*.log >&2
  return 1
}

# cluster_stop: every machine's processes (TERM, then KILL), slurmctld with them, then munged; the
# namespaces go with their last process
cluster_stop() {
  local n
  for n in "${cl_nodes[@]}"; do cl_kill_machine "$n" TERM; done
  [ -n "$cl_ctl" ] && cl_kill_machine ikctl TERM
  if [ -n "$cl_munged" ]; then
    kill "$cl_munged" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$cl_munged" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$cl_munged" 2>/dev/null
  fi
  cl_nodes=() cl_ctl= cl_munged=
  [ -n "$cl_dir" ] && rm -rf "$cl_dir"
  cl_dir=
}
