#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Warm shell pool vs a process per command (ProcessBuilder, zt-exec) and the bash-loop
# floor, 1 and 4 callers. Usage: bench/shell.sh [ROUNDS] [COMMANDS_PER_ROUND]
# (BENCH_COMMANDS='true|ls /' BENCH_CALLERS=1 bench/shell.sh picks a subset)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/jdk.sh"
brisk_find_jdk
(cd "$root" && JAVA_HOME=$BRISK_JAVA_HOME MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" \
    mvn -q -B -Dstyle.color=never -DskipTests -pl bench -am package >&2)
cp="$root/bench/target/classes:$(ls "$root"/bench/target/lib/*.jar | tr '\n' ':')"
exec "$BRISK_JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$cp" dev.brisk.bench.ShellBench "$@"
