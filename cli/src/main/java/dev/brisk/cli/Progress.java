// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import dev.brisk.exec.JobArgs;
import dev.brisk.exec.JobListener;
import dev.brisk.exec.JobResult;
import dev.brisk.internal.posix.Libc;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code --progress}, {@code --eta} and {@code --bar} on stderr, in GNU parallel's formats (its
 * {@code progress()} and {@code bar()}): a "Computers / CPU cores / Max jobs to run" header, then
 * a {@code local:RUNNING/DONE/PCT%/AVGs} line redrawn after {@code \r} (prefixed with
 * {@code ETA: Ns Left: N AVG: N.NNs} for {@code --eta}), or for {@code --bar} a zenity line
 * ({@code #   ETA sec ARG}), the percentage, and a reverse-video bar as wide as the terminal.
 * As GNU parallel, it draws whether or not stderr is a terminal, as wide as the controlling
 * terminal (80 columns without one). Redrawn on job events at most five times a second and once
 * a second by a daemon ticker thread; the caller calls {@link #end} once the run is over, which
 * draws the final state, ends the line and stops the ticker. Thread-safe.
 */
final class Progress implements JobListener {
    /** Which of GNU parallel's displays. */
    enum Mode { PROGRESS, ETA, BAR }

    private static final String REV = "\033[7m", RESET = "\033[0m";

    private final OutputStream err;
    private final Mode mode;
    private final long total;
    private final int maxJobs;
    private final long startNanos = System.nanoTime();
    private final Thread ticker;
    private long started;
    private long done;
    private String newestArg = "";
    private boolean headerShown;
    private boolean ended;
    private long lastDraw;
    private long firstDoneNanos;
    private double smoothedAvg;
    private long lastEta;

    /**
     * Starts drawing: prints the computers header for {@code --progress}/{@code --eta} now.
     *
     * @param total the number of jobs the run will start, or -1 when unknown (then the jobs
     *     started so far count as the total, as the ETA and bar need one)
     */
    Progress(OutputStream err, Mode mode, long total, int maxJobs) {
        this.err = err;
        this.mode = mode;
        this.total = total;
        this.maxJobs = maxJobs;
        if (mode != Mode.BAR) {
            write("\nComputers / CPU cores / Max jobs to run\n1:local / "
                    + Runtime.getRuntime().availableProcessors() + " / " + maxJobs + "\n");
        }
        ticker = Thread.ofPlatform().daemon().name("brisk-par-progress").unstarted(this::tick);
        ticker.start();
    }

    @Override
    public synchronized void started(JobArgs job) {
        started++;
        newestArg = argText(job);
        draw(false);
    }

    @Override
    public synchronized void finished(JobResult result) {
        done++;
        if (firstDoneNanos == 0) {
            firstDoneNanos = System.nanoTime();
        }
        draw(false);
    }

    /** Draws the last state and ends the line. */
    synchronized void end() {
        ended = true;
        ticker.interrupt();
        write("\r" + status() + "\n");
    }

    private void tick() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(1000);
                synchronized (this) {
                    if (ended) {
                        return;
                    }
                    draw(true);
                }
            }
        } catch (InterruptedException e) {
            // end() stops the ticker
        }
    }

    private void draw(boolean force) {
        long now = System.nanoTime();
        if (ended || (!force && now - lastDraw < 200_000_000L)) {
            return;
        }
        lastDraw = now;
        write("\r" + status());
    }

    private String status() {
        if (mode == Mode.BAR) {
            return bar();
        }
        String eta = "";
        if (mode == Mode.ETA) {
            Eta e = eta();
            eta = String.format("ETA: %ds Left: %d AVG: %.2fs  ", e.eta, e.left, e.avg);
        }
        if (!headerShown && started > 0) {
            headerShown = true;
            write("\nComputer:jobs running/jobs completed/%of started jobs/Average seconds to complete\n");
        }
        int cols = columns();
        // a short job may be queued on its shell before the slot's last job ends, and with -k
        // jobs are reported done in input order: neither shows more running than the slots
        long running = Math.clamp(started - done, 0, maxJobs);
        long pct = 100; // this computer's share of the started jobs: the only computer has them all
        double secs = (System.nanoTime() - startNanos) / 1e9;
        // GNU parallel's formats, longest first, until one fits the terminal
        List<String> forms = started == 0 ? List.of("0") : List.of(
                String.format("local:%d/%d/%d%%/%.1fs ", running, done, pct, done > 0 ? secs / done : 0.0),
                String.format("1:%d/%d/%d%%/%.1fs ", running, done, pct, done > 0 ? secs / done : 0.0),
                String.format("local:%d/%d/%d%%", running, done, pct),
                String.format("1:%d/%d/%d%%", running, done, pct),
                String.format("local:%d/%d", running, done),
                String.format("1:%d/%d", running, done),
                String.format("local:%d", done),
                String.format("1:%d", done));
        for (String f : forms) {
            if ((eta + f).length() <= cols) {
                return eta + f;
            }
        }
        return eta + forms.getLast();
    }

    private String bar() {
        Eta e = eta();
        int width = columns();
        String text = String.format("%d%% %d:%d=%s %s", (long) (e.pct * 100), done, e.left, timeUnits(e.eta), newestArg);
        StringBuilder s = new StringBuilder(fit(text, width));
        s.insert((int) (width * e.pct), RESET);
        String zenity = fit("#   " + e.eta + " sec " + newestArg, width);
        return "\r" + zenity + "\r" + perlNumber(e.pct * 100) + "\r" + REV + s + RESET;
    }

    private record Eta(long left, double pct, double avg, long eta) {}

    /** GNU parallel's compute_eta: a smoothed average job time times the jobs left. */
    private Eta eta() {
        long all = Math.max(total >= 0 ? total : started, done);
        long left = all - done;
        if (done == 0) {
            return new Eta(left, 0, 0, 0);
        }
        double pct = Math.min((double) done / all, 100);
        double avg = (System.nanoTime() - firstDoneNanos) / 1e9 / done;
        if (smoothedAvg == 0) {
            smoothedAvg = avg;
        }
        smoothedAvg = (1 - pct) * smoothedAvg + pct * avg;
        long eta = (long) (left * smoothedAvg);
        if (eta * 0.90 < lastEta && lastEta < eta) {
            eta = lastEta; // a jump of under 10% up: keep the last one, so it does not flicker
        } else {
            lastEta = eta;
        }
        return new Eta(left, pct, avg, eta);
    }

    private static String fit(String text, int width) {
        String t = text.length() > width ? text.substring(0, width) : text;
        return t + " ".repeat(width - t.length());
    }

    private static String argText(JobArgs job) {
        StringBuilder b = new StringBuilder();
        for (List<byte[]> tuple : job.tuples()) {
            for (byte[] v : tuple) {
                if (!b.isEmpty()) {
                    b.append(' ');
                }
                b.append(new String(v, StandardCharsets.UTF_8).replace('\n', ' '));
            }
        }
        return b.toString();
    }

    /** GNU parallel's seconds_to_time_units: 5s, 1m05s, 2h01m05s, 1d02h01m05s. */
    static String timeUnits(long s) {
        long d = s / 86400, h = s % 86400 / 3600, m = s % 3600 / 60, sec = s % 60;
        if (d > 0) {
            return String.format("%dd%02dh%02dm%02ds", d, h, m, sec);
        } else if (h > 0) {
            return String.format("%dh%02dm%02ds", h, m, sec);
        } else if (m > 0) {
            return String.format("%dm%02ds", m, sec);
        }
        return sec + "s";
    }

    /** A number as Perl prints it (15 significant digits, no trailing zeros): 0, 20, 33.3333333333333. */
    static String perlNumber(double v) {
        if (v == Math.rint(v)) {
            return Long.toString((long) v);
        }
        return new BigDecimal(v).round(new MathContext(15)).stripTrailingZeros().toPlainString();
    }

    private void write(String text) {
        try {
            err.write(text.getBytes(StandardCharsets.UTF_8));
            err.flush();
        } catch (IOException ignored) {
            // progress is best effort
        }
    }

    private static final int O_RDONLY_NOCTTY_CLOEXEC = 0 | 0400 | 02000000;

    /**
     * The columns of the controlling terminal (/dev/tty, as GNU parallel asks {@code tput}),
     * else of stderr, else 80. A warm server's client: of its stderr (the server has no
     * terminal), else 80.
     */
    private static int columns() {
        dev.brisk.internal.posix.Caller caller = dev.brisk.internal.posix.Caller.current();
        int cols = 0;
        if (caller.self()) {
            int tty = Libc.openOrErrno("/dev/tty".getBytes(StandardCharsets.US_ASCII), O_RDONLY_NOCTTY_CLOEXEC, 0);
            if (tty >= 0) {
                cols = columns(tty);
                Libc.close(tty);
            }
        }
        if (cols <= 0) {
            cols = columns(caller.stderr());
        }
        return cols > 0 ? cols : 80;
    }

    private static int columns(int fd) {
        int[] size = Libc.windowSize(fd);
        return size == null ? 0 : size[0];
    }
}
