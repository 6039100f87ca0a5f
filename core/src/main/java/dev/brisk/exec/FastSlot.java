package dev.brisk.exec;

import dev.brisk.exec.internal.FastWorker;
import dev.brisk.exec.internal.HeldOutput;
import dev.brisk.shell.internal.ShellSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** A slot on a {@link FastWorker}; replaces the worker when it dies. See {@link Slot}. */
final class FastSlot implements Slot {
    private final ShellSpec spec;
    private final Path tmpdir;
    private final int number;
    private final AtomicLong budget;
    private volatile FastWorker worker;
    private volatile boolean running;
    private volatile boolean killed;

    FastSlot(ShellSpec spec, Path tmpdir, int number, AtomicLong budget) {
        this.spec = spec;
        this.tmpdir = tmpdir;
        this.number = number;
        this.budget = budget;
    }

    @Override
    public Attempt run(byte[] script, long seq, boolean simple) throws IOException {
        FastWorker w = worker;
        if (w == null || !w.alive()) {
            if (w != null) {
                w.close();
            }
            w = FastWorker.start(spec, tmpdir);
            worker = w;
        }
        byte[] text = script;
        if (simple) {
            text = new byte[script.length + 5];
            System.arraycopy("exec ".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, text, 0, 5);
            System.arraycopy(script, 0, text, 5, script.length);
        }
        long startMillis = System.currentTimeMillis();
        long start = System.nanoTime();
        killed = false;
        running = true;
        int exit;
        int signal = 0;
        try {
            exit = w.run(text, seq, number);
            if (simple && exit > 128 && exit < 128 + 65) {
                signal = exit - 128;
                exit = 0;
            }
        } catch (FastWorker.WorkerDiedException e) {
            worker = null;
            w.close();
            exit = e.status() > 128 ? 0 : e.status();
            signal = e.status() > 128 ? e.status() - 128 : 0;
        } finally {
            running = false;
        }
        return new Attempt(exit, signal, killed, startMillis, System.nanoTime() - start);
    }

    @Override
    public long stdoutSize() throws IOException {
        FastWorker w = worker;
        return w == null ? 0 : w.stdout().size();
    }

    @Override
    public void writeOutput(OutputStream out, OutputStream err) throws IOException {
        FastWorker w = worker;
        if (w == null) {
            return;
        }
        long o = w.stdout().size();
        long e = w.stderr().size();
        HeldOutput.copy(w.stdout(), o, out);
        out.flush();
        HeldOutput.copy(w.stderr(), e, err);
        err.flush();
    }

    @Override
    public HeldOutput[] holdOutput() throws IOException {
        FastWorker w = worker;
        if (w == null) {
            return new HeldOutput[] {HeldOutput.empty(), HeldOutput.empty()};
        }
        HeldOutput o = HeldOutput.copyOf(w.stdout(), w.stdout().size(), budget, tmpdir);
        try {
            return new HeldOutput[] {o, HeldOutput.copyOf(w.stderr(), w.stderr().size(), budget, tmpdir)};
        } catch (IOException e) {
            o.close();
            throw e;
        }
    }

    @Override
    public void discardOutput() throws IOException {
        FastWorker w = worker;
        if (w != null && w.alive()) {
            w.reset();
        }
    }

    @Override
    public void terminate(List<TermStep> steps) {
        FastWorker w = worker;
        if (w == null || !running) {
            return;
        }
        killed = true;
        for (TermStep s : steps) {
            if (!running) {
                return;
            }
            w.signalJob(s.signal());
            long until = System.nanoTime() + s.millis() * 1_000_000L;
            while (running && System.nanoTime() < until) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Kills the worker and its job at once: for a JVM on its way out. */
    void kill() {
        FastWorker w = worker;
        if (w != null) {
            w.kill();
        }
    }

    @Override
    public void close() {
        FastWorker w = worker;
        worker = null;
        if (w != null) {
            w.close();
        }
    }
}
