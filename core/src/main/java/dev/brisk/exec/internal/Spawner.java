// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import java.io.IOException;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs one program directly with {@code posix_spawn(3)}, no shell: the fastest way to run a
 * simple command per item (one vfork and one exec, as fd does). The child gets argv as bytes,
 * stdin from {@code /dev/null}, stdout and stderr on the given descriptors, default signal
 * dispositions, an empty signal mask and a process group of its own, so a timeout can kill
 * everything it starts. When the JVM dies, the child runs on to its natural end.
 *
 * <p>A program name without a slash is looked up on PATH once per spawner, as a shell's hash
 * table does, and then spawned by its path: {@code posix_spawnp} would try every PATH
 * directory before it again for every job (one failed exec each). A file that is not a binary
 * and has no {@code #!} line runs with {@code /bin/sh}, as a shell (and {@code execvp}) runs it.
 *
 * <p>{@link #spawnPipeline} starts the commands of a pipeline the same way, each one's stdout
 * piped into the next one's stdin, all in one process group: what a shell does for
 * {@code a | b}, without the shell.
 *
 * <p>Thread-safe: each call uses its own memory; {@link #waitFor} blocks the calling (platform)
 * thread.
 */
public final class Spawner {
    private static final AddressLayout A = ValueLayout.ADDRESS;
    private static final MethodHandle FA_INIT = Posix.function("posix_spawn_file_actions_init");
    private static final MethodHandle FA_OPEN = Posix.function("posix_spawn_file_actions_addopen");
    private static final MethodHandle FA_DUP2 = Posix.function("posix_spawn_file_actions_adddup2");
    private static final MethodHandle AT_INIT = Posix.function("posix_spawnattr_init");
    private static final MethodHandle AT_FLAGS = Posix.function("posix_spawnattr_setflags");
    private static final MethodHandle AT_PGROUP = Posix.function("posix_spawnattr_setpgroup");
    private static final MethodHandle AT_SIGMASK = Posix.function("posix_spawnattr_setsigmask");
    private static final MethodHandle AT_SIGDEF = Posix.function("posix_spawnattr_setsigdefault");
    private static final MethodHandle SIGEMPTY = Posix.function("sigemptyset");
    private static final MethodHandle SIGADD = Posix.function("sigaddset");
    private static final MethodHandle SPAWN = Posix.function("posix_spawn");
    private static final MethodHandle SPAWNP = Posix.function("posix_spawnp");

    private static final short SETPGROUP = 0x02;
    private static final short SETSIGDEF = 0x04;
    private static final short SETSIGMASK = 0x08;
    private static final int ENOENT = 2, ENOEXEC = 8, SIGKILL = 9, SIGSTOP = 19, O_RDONLY = 0, O_CLOEXEC = 02000000;
    /** Generous sizes of glibc's opaque structs (80, 336 and 128 bytes on x86-64). */
    private static final long STRUCT = 1024;
    private static final MemorySegment SH = Posix.cString(Arena.global(), "/bin/sh".getBytes(StandardCharsets.US_ASCII));
    private static final MemorySegment DEV_NULL = Posix.cString(Arena.global(), "/dev/null".getBytes(StandardCharsets.US_ASCII));

    private final MemorySegment envp;
    private final int fixed;
    private final String[] path;
    /** Programs found on PATH: name to NUL-terminated path, or empty to let posix_spawnp look. */
    private final Map<String, Optional<MemorySegment>> found = new ConcurrentHashMap<>();
    private final Map<Long, MemorySegment[]> prepared = new ConcurrentHashMap<>();
    /** File actions for pipeline elements, by (stdin or -1 for /dev/null, stdout, stderr). */
    private final Map<Fds, MemorySegment> piped = new ConcurrentHashMap<>();

    private record Fds(int in, int out, int err) {}

    /** A spawner whose children get {@code env} plus the per-job variables given to {@link #spawn}. */
    public Spawner(Map<String, String> env) {
        Arena arena = Arena.ofAuto();
        envp = arena.allocate(A, env.size() + 3L);
        int i = 0;
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().equals("PARALLEL_SEQ") || e.getKey().equals("PARALLEL_JOBSLOT")) {
                continue;
            }
            envp.setAtIndex(A, i++, Posix.cString(arena, (e.getKey() + "=" + e.getValue()).getBytes(StandardCharsets.UTF_8)));
        }
        envp.setAtIndex(A, i, MemorySegment.NULL);
        envp.setAtIndex(A, i + 1, MemorySegment.NULL);
        envp.setAtIndex(A, i + 2, MemorySegment.NULL);
        this.fixed = i;
        // glibc's default when PATH is unset
        this.path = env.getOrDefault("PATH", "/bin:/usr/bin").split(":", -1);
    }

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
            MemorySegment fds = arena.allocate(ValueLayout.JAVA_INT, 2);
            for (int i = 0; i < n - 1; i++) {
                int r = Posix.pipe2(fds, O_CLOEXEC);
                if (r != 0) {
                    throw new IOException("cannot make a pipe: " + dev.brisk.internal.posix.Libc.strerror(-r));
                }
                reads[i] = fds.getAtIndex(ValueLayout.JAVA_INT, 0);
                writes[i] = fds.getAtIndex(ValueLayout.JAVA_INT, 1);
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
                        check(Posix.call(AT_PGROUP, follower.address(), group, 0, 0, 0, 0));
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
                    Posix.close(reads[i - 1]);
                    reads[i - 1] = -1;
                }
                if (i < n - 1) {
                    Posix.close(writes[i]);
                    writes[i] = -1;
                }
            }
            return pids;
        } finally {
            for (int i = 0; i < n; i++) {
                if (reads[i] >= 0) {
                    Posix.close(reads[i]);
                }
                if (writes[i] >= 0) {
                    Posix.close(writes[i]);
                }
            }
        }
    }

    private int spawn(Arena arena, List<byte[]> argv, MemorySegment actions, MemorySegment attr, MemorySegment env) {
        MemorySegment pid = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment args = arena.allocate(A, argv.size() + 1L);
        for (int k = 0; k < argv.size(); k++) {
            args.setAtIndex(A, k, Posix.cString(arena, argv.get(k)));
        }
        args.setAtIndex(A, argv.size(), MemorySegment.NULL);
        MemorySegment program = args.getAtIndex(A, 0);
        String name = new String(argv.getFirst(), StandardCharsets.ISO_8859_1);
        MemorySegment resolved = found.computeIfAbsent(name, this::lookUp).orElse(null);
        int r;
        if (resolved != null) {
            r = Posix.call(SPAWN, pid.address(), resolved.address(), actions.address(), attr.address(), args.address(),
                    env.address());
            if (r == ENOENT) {
                // gone since it was found: look again, as posix_spawnp does, from now on
                found.put(name, Optional.empty());
                r = Posix.call(SPAWNP, pid.address(), program.address(), actions.address(), attr.address(),
                        args.address(), env.address());
            }
        } else {
            r = Posix.call(SPAWNP, pid.address(), program.address(), actions.address(), attr.address(), args.address(),
                    env.address());
        }
        MemorySegment script = resolved != null ? resolved : name.indexOf('/') >= 0 ? program : null;
        if (r == ENOEXEC && script != null) {
            // a script without #!: a shell runs it with sh, as execvp does
            MemorySegment shArgs = arena.allocate(A, argv.size() + 2L);
            shArgs.setAtIndex(A, 0, SH);
            shArgs.setAtIndex(A, 1, script);
            MemorySegment.copy(args, A.byteSize(), shArgs, 2 * A.byteSize(), A.byteSize() * argv.size());
            r = Posix.call(SPAWN, pid.address(), SH.address(), actions.address(), attr.address(), shArgs.address(),
                    env.address());
        }
        return r == 0 ? pid.get(ValueLayout.JAVA_INT, 0) : -r;
    }

    /**
     * The path execvp would run for {@code name}: the first regular, executable file of that
     * name in a PATH directory; empty for a name with a slash, none found, or anything unusual
     * (then posix_spawnp looks, and reports what it finds).
     */
    private Optional<MemorySegment> lookUp(String name) {
        if (name.isEmpty() || name.indexOf('/') >= 0 || !name.chars().allMatch(c -> c > ' ' && c < 127)) {
            return Optional.empty();
        }
        for (String dir : path) {
            try {
                Path p = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return Optional.of(Posix.cString(Arena.ofAuto(),
                            ((dir.isEmpty() ? "." : dir) + "/" + name).getBytes(StandardCharsets.UTF_8)));
                }
                if (Files.exists(p)) {
                    return Optional.empty(); // not executable, or not a file: execvp's errors are subtle
                }
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** The children's environment: the fixed part and this job's PARALLEL_SEQ and PARALLEL_JOBSLOT. */
    private MemorySegment env(Arena arena, long seq, int slot) {
        MemorySegment env = arena.allocate(A, fixed + 3L);
        MemorySegment.copy(envp, 0, env, 0, A.byteSize() * fixed);
        env.setAtIndex(A, fixed, Posix.cString(arena, ("PARALLEL_SEQ=" + seq).getBytes(StandardCharsets.US_ASCII)));
        env.setAtIndex(A, fixed + 1, Posix.cString(arena, ("PARALLEL_JOBSLOT=" + slot).getBytes(StandardCharsets.US_ASCII)));
        env.setAtIndex(A, fixed + 2, MemorySegment.NULL);
        return env;
    }

    /**
     * File actions giving a child {@code fds.in} (or {@code /dev/null} for -1) as stdin and
     * {@code fds.out}/{@code fds.err} as stdout/stderr: kept, as descriptor numbers repeat.
     */
    private static MemorySegment actions(Fds fds) {
        MemorySegment fa = Arena.ofAuto().allocate(STRUCT, 16);
        long a = fa.address();
        int r = Posix.call(FA_INIT, a, 0, 0, 0, 0, 0);
        r |= fds.in() < 0 ? Posix.call(FA_OPEN, a, 0, DEV_NULL.address(), O_RDONLY, 0, 0)
                : Posix.call(FA_DUP2, a, fds.in(), 0, 0, 0, 0);
        r |= Posix.call(FA_DUP2, a, fds.out(), 1, 0, 0, 0);
        r |= Posix.call(FA_DUP2, a, fds.err(), 2, 0, 0, 0);
        check(r);
        return fa;
    }

    /**
     * The file actions and attributes for children writing to {@code outFd}/{@code errFd}: made
     * once per pair and kept (they are only read by {@code posix_spawn}), so a spawn costs one
     * foreign call.
     */
    private static MemorySegment[] prepare(int outFd, int errFd) {
        Arena arena = Arena.ofAuto();
        MemorySegment fa = actions(new Fds(-1, outFd, errFd));
        MemorySegment attr = arena.allocate(STRUCT, 16);
        MemorySegment sigs = arena.allocate(STRUCT, 16);
        long at = attr.address();
        long s = sigs.address();
        int r = Posix.call(AT_INIT, at, 0, 0, 0, 0, 0);
        r |= Posix.call(AT_FLAGS, at, SETPGROUP | SETSIGDEF | SETSIGMASK, 0, 0, 0, 0);
        r |= Posix.call(AT_PGROUP, at, 0, 0, 0, 0, 0);
        r |= Posix.call(SIGEMPTY, s, 0, 0, 0, 0, 0);
        r |= Posix.call(AT_SIGMASK, at, s, 0, 0, 0, 0);
        for (int sig = 1; sig < 32; sig++) {
            if (sig != SIGKILL && sig != SIGSTOP) {
                r |= Posix.call(SIGADD, s, sig, 0, 0, 0, 0);
            }
        }
        r |= Posix.call(AT_SIGDEF, at, s, 0, 0, 0, 0);
        check(r);
        return new MemorySegment[] {fa, attr, sigs};
    }

    private static void check(int r) {
        if (r != 0) {
            throw new IllegalStateException("cannot set up posix_spawn attributes");
        }
    }

    /**
     * Waits for child {@code pid}; returns its exit status (0–255), or {@code 1000 + N} when
     * signal N killed it.
     */
    public static int waitFor(int pid) {
        return Posix.waitFor(pid);
    }
}
