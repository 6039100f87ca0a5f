// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.HexFormat;

/**
 * The one way brisk makes a system call, and the call numbers it uses, for x86-64 and aarch64:
 * every system call that has no C library wrapper worth its binding goes through here.
 *
 * <p>On x86-64 Linux the call is a few instructions of brisk's own, made by JNI: {@link Kernel}
 * writes them into a small shared object of its own making and loads it, which a cold JVM does in
 * well under a millisecond, where the FFM linker's first downcall costs ~30 ms of its start (the
 * code it generates cannot be kept in an AOT cache). Where that cannot load (a {@code noexec}
 * temporary directory) or under {@code -Dbrisk.syscall=ffm}, the same instructions
 * ({@link #RAW_CODE}, from {@code core/src/main/native/syscall-x86_64.S}) are copied into a page
 * made executable (never writable and executable at once) and bound through the linker without
 * errno capture. Either way the kernel's result comes back as it is, {@code -errno} on failure,
 * and {@link #call} puts that errno into the caller's state segment itself, only when a call
 * fails (the linker's capture cost every call ~4% of a walk's CPU). Elsewhere (aarch64, memory
 * that may not be executable, or {@code -Dbrisk.syscall=libc}) the C library's {@code syscall(2)}
 * is bound with errno capture; all three give the same results ({@code SyscallTest}).
 *
 * <p>Why one shape: the FFM linker generates code per function shape when a JVM first binds it
 * (milliseconds each, paid by every command-line run), and every function brisk binds here, the
 * raw call, {@code mmap} and {@code mprotect} to place it, {@link CFunction}'s and
 * {@link NativeSpawn}'s (which runs only where the raw call does), takes
 * {@code long f(long} x 7{@code )}, with errno capture only where the raw call cannot run: one
 * shape per JVM either way (two only where {@code mprotect} refused the page after the
 * capture-free shape was made). The C library's {@code syscall} is
 * variadic, but bound as a plain function of seven longs: on Linux x86-64 and aarch64 integer
 * arguments travel in the same registers either way, and glibc's {@code syscall} ignores the
 * vector-register count a variadic call adds. The variadic binding made the linker generate four
 * method handle classes more (~8 ms of start-up).
 *
 * <p>Each call takes an errno state segment ({@link Errno#state()}, or a caller's own, as the
 * walker's per-thread scratch) and returns the raw result: negative on failure, errno in the
 * segment. Thread-safe.
 */
public final class Syscall {
    private static final boolean ARM = "aarch64".equals(System.getProperty("os.arch"));

    public static final long READ = ARM ? 63 : 0, WRITE = ARM ? 64 : 1, CLOSE = ARM ? 57 : 3,
            OPENAT = ARM ? 56 : 257, GETDENTS64 = ARM ? 61 : 217, STATX = ARM ? 291 : 332,
            READLINKAT = ARM ? 78 : 267, UNLINKAT = ARM ? 35 : 263, FACCESSAT = ARM ? 48 : 269,
            MKDIRAT = ARM ? 34 : 258, KILL = ARM ? 129 : 62, PIPE2 = ARM ? 59 : 293, WAIT4 = ARM ? 260 : 61,
            GETRLIMIT = ARM ? 163 : 97, SETRLIMIT = ARM ? 164 : 160, PRLIMIT64 = ARM ? 261 : 302, PIDFD_OPEN = 434,
            FTRUNCATE = ARM ? 46 : 77, PWRITE64 = ARM ? 68 : 18, PPOLL = ARM ? 73 : 271, MKNODAT = ARM ? 33 : 259,
            FCNTL = ARM ? 25 : 72, GETPID = ARM ? 172 : 39, IOCTL = ARM ? 29 : 16, GETPGID = ARM ? 155 : 121,
            SPLICE = ARM ? 76 : 275, COPY_FILE_RANGE = ARM ? 285 : 326, SENDFILE = ARM ? 71 : 40,
            LSEEK = ARM ? 62 : 8, FDATASYNC = ARM ? 83 : 75, FSTATFS = ARM ? 44 : 138,
            GETXATTR = ARM ? 8 : 191, LGETXATTR = ARM ? 9 : 192, MMAP = ARM ? 222 : 9, MPROTECT = ARM ? 226 : 10,
            MUNMAP = ARM ? 215 : 11, RT_SIGACTION = ARM ? 134 : 13, CLONE3 = 435, CLOSE_RANGE = 436,
            SOCKET = ARM ? 198 : 41, CONNECT = ARM ? 203 : 42, SENDTO = ARM ? 206 : 44, SHUTDOWN = ARM ? 210 : 48,
            SETSOCKOPT = ARM ? 208 : 54, GETSOCKOPT = ARM ? 209 : 55, BIND = ARM ? 200 : 49, LISTEN = ARM ? 201 : 50,
            ACCEPT4 = ARM ? 242 : 288, RECVMSG = ARM ? 212 : 47, UNSHARE = ARM ? 97 : 272, FCHDIR = ARM ? 50 : 81,
            UMASK = ARM ? 166 : 95, DUP3 = ARM ? 24 : 292, FLOCK = ARM ? 32 : 73, SETPRIORITY = ARM ? 140 : 141;

