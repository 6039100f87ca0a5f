#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The machine's floor for a composed job: CPU per `md5sum FILE | cut -c1-32` when nothing but
the two programs runs.

Spawns the pipeline's two programs with os.posix_spawn (no shell, no job runner, a pipe between
them, the caller's environment as every tool passes it on), one job after another, over the files
of bench/par.sh's tree, and reports the children's CPU time per job (what any runner pays at
least: exec, dynamic loading, locale set-up, the work, exit) and this script's own. Together with
GNU parallel's time from bench/par.sh, it bounds the ratio any runner can reach on N cores:
at best N jobs' worth of children run at once, so 10,000 jobs take at least
10,000 x children-CPU / N.

With WORKERS (default 1), that many spawners run at once, each JOBS/WORKERS jobs, and the
combined wall time is reported as well: what the machine does when its cores are all busy with
such jobs (on a shared or virtual machine the CPU per job then rises, which the first figure
does not show).

usage: bench/par-floor.py [JOBS] [FILES_DIR] [WORKERS]   (defaults: 2000 jobs, /tmp/brisk-bench-par/tree-10000, 1)
"""
import os
import resource
import shutil
import subprocess
import sys
import time


def main():
    jobs = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    top = sys.argv[2] if len(sys.argv) > 2 else "/tmp/brisk-bench-par/tree-10000"
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    if workers > 1:
        t0 = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, __file__, str(jobs // workers), top], stdout=subprocess.PIPE,
                                  text=True) for _ in range(workers)]
        for p in procs:
            print(p.communicate()[0].splitlines()[0])
        wall = time.perf_counter() - t0
        print(f"{workers} spawners at once: {jobs // workers * workers} jobs in {wall:.2f} s, "
              f"so 10,000 such jobs take {10000 * wall / (jobs // workers * workers):.2f} s on {os.cpu_count()} cores")
        return
    files = [os.path.join(d, f) for d, _, fs in os.walk(top) for f in fs]
    if not files:
        sys.exit(f"par-floor: no files under {top} (run bench/par.sh once, or name a directory)")
    md5, cut = shutil.which("md5sum"), shutil.which("cut")
    env = dict(os.environ)
    null = os.open(os.devnull, os.O_WRONLY)
    c0, s0 = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    for k in range(jobs):
        r, w = os.pipe()
        a = os.posix_spawn(md5, [md5, files[k % len(files)]], env,
                           file_actions=[(os.POSIX_SPAWN_DUP2, w, 1), (os.POSIX_SPAWN_CLOSE, r),
                                         (os.POSIX_SPAWN_CLOSE, w)])
        b = os.posix_spawn(cut, [cut, "-c1-32"], env,
                           file_actions=[(os.POSIX_SPAWN_DUP2, r, 0), (os.POSIX_SPAWN_DUP2, null, 1),
                                         (os.POSIX_SPAWN_CLOSE, r), (os.POSIX_SPAWN_CLOSE, w)])
        os.close(r)
        os.close(w)
        os.waitpid(a, 0)
        os.waitpid(b, 0)
    wall = time.perf_counter() - t0
    c1, s1 = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
    child = (c1.ru_utime - c0.ru_utime + c1.ru_stime - c0.ru_stime) / jobs
    own = (s1.ru_utime - s0.ru_utime + s1.ru_stime - s0.ru_stime) / jobs
    cores = os.cpu_count() or 1
    print(f"{jobs} jobs of `md5sum F | cut -c1-32`, one at a time: wall {wall / jobs * 1000:.3f} ms/job, "
          f"children CPU {child * 1000:.3f} ms/job, spawner CPU {own * 1000:.3f} ms/job")
    print(f"floor for 10,000 such jobs on {cores} cores: {10000 * child / cores:.2f} s "
          f"(children only; LANG={env.get('LANG', '')!r} LC_ALL={env.get('LC_ALL', '')!r})")


if __name__ == "__main__":
    main()
