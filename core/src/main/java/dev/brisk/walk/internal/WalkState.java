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
 * count and (for a parallel walk) the pool. Thread-safe.
 */
final class WalkState {
    final WalkOptions options;
    final WalkVisitor visitor;
    final boolean postOrder;
    final boolean followAll;
    final int maxDepth;
    /** Directory descriptors one thread may keep open; the rest are closed and reopened by path. */
    final int fdBudget;
    final ForkJoinPool pool;
    final LongAdder errors = new LongAdder();
    final ThreadLocal<DirWalker> walkers = ThreadLocal.withInitial(() -> new DirWalker(this));
    volatile boolean stopped;
    /** The device of the root being walked, for {@link WalkOptions#sameFileSystem()}. */
    volatile long rootDevice;

    WalkState(WalkOptions options, WalkVisitor visitor, ForkJoinPool pool, int threads) {
        this.options = options;
        this.visitor = visitor;
        this.postOrder = options.order() == Order.POST_ORDER;
        this.followAll = options.symlinks() == SymlinkMode.LOGICAL;
        this.maxDepth = options.maxDepth();
        this.pool = pool;
        // leave room for the JVM's own descriptors, the output and the commands find runs
        long free = Syscalls.openFileLimit(new Scratch()) - 24;
        this.fdBudget = (int) Math.max(2, Math.min(64, free / (2L * threads)));
    }

    void error(byte[] path, int errno, String message) {
        errors.increment();
        visitor.failed(new WalkError(path, errno, message));
    }
}
