// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.walk.EntryType;
import dev.brisk.walk.FileStat;
import dev.brisk.walk.Visit;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.concurrent.CountedCompleter;
import java.util.concurrent.ForkJoinTask;

/**
 * One thread's depth-first walk of a directory subtree, with an explicit stack of frames (never
 * the Java stack), so depth is bounded by memory alone.
 *
 * <p>Each directory is read whole with {@code getdents64} into the thread's 64 KiB buffer. In a
 * parallel walk its entries are visited at once and its subdirectories kept as a list of names in
 * its frame; in a sequential walk the frame keeps every entry and they are visited one by one in
 * the kernel's order, each subdirectory entered as it is met (find's order). A
 * frame keeps its descriptor open so children open with {@code openat(parent, name)}; past the
 * thread's descriptor budget the shallowest frames close theirs and reopen by path (relative to
 * the nearest open ancestor, in pieces shorter than PATH_MAX) when a child needs them. So the
 * walk works with {@code ulimit -n 16} and in trees far deeper than PATH_MAX allows.
 *
 * <p>In a parallel walk, a walker gives the shallowest pending subdirectory away as a new
 * {@link DirTask} whenever the pool has idle workers. Confined to its thread.
 *
 * <p>Over 500 lines because the sequential and the parallel traversal share one frame stack,
 * descriptor budget and loop check, which are kept together for the hot loop's sake; the
 * descriptor cache and the loop guard are the next seams to cut.
 */
final class DirWalker {
    private static final int PATH_CHUNK = 4000;
    private static final byte[] DOTDOT = {'.', '.'};

    private final WalkState state;
    final Scratch scratch = new Scratch();
    private final NativeEntry entry = new NativeEntry(this);
    byte[] path = new byte[4096];
    private Frame[] frames = new Frame[64];
    private int top = -1;
    private int openFds;
    private CountedCompleter<?> task;
    private long[] taskAncestors;

    DirWalker(WalkState state) {
        this.state = state;
    }

    static DirWalker forThread(WalkState state) {
        return state.walkers.get();
    }

    /** A directory's place in the walk. */
    private static final class Frame {
        int pathLen;
        int nameOff;
        int depth;
        int fd = -1;
        boolean followed;
        boolean read;
        long dev, ino;
        /**
         * Pending subdirectories: per name, its length (2 bytes) and its bytes. In a sequential
         * walk, every pending entry instead: its length (2 bytes), its d_type (1 byte), its bytes.
         */
        byte[] subs = new byte[256];
        int subsLen, subsPos;
        /** In a sequential walk: the entries read, and each one's inode number (for fts's inode sort). */
        int count;
        long[] inos = new long[16];

        void reset(int pathLen, int nameOff, int depth, boolean followed) {
            this.pathLen = pathLen;
            this.nameOff = nameOff;
            this.depth = depth;
            this.followed = followed;
            this.fd = -1;
            this.read = false;
            this.subsLen = 0;
            this.subsPos = 0;
            this.count = 0;
        }
    }

    /**
     * Walks the subtree of the directory {@code dirPath} (already visited, at {@code depth}).
     * {@code task} is the parallel task running it, or null in a sequential walk.
     */
    void walk(CountedCompleter<?> task, byte[] dirPath, int depth, boolean followed, long[] ancestors) {
        this.task = task;
        this.taskAncestors = ancestors;
        ensurePath(dirPath.length + 1);
        System.arraycopy(dirPath, 0, path, 0, dirPath.length);
        top = -1;
        openFds = 0;
        push(dirPath.length, nameStart(dirPath, dirPath.length), depth, followed);
        try {
            loop();
        } finally {
            for (int i = 0; i <= top; i++) {
                closeFd(frames[i]);
            }
            top = -1;
        }
    }

