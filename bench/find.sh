#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Times `brisk find T -type f` against GNU find, bfs and fd (fdfind) on a 200,000-file and a
# 1,000-file tree (hot cache, JVM start-up included, output to /dev/null), interleaved by
# hyperfine in one run, then the in-process library walk (dev.brisk.bench.WalkBench) against
# GNU find; prints ratios of medians to GNU find. Trees are built once under $BRISK_BENCH_DIR
# (default /tmp/brisk-find-bench) with bench/gentree.py, never inside the repository.
#
# usage: bench/find.sh            RUNS=20 WARMUP=5 bench/find.sh
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
. "$root/scripts/jdk.sh"
brisk_find_jdk || exit 1
work=${BRISK_BENCH_DIR:-/tmp/brisk-find-bench}
gentree=${GENTREE:-$root/bench/gentree.py}
runs=${RUNS:-15}
warmup=${WARMUP:-5}
out=$root/bench/results
mkdir -p "$work" "$out"

for spec in t200k:200000 t1k:1000; do
    name=${spec%%:*} n=${spec#*:}
    if [ ! -f "$work/$name.done" ]; then
        rm -rf "${work:?}/$name"
        echo "building $work/$name ($n files)..." >&2
        python3 "$gentree" "$work/$name" "$n" 42 >&2
        touch "$work/$name.done"
    fi
done

echo "building brisk and the benchmarks..." >&2
(cd "$root" && "$root/brisk" --version >/dev/null && "$root/brisk" find "$work/t1k" -maxdepth 0 >/dev/null) # builds, trains both AOT caches
(cd "$root" && JAVA_HOME=$BRISK_JAVA_HOME mvn -q -B -DskipTests -pl bench -am package >&2)
cd "$root"

ratios() { # $1 = hyperfine JSON; prints each command's median and its ratio to GNU find's
    python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
med = {x["command"]: x["median"] for x in r}
base = next(v for k, v in med.items() if k.startswith("find "))
for k, v in med.items():
    print(f"  {v*1000:8.1f} ms  {v/base:5.2f}x GNU find   {k}")
PY
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (the machine has $(nproc) cores)"
for name in t200k t1k; do
    T=$work/$name
    echo "== $name: $(find "$T" -type f | wc -l) files, $runs runs after $warmup warm-ups"
    hyperfine -N --style none --warmup "$warmup" --runs "$runs" --export-json "$out/find-$name.json" \
        "./brisk find $T -type f" "find $T -type f" "bfs $T -type f" "fdfind -u -t f . $T" >/dev/null
    ratios "$out/find-$name.json"
done

T=$work/t200k
echo "== library walk (Walker in one JVM, warm, counting files) vs GNU find on t200k"
hyperfine -N --style none --warmup "$warmup" --runs "$runs" --export-json "$out/find-lib.json" "find $T -type f" >/dev/null
lib=$("$BRISK_JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "bench/target/classes:core/target/classes" \
    dev.brisk.bench.WalkBench "$T" "$runs" "$warmup")
echo "  $lib"
python3 - "$out/find-lib.json" "$lib" <<'PY'
import json, re, sys
base = json.load(open(sys.argv[1]))["results"][0]["median"]
lib = float(re.search(r"median_s=([0-9.]+)", sys.argv[2]).group(1))
print(f"  {lib*1000:8.1f} ms  {lib/base:5.2f}x GNU find ({base*1000:.1f} ms)   Walker.walk, in process")
PY
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
