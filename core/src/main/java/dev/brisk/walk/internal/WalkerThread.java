// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.internal.posix.Uring;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * A worker of a parallel walk's pool: it owns its thread's {@link Uring}, made when a walker
 * first wants one, and frees it on the thread itself when the thread ends (the pool shut down
 * at the end of the walk, or idle): never while a walker may still be using it.
 */
final class WalkerThread extends ForkJoinWorkerThread {
    /** Entries of each ring: a directory's subdirectories are opened up to this many at a time. */
    static final int RING_ENTRIES = 64;

    private Uring ring;
    private boolean tried;

    WalkerThread(ForkJoinPool pool) {
        super(pool);
    }

    /** The calling walker's ring (this thread's), or null where there is none. */
    static Uring ring() {
        return Thread.currentThread() instanceof WalkerThread w ? w.ownRing() : null;
    }

    private Uring ownRing() {
        if (!tried) {
            tried = true;
            ring = Uring.create(RING_ENTRIES);
        }
        return ring != null && ring.usable() ? ring : null;
    }

    @Override
    protected void onTermination(Throwable exception) {
        try {
            if (ring != null) {
                ring.close();
            }
        } finally {
            super.onTermination(exception);
        }
    }
}