    private void loop() {
        while (top >= 0) {
            if (state.stopped) {
                return;
            }
            Frame f = frames[top];
            if (!f.read) {
                f.read = true;
                if (task == null) {
                    readAll(f);
                } else {
                    read(f);
                }
                continue;
            }
            if (f.subsPos < f.subsLen) {
                if (task == null) {
                    visitNext(f);
                    continue;
                }
                donate();
                if (f.subsPos < f.subsLen) {
                    int n = ((f.subs[f.subsPos] & 0xff) << 8) | (f.subs[f.subsPos + 1] & 0xff);
                    int base = childBase(f);
                    ensurePath(base + n + 1);
                    System.arraycopy(f.subs, f.subsPos + 2, path, base, n);
                    f.subsPos += 2 + n;
                    push(base + n, base, f.depth + 1, state.followAll);
                }
                continue;
            }
            top--;
            reopenParentFrom(f);
            closeFd(f);
            if (state.postOrder) {
                visitAfter(f);
            }
        }
    }

    /** Visits a directory after its contents (find's -depth). */
    private void visitAfter(Frame f) {
        if (top >= 0) {
            int pfd = ensureFd(top);
            if (pfd >= 0) {
                entry.set(path, f.pathLen, f.nameOff, f.nameOff, EntryType.DIRECTORY, f.depth, pfd, state.followAll);
            } else {
                entry.set(path, f.pathLen, f.nameOff, 0, EntryType.DIRECTORY, f.depth, Syscalls.AT_FDCWD, state.followAll);
            }
        } else if (f.depth == 0) {
            return; // the engine visits a root itself
        } else {
            entry.set(path, f.pathLen, f.nameOff, 0, EntryType.DIRECTORY, f.depth, Syscalls.AT_FDCWD, state.followAll);
        }
        if (state.visitor.visit(entry) == Visit.STOP) {
            state.stopped = true;
        }
    }

    /** Reads frame {@code f}'s directory, visits its entries and records its subdirectories. */
    private void read(Frame f) {
        int fd = open(f);
        if (fd < 0) {
            int e = scratch.errno();
            state.error(Arrays.copyOf(path, f.pathLen), e, Errno.message(e));
            return;
        }
        if (state.followAll && isLoop(f, fd)) {
            closeFd(f);
            return;
        }
        int base = childBase(f);
        if (base > f.pathLen) {
            path[f.pathLen] = '/';
        }
        int childDepth = f.depth + 1;
        boolean descend = childDepth < state.maxDepth;
        for (int n; (n = nextBatch(f, fd)) > 0; ) {
            byte[] d = scratch.dentsBytes;
            int last = 0;
            for (int pos = 0; pos < n; ) {
                last = pos;
                int reclen = recordLength(d, pos);
                int nameAt = pos + NAME_AT;
                int len = nameEnd(d, pos, reclen) - nameAt;
                int dtype = d[pos + TYPE_AT];
                pos += reclen;
                if (isDotOrDotDot(d, nameAt, len)) {
                    continue;
                }
                ensurePath(base + len + 1);
                System.arraycopy(d, nameAt, path, base, len);
                EntryType type = typeOf(dtype);
                entry.set(path, base + len, base, base, type, childDepth, fd, state.followAll);
                if (type == EntryType.UNKNOWN || (state.followAll && type == EntryType.SYMLINK)) {
                    boolean link = type == EntryType.SYMLINK;
                    type = entry.resolveType();
                    if (entry.followErrno() != 0) {
                        state.error(Arrays.copyOf(path, base + len), entry.followErrno(), Errno.message(entry.followErrno()));
                        continue;
                    }
                    if (link && type == EntryType.DIRECTORY && linksToAncestor(f, base + len)) {
                        continue;
                    }
                }
                if (type == EntryType.DIRECTORY && descend) {
                    if (state.options.sameFileSystem() && !sameDevice()) {
                        if (state.visitor.visit(entry) == Visit.STOP) {
                            state.stopped = true;
                            return;
                        }
                        continue;
                    }
                    if (state.postOrder) {
                        addSub(f, base, len);
                        continue;
                    }
                    Visit v = state.visitor.visit(entry);
                    if (v == Visit.CONTINUE) {
                        addSub(f, base, len);
                    } else if (v == Visit.STOP) {
                        state.stopped = true;
                        return;
                    }
                } else if (state.visitor.visit(entry) == Visit.STOP) {
                    state.stopped = true;
                    return;
                }
            }
            if (state.stopped) {
                return;
            }
            // ext4 gives the last entry the end-of-directory cookie as its next offset: the call
            // that would return 0 can be skipped (one system call per directory less). Any other
            // offset, or another file system, reads on until getdents64 returns 0.
            if (endOfDirectory(d, last)) {
                break;
            }
        }
    }

