// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.ItemSource;
import dev.brisk.exec.PipeRecords;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --pipe}'s blocks, cut as GNU parallel 20221122's {@code spreadstdin} cuts them: read up
 * to the next multiple of the block size, then pass the buffer up to its last record boundary
 * (an end followed by a start), or {@code -N} records at a time, or whole {@code -L}-line
 * records; at the end of input the rest goes as it is. A round that passes nothing grows the
 * block by 30% with GNU parallel's warning. Not thread-safe: one reader.
 */
public final class BlockCutter implements ItemSource {
    private static final long MAX_BLOCK = (1L << 31) - 1;

    private final InputStream in;
    private final PipeRecords rules;
    private final Consumer<String> warnings;
    private final byte[] boundary;
    private final Pattern split;
    private final Pattern startsWith;
    private final ArrayDeque<byte[]> ready = new ArrayDeque<>();
    private long blockSize;
    private byte[] buf = new byte[0];
    private int length;
    private boolean eof;
    private boolean garbageChecked;
    /** {@code --block-timeout}'s reader, or null. */
    private final TimedInput timed;
    /** {@code --rrs}'s removal, or null. */
    private final RecordSeparators separators;

    public BlockCutter(InputStream in, PipeRecords rules, Consumer<String> warnings) {
        this.in = in;
        this.rules = rules;
        this.warnings = warnings;
        this.blockSize = rules.blockSize();
        this.timed = rules.blockTimeout().isZero() ? null : new TimedInput(in);
        this.separators = rules.removeSeparators() ? new RecordSeparators(rules) : null;
        byte[] s = rules.start();
        byte[] e = rules.end();
        boundary = new byte[e.length + s.length];
        System.arraycopy(e, 0, boundary, 0, e.length);
        System.arraycopy(s, 0, boundary, e.length, s.length);
        if (rules.regexp()) {
            String start = "(?:" + latin(s) + ")";
            String end = e.length == 0 && s.length == 0 ? "(?:[\\s\\S])" : "(?:" + latin(e) + ")";
            if (e.length == 0 && s.length > 0) {
                end = "";
            }
            split = Pattern.compile(end + "(?=" + start + ")", Pattern.MULTILINE | Pattern.UNIX_LINES);
            startsWith = Pattern.compile(start, Pattern.MULTILINE | Pattern.UNIX_LINES);
        } else {
            split = null;
            startsWith = null;
        }
    }

    @Override
    public byte[] next() throws IOException {
        while (ready.isEmpty()) {
            if (eof) {
                return null;
            }
            round();
        }
        return ready.poll();
    }

    @Override
    public void close() throws IOException {
        in.close();
        if (timed != null) {
            timed.close();
        }
    }

    /** One round of GNU parallel's loop: read a block, pass what it holds, grow if nothing passed. */
    private void round() throws IOException {
        int before = ready.size();
        read();
        if (rules.linesPerRecord() > 0 && rules.recordsPerJob() == 0) {
            passLineRecords();
        } else if (rules.csv()) {
            passCsvRecords();
        } else if (rules.regexp()) {
            if (rules.recordsPerJob() > 0) {
                passRegexRecords();
            } else if (!eof) {
                passUpTo(lastRegexBoundary());
            }
        } else if (rules.recordsPerJob() > 0) {
            passRecords();
        } else if (!eof) {
            int i = lastIndexOf(boundary, length - boundary.length);
            if (i >= 0) {
                passUpTo(i + rules.end().length);
            }
        }
        if (eof) {
            passUpTo(length);
            return;
        }
        if (ready.size() == before && blockSize < MAX_BLOCK && timed == null) {
            long old = blockSize;
            blockSize = Math.min((long) Math.ceil(blockSize * 1.3 + 1), MAX_BLOCK);
            warnings.accept("A record was longer than " + old + ". Increasing to --blocksize " + blockSize + ".");
        }
    }

