// SPDX-License-Identifier: Apache-2.0
package dev.brisk.serve.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * One request of a connection, from its request frame to its final frame: its streamed standard
 * input while it gathers, the thread running it, and cancellation.
 *
 * <p>Cancelling interrupts the running thread, which makes the pool kill the command's process
 * group. An interrupt that lands while a thread writes to the socket would close the whole
 * connection (socket channels are interruptible), so a cancel that arrives during a write is
 * held until the write is over, and output of a cancelled request is dropped. Thread-safe.
 */
final class Request {
    final int id;
    final RequestFields fields;
    private long held; // bytes counted against the connection's limits
    private final Connection connection;
    private ByteArrayOutputStream stdin;
    private Thread thread;
    private boolean writing;
    private boolean cancelled;
    private boolean interrupted;
    private boolean done;

    Request(int id, RequestFields fields, Connection connection) {
        this.id = id;
        this.fields = fields;
        this.connection = connection;
        this.stdin = fields.streamedStdin() ? new ByteArrayOutputStream() : null;
    }

    synchronized void addHeld(long n) {
        held += n;
    }

    /** The bytes still counted for this request, which are no longer counted here: release them once. */
    synchronized long takeHeld() {
        long n = held;
        held = 0;
        return n;
    }

    /** True while the request still gathers streamed standard input. */
    synchronized boolean gathering() {
        return stdin != null;
    }

    /** Appends streamed input; false once the request stopped gathering. */
    synchronized boolean appendStdin(byte[] chunk) {
        if (stdin == null) {
            return false;
        }
        stdin.write(chunk, 0, chunk.length);
        return true;
    }

    /** Ends the gathering and returns the input gathered. */
    synchronized byte[] endStdin() {
        byte[] all = stdin != null ? stdin.toByteArray() : fields.stdin();
        stdin = null;
        return all;
    }

    /** Marks the current thread as running this request; false if it was cancelled before. */
    synchronized boolean begin() {
        thread = Thread.currentThread();
        return !cancelled;
    }

    /**
     * Marks the request done so no interrupt can reach its thread any more, and clears the
     * thread's interrupt status so that it may write the final frame. Returns whether it was
     * cancelled.
     */
    synchronized boolean end() {
        done = true;
        thread = null;
        Thread.interrupted();
        return cancelled;
    }

    /** Kills the request: its command if it runs, else it will not start. Idempotent. */
    synchronized void cancel() {
        if (done || cancelled) {
            return;
        }
        cancelled = true;
        if (thread != null && !writing) {
            interrupted = true;
            thread.interrupt();
        }
    }

    /** Sends one chunk of output unless the request was cancelled. */
    void send(byte type, byte[] b, int off, int len) throws IOException {
        synchronized (this) {
            if (cancelled) {
                return;
            }
            writing = true;
        }
        try {
            connection.write(type, id, b, off, len);
        } finally {
            synchronized (this) {
                writing = false;
                if (cancelled && !interrupted && thread == Thread.currentThread()) {
                    interrupted = true;
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** An output stream for the pool that sends {@code type} frames, keeping at most {@code cap} bytes (-1: all). */
    OutputStream sink(byte type, long cap) {
        return new Sink(type, cap);
    }

    final class Sink extends OutputStream {
        private final byte type;
        private final long cap;
        private long sent;
        boolean truncated;

        Sink(byte type, long cap) {
            this.type = type;
            this.cap = cap;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (cap >= 0 && sent + len > cap) {
                truncated = true;
                len = (int) Math.max(0, cap - sent);
            }
            while (len > 0) {
                int n = Math.min(len, Frame.MAX_PAYLOAD);
                send(type, b, off, n);
                sent += n;
                off += n;
                len -= n;
            }
        }
    }
}
