// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.Environ;
import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.ProgramPath;
import dev.brisk.internal.posix.Spawn;
import dev.brisk.internal.posix.WaitStatus;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Runs the command of {@code -exec}, {@code -execdir}, {@code -ok} and {@code -okdir} with
 * byte-exact arguments and waits for it, on the shared {@link Spawn}: no Strings and no charset
 * between the file names and the command. The child inherits standard input, output and error
 * and the environment; {@code -execdir} gives it a working directory. The program is found on
 * PATH as {@code execvp} finds it (GNU find execs with {@code execvp}), from the command's own
 * directory when PATH has relative entries; a script without {@code #!} runs with
 * {@code /bin/sh}. The child starts with an empty signal mask (a JVM thread blocks SIGQUIT) and
 * default dispositions but for the signals the caller was started with ignored.
 *
 * <p>One per run, made on the thread that parses the command line: it takes that thread's
 * {@link Caller}'s PATH and ignored signals, so concurrent runs in one JVM (brisk's server) each
 * find and start programs as their own caller would. Runs one command at a time (find runs
 * {@code -exec} on one thread), blocking until it exits; {@link #signal} may be called from any
 * thread, to pass an early end on to the running command.
 */
final class ExecRunner implements AutoCloseable {
    private final ProgramPath path = ProgramPath.of(Environ.get("PATH"));
    /** find's children keep the signals brisk's caller was started with ignored, as GNU find's keep them. */
    private final Spawn here = new Spawn().defaultSignals(Spawn.CALLER_IGNORED).scriptsWithSh();
    /** The running command's pid, 0 between commands; -1 once the run was told to end. */
    private int running;

    /**
     * Runs {@code argv} (argv[0] looked up on PATH) in {@code dir} (null: this directory) and
     * returns its exit status (128 + N if signal N killed it); -1 with a message through
     * {@code c} if it could not start (the run's status becomes 1), or if the run is ending.
     */
    int run(List<byte[]> argv, byte[] dir, Ctx c) {
        synchronized (this) {
            if (running < 0) {
                return -1;
            }
        }
        byte[] name = argv.getFirst();
        ProgramPath.Program program = dir == null ? path.find(name) : path.findFrom(dir, name);
        int pid = program.found() ? start(program, argv, dir) : -program.errno();
        if (pid == -Errno.ENOENT && dir == null && program.found()) {
            path.forget(name); // removed since it was found: look again
            program = path.find(name);
            pid = program.found() ? start(program, argv, null) : -program.errno();
        }
        if (pid < 0) {
            // POSIX: a command that cannot be run is an error (status 1, the walk goes on);
            // GNU find 4.9 words it so, but ends with 0 after -exec ... ;
            c.shared.failed = true;
            c.message(Quote.q(name) + ": " + Errno.message(-pid));
            return -1;
        }
        int signal = 0;
        synchronized (this) {
            if (running < 0) {
                signal = -running;
            } else {
                running = pid;
            }
        }
        if (signal != 0) {
            Libc.signal(pid, signal); // the run ended while it started
        }
        int raw = WaitStatus.waitFor(pid);
        synchronized (this) {
            if (running == pid) {
                running = 0;
            }
        }
        return raw == WaitStatus.NO_CHILD ? -1 : WaitStatus.shellStatus(raw);
    }

    /**
     * Sends {@code signal} to the running command, if any, and to each command this runner would
     * start from now on (a direct find's command would have had the terminal's signal too).
     */
    void signal(int signal) {
        int pid;
        synchronized (this) {
            pid = running;
            running = -signal;
        }
        if (pid > 0) {
            Libc.signal(pid, signal); // not reaped yet (the waiter clears it after): the pid is still ours
        }
    }

    private int start(ProgramPath.Program program, List<byte[]> argv, byte[] dir) {
        if (dir == null) {
            return here.start(program.path(), argv, null);
        }
        if (dir.length < Libc.PATH_MAX) {
            return startIn(dir, program, argv);
        }
        // chdir(2) refuses a path this long: the child changes to a descriptor of it instead,
        // through /proc (its copy of our descriptors is there until its exec closes this one)
        int fd = Libc.openDirectoryOrErrno(dir);
        if (fd < 0) {
            return fd;
        }
        try {
            return startIn(("/proc/self/fd/" + fd).getBytes(StandardCharsets.US_ASCII), program, argv);
        } finally {
            Libc.close(fd);
        }
    }

    private static int startIn(byte[] dir, ProgramPath.Program program, List<byte[]> argv) {
        try (Spawn s = new Spawn().chdir(dir).defaultSignals(Spawn.CALLER_IGNORED).scriptsWithSh()) {
            return s.start(program.path(), argv, null);
        }
    }

    @Override
    public void close() {
        here.close();
    }

    /**
     * The size of a batch of {@code -exec ... +} as GNU find (gnulib's buildcmd) limits it: the
     * command's words and the names, each counted with its NUL, within 128 KiB, or within what
     * ARG_MAX leaves beside the environment's strings and 2 KiB of headroom where that is less
     * (but at least POSIX's 4096). Batches then split where GNU find's split.
     */
    static long gnuBatchLimit() {
        long room = Environ.argMax() - Environ.stringBytes() - 2048;
        return Math.max(4096, Math.min(128 * 1024, room));
    }

    /** Bytes left for a command's arguments beside the environment, as the kernel counts them. */
    static long argumentSpace() {
        return Environ.argMax() - Environ.size();
    }

    /** The bytes one argument of {@code length} takes of the argument space: its string, NUL and pointer. */
    static long argumentCost(int length) {
        return length + 1L + Environ.POINTER;
    }
}
