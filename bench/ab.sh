#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A/B of two checkouts of brisk (say main and a branch, each a git worktree) in one sitting:
# the same command through each tree's launcher, side by side in one hyperfine run (start-up,
# find on 200,000 files beside GNU find, par's direct, batch, pipeline and warm-shell paths, pv
# beside pv), then each tree's pool benchmark (bench/shell.sh 3 200). Trees are built under
# $BRISK_BENCH_DIR (default /tmp/brisk-ab-bench) with bench/gentree.py.
#   bench/ab.sh BASE_TREE NEW_TREE OUTPUT_FILE
set -uo pipefail
base=$1 new=$2 out=$3
empty=$(mktemp -d)
work=${BRISK_BENCH_DIR:-/tmp/brisk-ab-bench}
t200k=$work/t200k t1k=$work/t1k list=$work/list0
for spec in t200k:200000 t1k:1000 tree-2000:2000; do
    [ -d "$work/${spec%%:*}" ] || python3 "$new/bench/gentree.py" "$work/${spec%%:*}" "${spec#*:}" 42 >/dev/null
done
[ -f "$list" ] || find "$work/tree-2000" -type f -print0 > "$list"
{
echo "### A/B $(date -u) base=$(git -C "$base" rev-parse --short HEAD) new=$(git -C "$new" rev-parse --short HEAD) load: $(cut -d' ' -f1-3 /proc/loadavg)"
for t in "$base" "$new"; do "$t/brisk" --version >/dev/null; "$t/brisk" find "$t1k" -maxdepth 0 >/dev/null; "$t/brisk" par true ::: 1 >/dev/null; "$t/brisk" pv -q </dev/null; done
for cmd in "--version" "find $empty" "pv -q /dev/null" "par true ::: 1" "find $t1k -type f" "run true"; do
    echo "## start-up / small: brisk $cmd"
    hyperfine -N --style basic -w 3 -r 20 -n base "$base/brisk $cmd" -n new "$new/brisk $cmd" 2>&1 | grep -E "Time|±|faster|base|new" | grep -v "^$"
done
echo "## find t200k -type f (GNU find as the yardstick)"
hyperfine -N --style basic -w 2 -r 10 -n base "$base/brisk find $t200k -type f" -n new "$new/brisk find $t200k -type f" -n gnu "find $t200k -type f" 2>&1 | grep -E "Time|faster|base|new|gnu"
echo "## par -0 md5sum over 2000 files (direct spawns), -X md5sum, echo x 5000 (warm dash), md5sum|cut pipeline"
head -z -n 2000 "$list" > $work/list2000
for c in "par -0 md5sum" "par -0 -X md5sum" "par -0 md5sum {} | cut -c1-32"; do
  hyperfine --style basic -w 1 -r 5 -n base "$base/brisk $c < $work/list2000" -n new "$new/brisk $c < $work/list2000" 2>&1 | grep -E "Time|faster|base|new"
done
seq 5000 > $work/seq5000
hyperfine --style basic -w 1 -r 5 -n base "$base/brisk par echo {} < $work/seq5000" -n new "$new/brisk par echo {} < $work/seq5000" 2>&1 | grep -E "Time|faster|base|new"
echo "## pv: head -c 2G /dev/zero | brisk pv -q | cat"
hyperfine --style basic -w 1 -r 5 -n base "head -c 2G /dev/zero | $base/brisk pv -q | cat >/dev/null" -n new "head -c 2G /dev/zero | $new/brisk pv -q | cat >/dev/null" -n pv "head -c 2G /dev/zero | pv -q | cat >/dev/null" 2>&1 | grep -E "Time|faster|base|new|pv"
for t in "$base" "$new"; do
  echo "## $t: bench/shell.sh 3 200"; (cd "$t" && bench/shell.sh 3 200 2>&1 | tail -25)
done
echo "### end $(date -u) load: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out" 2>&1
rmdir "$empty"
