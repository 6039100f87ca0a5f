// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.io.FileOutputStream;
import java.io.IOException;

/**
 * A job runner's standard output that gathers the small outputs of jobs finishing close together
 * into one {@code write}. Without it a run of a million jobs that print a line each makes a
 * million writes to a pipe and wakes its reader a million times: the reader then takes a core
 * from the jobs (2.2× the run's time on 2 cores, {@code docs/PERFORMANCE.md}).
 *
 * <p>A job's end asks for a {@link #flush}: its bytes go out at once when the last write was
 * {@link #DELAY_NANOS} (0.25 ms) ago or more (jobs that end seldom are written as they end) or
 * when {@link #FLUSH_AT} bytes wait, else 0.25 ms after the last write, on this stream's flusher
 * thread: at most about four writes a millisecond, and no job's output waits longer. (A delay of
 * 1 ms made 1M one-line jobs into a pipe 6.2 s against 7 s, but cost {@code md5sum} jobs, which
 * end every half millisecond, 3%: a flusher's wake-up for each.)
 *
 * <p>Large writes, and the {@code sendfile} of a big output ({@link HeldOutput#copy}), first
 * write what is waiting, so bytes leave in the order they came. {@link #follower} gives the
 * stream for standard error, which writes what waits here before each of its own writes: with
 * both on one file ({@code 2>&1}) the order is the order of the writes. A failed write is thrown
 * by the next write, flush or {@link #close}. {@code close} writes what is left and ends the
 * flusher; it leaves the descriptor open (it is the process's).
 */
public final class BatchedOutput extends FileOutputStream implements Sequenced {
    static final int CAPACITY = 64 << 10;
    static final int FLUSH_AT = 16 << 10;
    static final long DELAY_NANOS = 250_000;

    private final byte[] buffer = new byte[CAPACITY];
    private int length;
    /** A deferred flush is due at {@link #due}. */
    private boolean pending;
    private long due;
    /** When what waited was last written out (long ago at first). */
    private long lastWrite = System.nanoTime() - DELAY_NANOS;
    private boolean closed;
    private IOException failed;
    private Thread flusher;

    /** Gathers writes to {@code raw}'s descriptor. */
    public BatchedOutput(FileOutputStream raw) throws IOException {
        super(raw.getFD());
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b) throws IOException {
        write(b, 0, b.length); // FileOutputStream's own goes straight to the descriptor
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        rethrow();
        if (len > CAPACITY - length) {
            writeWaiting();
        }
        if (len >= CAPACITY / 2) {
            try {
                super.write(b, off, len);
            } catch (IOException e) {
                failed = e;
                throw e;
            }
            return;
        }
        System.arraycopy(b, off, buffer, length, len);
        length += len;
    }

    /** A job's output is complete: it goes out now when much waits or the stream was idle, else within 0.25 ms. */
    @Override
    public synchronized void flush() throws IOException {
        rethrow();
        if (length == 0) {
            return;
        }
        long now = System.nanoTime();
        if (length >= FLUSH_AT || closed || now - lastWrite >= DELAY_NANOS) {
            writeWaiting(); // much waits, or the stream was idle: no job's end to gather
            return;
        }
        if (!pending) {
            pending = true;
            due = lastWrite + DELAY_NANOS;
            if (flusher == null) {
                flusher = Thread.ofPlatform().daemon().name("brisk-output-flusher").start(this::flushLater);
            } else {
                notifyAll();
            }
        }
    }

    /** Writes what waits, now. */
    @Override
    public synchronized void sync() throws IOException {
        rethrow();
        writeWaiting();
    }

    /** Writes what is left and ends the flusher thread; the descriptor stays open. */
    @Override
    public void close() throws IOException {
        Thread t;
        synchronized (this) {
            closed = true;
            t = flusher;
            notifyAll();
        }
        if (t != null) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        sync();
    }

    /** Standard error's stream ({@code err}'s descriptor), which writes what waits here before its own bytes. */
    public FileOutputStream follower(FileOutputStream err) throws IOException {
        return new Follower(err, this);
    }

    private void writeWaiting() throws IOException {
        pending = false;
        if (length == 0) {
            return;
        }
        int n = length;
        length = 0;
        lastWrite = System.nanoTime();
        try {
            super.write(buffer, 0, n);
        } catch (IOException e) {
            failed = e; // the bytes are lost: every later call says so
            throw e;
        }
    }

    private void rethrow() throws IOException {
        if (failed != null) {
            throw new IOException(failed.getMessage(), failed);
        }
    }

    private synchronized void flushLater() {
        while (!closed) {
            try {
                if (!pending) {
                    wait();
                    continue;
                }
                long left = due - System.nanoTime();
                if (left > 0) {
                    wait(left / 1_000_000, (int) (left % 1_000_000));
                    continue;
                }
                if (failed == null) {
                    writeWaiting();
                }
                pending = false;
            } catch (IOException e) {
                failed = e;
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Standard error beside a batched standard output. */
    private static final class Follower extends FileOutputStream implements Sequenced {
        private final BatchedOutput leader;

        Follower(FileOutputStream err, BatchedOutput leader) throws IOException {
            super(err.getFD());
            this.leader = leader;
        }

        @Override
        public void write(int b) throws IOException {
            leader.sync();
            super.write(b);
        }

        @Override
        public void write(byte[] b) throws IOException {
            write(b, 0, b.length);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return;
            }
            leader.sync();
            super.write(b, off, len);
        }

        @Override
        public void sync() throws IOException {
            leader.sync();
        }

        @Override
        public void close() {
            // the process's descriptor: left open
        }
    }
}
