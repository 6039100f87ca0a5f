// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.Halt;
import dev.brisk.exec.JobResult;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A run's {@code --halt} policy: counts finished jobs (succeeded, failed, done) and decides, by
 * GNU parallel's rules, which job halts the run, the exit status it leaves, and the message
 * GNU parallel prints for it. Thread-safe.
 */
final class HaltPolicy {
    private final Halt halt;
    private long failed;
    private long succeeded;
    private long done;
    private boolean halted;
    private int status;
    /** Set when {@code --halt now} stops the run: the running jobs are killed. */
    private volatile boolean now;

    /** How many jobs the run has, when known before it starts (for a percentage), else 0. */
    private long total;

    HaltPolicy(Halt halt) {
        this.halt = halt;
    }

    /**
     * The number of jobs of the run, known before it starts: a percentage is then a share of
     * them, and the status it leaves the share of them that failed, as GNU parallel's.
     */
    synchronized void total(long jobs) {
        total = jobs;
    }

    /** What {@link #count} found for a finished job. */
    enum Verdict {
        /** Nothing to say: the job does not count towards the halt ({@code --halt now} killed it). */
        NONE,
        /** The job counts (GNU parallel names it on stderr); the run goes on. */
        NOTED,
        /** The job counts and halts the run. */
        HALTS
    }

    /**
     * Counts {@code r}: as GNU parallel, every job that counts towards the halt's event (each
     * failed job of {@code fail}, each succeeded one of {@code success}, each of {@code done}) is
     * named, not only the one that halts the run; after {@code --halt now} only one that had
     * ended by itself before the halt killed the others (GNU parallel reaps those first), not
     * one the halt killed.
     */
    synchronized Verdict count(JobResult r) {
        done++;
        if (r.ok()) {
            succeeded++;
        } else {
            failed++;
        }
        if (halt.when() == Halt.When.NEVER || now && r.exitCode() == -1) {
            return Verdict.NONE;
        }
        boolean counts = switch (halt.event()) {
            case FAIL -> !r.ok();
            case SUCCESS -> r.ok();
            case DONE -> true;
        };
        if (!counts) {
            return Verdict.NONE;
        }
        if (halted) {
            return Verdict.NOTED;
        }
        long counted = switch (halt.event()) {
            case FAIL -> failed;
            case SUCCESS -> succeeded;
            case DONE -> done;
        };
        if (!halt.reached(counted, done, total)) {
            return Verdict.NOTED;
        }
        halted = true;
        if (halt.event() == Halt.Event.SUCCESS) {
            status = 0;
        } else if (halt.percent() > 0 && total > 0 && total * halt.percent() / 100.0 != 1.0) {
            status = (int) Math.ceil(failed * 100.0 / total); // GNU parallel's: the share of all jobs that failed
        } else if (halt.percent() == 0 && halt.count() > 1) {
            status = (int) Math.min(failed, 101); // GNU parallel's: the number of failed jobs
        } else {
            status = halt.event() == Halt.Event.FAIL ? (r.exitCode() > 0 ? r.exitCode() : 1) : Math.max(0, r.exitCode());
        }
        now = halt.when() == Halt.When.NOW;
        return Verdict.HALTS;
    }

    synchronized boolean halted() {
        return halted;
    }

    /** Whether {@code --halt now} stopped the run (its running jobs are killed, their output not printed). */
    boolean haltedNow() {
        return now;
    }

    /** The exit status the halt leaves (the halting job's with {@code fail}). */
    synchronized int status() {
        return status;
    }

    synchronized long failed() {
        return failed;
    }

    synchronized long done() {
        return done;
    }

    /**
     * GNU parallel's words for the counted job {@code r}, prefixed {@code brisk:}; when it
     * halts the run {@code soon} while {@code running} other jobs run, the note that they are
     * waited for.
     */
    byte[] message(JobResult r, boolean halts, long running) {
        String what = halt.event() == Halt.Event.DONE ? "finished" : r.ok() ? "succeeded" : "failed";
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(("brisk: This job " + what + ":\n").getBytes(StandardCharsets.UTF_8));
        b.writeBytes(r.command());
        b.write('\n');
        if (halts && !now && running > 0) {
            b.writeBytes(("brisk: Starting no more jobs. Waiting for " + running + " jobs to finish.\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        return b.toByteArray();
    }
}
