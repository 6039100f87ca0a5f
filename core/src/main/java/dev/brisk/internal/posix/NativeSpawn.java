// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * brisk's own process start on x86-64 Linux, behind {@link Spawn}: {@code clone3} with
 * {@code CLONE_VM | CLONE_VFORK | CLONE_CLEAR_SIGHAND} and no stack of its own, then the spawn's
 * steps and {@code execve} in the child, in machine code assembled from
 * {@code core/src/main/native/spawn-x86_64.S} ({@code scripts/native-code spawn-x86_64} prints
 * it; {@code NativeCodeTest} checks that {@link #CODE} is that assembly's).
 *
 * <p>Why: glibc's {@code posix_spawn} maps a stack for its child and unmaps it at every call, and
 * unmapping memory of a multi-threaded process interrupts every other CPU that runs it (a quarter
 * of {@code brisk par}'s slot threads' time went there); its child also asks for the disposition
 * of each of the 64 signals. Measured in C on two threads, 1,000 {@code md5sum} jobs: the spawner's
 * own CPU 0.49 s with posix_spawn against 0.30 s with vfork, the children's 0.6 s less
 * ({@code bench/spawn-floor.c}). The kernel's {@code CLONE_CLEAR_SIGHAND} resets every handled signal
 * in the child at once, so no handler of the JVM can run in it.
 *
 * <p>The code is copied once into a page of its own, made executable (never writable and
 * executable at once) and called through the FFM linker with {@link Syscall}'s one shape, where
 * Syscall runs its own code too ({@link Syscall#bindCode}). Where it cannot run (another
 * architecture, a kernel before 5.5 or a seccomp filter refusing {@code clone3}, memory that may
 * not be executable, {@code -Dbrisk.syscall=libc} or {@code -Dbrisk.spawn=posix}), {@link Spawn}
 * uses {@code posix_spawn}, and for a spawn that closes descriptors where {@code close_range}
 * does not run (before Linux 5.9).
 */
final class NativeSpawn {
    /** The assembled code of {@code spawn-x86_64.S}. */
    static final String CODE =
            "48c74740000000004989f8498d7848be40000000b8b30100000f054885c07401c34c89c34c8b73184c8b63384c8dbb88"
            + "00000041bd010000004d85e4742649f7c40100000074154489ef4c89fe31d241ba08000000b80d0000000f0549d1ec41"
            + "ffc5ebd5488d83a80000004939c7740c4989c74c8ba3d0000000ebb749f7c6010000007412b8700000000f054885c00f"
            + "888f010000eb1f49f7c602000000741631ff488b7320b86d0000000f054885c00f886e0100004c8b63304c8b6b284d85"
            + "ed0f8427010000498b04244883f800743f4883f8010f84a30000004883f8020f84cf0000004883f8040f84d800000049"
            + "8b7c2408beffffffff31d2b8b40100000f054885c00f8819010000e9d2000000498b7c2408b8030000000f0548c7c79c"
            + "ffffff498b742418498b54242041bab6010000b8010100000f054885c00f88e1000000493b4424080f84940000004989"
            + "c74889c7498b742408b8210000000f054885c00f88bb0000004c89ffb8030000000f054885c00f88a8000000eb64498b"
            + "7c2410498b7424084839f77412b8210000000f054885c00f8887000000eb43be0200000031d2b8480000000f054885c0"
            + "7872eb2e498b7c2418b8500000000f054885c0785feb1b31ff498b742408498d5424104531d2b82e0100000f054885c0"
            + "78424983c42849ffcde9d0feffff49f7c604000000741bbf02000000488db3c800000031d241ba08000000b80e000000"
            + "0f05488b3b488b7308488b5310b83b0000000f0548f7d848894340bf7f000000b8e70000000f05f4";

    /** The plan's fields (see the assembly's header). */
    static final long PATH = 0, ARGV = 8, ENVP = 16, FLAGS = 24, PGROUP = 32, NACTIONS = 40, ACTIONS = 48,
            TO_DEFAULT = 56, ERR = 64, CLONE_ARGS = 72, SA_DFL = 136, SA_IGN = 168, EMPTY_SET = 200, TO_IGNORE = 208,
            SIZE = 216;
    static final long SETSID = 1, SETPGID = 2, EMPTY_MASK = 4;
    /**
     * An action: 5 longs (op, fd, from, path, open flags); {@link #PRLIMIT}'s resource is its fd
     * and its soft and hard limits are its from and path.
     */
    static final long ACTION = 40, OPEN = 0, DUP2 = 1, CHDIR = 2, CLOSE_FROM = 3, PRLIMIT = 4;

    private static final long CLONE_VM = 0x100, CLONE_VFORK = 0x4000, CLONE_CLEAR_SIGHAND = 1L << 32;
    private static final int ENOSYS = 38, EPERM = 1, EINVAL = 22;

    /** Set once a kernel refused clone3 (or its flag): every later spawn goes to posix_spawn. */
    private static volatile boolean refused;

    private NativeSpawn() {}

    private static final class Code {
        static final MethodHandle H = load();

        private static MethodHandle load() {
            // x86-64 Linux, and brisk's own code allowed there: Syscall.bindCode is null elsewhere
            if (!Syscall.raw() || "posix".equals(System.getProperty("brisk.spawn")) || !clone3Answers()) {
                return null;
            }
            return Syscall.bindCode(CODE);
        }
    }

    /**
     * Whether the kernel answers clone3 (Linux 5.3 and later, and no seccomp filter refusing it,
     * as container runtimes' default filters did): asked with a size too small for any clone3,
     * which it refuses with EINVAL, where a missing or filtered call says ENOSYS or EPERM. A kernel
     * without CLONE_CLEAR_SIGHAND (5.3, 5.4) refuses the first start with EINVAL instead.
     */
    static boolean clone3Answers() {
        long r = Syscall.call(Syscall.CLONE3, 0, 0, 0, 0);
        return r == -EINVAL;
    }

    /** Whether close_range(2) runs here (Linux 5.9): a plan that closes descriptors needs it. */
    static final class CloseRange {
        static final boolean WORKS = Syscall.call(Syscall.CLOSE_RANGE, Integer.MAX_VALUE - 1, Integer.MAX_VALUE, 0, 0) == 0;
    }

    /**
     * The signals this process ignores (bit N-1 for signal N), asked of the kernel one by one:
     * {@link Spawn} reads this once, at its first plan.
     */
    static long ignoredNow() {
        long ignored = 0;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment old = a.allocate(32, 8);
            for (int sig = 1; sig <= 64; sig++) {
                if (Syscall.call(Syscall.RT_SIGACTION, sig, 0, old.address(), 8) == 0
                        && old.get(ValueLayout.JAVA_LONG, 0) == 1 /* SIG_IGN */) {
                    ignored |= 1L << (sig - 1);
                }
            }
        }
        return ignored;
    }

    /** Whether spawns go through this code (decided on first use). */
    static boolean usable() {
        return !refused && Code.H != null;
    }

    /** A plan with the fields every start shares: clone3's arguments and the two dispositions. */
    static MemorySegment template(Arena arena) {
        MemorySegment p = arena.allocate(SIZE, 16); // zeroed: SIG_DFL, flags 0, an empty set
        p.set(ValueLayout.JAVA_LONG, CLONE_ARGS, CLONE_VM | CLONE_VFORK | CLONE_CLEAR_SIGHAND);
        p.set(ValueLayout.JAVA_LONG, CLONE_ARGS + 32, Signals.SIGCHLD); // exit_signal
        p.set(ValueLayout.JAVA_LONG, SA_IGN, 1); // SIG_IGN
        return p;
    }

    /**
     * Starts the plan {@code p} (its path, argv and envp set). Returns the child's pid, or
     * {@code -errno} when it did not start (the child that failed is reaped), or
     * {@link Integer#MIN_VALUE} when the kernel refuses clone3: the caller uses posix_spawn then.
     */
    static int start(MemorySegment p) {
        long r = Syscall.invoke(Code.H, Errno.state(), p.address(), 0L, 0L, 0L, 0L, 0L, 0L);
        if (r == -ENOSYS || r == -EPERM || r == -EINVAL) {
            refused = true;
            return Integer.MIN_VALUE;
        }
        if (r < 0) {
            return (int) r;
        }
        long err = p.get(ValueLayout.JAVA_LONG, ERR);
        if (err != 0) {
            // the child stopped before its exec and exited 127: reap it, as posix_spawn does
            while (Syscall.call(Syscall.WAIT4, r, 0, 0, 0) == -Errno.EINTR) {
                // again
            }
            return (int) -err;
        }
        return (int) r;
    }
}
