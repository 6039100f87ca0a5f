// SPDX-License-Identifier: Apache-2.0
package dev.brisk.exec.internal;

import dev.brisk.exec.ArgumentSource;
import dev.brisk.exec.ExecException;
import dev.brisk.exec.Halt;
import dev.brisk.exec.JobArgs;
import dev.brisk.exec.JobControls;
import dev.brisk.exec.JobListener;
import dev.brisk.exec.JobOptions;
import dev.brisk.exec.JobResult;
import dev.brisk.exec.OutputMode;
import dev.brisk.exec.ResumeMode;
import dev.brisk.exec.RunSummary;
import dev.brisk.internal.shell.ShellQuote;
import dev.brisk.exec.Template;
import dev.brisk.internal.posix.Caller;
import dev.brisk.internal.posix.DescriptorOutput;
import dev.brisk.internal.posix.Flags;
import dev.brisk.internal.posix.Libc;
import dev.brisk.internal.posix.PosixException;
import dev.brisk.internal.remote.HostLostException;
import dev.brisk.internal.shell.ShellSpec;
import dev.brisk.shell.ShellPool;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One run of a {@link dev.brisk.exec.JobRunner}: its state, shared by its slot threads (slots
 * and their threads, remote hosts, ordering, retries, timeouts, the job log), which ties the
 * engine's parts together: the halt policy is {@link HaltPolicy}, printing {@link JobPrinter},
 * pacing {@link Pacing}, the remote hosts {@link Hosts}; {@link Slot} answers what the run used
 * to ask by type. Over 500 lines because those ties are the run itself.
 */
