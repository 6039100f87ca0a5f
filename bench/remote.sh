#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `brisk par -S` over three real loopback sshd hosts x 2 slots, against GNU parallel -S (with and
# without --controlmaster) and against the same jobs run locally by brisk (-j6), interleaved in
# one run; prints medians, ratios, and the time to the first job.
#
#   bench/remote.sh [ROUNDS] [JOBS]      (defaults: 3 rounds, 3000 jobs)
#
# GNU parallel -S pays an ssh login (or a ControlMaster channel) and a Perl start per job, so it
# runs JOBS/10 jobs and its time is scaled by 10 (stated in the output). Needs root (it starts
# sshd as bench/sshd-hosts.sh does, and stops it at the end).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
rounds=${1:-3}
jobs=${2:-3000}
work=${BRISK_BENCH_DIR:-/tmp/brisk-bench-remote}
mkdir -p "$work"; chmod 755 "$work"
tree=$work/tree-$jobs
[ -d "$tree" ] || python3 "$root/bench/gentree.py" "$tree" "$jobs" >/dev/null
chmod -R a+rX "$tree"
find "$tree" -type f | head -n "$jobs" > "$work/files"
head -n $((jobs / 10)) "$work/files" > "$work/files10"
seq "$jobs" > "$work/seq"; seq $((jobs / 10)) > "$work/seq10"; seq $((jobs / 3)) > "$work/seq3"
SSH=$("$root/bench/sshd-hosts.sh" start "$work/sshd" 3)
trap '"$root/bench/sshd-hosts.sh" stop "$work/sshd"' EXIT
export SSH
brisk() { BRISK_NO_BUILD=1 "$root/brisk" "$@"; }
"$root/brisk" par true ::: warm >/dev/null
export -f brisk; export root
S="-S 2/h1,2/h2,2/h3"
declare -A cmds=(
  [echo.remote]="brisk par --ssh \"\$SSH\" $S echo {} < $work/seq"
  [echo.local]="brisk par -j6 echo {} < $work/seq"
  [one.remote]="brisk par --ssh \"\$SSH\" -S 1/h1 echo {} < $work/seq3"
  [one.local]="brisk par -j1 echo {} < $work/seq3"
  [echo.gnu]="parallel --will-cite --ssh \"\$SSH\" $S echo {} < $work/seq10"
  [echo.gnucm]="parallel --will-cite --controlmaster --ssh \"\$SSH\" $S echo {} < $work/seq10"
  [md5.remote]="brisk par --ssh \"\$SSH\" $S md5sum {} < $work/files"
  [md5.local]="brisk par -j6 md5sum {} < $work/files"
  [md5.gnu]="parallel --will-cite --ssh \"\$SSH\" $S md5sum {} < $work/files10"
  [md5.gnucm]="parallel --will-cite --controlmaster --ssh \"\$SSH\" $S md5sum {} < $work/files10"
)
order=(one.remote one.local echo.remote echo.local echo.gnu echo.gnucm md5.remote md5.local md5.gnu md5.gnucm)
declare -A times
for ((r = 1; r <= rounds; r++)); do
  for k in "${order[@]}"; do
    /usr/bin/time -o "$work/time" -f '%e' bash -c "${cmds[$k]}" > "$work/out.$k" 2>"$work/err.$k" || true
    wall=$(tail -1 "$work/time")
    n=$(wc -l < "$work/out.$k")
    times[$k]="${times[$k]:-} $wall"
    printf 'round %d %-12s %7.2f s  (%d lines out)\n' "$r" "$k" "$wall" "$n" >&2
  done
done
# the first job: from the command's start to the moment the job ran
first=()
for ((r = 1; r <= 5; r++)); do
  t0=$(date +%s%N)
  t1=$(brisk par --ssh "$SSH" $S 'date +%s%N; true' ::: 1)
  first+=("$(( (t1 - t0) / 1000000 ))")
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
declare -A med
for k in "${order[@]}"; do
  med[$k]=$(echo "${times[$k]}" | median)
  case $k in *.gnu|*.gnucm) med[$k]=$(echo "${med[$k]} * 10" | bc -l) ;; esac
done
r() { echo "scale=1; ${med[$1]} / ${med[$2]}" | bc -l; }
over() { echo "scale=3; (${med[$1]} - ${med[$2]}) * 6 * 1000 / $jobs" | bc -l; }
per() { echo "scale=3; (${med[$1]} - ${med[$2]}) * 1000 / $jobs" | bc -l; }
echo "brisk par -S benchmark: $jobs jobs on 3 loopback sshd hosts x 2 slots, $rounds rounds (GNU parallel: $((jobs / 10)) jobs, time x10)"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); cores: $(nproc)"
for k in "${order[@]}"; do printf '%-12s %9.2f s\n' "$k" "${med[$k]}"; done
echo "echo {}:   gnu/brisk $(r echo.gnu echo.remote)x   gnu-controlmaster/brisk $(r echo.gnucm echo.remote)x   remote-local per job $(per echo.remote echo.local) ms, per job and slot $(over echo.remote echo.local) ms"
echo "md5sum {}: gnu/brisk $(r md5.gnu md5.remote)x   gnu-controlmaster/brisk $(r md5.gnucm md5.remote)x   remote-local per job $(per md5.remote md5.local) ms, per job and slot $(over md5.remote md5.local) ms"
echo "one slot, $((jobs / 3)) × echo {}: remote-local per job $(echo "scale=3; (${med[one.remote]} - ${med[one.local]}) * 1000 / ($jobs / 3)" | bc -l) ms (the latency a job adds, with no other job competing for the cores)"
echo "first job ran after (ms, 5 runs, JVM start included): ${first[*]}; median $(echo "${first[*]}" | median)"
