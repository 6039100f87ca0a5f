#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The floor under `brisk find T -type f` on this machine, beside brisk and GNU find in the same run:
#
#   walk-floor 2   bench/walk-floor.c on 2 threads: brisk's system calls for the walk (getdents64
#                  per directory, its subdirectories' openat and the finished ones' close batched
#                  through io_uring, as brisk's walker makes them), and the paths written
#                  nothing else: no JVM
#   walk-floor 2 plain  the same with one openat and one close system call per directory (brisk
#                  with -Dbrisk.uring=off, and before session 19)
#   walk-floor 1   io_uring's on one thread
#   java -version  the JVM's own start with brisk find's flags and AOT cache (no brisk code)
#   -maxdepth 0    brisk find's start: the JVM, brisk's set-up, one root visited
#   brisk, GNU     brisk find T -type f, GNU find T -type f
#
# Everything writes to /dev/null; the tree is in the page cache (one walk first, which also
# checks that walk-floor finds as many files as find). Runs are interleaved, ROUNDS of them
# (default 7); medians of wall time and, apart, of user+system CPU.
#
#   bench/find-floor.sh [TREE] [ROUNDS] [K]   (default /tmp/brisk-scale/wide-1000000, as bench/scale.sh makes it)
#
# With K (a number of KiB), every command is `-size +Kk` in place of `-type f`, and walk-floor
# statx's every entry as find must (bench/walk-floor.c's fourth argument): the floor under -size
# and -printf, which need a statx per entry.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
. "$root/scripts/jdk.sh"
brisk_find_jdk || exit 1
tree=${1:-/tmp/brisk-scale/wide-1000000}
rounds=${2:-7}
kib=${3:-}
[ -z "$kib" ] || [[ $kib =~ ^[0-9]+$ ]] || { echo "find-floor.sh: K must be a number of KiB, not $kib" >&2; exit 2; }
if [ -n "$kib" ]; then expr="-size +${kib}k"; floorarg=" $kib"; else expr="-type f"; floorarg=; fi
[ -d "$tree" ] || { echo "find-floor.sh: no tree $tree (bench/scale.sh find makes it)" >&2; exit 2; }
work=$(mktemp -d /tmp/brisk-find-floor.XXXXXX)
trap 'rm -rf "$work"' EXIT
cc -O2 -pthread -o "$work/walk-floor" "$root/bench/walk-floor.c"
brisk=$root/brisk
export BRISK_NO_BUILD=1
"$brisk" find "$tree" -maxdepth 0 >/dev/null # the AOT cache trained, if it was not
# the launcher's java command for find, as it would exec it (bash -x shows it), with -version
# in place of the main class and its arguments
javacmd=$(bash -x "$brisk" find "$tree" -maxdepth 0 2>&1 >/dev/null | sed -n 's/^+ exec //p' | tail -n 1)
javaversion=${javacmd%% -cp *}' -version'

names=("walk-floor 2" "walk-floor 2 plain" "walk-floor 1" "java -version" "-maxdepth 0" "brisk" "GNU find")
cmds=("$work/walk-floor $tree 2 1$floorarg" "$work/walk-floor $tree 2 0$floorarg" "$work/walk-floor $tree 1 1$floorarg" "$javaversion"
      "$brisk find $tree -maxdepth 0" "$brisk find $tree $expr" "find $tree $expr")
# the floor walks what the others walk (a floor that skipped work would look fast)
n_floor=$(${cmds[0]} | wc -l)
n_find=$(find "$tree" $expr | wc -l)
[ "$n_floor" = "$n_find" ] || { echo "find-floor.sh: walk-floor printed $n_floor files, find $n_find" >&2; exit 1; }
echo "find-floor: $tree $expr, $rounds rounds, $(nproc) cores, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
for ((r = 0; r < rounds; r++)); do
    for i in "${!names[@]}"; do
        /usr/bin/time -f "$i %e %U %S" -a -o "$work/times" bash -c "${cmds[$i]} >/dev/null 2>&1"
    done
done
for i in "${!names[@]}"; do
    w=$(awk -v i="$i" '$1 == i {print $2}' "$work/times" | sort -n | awk '{v[NR] = $1} END {printf "%.2f s (%.2f-%.2f)", v[int((NR + 1) / 2)], v[1], v[NR]}')
    c=$(awk -v i="$i" '$1 == i {print $3 + $4}' "$work/times" | sort -n | awk '{v[NR] = $1} END {printf "%.2f s", v[int((NR + 1) / 2)]}')
    printf '%-18s wall %s  CPU %s\n' "${names[$i]}" "$w" "$c"
done
echo "load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
