// SPDX-License-Identifier: Apache-2.0
package dev.brisk.meter;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.Environ;
import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.internal.posix.ProgramPath;
import dev.brisk.internal.posix.Signals;
import dev.brisk.internal.posix.Spawn;
import dev.brisk.internal.posix.WaitStatus;
import dev.brisk.meter.internal.Sys;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Locale;

/**
 * A command whose standard input, standard output or both pass through metered copies
 * ({@code brisk pv -M in|out|both COMMAND}): the other descriptors, the environment, the resource
 * limits, the directory and the process group are this process's, as a shell gives them to a
 * command it runs; each watched side is a pipe between us and the command.
 *
 * <p>{@link #start} spawns the command (argv[0] looked up on PATH by execvp's rule, a script
 * without {@code #!} run by {@code /bin/sh}; signals at their defaults but those we were started
 * with ignored). {@link #feed} copies inputs into its standard input and then closes that pipe
 * (end of file for the command); a command that goes away without reading all of it ends the
 * feed at once, even while the input is idle. {@link #drain} copies its standard output to an
 * output until the command (and any child still holding it) closes it. {@link #run} does both
 * as the side asks, one on another thread for {@link Side#BOTH}, and reaps the command.
 * {@link #waitFor} gives the status a shell shows ({@code 128 + N} for signal N); {@link #close}
 * reaps a command not yet waited for, so none is left a zombie.
 *
 * <p>{@link #signal} may be called from any thread (a signal handler's): it never reaches another
 * process that reused the pid, since the command is reaped under the same lock after its end is
 * seen on a pidfd. The copies block their threads; one feed and one drain at most.
 *
 * <pre>{@code
 * try (MonitoredCommand cmd = MonitoredCommand.start(List.of("gzip".getBytes()), Side.IN)) {
 *     MonitoredCommand.Result r = cmd.run(new Meter(options, display), List.of(Input.stdin()), null, null);
 *     System.exit(r.status());
 * }
 * }</pre>
 */
public final class MonitoredCommand implements AutoCloseable {
    /** Which of the command's standard descriptors pass through a meter. */
    public enum Side {
        /** Its standard input: our input, metered, into it. */
        IN,
        /** Its standard output: metered, to our output. */
        OUT,
        /** Both, each through a meter of its own. */
        BOTH;

        /** The side a mode word names ({@code in}, {@code out}, {@code both}), or null. */
        public static Side named(String word) {
            return switch (word == null ? "" : word.toLowerCase(Locale.ROOT)) {
                case "in" -> IN;
                case "out" -> OUT;
                case "both" -> BOTH;
                default -> null;
            };
        }

        /** Whether the command's standard input is metered. */
        public boolean input() {
            return this != OUT;
        }

        /** Whether the command's standard output is metered. */
        public boolean output() {
            return this != IN;
        }
    }

    /** A command that could not start; {@link #status()} is what a shell reports: 127 not found, else 126. */
    public static final class StartException extends IOException {
        private static final long serialVersionUID = 1L;
        private final int status;

