// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/** Splits a stream on a delimiter byte; see {@link ItemSource#delimited}. Not thread-safe. */
final class DelimitedSource implements ItemSource {
    private final InputStream in;
    private final byte delimiter;
    private byte[] buf = new byte[64 * 1024];
    private int start;
    private int end;
    private boolean eof;

    DelimitedSource(InputStream in, byte delimiter) {
        this.in = in;
        this.delimiter = delimiter;
    }

    @Override
    public byte[] next() throws IOException {
        int scanned = start;
        while (true) {
            for (int i = scanned; i < end; i++) {
                if (buf[i] == delimiter) {
                    byte[] item = Arrays.copyOfRange(buf, start, i);
                    start = i + 1;
                    return item;
                }
            }
            scanned = end;
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

    @Override
    public void close() throws IOException {
        in.close();
    }
}
