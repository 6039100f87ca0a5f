#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# How brisk's time and peak memory grow with the work, against its peers in the same run, and
# SVG charts of it (docs/img/scale-*.svg).
#
#   bench/scale.sh [--quick] [find walk par pv pool]     (default: every section)
#
# Sections and sizes (--quick, or QUICK=1, takes the small ones only: a smoke run of minutes):
#   find   brisk find / GNU find / bfs / fd on a wide tree (bench/gentree.py) and a deep one
#          (bench/gentree-deep.py) of 10k, 200k, 1M and 2M files: -type f, -name '*.c',
#          -size +10k, -printf '%s %p\n' (fd has no -printf)               quick: 10k, 200k
#   walk   the library walk in process (dev.brisk.bench.WalkBench), drawn on the -type f charts
#   par    echo {} and md5sum {} at 1k, 10k, 100k, 1M jobs, with and without -k, and -k behind a
#          slow first job (it ends only after the last job: every other job's output is held);
#          peers: GNU parallel (up to 10k jobs), xargs -P2 (up to 100k), fd -x (md5sum, over a
#          wide tree of exactly that many files)                            quick: 1k, 10k
#   pv     brisk pv -q / pv -q / no meter over 1, 4, 16 GiB, mid-pipeline and into /dev/null
#                                                                           quick: 1 GiB
#   pool   the warm shell pool vs ProcessBuilder("sh","-c") at 1, 4, 16, 64 callers, `true`
#          and `ls /` (dev.brisk.bench.PoolScaleBench, one JVM per point)   quick: 1, 4
#
# Where a process start is slow, the peers that start one or more per job take hours at the big
# sizes; these cap them (number of jobs): PAR_MD5_MAX (every md5sum point, default no cap),
# PARALLEL_MAX (GNU parallel, default 10000), XARGS_MAX (xargs, default 100000), SLOW_K_MAX (the
# -k run behind a slow first job, whose jobs are shell code: a subshell each; default no cap); BIG_FROM (default
# 1000000) is the size from which a point gets RUNS_BIG runs instead of RUNS.
#
# Each point is RUNS runs (default 3; sizes of 1M and more: RUNS_BIG, default 1), interleaved
# across the tools, and its median time is kept with the peak resident memory of the measured
# process (GNU time's %M), the load average and the time. Results are appended to
# bench/results/scale/data.tsv; a point already there is skipped (the run is resumable; FORCE=1
# measures again). Trees are built once under $BRISK_BENCH_DIR (default /tmp/brisk-scale),
# never inside the repository: 2M files take about 8 GB and a few minutes to make.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
. "$root/scripts/jdk.sh"
brisk_find_jdk || exit 1
quick=${QUICK:-}
sections=()
for a in "$@"; do
    case $a in
        --quick) quick=1 ;;
        find|walk|par|pv|pool) sections+=("$a") ;;
        *) echo "scale.sh: unknown argument '$a' (sections: find walk par pv pool; --quick)" >&2; exit 2 ;;
    esac
