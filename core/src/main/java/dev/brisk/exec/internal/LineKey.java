// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which job a line goes to under {@code --shard} or {@code --bin}, as GNU parallel 20221122's
 * sharder and binner pick it: the line (newline and all) split at the column separator into
 * at most COL+1 pieces (Perl's {@code split} with a limit), piece COL, then the Perl code, if
 * any, run on it as {@code $_}; {@code --shard} hashes the value, {@code --bin} takes it as a
 * number (Perl's: leading digits, else 0) modulo the jobs, 0 being the last job. A key given as
 * a column name needs the header line first ({@link #header}). Not thread-safe: one reader.
 *
 * <p>The hash differs from GNU parallel's ({@code B::hash} under a random seed, so there it
 * differs from run to run too): the same value always goes to the same job.
 */
public final class LineKey implements AutoCloseable {
    /** What a key's value picks a job by. */
    public enum Pick {
        /** {@code --shard}: a hash of the value. */
        HASH,
        /** {@code --bin}: the value as a number. */
        NUMBER,
        /** {@code --group-by}: only the value ({@link GroupedLines}). */
        VALUE
    }

    private static final Pattern NUMBERED = Pattern.compile("^(-?\\d+)(?:\\s|$)");
    private static final Pattern NAMED = Pattern.compile("^([a-z0-9_]+)(?:\\s+|$)", Pattern.CASE_INSENSITIVE);
    private static final Pattern PERL_NUMBER = Pattern.compile("^\\s*([+-]?(?:\\d+\\.?\\d*(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?))");

    private final Pick pick;
    private final Pattern separator;
    private final String name;
    private final PerlEngine perl;
    private int column;

    /**
     * A key from GNU parallel's {@code COL[ PERL]} ({@code spec}): a column number, or a name in
     * the header, then Perl code; or Perl code alone, run on the whole line.
     *
     * @param separator the column separator, a regular expression ({@code --colsep}, GNU's default {@code ,})
     */
    public LineKey(String spec, Pattern separator, Pick pick) {
        this.pick = pick;
        this.separator = separator;
        String rest = spec;
        String named = null;
        int col = 0; // 0: none, the whole line
        Matcher m = NUMBERED.matcher(spec);
        if (spec.matches("(?is)^[-a-z0-9_]+(\\s.*)?$")) {
            if (m.find()) {
                col = Integer.parseInt(m.group(1));
                rest = spec.substring(m.end());
            } else {
                Matcher n = NAMED.matcher(spec);
                if (n.find()) {
                    named = n.group(1);
                    rest = spec.substring(n.end());
                }
            }
        }
        this.column = col;
        this.name = named;
        this.perl = rest.isBlank() ? null : new PerlEngine(List.of(rest));
    }

    /** Whether the key names a column, whose number the header line tells ({@link #header}). */
    public boolean needsHeader() {
        return name != null;
    }

    /**
     * Reads the column's number from the {@code header} line.
     *
     * @throws IllegalArgumentException if the header has no such column, in GNU parallel's words
     */
    public void header(byte[] header) {
        if (header == null) {
            header = new byte[0];
        }
        List<byte[]> names = dev.brisk.exec.ColumnRules.split(separator, header, false);
        for (int k = 0; k < names.size(); k++) {
            if (new String(names.get(k), StandardCharsets.ISO_8859_1).equals(name)) {
                column = k + 1;
                return;
            }
        }
        throw new IllegalArgumentException("Column '" + name + "' " + separator.pattern() + " not found in header");
    }

    /** The key of {@code line}: its column, after the Perl code if any. */
    byte[] key(byte[] line) {
        byte[] v = value(line);
        return perl == null ? v : perl.evaluate(0, v, List.of(), 0, 0).bytes();
    }

    /** The job (0 to {@code jobs}-1) for {@code line}. */
    int job(byte[] line, int jobs) {
        byte[] v = key(line);
        if (pick == Pick.HASH) {
            int h = 0x811c9dc5;
            for (byte b : v) {
                h = (h ^ (b & 0xff)) * 0x01000193;
            }
            return Integer.remainderUnsigned(h, jobs);
        }
        long n = number(v);
        // GNU's binner: value % jobs picks the job, 0 the last
        long r = Math.floorMod(n, (long) jobs);
        return r == 0 ? jobs - 1 : (int) r - 1;
    }

    /** Piece {@link #column} of {@code line} split into at most column+1 pieces; the whole line without a column. */
    private byte[] value(byte[] line) {
        if (column == 0) {
            return line;
        }
        String s = new String(line, StandardCharsets.ISO_8859_1);
        if (column < 0) {
            List<byte[]> all = dev.brisk.exec.ColumnRules.split(separator, line, column < -1);
            int k = all.size() + column - 1;
            return k >= 0 && k < all.size() ? all.get(k) : new byte[0];
        }
        Matcher m = separator.matcher(s);
        int from = 0;
        int piece = 1;
        while (piece < column && m.find()) {
            if (m.end() == 0) {
                continue;
            }
            from = m.end();
            piece++;
        }
        if (piece < column) {
            return new byte[0];
        }
        int to = s.length();
        while (m.find()) {
            if (m.end() > 0 && m.start() >= from) {
                to = m.start();
                break;
            }
        }
        return s.substring(from, to).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Perl's number of a string, whole: its leading number, else 0. */
    private static long number(byte[] v) {
        Matcher m = PERL_NUMBER.matcher(new String(v, StandardCharsets.ISO_8859_1));
        if (!m.find()) {
            return 0;
        }
        try {
            return (long) Double.parseDouble(m.group(1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        if (perl != null) {
            perl.close();
        }
    }
}
