// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell;

import dev.brisk.shell.internal.Worker;
import java.util.Objects;

/**
 * A shell of one's own, where state persists between commands as in a terminal: {@code cd},
 * variables, functions, aliases and options set by one command hold for the next.
 *
 * <p>Each command still gets its own standard input (end of file by default), its own output
 * FIFOs and its exact exit status. What ends a terminal ends a session: {@code exit}, a fatal
 * error of the shell, or a timeout (which kills the shell and everything it runs). The result
 * of that command is returned as usual, and later calls throw {@link IllegalStateException}.
 *
 * <p>Thread-safe: commands from several threads run one after another, in the order they get
 * the session's lock. The caller closes the session; {@link ShellPool#close()} closes it too.
 *
 * <pre>{@code
 * try (ShellSession s = pool.session()) {
 *     s.run("cd /tmp && x=42");
 *     s.run("echo $PWD $x").stdoutText();   // "/tmp 42\n"
 * }
 * }</pre>
 */
public final class ShellSession implements AutoCloseable {
    private final ShellPool pool;
    private final Worker worker;
    private String endedBecause;

    ShellSession(ShellPool pool, Worker worker) {
        this.pool = pool;
        this.worker = worker;
    }

    /** Runs {@code script} in the session; see {@link #run(Command)}. */
    public CommandResult run(String script) {
        return run(Command.of(script));
    }

    /**
     * Runs {@code command} in this session's shell and waits for it.
     *
     * @throws IllegalStateException if the session has ended or was closed
     * @throws ShellException if the command was aborted (pool closed, thread interrupted, sink failed)
     */
    public synchronized CommandResult run(Command command) {
        Objects.requireNonNull(command, "command");
        if (endedBecause != null) {
            throw new IllegalStateException("the session has ended: " + endedBecause);
        }
        try {
            Worker.Outcome o = worker.execute(pool.request(command));
            if (o.shellEnded()) {
                endedBecause = o.timedOut() ? "a command timed out and its shell was killed"
                        : "the shell exited with status " + o.exitCode();
                release();
            }
            return ShellPool.result(o);
        } catch (ShellException e) {
            endedBecause = e.getMessage();
            release();
            throw e;
        }
    }

    /** True until the session is closed or its shell has ended. */
    public synchronized boolean isOpen() {
        return endedBecause == null;
    }

    /** Kills the session's shell and whatever it left running. Idempotent. */
    @Override
    public void close() {
        worker.abort("the session was closed");
        synchronized (this) {
            if (endedBecause == null) {
                endedBecause = "it was closed";
                release();
            }
        }
    }

    private void release() {
        worker.destroy();
        worker.release();
        pool.forget(this);
    }
}
