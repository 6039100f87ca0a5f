// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes a prefix (a {@code --tag}) at the start of every line that passes through. Not
 * thread-safe; does not close the stream under it.
 */
public final class LinePrefixer extends OutputStream {
    private final OutputStream out;
    private final byte[] prefix;
    private boolean atLineStart = true;

    public LinePrefixer(OutputStream out, byte[] prefix) {
        this.out = out;
        this.prefix = prefix;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        int end = off + len;
        int from = off;
        for (int i = off; i < end; i++) {
            if (atLineStart) {
                out.write(b, from, i - from);
                out.write(prefix);
                from = i;
                atLineStart = false;
            }
            if (b[i] == '\n') {
                atLineStart = true;
            }
        }
        out.write(b, from, end - from);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }
}
