// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.PosixException;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * find's standard output shared by the walk's threads: each thread fills its own 64 KiB buffer
 * ({@link Ctx}) with whole records and writes it here under one lock, so records never
 * interleave and there is no write per entry. A write to a closed pipe (EPIPE) marks the output
 * broken, which stops the walk (GNU find dies of SIGPIPE there). Any other failed write (a full
 * disk, a closed descriptor) is counted and remembered, and the walk goes on, as GNU find's
 * does: later writes are tried again, and the run reports the failure at its end
 * ({@link #failures}, {@link #lastError}). Thread-safe.
 */
final class Output {
    private static final int SLOTS = 64;

    private final OutputStream out;
    private final List<Ctx> contexts = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Ctx> local;
    private final Ctx[] slots = new Ctx[SLOTS];
    volatile boolean broken;
    private long failures;
    /** {@link #failures} at the last {@link #sync}. */
    private long failuresAtSync;
    private int lastErrno;
    private String lastError;

    Output(OutputStream out, RunState shared) {
        this.out = out;
        this.local = ThreadLocal.withInitial(() -> {
            Ctx c = new Ctx(this, shared);
            contexts.add(c);
            return c;
        });
    }

    /**
     * This thread's evaluation context and buffer. Called once per entry: a ThreadLocal lookup
     * per entry is a native call ({@code Reference.refersTo}) in C1-compiled code, so each thread
     * first looks in a small table indexed by its id. The table is read without locks; a slot
     * read from another thread, or stale, fails the owner check (a final field) and falls back.
     */
    Ctx context() {
        Thread t = Thread.currentThread();
        int slot = (int) t.threadId() & (SLOTS - 1);
        Ctx c = slots[slot];
        if (c != null && c.owner == t) {
            return c;
        }
        c = local.get();
        slots[slot] = c;
        return c;
    }

    synchronized void write(byte[] b, int off, int len) {
        if (broken) {
            return;
        }
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            failed(e);
        }
    }

    /** A failed write or flush: EPIPE breaks the output, anything else is counted. Under the lock. */
    private void failed(IOException e) {
        int errno = e instanceof PosixException p ? p.errno() : 0;
        if (errno == Errno.EPIPE) {
            broken = true;
            return;
        }
        failures++;
        lastErrno = errno;
        lastError = errno != 0 ? Errno.message(errno) : e.getMessage();
    }

    /** How many writes (or flushes) have failed so far, a closed pipe's aside. */
    synchronized long failures() {
        return failures;
    }

    /**
     * Whether a write failed since the last {@link #sync}: then GNU find's own buffer would still
     * hold output at its end, and its last flush, which it reports, would fail.
     */
    synchronized boolean failedSinceSync() {
        return failures > failuresAtSync;
    }

    /**
     * Writes out everything, as GNU find flushes its standard output before it runs a command or
     * writes a message (a failure there it does not report, but remembers for its exit).
     */
    void sync() {
        flushAll();
        synchronized (this) {
            failuresAtSync = failures;
        }
    }

    /** The system's words for the last failed write ("No space left on device"), or null. */
    synchronized String lastError() {
        return lastError;
    }

    /** The errno of the last failed write, 0 if none or unknown. */
    synchronized int lastErrno() {
        return lastErrno;
    }

    /**
     * Drops the calling thread's context: a run's own thread may live on (a server's call
     * thread), and should not keep its buffer. Call after {@link #flushAll}.
     */
    void release() {
        local.remove();
    }

    /** Writes every thread's buffered records; call once the walk's threads are idle. */
    void flushAll() {
        for (Ctx c : contexts) {
            c.flush();
        }
        synchronized (this) {
            if (broken) {
                return;
            }
            try {
                out.flush();
            } catch (IOException e) {
                failed(e);
            }
        }
    }
}