    /**
     * The next {@code getdents64} batch of directory {@code fd} (frame {@code f}), copied into
     * the scratch's array (one bulk copy, then plain array reads: far cheaper than segment reads
     * before the JIT warms up); its length, or 0 at the end or after an error, which it reports.
     */
    private int nextBatch(Frame f, int fd) {
        long n = Syscalls.getdents(scratch, fd, scratch.dents, Scratch.DENTS_SIZE);
        if (n < 0) {
            int e = scratch.errno();
            state.error(Arrays.copyOf(path, f.pathLen), e, Errno.message(e));
        }
        if (n <= 0) {
            return 0;
        }
        MemorySegment.copy(scratch.dents, ValueLayout.JAVA_BYTE, 0, scratch.dentsBytes, 0, (int) n);
        return (int) n;
    }

    /** Offsets in a {@code struct linux_dirent64}: after d_ino, d_off and d_reclen come d_type, then the name. */
    static final int RECLEN_AT = 16, TYPE_AT = 18, NAME_AT = 19;

    static int recordLength(byte[] d, int pos) {
        return (d[pos + RECLEN_AT] & 0xff) | (d[pos + RECLEN_AT + 1] & 0xff) << 8;
    }

    /** Where the name of the dirent at {@code pos} ends (its NUL): searched from the record's last 8 bytes. */
    static int nameEnd(byte[] d, int pos, int reclen) {
        int scan = Math.max(pos + NAME_AT, pos + reclen - 8);
        while (d[scan] != 0) {
            scan++;
        }
        return scan;
    }

    static boolean isDotOrDotDot(byte[] d, int nameAt, int len) {
        return len <= 2 && d[nameAt] == '.' && (len == 1 || d[nameAt + 1] == '.');
    }

    /**
     * Reads frame {@code f}'s directory whole into its frame (each entry's name and type) without
     * visiting anything: a sequential walk then visits the entries one by one in the order the
     * kernel listed them, entering each subdirectory as it meets it, which is find's order.
     */
    private void readAll(Frame f) {
        int fd = open(f);
        if (fd < 0) {
            int e = scratch.errno();
            state.error(Arrays.copyOf(path, f.pathLen), e, Errno.message(e));
            return;
        }
        if (state.followAll && isLoop(f, fd)) {
            closeFd(f);
            return;
        }
        for (int n; (n = nextBatch(f, fd)) > 0; ) {
            byte[] d = scratch.dentsBytes;
            int last = 0;
            for (int pos = 0; pos < n; ) {
                last = pos;
                int reclen = recordLength(d, pos);
                int nameAt = pos + NAME_AT;
                int len = nameEnd(d, pos, reclen) - nameAt;
                int dtype = d[pos + TYPE_AT];
                pos += reclen;
                if (isDotOrDotDot(d, nameAt, len)) {
                    continue;
                }
                if (f.subsLen + 3 + len > f.subs.length) {
                    f.subs = Arrays.copyOf(f.subs, Math.max(f.subs.length * 2, f.subsLen + 3 + len));
                }
                f.subs[f.subsLen] = (byte) (len >>> 8);
                f.subs[f.subsLen + 1] = (byte) len;
                f.subs[f.subsLen + 2] = (byte) dtype;
                System.arraycopy(d, nameAt, f.subs, f.subsLen + 3, len);
                f.subsLen += 3 + len;
                if (f.count == f.inos.length) {
                    f.inos = Arrays.copyOf(f.inos, f.count * 2);
                }
                f.inos[f.count++] = (long) LONG_LE.get(d, last); // d_ino, the record's first field
            }
            if (endOfDirectory(d, last)) {
                break; // ext4's end-of-directory cookie, as in read
            }
        }
        if (f.count > INODE_SORT_THRESHOLD && inodeSortHelps(fd)) {
            inodeSort(f);
        }
    }

