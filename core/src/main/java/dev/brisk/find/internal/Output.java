// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * find's standard output shared by the walk's threads: each thread fills its own 64 KiB buffer
 * ({@link Ctx}) with whole records and writes it here under one lock, so records never
 * interleave and there is no write per entry. A failed write (a closed pipe) marks the output
 * broken, which stops the walk. Thread-safe.
 */
final class Output {
    private static final int SLOTS = 64;

    private final OutputStream out;
    private final List<Ctx> contexts = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Ctx> local;
    private final Ctx[] slots = new Ctx[SLOTS];
    volatile boolean broken;

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
            broken = true;
        }
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
            try {
                out.flush();
            } catch (IOException e) {
                broken = true;
            }
        }
    }
}
