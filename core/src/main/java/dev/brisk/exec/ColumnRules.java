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
 * <p>With {@code csv} ({@code --csv}), a value is a CSV record, as GNU parallel reads it with
 * Perl's Text::CSV ({@code binary}, the separator one character): fields between separators,
 * a field in {@code "} may hold the separator, newlines and {@code ""} (one {@code "}); a
 * {@code "} in an unquoted field, or anything after a closing one but the separator, is an
 * {@link IllegalArgumentException} ({@code CSV has unexpected format: ^VALUE^}).
 *
 * @param separator the column separator, or null to keep each value whole
 * @param trim what white space to take off each value
 * @param csv the one-character separator of CSV values (the {@code separator} is ignored), or
 *     null for none
 */
public record ColumnRules(Pattern separator, Trim trim, Character csv) {
    /** No rule: values as they come. */
    public static final ColumnRules NONE = new ColumnRules(null, Trim.NONE);

    /** Columns split at {@code separator} (null: none), not CSV. */
    public ColumnRules(Pattern separator, Trim trim) {
        this(separator, trim, null);
    }

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
        if (separator == null && trim == Trim.NONE && csv == null) {
            return tuple;
        }
        List<byte[]> out = new ArrayList<>(tuple.size());
        for (byte[] v : tuple) {
            if (csv != null) {
                for (byte[] c : csvFields(v)) {
                    out.add(trim(c));
                }
            } else if (separator == null || v.length == 0) {
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

    /** The fields of the CSV record {@code v} (one empty field for an empty record). */
    private List<byte[]> csvFields(byte[] v) {
        byte sep = (byte) csv.charValue();
        List<byte[]> fields = new ArrayList<>();
        java.io.ByteArrayOutputStream f = new java.io.ByteArrayOutputStream();
        int i = 0;
        while (true) {
            f.reset();
            if (i < v.length && v[i] == '"') {
                i++;
                while (true) {
                    if (i >= v.length) {
                        throw badCsv(v); // no closing quote
                    }
                    if (v[i] == '"') {
                        if (i + 1 < v.length && v[i + 1] == '"') {
                            f.write('"');
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    f.write(v[i++]);
                }
                if (i < v.length && v[i] != sep) {
                    throw badCsv(v);
                }
            } else {
                while (i < v.length && v[i] != sep) {
                    if (v[i] == '"') {
                        throw badCsv(v);
                    }
                    f.write(v[i++]);
                }
            }
            fields.add(f.toByteArray());
            if (i >= v.length) {
                return fields;
            }
            i++; // the separator: a field follows, empty at the end
        }
    }

    private static IllegalArgumentException badCsv(byte[] v) {
        return new IllegalArgumentException("CSV has unexpected format: ^" + new String(v, StandardCharsets.UTF_8) + "^");
    }

    /**
     * {@code --csv}'s items of {@code source}: an item with an odd number of {@code "} goes on
     * in the next (joined by {@code delimiter}, which a quoted field may hold), as GNU parallel
     * reads a CSV record over several lines.
     */
    public static ItemSource csvRecords(ItemSource source, byte[] delimiter) {
        return new ItemSource() {
            @Override
            public byte[] next() throws java.io.IOException {
                byte[] item = source.next();
                if (item == null) {
                    return null;
                }
                java.io.ByteArrayOutputStream record = new java.io.ByteArrayOutputStream();
                record.writeBytes(item);
                int quotes = count(item);
                while (quotes % 2 == 1) {
                    byte[] more = source.next();
                    if (more == null) {
                        break;
                    }
                    record.writeBytes(delimiter);
                    record.writeBytes(more);
                    quotes += count(more);
                }
                return record.toByteArray();
            }

            @Override
            public void close() throws java.io.IOException {
                source.close();
            }
        };
    }

    private static int count(byte[] b) {
        int n = 0;
        for (byte x : b) {
            n += x == '"' ? 1 : 0;
        }
        return n;
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