    /** gnulib fts's rule, which GNU find's order follows: a batch of more entries than this is sorted by inode number. */
    static final int INODE_SORT_THRESHOLD = 10_000, READDIR_BATCH = 100_000;
    private static final java.lang.invoke.VarHandle LONG_LE =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /** fts skips the sort where it does not help: tmpfs, NFS, CIFS/SMB2, Lustre. */
    private boolean inodeSortHelps(int fd) {
        if (Syscalls.fstatfs(scratch, fd, scratch.dents) != 0) {
            return true;
        }
        long magic = scratch.dents.get(ValueLayout.JAVA_LONG, 0) & 0xffffffffL;
        return magic != 0x01021994L && magic != 0x6969L && magic != 0xFF534D42L && magic != 0xFE534D42L && magic != 0x0BD00BD0L;
    }

    /**
     * Reorders frame {@code f}'s entries as fts hands them to find: in batches of {@link
     * #READDIR_BATCH} in the kernel's order, each batch of more than {@link #INODE_SORT_THRESHOLD}
     * entries sorted by inode number.
     */
    private static void inodeSort(Frame f) {
        int[] at = new int[f.count];
        for (int i = 0, pos = 0; i < f.count; i++) {
            at[i] = pos;
            pos += 3 + (((f.subs[pos] & 0xff) << 8) | (f.subs[pos + 1] & 0xff));
        }
        byte[] out = new byte[f.subs.length];
        int outLen = 0;
        for (int from = 0; from < f.count; from += READDIR_BATCH) {
            int to = Math.min(f.count, from + READDIR_BATCH);
            Integer[] order = new Integer[to - from];
            for (int i = from; i < to; i++) {
                order[i - from] = i;
            }
            if (to - from > INODE_SORT_THRESHOLD) {
                long[] inos = f.inos;
                Arrays.sort(order, (a, b) -> Long.compareUnsigned(inos[a], inos[b]));
            }
            for (int i : order) {
                int len = 3 + (((f.subs[at[i]] & 0xff) << 8) | (f.subs[at[i] + 1] & 0xff));
                System.arraycopy(f.subs, at[i], out, outLen, len);
                outLen += len;
            }
        }
        f.subs = out;
    }

