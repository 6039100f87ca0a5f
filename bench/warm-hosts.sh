#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The first job of `brisk par -S h1,h2,h3` through the warm server (the native client and a server
# of this run's own, in a private XDG_RUNTIME_DIR), over three real loopback sshd hosts: after a
# fresh login (--ssh-persist=0: the server keeps nothing), and on a second run to the same hosts
# while the first run's logins are kept (the default --ssh-persist). Times from the client's start
# to the moment the job ran; and the whole of a short run that needs all three hosts (12 jobs of
# 0.1 s, one slot per host). Prints each round and the medians.
#
#   bench/warm-hosts.sh [ROUNDS]      (default 7)
#
# Needs root (it starts sshd as bench/sshd-hosts.sh does, and stops it at the end) and a built
# cli/target (brisk.jar, brisk-client). Each round ends the kept logins (ssh -O exit), so every
# round's runs start from the same state.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
rounds=${1:-7}
work=${BRISK_BENCH_DIR:-/tmp/brisk-bench-warm-hosts}
mkdir -p "$work"; chmod 755 "$work"
run=$(mktemp -d "$work/run-XXXXXX")
java=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
jar=$root/cli/target/brisk.jar
client=$root/cli/target/brisk-client
printf '#!/bin/sh\nexec %s --enable-native-access=ALL-UNNAMED -XX:-MaxFDLimit -XX:+UseSerialGC -XX:-UsePerfData -jar %s "$@"\n' \
  "$java" "$jar" > "$run/brisk-jvm"
chmod 700 "$run/brisk-jvm"
SSH=$("$root/bench/sshd-hosts.sh" start "$work/sshd" 3)
server=
end_logins() { for s in "$run"/brisk/ssh-*; do [ -S "$s" ] && ssh -o ControlPath="$s" -O exit brisk 2>/dev/null || true; done; }
cleanup() {
  end_logins
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  "$root/bench/sshd-hosts.sh" stop "$work/sshd"
  rm -rf "$run"
}
trap cleanup EXIT
XDG_RUNTIME_DIR=$run BRISK_DAEMON=0 "$run/brisk-jvm" daemon run --idle=0 </dev/null >"$run/daemon.log" 2>&1 &
server=$!
for _ in $(seq 1 400); do [ -e "$run/brisk/daemon.pid" ] && break; sleep 0.05; done
b() { env -u BRISK_SOCKET -u BRISK_DAEMON XDG_RUNTIME_DIR="$run" BRISK_JVM="$run/brisk-jvm" "$client" "$@"; }
for _ in 1 2 3 4 5; do b par -j2 true ::: 1 2 3 >/dev/null; done
# the first job: from the client's start to the moment the job ran
first() {
  local t0 t1
  t0=$(date +%s%N)
  t1=$(b par --ssh "$SSH" -S h1,h2,h3 "$@" 'date +%s%N; true' ::: 1)
  echo $(( (t1 - t0) / 1000000 ))
}
# a short run's wall time: 12 jobs of 0.1 s on one slot per host (all three hosts needed)
wall() {
  local t0 t1
  t0=$(date +%s%N)
  b par --ssh "$SSH" -S 1/h1,1/h2,1/h3 "$@" 'sleep 0.1; echo {}' ::: $(seq 12) >/dev/null
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000000 ))
}
cold=() kept=() second=() wcold=() wsecond=()
for ((r = 1; r <= rounds; r++)); do
  end_logins
  c=$(first --ssh-persist=0)   # a login, nothing kept
  k=$(first)                   # a login, kept for the next run
  s=$(first)                   # the next run: a session over the kept login
  wc=$(wall --ssh-persist=0)    # 12 jobs, logins
  ws=$(wall)                    # 12 jobs, over the kept logins
  cold+=("$c") kept+=("$k") second+=("$s") wcold+=("$wc") wsecond+=("$ws")
  printf 'round %d: login, not kept %4d ms   login, kept %4d ms   second run %4d ms   12 jobs: logins %4d ms, kept %4d ms\n' \
    "$r" "$c" "$k" "$s" "$wc" "$ws" >&2
done
end_logins
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo "brisk par -S h1,h2,h3 through the warm server, first job ran after (ms), $rounds rounds; load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo "  login, nothing kept (--ssh-persist=0): ${cold[*]}; median $(echo "${cold[*]}" | median)"
echo "  login, kept (first run):                ${kept[*]}; median $(echo "${kept[*]}" | median)"
echo "  second run, over the kept login:        ${second[*]}; median $(echo "${second[*]}" | median)"
echo "12 jobs of 0.1 s on 1/h1,1/h2,1/h3, whole run (ms): logins ${wcold[*]}, median $(echo "${wcold[*]}" | median); kept logins ${wsecond[*]}, median $(echo "${wsecond[*]}" | median)"
