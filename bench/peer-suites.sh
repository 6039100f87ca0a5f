#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the peers' own test cases (bfs's find tests, pv's tests) against any find or pv and prints
# pass/fail counts per group. The test cases themselves are not in this repository: place them
# under $PEER_SUITES (default /work/peer-suites) as docs/FIND.md and docs/PV.md ("Peer test
# suites") describe. This script is brisk's own harness: it provides the functions bfs's test
# scripts call (bfs_diff, invoke_bfs, skip, fail, ...) and builds the standard trees they walk.
#
#   bench/peer-suites.sh bfs FIND [GROUP...]   run bfs's groups (default: posix) against FIND
#   bench/peer-suites.sh bfs-gold FIND PEER [GROUP...]
#                                              write the expected output of each case (default
#                                              group: posix) whose .out the stored suite lacks,
#                                              where FIND and PEER agree and one passes it
#   bench/peer-suites.sh pv PV                 run pv's tests against PV
#
# FIND and PV are commands (a path, or a wrapper script such as one that runs `brisk find "$@"`).
# As root, the bfs run drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH first (with capsh), as bfs's
# own harness does, so that permissions are enforced, and runs in a private mount namespace
# (unshare -m) where the cases that mount file systems run as under bfs's --sudo. Environment: PEER_SUITES, VERBOSE=1 (show
# each failing case's stderr and diff).
set -uo pipefail
umask 022
export LC_ALL=C TZ=UTC0 LS_COLORS=
unset BFS_COLORS
PEER_SUITES=${PEER_SUITES:-/work/peer-suites}
EX_BFS=10 EX_DIFF=20 EX_SKIP=77 EX_NOGOLD=78

die() { printf 'peer-suites: %s\n' "$*" >&2; exit 2; }
resolve() { local p; p=$(command -v -- "$1") || die "no such command: $1"; realpath -- "$p"; }

# --- standard trees (the layouts bfs's expected outputs name) -------------------------------

# xtouch [-p] [-h] [-a|-m] [-M MODE] [-t TIME] PATH...: creates files (a trailing / makes a
# directory), like bfs's test helper; TIME is "YYYY-MM-DD HH:MM" (UTC) or "@EPOCH".
write_xtouch() {
    cat >"$1" <<'EOF'
#!/usr/bin/env python3
import datetime, os, sys
args = sys.argv[1:]; parents = nofollow = False; mode = None; when = None; which = "am"
while args and args[0].startswith("-") and len(args[0]) > 1:
    flags = args.pop(0)[1:]
    for i, c in enumerate(flags):
        if c == "p": parents = True
        elif c == "h": nofollow = True
        elif c in "am": which = c
        elif c in "Mt":
            value = flags[i + 1:] or args.pop(0)
            if c == "M": mode = int(value, 8)
            else: when = value
            break
if when is not None:
    if when.startswith("@"): when = float(when[1:])
    else: when = datetime.datetime.strptime(when, "%Y-%m-%d %H:%M").replace(tzinfo=datetime.timezone.utc).timestamp()
for path in args:
    isdir = path.endswith("/"); path = path.rstrip("/") or "/"
    if parents and os.path.dirname(path): os.makedirs(os.path.dirname(path), exist_ok=True)
    if isdir:
        os.makedirs(path, exist_ok=True)
    elif not os.path.lexists(path):
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o666))
    if mode is not None: os.chmod(path, mode)
    if when is not None:
        st = os.stat(path, follow_symlinks=not nofollow)
        times = (when if "a" in which else st.st_atime, when if "m" in which else st.st_mtime)
        os.utime(path, times, follow_symlinks=not nofollow)
EOF
    chmod +x "$1"
}

