#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# brisk serve from Python, SBCL and Java, side by side in one run, against each language's usual way
# (subprocess.run(shell=True), uiop:run-program) and one persistent bash fed lines.
# Usage: bench/serve.sh [ROUNDS] [CALLS_PER_ROUND]   (default 3 x 1000; ls runs in /usr)
# Also prints the server's resident memory with 100 clients connected.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3} n=${2:-1000}
# bench/ compiled for the Java client (as bench/scale.sh does), before the server starts
. "$root/scripts/jdk.sh"
brisk_find_jdk || exit 1
(cd "$root" && JAVA_HOME=$BRISK_JAVA_HOME MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" \
    mvn -q -B -Dstyle.color=never -DskipTests -pl bench -am package >&2)
dir=$(mktemp -d) && chmod 700 "$dir"
export BRISK_SOCKET=$dir/serve.sock
pid=$("$root/brisk" serve --detach --socket "$BRISK_SOCKET" -j 2)
trap 'kill "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
echo "load before: $(uptime)"
python3 "$root/bench/serve_bench.py" "$rounds" "$n" /usr
sbcl --script "$root/bench/serve_bench.lisp" "$rounds" "$n" /usr
# the Java client, BriskClient
"$BRISK_JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$root/bench/target/classes:$root/core/target/classes" \
    dev.brisk.bench.ServeClientBench "$BRISK_SOCKET" "$rounds" "$n"
ROOT=$root python3 -c '
import os, sys
sys.path.insert(0, os.path.join(os.environ["ROOT"], "clients", "python"))
from brisk_client import Client
cs = [Client() for _ in range(100)]
for c in cs: c.run("true")
rss = [l for l in open("/proc/%s/status" % sys.argv[1]) if l.startswith("VmRSS")][0].split()[1]
print("server RSS with 100 clients connected: %.1f MB" % (int(rss) / 1024))
' "$pid"
echo "load after: $(uptime)"
