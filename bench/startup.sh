#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Start-up of the brisk command against the tools it replaces, side by side in one hyperfine run
# per command: the native client to the warm server (the server started and warmed once first),
# the same command run directly (BRISK_DAEMON=0: a JVM per call, as before the server), and the
# peer (GNU find, pv, GNU parallel). Then the first call with no server running against a direct
# run, a pv at the end of a 4 GiB pipeline, and the idle server's CPU and memory.
#
#   bench/startup.sh [RUNS] [BRISK]      RUNS defaults to 20; BRISK to cli/target/brisk-client
#                                          (./brisk, the script, adds its own bash start)
# With BENCH_JSON=DIR, each hyperfine run also writes its results to DIR/NAME.json. Prints a
# table of medians and ratios at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-20}
BRISK_NO_BUILD=${BRISK_NO_BUILD:-} "$root/brisk" --version >/dev/null   # builds on first use
brisk=${2:-$root/cli/target/brisk-client}
export BRISK_JVM=$root/brisk
json=${BENCH_JSON:-$(mktemp -d)}
mkdir -p "$json"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# a 1,000-file tree (10 directories of 100), a 1 MiB file
for d in $(seq 0 9); do mkdir -p "$work/t/d$d"; for f in $(seq 0 99); do : > "$work/t/d$d/f$f"; done; done
head -c 1M /dev/urandom > "$work/1m"

"$brisk" daemon stop >/dev/null 2>&1 || true
"$brisk" daemon start >/dev/null
# the server's JIT at work on these paths first (it compiles in the background for a while)
for _ in $(seq 50); do
    "$brisk" find "$work/t" -type f >/dev/null; "$brisk" pv -q "$work/1m" >/dev/null; "$brisk" par echo ::: a >/dev/null
done

run() {   # NAME, then hyperfine's -n NAME CMD pairs
    local name=$1
    shift
    hyperfine -N -w 5 -r "$runs" --export-json "$json/$name.json" "$@" >&2
}
run version -n "brisk --version" "$brisk --version" -n "brisk --version (direct)" "env BRISK_DAEMON=0 $brisk --version" \
    -n "/bin/true" "/bin/true"
run find -n "brisk find" "$brisk find $work/t -type f" -n "brisk find (direct)" "env BRISK_DAEMON=0 $brisk find $work/t -type f" \
    -n "GNU find" "find $work/t -type f"
run pv -n "brisk pv -q" "$brisk pv -q $work/1m" -n "brisk pv -q (direct)" "env BRISK_DAEMON=0 $brisk pv -q $work/1m" \
    -n "pv -q" "pv -q $work/1m"
run par -n "brisk par" "$brisk par echo ::: a" -n "brisk par (direct)" "env BRISK_DAEMON=0 $brisk par echo ::: a" \
    -n "GNU parallel" "parallel --will-cite echo ::: a"
# the first call with no server: it runs directly and starts one after it ends (stopped again
# before each run); against the direct run
# (the server a first call starts is let come up, then stopped, before each run: its start must not
# overlap the next run)
stop="sleep 2; $brisk daemon stop >/dev/null; true"
hyperfine -w 1 -r 10 --export-json "$json/first.json" \
    --prepare "$stop" -n "brisk find, no server yet" "$brisk find $work/t -type f" \
    --prepare "$stop" -n "brisk find (direct)" "env BRISK_DAEMON=0 $brisk find $work/t -type f" >&2
"$brisk" daemon start >/dev/null
"$brisk" pv -q "$work/1m" >/dev/null
hyperfine -w 1 -r 5 --export-json "$json/pv4g.json" \
    -n "brisk pv, end of a 4 GiB pipeline" "head -c 4G /dev/zero | $brisk pv -q >/dev/null" \
    -n "pv, end of a 4 GiB pipeline" "head -c 4G /dev/zero | pv -q >/dev/null" >&2

# the idle server: CPU over 10 s and resident memory
sockdir=/tmp/brisk-$(id -u)
case ${XDG_RUNTIME_DIR:-} in /*) sockdir=$XDG_RUNTIME_DIR/brisk ;; esac
pid=$(cat "$sockdir/daemon.pid" 2>/dev/null || true)
idle=""
if [ -n "$pid" ]; then
    sleep 5
    t0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    sleep 10
    t1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    hz=$(getconf CLK_TCK)
    rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
    idle="idle server: $(echo "scale=3; ($t1 - $t0) * 100 / $hz / 10" | bc)% of a core over 10 s, ${rss} KiB resident"
fi

python3 - "$json" "$idle" <<'EOF'
import json, os, statistics, sys
d, idle = sys.argv[1], sys.argv[2]
def medians(name):
    with open(os.path.join(d, name + ".json")) as f:
        return [(r["command"], statistics.median(r["times"])) for r in json.load(f)["results"]]
print("| command | median | ratio to the last row of its group |")
print("|---|---|---|")
for name in ["version", "find", "pv", "par", "first", "pv4g"]:
    rows = medians(name)
    base = rows[-1][1]
    for cmd, m in rows:
        print(f"| {cmd} | {m * 1000:.2f} ms | {m / base:.3f} |")
if idle:
    print(idle)
EOF
