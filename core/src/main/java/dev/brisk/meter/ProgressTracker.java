// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import java.time.Duration;
import java.util.ArrayDeque;

/**
 * Turns a running count into rates and an ETA, the way pv does: the current rate over the time
 * since the previous snapshot, the average rate over a sliding window (pv's
 * {@code --average-rate-window}, default 30 s) which also drives the ETA, and in the final
 * snapshot both rates over the whole copy.
 *
 * <p>Pure: every method takes the current time, so tests feed it fake times. Not thread-safe;
 * the meter calls it from one thread at a time.
 */
public final class ProgressTracker {
    private static final long MIN_RATE_NANOS = 10_000_000L; // rate spikes below 10 ms, as pv

    private long size;
    private final long historyStep;
    private final int historyLength;
    private final ArrayDeque<long[]> history = new ArrayDeque<>(); // {elapsed, count}
    private long start;
    private boolean started;
    private long rateSince;
    private long rateCount;
    private double rate;

    /**
     * @param size          expected total count, or -1 (or 0) when unknown
     * @param averageWindow the window of the average rate and of the ETA
     * @param interval      how often snapshots are taken (the history's step)
     */
    public ProgressTracker(long size, Duration averageWindow, Duration interval) {
        this.size = size > 0 ? size : -1;
        this.historyStep = Math.max(1, interval.toNanos());
        this.historyLength = Math.clamp(averageWindow.toNanos() / historyStep + 1, 2, 1000);
    }

    /** Starts the clock at {@code now} (a second call is ignored). */
    public void start(long now) {
        if (!started) {
            started = true;
            start = now;
            rateSince = 0;
        }
    }

    /** Whether {@link #start} has been called. */
    public boolean started() {
        return started;
    }

    /** The expected total, or -1. */
    public long size() {
        return size;
    }

    /** A new expected total (pv {@code -R PID -s SIZE}), used from the next snapshot on. */
    public void resize(long total) {
        this.size = total > 0 ? total : -1;
    }

    /** A snapshot at {@code now} with {@code count} done so far. */
    public Progress update(long bytes, long count, long now, boolean spliced, byte[] tail) {
        return update(bytes, count, now, spliced, tail, new byte[0]);
    }

    /** A snapshot at {@code now}, with the last complete line written ({@link Progress#previousLine}). */
    public Progress update(long bytes, long count, long now, boolean spliced, byte[] tail, byte[] previousLine) {
        start(now);
        long elapsed = Math.max(0, now - start);
        long sinceLast = elapsed - rateSince;
        if (sinceLast > MIN_RATE_NANOS) {
            rate = (count - rateCount) * 1e9 / sinceLast;
            rateSince = elapsed;
            rateCount = count;
        }
        double average = record(elapsed, count);
        return new Progress(bytes, count, size, elapsed, rate, average, eta(count, average), false, spliced, tail,
                previousLine);
    }

    /** The final snapshot: rates over the whole copy, ETA zero. */
    public Progress finish(long bytes, long count, long now, boolean spliced, byte[] tail) {
        return finish(bytes, count, now, spliced, tail, new byte[0]);
    }

    /** The final snapshot, with the last complete line written. */
    public Progress finish(long bytes, long count, long now, boolean spliced, byte[] tail, byte[] previousLine) {
        start(now);
        long elapsed = Math.max(1000, now - start);
        double whole = count * 1e9 / elapsed;
        return new Progress(bytes, count, size, elapsed, whole, whole, size > 0 ? 0 : -1, true, spliced, tail,
                previousLine);
    }

    private double record(long elapsed, long count) {
        long[] last = history.peekLast();
        if (last == null || elapsed >= last[0] + historyStep) {
            history.addLast(new long[] {elapsed, count});
            while (history.size() > historyLength) {
                history.removeFirst();
            }
        }
        long[] first = history.peekFirst();
        last = history.peekLast();
        if (first == last || last[0] == first[0]) {
            return rate;
        }
        return (last[1] - first[1]) * 1e9 / (last[0] - first[0]);
    }

    private long eta(long count, double average) {
        if (size <= 0) {
            return -1;
        }
        if (count < 1 || average <= 0) {
            return 0;
        }
        return (long) (Math.max(0, size - count) / average * 1e9);
    }
}
