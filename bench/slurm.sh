#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# brisk par --slurm on a real three-node Slurm cluster started here (Debian's slurm-wlm and munge,
# as cli/src/test/java/dev/brisk/cli/SlurmCluster.java does: munged with its own key and socket,
# slurmctld, three slurmd posing as n1-n3 on 127.0.0.1, 2 CPUs each; killed by PID on exit),
# against the same jobs run here, GNU parallel's Slurm recipe (parallel --delay 0.2 srun ...)
# and one srun step per job. Each line: median wall time of RUNS runs, interleaved, with the
# load. Needs root (slurmd). The peers are slow (27 ms and more per step), so they run fewer
# jobs: compare jobs per second. md5:local-j6 runs the local case on as many slots as the
# cluster has (6), as bench/remote.sh's local cases do. At the end: the time to the first job
# (from brisk's start to the moment the job ran) and the floor under it, three steps at once.
#   bench/slurm.sh [RUNS] [ECHO_JOBS] [MD5_JOBS] [PEER_JOBS]     (defaults 5 10000 3000 300)
# AB=/other/brisk bench/slurm.sh [RUNS]: only the time to the first job, RUNS rounds (default 5)
# alternating this brisk and the other (a copy of an earlier build), for a before/after.
# AB_MD5=/other/brisk bench/slurm.sh [RUNS] [ECHO_JOBS] [MD5_JOBS]: only a md5sum job's overhead
# under --slurm beyond the local run on 6 slots, for this brisk and the other, alternating in each
# round, with the whole machine's CPU (/proc/stat) beside the wall time.
set -uo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
runs=${1:-5} necho=${2:-10000} nmd5=${3:-3000} npeer=${4:-300}
. "$root/scripts/jdk.sh"; brisk_find_jdk || exit 1
"$root/brisk" --version >/dev/null || exit 1          # build first, outside the timings
B=$root/brisk

d=$(mktemp -d /tmp/brisk-slurm-bench.XXXXXX); chmod 755 "$d"
pids=()
cleanup() {
    SLURM_CONF=$d/slurm.conf scancel $(SLURM_CONF=$d/slurm.conf squeue -h -o %i 2>/dev/null) 2>/dev/null
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
    rm -rf "$d"
}
trap cleanup EXIT
mkdir -p "$d/munge" "$d/state" "$d/log" "$d/spool/n1" "$d/spool/n2" "$d/spool/n3" "$d/files"
chown munge:munge "$d/munge"
setpriv --reuid=munge --regid=munge --init-groups mungekey --create --keyfile="$d/munge/key"
# no shell function around it: $! must be munged's own pid
setpriv --reuid=munge --regid=munge --init-groups munged -F --socket="$d/munge/sock" --key-file="$d/munge/key" --pid-file="$d/munge/pid" \
    --seed-file="$d/munge/seed" --log-file="$d/munge/log" >"$d/log/munged.out" 2>&1 & pids+=($!)
