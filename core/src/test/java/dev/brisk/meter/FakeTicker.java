// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

/** A clock that moves only when a test says so. Not thread-safe. */
final class FakeTicker implements Ticker {
    private long now = 1_000_000_000L;

    @Override
    public long nanoTime() {
        return now;
    }

    void advanceNanos(long nanos) {
        now += nanos;
    }

    void advanceMillis(long millis) {
        now += millis * 1_000_000L;
    }
}
