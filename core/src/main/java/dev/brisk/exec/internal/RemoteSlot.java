// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.JobArgs;
import dev.brisk.exec.RemoteOptions;
import dev.brisk.exec.Template;
import dev.brisk.exec.TermStep;
import dev.brisk.internal.remote.HostLostException;
import dev.brisk.internal.remote.Payload;
import dev.brisk.internal.remote.RemoteShell;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import dev.brisk.internal.shell.ShellQuote;

/**
 * A slot on a remote host's warm shell ({@link HostLink}): the job's files go there first
 * ({@code --transferfile}), the job runs in the work directory, its output comes back whole, and
 * {@code --return} files come back after it. When the channel ends under a job, {@link #run}
 * throws {@link HostLostException} and the runner gives the job to another slot. See {@link Slot}.
 */
final class RemoteSlot implements Slot {
    private final HostLink link;
    private final int number;
    private final RemoteOptions options;
    private final boolean groups;
    private final java.util.concurrent.atomic.AtomicLong budget;
    private final Path tmpdir;
    private List<byte[]> transfer = List.of();
    private List<byte[]> returns = List.of();
    private Payload out = Payload.empty();
    private Payload err = Payload.empty();
    private volatile RemoteShell current;
    private volatile boolean running;
    private volatile boolean killed;
    private final Object done = new Object();
    /** The jobs sent ahead ({@link Slot.Next}) by job number, and on which shell. */
    private final java.util.Map<Long, RemoteShell.Submitted> queued = new java.util.HashMap<>();
    private RemoteShell queuedOn;
    /** Jobs of this length or more are sent ahead two to a write ({@link #run}). */
    private static final long PAIR_FROM_NANOS = 5_000_000;
    /** The last job's time, from its call to its result: while jobs are queued, about its own run on the host. */
    private long lastNanos;

    /**
     * @param number the slot's number on its host, from 1
     * @param groups run each job in a process group of its own (the run may kill single jobs)
     */
    RemoteSlot(HostLink link, int number, RemoteOptions options, boolean groups, java.util.concurrent.atomic.AtomicLong budget,
               Path tmpdir) {
        this.budget = budget;
        this.tmpdir = tmpdir;
        this.link = link;
        this.number = number;
        this.options = options;
        this.groups = groups;
    }

    @Override
    public String host() {
        return link.name();
    }

    /**
     * Jobs may be sent while this one runs where the host's agent queues them (the Perl one does)
     * and no files travel around the jobs (they would have to between them): three, so that the
     * round trip through the channel and brisk hides behind the slot's jobs even when each takes
     * less than it.
     */
    @Override
    public int queueDepth() {
        RemoteShell s = link.shell();
        return s != null && s.queues() && options.transfer().isEmpty() && options.returns().isEmpty() && !options.cleanup() ? 3 : 0;
    }

    @Override
    public boolean awaitReady(BooleanSupplier finished) {
        return link.awaitUp(finished);
    }

    @Override
    public void prepareJob(JobArgs args) {
        transfer = render(options.transfer(), args);
        returns = render(options.returns(), args);
    }

    private static List<byte[]> render(List<Template> ts, JobArgs args) {
        List<byte[]> r = new ArrayList<>(ts.size());
        for (Template t : ts) {
            r.add(t.render(args, Template.Batching.NONE));
        }
        return r;
    }

