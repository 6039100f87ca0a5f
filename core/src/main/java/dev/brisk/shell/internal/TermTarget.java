// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.internal.posix.Signals;
import dev.brisk.internal.shell.ProcessSweep;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Where a timed-out command's SIGTERM went: its process group, or (a shell without job control)
 * its worker's session but the worker. The SIGKILL after the grace goes to the same place, also
 * when the command's shell has already ended and only a child that ignores SIGTERM is left, so a
 * timeout leaves nothing of the command running. Immutable; one command's poll loop uses it.
 */
final class TermTarget {
    /** Nothing to follow up: no TERM went out, or it went to the worker itself (which then goes). */
    static final TermTarget NONE = new TermTarget(-1, -1);

    /** A process group, or -1. */
    private final int pgid;
    /** The worker whose session, but for itself, is the target, or -1. */
    private final int worker;

    private TermTarget(int pgid, int worker) {
        this.pgid = pgid;
        this.worker = worker;
    }

    static TermTarget group(int pgid) {
        return new TermTarget(pgid, -1);
    }

    /** The session of worker {@code pid} (its session leader), but the worker. */
    static TermTarget sessionOf(int pid) {
        return new TermTarget(-1, pid);
    }

    /** Whether any process of the target is left (a zombie counts until reaped). */
    boolean alive() {
        if (worker > 0) {
            return !ProcessSweep.members(worker, worker).isEmpty();
        }
        try {
            return pgid > 0 && Libc.kill(-pgid, 0);
        } catch (PosixException e) {
            return false; // EPERM: the group is not ours any more
        }
    }

    void signal(int signal) {
        if (worker > 0) {
            ProcessSweep.signal(worker, worker, signal);
        } else if (pgid > 0) {
            Libc.signal(-pgid, signal);
        }
    }

    /**
     * After the command has ended: waits until nothing of the target is left, or until
     * {@code killAt} ({@link System#nanoTime}) or an interrupt, and then sends SIGKILL. Returns at
     * once when nothing is left, so a command that TERM ended costs no wait.
     */
    void killRemains(long killAt) {
        while (alive()) {
            long now = System.nanoTime();
            if (now >= killAt || Thread.currentThread().isInterrupted()) {
                signal(Signals.SIGKILL);
                return;
            }
            LockSupport.parkNanos(Math.min(killAt - now, TimeUnit.MILLISECONDS.toNanos(10)));
        }
    }
}