        StartException(String message, int status) {
            super(message);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    /**
     * What {@link #run} did: the copy into the command (null unless {@link Side#input()}), the
     * copy out of it (null unless {@link Side#output()}), and the command's shell status.
     */
    public record Result(CopyResult input, CopyResult output, int status) {}

    private static final byte[] TTY = "/dev/tty".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final Side side;
    private final int pid;
    private final int pidfd;
    private int toCommand;
    private int fromCommand;
    private final Object lock = new Object();
    private int status = -1;
    private boolean pidfdClosed;

    private MonitoredCommand(Side side, int pid, int pidfd, int toCommand, int fromCommand) {
        this.side = side;
        this.pid = pid;
        this.pidfd = pidfd;
        this.toCommand = toCommand;
        this.fromCommand = fromCommand;
    }

    /**
     * Starts {@code argv} with the pipes {@code side} asks for.
     *
     * @throws StartException with the shell's status and {@code NAME: reason} when it cannot start
     */
    public static MonitoredCommand start(List<byte[]> argv, Side side) throws StartException {
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("no command");
        }
        byte[] name = argv.getFirst();
        ProgramPath path = ProgramPath.of(Environ.get("PATH"));
        ProgramPath.Program program = path.find(name);
        if (!program.found()) {
            throw notStarted(name, program.errno());
        }
        int[] in = side.input() ? pipe() : new int[] {-1, -1};
        int[] out = side.output() ? pipe() : new int[] {-1, -1};
        int pid;
        try (Spawn spawn = new Spawn()) {
            if (side.input()) {
                spawn.dup2(in[0], 0);
            }
            if (side.output()) {
                spawn.dup2(out[1], 1);
            }
            // no process group of its own: the terminal's job control (^C, ^Z, reads) reaches it as it would under a shell
            spawn.defaultSignals(Spawn.CALLER_IGNORED).scriptsWithSh();
            pid = spawn.start(program.path(), argv, null);
        } finally {
            Libc.close(in[0]);
            Libc.close(out[1]);
        }
        if (pid < 0) {
            Libc.close(in[1]);
            Libc.close(out[0]);
            throw notStarted(name, -pid);
        }
        int fd;
        try {
            fd = Spawn.pidfd(pid);
        } catch (PosixException e) {
            fd = -1; // no pidfds (Linux before 5.3): wait4 alone, a signal racing the reap is then possible
        }
        return new MonitoredCommand(side, pid, fd, in[1], out[0]);
    }

    private static StartException notStarted(byte[] name, int errno) {
        return new StartException(Libc.display(name) + ": " + Errno.message(errno), errno == Errno.ENOENT ? 127 : 126);
    }

    private static int[] pipe() {
        try {
            return Libc.pipe();
        } catch (PosixException e) {
            throw new IllegalStateException(e.getMessage());
        }
    }

    /** The command's process ID. */
    public int pid() {
        return pid;
    }

    /** Which sides are metered. */
    public Side side() {
        return side;
    }

    /**
     * Copies {@code inputs} through {@code meter} into the command's standard input, then closes
     * it. Ends early, quietly ({@link CopyResult.Outcome#OUTPUT_CLOSED}), when the command stops
     * reading (it closed its standard input or ended).
     */
    public CopyResult feed(Meter meter, List<Input> inputs) throws IOException {
        if (!side.input()) {
            throw new IllegalStateException("the command's input is not metered");
        }
        int fd;
        synchronized (lock) {
            fd = toCommand;
        }
        if (fd < 0) {
            throw new IllegalStateException("already fed");
        }
        try {
            return meter.copy(inputs, Output.descriptor(fd));
        } finally {
            closeIn();
        }
    }

    /**
     * Copies the command's standard output through {@code meter} to {@code output} until its end
     * of file, then closes our end (so a command still writing after a reader went away gets EPIPE).
     *
     * @throws IOException if the output file cannot be opened (the pipe is closed then too)
     */
    public CopyResult drain(Meter meter, Output output) throws IOException {
        if (!side.output()) {
            throw new IllegalStateException("the command's output is not metered");
        }
        int fd;
        synchronized (lock) {
            fd = fromCommand;
        }
        if (fd < 0) {
            throw new IllegalStateException("already drained");
        }
        try {
            return meter.copy(List.of(Input.descriptor(fd)), output);
        } finally {
            closeOut();
        }
    }

