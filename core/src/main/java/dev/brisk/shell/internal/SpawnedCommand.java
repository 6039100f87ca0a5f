// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.internal.posix.Signals;
import dev.brisk.internal.posix.Spawn;
import dev.brisk.internal.posix.WaitStatus;
import dev.brisk.internal.shell.ProcessSweep;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The life of the commands an isolated worker runs without its shell ({@link DirectExec}): the
 * start (a session of its own, the worker's FIFOs as its output, a pidfd to poll), the record
 * in the worker's file {@code spawned} that the {@link Watchdog} reads should the JVM die, the
 * reaping, and the sessions a command left running, killed with the worker as a shell's
 * subshells would be. One command at a time, driven by its worker's thread; {@link #pid} and
 * {@link #killAll} may be called from any thread.
 */
final class SpawnedCommand {
    private static final byte[] DEV_NULL = "/dev/null".getBytes(StandardCharsets.US_ASCII);

    private final int recordFd;
    private final Watchdog watchdog;
    private final MemorySegment recordBuf = Arena.ofAuto().allocate(16);
    /** The running command's pid (its session and group id), else -1. */
    private volatile int pid = -1;
    /** Sessions of spawned commands that left processes behind. */
    private final List<Integer> lingering = new CopyOnWriteArrayList<>();

    /** {@code recordFd}: the worker's open file {@code spawned}, or -1 (nothing is recorded). */
    SpawnedCommand(int recordFd, Watchdog watchdog) {
        this.recordFd = recordFd;
        this.watchdog = watchdog;
    }

    /** For a worker in {@code dir}: with its record file {@code spawned} (mode 0600) when {@code record}. */
    static SpawnedCommand create(Path dir, boolean record, Watchdog watchdog) throws PosixException {
        int fd = record ? Libc.open(dir.resolve("spawned").toString().getBytes(StandardCharsets.UTF_8),
                Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC | Flags.O_CLOEXEC, 0600) : -1;
        return new SpawnedCommand(fd, watchdog);
    }

    /** Closes the record file; call once, when no command runs. */
    void close() {
        Libc.close(recordFd);
    }

    /**
     * Starts {@code plan} with stdin from {@code stdinPath} (null: /dev/null) and stdout/stderr
     * into {@code fifos}; returns a pidfd that polls readable when it ends, or -1 when it could
     * not start (an ENOEXEC script, say: the shell then runs it and says why).
     */
    int start(DirectExec.Plan plan, byte[] stdinPath, byte[][] fifos) throws PosixException {
        int child;
        try (Spawn spawn = new Spawn()) {
            spawn.open(0, stdinPath != null ? stdinPath : DEV_NULL, Flags.O_RDONLY)
                    .open(1, fifos[0], Flags.O_WRONLY)
                    .open(2, fifos[1], Flags.O_WRONLY);
            if (plan.directory() != null) {
                spawn.chdir(plan.directory());
            }
            // the caller's ignored signals stay ignored, as a shell keeps them; glibc's signals 32
            // and 33 stay ignored, as in the pool's shells (ProcessBuilder's children), so a
            // command gets the same dispositions whether the shell runs it or not
            spawn.closeFrom(3).newSession().defaultSignals(Spawn.CALLER_IGNORED | Signals.GLIBC_INTERNAL);
            child = spawn.start(plan.path(), plan.argv(), plan.env());
        }
        if (child <= 0) {
            return -1;
        }
        pid = child;
        record(child);
        return Spawn.pidfd(child);
    }

    /** The running command's pid, or -1. */
    int pid() {
        return pid;
    }

    /** The command's shell status (128+N for signal N) if it has ended (then it is reaped), else -1. */
    int poll() {
        int raw = WaitStatus.poll(pid);
        return raw == WaitStatus.RUNNING ? -1 : WaitStatus.shellStatus(raw);
    }

    /**
     * After the command: kills and reaps it if it has not ended ({@code reaped} false: a
     * failure or an abort on the way), and hands any process it left running in its session to
     * the watchdog, as a shell worker's session would keep them.
     */
    void end(boolean reaped) {
        int child = pid;
        if (child < 0) {
            return;
        }
        if (!reaped) {
            Libc.signal(-child, Signals.SIGKILL);
            WaitStatus.waitFor(child);
        }
        try {
            if (Libc.kill(-child, 0)) {
                watchdog.watch(child);
                lingering.add(child);
            }
        } catch (PosixException ignored) {
            // no process left in its group
        }
        record(0);
        pid = -1;
        forgetEnded();
    }

    /** Kills the running command's group and every session a command left behind (the worker is going). */
    void killAll() {
        int child = pid;
        if (child > 0) {
            Libc.signal(-child, Signals.SIGKILL);
        }
        for (int sid : lingering) {
            ProcessSweep.signal(sid, -1, Signals.SIGKILL);
            watchdog.forget(sid);
        }
        lingering.clear();
    }

    /** Tells the watchdog, through file {@code spawned}, which session to kill should the JVM die now. */
    private void record(int child) {
        try {
            byte[] text = String.format("%-11d%n", child).getBytes(StandardCharsets.US_ASCII);
            MemorySegment.copy(text, 0, recordBuf, ValueLayout.JAVA_BYTE, 0, text.length);
            Libc.pwriteFully(recordFd, recordBuf, text.length, 0);
        } catch (PosixException e) {
            // the watchdog then misses this command; close() still kills it
        }
    }

    /** Drops the lingering sessions whose processes have all ended since, so the list stays short. */
    private void forgetEnded() {
        for (Integer sid : lingering) {
            boolean alive;
            try {
                alive = Libc.kill(-sid, 0);
            } catch (PosixException e) {
                alive = false;
            }
            if (!alive) {
                lingering.remove(sid);
                watchdog.forget(sid);
            }
        }
    }
}
