// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.shell;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * brisk's one quoting of bytes for a POSIX shell (sh, dash, bash): whatever a value holds
 * (quotes, newlines, any byte but NUL, bytes that are not UTF-8), its quoted form is one word
 * that the shell reads back as exactly those bytes, so no value can end the quoting early and
 * inject code. Two styles, one algorithm: the value goes in single quotes, each {@code '} in it
 * closing the quotes, written some other way, and opening them again.
 * <ul>
 *   <li>{@link #quote(byte[])}, {@link #append}, {@link #quote(String)}, {@link #quoteLatin1}:
 *       always single-quoted, each {@code '} written as {@code '\''} (the empty value is
 *       {@code ''}): what brisk writes into its own shell code (a warm shell's prologue, a
 *       remote agent's calls, a Slurm batch script, a job's text for a slot's shell, the
 *       completion scripts).</li>
 *   <li>{@link #quoteAsParallel}, {@link #appendAsParallel}: GNU parallel's (its {@code -q}
 *       and the quoting of a replacement string's value): a value made only of
 *       {@code [A-Za-z0-9_+/.-]} stays as it is, anything else goes in single quotes with each
 *       {@code '} written as {@code '"'"'} and no empty {@code ''} left at either end
 *       ({@code "'"'a'} for {@code 'a}), so that {@code brisk par}'s commands read as
 *       parallel's do.</li>
 * </ul>
 * Stateless and thread-safe. Not exported.
 */
public final class ShellQuote {
    private ShellQuote() {}

    private static final byte[] CLOSE_ESCAPE_OPEN = {'\'', '\\', '\'', '\''};
    private static final byte[] CLOSE_DOUBLE_OPEN = {'\'', '"', '\'', '"', '\''};

    /** True when {@code b} needs no quoting in GNU parallel's style: {@code [A-Za-z0-9_+/.-]}. */
    public static boolean plain(byte b) {
        return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
                || b == '_' || b == '+' || b == '/' || b == '.' || b == '-';
    }

    /** Appends {@code value} to {@code out}, always single-quoted, each {@code '} as {@code '\''}. */
    public static void append(ByteArrayOutputStream out, byte[] value) {
        singleQuoted(out, value, CLOSE_ESCAPE_OPEN, false);
    }

    /**
     * {@code value} single-quoted as {@link #append} quotes it, then {@code end}: built in one
     * array, for a caller that quotes once a job.
     */
    public static byte[] quote(byte[] value, byte end) {
        int quotes = 0;
        for (byte b : value) {
            if (b == '\'') {
                quotes++;
            }
        }
        byte[] r = new byte[value.length + 3 + quotes * (CLOSE_ESCAPE_OPEN.length - 1)];
        r[0] = '\'';
        int at = 1;
        if (quotes == 0) {
            System.arraycopy(value, 0, r, 1, value.length);
            at += value.length;
        } else {
            for (byte b : value) {
                if (b == '\'') {
                    System.arraycopy(CLOSE_ESCAPE_OPEN, 0, r, at, CLOSE_ESCAPE_OPEN.length);
                    at += CLOSE_ESCAPE_OPEN.length;
                } else {
                    r[at++] = b;
                }
            }
        }
        r[at++] = '\'';
        r[at] = end;
        return r;
    }

    /** {@code value}, always single-quoted, each {@code '} as {@code '\''}. */
    public static byte[] quote(byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 8);
        append(out, value);
        return out.toByteArray();
    }

    /**
     * {@code value} as {@link #quote(byte[])} quotes its UTF-8 bytes: the String form, for shell
     * text that is itself written out as UTF-8.
     */
    public static String quote(String value) {
        return new String(quote(value.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }

    /**
     * {@link #quote(byte[])} as a Latin-1 string, one char per byte: for shell text that is
     * built as a String and written out as ISO-8859-1, so that every byte comes back unchanged.
     */
    public static String quoteLatin1(byte[] value) {
        return new String(quote(value), StandardCharsets.ISO_8859_1);
    }

    /** Appends {@code value} to {@code out} quoted as GNU parallel quotes it (see the class). */
    public static void appendAsParallel(ByteArrayOutputStream out, byte[] value) {
        boolean allPlain = value.length > 0;
        for (byte b : value) {
            if (!plain(b)) {
                allPlain = false;
                break;
            }
        }
        if (allPlain) {
            out.write(value, 0, value.length);
        } else {
            singleQuoted(out, value, CLOSE_DOUBLE_OPEN, true);
        }
    }

    /** {@code value} quoted as GNU parallel quotes it (see the class). */
    public static byte[] quoteAsParallel(byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 8);
        appendAsParallel(out, value);
        return out.toByteArray();
    }

    /**
     * The one quoting loop: {@code value} in single quotes, each {@code '} replaced by
     * {@code closeQuoteOpen} (which closes the quotes, writes a quote another way and opens them
     * again). With {@code trimEnds}, a value that starts or ends with {@code '} does not open or
     * close with an empty {@code ''} there.
     */
    private static void singleQuoted(ByteArrayOutputStream out, byte[] value, byte[] closeQuoteOpen, boolean trimEnds) {
        int last = value.length - 1;
        boolean trimStart = trimEnds && last >= 0 && value[0] == '\'';
        boolean trimEnd = trimEnds && last >= 0 && value[last] == '\'';
        if (!trimStart) {
            out.write('\'');
        }
        int from = 0;
        for (int i = 0; i <= last; i++) {
            if (value[i] == '\'') {
                out.write(value, from, i - from);
                int skipFirst = trimStart && i == 0 ? 1 : 0;
                int skipLast = trimEnd && i == last ? 1 : 0;
                out.write(closeQuoteOpen, skipFirst, closeQuoteOpen.length - skipFirst - skipLast);
                from = i + 1;
            }
        }
        out.write(value, from, value.length - from);
        if (!trimEnd) {
            out.write('\'');
        }
    }
}
