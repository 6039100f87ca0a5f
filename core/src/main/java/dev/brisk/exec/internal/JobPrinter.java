// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.JobArgs;
import dev.brisk.exec.JobControls;
import dev.brisk.exec.JobOptions;
import dev.brisk.exec.JobResult;
import dev.brisk.exec.Template;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Where a run's finished jobs are printed, one whole job at a time under one lock: its
 * {@code -v} line (a {@code -t} line goes to stderr as the job starts), then its stdout and stderr, each line (the
 * {@code -v} line too) prefixed by its {@code --tag}; and
 * GNU parallel's warning for a job its timeout killed. {@code out} may be null (the runner
 * captures output instead): then nothing goes to stdout.
 */
final class JobPrinter {
    private final JobOptions options;
    private final OutputStream out;
    private final OutputStream err;
    private final Object lock;

    JobPrinter(JobOptions options, OutputStream out, OutputStream err, Object lock) {
        this.options = options;
        this.out = out;
        this.err = err;
        this.lock = lock;
    }

    /** The {@code --tag} prefix of {@code args}' lines, with its tab. */
    byte[] tagOf(JobArgs args) {
        byte[] t = options.tag().render(args, options.batching()); // -X: the word holding {} repeated, as in the command
        byte[] withTab = Arrays.copyOf(t, t.length + 1);
        withTab[t.length] = '\t';
        return withTab;
    }

    /** The {@code -v} line of a job whose output streams while it runs, before it starts. */
    void announce(JobResult r) throws IOException {
        if (!options.verbose() || out == null) {
            return;
        }
        synchronized (lock) {
            // as GNU parallel: --line-buffer tags the line, -u prints it as it is
            OutputStream o = options.output() == dev.brisk.exec.OutputMode.UNGROUPED ? out : tagged(out, r);
            prelude(o, r);
            ended(o);
            o.flush();
        }
    }

    /** A finished job whose output its slot still holds. */
    void print(JobResult r, Slot slot) throws IOException {
        synchronized (lock) {
            OutputStream o = tagged(out, r);
            OutputStream e = tagged(err, r);
            prelude(o, r);
            slot.writeOutput(o, e);
            ended(o);
            ended(e);
            o.flush();
            e.flush();
        }
    }

    /** A finished job whose output was held for its turn ({@code -k}). */
    void print(JobResult r, HeldOutput[] output) throws IOException {
        synchronized (lock) {
            OutputStream o = tagged(out, r);
            OutputStream e = tagged(err, r);
            prelude(o, r);
            output[0].writeTo(o);
            ended(o);
            o.flush();
            output[1].writeTo(e);
            ended(e);
            e.flush();
        }
    }

    /** A job's command on stderr as it starts ({@code -t}), a line of its own between whole jobs' output. */
    void trace(byte[] cmd) throws IOException {
        synchronized (lock) {
            err.write(cmd);
            err.write('\n');
            err.flush();
        }
    }

    /**
     * {@code -p}: asks on stderr ({@code CMD ?...}) and reads a line of {@code /dev/tty}; true
     * when it starts with y or Y (after blanks). No terminal, or its end: no.
     */
    boolean ask(byte[] cmd) throws IOException {
        synchronized (lock) {
            err.write(cmd);
            err.write(" ?...".getBytes(StandardCharsets.US_ASCII));
            err.flush();
        }
        try (java.io.InputStream tty = new java.io.FileInputStream("/dev/tty")) {
            java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
            for (int b; (b = tty.read()) >= 0 && b != '\n'; ) {
                line.write(b);
            }
            return line.toString(StandardCharsets.ISO_8859_1).matches("(?s)\\s*[yY].*");
        } catch (java.io.FileNotFoundException e) {
            return false;
        }
    }

    /** GNU parallel's warning for a job its timeout killed, on stderr. */
    void warnTimedOut(byte[] cmd) throws IOException {
        synchronized (lock) {
            err.write("brisk: Warning: This job was killed because it timed out:\nbrisk: Warning: "
                    .getBytes(StandardCharsets.UTF_8));
            err.write(cmd);
            err.write('\n');
            err.flush();
        }
    }

    /** A job that took its host down with it each time it ran: it is not run again. */
    void warnLostTooOften(byte[] cmd, int times) throws IOException {
        synchronized (lock) {
            err.write(("brisk: Warning: This job was lost with its host " + times
                    + " times, and counts as failed (255):\nbrisk: Warning: ").getBytes(StandardCharsets.UTF_8));
            err.write(cmd);
            err.write('\n');
            err.flush();
        }
    }

    /** The {@code -v} line, the first of the job's output on {@code o} (so tagged as its lines are, as GNU parallel's). */
    private void prelude(OutputStream o, JobResult r) throws IOException {
        if (options.verbose() && out != null) {
            o.write(r.command());
            o.write('\n');
        }
    }

    private OutputStream tagged(OutputStream s, JobResult r) {
        JobControls c = options.controls();
        if (c.color() || c.colorFailed()) {
            byte[] color = c.colorFailed() && !r.ok() ? ColorLines.FAILED
                    : c.color() ? ColorLines.ofSequence(r.sequence()) : new byte[0];
            return new ColorLines(s, color, options.tag() == null ? new byte[0] : tagOf(r.args()));
        }
        if (options.tag() == null) {
            return s;
        }
        return new LinePrefixer(s, tagOf(r.args()));
    }

    /** A coloured stream's last line gets its newline, as GNU parallel prints it. */
    private static void ended(OutputStream s) throws IOException {
        if (s instanceof ColorLines c) {
            c.end();
        }
    }
}
