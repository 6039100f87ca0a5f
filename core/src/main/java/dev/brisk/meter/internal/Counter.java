// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import dev.brisk.meter.Progress;
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
    private final boolean keepLines;
    private final byte[] partial; // the start of the line being written (copying thread only)
    private int partialLength;
    private volatile byte[] previousLine = new byte[0];
    private volatile int bufferPercent = -1;

    public Counter(Ticker ticker, int tailLength) {
        this(ticker, tailLength, false);
    }

    /** @param keepLines keep the start of the last complete line written (pv's {@code %L}) */
    public Counter(Ticker ticker, int tailLength, boolean keepLines) {
        this.ticker = ticker;
        this.tailLength = tailLength;
        this.keepLines = keepLines;
        this.partial = keepLines ? new byte[Progress.LINE_KEPT] : null;
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

    /** Notes that {@code held} bytes of a buffer of {@code capacity} are read and not yet written (copying thread only). */
    public void buffered(long held, long capacity) {
        int percent = capacity > 0 ? (int) Math.min(100, held * 100 / capacity) : -1;
        if (percent != bufferPercent) {
            bufferPercent = percent;
        }
    }

    /** How full the buffer is, 0-100 ({@code pv -T}), or -1 when no read/write copy has measured it. */
    public int bufferPercent() {
        return bufferPercent;
    }

    /** Notes that data moved without passing through the buffer. */
    public void spliced() {
        if (!spliced) {
            spliced = true;
        }
    }

    /**
     * Remembers the last bytes of {@code data[0, len)} when a tail was asked for, and the start of
     * the last line completed in it when lines are kept (copying thread only).
     */
    public void tail(MemorySegment data, long len) {
        if (keepLines && len > 0) {
            lines(data, len);
        }
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

    /** Only the newest two newlines matter: the line between them, and the start of the one after. */
    private void lines(MemorySegment data, long len) {
        long last = lastNewline(data, len);
        if (last < 0) {
            append(data, 0, len);
            return;
        }
        long before = lastNewline(data, last);
        if (before >= 0) {
            partialLength = 0; // a whole line inside this chunk
            append(data, before + 1, last - before - 1);
        } else {
            append(data, 0, last); // the line begun in an earlier chunk ends here
        }
        byte[] done = new byte[partialLength];
        System.arraycopy(partial, 0, done, 0, partialLength);
        previousLine = done;
        partialLength = 0;
        append(data, last + 1, len - last - 1);
    }

    /** The index of the last newline in {@code data[0, end)}, or -1. */
    private static long lastNewline(MemorySegment data, long end) {
        for (long i = end - 1; i >= 0; i--) {
            if (data.get(ValueLayout.JAVA_BYTE, i) == '\n') {
                return i;
            }
        }
        return -1;
    }

    private void append(MemorySegment data, long from, long n) {
        int room = partial.length - partialLength;
        int take = (int) Math.min(room, Math.max(0, n));
        if (take > 0) {
            MemorySegment.copy(data, ValueLayout.JAVA_BYTE, from, partial, partialLength, take);
            partialLength += take;
        }
    }

    /** The start of the last complete line written, without its newline (empty before the first). */
    public byte[] previousLine() {
        return previousLine;
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
