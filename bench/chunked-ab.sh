#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# A long run A/B'd in parts: the NUL-separated list LIST0 cut into 4 chunks, each run with
# `brisk par -0 CMD` by both trees (git worktrees, built) in ABBA order, so that a load that
# comes and goes meets both alike; prints each run's wall time and the sums.
#   bench/chunked-ab.sh BASE_TREE NEW_TREE /tmp/ab1m.list0 "md5sum {}"
# (the list: bench/gentree.py /tmp/ab1m 1000000 42; find /tmp/ab1m -type f -print0 >/tmp/ab1m.list0)
base=${1:?base tree} new=${2:?new tree} list=${3:?list} cmd=${4:-md5sum {\}}
dir=$(mktemp -d)
split -t '\0' -n l/4 -d "$list" "$dir/part"
run() { # tree chunk
  local n; n=$(basename "$1")
  mkdir -p -m 700 "/tmp/brisk-ab-$n/run" "/tmp/brisk-ab-$n/state"
  local s e; s=$(date +%s.%N)
  XDG_RUNTIME_DIR=/tmp/brisk-ab-$n/run XDG_STATE_HOME=/tmp/brisk-ab-$n/state BRISK_NO_BUILD=1 \
      "$1/brisk" par -0 $cmd <"$2" >/dev/null 2>&1
  e=$(date +%s.%N)
  echo "$n $(basename "$2") $(echo "$e - $s" | bc) load $(cut -d' ' -f1 /proc/loadavg)"
}
{
  run "$base" "$dir/part00"; run "$new" "$dir/part00"
  run "$new" "$dir/part01"; run "$base" "$dir/part01"
  run "$base" "$dir/part02"; run "$new" "$dir/part02"
  run "$new" "$dir/part03"; run "$base" "$dir/part03"
} | tee "$dir/log"
awk '{s[$1]+=$3} END {for (k in s) print k, "total", s[k]}' "$dir/log"
rm -rf "$dir"
