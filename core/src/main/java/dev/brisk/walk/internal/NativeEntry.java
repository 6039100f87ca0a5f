// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.walk.EntryType;
import dev.brisk.walk.FileStat;
import dev.brisk.walk.WalkEntry;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The native engine's reusable entry: a view of the walker's path buffer plus the descriptor of
 * the directory holding the entry, so a stat is one {@code statx(dirfd, name)} call. Confined to
 * the walker's thread and valid during one visit.
 */
final class NativeEntry implements WalkEntry {
    private final DirWalker walker;
    private byte[] path;
    private int len, nameOff, statOff, depth, dirfd;
    private EntryType type;
    private boolean follow, statDone;
    /** After {@link #resolveType}: why following the link failed, if not because its target is missing; else 0. */
    private int followErrno;
    private FileStat stat;

    NativeEntry(DirWalker walker) {
        this.walker = walker;
    }

    /** Points this entry at {@code path[0, len)}; a stat uses {@code path[statOff, len)} relative to {@code dirfd}. */
    void set(byte[] path, int len, int nameOff, int statOff, EntryType type, int depth, int dirfd, boolean follow) {
        this.path = path;
        this.len = len;
        this.nameOff = nameOff;
        this.statOff = statOff;
        this.type = type;
        this.depth = depth;
        this.dirfd = dirfd;
        this.follow = follow;
        this.statDone = false;
        this.stat = null;
        this.followErrno = 0;
    }

    /** Sets a known stat (the engine stat'ed a root or resolved a type already). */
    void setStat(FileStat s) {
        this.stat = s;
        this.statDone = true;
    }

    /** Resolves an unknown type, or a link's target type when following links, by a stat call. */
    EntryType resolveType() {
        FileStat s = walker.statEntry(dirfd, path, statOff, len - statOff, follow);
        if (s == null && follow) {
            int e = walker.scratch.errno();
            if (e != Errno.ENOENT && e != Errno.ENOTDIR) { // dangling, or through a non-directory: a broken link
                followErrno = e; // a loop (ELOOP) or an unreadable target: an error, as fts reports it, not an entry
            }
            s = walker.statEntry(dirfd, path, statOff, len - statOff, false); // a dangling link
        }
        setStat(s);
        if (s != null) {
            type = s.type();
        }
        return type;
    }

    int followErrno() {
        return followErrno;
    }

    @Override
    public byte[] pathBuffer() {
        return path;
    }

    @Override
    public int pathLength() {
        return len;
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

    @Override
    public FileStat stat() {
        if (!statDone) {
            statDone = true;
            stat = walker.statEntry(dirfd, path, statOff, len - statOff, follow);
            if (stat == null && follow) {
                stat = walker.statEntry(dirfd, path, statOff, len - statOff, false);
            }
        }
        return stat;
    }

    @Override
    public boolean isEmptyDirectory() {
        return emptyDirectory(walker.scratch, dirfd, path, statOff, len - statOff, follow);
    }

    @Override
    public byte[] readLink() {
        return walker.scratch.readLink(dirfd, path, statOff, len - statOff);
    }

    @Override
    public WalkEntry snapshot() {
        return new SnapshotEntry(Arrays.copyOf(path, len), nameOff, type, depth, follow, statDone ? stat : null);
    }

    static boolean emptyDirectory(Scratch s, int dirfd, byte[] p, int off, int n, boolean follow) {
        int fd = Syscalls.openat(s, dirfd, s.cString(p, off, n),
                Syscalls.O_DIR_FLAGS | (follow ? 0 : Flags.O_NOFOLLOW));
        if (fd < 0) {
            return false;
        }
        try {
            MemorySegment buf = s.smallDents();
            long got;
            while ((got = Syscalls.getdents(s, fd, buf, buf.byteSize())) > 0) {
                byte[] d = new byte[(int) got]; // read as DirWalker reads, by Dirents, not by layout accessors (see Scratch)
                MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, d, 0, d.length);
                for (int pos = 0; pos < got; ) {
                    int reclen = Dirents.recordLength(d, pos);
                    int nameAt = pos + Dirents.NAME_AT;
                    if (!Dirents.isDotOrDotDot(d, nameAt, Dirents.nameEnd(d, pos, reclen) - nameAt)) {
                        return false;
                    }
                    pos += reclen;
                }
            }
            return got == 0;
        } finally {
            Syscalls.close(s, fd);
        }
    }
}
