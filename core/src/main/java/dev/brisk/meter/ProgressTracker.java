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
 * <p>The window is pv's history: a point every second (every 5 s for a window of 20 s or more)
 * whatever the display interval, the first at the first snapshot, whose average is its current
 * rate; between points the average stays as it was. A pause in the input thus lowers the
 * average only once a point falls in it, never to the 0 of a window that spans the pause alone.
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
    private double average;

    /**
     * @param size          expected total count, or -1 (or 0) when unknown
     * @param averageWindow the window of the average rate and of the ETA (whole seconds; at least 1)
     */
    public ProgressTracker(long size, Duration averageWindow) {
        this.size = size > 0 ? size : -1;
        long window = Math.max(1, averageWindow.toSeconds());
        long stepSeconds = window >= 20 ? 5 : 1;
        this.historyStep = stepSeconds * 1_000_000_000L;
        this.historyLength = (int) Math.min(window / stepSeconds + 1, 100_000);
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
        if (last != null && elapsed < last[0] + historyStep) {
            return average;
        }
        history.addLast(new long[] {elapsed, count});
        while (history.size() > historyLength) {
            history.removeFirst();
        }
        long[] first = history.peekFirst();
        average = history.size() == 1 ? rate : (count - first[1]) * 1e9 / (elapsed - first[0]);
        return average;
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
