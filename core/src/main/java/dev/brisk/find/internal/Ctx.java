package dev.brisk.find.internal;

/**
 * One thread's state while evaluating the expression for an entry: its output buffer and the
 * {@code -prune} and {@code -quit} flags the entry's evaluation set. Confined to its thread.
 */
final class Ctx {
    private static final int SIZE = 64 * 1024;

    final Output output;
    final Shared shared;
    private final byte[] buf = new byte[SIZE];
    private int n;
    boolean prune;
    boolean quit;

    Ctx(Output output, Shared shared) {
        this.output = output;
        this.shared = shared;
    }

    void write(byte[] b, int off, int len) {
        if (n + len > SIZE) {
            flush();
            if (len > SIZE) {
                output.write(b, off, len);
                return;
            }
        }
        System.arraycopy(b, off, buf, n, len);
        n += len;
    }

    void write(int b) {
        if (n == SIZE) {
            flush();
        }
        buf[n++] = (byte) b;
    }

    void flush() {
        if (n > 0) {
            output.write(buf, 0, n);
            n = 0;
        }
    }
}
