// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * Starts a program with {@code posix_spawn(3)} (one vfork and one exec: no copy of the JVM, no
 * helper process) and follows it with a pidfd. Arguments, environment and paths are bytes.
 *
 * <p>The child gets the descriptors its {@link Actions} open, nothing else of the JVM's
 * ({@code closefrom(3)}), default signal dispositions (but for those the caller says to leave
 * ignored), an empty signal mask and a session of its
 * own (so its pid is also its process-group and session id, and it has no controlling
 * terminal). Thread-safe: every call uses its own memory.
 */
public final class Spawn {
    private Spawn() {}

    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;
    private static final AddressLayout A = ValueLayout.ADDRESS;
    private static final short SETSIGDEF = 0x04;
    private static final short SETSIGMASK = 0x08;
    private static final short SETSID = 0x80;
    private static final int WNOHANG = 1;
    private static final int EINTR = 4;
    /** Generous sizes of glibc's opaque structs (80, 336 and 128 bytes on x86-64). */
    private static final long STRUCT = 1024;

    private static final Calls CALLS = Calls.bind();

    /** The calls, or null fields when this C library lacks them (then {@link #available} is false). */
    private record Calls(MethodHandle faInit, MethodHandle faDestroy, MethodHandle faOpen, MethodHandle faChdir,
                         MethodHandle faCloseFrom, MethodHandle atInit, MethodHandle atDestroy, MethodHandle atFlags,
                         MethodHandle atSigmask, MethodHandle atSigdef, MethodHandle sigEmpty, MethodHandle sigFill, MethodHandle sigDel,
                         MethodHandle spawn, MethodHandle pidfdOpen, MethodHandle waitpid) {
        static Calls bind() {
            try {
                return new Calls(
                        Libc.downcall("posix_spawn_file_actions_init", FunctionDescriptor.of(I, A)),
                        Libc.downcall("posix_spawn_file_actions_destroy", FunctionDescriptor.of(I, A)),
                        Libc.downcall("posix_spawn_file_actions_addopen", FunctionDescriptor.of(I, A, I, A, I, I)),
                        Libc.downcall("posix_spawn_file_actions_addchdir_np", FunctionDescriptor.of(I, A, A)),
                        Libc.downcall("posix_spawn_file_actions_addclosefrom_np", FunctionDescriptor.of(I, A, I)),
                        Libc.downcall("posix_spawnattr_init", FunctionDescriptor.of(I, A)),
                        Libc.downcall("posix_spawnattr_destroy", FunctionDescriptor.of(I, A)),
                        Libc.downcall("posix_spawnattr_setflags", FunctionDescriptor.of(I, A, ValueLayout.JAVA_SHORT)),
                        Libc.downcall("posix_spawnattr_setsigmask", FunctionDescriptor.of(I, A, A)),
                        Libc.downcall("posix_spawnattr_setsigdefault", FunctionDescriptor.of(I, A, A)),
                        Libc.downcall("sigemptyset", FunctionDescriptor.of(I, A)),
                        Libc.downcall("sigfillset", FunctionDescriptor.of(I, A)),
                        Libc.downcall("sigdelset", FunctionDescriptor.of(I, A, I)),
                        Libc.downcall("posix_spawn", FunctionDescriptor.of(I, A, A, A, A, A, A)),
                        Libc.downcall("pidfd_open", FunctionDescriptor.of(I, I, I)),
                        Libc.downcall("waitpid", FunctionDescriptor.of(I, I, A, I)));
            } catch (UnsatisfiedLinkError | IllegalArgumentException e) {
                return null;
            }
        }
    }

    /**
     * True when the C library has every call this class needs (glibc 2.36 or later) and the
     * kernel gives pidfds (Linux 5.3 or later, and no seccomp filter refusing them).
     */
    public static boolean available() {
        return AVAILABLE;
    }

    private static final boolean AVAILABLE = CALLS != null && pidfdWorks();

    private static boolean pidfdWorks() {
        try {
            int fd = pidfd(Libc.getpid());
            Libc.close(fd);
            return true;
        } catch (PosixException e) {
            return false;
        }
    }

    /** What the child does between fork and exec: opens, in order, then a change of directory. */
    public static final class Actions {
        private final byte[][] paths = new byte[3][];
        private final int[] flags = new int[3];
        private byte[] directory;

        /** Opens {@code path} with {@code openFlags} as descriptor {@code fd} (0, 1 or 2). */
        public Actions open(int fd, byte[] path, int openFlags) {
            paths[fd] = path;
            flags[fd] = openFlags;
            return this;
        }