make_trees() {
    local x=$XTOUCH t=$1
    "$x" -p "$t"/basic/{a,b,c/d,e/f,g/h/,i/} "$t"/basic/{j/foo,k/foo/bar,l/foo/bar/baz}
    echo baz >"$t/basic/l/foo/bar/baz"
    mkdir -p "$t/perms"
    local name mode
    for name in dr-x------ dr-xr-xr-x drwx------ drwxr-xr-x drwxrwxr-x drwxrwxrwx f--------- \
        f--x------ f--x--x--x f-w------- f-w--w---- f-w--w--w- f-wx------ f-wx--x--x f-wx-wx--x \
        f-wx-wx-wx fr-------- fr--r--r-- fr-x------ fr-xr-xr-x frw------- frw-r--r-- frw-rw-r-- \
        frw-rw-rw- frwx------ frwxr-xr-x frwxrwxr-x frwxrwxrwx; do
        mode=$(python3 -c 'import sys; s=sys.argv[1][1:]; print(oct(sum(1<<(8-i) for i,c in enumerate(s) if c!="-"))[2:])' "$name")
        if [[ $name == d* ]]; then "$x" -M "$mode" "$t/perms/$name/"; else "$x" -M "$mode" "$t/perms/$name"; fi
    done
    local l=$t/links
    "$x" -p "$l/file"; ln -s file "$l/symlink"; ln "$l/file" "$l/hardlink"; ln -s nowhere "$l/broken"
    ln -s symlink/file "$l/notdir"; "$x" -p "$l/deeply/nested"/{dir/,file}
    ln -s file "$l/deeply/nested/link"; ln -s nowhere "$l/deeply/nested/broken"; ln -s deeply/nested "$l/skip"
    l=$t/loops
    "$x" -p "$l/file"; ln -s file "$l/symlink"; ln -s nowhere "$l/broken"; ln -s symlink/file "$l/notdir"
    ln -s loop "$l/loop"; mkdir -p "$l/deeply/nested/dir"; ln -s ../../deeply "$l/deeply/nested/loop"
    ln -s deeply/nested/loop/nested "$l/skip"
    l=$t/times
    "$x" -p -t "1991-12-14 00:00" "$l/a"; "$x" -p -t "1991-12-14 00:01" "$l/b"
    "$x" -p -t "1991-12-14 00:02" "$l/c"; ln -s a "$l/l"; "$x" -p -h -t "1991-12-14 00:03" "$l/l"
    "$x" -p -t "1991-12-14 00:04" "$l"
    l=$t/weirdnames
    "$x" -p "$l/-/a" "$l/(/b" "$l/(-/c" "$l/!/d" "$l/!-/e" "$l/,/f" "$l/)/g" "$l/.../h" "$l/\\/i" \
        "$l/ /j" "$l/[/k" "$l/{/l" "$l/*/m" "$l/"$'\n/n'
    local seg=0123456789ABCDEF
    seg=$seg$seg$seg$seg; seg=$seg$seg$seg$seg; seg=${seg:0:255}
    local quarter=$seg/$seg/$seg/$seg
    for name in {0..9} A B C D E F; do
        (mkdir -p "$t/deep/$name" && cd "$t/deep/$name" &&
            for _ in 1 2 3 4; do mkdir -p "$quarter" && cd "$quarter" || exit 1; done && : >"$seg")
    done
    l=$t/rainbow
    "$x" -p "$l/file.txt" "$l/file.dat" "$l"/lower.{gz,tar,tar.gz} "$l"/upper.{GZ,TAR,TAR.GZ} \
        "$l/lu.tar.GZ" "$l/ul.TAR.gz" "$l/mh1" "$l"/s{u,g,ug}id "$l/exec.sh"
    ln -s file.txt "$l/link.txt"; ln "$l/mh1" "$l/mh2"; mkfifo "$l/pipe"
    ln -s /dev/null "$l/chardev_link"; ln -s nowhere "$l/broken"
    python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$l/socket"
    chmod 06644 "$l/sugid"; chmod 04644 "$l/suid"; chmod 02644 "$l/sgid"
    mkdir "$l/ow" "$l"/sticky{,_ow}; chmod o+w "$l"/*ow; chmod +t "$l"/sticky*; chmod +x "$l/exec.sh"
    "$x" -p "$l/"$'\e[1m/\e[0m'
    l=$t/inaccessible
    "$x" -p "$l/file" "$l/dir/"; ln -s dir "$l/link"; chmod 000 "$l/dir"
}

# --- the functions bfs's test cases call ----------------------------------------------------

skip() { exit $EX_SKIP; }
skip_if() { if "$@"; then skip; fi; }
skip_unless() { if ! "$@"; then skip; fi; }
# With a command: expect it to fail without crashing. Alone: fail the case.
fail() {
    (($# == 0)) && exit 1
    "$@"; local status=$?
    ((status > 125)) && exit $status
    ((status > 0))
}
# As root in a private mount namespace (see the end), the cases that mount file systems run, as
# bfs's harness runs them under --sudo; elsewhere they skip.
if [ -n "${PEER_SUITES_MOUNTNS:-}" ]; then
    sudo() { "$@"; }
    bfs_sudo() { "$@"; }
else
    bfs_sudo() { return 1; }
fi
defer() { trap "$(printf '%q ' "$@"); $(trap -p EXIT | sed "s/^trap -- '\\(.*\\)' EXIT$/\\1/")" EXIT; }
check_exit() { local want=$1 got=0; shift; "$@" || got=$?; ((got == want)); }
closefrom() {
    local fd
    for fd in /proc/self/fd/*; do fd=${fd##*/}; ((fd >= $1)) && eval "exec $fd>&-"; done 2>/dev/null
    return 0
}
inum() { ls -id "$@" | awk '{ print $1 }'; }
epoch_time() { printf '%d' "$EPOCHSECONDS"; }
quote() { printf '%q' "$1"; shift; (($#)) && printf ' %q' "$@"; return 0; }
_wait() { wait "$@"; }
clean_scratch() { chmod -R +rwX "$TMP/scratch" 2>/dev/null; rm -rf "$TMP/scratch"; mkdir "$TMP/scratch"; }
invoke_bfs() {
    local status=0
    "${BFS[@]}" "$@" || status=$?
    ((status > 125)) && exit $status
    return $status
}
sort_output() { sort -o "$OUT" "$OUT"; }
gold_of() {
    if [ -e "$TESTS/$TEST.out" ]; then echo "$TESTS/$TEST.out"; elif [ -e "$GOLD/$TEST.out" ]; then echo "$GOLD/$TEST.out"; fi
}
diff_output() {
    if [ -n "$RECORD" ]; then mkdir -p "${RECORD}/${TEST%/*}"; cp "$OUT" "$RECORD/$TEST.out"; fi
    local gold; gold=$(gold_of)
    if [ -z "$gold" ]; then echo NOGOLD >"$TMP/$TEST.nogold"; return 0; fi
    diff -u "$gold" "$OUT" >&2
}
bfs_diff() {
    local status
    "${BFS[@]}" "$@" | sort >"$OUT"
    status=${PIPESTATUS[0]}
    ((status > 125)) && exit $status
    diff_output || return $EX_DIFF
    ((status == 0)) || return $EX_BFS
}

run_case() (
    trap - EXIT # else defer would copy the runner's own EXIT trap (rm -rf "$TMP") into the case's
    set +o pipefail # as bfs's harness runs a case: `yes | bfs_diff ...` is bfs_diff's status
    cd "$TMP" || exit 1
    exec </dev/null
    source "$TESTS/$TEST.sh"
)

# bfs GROUP... : runs each case of the groups; prints one line per failure and the counts.
run_bfs() {
    local find=$1; shift
    (($# == 0)) && set -- posix
    BFS=("$(resolve "$find")")
    TESTS=$PEER_SUITES/bfs/tests GOLD=$PEER_SUITES/bfs/generated
    [ -d "$TESTS" ] || die "no suite at $TESTS (docs/FIND.md says how to place it)"
    printf '#!/bin/sh\nprintf "%%s\\n" "$@" | sort | paste -sd " " -\n' >"$TESTS/sort-args.sh"
    chmod +x "$TESTS/sort-args.sh"
    TMP=$(mktemp -d /tmp/peer-suites.XXXXXXXX)
    trap 'chmod -R u+rwX "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
    XTOUCH=$TMP/bin/xtouch MKSOCK=: UNAME=$(uname) SUDO=${PEER_SUITES_MOUNTNS:+$TMP/bin/sudo}
    mkdir -p "$TMP/bin" "$TMP/scratch"; write_xtouch "$XTOUCH"
    printf '#!/bin/sh\nexec "$@"\n' >"$TMP/bin/sudo"; chmod +x "$TMP/bin/sudo" # root already
    make_trees "$TMP"
    local group file status pass fail skipped nogold
    for group; do
        pass=0 fail=0 skipped=0 nogold=0
        for file in "$TESTS/$group"/*.sh; do
            [ -e "$file" ] || continue
            TEST=$group/$(basename "$file" .sh) OUT=$TMP/$group/$(basename "$file" .sh).out
            mkdir -p "$TMP/$TEST"
            (export BFS TESTS GOLD TMP TEST OUT XTOUCH MKSOCK UNAME SUDO RECORD; run_case) 2>"$TMP/$TEST.err"
            status=$?
            # a case that fails without an expected output (its find's status, its own checks)
            if [ -n "$RECORD" ] && ((status != 0 && status != EX_SKIP)); then
                mkdir -p "$RECORD/$group"; : >"$RECORD/$TEST.failed"
            fi
            clean_scratch
            if ((status == EX_SKIP)); then
                ((++skipped)); [ -n "${VERBOSE:-}" ] && printf '[SKIP] %s\n' "$TEST"
            elif [ -e "$TMP/$TEST.nogold" ]; then
                ((++nogold)); rm -f "$TMP/$TEST.nogold"; [ -n "${VERBOSE:-}" ] && printf '[NOGOLD] %s\n' "$TEST"
            elif ((status == 0)); then
                ((++pass))
            else
                ((++fail)); printf '[FAIL] %s (status %d)\n' "$TEST" "$status"
                [ -n "${VERBOSE:-}" ] && sed 's/^/    /' "$TMP/$TEST.err" | head -20
            fi
        done
        printf '%s: %d passed, %d failed, %d skipped, %d without an expected output\n' \
            "$group" "$pass" "$fail" "$skipped" "$nogold"
    done
}

# bfs-gold FIND PEER [GROUP...]: records every case's output under both, and keeps as
# generated/TEST.out the output of each case the stored suite has no .out for, where the two agree
# and at least one of them passed the case (a case both reject, as -HL, gets no expected output).
gold_bfs() {
    local find=$1 peer=$2 rec
    shift 2
    (($# == 0)) && set -- posix
    rec=$(mktemp -d /tmp/peer-gold.XXXXXXXX)
    RECORD=$rec/a run_bfs "$find" "$@" >/dev/null
    RECORD=$rec/b run_bfs "$peer" "$@" >/dev/null
    local out test kept=0 differ=0
    while IFS= read -r out; do
        test=${out#"$rec/a/"}
        [ -e "$PEER_SUITES/bfs/tests/$test" ] && continue
        if [ -e "$rec/a/${test%.out}.failed" ] && [ -e "$rec/b/${test%.out}.failed" ]; then
            printf 'undetermined (both failed): %s\n' "${test%.out}"; ((++differ))
        elif cmp -s "$out" "$rec/b/$test"; then
            mkdir -p "$PEER_SUITES/bfs/generated/${test%/*}"; cp "$out" "$PEER_SUITES/bfs/generated/$test"; ((++kept))
        else
            printf 'undetermined: %s\n' "${test%.out}"; ((++differ))
        fi
    done < <(find "$rec/a" -name '*.out' | sort)
    printf 'generated %d expected outputs; %d cases where the two differ stay without one\n' "$kept" "$differ"
    rm -rf "$rec"
}

# pv PV: runs each of pv's test scripts as pv's harness does (sh -e; 0 passes, 2 skips).
run_pv() {
    local pv script name status pass=0 fail=0 skipped=0 dir
    pv=$(resolve "$1")
    dir=$PEER_SUITES/pv
    [ -d "$dir/tests" ] || die "no suite at $dir/tests (docs/PV.md says how to place it)"
    for script in "$dir"/tests/*.sh; do
        name=$(basename "$script" .sh)
        if [ "$name" = "Bug_-_Install_all_files" ]; then ((++skipped)); continue; fi # needs a build tree
        local w1 w2 w3 w4
        w1=$(mktemp) w2=$(mktemp) w3=$(mktemp) w4=$(mktemp)
        testSubject=$pv sourcePath=$dir workFile1=$w1 workFile2=$w2 workFile3=$w3 workFile4=$w4 \
            timeout 180 sh -e "$script" >"$w1.log" 2>&1 </dev/null
        status=$?
        case $status in
            0) ((++pass)) ;;
            2) ((++skipped)) ;;
            *) ((++fail)); printf '[FAIL] %s: %s\n' "$name" "$(head -c 300 "$w1.log" | tr '\n' ' ')" ;;
        esac
        rm -f "$w1" "$w2" "$w3" "$w4" "$w1.log"
    done
    printf 'pv: %d passed, %d failed, %d skipped\n' "$pass" "$fail" "$skipped"
}

RECORD=
case ${1:-} in
    bfs|bfs-gold)
        # As root: a private mount namespace first (the mount cases' mounts stay in it and go
        # with it; a brisk server that the run starts lives in it too), then drop the DAC caps.
        if ((EUID == 0)) && [ -z "${PEER_SUITES_MOUNTNS:-}" ] && unshare -m --propagation private true 2>/dev/null; then
            PEER_SUITES_MOUNTNS=1 exec unshare -m --propagation private -- "$0" "$@"
        fi
        if ((EUID == 0)) && [ -z "${PEER_SUITES_DROPPED:-}" ]; then
            PEER_SUITES_DROPPED=1 exec capsh --drop=cap_dac_override,cap_dac_read_search \
                --caps=cap_dac_override,cap_dac_read_search-eip -- "$0" "$@"
        fi
        mode=$1; shift
        (($# >= 1)) || die "usage: $0 bfs FIND [GROUP...] | bfs-gold FIND PEER [GROUP...]"
        if [ "$mode" = bfs ]; then run_bfs "$@"; else gold_bfs "$@"; fi
        ;;
    pv) (($# == 2)) || die "usage: $0 pv PV"; run_pv "$2" ;;
    *) die "usage: $0 bfs FIND [GROUP...] | bfs-gold FIND PEER [GROUP...] | pv PV" ;;
esac
