package dev.brisk.cli;

import dev.brisk.exec.JobArgs;
import dev.brisk.exec.JobListener;
import dev.brisk.exec.JobResult;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code --bar}/{@code --progress}/{@code --eta}: one status line on a terminal's stderr, redrawn
 * at most five times a second. Thread-safe.
 */
final class Progress implements JobListener {
    private final OutputStream err;
    private final long start = System.nanoTime();
    private final AtomicLong started = new AtomicLong();
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private long lastDraw;

    private Progress(OutputStream err) {
        this.err = err;
    }

    /** A progress line on {@code err}, or null when stderr is not a terminal. */
    static Progress onTerminal(OutputStream err) {
        return System.console() != null && System.console().isTerminal() ? new Progress(err) : null;
    }

    @Override
    public void started(JobArgs job) {
        started.incrementAndGet();
    }

    @Override
    public void finished(JobResult result) {
        done.incrementAndGet();
        if (!result.ok()) {
            failed.incrementAndGet();
        }
        draw(false);
    }

    private synchronized void draw(boolean force) {
        long now = System.nanoTime();
        if (!force && now - lastDraw < 200_000_000L) {
            return;
        }
        lastDraw = now;
        double secs = (now - start) / 1e9;
        String line = String.format("\rbrisk par: %d done, %d failed, %d running, %.1f jobs/s   ", done.get(), failed.get(),
                Math.max(0, started.get() - done.get()), secs > 0 ? done.get() / secs : 0.0);
        try {
            err.write(line.getBytes(StandardCharsets.UTF_8));
            err.flush();
        } catch (IOException ignored) {
            // progress is best effort
        }
    }

    /** Draws the last state and ends the line. */
    void end() {
        draw(true);
        try {
            err.write('\n');
            err.flush();
        } catch (IOException ignored) {
            // best effort
        }
    }
}
