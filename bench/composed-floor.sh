#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The composed job `md5sum {} | cut -c1-32` over JOBS files, brisk par beside the machine's floors
# for it, interleaved in the same run:
#
#   figure        bench/par-floor.py JOBS: the two programs spawned one job at a time, their CPU
#                 divided by the cores (no runner, no idle core: the figure issue 15 measures against)
#   python x2     bench/par-floor.py JOBS DIR 2: two such bare spawners at once, timed (no output
#                 kept: cut writes to /dev/null)
#   C 1 proc      bench/spawn-floor.c 0 cut: one process, two threads, posix_spawn of both programs,
#                 cut's output through a file that is read back and written out (what a runner
#                 that keeps each job's output whole does at least; brisk is one process too)
#   C 2 procs     the same as two processes of one thread each, half the files each
#   brisk         brisk par -0 'md5sum {} | cut -c1-32'
#
# Each tool's median over ROUNDS, and its ratio to the figure's median.
#
#   bench/composed-floor.sh [TREE] [ROUNDS] [JOBS]   (default /tmp/brisk-scale/wide-10000, 5, 10000)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
tree=${1:-/tmp/brisk-scale/wide-10000}
rounds=${2:-5}
jobs=${3:-10000}
[ -d "$tree" ] || { echo "composed-floor.sh: no tree $tree (bench/scale.sh par makes it)" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ && $jobs =~ ^[1-9][0-9]*$ ]] || { echo "composed-floor.sh: ROUNDS and JOBS are positive numbers" >&2; exit 2; }
work=$(mktemp -d /tmp/brisk-composed-floor.XXXXXX)
trap 'rm -rf "$work"' EXIT
cc -O2 -pthread -o "$work/spawn-floor" "$root/bench/spawn-floor.c"
brisk=$root/brisk
export BRISK_NO_BUILD=1
"$brisk" par true ::: 1 # the AOT cache trained, if it was not
find "$tree" -type f -print0 | head -z -n "$jobs" > "$work/list"
n=$(tr -cd '\0' < "$work/list" | wc -c)
[ "$n" = "$jobs" ] || { echo "composed-floor.sh: $tree has $n files, not $jobs" >&2; exit 2; }
half=$((jobs / 2))
head -z -n "$half" "$work/list" > "$work/a"
tail -z -n +"$((half + 1))" "$work/list" > "$work/b"
xargs -0 cat < "$work/list" > /dev/null # the files in the page cache
# every runner gives the same lines (a floor that skipped work would look fast)
want=$("$brisk" par -0 'md5sum {} | cut -c1-32' < "$work/list" | sort | md5sum)
got=$("$work/spawn-floor" 0 cut < "$work/list" | sort | md5sum)
[ "$want" = "$got" ] || { echo "composed-floor.sh: spawn-floor's output differs from brisk's" >&2; exit 1; }
echo "composed-floor: $jobs jobs over $tree, $rounds rounds, $(nproc) cores, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
t() { local s e; s=$(date +%s%N); "$@" > /dev/null; e=$(date +%s%N); awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f", (e - s) / 1e9}'; }
for ((r = 0; r < rounds; r++)); do
    f=$(python3 "$root/bench/par-floor.py" "$jobs" "$tree" | sed -n 's/^floor for 10,000 such jobs on [0-9]* cores: \([0-9.]*\) s.*/\1/p')
    echo "figure $(awk -v f="$f" -v j="$jobs" 'BEGIN {printf "%.3f", f * j / 10000}')" >> "$work/times"
    echo "python-x2 $(t python3 "$root/bench/par-floor.py" "$jobs" "$tree" 2)" >> "$work/times"
    echo "C-1-proc $(t "$work/spawn-floor" 0 cut < "$work/list")" >> "$work/times"
    echo "C-2-procs $(t bash -c "THREADS=1 '$work/spawn-floor' 0 cut < '$work/a' > /dev/null & THREADS=1 '$work/spawn-floor' 0 cut < '$work/b' > /dev/null; wait")" >> "$work/times"
    echo "brisk $(t bash -c "'$brisk' par -0 'md5sum {} | cut -c1-32' < '$work/list'")" >> "$work/times"
done
med() { awk -v k="$1" '$1 == k {print $2}' "$work/times" | sort -n | awk '{v[NR] = $1} END {printf "%.2f %.2f %.2f", v[int((NR + 1) / 2)], v[1], v[NR]}'; }
read -r fig _ _ <<< "$(med figure)"
for k in figure python-x2 C-1-proc C-2-procs brisk; do
    read -r m lo hi <<< "$(med "$k")"
    printf '%-10s %6.2f s (%.2f-%.2f)  %.3fx the figure\n' "$k" "$m" "$lo" "$hi" "$(awk -v m="$m" -v f="$fig" 'BEGIN {print m / f}')"
done
echo "load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
