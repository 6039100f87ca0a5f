// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk;

import java.util.Objects;

/**
 * How to walk: symbolic links, visiting order, depth limit, threads and engine.
 *
 * @param symlinks which links to follow
 * @param order whether a directory is visited before or after its contents
 * @param maxDepth entries deeper than this are neither visited nor read (0 visits the roots only)
 * @param threads walker threads; 0 means one per core. The visitor is called from all of them,
 *     in no fixed order; with one thread the native engine visits in find's order (a directory's
 *     entries as the kernel lists them, each subdirectory entered where it is met)
 * @param backend which engine to use; {@link Backend#AUTO} picks the native one when it can
 * @param sameFileSystem when true, directories on another file system than their root are
 *     visited but not entered (find's {@code -xdev}); costs a stat per directory
 */
public record WalkOptions(SymlinkMode symlinks, Order order, int maxDepth, int threads, Backend backend,
        boolean sameFileSystem) {
    /** Physical walk, pre-order, unlimited depth, one thread per core, engine chosen automatically. */
    public static final WalkOptions DEFAULTS =
            new WalkOptions(SymlinkMode.PHYSICAL, Order.PRE_ORDER, Integer.MAX_VALUE, 0, Backend.AUTO, false);

    public WalkOptions {
        Objects.requireNonNull(symlinks, "symlinks");
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(backend, "backend");
        if (maxDepth < 0) {
            throw new IllegalArgumentException("maxDepth must be >= 0, got " + maxDepth);
        }
        if (threads < 0) {
            throw new IllegalArgumentException("threads must be >= 0 (0 = one per core), got " + threads);
        }
    }

    public WalkOptions withSymlinks(SymlinkMode value) {
        return new WalkOptions(value, order, maxDepth, threads, backend, sameFileSystem);
    }

    public WalkOptions withOrder(Order value) {
        return new WalkOptions(symlinks, value, maxDepth, threads, backend, sameFileSystem);
    }

    public WalkOptions withMaxDepth(int value) {
        return new WalkOptions(symlinks, order, value, threads, backend, sameFileSystem);
    }

    public WalkOptions withThreads(int value) {
        return new WalkOptions(symlinks, order, maxDepth, value, backend, sameFileSystem);
    }

    public WalkOptions withBackend(Backend value) {
        return new WalkOptions(symlinks, order, maxDepth, threads, value, sameFileSystem);
    }

    public WalkOptions withSameFileSystem(boolean value) {
        return new WalkOptions(symlinks, order, maxDepth, threads, backend, value);
    }

    /** The thread count this walk will use. */
    public int effectiveThreads() {
        return threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
    }
}
