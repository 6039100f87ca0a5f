// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.OutputMode;
import dev.brisk.exec.Template;
import dev.brisk.exec.TermStep;
import dev.brisk.shell.Command;
import dev.brisk.shell.CommandResult;
import dev.brisk.shell.ShellException;
import dev.brisk.shell.ShellPool;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;

/**
 * A slot that streams its jobs' output as it comes ({@code --line-buffer}, {@code -u}), on a
 * shared {@link ShellPool}, whose FIFO protocol delivers output while a job runs. Timeouts use
 * the pool's TERM-then-KILL; a halt closes the pool. With {@code -k} and {@code --line-buffer}
 * the lines go through the run's {@link LineOrder}. See {@link Slot}.
 */
final class StreamSlot implements Slot {
    private final ShellPool pool;
    private final int number;
    private final OutputMode mode;
    private final OutputStream out;
    private final OutputStream err;
    private final Object lock;
    private final Duration timeout;
    private final String slotVariable;
    private final LineOrder order;
    private byte[] tag;
    private long stdoutBytes;

    StreamSlot(ShellPool pool, int number, OutputMode mode, OutputStream out, OutputStream err, Object lock,
               Duration timeout, String slotVariable, LineOrder order) {
        this.slotVariable = slotVariable;
        this.order = order;
        this.pool = pool;
        this.number = number;
        this.mode = mode;
        this.out = out;
        this.err = err;
        this.lock = lock;
        this.timeout = timeout;
    }

    /** The tag for the next job's lines, or null. */
    @Override
    public boolean streamsOutput() {
        return true;
    }

    @Override
    public boolean enforcesTimeout() {
        return timeout != null;
    }

    @Override
    public void tag(byte[] t) {
        tag = t;
    }

    @Override
    public Attempt run(byte[] script, List<List<byte[]>> commands, long seq, Template.Shape shape, byte[] stdin, List<Next> ahead) throws IOException {
        if (stdin != null) {
            // the block through a pipe, as GNU parallel's jobs read it (test -p /dev/stdin), not the pool's input file
            try (StdinPipe feed = new StdinPipe(stdin)) {
                byte[] redirected = ("exec <" + feed.path() + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                byte[] text = java.util.Arrays.copyOf(redirected, redirected.length + script.length);
                System.arraycopy(script, 0, text, redirected.length, script.length);
                return run(text, seq);
            }
        }
        return run(script, seq);
    }

    /** Runs {@code script} on the pool, its output passed on as it comes. */
    private Attempt run(byte[] script, long seq) throws IOException {
        Sink o = new Sink(out, seq);
        Sink e = new Sink(err, seq);
        Command c = Command.of(script).env("PARALLEL_SEQ", Long.toString(seq))
                .env("PARALLEL_JOBSLOT", Integer.toString(number))
                .env(slotVariable, Integer.toString(number - 1))
                .stdoutTo(tag == null ? o : new LinePrefixer(o, tag))
                .stderrTo(tag == null ? e : new LinePrefixer(e, tag));
        if (timeout != null) {
            c = c.timeout(timeout);
        }
        long startMillis = System.currentTimeMillis();
        long start = System.nanoTime();
        try {
            CommandResult r = pool.run(c);
            o.end();
            e.end();
            stdoutBytes = o.count;
            return new Attempt(r.timedOut() ? -1 : r.exitCode(), r.timedOut() ? 15 : 0, r.timedOut(), startMillis,
                    System.nanoTime() - start);
        } catch (ShellException | IllegalStateException ex) {
            if (o.failed != null || e.failed != null) {
                // brisk's own output failed (a full disk): the run's error, as grouped output's is
                throw o.failed != null ? o.failed : e.failed;
            }
            o.end();
            e.end();
            stdoutBytes = o.count;
            return new Attempt(-1, 9, true, startMillis, System.nanoTime() - start);
        }
    }

    @Override
    public long stdoutSize() {
        return stdoutBytes;
    }

    @Override
    public void writeOutput(OutputStream o, OutputStream e) {}

    @Override
    public HeldOutput[] holdOutput() {
        return new HeldOutput[] {HeldOutput.empty(), HeldOutput.empty()};
    }

    @Override
    public void discardOutput() {}

    @Override
    public void terminate(List<TermStep> steps) {}

    @Override
    public void close() {}

    /** Passes bytes on: whole lines under the shared lock ({@code --line-buffer}), or at once ({@code -u}). */
    private final class Sink extends OutputStream {
        private final OutputStream target;
        private final long seq;
        private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
        long count;
        /** The error of a write to {@code target}, which stops the command. */
        IOException failed;

        Sink(OutputStream target, long seq) {
            this.target = target;
            this.seq = seq;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                pass(b, off, len);
            } catch (IOException x) {
                failed = x;
                throw x;
            }
        }

        private void pass(byte[] b, int off, int len) throws IOException {
            count += len;
            if (mode == OutputMode.UNGROUPED) {
                synchronized (lock) {
                    target.write(b, off, len);
                    target.flush();
                }
                return;
            }
            int lastNewline = -1;
            for (int i = off + len - 1; i >= off; i--) {
                if (b[i] == '\n') {
                    lastNewline = i;
                    break;
                }
            }
            if (lastNewline < 0) {
                partial.write(b, off, len);
                return;
            }
            synchronized (lock) {
                if (order != null) {
                    if (partial.size() > 0) {
                        order.write(seq, target, partial.toByteArray(), 0, partial.size());
                    }
                    order.write(seq, target, b, off, lastNewline + 1 - off);
                } else {
                    partial.writeTo(target);
                    target.write(b, off, lastNewline + 1 - off);
                    target.flush();
                }
            }
            partial.reset();
            partial.write(b, lastNewline + 1, off + len - lastNewline - 1);
        }

        void end() throws IOException {
            if (partial.size() > 0) {
                synchronized (lock) {
                    if (order != null) {
                        order.write(seq, target, partial.toByteArray(), 0, partial.size());
                    } else {
                        partial.writeTo(target);
                        target.flush();
                    }
                }
                partial.reset();
            }
        }
    }
}
