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
hyperfine -N -w 3 -r "$runs" \
    -n "brisk (launcher + AOT cache)" "$root/brisk --version" \
    -n "brisk (launcher, no AOT cache)" "env BRISK_NO_AOT=1 $root/brisk --version" \
    -n "java -jar brisk.jar (defaults)" "$java --enable-native-access=ALL-UNNAMED -jar $jar --version" \
    -n "/bin/true" "/bin/true"
