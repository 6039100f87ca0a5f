# SPDX-License-Identifier: Apache-2.0
# Sourced by ./brisk and ./test: sets BRISK_JAVA_HOME to a JDK >= 25, or says what to install.
# Order: JAVA_HOME, the java on PATH, then /usr/lib/jvm/*. Reads each JDK's `release` file
# instead of starting a JVM, and uses shell builtins only (no subprocess) unless the java on
# PATH is a symbolic link that must be resolved: the launcher runs this on every `brisk` call,
# where each subprocess costs about a millisecond.

# Sets _brisk_v to the feature version of JDK home $1 (e.g. 25), or to nothing when $1 is no JDK.
_brisk_jdk_feature() {
    _brisk_v=
    [ -f "$1/release" ] && [ -x "$1/bin/java" ] || return 0
    local line
    while IFS= read -r line || [ -n "$line" ]; do
        case $line in
            JAVA_VERSION=\"[0-9]*)
                line=${line#JAVA_VERSION=\"}
                _brisk_v=${line%%[!0-9]*}
                return 0 ;;
        esac
    done < "$1/release"
}

brisk_jdk_version() { # $1 = JDK home; prints the feature version (e.g. 25) or nothing
    _brisk_jdk_feature "$1"
    [ -z "$_brisk_v" ] || echo "$_brisk_v"
}

# $1 (optional) = a cache file: the JDK chosen for the same JAVA_HOME and java on PATH last time,
# used while it is still a JDK >= 25 (this skips resolving the java on PATH's symbolic links).
brisk_find_jdk() {
    local cache=${1:-} java_on_path= dir key cand line
    local -a dirs
    IFS=: read -r -a dirs <<< "${PATH:-}"
    for dir in "${dirs[@]}"; do
        if [ -n "$dir" ] && [ -x "$dir/java" ] && [ ! -d "$dir/java" ]; then
            java_on_path=$dir/java
            break
        fi
    done
    key="${JAVA_HOME:-}|$java_on_path"
    if [ -n "$cache" ] && [ -f "$cache" ]; then
        { IFS= read -r line && IFS= read -r cand; } < "$cache" || line=
        if [ "$line" = "$key" ]; then
            _brisk_jdk_feature "$cand"
            if [ -n "$_brisk_v" ] && [ "$_brisk_v" -ge 25 ]; then
                BRISK_JAVA_HOME=$cand
                return 0
            fi
        fi
    fi
    if [ -n "$java_on_path" ]; then
        [ -L "$java_on_path" ] && java_on_path=$(readlink -f "$java_on_path")
        java_on_path=${java_on_path%/*}
        java_on_path=${java_on_path%/*}
    fi
    for cand in ${JAVA_HOME:+"$JAVA_HOME"} ${java_on_path:+"$java_on_path"} /usr/lib/jvm/*; do
        [ -d "$cand" ] || continue
        _brisk_jdk_feature "$cand"
        if [ -n "$_brisk_v" ] && [ "$_brisk_v" -ge 25 ]; then
            BRISK_JAVA_HOME=$cand
            if [ -n "$cache" ]; then
                { printf '%s\n%s\n' "$key" "$cand" > "$cache"; } 2>/dev/null || true
            fi
            return 0
        fi
    done
    echo "brisk: needs a JDK 25 or newer; none found in JAVA_HOME, on PATH or under /usr/lib/jvm." >&2
    echo "brisk: install one (e.g. Temurin 25: apt-get install temurin-25-jdk from Adoptium's repository, or unpack a JDK 25 and set JAVA_HOME)." >&2
    return 1
}
