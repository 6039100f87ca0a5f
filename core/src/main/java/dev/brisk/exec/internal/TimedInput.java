// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An input read with a deadline ({@code --block-timeout}): a thread of its own reads the stream
 * ahead into a few chunks, which {@link #read} takes until its deadline. One reader; the thread
 * ends at the end of input, or at {@link #close} once the owner has closed the stream.
 */
final class TimedInput implements AutoCloseable {
    private static final byte[] END = new byte[0];

    private final InputStream in;
    private final BlockingQueue<Object> chunks = new ArrayBlockingQueue<>(8);
    private byte[] current;
    private int at;
    private boolean ended;
    private final Thread reader;

    TimedInput(InputStream in) {
        this.in = in;
        // a platform thread: its read blocks in a system call
        reader = Thread.ofPlatform().daemon().name("brisk-pipe-read").start(this::pump);
    }

    private void pump() {
        Object last = END;
        try {
            byte[] b = new byte[1 << 16];
            for (int n; (n = in.read(b)) > 0; ) {
                chunks.put(java.util.Arrays.copyOf(b, n));
            }
        } catch (IOException e) {
            last = e;
        } catch (InterruptedException e) {
            return;
        }
        try {
            chunks.put(last);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Reads up to {@code len} bytes into {@code b} at {@code off}, waiting until {@code deadline}
     * ({@link System#nanoTime}) at most: the count, 0 at the deadline, -1 at the end of input.
     */
    int read(byte[] b, int off, int len, long deadline) throws IOException {
        if (current == null || at == current.length) {
            if (ended) {
                return -1;
            }
            Object next;
            try {
                next = chunks.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while reading a block");
            }
            if (next == null) {
                return 0;
            }
            if (next instanceof IOException e) {
                ended = true;
                throw e;
            }
            if (next == END) {
                ended = true;
                return -1;
            }
            current = (byte[]) next;
            at = 0;
        }
        int n = Math.min(len, current.length - at);
        System.arraycopy(current, at, b, off, n);
        at += n;
        return n;
    }

    @Override
    public void close() {
        reader.interrupt(); // a reader waiting to put ends; one in a read ends with the stream, which its owner closes
    }
}
