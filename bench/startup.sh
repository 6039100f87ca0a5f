#!/usr/bin/env bash
# Start-up cost of the brisk command: the launcher with its AOT cache, without it, and a bare
# `java -jar`, against a trivial process (/bin/true) for scale. Usage: bench/startup.sh [RUNS]
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
for cmd in "--version" "find $empty" "pv -q /dev/null"; do
    hyperfine -N -w 3 -r "$runs" \
        -n "brisk $cmd (launcher + AOT cache)" "$root/brisk $cmd" \
        -n "brisk $cmd (launcher, no AOT cache)" "env BRISK_NO_AOT=1 $root/brisk $cmd" \
        -n "java -jar brisk.jar $cmd (JVM defaults)" "$java --enable-native-access=ALL-UNNAMED -jar $jar $cmd"
done
hyperfine -N -w 3 -r "$runs" "find $empty" "pv -q /dev/null"
