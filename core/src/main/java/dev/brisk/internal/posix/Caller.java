// SPDX-License-Identifier: Apache-2.0
package dev.brisk.internal.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The process state a command runs under: this process's own ({@link #SELF}), or that of a
 * client whose call a warm brisk server runs ({@code brisk daemon}). A JVM cannot fork a worker
 * per call as chg's server does, so every piece of process state a command or its children see
 * is read from here instead of from the process: the standard descriptors, the environment,
 * the resource limits and ignored signals children get, whether the caller's terminal has it in
 * the foreground, and the hooks that end the command early (a direct run's shutdown hooks).
 *
 * <p>The working directory and umask are not here: a server's call thread takes its own with
 * {@code unshare(CLONE_FS)}, {@code fchdir} and {@code umask}, and the kernel gives them to the
 * threads it starts and the children they spawn.
 *
 * <p>{@link #current()} is inherited by the threads a command starts (an inheritable thread
 * local), so library code deep in a run reads the right caller without passing it around.
 * Thread-safe.
 */
public final class Caller {
    /** The resource limits brisk knows (RLIMIT_CPU .. RLIMIT_RTTIME, Linux's 16). */
    public static final int RLIMITS = 16;

    /** This process itself: descriptors 0, 1, 2, its own environment, limits and signals. */
    public static final Caller SELF = new Caller(-1, 0, 1, 2, null, null, -1, 0, 0, 0);

    private static final InheritableThreadLocal<Caller> CURRENT = new InheritableThreadLocal<>() {
        @Override
        protected Caller initialValue() {
            return SELF;
        }
    };

    private final int pid, stdin, stdout, stderr;
    /** "NAME=value" strings, or null for this process's environment. */
    private final List<byte[]> env;
    /** {cur, max} per resource (RLIM_INFINITY is -1), or null for this process's own. */
    private final long[][] limits;
    private final int pgrp;
    private final long ignored;
    private final int terminals, foreground;
    private final List<Thread> hooks = new ArrayList<>();
    private volatile Map<String, String> envMap;
    private MemorySegment envVector;
    private Arena arena;
    private volatile int signal;
    private volatile int signalStatus = -1;
    private final java.util.concurrent.atomic.AtomicLong channelTroubles = new java.util.concurrent.atomic.AtomicLong();
    private volatile List<byte[]> arguments;

    /**
     * A client's state.
     *
     * @param pid the client's process id (-1: ours)
     * @param env "NAME=value" strings (null: this process's own)
     * @param limits {cur, max} for each resource by number, -1 for infinity (null: ours)
     * @param pgrp the client's process group (-1: ours)
     * @param ignored the signals the client was started with ignored (bit N-1 for signal N)
     * @param terminals bit K: descriptor K (0..2) is a terminal
     * @param foreground bit K: descriptor K is a terminal whose foreground group is the client's
     */
    public Caller(int pid, int stdin, int stdout, int stderr, List<byte[]> env, long[][] limits, int pgrp, long ignored,
            int terminals, int foreground) {
        this.pid = pid;
        this.stdin = stdin;
        this.stdout = stdout;
        this.stderr = stderr;
        this.env = env == null ? null : List.copyOf(env);
        this.limits = limits;
        this.pgrp = pgrp;
        this.ignored = ignored;
        this.terminals = terminals;
        this.foreground = foreground;
    }

    /** The caller of the code running on this thread: {@link #SELF} unless a server set one. */
    public static Caller current() {
        return CURRENT.get();
    }

    /**
     * The working directory of this thread, as an absolute path: the JVM's {@code user.dir} in a
     * direct run; in a warm server's call, the client's, which the call's threads have of their
     * own ({@code unshare(CLONE_FS)}) and {@code user.dir} does not know.
     */
    public static String workingDirectory() {
        if (current().self()) {
            return System.getProperty("user.dir");
        }
        try {
            return java.nio.file.Path.of("/proc/thread-self/cwd").toRealPath().toString();
        } catch (java.io.IOException e) {
            return System.getProperty("user.dir"); // no /proc: the best there is
        }
    }

    /** Makes {@code c} this thread's caller (and that of the threads it starts from now on). */
    public static void set(Caller c) {
        CURRENT.set(c);
    }

    /**
     * The command line the caller gave brisk, as bytes, without the program name; null for
     * {@link #SELF} (whose arguments are this process's own: {@code /proc/self/cmdline}).
     */
    public List<byte[]> arguments() {
        return arguments;
    }

    /** Sets what {@link #arguments} returns: the server does, before it runs the call. */
    public void arguments(List<byte[]> args) {
        if (self()) {
            throw new IllegalStateException("this process's arguments are its own");
        }
        this.arguments = List.copyOf(args);
    }

    /** Whether this is the process itself, not a server's client. */
    public boolean self() {
        return this == SELF;
    }

    /** The caller's process id: the client's, or ours for {@link #SELF}. */
    public int pid() {
        return pid < 0 ? Libc.getpid() : pid;
    }

    public int stdin() {
        return stdin;
    }

    public int stdout() {
        return stdout;
    }

    public int stderr() {
        return stderr;
    }

    /** The descriptor the caller knows as {@code fd} (0, 1 or 2); any other number as it is. */
    public int descriptor(int fd) {
        return switch (fd) {
            case 0 -> stdin;
            case 1 -> stdout;
            case 2 -> stderr;
            default -> fd;
        };
    }

    /** The caller's environment variable {@code name}, or null. */
    public String getenv(String name) {
        return env == null ? System.getenv(name) : environment().get(name);
    }

    /** The caller's environment as a map (names and values decoded by {@link EnvText}: invalid UTF-8 kept for the children). */
    public Map<String, String> environment() {
        Map<String, String> m = envMap;
        if (m == null) {
            Map<String, String> built = new LinkedHashMap<>();
            for (byte[] kv : env != null ? env : ownEnvironment()) {
                String s = EnvText.decode(kv); // invalid UTF-8 kept: EnvText.encode gives it back
                int eq = s.indexOf('=');
                if (eq > 0) {
                    built.putIfAbsent(s.substring(0, eq), s.substring(eq + 1));
                }
            }
            envMap = m = Collections.unmodifiableMap(built);
        }
        return m;
    }

    /**
     * This process's environment as it started, from {@code /proc/self/environ}: its bytes, which
     * {@link System#getenv()} has decoded lossily; that map where the file cannot be read.
     */
    private static List<byte[]> ownEnvironment() {
        List<byte[]> r = new ArrayList<>();
        try {
            byte[] all = java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/self/environ"));
            for (int from = 0, i = 0; i < all.length; i++) {
                if (all[i] == 0) {
                    r.add(java.util.Arrays.copyOfRange(all, from, i));
                    from = i + 1;
                }
            }
        } catch (java.io.IOException e) {
            System.getenv().forEach((k, v) -> r.add(EnvText.entry(k, v)));
        }
        return r;
    }

    /**
     * The caller's environment as a C {@code environ} vector, built once and kept until
     * {@link #close}; this process's own {@code environ} for {@link #SELF}.
     */
    public synchronized MemorySegment environmentVector() {
        if (env == null) {
            return Environ.processPointer();
        }
        if (envVector == null) {
            if (arena == null) {
                arena = Arena.ofShared();
            }
            envVector = Spawn.vector(arena, env);
        }
        return envVector;
    }

    /** The caller's limits ({cur, max} per resource number, -1 for infinity), or null when they are ours. */
    public long[][] limits() {
        return limits;
    }

    /** The signals the caller was started with ignored (bit N-1 for signal N); for {@link #SELF}, ours. */
    public long ignoredSignals() {
        return self() ? Signals.ignored() : ignored;
    }

    /**
     * Whether the caller's descriptor {@code fd} (0..2) is a terminal whose foreground process
     * group is the caller's: where a command may draw progress or read a key.
     */
    public boolean foreground(int fd) {
        if (self()) {
            return Libc.isatty(fd) && foregroundOf(fd) == processGroup();
        }
        return fd >= 0 && fd <= 2 && (foreground & (1 << fd)) != 0;
    }

    /**
     * Whether the client is now in the foreground of its controlling terminal: the terminal's
     * foreground process group ({@code tpgid} in {@code /proc/PID/stat}) is the client's process
     * group. A server cannot ask the terminal itself ({@code TIOCGPGRP} answers only a process
     * of the terminal's session), and the client's state changes with ^Z, {@code bg} and
     * {@code fg}. For {@link #SELF}: whether stderr is a terminal with us in its foreground.
     */
    public boolean inForegroundNow() {
        if (self()) {
            return foreground(2);
        }
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Integer.toString(pid), "stat"),
                    StandardCharsets.ISO_8859_1);
            // after the command's name in parentheses: state ppid pgrp session tty_nr tpgid
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(f[5]) == processGroup() && Integer.parseInt(f[5]) > 0;
        } catch (java.io.IOException | RuntimeException e) {
            return (foreground & 4) != 0; // the client is gone: what it said at the start
        }
    }

    /** Whether the caller's descriptor {@code fd} (0..2) is a terminal. */
    public boolean terminal(int fd) {
        if (self()) {
            return Libc.isatty(fd);
        }
        return fd >= 0 && fd <= 2 && (terminals & (1 << fd)) != 0;
    }

    /** The caller's process group (ours for {@link #SELF}). */
    public int processGroup() {
        return pgrp < 0 ? (int) Syscall.call(Syscall.GETPGID, 0, 0, 0, 0) : pgrp;
    }

    /**
     * Registers {@code hook} to run when the command ends early: for {@link #SELF} a JVM
     * shutdown hook; for a client, when it relays a signal or goes away, or when its call ends.
     */
    public void addExitHook(Thread hook) {
        if (self()) {
            Runtime.getRuntime().addShutdownHook(hook);
            return;
        }
        synchronized (hooks) {
            hooks.add(hook);
        }
    }

    /** Undoes {@link #addExitHook}; false when the hook is already running (or was never added). */
    public boolean removeExitHook(Thread hook) {
        if (self()) {
            try {
                return Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                return false;
            }
        }
        synchronized (hooks) {
            return hooks.remove(hook);
        }
    }

    /**
     * Runs the registered exit hooks, each once, concurrently as the JVM runs shutdown hooks, and
     * waits for them at most {@code millis}. For a client's call only.
     */
    public void runExitHooks(long millis) {
        List<Thread> run;
        synchronized (hooks) {
            run = new ArrayList<>(hooks);
            hooks.clear();
        }
        for (Thread t : run) {
            t.start();
        }
        long deadline = System.nanoTime() + millis * 1_000_000;
        for (Thread t : run) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                break;
            }
            try {
                t.join(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Records that the client relayed {@code sig} (the first one counts). */
    public void signalled(int sig) {
        if (signal == 0) {
            signal = sig;
        }
    }

    /**
     * Points the caller's three descriptors at {@code /dev/null} ({@code dup2}: the numbers stay
     * taken, so no other call's file can land on them), so that a call that ended early writes
     * nothing more to its client's files. For a client's call only.
     */
    public void silence() {
        if (self()) {
            return;
        }
        try {
            int nul = Libc.open("/dev/null".getBytes(StandardCharsets.US_ASCII), 2 | 0x80000, 0);
            for (int fd : new int[] {stdin, stdout, stderr}) {
                Syscall.call(Syscall.DUP3, nul, fd, 0x80000, 0);
            }
            Libc.close(nul);
        } catch (PosixException e) {
            // nothing to silence with: the call ends anyway
        }
    }

    /**
     * The exit status a relayed ending signal gives this call, where the command's direct run
     * ends with its own rather than the JVM's 128+N (pv's 32). Set by the command; the server
     * answers it.
     */
    public void statusOnSignal(int status) {
        this.signalStatus = status;
    }

    /** The status the client gets after its ending signal: the command's own, else 128 + the signal. */
    public int signalStatus() {
        int own = signalStatus;
        return own >= 0 ? own : 128 + signal;
    }

    /** The signal the client relayed, or 0. */
    public int signal() {
        return signal;
    }

    private static final long TIOCGPGRP = 0x540F;

    /** The foreground process group of the terminal on our descriptor {@code fd}, or -1. */
    private static int foregroundOf(int fd) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pg = a.allocate(4, 4);
            if (Syscall.call(Syscall.IOCTL, fd, TIOCGPGRP, pg.address(), 0) != 0) {
                return -1;
            }
            return pg.get(java.lang.foreign.ValueLayout.JAVA_INT, 0);
        }
    }

    /**
     * How many remote channels of this caller's runs were lost, would not open or died (par's
     * Slurm watch asks Slurm when it grows): a client's own count, so that one call's lost hosts
     * do not send another's watch to Slurm; the JVM's for {@link #SELF}.
     */
    public java.util.concurrent.atomic.AtomicLong channelTroubles() {
        return channelTroubles;
    }

    /** Frees the environment vector. */
    public synchronized void close() {
        if (arena != null) {
            arena.close();
            arena = null;
            envVector = null;
        }
    }
}
