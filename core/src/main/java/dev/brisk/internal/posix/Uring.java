// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * One thread's io_uring, for batches of {@code openat} and {@code close}: queued operations go
 * to the kernel together in one {@code io_uring_enter}, which waits until all of them are done.
 * On this machine a system call costs ~1 µs just to enter and leave the kernel; a walk makes
 * three per directory (open, read, close), and the batch turns the opens of a directory's
 * subdirectories and the closes queued since the last batch into one.
 *
 * <p>The rings are shared memory, written and read by bulk copies from Java arrays (no layout
 * accessor: see the walker's {@code Scratch}); the kernel reads the queue only inside
 * {@code io_uring_enter} and has written every completion when it returns, so plain copies on
 * either side of the call are ordered by the call itself.
 *
 * <p>{@link #create} returns null where the kernel has no io_uring (before 5.6 it lacks these
 * operations), refuses it ({@code kernel.io_uring_disabled}, a seccomp filter such as
 * container runtimes' default) or {@code -Dbrisk.uring=off} asks so. If the kernel ever refuses
 * a batch, the ring stops being {@link #usable}: the closes it held are made by plain system
 * calls and the opens it did not run come back as {@link #NOT_RUN}, for the caller to make the
 * usual way. Confined to the thread that made it.
 */
public final class Uring {
    /** An open that the kernel did not run (the ring failed): make it the usual way. */
    public static final int NOT_RUN = Integer.MIN_VALUE;

    private static final long SETUP = 425, ENTER = 426; // the same on x86-64 and aarch64
    private static final int OP_OPENAT = 18, OP_CLOSE = 19;
    private static final int SETUP_SUBMIT_ALL = 1 << 7, FEAT_SINGLE_MMAP = 1, ENTER_GETEVENTS = 1;
    private static final long OFF_SQES = 0x10000000L;
    private static final long PROT_RW = 3, MAP_SHARED_POPULATE = 0x01 | 0x8000;
    private static final int SQE_LONGS = 8, NAMES = 16 * 1024;
    private static final long CLOSE_TAG = 1L << 32;

    private final MemorySegment state = Errno.newState();
    private final int fd;
    private final MemorySegment ring, sqes, names;
    private final long ringSize, sqesSize;
    private final int entries, sqMask, cqMask;
    private final long sqTailAt, cqHeadAt, cqTailAt, cqesAt;
    private final long[] sqeBuf, cqeBuf;
    private final byte[] nameBuf = new byte[NAMES];
    private final int[] closeFds, closeAt, box = new int[1];
    /** Per queued close: not reaped yet (0), made (1), refused as an unknown operation (2). */
    private final byte[] closeState;
    private int tail, cqHead, queued, closes, namesLen;
    private boolean usable = true, closed;

    private Uring(int fd, int[] p, long ringAddr, long ringSize, long sqesAddr, long sqesSize) {
        this.fd = fd;
        this.entries = p[0];
        this.ringSize = ringSize;
        this.sqesSize = sqesSize;
        this.ring = MemorySegment.ofAddress(ringAddr).reinterpret(ringSize);
        this.sqes = MemorySegment.ofAddress(sqesAddr).reinterpret(sqesSize);
        this.names = java.lang.foreign.Arena.ofAuto().allocate(NAMES, 8);
        // io_sqring_offsets at byte 40 (int 10): head, tail, ring_mask, ring_entries, flags, dropped, array
        this.sqTailAt = p[11] & 0xffffffffL;
        this.sqMask = read(p[12] & 0xffffffffL);
        // io_cqring_offsets at byte 80 (int 20): head, tail, ring_mask, ring_entries, overflow, cqes
        this.cqHeadAt = p[20] & 0xffffffffL;
        this.cqTailAt = p[21] & 0xffffffffL;
        this.cqMask = read(p[22] & 0xffffffffL);
        this.cqesAt = p[25] & 0xffffffffL;
        this.tail = read(sqTailAt);
        this.cqHead = read(cqHeadAt); // only this side moves it
        // the queue's index array, once for good: slot i holds SQE i
        int[] ident = new int[entries];
        for (int i = 0; i < entries; i++) {
            ident[i] = i;
        }
        MemorySegment.copy(ident, 0, ring, ValueLayout.JAVA_INT_UNALIGNED, p[16] & 0xffffffffL, entries);
        this.sqeBuf = new long[entries * SQE_LONGS];
        this.cqeBuf = new long[(cqMask + 1) * 2];
        this.closeFds = new int[entries];
        this.closeAt = new int[entries];
        this.closeState = new byte[entries];
    }

    /**
     * A ring of {@code entries} (a power of two, at most 4096) for the calling thread, or null
     * where io_uring cannot be used here (see the class comment).
     */
    public static Uring create(int entries) {
        if ("off".equals(System.getProperty("brisk.uring")) || !"Linux".equals(System.getProperty("os.name"))) {
            return null;
        }
        try {
            return setUp(entries);
        } catch (RuntimeException | LinkageError e) {
            return null; // no system call numbers for this machine
        }
    }

    private static Uring setUp(int entries) {
        MemorySegment st = Errno.newState();
        MemorySegment params = java.lang.foreign.Arena.ofAuto().allocate(120, 8);
        int[] p = new int[30];
        p[2] = SETUP_SUBMIT_ALL;
        MemorySegment.copy(p, 0, params, ValueLayout.JAVA_INT, 0, 30);
        long fd = Syscall.call(st, SETUP, entries, params.address(), 0, 0, 0);
        if (fd < 0 && Errno.read(st) == Errno.EINVAL) { // before 5.18: no SUBMIT_ALL
            p[2] = 0;
            MemorySegment.copy(p, 0, params, ValueLayout.JAVA_INT, 0, 30);
            fd = Syscall.call(st, SETUP, entries, params.address(), 0, 0, 0);
        }
        if (fd < 0) {
            return null;
        }
        MemorySegment.copy(params, ValueLayout.JAVA_INT, 0, p, 0, 30);
        int sqEntries = p[0], cqEntries = p[1];
        if ((p[5] & FEAT_SINGLE_MMAP) == 0 || sqEntries != entries) {
            Syscall.call(st, Syscall.CLOSE, fd, 0, 0, 0, 0);
            return null;
        }
        long sqSize = (p[16] & 0xffffffffL) + sqEntries * 4L;
        long cqSize = (p[25] & 0xffffffffL) + cqEntries * 16L;
        long ringSize = Math.max(sqSize, cqSize), sqesSize = sqEntries * 64L;
        long ringAddr = Syscall.call6(st, Syscall.MMAP, 0, ringSize, PROT_RW, MAP_SHARED_POPULATE, fd, 0);
        if (ringAddr == -1) {
            Syscall.call(st, Syscall.CLOSE, fd, 0, 0, 0, 0);
            return null;
        }
        long sqesAddr = Syscall.call6(st, Syscall.MMAP, 0, sqesSize, PROT_RW, MAP_SHARED_POPULATE, fd, OFF_SQES);
        if (sqesAddr == -1) {
            Syscall.call(st, Syscall.MUNMAP, ringAddr, ringSize, 0, 0, 0);
            Syscall.call(st, Syscall.CLOSE, fd, 0, 0, 0, 0);
            return null;
        }
        return new Uring((int) fd, p, ringAddr, ringSize, sqesAddr, sqesSize);
    }

    /** Whether operations may still be queued: false once the kernel refused a batch, or after {@link #close}. */
    public boolean usable() {
        return usable;
    }

    /** How many more operations fit before the next {@link #submit}. */
    public int space() {
        return entries - queued;
    }

    /** How many closes are queued: descriptors still open until the next {@link #submit}. */
    public int queuedCloses() {
        return closes;
    }

    /**
     * Queues {@code close(fd)}; a full queue is submitted first. Where the ring is not
     * {@link #usable}, closes now.
     */
    public void queueClose(int fd) {
        if (usable && queued == entries) {
            submit(null);
        }
        if (!usable) {
            Syscall.call(state, Syscall.CLOSE, fd, 0, 0, 0, 0);
            return;
        }
        closeFds[closes] = fd;
        closeAt[closes] = queued;
        closeState[closes] = 0;
        put(OP_CLOSE, fd, 0, 0, CLOSE_TAG | closes);
        closes++;
    }

    /**
     * Queues {@code openat(dirfd, name, flags)}, {@code name} being {@code b[off, off+len)}
     * (without its NUL); its result goes to {@code results[tag]} at the next {@link #submit}.
     * False, queuing nothing, when the queue or its room for names is full.
     */
    public boolean queueOpenat(int dirfd, byte[] b, int off, int len, int flags, int tag) {
        if (!usable || queued == entries || namesLen + len + 1 > NAMES) {
            return false;
        }
        System.arraycopy(b, off, nameBuf, namesLen, len);
        nameBuf[namesLen + len] = 0;
        put(OP_OPENAT, dirfd, names.address() + namesLen, flags, tag);
        namesLen += len + 1;
        return true;
    }

    private void put(int op, int fd, long addr, int openFlags, long userData) {
        int at = queued * SQE_LONGS;
        sqeBuf[at] = op | ((fd & 0xffffffffL) << 32); // opcode, flags 0, ioprio 0, fd
        sqeBuf[at + 1] = 0; // off
        sqeBuf[at + 2] = addr;
        sqeBuf[at + 3] = (openFlags & 0xffffffffL) << 32; // len (the mode) 0, open_flags
        sqeBuf[at + 4] = userData;
        sqeBuf[at + 5] = 0;
        sqeBuf[at + 6] = 0;
        sqeBuf[at + 7] = 0;
        queued++;
    }

    /**
     * Submits every queued operation and waits until all are done: each open's descriptor, or
     * {@code -errno}, goes to {@code results[tag]} (null when only closes are queued). False if
     * the kernel refused the batch: the ring is then no longer {@link #usable}, the closes it
     * held are made here, and the opens it did not run are {@link #NOT_RUN}.
     */
    public boolean submit(int[] results) {
        int n = queued;
        if (n == 0) {
            return usable;
        }
        if (namesLen > 0) {
            MemorySegment.copy(nameBuf, 0, names, ValueLayout.JAVA_BYTE, 0, namesLen);
        }
        int first = tail & sqMask;
        int run = Math.min(n, entries - first);
        MemorySegment.copy(sqeBuf, 0, sqes, ValueLayout.JAVA_LONG_UNALIGNED, first * 64L, run * SQE_LONGS);
        if (run < n) {
            MemorySegment.copy(sqeBuf, run * SQE_LONGS, sqes, ValueLayout.JAVA_LONG_UNALIGNED, 0, (n - run) * SQE_LONGS);
        }
        if (results != null) {
            for (int i = 0; i < n; i++) {
                if ((sqeBuf[i * SQE_LONGS + 4] & CLOSE_TAG) == 0) {
                    results[(int) sqeBuf[i * SQE_LONGS + 4]] = NOT_RUN;
                }
            }
        }
        tail += n;
        write(sqTailAt, tail);
        queued = 0;
        namesLen = 0;
        long r = Syscall.call(state, ENTER, fd, n, n, ENTER_GETEVENTS, 0);
        int done = reap(results);
        // the kernel ran what it took (all of them, unless it refused one); a signal may have
        // cut the wait short: wait on for those, so that no open lands after its caller gave up
        while (done < r) {
            long w = Syscall.call(state, ENTER, fd, 0, r - done, ENTER_GETEVENTS, 0);
            done += reap(results);
            if (w < 0 && Errno.read(state) != Errno.EINTR) {
                break;
            }
        }
        boolean ok = r == n && done == n;
        if (!ok) {
            usable = false;
        }
        long taken = Math.max(r, 0);
        for (int i = 0; i < closes; i++) {
            // made here: a close the kernel refused as unknown (before 5.6), or one it never
            // took; not one it took and has not reported (a wait that failed): it may still
            // make it, and a second close could hit a descriptor another thread just got
            if (closeState[i] == 2 || closeState[i] == 0 && closeAt[i] >= taken) {
                Syscall.call(state, Syscall.CLOSE, closeFds[i], 0, 0, 0, 0);
            }
        }
        closes = 0;
        return ok;
    }

    /** Takes every completion posted; how many. */
    private int reap(int[] results) {
        int head = cqHead, ctail = read(cqTailAt);
        int n = ctail - head;
        if (n == 0) {
            return 0;
        }
        // the completions the tail covers are read after it (a no-op on x86-64; on aarch64 it
        // matters where a wait was cut short and the kernel is still posting)
        VarHandle.acquireFence();
        int first = head & cqMask;
        int run = Math.min(n, cqMask + 1 - first);
        MemorySegment.copy(ring, ValueLayout.JAVA_LONG_UNALIGNED, cqesAt + first * 16L, cqeBuf, 0, run * 2);
        if (run < n) {
            MemorySegment.copy(ring, ValueLayout.JAVA_LONG_UNALIGNED, cqesAt, cqeBuf, run * 2, (n - run) * 2);
        }
        for (int i = 0; i < n; i++) {
            long tag = cqeBuf[2 * i];
            int res = (int) cqeBuf[2 * i + 1];
            if (res == -Errno.EINVAL) {
                // a kernel without these operations (before 5.6): neither openat nor close
                // gives EINVAL for what is asked here. The caller opens again; submit closes.
                // (A file system that refused a name with EINVAL would cost only the ring.)
                usable = false;
            }
            if ((tag & CLOSE_TAG) != 0) {
                closeState[(int) tag] = (byte) (res == -Errno.EINVAL ? 2 : 1);
            } else if (results != null) {
                results[(int) tag] = res;
            }
        }
        cqHead = ctail;
        write(cqHeadAt, ctail);
        return n;
    }

    /** Makes the queued closes and frees the ring. Safe to call twice. */
    public void close() {
        if (closed) {
            return;
        }
        if (usable) {
            submit(null);
        }
        usable = false;
        closed = true;
        Syscall.call(state, Syscall.MUNMAP, sqes.address(), sqesSize, 0, 0, 0);
        Syscall.call(state, Syscall.MUNMAP, ring.address(), ringSize, 0, 0, 0);
        Syscall.call(state, Syscall.CLOSE, fd, 0, 0, 0, 0);
    }

    private int read(long at) {
        MemorySegment.copy(ring, ValueLayout.JAVA_INT_UNALIGNED, at, box, 0, 1);
        return box[0];
    }

    private void write(long at, int v) {
        box[0] = v;
        MemorySegment.copy(box, 0, ring, ValueLayout.JAVA_INT_UNALIGNED, at, 1);
    }
}
