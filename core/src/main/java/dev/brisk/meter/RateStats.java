// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import java.util.Locale;

/**
 * pv's {@code --stats}: the minimum, mean, maximum and standard deviation of the transfer rate,
 * in bytes (or bits) per second, over the progress snapshots of a copy, summed up in one line
 * at the end as {@code rate min/avg/max/mdev = 1.000/2.000/3.000/0.816 B/s}, or
 * {@code rate not measured} when the copy ended before the first snapshot.
 *
 * <p>Receives the same snapshots as the display (pass both to the meter with
 * {@link ProgressListener#both}); not thread-safe, the meter never calls it concurrently.
 */
public final class RateStats implements ProgressListener {
    private long count;
    private double sum;
    private double squares;
    private double min = Double.MAX_VALUE;
    private double max;
    private long lastBytes;
    private long lastNanos;

    /** Empty statistics, ready for the first snapshot. */
    public RateStats() {}

    @Override
    public void onProgress(Progress p) {
        if (p.finished()) {
            return;
        }
        long nanos = p.elapsedNanos() - lastNanos;
        if (nanos <= 0) {
            return;
        }
        double rate = Math.max(0, p.bytes() - lastBytes) * 1e9 / nanos;
        lastBytes = p.bytes();
        lastNanos = p.elapsedNanos();
        count++;
        sum += rate;
        squares += rate * rate;
        min = Math.min(min, rate);
        max = Math.max(max, rate);
    }

    @Override
    public void onProblem(String message) {}

    /** The summary line, without its newline; rates in bits when {@code bits}. */
    public String summary(boolean bits) {
        if (count == 0) {
            return "rate not measured";
        }
        double k = bits ? 8 : 1;
        double mean = sum / count;
        double deviation = Math.sqrt(Math.max(0, squares / count - mean * mean));
        return String.format(Locale.ROOT, "rate min/avg/max/mdev = %.3f/%.3f/%.3f/%.3f %s",
                min * k, mean * k, max * k, deviation * k, bits ? "b/s" : "B/s");
    }
}
