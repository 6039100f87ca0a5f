# Sourced by ./brisk and ./test: sets BRISK_JAVA_HOME to a JDK >= 25, or says what to install.
# Order: JAVA_HOME, the java on PATH, then /usr/lib/jvm/*. Reads each JDK's `release` file
# instead of starting a JVM, so the check costs no process.
brisk_jdk_version() { # $1 = JDK home; prints the feature version (e.g. 25) or nothing
    [ -f "$1/release" ] && [ -x "$1/bin/java" ] || return 0
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" | head -n 1
}
brisk_find_jdk() {
    local cand v java_on_path
    java_on_path=$(command -v java 2>/dev/null || true)
    for cand in ${JAVA_HOME:+"$JAVA_HOME"} \
                ${java_on_path:+"$(dirname "$(dirname "$(readlink -f "$java_on_path")")")"} \
                /usr/lib/jvm/*; do
        [ -d "$cand" ] || continue
        v=$(brisk_jdk_version "$cand")
        if [ -n "$v" ] && [ "$v" -ge 25 ]; then
            BRISK_JAVA_HOME=$cand
            return 0
        fi
    done
    echo "brisk: needs a JDK 25 or newer; none found in JAVA_HOME, on PATH or under /usr/lib/jvm." >&2
    echo "brisk: install one (e.g. Temurin 25: apt-get install temurin-25-jdk from Adoptium's repository, or unpack a JDK 25 and set JAVA_HOME)." >&2
    return 1
}
