// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

/**
 * One snapshot of a metered copy, as a {@link ProgressListener} receives it.
 *
 * @param bytes        bytes delivered so far (less any still unread in an output pipe)
 * @param count        the counted quantity: bytes, or lines in line mode
 * @param size         expected total of {@code count}, or -1 when unknown
 * @param elapsedNanos time since the copy started (or since its first byte, when waiting)
 * @param rate         current rate in count units per second (since the previous snapshot;
 *                     over the whole copy in the final one)
 * @param averageRate  rate over the averaging window (over the whole copy in the final one)
 * @param etaNanos     estimated time to completion, or -1 when the size is unknown
 * @param finished     true for the final snapshot
 * @param spliced      true if data moved without passing through the meter's buffer
 * @param tail         the last bytes written, when the options asked for them (else empty)
 * @param previousLine the first bytes (up to {@link #LINE_KEPT}) of the last complete line
 *                     written, without its newline, when the options asked for it (else empty)
 * @param bufferPercent how full the copy's buffer is, 0-100 (read and not yet written: pv's
 *                     {@code -T}), or -1 when not measured
 */
public record Progress(long bytes, long count, long size, long elapsedNanos, double rate,
        double averageRate, long etaNanos, boolean finished, boolean spliced, byte[] tail, byte[] previousLine,
        int bufferPercent) {

    /** How much of the last line a copy keeps for {@link #previousLine}, as pv's buffer does. */
    public static final int LINE_KEPT = 1024;

    /** A snapshot whose buffer was not measured. */
    public Progress(long bytes, long count, long size, long elapsedNanos, double rate,
            double averageRate, long etaNanos, boolean finished, boolean spliced, byte[] tail, byte[] previousLine) {
        this(bytes, count, size, elapsedNanos, rate, averageRate, etaNanos, finished, spliced, tail, previousLine, -1);
    }

    /** This snapshot with the buffer's fill, {@code percent} (0-100, or -1: not measured). */
    public Progress withBufferPercent(int percent) {
        return new Progress(bytes, count, size, elapsedNanos, rate, averageRate, etaNanos, finished, spliced, tail,
                previousLine, percent);
    }

    /** A snapshot without a previous line. */
    public Progress(long bytes, long count, long size, long elapsedNanos, double rate,
            double averageRate, long etaNanos, boolean finished, boolean spliced, byte[] tail) {
        this(bytes, count, size, elapsedNanos, rate, averageRate, etaNanos, finished, spliced, tail, new byte[0]);
    }

    /** Whole percent of {@link #size} done (may exceed 100), or -1 when the size is unknown. */
    public long percent() {
        if (size <= 0) {
            return -1;
        }
        return count <= Long.MAX_VALUE / 100 ? count * 100 / size : (long) (count * 100.0 / size);
    }
}
