#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The `-X md5sum` case of bench/par.sh alone, for a quick check: brisk par -X (batches spawned
# directly), the same on warm shells (--shell dash, as -X ran before), xargs -n 500 (-P1 and -P2)
# and brisk par -X true (start-up and input, no md5sum), interleaved, ROUNDS rounds; prints the
# median wall time of each in ms.
#
#   bench/par-batch.sh [ROUNDS] [FILES]      (defaults: 10 rounds, 10000 files)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
rounds=${1:-10}
files=${2:-10000}
work=${BRISK_BENCH_DIR:-/tmp/brisk-bench-par}
tree=$work/tree-$files
mkdir -p "$work"
if [ ! -d "$tree" ]; then
    python3 "$root/bench/gentree.py" "$tree" "$files" >/dev/null
fi
find "$tree" -type f -print0 > "$work/list0-batch"
"$root/brisk" par true ::: warm >/dev/null   # builds and trains the AOT cache once
b() { BRISK_NO_BUILD=1 "$root/brisk" "$@"; }
names=(brisk brisk_shell xargs xargs_P2 brisk_true)
declare -A times
for _ in $(seq "$rounds"); do
    for k in "${names[@]}"; do
        case $k in
            brisk) c=(b par -0 -X md5sum) ;;
            brisk_shell) c=(b par --shell dash -0 -X md5sum) ;;
            xargs) c=(xargs -0 -n 500 md5sum) ;;
            xargs_P2) c=(xargs -0 -P2 -n 500 md5sum) ;;
            brisk_true) c=(b par -0 -X true) ;;
        esac
        s=$(date +%s%N)
        "${c[@]}" < "$work/list0-batch" > /dev/null
        e=$(date +%s%N)
        times[$k]+="$(( (e - s) / 1000000 )) "
    done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
for k in "${names[@]}"; do
    echo "$k: median $(echo "${times[$k]}" | median) ms  (runs: ${times[$k]})"
done
