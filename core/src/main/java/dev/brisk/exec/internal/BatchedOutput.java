// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A job runner's standard output that gathers the small outputs of jobs finishing close together
 * into one {@code write}. Without it a run of a million jobs that print a line each makes a
 * million writes to a pipe and wakes its reader a million times: the reader then takes a core
 * from the jobs (2.2× the run's time on 2 cores; {@code docs/PERFORMANCE.md}, "Scale", has the run with it).
 *
 * <p>A job's end asks for a {@link #flush}. Its bytes wait only in a burst: when this job's end
 * and the {@link #STREAK} before it each came within {@link #IDLE_NANOS} (0.25 ms) of the one
 * before; then this stream's flusher thread writes them about {@link #DELAY_MILLIS} (1 ms)
 * later, with whatever joined them meanwhile. Otherwise, or when {@link #FLUSH_AT} bytes wait,
 * they go out at once: jobs that end at the pace of process starts ({@code md5sum {}}, one every
 * half millisecond on 2 cores) are written as they end, and pay no flusher's wake-up (deferring
 * every job that ended within 0.25 ms of the last write cost them 4%). The runner uses it only
 * where a write wakes a reader: a pipe or a socket.
 *
 * <p>Every write goes to the wrapped stream's descriptor in the order it was made: a large write
 * (and the {@code sendfile} of a big output on {@link #raw}'s channel, after {@link #sync}, as
 * {@link HeldOutput#copy} does) first writes what waits. {@link #follower} gives the stream for
 * standard error, which writes what waits here before each of its own writes: with both on one
 * file ({@code 2>&1}) the order is the order of the writes. A failed write is thrown by the next
 * write, flush or {@link #close} of this stream (standard error's own writes go on). {@code
 * close} writes what is left and ends the flusher; the descriptor stays open (it is the
 * process's). The wrapped streams are used, not opened again on their descriptors: nothing stays
 * attached to {@code FileDescriptor.out} after a run.
 */
public final class BatchedOutput extends OutputStream implements Sequenced {
    static final int CAPACITY = 64 << 10;
    static final int FLUSH_AT = 16 << 10;
    static final long IDLE_NANOS = 250_000;
    static final int STREAK = 4;
    static final long DELAY_MILLIS = 1;

    private final OutputStream raw;
    private final int burst;
    private final byte[] buffer = new byte[CAPACITY];
    private int length;
    /** A deferred flush is due. */
    private boolean pending;
    /** When the last job's end asked for a flush (long ago at first). */
    private long lastFlush = System.nanoTime() - IDLE_NANOS;
    /** How many job ends in a row came within {@link #IDLE_NANOS} of the one before. */
    private int streak;
    /** Bytes came since the last flush: the next flush is a job's end (a job's printer may flush twice). */
    private boolean fresh;
    private boolean closed;
    private IOException failed;
    private Thread flusher;

    /** Gathers writes to {@code raw}. */
    public BatchedOutput(OutputStream raw) {
        this(raw, STREAK);
    }

    /** With {@code burst} job ends in a row before one waits (0: every one waits; tests). */
    BatchedOutput(OutputStream raw, int burst) {
        this.raw = raw;
        this.burst = burst;
    }

    @Override
    public OutputStream raw() {
        return raw;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        rethrow();
        if (len >= CAPACITY / 2 || len > CAPACITY - length) {
            writeWaiting();
        }
        if (len >= CAPACITY / 2) {
            writeRaw(b, off, len);
            return;
        }
        System.arraycopy(b, off, buffer, length, len);
        length += len;
        fresh = true;
    }

    /** A job's output is complete: it goes out now unless jobs end in a burst, then about 1 ms later. */
    @Override
    public synchronized void flush() throws IOException {
        rethrow();
        if (!fresh) {
            return; // nothing since the last flush: written, or already waiting for the flusher
        }
        fresh = false;
        long now = System.nanoTime();
        streak = now - lastFlush < IDLE_NANOS ? streak + 1 : 0;
        lastFlush = now;
        if (length == 0) {
            return;
        }
        if (length >= FLUSH_AT || closed || streak < burst) {
            writeWaiting(); // much waits, or no burst of job ends to gather
            return;
        }
        if (!pending) {
            pending = true;
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

    /** Standard error's stream over {@code err}, which writes what waits here before its own bytes. */
    public OutputStream follower(OutputStream err) {
        return new Follower(err, this);
    }

    private void writeWaiting() throws IOException {
        pending = false;
        if (length == 0) {
            return;
        }
        int n = length;
        length = 0;
        writeRaw(buffer, 0, n);
    }

    private void writeRaw(byte[] b, int off, int len) throws IOException {
        try {
            raw.write(b, off, len);
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

    /** The flusher: each deferred flush is written one wait of {@link #DELAY_MILLIS} after it was asked for. */
    private synchronized void flushLater() {
        while (!closed) {
            try {
                if (!pending) {
                    wait();
                    continue;
                }
                // woken early by close() (it writes what is left) or by a new deferral after an
                // immediate write took the last one: either way writing now loses nothing
                wait(DELAY_MILLIS);
                if (failed == null) {
                    writeWaiting();
                }
                pending = false;
            } catch (IOException kept) {
                // writeRaw kept it in failed: the next call of a writer throws it
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Standard error beside a batched standard output. */
    private static final class Follower extends OutputStream implements Sequenced {
        private final OutputStream raw;
        private final BatchedOutput leader;

        Follower(OutputStream raw, BatchedOutput leader) {
            this.raw = raw;
            this.leader = leader;
        }

        @Override
        public OutputStream raw() {
            return raw;
        }

        @Override
        public void write(int b) throws IOException {
            sync();
            raw.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return;
            }
            sync();
            raw.write(b, off, len);
        }

        /** What stdout holds goes first; a stdout that failed is stdout's error, not this stream's. */
        @Override
        public void sync() {
            try {
                leader.sync();
            } catch (IOException stdoutFailed) {
                // reported by stdout's own next call; stderr's messages still go out
            }
        }

        @Override
        public void flush() throws IOException {
            raw.flush();
        }

        @Override
        public void close() {
            // the process's descriptor: left open
        }
    }
}
