// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter.internal;

import dev.brisk.internal.posix.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The zero-copy and descriptor-inspection calls of the meter, bound through FFM.
 *
 * <p>The transfer calls return the raw result: a count, or minus the errno, so that the copy
 * loop decides what EAGAIN, EINVAL or EPIPE mean without paying for an exception. EINTR is
 * retried here. Thread-safe: errno is captured per thread by {@link Libc}.
 */
public final class Sys {
    public static final int SPLICE_F_MOVE = 1, SPLICE_F_MORE = 4;
    public static final int SEEK_SET = 0, SEEK_CUR = 1;
    public static final int ENOSYS = 38, EXDEV = 18, ESPIPE = 29, EOPNOTSUPP = 95, ENOTTY = 25;

    private static final int AT_FDCWD = -100, AT_EMPTY_PATH = 0x1000, STATX_BASIC_STATS = 0x7ff;
    private static final long FIONREAD = 0x541B, TIOCGWINSZ = 0x5413;

    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG;
    private static final ValueLayout A = ValueLayout.ADDRESS;

    // Each call is bound on first use (a holder class per handle): binding costs milliseconds at
    // startup, and a pipe-to-pipe copy needs only splice and statx.
    private static final class Splice {
        static final MethodHandle H = Libc.downcall("splice", FunctionDescriptor.of(L, I, A, I, A, L, I));
    }

    private static final class CopyFileRange {
        static final MethodHandle H = Libc.downcall("copy_file_range", FunctionDescriptor.of(L, I, A, I, A, L, I));
    }

    private static final class Sendfile {
        static final MethodHandle H = Libc.downcall("sendfile", FunctionDescriptor.of(L, I, I, A, L));
    }

    private static final class Statx {
        static final MethodHandle H = Libc.downcall("statx", FunctionDescriptor.of(I, I, A, I, I, A));
    }

    private static final class Lseek {
        static final MethodHandle H = Libc.downcall("lseek", FunctionDescriptor.of(L, I, L, I));
    }

    private static final class Fdatasync {
        static final MethodHandle H = Libc.downcall("fdatasync", FunctionDescriptor.of(I, I));
    }

    private static final class Foreground {
        static final MethodHandle GETPGRP = Libc.downcall("getpgrp", FunctionDescriptor.of(I));
        static final MethodHandle TCGETPGRP = Libc.downcall("tcgetpgrp", FunctionDescriptor.of(I, I));
    }

    private static final class Ioctl {
        // ioctl is variadic: its third argument must be passed as a variadic one
        static final MethodHandle H = Libc.LINKER.downcallHandle(
                Libc.LINKER.defaultLookup().find("ioctl").orElseThrow(),
                FunctionDescriptor.of(I, I, L, A), Linker.Option.firstVariadicArg(2));
    }

    private Sys() {}

    /** splice(2) between the descriptors' own offsets: bytes moved, 0 at end, or -errno. */
    public static long splice(int in, int out, long len, int flags) {
        while (true) {
            long n;
            try {
                n = (long) Splice.H.invokeExact(Libc.callState(), in, MemorySegment.NULL, out, MemorySegment.NULL, len, flags);
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
            if (n >= 0) {
                return n;
            }
            int e = Libc.errno();
            if (e != Libc.EINTR) {
                return -e;
            }
        }
    }

    /** copy_file_range(2) between the descriptors' own offsets: bytes copied, 0 at end, or -errno. */
    public static long copyFileRange(int in, int out, long len) {
        while (true) {
            long n;
            try {
                n = (long) CopyFileRange.H.invokeExact(Libc.callState(), in, MemorySegment.NULL, out, MemorySegment.NULL, len, 0);
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
            if (n >= 0) {
                return n;
            }
            int e = Libc.errno();
            if (e != Libc.EINTR) {
                return -e;
            }
        }
    }

    /** sendfile(2) from {@code in}'s offset: bytes sent, 0 at end, or -errno. */
    public static long sendfile(int out, int in, long len) {
        while (true) {
            long n;
            try {
                n = (long) Sendfile.H.invokeExact(Libc.callState(), out, in, MemorySegment.NULL, len);
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
            if (n >= 0) {
                return n;
            }
            int e = Libc.errno();
            if (e != Libc.EINTR) {
                return -e;
            }
        }
    }

    /** lseek(2): the new offset, or -errno (ESPIPE on a pipe). */
    public static long lseek(int fd, long offset, int whence) {
        try {
            long r = (long) Lseek.H.invokeExact(Libc.callState(), fd, offset, whence);
            return r >= 0 ? r : -Libc.errno();
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** fdatasync(2): 0 or -errno (EINVAL for pipes and terminals, which the caller ignores). */
    public static int fdatasync(int fd) {
        try {
            int r = (int) Fdatasync.H.invokeExact(Libc.callState(), fd);
            return r == 0 ? 0 : -Libc.errno();
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** What the descriptor refers to, by statx(2) with AT_EMPTY_PATH; null if it is not open. */
    public static FdInfo fstat(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            return statx(arena, fd, arena.allocate(1), AT_EMPTY_PATH);
        }
    }

    /**
     * What {@code path} names (following symbolic links), without opening it, so that a FIFO's
     * writer is not woken by a look at its size; null if it cannot be inspected.
     */
    public static FdInfo stat(byte[] path) {
        try (Arena arena = Arena.ofConfined()) {
            return statx(arena, AT_FDCWD, Libc.cString(arena, path), 0);
        }
    }

    private static FdInfo statx(Arena arena, int dirFd, MemorySegment path, int flags) {
        try {
            MemorySegment buf = arena.allocate(256, 8);
            int r = (int) Statx.H.invokeExact(Libc.callState(), dirFd, path, flags, STATX_BASIC_STATS, buf);
            if (r != 0) {
                return null;
            }
            // struct statx has one layout on every architecture
            int mode = Short.toUnsignedInt(buf.get(ValueLayout.JAVA_SHORT, 28));
            long ino = buf.get(L, 32);
            long size = buf.get(L, 40);
            long dev = ((long) buf.get(I, 136) << 32) | Integer.toUnsignedLong(buf.get(I, 140));
            int blksize = buf.get(I, 4);
            return new FdInfo(FdInfo.Kind.of(mode), size, dev, ino, blksize);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** Bytes waiting unread in a pipe or socket (ioctl FIONREAD), or 0 when it cannot tell. */
    public static int unread(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment n = arena.allocate(I);
            int r = (int) Ioctl.H.invokeExact(fd, FIONREAD, n);
            return r == 0 ? Math.max(0, n.get(I, 0)) : 0;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** The terminal's columns and rows (ioctl TIOCGWINSZ), or null when fd is not a terminal. */
    public static int[] windowSize(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ws = arena.allocate(8, 2);
            int r = (int) Ioctl.H.invokeExact(fd, TIOCGWINSZ, ws);
            if (r != 0) {
                return null;
            }
            int rows = Short.toUnsignedInt(ws.get(ValueLayout.JAVA_SHORT, 0));
            int cols = Short.toUnsignedInt(ws.get(ValueLayout.JAVA_SHORT, 2));
            return new int[] {cols, rows};
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /**
     * Whether this process may draw on the terminal {@code fd}: true unless fd is a terminal
     * whose foreground process group is not ours (we were put in the background).
     */
    public static boolean inForeground(int fd) {
        try {
            int tty = (int) Foreground.TCGETPGRP.invokeExact(Libc.callState(), fd);
            if (tty < 0) {
                return true;
            }
            return tty == (int) Foreground.GETPGRP.invokeExact(Libc.callState());
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