    /** The assembled code of {@code syscall-x86_64.S}. */
    static final String RAW_CODE = "4889f84889f74889d64889ca4d89c24d89c84c8b4c24080f05c3";

    /**
     * Whether calls go through {@link Kernel}'s JNI method (the default on x86-64 Linux): brisk's
     * own code, bound without the FFM linker.
     */
    private static final boolean JNI = !"ffm".equals(System.getProperty("brisk.syscall"))
            && !"libc".equals(System.getProperty("brisk.syscall")) && Kernel.load();

    /** The raw call through the FFM linker ({@link #RAW_CODE}), where JNI is not used and it can run; else null. */
    private static final MethodHandle RAW = JNI ? null : Raw.load();

    /** Whether brisk's own code makes the calls (by JNI or through the linker), not the C library's. */
    private static final boolean OWN = JNI || RAW != null;

    private Syscall() {}

    private static final class Raw {
        static MethodHandle load() {
            String arch = System.getProperty("os.arch");
            if (!"amd64".equals(arch) && !"x86_64".equals(arch) || !"Linux".equals(System.getProperty("os.name"))
                    || "libc".equals(System.getProperty("brisk.syscall"))) {
                return null;
            }
            return placed(RAW_CODE);
        }
    }

    /**
     * Machine code in a page of its own, made executable (never writable and executable at
     * once). The C library's {@code mmap} and {@code mprotect} do it, bound with the raw call's
     * own shape (no second shape is generated): they are needed before the raw call exists.
     */
    private static final class Page {
        static final MethodHandle MMAP = bindPlain(symbol("mmap")), MPROTECT = bindPlain(symbol("mprotect"));

        /** {@code hex}'s code in an executable page, or null where the system refuses one. */
        static MemorySegment place(String hex) throws Throwable {
            byte[] code = HexFormat.of().parseHex(hex);
            long page = (long) MMAP.invokeExact(0L, 4096L, 3L /* PROT_READ | PROT_WRITE */,
                    0x22L /* MAP_PRIVATE | MAP_ANONYMOUS */, -1L, 0L, 0L);
            if (page == -1) {
                return null;
            }
            MemorySegment.copy(code, 0, MemorySegment.ofAddress(page).reinterpret(4096), ValueLayout.JAVA_BYTE, 0, code.length);
            if ((int) (long) MPROTECT.invokeExact(page, 4096L, 5L /* PROT_READ | PROT_EXEC */, 0L, 0L, 0L, 0L) != 0) {
                long ignored = (long) bindPlain(symbol("munmap")).invokeExact(page, 4096L, 0L, 0L, 0L, 0L, 0L);
                return null; // a policy that forbids executable memory
            }
            return MemorySegment.ofAddress(page);
        }
    }

    /**
     * {@code hex}'s machine code (at most a page) placed as the raw call's is and bound with the
     * one shape, for {@link NativeSpawn}; null where this JVM does not run its own code (see
     * {@link #raw}) or the system refuses an executable page.
     */
    static MethodHandle bindCode(String hex) {
        return OWN ? placed(hex) : null;
    }

    /** {@code hex}'s code in a page of its own ({@link Page}), bound with the one shape; null where the system refuses the page. */
    private static MethodHandle placed(String hex) {
        try {
            MemorySegment page = Page.place(hex);
            return page == null ? null : bindPlain(page);
        } catch (Throwable t) {
            return null;
        }
    }

    /** The C library's syscall(2) with errno capture: bound on first use, where the raw call cannot run (and by tests). */
    private static final class Libc {
        static final MethodHandle H = bindCapturing(symbol("syscall"));
    }

