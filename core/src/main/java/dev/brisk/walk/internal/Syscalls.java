// SPDX-License-Identifier: Apache-2.0
package dev.brisk.walk.internal;

import dev.brisk.internal.posix.Libc;
import dev.brisk.walk.FileStat;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
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

    /**
     * Where errno sits in the capture segment. On Linux the capture layout is {@code struct { int
     * errno; }} (SyscallsTest checks it); a constant, because resolving the layout path costs a
     * cold JVM a couple of milliseconds of start-up.
     */
    static final long ERRNO_OFFSET = 0;

    /*
     * One downcall, syscall(2), serves every call: the FFM linker's first handles cost tens of
     * milliseconds each to make, and start-up counts for a command-line find.
     */
    private static final MethodHandle SYSCALL = bind();
    private static final boolean ARM = "aarch64".equals(System.getProperty("os.arch"));
    private static final long NR_OPENAT = ARM ? 56 : 257, NR_GETDENTS64 = ARM ? 61 : 217,
            NR_STATX = ARM ? 291 : 332, NR_CLOSE = ARM ? 57 : 3, NR_READLINKAT = ARM ? 78 : 267,
            NR_GETRLIMIT = ARM ? 163 : 97, NR_UNLINKAT = ARM ? 35 : 263,
            NR_FACCESSAT = ARM ? 48 : 269;
    private static final int RLIMIT_NOFILE = 7;

    private Syscalls() {}

    private static MethodHandle bind() {
        Linker linker = Linker.nativeLinker();
        String arch = System.getProperty("os.arch");
        if (!"amd64".equals(arch) && !"x86_64".equals(arch) && !"aarch64".equals(arch)) {
            throw new UnsupportedOperationException("no system call numbers for " + arch);
        }
        // syscall(2) is variadic, but bound here as a plain function of seven longs: on Linux
        // x86-64 and aarch64 integer arguments travel the same way either way, and glibc's
        // syscall ignores the vector-register count a variadic call adds. The variadic binding
        // made the linker generate four method handle classes more (~8 ms of start-up).
        return linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                FunctionDescriptor.of(L, L, L, L, L, L, L), Linker.Option.captureCallState("errno"));
    }

    private static long call(Scratch s, long nr, long a, long b, long c, long d, long e) {
        try {
            return (long) SYSCALL.invokeExact(s.state, nr, a, b, c, d, e);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    static int openat(Scratch s, int dirfd, MemorySegment path, int flags) {
        return (int) call(s, NR_OPENAT, dirfd, path.address(), flags, 0, 0);
    }

    static long getdents(Scratch s, int fd, MemorySegment buf, long size) {
        return call(s, NR_GETDENTS64, fd, buf.address(), size, 0, 0);
    }

    static int statx(Scratch s, int dirfd, MemorySegment path, int flags, MemorySegment buf) {
        return (int) call(s, NR_STATX, dirfd, path.address(), flags, STATX_BASIC_STATS, buf.address());
    }

    static long readlinkat(Scratch s, int dirfd, MemorySegment path, MemorySegment buf, long size) {
        return call(s, NR_READLINKAT, dirfd, path.address(), buf.address(), size, 0);
    }

    static final int AT_REMOVEDIR = 0x200;

    static int unlinkat(Scratch s, int dirfd, MemorySegment path, int flags) {
        return (int) call(s, NR_UNLINKAT, dirfd, path.address(), flags, 0, 0);
    }

    static int faccessat(Scratch s, int dirfd, MemorySegment path, int mode) {
        return (int) call(s, NR_FACCESSAT, dirfd, path.address(), mode, 0, 0);
    }

    static void close(Scratch s, int fd) {
        if (fd >= 0) {
            call(s, NR_CLOSE, fd, 0, 0, 0, 0);
        }
    }

    /** The soft limit on open descriptors, or 1024 when it cannot be read. */
    static long openFileLimit(Scratch s) {
        MemorySegment lim = s.arena.allocate(16, 8);
        if (call(s, NR_GETRLIMIT, RLIMIT_NOFILE, lim.address(), 0, 0, 0) != 0) {
            return 1024;
        }
        long[] soft = new long[1];
        MemorySegment.copy(lim, L, 0, soft, 0, 1); // no layout accessor: see Scratch
        return soft[0];
    }

    /**
     * Decodes a {@code struct statx} (one layout on every architecture; read by one bulk copy,
     * not by layout accessors: see Scratch).
     */
    static FileStat decode(MemorySegment b) {
        int[] w = words(b);
        return new FileStat(
                w[7] & 0xffff,
                Integer.toUnsignedLong(w[4]),
                w[5], w[6],
                longAt(w, 40), longAt(w, 48), longAt(w, 32),
                makedev(w[34], w[35]),
                makedev(w[32], w[33]),
                longAt(w, 64), w[18],
                longAt(w, 112), w[30],
                longAt(w, 96), w[26]);
    }

    static long ino(MemorySegment b) {
        return longAt(words(b), 32);
    }

    static long dev(MemorySegment b) {
        int[] w = words(b);
        return makedev(w[34], w[35]);
    }

    /** The first 144 bytes of a statx buffer, as ints in the machine's order. */
    private static int[] words(MemorySegment b) {
        int[] w = new int[36];
        MemorySegment.copy(b, I, 0, w, 0, w.length);
        return w;
    }

    /** The 64-bit field at byte {@code off} (little-endian: the machines with call numbers here are). */
    private static long longAt(int[] w, int off) {
        return Integer.toUnsignedLong(w[off / 4]) | (long) w[off / 4 + 1] << 32;
    }

    /** glibc's {@code makedev}. */
    static long makedev(int major, int minor) {
        long ma = Integer.toUnsignedLong(major), mi = Integer.toUnsignedLong(minor);
        return ((ma & 0xfffff000L) << 32) | ((ma & 0xfffL) << 8) | ((mi & 0xffffff00L) << 12) | (mi & 0xffL);
    }
}
