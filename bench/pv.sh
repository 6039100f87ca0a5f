#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# brisk pv against pv and against the same pipeline with no meter, in one interleaved run.
#
#   bench/pv.sh [SIZE] [RUNS]      SIZE for head -c and the big file (default 4G), RUNS per cell (default 3)
#
# Four pipelines, each with X = no meter (cat where a process is needed), pv -q, brisk pv -q,
# pv -f and brisk pv -f (display on, drawn into a file):
#   A  head -c SIZE /dev/zero | X | cat >/dev/null
#   B  head -c SIZE /dev/zero | X >/dev/null
#   C  X < bigfile >/dev/null
#   D  X < bigfile | cat >/dev/null
# Prints GiB/s (SIZE / median wall time) per cell, then brisk's throughput ratio to pv and to
# no meter. brisk's times include its JVM start, measured separately at the end.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
size=${1:-4G}
runs=${2:-3}
brisk=$root/brisk
command -v pv >/dev/null || { echo "pv.sh: needs pv (apt-get install pv)" >&2; exit 1; }
"$brisk" pv -q </dev/null # build and train the AOT cache before timing

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
big=$work/bigfile
head -c "$size" /dev/zero >"$big"
cat "$big" >/dev/null # hot cache
bytes=$(stat -c %s "$big")

declare -A meter=(
    [none]=""
    [pv]="pv -q"
    [brisk]="$brisk pv -q"
    [pv-f]="pv -f 2>$work/pv.err"
    [brisk-f]="$brisk pv -f 2>$work/brisk.err"
)
meters=(none pv brisk pv-f brisk-f)
cases=(A B C D)

pipeline() { # $1 case, $2 meter command ('' = none)
    local m=$2
    case $1 in
    A) echo "head -c $size /dev/zero | ${m:-cat} | cat >/dev/null" ;;
    B) if [ -n "$m" ]; then echo "head -c $size /dev/zero | $m >/dev/null"; else echo "head -c $size /dev/zero >/dev/null"; fi ;;
    C) echo "${m:-cat} < $big >/dev/null" ;;
    D) echo "${m:-cat} < $big | cat >/dev/null" ;;
    esac
}

declare -A times
for ((r = 1; r <= runs; r++)); do
    for c in "${cases[@]}"; do
        for m in "${meters[@]}"; do
            cmd=$(pipeline "$c" "${meter[$m]}")
            t0=$EPOCHREALTIME
            bash -c "$cmd"
            t1=$EPOCHREALTIME
            times[$c,$m]+="$(echo "$t1 - $t0" | bc -l) "
        done
    done
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
gibs() { echo "scale=2; $bytes / 1073741824 / $1" | bc -l; }

echo "size $size ($bytes bytes), $runs runs each, medians; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-4s %9s %9s %9s %9s %9s %12s %12s %12s\n' case none pv brisk pv-f brisk-f brisk/pv brisk/none brisk-f/pv-f
for c in "${cases[@]}"; do
    declare -A med=()
    for m in "${meters[@]}"; do
        med[$m]=$(echo "${times[$c,$m]}" | median)
    done
    printf '%-4s' "$c"
    for m in "${meters[@]}"; do printf ' %9s' "$(gibs "${med[$m]}")"; done
    printf ' %12.2f %12.2f %12.2f\n' "$(echo "${med[pv]} / ${med[brisk]}" | bc -l)" \
        "$(echo "${med[none]} / ${med[brisk]}" | bc -l)" "$(echo "${med[pv-f]} / ${med[brisk-f]}" | bc -l)"
done
echo "(GiB/s; ratios are throughput ratios, > 1 means brisk is faster)"

st_brisk="" st_pv=""
for ((r = 1; r <= 5; r++)); do
    t0=$EPOCHREALTIME; "$brisk" pv -q </dev/null; t1=$EPOCHREALTIME
    st_brisk+="$(echo "$t1 - $t0" | bc -l) "
    t0=$EPOCHREALTIME; pv -q </dev/null; t1=$EPOCHREALTIME
    st_pv+="$(echo "$t1 - $t0" | bc -l) "
done
printf 'startup (empty input, median of 5): brisk pv %.3f s, pv %.3f s\n' "$(echo "$st_brisk" | median)" "$(echo "$st_pv" | median)"
