// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.walk.FileStat;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One thread's native memory for the walk: the errno capture segment, the 64 KiB
 * {@code getdents64} buffer, a {@code statx} buffer and a growable buffer for NUL-terminated
 * names. Confined to the thread that made it; freed by the GC with the arena.
 */
final class Scratch {
    static final int DENTS_SIZE = 64 * 1024;
    /*
     * Segments are read and written by bulk copies to and from arrays, not by layout accessors:
     * the first layout accessor initialises the FFM layout-path machinery, which generates a
     * dozen method handle classes (several ms of start-up on the critical path).
     */
    private static final byte[] NUL = {0};

    final Arena arena = Arena.ofAuto();
    final MemorySegment state = Errno.newState();
    final MemorySegment dents = arena.allocate(DENTS_SIZE, 8);
    final byte[] dentsBytes = new byte[DENTS_SIZE];
    final MemorySegment statBuf = arena.allocate(Syscalls.STATX_SIZE, 8);
    MemorySegment cstr = arena.allocate(4096);
    MemorySegment linkBuf;
    private MemorySegment smallDents;
    private final int[] errnoBox = new int[1];

    /** A thread's scratch between its walks (a server's call threads walk again and again). */
    private static final ThreadLocal<Scratch> SPARE = new ThreadLocal<>();

    /** This thread's spare scratch, or a new one (the spare is in use: a walk inside a walk). */
    static Scratch take() {
        Scratch s = SPARE.get();
        if (s == null) {
            return new Scratch();
        }
        SPARE.remove();
        return s;
    }

    /** Keeps {@code s} for this thread's next walk; call when its walker is done with it. */
    static void giveBack(Scratch s) {
        SPARE.set(s);
    }

    /** A 4 KiB buffer for peeking into a directory while the main one is in use. */
    MemorySegment smallDents() {
        if (smallDents == null) {
            smallDents = arena.allocate(4096, 8);
        }
        return smallDents;
    }

    int errno() {
        MemorySegment.copy(state, ValueLayout.JAVA_INT, Errno.OFFSET, errnoBox, 0, 1);
        return errnoBox[0];
    }

    /** Puts {@code e} back as the errno {@link #errno} reads. */
    void setErrno(int e) {
        errnoBox[0] = e;
        MemorySegment.copy(errnoBox, 0, state, ValueLayout.JAVA_INT, Errno.OFFSET, 1);
    }

    /** {@code bytes[off, off+len)} NUL-terminated in this scratch's name buffer. */
    MemorySegment cString(byte[] bytes, int off, int len) {
        if (len + 1 > cstr.byteSize()) {
            cstr = arena.allocate(Math.max(len + 1, cstr.byteSize() * 2));
        }
        MemorySegment.copy(bytes, off, cstr, ValueLayout.JAVA_BYTE, 0, len);
        MemorySegment.copy(NUL, 0, cstr, ValueLayout.JAVA_BYTE, len, 1);
        return cstr;
    }

    /** statx of {@code name} relative to {@code dirfd}; null on failure (errno says why). */
    FileStat stat(int dirfd, byte[] path, int off, int len, boolean follow) {
        MemorySegment name = cString(path, off, len);
        int r = Syscalls.statx(this, dirfd, name, follow ? 0 : Flags.AT_SYMLINK_NOFOLLOW, statBuf);
        return r == 0 ? Syscalls.decode(statBuf) : null;
    }

    /** The target of the link {@code name} relative to {@code dirfd}, or null. */
    byte[] readLink(int dirfd, byte[] path, int off, int len) {
        if (linkBuf == null) {
            linkBuf = arena.allocate(4096);
        }
        MemorySegment name = cString(path, off, len);
        while (true) {
            long n = Syscalls.readlinkat(this, dirfd, name, linkBuf, linkBuf.byteSize());
            if (n < 0) {
                return null;
            }
            if (n < linkBuf.byteSize()) {
                return linkBuf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
            }
            linkBuf = arena.allocate(linkBuf.byteSize() * 2);
        }
    }
}