    @Override
    public Attempt run(byte[] script, List<List<byte[]>> commands, long seq, Template.Shape shape, byte[] stdin,
                       List<Next> ahead) throws IOException {
        RemoteShell s = link.shell();
        RemoteShell.Submitted early = queued.get(seq);
        if (early != null && queuedOn != s && early.result().isDone() && !early.result().isCompletedExceptionally()) {
            s = queuedOn; // its result came before its host was lost: it ran, and stands
        }
        if (s == null) {
            throw new HostLostException(link.name(), "not connected");
        }
        byte[] wd = link.workdirBase();
        long startMillis = System.currentTimeMillis();
        long t0 = System.nanoTime();
        killed = false;
        current = s;
        try {
            List<byte[]> sent = new ArrayList<>();
            for (byte[] f : transfer) {
                byte[] there = RemoteFiles.remotePath(f, wd);
                s.put(RemoteFiles.dirOf(there), there, Files.readAllBytes(Path.of(new String(f, StandardCharsets.UTF_8))));
                sent.add(there);
            }
            running = true;
            if (queuedOn != s) {
                dropQueued();
                queuedOn = s;
            }
            RemoteShell.Submitted job = queued.remove(seq);
            List<RemoteShell.Job> sending = new ArrayList<>(ahead.size() + 1);
            if (job == null) {
                RemoteShell.Launch how = launch(shape, wd, s.runsInSlotShell());
                sending.add(new RemoteShell.Job(seq, jobText(script, shape, wd, how), how));
            }
            if (s.queues() && s.alive()) {
                // the jobs not yet on the host go in one write with this one: each write is a
                // message through every relay (ssh and sshd, srun and slurmstepd) and a wake-up of
                // the agent. Where jobs take PAIR_FROM or more, a lone one waits while the host
                // holds two others, to go with the next: two jobs a write (3,000 md5sum jobs under
                // --slurm: 27-30% less CPU in srun and slurmstepd). Shorter jobs go at once: the
                // host ran dry while one waited (10,000 echo jobs under --slurm took twice as long)
                List<Next> unsent = new ArrayList<>(ahead.size());
                for (Next n : ahead) {
                    if (!queued.containsKey(n.seq())) {
                        unsent.add(n);
                    }
                }
                boolean hold = sending.isEmpty() && unsent.size() == 1 && ahead.size() - unsent.size() >= 2
                        && lastNanos >= PAIR_FROM_NANOS;
                if (!hold) {
                    for (Next n : unsent) {
                        RemoteShell.Launch how = launch(n.shape(), wd, s.runsInSlotShell());
                        sending.add(new RemoteShell.Job(n.seq(), jobText(n.script(), n.shape(), wd, how), how));
                    }
                }
            }
            if (!sending.isEmpty()) {
                try {
                    List<RemoteShell.Submitted> submitted = s.submitAll(number, sending);
                    int i = 0;
                    if (job == null) {
                        job = submitted.get(i++);
                    }
                    for (; i < submitted.size(); i++) {
                        queued.put(sending.get(i).seq(), submitted.get(i));
                    }
                } catch (HostLostException e) {
                    if (job == null) {
                        throw e;
                    }
                    // this job may still have its result; the jobs ahead go when they come to run
                }
            }
            RemoteShell.Result r = s.await(job);
            synchronized (done) {
                running = false;
                done.notifyAll();
            }
            discardOutput();
            out = r.out();
            err = r.err();
            List<byte[]> fetched = new ArrayList<>();
            if (!returns.isEmpty()) {
                List<byte[]> there = new ArrayList<>();
                for (byte[] f : returns) {
                    there.add(RemoteFiles.remotePath(f, wd));
                }
                List<byte[]> got = s.get(seq, there);
                for (int i = 0; i < returns.size(); i++) {
                    if (got.get(i) != null) {
                        Path local = Path.of(new String(RemoteFiles.localPath(returns.get(i)), StandardCharsets.UTF_8));
                        if (local.getParent() != null) {
                            Files.createDirectories(local.getParent());
                        }
                        Files.write(local, got.get(i));
                    }
                }
                fetched.addAll(there);
            }
            if (options.cleanup()) {
                sent.addAll(fetched);
                s.remove(sent);
            }
            lastNanos = System.nanoTime() - t0;
            return new Attempt(r.status(), 0, killed, startMillis, lastNanos);
        } catch (HostLostException e) {
            dropQueued();
            link.lost(s, e);
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            synchronized (done) {
                running = false;
                done.notifyAll();
            }
            current = null;
        }
    }

    /** Forgets the jobs sent ahead, closing the output of those whose result came. */
    private void dropQueued() {
        for (RemoteShell.Submitted q : queued.values()) {
            q.result().thenAccept(r -> {
                r.out().close();
                r.err().close();
            });
        }
        queued.clear();
    }

