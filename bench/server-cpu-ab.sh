#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The warm server's own CPU per run of a command, two built trees (git worktrees) alternating:
#   bench/server-cpu-ab.sh BASE_TREE NEW_TREE ROUNDS "par echo {} :::: /tmp/seq1m"
# Each tree runs on its own server (XDG dirs under /tmp/brisk-ab-NAME, as bench/ab-interleaved.py's);
# prints wall time and the server's user/system ticks (its Java, from /proc/PID/stat) and those of
# the children it reaped during the run (the job shells), so a change in brisk's own per-job cost
# shows apart from the jobs'.
base=${1:?base tree} new=${2:?new tree} rounds=${3:-3} cmd=${4:?command}
for r in $(seq "$rounds"); do
  for t in "$base" "$new"; do
    n=$(basename "$t")
    export XDG_RUNTIME_DIR=/tmp/brisk-ab-$n/run XDG_STATE_HOME=/tmp/brisk-ab-$n/state BRISK_NO_BUILD=1
    mkdir -p -m 700 "$XDG_RUNTIME_DIR" "$XDG_STATE_HOME"
    "$t/brisk" par true ::: 1 >/dev/null
    pid=$(pgrep -f "$t/cli/target/brisk.jar daemon" | head -1)
    read -r a b c d < <(awk '{print $14, $15, $16, $17}' "/proc/$pid/stat")
    s=$(date +%s.%N)
    eval "\"$t/brisk\" $cmd" >/dev/null
    e=$(date +%s.%N)
    read -r a2 b2 c2 d2 < <(awk '{print $14, $15, $16, $17}' "/proc/$pid/stat")
    echo "$n wall $(echo "$e - $s" | bc | cut -c1-6) s; server user $((a2-a)) sys $((b2-b)); children user $((c2-c)) sys $((d2-d)) (ticks)"
  done
done
