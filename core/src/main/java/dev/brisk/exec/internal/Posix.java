// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The C calls of {@code brisk par}'s direct path, bound with two function shapes only: the FFM
 * linker generates code per shape (several milliseconds each when a JVM starts, which every
 * {@code brisk par} run pays), and the shared {@code Libc} binds a dozen shapes when it loads.
 * System calls go through {@code syscall(2)} (variadic, errno captured), as the walker's do; the
 * {@code posix_spawn} family, which reports errors by its return value, is bound as
 * {@code int f(long, long, long, long, long, long)}: on the two Linux ABIs brisk supports
 * (x86-64 System V and AArch64), an {@code int}, {@code short} or pointer argument travels in a
 * 64-bit register whose low bits the callee reads, and arguments beyond the callee's own are
 * ignored, so one shape fits every such function.
 *
 * <p>Thread-safe: each thread has its own errno capture segment.
 */
public final class Posix {
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG;
    private static final boolean ARM = "aarch64".equals(System.getProperty("os.arch"));
    private static final Linker LINKER = Linker.nativeLinker();
    private static final long ERRNO_OFFSET = Linker.Option.captureStateLayout()
            .byteOffset(MemoryLayout.PathElement.groupElement("errno"));
    private static final ThreadLocal<MemorySegment> STATE = ThreadLocal.withInitial(
            () -> Arena.ofAuto().allocate(Linker.Option.captureStateLayout()));
    private static final MethodHandle SYSCALL = syscall();

    private static final long NR_OPENAT = ARM ? 56 : 257, NR_CLOSE = ARM ? 57 : 3, NR_KILL = ARM ? 129 : 62,
            NR_PIPE2 = ARM ? 59 : 293, NR_WAIT4 = ARM ? 260 : 61, NR_UNLINKAT = ARM ? 35 : 263;
    private static final long AT_FDCWD = -100;
    private static final int EINTR = 4;

    private Posix() {}

    private static MethodHandle syscall() {
        String arch = System.getProperty("os.arch");
        if (!"amd64".equals(arch) && !"x86_64".equals(arch) && !"aarch64".equals(arch)) {
            throw new UnsupportedOperationException("brisk par: no system call numbers for " + arch);
        }
        // bound as a plain function of seven longs, not as variadic: the same call on Linux
        // x86-64 and aarch64, and four method handle classes fewer to generate at start-up
        // (see walk.internal.Syscalls)
        return LINKER.downcallHandle(LINKER.defaultLookup().find("syscall").orElseThrow(),
                FunctionDescriptor.of(L, L, L, L, L, L, L), Linker.Option.captureCallState("errno"));
    }

    /**
     * Binds C library function {@code name} as {@code int name(long, long, long, long, long, long)}
     * (see the class comment); call it with {@link #call}.
     */
    static MethodHandle function(String name) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name)
                        .orElseThrow(() -> new UnsatisfiedLinkError("no symbol " + name + " in the C library")),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, L, L, L, L, L, L));
    }

    /** Calls a {@link #function}; unused trailing arguments are 0. */
    static int call(MethodHandle f, long a, long b, long c, long d, long e, long g) {
        try {
            return (int) f.invokeExact(a, b, c, d, e, g);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    private static long sys(long nr, long a, long b, long c, long d) {
        try {
            return (long) SYSCALL.invokeExact(STATE.get(), nr, a, b, c, d, 0L);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** The errno of this thread's last failed system call through this class. */
    public static int errno() {
        return STATE.get().get(ValueLayout.JAVA_INT, ERRNO_OFFSET);
    }

    /** {@code open(2)}: a descriptor, or {@code -errno}. */
    public static int open(byte[] path, int flags, int mode) {
        try (Arena a = Arena.ofConfined()) {
            long r = sys(NR_OPENAT, AT_FDCWD, cString(a, path).address(), flags, mode);
            return r < 0 ? -errno() : (int) r;
        }
    }

    /** {@code unlink(2)}: 0, or {@code -errno}. */
    public static int unlink(byte[] path) {
        try (Arena a = Arena.ofConfined()) {
            return sys(NR_UNLINKAT, AT_FDCWD, cString(a, path).address(), 0, 0) < 0 ? -errno() : 0;
        }
    }

    /** {@code close(2)}, errors ignored (the descriptor is gone either way on Linux). */
    public static void close(int fd) {
        sys(NR_CLOSE, fd, 0, 0, 0);
    }

    /** {@code kill(2)}: true if the signal was sent, false if no such process (group). */
    public static boolean kill(int pid, int signal) {
        return sys(NR_KILL, pid, signal, 0, 0) == 0;
    }

    /** {@code pipe2(2)} into {@code fds} (two ints: read end, write end): 0, or {@code -errno}. */
    public static int pipe2(MemorySegment fds, int flags) {
        return sys(NR_PIPE2, fds.address(), flags, 0, 0) < 0 ? -errno() : 0;
    }

    /**
     * Waits for child {@code pid} ({@code wait4(2)}, retried on EINTR); returns its exit status
     * (0–255), {@code 1000 + N} when signal N killed it, 255 if it cannot be waited for.
     */
    public static int waitFor(int pid) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(ValueLayout.JAVA_INT);
            while (true) {
                long r = sys(NR_WAIT4, pid, status.address(), 0, 0);
                if (r == pid) {
                    int s = status.get(ValueLayout.JAVA_INT, 0);
                    int sig = s & 0x7f;
                    return sig == 0 ? (s >> 8) & 0xff : 1000 + sig;
                }
                if (r < 0 && errno() != EINTR) {
                    return 255;
                }
            }
        }
    }

    /** A NUL-terminated copy of {@code bytes} in {@code arena}. */
    static MemorySegment cString(Arena arena, byte[] bytes) {
        MemorySegment s = arena.allocate(bytes.length + 1L);
        MemorySegment.copy(bytes, 0, s, ValueLayout.JAVA_BYTE, 0, bytes.length);
        s.set(ValueLayout.JAVA_BYTE, bytes.length, (byte) 0);
        return s;
    }
}
