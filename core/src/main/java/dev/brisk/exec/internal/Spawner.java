// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.internal.posix.EnvText;
import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.internal.posix.ProgramPath;
import dev.brisk.internal.posix.Signals;
import dev.brisk.internal.posix.Spawn;
import java.io.IOException;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs {@code brisk par}'s simple jobs directly, no shell: the fastest way to run a command per
 * item (one vfork and one exec, as fd does), on the shared {@link Spawn}. The child gets argv as
 * bytes, stdin from {@code /dev/null}, stdout and stderr on the given descriptors, default signal
 * dispositions, an empty signal mask and a process group of its own, so a timeout can kill
 * everything it starts. When the JVM dies, the child runs on to its natural end.
 *
 * <p>A program name is looked up on PATH once per spawner ({@link ProgramPath}), as a shell's
 * hash table does; a file that is not a binary and has no {@code #!} line runs with
 * {@code /bin/sh}, as a shell (and {@code execvp}) runs it. {@link #spawnPipeline} starts the
 * commands of a pipeline the same way, each one's stdout piped into the next one's stdin, all in
 * one process group: what a shell does for {@code a | b}, without the shell. A prepared
 * {@link Spawn} is kept per set of descriptors (they repeat), so a job costs one foreign call.
 *
 * <p>Thread-safe: each call uses its own memory; the children are reaped with
 * {@link dev.brisk.internal.posix.WaitStatus}.
 */
public final class Spawner {
    private static final AddressLayout A = ValueLayout.ADDRESS;
    private static final byte[] DEV_NULL = "/dev/null".getBytes(StandardCharsets.US_ASCII);

    private final MemorySegment envp;
    private final String slotVariable;
    private final int fixed;
    private final ProgramPath path;
    /** Prepared spawns by (stdin or -1 for /dev/null, stdout, stderr). */
    private final Map<Fds, Spawn> spawns = new ConcurrentHashMap<>();

    private record Fds(int in, int out, int err) {}

    /**
     * A spawner whose children get {@code env} plus the per-job variables given to
     * {@link #spawn}, the slot number less one in {@code slotVariable} ({@code --process-slot-var}).
     */
    public Spawner(Map<String, String> env, String slotVariable) {
        this.slotVariable = slotVariable;
        Arena arena = Arena.ofAuto();
        envp = arena.allocate(A, env.size() + 4L);
        int i = 0;
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().equals("PARALLEL_SEQ") || e.getKey().equals("PARALLEL_JOBSLOT") || e.getKey().equals(slotVariable)) {
                continue;
            }
            envp.setAtIndex(A, i++, Libc.cString(arena, EnvText.entry(e.getKey(), e.getValue())));
        }
        this.fixed = i;
        this.path = ProgramPath.of(env.get("PATH"));
        Spawn.bind(); // before any job's clock starts
    }

    /**
     * Starts {@code argv} (argv[0] looked up on PATH) with stdout on {@code outFd} and stderr on
     * {@code errFd}. Returns the child's pid, or {@code -errno} when it could not start (ENOENT:
     * no such command; EACCES: not executable).
     */
    public int spawn(List<byte[]> argv, int outFd, int errFd, long seq, int slot) {
        return spawn(argv, -1, outFd, errFd, seq, slot);
    }

    /** As {@link #spawn(List, int, int, long, int)}, with stdin on {@code inFd} (-1: {@code /dev/null}). */
    public int spawn(List<byte[]> argv, int inFd, int outFd, int errFd, long seq, int slot) {
        try (Arena arena = Arena.ofConfined()) {
            return spawn(arena, argv, spawnFor(new Fds(inFd, outFd, errFd)), env(arena, seq, slot), 0);
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
        try (Arena arena = Arena.ofConfined()) {
            for (int i = 0; i < n - 1; i++) {
                int[] ends;
                try {
                    ends = Libc.pipe();
                } catch (PosixException e) {
                    throw new IOException("cannot make a pipe: " + Errno.message(e.errno()));
                }
                reads[i] = ends[0];
                writes[i] = ends[1];
            }
            MemorySegment env = env(arena, seq, slot);
            int group = 0;
            for (int i = 0; i < n; i++) {
                Spawn s = spawnFor(new Fds(i == 0 ? -1 : reads[i - 1], i == n - 1 ? outFd : writes[i], errFd));
                pids[i] = spawn(arena, commands.get(i), s, env, group);
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
        } finally {
            for (int i = 0; i < n; i++) {
                Libc.close(reads[i]);
                Libc.close(writes[i]);
            }
        }
    }

    private int spawn(Arena arena, List<byte[]> argv, Spawn spawn, MemorySegment env, int group) {
        byte[] name = argv.getFirst();
        ProgramPath.Program program = path.find(name);
        if (!program.found()) {
            return -program.errno();
        }
        MemorySegment args = Spawn.vector(arena, argv);
        int r = spawn.start(arena, program.cPath(), args, env, group);
        if (r == -Errno.ENOENT) {
            // gone since it was found: look again, as a shell forgets a hashed command
            path.forget(name);
            program = path.find(name);
            r = program.found() ? spawn.start(arena, program.cPath(), args, env, group) : -program.errno();
        }
        return r;
    }

    /** The children's environment: the fixed part and this job's PARALLEL_SEQ, PARALLEL_JOBSLOT and slot variable. */
    private MemorySegment env(Arena arena, long seq, int slot) {
        MemorySegment env = arena.allocate(A, fixed + 4L);
        MemorySegment.copy(envp, 0, env, 0, A.byteSize() * fixed);
        env.setAtIndex(A, fixed, Libc.cString(arena, ("PARALLEL_SEQ=" + seq).getBytes(StandardCharsets.US_ASCII)));
        env.setAtIndex(A, fixed + 1, Libc.cString(arena, ("PARALLEL_JOBSLOT=" + slot).getBytes(StandardCharsets.US_ASCII)));
        env.setAtIndex(A, fixed + 2, Libc.cString(arena, (slotVariable + "=" + (slot - 1)).getBytes(StandardCharsets.UTF_8)));
        return env;
    }

    /** The prepared spawn for children with {@code fds}: made once and kept, as descriptor numbers repeat. */
    private Spawn spawnFor(Fds fds) {
        return spawns.computeIfAbsent(fds, k -> {
            Spawn s = new Spawn();
            if (k.in() < 0) {
                s.open(0, DEV_NULL, Flags.O_RDONLY);
            } else {
                s.dup2(k.in(), 0);
            }
            // the signals the caller (this process or a warm server's client) was started with
            // ignored stay ignored, as in the job shells (JobShell.ignoring) and as xargs's
            // commands; glibc's 32 and 33 ignored, as in the job shells (ProcessBuilder's children)
            return s.dup2(k.out(), 1).dup2(k.err(), 2).ownGroup().defaultSignals(Spawn.CALLER_IGNORED | Signals.GLIBC_INTERNAL)
                    .scriptsWithSh();
        });
    }
}
