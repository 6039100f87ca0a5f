// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.walk.Order;
import dev.brisk.walk.SymlinkMode;
import dev.brisk.walk.WalkError;
import dev.brisk.walk.WalkOptions;
import dev.brisk.walk.WalkVisitor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.LongAdder;

/**
 * What every thread of one walk shares: the options, the visitor, the stop flag, the error
 * count and (for a parallel walk that proved big) the pool. Thread-safe.
 */
final class WalkState {
    final WalkOptions options;
    final WalkVisitor visitor;
    final boolean postOrder;
    final boolean followAll;
    final int maxDepth;
    /** Directory descriptors one thread may keep open; the rest are closed and reopened by path. */
    final int fdBudget;
    /** Walker threads of a parallel walk (1: sequential). */
    final int threads;
    /**
     * A parallel walk's calling thread walks alone until it has read this many directories (or
     * 64 times as many entries), or for {@link #handOffNanos} (5 ms), then hands the rest to a pool; 0:
     * the pool walks from the start. System properties {@code brisk.walk.handoff} and {@code
     * brisk.walk.handoff-ms} (for tests and measurements).
     */
    final int handOffDirs = Math.max(0, Integer.getInteger("brisk.walk.handoff", DirWalker.HAND_OFF_DIRS));
    final long handOffNanos = Math.max(0, Long.getLong("brisk.walk.handoff-ms", DirWalker.HAND_OFF_MILLIS)) * 1_000_000;
    /** A parallel walk's pool, started once the walk proves big ({@link #startPool}); else null. */
    private volatile ForkJoinPool pool;
    final LongAdder errors = new LongAdder();
    final ThreadLocal<DirWalker> walkers = ThreadLocal.withInitial(() -> new DirWalker(this));
    volatile boolean stopped;
    /** The last names of the mount points as the walk starts ({@link MountNames}): entries to stat. */
    final byte[][][] mountNames = MountNames.current();
    /** The device of the root being walked, for {@link WalkOptions#sameFileSystem()}. */
    volatile long rootDevice;

    WalkState(WalkOptions options, WalkVisitor visitor, int threads) {
        this.options = options;
        this.visitor = visitor;
        this.postOrder = options.order() == Order.POST_ORDER;
        this.followAll = options.symlinks() == SymlinkMode.LOGICAL;
        this.maxDepth = options.maxDepth();
        this.threads = threads;
        // leave room for the JVM's own descriptors, the output and the commands find runs
        long free = Syscalls.openFileLimit() - 24;
        this.fdBudget = (int) Math.max(2, Math.min(64, free / (2L * threads)));
    }

    /** The walk's pool, started on first use. */
    synchronized ForkJoinPool startPool() {
        if (pool == null) {
            pool = new ForkJoinPool(threads, WalkerThread::new, null, false);
        }
        return pool;
    }

    /** The walk's pool if one was started, else null. */
    ForkJoinPool pool() {
        return pool;
    }

    void error(byte[] path, int errno, String message) {
        errors.increment();
        visitor.failed(new WalkError(path, errno, message));
    }
}
