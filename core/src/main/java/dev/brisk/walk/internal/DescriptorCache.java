// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Uring;
import java.util.Arrays;

/**
 * One walker thread's directory descriptors, one slot per level of its stack of directories
 * (level 0 the directory the walk started from, level {@code k+1} a child of level {@code k}).
 * A level keeps its descriptor open so its children open with {@code openat(parent, name)};
 * beyond the budget the shallowest open levels close theirs, and a level needed again reopens
 * by path, relative to the nearest open level above it and in pieces shorter than PATH_MAX, so
 * a walk works with {@code ulimit -n 16} and in trees far deeper than PATH_MAX allows. An
 * {@code EMFILE} or {@code ENFILE} closes every level above the one opening and tries once more.
 *
 * <p>In a parallel walk the walker may open a directory's subdirectories ahead, in one batch
 * through its thread's {@link Uring} ({@link #openedAhead}, {@link #adopt}); closes then go to
 * that ring too, to be made with its next batch (they count against the budget until then).
 *
 * <p>Paths are the walker's one path buffer, passed in (it grows, so it is never kept): level
 * {@code k}'s directory is {@code path[0, pathLength(k))}. Failures return -1 with errno in the
 * {@link Scratch}. Confined to its thread.
 */
final class DescriptorCache {
    /** Pieces of a reopen by path stay below PATH_MAX (4096). */
    static final int PATH_CHUNK = 4000;
    private static final byte[] DOTDOT = {'.', '.'};

    private final Scratch scratch;
    private final int budget;
    private int[] fds = new int[64];
    private int[] pathLens = new int[64];
    private int[] nameOffs = new int[64];
    private int[] flags = new int[64];
    private int open;
    private Uring ring;

    /** {@code budget}: how many descriptors may be open at once (at least 1). */
    DescriptorCache(Scratch scratch, int budget) {
        this.scratch = scratch;
        this.budget = budget;
    }

    /**
     * Makes {@code level} the directory {@code path[0, pathLen)}, its own name starting at
     * {@code nameOff}, not yet open; {@code noFollow}: fail with ELOOP if its name is a symbolic
     * link. The level's previous descriptor must have been closed.
     */
    void enter(int level, int pathLen, int nameOff, boolean noFollow) {
        if (level == fds.length) {
            int n = level * 2;
            fds = Arrays.copyOf(fds, n);
            pathLens = Arrays.copyOf(pathLens, n);
            nameOffs = Arrays.copyOf(nameOffs, n);
            flags = Arrays.copyOf(flags, n);
        }
        fds[level] = -1;
        pathLens[level] = pathLen;
        nameOffs[level] = nameOff;
        flags[level] = Syscalls.O_DIR_FLAGS | (noFollow ? Flags.O_NOFOLLOW : 0);
    }

    /** From now on, queues closes into {@code ring} (null: closes at once). */
    void useRing(Uring ring) {
        this.ring = ring;
    }

    /** Makes the closes queued in the ring, if any. */
    void flush() {
        if (ring != null && ring.queuedCloses() > 0) {
            ring.submit(null);
        }
    }

    /** How many more descriptors may be opened ahead within the budget (leaving one for a level). */
    int room() {
        return budget - open - (ring != null ? ring.queuedCloses() : 0) - 1;
    }

    /** Counts a descriptor opened ahead (held by a frame for a subdirectory not yet entered). */
    void openedAhead() {
        open++;
    }

    /** Gives {@code level} (just {@link #enter}ed) the descriptor opened ahead for it. */
    void adopt(int level, int fd) {
        fds[level] = fd;
    }

    /** Closes a descriptor opened ahead that no level took. */
    void release(int fd) {
        closeFd(fd);
        open--;
    }

    private void closeFd(int fd) {
        if (ring != null) {
            ring.queueClose(fd); // closes at once where the ring stopped being usable
        } else {
            Syscalls.close(scratch, fd);
        }
    }

    /**
     * Opens {@code level}'s directory (the deepest level in use), relative to its parent's
     * descriptor, keeping within the budget; its descriptor, or -1. A level given a descriptor
     * opened ahead ({@link #adopt}) has it already.
     */
    int open(byte[] path, int level) {
        if (fds[level] >= 0) {
            return fds[level];
        }
        int fd = tryOpen(path, level);
        if (fd < 0 && (scratch.errno() == Errno.EMFILE || scratch.errno() == Errno.ENFILE)) {
            for (int i = 0; i < level; i++) {
                close(i);
            }
            flush(); // closes queued in the ring free nothing until it makes them
            fd = tryOpen(path, level);
        }
        if (fd >= 0) {
            fds[level] = fd;
            open++;
        }
        return fd;
    }

