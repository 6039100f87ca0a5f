// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * GNU parallel's {@code --colsep} and {@code --trim}: each value of an argument tuple is split
 * into columns at a regular expression (Perl's {@code split}, trailing empty columns kept, the
 * expression's groups kept as columns of their own), the columns of all values making the
 * tuple, and each column is trimmed of white space. The expression is a {@link Pattern} matched
 * against the bytes of a value read as ISO-8859-1 (one char per byte), as Perl matches bytes.
 * Immutable and thread-safe.
 *
 * <pre>{@code
 * ColumnRules c = new ColumnRules(ColumnRules.separator("\\t".getBytes()), ColumnRules.Trim.BOTH);
 * List<byte[]> columns = c.apply(List.of(" a\tb ".getBytes()));   // "a", "b"
 * }</pre>
 *
 * @param separator the column separator, or null to keep each value whole
 * @param trim what white space to take off each value
 */
public record ColumnRules(Pattern separator, Trim trim) {
    /** No rule: values as they come. */
    public static final ColumnRules NONE = new ColumnRules(null, Trim.NONE);

    /** Which ends of a value lose their white space (Perl's {@code \s}). */
    public enum Trim {
        /** {@code --trim n}. */
        NONE,
        /** {@code --trim l}. */
        LEFT,
        /** {@code --trim r}. */
        RIGHT,
        /** {@code --trim lr} or {@code rl}. */
        BOTH;

        /**
         * GNU parallel's name of a trim: {@code n}, {@code l}, {@code r}, {@code lr}, {@code rl}.
         *
         * @throws IllegalArgumentException for any other, in GNU parallel's words
         */
        public static Trim of(String name) {
            return switch (name) {
                case "n" -> NONE;
                case "l" -> LEFT;
                case "r" -> RIGHT;
                case "lr", "rl" -> BOTH;
                default -> throw new IllegalArgumentException("--trim must be one of: r l rl lr.");
            };
        }
    }

    public ColumnRules {
        Objects.requireNonNull(trim, "trim");
    }

    /**
     * A separator from the bytes of a regular expression (Java's syntax, Perl's for the common
     * part: {@code \t}, {@code \s+}, {@code [,;]}, {@code |}).
     *
     * @throws IllegalArgumentException if it is not a valid expression, with a one-line message
     */
    public static Pattern separator(byte[] regex) {
        String r = new String(regex, StandardCharsets.ISO_8859_1);
        try {
            return Pattern.compile(r);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("not a valid regular expression: " + e.getDescription() + " near index "
                    + e.getIndex() + " of " + new String(regex, StandardCharsets.UTF_8));
        }
    }

    /** {@code tuple} under these rules: its values split into columns, then trimmed. */
    public List<byte[]> apply(List<byte[]> tuple) {
        if (separator == null && trim == Trim.NONE) {
            return tuple;
        }
        List<byte[]> out = new ArrayList<>(tuple.size());
        for (byte[] v : tuple) {
            if (separator == null || v.length == 0) {
                out.add(trim(v));
            } else {
                for (byte[] c : split(separator, v, true)) {
                    out.add(trim(c));
                }
            }
        }
        return out;
    }

    /**
     * Perl's {@code split /separator/, value}: the pieces between matches and the groups of
     * each match (an unmatched group: empty); a zero-length match at the start makes no empty
     * first piece. Empty pieces at the end are kept with {@code keepTrailing} (Perl's limit -1)
     * and left out without it.
     */
    public static List<byte[]> split(Pattern separator, byte[] value, boolean keepTrailing) {
        String s = new String(value, StandardCharsets.ISO_8859_1);
        List<byte[]> pieces = new ArrayList<>();
        Matcher m = separator.matcher(s);
        int from = 0;
        while (m.find()) {
            if (m.end() == 0) {
                continue;
            }
            pieces.add(bytes(s, from, m.start()));
            for (int g = 1; g <= m.groupCount(); g++) {
                pieces.add(m.start(g) < 0 ? new byte[0] : bytes(s, m.start(g), m.end(g)));
            }
            from = m.end();
        }
        pieces.add(bytes(s, from, s.length()));
        while (!keepTrailing && !pieces.isEmpty() && pieces.getLast().length == 0) {
            pieces.removeLast();
        }
        return pieces;
    }

    private static byte[] bytes(String s, int from, int to) {
        return s.substring(from, to).getBytes(StandardCharsets.ISO_8859_1);
    }

    private byte[] trim(byte[] v) {
        int from = 0;
        int to = v.length;
        if (trim == Trim.LEFT || trim == Trim.BOTH) {
            while (from < to && space(v[from])) {
                from++;
            }
        }
        if (trim == Trim.RIGHT || trim == Trim.BOTH) {
            while (to > from && space(v[to - 1])) {
                to--;
            }
        }
        return from == 0 && to == v.length ? v : java.util.Arrays.copyOfRange(v, from, to);
    }

    /** Perl's {@code \s} in bytes: space, tab, newline, vertical tab, form feed, carriage return. */
    private static boolean space(byte b) {
        return b == ' ' || b >= '\t' && b <= '\r';
    }
}
