package dev.brisk.exec.internal;

import dev.brisk.internal.posix.Libc;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs one program directly with {@code posix_spawnp(3)}, no shell: the fastest way to run a
 * simple command per item (one vfork and one exec, as fd does). The child gets argv as bytes,
 * stdin from {@code /dev/null}, stdout and stderr on the given descriptors, default signal
 * dispositions, an empty signal mask and a process group of its own, so a timeout can kill
 * everything it starts. When the JVM dies, the child runs on to its natural end.
 *
 * <p>Thread-safe: each call uses its own memory; {@link #waitFor} blocks the calling (platform)
 * thread.
 */
public final class Spawner {
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;
    private static final AddressLayout A = ValueLayout.ADDRESS;
    private static final MethodHandle FA_INIT = Libc.downcall("posix_spawn_file_actions_init", FunctionDescriptor.of(I, A));
    private static final MethodHandle FA_OPEN = Libc.downcall("posix_spawn_file_actions_addopen",
            FunctionDescriptor.of(I, A, I, A, I, I));
    private static final MethodHandle FA_DUP2 = Libc.downcall("posix_spawn_file_actions_adddup2", FunctionDescriptor.of(I, A, I, I));
    private static final MethodHandle AT_INIT = Libc.downcall("posix_spawnattr_init", FunctionDescriptor.of(I, A));
    private static final MethodHandle AT_FLAGS = Libc.downcall("posix_spawnattr_setflags", FunctionDescriptor.of(I, A, ValueLayout.JAVA_SHORT));
    private static final MethodHandle AT_PGROUP = Libc.downcall("posix_spawnattr_setpgroup", FunctionDescriptor.of(I, A, I));
    private static final MethodHandle AT_SIGMASK = Libc.downcall("posix_spawnattr_setsigmask", FunctionDescriptor.of(I, A, A));
    private static final MethodHandle AT_SIGDEF = Libc.downcall("posix_spawnattr_setsigdefault", FunctionDescriptor.of(I, A, A));
    private static final MethodHandle SIGEMPTY = Libc.downcall("sigemptyset", FunctionDescriptor.of(I, A));
    private static final MethodHandle SIGADD = Libc.downcall("sigaddset", FunctionDescriptor.of(I, A, I));
    private static final MethodHandle SPAWNP = Libc.downcall("posix_spawnp", FunctionDescriptor.of(I, A, A, A, A, A, A));
    private static final MethodHandle WAITPID = Libc.downcall("waitpid", FunctionDescriptor.of(I, I, A, I));

    private static final short SETPGROUP = 0x02;
    private static final short SETSIGDEF = 0x04;
    private static final short SETSIGMASK = 0x08;
    private static final int EINTR = 4;
    /** Generous sizes of glibc's opaque structs (80, 336 and 128 bytes on x86-64). */
    private static final long STRUCT = 1024;

    private final MemorySegment envp;

    /** A spawner whose children get {@code env} plus the per-job variables given to {@link #spawn}. */
    public Spawner(Map<String, String> env) {
        Arena arena = Arena.ofAuto();
        envp = arena.allocate(A, env.size() + 3L);
        int i = 0;
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().equals("PARALLEL_SEQ") || e.getKey().equals("PARALLEL_JOBSLOT")) {
                continue;
            }
            envp.setAtIndex(A, i++, Libc.cString(arena, (e.getKey() + "=" + e.getValue()).getBytes(StandardCharsets.UTF_8)));
        }
        envp.setAtIndex(A, i, MemorySegment.NULL);
        envp.setAtIndex(A, i + 1, MemorySegment.NULL);
        envp.setAtIndex(A, i + 2, MemorySegment.NULL);
        this.fixed = i;
    }

    private final int fixed;
    private final Map<Long, MemorySegment[]> prepared = new ConcurrentHashMap<>();

    /**
     * Starts {@code argv} (argv[0] looked up on PATH) with stdout on {@code outFd} and stderr on
     * {@code errFd}. Returns the child's pid, or {@code -errno} when it could not start (ENOENT:
     * no such command; EACCES: not executable).
     */
    public int spawn(List<byte[]> argv, int outFd, int errFd, long seq, int slot) {
        MemorySegment[] fixedParts = prepared.computeIfAbsent(((long) outFd << 32) | (errFd & 0xffffffffL),
                k -> prepare(outFd, errFd));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pid = arena.allocate(I);
            MemorySegment args = arena.allocate(A, argv.size() + 1L);
            for (int k = 0; k < argv.size(); k++) {
                args.setAtIndex(A, k, Libc.cString(arena, argv.get(k)));
            }
            args.setAtIndex(A, argv.size(), MemorySegment.NULL);
            MemorySegment env = arena.allocate(A, fixed + 3L);
            MemorySegment.copy(envp, 0, env, 0, A.byteSize() * fixed);
            env.setAtIndex(A, fixed, Libc.cString(arena, ("PARALLEL_SEQ=" + seq).getBytes(StandardCharsets.US_ASCII)));
            env.setAtIndex(A, fixed + 1, Libc.cString(arena, ("PARALLEL_JOBSLOT=" + slot).getBytes(StandardCharsets.US_ASCII)));
            env.setAtIndex(A, fixed + 2, MemorySegment.NULL);
            int r = (int) SPAWNP.invokeExact(Libc.callState(), pid, args.getAtIndex(A, 0), fixedParts[0], fixedParts[1], args, env);
            return r == 0 ? pid.get(I, 0) : -r;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /**
     * The file actions and attributes for children writing to {@code outFd}/{@code errFd}: made
     * once per pair and kept (they are only read by {@code posix_spawnp}), so a spawn costs one
     * foreign call.
     */
    private static MemorySegment[] prepare(int outFd, int errFd) {
        Arena arena = Arena.ofAuto();
        MemorySegment fa = arena.allocate(STRUCT, 16);
        MemorySegment attr = arena.allocate(STRUCT, 16);
        MemorySegment sigs = arena.allocate(STRUCT, 16);
        MemorySegment cs = Libc.callState();
        try {
            int r = (int) FA_INIT.invokeExact(cs, fa);
            r |= (int) FA_OPEN.invokeExact(cs, fa, 0, Libc.cString(arena, "/dev/null".getBytes(StandardCharsets.US_ASCII)),
                    Libc.O_RDONLY, 0);
            r |= (int) FA_DUP2.invokeExact(cs, fa, outFd, 1);
            r |= (int) FA_DUP2.invokeExact(cs, fa, errFd, 2);
            r |= (int) AT_INIT.invokeExact(cs, attr);
            r |= (int) AT_FLAGS.invokeExact(cs, attr, (short) (SETPGROUP | SETSIGDEF | SETSIGMASK));
            r |= (int) AT_PGROUP.invokeExact(cs, attr, 0);
            r |= (int) SIGEMPTY.invokeExact(cs, sigs);
            r |= (int) AT_SIGMASK.invokeExact(cs, attr, sigs);
            for (int s = 1; s < 32; s++) {
                if (s != Libc.SIGKILL && s != Libc.SIGSTOP) {
                    r |= (int) SIGADD.invokeExact(cs, sigs, s);
                }
            }
            r |= (int) AT_SIGDEF.invokeExact(cs, attr, sigs);
            if (r != 0) {
                throw new IllegalStateException("cannot set up posix_spawn attributes");
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
        return new MemorySegment[] {fa, attr, sigs};
    }

    /**
     * Waits for child {@code pid}; returns its exit status (0–255), or {@code 1000 + N} when
     * signal N killed it.
     */
    public static int waitFor(int pid) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(I);
            while (true) {
                int r = (int) WAITPID.invokeExact(Libc.callState(), pid, status, 0);
                if (r == pid) {
                    int s = status.get(I, 0);
                    int sig = s & 0x7f;
                    return sig == 0 ? (s >> 8) & 0xff : 1000 + sig;
                }
                if (r < 0 && Libc.errno() != EINTR) {
                    return 255;
                }
            }
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
