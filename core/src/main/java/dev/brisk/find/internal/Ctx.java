// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

/**
 * One thread's state while evaluating the expression for an entry: its output buffer and the
 * {@code -prune} and {@code -quit} flags the entry's evaluation set. Confined to its thread.
 */
final class Ctx {
    private static final int SIZE = 64 * 1024;

    final Output output;
    final RunState shared;
    /** The thread this context belongs to (final: safely read by any thread, see Output#context). */
    final Thread owner = Thread.currentThread();
    private byte[] buf = new byte[SIZE];
    private int n;
    /** Where the current entry's output starts: the bytes before it are whole records. */
    private int recordStart;
    boolean prune;
    boolean quit;

    Ctx(Output output, RunState shared) {
        this.output = output;
        this.shared = shared;
    }

    void write(byte[] b, int off, int len) {
        if (n + len > buf.length) {
            makeRoom(len);
        }
        System.arraycopy(b, off, buf, n, len);
        n += len;
    }

    void write(int b) {
        if (n == buf.length) {
            makeRoom(1);
        }
        buf[n++] = (byte) b;
    }

    /** Marks the end of an entry's output: a full buffer is written up to here, never mid-record. */
    void endRecord() {
        recordStart = n;
    }

    /**
     * Writes the whole records out and keeps the current entry's partial output, so that other
     * threads' records never land inside one of ours; grows the buffer for a record larger than it.
     */
    private void makeRoom(int len) {
        if (recordStart > 0) {
            output.write(buf, 0, recordStart);
            System.arraycopy(buf, recordStart, buf, 0, n - recordStart);
            n -= recordStart;
            recordStart = 0;
        }
        if (n + len > buf.length) {
            buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, n + len));
        }
    }

    /**
     * Writes {@code find: TEXT} and a newline to standard error. In a sequential walk this
     * thread's records go out first, as GNU find's {@code error()} flushes standard output
     * before it writes, so {@code find ... 2>&1} interleaves the two as GNU find does.
     */
    void message(String text) {
        if (shared.sequential) {
            flush();
            output.sync();
        }
        java.io.PrintStream err = shared.err;
        synchronized (err) {
            err.print("find: " + text + "\n");
            err.flush();
        }
    }

    /** Writes everything buffered; call between entries (or where a partial record may go out). */
    void flush() {
        if (n > 0) {
            output.write(buf, 0, n);
            n = 0;
        }
        recordStart = 0;
    }
}
