// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import dev.brisk.meter.Ticker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The running totals of one copy: written by the copying thread only, read by the reporting
 * thread. Fields are volatile so a snapshot never sees a torn or stale-forever value; one writer
 * makes read-modify-write safe without atomics.
 */
public final class Counter {
    private final Ticker ticker;
    private final int tailLength;
    private volatile long bytes;
    private volatile long lines;
    private volatile long firstByteAt;
    private volatile boolean spliced;
    private volatile byte[] tail = new byte[0];

    public Counter(Ticker ticker, int tailLength) {
        this.ticker = ticker;
        this.tailLength = tailLength;
    }

    /** Adds {@code n} bytes and {@code newLines} lines (copying thread only). */
    public void add(long n, long newLines) {
        if (n <= 0 && newLines <= 0) {
            return;
        }
        if (firstByteAt == 0) {
            firstByteAt = ticker.nanoTime() | 1; // never 0, which means "not yet"
        }
        bytes = bytes + n;
        if (newLines > 0) {
            lines = lines + newLines;
        }
    }

    /** Notes that data moved without passing through the buffer. */
    public void spliced() {
        if (!spliced) {
            spliced = true;
        }
    }

    /** Remembers the last bytes of {@code data[0, len)} when a tail was asked for. */
    public void tail(MemorySegment data, long len) {
        if (tailLength == 0 || len <= 0) {
            return;
        }
        byte[] old = tail;
        int keep = (int) Math.min(tailLength, len);
        int fromOld = Math.min(old.length, tailLength - keep);
        byte[] next = new byte[fromOld + keep];
        System.arraycopy(old, old.length - fromOld, next, 0, fromOld);
        MemorySegment.copy(data, ValueLayout.JAVA_BYTE, len - keep, next, fromOld, keep);
        tail = next;
    }

    public long bytes() {
        return bytes;
    }

    public long lines() {
        return lines;
    }

    /** Ticker time of the first byte, or 0 before it. */
    public long firstByteAt() {
        return firstByteAt;
    }

    public boolean wasSpliced() {
        return spliced;
    }

    public byte[] tail() {
        return tail;
    }
}
