// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import dev.brisk.internal.posix.EnvText;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.internal.posix.Signals;
import dev.brisk.internal.shell.CommandShape;
import dev.brisk.internal.shell.ProcessSweep;
import dev.brisk.internal.shell.ShellQuote;
import dev.brisk.internal.shell.ShellSpec;
import dev.brisk.shell.ShellException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
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
 * <p>It is the command driver; the pieces it drives: the FIFOs, their poll set and their drain
 * ({@link FifoChannels}), the command and input files ({@link CommandFiles}), the status lines
 * ({@link StatusLines}), the kill schedule ({@link KillSchedule}) and, for a command run
 * without the shell, its lifecycle ({@link SpawnedCommand}).
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

    private static final int SLICE_MILLIS = 50;

    private final Mode mode;
    private final Path dir;
    private final Watchdog watchdog;
    private final Process process;
    private final int pid;
    private final FifoChannels channels;
    private final OutputStream control;
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
    /** The command file {@code c} and the input files. */
    private final CommandFiles files;
    /** Runs simple external commands without the shell (isolated workers), or null. */
    private final DirectExec direct;
    /** The command running without the shell, and what such commands left behind. */
    private final SpawnedCommand spawned;
    /** The worker is bash (a subshell per command in its own process group), not another shell. */
    private final boolean bash;
    /** The running command is a builtin that runs in the worker shell itself (not bash's subshell). */
    private volatile boolean inWorker;
    /** Where the current command's timeout sent SIGTERM, for the SIGKILL after the grace. */
    private TermTarget termTarget = TermTarget.NONE;

    private Worker(Mode mode, Path dir, Watchdog watchdog, Process process, FifoChannels channels,
                   CommandFiles files, DirectExec direct, SpawnedCommand spawned, boolean bash) {
        this.mode = mode;
        this.bash = bash;
        this.channels = channels;
        this.direct = direct;
        this.spawned = spawned;
        this.dir = dir;
        this.watchdog = watchdog;
        this.process = process;
        this.pid = (int) process.pid();
        this.files = files;
        this.control = process.getOutputStream();
    }

    /**
     * Starts a shell in {@code dir} (created here, mode 0700), its own session leader. With
     * {@code direct}, simple external commands run without the shell (isolated mode only).
     */
    static Worker start(ShellSpec spec, Mode mode, Path dir, Path setsid, Watchdog watchdog, DirectExec direct,
                        Integer nice) throws IOException {
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        FifoChannels channels = null;
        CommandFiles files = null;
        SpawnedCommand spawned = null;
        boolean spawn = direct != null && mode == Mode.ISOLATED;
        try {
            channels = FifoChannels.create(dir);
            files = CommandFiles.create(dir);
            spawned = SpawnedCommand.create(dir, spawn, watchdog);
            String script = WorkerScript.of(spec.bash(), mode == Mode.SESSION);
            Map<String, String> env = new HashMap<>(spec.environment());
            byte[] raw = rawExports(env);
            if (raw.length > 0) {
                // values that are not valid UTF-8 would reach the shell as '?': their bytes come from a file
                Files.write(dir.resolve("v"), raw);
                script = "command . \"$1/v\" || exit 97\n" + script;
            }
            List<String> argv = new ArrayList<>(spec.command(setsid, script, dir));
            if (nice != null && NICE != null) {
                // nice(1) sets it before the shell starts, so every subshell it forks has it too;
                // its adjustment is relative, from this process's niceness to the one asked for
                argv.addAll(0, List.of(NICE.toString(), "-n", Integer.toString(nice - ownNiceness())));
            }
            ProcessBuilder pb = new ProcessBuilder(argv);
            pb.environment().clear();
            pb.environment().putAll(env);
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.redirectError(ProcessBuilder.Redirect.DISCARD);
            Process p = pb.start();
            if (dev.brisk.internal.posix.Caller.current().limits() != null) {
                dev.brisk.internal.remote.CallerProcess.limit(p.pid()); // before the first command comes down its fifo
            }
            Worker w = new Worker(mode, dir, watchdog, p, channels, files, spawn ? direct : null, spawned, spec.bash());
            watchdog.watch(w.pid);
            return w;
        } catch (IOException | RuntimeException e) {
            if (channels != null) {
                channels.close();
            }
            if (files != null) {
                files.close();
            }
            if (spawned != null) {
                spawned.close();
            }
            throw e;
        }
    }

    /** nice(1), which starts a pool's workers at the niceness asked for; null where there is none. */
    private static final Path NICE = Files.isExecutable(Path.of("/usr/bin/nice")) ? Path.of("/usr/bin/nice")
            : Files.isExecutable(Path.of("/bin/nice")) ? Path.of("/bin/nice") : null;

    /**
     * Takes out of {@code env} the variables whose values hold bytes that are not valid UTF-8
     * ({@link EnvText}'s escapes) and returns them as {@code export NAME='value'} lines of the
     * original bytes; empty when there are none.
     */
    private static byte[] rawExports(Map<String, String> env) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (var it = env.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, String> e = it.next();
            if (e.getValue().chars().noneMatch(c -> Character.isSurrogate((char) c)) || !e.getKey().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                continue;
            }
            out.writeBytes(("export " + e.getKey() + "=").getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(ShellQuote.quote(EnvText.encode(e.getValue())));
            out.write('\n');
            it.remove();
        }
        return out.toByteArray();
    }

    /** This process's niceness (getpriority's, 0 if it cannot be read). */
    private static int ownNiceness() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
            // the fields after the command's closing parenthesis: state is field 3, nice field 19
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(f[16]);
        } catch (IOException | RuntimeException e) {
            return 0;
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
        termTarget = TermTarget.NONE;
        long start = System.nanoTime();
        long k = ++seq;
        CommandShape shape = mode == Mode.ISOLATED ? CommandShape.of(r.script()) : null;
        boolean builtin = shape != null && shape.kind() == CommandShape.Kind.PURE_BUILTIN
                && r.cwd() == null && r.env().isEmpty();
        DirectExec.Plan plan = direct != null && shape != null ? direct.plan(shape, r.cwd(), r.env()) : null;
        byte[] iPath = null;
        int pidfd = -1;
        try {
            if (r.stdin() != null && !builtin) {
                iPath = files.writeInput(k, r.stdin());
            }
            channels.begin();
            if (plan != null) {
                pidfd = spawned.start(plan, iPath, channels.outputPaths());
            }
            if (spawned.pid() < 0) {
                inWorker = builtin && !bash;
                files.writeCommand(r.script(), builtin, mode == Mode.ISOLATED, r.cwd(), r.env());
                String line = builtin ? "b\n" : r.stdin() == null ? "n\n" : "i " + k + "\n";
                try {
                    control.write(line.getBytes(StandardCharsets.US_ASCII));
                    control.flush();
                } catch (IOException e) {
                    dead = true;
                    throw new NotStartedException("worker shell " + pid + " is gone: " + e.getMessage(), e);
                }
            }
            files.tidy();
            return loop(r, start, pidfd);
        } catch (PosixException e) {
            throw new ShellException("cannot set up the command in " + dir + ": " + e.getMessage(), e);
        } finally {
            channels.releaseWriteEnds();
            Libc.close(pidfd);
            spawned.end(exitStatus >= 0);
            if (iPath != null) {
                files.done(iPath);
            }
        }
    }

    /**
     * Drives one command to its end: polls the status FIFO (or the spawned command's pidfd) and
     * the two output FIFOs, enforces the timeout, then drains the output until end of file or
     * the drain deadline. A FIFO still held open at that deadline is replaced.
     */
    private Outcome loop(Request r, long start, int pidfd) throws PosixException {
        OutputSink out = new OutputSink(r.stdoutSink(), r.maxOutputBytes(), FifoChannels.CHUNK);
        OutputSink err = new OutputSink(r.stderrSink(), r.maxOutputBytes(), FifoChannels.CHUNK);
        boolean spawned = pidfd >= 0;
        KillSchedule kills = new KillSchedule(r.timeoutNanos() > 0 ? start + r.timeoutNanos() : Long.MAX_VALUE,
                r.graceNanos());
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
                channels.endCommand(now + r.drainNanos(), out, err, sinkFailure == null);
                sinkFailure = firstFailure(sinkFailure, out, err);
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
                            termTarget = terminate(Signals.SIGTERM);
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
            } else if (channels.drained(now)) {
                break;
            }

            long until = Math.min(finished ? channels.drainDeadline() : kills.nextDeadline(), now + SLICE_MILLIS * 1_000_000L);
            int wait = (int) Math.max(0, (until - now + 999_999) / 1_000_000);
            if (!channels.poll(shellDied || finished ? -1 : spawned ? pidfd : channels.statusFd(), wait)) {
                // a subshell of the command may hold a saved copy of the status FIFO, hiding
                // the shell's death from poll: ask the process table too
                if (!spawned && !finished && !shellDied && !process.isAlive()) {
                    readStatus();
                    if (exitStatus < 0) {
                        shellDied = true;
                        dead = true;
                    }
                    finished = true;
                    channels.endCommand(System.nanoTime() + r.drainNanos(), out, err, sinkFailure == null);
                    sinkFailure = firstFailure(sinkFailure, out, err);
                }
                continue;
            }
            channels.drainReady(out, err, sinkFailure == null);
            sinkFailure = firstFailure(sinkFailure, out, err);
            if (!finished && channels.firstReady()) {
                if (spawned) {
                    reapSpawned();
                } else if (!shellDied && readStatus() && exitStatus < 0) {
                    shellDied = true;
                    dead = true;
                }
            }
            if (!finished && (exitStatus >= 0 || shellDied)) {
                finished = true;
                channels.endCommand(System.nanoTime() + r.drainNanos(), out, err, sinkFailure == null);
                sinkFailure = firstFailure(sinkFailure, out, err);
            }
        }
        if (timedOut && kills.awaitingKill()) {
            termTarget.killRemains(kills.nextDeadline()); // the command ended at the TERM; what it left may not have
        }
        channels.replaceHeld(); // what a background child still holds open

        try {
            out.flush();
            err.flush();
        } catch (IOException e) {
            sinkFailure = sinkFailure == null ? e : sinkFailure;
        }
        int exit = exitStatus;
        if (shellDied) {
            int code = ProcessSweep.exitValue(process);
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

    /** The first write failure of the command's output: {@code known}, else either sink's. */
    private static IOException firstFailure(IOException known, OutputSink out, OutputSink err) {
        return known != null ? known : out.failure != null ? out.failure : err.failure;
    }

    private static String describe(int code) {
        return code > 128 ? "killed by signal " + (code - 128) : "exit status " + code;
    }

    /**
     * Reads the status lines waiting (the command's exit status lands in {@link #exitStatus});
     * returns true when the status FIFO is at end of file: the shell is gone.
     */
    private boolean readStatus() throws PosixException {
        return channels.readStatus(statusListener);
    }

    /**
     * Signals the running command: its process group (bash), the shell's group (session), or a
     * sweep; returns where the signal went, when that outlives the command's shell.
     */
    private TermTarget terminate(int signal) {
        int child = spawned.pid();
        try {
            if (child > 0) {
                Libc.kill(-child, signal);
                if (signal == Signals.SIGTERM) {
                    Libc.kill(-child, Signals.SIGCONT);
                }
                return TermTarget.group(child);
            }
        } catch (PosixException e) {
            return TermTarget.NONE; // EPERM would mean the group is not ours any more
        }
        try {
            readStatus();
        } catch (PosixException ignored) {
            // we only wanted a pgid that may be waiting there
        }
        if (exitStatus >= 0) {
            return TermTarget.NONE; // it has just ended: the group announced now is the next command's
        }
        try {
            if (mode == Mode.SESSION) {
                Libc.kill(-pid, signal);
                ProcessSweep.signal(pid, -1, signal);
            } else if (currentPgid > 0) {
                int pg = currentPgid; // the next command's subshell announces its own once this one ends
                Libc.kill(-pg, signal);
                if (signal == Signals.SIGTERM) {
                    Libc.kill(-pg, Signals.SIGCONT); // a stopped command acts on TERM only once continued
                }
                return TermTarget.group(pg);
            } else if (inWorker) {
                // a builtin running in the worker itself (dash): the worker must go, the pool replaces it
                Libc.kill(pid, signal);
            } else {
                ProcessSweep.signal(pid, pid, signal);
                return TermTarget.sessionOf(pid);
            }
        } catch (PosixException e) {
            // EPERM would mean the group is not ours any more: nothing left to kill
        }
        return TermTarget.NONE;
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
        channels.close();
        files.close();
        spawned.close();
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | java.io.UncheckedIOException ignored) {
            // a file that went while the walk ran (the pool's close removing the directory too):
            // the watchdog removes the pool directory at the end
        }
    }
}
