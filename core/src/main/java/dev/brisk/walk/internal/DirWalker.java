// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.Uring;
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
 * <p>Each directory is read whole with {@code getdents64} into the thread's 64 KiB buffer, by
 * one loop over its records ({@link #read}). In a parallel walk its entries are visited at once
 * and its subdirectories kept as a list of names in its frame; in a sequential walk the frame
 * keeps every entry and they are visited one by one in the kernel's order, each subdirectory
 * entered as it is met (find's order). Children open relative to their parent's descriptor,
 * kept within the thread's budget by the {@link DescriptorCache}; under -L the {@link LoopGuard}
 * reports directories met twice on one path.
 *
 * <p>In a parallel walk, a walker gives the shallowest pending subdirectory away as a new
 * {@link DirTask} whenever the pool has idle workers. Where its thread has an io_uring
 * ({@link WalkerThread}), it opens a directory's pending subdirectories ahead, a batch at a
 * time, with the closes queued since the last batch, in one system call instead of one per
 * open and per close; an open that failed there is made again the usual way, so errors are
 * reported as they always were. Confined to its thread.
 */
final class DirWalker {
    private final WalkState state;
    final Scratch scratch = Scratch.take();
    private final NativeEntry entry = new NativeEntry(this);
    private final DescriptorCache fds;
    private final LoopGuard loops = new LoopGuard(scratch);
    byte[] path = new byte[4096];
    private Frame[] frames = new Frame[64];
    private int top = -1;
    private CountedCompleter<?> task;
    /**
     * True while the walk's calling thread walks a parallel walk's first directories alone (no
     * pool yet); it hands what is left to the pool once the walk proves big ({@link #handOff}).
     */
    private boolean alone;
    /** Directories and entries read so far by this walker (while {@link #alone}). */
    private int dirsRead;
    private int entriesRead;
    private long startNanos;
    /** This thread's ring for opening ahead, once looked up (parallel walks, without -L). */
    private Uring ring;
    private boolean ringLooked;
    private final int[] aheadResults = new int[WalkerThread.RING_ENTRIES];
    /** A parallel walk's calling thread hands off to a pool after this many directories (by default), */
    static final int HAND_OFF_DIRS = 64;
    /** or this many entries per such directory, */
    static final int ENTRIES_PER_DIR = 64;
    /** or after this many milliseconds (a slow file system). */
    static final long HAND_OFF_MILLIS = 5;

    DirWalker(WalkState state) {
        this.state = state;
        this.fds = new DescriptorCache(scratch, state.fdBudget);
    }

    static DirWalker forThread(WalkState state) {
        return state.walkers.get();
    }

    /**
     * Walks the subtree of the directory {@code dirPath} (already visited, at {@code depth}).
     * {@code task} is the parallel task running it, or null in a sequential walk; {@code
     * ancestors}: the (dev, ino) pairs of the directories above it under -L, or null.
     */
    void walk(CountedCompleter<?> task, byte[] dirPath, int depth, boolean followed, long[] ancestors) {
        this.task = task;
        alone = task != null && !(Thread.currentThread() instanceof java.util.concurrent.ForkJoinWorkerThread);
        if (alone) {
            dirsRead = 0;
            entriesRead = 0;
            startNanos = System.nanoTime();
        }
        if (task != null && !ringLooked && !alone) {
            ringLooked = true;
            // a small budget (ulimit -n) leaves no room for descriptors opened ahead or closes held back
            if (!state.followAll && state.fdBudget >= 16) {
                ring = WalkerThread.ring();
                fds.useRing(ring);
            }
        }
        loops.start(ancestors);
        ensurePath(dirPath.length + 1);
        System.arraycopy(dirPath, 0, path, 0, dirPath.length);
        top = -1;
        push(dirPath.length, nameStart(dirPath, dirPath.length), depth, followed);
        try {
            loop();
        } finally {
            for (int i = 0; i <= top; i++) {
                dropAhead(frames[i]);
                fds.close(i);
            }
            top = -1;
            fds.flush();
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
                read(f);
                continue;
            }
            if (f.subsPos < f.subsLen) {
                if (task == null) {
                    visitNext(f);
                    continue;
                }
                if (alone) {
                    if (bigWalk()) {
                        handOff();
                        return;
                    }
                } else {
                    donate();
                }
                if (f.subsPos < f.subsLen) {
                    int ahead = ring != null ? ahead(f) : -1;
                    int n = f.nextLength();
                    int base = childBase(f);
                    ensurePath(base + n + 1);
                    System.arraycopy(f.subs, f.subsPos + 2, path, base, n);
                    f.subsPos += 2 + n;
                    push(base + n, base, f.depth + 1, state.followAll);
                    if (ahead >= 0) {
                        fds.adopt(top, ahead);
                    }
                }
                continue;
            }
            top--;
            if (top >= 0 && !state.followAll && (state.postOrder || frames[top].subsPos < frames[top].subsLen)) {
                fds.reopenFromChild(top); // the parent is needed again: one step up through ".."
            }
            fds.close(top + 1);
            if (state.postOrder) {
                visitAfter(f);
            }
        }
    }

    /**
     * The descriptor opened ahead for the next pending subdirectory of {@code f} (the top
     * frame), opening a batch of them first when none is left; -1 when there is none (the
     * subdirectory is then opened the usual way, which also reports a failure).
     */
    private int ahead(Frame f) {
        if (f.aheadPos == f.aheadLen && !openAhead(f)) {
            return -1;
        }
        return f.ahead[f.aheadPos++];
    }

    /**
     * Opens {@code f}'s next pending subdirectories (as many as the ring and the descriptor
     * budget allow) relative to its descriptor, with the queued closes, in one call; false
     * when there is nothing to gain (one open and no close: a plain openat is as cheap).
     */
    private boolean openAhead(Frame f) {
        int pfd = fds.fd(top);
        if (pfd < 0 || !ring.usable()) {
            return false;
        }
        int room = Math.min(fds.room(), WalkerThread.RING_ENTRIES);
        int k = 0;
        for (int pos = f.subsPos; pos < f.subsLen && k < room; k++) {
            pos += 2 + f.lengthAt(pos);
        }
        if (k == 0 || k == 1 && ring.queuedCloses() == 0) {
            return false;
        }
        if (ring.space() < k) {
            ring.submit(null); // the closes first
        }
        int flags = Syscalls.O_DIR_FLAGS | Flags.O_NOFOLLOW; // as push gives a level without -L
        int queued = 0;
        for (int pos = f.subsPos; queued < k; queued++) {
            int len = f.lengthAt(pos);
            if (!ring.queueOpenat(pfd, f.subs, pos + 2, len, flags, queued)) {
                break;
            }
            pos += 2 + len;
        }
        if (queued == 0) {
            return false;
        }
        ring.submit(aheadResults);
        if (f.ahead.length < queued) {
            f.ahead = new int[WalkerThread.RING_ENTRIES];
        }
        for (int i = 0; i < queued; i++) {
            int r = aheadResults[i];
            if (r >= 0) {
                fds.openedAhead();
                f.ahead[i] = r;
            } else {
                f.ahead[i] = -1;
            }
        }
        f.aheadPos = 0;
        f.aheadLen = queued;
        return true;
    }

    /** Closes the descriptors {@code f} holds for subdirectories it will not enter. */
    private void dropAhead(Frame f) {
        while (f.aheadPos < f.aheadLen) {
            skipAhead(f);
        }
    }

    /** Closes the descriptor opened ahead for {@code f}'s next pending subdirectory, if it has one. */
    private void skipAhead(Frame f) {
        if (f.aheadPos < f.aheadLen) {
            int fd = f.ahead[f.aheadPos++];
            if (fd >= 0) {
                fds.release(fd);
            }
        }
    }

    /** Visits a directory after its contents (find's -depth). */
    private void visitAfter(Frame f) {
        if (top >= 0) {
            int pfd = fds.ensure(path, top);
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

    /**
     * Reads frame {@code f}'s directory (the top frame) whole: the one loop over its records. A
     * parallel walk visits each entry as it comes and records the subdirectories to enter; a
     * sequential walk keeps every entry in the frame, to visit in order by {@link #visitNext}.
     */
    private void read(Frame f) {
        int fd = fds.open(path, top);
        if (fd < 0) {
            int e = scratch.errno();
            state.error(Arrays.copyOf(path, f.pathLen), e, Errno.message(e));
            return;
        }
        if (state.followAll && isLoop(f, fd)) {
            fds.close(top);
            return;
        }
        boolean keep = task == null;
        dirsRead++;
        int base = childBase(f);
        if (!keep && base > f.pathLen) {
            path[f.pathLen] = '/';
        }
        for (int n; (n = nextBatch(f, fd)) > 0; ) {
            byte[] d = scratch.dentsBytes;
            int last = 0;
            for (int pos = 0; pos < n; ) {
                last = pos;
                int reclen = Dirents.recordLength(d, pos);
                int nameAt = pos + Dirents.NAME_AT;
                int len = Dirents.nameEnd(d, pos, reclen) - nameAt;
                pos += reclen;
                if (Dirents.isDotOrDotDot(d, nameAt, len)) {
                    continue;
                }
                entriesRead++;
                if (keep) {
                    f.keep(d, last, nameAt, len);
                } else if (!visitRead(f, fd, base, d, nameAt, len, d[last + Dirents.TYPE_AT])) {
                    return;
                }
            }
            if (state.stopped) {
                return;
            }
            // ext4 gives the last entry the end-of-directory cookie as its next offset: the call
            // that would return 0 can be skipped (one system call per directory less). Any other
            // offset, or another file system, reads on until getdents64 returns 0.
            if (Dirents.endOfDirectory(d, last)) {
                break;
            }
        }
        if (keep && f.count > Frame.INODE_SORT_THRESHOLD && inodeSortHelps(fd)) {
            f.sortByInode();
        }
    }

    /**
     * In a parallel walk, visits the entry just read (name {@code d[nameAt, nameAt+len)} in
     * directory {@code fd}) and records it in {@code f} if it is a directory to enter; false
     * when the walk is to stop.
     */
    private boolean visitRead(Frame f, int fd, int base, byte[] d, int nameAt, int len, int dtype) {
        ensurePath(base + len + 1);
        System.arraycopy(d, nameAt, path, base, len);
        EntryType type = coveredType(Dirents.typeOf(dtype), base, len);
        int childDepth = f.depth + 1;
        entry.set(path, base + len, base, base, type, childDepth, fd, state.followAll);
        if (type == EntryType.UNKNOWN || (state.followAll && type == EntryType.SYMLINK)) {
            type = entry.resolveType();
            if (entry.followErrno() != 0) {
                state.error(Arrays.copyOf(path, base + len), entry.followErrno(), Errno.message(entry.followErrno()));
                return true;
            }
        }
        if (state.followAll && type == EntryType.DIRECTORY && linksToAncestor(base + len)) {
            return true;
        }
        boolean enter = type == EntryType.DIRECTORY && childDepth < state.maxDepth
                && !(state.options.sameFileSystem() && !sameDevice());
        if (enter && state.postOrder) {
            f.addSub(path, base, len); // visited after its contents
            return true;
        }
        Visit v = state.visitor.visit(entry);
        if (v == Visit.STOP) {
            state.stopped = true;
            return false;
        }
        if (enter && v == Visit.CONTINUE) {
            f.addSub(path, base, len);
        }
        return true;
    }

    /**
     * The type a directory entry (the name at {@code path[base, base+len)}) says, or UNKNOWN (to
     * be statted) when the name is a mount point's: a file mounted on another reads as the one it
     * covers ({@link MountNames}). A directory stays one: only a directory mounts on a directory.
     */
    private EntryType coveredType(EntryType type, int base, int len) {
        if (type != EntryType.DIRECTORY && type != EntryType.UNKNOWN && MountNames.mightBe(state.mountNames, path, base, len)) {
            return EntryType.UNKNOWN;
        }
        return type;
    }

    /**
     * The next {@code getdents64} batch of directory {@code fd} (frame {@code f}), copied into
     * the scratch's array (see {@link Dirents}); its length, or 0 at the end or after an error,
     * which it reports.
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

    /** fts skips the sort where it does not help: tmpfs, NFS, CIFS/SMB2, Lustre. */
    private boolean inodeSortHelps(int fd) {
        if (Syscalls.fstatfs(scratch, fd, scratch.dents) != 0) {
            return true;
        }
        long magic = scratch.dents.get(ValueLayout.JAVA_LONG, 0) & 0xffffffffL;
        return magic != 0x01021994L && magic != 0x6969L && magic != 0xFF534D42L && magic != 0xFE534D42L && magic != 0x0BD00BD0L;
    }

    /**
     * In a sequential walk, visits the next entry that {@link #read} kept in frame {@code f}
     * (the top frame), and pushes a frame for it when it is a directory to enter.
     */
    private void visitNext(Frame f) {
        int n = f.nextLength();
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
        int dirfd = fds.ensure(path, top);
        EntryType type = coveredType(Dirents.typeOf(dtype), base, n);
        if (dirfd >= 0) {
            entry.set(path, len, base, base, type, childDepth, dirfd, state.followAll);
        } else {
            entry.set(path, len, base, 0, type, childDepth, Syscalls.AT_FDCWD, state.followAll);
        }
        if (type == EntryType.UNKNOWN || (state.followAll && type == EntryType.SYMLINK)) {
            type = entry.resolveType();
            if (entry.followErrno() != 0) {
                state.error(Arrays.copyOf(path, len), entry.followErrno(), Errno.message(entry.followErrno()));
                return;
            }
        }
        if (state.followAll && type == EntryType.DIRECTORY && linksToAncestor(len)) {
            return;
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

    /** Under -L, whether the directory just opened at the top is one of its ancestors; reports it. */
    private boolean isLoop(Frame f, int fd) {
        int at = loops.enter(top, fd);
        if (at == LoopGuard.NONE) {
            return false;
        }
        loopError(f.pathLen, at >= 0 ? frames[at].pathLen : -1);
        return true;
    }

    /** Whether the directory in the entry is on the root's file system (true when it cannot be told). */
    private boolean sameDevice() {
        FileStat st = entry.stat();
        return st == null || st.dev() == state.rootDevice;
    }

    /**
     * Under -L, whether the directory in the entry (a link just resolved, or a directory met
     * below a link) is one being walked; reports it. As gnulib's fts does for GNU find, such a
     * directory is not visited at all: only the loop is reported.
     */
    private boolean linksToAncestor(int len) {
        FileStat st = entry.stat();
        if (st == null) {
            return false;
        }
        int at = loops.find(st.dev(), st.ino(), top + 1);
        if (at == LoopGuard.NONE) {
            return false;
        }
        loopError(len, at >= 0 ? frames[at].pathLen : -1);
        return true;
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
                if (i == top && g.subsPos + 2 + g.nextLength() >= g.subsLen) {
                    return; // our only work left: giving it away would just move the walk to another thread
                }
                nextAsTask(i).fork();
                return;
            }
        }
    }

    /**
     * Whether the calling thread, walking alone, has met enough of the tree to pay for a pool:
     * a small tree (a thousand files in a few directories) is walked faster by one thread than
     * a pool's threads (and their rings) can even start.
     */
    private boolean bigWalk() {
        return dirsRead >= state.handOffDirs || entriesRead >= state.handOffDirs * ENTRIES_PER_DIR
                || System.nanoTime() - startNanos >= state.handOffNanos;
    }

    /**
     * Hands every pending subdirectory of every frame to the walk's pool (started now) and
     * leaves the walk: the calling thread then waits for the pool's workers.
     */
    private void handOff() {
        java.util.concurrent.ForkJoinPool pool = state.startPool();
        for (int i = 0; i <= top; i++) {
            Frame g = frames[i];
            while (g.subsPos < g.subsLen) {
                pool.execute(nextAsTask(i));
            }
        }
    }

    /** Frame {@code i}'s next pending subdirectory as a task under this walker's task, taken off the frame. */
    private DirTask nextAsTask(int i) {
        Frame g = frames[i];
        int n = g.nextLength();
        int base = childBase(g);
        byte[] p = new byte[base + n];
        System.arraycopy(path, 0, p, 0, g.pathLen);
        if (base > g.pathLen) {
            p[g.pathLen] = '/';
        }
        System.arraycopy(g.subs, g.subsPos + 2, p, base, n);
        g.subsPos += 2 + n;
        skipAhead(g); // opened ahead here: the other worker opens it by path
        long[] anc = state.followAll ? loops.pathThrough(i) : null;
        task.addToPendingCount(1);
        return new DirTask(task, state, p, g.depth + 1, state.followAll, anc);
    }

    private void push(int pathLen, int nameOff, int depth, boolean followed) {
        top++;
        if (top == frames.length) {
            frames = Arrays.copyOf(frames, frames.length * 2);
        }
        if (frames[top] == null) {
            frames[top] = new Frame();
        }
        frames[top].reset(pathLen, nameOff, depth);
        fds.enter(top, pathLen, nameOff, !(followed || state.followAll));
    }

    /** Where a child's name starts after frame {@code f}'s path. */
    private int childBase(Frame f) {
        return DescriptorCache.childBase(path, f.pathLen);
    }

    private void ensurePath(int need) {
        if (need > path.length) {
            path = Arrays.copyOf(path, Math.max(need, path.length * 2));
        }
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

    FileStat statEntry(int dirfd, byte[] p, int off, int len, boolean follow) {
        return scratch.stat(dirfd, p, off, len, follow);
    }
}
