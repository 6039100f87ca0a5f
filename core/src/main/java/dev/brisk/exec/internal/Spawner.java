package dev.brisk.exec.internal;

import dev.brisk.internal.posix.Libc;
import java.io.IOException;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
 * <p>{@link #spawnPipeline} starts the commands of a pipeline the same way, each one's stdout
 * piped into the next one's stdin, all in one process group: what a shell does for
 * {@code a | b}, without the shell.
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
    private static final MethodHandle PIPE2 = Libc.downcall("pipe2", FunctionDescriptor.of(I, A, I));

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
    /** File actions for pipeline elements, by (stdin or -1 for /dev/null, stdout, stderr). */
    private final Map<Fds, MemorySegment> piped = new ConcurrentHashMap<>();

    private record Fds(int in, int out, int err) {}

    /**
     * Starts {@code argv} (argv[0] looked up on PATH) with stdout on {@code outFd} and stderr on
     * {@code errFd}. Returns the child's pid, or {@code -errno} when it could not start (ENOENT:
     * no such command; EACCES: not executable).
     */
    public int spawn(List<byte[]> argv, int outFd, int errFd, long seq, int slot) {
        MemorySegment[] fixedParts = prepared.computeIfAbsent(((long) outFd << 32) | (errFd & 0xffffffffL),
                k -> prepare(outFd, errFd));
        try (Arena arena = Arena.ofConfined()) {
            return spawn(arena, argv, fixedParts[0], fixedParts[1], env(arena, seq, slot));
        }
    }

    /**
     * Starts the commands of a pipeline, each with stdout into a pipe to the next one's stdin:
     * the first reads {@code /dev/null}, the last writes {@code outFd}, all write stderr to
     * {@code errFd}. The first command started leads a new process group that the others join,
     * so {@code kill(-group)} reaches them all. Returns, per command, its pid or {@code -errno}
     * when it could not start (the rest still start, reading end of file from a command that
     * did not); the group is the first positive pid. The pipes are closed in this process on
     * return.
     *
     * @throws IOException if no pipe can be made (too many open files)
     */
    public int[] spawnPipeline(List<List<byte[]>> commands, int outFd, int errFd, long seq, int slot)
            throws IOException {
        int n = commands.size();
        int[] pids = new int[n];
        int[] reads = new int[n];
        int[] writes = new int[n];
        Arrays.fill(reads, -1);
        Arrays.fill(writes, -1);
        MemorySegment[] shared = prepared.computeIfAbsent(((long) outFd << 32) | (errFd & 0xffffffffL),
                k -> prepare(outFd, errFd));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(I, 2);
            for (int i = 0; i < n - 1; i++) {
                if ((int) PIPE2.invokeExact(Libc.callState(), fds, Libc.O_CLOEXEC) != 0) {
                    throw new IOException("cannot make a pipe: " + Libc.strerror(Libc.errno()));
                }
                reads[i] = fds.getAtIndex(I, 0);
                writes[i] = fds.getAtIndex(I, 1);
            }
            MemorySegment env = env(arena, seq, slot);
            MemorySegment follower = null;
            int group = 0;
            for (int i = 0; i < n; i++) {
                Fds key = new Fds(i == 0 ? -1 : reads[i - 1], i == n - 1 ? outFd : writes[i], errFd);
                MemorySegment actions = piped.computeIfAbsent(key, Spawner::actions);
                MemorySegment attr = shared[1];
                if (group > 0) {
                    if (follower == null) {
                        // glibc's posix_spawnattr_t is plain data: a copy is an attribute object
                        follower = arena.allocate(STRUCT, 16);
                        MemorySegment.copy(shared[1], 0, follower, 0, STRUCT);
                        int r = (int) AT_PGROUP.invokeExact(Libc.callState(), follower, group);
                        if (r != 0) {
                            throw new IllegalStateException("cannot set up posix_spawn attributes");
                        }
                    }
                    attr = follower;
                }
                pids[i] = spawn(arena, commands.get(i), actions, attr, env);
                if (pids[i] > 0 && group == 0) {
                    group = pids[i];
                }
                // the child has its ends now: once every holder of a pipe's write end is gone,
                // its reader sees end of file
                if (i > 0) {
                    Libc.close(reads[i - 1]);
                    reads[i - 1] = -1;
                }
                if (i < n - 1) {
                    Libc.close(writes[i]);
                    writes[i] = -1;
                }
            }
            return pids;
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        } finally {
            for (int i = 0; i < n; i++) {
                if (reads[i] >= 0) {
                    Libc.close(reads[i]);
                }
                if (writes[i] >= 0) {
                    Libc.close(writes[i]);
                }
            }
        }
    }

    private static int spawn(Arena arena, List<byte[]> argv, MemorySegment actions, MemorySegment attr,
                             MemorySegment env) {
        try {
            MemorySegment pid = arena.allocate(I);
            MemorySegment args = arena.allocate(A, argv.size() + 1L);
            for (int k = 0; k < argv.size(); k++) {
                args.setAtIndex(A, k, Libc.cString(arena, argv.get(k)));
            }
            args.setAtIndex(A, argv.size(), MemorySegment.NULL);
            int r = (int) SPAWNP.invokeExact(Libc.callState(), pid, args.getAtIndex(A, 0), actions, attr, args, env);
            return r == 0 ? pid.get(I, 0) : -r;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** The children's environment: the fixed part and this job's PARALLEL_SEQ and PARALLEL_JOBSLOT. */
    private MemorySegment env(Arena arena, long seq, int slot) {
        MemorySegment env = arena.allocate(A, fixed + 3L);
        MemorySegment.copy(envp, 0, env, 0, A.byteSize() * fixed);
        env.setAtIndex(A, fixed, Libc.cString(arena, ("PARALLEL_SEQ=" + seq).getBytes(StandardCharsets.US_ASCII)));
        env.setAtIndex(A, fixed + 1, Libc.cString(arena, ("PARALLEL_JOBSLOT=" + slot).getBytes(StandardCharsets.US_ASCII)));
        env.setAtIndex(A, fixed + 2, MemorySegment.NULL);
        return env;
    }

    /**
     * File actions giving a child {@code fds.in} (or {@code /dev/null} for -1) as stdin and
     * {@code fds.out}/{@code fds.err} as stdout/stderr: kept, as descriptor numbers repeat.
     */
    private static MemorySegment actions(Fds fds) {
        Arena arena = Arena.ofAuto();
        MemorySegment fa = arena.allocate(STRUCT, 16);
        MemorySegment cs = Libc.callState();
        try {
            int r = (int) FA_INIT.invokeExact(cs, fa);
            if (fds.in() < 0) {
                r |= (int) FA_OPEN.invokeExact(cs, fa, 0, Libc.cString(arena, "/dev/null".getBytes(StandardCharsets.US_ASCII)),
                        Libc.O_RDONLY, 0);
            } else {
                r |= (int) FA_DUP2.invokeExact(cs, fa, fds.in(), 0);
            }
            r |= (int) FA_DUP2.invokeExact(cs, fa, fds.out(), 1);
            r |= (int) FA_DUP2.invokeExact(cs, fa, fds.err(), 2);
            if (r != 0) {
                throw new IllegalStateException("cannot set up posix_spawn file actions");
            }
            return fa;
        } catch (RuntimeException e) {
            throw e;
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
