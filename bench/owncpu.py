#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""One long run of a command, split into its own CPU and its children's, with its peak memory.

    bench/owncpu.py STDIN_FILE INTERVAL CMD...

Runs CMD with standard input from STDIN_FILE and output to /dev/null, reads /proc/PID/stat and
/proc/PID/status every INTERVAL seconds from this one process (no process per sample: a sampler
that starts processes takes CPU from what it measures), and prints one line: the wall time, the
CPU of CMD's own process (all its threads), the CPU of the children it waited for (user + system,
in seconds, from the last sample before it exited) and its peak resident memory (VmHWM, KiB).
For `brisk par` at a million jobs (docs/PERFORMANCE.md, "Scale"), e.g.:

    bench/owncpu.py list 0.5 ./brisk par -0 md5sum
    bench/owncpu.py /dev/null 0.5 fdfind -u -t f . TREE -x md5sum
"""
import os
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 4:
        print("usage: owncpu.py STDIN_FILE INTERVAL CMD...", file=sys.stderr)
        return 2
    tck = os.sysconf('SC_CLK_TCK')
    iv = float(sys.argv[2])
    t0 = time.monotonic()
    with open(sys.argv[1], 'rb') as stdin:
        p = subprocess.Popen(sys.argv[3:], stdin=stdin, stdout=subprocess.DEVNULL)
    last, hwm = None, 0
    while p.poll() is None:
        try:
            with open(f'/proc/{p.pid}/stat') as f:
                s = f.read()
            fields = s[s.rindex(')') + 2:].split()
            if fields[0] != 'Z':
                last = fields
            with open(f'/proc/{p.pid}/status') as f:
                for line in f:
                    if line.startswith('VmHWM:'):
                        hwm = max(hwm, int(line.split()[1]))
        except (OSError, ValueError):
            pass
        time.sleep(iv)
    wall = time.monotonic() - t0
    if last is None:
        print(f"{wall:.2f} 0 0 0")
        return p.returncode
    u, st, cu, cs = (int(x) for x in last[11:15])
    print(f"{wall:.2f} {(u + st) / tck:.2f} {(cu + cs) / tck:.2f} {hwm}", flush=True)
    return p.returncode


if __name__ == '__main__':
    sys.exit(main())
