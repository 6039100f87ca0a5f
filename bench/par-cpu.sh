#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Where `brisk par -0 md5sum` spends its CPU beside `fdfind -x md5sum`, in the same run: for each
# tool, the wall time, the CPU of the tool's own process (all its threads: for brisk the JVM's
# start, its compiler, its slot threads) and the CPU of its children (the md5sum processes),
# read from /proc/PID/stat while it runs (the last sample before it exits, every 5 ms).
#
# With a C compiler, the machine's floor for the same jobs joins them: bench/spawn-floor.c, the
# jobs spawned by a C program on two threads with posix_spawn (as brisk spawns them) and with
# vfork. Runs are interleaved, each round starting with the next tool; medians of each column,
# each tool's ratio to fd: of the medians, and the median of the rounds' ratios.
#
#   bench/par-cpu.sh [TREE] [ROUNDS]  (default /tmp/brisk-scale/wide-1000 and 7; the list of
#                                      TREE's files, NUL-separated, is made from fdfind's own walk)
#   BENCH_JOBS="0 20 200 1000" bench/par-cpu.sh TREE   brisk alone over the first N files of the
#                                      list, 3 runs each: its own CPU against the number of jobs
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
tree=${1:-/tmp/brisk-scale/wide-1000}
rounds=${2:-7}
[ -d "$tree" ] || { echo "par-cpu.sh: no tree $tree (bench/scale.sh par makes it)" >&2; exit 2; }
command -v fdfind >/dev/null || { echo "par-cpu.sh: needs fdfind (Debian's fd-find)" >&2; exit 2; }
work=$(mktemp -d /tmp/brisk-par-cpu.XXXXXX)
trap 'rm -rf "$work"' EXIT
brisk=$root/brisk
export BRISK_NO_BUILD=1
"$brisk" par true ::: 1 # the AOT cache trained, if it was not
# the same files in the same order as fd's own walk gives them
fdfind -u -t f -0 . "$tree" > "$work/list"
# a descriptor that never has data: the sampling loop waits on it (read -t) instead of a sleep process
mkfifo "$work/never"
exec {never}<>"$work/never"

# one run: "wall SELF CHILDREN" in seconds; stdin from $2, stdout to /dev/null
measure() {
    local in=$1; shift
    local start end pid last="" s
    start=$(date +%s%N)
    "$@" < "$in" > /dev/null &
    pid=$!
    # builtins only: a `cat` and a `sleep` per sample were 400 processes a second, which took
    # most of a core from the tools measured (1,000 jobs: 6.4 s for fd instead of 3.8 s)
    while kill -0 "$pid" 2>/dev/null; do
        { read -r s < "/proc/$pid/stat"; } 2>/dev/null && last=$s
        read -r -t 0.005 -u "$never" || :
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

# the machine's floor for the same jobs, in C (bench/spawn-floor.c): posix_spawn as brisk spawns,
# and vfork (no stack mapped and unmapped per job)
floor=
if command -v cc >/dev/null; then
    cc -O2 -pthread -o "$work/spawn-floor" "$root/bench/spawn-floor.c"
    floor=1
fi
names=(brisk fd)
[ -n "$floor" ] && names+=("C-posix_spawn" "C-vfork")
run() {
    case $1 in
        brisk) measure "$work/list" "$brisk" par -0 md5sum ;;
        fd) measure /dev/null fdfind -u -t f . "$tree" -x md5sum ;;
        C-posix_spawn) measure "$work/list" "$work/spawn-floor" 0 ;;
        C-vfork) measure "$work/list" "$work/spawn-floor" 1 ;;
    esac
}

echo "$(tr -cd '\0' < "$work/list" | wc -c) files of $tree, $rounds rounds, load $(cut -d' ' -f1 /proc/loadavg) at the start"
k=${#names[@]}
for i in $(seq "$rounds"); do
    # each round starts with the next tool: every tool runs first, second... as often
    for j in $(seq 0 $((k - 1))); do
        who=${names[$(( (i + j) % k ))]}
        echo "$who $(run "$who")"
    done
done | tee "$work/runs"
echo "load $(cut -d' ' -f1 /proc/loadavg) at the end"
for who in "${names[@]}"; do
    grep "^$who " "$work/runs" | cut -d' ' -f2 > "$work/$who.wall"
    printf '%-14s wall %s s  own CPU %s s  children %s s (medians)\n' "$who" "$(med < "$work/$who.wall")" \
        "$(grep "^$who " "$work/runs" | cut -d' ' -f3 | med)" "$(grep "^$who " "$work/runs" | cut -d' ' -f4 | med)"
done
for who in "${names[@]}"; do
    [ "$who" = fd ] && continue
    p=$(paste "$work/$who.wall" "$work/fd.wall" | awk '{ print $1 / $2 }' | med)
    awk -v b="$(med < "$work/$who.wall")" -v f="$(med < "$work/fd.wall")" -v p="$p" -v w="$who" \
        'BEGIN { printf "%s/fd: %.3f (ratio of the medians), %.3f (median of the rounds'"'"' ratios)\n", w, b / f, p }'
done
