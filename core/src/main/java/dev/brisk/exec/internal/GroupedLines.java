// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.ItemSource;
import dev.brisk.exec.PipeRecords;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.function.Consumer;

/**
 * {@code --group-by}'s input, as GNU parallel 20221122 makes it: the lines of a stream with a
 * random 20-character marker before each run of consecutive lines whose {@link LineKey key} is
 * the same, so that {@code --pipe} cuts records at the marker ({@code --recstart}, no
 * {@code --recend}) and {@code --rrs} takes it out again. The header line, when the key names a
 * column, is read first ({@link #header}). Not thread-safe.
 */
public final class GroupedLines extends InputStream {
    private static final String LETTERS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

    private final InputStream in;
    private final LineKey key;
    private final byte[] marker;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private final byte[] header;
    private byte[] last;
    private byte[] pending = new byte[0];
    private int at;

    public GroupedLines(InputStream in, LineKey key) throws IOException {
        this.in = new BufferedInputStream(in, 1 << 16);
        this.key = key;
        SecureRandom r = new SecureRandom();
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < 20; k++) {
            b.append(LETTERS.charAt(r.nextInt(LETTERS.length())));
        }
        marker = b.toString().getBytes(StandardCharsets.US_ASCII);
        header = key.needsHeader() ? nextLine() : null;
        if (header != null) {
            key.header(header);
        }
    }

    /** The marker that starts each group: the records' start. */
    public byte[] marker() {
        return marker.clone();
    }

    /** The header line that named the key's column (each job gets it first), or null. */
    public byte[] header() {
        return header == null ? null : header.clone();
    }

    /**
     * The blocks of the groups under {@code rules} ({@code --block}, {@code -N}; records are
     * the groups, without their markers), each after the header, if any.
     */
    public ItemSource blocks(PipeRecords rules, Consumer<String> warnings) {
        PipeRecords grouped = new PipeRecords(rules.blockSize(), marker, new byte[0], false, rules.recordsPerJob(),
                rules.linesPerRecord(), true, rules.blockTimeout(), false);
        ItemSource blocks = grouped.blocks(this, warnings);
        if (header == null) {
            return blocks;
        }
        return new ItemSource() {
            @Override
            public byte[] next() throws IOException {
                byte[] b = blocks.next();
                if (b == null) {
                    return null;
                }
                byte[] h = java.util.Arrays.copyOf(header, header.length + b.length);
                System.arraycopy(b, 0, h, header.length, b.length);
                return h;
            }

            @Override
            public void close() throws IOException {
                blocks.close();
            }
        };
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (at == pending.length) {
            byte[] l = nextLine();
            if (l == null) {
                return -1;
            }
            byte[] k = key.key(l);
            if (last == null || !java.util.Arrays.equals(k, last)) {
                last = k;
                pending = java.util.Arrays.copyOf(marker, marker.length + l.length);
                System.arraycopy(l, 0, pending, marker.length, l.length);
            } else {
                pending = l;
            }
            at = 0;
        }
        int n = Math.min(len, pending.length - at);
        System.arraycopy(pending, at, b, off, n);
        at += n;
        return n;
    }

    private byte[] nextLine() throws IOException {
        return StreamSpread.readLine(in, line);
    }

    @Override
    public void close() throws IOException {
        in.close();
        key.close();
    }
}
