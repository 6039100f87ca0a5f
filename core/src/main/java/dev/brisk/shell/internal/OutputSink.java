// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Where one output stream of a command goes: collected in memory up to a cap (the excess read
 * and dropped, and flagged), or written through to a caller's stream. Used by one thread.
 */
final class OutputSink {
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;

    private final OutputStream stream;
    private final long cap;
    private byte[] data = new byte[0];
    private int length;
    private boolean truncated;
    /** The first write failure of a streaming sink; later output is read and dropped. */
    IOException failure;
    private final int chunk;
    /** Made at the first output: most commands of a server print little or nothing, and two 64 KiB arrays per command were most of its garbage. */
    private byte[] transfer;

    OutputSink(OutputStream stream, long cap, int chunk) {
        this.stream = stream;
        this.cap = Math.min(cap, MAX_ARRAY);
        this.chunk = chunk;
    }

    void accept(MemorySegment buf, int n) throws IOException {
        if (stream != null) {
            if (transfer == null) {
                transfer = new byte[Math.max(chunk, n)];
            }
            MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, transfer, 0, n);
            stream.write(transfer, 0, n);
            return;
        }
        int keep = (int) Math.min(n, cap - length);
        if (keep < n) {
            truncated = true;
        }
        if (keep <= 0) {
            return;
        }
        if (length + keep > data.length) {
            long grown = Math.max((long) length + keep, Math.max(256, (long) data.length * 2));
            data = Arrays.copyOf(data, (int) Math.min(grown, cap));
        }
        MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, data, length, keep);
        length += keep;
    }

    void flush() throws IOException {
        if (stream != null) {
            stream.flush();
        }
    }

    byte[] bytes() {
        return length == data.length ? data : Arrays.copyOf(data, length);
    }

    boolean truncated() {
        return truncated;
    }
}
