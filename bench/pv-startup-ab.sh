#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Start-up of `brisk pv -q </dev/null` in two trees (A/B of a change), and pv's, interleaved with
# the order alternating each round; prints the median wall times.
#
#   bench/pv-startup-ab.sh OTHER_TREE [ROUNDS]
#
# OTHER_TREE is a built copy of brisk at another commit, e.g.
#   git archive BASE | tar -x -C /tmp/base && /tmp/base/brisk pv -q </dev/null   # builds it
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
other=${1:?usage: pv-startup-ab.sh OTHER_TREE [ROUNDS]}
rounds=${2:-21}
"$root/brisk" pv -q </dev/null # build and train this tree first
one() { local t0=$EPOCHREALTIME; BRISK_NO_BUILD=1 "$1" pv -q </dev/null; echo "$EPOCHREALTIME - $t0" | bc -l; }
a=() b=() p=()
for ((i = 1; i <= rounds; i++)); do
    if ((i % 2)); then a+=("$(one "$other/brisk")"); b+=("$(one "$root/brisk")")
    else b+=("$(one "$root/brisk")"); a+=("$(one "$other/brisk")"); fi
    t0=$EPOCHREALTIME; pv -q </dev/null; p+=("$(echo "$EPOCHREALTIME - $t0" | bc -l)")
done
med() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
echo "other $(med "${a[@]}") s, this $(med "${b[@]}") s, pv $(med "${p[@]}") s (medians of $rounds); load $(cut -d' ' -f1-3 /proc/loadavg)"
