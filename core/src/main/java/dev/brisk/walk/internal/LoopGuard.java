// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import java.util.Arrays;

/**
 * File-system loop detection for a walk that follows symbolic links (-L): the identity
 * (device, inode) of each directory on one walker's stack, plus those of the directories above
 * the subtree it was handed (a parallel task's ancestors). A directory whose identity is already
 * on the path from the root (reached through a link, or a bind mount below the link) is a loop,
 * as GNU find reports it. Confined to its thread.
 */
final class LoopGuard {
    /** No directory on the path has the identity. */
    static final int NONE = -1;
    /** A directory above the walker's subtree (walked by another task) has it. */
    static final int ABOVE = -2;

    private static final byte[] EMPTY = {};
    private static final int AT_EMPTY_PATH = 0x1000;

    private final Scratch scratch;
    /** (dev, ino) per level. */
    private long[] ids = new long[128];
    /** (dev, ino) pairs of the directories above level 0, or null. */
    private long[] above;

    LoopGuard(Scratch scratch) {
        this.scratch = scratch;
    }

    /** Starts a walk of a subtree below the directories {@code above} ((dev, ino) pairs, or null). */
    void start(long[] above) {
        this.above = above;
    }

    /**
     * Records the directory open as {@code fd} at {@code level} and looks for it at the levels
     * above: the level found, {@link #ABOVE}, or {@link #NONE} (also when it cannot be stat'ed,
     * and then it is recorded as no directory's identity).
     */
    int enter(int level, int fd) {
        if (2 * level + 2 > ids.length) {
            ids = Arrays.copyOf(ids, Math.max(ids.length * 2, 2 * level + 2));
        }
        if (Syscalls.statx(scratch, fd, scratch.cString(EMPTY, 0, 0), AT_EMPTY_PATH, scratch.statBuf) != 0) {
            ids[2 * level] = -1;
            ids[2 * level + 1] = -1;
            return NONE;
        }
        long dev = Syscalls.dev(scratch.statBuf);
        long ino = Syscalls.ino(scratch.statBuf);
        ids[2 * level] = dev;
        ids[2 * level + 1] = ino;
        return find(dev, ino, level);
    }

    /** The level among {@code [0, levels)} whose directory is (dev, ino), {@link #ABOVE}, or {@link #NONE}. */
    int find(long dev, long ino, int levels) {
        for (int i = 0; i < levels; i++) {
            if (ids[2 * i] == dev && ids[2 * i + 1] == ino) {
                return i;
            }
        }
        if (above != null) {
            for (int i = 0; i + 1 < above.length; i += 2) {
                if (above[i] == dev && above[i + 1] == ino) {
                    return ABOVE;
                }
            }
        }
        return NONE;
    }

    /** The identities above a subtree handed away from below {@code level}: those above this walker's, then levels 0 to {@code level}. */
    long[] pathThrough(int level) {
        int have = above == null ? 0 : above.length;
        long[] out = above == null ? new long[2 * (level + 1)] : Arrays.copyOf(above, have + 2 * (level + 1));
        System.arraycopy(ids, 0, out, have, 2 * (level + 1));
        return out;
    }
}