    /**
     * In a sequential walk, visits the next entry that {@link #readAll} kept in frame {@code f}
     * (the top frame), and pushes a frame for it when it is a directory to enter.
     */
    private void visitNext(Frame f) {
        int n = ((f.subs[f.subsPos] & 0xff) << 8) | (f.subs[f.subsPos + 1] & 0xff);
        int dtype = f.subs[f.subsPos + 2];
        int base = childBase(f);
        ensurePath(base + n + 1);
        if (base > f.pathLen) {
            path[f.pathLen] = '/';
        }
        System.arraycopy(f.subs, f.subsPos + 3, path, base, n);
        f.subsPos += 3 + n;
        int len = base + n;
        int childDepth = f.depth + 1;
        int dirfd = ensureFd(top);
        EntryType type = typeOf(dtype);
        if (dirfd >= 0) {
            entry.set(path, len, base, base, type, childDepth, dirfd, state.followAll);
        } else {
            entry.set(path, len, base, 0, type, childDepth, Syscalls.AT_FDCWD, state.followAll);
        }
        if (type == EntryType.UNKNOWN || (state.followAll && type == EntryType.SYMLINK)) {
            boolean link = type == EntryType.SYMLINK;
            type = entry.resolveType();
            if (entry.followErrno() != 0) {
                state.error(Arrays.copyOf(path, len), entry.followErrno(), Errno.message(entry.followErrno()));
                return;
            }
            if (link && type == EntryType.DIRECTORY && linksToAncestor(f, len)) {
                return;
            }
        }
        Visit v;
        if (type == EntryType.DIRECTORY && childDepth < state.maxDepth) {
            if (state.options.sameFileSystem() && !sameDevice()) {
                v = state.visitor.visit(entry);
            } else if (state.postOrder) {
                push(len, base, childDepth, state.followAll);
                return;
            } else {
                v = state.visitor.visit(entry);
                if (v == Visit.CONTINUE) {
                    push(len, base, childDepth, state.followAll);
                }
            }
        } else {
            v = state.visitor.visit(entry);
        }
        if (v == Visit.STOP) {
            state.stopped = true;
        }
    }

    /**
     * On the way up, reopens the parent of the finished frame {@code f} through {@code ".."} when
     * the budget had closed it and it is needed again: one step instead of a walk down the whole
     * path, which in a 10,000-level tree would cost time quadratic in the depth. Not under -L,
     * where {@code ".."} of a followed link is not the directory it was reached from.
     */
    private void reopenParentFrom(Frame f) {
        if (top < 0 || f.fd < 0 || state.followAll) {
            return;
        }
        Frame p = frames[top];
        if (p.fd >= 0 || (!state.postOrder && p.subsPos >= p.subsLen)) {
            return;
        }
        int fd = Syscalls.openat(scratch, f.fd, scratch.cString(DOTDOT, 0, 2), Syscalls.O_DIR_FLAGS);
        if (fd >= 0) {
            p.fd = fd;
            openFds++;
        }
    }

