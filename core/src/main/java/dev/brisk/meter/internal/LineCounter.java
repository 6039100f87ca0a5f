// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Counts line terminators in memory eight bytes at a time (an exact zero-byte test on
 * {@code word ^ pattern}), so line mode stays near memory speed. Stateless and thread-safe.
 */
public final class LineCounter {
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

    private LineCounter() {}

    /** How many bytes equal to {@code delimiter} are in {@code s[0, len)}. */
    public static long count(MemorySegment s, long len, byte delimiter) {
        long pattern = 0x0101010101010101L * (delimiter & 0xff);
        long n = 0;
        long i = 0;
        for (; i + 8 <= len; i += 8) {
            n += Long.bitCount(zeroBytes(s.get(WORD, i) ^ pattern));
        }
        for (; i < len; i++) {
            if (s.get(ValueLayout.JAVA_BYTE, i) == delimiter) {
                n++;
            }
        }
        return n;
    }

    /**
     * The length of the prefix of {@code s[0, len)} that ends with its {@code nth} delimiter
     * ({@code nth >= 1}), or -1 if it holds fewer.
     */
    public static long prefixWith(MemorySegment s, long len, byte delimiter, long nth) {
        long seen = 0;
        for (long i = 0; i < len; i++) {
            if (s.get(ValueLayout.JAVA_BYTE, i) == delimiter && ++seen == nth) {
                return i + 1;
            }
        }
        return -1;
    }

    /** 0x80 in each byte of the result where {@code x} has a zero byte, 0 elsewhere; exact. */
    private static long zeroBytes(long x) {
        long y = (x & LOW7) + LOW7;
        return ~(y | x | LOW7);
    }
}
