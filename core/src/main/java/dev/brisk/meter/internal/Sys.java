// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.Statx;
import dev.brisk.internal.posix.Syscall;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The meter's zero-copy and descriptor-inspection calls (splice, copy_file_range, sendfile,
 * lseek, fdatasync, statx, ioctl FIONREAD/TIOCGPGRP), on the shared {@link Syscall}
 * binding: no FFM shape of their own to pay for at start-up.
 *
 * <p>The transfer calls return the raw result: a count, or minus the errno, so that the copy
 * loop decides what EAGAIN, EINVAL or EPIPE mean without paying for an exception. EINTR is
 * retried here. Thread-safe: errno is captured per thread.
 */
public final class Sys {
    public static final int SPLICE_F_MOVE = 1, SPLICE_F_MORE = 4;
    public static final int SEEK_SET = 0, SEEK_CUR = 1;
    public static final int ENOSYS = Errno.ENOSYS, EXDEV = Errno.EXDEV, ESPIPE = Errno.ESPIPE,
            EOPNOTSUPP = Errno.EOPNOTSUPP, ENOTTY = Errno.ENOTTY;

    private static final long FIONREAD = 0x541B, TIOCGPGRP = 0x540F;

    private Sys() {}

    /** One call, retried on EINTR: the result or -errno. */
    private static long retried(long nr, long a, long b, long c, long d, long e) {
        MemorySegment state = Errno.state();
        while (true) {
            long n = Syscall.call(state, nr, a, b, c, d, e);
            if (n >= 0) {
                return n;
            }
            int err = Errno.read(state);
            if (err != Errno.EINTR) {
                return -err;
            }
        }
    }

    /** splice(2) between the descriptors' own offsets: bytes moved, 0 at end, or -errno. */
    public static long splice(int in, int out, long len, int flags) {
        MemorySegment state = Errno.state();
        while (true) {
            // six arguments: the sixth (flags) beyond Syscall.call's five
            long n = Syscall.call6(state, Syscall.SPLICE, in, 0, out, 0, len, flags);
            if (n >= 0) {
                return n;
            }
            int err = Errno.read(state);
            if (err != Errno.EINTR) {
                return -err;
            }
        }
    }

    /** copy_file_range(2) between the descriptors' own offsets: bytes copied, 0 at end, or -errno. */
    public static long copyFileRange(int in, int out, long len) {
        MemorySegment state = Errno.state();
        while (true) {
            long n = Syscall.call6(state, Syscall.COPY_FILE_RANGE, in, 0, out, 0, len, 0);
            if (n >= 0) {
                return n;
            }
            int err = Errno.read(state);
            if (err != Errno.EINTR) {
                return -err;
            }
        }
    }

    /** sendfile(2) from {@code in}'s offset: bytes sent, 0 at end, or -errno. */
    public static long sendfile(int out, int in, long len) {
        return retried(Syscall.SENDFILE, out, in, 0, len, 0);
    }

    /** lseek(2): the new offset, or -errno (ESPIPE on a pipe). */
    public static long lseek(int fd, long offset, int whence) {
        return Syscall.call(Syscall.LSEEK, fd, offset, whence, 0);
    }

    /** fdatasync(2): 0 or -errno (EINVAL for pipes and terminals, which the caller ignores). */
    public static int fdatasync(int fd) {
        return (int) Syscall.call(Syscall.FDATASYNC, fd, 0, 0, 0);
    }

    /** What the descriptor refers to, by statx(2) with AT_EMPTY_PATH; null if it is not open. */
    public static FdInfo fstat(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            return statx(arena, fd, arena.allocate(1), Flags.AT_EMPTY_PATH);
        }
    }

    /**
     * What {@code path} names (following symbolic links), without opening it, so that a FIFO's
     * writer is not woken by a look at its size; null if it cannot be inspected.
     */
    public static FdInfo stat(byte[] path) {
        try (Arena arena = Arena.ofConfined()) {
            return statx(arena, Flags.AT_FDCWD, Libc.cString(arena, path), 0);
        }
    }

    private static FdInfo statx(Arena arena, int dirFd, MemorySegment path, int flags) {
        MemorySegment buf = arena.allocate(Statx.SIZE, 8);
        if (Statx.call(Errno.state(), dirFd, path, flags, buf) != 0) {
            return null;
        }
        int[] w = Statx.words(buf);
        return new FdInfo(FdInfo.Kind.of(Statx.mode(w)), Statx.size(w), Statx.dev(w), Statx.ino(w), Statx.blockSize(w));
    }

    /** Bytes waiting unread in a pipe or socket (ioctl FIONREAD), or 0 when it cannot tell. */
    public static int unread(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment n = arena.allocate(ValueLayout.JAVA_INT);
            if (Syscall.call(Syscall.IOCTL, fd, FIONREAD, n.address(), 0) != 0) {
                return 0;
            }
            return Math.max(0, intAt(n, 0));
        }
    }


    /**
     * Whether process group {@code group} may draw on the terminal {@code fd}: true unless fd is
     * a terminal whose foreground process group is another (the group was put in the background).
     * Asked at every call, as the shell moves jobs between foreground and background.
     */
    public static boolean inForeground(int fd, int group) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pg = arena.allocate(ValueLayout.JAVA_INT);
            if (Syscall.call(Syscall.IOCTL, fd, TIOCGPGRP, pg.address(), 0) != 0) {
                return true;
            }
            return intAt(pg, 0) == group;
        }
    }

    private static int intAt(MemorySegment s, long offset) {
        int[] v = new int[1];
        MemorySegment.copy(s, ValueLayout.JAVA_INT, offset, v, 0, 1);
        return v[0];
    }
}