    /**
     * Feeds and drains as {@link #side()} asks ({@code inMeter}/{@code inputs} and
     * {@code outMeter}/{@code output} may be null for a side not metered), then waits for the
     * command. With {@link Side#BOTH} the feed runs on a thread of its own.
     *
     * @throws IOException if the output file cannot be opened; the command has been sent SIGTERM
     *                     and reaped then
     */
    public Result run(Meter inMeter, List<Input> inputs, Meter outMeter, Output output) throws IOException {
        CopyResult[] fed = new CopyResult[1];
        Thread feeder = null;
        try {
            if (side == Side.IN) {
                fed[0] = feed(inMeter, inputs);
            } else if (side == Side.BOTH) {
                feeder = Thread.ofPlatform().daemon().name("brisk-pv-feed").start(() -> {
                    try {
                        fed[0] = feed(inMeter, inputs);
                    } catch (IOException e) {
                        throw new AssertionError("a descriptor output opens nothing", e);
                    }
                });
            }
            CopyResult drained = side.output() ? drain(outMeter, output) : null;
            if (feeder != null) {
                feeder.join();
            }
            return new Result(fed[0], drained, waitFor());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (IOException e) {
            // the output cannot be opened: as a shell would not run a command whose redirection
            // failed, end it rather than wait for one that may never write or exit
            signal(Signals.SIGTERM);
            throw e;
        } finally {
            closeOut(); // nobody reads any more: a command still writing gets EPIPE, and the feed its hangup
            if (feeder != null) {
                try {
                    feeder.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            waitFor();
        }
    }

    /** Sends {@code signal} to the command unless it has been reaped; false if it was not sent. */
    public boolean signal(int signal) {
        synchronized (lock) {
            return status < 0 && Libc.signal(pid, signal);
        }
    }

    /**
     * Passes on a signal this process received, as a wrapper should: SIGINT and SIGQUIT only when
     * this process is not in the foreground of a controlling terminal, since the terminal sends
     * those (^C, ^\) to its whole foreground process group, the command included, and passing
     * them on would deliver them twice; any other signal always. False if nothing was sent.
     */
    public boolean relay(int signal) {
        if ((signal == Signals.SIGINT || signal == Signals.SIGQUIT) && inTerminalForeground()) {
            return false;
        }
        return signal(signal);
    }

    private static boolean inTerminalForeground() {
        if (!Caller.current().self()) {
            return Caller.current().inForegroundNow();
        }
        int tty = Libc.openOrErrno(TTY, Flags.O_RDONLY | Flags.O_NOCTTY | Flags.O_NONBLOCK | Flags.O_CLOEXEC, 0);
        if (tty < 0) {
            return false; // no controlling terminal: nothing sent it to the command
        }
        try {
            return Sys.inForeground(tty, Caller.current().processGroup());
        } finally {
            Libc.close(tty);
        }
    }

    /** Waits for the command to end and reaps it (once): the status a shell shows. */
    public int waitFor() {
        synchronized (lock) {
            if (status >= 0) {
                return status;
            }
        }
        if (pidfd >= 0) {
            awaitEnd();
        }
        synchronized (lock) {
            if (status < 0) {
                status = WaitStatus.shellStatus(WaitStatus.waitFor(pid)); // a zombie since awaitEnd: no wait here
            }
            return status;
        }
    }

    /** Blocks until the pidfd says the command has ended (it stays unreaped, its pid reserved). */
    private void awaitEnd() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(Flags.POLLFD_SIZE, 8);
            do {
                Libc.pollfd(fds, 0, pidfd, Flags.POLLIN);
                try {
                    Libc.poll(fds, 1, -1);
                } catch (PosixException e) {
                    return; // wait4 blocks instead
                }
            } while (Libc.revents(fds, 0) == 0);
        }
    }

    private void closeIn() {
        synchronized (lock) {
            Libc.close(toCommand);
            toCommand = -1;
        }
    }

    private void closeOut() {
        synchronized (lock) {
            Libc.close(fromCommand);
            fromCommand = -1;
        }
    }

    /** Closes our pipe ends and reaps the command (waiting for it if it still runs). */
    @Override
    public void close() {
        closeIn();
        closeOut();
        waitFor();
        synchronized (lock) {
            if (!pidfdClosed) {
                Libc.close(pidfd);
                pidfdClosed = true;
            }
        }
    }
}
