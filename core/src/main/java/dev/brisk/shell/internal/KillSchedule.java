// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import java.util.concurrent.TimeUnit;

/**
 * When a running command gets which signal: at its timeout SIGTERM (to its process group), a
 * grace period later SIGKILL, and if the shell still has not reported the command's end some
 * time after that, the worker is given up. An abort (the pool closing, an interrupt, output
 * that cannot be delivered) skips to SIGKILL at once. Time is passed in ({@code now} from
 * {@link System#nanoTime}), so the schedule is tested without sleeping. Not thread-safe: one
 * command's poll loop drives it.
 */
final class KillSchedule {
    /** What the poll loop must do now. */
    enum Step {
        /** Nothing is due. */
        NONE,
        /** The timeout has come: SIGTERM, unless the command has just ended. */
        TERM,
        /** The grace period is over: SIGKILL. */
        KILL,
        /** The shell has not answered even SIGKILL: give the worker up. */
        GIVE_UP
    }

    /** How long after SIGKILL the shell gets to report the end, at least. */
    static final long KILL_ANSWER_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final long timeoutAt;
    private final long graceNanos;
    private Step last = Step.NONE;
    private long nextAt = Long.MAX_VALUE;

    /** {@code timeoutAt}: when the command times out ({@code Long.MAX_VALUE}: never). */
    KillSchedule(long timeoutAt, long graceNanos) {
        this.timeoutAt = timeoutAt;
        this.graceNanos = graceNanos;
    }

    /** The command must die now: the caller sends SIGKILL; the worker is given up if that is not answered. */
    void killNow(long now) {
        last = Step.KILL;
        nextAt = now + Math.max(graceNanos, KILL_ANSWER_NANOS);
    }

    /** Whether any signal has been scheduled or sent (after a timeout or {@link #killNow}). */
    boolean started() {
        return last != Step.NONE;
    }

    /** The step whose time has come at {@code now} (the schedule moves past it), or {@link Step#NONE}. */
    Step due(long now) {
        switch (last) {
            case NONE -> {
                if (now >= timeoutAt) {
                    last = Step.TERM;
                    nextAt = now + graceNanos;
                    return Step.TERM;
                }
            }
            case TERM -> {
                if (now >= nextAt) {
                    killNow(now);
                    return Step.KILL;
                }
            }
            case KILL -> {
                if (now >= nextAt) {
                    last = Step.GIVE_UP;
                    return Step.GIVE_UP;
                }
            }
            case GIVE_UP -> {
                return Step.GIVE_UP;
            }
        }
        return Step.NONE;
    }

    /** Whether SIGTERM has gone and SIGKILL is still to come, at {@link #nextDeadline}. */
    boolean awaitingKill() {
        return last == Step.TERM;
    }

    /** When the next step falls due ({@code Long.MAX_VALUE}: none is scheduled). */
    long nextDeadline() {
        return last == Step.NONE ? timeoutAt : nextAt;
    }
}