        /** Changes to {@code dir} after the opens (relative paths above are not affected). */
        public Actions chdir(byte[] dir) {
            directory = dir;
            return this;
        }
    }

    /**
     * Starts {@code path} (no PATH search) with {@code argv} and {@code env} ("NAME=value"
     * entries); the signals in mask {@code ignored} (bit N-1 for signal N) keep their
     * disposition, ignored ones stay ignored. Returns the child's pid, or {@code -errno} when it
     * could not start: nothing ran then (glibc reports a failed open, chdir or exec this way and
     * reaps the child).
     */
    public static int start(byte[] path, List<byte[]> argv, List<byte[]> env, Actions actions, long ignored) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cs = Libc.callState();
            MemorySegment fa = arena.allocate(STRUCT, 16);
            MemorySegment attr = arena.allocate(STRUCT, 16);
            MemorySegment sigs = arena.allocate(STRUCT, 16);
            int r = (int) CALLS.faInit.invokeExact(cs, fa);
            r |= (int) CALLS.atInit.invokeExact(cs, attr);
            if (r != 0) {
                return -Libc.ENOMEM;
            }
            try {
                for (int fd = 0; fd < 3; fd++) {
                    if (actions.paths[fd] != null) {
                        r |= (int) CALLS.faOpen.invokeExact(cs, fa, fd, Libc.cString(arena, actions.paths[fd]), actions.flags[fd], 0);
                    }
                }
                if (actions.directory != null) {
                    r |= (int) CALLS.faChdir.invokeExact(cs, fa, Libc.cString(arena, actions.directory));
                }
                r |= (int) CALLS.faCloseFrom.invokeExact(cs, fa, 3);
                r |= (int) CALLS.atFlags.invokeExact(cs, attr, (short) (SETSID | SETSIGDEF | SETSIGMASK));
                r |= (int) CALLS.sigEmpty.invokeExact(cs, sigs);
                r |= (int) CALLS.atSigmask.invokeExact(cs, attr, sigs);
                r |= (int) CALLS.sigFill.invokeExact(cs, sigs);
                for (int sig = 1; sig <= 64; sig++) {
                    if ((ignored & (1L << (sig - 1))) != 0) {
                        // glibc refuses its own internal signals (32, 33), which it never resets anyway
                        int refused = (int) CALLS.sigDel.invokeExact(cs, sigs, sig);
                    }
                }
                r |= (int) CALLS.atSigdef.invokeExact(cs, attr, sigs);
                if (r != 0) {
                    return -Libc.EINVAL;
                }
                MemorySegment pid = arena.allocate(I);
                int e = (int) CALLS.spawn.invokeExact(cs, pid, Libc.cString(arena, path), fa, attr,
                        vector(arena, argv), vector(arena, env));
                return e == 0 ? pid.get(I, 0) : -e;
            } finally {
                int destroyed = (int) CALLS.faDestroy.invokeExact(cs, fa);
                destroyed |= (int) CALLS.atDestroy.invokeExact(cs, attr);
            }
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    private static MemorySegment vector(Arena arena, List<byte[]> items) {
        MemorySegment v = arena.allocate(A, items.size() + 1L);
        for (int k = 0; k < items.size(); k++) {
            v.setAtIndex(A, k, Libc.cString(arena, items.get(k)));
        }
        v.setAtIndex(A, items.size(), MemorySegment.NULL);
        return v;
    }

    /** A descriptor that polls readable when process {@code pid} (our child) has ended. */
    public static int pidfd(int pid) throws PosixException {
        try {
            int fd = (int) CALLS.pidfdOpen.invokeExact(Libc.callState(), pid, 0);
            if (fd < 0) {
                throw new PosixException("pidfd_open", Integer.toString(pid), Libc.errno());
            }
            return fd;
        } catch (PosixException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /**
     * Reaps child {@code pid}: its exit status (0–255, or 128 + N when signal N killed it, as a
     * shell reports it), or -1 when it is still running and {@code block} is false.
     */
    public static int reap(int pid, boolean block) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(I);
            while (true) {
                int r = (int) CALLS.waitpid.invokeExact(Libc.callState(), pid, status, block ? 0 : WNOHANG);
                if (r == pid) {
                    int s = status.get(I, 0);
                    int sig = s & 0x7f;
                    return sig == 0 ? (s >> 8) & 0xff : 128 + sig;
                }
                if (r == 0) {
                    return -1;
                }
                if (Libc.errno() != EINTR) {
                    return 255; // not our child any more: nothing to report
                }
            }
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
