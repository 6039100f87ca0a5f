#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What a job costs in system calls and processes, counted by strace: figures that do not depend on
# the machine's load, where wall times on a shared 2-core machine do. For each case, the calls per
# job made by brisk's JVM and by each program of the job's side (the warm shells, the remote agent,
# the jobs), and the processes created per job (fork/clone). Remote cases run the agent over a
# local pipe (`--ssh` = a script that runs `setsid /bin/sh -s` here), as bench/agent-local.sh does.
#   bench/syscalls.sh [JOBS] [TREE...]       (default 2000 jobs; compare trees: one column each)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
jobs=${1:-2000}; shift || true
trees=("$@"); [ ${#trees[@]} -gt 0 ] || trees=("$root")
command -v strace >/dev/null || { echo "syscalls.sh: needs strace (apt-get install strace)" >&2; exit 2; }
work=$(mktemp -d /tmp/brisk-syscalls.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
printf '#!/bin/sh\nexec setsid /bin/sh -s\n' > pipe-ssh; chmod +x pipe-ssh
for i in $(seq 100); do echo "file $i" > "f$i"; done
seq "$jobs" > seq
for i in $(seq "$jobs"); do echo "f$(( (i - 1) % 100 + 1 ))"; done > files
declare -A cases=(
  [local-echo]="par -j2 echo {} < seq"
  [local-md5]="par -j2 md5sum {} < files"
  [local-shell]="par -j2 'md5sum {}; true' < files"
  [remote-echo]="par --ssh ./pipe-ssh -S 2/h1 echo {} < seq"
  [remote-md5]="par --ssh ./pipe-ssh -S 2/h1 md5sum {} < files"
  [remote-pipe]="par --ssh ./pipe-ssh -S 2/h1 'md5sum {} | cut -c1-32' < files"
)
for t in "${trees[@]}"; do "$t/brisk" par true ::: warm >/dev/null; done
printf '%-12s %-28s' case tree; printf '%10s' brisk shells jobs forks; echo
for c in local-echo local-md5 local-shell remote-echo remote-md5 remote-pipe; do
  for t in "${trees[@]}"; do
    BRISK_NO_BUILD=1 strace -f -o "$work/log" bash -c "exec $t/brisk ${cases[$c]}" > /dev/null
    python3 - "$work/log" "$jobs" "$c" "$t" <<'PY'
import re, sys, collections
log, jobs, case, tree = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
prog = {}        # pid -> the program it runs: its own last execve, else its parent's at the fork
calls = collections.Counter()
forks = 0
pending = {}     # pid -> the first half of a call strace split ("<unfinished ...>")
for raw in open(log):
    m = re.match(r'(\d+)\s+(.*)', raw.rstrip('\n'))
    if not m:
        continue
    pid, text = m.groups()
    r = re.match(r'<\.\.\. (\w+) resumed>(.*)', text)
    if r:
        text = pending.pop(pid, r.group(1) + '(') + r.group(2)
    elif text.endswith('<unfinished ...>'):
        pending[pid] = text[:-len('<unfinished ...>')]
        continue
    c = re.match(r'(\w+)\(', text)
    if not c:
        continue
    call = c.group(1)
    who = prog.get(pid, 'java')
    calls[who] += 1
    if call == 'execve' and text.rstrip().endswith('= 0'):
        prog[pid] = re.search(r'execve\("([^"]+)"', text).group(1).rsplit('/', 1)[-1]
    elif call in ('clone', 'clone3', 'fork', 'vfork'):
        ret = re.search(r'= (\d+)', text)
        if ret:
            prog.setdefault(ret.group(1), who)
            if 'CLONE_THREAD' not in text:
                forks += 1
java = calls.pop('java', 0)
shells = sum(n for p, n in calls.items() if p in ('sh', 'dash', 'bash', 'perl', 'setsid'))
rest = sum(calls.values()) - shells
print(f"{case:<12} {tree[-28:]:<28}{java / jobs:10.1f}{shells / jobs:10.1f}{rest / jobs:10.1f}{forks / jobs:10.2f}")
PY
  done
done
echo "(per job; $jobs jobs; strace -f over the whole run, JVM start-up included: a few calls per job at $jobs jobs)"
