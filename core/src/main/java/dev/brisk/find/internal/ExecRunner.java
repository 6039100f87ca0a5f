// SPDX-License-Identifier: Apache-2.0
package dev.brisk.find.internal;

import dev.brisk.internal.posix.Environ;
import dev.brisk.internal.posix.Errno;
import dev.brisk.internal.posix.ProgramPath;
import dev.brisk.internal.posix.Spawn;
import dev.brisk.internal.posix.WaitStatus;
import java.util.List;

/**
 * Runs the command of {@code -exec}, {@code -execdir}, {@code -ok} and {@code -okdir} with
 * byte-exact arguments and waits for it, on the shared {@link Spawn}: no Strings and no charset
 * between the file names and the command. The child inherits standard input, output and error
 * and the environment; {@code -execdir} gives it a working directory. The program is found on
 * PATH as {@code execvp} finds it (GNU find execs with {@code execvp}), from the command's own
 * directory when PATH has relative entries; a script without {@code #!} runs with
 * {@code /bin/sh}. The child starts with an empty signal mask (a JVM thread blocks SIGQUIT) and
 * default dispositions but for the signals brisk was started with ignored. Used from one thread (find runs {@code -exec} on one); blocks until the
 * command exits.
 */
final class ExecRunner {
    private static final class Lazy {
        static final ProgramPath PATH = ProgramPath.of(System.getenv("PATH"));
        /** find's children keep the signals brisk's caller was started with ignored, as GNU find's keep them. */
        static final Spawn HERE = new Spawn().defaultSignals(Spawn.CALLER_IGNORED).scriptsWithSh();
    }

    private ExecRunner() {}

    /**
     * Runs {@code argv} (argv[0] looked up on PATH) in {@code dir} (null: this directory) and
     * returns its exit status (128 + N if signal N killed it); -1 with a message through
     * {@code c} if it could not start.
     */
    static int run(List<byte[]> argv, byte[] dir, Ctx c) {
        byte[] name = argv.getFirst();
        ProgramPath.Program program = dir == null ? Lazy.PATH.find(name) : Lazy.PATH.findFrom(dir, name);
        int pid = program.found() ? start(program, argv, dir) : -program.errno();
        if (pid == -Errno.ENOENT && dir == null && program.found()) {
            Lazy.PATH.forget(name); // removed since it was found: look again
            program = Lazy.PATH.find(name);
            pid = program.found() ? start(program, argv, null) : -program.errno();
        }
        if (pid < 0) {
            c.message(Quote.q(name) + ": " + Errno.message(-pid));
            return -1;
        }
        int raw = WaitStatus.waitFor(pid);
        return raw == WaitStatus.NO_CHILD ? -1 : WaitStatus.shellStatus(raw);
    }

    private static int start(ProgramPath.Program program, List<byte[]> argv, byte[] dir) {
        if (dir == null) {
            return Lazy.HERE.start(program.path(), argv, null);
        }
        try (Spawn s = new Spawn().chdir(dir).defaultSignals(Spawn.CALLER_IGNORED).scriptsWithSh()) {
            return s.start(program.path(), argv, null);
        }
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
