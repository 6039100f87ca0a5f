// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import java.time.Duration;

/**
 * Settings of a running copy that may change while it runs, as pv's {@code --remote} changes
 * them: the expected size and the interval between snapshots. The copy's reporting thread reads
 * them at every snapshot; the rate limit changes through {@link RateLimiter#setBytesPerSecond}.
 *
 * <p>Thread-safe: any thread may set them while the copy runs. A value never set leaves the
 * copy's own option in force.
 *
 * <pre>{@code
 * LiveSettings live = new LiveSettings();
 * Meter meter = new Meter(options, listener, live);
 * // from another thread, while meter.copy(...) runs:
 * live.size(8L << 30);
 * live.interval(Duration.ofMillis(250));
 * }</pre>
 */
public final class LiveSettings {
    private volatile long size = -1;
    private volatile long intervalNanos;

    /** Settings with nothing set: the copy follows its own options until one is. */
    public LiveSettings() {}

    /** The expected total from now on (bytes, or lines in line mode); must be positive. */
    public void size(long total) {
        if (total <= 0) {
            throw new IllegalArgumentException("size must be positive, got " + total);
        }
        size = total;
    }

    /** The time between snapshots from now on; at least 1 ms. */
    public void interval(Duration interval) {
        if (interval.toMillis() < 1) {
            throw new IllegalArgumentException("interval must be at least 1 ms, got " + interval);
        }
        intervalNanos = interval.toNanos();
    }

    /** The size set, or -1 when none was. */
    public long size() {
        return size;
    }

    /** The interval set in nanoseconds, or 0 when none was. */
    public long intervalNanos() {
        return intervalNanos;
    }
}
