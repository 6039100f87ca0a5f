#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Times `brisk par` against xargs, fd and GNU parallel, interleaved in one run, and prints the
# median of each and ratios of medians.
#
#   bench/par.sh [ROUNDS] [FILES]      (defaults: 5 rounds, 10000 files)
#
# Cases: FILES x `md5sum {}`; FILES x `md5sum {} | cut -c1-32`; 100,000 x `echo {}`;
# `-X md5sum` against `xargs -0 -n 500 md5sum`. GNU parallel is slow (3-10 ms per job), so it
# runs on a subset of FILES/5 files and its time is scaled by 5, and on 2,000 echo jobs scaled
# by 50 (stated in the output).
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
rounds=${1:-5}
files=${2:-10000}
work=${BRISK_BENCH_DIR:-/tmp/brisk-bench-par}
tree=$work/tree-$files
sub=$work/sub-$files
mkdir -p "$work"
if [ ! -d "$tree" ]; then
    python3 "$root/bench/gentree.py" "$tree" "$files" >/dev/null
fi
find "$tree" -type f -print0 > "$work/list0"
head -z -n $((files / 5)) "$work/list0" > "$work/sub0"
seq 100000 > "$work/seq"
scale=5

brisk() { BRISK_NO_BUILD=1 "$root/brisk" "$@"; }
"$root/brisk" par true ::: warm >/dev/null   # builds and trains the AOT cache once

declare -A cmds=(
  [md5.brisk]="brisk par -0 md5sum < $work/list0"
  [md5.fd]="fdfind . $tree -t f -x md5sum"
  [md5.xargs]="xargs -0 -P2 -n1 md5sum < $work/list0"
  [md5.gnu]="parallel --will-cite -0 md5sum < $work/sub0"
  [pipe.brisk]="brisk par -0 'md5sum {} | cut -c1-32' < $work/list0"
  [pipe.fd]="fdfind . $tree -t f -x sh -c 'md5sum \"\$1\" | cut -c1-32' _"
  [pipe.gnu]="parallel --will-cite -0 'md5sum {} | cut -c1-32' < $work/sub0"
  [echo.brisk]="brisk par echo {} < $work/seq"
  [echo.gnu]="head -n 2000 $work/seq | parallel --will-cite echo {}"
  [batch.brisk]="brisk par -0 -X md5sum < $work/list0"
  [batch.xargs]="xargs -0 -n 500 md5sum < $work/list0"
  [batch.xargs2]="xargs -0 -P2 -n 500 md5sum < $work/list0"
)
order=(md5.brisk md5.fd md5.xargs md5.gnu pipe.brisk pipe.fd pipe.gnu echo.brisk echo.gnu batch.brisk batch.xargs batch.xargs2)
declare -A times cpus
export -f brisk
export root
for ((r = 1; r <= rounds; r++)); do
    for k in "${order[@]}"; do
        case $k in *.gnu) [ "$r" -le $(( (rounds + 1) / 2 )) ] || continue ;; esac
        # wall time, and CPU time (user + system) of the command and every process it waited for
        /usr/bin/time -o "$work/time" -f '%e %U %S' bash -c "${cmds[$k]}" > /dev/null 2>&1 || true
        read -r wall cpu < <(tail -1 "$work/time" | awk '{print $1, $2 + $3}')
        times[$k]="${times[$k]:-} $wall"
        cpus[$k]="${cpus[$k]:-} $cpu"
        printf 'round %d %-13s %6.2f s wall %6.2f s cpu\n' "$r" "$k" "$wall" "$cpu" >&2
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
declare -A med cmed
for k in "${order[@]}"; do
    med[$k]=$(echo "${times[$k]}" | median)
    cmed[$k]=$(echo "${cpus[$k]}" | median)
    case $k in
        md5.gnu|pipe.gnu) med[$k]=$(echo "${med[$k]} * $scale" | bc -l); cmed[$k]=$(echo "${cmed[$k]} * $scale" | bc -l) ;;
        echo.gnu) med[$k]=$(echo "${med[$k]} * 50" | bc -l); cmed[$k]=$(echo "${cmed[$k]} * 50" | bc -l) ;;
    esac
done
ratio() { echo "scale=2; ${med[$1]} / (${med[$2]} + 0.005)" | bc -l; }
cratio() { echo "scale=2; ${cmed[$1]} / (${cmed[$2]} + 0.005)" | bc -l; }
echo "brisk par benchmark: $files files, $rounds rounds (GNU parallel: $(( (rounds + 1) / 2 )) rounds on 1/$scale of the input, time x$scale)"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %12s %12s\n' case "median wall" "median cpu"
for k in "${order[@]}"; do printf '%-14s %11.2fs %11.2fs\n' "$k" "${med[$k]}" "${cmed[$k]}"; done
echo
echo "wall-time ratios (cpu-time ratios in brackets):"
echo "md5sum {} per file:   brisk/fd $(ratio md5.brisk md5.fd) [$(cratio md5.brisk md5.fd)]   brisk/xargs $(ratio md5.brisk md5.xargs) [$(cratio md5.brisk md5.xargs)]   gnu/brisk $(ratio md5.gnu md5.brisk) [$(cratio md5.gnu md5.brisk)]"
echo "md5sum {} | cut:      brisk/fd $(ratio pipe.brisk pipe.fd) [$(cratio pipe.brisk pipe.fd)]   gnu/brisk $(ratio pipe.gnu pipe.brisk) [$(cratio pipe.gnu pipe.brisk)]"
echo "echo {} x 100000:     brisk $(echo "scale=0; 100000 / ${med[echo.brisk]}" | bc) jobs/s   gnu $(echo "scale=0; 100000 / ${med[echo.gnu]}" | bc) jobs/s (2,000 jobs, x50)   gnu/brisk $(ratio echo.gnu echo.brisk)"
echo "-X md5sum:            brisk/xargs-n500 $(ratio batch.brisk batch.xargs)   brisk/xargs-P2-n500 $(ratio batch.brisk batch.xargs2)"
# On a shared machine other work comes and goes between rounds; the two runs of a round ran
# seconds apart, so the median of the per-round ratios says more than the ratio of medians.
paired() { # KEY_A KEY_B SCALE_OF_A: median over rounds r of A[r] * SCALE / B[r] (A may have fewer rounds)
    paste <(echo "${times[$1]}" | tr ' ' '\n' | grep -v '^$') <(echo "${times[$2]}" | tr ' ' '\n' | grep -v '^$') \
        | awk -v s="$3" 'NF == 2 {printf "%.3f\n", $1 * s / ($2 + 0.005)}' | median
}
echo
echo "median of per-round wall-time ratios (the same round's runs, seconds apart):"
echo "md5sum {} per file:   brisk/fd $(paired md5.brisk md5.fd 1)   gnu/brisk $(paired md5.gnu md5.brisk $scale)"
echo "md5sum {} | cut:      brisk/fd $(paired pipe.brisk pipe.fd 1)   gnu/brisk $(paired pipe.gnu pipe.brisk $scale)"
