// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import java.util.regex.Pattern;

/**
 * Numbers in find's arguments read as GNU find reads them, with C's conversions: gnulib's
 * {@code xstrtoumax} (base 10, no suffix) for counts such as {@code -links} and {@code -size},
 * and {@code strtod} for the ages of {@code -mtime} and friends. Both skip leading white space;
 * neither allows anything after the number.
 */
final class Numbers {
    private Numbers() {}

    /**
     * C's strtod grammar, after the white space: decimal, hexadecimal, infinity or NaN. In a
     * class of its own, compiled only when a number is not plain digits: the regular
     * expression's classes are not in find's AOT cache, and every {@code -size} or {@code -mtime}
     * run would load and compile it at start-up.
     */
    private static final class Strtod {
        static final Pattern GRAMMAR = Pattern.compile("[+-]?(?:(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
                + "|0[xX](?:[0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?"
                + "|(?i:inf(?:inity)?|nan(?:\\([0-9A-Za-z_]*\\))?))");
    }

    /**
     * {@code s} as {@code xstrtoumax(s, 10, "")} reads it (white space, an optional {@code +},
     * digits; no {@code -}), as an unsigned 64-bit value in a long; null if it is not one or
     * does not fit.
     */
    static Long unsigned(String s) {
        int i = skipSpace(s, 0);
        if (i < s.length() && s.charAt(i) == '+') {
            i++;
        }
        int digits = i;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        if (i == digits || i != s.length()) {
            return null;
        }
        try {
            return Long.parseUnsignedLong(s.substring(digits));
        } catch (NumberFormatException overflow) {
            return null;
        }
    }

    /**
     * {@code s} as {@code xstrtod(s, NULL, ..., strtod)} reads it: the whole string one C
     * floating-point number, overflow refused (underflow is 0); null otherwise. NaN, which GNU
     * find 4.9 accepts and then aborts on (an assertion), is refused here.
     */
    static Double decimal(String s) {
        String t = s.substring(skipSpace(s, 0));
        if (!t.isEmpty() && t.length() <= 18 && digitsOnly(t)) {
            return (double) Long.parseLong(t); // the usual case (-mtime 1): exact, as strtod's
        }
        if (!Strtod.GRAMMAR.matcher(t).matches()) {
            return null;
        }
        String lower = t.toLowerCase(java.util.Locale.ROOT);
        String body = lower.startsWith("+") || lower.startsWith("-") ? lower.substring(1) : lower;
        boolean negative = lower.startsWith("-");
        if (body.startsWith("nan")) {
            return null;
        }
        if (body.startsWith("inf")) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (body.startsWith("0x") && body.indexOf('p') < 0) {
            t = t + "p0"; // Java's hexadecimal form needs the exponent C leaves optional
        }
        double d = Double.parseDouble(t);
        return Double.isInfinite(d) ? null : d;
    }

    /** Whether {@code t} is ASCII digits only (true for the empty string). */
    static boolean digitsOnly(String t) {
        for (int i = 0; i < t.length(); i++) {
            if (t.charAt(i) < '0' || t.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** The index of the first character at or after {@code i} that is not C's white space. */
    private static int skipSpace(String s, int i) {
        while (i < s.length() && " \t\n\u000b\f\r".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        return i;
    }
}
