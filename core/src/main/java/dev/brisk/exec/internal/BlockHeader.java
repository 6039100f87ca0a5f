// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.ItemSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code --pipe --header}: the header GNU parallel 20221122's {@code find_header} reads off the
 * start of the input (a regular expression matched there, on the bytes as ISO-8859-1 characters;
 * {@code :} is one line, a number N is N lines), then puts before every block. The input is
 * read a block at a time until the header matches or the input ends (then there is none).
 */
public final class BlockHeader {
    private BlockHeader() {}

    /**
     * The blocks {@code cutter} makes of {@code in} past its header, each with the header before it.
     *
     * @throws IllegalArgumentException if {@code header} is not a regular expression
     */
    public static ItemSource blocks(InputStream in, String header, long blockSize,
                                    Function<InputStream, ItemSource> cutter) throws IOException {
        Found found = find(in, header, blockSize);
        byte[] h = found.head();
        ItemSource blocks = cutter.apply(found.rest(in));
        return new ItemSource() {
            @Override
            public byte[] next() throws IOException {
                byte[] b = blocks.next();
                return b == null || h.length == 0 ? b : Bytes.concat(h, b);
            }

            @Override
            public long remaining() {
                return blocks.remaining();
            }

            @Override
            public void close() throws IOException {
                blocks.close();
            }
        };
    }

    /** A header found at the start of an input, and the bytes read past it. */
    record Found(byte[] head, byte[] past) {
        /** The input after the header: the bytes read past it, then the rest of {@code in}. */
        InputStream rest(InputStream in) {
            return new SequenceInputStream(new ByteArrayInputStream(past), in);
        }
    }

    /**
     * The header at the start of {@code in}: read {@code blockSize} bytes at a time (as GNU's
     * {@code sysread}s) until {@code header} matches there or the input ends (an empty header).
     *
     * @throws IllegalArgumentException if {@code header} is not a regular expression
     */
    static Found find(InputStream in, String header, long blockSize) throws IOException {
        Pattern p = pattern(header);
        int chunk = (int) Math.min(Math.max(blockSize, 1), 1 << 30);
        byte[] buf = new byte[0];
        while (true) {
            byte[] more = in.readNBytes(chunk);
            buf = Bytes.concat(buf, more);
            Matcher m = p.matcher(new String(buf, StandardCharsets.ISO_8859_1));
            if (m.lookingAt()) {
                return new Found(Arrays.copyOf(buf, m.end()), Arrays.copyOfRange(buf, m.end(), buf.length));
            }
            if (more.length < chunk) {
                return new Found(new byte[0], buf);
            }
        }
    }

    /** GNU parallel's header pattern: {@code :} one line, N lines, else the expression. */
    static Pattern pattern(String header) {
        String regex = header.equals(":") ? "(.*\n)" : header.matches("\\d+") ? "(.*\n)".repeat(Integer.parseInt(header)) : header;
        try {
            return Pattern.compile(regex, Pattern.UNIX_LINES);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("--header: not a regular expression: '" + header + "'");
        }
    }

}
