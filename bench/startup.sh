#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Start-up cost of the brisk command: the launcher with its AOT cache, without it, and a bare
# `java -jar`, against a trivial process (/bin/true) for scale. Usage: bench/startup.sh [RUNS]
# With a second argument, another brisk (e.g. /usr/bin/brisk from the Debian package) is timed
# against ./brisk instead, command by command in the same hyperfine run:
#   bench/startup.sh 30 /usr/bin/brisk
# With BENCH_JSON=DIR, each hyperfine run also writes its results (medians included) to DIR/N.json.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/jdk.sh"
brisk_find_jdk
runs=${1:-20}
"$root/brisk" --version >/dev/null   # builds and trains the AOT cache if needed
java=$BRISK_JAVA_HOME/bin/java
jar=$root/cli/target/brisk.jar
empty=$(mktemp -d)
trap 'rmdir "$empty"' EXIT
if [ -n "${2:-}" ]; then
    other=$2
    "$other" --version >/dev/null
    n=0
    for cmd in "--version" "find $empty" "pv -q /dev/null" "par -j1 true ::: 1" "run true"; do
        n=$((n + 1))
        hyperfine -N -w 3 -r "$runs" ${BENCH_JSON:+--export-json "$BENCH_JSON/$n.json"} \
            -n "./brisk $cmd" "$root/brisk $cmd" -n "$other $cmd" "$other $cmd"
    done
    exit 0
fi
for cmd in "--version" "find $empty" "pv -q /dev/null"; do
    hyperfine -N -w 3 -r "$runs" \
        -n "brisk $cmd (launcher + AOT cache)" "$root/brisk $cmd" \
        -n "brisk $cmd (launcher, no AOT cache)" "env BRISK_NO_AOT=1 $root/brisk $cmd" \
        -n "java -jar brisk.jar $cmd (JVM defaults)" "$java --enable-native-access=ALL-UNNAMED -jar $jar $cmd"
done
hyperfine -N -w 3 -r "$runs" "find $empty" "pv -q /dev/null"
