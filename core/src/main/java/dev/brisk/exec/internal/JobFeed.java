// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.ArgumentSource;
import dev.brisk.exec.ExecException;
import dev.brisk.exec.JobArgs;
import dev.brisk.exec.JobOptions;
import dev.brisk.exec.ResumeMode;
import dev.brisk.exec.Template;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Turns argument tuples into jobs: numbers them, batches them ({@code -n}, {@code -N},
 * {@code -m}, {@code -X}: commands shorter than {@code -s} bytes, as GNU parallel packs them,
 * the last of the input spread evenly over the job slots), and leaves out what a job log says
 * is done. Thread-safe: slots call {@link #next}
 * under its lock.
 */
final class JobFeed {
    /**
     * A job to run: its arguments, for {@code --retry-failed} the logged command to run as is,
     * the attempts it had on hosts that were lost under it ({@code tried}), and with
     * {@code --pipe} its block (its stdin; its one argument is then empty, as GNU parallel's
     * {@code {}} is), else null.
     */
    record Pending(JobArgs args, byte[] command, JobLogFile.Entry logged, int tried, byte[] block, java.util.Set<String> groups) {
        Pending(JobArgs args, byte[] command, JobLogFile.Entry logged) {
            this(args, command, logged, 0, null, null);
        }
    }

    private final ArgumentSource source;
    private final Template template;
    private final JobOptions options;
    private final Map<Long, JobLogFile.Entry> log;
    private final LongConsumer skipped;
    private final ArrayDeque<List<byte[]>> ahead = new ArrayDeque<>();
    private final Iterator<JobLogFile.Entry> retry;
    private boolean exhausted;
    /** With {@link JobOptions#spread}: 0 until the input's end is reached, then the tuples per job (-1: no spreading). */
    private int evenShare;
    private long seq;
    private volatile boolean stopped;
    /** Jobs given to a remote host that went away, to give out again first. */
    private final ArrayDeque<Pending> requeued = new ArrayDeque<>();
    /** Jobs given out and not yet {@link #done}: while any may come back, {@link #next} waits. */
    private int inFlight;
    private boolean mayRequeue;
    /** The input's fault (a command too long): every later call meets it again, no job after it is given out. */
    private ExecException failure;

    JobFeed(ArgumentSource source, Template template, JobOptions options, Map<Long, JobLogFile.Entry> log,
            LongConsumer skipped) {
        this.source = source;
        this.template = template;
        this.options = options;
        this.log = log;
        this.skipped = skipped;
        this.retry = options.resume() == ResumeMode.RETRY_FAILED
                ? log.values().stream().filter(e -> !e.succeeded()).sorted((a, b) -> Long.compare(a.seq(), b.seq())).iterator()
                : null;
    }

    /** Starts no more jobs: {@link #next} returns null from now on. */
    void stop() {
        stopped = true;
        synchronized (this) {
            notifyAll();
        }
    }

    /** Jobs may come back ({@link #requeue}): {@link #next} then waits for those in flight before it says there are none. */
    synchronized void allowRequeue() {
        mayRequeue = true;
    }

    /** A job given out by {@link #next} has ended (counted only where jobs may come back). */
    synchronized void done() {
        inFlight--;
        notifyAll();
    }

    /**
     * A job given out by {@link #next} was lost with its host after {@code tries} attempts there
     * (0: sent ahead, never started): it is given out again, first.
     */
    synchronized void requeue(Pending p, int tries) {
        inFlight--;
        requeued.add(new Pending(p.args(), p.command(), p.logged(), p.tried() + tries, p.block(), p.groups()));
        notifyAll();
    }

    /** Whether no job is left to give out nor in flight (or the feed was stopped). */
    synchronized boolean finished() {
        return stopped || exhausted && ahead.isEmpty() && requeued.isEmpty() && inFlight == 0;
    }

    boolean stopped() {
        return stopped;
    }

    /** The next job, or null when there is none (or the feed was stopped). */
    synchronized Pending next() throws IOException {
        return next(null);
    }

    /**
     * As {@link #next()}, the next job that {@code fits} (a host's slot under {@code --hgrp};
     * null: any job); the jobs read meanwhile that do not fit wait, first, for another slot.
     * Null when none is left that fits, nor in flight.
     */
    synchronized Pending next(java.util.function.Predicate<Pending> fits) throws IOException {
        while (!stopped) {
            Pending p = fits == null ? nextNew() : nextFitting(fits);
            if (!mayRequeue) {
                return p;
            }
            if (p != null) {
                inFlight++;
                return p;
            }
            if (fits == null && !requeued.isEmpty()) {
                continue;
            }
            if (inFlight == 0) {
                return null;
            }
            try {
                wait(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    /** The first job to give out again that fits, else the next from the input that does (setting aside those that do not), else null. */
    private Pending nextFitting(java.util.function.Predicate<Pending> fits) throws IOException {
        for (java.util.Iterator<Pending> it = requeued.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            if (fits.test(p)) {
                it.remove();
                return p;
            }
        }
        for (Pending p; !stopped && (p = nextFresh()) != null; ) {
            if (fits.test(p)) {
                return p;
            }
            requeued.add(p); // another host's
            notifyAll();
        }
        return null;
    }

    /**
     * The next job if one can be given out now, else null: never waits for jobs in flight to
     * come back (the caller's own job may be one of them), for a job queued behind another.
     */
    synchronized Pending nextIfAny() throws IOException {
        if (stopped) {
            return null;
        }
        Pending p = nextNew();
        if (p != null && mayRequeue) {
            inFlight++;
        }
        return p;
    }

    private Pending nextNew() throws IOException {
        if (!requeued.isEmpty()) {
            return requeued.poll();
        }
        return nextFresh();
    }

    /** The next job from the input (or the job log), the jobs to give out again aside. */
    private Pending nextFresh() throws IOException {
        if (failure != null) {
            throw failure;
        }
        try {
            return readFresh();
        } catch (ExecException e) {
            failure = e;
            throw e;
        }
    }

    private Pending readFresh() throws IOException {
        while (!stopped) {
            if (retry != null) {
                if (!retry.hasNext()) {
                    exhausted = true;
                    return null;
                }
                JobLogFile.Entry e = retry.next();
                seq = e.seq();
                return new Pending(JobArgs.single(List.of(), e.seq(), 0), e.command(), e);
            }
            List<List<byte[]>> batch = batch();
            if (batch == null) {
                return null;
            }
            long n = ++seq;
            JobLogFile.Entry logged = log.get(n);
            if (logged != null && (options.resume() == ResumeMode.RESUME
                    || (options.resume() == ResumeMode.RESUME_FAILED && logged.succeeded()))) {
                skipped.accept(n);
                continue;
            }
            if (options.pipe()) {
                // a row's first value is the block (the last row's); the rest, if any, a tuple of the job's arguments
                List<List<byte[]>> args = new ArrayList<>(batch.size());
                for (List<byte[]> t : batch) {
                    args.add(t.size() > 1 && t.get(1) != PipeArguments.ENDED ? t.subList(1, t.size()) : List.of(new byte[0]));
                }
                return new Pending(new JobArgs(args, n, 0), null, logged, 0, batch.getLast().getFirst(), null);
            }
            if (options.remote() != null && options.remote().hostGroups() != null) {
                return HostGroups.pending(batch, n, logged, options);
            }
            // -n 0: the tuple was read, and its values stand for nothing
            return new Pending(new JobArgs(options.noArgs() ? List.of(List.of()) : batch, n, 0), null, logged);
        }
        return null;
    }

    private List<byte[]> read() throws IOException {
        if (!ahead.isEmpty()) {
            return ahead.poll();
        }
        if (exhausted) {
            return null;
        }
        List<byte[]> t = source.next();
        if (t == null) {
            exhausted = true;
        }
        return t;
    }

    private List<List<byte[]>> batch() throws IOException {
        if (options.pipe()) {
            return block();
        }
        boolean batched = options.batching() != Template.Batching.NONE;
        // a limit below the default holds for every job; the default only packs -m/-X batches
        // (a single argument may be far longer than GNU parallel allows: a documented difference)
        boolean bySize = batched || options.maxChars() < JobOptions.DEFAULT_MAX_CHARS;
        int max = options.noArgs() ? 1 : options.maxArgs() > 0 ? options.maxArgs() : batched ? Integer.MAX_VALUE : 1;
        if (evenShare > 0) {
            max = evenShare;
        }
        List<List<byte[]>> batch = new ArrayList<>();
        long length = 0;
        while (batch.size() < max) {
            List<byte[]> t = read();
            if (t == null) {
                break;
            }
            if (bySize) {
                long next = batch.isEmpty() ? length(t) : length + length(t) - emptyLength() + separator();
                if (next >= options.maxChars()) {
                    if (batch.isEmpty()) {
                        throw new ExecException("Command line too long (" + next + " >= " + options.maxChars()
                                + ") at input 0: " + shown(t));
                    }
                    ahead.addFirst(t);
                    break;
                }
                length = next;
            }
            batch.add(t);
        }
        if (options.spread() && evenShare == 0 && atEnd()) {
            // GNU parallel's rule: the job that takes the last of the input spreads it over the
            // slots, and later jobs keep that share
            evenShare = -1;
            if (batch.size() > 1) {
                evenShare = (batch.size() + options.jobs() - 1) / options.jobs();
                while (batch.size() > evenShare) {
                    ahead.addFirst(batch.removeLast());
                }
            }
        }
        return batch.isEmpty() ? null : batch;
    }

    /**
     * {@code --pipe}: the rows of one job, each item its block, cut by
     * {@link dev.brisk.exec.PipeRecords#blocks}; with input sources, the rows up to the one with
     * the block ({@link PipeArguments}).
     */
    private List<List<byte[]>> block() throws IOException {
        List<List<byte[]>> rows = new ArrayList<>(1);
        for (List<byte[]> t; (t = read()) != null; ) {
            rows.add(t);
            if (t.getFirst() != PipeArguments.MORE) {
                break;
            }
        }
        return rows.isEmpty() ? null : rows;
    }

    /** Whether no tuple is left to read (reads one ahead to know). */
    private boolean atEnd() throws IOException {
        if (!ahead.isEmpty()) {
            return false;
        }
        List<byte[]> t = read();
        if (t == null) {
            return true;
        }
        ahead.add(t);
        return false;
    }

    /** The length of {@code args}'s command; 0 for one a Perl expression skips ({@code skip()}). */
    private long lengthOf(JobArgs args) {
        try {
            return template.render(args, options.batching()).length;
        } catch (Template.Skipped skipped) {
            return 0;
        }
    }

    /** The length of the command of a job of {@code t} alone. */
    private long length(List<byte[]> t) {
        return lengthOf(JobArgs.single(t, seq + 1, 1));
    }

    /** The length of a job's command with one tuple of empty values, and what each further tuple adds beyond its values. */
    private long emptyLength = -1;
    private long separator;

    private long emptyLength() {
        if (emptyLength < 0) {
            List<byte[]> empty = java.util.Collections.nCopies(source.width(), new byte[0]);
            emptyLength = lengthOf(JobArgs.single(empty, seq + 1, 1));
            // a further tuple adds its values' length beyond empty ones, and this
            separator = lengthOf(new JobArgs(List.of(empty, empty), seq + 1, 1)) - emptyLength;
        }
        return emptyLength;
    }

    private long separator() {
        emptyLength();
        return separator;
    }

    /** A tuple as GNU parallel's messages show it: its values joined by spaces, at most 50 characters, then "...". */
    private static String shown(List<byte[]> t) {
        StringBuilder b = new StringBuilder();
        for (byte[] v : t) {
            if (!b.isEmpty()) {
                b.append(' ');
            }
            b.append(new String(v, java.nio.charset.StandardCharsets.UTF_8));
        }
        return b.length() > 50 ? b.substring(0, 50) + "..." : b.toString();
    }
}
