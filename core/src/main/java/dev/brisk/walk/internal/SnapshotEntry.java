// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.walk.EntryType;
import dev.brisk.walk.FileStat;
import dev.brisk.walk.WalkEntry;

/**
 * An entry copied out of a walk: immutable path bytes; the stat, when not taken during the walk,
 * is taken on first use by path (so paths longer than PATH_MAX fail it). Not thread-safe.
 */
public final class SnapshotEntry implements WalkEntry {
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private final byte[] path;
    private final int nameOff;
    private final EntryType type;
    private final int depth;
    private final boolean follow;
    private FileStat stat;
    private boolean statDone;

    public SnapshotEntry(byte[] path, int nameOff, EntryType type, int depth, boolean follow, FileStat stat) {
        this.path = path;
        this.nameOff = nameOff;
        this.type = type;
        this.depth = depth;
        this.follow = follow;
        this.stat = stat;
        this.statDone = stat != null;
    }

    @Override
    public byte[] pathBuffer() {
        return path;
    }

    @Override
    public int pathLength() {
        return path.length;
    }

    @Override
    public int nameOffset() {
        return nameOff;
    }

    @Override
    public EntryType type() {
        return type;
    }

    @Override
    public int depth() {
        return depth;
    }

    /**
     * Why {@code path} cannot be followed: 0 if stat(2) succeeds, else its errno ({@code ENOENT}
     * for a dangling link, {@code ELOOP} for a loop). Native engine only; else 0 or ENOENT.
     */
    public static int followErrno(byte[] path) {
        if (NativeEngine.available()) {
            Scratch s = SCRATCH.get();
            return s.stat(Syscalls.AT_FDCWD, path, 0, path.length, true) != null ? 0 : s.errno();
        }
        return PortableEngine.stat(path, true) != null ? 0 : dev.brisk.internal.posix.Errno.ENOENT;
    }

    @Override
    public FileStat stat() {
        if (!statDone) {
            statDone = true;
            if (NativeEngine.available()) {
                Scratch s = SCRATCH.get();
                stat = s.stat(Syscalls.AT_FDCWD, path, 0, path.length, follow);
                if (stat == null && follow) {
                    stat = s.stat(Syscalls.AT_FDCWD, path, 0, path.length, false);
                }
            } else {
                stat = PortableEngine.stat(path, follow);
            }
        }
        return stat;
    }

    @Override
    public boolean isEmptyDirectory() {
        if (NativeEngine.available()) {
            return NativeEntry.emptyDirectory(SCRATCH.get(), Syscalls.AT_FDCWD, path, 0, path.length, follow);
        }
        return PortableEngine.isEmptyDirectory(path, follow);
    }

    @Override
    public byte[] readLink() {
        if (NativeEngine.available()) {
            return SCRATCH.get().readLink(Syscalls.AT_FDCWD, path, 0, path.length);
        }
        return PortableEngine.readLink(path);
    }

    @Override
    public WalkEntry snapshot() {
        return this;
    }
}
