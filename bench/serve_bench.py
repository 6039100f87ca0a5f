# SPDX-License-Identifier: Apache-2.0
"""brisk serve from Python against subprocess.run(shell=True) and one persistent bash fed lines.

Run by bench/serve.sh (which starts the server). Usage: serve_bench.py ROUNDS N DIR
Rounds interleave the methods; each prints per-call median and p99 in microseconds."""

import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
from brisk_client import Client  # noqa: E402

rounds, n, where = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
client = Client()
bash = subprocess.Popen(["bash", "--noprofile", "--norc"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=where)


def via_brisk(cmd):
    return client.run(cmd).stdout


def via_subprocess(cmd):
    return subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout


def via_bash(cmd):
    # the window manager author's recipe: one bash, a command per line, an end marker after it
    bash.stdin.write(cmd.encode() + b"; echo __end__$?\n")
    bash.stdin.flush()
    out = []
    while True:
        line = bash.stdout.readline()
        if line.startswith(b"__end__"):
            return b"".join(out)
        out.append(line)


methods = [("brisk serve", via_brisk), ("subprocess.run", via_subprocess), ("persistent bash", via_bash)]
samples = {}
for cmd in ("true", "ls " + where):
    want = via_subprocess(cmd)
    for name, f in methods:
        assert f(cmd) == want, (name, cmd)
for _ in range(3000):  # the server is long-running: let its JIT warm up first
    via_brisk("true")
for r in range(rounds):
    for cmd in ("true", "ls " + where):
        for name, f in methods:
            times = samples.setdefault((cmd, name), [])
            for _ in range(n):
                t = time.perf_counter_ns()
                f(cmd)
                times.append(time.perf_counter_ns() - t)
print("python: %d rounds x %d calls, in %s" % (rounds, n, where))
print("%-6s %-16s %10s %10s %12s" % ("cmd", "method", "median us", "p99 us", "per 1000 ms"))
for (cmd, name), t in samples.items():
    t.sort()
    print("%-6s %-16s %10.1f %10.1f %12.1f" % (cmd, name, statistics.median(t) / 1e3, t[int(len(t) * 0.99)] / 1e3,
                                              sum(t) / len(t) * 1000 / 1e6))
