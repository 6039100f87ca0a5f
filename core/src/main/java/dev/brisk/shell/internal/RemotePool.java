// SPDX-License-Identifier: Apache-2.0
package dev.brisk.shell.internal;

import dev.brisk.internal.shell.ShellQuote;
import dev.brisk.internal.remote.HostLostException;
import dev.brisk.internal.remote.Payload;
import dev.brisk.internal.remote.RemoteShell;
import dev.brisk.internal.remote.Transport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The shell pool's workers on another host: {@code slots} warm shells behind one channel
 * ({@link RemoteShell}), opened on first use and again after the host was lost. Each command runs
 * in a subshell in a process group of its own there; its timeout sends TERM to the group, then
 * KILL after the grace. Output comes back whole when the command ends (sinks get it then).
 * Thread-safe.
 */
public final class RemotePool implements AutoCloseable {
    /** One command, as the pool's {@code Command} has it. */
    public record Job(byte[] script, Path cwd, Map<String, String> env, byte[] stdin, long timeoutNanos,
                      OutputStream stdoutSink, OutputStream stderrSink, long maxOutputBytes, long killGraceNanos) {}

    /** How it ended: the pool turns it into a {@code CommandResult}. */
    public record Outcome(int exitCode, byte[] stdout, byte[] stderr, boolean timedOut, boolean stdoutTruncated,
                          boolean stderrTruncated, long nanos) {}

    private final Transport transport;
    private final BlockingQueue<Integer> free;
    private final ScheduledExecutorService timer;
    private final AtomicLong seq = new AtomicLong();
    private RemoteShell shell;
    private volatile boolean closed;

    public RemotePool(Transport transport, int slots) {
        this.transport = transport;
        this.free = new ArrayBlockingQueue<>(slots);
        for (int i = 1; i <= slots; i++) {
            free.add(i);
        }
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "brisk-remote-pool-timer");
            t.setDaemon(true);
            return t;
        });
    }

    /** Opens the channel now (the pool's builder does, so that a bad host fails at once). */
    public synchronized void connect() throws IOException {
        if (shell == null || !shell.alive()) {
            shell = RemoteShell.open(transport, "", Map.of(), Duration.ofSeconds(30));
        }
    }

    /** The host's name. */
    public String host() {
        return transport.host();
    }

    /**
     * Runs {@code job} on a free slot, waiting for one; {@link HostLostException} when the host
     * goes away under it (the next call opens the channel again).
     */
    public Outcome run(Job job) throws IOException, InterruptedException {
        int slot = free.take();
        try {
            if (closed) {
                throw new IOException("the shell pool is closed");
            }
            connect();
            RemoteShell s;
            synchronized (this) {
                s = shell;
            }
            long n = seq.incrementAndGet();
            ByteArrayOutputStream text = new ByteArrayOutputStream(job.script().length + 128);
            for (Map.Entry<String, String> e : job.env().entrySet()) {
                text.writeBytes(("export " + e.getKey() + "=" + ShellQuote.quoteLatin1(e.getValue().getBytes(StandardCharsets.UTF_8)) + "\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
            }
            if (job.stdin() != null) {
                byte[] file = (".brisk-stdin-" + UUID.randomUUID()).getBytes(StandardCharsets.US_ASCII);
                s.put(".".getBytes(StandardCharsets.US_ASCII), file, job.stdin());
                text.writeBytes(("exec <" + ShellQuote.quoteLatin1(file) + "; rm -f -- " + ShellQuote.quoteLatin1(file) + "\n").getBytes(StandardCharsets.ISO_8859_1));
            }
            if (job.cwd() != null) {
                text.writeBytes(("cd -- " + ShellQuote.quoteLatin1(job.cwd().toString().getBytes(StandardCharsets.UTF_8)) + " || exit 1\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
            }
            text.writeBytes(job.script());
            AtomicBoolean timedOut = new AtomicBoolean();
            ScheduledFuture<?> term = null;
            ScheduledFuture<?> kill = null;
            if (job.timeoutNanos() > 0) {
                term = timer.schedule(() -> {
                    timedOut.set(true);
                    s.signal(slot, "15");
                }, job.timeoutNanos(), TimeUnit.NANOSECONDS);
                kill = timer.schedule(() -> s.signal(slot, "9"), job.timeoutNanos() + Math.max(job.killGraceNanos(), 1_000_000),
                        TimeUnit.NANOSECONDS);
            }
            long t0 = System.nanoTime();
            RemoteShell.Result r;
            try {
                r = s.run(slot, n, text.toByteArray(), true);
            } finally {
                if (term != null) {
                    term.cancel(false);
                    kill.cancel(false);
                }
            }
            long nanos = System.nanoTime() - t0;
            long cap = job.maxOutputBytes();
            byte[] out;
            byte[] err;
            long outSize = r.out().size();
            long errSize = r.err().size();
            try (Payload po = r.out(); Payload pe = r.err()) {
                out = po.bytes(cap);
                err = pe.bytes(cap);
            }
            if (job.stdoutSink() != null) {
                job.stdoutSink().write(out);
                job.stdoutSink().flush();
                out = new byte[0];
            }
            if (job.stderrSink() != null) {
                job.stderrSink().write(err);
                job.stderrSink().flush();
                err = new byte[0];
            }
            return new Outcome(r.status(), out, err, timedOut.get(),
                    out.length < outSize && job.stdoutSink() == null, err.length < errSize && job.stderrSink() == null,
                    nanos);
        } finally {
            free.add(slot);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        timer.shutdownNow();
        if (shell != null) {
            shell.close();
        }
    }
}
