#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# StumpWM's (run-shell-command CMD t) through brisk (clients/stumpwm/brisk-stumpwm) against
# StumpWM's own, in one run: Debian's stumpwm under Xvfb (a free display, no TCP), a private
# `brisk serve`, and per round N calls each way, sent through StumpWM's command interface (the
# root window's STUMPWM_COMMAND property, as stumpish sends it) to bench/stumpwm_bench.lisp.
# Usage: bench/stumpwm.sh [ROUNDS] [CALLS] [DIR]   (default 3 rounds x 1000 x `ls /`, after
# 3000 calls through brisk to warm the server up)
# Needs Debian's stumpwm, xvfb and x11-utils (xprop).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3} n=${2:-1000} dir=${3:-/}
work=$(mktemp -d) && chmod 700 "$work"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do while kill -0 "$p" 2>/dev/null; do sleep 0.1; done; done
    rm -rf "$work"
}
trap cleanup EXIT
export BRISK_SOCKET=$work/serve.sock
pids+=("$("$root/brisk" serve --detach --socket "$BRISK_SOCKET" -j 2)")
Xvfb -displayfd 3 -nolisten tcp -screen 0 1024x768x24 3>"$work/display" </dev/null 2>"$work/xvfb.log" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
display=:$(head -n 1 "$work/display")
mkdir "$work/home"
cat >"$work/home/.stumpwmrc" <<RC
(in-package :stumpwm)
(let ((outcome (handler-case
                   (progn (add-to-load-path "$root/clients/lisp/")
                          (add-to-load-path "$root/clients/stumpwm/brisk-stumpwm/")
                          (load-module "brisk-stumpwm")
                          (load "$root/bench/stumpwm_bench.lisp")
                          :ready)
                 (error (e) (princ-to-string e)))))
  (with-open-file (s "$work/ready.tmp" :direction :output) (print outcome s))
  (sb-posix:rename "$work/ready.tmp" "$work/ready"))
RC
# what /usr/bin/stumpwm runs, without its shell in between (so the pid is StumpWM's)
HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_CACHE_HOME=${XDG_CACHE_HOME:-$HOME/.cache}/brisk-bench-stumpwm \
    DISPLAY=$display BRISK_COMMAND=/bin/false sbcl --load /usr/lib/stumpwm/load.lisp </dev/null >"$work/stumpwm.log" 2>&1 &
pids+=($!)
for _ in $(seq 1800); do [ -e "$work/ready" ] && break; sleep 0.1; done
grep -q :READY "$work/ready" 2>/dev/null ||
    { tail -n 30 "$work/stumpwm.log" >&2; cat "$work/ready" >&2 2>/dev/null; echo "stumpwm.sh: StumpWM did not load the module" >&2; exit 1; }

# stumpish's protocol: set STUMPWM_COMMAND on the root window, read STUMPWM_COMMAND_RESULT
command() {
    local answer=
    xprop -display "$display" -root -remove STUMPWM_COMMAND_RESULT 2>/dev/null
    xprop -display "$display" -root -f STUMPWM_COMMAND 8s -set STUMPWM_COMMAND "$1"
    for _ in $(seq 6000); do
        answer=$(xprop -display "$display" -root STUMPWM_COMMAND_RESULT 2>&1)
        case $answer in *"$2"*) return 0 ;; esac
        sleep 0.1
    done
    echo "stumpwm.sh: no answer to $1; last: $answer" >&2
    return 1
}

command "eval-line (brisk-stumpwm-bench:warm-up 3000 \"ls $dir\")" ":WARM"   # the server's JIT, as bench/serve.sh warms it
echo "load before: $(uptime)"
echo "StumpWM $(dpkg-query -W -f '${Version}' stumpwm 2>/dev/null), SBCL $(sbcl --version | cut -d' ' -f2), $n x (run-shell-command \"ls $dir\" t) per round"
printf '%-6s %10s %14s %8s %18s\n' round "brisk s" "StumpWM's s" ratio "persistent bash s"
for r in $(seq "$rounds"); do
    command "eval-line (brisk-stumpwm-bench:compare $n \"ls $dir\" \"$work/round$r\")" ":DONE"
    sed -e 's/.*:BRISK-SECONDS \([0-9.]*\) :OWN-SECONDS \([0-9.]*\) :BASH-SECONDS \([0-9.]*\) :OUTPUTS-EQUAL \([A-Z]*\).*/\1 \2 \3 \4/' \
        -e q "$work/round$r" >"$work/line$r"
    read -r b o p same <"$work/line$r"
    [ "$same" = T ] || { echo "stumpwm.sh: outputs differ in round $r" >&2; exit 1; }
    printf '%-6s %10.2f %14.2f %7.1fx %18.2f\n' "$r" "$b" "$o" "$(echo "$o / $b" | bc -l)" "$p"
done
cat "$work"/line* | sort -n -k1 | awk '{b[NR]=$1} END {print "median brisk:", b[int((NR+1)/2)], "s"}'
cat "$work"/line* | sort -n -k2 | awk '{o[NR]=$2} END {print "median StumpWM own:", o[int((NR+1)/2)], "s"}'
cat "$work"/line* | sort -n -k3 | awk '{o[NR]=$3} END {print "median persistent bash:", o[int((NR+1)/2)], "s"}'
echo "load after: $(uptime)"