public final class JobRun {
    /** The number a rendered {@code --retries} starts with, as Perl reads it (up to 9 digits). */
    private static final java.util.regex.Pattern LEADING_COUNT = java.util.regex.Pattern.compile("^\\+?([0-9]{1,9})");
    /** How often a running job's runtime is held against {@code --timeout P%}'s limit. */
    private static final long PERCENT_TIMEOUT_CHECK_MILLIS = 20;
    /** Jobs shorter than this (median) get the next job queued behind them on their shell. */
    private static final long QUEUE_BELOW_MILLIS = 50;
    /** How many times a job may be lost with its host, without {@code --retries}, before it counts as failed. */
    private static final int LOST_LIMIT = 3;
    private static final long MEMORY_BUDGET = Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 4);
    /** With -k, finished jobs beyond this many waiting for their turn are spilled to a file. */
    public static final int HELD_IN_MEMORY = 4096;

    private final JobOptions options;
    private final Template template;
    /** {@code --filter}'s expressions, or null. */
    private final JobFilter filter;
    /** The runner's streams, as given. */
    private final OutputStream givenOut;
    private final OutputStream givenErr;
    private final JobListener listener;
    private final int heldInMemory;
    private final ArgumentSource source;
    /** Whose run this is: its environment, and the exit hooks that stop it (a direct run's shutdown hooks). */
    private final Caller caller = Caller.current();
    private final Object outLock = new Object();
    /** Standard output's jobs gathered into fewer writes, or null: see {@link #batched()}. */
    private final BatchedOutput batched;
    /** Where this run prints: the runner's streams, or the batched pair over them. */
    private final OutputStream out;
    private final OutputStream err;
    private final AtomicLong budget = new AtomicLong(MEMORY_BUDGET);
    private final AtomicLong started = new AtomicLong();
    /** GNU's {@code $Global::total_completed}: the jobs done, and those a resumed job log holds. */
    private final AtomicLong completed = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicInteger busy = new java.util.concurrent.atomic.AtomicInteger();
    private final RunningMedian median = new RunningMedian();
    private final AtomicReference<String> fatal = new AtomicReference<>();

    /** Whether our standard output is a pipe whose reader has gone (when {@code out} writes to it). */
    private boolean outputClosed() {
        int fd = descriptorNumber(givenOut);
        return fd >= 0 && Libc.readerGone(fd);
    }
    private final List<Slot> slots = java.util.Collections.synchronizedList(new ArrayList<>());
    private final List<Thread> threads = new ArrayList<>();
    /** Set by {@link #stop} (the runner's {@code stop}): no job starts. */
    private volatile boolean stopped;
    /** The status a Perl expression's {@code exit} ended the run with, else -1: no job is printed or logged after it. */
    private volatile int exited = -1;
    /** Set once slots start: a host's slots that come later start at once. */
    private volatile boolean live;
    /** The remote hosts of {@code -S}, or null. */
    private final Hosts hosts;
    /** Whether the template can run without a shell: a simple external command or a pipeline of them. */
    private final boolean simple;
    /** The shape the template's jobs run as: see {@link #jobShape()}. */
    private final Template.Shape shape;
    /** -j, or fewer when the input has fewer tuples. */
    private final int jobs;
    /** The input says it makes one job. */
    private final boolean oneJob;
    private final ResultsDir results;
    private final InputOrder<Held> ordered;
    /** {@code -k --line-buffer}: the live job's lines as they come, later jobs' held (null otherwise). */
    private final LineOrder lineOrder;
    private JobFeed feed;
    private JobLogFile joblog;
    private ShellPool pool;
    /** The caller's exported bash functions as bash text that defines them, run before each local job under bash (empty: none). */
    private byte[] functions = new byte[0];
    private ScheduledExecutorService timer;
    private final HaltPolicy haltPolicy;
    private final JobPrinter printer;
    /** With -k, a job cut by the halt has been reached: later jobs' output is not printed. */
    private boolean stalled;
    private Pacing pacing;

    /**
     * A run of {@code template}'s jobs over {@code source} as {@code options} say, printing to
     * {@code out} and {@code err} ({@code out == null}: captured into the results), reporting
     * each job to {@code listener}; {@code heldInMemory} finished jobs wait in memory with {@code -k} before the
     * rest spill. It belongs to the calling thread's {@code Caller}.
     */
    public JobRun(JobOptions options, Template template, OutputStream out, OutputStream err, JobListener listener,
                  int heldInMemory, ArgumentSource source) {
        this.options = options;
        this.template = template;
        this.filter = options.filters().isEmpty() ? null : new JobFilter(options.filters());
        this.givenOut = out;
        this.givenErr = err;
        this.listener = listener;
        this.heldInMemory = heldInMemory;
        this.batched = batched();
        this.out = batched != null ? batched : out;
        this.err = batched != null ? batched.follower(err) : err;
        this.haltPolicy = new HaltPolicy(options.halt());
        this.printer = new JobPrinter(options, this.out, this.err, outLock);
        this.source = source;
        long most = source.maxTuples();
        if (most >= 0 && options.halt().percent() > 0 && options.batching() == Template.Batching.NONE) {
            // --halt P%: a share of all the jobs, as GNU parallel's (which reads all input first)
            long per = Math.max(1, options.maxArgs());
            haltPolicy.total((most + per - 1) / per);
        }
        // no more slots (threads, shells) than jobs, when the input says how many there are
        this.jobs = most < 0 ? options.jobs() : (int) Math.max(1, Math.min(options.jobs(), most));
        this.oneJob = most == 1;
        this.hosts = options.remote() == null ? null : new Hosts(options.remote(), err, outLock, budget, options.tmpdir());
        this.simple = template.isSimpleExternalCommand() || template.isExternalPipeline();
        this.shape = jobShape();
        this.results = options.results() == null ? null : new ResultsDir(options.results(), options.controls().resultsColumns());
        this.ordered = options.keepOrder() && options.resume() != ResumeMode.RETRY_FAILED
                && (options.output() == OutputMode.GROUP || options.output() == OutputMode.LINE_BUFFER)
                ? new InputOrder<>(this::emitHeld, new HeldCodec(), heldInMemory, options.tmpdir()) : null;
        this.lineOrder = ordered != null && options.output() == OutputMode.LINE_BUFFER ? new LineOrder(printOut()) : null;
    }

    /**
     * The template's shape, except that a pipeline with a builtin in it runs in a subshell
     * when brisk may kill jobs ({@code --timeout}, {@code --halt now}): without one it runs in
     * the warm shell itself, which survives the kill and reports it ("Terminated") on the
     * job's stderr, where GNU parallel's killed jobs show nothing. The subshell dies with
     * the job, and the shell's report goes to its own discarded stderr.
     */

    private Template.Shape jobShape() {
        boolean killable = options.timeout() != null || options.timeoutPercent() > 0
                || options.halt().when() == Halt.When.NOW;
        return template.shape() == Template.Shape.PIPELINE && killable ? Template.Shape.SHELL : template.shape();
    }

    /** Runs the jobs; the batched output is written out and ended on every way out. */
    public RunSummary go() throws IOException {
        RunSummary s;
        // a signal's exit writes what waits (the jobs' hook kills them; this one outlives it
        // through the -k drain at the end)
        Thread syncHook = batched == null ? null : new Thread(this::syncAtExit, "brisk-par-output");
        if (syncHook != null) {
            caller.addExitHook(syncHook);
        }
        try {
            s = runJobs();
        } finally {
            endOutput();
            if (syncHook != null) {
                caller.removeExitHook(syncHook); // false: it is running or has run
            }
        }
        if (exited >= 0) {
            throw ExecException.exited(exited);
        }
        if (fatal.get() != null) {
            throw new ExecException(fatal.get(), outputClosed());
        }
        return s;
    }

    private RunSummary runJobs() throws IOException {
        Map<Long, JobLogFile.Entry> log = options.resume() != ResumeMode.NONE
                ? JobLogFile.read(options.joblog()) : Map.of();
        if (options.resume() == ResumeMode.RETRY_FAILED && err != null
                && log.values().stream().anyMatch(e -> !e.succeeded() && holdsNewline(e.command()))) {
            // GNU parallel's words: it reads the logged commands back at NUL, as the log writes their newlines
            err.write("brisk par: Warning: Command lines contain newline. Forcing --null.\n".getBytes(StandardCharsets.UTF_8));
            err.flush();
        }
        if (template.usesPerl()) {
            completed.set(options.resume() == ResumeMode.RESUME ? log.size()
                    : log.values().stream().filter(JobLogFile.Entry::succeeded).count());
            template.perlCompleted(completed.get());
        }
        feed = new JobFeed(source, template, options, log, seq -> {
            if (ordered != null) {
                ordered.skip(seq);
            }
        });
        if (options.dryRun()) {
            // (before allowRequeue: a feed that may take jobs back ends only when each is done)
            return dryRun();
        }
        if (hosts != null) {
            feed.allowRequeue(); // before any slot takes a job, so every job given out is counted
        }
        JobFeed f = feed;
        pacing = new Pacing(options, f::stopped, this::stopYoungest);
        if (options.joblog() != null) {
            joblog = JobLogFile.open(options.joblog(), options.resume() != ResumeMode.NONE,
                    out == null ? OutputStream.nullOutputStream() : out);
        }
        ShellSpec spec;
        try {
            spec = ShellSpec.resolve(options.shell(), caller.environment());
        } catch (IllegalArgumentException e) {
            throw new ExecException(e.getMessage());
        }
        functions = spec.bash() ? ShellSpec.exportedFunctions(caller.environment()) : new byte[0];
        timer = Executors.newScheduledThreadPool(Math.min(jobs, 8), r -> {
            Thread t = new Thread(r, "brisk-par-timer");
            t.setDaemon(true);
            return t;
        });
        if (options.controls().limit() != null) {
            Pacing p = pacing;
            timer.scheduleWithFixedDelay(() -> {
                if (!running.isEmpty()) {
                    p.checkLimit();
                }
            }, LIMIT_CHECK_MILLIS, LIMIT_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        }
        if (options.output() != OutputMode.GROUP) {
            ShellPool.Builder b = ShellPool.builder().workers(jobs).shell(options.shell()).environment(caller.environment())
                    .killGrace(Duration.ofMillis(options.termSeq().getFirst().millis()));
            Integer nice = options.controls().nice();
            if (nice != null) {
                b.niceness(Math.clamp(nice, -20, 19));
            }
            pool = b.build();
        }
        Spawner spawner = options.directExec() && simple ? new Spawner(caller.environment(), options.slotVariable()) : null;
        // one job of shell code: its shell runs it (sh -c), with no warm shell to start for it
        // and every --pipe job that is no simple command: its own shell, its stdin the pipe of its block
        boolean pipeShell = options.pipe() && !template.isSimpleExternalCommand();
        Spawner oneShell = (oneJob && !simple || pipeShell) && options.directExec() && pool == null && hosts == null
                ? new Spawner(spec.environment(), options.slotVariable()) : null;
        int local = hosts == null ? jobs : hosts.localSlots(options.jobs());
        if (options.pipe() && hosts == null) {
            local = Math.min(local, slotsWithinDescriptorLimit());
        }
        for (int i = 1; i <= local; i++) {
            if (pool == null) {
                SpawnSlot s = new SpawnSlot(spec, options.tmpdir(), i, budget, spawner, oneShell, options.slotVariable());
                s.nice(options.controls().nice());
                slots.add(s);
            } else {
                slots.add(new StreamSlot(pool, i, options.output(), printOut(), err, outLock, options.timeout(), options.slotVariable(),
                        lineOrder));
            }
        }
        Thread hook = new Thread(this::killAll, "brisk-par-shutdown");
        caller.addExitHook(hook);
        if (caller.signal() != 0 || stopped) {
            killAll(); // a client's signal (or a stop) came before the hook: the server ran the hooks it had
        }
        try {
            if (!slots.isEmpty() && slots.getFirst() instanceof SpawnSlot first) {
                try {
                    first.prepare(); // its shell (if its jobs need one) starts while the slot threads do
                } catch (IOException e) {
                    // the slot's own prepare says so
                }
            }
            // one local slot (a one-job run): its loop runs on this thread, which has nothing
            // else to do meanwhile (a thread's start is a few percent of such a run)
            boolean inline = hosts == null && slots.size() == 1;
            if (!inline) {
                for (Slot s : List.copyOf(slots)) {
                    startSlot(s);
                }
            }
            if (hosts != null) {
                live = true;
                hosts.start(killable(), this::addSlot);
            }
            if (hosts != null) {
                hosts.watch(feed::finished, this::addSlot);
            }
            if (inline) {
                loop(slots.getFirst(), 1);
                if (Thread.currentThread().isInterrupted()) {
                    killAll(); // as the join below does when interrupted
                }
            }
            for (int joined = 0; ; joined++) {
                Thread t;
                synchronized (threads) {
                    // with an sshlogin file, hosts may come while jobs are left
                    while (joined == threads.size() && hosts != null && hosts.watching() && !feed.finished()) {
                        threads.wait(200);
                    }
                    if (joined == threads.size()) {
                        break;
                    }
                    t = threads.get(joined);
                }
                t.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            killAll();
        } finally {
            caller.removeExitHook(hook); // false: it is running or has run, and kills the jobs
            for (Slot s : slots) {
                s.close();
            }
            if (hosts != null) {
                hosts.close();
            }
            if (pool != null) {
                pool.close();
            }
            if (filter != null) {
                filter.close();
            }
            timer.shutdownNow();
            if (ordered != null) {
                try {
                    ordered.drainAll();
                    if (lineOrder != null) {
                        synchronized (outLock) {
                            lineOrder.flushAll();
                        }
                    }
                } finally {
                    ordered.close();
                }
            }
            if (joblog != null) {
                try {
                    joblog.close();
                } catch (IOException e) {
                    fatal.compareAndSet(null, "cannot write the joblog: " + e.getMessage());
                }
            }
        }
        synchronized (this) {
            return new RunSummary(started.get(), haltPolicy.failed(), haltPolicy.halted(), haltPolicy.status());
        }
    }

    /**
     * A {@link BatchedOutput} over the runner's standard output when it prints whole jobs
     * ({@code --group}, the default) into a pipe or socket (where each write wakes a reader),
     * with standard error a file descriptor too. A file or /dev/null gains nothing from it.
     */
    private BatchedOutput batched() {
        int fd = descriptorNumber(givenOut);
        if (options.output() != OutputMode.GROUP || options.results() != null || fd < 0
                || descriptorNumber(givenErr) < 0 || !Libc.wakesReader(fd)) {
            return null;
        }
        return new BatchedOutput(givenOut);
    }

    /** Writes what the batched output holds and ends its flusher; a failure ends the run as a failed print does. */
    private void endOutput() {
        if (batched == null) {
            return;
        }
        try {
            batched.close();
        } catch (IOException e) {
            fatal.compareAndSet(null, "cannot write output: " + e.getMessage());
        }
    }

    /**
     * At a signal's exit: what the batched output holds goes out, unless the write blocks (a
     * full pipe whose reader stopped reading) for longer than 200 ms.
     */
    private void syncAtExit() {
        Thread t = Thread.ofPlatform().daemon().name("brisk-par-exit-flush").start(() -> DescriptorOutput.atExit(() -> {
            try {
                batched.sync();
            } catch (IOException e) {
                // the reader has gone: nothing to save
            }
        }));
        try {
            t.join(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts a thread for {@code s}, numbered after the slots before it. */
    private void startSlot(Slot s) {
        synchronized (threads) {
            int number = threads.size() + 1;
            Thread t = new Thread(() -> loop(s, number), "brisk-par-slot-" + number);
            threads.add(t);
            t.start();
        }
    }

    /** A slot of a host that came up during the run. */
    private void addSlot(Slot s) {
        synchronized (slots) {
            slots.add(s);
        }
        if (live) {
            startSlot(s);
        }
    }

    /** Whether brisk may kill single jobs (their timeout, {@code --halt now}). */
    private boolean killable() {
        return options.timeout() != null || options.timeoutPercent() > 0 || options.halt().when() == Halt.When.NOW;
    }

    private OutputStream printOut() {
        return out == null ? OutputStream.nullOutputStream() : out;
    }

    private RunSummary dryRun() throws IOException {
        long n = 0;
        long filtered = 0;
        for (JobFeed.Pending p; (p = feed.next()) != null; ) {
            byte[] cmd;
            try {
                cmd = p.command() != null ? p.command() : template.render(p.args().inSlot(1), options.batching());
            } catch (Template.Skipped skipped) {
                continue;
            }
            for (int q = 0; q < options.shellQuote(); q++) {
                cmd = ShellQuote.quoteAsParallel(cmd);
            }
            if (options.trace()) {
                printer.trace(cmd);
            }
            OutputStream o = printOut();
            o.write(cmd);
            o.write('\n');
            o.flush(); // each line as a job's end: a slow input's lines are not held back
            n++;
            if (filter != null && p.command() == null && !filter.holds(p.args().inSlot(1), options.batching())) {
                filtered++; // as GNU parallel: printed, and counted as failed
            }
        }
        return new RunSummary(n, filtered, false, 0);
    }

    /**
     * Whether a slot may queue its next job on its worker while one runs (so the worker never
     * waits for Java between jobs): only for plain runs, where no job's fate (retries,
     * timeouts, halting, pacing, resuming) is decided between one job's end and the next start.
     * Each slot says how many it takes ({@link Slot#queueDepth}): none where it starts a simple
     * command itself, without a shell (this rule once stood here for every slot, and a remote
     * host's agent then waited a round trip to brisk between every two {@code md5sum} jobs).
     */
    private boolean pipelining() {
        return pool == null && options.retries() <= 1 && options.controls().retries() == null && !options.trace()
                && options.timeout() == null && options.timeoutPercent() == 0
                && options.halt().when() == Halt.When.NEVER && options.delay().isZero()
                && options.maxLoad() == 0 && options.memFree() == 0 && options.resume() == ResumeMode.NONE
                && !options.pipe() && options.filters().isEmpty()
                && (options.remote() == null || options.remote().hostGroups() == null)
                && !options.controls().interactive() && !options.controls().gatesStarts()
                && options.controls().files().isEmpty();
    }

    /**
     * Queue a next job only while every slot is busy (so no slot is left idle for it) and jobs
     * are short (median under {@value #QUEUE_BELOW_MILLIS} ms over at least 3 jobs), where the
     * round trip saved matters and a job queued behind a slow one waits little.
     */
    private boolean worthQueueing() {
        return busy.get() >= (hosts == null ? jobs : slots.size()) && median.count() >= 3
                && median.median() < QUEUE_BELOW_MILLIS * 1_000_000L;
    }

    /**
     * The next job for slot {@code number} (on {@code slot}'s host: under {@code --hgrp} one of
     * its groups'), or null. With {@code -t} its command goes to
     * stderr as it is taken, under one lock, so the lines come in the jobs' order, as GNU
     * parallel's (which starts its jobs one at a time) do; a slot then takes no job ahead. A
     * template's Perl expressions are evaluated there too, once per job in the jobs' order, as
     * GNU parallel evaluates them ({@code $::G++} counts jobs 1, 2, 3...; the job's own render
     * finds the values computed).
     */
    private JobFeed.Pending take(int number, Slot slot) throws IOException {
        java.util.function.Predicate<JobFeed.Pending> fits = HostGroups.fits(options.remote(), slot.host());
        boolean ask = options.controls().interactive();
        boolean perl = template.usesPerl();
        if (!options.trace() && !ask && !perl) {
            return feed.next(fits);
        }
        takeOrder.lock();
        try {
            JobFeed.Pending p = feed.next(fits);
            if (p != null && (options.trace() || ask)) {
                try {
                    byte[] cmd = p.command() != null ? p.command() : evaluate(p, number);
                    if (ask) {
                        if (!printer.ask(cmd)) {
                            declined.add(p.args().sequence());
                        }
                    } else {
                        printer.trace(cmd);
                    }
                } catch (Template.Skipped skipped) {
                    // not run: runJob skips it
                }
            } else if (p != null && p.command() == null) {
                evaluated(p, number);
            }
            return p;
        } finally {
            takeOrder.unlock();
        }
    }

    /**
     * A job to queue behind the running one in slot {@code number}, if one is ready; its Perl
     * expressions evaluated as it is taken, as {@link #take} does, so that they run in the jobs'
     * order. None while another slot takes one (it may be waiting for input, or, with hosts, for
     * the jobs in flight, this one's among them).
     */
    private JobFeed.Pending takeAhead(int number) throws IOException {
        if (!template.usesPerl()) {
            return feed.nextIfAny();
        }
        if (!takeOrder.tryLock()) {
            return null;
        }
        try {
            JobFeed.Pending n = feed.nextIfAny();
            if (n != null && n.command() == null) {
                evaluated(n, number);
            }
            return n;
        } finally {
            takeOrder.unlock();
        }
    }

    /**
     * Held while a job is taken and its command rendered where the jobs' order matters (-t,
     * --interactive, Perl expressions).
     */
    private final java.util.concurrent.locks.ReentrantLock takeOrder = new java.util.concurrent.locks.ReentrantLock();

    /**
     * The commands of jobs taken but not yet run, rendered as they were taken ({@link #take}):
     * a template's Perl expressions run once per job, in the jobs' order, however large the job
     * ({@code -X}), and what they ended with ({@code skip()}, {@code exit}, an error) comes at
     * the job's own turn. By job number.
     */
    private final Map<Long, Evaluated> evaluated = new java.util.concurrent.ConcurrentHashMap<>();

    /** A job's command as rendered in slot {@code slot}, or what its render threw. */
    private record Evaluated(int slot, byte[] command, RuntimeException failure) {}

    /** Renders job {@code p} in slot {@code number} and keeps the command, or what the render threw, for its turn. */
    private void evaluated(JobFeed.Pending p, int number) {
        try {
            evaluate(p, number);
        } catch (RuntimeException e) {
            // kept by evaluate: thrown at the job's turn
        }
    }

    /** As {@link #evaluated}, and returns the command (or throws what the render threw). */
    private byte[] evaluate(JobFeed.Pending p, int number) {
        JobArgs args = p.args().inSlot(number);
        try {
            byte[] cmd = template.render(args, options.batching());
            if (template.usesPerl()) {
                evaluated.put(args.sequence(), new Evaluated(number, cmd, null));
            }
            return cmd;
        } catch (RuntimeException e) {
            if (template.usesPerl()) {
                evaluated.put(args.sequence(), new Evaluated(number, null, e));
            }
            throw e;
        }
    }

    /**
     * Job {@code args}'s command: the one rendered as it was taken, if in the same slot (once;
     * {@code keep}: left for the job's own turn), else rendered now.
     */
    private byte[] command(JobArgs args, boolean keep) {
        if (!template.usesPerl()) {
            return template.render(args, options.batching()); // nothing kept: the per-job path looks up nothing
        }
        Evaluated e = keep ? evaluated.get(args.sequence()) : evaluated.remove(args.sequence());
        if (e == null || e.slot() != args.slot()) {
            return template.render(args, options.batching());
        }
        if (e.failure() != null) {
            throw e.failure();
        }
        return e.command();
    }

    /**
     * The job's {@code --retries}: its replacement strings' rendering read as Perl reads a
     * number (its leading digits; none: 0), as GNU parallel reads it for each failing job.
     */
    private int retriesOf(JobArgs args) {
        Template t = options.controls().retries();
        if (t == null) {
            return options.retries();
        }
        String r;
        try {
            r = new String(t.render(args, options.batching()), java.nio.charset.StandardCharsets.ISO_8859_1).strip();
        } catch (Template.Skipped skipped) {
            return 0;
        }
        java.util.regex.Matcher m = LEADING_COUNT.matcher(r);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** The jobs {@code -p}'s question was answered no for: skipped, as GNU parallel skips them. */
    private final java.util.Set<Long> declined = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * {@code --template}: writes each file with the job's values in its name and contents
     * (relative names in the caller's directory) and returns their names.
     */
    private List<byte[]> writeFiles(JobArgs args) throws IOException {
        List<JobControls.FileTemplate> files = options.controls().files();
        if (files.isEmpty()) {
            return List.of();
        }
        List<byte[]> names = new ArrayList<>(files.size());
        for (JobControls.FileTemplate t : files) {
            byte[] name = t.name().render(args, options.batching());
            int fd;
            try {
                fd = Libc.open(name, Flags.O_WRONLY | Flags.O_CREAT | Flags.O_TRUNC | Flags.O_CLOEXEC, 0666);
            } catch (PosixException e) {
                throw new ExecException("--template: cannot write " + display(name) + ": " + Libc.strerror(e.errno()));
            }
            try (java.io.FileOutputStream o = new java.io.FileOutputStream("/proc/self/fd/" + fd)) {
                o.write(t.content().renderJoined(args, options.batching()));
            } finally {
                Libc.close(fd);
            }
            names.add(name);
        }
        return names;
    }

    /** The running jobs' slots by sequence number, for {@code --limit}'s status 2 (maintained only with it). */
    private final java.util.concurrent.ConcurrentSkipListMap<Long, Slot> running = new java.util.concurrent.ConcurrentSkipListMap<>();

    /** How often {@code --limit} runs while jobs run (GNU parallel's wait loop runs it on every turn, up to a second apart). */
    private static final long LIMIT_CHECK_MILLIS = 200;

    /** {@code --limit}'s status 2: kills the youngest running job (the highest sequence number), as GNU parallel does. */
    private void stopYoungest() {
        java.util.Map.Entry<Long, Slot> y = running.lastEntry();
        if (y != null) {
            y.getValue().terminate(options.termSeq());
        }
    }


    /** The local slots that took a first job, for {@link #takeFirst}. */
    private int firstTaken;
    private final Object firstTake = new Object();

    /**
     * The first job of a local slot's thread, and the slot it runs in: the Nth first job taken
     * runs in slot N (the Nth of {@link #slots}), as GNU parallel numbers its slots (the jobs of
     * a run's start in slots 1, 2, 3...; then each in the slot that was freed first, as a slot's
     * thread takes its next job when its job ends). Local slots are alike until their first
     * job, so the threads may trade them; none is used by two.
     */
    private First takeFirst(Slot own, int ownNumber) throws IOException {
        synchronized (firstTake) {
            try {
                int n = firstTaken + 1;
                JobFeed.Pending p = take(n, slots.get(n - 1));
                if (p == null) {
                    firstRoundOver = true; // no job for this slot: none for the later ones either
                    return new First(own, ownNumber, null);
                }
                firstTaken = n;
                if (n == slots.size()) {
                    firstRoundOver = true;
                }
                return new First(slots.get(n - 1), n, p);
            } catch (IOException | RuntimeException e) {
                firstRoundOver = true;
                throw e;
            } finally {
                firstTake.notifyAll();
            }
        }
    }

    /** Every local slot has taken its first job (or there were fewer jobs, or a take failed). */
    private volatile boolean firstRoundOver;

    /**
     * Waits until every local slot has taken its first job: as GNU parallel starts the jobs of a
     * run's start all at once, in slots 1, 2, 3..., a job that ends before the last of them
     * started leaves its slot for the next free one after them, not for the next job (a slot's
     * thread that came late took slot 2 again: {@code {%}} of the first jobs changed from run to run).
     */
    private void awaitFirstRound() {
        if (firstRoundOver) {
            return;
        }
        synchronized (firstTake) {
            while (!firstRoundOver && !feed.stopped()) {
                try {
                    firstTake.wait(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** A slot's thread's first job (null: none), the slot it runs in and that slot's number. */
    private record First(Slot slot, int number, JobFeed.Pending job) {}

    private void loop(Slot mine, int threadNumber) {
        boolean pipelining = pipelining();
        int[] tries = new int[1];
        java.util.ArrayDeque<JobFeed.Pending> ahead = new java.util.ArrayDeque<>();
        try {
            Slot slot = mine;
            int number = threadNumber;
            JobFeed.Pending p;
            if (hosts == null) {
                First first = takeFirst(mine, threadNumber);
                slot = first.slot();
                number = first.number();
                p = first.job();
            } else {
                p = slot.awaitReady(feed::finished) ? take(number, slot) : null;
            }
            while (p != null) {
                busy.incrementAndGet();
                if (pipelining) {
                    for (int depth = slot.queueDepth(); ahead.size() < depth && worthQueueing(); ) {
                        JobFeed.Pending n;
                        try {
                            n = takeAhead(number);
                        } catch (ExecException tooLong) {
                            // the jobs taken before it still run, as GNU parallel's do; the next take meets it again
                            break;
                        }
                        if (n == null) {
                            break;
                        }
                        ahead.add(n);
                    }
                }
                try {
                    runJob(slot, number, p, ahead, tries);
                    if (hosts != null) {
                        feed.done();
                    }
                } catch (HostLostException lost) {
                    started.decrementAndGet();
                    feed.requeue(p, tries[0]);
                    for (JobFeed.Pending n : ahead) {
                        feed.requeue(n, 0); // sent ahead, never started here
                    }
                    ahead.clear();
                } finally {
                    busy.decrementAndGet();
                }
                if (!ahead.isEmpty()) {
                    p = ahead.poll();
                } else {
                    if (hosts == null) {
                        awaitFirstRound();
                    }
                    p = slot.awaitReady(feed::finished) ? take(number, slot) : null;
                }
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof ExecException x && x.exitStatus() >= 0) {
                // as GNU parallel, which exits then: the running jobs go unprinted and unlogged
                if (exited < 0) {
                    exited = x.exitStatus();
                    killAll();
                }
                return;
            }
            // an UncheckedIOException's own message is its cause's toString ("java.io.IOException: ...")
            Throwable t = e instanceof java.io.UncheckedIOException && e.getCause() != null ? e.getCause() : e;
            String msg = t.getMessage() != null ? t.getMessage() : t.toString();
            if (fatal.compareAndSet(null, msg)) {
                feed.stop();
            }
        }
    }

    /**
     * Runs one job, with its retries. {@code tries[0]}: the attempts made, for a job lost with
     * its host ({@link HostLostException}), which counts them against {@code --retries}.
     */
    private void runJob(Slot slot, int number, JobFeed.Pending p, java.util.Deque<JobFeed.Pending> ahead, int[] tries)
            throws IOException {
        tries[0] = 0;
        if (!pacing.awaitTurn() && options.delay().compareTo(java.time.Duration.ZERO) > 0) {
            if (ordered != null) {
                ordered.skip(p.args().sequence()); // halted while this job waited for its --delay: never started
            }
            return;
        }
        JobArgs args = p.args().inSlot(number);
        byte[] cmd;
        byte[] skip = null;
        try {
            cmd = p.command() != null ? p.command() : command(args, false);
            if (filter != null && p.command() == null && !filter.holds(args, options.batching())) {
                skip = cmd;
            }
        } catch (Template.Skipped skipped) {
            skip = skipped.command();
            cmd = skip;
        }
        if (skip != null) {
            // as GNU parallel: not run, logged with exit value -2, counted as failed
            started.incrementAndGet();
            finish(slot, new JobResult(args, skip, -2, 0, System.currentTimeMillis() / 1000.0, 0, 1, 0,
                    new byte[0], new byte[0], slot.host()), false);
            return;
        }
        if (p.logged() != null && options.resume() == ResumeMode.RESUME_FAILED && !Arrays.equals(p.logged().command(), cmd)) {
            throw new ExecException("the job log " + options.joblog() + " does not match the input: job "
                    + args.sequence() + " was '" + display(p.logged().command()) + "', now '" + display(cmd) + "'");
        }
        if (options.controls().interactive() && declined.remove(args.sequence())) {
            // -p answered no: as GNU parallel's skip(), not run, logged with exit value -2, counted as failed
            started.incrementAndGet();
            finish(slot, new JobResult(args, cmd, -2, 0, System.currentTimeMillis() / 1000.0, 0, 1, 0,
                    new byte[0], new byte[0], slot.host()), false);
            return;
        }
        started.incrementAndGet();
        List<byte[]> written = writeFiles(args);
        byte[] stdin = options.pipe() && p.command() == null ? p.block() : null;
        // attempts on lost hosts count against --retries, as GNU parallel counts a failed ssh
        int retries = retriesOf(args);
        int attempts = Math.max(1, retries - p.tried());
        Slot.Attempt a = null;
        boolean byTimeout = false;
        int attempt = 0;
        slot.prepareJob(args);
        while (attempt < attempts) {
            attempt++;
            if (options.trace() && attempt > 1) {
                printer.trace(cmd); // a retry starts again (the first start's line came with the job)
            }
            listener.started(args);
            slot.prepare();
            if (slot.streamsOutput()) {
                slot.tag(options.tag() == null ? null : printer.tagOf(args));
                printer.announce(new JobResult(args, cmd, 0, 0, 0, 0, 0, 0, null, null, slot.host()));
            }
            java.util.concurrent.atomic.AtomicBoolean timedOut = new java.util.concurrent.atomic.AtomicBoolean();
            ScheduledFuture<?> kill = scheduleTimeout(slot, timedOut);
            tries[0] = attempt;
            if (options.controls().limit() != null) {
                running.put(args.sequence(), slot);
            }
            try {
                boolean defining = functions.length > 0 && !(slot instanceof RemoteSlot);
                a = slot.run(defining ? Bytes.concat(functions, cmd) : cmd, p.command() == null && options.directExec() && !defining
                        ? template.commands(args, options.batching()) : null, args.sequence(),
                        p.command() == null && !defining ? shape : Template.Shape.SHELL, stdin, queued(ahead, number, defining));
            } catch (HostLostException lost) {
                // without --retries a job lost with its host runs again, but not forever: one
                // that takes its host down each time (kill $PPID, a host out of memory) stops
                // after LOST_LIMIT losses
                boolean again = retries <= 1 ? p.tried() + attempt < LOST_LIMIT : attempt < attempts;
                if (again) {
                    throw lost; // runs again on another host
                }
                if (retries <= 1) {
                    printer.warnLostTooOften(cmd, LOST_LIMIT);
                }
                // its last try: failed as GNU parallel reports an ssh that fails
                a = new Slot.Attempt(255, 0, false, System.currentTimeMillis(), 0);
            } finally {
                if (kill != null) {
                    kill.cancel(false);
                }
            }
            byTimeout = a.killed() && (timedOut.get() || slot.enforcesTimeout() && !haltPolicy.halted());
            if (byTimeout) {
                printer.warnTimedOut(cmd);
            }
            boolean ok = !a.killed() && a.exit() == 0 && a.signal() == 0;
            if (ok || attempt == attempts || feed.stopped()) {
                break;
            }
            slot.discardOutput();
        }
        running.remove(args.sequence());
        if (options.controls().removeFiles()) {
            for (byte[] f : written) {
                Libc.unlinkOrErrno(f);
            }
        }
        boolean killed = a.killed();
        int exit = killed ? -1 : a.exit();
        int signal = killed ? (pool == null ? options.termSeq().getFirst().signal() : a.signal()) : a.signal();
        byte[] capturedOut = null;
        byte[] capturedErr = null;
        long received = slot.stdoutSize();
        JobResult result;
        if (out == null && results == null) {
            HeldOutput[] h = slot.holdOutput();
            try (HeldOutput ho = h[0]; HeldOutput he = h[1]) {
                capturedOut = ho.toByteArray();
                capturedErr = he.toByteArray();
            }
        }
        result = new JobResult(args, cmd, exit, signal, a.startMillis() / 1000.0, a.nanos(), attempt, received,
                capturedOut, capturedErr, slot.host());
        // the median serves --timeout P% and queueing only: keep it only for them
        if (result.ok() && (options.timeoutPercent() > 0 || pipelining() && slot.queueDepth() > 0)) {
            median.add(a.nanos());
        }
        finish(slot, result, exited >= 0 || cutByHalt(a, byTimeout));
    }

    /** Prints or holds a finished job's output, logs it, reports it and counts it. */
    private void finish(Slot slot, JobResult result, boolean cut) throws IOException {
        if (cut && out != null && results == null) {
            if (ordered != null) {
                ordered.complete(result.sequence(), new Held(result, null, true));
            }
        } else if (out != null || results != null) {
            deliver(slot, result);
        } else if (ordered != null) {
            ordered.complete(result.sequence(), new Held(result, null, cut));
        }
        slot.discardOutput();
        if (template.usesPerl()) {
            template.perlCompleted(completed.incrementAndGet());
        }
        if (ordered == null && !cut) {
            log(result);
        }
        if (ordered == null) {
            listener.finished(result);
        }
        account(result);
    }

    /**
     * Whether {@code --halt now} killed this job. GNU parallel prints nothing of such a job
     * and does not log it; with {@code -k} it prints no later job either, as the killed job
     * never comes to its turn.
     */
    private boolean cutByHalt(Slot.Attempt a, boolean byTimeout) {
        return a.killed() && !byTimeout && haltPolicy.haltedNow() && options.output() == OutputMode.GROUP;
    }

    /** Writes the job-log line of {@code r}: in input order with {@code -k}, as GNU parallel does. */
    private void log(JobResult r) throws IOException {
        if (joblog != null) {
            joblog.write(r.sequence(), r.host(), r.startSeconds(), r.runtimeNanos() / 1e9, r.stdoutBytes(), r.exitCode(),
                    r.signal(), r.command());
        }
    }

    /** The jobs to queue behind the running one, rendered as they will run, up to the first that cannot be. */
    private List<Slot.Next> queued(java.util.Deque<JobFeed.Pending> ahead, int number, boolean defining) {
        if (ahead.isEmpty()) {
            return List.of();
        }
        List<Slot.Next> r = new ArrayList<>(ahead.size());
        for (JobFeed.Pending next : ahead) {
            if (next.command() != null) {
                break;
            }
            JobArgs args = next.args().inSlot(number);
            try {
                byte[] script = command(args, true);
                r.add(!defining ? new Slot.Next(script, args.sequence(), shape)
                        : new Slot.Next(Bytes.concat(functions, script), args.sequence(), Template.Shape.SHELL));
            } catch (RuntimeException skippedOrFailed) {
                break; // its own turn skips it, or meets what its render threw
            }
        }
        return r;
    }

    /** Descriptors a {@code --pipe} slot holds: its two output files (two each, and one more each for the job) and its block's pipe. */
    private static final int PIPE_SLOT_FILES = 8;

    /**
     * {@code --pipe} under a low descriptor limit ({@code ulimit -n 20}): as many slots as the
     * descriptors left allow, at least one, as GNU parallel runs fewer jobs when it has too few.
     */
    private static int slotsWithinDescriptorLimit() {
        long left = Libc.openFileLimit() - Libc.openFiles() - 2; // two for the moment's own (a PATH lookup, a listing)
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, left / PIPE_SLOT_FILES));
    }

    private void deliver(Slot slot, JobResult r) throws IOException {
        if (results != null) {
            Template named = options.controls().resultsName();
            byte[][] paths = named == null ? results.files(r.args().tuples())
                    : ResultsDir.named(named.render(r.args(), options.batching()));
            try (FileOutputStream so = ResultsDir.create(paths[0]);
                 FileOutputStream se = ResultsDir.create(paths[1]);
                 FileOutputStream sq = ResultsDir.create(paths[2])) {
                slot.writeOutput(so, se);
                sq.write(Long.toString(r.sequence()).getBytes(StandardCharsets.US_ASCII)); // no newline, as GNU's
            }
            if (options.controls().compress() != null) {
                compress(paths[0]);
                compress(paths[1]);
            }
            if (ordered != null) {
                ordered.complete(r.sequence(), new Held(r, null, false));
            }
            return;
        }
        if (options.output() != OutputMode.GROUP) {
            if (ordered != null) {
                ordered.complete(r.sequence(), new Held(r, null, false)); // -k --lb: its turn ends in order
            }
            return;
        }
        if (ordered != null) {
            ordered.complete(r.sequence(), new Held(r, slot.holdOutput(), false));
            return;
        }
        printer.print(r, slot);
    }

    /**
     * {@code --compress} with {@code --results DIR}: the file at {@code path} passed through the
     * compressor in place, through a pipe as GNU parallel writes it (so gzip records no time);
     * an empty one stays empty. A compressor that
     * fails says so on stderr ({@code brisk: Error: PRG failed.}) and leaves the file as it was.
     */
    private void compress(byte[] path) throws IOException {
        String prg = options.controls().compress();
        String script = "[ -s \"$1\" ] || exit 0; cat \"$1\" | { " + prg + "\n} >\"$1.brisk-z\" && mv -f \"$1.brisk-z\" \"$1\" "
                + "|| { rm -f \"$1.brisk-z\"; exit 1; }";
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", script, "sh", new String(path, StandardCharsets.UTF_8))
                .directory(new java.io.File(Caller.workingDirectory()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().clear();
        pb.environment().putAll(caller.environment());
        try {
            if (pb.start().waitFor() != 0) {
                synchronized (outLock) {
                    err.write(("brisk: Error: " + prg + " failed.\n").getBytes(StandardCharsets.UTF_8));
                    err.flush();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private ScheduledFuture<?> scheduleTimeout(Slot slot, java.util.concurrent.atomic.AtomicBoolean fired) {
        if (options.timeout() == null && options.timeoutPercent() > 0) {
            // P% of the median runtime of the jobs that succeeded so far, as GNU parallel's: the
            // limit of a running job follows the median as jobs end (none before the first); the
            // check ends with the job (its caller cancels it), and fires once
            long start = System.nanoTime();
            return timer.scheduleAtFixedRate(() -> {
                long limit = median.count() == 0 ? 0 : (long) (median.median() * options.timeoutPercent() / 100.0);
                if (limit > 0 && System.nanoTime() - start >= limit && !fired.getAndSet(true)) {
                    slot.terminate(options.termSeq());
                }
            }, PERCENT_TIMEOUT_CHECK_MILLIS, PERCENT_TIMEOUT_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        }
        long nanos = options.timeout() == null ? 0 : options.timeout().toNanos();
        if (nanos <= 0 || pool != null) {
            return null;
        }
        return timer.schedule(() -> {
            fired.set(true);
            slot.terminate(options.termSeq());
        }, nanos, TimeUnit.NANOSECONDS);
    }

    private void account(JobResult r) throws IOException {
        HaltPolicy.Verdict v = haltPolicy.count(r);
        if (v == HaltPolicy.Verdict.NONE) {
            return;
        }
        boolean halts = v == HaltPolicy.Verdict.HALTS;
        if (halts) {
            feed.stop();
        }
        boolean now = haltPolicy.haltedNow();
        synchronized (outLock) {
            err.write(haltPolicy.message(r, halts, started.get() - haltPolicy.done()));
            err.flush();
        }
        if (halts && now) {
            if (pool != null) {
                pool.close();
            }
            for (Slot s : List.copyOf(slots)) {
                timer.execute(() -> s.halt(options.termSeq()));
            }
        }
    }

    public void stop() {
        stopped = true;
        if (feed != null) {
            killAll();
        }
    }

    private void killAll() {
        template.interrupt(); // a Perl expression that never ends would hold its slot (and the call) forever
        if (filter != null) {
            filter.interrupt();
        }
        if (feed != null) {
            feed.stop();
        }
        for (Slot s : List.copyOf(slots)) {
            s.kill();
        }
        if (hosts != null) {
            hosts.kill();
        }
        if (pool != null) {
            pool.close();
        }
    }

    /** Prints a held job's output and reports it: the end of the {@code -k} path. */
    private void emitHeld(Held d) {
        stalled |= d.cut;
        try {
            if (!stalled) {
                log(d.result);
            }
            if (d.output != null && !stalled) {
                printer.print(d.result, d.output);
            }
            if (lineOrder != null) {
                synchronized (outLock) {
                    lineOrder.advance(d.result.sequence());
                }
            }
        } catch (IOException e) {
            fatal.compareAndSet(null, "cannot write output: " + e.getMessage());
            feed.stop();
        } finally {
            if (d.output != null) {
                d.output[0].close();
                d.output[1].close();
            }
        }
        listener.finished(d.result);
    }
    /**
     * A finished job waiting for its turn with {@code -k}: its result, its held output (or
     * null), and whether {@code --halt now} killed it (see {@code cutByHalt}).
     */
    record Held(JobResult result, HeldOutput[] output, boolean cut) {}

    private static boolean holdsNewline(byte[] b) {
        for (byte x : b) {
            if (x == '\n') {
                return true;
            }
        }
        return false;
    }

    private static String display(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    /**
     * The descriptor a standard stream writes to ({@code posix.DescriptorStream}): 1 or 2 for a stream over
     * {@code FileDescriptor.out} or {@code .err}, a client's number for its stream; else -1.
     */
    private static int descriptorNumber(OutputStream s) {
        if (!(s instanceof FileOutputStream f)) {
            return s instanceof DescriptorOutput d ? d.fd() : -1; // (a direct run never loads the class)
        }
        try {
            java.io.FileDescriptor d = f.getFD();
            return d == java.io.FileDescriptor.out ? 1 : d == java.io.FileDescriptor.err ? 2 : -1;
        } catch (IOException e) {
            return -1;
        }
    }
}
