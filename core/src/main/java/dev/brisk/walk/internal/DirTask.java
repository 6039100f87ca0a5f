// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import java.util.concurrent.CountedCompleter;

/**
 * One directory subtree to walk in a parallel walk: a directory already visited, not yet read.
 * Tasks fork more tasks only when other workers are idle; the walk ends when the root task and
 * every task it forked have completed. The root task starts on the walk's calling thread
 * ({@link #runHere}); the others run on the walk's ForkJoinPool.
 */
final class DirTask extends CountedCompleter<Void> {
    private static final long serialVersionUID = 1L;

    final transient WalkState state;
    final byte[] path;
    final int depth;
    final boolean followed;
    /** (dev, ino) pairs of the directories above this one, for loop detection under -L. */
    final long[] ancestors;

    DirTask(CountedCompleter<?> parent, WalkState state, byte[] path, int depth, boolean followed, long[] ancestors) {
        super(parent);
        this.state = state;
        this.path = path;
        this.depth = depth;
        this.followed = followed;
        this.ancestors = ancestors;
    }

    /**
     * Runs this root task on the calling thread (not a pool's): it walks alone until the walk
     * proves big, hands the rest to the pool, then waits for every task to end; rethrows what a
     * task threw.
     */
    void runHere() {
        if (!state.stopped) {
            DirWalker.forThread(state).walk(this, path, depth, followed, ancestors);
        }
        tryComplete();
        join();
    }

    @Override
    public void compute() {
        if (!state.stopped) {
            DirWalker.forThread(state).walk(this, path, depth, followed, ancestors);
        }
        tryComplete();
    }
}
