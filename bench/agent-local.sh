#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The remote agents without ssh or Slurm: `brisk par -S` with `--ssh` set to a script that runs
# `setsid /bin/sh -s` here, so only the agent's own cost per job is measured. Interleaved runs of
# the Perl agent, the sh agent (BRISK_REMOTE_AGENT=sh) and the same jobs run locally, on one slot
# and on 3 "hosts" x 2 slots; prints each run's wall time and the medians.
#   bench/agent-local.sh [ROUNDS] [JOBS]      (defaults: 3 rounds, 3000 jobs; one slot runs JOBS/3)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
rounds=${1:-3} jobs=${2:-3000}
work=$(mktemp -d /tmp/brisk-agent-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
printf '#!/bin/sh\nexec setsid /bin/sh -s\n' > "$work/pipe-ssh"; chmod +x "$work/pipe-ssh"
seq "$jobs" > "$work/seq"; seq $((jobs / 3)) > "$work/seq3"
"$root/brisk" par true ::: warm >/dev/null
B="BRISK_NO_BUILD=1 $root/brisk par"
declare -A cmds=(
  [one.perl]="$B --ssh $work/pipe-ssh -S 1/h1 echo {} < $work/seq3"
  [one.sh]="BRISK_REMOTE_AGENT=sh $B --ssh $work/pipe-ssh -S 1/h1 echo {} < $work/seq3"
  [one.local]="$B -j1 echo {} < $work/seq3"
  [six.perl]="$B --ssh $work/pipe-ssh -S 2/h1,2/h2,2/h3 echo {} < $work/seq"
  [six.sh]="BRISK_REMOTE_AGENT=sh $B --ssh $work/pipe-ssh -S 2/h1,2/h2,2/h3 echo {} < $work/seq"
  [six.local]="$B -j6 echo {} < $work/seq"
)
order=(one.perl one.sh one.local six.perl six.sh six.local)
declare -A times
for ((r = 1; r <= rounds; r++)); do
  for k in "${order[@]}"; do
    /usr/bin/time -o "$work/time" -f '%e' bash -c "${cmds[$k]}" > /dev/null
    times[$k]="${times[$k]:-} $(tail -1 "$work/time")"
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo "agents over a local pipe: $((jobs / 3)) echo jobs on one slot, $jobs on 3 x 2 slots, $rounds rounds; load $(cut -d' ' -f1-3 /proc/loadavg)"
for k in "${order[@]}"; do printf '%-10s median %6.2f s  (runs:%s)\n' "$k" "$(echo "${times[$k]}" | median)" "${times[$k]}"; done
