#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compiles brisk's native client (brisk.c, docs/DAEMON.md) with the system C compiler: called by
# cli's Maven build (into cli/target/brisk-client) and by scripts/package-deb.
# Usage: build.sh OUTPUT BUILD_ID [JVM_LAUNCHER]
#   BUILD_ID      brisk-version.properties' `build` (the server refuses a client of another build)
#   JVM_LAUNCHER  the launcher run when $BRISK_JVM is unset (default /usr/lib/brisk/brisk-jvm)
# Environment: CC (default: musl-gcc when installed, else cc), CFLAGS (added after the project's own).
set -eu
[ $# -ge 2 ] || { echo "usage: build.sh OUTPUT BUILD_ID [JVM_LAUNCHER]" >&2; exit 2; }
src=$(dirname "$0")/brisk.c
out=$1 id=$2 jvm=${3:-/usr/lib/brisk/brisk-jvm}
case $id$jvm in *[\"\\]*) echo "build.sh: no quote or backslash in the build id or launcher path" >&2; exit 2 ;; esac
mkdir -p "$(dirname "$out")"
# Linked statically (and position-independent, so still randomised), against musl when it is
# installed (Debian's musl-tools), else glibc. What a process start costs here is the C library's
# own start: glibc's, static or dynamic, reads the CPU's features and cache sizes with CPUID, which
# a virtual machine traps into its hypervisor; musl reads none. Measured on the 2-core test machine
# (`perf stat -r 300 brisk-client --version` against a warm server): glibc static-pie 1.19-1.21 ms
# and 0.77 ms of CPU, musl static-pie 0.39-0.52 ms and 0.10 ms of CPU. A compiler without a static
# libc links it dynamically (the client works the same, only slower to start).
# Environment: CC set chooses the compiler (and glibc's link); BRISK_CLIENT_LIBC=glibc skips musl.
musl=
if [ -z "${CC:-}" ] && [ "${BRISK_CLIENT_LIBC:-}" != glibc ] && command -v musl-gcc >/dev/null 2>&1; then
    # musl-gcc's specs cannot link static-pie: compile with it, link with gcc against musl's own
    # start files and libc.a (in /usr/lib/<arch>-linux-musl)
    libdir=/usr/lib/$(gcc -dumpmachine 2>/dev/null | sed 's/-gnu$/-musl/')
    [ -f "$libdir/rcrt1.o" ] && [ -f "$libdir/libc.a" ] && musl=$libdir
fi
cc=${CC:-cc}
[ -n "$musl" ] && cc=musl-gcc
# Debian's hardening flags (dpkg-buildflags): checked string functions, stack protector, full RELRO
# shellcheck disable=SC2086
"$cc" -std=c11 -O2 -Wall -Wextra -Werror -fPIE -D_FORTIFY_SOURCE=2 -fstack-protector-strong ${CFLAGS:-} \
    "-DBRISK_BUILD_ID=\"$id\"" "-DBRISK_JVM_DEFAULT=\"$jvm\"" -c -o "$out.o" "$src"
if [ -n "$musl" ]; then
    gcc -static-pie -nostdlib -Wl,-z,relro,-z,now -o "$out.tmp" "$musl/rcrt1.o" "$musl/crti.o" \
        "$(gcc -print-file-name=crtbeginS.o)" "$out.o" "$musl/libc.a" "$(gcc -print-libgcc-file-name)" \
        "$(gcc -print-file-name=crtendS.o)" "$musl/crtn.o"
elif ! "$cc" -static-pie -Wl,-z,relro,-z,now -o "$out.tmp" "$out.o" 2>/dev/null; then
    echo "build.sh: no static libc (libc6-dev's libc.a): linking brisk-client dynamically" >&2
    "$cc" -pie -Wl,-z,relro,-z,now -o "$out.tmp" "$out.o"
fi
rm -f "$out.o"
mv -f "$out.tmp" "$out"
