// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.internal.posix.Libc;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * Runs a command with byte-exact arguments through {@code posix_spawnp(3)} and waits for it:
 * no Strings and no charset between the file names and the command. The child inherits
 * standard input, output and error and the environment; {@code -execdir} gives it a working
 * directory. Thread-safe; blocks until the command exits.
 */
final class Spawner {
    private static final AddressLayout A = ValueLayout.ADDRESS;
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle SPAWNP = plain("posix_spawnp", FunctionDescriptor.of(I, A, A, A, A, A, A));
    private static final MethodHandle FA_INIT = plain("posix_spawn_file_actions_init", FunctionDescriptor.of(I, A));
    private static final MethodHandle FA_DESTROY = plain("posix_spawn_file_actions_destroy", FunctionDescriptor.of(I, A));
    private static final MethodHandle FA_CHDIR = plain("posix_spawn_file_actions_addchdir_np", FunctionDescriptor.of(I, A, A));
    private static final MethodHandle WAITPID = Libc.downcall("waitpid", FunctionDescriptor.of(I, I, A, I));
    private static final MethodHandle SYSCONF = plain("sysconf", FunctionDescriptor.of(ValueLayout.JAVA_LONG, I));
    private static final MemorySegment ENVIRON = LINKER.defaultLookup().find("environ").orElseThrow()
            .reinterpret(A.byteSize());

    private Spawner() {}

    private static MethodHandle plain(String name, FunctionDescriptor d) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), d);
    }

    /** The system's limit on the bytes of arguments plus environment ({@code sysconf(_SC_ARG_MAX)}). */
    static long argMax() {
        try {
            long v = (long) SYSCONF.invokeExact(0);
            return v > 0 ? v : 131072;
        } catch (Throwable t) {
            return 131072;
        }
    }

    /** The bytes the environment takes in the argument space (strings and pointers). */
    static long environmentSize() {
        MemorySegment env = ENVIRON.get(A, 0).reinterpret(Long.MAX_VALUE);
        long total = 0;
        for (long i = 0; ; i++) {
            MemorySegment s = env.get(A, i * 8);
            if (s.address() == 0) {
                return total + 8;
            }
            total += s.reinterpret(Long.MAX_VALUE).getString(0).length() + 1 + 8;
        }
    }

    /**
     * Runs {@code argv} (argv[0] looked up in PATH) in {@code dir} (null: this directory) and
     * returns its exit status (128 + signal if killed); -1 with a message on stderr if it could not start.
     */
    static int run(List<byte[]> argv, byte[] dir) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment args = arena.allocate(A, argv.size() + 1L);
            for (int i = 0; i < argv.size(); i++) {
                args.setAtIndex(A, i, Libc.cString(arena, argv.get(i)));
            }
            args.setAtIndex(A, argv.size(), MemorySegment.NULL);
            MemorySegment pid = arena.allocate(I);
            MemorySegment actions = MemorySegment.NULL;
            if (dir != null) {
                actions = arena.allocate(256, 16);
                int r = (int) FA_INIT.invokeExact(actions);
                if (r != 0) {
                    throw new IllegalStateException("posix_spawn_file_actions_init: " + Libc.strerror(r));
                }
                r = (int) FA_CHDIR.invokeExact(actions, Libc.cString(arena, dir));
                if (r != 0) {
                    throw new IllegalStateException("posix_spawn_file_actions_addchdir_np: " + Libc.strerror(r));
                }
            }
            int r = (int) SPAWNP.invokeExact(pid, args.getAtIndex(A, 0), actions, MemorySegment.NULL, args,
                    ENVIRON.get(A, 0));
            if (dir != null) {
                int ignored = (int) FA_DESTROY.invokeExact(actions);
            }
            if (r != 0) {
                System.err.println("find: '" + Libc.display(argv.get(0)) + "': " + Libc.strerror(r));
                return -1;
            }
            MemorySegment status = arena.allocate(I);
            int p = pid.get(I, 0);
            while (true) {
                int w = (int) WAITPID.invokeExact(Libc.callState(), p, status, 0);
                if (w == p) {
                    break;
                }
                if (Libc.errno() != Libc.EINTR) {
                    return -1;
                }
            }
            int st = status.get(I, 0);
            return (st & 0x7f) == 0 ? (st >> 8) & 0xff : 128 + (st & 0x7f);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
