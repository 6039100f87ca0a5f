// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell;

import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.remote.SshTransport;
import dev.brisk.internal.shell.ShellSpec;
import dev.brisk.shell.internal.RemotePool;
import dev.brisk.shell.internal.Worker;
import dev.brisk.shell.internal.WorkerFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A pool of warm shells that runs commands without paying a process start for each.
 *
 * <p>Each worker is a long-lived shell (bash by default) in its own session. Every command runs
 * in a fresh subshell of a worker, with its standard input at end of file (or the bytes given),
 * its output on FIFOs that no other command writes to, and, under bash, its own process group:
 * so exit statuses are exact, output is byte-exact and separate, a timeout kills the command's
 * whole group, and nothing a command does (cd, export, set -e, traps, functions, exit) reaches
 * the next one. Two kinds of command skip the fork because it would change nothing: a
 * side-effect-free builtin with plain words ({@code echo hi}) runs in a subshell it cannot alter,
 * and a simple external command with plain words ({@code ls -l /tmp}) is spawned by the JVM
 * itself, in a session of its own, with the program and environment the shell would have used.
 * For state that should persist, open a {@link #session()}.
 *
 * <p>Thread-safe: any number of threads may call {@link #run} and {@link #submit} at once; a
 * caller of {@code run} blocks until a worker is free and its command has finished. The pool
 * owns its shells: {@link #close()} kills them and anything they left running, and a JVM that
 * exits, even by SIGKILL, takes them along (a small watchdog shell sees to that).
 *
 * <pre>{@code
 * try (ShellPool pool = ShellPool.builder().workers(4).build()) {
 *     CommandResult r = pool.run("ls -l");
 *     System.out.print(r.stdoutText());
 * }
 * }</pre>
 *
 * <p>Just over 500 lines because it is the public contract of both kinds of pool, local workers and
 * workers on another host ({@link Builder#remote}); each kind's engine is in {@code shell.internal}.
 */
public final class ShellPool implements AutoCloseable {
    /** Whose pool this is: its exit hooks close it (a JVM shutdown hook in a direct run). */
    private final Caller caller = Caller.current();
    private final Thread exitHook = new Thread(this::close, "brisk-shell-pool-shutdown");
    private final Builder config;
    private final WorkerFactory factory;
    /** The workers on another host ({@link Builder#remote}), or null. */
    private final RemotePool remote;
    private final ReentrantLock lock = new ReentrantLock(true);
    private final Condition available = lock.newCondition();
    private final ArrayDeque<Worker> idle = new ArrayDeque<>();
    private final Set<Worker> busy = ConcurrentHashMap.newKeySet();
    private final Set<ShellSession> sessions = ConcurrentHashMap.newKeySet();
    private final ExecutorService executor;
    private int live;
    private volatile boolean closed;

    private ShellPool(Builder b) {
        this.config = b;
        if (b.remote != null) {
            this.factory = null;
            this.executor = Executors.newFixedThreadPool(b.workers, r -> {
                Thread t = new Thread(r, "brisk-shell-remote");
                t.setDaemon(true);
                return t;
            });
            try {
                this.remote = new RemotePool(SshTransport.of(b.ssh, b.remote), b.workers);
                this.remote.connect();
            } catch (IOException | IllegalArgumentException e) {
                executor.shutdownNow();
                throw new UncheckedIOException("cannot reach " + b.remote + ": " + e.getMessage(),
                        e instanceof IOException io ? io : new IOException(e));
            }
            caller.addExitHook(exitHook);
            return;
        }
        this.remote = null;
        Map<String, String> env = b.environment != null ? b.environment : caller.environment();
        ShellSpec spec = ShellSpec.resolve(b.shell, env);
        try {
            this.factory = new WorkerFactory(spec, b.niceness);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the shell pool: " + e.getMessage(), e);
        }
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor ex = new ThreadPoolExecutor(b.workers, b.workers, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "brisk-shell-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        ex.allowCoreThreadTimeOut(true);
        this.executor = ex;
        caller.addExitHook(exitHook);
        try {
            List<Worker> started = new ArrayList<>();
            for (int i = 0; i < b.workers; i++) {
                started.add(factory.start(Worker.Mode.ISOLATED));
            }
            lock.lock();
            try {
                idle.addAll(started);
                live = started.size();
            } finally {
                lock.unlock();
            }
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot start a " + b.shell + " worker: " + e.getMessage(), e);
        }
    }

    /** A builder with the defaults: bash, one worker per core, no timeout, no output cap. */
    public static Builder builder() {
        return new Builder();
    }

    /** Runs {@code script} with the defaults of {@link Command#of(String)}; blocks until it ends. */
    public CommandResult run(String script) {
        return run(Command.of(script));
    }

    /**
     * Runs {@code command} on a free worker and waits for its result. Blocks while every worker
     * is busy, then while the command runs (at most its timeout plus a short kill grace). An
     * interrupt, while waiting or running, ends the wait with {@link ShellException} (a running
     * command is killed) and leaves the thread's interrupt status set.
     *
     * @throws IllegalStateException if the pool is closed
     * @throws ShellException if the worker died under the command, the pool was closed while it
     *     ran, the thread was interrupted, or an output sink failed
     */
    public CommandResult run(Command command) {
        Objects.requireNonNull(command, "command");
        if (remote != null) {
            return runRemote(command);
        }
        Worker.Request request = request(command);
        for (int attempt = 1; ; attempt++) {
            Worker w = acquire();
            boolean healthy = false;
            try {
                Worker.Outcome o = w.execute(request);
                healthy = w.alive();
                return result(o);
            } catch (Worker.NotStartedException e) {
                // a worker that died while idle: the command never ran, so run it on another
                if (attempt == 3) {
                    throw e;
                }
            } finally {
                release(w, healthy);
            }
        }
    }

    /**
     * Queues {@code command} and returns at once; the future completes with its result, or
     * exceptionally with the exceptions of {@link #run(Command)}. Cancelling the future does not
     * stop a command already running: give it a timeout for that.
     */
    public CompletableFuture<CommandResult> submit(Command command) {
        Objects.requireNonNull(command, "command");
        ensureOpen();
        return CompletableFuture.supplyAsync(() -> run(command), executor);
    }

    /**
     * Opens a session: a shell of its own, outside the pool's workers, where state (cd,
     * variables, functions, options) persists from one command to the next, as in a terminal.
     * The caller closes it; closing the pool closes it too.
     *
     * @throws IllegalStateException if the pool is closed
     */
    public ShellSession session() {
        ensureOpen();
        if (remote != null) {
            throw new UnsupportedOperationException("sessions are not available on a remote pool");
        }
        try {
            ShellSession s = new ShellSession(this, factory.start(Worker.Mode.SESSION));
            sessions.add(s);
            if (closed) {
                s.close();
                ensureOpen();
            }
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a session shell: " + e.getMessage(), e);
        }
    }

    /** How many workers the pool keeps. */
    public int workers() {
        return config.workers;
    }

    /** The resolved path of the shell the workers run. */
    public String shell() {
        return remote != null ? "/bin/sh on " + remote.host() : factory.spec().executable().toString();
    }

    /** True once {@link #close()} has been called. */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Closes the pool: running commands are killed (their callers get {@link ShellException}),
     * waiting callers get {@link IllegalStateException}, sessions end, every worker and every
     * process a command left behind is killed, and the pool's directory is removed. Blocks for
     * at most a few seconds. Idempotent.
     */
    @Override
    public void close() {
        List<Worker> toDestroy;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            toDestroy = new ArrayList<>(idle);
            idle.clear();
            available.signalAll();
        } finally {
            lock.unlock();
        }
        caller.removeExitHook(exitHook); // false from the hook itself
        for (ShellSession s : sessions) {
            s.close();
        }
        for (Worker w : busy) {
            w.abort("the shell pool was closed");
        }
        for (Worker w : toDestroy) {
            w.destroy();
            w.release();
        }
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (!busy.isEmpty() && System.nanoTime() < until) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Worker w : busy) {
            w.destroy();
        }
        executor.shutdownNow();
        if (remote != null) {
            remote.close();
        } else {
            factory.close();
        }
    }

    private CommandResult runRemote(Command c) {
        ensureOpen();
        Duration t = c.timeout() != null ? c.timeout() : config.timeout;
        long cap = c.maxOutputBytes() >= 0 ? c.maxOutputBytes() : config.maxOutputBytes;
        try {
            RemotePool.Outcome o = remote.run(new RemotePool.Job(c.scriptBytes(), c.cwd(), c.environment(), c.stdinBytes(),
                    t == null ? 0 : t.toNanos(), c.stdoutSink(), c.stderrSink(), cap, config.killGrace.toNanos()));
            return new CommandResult(o.exitCode(), o.stdout(), o.stderr(), o.timedOut(), o.stdoutTruncated(),
                    o.stderrTruncated(), Duration.ofNanos(o.nanos()));
        } catch (IOException e) {
            throw new ShellException(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ShellException("interrupted", e);
        }
    }

    void forget(ShellSession s) {
        sessions.remove(s);
    }

    Worker.Request request(Command c) {
        Duration t = c.timeout() != null ? c.timeout() : config.timeout;
        long cap = c.maxOutputBytes() >= 0 ? c.maxOutputBytes() : config.maxOutputBytes;
        return new Worker.Request(c.scriptBytes(), c.cwd(), c.environment(), c.stdinBytes(),
                t == null ? 0 : t.toNanos(), c.stdoutSink(), c.stderrSink(), cap,
                config.drain.toNanos(), config.killGrace.toNanos());
    }

    static CommandResult result(Worker.Outcome o) {
        return new CommandResult(o.exitCode(), o.stdout(), o.stderr(), o.timedOut(),
                o.stdoutTruncated(), o.stderrTruncated(), Duration.ofNanos(o.nanos()));
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the shell pool is closed");
        }
    }

    private Worker acquire() {
        lock.lock();
        try {
            while (true) {
                ensureOpen();
                Worker w = idle.pollFirst();
                if (w != null) {
                    busy.add(w);
                    return w;
                }
                if (live < config.workers) {
                    live++;
                    break;
                }
                try {
                    available.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ShellException("interrupted while waiting for a free worker", e);
                }
            }
        } finally {
            lock.unlock();
        }
        try {
            Worker spare = factory.start(Worker.Mode.ISOLATED);
            busy.add(spare);
            return spare;
        } catch (IOException e) {
            lock.lock();
            try {
                live--;
                available.signal();
            } finally {
                lock.unlock();
            }
            throw new ShellException("cannot start a replacement worker: " + e.getMessage(), e);
        }
    }

    private void release(Worker w, boolean healthy) {
        busy.remove(w);
        boolean keep;
        lock.lock();
        try {
            keep = healthy && !closed;
            if (keep) {
                idle.addFirst(w);
            } else {
                live--;
            }
            available.signal();
        } finally {
            lock.unlock();
        }
        if (!keep) {
            w.destroy();
            w.release();
        }
    }

    /**
     * How a pool is made. Not thread-safe; {@link #build()} starts the workers, so it costs a
     * few milliseconds per worker.
     */
    public static final class Builder {
        private int workers = Runtime.getRuntime().availableProcessors();
        private String shell = "bash";
        private Map<String, String> environment;
        private Duration timeout;
        private long maxOutputBytes = Integer.MAX_VALUE - 16;
        private Duration drain = Duration.ofMillis(100);
        private Duration killGrace = Duration.ofMillis(500);
        private String remote;
        private String ssh = "ssh";
        private Integer niceness;

        private Builder() {}

        /**
         * Keeps the workers on another host: {@code workers} warm shells behind one ssh
         * connection to {@code sshLogin} ({@code [user@]host[:port]}, as {@code brisk par -S}
         * takes it), with the same {@link Command}/{@link CommandResult} contract. The host needs
         * only a POSIX {@code /bin/sh} and coreutils ({@code setsid} for timeouts that reach a
         * command's children). There, {@link #shell} is ignored (commands run under
         * {@code /bin/sh}), output comes back when the command ends, and {@link #session()} is
         * not available. {@link #build()} connects, and fails when the host cannot be reached.
         */
        public Builder remote(String sshLogin) {
            Objects.requireNonNull(sshLogin, "sshLogin");
            this.remote = sshLogin;
            return this;
        }

        /** The command that opens a shell on the {@link #remote} host: default {@code ssh}, so {@code ~/.ssh/config} applies. */
        public Builder ssh(String sshCommand) {
            Objects.requireNonNull(sshCommand, "sshCommand");
            this.ssh = sshCommand;
            return this;
        }

        /** How many shells to keep warm: at least 1. Default: one per core. */
        public Builder workers(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("workers must be at least 1, got " + n);
            }
            workers = n;
            return this;
        }

        /**
         * The shell: a name looked up on PATH ({@code "bash"}, {@code "dash"}, {@code "sh"}) or
         * a path. Default bash. Under bash each command gets its own process group; under other
         * shells a timeout kills every process the worker's session holds but the worker.
         */
        public Builder shell(String shell) {
            Objects.requireNonNull(shell, "shell");
            this.shell = shell;
            return this;
        }

        /**
         * The environment the workers start with (copied). Default: the caller's (this JVM's in a
         * direct run, a warm server's client's in its call), less the
         * variables that would change how a shell starts or reads (BASH_ENV, ENV, TMOUT,
         * PROMPT_COMMAND, SHELLOPTS, IFS, exported functions, ...), which are always dropped.
         * A value's lone surrogate {@code U+DC80+b} stands for the byte {@code b} that is not
         * valid UTF-8 (Python's "surrogateescape"), which the workers get as that byte.
         */
        public Builder environment(Map<String, String> env) {
            Objects.requireNonNull(env, "env");
            this.environment = new HashMap<>(env);
            return this;
        }

        /**
         * The niceness the workers, and so their commands, run at: -20 to 19, as
         * {@code setpriority} takes it (a value below this process's own needs the privilege to
         * lower it, else the workers keep this process's). Default: this process's. Local pools only.
         */
        public Builder niceness(int nice) {
            if (nice < -20 || nice > 19) {
                throw new IllegalArgumentException("niceness must be -20 to 19, got " + nice);
            }
            this.niceness = nice;
            return this;
        }

        /** The timeout of commands that set none. Default: none. */
        public Builder timeout(Duration limit) {
            Objects.requireNonNull(limit, "limit");
            if (limit.isNegative() || limit.isZero()) {
                throw new IllegalArgumentException("timeout must be positive, got " + limit);
            }
            this.timeout = limit;
            return this;
        }

        /** The output cap of commands that set none, per stream. Default: 2 GiB, the array limit. */
        public Builder maxOutputBytes(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("output cap must be zero or more, got " + bytes);
            }
            this.maxOutputBytes = bytes;
            return this;
        }

        /**
         * How long to keep reading output after a command has exited while something it left in
         * the background still holds its output open. Default 100 ms.
         */
        public Builder drain(Duration d) {
            Objects.requireNonNull(d, "drain");
            if (d.isNegative()) {
                throw new IllegalArgumentException("drain must not be negative, got " + d);
            }
            this.drain = d;
            return this;
        }

        /** How long a timed-out command has between SIGTERM and SIGKILL. Default 500 ms. */
        public Builder killGrace(Duration d) {
            Objects.requireNonNull(d, "killGrace");
            if (d.isNegative()) {
                throw new IllegalArgumentException("kill grace must not be negative, got " + d);
            }
            this.killGrace = d;
            return this;
        }

        /**
         * Starts the pool and its workers.
         *
         * @throws IllegalArgumentException if the shell cannot be found
         * @throws UncheckedIOException if a worker cannot be started
         */
        public ShellPool build() {
            return new ShellPool(this);
        }
    }
}