    /** Reads up to the next multiple of the block size, or to the end of input (or to the block's timeout). */
    private void read() throws IOException {
        if (timed != null) {
            readTimed();
            return;
        }
        long want = blockSize - length % blockSize;
        if (length + want > Integer.MAX_VALUE - 8) {
            want = Integer.MAX_VALUE - 8 - length;
        }
        if (buf.length < length + want) {
            buf = Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(length + want, 2L * buf.length)));
        }
        int n = 0;
        while (want > 0) {
            n = in.read(buf, length, (int) Math.min(want, 1 << 20));
            if (n <= 0) {
                break;
            }
            length += n;
            want -= n;
        }
        eof = n <= 0;
    }

    /** As {@link #read}, within {@code --block-timeout}: what came by then, and not at end of input unless it is. */
    private void readTimed() throws IOException {
        long want = blockSize - length % blockSize;
        want = Math.min(want, Integer.MAX_VALUE - 8L - length);
        if (buf.length < length + want) {
            buf = Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(length + want, 2L * buf.length)));
        }
        long deadline = System.nanoTime() + rules.blockTimeout().toNanos();
        while (want > 0) {
            int n = timed.read(buf, length, (int) want, deadline);
            if (n == 0) {
                return; // the timeout: not the end
            }
            if (n < 0) {
                eof = true;
                return;
            }
            length += n;
            want -= n;
        }
    }

    /** Passes {@code buf[0, end)} as one block, if not empty. */
    private void passUpTo(int end) {
        if (end <= 0) {
            return;
        }
        byte[] block = Arrays.copyOf(buf, end);
        ready.add(rules.removeSeparators() ? separators.remove(block) : block);
        System.arraycopy(buf, end, buf, 0, length - end);
        length -= end;
    }

    /** {@code -L} without {@code -N}: the buffer up to its last whole record of that many lines. */
    private void passLineRecords() {
        int lines = 0;
        for (int i = 0; i < length; i++) {
            if (buf[i] == '\n') {
                lines++;
            }
        }
        int last = lastIndexOf(new byte[] {'\n'}, length - 1);
        while (lines % rules.linesPerRecord() != 0) {
            lines--;
            last = lastIndexOf(new byte[] {'\n'}, last - 1);
        }
        passUpTo(last + 1);
    }

    /** {@code --csv}: the buffer up to its last newline that an even number of {@code "} come before. */
    private void passCsvRecords() {
        int quotes = 0;
        for (int i = 0; i < length; i++) {
            quotes += buf[i] == '"' ? 1 : 0;
        }
        // quotes: those before position 'at' as 'at' goes back from newline to newline
        for (int at = length - 1; at >= 0; at--) {
            if (buf[at] == '"') {
                quotes--;
            } else if (buf[at] == '\n' && quotes % 2 == 0) {
                passUpTo(at + 1);
                return;
            }
        }
    }

    /** {@code -N}: blocks of N records (N times the lines of {@code -L}) while the buffer holds so many. */
    private void passRecords() {
        int n = rules.recordsPerJob() * Math.max(1, rules.linesPerRecord());
        while (length > 0) {
            // GNU parallel's nindex: the first search starts at offset 1
            int i = 0;
            for (int k = 0; k < n && i >= 0; k++) {
                i = indexOf(boundary, i + 1);
            }
            if (i < 0) {
                return;
            }
            int before = length;
            passUpTo(i + rules.end().length);
            if (length == before) {
                return;
            }
        }
    }

    /** {@code --regexp}: the end of the last boundary in the buffer, or -1. */
    private int lastRegexBoundary() {
        Matcher m = split.matcher(latin(buf, length));
        int last = -1;
        while (m.find()) {
            if (m.end() > 0) {
                last = m.end();
            }
            if (m.end() == m.start() && m.end() >= length) {
                break;
            }
        }
        return last;
    }

    /** {@code --regexp -N}: garbage before the first record as a block of its own, then N records at a time. */
    private void passRegexRecords() {
        int n = rules.recordsPerJob() * Math.max(1, rules.linesPerRecord());
        if (!garbageChecked) {
            garbageChecked = true;
            if (!startsWith.matcher(latin(buf, length)).lookingAt()) {
                Matcher m = split.matcher(latin(buf, length));
                if (m.find() && m.end() > 0) {
                    passUpTo(m.end());
                }
            }
        }
        while (length > 0) {
            String text = latin(buf, length);
            Matcher m = split.matcher(text);
            Matcher s = startsWith.matcher(text);
            int found = 0;
            int end = 0;
            // as GNU parallel's (START(?:(?!END START).)*?END){N}(?=START): each record's own start
            // is passed before its end is looked for, so a START that matches inside it ends nothing
            while (found < n) {
                int from = s.region(end, length).lookingAt() ? s.end() : end;
                if (!m.find(from)) {
                    break;
                }
                found++;
                end = m.end();
            }
            if (found < n || end == 0) {
                return;
            }
            passUpTo(end);
        }
    }

    private int indexOf(byte[] what, int from) {
        for (int i = Math.max(0, from); i + what.length <= length; i++) {
            if (Arrays.equals(buf, i, i + what.length, what, 0, what.length)) {
                return i;
            }
        }
        return -1;
    }

    private int lastIndexOf(byte[] what, int from) {
        for (int i = Math.min(from, length - what.length); i >= 0; i--) {
            if (Arrays.equals(buf, i, i + what.length, what, 0, what.length)) {
                return i;
            }
        }
        return -1;
    }

    private static String latin(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static String latin(byte[] b, int length) {
        return new String(b, 0, length, StandardCharsets.ISO_8859_1);
    }
}
