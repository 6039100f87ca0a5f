#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Unpacks a brisk .deb under DIR without installing it, points its launcher and its AOT training at
# DIR (DIR/brisk runs it, the caches go to DIR/cache), trains the caches as postinst would, and
# prints the sizes: two packages side by side, with no dpkg -i, e.g. the start-up of the package
# of main against a branch's:
#   bench/deb-sandbox.sh OLD.deb /tmp/old; bench/deb-sandbox.sh NEW.deb /tmp/new
#   bench/ab-interleaved.py /tmp/old /tmp/new 21 --version "find EMPTYDIR" "pv -q /dev/null"
# Usage: bench/deb-sandbox.sh DEB DIR   (DIR is emptied first)
set -euo pipefail
[ $# = 2 ] || { echo "usage: bench/deb-sandbox.sh DEB DIR" >&2; exit 2; }
deb=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
dpkg-deb -x "$deb" "$dir"
for f in usr/bin/brisk:brisk usr/lib/brisk/train-aot:train-aot; do
    sed -e "s|^lib=/usr/lib/brisk\$|lib=$dir/usr/lib/brisk|" \
        -e "s|^aotdir=/var/cache/brisk\\b|aotdir=$dir/cache|" "$dir/${f%%:*}" > "$dir/${f#*:}"
    chmod 755 "$dir/${f#*:}"
    # the launcher and the trainer name the two paths on lines of their own
    [ "$(grep -c -E "^(lib=$dir/usr/lib/brisk|aotdir=$dir/cache)" "$dir/${f#*:}")" = 2 ] \
        || { echo "deb-sandbox: $f: no lib= or aotdir= line to point at $dir" >&2; exit 1; }
done
"$dir/train-aot"
echo "runtime and jars: $(du -sk "$dir/usr" | cut -f1) KiB; caches: $(du -sk "$dir/cache" | cut -f1) KiB ($(cd "$dir/cache" && ls | tr '\n' ' '))"
