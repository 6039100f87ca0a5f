#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A differential corpus from GNU parallel's own local test scripts: runs each test case once under
# GNU parallel and once with `parallel` resolving to `brisk par`, and compares stdout+stderr and
# status. The scripts are not in this repository (third-party reference data): place them under
# $PEER_SUITES/parallel/tests-to-run (default /work/peer-suites/parallel) as docs/PAR.md ("GNU
# parallel's test scripts as a corpus") describes, or name another directory with -d.
#
#   bench/parallel-suite.sh [-d DIR] [-v] [-n] [BRISK] [REGEX]
#
#   BRISK   the brisk launcher (default: ./brisk of this checkout); REGEX selects cases by name.
#   -v      show each failing case's first differing lines; -n ignore the GNU cache.
#
# GNU's scripts define one bash function per case (par_NAME) and end with a line that runs them
# all through parallel (`export -f $(compgen -A function | grep par_)` ...). This harness keeps
# what comes before that line (the functions and their helpers), and runs each function as GNU's
# runner does, `par_NAME 2>&1`, under bash, stdin /dev/null, in a fresh working directory and a
# fresh HOME (with ~/.parallel), one case at a time, each run under a timeout (CASE_TIMEOUT, 90 s).
# `stdout CMD` (a helper of GNU's test machine) runs CMD with stderr into stdout.
#
# A case counts when GNU parallel runs it deterministically here: it is run twice under GNU
# parallel and both outputs (after the normalisation below) and statuses must agree. GNU's two
# runs are cached under DIR/gnu-cache, keyed by the case's text (-n runs them again).
# Normalised, in every output alike (what GNU itself varies from run to run): the names of
# temporary files (mktemp's /tmp/tmp.XXXXXXXXXX, tempfile's /tmp/fileXXXXXX, GNU parallel's own
# parXXXXX.par/.tms/.tmx/.arg/.err/.out, mkfifo'd tmpfifo names), the working directory's path
# and the harness's own temporary directory (both also with their digits turned into 0, as cases
# that print them with s/\d+/0/g do; bash names the harness's copy of a script there).
# Times and PIDs are left as they are: a case that prints them differs between GNU's own two runs
# and is counted as not deterministic. A case matches when brisk's output and status are GNU's,
# byte for byte or once the documented prefix of messages is mapped (GNU's "parallel:" and
# "parallel: Error:" at the start of a line or after `uniq -c`'s count, brisk's "brisk par:" and
# "brisk:"); both counts are
# printed.
# The examples of GNU parallel's tutorial are cases too, once bench/parallel-docs.py has written
# them there as DIR/tests-to-run/parallel-docs-tutorial.sh (REGEX 'tutorial' selects them): a case
# whose body starts with `: unordered` (an example without -k) is compared with its lines sorted.
# Skipped (printed with the reason): cases that need a remote host or ssh (-S/--sshlogin other
# than ':'), sudo (they mount disks or move system files), a database, a program not installed
# here, GNU parallel installed at /usr/local/bin, or parcat (another program).
set -uo pipefail
umask 022
export LC_ALL=C.UTF-8 TZ=UTC0 SHELL=/bin/bash
unset PARALLEL PARALLEL_HOME PARALLEL_SHELL

die() { printf 'parallel-suite: %s\n' "$*" >&2; exit 2; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
suite=${PEER_SUITES:-/work/peer-suites}/parallel
verbose= nocache=
while (($#)); do
    case $1 in
        -d) suite=$2; shift 2 ;;
        -v) verbose=1; shift ;;
        -n) nocache=1; shift ;;
        -h|--help) sed -n '2,36p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) break ;;
    esac
done
brisk=${1:-$here/brisk}
select=${2:-.}
[ -x "$brisk" ] || die "no brisk at $brisk"
brisk=$(realpath -- "$brisk")
gnu=${GNU_PARALLEL:-/usr/bin/parallel}
[ -x "$gnu" ] || die "no GNU parallel at $gnu"
[ -d "$suite/tests-to-run" ] || die "no suite at $suite/tests-to-run (docs/PAR.md says how to place it)"
timeout_s=${CASE_TIMEOUT:-90}
gnu_version=$("$gnu" --version 2>/dev/null | head -1)

