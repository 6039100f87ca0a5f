// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import java.nio.charset.StandardCharsets;

/**
 * Names in messages quoted as GNU find quotes them: gnulib's {@code quotearg} in its
 * {@code locale_quoting_style}. The quotes are {@code ‘ ’} in a UTF-8 locale and {@code ' '}
 * otherwise; a backslash, the closing quote, and {@code \a \b \f \n \r \t \v} get a backslash;
 * other control characters and every byte that is not part of a printable character of the
 * locale (in the C locale, every byte above 127) are written as three octal digits ({@code \377}).
 * The result is plain ASCII outside UTF-8 locales, so it survives any stderr encoding.
 */
final class Quote {
    private Quote() {}

    /** {@code s} (its UTF-8 bytes) quoted. */
    static String q(String s) {
        return q(s.getBytes(StandardCharsets.UTF_8));
    }

    static String q(byte[] b) {
        return q(b, 0, b.length);
    }

    /** {@code b[from, to)} quoted for the current {@link dev.brisk.internal.posix.Caller}'s locale. */
    static String q(byte[] b, int from, int to) {
        boolean utf8 = dev.brisk.internal.posix.Environ.utf8Locale();
        StringBuilder sb = new StringBuilder(to - from + 2).append(utf8 ? '\u2018' : '\'');
        int i = from;
        while (i < to) {
            int c = b[i] & 0xff;
            if (c < 0x80) {
                switch (c) {
                    case 7 -> sb.append("\\a");
                    case 8 -> sb.append("\\b");
                    case 12 -> sb.append("\\f");
                    case 10 -> sb.append("\\n");
                    case 13 -> sb.append("\\r");
                    case 9 -> sb.append("\\t");
                    case 11 -> sb.append("\\v");
                    case '\\' -> sb.append("\\\\");
                    default -> {
                        if (c < 32 || c == 127) {
                            octal(sb, c);
                        } else {
                            if (c == '\'' && !utf8) {
                                sb.append('\\');
                            }
                            sb.append((char) c);
                        }
                    }
                }
                i++;
                continue;
            }
            int len = utf8 ? charLength(b, i, to) : 0;
            if (len > 0) {
                int cp = new String(b, i, len, StandardCharsets.UTF_8).codePointAt(0);
                if (printable(cp)) {
                    if (cp == 0x2019) {
                        sb.append('\\');
                    }
                    sb.appendCodePoint(cp);
                } else {
                    for (int k = 0; k < len; k++) {
                        octal(sb, b[i + k] & 0xff);
                    }
                }
                i += len;
            } else {
                octal(sb, c);
                i++;
            }
        }
        return sb.append(utf8 ? '\u2019' : '\'').toString();
    }

    private static void octal(StringBuilder sb, int c) {
        sb.append('\\').append((char) ('0' + (c >> 6))).append((char) ('0' + ((c >> 3) & 7))).append((char) ('0' + (c & 7)));
    }

    /** The length of the valid UTF-8 character at {@code i}, or 0. */
    private static int charLength(byte[] b, int i, int to) {
        int[] one = Glob.chars(b, i, Math.min(to, i + 4));
        if (one != null && one.length > 0) {
            return Character.toString(one[0]).getBytes(StandardCharsets.UTF_8).length;
        }
        for (int len = Math.min(4, to - i); len >= 2; len--) {
            int[] cs = Glob.chars(b, i, i + len);
            if (cs != null && cs.length == 1) {
                return len;
            }
        }
        return 0;
    }

    private static boolean printable(int cp) {
        int t = Character.getType(cp);
        return !(cp < 0xa0 || t == Character.UNASSIGNED || t == Character.SURROGATE || t == Character.LINE_SEPARATOR
                || t == Character.PARAGRAPH_SEPARATOR || t == Character.PRIVATE_USE);
    }
}
