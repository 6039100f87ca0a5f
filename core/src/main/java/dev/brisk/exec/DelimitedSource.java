// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/** Splits a stream on a delimiter of one or more bytes; see {@link ItemSource#delimited}. Not thread-safe. */
final class DelimitedSource implements ItemSource {
    private final InputStream in;
    private final byte[] delimiter;
    private byte[] buf = new byte[64 * 1024];
    private int start;
    private int end;
    private boolean eof;

    DelimitedSource(InputStream in, byte[] delimiter) {
        if (delimiter.length == 0) {
            throw new IllegalArgumentException("the delimiter is empty");
        }
        this.in = in;
        this.delimiter = delimiter.clone();
    }

    @Override
    public byte[] next() throws IOException {
        int scanned = start;
        while (true) {
            int at = find(buf, scanned, end, delimiter);
            if (at >= 0) {
                byte[] item = Arrays.copyOfRange(buf, start, at);
                start = at + delimiter.length;
                return item;
            }
            // a delimiter may begin in the last bytes and end in the next read
            scanned = Math.max(start, end - delimiter.length + 1);
            if (eof) {
                if (start == end) {
                    return null;
                }
                byte[] item = Arrays.copyOfRange(buf, start, end);
                start = end;
                return item;
            }
            if (start > 0 && end == buf.length) {
                System.arraycopy(buf, start, buf, 0, end - start);
                end -= start;
                scanned -= start;
                start = 0;
            }
            if (end == buf.length) {
                if (buf.length >= Integer.MAX_VALUE - 16) {
                    throw new IOException("an input item is longer than 2 GiB");
                }
                buf = Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE - 16, buf.length * 2L));
            }
            int n = in.read(buf, end, buf.length - end);
            if (n < 0) {
                eof = true;
            } else {
                end += n;
            }
        }
    }

    /** Where {@code delimiter} first begins in {@code b[from, to)}, or -1. */
    static int find(byte[] b, int from, int to, byte[] delimiter) {
        byte first = delimiter[0];
        int last = to - delimiter.length;
        for (int i = from; i <= last; i++) {
            if (b[i] == first && Arrays.equals(b, i + 1, i + delimiter.length, delimiter, 1, delimiter.length)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
