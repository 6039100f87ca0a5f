#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# brisk pv -M (a command run under the meter) against the pipelines it stands for, with brisk pv
# and with pv, in one interleaved run.
#
#   bench/pv-monitor.sh [SIZE] [RUNS]   SIZE for head -c (default 2G), RUNS per cell (default 3)
#
# Rows (Z = head -c SIZE /dev/zero), each cell the median wall time as GiB/s:
#   in    Z | M -M in cat >/dev/null      vs  Z | M | cat >/dev/null
#   out   M -M out Z >/dev/null           vs  Z | M >/dev/null
#   both  Z | M -M both cat >/dev/null    vs  Z | M | cat | M >/dev/null
# where M is brisk pv -q (-M and the pipeline) or pv -q (the pipeline only: pv has no -M).
# brisk's times include its JVM start (once per -M run, twice in the "both" pipeline).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
size=${1:-2G}
runs=${2:-3}
b="$root/brisk pv -q"
command -v pv >/dev/null || { echo "pv-monitor.sh: needs pv (apt-get install pv)" >&2; exit 1; }
$b </dev/null # build and train the AOT cache before timing
bytes=$(head -c "$size" /dev/zero | wc -c)
z="head -c $size /dev/zero"

declare -A cmd=(
    [in,monitor]="$z | $b -M in cat >/dev/null"
    [in,brisk]="$z | $b | cat >/dev/null"
    [in,pv]="$z | pv -q | cat >/dev/null"
    [out,monitor]="$b -M out $z >/dev/null"
    [out,brisk]="$z | $b >/dev/null"
    [out,pv]="$z | pv -q >/dev/null"
    [both,monitor]="$z | $b -M both cat >/dev/null"
    [both,brisk]="$z | $b | cat | $b >/dev/null"
    [both,pv]="$z | pv -q | cat | pv -q >/dev/null"
)
rows=(in out both)
cols=(monitor brisk pv)
declare -A times
for ((r = 1; r <= runs; r++)); do
    for row in "${rows[@]}"; do
        for col in "${cols[@]}"; do
            t0=$EPOCHREALTIME
            bash -c "${cmd[$row,$col]}"
            t1=$EPOCHREALTIME
            times[$row,$col]+="$(echo "$t1 - $t0" | bc -l) "
        done
    done
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
gibs() { echo "scale=2; $bytes / 1073741824 / $1" | bc -l; }
echo "size $size ($bytes bytes), $runs runs each, medians; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %10s %10s %10s %14s %14s\n' row brisk-M brisk-pipe pv-pipe M/brisk-pipe M/pv-pipe
for row in "${rows[@]}"; do
    declare -A med=()
    for col in "${cols[@]}"; do med[$col]=$(echo "${times[$row,$col]}" | median); done
    printf '%-5s %10s %10s %10s %14.2f %14.2f\n' "$row" "$(gibs "${med[monitor]}")" "$(gibs "${med[brisk]}")" \
        "$(gibs "${med[pv]}")" "$(echo "${med[brisk]} / ${med[monitor]}" | bc -l)" "$(echo "${med[pv]} / ${med[monitor]}" | bc -l)"
done
echo "(GiB/s; ratios are throughput ratios, > 1 means brisk pv -M is faster)"
