#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compiles brisk's native client (brisk.c, docs/DAEMON.md) with the system C compiler: called by
# cli's Maven build (into cli/target/brisk-client) and by scripts/package-deb.
# Usage: build.sh OUTPUT BUILD_ID [JVM_LAUNCHER]
#   BUILD_ID      brisk-version.properties' `build` (the server refuses a client of another build)
#   JVM_LAUNCHER  the launcher run when $BRISK_JVM is unset (default /usr/lib/brisk/brisk-jvm)
# Environment: CC (default cc), CFLAGS (added after the project's own).
set -eu
[ $# -ge 2 ] || { echo "usage: build.sh OUTPUT BUILD_ID [JVM_LAUNCHER]" >&2; exit 2; }
src=$(dirname "$0")/brisk.c
out=$1 id=$2 jvm=${3:-/usr/lib/brisk/brisk-jvm}
case $id$jvm in *[\"\\]*) echo "build.sh: no quote or backslash in the build id or launcher path" >&2; exit 2 ;; esac
mkdir -p "$(dirname "$out")"
# static (and position-independent, so still randomised): the dynamic loader's mapping and
# relocating of libc cost ~0.5 ms a call on the 2-core test machine (posix_spawn + wait, 2,000
# calls each: 2.51 ms dynamic, 1.90 ms static-pie; /bin/true 2.06 ms); a compiler without a static
# libc links it dynamically (the client works the same, only slower to start)
cc=${CC:-cc}
# Debian's hardening flags (dpkg-buildflags): checked string functions, stack protector, full RELRO
# shellcheck disable=SC2086
"$cc" -std=c11 -O2 -Wall -Wextra -Werror -fPIE -D_FORTIFY_SOURCE=2 -fstack-protector-strong ${CFLAGS:-} \
    "-DBRISK_BUILD_ID=\"$id\"" "-DBRISK_JVM_DEFAULT=\"$jvm\"" -c -o "$out.o" "$src"
if ! "$cc" -static-pie -Wl,-z,relro,-z,now -o "$out.tmp" "$out.o" 2>/dev/null; then
    echo "build.sh: no static libc (libc6-dev's libc.a): linking brisk-client dynamically" >&2
    "$cc" -pie -Wl,-z,relro,-z,now -o "$out.tmp" "$out.o"
fi
rm -f "$out.o"
mv -f "$out.tmp" "$out"