    private boolean isLoop(Frame f, int fd) {
        MemorySegment empty = scratch.cString(path, 0, 0);
        if (Syscalls.statx(scratch, fd, empty, 0x1000 /* AT_EMPTY_PATH */, scratch.statBuf) != 0) {
            return false;
        }
        f.dev = Syscalls.dev(scratch.statBuf);
        f.ino = Syscalls.ino(scratch.statBuf);
        for (int i = 0; i < top; i++) {
            if (frames[i].dev == f.dev && frames[i].ino == f.ino) {
                loopError(f, frames[i].pathLen);
                return true;
            }
        }
        if (taskAncestors != null) {
            for (int i = 0; i + 1 < taskAncestors.length; i += 2) {
                if (taskAncestors[i] == f.dev && taskAncestors[i + 1] == f.ino) {
                    loopError(f, -1);
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether the directory in the entry is on the root's file system (true when it cannot be told). */
    private boolean sameDevice() {
        FileStat st = entry.stat();
        return st == null || st.dev() == state.rootDevice;
    }

    /** Under -L, whether the link just resolved (its stat in the entry) names a directory being walked; reports it. */
    private boolean linksToAncestor(Frame f, int len) {
        FileStat st = entry.stat();
        if (st == null) {
            return false;
        }
        for (int i = 0; i <= top; i++) {
            if (frames[i].dev == st.dev() && frames[i].ino == st.ino()) {
                loopError(len, frames[i].pathLen);
                return true;
            }
        }
        if (taskAncestors != null) {
            for (int i = 0; i + 1 < taskAncestors.length; i += 2) {
                if (taskAncestors[i] == st.dev() && taskAncestors[i + 1] == st.ino()) {
                    loopError(len, -1);
                    return true;
                }
            }
        }
        return false;
    }

    private void loopError(Frame f, int ancestorLen) {
        loopError(f.pathLen, ancestorLen);
    }

    private void loopError(int len, int ancestorLen) {
        String msg = "File system loop detected; '" + Libc.display(Arrays.copyOf(path, len))
                + "' is part of the same file system loop as '"
                + (ancestorLen >= 0 ? Libc.display(Arrays.copyOf(path, ancestorLen)) : "an ancestor") + "'.";
        state.errors.increment();
        state.visitor.failed(new dev.brisk.walk.WalkError(Arrays.copyOf(path, len), Errno.ELOOP, msg,
                ancestorLen >= 0 ? Arrays.copyOf(path, ancestorLen) : null));
    }

    /** Gives the shallowest pending subdirectory to an idle worker, unless it is the last one this walker has. */
    private void donate() {
        if (ForkJoinTask.getSurplusQueuedTaskCount() > 0) {
            return;
        }
        for (int i = 0; i <= top; i++) {
            Frame g = frames[i];
            if (g.subsPos < g.subsLen) {
                int n = ((g.subs[g.subsPos] & 0xff) << 8) | (g.subs[g.subsPos + 1] & 0xff);
                if (i == top && g.subsPos + 2 + n >= g.subsLen) {
                    return; // our only work left: giving it away would just move the walk to another thread
                }
                int base = childBase(g);
                byte[] p = new byte[base + n];
                System.arraycopy(path, 0, p, 0, g.pathLen);
                if (base > g.pathLen) {
                    p[g.pathLen] = '/';
                }
                System.arraycopy(g.subs, g.subsPos + 2, p, base, n);
                g.subsPos += 2 + n;
                long[] anc = null;
                if (state.followAll) {
                    int have = taskAncestors == null ? 0 : taskAncestors.length;
                    anc = taskAncestors == null ? new long[2 * (i + 1)] : Arrays.copyOf(taskAncestors, have + 2 * (i + 1));
                    for (int k = 0; k <= i; k++) {
                        anc[have + 2 * k] = frames[k].dev;
                        anc[have + 2 * k + 1] = frames[k].ino;
                    }
                }
                task.addToPendingCount(1);
                new DirTask(task, state, p, g.depth + 1, state.followAll, anc).fork();
                return;
            }
        }
    }

    private void addSub(Frame f, int off, int len) {
        if (f.subsLen + 2 + len > f.subs.length) {
            f.subs = Arrays.copyOf(f.subs, Math.max(f.subs.length * 2, f.subsLen + 2 + len));
        }
        f.subs[f.subsLen] = (byte) (len >>> 8);
        f.subs[f.subsLen + 1] = (byte) len;
        System.arraycopy(path, off, f.subs, f.subsLen + 2, len);
        f.subsLen += 2 + len;
    }

    private void push(int pathLen, int nameOff, int depth, boolean followed) {
        top++;
        if (top == frames.length) {
            frames = Arrays.copyOf(frames, frames.length * 2);
        }
        if (frames[top] == null) {
            frames[top] = new Frame();
        }
        frames[top].reset(pathLen, nameOff, depth, followed);
    }

    /** Opens frame {@code f}'s directory (the top frame), keeping within the descriptor budget. */
    private int open(Frame f) {
        int fd = tryOpen(f);
        if (fd < 0 && (scratch.errno() == Errno.EMFILE || scratch.errno() == Errno.ENFILE)) {
            for (int i = 0; i < top; i++) {
                closeFd(frames[i]);
            }
            fd = tryOpen(f);
        }
        if (fd >= 0) {
            f.fd = fd;
            openFds++;
        }
        return fd;
    }

    private int tryOpen(Frame f) {
        if (openFds >= state.fdBudget) {
            for (int i = 0; i < top; i++) {
                if (frames[i].fd >= 0) {
                    closeFd(frames[i]);
                    break;
                }
            }
        }
        int flags = Syscalls.O_DIR_FLAGS | (f.followed || state.followAll ? 0 : Flags.O_NOFOLLOW);
        if (top > 0) {
            int pfd = ensureFd(top - 1);
            if (pfd >= 0) {
                return Syscalls.openat(scratch, pfd, scratch.cString(path, f.nameOff, f.pathLen - f.nameOff), flags);
            }
        }
        return openByPath(top, f.pathLen, flags);
    }

    /** The descriptor of frame {@code i}, reopening it by path if the budget closed it; -1 on failure. */
    private int ensureFd(int i) {
        Frame g = frames[i];
        if (g.fd < 0) {
            int flags = Syscalls.O_DIR_FLAGS | (g.followed || state.followAll ? 0 : Flags.O_NOFOLLOW);
            int fd = openByPath(i, g.pathLen, flags);
            if (fd >= 0) {
                g.fd = fd;
                openFds++;
            }
        }
        return g.fd;
    }

    /**
     * Opens {@code path[0, len)} relative to the nearest open frame below {@code limit}, in
     * pieces shorter than PATH_MAX; {@code flags} apply to the last piece.
     */
    private int openByPath(int limit, int len, int flags) {
        int dirfd = Syscalls.AT_FDCWD;
        int start = 0;
        for (int i = limit - 1; i >= 0; i--) {
            if (frames[i].fd >= 0) {
                dirfd = frames[i].fd;
                start = childBase(frames[i]);
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
            if (cur != dirfd) {
                int e = scratch.errno();
                Syscalls.close(scratch, cur);
                scratch.setErrno(e); // the close must not hide openat's errno
            }
            if (next < 0) {
                return -1;
            }
            cur = next;
            start = cut + 1;
        }
        int fd = Syscalls.openat(scratch, cur, scratch.cString(path, start, len - start), flags);
        if (cur != dirfd) {
            int e = scratch.errno();
            Syscalls.close(scratch, cur);
            scratch.setErrno(e); // the close must not hide openat's errno
        }
        return fd;
    }

    private void closeFd(Frame f) {
        if (f.fd >= 0) {
            Syscalls.close(scratch, f.fd);
            f.fd = -1;
            openFds--;
        }
    }

    /** Where a child's name starts after frame {@code f}'s path (no second slash after a trailing one). */
    private int childBase(Frame f) {
        return f.pathLen > 0 && path[f.pathLen - 1] == '/' ? f.pathLen : f.pathLen + 1;
    }

    private void ensurePath(int need) {
        if (need > path.length) {
            path = Arrays.copyOf(path, Math.max(need, path.length * 2));
        }
    }

    /**
     * Whether the dirent at {@code d[at]} carries ext4's end-of-directory cookie ({@code d_off}
     * = 2^63-1, little-endian: the machines with system call numbers here are).
     */
    static boolean endOfDirectory(byte[] d, int at) {
        for (int i = at + 8; i < at + 15; i++) {
            if (d[i] != (byte) 0xff) {
                return false;
            }
        }
        return d[at + 15] == 0x7f;
    }

    /** Where the last component of {@code p[0, len)} starts, ignoring trailing slashes. */
    static int nameStart(byte[] p, int len) {
        int end = len;
        while (end > 1 && p[end - 1] == '/') {
            end--;
        }
        int i = end;
        while (i > 0 && p[i - 1] != '/') {
            i--;
        }
        return i;
    }

    static EntryType typeOf(int dtype) {
        return switch (dtype) {
            case 8 -> EntryType.FILE;
            case 4 -> EntryType.DIRECTORY;
            case 10 -> EntryType.SYMLINK;
            case 1 -> EntryType.FIFO;
            case 12 -> EntryType.SOCKET;
            case 6 -> EntryType.BLOCK_DEVICE;
            case 2 -> EntryType.CHAR_DEVICE;
            default -> EntryType.UNKNOWN;
        };
    }

    FileStat statEntry(int dirfd, byte[] p, int off, int len, boolean follow) {
        return scratch.stat(dirfd, p, off, len, follow);
    }
}
