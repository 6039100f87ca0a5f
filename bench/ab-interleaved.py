#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Interleaved A/B of two checkouts of brisk (say main and a branch, each a git worktree): each
# round runs every command once through each tree's launcher, the order alternating per round,
# so a load that comes and goes hits both alike; prints medians of wall time and of CPU time
# (user+sys of the children) and their ratios base/new as a Markdown table. Two warm-up runs each.
#   bench/ab-interleaved.py BASE_TREE NEW_TREE ROUNDS "find /tmp/t -type f" "--version" ...
# A command holding {brisk} is run as written with {brisk} replaced by the tree's launcher (for
# pipelines: "head -c 1G /dev/zero | {brisk} pv -q"). Each tree gets its own warm server (its own
# XDG_RUNTIME_DIR and XDG_STATE_HOME under /tmp/brisk-ab-TREENAME): two builds never share one.
import os, subprocess, sys, time, statistics, resource
base, new, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
cmds = sys.argv[4:]
res = {c: {'base': [], 'new': []} for c in cmds}
cpu = {c: {'base': [], 'new': []} for c in cmds}
envs = {}
for t in (base, new):
    d = f"/tmp/brisk-ab-{os.path.basename(os.path.abspath(t))}"
    for sub in ("run", "state"):
        os.makedirs(f"{d}/{sub}", mode=0o700, exist_ok=True)
    envs[t] = dict(os.environ, XDG_RUNTIME_DIR=f"{d}/run", XDG_STATE_HOME=f"{d}/state")
def run(tree, c):
    line = c.replace("{brisk}", f"{tree}/brisk") if "{brisk}" in c else f"exec {tree}/brisk {c}"
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(line, shell=True, env=envs[tree], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    w = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return w, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
for c in cmds:  # warm up
    for t in (base, new):
        run(t, c); run(t, c)
for r in range(rounds):
    for c in cmds:
        order = [('base', base), ('new', new)] if r % 2 == 0 else [('new', new), ('base', base)]
        for name, t in order:
            w, u = run(t, c)
            res[c][name].append(w); cpu[c][name].append(u)
print(f"load after: {open('/proc/loadavg').read().split()[:3]}")
print("| command | base wall | new wall | ratio base/new | base CPU | new CPU | ratio |")
for c in cmds:
    b, n = statistics.median(res[c]['base']), statistics.median(res[c]['new'])
    bc, nc = statistics.median(cpu[c]['base']), statistics.median(cpu[c]['new'])
    print(f"| `brisk {c}` | {b*1000:.1f} ms | {n*1000:.1f} ms | {b/n:.2f} | {bc*1000:.1f} ms | {nc*1000:.1f} ms | {bc/nc:.2f} |")