done
[ ${#sections[@]} -gt 0 ] || sections=(find walk par pv pool)
runs=${RUNS:-3}
runs_big=${RUNS_BIG:-1}
big_from=${BIG_FROM:-1000000}
parallel_max=${PARALLEL_MAX:-10000}
xargs_max=${XARGS_MAX:-100000}
work=${BRISK_BENCH_DIR:-/tmp/brisk-scale}
out=$root/bench/results/scale
data=$out/data.tsv
mkdir -p "$work" "$out"
[ -f "$data" ] || printf '# chart\tseries\tsize\tvalue\tpeak_rss_kb\tload\tutc\tmetric\n' >"$data"
for tool in bfs fdfind parallel pv hyperfine; do
    command -v "$tool" >/dev/null || { echo "scale.sh: needs $tool (./test installs the peers)" >&2; exit 1; }
done

if [ -n "$quick" ]; then
    find_sizes=(10000 200000) par_sizes=(1000 10000) pv_sizes=(1) pool_callers=(1 4)
else
    find_sizes=(10000 200000 1000000 2000000) par_sizes=(1000 10000 100000 1000000) pv_sizes=(1 4 16) pool_callers=(1 4 16 64)
fi

echo "building brisk and the benchmarks..." >&2
(cd "$root" && ./brisk --version >/dev/null && ./brisk find "$root/bench" -maxdepth 0 >/dev/null)
(cd "$root" && JAVA_HOME=$BRISK_JAVA_HOME MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" \
    mvn -q -B -Dstyle.color=never -DskipTests -pl bench -am package >&2)
java=$BRISK_JAVA_HOME/bin/java
benchcp=$root/bench/target/classes:$root/core/target/classes
export BRISK_NO_BUILD=1
brisk=$root/brisk

tree() { # $1 shape (wide|deep), $2 files: prints the tree's path, building it once
    local t=$work/$1-$2
    if [ ! -f "$t.done" ]; then
        rm -rf "$t"
        echo "building $t..." >&2
        if [ "$1" = wide ]; then python3 "$root/bench/gentree.py" "$t" "$2" 42 >&2
        else python3 "$root/bench/gentree-deep.py" "$t" "$2" 42 >&2; fi
        touch "$t.done"
    fi
    echo "$t"
}

recorded() { # $1 chart, $2 size, $3.. series: true when every series has this point already
    [ -z "${FORCE:-}" ] || return 1
    local s
    for s in "${@:3}"; do
        awk -F'\t' -v c="$1" -v z="$2" -v s="$s" '$1==c && $2==s && $3==z {f=1} END {exit !f}' "$data" || return 1
    done
}

# one run of a command: @T@ in it marks where GNU time goes (the measured process); prints
# "VALUE PEAK_KB", VALUE being the wall time in seconds unless the command wrote NAME=NUMBER into
# @V@ (the in-process figures of WalkBench and PoolScaleBench); a failing command is reported and
# counted as missing
run_one() {
    local cmd=${1//@T@//usr/bin/time -o $work/time.out -f %M}
    cmd=${cmd//@V@/$work/value.out}
    local t0 t1
    : >"$work/time.out"
    : >"$work/value.out"
    t0=$(date +%s%N)
    if ! bash -c "$cmd" >/dev/null 2>"$work/err"; then
        echo "  failed: $cmd: $(tail -n 2 "$work/err" | tr '\n' ' ')" >&2
        echo "nan 0"
        return
    fi
    t1=$(date +%s%N)
    local v
    v=$(grep -o -m1 '=[0-9.]*' "$work/value.out" | tr -d =) || true
    [ -n "$v" ] || v=$(echo "($t1 - $t0) / 1000000000" | bc -l)
    echo "$v $(tail -n 1 "$work/time.out")"
}

median() { tr ' ' '\n' | grep -v '^$' | grep -v nan | sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "nan"; else print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# measure CHART SIZE METRIC SERIES=COMMAND...: runs interleaved, records each series' median
measure() {
    local chart=$1 size=$2 metric=$3
    shift 3
    local names=() cmds=() kv
    for kv in "$@"; do names+=("${kv%%=*}"); cmds+=("${kv#*=}"); done
    if recorded "$chart" "$size" "${names[@]}"; then
        echo "  $chart @ $size: recorded already" >&2
        return
    fi
    local n=$runs
    [ "$size" -lt "$big_from" ] || n=$runs_big
    local -a ts rs
    local r i res load
    load=$(cut -d' ' -f1 /proc/loadavg)
    for ((r = 0; r < n; r++)); do
        for i in "${!cmds[@]}"; do
            res=$(run_one "${cmds[$i]}")
            ts[$i]="${ts[$i]:-} ${res% *}"
            rs[$i]="${rs[$i]:-} ${res#* }"
        done
    done
    load=$(echo "$load $(cut -d' ' -f1 /proc/loadavg)" | awk '{printf "%.2f", ($1 + $2) / 2}')
    for i in "${!cmds[@]}"; do
        local t m
        t=$(echo "${ts[$i]}" | median)
        m=$(echo "${rs[$i]}" | median)
        [ "$t" = nan ] && continue
        if [ "$metric" = jobs/s ]; then t=$(echo "$size / $t" | bc -l); fi
        printf '%s\t%s\t%s\t%.4f\t%s\t%s\t%s\t%s\n' "$chart" "${names[$i]}" "$size" "$t" "$m" "$load" \
            "$(date -u +%Y-%m-%dT%H:%M)" "$metric" >>"$data"
        printf '  %-28s %-26s %9s  %10.3f %s  %7.1f MiB\n' "$chart" "${names[$i]}" "$size" "$t" "$metric" \
            "$(echo "$m / 1024" | bc -l)" >&2
    done
}

section_find() {
    local shape n T
    for shape in wide deep; do
        for n in "${find_sizes[@]}"; do
            T=$(tree "$shape" "$n")
            cat "$T"/f0000000.txt >/dev/null 2>&1 || true
            find "$T" >/dev/null # hot cache
            local walk=()
            if [[ " ${sections[*]} " == *" walk "* ]]; then
                walk=("Walker (library, in process)=@T@ $java --enable-native-access=ALL-UNNAMED -cp $benchcp dev.brisk.bench.WalkBench $T 3 2 | grep -o 'median_s=[0-9.]*' >@V@")
            fi
            measure "find-$shape-type-f" "$n" s "brisk find=@T@ $brisk find $T -type f" "GNU find=@T@ find $T -type f" \
                "bfs=@T@ bfs $T -type f" "fd=@T@ fdfind -u -t f . $T" ${walk[@]+"${walk[@]}"}
            measure "find-$shape-name" "$n" s "brisk find=@T@ $brisk find $T -type f -name '*.c'" \
                "GNU find=@T@ find $T -type f -name '*.c'" "bfs=@T@ bfs $T -type f -name '*.c'" "fd=@T@ fdfind -u -t f -g '*.c' $T"
            measure "find-$shape-size" "$n" s "brisk find=@T@ $brisk find $T -type f -size +10k" \
                "GNU find=@T@ find $T -type f -size +10k" "bfs=@T@ bfs $T -type f -size +10k" "fd=@T@ fdfind -u -t f -S +10ki . $T"
            measure "find-$shape-printf" "$n" s "brisk find=@T@ $brisk find $T -type f -printf '%s %p\n'" \
                "GNU find=@T@ find $T -type f -printf '%s %p\n'" "bfs=@T@ bfs $T -type f -printf '%s %p\n'"
        done
    done
}

section_walk() { # drawn on the find charts; measured alone when find is not asked for
    [[ " ${sections[*]} " == *" find "* ]] && return
    local shape n T
    for shape in wide deep; do
        for n in "${find_sizes[@]}"; do
            T=$(tree "$shape" "$n")
            find "$T" >/dev/null
            measure "find-$shape-type-f" "$n" s "GNU find=@T@ find $T -type f" \
                "Walker (library, in process)=@T@ $java --enable-native-access=ALL-UNNAMED -cp $benchcp dev.brisk.bench.WalkBench $T 3 2 | grep -o 'median_s=[0-9.]*' >@V@"
        done
    done
}

section_par() {
    local n seqf list T slow
    for n in "${par_sizes[@]}"; do
        seqf=$work/seq-$n
        [ -f "$seqf" ] || seq "$n" >"$seqf"
        local peers=()
        [ "$n" -le "$parallel_max" ] && peers+=("GNU parallel=@T@ parallel --will-cite echo {} < $seqf")
        [ "$n" -le "$xargs_max" ] && peers+=("xargs -P2=@T@ xargs -P2 -n1 echo < $seqf")
        measure par-echo "$n" jobs/s "brisk par=@T@ $brisk par echo {} < $seqf" "brisk par -k=@T@ $brisk par -k echo {} < $seqf" \
            ${peers[@]+"${peers[@]}"}
        # the first job ends only once the last has started and written its mark: with -k every
        # other job's output waits behind it
        if [ -z "${SLOW_K_MAX:-}" ] || [ "$n" -le "$SLOW_K_MAX" ]; then
            rm -f "$work/slow.mark"
            slow="if [ {} = 1 ]; then while [ ! -e $work/slow.mark ]; do sleep 0.05; done; rm -f $work/slow.mark; fi; [ {} = $n ] && : > $work/slow.mark; echo {}"
            measure par-slow-first-k "$n" jobs/s "brisk par -k=@T@ $brisk par -k '$slow' < $seqf"
        fi
        [ -z "${PAR_MD5_MAX:-}" ] || [ "$n" -le "$PAR_MD5_MAX" ] || continue
        T=$(tree wide "$n")
        list=$work/list-$n
        [ -f "$list" ] || find "$T" -type f -print0 >"$list"
        peers=()
        [ "$n" -le "$parallel_max" ] && peers+=("GNU parallel=@T@ parallel --will-cite -0 md5sum < $list")
        [ "$n" -le "$xargs_max" ] && peers+=("xargs -P2=@T@ xargs -0 -P2 -n1 md5sum < $list")
        measure par-md5sum "$n" jobs/s "brisk par=@T@ $brisk par -0 md5sum < $list" "brisk par -k=@T@ $brisk par -0 -k md5sum < $list" \
            "fd -x=@T@ fdfind -u -t f . $T -x md5sum" ${peers[@]+"${peers[@]}"}
    done
}

section_pv() {
    local g
    for g in "${pv_sizes[@]}"; do
        measure pv-mid-pipeline "$g" s "brisk pv=head -c ${g}G /dev/zero | @T@ $brisk pv -q | cat >/dev/null" \
            "pv=head -c ${g}G /dev/zero | @T@ pv -q | cat >/dev/null" "no meter (cat)=head -c ${g}G /dev/zero | @T@ cat | cat >/dev/null"
        measure pv-to-devnull "$g" s "brisk pv=head -c ${g}G /dev/zero | @T@ $brisk pv -q >/dev/null" \
            "pv=head -c ${g}G /dev/zero | @T@ pv -q >/dev/null" "no meter (cat)=head -c ${g}G /dev/zero | @T@ cat >/dev/null"
    done
}

section_pool() {
    local c cmd chart per
    for cmd in true "ls /"; do
        chart=pool-${cmd%% *}
        for c in "${pool_callers[@]}"; do
            per=$((c * 100 > 2000 ? c * 100 : 2000))
            measure "$chart" "$c" us/command \
                "brisk pool=@T@ $java --enable-native-access=ALL-UNNAMED -cp $benchcp dev.brisk.bench.PoolScaleBench pool $c $per '$cmd' >@V@" \
                "ProcessBuilder sh -c=@T@ $java -cp $benchcp dev.brisk.bench.PoolScaleBench processbuilder $c $((per / 4)) '$cmd' >@V@"
        done
    done
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)" >&2
for s in "${sections[@]}"; do
    echo "== $s" >&2
    "section_$s"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
BRISK_BENCH_DIR=$work python3 "$root/bench/plot.py" "$data" "$root/docs/img"