    private int tryOpen(byte[] path, int level) {
        if (ring != null && open + ring.queuedCloses() >= budget) {
            flush();
        }
        if (open >= budget) {
            for (int i = 0; i < level; i++) {
                if (fds[i] >= 0) {
                    close(i);
                    break;
                }
            }
        }
        if (level > 0) {
            int pfd = ensure(path, level - 1);
            if (pfd >= 0) {
                return Syscalls.openat(scratch, pfd,
                        scratch.cString(path, nameOffs[level], pathLens[level] - nameOffs[level]), flags[level]);
            }
        }
        return openByPath(path, level, pathLens[level], flags[level]);
    }

    /** {@code level}'s descriptor, reopened by path if the budget closed it; -1 on failure. */
    int ensure(byte[] path, int level) {
        if (fds[level] < 0) {
            int fd = openByPath(path, level, pathLens[level], flags[level]);
            if (fd >= 0) {
                fds[level] = fd;
                open++;
            }
        }
        return fds[level];
    }

    /** {@code level}'s descriptor as it is, -1 when closed. */
    int fd(int level) {
        return fds[level];
    }

    /**
     * Reopens {@code level}, if the budget closed it, through {@code ".."} of the still open
     * {@code level + 1}: one step on the way up instead of a walk down the whole path, which in
     * a 10,000-level tree would cost time quadratic in the depth. Only where {@code ".."} is the
     * directory the child was reached from (not under -L).
     */
    void reopenFromChild(int level) {
        int child = fds[level + 1];
        if (fds[level] >= 0 || child < 0) {
            return;
        }
        int fd = Syscalls.openat(scratch, child, scratch.cString(DOTDOT, 0, 2), Syscalls.O_DIR_FLAGS);
        if (fd >= 0) {
            fds[level] = fd;
            open++;
        }
    }

    /** Closes {@code level}'s descriptor if it is open. */
    void close(int level) {
        if (fds[level] >= 0) {
            closeFd(fds[level]);
            fds[level] = -1;
            open--;
        }
    }

    /** How many descriptors are open now. */
    int openCount() {
        return open;
    }

    /**
     * Opens {@code path[0, len)} relative to the nearest open level below {@code limit}, in
     * pieces shorter than PATH_MAX; {@code lastFlags} apply to the last piece.
     */
    private int openByPath(byte[] path, int limit, int len, int lastFlags) {
        int dirfd = Syscalls.AT_FDCWD;
        int start = 0;
        for (int i = limit - 1; i >= 0; i--) {
            if (fds[i] >= 0) {
                dirfd = fds[i];
                start = childBase(path, pathLens[i]);
                break;
            }
        }
        int cur = dirfd;
        while (len - start > PATH_CHUNK) {
            int cut = start + PATH_CHUNK;
            while (cut > start && path[cut] != '/') {
                cut--;
            }
            if (cut == start) {
                break; // one component longer than a chunk: let the kernel say ENAMETOOLONG
            }
            int next = Syscalls.openat(scratch, cur, scratch.cString(path, start, cut - start), Syscalls.O_DIR_FLAGS);
            closeQuietly(cur, dirfd);
            if (next < 0) {
                return -1;
            }
            cur = next;
            start = cut + 1;
        }
        int fd = Syscalls.openat(scratch, cur, scratch.cString(path, start, len - start), lastFlags);
        closeQuietly(cur, dirfd);
        return fd;
    }

    /** Closes an intermediate descriptor of {@link #openByPath} without hiding openat's errno. */
    private void closeQuietly(int fd, int kept) {
        if (fd != kept) {
            int e = scratch.errno();
            Syscalls.close(scratch, fd);
            scratch.setErrno(e);
        }
    }

    /** Where a child's name starts after the directory {@code path[0, pathLen)} (no second slash after a trailing one). */
    static int childBase(byte[] path, int pathLen) {
        return pathLen > 0 && path[pathLen - 1] == '/' ? pathLen : pathLen + 1;
    }
}
