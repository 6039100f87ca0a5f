// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * pv's integer amounts with an optional binary suffix: {@code 4096}, {@code 10k}, {@code 1 M},
 * {@code 2G}, {@code 1T} (case-insensitive, powers of 1024; leading blanks allowed). Anything else
 * (decimals, {@code 10Q}, {@code 10KiB}, signs) is rejected, as pv 1.6 rejects it. Stateless.
 */
public final class ByteSize {
    private static final Pattern SYNTAX = Pattern.compile("\\s*(\\d+)\\s*([kKmMgGtT]?)");

    private ByteSize() {}

    /**
     * The value of {@code text} in bytes.
     *
     * @throws IllegalArgumentException naming {@code text} if it is not such an amount or
     *                                  overflows 64 bits
     */
    public static long parse(String text) {
        Matcher m = SYNTAX.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a size: '" + text + "'");
        }
        int shift = switch (m.group(2).toLowerCase(java.util.Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        try {
            long v = Long.parseLong(m.group(1));
            if (v > (Long.MAX_VALUE >> shift)) {
                throw new IllegalArgumentException("size too large: '" + text + "'");
            }
            return v << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("size too large: '" + text + "'", e);
        }
    }
}
