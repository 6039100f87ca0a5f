#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Where `brisk par -0 md5sum` spends its CPU beside `fdfind -x md5sum`, in the same run: for each
# tool, the wall time, the CPU of the tool's own process (all its threads: for brisk the JVM's
# start, its compiler, its slot threads) and the CPU of its children (the md5sum processes),
# read from /proc/PID/stat while it runs (the last sample before it exits, every 5 ms).
#
# Pairs are interleaved, the order alternating pair by pair; medians of each column, the ratio of
# the medians and the median of the pairs' ratios.
#
#   bench/par-cpu.sh [TREE] [PAIRS]   (default /tmp/brisk-scale/wide-1000 and 7; the list of
#                                      TREE's files, NUL-separated, is made from fdfind's own walk)
#   BENCH_JOBS="0 20 200 1000" bench/par-cpu.sh TREE   brisk alone over the first N files of the
#                                      list, 3 runs each: its own CPU against the number of jobs
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
tree=${1:-/tmp/brisk-scale/wide-1000}
pairs=${2:-7}
[ -d "$tree" ] || { echo "par-cpu.sh: no tree $tree (bench/scale.sh par makes it)" >&2; exit 2; }
command -v fdfind >/dev/null || { echo "par-cpu.sh: needs fdfind (Debian's fd-find)" >&2; exit 2; }
work=$(mktemp -d /tmp/brisk-par-cpu.XXXXXX)
trap 'rm -rf "$work"' EXIT
brisk=$root/brisk
export BRISK_NO_BUILD=1
"$brisk" par true ::: 1 # the AOT cache trained, if it was not
# the same files in the same order as fd's own walk gives them
fdfind -u -t f -0 . "$tree" > "$work/list"

# one run: "wall SELF CHILDREN" in seconds; stdin from $2, stdout to /dev/null
measure() {
    local in=$1; shift
    local start end pid last="" s
    start=$(date +%s%N)
    "$@" < "$in" > /dev/null &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        s=$(cat "/proc/$pid/stat" 2>/dev/null) && last=$s
        sleep 0.005
    done
    wait "$pid"
    end=$(date +%s%N)
    # fields after the command name: utime stime cutime cstime are the 12th to 15th
    local f=(${last##*) })
    awk -v w=$(( (end - start) / 1000000 )) -v u="${f[11]}" -v s="${f[12]}" -v cu="${f[13]}" -v cs="${f[14]}" \
        -v t="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f %.2f %.2f\n", w / 1000, (u + s) / t, (cu + cs) / t }'
}

med() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

if [ -n "${BENCH_JOBS:-}" ]; then
    echo "jobs  wall  brisk's own CPU  children's CPU   (medians of 3; load $(cut -d' ' -f1 /proc/loadavg))"
    for n in $BENCH_JOBS; do
        head -z -n "$n" "$work/list" > "$work/list-$n"
        for r in 1 2 3; do measure "$work/list-$n" "$brisk" par -0 md5sum; done > "$work/by-$n"
        printf '%5s %5s %8s %15s\n' "$n" "$(cut -d' ' -f1 "$work/by-$n" | med)" "$(cut -d' ' -f2 "$work/by-$n" | med)" \
            "$(cut -d' ' -f3 "$work/by-$n" | med)"
    done
    exit 0
fi

echo "$(tr -cd '\0' < "$work/list" | wc -c) files of $tree, $pairs pairs, load $(cut -d' ' -f1 /proc/loadavg) at the start"
for i in $(seq "$pairs"); do
    if [ $((i % 2)) = 1 ]; then order="brisk fd"; else order="fd brisk"; fi
    for who in $order; do
        case $who in
            brisk) echo "brisk $(measure "$work/list" "$brisk" par -0 md5sum)" ;;
            fd) echo "fd $(measure /dev/null fdfind -u -t f . "$tree" -x md5sum)" ;;
        esac
    done
done | tee "$work/runs"
echo "load $(cut -d' ' -f1 /proc/loadavg) at the end"
for who in brisk fd; do
    grep "^$who " "$work/runs" | cut -d' ' -f2 > "$work/$who.wall"
    printf '%-6s wall %s s  own CPU %s s  children %s s (medians)\n' "$who" "$(med < "$work/$who.wall")" \
        "$(grep "^$who " "$work/runs" | cut -d' ' -f3 | med)" "$(grep "^$who " "$work/runs" | cut -d' ' -f4 | med)"
done
paste "$work/brisk.wall" "$work/fd.wall" | awk '{ print $1 / $2 }' | med > "$work/pairratio"
awk -v b="$(med < "$work/brisk.wall")" -v f="$(med < "$work/fd.wall")" -v p="$(cat "$work/pairratio")" \
    'BEGIN { printf "brisk/fd: %.3f (ratio of the medians), %.3f (median of the pairs'"'"' ratios)\n", b / f, p }'