    private static MemorySegment symbol(String name) {
        String arch = System.getProperty("os.arch");
        if (!"amd64".equals(arch) && !"x86_64".equals(arch) && !"aarch64".equals(arch)) {
            throw new UnsupportedOperationException("brisk: no system call numbers for " + arch);
        }
        return Linker.nativeLinker().defaultLookup().find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("no symbol " + name + " in the C library"));
    }

    /** Whether system calls go through brisk's own code (by JNI, or {@link #RAW_CODE} through the linker), not the C library's. */
    static boolean raw() {
        return OWN;
    }

    /** How system calls are made here, in a few words for {@code --debug} output. */
    public static String how() {
        return JNI ? "brisk's JNI method" : RAW != null ? "brisk's code through FFM" : "the C library's syscall(2) through FFM";
    }

    /**
     * Binds C library function {@code name} with this class's one shape, {@code long f(long} x 7{@code )},
     * with errno capture only where the raw call cannot run: the linker keeps the code it generated
     * for a shape, so a second function of the same shape costs no generation (measured: ~0.3 ms
     * against ~10 ms for a second shape). Call it with {@link #invoke}. {@link CFunction} binds its
     * functions so.
     */
    static MethodHandle bindShape(String name) {
        MemorySegment address = symbol(name);
        return OWN ? bindPlain(address) : bindCapturing(address);
    }

    private static MethodHandle bindPlain(MemorySegment address) {
        ValueLayout.OfLong l = ValueLayout.JAVA_LONG;
        return Linker.nativeLinker().downcallHandle(address, FunctionDescriptor.of(l, l, l, l, l, l, l, l));
    }

    private static MethodHandle bindCapturing(MemorySegment address) {
        ValueLayout.OfLong l = ValueLayout.JAVA_LONG;
        return Linker.nativeLinker().downcallHandle(address, FunctionDescriptor.of(l, l, l, l, l, l, l, l),
                Linker.Option.captureCallState("errno"));
    }

    /** Calls {@code f}, bound by {@link #bindShape}; where errno is captured it goes to {@code state}. */
    static long invoke(MethodHandle f, MemorySegment state, long a, long b, long c, long d, long e, long g, long h) {
        try {
            return OWN ? (long) f.invokeExact(a, b, c, d, e, g, h) : (long) f.invokeExact(state, a, b, c, d, e, g, h);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** System call {@code nr} with up to five arguments (the sixth: {@link #call6}) (unused ones 0); errno goes to {@code state}. */
    public static long call(MemorySegment state, long nr, long a, long b, long c, long d, long e) {
        return call6(state, nr, a, b, c, d, e, 0L);
    }

    /**
     * A call with all six arguments (splice and copy_file_range have six): the result, or -1 with
     * errno in {@code state}, as the C library's {@code syscall(2)} returns it.
     */
    public static long call6(MemorySegment state, long nr, long a, long b, long c, long d, long e, long f) {
        try {
            long r;
            if (JNI) {
                r = Kernel.call(nr, a, b, c, d, e, f);
            } else if (RAW != null) {
                r = (long) RAW.invokeExact(nr, a, b, c, d, e, f);
            } else {
                return (long) Libc.H.invokeExact(state, nr, a, b, c, d, e, f);
            }
            return result(state, r);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** {@link #call6} through the C library's {@code syscall(2)}, whichever way this JVM calls: for tests. */
    static long callViaLibc(MemorySegment state, long nr, long a, long b, long c, long d, long e, long f) {
        try {
            return (long) Libc.H.invokeExact(state, nr, a, b, c, d, e, f);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /**
     * {@link #call6} through the linker with brisk's own code ({@link #RAW_CODE}), whichever way
     * this JVM calls, or null where that code cannot run: for tests.
     */
    static Long callViaOwnFfm(MemorySegment state, long nr, long a, long b, long c, long d, long e, long f) {
        MethodHandle h = RAW != null ? RAW : OwnFfm.H;
        if (h == null) {
            return null;
        }
        try {
            return result(state, (long) h.invokeExact(nr, a, b, c, d, e, f));
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** The kernel's result {@code r} as the C library returns it: -1 with errno in {@code state} for -4095..-1 (glibc's test), else {@code r}. */
    private static long result(MemorySegment state, long r) {
        if (r < 0 && r > -4096) {
            Errno.write(state, (int) -r);
            return -1;
        }
        return r;
    }

    private static final class OwnFfm {
        static final MethodHandle H = Raw.load();
    }

    /** {@link #call} with this thread's {@link Errno#state()}: the result, or {@code -errno}. */
    public static long call(long nr, long a, long b, long c, long d) {
        MemorySegment state = Errno.state();
        long r = call(state, nr, a, b, c, d, 0);
        return r < 0 ? -Errno.read(state) : r;
    }
}
