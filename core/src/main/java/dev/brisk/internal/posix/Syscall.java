// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The one binding of {@code syscall(2)} and the call numbers brisk uses, for x86-64 and
 * aarch64: every system call that has no C library wrapper worth its binding goes through here.
 *
 * <p>Why one downcall: the FFM linker generates code per function shape when a JVM first binds
 * it (milliseconds each, paid by every command-line run), and {@code syscall(2)} serves every
 * call with one shape. It is variadic, but bound as a plain function of seven longs: on Linux
 * x86-64 and aarch64 integer arguments travel in the same registers either way, and glibc's
 * {@code syscall} ignores the vector-register count a variadic call adds. The variadic binding
 * made the linker generate four method handle classes more (~8 ms of start-up).
 *
 * <p>Each call takes an errno capture segment ({@link Errno#state()}, or a caller's own, as the
 * walker's per-thread scratch) and returns the raw result: negative on failure, errno in the
 * segment. Thread-safe.
 */
public final class Syscall {
    private static final boolean ARM = "aarch64".equals(System.getProperty("os.arch"));

    public static final long READ = ARM ? 63 : 0, WRITE = ARM ? 64 : 1, CLOSE = ARM ? 57 : 3,
            OPENAT = ARM ? 56 : 257, GETDENTS64 = ARM ? 61 : 217, STATX = ARM ? 291 : 332,
            READLINKAT = ARM ? 78 : 267, UNLINKAT = ARM ? 35 : 263, FACCESSAT = ARM ? 48 : 269,
            MKDIRAT = ARM ? 34 : 258, KILL = ARM ? 129 : 62, PIPE2 = ARM ? 59 : 293, WAIT4 = ARM ? 260 : 61,
            GETRLIMIT = ARM ? 163 : 97, SETRLIMIT = ARM ? 164 : 160, PIDFD_OPEN = 434,
            FTRUNCATE = ARM ? 46 : 77, PWRITE64 = ARM ? 68 : 18, PPOLL = ARM ? 73 : 271, MKNODAT = ARM ? 33 : 259,
            FCNTL = ARM ? 25 : 72, GETPID = ARM ? 172 : 39, IOCTL = ARM ? 29 : 16, GETPGID = ARM ? 155 : 121,
            SPLICE = ARM ? 76 : 275, COPY_FILE_RANGE = ARM ? 285 : 326, SENDFILE = ARM ? 71 : 40,
            LSEEK = ARM ? 62 : 8, FDATASYNC = ARM ? 83 : 75, FSTATFS = ARM ? 44 : 138,
            GETXATTR = ARM ? 8 : 191, LGETXATTR = ARM ? 9 : 192, MMAP = ARM ? 222 : 9, MPROTECT = ARM ? 226 : 10,
            MUNMAP = ARM ? 215 : 11, RT_SIGACTION = ARM ? 134 : 13, CLONE3 = 435, CLOSE_RANGE = 436,
            SOCKET = ARM ? 198 : 41, CONNECT = ARM ? 203 : 42, SENDTO = ARM ? 206 : 44, SHUTDOWN = ARM ? 210 : 48,
            SETSOCKOPT = ARM ? 208 : 54;

    private static final MethodHandle SYSCALL = bind();

    private Syscall() {}

    private static MethodHandle bind() {
        String arch = System.getProperty("os.arch");
        if (!"amd64".equals(arch) && !"x86_64".equals(arch) && !"aarch64".equals(arch)) {
            throw new UnsupportedOperationException("brisk: no system call numbers for " + arch);
        }
        return bindShape("syscall");
    }

    /**
     * Binds C library function {@code name} with this class's one shape, {@code long f(long} x 7{@code )}
     * with errno capture: the linker keeps the code it generated for a shape, so a second function
     * of the same shape costs no generation (measured: ~0.3 ms against ~10 ms for a second shape).
     * {@link CFunction} binds its functions so.
     */
    static MethodHandle bindShape(String name) {
        Linker linker = Linker.nativeLinker();
        return bindShape(linker.defaultLookup().find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("no symbol " + name + " in the C library")));
    }

    /** The function at {@code address}, bound with the same shape ({@link NativeSpawn}'s code). */
    static MethodHandle bindShape(MemorySegment address) {
        ValueLayout.OfLong l = ValueLayout.JAVA_LONG;
        return Linker.nativeLinker().downcallHandle(address, FunctionDescriptor.of(l, l, l, l, l, l, l, l),
                Linker.Option.captureCallState("errno"));
    }

    /** System call {@code nr} with up to five arguments (the sixth: {@link #call6}) (unused ones 0); errno goes to {@code state}. */
    public static long call(MemorySegment state, long nr, long a, long b, long c, long d, long e) {
        try {
            return (long) SYSCALL.invokeExact(state, nr, a, b, c, d, e, 0L);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** A call with all six arguments (splice and copy_file_range have six); errno goes to {@code state}. */
    public static long call6(MemorySegment state, long nr, long a, long b, long c, long d, long e, long f) {
        try {
            return (long) SYSCALL.invokeExact(state, nr, a, b, c, d, e, f);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** {@link #call} with this thread's {@link Errno#state()}: the result, or {@code -errno}. */
    public static long call(long nr, long a, long b, long c, long d) {
        MemorySegment state = Errno.state();
        long r = call(state, nr, a, b, c, d, 0);
        return r < 0 ? -Errno.read(state) : r;
    }
}
