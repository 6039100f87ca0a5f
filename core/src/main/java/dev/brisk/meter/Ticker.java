// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

/**
 * A source of monotonic time in nanoseconds, injected so that rates, ETAs and rate limits can
 * be tested with a fake clock instead of sleeping. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface Ticker {
    /** Nanoseconds from an arbitrary fixed origin; only differences are meaningful. */
    long nanoTime();

    /** The JVM's monotonic clock ({@link System#nanoTime()}). */
    static Ticker system() {
        return System::nanoTime;
    }
}