    /**
     * How the host starts a job of this shape: in its own process group when single jobs may be
     * killed; in the slot's shell when the job can change nothing there (a pure builtin, a
     * pipeline, one external command) and no work directory is entered first; otherwise in a
     * subshell. A simple external command runs in the slot's shell only where that shell is the
     * slot's own ({@code inSlotShell}, the Perl agent): there dash starts it with vfork, where a
     * subshell costs a full fork (3,000 {@code md5sum} from two dash loops: 10.8 s in the shell,
     * 16.5 s each in a subshell); the {@code sh} agent's subshell execs it instead.
     */
    private RemoteShell.Launch launch(Template.Shape shape, byte[] wd, boolean inSlotShell) {
        if (groups) {
            return RemoteShell.Launch.GROUP;
        }
        if (wd.length > 0) {
            return RemoteShell.Launch.SUBSHELL;
        }
        return switch (shape) {
            case BUILTIN -> RemoteShell.Launch.BUILTIN;
            case PIPELINE -> RemoteShell.Launch.SHELL;
            case EXTERNAL -> inSlotShell ? RemoteShell.Launch.SHELL : RemoteShell.Launch.SUBSHELL;
            case SHELL -> RemoteShell.Launch.SUBSHELL;
        };
    }

    /**
     * The job as the host runs it: in the work directory, created when missing; a simple external
     * command that runs in a subshell or a process group of its own is exec'd in place of that
     * shell, as locally, which saves the host a fork (in the slot's shell it must not be).
     */
    private static byte[] jobText(byte[] script, Template.Shape shape, byte[] wd, RemoteShell.Launch how) {
        if (shape == Template.Shape.EXTERNAL && how != RemoteShell.Launch.SHELL) {
            byte[] text = new byte[script.length + 5];
            System.arraycopy("exec ".getBytes(StandardCharsets.US_ASCII), 0, text, 0, 5);
            System.arraycopy(script, 0, text, 5, script.length);
            script = text;
        }
        if (wd.length == 0) {
            return script;
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream(script.length + wd.length * 2 + 64);
        String q = ShellQuote.quoteLatin1(wd);
        b.writeBytes(("mkdir -p -- " + q + " && cd -- " + q + " || exit 255\n").getBytes(StandardCharsets.ISO_8859_1));
        b.writeBytes(script);
        return b.toByteArray();
    }

    @Override
    public long stdoutSize() {
        return out.size();
    }

    @Override
    public void writeOutput(OutputStream o, OutputStream e) throws IOException {
        out.writeTo(o);
        err.writeTo(e);
    }

    @Override
    public HeldOutput[] holdOutput() throws IOException {
        HeldOutput[] h = {held(out), held(err)};
        discardOutput();
        return h;
    }

    /** In memory as it is, or copied from its file by HeldOutput's rule (memory within the budget, else a file of its own). */
    private HeldOutput held(Payload p) throws IOException {
        if (p.inMemory()) {
            return HeldOutput.of(p.bytes(-1));
        }
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(p.file())) {
            return HeldOutput.copyOf(ch, p.size(), budget, tmpdir);
        }
    }

    @Override
    public void discardOutput() {
        out.close();
        err.close();
        out = Payload.empty();
        err = Payload.empty();
    }

    @Override
    public void terminate(List<TermStep> steps) {
        RemoteShell s = current;
        if (s == null || !running) {
            return;
        }
        killed = true;
        for (TermStep step : steps) {
            synchronized (done) {
                if (!running) {
                    return;
                }
                s.signal(number, Integer.toString(step.signal()));
                long until = System.nanoTime() + step.millis() * 1_000_000L;
                while (running) {
                    long left = until - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    try {
                        done.wait(Math.max(1, left / 1_000_000L));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    @Override
    public void kill() {
        link.kill();
    }

    @Override
    public void close() {
        // the link, shared by the host's slots, is closed by the runner
    }
}
