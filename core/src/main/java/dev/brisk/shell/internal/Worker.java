// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.internal.posix.Signals;
import dev.brisk.internal.shell.CommandShape;
import dev.brisk.internal.shell.ProcessSweep;
import dev.brisk.internal.shell.ShellSpec;
import dev.brisk.shell.ShellException;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One warm shell and the Java half of its protocol (see {@link WorkerScript}).
 *
 * <p>Not thread-safe: one command at a time, from any one thread; {@link #abort} and
 * {@link #destroy} may come from another thread. The caller's thread drives the command: it
 * polls the status FIFO and the two output FIFOs, enforces the timeout and the bounded drain,
 * and returns an {@link Outcome}.
 *
 * <p>Over 500 lines because the FIFO protocol's Java half (setup, one poll loop, status
 * parsing, teardown) shares one worker's descriptors and state; the direct-spawn lifecycle
 * ({@link SpawnedCommand}), the kill schedule ({@link KillSchedule}) and the status parser
 * ({@link StatusLines}) are out; the FIFO channels are the next seam to cut.
 */
public final class Worker {
    /** Whether commands run in a subshell each (isolated) or in the shell itself (session). */
    public enum Mode { ISOLATED, SESSION }

    /** What one command asks of the worker. Arrays are read, never kept. */
    public record Request(byte[] script, Path cwd, Map<String, String> env, byte[] stdin,
                          long timeoutNanos, OutputStream stdoutSink, OutputStream stderrSink,
                          long maxOutputBytes, long drainNanos, long graceNanos) {}

    /** What a command left. {@code shellEnded}: a session's shell exited (exit, a fatal error, a kill). */
    public record Outcome(int exitCode, byte[] stdout, byte[] stderr, boolean timedOut,
                          boolean stdoutTruncated, boolean stderrTruncated, long nanos,
                          boolean shellEnded) {}

    /** The command never reached the shell (it had died meanwhile): safe to run elsewhere. */
    public static final class NotStartedException extends ShellException {
        private static final long serialVersionUID = 1L;

        NotStartedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static final int CHUNK = 64 * 1024;
    private static final int SLICE_MILLIS = 50;
    private static final int FIFO_FLAGS = Flags.O_RDONLY | Flags.O_NONBLOCK | Flags.O_CLOEXEC;

    private final Mode mode;
    private final Path dir;
    private final String dirText;
    private final Watchdog watchdog;
    private final Process process;
    private final int pid;
    private final int statusFd;
    private final OutputStream control;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment pollfds = arena.allocate(3L * Flags.POLLFD_SIZE, 8);
    private final MemorySegment buf = arena.allocate(CHUNK, 8);
    private final StatusLines statusLines = new StatusLines();
    private final byte[] statusBytes = new byte[CHUNK];
    /** Applies the status channel's lines to this worker's state. */
    private final StatusLines.Listener statusListener = new StatusLines.Listener() {
        @Override
        public void processGroup(int pgid) {
            currentPgid = pgid; // the subshell that runs the next command (or the current one, not yet ended)
        }

        @Override
        public void notStarted() {
            notStarted = true;
        }

        @Override
        public void exited(int status) {
            if (exitStatus < 0) {
                exitStatus = status;
            }
        }
    };
    private long seq;
    private volatile String abortReason;
    private volatile boolean dead;
    private volatile int currentPgid = -1;
    /** The current command's exit status once its {@code x} line has been read, else -1. */
    private int exitStatus = -1;
    /** The pre-forked subshell found its worker dead and ran nothing. */
    private boolean notStarted;
    /** The command file {@code c}, open for the worker's life and rewritten for each command. */
    private final int scriptFd;
    private Arena scriptArena = Arena.ofShared();
    private MemorySegment scriptBuf = scriptArena.allocate(4096);
    /** Read ends of the output FIFOs {@code o} and {@code e}, kept from command to command. */
    private final int[] readFds = {-1, -1};
    private final byte[][] fifoPaths;
    /** Runs simple external commands without the shell (isolated workers), or null. */
    private final DirectExec direct;
    /** File {@code spawned}: the session id of a directly spawned command while it runs, for the watchdog. */
    private final int spawnedFd;
    /** The command running without the shell, and what such commands left behind. */
    private final SpawnedCommand spawned;
    /** The worker is bash (a subshell per command in its own process group), not another shell. */
    private final boolean bash;
    /** The running command is a builtin that runs in the worker shell itself (not bash's subshell). */
    private volatile boolean inWorker;
    /** Paths of finished commands' input files, unlinked while the shell runs the next one. */
    private final java.util.ArrayList<byte[]> stale = new java.util.ArrayList<>();

    private Worker(Mode mode, Path dir, Watchdog watchdog, Process process, int statusFd,
                   int scriptFd, int[] fifos, DirectExec direct, int spawnedFd, boolean bash) {
        this.mode = mode;
        this.bash = bash;
        this.readFds[0] = fifos[0];
        this.readFds[1] = fifos[1];
        this.fifoPaths = new byte[][] {bytes(dir + "/o"), bytes(dir + "/e")};
        this.direct = direct;
        this.spawnedFd = spawnedFd;
        this.spawned = new SpawnedCommand(spawnedFd, watchdog);
        this.dir = dir;
        this.dirText = dir.toString();
        this.watchdog = watchdog;
        this.process = process;
        this.pid = (int) process.pid();
        this.statusFd = statusFd;
        this.scriptFd = scriptFd;
        this.control = process.getOutputStream();
    }

    /**
     * Starts a shell in {@code dir} (created here, mode 0700), its own session leader. With
     * {@code direct}, simple external commands run without the shell (isolated mode only).
     */
    static Worker start(ShellSpec spec, Mode mode, Path dir, Path setsid, Watchdog watchdog, DirectExec direct)
            throws IOException {
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        int[] fds = {-1, -1, -1, -1, -1};
        try {
            fds[0] = makeFifo(bytes(dir.resolve("s").toString()));
            fds[1] = makeFifo(bytes(dir.resolve("o").toString()));
            fds[2] = makeFifo(bytes(dir.resolve("e").toString()));
            fds[3] = Libc.open(bytes(dir.resolve("c").toString()),
                    Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC | Flags.O_CLOEXEC, 0600);
            boolean spawn = direct != null && mode == Mode.ISOLATED;
            if (spawn) {
                fds[4] = Libc.open(bytes(dir.resolve("spawned").toString()),
                        Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC | Flags.O_CLOEXEC, 0600);
            }
            ProcessBuilder pb = new ProcessBuilder(spec.command(setsid, WorkerScript.of(spec.bash(), mode == Mode.SESSION), dir));
            pb.environment().clear();
            pb.environment().putAll(spec.environment());
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.redirectError(ProcessBuilder.Redirect.DISCARD);
            Process p = pb.start();
            Worker w = new Worker(mode, dir, watchdog, p, fds[0], fds[3], new int[] {fds[1], fds[2]},
                    spawn ? direct : null, fds[4], spec.bash());
            watchdog.watch(w.pid);
            return w;
        } catch (IOException | RuntimeException e) {
            for (int fd : fds) {
                Libc.close(fd);
            }
            throw e;
        }
    }

    /** The shell's pid, which is also its session and process-group id. */
    public int pid() {
        return pid;
    }

    public Mode mode() {
        return mode;
    }

    /** False once the shell has died or been destroyed. */
    public boolean alive() {
        return !dead && process.isAlive();
    }

    /**
     * Asks a running command to stop: it is killed and {@link #execute} throws
     * {@link ShellException} with {@code reason}. Safe from any thread; no effect when idle.
     */
    public void abort(String reason) {
        abortReason = reason;
    }

    /**
     * Runs one command and waits for it: blocks until it ends, times out, or is aborted.
     *
     * @throws ShellException if the shell died under an isolated command, the command was
     *     aborted, the thread was interrupted, or a sink failed
     */
    public Outcome execute(Request r) {
        if (dead || !process.isAlive()) {
            dead = true;
            throw new NotStartedException("worker shell " + pid + " is gone", null);
        }
        if (abortReason != null) {
            // an abort that came before this command (pool or session closing) still holds
            throw new ShellException(abortReason);
        }
        exitStatus = -1;
        notStarted = false;
        inWorker = false;
        long start = System.nanoTime();
        long k = ++seq;
        CommandShape shape = mode == Mode.ISOLATED ? CommandShape.of(r.script()) : null;
        boolean builtin = shape != null && shape.kind() == CommandShape.Kind.PURE_BUILTIN
                && r.cwd() == null && r.env().isEmpty();
        DirectExec.Plan plan = direct != null && shape != null ? direct.plan(shape, r.cwd(), r.env()) : null;
        byte[] iPath = r.stdin() != null && !builtin ? bytes(dirText + "/i" + k) : null;
        // Java holds a write end of each output FIFO while the command runs, so that poll sees
        // no end of file (and wakes no one) until the command has ended
        int[] writeFds = {-1, -1};
        int pidfd = -1;
        try {
            if (iPath != null) {
                writeFile(iPath, r.stdin());
            }
            writeFds[0] = Libc.open(fifoPaths[0], Flags.O_WRONLY | Flags.O_NONBLOCK | Flags.O_CLOEXEC, 0);
            writeFds[1] = Libc.open(fifoPaths[1], Flags.O_WRONLY | Flags.O_NONBLOCK | Flags.O_CLOEXEC, 0);
            if (plan != null) {
                pidfd = spawned.start(plan, iPath, fifoPaths);
            }
            if (spawned.pid() < 0) {
                inWorker = builtin && !bash;
                writeScript(builtin ? terminated(r.script()) : prologue(r));
                String line = builtin ? "b\n" : r.stdin() == null ? "n\n" : "i " + k + "\n";
                try {
                    control.write(line.getBytes(StandardCharsets.US_ASCII));
                    control.flush();
                } catch (IOException e) {
                    dead = true;
                    throw new NotStartedException("worker shell " + pid + " is gone: " + e.getMessage(), e);
                }
            }
            tidy();
            return loop(r, start, writeFds, pidfd);
        } catch (PosixException e) {
            throw new ShellException("cannot set up the command in " + dirText + ": " + e.getMessage(), e);
        } finally {
            Libc.close(writeFds[0]);
            Libc.close(writeFds[1]);
            Libc.close(pidfd);
            spawned.end(exitStatus >= 0);
            if (iPath != null) {
                stale.add(iPath);
            }
        }
    }

    private static int makeFifo(byte[] path) throws PosixException {
        Libc.mkfifo(path, 0600);
        return Libc.open(path, FIFO_FLAGS, 0);
    }

    /** Unlinks finished commands' input files: done while the command runs, off the critical path. */
    private void tidy() {
        for (byte[] p : stale) {
            unlinkQuietly(p);
        }
        stale.clear();
    }

    /**
     * A background child of the last command still holds output FIFO {@code i} open: put a new
     * FIFO in its place, so that nothing it writes later can reach another command's output.
     */
    private void replaceFifo(int i) throws PosixException {
        Libc.close(readFds[i]);
        readFds[i] = -1;
        unlinkQuietly(fifoPaths[i]);
        readFds[i] = makeFifo(fifoPaths[i]);
    }

    private void writeScript(byte[] content) throws PosixException {
        if (content.length > scriptBuf.byteSize()) {
            scriptArena.close();
            scriptArena = Arena.ofShared();
            scriptBuf = scriptArena.allocate(Math.max(content.length, scriptBuf.byteSize() * 2));
        }
        MemorySegment.copy(content, 0, scriptBuf, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, content.length);
        Libc.pwriteFully(scriptFd, scriptBuf, content.length, 0);
        if (content.length < scriptLength) {
            Libc.ftruncate(scriptFd, content.length); // only a shorter text leaves old bytes behind
        }
        scriptLength = content.length;
    }

    /** The length of file {@code c} now. */
    private long scriptLength;

    /**
     * Drives one command to its end: polls the status FIFO (or the spawned command's pidfd) and
     * the two output FIFOs, enforces the timeout, then drains the output until end of file or
     * the drain deadline. A FIFO still held open at that deadline is replaced.
     */
    private Outcome loop(Request r, long start, int[] writeFds, int pidfd) throws PosixException {
        OutputSink out = new OutputSink(r.stdoutSink(), r.maxOutputBytes(), CHUNK);
        OutputSink err = new OutputSink(r.stderrSink(), r.maxOutputBytes(), CHUNK);
        boolean spawned = pidfd >= 0;
        int[] fds = {readFds[0], readFds[1]};
        KillSchedule kills = new KillSchedule(r.timeoutNanos() > 0 ? start + r.timeoutNanos() : Long.MAX_VALUE,
                r.graceNanos());
        long drainDeadline = Long.MAX_VALUE;
        boolean timedOut = false;
        boolean shellDied = false;
        boolean finished = false;
        String failure = null;
        IOException sinkFailure = null;

        while (true) {
            long now = System.nanoTime();
            if (!finished && exitStatus >= 0) {
                // read on the way (by terminate(), say): the command has ended
                finished = true;
                drainDeadline = now + r.drainNanos();
            }
            if (finished && writeFds[0] >= 0) {
                Libc.close(writeFds[0]);
                Libc.close(writeFds[1]);
                writeFds[0] = -1;
                writeFds[1] = -1;
                // usually all is in and the writers are gone: read to end of file without a poll
                for (int i = 0; i < 2; i++) {
                    if (fds[i] >= 0) {
                        fds[i] = drain(fds[i], i == 0 ? out : err, sinkFailure == null);
                    }
                }
                if (out.failure != null || err.failure != null) {
                    sinkFailure = out.failure != null ? out.failure : err.failure;
                }
            }
            if (!finished) {
                if (failure == null && (abortReason != null || Thread.currentThread().isInterrupted() || sinkFailure != null)) {
                    failure = sinkFailure != null ? "writing the command's output failed: " + sinkFailure.getMessage()
                            : abortReason != null ? abortReason : "interrupted";
                    terminate(Signals.SIGKILL);
                    kills.killNow(now);
                } else {
                    switch (kills.due(now)) {
                        case TERM -> {
                            if (spawned) {
                                reapSpawned();
                            } else {
                                readStatus();
                            }
                            if (exitStatus >= 0) {
                                continue; // it ended just in time: not a timeout
                            }
                            timedOut = true;
                            terminate(Signals.SIGTERM);
                        }
                        case KILL -> terminate(Signals.SIGKILL);
                        case GIVE_UP -> {
                            // the shell itself does not answer: give up on it
                            destroy();
                            throw new ShellException("worker shell " + pid + " did not report the end of a killed command");
                        }
                        case NONE -> { }
                    }
                }
            } else if ((fds[0] < 0 && fds[1] < 0) || now >= drainDeadline) {
                break;
            }

            long until = Math.min(finished ? drainDeadline : kills.nextDeadline(), now + SLICE_MILLIS * 1_000_000L);
            int wait = (int) Math.max(0, (until - now + 999_999) / 1_000_000);
            int first = spawned ? pidfd : statusFd;
            Libc.pollfd(pollfds, 0, shellDied || finished ? -1 : first, Flags.POLLIN);
            Libc.pollfd(pollfds, 1, fds[0], Flags.POLLIN);
            Libc.pollfd(pollfds, 2, fds[1], Flags.POLLIN);
            if (Libc.poll(pollfds, 3, wait) == 0) {
                // a subshell of the command may hold a saved copy of the status FIFO, hiding
                // the shell's death from poll: ask the process table too
                if (!spawned && !finished && !shellDied && !process.isAlive()) {
                    readStatus();
                    if (exitStatus < 0) {
                        shellDied = true;
                        dead = true;
                    }
                    finished = true;
                    drainDeadline = System.nanoTime() + r.drainNanos();
                }
                continue;
            }
            if (fds[0] >= 0 && Libc.revents(pollfds, 1) != 0) {
                fds[0] = drain(fds[0], out, sinkFailure == null);
            }
            if (fds[1] >= 0 && Libc.revents(pollfds, 2) != 0) {
                fds[1] = drain(fds[1], err, sinkFailure == null);
            }
            if (out.failure != null || err.failure != null) {
                sinkFailure = out.failure != null ? out.failure : err.failure;
            }
            if (!finished && Libc.revents(pollfds, 0) != 0) {
                if (spawned) {
                    reapSpawned();
                } else if (!shellDied && readStatus() && exitStatus < 0) {
                    shellDied = true;
                    dead = true;
                }
            }
            if (!finished && (exitStatus >= 0 || shellDied)) {
                finished = true;
                drainDeadline = System.nanoTime() + r.drainNanos();
            }
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i] >= 0) {
                replaceFifo(i); // a background child still holds it open
            }
        }

        try {
            out.flush();
            err.flush();
        } catch (IOException e) {
            sinkFailure = sinkFailure == null ? e : sinkFailure;
        }
        int exit = exitStatus;
        if (shellDied) {
            int code = exitValue();
            cleanupAfterDeath();
            if (notStarted && failure == null) {
                throw new NotStartedException("worker shell " + pid + " died before the command started", null);
            }
            if (mode == Mode.ISOLATED && failure == null && !(timedOut && inWorker)) {
                throw new ShellException("worker shell " + pid + " died while running the command ("
                        + describe(code) + "); the pool replaces it");
            }
            exit = code;
        }
        if (failure == null && sinkFailure != null) {
            failure = "writing the command's output failed: " + sinkFailure.getMessage();
        }
        if (failure != null) {
            throw new ShellException(failure);
        }
        return new Outcome(exit, out.bytes(), err.bytes(), timedOut, out.truncated(), err.truncated(),
                System.nanoTime() - start, shellDied);
    }

    /** Reaps the spawned command if it has ended, setting {@link #exitStatus}. */
    private void reapSpawned() {
        int status = spawned.poll();
        if (status >= 0) {
            exitStatus = status;
        }
    }

    private static String describe(int code) {
        return code > 128 ? "killed by signal " + (code - 128) : "exit status " + code;
    }

    /** Reads what the output FIFO holds; returns the descriptor, or -1 once it reached end of file. */
    private int drain(int fd, OutputSink sink, boolean deliver) throws PosixException {
        while (true) {
            long n = Libc.read(fd, buf, CHUNK);
            if (n < 0) {
                return fd;
            }
            if (n == 0) {
                return -1; // end of file; the descriptor stays open for the next command
            }
            if (deliver && sink.failure == null) {
                try {
                    sink.accept(buf, (int) n);
                } catch (IOException e) {
                    sink.failure = e;
                }
            }
        }
    }

    /**
     * Reads the status lines waiting (the command's exit status lands in {@link #exitStatus});
     * returns true when the status FIFO is at end of file: the shell is gone.
     */
    private boolean readStatus() throws PosixException {
        while (true) {
            long n = Libc.read(statusFd, buf, CHUNK);
            if (n < 0) {
                return false;
            }
            if (n == 0) {
                return true;
            }
            MemorySegment.copy(buf, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, statusBytes, 0, (int) n);
            statusLines.feed(statusBytes, (int) n, statusListener);
            if (n < CHUNK) {
                return false; // a short read took all there was: no need to ask again
            }
        }
    }

    /** Signals the running command: its process group (bash), the shell's group (session), or a sweep. */
    private void terminate(int signal) {
        int child = spawned.pid();
        try {
            if (child > 0) {
                Libc.kill(-child, signal);
                if (signal == Signals.SIGTERM) {
                    Libc.kill(-child, Signals.SIGCONT);
                }
                return;
            }
        } catch (PosixException e) {
            return; // EPERM would mean the group is not ours any more
        }
        try {
            readStatus();
        } catch (PosixException ignored) {
            // we only wanted a pgid that may be waiting there
        }
        if (exitStatus >= 0) {
            return; // it has just ended: the group announced now is the next command's
        }
        try {
            if (mode == Mode.SESSION) {
                Libc.kill(-pid, signal);
                ProcessSweep.signal(pid, -1, signal);
            } else if (currentPgid > 0) {
                Libc.kill(-currentPgid, signal);
                if (signal == Signals.SIGTERM) {
                    Libc.kill(-currentPgid, Signals.SIGCONT); // a stopped command acts on TERM only once continued
                }
            } else if (inWorker) {
                // a builtin running in the worker itself (dash): the worker must go, the pool replaces it
                Libc.kill(pid, signal);
            } else {
                ProcessSweep.signal(pid, pid, signal);
            }
        } catch (PosixException e) {
            // EPERM would mean the group is not ours any more: nothing left to kill
        }
    }

    private int exitValue() {
        return ProcessSweep.exitValue(process);
    }

    private void cleanupAfterDeath() {
        try {
            if (currentPgid > 0) {
                Libc.kill(-currentPgid, Signals.SIGKILL);
            }
        } catch (PosixException ignored) {
            // already gone
        }
        ProcessSweep.signal(pid, -1, Signals.SIGKILL);
    }

    /**
     * Kills the shell and everything left in its session, and removes its directory. Idempotent;
     * safe from any thread (a command running on another thread then fails).
     */
    public void destroy() {
        boolean first = !dead;
        dead = true;
        abortReason = abortReason == null ? "the shell was shut down" : abortReason;
        // kill before closing the control pipe: a pre-forked bash subshell that sees EOF there
        // kills its worker by pid, which must not have been reused by then
        try {
            Libc.kill(-pid, Signals.SIGKILL);
            int pg = currentPgid;
            if (pg > 0) {
                Libc.kill(-pg, Signals.SIGKILL);
            }
        } catch (PosixException ignored) {
            // gone already
        }
        spawned.killAll();
        ProcessSweep.signal(pid, -1, Signals.SIGKILL);
        try {
            control.close();
        } catch (IOException ignored) {
            // the shell may be gone already
        }
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (first) {
            watchdog.forget(pid);
        }
    }

    /** Releases the descriptors and the directory after {@link #destroy}; call once, when no command runs. */
    public void release() {
        Libc.close(statusFd);
        Libc.close(scriptFd);
        Libc.close(spawnedFd);
        Libc.close(readFds[0]);
        Libc.close(readFds[1]);
        scriptArena.close();
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // the watchdog removes the pool directory at the end
        }
        arena.close();
    }

    private byte[] prologue(Request r) {
        StringBuilder p = new StringBuilder();
        if (mode == Mode.ISOLATED) {
            p.append("unset -v __brisk_dir __brisk_line; ");
        }
        if (r.cwd() != null) {
            p.append("command cd -- ").append(quote(r.cwd().toString())).append(" || return 1; ");
        }
        for (Map.Entry<String, String> e : r.env().entrySet()) {
            p.append("command export ").append(e.getKey()).append('=').append(quote(e.getValue())).append("; ");
        }
        byte[] head = p.toString().getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[head.length + r.script().length + 1];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(r.script(), 0, all, head.length, r.script().length);
        all[all.length - 1] = '\n';
        return all;
    }

    /** The script of a {@code b} command: its text alone, ended by a newline. */
    private static byte[] terminated(byte[] script) {
        byte[] all = java.util.Arrays.copyOf(script, script.length + 1);
        all[script.length] = '\n';
        return all;
    }

    /** Single-quotes {@code s} for a POSIX shell: safe for every character. */
    public static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private void writeFile(byte[] path, byte[] content) throws PosixException {
        int fd = Libc.open(path, Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC | Flags.O_CLOEXEC, 0600);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment seg = a.allocate(Math.max(1, content.length));
            MemorySegment.copy(content, 0, seg, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, content.length);
            long off = 0;
            while (off < content.length) {
                long n = Libc.write(fd, seg.asSlice(off), content.length - off);
                if (n <= 0) {
                    throw new PosixException("write", Libc.display(path), Errno.EIO);
                }
                off += n;
            }
        } finally {
            Libc.close(fd);
        }
    }

    private static void unlinkQuietly(byte[] path) {
        try {
            Libc.unlink(path);
        } catch (PosixException ignored) {
            // the directory goes when the worker does
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

}
