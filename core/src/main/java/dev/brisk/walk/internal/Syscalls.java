package dev.brisk.walk.internal;

import dev.brisk.internal.posix.Libc;
import dev.brisk.walk.FileStat;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The walker's own system calls, bound once: {@code openat}, {@code getdents64}, {@code statx},
 * {@code readlinkat}, {@code close}, {@code getrlimit}. Each call takes a per-thread
 * {@link Scratch} whose capture segment receives errno, so the hot path never touches a
 * ThreadLocal. Every wrapper returns the raw result (negative on failure); the caller reads
 * {@link Scratch#errno()}.
 */
final class Syscalls {
    static final int AT_FDCWD = -100;
    static final int AT_SYMLINK_NOFOLLOW = 0x100;
    static final int STATX_BASIC_STATS = 0x7ff;
    static final int O_DIR_FLAGS = Libc.O_RDONLY | Libc.O_DIRECTORY | Libc.O_CLOEXEC | Libc.O_NONBLOCK;
    static final int ENAMETOOLONG = 36, ENFILE = 23;
    static final int STATX_SIZE = 256;

    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG;
    private static final ValueLayout A = ValueLayout.ADDRESS;

    static final long ERRNO_OFFSET = Linker.Option.captureStateLayout()
            .byteOffset(MemoryLayout.PathElement.groupElement("errno"));

    private static final MethodHandle OPENAT = Libc.downcall("openat", FunctionDescriptor.of(I, I, A, I));
    private static final MethodHandle GETDENTS = Libc.downcall("getdents64", FunctionDescriptor.of(L, I, A, L));
    private static final MethodHandle STATX = Libc.downcall("statx", FunctionDescriptor.of(I, I, A, I, I, A));
    private static final MethodHandle READLINKAT = Libc.downcall("readlinkat", FunctionDescriptor.of(L, I, A, A, L));
    private static final MethodHandle CLOSE = Libc.downcall("close", FunctionDescriptor.of(I, I));
    private static final MethodHandle GETRLIMIT = Libc.downcall("getrlimit", FunctionDescriptor.of(I, I, A));
    private static final int RLIMIT_NOFILE = 7;

    private Syscalls() {}

    static int openat(Scratch s, int dirfd, MemorySegment path, int flags) {
        try {
            return (int) OPENAT.invokeExact(s.state, dirfd, path, flags);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static long getdents(Scratch s, int fd, MemorySegment buf, long size) {
        try {
            return (long) GETDENTS.invokeExact(s.state, fd, buf, size);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static int statx(Scratch s, int dirfd, MemorySegment path, int flags, MemorySegment buf) {
        try {
            return (int) STATX.invokeExact(s.state, dirfd, path, flags, STATX_BASIC_STATS, buf);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static long readlinkat(Scratch s, int dirfd, MemorySegment path, MemorySegment buf, long size) {
        try {
            return (long) READLINKAT.invokeExact(s.state, dirfd, path, buf, size);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static void close(Scratch s, int fd) {
        if (fd < 0) {
            return;
        }
        try {
            int r = (int) CLOSE.invokeExact(s.state, fd);
            assert r == 0 || s.errno() != Libc.EBADF : "close of a bad descriptor " + fd;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** The soft limit on open descriptors, or 1024 when it cannot be read. */
    static long openFileLimit() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment lim = arena.allocate(16);
            int r = (int) GETRLIMIT.invokeExact(Libc.callState(), RLIMIT_NOFILE, lim);
            return r == 0 ? lim.get(L, 0) : 1024;
        } catch (Throwable t) {
            return 1024;
        }
    }

    /** Decodes a {@code struct statx} (one layout on every architecture). */
    static FileStat decode(MemorySegment b) {
        return new FileStat(
                Short.toUnsignedInt(b.get(ValueLayout.JAVA_SHORT, 28)),
                Integer.toUnsignedLong(b.get(I, 16)),
                b.get(I, 20), b.get(I, 24),
                b.get(L, 40), b.get(L, 48), b.get(L, 32),
                makedev(b.get(I, 136), b.get(I, 140)),
                makedev(b.get(I, 128), b.get(I, 132)),
                b.get(L, 64), b.get(I, 72),
                b.get(L, 112), b.get(I, 120),
                b.get(L, 96), b.get(I, 104));
    }

    static int mode(MemorySegment b) {
        return Short.toUnsignedInt(b.get(ValueLayout.JAVA_SHORT, 28));
    }

    static long ino(MemorySegment b) {
        return b.get(L, 32);
    }

    static long dev(MemorySegment b) {
        return makedev(b.get(I, 136), b.get(I, 140));
    }

    /** glibc's {@code makedev}. */
    static long makedev(int major, int minor) {
        long ma = Integer.toUnsignedLong(major), mi = Integer.toUnsignedLong(minor);
        return ((ma & 0xfffff000L) << 32) | ((ma & 0xfffL) << 8) | ((mi & 0xffffff00L) << 12) | (mi & 0xffL);
    }
}
