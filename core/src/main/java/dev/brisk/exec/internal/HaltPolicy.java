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

    HaltPolicy(Halt halt) {
        this.halt = halt;
    }

    /** Counts {@code r}; true when it is the job that halts the run. */
    synchronized boolean count(JobResult r) {
        done++;
        if (r.ok()) {
            succeeded++;
        } else {
            failed++;
        }
        if (halted || halt.when() == Halt.When.NEVER) {
            return false;
        }
        long counted = switch (halt.event()) {
            case FAIL -> r.ok() ? 0 : failed;
            case SUCCESS -> r.ok() ? succeeded : 0;
            case DONE -> done;
        };
        if (!halt.reached(counted, done, 0)) {
            return false;
        }
        halted = true;
        status = halt.event() == Halt.Event.FAIL ? (r.exitCode() > 0 ? r.exitCode() : 1) : 0;
        now = halt.when() == Halt.When.NOW;
        return true;
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
     * GNU parallel's words for the halting job {@code r}, prefixed {@code brisk:}; with
     * {@code othersRunning} (and {@code soon}) the note that the running jobs are waited for.
     */
    byte[] message(JobResult r, boolean othersRunning) {
        String what = halt.event() == Halt.Event.DONE ? "finished" : r.ok() ? "succeeded" : "failed";
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(("brisk: This job " + what + ":\n").getBytes(StandardCharsets.UTF_8));
        b.writeBytes(r.command());
        b.write('\n');
        if (!now && othersRunning) {
            b.writeBytes("brisk: Starting no more jobs. Waiting for the running jobs to finish.\n".getBytes(StandardCharsets.UTF_8));
        }
        return b.toByteArray();
    }
}