until [ -S "$d/munge/sock" ]; do sleep 0.02; done
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$d/slurm.conf" <<EOF
ClusterName=bench
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
AuthType=auth/munge
AuthInfo=socket=$d/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool/%n
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/spool/%n/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
MaxStepCount=100000
NodeName=n1 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((port + 1)) CPUs=2
NodeName=n2 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((port + 2)) CPUs=2
NodeName=n3 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((port + 3)) CPUs=2
PartitionName=debug Nodes=n1,n2,n3 Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$d/slurm.conf
(cd "$d" && exec slurmctld -D -i >"$d/log/ctld.out" 2>&1) & pids+=($!)
for n in n1 n2 n3; do (cd "$d" && exec slurmd -D -N $n >"$d/log/$n.out" 2>&1) & pids+=($!); done
t0=$(date +%s.%N)
until [ "$(sinfo -h -N -o %t 2>/dev/null | grep -c idle)" = 3 ]; do sleep 0.05; done
echo "cluster ready in $(python3 -c "print(round($(date +%s.%N) - $t0, 2))") s"
for i in $(seq 1 "$nmd5"); do echo "$i" >"$d/files/$i"; done
seq 1 "$necho" >"$d/echo.in"; ls -d "$d"/files/* >"$d/md5.in"; seq 1 "$npeer" >"$d/peer.in"

# one wall time in seconds for a command line run by bash in an allocation of 3 whole nodes (6 CPUs)
wall() { local s e; s=$(date +%s%N); bash -c "$1" >/dev/null 2>"$d/err" || { echo "FAILED: $1" >&2; cat "$d/err" >&2; }; e=$(date +%s%N); echo $(( (e - s) / 1000 )); }
A="salloc -Q -N 3 --exclusive"
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
first_job() { # $1: the brisk to run; prints ms from its start to the moment the job ran
  $A bash -c 't0=$(date +%s%N); t1=$('"$1"' par --slurm "date +%s%N; true" ::: 1); echo $(( (t1 - t0) / 1000000 ))'
}
if [ -n "${AB:-}" ]; then
  "$AB" --version >/dev/null || exit 1
  ta=() tb=()
  for r in $(seq 1 "$runs"); do
    if [ $((r % 2)) = 1 ]; then ta+=("$(first_job "$B")"); tb+=("$(first_job "$AB")")
    else tb+=("$(first_job "$AB")"); ta+=("$(first_job "$B")"); fi
  done
  echo "first job ran after (ms), $B: ${ta[*]}; median $(echo "${ta[*]}" | median)"
  echo "first job ran after (ms), $AB: ${tb[*]}; median $(echo "${tb[*]}" | median)"
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi
# the machine's busy CPU time in clock ticks (user, nice, system, irq, softirq)
busy() { awk 'NR == 1 {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
timed() { # "wall_ms:cpu_ms" of a command line, the CPU of the whole machine
  local c0 s e c1; c0=$(busy); s=$(date +%s%N)
  bash -c "$1" >/dev/null 2>"$d/err" || { echo "FAILED: $1" >&2; cat "$d/err" >&2; }
  e=$(date +%s%N); c1=$(busy); echo "$(( (e - s) / 1000000 )):$(( (c1 - c0) * 1000 / $(getconf CLK_TCK) ))"
}
if [ -n "${AB_MD5:-}" ]; then
  "$AB_MD5" --version >/dev/null || exit 1
  echo "### AB_MD5=$AB_MD5 bench/slurm.sh $runs $necho $nmd5: $(date -u), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  tl=() ta=() tb=()
  for r in $(seq 1 "$runs"); do
    tl+=("$(timed "$B par -j6 md5sum {} < $d/md5.in")")
    if [ $((r % 2)) = 1 ]; then ta+=("$(timed "$A $B par --slurm md5sum {} < $d/md5.in")"); tb+=("$(timed "$A $AB_MD5 par --slurm md5sum {} < $d/md5.in")")
    else tb+=("$(timed "$A $AB_MD5 par --slurm md5sum {} < $d/md5.in")"); ta+=("$(timed "$A $B par --slurm md5sum {} < $d/md5.in")"); fi
  done
  python3 - "$nmd5" "$B" "$AB_MD5" "${tl[*]}" "${ta[*]}" "${tb[*]}" <<'PY'
import statistics as st, sys
n, this, other = int(sys.argv[1]), sys.argv[2], sys.argv[3]
runs = [[tuple(map(int, t.split(':'))) for t in a.split()] for a in sys.argv[4:7]]
med = [(st.median(w for w, c in r), st.median(c for w, c in r)) for r in runs]
print(f"local -j6 ({this}): wall {med[0][0]} ms, CPU {med[0][1]} ms; rounds {runs[0]}")
for name, (w, c), r in ((this, med[1], runs[1]), (other, med[2], runs[2])):
    print(f"--slurm {name}: wall {w} ms, CPU {c} ms; overhead per job {(w - med[0][0]) / n:.3f} ms wall, "
          f"{(c - med[0][1]) / n / 2:.3f} ms CPU/2; rounds {r}")
PY
  echo "### end $(date -u), load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi
declare -A cmd=(
  [first-job:local]="$B par echo ::: 1"
  [first-job:slurm]="$A $B par --slurm echo ::: 1"
  [echo:local]="$B par echo {} < $d/echo.in"
  [echo:slurm]="$A $B par --slurm echo {} < $d/echo.in"
  [md5:local]="$B par md5sum {} < $d/md5.in"
  [md5:slurm]="$A $B par --slurm md5sum {} < $d/md5.in"
  [md5:local-j6]="$B par -j6 md5sum {} < $d/md5.in"
  [peer:srun-per-job]="$A parallel -j 6 srun --overlap -N1 -n1 echo {} < $d/peer.in"
  [peer:gnu-recipe]="$A parallel --delay 0.2 -j 6 srun --overlap -N1 -n1 echo {} < $d/peer.in"
  [peer:slurm]="$A $B par --slurm echo {} < $d/peer.in"
  [alloc-only]="$A true"
)
order=(alloc-only first-job:local first-job:slurm echo:local echo:slurm md5:local md5:local-j6 md5:slurm peer:slurm peer:srun-per-job)
declare -A times
echo "### bench/slurm.sh $runs $necho $nmd5 $npeer: $(date -u), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$runs"); do
  for k in "${order[@]}"; do times[$k]+="$(wall "${cmd[$k]}") "; done
done
# the recipe's --delay 0.2 makes it 5 steps a second whatever else: one run is enough
times[peer:gnu-recipe]="$(wall "${cmd[peer:gnu-recipe]}")"
jobs_of() { case $1 in echo:*) echo "$necho";; md5:*) echo "$nmd5";; peer:*) echo "$npeer";; *) echo 1;; esac; }
printf '%-22s %10s %8s %12s\n' case median_ms jobs jobs_per_s
for k in "${order[@]}" peer:gnu-recipe; do
  m=$(echo "${times[$k]}" | median); n=$(jobs_of "$k")
  printf '%-22s %10.1f %8d %12.0f\n' "$k" "$(echo "$m / 1000" | bc -l)" "$n" "$(echo "$n * 1000000 / $m" | bc -l)"
done
# the first job: from brisk's start to the moment the job ran (the first-job lines above are
# whole runs, their end included), and the floor under it: three steps started at once
first=() steps=()
for r in 1 2 3 4 5; do
  first+=("$(first_job "$B")")
  steps+=("$($A bash -c 's=$(date +%s%N); for n in $(scontrol show hostnames "$SLURM_JOB_NODELIST"); do srun --overlap -N1 -n1 -w "$n" true & done; wait; echo $(( ($(date +%s%N) - s) / 1000000 ))')")
done
echo "first job ran after (ms, JVM start included): ${first[*]}; median $(echo "${first[*]}" | median)"
echo "three srun steps of 'true' at once (ms): ${steps[*]}; median $(echo "${steps[*]}" | median)"
echo "### end $(date -u), load after: $(cut -d' ' -f1-3 /proc/loadavg)"
