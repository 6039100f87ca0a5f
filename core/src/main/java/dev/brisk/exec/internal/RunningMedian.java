// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

/**
 * The median of the non-negative values added so far, to within 1/64 of its value, in constant
 * memory: a histogram of logarithmic buckets, 64 to each power of two. A run of a million jobs
 * keeps 30 KB here where the exact median (two heaps) kept every job's runtime and cost a log-time
 * insertion per job. Thread-safe (synchronized).
 */
public final class RunningMedian {
    private static final int SUB = 64;
    private static final int SUB_BITS = 6;

    private final long[] counts = new long[(64 - SUB_BITS) * SUB];
    private long count;
    private long cached;
    private long cachedAt = -1;

    /** Adds {@code v} (negative values count as 0). */
    public synchronized void add(long v) {
        counts[bucket(Math.max(0, v))]++;
        count++;
    }

    public synchronized long count() {
        return count;
    }

    /**
     * The median, or 0 when empty: exact below 64, else within 1/64 of the true median. Recomputed
     * when the count has grown by more than 1/64 since the last call, so a call costs O(1) on
     * average however often it is made.
     */
    public synchronized long median() {
        if (count == 0) {
            return 0;
        }
        if (cachedAt < 0 || count - cachedAt > cachedAt / SUB) {
            cached = compute();
            cachedAt = count;
        }
        return cached;
    }

    private long compute() {
        long half = (count + 1) / 2;
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= half) {
                return middle(i);
            }
        }
        return middle(counts.length - 1);
    }

    static int bucket(long v) {
        if (v < SUB) {
            return (int) v;
        }
        int e = 63 - Long.numberOfLeadingZeros(v); // >= SUB_BITS
        int mantissa = (int) (v >>> (e - SUB_BITS)) & (SUB - 1);
        return (e - SUB_BITS + 1) * SUB + mantissa;
    }

    /** The middle of bucket {@code i}'s range of values. */
    static long middle(int i) {
        if (i < SUB) {
            return i;
        }
        int e = i / SUB + SUB_BITS - 1;
        long low = ((long) (SUB + i % SUB)) << (e - SUB_BITS);
        long width = 1L << (e - SUB_BITS);
        return low + width / 2;
    }
}
