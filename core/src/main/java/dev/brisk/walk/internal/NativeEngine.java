// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Libc;
import dev.brisk.walk.EntryType;
import dev.brisk.walk.FileStat;
import dev.brisk.walk.SymlinkMode;
import dev.brisk.walk.Visit;
import dev.brisk.walk.WalkOptions;
import dev.brisk.walk.WalkResult;
import dev.brisk.walk.WalkVisitor;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * The Linux engine: visits each root on the calling thread, then walks each root directory with
 * a {@link DirWalker} on the calling thread; a parallel walk that proves big (more than a few
 * dozen directories) goes on on a ForkJoinPool of the requested size, started then.
 */
public final class NativeEngine {
    private static final String UNAVAILABLE = probe();

    private NativeEngine() {}

    /** True when the native calls are bound and work here. */
    public static boolean available() {
        return UNAVAILABLE == null;
    }

    /** Why the native engine cannot run here, or null when it can. */
    public static String unavailableReason() {
        return UNAVAILABLE;
    }

    private static String probe() {
        if (!System.getProperty("os.name", "").equals("Linux")) {
            return "not Linux";
        }
        try {
            Scratch s = new Scratch();
            int fd = Syscalls.openat(s, Syscalls.AT_FDCWD, s.cString(new byte[] {'/'}, 0, 1), Syscalls.O_DIR_FLAGS);
            if (fd < 0) {
                return "openat failed: " + Errno.message(s.errno());
            }
            long n = Syscalls.getdents(s, fd, s.dents, Scratch.DENTS_SIZE);
            Syscalls.close(s, fd);
            if (n < 0) {
                return "getdents64 failed: " + Errno.message(s.errno());
            }
            if (Syscalls.statx(s, Syscalls.AT_FDCWD, s.cString(new byte[] {'/'}, 0, 1), 0, s.statBuf) != 0) {
                return "statx failed: " + Errno.message(s.errno());
            }
            return null;
        } catch (Throwable t) {
            return t.getClass().getSimpleName() + ": " + t.getMessage();
        }
    }

    /** Walks {@code roots} in order; blocks until done or stopped. */
    public static WalkResult walk(List<byte[]> roots, WalkOptions options, WalkVisitor visitor, Cancel cancel) {
        int threads = options.order() == dev.brisk.walk.Order.POST_ORDER ? 1 : options.effectiveThreads();
        WalkState state = new WalkState(options, visitor, threads);
        cancel.attach(state);
        DirWalker here = null;
        try {
            here = DirWalker.forThread(state);
            NativeEntry root = new NativeEntry(here);
            for (byte[] r : roots) {
                if (state.stopped) {
                    break;
                }
                walkRoot(state, here, root, r);
            }
        } catch (RuntimeException | Error e) {
            state.stopped = true; // the other workers stop at their next directory
            throw e;
        } finally {
            cancel.detach();
            state.walkers.remove(); // the calling thread may live on (a server's): it keeps no walker but its scratch
            ForkJoinPool pool = state.pool();
            if (pool != null) {
                pool.shutdownNow();
                awaitWorkers(pool);
            }
            if (here != null) {
                Scratch.giveBack(here.scratch);
            }
        }
        return new WalkResult(state.errors.sum(), state.stopped);
    }

    /**
     * Waits (briefly) for the pool's workers to end, each closing its thread's io_uring: a
     * walk that returned holds no descriptor. A worker still inside a visitor that blocks
     * closes its ring when it ends.
     */
    private static void awaitWorkers(ForkJoinPool pool) {
        try {
            pool.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void walkRoot(WalkState state, DirWalker here, NativeEntry root, byte[] r) {
        boolean follow = state.options.symlinks() != SymlinkMode.PHYSICAL;
        Scratch s = here.scratch;
        FileStat st = s.stat(Syscalls.AT_FDCWD, r, 0, r.length, follow);
        if (st == null && follow && (s.errno() == Errno.ENOENT || s.errno() == Errno.ENOTDIR)) {
            // a dangling link, or one through a non-directory (file/): a broken link, as POSIX lists it
            st = s.stat(Syscalls.AT_FDCWD, r, 0, r.length, false);
        }
        if (st == null) {
            int e = s.errno();
            state.error(r, e, Errno.message(e));
            return;
        }
        EntryType type = st.type();
        state.rootDevice = st.dev();
        int nameOff = DirWalker.nameStart(r, r.length);
        root.set(r, r.length, nameOff, 0, type, 0, Syscalls.AT_FDCWD, follow);
        root.setStat(st);
        boolean descend = type == EntryType.DIRECTORY && state.maxDepth > 0;
        if (!state.postOrder || !descend) {
            Visit v = state.visitor.visit(root);
            if (v == Visit.STOP) {
                state.stopped = true;
                return;
            }
            if (v == Visit.SKIP_SUBTREE) {
                return;
            }
        }
        if (descend) {
            long[] anc = null;
            if (state.threads > 1 && state.handOffDirs == 0) {
                state.startPool().invoke(new DirTask(null, state, r, 0, follow, anc));
            } else if (state.threads > 1) {
                new DirTask(null, state, r, 0, follow, anc).runHere();
            } else {
                here.walk(null, r, 0, follow, anc);
            }
            if (state.postOrder && !state.stopped) {
                root.set(r, r.length, nameOff, 0, type, 0, Syscalls.AT_FDCWD, follow);
                root.setStat(st);
                if (state.visitor.visit(root) == Visit.STOP) {
                    state.stopped = true;
                }
            }
        }
    }

    /** Lets another thread stop a walk in progress. Thread-safe. */
    public static final class Cancel {
        private volatile WalkState state;
        private volatile boolean cancelled;

        void attach(WalkState s) {
            state = s;
            if (cancelled) {
                s.stopped = true;
            }
        }

        void detach() {
            state = null;
        }

        /** Stops the walk as soon as its threads next look (within one directory). */
        public void cancel() {
            cancelled = true;
            WalkState s = state;
            if (s != null) {
                s.stopped = true;
            }
        }

        public boolean isCancelled() {
            return cancelled;
        }
    }
}
