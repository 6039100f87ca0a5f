// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.io.ByteArrayOutputStream;

/**
 * Quotes bytes for a POSIX shell the way GNU parallel does: a value made only of
 * {@code [A-Za-z0-9_+/.-]} stays as it is, anything else goes in single quotes with each
 * {@code '} written as {@code '"'"'} (and no empty {@code ''} at either end: {@code "'"'a'}). No byte can end the quoting early, so no value can inject
 * code; bytes that are not UTF-8 pass through unchanged. Stateless and thread-safe.
 */
public final class ShellQuote {
    private ShellQuote() {}

    /** True when {@code b} needs no quoting. */
    static boolean safe(byte b) {
        return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
                || b == '_' || b == '+' || b == '/' || b == '.' || b == '-';
    }

    /** Appends {@code value}, quoted, to {@code out}. */
    public static void append(ByteArrayOutputStream out, byte[] value) {
        boolean plain = value.length > 0;
        for (byte b : value) {
            if (!safe(b)) {
                plain = false;
                break;
            }
        }
        if (plain) {
            out.write(value, 0, value.length);
            return;
        }
        if (value.length == 0) {
            out.write('\'');
            out.write('\'');
            return;
        }
        // as GNU parallel's: no empty '' left where the value starts or ends with a quote
        int last = value.length - 1;
        if (value[0] != '\'') {
            out.write('\'');
        }
        int from = 0;
        for (int i = 0; i < value.length; i++) {
            if (value[i] == '\'') {
                out.write(value, from, i - from);
                out.write(QUOTE_IN_QUOTES, i == 0 ? 1 : 0, QUOTE_IN_QUOTES.length - (i == 0 ? 1 : 0) - (i == last ? 1 : 0));
                from = i + 1;
            }
        }
        out.write(value, from, value.length - from);
        if (value[last] != '\'') {
            out.write('\'');
        }
    }

    /** {@code value} quoted. */
    public static byte[] quote(byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 8);
        append(out, value);
        return out.toByteArray();
    }

    private static final byte[] QUOTE_IN_QUOTES = {'\'', '"', '\'', '"', '\''};
}