tmp=$(mktemp -d /tmp/parallel-suite.XXXXXXXX)
trap 'chmod -R u+rwX "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
cache=$suite/gnu-cache
mkdir -p "$cache" "$tmp/shim-gnu" "$tmp/shim-brisk"
printf '#!/bin/sh\nexec %q "$@"\n' "$gnu" >"$tmp/shim-gnu/parallel"
printf '#!/bin/sh\nexec %q --semaphore "$@"\n' "$gnu" >"$tmp/shim-gnu/sem"
printf '#!/bin/sh\nexec %q par "$@"\n' "$brisk" >"$tmp/shim-brisk/parallel"
printf '#!/bin/sh\nexec %q par --semaphore "$@"\n' "$brisk" >"$tmp/shim-brisk/sem"
chmod +x "$tmp"/shim-*/*

# normalise FILE: what GNU parallel varies between two runs of the same case
normalise() {
    perl -pi -e '
        s{/tmp/tmp\.[A-Za-z0-9]{10}}{/tmp/tmp.XXXXXXXXXX}g;
        s{/tmp/file[A-Za-z0-9]{6}}{/tmp/fileXXXXXX}g;
        s{\bpar[A-Za-z0-9_]{5}\.(par|tms|tmx|arg|err|out|esc|fifo)\b}{parXXXXX.$1}g;
        s{\btmpfifo[A-Za-z0-9_]+}{tmpfifoXXXXX}g;
        s{\Q$ENV{SUITE_WORK}\E}{WORKDIR}g;
        s{\Q$ENV{SUITE_TMP}\E}{SUITETMP}g;
        # a case that turns digits into 0 (s/\d+/0/g) turns these paths so too
        BEGIN { ($w0 = $ENV{SUITE_WORK}) =~ s/\d+/0/g; ($t0 = $ENV{SUITE_TMP}) =~ s/\d+/0/g; }
        s{\Q$w0\E}{WORKDIR}g;
        s{\Q$t0\E}{SUITETMP}g;
        # the directory of an earlier run, in the cached runs of GNU parallel
        s{/tmp/parallel-suite\.[A-Za-z0-9]{8}}{SUITETMP}g;
    ' "$1"
}

# run_case MODE PRELUDE CASE OUT: one run of one case, status into OUT.status
run_case() {
    local mode=$1 prelude=$2 name=$3 out=$4 st
    rm -rf "$tmp/work" "$tmp/home"
    mkdir -p "$tmp/work" "$tmp/home/.parallel"
    local pid
    # a session of its own (setsid: its pid is the process group's id), so that what the case
    # leaves running in the background is ended by that id afterwards
    (cd "$tmp/work" && HOME=$tmp/home PATH=$tmp/shim-$mode:$PATH exec setsid nice -n 15 \
        timeout -k 5 "$timeout_s" bash -c 'stdout() { "$@" 2>&1; }; export -f stdout
            source "$1" >/dev/null 2>&1; export -f $(compgen -A function); '"$name"' 2>&1' \
            case "$prelude") </dev/null >"$out" 2>&1 &
    pid=$!
    wait "$pid"
    st=$?
    kill -KILL -- "-$pid" 2>/dev/null
    echo "$st" >"$out.status"
    SUITE_WORK=$tmp/work SUITE_TMP=$tmp normalise "$out"
    # a case from the documentation whose order may differ (bench/parallel-docs.py): its lines sorted
    if [ -n "${unordered:-}" ]; then
        LC_ALL=C sort -o "$out" "$out"
    fi
    return 0
}

# skip_reason BODY: why a case is not run here (empty: it runs)
skip_reason() {
    local body=$1 tool
    if grep -Eq '(^|[^A-Za-z0-9_-])-S *([^: ]*@|lo|localhost|\$|[a-z])|--sshlogin|--slf|\bssh\b|sshd|@lo\b' <<<"$body"; then
        echo "needs a remote host (ssh)"; return
    fi
    grep -Eq '\bsudo\b' <<<"$body" && { echo "needs sudo"; return; }
    grep -Eq -- '--sql|sqlite3:|mysql|csv:///' <<<"$body" && { echo "needs a database (--sql*)"; return; }
    grep -Eq '/usr/local/bin/parallel' <<<"$body" && { echo "needs GNU parallel at /usr/local/bin"; return; }
    grep -Eq '\bparcat\b' <<<"$body" && { echo "tests parcat (another program)"; return; }
    for tool in expect mmencode pxz pixz gnuplot octave Rscript ruby ksh yash tcsh csh posh sash \
        fdsh fizsh static-sh mksh ksh93 ash; do
        if grep -Eq "(^|[^A-Za-z0-9_./-])$tool([^A-Za-z0-9_-]|$)" <<<"$body" && ! command -v "$tool" >/dev/null; then
            echo "needs $tool (not installed)"; return
        fi
    done
}

cases=0 deterministic=0 matched=0 exact=0 skipped=0 nondet=0
declare -A reasons=()
failures=()
for script in "$suite"/tests-to-run/parallel-local-*.sh "$suite"/tests-to-run/parallel-docs-*.sh; do
    [ -e "$script" ] || continue
    base=$(basename "$script" .sh)
    prelude=$tmp/$base.prelude
    sed '/^export -f \$(compgen -A function/,$d' "$script" >"$prelude"
    mapfile -t names < <(cd "$tmp" && bash -c 'source "$1" >/dev/null 2>&1; compgen -A function | grep "^par_" | LC_ALL=C sort' x "$prelude")
    for name in "${names[@]}"; do
        [[ $name =~ $select ]] || continue
        ((++cases))
        body=$(cd "$tmp" && bash -c 'source "$1" >/dev/null 2>&1; declare -f "$2"' x "$prelude" "$name")
        unordered=
        grep -q '^ *: unordered;\?$' <<<"$body" && unordered=1
        why=$(skip_reason "$body")
        if [ -n "$why" ]; then
            ((++skipped)); printf '[skip] %s/%s: %s\n' "$base" "$name" "$why"; continue
        fi
        key=$(printf '%s\n%s\n%s' "$gnu_version" "$(sed '/^par_/,$d' "$prelude")" "$body" | sha1sum | cut -c1-16)
        g=$cache/$name.$key
        if [ -n "$nocache" ] || [ ! -e "$g.2.status" ]; then
            run_case gnu "$prelude" "$name" "$g.1"
            run_case gnu "$prelude" "$name" "$g.2"
        fi
        SUITE_WORK=$tmp/work SUITE_TMP=$tmp normalise "$g.1"; SUITE_WORK=$tmp/work SUITE_TMP=$tmp normalise "$g.2" # cached before a rule came
        if ! cmp -s "$g.1" "$g.2" || ! cmp -s "$g.1.status" "$g.2.status"; then
            ((++nondet)); printf '[nondeterministic under GNU] %s/%s\n' "$base" "$name"; continue
        fi
        if [[ $(cat "$g.1.status") == @(124|137) ]]; then
            ((++nondet)); printf '[GNU times out or is killed] %s/%s\n' "$base" "$name"; continue
        fi
        ((++deterministic))
        b=$tmp/brisk.out
        run_case brisk "$prelude" "$name" "$b"
        if cmp -s "$g.1" "$b" && cmp -s "$g.1.status" "$b.status"; then
            ((++matched)); ((++exact)); continue
        fi
        # the documented difference of every message: brisk names itself where GNU's say
        # "parallel:" (and "parallel: Error:" before an error): docs/PAR.md, "Differences"
        # (also after the count `uniq -c` puts before a line)
        perl -pe 's/^( *\d+ )?parallel: (Error: )?/$1PREFIX: /' "$g.1" >"$tmp/gnu.prefix"
        perl -pe 's/^( *\d+ )?brisk( par)?: /$1PREFIX: /' "$b" >"$tmp/brisk.prefix"
        if cmp -s "$tmp/gnu.prefix" "$tmp/brisk.prefix" && cmp -s "$g.1.status" "$b.status"; then
            ((++matched)); continue
        fi
        if [[ $(cat "$b.status") == @(124|137) ]]; then
            class="timeout"
        elif opt=$(grep -m1 -o "Unknown option: '[^']*'" "$b") && ! grep -q 'Unknown option' "$g.1"; then
            class="Unknown option ${opt#Unknown option: }"
        elif cmp -s "$g.1" "$b"; then
            class="status differs ($(cat "$g.1.status") vs $(cat "$b.status"))"
        else
            class="output differs"
        fi
        detail=$(diff "$g.1" "$b" | grep -m1 '^>' | cut -c3-100)
        reasons[$class]=$((${reasons[$class]:-0} + 1))
        failures+=("$base/$name: $class${detail:+ | brisk: $detail}")
        printf '[differs] %s/%s: %s\n' "$base" "$name" "$class"
        if [ -n "$verbose" ]; then
            diff "$g.1" "$b" | head -12 | sed 's/^/    /'
            echo "    status: GNU $(cat "$g.1.status"), brisk $(cat "$b.status")"
        fi
    done
done

echo
echo "GNU parallel: $gnu_version; brisk: $brisk"
printf 'cases: %d, skipped: %d, not deterministic under GNU: %d, deterministic: %d, brisk matches: %d' \
    "$cases" "$skipped" "$nondet" "$deterministic" "$matched"
printf ' (%d byte for byte, %d once the messages'"'"' prefix is read as GNU'"'"'s)\n' "$exact" "$((matched - exact))"
if ((${#failures[@]})); then
    echo "differing cases:"
    printf '  %s\n' "${failures[@]}"
    echo "by reason:"
    for class in "${!reasons[@]}"; do printf '  %3d  %s\n' "${reasons[$class]}" "$class"; done | sort -rn
fi
